"""Splendor: an array env for 2 to 4 players. Rules in ``logic.py``, bots in ``bots.py``,
drawing and words in ``draw.py``, layouts in README.md; other action encodings in ``compact.py``
and ``macro.py``."""

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
    getWinners,
    initEnv,
    isValidAction,
    sampleEnv,
    stepEnv,
)

NAME = "Splendor"
# make("Splendor", actions="compact" | "macro"): vis/ENV's Splendor_v2 and Splendor_v3 encodings
VARIANTS = {
    "actions": {
        "full": None,
        "compact": "makeenv.games.splendor.compact",
        "macro": "makeenv.games.splendor.macro",
    }
}
