"""Helpers shared by the game tests: the registered array games and their player counts (listed
once here), one env per game and options per process (its compiled modules shared by the tests of
a file), the actions a drawing makes clickable, OpenSpiel's random play, random play straight over
a game's rules (what vis/ENV's figures are compared with)."""

from __future__ import annotations

import functools
import random
import xml.etree.ElementTree as ET
from typing import Any

import numpy as np
from numba import njit

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
    marked = (e.get("data-action") for e in svg.iter())
    return sorted(int(action) for action in marked if action is not None)


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


@functools.cache
def random_play_counter(logic: Any, players: int) -> Any:
    """A compiled ``play(games, seed) -> (mean length, sd of the length, each seat's share of first
    places, share of games without a sole winner)`` over the rules module ``logic``: uniformly
    random valid moves, straight over its functions (no referee, no final turns), as vis/ENV plays
    them. A first place shared by several seats counts for each (``getWinners`` when the game has
    it, else ``checkEnded``'s sole winner)."""
    init, agent_state, valid_actions, step, ended = (
        logic.initEnv,
        logic.getAgentState,
        logic.getValidActions,
        logic.stepEnv,
        logic.checkEnded,
    )
    if hasattr(logic, "getWinners"):
        winners_of = logic.getWinners
    else:

        @njit
        def winners_of(env):
            winners = np.zeros(players)
            winner = ended(env)
            if 0 <= winner < players:
                winners[winner] = 1.0
            return winners

    @njit
    def play(games, seed):
        np.random.seed(seed)
        total, squares, no_sole_winner = 0.0, 0.0, 0.0
        wins = np.zeros(players)
        for _ in range(games):
            env = init()
            steps = 0
            while ended(env) == -1:
                choices = np.flatnonzero(valid_actions(agent_state(env)))
                step(choices[int(np.random.random() * choices.shape[0])], env)
                steps += 1
            total += steps
            squares += steps * steps
            wins += winners_of(env)
            no_sole_winner += ended(env) == players
        mean = total / games
        return mean, np.sqrt(squares / games - mean * mean), wins / games, no_sole_winner / games

    return play
