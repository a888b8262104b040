"""The sequential strength test stops early on clear evidence and otherwise decides as a fixed-size test."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from tests.support.strength import assert_wins_above, wilson_interval


def player(share: float):
    """play(games, seed) winning ``share`` of every batch (rounded down), recording the seeds used."""
    seeds: list[int] = []

    def play(games: int, seed: int) -> SimpleNamespace:
        seeds.append(seed)
        return SimpleNamespace(wins=int(games * share), games=games)

    play.seeds = seeds  # type: ignore[attr-defined]
    return play


def test_wilson_interval_holds_the_share_and_narrows_with_games():
    low, high = wilson_interval(70, 100)
    assert low < 0.7 < high
    low_more, high_more = wilson_interval(700, 1000)
    assert low < low_more < 0.7 < high_more < high


def test_a_clearly_stronger_player_stops_after_a_few_batches_each_with_its_own_seed():
    play = player(0.8)
    assert assert_wins_above(play, 0.6, most=300, batch=50, seed=5) < 300
    assert len(set(play.seeds)) == len(play.seeds)


def test_a_clearly_weaker_player_fails_early():
    play = player(0.3)
    with pytest.raises(AssertionError, match="clearly not above 60%"):
        assert_wins_above(play, 0.6, most=300, batch=50, seed=5)
    assert len(play.seeds) < 6


def test_a_close_call_plays_every_game_and_the_share_decides():
    assert assert_wins_above(player(0.62), 0.6, most=300, batch=50, seed=1) == 300
    with pytest.raises(AssertionError, match="won 168 of 300 games: not above 60%"):
        assert_wins_above(player(0.58), 0.6, most=300, batch=50, seed=1)
