"""The batched env against Pgx on the CPU, and the PettingZoo adapter, side by side in one run.

    python benchmarks/bench_batched.py            # TicTacToe and ConnectFour, batch 1024
    python benchmarks/bench_batched.py --quick    # fewer repeats
    pip install -e ".[bench]"                     # jax and pgx (without them Pgx is skipped)

Every side plays uniformly random valid moves for both players, over a batch of 1024 games that
restart as soon as they end, and counts **moves** (every player's, Pgx's "steps"):

* Pgx: ``jax.vmap`` of Pgx's step (with its auto-reset) inside ``jax.lax.scan`` of 100 steps,
  the random choice drawn in JAX from the legal-action mask; one jitted call per repeat.
* makeenv batched: ``BatchedEnv(game, 1024, level=0)``, the Gymnasium vector API from Python:
  each ``step`` is the agent's random valid move (``sample_valid_actions``) plus the level-0 bot's
  reply, in one compiled call; moves counted from ``infos["game_length"]`` and the games' steps.
  "agent steps" are the env steps a learner sees (one decision each).
* makeenv batched, 2 threads: the same with the batch in 2 chunks on numba's threads.
* the PettingZoo AEC adapter: one game at a time from Python, a random valid move per step.

Figures are medians of the repeats, compilation excluded (a warm-up first). The sides alternate
within each repeat, so a machine shared with other jobs slows them alike; the ratio is the figure.
Each side is also given per CPU-second of the process (all its threads), which other jobs on the
machine disturb less; numba's threads and XLA's count there too.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numba
import numpy as np

import makeenv
from makeenv.adapters import to_pettingzoo
from makeenv.adapters.batched_env import BatchedEnv

BATCH = 1024
PGX_NAMES = {"TicTacToe": "tic_tac_toe", "ConnectFour": "connect_four"}


# ---- Pgx ------------------------------------------------------------------------------------------


def pgx_runner(game: str, batch: int, length: int):
    """A function playing ``length`` random moves in each of ``batch`` Pgx games; returns (moves,
    wall seconds, CPU seconds of the process)."""
    import jax
    import jax.numpy as jnp
    import pgx
    from pgx.experimental import auto_reset

    env = pgx.make(PGX_NAMES[game])
    init = jax.jit(jax.vmap(env.init))
    step = jax.vmap(auto_reset(env.step, env.init))

    def body(carry, _):
        state, key = carry
        key, choose, reset = jax.random.split(key, 3)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(choose, logits, axis=-1)
        state = step(state, action, jax.random.split(reset, batch))
        return (state, key), None

    @jax.jit
    def play(state, key):
        (state, key), _ = jax.lax.scan(body, (state, key), None, length=length)
        return state, key

    state = init(jax.random.split(jax.random.PRNGKey(0), batch))
    key = jax.random.PRNGKey(1)
    state, key = play(state, key)  # compile
    jax.block_until_ready(state)
    holder = {"state": state, "key": key}

    def measure() -> tuple[int, float, float]:
        start, cpu = time.perf_counter(), time.process_time()
        holder["state"], holder["key"] = play(holder["state"], holder["key"])
        jax.block_until_ready(holder["state"])
        return batch * length, time.perf_counter() - start, time.process_time() - cpu

    return measure


# ---- makeenv --------------------------------------------------------------------------------------


def batched_runner(game: str, batch: int, length: int, threads: bool):
    """A function playing ``length`` steps of the batched env; returns (moves, wall seconds, CPU
    seconds, agent steps)."""
    env = BatchedEnv(makeenv.make(game), batch, 0, copy=False, chunks=2 if threads else 1, threads=threads)
    env.reset(seed=0)
    for _ in range(3):
        env.step(env.sample_valid_actions())  # compile

    def measure() -> tuple[int, float, float, int]:
        moves = 0
        before = env._steps.copy()
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(length):
            _, _, _, _, infos = env.step(env.sample_valid_actions())
            ended = infos.get("_game_length")
            if ended is not None:  # a game ended and a new one began in this step
                moves += int(infos["game_length"][ended].sum() - before[ended].sum())
                before[ended] = 0
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        moves += int(env._steps.sum() - before.sum())
        return moves, elapsed, cpu, batch * length

    return measure


def pettingzoo_runner(game: str, moves: int):
    """A function playing ``moves`` random moves through the PettingZoo AEC adapter; returns (moves,
    wall seconds, CPU seconds)."""
    env = to_pettingzoo(makeenv.make(game))
    env.reset(seed=0)
    rng = np.random.default_rng(0)

    def measure() -> tuple[int, float, float]:
        start, cpu = time.perf_counter(), time.process_time()
        done = 0
        while done < moves:
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                if not env.agents:
                    env.reset()
                continue
            env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            done += 1
        return done, time.perf_counter() - start, time.process_time() - cpu

    return measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="3 repeats instead of 7")
    parser.add_argument("--games", nargs="*", default=list(PGX_NAMES))
    args = parser.parse_args()
    repeats = 3 if args.quick else 7
    try:
        import pgx  # noqa: F401

        have_pgx = True
    except ImportError:
        have_pgx = False
        print("Pgx is not installed: its column is skipped (pip install -e '.[bench]' adds jax and pgx).")
    print(
        f"batch {BATCH}, random moves for every player, {repeats} repeats (medians); "
        f"numba threads available: {numba.config.NUMBA_NUM_THREADS}"
    )
    for game in args.games:
        sides = {}
        if have_pgx:
            sides["Pgx (vmap + scan)"] = pgx_runner(game, BATCH, 100)
        sides["makeenv batched"] = batched_runner(game, BATCH, 100, threads=False)
        sides["makeenv batched, 2 threads"] = batched_runner(game, BATCH, 100, threads=True)
        sides["makeenv PettingZoo AEC"] = pettingzoo_runner(game, 5_000)
        figures: dict[str, list] = {name: [] for name in sides}
        for _ in range(repeats):
            for name, measure in sides.items():
                figures[name].append(measure())
        print(f"\n{game}: moves/s by the wall clock (the machine as it is), and per CPU-second of the process")
        rates = {
            name: (statistics.median(v[0] / v[1] for v in values), statistics.median(v[0] / v[2] for v in values))
            for name, values in figures.items()
        }
        pgx_wall, pgx_cpu = rates.get("Pgx (vmap + scan)", (None, None))
        for name, (wall, cpu) in rates.items():
            ratio = f"{wall / pgx_wall:6.2f}x Pgx" if pgx_wall else ""
            cpu_ratio = f"{cpu / pgx_cpu:6.2f}x Pgx" if pgx_cpu else ""
            agent = ""
            if len(figures[name][0]) == 4:
                agent = f"   {statistics.median(v[3] / v[1] for v in figures[name]) / 1e6:5.2f}M agent steps/s"
            print(f"  {name:28s} {wall / 1e6:7.3f}M/s {ratio}   {cpu / 1e6:7.3f}M/CPU-s {cpu_ratio}{agent}")


if __name__ == "__main__":
    main()
