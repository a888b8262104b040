"""Text games in the browser: the TextArena-style loop with one person and the other seats.

Any text env (``reset`` / ``get_observation`` / ``step`` / ``close``) is driven here: the person
answers on the page, the other seats are played by the opponent agent (in a worker thread while
the page polls) or, in games with built-in bots, by the bots of a level. Nothing here knows a
particular game; what a game offers is read from its optional hooks (see ``makeenv.text.core``):
``seat_count``, ``bot_levels`` / ``seat_bots``, ``render`` (its picture from the person's side),
``action_options`` (answers as buttons), ``answer_hint`` (how the answer box looks),
``result_panel`` (what the finished game shows), ``has_jury``, and ``awaiting_rejudge`` /
``rejudge`` (a judge that failed and may be asked again).
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from makeenv.gui.common import GuiError, jsonable, picture_fields
from makeenv.text.core import TextEnv

MAX_TEXT_CHARS = 200_000  # longest answer the page accepts
DEFAULT_HINT = dict(TextEnv.answer_hint)


class TextGame:
    """A text game: how to build a fresh env per session, its opponents and the guide."""

    kind = "text"

    def __init__(
        self,
        name: str,
        env_factory: Callable[[], Any],
        agent: Callable[[str], str] | None,
        agent_name: str | None = None,
        jury_name: str | None = None,
        readme: str | None = None,
        probe: Any = None,
        level: int | None = None,
    ):
        self.name = name
        self.env_factory = env_factory
        self.agent = agent
        self.agent_name = agent_name or (getattr(agent, "__name__", "agent") if agent else None)
        self.readme = readme or ""
        probe = probe if probe is not None else env_factory()
        self.seat_count = int(getattr(probe, "seat_count", 0) or probe.max_players)
        self.has_jury = bool(getattr(probe, "has_jury", False))
        self.jury_name = (jury_name or "the game's default") if self.has_jury else None
        self.answer_hint = {**DEFAULT_HINT, **dict(getattr(probe, "answer_hint", None) or {})}
        self.bot_levels = {int(k): str(v) for k, v in (getattr(probe, "bot_levels", None) or {}).items()}
        if not callable(getattr(probe, "seat_bots", None)):
            self.bot_levels = {}
        if level is not None and level not in self.bot_levels:
            raise ValueError(
                f"{name} has no bot level {level}"
                + (f"; levels: {sorted(self.bot_levels)}" if self.bot_levels else " (it has no bots)")
            )
        if agent is None and not self.bot_levels:
            raise ValueError(f"{name}: no opponent; give an agent (the other players' text agent)")
        # Without an agent the other seats are bots: of ``level``, else the first level above random.
        self.default_level = (
            level
            if level is not None
            else (None if agent is not None else min((lv for lv in self.bot_levels if lv > 0), default=0))
        )

    def opponents(self) -> list[dict[str, Any]]:
        """Who the person may play against: the agent, and each bot level."""
        choices: list[dict[str, Any]] = (
            [{"value": "agent", "label": f"Agent: {self.agent_name}"}] if self.agent is not None else []
        )
        choices += [
            {"value": level, "label": f"Bots of level {level}" + (f" · {text}" if text else "")}
            for level, text in sorted(self.bot_levels.items())
        ]
        return choices

    def info(self) -> dict[str, Any]:
        return {
            "kind": "text",
            "game": self.name,
            "players": self.seat_count,
            "modes": ["play"],
            "agent": self.agent_name,
            "jury": self.jury_name,
            "readme": self.readme,
            "max_chars": MAX_TEXT_CHARS,
            "answer_hint": self.answer_hint,
            "opponents": self.opponents(),
            "levels": sorted(self.bot_levels),
            "default_level": self.default_level,
        }


def parse_opponent(level: Any, game: TextGame) -> int | None:
    """The bots' level a session asks for (None: the agent)."""
    if level is None:
        return game.default_level
    if level == "agent":
        if game.agent is None:
            raise GuiError(
                400, f"{game.name} has no opponent agent here; choose a bot level {sorted(game.bot_levels)}."
            )
        return None
    if isinstance(level, str) and level.strip().isdigit():
        level = int(level)
    if isinstance(level, bool) or not isinstance(level, int):
        raise GuiError(400, f"level must be 'agent' or a bot level {sorted(game.bot_levels)}; got {level!r}")
    if level not in game.bot_levels:
        raise GuiError(
            400,
            f"Unknown level {level}; {game.name} has "
            + (f"bot levels {sorted(game.bot_levels)}." if game.bot_levels else "no bots (its opponent is the agent)."),
        )
    return level


class TextSession:
    """One text game: the person's seat, the other seats (agent or bots), run in a worker thread."""

    kind = "text"

    def __init__(
        self, game: TextGame, seat: int | None, seed: int | None, executor: ThreadPoolExecutor, level: Any = None
    ):
        self.game = game
        self.session_id = ""
        self.created = time.time()
        self.lock = threading.Lock()
        self.executor = executor
        self.level = parse_opponent(level, game)
        chance = random.Random(seed) if seed is not None else random
        self.seat: int = seat if seat is not None else chance.randrange(game.seat_count)
        self.seed = seed
        self.status = "working"
        self.message = "Starting..."
        self.notice = ""
        self.error: str | None = None
        self.events: list[dict[str, Any]] = []
        self.rewards: Any = None
        self.game_info: Any = None
        self.reason = ""
        self.done = False
        self.view: dict[str, Any] = {
            "transcript": "",
            "options": [],
            "panel": [],
            "board": "",
            "svg": None,
            "image": None,
            "image_error": None,
        }
        self.env = game.env_factory()
        try:
            if self.level is not None:
                self.env.seat_bots({s: self.level for s in range(game.seat_count) if s != self.seat})
            self.env.reset(num_players=1 if self.level is not None else game.seat_count, seed=seed)
        except (ValueError, TypeError) as error:
            raise GuiError(400, f"The game could not start: {error}") from None
        seats = list(getattr(self.env, "seats", range(game.seat_count)))
        self.me = seats.index(self.seat)
        self.names = {s: self._seat_name(s, seats) for s in range(game.seat_count)}
        self._run(self._advance)

    def _seat_name(self, seat: int, text_seats: list[int]) -> str:
        if seat == self.seat:
            return "You"
        if seat in text_seats:
            return f"Opponent ({self.game.agent_name})"
        label = getattr(self.env, "seat_label", None)
        if not callable(label):
            return "Bot"
        text = str(label(seat))
        return text[:1].upper() + text[1:]

    # ----- the loop, in a worker thread (the only thread that touches the env) -----
    def _run(self, job: Callable[[], None]) -> None:
        """Run ``job`` in a worker thread while an agent (or a judge) may take its time; against
        the game's own bots at once, so the reply already shows their moves."""

        def wrapped() -> None:
            try:
                job()
            except Exception as error:  # shown on the page; the session stays inspectable
                with self.lock:
                    self.status, self.error = "error", f"{type(error).__name__}: {error}"
                    self.message = self.error

        if self.level is not None and not self.game.has_jury:
            wrapped()
        else:
            self.executor.submit(wrapped)

    def _refresh(self) -> None:
        """Read what the person may see from the env (called between steps, in the worker)."""
        env, me = self.env, self.me
        view: dict[str, Any] = {
            "transcript": env.get_observation(me)[1],
            "board": "",
            "panel": [],
            "options": [],
            "svg": None,
            "image": None,
            "image_error": None,
        }
        stalled = bool(getattr(env, "awaiting_rejudge", False))
        if env.done or stalled:
            view["panel"] = jsonable(env.result_panel(me)) if callable(getattr(env, "result_panel", None)) else []
        if env.done:
            view["board"] = env.get_board_str()
        elif env.current_player == me and not stalled:
            options = env.action_options(me) if callable(getattr(env, "action_options", None)) else None
            view["options"] = jsonable(options or [])
        render = getattr(env, "render", None)
        if callable(render):
            try:
                picture = render(me)
                if picture is not None:
                    view.update(picture_fields(picture))
            except Exception as error:  # a drawing bug must not take the game down
                view["image_error"] = f"render failed: {type(error).__name__}: {error}"
        with self.lock:
            self.view = view

    def _advance(self) -> None:
        """Let the other seats answer until it is the person's turn or the game is over."""
        while not self.env.done:
            player, observation = self.env.get_observation()
            if player == self.me:
                self._refresh()
                with self.lock:
                    self.status = "your_turn"
                    self.message = self.notice or "Your turn."
                    self.notice = ""
                return
            seat = list(getattr(self.env, "seats", range(self.game.seat_count)))[player]
            with self.lock:
                self.status, self.message = "working", f"{self.names[seat]} is thinking..."
            from makeenv.text.turns import ask

            agent = self.game.agent
            if agent is None:  # parse_opponent seats bots in every other seat when there is no agent
                raise RuntimeError(
                    f"{self.game.name}: seat {seat} is a text seat but no opponent agent was given; "
                    "start the server with an agent or choose a bot level"
                )
            answer = ask(agent, self.env, observation, player)
            if not self._step(player, answer):
                return
        self._finish()

    def _step(self, player: int, text: str) -> bool:
        """Play ``text`` for ``player``; False when a judge failed and the game waits for ``rejudge``."""
        with self.lock:
            self.events.append({"player": player, "kind": "answer", "chars": len(text), "time": time.time()})
        try:
            _done, info = self.env.step(text)
        except Exception as error:
            if not getattr(self.env, "awaiting_rejudge", False):
                raise
            self._stalled(error)
            return False
        self._note(info)
        return True

    def _stalled(self, error: Exception) -> None:
        self._refresh()
        with self.lock:
            self.status, self.message = "stalled", str(error)

    def _note(self, info: Any) -> None:
        if not isinstance(info, dict):
            return
        with self.lock:
            if info.get("invalid_move") and info.get("player_id") == self.me and not info.get("forfeit"):
                self.notice = str(info.get("message", ""))
            text = info.get("message") or info.get("reason")
            if text:
                self.events.append(
                    {"kind": "game", "player": info.get("player_id"), "text": str(text), "time": time.time()}
                )

    def _finish(self) -> None:
        self._refresh()
        rewards, game_info = self.env.close()
        with self.lock:
            self.rewards = jsonable(rewards)
            self.game_info = jsonable(game_info) if game_info is not None else {}
            self.reason = str(getattr(self.env, "reason", "") or "")
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
    def act(self, action: Any) -> None:
        if not isinstance(action, str):
            raise GuiError(400, f"Invalid action: a text game's answer is a string, got {type(action).__name__}.")
        if not action.strip():
            raise GuiError(400, "Invalid action: the answer is empty. Write it, then send it.")
        if len(action) > MAX_TEXT_CHARS:
            raise GuiError(
                400,
                f"Invalid action: the answer has {len(action)} characters; the page accepts at most {MAX_TEXT_CHARS}.",
            )
        with self.lock:
            if self.done:
                raise GuiError(400, "The game is over. Start a new game to play again.")
            if self.status != "your_turn":
                raise GuiError(409, f"Not your turn yet: {self.message}")
            self.status, self.message = "working", "Sending your answer..."

        def job() -> None:
            if self._step(self.me, action):
                self._advance()

        self._run(job)

    def rejudge(self) -> None:
        if not callable(getattr(self.env, "rejudge", None)):
            raise GuiError(400, f"{self.game.name} has nothing to judge again.")
        with self.lock:
            if self.status != "stalled":
                raise GuiError(400, "Nothing to rejudge: the judging has not failed in this game.")
            self.status, self.message = "working", "Judging again..."

        def job() -> None:
            try:
                outcome = self.env.rejudge()
            except Exception as error:
                if not getattr(self.env, "awaiting_rejudge", False):
                    raise
                self._stalled(error)
                return
            self._note(outcome[1] if isinstance(outcome, tuple) and len(outcome) == 2 else outcome)
            self._advance()

        self._run(job)

    def result(self) -> dict[str, Any] | None:
        if not self.done:
            return None
        rewards = self.rewards if isinstance(self.rewards, dict) else {}
        mine = rewards.get(str(self.me))
        if mine is None:
            return {"outcome": "unknown", "text": "The game is over.", "reward": None, "reason": self.reason}
        others = [value for key, value in rewards.items() if key != str(self.me)]
        # Against other text players: compared with theirs; alone against bots: its sign (a return).
        best = max(others) if others else 0
        outcome = "win" if mine > best else "loss" if mine < best else "draw"
        text = {"win": "You won.", "loss": "You lost.", "draw": "A draw."}[outcome]
        return {"outcome": outcome, "text": text, "reward": mine, "reason": self.reason}

    def snapshot(self) -> dict[str, Any]:
        with self.lock:
            view = self.view
            return {
                "session_id": self.session_id,
                "kind": "text",
                "game": self.game.name,
                "mode": "play",
                "seat": self.seat,
                "players": self.game.seat_count,
                "level": self.level,
                "seat_names": [self.names[s] for s in range(self.game.seat_count)],
                "status": self.status,
                "message": self.message,
                "error": self.error,
                "transcript": view["transcript"],
                "options": view["options"] if self.status == "your_turn" else [],
                "svg": view["svg"],
                "image": view["image"],
                "image_error": view["image_error"],
                "panel": view["panel"],
                "board": view["board"],
                "rewards": self.rewards,
                "result": self.result(),
                "agent": self.game.agent_name,
                "jury": self.game.jury_name,
            }

    def history(self) -> dict[str, Any]:
        snapshot = self.snapshot()
        with self.lock:
            snapshot.update(
                {"created": self.created, "seed": self.seed, "events": list(self.events), "game_info": self.game_info}
            )
        return snapshot
