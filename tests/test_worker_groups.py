"""The suite's spread over xdist workers (``tests/conftest.py``): every test of one game runs in one
worker, so a cold run compiles a game's loops once, not once per worker."""

from __future__ import annotations

import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_each_games_test_file_joins_its_games_group():
    """A game's own test file runs in its game's worker group, whatever the case of its name
    (``test_tlmn.py`` with TLMN's registry-wide tests), a file of a game's variants with the game."""
    from tests.conftest import _game_of_file

    folder = ROOT / "tests" / "games"
    found = {path.name: _game_of_file(path) for path in folder.glob("test_*.py")}
    assert found.pop("test_every_game.py") is None
    assert found["test_tlmn.py"] == "TLMN" and found["test_splendor_encodings.py"] == "Splendor"
    assert found["test_welcome_to_the_dungeon.py"] == "WelcomeToTheDungeon"
    unmatched = [name for name, game in found.items() if game is None]
    assert not unmatched, f"name these after a registered game (tests/games/test_<game>.py): {unmatched}"
    assert _game_of_file(ROOT / "tests" / "array" / "test_runner.py") is None


def test_a_games_tests_run_in_one_worker():
    """Fails when the grouping is lost (as with pytest 9.2 and pytest-xdist 3.8, whose loadgroup
    mark no longer reaches the scheduler: tests are then dealt one by one to both workers)."""
    selection = "seeded and (Century or Poker)"  # 4 + 8 cheap tests of two games with several counts
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-n", "2", "-v", "-p", "no:cacheprovider", "-k", selection, "--no-header"]
        + ["tests/games/test_every_game.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    workers: dict[str, set[str]] = defaultdict(set)
    for worker, game in re.findall(r"^\[(gw\d+)\].*PASSED .*?\[(Century|Poker)-\d+p\]", run.stdout, re.MULTILINE):
        workers[game].add(worker)
    assert set(workers) == {"Century", "Poker"}, run.stdout[-2000:]
    assert all(len(found) == 1 for found in workers.values()), dict(workers)
