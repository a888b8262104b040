"""Hex drawings and words: one SVG per state from its player's view, and text for language models.

``render(state)`` draws the rhombus of hexagons with each player's edges in their colour, which
colour the player has, whose turn it is, the last stone and, at the end, the winning chain. On
the player's turn every empty cell is clickable (``data-action``). ``describe_action`` names a
cell as OpenSpiel does ("d3": column d, row 3), ``describe_state`` writes the board as text.
Python only; the rules live in ``logic.py``.
"""

from __future__ import annotations

import math
from html import escape

import numpy as np

from .logic import (
    MINE,
    NEIGHBOURS,
    NUM_CELLS,
    S_BOARD,
    S_LAST,
    S_MOVES,
    S_MY_TURN,
    S_OVER,
    S_WHITE,
    S_WON,
    SIZE,
    STATE_SIZE,
    THEIRS,
)

RADIUS = 17.0  # centre to corner of a hexagon, in pixels
CELL_W = math.sqrt(3.0) * RADIUS  # width of a hexagon (pointy top)
ROW_H = 1.5 * RADIUS
LEFT, TOP = 40.0, 100.0  # centre of cell a1
WIDTH = int(LEFT + (SIZE - 1) * 1.5 * CELL_W + 2 * CELL_W + 10)
HEIGHT = int(TOP + (SIZE - 1) * ROW_H + 80)
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
GREEN, RED, GREY, INK, BLUE = "#1d8a4e", "#c0392b", "#6b7280", "#1f2430", "#2f6fde"
STONE = {0: ("#26272b", "#000000"), 1: ("#fbfbfb", "#4b5563")}  # fill, outline per colour
EDGE = {0: "#26272b", 1: "#c7ccd4"}
COLOUR_NAMES = ("Black", "White")
GOALS = ("join the top and bottom edges", "join the left and right edges")


def cell_name(cell: int) -> str:
    """OpenSpiel's name of a cell: column letter and row number, e.g. 0 -> "a1", 13 -> "c2"."""
    row, col = divmod(int(cell), SIZE)
    return f"{chr(ord('a') + col)}{row + 1}"


def describe_action(action: int) -> str:
    """What an action means, e.g. 60 -> "Place a stone on f6 (column f, row 6)"."""
    a = int(action)
    if not 0 <= a < NUM_CELLS:
        return f"Unknown action {a}"
    name = cell_name(a)
    return f"Place a stone on {name} (column {name[0]}, row {name[1:]})"


def _check(state) -> np.ndarray:
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"Hex: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    return state


def winning_chain(board: np.ndarray, stone: float, colour: int) -> set[int]:
    """The cells of ``stone``'s groups that touch both of ``colour``'s edges (empty when none do)."""

    def first_edge(cell: int) -> bool:
        return cell // SIZE == 0 if colour == 0 else cell % SIZE == 0

    def second_edge(cell: int) -> bool:
        return cell // SIZE == SIZE - 1 if colour == 0 else cell % SIZE == SIZE - 1

    chain: set[int] = set()
    seen: set[int] = set()
    for start in range(NUM_CELLS):
        if board[start] != stone or start in seen or not first_edge(start):
            continue
        group, todo = {start}, [start]
        while todo:
            cell = todo.pop()
            for other in NEIGHBOURS[cell]:
                if other >= 0 and board[other] == stone and other not in group:
                    group.add(int(other))
                    todo.append(int(other))
        seen |= group
        if any(second_edge(c) for c in group):
            chain |= group
    return chain


def _centre(cell: int) -> tuple[float, float]:
    row, col = divmod(cell, SIZE)
    return LEFT + (col + row / 2.0) * CELL_W, TOP + row * ROW_H


def _hexagon(x: float, y: float, radius: float = RADIUS) -> str:
    return " ".join(
        f"{x + radius * math.cos(math.radians(60 * k - 30)):.1f},{y + radius * math.sin(math.radians(60 * k - 30)):.1f}"
        for k in range(6)
    )


def render(state) -> str:
    """An SVG picture of a Hex state from its player's point of view."""
    state = _check(state)
    me = 1 if state[S_WHITE] == 1.0 else 0
    board = state[S_BOARD : S_BOARD + NUM_CELLS]
    over = state[S_OVER] == 1.0
    my_turn = state[S_MY_TURN] == 1.0 and not over
    if over:
        head, colour = ("You won!", GREEN) if state[S_WON] == 1.0 else ("You lost", RED)
    elif my_turn:
        head, colour = f"Your turn ({COLOUR_NAMES[me]}): click an empty cell", INK
    else:
        head, colour = f"{COLOUR_NAMES[1 - me]} to move: waiting for the opponent", GREY
    chain: set[int] = set()
    if over:
        winner = me if state[S_WON] == 1.0 else 1 - me
        chain = winning_chain(board, MINE if winner == me else THEIRS, winner)
    last = int(state[S_LAST]) - 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="#f8fafc"/>',
        f'<text x="{WIDTH / 2}" y="32" text-anchor="middle" font-size="20" font-weight="bold" '
        f'fill="{colour}" data-prompt="">{escape(head)}</text>',
        f'<text x="{WIDTH / 2}" y="56" text-anchor="middle" font-size="14" fill="{GREY}">'
        f"You play {COLOUR_NAMES[me]}: {GOALS[me]} · stone {int(state[S_MOVES]) + 1}</text>",
    ]
    parts += _edges()
    for cell in range(NUM_CELLS):
        x, y = _centre(cell)
        content = board[cell]
        if content in (MINE, THEIRS):
            owner = me if content == MINE else 1 - me
            fill, stroke = STONE[owner]
            width = 1.5
            if cell in chain:
                stroke, width = GREEN if owner == me else RED, 3.5
            parts.append(
                f'<polygon points="{_hexagon(x, y)}" fill="#e8dcc4" stroke="#8b7355" stroke-width="1"/>'
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{RADIUS * 0.72:.1f}" fill="{fill}" '
                f'stroke="{stroke}" stroke-width="{width}"/>'
            )
            if cell == last:
                dot = "#fbfbfb" if owner == 0 else "#26272b"
                parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{dot}"/>')
        elif my_turn:
            parts.append(
                f'<g data-action="{cell}" cursor="pointer"><title>{cell_name(cell)}</title>'
                f'<polygon points="{_hexagon(x, y)}" fill="#f3ead7" stroke="#8b7355" stroke-width="1"/></g>'
            )
        else:
            parts.append(f'<polygon points="{_hexagon(x, y)}" fill="#f3ead7" stroke="#8b7355" stroke-width="1"/>')
    for i in range(SIZE):  # column letters above, row numbers on the left
        x, y = _centre(i)
        parts.append(
            f'<text x="{x:.1f}" y="{y - RADIUS - 14:.1f}" text-anchor="middle" font-size="12" '
            f'fill="{GREY}">{chr(ord("a") + i)}</text>'
        )
        x, y = _centre(i * SIZE)
        parts.append(
            f'<text x="{x - CELL_W / 2 - 14:.1f}" y="{y + 4:.1f}" text-anchor="middle" font-size="12" '
            f'fill="{GREY}">{i + 1}</text>'
        )
    if last >= 0:
        parts.append(
            f'<text x="{WIDTH / 2}" y="{HEIGHT - 18}" text-anchor="middle" font-size="14" '
            f'fill="{GREY}">Last stone: {cell_name(last)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _edges() -> list[str]:
    """Thick bands along the board: top and bottom Black's, left and right White's."""
    half = RADIUS + 6
    corners = [_centre(0), _centre(SIZE - 1), _centre(NUM_CELLS - 1), _centre(NUM_CELLS - SIZE)]
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = corners  # a1, k1, k11, a11
    lines = [
        (ax - CELL_W / 2, ay - half, bx + CELL_W / 2, by - half, 0),  # top
        (dx - CELL_W / 2, dy + half, cx + CELL_W / 2, cy + half, 0),  # bottom
        (ax - CELL_W / 2 - 4, ay - half + 4, dx - CELL_W / 2 - 4, dy + half - 4, 1),  # left
        (bx + CELL_W / 2 + 4, by - half + 4, cx + CELL_W / 2 + 4, cy + half - 4, 1),  # right
    ]
    return [
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{EDGE[owner]}" '
        f'stroke-width="8" stroke-linecap="round"/>'
        for x1, y1, x2, y2, owner in lines
    ]


def describe_state(state) -> str:
    """The state in words: the board as text rows, whose turn it is, the result."""
    state = _check(state)
    me = 1 if state[S_WHITE] == 1.0 else 0
    board = state[S_BOARD : S_BOARD + NUM_CELLS]
    lines = [
        f"Hex 11x11. You play {COLOUR_NAMES[me]} (X): {GOALS[me]}. Your opponent plays "
        f"{COLOUR_NAMES[1 - me]} (O): {GOALS[1 - me]}.",
        "Board (X yours, O your opponent's, . empty; each row sits half a cell right of the one above,"
        " so a cell touches two cells in the row above and two in the row below):",
        "    " + " ".join(chr(ord("a") + c) for c in range(SIZE)),
    ]
    for row in range(SIZE):
        cells = " ".join(
            "X" if board[row * SIZE + c] == MINE else "O" if board[row * SIZE + c] == THEIRS else "."
            for c in range(SIZE)
        )
        lines.append(f"{row + 1:>3} " + " " * row + cells)
    last = int(state[S_LAST]) - 1
    if 0 <= last < NUM_CELLS:
        lines.append(f"Stones placed: {int(state[S_MOVES])}; the last one on {cell_name(last)}.")
    if state[S_OVER] == 1.0:
        lines.append("Game over: you won." if state[S_WON] == 1.0 else "Game over: you lost.")
    elif state[S_MY_TURN] == 1.0:
        lines.append(
            "Your turn: choose an empty cell. The action for cell <letter><number> is "
            "(number - 1) * 11 + (letter index, a = 0); e.g. f6 is action 60."
        )
    else:
        lines.append("Waiting for your opponent to move.")
    return "\n".join(lines)
