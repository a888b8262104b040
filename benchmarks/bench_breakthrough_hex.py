"""Breakthrough and Hex: random-play speed against OpenSpiel, and the built-in levels' strength.

    python benchmarks/bench_breakthrough_hex.py               # speed, side by side (about a minute)
    python benchmarks/bench_breakthrough_hex.py --levels      # also level 1 and 2 against random and each other

Speed: games per second of ``env.run("random", N)`` (the compiled runner, uniform random moves on
both sides) and of OpenSpiel's Python loop (``legal_actions`` / ``apply_action`` with
``random.choice``), measured alternately in one process; medians of the repeats, compilation
excluded. Strength: ``env.evaluate`` with fixed seeds; a level's figure is the random agent's (or
the weaker level's) win rate against it.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

import makeenv

GAMES = {"Breakthrough": "breakthrough", "Hex": "hex"}


def openspiel_games_per_second(game, games: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
    return games / (time.perf_counter() - start)


def ours_games_per_second(env, games: int, seed: int) -> float:
    start = time.perf_counter()
    env.run("random", games, None, 0, seed=seed)
    return games / (time.perf_counter() - start)


def speed(name: str, repeats: int, ours_games: int, their_games: int) -> None:
    import pyspiel

    env = makeenv.make(name)
    game = pyspiel.load_game(GAMES[name])
    env.run("random", 100, None, 0, seed=0)  # compile (or load the cached loop)
    ours, theirs = [], []
    for r in range(repeats):
        ours.append(ours_games_per_second(env, ours_games, r))
        theirs.append(openspiel_games_per_second(game, their_games, r))
    o, t = statistics.median(ours), statistics.median(theirs)
    print(f"{name:13s} random play: makeenv {o:>10,.0f} games/s   OpenSpiel (Python loop) {t:>8,.0f} games/s   "
          f"ratio {o / t:5.1f}x   (medians of {repeats})", flush=True)


def levels(name: str, games: dict[str, int]) -> None:
    env = makeenv.make(name)
    rows = [
        ("random vs level 1", lambda: env.evaluate("random", games["l1"], level=1, seed=1)),
        ("random vs level 2", lambda: env.evaluate("random", games["l2"], level=2, seed=2)),
        ("level 1 vs level 2", lambda: env.evaluate(env.bot(1), games["duel"], np.zeros(16), level=2, seed=3)),
    ]
    for label, run in rows:
        start = time.perf_counter()
        results = run()
        print(f"{name:13s} {label}: the first wins {results.wins}/{results.games} "
              f"({100 * results.win_rate:.1f}%), mean length {results.mean_steps:.1f}   "
              f"[{time.perf_counter() - start:.0f} s]", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", action="store_true", help="also measure the levels' strength")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    speed("Breakthrough", args.repeats, 20_000, 2_000)
    speed("Hex", args.repeats, 10_000, 1_000)
    if args.levels:
        levels("Breakthrough", {"l1": 1_000, "l2": 200, "duel": 400})
        levels("Hex", {"l1": 1_000, "l2": 100, "duel": 100})


if __name__ == "__main__":
    main()
