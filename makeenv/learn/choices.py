"""Fitting a linear scorer of a decision's candidates to what a teacher (a search bot) thought of them.

The learned levels that score each candidate move by a weighted sum of its features (TLMN,
Century, LiarsDice, Fantan, Goofspiel) are trained by their own ``train_level2.py`` from rows of
features, one row per candidate, grouped by decision (``groups`` numbers the decisions 0, 1, ...
in order). The fits they share live here, in numpy.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def decision_starts(groups: np.ndarray) -> np.ndarray:
    """The first row of each decision."""
    return np.flatnonzero(np.r_[True, groups[1:] != groups[:-1]])


def liking(values: np.ndarray, groups: np.ndarray, sharpness: float) -> np.ndarray:
    """Each decision's shares of ``exp(sharpness * (value - the decision's best value))``: how much
    the teacher liked each candidate (a large ``sharpness``: its favourite alone)."""
    starts = decision_starts(groups)
    shares = np.exp(sharpness * (values - np.maximum.reduceat(values, starts)[groups]))
    return shares / np.add.reduceat(shares, starts)[groups]


def fit_softmax(
    x: np.ndarray, groups: np.ndarray, shares: np.ndarray, *, steps: int, l2: float, tol: float = 1e-9
) -> np.ndarray:
    """Weights minimizing the mean over decisions of the cross-entropy between a softmax of the
    rows' scores ``x @ w`` within each decision and the teacher's ``shares``, plus ``l2`` times
    their squared norm: Newton's method (the problem is convex), at most ``steps`` steps, until
    no weight moves by ``tol``."""
    starts = decision_starts(groups)
    n = len(starts)
    w = np.zeros(x.shape[1])
    target = shares @ x
    for _ in range(steps):
        z = x @ w
        z = z - np.maximum.reduceat(z, starts)[groups]
        e = np.exp(z)
        p = e / np.add.reduceat(e, starts)[groups]
        px = p[:, None] * x
        mean = np.add.reduceat(px, starts, axis=0)  # each decision's expected features
        grad = (mean.sum(axis=0) - target) / n + 2 * l2 * w
        hess = (x.T @ px - mean.T @ mean) / n + 2 * l2 * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < tol:
            break
    return w


def fit_relative_values(features: np.ndarray, values: np.ndarray, groups: np.ndarray, ridge: float) -> np.ndarray:
    """Least squares of the values on the features, both relative to their decision's mean (the
    features scaled to unit size, ``ridge`` times the rows added to the normal equations' diagonal)."""
    count = np.bincount(groups).astype(np.float64)
    x = features - (np.add.reduceat(features, decision_starts(groups)) / count[:, None])[groups]
    y = values - (np.bincount(groups, weights=values) / count)[groups]
    scale = np.sqrt((x * x).mean(axis=0)) + 1e-9
    xs = x / scale
    gram = xs.T @ xs + ridge * len(xs) * np.eye(xs.shape[1])
    return np.linalg.solve(gram, xs.T @ y) / scale


def agreement(w: np.ndarray, x: np.ndarray, groups: np.ndarray, chosen: np.ndarray) -> float:
    """Share of decisions whose highest-scored row is the teacher's choice (``chosen``: its row in
    each decision; a tie counts for the teacher)."""
    z = x @ w
    best = np.maximum.reduceat(z, decision_starts(groups))
    return float(np.mean(z[chosen] >= best - 1e-12))


def linear_bot_data(weights: np.ndarray | None, path: Path, count: int, size: int, trainer: str) -> np.ndarray:
    """A linear scorer's bot data: its ``count`` weights (``weights``, else the ``w`` array of the
    file ``path`` that ``python -m trainer`` writes), then zeros up to ``size``: the scratch its bot
    overwrites at every move, so it allocates nothing."""
    if weights is None:
        with np.load(path, allow_pickle=False) as archive:
            weights = np.asarray(archive["w"], dtype=np.float64)
    if weights.shape != (count,):
        raise ValueError(
            f"the level-2 weights must be {count} values, got shape {weights.shape}; retrain them with "
            f"python -m {trainer}"
        )
    data = np.zeros(size)
    data[:count] = weights
    return data
