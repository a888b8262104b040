"""TLMN drawings and words, from one player's view. Python only.

``render(state)`` draws the other players (card counts, who passed, who moves), the combination on
the table and who played it, the player's hand, and one button per valid play (the cards it would
put down) plus Pass; at the end the winner. ``describe_action`` names an action; ``describe_state``
puts the state in words.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    ACTION_KIND,
    ACTION_TOP,
    E_TABLE,
    E_WHERE,
    ENV_SIZE,
    K_LAST_STRAIGHT,
    K_NONE,
    K_PAIR,
    K_QUAD,
    K_SINGLE,
    K_TRIPLE,
    MAX_PLAYERS,
    NUM_ACTIONS,
    NUM_CARDS,
    PASS,
    RANK_NAMES,
    S_ACTIVE,
    S_COUNTS,
    S_HAND,
    S_OVER,
    S_OWNER,
    S_PLAYED,
    S_PLAYERS,
    S_SEAT,
    S_TABLE,
    S_TO_MOVE,
    S_WINNER,
    S_WON,
    STATE_SIZE,
    SUIT_NAMES,
    W_PLAYED,
    _play,
    getValidActions,
    moving,
    table_combination,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 980
CARD_W, CARD_H, GAP = 50, 72, 5
SUIT_SYMBOLS = ("♠", "♣", "♦", "♥")
RANK_SHORT = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
SEAT_NAMES = ("You", "Next player", "Player across", "Previous player")
BUTTON_W, BUTTON_H, BUTTON_COLUMNS = 228, 28, 4
GREEN, RED, GREY, INK, BLUE, FELT = "#1d8a4e", "#c0392b", "#6b7280", "#1f2430", "#2f6fde", "#1e6b45"


def card_name(card: int) -> str:
    """ "Seven of Diamonds"."""
    return f"{RANK_NAMES[card // 4]} of {SUIT_NAMES[card % 4]}"


def card_short(card: int) -> str:
    """ "7♦"."""
    return RANK_SHORT[card // 4] + SUIT_SYMBOLS[card % 4]


def _plural_rank(rank: int) -> str:
    return RANK_NAMES[rank] + ("es" if RANK_NAMES[rank] == "Six" else "s")


def combination_name(kind: int, top: int) -> str:
    """ "pair of Sevens", "straight of 5 (Three to Seven)", "3 consecutive pairs (Fives to Sevens)"."""
    rank = top // 4
    if kind == K_SINGLE:
        return f"single {card_name(top)}"
    if kind in (K_PAIR, K_TRIPLE):
        return f"{'pair' if kind == K_PAIR else 'triple'} of {_plural_rank(rank)}"
    if kind == K_QUAD:
        return f"four {_plural_rank(rank)} (bomb)"
    if kind <= K_LAST_STRAIGHT:
        length = kind - 2
        return f"straight of {length} ({RANK_NAMES[rank - length + 1]} to {RANK_NAMES[rank]})"
    pairs = kind - 11
    return f"{pairs} consecutive pairs ({_plural_rank(rank - pairs + 1)} to {_plural_rank(rank)}, bomb)"


def describe_action(action: int) -> str:
    """What an action means: "Pass", "Play a pair of Sevens, highest card the Seven of Diamonds"."""
    a = int(action)
    if a == PASS:
        return "Pass"
    if not 0 < a < NUM_ACTIONS:
        return f"Unknown action {a}"
    kind, top = int(ACTION_KIND[a]), int(ACTION_TOP[a])
    if kind == K_SINGLE:
        return f"Play a {combination_name(kind, top)}"
    return f"Play a {combination_name(kind, top)}, highest card the {card_name(top)}"


def _flags(state, start: int, length: int = NUM_CARDS) -> list[int]:
    return [i for i in range(length) if state[start + i] > 0.5]


def _count(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _players(state) -> int:
    p = state[S_PLAYERS]
    return int(p) if np.isfinite(p) and 2 <= p <= MAX_PLAYERS else MAX_PLAYERS


def _cards_text(cards: list[int]) -> str:
    return " ".join(card_short(c) for c in sorted(cards)) if cards else "none"


def action_cards(state, action: int) -> list[int]:
    """The cards ``action`` puts down from the state's hand (its highest card and the lowest-suited
    companions, as the rules pick them)."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    for c in range(NUM_CARDS):
        env[E_WHERE + c] = 0.0 if state[S_HAND + c] > 0.5 else W_PLAYED
    _play(env, 0, int(action))
    return [c for c in range(NUM_CARDS) if env[E_TABLE + c] > 0.5]


def _owner(state, players: int) -> int:
    for rel in range(1, players):
        if state[S_OWNER + rel - 1] > 0.5:
            return rel
    return 0


def _mover(state, players: int) -> int:
    for rel in range(players):
        if state[S_TO_MOVE + rel] > 0.5:
            return rel
    return -1


def _table_text(state, players: int) -> str:
    cards = _flags(state, S_TABLE)
    if not cards:
        return "nothing on the table"
    kind, top = table_combination(state)
    name = combination_name(kind, top) if kind > K_NONE else "cards"
    owner = _owner(state, players)
    by = f", played by {SEAT_NAMES[owner].lower() if owner else 'you'}"
    return f"the {name} ({_cards_text(cards)}){by}"


def _headline(state) -> tuple[str, str]:
    players = _players(state)
    if state[S_OVER] > 0.5:
        if state[S_WON] > 0.5:
            return "You won: no cards left!", GREEN
        winner = max(_one(state, S_WINNER, players), 0)
        return f"Game over: {SEAT_NAMES[winner].lower()} went out first", RED
    if moving(state):
        kind, _ = table_combination(state)
        if kind == K_NONE:
            return "Your lead: play any combination", INK
        return "Beat the table or pass (passing keeps you out until a Two or a bomb)", INK
    return "Waiting for the other players", GREY


def _one(state, start: int, length: int) -> int:
    found = _flags(state, start, length)
    return found[0] if found else -1


def describe_state(state) -> str:
    """The state in words: the table, my hand, the others, whose move it is, the result."""
    state = np.asarray(state, dtype=np.float64)
    players = _players(state)
    hand = _flags(state, S_HAND)
    lines = [
        f"TLMN (Tien Len), {players} players; you are seat {_count(state[S_SEAT])}. Ranks run 3 up to A, "
        "then 2 (highest); suits ♠ < ♣ < ♦ < ♥. The first player out wins.",
        _headline(state)[0] + ".",
        f"On the table: {_table_text(state, players)}.",
        f"Your hand ({len(hand)}): {_cards_text(hand)}.",
    ]
    mover = _mover(state, players)
    for rel in range(1, players):
        status = "in the trick" if state[S_ACTIVE + rel - 1] > 0.5 else "passed"
        turn = " (to move)" if rel == mover else ""
        lines.append(f"{SEAT_NAMES[rel]}{turn}: {_count(state[S_COUNTS + rel - 1])} cards, {status}.")
    played = _flags(state, S_PLAYED)
    lines.append(f"Played so far ({len(played)}): {_cards_text(played)}.")
    return "\n".join(lines)


# ---- drawing -------------------------------------------------------------------------------------


def _card(x: float, y: float, card: int, highlight: str | None = None, scale: float = 1.0) -> str:
    w, h = CARD_W * scale, CARD_H * scale
    colour = RED if card % 4 >= 2 else INK
    stroke = highlight or "#9ca3af"
    return (
        f'<g transform="translate({x},{y})"><title>{escape(card_name(card))}</title>'
        f'<rect width="{w}" height="{h}" rx="{6 * scale}" fill="#ffffff" stroke="{stroke}" '
        f'stroke-width="{3 if highlight else 1.5}"/>'
        f'<text x="{w / 2}" y="{h * 0.42}" text-anchor="middle" font-size="{18 * scale}" font-weight="bold" '
        f'fill="{colour}">{RANK_SHORT[card // 4]}</text>'
        f'<text x="{w / 2}" y="{h * 0.8}" text-anchor="middle" font-size="{22 * scale}" fill="{colour}">'
        f"{SUIT_SYMBOLS[card % 4]}</text></g>"
    )


def _back(x: float, y: float) -> str:
    return f'<rect x="{x}" y="{y}" width="30" height="43" rx="4" fill="#34495e" stroke="#ffffff" stroke-width="1.5"/>'


def _seat_panel(x: float, y: float, rel: int, state, players: int) -> str:
    count = _count(state[S_COUNTS + rel - 1])
    moving_now = _mover(state, players) == rel
    winner = state[S_OVER] > 0.5 and _one(state, S_WINNER, players) == rel
    owner = _owner(state, players) == rel
    border = GREEN if winner else (BLUE if moving_now else "#cbd5e1")
    status = "winner" if winner else ("in the trick" if state[S_ACTIVE + rel - 1] > 0.5 else "passed")
    parts = [
        f'<rect x="{x}" y="{y}" width="290" height="92" rx="10" fill="#ffffff" stroke="{border}" '
        f'stroke-width="{3 if moving_now or winner else 1.5}"/>',
        f'<text x="{x + 12}" y="{y + 22}" font-size="14" font-weight="bold" fill="{INK}">'
        f'<tspan data-relative-seat="{rel}">{SEAT_NAMES[rel]}</tspan> · {count} card{"s" if count != 1 else ""}'
        f" · {status}{' · to move' if moving_now else ''}</text>",
    ]
    for i in range(min(count, 13)):
        parts.append(_back(x + 12 + i * 20, y + 36))
    if owner:
        parts.append(
            f'<text x="{x + 278}" y="{y + 84}" text-anchor="end" font-size="12" fill="{BLUE}">on the table</text>'
        )
    return "".join(parts)


def _button(x: float, y: float, action: int, label: str, fill: str) -> str:
    return (
        f'<g data-action="{action}" style="cursor:pointer"><title>{escape(describe_action(action))}</title>'
        f'<rect x="{x}" y="{y}" width="{BUTTON_W}" height="{BUTTON_H}" rx="6" fill="{fill}"/>'
        f'<text x="{x + BUTTON_W / 2}" y="{y + 19}" text-anchor="middle" font-size="13" fill="#ffffff">'
        f"{escape(label)}</text></g>"
    )


def _play_label(state, action: int) -> str:
    kind = int(ACTION_KIND[action])
    cards = " ".join(card_short(c) for c in action_cards(state, action))
    kind_name = {K_SINGLE: "single", K_PAIR: "pair", K_TRIPLE: "triple", K_QUAD: "four"}.get(kind)
    if kind_name is None:
        kind_name = "straight" if kind <= K_LAST_STRAIGHT else "pairs"
    return f"{kind_name}: {cards}"


def render(state) -> str:
    """An SVG picture of a TLMN state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"TLMN.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    players = _players(state)
    head, head_colour = _headline(state)
    hand = _flags(state, S_HAND)
    plays = [a for a in np.flatnonzero(getValidActions(state)).tolist() if a != PASS] if moving(state) else []
    pass_ok = moving(state) and getValidActions(state)[PASS] == 1.0
    hand_y = 340
    buttons_y = hand_y + 26 + CARD_H + 22
    rows = -(-len(plays) // BUTTON_COLUMNS)
    height = buttons_y + rows * (BUTTON_H + 6) + (BUTTON_H + 20 if pass_ok or state[S_OVER] > 0.5 else 0) + 16
    played = _flags(state, S_PLAYED)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="14" fill="#f4f1ea"/>',
        f'<text x="24" y="30" font-size="15" fill="{GREY}">TLMN · {players} players · first out wins · '
        f"3 low, 2 high · ♠ &lt; ♣ &lt; ♦ &lt; ♥ · played {len(played)}</text>",
        f'<text x="24" y="58" font-size="20" font-weight="bold" fill="{head_colour}" data-prompt="">{escape(head)}</text>',
    ]
    for i, rel in enumerate(range(players - 1, 0, -1)):
        parts.append(_seat_panel(24 + i * 316, 76, rel, state, players))
    ty = 186
    parts.append(f'<rect x="24" y="{ty}" width="{WIDTH - 48}" height="130" rx="12" fill="{FELT}"/>')
    parts.append(
        f'<text x="40" y="{ty + 22}" font-size="13" fill="#d1fae5">{escape("On the table: " + _table_text(state, players))}</text>'
    )
    for i, c in enumerate(_flags(state, S_TABLE)):
        parts.append(_card(40 + i * (CARD_W + GAP), ty + 40, c, highlight="#f2c94c"))
    me_moving = moving(state)
    parts.append(
        f'<text x="24" y="{hand_y + 14}" font-size="14" font-weight="bold" fill="{BLUE if me_moving else INK}">'
        f"Your hand · {len(hand)} card{'s' if len(hand) != 1 else ''}</text>"
    )
    step = min(CARD_W + GAP, (WIDTH - 48 - CARD_W) / max(len(hand) - 1, 1))
    for i, c in enumerate(hand):
        parts.append(_card(24 + i * step, hand_y + 26, c))
    if plays:
        parts.append(f'<text x="24" y="{buttons_y - 6}" font-size="13" fill="{GREY}">Your plays (click one):</text>')
    for i, a in enumerate(plays):
        row, col = divmod(i, BUTTON_COLUMNS)
        x, y = 24 + col * (BUTTON_W + 6), buttons_y + row * (BUTTON_H + 6)
        parts.append(_button(x, y, a, _play_label(state, a), BLUE))
    bottom = buttons_y + rows * (BUTTON_H + 6) + 8
    if pass_ok:
        parts.append(_button(24, bottom, PASS, "Pass", GREY))
    elif state[S_OVER] > 0.5:
        parts.append(_button(24, bottom, PASS, "End", GREY))
    parts.append("</svg>")
    return "".join(parts)
