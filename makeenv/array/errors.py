"""Errors of the array family, the error record compiled code fills, and the messages built from it.

Compiled loops never raise: when something goes wrong they write an *error record* (a float64
vector of ``ERR_SIZE``, slots named below) and return. ``error_from_record`` turns the record into
the exception the user sees, so every invalid-action or broken-game message is written once here,
whether the game was stepped by the runner, the checker, the GUI or an adapter.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np

# ---- the error record: slot names -------------------------------------------------------------
ERR_CODE = 0     # one of the codes below (OK: nothing went wrong)
ERR_PLAYER = 1   # the seat involved (-1: none)
ERR_ACTION = 2   # the action involved, as given (float)
ERR_ACTOR = 3    # who chose it: ACTOR_AGENT, ACTOR_PYTHON, or a bot slot 0, 1, ...
ERR_GAME = 4     # index of the game in the run
ERR_STEP = 5     # steps played in that game
ERR_SIZE = 6

# ---- codes ---------------------------------------------------------------------------------------
OK = 0
ACTION_OUT_OF_RANGE = 1
ACTION_NOT_INTEGER = 2
ACTION_NOT_VALID = 3
PLAYER_OUT_OF_RANGE = 4   # getCurrentPlayer returned no seat
GAME_TOO_LONG = 5         # no end within the safety bound (and the game declares no TURN_LIMIT)
ENDED_OUT_OF_RANGE = 6    # checkEnded returned something else than -1..players
NO_VALID_ACTION = 7       # the game is running but getValidActions allows nothing
ENV_LENGTH_CHANGED = 8    # stepEnv returned an env of another length

# ---- actors --------------------------------------------------------------------------------------
ACTOR_AGENT = -1    # the agent under test (run/evaluate), or the person / caller of Match.step
ACTOR_PYTHON = -2   # a plain-Python opponent
ACTOR_GAME = -3     # nobody chose: the game itself is at fault


class ArrayEnvError(Exception):
    """Base class of the errors raised while running an array env."""


class InvalidActionError(ArrayEnvError, ValueError):
    """An agent or bot chose an action that is out of range, not an integer, or not valid."""


class AgentError(ArrayEnvError, TypeError):
    """An agent does not follow ``agent(state, agent_data) -> (action, agent_data)``."""


class GameError(ArrayEnvError, RuntimeError):
    """The game broke the contract while being played (bad player index, never ends, ...)."""


class GameCompileError(GameError):
    """numba could not compile the game (or the loop around it); the message names the cause."""


def new_record() -> np.ndarray:
    """An empty error record."""
    return np.zeros(ERR_SIZE, dtype=np.float64)


def number_text(value: float) -> str:
    """A float as it reads best: ``3`` for 3.0, ``nan``, ``2.5``."""
    if value != value:
        return "nan"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def valid_text(valid: np.ndarray, describe: Callable[[int], str] | None = None) -> str:
    """``"0 (Scissors), 2 (Paper)"``: the valid actions of a vector, named when possible."""
    indices = [i for i in range(len(valid)) if valid[i] == 1.0]
    if not indices:
        return "none"
    parts = []
    for i in indices:
        name = ""
        if describe is not None:
            try:
                name = str(describe(i))
            except Exception:  # a broken describe_action must not hide the real error
                name = ""
        parts.append(f"{i} ({name})" if name and name != f"action {i}" else str(i))
    return ", ".join(parts)


def invalid_action_message(game: str, who: str, action: Any, code: int, n_actions: int,
                           valid: np.ndarray, describe: Callable[[int], str] | None = None,
                           where: str = "") -> str:
    """The one message for an action that cannot be played."""
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, float, np.integer, np.floating)):
        shown = f"{action!r} of type {type(action).__name__}"
    else:
        shown = number_text(action)
    reason = {
        ACTION_OUT_OF_RANGE: f"which is out of range (actions are 0..{n_actions - 1})",
        ACTION_NOT_INTEGER: "which is not an integer",
        ACTION_NOT_VALID: "which is not valid in this state",
    }[code]
    place = f" {where}" if where else ""
    return (f"{game}: {who} chose action {shown}{place}, {reason}. "
            f"Valid actions here: {valid_text(valid, describe)}.")


def action_code(action: Any, n_actions: int) -> int:
    """Why a Python value cannot be an action (ACTION_NOT_INTEGER, ACTION_OUT_OF_RANGE), or OK.

    The same order of tests as the compiled referee: first "is it an integer", then the range.
    """
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, float, np.integer, np.floating)):
        return ACTION_NOT_INTEGER
    value = float(action)
    if value != value or not value.is_integer():
        return ACTION_NOT_INTEGER
    if not 0.0 <= value < n_actions:
        return ACTION_OUT_OF_RANGE
    return OK


def error_from_record(game: str, record: np.ndarray, *, n_players: int, n_actions: int,
                      max_steps: int, valid: np.ndarray, name_actor: Callable[[int, int], str],
                      describe: Callable[[int], str] | None = None, where: str | None = None) -> ArrayEnvError:
    """The exception for a filled error record.

    ``name_actor(actor, player)`` names who chose an action ("player 1 (your agent)");
    ``valid`` is the valid-action vector at the error (when the record is about an action);
    ``where`` replaces "in game G of the run, step S" (a single game says "at step S").
    """
    code = int(record[ERR_CODE])
    player = int(record[ERR_PLAYER])
    action = float(record[ERR_ACTION])
    actor = int(record[ERR_ACTOR])
    if where is None:
        where = f"in game {int(record[ERR_GAME]) + 1} of the run, step {int(record[ERR_STEP]) + 1}"
    if code in (ACTION_OUT_OF_RANGE, ACTION_NOT_INTEGER, ACTION_NOT_VALID):
        return InvalidActionError(invalid_action_message(
            game, name_actor(actor, player), action, code, n_actions, valid, describe, where))
    if code == PLAYER_OUT_OF_RANGE:
        return GameError(f"{game}: getCurrentPlayer returned {player} {where}; expected 0..{n_players - 1}.")
    if code == GAME_TOO_LONG:
        return GameError(
            f"{game}: a game did not end within {max_steps:,} steps ({where}); make sure "
            "stepEnv moves the game towards its end and checkEnded reports it, or declare TURN_LIMIT = N "
            "in the game module to end long games with no winner.")
    if code == ENDED_OUT_OF_RANGE:
        return GameError(
            f"{game}: checkEnded returned {player} {where}; expected -1 (running), 0..{n_players - 1} "
            f"(the sole winner) or {n_players} (ended without a sole winner).")
    if code == ENV_LENGTH_CHANGED:
        return GameError(f"{game}: stepEnv returned an env of another length {where}; it must change env "
                         "in place and `return env`.")
    if code == NO_VALID_ACTION:
        return GameError(
            f"{game}: getValidActions allowed no action for player {player} {where} while checkEnded "
            "says the game is running; the game must offer at least one valid action in every state "
            "before its end (this is a bug in the game, not in the agent).")
    return ArrayEnvError(f"{game}: the runner reported error code {code} {where}.")


# ---- numba's compile errors, explained ------------------------------------------------------------

_NOISE = (
    "Failed in nopython mode pipeline", "During: ", "Enable logging at debug level",
    "This error may have been caused", "For more information", "<source elided>",
    "Use of unsupported NumPy function", "Resolution failure for",
)


# makeenv's own compiled templates (and their cached copies): never the place to blame
INTERNAL_FILE = re.compile(r"(_referee_template|_loop_template|makeenv_(referee|loop|live)_\w+)\.py$")


def explain_compile_error(exc: BaseException, functions: dict[str, Any] | None = None) -> str:
    """The cause of a numba compile error in one line: the error, the function, file, line and code.

    numba's messages are long (pipeline stages, resolution traces); the cause is the first
    ``NameError``/``TypingError`` sentence, and the place is the innermost ``File "...", line N``
    of the user's code (makeenv's own templates are skipped). When numba gives no place (an
    undefined name), the innermost function it was compiling is looked up in ``functions``
    (name -> function) and the line using the name is found in its source.
    """
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))
    lines = [line.rstrip() for line in text.splitlines()]
    cause, cause_at = "", 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped or any(stripped.startswith(noise) for noise in _NOISE):
            continue
        if stripped.startswith(("File ", "^", ">")):
            continue
        cause, cause_at = stripped, i
        break
    places = []
    for i, line in enumerate(lines):
        match = re.search(r'File "([^"]+)", line (\d+)', line)
        if match and not INTERNAL_FILE.search(match.group(1)):
            code = ""
            for follow in lines[i + 1:i + 4]:
                follow = follow.strip()
                if follow and not follow.startswith(("File ", "^", "<source", "def ")):
                    code = follow.lstrip("> ").strip()
                    break
            places.append((match.group(1), int(match.group(2)), code))
    callee = next((m.group(1) for line in lines[cause_at:]
                   if (m := re.search(r"CPUDispatcher\(<function (\w+) at", line))), None)
    where = ""
    if places:
        path, line, code = places[-1]
        where = _place(path, line, code)
    elif callee and functions and callee in functions:
        where = _place_in_source(functions[callee], cause)
    if callee and not where.startswith(f" in {callee}"):
        where = f" in {callee}{where}"
    return f"{(cause or type(exc).__name__)[:300]}{where}"


def _place(path: str, line: int, code: str) -> str:
    parts = path.replace("\\", "/").rsplit("/", 2)
    shown = "/".join(parts[-2:]) if len(parts) > 1 else path
    return f" ({shown}, line {line}" + (f": `{code}`" if code else "") + ")"


def _place_in_source(function: Any, cause: str) -> str:
    """``(file, line N: `code`)`` of the line of ``function`` that uses the name ``cause`` names."""
    import inspect

    name = re.search(r"name '(\w+)' is not defined|Untyped global name '(\w+)'", cause)
    try:
        py = getattr(function, "py_func", function)
        source, first = inspect.getsourcelines(py)
        path = inspect.getsourcefile(py) or ""
    except (OSError, TypeError):
        return ""
    if name:
        word = name.group(1) or name.group(2)
        for offset, text in enumerate(source):
            if re.search(rf"\b{re.escape(word)}\b", text):
                return _place(path, first + offset, text.strip())
    return _place(path, first, source[0].strip() if source else "")


def strip_internal_names(text: str) -> str:
    """Messages never show makeenv's internal module names (``_makeenv_agent_x_6d7e27f6.act``)."""
    text = re.sub(r"_makeenv_(?:game|file|agent|obj)_(\w+?)_[0-9a-f]{8}\.", r"\1.", text)
    return re.sub(r"_makeenv_(?:game|file|agent|obj)_(\w+?)_[0-9a-f]{8}", r"\1", text)
