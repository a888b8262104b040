"""The browser GUI's server: one FastAPI app factory for every game, array or text.

``create_app(game, ...)`` serves one game. Each game a person starts is a *session* with its own
env, isolated from every other session; the page talks to the server through a small JSON API:

==========================================  ====================================================
``GET  /``  ``/app.js``  ``/style.css``      the page (three fixed files, read once at start-up)
``GET  /api/info``                           the game: kind, levels, action labels, guide (README)
``POST /api/sessions``                       new game ``{"mode": "play"|"watch", "level", "seat"}``
``GET  /api/sessions/{id}``                  the session now (latest frame, valid actions, result)
``GET  /api/sessions/{id}/frames/{i}``       state ``i`` of an array game's history (scrubbing)
``POST /api/sessions/{id}/actions``          ``{"action": 1}`` (array) / ``{"action": "text"}``
``POST /api/sessions/{id}/rejudge``          text games: ask the jury again after it failed
``GET  /api/sessions/{id}/history``          the whole game as a JSON download
``DELETE /api/sessions/{id}``                forget a session
==========================================  ====================================================

Errors are JSON ``{"error": message}``: 400 for an invalid action or request, 404 for an unknown
session, 409 when the session is busy (a text game's opponent or jury is still working). No
endpoint reads or writes a file named by a request: the page's three files are loaded once.

Array games are stepped here in Python with the contract functions: the human takes one seat and
bots of the chosen level the others (``play``), or an agent plays a whole game against the bots and
the person scrubs through it (``watch``). A game supplies only ``render(state)`` (SVG text, PNG
bytes or a PIL image) and ``describe_action(action)``. Text games run the TextArena-style loop;
the opponent agent and the jury run in a worker thread while the page polls.
"""

from __future__ import annotations

import base64
import dataclasses
import inspect
import io
import math
import random
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Callable

import numpy as np

STATIC_DIR = Path(__file__).with_name("static")
STATIC_FILES = {  # route -> (file name, media type); nothing else is ever served from disk
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
}
MAX_TEXT_CHARS = 200_000      # longest strategy the page accepts
MAX_BOT_STEPS = 100_000       # a game whose bots never hand the turn back is a broken game
MAX_WATCH_STEPS = 20_000      # longest watched game recorded


class GuiError(Exception):
    """An error the API reports as JSON ``{"error": message}`` with an HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


# --------------------------------------------------------------------------------------------
# Plain-value helpers
# --------------------------------------------------------------------------------------------

def _number(x: float) -> int | float | None:
    x = float(x)
    if not math.isfinite(x):
        return None
    return int(x) if x.is_integer() and abs(x) < 2**53 else x


def _vector(array: Any) -> list[int | float | None]:
    """A float64 array as a JSON-safe list (integral values as ints, NaN/inf as null)."""
    return [_number(x) for x in np.asarray(array, dtype=np.float64).ravel()]


def jsonable(obj: Any) -> Any:
    """Turn dataclasses, numpy values, tuples and odd keys into plain JSON values."""
    if obj is None or isinstance(obj, (bool, str, int)):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return jsonable(dataclasses.asdict(obj))
    if isinstance(obj, np.ndarray):
        return _vector(obj) if obj.dtype.kind == "f" else jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return jsonable(obj.item())
    if isinstance(obj, dict):
        return {str(key): jsonable(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [jsonable(value) for value in obj]
    if hasattr(obj, "to_dict") and callable(obj.to_dict):
        return jsonable(obj.to_dict())
    return str(obj)


def picture_uri(picture: Any) -> str | None:
    """A game's drawing (SVG text, PNG bytes or a PIL image) as a ``data:`` URI for an <img>."""
    if picture is None:
        return None
    if isinstance(picture, str):
        return "data:image/svg+xml;base64," + base64.b64encode(picture.encode("utf-8")).decode("ascii")
    if isinstance(picture, (bytes, bytearray)):
        kind = "png" if bytes(picture[:8]) == b"\x89PNG\r\n\x1a\n" else "svg+xml"
        return f"data:image/{kind};base64," + base64.b64encode(bytes(picture)).decode("ascii")
    if hasattr(picture, "save"):  # a PIL image
        buffer = io.BytesIO()
        picture.save(buffer, format="PNG")
        return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")
    raise TypeError(f"render(state) returned {type(picture).__name__}; expected SVG text, PNG bytes or a PIL image")


def _readme_beside(obj: Any) -> str:
    """The README.md in the folder of the module that defines ``obj`` ('' when there is none)."""
    try:
        folder = Path(inspect.getfile(obj if inspect.ismodule(obj) or inspect.isclass(obj) else type(obj))).parent
        path = folder / "README.md"
        return path.read_text(encoding="utf-8") if path.is_file() else ""
    except (TypeError, OSError):
        return ""


# --------------------------------------------------------------------------------------------
# Sessions
# --------------------------------------------------------------------------------------------

class SessionStore:
    """Thread-safe sessions by id; the least recently used is forgotten beyond ``max_sessions``."""

    def __init__(self, max_sessions: int = 1000):
        self.max_sessions = max_sessions
        self._sessions: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Any) -> str:
        session_id = secrets.token_urlsafe(12)
        session.session_id = session_id
        dropped = []
        with self._lock:
            self._sessions[session_id] = session
            while len(self._sessions) > self.max_sessions:
                dropped.append(self._sessions.popitem(last=False)[1])
        for old in dropped:
            _discard(old)
        return session_id

    def get(self, session_id: str) -> Any:
        with self._lock:
            session = self._sessions.get(session_id)
            if session is None:
                raise GuiError(404, f"Unknown session {session_id!r}: it never existed, was deleted or expired. "
                                    "Start a new game (POST /api/sessions).")
            self._sessions.move_to_end(session_id)
            return session

    def delete(self, session_id: str) -> None:
        with self._lock:
            session = self._sessions.pop(session_id, None)
        if session is None:
            raise GuiError(404, f"Unknown session {session_id!r}.")
        _discard(session)

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)


def _discard(session: Any) -> None:
    """Release what a forgotten session holds (a text env's jury connections, models)."""
    discard = getattr(session, "discard", None)
    if callable(discard):
        try:
            discard()
        except Exception:  # releasing is best effort; the session is gone either way
            pass


def _parse_level(level: Any, levels: list[int], default: int) -> int:
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


def _parse_seat(seat: Any, players: int) -> int | None:
    if seat is None:
        return None
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise GuiError(400, f"seat must be an integer from 0 to {players - 1}, or omitted for a random seat; got {seat!r}")
    return seat


# --------------------------------------------------------------------------------------------
# Array games
# --------------------------------------------------------------------------------------------

class ArrayGame:
    """What the server needs from an array env, read once: sizes, levels, labels, drawing, guide."""

    kind = "array"

    def __init__(self, env: Any, *, level: int = 0, agent: Callable | None = None,
                 agent_name: str | None = None, agent_data_factory: Callable[[], Any] | None = None):
        self.env = env
        self.name = str(getattr(env, "name", None) or getattr(env, "__name__", "game"))
        self.action_size = int(env.getActionSize())
        self.state_size = int(env.getStateSize())
        self.players = int(env.getAgentSize())
        raw_levels = getattr(env, "levels", None) or {}
        self.levels = sorted({0, *(int(lv) for lv in raw_levels)})
        described = raw_levels if isinstance(raw_levels, dict) else {}
        self.level_descriptions = {lv: str(described.get(lv, "random" if lv == 0 else "")) for lv in self.levels}
        self.default_level = _parse_level(level, self.levels, 0)
        if isinstance(agent, str) and agent == "random":  # load_agent("random"): the built-in random agent
            agent = env.bot(0)
            agent_name = agent_name or "random"
        self.agent = agent
        self.agent_name = agent_name or (getattr(agent, "__name__", "agent") if agent else None)
        self.agent_data_factory = agent_data_factory or (lambda: _initial_agent_data(agent))
        self._render = getattr(env, "render", None)
        self._describe = getattr(env, "describe_action", None)
        self.readme = getattr(env, "readme", None) or ""
        self.labels = [self.describe(a) for a in range(self.action_size)]
        # Resolve (and compile) every level's bot now, so no player waits for it mid-game.
        self._bots: dict[int, Callable] = {level: env.bot(level) for level in self.levels}

    def describe(self, action: int) -> str:
        if self._describe is None:
            return f"Action {action}"
        try:
            return str(self._describe(int(action)))
        except Exception as error:  # a drawing bug must not take the game down
            return f"Action {action} (describe_action failed: {error})"

    def picture(self, state: np.ndarray) -> tuple[str | None, str | None]:
        """(data URI, error) for a state; the page shows the raw state when there is no picture."""
        if self._render is None:
            return None, None
        try:
            return picture_uri(self._render(state)), None
        except Exception as error:
            return None, f"render(state) failed: {type(error).__name__}: {error}"

    def bot(self, level: int) -> Callable:
        if level not in self._bots:
            self._bots[level] = self.env.bot(level)
        return self._bots[level]

    def info(self) -> dict[str, Any]:
        return {
            "kind": "array", "game": self.name, "players": self.players,
            "action_size": self.action_size, "state_size": self.state_size,
            "actions": [{"action": a, "label": label} for a, label in enumerate(self.labels)],
            "levels": self.levels, "default_level": self.default_level,
            "level_descriptions": {str(lv): text for lv, text in self.level_descriptions.items()},
            "modes": ["play", "watch"] if self.agent is not None else ["play"],
            "agent": self.agent_name, "readme": self.readme,
        }


def _default_agent_data() -> Any:
    """The data a GUI game starts a bot or agent with: a zero float64 vector, as the runner does."""
    try:
        from makeenv.array.runner import BOT_DATA_SIZE
    except ImportError:  # pragma: no cover - the array family is part of the package
        BOT_DATA_SIZE = 16
    return np.zeros(BOT_DATA_SIZE, dtype=np.float64)


def _initial_agent_data(agent: Any) -> Any:
    """What ``makeenv run`` starts an agent with (its module's AGENT_DATA, else ``np.zeros(1)``)."""
    import copy

    try:
        from makeenv.array.agents import initial_agent_data
    except ImportError:  # pragma: no cover - the array family is part of the package
        return np.zeros(1, dtype=np.float64)
    return copy.deepcopy(initial_agent_data(agent))


class ArraySession:
    """One array game: the env array, who sits where, and every state so far."""

    kind = "array"

    def __init__(self, game: ArrayGame, mode: str, level: int, seat: int | None):
        self.game = game
        self.mode = mode
        self.level = level
        self.session_id = ""
        self.created = time.time()
        self.lock = threading.Lock()
        self.error: str | None = None
        env = game.env
        self.seat = seat if seat is not None else random.randrange(game.players)
        self.players: dict[int, tuple[Callable, Any]] = {}
        for player in range(game.players):
            if player != self.seat:
                self.players[player] = (game.bot(level), _default_agent_data())
        if mode == "watch":
            self.players[self.seat] = (game.agent, game.agent_data_factory())
        self.array = np.asarray(env.initEnv(), dtype=np.float64)
        self.frames: list[dict[str, Any]] = []
        self._record(None, None)
        if mode == "watch":
            self._advance(MAX_WATCH_STEPS, stop_at_seat=False)
        else:
            self._advance(MAX_BOT_STEPS, stop_at_seat=True)

    # ----- the game loop -----
    def seat_name(self, player: int) -> str:
        if player == self.seat:
            return "You" if self.mode == "play" else f"Agent ({self.game.agent_name})"
        return f"Bot {player} (level {self.level})"

    def ended(self) -> int:
        return int(self.game.env.checkEnded(self.array))

    def _record(self, actor: int | None, action: int | None) -> None:
        env = self.game.env
        code = self.ended()
        state = np.array(env.getPlayerState(self.array, self.seat), dtype=np.float64)
        self.frames.append({
            "index": len(self.frames), "actor": actor, "action": action,
            "to_move": int(env.getCurrentPlayer(self.array)) if code == -1 else None,
            "ended": code, "state": state, "env": self.array.copy(), "time": time.time(),
        })

    def _advance(self, limit: int, stop_at_seat: bool) -> None:
        """Let bots (and, when watching, the agent) move until it is the human's turn or the end."""
        env = self.game.env
        for _ in range(limit):
            if self.ended() != -1:
                return
            player = int(env.getCurrentPlayer(self.array))
            if stop_at_seat and player == self.seat:
                return
            agent, data = self.players[player]
            state = np.asarray(env.getAgentState(self.array), dtype=np.float64)
            try:
                result = agent(state, data)
                action, data = result
            except Exception as error:
                self.error = f"{self.seat_name(player)} (player {player}) raised {type(error).__name__}: {error}"
                return
            self.players[player] = (agent, data)
            problem = self._check_action(action, state)
            if problem:
                self.error = f"{self.seat_name(player)} (player {player}) played an invalid action: {problem}"
                return
            env.stepEnv(int(action), self.array)
            self._record(player, int(action))
        self.error = f"The game did not end within {limit} moves; it stops here."

    def _check_action(self, action: Any, state: np.ndarray) -> str | None:
        valid = np.asarray(self.game.env.getValidActions(state), dtype=np.float64)
        listed = ", ".join(f"{a} {self.game.labels[a]}" for a in np.flatnonzero(valid == 1))
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer, float, np.floating)):
            return f"{action!r} is not an integer action; valid actions now: {listed}."
        if isinstance(action, (float, np.floating)) and not float(action).is_integer():
            return f"{action!r} is not an integer action; valid actions now: {listed}."
        a = int(action)
        if not 0 <= a < self.game.action_size:
            return f"{a} is out of range 0..{self.game.action_size - 1}; valid actions now: {listed}."
        if valid[a] != 1:
            return f"{a} ({self.game.labels[a]}) is not valid now; valid actions now: {listed}."
        return None

    def act(self, action: Any) -> None:
        """Play the human's action, then let the bots answer."""
        if self.mode != "play":
            raise GuiError(400, "This session is a watched game: the agent plays every move. Start a 'play' session to play.")
        if self.error:
            raise GuiError(400, f"This game stopped with an error: {self.error} Start a new game.")
        if self.ended() != -1:
            raise GuiError(400, "The game is over. Start a new game to play again.")
        env = self.game.env
        state = np.asarray(env.getAgentState(self.array), dtype=np.float64)
        problem = self._check_action(action, state)
        if problem:
            raise GuiError(400, f"Invalid action: {problem}")
        env.stepEnv(int(action), self.array)
        self._record(self.seat, int(action))
        self._advance(MAX_BOT_STEPS, stop_at_seat=True)

    # ----- what the page sees -----
    def result(self) -> dict[str, Any] | None:
        code = self.ended()
        if code == -1:
            return None
        me = "You" if self.mode == "play" else "The agent"
        if code == self.seat:
            text, outcome = (f"{me} won!" if self.mode == "play" else "The agent won."), "win"
        elif 0 <= code < self.game.players:
            text, outcome = f"{self.seat_name(code)} won. {me} lost.", "loss"
        else:
            text, outcome = "The game ended with no winner.", "draw"
        reward = _number(self.game.env.getReward(self.frames[-1]["state"]))
        return {"winner": code if 0 <= code < self.game.players else None, "outcome": outcome,
                "text": text, "reward": reward}

    def frame(self, index: int, picture: bool = True) -> dict[str, Any]:
        if not 0 <= index < len(self.frames):
            raise GuiError(404, f"No state {index} in this game: its history has states 0..{len(self.frames) - 1}.")
        raw = self.frames[index]
        actor, action = raw["actor"], raw["action"]
        # While a person plays, other seats' actions and the referee's env stay hidden (they may
        # hold what the person's state does not show); once the game is over everything is shown.
        reveal = self.mode == "watch" or actor == self.seat or self.ended() != -1
        reveal_env = self.mode == "watch" or self.ended() != -1
        if actor is None:
            caption = "Start of the game."
        elif reveal:
            caption = f"{self.seat_name(actor)} played {self.game.labels[action]}."
        else:
            caption = f"{self.seat_name(actor)} moved."
        data = {
            "index": index, "actor": actor, "actor_name": None if actor is None else self.seat_name(actor),
            "action": action if reveal else None,
            "action_label": self.game.labels[action] if reveal and action is not None else None,
            "to_move": raw["to_move"],
            "to_move_name": None if raw["to_move"] is None else self.seat_name(raw["to_move"]),
            "ended": raw["ended"], "caption": caption,
            "state": _vector(raw["state"]), "env": _vector(raw["env"]) if reveal_env else None,
        }
        if picture:
            data["image"], data["image_error"] = self.game.picture(raw["state"])
        return data

    def valid_actions(self) -> list[dict[str, Any]]:
        if self.mode != "play" or self.error or self.ended() != -1:
            return []
        env = self.game.env
        if int(env.getCurrentPlayer(self.array)) != self.seat:
            return []
        valid = np.asarray(env.getValidActions(env.getAgentState(self.array)), dtype=np.float64)
        return [{"action": int(a), "label": self.game.labels[int(a)]} for a in np.flatnonzero(valid == 1)]

    def snapshot(self) -> dict[str, Any]:
        result = self.result()
        actions = self.valid_actions()
        status = "error" if self.error else ("ended" if result else ("your_turn" if actions else "waiting"))
        return {
            "session_id": self.session_id, "kind": "array", "game": self.game.name, "mode": self.mode,
            "level": self.level, "seat": self.seat, "players": self.game.players,
            "seat_names": [self.seat_name(p) for p in range(self.game.players)],
            "status": status, "error": self.error, "result": result,
            "length": len(self.frames), "frame": self.frame(len(self.frames) - 1),
            "valid_actions": actions,
        }

    def history(self) -> dict[str, Any]:
        return {
            "game": self.game.name, "kind": "array", "mode": self.mode, "level": self.level,
            "seat": self.seat, "players": self.game.players,
            "seat_names": [self.seat_name(p) for p in range(self.game.players)],
            "agent": self.game.agent_name if self.mode == "watch" else None,
            "created": self.created, "result": self.result(), "error": self.error,
            "actions": [{"action": a, "label": label} for a, label in enumerate(self.game.labels)],
            "states": [self.frame(i, picture=False) for i in range(len(self.frames))],
        }


# --------------------------------------------------------------------------------------------
# Text games
# --------------------------------------------------------------------------------------------

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
        if mine > 0:
            return {"outcome": "win", "text": "You won: the jury preferred your strategy.", "reward": mine}
        if mine < 0:
            return {"outcome": "loss", "text": "You lost: the jury preferred the opponent's strategy.", "reward": mine}
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


# --------------------------------------------------------------------------------------------
# The app
# --------------------------------------------------------------------------------------------

def _load_static() -> dict[str, tuple[bytes, str]]:
    files = {}
    for route, (name, media) in STATIC_FILES.items():
        files[route] = ((STATIC_DIR / name).read_bytes(), media)
    return files


def build_game(game: Any, *, level: int = 0, agent: Callable | None = None, agent_name: str | None = None,
               agent_data_factory: Callable[[], Any] | None = None, text_agent: Callable[[str], str] | None = None,
               jury_name: str | None = None, env_kwargs: dict[str, Any] | None = None) -> ArrayGame | TextGame:
    """Resolve ``game`` (a registered id, module or folder path, or an env object) to what the app serves."""
    import makeenv
    from makeenv.registry import REGISTRY

    env_kwargs = dict(env_kwargs or {})
    if isinstance(game, str):
        spec = REGISTRY.get(game)
        if spec is not None and spec.kind == "text":
            def factory() -> Any:
                return makeenv.make(game, **env_kwargs)

            probe = factory()  # fail now (missing API key, bad jury) rather than at the first game
            readme = getattr(probe, "readme", None) or _readme_beside(probe)
            try:
                probe.close()
            except Exception:
                pass
            return TextGame(game, factory, text_agent, agent_name=agent_name, jury_name=jury_name, readme=readme)
        env = makeenv.make(game, **env_kwargs)
    else:
        env = game
    if hasattr(env, "get_observation") and hasattr(env, "reset"):
        raise TypeError("create_app: pass a text game by its registered id so each session gets its own env")
    return ArrayGame(env, level=level, agent=agent, agent_name=agent_name, agent_data_factory=agent_data_factory)


def create_app(game: Any, *, level: int = 0, agent: Callable | None = None, agent_name: str | None = None,
               agent_data_factory: Callable[[], Any] | None = None,
               text_agent: Callable[[str], str] | None = None, jury_name: str | None = None,
               env_kwargs: dict[str, Any] | None = None, max_sessions: int = 1000, workers: int = 8) -> Any:
    """Build the FastAPI app that serves ``game`` to the browser.

    ``game``: a registered id (``"RockPaperScissors"``, ``"ScenarioPlanning-v0"``), an array game's
    module or folder path, or an array env object. Array games: ``level`` is the default bot level;
    ``agent`` (an array agent) enables watch mode. Text games: ``text_agent(observation) -> str`` is
    the opponent; ``env_kwargs`` go to ``makeenv.make`` (e.g. ``jury_class``, ``jury_size``);
    each session builds its own env and jury (the local model is loaded once per process by
    ``makeenv.text.local``; the agent object is shared, so it must be thread-safe). Sessions beyond
    ``max_sessions`` forget the least recently used; ``workers`` threads run text games' agents
    and juries.
    """
    from fastapi import Body, FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse, Response

    served = build_game(game, level=level, agent=agent, agent_name=agent_name,
                        agent_data_factory=agent_data_factory, text_agent=text_agent, jury_name=jury_name,
                        env_kwargs=env_kwargs)
    store = SessionStore(max_sessions)
    static = _load_static()
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="makeenv-gui")

    @asynccontextmanager
    async def lifespan(_app: Any):
        yield
        executor.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(title=f"makeenv play {served.name}", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.state.game = served
    app.state.sessions = store

    @app.exception_handler(GuiError)
    async def _gui_error(_request: Request, error: GuiError) -> JSONResponse:
        return JSONResponse({"error": error.message}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', []))}: {e.get('msg')}" for e in error.errors())
        return JSONResponse({"error": f"Bad request: {problems}"}, status_code=400)

    def static_route(route: str) -> None:
        content, media = static[route]

        def serve() -> Response:
            return Response(content, media_type=media, headers={"Cache-Control": "no-cache"})

        app.add_api_route(route, serve, methods=["GET"], include_in_schema=False)

    for route in static:
        static_route(route)

    def body_dict(body: Any) -> dict[str, Any]:
        if body is None:
            return {}
        if isinstance(body, (bytes, str)):
            raise GuiError(400, "Bad request: the body must be a JSON object (send Content-Type: application/json).")
        if not isinstance(body, dict):
            raise GuiError(400, f"Bad request: expected a JSON object, got {type(body).__name__}")
        return body

    @app.get("/api/info")
    def info() -> dict[str, Any]:
        return served.info()

    @app.post("/api/sessions")
    def new_session(body: Any = Body(default=None)) -> dict[str, Any]:
        options = body_dict(body)
        unknown = set(options) - {"mode", "level", "seat", "seed"}
        if unknown:
            raise GuiError(400, f"Bad request: unknown field(s) {sorted(unknown)}; allowed: mode, level, seat, seed")
        mode = options.get("mode", "play")
        if isinstance(served, TextGame):
            if mode != "play":
                raise GuiError(400, f"Unknown mode {mode!r}: a text game has only 'play'.")
            seat = _parse_seat(options.get("seat"), 2)
            seed = options.get("seed")
            if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
                raise GuiError(400, f"seed must be an integer, got {seed!r}")
            session: Any = TextSession(served, seat, seed, executor)
        else:
            if mode not in ("play", "watch"):
                raise GuiError(400, f"Unknown mode {mode!r}; use 'play' or 'watch'.")
            if mode == "watch" and served.agent is None:
                raise GuiError(400, "No agent to watch: restart `makeenv play` with --agent SPEC.")
            level_ = _parse_level(options.get("level"), served.levels, served.default_level)
            seat = _parse_seat(options.get("seat"), served.players)
            session = ArraySession(served, mode, level_, seat)
        store.add(session)
        return session.snapshot()

    @app.get("/api/sessions/{session_id}")
    def get_session(session_id: str) -> dict[str, Any]:
        session = store.get(session_id)
        with _session_lock(session):
            return session.snapshot()

    @app.get("/api/sessions/{session_id}/frames/{index}")
    def get_frame(session_id: str, index: int) -> dict[str, Any]:
        session = store.get(session_id)
        if session.kind != "array":
            raise GuiError(400, "A text game has no state history to scrub; download its history instead.")
        with session.lock:
            return session.frame(index)

    @app.post("/api/sessions/{session_id}/actions")
    def post_action(session_id: str, body: Any = Body(default=None)) -> dict[str, Any]:
        session = store.get(session_id)
        options = body_dict(body)
        if "action" not in options:
            raise GuiError(400, 'Bad request: send {"action": ...} (an action number, or a strategy text for a text game).')
        if session.kind == "array":
            with session.lock:
                session.act(options["action"])
                return session.snapshot()
        session.act(options["action"])
        return session.snapshot()

    @app.post("/api/sessions/{session_id}/rejudge")
    def rejudge(session_id: str) -> dict[str, Any]:
        session = store.get(session_id)
        if session.kind != "text":
            raise GuiError(400, "Only text games have a jury to ask again.")
        session.rejudge()
        return session.snapshot()

    @app.get("/api/sessions/{session_id}/history")
    def history(session_id: str) -> JSONResponse:
        session = store.get(session_id)
        with _session_lock(session):
            record = session.history()
        filename = f"{served.name}-{session_id[:8]}.json".replace('"', "")
        return JSONResponse(jsonable(record), headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    @app.delete("/api/sessions/{session_id}")
    def delete_session(session_id: str) -> dict[str, Any]:
        store.delete(session_id)
        return {"deleted": session_id}

    return app


class _NoLock:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def _session_lock(session: Any) -> Any:
    """Array sessions are read under their lock; text sessions lock inside their own methods."""
    return session.lock if session.kind == "array" else _NoLock()


# --------------------------------------------------------------------------------------------
# Serving
# --------------------------------------------------------------------------------------------

def bind_socket(host: str = "127.0.0.1", port: int = 0) -> Any:
    """A listening socket on ``host:port`` (``port=0``: a free port chosen by the system)."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # With the protocol given, asyncio turns TCP_NODELAY on for every connection (without it each
    # small response waited ~40 ms for a delayed ACK).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise OSError(f"makeenv play: cannot listen on {host}:{port} ({error.strerror or error}). "
                      "Pick another --port, or leave it out for a free one.") from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_for(sock: Any) -> str:
    """The page's address for a bound socket (a wildcard host is shown as 127.0.0.1)."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


class ServerThread:
    """A real uvicorn server for ``app`` in a background thread (tests, notebooks).

    ``with ServerThread(app) as server: httpx.get(server.url + "api/info")``.
    """

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning"):
        import uvicorn

        self.sock = bind_socket(host, port)
        self.url = url_for(self.sock)
        config = uvicorn.Config(app, log_level=log_level, access_log=False, timeout_keep_alive=30)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> "ServerThread":
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.time() > deadline:
                raise RuntimeError("makeenv.gui: the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()

    def __enter__(self) -> "ServerThread":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def serve(app: Any, host: str = "127.0.0.1", port: int = 0, open_browser: bool = True,
          announce: Callable[[str], None] = print) -> None:
    """Serve ``app`` until Ctrl-C: print the URL and open the browser unless told not to."""
    import uvicorn
    import webbrowser

    sock = bind_socket(host, port)
    url = url_for(sock)
    announce(f"makeenv play: serving on {url}  (Ctrl-C to stop)")
    if open_browser:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
