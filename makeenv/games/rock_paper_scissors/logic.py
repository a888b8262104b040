"""RockPaperScissors: the rules, as numba functions over flat float64 arrays.

Two players. Each round has two phases:

1. **Choice phase.** Player 0, then player 1, picks Scissors (0), Rock (1) or Paper (2). A player
   cannot see the other's choice yet.
2. **Confirmation phase.** Player 0, then player 1, sees both choices and plays Confirm (3).

After the second Confirm the round is settled: Rock beats Scissors, Scissors beats Paper, Paper
beats Rock. A tie starts a new round. The game ends at the first round with a winner, or with no
winner after ``MAX_ROUNDS`` tied rounds.

The array layouts are documented in this folder's README.md (and repeated beside the constants).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---- actions ---------------------------------------------------------------------------------
SCISSORS, ROCK, PAPER, CONFIRM = 0, 1, 2, 3
ACTION_NAMES = ("Scissors", "Rock", "Paper", "Confirm")
NUM_ACTIONS = 4
NUM_PLAYERS = 2
MAX_ROUNDS = 100
# The choices are simultaneous: made in turn, hidden until both confirmations reveal them.
SIMULTANEOUS = True
PRIVATE_ACTIONS = (SCISSORS, ROCK, PAPER)

# ---- env: the referee's view (length ENV_SIZE) -----------------------------------------------
E_PLAYER = 0  # player to move: 0 or 1
E_PHASE = 1  # 0 choice phase, 1 confirmation phase
E_CHOICE = 2  # E_CHOICE + p: player p's choice this round (0..2), -1 not chosen yet
E_ROUND = 4  # number of tied rounds so far (0..MAX_ROUNDS)
E_WINNER = 5  # -1 running, 0/1 winner, 2 ended with no winner (what checkEnded returns)
ENV_SIZE = 6

# ---- state: one player's view (length STATE_SIZE); every value is 0 or a count ---------------
S_MINE = 0  # 0..2 one-hot: my choice this round (all 0 before I choose)
S_THEIRS = 3  # 3..5 one-hot: opponent's choice, shown only in the confirmation phase / at the end
S_CONFIRM = 6  # 1 in the confirmation phase
S_ROUND = 7  # number of tied rounds so far
S_OVER = 8  # 1 when the game is over
S_WON = 9  # 1 when I won
S_LOST = 10  # 1 when my opponent won
STATE_SIZE = 11


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    return NUM_PLAYERS


@njit(cache=True)
def initEnv():
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_CHOICE] = -1.0
    env[E_CHOICE + 1] = -1.0
    env[E_WINNER] = -1.0
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_PLAYER])


@njit(cache=True)
def getPlayerState(env, player):
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    mine = int(env[E_CHOICE + player])
    if mine >= 0:
        state[S_MINE + mine] = 1.0
    over = env[E_WINNER] >= 0.0
    if env[E_PHASE] == 1.0 or over:
        theirs = int(env[E_CHOICE + 1 - player])
        if theirs >= 0:
            state[S_THEIRS + theirs] = 1.0
    if env[E_PHASE] == 1.0:
        state[S_CONFIRM] = 1.0
    state[S_ROUND] = env[E_ROUND]
    if over:
        state[S_OVER] = 1.0
        winner = int(env[E_WINNER])
        if winner == player:
            state[S_WON] = 1.0
        elif winner == 1 - player:
            state[S_LOST] = 1.0
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, int(env[E_PLAYER]))


@njit(cache=True)
def getValidActions(state):
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    if state[S_CONFIRM] > 0.5 or state[S_OVER] > 0.5:
        valid[CONFIRM] = 1.0
    else:
        valid[SCISSORS] = 1.0
        valid[ROCK] = 1.0
        valid[PAPER] = 1.0
    return valid


@njit(cache=True)
def isValidAction(state, action) -> bool:
    """getValidActions(state)[action] == 1, without building the vector."""
    confirming = state[S_CONFIRM] > 0.5 or state[S_OVER] > 0.5
    return action == CONFIRM if confirming else 0 <= action < CONFIRM


@njit(cache=True)
def beats(a, b) -> bool:
    """True when choice ``a`` beats choice ``b`` (0 Scissors, 1 Rock, 2 Paper)."""
    return (a - b) % 3 == 1


@njit(cache=True)
def stepEnv(action, env):
    player = int(env[E_PLAYER])
    if env[E_PHASE] == 0.0:
        # choice phase: remember the choice, then it is the other player's turn
        env[E_CHOICE + player] = action
        if player == 0:
            env[E_PLAYER] = 1.0
        else:
            env[E_PLAYER] = 0.0
            env[E_PHASE] = 1.0
        return env
    # confirmation phase: player 0 confirms, then player 1 confirms and the round is settled
    if player == 0:
        env[E_PLAYER] = 1.0
        return env
    a = int(env[E_CHOICE])
    b = int(env[E_CHOICE + 1])
    env[E_PLAYER] = 0.0
    if beats(a, b):
        env[E_WINNER] = 0.0
    elif beats(b, a):
        env[E_WINNER] = 1.0
    else:
        env[E_ROUND] += 1.0
        if env[E_ROUND] >= MAX_ROUNDS:
            env[E_WINNER] = NUM_PLAYERS  # no winner
        else:
            env[E_PHASE] = 0.0
            env[E_CHOICE] = -1.0
            env[E_CHOICE + 1] = -1.0
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_WINNER])


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] > 0.5:
        return -1
    if state[S_WON] > 0.5:
        return 1
    return 0
