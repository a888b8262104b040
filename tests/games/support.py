"""Helpers shared by the game tests: the actions a drawing makes clickable, OpenSpiel's random play."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np


def clickable_actions(svg: ET.Element) -> list[int]:
    """The actions of the elements a drawing marks with ``data-action``, sorted (repeats kept)."""
    return sorted(int(e.get("data-action")) for e in svg.iter() if e.get("data-action") is not None)


def openspiel_random_outcomes(game: Any, games: int, seed: int) -> tuple[np.ndarray, float]:
    """Shares of (first mover wins, second mover wins, no winner) and the mean number of moves in
    uniformly random games of an OpenSpiel game without chance nodes."""
    rng = random.Random(seed)
    counts, moves = np.zeros(3), 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        returns = state.returns()
        counts[0 if returns[0] > 0 else 1 if returns[1] > 0 else 2] += 1
    return counts / games, moves / games
