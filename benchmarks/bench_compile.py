"""Seconds numba spends compiling what a user's own agent needs, with makeenv's faster inlining
(``makeenv/array/inlining.py``) and with numba's own (``MAKEENV_FAST_INLINING=0``), side by side.

For each game and setting, a new process with empty numba and makeenv caches runs a user's
``@njit`` agent (the seed's idiom) for a few games: that compiles the game's functions, its referee
and a runner loop ("first run"). Then a second agent is run: only its own loop module is compiled
("new agent"), what a user waits for after each change to their agent. Wall-clock seconds,
medians of --rounds runs, the settings interleaved.

    python benchmarks/bench_compile.py                       # a few games of each size
    python benchmarks/bench_compile.py Catan --rounds 5
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_games import cpu_name  # noqa: E402

SNIPPET = """
import sys, time
started = time.perf_counter()
import numpy as np
from numba import njit
import makeenv

env = makeenv.make(sys.argv[1])
valid_actions = env.getValidActions


@njit
def first(state, data):
    valid = valid_actions(state)
    return np.where(valid == 1)[0][0], data


@njit
def last(state, data):
    valid = valid_actions(state)
    return np.where(valid == 1)[0][-1], data


env.run(first, 3, 0.0, 0, seed=1)
middle = time.perf_counter()
env.run(last, 3, 0.0, 0, seed=1)
print(middle - started, time.perf_counter() - middle)
"""

SETTINGS = {"makeenv's inlining": "1", "numba's own": "0"}


def timed(game: str, switch: str) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as numba_cache, tempfile.TemporaryDirectory() as makeenv_cache:
        env = {
            **os.environ,
            "NUMBA_CACHE_DIR": numba_cache,
            "MAKEENV_CACHE_DIR": makeenv_cache,
            "MAKEENV_FAST_INLINING": switch,
        }
        result = subprocess.run([sys.executable, "-c", SNIPPET, game], env=env, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{game}: the run failed:\n{result.stderr}")
    first, second = result.stdout.split()
    return float(first), float(second)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", default=["TicTacToe", "LiarsDice", "Splendor", "Catan"])
    parser.add_argument("--rounds", type=int, default=3, help="runs per game and setting (median)")
    args = parser.parse_args()
    print(f"CPU: {cpu_name()}; wall-clock seconds, medians")
    print("| game | first run: makeenv's / numba's inlining | new agent: makeenv's / numba's inlining | ratio |")
    print("|---|---|---|---|")
    for game in args.games:
        times: dict[str, list[tuple[float, float]]] = {label: [] for label in SETTINGS}
        for _ in range(args.rounds):
            for label, switch in SETTINGS.items():
                times[label].append(timed(game, switch))
        ours, theirs = times["makeenv's inlining"], times["numba's own"]
        first = [statistics.median(t[0] for t in runs) for runs in (ours, theirs)]
        agent = [statistics.median(t[1] for t in runs) for runs in (ours, theirs)]
        print(
            f"| {game} | {first[0]:.1f} / {first[1]:.1f} | {agent[0]:.1f} / {agent[1]:.1f} | "
            f"new agent {agent[1] / agent[0]:.2f}x faster |",
            flush=True,
        )


if __name__ == "__main__":
    main()
