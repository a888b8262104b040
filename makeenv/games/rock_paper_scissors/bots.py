"""Built-in RockPaperScissors opponents (levels 1, 2). Level 0 (random) is the framework's.

A bot is an agent like any other: ``bot(state, data) -> (action, data)``. The runner gives each
bot seat its own float64 ``data`` vector (zeros at the start of a run) that it may use as memory.
Both bots have a habit a simple counter-strategy can exploit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import CONFIRM, PAPER, ROCK, S_CONFIRM, S_MINE, S_OVER, S_ROUND, SCISSORS


@njit(cache=True)
def rock_lover(state, data):
    """Rock-lover: picks Rock 60% of the time, Scissors and Paper 20% each."""
    if state[S_CONFIRM] > 0.5 or state[S_OVER] > 0.5:
        return CONFIRM, data
    r = np.random.random()
    if r < 0.6:
        return ROCK, data
    if r < 0.8:
        return SCISSORS, data
    return PAPER, data


@njit(cache=True)
def repeater(state, data):
    """Repeater: random in the first round; after a tie it plays the tied choice again."""
    if state[S_CONFIRM] > 0.5 or state[S_OVER] > 0.5:
        # remember my choice of this round (data[0] = choice + 1)
        for c in range(3):
            if state[S_MINE + c] > 0.5:
                data[0] = c + 1.0
        return CONFIRM, data
    if state[S_ROUND] > 0.5 and data[0] > 0.5:
        return int(data[0]) - 1, data
    return int(np.random.random() * 3.0), data


LEVELS = {1: rock_lover, 2: repeater}
