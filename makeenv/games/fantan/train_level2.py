"""Train Fantan's level 2: the weights of a linear scorer over each fitting card's features
(``bots.card_features``) that copies the search (level 3, ``lookahead``).

1. ``collect``: games in which one seat (rotating) is the search and the other three are level 1
   (the table level 2 is measured at). At each of the search's decisions between two or more
   fitting cards, every fitting card is played on the same ``samples`` random deals of the unseen
   cards (``sampleEnv``, from the seat's own state) and the deal is played out by steady players,
   as ``lookahead_action`` does; the decision records each card's features and its mean chip
   margin at the end of the deal. The seat then plays the search's move (steady's card unless
   another beats it by CONFIDENCE standard errors).
2. ``fit``: least squares of the cards' mean margins on their features, both taken relative to the
   decision's mean (what one card gains over the others), with a small ridge.
3. Write the weights to ``level2_weights.npz`` (``makeenv.learn.policy.save_weights``: one layer,
   1 x NUM_FEATURES, bias 0) with the arguments as meta.

``python -m makeenv.games.fantan.train_level2 --games 1500 --samples 64 --seed 0`` made the
shipped file; the same arguments give the same file.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numba import njit

from makeenv.learn.choices import fit_relative_values
from makeenv.learn.policy import save_weights

from .bots import (
    CONFIDENCE,
    NUM_FEATURES,
    card_features,
    hand_counts,
    play_out_margin,
    steady_action,
    steady_move_in,
)
from .logic import (
    E_WINNERS,
    NUM_CARDS,
    NUM_PLAYERS,
    PASS,
    S_HAND,
    S_PLAYABLE,
    S_SEAT,
    TURN_LIMIT,
    checkEnded,
    getCurrentPlayer,
    getPlayerState,
    initEnv,
    sampleEnv,
    stepEnv,
)

WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")
RIDGE = 1e-3  # times the number of rows, added to the normal equations' diagonal


@njit  # not cached: a cached copy would keep an old card_features after bots.py changes
def collect(games, samples, capacity, seed):
    """Rows (features, mean margin, decision number) of the search's decisions, and its wins."""
    np.random.seed(seed)
    features = np.zeros((capacity, NUM_FEATURES), dtype=np.float64)
    values = np.zeros(capacity, dtype=np.float64)
    decision = np.zeros(capacity, dtype=np.int64)
    candidates = np.empty(NUM_CARDS, dtype=np.int64)
    sums = np.zeros(NUM_CARDS, dtype=np.float64)
    squares = np.zeros(NUM_CARDS, dtype=np.float64)
    diffs = np.zeros(NUM_CARDS, dtype=np.float64)
    rows, decisions, wins = 0, 0, 0.0
    for g in range(games):
        env = initEnv()
        teacher = g % NUM_PLAYERS
        moves = 0
        while checkEnded(env) < 0 and moves < TURN_LIMIT:
            moves += 1
            if getCurrentPlayer(env) != teacher:
                stepEnv(steady_move_in(env), env)
                continue
            state = getPlayerState(env, teacher)
            mine, fitting, others_fit, _ = hand_counts(state)
            if fitting < 2:
                stepEnv(steady_action(state), env)
                continue
            base = steady_action(state)
            candidates[0] = base
            n = 1
            for c in range(NUM_CARDS):
                if c != base and state[S_HAND + c] > 0.5 and state[S_PLAYABLE + c] > 0.5:
                    candidates[n] = c
                    n += 1
            if rows + n > capacity:
                return features[:rows], values[:rows], decision[:rows], decisions, wins, g
            # the paired differences against steady's card give the search's confidence test
            me = int(state[S_SEAT])
            for i in range(n):
                sums[i] = 0.0
                squares[i] = 0.0
                diffs[i] = 0.0
            for _ in range(samples):
                root = sampleEnv(state)
                work = root.copy()
                base_value = 0.0
                for i in range(n):
                    work[:] = root
                    value = play_out_margin(stepEnv(candidates[i], work), me)
                    if i == 0:
                        base_value = value
                    sums[i] += value
                    squares[i] += (value - base_value) * (value - base_value)
                    diffs[i] += value - base_value
            best, best_margin = base, 0.0
            for i in range(n):
                card_features(state, candidates[i], mine, others_fit, features[rows])
                values[rows] = sums[i] / samples
                decision[rows] = decisions
                rows += 1
                mean = diffs[i] / samples
                error = np.sqrt(max(squares[i] / samples - mean * mean, 0.0) / samples)
                if i > 0 and mean > CONFIDENCE * error and mean > best_margin:
                    best, best_margin = candidates[i], mean
            decisions += 1
            stepEnv(best if best >= 0 else PASS, env)
        wins += env[E_WINNERS + teacher]
    return features[:rows], values[:rows], decision[:rows], decisions, wins, games


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=1500, help="games to collect the search's decisions from")
    p.add_argument("--samples", type=int, default=64, help="deals the search tries each fitting card on")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--capacity", type=int, default=3_000_000, help="most rows (fitting cards) to keep")
    p.add_argument("--out", default=str(WEIGHTS_FILE))
    p.add_argument("--save-data", default="", help="also write the rows (.npz) here")
    p.add_argument("--from-data", nargs="*", default=[], help="fit rows saved by --save-data instead")
    args = p.parse_args(argv)
    start = time.process_time()
    if args.from_data:
        parts = [np.load(f) for f in args.from_data]
        offsets = np.cumsum([0] + [int(part["decision"].max()) + 1 for part in parts[:-1]])
        features = np.concatenate([part["features"] for part in parts])
        values = np.concatenate([part["values"] for part in parts])
        decision = np.concatenate([part["decision"] + off for part, off in zip(parts, offsets, strict=True)])
    else:
        features, values, decision, decisions, wins, played = collect(
            args.games, args.samples, args.capacity, args.seed
        )
        print(
            f"{decisions} decisions ({len(values)} cards) from {played} games in {time.process_time() - start:.0f} s "
            f"of CPU; the search won {wins / max(played, 1):.1%} against three steady bots",
            file=sys.stderr,
        )
        if args.save_data:
            np.savez_compressed(args.save_data, features=features, values=values, decision=decision)
    weights = fit_relative_values(features, values, decision, RIDGE)
    print("weights:", np.array2string(weights, precision=3), file=sys.stderr)
    save_weights(
        args.out,
        [(weights[None, :], np.zeros(1))],
        game="Fantan",
        games=args.games,
        samples=args.samples,
        seed=args.seed,
        rows=len(values),
    )
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
