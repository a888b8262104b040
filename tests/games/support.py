"""Helpers shared by the game tests: the registered array games and their player counts (listed
once here), one env per game and options per process (its compiled modules shared by the tests of
a file), the actions a drawing makes clickable, OpenSpiel's random play."""

from __future__ import annotations

import functools
import random
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np

import makeenv
from makeenv.registry import REGISTRY

#: every registered array game, by id
ARRAY_GAMES: tuple[str, ...] = tuple(sorted(spec.id for spec in REGISTRY.values() if spec.kind == "array"))

#: player counts checked in the quick set besides the game's default (every other count is slow)
QUICK_PLAYER_COUNTS: dict[str, tuple[int, ...]] = {"ExplodingKittens": (2,)}


@functools.cache
def game_env(game: str, **options: Any) -> Any:
    """``makeenv.make(game, **options)``, built once per process (tests reuse its compiled modules)."""
    return makeenv.make(game, **options)


def player_counts(game: str) -> tuple[int, ...]:
    """The player counts ``game`` allows (its PARAMETERS' ``players``), the default first; the
    fixed count of a game without the option."""
    env = game_env(game)
    allowed = (getattr(env.module, "PARAMETERS", None) or {}).get("players")
    if not allowed:
        return (env.players,)
    return (env.players,) + tuple(p for p in allowed if p != env.players)


def setups() -> list[tuple[str, int, bool]]:
    """(game, players, quick) for every registered array game and player count it allows; quick
    marks the default count and QUICK_PLAYER_COUNTS."""
    return [
        (game, players, index == 0 or players in QUICK_PLAYER_COUNTS.get(game, ()))
        for game in ARRAY_GAMES
        for index, players in enumerate(player_counts(game))
    ]


def setup_env(game: str, players: int) -> Any:
    """The env of ``game`` with ``players`` seats (the default env when that is its count)."""
    return game_env(game) if players == game_env(game).players else game_env(game, players=players)


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
