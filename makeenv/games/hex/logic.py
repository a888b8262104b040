"""Hex: the rules, as numba functions over flat float64 arrays.

An 11x11 rhombus of hexagonal cells. Black (player 0) moves first and owns the top and bottom
edges; White (player 1) owns the left and right edges. On a turn a player puts a stone of their
colour on any empty cell. The first player to join their two edges with a chain of adjacent
stones of their colour wins. A full board always holds exactly one such chain, so there are no
draws. There is no swap rule (OpenSpiel's default).

Cells are numbered as in OpenSpiel: ``cell = row * 11 + col``, row 0 on top (Black's first edge),
col 0 on the left (White's first edge); the action is the cell. Cell (r, c) touches (r-1, c),
(r-1, c+1), (r, c-1), (r, c+1), (r+1, c-1) and (r+1, c): each row is drawn half a cell to the
right of the row above.

Who has won is kept up to date with a union-find over the stones and four edge nodes, stored
in the env: a stone joins the groups of its neighbours of the same colour (and its edges), and a
player wins when their two edges fall into one group.

The array layouts are documented in this folder's README.md (and beside the constants below).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---- board and actions -----------------------------------------------------------------------
SIZE = 11
NUM_CELLS = SIZE * SIZE  # 121: also the number of actions
NUM_PLAYERS = 2
BLACK, WHITE = 0, 1  # players; Black moves first and joins top to bottom
EMPTY, BLACK_STONE, WHITE_STONE = 0.0, 1.0, 2.0  # env board values (absolute colours)
MINE, THEIRS = 1.0, 2.0  # state board values (relative to the player who sees it)
# union-find nodes beyond the cells: the four edges
TOP, BOTTOM, LEFT, RIGHT = NUM_CELLS, NUM_CELLS + 1, NUM_CELLS + 2, NUM_CELLS + 3
NUM_NODES = NUM_CELLS + 4


def _neighbour_table() -> np.ndarray:
    """NEIGHBOURS[cell]: the up to six adjacent cells, padded with -1."""
    table = np.full((NUM_CELLS, 6), -1, dtype=np.int64)
    for row in range(SIZE):
        for col in range(SIZE):
            found = 0
            for dr, dc in ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0)):
                r, c = row + dr, col + dc
                if 0 <= r < SIZE and 0 <= c < SIZE:
                    table[row * SIZE + col, found] = r * SIZE + c
                    found += 1
    return table


NEIGHBOURS = _neighbour_table()

# ---- env: the referee's view (length ENV_SIZE) -----------------------------------------------
E_BOARD = 0  # 0..120: EMPTY, BLACK_STONE or WHITE_STONE on each cell
E_PARENT = NUM_CELLS  # 121..245: union-find parent of each cell and edge node
E_PLAYER = E_PARENT + NUM_NODES  # 246: player to move, 0 Black, 1 White
E_WINNER = E_PLAYER + 1  # 247: -1 running, 0 or 1 the winner (what checkEnded returns)
E_MOVES = E_PLAYER + 2  # 248: stones placed so far
E_LAST = E_PLAYER + 3  # 249: the last cell played, -1 before the first move
ENV_SIZE = E_PLAYER + 4  # 250

# ---- state: one player's view (length STATE_SIZE); every value is 0, 1, 2 or a count ---------
S_BOARD = 0  # 0..120: 0 empty, 1 my stone, 2 opponent's stone
S_WHITE = NUM_CELLS  # 121: 1 when I play White (left-right), 0 Black (top-bottom)
S_MY_TURN = S_WHITE + 1  # 122: 1 while the game runs and it is my turn
S_OVER = S_WHITE + 2  # 123: 1 when the game is over
S_WON = S_WHITE + 3  # 124: 1 when I won
S_LOST = S_WHITE + 4  # 125: 1 when my opponent won
S_MOVES = S_WHITE + 5  # 126: stones placed so far
S_LAST = S_WHITE + 6  # 127: the last cell played + 1 (0 before the first move)
STATE_SIZE = S_WHITE + 7  # 128


@njit(cache=True)
def getActionSize() -> int:
    return NUM_CELLS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    return NUM_PLAYERS


@njit(cache=True)
def initEnv():
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    for node in range(NUM_NODES):
        env[E_PARENT + node] = node
    env[E_WINNER] = -1.0
    env[E_LAST] = -1.0
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_PLAYER])


# ---- union-find over env[E_PARENT:] -----------------------------------------------------------
# The functions take the array and the offset of the parents in it (``start``), not a slice: a
# slice costs two atomic reference counts, and these run at every move.


@njit(cache=True, inline="always")
def find(parent, node, start=0):
    """The group (root node) of ``node`` (parents at ``parent[start + node]``), halving the path."""
    while parent[start + node] != node:
        grand = int(parent[start + int(parent[start + node])])
        parent[start + node] = grand
        node = grand
    return node


@njit(cache=True, inline="always")
def union(parent, a, b, start=0):
    """Join the groups of nodes ``a`` and ``b`` (an edge node stays the root of its group)."""
    ra, rb = find(parent, a, start), find(parent, b, start)
    if ra == rb:
        return
    if ra >= NUM_CELLS:
        parent[start + rb] = ra
    else:
        parent[start + ra] = rb


@njit(cache=True)
def place_stone(env, cell, player) -> bool:
    """Put ``player``'s stone on the empty ``cell`` and join its groups; True when it wins."""
    stone = BLACK_STONE if player == BLACK else WHITE_STONE
    env[E_BOARD + cell] = stone
    row, col = cell // SIZE, cell % SIZE
    if player == BLACK:
        if row == 0:
            union(env, cell, TOP, E_PARENT)
        elif row == SIZE - 1:
            union(env, cell, BOTTOM, E_PARENT)
    else:
        if col == 0:
            union(env, cell, LEFT, E_PARENT)
        elif col == SIZE - 1:
            union(env, cell, RIGHT, E_PARENT)
    for k in range(6):
        other = NEIGHBOURS[cell, k]
        if other < 0:
            break
        if env[E_BOARD + other] == stone:
            union(env, cell, other, E_PARENT)
    if player == BLACK:
        return find(env, TOP, E_PARENT) == find(env, BOTTOM, E_PARENT)
    return find(env, LEFT, E_PARENT) == find(env, RIGHT, E_PARENT)


# getPlayerState, getAgentState and getValidActions, which return new arrays at every step, are
# inlined into their callers (the runner, an agent): a call of their own costs a game 9-15%
@njit(cache=True, inline="always")
def getPlayerState(env, player):
    state = np.empty(STATE_SIZE, dtype=np.float64)  # every value is written below
    if player == BLACK:  # Black's stones are mine: the board as it is
        for cell in range(NUM_CELLS):
            state[S_BOARD + cell] = env[E_BOARD + cell]
    else:  # swap the colours: 1 <-> 2, 0 stays 0 (no branch per cell)
        for cell in range(NUM_CELLS):
            stone = env[E_BOARD + cell]
            state[S_BOARD + cell] = (3.0 - stone) * (stone != EMPTY)
    winner = int(env[E_WINNER])
    state[S_WHITE] = player
    state[S_MY_TURN] = winner < 0 and int(env[E_PLAYER]) == player
    state[S_OVER] = winner >= 0
    state[S_WON] = winner == player
    state[S_LOST] = winner == 1 - player
    state[S_MOVES] = env[E_MOVES]
    state[S_LAST] = env[E_LAST] + 1.0
    return state


@njit(cache=True, inline="always")
def getAgentState(env):
    return getPlayerState(env, int(env[E_PLAYER]))


@njit(cache=True)
def isValidAction(state, action) -> bool:
    """``getValidActions(state)[action] == 1`` without building the vector."""
    if action < 0 or action >= NUM_CELLS:
        return False
    if state[S_OVER] == 1.0:
        return action == 0  # a finished game offers action 0 alone (the final turn)
    if not (state[S_MY_TURN] == 1.0 and state[S_OVER] == 0.0):
        return False
    return state[S_BOARD + action] == EMPTY


@njit(cache=True, inline="always")
def getValidActions(state):
    valid = np.empty(NUM_CELLS, dtype=np.float64)
    if state[S_MY_TURN] == 1.0 and state[S_OVER] == 0.0:
        for cell in range(NUM_CELLS):
            valid[cell] = state[S_BOARD + cell] == EMPTY
    else:
        for cell in range(NUM_CELLS):
            valid[cell] = 0.0
        valid[0] = state[S_OVER] == 1.0  # a finished game offers action 0 alone (the final turn)
    return valid


@njit(cache=True)
def stepEnv(action, env):
    """Play ``action`` (a cell) for the player to move (an illegal action leaves env unchanged)."""
    if action < 0 or action >= NUM_CELLS or env[E_WINNER] >= 0.0 or env[E_BOARD + action] != EMPTY:
        return env
    player = int(env[E_PLAYER])
    if place_stone(env, action, player):
        env[E_WINNER] = player
    env[E_PLAYER] = 1 - player
    env[E_MOVES] += 1.0
    env[E_LAST] = action
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_WINNER])


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] == 1.0:
        return -1
    if state[S_WON] == 1.0:
        return 1
    return 0


@njit(cache=True)
def sampleEnv(state):
    """The exact env behind ``state`` (perfect information), with that player to move."""
    env = initEnv()
    player = WHITE if state[S_WHITE] == 1.0 else BLACK
    for cell in range(NUM_CELLS):
        if state[S_BOARD + cell] == MINE:
            place_stone(env, cell, player)
        elif state[S_BOARD + cell] == THEIRS:
            place_stone(env, cell, 1 - player)
    if state[S_MY_TURN] == 1.0 or state[S_OVER] == 1.0:
        env[E_PLAYER] = player
    else:
        env[E_PLAYER] = 1 - player
    if state[S_OVER] == 1.0:
        env[E_WINNER] = player if state[S_WON] == 1.0 else 1 - player
    env[E_MOVES] = state[S_MOVES]
    env[E_LAST] = state[S_LAST] - 1.0
    return env
