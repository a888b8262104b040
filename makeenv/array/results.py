"""What a run of games produced: wins, shared wins, draws, losses, returns and lengths, per seat.

Compiled loops add each finished game to a ``stats`` table (one row per seat the agent sat in,
columns named below); ``Results.from_stats`` reads it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

# ---- the stats table's columns (one row per seat) --------------------------------------------
STAT_GAMES = 0
STAT_WINS = 1  # sole and shared first places
STAT_SHARED_WINS = 2  # shared first places only (also counted in STAT_WINS)
STAT_DRAWS = 3  # nobody or everybody won, or the game hit its TURN_LIMIT
STAT_LOSSES = 4
STAT_TRUNCATED = 5  # games ended by the game's TURN_LIMIT (also counted in STAT_DRAWS)
STAT_RETURN = 6  # sum of the agent's returns
STAT_STEPS = 7  # sum of game lengths (steps: actions applied)
STAT_COLUMNS = 8


def new_stats(players: int) -> np.ndarray:
    """An empty stats table for a game of ``players`` seats."""
    return np.zeros((players, STAT_COLUMNS), dtype=np.float64)


@dataclass(frozen=True)
class SeatResults:
    """The agent's games from one seat (or from all seats, for the totals)."""

    games: int
    wins: int
    shared_wins: int
    draws: int
    losses: int
    truncated: int
    total_return: float
    total_steps: int

    @classmethod
    def from_row(cls, row: np.ndarray) -> SeatResults:
        return cls(
            int(row[STAT_GAMES]),
            int(row[STAT_WINS]),
            int(row[STAT_SHARED_WINS]),
            int(row[STAT_DRAWS]),
            int(row[STAT_LOSSES]),
            int(row[STAT_TRUNCATED]),
            float(row[STAT_RETURN]),
            int(row[STAT_STEPS]),
        )

    @property
    def win_rate(self) -> float:
        """Wins (sole or shared) per game; NaN when no game was played."""
        return self.wins / self.games if self.games else float("nan")

    @property
    def mean_return(self) -> float:
        return self.total_return / self.games if self.games else float("nan")

    @property
    def mean_steps(self) -> float:
        """Mean game length in steps (actions applied)."""
        return self.total_steps / self.games if self.games else float("nan")


@dataclass(frozen=True)
class Results(SeatResults):
    """The agent's results over a run: the totals, ``by_seat[k]`` and the final ``agent_data``."""

    by_seat: tuple[SeatResults, ...] = field(default_factory=tuple)
    agent_data: Any = None

    @classmethod
    def from_stats(cls, stats: np.ndarray, agent_data: Any = None) -> Results:
        total = SeatResults.from_row(stats.sum(axis=0))
        seats = tuple(SeatResults.from_row(row) for row in stats)
        return cls(**total.__dict__, by_seat=seats, agent_data=agent_data)

    def summary(self) -> str:
        """One line: games, wins (shared), draws, losses, mean return, mean length."""
        shared = f" ({self.shared_wins:,} shared)" if self.shared_wins else ""
        truncated = f", {self.truncated:,} at the turn limit" if self.truncated else ""
        return (
            f"{self.games:,} games: {self.wins:,} wins{shared}, {self.draws:,} draws{truncated}, "
            f"{self.losses:,} losses; win rate {100 * self.win_rate:.2f}%, mean return "
            f"{self.mean_return:+.4f}, mean length {self.mean_steps:.2f} steps"
        )
