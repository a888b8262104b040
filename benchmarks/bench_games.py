"""Every game's speed side by side with its peers: random-vs-random games/s, first what a user's agent gets.

    python benchmarks/bench_games.py                 # every game (a few minutes on an idle core)
    python benchmarks/bench_games.py --quick         # fewer games and rounds
    python benchmarks/bench_games.py TicTacToe Hex   # some games (every variant of each)
    VIS_ENV_DIR=/path/to/ENV python benchmarks/bench_games.py SushiGo Durak Splendor ExplodingKittens

makeenv is measured twice: first with a user's own ``@njit`` agent written the seed's way (a
random choice among ``getValidActions(state)``, every final turn included), which is what a user
gets, then with ``env.run("random", N)``, the built-in random agent (which skips the final turns
and may use ``isValidAction``). Both play the compiled loop against random bots, seats shuffled.
Its peers play the same rules with uniformly random moves:

* OpenSpiel's Python loop (``pyspiel``: ``legal_actions``, chance outcomes, ``apply_action`` or
  ``apply_actions`` for simultaneous nodes), for the classic games;
* Pgx on CPU (``jax.vmap`` of ``env.step`` over a batch of 1024 games inside one ``lax.scan``,
  compiled once), for TicTacToe and ConnectFour, when jax and pgx are installed
  (``pip install -e ".[bench]"``);
* the seed's own library (vis/ENV, github.com/ngoxuanphong/ENV, never part of this repository):
  its ``run(bot_lv0, n, per, 0)`` for its games, when VIS_ENV_DIR points at a local checkout;
* a limit loop for TicTacToe and ConnectFour: a minimal numba bitboard game of random moves with
  no contract, no checks and no agent call, written here, so the distance to the limit is printed.

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
    Case("Century", {"players": 5}, seed_game="Century", games=2_000),
    Case("Poker", {"players": 9}, seed_game="Poker", games=5_000),
    Case("WelcomeToTheDungeon", seed_game="WelcomeToTheDungeon_v1", games=20_000),
    Case("WelcomeToTheDungeon2", seed_game="WelcomeToTheDungeon_v2", games=20_000),
    Case("TLMN", seed_game="TLMN", games=20_000),
    Case("MachiKoro", seed_game="MachiKoro", games=5_000),
    Case("Splendor", {"players": 4}, seed_game="Splendor", games=2_000),
    Case("Splendor", {"players": 4, "actions": "compact"}, seed_game="Splendor_v2", games=2_000),
    Case("Splendor", {"players": 4, "actions": "macro"}, seed_game="Splendor_v3", games=2_000),
    Case("ExplodingKittens", seed_game="Exploding_Kitten", games=20_000),
    Case("ImplodingKittens", seed_game="Imploding_Kitten", games=10_000),
    Case("Sheriff", seed_game="Sheriff", games=2_000),
    Case("TicketToRide", {"players": 5}, seed_game="TicketToRide", games=2_000),
    Case("StoneAge", seed_game="StoneAge", games=1_000),
    Case("Catan", seed_game="Catan", games=1_000),
    Case("Catan", {"rules": 1}, seed_game="CatanNoExchange", games=1_000),
]


def timed(fn: Callable[[], Any]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


# ---- the contenders ---------------------------------------------------------------------------------


def seed_idiom_agent(env: Any) -> Any:
    """The seed's random agent, as a user writes it against this game's getValidActions."""
    import numpy as np
    from numba import njit

    get_valid_actions = env.getValidActions

    @njit
    def agent(state, data):
        valid = get_valid_actions(state)
        idx = np.where(valid == 1)[0]
        return idx[np.random.randint(0, len(idx))], data

    return agent


def user_agent_contender(case: Case) -> Callable[[int], None]:
    env = makeenv.make(case.name, **case.options)
    agent = seed_idiom_agent(env)
    env.run(agent, 200, None, 0, seed=1)
    return lambda n: env.run(agent, n, None, 0, seed=1)


def makeenv_contender(case: Case) -> Callable[[int], None]:
    env = makeenv.make(case.name, **case.options)
    env.run("random", 200, None, 0, seed=1)
    return lambda n: env.run("random", n, None, 0, seed=1)


def limit_contender(case: Case) -> Callable[[int], None] | None:
    """The bitboard limit loop of TicTacToe or ConnectFour (None for other games)."""
    loop = LIMIT_LOOPS.get(case.name)
    if loop is None:
        return None
    loop(100, 0)
    return lambda n: loop(n, 1)


# ---- the limit loops: random play on bitboards, no contract ------------------------------------------


def _limit_loops() -> dict[str, Callable[[int, int], int]]:
    import numpy as np
    from numba import njit

    lines = np.array([0x7, 0x38, 0x1C0, 0x49, 0x92, 0x124, 0x111, 0x54], dtype=np.int64)

    @njit(cache=True)
    def kth_set_bit(bits, k):
        for _ in range(k):
            bits &= bits - 1
        return bits & -bits

    @njit(cache=True)
    def tic_tac_toe(games, seed):
        np.random.seed(seed)
        wins = 0
        for _ in range(games):
            boards = [0, 0]
            empty, player = 0x1FF, 0
            while empty:
                free = 0
                bits = empty
                while bits:
                    bits &= bits - 1
                    free += 1
                move = kth_set_bit(empty, int(np.random.random() * free))
                empty ^= move
                boards[player] |= move
                won = False
                for line in lines:
                    if boards[player] & line == line:
                        won = True
                if won:
                    wins += 1
                    break
                player ^= 1
        return wins

    @njit(cache=True)
    def connect_four_won(board):
        for shift in (1, 7, 6, 8):  # vertical, horizontal, the two diagonals (7 bits per column)
            pairs = board & (board >> shift)
            if pairs & (pairs >> (2 * shift)):
                return True
        return False

    @njit(cache=True)
    def connect_four(games, seed):
        np.random.seed(seed)
        wins = 0
        height = np.empty(7, dtype=np.int64)
        open_cols = np.empty(7, dtype=np.int64)
        for _ in range(games):
            boards = [0, 0]
            for c in range(7):
                height[c] = 7 * c
            player = 0
            for _move in range(42):
                count = 0
                for c in range(7):
                    if height[c] < 7 * c + 6:
                        open_cols[count] = c
                        count += 1
                c = open_cols[int(np.random.random() * count)]
                boards[player] |= 1 << height[c]
                height[c] += 1
                if connect_four_won(boards[player]):
                    wins += 1
                    break
                player ^= 1
        return wins

    return {"TicTacToe": tic_tac_toe, "ConnectFour": connect_four}


LIMIT_LOOPS = _limit_loops()


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
    # registered as an import would: without it vis/ENV's Catan aborts in numba ("unresolved symbol")
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    import numpy as np

    per = np.array([[0.0]])
    module.run(module.bot_lv0, 20, per, 0)
    return lambda n: module.run(module.bot_lv0, n, per, 0)


# ---- measuring --------------------------------------------------------------------------------------


def bench(case: Case, rounds: int, quick: bool) -> list[str]:
    contenders: dict[str, tuple[Callable[[int], None], int]] = {}
    games = case.games // (5 if quick else 1)
    contenders["user"] = (user_agent_contender(case), games)
    contenders["makeenv"] = (makeenv_contender(case), games)
    peers = []
    limit = limit_contender(case)
    if limit is not None:
        peers.append(("limit", limit, games * 2))
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
        f"{statistics.median(rates['user']):,.0f}",
        f"{statistics.median(rates['makeenv']):,.0f}",
    ]
    for label, _, _ in peers:
        if label not in rates:
            row.append(f"{label}: not available")
            continue
        user = statistics.median(u / p for u, p in zip(rates["user"], rates[label]))
        builtin = statistics.median(m / p for m, p in zip(rates["makeenv"], rates[label]))
        if label == "limit":
            row.append(f"limit {statistics.median(rates[label]):,.0f} (user {user:.0%}, built-in {builtin:.0%} of it)")
        else:
            row.append(f"{label} {statistics.median(rates[label]):,.0f} (user {user:.1f}x, built-in {builtin:.1f}x)")
    return row


def cpu_name() -> str:
    """The CPU's model name (for the figures' context)."""
    import platform

    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("model name"):
                    return f"{line.split(':', 1)[1].strip()}, {os.cpu_count()} cores"
    except OSError:
        pass
    return f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"


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
    print(f"CPU: {cpu_name()}")
    print("| game | user's @njit agent games/s | built-in random games/s | peers games/s (makeenv's ratios) |")
    print("|---|---|---|---|")
    for case in cases:
        row = bench(case, rounds, args.quick)
        print(f"| {row[0]} | {row[1]} | {row[2]} | {'; '.join(row[3:])} |", flush=True)


if __name__ == "__main__":
    main()
