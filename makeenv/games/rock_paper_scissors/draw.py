"""RockPaperScissors drawings for the browser GUI: one SVG per state, from its player's view.

``render(state)`` shows, at a glance: the round, the player's own choice, the opponent's choice
(a face-down card until the confirmation phase reveals it), the round's result and the game's
result. ``describe_action(action)`` names an action ("Rock"). Python only; the rules live in
``logic.py`` and are never imported into compiled code from here.
"""

from __future__ import annotations

from html import escape

import numpy as np

from .logic import (
    ACTION_NAMES,
    MAX_ROUNDS,
    S_CONFIRM,
    S_LOST,
    S_MINE,
    S_OVER,
    S_ROUND,
    S_THEIRS,
    S_WON,
    STATE_SIZE,
)

WIDTH, HEIGHT = 640, 410
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
BLUE, ORANGE = "#2f6fde", "#e07a1f"
GREEN, RED, AMBER, GREY = "#1d8a4e", "#c0392b", "#9a7412", "#6b7280"


def describe_action(action: int) -> str:
    """What an action means: 0 "Scissors", 1 "Rock", 2 "Paper", 3 "Confirm"."""
    a = int(action)
    return ACTION_NAMES[a] if 0 <= a < len(ACTION_NAMES) else f"Unknown action {a}"


def describe_state(state) -> str:
    """The state in words, for a language-model player."""
    state = np.asarray(state, dtype=np.float64)
    mine, theirs = _choice(state, S_MINE), _choice(state, S_THEIRS)
    tied = int(state[S_ROUND])
    lines = [f"Tied rounds so far: {tied} (the game ends with no winner after {MAX_ROUNDS})."]
    lines.append(f"Your choice this round: {ACTION_NAMES[mine] if mine is not None else 'not made yet'}.")
    if theirs is not None:
        lines.append(f"Your opponent's choice: {ACTION_NAMES[theirs]}.")
    elif state[S_OVER] < 0.5:
        lines.append("Your opponent's choice is hidden until both have chosen.")
    if state[S_OVER] > 0.5:
        result = "You won." if state[S_WON] > 0.5 else ("You lost." if state[S_LOST] > 0.5 else "Nobody won.")
        lines.append(f"The game is over. {result}")
    elif state[S_CONFIRM] > 0.5:
        lines.append("Both choices are revealed: confirm to go on.")
    else:
        lines.append("Choose Scissors, Rock or Paper (Rock beats Scissors, Scissors beats Paper, Paper beats Rock).")
    return "\n".join(lines)


def beats(a: int, b: int) -> bool:
    """True when choice ``a`` beats ``b`` (the rule of logic.beats, in plain Python)."""
    return (a - b) % 3 == 1


def _choice(state: np.ndarray, start: int) -> int | None:
    for c in range(3):
        if state[start + c] > 0.5:
            return c
    return None


# ---- the three hands, drawn around (0, 0) within about 90 x 90 ------------------------------


def _rock() -> str:
    return (
        '<path d="M-42 8 L-34 -22 L-8 -40 L22 -34 L42 -10 L40 20 L20 38 L-18 40 L-38 28 Z" '
        'fill="#9ca3af" stroke="#4b5563" stroke-width="3" stroke-linejoin="round"/>'
        '<path d="M-20 -18 L-4 -24 M10 10 L24 2 M-16 18 L-4 24" stroke="#6b7280" stroke-width="3" '
        'stroke-linecap="round" fill="none"/>'
    )


def _paper() -> str:
    return (
        '<path d="M-32 -44 L18 -44 L34 -28 L34 44 L-32 44 Z" fill="#ffffff" stroke="#4b5563" '
        'stroke-width="3" stroke-linejoin="round"/>'
        '<path d="M18 -44 L18 -28 L34 -28" fill="#e5e7eb" stroke="#4b5563" stroke-width="3" '
        'stroke-linejoin="round"/>'
        '<path d="M-22 -20 L22 -20 M-22 -6 L22 -6 M-22 8 L22 8 M-22 22 L12 22" stroke="#9ca3af" '
        'stroke-width="3" stroke-linecap="round"/>'
    )


def _scissors() -> str:
    return (
        '<path d="M-9 14 L22 -44 M9 14 L-22 -44" stroke="#6b7280" stroke-width="7" '
        'stroke-linecap="round"/>'
        '<circle cx="-16" cy="30" r="13" fill="none" stroke="#c0392b" stroke-width="6"/>'
        '<circle cx="16" cy="30" r="13" fill="none" stroke="#c0392b" stroke-width="6"/>'
        '<circle cx="0" cy="-2" r="4" fill="#374151"/>'
    )


HANDS = (_scissors, _rock, _paper)


def _card(x: float, title: str, colour: str, choice: int | None, hidden_note: str, highlight: str | None) -> str:
    """A player's card: title, the hand (or a face-down card) and its name."""
    border = highlight or colour
    width = 5 if highlight else 3
    parts = [
        f'<g transform="translate({x},0)">',
        f'<rect x="-110" y="70" width="220" height="200" rx="16" fill="#ffffff" stroke="{border}" '
        f'stroke-width="{width}"/>',
        f'<rect x="-110" y="70" width="220" height="34" rx="16" fill="{colour}"/>',
        f'<rect x="-110" y="88" width="220" height="16" fill="{colour}"/>',
        f'<text x="0" y="93" text-anchor="middle" font-size="17" font-weight="bold" fill="#ffffff">'
        f"{escape(title)}</text>",
    ]
    if choice is None:
        parts += [
            '<rect x="-45" y="122" width="90" height="100" rx="10" fill="#e5e7eb" stroke="#9ca3af" '
            'stroke-width="2" stroke-dasharray="6 4"/>',
            '<text x="0" y="189" text-anchor="middle" font-size="52" font-weight="bold" fill="#9ca3af">?</text>',
            f'<text x="0" y="252" text-anchor="middle" font-size="14" fill="{GREY}">{escape(hidden_note)}</text>',
        ]
    else:
        parts += [
            f'<g transform="translate(0,172)">{HANDS[choice]()}</g>',
            f'<text x="0" y="254" text-anchor="middle" font-size="22" font-weight="bold" fill="#1f2430">'
            f"{ACTION_NAMES[choice]}</text>",
        ]
    parts.append("</g>")
    return "".join(parts)


def render(state) -> str:
    """An SVG picture of a RockPaperScissors state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"RockPaperScissors.render: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    mine = _choice(state, S_MINE)
    theirs = _choice(state, S_THEIRS)
    confirming = state[S_CONFIRM] > 0.5
    over = state[S_OVER] > 0.5
    tied_rounds = int(state[S_ROUND]) if np.isfinite(state[S_ROUND]) else 0
    no_winner = over and state[S_WON] < 0.5 and state[S_LOST] < 0.5
    # the round being played; after the last tied round the counter already counts that round
    round_no = max(tied_rounds, 1) if no_winner else tied_rounds + 1

    # ---- the round's result, when both choices are on the table
    round_text, round_colour, my_mark, their_mark = "", GREY, None, None
    if mine is not None and theirs is not None:
        if beats(mine, theirs):
            round_text = f"{ACTION_NAMES[mine]} beats {ACTION_NAMES[theirs]}: you win the round"
            round_colour, my_mark = GREEN, GREEN
        elif beats(theirs, mine):
            round_text = f"{ACTION_NAMES[theirs]} beats {ACTION_NAMES[mine]}: the opponent wins the round"
            round_colour, their_mark = RED, GREEN
        else:
            round_text = (
                f"Both chose {ACTION_NAMES[mine]}: a tie"
                if over
                else f"Both chose {ACTION_NAMES[mine]}: a tie, a new round follows"
            )
            round_colour = AMBER

    # ---- the headline: what is happening now
    if over:
        if state[S_WON] > 0.5:
            head, head_colour = "You won the game!", GREEN
        elif state[S_LOST] > 0.5:
            head, head_colour = "You lost the game", RED
        else:
            head, head_colour = f"No winner after {MAX_ROUNDS} tied rounds", AMBER
    elif confirming:
        head, head_colour = "Both choices revealed: Confirm to go on", "#1f2430"
    elif mine is None:
        head, head_colour = "Choose Scissors, Rock or Paper", "#1f2430"
    else:
        head, head_colour = f"You chose {ACTION_NAMES[mine]}: waiting for the opponent", "#1f2430"

    phase = "game over" if over else ("confirmation phase" if confirming else "choice phase")
    ties = f" · {tied_rounds} tied round{'s' if tied_rounds != 1 else ''} so far" if tied_rounds else ""
    their_note = "hidden until both chose" if not over else "no choice"
    my_note = "not chosen yet" if not over else "no choice"

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" rx="14" fill="#f8fafc"/>',
        f'<text x="{WIDTH / 2}" y="30" text-anchor="middle" font-size="15" fill="{GREY}">'
        f"Round {round_no} · {phase}{ties}</text>",
        f'<text x="{WIDTH / 2}" y="57" text-anchor="middle" font-size="21" font-weight="bold" '
        f'fill="{head_colour}" data-prompt="">{escape(head)}</text>',
        _card(160, "You", BLUE, mine, my_note, my_mark),
        _card(480, "Opponent", ORANGE, theirs, their_note, their_mark),
        f'<text x="{WIDTH / 2}" y="180" text-anchor="middle" font-size="26" font-weight="bold" fill="{GREY}">vs</text>',
    ]
    hint = ""
    if not over and not confirming:
        hint = (
            "Your choice stays hidden from the opponent until both have chosen."
            if mine is None
            else "Both choices are revealed once the opponent has chosen."
        )
    if hint:
        parts.append(
            f'<text x="{WIDTH / 2}" y="320" text-anchor="middle" font-size="15" fill="{GREY}">{escape(hint)}</text>'
        )
    if round_text:
        parts += [
            f'<rect x="40" y="290" width="{WIDTH - 80}" height="48" rx="10" fill="#ffffff" '
            f'stroke="{round_colour}" stroke-width="2"/>',
            f'<text x="{WIDTH / 2}" y="321" text-anchor="middle" font-size="18" font-weight="bold" '
            f'fill="{round_colour}">{escape(round_text)}</text>',
        ]
    parts.append(_buttons(state, mine, confirming, over))
    parts.append("</svg>")
    return "".join(parts)


def _buttons(state: np.ndarray, mine: int | None, confirming: bool, over: bool) -> str:
    """The actions the player may click (each a ``data-action`` group), at the bottom of the picture."""
    if over:
        return ""
    if confirming:
        actions = [3]
    elif mine is None:
        actions = [0, 1, 2]
    else:
        return ""
    width, gap = 150, 20
    left = (WIDTH - (len(actions) * width + (len(actions) - 1) * gap)) / 2
    parts = []
    for i, action in enumerate(actions):
        x = left + i * (width + gap)
        parts.append(
            f'<g data-action="{action}" cursor="pointer"><title>{ACTION_NAMES[action]}</title>'
            f'<rect x="{x}" y="352" width="{width}" height="44" rx="10" fill="{BLUE}"/>'
            f'<text x="{x + width / 2}" y="380" text-anchor="middle" font-size="18" font-weight="bold" '
            f'fill="#ffffff">{ACTION_NAMES[action]}</text></g>'
        )
    return "".join(parts)
