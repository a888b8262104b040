"""The statistics, proven on simulated entrants of known strength (numpy only, fast)."""

from __future__ import annotations

import numpy as np
import pytest

from makeenv.arena.ratings import Cell, fit, pattern_scores
from makeenv.arena.schedule import Sprt, expected_score, gauntlet, round_robin, seatings


def _two_player_cells(rng: np.random.Generator, true: np.ndarray, games: int, draw: float = 0.0) -> list[Cell]:
    names = [f"e{i}" for i in range(len(true))]
    cells = []
    for i in range(len(true)):
        for j in range(len(true)):
            if i != j:
                p = expected_score(true[i] - true[j])  # a draw takes its share evenly from both sides
                wins, drawn, losses = rng.multinomial(games, [p * (1 - draw), draw, (1 - p) * (1 - draw)])
                cells.append(Cell("sim", (names[i], names[j]), {"10": int(wins), "00": int(drawn), "01": int(losses)}))
    return cells


def test_the_fit_recovers_the_order_and_its_intervals_cover_the_truth_at_their_nominal_rate():
    rng = np.random.default_rng(7)
    true = np.linspace(-300, 300, 8)
    centred = true - true.mean()
    covered, total, errors = 0, 0, []
    for simulation in range(30):
        ratings = fit(_two_player_cells(rng, true, 20), bootstrap=120, seed=simulation)
        order = [ratings.names.index(f"e{i}") for i in range(len(true))]
        covered += int(((ratings.lower[order] <= centred) & (centred <= ratings.upper[order])).sum())
        total += len(true)
        errors.append(np.abs(ratings.elo[order] - centred).mean())
        assert np.corrcoef(ratings.elo[order], true)[0, 1] > 0.95
    coverage = covered / total
    assert 0.88 <= coverage <= 0.995, f"95% intervals covered the true ratings {coverage:.1%} of the time"
    assert np.mean(errors) < 45


def test_draws_count_as_half_wins():
    cells = [Cell("g", ("a", "b"), {"00": 100})]
    ratings = fit(cells, bootstrap=0)
    assert ratings.elo[0] == pytest.approx(0, abs=1e-6) and ratings.elo[1] == pytest.approx(0, abs=1e-6)
    assert ratings.win_rate[0, 1] == pytest.approx(0.5)
    uneven = fit([Cell("g", ("a", "b"), {"10": 30, "00": 40, "01": 30})], bootstrap=0)
    assert uneven.elo[0] == pytest.approx(0, abs=1e-6)


def test_multi_player_games_with_shared_places_recover_the_order():
    rng = np.random.default_rng(3)
    strength = np.array([0.0, 0.7, 1.4, 2.1])  # natural-log strengths; the winner drawn Plackett-Luce style
    names = ("a", "b", "c", "d")
    cells = []
    for table in round_robin(names, 3):
        for seats in seatings(table):
            index = [names.index(s) for s in seats]
            weights = np.exp(strength[index])
            counts: dict[str, int] = {}
            for _ in range(150):
                if rng.random() < 0.1:  # a shared first place between the two strongest
                    top = set(np.argsort(-weights)[:2])
                else:
                    top = {int(rng.choice(3, p=weights / weights.sum()))}
                mask = "".join("1" if k in top else "0" for k in range(3))
                counts[mask] = counts.get(mask, 0) + 1
            cells.append(Cell("ffa", seats, counts))
    ratings = fit(cells, bootstrap=50)
    assert [row["name"] for row in ratings.table()] == ["d", "c", "b", "a"]


def test_games_are_weighted_equally_across_games():
    many = [Cell("big", ("a", "b"), {"10": 900, "01": 100})]
    few = [Cell("small", ("a", "b"), {"10": 10, "01": 90})]
    ratings = fit(many + few, bootstrap=0)
    assert abs(ratings.elo[0] - ratings.elo[1]) < 40  # each game pulls as hard, whatever its game count


def test_a_broken_winners_mask_is_refused():
    with pytest.raises(ValueError, match="winners mask '1x'"):
        pattern_scores("1x")
    with pytest.raises(ValueError, match="has 3 seats, expected 2"):
        fit([Cell("g", ("a", "b"), {"100": 3})])
    with pytest.raises(ValueError, match="anchor 'z' is not an entrant"):
        fit([Cell("g", ("a", "b"), {"10": 3})], anchor="z")
    with pytest.raises(ValueError, match="no games to rate"):
        fit([])


def test_anchor_is_rated_zero():
    ratings = fit([Cell("g", ("a", "b"), {"10": 70, "01": 30})], anchor="b", bootstrap=20)
    assert ratings.elo[ratings.names.index("b")] == 0.0
    assert ratings.elo[ratings.names.index("a")] > 100


@pytest.mark.parametrize(("true_elo", "expected"), [(120.0, "H1"), (-60.0, "H0")])
def test_sprt_stops_with_the_right_answer(true_elo, expected):
    rng = np.random.default_rng(11)
    test = Sprt(elo0=0, elo1=50)
    while test.decision is None:
        test.add(float(rng.random() < expected_score(true_elo)))
    assert test.decision == expected
    assert test.games < 3000


def test_sprt_refuses_bad_bounds():
    with pytest.raises(ValueError, match="elo1 .* must be above elo0"):
        Sprt(elo0=10, elo1=5)
    with pytest.raises(ValueError, match="alpha must be between 0 and 0.5"):
        Sprt(alpha=0.7)


def test_schedules_balance_seats():
    assert round_robin(["a", "b", "c"]) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert gauntlet("c", ["a", "b", "c"]) == [("c", "a"), ("c", "b")]
    rotations = seatings(("a", "b", "c"))
    for seat in range(3):
        assert sorted(s[seat] for s in rotations) == ["a", "b", "c"]
