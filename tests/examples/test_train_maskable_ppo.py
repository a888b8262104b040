"""examples/train_maskable_ppo.py at small scale: MaskablePPO trains through the Gymnasium adapter
(gymnasium.make, action masks, SB3's vector env) and plays better than random after a few
thousand steps. Skipped without the train extra (torch, sb3-contrib)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_maskable_ppo.py"


def load_example():
    if "train_maskable_ppo_example" not in sys.modules:
        spec = importlib.util.spec_from_file_location("train_maskable_ppo_example", EXAMPLE)
        module = importlib.util.module_from_spec(spec)
        sys.modules["train_maskable_ppo_example"] = module
        spec.loader.exec_module(module)
    return sys.modules["train_maskable_ppo_example"]


@pytest.mark.slow
def test_a_short_training_beats_random_play():
    ppo = load_example()
    env = ppo.makeenv.make("TicTacToe")
    random = ppo.rates(env.evaluate("random", 400, level=0, seed=1))
    trained = ppo.train("TicTacToe", 0, 6_000, n_envs=4, seed=0, progress_bar=False)
    assert trained.model.num_timesteps >= 6_000
    results = ppo.rates(ppo.evaluate(trained.model, "TicTacToe", 0, 400))
    assert results["wins"] > random["wins"] + 0.1
    assert abs(sum(results[k] for k in ("wins", "draws", "losses")) - 1.0) < 1e-9
