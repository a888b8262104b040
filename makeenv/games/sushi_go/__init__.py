"""SushiGo: an array env. Rules in ``logic.py``, bots in ``bots.py``, drawing in ``draw.py``,
layouts in README.md."""

from .bots import LEVELS
from .draw import describe_action, describe_state, render
from .logic import (
    ACTION_NAMES,
    CARD_NAMES,
    checkEnded,
    getActionSize,
    getAgentSize,
    getAgentState,
    getCurrentPlayer,
    getPlayerState,
    getReward,
    getStateSize,
    getValidActions,
    getWinners,
    initEnv,
    isValidAction,
    sampleEnv,
    stepEnv,
)

NAME = "SushiGo"
PARAMETERS = {"players": (2, 3, 4, 5)}
DEFAULTS = {"players": 5}
PRIVATE_ACTIONS = tuple(range(13))  # a pick (and Use chopsticks) stays hidden until the turn is revealed
