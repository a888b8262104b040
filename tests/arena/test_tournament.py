"""Tournaments on real games: stored, resumed, replayed, rated; forfeits; the command line."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import makeenv
from makeenv import arena
from makeenv.cli import app
from tests.support.ctrl_c import start_as_from_a_terminal

LEVELS = ["bot:0", "bot:1", "bot:2"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def levels_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, arena.Report]:
    db = tmp_path_factory.mktemp("arena") / "levels.sqlite"
    report = arena.tournament("TicTacToe", LEVELS, games=150, block_size=50, sample=3, db=db)
    return db, report


def test_tictactoe_levels_come_out_in_order(levels_db):
    db, report = levels_db
    assert report.played == 3 * 2 * 3 and report.games == 3 * 2 * 150
    with arena.Store(db) as store:
        ratings = arena.fit(store.cells(game="TicTacToe"), anchor="bot:0")
    assert [row["name"] for row in ratings.table()] == ["bot:2", "bot:1", "bot:0"]
    table = {row["name"]: row for row in ratings.table()}
    assert table["bot:2"]["lower"] > table["bot:1"]["upper"]  # apart beyond their intervals
    assert table["bot:1"]["lower"] > 0


def test_running_again_plays_only_what_is_missing(levels_db):
    db, _ = levels_db
    again = arena.tournament("TicTacToe", LEVELS, games=150, block_size=50, sample=3, db=db)
    assert (again.played, again.games, again.stored_before) == (0, 0, 18)
    extended = arena.tournament("TicTacToe", LEVELS, games=200, block_size=50, sample=3, db=db)
    assert (extended.played, extended.games, extended.stored_before) == (6, 300, 18)


def test_every_stored_game_replays_to_its_stored_outcome(levels_db):
    db, report = levels_db
    with arena.Store(db) as store:
        games = store.games(report.tournament)
    assert len(games) >= 18 * 3
    for game in games:
        outcome = arena.replay("TicTacToe", {}, game["seed"], game["moves"])
        assert "".join("1" if s in outcome.winners else "0" for s in range(2)) == game["winners"]
        assert list(outcome.returns) == game["returns"]
        assert len(game["moves"]) == game["length"]
    tampered = [[player, action] for player, action in games[0]["moves"]]
    tampered[0][0] = 1 - tampered[0][0]
    with pytest.raises(ValueError, match="but player 0 is to move; was the game's logic.py changed"):
        arena.replay("TicTacToe", {}, games[0]["seed"], tampered)


def test_ray_flags_on_the_command_line_are_checked(tmp_path):
    both = CliRunner().invoke(
        app, ["tournament", "TicTacToe", "bot:0", "bot:1", "--workers", "2", "--ray", "--db", str(tmp_path / "x.db")]
    )
    assert both.exit_code == 2 and "--workers 2 and --ray" in both.output


def test_a_changed_setting_or_entrant_is_refused(levels_db):
    db, _ = levels_db
    with pytest.raises(arena.StoreError, match="block_size 50, now 10"):
        arena.tournament("TicTacToe", LEVELS, games=150, block_size=10, db=db)
    arena.tournament("TicTacToe", ["mine=bot:1", "bot:0"], name="named", games=10, block_size=10, db=db)
    with pytest.raises(arena.StoreError, match="entrant 'mine' of tournament 'named' changed \\(its spec"):
        arena.tournament("TicTacToe", ["mine=bot:2", "bot:0"], name="named", games=10, block_size=10, db=db)


CRASHY = """
import numpy as np

def sometimes(state, data):
    if state.sum() >= 3:  # from its third move on
        raise RuntimeError("boom at a full board")
    return int(np.flatnonzero(state[:9] == 0)[0]), data
"""


def test_a_crashing_entrant_forfeits_its_games_and_the_tournament_goes_on(tmp_path, monkeypatch):
    (tmp_path / "crashy.py").write_text(CRASHY)
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "crash.sqlite"
    report = arena.tournament("TicTacToe", ["crashy=crashy.py:sometimes", "bot:1"], games=10, block_size=5, db=db)
    assert report.played == 4 and report.games == 20
    assert report.forfeits > 0
    with arena.Store(db) as store:
        games = store.games(report.tournament)
        cells = store.cells(report.tournament)
    forfeits = [g for g in games if g["forfeit"]]
    assert forfeits and all("crashy" in g["forfeit"] and "boom at a full board" in g["forfeit"] for g in forfeits)
    assert sum(sum(c.patterns.values()) for c in cells) == 20


SCRIPTED = """
import re

def first_option(observation):
    return "[" + re.findall(r"^\\[(\\d+)\\]", observation, re.M)[-1] + "]"
"""


def test_a_text_game_tournament_keeps_every_turn(tmp_path, monkeypatch):
    (tmp_path / "scripted.py").write_text(SCRIPTED)
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "text.sqlite"
    entrants = ["scripted=scripted.py:first_option", "bot:1", "nonsense=fixed:not a move"]
    report = arena.tournament("TicTacToe-text", entrants, games=2, db=db)
    assert report.games == 3 * 2 * 2
    with arena.Store(db) as store:
        games = store.games(report.tournament)
    assert len(games) == 12
    for game in games:
        asked = [turn for turn in game["moves"] if turn["answer"] is not None]
        assert asked and all(turn["observation"] for turn in asked)
    nonsense = [g for g in games if "nonsense" in g["seats"] and "scripted" not in g["seats"]]
    assert nonsense and all(g["forfeit"] and "nonsense" in g["forfeit"] for g in nonsense)


def test_a_text_game_skips_tables_of_bots_only_and_says_so(tmp_path, monkeypatch):
    (tmp_path / "scripted.py").write_text(SCRIPTED)
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "bots.sqlite"
    report = arena.tournament("TicTacToe-text", ["scripted=scripted.py:first_option", "bot:0", "bot:1"], games=1, db=db)
    assert report.bot_tables == 1  # bot:0 against bot:1 needs no words: the text env refuses it
    assert report.games == 2 * 2  # the two tables with the scripted player, both seatings
    with pytest.raises(ValueError, match="every table seats bots only, and a game in words needs a text player"):
        arena.tournament("TicTacToe-text", ["bot:0", "bot:1"], games=1, db=db, name="bots only")


def test_the_command_line_plays_rates_and_exports(tmp_path):
    db = tmp_path / "cli.sqlite"
    runner = CliRunner()
    played = runner.invoke(
        app,
        [
            "tournament",
            "TicTacToe",
            "bot:0",
            "bot:1",
            "--games",
            "40",
            "--block-size",
            "20",
            "--db",
            str(db),
            "--matrix",
        ],
    )
    assert played.exit_code == 0, played.output
    assert "| 1 | bot:1 |" in played.output and "| bot:1 | - |" in played.output
    board = runner.invoke(app, ["leaderboard", "--db", str(db), "--live"])
    assert board.exit_code == 0 and "| 2 | bot:0 | +0 |" in board.output and "sigma" in board.output
    out = tmp_path / "all.jsonl"
    exported = runner.invoke(app, ["export", "--db", str(db), "--out", str(out)])
    assert exported.exit_code == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["type"] for r in records} == {"tournament", "entrant", "block", "game"}
    assert sum(r["games"] for r in records if r["type"] == "block") == 80
    duel = runner.invoke(app, ["duel", "TicTacToe", "bot:2", "bot:0", "--db", str(db), "--elo1", "100"])
    assert duel.exit_code == 0 and "bot:2 is at least 100 Elo stronger" in duel.output
    wrong = runner.invoke(app, ["tournament", "TicTacToe", "bot:0", "bot:7", "--db", str(db)])
    assert wrong.exit_code == 2 and "entrant 'bot:7'" in wrong.output and "no level 7" in wrong.output
    assert "--games" in runner.invoke(app, ["tournament", "--help"]).output


def _blocks_stored(db: Path) -> int:
    try:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT count(*) FROM blocks").fetchone()[0]
    except sqlite3.Error:
        return 0


COMMAND = [
    sys.executable,
    "-m",
    "makeenv",
    "tournament",
    "TicTacToe",
    "bot:0",
    "bot:1",
    "--games",
    "60000",  # 400 blocks: a block of compiled games takes milliseconds, Ctrl-C must land mid-run
    "--block-size",
    "300",
]


BLOCKS = 2 * 60000 // 300  # seatings x blocks per seating


@pytest.mark.slow
def test_ctrl_c_stops_cleanly_and_the_same_command_resumes(tmp_path):
    db = tmp_path / "stop.sqlite"
    process = start_as_from_a_terminal([*COMMAND, "--db", str(db)], cwd=ROOT, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while _blocks_stored(db) < 2 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "run the same command again to resume" in err
    stored = _blocks_stored(db)
    assert 2 <= stored < BLOCKS
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    resumed = subprocess.run([*COMMAND, "--db", str(db)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert (
        f"{BLOCKS - stored} block(s), {(BLOCKS - stored) * 300:,} games played now, {stored} block(s) already stored"
        in resumed.stdout
    )


def test_a_ctrl_c_while_numba_compiles_a_policy_is_no_forfeit():
    """numba hands back a Ctrl-C that arrives while it compiles as a SystemError chained to the
    KeyboardInterrupt: counted as the entrant's forfeit, it would hide the Ctrl-C and change a result."""
    from makeenv.arena.play import play_match

    def interrupted_while_compiling(state, data):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as interrupt:
            raise SystemError("<CPUDispatcher> returned a result with an exception set") from interrupt

    def crashing(state, data):
        raise RuntimeError("boom")

    env = makeenv.make("TicTacToe")
    seats = ("a", "b")
    record = play_match(env, seats, {"a": crashing, "b": crashing}, {"a": None, "b": None}, 1, 0)
    assert record.forfeit and "RuntimeError: boom" in record.forfeit  # an agent's own error: a forfeit
    with pytest.raises(KeyboardInterrupt):
        play_match(env, seats, {"a": interrupted_while_compiling, "b": crashing}, {"a": None, "b": None}, 1, 0)
