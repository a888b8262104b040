"""RockPaperScissors: an array env. Rules in ``logic.py``, bots in ``bots.py``, layouts in README.md."""

from .bots import LEVELS
from .draw import describe_action, describe_state, render
from .logic import (
    ACTION_NAMES,
    PRIVATE_ACTIONS,
    SIMULTANEOUS,
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
    isValidAction,
    stepEnv,
)

NAME = "RockPaperScissors"

__all__ = [
    "NAME",
    "LEVELS",
    "ACTION_NAMES",
    "SIMULTANEOUS",
    "PRIVATE_ACTIONS",
    "render",
    "describe_action",
    "describe_state",
    "isValidAction",
    "initEnv",
    "getCurrentPlayer",
    "getPlayerState",
    "getAgentState",
    "stepEnv",
    "getValidActions",
    "getReward",
    "checkEnded",
    "getActionSize",
    "getStateSize",
    "getAgentSize",
]
