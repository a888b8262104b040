"""Checks shared by the KuhnPoker and LeducPoker tests: replaying OpenSpiel's random hands in our
env, OpenSpiel's random-play figures, hidden cards staying hidden, and the drawings."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any

import numpy as np

from tests.games.support import clickable_actions


def random_history(os_game: Any, rng: random.Random) -> list[tuple[int, int]]:
    """One uniformly random OpenSpiel hand: (player, action) pairs, chance outcomes as player -1."""
    state = os_game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return [(step.player, step.action) for step in state.full_history()]


def openspiel_random_play(os_game: Any, hands: int, seed: int) -> dict[str, float]:
    """OpenSpiel's figures for uniform random play: player 0's win rate, mean return, moves per hand."""
    rng = random.Random(seed)
    wins = moves = 0
    total = 0.0
    for _ in range(hands):
        history = random_history(os_game, rng)
        state = os_game.new_initial_state()
        for _, action in history:
            state.apply_action(action)
        total += state.returns()[0]
        wins += state.returns()[0] > 0
        moves += sum(1 for player, _ in history if player >= 0)
    return {"first_wins": wins / hands, "first_return": total / hands, "moves": moves / hands}


def hidden_cards_stay_hidden(logic: Any, env: np.ndarray, hidden: Callable[[np.ndarray, int], list[int]]) -> int:
    """Every player's state is the same whatever card sits at an env index it must not see
    (``hidden(env, player)``); returns how many variants were compared."""
    compared = 0
    dealt = [int(env[i]) for i in range(logic.E_CARD, logic.E_CARD + logic.CARDS_DEALT)]
    for player in (0, 1):
        seen = logic.getPlayerState(env, player)
        for index in hidden(env, player):
            for card in range(logic.NUM_CARDS):
                if card in dealt:
                    continue
                other = env.copy()
                other[index] = card
                np.testing.assert_array_equal(logic.getPlayerState(other, player), seen)
                compared += 1
    return compared


def check_drawing(draw: Any, logic: Any, state: np.ndarray) -> str:
    """render parses as SVG whose clickable elements are exactly the valid actions on the
    player's turn (none otherwise); describe_state says whose move it is. Returns the text."""
    svg = ET.fromstring(draw.render(state))
    assert svg.tag.endswith("svg")
    clickable = clickable_actions(svg)
    my_turn = bool(state[logic.S_MY_TURN])
    assert clickable == (list(np.flatnonzero(logic.getValidActions(state))) if my_turn else [])
    text = draw.describe_state(state)
    assert ("Your move" in text) == my_turn
    assert ("Waiting for the opponent" in text) == (not my_turn and not state[logic.S_OVER])
    return text
