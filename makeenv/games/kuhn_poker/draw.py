"""KuhnPoker drawings and words: ``render(state)`` (SVG from the player's seat),
``describe_action(action)`` and ``describe_state(state)`` (text for language-model players).

Only what the state shows is drawn: the opponent's card stays face down unless a showdown
revealed it. Python only; the rules live in ``logic.py``.
"""

from __future__ import annotations

import numpy as np

from makeenv.games._poker import cards as D

from .logic import (
    ACTION_NAMES,
    BET,
    CARD_NAMES,
    MAX_MOVES,
    NUM_CARDS,
    PASS,
    S_CARD,
    S_CHIPS,
    S_HISTORY,
    S_LOST,
    S_MY_TURN,
    S_OVER,
    S_SEAT,
    S_THEIR_CARD,
    S_THEIR_CHIPS,
    S_WON,
    STATE_SIZE,
)

WIDTH, HEIGHT = 640, 420


def describe_action(action: int) -> str:
    """What an action means: 0 "Pass (check, or fold to a bet)", 1 "Bet (bet 1 chip, or call a bet)"."""
    a = int(action)
    if a == PASS:
        return "Pass (check, or fold to a bet)"
    if a == BET:
        return "Bet (bet 1 chip, or call a bet)"
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
        raise ValueError(f"KuhnPoker: expected a state of length {STATE_SIZE}, got shape {state.shape}")
    moves = []
    for k in range(MAX_MOVES):
        move = _one_hot(state, S_HISTORY + 2 * k, 2)
        if move is None:
            break
        moves.append(move)
    me = 1 if state[S_SEAT + 1] > 0.5 else 0
    mine, theirs = float(state[S_CHIPS]), float(state[S_THEIR_CHIPS])
    return {
        "card": _one_hot(state, S_CARD, NUM_CARDS),
        "their_card": _one_hot(state, S_THEIR_CARD, NUM_CARDS),
        "seat": me,
        "moves": moves,
        "mine": mine,
        "theirs": theirs,
        "my_turn": state[S_MY_TURN] > 0.5,
        "over": state[S_OVER] > 0.5,
        "won": state[S_WON] > 0.5,
        "lost": state[S_LOST] > 0.5,
        "facing_bet": theirs > mine,
    }


def _move_words(moves: list[int], seat: int) -> list[str]:
    """Each move in words, e.g. "you check", "opponent bets", "you fold"."""
    words = []
    chips = [1, 1]
    player = 0
    for move in moves:
        who = "you" if player == seat else "opponent"
        facing = chips[1 - player] > chips[player]
        if move == BET:
            verb = "call" if facing else "bet"
            chips[player] += 1
        else:
            verb = "fold" if facing else "check"
        if who == "opponent":
            verb += "s"
        words.append(f"{who} {verb}")
        player = 1 - player
    return words


def _result(v: dict) -> str:
    if not v["over"]:
        return ""
    folded = v["their_card"] is None
    if v["won"]:
        how = "the opponent folded" if folded else "your card is higher"
        return f"You won {v['theirs']:.0f} chip{'s' if v['theirs'] != 1 else ''}: {how}"
    how = "you folded" if folded else "the opponent's card is higher"
    return f"You lost {v['mine']:.0f} chip{'s' if v['mine'] != 1 else ''}: {how}"


def render(state) -> str:
    """An SVG picture of a KuhnPoker state from its player's point of view."""
    v = _view(state)
    parts = [D.open_svg(WIDTH, HEIGHT)]
    if v["over"]:
        head, colour = _result(v), (D.GREEN if v["won"] else D.RED)
    elif v["my_turn"]:
        head, colour = ("Your turn: call or fold" if v["facing_bet"] else "Your turn: check or bet"), D.INK
    else:
        head, colour = "Opponent's turn", D.GREY
    seat = "you act first" if v["seat"] == 0 else "you act second"
    parts.append(D.text(WIDTH / 2, 28, f"Kuhn poker · {seat}", 15, D.GREY))
    parts.append(D.text(WIDTH / 2, 56, head, 21, colour, True).replace("<text ", '<text data-prompt="" ', 1))

    their_rank = CARD_NAMES[v["their_card"]] if v["their_card"] is not None else None
    my_rank = CARD_NAMES[v["card"]] if v["card"] is not None else None
    my_mark = D.GREEN if v["won"] else None
    their_mark = D.GREEN if v["lost"] else None
    parts.append(D.card(56, 84, their_rank, caption="Opponent", highlight=their_mark))
    parts.append(D.card(56, 214, my_rank, caption="You", highlight=my_mark))
    parts.append(D.chips(330, 180, v["mine"] + v["theirs"], "pot", f"you {v['mine']:.0f} · opponent {v['theirs']:.0f}"))

    history = _move_words(v["moves"], v["seat"])
    parts.append(D.text(510, 110, "Betting", 15, "#d1fae5", True))
    for i, line in enumerate(history or ["no moves yet"]):
        parts.append(D.text(510, 136 + 22 * i, line, 15, "#ffffff"))

    if v["my_turn"] and not v["over"]:
        labels = [(PASS, "Fold"), (BET, "Call")] if v["facing_bet"] else [(PASS, "Check"), (BET, "Bet 1")]
        parts.append(D.buttons(WIDTH / 2, HEIGHT - 58, labels))
    elif not v["over"]:
        parts.append(D.text(WIDTH / 2, HEIGHT - 32, "Waiting for the opponent", 15, D.GREY))
    parts.append(D.close_svg())
    return "".join(parts)


def describe_state(state) -> str:
    """The state in words for a language-model player (no hidden information)."""
    v = _view(state)
    lines = [
        "Kuhn poker: a 3-card deck (Jack < Queen < King), one card each, ante 1 chip, one bet of 1 chip.",
        f"You are player {v['seat']} ({'you act first' if v['seat'] == 0 else 'you act second'}).",
        f"Your card: {CARD_NAMES[v['card']] if v['card'] is not None else 'none'}.",
        "Betting so far: " + (", ".join(_move_words(v["moves"], v["seat"])) or "no moves yet") + ".",
        f"Pot: {v['mine'] + v['theirs']:.0f} chips (you put in {v['mine']:.0f}, the opponent {v['theirs']:.0f}).",
    ]
    if v["over"]:
        if v["their_card"] is not None:
            lines.append(f"Showdown: the opponent had the {CARD_NAMES[v['their_card']]}.")
        lines.append(_result(v) + ".")
    elif v["my_turn"]:
        if v["facing_bet"]:
            lines.append(f"Your move (you face a bet of 1 chip): action {PASS} folds, action {BET} calls.")
        else:
            lines.append(f"Your move: action {PASS} checks, action {BET} bets 1 chip.")
    else:
        lines.append("Waiting for the opponent to move.")
    return "\n".join(lines)


__all__ = ["render", "describe_action", "describe_state", "ACTION_NAMES"]
