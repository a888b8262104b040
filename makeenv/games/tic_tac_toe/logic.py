"""TicTacToe: the rules, as numba functions over flat float64 arrays.

Two players take turns marking an empty cell of a 3 x 3 board; player 0 plays X and moves
first, player 1 plays O. Three of one's own marks in a row, column or diagonal win at once; a
full board without such a line ends with no winner. The rules, action ids (``row * 3 + column``)
and returns (+1 / -1, 0 for no winner) are those of OpenSpiel's ``tic_tac_toe``.

The array layouts are documented in this folder's README.md (and repeated beside the constants).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from makeenv.array.numba_helpers import copy_values, new_values

# ---- board and actions ---------------------------------------------------------------------------
SIZE = 3  # rows and columns
CELLS = SIZE * SIZE  # action k marks cell k = row * 3 + column (row 0 at the top)
NUM_PLAYERS = 2
NO_WINNER = NUM_PLAYERS  # what checkEnded returns for a full board without a line

# the eight lines as bitboards (bit k = cell k): three rows, three columns, two diagonals
LINES = (0b000000111, 0b000111000, 0b111000000, 0b001001001, 0b010010010, 0b100100100, 0b100010001, 0b001010100)

# ---- env: the referee's view (length ENV_SIZE) ---------------------------------------------------
E_MARKS = 0  # E_MARKS + 9 * p + cell: 1 when player p (0 = X, 1 = O) has marked that cell
E_BITS = 18  # E_BITS + p: player p's marks as a bitboard, bit k for cell k (finds lines fast)
E_PLAYER = 20  # player to move: 0 or 1
E_MOVES = 21  # marks on the board (0..9)
E_WINNER = 22  # -1 running, 0/1 the winner, 2 a full board without a line (what checkEnded returns)
ENV_SIZE = 23

# ---- state: one player's view (length STATE_SIZE); every value is 0 or 1 ------------------------
S_MINE = 0  # 0..8: 1 where I have a mark
S_THEIRS = 9  # 9..17: 1 where my opponent has a mark
S_MY_TURN = 18  # 1 while the game runs and it is my turn
S_FIRST = 19  # 1 when I play X (I moved first), 0 when I play O
S_OVER = 20  # 1 when the game is over
S_WON = 21  # 1 when I won
S_LOST = 22  # 1 when my opponent won
STATE_SIZE = 23


@njit(cache=True)
def getActionSize() -> int:
    return CELLS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    return NUM_PLAYERS


@njit(cache=True)
def initEnv():
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_WINNER] = -1.0
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_PLAYER])


# getPlayerState, getAgentState and getValidActions, which return new arrays at every step, are
# inlined into their callers (the runner, an agent): a call of their own costs a game 9-15%
@njit(cache=True, inline="always")
def getPlayerState(env, player):
    state = new_values(STATE_SIZE)
    copy_values(state, S_MINE, env, E_MARKS + CELLS * player, CELLS)
    copy_values(state, S_THEIRS, env, E_MARKS + CELLS * (1 - player), CELLS)
    winner = env[E_WINNER]
    running = winner < 0.0
    state[S_MY_TURN] = 1.0 if running and env[E_PLAYER] == player else 0.0
    state[S_FIRST] = 1.0 if player == 0 else 0.0
    state[S_OVER] = 0.0 if running else 1.0
    state[S_WON] = 1.0 if winner == player else 0.0
    state[S_LOST] = 1.0 if winner == 1 - player else 0.0
    return state


@njit(cache=True, inline="always")
def getAgentState(env):
    return getPlayerState(env, int(env[E_PLAYER]))


@njit(cache=True, inline="always")
def isValidAction(state, action) -> bool:
    if action < 0 or action >= CELLS:
        return False
    if state[S_OVER] > 0.5:
        return action == 0  # a finished game offers action 0 alone (the final turn)
    return not (state[S_MINE + action] > 0.5 or state[S_THEIRS + action] > 0.5)


@njit(cache=True, inline="always")
def getValidActions(state):
    # selects instead of branches: a random board's pattern of empty cells would defeat the
    # branch predictor, and this runs at every step
    valid = new_values(CELLS)
    running = 0.0 if state[S_OVER] > 0.5 else 1.0
    for cell in range(CELLS):
        valid[cell] = running if (state[S_MINE + cell] < 0.5) & (state[S_THEIRS + cell] < 0.5) else 0.0
    valid[0] += 1.0 - running  # a finished game offers action 0 alone (the final turn)
    return valid


@njit(cache=True)
def has_line(marks) -> bool:
    """True when the bitboard ``marks`` (bit k = cell k) holds a whole row, column or diagonal."""
    found = False
    for line in LINES:  # `|=`, not an early return: no branches on the shape of the board
        found |= (marks & line) == line
    return found


@njit(cache=True)
def apply_action(action, env):
    """``stepEnv``'s work, returning nothing (see ``stepEnv``)."""
    player = int(env[E_PLAYER])
    env[E_MARKS + CELLS * player + action] = 1.0
    marks = int(env[E_BITS + player]) | (1 << action)
    env[E_BITS + player] = marks
    env[E_MOVES] += 1.0
    env[E_PLAYER] = 1 - player
    if has_line(marks):
        env[E_WINNER] = player
    elif env[E_MOVES] >= CELLS:
        env[E_WINNER] = NO_WINNER


# inlined into its callers (the runner's loop, an agent) as a shell whose work returns nothing: a
# call returning the env costs reference counts (atomic operations) at every step
@njit(cache=True, inline="always")
def stepEnv(action, env):
    apply_action(action, env)
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


@njit(cache=True)
def sampleEnv(state):
    """The env of the position ``state`` shows, with its player to move (perfect information)."""
    env = initEnv()
    me = 0 if state[S_FIRST] > 0.5 else 1
    for cell in range(CELLS):
        if state[S_MINE + cell] > 0.5:
            owner = me
        elif state[S_THEIRS + cell] > 0.5:
            owner = 1 - me
        else:
            continue
        env[E_MARKS + CELLS * owner + cell] = 1.0
        env[E_BITS + owner] += 2.0**cell
        env[E_MOVES] += 1.0
    env[E_PLAYER] = me
    if state[S_OVER] > 0.5:
        env[E_WINNER] = me if state[S_WON] > 0.5 else (1 - me if state[S_LOST] > 0.5 else NO_WINNER)
    return env
