"""Built-in KuhnPoker opponents. Level 0 (random) is the framework's.

Each bot is a pair: ``*_policy(state, data)`` returns its action probabilities (what the
exploitability and strength measurements read) and the bot itself samples an action from them.
Both play from their own state only: their card, their seat and the betting.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from makeenv.games._poker.cfr import sample_action

from .logic import BET, NUM_ACTIONS, NUM_CARDS, PASS, S_CARD, S_HISTORY, S_SEAT

# A Nash equilibrium (Kuhn 1950; the one-parameter family for player 0, here alpha = 1/6):
# the probability of Bet with a (Jack, Queen, King) at each of the four decision points.
ALPHA = 1.0 / 6.0
OPENING = 0  # player 0, first move
AFTER_CHECK = 1  # player 1 after player 0 checked
FACING_BET = 2  # player 1 after player 0 bet
FACING_BET_LATE = 3  # player 0 after check, bet
NASH_BET = np.array(
    [
        [ALPHA, 0.0, 3.0 * ALPHA],  # open: bluff Jacks, bet some Kings
        [1.0 / 3.0, 0.0, 1.0],  # after a check: bluff a third of Jacks, bet Kings
        [0.0, 1.0 / 3.0, 1.0],  # facing a bet: call a third of Queens, Kings always
        [0.0, ALPHA + 1.0 / 3.0, 1.0],  # facing a bet after checking
    ]
)


@njit(cache=True)
def my_card(state) -> int:
    for c in range(NUM_CARDS):
        if state[S_CARD + c] > 0.5:
            return c
    return 0


@njit(cache=True)
def decision_point(state) -> int:
    """Which of the four decision points the player to move is at (see NASH_BET)."""
    if state[S_SEAT + 1] > 0.5:
        return FACING_BET if state[S_HISTORY + BET] > 0.5 else AFTER_CHECK
    return FACING_BET_LATE if state[S_HISTORY + 2 + BET] > 0.5 else OPENING


@njit(cache=True)
def _bet_with(probability):
    probs = np.zeros(NUM_ACTIONS, dtype=np.float64)
    probs[BET] = probability
    probs[PASS] = 1.0 - probability
    return probs


@njit(cache=True)
def card_strength_policy(state, data):
    """Bets or calls with a Queen or a King, checks and folds with a Jack."""
    return _bet_with(1.0 if my_card(state) >= 1 else 0.0)


@njit(cache=True)
def card_strength(state, data):
    """Card strength: bets or calls with a Queen or King, checks and folds with a Jack."""
    return sample_action(card_strength_policy(state, data)), data


@njit(cache=True)
def nash_policy(state, data):
    """The Nash equilibrium's probabilities (table NASH_BET)."""
    return _bet_with(NASH_BET[decision_point(state), my_card(state)])


@njit(cache=True)
def nash(state, data):
    """Nash equilibrium: bluffs and calls at the equilibrium rates (unexploitable)."""
    return sample_action(nash_policy(state, data)), data


LEVELS = {1: card_strength, 2: nash}
POLICIES = {1: card_strength_policy, 2: nash_policy}
