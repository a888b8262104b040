"""Built-in ConnectFour opponents (levels 1, 2). Level 0 (random) is the framework's.

A bot is an agent like any other: ``bot(state, data) -> (action, data)``, playing from its own
seat's state only.

* Level 1 drops where it connects four, else where the opponent would, else in a random column.
* Level 2 searches ``SEARCH_DEPTH`` moves ahead (negamax with alpha-beta over bitboards): wins
  and forced losses are found exactly, other positions are scored by open threats and by how
  many lines of four pass through each disc. It picks at random among the best moves.

Both read the board as bitboards (the layout of ``logic.py``: bit ``column * 7 + row``), one
int64 for the player to move's discs and one for all discs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import CELLS, COLUMNS, LINE_SHIFTS, ROWS, S_MINE, S_OVER, S_THEIRS, H

SEARCH_DEPTH = 7  # plies searched by level 2 beyond its own move
WIN = 10_000  # a win on the k-th disc of the game scores WIN - k (the sooner the better)

BOTTOM = 0  # the bottom cell of every column
for _c in range(COLUMNS):
    BOTTOM |= 1 << (_c * H)
BOARD = BOTTOM * ((1 << ROWS) - 1)  # every cell of the board
COLUMN = (1 << ROWS) - 1  # the cells of column 0 (column c: COLUMN << c * H)
CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)  # move order: central columns first

# how many lines of four pass through each cell, split into bit planes so a bitboard's total
# weight is a few popcounts: weight = sum over b of 2**b * popcount(discs & WEIGHT_PLANES[b])
_LINES_THROUGH = (
    (3, 4, 5, 7, 5, 4, 3),
    (4, 6, 8, 10, 8, 6, 4),
    (5, 8, 11, 13, 11, 8, 5),
    (5, 8, 11, 13, 11, 8, 5),
    (4, 6, 8, 10, 8, 6, 4),
    (3, 4, 5, 7, 5, 4, 3),
)
_planes = [0, 0, 0, 0]
for _r in range(ROWS):
    for _c in range(COLUMNS):
        for _b in range(4):
            if _LINES_THROUGH[_r][_c] >> _b & 1:
                _planes[_b] |= 1 << (_c * H + _r)
WEIGHT_PLANES = tuple(_planes)
THREAT_VALUE = 16  # score of an open cell that would complete a player's four


# ---- both levels ----------------------------------------------------------------------------------


@njit(cache=True)
def bitboards(state):
    """(the discs of the player of ``state``, all discs, how many discs) as bitboards."""
    mine = 0
    mask = 0
    for row in range(ROWS):
        for column in range(COLUMNS):
            bit = 1 << (column * H + row)
            if state[S_MINE + row * COLUMNS + column] > 0.5:
                mine |= bit
                mask |= bit
            elif state[S_THEIRS + row * COLUMNS + column] > 0.5:
                mask |= bit
    return mine, mask, popcount(mask)


@njit(cache=True)
def popcount(x) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56


@njit(cache=True)
def winning_cells(discs, mask):
    """The empty cells where one more disc of ``discs`` would make four (reachable now or not)."""
    cells = 0
    for shift in LINE_SHIFTS:
        # three of four cells of a line, the empty one last, first, or second / third
        pair = (discs << shift) & (discs << 2 * shift)
        cells |= pair & (discs << 3 * shift)
        cells |= pair & (discs >> shift)
        pair = (discs >> shift) & (discs >> 2 * shift)
        cells |= pair & (discs << shift)
        cells |= pair & (discs >> 3 * shift)
    return cells & (BOARD ^ mask)


@njit(cache=True)
def first_column(cells) -> int:
    """The leftmost column holding one of ``cells`` (-1 for none)."""
    for column in range(COLUMNS):
        if cells & (COLUMN << column * H):
            return column
    return -1


# ---- level 1 --------------------------------------------------------------------------------------


@njit(cache=True)
def random_open_column(mask) -> int:
    """A uniformly random column that is not full, given all discs ``mask`` (-1 when none is)."""
    playable = (mask + BOTTOM) & BOARD
    k = int(np.random.random() * popcount(playable))
    for column in range(COLUMNS):
        if playable & (COLUMN << column * H):
            if k == 0:
                return column
            k -= 1
    return -1


@njit(cache=True)
def win_block_random(state, data):
    """Win, block, random: connects four when it can, else blocks the opponent's four, else random."""
    if state[S_OVER] > 0.5:
        return 0, data
    mine, mask, _ = bitboards(state)
    playable = (mask + BOTTOM) & BOARD
    win = winning_cells(mine, mask) & playable
    if win:
        return first_column(win), data
    block = winning_cells(mine ^ mask, mask) & playable
    if block:
        return first_column(block), data
    return random_open_column(mask), data


# ---- level 2 --------------------------------------------------------------------------------------


@njit(cache=True)
def weight(discs) -> int:
    total = 0
    for b in range(4):
        total += popcount(discs & WEIGHT_PLANES[b]) << b
    return total


@njit(cache=True)
def evaluate(mine, mask) -> int:
    """Heuristic score of a quiet position for the player to move (``mine``: its discs)."""
    theirs = mine ^ mask
    threats = popcount(winning_cells(mine, mask)) - popcount(winning_cells(theirs, mask))
    return THREAT_VALUE * threats + weight(mine) - weight(theirs)


@njit(cache=True)
def open_node(mine, mask, moves, depth):
    """Look at a position before searching it: (True, value, 0) when its value is known without
    searching (a win now, a full board, a forced loss, or the search horizon), else (False, 0,
    the cells worth playing). ``mine``: the discs of the player to move, ``mask``: all discs,
    ``moves``: discs on the board, ``depth``: plies left to search."""
    playable = (mask + BOTTOM) & BOARD
    if winning_cells(mine, mask) & playable:
        return True, WIN - moves - 1, 0
    if moves + 1 >= CELLS:  # my move fills the board without a four
        return True, 0, 0
    their_wins = winning_cells(mine ^ mask, mask)
    forced = their_wins & playable
    if forced:
        if forced & (forced - 1):  # two open threats: one of them wins next move
            return True, -(WIN - moves - 2), 0
        playable = forced
    playable &= ~(their_wins >> 1)  # never play right below the opponent's winning cell
    if playable == 0:
        return True, -(WIN - moves - 2), 0
    if depth == 0:
        return True, evaluate(mine, mask), 0
    return False, 0, playable


@njit(cache=True)
def negamax(mine, mask, moves, depth, alpha, beta) -> int:
    """Alpha-beta value of a position for the player to move, searching ``depth`` plies: exact
    when it lies strictly between ``alpha`` and ``beta``, else a bound on that side. Iterative,
    with one stack entry per ply (numba's cache cannot hold recursive functions)."""
    leaf, value, playable = open_node(mine, mask, moves, depth)
    if leaf:
        return value
    s_mine = np.empty(depth + 1, dtype=np.int64)
    s_mask = np.empty(depth + 1, dtype=np.int64)
    s_alpha = np.empty(depth + 1, dtype=np.int64)
    s_beta = np.empty(depth + 1, dtype=np.int64)
    s_playable = np.empty(depth + 1, dtype=np.int64)
    s_next = np.zeros(depth + 1, dtype=np.int64)  # next index into CENTRE_FIRST
    s_mine[0], s_mask[0], s_alpha[0], s_beta[0], s_playable[0] = mine, mask, alpha, beta, playable
    ply = 0
    while True:
        # the next move of the node at `ply`, central columns first
        move = 0
        while move == 0 and s_next[ply] < COLUMNS:
            column = CENTRE_FIRST[s_next[ply]]
            move = s_playable[ply] & (COLUMN << column * H)
            s_next[ply] += 1
        if move == 0:
            result = s_alpha[ply]  # every move searched
        else:
            child_mine = s_mine[ply] ^ s_mask[ply]
            child_mask = s_mask[ply] | move
            leaf, value, playable = open_node(child_mine, child_mask, moves + ply + 1, depth - ply - 1)
            if not leaf:  # search the child: push it
                ply += 1
                s_mine[ply], s_mask[ply], s_playable[ply], s_next[ply] = child_mine, child_mask, playable, 0
                s_alpha[ply], s_beta[ply] = -s_beta[ply - 1], -s_alpha[ply - 1]
                continue
            if -value < s_beta[ply]:
                s_alpha[ply] = max(s_alpha[ply], -value)
                continue
            result = -value  # beta cut-off
        # the node at `ply` is done with value `result`: hand it to its parents
        while True:
            if ply == 0:
                return result
            ply -= 1
            if -result < s_beta[ply]:
                s_alpha[ply] = max(s_alpha[ply], -result)
                break
            result = -result  # beta cut-off: the parent is done too


@njit(cache=True)
def move_values(state, depth):
    """Each column's search value for the player of ``state`` (-2 * WIN for a full column): exact
    for the best columns, an upper bound below the best for the others."""
    mine, mask, moves = bitboards(state)
    values = np.full(COLUMNS, -2 * WIN, dtype=np.int64)
    best = -2 * WIN
    for column in CENTRE_FIRST:
        move = (mask + BOTTOM) & BOARD & (COLUMN << column * H)
        if move == 0:
            continue
        if winning_cells(mine, mask) & move:
            value = WIN - moves - 1
        elif moves + 1 >= CELLS:
            value = 0
        else:
            # window (best - 1, WIN): a column as good as the best so far gets its exact value
            value = -negamax(mine ^ mask, mask | move, moves + 1, depth, -2 * WIN, -(best - 1))
        values[column] = value
        if value > best:
            best = value
    return values


@njit(cache=True)
def searcher(state, data):
    """Alpha-beta search 8 plies deep (threats and centre lines at the horizon); random among the best."""
    if state[S_OVER] > 0.5:
        return 0, data
    values = move_values(state, SEARCH_DEPTH)
    best = values.max()
    count = 0
    for column in range(COLUMNS):
        count += values[column] == best
    k = int(np.random.random() * count)
    for column in range(COLUMNS):
        if values[column] == best:
            if k == 0:
                return column, data
            k -= 1
    return random_open_column(bitboards(state)[1]), data


LEVELS = {1: win_block_random, 2: searcher}
