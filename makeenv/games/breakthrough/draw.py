"""Breakthrough drawings and words: one SVG per state from its player's view, and text for language models.

``render(state)`` draws the board with the player's home row at the bottom (Black sees it
turned round), whose turn it is, the last move and the result. On the player's turn every valid
move is a small arrow on the moving piece, pointing where it goes (red when it captures), and
clickable (``data-action``). ``describe_action`` names a move, ``describe_state`` writes the
board as text. Python only; the rules live in ``logic.py``.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    COLS,
    FORWARD,
    MINE,
    NUM_ACTIONS,
    NUM_SQUARES,
    NUM_STEPS,
    ROWS,
    S_BOARD,
    S_LAST_FROM,
    S_LAST_TO,
    S_LOST,
    S_MOVES,
    S_MY_PIECES,
    S_MY_TURN,
    S_OVER,
    S_THEIR_PIECES,
    S_WHITE,
    S_WON,
    STATE_SIZE,
    STRAIGHT,
    THEIRS,
    getValidActions,
)

SQUARE = 56  # square side in pixels
LEFT, TOP = 40, 86  # the board's top-left corner
WIDTH, HEIGHT = LEFT + COLS * SQUARE + 24, TOP + ROWS * SQUARE + 64
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
LIGHT, DARK, LAST = "#f0d9b5", "#b58863", "#f6e05e"
GREEN, RED, AMBER, GREY, INK, BLUE = "#1d8a4e", "#c0392b", "#9a7412", "#6b7280", "#1f2430", "#2f6fde"
COLOUR_NAMES = ("Black", "White")


def square_name(square: int) -> str:
    """OpenSpiel's name of a square: file a..h and rank 8..1 (row 0 is rank 8), e.g. 0 -> "a8"."""
    row, col = divmod(int(square), COLS)
    return f"{chr(ord('a') + col)}{ROWS - row}"


def step_target(action: int, player: int) -> int | None:
    """The square ``action`` lands on when ``player`` plays it, or None when it leaves the board."""
    square, step = divmod(int(action), NUM_STEPS)
    row, col = square // COLS + FORWARD[player], square % COLS + step - 1
    return row * COLS + col if 0 <= row < ROWS and 0 <= col < COLS else None


def describe_action(action: int) -> str:
    """What an action means, e.g. 100 -> "Step the piece on e4 straight forward (to e5 for White, e3 for Black)"."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"Unknown action {a}"
    square, step = divmod(a, NUM_STEPS)
    ends = [f"to {square_name(t)} for {COLOUR_NAMES[p]}" for p in (1, 0) if (t := step_target(a, p)) is not None]
    if not ends:
        return f"Step the piece on {square_name(square)} off the board (never valid)"
    where = ", ".join(ends)
    if step == STRAIGHT:
        return f"Step the piece on {square_name(square)} straight forward ({where})"
    file = chr(ord("a") + square % COLS + step - 1)
    return (
        f"Step the piece on {square_name(square)} diagonally forward towards file {file} ({where}), "
        "capturing a piece standing there"
    )


def move_name(action: int, player: int, board: np.ndarray) -> str:
    """Short notation of a valid move of ``player``: "e2-e3", or "e2xd3" for a capture."""
    square = int(action) // NUM_STEPS
    target = step_target(action, player)
    capture = target is not None and board[target] == THEIRS
    return f"{square_name(square)}{'x' if capture else '-'}{square_name(target) if target is not None else '?'}"


def _check(state) -> np.ndarray:
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"Breakthrough: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    return state


def _headline(state: np.ndarray, me: int) -> tuple[str, str]:
    if state[S_OVER] == 1.0:
        if state[S_WON] == 1.0:
            return "You won!", GREEN
        return "You lost", RED
    if state[S_MY_TURN] == 1.0:
        return f"Your turn ({COLOUR_NAMES[me]}): click an arrow to move", INK
    return f"{COLOUR_NAMES[1 - me]} to move: waiting for the opponent", GREY


def render(state) -> str:
    """An SVG picture of a Breakthrough state from its player's side of the board."""
    state = _check(state)
    me = 1 if state[S_WHITE] == 1.0 else 0
    board = state[S_BOARD : S_BOARD + NUM_SQUARES]

    def corner(square: int) -> tuple[float, float]:
        """Top-left pixel of a square: my home row at the bottom (Black sees the board turned round)."""
        row, col = divmod(square, COLS)
        if me == 0:
            row, col = ROWS - 1 - row, COLS - 1 - col
        return LEFT + col * SQUARE, TOP + row * SQUARE

    head, head_colour = _headline(state, me)
    last_from, last_to = int(state[S_LAST_FROM]) - 1, int(state[S_LAST_TO]) - 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="#f8fafc"/>',
        f'<text x="{WIDTH / 2}" y="32" text-anchor="middle" font-size="20" font-weight="bold" '
        f'fill="{head_colour}" data-prompt="">{escape(head)}</text>',
        f'<text x="{WIDTH / 2}" y="58" text-anchor="middle" font-size="14" fill="{GREY}">'
        f"You play {COLOUR_NAMES[me]}, moving up the board · move {int(state[S_MOVES]) + 1}</text>",
    ]
    for square in range(NUM_SQUARES):
        x, y = corner(square)
        row, col = divmod(square, COLS)
        fill = LAST if square in (last_from, last_to) else (LIGHT if (row + col) % 2 == 0 else DARK)
        parts.append(f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>')
    for i in range(COLS):  # file letters below, rank numbers on the left, as seen from my side
        file_col = i if me == 1 else COLS - 1 - i
        parts.append(
            f'<text x="{LEFT + i * SQUARE + SQUARE / 2}" y="{TOP + ROWS * SQUARE + 18}" '
            f'text-anchor="middle" font-size="13" fill="{GREY}">{chr(ord("a") + file_col)}</text>'
        )
        rank = ROWS - i if me == 1 else i + 1
        parts.append(
            f'<text x="{LEFT - 14}" y="{TOP + i * SQUARE + SQUARE / 2 + 5}" text-anchor="middle" '
            f'font-size="13" fill="{GREY}">{rank}</text>'
        )
    for square in range(NUM_SQUARES):
        if board[square] not in (MINE, THEIRS):
            continue
        x, y = corner(square)
        colour = me if board[square] == MINE else 1 - me
        fill, stroke = ("#2b2b2b", "#000000") if colour == 0 else ("#fdfdfd", "#4b5563")
        ring = f' stroke="{BLUE}" stroke-width="3"' if board[square] == MINE else f' stroke="{stroke}" stroke-width="2"'
        parts.append(f'<circle cx="{x + SQUARE / 2}" cy="{y + SQUARE / 2}" r="{SQUARE * 0.34}" fill="{fill}"{ring}/>')
    if state[S_MY_TURN] == 1.0 and state[S_OVER] == 0.0:
        for action in np.flatnonzero(getValidActions(state)):
            parts.append(_arrow(int(action), me, board, corner))
    parts.append(
        f'<text x="{WIDTH / 2}" y="{HEIGHT - 18}" text-anchor="middle" font-size="14" fill="{GREY}">'
        f"Your pieces: {int(state[S_MY_PIECES])} · opponent's: {int(state[S_THEIR_PIECES])}"
        + (f" · last move {escape(square_name(last_from))}-{escape(square_name(last_to))}" if last_from >= 0 else "")
        + "</text>"
    )
    parts.append("</svg>")
    return "".join(parts)


def _arrow(action: int, me: int, board: np.ndarray, corner) -> str:
    """A clickable arrow on the moving piece, pointing at the square it goes to."""
    square = action // NUM_STEPS
    target = step_target(action, me)
    x, y = corner(square)
    tx, ty = corner(target)
    cx, cy = x + SQUARE / 2, y + SQUARE / 2
    dx, dy = (tx - x) / SQUARE, (ty - y) / SQUARE  # screen direction: (-1 | 0 | 1, -1)
    length = (dx * dx + dy * dy) ** 0.5
    ux, uy = dx / length, dy / length
    tip_x, tip_y = cx + ux * SQUARE * 0.62, cy + uy * SQUARE * 0.62
    base_x, base_y = cx + ux * SQUARE * 0.30, cy + uy * SQUARE * 0.30
    half = SQUARE * 0.13
    left = (base_x - uy * half, base_y + ux * half)
    right = (base_x + uy * half, base_y - ux * half)
    colour = RED if board[target] == THEIRS else GREEN
    name = move_name(action, me, board)
    return (
        f'<g data-action="{action}" cursor="pointer"><title>{escape(name)}</title>'
        f'<circle cx="{(tip_x + base_x) / 2:.1f}" cy="{(tip_y + base_y) / 2:.1f}" r="{SQUARE * 0.2:.1f}" '
        f'fill="#ffffff" fill-opacity="0.01"/>'
        f'<polygon points="{tip_x:.1f},{tip_y:.1f} {left[0]:.1f},{left[1]:.1f} {right[0]:.1f},{right[1]:.1f}" '
        f'fill="{colour}" stroke="#ffffff" stroke-width="1.5"/></g>'
    )


def describe_state(state) -> str:
    """The state in words: the board as text rows, whose turn it is, the valid moves, the result."""
    state = _check(state)
    me = 1 if state[S_WHITE] == 1.0 else 0
    board = state[S_BOARD : S_BOARD + NUM_SQUARES]
    goal = "rank 8" if me == 1 else "rank 1"
    lines = [
        f"Breakthrough. You play {COLOUR_NAMES[me]} (X): you move towards {goal}; your opponent "
        f"plays {COLOUR_NAMES[1 - me]} (O).",
        "Board (rank 8 at the top, file a on the left; X yours, O your opponent's, . empty):",
    ]
    for row in range(ROWS):
        cells = " ".join(
            "X" if board[row * COLS + c] == MINE else "O" if board[row * COLS + c] == THEIRS else "."
            for c in range(COLS)
        )
        lines.append(f"  {ROWS - row} {cells}")
    lines.append("    " + " ".join(chr(ord("a") + c) for c in range(COLS)))
    lines.append(
        f"Pieces: yours {int(state[S_MY_PIECES])}, your opponent's {int(state[S_THEIR_PIECES])}. "
        f"Moves played: {int(state[S_MOVES])}."
    )
    last_from, last_to = int(state[S_LAST_FROM]) - 1, int(state[S_LAST_TO]) - 1
    if 0 <= last_from < NUM_SQUARES and 0 <= last_to < NUM_SQUARES:
        lines.append(f"Last move: {square_name(last_from)}-{square_name(last_to)}.")
    if state[S_OVER] == 1.0:
        lines.append(
            "Game over: you won."
            if state[S_WON] == 1.0
            else "Game over: you lost."
            if state[S_LOST] == 1.0
            else "Game over."
        )
    elif state[S_MY_TURN] == 1.0:
        moves = [f"{move_name(int(a), me, board)} (action {int(a)})" for a in np.flatnonzero(getValidActions(state))]
        lines.append("Your turn. Valid moves: " + ", ".join(moves) + ".")
    else:
        lines.append("Waiting for your opponent to move.")
    return "\n".join(lines)
