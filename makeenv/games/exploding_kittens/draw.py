"""ExplodingKittens drawings and words: ``render(state)`` (SVG from the player's view, clickable),
``describe_action(action)`` and ``describe_state(state)`` (text for language-model players).

Python only; the rules live in ``logic.py``. Elements that play an action carry
``data-action="k"``: the draw pile draws, my cards play / give / discard themselves, the other
players' panels pick them, the discard pile's kinds take one back, and buttons do the rest.
"""

from __future__ import annotations

import re
from html import escape

import numpy as np

from .logic import (
    A_DISCARD,
    A_DRAW,
    A_FIVE,
    A_GIVE,
    A_NAME,
    A_NOPE,
    A_PAIR,
    A_PASS,
    A_TAKE,
    A_TARGET,
    A_TRIPLE,
    CARD_NAMES,
    CHOOSE_CARD,
    CHOOSE_PLAYER,
    DISCARDING,
    FAVOR,
    HAND_KINDS,
    KINDS,
    KITTEN,
    MAIN,
    NOPING,
    NUM_ACTIONS,
    PHASE_NAMES,
    S_ACTION,
    S_ALIVE,
    S_CARDS,
    S_COMBO,
    S_DISCARD,
    S_DRAWS,
    S_FUTURE,
    S_HAND,
    S_MAIN,
    S_NOPED,
    S_OUT,
    S_OVER,
    S_PHASE,
    S_PILE,
    S_PLAYERS,
    S_TARGET,
    S_TO_DISCARD,
    S_TO_MOVE,
    S_WON,
    STATE_SIZE,
    getValidActions,
    in_game,
)

WIDTH, HEIGHT = 1000, 640
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK, GREY, BLUE, RED, GREEN = "#1f2430", "#6b7280", "#2563eb", "#c0392b", "#1d8a4e"
KIND_COLOUR = (
    "#7c3aed",
    "#dc2626",
    "#2563eb",
    "#db2777",
    "#0d9488",
    "#9333ea",
    "#b45309",
    "#ca8a04",
    "#4b5563",
    "#92400e",
    "#15803d",
    "#16a34a",
    "#111827",
)
MAIN_ACTIONS = {
    1: "Play Attack (end the turn; the next player takes two turns)",
    2: "Play Skip (end one turn without drawing)",
    3: "Play Favor (a player of your choice gives you a card)",
    4: "Play Shuffle (shuffle the draw pile)",
    5: "Play See the Future (look at the top three cards)",
    A_DRAW: "Draw a card and end the turn",
    A_PAIR: "Play two alike (steal a random card from a player)",
    A_TRIPLE: "Play three alike (name a card to take from a player)",
    A_FIVE: "Play five different (take a card from the discard pile)",
}
CHIP_NAMES = (
    "Nope",
    "Attack",
    "Skip",
    "Favor",
    "Shuffle",
    "Future",
    "Tacocat",
    "Rainbow cat",
    "Beard cat",
    "Potato cat",
    "Cattermelon",
    "Defuse",
    "Kitten",
)
SHORT = {
    1: "Attack",
    2: "Skip",
    3: "Favor",
    4: "Shuffle",
    5: "See the Future",
    A_DRAW: "Draw",
    A_PAIR: "two alike",
    A_TRIPLE: "three alike",
    A_FIVE: "five different",
}


def seat_name(r: int) -> str:
    return "you" if r == 0 else f"Player +{r}"


def describe_action(action: int) -> str:
    """What an action means, e.g. "Play Skip (end one turn without drawing)", "Give a Defuse"."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"Unknown action {a}"
    if a == A_NOPE:
        return "Play Nope (cancel the action)"
    if a in MAIN_ACTIONS:
        return MAIN_ACTIONS[a]
    if a == A_PASS:
        return "Let the action happen (no Nope)"
    if a < A_GIVE:
        r = a - A_TARGET + 1
        return f"Pick the player {r} seat{'s' if r > 1 else ''} after you (Player +{r})"
    if a < A_NAME:
        return f"Give a {CARD_NAMES[a - A_GIVE]}"
    if a < A_TAKE:
        return f"Name {CARD_NAMES[a - A_NAME]}"
    if a < A_DISCARD:
        return f"Take a {CARD_NAMES[a - A_TAKE]} from the discard pile"
    return f"Discard {CARD_NAMES[a - A_DISCARD]} for the combo"


def _read(state) -> dict:
    s = np.asarray(state, dtype=np.float64)
    if s.shape != (STATE_SIZE,):
        raise ValueError(f"ExplodingKittens: expected a state of length {STATE_SIZE}, got shape {s.shape}")
    s = np.where(np.isfinite(s), s, 0.0)
    players = int(s[S_PLAYERS]) if 2 <= s[S_PLAYERS] <= 5 else 5

    def one_hot(start, count):
        return next((i for i in range(count) if s[start + i] > 0.5), None)

    future = [one_hot(S_FUTURE + KINDS * i, KINDS) for i in range(3)]
    return {
        "players": players,
        "hand": [int(s[S_HAND + k]) for k in range(HAND_KINDS)],
        "discard": [int(s[S_DISCARD + k]) for k in range(KINDS)],
        "out": [int(s[S_OUT + k]) for k in range(HAND_KINDS)],
        "pile": int(s[S_PILE]),
        "future": [f for f in future if f is not None],
        "phase": one_hot(S_PHASE, 5),
        "pending": one_hot(S_ACTION, 10),
        "noped": s[S_NOPED] > 0.5,
        "draws": int(s[S_DRAWS]),
        "to_discard": int(s[S_TO_DISCARD]),
        "combo": [k for k in range(11) if s[S_COMBO + k] > 0.5],
        "alive": [s[S_ALIVE + r] > 0.5 for r in range(players)],
        "cards": [int(s[S_CARDS + r]) for r in range(players)],
        "main": one_hot(S_MAIN, 5),
        "to_move": one_hot(S_TO_MOVE, 5),
        "target": one_hot(S_TARGET, 5),
        "over": s[S_OVER] > 0.5,
        "won": s[S_WON] > 0.5,
        "kittens": in_game(players, KITTEN) - int(s[S_DISCARD + KITTEN]),
        "valid": getValidActions(s),
    }


def _cards_words(counts) -> str:
    parts = [f"{n} {CARD_NAMES[k]}" for k, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "none"


def _prompt(g) -> str:
    """What the player to move is asked (from this player's point of view)."""
    if g["over"]:
        if g["won"]:
            return "You won: every other player exploded!"
        if not g["alive"][0]:
            return "You exploded: you are out."
        winner = next((r for r in range(g["players"]) if g["alive"][r]), None)
        return f"Game over: {seat_name(winner).capitalize()} won." if winner is not None else "Game over."
    who = g["to_move"]
    pending = SHORT.get(g["pending"], "")
    if who != 0:
        return f"{seat_name(who).capitalize()} is to play ({PHASE_NAMES[g['phase']]} phase)."
    phase = g["phase"]
    if phase == MAIN:
        owed = f" (you owe {g['draws']} draws)" if g["draws"] > 1 else ""
        return f"Your turn{owed}: play cards, or draw to end the turn."
    if phase == NOPING:
        if g["main"] == 0:
            return f"Your {pending} was Noped: Nope back, or accept."
        state = " (currently Noped)" if g["noped"] else ""
        return f"{seat_name(g['main']).capitalize()} plays {pending}{state}: Nope it, or let it happen."
    if phase == CHOOSE_PLAYER:
        return f"{pending.capitalize()}: pick a player."
    if phase == CHOOSE_CARD:
        if g["pending"] == FAVOR:
            return f"{seat_name(g['main']).capitalize()} asks you a Favor: pick a card to give."
        if g["pending"] == A_TRIPLE:
            return "Three alike: name the card you want."
        return "Five different: pick a card from the discard pile."
    return f"Discard the cards for {pending} ({g['to_discard']} to go)."


def describe_state(state) -> str:
    """The state in words for a language-model player (only what this player may see)."""
    g = _read(state)
    risk = f"{g['kittens']} Exploding Kitten{'s' if g['kittens'] != 1 else ''}"
    lines = [
        f"Exploding Kittens, {g['players']} players; the last player left wins.",
        _prompt(g),
        f"Your hand: {_cards_words(g['hand'])}.",
        f"Draw pile: {g['pile']} card{'s' if g['pile'] != 1 else ''}, {risk} among them.",
    ]
    if g["future"]:
        lines.append("You saw the top of the pile: " + ", then ".join(CARD_NAMES[k] for k in g["future"]) + ".")
    lines.append(f"Discard pile: {_cards_words(g['discard'][:HAND_KINDS])}.")
    if any(g["out"]):
        lines.append(f"Out of the game (exploded players' hands): {_cards_words(g['out'])}.")
    others = []
    for r in range(1, g["players"]):
        status = f"{g['cards'][r]} cards" if g["alive"][r] else "exploded"
        others.append(f"{seat_name(r)}: {status}")
    lines.append("Others (in turn order after you): " + "; ".join(others) + ".")
    if not g["over"] and g["main"] is not None and g["main"] != 0:
        lines.append(f"It is {seat_name(g['main'])}'s turn ({g['draws']} draw{'s' if g['draws'] != 1 else ''} owed).")
    return "\n".join(lines)


# ---- drawing --------------------------------------------------------------------------------------


def _clickable(action: int, valid, body: str, title: str) -> str:
    if 0 <= action < NUM_ACTIONS and valid[action] == 1.0:
        return f'<g data-action="{action}" style="cursor:pointer"><title>{escape(title)}</title>{body}</g>'
    return body


def _card(x: float, y: float, kind: int, count: int, w: float = 82, h: float = 112, ring: str | None = None) -> str:
    colour = KIND_COLOUR[kind]
    words = CARD_NAMES[kind].replace("-", "- ").split()
    lines = []
    line = ""
    for word in words:
        if len(line) + len(word) > 9 and line:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    lines.append(line)
    text = "".join(
        f'<text x="{x + w / 2}" y="{y + 44 + 15 * i}" text-anchor="middle" font-size="12" '
        f'font-weight="bold" fill="#ffffff">{escape(t)}</text>'
        for i, t in enumerate(lines[:3])
    )
    stroke = ring or "#1f2430"
    badge = (
        (
            f'<circle cx="{x + w - 12}" cy="{y + 14}" r="11" fill="#ffffff" stroke="{colour}" stroke-width="2"/>'
            f'<text x="{x + w - 12}" y="{y + 19}" text-anchor="middle" font-size="13" font-weight="bold" '
            f'fill="{INK}">{count}</text>'
        )
        if count > 1
        else ""
    )
    return (
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="9" fill="{colour}" stroke="{stroke}" '
        f'stroke-width="{5 if ring else 1.5}"/>{text}{badge}'
    )


def _button(x: float, y: float, w: float, label: str, action: int, valid, colour: str = BLUE) -> str:
    if not (0 <= action < NUM_ACTIONS and valid[action] == 1.0):
        return ""
    body = (
        f'<rect x="{x}" y="{y}" width="{w}" height="30" rx="7" fill="{colour}"/>'
        f'<text x="{x + w / 2}" y="{y + 20}" text-anchor="middle" font-size="13" font-weight="bold" '
        f'fill="#ffffff">{escape(label)}</text>'
    )
    return _clickable(action, valid, body, describe_action(action))


def _seat_markup(text: str) -> str:
    """``text`` with each "Player +r" marked, so the browser page can write in its own name for that seat."""
    return re.sub(r"Player \+(\d+)", r'<tspan data-relative-seat="\1">Player +\1</tspan>', text)


def render(state) -> str:
    """An SVG picture of an ExplodingKittens state from its player's point of view."""
    g = _read(state)
    valid = g["valid"]
    phase = g["phase"]
    mine = g["to_move"] == 0 and not g["over"]
    colour = GREEN if g["won"] else (RED if g["over"] and not g["alive"][0] else INK)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="#fdf6ec"/>',
        f'<text x="20" y="34" font-size="20" font-weight="bold" fill="{colour}" data-prompt="">'
        f"{_seat_markup(escape(_prompt(g)))}</text>",
    ]
    # the other players, in turn order after me
    others = g["players"] - 1
    width = min(220, (WIDTH - 40) / max(others, 1) - 10)
    for r in range(1, g["players"]):
        x, y = 20 + (width + 10) * (r - 1), 52
        alive = g["alive"][r]
        border = BLUE if g["to_move"] == r else ("#f59e0b" if g["main"] == r else "#cbd5e1")
        body = [
            f'<rect x="{x}" y="{y}" width="{width}" height="96" rx="10" fill="{"#ffffff" if alive else "#e5e7eb"}" '
            f'stroke="{border}" stroke-width="{3 if border != "#cbd5e1" else 1}"/>',
            f'<text x="{x + 10}" y="{y + 22}" font-size="13" font-weight="bold" fill="{INK}" '
            f'data-relative-seat="{r}">Player +{r}</text>',
        ]
        if g["main"] == r and not g["over"]:
            body.append(
                f'<text x="{x + width - 10}" y="{y + 88}" text-anchor="end" font-size="11" '
                f'fill="#b45309">their turn</text>'
            )
        if g["target"] == r:
            body.append(
                f'<text x="{x + width - 10}" y="{y + 88}" text-anchor="end" font-size="11" fill="{RED}">picked</text>'
            )
        if alive:
            n = g["cards"][r]
            for i in range(min(n, 8)):
                body.append(
                    f'<rect x="{x + 10 + 14 * i}" y="{y + 34}" width="26" height="36" rx="4" fill="#7f1d1d" '
                    f'stroke="#ffffff"/>'
                )
            body.append(
                f'<text x="{x + 10}" y="{y + 88}" font-size="12" fill="{GREY}">{n} card{"s" if n != 1 else ""}</text>'
            )
        else:
            body.append(
                f'<text x="{x + width / 2}" y="{y + 62}" text-anchor="middle" font-size="15" '
                f'font-weight="bold" fill="{RED}">exploded</text>'
            )
        parts.append(_clickable(A_TARGET + r - 1, valid, "".join(body), describe_action(A_TARGET + r - 1)))
    # draw pile, future, discard pile
    pile = (
        f'<rect x="20" y="170" width="110" height="150" rx="10" fill="#7f1d1d" stroke="#1f2430" stroke-width="2"/>'
        f'<text x="75" y="230" text-anchor="middle" font-size="15" font-weight="bold" fill="#ffffff">Draw pile</text>'
        f'<text x="75" y="254" text-anchor="middle" font-size="14" fill="#fecaca">{g["pile"]} cards</text>'
        f'<text x="75" y="274" text-anchor="middle" font-size="12" fill="#fecaca">{g["kittens"]} kitten'
        f"{'s' if g['kittens'] != 1 else ''}</text>"
    )
    if valid[A_DRAW] == 1.0:
        pile += '<text x="75" y="304" text-anchor="middle" font-size="11" fill="#ffffff">click: draw</text>'
    parts.append(_clickable(A_DRAW, valid, pile, describe_action(A_DRAW)))
    if g["future"]:
        parts.append('<text x="146" y="186" font-size="12" fill="#6b21a8">You saw the top (first drawn left):</text>')
        for i, kind in enumerate(g["future"]):
            parts.append(_card(146 + 64 * i, 194, kind, 1, w=58, h=80))
    parts.append(
        f'<text x="360" y="186" font-size="13" fill="{GREY}">Discard pile'
        f"{' (click a kind to take it)' if phase == CHOOSE_CARD and mine and g['pending'] == A_FIVE else ''}"
        "</text>"
    )
    shown = 0
    for kind in range(KINDS):
        n = g["discard"][kind]
        if n == 0:
            continue
        x, y = 360 + 152 * (shown % 4), 196 + 30 * (shown // 4)
        chip = (
            f'<rect x="{x}" y="{y}" width="146" height="24" rx="6" fill="{KIND_COLOUR[kind]}"/>'
            f'<text x="{x + 8}" y="{y + 17}" font-size="12" font-weight="bold" fill="#ffffff">'
            f"{escape(CHIP_NAMES[kind])} × {n}</text>"
        )
        action = A_TAKE + kind if kind < HAND_KINDS else -1
        parts.append(_clickable(action, valid, chip, describe_action(action)) if action >= 0 else chip)
        shown += 1
    if g["pending"] is not None and not g["over"]:
        state = "Noped" if g["noped"] else "in play"
        parts.append(
            f'<text x="360" y="318" font-size="13" fill="{INK}">{seat_name(g["main"]).capitalize()} played '
            f"{escape(SHORT.get(g['pending'], ''))}: {state}"
            f"{'; combo cards: ' + ', '.join(CARD_NAMES[k] for k in g['combo']) if g['combo'] else ''}</text>"
        )
    # my hand
    parts.append(
        f'<rect x="10" y="340" width="{WIDTH - 20}" height="290" rx="12" fill="#ffffff" '
        f'stroke="{BLUE if mine else "#cbd5e1"}" stroke-width="{3 if mine else 1}"/>'
    )
    parts.append(
        f'<text x="24" y="364" font-size="15" font-weight="bold" fill="{INK}">Your hand '
        f"({sum(g['hand'])} cards){'' if g['alive'][0] else ' — exploded'}</text>"
    )
    if phase == MAIN:
        offset = 0  # card k plays action k (Attack .. See the Future)
    elif phase == CHOOSE_CARD and g["pending"] == FAVOR:
        offset = A_GIVE
    elif phase == DISCARDING:
        offset = A_DISCARD
    else:
        offset = -1
    hint = (
        {
            0: "click a highlighted card to play it",
            A_GIVE: "click a card to give it",
            A_DISCARD: "click a card to discard it",
        }.get(offset, "")
        if mine
        else ""
    )
    if hint:
        parts.append(f'<text x="230" y="364" font-size="12" fill="#b45309">{hint}</text>')
    x = 24
    for kind in range(HAND_KINDS):
        n = g["hand"][kind]
        if n == 0:
            continue
        action = offset + kind if offset >= 0 else -1
        live = 0 <= action < NUM_ACTIONS and valid[action] == 1.0 and (offset != 0 or 1 <= kind <= 5)
        card = _card(x, 376, kind, n, ring="#f59e0b" if live else None)
        parts.append(_clickable(action, valid, card, describe_action(action)) if live else card)
        x += 90
    # buttons for the rest
    buttons = [
        (A_DRAW, "Draw", BLUE),
        (A_PAIR, "Two alike: steal", "#7c3aed"),
        (A_TRIPLE, "Three alike: name", "#7c3aed"),
        (A_FIVE, "Five different", "#7c3aed"),
        (A_NOPE, "Nope!", RED),
        (A_PASS, "No Nope", GREY),
    ]
    bx = 24
    if mine:
        for action, label, colour in buttons:
            button = _button(bx, 506, 140, label, action, valid, colour)
            if button:
                parts.append(button)
                bx += 150
    if mine and phase == CHOOSE_CARD and g["pending"] == A_TRIPLE:
        parts.append(f'<text x="24" y="556" font-size="12" fill="{GREY}">Name a card:</text>')
        for kind in range(HAND_KINDS):
            parts.append(
                _button(
                    24 + 80 * (kind % 12),
                    566,
                    76,
                    CARD_NAMES[kind].split()[0][:9],
                    A_NAME + kind,
                    valid,
                    KIND_COLOUR[kind],
                )
            )
    if not g["over"]:
        parts.append(
            f'<text x="{WIDTH - 24}" y="364" text-anchor="end" font-size="12" fill="{GREY}">'
            f"{escape(PHASE_NAMES[phase] if phase is not None else '')} phase · "
            f"{g['draws']} draw{'s' if g['draws'] != 1 else ''} owed by the player on turn</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
