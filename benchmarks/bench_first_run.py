"""How long a user waits for the first `makeenv run <game>` on a fresh machine (empty caches).

Each game runs in a new process with an empty numba cache (NUMBA_CACHE_DIR) and an empty makeenv
cache (MAKEENV_CACHE_DIR), so everything it needs is compiled: the game's functions, its referee
and the runner's loop. A second run with the same caches shows the warm start. Seconds of the
whole command, median of --rounds runs: wall-clock (what a user waits for on a quiet machine) and
CPU (user + system of the command: what it costs, and the figure that holds on a busy machine).
``--compare VAR`` times each game also with ``VAR=0`` in the environment, interleaved (for example
``MAKEENV_BARE_CALLS``, ``MAKEENV_PLAIN_CALLS`` or ``MAKEENV_FAST_INLINING``, to see what a compile-time
change saves).

    python benchmarks/bench_first_run.py                 # every registered array game, level 0
    python benchmarks/bench_first_run.py --level 1 Splendor Hex
    python benchmarks/bench_first_run.py --compare MAKEENV_BARE_CALLS --rounds 3 Catan
    python benchmarks/bench_first_run.py --command check --compare MAKEENV_TRAMPOLINES Hex
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import makeenv
from makeenv.registry import REGISTRY

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_games import cpu_name  # noqa: E402


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(game: str, level: int, env: dict[str, str], what: str = "run") -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds) of one `makeenv run` (or `makeenv check`) of ``game``."""
    command = [sys.executable, "-m", "makeenv", "run", game, "--games", "200", "--level", str(level), "--seed", "1"]
    if what == "check":
        command = [sys.executable, "-m", "makeenv", "check", game]
    started, cpu = time.perf_counter(), children_cpu()
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        raise SystemExit(f"{game}: makeenv run failed:\n{result.stderr}")
    return elapsed, children_cpu() - cpu


def first_and_second(
    game: str, level: int, extra: dict[str, str], what: str = "run"
) -> tuple[tuple[float, float], tuple[float, float]]:
    """The timings of a run with empty caches and of a second run with the caches it left."""
    with tempfile.TemporaryDirectory() as numba_cache, tempfile.TemporaryDirectory() as makeenv_cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": numba_cache, "MAKEENV_CACHE_DIR": makeenv_cache, **extra}
        return timed_run(game, level, env, what), timed_run(game, level, env, what)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="games to time (default: every registered array game)")
    parser.add_argument("--level", type=int, default=0, help="opponent level (default 0, as `makeenv run`)")
    parser.add_argument("--rounds", type=int, default=1, help="cold runs per game (median)")
    parser.add_argument("--compare", metavar="VAR", help="also time each game with VAR=0 (interleaved)")
    parser.add_argument(
        "--command", choices=("run", "check"), default="run", help="time `makeenv run` (default) or `makeenv check`"
    )
    args = parser.parse_args()
    games = args.games or sorted(spec.id for spec in REGISTRY.values() if spec.kind == "array")
    settings = {"": {}} if not args.compare else {"": {args.compare: "1"}, f"{args.compare}=0": {args.compare: "0"}}
    what = f"makeenv run <game> --games 200 --level {args.level}" if args.command == "run" else "makeenv check <game>"
    print(f"CPU: {cpu_name()}; {what}; load average {os.getloadavg()[0]:.1f}")
    print(f"{'game':20} {'setting':24} {'cold wall s':>11} {'cold CPU s':>10} {'warm wall s':>11} {'warm CPU s':>10}")
    worst = 0.0
    for game in games:
        timings: dict[str, list[tuple[tuple[float, float], tuple[float, float]]]] = {name: [] for name in settings}
        for _ in range(args.rounds):
            for name, extra in settings.items():
                timings[name].append(first_and_second(game, args.level, extra, args.command))
        for name, runs in timings.items():
            cold_wall, cold_cpu = (statistics.median(run[0][i] for run in runs) for i in (0, 1))
            warm_wall, warm_cpu = (statistics.median(run[1][i] for run in runs) for i in (0, 1))
            worst = max(worst, cold_wall) if not name else worst
            print(
                f"{game:20} {name or 'default':24} {cold_wall:11.1f} {cold_cpu:10.1f} {warm_wall:11.1f} {warm_cpu:10.1f}",
                flush=True,
            )
    print(
        f"slowest first {args.command}: {worst:.1f} s wall (makeenv {makeenv.__version__}, Python {platform.python_version()})"
    )


if __name__ == "__main__":
    main()
