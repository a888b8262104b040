"""Fan Tan drawings and words, from one player's view. Python only.

``render(state)`` draws the other players (cards, chips, who moves), the table as four suit rows
from Ace to King (the cards that fit next outlined), the pot, the player's hand (cards that fit
are clickable) and the Pass button; at the end the winners. ``describe_action`` names an action;
``describe_state`` puts the state in words.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    NUM_CARDS,
    NUM_PLAYERS,
    NUM_RANKS,
    NUM_SUITS,
    PASS,
    RANK_NAMES,
    S_CHIPS,
    S_DEALS,
    S_HAND,
    S_LAST_POT,
    S_LAST_TAKER,
    S_OTHER_CHIPS,
    S_OTHER_COUNTS,
    S_OVER,
    S_PLAYABLE,
    S_POT,
    S_SEAT,
    S_TABLE,
    S_TO_MOVE,
    S_WINNERS,
    S_WON,
    STATE_SIZE,
    SUIT_NAMES,
    isValidAction,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 980
CARD_W, CARD_H, GAP = 50, 72, 5
SLOT_W, SLOT_H = 44, 30
SUIT_SYMBOLS = ("♠", "♣", "♦", "♥")
RANK_SHORT = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
GREEN, RED, GREY, INK, BLUE, FELT = "#1d8a4e", "#c0392b", "#6b7280", "#1f2430", "#2f6fde", "#1e6b45"
SEAT_NAMES = ("You", "Next player", "Player across", "Previous player")


def card_name(card: int) -> str:
    """ "Seven of Hearts"."""
    return f"{RANK_NAMES[card % NUM_RANKS]} of {SUIT_NAMES[card // NUM_RANKS]}"


def card_short(card: int) -> str:
    """ "7♥"."""
    return RANK_SHORT[card % NUM_RANKS] + SUIT_SYMBOLS[card // NUM_RANKS]


def describe_action(action: int) -> str:
    """What an action means: "Play Seven of Hearts" or "Pass (put 1 chip in the pot)"."""
    a = int(action)
    if 0 <= a < NUM_CARDS:
        return f"Play {card_name(a)}"
    if a == PASS:
        return "Pass (put 1 chip in the pot)"
    return f"Unknown action {a}"


def _count(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _flags(state, start: int, length: int = NUM_CARDS) -> list[int]:
    return [i for i in range(length) if state[start + i] > 0.5]


def _plural(count: int, word: str) -> str:
    """ "1 chip", "3 chips"."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def _cards_text(cards: list[int]) -> str:
    return ", ".join(card_short(c) for c in cards) if cards else "none"


def _others(state, rel: int) -> tuple[int, int]:
    """Cards and chips of the player ``rel`` seats after me."""
    return _count(state[S_OTHER_COUNTS + rel - 1]), _count(state[S_OTHER_CHIPS + rel - 1])


def _winners(state) -> list[int]:
    return _flags(state, S_WINNERS, NUM_PLAYERS)


def _headline(state) -> tuple[str, str]:
    if state[S_OVER] > 0.5:
        winners = _winners(state)
        if state[S_WON] > 0.5:
            return ("You won: most chips!" if len(winners) == 1 else "You share first place!"), GREEN
        names = " and ".join(SEAT_NAMES[r].lower() for r in winners) or "nobody"
        return f"Game over: {names} won", RED
    if state[S_TO_MOVE] > 0.5:
        if any(isValidAction(state, c) for c in range(NUM_CARDS)):
            return "Play a card that fits, or pass (1 chip)", INK
        return "No card fits: pass (1 chip)", INK
    return "Waiting for the other players", GREY


def _last_deal(state) -> str:
    takers = _flags(state, S_LAST_TAKER, NUM_PLAYERS)
    if not takers:
        return ""
    who = SEAT_NAMES[takers[0]].lower()
    return f"Last deal: {who} went out and took {_plural(_count(state[S_LAST_POT]), 'chip')}."


def describe_state(state) -> str:
    """The state in words: chips, pot, the table by suit, my hand, the others, whose move, the result."""
    state = np.asarray(state, dtype=np.float64)
    lines = [
        f"Fan Tan, 4 players; you are seat {_count(state[S_SEAT])}. Deals finished: "
        f"{_count(state[S_DEALS])}. Pot: {_plural(_count(state[S_POT]), 'chip')}. Your chips: {_count(state[S_CHIPS])}."
    ]
    head, _ = _headline(state)
    lines.append(head + ".")
    for s in range(NUM_SUITS):
        played = [c for c in range(s * NUM_RANKS, (s + 1) * NUM_RANKS) if state[S_TABLE + c] > 0.5]
        row = f"{card_short(played[0])} to {card_short(played[-1])}" if played else "not opened"
        fit = [c for c in range(s * NUM_RANKS, (s + 1) * NUM_RANKS) if state[S_PLAYABLE + c] > 0.5]
        lines.append(f"{SUIT_NAMES[s]} on the table: {row}; fits next: {_cards_text(fit)}.")
    hand = _flags(state, S_HAND)
    lines.append(f"Your hand ({len(hand)}): {_cards_text(hand)}.")
    for rel in range(1, NUM_PLAYERS):
        cards, chips = _others(state, rel)
        turn = " (to move)" if state[S_TO_MOVE + rel] > 0.5 else ""
        lines.append(f"{SEAT_NAMES[rel]}{turn}: {_plural(cards, 'card')}, {_plural(chips, 'chip')}.")
    last = _last_deal(state)
    if last:
        lines.append(last)
    return "\n".join(lines)


# ---- drawing -----------------------------------------------------------------------------------


def _card(x: float, y: float, card: int, action: int | None = None) -> str:
    colour = RED if card // NUM_RANKS in (2, 3) else INK
    attrs = f' data-action="{action}" style="cursor:pointer"' if action is not None else ""
    title = escape(describe_action(action) if action is not None else card_name(card))
    return (
        f'<g transform="translate({x},{y})"{attrs}><title>{title}</title>'
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="6" fill="#ffffff" '
        f'stroke="{BLUE if action is not None else "#9ca3af"}" stroke-width="{3 if action is not None else 1.5}"/>'
        f'<text x="{CARD_W / 2}" y="{CARD_H * 0.42}" text-anchor="middle" font-size="18" font-weight="bold" '
        f'fill="{colour}">{RANK_SHORT[card % NUM_RANKS]}</text>'
        f'<text x="{CARD_W / 2}" y="{CARD_H * 0.8}" text-anchor="middle" font-size="22" fill="{colour}">'
        f"{SUIT_SYMBOLS[card // NUM_RANKS]}</text></g>"
    )


def _slot(x: float, y: float, card: int, state) -> str:
    """One place of a suit row: the played card, an outline where a card fits next, or nothing."""
    colour = RED if card // NUM_RANKS in (2, 3) else INK
    label = f'<text x="{x + SLOT_W / 2}" y="{y + 21}" text-anchor="middle" font-size="15" font-weight="bold" '
    if state[S_TABLE + card] > 0.5:
        return (
            f'<rect x="{x}" y="{y}" width="{SLOT_W}" height="{SLOT_H}" rx="4" fill="#ffffff" stroke="#9ca3af"/>'
            f'{label}fill="{colour}">{card_short(card)}</text>'
        )
    if state[S_PLAYABLE + card] > 0.5:
        return (
            f'<rect x="{x}" y="{y}" width="{SLOT_W}" height="{SLOT_H}" rx="4" fill="none" stroke="#f2c94c" '
            f'stroke-width="2" stroke-dasharray="4 3"/>{label}fill="#f2c94c" opacity="0.7">{card_short(card)}</text>'
        )
    return ""


def _seat_name_markup(rel: int) -> str:
    """Another seat's name, marked so the browser page can write in its own name for it."""
    return f'<tspan data-relative-seat="{rel}">{escape(SEAT_NAMES[rel])}</tspan>'


def _seat_panel(x: float, y: float, rel: int, state) -> str:
    cards, chips = _others(state, rel)
    moving = state[S_TO_MOVE + rel] > 0.5
    winner = state[S_OVER] > 0.5 and rel in _winners(state)
    border = GREEN if winner else (BLUE if moving else "#cbd5e1")
    parts = [
        f'<rect x="{x}" y="{y}" width="290" height="92" rx="10" fill="#ffffff" stroke="{border}" '
        f'stroke-width="{3 if moving or winner else 1.5}"/>',
        f'<text x="{x + 12}" y="{y + 22}" font-size="14" font-weight="bold" fill="{INK}">'
        f"{_seat_name_markup(rel)} · {_plural(chips, 'chip')}{' · winner' if winner else ''}"
        f"{' · to move' if moving else ''}</text>",
        f'<text x="{x + 12}" y="{y + 82}" font-size="12" fill="{GREY}">{_plural(cards, "card")}</text>',
    ]
    for i in range(min(cards, 13)):
        parts.append(
            f'<rect x="{x + 12 + i * 20}" y="{y + 32}" width="30" height="36" rx="4" fill="#34495e" '
            f'stroke="#ffffff" stroke-width="1.5"/>'
        )
    return "".join(parts)


def render(state) -> str:
    """An SVG picture of a Fan Tan state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"Fantan.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    head, head_colour = _headline(state)
    hand = _flags(state, S_HAND)
    moving = state[S_TO_MOVE] > 0.5 and state[S_OVER] < 0.5
    hand_y = 390
    height = hand_y + 26 + CARD_H + 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="14" fill="#f4f1ea"/>',
        f'<text x="24" y="30" font-size="15" fill="{GREY}">Fan Tan · build the suits from the Sevens · '
        f"deals finished {_count(state[S_DEALS])} · {escape(_last_deal(state))}</text>",
        f'<text x="24" y="58" font-size="21" font-weight="bold" fill="{head_colour}" data-prompt="">{escape(head)}</text>',
    ]
    for i, rel in enumerate((3, 2, 1)):
        parts.append(_seat_panel(24 + i * 316, 74, rel, state))
    # the table: one row per suit, Ace to King
    ty = 180
    parts.append(f'<rect x="24" y="{ty}" width="{WIDTH - 48}" height="196" rx="12" fill="{FELT}"/>')
    for s in range(NUM_SUITS):
        y = ty + 12 + s * (SLOT_H + 16)
        parts.append(
            f'<text x="44" y="{y + 22}" font-size="20" fill="#ffffff">{SUIT_SYMBOLS[s]}</text>'
            + "".join(_slot(76 + r * (SLOT_W + 6), y, s * NUM_RANKS + r, state) for r in range(NUM_RANKS))
        )
    parts.append(
        f'<text x="{WIDTH - 120}" y="{ty + 80}" text-anchor="middle" font-size="14" fill="#d1fae5">Pot</text>'
        f'<text x="{WIDTH - 120}" y="{ty + 114}" text-anchor="middle" font-size="30" font-weight="bold" '
        f'fill="#f2c94c">{_count(state[S_POT])}</text>'
    )
    # my hand
    label = f"Your hand · {_plural(len(hand), 'card')} · {_plural(_count(state[S_CHIPS]), 'chip')}"
    parts.append(
        f'<text x="24" y="{hand_y + 14}" font-size="14" font-weight="bold" fill="{BLUE if moving else INK}">'
        f"{label}</text>"
    )
    for i, c in enumerate(hand):
        playable = moving and isValidAction(state, c)
        parts.append(_card(24 + i * (CARD_W + GAP), hand_y + 26, c, action=c if playable else None))
    if moving or state[S_OVER] > 0.5:
        text, fill = ("Pass · 1 chip", BLUE) if moving else ("End", GREY)
        parts.append(
            f'<g data-action="{PASS}" style="cursor:pointer"><title>{escape(describe_action(PASS) if moving else "End")}</title>'
            f'<rect x="{WIDTH - 200}" y="{hand_y + 26}" width="176" height="48" rx="8" fill="{fill}"/>'
            f'<text x="{WIDTH - 112}" y="{hand_y + 56}" text-anchor="middle" font-size="17" font-weight="bold" '
            f'fill="#ffffff">{text}</text></g>'
        )
    parts.append("</svg>")
    return "".join(parts)
