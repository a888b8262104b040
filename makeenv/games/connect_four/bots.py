"""Built-in ConnectFour opponents (levels 1, 2, 3). Level 0 (random) is the framework's.

A bot is an agent like any other: ``bot(state, data) -> (action, data)``, playing from its own
seat's state only.

* Level 1, ``win_block_random``: drops where it connects four, else where the opponent would, else
  in a random column.
* Level 2, ``learned``: level 1's win and block, never a disc right below a cell where the
  opponent would connect four (unless nothing else is left), and among the other columns the one
  a linear policy over the state (``level2_weights.npz``, no hidden layer) scores highest. It was
  trained by ``python -m makeenv.learn.imitate`` to copy ``search_teacher``, level 3's choice (the
  command is in the README); ``network_column`` scores it from the bitboards, visiting the discs
  alone, about as fast as level 1 plays.
* Level 3, ``searcher``: searches ``SEARCH_DEPTH`` moves ahead (negamax with alpha-beta over
  bitboards): wins and forced losses are found exactly, other positions are scored by open threats
  and by how many lines of four pass through each disc. It picks at random among the best moves.
  Its budget: ``SEARCH_DEPTH`` plies beyond its own move, or ``data[0]`` when it is 1 or more.

They read the board as bitboards (the layout of ``logic.py``: bit ``column * 7 + row``), one int64
for the player to move's discs and one for all discs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import FAST_MATH, load_policy_data

from .logic import CELLS, COLUMNS, LINE_SHIFTS, ROWS, S_FIRST, S_MINE, S_MY_TURN, S_OVER, S_THEIRS, STATE_SIZE, H

SEARCH_DEPTH = 7  # plies searched by level 3 beyond its own move (data[0] >= 1 overrides it)
MAX_DEPTH = CELLS  # a deeper budget searches to the end of the game anyway
WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")
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
# the bitboard bit of each state cell (row * 7 + column), as a float: 2 ** (column * 7 + row)
CELL_BIT_VALUE = np.array([2.0 ** (c * H + r) for r in range(ROWS) for c in range(COLUMNS)])
# a lone bit times DE_BRUIJN has a distinct top 6 bits for each of the 64 bits: CELL_OF_BIT[those
# 6 bits] is the state cell of that bitboard bit (-1 for the spare bits above each column)
DE_BRUIJN = 0x03F79D71B4CB0A89
_cell_of_bit = np.full(64, -1, dtype=np.int64)
for _r in range(ROWS):
    for _c in range(COLUMNS):
        _cell_of_bit[((1 << (_c * H + _r)) * DE_BRUIJN >> 58) & 63] = _r * COLUMNS + _c
CELL_OF_BIT = _cell_of_bit


# ---- every level ----------------------------------------------------------------------------------


@njit(cache=True, fastmath=FAST_MATH)
def bitboards(state):
    """(the discs of the player of ``state``, all discs, how many discs) as bitboards.

    A state's cells are exactly 0 or 1, so each bitboard is a sum of distinct powers of two below
    2**48, exact in float64 in any order: two dot products (vectorised) instead of 42 branches.
    """
    mine = 0.0
    theirs = 0.0
    for cell in range(CELLS):
        mine += state[S_MINE + cell] * CELL_BIT_VALUE[cell]
        theirs += state[S_THEIRS + cell] * CELL_BIT_VALUE[cell]
    mine_bits = int(mine)
    mask = mine_bits | int(theirs)
    return mine_bits, mask, popcount(mask)


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


# ---- level 3 --------------------------------------------------------------------------------------


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
def best_columns(values) -> int:
    """The columns of the highest value in ``values`` as a bit mask (bit c for column c)."""
    best = values.max()
    columns = 0
    for column in range(COLUMNS):
        if values[column] == best:
            columns |= 1 << column
    return columns


@njit(cache=True)
def search_depth(data) -> int:
    """Level 3's budget: ``data[0]`` plies beyond its own move when it is 1 or more, else ``SEARCH_DEPTH``."""
    if data.shape[0] > 0 and data[0] >= 1.0:
        return min(int(data[0]), MAX_DEPTH)
    return SEARCH_DEPTH


@njit(cache=True)
def searcher(state, data):
    """Alpha-beta search 8 plies deep (threats and centre lines at the horizon); random among the best.

    ``data[0] >= 1`` sets another depth: that many plies beyond its own move.
    """
    if state[S_OVER] > 0.5:
        return 0, data
    columns = best_columns(move_values(state, search_depth(data)))
    k = int(np.random.random() * popcount(columns))
    for column in range(COLUMNS):
        if columns >> column & 1:
            if k == 0:
                return column, data
            k -= 1
    return random_open_column(bitboards(state)[1]), data


@njit(cache=True)
def search_teacher(state, data):
    """Level 2's teacher: level 3's search, the most central of its best columns (one label a position)."""
    if state[S_OVER] > 0.5:
        return 0, data
    columns = best_columns(move_values(state, search_depth(data)))
    for column in CENTRE_FIRST:
        if columns >> column & 1:
            return column, data
    return random_open_column(bitboards(state)[1]), data


# ---- level 2 --------------------------------------------------------------------------------------


@njit(cache=True, fastmath=FAST_MATH)
def network_column(data, mine, theirs, first, columns) -> int:
    """The column among ``columns`` (a bitboard: any of a column's cells selects it) that the packed
    network ``data`` (``makeenv.learn.policy.pack``, no hidden layer or one) scores highest: the
    scores ``mlp_action`` gives the state of the player to move, with discs ``mine`` and ``theirs``
    (``first``: that player moved first). Only the state's ones are read: the discs (one set bit
    at a time), the turn flag and the first mover's flag. Flat indices, no reshaped views (each
    costs more than the sums here); the hidden units go to the scratch that ``pack`` reserves."""
    n_in = STATE_SIZE  # checked by load_learned_data
    if data[1] == 1.0:
        # no hidden layer: W (columns x inputs), then b; the seven sums side by side, one pass
        w = data[4:].view(np.float32)  # after the header: tag, 1 layer, 89 inputs, 7 outputs
        k = S_MY_TURN
        s0, s1, s2, s3 = w[k], w[n_in + k], w[2 * n_in + k], w[3 * n_in + k]
        s4, s5, s6 = w[4 * n_in + k], w[5 * n_in + k], w[6 * n_in + k]
        if first:
            k = S_FIRST
            s0, s1, s2, s3 = s0 + w[k], s1 + w[n_in + k], s2 + w[2 * n_in + k], s3 + w[3 * n_in + k]
            s4, s5, s6 = s4 + w[4 * n_in + k], s5 + w[5 * n_in + k], s6 + w[6 * n_in + k]
        for owner in range(2):
            discs = mine if owner == 0 else theirs
            offset = S_MINE if owner == 0 else S_THEIRS
            while discs:
                low = discs & -discs
                k = offset + CELL_OF_BIT[(low * DE_BRUIJN >> 58) & 63]
                s0 += w[k]
                s1 += w[n_in + k]
                s2 += w[2 * n_in + k]
                s3 += w[3 * n_in + k]
                s4 += w[4 * n_in + k]
                s5 += w[5 * n_in + k]
                s6 += w[6 * n_in + k]
                discs ^= low
        scores = (s0, s1, s2, s3, s4, s5, s6)
        bias = COLUMNS * n_in
        best, best_score = -1, np.float32(0.0)
        for column in range(COLUMNS):
            total = scores[column] + w[bias + column]
            if columns & (COLUMN << column * H) and (best < 0 or total > best_score):
                best, best_score = column, total
        return best
    # one hidden layer: W1 (inputs x hidden), b1, W2 (columns x hidden), b2, then the scratch
    w = data[5:].view(np.float32)  # after the header: tag, 2 layers, 89 inputs, hidden units, 7
    n_hidden = int(data[3])
    w1 = w[: n_in * n_hidden]
    b1 = w[n_in * n_hidden : n_in * n_hidden + n_hidden]
    w2 = w[n_in * n_hidden + n_hidden : n_in * n_hidden + n_hidden + COLUMNS * n_hidden]
    b2 = n_in * n_hidden + n_hidden + COLUMNS * n_hidden
    hidden = w[b2 + COLUMNS : b2 + COLUMNS + n_hidden]  # slices: one array each, so the sums vectorise
    for o in range(n_hidden):
        hidden[o] = b1[o] + w1[S_MY_TURN * n_hidden + o]
    if first:
        for o in range(n_hidden):
            hidden[o] += w1[S_FIRST * n_hidden + o]
    for owner in range(2):
        discs = mine if owner == 0 else theirs
        offset = S_MINE if owner == 0 else S_THEIRS
        while discs:
            low = discs & -discs
            row = (offset + CELL_OF_BIT[(low * DE_BRUIJN >> 58) & 63]) * n_hidden
            for o in range(n_hidden):
                hidden[o] += w1[row + o]
            discs ^= low
    for o in range(n_hidden):
        hidden[o] = max(hidden[o], np.float32(0.0))
    best, best_score = -1, np.float32(0.0)
    for column in range(COLUMNS):
        if columns & (COLUMN << column * H):
            total = w[b2 + column]
            for o in range(n_hidden):
                total += w2[column * n_hidden + o] * hidden[o]
            if best < 0 or total > best_score:
                best, best_score = column, total
    return best


@njit(cache=True)
def learned_column(state, data) -> int:
    """Level 2's choice: level 1's win or block, else the network's best column among those that do
    not put a disc right below a cell where the opponent connects four (any column when all do)."""
    mine, mask, _ = bitboards(state)
    playable = (mask + BOTTOM) & BOARD
    win = winning_cells(mine, mask) & playable
    if win:
        return first_column(win)
    theirs = winning_cells(mine ^ mask, mask)
    if theirs & playable:
        return first_column(theirs & playable)
    safe = playable & ~(theirs >> 1)
    if safe == 0:
        safe = playable
    return network_column(data, mine, mine ^ mask, state[S_FIRST] > 0.5, safe)


@njit(cache=True)
def learned(state, data):
    """Learned: wins and blocks like level 1, else a linear policy trained to copy the search's moves."""
    if state[S_OVER] > 0.5:
        return 0, data
    return learned_column(state, data), data


def load_learned_data(path: Path | str = WEIGHTS_FILE) -> np.ndarray:
    """Level 2's data: the network of a weights file written by ``makeenv.learn.imitate`` for
    ConnectFour, packed (``makeenv.learn.policy.pack``); at most one hidden layer."""
    data = load_policy_data(path, STATE_SIZE, COLUMNS)
    if data[1] > 2:
        raise ValueError(
            f"{path}: a network of {int(data[1]) - 1} hidden layers; level 2 plays one with none or one "
            "(python -m makeenv.learn.imitate ConnectFour --hidden 16, say)"
        )
    return data


LEVELS: dict[int, Any] = {1: win_block_random, 3: searcher}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=load_learned_data())
LEVELS = dict(sorted(LEVELS.items()))
