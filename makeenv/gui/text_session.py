"""Text games in the browser: the TextArena-style loop with one person and an opponent agent.

A text env (``reset`` / ``get_observation`` / ``step`` / ``close``) is driven here for two
players: the person writes their turn on the page, the opponent agent (and a jury, when the game
has one) runs in a worker thread while the page polls. Nothing here knows a particular game: a
game may offer ``scenario`` (shown above the prompt), ``rejudge()`` (ask a failed jury again) and a
``verdict`` in its game info; each is used when present.
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from makeenv.gui.common import GuiError, jsonable

MAX_TEXT_CHARS = 200_000      # longest turn the page accepts


class TextGame:
    """A text game: how to build a fresh env per session, the opponent agent and the guide."""

    kind = "text"

    def __init__(self, name: str, env_factory: Callable[[], Any], agent: Callable[[str], str] | None,
                 agent_name: str | None = None, jury_name: str | None = None, readme: str | None = None):
        self.name = name
        self.env_factory = env_factory
        self.agent = agent
        self.agent_name = agent_name or (getattr(agent, "__name__", "agent") if agent else None)
        self.jury_name = jury_name
        self.readme = readme or ""

    def info(self) -> dict[str, Any]:
        return {"kind": "text", "game": self.name, "players": 2, "modes": ["play"],
                "agent": self.agent_name, "jury": self.jury_name, "readme": self.readme,
                "max_chars": MAX_TEXT_CHARS}


def _scenario_of(env: Any, observation: str) -> str:
    scenario = getattr(env, "scenario", None)
    if isinstance(scenario, str) and scenario:
        return scenario
    for line in observation.splitlines():
        if line.startswith("Scenario:"):
            return line[len("Scenario:"):].strip()
    return ""


class TextSession:
    """One text game: the human's seat, the opponent agent and the jury, run in a worker thread."""

    kind = "text"

    def __init__(self, game: TextGame, seat: int | None, seed: int | None, executor: ThreadPoolExecutor,
                 env: Any | None = None):
        if game.agent is None:
            raise GuiError(400, "No opponent agent is configured for this text game; restart "
                                "`makeenv play` with --agent SPEC.")
        self.game = game
        self.session_id = ""
        self.created = time.time()
        self.lock = threading.Lock()
        self.executor = executor
        # Default seat 1: the opponent (Player 0) writes while the person reads and writes.
        self.seat = seat if seat is not None else 1
        self.notice = ""
        self.env = env if env is not None else game.env_factory()
        self.env.reset(num_players=2, seed=seed)
        self.seed = seed
        self.status = "working"
        self.message = "Starting..."
        self.error: str | None = None
        self.prompt = ""
        self.scenario = ""
        self.submissions: dict[int, str] = {}
        self.events: list[dict[str, Any]] = []
        self.verdict: Any = None
        self.rewards: Any = None
        self.game_info: Any = None
        self.board = ""
        self.done = False
        player, observation = self.env.get_observation()
        self.scenario = _scenario_of(self.env, observation)
        if player == self.seat:
            self.status, self.prompt = "your_turn", observation
            self.message = "Your turn: write your strategy, then submit it."
        else:
            self.message = f"{self.who(player)} is writing its strategy... (you can start writing yours)"
            self._run(self._advance)

    # ----- the loop, in a worker thread -----
    def _run(self, job: Callable[[], None]) -> None:
        def wrapped() -> None:
            try:
                job()
            except Exception as error:  # shown on the page; the session stays inspectable
                with self.lock:
                    self.status, self.error = "error", f"{type(error).__name__}: {error}"
                    self.message = self.error

        self.executor.submit(wrapped)

    def _step(self, player: int, text: str) -> None:
        from_jury = len(self.submissions) + 1 >= 2 and player not in self.submissions
        with self.lock:
            self.submissions[player] = text
            self.events.append({"player": player, "who": self.who(player), "kind": "submission",
                                "chars": len(text), "time": time.time()})
            if from_jury:
                self.status, self.message = "working", f"The jury ({self.game.jury_name or 'jury'}) is voting..."
        try:
            done, info = self.env.step(text)
        except Exception as error:
            self._jury_failed(error)
            return
        self._after_step(done, info)

    def _jury_failed(self, error: Exception) -> None:
        from makeenv.text.jury.base import JuryUnavailable

        if not isinstance(error, JuryUnavailable):
            raise error
        with self.lock:
            self.status = "jury_unavailable"
            self.message = str(error)
            self.verdict = jsonable(getattr(error, "verdict", None))

    def _after_step(self, done: bool, info: Any) -> None:
        with self.lock:
            if isinstance(info, dict):
                if info.get("invalid_move") and info.get("player_id") == self.seat:
                    self.notice = str(info.get("message", ""))
                text = info.get("message") or info.get("reason")
                if text:
                    self.events.append({"kind": "game", "player": info.get("player_id"), "text": str(text),
                                        "time": time.time()})
        if done:
            self._finish()
        else:
            self._advance()

    def _advance(self) -> None:
        while True:
            player, observation = self.env.get_observation()
            if player == self.seat:
                with self.lock:
                    self.prompt = observation
                    self.status = "your_turn"
                    self.message = self.notice or "Your turn: write your strategy, then submit it."
                    self.notice = ""
                return
            with self.lock:
                self.status = "working"
                hint = "" if self.seat in self.submissions else " (you can start writing yours)"
                self.message = f"{self.who(player)} is writing its strategy...{hint}"
            text = self.game.agent(observation)
            if not isinstance(text, str):
                raise TypeError(f"the opponent agent returned {type(text).__name__}, expected str")
            self._step(player, text)  # continues the loop itself (via _after_step)
            return

    def _finish(self) -> None:
        rewards, game_info = self.env.close()
        try:
            board = self.env.get_board_str()
        except Exception:
            board = ""
        info = jsonable(game_info) if game_info is not None else {}
        verdict = info.get("verdict") if isinstance(info, dict) else None
        if verdict is None and isinstance(info, dict) and "ballots" in info:
            verdict = {key: info.get(key) for key in ("votes", "abstentions", "ballots", "truncated") if key in info}
        with self.lock:
            self.rewards = jsonable(rewards)
            self.game_info = info
            self.verdict = verdict
            self.board = board
            self.done = True
            self.status, self.message = "done", "The game is over."

    def discard(self) -> None:
        """Close the env of a session that is forgotten before its game finished."""
        with self.lock:
            finished = self.done
            self.done = True
            if not finished:
                self.status, self.message = "error", "This session was closed."
        if not finished:
            self.env.close()

    # ----- requests -----
    def who(self, player: int) -> str:
        return "You" if player == self.seat else f"Opponent ({self.game.agent_name})"

    def act(self, action: Any) -> None:
        if not isinstance(action, str):
            raise GuiError(400, f"Invalid action: a text game's action is a strategy as a string, got {type(action).__name__}.")
        if not action.strip():
            raise GuiError(400, "Invalid action: the strategy is empty. Write what you would do, then submit.")
        if len(action) > MAX_TEXT_CHARS:
            raise GuiError(400, f"Invalid action: the strategy has {len(action)} characters; the page accepts at most {MAX_TEXT_CHARS}.")
        with self.lock:
            if self.done:
                raise GuiError(400, "The game is over. Start a new game to play again.")
            if self.status != "your_turn":
                raise GuiError(409, f"Not your turn yet: {self.message}")
            self.status, self.message = "working", "Submitting your strategy..."
        self._run(lambda: self._step(self.seat, action))

    def rejudge(self) -> None:
        if not callable(getattr(self.env, "rejudge", None)):
            raise GuiError(400, f"{self.game.name} has no jury to ask again.")
        with self.lock:
            if self.status != "jury_unavailable":
                raise GuiError(400, "Nothing to rejudge: the jury has not failed in this game.")
            self.status, self.message = "working", "Asking the jury again..."

        def job() -> None:
            try:
                outcome = self.env.rejudge()
            except Exception as error:
                self._jury_failed(error)
                return
            done, info = outcome if isinstance(outcome, tuple) and len(outcome) == 2 else (True, outcome)
            self._after_step(done, info)

        self._run(job)

    def result(self) -> dict[str, Any] | None:
        if not self.done:
            return None
        rewards = self.rewards
        mine = rewards.get(str(self.seat)) if isinstance(rewards, dict) else (
            rewards[self.seat] if isinstance(rewards, list) and len(rewards) > self.seat else None)
        if mine is None:
            return {"outcome": "unknown", "text": "The game is over.", "reward": None}
        judged = self.verdict is not None  # a game decided by a jury says so
        if mine > 0:
            text = "You won: the jury preferred your strategy." if judged else "You won."
            return {"outcome": "win", "text": text, "reward": mine}
        if mine < 0:
            text = "You lost: the jury preferred the opponent's strategy." if judged else "You lost."
            return {"outcome": "loss", "text": text, "reward": mine}
        return {"outcome": "draw", "text": "A draw.", "reward": mine}

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            reveal = self.done or self.status == "jury_unavailable"
            return {
                "session_id": self.session_id, "kind": "text", "game": self.game.name, "mode": "play",
                "seat": self.seat, "status": self.status, "message": self.message, "error": self.error,
                "scenario": self.scenario, "prompt": self.prompt if self.status == "your_turn" else "",
                "submitted": sorted(self.submissions),
                "strategies": ({self.who(p): t for p, t in sorted(self.submissions.items())} if reveal else {}),
                "strategies_by_player": ({f"Player {p}": t for p, t in sorted(self.submissions.items())}
                                         if reveal else {}),
                "verdict": self.verdict if reveal else None, "rewards": self.rewards,
                "result": self.result(), "board": self.board,
                "agent": self.game.agent_name, "jury": self.game.jury_name,
            }

    def history(self) -> dict[str, Any]:
        snapshot = self.snapshot()
        with self.lock:
            snapshot.update({"created": self.created, "seed": self.seed, "events": list(self.events),
                             "game_info": self.game_info})
        if not (self.done or self.status == "jury_unavailable"):
            snapshot["note"] = "Strategies are shown once both players have submitted."
        return snapshot


