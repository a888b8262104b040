"""The same tournament as Ray tasks on a local Ray (started here) stores the same results as locally."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from makeenv import arena
from makeenv.executors import LocalExecutor, RayExecutor

ray = pytest.importorskip("ray")

FIRST_FREE = """
import numpy as np
from numba import njit

@njit
def first_free(state, data):
    free = np.flatnonzero(state[:9] + state[9:18] == 0)  # cells with neither my mark nor theirs
    return (free[0] if free.size else 0), data  # 0: the final turn of a full board
"""

SCRIPTED = """
import re

def last_option(observation):
    return "[" + re.findall(r"^\\[(\\d+)\\]", observation, re.M)[-1] + "]"
"""


def _stored(db: Path) -> tuple[list[tuple], list[tuple]]:
    """Every block's results (not its timings) and every kept game, in key order."""
    with sqlite3.connect(db) as connection:
        blocks = connection.execute(
            "SELECT tournament, key, seats, games, seed, patterns, wins, draws, returns, steps, truncated, forfeits, "
            "errors FROM blocks ORDER BY tournament, key"
        ).fetchall()
        games = connection.execute("SELECT * FROM games ORDER BY tournament, block_key, game_index").fetchall()
    return blocks, games


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _play_both(executor: object, db: Path) -> None:
    arena.tournament(
        "TicTacToe",
        ["bot:1", "bot:2", "random", "first=first_free.py:first_free"],
        games=60,
        block_size=20,
        sample=2,
        seed=5,
        db=db,
        executor=executor,  # type: ignore[arg-type]
    )
    arena.tournament(
        "TicTacToe-text", ["scripted=scripted.py:last_option", "bot:1"], games=2, seed=5, db=db, executor=executor
    )


@pytest.mark.slow
def test_a_tournament_on_ray_stores_what_the_local_run_stores(tmp_path, monkeypatch, local_ray):
    (tmp_path / "first_free.py").write_text(FIRST_FREE)
    (tmp_path / "scripted.py").write_text(SCRIPTED)
    monkeypatch.chdir(tmp_path)
    _play_both(LocalExecutor(), tmp_path / "local.sqlite")
    _play_both(RayExecutor(), tmp_path / "ray.sqlite")
    local, on_ray = _stored(tmp_path / "local.sqlite"), _stored(tmp_path / "ray.sqlite")
    assert len(local[0]) == 6 * 2 * 3 + 2 * 2 and len(local[1]) == 6 * 2 * 3 * 2 + 2 * 2
    assert on_ray == local
    with arena.Store(tmp_path / "ray.sqlite") as store:
        ratings = arena.fit(store.cells(game="TicTacToe"), bootstrap=0)
    assert ratings.table()[0]["name"] == "bot:2"


def test_a_task_that_fails_on_ray_raises_its_own_error(local_ray):
    def refuse(spec: str) -> None:
        raise ValueError(f"entrant {spec!r}: expected bot:LEVEL")

    with pytest.raises(ValueError, match="entrant 'bot:x'"):
        list(RayExecutor().map_unordered(refuse, ["bot:x"]))
    assert sorted(RayExecutor(in_flight=1).map_unordered(len, ["a", "bb", "ccc"])) == [1, 2, 3]


def test_a_bad_in_flight_is_refused():
    with pytest.raises(ValueError, match="in_flight must be a positive int"):
        RayExecutor(in_flight=0)
