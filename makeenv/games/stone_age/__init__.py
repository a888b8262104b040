"""Stone Age: an array env. Rules in ``logic.py`` (card and building data in ``cards.json``), bots
in ``bots.py``, drawing in ``draw.py``, layouts in README.md."""

from .bots import LEVELS
from .draw import describe_action, describe_state, render
from .logic import (
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
    initEnv,
    isValidAction,
    stepEnv,
)

NAME = "StoneAge"
PARAMETERS = {"players": (2, 3, 4)}
DEFAULTS = {"players": 4}
