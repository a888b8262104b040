"""MachiKoro: an array env. Rules in ``logic.py`` (cards in ``cards.json``), bots in ``bots.py``,
drawing in ``draw.py``, layouts in README.md."""

from .bots import LEVELS
from .draw import describe_action, describe_state, render
from .logic import (
    CARD_NAMES,
    DEFAULTS,
    PARAMETERS,
    TURN_LIMIT,
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
    sampleEnv,
    stepEnv,
)

NAME = "MachiKoro"
