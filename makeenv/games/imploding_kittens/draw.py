"""ImplodingKittens drawings and words: ``render(state)`` (SVG from the player's view, clickable),
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
    A_ALTER,
    A_BOTTOM,
    A_DISCARD,
    A_DRAW,
    A_FIVE,
    A_GIVE,
    A_NAME,
    A_NOPE,
    A_ORDER,
    A_PAIR,
    A_PASS,
    A_REVERSE,
    A_TAKE,
    A_TARGET,
    A_TARGETED,
    A_TRIPLE,
    ALTERING,
    CARD_NAMES,
    CHOOSE_CARD,
    CHOOSE_PLAYER,
    DISCARDING,
    EXPLODING,
    FAVOR,
    HAND_KINDS,
    KINDS,
    MAIN,
    MAX_PLAYERS,
    NOPING,
    NUM_ACTIONS,
    ORDERS,
    PENDING_KINDS,
    PHASE_NAMES,
    PHASES,
    PLAYED_KIND,
    S_ABOVE,
    S_ACTION,
    S_ALIVE,
    S_CARDS,
    S_COMBO,
    S_DISCARD,
    S_DRAWS,
    S_FACE_UP,
    S_FUTURE,
    S_HAND,
    S_MAIN,
    S_NOPED,
    S_OUT,
    S_OVER,
    S_PHASE,
    S_PILE,
    S_PLAYERS,
    S_REVERSED,
    S_TARGET,
    S_TO_DISCARD,
    S_TO_MOVE,
    S_WON,
    STATE_SIZE,
    getValidActions,
    in_game,
)

WIDTH, HEIGHT = 1000, 660
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
    "#0369a1",
    "#4338ca",
    "#a16207",
    "#7e22ce",
    "#be123c",
    "#16a34a",
    "#111827",
    "#581c87",
)
PLAY_WORDS = {
    1: "end the turn; the next player takes two turns",
    2: "end one turn without drawing",
    3: "a player of your choice gives you a card",
    4: "shuffle the draw pile",
    5: "look at the top three cards",
    A_REVERSE: "turn the order of play round and end one turn without drawing",
    A_BOTTOM: "draw the bottom card instead of the top one",
    A_ALTER: "look at the top three cards and put them back in an order of your choice",
    A_TARGETED: "end the turn; a player of your choice takes two turns",
}
COMBO_WORDS = {
    A_PAIR: ("two alike", "steal a random card from a player"),
    A_TRIPLE: ("three alike", "name a card to take from a player"),
    A_FIVE: ("five different", "take a card from the discard pile"),
}


def seat_name(r: int) -> str:
    return "you" if r == 0 else f"Player +{r}"


def _short(action: int | None) -> str:
    """A played action in two words: "Attack", "two alike"."""
    if action is None:
        return ""
    if action in COMBO_WORDS:
        return COMBO_WORDS[action][0]
    return CARD_NAMES[PLAYED_KIND[action]] if 0 <= action < PENDING_KINDS and PLAYED_KIND[action] >= 0 else "Draw"


def describe_action(action: int) -> str:
    """What an action means, e.g. "Play Reverse (...)", "Give a Defuse", "Put the top three back as 2nd, 1st, 3rd"."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"Unknown action {a}"
    if a == A_NOPE:
        return "Play Nope (cancel the action)"
    if a in PLAY_WORDS:
        return f"Play {CARD_NAMES[PLAYED_KIND[a]]} ({PLAY_WORDS[a]})"
    if a == A_DRAW:
        return "Draw a card and end the turn"
    if a in COMBO_WORDS:
        name, words = COMBO_WORDS[a]
        return f"Play {name} ({words})"
    if a == A_PASS:
        return "Let the action happen (no Nope)"
    if a < A_GIVE:
        r = a - A_TARGET + 1
        return f"Pick the player {r} seat{'s' if r > 1 else ''} after you (Player +{r})"
    if a < A_NAME:
        return f"Give a {CARD_NAMES[a - A_GIVE]}"
    if a < A_TAKE:
        return f"Name {CARD_NAMES[a - A_NAME]}"
    if a < A_ORDER:
        return f"Take a {CARD_NAMES[a - A_TAKE]} from the discard pile"
    if a < A_DISCARD:
        order = ", ".join(("1st", "2nd", "3rd")[i] for i in ORDERS[a - A_ORDER])
        return f"Put the top three back in the order {order} (as seen, top first)"
    return f"Discard a {CARD_NAMES[a - A_DISCARD]} for the combo"


def _read(state) -> dict:
    s = np.asarray(state, dtype=np.float64)
    if s.shape != (STATE_SIZE,):
        raise ValueError(f"ImplodingKittens: expected a state of length {STATE_SIZE}, got shape {s.shape}")
    s = np.where(np.isfinite(s), s, 0.0)
    players = int(s[S_PLAYERS]) if 2 <= s[S_PLAYERS] <= MAX_PLAYERS else MAX_PLAYERS

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
        "phase": one_hot(S_PHASE, PHASES),
        "pending": one_hot(S_ACTION, PENDING_KINDS),
        "noped": s[S_NOPED] > 0.5,
        "draws": int(s[S_DRAWS]),
        "to_discard": int(s[S_TO_DISCARD]),
        "combo": [k for k in range(HAND_KINDS - 1) for _ in range(int(s[S_COMBO + k]))],
        "alive": [s[S_ALIVE + r] > 0.5 for r in range(players)],
        "cards": [int(s[S_CARDS + r]) for r in range(players)],
        "main": one_hot(S_MAIN, MAX_PLAYERS),
        "to_move": one_hot(S_TO_MOVE, MAX_PLAYERS),
        "target": one_hot(S_TARGET, MAX_PLAYERS),
        "reversed": s[S_REVERSED] > 0.5,
        "face_up": s[S_FACE_UP] > 0.5,
        "above": int(s[S_ABOVE]),
        "over": s[S_OVER] > 0.5,
        "won": s[S_WON] > 0.5,
        "kittens": in_game(players, EXPLODING) - int(s[S_DISCARD + EXPLODING]),
        "valid": getValidActions(s),
    }


def _cards_words(counts) -> str:
    parts = [f"{n} {CARD_NAMES[k]}" for k, n in enumerate(counts) if n]
    return ", ".join(parts) if parts else "none"


def _prompt(g) -> str:
    """What the player to move is asked (from this player's point of view)."""
    if g["over"]:
        if g["won"]:
            return "You won: every other player is out!"
        if not g["alive"][0]:
            return "You are out."
        winner = next((r for r in range(g["players"]) if g["alive"][r]), None)
        return f"Game over: {seat_name(winner).capitalize()} won." if winner is not None else "Game over."
    who = g["to_move"]
    pending = _short(g["pending"])
    if who != 0:
        return f"{seat_name(who).capitalize()} is to play ({PHASE_NAMES[g['phase']]} phase)."
    phase = g["phase"]
    if phase == MAIN:
        owed = f" (you owe {g['draws']} turns)" if g["draws"] > 1 else ""
        return f"Your turn{owed}: play cards, or draw to end the turn."
    if phase == NOPING:
        if g["main"] == 0:
            return f"Your {pending} was Noped: Nope back, or accept."
        noped = " (currently Noped)" if g["noped"] else ""
        return f"{seat_name(g['main']).capitalize()} plays {pending}{noped}: Nope it, or let it happen."
    if phase == CHOOSE_PLAYER:
        return f"{pending[0].upper() + pending[1:]}: pick a player."
    if phase == CHOOSE_CARD:
        if g["pending"] == FAVOR:
            return f"{seat_name(g['main']).capitalize()} asks you a Favor: pick a card to give."
        if g["pending"] == A_TRIPLE:
            return "Three alike: name the card you want."
        return "Five different: pick a card from the discard pile."
    if phase == ALTERING:
        return "Alter the Future: pick the order of the top cards."
    return f"Discard the cards for {pending} ({g['to_discard']} to go)."


def _imploding_words(g) -> str:
    if g["discard"][KINDS - 1]:
        return "The Imploding Kitten has imploded a player."
    if not g["face_up"]:
        return "The Imploding Kitten is still face down somewhere in the pile."
    if g["above"] == 0:
        return "The Imploding Kitten lies face up ON TOP of the pile: whoever draws it is out."
    return f"The Imploding Kitten lies face up in the pile, under {g['above']} card{'s' if g['above'] != 1 else ''}."


def describe_state(state) -> str:
    """The state in words for a language-model player (only what this player may see)."""
    g = _read(state)
    risk = f"{g['kittens']} Exploding Kitten{'s' if g['kittens'] != 1 else ''}"
    direction = "backwards (after a Reverse)" if g["reversed"] else "forwards (Player +1 plays after you)"
    lines = [
        f"Imploding Kittens, {g['players']} players; the last player left wins.",
        _prompt(g),
        f"Your hand: {_cards_words(g['hand'])}.",
        f"Draw pile: {g['pile']} card{'s' if g['pile'] != 1 else ''}, {risk} among them.",
        _imploding_words(g),
    ]
    if g["future"]:
        lines.append("You saw the top of the pile: " + ", then ".join(CARD_NAMES[k] for k in g["future"]) + ".")
    lines.append(f"Discard pile: {_cards_words(g['discard'][:HAND_KINDS])}.")
    if any(g["out"]):
        lines.append(f"Out of the game (eliminated players' hands): {_cards_words(g['out'])}.")
    others = []
    for r in range(1, g["players"]):
        status = f"{g['cards'][r]} cards" if g["alive"][r] else "out"
        others.append(f"{seat_name(r)}: {status}")
    lines.append("Others (in seat order after you): " + "; ".join(others) + f". Play goes {direction}.")
    if not g["over"] and g["main"] is not None and g["main"] != 0:
        lines.append(f"It is {seat_name(g['main'])}'s turn ({g['draws']} turn{'s' if g['draws'] != 1 else ''} owed).")
    return "\n".join(lines)


# ---- drawing ------------------------------------------------------------------------------------


def _clickable(action: int, valid, body: str, title: str) -> str:
    if 0 <= action < NUM_ACTIONS and valid[action] == 1.0:
        return f'<g data-action="{action}" style="cursor:pointer"><title>{escape(title)}</title>{body}</g>'
    return body


def _card(x: float, y: float, kind: int, count: int, w: float = 72, h: float = 104, ring: str | None = None) -> str:
    colour = KIND_COLOUR[kind]
    lines: list[str] = []
    for word in CARD_NAMES[kind].replace("-", "- ").split():
        if lines and len(lines[-1]) + len(word) <= 9:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    text = "".join(
        f'<text x="{x + w / 2}" y="{y + 40 + 14 * i}" text-anchor="middle" font-size="11" '
        f'font-weight="bold" fill="#ffffff">{escape(t)}</text>'
        for i, t in enumerate(lines[:4])
    )
    badge = (
        f'<circle cx="{x + w - 11}" cy="{y + 13}" r="10" fill="#ffffff" stroke="{colour}" stroke-width="2"/>'
        f'<text x="{x + w - 11}" y="{y + 18}" text-anchor="middle" font-size="12" font-weight="bold" '
        f'fill="{INK}">{count}</text>'
        if count > 1
        else ""
    )
    return (
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="8" fill="{colour}" stroke="{ring or INK}" '
        f'stroke-width="{5 if ring else 1.5}"/>{text}{badge}'
    )


def _button(x: float, y: float, w: float, label: str, action: int, valid, colour: str = BLUE) -> str:
    if not (0 <= action < NUM_ACTIONS and valid[action] == 1.0):
        return ""
    body = (
        f'<rect x="{x}" y="{y}" width="{w}" height="28" rx="7" fill="{colour}"/>'
        f'<text x="{x + w / 2}" y="{y + 19}" text-anchor="middle" font-size="12" font-weight="bold" '
        f'fill="#ffffff">{escape(label)}</text>'
    )
    return _clickable(action, valid, body, describe_action(action))


def _seat_markup(text: str) -> str:
    """``text`` with each "Player +r" marked, so the browser page can write in its own name for that seat."""
    return re.sub(r"Player \+(\d+)", r'<tspan data-relative-seat="\1">Player +\1</tspan>', text)


def _seats(g, valid) -> list[str]:
    parts = []
    width = min(190, (WIDTH - 40) / max(g["players"] - 1, 1) - 8)
    for r in range(1, g["players"]):
        x, y = 20 + (width + 8) * (r - 1), 50
        alive = g["alive"][r]
        border = BLUE if g["to_move"] == r else ("#f59e0b" if g["main"] == r else "#cbd5e1")
        body = [
            f'<rect x="{x}" y="{y}" width="{width}" height="92" rx="10" fill="{"#ffffff" if alive else "#e5e7eb"}" '
            f'stroke="{border}" stroke-width="{3 if border != "#cbd5e1" else 1}"/>',
            f'<text x="{x + 10}" y="{y + 21}" font-size="13" font-weight="bold" fill="{INK}" '
            f'data-relative-seat="{r}">Player +{r}</text>',
        ]
        notes = [w for w, on in (("their turn", g["main"] == r and not g["over"]), ("picked", g["target"] == r)) if on]
        if notes:
            body.append(
                f'<text x="{x + width - 8}" y="{y + 84}" text-anchor="end" font-size="11" fill="{RED}">'
                f"{', '.join(notes)}</text>"
            )
        if alive:
            n = g["cards"][r]
            for i in range(min(n, 9)):
                body.append(
                    f'<rect x="{x + 10 + 12 * i}" y="{y + 32}" width="24" height="34" rx="4" fill="#7f1d1d" stroke="#ffffff"/>'
                )
            body.append(
                f'<text x="{x + 10}" y="{y + 84}" font-size="12" fill="{GREY}">{n} card{"s" if n != 1 else ""}</text>'
            )
        else:
            body.append(
                f'<text x="{x + width / 2}" y="{y + 58}" text-anchor="middle" font-size="15" font-weight="bold" fill="{RED}">out</text>'
            )
        action = A_TARGET + r - 1
        parts.append(_clickable(action, valid, "".join(body), describe_action(action)))
    return parts


def _table(g, valid, mine: bool) -> list[str]:
    """The draw pile, the cards I saw, the discard pile and the action in play."""
    colour = "#581c87" if g["face_up"] and g["above"] == 0 else "#7f1d1d"
    pile = (
        f'<rect x="20" y="160" width="116" height="156" rx="10" fill="{colour}" stroke="{INK}" stroke-width="2"/>'
        f'<text x="78" y="200" text-anchor="middle" font-size="15" font-weight="bold" fill="#ffffff">Draw pile</text>'
        f'<text x="78" y="222" text-anchor="middle" font-size="13" fill="#fecaca">{g["pile"]} cards</text>'
        f'<text x="78" y="242" text-anchor="middle" font-size="12" fill="#fecaca">{g["kittens"]} exploding</text>'
    )
    if g["face_up"]:
        where = "ON TOP" if g["above"] == 0 else f"under {g['above']}"
        pile += f'<text x="78" y="262" text-anchor="middle" font-size="12" fill="#f5d0fe">Imploding: {where}</text>'
    if valid[A_DRAW] == 1.0:
        pile += '<text x="78" y="302" text-anchor="middle" font-size="11" fill="#ffffff">click: draw</text>'
    parts = [_clickable(A_DRAW, valid, pile, describe_action(A_DRAW))]
    arrow = "↺ play goes backwards" if g["reversed"] else "↻ play goes forwards"
    parts.append(f'<text x="20" y="334" font-size="12" fill="{GREY}">{arrow}</text>')
    if g["future"]:
        parts.append(
            '<text x="150" y="176" font-size="12" fill="#6b21a8">Top of the pile (drawn first on the left):</text>'
        )
        for i, kind in enumerate(g["future"]):
            parts.append(_card(150 + 62 * i, 184, kind, 1, w=56, h=80))
    take = " (click a kind to take it)" if g["phase"] == CHOOSE_CARD and mine and g["pending"] == A_FIVE else ""
    parts.append(f'<text x="360" y="176" font-size="13" fill="{GREY}">Discard pile{take}</text>')
    shown = 0
    for kind in range(KINDS):
        n = g["discard"][kind]
        if n == 0:
            continue
        x, y = 360 + 156 * (shown % 4), 184 + 26 * (shown // 4)
        chip = (
            f'<rect x="{x}" y="{y}" width="150" height="22" rx="6" fill="{KIND_COLOUR[kind]}"/>'
            f'<text x="{x + 8}" y="{y + 16}" font-size="11" font-weight="bold" fill="#ffffff">'
            f"{escape(CARD_NAMES[kind])} × {n}</text>"
        )
        action = A_TAKE + kind if kind < HAND_KINDS else -1
        parts.append(_clickable(action, valid, chip, describe_action(action)) if action >= 0 else chip)
        shown += 1
    if g["pending"] is not None and not g["over"]:
        played = "Noped" if g["noped"] else "in play"
        combo = "; combo cards: " + ", ".join(CARD_NAMES[k] for k in g["combo"]) if g["combo"] else ""
        parts.append(
            f'<text x="360" y="334" font-size="13" fill="{INK}">{seat_name(g["main"]).capitalize()} played '
            f"{escape(_short(g['pending']))}: {played}{escape(combo)}</text>"
        )
    return parts


def _hand(g, valid, mine: bool) -> list[str]:
    phase = g["phase"]
    parts = [
        f'<rect x="10" y="350" width="{WIDTH - 20}" height="300" rx="12" fill="#ffffff" '
        f'stroke="{BLUE if mine else "#cbd5e1"}" stroke-width="{3 if mine else 1}"/>',
        f'<text x="24" y="374" font-size="15" font-weight="bold" fill="{INK}">Your hand '
        f"({sum(g['hand'])} cards){'' if g['alive'][0] else ' — out'}</text>",
    ]
    if phase == CHOOSE_CARD and g["pending"] == FAVOR:
        action_of = {k: A_GIVE + k for k in range(HAND_KINDS)}
    elif phase == DISCARDING:
        action_of = {k: A_DISCARD + k for k in range(HAND_KINDS - 1)}
    elif phase == MAIN:
        action_of = {int(PLAYED_KIND[a]): a for a in PLAY_WORDS}
    else:
        action_of = {}
    x = 24
    for kind in range(HAND_KINDS):
        n = g["hand"][kind]
        if n == 0:
            continue
        action = action_of.get(kind, -1)
        live = mine and 0 <= action < NUM_ACTIONS and valid[action] == 1.0
        card = _card(x, 386, kind, n, ring="#f59e0b" if live else None)
        parts.append(_clickable(action, valid, card, describe_action(action)) if live else card)
        x += 78
    if mine:
        buttons = [(A_DRAW, "Draw", BLUE), (A_NOPE, "Nope!", RED), (A_PASS, "No Nope", GREY)]
        buttons += [(a, COMBO_WORDS[a][0].capitalize(), "#7c3aed") for a in COMBO_WORDS]
        bx = 24
        for action, label, colour in buttons:
            button = _button(bx, 502, 130, label, action, valid, colour)
            if button:
                parts.append(button)
                bx += 138
        if phase == CHOOSE_CARD and g["pending"] == A_TRIPLE:
            parts.append(f'<text x="24" y="550" font-size="12" fill="{GREY}">Name a card:</text>')
            for kind in range(HAND_KINDS):
                label = CARD_NAMES[kind].split()[0][:8]
                parts.append(
                    _button(
                        24 + 82 * (kind % 11),
                        558 + 34 * (kind // 11),
                        78,
                        label,
                        A_NAME + kind,
                        valid,
                        KIND_COLOUR[kind],
                    )
                )
        if phase == ALTERING:
            parts.append(f'<text x="24" y="550" font-size="12" fill="{GREY}">New order, top first:</text>')
            for order in range(6):
                label = "-".join(
                    CARD_NAMES[g["future"][i]].split()[0][:6] for i in ORDERS[order] if i < len(g["future"])
                )
                parts.append(_button(24 + 160 * order, 558, 154, label, A_ORDER + order, valid, "#7e22ce"))
    if not g["over"] and g["phase"] is not None:
        parts.append(
            f'<text x="{WIDTH - 24}" y="374" text-anchor="end" font-size="12" fill="{GREY}">'
            f"{escape(PHASE_NAMES[g['phase']])} phase · {g['draws']} turn{'s' if g['draws'] != 1 else ''} "
            "owed by the player on turn</text>"
        )
    return parts


def render(state) -> str:
    """An SVG picture of an ImplodingKittens state from its player's point of view."""
    g = _read(state)
    valid = g["valid"]
    mine = g["to_move"] == 0 and not g["over"]
    colour = GREEN if g["won"] else (RED if g["over"] and not g["alive"][0] else INK)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="#fdf6ec"/>',
        f'<text x="20" y="32" font-size="19" font-weight="bold" fill="{colour}" data-prompt="">'
        f"{_seat_markup(escape(_prompt(g)))}</text>",
    ]
    parts += _seats(g, valid) + _table(g, valid, mine) + _hand(g, valid, mine)
    parts.append("</svg>")
    return "".join(parts)
