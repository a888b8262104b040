"""Array-env speed: the generic runner vs a hand-fused loop, Python agents, and the CLI.

    python benchmarks/bench_array.py            # full run (about a minute on an idle core)
    python benchmarks/bench_array.py --quick    # fewer games and repeats

Figures are medians of several repeats, after a warm-up (compilation excluded, except in the
"cold" CLI figure). Everything runs on one core.
"""

from __future__ import annotations

import argparse
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

    print(f"numba random agent vs level 0, {games:,} games x {repeats} interleaved rounds "
          "(median games/s; median of the per-round ratios):")
    print(f"  hand-fused njit loop over the game functions      {fused:>12,.0f}")
    print(f"  env.run, built-in random agent (env.random_agent) {builtin:>12,.0f}   {share('builtin')}")
    print(f"  env.run, user-written @njit random agent          {user:>12,.0f}   {share('user')}"
          "  (every action checked)")


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
    print(f"  agent calls per game {calls_per_game:.2f}; per game: total {per_game * 1e6:.1f} us, "
          f"agent alone {agent_per_game * 1e6:.1f} us ({100 * share:.0f}%), framework "
          f"{(per_game - agent_per_game) * 1e6:.1f} us ({100 * (1 - share):.0f}%)")


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
    print(f"`makeenv run RockPaperScissors --games 1000` wall time: warm {warm:.2f} s (median of {repeats}), "
          f"cold {cold:.2f} s (empty numba cache)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and repeats")
    args = parser.parse_args()
    numba_games, python_games, repeats = (300_000, 5_000, 5) if args.quick else (1_000_000, 20_000, 9)
    print(f"makeenv {makeenv.__version__}, numba {__import__('numba').__version__}, one core")
    bench_numba(numba_games, repeats)
    bench_python(python_games, repeats)
    bench_cli(3)


if __name__ == "__main__":
    main()
