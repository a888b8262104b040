"""LeducPoker: an array env (OpenSpiel's ``leduc_poker``). Rules in ``logic.py``, bots in ``bots.py``
(level 2 reads ``policy.json``, made by ``make_policy.py``), drawing in ``draw.py``, layouts in
README.md."""

from .bots import LEVELS
from .draw import describe_action, describe_state, render
from .logic import (
    ACTION_NAMES,
    CARDS_DEALT,
    NUM_CARDS,
    allDeals,
    checkEnded,
    dealEnv,
    getActionSize,
    getAgentSize,
    getAgentState,
    getCurrentPlayer,
    getPlayerState,
    getReturns,
    getReward,
    getStateSize,
    getValidActions,
    initEnv,
    isValidAction,
    sampleEnv,
    stepEnv,
)

NAME = "LeducPoker"
