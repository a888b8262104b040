"""Train TLMN's level 2 (``bots.learned``): a linear scorer over the valid moves that copies level 3.

1. Collect level 3's decisions (``bots.rollouts``, ``--budget`` deals a move) with
   ``makeenv.learn.imitate.collect``: games in which each seat is the search with probability
   ``--teacher-share`` and a shedder (level 1) otherwise; a share ``--noise`` of the moves is
   replaced by a random one (the label kept). With ``--sharpness`` > 0 (the default) a decision
   records how much level 3 liked each of its candidates, ``exp(sharpness * (win rate - the
   best's))``, not only its move; with ``--student`` the search's seats play the moves of a
   learned bot with those weights instead (the positions it meets, labelled by level 3).
2. Turn each decision into rows, one per valid move, with ``bots.decision_rows`` (the features the
   bot computes while playing; the shedder's own choice is one of them).
3. Fit the weights by the cross-entropy between a softmax over each decision's moves and level 3's
   liking (Newton's method, a small L2 penalty) and write them to ``level2_weights.npz``.

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


def teacher_shares(
    rounds: int, sharpness: float, student: np.ndarray | None = None
) -> Callable[[np.ndarray], tuple[int, np.ndarray]]:
    """Level 3 as a teacher that says how much it likes each move: ``exp(sharpness * (its win rate
    - the best's))`` for the candidates it tried, 0 for the others. It plays level 3's move, or the
    move of the learned bot with the ``student`` weights when given (so the decisions are those the
    student meets, labelled by level 3)."""
    student_data = B.learned_data(student) if student is not None else None

    def shares(state: np.ndarray) -> tuple[int, np.ndarray]:
        liked = np.zeros(B.NUM_ACTIONS)
        moves, wins = B.rollouts_scores(state, rounds)
        if len(moves) == 0:
            return B.PASS, liked
        action = int(moves[np.argmax(wins)])  # level 3's move (ties: the earlier candidate)
        liked[moves] = np.exp(sharpness * (wins - wins.max()) / rounds)
        if student_data is not None:
            action = B.learned_action(state, student_data)
        return action, liked

    return shares


def decision_table(data: Dataset) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(features of every valid move, the decision each row belongs to, the teacher's row of each
    decision, the teacher's share of each row) for the decisions that have rows."""
    scratch = np.zeros(B.LEARNED_DATA_SIZE)
    soft = data.target_rows()
    feats, groups, chosen, shares = [], [], [], []
    count = 0
    for i in range(len(data)):
        actions, rows = B.decision_rows(data.states[i].astype(np.float64), scratch)
        hit = np.flatnonzero(actions == data.actions[i])
        if len(actions) < 2 or len(hit) == 0:
            continue
        chosen.append(count + int(hit[0]))
        groups.append(np.full(len(actions), len(chosen) - 1))
        feats.append(rows)
        share = soft[i, actions]
        shares.append(share / share.sum())
        count += len(actions)
    return np.concatenate(feats), np.concatenate(groups), np.array(chosen), np.concatenate(shares)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1500, help="games to collect level 3's decisions from")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=0.0, help="level 3's deals a move (0: its default)")
    parser.add_argument(
        "--sharpness",
        type=float,
        default=20.0,
        help="learn level 3's liking exp(sharpness * (win rate - the best's)) of its candidates (0: its move alone)",
    )
    parser.add_argument("--student", type=Path, help="weights of a learned bot that plays the teacher's seats")
    parser.add_argument("--teacher-share", type=float, default=0.5)
    parser.add_argument("--noise", type=float, default=0.1)
    parser.add_argument("--steps", type=int, default=30, help="Newton steps at most")
    parser.add_argument("--l2", type=float, default=1e-4)
    parser.add_argument("--save-data", type=Path, help="also write the collected decisions here")
    parser.add_argument("--from-data", type=Path, nargs="+", help="train on decisions saved by --save-data")
    parser.add_argument("--out", type=Path, default=B.WEIGHTS_FILE)
    args = parser.parse_args(argv)
    env = makeenv.make("TLMN")
    start = time.process_time()
    if args.from_data:
        data = Dataset.concatenate([Dataset.load(p) for p in args.from_data])
    else:
        rounds = int(args.budget) if args.budget >= 1 else B.SEARCH_ROUNDS
        student = None
        if args.student:
            with np.load(args.student, allow_pickle=False) as archive:
                student = np.asarray(archive["w"], dtype=np.float64)
        data = collect(
            env,
            Bot(B.rollouts, data=np.array([float(rounds)])),
            args.games,
            others=Bot(B.shedder),
            teacher_share=args.teacher_share,
            noise=args.noise,
            seed=args.seed,
            shares=teacher_shares(rounds, args.sharpness, student) if args.sharpness > 0 else None,
            progress=lambda done, total: print(f"\r{done}/{total} games", end="", flush=True),
        )
        print(f"\n{len(data)} decisions in {time.process_time() - start:.0f} s of CPU")
        if args.save_data:
            data.save(args.save_data)
    x, groups, chosen, shares = decision_table(data)
    order = np.random.default_rng(args.seed).permutation(len(chosen))
    held = np.zeros(len(chosen), dtype=bool)
    held[order[: len(chosen) // 5]] = True
    row_held = held[groups]
    train_x, train_g = x[~row_held], groups[~row_held]
    train_ids = np.cumsum(np.r_[True, train_g[1:] != train_g[:-1]]) - 1
    train_chosen = np.flatnonzero(~row_held)
    train_chosen = np.searchsorted(train_chosen, chosen[~held])
    test_x, test_g = x[row_held], groups[row_held]
    test_ids = np.cumsum(np.r_[True, test_g[1:] != test_g[:-1]]) - 1
    test_chosen = np.searchsorted(np.flatnonzero(row_held), chosen[held])
    w = fit_softmax(train_x, train_ids, shares[~row_held], steps=args.steps, l2=args.l2)
    shedder_w = np.zeros(B.NUM_FEATURES)
    shedder_w[B.F_SHEDDER] = 1.0
    print(
        f"{len(chosen)} decisions with a choice ({len(x)} moves): agrees with level 3 on "
        f"{agreement(w, train_x, train_ids, train_chosen):.1%} (training), "
        f"{agreement(w, test_x, test_ids, test_chosen):.1%} (held out; the shedder alone "
        f"{agreement(shedder_w, test_x, test_ids, test_chosen):.1%})"
    )
    w = fit_softmax(x, groups, shares, steps=args.steps, l2=args.l2)  # all of it for the file
    with open(args.out, "wb") as file:
        np.savez_compressed(file, w=w, meta_decisions=len(chosen), meta_features=B.NUM_FEATURES)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
