"""Arena speed and statistics: a TicTacToe round robin of 4 numba entrants in games/s on 1 and 2
processes and on a local Ray of 2 CPUs (when Ray is installed: the ray extra), the cost of
recording against a plain ``env.run``, and the rating fit's error and interval coverage on
simulated entrants of known strength.

    python benchmarks/bench_arena.py            # about a minute on an idle 2-core machine
    python benchmarks/bench_arena.py --quick    # fewer games and simulations

Figures are printed, never asserted (compilation is excluded: a warm-up tournament runs first).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from numba import njit

import makeenv
from makeenv import arena
from makeenv.arena.ratings import Cell, fit
from makeenv.arena.schedule import expected_score
from makeenv.executors import Executor


@njit
def first_free(state, data):
    """Plays the first free cell (a weak, deterministic numba entrant); 0 on the final turn of a full board."""
    free = np.flatnonzero(state[:9] + state[9:18] == 0)  # cells with neither my mark nor theirs
    return (free[0] if free.size else 0), data


ENTRANTS = ["bot:0", "bot:1", "bot:2", f"first={Path(__file__).resolve()}:first_free"]


def round_robin_speed(games: int, executor: Executor, folder: Path, label: str) -> float:
    """Games per second of a fresh round robin (blocks of 1000, 2 kept per block)."""
    db = folder / f"rr-{label}-{games}.sqlite"
    started = time.perf_counter()
    report = arena.tournament("TicTacToe", ENTRANTS, games=games, block_size=1000, db=db, executor=executor)
    return report.games / (time.perf_counter() - started)


def ray_speed(games: int, folder: Path) -> float | None:
    """Games per second of the round robin as Ray tasks on a local Ray of 2 CPUs (None without Ray);
    a first round robin warms the workers up (each compiles or loads the loops once)."""
    try:
        import ray
    except ImportError:
        return None
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        executor = arena.RayExecutor()
        round_robin_speed(2000, executor, folder, "ray-warm-up")
        return round_robin_speed(games, executor, folder, "ray")
    finally:
        ray.shutdown()


def recording_overhead(games: int, folder: Path) -> tuple[float, float]:
    """(arena games/s, env.run games/s) of bot:2 against bot:1."""
    env = makeenv.make("TicTacToe")
    env.run(env.bot(2), 1000, env.opponents(2)[0].initial_data(), 1, seed=0)  # warm-up
    started = time.perf_counter()
    env.run(env.bot(2), games, env.opponents(2)[0].initial_data(), 1, seed=0)
    plain = games / (time.perf_counter() - started)
    started = time.perf_counter()
    report = arena.tournament(
        "TicTacToe", ["bot:2", "bot:1"], games=games // 2, block_size=1000, db=folder / "rec.sqlite"
    )
    return report.games / (time.perf_counter() - started), plain


def rating_simulation(simulations: int) -> tuple[float, float]:
    """(mean absolute error in Elo, coverage of the 95% intervals) over simulated round robins of 8
    entrants 600 Elo apart, 20 games per seating."""
    rng = np.random.default_rng(0)
    true = np.linspace(-300, 300, 8)
    centred = true - true.mean()
    names = [f"e{i}" for i in range(8)]
    errors, covered = [], 0
    for s in range(simulations):
        cells = []
        for i in range(8):
            for j in range(8):
                if i != j:
                    wins = int(rng.binomial(20, expected_score(true[i] - true[j])))
                    cells.append(Cell("sim", (names[i], names[j]), {"10": wins, "01": 20 - wins}))
        ratings = fit(cells, bootstrap=200, seed=s)
        order = [ratings.names.index(n) for n in names]
        errors.append(np.abs(ratings.elo[order] - centred).mean())
        covered += int(((ratings.lower[order] <= centred) & (centred <= ratings.upper[order])).sum())
    return float(np.mean(errors)), covered / (8 * simulations)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and simulations")
    args = parser.parse_args()
    games = 2000 if args.quick else 10_000
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        round_robin_speed(1000, arena.LocalExecutor(1), folder, "warm-up")  # compile everything once
        for workers in (1, 2):
            rate = round_robin_speed(games, arena.LocalExecutor(workers), folder, f"{workers}")
            print(f"round robin, 4 numba entrants, {workers} process(es): {rate:,.0f} games/s")
        on_ray = ray_speed(games, folder)
        print(
            "round robin, 4 numba entrants, local Ray (2 CPUs): "
            + (f"{on_ray:,.0f} games/s" if on_ray is not None else "skipped (pip install 'makeenv[ray]')")
        )
        arena_rate, plain = recording_overhead(2 * games, folder)
        print(
            f"bot:2 vs bot:1: arena {arena_rate:,.0f} games/s, env.run {plain:,.0f} games/s "
            f"(recording costs {100 * (1 - arena_rate / plain):.0f}% of the speed)"
        )
    error, coverage = rating_simulation(20 if args.quick else 100)
    print(
        f"rating simulation: mean absolute error {error:.1f} Elo, 95% intervals cover the truth {100 * coverage:.1f}%"
    )


if __name__ == "__main__":
    main()
