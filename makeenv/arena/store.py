"""The arena's SQLite database: tournaments, entrants, blocks (per-seat counts), kept games.

One file (default ``makeenv-arena.sqlite``), in WAL mode; every block and its games are written in
one transaction, keyed by (tournament, block key), so a block is stored whole or not at all, a
second writer of the same block changes nothing, and a killed run loses only the block in flight.
A database written with another schema version is refused, never changed.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from makeenv.arena.ratings import Cell
from makeenv.arena.schedule import BlockResult, Entrant

SCHEMA_VERSION = 1
DEFAULT_DB = "makeenv-arena.sqlite"

SCHEMA = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE tournaments (
    name TEXT PRIMARY KEY, game TEXT NOT NULL, kind TEXT NOT NULL, rules_hash TEXT NOT NULL,
    options TEXT NOT NULL, schedule TEXT NOT NULL, seed INTEGER NOT NULL, block_size INTEGER NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE entrants (
    tournament TEXT NOT NULL, name TEXT NOT NULL, spec TEXT NOT NULL, code_hash TEXT NOT NULL,
    PRIMARY KEY (tournament, name)
);
CREATE TABLE blocks (
    tournament TEXT NOT NULL, key TEXT NOT NULL, seats TEXT NOT NULL, block_index INTEGER NOT NULL,
    games INTEGER NOT NULL, seed INTEGER NOT NULL, patterns TEXT NOT NULL, wins TEXT NOT NULL,
    draws INTEGER NOT NULL, returns TEXT NOT NULL, steps INTEGER NOT NULL, truncated INTEGER NOT NULL,
    forfeits TEXT NOT NULL, errors TEXT NOT NULL, seconds REAL NOT NULL, finished REAL NOT NULL,
    PRIMARY KEY (tournament, key)
);
CREATE TABLE games (
    tournament TEXT NOT NULL, block_key TEXT NOT NULL, game_index INTEGER NOT NULL, seed INTEGER NOT NULL,
    seats TEXT NOT NULL, winners TEXT NOT NULL, returns TEXT NOT NULL, length INTEGER NOT NULL,
    truncated INTEGER NOT NULL, forfeit TEXT, moves TEXT NOT NULL,
    PRIMARY KEY (tournament, block_key, game_index)
);
"""


class StoreError(RuntimeError):
    """A database that cannot be used as it is (another schema, another tournament's settings)."""


class Store:
    """An open arena database (``with Store(path) as store: ...``)."""

    def __init__(self, path: str | Path = DEFAULT_DB) -> None:
        self.path = Path(path)
        try:
            self.db = sqlite3.connect(self.path, timeout=60.0, isolation_level=None)
            tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: not an SQLite database ({error}); name another file with --db") from None
        if tables and "schema_version" not in tables:
            self.db.close()
            raise StoreError(
                f"{self.path} is an SQLite database but not a makeenv arena database (tables: "
                f"{', '.join(sorted(tables))}); it was left untouched: name another file with --db"
            )
        if tables:
            row = self.db.execute("SELECT version FROM schema_version").fetchone()
            if row is None or row[0] != SCHEMA_VERSION:
                self.db.close()
                raise StoreError(
                    f"{self.path} has arena schema version {row[0] if row else 'none'}, this makeenv reads version "
                    f"{SCHEMA_VERSION}; it was left untouched: use the makeenv that wrote it, or name a new file "
                    "with --db"
                )
        self.db.execute("PRAGMA journal_mode=WAL")
        # WAL with NORMAL: a commit survives the process being killed (not a power cut) and costs
        # no fsync per block
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA busy_timeout=60000")
        if not tables:
            with self.transaction():
                again = self.db.execute("SELECT count(*) FROM sqlite_master WHERE name='schema_version'").fetchone()
                if not again[0]:  # another process may have created it meanwhile
                    for statement in SCHEMA.split(";"):
                        if statement.strip():
                            self.db.execute(statement)
                    self.db.execute("INSERT INTO schema_version VALUES (?)", (SCHEMA_VERSION,))

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.db.close()

    def transaction(self) -> Any:
        """A write transaction (BEGIN IMMEDIATE ... COMMIT, rolled back on error)."""
        store = self

        class _Transaction:
            def __enter__(self) -> None:
                store.db.execute("BEGIN IMMEDIATE")

            def __exit__(self, kind: Any, *rest: Any) -> None:
                store.db.execute("ROLLBACK" if kind else "COMMIT")

        return _Transaction()

    # ---- tournaments ---------------------------------------------------------------------------------
    def begin_tournament(
        self,
        name: str,
        *,
        game: str,
        kind: str,
        rules_hash: str,
        options: dict[str, Any],
        schedule: dict[str, Any],
        seed: int,
        block_size: int,
        entrants: list[tuple[Entrant, str]],
    ) -> None:
        """Record a new tournament, or check that a stored one of that name has the same game,
        rules, options, seed and block size, and that its entrants' code is unchanged (entrants may
        be added: that extends it)."""
        settings = {
            "game": game,
            "kind": kind,
            "rules_hash": rules_hash,
            "options": json.dumps(options, sort_keys=True),
            "seed": seed,
            "block_size": block_size,
        }
        with self.transaction():
            row = self.db.execute(
                "SELECT game, kind, rules_hash, options, seed, block_size FROM tournaments WHERE name=?", (name,)
            ).fetchone()
            if row is None:
                self.db.execute(
                    "INSERT INTO tournaments VALUES (?,?,?,?,?,?,?,?,?)",
                    (
                        name,
                        game,
                        kind,
                        rules_hash,
                        settings["options"],
                        json.dumps(schedule, sort_keys=True),
                        seed,
                        block_size,
                        time.time(),
                    ),
                )
            else:
                for (key, wanted), stored in zip(settings.items(), row):
                    if stored != wanted:
                        what = "the game's rules (logic.py) changed" if key == "rules_hash" else f"{key} differs"
                        raise StoreError(
                            f"tournament {name!r} in {self.path} was played with {key} {stored!r}, now {wanted!r} "
                            f"({what}); resume it with the same settings, or start another with --name"
                        )
            for entrant, code_hash in entrants:
                found = self.db.execute(
                    "SELECT spec, code_hash FROM entrants WHERE tournament=? AND name=?", (name, entrant.name)
                ).fetchone()
                if found is None:
                    self.db.execute(
                        "INSERT INTO entrants VALUES (?,?,?,?)", (name, entrant.name, entrant.spec, code_hash)
                    )
                elif found != (entrant.spec, code_hash):
                    change = "its spec" if found[0] != entrant.spec else "its code or weights"
                    raise StoreError(
                        f"entrant {entrant.name!r} of tournament {name!r} changed ({change}: stored {found[0]!r} "
                        f"hash {found[1][:12]}, now {entrant.spec!r} hash {code_hash[:12]}); give the new version "
                        "another name (NAME=SPEC) or start another tournament with --name"
                    )

    def tournaments(self) -> list[dict[str, Any]]:
        """Every tournament: name, game, kind, entrants, blocks and games stored."""
        rows = self.db.execute(
            "SELECT t.name, t.game, t.kind, t.created, "
            "(SELECT count(*) FROM entrants e WHERE e.tournament=t.name), "
            "(SELECT count(*) FROM blocks b WHERE b.tournament=t.name), "
            "(SELECT coalesce(sum(games), 0) FROM blocks b WHERE b.tournament=t.name) "
            "FROM tournaments t ORDER BY t.created"
        ).fetchall()
        keys = ("name", "game", "kind", "created", "entrants", "blocks", "games")
        return [dict(zip(keys, row)) for row in rows]

    def entrants(self, tournament: str) -> list[dict[str, str]]:
        rows = self.db.execute(
            "SELECT name, spec, code_hash FROM entrants WHERE tournament=? ORDER BY rowid", (tournament,)
        )
        return [{"name": n, "spec": s, "code_hash": h} for n, s, h in rows]

    def done_keys(self, tournament: str) -> set[str]:
        """Keys of the blocks stored for ``tournament``."""
        return {row[0] for row in self.db.execute("SELECT key FROM blocks WHERE tournament=?", (tournament,))}

    # ---- results --------------------------------------------------------------------------------------
    def add_block(self, result: BlockResult) -> bool:
        """Store a block and its kept games in one transaction; False when it was already stored."""
        spec = result.spec
        seats = json.dumps(list(spec.seats))
        with self.transaction():
            cursor = self.db.execute(
                "INSERT OR IGNORE INTO blocks VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                (
                    spec.tournament,
                    spec.key,
                    seats,
                    spec.index,
                    result.played,
                    spec.seed,
                    json.dumps(result.patterns, sort_keys=True),
                    json.dumps(result.wins),
                    result.draws,
                    json.dumps(result.returns),
                    result.steps,
                    result.truncated,
                    json.dumps(result.forfeits),
                    json.dumps(result.errors),
                    result.seconds,
                    time.time(),
                ),
            )
            if cursor.rowcount == 0:
                return False
            self.db.executemany(
                "INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                [
                    (
                        spec.tournament,
                        spec.key,
                        r.index,
                        r.seed,
                        seats,
                        r.winners,
                        json.dumps(r.returns),
                        r.length,
                        int(r.truncated),
                        r.forfeit,
                        json.dumps(r.moves, ensure_ascii=False),
                    )
                    for r in result.records
                ],
            )
        return True

    def cells(self, tournament: str | None = None, game: str | None = None) -> list[Cell]:
        """The stored results as rating cells (one per game and seating, counts summed)."""
        query = "SELECT t.game, b.seats, b.patterns FROM blocks b JOIN tournaments t ON t.name = b.tournament"
        where, args = [], []
        if tournament is not None:
            where.append("t.name = ?")
            args.append(tournament)
        if game is not None:
            where.append("t.game = ?")
            args.append(game)
        if where:
            query += " WHERE " + " AND ".join(where)
        merged: dict[tuple[str, tuple[str, ...]], dict[str, int]] = {}
        for game_name, seats, patterns in self.db.execute(query, args):
            counts = merged.setdefault((game_name, tuple(json.loads(seats))), {})
            for pattern, count in json.loads(patterns).items():
                counts[pattern] = counts.get(pattern, 0) + count
        return [Cell(g, seats, counts) for (g, seats), counts in sorted(merged.items())]

    def games(self, tournament: str) -> list[dict[str, Any]]:
        """The kept games of a tournament (seed, seats, outcome, moves), in block and game order."""
        rows = self.db.execute(
            "SELECT block_key, game_index, seed, seats, winners, returns, length, truncated, forfeit, moves "
            "FROM games WHERE tournament=? ORDER BY block_key, game_index",
            (tournament,),
        )
        return [
            {
                "block": key,
                "index": index,
                "seed": seed,
                "seats": json.loads(seats),
                "winners": winners,
                "returns": json.loads(returns),
                "length": length,
                "truncated": bool(truncated),
                "forfeit": forfeit,
                "moves": json.loads(moves),
            }
            for key, index, seed, seats, winners, returns, length, truncated, forfeit, moves in rows
        ]

    def kept_games(
        self, game: str | None = None, tournament: str | None = None, limit: int = 200
    ) -> list[dict[str, Any]]:
        """The newest kept games (without their moves), each with its ``id`` for ``kept_game``."""
        query = (
            "SELECT g.rowid, g.tournament, t.game, t.kind, g.seats, g.winners, g.length, g.forfeit, g.seed "
            "FROM games g JOIN tournaments t ON t.name = g.tournament"
        )
        where, args = [], []
        for column, value in (("t.game", game), ("t.name", tournament)):
            if value is not None:
                where.append(f"{column} = ?")
                args.append(value)
        if where:
            query += " WHERE " + " AND ".join(where)
        rows = self.db.execute(query + " ORDER BY g.rowid DESC LIMIT ?", (*args, int(limit)))
        keys = ("id", "tournament", "game", "kind", "seats", "winners", "length", "forfeit", "seed")
        return [{**dict(zip(keys, row)), "seats": json.loads(row[4])} for row in rows]

    def kept_game(self, game_id: int) -> dict[str, Any]:
        """One kept game by its ``id``: its tournament's game, kind and options, seats, seed, outcome, moves."""
        row = self.db.execute(
            "SELECT g.rowid, g.tournament, t.game, t.kind, t.options, g.block_key, g.game_index, g.seed, g.seats, "
            "g.winners, g.returns, g.length, g.truncated, g.forfeit, g.moves "
            "FROM games g JOIN tournaments t ON t.name = g.tournament WHERE g.rowid = ?",
            (int(game_id),),
        ).fetchone()
        if row is None:
            raise KeyError(f"no kept game {game_id} in {self.path}; the leaderboard page lists the kept games")
        keys = (
            "id",
            "tournament",
            "game",
            "kind",
            "options",
            "block",
            "index",
            "seed",
            "seats",
            "winners",
            "returns",
            "length",
            "truncated",
            "forfeit",
            "moves",
        )
        record = dict(zip(keys, row))
        for key in ("options", "seats", "returns", "moves"):
            record[key] = json.loads(record[key])
        record["truncated"] = bool(record["truncated"])
        return record

    def next_block_index(self, tournament: str) -> int:
        """One more than the highest block index stored for ``tournament`` (0 for none)."""
        row = self.db.execute("SELECT max(block_index) FROM blocks WHERE tournament=?", (tournament,)).fetchone()
        return 0 if row[0] is None else int(row[0]) + 1

    def export_jsonl(self, out: IO[str], tournament: str | None = None) -> int:
        """Write every record (tournaments, entrants, blocks, games) as JSON Lines; returns the count."""
        count = 0
        for record in self._records(tournament):
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            count += 1
        return count

    def _records(self, tournament: str | None) -> Iterator[dict[str, Any]]:
        for table in ("tournaments", "entrants", "blocks", "games"):
            column = "name" if table == "tournaments" else "tournament"
            cursor = self.db.execute(
                f"SELECT * FROM {table}" + (f" WHERE {column}=?" if tournament else "") + " ORDER BY rowid",
                (tournament,) if tournament else (),
            )
            names = [d[0] for d in cursor.description]
            for row in cursor:
                record = {"type": table.rstrip("s"), **dict(zip(names, row))}
                for key in (
                    "options",
                    "schedule",
                    "seats",
                    "patterns",
                    "wins",
                    "returns",
                    "forfeits",
                    "errors",
                    "moves",
                ):
                    if isinstance(record.get(key), str):
                        record[key] = json.loads(record[key])
                yield record
