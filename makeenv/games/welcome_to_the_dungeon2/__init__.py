"""WelcomeToTheDungeon2 (the Barbarian and the Mage): an array env. Rules in ``logic.py`` (the
deck, bidding and scores shared with WelcomeToTheDungeon in ``welcome_to_the_dungeon/dungeon.py``),
bots in ``bots.py``, drawing in ``draw.py``, layouts in README.md."""

from .bots import LEVELS
from .draw import describe_action, describe_state, render
from .logic import (
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
    getWinners,
    initEnv,
    isValidAction,
    sampleEnv,
    stepEnv,
)

NAME = "WelcomeToTheDungeon2"
