"""The GUI server's JSON API, over real HTTP to uvicorn on 127.0.0.1 (no browser)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from makeenv.gui import ServerThread, create_app


@pytest.fixture()
def client(rps_server: Any) -> Any:
    with httpx.Client(base_url=rps_server.url, timeout=30) as c:
        yield c


def play_to_end(client: httpx.Client, session: dict[str, Any], choice: int = 1) -> dict[str, Any]:
    """Play ``choice`` in every choice phase and Confirm otherwise, until the game is over."""
    sid = session["session_id"]
    for _ in range(1000):
        if session["status"] != "your_turn":
            return session
        labels = {a["action"]: a["label"] for a in session["valid_actions"]}
        action = choice if choice in labels else next(iter(labels))
        response = client.post(f"/api/sessions/{sid}/actions", json={"action": action})
        assert response.status_code == 200, response.text
        session = response.json()
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- array games


def test_info_describes_the_game_and_its_guide(client, rps_env):
    info = client.get("/api/info").json()
    assert info["kind"] == "array" and info["game"] == "RockPaperScissors"
    assert [a["label"] for a in info["actions"]] == ["Scissors", "Rock", "Paper", "Confirm"]
    assert info["levels"] == [0, 1, 2] and info["default_level"] == 1
    assert info["modes"] == ["play", "watch"]
    assert info["private_actions"] == [0, 1, 2] and info["simultaneous"] is True
    assert info["readme"] == rps_env.readme  # the game's README.md: rules and layout tables


def test_a_whole_game_over_http_and_its_history_download(client):
    session = client.post("/api/sessions", json={"mode": "play", "level": 1, "seat": 0}).json()
    assert session["status"] == "your_turn" and session["seat"] == 0
    assert [a["label"] for a in session["valid_actions"]] == ["Scissors", "Rock", "Paper"]
    assert session["frame"]["svg"].startswith("<svg") and session["frame"]["image"] is None
    assert 'data-action="2"' in session["frame"]["svg"]  # the picture's own Paper button
    end = play_to_end(client, session, choice=2)
    assert end["status"] == "ended" and end["valid_actions"] == []
    result = end["result"]
    assert result["outcome"] in {"win", "loss", "draw"} and result["results"][0] == result["outcome"]
    assert result["return"] == {"win": 1, "loss": -1, "draw": 0}[result["outcome"]] == result["returns"][0]
    assert result["winners"] == {"win": [0], "loss": [1], "draw": []}[result["outcome"]]
    assert result["truncated"] is False and result["shared"] is False

    response = client.get(f"/api/sessions/{end['session_id']}/history")
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith('attachment; filename="RockPaperScissors-')
    record = json.loads(response.content)
    assert len(record["states"]) == end["length"] >= 5
    assert record["result"] == end["result"]
    mine = [s["action"] for s in record["states"] if s["actor"] == 0]
    assert mine and set(mine) <= {2, 3}  # every move of the human seat is in the record
    assert all(
        s["caption"] == f"You played {'Paper' if s['action'] == 2 else 'Confirm'}"
        for s in record["states"]
        if s["actor"] == 0
    )
    assert all(s["env"] is not None for s in record["states"])  # everything revealed at the end
    assert all(len(s["state"]) == 11 for s in record["states"])


def test_the_opponents_private_move_is_hidden_until_the_end(client):
    # Seat 1: the bot (player 0) chooses first; the person must not learn its choice.
    session = client.post("/api/sessions", json={"level": 0, "seat": 1}).json()
    sid = session["session_id"]
    frame = session["frame"]
    assert frame["actor"] == 0 and frame["action"] is None and frame["action_label"] is None
    assert frame["caption"] == "Player 0 (bot, level 0) chose (hidden)" and frame["hidden"] and frame["env"] is None
    assert frame["state"][3:6] == [0, 0, 0]  # the state shows no opponent choice yet
    history = client.get(f"/api/sessions/{sid}/history").json()
    assert all(s["env"] is None for s in history["states"]) and history["states"][1]["action"] is None
    # A public action (Confirm) is named at once; the person's own choice always.
    after = client.post(f"/api/sessions/{sid}/actions", json={"action": 1}).json()
    captions = [client.get(f"/api/sessions/{sid}/frames/{i}").json()["caption"] for i in range(after["length"])]
    bot = "Player 0 (bot, level 0)"
    assert captions[:4] == ["Start of the game", f"{bot} chose (hidden)", "You played Rock", f"{bot} played Confirm"]
    # Once the game is over, everything is shown.
    end = play_to_end(client, after)
    record = client.get(f"/api/sessions/{sid}/history").json()
    bot_choice = record["states"][1]
    assert bot_choice["action"] in (0, 1, 2) and not bot_choice["hidden"]
    assert bot_choice["caption"] == f"Player 0 (bot, level 0) played {bot_choice['action_label']}"
    assert all(s["env"] is not None for s in record["states"]) and end["frame"]["over"]


def test_the_person_may_choose_to_move_first(client):
    first = client.post("/api/sessions", json={"level": 0, "seat": "first"}).json()
    assert first["seat"] == 0 and first["length"] == 1 and first["status"] == "your_turn"
    assert first["seats"] == [
        {"player": 0, "name": "You", "bot": None},
        {"player": 1, "name": "Player 1 (bot, level 0)", "bot": "random"},
    ]
    seats = {client.post("/api/sessions", json={"level": 0}).json()["seat"] for _ in range(30)}
    assert seats == {0, 1}  # no seat asked for: a random one


@pytest.mark.parametrize(
    "body, message",
    [
        ({"action": 3}, "You chose action 3 at step 1, which is not valid in this state."),
        ({"action": 9}, "You chose action 9 at step 1, which is out of range (actions are 0..3)."),
        ({"action": -1}, "which is out of range (actions are 0..3)."),
        ({"action": "Rock"}, "You chose action 'Rock' of type str at step 1, which is not an integer."),
        ({"action": 1.5}, "You chose action 1.5 at step 1, which is not an integer."),
        ({"action": True}, "True of type bool at step 1, which is not an integer."),
        ({"action": None}, "None of type NoneType at step 1, which is not an integer."),
        ({}, 'send {"action": ...}'),
        ([1], "expected a JSON object"),
    ],
)
def test_invalid_actions_get_400_with_the_referees_message(client, body, message):
    session = client.post("/api/sessions", json={"seat": 0}).json()
    response = client.post(f"/api/sessions/{session['session_id']}/actions", json=body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert message in error
    if "chose" in message:  # the referee's one message, naming the valid actions
        assert error.startswith("RockPaperScissors: You chose action ")
        assert error.endswith("Valid actions here: 0 (Scissors), 1 (Rock), 2 (Paper).")
    after = client.get(f"/api/sessions/{session['session_id']}").json()
    assert after["length"] == session["length"] and after["status"] == "your_turn"  # nothing changed


def test_a_seeded_game_replays_exactly(client):
    """The bots' random draws come from the session's own seeded stream, whatever else is played."""

    def game(seed: int) -> list[Any]:
        session = client.post("/api/sessions", json={"level": 0, "seat": 1, "seed": seed}).json()
        client.post("/api/sessions", json={"level": 0, "seat": 0})  # another game in between
        end = play_to_end(client, session, choice=1)
        record = client.get(f"/api/sessions/{end['session_id']}/history").json()
        return [(s["actor"], s["action"]) for s in record["states"]]

    games = {seed: [game(seed) for _ in range(2)] for seed in (3, 4, 5, 6)}
    assert all(first == second for first, second in games.values())
    assert len({tuple(first) for first, _ in games.values()}) > 1  # the seed matters


def test_malformed_requests_get_400(client):
    response = client.post("/api/sessions", content=b"{not json", headers={"Content-Type": "application/json"})
    assert response.status_code == 400 and "error" in response.json()
    assert client.post("/api/sessions", json={"level": 7}).status_code == 400
    assert "levels [0, 1, 2]" in client.post("/api/sessions", json={"level": 7}).json()["error"]
    assert "mode" in client.post("/api/sessions", json={"mode": "fly"}).json()["error"]
    for seat in (2, -1, "last", 0.5, True):
        response = client.post("/api/sessions", json={"seat": seat})
        assert response.status_code == 400 and "seat must be an integer from 0 to 1" in response.json()["error"]
    assert "seed must be" in client.post("/api/sessions", json={"seed": -3}).json()["error"]
    assert "unknown field" in client.post("/api/sessions", json={"path": "/etc/passwd"}).json()["error"]


def test_an_array_session_checks_its_seat_itself(rps_env):
    """Built directly (not through the API's parse_seat), a session still refuses a seat it cannot take."""
    from makeenv.gui.array_session import ArrayGame, ArraySession
    from makeenv.gui.common import GuiError

    game = ArrayGame(rps_env)
    with pytest.raises(GuiError, match='seat must be an integer from 0 to 1, "first" or omitted') as caught:
        ArraySession(game, "play", 0, "last")
    assert caught.value.status == 400
    assert ArraySession(game, "play", 0, "first", seed=3).seat == 0


def test_actions_after_the_end_and_in_a_watched_game_get_400(client):
    end = play_to_end(client, client.post("/api/sessions", json={"seat": 0}).json())
    response = client.post(f"/api/sessions/{end['session_id']}/actions", json={"action": 3})
    assert response.status_code == 400 and "game is over" in response.json()["error"]
    watched = client.post("/api/sessions", json={"mode": "watch"}).json()
    response = client.post(f"/api/sessions/{watched['session_id']}/actions", json={"action": 1})
    assert response.status_code == 400 and "watched game" in response.json()["error"]


def test_unknown_sessions_and_states_get_404(client):
    for method, path in [
        ("GET", "/api/sessions/nope"),
        ("POST", "/api/sessions/nope/actions"),
        ("GET", "/api/sessions/nope/history"),
        ("GET", "/api/sessions/nope/frames/0"),
        ("DELETE", "/api/sessions/nope"),
    ]:
        response = client.request(method, path, json={"action": 1} if method == "POST" else None)
        assert response.status_code == 404, (method, path)
        assert "Unknown session" in response.json()["error"]
    sid = client.post("/api/sessions", json={}).json()["session_id"]
    response = client.get(f"/api/sessions/{sid}/frames/99")
    assert response.status_code == 404 and "states 0.." in response.json()["error"]
    assert client.delete(f"/api/sessions/{sid}").status_code == 200
    assert client.get(f"/api/sessions/{sid}").status_code == 404


def test_watch_mode_records_a_whole_game_of_the_agent(client):
    watched = client.post("/api/sessions", json={"mode": "watch", "level": 0}).json()
    assert watched["status"] == "ended" and watched["mode"] == "watch"
    assert watched["seat_names"][watched["seat"]] == "Agent (level-2 bot)"
    n = watched["length"]
    assert n >= 5 and (n - 1) % 4 == 0  # 4 moves per round: two choices, two confirmations
    frames = [client.get(f"/api/sessions/{watched['session_id']}/frames/{i}").json() for i in range(n)]
    assert frames[0]["caption"] == "Start of the game" and frames[0]["actor"] is None
    assert all(f["action_label"] and not f["hidden"] for f in frames[1:])  # a spectator sees every move
    assert [f["over"] for f in frames] == [False] * (n - 1) + [True]
    assert all(f["svg"].startswith("<svg") for f in frames)
    result = watched["result"]
    assert result["text"] in {
        "The agent won.",
        "Player 0 (bot, level 0) won. The agent lost.",
        "Player 1 (bot, level 0) won. The agent lost.",
        "The game ended with no winner.",
    }


def test_no_endpoint_serves_a_file_named_by_the_request(rps_server, client):
    for path in [
        "/static/../server.py",
        "/..%2F..%2Fpyproject.toml",
        "/style.css/../server.py",
        "/index.html",
        "/api/sessions/..%2F..%2Fetc%2Fpasswd/history",
        "/app.js?file=server.py",
    ]:
        response = client.get(path)
        assert "def create_app" not in response.text and "[project]" not in response.text, path
    assert client.get("/").text.startswith("<!doctype html>")
    assert "start();" in client.get("/app.js").text
    # The only path parameters anywhere are a session id and a state index.
    from starlette.routing import Route

    app = create_app("RockPaperScissors")
    params = set()
    for route in app.routes:
        if isinstance(route, Route):
            params |= set(route.param_convertors)
    assert params == {"session_id", "index"}


def test_the_oldest_sessions_are_forgotten_beyond_the_limit():
    app = create_app("RockPaperScissors", max_sessions=3)
    with ServerThread(app) as server, httpx.Client(base_url=server.url) as c:
        ids = [c.post("/api/sessions", json={}).json()["session_id"] for _ in range(5)]
        assert [c.get(f"/api/sessions/{sid}").status_code for sid in ids] == [404, 404, 200, 200, 200]
        assert len(app.state.sessions) == 3


def test_the_random_agent_spec_can_be_watched():
    app = create_app("RockPaperScissors", agent="random")  # what load_agent("random") returns
    with ServerThread(app) as server, httpx.Client(base_url=server.url) as c:
        assert c.get("/api/info").json()["agent"] == "random"
        watched = c.post("/api/sessions", json={"mode": "watch"}).json()
        assert watched["status"] == "ended" and watched["seat_names"][watched["seat"]] == "Agent (random)"


def test_a_game_option_reaches_the_game():
    app = create_app("LiarsDice", env_kwargs={"dice": 2})
    with ServerThread(app) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        info = c.get("/api/info").json()
        assert info["options"] == {"dice": 2} and info["players"] == 2
        session = play_to_end(c, c.post("/api/sessions", json={"seat": 1}).json(), choice=0)
        assert session["status"] == "ended" and sorted(session["result"]["results"]) == ["loss", "win"]


def test_watching_needs_an_agent():
    app = create_app("RockPaperScissors")
    with ServerThread(app) as server, httpx.Client(base_url=server.url) as c:
        assert c.get("/api/info").json()["modes"] == ["play"]
        response = c.post("/api/sessions", json={"mode": "watch"})
        assert response.status_code == 400 and "--agent" in response.json()["error"]


def broken_rock_paper_scissors() -> Any:
    """RockPaperScissors whose level-1 bot plays Confirm while choosing and whose level-2 bot crashes."""
    import types

    import makeenv.games.rock_paper_scissors as rps
    from makeenv.array.agents import Bot
    from makeenv.array.contract import load_array_env

    def cheater(state: Any, data: Any) -> Any:
        return 3, data

    def crasher(state: Any, data: Any) -> Any:
        raise ZeroDivisionError("the bot divided by zero")

    game = types.ModuleType("broken_rock_paper_scissors")
    game.__dict__.update({k: v for k, v in vars(rps).items() if not k.startswith("__")})
    game.LEVELS = {1: Bot(cheater, name="cheater"), 2: Bot(crasher, name="crasher")}
    return load_array_env(game, name="RockPaperScissors")


def test_a_broken_bot_stops_its_game_with_a_clear_message():
    app = create_app(broken_rock_paper_scissors())
    with ServerThread(app) as server, httpx.Client(base_url=server.url) as c:
        session = c.post("/api/sessions", json={"seat": 0, "level": 1}).json()
        end = c.post(f"/api/sessions/{session['session_id']}/actions", json={"action": 1}).json()
        assert end["status"] == "error" and end["length"] == 2  # the invalid move was not played
        assert end["error"] == (
            "RockPaperScissors: Player 1 (bot, level 1) chose action 3 at step 2, which is "
            "not valid in this state. Valid actions here: 0 (Scissors), 1 (Rock), 2 (Paper)."
        )
        again = c.post(f"/api/sessions/{session['session_id']}/actions", json={"action": 1})
        assert again.status_code == 400 and "stopped with an error" in again.json()["error"]
        crashed = c.post("/api/sessions", json={"seat": 1, "level": 2}).json()
        assert crashed["status"] == "error" and crashed["length"] == 1
        assert crashed["error"] == "Player 0 (bot, level 2) raised ZeroDivisionError: the bot divided by zero"


@pytest.mark.slow
def test_any_array_game_is_served_even_without_a_drawing(tmp_path):
    """A freshly scaffolded game, its drawing and action names taken away, plays in the GUI; a game
    ended by its TURN_LIMIT says so."""
    from makeenv.array.scaffold import scaffold

    folder = scaffold("GuiProbeGame", tmp_path)
    with open(folder / "__init__.py", "a", encoding="utf-8") as module:
        module.write(
            "\nrender = describe_action = None  # added by the GUI test: nothing drawn, nothing named\n"
            "TURN_LIMIT = 3  # the game stops with no winner\n"
        )
    app = create_app(str(folder))
    with ServerThread(app) as server, httpx.Client(base_url=server.url, timeout=30) as c:
        info = c.get("/api/info").json()
        assert info["kind"] == "array" and info["readme"]
        assert [a["label"] for a in info["actions"]] == ["action 0", "action 1", "action 2"]
        session = c.post("/api/sessions", json={"seat": "first"}).json()
        frame = session["frame"]
        assert frame["svg"] is None and frame["image"] is None and frame["image_error"] is None
        assert len(frame["state"]) == info["state_size"]
        for _ in range(500):
            if session["status"] != "your_turn":
                break
            action = session["valid_actions"][0]["action"]
            session = c.post(f"/api/sessions/{session['session_id']}/actions", json={"action": action}).json()
        assert session["status"] == "ended", session
        result = session["result"]
        assert result["truncated"] and result["outcome"] == "draw" and result["winners"] == []
        assert result["text"] == "No winner: the game reached its turn limit of 3 moves."
        assert session["length"] == 4 and result["returns"] == [0, 0]
