"""benchmarks/bench_levels.py measures what it says: outcomes forced by the Bidding test game,
ties in places, and score readers that agree with each game's winners."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import makeenv
from benchmarks.bench_levels import (
    STATE_SCORES,
    CardsLeft,
    SeatBlocks,
    final_scores,
    main,
    place_and_margin,
    play_level,
)

BIDDING = str(Path(__file__).resolve().parents[1] / "array" / "bidding_game.py")


def test_place_and_margin_counts_ties_as_the_better_place() -> None:
    assert place_and_margin([3.0, 5.0, 1.0]) == (2, -2.0)
    assert place_and_margin([5.0, 5.0, 1.0]) == (1, 0.0)
    assert place_and_margin([7.0, 5.0, 6.0]) == (1, 1.0)
    assert place_and_margin([-2.0, 4.0, 4.0, -2.0]) == (3, -6.0)


def test_place_and_margin_refuses_a_single_seat() -> None:
    with pytest.raises(ValueError, match="at least 2 seats"):
        place_and_margin([1.0])


def test_seat_blocks_read_the_viewer_first_then_the_next_seats() -> None:
    reader = SeatBlocks("points", start=2, size=3, weights=((0, 1.0), (2, -1.0)))
    state = np.array([9.0, 9.0, 5.0, 0.0, 1.0, 7.0, 0.0, 0.0, 2.0, 0.0, 2.0])
    assert reader(state, 3).tolist() == [4.0, 7.0, 0.0]


def test_cards_left_count_my_flags_and_the_next_seats_counts() -> None:
    reader = CardsLeft("cards left, negated", mine=0, deck=4, others=4)
    state = np.array([1.0, 0.0, 1.0, 1.0, 0.0, 5.0, 2.0])
    assert reader(state, 3).tolist() == [-3.0, -0.0, -5.0]


def test_a_level_whose_outcome_is_forced() -> None:
    """Against high bidders (always 3) a random bidder never scores: a 3 ties (the round is
    replayed), anything less lets the high bidder score. After 3 scored rounds the points are
    3 against 0, and getReturns gives points minus their mean."""
    env = makeenv.make(BIDDING, players=2)
    result = play_level(env, 1, 12, seed=3)
    assert result.games == 12 and result.wins == 0 and result.truncated == 0
    assert result.scores == [-1.5] * 12  # 0 points, the mean is 1.5
    assert result.margins == [-3.0] * 12
    assert result.places == [2] * 12
    assert sorted(set(result.lengths)) and min(result.lengths) >= 6  # 3 rounds of 2 bids at least

    mixed = play_level(makeenv.make(BIDDING, players=3), 2, 12, seed=3)  # one high, one low bidder
    assert mixed.wins == 0
    assert mixed.scores == [-1.0] * 12  # points 0, 3, 0: returns -1, 2, -1
    assert mixed.margins == [-3.0] * 12
    assert mixed.places == [2] * 12  # the low bidder's 0 ties the random seat's


def test_the_script_prints_the_command_the_cpu_and_one_row_per_level() -> None:
    lines: list[str] = []
    results = main([BIDDING, "--games", "6", "--levels", "0", "1", "--players", "2"], out=lines.append)
    assert [r.level for r in results] == [0, 1]
    assert lines[0].startswith("CPU: ")
    assert lines[1] == f"command: python benchmarks/bench_levels.py {BIDDING} --games 6 --levels 0 1 --players 2"
    rows = [line for line in lines if line.startswith("| Bidding |")]
    assert len(rows) == 2 and rows[1].startswith("| Bidding | 1 | 6 | 0.00% | 0 | -1.50 | -3.00 ± 0.00 | 2.00 |"), rows


@pytest.mark.parametrize("game", sorted(STATE_SCORES))
def test_a_state_reader_gives_the_winner_the_top_score(game: str) -> None:
    """The indices in STATE_SCORES point at scores: every winner of a few random games reads
    the top score from its own final state."""
    env = makeenv.make(game)
    checked = 0
    for seed in range(4):
        match = env.new_match(seed=seed)
        while not match.over:
            match.step_with(env.random_agent, np.zeros(1))
        if match.truncated or len(match.outcome.winners) == env.players:
            continue
        for winner in match.outcome.winners:
            scores = final_scores(env, match, winner)
            assert scores is not None and scores.shape == (env.players,)
            assert scores[0] == scores.max() > scores.min(), (game, seed, winner, scores.tolist())
        checked += 1
    assert checked >= 2, f"{game}: too few decided games to check the score reader"
