"""Century drawings and words, from one player's view. Python only.

``render(state)`` draws the point-card row (coins on the first two places), the merchant row with
the spices lying on its cards, the other players (score, points, coins, caravan, cards), and the
player's own caravan and hand. What the player may do is clickable: a point card to buy, a
merchant card to take, a card of the hand to play, a spice to put down or raise, Rest, Stop.
``describe_action`` names an action; ``describe_state`` puts the state in words.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    B_CARDS,
    B_GOLD,
    B_HAND,
    B_POINTS,
    B_PRESENT,
    B_SCORE,
    B_SILVER,
    B_SPICES,
    BUY,
    CARD_GAIN,
    CARD_PAY,
    CARD_UPGRADES,
    DISCARD,
    IN_HAND,
    MAIN,
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_MERCHANT,
    NUM_SPICES,
    PLACE,
    PLAY,
    PLAYED,
    POINT_BLOCK,
    POINT_COST,
    POINT_ROW,
    POINT_VALUE,
    RAISE,
    REPEAT,
    REST,
    ROW,
    ROW_BLOCK,
    S_COUNT,
    S_GOLD,
    S_MDECK_LEFT,
    S_OVER,
    S_PDECK_LEFT,
    S_PENDING,
    S_PLACED,
    S_PLAYERS,
    S_POINT_ROW,
    S_ROW,
    S_ROW_SPICES,
    S_SEAT,
    S_SEATS,
    S_SILVER,
    S_TO_MOVE,
    S_WINNERS,
    S_WON,
    SEAT_BLOCK,
    SPICE,
    SPICE_NAMES,
    STATE_SIZE,
    STOP,
    TAKE,
    UPGRADE,
    isValidAction,
    state_phase,
    target_cards,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 980
SPICE_COLOURS = ("#f2c94c", "#d64541", "#2e9e5b", "#7b4a2a")
INK, GREY, BLUE, GREEN, RED, SAND = "#1f2430", "#6b7280", "#2f6fde", "#1d8a4e", "#c0392b", "#f4ecd8"
GOLD_COLOUR, SILVER_COLOUR = "#d4a017", "#a8b0b8"


def seat_name(rel: int) -> str:
    """ "You", "Next player", "Player 2 seats on"."""
    return ("You", "Next player")[rel] if rel < 2 else f"Player {rel} seats on"


def spice_list(counts) -> str:
    """ "2 yellow + 1 brown" ("nothing" for none)."""
    parts = [f"{int(counts[s])} {SPICE_NAMES[s]}" for s in range(NUM_SPICES) if counts[s] > 0]
    return " + ".join(parts) if parts else "nothing"


def card_text(card: int) -> str:
    """What merchant card ``card`` does: "gain 2 yellow", "3 yellow -> 1 brown", "upgrade 2"."""
    if CARD_UPGRADES[card] > 0:
        return f"upgrade {int(CARD_UPGRADES[card])}"
    if not CARD_PAY[card].any():
        return f"gain {spice_list(CARD_GAIN[card])}"
    return f"{spice_list(CARD_PAY[card])} -> {spice_list(CARD_GAIN[card])}"


def describe_action(action: int) -> str:
    """What an action means."""
    a = int(action)
    if a == REST:
        return "Rest (take your played cards back)"
    if TAKE <= a < BUY:
        k = a - TAKE
        cost = f", leaving a spice on each of the {k} cards before it" if k else ""
        return f"Take the merchant card at place {k + 1}{cost}"
    if BUY <= a < PLAY:
        return f"Buy the point card at place {a - BUY + 1}"
    if PLAY <= a < SPICE:
        return f"Play merchant card {a - PLAY} ({card_text(a - PLAY)})"
    if SPICE <= a < STOP:
        return f"Put down a {SPICE_NAMES[a - SPICE]} spice"
    if a == STOP:
        return "Stop trading"
    if UPGRADE <= a < NUM_ACTIONS:
        s = a - UPGRADE
        return f"Upgrade a {SPICE_NAMES[s]} spice to {SPICE_NAMES[s + 1]}"
    return f"Unknown action {a}"


def _count(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _seat(state, rel: int) -> np.ndarray:
    return state[S_SEATS + rel * SEAT_BLOCK : S_SEATS + (rel + 1) * SEAT_BLOCK]


def _players(state) -> int:
    return min(max(_count(state[S_PLAYERS]), 2), MAX_PLAYERS)


def _row_card(state, k: int) -> int:
    return _count(state[S_ROW + k * ROW_BLOCK]) - 1


def _point_card(state, k: int) -> int:
    return _count(state[S_POINT_ROW + k * POINT_BLOCK]) - 1


def _coin(state, k: int) -> str:
    """The coin lying on point place ``k``: "gold", "silver" or ""."""
    gold, silver = state[S_GOLD] > 0, state[S_SILVER] > 0
    if k == 0:
        return "gold" if gold else ("silver" if silver else "")
    return "silver" if k == 1 and gold and silver else ""


def _headline(state) -> tuple[str, str]:
    if state[S_OVER] > 0.5:
        if state[S_WON] > 0.5:
            return "You won: highest score!", GREEN
        winner = next((r for r in range(_players(state)) if state[S_WINNERS + r] > 0.5), 0)
        return f"Game over: {seat_name(winner).lower()} won", RED
    phase = state_phase(state)
    count = _count(state[S_COUNT])
    if phase == MAIN:
        return "Your turn: play a card, take a merchant card, buy a point card or rest", INK
    if phase == PLACE:
        return f"Put a spice on merchant card {_count(state[S_PLACED]) + 1} ({count} still to put down)", INK
    if phase == REPEAT:
        return "Trade again, or stop", INK
    if phase == DISCARD:
        return f"Your caravan holds 10: discard {count} spice{'s' if count > 1 else ''}", INK
    if phase == RAISE:
        return f"Upgrade a spice ({count} step{'s' if count > 1 else ''} left)", INK
    return "Waiting for the other players", GREY


def describe_state(state) -> str:
    """The state in words: the rows, every player's caravan and score, my hand, whose move."""
    state = np.asarray(state, dtype=np.float64)
    n = _players(state)
    lines = [
        f"Century: Spice Road, {n} players; you are seat {_count(state[S_SEAT])}. The game ends when "
        f"someone has {target_cards(n)} point cards, once play returns to seat 0. Score: points + 1 per "
        f"non-yellow spice. Coins left: {_count(state[S_GOLD])} gold (3 points), "
        f"{_count(state[S_SILVER])} silver (1 point). Caravan limit: 10 spices.",
        _headline(state)[0] + ".",
        "Point cards on show:",
    ]
    for k in range(POINT_ROW):
        card = _point_card(state, k)
        if card >= 0:
            coin = f" + {_coin(state, k)} coin" if _coin(state, k) else ""
            lines.append(f"  place {k + 1}: {int(POINT_VALUE[card])} points{coin} for {spice_list(POINT_COST[card])}")
    lines.append(
        f"Merchant cards on show (deck {_count(state[S_MDECK_LEFT])}, point deck {_count(state[S_PDECK_LEFT])}):"
    )
    for k in range(ROW):
        card = _row_card(state, k)
        if card >= 0:
            lying = state[S_ROW_SPICES + k * NUM_SPICES : S_ROW_SPICES + (k + 1) * NUM_SPICES]
            extra = f" (with {spice_list(lying)} on it)" if lying.any() else ""
            lines.append(f"  place {k + 1}: card {card}, {card_text(card)}{extra}")
    for rel in range(n):
        seat = _seat(state, rel)
        turn = " (to move)" if state[S_TO_MOVE + rel] > 0.5 else ""
        hand = [c for c in range(NUM_MERCHANT) if seat[B_HAND + c] == IN_HAND]
        played = [c for c in range(NUM_MERCHANT) if seat[B_HAND + c] == PLAYED]
        lines.append(
            f"{seat_name(rel)}{turn}: score {_count(seat[B_SCORE])} ({_count(seat[B_POINTS])} points, "
            f"{_count(seat[B_CARDS])} point cards, {_count(seat[B_GOLD])} gold, {_count(seat[B_SILVER])} silver); "
            f"caravan {spice_list(seat[B_SPICES : B_SPICES + NUM_SPICES])}."
        )
        lines.append(
            "  hand: "
            + ("; ".join(f"card {c} ({card_text(c)})" for c in hand) or "empty")
            + ". Played: "
            + (", ".join(f"card {c}" for c in played) or "none")
            + "."
        )
    return "\n".join(lines)


# ---- drawing -----------------------------------------------------------------------------------


def _clickable(action: int | None) -> str:
    return f' data-action="{action}" style="cursor:pointer"' if action is not None else ""


def _dots(x: float, y: float, counts, r: float = 7, step: float = 17) -> str:
    """A row of spice dots, ``counts[s]`` of each spice, cheapest first."""
    parts, i = [], 0
    for s in range(NUM_SPICES):
        for _ in range(_count(counts[s])):
            parts.append(
                f'<circle cx="{x + i * step + r}" cy="{y}" r="{r}" fill="{SPICE_COLOURS[s]}" stroke="#ffffff" stroke-width="1"/>'
            )
            i += 1
    return "".join(parts)


def _card_face(x: float, y: float, card: int, w: float, h: float) -> str:
    """The inside of a merchant card: what it pays above the arrow, what it gives below."""
    if CARD_UPGRADES[card] > 0:
        return (
            f'<text x="{x + w / 2}" y="{y + h / 2 + 4}" text-anchor="middle" font-size="14" font-weight="bold" '
            f'fill="{INK}">Upgrade ×{int(CARD_UPGRADES[card])}</text>'
        )
    pays = CARD_PAY[card].any()
    return (
        (_dots(x + 8, y + 20, CARD_PAY[card], 6, 14) if pays else "")
        + f'<text x="{x + w / 2}" y="{y + h / 2 + 5}" text-anchor="middle" font-size="14" fill="{GREY}">'
        + ("↓" if pays else "gain")
        + "</text>"
        + _dots(x + 8, y + h - 16, CARD_GAIN[card], 6, 14)
    )


def _merchant_card(x, y, card, action, w=140, h=84, faded=False, title="") -> str:
    stroke, width = (BLUE, 3) if action is not None else ("#9ca3af", 1.5)
    return (
        f'<g{_clickable(action)} opacity="{0.45 if faded else 1}"><title>{escape(title or card_text(card))}</title>'
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="8" fill="#ffffff" stroke="{stroke}" stroke-width="{width}"/>'
        f"{_card_face(x, y, card, w, h)}</g>"
    )


def _point_cards(state, y: float) -> str:
    parts = [f'<text x="24" y="{y - 8}" font-size="14" font-weight="bold" fill="{INK}">Point cards</text>']
    for k in range(POINT_ROW):
        card = _point_card(state, k)
        if card < 0:
            continue
        x = 24 + k * 190
        action = BUY + k if isValidAction(state, BUY + k) else None
        stroke, width = (BLUE, 3) if action is not None else ("#9ca3af", 1.5)
        parts.append(
            f"<g{_clickable(action)}><title>{escape(describe_action(BUY + k))}</title>"
            f'<rect x="{x}" y="{y}" width="176" height="70" rx="8" fill="#fffaf0" stroke="{stroke}" stroke-width="{width}"/>'
            f'<text x="{x + 12}" y="{y + 30}" font-size="22" font-weight="bold" fill="{INK}">{int(POINT_VALUE[card])}</text>'
            f"{_dots(x + 54, y + 24, POINT_COST[card], 7, 17)}</g>"
        )
        coin = _coin(state, k)
        if coin:
            colour = GOLD_COLOUR if coin == "gold" else SILVER_COLOUR
            parts.append(
                f'<circle cx="{x + 22}" cy="{y + 52}" r="10" fill="{colour}" stroke="#ffffff"/>'
                f'<text x="{x + 38}" y="{y + 57}" font-size="12" fill="{GREY}">+{3 if coin == "gold" else 1} {coin}</text>'
            )
    return "".join(parts)


def _merchant_row(state, y: float) -> str:
    parts = [
        f'<text x="24" y="{y - 8}" font-size="14" font-weight="bold" fill="{INK}">Merchant cards '
        f'<tspan font-weight="normal" fill="{GREY}">(taking one leaves a spice on each card before it)</tspan></text>'
    ]
    for k in range(ROW):
        card = _row_card(state, k)
        if card < 0:
            continue
        x = 24 + k * 156
        action = TAKE + k if isValidAction(state, TAKE + k) else None
        parts.append(_merchant_card(x, y, card, action, title=f"{describe_action(TAKE + k)}: {card_text(card)}"))
        lying = state[S_ROW_SPICES + k * NUM_SPICES : S_ROW_SPICES + (k + 1) * NUM_SPICES]
        parts.append(_dots(x + 4, y + 98, lying, 6, 13))
    return "".join(parts)


def _seat_name_markup(rel: int) -> str:
    """A seat's name, marked so the browser page can write in its own name for it."""
    return f'<tspan data-relative-seat="{rel}">{escape(seat_name(rel))}</tspan>'


def _other_seat(state, rel: int, x: float, y: float, w: float) -> str:
    seat = _seat(state, rel)
    moving = state[S_TO_MOVE + rel] > 0.5
    winner = state[S_OVER] > 0.5 and state[S_WINNERS + rel] > 0.5
    border = GREEN if winner else (BLUE if moving else "#cbd5e1")
    hand = int(np.count_nonzero(seat[B_HAND : B_HAND + NUM_MERCHANT] == IN_HAND))
    played = int(np.count_nonzero(seat[B_HAND : B_HAND + NUM_MERCHANT] == PLAYED))
    return (
        f'<rect x="{x}" y="{y}" width="{w}" height="92" rx="10" fill="#ffffff" stroke="{border}" '
        f'stroke-width="{3 if moving or winner else 1.5}"/>'
        f'<text x="{x + 10}" y="{y + 20}" font-size="13" font-weight="bold" fill="{INK}">{_seat_name_markup(rel)}'
        f"{' · winner' if winner else ''}{' · to move' if moving else ''}</text>"
        f'<text x="{x + 10}" y="{y + 40}" font-size="12" fill="{INK}">score {_count(seat[B_SCORE])} · '
        f"{_count(seat[B_POINTS])} pts · {_count(seat[B_CARDS])} cards · {_count(seat[B_GOLD])}g {_count(seat[B_SILVER])}s</text>"
        f"{_dots(x + 10, y + 58, seat[B_SPICES : B_SPICES + NUM_SPICES], 6, 13)}"
        f'<text x="{x + 10}" y="{y + 84}" font-size="11" fill="{GREY}">{hand} in hand · {played} played</text>'
    )


def _my_area(state, y: float) -> tuple[str, float]:
    """My caravan (spice buttons when a spice is to be chosen), the buttons and my hand."""
    me = _seat(state, 0)
    phase = state_phase(state)
    parts = [
        f'<text x="24" y="{y}" font-size="15" font-weight="bold" fill="{INK}">{_seat_name_markup(0)} · score '
        f"{_count(me[B_SCORE])} · {_count(me[B_POINTS])} points · {_count(me[B_CARDS])} point cards · "
        f"{_count(me[B_GOLD])} gold, {_count(me[B_SILVER])} silver</text>",
        f'<text x="24" y="{y + 30}" font-size="13" fill="{GREY}">Caravan</text>',
    ]
    for s in range(NUM_SPICES):
        x = 90 + s * 104
        count = _count(me[B_SPICES + s])
        action = None
        if phase in (PLACE, DISCARD) and isValidAction(state, SPICE + s):
            action = SPICE + s
        elif phase == RAISE and s < NUM_SPICES - 1 and isValidAction(state, UPGRADE + s):
            action = UPGRADE + s
        stroke = f' stroke="{BLUE}" stroke-width="3"' if action is not None else ' stroke="#ffffff"'
        title = describe_action(action) if action is not None else SPICE_NAMES[s]
        parts.append(
            f"<g{_clickable(action)}><title>{escape(title)}</title>"
            f'<rect x="{x}" y="{y + 12}" width="96" height="30" rx="15" fill="{SPICE_COLOURS[s]}"{stroke}/>'
            f'<text x="{x + 48}" y="{y + 32}" text-anchor="middle" font-size="14" font-weight="bold" '
            f'fill="#ffffff">{count} {SPICE_NAMES[s]}</text></g>'
        )
    buttons = []
    if state[S_OVER] > 0.5:
        buttons.append((REST, "End"))
    elif phase == MAIN:
        buttons.append((REST, "Rest"))
    elif phase == REPEAT:
        buttons.append((STOP, "Stop trading"))
    for i, (action, label) in enumerate(buttons):
        x = WIDTH - 200 - i * 190
        parts.append(
            f"<g{_clickable(action)}><title>{escape(describe_action(action) if label != 'End' else 'End')}</title>"
            f'<rect x="{x}" y="{y + 10}" width="176" height="36" rx="8" fill="{BLUE}"/>'
            f'<text x="{x + 88}" y="{y + 34}" text-anchor="middle" font-size="15" font-weight="bold" fill="#ffffff">'
            f"{label}</text></g>"
        )
    cards = [c for c in range(NUM_MERCHANT) if me[B_HAND + c] in (IN_HAND, PLAYED)]
    top = y + 62
    parts.append(
        f'<text x="24" y="{top}" font-size="13" fill="{GREY}">Your cards (faded: played, back with a rest)</text>'
    )
    pending = _count(state[S_PENDING]) - 1 if phase == REPEAT else -1
    for i, c in enumerate(cards):
        x, cy = 24 + (i % 7) * 134, top + 10 + (i // 7) * 86
        action = PLAY + c if (phase == MAIN or c == pending) and isValidAction(state, PLAY + c) else None
        title = describe_action(PLAY + c) if action is not None else card_text(c)
        faded = me[B_HAND + c] == PLAYED and c != pending
        parts.append(_merchant_card(x, cy, c, action, w=124, h=76, faded=faded, title=title))
    rows = (len(cards) + 6) // 7
    return "".join(parts), top + 10 + rows * 86


def render(state) -> str:
    """An SVG picture of a Century state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"Century.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    n = _players(state)
    head, head_colour = _headline(state)
    others = [
        _other_seat(state, rel, 24 + (rel - 1) * 234, 86, 222) for rel in range(1, n) if _seat(state, rel)[B_PRESENT]
    ]
    body, bottom = _my_area(state, 520)
    height = bottom + 16
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="14" fill="{SAND}"/>',
        f'<text x="24" y="30" font-size="14" fill="{GREY}">Century: Spice Road · {n} players · ends at '
        f"{target_cards(n)} point cards · coins left: {_count(state[S_GOLD])} gold, {_count(state[S_SILVER])} silver · "
        f"decks: {_count(state[S_MDECK_LEFT])} merchant, {_count(state[S_PDECK_LEFT])} point</text>",
        f'<text x="24" y="62" font-size="20" font-weight="bold" fill="{head_colour}" data-prompt="">{escape(head)}</text>',
        *others,
        _point_cards(state, 214),
        _merchant_row(state, 330),
        body,
        "</svg>",
    ]
    return "".join(parts)
