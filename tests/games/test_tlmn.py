"""TLMN: the chopping table, pass lockout and re-opening, instant-win re-deals, the card choice,
random play against the figures measured on vis/ENV, determinization, the bots' strength, the
drawings."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from numba import njit

import makeenv
from makeenv.games.tlmn import bots as B
from makeenv.games.tlmn import draw as D
from makeenv.games.tlmn import logic as L
from tests.games.support import clickable_actions, random_play_counter

# vis/ENV's TLMN, random against random, 200,000 games (see the README): a loop over its own
# initEnv / check_player_hand (re-deal) / getAgentState / getValidActions / stepEnv / checkEnded
# with uniformly random valid actions, as its one_game_numba plays them; every action counted.
VIS_MEAN_LENGTH = 68.38
VIS_LENGTH_SD = 13.87
VIS_SEAT_WIN_RATES = (0.2667, 0.2406, 0.2446, 0.2482)

ENV = makeenv.make("TLMN")
LEARNED_VS_SHEDDER_FLOOR = 0.28  # one L2 vs three L1: measured 31.4% over 20,000 games (s.e. 0.33); a shedder 24.9%


def card(text: str) -> int:
    """ "7D" -> the Seven of Diamonds; ranks 3..9, T, J, Q, K, A, 2; suits S C D H."""
    rank = "3456789TJQKA2".index(text[:-1])
    return 4 * rank + "SCDH".index(text[-1])


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


def position(hands: list[str], to_move: int, table: str = "", owner: int | None = None, active=None) -> np.ndarray:
    """An env with these hands (the other cards played), ``table`` on the table played by
    ``owner`` (the player to move leads when there is none), ``active`` the seats in the trick."""
    players = len(hands)
    env = np.zeros(L.ENV_SIZE)
    env[L.E_WHERE : L.E_WHERE + 52] = L.W_PLAYED
    for seat, hand in enumerate(hands):
        for c in cards(hand):
            env[L.E_WHERE + c] = seat
        env[L.E_COUNTS + seat] = len(hand.split())
    env[L.E_PLAYERS] = players
    env[L.E_RESULT] = -1.0
    env[L.E_TO_MOVE] = to_move
    env[L.E_OWNER] = to_move if owner is None else owner
    env[L.E_TOP] = -1.0
    for c in cards(table) if table else []:
        env[L.E_TABLE + c] = 1.0
    for seat in range(players):
        env[L.E_ACTIVE + seat] = 1.0 if active is None or seat in active else 0.0
    return env


def plays(env) -> set[str]:
    """The valid actions of the player to move, named by the cards they put down ("pass" too)."""
    state = L.getAgentState(env)
    named = set()
    for a in np.flatnonzero(L.getValidActions(state)):
        named.add("pass" if a == L.PASS else " ".join(D.card_short(c) for c in D.action_cards(state, a)))
    return named


def action_of(kind: int, top: str) -> int:
    return int(np.flatnonzero((L.ACTION_KIND == kind) & (L.ACTION_TOP == card(top)))[0])


BOMBS = "5S 5C 5D 5H 8S 8C 9S 9C TS TC JS JC 2H"  # four Fives, 4 consecutive pairs 8..J, Two of Hearts


@pytest.mark.parametrize(
    "table, follows",
    [
        # a single Two: a higher Two, four of a kind, 3 or 4 consecutive pairs
        ("2D", {"2♥", "5♠ 5♣ 5♦ 5♥", "8♠ 8♣ 9♠ 9♣ 10♠ 10♣", "9♠ 9♣ 10♠ 10♣ J♠ J♣", "8♠ 8♣ 9♠ 9♣ 10♠ 10♣ J♠ J♣"}),
        # a pair of Twos: four of a kind or 4 consecutive pairs (not 3)
        ("2S 2D", {"5♠ 5♣ 5♦ 5♥", "8♠ 8♣ 9♠ 9♣ 10♠ 10♣ J♠ J♣"}),
        # a triple of Twos stands
        ("2S 2C 2D", set()),
        # 3 consecutive pairs: a higher run of 3, four of a kind, 4 consecutive pairs
        (
            "6S 6C 7S 7C 8D 8H",
            {"9♠ 9♣ 10♠ 10♣ J♠ J♣", "8♠ 8♣ 9♠ 9♣ 10♠ 10♣", "5♠ 5♣ 5♦ 5♥", "8♠ 8♣ 9♠ 9♣ 10♠ 10♣ J♠ J♣"},
        ),
        # four of a kind: a higher one, 4 consecutive pairs
        ("4S 4C 4D 4H", {"5♠ 5♣ 5♦ 5♥", "8♠ 8♣ 9♠ 9♣ 10♠ 10♣ J♠ J♣"}),
        ("6S 6C 6D 6H", {"8♠ 8♣ 9♠ 9♣ 10♠ 10♣ J♠ J♣"}),
        # 4 consecutive pairs: only higher ones
        ("6S 6C 7S 7C 8D 8H 9D 9H", {"8♠ 8♣ 9♠ 9♣ 10♠ 10♣ J♠ J♣"}),
        ("9D 9H TD TH JD JH QS QH", set()),
        # no bomb chops a card that is not a Two
        ("AH", {"2♥"}),
    ],
)
def test_chopping_table(table, follows):
    env = position(["KD", BOMBS, "KH", "QD"], to_move=1, table=table, owner=0)
    assert plays(env) - {"pass"} >= follows
    bombs_and_twos = {p for p in plays(env) if p != "pass" and (len(p.split()) >= 4 or p.startswith("2"))}
    assert bombs_and_twos == follows


def test_same_kind_must_be_higher_and_the_same_length():
    hand = "3S 4S 5S 6S 7S 7D 8H 9C QD QH"
    env = position(["KS", hand, "4D", "2C"], to_move=1, table="4C 5C 6C", owner=0)
    assert plays(env) == {"pass", "5♠ 6♠ 7♠", "5♠ 6♠ 7♦", "6♠ 7♠ 8♥", "7♠ 8♥ 9♣"}
    env = position(["KS", hand, "4D", "2C"], to_move=1, table="7C 7H", owner=0)
    assert plays(env) == {"pass", "Q♦ Q♥"}  # 7♠ 7♦ is lower than 7♣ 7♥


def test_lead_cannot_pass_and_companions_are_the_lowest_suits():
    env = position(["7S 7C 7H 8D 9S", "4D", "5D", "6D"], to_move=0)
    state = L.getAgentState(env)
    assert not L.isValidAction(state, L.PASS)
    assert {"7♠ 7♣", "7♠ 7♥", "7♠ 7♣ 7♥", "7♠ 8♦ 9♠"} <= plays(env)
    L.stepEnv(action_of(L.K_PAIR, "7H"), env)  # the pair topped by 7♥ takes 7♠, keeps 7♣
    assert sorted(np.flatnonzero(env[L.E_TABLE : L.E_TABLE + 52])) == cards("7S 7H")
    assert env[L.E_WHERE + card("7C")] == 0 and env[L.E_COUNTS + 0] == 3


def test_a_pass_locks_out_until_a_two_or_a_bomb_reopens_the_trick():
    env = position(["3S 9S 2S 4H", "5D 8C KS 2H", "6H TD 2C QS", "7H JS 3C 3D"], to_move=0)
    L.stepEnv(action_of(L.K_SINGLE, "3S"), env)  # 0 leads
    assert L.getCurrentPlayer(env) == 1
    L.stepEnv(L.PASS, env)  # 1 passes: out of this trick
    L.stepEnv(action_of(L.K_SINGLE, "6H"), env)  # 2
    L.stepEnv(action_of(L.K_SINGLE, "7H"), env)  # 3
    L.stepEnv(action_of(L.K_SINGLE, "9S"), env)  # 0
    assert L.getCurrentPlayer(env) == 2  # 1 is skipped
    state = L.getPlayerState(env, 0)
    assert list(state[L.S_ACTIVE : L.S_ACTIVE + 3]) == [0.0, 1.0, 1.0]  # seat 1 shows as passed
    L.stepEnv(action_of(L.K_SINGLE, "2C"), env)  # 2 plays a Two: everybody is back in
    assert env[L.E_ACTIVE : L.E_ACTIVE + 4].tolist() == [1.0] * 4
    assert L.getCurrentPlayer(env) == 3
    L.stepEnv(L.PASS, env)
    assert L.getCurrentPlayer(env) == 0
    L.stepEnv(L.PASS, env)
    assert L.getCurrentPlayer(env) == 1  # the player who passed before may now chop or beat the Two
    assert plays(env) == {"pass", "2♥"}
    L.stepEnv(L.PASS, env)
    assert L.getCurrentPlayer(env) == 2  # everybody else passed: 2 leads a fresh trick
    state = L.getAgentState(env)
    assert not state[L.S_TABLE : L.S_TABLE + 52].any() and not state[L.S_OWNER : L.S_OWNER + 3].any()
    assert not L.isValidAction(state, L.PASS)
    L.stepEnv(action_of(L.K_SINGLE, "TD"), env)
    assert env[L.E_ACTIVE : L.E_ACTIVE + 4].tolist() == [1.0] * 4  # a new trick lets everybody in


def test_a_bomb_reopens_the_trick_too():
    env = position(["3S 3C 4S 4C 5S 5C KH", "6D 7D", "8S 8C 8D 8H QH", "9H TH"], to_move=0)
    L.stepEnv(action_of(L.K_PAIRS3, "5C"), env)  # 0 leads 3 consecutive pairs
    L.stepEnv(L.PASS, env)  # 1 passes: out
    assert env[L.E_ACTIVE + 1] == 0.0 and L.getCurrentPlayer(env) == 2
    L.stepEnv(action_of(L.K_QUAD, "8H"), env)  # 2 chops with four Eights: everybody is back in
    assert env[L.E_ACTIVE : L.E_ACTIVE + 4].tolist() == [1.0] * 4
    L.stepEnv(L.PASS, env)  # 3
    L.stepEnv(L.PASS, env)  # 0
    assert L.getCurrentPlayer(env) == 1 and plays(env) == {"pass"}


def test_the_first_player_out_wins_and_the_game_ends():
    env = position(["3S", "4S 5S", "6S 7S", "8S 9S"], to_move=0)
    assert L.checkEnded(env) == -1
    L.stepEnv(action_of(L.K_SINGLE, "3S"), env)
    assert L.checkEnded(env) == 0
    for seat in range(4):
        final = L.getPlayerState(env, seat)
        assert L.getReward(final) == int(seat == 0)
        assert np.flatnonzero(L.getValidActions(final)).tolist() == [L.PASS]
        assert [a for a in range(L.NUM_ACTIONS) if L.isValidAction(final, a)] == [L.PASS]
        assert final[L.S_WINNER + (0 - seat) % 4] == 1.0


def test_instant_wins_are_dealt_again():
    hands = {
        "four Twos": ("2S 2C 2D 2H 3S 4S 6S 8S 9S TS JS QS KS", True),
        "twelve ranks": ("3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 3C", True),
        "five consecutive pairs": ("3S 3C 4S 4C 5S 5C 6S 6C 7S 7C 9D JD KD", True),
        "four consecutive pairs": ("3S 3C 4S 4C 5S 5C 6S 6C 8S 9C JD KD 2D", False),
        "eleven ranks and a Two": ("3S 4S 5S 6S 7S 8S 9S TS JS QS KS 2S 2C", False),
        "pairs through the Two": ("JS JC QS QC KS KC AS AC 2S 2C 3D 5D 7D", False),
    }
    for name, (hand, instant) in hands.items():
        env = position([hand, "", "", ""], to_move=0)
        assert L.instant_win(env, 0) == instant, name
    np.random.seed(4)
    for _ in range(3000):
        env = L.initEnv(4)
        assert not any(L.instant_win(env, p) for p in range(4))
        assert sorted(np.bincount(env[:52].astype(int), minlength=4).tolist()) == [13] * 4
        assert L.getCurrentPlayer(env) == 0  # seat 0 leads, whoever holds the Three of Spades


def test_fewer_players_leave_cards_undealt():
    np.random.seed(2)
    for players in (2, 3):
        env = L.initEnv(players)
        assert np.count_nonzero(env[:52] == L.W_UNDEALT) == 52 - 13 * players
        state = L.getPlayerState(env, players - 1)
        shown = players - 1  # the others' counts and pass flags; the slots of absent seats stay 0
        assert state[L.S_COUNTS : L.S_COUNTS + 3].tolist() == [13.0] * shown + [0.0] * (3 - shown)
        assert state[L.S_ACTIVE : L.S_ACTIVE + 3].tolist() == [1.0] * shown + [0.0] * (3 - shown)
        rng = random.Random(players)
        while L.checkEnded(env) == -1:
            valid = np.flatnonzero(L.getValidActions(L.getAgentState(env)))
            L.stepEnv(int(rng.choice(valid.tolist())), env)
        assert 0 <= L.checkEnded(env) < players


def test_random_play_matches_vis_env():
    """4000 random games: the mean length within 5 standard errors of vis/ENV's (about 1.6%), its
    spread, and each seat's win rate within 5 standard errors."""
    games = 4000
    mean, sd, wins, _ = random_play_counter(L, 4)(games, 8)
    assert abs(mean - VIS_MEAN_LENGTH) < 5 * VIS_LENGTH_SD / np.sqrt(games)
    assert abs(sd - VIS_LENGTH_SD) < 1.5
    tolerance = 5 * np.sqrt(0.25 * 0.75 / games)
    assert np.all(np.abs(wins - np.array(VIS_SEAT_WIN_RATES)) < tolerance), wins


def dealt_states(count: int, seed: int, players: int = 4):
    """States of the player to move after some shedder-and-random play, and their envs."""
    rng = random.Random(seed)
    np.random.seed(seed)
    found = []
    while len(found) < count:
        env = L.initEnv(players)
        for _ in range(rng.randrange(0, 60)):
            if L.checkEnded(env) != -1:
                break
            state = L.getAgentState(env)
            if rng.random() < 0.7:
                action = B.shedder_action(state)
            else:
                action = rng.choice(np.flatnonzero(L.getValidActions(state)).tolist())
            L.stepEnv(int(action), env)
        over = L.checkEnded(env) != -1
        found.append((L.getPlayerState(env, rng.randrange(players)) if over else L.getAgentState(env), env))
    return found


@pytest.mark.parametrize("players", (4, 3))
def test_sample_env_deals_only_what_the_state_hides(players):
    for state, env in dealt_states(40, 3, players):
        if state[L.S_OVER] > 0.5:
            continue
        deals = set()
        for _ in range(4):
            sampled = L.sampleEnv(state)
            assert L.getCurrentPlayer(sampled) == L.getCurrentPlayer(env)
            np.testing.assert_array_equal(L.getAgentState(sampled), state)
            np.testing.assert_array_equal(sampled[L.E_COUNTS : L.E_COUNTS + 4], env[L.E_COUNTS : L.E_COUNTS + 4])
            assert (sampled[L.E_KIND], sampled[L.E_TOP]) == (env[L.E_KIND], env[L.E_TOP]) or (
                env[L.E_OWNER] == env[L.E_TO_MOVE]
            )
            deals.add(tuple(sampled[:52]))
        if sum(state[L.S_COUNTS : L.S_COUNTS + 3]) >= 2:
            assert len(deals) > 1


@njit
def seed_numba(seed: int) -> None:
    np.random.seed(seed)


def test_bots_play_valid_moves_from_their_own_state():
    for state, env in dealt_states(30, 9):
        valid = L.getValidActions(state)
        assert valid[B.shedder_action(state)] == 1.0
        assert valid[B.rollouts_action(state, 3)] == 1.0
        assert valid[B.learned_action(state, B.LEVELS[2].data.copy())] == 1.0
        if state[L.S_OVER] > 0.5:
            continue
        # the other hands dealt differently: the same state, so the same choice
        other = L.sampleEnv(state)
        assert not np.array_equal(other[:52], env[:52]) or sum(state[L.S_COUNTS : L.S_COUNTS + 3]) < 8
        seed_numba(1)
        first = B.rollouts_action(L.getAgentState(env), 3)
        seed_numba(1)
        assert B.rollouts_action(L.getAgentState(other), 3) == first


def test_shedder_goes_out_when_it_can_and_keeps_its_two():
    env = position(["7S 8D 9H", "4D 4H KS", "5D", "6D"], to_move=0)
    assert B.shedder_action(L.getAgentState(env)) == action_of(L.K_STRAIGHT, "9H")
    env = position(["3S 5C 6D 9H JS QS KS 2S", "QH AS 3C 4C 6S 9C JH TD", "5D 8C TH 7C JD QD KD KH", "4S"], 1, "8D", 0)
    env[L.E_COUNTS + 3] = 9  # nobody is close to going out
    assert B.shedder_action(L.getAgentState(env)) == action_of(L.K_SINGLE, "9C")  # the cheapest beat
    env = position(["3S 5C 6D 9H JS QS KS 2S", "2H 4C 6S 9C JH TD 8H 7D", "5D 8C TH 7C JD", "4S"], 1, "AD", 0)
    env[L.E_COUNTS + 3] = 9
    assert B.shedder_action(L.getAgentState(env)) == L.PASS  # a Two to spare early on: keep it


def test_sizes():
    assert (ENV.getActionSize(), ENV.getStateSize(), ENV.getAgentSize()) == (403, 177, 4)


@pytest.mark.slow
def test_shedder_beats_the_random_agent():
    results = ENV.evaluate("random", 1000, level=1, seed=2)
    assert results.win_rate < 0.06  # 25% is even; measured 1.8%


@pytest.mark.slow
def test_rollouts_beat_the_shedder():
    results = ENV.evaluate(ENV.bot(3), 200, np.zeros(16), level=1, seed=3)
    assert results.win_rate > 0.3  # 25% is even; measured 39.2% over 1,000 games


def test_rollouts_budget():
    state = next(s for s, _ in dealt_states(20, 4) if s[L.S_OVER] < 0.5 and L.getValidActions(s).sum() > 2)
    valid = L.getValidActions(state)
    for budget in (0.0, 1.0, 30.0):  # data[0] >= 1: deals a move; else SEARCH_ROUNDS
        assert valid[B.rollouts(state, np.array([budget]))[0]] == 1.0
    moves, wins = B.rollouts_scores(state, 5)
    assert len(moves) >= 2 and wins.max() <= 5 and valid[moves].all()


def test_levels():
    assert list(ENV.levels) == [0, 1, 2, 3]
    assert ENV.bot(1) is B.shedder and ENV.bot(2) is B.learned and ENV.bot(3) is B.rollouts
    data = ENV.opponents(2)[0].initial_data()
    assert data.shape == (B.LEARNED_DATA_SIZE,) and np.all(np.isfinite(data))


def test_learned_with_the_shedder_weight_alone_is_the_shedder():
    only_shedder = np.zeros(B.NUM_FEATURES)
    only_shedder[B.F_SHEDDER] = 1.0
    data = B.learned_data(only_shedder)
    for players in (4, 2):
        for state, _ in dealt_states(60, 21, players):
            assert B.learned_action(state, data) == B.shedder_action(state)


def test_learned_plays_valid_moves_from_its_own_state():
    data = ENV.opponents(2)[0].initial_data()
    differs = 0
    for state, _env in dealt_states(60, 13):
        action = B.learned_action(state, data)
        assert L.getValidActions(state)[action] == 1.0
        if state[L.S_OVER] > 0.5:
            continue
        other = L.getAgentState(L.sampleEnv(state))  # the same view of another deal: the same move
        np.testing.assert_array_equal(other, state)
        assert B.learned_action(other, data.copy()) == action
        differs += action != B.shedder_action(state)
        actions, rows = B.decision_rows(state, data.copy())  # the training rows: the moves it scores
        if len(actions) >= 2:
            scores = rows @ data[: B.NUM_FEATURES]
            assert np.isclose(scores[list(actions).index(action)], scores.max())
    assert differs > 0  # it is not the shedder


def test_learned_beats_the_shedder():
    bot = ENV.opponents(2)[0]
    results = ENV.evaluate(bot.policy, 10_000, bot.initial_data(), level=1, seed=3)
    assert results.win_rate > LEARNED_VS_SHEDDER_FLOOR


def test_render_and_words():
    for state, _ in dealt_states(40, 6):
        root = ET.fromstring(D.render(state))
        clickable = set(clickable_actions(root))
        assert clickable == set(np.flatnonzero(L.getValidActions(state)).tolist()) or not L.moving(state)
        words = D.describe_state(state)
        for c in np.flatnonzero(state[L.S_HAND : L.S_HAND + 52]):
            assert D.card_short(int(c)) in words
    assert D.describe_action(0) == "Pass"
    assert D.describe_action(action_of(L.K_PAIR, "7D")) == "Play a pair of Sevens, highest card the Seven of Diamonds"
    assert D.describe_action(action_of(L.K_STRAIGHT + 2, "9S")).startswith("Play a straight of 5 (Five to Nine)")
    assert "bomb" in D.describe_action(action_of(L.K_PAIRS4, "JC"))
    with pytest.raises(ValueError, match="length 177"):
        D.render(np.zeros(3))
