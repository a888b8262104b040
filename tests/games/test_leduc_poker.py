"""LeducPoker: the contract, the rules replayed against OpenSpiel, hidden cards, the level-2 CFR
policy (its exploitability through OpenSpiel, the script that makes it), strength, drawings."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import makeenv
from makeenv.games import leduc_poker
from makeenv.games._poker.cfr import CFRSolver
from makeenv.games.leduc_poker import bots as B
from makeenv.games.leduc_poker import draw as D
from makeenv.games.leduc_poker import logic as L
from makeenv.games.leduc_poker import make_policy

from .poker_support import (
    check_drawing,
    hidden_cards_stay_hidden,
    openspiel_random_play,
)

pyspiel = pytest.importorskip("pyspiel")
from makeenv.games._poker import openspiel as O  # noqa: E402  (needs open_spiel)

GAME = pyspiel.load_game("leduc_poker")
ENV = makeenv.make("LeducPoker")
TABLE = B.load_policy()
DATA = np.zeros(16)


def test_sizes():
    """The layout sizes (the contract itself: tests/games/test_every_game.py)."""
    assert (ENV.getActionSize(), ENV.getStateSize(), ENV.getAgentSize()) == (3, 51, 2)


def test_random_play_matches_openspiel():
    results = ENV.evaluate("random", 40_000, seed=2)
    first = results.by_seat[0]
    theirs = openspiel_random_play(GAME, 10_000, seed=2)
    # OpenSpiel, 10^6 hands: first player wins 0.4953, split 0.0782, returns -0.077 (sd 4.51), 4.062 moves
    assert abs(first.wins / first.games - theirs["first_wins"]) < 0.03  # ~4.5 standard errors
    assert abs(first.total_return / first.games - theirs["first_return"]) < 0.25
    assert abs(results.mean_steps - theirs["moves"]) < 0.06
    assert abs(results.draws / results.games - 0.0782) < 0.008  # split pots
    assert abs(results.mean_steps - 4.062) < 0.04


def test_every_deal_is_equally_likely():
    assert len({tuple(d[L.E_CARD : L.E_PUBLIC + 1]) for d in L.allDeals()}) == 120
    counts = np.zeros((6, 6, 6))
    for _ in range(24_000):
        env = L.initEnv()
        counts[int(env[L.E_CARD]), int(env[L.E_CARD + 1]), int(env[L.E_PUBLIC])] += 1
    dealt = counts[counts > 0]
    assert len(dealt) == 120 and np.all(np.abs(dealt - 200) < 75)  # ~5.3 sd


def test_hidden_cards_stay_hidden():
    """Neither the opponent's card (before a showdown) nor the public card (in round 1) changes a state."""
    rng = random.Random(3)

    def hidden(env, player):
        indices = [] if env[L.E_SHOWDOWN] else [L.E_CARD + 1 - player]
        return indices + ([L.E_PUBLIC] if env[L.E_ROUND] == 0 else [])

    compared = 0
    for _ in range(300):
        env = L.initEnv()
        while True:
            compared += hidden_cards_stay_hidden(L, env, hidden)
            if L.checkEnded(env) != -1:
                break
            L.stepEnv(int(rng.choice(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
    assert compared > 3000


def test_sample_env_deals_unseen_cards_at_random():
    env = L.dealEnv(4, 0, 2)  # player 0 holds K♠; J♠ and the public Q♠ are unseen
    L.stepEnv(L.RAISE, env)
    L.stepEnv(L.RAISE, env)
    state = L.getPlayerState(env, 0)
    cards = []
    for _ in range(3000):
        sampled = L.sampleEnv(state)
        np.testing.assert_array_equal(L.getPlayerState(sampled, 0), state)
        cards.append((int(sampled[L.E_CARD + 1]), int(sampled[L.E_PUBLIC])))
    assert len(set(cards)) == 20 and all(card != 4 and public != 4 for card, public in cards)
    L.stepEnv(L.CALL, env)  # round 2: the public card is known, only the opponent's card is drawn
    state = L.getPlayerState(env, 1)
    drawn = {int(L.sampleEnv(state)[L.E_CARD]) for _ in range(300)}
    assert drawn == {1, 3, 4, 5}


def test_level2_table_is_nearly_unexploitable():
    """OpenSpiel's exploitability of the policy the level-2 bot plays, read at every information
    state from the bot's own probabilities (measured: 0.00026 chips per hand)."""
    assert O.exploitability(leduc_poker, lambda s: B.cfr_policy(s, TABLE)) < 0.05
    assert O.exploitability(leduc_poker, lambda s: B.hand_strength_policy(s, DATA)) == pytest.approx(0.96667, abs=1e-5)


def test_levels_are_stronger_in_exact_chips():
    """Exact expected chips per hand (OpenSpiel's policy_value, both seats averaged)."""
    level1 = lambda s: B.hand_strength_policy(s, DATA)  # noqa: E731
    level2 = lambda s: B.cfr_policy(s, TABLE)  # noqa: E731
    assert O.expected_return(leduc_poker, level1, O.uniform_policy(leduc_poker)) == pytest.approx(0.66111, abs=1e-5)
    assert O.expected_return(leduc_poker, level2, level1) > 0.06  # measured: 0.0819 with the shipped table


def test_policy_script_rebuilds_the_table(tmp_path):
    """make_policy writes each information set's CFR+ average strategy at the row the bot reads;
    the shipped file records what made it."""
    out = tmp_path / "policy.json"
    make_policy.main(["--iterations", "3", "--output", str(out)])
    table = B.load_policy(out)
    solver = CFRSolver(leduc_poker)
    solver.run(3)
    states, probs = solver.information_sets()
    assert len(states) == 936
    for state, p in zip(states[::37], probs[::37]):
        np.testing.assert_allclose(B.cfr_policy(state, table), p, atol=2e-6)
    record = json.loads(B.POLICY_FILE.read_text())
    assert record["iterations"] >= 100 and record["openspiel_exploitability"] < 0.05
    assert record["command"].startswith("python -m makeenv.games.leduc_poker.make_policy")


def test_bots_play_their_policies():
    env = L.dealEnv(2, 5, 0)  # player 0 holds a Queen, player 1 raises into it
    L.stepEnv(L.CALL, env)
    L.stepEnv(L.RAISE, env)
    state = L.getAgentState(env)
    probs = B.cfr_policy(state, TABLE)
    picks = np.bincount([B.cfr(state, TABLE)[0] for _ in range(20_000)], minlength=3) / 20_000
    np.testing.assert_allclose(picks, probs, atol=0.015)
    assert B.hand_strength(state, DATA)[0] == L.CALL
    assert B.hand_strength(L.getAgentState(L.dealEnv(4, 0, 2)), DATA)[0] == L.RAISE
    np.testing.assert_allclose(B.cfr_policy(state, np.zeros(3)), [1 / 3] * 3)  # a row the table lacks
    L.stepEnv(L.FOLD, env)
    # once the hand is over, action 0 alone is offered (the final turn; its answer is ignored)
    np.testing.assert_array_equal(B.cfr_policy(L.getPlayerState(env, 0), TABLE), [1.0, 0.0, 0.0])


@pytest.mark.slow
def test_levels_in_play():
    """The bots as the runner plays them: each level beats the one below."""
    vs_random = ENV.evaluate(ENV.bot(1), 100_000, DATA, level=0, seed=5)
    level2 = ENV.opponents(2)[0]
    vs_level1 = ENV.evaluate(level2.policy, 100_000, level2.initial_data(), level=1, seed=5)
    assert abs(vs_random.mean_return - 0.6611) < 0.06  # exact value; sd about 4 chips per hand
    assert abs(vs_level1.mean_return - 0.0819) < 0.06


def test_drawings_along_random_hands():
    rng = random.Random(11)
    endings = set()
    for _ in range(60):
        env = L.initEnv()
        while True:
            for seat in (0, 1):
                state = L.getPlayerState(env, seat)
                text = check_drawing(D, L, state)
                assert f"Your card: {D.card_name(int(env[L.E_CARD + seat]))}." in text
                assert ("Public card: face down" in text) == (env[L.E_ROUND] == 0)
                if L.checkEnded(env) != -1:
                    endings.add(text.splitlines()[-1].split(" ")[1])
            if L.checkEnded(env) != -1:
                break
            L.stepEnv(int(rng.choice(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
    assert {"won", "lost", "pot:"} <= endings
    env = L.dealEnv(0, 3, 5)
    L.stepEnv(L.RAISE, env)
    svg = D.render(L.getAgentState(env))
    assert ">Fold<" in svg and ">Call<" in svg and ">Raise 2<" in svg
    assert D.describe_action(2).startswith("Raise") and "Unknown" in D.describe_action(3)
    with pytest.raises(ValueError, match="length 51"):
        D.render(np.zeros(3))
