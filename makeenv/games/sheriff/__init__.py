"""Sheriff (of Nottingham): an array env. Rules in ``logic.py``, goods in ``cards.json``, bots in
``bots.py``, drawing in ``draw.py``, layouts in README.md."""

from .bots import LEVELS
from .draw import describe_action, describe_state, render
from .logic import (
    GOOD_NAMES,
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

NAME = "Sheriff"
