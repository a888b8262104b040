"""Goofspiel: the contract, the rules replayed against OpenSpiel, hidden bids, the bots' strength,
the drawings."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import makeenv
from makeenv.games.goofspiel import bots as B
from makeenv.games.goofspiel import draw as D
from makeenv.games.goofspiel import logic as L
from tests.games.support import clickable_actions

pyspiel = pytest.importorskip("pyspiel")

GAME = pyspiel.load_game("goofspiel")
ENV = makeenv.make("Goofspiel")


def test_sizes():
    """The layout sizes (the contract itself: tests/games/test_every_game.py)."""
    assert (ENV.getActionSize(), ENV.getStateSize(), ENV.players) == (13, 112, 2)
    assert ENV.simultaneous and set(ENV.private_actions) == set(range(13))


def test_openspiel_defaults_are_the_rules_here():
    params = GAME.get_parameters()
    assert (
        params["num_cards"],
        params["players"],
        params["points_order"],
        params["returns_type"],
        params["imp_info"],
    ) == (13, 2, "random", "win_loss", False)


# ---- the same games as OpenSpiel ----------------------------------------------------------------


def test_a_bid_stays_hidden_until_the_round_is_over():
    """Player 1's state is the same whatever player 0 bid this round; both bids show once it is over."""
    env = L.initEnv()
    for action in (4, 9, 0, 2):  # two rounds
        L.stepEnv(action, env)
    seen = set()
    for bid in np.flatnonzero(L.getValidActions(L.getAgentState(env))):
        trial = L.stepEnv(int(bid), env.copy())
        seen.add(L.getAgentState(trial).tobytes())
        assert L.getPlayerState(trial, 0)[L.S_MY_BID + bid] == 1.0  # the bidder sees its own bid
        after = L.getPlayerState(L.stepEnv(5, trial), 1)
        assert after[L.S_HISTORY + 3 * 2 + 2] == bid + 1  # ... and player 1 sees it once the round is over
    assert len(seen) == 1


def openspiel_random_outcomes(games: int, seed: int) -> np.ndarray:
    """Shares of (player 0 wins, player 1 wins, draws) in OpenSpiel's random play."""
    rng = random.Random(seed)
    counts = np.zeros(3)
    for _ in range(games):
        state = GAME.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
            else:
                state.apply_actions([rng.choice(state.legal_actions(0)), rng.choice(state.legal_actions(1))])
        returns = state.returns()
        counts[0 if returns[0] > 0 else 1 if returns[1] > 0 else 2] += 1
    return counts / games


def test_random_play_matches_openspiel():
    """Uniform random play: the same outcome shares as OpenSpiel (measured here) and 24 moves a game."""
    results = ENV.evaluate("random", 20_000, seed=1)
    first = results.by_seat[0]
    ours = np.array([first.wins, first.losses, first.draws]) / first.games
    theirs = openspiel_random_outcomes(6_000, seed=1)
    # about 5 standard errors of the difference of the two samples (0.007 + 0.0065)
    np.testing.assert_allclose(ours, theirs, atol=0.05)
    np.testing.assert_allclose(ours, [0.4922, 0.4937, 0.0141], atol=0.03)  # OpenSpiel, 100,000 games
    assert results.mean_steps == 24.0


# ---- sampling the hidden parts -------------------------------------------------------------------


def test_sample_env_shuffles_the_face_down_prizes_and_the_hidden_bid():
    env = L.initEnv()
    for action in (4, 9, 7):  # a round, then player 0 bids 8; player 1 to move
        L.stepEnv(action, env)
    state = L.getAgentState(env)
    next_prizes, hidden_bids = set(), set()
    for _ in range(400):
        world = L.sampleEnv(state)
        assert L.getCurrentPlayer(world) == 1
        np.testing.assert_array_equal(world[L.E_PRIZES : L.E_PRIZES + 2], env[L.E_PRIZES : L.E_PRIZES + 2])
        next_prizes.add(world[L.E_PRIZES + 2])
        hidden_bids.add(world[L.E_BIDS])
    face_down = {k for k in range(13) if state[L.S_DECK + k] == 1.0}
    their_cards = {k for k in range(13) if state[L.S_THEIR_HAND + k] == 1.0}
    assert next_prizes == face_down and hidden_bids == their_cards


# ---- the bots -----------------------------------------------------------------------------------


def test_level1_matches_the_prize_rank():
    env = L.initEnv()
    env[L.E_PRIZES : L.E_PRIZES + 13] = [6, 0, 12, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11]
    assert B.rank_matcher(L.getAgentState(env), np.zeros(1))[0] == 6  # full hand: the prize's own card
    L.stepEnv(2, env)
    L.stepEnv(6, env)  # player 1 spends its 7 on the 7
    assert B.rank_matcher(L.getAgentState(env), np.zeros(1))[0] == 0  # the lowest prize left: its lowest card
    L.stepEnv(0, env)
    assert B.rank_matcher(L.getAgentState(env), np.zeros(1))[0] == 0


def test_the_opponent_model_reads_its_bids():
    """The chance levels 2 and 3 give to their opponent following level 1's rule rises with each
    bid that follows it, and drops at one that does not."""

    def play_round(env, follow: bool) -> None:
        L.stepEnv(int(np.flatnonzero(L.getValidActions(L.getAgentState(env)))[0]), env)
        state = L.getAgentState(env)
        rule = B.rank_match_state(state)
        other = next(k for k in range(13) if k != rule and state[L.S_HAND + k] == 1.0)
        L.stepEnv(rule if follow else other, env)

    env = L.initEnv()
    shares = [B.follows_rule_share(L.getPlayerState(env, 0))]
    for _ in range(3):
        play_round(env, follow=True)
        shares.append(B.follows_rule_share(L.getPlayerState(env, 0)))
    assert shares[0] == B.RULE_PRIOR and shares[0] < shares[1] < shares[2] < shares[3] and shares[3] > 0.99
    env = L.initEnv()
    play_round(env, follow=False)
    assert B.follows_rule_share(L.getPlayerState(env, 0)) < 0.05


def test_level1_beats_random():
    results = ENV.evaluate("random", 2_000, None, 1, seed=3)
    assert results.win_rate < 0.06  # measured: random wins 2.6% against level 1


@pytest.mark.slow
def test_level3_beats_level1_and_random():
    against_level1 = ENV.evaluate(ENV.bot(3), 200, np.zeros(16), 1, seed=4)
    assert against_level1.win_rate > 0.95  # measured: 100% (2,000 games)
    against_random = ENV.evaluate(ENV.bot(3), 400, np.zeros(16), 0, seed=4)
    assert against_random.win_rate > 0.92  # measured: 96.2%; level 1 wins 96.5%


def test_level3_takes_a_budget_of_deals():
    env = L.initEnv()
    state = L.getAgentState(env)
    for deals in (1.0, 2.0, 0.0):  # 0: the default, SAMPLES deals
        assert state[L.S_HAND + B.rollout_searcher(state, np.array([deals]))[0]] == 1.0


def random_states(games: int, seed: int):
    """The states of the player to move along games in which both players bid by level 1's rule
    or at random (a coin flip for each bid), so the opponent model meets both."""
    rng = np.random.default_rng(seed)
    for _ in range(games):
        env = L.initEnv()
        while L.checkEnded(env) == -1:
            state = L.getAgentState(env)
            yield state
            cards = np.flatnonzero(L.getValidActions(state))
            L.stepEnv(B.rank_match_state(state) if rng.random() < 0.5 else int(rng.choice(cards)), env)


def test_the_learned_level_loads_and_scores_its_features():
    """Level 2 bids the card whose features (``hand_features``) its weights score highest, each
    card's ending margin is ``rule_ending``'s, and it reads nothing but its own state."""
    assert list(ENV.levels) == [0, 1, 2, 3]
    bot = ENV.opponents(2)[0]
    assert bot.policy is B.learned and bot.data.size == B.NUM_FEATURES + B.SCRATCH
    weights = bot.data[: B.NUM_FEATURES]
    scratch = np.zeros(B.SCRATCH)
    for state in random_states(40, seed=5):
        held = B.hand_features(state, scratch)
        cards = scratch[B.MY_CARDS : B.MY_CARDS + held].astype(int)
        assert cards.tolist() == np.flatnonzero(state[L.S_HAND : L.S_HAND + 13]).tolist()
        rows = scratch[: held * B.NUM_FEATURES].reshape(held, B.NUM_FEATURES).copy()
        prize = int(np.argmax(state[L.S_PRIZE : L.S_PRIZE + 13]))
        prize_rank = int(state[L.S_DECK : L.S_DECK + prize].sum())  # among the prizes left
        predicted = B.card_of_rank(state, L.S_THEIR_HAND, prize_rank)  # level 1's rule's bid for it
        share = B.follows_rule_share(state)
        for card, row in zip(cards, rows, strict=True):
            assert row[3] == pytest.approx(share * B.rule_ending(state, card, predicted) / 10.0, abs=1e-9)
        action = B.learned(state, bot.initial_data())[0]
        assert L.getValidActions(state)[action] == 1.0
        scores = rows @ weights
        assert scores[list(cards).index(action)] == pytest.approx(scores.max(), abs=1e-9)
        if state[L.S_MY_TURN] == 1.0:  # the same view of another deal: the same bid
            same = L.getAgentState(L.sampleEnv(state))
            np.testing.assert_array_equal(same, state)
            assert B.learned(same, bot.initial_data())[0] == action


def test_the_learned_level_beats_level1_and_random():
    bot = ENV.opponents(2)[0]
    against_level1 = ENV.evaluate(bot.policy, 400, bot.initial_data(), 1, seed=4)
    assert against_level1.win_rate > 0.97  # measured: 100% (4,000 games, README)
    against_random = ENV.evaluate(bot.policy, 2_000, bot.initial_data(), 0, seed=4)
    # measured: 95.8% (4,000 games; a standard error of 0.3 points); level 1 wins 96.5%
    assert against_random.win_rate > 0.93
    assert ENV.evaluate("random", 2_000, None, 2, seed=4).win_rate < 0.06  # measured: 3.75% (4,000)


# ---- drawing and words -------------------------------------------------------------------------


def test_render_and_descriptions_along_random_games():
    rng = random.Random(9)
    for _ in range(12):
        env = L.initEnv()
        while True:
            for seat in (0, 1):
                state = L.getPlayerState(env, seat)
                svg = ET.fromstring(D.render(state))
                clickable = clickable_actions(svg)
                expected = list(np.flatnonzero(L.getValidActions(state))) if state[L.S_MY_TURN] else []
                assert clickable == expected
                text = D.describe_state(state)
                assert ("Your turn" in text) == bool(state[L.S_MY_TURN])
                if L.checkEnded(env) == -1:
                    hand = " ".join(str(k + 1) for k in range(13) if state[L.S_HAND + k] == 1.0)
                    assert f"Your hand: {hand}." in text
                    assert f"the prize is {int(np.argmax(state[L.S_PRIZE : L.S_PRIZE + 13])) + 1}." in text
            if L.checkEnded(env) != -1:
                text = D.describe_state(L.getPlayerState(env, 0))
                assert "The game is over" in text and ("You won" in text) == (L.checkEnded(env) == 0)
                break
            L.stepEnv(rng.choice(list(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
    assert [D.describe_action(a) for a in (0, 12)] == ["Bid card 1", "Bid card 13"]
    assert "Unknown" in D.describe_action(13)
    with pytest.raises(ValueError, match="length 112"):
        D.render(np.zeros(5))
