"""The array-env family: numba games over float64 arrays, one generic runner, checks, scaffold.

``makeenv.make("RockPaperScissors")`` returns an :class:`ArrayEnv`; see docs/ARCHITECTURE.md for
the contract.
"""

from makeenv.array.contract import CONTRACT, CONTRACT_NAMES, ArrayEnv, load_array_env
from makeenv.array.runner import AgentError, ArrayEnvError, GameError, InvalidActionError

__all__ = [
    "CONTRACT", "CONTRACT_NAMES", "ArrayEnv", "load_array_env",
    "ArrayEnvError", "InvalidActionError", "AgentError", "GameError",
]
