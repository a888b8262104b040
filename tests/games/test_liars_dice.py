"""LiarsDice: the contract, the rules replayed against OpenSpiel, the bots' strength, the drawings."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from numba import njit

import makeenv
from makeenv.games.liars_dice import bots as B
from makeenv.games.liars_dice import draw as D
from makeenv.games.liars_dice import logic as L
from tests.games.support import clickable_actions

pyspiel = pytest.importorskip("pyspiel")

ENV = makeenv.make("LiarsDice")


def test_sizes():
    """The layout sizes (the contract itself: tests/games/test_every_game.py)."""
    assert (ENV.getActionSize(), ENV.getStateSize(), ENV.players) == (61, 80, 2)


@pytest.mark.slow
def test_check_env_passes_with_five_dice():
    ok, problems = makeenv.check_env(makeenv.make("LiarsDice", dice=5))
    assert ok, problems


def test_dice_option():
    env = makeenv.make("LiarsDice", dice=3)
    assert env.players == 2 and env.getActionSize() == 61 and env.getStateSize() == 80
    state = env.getAgentState(env.initEnv())  # the env object's initEnv deals the chosen dice
    assert state[L.S_MY_DICE : L.S_MY_DICE + 6].sum() == 3 and state[L.S_DICE_COUNT] == 3
    assert list(np.flatnonzero(env.getValidActions(state))) == list(range(36))  # 1x1 .. 6x6, no Liar yet
    with pytest.raises(ValueError, match="dice"):
        makeenv.make("LiarsDice", dice=6)


# ---- the same games as OpenSpiel ----------------------------------------------------------------


def openspiel_random_outcomes(dice: int, games: int, seed: int) -> tuple[float, float]:
    """Share of games player 0 wins and the mean number of moves, in OpenSpiel's random play."""
    game = pyspiel.load_game("liars_dice", {"numdice": dice})
    rng = random.Random(seed)
    wins = moves = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.randrange(6))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
        wins += state.returns()[0] > 0
    return wins / games, moves / games


def test_random_play_matches_openspiel():
    """Uniform random play: player 0's share of wins and the game length are OpenSpiel's (measured here)."""
    results = ENV.evaluate("random", 40_000, seed=2)
    first = results.by_seat[0]
    theirs, their_length = openspiel_random_outcomes(1, 20_000, seed=2)
    # about 5 standard errors of the difference of the two samples (0.005 + 0.0035)
    assert abs(first.wins / first.games - theirs) < 0.03
    assert abs(first.wins / first.games - 0.4835) < 0.025  # OpenSpiel, 200,000 games
    assert abs(results.mean_steps - their_length) < 0.06  # 3.36 moves


# ---- sampling the unseen dice --------------------------------------------------------------------


def test_sample_env_deals_the_unseen_dice_at_random():
    env = L.initEnv(2)
    for action in (3, 9):  # player 0 bids 1x4, player 1 bids 2x4; player 0 to move
        L.stepEnv(action, env)
    state = L.getAgentState(env)
    counts = np.zeros(6)
    for _ in range(6000):
        world = L.sampleEnv(state)
        assert L.getCurrentPlayer(world) == 0
        np.testing.assert_array_equal(world[L.E_DICE : L.E_DICE + 2], env[L.E_DICE : L.E_DICE + 2])  # mine kept
        np.testing.assert_array_equal(world[L.E_MADE_BY :], env[L.E_MADE_BY :])
        for face in world[L.E_DICE + L.MAX_DICE : L.E_DICE + L.MAX_DICE + 2]:
            counts[int(face) - 1] += 1
    assert np.all(np.abs(counts / counts.sum() - 1 / 6) < 0.02)  # uniform faces (sd 0.003)


# ---- the bots -----------------------------------------------------------------------------------


def test_level1_reasons_from_its_own_dice():
    env = L.initEnv(1)
    env[L.E_DICE], env[L.E_DICE + L.MAX_DICE] = 4, 2  # player 0 holds a 4
    assert B.odds_move(L.getAgentState(env)) == 3  # bids "at least one 4": sure to be true
    L.stepEnv(11, env)  # player 0 bids 2x6: true only if player 1 also holds a six
    assert B.odds_move(L.getAgentState(env)) == L.LIAR  # player 1 (a 2) calls it


def test_levels_beat_random():
    level1 = ENV.evaluate("random", 4_000, None, 1, seed=3)
    assert level1.win_rate < 0.2  # measured: random wins 15.1% against level 1 (20,000 games)
    level2 = ENV.evaluate("random", 4_000, None, 2, seed=3)
    assert level2.win_rate < 0.16  # measured: 12.1% (20,000 games); standard error here 0.5%


def test_level2_is_the_learned_scorer():
    level2 = ENV.opponents(2)[0]
    assert level2.policy is B.learned and B.LEVELS[3] is B.rollout_searcher
    assert level2.initial_data().shape == (B.LEARNED_DATA_SIZE,)
    with np.load(B.WEIGHTS_FILE, allow_pickle=False) as archive:
        assert archive["w"].shape == (B.NUM_WEIGHTS,)


def _random_states(dice: int, games: int, seed: int) -> list[np.ndarray]:
    """The states of the player to move along games of level 1 mixed with random moves."""
    rng = random.Random(seed)
    states = []
    for _ in range(games):
        env = L.initEnv(dice)
        while L.checkEnded(env) == -1:
            state = L.getAgentState(env)
            states.append(state)
            valid = list(np.flatnonzero(L.getValidActions(state)))
            L.stepEnv(B.odds_move(state) if rng.random() < 0.5 else rng.choice(valid), env)
    return states


def test_level2_scores_the_candidates_as_trained():
    """Level 2 plays the candidate whose training row (``decision_rows``) scores highest, for one
    die and for more (their own weights); with level 1's choice alone weighted it is level 1."""
    data = ENV.opponents(2)[0].initial_data()
    rule_only = np.zeros(B.NUM_WEIGHTS)
    rule_only[[B.F_RULE, B.NUM_FEATURES + B.F_RULE]] = 1.0
    rule_data = B.learned_data(rule_only)
    for dice in (1, 2, 3):
        weights = data[: B.NUM_FEATURES] if dice == 1 else data[B.NUM_FEATURES : B.NUM_WEIGHTS]
        for state in _random_states(dice, 300, seed=dice):
            actions, rows = B.decision_rows(state, data.copy())
            move = B.learned_action(state, data)
            scores = rows @ weights  # (a matrix product may round differently in the last bit)
            assert scores[list(actions).index(move)] >= scores.max() - 1e-9
            assert L.isValidAction(state, move)
            assert B.learned_action(state, rule_data) == B.odds_move(state)


def test_level2_beats_level1():
    learned = ENV.opponents(2)[0]
    one_die = ENV.evaluate(learned.policy, 4_000, learned.initial_data(), 1, seed=4)
    assert one_die.win_rate > 0.65  # measured: 71.0% (20,000 games); standard error here 0.7%
    env2 = makeenv.make("LiarsDice", dice=2)
    two_dice = env2.evaluate(learned.policy, 2_000, learned.initial_data(), 1, seed=4)
    assert two_dice.win_rate > 0.64  # measured: 71.3% (10,000 games); standard error here 1.0%


@njit(cache=True)
def _seeded_search(state, samples, data, seed):
    np.random.seed(seed)
    planned = B.search_move(state, samples)
    np.random.seed(seed)
    return planned, B.rollout_searcher(state, data)[0]


def test_level3_budget_option():
    """``data[0]`` (when 1 or more) is level 3's number of deals a move; 0 is SAMPLES (48)."""
    for state in _random_states(1, 40, seed=5)[:60]:
        if not state[L.S_BID]:
            continue
        for samples, data0 in ((3, 3.0), (B.SAMPLES, 0.0)):
            planned, played = _seeded_search(state, samples, np.array([data0] + [0.0] * 15), 11)
            assert planned == played


@pytest.mark.slow
def test_level3_beats_level1_and_level2():
    against_level1 = ENV.evaluate(ENV.bot(3), 1_000, np.zeros(16), 1, seed=4)
    assert against_level1.win_rate > 0.6  # measured: 68.7% (20,000 games; standard error here 1.5%)
    against_random = ENV.evaluate(ENV.bot(3), 1_000, np.zeros(16), 0, seed=4)
    assert against_random.win_rate > 0.83  # measured: 87.1%; level 1 wins 85.2%
    learned = ENV.opponents(2)[0]
    against_level3 = ENV.evaluate(learned.policy, 1_000, learned.initial_data(), 3, seed=4)
    assert 0.42 < against_level3.win_rate < 0.56  # measured: 48.5% (20,000 games; standard error here 1.6%)


# ---- drawing and words -------------------------------------------------------------------------


def test_render_and_descriptions_along_random_games():
    rng = random.Random(9)
    for dice in (1, 3):
        for _ in range(25):
            env = L.initEnv(dice)
            while True:
                for seat in (0, 1):
                    state = L.getPlayerState(env, seat)
                    svg = ET.fromstring(D.render(state))
                    clickable = clickable_actions(svg)
                    expected = list(np.flatnonzero(L.getValidActions(state))) if state[L.S_MY_TURN] else []
                    assert clickable == expected
                    text = D.describe_state(state)
                    faces = " ".join(str(f) for f in range(1, 7) for _ in range(int(state[L.S_MY_DICE + f - 1])))
                    assert f"Your dice: {faces}." in text
                    assert ("Your turn" in text) == bool(state[L.S_MY_TURN])
                    assert ("opponent's dice:" in text) == (L.checkEnded(env) != -1)
                if L.checkEnded(env) != -1:
                    text = D.describe_state(L.getPlayerState(env, 0))
                    assert ("you won" in text) == (L.checkEnded(env) == 0)
                    break
                L.stepEnv(rng.choice(list(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
    assert D.describe_action(9) == "Bid: at least 2 dice show 4"
    assert D.describe_action(0) == "Bid: at least 1 die shows 1"
    assert D.describe_action(L.LIAR) == "Call Liar"
    assert len({D.describe_action(a) for a in range(61)}) == 61
    with pytest.raises(ValueError, match="length 80"):
        D.render(np.zeros(5))
