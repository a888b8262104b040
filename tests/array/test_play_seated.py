"""``play_seated``: games with the seats fixed, per-game outcomes, errors kept and play going on."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import makeenv
from makeenv.array.agents import Bot
from makeenv.array.runner import make_plan, play_seated


@njit
def raises_on_third_call(state, data):
    data[0] += 1
    if data[0] == 3:
        raise ValueError("third call")
    return -1, data


@pytest.fixture(scope="module")
def env():
    return makeenv.make("TicTacToe")


def test_fixed_seats_give_per_game_outcomes_reproducibly(env):
    plan = make_plan(env, env.bot(1), opponents=[Bot(env.random_agent, name="random")])
    seeds = np.arange(200)
    a = play_seated(plan, 0, np.array([-1, 0]), seeds, None)
    b = play_seated(plan, 0, np.array([-1, 0]), seeds, None)
    assert np.array_equal(a.winners, b.winners) and np.array_equal(a.lengths, b.lengths)
    assert not a.errors
    assert a.winners.shape == (200, 2) and a.winners.sum(axis=1).max() <= 1
    assert np.all((a.lengths >= 5) & (a.lengths <= 9))  # a TicTacToe game is 5 to 9 moves
    assert np.array_equal(a.returns, np.where(a.winners.sum(axis=1, keepdims=True) == 0, 0.0, 2 * a.winners - 1))
    # level 1 moving first wins far more than it loses against random
    assert a.winners[:, 0].sum() > 3 * a.winners[:, 1].sum()
    swapped = play_seated(plan, 1, np.array([0, -1]), seeds, None)
    assert not np.array_equal(swapped.winners, a.winners)


def test_an_error_is_kept_with_its_seat_and_the_next_games_go_on(env):
    plan = make_plan(env, raises_on_third_call, opponents=[Bot(env.random_agent, name="random")])
    out = play_seated(plan, 1, np.array([0, -1]), np.arange(5), np.zeros(1))
    assert sorted(out.errors) == [0, 1, 2, 3, 4]  # the agent answers -1 or raises: every game stops
    seat, error = out.errors[0]
    assert seat == 1 and "-1" in str(error)
    raised = [g for g, (_, e) in out.errors.items() if "third call" in str(e)]
    assert raised == [2]  # the third call raised, in the third game
    assert not out.winners.any() and not out.lengths.any()


def test_bad_seating_is_refused(env):
    plan = make_plan(env, env.bot(1), opponents=[Bot(env.random_agent, name="random")])
    with pytest.raises(ValueError, match=r"seat_slot must hold one slot per seat \(2\) and -1 at the agent's seat 0"):
        play_seated(plan, 0, np.array([0, -1]), np.arange(3), None)
