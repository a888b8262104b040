"""Train LiarsDice's level 2 (``bots.learned``): a linear scorer over the candidates fitted to level 3.

1. Play ``--games`` games for each number of dice (1 and 2). In each, one seat (drawn at random)
   is the teacher; the other is the teacher too, level 1, or a random agent (a third each). At
   every decision of a teacher seat, level 3's search (``bots.search_values``, ``--budget`` deals)
   judges every candidate (Liar, and the cheapest bid per face): its weighted win rate. The
   teacher plays the best candidate, or a random valid action with chance ``--noise``, or (with
   ``--student``, in as many games again) the move of a learned bot with those weights, still
   judged by the search (so the data covers the positions the learned bot reaches).
2. Each decision becomes one row of features per candidate (``bots.decision_rows``: what the bot
   computes while playing).
3. Fit the weights, one set for one die and one for two, by the cross-entropy between a softmax
   over each decision's candidates and ``exp(sharpness * (win rate - the best's))`` (Newton's
   method, a small L2 penalty), and write them to ``level2_weights.npz``.

The README's "Levels" section has the command that made the shipped file; the same arguments give
the same file.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numba import njit

from makeenv.learn.choices import fit_softmax, liking

from . import bots as B
from . import logic as L


@njit(cache=True)
def _seed(seed: int) -> None:
    np.random.seed(seed)


def collect(
    dice: int, games: int, budget: int, noise: float, seed: int, student: np.ndarray | None
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """(features of each decision's candidates, level 3's win rate of each) from ``games`` games."""
    rng = np.random.default_rng(seed)
    _seed(int(rng.integers(2**31)))
    scratch = B.learned_data(np.zeros(B.NUM_WEIGHTS))
    student_data = B.learned_data(student) if student is not None else None
    candidates = np.zeros(B.FACES + 1, dtype=np.int64)
    wins = np.zeros(B.FACES + 1)
    feats: list[np.ndarray] = []
    rates: list[np.ndarray] = []
    for _ in range(games):
        env = L.initEnv(dice)
        teacher = [True, True]
        other_kind = int(rng.integers(3))  # the other seat: 0 the teacher, 1 level 1, 2 random
        if other_kind:
            teacher[int(rng.integers(2))] = False
        while L.checkEnded(env) == -1:
            player = L.getCurrentPlayer(env)
            state = L.getPlayerState(env, player)
            valid = np.flatnonzero(L.getValidActions(state))
            if not teacher[player]:
                action = B.odds_move(state) if other_kind == 1 else int(rng.choice(valid))
                L.stepEnv(action, env)
                continue
            count = B.candidate_moves(state, candidates)
            action = int(candidates[0])
            if count > 1:
                total = B.search_values(state, budget, candidates, count, wins)
                moves, rows = B.decision_rows(state, scratch)
                feats.append(rows)
                rates.append(wins[:count] / total)
                action = int(candidates[np.argmax(wins[:count])])
                if student_data is not None:
                    action = B.learned_action(state, student_data)
            if rng.random() < noise:
                action = int(rng.choice(valid))
            L.stepEnv(action, env)
    return feats, rates


def fit(feats: list[np.ndarray], rates: list[np.ndarray], sharpness: float, l2: float, steps: int = 50) -> np.ndarray:
    """Weights of a softmax over each decision's candidate scores fitted to the shares
    ``exp(sharpness * (rate - best rate))`` (normalized), plus ``l2`` times their squared norm."""
    x = np.concatenate(feats)
    groups = np.repeat(np.arange(len(feats)), [len(f) for f in feats])
    shares = liking(np.concatenate(rates), groups, sharpness)
    return fit_softmax(x, groups, shares, steps=steps, l2=l2, tol=1e-10)


def regret(w: np.ndarray, feats: list[np.ndarray], rates: list[np.ndarray]) -> tuple[float, float]:
    """(share of decisions where the top-scored candidate is level 3's best, mean win rate lost
    against level 3's best by playing the top-scored one instead)."""
    agree = lost = 0.0
    for f, r in zip(feats, rates, strict=True):
        pick = int(np.argmax(f @ w))
        agree += pick == int(np.argmax(r))
        lost += r.max() - r[pick]
    return agree / len(feats), lost / len(feats)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000, help="games for each number of dice (1 and 2)")
    parser.add_argument("--budget", type=int, default=400, help="level 3's deals a decision")
    parser.add_argument("--noise", type=float, default=0.1)
    parser.add_argument("--sharpness", type=float, default=1000.0)
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--student", type=Path, help="weights of a learned bot that plays the teacher's seats")
    parser.add_argument("--out", type=Path, default=B.WEIGHTS_FILE)
    args = parser.parse_args(argv)
    student = None
    if args.student:
        with np.load(args.student, allow_pickle=False) as archive:
            student = np.asarray(archive["w"], dtype=np.float64)
    weights = []
    decisions = []
    for dice in (1, 2):
        start = time.process_time()
        feats, rates = collect(dice, args.games, args.budget, args.noise, args.seed + dice, None)
        if student is not None:  # as many games again, the teacher's seats playing the student's moves
            more = collect(dice, args.games, args.budget, args.noise, args.seed + 10 + dice, student)
            feats, rates = feats + more[0], rates + more[1]
        print(f"dice={dice}: {len(feats)} decisions in {time.process_time() - start:.0f} s of CPU")
        held = np.zeros(len(feats), dtype=bool)
        held[np.random.default_rng(args.seed).permutation(len(feats))[: len(feats) // 5]] = True
        train = [i for i in range(len(feats)) if not held[i]]
        test = [i for i in range(len(feats)) if held[i]]
        w = fit([feats[i] for i in train], [rates[i] for i in train], args.sharpness, args.l2)
        rule = np.zeros(B.NUM_FEATURES)
        rule[B.F_RULE] = 1.0
        for name, ww in (("learned", w), ("level 1", rule)):
            agree, lost = regret(ww, [feats[i] for i in test], [rates[i] for i in test])
            print(f"  held out, {name}: picks level 3's best {agree:.1%}, loses {lost:.4f} win rate a decision")
        weights.append(fit(feats, rates, args.sharpness, args.l2))  # all of it for the file
        decisions.append(len(feats))
    with open(args.out, "wb") as file:
        np.savez_compressed(file, w=np.concatenate(weights), meta_decisions=np.array(decisions))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
