"""Splendor drawings and words: ``render(state)`` (SVG from the player's view, clickable),
``describe_action(action)`` and ``describe_state(state)`` (text for language-model players).

Python only; the rules live in ``logic.py``. Every element that plays an action carries
``data-action="k"``: a bank token takes it, a card's Buy / Reserve buttons, a deck reserves its
top card, one of my tokens returns it (when I hold more than 10), and the Pass button.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    A_BUY,
    A_PASS,
    A_RESERVE,
    A_RESERVE_DECK,
    A_RETURN,
    A_TAKE,
    BOARD_SLOTS,
    CARD_BONUS,
    CARD_COST,
    CARD_FEATURES,
    CARD_LEVEL,
    CARD_POINTS,
    COLOURS,
    NUM_ACTIONS,
    NUM_CARDS,
    Q_BONUS,
    Q_IN,
    Q_POINTS,
    Q_RESERVED,
    Q_TOKENS,
    RESERVE_SLOTS,
    S_BANK,
    S_BOARD,
    S_DECK,
    S_NOBLES,
    S_OVER,
    S_PLAYERS,
    S_RESERVED,
    S_SEATS,
    S_TAKEN,
    S_TO_MOVE,
    S_TURN,
    S_WINNERS,
    STATE_SEAT,
    STATE_SIZE,
    getValidActions,
)

WIDTH, HEIGHT = 1040, 720
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK, GREY = "#1f2430", "#6b7280"
FILL = {
    "red": "#d63b3b",
    "blue": "#2f6fde",
    "green": "#1d8a4e",
    "black": "#2b2b2b",
    "white": "#f4f4f4",
    "gold": "#e0b325",
}
TINT = {"red": "#fbe3e3", "blue": "#e2ebfb", "green": "#dff2e7", "black": "#e3e3e3", "white": "#ffffff"}
TEXT_ON = {"red": "#ffffff", "blue": "#ffffff", "green": "#ffffff", "black": "#ffffff", "white": INK, "gold": INK}


# ---- words --------------------------------------------------------------------------------------


def cost_words(card: int) -> str:
    parts = [f"{int(CARD_COST[card, c])} {COLOURS[c]}" for c in range(5) if CARD_COST[card, c] > 0]
    return " ".join(parts)


def card_words(card: int) -> str:
    """'card 12 (level 1, green, 0 points, cost 2 red 2 blue)'."""
    points = int(CARD_POINTS[card])
    return (
        f"card {card} (level {int(CARD_LEVEL[card]) + 1}, {COLOURS[int(CARD_BONUS[card])]}, "
        f"{points} point{'s' if points != 1 else ''}, cost {cost_words(card)})"
    )


def describe_action(action: int) -> str:
    """What an action means, e.g. "Take a red token", "Buy card 12 (level 1, green, ...)"."""
    a = int(action)
    if not 0 <= a < NUM_ACTIONS:
        return f"Unknown action {a}"
    if a < A_BUY:
        return f"Take a {COLOURS[a - A_TAKE]} token"
    if a < A_RESERVE:
        return f"Buy {card_words(a - A_BUY)}"
    if a < A_RETURN:
        return f"Reserve {card_words(a - A_RESERVE)}"
    if a < A_RESERVE_DECK:
        return f"Return a {COLOURS[a - A_RETURN]} token"
    if a < A_PASS:
        return f"Reserve the top card of the level {a - A_RESERVE_DECK + 1} deck"
    return "Pass"


def _read(state) -> dict:
    s = np.asarray(state, dtype=np.float64)
    if s.shape != (STATE_SIZE,):
        raise ValueError(f"Splendor: expected a state of length {STATE_SIZE}, got shape {s.shape}")
    s = np.where(np.isfinite(s), s, 0.0)
    players = int(s[S_PLAYERS]) if 2 <= s[S_PLAYERS] <= 4 else 4

    def card(at):
        c = int(s[at]) - 1
        return c if 0 <= c < NUM_CARDS else None

    seats = []
    for r in range(players):
        at = S_SEATS + STATE_SEAT * r
        seats.append(
            {
                "tokens": [int(s[at + Q_TOKENS + c]) for c in range(6)],
                "bonus": [int(s[at + Q_BONUS + c]) for c in range(5)],
                "points": int(s[at + Q_POINTS]),
                "reserved": [int(s[at + Q_RESERVED + lv]) for lv in range(3)],
                "in": s[at + Q_IN] > 0.5,
            }
        )
    to_move = next((r for r in range(players) if s[S_TO_MOVE + r] > 0.5), None)
    return {
        "players": players,
        "bank": [int(s[S_BANK + c]) for c in range(6)],
        "taken": [int(s[S_TAKEN + c]) for c in range(5)],
        "nobles": [
            [int(s[S_NOBLES + 5 * i + c]) for c in range(5)]
            for i in range(5)
            if s[S_NOBLES + 5 * i : S_NOBLES + 5 * i + 5].sum() > 0
        ],
        "board": [card(S_BOARD + CARD_FEATURES * i) for i in range(BOARD_SLOTS)],
        "reserved": [card(S_RESERVED + CARD_FEATURES * j) for j in range(RESERVE_SLOTS)],
        "deck": [int(s[S_DECK + lv]) for lv in range(3)],
        "seats": seats,
        "to_move": to_move,
        "turn": int(s[S_TURN]),
        "over": s[S_OVER] > 0.5,
        "winners": [r for r in range(players) if s[S_WINNERS + r] > 0.5],
        "valid": getValidActions(s),
    }


def points_words(n: int) -> str:
    return f"{n} point{'s' if n != 1 else ''}"


def seat_name(r: int, players: int) -> str:
    return "You" if r == 0 else f"Player +{r}"


def _tokens_words(tokens, with_gold=True) -> str:
    names = COLOURS if with_gold else COLOURS[:5]
    return ", ".join(f"{n} {tokens[c]}" for c, n in enumerate(names))


def _result_words(g, name=seat_name) -> str:
    """The result in words; ``name(r, players)`` names the r-th seat after the player's."""
    if not g["winners"]:
        return "The game is over with no winner (100 rounds played)."
    others = [name(r, g["players"]) for r in g["winners"] if r != 0]
    if g["winners"] == [0]:
        return "The game is over: you won!"
    if 0 in g["winners"]:
        return f"The game is over: you share first place with {', '.join(others)}."
    return f"The game is over: {' and '.join(others)} won."


def _seat_markup(r: int, players: int) -> str:
    """A seat's name in the picture, marked so the browser page can write in its own name for it."""
    return f'<tspan data-relative-seat="{r}">{escape(seat_name(r, players))}</tspan>' if r else "You"


def describe_state(state) -> str:
    """The state in words for a language-model player (only what this player may see)."""
    g = _read(state)
    rounds = g["turn"] // g["players"] + 1
    lines = [
        f"Splendor, {g['players']} players, round {rounds}. The first to 15 points ends the game at the "
        "end of that round; most points win (fewer cards break a tie)."
    ]
    if g["over"]:
        lines.append(_result_words(g))
    elif g["to_move"] == 0:
        lines.append("Your turn.")
    else:
        lines.append(f"{seat_name(g['to_move'], g['players'])} is to play.")
    lines.append(f"Bank: {_tokens_words(g['bank'])}.")
    if any(g["taken"]):
        lines.append(f"Tokens taken so far this turn: {_tokens_words(g['taken'], False)}.")
    nobles = ["needs " + " ".join(f"{n} {COLOURS[c]}" for c, n in enumerate(cost) if n) for cost in g["nobles"]]
    lines.append("Nobles (3 points, bonuses needed): " + ("; ".join(nobles) if nobles else "none left") + ".")
    for level in (2, 1, 0):
        cards = [card_words(c) for c in g["board"][4 * level : 4 * level + 4] if c is not None]
        lines.append(f"Level {level + 1} ({g['deck'][level]} left in the deck): " + ("; ".join(cards) or "none") + ".")
    mine = [card_words(c) for c in g["reserved"] if c is not None]
    lines.append("Your reserved cards: " + ("; ".join(mine) if mine else "none") + ".")
    for r, seat in enumerate(g["seats"]):
        reserved = sum(seat["reserved"])
        lines.append(
            f"{seat_name(r, g['players'])}: {points_words(seat['points'])}; tokens {_tokens_words(seat['tokens'])}; "
            f"bonuses {_tokens_words(seat['bonus'], False)}; {reserved} reserved."
        )
    return "\n".join(lines)


# ---- drawing --------------------------------------------------------------------------------------


def _clickable(action: int, valid, body: str, title: str) -> str:
    if 0 <= action < NUM_ACTIONS and valid[action] == 1.0:
        return f'<g data-action="{action}" style="cursor:pointer"><title>{escape(title)}</title>{body}</g>'
    return body


def _token(x: float, y: float, colour: int, count: int, r: float = 17, label: str | None = None) -> str:
    name = COLOURS[colour]
    text = str(count) if label is None else label
    return (
        f'<circle cx="{x}" cy="{y}" r="{r}" fill="{FILL[name]}" stroke="#555" stroke-width="1.5"/>'
        f'<text x="{x}" y="{y + r * 0.36:.1f}" text-anchor="middle" font-size="{max(r * 0.95, 12):.0f}" font-weight="bold" '
        f'fill="{TEXT_ON[name]}">{escape(text)}</text>'
    )


def _button(x: float, y: float, w: float, label: str, action: int, valid, title: str) -> str:
    active = 0 <= action < NUM_ACTIONS and valid[action] == 1.0
    colour = "#2563eb" if active else "#d1d5db"
    body = (
        f'<rect x="{x}" y="{y}" width="{w}" height="20" rx="5" fill="{colour}"/>'
        f'<text x="{x + w / 2}" y="{y + 14}" text-anchor="middle" font-size="11" font-weight="bold" '
        f'fill="#ffffff">{escape(label)}</text>'
    )
    return _clickable(action, valid, body, title) if active else body


def _card(x: float, y: float, card: int | None, valid, reservable: bool = True, w: float = 112, h: float = 132) -> str:
    if card is None:
        return (
            f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="9" fill="none" stroke="#cbd5e1" '
            f'stroke-dasharray="5 4"/>'
        )
    colour = COLOURS[int(CARD_BONUS[card])]
    points = int(CARD_POINTS[card])
    parts = [
        f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="9" fill="{TINT[colour]}" stroke="#6b7280" '
        f'stroke-width="1.5"/>',
        f'<rect x="{x}" y="{y}" width="{w}" height="30" rx="9" fill="{FILL[colour]}" fill-opacity="0.85"/>',
        f'<text x="{x + 9}" y="{y + 23}" font-size="20" font-weight="bold" fill="{TEXT_ON[colour]}">'
        f"{points if points else ''}</text>",
        f'<text x="{x + w - 8}" y="{y + 20}" text-anchor="end" font-size="11" fill="{TEXT_ON[colour]}">'
        f"{colour} · #{card}</text>",
    ]
    costs = [(c, int(CARD_COST[card, c])) for c in range(5) if CARD_COST[card, c] > 0]
    for i, (c, n) in enumerate(costs):
        parts.append(_token(x + 16 + 25 * i, y + h - 44, c, n, r=11.5))
    body = "".join(parts)
    out = _clickable(A_BUY + card, valid, body, f"Buy {card_words(card)}")
    out += _button(x + 4, y + h - 24, 50, "Buy", A_BUY + card, valid, f"Buy {card_words(card)}")
    if reservable:
        out += _button(x + w - 58, y + h - 24, 54, "Reserve", A_RESERVE + card, valid, f"Reserve {card_words(card)}")
    return out


def _headline(g) -> tuple[str, str]:
    """The picture's first line (SVG text markup) and its colour."""
    if g["over"]:
        won = 0 in g["winners"]
        words = (
            _result_words(g, _seat_markup).replace("The game is over: ", "").replace("The game is over ", "Game over ")
        )
        return words[:1].upper() + words[1:], ("#1d8a4e" if won else ("#9a7412" if not g["winners"] else "#c0392b"))
    if g["to_move"] == 0:
        if any(g["taken"]):
            return "Your turn: take another token", INK
        if g["valid"][A_RETURN:A_RESERVE_DECK].any():
            return "You hold more than 10 tokens: return one (click your token)", INK
        return "Your turn: take tokens, buy or reserve a card", INK
    return f"{_seat_markup(g['to_move'], g['players'])} is playing", GREY


def render(state) -> str:
    """An SVG picture of a Splendor state from its player's point of view."""
    g = _read(state)
    valid = g["valid"]
    head, head_colour = _headline(g)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="#f8fafc"/>',
        f'<text x="20" y="32" font-size="21" font-weight="bold" fill="{head_colour}" data-prompt="">{head}</text>',
        f'<text x="{WIDTH - 20}" y="32" text-anchor="end" font-size="14" fill="{GREY}">'
        f"round {g['turn'] // g['players'] + 1} · {g['players']} players · 15 points to end</text>",
    ]
    # nobles
    parts.append(f'<text x="20" y="66" font-size="13" fill="{GREY}">Nobles (3 points)</text>')
    for i, cost in enumerate(g["nobles"]):
        y = 76 + 78 * i
        parts.append(
            f'<rect x="20" y="{y}" width="92" height="70" rx="8" fill="#efe6d2" stroke="#9a7412"/>'
            f'<text x="30" y="{y + 22}" font-size="18" font-weight="bold" fill="#7a5b0c">3</text>'
        )
        for k, (c, n) in enumerate((c, n) for c, n in enumerate(cost) if n):
            parts.append(_token(40 + 24 * k, y + 50, c, n, r=11))
    # board: level 3 on top
    for row, level in enumerate((2, 1, 0)):
        y = 52 + 146 * row
        deck_body = (
            f'<rect x="130" y="{y}" width="86" height="132" rx="9" fill="#475569" stroke="#1f2937"/>'
            f'<text x="173" y="{y + 50}" text-anchor="middle" font-size="15" font-weight="bold" '
            f'fill="#ffffff">Level {level + 1}</text>'
            f'<text x="173" y="{y + 74}" text-anchor="middle" font-size="13" fill="#e2e8f0">'
            f"{g['deck'][level]} left</text>"
        )
        if valid[A_RESERVE_DECK + level] == 1.0:
            deck_body += (
                f'<text x="173" y="{y + 104}" text-anchor="middle" font-size="11" fill="#bfdbfe">'
                f'click to</text><text x="173" y="{y + 118}" text-anchor="middle" font-size="11" '
                'fill="#bfdbfe">reserve top</text>'
            )
        parts.append(
            _clickable(A_RESERVE_DECK + level, valid, deck_body, f"Reserve the top card of the level {level + 1} deck")
        )
        for k in range(4):
            parts.append(_card(228 + 122 * k, y, g["board"][4 * level + k], valid))
    # bank
    parts.append(f'<text x="730" y="66" font-size="13" fill="{GREY}">Bank (click a token to take it)</text>')
    for c in range(6):
        x, y = 752 + 50 * (c % 3), 96 + 50 * (c // 3)
        body = _token(x, y, c, g["bank"][c], r=19)
        if c < 5 and any(g["taken"]) and g["taken"][c]:
            body += f'<circle cx="{x}" cy="{y}" r="23" fill="none" stroke="#2563eb" stroke-width="3"/>'
        if c < 5 and valid[A_TAKE + c] == 1.0:
            body += f'<circle cx="{x}" cy="{y}" r="22" fill="none" stroke="#2563eb" stroke-width="1.5" stroke-dasharray="3 3"/>'
        parts.append(_clickable(A_TAKE + c, valid, body, f"Take a {COLOURS[c]} token") if c < 5 else body)
    if any(g["taken"]):
        taken = ", ".join(f"{n} {COLOURS[c]}" for c, n in enumerate(g["taken"]) if n)
        parts.append(
            f'<text x="730" y="186" font-size="13" font-weight="bold" fill="#2563eb">taken this turn: '
            f"{escape(taken)}</text>"
        )
    # players
    for r, seat in enumerate(g["seats"]):
        y = 198 + 96 * (r - 1) if r else 506
        x = 730 if r else 20
        if r:
            active = g["to_move"] == r
            parts.append(
                f'<rect x="{x}" y="{y}" width="290" height="86" rx="10" fill="#ffffff" '
                f'stroke="{"#2563eb" if active else "#cbd5e1"}" stroke-width="{3 if active else 1}"/>'
            )
            crown = " ★" if r in g["winners"] else ""
            parts.append(
                f'<text x="{x + 10}" y="{y + 20}" font-size="14" font-weight="bold" fill="{INK}" '
                f'data-relative-seat="{r}">{seat_name(r, g["players"])}</text>'
                f'<text x="{x + 280}" y="{y + 20}" text-anchor="end" font-size="14" font-weight="bold" '
                f'fill="{INK}">{points_words(seat["points"])}{crown}</text>'
                f'<text x="{x + 280}" y="{y + 78}" text-anchor="end" font-size="12" fill="{GREY}">'
                f"{sum(seat['reserved'])} reserved</text>"
            )
            for c in range(6):
                parts.append(_token(x + 20 + 44 * c, y + 42, c, seat["tokens"][c], r=12))
            parts.append(f'<text x="{x + 10}" y="{y + 78}" font-size="11" fill="{GREY}">bonuses</text>')
            for c in range(5):
                name = COLOURS[c]
                parts.append(
                    f'<rect x="{x + 64 + 30 * c}" y="{y + 64}" width="24" height="18" rx="3" '
                    f'fill="{FILL[name]}" stroke="#555"/><text x="{x + 76 + 30 * c}" y="{y + 78}" '
                    f'text-anchor="middle" font-size="12" font-weight="bold" fill="{TEXT_ON[name]}">'
                    f"{seat['bonus'][c]}</text>"
                )
    me = g["seats"][0]
    mine_active = g["to_move"] == 0
    parts.append(
        f'<rect x="20" y="496" width="690" height="214" rx="12" fill="#ffffff" '
        f'stroke="{"#2563eb" if mine_active else "#cbd5e1"}" stroke-width="{3 if mine_active else 1}"/>'
    )
    crown = " ★" if 0 in g["winners"] else ""
    parts.append(
        f'<text x="34" y="522" font-size="17" font-weight="bold" fill="{INK}">You: {points_words(me["points"])}'
        f"{crown}</text>"
    )
    parts.append(f'<text x="34" y="548" font-size="12" fill="{GREY}">tokens ({sum(me["tokens"])}/10)</text>')
    for c in range(6):
        body = _token(50 + 44 * c, 574, c, me["tokens"][c], r=16)
        if c < 5 and valid[A_RETURN + c] == 1.0:
            body += f'<circle cx="{50 + 44 * c}" cy="574" r="20" fill="none" stroke="#c0392b" stroke-width="2"/>'
        parts.append(_clickable(A_RETURN + c, valid, body, f"Return a {COLOURS[c]} token") if c < 5 else body)
    parts.append(f'<text x="34" y="620" font-size="12" fill="{GREY}">bonuses (cards bought)</text>')
    for c in range(5):
        x = 40 + 44 * c
        name = COLOURS[c]
        parts.append(
            f'<rect x="{x}" y="630" width="32" height="40" rx="5" fill="{FILL[name]}" stroke="#555"/>'
            f'<text x="{x + 16}" y="656" text-anchor="middle" font-size="16" font-weight="bold" '
            f'fill="{TEXT_ON[name]}">{me["bonus"][c]}</text>'
        )
    parts.append(f'<text x="330" y="522" font-size="12" fill="{GREY}">your reserved cards</text>')
    for j in range(RESERVE_SLOTS):
        parts.append(_card(330 + 122 * j, 532, g["reserved"][j], valid, reservable=False, h=132))
    parts.append(
        _button(
            34,
            684,
            80,
            "Pass",
            A_PASS,
            valid if (mine_active and not g["over"]) else np.zeros(NUM_ACTIONS),
            "Pass (nothing else is possible)",
        )
    )
    parts.append("</svg>")
    return "".join(parts)
