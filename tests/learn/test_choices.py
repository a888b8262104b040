"""makeenv.learn.choices: the fits that the learned levels' train_level2.py scripts share."""

from __future__ import annotations

import numpy as np
import pytest

from makeenv.learn.choices import (
    agreement,
    decision_starts,
    fit_relative_values,
    fit_softmax,
    liking,
    linear_bot_data,
)


def decisions(seed: int, count: int = 300, features: int = 5):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 9, count)
    groups = np.repeat(np.arange(count), sizes)
    return rng, groups, rng.normal(size=(len(groups), features))


def test_liking_shares_each_decision_out_by_value():
    groups = np.array([0, 0, 0, 1, 1])
    values = np.array([0.2, 0.5, 0.1, 0.7, 0.7])
    shares = liking(values, groups, 10.0)
    assert np.allclose(np.add.reduceat(shares, decision_starts(groups)), 1.0)
    assert shares[1] > shares[0] > shares[2] and shares[3] == shares[4] == 0.5
    assert np.allclose(liking(values, groups, 1e4)[:3], [0.0, 1.0, 0.0])  # sharp: the favourite alone


def test_fit_softmax_recovers_the_weights_that_made_the_shares():
    _, groups, x = decisions(0)
    true = np.array([1.5, -0.7, 0.0, 2.0, 0.3])
    scores = x @ true
    shares = np.exp(scores - np.maximum.reduceat(scores, decision_starts(groups))[groups])
    shares /= np.add.reduceat(shares, decision_starts(groups))[groups]
    assert np.allclose(fit_softmax(x, groups, shares, steps=50, l2=0.0), true, atol=1e-6)
    shrunk = fit_softmax(x, groups, shares, steps=50, l2=1.0)
    assert np.linalg.norm(shrunk) < 0.5 * np.linalg.norm(true)  # the penalty pulls the weights in


def test_fit_relative_values_ignores_each_decisions_own_level():
    rng, groups, x = decisions(1)
    true = np.array([0.5, 0.0, -1.0, 0.25, 2.0])
    values = x @ true + rng.normal(size=groups.max() + 1)[groups] * 10.0  # a level per decision
    assert np.allclose(fit_relative_values(x, values, groups, ridge=0.0), true, atol=1e-9)


def test_agreement_counts_the_decisions_whose_top_row_is_the_teachers():
    _, groups, x = decisions(2)
    true = np.array([1.0, 2.0, -1.0, 0.0, 0.5])
    starts = decision_starts(groups)
    ends = np.r_[starts[1:], len(groups)]
    chosen = np.array([a + int(np.argmax(x[a:b] @ true)) for a, b in zip(starts, ends, strict=True)])
    assert agreement(true, x, groups, chosen) == 1.0
    assert agreement(-true, x, groups, chosen) < 0.2


def test_linear_bot_data_is_the_weights_then_a_zeroed_scratch(tmp_path):
    path = tmp_path / "level2_weights.npz"
    np.savez_compressed(path, w=np.array([1.0, -2.0, 0.5]))
    data = linear_bot_data(None, path, 3, 10, "my_game.train_level2")
    assert data.dtype == np.float64 and data.tolist() == [1.0, -2.0, 0.5] + [0.0] * 7
    assert linear_bot_data(np.ones(3), path, 3, 5, "my_game.train_level2").tolist() == [1.0, 1.0, 1.0, 0.0, 0.0]
    with pytest.raises(ValueError, match=r"must be 4 values, got shape \(3,\); retrain them with python -m my_game"):
        linear_bot_data(None, path, 4, 10, "my_game.train_level2")
