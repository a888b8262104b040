"""Array games in the browser: one game a person plays (or watches), stepped only by the referee.

Every move, the person's, a bot's or the watched agent's, goes through the game's ``Match``
(``makeenv.array.referee``): it decides whose turn it is, rejects invalid actions with the one
invalid-action message, ends the game and reports its outcome. This module only seats the players,
records what the person may see and words it for the page.
"""

from __future__ import annotations

import copy
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from makeenv.array.errors import ArrayEnvError, InvalidActionError
from makeenv.gui.common import GuiError, picture_fields, vector

MAX_RECORDED_STEPS = 20_000  # a session stops recording a game longer than this
MAX_RECENT_MOVES = 30  # the page lists at most this many of the moves since the person's last one
# numba's random generator is shared by the process, and compiled code holds the GIL anyway: every
# session makes its moves one at a time under this lock, so a seeded session (whose match reseeds
# the generator from its own stream before each move) draws only its own numbers.
MOVE_LOCK = threading.Lock()


@dataclass
class Frame:
    """One state of a game as the person's seat saw it, and the move that led to it."""

    index: int
    actor: int | None  # who moved (None: the start of the game)
    action: int | None
    to_move: int | None  # None once the game is over
    state: np.ndarray  # the person's (or watched agent's) state
    env: np.ndarray  # the referee's view, shown only when the game is over or watched


class ArrayGame:
    """What the server needs from an array env, read once: sizes, levels, labels, drawing, guide."""

    kind = "array"

    def __init__(
        self,
        env: Any,
        *,
        level: int | None = 0,
        agent: Callable | None = None,
        agent_name: str | None = None,
        agent_data_factory: Callable[[], Any] | None = None,
    ):
        self.env = env
        self.name = str(env.name)
        self.action_size = int(env.getActionSize())
        self.state_size = int(env.getStateSize())
        self.players = int(env.players)
        self.levels = sorted({0, *(int(lv) for lv in env.levels)})
        self.level_descriptions = {lv: str(env.levels.get(lv, "")) for lv in self.levels}
        self.default_level = parse_level(level, self.levels, 0)
        self.private_actions = frozenset(int(a) for a in env.private_actions)
        self.simultaneous = bool(env.simultaneous)
        if isinstance(agent, str) and agent == "random":  # load_agent("random"): the built-in random agent
            agent, agent_name = env.random_agent, agent_name or "random"
        self.agent = agent
        self.agent_name = agent_name or (getattr(agent, "__name__", "agent") if agent else None)
        self.agent_data_factory = agent_data_factory or (lambda: _initial_agent_data(agent))
        self.readme = env.readme or ""
        self.labels = [self.describe(a) for a in range(self.action_size)]
        env.new_match()  # build (or load) the compiled referee now, so the first player does not wait

    def describe(self, action: int) -> str:
        try:
            return str(self.env.describe_action(int(action)))
        except Exception as error:  # a drawing bug must not take the game down
            return f"action {action} (describe_action failed: {error})"

    def picture(self, state: np.ndarray) -> dict[str, str | None]:
        """``svg`` or ``image`` for a state, or ``image_error``; all None when the game draws nothing."""
        try:
            fields = picture_fields(self.env.render(state))
            return {**fields, "image_error": None}
        except Exception as error:
            return {"svg": None, "image": None, "image_error": f"render(state) failed: {type(error).__name__}: {error}"}

    def info(self) -> dict[str, Any]:
        return {
            "kind": "array",
            "game": self.name,
            "players": self.players,
            "options": {**self.env.parameters, **getattr(self.env, "variant", {})},
            "action_size": self.action_size,
            "state_size": self.state_size,
            "actions": [{"action": a, "label": label} for a, label in enumerate(self.labels)],
            "private_actions": sorted(self.private_actions),
            "simultaneous": self.simultaneous,
            "levels": self.levels,
            "default_level": self.default_level,
            "level_descriptions": {str(lv): text for lv, text in self.level_descriptions.items()},
            "modes": ["play", "watch"] if self.agent is not None else ["play"],
            "agent": self.agent_name,
            "readme": self.readme,
        }


def parse_level(level: Any, levels: list[int], default: int) -> int:
    if level is None:
        return default
    if isinstance(level, bool) or not isinstance(level, int):
        if isinstance(level, str) and level.strip().lstrip("-").isdigit():
            level = int(level)
        else:
            raise GuiError(400, f"level must be an integer, one of {levels}; got {level!r}")
    if level not in levels:
        raise GuiError(400, f"Unknown level {level}; this game has levels {levels} (0 is random bots).")
    return level


def _initial_agent_data(agent: Any) -> Any:
    """What ``makeenv run`` starts an agent with (its module's AGENT_DATA, else ``np.zeros(1)``)."""
    from makeenv.array.agents import initial_agent_data

    return copy.deepcopy(initial_agent_data(agent))


def error_text(who: str, error: Exception) -> str:
    """The referee's own message for its errors; otherwise who raised what."""
    if isinstance(error, ArrayEnvError):
        return str(error)
    return f"{who} raised {type(error).__name__}: {error}"


class ArraySession:
    """One array game: the referee's match, who sits where, and every state the person saw."""

    kind = "array"

    def __init__(
        self,
        game: ArrayGame,
        mode: str,
        level: int,
        seat: int | Literal["first"] | None,
        seed: int | None = None,
        player_name: str | None = None,
    ):
        self.game = game
        # A person playing under a name (the arena's entrant "human:NAME") plays a seeded game, kept
        # move by move so that it replays; the app stores it on the leaderboard when it ends.
        self.player_name = player_name if mode == "play" else None
        self.record_seed: int | None = None
        if self.player_name is not None:
            seed = random.randrange(2**32) if seed is None else seed
            self.record_seed = seed
        self.arena_note: str | None = None  # what became of the stored game
        self.mode = mode
        self.level = level
        self.session_id = ""
        self.created = time.time()
        self.lock = threading.Lock()
        self.error: str | None = None
        try:
            with MOVE_LOCK:
                self.match = game.env.new_match(seed, isolated=seed is not None)
        except ArrayEnvError as error:
            raise GuiError(500, f"The game could not start: {error}") from None
        chance = random.Random(seed) if seed is not None else random  # a seeded game seats the same way
        if seat == "first":
            first = self.match.current_player
            seat = first if first is not None else 0
        elif isinstance(seat, str):
            raise GuiError(
                400,
                f'seat must be an integer from 0 to {game.players - 1}, "first" or omitted for a '
                f"random seat; got {seat!r}",
            )
        self.seat: int = seat if seat is not None else chance.randrange(game.players)
        # Each other seat gets the level's bot with its own copy of the bot's data.
        bots = list(game.env.opponents(level))
        chance.shuffle(bots)  # a level of several bots seats them in a new order every game
        others = [p for p in range(game.players) if p != self.seat]
        self.policies: dict[int, list[Any]] = {p: [bot.policy, bot.initial_data()] for p, bot in zip(others, bots)}
        self.bot_labels = {p: bot.label for p, bot in zip(others, bots)}
        if mode == "watch":
            self.policies[self.seat] = [game.agent, game.agent_data_factory()]
        self.frames: list[Frame] = []
        self._record(None, None)
        self._advance()

    # ----- the game loop: every move goes through the referee -----
    def seat_name(self, player: int) -> str:
        """ "You", the watched agent, or a bot named by its seat and level: "Player 2 (bot, level 1)"."""
        if player == self.seat:
            return "You" if self.mode == "play" else f"Agent ({self.game.agent_name})"
        return f"Player {player} (bot, level {self.level})"

    def _record(self, actor: int | None, action: int | None) -> None:
        match = self.match
        self.frames.append(
            Frame(len(self.frames), actor, action, match.current_player, match.state(self.seat), match.array.copy())
        )

    def _advance(self) -> None:
        """Let bots (and, when watching, the agent) move until it is the person's turn or the end."""
        match = self.match
        while not match.over and not self.error:
            player = match.current_player
            if player == self.seat and self.mode == "play":
                return
            if len(self.frames) > MAX_RECORDED_STEPS:
                self.error = f"The game did not end within {MAX_RECORDED_STEPS} moves; it stops here."
                return
            policy, data = self.policies[player]
            who = self.seat_name(player)
            try:
                with MOVE_LOCK:
                    action, self.policies[player][1] = match.step_with(policy, data, who=who)
            except Exception as error:  # shown on the page; the game stops, the session stays readable
                self.error = error_text(who if player != self.seat else f"{who} (player {player})", error)
                return
            self._record(player, action)

    def act(self, action: Any) -> None:
        """Play the person's action, then let the bots answer."""
        if self.mode != "play":
            raise GuiError(
                400, "This session is a watched game: the agent plays every move. Start a 'play' session to play."
            )
        if self.error:
            raise GuiError(400, f"This game stopped with an error: {self.error} Start a new game.")
        if self.match.over:
            raise GuiError(400, "The game is over. Start a new game to play again.")
        try:
            with MOVE_LOCK:
                if self.record_seed is not None:
                    self.match.reseed()  # as the bots' moves do: the arena replays every move alike
                self.match.step(action, who="You")
        except InvalidActionError as error:
            raise GuiError(400, str(error)) from None
        except ArrayEnvError as error:  # the game itself broke the contract
            self.error = str(error)
            return
        self._record(self.seat, int(action))
        self._advance()

    # ----- what the page sees -----
    def hides(self, frame: Frame) -> bool:
        """True while a running game hides ``frame``'s move from the person: another seat's private action."""
        return (
            self.mode == "play"
            and frame.actor is not None
            and frame.actor != self.seat
            and frame.action in self.game.private_actions
            and not self.match.over
        )

    def caption(self, frame: Frame) -> str:
        if frame.actor is None or frame.action is None:  # the start has neither
            return "Start of the game"
        name = self.seat_name(frame.actor)
        if self.hides(frame):
            return f"{name} chose (hidden)"
        return f"{name} played {self.game.labels[frame.action]}"

    def result(self) -> dict[str, Any] | None:
        outcome = self.match.outcome
        if outcome is None:
            return None
        mine = outcome.results[self.seat]
        me = "You" if self.mode == "play" else "The agent"
        others = [self.seat_name(p) for p in outcome.winners if p != self.seat]
        named = " and ".join(others)
        if mine == "win":
            text = (
                f"{me} shared first place with {named}."
                if others
                else ("You won!" if self.mode == "play" else "The agent won.")
            )
        elif mine == "loss":
            text = f"{named} won. {me} lost."
        elif outcome.truncated:
            text = f"No winner: the game reached its turn limit of {self.game.env.turn_limit} moves."
        elif outcome.winners:
            text = "Everybody shares first place: a draw."
        else:
            text = "The game ended with no winner."
        return {
            "outcome": mine,
            "text": text,
            "winners": list(outcome.winners),
            "results": list(outcome.results),
            "returns": [float(r) for r in outcome.returns],
            "return": float(outcome.returns[self.seat]),
            "shared": outcome.shared,
            "truncated": outcome.truncated,
        }

    def frame(self, index: int, picture: bool = True) -> dict[str, Any]:
        if not 0 <= index < len(self.frames):
            raise GuiError(404, f"No state {index} in this game: its history has states 0..{len(self.frames) - 1}.")
        frame = self.frames[index]
        hidden = self.hides(frame)
        # The referee's env may hold what the person's state does not show: shown once the game is over.
        reveal_env = self.mode == "watch" or self.match.over
        data = {
            "index": index,
            "actor": frame.actor,
            "actor_name": None if frame.actor is None else self.seat_name(frame.actor),
            "action": None if hidden else frame.action,
            "action_label": None if hidden or frame.action is None else self.game.labels[frame.action],
            "hidden": hidden,
            "to_move": frame.to_move,
            "to_move_name": None if frame.to_move is None else self.seat_name(frame.to_move),
            "over": frame.to_move is None,
            "caption": self.caption(frame),
            "state": vector(frame.state),
            "env": vector(frame.env) if reveal_env else None,
        }
        if picture:
            data.update(self.game.picture(frame.state))
        return data

    def recent(self) -> dict[str, Any]:
        """The moves since the person's (or watched agent's) last one, oldest first (just the last
        move when the person moved last): at most ``MAX_RECENT_MOVES``, ``earlier`` counts the rest."""
        last = len(self.frames) - 1
        start = last
        while start > 0 and self.frames[start].actor != self.seat:
            start -= 1
        since = max(min(start + 1, last), 1)
        first = max(since, last - MAX_RECENT_MOVES + 1)
        return {
            "moves": [{"index": i, "caption": self.caption(self.frames[i])} for i in range(first, last + 1)],
            "earlier": first - since,
        }

    def valid_actions(self) -> list[dict[str, Any]]:
        if self.mode != "play" or self.error or self.match.over or self.match.current_player != self.seat:
            return []
        return [{"action": a, "label": self.game.labels[a]} for a in self.match.valid_action_ids()]

    def seats(self) -> list[dict[str, Any]]:
        return [
            {"player": p, "name": self.seat_name(p), "bot": self.bot_labels.get(p)} for p in range(self.game.players)
        ]

    def snapshot(self) -> dict[str, Any]:
        result = self.result()
        actions = self.valid_actions()
        status = "error" if self.error else ("ended" if result else ("your_turn" if actions else "waiting"))
        return {
            "session_id": self.session_id,
            "kind": "array",
            "game": self.game.name,
            "mode": self.mode,
            "level": self.level,
            "seat": self.seat,
            "players": self.game.players,
            "seat_names": [self.seat_name(p) for p in range(self.game.players)],
            "seats": self.seats(),
            "status": status,
            "error": self.error,
            "result": result,
            "arena_note": self.arena_note,
            "length": len(self.frames),
            "frame": self.frame(len(self.frames) - 1),
            "recent": self.recent(),
            "valid_actions": actions,
        }

    def history(self) -> dict[str, Any]:
        return {
            "game": self.game.name,
            "kind": "array",
            "mode": self.mode,
            "level": self.level,
            "seat": self.seat,
            "players": self.game.players,
            "seat_names": [self.seat_name(p) for p in range(self.game.players)],
            "seats": self.seats(),
            "agent": self.game.agent_name if self.mode == "watch" else None,
            "created": self.created,
            "result": self.result(),
            "error": self.error,
            "actions": [{"action": a, "label": label} for a, label in enumerate(self.game.labels)],
            "states": [self.frame(i, picture=False) for i in range(len(self.frames))],
        }
