"""How the suite is spread over pytest-xdist's workers (``--dist loadgroup`` in pyproject.toml).

Compiling a game's referee and runner loops dominates a cold run, and a process reuses what it
compiled. So every test of one game runs in one worker: the registry-wide tests of
``tests/games/test_every_game.py`` are grouped by their ``game`` parameter (any test parametrized
by a registered game's name joins its group: the adapters' checks), a game's own
``tests/games/test_<game>.py`` joins that group, and every other file is a group of its own (as
``--dist loadfile`` would do). The groups are balanced over the workers, so thirty games spread
over every core instead of one registry-wide file running on one. For the same reason a worker's
local model runs on one llama.cpp thread.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from makeenv.registry import REGISTRY

if os.environ.get("PYTEST_XDIST_WORKER"):
    # a worker per core already keeps every core busy: one llama.cpp thread per model (two took 10%
    # more CPU for a slower game with the other core busy; makeenv.text.llama_runtime.default_threads)
    os.environ.setdefault("MAKEENV_LLM_THREADS", "1")


def _game_of_file(path: Path) -> str | None:
    """``tests/games/test_tic_tac_toe.py`` -> ``TicTacToe``: the registered game whose name, case and
    underscores aside, the file's name starts with (the longest such name; ``test_tlmn.py`` is TLMN's,
    ``test_splendor_encodings.py`` Splendor's). None for a file of no game."""
    if path.parent.name != "games" or not path.name.startswith("test_"):
        return None
    stem = path.stem[len("test_") :].replace("_", "").lower()
    names = sorted((name for name, spec in REGISTRY.items() if spec.kind == "array"), key=len, reverse=True)
    return next((name for name in names if stem.startswith(name.lower())), None)


def _group(item: pytest.Item) -> str:
    params = getattr(getattr(item, "callspec", None), "params", {})
    game = params.get("game") or getattr(params.get("spec"), "game", None) or params.get("name")
    if isinstance(game, str) and game in REGISTRY:
        return f"game:{game}"
    path = Path(str(item.fspath))
    game = _game_of_file(path)
    if game is not None:
        return f"game:{game}"
    return f"file:{path.relative_to(Path(__file__).parent).as_posix()}"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(_group(item)))
