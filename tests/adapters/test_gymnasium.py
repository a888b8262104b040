"""The Gymnasium adapter: Gymnasium's own checker on every registered array game (made through
``gymnasium.make``), and that the env is the game the runner plays: same seats, bots, outcomes."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import makeenv
import makeenv.adapters  # registers makeenv/<Game>  # noqa: F401
from makeenv.adapters import common, to_gymnasium
from makeenv.array.contract import load_array_env
from makeenv.array.errors import InvalidActionError
from makeenv.games.tic_tac_toe import logic as T
from tests.adapters import variants
from tests.adapters.common import ARRAY_GAMES, BIDDING, EXPECTED_WARNINGS

pytestmark = EXPECTED_WARNINGS


@pytest.mark.parametrize("name", ARRAY_GAMES)
def test_check_env_passes_for_every_game(name):
    """check_env on the env gymnasium.make builds (its spec lets it try every render mode)."""
    env = gymnasium.make(f"makeenv/{name}")
    check_env(env.unwrapped)
    assert env.unwrapped.game.name == name


def test_check_env_passes_with_the_mask_in_the_observation_and_a_fixed_seat():
    check_env(gymnasium.make("makeenv/TicTacToe", level=1, seat=1, mask_in_observation=True).unwrapped)
    check_env(to_gymnasium(makeenv.make(BIDDING, players=3), level=2), skip_render_check=True)


def test_gymnasium_make_passes_game_options():
    env = gymnasium.make("makeenv/LiarsDice", level=1, dice=2)
    assert env.unwrapped.game.parameters == {"dice": 2}
    with pytest.raises(ValueError, match="dice=9 is not supported"):
        gymnasium.make("makeenv/LiarsDice", dice=9)


def test_an_episode_against_level_one_from_the_second_seat():
    env = to_gymnasium("TicTacToe", level=1, seat=1)
    observation, info = env.reset(seed=0)
    assert info["seat"] == 1
    assert observation.dtype == np.float32 and observation.shape == (T.STATE_SIZE,)
    assert observation[T.S_THEIRS : T.S_THEIRS + 9].sum() == 1.0  # the bot (X) has moved
    assert info["action_mask"].sum() == 8 and env.action_masks().sum() == 8
    terminated = truncated = False
    reward = 0.0
    while not (terminated or truncated):
        action = int(np.flatnonzero(env.action_masks())[0])
        observation, reward, terminated, truncated, info = env.step(action)
    assert observation[T.S_OVER] == 1.0 and not env.action_masks().any()
    assert reward == {"win": 1.0, "loss": -1.0, "draw": 0.0}[info["result"]]
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_the_adapter_plays_the_runners_game():
    """A random agent does as well through the adapter as in env.evaluate (seats shuffled, level-1
    bots): TicTacToe's random agent loses about 4 games in 5 either way."""
    env = to_gymnasium("TicTacToe", level=1)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    results = {"win": 0, "draw": 0, "loss": 0}
    seats = set()
    for _ in range(1500):
        _, info = env.reset()
        seats.add(info["seat"])
        done = False
        while not done:
            _, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = terminated or truncated
        results[info["result"]] += 1
    runner = makeenv.make("TicTacToe").evaluate("random", 20_000, level=1, seed=5)
    assert seats == {0, 1}
    assert abs(results["loss"] / 1500 - runner.losses / runner.games) < 0.05
    assert abs(results["win"] / 1500 - runner.wins / runner.games) < 0.03


def test_rewards_are_the_agents_returns():
    """The Bidding test game's returns are points minus the mean: the reward is the agent's."""
    env = to_gymnasium(makeenv.make(BIDDING, players=3), level=0)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    distinct = set()
    for _ in range(20):
        env.reset()
        done = False
        while not done:
            _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            done = terminated or truncated
        assert reward == pytest.approx(env.game.getReturns(env.match.array)[info["seat"]])
        distinct.add(round(reward, 6))
    assert len(distinct) > 1


def test_seeded_resets_replay_the_same_games():
    def episode(env, seed):
        observation, _ = env.reset(seed=seed)
        trace = [observation]
        done = False
        while not done:
            observation, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[0]))
            trace.append(observation)
            done = terminated or truncated
        return np.concatenate(trace)

    first, second = to_gymnasium("KuhnPoker", level=1), to_gymnasium("KuhnPoker", level=1)
    runs = [episode(first, 7), episode(second, 7), episode(first, 7)]
    assert all(np.array_equal(runs[0], run) for run in runs[1:])
    assert len({episode(first, seed).tobytes() for seed in range(8)}) > 1


def test_invalid_actions_lose_or_raise():
    env = to_gymnasium("TicTacToe", level=0, seat=0)
    env.reset(seed=0)
    env.step(4)
    taken = int(np.flatnonzero(env.match.state(0)[T.S_THEIRS : T.S_THEIRS + 9])[0])
    _, reward, terminated, truncated, info = env.step(taken)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert f"action {taken}" in info["invalid_action"] and not info["action_mask"].any()
    strict = to_gymnasium("TicTacToe", level=0, seat=0, invalid_action="raise", invalid_reward=-5)
    strict.reset(seed=0)
    with pytest.raises(InvalidActionError, match="the agent"):
        strict.step(9)
    with pytest.raises(TypeError, match="an action is an int"):
        strict.step(None)


def test_options_are_checked():
    with pytest.raises(ValueError, match="TicTacToe has no level 7"):
        to_gymnasium("TicTacToe", level=7)
    with pytest.raises(ValueError, match="seat must be None"):
        to_gymnasium("TicTacToe", seat=2)
    with pytest.raises(ValueError, match="invalid_reward must be finite"):
        to_gymnasium("TicTacToe", invalid_reward=float("nan"))
    with pytest.raises(TypeError, match="game options"):
        to_gymnasium(makeenv.make("TicTacToe"), players=2)


def test_reading_the_game_before_reset_or_at_the_wrong_time_says_what_to_do():
    env = to_gymnasium("TicTacToe", level=0, seat=0)
    with pytest.raises(RuntimeError, match=r"TicTacToe: no game has started yet; call reset\(\) first"):
        env.action_masks()
    env.reset(seed=0)
    running = env.match
    with pytest.raises(RuntimeError, match="still running at step 0, so it has no outcome yet"):
        common.final_outcome(running)
    ended = running.copy()
    for action in (0, 3, 1, 4, 2):  # X takes the top row
        ended.step(action)
    assert common.final_outcome(ended).winners == (0,)
    with pytest.raises(RuntimeError, match="over at step 5, so nobody is to move"):
        common.player_to_move(ended)
    assert common.player_to_move(running) == 0


def test_render_modes_of_an_svg_game_and_a_png_game():
    svg = gymnasium.make("makeenv/ConnectFour", render_mode="svg")
    svg.reset(seed=0)
    assert "<svg" in svg.render()
    png = to_gymnasium(load_array_env(variants.png_game()), render_mode="rgb_array", seat=0)
    png.reset(seed=0)
    png.step(1)  # Rock: pixel 1 of the top row turns red
    frame = png.render()
    assert frame.shape == (2, 3, 3) and frame[0, 1].tolist() == [255, 0, 0]
