"""The arena in the browser app: the leaderboard API and page, replays of stored games in the history
view, and a person who plays under a name stored and rated with the agents. Real SQLite, real
uvicorn on 127.0.0.1, and (marked ``browser``) Debian's Chromium with a screenshot kept."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest

from makeenv import arena
from makeenv.gui import ServerThread, create_app
from tests.gui.conftest import assert_not_blank

SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="module")
def arena_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("board") / "arena.sqlite"
    arena.tournament("TicTacToe", ["bot:0", "bot:1", "bot:2"], games=40, block_size=20, sample=2, db=db)
    return db


@pytest.fixture(scope="module")
def board_server(arena_db: Path) -> Any:
    with ServerThread(create_app("TicTacToe", level=1, arena_db=arena_db)) as server:
        yield server


@pytest.fixture()
def client(board_server: Any) -> Any:
    with httpx.Client(base_url=board_server.url, timeout=60) as c:
        yield c


def play_named_game(client: httpx.Client, name: str) -> dict[str, Any]:
    """A whole TicTacToe game as ``name`` against level 1, always the first valid action."""
    session = client.post("/api/sessions", json={"level": 1, "seat": 0, "name": name}).json()
    while session["status"] == "your_turn":
        action = session["valid_actions"][0]["action"]
        session = client.post(f"/api/sessions/{session['session_id']}/actions", json={"action": action}).json()
    return session


def test_the_leaderboard_rates_the_stored_tournament_with_intervals_and_a_matrix(client):
    board = client.get("/api/arena/leaderboard").json()
    assert board["game"] == "TicTacToe" and board["games"] == ["TicTacToe"]  # the served game by default
    names = [row["name"] for row in board["ratings"]]
    assert names == ["bot:2", "bot:1", "bot:0"]
    for row in board["ratings"]:
        assert row["lower"] <= row["elo"] <= row["upper"] and row["games"] == 2 * 2 * 40
    assert board["matrix"]["names"] == names
    rates = board["matrix"]["rates"]
    assert rates[0][0] is None and rates[0][2] > 0.5 > rates[2][0]
    assert len(board["replays"]) == 3 * 2 * 2 * 2  # 2 kept per block


def test_every_kept_game_replays_in_the_history_view_to_its_stored_outcome(client):
    replays = client.get("/api/arena/leaderboard").json()["replays"]
    tournament = [g for g in replays if g["tournament"] == "TicTacToe round-robin"]
    assert tournament
    for game in tournament:
        replay = client.post("/api/replays", json={"id": game["id"]}).json()
        assert replay["mode"] == "replay" and replay["error"] is None, replay["error"]
        assert replay["length"] == game["length"] + 1  # the start and a state after every move
        assert "".join("1" if p in replay["result"]["winners"] else "0" for p in range(2)) == game["winners"]
        assert replay["valid_actions"] == [] and replay["info"]["game"] == "TicTacToe"
        first = client.get(f"/api/sessions/{replay['session_id']}/frames/0").json()
        assert first["caption"] == "Start of the game" and first["svg"].startswith("<svg")
    refused = client.post(f"/api/sessions/{replay['session_id']}/actions", json={"action": 0})
    assert refused.status_code == 400 and "replay" in refused.json()["error"]


def test_a_changed_stored_game_is_reported_not_shown_as_its_outcome(client, arena_db):
    game = client.get("/api/arena/leaderboard").json()["replays"][0]
    with sqlite3.connect(arena_db) as connection:
        (moves,) = connection.execute("SELECT moves FROM games WHERE rowid=?", (game["id"],)).fetchone()
        connection.execute("UPDATE games SET winners='11' WHERE rowid=?", (game["id"],))
    try:
        replay = client.post("/api/replays", json={"id": game["id"]}).json()
        assert "the stored game with 11" in replay["error"]
    finally:
        with sqlite3.connect(arena_db) as connection:
            connection.execute("UPDATE games SET winners=? WHERE rowid=?", (game["winners"], game["id"]))
    assert moves.startswith("[[")
    missing = client.post("/api/replays", json={"id": 10**9})
    assert missing.status_code == 404 and "no kept game" in missing.json()["error"]
    bad = client.post("/api/replays", json={"id": "drop table"})
    assert bad.status_code == 400 and "replay id must be" in bad.json()["error"]


def test_a_person_playing_under_a_name_is_stored_rated_and_replayable(client):
    end = play_named_game(client, "Ann")
    assert end["status"] == "ended"
    assert end["arena_note"].startswith("Stored as human:Ann in 'TicTacToe browser'")
    board = client.get("/api/arena/leaderboard?game=TicTacToe").json()
    assert "human:Ann" in [row["name"] for row in board["ratings"]]
    mine = [g for g in board["replays"] if "human:Ann" in g["seats"]]
    assert len(mine) == 1 and mine[0]["seats"] == ["human:Ann", "bot:1"]
    replay = client.post("/api/replays", json={"id": mine[0]["id"]}).json()
    assert replay["error"] is None and replay["length"] == end["length"]
    assert replay["result"]["winners"] == end["result"]["winners"]
    bad = client.post("/api/sessions", json={"name": "<script>"})
    assert bad.status_code == 400 and "player name '<script>'" in bad.json()["error"]


def test_without_a_database_names_are_refused_and_the_board_says_so(tmp_path):
    with ServerThread(create_app("TicTacToe")) as server, httpx.Client(base_url=server.url, timeout=60) as c:
        assert c.get("/api/info").json()["arena"] is False
        refused = c.post("/api/sessions", json={"name": "Ann"})
        assert refused.status_code == 404 and "--db FILE" in refused.json()["error"]
    empty = tmp_path / "none.sqlite"
    with ServerThread(create_app("TicTacToe", arena_db=empty)) as server, httpx.Client(base_url=server.url) as c:
        board = c.get("/api/arena/leaderboard").json()
        assert board["exists"] is False and board["ratings"] == []
    assert not empty.exists()  # reading never creates the file


@pytest.mark.browser
def test_the_leaderboard_page_and_a_replay_in_chromium(board_server, page):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.goto(board_server.url + "leaderboard")
    page.wait_for_function("document.body.dataset.loaded >= 1")
    assert page.locator("#ratings tbody tr").count() >= 3
    assert page.locator("#ratings tbody tr").first.get_attribute("data-entrant") == "bot:2"
    cells = page.locator("#heatmap td[data-rate]")
    assert cells.count() >= 6
    colour = cells.first.evaluate("el => getComputedStyle(el).backgroundColor")
    assert colour.startswith("rgb(") and colour != "rgba(0, 0, 0, 0)"
    page.locator(".interval .dot").first.wait_for()
    path = SCREENSHOTS / "leaderboard.png"
    page.screenshot(path=str(path), full_page=True)
    assert_not_blank(path)

    with page.expect_navigation():  # the link opens the game page; wait for it before reading its app
        page.locator("a.replay").last.click()
    page.wait_for_function("typeof app !== 'undefined' && app.session && app.session.mode === 'replay'")
    assert "replay of game" in page.inner_text("#game-name")
    assert page.locator("#controls").is_hidden()
    last = page.evaluate("app.session.length - 1")
    page.click("#live")
    page.wait_for_function(f"document.querySelector('#caption').dataset.frame === '{last}'")
    assert page.locator("#banner").is_visible() and page.locator("#actions button").count() == 0
    page.click("#prev")
    page.wait_for_function(f"document.querySelector('#caption').dataset.frame === '{last - 1}'")
    path = SCREENSHOTS / "replay.png"
    page.screenshot(path=str(path), full_page=True)
    assert_not_blank(path)


@pytest.mark.browser
def test_a_name_typed_on_the_page_puts_the_person_on_the_leaderboard(board_server, page):
    page.goto(board_server.url)
    page.wait_for_selector("#actions button")
    assert page.locator("#leaderboard-link").is_visible()
    page.fill("#player-name", "Bea")
    page.dispatch_event("#player-name", "change")
    first = page.evaluate("app.session.session_id")
    page.select_option("#seat", "0")
    page.click("#new-game")
    page.wait_for_function(f"app.session.session_id !== {first!r}")
    while page.locator("#banner").is_hidden():
        before = page.evaluate("document.body.dataset.updates")
        page.locator("#actions button").first.click()
        page.wait_for_function(f"document.body.dataset.updates !== {before!r}")
    assert "Stored as human:Bea" in page.inner_text("#returns")
    page.click("#leaderboard-link")
    page.wait_for_function("document.body.dataset.loaded >= 1")
    assert page.locator("#ratings tbody tr[data-entrant='human:Bea']").count() == 1
