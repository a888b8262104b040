"""RockPaperScissors: an array env. Rules in ``logic.py``, bots in ``bots.py``, layouts in README.md."""

from .bots import LEVELS
from .draw import describe_action, render
from .logic import (
    ACTION_NAMES,
    checkEnded,
    getActionSize,
    getAgentSize,
    getAgentState,
    getCurrentPlayer,
    getPlayerState,
    getReward,
    getStateSize,
    getValidActions,
    initEnv,
    stepEnv,
)

NAME = "RockPaperScissors"

__all__ = [
    "NAME", "LEVELS", "ACTION_NAMES", "render", "describe_action",
    "initEnv", "getCurrentPlayer", "getPlayerState", "getAgentState", "stepEnv",
    "getValidActions", "getReward", "checkEnded", "getActionSize", "getStateSize", "getAgentSize",
]
