"""A tiny 3-player test game: each player moves once (action 0 or 1); player 0 always wins.

State (length 4): [my seat, 1 if game over, 1 if I won, number of moves made].
An agent that wins about 1/3 of its games proves the runner shuffles the seats.
"""

import numpy as np
from numba import njit

NAME = "SeatGame"
N = 3


@njit(cache=True)
def getActionSize():
    return 2


@njit(cache=True)
def getStateSize():
    return 4


@njit(cache=True)
def getAgentSize():
    return N


@njit(cache=True)
def initEnv():
    env = np.zeros(3)  # [player to move, moves made, winner (-1 running)]
    env[2] = -1.0
    return env


@njit(cache=True)
def getCurrentPlayer(env):
    return int(env[0])


@njit(cache=True)
def getPlayerState(env, player):
    state = np.zeros(4)
    state[0] = player
    state[3] = env[1]
    if env[2] >= 0:
        state[1] = 1.0
        if int(env[2]) == player:
            state[2] = 1.0
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, int(env[0]))


@njit(cache=True)
def getValidActions(state):
    return np.ones(2)


@njit(cache=True)
def stepEnv(action, env):
    env[1] += 1.0
    if env[1] >= N:
        env[2] = 0.0
    else:
        env[0] = env[1]
    return env


@njit(cache=True)
def checkEnded(env):
    return int(env[2])


@njit(cache=True)
def getReward(state):
    if state[1] < 0.5:
        return -1
    return 1 if state[2] > 0.5 else 0
