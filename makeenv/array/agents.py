"""Loading agents from the command line, and the built-in random agents.

An agent is ``agent(state, agent_data) -> (action, agent_data)``, an ``@njit`` function or a
plain Python one. ``load_agent`` takes ``"module:function"``, ``"path/to/file.py:function"`` or
``"random"``.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import random
import re
import sys
from typing import Any, Callable

import numpy as np

from makeenv.array.runner import import_once

RANDOM = "random"


class AgentSpecError(ValueError):
    """An agent spec that cannot be resolved to a function."""


def load_agent(spec: str) -> Any:
    """Resolve ``"module:function"``, ``"file.py:function"`` or ``"random"`` to an agent.

    ``"random"`` is returned as the string itself; ``ArrayEnv.run`` treats it as the game's
    built-in numba random agent.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"agent spec must be 'module:function' or 'file.py:function', got {spec!r}")
    spec = spec.strip()
    if spec == RANDOM:
        return RANDOM
    target, sep, func_name = spec.rpartition(":")
    if not sep or not target or not func_name:
        raise AgentSpecError(
            f"agent spec {spec!r} must look like 'module:function' (my_agents:greedy) or "
            "'file.py:function' (./agent.py:act), or be 'random'"
        )
    if target.endswith(".py") or os.sep in target or "/" in target:
        if not os.path.isfile(target):
            raise AgentSpecError(f"agent spec {spec!r}: no such file {target!r}")
        module = _import_file(target)
    else:
        try:
            module = importlib.import_module(target)
        except ImportError as exc:
            raise AgentSpecError(f"agent spec {spec!r}: cannot import module {target!r} ({exc})") from None
    agent = getattr(module, func_name, None)
    if agent is None:
        names = sorted(n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n)))
        raise AgentSpecError(
            f"agent spec {spec!r}: {target!r} has no function {func_name!r}; it defines: "
            f"{', '.join(names) or 'no public functions'}"
        )
    if not callable(agent):
        raise AgentSpecError(f"agent spec {spec!r}: {func_name!r} is a {type(agent).__name__}, not a function")
    return agent


def initial_agent_data(agent: Any) -> Any:
    """The ``agent_data`` a command-line run starts with.

    The agent's module may define ``AGENT_DATA`` (a value, or a function returning one);
    otherwise a float64 vector of one zero.
    """
    func = getattr(agent, "py_func", agent)
    module = sys.modules.get(getattr(func, "__module__", "") or "")
    data = getattr(module, "AGENT_DATA", None) if module is not None else None
    if data is None:
        return np.zeros(1, dtype=np.float64)
    return data() if callable(data) else data


def _import_file(path: str) -> Any:
    path = os.path.abspath(path)
    stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(path))[0])
    # named after the file's content, not its path: numba's cache refers to functions by module name
    with open(path, "rb") as handle:
        name = f"_makeenv_agent_{stem}_{hashlib.sha1(handle.read()).hexdigest()[:8]}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise AgentSpecError(f"cannot load agent file {path!r}")
    return import_once(name, spec)


def python_random_agent(get_valid_actions: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray, Any], tuple[int, Any]]:
    """A plain Python agent picking uniformly among the valid actions of one game."""

    def agent(state: np.ndarray, data: Any) -> tuple[int, Any]:
        actions = np.flatnonzero(get_valid_actions(state))
        return int(actions[random.randrange(len(actions))]), data

    return agent
