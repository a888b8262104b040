"""The arena: which agent is best at a game, by how much, and how sure are we.

Tournaments (round robin, gauntlet) and duels (stopped by a sequential test) between any entrants
makeenv accepts (array agents, ``bot:LEVEL``, ``random``, text agents), stored game by game in an
SQLite file (resumable, extendable), and rated: a Bradley-Terry fit with bootstrap intervals per
game and across games, a win-rate matrix, live openskill ratings. ``makeenv tournament``, ``duel``,
``leaderboard`` and ``export`` are the command line over this package; blocks of games run here, in
forked processes or as Ray tasks (``makeenv.executors``); ``makeenv play --db`` shows the
leaderboard and replays of stored games in the browser and rates the people who play there.

    from makeenv import arena

    arena.tournament("TicTacToe", ["bot:0", "bot:1", "bot:2"], games=200, db="arena.sqlite")
    with arena.Store("arena.sqlite") as store:
        print(arena.fit(store.cells(game="TicTacToe"), anchor="bot:0").format())
"""

from makeenv.arena.play import play_block, replay
from makeenv.arena.ratings import Cell, LiveRatings, Ratings, fit
from makeenv.arena.schedule import BlockResult, BlockSpec, Entrant, GameRecord, Sprt, gauntlet, round_robin, seatings
from makeenv.arena.store import DEFAULT_DB, SCHEMA_VERSION, Store, StoreError
from makeenv.arena.tournament import Report, TournamentInterrupted, duel, tournament
from makeenv.executors import Executor, LocalExecutor, RayExecutor

__all__ = [
    "DEFAULT_DB",
    "SCHEMA_VERSION",
    "BlockResult",
    "BlockSpec",
    "Cell",
    "Entrant",
    "Executor",
    "GameRecord",
    "LiveRatings",
    "LocalExecutor",
    "RayExecutor",
    "Ratings",
    "Report",
    "Sprt",
    "Store",
    "StoreError",
    "TournamentInterrupted",
    "duel",
    "fit",
    "gauntlet",
    "play_block",
    "replay",
    "round_robin",
    "seatings",
    "tournament",
]
