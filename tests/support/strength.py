"""Strength tests that stop once the evidence is clear: a sequential test of a win share.

A fixed-size test ("over 300 games the sampler wins more than 60%") plays every game even when the
first hundred already settle it. ``assert_wins_above`` plays batches and stops as soon as the
Wilson interval of the wins so far (at ``Z`` standard errors) lies wholly above the share (pass)
or wholly below it (fail); after ``most`` games the share itself decides, as the fixed-size test
did. With Z = 3 each look is wrong about once in 700 (one-sided), so a handful of looks keeps a
false verdict rarer than one in a hundred runs of a machine that would otherwise pass.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

Z = 3.0


def wilson_interval(wins: int, games: int, z: float = Z) -> tuple[float, float]:
    """The Wilson score interval of a win share ``wins / games`` at ``z`` standard errors."""
    if games <= 0:
        return 0.0, 1.0
    share = wins / games
    middle = share + z * z / (2 * games)
    spread = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (middle - spread) / scale, (middle + spread) / scale


def assert_wins_above(play: Callable[[int, int], Any], share: float, *, most: int, batch: int, seed: int) -> int:
    """Play ``play(games, seed)`` (it returns ``Results``) in batches of ``batch`` games, each with a
    seed of its own from ``seed``, until the win share is clearly above ``share`` or ``most`` games
    are played; fail when it is clearly below, or not above at the end. Returns the games played."""
    wins = games = 0
    for k in range(math.ceil(most / batch)):
        results = play(min(batch, most - games), seed * 1000 + k)
        wins += results.wins
        games += results.games
        low, high = wilson_interval(wins, games)
        if low > share:
            return games
        assert high >= share, f"won {wins} of {games} games: clearly not above {share:.0%}"
    assert wins / games > share, f"won {wins} of {games} games: not above {share:.0%}"
    return games
