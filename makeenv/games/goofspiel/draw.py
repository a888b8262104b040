"""Goofspiel drawings and words: one SVG per state from its player's view, and text for language
models.

``render(state)`` shows the prize of the round, the scores, whose turn it is, the rounds played
so far, the opponent's cards still unplayed, and the player's hand as cards; the cards the player
may bid carry ``data-action``. ``describe_action(action)`` names an action and
``describe_state(state)`` tells the state in words. Python only; the rules live in ``logic.py``.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    NUM_CARDS,
    S_DECK,
    S_HAND,
    S_HISTORY,
    S_LOST,
    S_MY_BID,
    S_MY_TURN,
    S_OVER,
    S_POINTS,
    S_PRIZE,
    S_ROUND,
    S_SEAT,
    S_THEIR_HAND,
    S_THEIR_POINTS,
    S_WON,
    STATE_SIZE,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK, GREY, LIGHT = "#1f2430", "#6b7280", "#e5e7eb"
BLUE, ORANGE, GREEN, RED, GOLD = "#2f6fde", "#e07a1f", "#1d8a4e", "#c0392b", "#b7791f"
WIDTH, HEIGHT = 760, 470
ROUNDS_SHOWN = 8  # the latest rounds listed on the left


def describe_action(action: int) -> str:
    """What an action means: "Bid card 7"."""
    a = int(action)
    if 0 <= a < NUM_CARDS:
        return f"Bid card {a + 1}"
    return f"Unknown action {a}"


# ---- reading a state --------------------------------------------------------------------------


def _cards(state: np.ndarray, start: int) -> list[int]:
    """Card values (1..13) whose flag is set in ``state[start:start + 13]``."""
    return [k + 1 for k in range(NUM_CARDS) if state[start + k] == 1.0]


def _number(value: float, most: int) -> int:
    return int(min(max(value, 0.0), most)) if np.isfinite(value) else 0


def _read(state) -> dict:
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"Goofspiel: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    rounds = _number(state[S_ROUND], NUM_CARDS)
    history = []
    for r in range(rounds):
        won, mine, theirs = (_number(state[S_HISTORY + 3 * r + i], NUM_CARDS) for i in range(3))
        history.append((won, mine, theirs))
    prize = _cards(state, S_PRIZE)
    my_bid = _cards(state, S_MY_BID)
    return {
        "rounds": rounds,
        "hand": _cards(state, S_HAND),
        "their_hand": _cards(state, S_THEIR_HAND),
        "prize": prize[0] if prize else None,
        "deck": _cards(state, S_DECK),
        "my_bid": my_bid[0] if my_bid else None,
        "points": _number(state[S_POINTS], 91),
        "their_points": _number(state[S_THEIR_POINTS], 91),
        "history": history,
        "second": state[S_SEAT] == 1.0,
        "my_turn": state[S_MY_TURN] == 1.0 and state[S_OVER] != 1.0,
        "over": state[S_OVER] == 1.0,
        "won": state[S_WON] == 1.0,
        "lost": state[S_LOST] == 1.0,
    }


def _round_words(prize: int, mine: int, theirs: int) -> str:
    if mine > theirs:
        result = f"you won {prize}"
    elif theirs > mine:
        result = f"your opponent won {prize}"
    else:
        result = "a tie, the prize is discarded"
    return f"prize {prize}: you bid {mine}, your opponent bid {theirs}, {result}"


def describe_state(state) -> str:
    """The state in words, for a language-model player (only what this player may know)."""
    s = _read(state)
    lines = [
        f"Goofspiel with cards 1..{NUM_CARDS}: each round both players bid a card for the prize card; "
        "the higher bid wins the prize's value in points, equal bids discard it.",
        f"Points: you {s['points']}, your opponent {s['their_points']}.",
    ]
    if s["history"]:
        lines.append("Rounds so far:")
        lines += [f"  {r + 1}. {_round_words(*h)}" for r, h in enumerate(s["history"])]
    if s["over"]:
        result = "You won." if s["won"] else ("You lost." if s["lost"] else "A draw.")
        lines.append(f"The game is over. {result}")
        return "\n".join(lines)
    lines.append(
        f"Round {s['rounds'] + 1} of {NUM_CARDS}: the prize is {s['prize']}. Prize cards still face down: "
        f"{' '.join(map(str, s['deck'])) or 'none'}."
    )
    lines.append(
        f"Your hand: {' '.join(map(str, s['hand']))}. Your opponent's cards: {' '.join(map(str, s['their_hand']))}."
    )
    if s["my_bid"] is not None:
        lines.append(f"You bid {s['my_bid']} this round; waiting for your opponent's bid.")
    elif s["my_turn"]:
        hidden = (
            "your opponent has already bid, face down"
            if s["second"]
            else "your opponent bids next without seeing your card"
        )
        lines.append(f"Your turn: bid a card from your hand ({hidden}).")
    else:
        lines.append("Waiting for your opponent to bid.")
    return "\n".join(lines)


# ---- drawing ------------------------------------------------------------------------------------


def _text(
    x: float, y: float, text: str, size: int = 15, colour: str = INK, anchor: str = "start", bold: bool = False
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x}" y="{y}" text-anchor="{anchor}" font-size="{size}" fill="{colour}"{weight}>{escape(text)}</text>'
    )


def _card(
    x: float,
    y: float,
    w: float,
    h: float,
    value: int | None,
    colour: str,
    *,
    fill: str = "#ffffff",
    action: int | None = None,
    dim: bool = False,
) -> str:
    """A card at (x, y): its value, or face down (None); clickable when ``action`` is given."""
    attrs = f' data-action="{action}" style="cursor:pointer"' if action is not None else ""
    title = f"<title>{escape(describe_action(action))}</title>" if action is not None else ""
    if value is None:
        return (
            f'<g{attrs}>{title}<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="7" fill="#cbd5e1" '
            f'stroke="{GREY}" stroke-width="2"/>'
            + _text(x + w / 2, y + h / 2 + 7, "?", int(h * 0.35), "#ffffff", "middle", True)
            + "</g>"
        )
    stroke = colour if not dim else "#cbd5e1"
    return (
        f'<g{attrs}>{title}<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="7" fill="{fill}" '
        f'stroke="{stroke}" stroke-width="{2.5 if action is not None else 1.5}"/>'
        + _text(x + w / 2, y + h / 2 + h * 0.13, str(value), int(h * 0.36), GREY if dim else colour, "middle", True)
        + "</g>"
    )


def render(state) -> str:
    """An SVG picture of a Goofspiel state from its player's point of view."""
    s = _read(state)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="#f8fafc"/>',
    ]

    # headline and scores
    if s["over"]:
        head, colour = ("You won!", GREEN) if s["won"] else ("You lost", RED) if s["lost"] else ("A draw", GOLD)
    elif s["my_turn"]:
        head, colour = "Your turn: bid a card", BLUE
    elif s["my_bid"] is not None:
        head, colour = "Your bid is in: waiting for the opponent", ORANGE
    else:
        head, colour = "Opponent's turn to bid", ORANGE
    parts.append(_text(WIDTH / 2, 32, head, 22, colour, "middle", True).replace("<text ", '<text data-prompt="" ', 1))
    round_text = "game over" if s["over"] else f"round {s['rounds'] + 1} of {NUM_CARDS}"
    parts.append(
        _text(
            WIDTH / 2,
            56,
            f"{round_text} · you bid {'second' if s['second'] else 'first'} (bids stay hidden until both are in)",
            13,
            GREY,
            "middle",
        )
    )
    parts.append(_text(24, 96, f"You: {s['points']}", 20, BLUE, bold=True))
    parts.append(_text(WIDTH - 24, 96, f"Opponent: {s['their_points']}", 20, ORANGE, "end", True))

    # the table: this round's prize, my bid and the opponent's (face down)
    cx = WIDTH / 2
    if s["over"]:
        parts.append(_text(cx, 150, f"Final score {s['points']} : {s['their_points']}", 20, INK, "middle", True))
    else:
        parts.append(_text(cx, 84, "Prize", 14, GOLD, "middle", True))
        parts.append(_card(cx - 36, 92, 72, 100, s["prize"], GOLD, fill="#fef3c7"))
        parts.append(_text(cx - 106, 122, "your bid", 12, GREY, "middle"))
        if s["my_bid"] is not None:
            parts.append(_card(cx - 132, 130, 52, 72, s["my_bid"], BLUE))
        parts.append(_text(cx + 106, 122, "opponent's bid", 12, GREY, "middle"))
        if s["second"] and s["my_turn"]:  # the opponent bids first: its card is in, face down
            parts.append(_card(cx + 80, 130, 52, 72, None, ORANGE))
        parts.append(
            _text(
                cx, 214, f"{len(s['deck'])} prize cards face down: {' '.join(map(str, s['deck']))}", 12, GREY, "middle"
            )
        )

    # the rounds so far
    parts.append(_text(24, 130, "Rounds", 14, INK, bold=True))
    shown = s["history"][-ROUNDS_SHOWN:]
    for r, (prize, mine, theirs) in enumerate(shown):
        index = len(s["history"]) - len(shown) + r
        colour = BLUE if mine > theirs else (ORANGE if theirs > mine else GREY)
        winner = "you" if mine > theirs else ("opp." if theirs > mine else "tie")
        parts.append(_text(24, 152 + 17 * r, f"{index + 1}. prize {prize}: {mine} vs {theirs} → {winner}", 13, colour))

    # the opponent's cards still unplayed (known: bids are shown after each round)
    if s["their_hand"]:
        parts.append(_text(WIDTH - 24, 130, "Opponent's cards left", 14, ORANGE, "end", True))
    for i, value in enumerate(s["their_hand"]):
        row, col = divmod(i, 7)
        parts.append(_card(WIDTH - 24 - (7 - col) * 28, 140 + row * 40, 25, 34, value, ORANGE))

    # my hand
    card_w, gap = 50, 6
    hand = set(s["hand"])
    if not s["over"]:
        parts.append(
            _text(24, 310, "Your hand" + (": click a card to bid it" if s["my_turn"] else ""), 15, BLUE, bold=True)
        )
    for k in range(NUM_CARDS if not s["over"] else 0):
        value = k + 1
        x = 24 + k * (card_w + gap)
        if value in hand:
            parts.append(
                _card(
                    x,
                    322,
                    card_w,
                    74,
                    value,
                    BLUE,
                    fill="#dbeafe" if s["my_turn"] else "#ffffff",
                    action=k if s["my_turn"] else None,
                )
            )
        elif value == s["my_bid"]:
            parts.append(_card(x, 322, card_w, 74, value, BLUE, fill="#fde68a", dim=True))
        else:
            parts.append(
                f'<rect x="{x}" y="322" width="{card_w}" height="74" rx="7" fill="none" '
                f'stroke="{LIGHT}" stroke-dasharray="4 3"/>'
            )
    if s["history"]:
        prize, mine, theirs = s["history"][-1]
        parts.append(_text(WIDTH / 2, 440, f"Last round: {_round_words(prize, mine, theirs)}", 14, INK, "middle"))
    parts.append("</svg>")
    return "".join(parts)
