"""MachiKoro: each kind of card's effect, the red cards' order and limits, the purple cards, the
radio tower, the amusement park, the two rule sets, random play against the figures measured on
vis/ENV, the bots' strength, the drawings."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import makeenv
from makeenv.games.machi_koro import bots as B
from makeenv.games.machi_koro import draw as D
from makeenv.games.machi_koro import logic as L
from tests.games.support import clickable_actions, random_play_counter

# vis/ENV's MachiKoro (4 players), random against random, 100,000 games: a loop over its initEnv,
# getAgentState, getValidActions, stepEnv and system_check_end mirroring its one_game_numba (cap
# 1000 steps, never reached), counting the steps and check_winner's winner.
VIS_MEAN_LENGTH = 243.16
VIS_LENGTH_SD = 30.05
VIS_SEAT_WIN_RATES = (0.2736, 0.2606, 0.2398, 0.2260)
LEARNED_DATA = B.learned_data()
# one level-2 bot against level-1 ones (seed=5, 10,000 games; the README): 32.1% of 4-player games,
# 54.8% of 2-player games; the floors are about 4 standard errors of 3,000 games below
L4_FLOOR = 0.285
L2_FLOOR = 0.515


def env_with(players: int = 4, rules: int = L.VIS_ENV, coins=None, cards=None) -> np.ndarray:
    """A new game with the seats' coins and cards replaced: ``cards[seat] = {card: count}``."""
    env = L.initEnv(players, rules)
    for seat in range(players):
        base = L.seat_base(seat)
        if coins is not None:
            env[base + L.B_COINS] = coins[seat]
        if cards is not None and seat in cards:
            for card, count in cards[seat].items():
                env[base + L.B_CARDS + card] = count
    return env


def coins(env) -> list[int]:
    return [int(env[L.seat_base(p) + L.B_COINS]) for p in range(int(env[L.E_PLAYERS]))]


def roll(env, total: int) -> np.ndarray:
    """Resolve a roll of ``total`` for the player to move (as if the dice had shown it)."""
    env[L.E_DIE1], env[L.E_DIE2] = (total, 0) if total <= 6 else (6, total - 6)
    L.resolve_roll(env, total)
    return env


def test_start_of_each_rule_set():
    for rules, start in ((L.VIS_ENV, 0), (L.PUBLISHED, 3)):
        env = L.initEnv(4, rules)
        assert coins(env) == [start] * 4
        for p in range(4):
            held = env[L.seat_base(p) + L.B_CARDS : L.seat_base(p) + L.SEAT_BLOCK]
            assert list(np.flatnonzero(held)) == [L.WHEAT, L.BAKERY]
        assert list(env[L.E_SUPPLY : L.E_SUPPLY + 12]) == [6.0] * 12


def test_blue_cards_pay_every_owner_and_green_cards_only_the_roller():
    env = env_with(coins=[0, 0, 0, 0], cards={1: {L.RANCH: 2}, 2: {L.FOREST: 1}})
    roll(env, 1)  # wheat fields (blue): everybody holds one
    assert coins(env) == [1, 1, 1, 1]
    roll(env, 2)  # ranch (blue) for seat 1; bakery (green) for the roller only
    assert coins(env) == [2, 3, 1, 1]
    roll(env, 5)  # forest (blue)
    assert coins(env) == [2, 3, 2, 1]
    env = env_with(coins=[0, 0, 0, 0], cards={0: {L.STORE: 2, L.SHOPPING_MALL: 1}, 1: {L.STORE: 1}})
    roll(env, 4)  # convenience stores: 3 each, 4 with the mall; seat 1's do nothing on my roll
    assert coins(env) == [8, 0, 0, 0]


@pytest.mark.parametrize("rules, per_grain", [(L.VIS_ENV, 3), (L.PUBLISHED, 2)])
def test_factories_and_the_market_multiply(rules, per_grain):
    cards = {0: {L.CHEESE: 1, L.RANCH: 2, L.FURNITURE: 2, L.FOREST: 1, L.MINE: 1, L.MARKET: 1, L.ORCHARD: 1}}
    env = env_with(rules=rules, coins=[0, 0, 0, 0], cards=cards)
    assert coins(roll(env, 7)) == [3 * 2, 0, 0, 0]  # cheese: 3 per ranch
    assert coins(roll(env, 8)) == [6 + 2 * 3 * 2, 0, 0, 0]  # furniture: 3 per forest and mine, twice
    before = coins(env)[0]
    # the market: per wheat field (the starting one) and orchard; vis/ENV pays 3, the rules 2
    assert coins(roll(env, 11))[0] == before + per_grain * 2


def test_red_cards_pay_in_reverse_seat_order_while_the_roller_has_coins():
    # seat 0 rolls 3 with 2 coins: seat 3 (the one before) is paid first, then seat 2, then seat 1
    cards = {1: {L.CAFE: 1}, 2: {L.CAFE: 1}, 3: {L.CAFE: 1, L.SHOPPING_MALL: 1}}
    env = roll(env_with(coins=[2, 0, 0, 0], cards=cards), 3)
    # seat 3 takes 2 (1 + the mall), nothing is left for seats 2 and 1; then the roller's bakery pays 1
    assert coins(env) == [1, 0, 0, 2]
    env = roll(env_with(coins=[4, 0, 0, 0], cards=cards), 3)
    assert coins(env) == [1, 1, 1, 2]
    # the family restaurant (9 and 10), before the roller's blue cards pay
    env = env_with(coins=[1, 0, 0, 0], cards={0: {L.MINE: 1}, 1: {L.RESTAURANT: 2}})
    assert coins(roll(env, 9)) == [0 + 5, 1, 0, 0]


def test_stadium_takes_two_from_each_as_far_as_they_have():
    env = env_with(coins=[0, 5, 1, 0], cards={0: {L.STADIUM: 1}})
    roll(env, 6)
    assert coins(env) == [3, 3, 0, 0] and env[L.E_PHASE] == L.BUY


def test_tv_station_is_offered_only_when_someone_has_coins():
    env = env_with(coins=[0, 0, 0, 0], cards={0: {L.TV_STATION: 1}})
    assert roll(env, 6)[L.E_PHASE] == L.BUY
    env = env_with(coins=[0, 0, 3, 9], cards={0: {L.TV_STATION: 1}})
    roll(env, 6)
    assert env[L.E_PHASE] == L.TV_TARGET
    valid = list(np.flatnonzero(L.getValidActions(L.getAgentState(env))))
    assert valid == [L.TAKE_COINS + 1, L.TAKE_COINS + 2]  # the players 2 and 3 seats on
    L.stepEnv(L.TAKE_COINS + 1, env)
    assert coins(env) == [3, 0, 0, 9] and env[L.E_PHASE] == L.BUY


def test_business_centre_trades_establishments_only():
    env = env_with(coins=[0, 0, 0, 0], cards={0: {L.BUSINESS_CENTRE: 1}, 2: {L.MINE: 1, L.STADIUM: 1}})
    roll(env, 6)
    state = L.getAgentState(env)
    assert list(np.flatnonzero(L.getValidActions(state))) == [6, 7, 8, L.NO_TRADE]
    L.stepEnv(L.TRADE_WITH + 1, env)  # the player two seats on
    give = list(np.flatnonzero(L.getValidActions(L.getAgentState(env))))
    assert give == [L.GIVE + L.WHEAT, L.GIVE + L.BAKERY]  # not the Business Centre itself
    L.stepEnv(L.GIVE + L.WHEAT, env)
    state = L.getAgentState(env)
    assert (L.trade_partner(state), L.trade_given(state)) == (2, L.WHEAT)
    assert np.array_equal(L.getAgentState(L.sampleEnv(state)), state)
    take = list(np.flatnonzero(L.getValidActions(state)))
    assert take == [L.TAKE + L.WHEAT, L.TAKE + L.BAKERY, L.TAKE + L.MINE]  # not the Stadium
    L.stepEnv(L.TAKE + L.MINE, env)
    assert L.getAgentState(env)[L.S_TRADE] == 0  # no trade in progress
    assert L.card_count(env, 0, L.MINE) == 1 and L.card_count(env, 0, L.WHEAT) == 0
    assert L.card_count(env, 2, L.MINE) == 0 and L.card_count(env, 2, L.WHEAT) == 2
    assert env[L.E_PHASE] == L.BUY


def test_radio_tower_is_a_separate_phase_and_keeps_or_rerolls():
    np.random.seed(5)
    env = env_with(coins=[0, 0, 0, 0], cards={0: {L.RADIO_TOWER: 1}})
    L.stepEnv(L.ROLL_ONE, env)
    assert env[L.E_PHASE] == L.REROLL and coins(env) == [0, 0, 0, 0]  # nothing paid yet
    # vis/ENV's rules offer two dice even without the Train Station; the published ones do not
    assert list(np.flatnonzero(L.getValidActions(L.getAgentState(env)))) == [0, 1, 2]
    env[L.E_RULES] = L.PUBLISHED
    assert list(np.flatnonzero(L.getValidActions(L.getAgentState(env)))) == [0, 1]
    env[L.E_RULES] = L.VIS_ENV
    env[L.E_DIE1] = 1
    L.stepEnv(L.KEEP_ROLL, env)
    assert coins(env) == [1, 1, 1, 1] and env[L.E_PHASE] == L.BUY


def test_doubles_with_the_amusement_park_give_another_turn():
    for park, next_player in ((1, 0), (0, 1)):
        env = env_with(coins=[0, 0, 0, 0], cards={0: {L.TRAIN_STATION: 1, L.AMUSEMENT_PARK: park}})
        env[L.E_DIE1], env[L.E_DIE2] = 2, 2
        L.settle_roll(env)
        L.stepEnv(L.END_TURN, env)
        assert L.getCurrentPlayer(env) == next_player and env[L.E_AGAIN] == 0
    # one die never counts as doubles
    env = env_with(coins=[0, 0, 0, 0], cards={0: {L.AMUSEMENT_PARK: 1}})
    env[L.E_DIE1], env[L.E_DIE2] = 3, 0
    L.settle_roll(env)
    assert env[L.E_AGAIN] == 0


def test_purchases_of_each_rule_set():
    env = env_with(coins=[9, 0, 0, 0])
    env[L.E_PHASE] = L.BUY
    L.stepEnv(L.BUY_CARD + L.CAFE, env)
    state = L.getAgentState(env)
    # vis/ENV's rules: still buying, one of each kind a turn; the market has one Cafe fewer
    assert L.getCurrentPlayer(env) == 0 and not L.isValidAction(state, L.BUY_CARD + L.CAFE)
    assert L.isValidAction(state, L.BUY_CARD + L.TRAIN_STATION) and env[L.E_SUPPLY + L.CAFE] == 5
    L.stepEnv(L.BUY_CARD + L.TRAIN_STATION, env)
    L.stepEnv(L.BUY_CARD + L.STORE, env)
    L.stepEnv(L.BUY_CARD + L.WHEAT, env)  # the last coin: the turn ends by itself
    assert coins(env)[0] == 0 and L.getCurrentPlayer(env) == 1 and env[L.E_PHASE] == L.ROLL
    assert env[L.E_BOUGHT : L.E_BOUGHT + 12].sum() == 0
    # the published rules: one purchase ends the turn
    env = env_with(rules=L.PUBLISHED, coins=[9, 0, 0, 0])
    env[L.E_PHASE] = L.BUY
    L.stepEnv(L.BUY_CARD + L.CAFE, env)
    assert coins(env)[0] == 7 and L.getCurrentPlayer(env) == 1


def test_the_fourth_landmark_wins_at_once():
    landmarks = {L.RADIO_TOWER: 1, L.AMUSEMENT_PARK: 1, L.SHOPPING_MALL: 1}
    env = env_with(coins=[0, 0, 4, 0], cards={2: landmarks})
    env[L.E_TO_MOVE], env[L.E_PHASE] = 2, L.BUY
    L.stepEnv(L.BUY_CARD + L.TRAIN_STATION, env)
    assert L.checkEnded(env) == 2
    for p in range(4):
        final = L.getPlayerState(env, p)
        assert L.getReward(final) == (1 if p == 2 else 0)
        assert final[L.S_RESULT] == (L.WON if p == 2 else L.LOST)
        assert list(np.flatnonzero(L.getValidActions(final))) == [L.END_TURN]
        np.testing.assert_array_equal(L.getPlayerState(L.sampleEnv(final), p), final)


def test_sample_env_is_the_game_itself():
    np.random.seed(3)
    for trial in range(30):
        env = L.initEnv(2 + trial % 3, trial % 2)
        for _ in range(trial * 7):
            if L.checkEnded(env) >= 0:
                break
            valid = np.flatnonzero(L.getValidActions(L.getAgentState(env)))
            L.stepEnv(int(np.random.choice(valid)), env)
        if L.checkEnded(env) < 0:
            np.testing.assert_array_equal(L.sampleEnv(L.getAgentState(env)), env)


def test_the_state_keeps_the_env_values_at_the_env_indices():
    """getPlayerState copies those values in one run: a layout that moves one must fail here."""
    shared = [L.S_PLAYERS, L.S_RULES, L.S_PHASE, L.S_DIE1, L.S_DIE2, L.S_AGAIN, L.S_PURCHASES]
    assert shared == [L.E_PLAYERS, L.E_RULES, L.E_PHASE, L.E_DIE1, L.E_DIE2, L.E_AGAIN, L.E_PURCHASES]
    assert (L.S_SUPPLY, L.S_BOUGHT, L.S_SEATS) == (L.E_SUPPLY, L.E_BOUGHT, L.E_SEATS)
    np.random.seed(6)
    env = L.initEnv(3, L.VIS_ENV)
    for _ in range(200):
        if L.checkEnded(env) >= 0:
            break
        for p in range(3):
            state = L.getPlayerState(env, p)
            assert np.array_equal(state[shared], env[shared]) and np.array_equal(state[11:35], env[11:35])
            seat_after_me = L.seat_base((p + 1) % 3)
            assert np.array_equal(
                state[L.S_SEATS + L.SEAT_BLOCK : L.S_SEATS + 2 * L.SEAT_BLOCK],
                env[seat_after_me : seat_after_me + L.SEAT_BLOCK],
            )
            assert not state[L.S_SEATS + 3 * L.SEAT_BLOCK :].any()  # the absent fourth seat
        valid = np.flatnonzero(L.getValidActions(L.getAgentState(env)))
        L.stepEnv(int(np.random.choice(valid)), env)


def test_random_play_matches_vis_env():
    """10,000 random 4-player games with vis/ENV's rules: the mean length within 5 standard errors
    of vis/ENV's, the spread alike, each seat's win rate within 5 standard errors."""
    games = 10_000
    mean, sd, wins, _ = random_play_counter(L, 4)(games, 8)
    assert abs(mean - VIS_MEAN_LENGTH) < 5 * VIS_LENGTH_SD / np.sqrt(games), mean
    assert abs(sd - VIS_LENGTH_SD) < 1.5, sd
    tolerance = 5 * np.sqrt(0.25 * 0.75 / games)
    assert np.all(np.abs(wins - np.array(VIS_SEAT_WIN_RATES)) < tolerance), wins


def test_bots_play_valid_moves_from_their_own_state():
    """Along random games of both rule sets, each bot's move is valid and depends on the state alone."""
    np.random.seed(1)
    data = np.zeros(16)
    for rules in (L.VIS_ENV, L.PUBLISHED):
        env = L.initEnv(3, rules)
        for _ in range(150):
            if L.checkEnded(env) >= 0:
                break
            state = L.getAgentState(env)
            first = B.builder(state.copy(), data)[0]
            assert L.isValidAction(state, first) and B.builder(state.copy(), data)[0] == first
            assert L.isValidAction(state, B.planner(state.copy(), np.array([2.0]))[0])
            learned = B.learned(state.copy(), LEARNED_DATA.copy())[0]
            assert L.isValidAction(state, learned) and B.learned(state.copy(), LEARNED_DATA.copy())[0] == learned
            valid = np.flatnonzero(L.getValidActions(state))
            L.stepEnv(int(np.random.choice(valid)), env)


def test_sizes_and_options():
    env = makeenv.make("MachiKoro")
    assert (env.getActionSize(), env.getStateSize(), env.players, env.parameters["rules"]) == (54, 115, 4, 0)
    published = makeenv.make("MachiKoro", players=2, rules=1)
    assert published.initEnv()[L.E_RULES] == 1 and published.players == 2
    with pytest.raises(ValueError, match="rules=2"):
        makeenv.make("MachiKoro", rules=2)


def test_the_published_rules_pass_the_checker():
    ok, problems = makeenv.check_env(makeenv.make("MachiKoro", rules=1), checks=["random_games", "games_end"])
    assert ok, problems


@pytest.mark.slow
def test_builder_beats_the_random_agent():
    env = makeenv.make("MachiKoro")
    results = env.evaluate(env.bot(1), 300, np.zeros(16), level=0, seed=1)
    assert results.win_rate > 0.5  # 25% is even; measured 73.8%


@pytest.mark.slow
def test_planner_beats_the_builder():
    env = makeenv.make("MachiKoro")
    results = env.evaluate(env.bot(3), 300, np.zeros(16), level=1, seed=2)
    assert results.win_rate > 0.27  # 25% is even; see the README for the measured rate


def test_the_learned_level_is_the_network_over_the_builder():
    """Level 2 is the shipped network; its view works out level 1's purchase exactly as level 1 does,
    and outside its buying phase it plays level 1's move."""
    env = makeenv.make("MachiKoro")
    assert env.level_bots[2][0].policy is B.learned and env.level_bots[3][0].policy is B.planner
    assert env.level_bots[2][0].data.shape == LEARNED_DATA.shape
    np.random.seed(3)
    seen = np.zeros(B.VIEW_SIZE)
    purchases = 0
    for players in (2, 4):
        game = L.initEnv(players, L.VIS_ENV)
        while L.checkEnded(game) < 0:
            state = L.getAgentState(game)
            builder = B.builder(state.copy(), np.zeros(1))[0]
            if B.my_purchase(state):
                purchases += 1
                assert B.fill_view(state, -1, seen) == builder
            else:
                assert B.learned(state.copy(), LEARNED_DATA.copy())[0] == builder
            L.stepEnv(int(np.random.choice(np.flatnonzero(L.getValidActions(state)))), game)
    assert purchases > 20


@pytest.mark.parametrize("players, games, floor", [(4, 3000, L4_FLOOR), (2, 3000, L2_FLOOR)])
def test_the_learned_level_beats_the_builder(players, games, floor):
    env = makeenv.make("MachiKoro", players=players)
    results = env.evaluate(B.learned, games, LEARNED_DATA.copy(), level=1, seed=7)
    assert results.win_rate > floor


def test_render_and_words():
    np.random.seed(4)
    env = L.initEnv(4, L.VIS_ENV)
    seen_phases = set()
    for _ in range(400):
        if L.checkEnded(env) >= 0:
            break
        state = L.getAgentState(env)
        valid = set(np.flatnonzero(L.getValidActions(state)).tolist())
        clicks = clickable_actions(ET.fromstring(D.render(state)))
        assert clicks and set(clicks) <= valid
        seen_phases.add(int(state[L.S_PHASE]))
        assert "MachiKoro" in D.describe_state(state)
        L.stepEnv(int(np.random.choice(sorted(valid))), env)
    assert {L.ROLL, L.BUY} <= seen_phases
    assert D.describe_action(L.BUY_CARD + L.CAFE) == "Buy Cafe (2 coins)"
    with pytest.raises(ValueError, match="length 115"):
        D.render(np.zeros(5))
