"""ConnectFour drawings and words: one SVG per state from its player's view, and text for language models.

``render(state)`` shows the board with the player's own discs in blue, whose turn it is and the
result (the winning four ringed); each column that is not full is clickable (``data-action``) on
the player's turn. ``describe_action`` names a column, ``describe_state`` writes the board as
text. Python only; the rules live in ``logic.py``.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import COLUMNS, ROWS, S_FIRST, S_LOST, S_MINE, S_MY_TURN, S_OVER, S_THEIRS, S_WON, STATE_SIZE

CELL = 64  # cell side in pixels
LEFT, TOP = 28, 100  # the board's top-left corner
WIDTH, HEIGHT = LEFT * 2 + COLUMNS * CELL, TOP + ROWS * CELL + 52
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
BLUE, ORANGE, BOARD = "#2f6fde", "#e07a1f", "#1e3a8a"
GREEN, RED, AMBER, GREY, INK = "#1d8a4e", "#c0392b", "#9a7412", "#6b7280", "#1f2430"
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def describe_action(action: int) -> str:
    """What an action means, e.g. 3 -> "Drop a disc in column 4 (of 7, from the left)"."""
    a = int(action)
    if not 0 <= a < COLUMNS:
        return f"Unknown action {a}"
    return f"Drop a disc in column {a + 1} (of {COLUMNS}, from the left)"


def _checked(state) -> np.ndarray:
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"ConnectFour: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    return state


def _board(state: np.ndarray) -> list[list[int]]:
    """board[row][column]: 1 mine, 2 the opponent's, 0 empty (row 0 at the bottom)."""
    return [
        [
            1 if state[S_MINE + r * COLUMNS + c] > 0.5 else 2 if state[S_THEIRS + r * COLUMNS + c] > 0.5 else 0
            for c in range(COLUMNS)
        ]
        for r in range(ROWS)
    ]


def _open_columns(board: list[list[int]]) -> list[int]:
    return [c for c in range(COLUMNS) if board[ROWS - 1][c] == 0]


def _fours(board: list[list[int]]) -> set[tuple[int, int]]:
    """The cells of every line of four of one player."""
    cells: set[tuple[int, int]] = set()
    for r in range(ROWS):
        for c in range(COLUMNS):
            for dr, dc in DIRECTIONS:
                line = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= rr < ROWS and 0 <= cc < COLUMNS for rr, cc in line):
                    owners = {board[rr][cc] for rr, cc in line}
                    if len(owners) == 1 and 0 not in owners:
                        cells.update(line)
    return cells


def _status(state: np.ndarray) -> tuple[str, str]:
    """The headline and its colour."""
    if state[S_OVER] > 0.5:
        if state[S_WON] > 0.5:
            return "You won!", GREEN
        if state[S_LOST] > 0.5:
            return "You lost", RED
        return "Draw: the board is full", AMBER
    if state[S_MY_TURN] > 0.5:
        return "Your turn: click a column", INK
    return "Opponent's turn", GREY


def render(state) -> str:
    """An SVG picture of a ConnectFour state from its player's point of view."""
    state = _checked(state)
    board = _board(state)
    head, head_colour = _status(state)
    playable = state[S_MY_TURN] > 0.5 and state[S_OVER] < 0.5
    order = "you moved first" if state[S_FIRST] > 0.5 else "the opponent moved first"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="#f8fafc"/>',
        f'<text x="{WIDTH / 2}" y="36" text-anchor="middle" font-size="22" font-weight="bold" '
        f'fill="{head_colour}" data-prompt="">{escape(head)}</text>',
        f'<text x="{WIDTH / 2}" y="64" text-anchor="middle" font-size="15" fill="{GREY}">'
        f'Your discs <tspan fill="{BLUE}" font-weight="bold">●</tspan>, the opponent\'s '
        f'<tspan fill="{ORANGE}" font-weight="bold">●</tspan> · {order}</text>',
        f'<rect x="{LEFT - 8}" y="{TOP - 8}" width="{COLUMNS * CELL + 16}" height="{ROWS * CELL + 16}" '
        f'rx="12" fill="{BOARD}"/>',
    ]
    fours = _fours(board) if state[S_OVER] > 0.5 else set()
    radius = CELL * 0.4
    for r in range(ROWS):
        for c in range(COLUMNS):
            cx, cy = LEFT + (c + 0.5) * CELL, TOP + (ROWS - 1 - r + 0.5) * CELL
            fill = ("#ffffff", BLUE, ORANGE)[board[r][c]]
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="{radius}" fill="{fill}"/>')
            if (r, c) in fours:
                ring = GREEN if board[r][c] == 1 else RED
                parts.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{radius - 4}" fill="none" stroke="{ring}" stroke-width="6"/>'
                )
    for c in range(COLUMNS):
        x = LEFT + c * CELL
        parts.append(
            f'<text x="{x + CELL / 2}" y="{TOP + ROWS * CELL + 34}" text-anchor="middle" '
            f'font-size="16" fill="{GREY}">{c + 1}</text>'
        )
        if playable and board[ROWS - 1][c] == 0:
            # the whole column is the click target
            parts.append(
                f'<rect x="{x}" y="{TOP - 8}" width="{CELL}" height="{ROWS * CELL + 16}" '
                f'fill="#ffffff" fill-opacity="0" data-action="{c}" style="cursor:pointer">'
                f"<title>{escape(describe_action(c))}</title></rect>"
            )
    parts.append("</svg>")
    return "".join(parts)


def describe_state(state) -> str:
    """The state in words for a language-model player: the board as rows of text and what to do."""
    state = _checked(state)
    board = _board(state)
    order = "you moved first" if state[S_FIRST] > 0.5 else "your opponent moved first"
    lines = [
        f"ConnectFour: connect four of your discs in a row, column or diagonal ({order}).",
        "Board, top row first (X = your discs, O = your opponent's, . = empty):",
    ]
    symbols = (".", "X", "O")
    for r in range(ROWS - 1, -1, -1):
        lines.append("  " + " ".join(symbols[board[r][c]] for c in range(COLUMNS)))
    lines.append("  " + " ".join(str(c + 1) for c in range(COLUMNS)) + "   <- column numbers")
    if state[S_OVER] > 0.5:
        result = "you won" if state[S_WON] > 0.5 else "you lost" if state[S_LOST] > 0.5 else "a draw, the board is full"
        lines.append(f"Game over: {result}.")
    elif state[S_MY_TURN] > 0.5:
        open_columns = ", ".join(str(c + 1) for c in _open_columns(board))
        lines.append(f"It is your turn: drop a disc in one of the columns {open_columns}.")
    else:
        lines.append("It is your opponent's turn.")
    return "\n".join(lines)
