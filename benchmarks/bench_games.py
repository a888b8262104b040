"""Every game's speed side by side with its peers: random-vs-random games/s.

    python benchmarks/bench_games.py                 # every game (a few minutes on an idle core)
    python benchmarks/bench_games.py --quick         # fewer games and rounds
    python benchmarks/bench_games.py TicTacToe Hex   # some games (every variant of each)
    VIS_ENV_DIR=/path/to/ENV python benchmarks/bench_games.py SushiGo Durak Splendor ExplodingKittens

makeenv plays ``env.run("random", N)``: the compiled loop, seats shuffled, every player's final
turn included. Its peers play the same rules with uniformly random moves:

* OpenSpiel's Python loop (``pyspiel``: ``legal_actions``, chance outcomes, ``apply_action`` or
  ``apply_actions`` for simultaneous nodes), for the classic games;
* Pgx on CPU (``jax.vmap`` of ``env.step`` over a batch of 1024 games inside one ``lax.scan``,
  compiled once), for TicTacToe and ConnectFour, when jax and pgx are installed
  (``pip install -e ".[bench]"``);
* the seed's own library (vis/ENV, github.com/ngoxuanphong/ENV, never part of this repository):
  its ``run(bot_lv0, n, per, 0)`` for its games, when VIS_ENV_DIR points at a local checkout.

Each round runs every contender back to back, so a busy moment of the machine hurts them alike;
a ratio is the median of the per-round ratios. Times are CPU times of this process
(``time.process_time``), so other programs sharing the cores do not count; Pgx's threads are
limited to one core for the same reason (XLA_FLAGS). Compilation is excluded (a warm-up first).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import makeenv  # noqa: E402


@dataclass
class Case:
    """A makeenv game and the names of its peers' versions."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    openspiel: str | None = None
    openspiel_options: dict[str, Any] = field(default_factory=dict)
    pgx: str | None = None
    seed_game: str | None = None  # folder under vis/ENV's src/Base
    games: int = 200_000  # makeenv games per round (peers play fewer, scaled to their speed)


CASES = [
    Case("TicTacToe", openspiel="tic_tac_toe", pgx="tic_tac_toe", games=400_000),
    Case("ConnectFour", openspiel="connect_four", pgx="connect_four", games=100_000),
    Case("KuhnPoker", openspiel="kuhn_poker", games=1_000_000),
    Case("LeducPoker", openspiel="leduc_poker", games=500_000),
    Case("LiarsDice", openspiel="liars_dice", games=500_000),
    Case("LiarsDice", {"dice": 2}, openspiel="liars_dice", openspiel_options={"numdice": 2}, games=500_000),
    Case("Goofspiel", openspiel="goofspiel", games=50_000),
    Case("Breakthrough", openspiel="breakthrough", games=20_000),
    Case("Hex", openspiel="hex", games=20_000),
    Case("SushiGo", {"players": 5}, seed_game="SushiGo", games=20_000),
    Case("Durak", seed_game="Durak", games=20_000),
    Case("GoFish", seed_game="GoFish", games=20_000),
    Case("Fantan", seed_game="Fantan", games=5_000),
    Case("Splendor", {"players": 4}, seed_game="Splendor", games=2_000),
    Case("ExplodingKittens", seed_game="Exploding_Kitten", games=20_000),
]


def timed(fn: Callable[[], Any]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


# ---- the contenders ---------------------------------------------------------------------------------


def makeenv_contender(case: Case) -> Callable[[int], None]:
    env = makeenv.make(case.name, **case.options)
    env.run("random", 200, None, 0, seed=1)
    return lambda n: env.run("random", n, None, 0, seed=1)


def openspiel_contender(case: Case) -> Callable[[int], None] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(case.openspiel, case.openspiel_options)
    rng = random.Random(0)

    def play(n: int) -> None:
        for _ in range(n):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                elif state.is_simultaneous_node():
                    state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.num_players())])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])

    play(50)
    return play


def pgx_contender(case: Case, batch: int = 1024) -> Callable[[int], None] | None:
    try:
        import jax
        import jax.numpy as jnp
        import pgx
    except ImportError:
        return None
    env = pgx.make(case.pgx)
    steps = {"tic_tac_toe": 9, "connect_four": 42}[case.pgx]  # a game's longest length

    def random_action(key, mask):
        logits = jnp.where(mask, 0.0, -jnp.inf)
        return jax.random.categorical(key, logits)

    @jax.jit
    def play_batch(key):
        keys = jax.random.split(key, batch)
        state = jax.vmap(env.init)(keys)

        def step(carry, _):
            state, key = carry
            key, sub = jax.random.split(key)
            actions = jax.vmap(random_action)(jax.random.split(sub, batch), state.legal_action_mask)
            state = jax.vmap(env.step)(state, actions)
            return (state, key), None

        (state, _), _ = jax.lax.scan(step, (state, key), None, length=steps)
        return state.terminated.sum()

    key = jax.random.PRNGKey(0)
    assert int(play_batch(key)) == batch  # every game of the batch ended

    def play(n: int) -> None:
        nonlocal key
        for _ in range(max(1, n // batch)):
            key, sub = jax.random.split(key)
            play_batch(sub).block_until_ready()

    return play


def seed_contender(case: Case) -> Callable[[int], None] | None:
    root = os.environ.get("VIS_ENV_DIR")
    if not root:
        return None
    path = os.path.join(root, "src", "Base", case.seed_game, "env.py")
    if not os.path.isfile(path):
        raise SystemExit(f"VIS_ENV_DIR={root!r} has no src/Base/{case.seed_game}/env.py")
    if root not in sys.path:
        sys.path.insert(0, root)
    spec = importlib.util.spec_from_file_location(f"vis_env_{case.seed_game}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    import numpy as np

    per = np.array([[0.0]])
    module.run(module.bot_lv0, 20, per, 0)
    return lambda n: module.run(module.bot_lv0, n, per, 0)


# ---- measuring --------------------------------------------------------------------------------------


def bench(case: Case, rounds: int, quick: bool) -> list[str]:
    contenders: dict[str, tuple[Callable[[int], None], int]] = {}
    games = case.games // (5 if quick else 1)
    contenders["makeenv"] = (makeenv_contender(case), games)
    peers = []
    if case.openspiel:
        peers.append(("OpenSpiel", openspiel_contender(case), max(200, games // 20)))
    if case.pgx:
        peers.append(("Pgx", pgx_contender(case), max(1024, games // 2)))
    if case.seed_game:
        peers.append(("vis/ENV", seed_contender(case), max(200, games // 10)))
    for label, contender, count in peers:
        if contender is not None:
            contenders[label] = (contender, count)
    rates: dict[str, list[float]] = {label: [] for label in contenders}
    for _ in range(rounds):
        for label, (fn, count) in contenders.items():
            played = count if label != "Pgx" else max(1, count // 1024) * 1024
            rates[label].append(played / timed(lambda fn=fn, count=count: fn(count)))
    row = [
        f"{case.name}{''.join(f' {k}={v}' for k, v in case.options.items())}",
        f"{statistics.median(rates['makeenv']):,.0f}",
    ]
    for label, _, _ in peers:
        if label in rates:
            ratio = statistics.median(m / p for m, p in zip(rates["makeenv"], rates[label]))
            row.append(f"{label} {statistics.median(rates[label]):,.0f} ({ratio:.1f}x)")
        else:
            row.append(f"{label}: not available")
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="games to measure (default: all)")
    parser.add_argument("--quick", action="store_true", help="fewer games and rounds")
    args = parser.parse_args()
    unknown = set(args.games) - {case.name for case in CASES}
    if unknown:
        raise SystemExit(f"unknown games {sorted(unknown)}; choose among {[case.name for case in CASES]}")
    cases = [case for case in CASES if not args.games or case.name in args.games]
    rounds = 3 if args.quick else 7
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"makeenv {makeenv.__version__}, numba {__import__('numba').__version__}; CPU-time rates, medians of "
        f"{rounds} interleaved rounds; load average {load:.1f}"
    )
    print("| game | makeenv games/s | peers games/s (makeenv's ratio) |")
    print("|---|---|---|")
    for case in cases:
        row = bench(case, rounds, args.quick)
        print(f"| {row[0]} | {row[1]} | {'; '.join(row[2:])} |", flush=True)


if __name__ == "__main__":
    main()
