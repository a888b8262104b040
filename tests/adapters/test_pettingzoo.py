"""The PettingZoo adapter: PettingZoo's own checkers on every registered array game, and what
the checkers cannot see (outcomes, invalid actions, rounds of simultaneous moves, pictures)."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test
from pettingzoo.test.seed_test import parallel_seed_test

import makeenv
from makeenv.adapters import to_pettingzoo
from makeenv.array.contract import load_array_env
from makeenv.array.errors import GameError, InvalidActionError
from makeenv.games.tic_tac_toe import logic as T
from tests.adapters import variants
from tests.adapters.common import ARRAY_GAMES, BIDDING, EXPECTED_WARNINGS

pytestmark = EXPECTED_WARNINGS


@pytest.mark.parametrize("name", ARRAY_GAMES)
def test_pettingzoo_checkers_pass_for_every_game(name):
    """api_test and seed_test (and the Parallel ones for simultaneous games) pass."""
    env = makeenv.make(name)
    api_test(to_pettingzoo(env), num_cycles=40)
    seed_test(lambda: to_pettingzoo(env), num_cycles=20)
    if env.simultaneous:
        parallel_api_test(to_pettingzoo(env, parallel=True), num_cycles=40)
        parallel_seed_test(lambda: to_pettingzoo(env, parallel=True), num_cycles=20)


def test_checkers_pass_for_a_three_player_simultaneous_game_with_returns():
    env = makeenv.make(BIDDING, players=3)
    api_test(to_pettingzoo(env), num_cycles=40)
    parallel_api_test(to_pettingzoo(env, parallel=True), num_cycles=40)
    parallel_seed_test(lambda: to_pettingzoo(env, parallel=True), num_cycles=20)


def play_aec(env, moves):
    """Play ``moves`` (one per live turn), then the dead steps; returns the final rewards and infos."""
    rewards, infos = {}, {}
    moves = iter(moves)
    for agent in env.agent_iter(1000):
        _, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            rewards[agent], infos[agent] = reward, info
            env.step(None)
        else:
            env.step(next(moves))
    return rewards, infos


def test_a_won_tictactoe_game_pays_the_winner():
    env = to_pettingzoo("TicTacToe")
    env.reset(seed=0)
    assert env.agent_selection == "player_0"
    observation = env.observe("player_1")
    assert not observation["action_mask"].any()  # not player 1's turn
    assert env.observe("player_0")["action_mask"].tolist() == [1] * 9
    rewards, infos = play_aec(env, [0, 3, 1, 4, 2])  # X takes the top row
    assert rewards == {"player_0": 1.0, "player_1": -1.0}
    assert infos["player_0"]["result"] == "win" and infos["player_1"]["result"] == "loss"
    assert env.agents == []


def test_rewards_are_the_games_returns():
    """A game with getReturns (the Bidding test game, 3 players) pays exactly those."""
    env = makeenv.make(BIDDING, players=3)
    pz = to_pettingzoo(env)
    rng = np.random.default_rng(0)
    distinct = 0
    for seed in range(10):
        pz.reset(seed=seed)
        final = {}
        for agent in pz.agent_iter(1000):
            observation, reward, terminated, truncated, _ = pz.last()
            if terminated or truncated:
                final[agent] = reward
                pz.step(None)
            else:
                pz.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        expected = env.getReturns(pz.match.array)
        assert final == {f"player_{p}": pytest.approx(expected[p]) for p in range(3)}
        distinct += len(set(final.values())) > 1
    assert distinct > 0  # not only all-equal outcomes


def test_an_invalid_action_loses_the_game_for_its_player():
    env = to_pettingzoo("TicTacToe")
    env.reset(seed=0)
    env.step(4)
    env.step(4)  # player 1 plays the taken centre
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": -1.0}
    assert "player_1" in env.infos["player_1"]["invalid_action"]
    assert "4" in env.infos["player_1"]["invalid_action"] and env.infos["player_0"] == {}


def test_invalid_action_raise_names_the_player_and_changes_nothing():
    env = to_pettingzoo("TicTacToe", invalid_action="raise")
    env.reset(seed=0)
    env.step(4)
    before = env.match.array.copy()
    with pytest.raises(InvalidActionError, match="player_1"):
        env.step(4)
    assert np.array_equal(env.match.array, before) and env.agent_selection == "player_1"
    with pytest.raises(TypeError, match="an action is an int"):
        env.step("centre")


def test_bad_options_get_clear_errors():
    with pytest.raises(RuntimeError, match=r"TicTacToe: no game has started yet; call reset\(\) first"):
        to_pettingzoo("TicTacToe").observe("player_0")
    with pytest.raises(ValueError, match="invalid_action='forfeit'"):
        to_pettingzoo("TicTacToe", invalid_action="forfeit")
    with pytest.raises(ValueError, match="turn-based"):
        to_pettingzoo("TicTacToe", parallel=True)
    with pytest.raises(ValueError, match=r"render_mode='rgb_array' is not offered \(TicTacToe draws SVG"):
        to_pettingzoo("TicTacToe", render_mode="rgb_array")


def test_parallel_rounds_of_rock_paper_scissors():
    env = to_pettingzoo("RockPaperScissors", parallel=True)
    observations, _ = env.reset(seed=1)
    assert observations["player_1"]["action_mask"].tolist() == [1, 1, 1, 0]  # choices, before its turn
    rock, paper, confirm = 1, 2, 3
    observations, rewards, terminations, _, _ = env.step({"player_0": rock, "player_1": paper})
    assert not any(terminations.values())
    assert observations["player_0"]["observation"][3 + paper] == 1.0  # now both choices show
    assert observations["player_0"]["action_mask"].tolist() == [0, 0, 0, 1]
    _, rewards, terminations, _, infos = env.step({"player_0": confirm, "player_1": confirm})
    assert rewards == {"player_0": -1.0, "player_1": 1.0} and all(terminations.values())
    assert infos["player_1"]["result"] == "win" and env.agents == []


def test_parallel_refuses_a_game_whose_rounds_are_not_in_seat_order():
    env = to_pettingzoo(load_array_env(variants.player_one_first_game()), parallel=True)
    with pytest.raises(GameError, match="starts with player 0, but player 1 is to move"):
        env.reset(seed=0)


def test_render_modes():
    env = to_pettingzoo("TicTacToe", render_mode="svg")
    assert env.metadata["render_modes"] == ["ansi", "svg"]
    env.reset(seed=0)
    env.step(4)
    picture = env.render()
    assert isinstance(picture, str) and "<svg" in picture
    text = to_pettingzoo("TicTacToe", render_mode="ansi")
    text.reset(seed=0)
    assert isinstance(text.render(), str) and text.render()


def test_rgb_array_for_games_that_draw_png():
    env = to_pettingzoo(load_array_env(variants.png_game()), render_mode="rgb_array", render_player=0)
    assert "rgb_array" in env.metadata["render_modes"]
    env.reset(seed=0)
    env.step(2)  # player 0 picks Paper: its pixel 2 turns red
    frame = env.render()
    assert frame.shape == (2, 3, 3) and frame.dtype == np.uint8
    assert frame[0, 2].tolist() == [255, 0, 0] and frame[0, 0].tolist() == [0, 0, 0]


def test_isolated_matches_stay_reproducible_when_interleaved():
    """Two seeded matches of a game that deals at random, stepped in turns, play as they would alone."""
    env = makeenv.make("KuhnPoker")

    def play(match, moves=3):
        states = [match.state(0).copy()]
        for _ in range(moves):
            if match.over:
                break
            match.step(match.valid_action_ids()[0])
            states.append(match.state(0).copy())
        return states

    alone = play(env.new_match(11, isolated=True))
    first, second = env.new_match(11, isolated=True), env.new_match(12, isolated=True)
    interleaved = []
    for _ in range(3):
        interleaved.append(first.state(0).copy())
        for match in (first, second):
            if not match.over:
                match.step(match.valid_action_ids()[0])
    interleaved.append(first.state(0).copy())
    assert all(np.array_equal(a, b) for a, b in zip(alone, interleaved))
    hands = {tuple(env.new_match(seed, isolated=True).state(0)) for seed in range(12)}
    assert len(hands) == 3  # the seeds deal each of the three cards


def test_valid_actions_of_a_player_not_to_move():
    match = makeenv.make("RockPaperScissors").new_match(0)
    assert match.current_player == 0
    assert match.valid_actions(1).tolist() == [1.0, 1.0, 1.0, 0.0]
    match.step(1)
    assert match.valid_actions(0).tolist() == [1.0, 1.0, 1.0, 0.0]  # its state shows no phase change yet
    ttt = makeenv.make("TicTacToe").new_match(0)
    ttt.step(4)
    assert ttt.valid_actions(0)[4] == 0.0 and ttt.valid_actions(0).sum() == T.CELLS - 1
