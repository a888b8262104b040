"""The one loader for user code: game folders, game files, and ``module:name`` / ``file.py:name``.

Files and folders are imported under a private module name derived from their absolute path
(``_makeenv_game_tic_tac_toe_1a2b3c4d``): the same place always gets the same name, in every
process, whatever its files contain. numba's on-disk cache refers to compiled functions by module
name, so a name that changed with the content of unrelated files (a test beside the game) broke
the cache; a path-derived name never changes under numba's feet.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import sys
import threading
import types
from pathlib import Path
from typing import Any

_IMPORT_LOCK = threading.RLock()  # a half-run module must never be handed to another thread


class LoadError(ValueError):
    """A ``module:name`` / ``file.py:name`` target, file or folder that cannot be loaded."""


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


def private_module_name(prefix: str, path: str | os.PathLike[str]) -> str:
    """``_makeenv_<prefix>_<stem>_<hash of the absolute path>``: stable for a place, unique per place."""
    resolved = Path(path).resolve()
    stem = resolved.stem if resolved.suffix == ".py" else resolved.name
    stem = re.sub(r"\W", "_", stem) or "code"
    digest = hashlib.sha1(str(resolved).encode("utf-8")).hexdigest()[:8]
    return f"_makeenv_{prefix}_{stem}_{digest}"


def import_path(path: str | os.PathLike[str], prefix: str = "obj") -> types.ModuleType:
    """Import a ``.py`` file, or a folder holding ``__init__.py``, under its private module name."""
    resolved = Path(path).resolve()
    name = private_module_name(prefix, resolved)
    if resolved.is_dir():
        init = resolved / "__init__.py"
        if not init.is_file():
            raise LoadError(f"folder {os.fspath(path)!r} has no __init__.py, so it is not a Python package")
        spec = importlib.util.spec_from_file_location(name, init, submodule_search_locations=[str(resolved)])
    elif resolved.is_file():
        spec = importlib.util.spec_from_file_location(name, resolved)
    else:
        raise LoadError(f"no such file or folder {os.fspath(path)!r}")
    return import_once(name, spec)


def looks_like_path(location: str) -> bool:
    """True when ``location`` names a file or folder rather than an importable module."""
    return location.endswith(".py") or "/" in location or os.sep in location or location.startswith((".", "~"))


def load_object(target: str, what: str = "object") -> Any:
    """The object named by ``"package.module:name"`` or ``"path/to/file.py:name"``.

    ``what`` names the kind of object in messages ("agent", "jury class"). Errors are
    ``LoadError`` (a ValueError) naming the target and what was expected; an exception raised by
    the user's module while it is imported propagates unchanged.
    """
    if not isinstance(target, str) or not target.strip():
        raise LoadError(f"{what} must be given as 'module:name' or 'file.py:name', got {target!r}")
    target = target.strip()
    location, sep, name = target.rpartition(":")
    if not sep or not location or not name:
        raise LoadError(
            f"{what} {target!r} must look like 'module:name' (my_agents:greedy) or 'file.py:name' (./agent.py:act)"
        )
    if looks_like_path(location):
        path = Path(os.path.expanduser(location))
        if not path.is_file():
            raise LoadError(f"{what} {target!r}: no such file {location!r}")
        module = import_path(path, "obj")
    else:
        module = _import_module(location, target, what)
    if not hasattr(module, name):
        names = sorted(n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n)))
        raise LoadError(
            f"{what} {target!r}: {location!r} has no {name!r}; it defines: {', '.join(names) or 'nothing callable'}"
        )
    return getattr(module, name)


def _import_module(location: str, target: str, what: str) -> types.ModuleType:
    """Import ``location`` as ``python -m`` would: the current folder is searched too (last, so it
    never hides an installed module). A module found nowhere is a ``LoadError`` saying what to write."""
    try:
        return importlib.import_module(location)
    except ModuleNotFoundError as error:
        if not (error.name and location.startswith(error.name)):
            raise  # the module was found but imports something missing: the user's own error
        here = os.getcwd()
        if here not in sys.path and "" not in sys.path:
            sys.path.append(here)
            importlib.invalidate_caches()
            return _import_module(location, target, what)
        name = target.rpartition(":")[2]
        file = Path(*location.split(".")).with_suffix(".py")
        hint = (
            f"; it is a file here, so write './{file.as_posix()}:{name}'"
            if file.is_file()
            else f"; for a file write its path, e.g. './{file.as_posix()}:{name}', or run from the folder that holds it"
        )
        raise LoadError(f"{what} {target!r}: cannot import module {location!r} ({error}){hint}") from None
