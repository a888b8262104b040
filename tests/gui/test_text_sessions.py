"""Text games over the GUI's JSON API (real uvicorn on 127.0.0.1): ScenarioPlanning with a jury, an
array game in words against bots or an agent, and Negotiation, all through one generic session."""

from __future__ import annotations

import threading
import time
from typing import Any

import httpx
import pytest

from makeenv.games.negotiation.agents import Haggler
from makeenv.gui import ServerThread, create_app
from tests.gui.conftest import OPPONENT_TEXT, make_test_jury_class, opponent_agent


def wait_for(c: httpx.Client, sid: str, statuses: set[str], timeout: float = 15) -> dict[str, Any]:
    deadline = time.time() + timeout
    while time.time() < deadline:
        session = c.get(f"/api/sessions/{sid}").json()
        if session["status"] in statuses:
            return session
        time.sleep(0.02)
    raise AssertionError(f"session {sid} never reached {statuses}: {session}")


def block(session: dict[str, Any], title: str) -> dict[str, Any]:
    return next(b for b in session["panel"] if b.get("title", "").startswith(title))


# ---------------------------------------------------------------- ScenarioPlanning (a jury decides)


def test_a_scenario_planning_game_over_http(text_server):
    with httpx.Client(base_url=text_server.url, timeout=30) as c:
        info = c.get("/api/info").json()
        assert info["kind"] == "text" and "Scenario" in info["readme"] and info["players"] == 2
        assert info["answer_hint"]["button"] == "Submit strategy" and info["jury"] == "test jury (longer wins)"
        assert info["opponents"] == [{"value": "agent", "label": "Agent: fixed test opponent"}]
        session = c.post("/api/sessions", json={"seed": 3, "seat": 1}).json()
        sid = session["session_id"]
        session = wait_for(c, sid, {"your_turn"})
        assert session["seat_names"] == ["Opponent (fixed test opponent)", "You"]
        assert session["transcript"].startswith("You are Player 1 in the Scenario Planning game.\nScenario: ")
        assert session["panel"] == [] and OPPONENT_TEXT not in str(session)  # the opponent's stays hidden
        assert session["options"] == [] and session["svg"] is None
        for bad, message in [("   \n", "empty"), (42, "a string"), ("x" * 200_001, "at most")]:
            response = c.post(f"/api/sessions/{sid}/actions", json={"action": bad})
            assert response.status_code == 400 and message in response.json()["error"]
        mine = "Collect rain water, build a shelter, organise shifts and trade for seeds. " * 3
        assert c.post(f"/api/sessions/{sid}/actions", json={"action": mine}).status_code == 200
        done = wait_for(c, sid, {"done", "error"})
        assert done["status"] == "done", done
        assert done["result"]["outcome"] == "win" and done["rewards"] == {"0": -1, "1": 1}
        assert "4 votes to 0" in done["result"]["reason"]
        votes = block(done, "Votes")["cards"]
        assert [(c_["title"], c_["text"], c_["lead"]) for c_ in votes] == [
            ("Player 0", "0 votes", False),
            ("Player 1 (you)", "4 votes", True),
            ("Abstained", "1", False),
        ]
        strategies = {card["title"]: card["text"] for card in block(done, "Strategies")["cards"]}
        assert strategies == {"Opponent's strategy (Player 0)": OPPONENT_TEXT, "Your strategy (Player 1)": mine}
        ballots = block(done, "Ballots")
        assert len(ballots["rows"]) == 5 and ballots["rows"][2][3] == "abstained"
        assert "Player 1: 4 votes" in done["board"]
        record = c.get(f"/api/sessions/{sid}/history").json()
        assert record["game_info"]["strategies"]["Player 1"] == mine and record["seed"] == 3
        response = c.post(f"/api/sessions/{sid}/actions", json={"action": "again"})
        assert response.status_code == 400 and "game is over" in response.json()["error"]
        response = c.post("/api/sessions", json={"level": 1})
        assert response.status_code == 400 and "no bots (its opponent is the agent)" in response.json()["error"]


def test_text_sessions_hide_answers_and_say_when_it_is_not_your_turn():
    release = threading.Event()

    def slow_opponent(observation: str) -> str:
        release.wait(10)
        return "A slow but careful plan."

    app = create_app(
        "ScenarioPlanning-v0",
        text_agent=slow_opponent,
        env_kwargs={"jury_class": make_test_jury_class(), "jury_size": 3},
    )
    with ServerThread(app) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        # Seat 1: the opponent writes first; submitting before it is done is a 409.
        first = c.post("/api/sessions", json={"seat": 1}).json()
        first = wait_for(c, first["session_id"], {"working"})
        assert "is thinking" in first["message"]
        response = c.post(f"/api/sessions/{first['session_id']}/actions", json={"action": "my plan"})
        assert response.status_code == 409 and "Not your turn yet" in response.json()["error"]
        # Seat 0: the person writes first; while the opponent writes, nothing is revealed.
        second = wait_for(c, c.post("/api/sessions", json={"seat": 0}).json()["session_id"], {"your_turn"})
        c.post(f"/api/sessions/{second['session_id']}/actions", json={"action": "my plan"})
        during = c.get(f"/api/sessions/{second['session_id']}").json()
        assert during["status"] == "working" and during["panel"] == []
        assert "slow but careful" not in c.get(f"/api/sessions/{second['session_id']}/history").text
        release.set()
        assert wait_for(c, second["session_id"], {"done"})["result"]["outcome"] == "loss"  # shorter loses
        assert wait_for(c, first["session_id"], {"your_turn"})["seat"] == 1


def test_a_failed_judging_is_shown_and_can_be_asked_again():
    from tests.gui.juries import FlakyJury

    FlakyJury.calls = 0
    app = create_app(
        "ScenarioPlanning-v0", text_agent=opponent_agent, env_kwargs={"jury_class": FlakyJury, "jury_size": 3}
    )
    with ServerThread(app) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        sid = c.post("/api/sessions", json={"seat": 1}).json()["session_id"]
        wait_for(c, sid, {"your_turn"})
        response = c.post(f"/api/sessions/{sid}/rejudge")
        assert response.status_code == 400 and "Nothing to rejudge" in response.json()["error"]
        c.post(f"/api/sessions/{sid}/actions", json={"action": "a plan that is long enough to win " * 2})
        failed = wait_for(c, sid, {"stalled", "done", "error"})
        assert failed["status"] == "stalled", failed
        assert "below the quorum" in failed["message"] and "rejudge" in failed["message"]
        missed = block(failed, "A vote that missed the quorum")
        assert all(row[-1] == "error: HTTP 503 from the test server" for row in missed["rows"])
        strategies = {card["title"]: card["text"] for card in block(failed, "Strategies")["cards"]}
        assert strategies["Opponent's strategy (Player 0)"] == OPPONENT_TEXT  # nothing was lost
        assert c.post(f"/api/sessions/{sid}/rejudge").status_code == 200
        done = wait_for(c, sid, {"done", "error"})
        assert done["status"] == "done" and done["result"]["outcome"] == "win"


def test_an_opponent_that_crashes_is_reported():
    def broken(observation: str) -> str:
        raise ConnectionError("the model server went away")

    app = create_app(
        "ScenarioPlanning-v0", text_agent=broken, env_kwargs={"jury_class": make_test_jury_class(), "jury_size": 3}
    )
    with ServerThread(app) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        sid = c.post("/api/sessions", json={"seat": 1}).json()["session_id"]
        failed = wait_for(c, sid, {"error"})
        assert "ConnectionError: the model server went away" in failed["error"]


# ---------------------------------------------------------------- an array game in words


@pytest.fixture(scope="module")
def connect_four() -> Any:
    """ConnectFour-text: bots by default (level 1), and an agent that answers the first option."""

    def first_column(observation: str) -> str:
        return "Drop a disc in column 1 (of 7, from the left)"  # by description; invalid once column 1 is full

    app = create_app("ConnectFour-text", text_agent=first_column, agent_name="first column", level=2)
    with ServerThread(app) as server:
        yield server


def test_an_array_game_in_words_is_played_against_bots(connect_four):
    with httpx.Client(base_url=connect_four.url, timeout=30) as c:
        info = c.get("/api/info").json()
        assert info["players"] == 2 and info["levels"] == [0, 1, 2, 3] and info["default_level"] == 2
        assert [o["value"] for o in info["opponents"]] == ["agent", 0, 1, 2, 3] and info["jury"] is None
        assert info["readme"].startswith("# ConnectFour in words") and info["answer_hint"]["multiline"] is False
        session = c.post("/api/sessions", json={"seat": 0, "level": 0, "seed": 5}).json()
        sid = session["session_id"]
        assert session["status"] == "your_turn" and session["level"] == 0  # bots answer at once
        assert session["seat_names"] == ["You", "Level-0 bot (random)"]
        assert [o["answer"] for o in session["options"]] == [f"[{a}]" for a in range(7)]
        assert session["svg"].startswith("<svg") and 'data-action="3"' in session["svg"]
        assert "Valid actions:\n[0] Drop a disc in column 1" in session["transcript"]
        moves = 0
        while session["status"] == "your_turn":
            answer = session["options"][-1]["answer"] if moves % 2 else "column 4"
            session = c.post(f"/api/sessions/{sid}/actions", json={"action": answer}).json()
            moves += 1
        assert session["status"] == "done" and session["result"]["outcome"] in ("win", "loss", "draw")
        table = session["panel"][0]
        assert table["columns"] == ["Seat", "Played by", "Result", "Return"]
        assert table["rows"][0][0] == "Player 0 (you)" and session["board"].startswith("ConnectFour:")
        again = c.post("/api/sessions", json={"seat": 0, "level": 0, "seed": 5}).json()
        replay = [again]
        for _ in range(moves):  # the same seed and answers replay the same game
            last = replay[-1]
            answer = last["options"][-1]["answer"] if (len(replay) - 1) % 2 else "column 4"
            replay.append(c.post(f"/api/sessions/{again['session_id']}/actions", json={"action": answer}).json())
        assert replay[-1]["transcript"] == session["transcript"]


def test_an_invalid_answer_is_explained_then_forfeits(connect_four):
    with httpx.Client(base_url=connect_four.url, timeout=30) as c:
        session = c.post("/api/sessions", json={"seat": 1, "level": 1}).json()
        sid = session["session_id"]
        retry = c.post(f"/api/sessions/{sid}/actions", json={"action": "the best column"}).json()
        assert (
            retry["status"] == "your_turn"
            and "Invalid move: 'the best column' names no valid action" in retry["message"]
        )
        lost = c.post(f"/api/sessions/{sid}/actions", json={"action": "[12]"}).json()
        assert lost["status"] == "done" and lost["result"]["outcome"] == "loss" and lost["rewards"] == {"0": -1}
        assert lost["panel"][0]["title"] == "Forfeit"
        response = c.post("/api/sessions", json={"level": 5})
        assert response.status_code == 400 and "Unknown level 5" in response.json()["error"]
        response = c.post("/api/sessions", json={"seat": 2})
        assert response.status_code == 400 and "seat must be an integer from 0 to 1" in response.json()["error"]


def test_an_array_game_in_words_against_the_agent(connect_four):
    with httpx.Client(base_url=connect_four.url, timeout=30) as c:
        sid = c.post("/api/sessions", json={"seat": 1, "level": "agent"}).json()["session_id"]
        session = wait_for(c, sid, {"your_turn"})
        assert session["level"] is None and session["seat_names"] == ["Opponent (first column)", "You"]
        assert "Player 0 played: Drop a disc in column 1" in session["transcript"]
        while session["status"] == "your_turn":  # both fill column 1; then the agent's answer is invalid
            c.post(f"/api/sessions/{sid}/actions", json={"action": "[0]"})
            session = wait_for(c, sid, {"your_turn", "done", "error"})
        assert session["status"] == "done", session
        assert session["result"]["outcome"] == "win" and session["rewards"] == {"0": -1, "1": 1}
        assert "Player 0 forfeits: a second invalid answer (" in session["transcript"]


# ---------------------------------------------------------------- Negotiation: its own page, no jury


def test_negotiation_is_played_through_the_same_page():
    app = create_app("Negotiation-v0", text_agent=Haggler(), agent_name="haggler")
    with ServerThread(app) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        info = c.get("/api/info").json()
        assert info["jury"] is None and info["levels"] == [] and "# Negotiation" in info["readme"]
        assert "[Propose]" in info["answer_hint"]["placeholder"]
        session = wait_for(c, c.post("/api/sessions", json={"seat": 1, "seed": 0}).json()["session_id"], {"your_turn"})
        assert "[Player 0] How about this? [Propose]" in session["transcript"]
        assert session["svg"].startswith("<svg") and "proposal stands" in session["svg"]
        c.post(f"/api/sessions/{session['session_id']}/actions", json={"action": "Deal. [Accept]"})
        done = wait_for(c, session["session_id"], {"done", "error"})
        assert done["status"] == "done" and done["panel"][0]["columns"] == ["Player", "Values", "Gets", "Points"]
        assert done["result"]["reason"].startswith("Deal: Player 0 takes")


@pytest.mark.slow
def test_a_game_of_your_own_is_played_in_words_in_the_browser_app(tmp_path):
    """`makeenv play ./nim-text`: a scaffolded folder game in words is served as a registered one is."""
    from makeenv.array.scaffold import scaffold

    folder = scaffold("Nim", tmp_path)
    with ServerThread(create_app(f"{folder}-text")) as server, httpx.Client(base_url=server.url, timeout=60) as c:
        info = c.get("/api/info").json()
        assert info["kind"] == "text" and info["players"] == 2
        session = c.post("/api/sessions", json={"seat": 0, "level": 1, "seed": 3}).json()
        assert [o["answer"] for o in session["options"]] == ["[0]", "[1]", "[2]"]
        while session["status"] == "your_turn":
            answer = session["options"][0]["answer"]
            session = c.post(f"/api/sessions/{session['session_id']}/actions", json={"action": answer}).json()
        assert session["status"] == "done" and session["result"]["outcome"] in ("win", "loss", "draw")
