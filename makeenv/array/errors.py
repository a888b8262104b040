"""Errors of the array family, the error record compiled code fills, and the messages built from it.

Compiled loops never raise: when something goes wrong they write an *error record* (a float64
vector of ``ERR_SIZE``, slots named below) and return. ``error_from_record`` turns the record into
the exception the user sees, so every invalid-action or broken-game message is written once here,
whether the game was stepped by the runner, the checker, the GUI or an adapter.
"""

from __future__ import annotations

import inspect
import re
import traceback
from collections.abc import Callable
from typing import Any

import numpy as np

from makeenv.array.templates import BUILT_MODULE_PREFIX, is_internal_file

# ---- the error record: slot names -------------------------------------------------------------
ERR_CODE = 0  # one of the codes below (OK: nothing went wrong)
ERR_PLAYER = 1  # the seat involved (-1: none)
ERR_ACTION = 2  # the action involved, as given (float)
ERR_ACTOR = 3  # who chose it: ACTOR_AGENT, ACTOR_PYTHON, or a bot slot 0, 1, ...
ERR_GAME = 4  # index of the game in the run
ERR_STEP = 5  # steps played in that game
ERR_CALL = 6  # CALL_MOVE / CALL_FINAL while a compiled agent or bot is being asked, else CALL_NONE
ERR_SIZE = 7
# While ERR_CALL is set (and ERR_CODE is OK), ERR_PLAYER, ERR_ACTOR, ERR_GAME and ERR_STEP describe
# that call: numba cannot catch an exception the agent raises, so Python reports it from them.
CALL_NONE, CALL_MOVE, CALL_FINAL = 0, 1, 2

# ---- codes ---------------------------------------------------------------------------------------
OK = 0
ACTION_OUT_OF_RANGE = 1
ACTION_NOT_INTEGER = 2
ACTION_NOT_VALID = 3
PLAYER_OUT_OF_RANGE = 4  # getCurrentPlayer returned no seat
GAME_TOO_LONG = 5  # no end within the safety bound (and the game declares no TURN_LIMIT)
ENDED_OUT_OF_RANGE = 6  # checkEnded returned something else than -1..players
NO_VALID_ACTION = 7  # the game is running but getValidActions allows nothing
ENV_LENGTH_CHANGED = 8  # stepEnv returned an env of another length

# ---- actors --------------------------------------------------------------------------------------
ACTOR_AGENT = -1  # the agent under test (run/evaluate), or the person / caller of Match.step
ACTOR_PYTHON = -2  # a plain-Python opponent
ACTOR_GAME = -3  # nobody chose: the game itself is at fault


class ArrayEnvError(Exception):
    """Base class of the errors raised while running an array env."""


class InvalidActionError(ArrayEnvError, ValueError):
    """An agent or bot chose an action that is out of range, not an integer, or not valid."""


class AgentError(ArrayEnvError, TypeError):
    """An agent does not follow ``agent(state, agent_data) -> (action, agent_data)``."""


class AgentRaisedError(ArrayEnvError, RuntimeError):
    """A compiled (@njit) agent or bot raised an exception inside the compiled loop; the original
    exception is its ``__cause__``."""


class GameError(ArrayEnvError, RuntimeError):
    """The game broke the contract while being played (bad player index, never ends, ...)."""


class GameCompileError(GameError):
    """numba could not compile the game (or the loop around it); the message names the cause."""


class RunInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C (KeyboardInterrupt); ``results`` holds the games finished before it."""

    def __init__(self, results: Any) -> None:
        super().__init__(f"interrupted after {results.games:,} games")
        self.results = results


# ---- exceptions raised by a user's Python agent --------------------------------------------------

RAISED_BY = "makeenv_raised_by"  # attribute naming the agent that raised (set by mark_raised_by)
RAISED_ACTOR = "makeenv_actor"  # ACTOR_AGENT, or the opponent's slot
USER_TRACEBACK = "makeenv_user_traceback"  # the user's frames, formatted (kept across processes)

# frames from these places are makeenv's or a framework's, never the user's
_FRAMEWORK_PARTS = ("/makeenv/", "/typer/", "/click/", "/numba/", "site-packages", "<frozen ")


def raise_hidden_interrupt(exc: BaseException) -> None:
    """Raise the Ctrl-C hidden in ``exc``: a KeyboardInterrupt that arrives while numba compiles or
    runs a call comes back as SystemError("... returned a result with an exception set") chained
    to it. Code that turns an agent's exception into a result (a forfeit, an error) calls this
    first, so a Ctrl-C stops the run instead."""
    cause = exc.__cause__ or exc.__context__
    if isinstance(exc, SystemError) and isinstance(cause, KeyboardInterrupt):
        raise cause from None


def mark_raised_by(exc: BaseException, who: str, actor: int, where: str = "") -> BaseException:
    """Record on ``exc`` (of any type, kept as it is) that the agent ``who`` raised it, and add a
    note saying so to its traceback; returns ``exc``."""
    if getattr(exc, RAISED_BY, None) is None:
        setattr(exc, RAISED_BY, who)
        setattr(exc, RAISED_ACTOR, actor)
        exc.add_note(f"(raised by {who}{' ' + where if where else ''})")
    return exc


def user_traceback(exc: BaseException) -> str:
    """The frames of the user's own code in ``exc``'s traceback (not makeenv's, numba's, Typer's),
    then ``Type: message``; the text kept by ``keep_user_traceback`` when the traceback is gone."""
    kept = getattr(exc, USER_TRACEBACK, None)
    if kept is not None:
        return kept
    frames = [
        frame
        for frame in traceback.extract_tb(exc.__traceback__)
        if not any(part in frame.filename.replace("\\", "/") for part in _FRAMEWORK_PARTS)
    ]
    text = "".join(traceback.format_list(frames)) + f"{type(exc).__name__}: {exc}"
    return strip_internal_names(text)


def keep_user_traceback(exc: BaseException) -> BaseException:
    """Store ``user_traceback(exc)`` on ``exc`` so it survives pickling (a worker process's error)."""
    if getattr(exc, RAISED_BY, None) is not None:
        setattr(exc, USER_TRACEBACK, user_traceback(exc))
    return exc


def new_record() -> np.ndarray:
    """An empty error record."""
    return np.zeros(ERR_SIZE, dtype=np.float64)


def number_text(value: float | np.floating | np.integer) -> str:
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


def invalid_action_message(
    game: str,
    who: str,
    action: Any,
    code: int,
    n_actions: int,
    valid: np.ndarray,
    describe: Callable[[int], str] | None = None,
    where: str = "",
) -> str:
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
    return f"{game}: {who} chose action {shown}{place}, {reason}. Valid actions here: {valid_text(valid, describe)}."


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


def error_from_record(
    game: str,
    record: np.ndarray,
    *,
    n_players: int,
    n_actions: int,
    max_steps: int,
    valid: np.ndarray,
    name_actor: Callable[[int, int], str],
    describe: Callable[[int], str] | None = None,
    where: str | None = None,
) -> ArrayEnvError:
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
        return InvalidActionError(
            invalid_action_message(game, name_actor(actor, player), action, code, n_actions, valid, describe, where)
        )
    if code == PLAYER_OUT_OF_RANGE:
        return GameError(f"{game}: getCurrentPlayer returned {player} {where}; expected 0..{n_players - 1}.")
    if code == GAME_TOO_LONG:
        return GameError(
            f"{game}: a game did not end within {max_steps:,} steps ({where}); make sure "
            "stepEnv moves the game towards its end and checkEnded reports it, or declare TURN_LIMIT = N "
            "in the game module to end long games with no winner."
        )
    if code == ENDED_OUT_OF_RANGE:
        return GameError(
            f"{game}: checkEnded returned {player} {where}; expected -1 (running), 0..{n_players - 1} "
            f"(the sole winner) or {n_players} (ended without a sole winner)."
        )
    if code == ENV_LENGTH_CHANGED:
        return GameError(
            f"{game}: stepEnv returned an env of another length {where}; it must change env in place and `return env`."
        )
    if code == NO_VALID_ACTION:
        return GameError(
            f"{game}: getValidActions allowed no action for player {player} {where} while checkEnded "
            "says the game is running; the game must offer at least one valid action in every state "
            "before its end (this is a bug in the game, not in the agent)."
        )
    return ArrayEnvError(f"{game}: the runner reported error code {code} {where}.")


def raised_in_call_message(
    game: str, record: np.ndarray, exc: BaseException, name_actor: Callable[[int, int], str], function: str = ""
) -> str:
    """The one message for an exception a compiled agent or bot raised while the record's ERR_CALL
    was set: what it was asked (seat, final turn or not, game and step) and how to fix it."""
    player, actor = int(record[ERR_PLAYER]), int(record[ERR_ACTOR])
    final = int(record[ERR_CALL]) == CALL_FINAL
    where = f"in game {int(record[ERR_GAME]) + 1} of the run"
    turn = (
        f"at its final turn (the game was over after {int(record[ERR_STEP])} steps; the answer is ignored)"
        if final
        else f"when asked for a move at step {int(record[ERR_STEP]) + 1}"
    )
    first = next((line.strip() for line in str(exc).splitlines() if line.strip()), "")
    if final:
        fix = (
            "an agent must return one of getValidActions(state)'s actions even at the final turn (every "
            "game offers at least one then, action 0 when nothing else is left); if this game offers none, "
            "the game breaks the contract: run `makeenv check` on it."
        )
    else:
        fix = (
            "an agent must return one of getValidActions(state)'s actions and must not raise: numba cannot "
            "catch exceptions inside the compiled loop."
        )
    debug = (
        f" To see a full traceback, call its Python version {function}.py_func(state, agent_data) on that state."
        if function
        else ""
    )
    return (
        f"{game}: {name_actor(actor, player)} raised {type(exc).__name__}: {strip_internal_names(first[:300])} "
        f"{turn}, {where}. Fix: {fix}{debug}"
    )


# ---- numba's compile errors, explained ------------------------------------------------------------

_NOISE = (
    "Failed in nopython mode pipeline",
    "During: ",
    "Enable logging at debug level",
    "This error may have been caused",
    "For more information",
    "<source elided>",
    "Use of unsupported NumPy function",
    "Resolution failure for",
)


# contract functions that must return a 1-D float64 array (the env or a state or a mask)
ARRAY_RESULTS = ("initEnv", "getPlayerState", "getAgentState", "getValidActions", "stepEnv", "sampleEnv")
MAX_CAUSE = 600  # characters of numba's cause kept (a long signature is kept whole up to this)


def explain_compile_error(exc: BaseException, functions: dict[str, Any] | None = None) -> str:
    """The cause of a numba compile error in one line: the error, the function, file, line and code.

    numba's messages are long (pipeline stages, resolution traces); the cause is the first
    ``NameError``/``TypingError`` sentence (with the argument types when numba found no
    implementation for them), and the place is the innermost ``File "...", line N`` of the user's
    code (makeenv's own templates are skipped), the line numba marks with ``^``. When the failure
    is inside makeenv's templates, a contract function in ``functions`` (name -> function) that
    returned something else than an array is named; when numba gives no place (an undefined
    name), the function it was compiling is looked up in ``functions`` and the line found there.
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
    cause = _tidy_types(_with_signature(cause, lines[cause_at + 1 : cause_at + 6]))
    if len(cause) > MAX_CAUSE:
        cause = cause[:MAX_CAUSE].rsplit(" ", 1)[0] + " ..."
    places = [place for place in _places(lines) if not is_internal_file(place[0])]
    callee = next(
        (m.group(1) for line in lines[cause_at:] if (m := re.search(r"CPUDispatcher\(<function (\w+) at", line))), None
    )
    where = ""
    if places:
        path, line_number, code, function = places[-1]
        where = (f" in {function}" if function else "") + _place(path, line_number, code)
    elif functions and (returned := _not_an_array(functions)):
        return f"{returned} (numba: {cause})"
    elif callee and functions and callee in functions:
        where = f" in {callee}{_place_in_source(functions[callee], cause)}"
    hint = ""
    if re.search(r"\blist\(", cause):
        hint = (
            "; a Python list is used where numba needs an array: build arrays with "
            "np.zeros(n, dtype=np.float64) or np.array([...], dtype=np.float64)"
        )
    return f"{cause or type(exc).__name__}{where}{hint}"


def _with_signature(cause: str, following: list[str]) -> str:
    """``No implementation of function Function(<built-in function dot>) found for signature:``
    followed by its ``>>> dot(...)`` line, as one sentence naming the argument types."""
    match = re.match(r"No implementation of function (.+?) found for signature:?$", cause)
    if not match:
        return cause
    signature = next((ln.strip()[3:].strip() for ln in following if ln.strip().startswith(">>>")), "")
    name = re.sub(r"^Function\(<(?:built-in )?function (\w+)[^>]*>\)$", r"\1", match.group(1))
    return f"numba has no {name} for these argument types: {signature}" if signature else cause


def _tidy_types(text: str) -> str:
    """numba's type names without the noise: ``list(float64)<iv=None>`` -> ``list(float64)``."""
    text = re.sub(r"<iv=[^>]*>", "", text)
    return re.sub(r"\breflected list\(", "list(", text)


def _places(lines: list[str]) -> list[tuple[str, int, str, str]]:
    """Every ``File "path", line N:`` block of numba's message: (path, N, the code on line N, the
    function it is in). numba shows a few lines of context; line N is the one above the ``^``."""
    places = []
    for i, line in enumerate(lines):
        match = re.search(r'File "([^"]+)", line (\d+)', line)
        if not match:
            continue
        code, function = "", ""
        snippet: list[str] = []
        for follow in lines[i + 1 : i + 16]:
            stripped = follow.strip()
            if stripped.startswith("^"):
                break
            if not stripped or stripped.startswith(("File ", "During:")):
                snippet = []
                break
            if stripped.startswith("def ") and not function:
                function = re.match(r"def (\w+)", stripped).group(1)  # type: ignore[union-attr]
            if stripped != "<source elided>":
                snippet.append(stripped.lstrip("> ").strip())
        if snippet:
            code = snippet[-1]
        places.append((match.group(1), int(match.group(2)), code, function))
    return places


def _not_an_array(functions: dict[str, Any]) -> str:
    """``"getValidActions returns list(float64); it must return a 1-D float64 array"`` for the first
    contract function numba compiled with a non-array result, or ``""``."""
    for name in ARRAY_RESULTS:
        function = functions.get(name)
        for signature in getattr(function, "nopython_signatures", None) or ():
            returned = _tidy_types(str(signature.return_type))
            if not returned.startswith("array(float64, 1d"):
                return f"{name} returns {returned}; it must return a 1-D float64 array (np.zeros(n, dtype=np.float64))"
    return ""


def _place(path: str, line: int, code: str) -> str:
    parts = path.replace("\\", "/").rsplit("/", 2)
    shown = "/".join(parts[-2:]) if len(parts) > 1 else path
    return f" ({shown}, line {line}" + (f": `{code}`" if code else "") + ")"


def _place_in_source(function: Any, cause: str) -> str:
    """``(file, line N: `code`)`` of the line of ``function`` that uses the name ``cause`` names."""
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
    """Messages never show makeenv's internal module names (``_makeenv_agent_x_6d7e27f6.act``, or a
    function of a module built from a template: ``makeenv_referee_<digest>.valid_choice_agent``)."""
    text = BUILT_MODULE_PREFIX.sub("", text)
    text = re.sub(r"_makeenv_(?:game|file|agent|obj)_(\w+?)_[0-9a-f]{8}\.", r"\1.", text)
    return re.sub(r"_makeenv_(?:game|file|agent|obj)_(\w+?)_[0-9a-f]{8}", r"\1", text)
