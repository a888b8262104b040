"""LiarsDice drawings and words: one SVG per state from its player's view, and text for language
models.

``render(state)`` shows the player's own dice (the opponent's face down until the end), the bids
made so far, whose turn it is, and a grid of bid buttons plus a Liar button; the buttons the
player may press carry ``data-action``. ``describe_action(action)`` names an action and
``describe_state(state)`` tells the state in words. Python only; the rules live in ``logic.py``.
"""

from __future__ import annotations

import textwrap
from html import escape

import numpy as np

from .logic import (
    FACES,
    LIAR,
    MAX_DICE,
    MINE,
    NUM_ACTIONS,
    NUM_PLAYERS,
    S_BID,
    S_BIDS,
    S_DICE_COUNT,
    S_I_CALLED,
    S_LOST,
    S_MY_DICE,
    S_MY_TURN,
    S_OVER,
    S_THEIR_DICE,
    S_THEY_CALLED,
    S_WON,
    STATE_SIZE,
    THEIRS,
)

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
INK, GREY, LIGHT = "#1f2430", "#6b7280", "#e5e7eb"
BLUE, ORANGE, GREEN, RED, GOLD = "#2f6fde", "#e07a1f", "#1d8a4e", "#c0392b", "#b7791f"
WIDTH = 720

# pip positions on a die of side 1, per face
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


def bid_words(bid: int) -> str:
    """A bid in words: "at least 2 dice show 5"."""
    quantity, face = bid // FACES + 1, bid % FACES + 1
    return f"at least {quantity} {'die shows' if quantity == 1 else 'dice show'} {face}"


def describe_action(action: int) -> str:
    """What an action means: "Bid: at least 2 dice show 5" or "Call Liar"."""
    a = int(action)
    if a == LIAR:
        return "Call Liar"
    if 0 <= a < LIAR:
        return f"Bid: {bid_words(a)}"
    return f"Unknown action {a}"


# ---- reading a state --------------------------------------------------------------------------


def _count(value: float, most: int) -> int:
    return int(min(max(value, 0.0), most)) if np.isfinite(value) else 0


def _faces(state: np.ndarray, start: int, dice: int) -> list[int]:
    """The faces of a hand, ascending, from its per-face counts."""
    faces: list[int] = []
    for face in range(1, FACES + 1):
        faces += [face] * _count(state[start + face - 1], dice)
    return faces[:dice]


def _read(state) -> dict:
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"LiarsDice: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    dice = _count(state[S_DICE_COUNT], MAX_DICE) or 1
    over = state[S_OVER] == 1.0
    bids = [
        (b, "you" if state[S_BIDS + b] == MINE else "opponent")
        for b in range(NUM_ACTIONS - 1)
        if state[S_BIDS + b] in (MINE, THEIRS)
    ]
    return {
        "dice": dice,
        "mine": _faces(state, S_MY_DICE, dice),
        "theirs": _faces(state, S_THEIR_DICE, dice) if over else [],
        "bids": bids,
        "last": _count(state[S_BID], NUM_ACTIONS - 1) - 1,
        "my_turn": state[S_MY_TURN] == 1.0 and not over,
        "over": over,
        "won": state[S_WON] == 1.0,
        "lost": state[S_LOST] == 1.0,
        "i_called": state[S_I_CALLED] == 1.0,
        "they_called": state[S_THEY_CALLED] == 1.0,
    }


def _matches(faces: list[int], face: int) -> int:
    return sum(1 for f in faces if f == face or f == FACES)


def _result_words(s: dict) -> str:
    last = s["last"]
    caller = "You" if s["i_called"] else "Your opponent"
    if last < 0:
        return "The game is over."
    face = last % FACES + 1
    shown = _matches(s["mine"] + s["theirs"], face)
    truth = "true" if shown >= last // FACES + 1 else "a lie"
    outcome = "you won" if s["won"] else "you lost"
    counted = f"{face}" if face == FACES else f"{face} or a six"
    return (
        f'{caller} called Liar on "{bid_words(last)}": {shown} '
        f"{'die shows' if shown == 1 else 'dice show'} {counted}, so the bid was {truth} and {outcome}."
    )


def describe_state(state) -> str:
    """The state in words, for a language-model player (only what this player may know)."""
    s = _read(state)
    total = NUM_PLAYERS * s["dice"]
    lines = [
        f"Liar's Dice: {s['dice']} {'die' if s['dice'] == 1 else 'dice'} per player, {total} on the table; "
        "sixes are wild (a six counts as any face).",
        f"Your dice: {' '.join(str(f) for f in s['mine'])}.",
    ]
    if s["over"]:
        lines.append(f"Your opponent's dice: {' '.join(str(f) for f in s['theirs'])}.")
    if s["bids"]:
        lines.append("Bids so far: " + "; ".join(f"{who}: {bid_words(b)}" for b, who in s["bids"]) + ".")
    else:
        lines.append("No bid yet.")
    if s["over"]:
        lines.append(_result_words(s))
    elif s["my_turn"]:
        if s["last"] < 0:
            lines.append("Your turn: make the first bid.")
        else:
            lines.append("Your turn: make a higher bid (more dice, or as many dice with a higher face) or call Liar.")
    else:
        lines.append("Waiting for your opponent.")
    return "\n".join(lines)


# ---- drawing ------------------------------------------------------------------------------------


def _die(x: float, y: float, size: float, face: int | None, colour: str = INK) -> str:
    """A die at (x, y), face up (pips; a six is gold: wild) or face down (None)."""
    if face is None:
        return (
            f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="{size * 0.18:.1f}" fill="#cbd5e1" '
            f'stroke="{GREY}" stroke-width="2"/>'
            f'<text x="{x + size / 2}" y="{y + size * 0.68:.1f}" text-anchor="middle" font-size="{size * 0.5:.0f}" '
            f'font-weight="bold" fill="#ffffff">?</text>'
        )
    wild = face == FACES
    parts = [
        f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="{size * 0.18:.1f}" fill="#ffffff" '
        f'stroke="{GOLD if wild else colour}" stroke-width="{3 if wild else 2}"/>'
    ]
    for px, py in PIPS[face]:
        parts.append(
            f'<circle cx="{x + px * size:.1f}" cy="{y + py * size:.1f}" r="{size * 0.085:.1f}" '
            f'fill="{GOLD if wild else colour}"/>'
        )
    return "".join(parts)


def _text(
    x: float, y: float, text: str, size: int = 15, colour: str = INK, anchor: str = "start", bold: bool = False
) -> str:
    weight = ' font-weight="bold"' if bold else ""
    return (
        f'<text x="{x}" y="{y}" text-anchor="{anchor}" font-size="{size}" fill="{colour}"{weight}>{escape(text)}</text>'
    )


def render(state) -> str:
    """An SVG picture of a LiarsDice state from its player's point of view."""
    s = _read(state)
    dice, total = s["dice"], NUM_PLAYERS * s["dice"]
    rows = total  # one row of bid buttons per quantity
    cell_w, cell_h = 50, 30
    grid_x, grid_y = 352, 118
    result = textwrap.wrap(_result_words(s), 88) if s["over"] else []
    height = max(grid_y + rows * (cell_h + 6) + 54, 440) + 22 * len(result)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'viewBox="0 0 {WIDTH} {height}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{height}" rx="14" fill="#f8fafc"/>',
    ]

    # headline: whose turn, or the result
    if s["over"]:
        head, colour = ("You won!" if s["won"] else "You lost"), (GREEN if s["won"] else RED)
    elif s["my_turn"]:
        head = "Your turn: make the first bid" if s["last"] < 0 else "Your turn: bid higher or call Liar"
        colour = BLUE
    else:
        head, colour = "Opponent's turn", ORANGE
    parts.append(_text(WIDTH / 2, 32, head, 22, colour, "middle", True).replace("<text ", '<text data-prompt="" ', 1))
    parts.append(
        _text(WIDTH / 2, 56, f"{dice} {'die' if dice == 1 else 'dice'} each · sixes are wild", 13, GREY, "middle")
    )

    # the dice
    size = 40 if dice <= 3 else 34
    parts.append(_text(24, 92, "Your dice", 15, BLUE, bold=True))
    for i, face in enumerate(s["mine"]):
        parts.append(_die(24 + i * (size + 8), 102, size, face, BLUE))
    parts.append(_text(24, 178, "Opponent's dice", 15, ORANGE, bold=True))
    for i in range(dice):
        face = s["theirs"][i] if s["over"] and i < len(s["theirs"]) else None
        parts.append(_die(24 + i * (size + 8), 188, size, face, ORANGE))

    # the bids so far (the last one highlighted)
    parts.append(_text(24, 264, "Bids", 15, INK, bold=True))
    shown = s["bids"][-7:]
    if not shown:
        parts.append(_text(24, 288, "none yet", 14, GREY))
    if len(s["bids"]) > len(shown):
        parts.append(_text(80, 264, f"(last {len(shown)} of {len(s['bids'])})", 12, GREY))
    for i, (b, who) in enumerate(shown):
        last = i == len(shown) - 1
        words = f"{'You' if who == 'you' else 'Opponent'}: {b // FACES + 1} × {b % FACES + 1}"
        parts.append(
            _text(
                24,
                288 + i * 21,
                words + ("  ← last bid" if last else ""),
                14,
                (BLUE if who == "you" else ORANGE),
                bold=last,
            )
        )
    for i, line in enumerate(result):
        parts.append(_text(24, height - 14 - 22 * (len(result) - 1 - i), line, 14, GREEN if s["won"] else RED))

    # the bid buttons: quantity rows x face columns, and Liar
    parts.append(_text(grid_x, 92, "Bid: how many dice show a face", 14, INK, bold=True))
    for face in range(1, FACES + 1):
        parts.append(_die(grid_x + 40 + (face - 1) * cell_w + 14, 100, 16, face, INK))
    for q in range(1, rows + 1):
        y = grid_y + (q - 1) * (cell_h + 6)
        parts.append(_text(grid_x + 26, y + 20, f"{q} ×", 14, GREY, "end"))
        for face in range(1, FACES + 1):
            bid = (q - 1) * FACES + face - 1
            x = grid_x + 40 + (face - 1) * cell_w
            playable = s["my_turn"] and bid > s["last"]
            fill = "#dbeafe" if playable else ("#fde68a" if bid == s["last"] else LIGHT)
            attrs = f' data-action="{bid}" style="cursor:pointer"' if playable else ""
            parts.append(
                f"<g{attrs}><title>{escape(describe_action(bid))}</title>"
                f'<rect x="{x}" y="{y}" width="{cell_w - 6}" height="{cell_h}" rx="6" fill="{fill}" '
                f'stroke="{BLUE if playable else "#cbd5e1"}" stroke-width="1.5"/>'
                + _text(x + (cell_w - 6) / 2, y + 20, f"{q}×{face}", 13, INK if playable else GREY, "middle")
                + "</g>"
            )
    liar_y = grid_y + rows * (cell_h + 6) + 4
    can_call = s["my_turn"] and s["last"] >= 0
    attrs = f' data-action="{LIAR}" style="cursor:pointer"' if can_call else ""
    parts.append(
        f"<g{attrs}><title>Call Liar</title>"
        f'<rect x="{grid_x + 40}" y="{liar_y}" width="{FACES * cell_w - 6}" height="34" rx="8" '
        f'fill="{RED if can_call else LIGHT}"/>'
        + _text(
            grid_x + 40 + (FACES * cell_w - 6) / 2,
            liar_y + 23,
            "Liar!",
            17,
            "#ffffff" if can_call else GREY,
            "middle",
            True,
        )
        + "</g>"
    )
    parts.append("</svg>")
    return "".join(parts)
