"""What a tournament plays: entrants, tables and seatings, blocks with deterministic keys and seeds,
and the sequential test of a duel (SPRT).

A *table* is a set of entrants that play each other (a pairing in two-player games, a free-for-all
table in games of more seats). Every table is played in every rotation of its seats (each entrant
in each seat once), on the same seeds. Games are played in *blocks*: N games of one seating, keyed
by (seating, block index); a block's seed depends on the tournament's seed, the table and the
block index, not on the seating, so every seating of a table meets the same deals.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

MASK64 = 2**64 - 1


@dataclass(frozen=True)
class Entrant:
    """A named player of a tournament: ``spec`` is what the command line accepts (``bot:2``,
    ``random``, ``module:function``, ``file.py:function``, ``local``, ``openai:...``)."""

    name: str
    spec: str

    @classmethod
    def parse(cls, text: str) -> Entrant:
        """``NAME=SPEC``, or a SPEC alone (named after itself)."""
        text = text.strip()
        name, sep, spec = text.partition("=")
        if sep and name and "://" not in name and ":" not in name:
            return cls(name.strip(), spec.strip())
        if not text:
            raise ValueError("empty entrant; expected SPEC or NAME=SPEC, e.g. bot:2 or mine=agents.py:policy")
        return cls(text, text)


def check_entrants(entrants: Sequence[Entrant], players: int) -> None:
    """Names must be distinct, and a table needs ``players`` of them."""
    names = [e.name for e in entrants]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"entrant names must be distinct; {', '.join(repeated)} given twice (name them NAME=SPEC)")
    if len(entrants) < players:
        raise ValueError(
            f"this game seats {players} players but {len(entrants)} entrant(s) were given; give at least {players}"
        )


def round_robin(names: Sequence[str], players: int = 2) -> list[tuple[str, ...]]:
    """Every table of ``players`` distinct entrants (every pairing, for two seats)."""
    return [tuple(table) for table in combinations(names, players)]


def gauntlet(challenger: str, field_names: Sequence[str], players: int = 2) -> list[tuple[str, ...]]:
    """The challenger at every table of ``players - 1`` entrants of the field."""
    others = [name for name in field_names if name != challenger]
    return [(challenger, *table) for table in combinations(others, players - 1)]


def seatings(table: Sequence[str]) -> list[tuple[str, ...]]:
    """The rotations of a table: each entrant sits in each seat once."""
    return [tuple(table[(k + i) % len(table)] for i in range(len(table))) for k in range(len(table))]


def _int_of(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little")


def mix(*values: int) -> int:
    """A 63-bit seed from integers (splitmix64 over them): deterministic across runs and machines."""
    x = 0x9E3779B97F4A7C15
    for value in values:
        x = (x ^ (value & MASK64)) * 0xBF58476D1CE4E5B9 & MASK64
        x = (x ^ (x >> 27)) * 0x94D049BB133111EB & MASK64
        x ^= x >> 31
    return x >> 1


def block_key(seats: Sequence[str], index: int) -> str:
    """The deterministic key of block ``index`` of a seating."""
    return json.dumps([list(seats), index], separators=(",", ":"))


def block_seed(tournament_seed: int, table: Sequence[str], index: int) -> int:
    """The seed of block ``index`` of a table (the same for each of its seatings)."""
    return mix(tournament_seed, _int_of(json.dumps(sorted(table))), index)


def game_seed(seed: int, game: int) -> int:
    """The seed of game ``game`` of a block: below 2**32 (numba's generator takes 32 bits)."""
    return mix(seed, game) % 2**32


@dataclass(frozen=True)
class BlockSpec:
    """One block to play: everything a worker needs, picklable (a Ray task could take it)."""

    tournament: str
    game: str
    kind: str  # "array" or "text"
    options: dict[str, Any]
    specs: dict[str, str]  # entrant name -> spec, for the entrants seated here
    seats: tuple[str, ...]
    index: int
    games: int
    seed: int
    sample: int  # games of this block whose every move is kept

    @property
    def key(self) -> str:
        return block_key(self.seats, self.index)


@dataclass
class GameRecord:
    """One stored game: enough to replay it (seed, moves) and its outcome."""

    index: int
    seed: int
    winners: str  # winners mask over the seats
    returns: list[float]
    length: int
    truncated: bool = False
    forfeit: str | None = None  # why the game was forfeited (the faulty seat lost it)
    moves: list[Any] = field(default_factory=list)  # array: [seat, action]; text: turn dicts


@dataclass
class BlockResult:
    """What a block produced: per-seat counts, winners-mask counts, and the kept games."""

    spec: BlockSpec
    patterns: dict[str, int] = field(default_factory=dict)
    wins: list[int] = field(default_factory=list)
    draws: int = 0
    returns: list[float] = field(default_factory=list)
    steps: int = 0
    truncated: int = 0
    forfeits: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    records: list[GameRecord] = field(default_factory=list)

    def add_counts(
        self, patterns: dict[str, int], returns: Sequence[float], steps: int = 0, truncated: int = 0
    ) -> None:
        """Count games by their winners masks at once (``patterns``: mask -> games), with their
        summed ``returns`` per seat, moves and truncated games."""
        n = len(self.spec.seats)
        if not self.wins:
            self.wins, self.returns, self.forfeits = [0] * n, [0.0] * n, [0] * n
        for pattern, count in patterns.items():
            self.patterns[pattern] = self.patterns.get(pattern, 0) + count
            if "1" not in pattern or "0" not in pattern:
                self.draws += count
                continue
            for seat, won in enumerate(pattern):
                self.wins[seat] += count * (won == "1")
        for seat, ret in enumerate(returns):
            self.returns[seat] += float(ret)
        self.steps += int(steps)
        self.truncated += int(truncated)

    def add(self, record: GameRecord, keep: bool) -> None:
        """Count a finished game (and keep it when ``keep``)."""
        self.add_counts({record.winners: 1}, record.returns, record.length, record.truncated)
        if record.forfeit is not None:
            self.forfeits[record.winners.index("0")] += 1
            if len(self.errors) < 5 and record.forfeit not in self.errors:
                self.errors.append(record.forfeit)
        if keep:
            self.records.append(record)

    @property
    def played(self) -> int:
        return sum(self.patterns.values())


def plan_blocks(
    tournament: str,
    game: str,
    kind: str,
    options: dict[str, Any],
    entrants: Sequence[Entrant],
    tables: Sequence[Sequence[str]],
    games: int,
    block_size: int,
    seed: int,
    sample: int,
    first_block: int = 0,
) -> list[BlockSpec]:
    """The blocks of ``games`` games per seating of each table (whole blocks of ``block_size``),
    from block ``first_block`` on, interleaved table by table so partial runs stay balanced."""
    if block_size < 1:
        raise ValueError(f"block size must be at least 1 game, got {block_size}")
    specs = {e.name: e.spec for e in entrants}
    count = math.ceil(games / block_size)
    blocks = []
    for index in range(first_block, count):
        for table in tables:
            for seats in seatings(table):
                blocks.append(
                    BlockSpec(
                        tournament,
                        game,
                        kind,
                        dict(options),
                        {name: specs[name] for name in table},
                        seats,
                        index,
                        block_size,
                        block_seed(seed, table, index),
                        min(sample, block_size),
                    )
                )
    return blocks


# ---- the duel's sequential test ---------------------------------------------------------------------


def expected_score(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger (logistic, 400-point scale)."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass
class Sprt:
    """Sequential probability ratio test of H0: the challenger is ``elo0`` points stronger, against
    H1: ``elo1`` points (Elo scale), with error rates ``alpha`` (accepting H1 when H0 holds) and
    ``beta``. Scores (1 win, 1/2 draw, 0 loss) are added game by game; the log-likelihood ratio
    uses the normal approximation of the mean score (the one chess engine testing uses)."""

    elo0: float = 0.0
    elo1: float = 50.0
    alpha: float = 0.05
    beta: float = 0.05
    total: float = 0.0
    squares: float = 0.0
    games: int = 0

    def __post_init__(self) -> None:
        if not self.elo1 > self.elo0:
            raise ValueError(f"SPRT: elo1 ({self.elo1}) must be above elo0 ({self.elo0})")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 0.5:
                raise ValueError(f"SPRT: {name} must be between 0 and 0.5 (e.g. 0.05), got {value}")

    def add(self, score: float, count: int = 1) -> None:
        """Add ``count`` games of the challenger's ``score``."""
        self.total += score * count
        self.squares += score * score * count
        self.games += count

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 at or below the lower, H1 at or above the upper."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    @property
    def llr(self) -> float:
        """The log-likelihood ratio of H1 against H0 so far."""
        if self.games < 2:
            return 0.0
        mean = self.total / self.games
        variance = max(self.squares / self.games - mean * mean, 1e-6)
        s0, s1 = expected_score(self.elo0), expected_score(self.elo1)
        return self.games * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)

    @property
    def decision(self) -> str | None:
        """ "H1" (the challenger is at least elo1 stronger), "H0" (at most elo0), or None: play on."""
        lower, upper = self.bounds
        value = self.llr
        return "H1" if value >= upper else "H0" if value <= lower else None
