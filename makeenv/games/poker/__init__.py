"""Poker (No-Limit Texas Hold'em sit-and-go): an array env. Rules and the hand evaluator in
``logic.py``, bots in ``bots.py``, drawing in ``draw.py``, layouts in README.md."""

from .bots import LEVELS
from .draw import describe_action, describe_state, render
from .logic import (
    ACTION_NAMES,
    checkEnded,
    getActionSize,
    getAgentSize,
    getAgentState,
    getCurrentPlayer,
    getPlayerState,
    getReturns,
    getReward,
    getStateSize,
    getValidActions,
    getWinners,
    hand_score,
    initEnv,
    isValidAction,
    sampleEnv,
    stepEnv,
)

NAME = "Poker"
PARAMETERS = {"players": (2, 3, 4, 5, 6, 7, 8, 9)}
DEFAULTS = {"players": 9}
