"""The arena in the browser: the leaderboard of an arena database, replays of its kept games, and
the games people finish under a name stored as entrants ``human:NAME``.

``ArenaBoard(db)`` reads the database (``makeenv play --db``; nothing is created by reading it). A
replay of an array game is a read-only session shaped like a played one (``ReplaySession``), so the
page's history view shows it: every state, the moves, the outcome; the referee replays the stored
moves from the stored seed and the replay says so if the outcome differs from the stored one. A
kept text game is its turns: what each seat was told and answered.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np

from makeenv.gui.array_session import MOVE_LOCK, ArrayGame, ArraySession
from makeenv.gui.common import GuiError

MAX_REPLAYS_LISTED = 200


def _none_if_nan(value: float) -> float | None:
    return None if np.isnan(value) else float(value)


class ReplaySession(ArraySession):
    """A kept array game replayed through the referee, seen from ``seat``; nothing can be played."""

    def __init__(self, game: ArrayGame, stored: dict[str, Any], seat: int = 0) -> None:
        from makeenv.arena.play import replay_match, winners_mask

        self.game = game
        self.mode = "replay"
        self.level = None  # type: ignore[assignment]
        self.session_id = ""
        self.created = 0.0
        self.lock = threading.Lock()
        self.error: str | None = None
        self.player_name, self.record_seed, self.arena_note = None, None, None
        self.stored = stored
        self.entrants = list(stored["seats"])
        self.seat = seat
        self.policies = {}
        self.bot_labels = {}
        self.frames = []
        try:
            with MOVE_LOCK:
                self.match = replay_match(game.env, stored["seed"], stored["moves"], self._step)
        except Exception as error:
            self.error = f"The stored game could not be replayed: {type(error).__name__}: {error}"
            return
        outcome = self.match.outcome
        if stored.get("forfeit"):
            self.error = f"Forfeited: {stored['forfeit']}"
        elif outcome is None or winners_mask(outcome, game.players) != stored["winners"]:
            got = "no end" if outcome is None else winners_mask(outcome, game.players)
            self.error = (
                f"The replay ended with winners {got}, the stored game with {stored['winners']}: the game's rules "
                "or a bot changed since it was stored."
            )

    def _step(self, match: Any, player: int | None, action: int | None) -> None:
        self.match = match
        self._record(player, action)

    def seat_name(self, player: int) -> str:
        return f"Player {player} ({self.entrants[player]})"

    def act(self, action: Any) -> None:
        raise GuiError(400, "This is a replay of a stored game: nothing can be played in it. Start a new game.")

    def result(self) -> dict[str, Any] | None:
        outcome = self.match.outcome
        if outcome is None:
            return None
        winners = [self.seat_name(p) for p in outcome.winners]
        if outcome.truncated:
            text = "No winner: the game reached its turn limit."
        elif not winners or len(winners) == self.game.players:
            text = "A draw."
        else:
            text = " and ".join(winners) + (" won." if len(winners) == 1 else " shared first place.")
        return {
            "outcome": outcome.results[self.seat],
            "text": text,
            "winners": list(outcome.winners),
            "results": list(outcome.results),
            "returns": [float(r) for r in outcome.returns],
            "return": float(outcome.returns[self.seat]),
            "shared": outcome.shared,
            "truncated": outcome.truncated,
        }

    def snapshot(self) -> dict[str, Any]:
        data = super().snapshot()
        data["replay"] = self.replay_info()
        data["info"] = self.game.info()
        return data

    def replay_info(self) -> dict[str, Any]:
        keys = ("id", "tournament", "game", "seed", "seats", "winners", "returns", "length", "forfeit")
        return {key: self.stored[key] for key in keys}


def text_replay(stored: dict[str, Any]) -> dict[str, Any]:
    """A kept text game for the page: its turns (who was told what, what they answered) and outcome."""
    seats = stored["seats"]
    turns = [
        {
            "seat": turn.get("seat"),
            "name": seats[turn["seat"]] if isinstance(turn.get("seat"), int) and turn["seat"] < len(seats) else "?",
            "observation": turn.get("observation", ""),
            "answer": turn.get("answer"),
            "error": turn.get("error"),
        }
        for turn in stored["moves"]
    ]
    won = [seats[p] for p, flag in enumerate(stored["winners"]) if flag == "1"]
    text = "A draw." if not won or len(won) == len(seats) else " and ".join(won) + " won."
    return {
        "kind": "text",
        "mode": "replay",
        "game": stored["game"],
        "replay": {key: stored[key] for key in ("id", "tournament", "game", "seed", "seats", "winners", "forfeit")},
        "result": {"text": text, "returns": stored["returns"]},
        "turns": turns,
    }


class ArenaBoard:
    """The arena database the page reads, and the games it stores for people who play under a name."""

    def __init__(self, db: str | Path, game: str | None = None) -> None:
        self.db = Path(db)
        self.game = game  # the served game's id: the leaderboard's default filter
        self._games: dict[str, ArrayGame] = {}
        self._lock = threading.Lock()

    def _store(self) -> Any:
        from makeenv.arena import Store, StoreError

        try:
            return Store(self.db)
        except StoreError as error:
            raise GuiError(400, str(error)) from None

    def leaderboard(self, game: str | None = None, tournament: str | None = None) -> dict[str, Any]:
        """Ratings with intervals, games played, the win-rate matrix and the kept games, for one game
        (or, with ``game`` empty, across games, each weighted equally; None: the served game when
        the database has games of it, else across games)."""
        from makeenv.arena import fit

        board: dict[str, Any] = {
            "db": str(self.db),
            "exists": self.db.is_file(),
            "game": game,
            "default_game": self.game,
            "games": [],
            "tournaments": [],
            "ratings": [],
            "matrix": {"names": [], "rates": []},
            "replays": [],
        }
        if not board["exists"]:
            return board
        with self._store() as store:
            tournaments = store.tournaments()
            games = sorted({t["game"] for t in tournaments})
            if game is None:
                game = self.game if self.game in games else ""
            cells = store.cells(tournament, game or None)
            replays = store.kept_games(game or None, tournament, MAX_REPLAYS_LISTED)
        board.update(game=game, tournaments=tournaments, games=games, replays=replays)
        if not any(sum(cell.patterns.values()) for cell in cells):
            return board
        names = {name for cell in cells for name in cell.seats}
        anchor = "bot:0" if "bot:0" in names else None
        ratings = fit(cells, anchor=anchor)
        board["ratings"] = ratings.table()
        board["anchor"], board["level"] = anchor, ratings.level
        order = [ratings.names.index(row["name"]) for row in board["ratings"]]
        board["matrix"] = {
            "names": [ratings.names[i] for i in order],
            "rates": [[None if i == j else _none_if_nan(ratings.win_rate[i, j]) for j in order] for i in order],
        }
        return board

    def array_game(self, game: str, options: dict[str, Any]) -> ArrayGame:
        """The served form of a stored game's env (built once)."""
        import json

        from makeenv.arena.play import game_env

        key = json.dumps([game, options], sort_keys=True)
        with self._lock:
            if key not in self._games:
                self._games[key] = ArrayGame(game_env(game, options))
            return self._games[key]

    def replay(self, game_id: Any, seat: Any = None) -> Any:
        """A ``ReplaySession`` of a kept array game, or the turns of a kept text game."""
        from makeenv.gui.common import parse_seat

        if isinstance(game_id, bool) or not isinstance(game_id, (int, str)) or not str(game_id).isdigit():
            raise GuiError(400, f"replay id must be a kept game's number (from the leaderboard page), got {game_id!r}")
        if not self.db.is_file():
            raise GuiError(404, f"No arena database {self.db}: play a tournament first (makeenv tournament --help).")
        with self._store() as store:
            try:
                stored = store.kept_game(int(game_id))
            except KeyError as error:
                raise GuiError(404, str(error.args[0])) from None
        if stored["kind"] != "array":
            return text_replay(stored)
        try:
            game = self.array_game(stored["game"], stored["options"])
        except Exception as error:
            raise GuiError(500, f"The game {stored['game']!r} of this replay cannot be loaded: {error}") from None
        return ReplaySession(game, stored, parse_seat(seat, game.players) or 0)

    def record(self, session: ArraySession, game: str, options: dict[str, Any]) -> str:
        """Store a finished game of a named person; returns what the page says about it."""
        from makeenv.arena import GameRecord
        from makeenv.arena.people import record_person_game
        from makeenv.arena.play import winners_mask

        outcome = session.match.outcome
        if outcome is None or session.player_name is None or session.record_seed is None:
            return ""
        players = session.game.players
        seats = [
            (session.player_name, "human") if p == session.seat else (f"bot:{session.level}", f"bot:{session.level}")
            for p in range(players)
        ]
        moves = [[f.actor, f.action] for f in session.frames if f.actor is not None]
        record = GameRecord(
            0, session.record_seed, winners_mask(outcome, players), [float(r) for r in outcome.returns], len(moves)
        )
        record.truncated, record.moves = bool(outcome.truncated), moves
        try:
            tournament = record_person_game(self.db, game, options, session.game.env, seats, record)
        except Exception as error:  # the game was played; say why it is not on the leaderboard
            return f"Not stored on the leaderboard: {error}"
        return f"Stored as {session.player_name} in {tournament!r} ({self.db.name})."
