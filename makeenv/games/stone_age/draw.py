"""Stone Age drawings and words, from one player's view. Python only.

``render(state)`` draws the eight places with every seat's workers on them, the four
civilisation cards and the building stack tops (with who stands on them), a table of every
player's score, food, workers, agriculture, tools, resources and cards, and the buttons of the
pending choice (how many workers, tools, payments, feeding, dice, free resources). Whatever the
player may do is clickable. ``describe_action`` names an action; ``describe_state`` puts the
state in words.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    B_ANY,
    B_COST,
    B_COUNT,
    B_KINDS,
    B_POINTS,
    BUILD_BLOCK,
    C_ANY,
    C_CULTURE,
    C_DICE_ALL,
    C_EXTRA,
    C_FIELD,
    C_FOOD,
    C_MULT,
    C_MULT_KIND,
    C_ONE_USE,
    C_POINTS,
    C_RES,
    C_ROLL,
    C_TOOL,
    CIV_BLOCK,
    CIV_FIELDS,
    COUNT,
    CULTURE_NAMES,
    DIE,
    DONE,
    FEED_PENALTY,
    FEED_RES,
    FREE,
    GAIN,
    MAX_PLAYERS,
    MULT_NAMES,
    NUM_ACTIONS,
    ONE_USE,
    P_AT,
    P_CULTURE,
    P_FIELD,
    P_FOOD,
    P_HUTS,
    P_MULT,
    P_ONE_USE,
    P_PENALTY,
    P_POINTS,
    P_RES,
    P_TOOLS,
    P_USED,
    P_WORKERS,
    PAY,
    PH_COUNT,
    PH_DICE,
    PH_FEED,
    PH_FREE,
    PH_PAY_ANY,
    PH_PAY_CIV,
    PH_PAY_FOOD,
    PH_PAY_KINDS,
    PH_PLACE,
    PH_TAKE,
    PH_TOOLS,
    PLACE,
    PLACE_BUILD,
    PLACE_CIV,
    Q_LEFT,
    Q_PLAYER,
    Q_PRESENT,
    RESOURCE_NAMES,
    S_ADDED,
    S_BUILD,
    S_CIV,
    S_CIV_DICE,
    S_CIV_LEFT,
    S_DICE,
    S_FIRST,
    S_OVER,
    S_OWE,
    S_PAID,
    S_PLAYERS,
    S_ROUND,
    S_SEAT,
    S_SEATS,
    S_SITE,
    S_STEPS,
    S_TO_MOVE,
    S_WINNERS,
    S_WON,
    SEAT_BLOCK,
    SITE_WOOD,
    STATE_SIZE,
    STEP_CAP,
    STOP_PAYING,
    TAKE,
    TAKE_BUILD,
    TAKE_CIV,
    TOOL,
    block_score,
    isValidAction,
    state_phase,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
WIDTH = 980
INK, GREY, BLUE, GREEN, RED, SAND = "#1f2430", "#6b7280", "#2f6fde", "#1d8a4e", "#c0392b", "#efe4cc"
SEAT_COLOURS = ("#2f6fde", "#d64541", "#2e9e5b", "#b7791f")
RES_COLOURS = ("#8b5a2b", "#c0562f", "#7f8c8d", "#d4a017")
SITE_NAMES = ("Field", "Toolmaker", "Hut", "Wood", "Brick", "Stone", "Gold", "Hunting")
SITE_NOTES = (
    "+1 agriculture",
    "+1 tool",
    "2 workers: +1",
    "dice ÷ 3",
    "dice ÷ 4",
    "dice ÷ 5",
    "dice ÷ 6",
    "dice ÷ 2 food",
)
DIE_GAINS = ("", "a wood", "a brick", "a stone", "a gold", "a tool", "+1 agriculture")


def seat_name(rel: int) -> str:
    """ "You", "Next player", "Player 2 seats on"."""
    return ("You", "Next player")[rel] if rel < 2 else f"Player {rel} seats on"


def _count(value: float) -> int:
    return int(value) if np.isfinite(value) and value > 0 else 0


def _players(state) -> int:
    return min(max(_count(state[S_PLAYERS]), 2), MAX_PLAYERS)


def _seat(state, rel: int) -> np.ndarray:
    """The seat's PLAYER_BLOCK values (P_* offsets)."""
    at = S_SEATS + rel * SEAT_BLOCK + Q_PLAYER
    return state[at : at + SEAT_BLOCK - Q_PLAYER]


def _res_list(counts) -> str:
    parts = [f"{_count(counts[r])} {RESOURCE_NAMES[r]}" for r in range(4) if counts[r] > 0]
    return " + ".join(parts) if parts else "nothing"


def card_text(card) -> str:
    """A civilisation card's columns in words: "5 food; medicine" or "dice for all; huts x2"."""
    now = []
    if card[C_FOOD] > 0:
        now.append(f"{_count(card[C_FOOD])} food")
    if card[C_POINTS] > 0:
        now.append(f"{_count(card[C_POINTS])} points")
    if card[C_RES : C_RES + 4].any():
        now.append(_res_list(card[C_RES : C_RES + 4]))
    if card[C_TOOL] > 0:
        now.append("+1 tool")
    if card[C_ONE_USE] > 0:
        now.append(f"one-use tool {_count(card[C_ONE_USE])}")
    if card[C_FIELD] > 0:
        now.append("+1 agriculture")
    if card[C_ANY] > 0:
        now.append(f"{_count(card[C_ANY])} resources of choice")
    if card[C_EXTRA] > 0:
        now.append("+1 card from the deck")
    if card[C_DICE_ALL] > 0:
        now.append("dice for all")
    if card[C_ROLL] > 0:
        now.append(f"2 dice for {RESOURCE_NAMES[_count(card[C_ROLL]) - SITE_WOOD]}")
    end = ""
    if card[C_CULTURE] > 0:
        end = CULTURE_NAMES[_count(card[C_CULTURE]) - 1]
    elif card[C_MULT_KIND] > 0:
        kind = MULT_NAMES[_count(card[C_MULT_KIND]) - 1]
        end = f"{kind}s x{_count(card[C_MULT])}"
    return f"{', '.join(now) or 'nothing'}; {end}"


def building_text(block) -> str:
    """A building's columns (B_* offsets) in words."""
    if block[B_ANY] > 0:
        return f"1 to {_count(block[B_ANY])} resources of any kinds (their value)"
    if block[B_COUNT] > 0:
        kinds = _count(block[B_KINDS])
        return f"{_count(block[B_COUNT])} resources of {kinds} kind{'s' if kinds > 1 else ''} (their value)"
    return f"{_res_list(block[B_COST : B_COST + 4])} for {_count(block[B_POINTS])} points"


def describe_action(action: int) -> str:
    """What an action means."""
    a = int(action)
    if a == DONE:
        return "Roll now (no more tools) / end"
    if COUNT < a < PLACE:
        return f"Place {a - COUNT} worker{'s' if a > 1 else ''}"
    if PLACE <= a < PLACE_CIV:
        return f"Place on {SITE_NAMES[a - PLACE].lower()}"
    if PLACE_CIV <= a < PLACE_BUILD:
        return f"Place on the civilisation card costing {a - PLACE_CIV + 1}"
    if PLACE_BUILD <= a < FEED_RES:
        return f"Place on building stack {a - PLACE_BUILD + 1}"
    if a == FEED_RES:
        return "Feed with resources"
    if a == FEED_PENALTY:
        return "Go hungry: -10 points"
    if TAKE <= a < TOOL:
        return f"Take back the workers on {SITE_NAMES[a - TAKE].lower()}"
    if TOOL <= a < PAY:
        return f"Use tool tile {a - TOOL + 1}"
    if PAY <= a < ONE_USE:
        return f"Pay a {RESOURCE_NAMES[a - PAY]}"
    if ONE_USE <= a < STOP_PAYING:
        return f"Use the one-use tool worth {a - ONE_USE + 2}"
    if a == STOP_PAYING:
        return "Stop paying (build with what is paid)"
    if TAKE_CIV <= a < TAKE_BUILD:
        return f"Take back the worker on the card costing {a - TAKE_CIV + 1} (buy it)"
    if TAKE_BUILD <= a < DIE:
        return f"Take back the worker on building stack {a - TAKE_BUILD + 1} (build)"
    if DIE < a < FREE:
        return f"Take the die showing {a - DIE} ({DIE_GAINS[a - DIE]})"
    if a == FREE:
        return "Choose the free resources of your card"
    if GAIN <= a < NUM_ACTIONS:
        return f"Take a free {RESOURCE_NAMES[a - GAIN]}"
    return f"Unknown action {a}"


def _headline(state) -> tuple[str, str]:
    if state[S_OVER] > 0.5:
        if state[S_WON] > 0.5:
            return "You won: highest score!", GREEN
        winner = next((r for r in range(_players(state)) if state[S_WINNERS + r] > 0.5), 0)
        return f"Game over: {seat_name(winner).lower()} won", RED
    phase = state_phase(state)
    site = _count(state[S_SITE]) - 1
    left = _count(state[S_SEATS + Q_LEFT])
    texts = {
        PH_PLACE: f"Place workers ({left} left): choose a place",
        PH_COUNT: f"How many workers on {SITE_NAMES[site].lower() if 0 <= site < 8 else '?'}?",
        PH_TAKE: "Take your workers back: choose a place to use",
        PH_PAY_CIV: f"Pay for the card: {_count(site - 7 - state[S_PAID : S_PAID + 4].sum())} resources still",
        PH_TOOLS: f"Dice show {_count(state[S_DICE])} + {_count(state[S_ADDED])} from tools: add a tool or roll",
        PH_PAY_ANY: "Pay up to 7 resources for the building, or stop",
        PH_FEED: f"Short of food by {_count(state[S_OWE])}: pay resources or take -10 points",
        PH_DICE: "Take one of the dice",
        PH_FREE: "Take a free resource",
        PH_PAY_KINDS: "Pay the building's resources",
        PH_PAY_FOOD: f"Pay {_count(state[S_OWE] - state[S_PAID : S_PAID + 4].sum())} resources for food",
    }
    if phase in texts:
        return texts[phase], INK
    return "Waiting for the other players", GREY


def _seat_line(state, rel: int) -> str:
    s = _seat(state, rel)
    tools = "/".join(str(_count(s[P_TOOLS + t])) for t in range(3))
    ones = [str(t + 2) for t in range(3) if s[P_ONE_USE + t] > 0]
    culture = [f"{CULTURE_NAMES[c]} x{_count(s[P_CULTURE + c])}" for c in range(8) if s[P_CULTURE + c] > 0]
    mults = [f"{MULT_NAMES[k]}s x{_count(s[P_MULT + k])}" for k in range(4) if s[P_MULT + k] > 0]
    return (
        f"points {_count(s[P_POINTS]) - _count(s[P_PENALTY])}, food {_count(s[P_FOOD])}, "
        f"workers {_count(s[P_WORKERS])} ({_count(state[S_SEATS + rel * SEAT_BLOCK + Q_LEFT])} not placed), "
        f"agriculture {_count(s[P_FIELD])}, tools {tools}"
        + (f" + one-use {', '.join(ones)}" if ones else "")
        + f", {_res_list(s[P_RES : P_RES + 4])}, {_count(s[P_HUTS])} buildings"
        + (f"; culture: {', '.join(culture)}" if culture else "")
        + (f"; multipliers: {', '.join(mults)}" if mults else "")
    )


def describe_state(state) -> str:
    """The state in words: the places, the cards and buildings, every player, whose move."""
    state = np.asarray(state, dtype=np.float64)
    n = _players(state)
    lines = [
        f"Stone Age, {n} players; you are seat {_count(state[S_SEAT])}; round {_count(state[S_ROUND]) + 1}, "
        f"move {_count(state[S_STEPS])} of at most {STEP_CAP}; {_count(state[S_CIV_LEFT])} cards left in the "
        "civilisation deck. Score at the end: points + culture sets squared + multipliers + 1 per resource.",
        _headline(state)[0] + ".",
        "Workers on the places: "
        + "; ".join(
            f"{SITE_NAMES[site]} ("
            + ", ".join(
                f"{seat_name(r).lower()} {_count(_seat(state, r)[P_AT + site])}"
                for r in range(n)
                if _seat(state, r)[P_AT + site] > 0
            )
            + ")"
            for site in range(8)
            if any(_seat(state, r)[P_AT + site] > 0 for r in range(n))
        ),
        "Civilisation cards (cost 1 to 4): "
        + "; ".join(
            f"{k + 1}: {card_text(state[S_CIV + k * CIV_BLOCK + 3 : S_CIV + k * CIV_BLOCK + 3 + CIV_FIELDS])}"
            + _occupant(state, state[S_CIV + k * CIV_BLOCK + 1], state[S_CIV + k * CIV_BLOCK + 2])
            for k in range(4)
            if state[S_CIV + k * CIV_BLOCK] > 0.5
        ),
        "Building stacks: "
        + "; ".join(
            f"{k + 1} ({_count(state[S_BUILD + k * BUILD_BLOCK + 1])} left): "
            f"{building_text(state[S_BUILD + k * BUILD_BLOCK + 4 : S_BUILD + (k + 1) * BUILD_BLOCK])}"
            + _occupant(state, state[S_BUILD + k * BUILD_BLOCK + 2], state[S_BUILD + k * BUILD_BLOCK + 3])
            for k in range(4)
            if state[S_BUILD + k * BUILD_BLOCK] > 0.5
        ),
    ]
    if state[S_CIV_DICE : S_CIV_DICE + 4].any():
        lines.append("Dice to share: " + ", ".join(str(_count(d)) for d in state[S_CIV_DICE : S_CIV_DICE + 4] if d))
    for rel in range(n):
        marks = (" (first player)" if state[S_FIRST + rel] > 0.5 else "") + (
            " (to move)" if state[S_TO_MOVE + rel] > 0.5 else ""
        )
        lines.append(f"{seat_name(rel)}{marks}: {_seat_line(state, rel)}.")
    return "\n".join(lines)


def _occupant(state, occ: float, taken: float) -> str:
    if taken > 0.5:
        return " (taken this round)"
    rel = _count(occ) - 1
    return f" ({seat_name(rel).lower()} stands on it)" if rel >= 0 else ""


# ---- drawing -----------------------------------------------------------------------------------


def _clickable(action: int | None) -> str:
    return f' data-action="{action}" style="cursor:pointer"' if action is not None else ""


def _first_valid(state, *actions: int) -> int | None:
    return next((a for a in actions if isValidAction(state, a)), None)


def _box(x, y, w, h, action, title, fill="#ffffff", inner="") -> str:
    stroke, width = (BLUE, 3) if action is not None else ("#9ca3af", 1.2)
    return (
        f"<g{_clickable(action)}><title>{escape(title)}</title>"
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="8" fill="{fill}" stroke="{stroke}" stroke-width="{width}"/>'
        f"{inner}</g>"
    )


def _text(x, y, text, size=12, colour=INK, bold=False, anchor="start") -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x}" y="{y}" font-size="{size}" fill="{colour}"{weight} text-anchor="{anchor}">{escape(text)}</text>'
    )


def _workers(x, y, state, site, n) -> str:
    """Each seat's workers on ``site``: a coloured disc with the count."""
    parts, i = [], 0
    for rel in range(n):
        k = _count(_seat(state, rel)[P_AT + site])
        if k:
            cx = x + 14 + i * 28
            parts.append(
                f'<circle cx="{cx}" cy="{y}" r="12" fill="{SEAT_COLOURS[rel]}"/>'
                + _text(cx, y + 5, str(k), 13, "#ffffff", True, "middle")
            )
            i += 1
    return "".join(parts)


def _marker(x, y, occ: float, taken: float) -> str:
    if taken > 0.5:
        return _text(x, y + 4, "taken", 11, GREY)
    rel = _count(occ) - 1
    return f'<circle cx="{x + 10}" cy="{y}" r="10" fill="{SEAT_COLOURS[rel]}"/>' if rel >= 0 else ""


def _places(state, y: float, n: int) -> str:
    parts = [_text(24, y - 8, "Places", 14, INK, True)]
    for site in range(8):
        x = 24 + site * 118
        action = _first_valid(state, PLACE + site, TAKE + site)
        title = describe_action(action) if action is not None else SITE_NAMES[site]
        inner = (
            _text(x + 8, y + 20, SITE_NAMES[site], 14, INK, True)
            + _text(x + 8, y + 38, SITE_NOTES[site], 11, GREY)
            + _workers(x, y + 62, state, site, n)
        )
        parts.append(_box(x, y, 110, 80, action, title, "#fbf7ee", inner))
    return "".join(parts)


def _wrap(text: str, width: int) -> list[str]:
    words, lines, line = text.split(), [], ""
    for w in words:
        if line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}".strip()
    return lines + [line] if line else lines


def _cards(state, y: float) -> str:
    parts = [
        _text(24, y - 8, f"Civilisation cards · deck {_count(state[S_CIV_LEFT])}", 14, INK, True),
        _text(510, y - 8, "Building stacks", 14, INK, True),
    ]
    for k in range(4):
        at = S_CIV + k * CIV_BLOCK
        if state[at] < 0.5:
            continue
        x = 24 + k * 120
        now, end = card_text(state[at + 3 : at + 3 + CIV_FIELDS]).split("; ")
        action = _first_valid(state, PLACE_CIV + k, TAKE_CIV + k)
        inner = _text(x + 8, y + 18, f"cost {k + 1}", 12, GREY, True)
        for i, line in enumerate(_wrap(now, 17)[:3]):
            inner += _text(x + 8, y + 36 + i * 15, line, 12)
        inner += _text(x + 8, y + 98, end, 12, "#7b3f00", True) + _marker(x + 86, y + 14, state[at + 1], state[at + 2])
        parts.append(_box(x, y, 112, 108, action, f"{describe_action(PLACE_CIV + k)}: {now}; {end}", "#fffaf0", inner))
    for k in range(4):
        at = S_BUILD + k * BUILD_BLOCK
        if state[at] < 0.5:
            continue
        x = 510 + k * 114
        block = state[at + 4 : at + BUILD_BLOCK]
        action = _first_valid(state, PLACE_BUILD + k, TAKE_BUILD + k)
        inner = _text(x + 8, y + 18, f"stack {k + 1} · {_count(state[at + 1])}", 12, GREY, True)
        if block[B_ANY] > 0 or block[B_COUNT] > 0:
            inner += _text(
                x + 8, y + 44, "1–7 any" if block[B_ANY] > 0 else f"{_count(block[B_COUNT])} res.", 14, INK, True
            )
            kinds = "any kinds" if block[B_ANY] > 0 else f"{_count(block[B_KINDS])} kind(s)"
            inner += _text(x + 8, y + 62, kinds, 12) + _text(x + 8, y + 80, "= their value", 11, GREY)
        else:
            inner += _text(x + 8, y + 44, f"{_count(block[B_POINTS])} points", 14, INK, True)
            for r in range(4):
                for j in range(_count(block[B_COST + r])):
                    i = int(block[B_COST : B_COST + r].sum()) + j
                    inner += f'<rect x="{x + 8 + i * 20}" y="{y + 58}" width="16" height="16" rx="3" fill="{RES_COLOURS[r]}"/>'
        inner += _marker(x + 80, y + 96, state[at + 2], state[at + 3])
        title = f"{describe_action(PLACE_BUILD + k)}: {building_text(block)}"
        parts.append(_box(x, y, 106, 108, action, title, "#f4f1ea", inner))
    return "".join(parts)


def _seat_name_markup(rel: int) -> str:
    """A seat's name, marked so the browser page can write in its own name for it."""
    return f'<tspan data-relative-seat="{rel}">{escape(seat_name(rel))}</tspan>'


def _table(state, y: float, n: int) -> tuple[str, float]:
    """One line per seat: score, food, workers, agriculture, tools, resources, cards."""
    heads = ("", "score", "points", "food", "idle/all", "agric.", "tools", "wood", "brick", "stone", "gold", "huts")
    xs = (24, 236, 292, 350, 398, 462, 514, 600, 648, 696, 744, 792, 840)
    parts = [_text(xs[i], y, h, 12, RES_COLOURS[i - 7] if 7 <= i <= 10 else GREY, True) for i, h in enumerate(heads)]
    parts.append(_text(xs[-1], y, "cards", 12, GREY, True))
    for rel in range(n):
        if state[S_SEATS + rel * SEAT_BLOCK + Q_PRESENT] < 0.5:
            continue
        s = _seat(state, rel)
        row = y + 24 + rel * 26
        moving = state[S_TO_MOVE + rel] > 0.5
        won = state[S_OVER] > 0.5 and state[S_WINNERS + rel] > 0.5
        if moving or won:
            parts.append(
                f'<rect x="16" y="{row - 17}" width="{WIDTH - 32}" height="24" rx="6" fill="none" '
                f'stroke="{GREEN if won else BLUE}" stroke-width="2"/>'
            )
        first = " ★" if state[S_FIRST + rel] > 0.5 else ""
        parts.append(
            f"<g><title>{escape(seat_name(rel))}: {escape(_seat_line(state, rel))}</title>"
            f'<circle cx="32" cy="{row - 5}" r="7" fill="{SEAT_COLOURS[rel]}"/>'
            f'<text x="46" y="{row}" font-size="13" font-weight="bold" fill="{INK}">{_seat_name_markup(rel)}'
            f"{escape(first)}</text></g>"
        )
        tools = "".join(
            f'<tspan fill="{GREY if s[P_USED + t] > 0.5 else INK}">{_count(s[P_TOOLS + t])} </tspan>' for t in range(3)
        )
        ones = "".join(f"+{t + 2}" for t in range(3) if s[P_ONE_USE + t] > 0)
        at = S_SEATS + rel * SEAT_BLOCK + Q_PLAYER
        values = (
            str(int(block_score(state, at))),
            str(int(s[P_POINTS] - s[P_PENALTY])),
            str(_count(s[P_FOOD])),
            f"{_count(state[S_SEATS + rel * SEAT_BLOCK + Q_LEFT])}/{_count(s[P_WORKERS])}",
            str(_count(s[P_FIELD])),
            "",
            *(str(_count(s[P_RES + r])) for r in range(4)),
            str(_count(s[P_HUTS])),
            f"{int(s[P_CULTURE : P_CULTURE + 8].sum())} culture, {int(np.count_nonzero(s[P_MULT : P_MULT + 4]))} mult.",
        )
        for i, v in enumerate(values):
            parts.append(_text(xs[i + 1], row, v, 13, RES_COLOURS[i - 6] if 6 <= i <= 9 else INK, i == 0))
        parts.append(f'<text x="{xs[6]}" y="{row}" font-size="13">{tools}{escape(ones)}</text>')
    note = "score: the final score if the game ended now · ★ first player · grey tool: used this round"
    parts.append(_text(24, y + 24 + n * 26, note, 11, GREY))
    return "".join(parts), y + 30 + n * 26


def _buttons(state) -> list[tuple[int, str]]:
    """The pending choice's buttons: (action, label)."""
    if state[S_OVER] > 0.5:
        return [(DONE, "End")]
    phase = state_phase(state)
    me = _seat(state, 0)
    out: list[tuple[int, str]] = []
    if phase == PH_COUNT:
        out = [(COUNT + k, f"{k} worker{'s' if k > 1 else ''}") for k in range(1, 11)]
    elif phase == PH_TOOLS:
        out = [(TOOL + t, f"tool {_count(me[P_TOOLS + t])}") for t in range(3)]
        out += [(ONE_USE + t, f"one-use {t + 2}") for t in range(3)] + [(DONE, "Roll now")]
    elif phase in (PH_PAY_CIV, PH_PAY_ANY, PH_PAY_KINDS, PH_PAY_FOOD):
        out = [(PAY + r, f"pay {RESOURCE_NAMES[r]}") for r in range(4)] + [(STOP_PAYING, "Stop paying")]
    elif phase == PH_FEED:
        out = [(FEED_RES, "Pay resources"), (FEED_PENALTY, "-10 points")]
    elif phase == PH_DICE:
        out = [(DIE + v, f"die {v}: {DIE_GAINS[v]}") for v in range(1, 7)]
    elif phase == PH_FREE:
        out = [(GAIN + r, f"take {RESOURCE_NAMES[r]}") for r in range(4)]
    elif phase == PH_TAKE:
        out = [(FREE, "Free resources")]
    return [(a, label) for a, label in out if isValidAction(state, a)]


def render(state) -> str:
    """An SVG picture of a Stone Age state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"StoneAge.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    n = _players(state)
    head, head_colour = _headline(state)
    table, bottom = _table(state, 376, n)
    buttons = _buttons(state)
    parts = []
    for i, (action, label) in enumerate(buttons):
        x, y = 24 + (i % 6) * 156, bottom + 8 + (i // 6) * 44
        inner = f'<text x="{x + 72}" y="{y + 23}" text-anchor="middle" font-size="13" font-weight="bold" fill="#ffffff">{escape(label)}</text>'
        parts.append(_box(x, y, 144, 34, action, describe_action(action), BLUE, inner))
    height = bottom + 16 + ((len(buttons) + 5) // 6) * 44
    dice = state[S_CIV_DICE : S_CIV_DICE + 4]
    extra = f" · dice to share: {', '.join(str(_count(d)) for d in dice if d)}" if dice.any() else ""
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
            f'<rect width="{WIDTH}" height="{height}" rx="14" fill="{SAND}"/>',
            _text(
                24,
                28,
                f"Stone Age · {n} players · round {_count(state[S_ROUND]) + 1} · move {_count(state[S_STEPS])}"
                f" of {STEP_CAP} max{extra}",
                13,
                GREY,
            ),
            f'<text x="24" y="58" font-size="19" font-weight="bold" fill="{head_colour}" data-prompt="">{escape(head)}</text>',
            _places(state, 90, n),
            _cards(state, 218),
            table,
            *parts,
            "</svg>",
        ]
    )
