"""TLMN (Tien Len Mien Nam): an array env. Rules in ``logic.py``, bots in ``bots.py``, drawing in
``draw.py``, layouts in README.md."""

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
    sampleEnv,
    stepEnv,
)

NAME = "TLMN"
