"""Go Fish drawings and words, from one player's view. Python only.

``render(state)`` draws the three other players (cards in hand, books, the ranks they asked for in
their latest turn; clickable when I choose whom to ask), the deck (clickable when I must draw), my
hand by rank (clickable when I choose a rank) and my books; at the end the winner.
``describe_action`` names an action; ``describe_state`` puts the state in words.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    ASK_PLAYER,
    ASK_RANK,
    CHOOSE_PLAYER,
    CHOOSE_RANK,
    DRAW,
    MUST_DRAW,
    NUM_PLAYERS,
    NUM_RANKS,
    O_BOOKS,
    O_HAND,
    OTHER_BLOCK,
    RANK_NAMES,
    S_ASKED,
    S_DECK,
    S_DRAW_FOR,
    S_MINE,
    S_MY_HAND,
    S_OTHERS,
    S_OVER,
    S_SEAT,
    S_TARGET,
    S_TO_MOVE,
    S_TURNS,
    S_WINNER,
    S_WON,
    STATE_SIZE,
    isValidAction,
    phase_of,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH, HEIGHT = 900, 440
RANK_SHORT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
GREEN, RED, GREY, INK, BLUE, SEA = "#1d8a4e", "#c0392b", "#6b7280", "#1f2430", "#2f6fde", "#1b5e7a"


def _seat_name(rel: int) -> str:
    return "You" if rel == 0 else f"Player +{rel}"


def describe_action(action: int) -> str:
    """What an action means: "Draw a card", "Ask Player +2", "Ask for Sevens"."""
    a = int(action)
    if a == DRAW:
        return "Draw a card (go fish)"
    if ASK_PLAYER <= a < ASK_RANK:
        return f"Ask Player +{a} (the player {a} seat{'s' if a > 1 else ''} after the one asking)"
    if ASK_RANK <= a < ASK_RANK + NUM_RANKS:
        return f"Ask for {RANK_NAMES[a - ASK_RANK]}s"
    return f"Unknown action {a}"


def _count(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _one(state, start: int, length: int) -> int:
    for i in range(length):
        if state[start + i] > 0.5:
            return i
    return -1


def _ranks(ranks: list[int]) -> str:
    return ", ".join(RANK_NAMES[r] for r in ranks) if ranks else "none"


def _hand(state) -> list[tuple[int, int]]:
    return [(r, _count(state[S_MINE + r])) for r in range(NUM_RANKS) if 1 <= _count(state[S_MINE + r]) <= 3]


def _headline(state) -> tuple[str, str]:
    if state[S_OVER] > 0.5:
        if state[S_WON] > 0.5:
            return "You won: most books!", GREEN
        winner = _one(state, S_WINNER, NUM_PLAYERS)
        return ("Game over: " + (f"Player +{winner} won" if winner > 0 else "stopped at 400 turns, no winner")), RED
    phase = phase_of(state)
    if phase == CHOOSE_PLAYER:
        return "Your turn: choose a player to ask", INK
    if phase == CHOOSE_RANK:
        return f"Ask Player +{_one(state, S_TARGET, 3) + 1} for a rank you hold", INK
    if phase == MUST_DRAW:
        wanted = _count(state[S_DRAW_FOR]) - 1
        return ("Go fish: draw a card" + (f" (a {RANK_NAMES[wanted]} lets you go on)" if wanted >= 0 else "")), INK
    return f"Waiting for Player +{max(_one(state, S_TO_MOVE, NUM_PLAYERS), 1)}", GREY


def describe_state(state) -> str:
    """The state in words: my hand and books, the others, the deck, whose move it is, the result."""
    state = np.asarray(state, dtype=np.float64)
    hand = _hand(state)
    my_books = [r for r in range(NUM_RANKS) if _count(state[S_MINE + r]) == 4]
    lines = [
        f"Go Fish, 4 players; you are seat {_count(state[S_SEAT])}; turn {_count(state[S_TURNS])} "
        f"(the game stops at 400). Deck: {_count(state[S_DECK])} cards.",
        _headline(state)[0] + ".",
        f"Your hand ({_count(state[S_MY_HAND])}): "
        + (", ".join(f"{n} {RANK_NAMES[r]}{'s' if n > 1 else ''}" for r, n in hand) if hand else "empty")
        + f". Your books ({len(my_books)}): {_ranks(my_books)}.",
    ]
    for k in range(NUM_PLAYERS - 1):
        block = S_OTHERS + k * OTHER_BLOCK
        books = [r for r in range(NUM_RANKS) if state[block + r] > 0.5]
        asked = [r for r in range(NUM_RANKS) if state[S_ASKED + k * NUM_RANKS + r] > 0.5]
        lines.append(
            f"Player +{k + 1}: {_count(state[block + O_HAND])} cards in hand; books ({len(books)}): "
            f"{_ranks(books)}; asked in its latest turn for: {_ranks(asked)}."
        )
    return "\n".join(lines)


def _card(x: float, y: float, rank: int, count: int = 0, action: int | None = None, small: bool = False) -> str:
    w, h = (34, 48) if small else (52, 74)
    attrs = f' data-action="{action}" style="cursor:pointer"' if action is not None else ""
    title = f"<title>{escape(describe_action(action) if action is not None else RANK_NAMES[rank])}</title>"
    parts = [
        f'<g transform="translate({x},{y})"{attrs}>{title}',
        f'<rect width="{w}" height="{h}" rx="5" fill="#ffffff" stroke="{BLUE if action is not None else "#9ca3af"}" '
        f'stroke-width="{3 if action is not None else 1.5}"/>',
        f'<text x="{w / 2}" y="{h * 0.62}" text-anchor="middle" font-size="{15 if small else 22}" '
        f'font-weight="bold" fill="{INK}">{RANK_SHORT[rank]}</text>',
    ]
    if count > 1:
        parts.append(
            f'<circle cx="{w - 4}" cy="4" r="10" fill="{BLUE}"/><text x="{w - 4}" y="8" text-anchor="middle" '
            f'font-size="12" fill="#ffffff">×{count}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def render(state) -> str:
    """An SVG picture of a Go Fish state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"GoFish.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    head, colour = _headline(state)
    mover = _one(state, S_TO_MOVE, NUM_PLAYERS)
    winner = _one(state, S_WINNER, NUM_PLAYERS)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="#eef4f7"/>',
        f'<text x="24" y="30" font-size="15" fill="{GREY}">Go Fish · most books wins · turn '
        f"{_count(state[S_TURNS])} of at most 400</text>",
        f'<text x="24" y="58" font-size="21" font-weight="bold" fill="{colour}" data-prompt="">{escape(head)}</text>',
    ]
    for k in range(NUM_PLAYERS - 1):
        rel, block, x, y = k + 1, S_OTHERS + k * OTHER_BLOCK, 24 + k * 292, 76
        action = ASK_PLAYER + k if isValidAction(state, ASK_PLAYER + k) else None
        border = GREEN if winner == rel else (BLUE if action is not None or mover == rel else "#cbd5e1")
        attrs = f' data-action="{action}" style="cursor:pointer"' if action is not None else ""
        held, books = _count(state[block + O_HAND]), _count(state[block + O_BOOKS])
        parts.append(
            f"<g{attrs}><title>{escape(describe_action(action) if action is not None else _seat_name(rel))}</title>"
            f'<rect x="{x}' + f'" y="{y}" width="276" height="150" rx="10" fill="#ffffff" stroke="{border}" '
            f'stroke-width="{3 if border != "#cbd5e1" else 1.5}"/>'
            # the page may write a longer name for the seat: the counts get a line of their own
            f'<text x="{x + 12}" y="{y + 22}" font-size="14" font-weight="bold" fill="{INK}">'
            f'<tspan data-relative-seat="{rel}">{_seat_name(rel)}</tspan></text>'
            f'<text x="{x + 12}" y="{y + 42}" font-size="13" fill="{INK}">{held} card{"s" if held != 1 else ""}'
            f" · {books} book{'s' if books != 1 else ''}{' · to move' if mover == rel else ''}</text>"
        )
        for i, r in enumerate(r for r in range(NUM_RANKS) if state[block + r] > 0.5):
            parts.append(_card(x + 12 + i * 38, y + 52, r, small=True))
        asked = [r for r in range(NUM_RANKS) if state[S_ASKED + k * NUM_RANKS + r] > 0.5]
        parts.append(
            f'<text x="{x + 12}" y="{y + 128}" font-size="12" fill="{GREY}">asked for: '
            f"{escape(', '.join(RANK_SHORT[r] for r in asked) or '–')}</text></g>"
        )
    # the deck
    deck = _count(state[S_DECK])
    draw = isValidAction(state, DRAW) and phase_of(state) == MUST_DRAW
    attrs = f' data-action="{DRAW}" style="cursor:pointer"' if draw else ""
    parts.append(
        f"<g{attrs}><title>{escape(describe_action(DRAW) if draw else 'The deck')}</title>"
        f'<rect x="24" y="244" width="120" height="74" rx="8" fill="{SEA}" stroke="{BLUE if draw else "#ffffff"}" '
        f'stroke-width="{3 if draw else 1.5}"/><text x="84" y="276" text-anchor="middle" font-size="15" '
        f'fill="#ffffff">Deck</text><text x="84" y="298" text-anchor="middle" font-size="13" fill="#d1fae5">'
        f"{deck} left</text></g>"
    )
    my_books = [r for r in range(NUM_RANKS) if _count(state[S_MINE + r]) == 4]
    parts.append(
        f'<text x="170" y="262" font-size="14" font-weight="bold" fill="{INK}">Your books ({len(my_books)})</text>'
    )
    for i, r in enumerate(my_books):
        parts.append(_card(170 + i * 38, 272, r, small=True))
    # my hand
    hand = _hand(state)
    parts.append(
        f'<text x="24" y="346" font-size="14" font-weight="bold" fill="{INK}">Your hand · '
        f"{_count(state[S_MY_HAND])} cards</text>"
    )
    for i, (r, n) in enumerate(hand):
        action = ASK_RANK + r if isValidAction(state, ASK_RANK + r) else None
        parts.append(_card(24 + i * 64, 356, r, n, action))
    if state[S_OVER] > 0.5:
        parts.append(
            f'<g data-action="{DRAW}" style="cursor:pointer"><title>End</title>'
            f'<rect x="{WIDTH - 200}" y="260" width="176" height="48" rx="8" fill="{GREY}"/>'
            f'<text x="{WIDTH - 112}" y="290" text-anchor="middle" font-size="17" fill="#ffffff">End</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)
