"""WelcomeToTheDungeon2 drawings and words, from one player's view. Python only.

``render(state)`` shows the players, the hero with its HP and items, the dungeon (the monster the
runner faces, those already out), the monsters I drew, and one button per valid action;
``describe_action`` names an action; ``describe_state`` puts the state in words.
"""

from __future__ import annotations

import numpy as np

from ..welcome_to_the_dungeon.draw import monster, seat_place
from ..welcome_to_the_dungeon.dungeon import (
    C_LAST_RUNNER,
    C_LAST_WON,
    C_OVER,
    C_ROUNDS,
    C_RUNNER,
    C_SEAT,
    C_TO_MOVE,
    C_WINNER,
    C_WON,
    CARD_STRENGTH,
    NUM_CARDS,
    NUM_ITEMS,
    NUM_PLAYERS,
)
from ..welcome_to_the_dungeon.picture import GREEN, GREY, RED, SEAT_NAMES, picture
from . import logic as L


def describe_action(action: int) -> str:
    """What an action means: "Fight the monster", "Use the Vorpal Axe", ..."""
    a = int(action)
    names = {
        L.PASS: "Pass (out of this round)",
        L.ADD: "Add it to the dungeon",
        L.USE_AXE: "Use the Vorpal Axe on this monster",
        L.USE_POLYMORPH: "Polymorph this monster (fight the deck's top card)",
        L.FIGHT: "Fight this monster",
        L.LOOK: "Look at the next monster",
        L.CHOOSE_HERO: "Choose the Barbarian for this round",
        L.CHOOSE_HERO + 1: "Choose the Mage for this round",
    }
    if a in names:
        return names[a]
    if L.DISCARD <= a < L.DISCARD + NUM_ITEMS:
        i = a - L.DISCARD
        return f"Discard it with item {i + 1} ({L.ITEM_NAMES[0][i]} / {L.ITEM_NAMES[1][i]})"
    return f"Unknown action {a}"


def _hero(state) -> int:
    """0 Barbarian, 1 Mage, -1 not chosen yet."""
    return L.BARBARIAN if state[L.S_BARBARIAN] > 0.5 else L.MAGE if state[L.S_MAGE] > 0.5 else -1


def _headline(state) -> tuple[str, str]:
    c = L.S_COMMON
    if state[c + C_OVER] > 0.5:
        if state[c + C_WON] > 0.5:
            return "You won the game!", GREEN
        return f"Game over: {SEAT_NAMES[seat_place(state, c + C_WINNER)].lower()} won", RED
    if seat_place(state, c + C_TO_MOVE) != 0:
        return f"Waiting for {SEAT_NAMES[seat_place(state, c + C_TO_MOVE)].lower()}", GREY
    return (
        {
            L.PH_HERO: "Choose the hero for this round",
            L.PH_BID: "Your bid: look at the next monster or pass",
            L.PH_LOOKED: "Add the monster to the dungeon, or discard it with an item",
            L.PH_DUNGEON: "In the dungeon: deal with the monster you face",
        }.get(L.state_phase(state), "Your move"),
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
    hero = _hero(state)
    lines = []
    if hero >= 0:
        start = L.S_MAGE if hero == L.MAGE else L.S_BARBARIAN
        items = [L.ITEM_NAMES[hero][i] for i in range(NUM_ITEMS) if state[start + 2 + i] > 0.5]
        lines.append(
            f"Hero: the {L.HERO_NAMES[hero]}, {int(state[start + 1])} HP; items left: {', '.join(items) or 'none'}."
        )
    else:
        lines.append("No hero chosen yet for this round.")
    lines.append(f"Monsters in the deck: {int(state[L.S_DECK])}; in the dungeon: {int(state[L.S_DUNGEON])}.")
    facing = int(state[L.S_FACING]) - 1
    if 0 <= facing < NUM_CARDS:
        lines.append(f"The runner faces: {monster(CARD_STRENGTH[facing])}.")
    for card in range(NUM_CARDS):
        if state[L.S_LOOKED + card] > 0.5:
            lines.append(f"You are looking at: {monster(CARD_STRENGTH[card])}.")
    out = [monster(CARD_STRENGTH[k]) for k in range(NUM_CARDS) if state[L.S_OUT + k] > 0]
    if out:
        lines.append(f"Out of the dungeon this round: {', '.join(out)}.")
    mine = []
    for k in range(NUM_CARDS):
        if state[L.S_MEMORY + 3 * k] > 0:
            place = int(state[L.S_MEMORY + 3 * k + 1])
            where = f"dungeon place {place}" if place else "gone"
            mine.append(f"{monster(CARD_STRENGTH[k])} ({where})")
    lines.append(f"Monsters you drew: {'; '.join(mine) or 'none'}.")
    last = seat_place(state, c + C_LAST_RUNNER)
    if last >= 0:
        result = "survived" if state[c + C_LAST_WON] > 0.5 else "died"
        lines.append(f"Last round ({int(state[c + C_ROUNDS])} played): {SEAT_NAMES[last].lower()} {result}.")
    return lines


def describe_state(state) -> str:
    """The state in words: the players, the hero, HP and items, the dungeon, the prompt."""
    state = np.asarray(state, dtype=np.float64)
    head, _ = _headline(state)
    out = [
        f"Welcome to the Dungeon (Barbarian / Mage), 4 players; you are seat {int(state[L.S_COMMON + C_SEAT])}. {head}."
    ]
    out += [f"{SEAT_NAMES[rel]}: {text}." for rel, text in enumerate(_seats(state))]
    return "\n".join(out + _lines(state))


def render(state) -> str:
    """An SVG picture of a WelcomeToTheDungeon2 state from its player's point of view."""
    state = np.asarray(state, dtype=np.float64)
    if state.shape != (L.STATE_SIZE,):
        raise ValueError(
            f"WelcomeToTheDungeon2.render: expected a state of length {L.STATE_SIZE}, got shape {state.shape}"
        )
    head, colour = _headline(state)
    over = state[L.S_COMMON + C_OVER] > 0.5
    acting = seat_place(state, L.S_COMMON + C_TO_MOVE) == 0 or over
    buttons = [
        (a, "End" if over else describe_action(a)) for a in range(L.NUM_ACTIONS) if acting and L.isValidAction(state, a)
    ]
    return picture(
        "Welcome to the Dungeon · Barbarian / Mage · 2 wins win, 2 deaths eliminate",
        head,
        colour,
        _seats(state),
        _lines(state),
        buttons,
    )
