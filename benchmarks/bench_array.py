"""Array-env speed: the runner vs a hand-fused loop and the seed's own run, Python agents, workers, the CLI.

    python benchmarks/bench_array.py            # full run (a few minutes on an idle 2-core machine)
    python benchmarks/bench_array.py --quick    # fewer games and repeats
    VIS_ENV_DIR=/path/to/ENV python benchmarks/bench_array.py   # also the seed's own run, side by side

The seed's reference implementation is the public vis/ENV library (github.com/ngoxuanphong/ENV):
clone it anywhere (it is never part of this repository) and point VIS_ENV_DIR at it. Figures are
medians of several repeats after a warm-up (compilation excluded, except in the "cold" CLI
figure); ratios are medians of per-round ratios of contenders run back to back.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
from numba import njit

import makeenv
from makeenv.games.rock_paper_scissors import logic as L

ENV = makeenv.make("RockPaperScissors")


@njit(cache=True)
def readme_agent(state, data):
    """The README's idiom: a random agent calling the game through the env inside @njit."""
    valid = ENV.getValidActions(state)
    count = 0
    for i in range(valid.shape[0]):
        if valid[i] == 1.0:
            count += 1
    k = int(np.random.random() * count)
    for i in range(valid.shape[0]):
        if valid[i] == 1.0:
            if k == 0:
                return i, data
            k -= 1
    return 0, data


# ---- agents ---------------------------------------------------------------------------------------


@njit(cache=True)
def user_numba_random(state, data):
    """A random agent as a user would write it (its actions are checked by the runner)."""
    valid = L.getValidActions(state)
    count = 0
    for i in range(valid.shape[0]):
        if valid[i] == 1.0:
            count += 1
    k = int(np.random.random() * count)
    for i in range(valid.shape[0]):
        if valid[i] == 1.0:
            if k == 0:
                return i, data
            k -= 1
    return 0, data


def python_random(state, data, _valid=L.getValidActions, _randrange=random.randrange):
    """A plain Python random agent."""
    actions = np.flatnonzero(_valid(state))
    return int(actions[_randrange(len(actions))]), data


# ---- the hand-fused loop: the same game functions and random choice, no framework ------------------


@njit(cache=True)
def _pick(valid):
    count = 0
    for i in range(valid.shape[0]):
        if valid[i] == 1.0:
            count += 1
    k = int(np.random.random() * count)
    for i in range(valid.shape[0]):
        if valid[i] == 1.0:
            if k == 0:
                return i
            k -= 1
    return -1


@njit(cache=True)
def hand_fused(num_games, seed):
    np.random.seed(seed)
    wins = 0
    for _ in range(num_games):
        me = int(np.random.random() * 2)  # shuffled seat
        env = L.initEnv()
        while L.checkEnded(env) == -1:
            state = L.getAgentState(env)
            env = L.stepEnv(_pick(L.getValidActions(state)), env)
        _pick(L.getValidActions(L.getPlayerState(env, me)))  # the agent's final turn
        if L.checkEnded(env) == me:
            wins += 1
    return wins


# ---- measuring ------------------------------------------------------------------------------------


def median_rate(fn, games: int, repeats: int) -> float:
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn(games)
        rates.append(games / (time.perf_counter() - start))
    return statistics.median(rates)


def bench_numba(games: int, repeats: int) -> None:
    hand_fused(1000, 1)
    ENV.run(ENV.random_agent, 1000, None, 0, seed=1)
    ENV.run(user_numba_random, 1000, None, 0, seed=1)
    contenders = {
        "fused": lambda n: hand_fused(n, 1),
        "builtin": lambda n: ENV.run(ENV.random_agent, n, None, 0, seed=1),
        "user": lambda n: ENV.run(user_numba_random, n, None, 0, seed=1),
    }
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):  # interleaved, so a busy moment hurts all three alike
        for name, fn in contenders.items():
            start = time.perf_counter()
            fn(games)
            rates[name].append(games / (time.perf_counter() - start))
    fused, builtin, user = (statistics.median(rates[name]) for name in contenders)

    def share(name: str) -> str:
        """Median over rounds of (this rate / hand-fused rate in the same round): a slow moment of
        the machine cancels out, since both ran back to back."""
        ratios = [mine / base for mine, base in zip(rates[name], rates["fused"])]
        return f"{100 * statistics.median(ratios):5.1f}% of hand-fused"

    print(
        f"numba random agent vs level 0, {games:,} games x {repeats} interleaved rounds "
        "(median games/s; median of the per-round ratios):"
    )
    print(f"  hand-fused njit loop over the game functions      {fused:>12,.0f}")
    print(f"  env.run, built-in random agent (env.random_agent) {builtin:>12,.0f}   {share('builtin')}")
    print(
        f"  env.run, user-written @njit random agent          {user:>12,.0f}   {share('user')}  (every action checked)"
    )


def bench_python(games: int, repeats: int) -> None:
    ENV.run(python_random, 100, None, 0, seed=1)
    rate = median_rate(lambda n: ENV.run(python_random, n, None, 0, seed=1), games, repeats)

    states = []

    def recording(state, data):
        states.append(state)
        return python_random(state, data)

    ENV.run(recording, games, None, 0, seed=1)
    calls_per_game = len(states) / games
    agent_times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for state in states:
            python_random(state, None)
        agent_times.append(time.perf_counter() - start)
    agent_per_game = statistics.median(agent_times) / games
    per_game = 1.0 / rate
    share = agent_per_game / per_game
    print(f"plain Python random agent vs level 0, {games:,} games x {repeats}:")
    print(f"  env.run                                          {rate:>12,.0f} games/s")
    print(
        f"  agent calls per game {calls_per_game:.2f}; per game: total {per_game * 1e6:.1f} us, "
        f"agent alone {agent_per_game * 1e6:.1f} us ({100 * share:.0f}%), framework "
        f"{(per_game - agent_per_game) * 1e6:.1f} us ({100 * (1 - share):.0f}%)"
    )


def load_seed_game(game: str):
    """The seed's own env module of ``game`` from a local vis/ENV checkout (VIS_ENV_DIR), or None."""
    root = os.environ.get("VIS_ENV_DIR")
    if not root:
        return None
    path = os.path.join(root, "src", "Base", game, "env.py")
    if not os.path.isfile(path):
        raise SystemExit(f"VIS_ENV_DIR={root!r} has no src/Base/{game}/env.py; point it at a vis/ENV checkout")
    if root not in sys.path:
        sys.path.insert(0, root)
    spec = importlib.util.spec_from_file_location(f"vis_env_{game}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_seed(games: int, repeats: int) -> None:
    seed_env = load_seed_game("RockPaperScissors")
    if seed_env is None:
        print("seed's own run: skipped (set VIS_ENV_DIR to a local checkout of github.com/ngoxuanphong/ENV)")
        return
    seed_valid = seed_env.getValidActions

    @njit
    def seed_agent(state, per):
        """The same random agent, written against the seed's env module."""
        valid = seed_valid(state)
        count = 0
        for i in range(valid.shape[0]):
            if valid[i] == 1.0:
                count += 1
        k = int(np.random.random() * count)
        for i in range(valid.shape[0]):
            if valid[i] == 1.0:
                if k == 0:
                    return i, per
                k -= 1
        return 0, per

    per = np.array([[0.0]])
    seed_env.run(seed_agent, 1000, per, 0)
    ENV.run(readme_agent, 1000, None, 0, seed=1)
    contenders = {
        "seed": lambda n: seed_env.run(seed_agent, n, per, 0),
        "makeenv": lambda n: ENV.run(readme_agent, n, None, 0, seed=1),
    }
    seed_games = max(games // 10, 10_000)
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(repeats):
        for name, fn in contenders.items():
            n = seed_games if name == "seed" else games
            start = time.perf_counter()
            fn(n)
            rates[name].append(n / (time.perf_counter() - start))
    ratio = statistics.median(m / s for m, s in zip(rates["makeenv"], rates["seed"]))
    print(
        f"a user-written @njit random agent vs level 0, the seed's run(agent, n, per, 0) vs makeenv's env.run "
        f"({repeats} interleaved rounds):"
    )
    print(f"  seed's own run (vis/ENV RockPaperScissors)       {statistics.median(rates['seed']):>12,.0f} games/s")
    print(
        f"  makeenv env.run (README idiom)                   {statistics.median(rates['makeenv']):>12,.0f} games/s"
        f"   {ratio:.1f}x the seed's run"
    )


def bench_workers(games: int, repeats: int) -> None:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    workers = min(2, cores)
    ENV.run("random", 1000, None, 0, seed=1, workers=workers)
    rates: dict[int, list[float]] = {1: [], workers: []}
    for _ in range(repeats):
        for count in rates:
            start = time.perf_counter()
            ENV.run("random", games, None, 0, seed=1, workers=count)
            rates[count].append(games / (time.perf_counter() - start))
    ratio = statistics.median(b / a for a, b in zip(rates[1], rates[workers]))
    print(f"built-in random agent, {games:,} games, workers=1 vs workers={workers} ({cores} cores, {repeats} rounds):")
    print(
        f"  workers=1 {statistics.median(rates[1]):>12,.0f} games/s   workers={workers} "
        f"{statistics.median(rates[workers]):>12,.0f} games/s   {ratio:.2f}x"
    )


def _cli() -> list[str]:
    exe = shutil.which("makeenv")
    return [exe] if exe else [sys.executable, "-c", "from makeenv.cli import main; main()"]


def bench_cli(repeats: int) -> None:
    command = _cli() + ["run", "RockPaperScissors", "--games", "1000"]

    def wall(env_vars: dict[str, str] | None = None) -> float:
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env={**os.environ, **(env_vars or {})})
        return time.perf_counter() - start

    wall()  # warm the caches
    warm = statistics.median(wall() for _ in range(repeats))
    with tempfile.TemporaryDirectory() as cold_dir:
        # NUMBA_CACHE_DIR redirects every numba cache (game functions and runner) to an empty folder
        cold = wall({"NUMBA_CACHE_DIR": cold_dir, "MAKEENV_CACHE_DIR": cold_dir})
    print(
        f"`makeenv run RockPaperScissors --games 1000` wall time: warm {warm:.2f} s (median of {repeats}), "
        f"cold {cold:.2f} s (empty numba cache)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and repeats")
    parser.add_argument(
        "--workers-games",
        type=int,
        default=None,
        help="games of the workers comparison (default 30,000,000; --quick 3,000,000)",
    )
    args = parser.parse_args()
    numba_games, python_games, repeats = (300_000, 5_000, 5) if args.quick else (1_000_000, 20_000, 9)
    worker_games = args.workers_games or (3_000_000 if args.quick else 30_000_000)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"makeenv {makeenv.__version__}, numba {__import__('numba').__version__}; load average {load:.1f} "
        "(ratios are fair under load, absolute rates are not)"
    )
    bench_numba(numba_games, repeats)
    bench_seed(numba_games, repeats)
    bench_python(python_games, repeats)
    bench_workers(worker_games, 3)
    bench_cli(3)


if __name__ == "__main__":
    main()
