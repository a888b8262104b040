"""Train Century's level 2 (``bots.learned``): a linear scorer over greedy's turns that copies level 3.

1. Collect level 3's decisions (``bots.planner``, ``--depth`` of its own turns) with
   ``makeenv.learn.imitate.collect``: games in which each seat is the planner with probability
   ``--teacher-share`` and a greedy bot (level 1) otherwise; a share ``--noise`` of the moves is
   replaced by a random one (the label kept). Each decision records how much the planner liked
   each first move, ``exp(sharpness * (its value - the best's))`` (values in points), not only its
   move. With ``--student`` the planner's seats play the moves of a learned bot with those weights
   instead (the positions it meets, labelled by the planner).
2. Turn each decision into rows, one per candidate first move, with ``bots.decision_rows`` (the
   features the bot computes while playing).
3. Fit the weights by the cross-entropy between a softmax over each decision's moves and the
   planner's liking (Newton's method, a small L2 penalty) and write them to ``level2_weights.npz``.

The README's "Levels" section has the commands that made the shipped file; the same arguments
give the same file.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

import makeenv
from makeenv.array.agents import Bot
from makeenv.learn.choices import agreement, fit_softmax
from makeenv.learn.imitate import Dataset, collect

from . import bots as B


def planner_shares(
    depth: int, sharpness: float, student: np.ndarray | None = None
) -> Callable[[np.ndarray], tuple[int, np.ndarray]]:
    """The planner as a teacher that says how much it likes each first move. It plays its best
    move, or the move of the learned bot with the ``student`` weights when given."""
    student_data = B.learned_data(student) if student is not None else None

    def shares(state: np.ndarray) -> tuple[int, np.ndarray]:
        liked = np.zeros(B.NUM_ACTIONS)
        values = B.planner_values(state, depth)
        tried = np.isfinite(values)
        if tried.any():
            action = int(np.nanargmax(values))
            liked[tried] = np.exp(sharpness * (values[tried] - values[action]))
        else:
            action = int(B.plan_action(state, depth))
            liked[action] = 1.0
        if student_data is not None:
            action = int(B.learned_action(state, student_data))
        return action, liked

    return shares


def decision_table(data: Dataset) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(features of every candidate, the decision each row belongs to, the teacher's favourite row
    of each decision, the teacher's share of each row) for the decisions that have rows."""
    scratch = np.zeros(B.LEARNED_DATA_SIZE)
    soft = data.target_rows()
    feats, groups, chosen, shares = [], [], [], []
    count = 0
    for i in range(len(data)):
        actions, rows = B.decision_rows(data.states[i].astype(np.float64), scratch)
        if len(actions) < 2:
            continue
        share = soft[i, actions].astype(np.float64)
        if share.sum() <= 0:
            continue
        chosen.append(count + int(np.argmax(share)))
        groups.append(np.full(len(actions), len(chosen) - 1))
        feats.append(rows)
        shares.append(share / share.sum())
        count += len(actions)
    return np.concatenate(feats), np.concatenate(groups), np.array(chosen), np.concatenate(shares)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600, help="games to collect the planner's decisions from")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--depth", type=int, default=B.DEPTH, help="the planner's own turns looked ahead")
    parser.add_argument("--sharpness", type=float, default=30.0, help="liking exp(sharpness * (value - best value))")
    parser.add_argument("--student", type=Path, help="weights of a learned bot that plays the teacher's seats")
    parser.add_argument("--teacher-share", type=float, default=0.5)
    parser.add_argument("--noise", type=float, default=0.1)
    parser.add_argument("--steps", type=int, default=40, help="Newton steps at most")
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--save-data", type=Path, help="also write the collected decisions here")
    parser.add_argument("--from-data", type=Path, nargs="+", help="train on decisions saved by --save-data")
    parser.add_argument("--out", type=Path, default=B.WEIGHTS_FILE)
    args = parser.parse_args(argv)
    env = makeenv.make("Century")
    start = time.process_time()
    if args.from_data:
        data = Dataset.concatenate([Dataset.load(p) for p in args.from_data])
    else:
        student = None
        if args.student:
            with np.load(args.student, allow_pickle=False) as archive:
                student = np.asarray(archive["w"], dtype=np.float64)
        data = collect(
            env,
            Bot(B.planner, data=np.array([float(args.depth)])),
            args.games,
            others=Bot(B.greedy),
            teacher_share=args.teacher_share,
            noise=args.noise,
            seed=args.seed,
            shares=planner_shares(args.depth, args.sharpness, student),
            progress=lambda done, total: print(f"\r{done}/{total} games", end="", flush=True),
        )
        print(f"\n{len(data)} decisions in {time.process_time() - start:.0f} s of CPU")
        if args.save_data:
            data.save(args.save_data)
    x, groups, chosen, shares = decision_table(data)
    held = np.zeros(len(chosen), dtype=bool)
    held[np.random.default_rng(args.seed).permutation(len(chosen))[: len(chosen) // 5]] = True
    row_held = held[groups]

    def part(mask_rows: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        g = groups[mask_rows]
        ids = np.cumsum(np.r_[True, g[1:] != g[:-1]]) - 1
        return x[mask_rows], ids, np.searchsorted(np.flatnonzero(mask_rows), chosen[mask])

    train_x, train_ids, train_chosen = part(~row_held, ~held)
    test_x, test_ids, test_chosen = part(row_held, held)
    w = fit_softmax(train_x, train_ids, shares[~row_held], steps=args.steps, l2=args.l2)
    print(
        f"{len(chosen)} decisions with a choice ({len(x)} moves): agrees with level 3 on "
        f"{agreement(w, train_x, train_ids, train_chosen):.1%} (training), "
        f"{agreement(w, test_x, test_ids, test_chosen):.1%} (held out; greedy's weights "
        f"{agreement(B.greedy_weights(), test_x, test_ids, test_chosen):.1%})"
    )
    w = fit_softmax(x, groups, shares, steps=args.steps, l2=args.l2)  # all of it for the file
    with open(args.out, "wb") as file:
        np.savez_compressed(file, w=w, meta_decisions=len(chosen), meta_features=B.NUM_FEATURES)
    print(f"wrote {args.out}: {np.array2string(w, precision=3)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
