"""Catan: an array env. Rules in ``logic.py`` (pieces, numbers and ports in ``board.json``; the map
adjacency computed from hex geometry), bots in ``bots.py``, drawing in ``draw.py``, layouts in
README.md."""

from .bots import LEVELS
from .draw import describe_action, describe_state, render
from .logic import (
    DEFAULTS,
    PARAMETERS,
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

NAME = "Catan"
