"""makeenv.learn: the trainer copies a known teacher, the compiled policy plays what the trainer
learned, weights survive the file, data come from real games, and bad input is refused clearly."""

from __future__ import annotations

import numpy as np
import pytest

import makeenv
from makeenv.array.agents import Bot
from makeenv.games.exploding_kittens.logic import S_PLAYERS
from makeenv.learn.imitate import Dataset, collect, main, parser, train
from makeenv.learn.policy import load_policy_data, load_weights, mlp_action, pack, save_weights

ACTIONS = 6
STATE_SIZE = 2 * ACTIONS + 4  # validity flags, a value per action, noise


def toy_dataset(count: int, seed: int) -> Dataset:
    """Random states whose first values say which actions are valid and the next ones what each
    is worth; the teacher takes the valid action worth most."""
    rng = np.random.default_rng(seed)
    states = rng.random((count, STATE_SIZE))
    valid = rng.random((count, ACTIONS)) < 0.6
    valid[np.arange(count), rng.integers(ACTIONS, size=count)] = True
    states[:, :ACTIONS] = valid
    worth = np.where(valid, states[:, ACTIONS : 2 * ACTIONS], -1.0)
    return Dataset(states, valid, np.argmax(worth, axis=1))


@pytest.fixture(scope="module")
def toy_policy():
    return train(toy_dataset(6000, 1), (64,), epochs=30, learning_rate=5e-3, seed=3)


def test_the_trainer_copies_a_known_teacher(toy_policy):
    layers, report = toy_policy
    assert report.holdout_accuracy > 0.9  # measured 94%; chance 28%
    assert report.chance_accuracy < 0.5
    fresh = toy_dataset(500, 2)
    data = pack(layers)
    chosen = [mlp_action(s, data, v.astype(np.float64)) for s, v in zip(fresh.states, fresh.valid, strict=True)]
    assert np.mean(np.array(chosen) == fresh.actions) > 0.9
    assert all(fresh.valid[i, a] for i, a in enumerate(chosen))  # only valid actions


def test_the_compiled_policy_scores_as_the_trainer(toy_policy):
    layers, _ = toy_policy
    deep = [*layers[:-1], (np.eye(64)[:16] * 0.5, np.zeros(16)), (np.ones((ACTIONS, 16)), np.arange(ACTIONS) * 0.1)]
    for net in (layers, deep):
        data = pack(net)
        rng = np.random.default_rng(4)
        for _ in range(50):
            state = rng.normal(size=STATE_SIZE)
            valid = (rng.random(ACTIONS) < 0.5).astype(np.float64)
            h = state
            for i, (w, b) in enumerate(net):
                h = w @ h + b
                if i < len(net) - 1:
                    h = np.maximum(h, 0.0)
            expected = int(np.argmax(np.where(valid == 1.0, h, -np.inf))) if valid.any() else -1
            assert mlp_action(state, data, valid) == expected


def test_weights_round_trip(toy_policy, tmp_path):
    layers, _ = toy_policy
    path = save_weights(tmp_path / "policy.npz", layers, game="Toy", samples=6000)
    loaded, meta = load_weights(path)
    assert meta == {"game": "Toy", "samples": 6000}
    for (w, b), (w2, b2) in zip(layers, loaded, strict=True):
        np.testing.assert_allclose(w2, w, rtol=1e-6, atol=1e-6)  # stored as float32
        np.testing.assert_allclose(b2, b, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(load_policy_data(path, STATE_SIZE, ACTIONS), pack(loaded))
    with_scratch = load_policy_data(path, STATE_SIZE, ACTIONS, scratch=5)  # room a bot writes into
    np.testing.assert_array_equal(with_scratch, np.concatenate([pack(loaded), np.zeros(5)]))
    with pytest.raises(ValueError, match="takes 16 state values and scores 6 actions; the game has 199 and 14"):
        load_policy_data(path, 199, 14)


def test_bad_input_is_refused_with_the_reason(tmp_path):
    good = toy_dataset(20, 5)
    valid, actions = good.valid.copy(), good.actions.copy()
    valid[3], actions[3] = [True, False, False, False, False, False], 1
    with pytest.raises(ValueError, match=r"decision 3 chose action 1, .* \(valid: \[0\]\)"):
        Dataset(good.states, valid, actions)
    with pytest.raises(ValueError, match="outside 0..5"):
        Dataset(good.states, good.valid, np.full(20, 6))
    with pytest.raises(ValueError, match="20 states, 19 valid-action rows and 20 actions"):
        Dataset(good.states, good.valid[:19], good.actions)
    broken = good.states.copy()
    broken[7, 2] = np.nan
    with pytest.raises(ValueError, match="state 7 holds a NaN"):
        Dataset(broken, good.valid, good.actions)
    with pytest.raises(ValueError, match="hidden sizes, epochs and batch_size must be >= 1"):
        train(good, (0,))
    with pytest.raises(ValueError, match=r"layer 1: W has shape \(6, 5\).*expected W of shape \(outputs, 8\)"):
        pack([(np.zeros((8, STATE_SIZE)), np.zeros(8)), (np.zeros((6, 5)), np.zeros(6))])
    np.savez(tmp_path / "empty.npz", other=np.zeros(3))
    with pytest.raises(ValueError, match="holds no layers"):
        load_weights(tmp_path / "empty.npz")


def test_soft_targets_are_checked_normalized_kept_and_learned(tmp_path):
    """A teacher's distribution over the actions (a search's visit shares) is fitted instead of its
    one move: here it likes the valid action worth least most, so only a learner that reads the
    targets (not the actions, which stay the best-worth ones) plays that action."""
    base = toy_dataset(4000, 6)
    least = np.argmin(np.where(base.valid, base.states[:, ACTIONS : 2 * ACTIONS], 2.0), axis=1)
    liked = np.where(base.valid, 0.1, 0.0)
    liked[np.arange(len(base)), least] += 3.0
    liked[~base.valid] = 7.0  # weight on invalid actions is dropped
    soft = Dataset(base.states, base.valid, base.actions, liked)
    assert np.allclose(soft.targets.sum(axis=1), 1.0)
    assert not soft.targets[~base.valid].any()
    soft.save(tmp_path / "soft.npz")
    again = Dataset.load(tmp_path / "soft.npz")
    assert np.allclose(again.targets, soft.targets, rtol=0, atol=1e-6)  # loading normalizes again
    mixed = Dataset.concatenate([again, toy_dataset(10, 7)])  # one-hot rows for the hard part
    assert mixed.targets.shape == (4010, ACTIONS) and np.allclose(mixed.targets[-10:].max(axis=1), 1.0)

    layers, _ = train(soft, (64,), epochs=30, learning_rate=5e-3, seed=3)
    fresh = toy_dataset(400, 8)
    fresh_least = np.argmin(np.where(fresh.valid, fresh.states[:, ACTIONS : 2 * ACTIONS], 2.0), axis=1)
    several = fresh.valid.sum(axis=1) > 1
    data = pack(layers)
    chosen = np.array(
        [mlp_action(s, data, v.astype(np.float64)) for s, v in zip(fresh.states, fresh.valid, strict=True)]
    )
    # measured 90.9% and 0.5% (394 decisions with a choice)
    assert np.mean(chosen[several] == fresh_least[several]) > 0.8  # the liked action ...
    assert np.mean(chosen[several] == fresh.actions[several]) < 0.1  # ... not the recorded best one

    with pytest.raises(ValueError, match=r"targets have shape \(4000, 5\); expected \(4000, 6\)"):
        Dataset(base.states, base.valid, base.actions, liked[:, :5])
    with pytest.raises(ValueError, match="finite and >= 0"):
        Dataset(base.states, base.valid, base.actions, -liked)
    nothing = liked.copy()
    nothing[9] = np.where(base.valid[9], 0.0, 1.0)
    with pytest.raises(ValueError, match="targets of decision 9 give no weight to a valid action"):
        Dataset(base.states, base.valid, base.actions, nothing)


TIC_TAC_TOE = makeenv.make("TicTacToe")


def first_valid(state, data):
    """A plain-Python teacher: the lowest valid action."""
    return int(np.flatnonzero(TIC_TAC_TOE.getValidActions(state))[0]), data


def mirrored(state):
    """A view of TicTacToe that lists the actions backwards (action i seen is the game's 8 - i)."""
    return state * 2.0, np.arange(9)[::-1]


def test_collect_records_decisions_as_a_view_sees_them():
    plain = collect(TIC_TAC_TOE, Bot(first_valid), 4, teacher_share=1.0, noise=0.0, seed=2)
    seen = collect(TIC_TAC_TOE, Bot(first_valid), 4, teacher_share=1.0, noise=0.0, seed=2, view=mirrored)
    np.testing.assert_array_equal(seen.states, plain.states * 2.0)
    np.testing.assert_array_equal(seen.valid, plain.valid[:, ::-1])
    np.testing.assert_array_equal(seen.actions, 8 - plain.actions)
    with pytest.raises(ValueError, match="view must map the 9 actions one to one"):
        collect(TIC_TAC_TOE, Bot(first_valid), 1, view=lambda s: (s, np.zeros(9, dtype=np.int64)))


def test_collect_records_the_teachers_choices_and_the_command_trains_on_them(tmp_path):
    env = TIC_TAC_TOE
    data = collect(env, Bot(first_valid), 6, teacher_share=1.0, noise=0.0, seed=1)
    assert len(data) == 6 * 7  # X fills 0, 2, 4, 6 and wins: seven moves, each with a choice
    for state, valid, action in zip(data.states, data.valid, data.actions, strict=True):
        np.testing.assert_array_equal(valid, env.getValidActions(state.astype(np.float64)) == 1.0)
        assert action == np.flatnonzero(valid)[0]
    again = collect(env, Bot(first_valid), 6, teacher_share=0.5, noise=0.3, seed=1)
    same = collect(env, Bot(first_valid), 6, teacher_share=0.5, noise=0.3, seed=1)
    np.testing.assert_array_equal(again.states, same.states)  # a seed gives the same games
    saved = tmp_path / "decisions.npz"
    data.save(saved)
    out = tmp_path / "weights.npz"
    assert (
        main(["TicTacToe", "--from-data", str(saved), str(saved), "--out", str(out), "--epochs", "2", "--hidden", "8"])
        == 0
    )
    assert load_weights(out)[1]["samples"] == 2 * len(data)  # both files
    wider = Dataset(data.states, np.hstack([data.valid, np.zeros((len(data), 1), dtype=bool)]), data.actions)
    with pytest.raises(ValueError, match=r"the parts have \(state size, actions\) \[\(23, 9\), \(23, 10\)\]"):
        Dataset.concatenate([data, wider])
    assert load_policy_data(out, env.getStateSize(), env.getActionSize()).size > 0
    assert "--games" in parser().format_help()
    with pytest.raises(SystemExit, match="--view nowhere:view: not found"):
        main(["TicTacToe", "--games", "1", "--view", "nowhere:view"])
    with pytest.raises(ValueError, match="games must be >= 1"):
        collect(env, Bot(first_valid), 0)


def test_the_command_collects_games_of_the_players_asked_for(tmp_path):
    saved, out = tmp_path / "decisions.npz", tmp_path / "weights.npz"
    argv = ["ExplodingKittens", "--players", "2", "--games", "3", "--teacher-level", "1", "--epochs", "1"]
    assert main([*argv, "--hidden", "4", "--save-data", str(saved), "--out", str(out)]) == 0
    assert load_weights(out)[1]["players"] == 2
    players = Dataset.load(saved).states[:, S_PLAYERS]
    assert len(players) > 0 and np.all(players == 2)
