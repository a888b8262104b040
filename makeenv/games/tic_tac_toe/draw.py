"""TicTacToe drawings and words: one SVG per state from its player's view, and text for language models.

``render(state)`` shows the board with the player's own marks in blue, whose turn it is and the
result (the winning line struck through); each empty cell is clickable (``data-action``) on the
player's turn. ``describe_action`` names a cell, ``describe_state`` writes the board as text.
Python only; the rules live in ``logic.py``.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import CELLS, S_FIRST, S_LOST, S_MINE, S_MY_TURN, S_OVER, S_THEIRS, S_WON, SIZE, STATE_SIZE

WIDTH, HEIGHT = 420, 480
CELL = 110  # cell side in pixels
LEFT, TOP = 45, 95  # the board's top-left corner
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
BLUE, ORANGE = "#2f6fde", "#e07a1f"
GREEN, RED, AMBER, GREY, INK = "#1d8a4e", "#c0392b", "#9a7412", "#6b7280", "#1f2430"
ROW_NAMES = ("top", "middle", "bottom")
COL_NAMES = ("left", "centre", "right")
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def cell_name(cell: int) -> str:
    """ "top left", "centre", ... for cells 0..8."""
    row, col = divmod(cell, SIZE)
    if row == 1 and col == 1:
        return "centre"
    if row == 1:
        return f"middle {COL_NAMES[col]}"
    if col == 1:
        return f"{ROW_NAMES[row]} centre"
    return f"{ROW_NAMES[row]} {COL_NAMES[col]}"


def describe_action(action: int) -> str:
    """What an action means, e.g. 4 -> "Mark row 2, column 2 (centre)"."""
    a = int(action)
    if not 0 <= a < CELLS:
        return f"Unknown action {a}"
    row, col = divmod(a, SIZE)
    return f"Mark row {row + 1}, column {col + 1} ({cell_name(a)})"


def _board(state: np.ndarray) -> list[int]:
    """Cells as 1 (mine), 2 (the opponent's) or 0 (empty)."""
    return [1 if state[S_MINE + c] > 0.5 else 2 if state[S_THEIRS + c] > 0.5 else 0 for c in range(CELLS)]


def _winning_line(board: list[int]) -> tuple[int, int, int] | None:
    for line in LINES:
        if board[line[0]] and board[line[0]] == board[line[1]] == board[line[2]]:
            return line
    return None


def _checked(state) -> np.ndarray:
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"TicTacToe: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    return state


def _status(state: np.ndarray) -> tuple[str, str]:
    """The headline and its colour."""
    if state[S_OVER] > 0.5:
        if state[S_WON] > 0.5:
            return "You won!", GREEN
        if state[S_LOST] > 0.5:
            return "You lost", RED
        return "Draw: the board is full", AMBER
    if state[S_MY_TURN] > 0.5:
        return "Your turn: click an empty cell", INK
    return "Opponent's turn", GREY


def _mark(symbol: str, cx: float, cy: float, colour: str) -> str:
    r = CELL * 0.3
    if symbol == "X":
        return (
            f'<path d="M{cx - r} {cy - r} L{cx + r} {cy + r} M{cx + r} {cy - r} L{cx - r} {cy + r}" '
            f'stroke="{colour}" stroke-width="12" stroke-linecap="round"/>'
        )
    return f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="none" stroke="{colour}" stroke-width="11"/>'


def render(state) -> str:
    """An SVG picture of a TicTacToe state from its player's point of view."""
    state = _checked(state)
    board = _board(state)
    my_symbol, their_symbol = ("X", "O") if state[S_FIRST] > 0.5 else ("O", "X")
    head, head_colour = _status(state)
    playable = state[S_MY_TURN] > 0.5 and state[S_OVER] < 0.5
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="#f8fafc"/>',
        f'<text x="{WIDTH / 2}" y="36" text-anchor="middle" font-size="22" font-weight="bold" '
        f'fill="{head_colour}" data-prompt="">{escape(head)}</text>',
        f'<text x="{WIDTH / 2}" y="66" text-anchor="middle" font-size="15" fill="{GREY}">'
        f'You play <tspan fill="{BLUE}" font-weight="bold">{my_symbol}</tspan>, the opponent '
        f'<tspan fill="{ORANGE}" font-weight="bold">{their_symbol}</tspan> · X moves first</text>',
    ]
    for cell in range(CELLS):
        row, col = divmod(cell, SIZE)
        x, y = LEFT + col * CELL, TOP + row * CELL
        attrs = ""
        if playable and board[cell] == 0:
            attrs = f' data-action="{cell}" style="cursor:pointer"'
        parts.append(
            f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#ffffff" '
            f'stroke="#cbd5e1" stroke-width="2"{attrs}><title>{escape(describe_action(cell))}</title></rect>'
        )
        if board[cell]:
            symbol, colour = (my_symbol, BLUE) if board[cell] == 1 else (their_symbol, ORANGE)
            parts.append(_mark(symbol, x + CELL / 2, y + CELL / 2, colour))
    line = _winning_line(board) if state[S_OVER] > 0.5 else None
    if line is not None:
        (r0, c0), (r1, c1) = divmod(line[0], SIZE), divmod(line[2], SIZE)
        colour = GREEN if board[line[0]] == 1 else RED
        parts.append(
            f'<line x1="{LEFT + (c0 + 0.5) * CELL}" y1="{TOP + (r0 + 0.5) * CELL}" '
            f'x2="{LEFT + (c1 + 0.5) * CELL}" y2="{TOP + (r1 + 0.5) * CELL}" stroke="{colour}" '
            'stroke-width="9" stroke-linecap="round" opacity="0.8"/>'
        )
    parts.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{SIZE * CELL}" height="{SIZE * CELL}" fill="none" '
        f'stroke="{INK}" stroke-width="3" rx="4"/>'
    )
    parts.append("</svg>")
    return "".join(parts)


def describe_state(state) -> str:
    """The state in words for a language-model player: who you are, the board and what to do."""
    state = _checked(state)
    board = _board(state)
    my_symbol, their_symbol = ("X", "O") if state[S_FIRST] > 0.5 else ("O", "X")
    symbols = (".", my_symbol, their_symbol)
    first = "you moved first" if my_symbol == "X" else "your opponent moved first"
    lines = [
        f"TicTacToe. You play {my_symbol}, your opponent plays {their_symbol} ({first}).",
        "Board (rows 1-3 from the top, columns 1-3 from the left; . is empty):",
    ]
    for row in range(SIZE):
        lines.append(f"  row {row + 1}:  " + " ".join(symbols[board[row * SIZE + col]] for col in range(SIZE)))
    if state[S_OVER] > 0.5:
        result = "you won" if state[S_WON] > 0.5 else "you lost" if state[S_LOST] > 0.5 else "a draw, the board is full"
        lines.append(f"Game over: {result}.")
    elif state[S_MY_TURN] > 0.5:
        empty = [describe_action(c).removeprefix("Mark ") for c in range(CELLS) if board[c] == 0]
        lines.append("It is your turn. Empty cells: " + "; ".join(empty) + ".")
    else:
        lines.append("It is your opponent's turn.")
    return "\n".join(lines)
