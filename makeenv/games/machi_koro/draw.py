"""MachiKoro drawings and words, from one player's view. Python only.

``render(state)`` draws the dice, the market (every card with its numbers, cost and how many are
left; the ones the player may buy are clickable), every seat's coins, landmarks and
establishments, and the buttons of the phase (roll, keep or roll again, TV Station, Business
Centre, end the turn). ``describe_action`` names an action; ``describe_state`` puts the state in
words for a language model.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    B_CARDS,
    B_COINS,
    BUY,
    BUY_CARD,
    CARD_COLOUR,
    CARD_COST,
    CARD_EFFECTS,
    CARD_NAMES,
    END_TURN,
    GIVE,
    KEEP_ROLL,
    MAX_PLAYERS,
    NO_TRADE,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_NORMAL,
    RADIO_TOWER,
    REROLL,
    ROLL,
    ROLL_HIGH,
    ROLL_LOW,
    ROLL_ONE,
    ROLL_TWO,
    RULE_NAMES,
    S_AGAIN,
    S_BOUGHT,
    S_DIE1,
    S_DIE2,
    S_PHASE,
    S_PLAYERS,
    S_PURCHASES,
    S_RESULT,
    S_RULES,
    S_SEAT,
    S_SEATS,
    S_SUPPLY,
    S_TO_MOVE,
    S_TRADE,
    SEAT_BLOCK,
    SHORT_NAMES,
    STATE_SIZE,
    TAKE,
    TAKE_COINS,
    TRADE_GIVE,
    TRADE_GIVEN,
    TRADE_PARTNER,
    TRADE_TAKE,
    TRADE_WITH,
    TV_TARGET,
    WON,
    isValidAction,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 980
CARD_W, CARD_H, CARD_GAP = 74, 92, 6
FILL = ("#2f6fde", "#2e9d4f", "#d64541", "#8e44ad", "#b7950b")  # blue, green, red, purple, landmark
GREEN, RED, GREY, INK = "#1d8a4e", "#c0392b", "#6b7280", "#1f2430"


def _rolls(card: int) -> str:
    low, high = int(ROLL_LOW[card]), int(ROLL_HIGH[card])
    return str(low) if low == high else f"{low}-{high}"


def describe_action(action: int) -> str:
    """What an action means: "Roll two dice", "Buy Cafe (2 coins)", "End turn"."""
    a = int(action)
    if a == KEEP_ROLL:
        return "Keep this roll"
    if a in (ROLL_ONE, ROLL_TWO):
        return "Roll one die" if a == ROLL_ONE else "Roll two dice"
    if TAKE_COINS <= a < TRADE_WITH:
        return f"TV Station: take 5 coins from the player {a - TAKE_COINS + 1} seat(s) after you"
    if TRADE_WITH <= a < NO_TRADE:
        return f"Business Centre: trade with the player {a - TRADE_WITH + 1} seat(s) after you"
    if a == NO_TRADE:
        return "Business Centre: no trade"
    if GIVE <= a < TAKE:
        return f"Give your {CARD_NAMES[a - GIVE]}"
    if TAKE <= a < BUY_CARD:
        return f"Take their {CARD_NAMES[a - TAKE]}"
    if BUY_CARD <= a < END_TURN:
        card = a - BUY_CARD
        return f"Buy {CARD_NAMES[card]} ({CARD_COST[card]} coins)"
    if a == END_TURN:
        return "End turn (buy nothing more)"
    return f"Unknown action {a}"


def _count(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _players(state) -> int:
    return min(max(_count(state[S_PLAYERS]), 2), MAX_PLAYERS)


def _seat_name(rel: int) -> str:
    return "You" if rel == 0 else f"Player +{rel}"


def _name_markup(rel: int) -> str:
    """A seat's name; another seat's is marked so the browser page can write in its own name."""
    name = escape(_seat_name(rel))
    return name if rel == 0 else f'<tspan data-relative-seat="{rel}">{name}</tspan>'


def _held(state, rel: int, card: int) -> int:
    return _count(state[S_SEATS + rel * SEAT_BLOCK + B_CARDS + card])


def _coins(state, rel: int) -> int:
    return _count(state[S_SEATS + rel * SEAT_BLOCK + B_COINS])


def _over(state) -> bool:
    return _count(state[S_RESULT]) > 0


def _won(state) -> bool:
    return _count(state[S_RESULT]) == WON


def _trade(state) -> tuple[int, int]:
    """The Business Centre's trade in progress: (partner relative to me or 0, kind given + 1 or 0)."""
    value = _count(state[S_TRADE])
    return value % TRADE_GIVEN, value // TRADE_GIVEN


def _dice_text(state) -> str:
    d1, d2 = _count(state[S_DIE1]), _count(state[S_DIE2])
    if not d1:
        return "no roll yet"
    return f"{d1} + {d2} = {d1 + d2}" if d2 else f"{d1}"


def _prompt(state) -> str:
    rel = _count(state[S_TO_MOVE])
    if _over(state):
        return "You won!" if _won(state) else "Game over: you did not win"
    if rel:
        return f"Waiting for {_seat_name(rel)} ({_PHASE_WORDS[_count(state[S_PHASE])]})"
    phase = _count(state[S_PHASE])
    if phase == BUY:
        return "Buy a card from the market or a landmark, or end your turn"
    return _PHASE_PROMPTS.get(phase, "Your move")


_PHASE_WORDS = (
    "",
    "rolling",
    "deciding to roll again",
    "TV Station",
    "Business Centre",
    "trading",
    "trading",
    "buying",
)
_PHASE_PROMPTS = {
    ROLL: "Roll the dice",
    REROLL: "Radio Tower: keep this roll or roll again",
    TV_TARGET: "TV Station: take 5 coins from a player",
    TRADE_PARTNER: "Business Centre: choose a player to trade with, or no trade",
    TRADE_GIVE: "Business Centre: choose one of your establishments to give",
    TRADE_TAKE: "Business Centre: choose the establishment to take",
}


def _cards_text(state, rel: int, first: int, last: int) -> str:
    parts = []
    for card in range(first, last):
        c = _held(state, rel, card)
        if c:
            parts.append(CARD_NAMES[card] if c == 1 else f"{CARD_NAMES[card]} x{c}")
    return ", ".join(parts) if parts else "none"


def describe_state(state) -> str:
    """The state in words: the turn, the dice, the market, every seat's coins and cards."""
    state = np.asarray(state, dtype=np.float64)
    n = _players(state)
    rules = min(_count(state[S_RULES]), len(RULE_NAMES) - 1)
    lines = [
        f"MachiKoro, {n} players, {RULE_NAMES[rules]} rules; you are seat {_count(state[S_SEAT])}. "
        "The first player with all four landmarks wins.",
        f"Last roll: {_dice_text(state)}."
        + (" The player to move takes another turn." if state[S_AGAIN] > 0.5 else ""),
        _prompt(state) + ".",
    ]
    market = []
    for card in range(NUM_NORMAL):
        left = _count(state[S_SUPPLY + card])
        bought = " (bought this turn)" if state[S_BOUGHT + card] > 0.5 else ""
        market.append(f"{CARD_NAMES[card]} [{_rolls(card)}, cost {CARD_COST[card]}, {left} left{bought}]")
    lines.append("Market: " + "; ".join(market) + ".")
    lines.append(
        "Also for sale, one each: "
        + "; ".join(f"{CARD_NAMES[c]} [cost {CARD_COST[c]}]: {CARD_EFFECTS[c]}" for c in range(NUM_NORMAL, NUM_CARDS))
        + "."
    )
    for rel in range(n):
        lines.append(
            f"{_seat_name(rel)}: {_coins(state, rel)} coins; landmarks: {_cards_text(state, rel, RADIO_TOWER, NUM_CARDS)}; "
            f"establishments: {_cards_text(state, rel, 0, RADIO_TOWER)}."
        )
    partner, given = _trade(state)
    if partner:
        text = f"Trading with {_seat_name(partner)}"
        lines.append(text + (f", giving {CARD_NAMES[given - 1]}." if given else "."))
    return "\n".join(lines)


# ---- drawing -----------------------------------------------------------------------------------


def _button(x: float, y: float, w: float, label: str, action: int, colour: str = INK) -> str:
    return (
        f'<g data-action="{action}" style="cursor:pointer"><title>{escape(describe_action(action))}</title>'
        f'<rect x="{x}" y="{y}" width="{w}" height="34" rx="8" fill="{colour}"/>'
        f'<text x="{x + w / 2}" y="{y + 22}" text-anchor="middle" font-size="14" font-weight="bold" '
        f'fill="#ffffff">{escape(label)}</text></g>'
    )


def _die(x: float, y: float, value: int) -> str:
    return (
        f'<rect x="{x}" y="{y}" width="40" height="40" rx="8" fill="#ffffff" stroke="{INK}" stroke-width="2"/>'
        f'<text x="{x + 20}" y="{y + 28}" text-anchor="middle" font-size="22" font-weight="bold" fill="{INK}">'
        f"{value}</text>"
    )


def _market_card(x: float, y: float, card: int, note: str, action: int | None, faded: bool) -> str:
    colour = FILL[int(CARD_COLOUR[card])]
    attrs = f' data-action="{action}" style="cursor:pointer"' if action is not None else ""
    title = (
        f"<title>{escape(describe_action(action))}: {escape(CARD_EFFECTS[card])}</title>" if action is not None else ""
    )
    name = SHORT_NAMES[card]
    fit = f' textLength="{CARD_W - 10}" lengthAdjust="spacingAndGlyphs"' if len(name) * 7.4 > CARD_W - 10 else ""
    numbers = _rolls(card) if card < RADIO_TOWER else "landmark"
    opacity = ' opacity="0.45"' if faded else ""
    return (
        f'<g transform="translate({x},{y})"{attrs}{opacity}>{title}'
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="8" fill="#ffffff" stroke="{colour}" '
        f'stroke-width="{4 if action is not None else 2}"/>'
        f'<rect x="3" y="3" width="{CARD_W - 6}" height="26" rx="5" fill="{colour}"/>'
        f'<text x="{CARD_W / 2}" y="21" text-anchor="middle" font-size="12" font-weight="bold" fill="#ffffff"{fit}>'
        f"{escape(name)}</text>"
        f'<text x="{CARD_W / 2}" y="48" text-anchor="middle" font-size="15" font-weight="bold" fill="{INK}">'
        f"{escape(numbers)}</text>"
        f'<text x="{CARD_W / 2}" y="68" text-anchor="middle" font-size="13" fill="{INK}">cost {CARD_COST[card]}</text>'
        f'<text x="{CARD_W / 2}" y="85" text-anchor="middle" font-size="11" fill="{GREY}">{escape(note)}</text>'
        "</g>"
    )


def _chip(x: float, y: float, card: int, count: int, action: int | None) -> tuple[str, float]:
    label = f"{SHORT_NAMES[card]} ×{count}" if card < RADIO_TOWER else SHORT_NAMES[card]
    w = 12 + 7.2 * len(label)
    attrs = f' data-action="{action}" style="cursor:pointer"' if action is not None else ""
    title = f"<title>{escape(describe_action(action))}</title>" if action is not None else ""
    stroke = f' stroke="{INK}" stroke-width="3"' if action is not None else ""
    return (
        f"<g{attrs}>{title}"
        f'<rect x="{x}" y="{y}" width="{w}" height="22" rx="6" fill="{FILL[int(CARD_COLOUR[card])]}"{stroke}/>'
        f'<text x="{x + w / 2}" y="{y + 15.5}" text-anchor="middle" font-size="12" font-weight="bold" '
        f'fill="#ffffff">{escape(label)}</text></g>',
        w,
    )


def render(state) -> str:
    """An SVG picture of a MachiKoro state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"MachiKoro.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    n = _players(state)
    over = _over(state)
    mine = not over and _count(state[S_TO_MOVE]) == 0
    phase = _count(state[S_PHASE])

    def valid(action: int) -> bool:
        return 0 <= action < NUM_ACTIONS and bool(isValidAction(state, action))

    top_market = 110
    top_seats = top_market + 2 * (CARD_H + 26) + 16
    row_h = 96
    height = top_seats + n * row_h + 12
    rules = min(_count(state[S_RULES]), len(RULE_NAMES) - 1)
    head_colour = (GREEN if _won(state) else RED) if over else INK
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="14" fill="#f7f4ec"/>',
        f'<text x="24" y="30" font-size="15" fill="{GREY}">MachiKoro · {n} players · {escape(RULE_NAMES[rules])} '
        "rules · first to own all four landmarks wins</text>",
        f'<text x="24" y="58" font-size="20" font-weight="bold" fill="{head_colour}" data-prompt="">'
        f"{escape(_prompt(state))}</text>",
    ]
    # ---- dice and the phase's buttons
    d1, d2 = _count(state[S_DIE1]), _count(state[S_DIE2])
    parts.append(f'<text x="24" y="92" font-size="13" fill="{GREY}">Last roll</text>')
    if d1:
        parts.append(_die(96, 64, d1))
        if d2:
            parts.append(_die(142, 64, d2))
        extra = " · doubles: another turn" if state[S_AGAIN] > 0.5 else ""
        parts.append(
            f'<text x="{196 if d2 else 150}" y="92" font-size="15" font-weight="bold" fill="{INK}">'
            f"= {d1 + d2}{escape(extra)}</text>"
        )
    else:
        parts.append(f'<text x="96" y="92" font-size="13" fill="{GREY}">none yet</text>')
    buttons = []
    if over:
        buttons.append(("Game over", END_TURN, GREY))
    elif mine and phase in (ROLL, REROLL):
        if phase == REROLL:
            buttons.append(("Keep this roll", KEEP_ROLL, GREEN))
        word = "Roll again" if phase == REROLL else "Roll"
        buttons.append((f"{word}: 1 die", ROLL_ONE, INK))
        buttons.append((f"{word}: 2 dice", ROLL_TWO, INK))
    elif mine and phase == TRADE_PARTNER:
        buttons.append(("No trade", NO_TRADE, GREY))
    elif mine and phase == BUY:
        buttons.append(("End turn", END_TURN, RED))
    x: float = WIDTH - 24
    for label, action, colour in reversed(buttons):
        if valid(action):
            w = 20 + 8.4 * len(label)
            x -= w
            parts.append(_button(x, 62, w, label, action, colour))
            x -= 10
    # ---- the market
    buying = mine and phase == BUY
    parts.append(
        f'<text x="24" y="{top_market - 8}" font-size="13" fill="{GREY}">Market: numbers that activate a card, '
        "its cost, how many are left (purple cards and landmarks: one each per player)</text>"
    )
    for card in range(NUM_CARDS):
        row, col = (0, card) if card < NUM_NORMAL else (1, card - NUM_NORMAL)
        cx = 24 + col * (CARD_W + CARD_GAP)
        cy = top_market + row * (CARD_H + 26)
        buy_action = BUY_CARD + card if buying and valid(BUY_CARD + card) else None
        if card < NUM_NORMAL:
            left = _count(state[S_SUPPLY + card])
            note = "bought" if state[S_BOUGHT + card] > 0.5 else f"{left} left"
            faded = left == 0
        else:
            owned = _held(state, 0, card) > 0
            note, faded = ("yours" if owned else "one each"), owned
        parts.append(_market_card(cx, cy, card, note, buy_action, faded))
    if buying and state[S_PURCHASES] > 0.5:
        parts.append(
            f'<text x="{24 + 7 * (CARD_W + CARD_GAP) + 10}" y="{top_market + CARD_H + 26 + 50}" font-size="13" '
            f'fill="{GREY}">Bought this turn: {_count(state[S_PURCHASES])} card(s)</text>'
        )
    # ---- every seat
    partner = _trade(state)[0]
    for rel in range(n):
        y = top_seats + rel * row_h
        to_move = not over and rel == _count(state[S_TO_MOVE])
        fill = "#eef4ff" if rel == 0 else "#ffffff"
        stroke = f'stroke="{INK}" stroke-width="2.5"' if to_move else 'stroke="#d6d3cc"'
        parts.append(f'<rect x="16" y="{y}" width="{WIDTH - 32}" height="{row_h - 8}" rx="10" fill="{fill}" {stroke}/>')
        parts.append(
            f'<text x="28" y="{y + 24}" font-size="15" font-weight="bold" fill="{INK}">{_name_markup(rel)}</text>'
        )
        parts.append(f'<text x="28" y="{y + 46}" font-size="14" fill="{INK}">{_coins(state, rel)} coins</text>')
        if to_move:
            parts.append(f'<text x="28" y="{y + 68}" font-size="12" fill="{GREY}">to move</text>')
        # landmarks: four boxes, filled when built
        lx = 150
        for card in range(RADIO_TOWER, NUM_CARDS):
            built = _held(state, rel, card) > 0
            colour = FILL[4]
            parts.append(
                f'<rect x="{lx}" y="{y + 10}" width="84" height="24" rx="6" fill="{colour if built else "#ffffff"}" '
                f'stroke="{colour}" stroke-width="2"/>'
                f'<text x="{lx + 42}" y="{y + 27}" text-anchor="middle" font-size="12" font-weight="bold" '
                f'fill="{"#ffffff" if built else colour}">{escape(SHORT_NAMES[card])}</text>'
            )
            lx += 90
        # the seat's own buttons: TV Station, Business Centre
        if mine and rel > 0:
            for action, label in ((TAKE_COINS + rel - 1, "Take 5 coins"), (TRADE_WITH + rel - 1, "Trade with")):
                if valid(action):
                    parts.append(_button(WIDTH - 170, y + 8, 140, label, action, FILL[3]))
        # establishments and purple cards as chips (clickable when trading)
        chip_x: float = 150
        chip_y: float = y + 42
        for card in range(RADIO_TOWER):
            count = _held(state, rel, card)
            if not count:
                continue
            chip_action: int | None = None
            if mine and rel == 0 and phase == TRADE_GIVE and valid(GIVE + card):
                chip_action = GIVE + card
            elif mine and rel == partner and rel > 0 and phase == TRADE_TAKE and valid(TAKE + card):
                chip_action = TAKE + card
            chip, w = _chip(chip_x, chip_y, card, count, chip_action)
            if chip_x + w > WIDTH - 28:
                chip_x, chip_y = 150, chip_y + 24
                chip, w = _chip(chip_x, chip_y, card, count, chip_action)
            parts.append(chip)
            chip_x += w + 5
    parts.append("</svg>")
    return "".join(parts)
