"""Poker drawings and words, from one player's view. Python only.

``render(state)`` draws the table: the board, my hole cards, the pot, every seat around the table
(chips, bet, button and blinds, folded or all-in) and the last hand's showdown, with a clickable
button per valid action carrying its amount ("Call 4", "Raise to 12"). ``describe_action`` names
an action; ``describe_state`` puts the state in words for a language model.
"""

from __future__ import annotations

import math
from html import escape

import numpy as np

from makeenv.games._poker import cards as D

from .logic import (
    ACTION_NAMES,
    ALL_IN,
    B_ACTIVE,
    B_ALL_IN,
    B_BB,
    B_BET,
    B_BLIND,
    B_BUTTON,
    B_CHIPS,
    B_DEALT,
    B_LAST_ACTION,
    B_LAST_COMMITTED,
    B_LAST_HOLE,
    B_LAST_WON,
    B_SB,
    B_TO_MOVE,
    B_WINNER,
    CALL,
    FOLD,
    HAND_CAP,
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_CARDS,
    RANK_CHARS,
    S_BET,
    S_BOARD,
    S_CAN_RAISE,
    S_HAND,
    S_HOLE,
    S_LAST_BOARD,
    S_LAST_SHOWDOWN,
    S_MIN_RAISE,
    S_MY_TURN,
    S_OVER,
    S_PLAYERS,
    S_POT,
    S_SEAT,
    S_SEATS,
    S_STREET,
    S_TO_CALL,
    S_WON,
    STATE_BLOCK,
    STATE_SIZE,
    STREET_NAMES,
    SUIT_SYMBOLS,
    isValidAction,
    raise_target,
)

WIDTH, HEIGHT = 1000, 720
ACTION_WORDS = ("folds", "checks/calls", "raises the minimum", "raises half the pot", "raises the pot", "goes all-in")


def describe_action(action: int) -> str:
    """What an action means: "Fold", "Check / call", "Raise by the minimum", ..., "All-in"."""
    a = int(action)
    if 0 <= a < NUM_ACTIONS:
        return ACTION_NAMES[a]
    return f"Unknown action {a}"


def card_text(card: int) -> str:
    """A card in two characters: "A♠", "T♥", "2♦"."""
    return f"{RANK_CHARS[card >> 2]}{SUIT_SYMBOLS[card & 3]}"


def _flags(state: np.ndarray, start: int) -> list[int]:
    return [c for c in range(NUM_CARDS) if state[start + c] > 0.5]


def _plus_one(state: np.ndarray, start: int, count: int) -> list[int]:
    """Cards stored as card + 1 (0 for none)."""
    return [int(state[start + i]) - 1 for i in range(count) if 1 <= state[start + i] <= NUM_CARDS]


def _amount(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _check(state) -> np.ndarray:
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"Poker: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    return state


def _players(state: np.ndarray) -> int:
    return min(max(_amount(state[S_PLAYERS]), 2), MAX_PLAYERS)


def _seat_name(rel: int) -> str:
    return "You" if rel == 0 else f"Player +{rel}"


def action_label(state: np.ndarray, action: int) -> str:
    """An action with its amount in this state: "Check", "Call 4", "Raise to 12", "All-in 180"."""
    to_call = float(state[S_TO_CALL])
    chips = float(state[S_SEATS + B_CHIPS])
    my_bet = float(state[S_SEATS + B_BET])
    if action == FOLD:
        return "Fold"
    if action == CALL:
        if to_call <= 0:
            return "Check"
        return f"Call {_amount(min(to_call, chips))}" + (" (all-in)" if to_call >= chips else "")
    if action == ALL_IN:
        return f"All-in to {_amount(my_bet + chips)}"
    target = raise_target(action, my_bet, chips, float(state[S_BET]), float(state[S_MIN_RAISE]), float(state[S_POT]))
    verb = "Bet" if state[S_BET] <= 0 else "Raise to"
    return f"{verb} {_amount(target)}"


def _status(state: np.ndarray, base: int) -> str:
    if state[S_OVER] > 0.5:
        return "winner" if state[base + B_WINNER] > 0.5 else ""
    if state[base + B_DEALT] < 0.5:
        return "out of chips"
    if state[base + B_ACTIVE] < 0.5:
        return "folded"
    if state[base + B_ALL_IN] > 0.5:
        return "all-in"
    return ""


def _roles(state: np.ndarray, base: int) -> str:
    roles = []
    if state[base + B_BUTTON] > 0.5:
        roles.append("button")
    if state[base + B_SB] > 0.5:
        roles.append(f"small blind {_amount(state[base + B_BLIND])}")
    if state[base + B_BB] > 0.5:
        roles.append(f"big blind {_amount(state[base + B_BLIND])}")
    return ", ".join(roles)


def _street(state: np.ndarray) -> str:
    for k in range(4):
        if state[S_STREET + k] > 0.5:
            return STREET_NAMES[k]
    return STREET_NAMES[0]


def _last_hand_lines(state: np.ndarray, n: int) -> list[str]:
    """The last finished hand: its board, who showed what and who took chips."""
    if _amount(state[S_HAND]) <= 1 and state[S_OVER] < 0.5:
        return []
    board = _plus_one(state, S_LAST_BOARD, 5)
    showdown = state[S_LAST_SHOWDOWN] > 0.5
    lines = [
        "Last hand: "
        + ("showdown" if showdown else "won without a showdown")
        + (f", board {' '.join(card_text(c) for c in board)}" if board else "")
        + "."
    ]
    for rel in range(n):
        base = S_SEATS + rel * STATE_BLOCK
        shown = _plus_one(state, base + B_LAST_HOLE, 2)
        won, put = _amount(state[base + B_LAST_WON]), _amount(state[base + B_LAST_COMMITTED])
        if shown or won:
            text = f"{_seat_name(rel)}"
            if shown:
                text += f" showed {' '.join(card_text(c) for c in shown)}"
            text += f", put in {put}, took {won}"
            lines.append(text + ".")
    return lines


def describe_state(state) -> str:
    """The state in words: the hand and street, my cards, the board, the pot, every seat, the
    valid actions with their amounts, the last hand; at the end the final chips."""
    state = _check(state)
    n = _players(state)
    over = state[S_OVER] > 0.5
    lines = [
        f"No-Limit Texas Hold'em sit-and-go, {n} players, blinds 1/2; you are seat {_amount(state[S_SEAT])}. "
        f"Hand {_amount(state[S_HAND])} of at most {HAND_CAP}."
    ]
    if over:
        lines.append("The game is over: " + ("you won (most chips)." if state[S_WON] > 0.5 else "you did not win."))
    else:
        hole = _flags(state, S_HOLE)
        board = _flags(state, S_BOARD)
        lines.append(
            f"Street: {_street(state)}. Your cards: {' '.join(card_text(c) for c in hole) or 'none (out of chips)'}. "
            f"Board: {' '.join(card_text(c) for c in board) or 'nothing yet'}."
        )
        lines.append(
            f"Pot: {_amount(state[S_POT])} chips. Highest bet this street: {_amount(state[S_BET])}; "
            f"you need {_amount(state[S_TO_CALL])} to call; the minimum raise is {_amount(state[S_MIN_RAISE])}."
        )
    for rel in range(n):
        base = S_SEATS + rel * STATE_BLOCK
        text = f"{_seat_name(rel)}: {_amount(state[base + B_CHIPS])} chips"
        if not over:
            text += f", bet {_amount(state[base + B_BET])} this street"
            last = _amount(state[base + B_LAST_ACTION])
            if last:
                text += f", last {ACTION_WORDS[min(last, NUM_ACTIONS) - 1]}"
        for extra in (_roles(state, base) if not over else "", _status(state, base)):
            if extra:
                text += f" ({extra})"
        lines.append(text + ".")
    if not over:
        if state[S_MY_TURN] > 0.5:
            choices = [f"[{a}] {action_label(state, a)}" for a in range(NUM_ACTIONS) if isValidAction(state, a)]
            lines.append("Your move: " + ", ".join(choices) + ".")
        else:
            lines.append("Waiting for another player to move.")
    lines.extend(_last_hand_lines(state, n))
    return "\n".join(lines)


# ---- drawing -----------------------------------------------------------------------------------


def _small_card(x: float, y: float, card: int | None, scale: float = 1.0) -> str:
    """A 34 x 48 card (times ``scale``): face up (``card``) or face down (None)."""
    w, h = 34 * scale, 48 * scale
    if card is None:
        return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" fill="#7c2d12" stroke="#fed7aa" stroke-width="1.5"/>'
    colour = D.RED if card & 3 in (0, 1) else D.INK
    size = round(16 * scale)
    return (
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" fill="#ffffff" stroke="#4b5563"/>'
        f"{D.text(x + w / 2, y + 0.46 * h, RANK_CHARS[card >> 2], size, colour, True)}"
        f"{D.text(x + w / 2, y + 0.85 * h, SUIT_SYMBOLS[card & 3], size, colour)}"
    )


def _seat(state: np.ndarray, rel: int, n: int) -> str:
    """One seat's box around the table (``rel`` places after me)."""
    base = S_SEATS + rel * STATE_BLOCK
    angle = math.pi / 2 + 2 * math.pi * rel / n  # me at the bottom, the next seats clockwise
    cx, cy = WIDTH / 2 + 400 * math.cos(angle), 330 + 215 * math.sin(angle)
    x, y = cx - 98, cy - 46
    over = state[S_OVER] > 0.5
    moving = state[base + B_TO_MOVE] > 0.5 and not over
    winner = over and state[base + B_WINNER] > 0.5
    stroke = D.ORANGE if moving else (D.GREEN if winner else "#d6d3cc")
    faded = "" if over or state[base + B_ACTIVE] > 0.5 else ' opacity="0.55"'
    name = "You" if rel == 0 else f'<tspan data-relative-seat="{rel}">{escape(_seat_name(rel))}</tspan>'
    parts = [
        f"<g{faded}>",
        f'<rect x="{x}" y="{y}" width="196" height="92" rx="10" fill="#ffffff" stroke="{stroke}" stroke-width="3"/>',
        f'<text x="{x + 10}" y="{y + 19}" font-size="13" font-weight="bold" fill="{D.INK}">{name}</text>',
        D.text(x + 10, y + 42, f"{_amount(state[base + B_CHIPS])} chips", 13, D.INK, anchor="start"),
    ]
    if not over and _amount(state[base + B_BET]):
        parts.append(D.text(x + 10, y + 60, f"bet {_amount(state[base + B_BET])}", 13, D.BLUE, True, anchor="start"))
    detail = " · ".join(t for t in (_roles(state, base).replace("small blind", "SB").replace("big blind", "BB"),) if t)
    status = _status(state, base)
    line = " · ".join(t for t in (detail, status) if t)
    if line:
        parts.append(D.text(x + 10, y + 82, line, 11, D.GREY, anchor="start"))
    # the cards under the name line, at the right (the page writes long names: "Player 6 (bot, level 0)")
    if not over and rel > 0 and state[base + B_ACTIVE] > 0.5:
        parts.append(_small_card(x + 114, y + 28, None, 0.9) + _small_card(x + 148, y + 28, None, 0.9))
    shown = _plus_one(state, base + B_LAST_HOLE, 2)
    if over and shown:
        parts.append("".join(_small_card(x + 114 + 34 * i, y + 28, c, 0.9) for i, c in enumerate(shown)))
    if state[base + B_BUTTON] > 0.5 and not over:
        parts.append(
            f'<circle cx="{x + 96}" cy="{y + 78}" r="9" fill="#ffffff" stroke="{D.INK}"/>'
            f"{D.text(x + 96, y + 82, 'D', 11, D.INK, True)}"
        )
    parts.append("</g>")
    return "".join(parts)


def render(state) -> str:
    """An SVG picture of a Poker state from its player's point of view."""
    state = _check(state)
    n = _players(state)
    over = state[S_OVER] > 0.5
    parts = [D.open_svg(WIDTH, HEIGHT)]
    if over:
        won = state[S_WON] > 0.5
        head, colour = ("You won: most chips!" if won else "Game over: you did not win"), (D.GREEN if won else D.RED)
    elif state[S_MY_TURN] > 0.5:
        to_call = _amount(state[S_TO_CALL])
        head, colour = (f"Your turn: {to_call} to call" if to_call else "Your turn: check or bet"), D.INK
    else:
        head, colour = "Waiting for another player", D.GREY
    parts.append(
        D.text(
            WIDTH / 2,
            26,
            f"No-Limit Hold'em · {n} players · blinds 1/2 · hand {_amount(state[S_HAND])} of at most {HAND_CAP}"
            + ("" if over else f" · {_street(state)}"),
            14,
            D.GREY,
        )
    )
    parts.append(D.text(WIDTH / 2, 54, head, 20, colour, True).replace("<text ", '<text data-prompt="" ', 1))
    if not over:
        board = _flags(state, S_BOARD)
        left = WIDTH / 2 - (5 * 64 - 8) / 2
        for i in range(5):
            if i < len(board):
                parts.append(_small_card(left + 64 * i, 220, board[i], scale=56 / 34))
            else:
                parts.append(
                    f'<rect x="{left + 64 * i}" y="220" width="56" height="78" rx="6" fill="none" '
                    'stroke="#a7f3d0" stroke-dasharray="5 4"/>'
                )
        parts.append(D.text(WIDTH / 2, 330, f"Pot {_amount(state[S_POT])}", 20, "#ffffff", True))
        hole = _flags(state, S_HOLE)
        for i, c in enumerate(hole):
            parts.append(D.card(WIDTH / 2 - 88 + 92 * i, 360, RANK_CHARS[c >> 2], SUIT_SYMBOLS[c & 3]))
    else:
        board = _plus_one(state, S_LAST_BOARD, 5)
        parts.append(D.text(WIDTH / 2, 230, "Final chips", 20, "#ffffff", True))
        if board:
            parts.append(D.text(WIDTH / 2, 262, "Last board: " + " ".join(card_text(c) for c in board), 16, "#d1fae5"))
    for rel in range(n):
        parts.append(_seat(state, rel, n))
    if not over and state[S_MY_TURN] > 0.5:
        choices = [(a, action_label(state, a)) for a in range(NUM_ACTIONS) if isValidAction(state, a)]
        parts.append(D.buttons(WIDTH / 2, HEIGHT - 52, choices, width=150))
    elif not over:
        parts.append(D.text(WIDTH / 2, HEIGHT - 28, "Waiting for another player", 15, D.GREY))
    last = _last_hand_lines(state, n)
    for i, line in enumerate(last[:3] if not over else []):
        parts.append(D.text(28, 600 + 16 * i, line, 12, "#d1fae5", anchor="start"))
    if state[S_CAN_RAISE] < 0.5 and state[S_MY_TURN] > 0.5 and not over:
        parts.append(D.text(WIDTH / 2, HEIGHT - 62, "(no raise: the betting is closed to you)", 12, D.GREY))
    parts.append(D.close_svg())
    return "".join(parts)
