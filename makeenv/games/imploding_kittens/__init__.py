"""ImplodingKittens: an array env for 2 to 6 players, ExplodingKittens with the Imploding Kittens
expansion. Rules in ``logic.py``, bots in ``bots.py``, drawing and words in ``draw.py``, layouts
in README.md."""

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

NAME = "ImplodingKittens"
