"""The array-game contract, the ``ArrayEnv`` wrapper and ``load_array_env``.

A game is a module (or package, or folder) defining the numba functions named in ``CONTRACT``;
see docs/ARCHITECTURE.md for the table. ``load_array_env`` imports it and wraps it in an
``ArrayEnv`` that adds the one generic runner (``one_game``, ``n_games``, ``run``), the levels and
the optional drawing helpers.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import types
from pathlib import Path
from typing import Any

import numpy as np

from makeenv.array import runner as _runner

#: contract function name -> (arguments, what it returns)
CONTRACT: dict[str, tuple[str, str]] = {
    "getActionSize": ("", "int: number of actions n; actions are 0..n-1"),
    "getStateSize": ("", "int: length of a player's state"),
    "getAgentSize": ("", "int: number of players"),
    "initEnv": ("", "env: float64 1-D array, a new game (may use np.random)"),
    "getCurrentPlayer": ("env", "int: index of the player to move"),
    "getPlayerState": ("env, player", "float64 1-D state as seen by `player` (the final turn)"),
    "getAgentState": ("env", "float64 1-D state of the player to move"),
    "getValidActions": ("state", "float64 vector of 0/1, length getActionSize()"),
    "stepEnv": ("action, env", "env, changed in place and returned"),
    "checkEnded": ("env", "int: -1 running, 0..n-1 winner, n ended with no winner"),
    "getReward": ("state", "int: 1 win, 0 loss or no-winner end, -1 not done"),
}
CONTRACT_NAMES: tuple[str, ...] = tuple(CONTRACT)


class ArrayEnv:
    """An array game plus the generic runner.

    Exposes the contract functions under their own names, ``name``, ``levels``, ``bot(level)``,
    ``render``, ``describe_action``, ``readme``, ``random_agent`` and the runner as ``one_game``,
    ``n_games`` and ``run``.
    """

    CONTRACT_NAMES = CONTRACT_NAMES

    def __init__(self, module: Any, name: str | None = None, *, max_steps: int = _runner.DEFAULT_MAX_STEPS,
                 folder: str | None = None) -> None:
        self.module = module
        self.name: str = name or getattr(module, "NAME", None) or _default_name(module)
        self.max_steps = int(max_steps)
        self.folder = folder if folder is not None else _module_folder(module)
        for fn in CONTRACT_NAMES:
            setattr(self, fn, getattr(module, fn, None))
        raw_levels = getattr(module, "LEVELS", None) or {}
        if not isinstance(raw_levels, dict):
            raise TypeError(f"{self.name}: LEVELS must be a dict {{level: bot}}, got {type(raw_levels).__name__}")
        self._bots: dict[int, Any] = {}
        for level, bot in raw_levels.items():
            if isinstance(level, bool) or not isinstance(level, int) or level < 1:
                raise ValueError(f"{self.name}: LEVELS keys must be ints >= 1 (0 is random), got {level!r}")
            self._bots[level] = bot
        self.levels: dict[int, str] = {0: "random: picks uniformly among the valid actions"}
        for level in sorted(self._bots):
            self.levels[level] = _first_line(self._bots[level]) or describe_function(self._bots[level])
        self._render = getattr(module, "render", None)
        self._describe_action = getattr(module, "describe_action", None)
        self._random_agent: Any = None

    # ---- contract helpers -----------------------------------------------------------------
    def contract_functions(self) -> tuple[Any, ...]:
        """The contract functions in ``CONTRACT`` order (None where missing)."""
        return tuple(getattr(self, fn) for fn in CONTRACT_NAMES)

    def missing_functions(self) -> list[str]:
        """Names of contract functions the game does not define."""
        return [fn for fn in CONTRACT_NAMES if getattr(self, fn) is None]

    def _require_contract(self) -> None:
        missing = self.missing_functions()
        if missing:
            raise _runner.ArrayEnvError(
                f"{self.name}: the game does not define {', '.join(missing)}; every array game needs "
                f"all of {', '.join(CONTRACT_NAMES)} as @njit functions (run makeenv check)."
            )

    # ---- levels, drawing, docs ------------------------------------------------------------
    def bot(self, level: int) -> Any:
        """The opponent agent of ``level`` (level 0 is the built-in random agent)."""
        if isinstance(level, bool) or not isinstance(level, (int, np.integer)):
            raise TypeError(f"{self.name}: level must be an int, got {type(level).__name__} {level!r}")
        level = int(level)
        if level == 0:
            return self.random_agent
        if level not in self._bots:
            raise ValueError(
                f"{self.name} has no level {level}; levels: "
                + "; ".join(f"{lv} ({desc})" for lv, desc in self.levels.items())
            )
        return self._bots[level]

    @property
    def random_agent(self) -> Any:
        """A numba agent that picks uniformly among the valid actions."""
        if self._random_agent is None:
            self._require_contract()
            self._random_agent = _runner.get_runner(self, "random", 0).module.random_agent
        return self._random_agent

    def describe_action(self, action: int) -> str:
        """What ``action`` means, e.g. "Rock" (falls back to "action 3")."""
        if self._describe_action is not None:
            return str(self._describe_action(action))
        return f"action {int(action)}"

    def render(self, state: np.ndarray) -> str | None:
        """An SVG picture of ``state`` from its player's point of view, or None when the game has none."""
        return self._render(state) if self._render is not None else None

    @property
    def readme(self) -> str:
        """The game's README.md (rules and layouts), or "" when it has none."""
        if self.folder:
            path = Path(self.folder) / "README.md"
            if path.is_file():
                return path.read_text(encoding="utf-8")
        return ""

    # ---- the runner -----------------------------------------------------------------------
    def run(self, agent: Any, num_games: int, agent_data: Any = None, level: int = 0,
            seed: int | None = None, *, progress: _runner.Progress | None = None) -> tuple[int, Any]:
        """Play ``num_games`` games of ``agent`` against ``level`` bots; returns (wins, agent_data).

        ``agent(state, agent_data) -> (action, agent_data)``: an ``@njit`` agent runs the whole
        loop compiled; a plain Python function works too; ``"random"`` (or ``env.random_agent``)
        is the built-in random agent. Seats are shuffled every game and every
        player gets a final turn with its final state. ``seed`` makes the run reproducible.
        ``progress(done, total)`` is called between chunks of games.
        """
        num_games = _runner.check_num_games(num_games)
        _runner.check_agent_signature(agent)
        self._require_contract()
        self.bot(level)  # unknown level -> clear error
        runner = self.prepare(agent, agent_data, level)
        _runner.seed_everything(runner, seed)
        return _runner.run_games(runner, agent, num_games, agent_data, progress)

    def prepare(self, agent: Any, agent_data: Any = None, level: int = 0) -> _runner.Runner:
        """Compile (or load from cache) the loop for this agent, agent_data type and level."""
        _runner.check_agent_signature(agent)
        self._require_contract()
        self.bot(level)
        runner = _runner.get_runner(self, agent, int(level))
        _runner.prepare(runner, agent, agent_data)
        return runner

    def n_games(self, agent: Any, num_games: int, agent_data: Any = None, level: int = 0) -> tuple[int, Any]:
        """Play ``num_games`` games (no seeding); returns (wins of the agent, agent_data)."""
        return self.run(agent, num_games, agent_data, level)

    def one_game(self, agent: Any, agent_data: Any = None, level: int = 0) -> tuple[int, Any]:
        """Play one game; returns (1 if the agent won else 0, agent_data)."""
        return self.run(agent, 1, agent_data, level)

    def __repr__(self) -> str:
        return f"<ArrayEnv {self.name} ({describe_module(self.module)})>"


# ---- loading ----------------------------------------------------------------------------------

def load_array_env(target: Any, name: str | None = None, **kwargs: Any) -> ArrayEnv:
    """Build an ``ArrayEnv`` from a module path, a folder, a ``.py`` file or a module object.

    ``name`` overrides the game's name (default: the module's ``NAME``, else its folder or module
    name). Keyword arguments: ``max_steps`` (per-game step bound of the runner).
    """
    unknown = set(kwargs) - {"max_steps"}
    if unknown:
        raise TypeError(f"load_array_env: unexpected keyword arguments {sorted(unknown)}; array envs accept max_steps")
    folder = None
    if isinstance(target, (str, os.PathLike)):
        text = os.fspath(target)
        if os.path.isdir(text):
            module, folder = _import_folder(text), os.path.abspath(text)
        elif text.endswith(".py"):
            if not os.path.isfile(text):
                raise ValueError(f"load_array_env: no such game file {text!r}")
            module = _import_file(text)
            folder = None
        elif text.startswith((".", "~")) or "/" in text or os.sep in text:
            raise ValueError(f"load_array_env: no such game folder {text!r} (a game folder holds an __init__.py "
                             "with the contract functions; `makeenv new NAME` creates one)")
        else:
            try:
                module = importlib.import_module(text)
            except ModuleNotFoundError as exc:
                raise ValueError(
                    f"load_array_env: cannot import game module {text!r} ({exc}); pass a registered name, "
                    "an importable module path (my_games.tictactoe) or a folder path (./tictactoe)"
                ) from None
    elif isinstance(target, types.ModuleType) or hasattr(target, "initEnv"):
        module = target
    else:
        raise TypeError(f"load_array_env: expected a module path, folder, .py file or module, got {target!r}")
    return ArrayEnv(module, name, folder=folder, **kwargs)


def _stable_name(prefix: str, path: str) -> str:
    """A module name for a game file or folder, derived from its name and content (not its path).

    Numba's on-disk cache refers to compiled functions by module name, so the same game copied to
    another folder (or run from another process) must get the same name.
    """
    path = os.path.abspath(path)
    stem = re.sub(r"\W", "_", Path(path).stem if path.endswith(".py") else Path(path).name) or "game"
    files = [Path(path)] if path.endswith(".py") else sorted(Path(path).rglob("*.py"))
    digest = hashlib.sha1()
    for file in files:
        if "__pycache__" not in file.parts:
            digest.update(str(file.relative_to(Path(path).parent)).encode())
            digest.update(file.read_bytes())
    return f"_makeenv_{prefix}_{stem}_{digest.hexdigest()[:8]}"


def _import_folder(folder: str) -> types.ModuleType:
    init = Path(folder) / "__init__.py"
    if not init.is_file():
        raise ValueError(
            f"load_array_env: folder {folder!r} has no __init__.py; a game folder is a Python package "
            "defining the contract functions (see `makeenv new`)"
        )
    name = _stable_name("game", folder)
    spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(Path(folder).resolve())])
    return _runner.import_once(name, spec)


def _import_file(path: str) -> types.ModuleType:
    name = _stable_name("file", path)
    spec = importlib.util.spec_from_file_location(name, os.path.abspath(path))
    return _runner.import_once(name, spec)


def _module_folder(module: Any) -> str | None:
    path = getattr(module, "__file__", None)
    if path and os.path.basename(path) == "__init__.py":
        return os.path.dirname(os.path.abspath(path))
    return None


def _default_name(module: Any) -> str:
    raw = getattr(module, "__name__", "game").rsplit(".", 1)[-1]
    raw = re.sub(r"^_makeenv_(game|file)_|_[0-9a-f]{8}$", "", raw)
    return "".join(part.capitalize() for part in raw.split("_") if part) or "Game"


def _first_line(obj: Any) -> str:
    doc = getattr(getattr(obj, "py_func", obj), "__doc__", None) or ""
    return doc.strip().splitlines()[0].strip() if doc.strip() else ""


def describe_function(obj: Any) -> str:
    """The qualified name of a function, for messages."""
    return _runner.describe(obj)


def describe_module(module: Any) -> str:
    return getattr(module, "__name__", type(module).__name__)


