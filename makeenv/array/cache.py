"""Building (and caching) the compiled modules of a game: its referee and the runner's loops.

Three source templates become modules: ``_referee_template.py`` once per game (its functions and
parameter values), ``_loop_template.py`` once per (referee, agent kind, numba agent, numba
bots), and ``_batch_template.py`` (the batched env's core) once per (loop module, threading). Each is loaded as a fresh module after putting those objects in a hand-off dict the
template reads at import, so numba compiles them in as constants. When every function involved
lives in a source file, the module is a copy of the template under ``$MAKEENV_CACHE_DIR``
(default ``~/.cache/makeenv/runners``) named after a hash of all those sources, so numba's
``cache=True`` keeps the compiled code between processes and a changed game gets a new module.
Otherwise (functions defined in a notebook or a closure) the module lives only in this process.
"""

from __future__ import annotations

import hashlib
import importlib.util
import inspect
import itertools
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numba
import numpy as np
from numba.core.dispatcher import Dispatcher

from makeenv.array.errors import strip_internal_names
from makeenv.array.templates import LIVE_PREFIX, TEMPLATES, Template
from makeenv.loading import import_once

if TYPE_CHECKING:
    from makeenv.array.contract import ArrayEnv


_HANDOFF: dict[str, dict[str, Any]] = {}
_MODULES: dict[tuple[Any, ...], Any] = {}
_KEEP: dict[tuple[Any, ...], tuple[Any, ...]] = {}  # objects whose id() is part of a key stay alive
_LOCK = threading.RLock()
_LIVE_COUNTER = itertools.count()
BUILTIN_RANDOM_AGENTS: set[Any] = set()  # every template module's random_agent


def take_handoff(module_name: str) -> dict[str, Any]:
    """Called by the template module at import: the objects it must compile against."""
    try:
        return _HANDOFF.pop(module_name)
    except KeyError:
        raise ImportError(f"{module_name}: the game template is loaded by makeenv.array.cache, not imported") from None


def cache_dir() -> Path:
    """Where generated game modules (and numba's cache of them) live."""
    root = os.environ.get("MAKEENV_CACHE_DIR")
    if root:
        return Path(root) / "runners"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "makeenv" / "runners"


def is_numba_function(obj: Any) -> bool:
    """True for a numba ``@njit`` dispatcher."""
    return isinstance(obj, Dispatcher)


def describe(obj: Any) -> str:
    """A short name for a function, for messages."""
    func = getattr(obj, "py_func", obj)
    module = getattr(func, "__module__", None) or ""
    name = getattr(func, "__qualname__", None) or getattr(func, "__name__", None) or repr(obj)
    text = f"{module}.{name}" if module and module != "__main__" else name
    return strip_internal_names(text)


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


def referee_module(env: ArrayEnv) -> Any:
    """The compiled referee of ``env`` (its functions and parameters): ``_referee_template.py``."""
    functions = env.compiled_functions()
    key = (
        "referee",
        tuple(id(f) for f in functions.values()),
        env.max_steps,
        env.turn_limit,
    )
    with _LOCK:
        module = _MODULES.get(key)
        if module is None:
            handoff = {
                **functions,
                "n_actions": int(env.getActionSize()),
                "max_steps": env.max_steps,
                "turn_limit": env.turn_limit,
            }
            sources = [(label, func) for label, func in functions.items()]
            settings = [f"{k}={handoff[k]!r}" for k in ("n_actions", "max_steps", "turn_limit")]
            module = _build(TEMPLATES["referee"], handoff, sources, settings, env.folder)
            _MODULES[key] = module
            _KEEP[key] = tuple(functions.values())
            BUILTIN_RANDOM_AGENTS.add(module.random_agent)
    return module


def loop_module(env: ArrayEnv, agent_kind: str, agent: Any = None, bots: tuple[Any, ...] = ()) -> Any:
    """The runner's compiled loops of ``env`` for this agent kind ("random" or "user") and
    the distinct numba bot policies ``bots`` (``()``: every opponent is the random agent)."""
    referee = referee_module(env)
    key = ("loop", referee.__name__, agent_kind, id(agent), tuple(id(b) for b in bots))
    with _LOCK:
        module = _MODULES.get(key)
        if module is None:
            handoff = {"referee": referee, "agent_kind": agent_kind, "agent": agent, "bots": bots}
            sources = [("agent", agent)] + [(f"bot{i}", bot) for i, bot in enumerate(bots)]
            settings = [f"referee={referee.__name__}", f"agent_kind={agent_kind}"]
            cacheable = not is_live(referee)
            module = _build(TEMPLATES["loop"], handoff, sources, settings, env.folder, cacheable)
            _MODULES[key] = module
            _KEEP[key] = (agent, bots)
    return module


def batch_module(loop: Any, parallel: bool) -> Any:
    """The batched env's compiled core (``_batch_template.py``) over a loop module of
    ``loop_module`` (its referee and bots); ``parallel``: chunks of games run on numba's threads."""
    referee = loop.R
    key = ("batch", loop.__name__, bool(parallel))
    with _LOCK:
        module = _MODULES.get(key)
        if module is None:
            handoff = {"referee": referee, "loop": loop, "parallel": bool(parallel)}
            settings = [f"loop={loop.__name__}", f"parallel={bool(parallel)}"]
            cacheable = not is_live(loop)
            module = _build(TEMPLATES["batch"], handoff, [], settings, None, cacheable)
            _MODULES[key] = module
    return module


def _build(
    template: Template,
    handoff: dict[str, Any],
    sources: list[tuple[str, Any]],
    settings: list[str],
    folder: str | None,
    cacheable: bool = True,
) -> Any:
    text = template.path.read_text()
    digest = _cache_digest(text, sources, settings, folder) if cacheable else None
    if digest is not None:
        module = _load_cached(f"{template.module_prefix}_{digest}", text, handoff)
        if module is not None:
            return module
    return _load(f"{LIVE_PREFIX}_{next(_LIVE_COUNTER)}", template.path, {**handoff, "cache": False})


def is_live(module: Any) -> bool:
    """True for a built module that lives only in this process (not cached on disk)."""
    return module.__name__.startswith(f"{LIVE_PREFIX}_")


def _cache_digest(template: str, sources: list[tuple[str, Any]], settings: list[str], folder: str | None) -> str | None:
    """A hash of everything the compiled module depends on, or None when some function has no file."""
    memo: dict[str, str] = {}
    parts = [template, numba.__version__, sys.version, np.__version__, *settings]
    for label, func in sources:
        if func is None:
            parts.append(f"{label}:-")
            continue
        path = _source_file(func)
        if path is None:
            return None
        # module name and content (numba's cache refers to callees by module name)
        parts.append(f"{label}:{func.py_func.__module__}.{func.py_func.__qualname__}:{_file_digest(path, memo)}")
    # helpers the game imports from its own folder are part of the key too (not the Python-only
    # drawing module or tests, which compiled code never uses)
    if folder and os.path.isdir(folder):
        for helper in sorted(Path(folder).glob("*.py")):
            if helper.name != "draw.py" and not helper.name.startswith("test_"):
                parts.append(f"{helper.name}:{_file_digest(str(helper), memo)}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:24]


def _load_cached(name: str, template: str, handoff: dict[str, Any]) -> Any:
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
