"""Ratings from stored results: a Bradley-Terry fit with bootstrap intervals, a win-rate matrix,
per game and across games (each game weighted equally), and live ratings through openskill.

A game's outcome is its winners (a mask over the seats): the winners share first place, the others
share last; nobody or everybody winning is a draw. Each game is broken into the results of every
pair of seats: a winner beats a loser (score 1), two players in the same place tie (score 1/2 each:
draws are half wins), each pair weighted 1/(seats - 1) so a game carries the same weight per
player whatever its player count. For two seats that is exactly Bradley-Terry with draws as half
wins; for more it is the pairwise (composite) likelihood of Plackett-Luce with shared places as
ties. The fit maximises that likelihood plus a weak prior (``prior`` drawn games against a virtual
entrant rated 0, so an entrant that won or lost everything still gets a finite rating). Ratings
are on the Elo scale (400 points: 10-to-1 odds), anchored at a mean of 0 or at a named entrant.
Intervals come from a bootstrap that resamples the games within each (table, seating) cell.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

ELO = 400.0 / math.log(10.0)  # natural-log strength -> Elo points


@dataclass(frozen=True)
class Cell:
    """Games of one seating: ``seats[k]`` is the entrant in seat k; ``patterns`` counts games per
    winners mask ("10": seat 0 won, "00": nobody won, "110": seats 0 and 1 shared first place)."""

    game: str
    seats: tuple[str, ...]
    patterns: Mapping[str, int]


@dataclass(frozen=True)
class Ratings:
    """A fit: per entrant (in ``names`` order) its Elo rating, interval, games and mean score."""

    names: tuple[str, ...]
    elo: np.ndarray
    lower: np.ndarray
    upper: np.ndarray
    games: np.ndarray  # games played
    score: np.ndarray  # mean pairwise score (wins + draws/2) per game
    win_rate: np.ndarray  # [i, j]: i's mean score against j (NaN: never met)
    level: float
    anchor: str | None

    def table(self) -> list[dict[str, Any]]:
        """Rows sorted by rating: rank, name, elo, lower, upper, games, score."""
        order = np.argsort(-self.elo, kind="stable")
        return [
            {
                "rank": rank + 1,
                "name": self.names[i],
                "elo": float(self.elo[i]),
                "lower": float(self.lower[i]),
                "upper": float(self.upper[i]),
                "games": int(self.games[i]),
                "score": float(self.score[i]),
            }
            for rank, i in enumerate(order)
        ]

    def format(self) -> str:
        """The leaderboard as a Markdown table."""
        percent = round(100 * self.level)
        lines = [
            f"| rank | entrant | Elo | {percent}% interval | games | score |",
            "|---:|---|---:|---|---:|---:|",
        ]
        for row in self.table():
            lines.append(
                f"| {row['rank']} | {row['name']} | {row['elo']:+.0f} | {row['lower']:+.0f} .. {row['upper']:+.0f} "
                f"| {row['games']:,} | {100 * row['score']:.1f}% |"
            )
        return "\n".join(lines)

    def format_matrix(self) -> str:
        """The win-rate matrix (row's mean score against column) as a Markdown table."""
        order = np.argsort(-self.elo, kind="stable")
        lines = ["| | " + " | ".join(self.names[j] for j in order) + " |", "|---" * (len(order) + 1) + "|"]
        for i in order:
            cells = [
                "-" if i == j or np.isnan(self.win_rate[i, j]) else f"{100 * self.win_rate[i, j]:.0f}%" for j in order
            ]
            lines.append(f"| {self.names[i]} | " + " | ".join(cells) + " |")
        return "\n".join(lines)


# ---- from cells to pairwise scores ------------------------------------------------------------------


@dataclass
class _Units:
    """Every (cell, pattern) as a unit with a count, and its pairwise contributions flattened."""

    counts: np.ndarray  # per unit: games
    cell_of: np.ndarray  # per unit: its cell
    unit: np.ndarray  # per contribution: its unit
    index: np.ndarray  # per contribution: i * E + j
    score: np.ndarray  # per contribution: i's score against j times the pair's weight
    weight: np.ndarray  # per contribution: the pair's weight


def pattern_scores(pattern: str) -> np.ndarray:
    """``[i, j]``: seat i's score against seat j in a game with this winners mask."""
    won = np.array([c == "1" for c in pattern], dtype=bool)
    n = len(won)
    if n < 2 or not set(pattern) <= {"0", "1"}:
        raise ValueError(f"winners mask {pattern!r}: expected one '0' or '1' per seat, at least two seats")
    if won.all() or not won.any():
        return np.full((n, n), 0.5)
    return np.where(won[:, None] == won[None, :], 0.5, won[:, None].astype(float))


def _units(cells: Sequence[Cell], names: Sequence[str], scale: Mapping[str, float]) -> _Units:
    where = {name: i for i, name in enumerate(names)}
    e = len(names)
    counts: list[int] = []
    cell_of: list[int] = []
    unit: list[int] = []
    index: list[int] = []
    score: list[float] = []
    weight: list[float] = []
    for c, cell in enumerate(cells):
        n = len(cell.seats)
        seat_index = [where[name] for name in cell.seats]
        for pattern, count in cell.patterns.items():
            if len(pattern) != n:
                raise ValueError(
                    f"{cell.game} {cell.seats}: winners mask {pattern!r} has {len(pattern)} seats, expected {n}"
                )
            u = len(counts)
            counts.append(int(count))
            cell_of.append(c)
            pair = pattern_scores(pattern)
            w = scale[cell.game] / (n - 1)
            for a in range(n):
                for b in range(n):
                    if a != b and seat_index[a] != seat_index[b]:
                        unit.append(u)
                        index.append(seat_index[a] * e + seat_index[b])
                        score.append(pair[a, b] * w)
                        weight.append(w)
    return _Units(
        np.array(counts, dtype=float),
        np.array(cell_of, dtype=np.int64),
        np.array(unit, dtype=np.int64),
        np.array(index, dtype=np.int64),
        np.array(score),
        np.array(weight),
    )


def _pairwise(units: _Units, counts: np.ndarray, e: int) -> tuple[np.ndarray, np.ndarray]:
    """(scores, games) matrices: ``scores[i, j]`` i's weighted score against j, ``games`` both ways."""
    per = counts[units.unit]
    scores = np.bincount(units.index, weights=per * units.score, minlength=e * e).reshape(e, e)
    games = np.bincount(units.index, weights=per * units.weight, minlength=e * e).reshape(e, e)
    return scores, games


def fit_strengths(scores: np.ndarray, games: np.ndarray, prior: float = 1.0, iterations: int = 100) -> np.ndarray:
    """Natural-log strengths maximising the Bradley-Terry likelihood of ``scores`` (``scores[i, j]``:
    i's score in its ``games[i, j]`` games against j; draws as halves) plus ``prior`` drawn games
    of each entrant against a virtual entrant of strength 0. Newton's method (the problem is concave)."""
    e = scores.shape[0]
    r = np.zeros(e)
    if e == 0:
        return r
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(r[None, :] - r[:, None]))  # p[i, j]: i beats j
        q = 1.0 / (1.0 + np.exp(-r))
        gradient = (scores - games * p).sum(axis=1) + prior * (0.5 - q)
        curvature = games * p * (1.0 - p)
        hessian = curvature - np.diag(curvature.sum(axis=1) + prior * q * (1.0 - q))
        step = np.linalg.solve(hessian, gradient)
        biggest = np.abs(step).max()
        if biggest > 2.0:  # far from the optimum: damp, Newton may overshoot on extreme scores
            step *= 2.0 / biggest
        r -= step
        if biggest < 1e-10:
            break
    return r


def fit(
    cells: Iterable[Cell],
    *,
    anchor: str | None = None,
    bootstrap: int = 200,
    level: float = 0.95,
    prior: float = 1.0,
    seed: int = 0,
) -> Ratings:
    """Ratings of every entrant in ``cells``, games of several games weighted so each game counts
    equally; ``anchor`` (an entrant's name) is rated 0, else the mean is. ``bootstrap`` resamples
    (0: no intervals, they equal the rating) give the ``level`` intervals."""
    cells = [cell for cell in cells if sum(cell.patterns.values()) > 0]
    if not cells:
        raise ValueError("no games to rate: play a tournament first (makeenv tournament)")
    if not 0 < level < 1:
        raise ValueError(f"level must be between 0 and 1 (e.g. 0.95), got {level!r}")
    names = tuple(sorted({name for cell in cells for name in cell.seats}))
    if anchor is not None and anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not an entrant; entrants: {', '.join(names)}")
    per_game: dict[str, float] = {}
    for cell in cells:
        per_game[cell.game] = per_game.get(cell.game, 0.0) + sum(cell.patterns.values())
    mean = sum(per_game.values()) / len(per_game)
    scale = {game: mean / total for game, total in per_game.items()}
    units = _units(cells, names, scale)
    e = len(names)

    def elo_of(counts: np.ndarray) -> np.ndarray:
        scores, games = _pairwise(units, counts, e)
        r = fit_strengths(scores, games, prior) * ELO
        return r - (r[names.index(anchor)] if anchor is not None else r.mean())

    elo = elo_of(units.counts)
    if bootstrap > 0:
        rng = np.random.default_rng(seed)
        draws = np.empty((bootstrap, e))
        # the units of each cell as a row of a padded (cells, patterns) table, resampled at once
        slot = np.zeros(len(units.counts), dtype=np.int64)
        for c in range(len(cells)):
            members = np.flatnonzero(units.cell_of == c)
            slot[members] = np.arange(len(members))
        table = np.zeros((len(cells), int(slot.max()) + 1))
        table[units.cell_of, slot] = units.counts
        totals = table.sum(axis=1)
        for b in range(bootstrap):
            resampled = rng.multinomial(totals.astype(np.int64), table / totals[:, None])
            draws[b] = elo_of(resampled[units.cell_of, slot].astype(float))
        tail = 100 * (1 - level) / 2
        lower, upper = np.percentile(draws, [tail, 100 - tail], axis=0)
    else:
        lower, upper = elo.copy(), elo.copy()
    played = np.zeros(e)
    for cell in cells:
        for name in cell.seats:
            played[names.index(name)] += sum(cell.patterns.values())
    raw_scores, raw_games = _pairwise(_units(cells, names, dict.fromkeys(scale, 1.0)), units.counts, e)
    with np.errstate(invalid="ignore", divide="ignore"):
        win_rate = np.where(raw_games > 0, raw_scores / raw_games, np.nan)
        score = raw_scores.sum(axis=1) / raw_games.sum(axis=1)
    return Ratings(names, elo, lower, upper, played, score, win_rate, level, anchor)


# ---- live ratings (openskill) ---------------------------------------------------------------------


class LiveRatings:
    """Ratings updated game by game with openskill's Plackett-Luce model (shared places as ties),
    and matchmaking from them: ``next_pairing`` picks the pairing whose outcome is least certain.

    Needs the ``openskill`` package: ``pip install 'makeenv[arena]'``.
    """

    def __init__(self) -> None:
        try:
            from openskill.models import PlackettLuce
        except ImportError as error:
            raise ImportError(
                f"live ratings need the openskill package: pip install 'makeenv[arena]' ({error})"
            ) from error
        self.model = PlackettLuce()
        self.ratings: dict[str, Any] = {}

    def _rating(self, name: str) -> Any:
        if name not in self.ratings:
            self.ratings[name] = self.model.rating(name=name)
        return self.ratings[name]

    def update(self, seats: Sequence[str], winners_mask: str, count: int = 1) -> None:
        """Add ``count`` games of ``seats`` that ended with ``winners_mask`` (see ``Cell``)."""
        won = [c == "1" for c in winners_mask]
        ranks: list[float] = [0.0 if w or not any(won) or all(won) else 1.0 for w in won]
        for _ in range(count):
            teams = [[self._rating(name)] for name in seats]
            for name, (rating,) in zip(seats, self.model.rate(teams, ranks=ranks)):
                self.ratings[name] = rating

    def update_cells(self, cells: Iterable[Cell]) -> None:
        """Add every game of ``cells`` (interleaved pattern by pattern, game by game)."""
        for cell in cells:
            left = dict(cell.patterns)
            while any(left.values()):
                for pattern in list(left):
                    if left[pattern]:
                        self.update(cell.seats, pattern)
                        left[pattern] -= 1

    def leaderboard(self) -> list[tuple[str, float, float]]:
        """(name, mu, sigma) sorted by the conservative estimate mu - 3 sigma."""
        rows = [(name, float(r.mu), float(r.sigma)) for name, r in self.ratings.items()]
        return sorted(rows, key=lambda row: row[1] - 3 * row[2], reverse=True)

    def next_pairing(self, names: Sequence[str], players: int = 2) -> tuple[str, ...]:
        """The table of ``players`` entrants whose result is least predictable (openskill's draw
        probability is highest): the most informative games to play next."""
        from itertools import combinations

        if len(names) < players:
            raise ValueError(f"matchmaking needs at least {players} entrants, got {len(names)}")
        return max(
            combinations(names, players),
            key=lambda table: self.model.predict_draw([[self._rating(name)] for name in table]),
        )
