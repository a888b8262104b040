"""Training that works, at full scale: time and final strength of the examples' agents.

    pip install -e ".[train]"                # torch (CPU), sb3-contrib (MaskablePPO), tqdm, rich
    python benchmarks/bench_train.py         # everything (about 15 minutes on 2 busy cores)
    python benchmarks/bench_train.py --only q-learning
    python benchmarks/bench_train.py --only ppo-tictactoe ppo-connectfour

* ``q-learning``: examples/numba_q_learning.py, tabular Q-learning in numba inside ``env.run``
  (TicTacToe vs level 1); 300,000 training games, then 20,000 greedy games.
* ``ppo-tictactoe`` / ``ppo-connectfour``: examples/train_maskable_ppo.py, MaskablePPO through
  the Gymnasium adapter (TicTacToe vs level 1, goal >= 90% non-losses; ConnectFour vs level 0,
  goal >= 80% wins); then 1,000 greedy games through ``env.evaluate``.

Each line gives the training's wall time and CPU time (the machine may be shared), the results
against the level, and a random agent's results for comparison. CFR+ on the poker games has its
own benchmark: benchmarks/bench_cfr.py.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def load(name: str):
    """An example script as a module (examples/ is not a package)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def line(label: str, results) -> str:
    games = results.games
    return (
        f"{label}: wins {results.wins / games:6.1%}, draws {results.draws / games:6.1%}, "
        f"losses {results.losses / games:6.1%} ({games:,} games)"
    )


def bench_q_learning() -> None:
    q = load("numba_q_learning")
    q.ENV.run(q.q_learner, 1, q.new_agent_data(), 1)  # compile
    print(line("  random agent vs level 1        ", q.ENV.evaluate("random", 20_000, level=1, seed=1)))
    cpu = time.process_time()
    data, seconds = q.train(300_000, level=1)
    cpu = time.process_time() - cpu
    print(f"  trained 300,000 games in {seconds:.1f} s wall, {cpu:.1f} s CPU")
    print(line("  Q-learner (greedy) vs level 1  ", q.evaluate(data, 20_000, level=1)))


def bench_ppo(game: str) -> None:
    ppo = load("train_maskable_ppo")
    recipe = ppo.RECIPES[game]
    level, steps = recipe["level"], recipe["steps"]
    env = ppo.makeenv.make(game)
    print(line(f"  random agent vs level {level}        ", env.evaluate("random", 1_000, level=level, seed=1)))
    cpu = time.process_time()
    trained = ppo.train(game, level, steps)
    cpu = time.process_time() - cpu
    print(
        f"  trained {steps:,} steps in {trained.seconds:.0f} s wall, {cpu:.0f} s CPU "
        f"({steps / trained.seconds:,.0f} steps/s)"
    )
    results = ppo.evaluate(trained.model, game, level, 1_000)
    metric, goal = recipe["goal"]
    value = ppo.rates(results)[metric]
    print(
        line(f"  MaskablePPO (greedy) vs level {level} ", results)
        + f"; {metric} {value:.1%} (goal {goal:.0%}: {'met' if value >= goal else 'NOT met'})"
    )


RUNS = {
    "q-learning": ("TicTacToe, tabular Q-learning in numba (examples/numba_q_learning.py)", bench_q_learning),
    "ppo-tictactoe": ("TicTacToe, MaskablePPO (examples/train_maskable_ppo.py)", lambda: bench_ppo("TicTacToe")),
    "ppo-connectfour": ("ConnectFour, MaskablePPO (examples/train_maskable_ppo.py)", lambda: bench_ppo("ConnectFour")),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", nargs="*", choices=list(RUNS), default=list(RUNS))
    args = parser.parse_args()
    for name in args.only:
        title, run = RUNS[name]
        print(title, flush=True)
        run()
        sys.stdout.flush()


if __name__ == "__main__":
    main()
