"""LeducPoker drawings and words: ``render(state)`` (SVG from the player's seat),
``describe_action(action)`` and ``describe_state(state)`` (text for language-model players).

Only what the state shows is drawn: the public card stays face down during round 1 and the
opponent's card unless a showdown revealed it. Python only; the rules live in ``logic.py``.
"""

from __future__ import annotations

import numpy as np

from makeenv.games._poker import cards as D

from .logic import (
    ACTION_NAMES,
    CALL,
    FIRST_RAISE,
    FOLD,
    MAX_RAISES,
    NUM_CARDS,
    RAISE,
    RANK_NAMES,
    S_CARD,
    S_CHIPS,
    S_LOST,
    S_MY_TURN,
    S_OVER,
    S_PUBLIC,
    S_ROUND,
    S_SEAT,
    S_SEQUENCE,
    S_THEIR_CARD,
    S_THEIR_CHIPS,
    S_WON,
    SECOND_RAISE,
    SLOTS,
    STATE_SIZE,
)

WIDTH, HEIGHT = 700, 440
SUITS = ("♠", "♥")


def card_name(card: int) -> str:
    """E.g. "King of Hearts" for card 5."""
    return f"{RANK_NAMES[card // 2]} of {('Spades', 'Hearts')[card % 2]}"


def describe_action(action: int) -> str:
    """What an action means: 0 "Fold", 1 "Call (or check)", 2 "Raise (2 chips in round 1, 4 in round 2)"."""
    a = int(action)
    if a == FOLD:
        return "Fold (give up the pot)"
    if a == CALL:
        return "Call (match the opponent's chips; a check when nothing is owed)"
    if a == RAISE:
        return f"Raise (match, then add {FIRST_RAISE:.0f} chips in round 1 or {SECOND_RAISE:.0f} in round 2)"
    return f"Unknown action {a}"


def _one_hot(state: np.ndarray, start: int, size: int) -> int | None:
    for k in range(size):
        if state[start + k] > 0.5:
            return k
    return None


def _view(state) -> dict:
    """The facts a picture or a description needs, read from the state."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (STATE_SIZE,):
        raise ValueError(f"LeducPoker: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    rounds = []
    for r in range(2):
        moves = []
        for k in range(SLOTS):
            move = _one_hot(state, S_SEQUENCE + 12 * r + 3 * k, 3)
            if move is None:
                break
            moves.append(move)
        rounds.append(moves)
    mine, theirs = float(state[S_CHIPS]), float(state[S_THEIR_CHIPS])
    second = state[S_ROUND] > 0.5
    raises = sum(1 for m in rounds[1 if second else 0] if m == RAISE)
    return {
        "card": _one_hot(state, S_CARD, NUM_CARDS),
        "public": _one_hot(state, S_PUBLIC, NUM_CARDS),
        "their_card": _one_hot(state, S_THEIR_CARD, NUM_CARDS),
        "seat": 1 if state[S_SEAT + 1] > 0.5 else 0,
        "rounds": rounds,
        "second_round": second,
        "mine": mine,
        "theirs": theirs,
        "my_turn": state[S_MY_TURN] > 0.5,
        "over": state[S_OVER] > 0.5,
        "won": state[S_WON] > 0.5,
        "lost": state[S_LOST] > 0.5,
        "facing_bet": theirs > mine,
        "can_raise": raises < MAX_RAISES,
    }


def _move_words(moves: list[int], seat: int) -> list[str]:
    """One round's moves in words: "you check", "opponent raises", "you call", "opponent folds"."""
    words = []
    owed = False
    for i, move in enumerate(moves):
        who = "you" if i % 2 == seat else "opponent"  # player 0 opens every round
        if move == FOLD:
            verb = "fold"
        elif move == CALL:
            verb = "call" if owed else "check"
            owed = False
        else:
            verb = "raise" if owed else "bet"
            owed = True
        words.append(f"{who} {verb}{'s' if who == 'opponent' else ''}")
    return words


def _hand_words(card: int, public: int | None) -> str:
    if public is not None and card // 2 == public // 2:
        return f"a pair of {RANK_NAMES[card // 2]}s"
    return f"{RANK_NAMES[card // 2]} high"


def _result(v: dict) -> str:
    if not v["over"]:
        return ""
    showdown = v["their_card"] is not None
    if v["won"]:
        how = "the opponent folded" if not showdown else "your hand is better"
        return f"You won {v['theirs']:.0f} chips: {how}"
    if v["lost"]:
        how = "you folded" if not showdown else "the opponent's hand is better"
        return f"You lost {v['mine']:.0f} chips: {how}"
    return "Split pot: both hands have the same rank"


def _card_svg(
    x: float, y: float, card: int | None, caption: str, highlight: str | None = None, below: bool = False
) -> str:
    if card is None:
        return D.card(x, y, None, caption=caption, highlight=highlight, caption_below=below)
    return D.card(
        x, y, RANK_NAMES[card // 2], SUITS[card % 2], caption=caption, highlight=highlight, caption_below=below
    )


def render(state) -> str:
    """An SVG picture of a LeducPoker state from its player's point of view."""
    v = _view(state)
    parts = [D.open_svg(WIDTH, HEIGHT)]
    if v["over"]:
        head = _result(v)
        colour = D.GREEN if v["won"] else D.RED if v["lost"] else D.AMBER
    elif v["my_turn"]:
        head, colour = ("Your turn: fold, call or raise" if v["facing_bet"] else "Your turn: check or bet"), D.INK
    else:
        head, colour = "Opponent's turn", D.GREY
    round_no = 2 if v["second_round"] else 1
    seat = "you act first" if v["seat"] == 0 else "you act second"
    parts.append(D.text(WIDTH / 2, 28, f"Leduc poker · round {round_no} of 2 · {seat}", 15, D.GREY))
    parts.append(D.text(WIDTH / 2, 56, head, 21, colour, True).replace("<text ", '<text data-prompt="" ', 1))

    my_mark = D.GREEN if v["won"] else None
    their_mark = D.GREEN if v["lost"] else None
    parts.append(_card_svg(46, 84, v["their_card"], "Opponent", their_mark))
    parts.append(_card_svg(46, 226, v["card"], "You", my_mark))
    parts.append(
        _card_svg(250, 140, v["public"], "Public card" if v["public"] is not None else "Public (round 2)", below=True)
    )
    parts.append(D.chips(420, 190, v["mine"] + v["theirs"], "pot", f"you {v['mine']:.0f} · opponent {v['theirs']:.0f}"))

    y = 110
    for r, moves in enumerate(v["rounds"]):
        if r == 1 and not v["second_round"]:
            break
        parts.append(D.text(590, y, f"Round {r + 1}", 15, "#d1fae5", True))
        for line in _move_words(moves, v["seat"]) or ["no moves yet"]:
            y += 21
            parts.append(D.text(590, y, line, 14, "#ffffff"))
        y += 30

    if v["my_turn"] and not v["over"]:
        raise_chips = FIRST_RAISE if round_no == 1 else SECOND_RAISE
        choices = []
        if v["facing_bet"]:
            choices.append((FOLD, "Fold"))
            choices.append((CALL, "Call"))
        else:
            choices.append((CALL, "Check"))
        if v["can_raise"]:
            choices.append((RAISE, f"{'Raise' if v['facing_bet'] else 'Bet'} {raise_chips:.0f}"))
        parts.append(D.buttons(WIDTH / 2, HEIGHT - 58, choices, width=140))
    elif not v["over"]:
        parts.append(D.text(WIDTH / 2, HEIGHT - 32, "Waiting for the opponent", 15, D.GREY))
    parts.append(D.close_svg())
    return "".join(parts)


def describe_state(state) -> str:
    """The state in words for a language-model player (no hidden information)."""
    v = _view(state)
    lines = [
        "Leduc poker: 6 cards (Jack, Queen, King in two suits), one private card each, one public card "
        "shown after round 1; ante 1 chip; raises of 2 chips in round 1 and 4 in round 2, at most 2 per round. "
        "A card pairing the public card wins, else the higher rank; equal ranks split the pot.",
        f"You are player {v['seat']} ({'you act first' if v['seat'] == 0 else 'you act second'} in each round).",
        f"Your card: {card_name(v['card']) if v['card'] is not None else 'none'}.",
        (
            f"Public card: {card_name(v['public'])} (you have {_hand_words(v['card'], v['public'])})."
            if v["public"] is not None and v["card"] is not None
            else "Public card: face down until round 2."
        ),
    ]
    for r, moves in enumerate(v["rounds"]):
        if r == 1 and not v["second_round"]:
            break
        lines.append(f"Round {r + 1} betting: " + (", ".join(_move_words(moves, v["seat"])) or "no moves yet") + ".")
    lines.append(
        f"Pot: {v['mine'] + v['theirs']:.0f} chips (you put in {v['mine']:.0f}, the opponent {v['theirs']:.0f})."
    )
    if v["over"]:
        if v["their_card"] is not None:
            lines.append(f"Showdown: the opponent had the {card_name(v['their_card'])}.")
        lines.append(_result(v) + ".")
    elif v["my_turn"]:
        options = []
        if v["facing_bet"]:
            owed = v["theirs"] - v["mine"]
            options += [f"action {FOLD} folds", f"action {CALL} calls ({owed:.0f} chip{'s' if owed != 1 else ''})"]
        else:
            options.append(f"action {CALL} checks")
        if v["can_raise"]:
            amount = SECOND_RAISE if v["second_round"] else FIRST_RAISE
            options.append(f"action {RAISE} {'raises' if v['facing_bet'] else 'bets'} {amount:.0f} chips")
        lines.append("Your move: " + ", ".join(options) + ".")
    else:
        lines.append("Waiting for the opponent to move.")
    return "\n".join(lines)


__all__ = ["render", "describe_action", "describe_state", "ACTION_NAMES", "card_name"]
