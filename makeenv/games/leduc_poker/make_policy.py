"""Build the LeducPoker level-2 policy (``policy.json``) with the project's CFR+.

    python -m makeenv.games.leduc_poker.make_policy                  # 1000 iterations, about a minute
    python -m makeenv.games.leduc_poker.make_policy --iterations 50 --output /tmp/policy.json

Runs ``makeenv.games._poker.cfr.CFRSolver`` on LeducPoker, then writes the average strategy of
every information set into the bot's table (row ``bots.table_row(state)``: Fold, Call, Raise).
CFR+ is deterministic, so the same iteration count rebuilds the same table. With OpenSpiel
installed, the file also records OpenSpiel's exploitability of the table as the bot plays it.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from makeenv.games import leduc_poker
from makeenv.games._poker.cfr import CFRSolver

from .bots import POLICY_FILE, TABLE_ROWS, TABLE_SIZE, cfr_policy, table_row
from .logic import NUM_ACTIONS

DEFAULT_ITERATIONS = 1000
DECIMALS = 6


def build_table(solver: CFRSolver) -> np.ndarray:
    """The bot's table from the solver's average strategy (rows no information set uses stay 0)."""
    table = np.zeros(TABLE_SIZE)
    seen: dict[int, np.ndarray] = {}
    states, probs = solver.information_sets()
    for state, p in zip(states, probs):
        row = int(table_row(state))
        if row in seen:
            raise RuntimeError(f"two information sets share table row {row}: {seen[row]} and {state}")
        seen[row] = state
        table[row * NUM_ACTIONS : (row + 1) * NUM_ACTIONS] = np.round(p, DECIMALS)
    return table


def to_json(record: dict, table: np.ndarray) -> str:
    """The record as JSON with the table last, one row (Fold, Call, Raise) per line."""
    head = json.dumps(record, indent=1)[:-2]
    rows = ",\n".join("  " + json.dumps([float(p) for p in row]) for row in table.reshape(TABLE_ROWS, NUM_ACTIONS))
    return f'{head},\n "table": [\n{rows}\n ]\n}}\n'


def openspiel_exploitability(table: np.ndarray) -> float | None:
    """OpenSpiel's exploitability of the table as the level-2 bot plays it (None without OpenSpiel)."""
    try:
        from makeenv.games._poker import openspiel as poker_openspiel

        return poker_openspiel.exploitability(leduc_poker, lambda state: cfr_policy(state, table))
    except ImportError:
        return None


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS, help="CFR+ iterations")
    parser.add_argument("--output", type=Path, default=POLICY_FILE, help="where to write the JSON table")
    args = parser.parse_args(argv)
    if args.iterations < 1:
        parser.error(f"--iterations must be at least 1, got {args.iterations}")

    start = time.perf_counter()
    solver = CFRSolver(leduc_poker)
    solver.run(args.iterations)
    seconds = time.perf_counter() - start
    table = build_table(solver)
    exploitability = openspiel_exploitability(table)
    record = {
        "game": "LeducPoker",
        "algorithm": "CFR+ (makeenv.games._poker.cfr), alternating updates, linear averaging",
        "command": f"python -m makeenv.games.leduc_poker.make_policy --iterations {args.iterations}",
        "iterations": args.iterations,
        "information_sets": solver.num_information_sets,
        "openspiel_exploitability": exploitability,
        "layout": (
            f"{TABLE_ROWS} rows of (Fold, Call, Raise) probabilities; row = (my card * 7 + public card "
            "or 6) * 36 + betting node, see bots.table_row"
        ),
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    partial = args.output.with_suffix(f".{os.getpid()}.tmp")
    partial.write_text(to_json(record, table), encoding="utf-8")
    os.replace(partial, args.output)
    shown = "n/a (OpenSpiel not installed)" if exploitability is None else f"{exploitability:.5f}"
    print(
        f"{args.iterations} CFR+ iterations over {solver.num_information_sets} information sets in "
        f"{seconds:.1f} s; OpenSpiel exploitability {shown}; wrote {args.output}"
    )


if __name__ == "__main__":
    main()
