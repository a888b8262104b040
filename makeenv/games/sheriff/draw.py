"""Sheriff drawings and words, from one player's view. Python only.

``render(state)`` draws the four seats (coins, debt, declaration, bag size, bribes, stand), the two
discard piles, my hand and my bag, and a row of buttons for the other moves; every element that
plays a valid action carries ``data-action``. ``describe_action`` names an action;
``describe_state`` puts the state in words.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    ADD_COIN,
    B_BAG_BRIBE_COUNT,
    B_BAG_COUNT,
    B_BONUS,
    B_COIN_BRIBE,
    B_COINS,
    B_CONTRABAND,
    B_DEBT,
    B_DECLARED,
    B_DISCARDS,
    B_HAND_COUNT,
    B_SCORE,
    B_STAND,
    B_STAND_BRIBE,
    B_WINNER,
    CLOSE_BAG,
    CONFISCATE_LEFT,
    DECLARE_GOOD,
    DISCARD_CARD,
    DRAW_DECK,
    GOOD_NAMES,
    GOOD_PENALTY,
    GOOD_VALUE,
    INSPECT,
    INSPECT_NEXT,
    LET_PASS,
    LOAD_CARD,
    NUM_ACTIONS,
    NUM_KINDS,
    NUM_LEGAL,
    NUM_PLAYERS,
    NUM_ROUNDS,
    OFFER_BAG,
    OFFER_STAND,
    RETURN_LEFT,
    S_BAG,
    S_BAG_BRIBE,
    S_CONFISCATED,
    S_DECK,
    S_HAND,
    S_OVER,
    S_PILE_SIZE,
    S_PILE_TOPS,
    S_ROUND,
    S_SEAT,
    S_SEATS,
    S_SHERIFF,
    S_TARGET,
    S_TO_MOVE,
    S_WON,
    SEAT_BLOCK,
    STATE_SIZE,
    STOP_BAG,
    STOP_COINS,
    STOP_DISCARD,
    STOP_STAND,
    TAKE_LEFT,
    TOP_SHOWN,
    isValidAction,
    state_phase,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 1000
GREEN, RED, GREY, INK, BLUE, GOLD = "#1d8a4e", "#c0392b", "#6b7280", "#1f2430", "#2f6fde", "#b08900"
KIND_COLOURS = ("#d94c3d", "#e8b93a", "#c48a4a", "#e9e2d0", "#7a3b8f", "#8f5a2b", "#3b6fb5", "#4a4a4a")
PHASE_PROMPTS = (
    "Market: discard cards you do not want, then stop",
    "Market: draw back to 6 cards from the deck or a pile",
    "Market: put your discards on a pile",
    "Load your bag with 1 to 5 cards",
    "Declare the legal good in your bag",
    "Sheriff: pick the next merchant",
    "Bribe the sheriff with coins?",
    "Bribe the sheriff with goods from your stand?",
    "Bribe the sheriff with cards from your bag?",
    "Sheriff: inspect the bag or let it pass",
    "Sheriff: put the confiscated goods on a pile",
)
PILE_NAMES = ("left", "right")


def _seat_name(rel: int) -> str:
    return ("You", "Next player", "Player across", "Previous player")[rel]


def describe_action(action: int) -> str:
    """What an action means, e.g. "Put Silk in the bag" or "Inspect the bag"."""
    a = int(action)
    if DISCARD_CARD <= a < DISCARD_CARD + NUM_KINDS:
        return f"Discard {GOOD_NAMES[a - DISCARD_CARD]}"
    if a == STOP_DISCARD:
        return "Stop discarding"
    if a == DRAW_DECK:
        return "Draw from the deck back to 6 cards"
    if a in (TAKE_LEFT, TAKE_LEFT + 1):
        return f"Take the top card of the {PILE_NAMES[a - TAKE_LEFT]} pile"
    if a in (RETURN_LEFT, RETURN_LEFT + 1):
        return f"Put your discards on the {PILE_NAMES[a - RETURN_LEFT]} pile"
    if LOAD_CARD <= a < LOAD_CARD + NUM_KINDS:
        return f"Put {GOOD_NAMES[a - LOAD_CARD]} in the bag"
    if a == CLOSE_BAG:
        return "Close the bag"
    if DECLARE_GOOD <= a < DECLARE_GOOD + NUM_LEGAL:
        return f"Declare {GOOD_NAMES[a - DECLARE_GOOD]}"
    if INSPECT_NEXT <= a < INSPECT_NEXT + NUM_PLAYERS - 1:
        return f"Deal with the merchant {a - INSPECT_NEXT + 1} seat{'s' if a > INSPECT_NEXT else ''} after you"
    if a == STOP_COINS:
        return "Offer no more coins"
    if a == ADD_COIN:
        return "Offer one more coin"
    if OFFER_STAND <= a < OFFER_STAND + NUM_KINDS:
        return f"Offer {GOOD_NAMES[a - OFFER_STAND]} from your stand"
    if a == STOP_STAND:
        return "Offer no more goods from your stand"
    if OFFER_BAG <= a < OFFER_BAG + NUM_KINDS:
        return f"Offer {GOOD_NAMES[a - OFFER_BAG]} from your bag"
    if a == STOP_BAG:
        return "Offer no more cards from your bag"
    if a == INSPECT:
        return "Inspect the bag"
    if a == LET_PASS:
        return "Let the bag pass"
    if a in (CONFISCATE_LEFT, CONFISCATE_LEFT + 1):
        return f"Put the confiscated goods on the {PILE_NAMES[a - CONFISCATE_LEFT]} pile"
    return f"Unknown action {a}"


def _n(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _one(state, start: int, length: int) -> int:
    for i in range(length):
        if state[start + i] > 0.5:
            return i
    return -1


def _counts_text(state, start: int, kinds: range = range(NUM_KINDS)) -> str:
    parts = [f"{_n(state[start + k])} {GOOD_NAMES[k]}" for k in kinds if _n(state[start + k])]
    return ", ".join(parts) if parts else "none"


def _pile_top(state, pile: int, i: int) -> int:
    return _one(state, S_PILE_TOPS + (pile * TOP_SHOWN + i) * NUM_KINDS, NUM_KINDS)


def _headline(state) -> tuple[str, str]:
    if state[S_OVER] > 0.5:
        if state[S_WON] > 0.5:
            return "You won!", GREEN
        winner = next((r for r in range(NUM_PLAYERS) if state[S_SEATS + r * SEAT_BLOCK + B_WINNER] > 0.5), 0)
        return f"Game over: {_seat_name(winner).lower()} won", RED
    phase = state_phase(state)
    if state[S_TO_MOVE] > 0.5 and phase > 0:
        return PHASE_PROMPTS[phase - 1], INK
    mover = max(_one(state, S_TO_MOVE, NUM_PLAYERS), 0)
    return f"Waiting for {_seat_name(mover).lower()}", GREY


def describe_state(state) -> str:
    """The state in words: round, sheriff, piles, my hand and bag, every seat, the result."""
    state = np.asarray(state, dtype=np.float64)
    sheriff = max(_one(state, S_SHERIFF, NUM_PLAYERS), 0)
    head, _ = _headline(state)
    lines = [
        f"Sheriff of Nottingham, 4 players; you are seat {_n(state[S_SEAT])}. "
        f"Round {min(_n(state[S_ROUND]), NUM_ROUNDS)} of {NUM_ROUNDS}; the sheriff is "
        f"{'you' if sheriff == 0 else _seat_name(sheriff).lower()}.",
        head + ".",
        f"Deck: {_n(state[S_DECK])} cards. "
        + " ".join(
            f"{name.capitalize()} pile: {_n(state[S_PILE_SIZE + p])} cards"
            + (f", top {GOOD_NAMES[_pile_top(state, p, 0)]}" if _pile_top(state, p, 0) >= 0 else "")
            + "."
            for p, name in enumerate(PILE_NAMES)
        ),
        f"Your hand: {_counts_text(state, S_HAND)}.",
        f"Your bag: {_counts_text(state, S_BAG)}"
        + (
            f"; offered from it: {_counts_text(state, S_BAG_BRIBE)}"
            if _n(sum(state[S_BAG_BRIBE : S_BAG_BRIBE + 15]))
            else ""
        )
        + ".",
    ]
    if _n(sum(state[S_CONFISCATED : S_CONFISCATED + NUM_KINDS])):
        lines.append(f"Confiscated, waiting for a pile: {_counts_text(state, S_CONFISCATED)}.")
    target = _one(state, S_TARGET, NUM_PLAYERS)
    for rel in range(NUM_PLAYERS):
        b = S_SEATS + rel * SEAT_BLOCK
        declared = _one(state, b + B_DECLARED, NUM_LEGAL)
        text = (
            f"{_seat_name(rel)}{' (sheriff)' if rel == sheriff else ''}{' (dealt with now)' if rel == target else ''}: "
            f"{_n(state[b + B_COINS])} coins, debt {_n(state[b + B_DEBT])}, {_n(state[b + B_HAND_COUNT])} cards in hand"
        )
        if declared >= 0:
            text += f", a bag of {_n(state[b + B_BAG_COUNT]) + _n(state[b + B_BAG_BRIBE_COUNT])} declared {GOOD_NAMES[declared]}"
        bribe = _n(state[b + B_COIN_BRIBE])
        offered = _counts_text(state, b + B_STAND_BRIBE)
        if bribe or offered != "none" or _n(state[b + B_BAG_BRIBE_COUNT]):
            text += f"; offers {bribe} coins, stand goods: {offered}, {_n(state[b + B_BAG_BRIBE_COUNT])} bag cards"
        shown = range(NUM_KINDS) if (rel == 0 or state[S_OVER] > 0.5) else range(NUM_LEGAL)
        text += f"; stand: {_counts_text(state, b + B_STAND, shown)}"
        if rel != 0 and state[S_OVER] < 0.5:
            text += f" and {_n(state[b + B_CONTRABAND])} contraband face down"
        discards = _counts_text(state, b + B_DISCARDS)
        if discards != "none":
            text += f"; discarded this round: {discards}"
        if state[S_OVER] > 0.5:
            text += f"; final score {_n(state[b + B_SCORE])} (bonuses {_n(state[b + B_BONUS])})"
        lines.append(text + ".")
    return "\n".join(lines)


# ---- drawing -----------------------------------------------------------------------------------


def _card(x: float, y: float, kind: int, label: str = "", action: int | None = None, small: bool = False) -> str:
    w, h = (52, 64) if small else (64, 84)
    colour = KIND_COLOURS[kind] if kind < 8 else GOLD
    attrs = f' data-action="{action}" style="cursor:pointer"' if action is not None else ""
    title = describe_action(action) if action is not None else GOOD_NAMES[kind]
    name = GOOD_NAMES[kind]
    short = name if len(name) <= 8 else name.split()[0][:8]
    return (
        f'<g transform="translate({x},{y})"{attrs}><title>{escape(title)}</title>'
        f'<rect width="{w}" height="{h}" rx="6" fill="#ffffff" stroke="{BLUE if action is not None else colour}" '
        f'stroke-width="{3 if action is not None else 2}"/>'
        f'<rect x="4" y="4" width="{w - 8}" height="{h * 0.34}" rx="4" fill="{colour}"/>'
        f'<text x="{w / 2}" y="{h * 0.6}" text-anchor="middle" font-size="{11 if small else 12}" fill="{INK}">'
        f"{escape(short)}</text>"
        f'<text x="{w / 2}" y="{h * 0.86}" text-anchor="middle" font-size="{11 if small else 12}" fill="{GREY}">'
        f"{escape(label or f'{int(GOOD_VALUE[kind])}/{int(GOOD_PENALTY[kind])}')}</text></g>"
    )


def _button(x: float, y: float, action: int, label: str) -> str:
    w = 12 + 7 * len(label)
    return (
        f'<g data-action="{action}" style="cursor:pointer"><title>{escape(describe_action(action))}</title>'
        f'<rect x="{x}" y="{y}" width="{w}" height="30" rx="6" fill="{BLUE}"/>'
        f'<text x="{x + w / 2}" y="{y + 20}" text-anchor="middle" font-size="13" fill="#ffffff">{escape(label)}</text></g>'
    )


def _seat_panel(state, rel: int, x: float, y: float, sheriff: int) -> str:
    b = S_SEATS + rel * SEAT_BLOCK
    moving = state[S_TO_MOVE + rel] > 0.5 and state[S_OVER] < 0.5
    winner = state[S_OVER] > 0.5 and state[b + B_WINNER] > 0.5
    target = state[S_TARGET + rel] > 0.5
    border = GREEN if winner else (BLUE if moving else (RED if target else "#cbd5e1"))
    action = INSPECT_NEXT + rel - 1 if rel > 0 and isValidAction(state, INSPECT_NEXT + rel - 1) else None
    attrs = f' data-action="{action}" style="cursor:pointer"' if action is not None else ""
    declared = _one(state, b + B_DECLARED, NUM_LEGAL)
    bag = _n(state[b + B_BAG_COUNT]) + _n(state[b + B_BAG_BRIBE_COUNT])
    role = "sheriff" if rel == sheriff else "merchant"
    lines = [
        f"{_n(state[b + B_COINS])} coins"
        + (f" · debt {_n(state[b + B_DEBT])}" if _n(state[b + B_DEBT]) else "")
        + f" · {_n(state[b + B_HAND_COUNT])} in hand · {role}",
        (f"bag of {bag}, declared {GOOD_NAMES[declared]}" if declared >= 0 else "no bag waiting"),
    ]
    bribe = _n(state[b + B_COIN_BRIBE])
    stand_offer = _counts_text(state, b + B_STAND_BRIBE)
    if bribe or stand_offer != "none" or _n(state[b + B_BAG_BRIBE_COUNT]):
        lines.append(f"offers {bribe} coins, {stand_offer}, {_n(state[b + B_BAG_BRIBE_COUNT])} bag cards")
    shown = range(NUM_KINDS) if (rel == 0 or state[S_OVER] > 0.5) else range(NUM_LEGAL)
    lines.append("stand: " + _counts_text(state, b + B_STAND, shown))
    if rel != 0 and state[S_OVER] < 0.5:
        lines.append(f"+ {_n(state[b + B_CONTRABAND])} contraband face down")
    if state[S_OVER] > 0.5:
        lines.append(f"score {_n(state[b + B_SCORE])} (bonuses {_n(state[b + B_BONUS])})")
    title = describe_action(action) if action is not None else _seat_name(rel)
    parts = [
        f"<g{attrs}><title>{escape(title)}</title>"
        f'<rect x="{x}" y="{y}" width="310" height="150" rx="10" fill="#ffffff" stroke="{border}" '
        f'stroke-width="{1.5 if border == "#cbd5e1" else 3}"/>'
        f'<text x="{x + 12}" y="{y + 22}" font-size="14" font-weight="bold" fill="{INK}">'
        f'<tspan data-relative-seat="{rel}">{_seat_name(rel)}</tspan></text>'
    ]
    for i, line in enumerate(lines):
        parts.append(
            f'<text x="{x + 12}" y="{y + 44 + i * 19}" font-size="11.5" fill="{INK}">{escape(line[:58])}</text>'
        )
    parts.append("</g>")
    return "".join(parts)


def render(state) -> str:
    """An SVG picture of a Sheriff state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"Sheriff.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    head, colour = _headline(state)
    sheriff = max(_one(state, S_SHERIFF, NUM_PLAYERS), 0)
    height = 700
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="14" fill="#f4f1ea"/>',
        f'<text x="24" y="30" font-size="15" fill="{GREY}">Sheriff of Nottingham · round '
        f"{min(_n(state[S_ROUND]), NUM_ROUNDS)} of {NUM_ROUNDS} · deck {_n(state[S_DECK])} · cards show value/penalty</text>",
        f'<text x="24" y="58" font-size="21" font-weight="bold" fill="{colour}" data-prompt="">{escape(head)}</text>',
    ]
    for i, rel in enumerate((3, 2, 1)):
        parts.append(_seat_panel(state, rel, 24 + i * 322, 74, sheriff))
    # the piles
    py = 240
    for pile in range(2):
        x = 24 + pile * 480
        size = _n(state[S_PILE_SIZE + pile])
        parts.append(
            f'<text x="{x}" y="{py + 14}" font-size="13" fill="{INK}">{PILE_NAMES[pile].capitalize()} pile · {size} cards (top first)</text>'
        )
        for i in range(TOP_SHOWN):
            kind = _pile_top(state, pile, i)
            if kind < 0:
                break
            action = None
            for a in (TAKE_LEFT + pile, RETURN_LEFT + pile, CONFISCATE_LEFT + pile):
                if i == 0 and isValidAction(state, a):
                    action = a
            parts.append(_card(x + i * 52, py + 22, kind, action=action, small=i > 0))
        if size == 0:
            for a in (RETURN_LEFT + pile, CONFISCATE_LEFT + pile):
                if isValidAction(state, a):
                    parts.append(_button(x, py + 30, a, "Put here"))
    # my hand, bag and stand
    zones = (
        ("Your hand", S_HAND, (DISCARD_CARD, LOAD_CARD)),
        ("Your bag", S_BAG, (OFFER_BAG,)),
        ("Your stand", S_SEATS + B_STAND, (OFFER_STAND,)),
    )
    y = 360
    for label, start, bases in zones:
        parts.append(f'<text x="24" y="{y + 14}" font-size="14" font-weight="bold" fill="{INK}">{label}</text>')
        x = 24
        for k in range(NUM_KINDS):
            held = _n(state[start + k])
            if not held:
                continue
            over = state[S_OVER] > 0.5
            action = None if over else next((b + k for b in bases if isValidAction(state, b + k)), None)
            parts.append(_card(x, y + 22, k, label=f"x{held}", action=action, small=True))
            x += 56
        y += 92
    # the other moves as buttons
    card_actions: set[int] = set()
    for base in (DISCARD_CARD, LOAD_CARD, OFFER_BAG, OFFER_STAND):
        card_actions.update(range(base, base + NUM_KINDS))
    card_actions.update(range(TAKE_LEFT, TAKE_LEFT + 2))
    card_actions.update(range(RETURN_LEFT, RETURN_LEFT + 2))
    card_actions.update(range(CONFISCATE_LEFT, CONFISCATE_LEFT + 2))
    card_actions.update(range(INSPECT_NEXT, INSPECT_NEXT + NUM_PLAYERS - 1))
    bx = 24.0
    by = height - 46
    if state[S_OVER] > 0.5:
        parts.append(_button(bx, by, 0, "End"))
    else:
        labels = {
            STOP_DISCARD: "Stop discarding",
            DRAW_DECK: "Draw from the deck",
            CLOSE_BAG: "Close the bag",
            STOP_COINS: "No more coins",
            ADD_COIN: "+1 coin",
            STOP_STAND: "No more stand goods",
            STOP_BAG: "No more bag cards",
            INSPECT: "Inspect",
            LET_PASS: "Let pass",
        }
        for g in range(NUM_LEGAL):
            labels[DECLARE_GOOD + g] = f"Declare {GOOD_NAMES[g]}"
        for a in range(NUM_ACTIONS):
            if a in card_actions or not isValidAction(state, a):
                continue
            label = labels.get(a, describe_action(a))
            parts.append(_button(bx, by, a, label))
            bx += 22 + 7 * len(label)
    parts.append("</svg>")
    return "".join(parts)
