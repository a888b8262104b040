"""Solve KuhnPoker and LeducPoker with CFR+, written in numba over the games' contract functions.

    python examples/cfr_poker.py                          # both games, to their targets
    python examples/cfr_poker.py --game LeducPoker --target 0.01

The solver (``makeenv.games._poker.cfr.CFRSolver``) walks every deal's game tree by stepping
copies of envs and keys information sets by the player's state vector; nothing in it knows
poker. Every few iterations this script asks OpenSpiel (the independent reference) how
exploitable the average strategy is, and stops at the target: below 0.001 chips per hand for
Kuhn (the game value is -1/18 for the first player), below 0.05 for Leduc.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import makeenv
from makeenv.games._poker import openspiel as poker_openspiel
from makeenv.games._poker.cfr import CFRSolver

TARGETS = {"KuhnPoker": 0.001, "LeducPoker": 0.05}


@dataclass
class Solved:
    game: str
    iterations: int
    exploitability: float
    setup_seconds: float  # building the solver: compiling the walk, finding every information set
    cfr_seconds: float  # the CFR+ iterations alone
    checks: list[tuple[int, float, float]]  # (iterations, seconds of CFR so far, exploitability)


def solve(
    game: str,
    target: float,
    max_iterations: int = 10_000,
    first_check: int = 5,
    growth: float = 1.5,
    verbose: bool = False,
) -> Solved:
    """Run CFR+ on ``game`` until OpenSpiel's exploitability of the average strategy is below
    ``target`` (checked at iteration counts growing by ``growth``) or ``max_iterations``."""
    env = makeenv.make(game)
    start = time.perf_counter()
    solver = CFRSolver(env)
    solver.run(1)  # compiles the walk
    setup = time.perf_counter() - start
    cfr_seconds = 0.0
    checks: list[tuple[int, float, float]] = []
    next_check = first_check
    while True:
        start = time.perf_counter()
        solver.run(next_check - solver.iterations)
        cfr_seconds += time.perf_counter() - start
        exploitability = poker_openspiel.exploitability(env, solver.policy)
        checks.append((solver.iterations, cfr_seconds, exploitability))
        if verbose:
            print(
                f"  {game}: {solver.iterations:5d} iterations, {cfr_seconds:6.2f} s of CFR, "
                f"exploitability {exploitability:.5f}"
            )
        if exploitability < target or solver.iterations >= max_iterations:
            return Solved(game, solver.iterations, exploitability, setup, cfr_seconds, checks)
        next_check = min(max_iterations, max(next_check + 1, int(next_check * growth)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(TARGETS), action="append", help="a game (default: both)")
    parser.add_argument("--target", type=float, help="exploitability to reach (default: 0.001 Kuhn, 0.05 Leduc)")
    args = parser.parse_args()
    for game in args.game or list(TARGETS):
        target = args.target if args.target is not None else TARGETS[game]
        result = solve(game, target, verbose=True)
        print(
            f"{game}: exploitability {result.exploitability:.5f} (target {target}) after {result.iterations} "
            f"CFR+ iterations: {result.cfr_seconds:.2f} s of CFR + {result.setup_seconds:.2f} s setup "
            f"(compiling, finding the information sets)"
        )


if __name__ == "__main__":
    main()
