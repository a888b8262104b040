"""WelcomeToTheDungeon drawings and words, from one player's view. Python only.

``render(state)`` shows the players (wins, losses, passed, who moves), the hero and its items, the
dungeon as far as I know it, the monster I am looking at, the previous round, and one button per
valid action; ``describe_action`` names an action; ``describe_state`` puts the state in words.
"""

from __future__ import annotations

import numpy as np

from . import logic as L
from .dungeon import (
    C_LAST_RUNNER,
    C_LAST_SPECIES,
    C_LAST_WON,
    C_OVER,
    C_ROUNDS,
    C_RUNNER,
    C_SEAT,
    C_TO_MOVE,
    C_WINNER,
    C_WON,
    MONSTER_NAMES,
    NUM_CARDS,
    NUM_ITEMS,
    NUM_PLAYERS,
    NUM_SPECIES,
    SPECIES,
)
from .picture import GREEN, GREY, RED, SEAT_NAMES, picture


def monster(strength: float) -> str:
    """ "Orc (3)"."""
    return f"{MONSTER_NAMES[int(strength)]} ({int(strength)})"


def describe_action(action: int) -> str:
    """What an action means: "Look at the next monster", "Discard it with the Torch", ..."""
    a = int(action)
    if a == L.PASS:
        return "Pass (out of this round)"
    if a == L.LOOK:
        return "Look at the next monster"
    if a == L.ADD:
        return "Add it to the dungeon"
    for hero, first in ((L.WARRIOR, L.DISCARD_WARRIOR), (L.ROGUE, L.DISCARD_ROGUE)):
        if first <= a < first + NUM_ITEMS:
            return f"Discard it with the {L.HERO_NAMES[hero]}'s {L.ITEM_NAMES[hero][a - first]}"
    if L.VORPAL_SPECIES <= a < L.VORPAL_SPECIES + NUM_SPECIES:
        return f"Vorpal weapon: kill every {monster(SPECIES[a - L.VORPAL_SPECIES])}"
    if a in (L.CHOOSE_HERO, L.CHOOSE_HERO + 1):
        return f"Choose the {L.HERO_NAMES[a - L.CHOOSE_HERO]} for the next round"
    return f"Unknown action {a}"


def seat_place(state, at: int) -> int:
    """The place counted from me (0 me, then the next players) of the seat that the common-block
    value ``state[at]`` names (dungeon.py's ``seat_code``), -1 for nobody."""
    return int(state[at]) - 1


def _headline(state) -> tuple[str, str]:
    c = L.S_COMMON
    if state[c + C_OVER] > 0.5:
        if state[c + C_WON] > 0.5:
            return "You won the game!", GREEN
        return f"Game over: {SEAT_NAMES[seat_place(state, c + C_WINNER)].lower()} won", RED
    if seat_place(state, c + C_TO_MOVE) != 0:
        return f"Waiting for {SEAT_NAMES[seat_place(state, c + C_TO_MOVE)].lower()}", GREY
    phase = L.state_phase(state)
    return (
        {
            L.PH_BID: "Your bid: look at the next monster or pass",
            L.PH_LOOKED: "Add the monster to the dungeon, or discard it with an item",
            L.PH_CHOOSE: "You enter the dungeon: name a species for your vorpal weapon",
            L.PH_HERO: "Choose the hero for the next round",
        }.get(phase, "Your move"),
        "#f2c94c",
    )


def _seats(state) -> list[str]:
    c = L.S_COMMON
    seats = []
    for rel in range(NUM_PLAYERS):
        wins, losses = int(state[L.S_SCORES + 2 * rel]), int(state[L.S_SCORES + 2 * rel + 1])
        notes = [f"{wins} win(s), {losses} loss(es)"]
        if losses >= 2:
            notes.append("eliminated")
        elif state[L.S_PASSED + rel] > 0.5:
            notes.append("passed")
        if seat_place(state, c + C_RUNNER) == rel:
            notes.append("goes into the dungeon")
        if seat_place(state, c + C_TO_MOVE) == rel:
            notes.append("to move")
        seats.append(", ".join(notes))
    return seats


def _lines(state) -> list[str]:
    c = L.S_COMMON
    hero = L.ROGUE if state[L.S_ROGUE] > 0.5 else L.WARRIOR
    start = (L.S_ROGUE if hero == L.ROGUE else L.S_WARRIOR) + 1
    items = [L.ITEM_NAMES[hero][i] for i in range(NUM_ITEMS) if state[start + i] > 0.5]
    lines = [
        f"Hero: the {L.HERO_NAMES[hero]}; items left: {', '.join(items) or 'none'}.",
        f"Monsters drawn: {int(state[L.S_DRAWN])} of {NUM_CARDS}; in the dungeon: {int(state[L.S_DUNGEON])}.",
    ]
    mine = [f"{k + 1}: {monster(state[L.S_MY_DUNGEON + k])}" for k in range(NUM_CARDS) if state[L.S_MY_DUNGEON + k] > 0]
    lines.append(f"Dungeon places you filled: {'; '.join(mine) or 'none'}.")
    gone = [
        f"{int(state[L.S_MY_DISCARDS + i])} {monster(SPECIES[i])}"
        for i in range(NUM_SPECIES)
        if state[L.S_MY_DISCARDS + i] > 0
    ]
    lines.append(f"Monsters you discarded: {', '.join(gone) or 'none'}.")
    for i in range(NUM_SPECIES):
        if state[L.S_LOOKED + i] > 0.5:
            lines.append(f"You are looking at: {monster(SPECIES[i])}.")
    last = seat_place(state, c + C_LAST_RUNNER)
    if last >= 0:
        result = "survived" if state[c + C_LAST_WON] > 0.5 else "died"
        seen = [
            f"{int(state[c + C_LAST_SPECIES + i])} {monster(SPECIES[i])}"
            for i in range(NUM_SPECIES)
            if state[c + C_LAST_SPECIES + i] > 0
        ]
        lines.append(
            f"Last round ({int(state[c + C_ROUNDS])} played): {SEAT_NAMES[last].lower()} {result}; the dungeon held {', '.join(seen) or 'nothing'}."
        )
    return lines


def describe_state(state) -> str:
    """The state in words: the players, the hero and its items, what I know of the dungeon, the prompt."""
    state = np.asarray(state, dtype=np.float64)
    seat = int(state[L.S_COMMON + C_SEAT])
    head, _ = _headline(state)
    out = [f"Welcome to the Dungeon (Warrior / Rogue), 4 players; you are seat {seat}. {head}."]
    out += [f"{SEAT_NAMES[rel]}: {text}." for rel, text in enumerate(_seats(state))]
    return "\n".join(out + _lines(state))


def render(state) -> str:
    """An SVG picture of a WelcomeToTheDungeon state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (L.STATE_SIZE,):
        raise ValueError(
            f"WelcomeToTheDungeon.render: expected a state of length {L.STATE_SIZE}, got shape {state.shape}"
        )
    head, colour = _headline(state)
    acting = seat_place(state, L.S_COMMON + C_TO_MOVE) == 0 or state[L.S_COMMON + C_OVER] > 0.5
    buttons = [
        (a, describe_action(a) if state[L.S_COMMON + C_OVER] < 0.5 else "End")
        for a in range(L.NUM_ACTIONS)
        if acting and L.isValidAction(state, a)
    ]
    return picture(
        "Welcome to the Dungeon · Warrior / Rogue · 2 wins win, 2 deaths eliminate",
        head,
        colour,
        _seats(state),
        _lines(state),
        buttons,
    )
