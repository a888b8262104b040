"""TicTacToe: the contract, the rules replayed against OpenSpiel, the bots' strength, the drawings."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import makeenv
from makeenv.games.tic_tac_toe import bots as B
from makeenv.games.tic_tac_toe import draw as D
from makeenv.games.tic_tac_toe import logic as L
from tests.games.support import clickable_actions, openspiel_random_outcomes

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import minimax  # noqa: E402  (needs pyspiel)

GAME = pyspiel.load_game("tic_tac_toe")
ENV = makeenv.make("TicTacToe")


def test_sizes():
    """The layout sizes (the contract itself: tests/games/test_every_game.py)."""
    assert (ENV.getActionSize(), ENV.getStateSize(), ENV.getAgentSize()) == (9, 23, 2)


def test_random_play_matches_openspiel():
    """Uniform random play: the same outcome distribution and game length as OpenSpiel (measured here)."""
    results = ENV.evaluate("random", 20_000, seed=1)
    first, second = results.by_seat
    ours = np.array([first.wins / first.games, second.wins / second.games, results.draws / results.games])
    theirs, their_length = openspiel_random_outcomes(GAME, 10_000, seed=1)
    # 5 standard errors of the difference between the two samples (p near 0.6: about 0.005 + 0.005)
    np.testing.assert_allclose(ours, theirs, atol=0.035)
    np.testing.assert_allclose(ours, [0.582, 0.291, 0.127], atol=0.025)  # OpenSpiel, 100,000 games
    assert abs(results.mean_steps - their_length) < 0.1


def test_perfect_table_agrees_with_openspiel_alpha_beta():
    """Level 2's table gives the value OpenSpiel's alpha-beta search finds, on random positions."""
    rng = random.Random(5)
    for _ in range(150):
        os_state, env = GAME.new_initial_state(), L.initEnv()
        for _ in range(rng.randrange(2, 7)):
            if os_state.is_terminal():
                break
            action = rng.choice(os_state.legal_actions())
            os_state.apply_action(action)
            L.stepEnv(action, env)
        if os_state.is_terminal():
            continue
        mover = os_state.current_player()
        value, _ = minimax.alpha_beta_search(GAME, os_state, maximizing_player_id=mover)
        for action in np.flatnonzero(
            B.best_moves(L.getAgentState(env))
        ):  # every move level 2 may choose keeps the game's value
            child = os_state.clone()
            child.apply_action(int(action))
            child_value = (
                child.returns()[mover]
                if child.is_terminal()
                else minimax.alpha_beta_search(GAME, child, maximizing_player_id=mover)[0]
            )
            assert child_value == value


@pytest.mark.parametrize("bot_seat", [0, 1])
def test_level2_never_loses_against_any_line(bot_seat):
    """Every opponent move at every turn, and every move level 2 may pick: level 2 never loses."""
    positions = 0
    stack = [L.initEnv()]
    while stack:
        env = stack.pop()
        positions += 1
        ended = L.checkEnded(env)
        if ended != -1:
            assert ended != 1 - bot_seat, f"level 2 lost: {env}"
            continue
        state = L.getAgentState(env)
        moves = B.best_moves(state) if L.getCurrentPlayer(env) == bot_seat else L.getValidActions(state)
        for action in np.flatnonzero(moves):
            stack.append(L.stepEnv(int(action), env.copy()))
    assert positions > 5_000  # the whole tree of lines was walked


def test_level2_plays_the_moves_it_names():
    """The bot itself picks among best_moves, at random (both drawing moves of an empty board appear)."""
    state = L.getAgentState(L.initEnv())
    picks = {B.perfect(state, np.zeros(1))[0] for _ in range(200)}
    assert len(picks) > 4 and picks <= set(range(9))
    env = L.initEnv()
    L.stepEnv(0, env)  # after a corner, only the centre avoids a loss
    assert {B.perfect(L.getAgentState(env), np.zeros(1))[0] for _ in range(50)} == {4}


def test_level1_wins_then_blocks():
    env = L.initEnv()
    for action in (0, 3, 1, 4):  # X: 0, 1 (wins at 2); O: 3, 4 (would win at 5)
        L.stepEnv(action, env)
    assert B.win_block_random(L.getAgentState(env), np.zeros(1))[0] == 2
    env = L.initEnv()
    for action in (0, 3, 8, 4):  # X cannot win now; O threatens 5
        L.stepEnv(action, env)
    assert B.win_block_random(L.getAgentState(env), np.zeros(1))[0] == 5


def test_levels_beat_random():
    level1 = ENV.evaluate("random", 4_000, level=1, seed=3)
    level2 = ENV.evaluate("random", 2_000, level=2, seed=3)
    assert level1.win_rate < 0.08 and level1.losses > 0.7 * level1.games  # measured: 3.7% / 79.8%
    assert level2.wins == 0 and level2.losses > 0.8 * level2.games  # measured: 0% / 87.3%


@pytest.mark.slow
def test_level2_beats_level1():
    results = ENV.evaluate(ENV.bot(2), 2_000, np.zeros(16), level=1, seed=4)
    assert results.losses == 0 and results.win_rate > 0.4  # measured: 46.3% wins, 53.7% draws


def test_render_and_descriptions_along_random_games():
    rng = random.Random(9)
    seen_over = 0
    for _ in range(40):
        env = L.initEnv()
        while True:
            for seat in (0, 1):
                state = L.getPlayerState(env, seat)
                svg = ET.fromstring(D.render(state))
                clickable = clickable_actions(svg)
                expected = list(np.flatnonzero(L.getValidActions(state))) if state[L.S_MY_TURN] else []
                assert clickable == expected
                text = D.describe_state(state)
                assert text.count("row ") >= 3 and ("your turn" in text) == bool(state[L.S_MY_TURN])
            if L.checkEnded(env) != -1:
                seen_over += 1
                text = D.describe_state(L.getPlayerState(env, 0))
                assert "Game over" in text
                break
            L.stepEnv(rng.choice(list(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
    assert seen_over == 40
    names = [D.describe_action(a) for a in range(9)]
    assert len(set(names)) == 9 and names[4] == "Mark row 2, column 2 (centre)"
    assert "Unknown" in D.describe_action(9)
    with pytest.raises(ValueError, match="length 23"):
        D.render(np.zeros(5))


def test_render_shows_the_result():
    env = L.initEnv()
    for action in (0, 3, 1, 4, 2):  # X completes the top row
        L.stepEnv(action, env)
    won, lost = D.render(L.getPlayerState(env, 0)), D.render(L.getPlayerState(env, 1))
    assert "You won!" in won and "You lost" in lost and "<line" in won
    assert "data-action" not in won and "Game over: you lost." in D.describe_state(L.getPlayerState(env, 1))
