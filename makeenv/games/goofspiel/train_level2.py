"""Train Goofspiel's level 2: the weights of a linear scorer over each card's features
(``bots.hand_features``) fitted to the values the search (level 3, ``rollout_searcher``) measures.

1. ``collect``: games in which one seat (alternating) is the search and the other is level 1 (in
   a share ``--rule-share`` of the games) or random. At each of the search's bids with two cards
   or more in hand, every card is played out over ``samples`` deals of the face-down prizes with
   the search's own opponent model (``bots.search_values``), from the seat's own state; the
   decision records each card's features and its mean result (1 win, 1/2 draw, 0 loss). The seat
   then bids the search's card (level 1's card unless another beats it by CONFIDENCE standard
   errors).
2. ``fit_choices`` (``--fit liking``, the default): the weights of a softmax over each decision's
   cards that minimise the cross-entropy to the search's liking of the cards, ``exp(sharpness *
   (the card's mean result - the best card's))`` normalised, with a small L2 penalty (Newton's
   method). ``--fit choice`` copies the search's bids instead; ``--fit values`` (``fit``) is least
   squares of the mean results on the features, both relative to the decision's mean.
3. Write the weights to ``level2_weights.npz`` (``makeenv.learn.policy.save_weights``: one layer,
   1 x NUM_FEATURES, bias 0) with the arguments as meta.

``python -m makeenv.games.goofspiel.train_level2 --games 3000 --samples 256 --seed 0`` (the
defaults) made the shipped file; the same arguments give the same file.
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
    MY_CARDS,
    NUM_FEATURES,
    SCRATCH,
    follows_rule_share,
    hand_features,
    learned_bid,
    learned_data,
    rank_match_state,
    search_choice,
    search_values,
)
from .logic import (
    E_WINNER,
    NUM_CARDS,
    S_HAND,
    checkEnded,
    getCurrentPlayer,
    getPlayerState,
    initEnv,
    stepEnv,
)

WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")
RIDGE = 1e-3  # times the number of rows, added to the normal equations' diagonal


@njit  # not cached: a cached copy would keep an old hand_features after bots.py changes
def collect(games, samples, rule_share, capacity, seed, student):
    """Rows (features, mean result, decision number) of the search's decisions, the decisions,
    and the points (1 a win, 1/2 a draw) of the seat against each kind of opponent. With
    ``student`` (level 2's data: weights and scratch) the seat bids level 2's card instead of the
    search's, so the decisions are those level 2 meets."""
    np.random.seed(seed)
    features = np.zeros((capacity, NUM_FEATURES), dtype=np.float64)
    values = np.zeros(capacity, dtype=np.float64)
    decision = np.zeros(capacity, dtype=np.int64)
    chosen = np.zeros(capacity, dtype=np.float64)
    scratch = np.zeros(SCRATCH)
    results = np.zeros(NUM_CARDS)
    gain = np.zeros(NUM_CARDS)
    gain_sq = np.zeros(NUM_CARDS)
    points = np.zeros(2)  # the search's points against random players, against level 1
    played = np.zeros(2)
    rows, decisions = 0, 0
    for g in range(games):
        env = initEnv()
        teacher = g % 2
        follower = 1 if np.random.random() < rule_share else 0
        while checkEnded(env) == -1:
            player = getCurrentPlayer(env)
            state = getPlayerState(env, player)
            if player != teacher:
                if follower == 1:
                    stepEnv(max(rank_match_state(state), 0), env)
                else:
                    pick = int(np.random.random() * np.sum(state[S_HAND : S_HAND + NUM_CARDS]))
                    for k in range(NUM_CARDS):
                        if state[S_HAND + k] == 1.0:
                            if pick == 0:
                                stepEnv(k, env)
                                break
                            pick -= 1
                continue
            held = int(np.sum(state[S_HAND : S_HAND + NUM_CARDS]))
            if held <= 1:
                stepEnv(max(rank_match_state(state), 0), env)
                continue
            if rows + held > capacity:
                break
            results[:] = 0.0
            gain[:] = 0.0
            gain_sq[:] = 0.0
            share = follows_rule_share(state)
            default = search_values(state, samples, share, results, gain, gain_sq)
            hand_features(state, scratch)
            for i in range(held):
                features[rows] = scratch[i * NUM_FEATURES : (i + 1) * NUM_FEATURES]
                values[rows] = results[int(scratch[MY_CARDS + i])] / samples
                decision[rows] = decisions
                rows += 1
            bid = search_choice(state, samples, default, gain, gain_sq)
            chosen[rows - held + bid_index(state, bid)] = 1.0
            if student.shape[0] > 0:
                bid = learned_bid(state, student)
            decisions += 1
            stepEnv(bid, env)
        if checkEnded(env) == -1:  # out of room
            break
        winner = env[E_WINNER]
        played[follower] += 1.0
        points[follower] += 1.0 if winner == teacher else (0.5 if winner == 2 else 0.0)
    return features[:rows], values[:rows], decision[:rows], chosen[:rows], decisions, points, played


@njit
def bid_index(state, bid) -> int:
    """Where ``bid`` comes among the cards of my hand (0 = my lowest)."""
    index = 0
    for k in range(bid):
        if state[S_HAND + k] == 1.0:
            index += 1
    return index


def fit_choices(
    features: np.ndarray, target: np.ndarray, decision: np.ndarray, l2: float, steps: int = 30
) -> np.ndarray:
    """The weights of a softmax over each decision's cards (score: features @ weights) that
    minimise the cross-entropy to ``target`` (each decision's target shares sum to 1) plus ``l2``
    times the rows times the squared weights; Newton's method."""
    starts = np.r_[0, np.flatnonzero(np.diff(decision)) + 1]
    n, f = features.shape
    w = np.zeros(f)
    for _ in range(steps):
        score = features @ w
        score -= np.maximum.reduceat(score, starts)[decision]
        e = np.exp(score)
        p = e / np.add.reduceat(e, starts)[decision]
        grad = features.T @ (p - target) + 2.0 * l2 * n * w
        mean = np.add.reduceat(features * p[:, None], starts)  # per decision: sum of p x
        hess = (features * p[:, None]).T @ features - mean.T @ mean + 2.0 * l2 * n * np.eye(f)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-9:
            break
    return w


def agreement(weights: np.ndarray, features: np.ndarray, values: np.ndarray, decision: np.ndarray) -> float:
    """The share of decisions whose best-scored card is (one of) the cards of the highest value."""
    score = features @ weights
    starts = np.r_[0, np.flatnonzero(np.diff(decision)) + 1]
    ends = np.r_[starts[1:], len(decision)]
    hits = [values[a + int(np.argmax(score[a:b]))] >= values[a:b].max() for a, b in zip(starts, ends, strict=True)]
    return float(np.mean(hits))


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=3000, help="games to collect the search's decisions from")
    p.add_argument("--samples", type=int, default=256, help="deals the search plays each card out on")
    p.add_argument("--rule-share", type=float, default=0.5, help="share of games against level 1 (else random)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--capacity", type=int, default=2_000_000, help="most rows (cards) to keep")
    p.add_argument(
        "--fit",
        choices=("choice", "liking", "values"),
        default="liking",
        help="copy the search's bids (softmax), its liking of the cards (softmax over exp(sharpness * value)) "
        "or its values (least squares)",
    )
    p.add_argument("--sharpness", type=float, default=50.0, help="for --fit liking")
    p.add_argument(
        "--l2", type=float, default=1e-3, help="penalty on the squared weights (times the rows), softmax fits"
    )
    p.add_argument("--student", default="", help="weights (.npz) of a level 2 whose bids the search's seat plays")
    p.add_argument("--out", default=str(WEIGHTS_FILE))
    p.add_argument("--save-data", default="", help="also write the rows (.npz) here")
    p.add_argument("--from-data", default="", help="fit rows saved by --save-data instead")
    args = p.parse_args(argv)
    start = time.process_time()
    student = learned_data(args.student) if args.student else np.zeros(0)
    if args.from_data:
        saved = np.load(args.from_data)
        features, values, decision, chosen = (saved[key] for key in ("features", "values", "decision", "chosen"))
    else:
        features, values, decision, chosen, decisions, points, played = collect(
            args.games, args.samples, args.rule_share, args.capacity, args.seed, student
        )
        print(
            f"{decisions} decisions ({len(values)} cards) from {int(played.sum())} games in "
            f"{time.process_time() - start:.0f} s of CPU; the seat scored {points[1] / max(played[1], 1):.1%} "
            f"against level 1, {points[0] / max(played[0], 1):.1%} against random",
            file=sys.stderr,
        )
        if args.save_data:
            np.savez_compressed(args.save_data, features=features, values=values, decision=decision, chosen=chosen)
    if args.fit == "values":
        weights = fit_relative_values(features, values, decision, RIDGE)
    else:
        target = chosen
        if args.fit == "liking":
            starts = np.r_[0, np.flatnonzero(np.diff(decision)) + 1]
            liking = np.exp(args.sharpness * (values - np.maximum.reduceat(values, starts)[decision]))
            target = liking / np.add.reduceat(liking, starts)[decision]
        weights = fit_choices(features, target, decision, args.l2)
    print("weights:", np.array2string(weights, precision=4), file=sys.stderr)
    print(
        f"best-valued card chosen in {agreement(weights, features, values, decision):.1%} of the decisions",
        file=sys.stderr,
    )
    save_weights(
        args.out,
        [(weights[None, :], np.zeros(1))],
        game="Goofspiel",
        games=args.games,
        samples=args.samples,
        rule_share=args.rule_share,
        seed=args.seed,
        fit=args.fit,
        student=Path(args.student).name,
        rows=len(values),
    )
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
