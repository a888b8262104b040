"""SushiGo: the contract for every player count, the rules replayed against a plain-Python
reading of the README, random play against the figures measured on vis/ENV, hidden picks,
determinization, the bots' strength, the drawings."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from numba import njit

import makeenv
from makeenv.games.sushi_go import bots as B
from makeenv.games.sushi_go import draw as D
from makeenv.games.sushi_go import logic as L
from makeenv.learn.imitate import forward
from makeenv.learn.policy import load_weights
from tests.games.support import clickable_actions

# vis/ENV's SushiGo, 5 players, random against random, 200,000 games (see the README)
VIS_MEAN_LENGTH = 108.937
VIS_SHARED_FIRST = 0.0165  # 0.0179 here: vis/ENV miscounts maki rolls (see the README)
VIS_SEAT_WIN_RATE = 0.2034  # each seat's win rate, shared first places counted as wins
STATE_SIZE_OF_A_NETWORK = 199 * 16 // 2  # the learned level's float32 weights two a slot: 16+ units
LEARNED_VS_GREEDY_FLOOR = 0.35  # measured 52.7% over 3,000 games (see the README)


# ---- the rules, read again from the README in plain Python -------------------------------------

DUMPLINGS = [0, 1, 3, 6, 10, 15]


def round_points(table: list[int]) -> int:
    """A table's points from the README's card table (maki and puddings aside)."""
    points = table[0] // 2 * 5 + table[1] // 3 * 10
    d = table[2]
    points += DUMPLINGS[d] if d <= 5 else 15 + DUMPLINGS[d - 5]
    nigiri = sorted([3] * table[7] + [2] * table[6] + [1] * table[8], reverse=True)
    tripled = min(table[10], len(nigiri))
    return points + 3 * sum(nigiri[:tripled]) + sum(nigiri[tripled:])


def maki_points(rolls: list[int]) -> list[int]:
    best = max(rolls)
    first = [p for p, r in enumerate(rolls) if r == best]
    points = [0] * len(rolls)
    for p in first:
        points[p] = 6 // len(first)
    if len(first) == 1:
        rest = [r for p, r in enumerate(rolls) if p not in first]
        second = [p for p, r in enumerate(rolls) if p not in first and r == max(rest)]
        for p in second:
            points[p] = 3 // len(second)
    return points


class Reference:
    """A SushiGo referee written from the README, replaying the deck an env dealt."""

    def __init__(self, players: int, deck: list[int]):
        self.n, self.size, self.deck = players, 12 - players, deck
        self.round, self.turn, self.to_move, self.picks_left = 1, 1, 0, 1
        self.points, self.puddings = [0] * players, [0] * players
        self.chopsticks = [False] * players
        self.picked = [[0] * 12 for _ in range(players)]
        self.winners: list[int] | None = None
        self.totals: list[int] = []
        self.deal()

    def deal(self):
        start = (self.round - 1) * self.n * self.size
        self.hands = []  # self.hands[p]: the hand seat p holds now
        for p in range(self.n):
            hand = [0] * 12
            for card in self.deck[start + p * self.size : start + (p + 1) * self.size]:
                hand[card] += 1
            self.hands.append(hand)
        self.tables = [[0] * 12 for _ in range(self.n)]

    def valid(self) -> list[int]:
        if self.winners is not None:
            return [13]
        p = self.to_move
        hand = self.hands[p]
        actions = [k for k in range(12) if hand[k] > 0]
        if self.tables[p][11] > 0 and not self.chopsticks[p] and sum(self.picked[p]) == 0 and sum(hand) >= 2:
            actions.append(12)
        return actions

    def step(self, action: int):
        p = self.to_move
        if action == 12:
            self.chopsticks[p], self.picks_left = True, 2
            return
        self.hands[p][action] -= 1
        self.picked[p][action] += 1
        self.picks_left -= 1
        if self.picks_left:
            return
        self.picks_left = 1
        if p + 1 < self.n:
            self.to_move = p + 1
            return
        self.to_move = 0
        for q in range(self.n):
            for k in range(12):
                self.tables[q][k] += self.picked[q][k]
            self.picked[q] = [0] * 12
            if self.chopsticks[q]:
                self.tables[q][11] -= 1
                self.hands[q][11] += 1
                self.chopsticks[q] = False
        self.hands = [self.hands[(q - 1) % self.n] for q in range(self.n)]  # pass to the next seat
        if self.turn < self.size:
            self.turn += 1
            return
        rolls = [t[3] + 2 * t[4] + 3 * t[5] for t in self.tables]
        for q, bonus in enumerate(maki_points(rolls)):
            self.points[q] += round_points(self.tables[q]) + bonus
            self.puddings[q] += self.tables[q][9]
        if self.round < 3:
            self.round, self.turn = self.round + 1, 1
            self.deal()
            return
        most, fewest = max(self.puddings), min(self.puddings)
        with_most = [q for q in range(self.n) if self.puddings[q] == most]
        with_fewest = [q for q in range(self.n) if self.puddings[q] == fewest]
        self.totals = list(self.points)
        for q in with_most:
            self.totals[q] += 6 // len(with_most)
        for q in with_fewest:
            self.totals[q] += -6 // len(with_fewest)  # floor division: rounded towards minus infinity
        best = max(self.totals)
        leaders = [q for q in range(self.n) if self.totals[q] == best]
        top = max(self.puddings[q] for q in leaders)
        self.winners = [q for q in leaders if self.puddings[q] == top]


def total(env, p: int) -> float:
    base = L.player_base(p)
    return env[base + L.P_POINTS] + env[base + L.P_PUDDING_WON] - env[base + L.P_PUDDING_LOST]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_same_games_as_the_reference(players):
    """Random games replayed in both: the player to move, the valid actions, every state's hand,
    the round and turn, the scores after each round and the winners agree."""
    rng = random.Random(players)
    np.random.seed(players)
    for _game in range(40):
        env = L.initEnv(players)
        ref = Reference(players, [int(c) for c in env[L.E_DECK : L.E_DECK + L.DECK_SIZE]])
        while L.checkEnded(env) == -1:
            p = L.getCurrentPlayer(env)
            assert p == ref.to_move
            state = L.getAgentState(env)
            valid = ref.valid()
            assert list(np.flatnonzero(L.getValidActions(state))) == valid
            assert [a for a in range(-1, 15) if L.isValidAction(state, a)] == valid
            assert list(state[L.S_HAND : L.S_HAND + 12]) == ref.hands[p]
            assert (state[L.S_ROUND], state[L.S_TURN]) == (ref.round, ref.turn)
            for q in range(players):
                assert env[L.player_base(q) + L.P_POINTS] == ref.points[q]
            action = rng.choice(valid)
            ref.step(action)
            L.stepEnv(action, env)
        assert ref.winners is not None
        assert [total(env, q) for q in range(players)] == ref.totals
        assert list(np.flatnonzero(L.getWinners(env))) == ref.winners
        assert L.checkEnded(env) == (ref.winners[0] if len(ref.winners) == 1 else players)
        everybody = len(ref.winners) == players
        for q in range(players):
            final = L.getPlayerState(env, q)
            assert L.getReward(final) == (1 if q in ref.winners and not everybody else 0)
            assert list(np.flatnonzero(L.getValidActions(final))) == [L.END_TURN]


def scored_env(tables: list[list[int]], puddings: list[int]) -> np.ndarray:
    """An env in the last turn of round 3 whose tables are ``tables`` once everybody has taken
    its last card (the last cards are put in the hands, one each)."""
    n = len(tables)
    env = L.initEnv(n)
    env[L.E_ROUND], env[L.E_TURN] = 3, 12 - n
    env[L.E_HANDS : L.E_HANDS + 60] = 0.0
    for p, table in enumerate(tables):
        base = L.player_base(p)
        last = max(k for k in range(12) if table[k] > 0)
        env[base + L.P_TABLE : base + L.P_TABLE + 12] = table
        env[base + L.P_TABLE + last] -= 1
        env[base + L.P_PUDDINGS] = puddings[p] - table[9]
        env[L.E_HANDS + L.hand_index(env, p) * 12 + last] = 1.0
    return env


def test_scoring_edge_cases():
    """Six dumplings, wasabi played after its nigiri, tied and empty maki races, puddings tied by all."""
    tables = [
        [0, 0, 6, 0, 0, 0, 1, 0, 0, 0, 0, 0],  # 6 dumplings: 15 + 1; a salmon without wasabi
        [0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 2, 0],  # two wasabi triple the squid and the salmon
        [2, 3, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1],  # tempura pair, sashimi set
    ]
    env = scored_env(tables, [1, 1, 1])
    for p in range(3):
        L.stepEnv(int(np.flatnonzero(env[L.E_HANDS + L.hand_index(env, p) * 12 :][:12])[0]), env)
    # maki: seat 2 has 3 rolls (6 points), seat 1 has 1 (3 points); puddings all tied: +2 and -2 each
    assert [total(env, p) for p in range(3)] == [16 + 2, 9 + 6 + 1 + 3, 5 + 10 + 6]
    assert L.checkEnded(env) == 2 and list(L.getWinners(env)) == [0.0, 0.0, 1.0]
    # nobody has a roll: everybody shares the 6 points (3 players: 2 each)
    env = scored_env([[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]] * 3, [0, 1, 2])
    for _p in range(3):
        L.stepEnv(0, env)
    assert [env[L.player_base(p) + L.P_POINTS] for p in range(3)] == [2.0, 2.0, 2.0]
    # fewest puddings: 6 lost, most: 6 won; the most puddings break the tie on points
    assert [total(env, p) for p in range(3)] == [-4.0, 2.0, 8.0]
    assert L.checkEnded(env) == 2


def test_only_maki_cards_count_as_maki_rolls():
    """A score of 4 after the cards is not two maki rolls (vis/ENV's count would make it so)."""
    tables = [
        [0, 0, 2, 0, 0, 0, 0, 0, 1, 0, 0, 0],  # 3 + 1 = 4 points, no maki
        [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0],  # one roll
        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
    ]
    tables[2][1] = 1  # a lone sashimi: no points, no roll
    env = scored_env(tables, [0, 0, 0])
    for p in range(3):
        L.stepEnv(int(np.flatnonzero(env[L.E_HANDS + L.hand_index(env, p) * 12 :][:12])[0]), env)
    # seat 1 has the most rolls (6 points); seats 0 and 2 share second place with 0 rolls (3 // 2)
    assert [env[L.player_base(p) + L.P_POINTS] for p in range(3)] == [4.0 + 1, 6.0, 0.0 + 1]


def test_a_first_place_shared_by_some_and_by_all():
    env = scored_env(
        [
            [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0],
        ],
        [1, 1, 0],
    )
    for p in range(3):
        L.stepEnv(int(np.flatnonzero(env[L.E_HANDS + L.hand_index(env, p) * 12 :][:12])[0]), env)
    assert L.checkEnded(env) == 3 and list(L.getWinners(env)) == [1.0, 1.0, 0.0]
    assert [L.getReward(L.getPlayerState(env, p)) for p in range(3)] == [1, 1, 0]
    env = scored_env([[1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]] * 2, [0, 0])
    L.stepEnv(0, env)
    L.stepEnv(0, env)
    assert L.checkEnded(env) == 2 and list(L.getWinners(env)) == [1.0, 1.0]
    assert [L.getReward(L.getPlayerState(env, p)) for p in range(2)] == [0, 0]  # everybody: a draw


def test_chopsticks_take_two_and_go_back_into_the_hand():
    env = L.initEnv(3)
    env[L.E_HANDS : L.E_HANDS + 60] = 0.0
    env[L.E_TURN] = 2
    me = L.player_base(0)
    env[me + L.P_TABLE + L.CHOPSTICKS] = 1.0
    hand = L.E_HANDS + L.hand_index(env, 0) * 12
    env[hand + L.SQUID], env[hand + L.WASABI] = 1.0, 2.0
    for p in (1, 2):
        env[L.E_HANDS + L.hand_index(env, p) * 12 + L.EGG] = 3.0
    state = L.getAgentState(env)
    assert L.isValidAction(state, L.USE_CHOPSTICKS)
    for action in (L.USE_CHOPSTICKS, L.WASABI):
        L.stepEnv(action, env)
        assert L.getCurrentPlayer(env) == 0
        assert not L.isValidAction(L.getAgentState(env), L.USE_CHOPSTICKS)
    assert not L.isValidAction(L.getAgentState(env), L.CHOPSTICKS)  # not back in the hand yet
    L.stepEnv(L.SQUID, env)
    assert L.getCurrentPlayer(env) == 1
    # hidden: the next player's view of my table is unchanged until the reveal
    assert L.getPlayerState(env, 1)[L.S_SEATS + 2 * L.SEAT_BLOCK + L.B_TABLE + L.CHOPSTICKS] == 1.0
    L.stepEnv(L.EGG, env)
    L.stepEnv(L.EGG, env)
    table = env[me + L.P_TABLE : me + L.P_TABLE + 12]
    assert (table[L.WASABI], table[L.SQUID], table[L.CHOPSTICKS]) == (1.0, 1.0, 0.0)
    # the hand I passed (to seat 1) holds the chopsticks and my other wasabi
    assert L.getCurrentPlayer(env) == 0
    passed = L.getPlayerState(env, 1)
    assert passed[L.S_HAND + L.CHOPSTICKS] == 1.0 and passed[L.S_HAND + L.WASABI] == 1.0


def test_picks_stay_hidden_until_the_reveal():
    """Replaying a turn with other picks by the earlier players changes no later player's state."""
    rng = random.Random(7)
    for trial in range(60):
        np.random.seed(trial)
        n = rng.choice([2, 3, 4, 5])
        env = L.initEnv(n)
        for _ in range(rng.randrange(0, 3 * (12 - n) * n)):
            L.stepEnv(rng.choice(list(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
        if L.checkEnded(env) != -1 or L.getCurrentPlayer(env) != 0 or n < 3:
            continue
        start = env.copy()
        views = []
        for _ in range(6):  # seat 0 and seat 1 pick at random; seat 2's view must not change
            env = start.copy()
            while L.getCurrentPlayer(env) < 2:
                L.stepEnv(rng.choice(list(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
            views.append(L.getAgentState(env))
        for view in views[1:]:
            np.testing.assert_array_equal(view, views[0])


def test_sample_env_deals_only_what_the_state_hides():
    rng = random.Random(11)
    for trial in range(80):
        np.random.seed(100 + trial)
        n = rng.choice([2, 3, 4, 5])
        env = L.initEnv(n)
        for _ in range(rng.randrange(0, 3 * (12 - n) * n)):
            L.stepEnv(rng.choice(list(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
        if L.checkEnded(env) != -1:
            continue
        state = L.getAgentState(env)
        deals = set()
        for _ in range(5):
            sampled = L.sampleEnv(state)
            assert L.getCurrentPlayer(sampled) == L.getCurrentPlayer(env)
            np.testing.assert_array_equal(L.getAgentState(sampled), state)
            # every card is somewhere: scored rounds, tables, picks, hands, the rest of the deck
            counts = sampled[L.E_EARLIER : L.E_EARLIER + 12].copy()
            for p in range(n):
                base = L.player_base(p)
                counts += sampled[base + L.P_TABLE : base + L.P_TABLE + 12]
                counts += sampled[base + L.P_PICKED : base + L.P_PICKED + 12]
                counts += sampled[L.E_HANDS + p * 12 : L.E_HANDS + p * 12 + 12]
            for i in range(int(sampled[L.E_DEALT]), L.DECK_SIZE):
                counts[int(sampled[L.E_DECK + i])] += 1
            np.testing.assert_array_equal(counts, L.CARD_COUNTS)
            deals.add(tuple(sampled[L.E_HANDS : L.E_HANDS + 60]) + tuple(sampled[L.E_DECK : L.E_DECK + 108]))
        if state[L.S_TURN] == 1:
            assert len(deals) > 1  # the hands not seen yet are dealt anew each time


@njit(cache=True)
def random_games(players, games, seed):
    """Random play: (mean length, each seat's win rate, share of games with a shared first place)."""
    np.random.seed(seed)
    steps = 0
    wins = np.zeros(players)
    shared = 0
    for _ in range(games):
        env = L.initEnv(players)
        while L.checkEnded(env) == -1:
            valid = L.getValidActions(L.getAgentState(env))
            choices = np.flatnonzero(valid)
            L.stepEnv(choices[int(np.random.random() * choices.shape[0])], env)
            steps += 1
        winners = L.getWinners(env)
        wins += winners
        if winners.sum() > 1:
            shared += 1
    return steps / games, wins / games, shared / games


def test_random_play_matches_vis_env():
    """5000 random games: the mean length, each seat's wins and the shared first places agree with
    vis/ENV's figures (sd of a game's length 2.3, so 0.5 steps is about 15 standard errors of the
    mean; the win rates within 5 standard errors)."""
    length, wins, shared = random_games(5, 5000, 3)
    assert abs(length - VIS_MEAN_LENGTH) < 0.5
    assert np.all(np.abs(wins - VIS_SEAT_WIN_RATE) < 0.03), wins
    assert abs(shared - VIS_SHARED_FIRST) < 0.0014 + 4 * 0.0019, shared  # the maki gap + 4 standard errors


def test_every_seat_wins_as_often_with_fewer_players():
    for players in (2, 3, 4):
        length, wins, shared = random_games(players, 4000, players)
        even = wins.mean()  # about 1 / players, a little more: a shared first place counts for each
        assert abs(even - 1 / players) < 0.02
        assert np.all(np.abs(wins - even) < 5 * np.sqrt(even * (1 - even) / 4000)), (players, wins)
        assert length == pytest.approx({2: 63.23, 3: 84.94, 4: 100.15}[players], abs=0.5)


# the checks that compile and run whole game loops (each compiles the game anew, and the level
# check plays 20 games against four search bots): slow tests; the others run in the quick set
LOOP_CHECKS = ("runs_numba_agent", "runs_python_agent", "completed_games", "wins_match_rewards", "levels")


def test_sizes():
    """The layout sizes (the contract itself: tests/games/test_every_game.py)."""
    env = makeenv.make("SushiGo")
    assert (env.getActionSize(), env.getStateSize(), env.players) == (14, 199, 5)


@pytest.mark.slow
def test_greedy_beats_the_random_agent():
    env = makeenv.make("SushiGo")
    results = env.evaluate("random", 600, level=1, seed=2)
    assert results.win_rate < 0.08  # 20% is even; measured 1.1%


@pytest.mark.slow
def test_search_beats_greedy():
    env = makeenv.make("SushiGo")
    results = env.evaluate(env.bot(3), 60, np.zeros(16), level=1, seed=3)
    assert results.win_rate > 0.35  # 20% is even; measured 75%


def test_the_learned_level_loads_and_reads_only_its_own_state():
    env = makeenv.make("SushiGo")
    assert list(env.levels) == [0, 1, 2, 3]
    bot = env.opponents(2)[0]
    assert bot.policy is B.learned and bot.data.size > STATE_SIZE_OF_A_NETWORK
    data = bot.initial_data()
    for state in sampled_states(40, 12):
        action, _ = B.learned(state, data)
        assert L.isValidAction(state, action)
        if state[L.S_OVER] < 0.5:  # the same view of another deal: the same move
            same = L.getAgentState(L.sampleEnv(state))
            np.testing.assert_array_equal(same, state)
            assert B.learned(same, data.copy())[0] == action


@pytest.mark.slow
def test_the_learned_level_beats_greedy():
    env = makeenv.make("SushiGo")
    bot = env.opponents(2)[0]
    results = env.evaluate(bot.policy, 1000, bot.initial_data(), level=1, seed=3)
    assert results.win_rate > LEARNED_VS_GREEDY_FLOOR  # 20% is even


def test_the_learned_level_plays_what_a_numpy_forward_pass_scores_highest():
    layers, _ = load_weights(B.WEIGHTS_FILE)
    data = B.LEVELS[2].initial_data()
    checked = exact = 0
    for state in sampled_states(300, 21):
        valid = L.getValidActions(state)
        if valid.sum() < 2:
            continue
        scores = forward(layers, state[None], (valid == 1.0)[None])[1][0]
        action = B.learned(state, data)[0]
        best = scores.max()
        assert scores[action] >= best - 1e-4 * (1.0 + abs(best))  # float32 sums: near-ties may differ
        checked += 1
        exact += action == int(np.argmax(scores))
    assert checked > 150 and exact >= checked - 2


def sampled_states(count: int, seed: int):
    rng = random.Random(seed)
    np.random.seed(seed)
    states = []
    while len(states) < count:
        n = rng.choice([2, 3, 4, 5])
        env = L.initEnv(n)
        for _ in range(rng.randrange(0, 3 * (12 - n) * n + 1)):
            if L.checkEnded(env) != -1:
                break
            L.stepEnv(rng.choice(list(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
        if L.checkEnded(env) == -1:
            states.append(L.getAgentState(env))
        else:
            states.append(L.getPlayerState(env, rng.randrange(n)))
    return states


def test_render_and_words():
    for state in sampled_states(40, 5):
        svg = D.render(state)
        root = ET.fromstring(svg)
        clickable = set(clickable_actions(root))
        valid = set(np.flatnonzero(L.getValidActions(state)).tolist())
        assert clickable == valid  # every valid action, and only those, can be clicked
        words = D.describe_state(state)
        for k in range(12):
            if state[L.S_HAND + k] > 0 and state[L.S_OVER] < 0.5:
                assert L.CARD_NAMES[k] in words.split("\n")[1]
        assert ("you won" in words) == (L.getReward(state) == 1)
    assert D.describe_action(0) == "Take Tempura"
    assert D.describe_action(12).startswith("Use chopsticks")
    assert D.describe_action(13) == "End turn"
    with pytest.raises(ValueError, match="length 199"):
        D.render(np.zeros(5))


def test_bots_play_valid_moves_from_their_own_state():
    values = np.zeros(12)
    for state in sampled_states(30, 9):
        valid = L.getValidActions(state)
        assert valid[B.greedy_action(state, values, 0.0)] == 1.0
        assert valid[B.search_action(state, 20)] == 1.0
        assert valid[B.learned(state, B.LEVELS[2].data.copy())[0]] == 1.0
