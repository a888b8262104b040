"""Numba and Python agents used by the array tests (top level, so compiled loops are cached)."""

from __future__ import annotations

import random

import numpy as np
from numba import njit

from makeenv.games.rock_paper_scissors import logic as L


@njit(cache=True)
def numba_random(state, data):
    """A user-written numba random agent (not the built-in one)."""
    valid = L.getValidActions(state)
    while True:
        a = int(np.random.random() * 4.0)
        if valid[a] == 1.0:
            return a, data


@njit(cache=True)
def numba_counting(state, data):
    """Random agent that counts final turns (data[1]), wins by getReward (data[0]) and moves (data[2])."""
    r = L.getReward(state)
    if r != -1:
        data[1] += 1.0
        if r == 1:
            data[0] += 1.0
        return 3, data
    data[2] += 1.0
    return numba_random(state, data)


@njit(cache=True)
def always_paper(state, data):
    """Counter to the Rock-lover (level 1)."""
    if state[L.S_CONFIRM] > 0.5 or state[L.S_OVER] > 0.5:
        return L.CONFIRM, data
    return L.PAPER, data


@njit(cache=True)
def beat_the_repeat(state, data):
    """Counter to the Repeater (level 2): after a tie, beat what the opponent played."""
    if state[L.S_CONFIRM] > 0.5 or state[L.S_OVER] > 0.5:
        for c in range(3):
            if state[L.S_THEIRS + c] > 0.5:
                data[0] = c
        return L.CONFIRM, data
    if state[L.S_ROUND] > 0.5:
        return (int(data[0]) + 1) % 3, data
    return int(np.random.random() * 3.0), data


@njit(cache=True)
def numba_always_3(state, data):
    return 3, data


@njit(cache=True)
def numba_always_7(state, data):
    return 7, data


@njit(cache=True)
def numba_half(state, data):
    return 1.5, data


@njit(cache=True)
def numba_negative(state, data):
    return -1, data


@njit(cache=True)
def numba_no_tuple(state, data):
    return 3


@njit(cache=True)
def numba_one_arg(state):
    return 3, state


@njit(cache=True)
def numba_seat_counter(state, data):
    """For the seat game: data[seat] += 1 at each final turn, data[3] += wins."""
    if state[1] > 0.5:
        data[int(state[0])] += 1.0
        data[3] += state[2]
    return 0, data


def python_random(state, data):
    actions = np.flatnonzero(L.getValidActions(state))
    return int(actions[random.randrange(len(actions))]), data


def python_counting(state, data):
    r = L.getReward(state)
    if r != -1:
        data[1] += 1
        data[0] += r == 1
        return 3, data
    data[2] += 1
    return python_random(state, data)


def python_numpy_random(state, data):
    """Uses NumPy's global generator (seeded by run(seed=...))."""
    actions = np.flatnonzero(L.getValidActions(state))
    return int(actions[np.random.randint(len(actions))]), data


@njit(cache=True)
def numba_changes_data_type(state, data):
    return 3, 0


@njit(cache=True)
def numba_returns_array_action(state, data):
    return state, data
