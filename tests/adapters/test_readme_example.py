"""The README's "Train an agent" example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

README = Path(__file__).resolve().parents[2] / "README.md"


def test_train_an_agent_example_runs_as_written():
    blocks = [
        b
        for b in re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
        if "BatchedEnv(" in b
    ]
    assert len(blocks) == 1
    namespace: dict = {}
    exec(compile(blocks[0], "README-train", "exec"), namespace)
    assert namespace["observation"].shape == (23,) and namespace["reward"] == 0.0
    assert namespace["mask"].dtype == bool and namespace["mask"].shape == (9,)  # gymnasium.make's env has it
    assert namespace["players"].agent_selection == "player_0"
    assert namespace["observations"].shape == (1024, 89) and namespace["batch"].action_masks().shape == (1024, 7)
    assert namespace["rewards"].shape == (1024,) and np.isin(namespace["rewards"], (-1.0, 0.0, 1.0)).all()
