"""Sheriff: inspections (honest and lying bags), bribes taken and refused, debt, the king and queen
bonuses and the tie-break chain, hidden bags, random play against the figures measured on
vis/ENV, the bots' strength, the drawings."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import makeenv
from makeenv.games.sheriff import bots as B
from makeenv.games.sheriff import draw as D
from makeenv.games.sheriff import logic as L
from tests.games.support import clickable_actions, random_play_counter

# vis/ENV's Sheriff, random against random, measured by running its initEnv, getAgentState,
# getValidActions, stepEnv and check_winner in a loop mirroring its one_game_numba (uniform random
# valid actions) from a local export of the library, 40,000 games, with one line added: the
# merchants' discards cleared at every round's end (README, "Differences from vis/ENV"). Unchanged,
# vis/ENV gives a mean length of 472.76 (sd 21.69) and seats 0.0980, 0.1743, 0.2860, 0.4418.
VIS_MEAN_LENGTH = 470.29
VIS_LENGTH_SD = 21.82
VIS_SEAT_WIN_RATES = (0.1032, 0.1782, 0.2887, 0.4299)

APPLES, CHEESE, BREAD, CHICKENS, PEPPER, MEAD, SILK, CROSSBOWS = range(8)
GREEN_APPLES, GOLDEN_APPLES = 8, 12

ENV = makeenv.make("Sheriff")


def empty_env() -> np.ndarray:
    """Round 1 (seat 0 is sheriff) with empty hands, bags and stands and 50 coins each."""
    np.random.seed(0)
    env = L.initEnv()
    for p in range(4):
        base = L.player_base(p)
        env[base + L.P_HAND : base + L.PLAYER_BLOCK] = 0.0
        L.recount(env, p)
    return env


def at_bribe(bag: dict[int, int], declared: int, merchant: int = 1) -> np.ndarray:
    """The sheriff (seat 0) has just picked ``merchant``, whose bag holds ``bag`` declared as
    ``declared``; the other merchants still wait."""
    env = empty_env()
    for p in (1, 2, 3):
        env[L.player_base(p) + L.P_DECLARED] = APPLES
    base = L.player_base(merchant)
    for kind, n in bag.items():
        env[base + L.P_BAG + kind] = n
    env[base + L.P_DECLARED] = declared
    L.recount(env, merchant)
    env[L.E_PHASE] = L.CHOOSE
    env[L.E_TO_MOVE] = 0
    L.stepEnv(L.INSPECT_NEXT + merchant - 1, env)
    assert L.getCurrentPlayer(env) == merchant and env[L.E_PHASE] == L.BRIBE_COINS
    return env


def play(env: np.ndarray, *actions: int) -> None:
    for a in actions:
        assert L.isValidAction(L.getAgentState(env), a), D.describe_action(a)
        L.stepEnv(a, env)


def no_bribe(env: np.ndarray) -> None:
    play(env, L.STOP_COINS, L.STOP_STAND, L.STOP_BAG)
    assert L.getCurrentPlayer(env) == 0 and env[L.E_PHASE] == L.DECIDE


def coins(env, p):
    return env[L.player_base(p) + L.P_COINS], env[L.player_base(p) + L.P_DEBT]


def stand(env, p, kind):
    return env[L.player_base(p) + L.P_STAND + kind]


def test_cards_come_from_the_data_file():
    assert int(L.GOOD_COUNT.sum()) == L.NUM_CARDS == 216
    assert L.GOOD_NAMES[APPLES] == "Apples" and L.GOOD_NAMES[14] == "Pumpernickel Bread"
    assert list(L.KING) == [20, 15, 15, 10] and list(L.QUEEN) == [10, 10, 10, 5]
    assert L.COUNTS_AS[GOLDEN_APPLES] == APPLES and L.COUNT_MULTIPLE[GOLDEN_APPLES] == 3
    assert L.COUNTS_AS[SILK] == -1


def test_inspecting_an_honest_bag_costs_the_sheriff():
    env = at_bribe({CHEESE: 3}, CHEESE)
    no_bribe(env)
    play(env, L.INSPECT)
    assert coins(env, 0) == (44.0, 0.0) and coins(env, 1) == (56.0, 0.0)  # 3 x penalty 2
    assert stand(env, 1, CHEESE) == 3
    assert env[L.E_PHASE] == L.CHOOSE and L.getCurrentPlayer(env) == 0  # nothing to confiscate


def test_a_lying_merchant_pays_and_loses_the_undeclared_goods():
    env = at_bribe({APPLES: 2, SILK: 1, PEPPER: 1}, APPLES)
    no_bribe(env)
    left = env[L.E_PILE_SIZE]
    play(env, L.INSPECT)
    assert coins(env, 1) == (42.0, 0.0) and coins(env, 0) == (58.0, 0.0)  # silk 4 + pepper 4
    assert stand(env, 1, APPLES) == 2 and stand(env, 1, SILK) == 0
    assert env[L.E_PHASE] == L.CONFISCATE
    play(env, L.CONFISCATE_LEFT)
    assert env[L.E_PILE_SIZE] == left + 2
    top = L.getPlayerState(env, 2)[L.S_PILE_TOPS : L.S_PILE_TOPS + 15]
    assert np.argmax(top) == SILK  # the highest kind lands on top, as in vis/ENV
    assert env[L.E_PHASE] == L.CHOOSE


def test_a_bribe_taken_and_a_bribe_refused():
    for inspect in (False, True):
        env = at_bribe({APPLES: 1, MEAD: 2}, APPLES)
        env[L.player_base(1) + L.P_STAND + CHICKENS] = 2
        play(env, L.ADD_COIN, L.ADD_COIN, L.ADD_COIN, L.STOP_COINS)
        play(env, L.OFFER_STAND + CHICKENS, L.STOP_STAND, L.OFFER_BAG + MEAD, L.STOP_BAG)
        sheriff_view = L.getPlayerState(env, 0)
        merchant = L.S_SEATS + L.SEAT_BLOCK
        assert sheriff_view[merchant + L.B_COIN_BRIBE] == 3
        assert sheriff_view[merchant + L.B_STAND_BRIBE + CHICKENS] == 1
        assert sheriff_view[merchant + L.B_BAG_BRIBE_COUNT] == 1 and sheriff_view[merchant + L.B_BAG_COUNT] == 2
        if not inspect:
            play(env, L.LET_PASS)
            assert coins(env, 0) == (53.0, 0.0) and coins(env, 1) == (47.0, 0.0)
            assert stand(env, 0, CHICKENS) == 1 and stand(env, 0, MEAD) == 1
            assert stand(env, 1, CHICKENS) == 1 and stand(env, 1, MEAD) == 1 and stand(env, 1, APPLES) == 1
            assert env[L.E_PHASE] == L.CHOOSE
        else:  # the bribe goes back, then the whole bag is judged: 2 mead caught
            play(env, L.INSPECT)
            assert coins(env, 1) == (42.0, 0.0) and coins(env, 0) == (58.0, 0.0)
            assert stand(env, 1, CHICKENS) == 2 and stand(env, 0, CHICKENS) == 0
            assert env[L.E_CONFISCATED + MEAD] == 2 and env[L.E_PHASE] == L.CONFISCATE


def test_unpaid_fines_become_debt_and_block_coin_bribes():
    env = at_bribe({CROSSBOWS: 3}, BREAD)
    env[L.player_base(1) + L.P_COINS] = 2
    no_bribe(env)
    play(env, L.INSPECT)
    assert coins(env, 1) == (0.0, 10.0) and coins(env, 0) == (62.0, 0.0)
    # a broke sheriff inspecting an honest bag owes the merchant
    env = at_bribe({APPLES: 5}, APPLES)
    env[L.player_base(0) + L.P_COINS] = 4
    no_bribe(env)
    play(env, L.INSPECT)
    assert coins(env, 0) == (0.0, 6.0) and coins(env, 1) == (60.0, 0.0)
    # coins no greater than the debt cannot be offered
    env = at_bribe({APPLES: 1}, APPLES)
    base = L.player_base(1)
    env[base + L.P_COINS], env[base + L.P_DEBT] = 3.0, 3.0
    assert not L.isValidAction(L.getAgentState(env), L.ADD_COIN)
    env[base + L.P_DEBT] = 2.0
    assert L.isValidAction(L.getAgentState(env), L.ADD_COIN)


def bonuses_of(stands: dict[int, dict[int, int]]) -> list[float]:
    env = empty_env()
    for p, goods in stands.items():
        for kind, n in goods.items():
            env[L.player_base(p) + L.P_STAND + kind] = n
    out = np.zeros(4)
    L.bonuses(env, out)
    return list(out)


def test_king_and_queen_bonuses_and_their_ties():
    # a tie for king shares king + queen (20 + 10) and gives no queen
    assert bonuses_of({0: {APPLES: 3}, 1: {APPLES: 3}, 2: {APPLES: 1}}) == [15, 15, 0, 0]
    # golden apples count three times: 1 beats 2 apples
    assert bonuses_of({0: {GOLDEN_APPLES: 1}, 1: {APPLES: 2}}) == [20, 10, 0, 0]
    assert bonuses_of({0: {GREEN_APPLES: 1}, 1: {APPLES: 2}}) == [15, 15, 0, 0]
    # a tie for queen shares the queen, rounded down (chickens 10 / 5)
    assert bonuses_of({0: {CHICKENS: 4}, 1: {CHICKENS: 2}, 2: {CHICKENS: 2}}) == [10, 2, 2, 0]
    # three-way tie for king of cheese: (15 + 10) // 3
    assert bonuses_of({1: {CHEESE: 1}, 2: {CHEESE: 1}, 3: {CHEESE: 1}}) == [0, 8, 8, 8]
    # contraband counts for nothing
    assert bonuses_of({0: {SILK: 5}}) == [0, 0, 0, 0]


def end_with(stands: dict[int, dict[int, int]], money: dict[int, float]) -> np.ndarray:
    env = empty_env()
    for p, goods in stands.items():
        for kind, n in goods.items():
            env[L.player_base(p) + L.P_STAND + kind] = n
    for p, c in money.items():
        env[L.player_base(p) + L.P_COINS] = c
    L.score_end(env)
    return env


def test_the_tie_break_chain():
    # equal scores, equal goods: the higher seat
    env = end_with({0: {APPLES: 1}, 1: {APPLES: 1}}, {})
    assert env[L.player_base(0) + L.P_SCORE] == env[L.player_base(1) + L.P_SCORE] == 67
    assert L.checkEnded(env) == 1
    assert L.checkEnded(end_with({}, {})) == 3
    # equal scores (74): more legal goods first
    env = end_with({0: {APPLES: 2}, 1: {APPLES: 1}}, {1: 62.0})
    assert env[L.player_base(0) + L.P_SCORE] == env[L.player_base(1) + L.P_SCORE] == 74
    assert L.checkEnded(env) == 0
    # equal scores (73) and legal goods: more contraband
    env = end_with({0: {APPLES: 1, PEPPER: 1}, 1: {APPLES: 1}}, {1: 56.0})
    assert env[L.player_base(0) + L.P_SCORE] == env[L.player_base(1) + L.P_SCORE] == 73
    assert L.checkEnded(env) == 0
    # debt counts against the score
    assert L.checkEnded(end_with({}, {2: 60.0})) == 2
    env = empty_env()
    env[L.player_base(3) + L.P_DEBT] = 1.0
    L.score_end(env)
    assert L.checkEnded(env) == 2 and env[L.player_base(3) + L.P_SCORE] == 49


def loaded_game(seed: int) -> np.ndarray:
    """A random game played until the sheriff picks a merchant in round 1 (bags loaded)."""
    rng = random.Random(seed)
    np.random.seed(seed)
    env = L.initEnv()
    while env[L.E_PHASE] != L.CHOOSE:
        valid = np.flatnonzero(L.getValidActions(L.getAgentState(env)))
        L.stepEnv(int(rng.choice(valid)), env)
    return env


def test_bags_and_face_down_goods_are_hidden_from_the_others():
    for seed in range(5):
        env = loaded_game(seed)
        merchant = 1
        base = L.player_base(merchant)
        changed = env.copy()
        bag = changed[base + L.P_BAG : base + L.P_BAG + 15].copy()
        size = bag.sum()
        changed[base + L.P_BAG : base + L.P_BAG + 15] = 0.0
        changed[base + L.P_BAG + SILK] = size  # same size, other goods
        changed[base + L.P_STAND + MEAD] += 2  # contraband face down on the stand
        L.recount(changed, merchant)
        for seat in (0, 2, 3):
            before, after = L.getPlayerState(env, seat), L.getPlayerState(changed, seat)
            differs = np.flatnonzero(before != after)
            rel = (merchant - seat) % 4
            # only the count of contraband on the merchant's stand changes
            assert list(differs) == [L.S_SEATS + rel * L.SEAT_BLOCK + L.B_CONTRABAND], (seat, differs)
        mine_before, mine_after = L.getPlayerState(env, merchant), L.getPlayerState(changed, merchant)
        assert mine_after[L.S_BAG + SILK] == size and not np.array_equal(mine_before, mine_after)
        # the others see the bag's size and the declaration
        state = L.getPlayerState(env, 0)
        block = L.S_SEATS + L.SEAT_BLOCK
        assert state[block + L.B_BAG_COUNT] == size
        assert state[block + L.B_DECLARED : block + L.B_DECLARED + 4].sum() == 1


def test_card_totals_follow_the_counts():
    """The totals kept in the env (hand, bag, offered bag cards, contraband on the stand) equal
    the counts per kind after every move of random games; a stale total shows in the state."""
    rng = random.Random(3)
    for seed in range(3):
        np.random.seed(seed)
        env = L.initEnv()
        while True:
            for p in range(4):
                base = L.player_base(p)
                expected = env.copy()
                L.recount(expected, p)
                totals = slice(base + L.P_HAND_COUNT, base + L.P_CONTRABAND + 1)
                np.testing.assert_array_equal(env[totals], expected[totals])
            if L.checkEnded(env) != -1:
                break
            valid = np.flatnonzero(L.getValidActions(L.getAgentState(env)))
            L.stepEnv(int(rng.choice(valid)), env)
    env = empty_env()
    env[L.player_base(2) + L.P_HAND + PEPPER] = 3  # edited without recount: the state lags
    assert L.getPlayerState(env, 0)[L.S_SEATS + 2 * L.SEAT_BLOCK + L.B_HAND_COUNT] == 0
    L.recount(env, 2)
    assert L.getPlayerState(env, 0)[L.S_SEATS + 2 * L.SEAT_BLOCK + L.B_HAND_COUNT] == 3


def test_bots_play_from_their_own_state_only():
    """A bot's move depends on its state alone: two envs that differ in what the bot cannot see
    (another merchant's bag) give the same move; and every move is valid."""
    for seed in range(4):
        env = loaded_game(seed)
        other = env.copy()
        base = L.player_base(2)
        size = other[base + L.P_BAG : base + L.P_BAG + 15].sum()
        other[base + L.P_BAG : base + L.P_BAG + 15] = 0.0
        other[base + L.P_BAG + CROSSBOWS] = size
        for bot in (B.honest, B.shrewd):
            data = np.zeros(16)
            assert bot(L.getAgentState(env), data)[0] == bot(L.getAgentState(other), data)[0]
    rng = random.Random(1)
    np.random.seed(1)
    env = L.initEnv()
    while L.checkEnded(env) == -1:
        state = L.getAgentState(env)
        for shrewd in (False, True):
            assert L.isValidAction(state, B.trader_action(state, shrewd))
        L.stepEnv(B.trader_action(state, rng.random() < 0.5), env)


def test_a_game_ends_after_eight_rounds_with_action_zero_alone():
    rng = random.Random(2)
    np.random.seed(2)
    env = L.initEnv()
    sheriffs = []
    while L.checkEnded(env) == -1:
        if env[L.E_PHASE] == L.CHOOSE and (not sheriffs or sheriffs[-1][0] != env[L.E_ROUND]):
            sheriffs.append((int(env[L.E_ROUND]), L.getCurrentPlayer(env)))
        L.stepEnv(int(rng.choice(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
    assert sheriffs == [(r, (r - 1) % 4) for r in range(1, 9)]
    winner = L.checkEnded(env)
    for p in range(4):
        final = L.getPlayerState(env, p)
        assert list(np.flatnonzero(L.getValidActions(final))) == [0]
        assert L.getReward(final) == int(p == winner)
        assert final.min() >= 0.0
        # at the end every stand is shown whole
        for rel in range(4):
            seat = (p + rel) % 4
            block = L.S_SEATS + rel * L.SEAT_BLOCK + L.B_STAND
            np.testing.assert_array_equal(final[block : block + 15], env[L.player_base(seat) + L.P_STAND :][:15])
    # the 216 cards are all still somewhere (vis/ENV would have copied some discards)
    total = L.DECK_SIZE - env[L.E_DRAWN] + env[L.E_PILE_SIZE] + env[L.E_PILE_SIZE + 1]
    for p in range(4):
        base = L.player_base(p)
        total += env[base + L.P_HAND : base + L.P_DISCARDS].sum()
    assert total == 216


def test_random_play_matches_vis_env():
    """4000 random games: the mean length within 5 standard errors of vis/ENV's (about 0.4%), its
    spread, and each seat's win rate within 5 standard errors."""
    games = 4000
    mean, sd, wins, _ = random_play_counter(L, 4)(games, 8)
    assert abs(mean - VIS_MEAN_LENGTH) < 5 * VIS_LENGTH_SD / np.sqrt(games)
    assert abs(sd - VIS_LENGTH_SD) < 1.5
    rates = np.array(VIS_SEAT_WIN_RATES)
    tolerance = 5 * np.sqrt(rates * (1 - rates) / games)
    assert np.all(np.abs(wins - rates) < tolerance), wins


def test_sizes():
    assert (ENV.getActionSize(), ENV.getStateSize(), ENV.getAgentSize()) == (82, L.STATE_SIZE, 4)


@pytest.mark.slow
def test_honest_beats_the_random_agent():
    results = ENV.evaluate("random", 200, level=1, seed=2)
    assert results.win_rate < 0.03  # 25% is even; measured 0 of 400


@pytest.mark.slow
def test_shrewd_beats_honest():
    results = ENV.evaluate(ENV.bot(2), 200, np.zeros(16), level=1, seed=3)
    assert results.win_rate > 0.6  # 25% is even; measured 87.6% over 1,000 games


def test_render_and_words():
    rng = random.Random(6)
    np.random.seed(6)
    env = L.initEnv()
    seen = 0
    while L.checkEnded(env) == -1:
        state = L.getAgentState(env)
        if rng.random() < 0.15:
            root = ET.fromstring(D.render(state))
            assert set(clickable_actions(root)) == set(np.flatnonzero(L.getValidActions(state)).tolist())
            words = D.describe_state(state)
            for k in np.flatnonzero(state[L.S_HAND : L.S_HAND + 15]):
                assert L.GOOD_NAMES[k] in words
            seen += 1
        L.stepEnv(int(rng.choice(np.flatnonzero(L.getValidActions(state)))), env)
    final = L.getPlayerState(env, 0)
    assert clickable_actions(ET.fromstring(D.render(final))) == [0]
    assert "final score" in D.describe_state(final)
    assert seen > 20
    assert D.describe_action(L.LOAD_CARD + SILK) == "Put Silk in the bag"
    assert D.describe_action(L.INSPECT) == "Inspect the bag"
    with pytest.raises(ValueError, match=f"length {L.STATE_SIZE}"):
        D.render(np.zeros(3))
