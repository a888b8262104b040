"""Contract v2: parameters, outcomes (shared wins, returns, turn limit), opponents, Bot data, the
seed's idiom, the referee's Match, Results per seat and runs in several processes."""

from __future__ import annotations

import os

import numpy as np
import pytest
from numba import njit

import makeenv
from makeenv.array import Bot, InvalidActionError, Results
from makeenv.array.check import check_env
from makeenv.array.runner import make_plan

from . import agents_for_tests as A
from . import bidding_game as B

BIDDING = os.path.join(os.path.dirname(__file__), "bidding_game.py")
RPS = makeenv.make("RockPaperScissors")


# ---- the seed's idiom: the game's functions called through the env inside @njit ---------------


@njit(cache=True)
def seed_style_agent(state, agent_data):
    va = RPS.getValidActions(state)
    for a in range(va.shape[0]):
        if va[a] == 1.0:
            agent_data[0] += 1.0
            return a, agent_data
    return 0, agent_data


def test_seed_idiom_env_functions_inside_njit():
    wins, data = RPS.run(seed_style_agent, 2000, np.zeros(1), 1, seed=3)
    assert 0 < wins < 2000 and data[0] > 2000  # it moved, in every game
    assert isinstance(RPS, type(os))  # a module object, as numba needs


# ---- parameters -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_player_count_is_a_validated_parameter_and_each_count_passes_check(players):
    env = makeenv.make(BIDDING, players=players)
    assert env.players == players and env.getAgentSize() == players
    assert env.parameters == {"players": players} and env.initEnv()[B.E_PLAYERS] == players
    ok, problems = check_env(env, run_games=60, trace_games=20)
    assert ok, problems


def test_one_compiled_loop_serves_every_player_count():
    """The player count is a run-time argument: the loops compiled for 2 players (and their
    opponents' data tuple) play 3 and 4 players without compiling again."""
    plans = []
    for players in (2, 3, 4):
        env = makeenv.make(BIDDING, players=players)
        assert env.evaluate("random", 5, level=2, seed=players).games == 5
        plans.append(make_plan(env, "random", level=2))
    assert plans[0].module is plans[1].module is plans[2].module
    assert len(plans[0].module.n_games.signatures) == 1
    assert plans[0].env.initEnv is makeenv.make(BIDDING, players=2).initEnv  # initEnv(players) bound once


def test_default_and_bad_parameters():
    assert makeenv.make(BIDDING).players == B.DEFAULTS["players"]
    with pytest.raises(ValueError, match=r"players=7 is not supported; choose one of 2, 3, 4"):
        makeenv.make(BIDDING, players=7)
    with pytest.raises(TypeError, match=r"unknown option\(s\) dice; this game's options: players"):
        makeenv.make(BIDDING, dice=2)


# ---- outcomes ---------------------------------------------------------------------------------------


def test_results_count_shared_wins_draws_losses_and_returns_per_seat():
    env = makeenv.make(BIDDING, players=4)
    results = env.evaluate("random", 6000, None, 0, seed=11)
    assert isinstance(results, Results)
    assert results.games == 6000 == results.wins + results.draws + results.losses
    assert results.shared_wins > 0 and results.shared_wins <= results.wins  # ties for first place
    assert 0 < results.truncated <= results.draws  # TURN_LIMIT draws
    assert sum(seat.games for seat in results.by_seat) == 6000
    assert all(1200 < seat.games < 1800 for seat in results.by_seat)  # seats shuffled
    assert abs(results.mean_return) < 0.1  # points - mean
    assert 4 < results.mean_steps <= B.TURN_LIMIT
    wins, _ = env.run("random", 6000, None, 0, seed=11)
    assert wins == results.wins  # run == evaluate


def test_match_outcome_and_invalid_action_message():
    env = makeenv.make(BIDDING, players=2)
    match = env.new_match(seed=4)
    assert match.current_player == 0 and match.valid_action_ids() == [0, 1, 2, 3]
    with pytest.raises(InvalidActionError, match=r"player 0 chose action 5 at step 1, which is out of range"):
        match.step(5)
    twin = match.copy()
    while not match.over:
        match.step(3 if match.current_player == 0 else 1)
    assert match.outcome.winners == (0,) and match.outcome.results == ("win", "loss")
    assert match.outcome.returns == (1.5, -1.5) and not match.outcome.truncated
    assert twin.steps == 0 and not twin.over  # copies are independent
    while not twin.over:
        twin.step(2)  # equal bids: nobody scores
    assert twin.truncated and twin.outcome.results == ("draw", "draw") and twin.steps == B.TURN_LIMIT


# ---- opponents and bot data -------------------------------------------------------------------------


def test_level_seats_different_bots_and_each_keeps_its_data(tmp_path):
    env = makeenv.make(BIDDING, players=3)
    assert [bot.label for bot in env.opponents(2)] == ["high_bidder", "low_bidder"]
    weights = tmp_path / "weights.npy"
    np.save(weights, np.array([100.0, 7.0]))
    bot = Bot(B.low_bidder, data=np.load(weights))
    results = env.evaluate(A.python_random, 50, None, opponents=[B.high_bidder, bot], seed=2)
    assert results.games == 50
    assert bot.data[0] == 100.0  # the Bot's own array is never changed: seats copy it


def test_self_play_against_your_own_numba_agents():
    env = makeenv.make(BIDDING, players=2)
    strong = env.evaluate(B.high_bidder, 400, np.zeros(2), opponents=[B.low_bidder], seed=1)
    assert strong.wins == 400  # a bid of 3 always beats a bid of 1
    mirror = env.evaluate(B.high_bidder, 10, np.zeros(2), opponents=[Bot(B.high_bidder)], seed=1)
    assert mirror.truncated == 10  # equal bids forever: the turn limit ends it


def test_opponents_must_be_agents():
    with pytest.raises(TypeError, match="opponent 1 must be a function"):
        RPS.run("random", 10, None, opponents=[42])


# ---- several processes ----------------------------------------------------------------------------


def test_workers_are_reproducible_for_a_seed_and_count():
    first = RPS.evaluate("random", 40_000, None, 1, seed=9, workers=2)
    again = RPS.evaluate("random", 40_000, None, 1, seed=9, workers=2)
    assert first.games == 40_000 and first.wins == again.wins and first.by_seat == again.by_seat
    single = RPS.evaluate("random", 40_000, None, 1, seed=9)
    assert abs(single.win_rate - first.win_rate) < 0.03


def test_workers_report_progress_and_errors():
    calls = []
    RPS.run("random", 30_000, None, 0, seed=1, workers=2, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1] == (30_000, 30_000)
    with pytest.raises(InvalidActionError, match="chose action 7"):
        RPS.run(A.numba_always_7, 1000, np.zeros(1), 0, seed=1, workers=2)
