"""CFR+ on KuhnPoker and LeducPoker: seconds and OpenSpiel exploitability per iteration count.

    python benchmarks/bench_cfr.py            # 3 repeats per game
    python benchmarks/bench_cfr.py --quick    # 1 repeat, fewer iterations

For each game: the setup (compiling the walk for this game and finding every information set;
the first in the process pays the compilation), then, over fresh solvers, the cumulative CFR+
seconds at each iteration count (median of the repeats) and OpenSpiel's exploitability of the
average strategy there (CFR+ is deterministic: the same for every repeat). Targets: below 0.001
for Kuhn within 10 s, below 0.05 for Leduc within 2 minutes, compilation included. The CPU time
of the compilation is printed too: on a machine shared with other jobs the wall time is longer.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba

import makeenv
from makeenv.games._poker import openspiel as poker_openspiel
from makeenv.games._poker.cfr import CFRSolver

CHECKPOINTS = {"KuhnPoker": (10, 30, 100, 200, 300, 1000), "LeducPoker": (10, 30, 40, 50, 100, 300, 1000)}
QUICK = {"KuhnPoker": (10, 100, 300), "LeducPoker": (10, 50, 100)}
TARGETS = {"KuhnPoker": 0.001, "LeducPoker": 0.05}


def bench(game: str, checkpoints: tuple[int, ...], repeats: int) -> None:
    env = makeenv.make(game)
    start, cpu = time.perf_counter(), time.process_time()
    CFRSolver(env).run(1)
    first_setup, first_cpu = time.perf_counter() - start, time.process_time() - cpu
    setups: list[float] = []
    times: dict[int, list[float]] = {n: [] for n in checkpoints}
    exploitability: dict[int, float] = {}
    for repeat in range(repeats):
        start = time.perf_counter()
        solver = CFRSolver(env)
        setups.append(time.perf_counter() - start)
        elapsed = 0.0
        for n in checkpoints:
            start = time.perf_counter()
            solver.run(n - solver.iterations)
            elapsed += time.perf_counter() - start
            times[n].append(elapsed)
            if repeat == 0:
                exploitability[n] = poker_openspiel.exploitability(env, solver.policy)
    setup = statistics.median(setups)
    target = TARGETS[game]
    print(
        f"{game}: {solver.num_information_sets} information sets, {len(solver.deals)} deals; setup "
        f"{first_setup:.2f} s ({first_cpu:.2f} s of CPU) the first time in the process (compiling), "
        f"{setup:.3f} s after"
    )
    print("  iterations   CFR+ seconds   exploitability")
    reached = None
    for n in checkpoints:
        seconds = statistics.median(times[n])
        mark = ""
        if reached is None and exploitability[n] < target:
            reached = (n, seconds)
            mark = f"  <- below {target}"
        print(f"  {n:10d}   {seconds:12.3f}   {exploitability[n]:14.6f}{mark}")
    if reached:
        n, seconds = reached
        print(
            f"  time to exploitability < {target}: {n} iterations, {seconds:.2f} s of CFR+, "
            f"{first_setup + seconds:.2f} s with compilation and setup"
        )
    else:
        print(f"  exploitability < {target} not reached within {checkpoints[-1]} iterations")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one repeat, fewer iterations")
    args = parser.parse_args()
    print(
        f"makeenv {makeenv.__version__}, numba {numba.__version__}; one core; medians of "
        f"{1 if args.quick else 3} repeats"
    )
    for game in CHECKPOINTS:
        bench(game, QUICK[game] if args.quick else CHECKPOINTS[game], 1 if args.quick else 3)


if __name__ == "__main__":
    main()
