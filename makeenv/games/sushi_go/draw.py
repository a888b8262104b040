"""SushiGo drawings and words, from one player's view. Python only.

``render(state)`` draws the round and turn, the player's hand (each card kind once, with its
count; the cards that can be taken are clickable), the chopsticks button, the cards taken this
turn, and every seat's table, points and puddings; at the end the final scores and the winners.
``describe_action`` names an action; ``describe_state`` puts the state in words for a language
model.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    ACTION_NAMES,
    B_HAND,
    B_HAND_KNOWN,
    B_POINTS,
    B_PUDDING_LOST,
    B_PUDDING_WON,
    B_PUDDINGS,
    B_TABLE,
    B_WINNER,
    CARD_NAMES,
    MAKI1,
    MAKI2,
    MAKI3,
    MAX_PLAYERS,
    NUM_KINDS,
    NUM_ROUNDS,
    S_CHOPSTICKS,
    S_EARLIER,
    S_HAND,
    S_OVER,
    S_PICKED,
    S_PICKS_LEFT,
    S_PLAYERS,
    S_ROUND,
    S_SEAT,
    S_SEATS,
    S_TURN,
    S_WON,
    SEAT_BLOCK,
    STATE_SIZE,
    USE_CHOPSTICKS,
    isValidAction,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 980
CARD_W, CARD_H, CARD_GAP = 74, 104, 6
KIND_COLOURS = (
    "#d9a441",
    "#e4572e",
    "#b8860b",
    "#2e7d32",
    "#388e3c",
    "#43a047",
    "#f08a5d",
    "#7e57c2",
    "#f2c94c",
    "#a0522d",
    "#6aa84f",
    "#5d6d7e",
)
SHORT_NAMES = (
    "Tempura",
    "Sashimi",
    "Dumpling",
    "Maki 1",
    "Maki 2",
    "Maki 3",
    "Salmon",
    "Squid",
    "Egg",
    "Pudding",
    "Wasabi",
    "Chopsticks",
)
GREEN, RED, GREY, INK, BLUE = "#1d8a4e", "#c0392b", "#6b7280", "#1f2430", "#2f6fde"


def describe_action(action: int) -> str:
    """What an action means: "Take Tempura", "Use chopsticks (take two cards this turn)", "End turn"."""
    a = int(action)
    if a == USE_CHOPSTICKS:
        return "Use chopsticks (take two cards this turn)"
    return ACTION_NAMES[a] if 0 <= a < len(ACTION_NAMES) else f"Unknown action {a}"


def _count(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _cards_text(values, start: int) -> str:
    parts = []
    for k in range(NUM_KINDS):
        c = _count(values[start + k])
        if c:
            parts.append(CARD_NAMES[k] if c == 1 else f"{CARD_NAMES[k]} x{c}")
    return ", ".join(parts) if parts else "nothing"


def _seat_name(rel: int, players: int) -> str:
    if rel == 0:
        return "You"
    if rel == 1:
        return "Next player (you pass to them)"
    if rel == players - 1:
        return "Previous player (passes to you)"
    return f"Player +{rel}"


def _fit(text: str, width: float, em: float = 7.6) -> str:
    """SVG attributes squeezing a 12-px bold ``text`` into ``width`` when it would be wider (none else)."""
    return f' textLength="{width}" lengthAdjust="spacingAndGlyphs"' if len(text) * em > width else ""


def _name_markup(rel: int, players: int) -> str:
    """A seat's short name in the picture; another seat's is marked so the browser page can write in
    its own name for it."""
    name = escape(_seat_name(rel, players).split(" (")[0])
    return name if rel == 0 else f'<tspan data-relative-seat="{rel}">{name}</tspan>'


def _total(state, base: int) -> int:
    return _count(state[base + B_POINTS]) + _count(state[base + B_PUDDING_WON]) - _count(state[base + B_PUDDING_LOST])


def _maki(state, base: int) -> int:
    return (
        _count(state[base + B_TABLE + MAKI1])
        + 2 * _count(state[base + B_TABLE + MAKI2])
        + 3 * _count(state[base + B_TABLE + MAKI3])
    )


def _players(state) -> int:
    n = _count(state[S_PLAYERS])
    return min(max(n, 2), MAX_PLAYERS)


def describe_state(state) -> str:
    """The state in words: round and turn, my hand and picks, every table, known hands, the result."""
    state = np.asarray(state, dtype=np.float64)
    n = _players(state)
    hand = 12 - n
    over = state[S_OVER] > 0.5
    lines = [
        f"SushiGo, {n} players; you are seat {_count(state[S_SEAT])}. "
        f"Round {_count(state[S_ROUND])} of {NUM_ROUNDS}, turn {_count(state[S_TURN])} of {hand}."
    ]
    if over:
        lines.append("The game is over: " + ("you won." if state[S_WON] > 0.5 else "you did not win."))
    else:
        lines.append(f"Your hand: {_cards_text(state, S_HAND)}.")
        if any(_count(state[S_PICKED + k]) for k in range(NUM_KINDS)):
            lines.append(f"You took this turn (hidden until everybody has moved): {_cards_text(state, S_PICKED)}.")
        left = _count(state[S_PICKS_LEFT])
        if left == 0:
            lines.append("Your move this turn is done; waiting for the others.")
        elif state[S_CHOPSTICKS] > 0.5:
            lines.append(f"You use chopsticks: take {left} more card{'s' if left > 1 else ''}.")
        else:
            chopsticks = isValidAction(state, USE_CHOPSTICKS)
            lines.append("Take one card" + (" or use chopsticks to take two." if chopsticks else "."))
    for rel in range(n):
        base = S_SEATS + rel * SEAT_BLOCK
        name = _seat_name(rel, n)
        puddings = _count(state[base + B_PUDDINGS])
        text = f"{name}: {_count(state[base + B_POINTS])} points, {puddings} pudding{'s' if puddings != 1 else ''}"
        if over:
            text += (
                f", puddings +{_count(state[base + B_PUDDING_WON])} -{_count(state[base + B_PUDDING_LOST])}, "
                f"total {_total(state, base)}" + (" (winner)" if state[base + B_WINNER] > 0.5 else "")
            )
        else:
            text += f"; table this round: {_cards_text(state, base + B_TABLE)}"
            if rel > 0 and state[base + B_HAND_KNOWN] > 0.5:
                text += f"; holds the hand: {_cards_text(state, base + B_HAND)}"
        lines.append(text + ".")
    if _count(state[S_ROUND]) > 1:
        lines.append(f"Played in earlier rounds (all players): {_cards_text(state, S_EARLIER)}.")
    return "\n".join(lines)


# ---- drawing -----------------------------------------------------------------------------------


def _card(x: float, y: float, kind: int, count: int, action: int | None, faded: bool = False) -> str:
    colour = KIND_COLOURS[kind]
    attrs = f' data-action="{action}" style="cursor:pointer"' if action is not None else ""
    opacity = ' opacity="0.45"' if faded else ""
    title = f"<title>{escape(describe_action(action))}</title>" if action is not None else ""
    parts = [
        f'<g transform="translate({x},{y})"{attrs}{opacity}>{title}',
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="9" fill="#ffffff" stroke="{colour}" '
        f'stroke-width="{4 if action is not None else 2}"/>',
        f'<rect x="4" y="4" width="{CARD_W - 8}" height="40" rx="6" fill="{colour}"/>',
        f'<text x="{CARD_W / 2}" y="29" text-anchor="middle" font-size="12" font-weight="bold" fill="#ffffff"'
        f"{_fit(SHORT_NAMES[kind], CARD_W - 12)}>{escape(SHORT_NAMES[kind])}</text>",
        f'<text x="{CARD_W / 2}" y="80" text-anchor="middle" font-size="26" font-weight="bold" fill="{INK}">'
        f"×{count}</text>",
        "</g>",
    ]
    return "".join(parts)


def _chips(x: float, y: float, state, start: int, width: float) -> str:
    """Small labelled chips for a set of card counts, wrapping within ``width``."""
    parts, cx, cy = [], x, y
    for k in range(NUM_KINDS):
        c = _count(state[start + k])
        if not c:
            continue
        label = f"{SHORT_NAMES[k]} ×{c}"
        w = 10 + 7.2 * len(label)
        if cx + w > x + width:
            cx, cy = x, cy + 24
        parts.append(
            f'<rect x="{cx}" y="{cy}" width="{w}" height="20" rx="5" fill="{KIND_COLOURS[k]}"/>'
            f'<text x="{cx + w / 2}" y="{cy + 14.5}" text-anchor="middle" font-size="12" '
            f'fill="#ffffff" font-weight="bold">{escape(label)}</text>'
        )
        cx += w + 6
    if not parts:
        parts.append(f'<text x="{x}" y="{y + 15}" font-size="13" fill="{GREY}">no cards yet</text>')
    return "".join(parts)


def render(state) -> str:
    """An SVG picture of a SushiGo state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"SushiGo.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    n = _players(state)
    over = state[S_OVER] > 0.5
    left = _count(state[S_PICKS_LEFT])
    row_h = 84
    top_hand = 96
    top_seats = top_hand + (56 + 22 * n if over else CARD_H + 70)
    height = top_seats + n * row_h + 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="14" fill="#fbf7f0"/>',
        f'<text x="24" y="32" font-size="15" fill="{GREY}">SushiGo · {n} players · round '
        f"{_count(state[S_ROUND])} of {NUM_ROUNDS} · turn {_count(state[S_TURN])} of {12 - n}</text>",
    ]
    if over:
        won = state[S_WON] > 0.5
        head, colour = ("You won!" if won else "Game over: you did not win"), (GREEN if won else RED)
    elif left == 0:
        head, colour = "Waiting for the other players to take their cards", INK
    elif state[S_CHOPSTICKS] > 0.5:
        head, colour = f"Chopsticks: take {left} more card{'s' if left > 1 else ''}", INK
    else:
        head, colour = "Take a card (your pick stays hidden until everybody has taken one)", INK
    parts.append(
        f'<text x="24" y="58" font-size="20" font-weight="bold" fill="{colour}" data-prompt="">{escape(head)}</text>'
    )

    # ---- my hand (or the final scores)
    if over:
        parts.append(
            f'<text x="24" y="{top_hand + 20}" font-size="15" fill="{INK}">Final scores (points from '
            "cards and maki, puddings won and lost):</text>"
        )
        for rel in range(n):
            base = S_SEATS + rel * SEAT_BLOCK
            winner = state[base + B_WINNER] > 0.5
            text = (
                f": {_count(state[base + B_POINTS])} "
                f"+{_count(state[base + B_PUDDING_WON])} -{_count(state[base + B_PUDDING_LOST])} = "
                f"{_total(state, base)}" + ("  ★ winner" if winner else "")
            )
            parts.append(
                f'<text x="40" y="{top_hand + 46 + 22 * rel}" font-size="15" '
                f'font-weight="{"bold" if winner else "normal"}" fill="{GREEN if winner else INK}">'
                f"{_name_markup(rel, n)}{escape(text)}</text>"
            )
    else:
        parts.append(f'<text x="24" y="{top_hand - 6}" font-size="14" fill="{GREY}">Your hand</text>')
        x = 24
        for k in range(NUM_KINDS):
            c = _count(state[S_HAND + k])
            if not c:
                continue
            playable = isValidAction(state, k)
            parts.append(_card(x, top_hand, k, c, k if playable else None, faded=left == 0))
            x += CARD_W + CARD_GAP
        bx = max(x + 10, WIDTH - 200)
        if isValidAction(state, USE_CHOPSTICKS):
            parts.append(
                f'<g data-action="{USE_CHOPSTICKS}" style="cursor:pointer"><title>Use chopsticks</title>'
                f'<rect x="{bx}" y="{top_hand}" width="176" height="44" rx="8" fill="{KIND_COLOURS[11]}"/>'
                f'<text x="{bx + 88}" y="{top_hand + 20}" text-anchor="middle" font-size="14" '
                'fill="#ffffff" font-weight="bold">Use chopsticks</text>'
                f'<text x="{bx + 88}" y="{top_hand + 37}" text-anchor="middle" font-size="11" '
                'fill="#ffffff">take two cards this turn</text></g>'
            )
        if any(_count(state[S_PICKED + k]) for k in range(NUM_KINDS)):
            parts.append(
                f'<text x="{bx}" y="{top_hand + 66}" font-size="13" fill="{GREY}">Taken this turn (hidden):</text>'
            )
            parts.append(_chips(bx, top_hand + 74, state, S_PICKED, WIDTH - bx - 16))

    # ---- every seat's table
    parts.append(
        f'<text x="24" y="{top_seats - 14}" font-size="14" fill="{GREY}">'
        + (
            "Tables of the last round"
            if over
            else "Tables this round (points so far from cards and maki; "
            'puddings count at the end; "holds": a hand you saw this round)'
        )
        + "</text>"
    )
    for rel in range(n):
        base = S_SEATS + rel * SEAT_BLOCK
        y = top_seats + rel * row_h
        fill = "#eef4ff" if rel == 0 else "#ffffff"
        parts.append(
            f'<rect x="16" y="{y}" width="{WIDTH - 32}" height="{row_h - 8}" rx="10" fill="{fill}" stroke="#d6d3cc"/>'
        )
        puddings = _count(state[base + B_PUDDINGS])
        parts.append(
            f'<text x="28" y="{y + 22}" font-size="14" font-weight="bold" fill="{INK}">{_name_markup(rel, n)}</text>'
        )
        role = _seat_name(rel, n).partition(" (")[2].rstrip(")")
        if role:
            parts.append(f'<text x="28" y="{y + 66}" font-size="12" fill="{GREY}">{escape(role)}</text>')
        parts.append(
            f'<text x="28" y="{y + 44}" font-size="13" fill="{INK}">'
            f"{_count(state[base + B_POINTS])} points · "
            f"{puddings} pudding{'s' if puddings != 1 else ''} · {_maki(state, base)} maki</text>"
        )
        parts.append(_chips(300, y + 8, state, base + B_TABLE, WIDTH - 330))
        if rel > 0 and state[base + B_HAND_KNOWN] > 0.5 and not over:
            parts.append(f'<text x="250" y="{y + 55}" font-size="11" fill="{GREY}">holds</text>')
            parts.append(f'<g opacity="0.6">{_chips(300, y + 42, state, base + B_HAND, WIDTH - 330)}</g>')
    parts.append("</svg>")
    return "".join(parts)
