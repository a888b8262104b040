"""Built-in TicTacToe opponents (levels 1, 2). Level 0 (random) is the framework's.

A bot is an agent like any other: ``bot(state, data) -> (action, data)``, playing from its own
seat's state only.

* Level 1 completes its own line when it can, else blocks the opponent's, else plays at random.
* Level 2 plays perfectly: it looks its moves up in a table of every board's minimax value
  (solved once, at import) and picks at random among the best (a win as soon as possible, a
  loss as late as possible). It never loses.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import CELLS, S_MINE, S_OVER, S_THEIRS, has_line

WIN = 10  # the value of a win with no moves left to play; a win k moves later is worth WIN - k


@njit(cache=True)
def random_empty_cell(state) -> int:
    """A uniformly random empty cell (-1 when the board is full)."""
    count = 0
    for cell in range(CELLS):
        if not (state[S_MINE + cell] > 0.5 or state[S_THEIRS + cell] > 0.5):
            count += 1
    if count == 0:
        return -1
    k = int(np.random.random() * count)
    for cell in range(CELLS):
        if not (state[S_MINE + cell] > 0.5 or state[S_THEIRS + cell] > 0.5):
            if k == 0:
                return cell
            k -= 1
    return -1


@njit(cache=True)
def marks_of(state, plane) -> int:
    """The plane ``state[plane: plane + 9]`` as a bitboard (bit k = cell k)."""
    marks = 0
    for cell in range(CELLS):
        if state[plane + cell] > 0.5:
            marks |= 1 << cell
    return marks


@njit(cache=True)
def win_block_random(state, data):
    """Win, block, random: completes its own line, else blocks the opponent's, else plays at random."""
    if state[S_OVER] > 0.5:
        return 0, data
    mine, theirs = marks_of(state, S_MINE), marks_of(state, S_THEIRS)
    for marks in (mine, theirs):
        for cell in range(CELLS):
            if not (mine | theirs) >> cell & 1 and has_line(marks | 1 << cell):
                return cell, data
    return random_empty_cell(state), data


POWERS = tuple(3**cell for cell in range(CELLS))  # board index = sum of cell value * 3**cell


@njit(cache=True)
def solve_all_boards():
    """The minimax value of every board for the player to move, by board index (cells: 0 empty,
    1 X, 2 O): WIN - k when the player to move can force a win on the game's k-th mark, -(WIN - k)
    when the opponent can, 0 for a draw. Children have larger indices than their parent, so one
    pass from the last index down sees every child before its parent (no recursion)."""
    values = np.zeros(3**CELLS, dtype=np.int8)
    for index in range(3**CELLS - 1, -1, -1):
        rest, x_marks, o_marks, x_count, o_count = index, 0, 0, 0, 0  # X's and O's bitboards
        for cell in range(CELLS):
            if rest % 3 == 1:
                x_marks |= 1 << cell
                x_count += 1
            elif rest % 3 == 2:
                o_marks |= 1 << cell
                o_count += 1
            rest //= 3
        if not (x_count == o_count or x_count == o_count + 1):
            continue  # not a position of the game
        marks = x_count + o_count
        mover = 1 if x_count == o_count else 2
        if has_line(o_marks if mover == 1 else x_marks):  # the previous mover has won
            values[index] = -(WIN - marks)
        elif marks < CELLS:
            best = -WIN
            for cell in range(CELLS):
                if not (x_marks | o_marks) >> cell & 1:
                    best = max(best, -values[index + mover * POWERS[cell]])
            values[index] = best
    return values


BOARD_VALUES = solve_all_boards()  # a constant of the compiled bot: 3**9 int8 values


@njit(cache=True)
def best_moves(state):
    """0/1 vector over the 9 cells: the moves with the best minimax value for the player of ``state``
    (the moves the perfect bot chooses among)."""
    index, mine, theirs = 0, 0, 0
    for cell in range(CELLS):
        mine += state[S_MINE + cell] > 0.5
        theirs += state[S_THEIRS + cell] > 0.5
    me, opponent = (1, 2) if mine == theirs else (2, 1)  # X moves when the counts are equal
    for cell in range(CELLS):
        if state[S_MINE + cell] > 0.5:
            index += me * POWERS[cell]
        elif state[S_THEIRS + cell] > 0.5:
            index += opponent * POWERS[cell]
    best = -WIN - 1
    for cell in range(CELLS):
        if not (state[S_MINE + cell] > 0.5 or state[S_THEIRS + cell] > 0.5):
            best = max(best, -BOARD_VALUES[index + me * POWERS[cell]])
    chosen = np.zeros(CELLS, dtype=np.float64)
    for cell in range(CELLS):
        if not (state[S_MINE + cell] > 0.5 or state[S_THEIRS + cell] > 0.5):
            if -BOARD_VALUES[index + me * POWERS[cell]] == best:
                chosen[cell] = 1.0
    return chosen


@njit(cache=True)
def perfect(state, data):
    """Perfect play: a random one of the moves with the best minimax value; never loses."""
    if state[S_OVER] > 0.5:
        return 0, data
    chosen = best_moves(state)
    count = 0
    for cell in range(CELLS):
        count += chosen[cell] > 0.5
    if count == 0:
        return random_empty_cell(state), data
    k = int(np.random.random() * count)
    for cell in range(CELLS):
        if chosen[cell] > 0.5:
            if k == 0:
                return cell, data
            k -= 1
    return random_empty_cell(state), data


LEVELS = {1: win_block_random, 2: perfect}
