"""The array-game contract, the ``ArrayEnv`` object ``make`` returns, and ``load_array_env``.

A game is a module (or package, or folder) defining the numba functions named in ``CONTRACT``,
and optionally the pieces in ``OPTIONAL_FUNCTIONS`` and ``OPTIONAL_CONSTANTS``; docs/ARCHITECTURE.md
has the full table. ``load_array_env`` imports the game and wraps it in an ``ArrayEnv``: the
game's functions under their own names, its levels and drawing helpers, the runner (``run``,
``evaluate``, ``one_game``, ``n_games``) and the referee (``new_match``).
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import types
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
from numba.extending import register_jitable

from makeenv.array import runner
from makeenv.array.agents import Bot
from makeenv.array.cache import referee_module
from makeenv.array.errors import ArrayEnvError
from makeenv.array.readme import generic_state_text
from makeenv.array.referee import Match
from makeenv.array.results import Results
from makeenv.loading import LoadError, import_path

DEFAULT_MAX_STEPS = 100_000  # a game longer than this (without a TURN_LIMIT) is a broken game

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
    "checkEnded": ("env", "int: -1 running, 0..n-1 sole winner, n ended without a sole winner"),
    "getReward": ("state", "int: 1 win (sole or shared), 0 otherwise, -1 not done"),
}
CONTRACT_NAMES: tuple[str, ...] = tuple(CONTRACT)

#: optional numba functions -> (arguments, what they return)
OPTIONAL_FUNCTIONS: dict[str, tuple[str, str]] = {
    "getWinners": ("env", "float64 0/1 vector of length players: who shares first place"),
    "getReturns": ("env", "float64 vector of length players: each player's return at the end"),
    "isValidAction": ("state, action", "bool: getValidActions(state)[action] == 1, without allocating"),
    "sampleEnv": ("state", "env consistent with the state, that player to move (hidden parts drawn at random)"),
}

#: optional module constants and Python helpers -> what they declare
OPTIONAL_CONSTANTS: dict[str, str] = {
    "NAME": "the display name",
    "PARAMETERS": 'game options and their allowed values, e.g. {"players": (2, 3, 4, 5)}',
    "DEFAULTS": 'the value of each option make(name) uses, e.g. {"players": 5}',
    "TURN_LIMIT": "steps after which a running game ends with no winner (a draw, marked truncated)",
    "SIMULTANEOUS": "True: turns come in rounds of one hidden move per player in seat order",
    "PRIVATE_ACTIONS": "actions whose identity other players do not see when played",
    "LEVELS": "{level: bot or (bot, bot, ...)}: the built-in opponents of levels 1, 2, ...",
    "VARIANTS": "{option: {value: module path or None}}: other contract modules, e.g. another action encoding",
    "render": "render(state) -> SVG text, PNG bytes or a PIL image",
    "describe_action": "describe_action(action) -> str",
    "describe_state": "describe_state(state) -> str, for language-model players",
}


# The two functions below are register_jitable, not @njit: called from Python they run as Python
# (the game's own initEnv is already compiled; an @njit closure compiled afresh in every process,
# 51 times in a run of the test suite), and numba compiles them into compiled callers (the seed's
# idiom, ``env.initEnv()`` inside @njit code) as it does any numba function.


@functools.lru_cache(maxsize=64)
def _constant(value: int) -> Callable[[], int]:
    """``getAgentSize()`` returning ``value`` (the chosen player count of a game with PARAMETERS)."""

    @register_jitable
    def getAgentSize() -> int:
        return value

    return getAgentSize


@functools.lru_cache(maxsize=256)
def _bound_init(init: Any, args: tuple[Any, ...]) -> Callable[[], np.ndarray]:
    """``initEnv()`` for a game with PARAMETERS: the game's ``initEnv(*args)`` (one per game and
    options)."""

    @register_jitable
    def initEnv():
        return init(*args)

    return initEnv


class ArrayEnv(types.ModuleType):
    """An array game plus the generic runner and referee.

    A module object, so numba resolves ``env.getValidActions`` inside ``@njit`` code as it does for
    modules (the seed's idiom). Exposes the contract functions under their own names, ``name``,
    ``players``, ``parameters``, ``levels``, ``bot(level)``, ``opponents(level)``, ``render``,
    ``describe_action``, ``describe_state``, ``readme``, ``random_agent``, the runner (``run``,
    ``evaluate``, ``one_game``, ``n_games``, ``prepare``) and the referee (``new_match``).
    """

    CONTRACT_NAMES = CONTRACT_NAMES

    # the game's numba functions (``require_contract`` says which required ones are missing)
    getActionSize: Callable[[], int]
    getStateSize: Callable[[], int]
    getAgentSize: Callable[[], int]
    initEnv: Callable[[], np.ndarray]
    raw_initEnv: Callable[..., np.ndarray]
    getCurrentPlayer: Callable[[np.ndarray], int]
    getPlayerState: Callable[[np.ndarray, int], np.ndarray]
    getAgentState: Callable[[np.ndarray], np.ndarray]
    getValidActions: Callable[[np.ndarray], np.ndarray]
    stepEnv: Callable[[int, np.ndarray], np.ndarray]
    checkEnded: Callable[[np.ndarray], int]
    getReward: Callable[[np.ndarray], int]
    getWinners: Callable[[np.ndarray], np.ndarray] | None
    getReturns: Callable[[np.ndarray], np.ndarray] | None
    isValidAction: Callable[[np.ndarray, int], bool] | None
    sampleEnv: Callable[[np.ndarray], np.ndarray] | None
    variant: dict[str, str]  # the VARIANTS options chosen, e.g. {"actions": "compact"}

    def __init__(
        self,
        module: Any,
        name: str | None = None,
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
        folder: str | None = None,
        **parameters: Any,
    ) -> None:
        display = name or getattr(module, "NAME", None) or _default_name(module)
        super().__init__(f"makeenv.env.{display}", getattr(module, "__doc__", None))
        self.name: str = display
        if isinstance(max_steps, bool) or not isinstance(max_steps, (int, np.integer)) or max_steps < 1:
            raise ValueError(f"{display}: max_steps must be a positive int, got {max_steps!r}")
        self.max_steps = int(max_steps)
        self.folder = folder if folder is not None else _module_folder(module)
        # a variant (VARIANTS) is another contract module; the README and name stay the game's
        module, self.variant = _choose_variant(display, module, parameters)
        self.module = module
        for fn in CONTRACT_NAMES + tuple(OPTIONAL_FUNCTIONS):
            setattr(self, fn, getattr(module, fn, None))
        self.raw_initEnv = self.initEnv
        self.parameters: dict[str, Any] = _choose_parameters(display, module, parameters)
        self.init_args: tuple[Any, ...] = tuple(self.parameters.values())
        if self.parameters and self.raw_initEnv is not None:
            self.initEnv = _bound_init(self.raw_initEnv, self.init_args)
        if "players" in self.parameters:
            self.getAgentSize = _constant(int(self.parameters["players"]))
        self.turn_limit = _non_negative_int(display, "TURN_LIMIT", getattr(module, "TURN_LIMIT", 0) or 0)
        self.simultaneous = bool(getattr(module, "SIMULTANEOUS", False))
        self.private_actions = frozenset(int(a) for a in (getattr(module, "PRIVATE_ACTIONS", ()) or ()))
        self.level_bots = _read_levels(display, getattr(module, "LEVELS", None))
        self.levels: dict[int, str] = {0: "random: picks uniformly among the valid actions"}
        for level, bots in sorted(self.level_bots.items()):
            self.levels[level] = " / ".join(dict.fromkeys(_bot_title(bot) for bot in bots))
        self.game_render = getattr(module, "render", None)
        self.game_describe_action = getattr(module, "describe_action", None)
        self.game_describe_state = getattr(module, "describe_state", None)
        self._random_agent: Any = None

    # ---- the game's shape ---------------------------------------------------------------------
    @property
    def players(self) -> int:
        """The number of players of this env (its ``players`` parameter, else getAgentSize())."""
        if "players" in self.parameters:
            return int(self.parameters["players"])
        self.require_contract()
        return int(self.getAgentSize())

    def contract_functions(self) -> tuple[Any, ...]:
        """The contract functions in ``CONTRACT`` order (None where missing)."""
        return tuple(getattr(self, fn) for fn in CONTRACT_NAMES)

    def compiled_functions(self) -> dict[str, Any]:
        """What the compiled game module is built from: the game's own functions (initEnv unbound)."""
        names = [n for n in CONTRACT_NAMES if n not in ("getActionSize", "getStateSize", "getAgentSize")]
        functions = {name: getattr(self, name) for name in names}
        functions["initEnv"] = self.raw_initEnv
        functions.update({name: getattr(self, name) for name in ("getWinners", "getReturns", "isValidAction")})
        return functions

    def missing_functions(self) -> list[str]:
        """Names of contract functions the game does not define."""
        return [fn for fn in CONTRACT_NAMES if getattr(self, fn) is None]

    def require_contract(self) -> None:
        missing = self.missing_functions()
        if missing:
            raise ArrayEnvError(
                f"{self.name}: the game does not define {', '.join(missing)}; every array game needs "
                f"all of {', '.join(CONTRACT_NAMES)} as @njit functions (run makeenv check)."
            )

    # ---- levels ---------------------------------------------------------------------------------
    def _check_level(self, level: Any) -> int:
        if isinstance(level, bool) or not isinstance(level, (int, np.integer)):
            raise TypeError(f"{self.name}: level must be an int, got {type(level).__name__} {level!r}")
        if int(level) != 0 and int(level) not in self.level_bots:
            raise ValueError(
                f"{self.name} has no level {int(level)}; levels: "
                + "; ".join(f"{lv} ({desc})" for lv, desc in self.levels.items())
            )
        return int(level)

    def opponents(self, level: int = 0) -> list[Bot]:
        """The bots a level seats against the agent, one per other seat (before seats are shuffled)."""
        level = self._check_level(level)
        count = self.players - 1
        if level == 0:
            return [Bot(self.random_agent, name="random")] * count
        bots = self.level_bots[level]
        return [bots[i % len(bots)] for i in range(count)]

    def bot(self, level: int) -> Any:
        """The policy of ``level``'s (first) bot; level 0 is the built-in random agent."""
        level = self._check_level(level)
        return self.random_agent if level == 0 else self.level_bots[level][0].policy

    @property
    def random_agent(self) -> Any:
        """A numba agent that picks uniformly among the valid actions."""
        if self._random_agent is None:
            self.require_contract()
            self._random_agent = referee_module(self).random_agent
        return self._random_agent

    # ---- drawing and words ----------------------------------------------------------------------
    def describe_action(self, action: int) -> str:
        """What ``action`` means, e.g. "Rock" (falls back to "action 3")."""
        if self.game_describe_action is not None:
            return str(self.game_describe_action(int(action)))
        return f"action {int(action)}"

    def render(self, state: np.ndarray) -> Any:
        """A picture of ``state`` from its player's view (SVG text, PNG bytes or a PIL image), or None."""
        return self.game_render(state) if self.game_render is not None else None

    def describe_state(self, state: np.ndarray) -> str:
        """``state`` in words, for language-model players (the game's own text, else a generic one)."""
        if self.game_describe_state is not None:
            return str(self.game_describe_state(state))
        return generic_state_text(self, state)

    @property
    def readme(self) -> str:
        """The game's README.md (rules and layouts), or "" when it has none."""
        if self.folder:
            path = Path(self.folder) / "README.md"
            if path.is_file():
                return path.read_text(encoding="utf-8")
        return ""

    # ---- the runner and the referee -------------------------------------------------------------
    def run(
        self,
        agent: Any,
        num_games: int,
        agent_data: Any = None,
        level: int = 0,
        seed: int | None = None,
        *,
        opponents: Iterable[Any] | None = None,
        workers: int = 1,
        progress: Callable[[int, int], None] | None = None,
    ) -> tuple[int, Any]:
        """Play ``num_games`` games of ``agent`` against ``level``'s bots; returns (wins, agent_data).

        ``agent(state, agent_data) -> (action, agent_data)``: an ``@njit`` agent runs the whole loop
        compiled; a plain Python function works too; ``"random"`` is the built-in random agent.
        Seats are shuffled every game and every player gets a final turn with its final state.
        ``opponents`` (agents or ``Bot``s) replace the level's bots; ``seed`` makes the run
        reproducible; ``workers=N`` plays in N processes; ``progress(done, total)`` is called
        between chunks of games. Wins count sole and shared first places; ``evaluate`` tells more.
        """
        results = self.evaluate(
            agent, num_games, agent_data, level, seed, opponents=opponents, workers=workers, progress=progress
        )
        return results.wins, results.agent_data

    def evaluate(
        self,
        agent: Any,
        num_games: int,
        agent_data: Any = None,
        level: int = 0,
        seed: int | None = None,
        *,
        opponents: Iterable[Any] | None = None,
        workers: int = 1,
        progress: Callable[[int, int], None] | None = None,
    ) -> Results:
        """As ``run``, returning ``Results``: wins, shared wins, draws, losses, truncated games,
        mean return and game length, overall and per seat (``by_seat``), and the final agent_data."""
        return runner.evaluate(
            self, agent, num_games, agent_data, level, seed, opponents=opponents, workers=workers, progress=progress
        )

    def prepare(
        self, agent: Any, agent_data: Any = None, level: int = 0, *, opponents: Iterable[Any] | None = None
    ) -> runner.Plan:
        """Compile (or load from the cache) the loop for this agent, agent_data type and opponents."""
        return runner.prepare(self, agent, agent_data, level, opponents=opponents)

    def n_games(self, agent: Any, num_games: int, agent_data: Any = None, level: int = 0) -> tuple[int, Any]:
        """Play ``num_games`` games (no seeding); returns (wins of the agent, agent_data)."""
        return self.run(agent, num_games, agent_data, level)

    def one_game(self, agent: Any, agent_data: Any = None, level: int = 0) -> tuple[int, Any]:
        """Play one game; returns (1 if the agent won else 0, agent_data)."""
        return self.run(agent, 1, agent_data, level)

    def new_match(self, seed: int | None = None, *, isolated: bool = False) -> Match:
        """A new game stepped from Python by the referee (see ``makeenv.array.referee.Match``);
        ``isolated=True``: the match draws from a random stream of its own, started from ``seed``."""
        return Match(self, seed=seed, isolated=isolated)

    def __repr__(self) -> str:
        options = "".join(f", {k}={v!r}" for k, v in {**self.parameters, **self.variant}.items())
        return f"<ArrayEnv {self.name}{options}>"

    # ModuleType has no __reduce__ for pickling; worker processes rebuild envs from these
    def rebuild_args(self) -> tuple[Any, dict[str, Any]]:
        """(target, options) with which ``load_array_env`` builds this env again."""
        target = self.folder if self.folder else getattr(self.module, "__name__", None)
        return target, {"name": self.name, "max_steps": self.max_steps, **self.parameters, **self.variant}


# ---- reading the game module -----------------------------------------------------------------


def _non_negative_int(game: str, label: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
        raise ValueError(f"{game}: {label} must be a non-negative int, got {value!r}")
    return int(value)


def _choose_parameters(game: str, module: Any, chosen: dict[str, Any]) -> dict[str, Any]:
    """The game's options with the values ``make`` was given (validated) or the defaults."""
    declared = getattr(module, "PARAMETERS", None) or {}
    defaults = getattr(module, "DEFAULTS", None) or {}
    if not isinstance(declared, dict):
        raise TypeError(f"{game}: PARAMETERS must be a dict {{name: allowed values}}, got {type(declared).__name__}")
    unknown = set(chosen) - set(declared)
    if unknown:
        options = ", ".join(f"{k} (one of {list(v)})" for k, v in declared.items()) or "none"
        raise TypeError(
            f"{game}: unknown option(s) {', '.join(sorted(unknown))}; this game's options: {options}. "
            "make() also accepts max_steps for array games."
        )
    values = {}
    for option, allowed in declared.items():
        allowed = tuple(allowed)
        value = chosen.get(option, defaults.get(option, allowed[0] if allowed else None))
        if isinstance(value, bool) or value not in allowed:
            raise ValueError(
                f"{game}: {option}={value!r} is not supported; choose one of {', '.join(repr(a) for a in allowed)}"
            )
        values[option] = value
    return values


def _choose_variant(game: str, module: Any, chosen: dict[str, Any]) -> tuple[Any, dict[str, str]]:
    """The contract module of the variant ``chosen`` names (its options are taken out of
    ``chosen``) and the variant's values; the game's own module when it declares no VARIANTS.

    ``VARIANTS = {"actions": {"full": None, "compact": "pkg.game.compact"}}``: None is the module
    itself; the default value is DEFAULTS[option], else the first one listed.
    """
    declared = getattr(module, "VARIANTS", None) or {}
    if not isinstance(declared, dict) or not all(isinstance(v, dict) and v for v in declared.values()):
        raise TypeError(f"{game}: VARIANTS must be a dict {{option: {{value: module path or None}}}}, got {declared!r}")
    defaults = getattr(module, "DEFAULTS", None) or {}
    values: dict[str, str] = {}
    target = None
    for option, choices in declared.items():
        value = chosen.pop(option, defaults.get(option, next(iter(choices))))
        if not isinstance(value, str) or value not in choices:
            raise ValueError(
                f"{game}: {option}={value!r} is not supported; choose one of "
                f"{', '.join(repr(c) for c in choices)} (e.g. make({game!r}, {option}={next(iter(choices))!r}))"
            )
        values[option] = value
        if choices[value] is not None:
            if target is not None:
                raise ValueError(f"{game}: choose one variant at a time; {values} names two modules")
            target = choices[value]
    if target is None:
        return module, values
    try:
        return importlib.import_module(target), values
    except ImportError as exc:
        raise ValueError(f"{game}: the module {target!r} of variant {values} cannot be imported: {exc}") from None


def _as_bot(game: str, level: Any, entry: Any) -> Bot:
    if isinstance(entry, Bot):
        return entry
    if callable(entry):
        return Bot(entry)
    raise TypeError(
        f"{game}: LEVELS[{level!r}] holds {entry!r}; a level is a bot policy, a Bot, or a "
        "tuple of them (one per opponent seat)"
    )


def _read_levels(game: str, raw: Any) -> dict[int, tuple[Bot, ...]]:
    if raw is None:
        return {}
    if not isinstance(raw, dict):
        raise TypeError(f"{game}: LEVELS must be a dict {{level: bot}}, got {type(raw).__name__}")
    levels = {}
    for level, entry in raw.items():
        if isinstance(level, bool) or not isinstance(level, int) or level < 1:
            raise ValueError(f"{game}: LEVELS keys must be ints >= 1 (0 is random), got {level!r}")
        entries = tuple(entry) if isinstance(entry, (tuple, list)) else (entry,)
        if not entries:
            raise ValueError(f"{game}: LEVELS[{level}] is empty; give at least one bot")
        levels[level] = tuple(_as_bot(game, level, e) for e in entries)
    return levels


def _bot_title(bot: Bot) -> str:
    """A level's label: the Bot's name, else its policy's first docstring sentence, else its name."""
    return bot.name or doc_first_sentence(bot.policy) or bot.label


# ---- loading ------------------------------------------------------------------------------------


def load_array_env(target: Any, name: str | None = None, **options: Any) -> ArrayEnv:
    """Build an ``ArrayEnv`` from a module path, a folder, a ``.py`` file or a module object.

    ``name`` overrides the game's name (default: the module's ``NAME``, else its folder or module
    name). Options: ``max_steps`` (the safety bound on a game's length) and the game's own
    ``PARAMETERS`` (``players=4``).
    """
    folder = None
    if isinstance(target, (str, os.PathLike)):
        text = os.fspath(target)
        if os.path.isdir(text):
            try:
                module = import_path(text, "game")
            except LoadError:
                raise ValueError(
                    f"folder {text!r} has no __init__.py; a game folder is a Python "
                    "package defining the contract functions (see `makeenv new`)"
                ) from None
            folder = os.path.abspath(text)
        elif text.endswith(".py"):
            if not os.path.isfile(text):
                raise ValueError(f"no such game file {text!r}")
            if os.path.basename(text) == "__init__.py":
                return load_array_env(os.path.dirname(os.path.abspath(text)), name, **options)
            module = import_path(text, "file")
        elif text.startswith((".", "~")) or "/" in text or os.sep in text:
            raise ValueError(
                f"no such game folder {text!r} (a game folder holds an __init__.py "
                "with the contract functions; `makeenv new NAME` creates one)"
            )
        else:
            try:
                module = importlib.import_module(text)
            except ModuleNotFoundError as exc:
                raise ValueError(
                    f"cannot import game module {text!r} ({exc}); pass a registered name, "
                    "an importable module path (my_games.tictactoe) or a folder path (./tictactoe)"
                ) from None
    elif isinstance(target, types.ModuleType) or hasattr(target, "initEnv"):
        module = target
    else:
        raise TypeError(f"expected a module path, folder, .py file or module, got {target!r}")
    if not any(hasattr(module, fn) for fn in CONTRACT_NAMES):
        where = getattr(module, "__file__", None) or text
        raise ValueError(
            f"{os.path.basename(str(where))} defines none of the contract functions "
            f"({', '.join(CONTRACT_NAMES[:4])}, ...): it is not an array game. Pass the game's folder, "
            "its module path or a registered name."
        )
    return ArrayEnv(module, name, folder=folder, **options)


def _module_folder(module: Any) -> str | None:
    path = getattr(module, "__file__", None)
    if path and os.path.basename(path) == "__init__.py":
        return os.path.dirname(os.path.abspath(path))
    return None


def _default_name(module: Any) -> str:
    raw = getattr(module, "__name__", "game").rsplit(".", 1)[-1]
    raw = re.sub(r"^_makeenv_(game|file)_|_[0-9a-f]{8}$", "", raw)
    return "".join(part.capitalize() for part in raw.split("_") if part) or "Game"


def doc_first_sentence(obj: Any, limit: int = 160) -> str:
    """The first sentence of a function's docstring, whole even when it wraps over lines.

    "" when the docstring is missing or its first sentence is longer than ``limit`` characters.
    """
    doc = getattr(getattr(obj, "py_func", obj), "__doc__", None) or ""
    paragraph = " ".join(doc.strip().split("\n\n")[0].split())
    sentence = re.match(r".*?[.!?](?=\s|$)", paragraph)
    text = sentence.group(0) if sentence else paragraph
    return text if len(text) <= limit else ""
