"""Bidding: a small test game that uses every optional piece of the contract (v2).

2 to 4 players (``PARAMETERS``). Each round every player bids 0..3, in seat order, without seeing
the other bids of the round (``SIMULTANEOUS``, ``PRIVATE_ACTIONS``); when the last bid is in,
the highest bid wins a point if no one else bid as much. After ``ROUNDS`` scoring rounds the
players with the most points share first place (``getWinners``); returns are points minus the
mean (``getReturns``). A round where nobody scores is replayed, so a game can last forever:
``TURN_LIMIT`` ends it as a draw. ``sampleEnv`` deals the bids the state does not show at random.

env:   [to move, rounds scored, steps, bid of player 0..3 (-1 none), points of player 0..3, players]
state: [my seat 0..3 one-hot (4), my bid this round + 1, rounds scored, my points, points of the
        next players (3, relative), last round's bids of me and the next players + 1 (4), over, won,
        players]
"""

import numpy as np
from numba import njit

NAME = "Bidding"
PARAMETERS = {"players": (2, 3, 4)}
DEFAULTS = {"players": 3}
SIMULTANEOUS = True
PRIVATE_ACTIONS = (0, 1, 2, 3)
TURN_LIMIT = 60
ROUNDS = 3
MAX_PLAYERS = 4

E_TO_MOVE, E_ROUND, E_STEPS, E_BID, E_POINTS, E_PLAYERS, E_LAST = 0, 1, 2, 3, 7, 11, 12
ENV_SIZE = 16
S_SEAT, S_MY_BID, S_ROUND, S_MY_POINTS, S_OTHERS, S_LAST, S_OVER, S_WON, S_PLAYERS = 0, 4, 5, 6, 7, 10, 14, 15, 16
STATE_SIZE = 17


@njit(cache=True)
def getActionSize():
    return 4


@njit(cache=True)
def getStateSize():
    return STATE_SIZE


@njit(cache=True)
def initEnv(players):
    env = np.zeros(ENV_SIZE)
    env[E_BID : E_BID + MAX_PLAYERS] = -1.0
    env[E_LAST : E_LAST + MAX_PLAYERS] = -1.0
    env[E_PLAYERS] = players
    return env


@njit(cache=True)
def getCurrentPlayer(env):
    return int(env[E_TO_MOVE])


@njit(cache=True)
def _winners(env):
    n = int(env[E_PLAYERS])
    best = env[E_POINTS : E_POINTS + n].max()
    out = np.zeros(n)
    for p in range(n):
        if env[E_POINTS + p] == best:
            out[p] = 1.0
    return out


@njit(cache=True)
def checkEnded(env):
    n = int(env[E_PLAYERS])
    if env[E_ROUND] < ROUNDS:
        return -1
    winners = _winners(env)
    if winners.sum() == 1.0:
        return int(np.argmax(winners))
    return n


@njit(cache=True)
def getWinners(env):
    return _winners(env)


@njit(cache=True)
def getReturns(env):
    n = int(env[E_PLAYERS])
    points = env[E_POINTS : E_POINTS + n].copy()
    return points - points.mean()


@njit(cache=True)
def getPlayerState(env, player):
    n = int(env[E_PLAYERS])
    state = np.zeros(STATE_SIZE)
    state[S_SEAT + player] = 1.0
    state[S_MY_BID] = env[E_BID + player] + 1.0
    state[S_ROUND] = env[E_ROUND]
    state[S_PLAYERS] = n
    state[S_MY_POINTS] = env[E_POINTS + player]
    for k in range(1, n):
        state[S_OTHERS + k - 1] = env[E_POINTS + (player + k) % n]
    for k in range(n):
        state[S_LAST + k] = env[E_LAST + (player + k) % n] + 1.0
    ended = checkEnded(env)
    if ended != -1:
        state[S_OVER] = 1.0
        winners = _winners(env)
        if winners[player] == 1.0 and winners.sum() < n:
            state[S_WON] = 1.0
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, int(env[E_TO_MOVE]))


@njit(cache=True)
def getValidActions(state):
    return np.ones(4)


@njit(cache=True)
def isValidAction(state, action):
    return 0 <= action < 4


@njit(cache=True)
def stepEnv(action, env):
    n = int(env[E_PLAYERS])
    p = int(env[E_TO_MOVE])
    env[E_BID + p] = action
    env[E_STEPS] += 1.0
    if p < n - 1:
        env[E_TO_MOVE] = p + 1
        return env
    best, count, who = -1.0, 0, -1
    for q in range(n):
        bid = env[E_BID + q]
        if bid > best:
            best, count, who = bid, 1, q
        elif bid == best:
            count += 1
        env[E_LAST + q] = bid
        env[E_BID + q] = -1.0
    if count == 1 and best > 0:
        env[E_POINTS + who] += 1.0
        env[E_ROUND] += 1.0
    env[E_TO_MOVE] = 0.0
    return env


@njit(cache=True)
def getReward(state):
    if state[S_OVER] < 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0


@njit(cache=True)
def sampleEnv(state):
    """An env the state's player could be in: the other bids of this round drawn at random."""
    me = int(np.argmax(state[S_SEAT : S_SEAT + MAX_PLAYERS]))
    n = int(state[S_PLAYERS])
    env = initEnv(n)
    env[E_TO_MOVE] = me
    env[E_ROUND] = state[S_ROUND]
    env[E_POINTS + me] = state[S_MY_POINTS]
    for k in range(1, n):
        env[E_POINTS + (me + k) % n] = state[S_OTHERS + k - 1]
    for k in range(n):
        env[E_LAST + (me + k) % n] = state[S_LAST + k] - 1.0
    for q in range(me):  # the bids made before mine this round are hidden: deal them
        env[E_BID + q] = int(np.random.random() * 4)
    env[E_BID + me] = state[S_MY_BID] - 1.0
    return env


@njit(cache=True)
def high_bidder(state, data):
    """Always bids 3; counts its moves in data[0]."""
    data[0] += 1.0
    return 3, data


@njit(cache=True)
def low_bidder(state, data):
    """Always bids 1; counts its moves in data[0]."""
    data[0] += 1.0
    return 1, data


LEVELS = {1: high_bidder, 2: (high_bidder, low_bidder)}
