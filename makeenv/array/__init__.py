"""The array-env family: numba games over float64 arrays, one referee, one runner, checks, scaffold.

``makeenv.make("RockPaperScissors")`` returns an :class:`ArrayEnv`; see docs/ARCHITECTURE.md for
the contract. Importing it makes numba's inlining faster (``inlining.install``: the same compiled
code, sooner).
"""

from makeenv.array import inlining
from makeenv.array.agents import Bot
from makeenv.array.contract import CONTRACT, CONTRACT_NAMES, OPTIONAL_FUNCTIONS, ArrayEnv, load_array_env
from makeenv.array.errors import (
    AgentError,
    AgentRaisedError,
    ArrayEnvError,
    GameCompileError,
    GameError,
    InvalidActionError,
    RunInterrupted,
)
from makeenv.array.referee import Match, Outcome
from makeenv.array.results import Results, SeatResults

inlining.install()

__all__ = [
    "Bot",
    "CONTRACT",
    "CONTRACT_NAMES",
    "OPTIONAL_FUNCTIONS",
    "ArrayEnv",
    "load_array_env",
    "Match",
    "Outcome",
    "Results",
    "SeatResults",
    "ArrayEnvError",
    "InvalidActionError",
    "AgentError",
    "AgentRaisedError",
    "GameError",
    "GameCompileError",
    "RunInterrupted",
]
