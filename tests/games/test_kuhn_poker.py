"""KuhnPoker: the contract, the rules replayed against OpenSpiel, hidden cards, the bots' policies
and strength (exact, through OpenSpiel), the drawings."""

from __future__ import annotations

import random

import numpy as np
import pytest

import makeenv
from makeenv.games import kuhn_poker
from makeenv.games.kuhn_poker import bots as B
from makeenv.games.kuhn_poker import draw as D
from makeenv.games.kuhn_poker import logic as L

from .poker_support import (
    check_drawing,
    hidden_cards_stay_hidden,
    openspiel_random_play,
)

pyspiel = pytest.importorskip("pyspiel")
from makeenv.games._poker import openspiel as O  # noqa: E402  (needs open_spiel)

GAME = pyspiel.load_game("kuhn_poker")
ENV = makeenv.make("KuhnPoker")
DATA = np.zeros(16)


def test_sizes():
    """The layout sizes (the contract itself: tests/games/test_every_game.py)."""
    assert (ENV.getActionSize(), ENV.getStateSize(), ENV.getAgentSize()) == (2, 20, 2)


def test_random_play_matches_openspiel():
    results = ENV.evaluate("random", 40_000, seed=2)
    first = results.by_seat[0]
    theirs = openspiel_random_play(GAME, 20_000, seed=2)
    # OpenSpiel, 10^6 hands: first player wins 0.5629, returns +0.1263 (sd 1.45), 2.2496 moves
    assert abs(first.wins / first.games - theirs["first_wins"]) < 0.025  # ~4.5 standard errors
    assert abs(first.total_return / first.games - theirs["first_return"]) < 0.08
    assert abs(results.mean_steps - theirs["moves"]) < 0.03
    assert abs(results.mean_steps - 2.2496) < 0.02 and results.draws == 0


def test_every_deal_is_equally_likely():
    deals = L.allDeals()
    assert len({tuple(d[L.E_CARD : L.E_CARD + 2]) for d in deals}) == 6
    counts = {}
    for _ in range(6000):
        env = L.initEnv()
        counts[(env[L.E_CARD], env[L.E_CARD + 1])] = counts.get((env[L.E_CARD], env[L.E_CARD + 1]), 0) + 1
    assert len(counts) == 6 and all(abs(c - 1000) < 150 for c in counts.values())  # ~4.9 sd


def test_the_opponent_card_stays_hidden_until_a_showdown():
    rng = random.Random(3)
    compared = 0
    for _ in range(300):
        env = L.initEnv()
        while True:
            compared += hidden_cards_stay_hidden(L, env, lambda e, p: [] if e[L.E_SHOWDOWN] else [L.E_CARD + 1 - p])
            if L.checkEnded(env) != -1:
                break
            L.stepEnv(rng.randrange(2), env)
    assert compared > 1000


def test_sample_env_deals_the_unseen_card_at_random():
    env = L.dealEnv(1, 2)  # I hold the Queen as player 0; the King is unseen
    L.stepEnv(L.PASS, env)
    L.stepEnv(L.BET, env)
    state = L.getAgentState(env)
    theirs = []
    for _ in range(2000):
        sampled = L.sampleEnv(state)
        np.testing.assert_array_equal(L.getPlayerState(sampled, 0), state)
        theirs.append(int(sampled[L.E_CARD + 1]))
    assert set(theirs) == {0, 2} and abs(theirs.count(2) - 1000) < 150


def test_level2_is_a_nash_equilibrium():
    """OpenSpiel's exploitability of the policy the level-2 bot plays (read from the bot's own
    probabilities at every information state) is 0; the first player's value is -1/18."""
    assert O.exploitability(kuhn_poker, lambda s: B.nash_policy(s, DATA)) < 1e-9
    nash = lambda s: B.nash_policy(s, DATA)  # noqa: E731
    from open_spiel.python.algorithms.expected_game_score import policy_value

    table = O.openspiel_policy(kuhn_poker, nash)
    assert policy_value(GAME.new_initial_state(), [table, table])[0] == pytest.approx(-1 / 18)


def test_levels_are_stronger_in_exact_chips():
    """Exact expected chips per hand (OpenSpiel's policy_value, both seats averaged)."""
    random_policy = O.uniform_policy(kuhn_poker)
    level1 = lambda s: B.card_strength_policy(s, DATA)  # noqa: E731
    level2 = lambda s: B.nash_policy(s, DATA)  # noqa: E731
    assert O.expected_return(kuhn_poker, level1, random_policy) == pytest.approx(1 / 3)
    assert O.expected_return(kuhn_poker, level2, level1) == pytest.approx(5 / 72)
    assert O.expected_return(kuhn_poker, level2, random_policy) == pytest.approx(5 / 36)
    assert O.exploitability(kuhn_poker, level1) == pytest.approx(1 / 6)


def test_bots_play_their_policies():
    """Sampled actions follow the probabilities the measurements read (Queen facing a bet late)."""
    env = L.dealEnv(1, 2)
    L.stepEnv(L.PASS, env)
    L.stepEnv(L.BET, env)
    state = L.getAgentState(env)
    expected = B.nash_policy(state, DATA)[L.BET]
    assert expected == pytest.approx(B.ALPHA + 1 / 3)
    bets = sum(B.nash(state, DATA)[0] for _ in range(20_000)) / 20_000
    assert abs(bets - expected) < 0.015  # ~4.3 sd
    assert {B.card_strength(state, DATA)[0] for _ in range(50)} == {L.BET}


@pytest.mark.slow
def test_levels_in_play():
    """The bots as the runner plays them: each level beats the one below, by the exact amounts."""
    vs_random = ENV.evaluate(ENV.bot(1), 100_000, DATA, level=0, seed=5)
    vs_level1 = ENV.evaluate(ENV.bot(2), 200_000, DATA, level=1, seed=5)
    assert abs(vs_random.mean_return - 1 / 3) < 0.025  # sd 1.4 per hand: ~5 standard errors
    assert abs(vs_level1.mean_return - 5 / 72) < 0.02


def test_drawings_along_random_hands():
    rng = random.Random(11)
    results = set()
    for _ in range(60):
        env = L.initEnv()
        while True:
            for seat in (0, 1):
                state = L.getPlayerState(env, seat)
                text = check_drawing(D, L, state)
                card = L.CARD_NAMES[int(env[L.E_CARD + seat])]
                assert f"Your card: {card}." in text
                if L.checkEnded(env) != -1:
                    results.add(text.splitlines()[-1].split(":")[0])
            if L.checkEnded(env) != -1:
                break
            L.stepEnv(rng.randrange(2), env)
    assert {"You won 1 chip", "You lost 1 chip", "You won 2 chips", "You lost 2 chips"} <= results
    env = L.dealEnv(0, 2)
    L.stepEnv(L.BET, env)
    svg = D.render(L.getAgentState(env))
    assert 'data-action="0"' in svg and ">Fold<" in svg and ">Call<" in svg
    assert D.describe_action(0).startswith("Pass") and D.describe_action(1).startswith("Bet")
    assert "Unknown" in D.describe_action(2)
    with pytest.raises(ValueError, match="length 20"):
        D.render(np.zeros(3))
