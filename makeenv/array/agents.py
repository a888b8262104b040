"""Loading agents from the command line, and the built-in random agents.

An agent is ``agent(state, agent_data) -> (action, agent_data)``, an ``@njit`` function or a
plain Python one. ``load_agent`` takes ``"module:function"``, ``"path/to/file.py:function"`` or
``"random"``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from makeenv.loading import LoadError, load_object

RANDOM = "random"
BOT_DATA_SIZE = 16  # zeros each bot seat starts from when its Bot carries no data


@dataclass(frozen=True)
class Bot:
    """An opponent: a policy ``policy(state, data) -> (action, data)`` and the data it starts from.

    ``data`` is a 1-D float64 array (weights loaded from a file in the game folder, say); every
    seat the bot takes plays from its own copy, which the policy may change in place as memory
    across the games of a run. Without data a seat starts from ``BOT_DATA_SIZE`` zeros.
    """

    policy: Callable[..., Any]
    data: Any = None
    name: str | None = None

    def __post_init__(self) -> None:
        if not callable(self.policy):
            raise TypeError(
                f"Bot: policy must be a function policy(state, data) -> (action, data), got {self.policy!r}"
            )
        if self.data is not None:
            data = np.ascontiguousarray(self.data, dtype=np.float64)
            if data.ndim != 1 or data.size == 0:
                raise ValueError(
                    f"Bot {self.label}: data must be a non-empty 1-D float64 array, got shape {data.shape}"
                )
            object.__setattr__(self, "data", data)

    @property
    def label(self) -> str:
        """The bot's name, else its policy's name."""
        func = getattr(self.policy, "py_func", self.policy)
        return self.name or str(getattr(func, "__name__", "bot"))

    def initial_data(self) -> np.ndarray:
        """A fresh copy of the data a seat starts from."""
        return self.data.copy() if self.data is not None else np.zeros(BOT_DATA_SIZE, dtype=np.float64)


class AgentSpecError(ValueError):
    """An agent spec that cannot be resolved to a function."""


def load_agent(spec: str) -> Any:
    """Resolve ``"module:function"``, ``"file.py:function"`` or ``"random"`` to an agent.

    ``"random"`` is returned as the string itself; ``ArrayEnv.run`` treats it as the game's
    built-in numba random agent.
    """
    if isinstance(spec, str) and spec.strip() == RANDOM:
        return RANDOM
    try:
        agent = load_object(spec, "agent spec")
    except LoadError as exc:
        raise AgentSpecError(f"{exc}; or 'random' for the built-in random agent") from None
    if not callable(agent):
        raise AgentSpecError(
            f"agent spec {spec!r}: {spec.rpartition(':')[2]!r} is {with_article(type(agent).__name__)}, "
            "not a function agent(state, agent_data) -> (action, agent_data)"
        )
    return agent


def with_article(noun: str) -> str:
    """``"an int"``, ``"a float"``: a noun after the article that fits its first letter."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


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
