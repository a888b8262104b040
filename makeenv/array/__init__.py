"""The array-env family: numba games over float64 arrays, one referee, one runner, checks, scaffold.

``makeenv.make("RockPaperScissors")`` returns an :class:`ArrayEnv`; see docs/ARCHITECTURE.md for
the contract. Importing it makes numba compile sooner, to the same code: its inlining
(``inlining.install``), makeenv's functions once per argument type, not per constant
(``plain_calls.install``), and without Python's wrappers, only linked, when compiled code calls them
(``bare_calls.install``); and it numbers compiled functions apart from those of other processes,
whose code may come from a cache (``function_ids.install``).
"""

from makeenv.array import bare_calls, function_ids, inlining, plain_calls
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

function_ids.install()
inlining.install()
plain_calls.install()
bare_calls.install()

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
