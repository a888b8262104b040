"""GoFish: rules edge cases, random play against the figures measured on vis/ENV, determinization,
the bots' strength and what they read, the drawings."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

import makeenv
from makeenv.games.go_fish import bots as B
from makeenv.games.go_fish import draw as D
from makeenv.games.go_fish import logic as L
from tests.games.support import clickable_actions, random_play_counter

# vis/ENV's GoFish, random against random, 200,000 games, measured by running its initEnv,
# getAgentState, getValidActions, stepEnv and checkEnded in a loop mirroring its one_game_numba
# with uniformly random valid actions (see the README)
VIS_MEAN_LENGTH = 173.34
VIS_LENGTH_SD = 16.85
VIS_SEAT_WIN_RATES = (0.2583, 0.2552, 0.2462, 0.2403)

ENV = makeenv.make("GoFish")


def dealt_env(hands: list[dict[int, int]], deck: list[int], turns: int = 0) -> np.ndarray:
    """An env with these hands ({rank: count} per seat), this deck (top first) and seat ``turns % 4``
    choosing whom to ask; the ranks nobody holds are booked by seat 3 (so the counts add up)."""
    env = np.zeros(L.ENV_SIZE)
    env[L.E_BOOK_OWNER : L.E_BOOK_OWNER + 13] = -1.0
    held = np.zeros(13)
    for seat, hand in enumerate(hands):
        for rank, count in hand.items():
            env[L.E_HAND + seat * 13 + rank] = count
            env[L.E_HAND_SIZE + seat] += count
            held[rank] += count
    for card in deck:
        held[card] += 1
    for rank in range(13):
        if held[rank] == 0:
            env[L.E_BOOK_OWNER + rank] = 3
            env[L.E_BOOKS + 3] += 1
    env[L.E_DECK + 52 - len(deck) : L.E_DECK + 52] = deck
    env[L.E_DRAWN] = 52 - len(deck)
    env[L.E_TURNS] = turns
    env[L.E_DRAW_FOR] = -1.0
    env[L.E_RESULT] = -1.0
    return env


def valid(env) -> list[int]:
    return np.flatnonzero(L.getValidActions(L.getAgentState(env))).tolist()


def test_a_successful_ask_takes_every_card_and_the_asker_goes_on():
    env = dealt_env([{6: 2, 1: 1}, {6: 1, 2: 1}, {3: 2}, {4: 1}], [5, 5])
    assert valid(env) == [1, 2, 3]
    L.stepEnv(1, env)  # ask seat 1 ...
    assert valid(env) == [L.ASK_RANK + 1, L.ASK_RANK + 6]  # ... for a rank I hold
    L.stepEnv(L.ASK_RANK + 6, env)
    assert env[L.E_HAND + 6] == 3 and env[L.E_HAND + 13 + 6] == 0 and env[L.E_HAND_SIZE + 1] == 1
    assert L.getCurrentPlayer(env) == 0 and valid(env) == [1, 2, 3]
    assert L.getPlayerState(env, 1)[L.S_ASKED + 2 * 13 + 6] == 1.0  # seat 1 saw seat 0 ask for Sevens


def test_drawing_the_rank_asked_for_goes_on_anything_else_passes():
    env = dealt_env([{6: 1, 1: 1}, {2: 1}, {3: 2}, {4: 1}], [6, 5, 5])
    L.stepEnv(1, env)
    L.stepEnv(L.ASK_RANK + 6, env)  # seat 1 has no Seven: go fish
    assert valid(env) == [L.DRAW] and L.getAgentState(env)[L.S_DRAW_FOR] == 7
    L.stepEnv(L.DRAW, env)  # a Seven: go on
    assert L.getCurrentPlayer(env) == 0 and env[L.E_HAND + 6] == 2 and valid(env) == [1, 2, 3]
    L.stepEnv(3, env)
    L.stepEnv(L.ASK_RANK + 1, env)  # seat 3 has no Two: go fish, draws a Six
    L.stepEnv(L.DRAW, env)
    assert L.getCurrentPlayer(env) == 1 and env[L.E_HAND + 5] == 1


def test_a_book_leaves_the_hand_and_an_empty_hand_draws_five():
    deck = [0, 1, 2, 3, 4, 8]
    env = dealt_env([{9: 3}, {9: 1, 7: 1}, {7: 1}, {7: 2}], deck)
    L.stepEnv(1, env)
    L.stepEnv(L.ASK_RANK + 9, env)  # the fourth Ten: a book, an empty hand, five new cards
    assert env[L.E_BOOK_OWNER + 9] == 0 and env[L.E_BOOKS] == 1
    assert env[L.E_HAND_SIZE] == 5 and [env[L.E_HAND + r] for r in range(5)] == [1] * 5
    assert L.deck_left(env) == 1 and L.getCurrentPlayer(env) == 0
    assert L.getAgentState(env)[9] == 4.0  # my book reads 4, as in vis/ENV


def test_an_empty_hand_with_an_empty_deck_is_skipped():
    env = dealt_env([{6: 1}, {}, {6: 1, 2: 1}, {6: 2, 2: 1}], [], turns=0)
    L.stepEnv(3, env)
    L.stepEnv(L.ASK_RANK + 6, env)  # seat 0 takes both Sevens ...
    assert L.getCurrentPlayer(env) == 0 and env[L.E_HAND + 6] == 3
    L.stepEnv(2, env)
    L.stepEnv(L.ASK_RANK + 6, env)  # ... and the last one: a book, no cards, no deck
    assert env[L.E_HAND_SIZE] == 0
    assert L.getCurrentPlayer(env) == 2  # seat 1 has nothing either: skipped
    assert env[L.E_TURNS] == 2


def test_nobody_to_ask_after_drawing_the_rank_means_drawing_again():
    """vis/ENV would offer no action here (see the README); the asker draws instead."""
    env = dealt_env([{6: 1, 1: 2}, {}, {}, {}], [6, 3, 4, 5, 7])
    env[L.E_PHASE] = L.MUST_DRAW
    env[L.E_DRAW_FOR] = 6
    L.stepEnv(L.DRAW, env)
    assert L.getCurrentPlayer(env) == 0 and valid(env) == [L.DRAW]
    assert L.getAgentState(env)[L.S_DRAW_FOR] == 0  # no rank to draw for now


def test_most_books_wins_and_a_tie_goes_to_the_highest_book():
    env = dealt_env([{}, {}, {}, {}], [])
    owners = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 1]  # seat 1 has four, the others three
    for r, seat in enumerate(owners):
        env[L.E_BOOK_OWNER + r] = seat
    env[L.E_BOOKS : L.E_BOOKS + 4] = [3, 4, 3, 3]
    assert L.winner_of(env) == 1
    owners = [0, 0, 0, 0, 1, 1, 1, 1, 3, 2, 2, 2, 2]  # tied at four: seat 2 holds the King
    for r, seat in enumerate(owners):
        env[L.E_BOOK_OWNER + r] = seat
    env[L.E_BOOKS : L.E_BOOKS + 4] = [4, 4, 4, 1]
    assert L.winner_of(env) == 2
    owners = [1, 1, 1, 1, 0, 0, 0, 0, 3, 2, 2, 2, 0]  # tied at four: seat 0 holds the King
    for r, seat in enumerate(owners):
        env[L.E_BOOK_OWNER + r] = seat
    env[L.E_BOOKS : L.E_BOOKS + 4] = [5, 4, 3, 1]
    assert L.winner_of(env) == 0


def test_the_turn_cap_ends_the_game_without_a_winner():
    env = dealt_env([{6: 1}, {2: 1}, {3: 1}, {4: 1}], [5, 5, 5, 5], turns=L.TURN_CAP - 1)
    assert L.getCurrentPlayer(env) == 3
    L.stepEnv(1, env)
    L.stepEnv(L.ASK_RANK + 4, env)  # seat 0 has no Five: go fish
    assert L.checkEnded(env) == -1
    L.stepEnv(L.DRAW, env)  # a Six: the turn passes, the 400th turn begins
    assert L.checkEnded(env) == 4
    for p in range(4):
        final = L.getPlayerState(env, p)
        assert L.getReward(final) == 0 and final[L.S_WINNER : L.S_WINNER + 4].sum() == 0
        assert np.flatnonzero(L.getValidActions(final)).tolist() == [L.DRAW]


def test_invalid_moves_change_nothing():
    env = dealt_env([{6: 1}, {2: 1}, {3: 1}, {4: 1}], [5])
    before = env.copy()
    for action in (L.DRAW, L.ASK_RANK + 6, 17, -1):
        L.stepEnv(action, env)
        np.testing.assert_array_equal(env, before)


def test_random_play_matches_vis_env():
    """20,000 random games: the mean length within 5 standard errors of vis/ENV's (about 0.35%), its
    spread, and each seat's win rate within 5 standard errors (about 1.5 points)."""
    games = 20_000
    mean, sd, wins, _ = random_play_counter(L, 4)(games, 8)
    assert abs(mean - VIS_MEAN_LENGTH) < 5 * VIS_LENGTH_SD / np.sqrt(games)
    assert abs(sd - VIS_LENGTH_SD) < 1.0
    tolerance = 5 * np.sqrt(0.25 * 0.75 / games)
    assert np.all(np.abs(wins - np.array(VIS_SEAT_WIN_RATES)) < tolerance), wins


def played_states(count: int, seed: int):
    """States of the player to move (some finished games' too) after fisher-and-random play."""
    rng = np.random.default_rng(seed)
    np.random.seed(seed)
    found = []
    while len(found) < count:
        env = L.initEnv()
        for _ in range(int(rng.integers(0, 200))):
            if L.checkEnded(env) != -1:
                break
            state = L.getAgentState(env)
            moves = np.flatnonzero(L.getValidActions(state))
            L.stepEnv(B.fisher_action(state) if rng.random() < 0.7 else int(rng.choice(moves)), env)
        over = L.checkEnded(env) != -1
        found.append((L.getPlayerState(env, int(rng.integers(4))) if over else L.getAgentState(env), env))
    return found


def test_sample_env_keeps_what_the_state_shows_and_deals_the_rest():
    for state, env in played_states(80, 3):
        if state[L.S_OVER] > 0.5:
            continue
        deals = set()
        for _ in range(4):
            sampled = L.sampleEnv(state)
            np.testing.assert_array_equal(L.getAgentState(sampled), state)
            hands = sampled[L.E_HAND : L.E_HAND + 52].reshape(4, 13)
            books = sampled[L.E_BOOK_OWNER : L.E_BOOK_OWNER + 13]
            deck = sampled[L.E_DECK + int(sampled[L.E_DRAWN]) : L.E_DECK + 52].astype(int)
            counts = hands.sum(axis=0) + np.bincount(deck, minlength=13) + 4 * (books >= 0)
            assert counts.tolist() == [4] * 13  # every card somewhere, once
            deals.add(tuple(sampled[: L.E_HAND + 52]))
        me = int(state[L.S_SEAT])
        hidden = env[L.E_HAND_SIZE : L.E_HAND_SIZE + 4].sum() - env[L.E_HAND_SIZE + me]
        if hidden >= 3 and L.deck_left(env) >= 2:
            assert len(deals) > 1


@pytest.mark.parametrize("bot", [B.fisher, B.tracker])
def test_bots_read_only_their_own_state(bot):
    """The bot's move is a function of its state (and memory) alone: the same state from envs that
    differ in what it cannot see (sampleEnv deals the hidden cards anew) gets the same move."""
    for state, _ in played_states(60, 4):
        action, _ = bot(state, np.zeros(16))
        assert L.isValidAction(state, action)
        for _ in range(3):
            again = L.getAgentState(L.sampleEnv(state)) if state[L.S_OVER] < 0.5 else state
            assert bot(again, np.zeros(16))[0] == action


def test_tracker_remembers_whom_it_asked_until_that_hand_grows():
    env = dealt_env([{6: 1, 1: 2}, {2: 1, 3: 1}, {3: 2}, {4: 1}], [5, 5, 5])
    memory = np.zeros(16)
    for expected in (1, L.ASK_RANK + 1):  # the first of the fullest hands, for my pair of Twos
        action, memory = B.tracker(L.getAgentState(env), memory)
        assert action == expected
        L.stepEnv(action, env)
    assert B.lacks(memory, 0, 1) and not B.lacks(memory, 0, 6)
    env[L.E_TURNS] = 4  # my next turn, seat 1's hand unchanged: ask someone else for Twos
    env[L.E_PHASE] = L.CHOOSE_PLAYER
    assert B.tracker(L.getAgentState(env), memory)[0] == 2
    env[L.E_HAND + 13 + 8] = 1  # seat 1 drew a card: it may hold a Two again
    env[L.E_HAND_SIZE + 1] += 1
    assert B.tracker(L.getAgentState(env), memory)[0] == 1 and not B.lacks(memory, 0, 1)


def test_fisher_beats_the_random_agent():
    results = ENV.evaluate("random", 2000, level=1, seed=2)
    assert results.win_rate < 0.08  # 25% is even; measured 3.7%


def test_tracker_beats_the_random_agent_harder_than_the_fisher():
    results = ENV.evaluate("random", 4000, level=2, seed=2)
    assert results.win_rate < 0.03  # measured 2.0% (3.8% against the fisher) over 20,000 games


def test_tracker_beats_fisher():
    results = ENV.evaluate(ENV.bot(2), 4000, np.zeros(16), level=1, seed=3)
    assert results.win_rate > 0.35  # 25% is even; measured 41.4% over 20,000 games


def test_render_and_words():
    for state, _ in played_states(40, 6):
        root = ET.fromstring(D.render(state))
        valid_actions = set(np.flatnonzero(L.getValidActions(state)).tolist())
        clickable = set(clickable_actions(root))
        moving = L.phase_of(state) >= 0 or state[L.S_OVER] > 0.5
        assert clickable == (valid_actions if moving else set())
        words = D.describe_state(state)
        for r in range(13):
            if L.holds(state, r):
                assert L.RANK_NAMES[r] in words
    with pytest.raises(ValueError, match="expected a state of length 132"):
        D.render(np.zeros(5))
