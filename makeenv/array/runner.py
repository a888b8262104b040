"""The generic runner: ``one_game``, ``n_games`` and ``run`` for every array game.

The loop itself is written once, in ``_runner_template.py``. For each (game, agent, level) this
module loads that source as a module of its own, with the game's functions, the agent and the
opponent bot handed over as globals, so numba compiles the whole loop (agent included) in
nopython mode and can inline the game functions into it.

* A numba (``@njit``) agent: the whole n-games loop runs compiled.
* A plain Python agent: the loop over the agent's moves is Python; everything between two of its
  moves (checking the action, ``stepEnv``, the bots' moves, the next state) is one compiled call.

When the game functions, the agent and the bot all live in source files, the module is a copy of
the template in the makeenv cache directory (``$MAKEENV_CACHE_DIR``, default
``~/.cache/makeenv/runners``) named after a hash of all those sources, so numba's
``cache=True`` keeps the compiled loop between processes and a changed game gets a new runner.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import importlib.util
import inspect
import itertools
import os
import random
import sys
import tempfile
import threading
import types
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

if TYPE_CHECKING:
    from makeenv.array.contract import ArrayEnv

TEMPLATE_PATH = Path(__file__).with_name("_runner_template.py")
BOT_DATA_SIZE = 16
DEFAULT_MAX_STEPS = 100_000
NUMBA_CHUNK = 100_000  # games per compiled call when a progress callback is given

Agent = Callable[[np.ndarray, Any], tuple[Any, Any]]
Progress = Callable[[int, int], None]


class ArrayEnvError(Exception):
    """Base class of the errors raised while running an array env."""


class InvalidActionError(ArrayEnvError, ValueError):
    """An agent or bot chose an action that is out of range, not an integer, or not valid."""


class AgentError(ArrayEnvError, TypeError):
    """An agent does not follow ``agent(state, agent_data) -> (action, agent_data)``."""


class GameError(ArrayEnvError, RuntimeError):
    """The game broke the contract while being run (bad player index, never ends, ...)."""


# ---- hand-off to the template module ----------------------------------------------------------

_HANDOFF: dict[str, dict[str, Any]] = {}
_LOCK = threading.RLock()
_LIVE_COUNTER = itertools.count()


def take_handoff(module_name: str) -> dict[str, Any]:
    """Called by the template module at import: the objects it must compile against."""
    try:
        return _HANDOFF.pop(module_name)
    except KeyError:
        raise ImportError(
            f"{module_name}: the runner template is loaded by makeenv.array.runner, not imported"
        ) from None


def cache_dir() -> Path:
    """Where generated runner modules (and numba's cache of them) live."""
    root = os.environ.get("MAKEENV_CACHE_DIR")
    if root:
        path = Path(root)
    else:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        path = Path(base) / "makeenv"
    return path / "runners"


def is_numba_function(obj: Any) -> bool:
    """True for a numba ``@njit`` dispatcher."""
    try:
        from numba.core.dispatcher import Dispatcher
    except ImportError:  # pragma: no cover
        return False
    return isinstance(obj, Dispatcher)


def describe(obj: Any) -> str:
    """A short name for a function, for messages."""
    func = getattr(obj, "py_func", obj)
    module = getattr(func, "__module__", None) or ""
    name = getattr(func, "__qualname__", None) or getattr(func, "__name__", None) or repr(obj)
    return f"{module}.{name}" if module and module != "__main__" else name


def _source_file(func: Any) -> str | None:
    """The source file of an njit function when it can safely be part of a cache key."""
    py = getattr(func, "py_func", None)
    if py is None or py.__closure__ or "<locals>" in py.__qualname__ or "<lambda>" in py.__qualname__:
        return None
    try:
        path = inspect.getsourcefile(py)
    except TypeError:
        return None
    return path if path and os.path.isfile(path) else None


def _file_digest(path: str, memo: dict[str, str]) -> str:
    if path not in memo:
        memo[path] = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return memo[path]


# ---- building runners ---------------------------------------------------------------------------

@dataclass
class Runner:
    """A compiled loop for one (game, agent, level)."""

    env: "ArrayEnv"
    level: int
    agent_kind: str  # "random", "counting", "user" (numba agent) or "python"
    module: Any
    cached: bool
    n_players: int
    n_actions: int
    max_steps: int
    keep: tuple[Any, ...] = field(default_factory=tuple)  # objects whose id() is in the key


_RUNNERS: dict[tuple[Any, ...], Runner] = {}

COUNTING = object()  # sentinel: the template's counting random agent (used by check_env)


def _game_key(env: "ArrayEnv") -> tuple[int, ...]:
    return tuple(id(f) for f in env.contract_functions())


def get_runner(env: "ArrayEnv", agent: Any, level: int, max_steps: int | None = None) -> Runner:
    """The (cached) runner for ``env`` with this agent against this level's bots."""
    max_steps = int(max_steps or env.max_steps)
    bot = env.bot(level) if level != 0 else None
    if agent is COUNTING:
        kind, user_agent = "counting", None
    elif names_builtin_random(agent) or agent is getattr(env, "_random_agent", None):
        kind, user_agent = "random", None
    elif is_numba_function(agent):
        kind, user_agent = "user", agent
    else:
        kind, user_agent = "python", None
    module_kind = "random" if kind == "python" else kind
    key = (_game_key(env), module_kind, id(user_agent), id(bot), max_steps)
    with _LOCK:
        runner = _RUNNERS.get(key)
        if runner is None:
            runner = _build(env, module_kind, user_agent, bot, level, max_steps)
            _RUNNERS[key] = runner
    # the compiled module is shared by every env object over the same functions
    return dataclasses.replace(runner, env=env, level=level, agent_kind=kind)


def _build(env: "ArrayEnv", kind: str, agent: Any, bot: Any, level: int, max_steps: int) -> Runner:
    n_players = int(env.getAgentSize())
    n_actions = int(env.getActionSize())
    contract = dict(zip(env.CONTRACT_NAMES, env.contract_functions()))
    handoff = {
        **contract,
        "agent": agent,
        "bot": bot,
        "agent_kind": kind,
        "n_players": n_players,
        "n_actions": n_actions,
        "max_steps": max_steps,
    }
    template = TEMPLATE_PATH.read_text()
    digest = _cache_digest(env, contract, agent, bot, kind, template, n_players, n_actions, max_steps)
    module = None
    if digest is not None:
        module = _load_cached(digest, template, handoff)
    cached = module is not None
    if module is None:
        name = f"makeenv_runner_live_{next(_LIVE_COUNTER)}"
        module = _load(name, TEMPLATE_PATH, {**handoff, "cache": False})
    return Runner(env, level, kind, module, cached, n_players, n_actions, max_steps,
                  keep=(tuple(contract.values()), agent, bot))


def _cache_digest(env, contract, agent, bot, kind, template, n_players, n_actions, max_steps):
    import numba

    memo: dict[str, str] = {}
    parts = [template, numba.__version__, sys.version, np.__version__, kind,
             str(n_players), str(n_actions), str(max_steps)]
    funcs = list(contract.items()) + [("agent", agent), ("bot", bot)]
    for label, func in funcs:
        if func is None:
            parts.append(f"{label}:-")
            continue
        path = _source_file(func)
        if path is None:
            return None
        # module name and content, not path (numba's cache refers to callees by module name;
        # load_array_env names folder games after their content)
        parts.append(f"{label}:{describe(func)}:{_file_digest(path, memo)}")
    # helpers the game imports from its own folder are part of the key too (not the Python-only
    # drawing module or tests, which compiled code never uses)
    folder = getattr(env, "folder", None)
    if folder and os.path.isdir(folder):
        for path in sorted(Path(folder).glob("*.py")):
            if path.name != "draw.py" and not path.name.startswith("test_"):
                parts.append(f"{path.name}:{_file_digest(str(path), memo)}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def _load_cached(digest: str, template: str, handoff: dict[str, Any]) -> Any:
    name = f"makeenv_runner_{digest}"
    if name in sys.modules:
        return sys.modules[name]
    for folder in (cache_dir(), Path(tempfile.gettempdir()) / "makeenv-runners"):
        path = folder / f"{name}.py"
        try:
            if not path.exists() or path.read_text() != template:
                folder.mkdir(parents=True, exist_ok=True)
                tmp = folder / f".{name}.{os.getpid()}.tmp"
                tmp.write_text(template)
                os.replace(tmp, path)
        except OSError:
            continue
        return _load(name, path, {**handoff, "cache": True})
    return None


def _load(name: str, path: Path, handoff: dict[str, Any]) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    _HANDOFF[name] = handoff
    try:
        return import_once(name, spec)
    except BaseException:
        _HANDOFF.pop(name, None)
        raise


_IMPORT_LOCK = threading.RLock()  # a half-run module must never be handed to another thread


def import_once(name: str, spec: Any) -> types.ModuleType:
    """Run the module ``spec`` describes as ``sys.modules[name]``, once per process, thread-safely.

    A module that raises while it runs is not left in ``sys.modules``.
    """
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {name!r}: no loader for its file")
    with _IMPORT_LOCK:
        if name in sys.modules:
            return sys.modules[name]
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:
            sys.modules.pop(name, None)
            raise
        return module


# ---- running ------------------------------------------------------------------------------------

def names_builtin_random(agent: Any) -> bool:
    """True for ``None`` and ``"random"``: the ways to ask for the game's built-in random agent."""
    return agent is None or (isinstance(agent, str) and agent == "random")


def check_agent_signature(agent: Any) -> None:
    """Fail early, with a clear message, when ``agent`` cannot be called as agent(state, data)."""
    if names_builtin_random(agent) or agent is COUNTING:
        return
    if not callable(agent):
        raise AgentError(
            f"agent must be a function agent(state, agent_data) -> (action, agent_data), "
            f"got {type(agent).__name__} {agent!r}"
        )
    func = getattr(agent, "py_func", agent)
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(np.zeros(1), None)
    except TypeError:
        raise AgentError(
            f"agent {describe(agent)}{signature} must accept two arguments (state, agent_data) "
            "and return (action, agent_data)"
        ) from None


def check_num_games(num_games: Any) -> int:
    """``num_games`` as a positive int, or a clear error."""
    if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)):
        raise TypeError(f"num_games must be a positive int, got {type(num_games).__name__} {num_games!r}")
    if num_games <= 0:
        raise ValueError(f"num_games must be a positive int, got {num_games}")
    return int(num_games)


def seed_everything(runner: Runner, seed: int | None) -> None:
    """Seed numba's generator (bots, seat shuffles, random agents) and Python's and NumPy's."""
    if seed is None:
        return
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
    runner.module.seed(int(seed) % (2**32))
    random.seed(int(seed))
    np.random.seed(int(seed) % (2**32))


def prepare(runner: Runner, agent: Any, agent_data: Any) -> None:
    """Compile the loop for these agent_data types (before seeding: it may draw random numbers)."""
    err, err_valid, bot_data = _buffers(runner)
    module = runner.module
    try:
        if runner.agent_kind == "python":
            _, _, env = module.py_start(bot_data, err, err_valid, 0)
            module.py_step(0, env, bot_data, err, err_valid, 0)
        else:
            module.n_games(0, agent_data, bot_data, err, err_valid, 0)
    except ArrayEnvError:
        raise
    except Exception as exc:
        _raise_compile_error(runner, agent, agent_data, exc)


def run_games(runner: Runner, agent: Any, num_games: int, agent_data: Any,
              progress: Progress | None = None, first_game: int = 0) -> tuple[int, Any]:
    """Play ``num_games`` games with a prepared runner; returns (wins, agent_data)."""
    if runner.agent_kind == "python":
        return _run_python(runner, agent, num_games, agent_data, progress, first_game)
    return _run_numba(runner, agent, num_games, agent_data, progress, first_game)


def _buffers(runner: Runner) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    err = np.zeros(7, dtype=np.float64)
    err_valid = np.zeros(runner.n_actions, dtype=np.float64)
    bot_data = np.zeros((runner.n_players, BOT_DATA_SIZE), dtype=np.float64)
    return err, err_valid, bot_data


def _run_numba(runner, agent, num_games, agent_data, progress, first_game):
    err, err_valid, bot_data = _buffers(runner)
    n_games = runner.module.n_games
    chunk = NUMBA_CHUNK if progress is not None else num_games
    wins = done = 0
    while done < num_games:
        size = min(chunk, num_games - done)
        try:
            won, played, agent_data = n_games(size, agent_data, bot_data, err, err_valid, first_game + done)
        except Exception as exc:  # compile errors: explain them in terms of the agent and game
            _raise_compile_error(runner, agent, agent_data, exc)
        wins += won
        done += played
        if err[0] != 0:
            raise runner_error(runner, err, err_valid)
        if progress is not None:
            progress(done, num_games)
    return wins, agent_data


def _run_python(runner, agent, num_games, agent_data, progress, first_game):
    err, err_valid, bot_data = _buffers(runner)
    module = runner.module
    py_start, py_step = module.py_start, module.py_step
    n_actions = runner.n_actions
    wins = 0
    every = max(1, num_games // 100)
    for g in range(first_game, first_game + num_games):
        status, state, env = py_start(bot_data, err, err_valid, g)
        while status == 0:
            reply = agent(state, agent_data)
            if type(reply) is not tuple or len(reply) != 2:
                raise _bad_reply(runner, agent, reply)
            action, agent_data = reply
            if type(action) is not int:
                action = _python_action(runner, action, state, g, env)
            elif not 0 <= action < n_actions:
                _python_action(runner, float(action), state, g, env)
            status, state = py_step(action, env, bot_data, err, err_valid, g)
        if status < 0:
            raise runner_error(runner, err, err_valid)
        if status == 1:
            wins += 1
        reply = agent(state, agent_data)  # final turn
        if type(reply) is not tuple or len(reply) != 2:
            raise _bad_reply(runner, agent, reply)
        agent_data = reply[1]
        if progress is not None and (g - first_game + 1) % every == 0:
            progress(g - first_game + 1, num_games)
    return wins, agent_data


def _bad_reply(runner: Runner, agent: Any, reply: Any) -> AgentError:
    return AgentError(
        f"{runner.env.name}: agent {describe(agent)} returned {type(reply).__name__} {_short(reply)}; "
        "an agent must return (action, agent_data)"
    )


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _python_action(runner: Runner, action: Any, state: np.ndarray, game: int, env: np.ndarray) -> int:
    """An integer action from a Python agent's reply, or an InvalidActionError."""
    valid = runner.env.getValidActions(state)
    player = int(runner.env.getCurrentPlayer(env))
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, float, np.integer, np.floating)):
        raise InvalidActionError(
            f"{runner.env.name}: player {player} (your agent) chose action {_short(action)} of type "
            f"{type(action).__name__} in game {game + 1}; an action must be an int. "
            f"Valid actions here: {_valid_text(runner, valid)}."
        )
    value = float(action)
    err = np.array([0.0, player, value, 1.0, game, 0.0, 0.0])
    if not (0.0 <= value < runner.n_actions):
        err[0] = 1
    elif value != np.floor(value):
        err[0] = 2
    else:
        return int(value)
    raise runner_error(runner, err, np.asarray(valid, dtype=np.float64))


def _valid_text(runner: Runner, valid: np.ndarray) -> str:
    indices = [i for i in range(len(valid)) if valid[i] == 1.0]
    if not indices:
        return "none"
    names = []
    for i in indices:
        try:
            names.append(f"{i} ({runner.env.describe_action(i)})")
        except Exception:
            names.append(str(i))
    return ", ".join(names)


def _number(value: float) -> str:
    if value != value:
        return "nan"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def runner_error(runner: Runner, err: np.ndarray, err_valid: np.ndarray) -> ArrayEnvError:
    """Turn the loop's error record into a readable exception."""
    code, player, action, is_agent, game = int(err[0]), int(err[1]), float(err[2]), err[3], int(err[4])
    env = runner.env
    n = runner.n_players
    where = f"in game {game + 1} of the run"
    if code in (1, 2, 3):
        if is_agent:
            who = "your agent" if player < 0 else f"player {player} (your agent)"
        else:
            who = f"player {player} (the level-{runner.level} bot {describe(env.bot(runner.level))})"
        reason = {
            1: f"which is out of range (actions are 0..{runner.n_actions - 1})",
            2: "which is not an integer",
            3: "which is not valid in this state",
        }[code]
        return InvalidActionError(
            f"{env.name}: {who} chose action {_number(action)} {where}, {reason}. "
            f"Valid actions here: {_valid_text(runner, err_valid)}."
        )
    if code == 4:
        return GameError(f"{env.name}: getCurrentPlayer returned {player} {where}; expected 0..{n - 1}.")
    if code == 5:
        return GameError(
            f"{env.name}: game {game + 1} did not end within {runner.max_steps} steps; make sure "
            "stepEnv moves the game towards its end and checkEnded reports it (or add a turn cap)."
        )
    if code == 6:
        return GameError(
            f"{env.name}: checkEnded returned {player} {where}; expected -1 (running), 0..{n - 1} "
            f"(the winner) or {n} (ended with no winner)."
        )
    if code == 8:
        return GameError(
            f"{env.name}: stepEnv returned an env of another length {where}; it must change env in "
            "place and `return env`."
        )
    if code == 7:
        return GameError(
            f"{env.name}: getValidActions returned no valid action for player {player} {where} while "
            "the game is running; every state before the end needs at least one valid action."
        )
    return ArrayEnvError(f"{env.name}: the runner reported error code {code} {where}.")


def _raise_compile_error(runner: Runner, agent: Any, agent_data: Any, exc: Exception) -> None:
    """Re-raise a numba compile failure as a short message about the agent or the game."""
    from numba.core.errors import NumbaError

    if not isinstance(exc, NumbaError):
        raise exc
    env = runner.env
    if agent is not None and runner.agent_kind == "user":
        problem = _probe_numba_agent(env, agent, agent_data)
        if problem:
            raise AgentError(f"{env.name}: agent {describe(agent)} {problem}") from None
    first = str(exc).strip().splitlines()
    summary = next((line for line in first if line.strip()), "")
    who = f" with agent {describe(agent)}" if agent is not None and runner.agent_kind == "user" else ""
    raise ArrayEnvError(
        f"{env.name}: numba could not compile the game loop{who}: {summary[:300]} "
        "(run makeenv.check_env(env) to find which contract function is at fault)"
    ) from None


def _probe_numba_agent(env: "ArrayEnv", agent: Any, agent_data: Any) -> str | None:
    """Call the agent once on a real state to find out what it does wrong."""
    try:
        state = env.getAgentState(env.initEnv())
        data = copy.deepcopy(agent_data)
    except Exception:
        return None
    try:
        reply = agent(state, data)
    except Exception as exc:
        line = next((ln for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__)
        return (f"cannot be compiled for (state: float64 array, agent_data: {type(agent_data).__name__}): "
                f"{line[:300]}")
    if not isinstance(reply, tuple) or len(reply) != 2:
        return f"returned {type(reply).__name__} {_short(reply)}; an agent must return (action, agent_data)"
    action, new_data = reply
    if not isinstance(action, (int, float, np.integer, np.floating)) or isinstance(action, (bool, np.bool_)):
        return f"returned action {_short(action)} of type {type(action).__name__}; an action must be an int"
    if type(new_data) is not type(agent_data) or (
        isinstance(agent_data, np.ndarray) and (new_data.dtype != agent_data.dtype or new_data.ndim != agent_data.ndim)
    ):
        return (f"returned agent_data of type {type(new_data).__name__} but was given "
                f"{type(agent_data).__name__}; in a compiled loop agent_data must keep its type")
    return None
