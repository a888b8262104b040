"""Running tournaments and duels: blocks planned, the missing ones played by an executor, each
stored as it arrives, so a run can be stopped (Ctrl-C) and resumed, or extended, at any time.

The blocks go to an executor (``makeenv.executors``): ``LocalExecutor`` plays them in this process
or in a pool of forked processes, ``RayExecutor`` as Ray tasks on a local Ray or a cluster. Each
block carries its own seeds, so the stored results are the same whichever plays them.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from makeenv.arena.play import code_hash, game_env, game_kind, play_block, rules_hash
from makeenv.arena.schedule import (
    BlockResult,
    BlockSpec,
    Entrant,
    Sprt,
    check_entrants,
    gauntlet,
    plan_blocks,
    round_robin,
)
from makeenv.arena.store import DEFAULT_DB, Store
from makeenv.executors import Executor, LocalExecutor

ARRAY_BLOCK, TEXT_BLOCK = 1000, 1  # default games per block
ARRAY_SAMPLE = 2  # default games per block kept move by move (array games; text games keep all)


@dataclass
class Report:
    """What a run did: blocks and games played now, blocks already stored, blocks planned."""

    tournament: str
    db: Path
    planned: int
    stored_before: int
    played: int = 0
    games: int = 0
    forfeits: int = 0
    seconds: float = 0.0
    decision: str | None = None  # a duel's SPRT answer
    bot_tables: int = 0  # tables of bots only, not played in a game in words (it needs a text player)

    @property
    def missing(self) -> int:
        return self.planned - self.stored_before - self.played


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C: the blocks played so far are stored; running the same command again resumes."""

    def __init__(self, report: Report) -> None:
        self.report = report
        super().__init__(
            f"interrupted: {report.played} block(s) of tournament {report.tournament!r} stored in {report.db} this "
            f"run, {report.missing} still to play; run the same command again to resume"
        )


ProgressFn = Callable[[Report, BlockResult], None]


@dataclass(frozen=True)
class Setup:
    """A tournament's resolved settings (what ``begin`` checked against the database)."""

    name: str
    game: str
    kind: str
    players: int
    options: dict[str, Any]
    entrants: tuple[Entrant, ...]
    seed: int
    block_size: int
    sample: int


def begin(
    store: Store,
    game: str,
    entrants: Sequence[Entrant | str],
    *,
    name: str | None,
    schedule: dict[str, Any],
    options: dict[str, Any] | None,
    seed: int,
    block_size: int | None,
    sample: int | None,
) -> Setup:
    """Resolve entrants (their code is loaded and hashed: a broken spec fails here, before any game)
    and record the tournament, or check it against the stored one."""
    options = dict(options or {})
    parsed = tuple(e if isinstance(e, Entrant) else Entrant.parse(e) for e in entrants)
    kind = game_kind(game)
    env = game_env(game, options)
    if kind == "array":
        players = int(env.players)
    else:
        players = int(getattr(env, "seat_count", None) or env.max_players)
    check_entrants(parsed, players)
    hashes = []
    for entrant in parsed:
        try:
            hashes.append((entrant, code_hash(env, kind, entrant.spec)))
        except Exception as error:
            raise ValueError(f"entrant {entrant.name!r} ({entrant.spec!r}) cannot be loaded: {error}") from error
    size = block_size or (ARRAY_BLOCK if kind == "array" else TEXT_BLOCK)
    keep = (ARRAY_SAMPLE if kind == "array" else size) if sample is None else sample
    name = name or f"{game} {schedule['kind']}"
    store.begin_tournament(
        name,
        game=game,
        kind=kind,
        rules_hash=rules_hash(env),
        options=options,
        schedule=schedule,
        seed=seed,
        block_size=size,
        entrants=hashes,
    )
    return Setup(name, game, kind, players, options, parsed, seed, size, keep)


def play_missing(
    store: Store, setup: Setup, blocks: Sequence[BlockSpec], executor: Executor | None, progress: ProgressFn | None
) -> Report:
    """Play the blocks not stored yet, storing each as it arrives."""
    from makeenv.array.runner import keeping_ctrl_c

    done = store.done_keys(setup.name)
    todo = [block for block in blocks if block.key not in done]
    report = Report(setup.name, store.path, len(blocks), len(blocks) - len(todo))
    started = time.perf_counter()
    try:
        with keeping_ctrl_c() as stop_if_interrupted:
            for result in (executor or LocalExecutor()).map_unordered(play_block, todo):
                stop_if_interrupted()  # a Ctrl-C numba lost while compiling: this block is not stored
                if store.add_block(result):
                    report.played += 1
                    report.games += result.played
                    report.forfeits += sum(result.forfeits)
                else:
                    report.stored_before += 1  # another writer stored it first
                report.seconds = time.perf_counter() - started
                if progress is not None:
                    progress(report, result)
    except KeyboardInterrupt:
        report.seconds = time.perf_counter() - started
        raise TournamentInterrupted(report) from None
    return report


def tournament(
    game: str,
    entrants: Sequence[Entrant | str],
    *,
    db: str | Path = DEFAULT_DB,
    name: str | None = None,
    games: int = 100,
    challenger: str | None = None,
    block_size: int | None = None,
    sample: int | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    executor: Executor | None = None,
    progress: ProgressFn | None = None,
) -> Report:
    """Play a round robin (or, with ``challenger``, a gauntlet: the challenger against every table
    of the others) of ``games`` games per seating of each table, stored in ``db``. Running it again
    plays only what is missing; more games or more entrants extend it."""
    if games < 1:
        raise ValueError(f"games must be at least 1 per seating, got {games}")
    kind = "gauntlet" if challenger is not None else "round-robin"
    with Store(db) as store:
        setup = begin(
            store,
            game,
            entrants,
            name=name,
            schedule={"kind": kind},
            options=options,
            seed=seed,
            block_size=block_size,
            sample=sample,
        )
        names = [e.name for e in setup.entrants]
        if challenger is not None:
            if challenger not in names:
                raise ValueError(f"challenger {challenger!r} is not an entrant; entrants: {', '.join(names)}")
            tables = gauntlet(challenger, names, setup.players)
        else:
            tables = round_robin(names, setup.players)
        bot_tables = [t for t in tables if setup.kind == "text" and _bots_only(setup, t)]
        if bot_tables and len(bot_tables) == len(tables):
            raise ValueError(
                f"{game}: every table seats bots only, and a game in words needs a text player; add a text "
                f"entrant (local, openai:..., a module:function) or play the bots in the array game"
            )
        tables = [t for t in tables if t not in bot_tables]
        report = play_missing(store, setup, _blocks(setup, tables, games), executor, progress)
        report.bot_tables = len(bot_tables)
        return report


def _bots_only(setup: Setup, table: Sequence[str]) -> bool:
    """True when every entrant of ``table`` is a ``bot:LEVEL``."""
    specs = {e.name: e.spec for e in setup.entrants}
    return all(specs[name].startswith("bot:") for name in table)


def _blocks(setup: Setup, tables: Sequence[Sequence[str]], games: int, first: int = 0) -> list[BlockSpec]:
    return plan_blocks(
        setup.name,
        setup.game,
        setup.kind,
        setup.options,
        setup.entrants,
        tables,
        games,
        setup.block_size,
        setup.seed,
        setup.sample,
        first,
    )


def challenger_score(cells: Iterable[Any], challenger: str) -> Iterator[tuple[float, int]]:
    """(score, games) of ``challenger`` per winners pattern of ``cells``: 1 won, 1/2 drew, 0 lost."""
    for cell in cells:
        seat = cell.seats.index(challenger)
        for pattern, count in cell.patterns.items():
            drawn = "0" not in pattern or "1" not in pattern
            yield (0.5 if drawn else float(pattern[seat] == "1")), count


def duel(
    game: str,
    challenger: Entrant | str,
    opponent: Entrant | str,
    *,
    elo0: float = 0.0,
    elo1: float = 50.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    max_games: int = 10_000,
    db: str | Path = DEFAULT_DB,
    name: str | None = None,
    block_size: int | None = None,
    sample: int | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    executor: Executor | None = None,
    progress: ProgressFn | None = None,
) -> Report:
    """Play ``challenger`` against ``opponent`` block by block (both seatings each round) until the
    SPRT decides whether the challenger is ``elo1`` points stronger (H1) or at most ``elo0`` (H0),
    or ``max_games`` games are stored. ``report.decision`` is "H1", "H0" or None (undecided)."""
    with Store(db) as store:
        setup = begin(
            store,
            game,
            [challenger, opponent],
            name=name,
            schedule={"kind": "duel", "elo0": elo0, "elo1": elo1, "alpha": alpha, "beta": beta},
            options=options,
            seed=seed,
            block_size=block_size or (100 if game_kind(game) == "array" else TEXT_BLOCK),
            sample=sample,
        )
        first, second = (e.name for e in setup.entrants)
        total = Report(setup.name, store.path, 0, 0)
        index = 0
        while True:
            test = Sprt(elo0, elo1, alpha, beta)
            for score, count in challenger_score(store.cells(setup.name), first):
                test.add(score, count)
            total.decision = test.decision
            if total.decision is not None or test.games >= max_games:
                return total
            report = play_missing(
                store,
                setup,
                _blocks(setup, [(first, second)], (index + 1) * setup.block_size, index),
                executor,
                progress,
            )
            total.planned += report.planned
            total.stored_before += report.stored_before
            total.played += report.played
            total.games += report.games
            total.forfeits += report.forfeits
            total.seconds += report.seconds
            index += 1
