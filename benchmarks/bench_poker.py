"""Poker speed: random-vs-random games/s of ``env.run("random", N)`` against OpenSpiel's Python loop.

    python benchmarks/bench_poker.py            # KuhnPoker and LeducPoker, 7 interleaved rounds
    python benchmarks/bench_poker.py --quick    # fewer games and rounds

OpenSpiel's loop is the usual one (``legal_actions``, ``chance_outcomes``, ``apply_action``,
``returns`` with Python's ``random``). The two run back to back in each round, so a busy moment
of the machine hurts both; the ratio printed is the median of the per-round ratios. Compilation is
excluded (a warm-up run first). One core.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pyspiel

import makeenv

GAMES = {"KuhnPoker": "kuhn_poker", "LeducPoker": "leduc_poker"}


def openspiel_loop(game, num_games: int, rng: random.Random) -> float:
    """Random play of ``num_games`` hands; returns player 0's total return (so nothing is skipped)."""
    total = 0.0
    for _ in range(num_games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        total += state.returns()[0]
    return total


def bench(name: str, ours_games: int, theirs_games: int, rounds: int) -> None:
    env = makeenv.make(name)
    game = pyspiel.load_game(GAMES[name])
    rng = random.Random(0)
    env.run("random", 1000, None, 0, seed=1)  # compile / load the cached loop
    openspiel_loop(game, 1000, rng)
    ours, theirs = [], []
    for r in range(rounds):
        start = time.perf_counter()
        env.run("random", ours_games, None, 0, seed=r)
        ours.append(ours_games / (time.perf_counter() - start))
        start = time.perf_counter()
        openspiel_loop(game, theirs_games, rng)
        theirs.append(theirs_games / (time.perf_counter() - start))
    ratio = statistics.median(a / b for a, b in zip(ours, theirs))
    print(f"{name:11s} env.run random {statistics.median(ours):>12,.0f} games/s   OpenSpiel Python loop "
          f"{statistics.median(theirs):>10,.0f} games/s   ratio {ratio:5.1f}x   ({rounds} rounds)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and rounds")
    args = parser.parse_args()
    ours_games, theirs_games, rounds = (300_000, 20_000, 3) if args.quick else (2_000_000, 100_000, 7)
    print(f"makeenv {makeenv.__version__}, numba {__import__('numba').__version__}, "
          f"OpenSpiel {getattr(pyspiel, '__version__', '?')}; medians over interleaved rounds, one core")
    for name in GAMES:
        bench(name, ours_games, theirs_games, rounds)


if __name__ == "__main__":
    main()
