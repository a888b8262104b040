"""RL ecosystem adapters for array games: PettingZoo, Gymnasium, and a batched Gymnasium vector env.

* ``to_pettingzoo(env)``: a PettingZoo AEC env (every seat an agent); ``parallel=True`` gives a
  Parallel env for simultaneous-move games.
* ``to_gymnasium(env, level=1)``: a single-agent Gymnasium env against a level's bots; importing
  this package also registers ``gymnasium.make("makeenv/<Game>", level=1)`` for every array game.
* ``BatchedEnv(env, num_envs, level=1)``: N games stepped in one compiled call, a
  ``gymnasium.vector.VectorEnv`` (also ``gymnasium.make_vec("makeenv/<Game>", num_envs=N)``).

Each adapter steps games only through the game's referee; Gymnasium and PettingZoo come with the
``dev`` extra (or ``pip install gymnasium pettingzoo``).
"""

from __future__ import annotations

import importlib
from typing import Any

try:  # registering needs Gymnasium; without it the adapters explain what to install when used
    importlib.import_module("makeenv.adapters.gymnasium_env")
except ImportError:  # pragma: no cover - gymnasium is in the dev extra
    pass

__all__ = ["to_pettingzoo", "to_gymnasium", "BatchedEnv", "register_game"]

_LAZY = {
    "to_pettingzoo": ("makeenv.adapters.pettingzoo_env", "pettingzoo"),
    "ArrayGameAEC": ("makeenv.adapters.pettingzoo_env", "pettingzoo"),
    "ArrayGameParallel": ("makeenv.adapters.pettingzoo_env", "pettingzoo"),
    "to_gymnasium": ("makeenv.adapters.gymnasium_env", "gymnasium"),
    "ArrayGameEnv": ("makeenv.adapters.gymnasium_env", "gymnasium"),
    "register_game": ("makeenv.adapters.gymnasium_env", "gymnasium"),
    "BatchedEnv": ("makeenv.adapters.batched_env", "gymnasium"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'makeenv.adapters' has no attribute {name!r}")
    module_name, package = _LAZY[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        if exc.name != package:
            raise
        raise ImportError(
            f"makeenv.adapters.{name} needs {package}: pip install {package} (or pip install -e '.[dev]')"
        ) from None
    return getattr(module, name)
