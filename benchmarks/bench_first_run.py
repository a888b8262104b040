"""How long a user waits for the first `makeenv run <game>` on a fresh machine (empty caches).

Each game runs in a new process with an empty numba cache (NUMBA_CACHE_DIR) and an empty makeenv
cache (MAKEENV_CACHE_DIR), so everything it needs is compiled: the game's functions, its referee
and the runner's loop. A second run with the same caches shows the warm start. Wall-clock seconds
of the whole command, median of --rounds runs.

    python benchmarks/bench_first_run.py                 # every registered array game, level 0
    python benchmarks/bench_first_run.py --level 1 Splendor Hex
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

import makeenv
from makeenv.registry import REGISTRY

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_games import cpu_name  # noqa: E402


def timed_run(game: str, level: int, env: dict[str, str]) -> float:
    command = [sys.executable, "-m", "makeenv", "run", game, "--games", "200", "--level", str(level), "--seed", "1"]
    started = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"{game}: makeenv run failed:\n{result.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="games to time (default: every registered array game)")
    parser.add_argument("--level", type=int, default=0, help="opponent level (default 0, as `makeenv run`)")
    parser.add_argument("--rounds", type=int, default=1, help="cold runs per game (median)")
    args = parser.parse_args()
    games = args.games or sorted(spec.id for spec in REGISTRY.values() if spec.kind == "array")
    print(f"CPU: {cpu_name()}; makeenv run <game> --games 200 --level {args.level}")
    print(f"{'game':20} {'cold s':>8} {'warm s':>8}")
    worst = 0.0
    for game in games:
        colds, warms = [], []
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory() as numba_cache, tempfile.TemporaryDirectory() as makeenv_cache:
                env = {**os.environ, "NUMBA_CACHE_DIR": numba_cache, "MAKEENV_CACHE_DIR": makeenv_cache}
                colds.append(timed_run(game, args.level, env))
                warms.append(timed_run(game, args.level, env))
        cold, warm = statistics.median(colds), statistics.median(warms)
        worst = max(worst, cold)
        print(f"{game:20} {cold:8.1f} {warm:8.1f}", flush=True)
    print(f"slowest first run: {worst:.1f} s (makeenv {makeenv.__version__}, Python {platform.python_version()})")


if __name__ == "__main__":
    main()
