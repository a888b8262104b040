"""Durak drawings and words, from one player's view. Python only.

``render(state)`` draws the trump card and the talon, the table (the card to beat and the beaten
cards), the player's hand (playable cards are clickable), the Pass / Take button, and the other
players with their card counts, roles and the cards everybody knows they hold; at the end the
winner. ``describe_action`` names an action; ``describe_state`` puts the state in words.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    NUM_CARDS,
    NUM_PLAYERS,
    NUM_RANKS,
    PASS,
    RANK_NAMES,
    S_ATTACKING,
    S_COVERED,
    S_DEFENDER,
    S_DEFENDING,
    S_DISCARDED,
    S_HAND,
    S_KNOWN,
    S_OTHER_COUNTS,
    S_OVER,
    S_PASSES,
    S_SEAT,
    S_TALON,
    S_TO_BEAT,
    S_TO_MOVE,
    S_TRUMP_RANK,
    S_TRUMP_SUIT,
    S_WINNER,
    S_WON,
    STATE_SIZE,
    SUIT_NAMES,
    isValidAction,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 980
CARD_W, CARD_H, GAP = 50, 72, 5
HAND_Y = 384
PER_ROW = (WIDTH - 48 - 200) // (CARD_W + GAP)
SUIT_SYMBOLS = ("♠", "♣", "♦", "♥")
RANK_SHORT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
GREEN, RED, GREY, INK, BLUE, FELT = "#1d8a4e", "#c0392b", "#6b7280", "#1f2430", "#2f6fde", "#1e6b45"


def card_name(card: int) -> str:
    """ "Queen of Hearts"."""
    return f"{RANK_NAMES[card % NUM_RANKS]} of {SUIT_NAMES[card // NUM_RANKS]}"


def card_short(card: int) -> str:
    """ "Q♥"."""
    return RANK_SHORT[card % NUM_RANKS] + SUIT_SYMBOLS[card // NUM_RANKS]


def describe_action(action: int) -> str:
    """What an action means: "Play Queen of Hearts" or "Pass (attacker) / take the cards (defender)"."""
    a = int(action)
    if 0 <= a < NUM_CARDS:
        return f"Play {card_name(a)}"
    if a == PASS:
        return "Pass (attacker) / take the cards (defender)"
    return f"Unknown action {a}"


def _flags(state, start: int, length: int = NUM_CARDS) -> list[int]:
    return [i for i in range(length) if state[start + i] > 0.5]


def _one(state, start: int, length: int) -> int:
    found = _flags(state, start, length)
    return found[0] if found else -1


def _trump(state) -> tuple[int, int]:
    suit = max(_one(state, S_TRUMP_SUIT, 4), 0)
    rank = int(state[S_TRUMP_RANK]) if np.isfinite(state[S_TRUMP_RANK]) else 0
    return suit, suit * NUM_RANKS + min(max(rank, 0), NUM_RANKS - 1)


def _player_name(rel: int) -> str:
    return ("You", "Next player", "Player across", "Previous player")[rel]


def _count(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _cards_text(cards: list[int]) -> str:
    return ", ".join(card_short(c) for c in cards) if cards else "none"


def _sorted_hand(cards: list[int], trump: int) -> list[int]:
    return sorted(cards, key=lambda c: (c // NUM_RANKS == trump, c // NUM_RANKS, c % NUM_RANKS))


def _headline(state) -> tuple[str, str]:
    if state[S_OVER] > 0.5:
        return (
            ("You won: no cards left!", GREEN)
            if state[S_WON] > 0.5
            else (f"Game over: {_player_name(max(_one(state, S_WINNER, 4), 0)).lower()} won", RED)
        )
    if state[S_DEFENDING] > 0.5:
        target = _one(state, S_TO_BEAT, NUM_CARDS)
        return f"Beat the {card_name(target)} or take the cards", INK
    if state[S_ATTACKING] > 0.5:
        if not _flags(state, S_COVERED):
            return "Lead: play any card", INK
        return "Add a card of a rank on the table, or pass", INK
    return "Waiting for the other players", GREY


def describe_state(state) -> str:
    """The state in words: trump, talon, table, my hand, the others, whose move it is, the result."""
    state = np.asarray(state, dtype=np.float64)
    trump, trump_card = _trump(state)
    hand = _sorted_hand(_flags(state, S_HAND), trump)
    lines = [
        f"Durak, 4 players; you are seat {_count(state[S_SEAT])}. Trump: {SUIT_NAMES[trump]} "
        f"(the bottom card is the {card_name(trump_card)}). Talon: {_count(state[S_TALON])} cards."
    ]
    head, _ = _headline(state)
    lines.append(head + ".")
    target = _one(state, S_TO_BEAT, NUM_CARDS)
    table = _flags(state, S_COVERED)
    lines.append(
        f"On the table: {'the card to beat is ' + card_short(target) if target >= 0 else 'no card to beat'}; "
        f"beaten and beating cards: {_cards_text(table)}."
    )
    lines.append(f"Your hand ({len(hand)}): {_cards_text(hand)}.")
    defender = _one(state, S_DEFENDER, 4)
    mover = _one(state, S_TO_MOVE, 4)
    for rel in range(1, NUM_PLAYERS):
        known = [c for c in range(NUM_CARDS) if _count(state[S_KNOWN + c]) == rel]
        role = " (defends)" if rel == defender else ""
        turn = " (to move)" if rel == mover and state[S_OVER] < 0.5 else ""
        lines.append(
            f"{_player_name(rel)}{role}{turn}: {_count(state[S_OTHER_COUNTS + rel - 1])} cards"
            + (f", known to hold {_cards_text(known)}" if known else "")
            + "."
        )
    if defender == 0:
        lines.append("You defend this bout.")
    discarded = _flags(state, S_DISCARDED)
    lines.append(f"Discarded ({len(discarded)}): {_cards_text(sorted(discarded))}.")
    if _count(state[S_PASSES]):
        lines.append(f"Passes in a row: {_count(state[S_PASSES])} (three end the bout).")
    return "\n".join(lines)


# ---- drawing -----------------------------------------------------------------------------------


def _card(
    x: float,
    y: float,
    card: int,
    trump: int,
    action: int | None = None,
    highlight: str | None = None,
    scale: float = 1.0,
) -> str:
    w, h = CARD_W * scale, CARD_H * scale
    colour = RED if card // NUM_RANKS in (2, 3) else INK
    stroke = highlight or (BLUE if action is not None else ("#b08900" if card // NUM_RANKS == trump else "#9ca3af"))
    attrs = f' data-action="{action}" style="cursor:pointer"' if action is not None else ""
    title = f"<title>{escape(describe_action(action) if action is not None else card_name(card))}</title>"
    fill = "#fffdf2" if card // NUM_RANKS == trump else "#ffffff"
    return (
        f'<g transform="translate({x},{y})"{attrs}>{title}'
        f'<rect width="{w}" height="{h}" rx="{6 * scale}" fill="{fill}" stroke="{stroke}" '
        f'stroke-width="{3 if (action is not None or highlight) else 1.5}"/>'
        f'<text x="{w / 2}" y="{h * 0.42}" text-anchor="middle" font-size="{18 * scale}" font-weight="bold" '
        f'fill="{colour}">{RANK_SHORT[card % NUM_RANKS]}</text>'
        f'<text x="{w / 2}" y="{h * 0.8}" text-anchor="middle" font-size="{22 * scale}" fill="{colour}">'
        f"{SUIT_SYMBOLS[card // NUM_RANKS]}</text></g>"
    )


def _back(x: float, y: float, scale: float = 0.6) -> str:
    return (
        f'<rect x="{x}" y="{y}" width="{CARD_W * scale}" height="{CARD_H * scale}" rx="4" fill="#34495e" '
        f'stroke="#ffffff" stroke-width="1.5"/>'
    )


def _seat_panel(x: float, y: float, rel: int, state, trump: int) -> str:
    count = _count(state[S_OTHER_COUNTS + rel - 1])
    defender = _one(state, S_DEFENDER, 4) == rel
    moving = _one(state, S_TO_MOVE, 4) == rel and state[S_OVER] < 0.5
    winner = state[S_OVER] > 0.5 and _one(state, S_WINNER, 4) == rel
    border = GREEN if winner else (BLUE if moving else "#cbd5e1")
    role = "winner" if winner else ("defends" if defender else "attacks")
    parts = [
        f'<rect x="{x}" y="{y}" width="290" height="118" rx="10" fill="#ffffff" stroke="{border}" '
        f'stroke-width="{3 if moving or winner else 1.5}"/>',
        f'<text x="{x + 12}" y="{y + 22}" font-size="14" font-weight="bold" fill="{INK}">'
        f"{_player_name(rel)} · {count} card{'s' if count != 1 else ''} · {role}"
        f"{' · to move' if moving else ''}</text>",
    ]
    for i in range(min(count, 14)):
        parts.append(_back(x + 12 + i * 18, y + 32))
    known = [c for c in range(NUM_CARDS) if _count(state[S_KNOWN + c]) == rel]
    if known:
        parts.append(f'<text x="{x + 12}" y="{y + 96}" font-size="11" fill="{GREY}">known:</text>')
        for i, c in enumerate(_sorted_hand(known, trump)[:9]):
            colour = RED if c // NUM_RANKS in (2, 3) else INK
            parts.append(
                f'<text x="{x + 58 + i * 25}" y="{y + 96}" font-size="12" font-weight="bold" '
                f'fill="{colour}">{card_short(c)}</text>'
            )
        if len(known) > 9:
            parts.append(f'<text x="{x + 58 + 9 * 25}" y="{y + 96}" font-size="11" fill="{GREY}">…</text>')
    return "".join(parts)


def render(state) -> str:
    """An SVG picture of a Durak state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"Durak.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    trump, trump_card = _trump(state)
    head, head_colour = _headline(state)
    mine = _sorted_hand(_flags(state, S_HAND), trump)
    rows = max(1, -(-len(mine) // PER_ROW))
    height = HAND_Y + 26 + rows * (CARD_H + 8) + 12
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="14" fill="#f4f1ea"/>',
        f'<text x="24" y="30" font-size="15" fill="{GREY}">Durak · first out wins · trump '
        f"{SUIT_SYMBOLS[trump]} {SUIT_NAMES[trump]} · talon {_count(state[S_TALON])} · discarded "
        f"{len(_flags(state, S_DISCARDED))}</text>",
        f'<text x="24" y="58" font-size="21" font-weight="bold" fill="{head_colour}" data-prompt="">{escape(head)}</text>',
    ]
    # the other players across the top
    for i, rel in enumerate((3, 2, 1)):
        parts.append(_seat_panel(24 + i * 316, 76, rel, state, trump))
    # the table
    ty = 212
    parts.append(f'<rect x="24" y="{ty}" width="{WIDTH - 48}" height="150" rx="12" fill="{FELT}"/>')
    parts.append(f'<text x="40" y="{ty + 22}" font-size="13" fill="#d1fae5">Trump card</text>')
    parts.append(_card(60, ty + 34, trump_card, trump, highlight="#f2c94c"))
    talon = _count(state[S_TALON])
    if talon > 1:
        parts.append(_back(122, ty + 44, 0.85))
        parts.append(
            f'<text x="143" y="{ty + 128}" text-anchor="middle" font-size="12" fill="#ffffff">{talon} left</text>'
        )
    elif talon == 0:
        parts.append(f'<text x="85" y="{ty + 128}" text-anchor="middle" font-size="11" fill="#d1fae5">(drawn)</text>')
    target = _one(state, S_TO_BEAT, NUM_CARDS)
    parts.append(f'<text x="220" y="{ty + 22}" font-size="13" fill="#d1fae5">On the table</text>')
    x: float = 220
    if target >= 0:
        parts.append(_card(x, ty + 34, target, trump, highlight="#ef4444"))
        parts.append(
            f'<text x="{x + CARD_W / 2}" y="{ty + 126}" text-anchor="middle" font-size="11" '
            f'fill="#fecaca">to beat</text>'
        )
        x += CARD_W + 16
    for c in sorted(_flags(state, S_COVERED), key=lambda c: (c % NUM_RANKS, c // NUM_RANKS)):
        if x > WIDTH - 80:
            break
        parts.append(_card(x, ty + 44, c, trump, scale=0.85))
        x += CARD_W * 0.85 + 4
    if target < 0 and not _flags(state, S_COVERED):
        parts.append(f'<text x="220" y="{ty + 80}" font-size="14" fill="#d1fae5">empty</text>')
    # my hand
    hy = HAND_Y
    defending = _one(state, S_DEFENDER, 4) == 0
    me_moving = state[S_ATTACKING] > 0.5 or state[S_DEFENDING] > 0.5
    label = f"Your hand · {len(mine)} card{'s' if len(mine) != 1 else ''}"
    if state[S_OVER] < 0.5:
        label += " · you defend" if defending else " · you attack"
    parts.append(
        f'<text x="24" y="{hy + 14}" font-size="14" font-weight="bold" fill="{BLUE if me_moving else INK}">'
        f"{label}</text>"
    )
    for i, c in enumerate(mine):
        row, col = divmod(i, PER_ROW)
        playable = me_moving and isValidAction(state, c)
        parts.append(
            _card(24 + col * (CARD_W + GAP), hy + 26 + row * (CARD_H + 8), c, trump, action=c if playable else None)
        )
    if me_moving and isValidAction(state, PASS):
        label = "Take the cards" if state[S_DEFENDING] > 0.5 else "Pass"
        parts.append(
            f'<g data-action="{PASS}" style="cursor:pointer"><title>{escape(describe_action(PASS))}</title>'
            f'<rect x="{WIDTH - 200}" y="{hy + 26}" width="176" height="48" rx="8" fill="{BLUE}"/>'
            f'<text x="{WIDTH - 112}" y="{hy + 56}" text-anchor="middle" font-size="17" font-weight="bold" '
            f'fill="#ffffff">{label}</text></g>'
        )
    if state[S_OVER] > 0.5:
        parts.append(
            f'<g data-action="{PASS}" style="cursor:pointer"><title>End</title>'
            f'<rect x="{WIDTH - 200}" y="{hy + 26}" width="176" height="48" rx="8" fill="{GREY}"/>'
            f'<text x="{WIDTH - 112}" y="{hy + 56}" text-anchor="middle" font-size="17" fill="#ffffff">'
            "End</text></g>"
        )
    parts.append("</svg>")
    return "".join(parts)
