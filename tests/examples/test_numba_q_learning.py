"""examples/numba_q_learning.py: a numba agent that learns inside env.run beats TicTacToe's level 1
after a fraction of a second of play, and its agent_data really is what it learned."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "numba_q_learning.py"


def load_example():
    if "numba_q_learning_example" not in sys.modules:
        spec = importlib.util.spec_from_file_location("numba_q_learning_example", EXAMPLE)
        module = importlib.util.module_from_spec(spec)
        sys.modules["numba_q_learning_example"] = module
        spec.loader.exec_module(module)
    return sys.modules["numba_q_learning_example"]


def test_q_learning_beats_level_one():
    q = load_example()
    random = q.ENV.evaluate("random", 5_000, level=1, seed=1)
    data, _ = q.train(30_000, level=1, seed=0)
    learned = q.evaluate(data, 5_000, level=1)
    assert random.wins / random.games < 0.1 and random.losses / random.games > 0.7
    assert learned.wins / learned.games > 0.45 and learned.losses / learned.games < 0.1
    untrained = q.evaluate(q.new_agent_data(), 5_000, level=1)  # the same agent before learning
    assert untrained.losses / untrained.games > 0.5
    table = data[q.TABLE :]
    assert np.count_nonzero(table) > 1_000  # it filled its table ...
    empty_board_values = table[: q.CELLS]
    assert np.argmax(empty_board_values) in (0, 2, 4, 6, 8)  # ... and opens in a corner or the centre
