"""The batched env: N games in one compiled call behave like N games of the runner (same bots,
same outcomes), restart as they end, replay from a seed, and report broken games clearly."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

import makeenv
import makeenv.adapters  # registers makeenv/<Game> (and its vector entry point)  # noqa: F401
from makeenv.adapters import BatchedEnv
from makeenv.array.contract import load_array_env
from makeenv.array.errors import GameError, InvalidActionError
from makeenv.games.tic_tac_toe import logic as T
from tests.adapters import variants
from tests.adapters.common import BIDDING


def play(env, steps, pick=None):
    """``steps`` steps of random valid actions; returns the ended games' results and the infos seen."""
    results, lengths = [], []
    for _ in range(steps):
        actions = env.sample_valid_actions() if pick is None else pick(env)
        _, rewards, terminated, truncated, infos = env.step(actions)
        ended = infos.get("_final_obs", np.zeros(env.num_envs, dtype=bool))
        assert np.array_equal(ended, terminated | truncated)
        assert not rewards[~ended].any()  # rewards only come at the end
        if ended.any():
            assert np.array_equal(infos["result"][ended], np.sign(rewards[ended]))  # TicTacToe: +1/-1/0
            results.extend(infos["result"][ended].tolist())
            lengths.extend(infos["game_length"][ended].tolist())
            assert (infos["final_obs"][ended][:, T.S_OVER] == 1.0).all()  # the final states
        assert env.action_masks().any(axis=1).all()  # every game is at the agent's turn
    return np.array(results), np.array(lengths)


def test_batched_games_are_the_runners_games():
    """Random agent vs level 1 in 64 TicTacToe games side by side: wins, losses and game lengths as
    in env.evaluate."""
    env = BatchedEnv(makeenv.make("TicTacToe"), 64, level=1)
    observations, infos = env.reset(seed=0)
    assert observations.shape == (64, T.STATE_SIZE) and observations.dtype == np.float32
    assert infos["action_mask"].shape == (64, 9) and infos["action_mask"].dtype == np.int8
    # seats are dealt at random: half the games start with the bot's X on the board
    bot_first = observations[:, T.S_THEIRS : T.S_THEIRS + 9].sum(axis=1) == 1
    assert 10 < bot_first.sum() < 54
    results, lengths = play(env, 300)
    runner = makeenv.make("TicTacToe").evaluate("random", 20_000, level=1, seed=2)
    assert len(results) > 3000
    assert abs((results == -1).mean() - runner.losses / runner.games) < 0.04
    assert abs((results == 1).mean() - runner.wins / runner.games) < 0.02
    assert abs(lengths.mean() - runner.mean_steps) < 0.2


def test_a_seed_replays_the_batch():
    def trace(seed):
        env = BatchedEnv(makeenv.make("TicTacToe"), 16, level=1, chunks=2)
        observations, _ = env.reset(seed=seed)
        frames = [observations]
        for _ in range(20):
            observations, rewards, _, _, _ = env.step(env.sample_valid_actions())
            frames += [observations, rewards[:, None].astype(np.float32)]
        return np.concatenate(frames, axis=1)

    assert np.array_equal(trace(3), trace(3))
    assert not np.array_equal(trace(3), trace(4))


def test_invalid_actions_lose_the_game_or_raise():
    env = BatchedEnv(makeenv.make("TicTacToe"), 8, level=1, seat=0)
    env.reset(seed=1)
    env.step(np.full(8, 4))  # the centre, everywhere (the bot then blocks or plays at random)
    _, rewards, terminated, _, infos = env.step(np.full(8, 4))  # the centre again: taken
    assert terminated.all() and (rewards == -1.0).all() and (infos["result"] == -1).all()
    assert infos["invalid_action"].all()
    assert (infos["final_obs"][:, T.S_MINE + 4] == 1.0).all()  # the game as it stood
    strict = BatchedEnv(makeenv.make("TicTacToe"), 8, level=1, seat=0, invalid_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match=r"shape \(8,\)"):
        strict.step(np.zeros(3, dtype=int))
    with pytest.raises(InvalidActionError, match=r"player 0 \(the agent\) chose action 9"):
        strict.step(np.full(8, 9))
    with pytest.raises(RuntimeError, match="call reset"):  # the batch stopped at the error
        strict.step(np.full(8, 0))


def test_a_multiplayer_simultaneous_game_with_tuple_levels():
    """Bidding, 3 players, level 2 (two different numba bots, shuffled over the other seats): the
    same mean return as env.evaluate, and each bot seat keeps its own data (a move counter)."""
    game = makeenv.make(BIDDING, players=3)
    env = BatchedEnv(game, 32, level=2)
    env.reset(seed=0)
    returns = []
    for _ in range(60):
        _, rewards, terminated, truncated, _ = env.step(env.sample_valid_actions())
        returns.extend(rewards[terminated | truncated].tolist())
    runner = game.evaluate("random", 5_000, level=2, seed=0)
    assert len(returns) > 300
    assert abs(np.mean(returns) - runner.mean_return) < 0.1
    seats = {int(np.argmax(row[0:4])) for row in env._states}  # S_SEAT: the agent sits everywhere
    assert seats == {0, 1, 2}
    moves = env._bot_data[:, :, 0]  # each bot counts its own moves (final turns included)
    assert (moves >= 60).all()


def test_make_vec_builds_the_batched_env():
    env = gymnasium.make_vec(
        "makeenv/ConnectFour", num_envs=4, vectorization_mode="vector_entry_point", level=0, mask_in_observation=True
    )
    assert isinstance(env, BatchedEnv) and env.num_envs == 4 and env.level == 0
    observations, _ = env.reset(seed=0)
    assert set(observations) == {"observation", "action_mask"}
    assert observations["action_mask"].shape == (4, 7)
    assert env.observation_space["observation"].shape == (4, 89)


def test_games_that_cannot_be_batched_are_refused_clearly():
    with pytest.raises(ValueError, match="python_bot is plain Python; use to_gymnasium"):
        BatchedEnv(load_array_env(variants.python_bot_game()), 4, level=1)
    varying = BatchedEnv(load_array_env(variants.varying_length_game()), 64, level=0)
    with pytest.raises(GameError, match="changed the env's length|length"):
        varying.reset(seed=0)
    with pytest.raises(ValueError, match="num_envs must be a positive int"):
        BatchedEnv(makeenv.make("TicTacToe"), 0)
    with pytest.raises(ValueError, match="chunks must be an int in 1..num_envs"):
        BatchedEnv(makeenv.make("TicTacToe"), 4, chunks=5)
