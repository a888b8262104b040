"""ConnectFour: the rules, as numba functions over flat float64 arrays.

Two players take turns dropping a disc into one of 7 columns of a vertical 6-row board; the disc
falls to the lowest empty cell of its column. Player 0 moves first. Four of one's own discs in a
row, column or diagonal win at once; a full board without such a line ends with no winner. The
rules, action ids (the column, 0..6 from the left) and returns (+1 / -1, 0 for no winner) are
those of OpenSpiel's ``connect_four``.

The array layouts are documented in this folder's README.md (and repeated beside the constants).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from makeenv.array.numba_helpers import new_values

# ---- board and actions ---------------------------------------------------------------------------
ROWS = 6  # row 0 is the bottom row
COLUMNS = 7  # action c drops a disc in column c (0 = leftmost)
CELLS = ROWS * COLUMNS  # cell index in a state = row * 7 + column
NUM_PLAYERS = 2
NO_WINNER = NUM_PLAYERS  # what checkEnded returns for a full board without four in a row
TOP_ROW = (ROWS - 1) * COLUMNS

# The env keeps each player's discs twice: as 42 cells of 0/1 (copied as they are into a state)
# and as a bitboard, bit ``column * 7 + row`` set for a disc at (row, column), to find a four
# without branches. Each column takes 7 bits, one more than its 6 rows, so that shifting by 1, 7,
# 6 or 8 moves every disc one cell up, right, down-right or up-right without wrapping into the
# next column: four in a line shows as a bit set in a bitboard and in its copies shifted by one,
# two and three steps in one direction. 49 bits are exact in a float64.
H = ROWS + 1  # bits per column
LINE_SHIFTS = (1, H, H - 1, H + 1)  # up, right, down-right, up-right

# ---- env: the referee's view (length ENV_SIZE) ---------------------------------------------------
E_DISCS = 0  # E_DISCS + 42 * p + cell: 1 when player p has a disc in that cell
E_BITS = 84  # E_BITS + p: player p's discs as a bitboard (a whole number below 2**49)
E_HEIGHT = 86  # E_HEIGHT + c: discs in column c (0..6)
E_PLAYER = 93  # player to move: 0 or 1
E_MOVES = 94  # discs on the board (0..42)
E_WINNER = 95  # -1 running, 0/1 the winner, 2 a full board without four in a row (checkEnded)
ENV_SIZE = 96

# ---- state: one player's view (length STATE_SIZE); every value is 0 or 1 ------------------------
S_MINE = 0  # 0..41: 1 where I have a disc (cell = row * 7 + column, row 0 at the bottom)
S_THEIRS = 42  # 42..83: 1 where my opponent has a disc
S_MY_TURN = 84  # 1 while the game runs and it is my turn
S_FIRST = 85  # 1 when I moved first (player 0)
S_OVER = 86  # 1 when the game is over
S_WON = 87  # 1 when I won
S_LOST = 88  # 1 when my opponent won
STATE_SIZE = 89


@njit(cache=True)
def getActionSize() -> int:
    return COLUMNS


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
# inlined into their callers (the runner, an agent): 13-20% more games a second; so is
# isValidAction, which the built-in random agent asks at every move (3-6% more)
@njit(cache=True, inline="always")
def getPlayerState(env, player):
    state = new_values(STATE_SIZE)
    # constant offsets in each branch: numba's index checks vanish and the copies vectorise
    if player == 0:
        for cell in range(CELLS):
            state[S_MINE + cell] = env[E_DISCS + cell]
            state[S_THEIRS + cell] = env[E_DISCS + CELLS + cell]
    else:
        for cell in range(CELLS):
            state[S_MINE + cell] = env[E_DISCS + CELLS + cell]
            state[S_THEIRS + cell] = env[E_DISCS + cell]
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
    if action < 0 or action >= COLUMNS:
        return False
    if state[S_OVER] > 0.5:
        return action == 0  # a finished game offers action 0 alone (the final turn)
    return not (state[S_MINE + TOP_ROW + action] > 0.5 or state[S_THEIRS + TOP_ROW + action] > 0.5)


@njit(cache=True, inline="always")
def getValidActions(state):
    valid = new_values(COLUMNS)
    running = 0.0 if state[S_OVER] > 0.5 else 1.0
    for column in range(COLUMNS):  # selects, not branches: this runs at every step
        top_free = (state[S_MINE + TOP_ROW + column] < 0.5) & (state[S_THEIRS + TOP_ROW + column] < 0.5)
        valid[column] = running if top_free else 0.0
    valid[0] += 1.0 - running  # a finished game offers action 0 alone (the final turn)
    return valid


@njit(cache=True)
def has_four(discs) -> bool:
    """True when the bitboard ``discs`` holds four in a row, column or diagonal."""
    found = 0
    for shift in LINE_SHIFTS:
        pairs = discs & (discs >> shift)
        found |= pairs & (pairs >> 2 * shift)
    return found != 0


@njit(cache=True)
def stepEnv(action, env):
    player = int(env[E_PLAYER])
    row = int(env[E_HEIGHT + action])
    env[E_DISCS + CELLS * player + row * COLUMNS + action] = 1.0
    discs = int(env[E_BITS + player]) | (1 << (action * H + row))
    env[E_BITS + player] = discs
    env[E_HEIGHT + action] = row + 1
    env[E_MOVES] += 1.0
    env[E_PLAYER] = 1 - player
    if has_four(discs):
        env[E_WINNER] = player
    elif env[E_MOVES] >= CELLS:
        env[E_WINNER] = NO_WINNER
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
    for row in range(ROWS):
        for column in range(COLUMNS):
            cell = row * COLUMNS + column
            if state[S_MINE + cell] > 0.5:
                owner = me
            elif state[S_THEIRS + cell] > 0.5:
                owner = 1 - me
            else:
                continue
            env[E_DISCS + CELLS * owner + cell] = 1.0
            env[E_BITS + owner] += 2.0 ** (column * H + row)
            env[E_HEIGHT + column] = row + 1
            env[E_MOVES] += 1.0
    env[E_PLAYER] = me
    if state[S_OVER] > 0.5:
        env[E_WINNER] = me if state[S_WON] > 0.5 else (1 - me if state[S_LOST] > 0.5 else NO_WINNER)
    return env
