"""Ticket to Ride: Europe: an array env. Rules in ``logic.py`` (map data in ``map.json``), bots in
``bots.py``, drawing in ``draw.py``, layouts in README.md."""

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
    getReturns,
    getReward,
    getStateSize,
    getValidActions,
    getWinners,
    initEnv,
    stepEnv,
)

NAME = "TicketToRide"
PARAMETERS = {"players": (2, 3, 4, 5)}
DEFAULTS = {"players": 5}
