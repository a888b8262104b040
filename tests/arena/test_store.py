"""The arena's SQLite file: refused when foreign, safe with two writers at once."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from makeenv import arena
from makeenv.arena.store import SCHEMA_VERSION

ROOT = Path(__file__).resolve().parents[2]


def test_a_database_of_another_schema_version_is_refused_and_left_untouched(tmp_path):
    db = tmp_path / "old.sqlite"
    arena.Store(db).close()
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    before = db.read_bytes()
    with pytest.raises(
        arena.StoreError, match=f"schema version {SCHEMA_VERSION + 1}, this makeenv reads version {SCHEMA_VERSION}"
    ):
        arena.Store(db)
    assert db.read_bytes() == before


def test_a_database_that_is_not_the_arenas_is_refused(tmp_path):
    db = tmp_path / "other.sqlite"
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE notes (text TEXT)")
    before = db.read_bytes()
    with pytest.raises(arena.StoreError, match="not a makeenv arena database \\(tables: notes\\)"):
        arena.Store(db)
    assert db.read_bytes() == before
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(arena.StoreError, match="not an SQLite database"):
        arena.Store(junk)


WRITER = """
import sys
from makeenv import arena
report = arena.tournament("TicTacToe", ["bot:0", "bot:1", "random"], games=400, block_size=20, sample=1, db=sys.argv[1])
print(report.played, report.stored_before)
"""


def test_two_writers_at_once_store_every_block_once(tmp_path):
    db = tmp_path / "shared.sqlite"
    arena.Store(db).close()
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [writer.communicate(timeout=300) for writer in writers]
    for writer, (_out, err) in zip(writers, outputs):
        assert writer.returncode == 0, err
    planned = 3 * 2 * 20  # pairings x seatings x blocks
    played = [int(out.split()[0]) for out, _ in outputs]
    assert sum(played) == planned  # each block stored by exactly one of them (a duplicate is ignored)
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert connection.execute("SELECT count(*), sum(games) FROM blocks").fetchone() == (planned, planned * 20)
        assert connection.execute("SELECT count(*) FROM games").fetchone()[0] == planned


def test_counting_games_at_once_equals_counting_them_one_by_one():
    from makeenv.arena.schedule import BlockResult, BlockSpec, GameRecord

    spec = BlockSpec("t", "g", "array", {}, {"a": "bot:0", "b": "bot:1", "c": "bot:2"}, ("a", "b", "c"), 0, 6, 1, 0)
    games = [("100", [1.0, -1.0, -1.0], 5), ("011", [-1.0, 1.0, 1.0], 7), ("000", [0.0, 0.0, 0.0], 9)]
    games += [("100", [1.0, -1.0, -1.0], 4), ("111", [0.0, 0.0, 0.0], 3), ("010", [-1.0, 1.0, -1.0], 6)]
    one_by_one, at_once = BlockResult(spec), BlockResult(spec)
    for index, (mask, returns, length) in enumerate(games):
        one_by_one.add(GameRecord(index, index, mask, returns, length, length == 9), keep=False)
    patterns: dict[str, int] = {}
    for mask, _, _ in games:
        patterns[mask] = patterns.get(mask, 0) + 1
    at_once.add_counts(patterns, [sum(g[1][s] for g in games) for s in range(3)], sum(g[2] for g in games), 1)
    assert (at_once.patterns, at_once.wins, at_once.draws) == (one_by_one.patterns, one_by_one.wins, one_by_one.draws)
    assert (at_once.returns, at_once.steps, at_once.truncated) == (one_by_one.returns, one_by_one.steps, 1)
    assert at_once.wins == [2, 2, 1] and at_once.draws == 2 and at_once.played == 6
