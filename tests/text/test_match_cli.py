"""``makeenv match`` end to end: ScenarioPlanning against the scripted server, array games in words, Negotiation."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from makeenv.cli import app
from tests.support.openai_server import Reply

runner = CliRunner()


def test_help_documents_every_spec():
    result = runner.invoke(app, ["match", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    for word in (
        "human",
        "local:PATH.gguf",
        "openrouter:MODEL",
        "openai:MODEL@BASE_URL#KEY_ENV",
        "fixed:TEXT",
        "MODULE:FUNCTION",
        "MODULE:CLASS",
        "OPENROUTER_API_KEY",
        "--jury-size",
        "--seed",
        "--out",
        "./nim-text for the folder ./nim",
        "first sentence of its policy's",
    ):
        assert word in result.output, word


def test_match_prints_everything_and_writes_the_record(server, tmp_path):
    def handler(request):
        if request.model == "player":
            return "Plan from the model: find high ground."
        return "Player 0" if request.model == "j1" else "Player 1\nBetter water plan."

    server.handler = handler
    out = tmp_path / "records" / "game.json"
    result = runner.invoke(
        app,
        [
            "match",
            "ScenarioPlanning-v0",
            "--player0",
            "fixed:Gather rain in tarps.",
            "--player1",
            f"openai:player@{server.base_url}",
            "--jury",
            f"openai:j1,j2@{server.base_url}",
            "--jury-size",
            "5",
            "--seed",
            "4",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    text = result.output
    record = json.loads(out.read_text(encoding="utf-8"))
    game = record["game_info"]
    assert game["scenario"] in text and "Scenario: " in text
    assert "Gather rain in tarps." in text and "Plan from the model: find high ground." in text
    assert text.count("Juror: ") == 5 and "Model: j1 |" in text and "Model: j2 |" in text
    assert (
        "[GAME] Vote results:\nPlayer 0: 3 votes\nPlayer 1: 2 votes\n[GAME] Player 0 wins by convincing the judges."
        in text
    )
    assert record["status"] == "finished" and record["seed"] == 4
    assert record["rewards"] == {"0": 1, "1": -1}
    assert record["players"] == {
        "Player 0": "fixed:Gather rain in tarps.",
        "Player 1": f"openai:player@{server.base_url}",
    }
    assert game["strategies"]["Player 1"] == "Plan from the model: find high ground."
    assert len(game["ballots"]) == 5 and game["votes"] == {"Player 0": 3, "Player 1": 2}
    assert game["jury"]["models"] == ["j1", "j2"]


def test_match_same_seed_same_scenario(server, tmp_path):
    records = []
    for name in ("a.json", "b.json"):
        result = runner.invoke(
            app,
            [
                "match",
                "ScenarioPlanning-v0",
                "--player0",
                "fixed:x",
                "--player1",
                "fixed:y",
                "--jury",
                f"openai:j@{server.base_url}",
                "--jury-size",
                "1",
                "--seed",
                "9",
                "--out",
                str(tmp_path / name),
            ],
        )
        assert result.exit_code == 0, result.output
        records.append(json.loads((tmp_path / name).read_text(encoding="utf-8")))
    assert records[0]["game_info"]["scenario"] == records[1]["game_info"]["scenario"]


def test_match_without_key_is_a_clear_error():
    result = runner.invoke(app, ["match", "ScenarioPlanning-v0", "--player0", "fixed:x", "--player1", "fixed:y"])
    assert result.exit_code == 2
    assert "OPENROUTER_API_KEY" in result.output and "--jury local" in result.output
    assert "Traceback" not in result.output


def test_match_unavailable_jury_rejudges_then_records_the_failure(server, tmp_path):
    server.default = Reply.error(400)  # not retried, so the test is quick
    out = tmp_path / "r.json"
    result = runner.invoke(
        app,
        [
            "match",
            "ScenarioPlanning-v0",
            "--player0",
            "fixed:a",
            "--player1",
            "fixed:b",
            "--jury",
            f"openai:j@{server.base_url}",
            "--jury-size",
            "3",
            "--timeout",
            "1",
            "--rejudge",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 3
    assert "Voting again (1 of 1)" in result.output and "quorum" in result.output
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["status"] == "jury_unavailable" and record["rewards"] is None
    assert record["game_info"]["strategies"] == {"Player 0": "a", "Player 1": "b"}
    assert len(record["game_info"]["failed_judgements"]) == 2


def test_match_rejudge_recovers(server):
    server.queue(*[Reply.error(400)] * 3)  # the first vote fails (400 is not retried)
    server.default = "Player 1"
    result = runner.invoke(
        app,
        [
            "match",
            "ScenarioPlanning-v0",
            "--player0",
            "fixed:a",
            "--player1",
            "fixed:b",
            "--jury",
            f"openai:j@{server.base_url}",
            "--jury-size",
            "3",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Voting again" in result.output and "[GAME] Player 1 wins by convincing the judges." in result.output


def test_match_forfeit_and_unicode_record(server, tmp_path):
    out = tmp_path / "f.json"
    result = runner.invoke(
        app,
        [
            "match",
            "ScenarioPlanning-v0",
            "--player0",
            "fixed:Plan 🌊 \u00e9t\u00e9",
            "--player1",
            "fixed:   ",
            "--jury",
            f"openai:j@{server.base_url}",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Player 1 forfeits" in result.output
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["game_info"]["strategies"]["Player 0"] == "Plan 🌊 \u00e9t\u00e9"
    assert record["game_info"]["outcome"] == "forfeit" and record["rewards"] == {"0": 1, "1": -1}
    assert server.chat_requests == []


def test_match_rejects_non_text_envs_and_bad_specs(server):
    result = runner.invoke(app, ["match", "NoSuchGame", "--player0", "fixed:a", "--player1", "fixed:b"])
    assert result.exit_code == 2 and "ScenarioPlanning-v0" in result.output
    result = runner.invoke(
        app,
        [
            "match",
            "ScenarioPlanning-v0",
            "--player0",
            "robot",
            "--player1",
            "fixed:b",
            "--jury",
            f"openai:j@{server.base_url}",
        ],
    )
    assert result.exit_code == 2 and "unknown player SPEC 'robot'" in result.output


def test_match_never_prints_the_key(server, monkeypatch, tmp_path):
    key = "sk-super-secret-999"
    monkeypatch.setenv("JURY_KEY", key)
    out = tmp_path / "k.json"
    result = runner.invoke(
        app,
        [
            "match",
            "ScenarioPlanning-v0",
            "--player0",
            "fixed:a",
            "--player1",
            "fixed:b",
            "--jury",
            f"openai:j@{server.base_url}#JURY_KEY",
            "--jury-size",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    assert server.chat_requests[0].headers["authorization"] == f"Bearer {key}"
    assert key not in result.output and key not in out.read_text(encoding="utf-8")


def test_match_as_a_real_process_survives_unprintable_text(server, tmp_path):
    """The console entry point, a real stdout, and a strategy with a lone surrogate and emoji."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    bot = tmp_path / "odd_bot.py"
    bot.write_text(
        "def play(observation):\n    return 'Plan \\ud800 with \\U0001F30B and \\x00 nul'\n", encoding="utf-8"
    )
    out = tmp_path / "odd.json"
    root = str(Path(__file__).resolve().parents[2])
    env = {**os.environ, "PYTHONPATH": root, "PYTHONIOENCODING": "ascii"}
    env.pop("OPENROUTER_API_KEY", None)
    completed = subprocess.run(
        [
            sys.executable,
            "-c",
            "from makeenv.cli import main; main()",
            "match",
            "ScenarioPlanning-v0",
            "--player0",
            f"{bot}:play",
            "--player1",
            "fixed:plain",
            "--jury",
            f"openai:j@{server.base_url}",
            "--jury-size",
            "3",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert "[GAME] Player 0 wins by convincing the judges." in completed.stdout
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["game_info"]["strategies"]["Player 0"] == "Plan \ud800 with \U0001f30b and \x00 nul"


# ---------------------------------------------------------------- any text env: array games in words, Negotiation

FIRST_LISTED = '''
import re

def play(observation):
    """Answer the first action of the latest listing, by its number in brackets."""
    latest = observation[observation.rindex("Valid actions:"):]
    return re.search(r"^\\[(\\d+)\\]", latest, re.MULTILINE).group(0)
'''


def test_match_an_array_game_in_words_against_a_bot(tmp_path):
    agent = tmp_path / "first_listed.py"
    agent.write_text(FIRST_LISTED, encoding="utf-8")
    out = tmp_path / "ttt.json"
    result = runner.invoke(
        app,
        [
            "match",
            "TicTacToe-text",
            "--player0",
            f"{agent}:play",
            "--player1",
            "bot:2",
            "--seed",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    text = result.output
    assert "Player 1 (level-2 bot (perfect)) played: Mark row" in text
    assert "Seat: Player 1 | Played by: level-2 bot (perfect) | Result: win" in text  # the perfect bot wins
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["status"] == "finished" and record["seats"] == [0] and record["rewards"] == {"0": -1}
    assert record["players"] == {"Player 0": f"{agent}:play", "Player 1": "bot:2"}
    assert "jury_spec" not in record and record["game_info"]["outcome"]["winners"] == [1]


def test_match_more_seats_and_game_options(tmp_path):
    agent = tmp_path / "first_listed.py"
    agent.write_text(FIRST_LISTED, encoding="utf-8")
    out = tmp_path / "sushi.json"
    result = runner.invoke(
        app,
        [
            "match",
            "SushiGo-text",
            "-o",
            "players=3",
            "--player0",
            "bot:1",
            "--player1",
            f"{agent}:play",
            "--player2",
            "bot:0",
            "--seed",
            "2",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["seats"] == [1] and record["game_info"]["parameters"] == {"players": 3}
    assert set(record["players"]) == {"Player 0", "Player 1", "Player 2"}


def test_a_person_at_the_terminal_answers_one_line_per_move():
    result = runner.invoke(
        app,
        ["match", "KuhnPoker-text", "--player0", "human", "--player1", "bot:1", "--seed", "3"],
        input="pass\npass\npass\n",
    )
    assert result.exit_code == 0, result.output
    assert result.output.count("You are Player 0 in KuhnPoker") == 1  # each turn shows only what is new
    assert "You played: Pass" in result.output and "Result: " in result.output


def test_match_a_forfeit_is_recorded():
    result = runner.invoke(
        app, ["match", "TicTacToe-text", "--player0", "fixed:[4]", "--player1", "bot:1", "--seed", "0"]
    )
    assert result.exit_code == 0, result.output
    assert "Invalid move: action 4 (Mark row 2, column 2 (centre)) is not valid now" in result.output
    assert "Player 0 forfeits" in result.output and "Rewards: {'0': -1}" in result.output


def test_match_negotiation_between_two_rule_based_players(tmp_path):
    out = tmp_path / "deal.json"
    haggler = "makeenv.games.negotiation.agents:Haggler"
    result = runner.invoke(
        app, ["match", "Negotiation-v0", "--player0", haggler, "--player1", haggler, "--seed", "4", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["game_info"]["outcome"] == "deal" and "--- The talks ---" in result.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["TicTacToe-text", "--player0", "bot:1", "--player1", "bot:2"], "every seat has a bot"),
        (["TicTacToe-text", "--player0", "bot:x"], "expected bot:LEVEL with a level number"),
        (["TicTacToe-text", "--player0", "bot:9", "--player1", "fixed:1"], "TicTacToe has no level 9"),
        (["TicTacToe-text", "--player5", "fixed:1"], "TicTacToe-text has seats 0 to 1; --player5 names no seat"),
        (["TicTacToe-text", "--jury", "local"], "--jury: TicTacToe-text is not judged by a jury"),
        (
            ["ScenarioPlanning-v0", "--player1", "bot:1", "--jury", "openai:j@http://127.0.0.1:9/v1"],
            "bot:LEVEL seats are for games with built-in bots",
        ),
        (
            ["TicTacToe", "--player0", "fixed:1"],
            "an array game (use `makeenv run`, or play it in words as TicTacToe-text)",
        ),
        (["Negotiation-v0", "--player0", "fixed:x", "--player1", "fixed:y", "-o", "max_turns=1"], "max_turns must be"),
        (["TicTacToe-text", "--bogus"], "unexpected argument '--bogus'"),
    ],
)
def test_match_configuration_errors_are_clear(args, message):
    result = runner.invoke(app, ["match", *args], env={"COLUMNS": "250"})
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


# ---------------------------------------------------------------- transcripts, failing agents, your own games


def test_the_transcript_shows_the_last_move_and_the_final_board_before_the_result(tmp_path):
    agent = tmp_path / "first_listed.py"
    agent.write_text(FIRST_LISTED, encoding="utf-8")
    out = tmp_path / "ttt.json"
    result = runner.invoke(
        app,
        [
            "match",
            "TicTacToe-text",
            "--player0",
            f"{agent}:play",
            "--player1",
            "bot:2",
            "--seed",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    text = result.output
    moves = json.loads(out.read_text(encoding="utf-8"))["game_info"]["moves"]
    last = moves[-1]
    by = "" if last["by"].startswith("text player") else f" ({last['by']})"
    last_move = text.index(f"Player {last['seat']}{by} played: {last['label']}.")
    assert last_move > text.rindex("is playing...")
    board = text.index("[GAME] Final view of Player 0:")
    assert last_move < board < text.index("[GAME] Game over. Player 1 wins.") < text.index("Result: Player 1 wins.")
    assert text[board:].count("row 1:") == 2  # both seats' final views of the full board
    for move in moves:  # every move once, the last one included
        assert text.count(f"played: {move['label']}.") == 1, move


def test_a_person_at_the_terminal_sees_each_move_and_invalid_answer_once(tmp_path):
    out = tmp_path / "human.json"
    result = runner.invoke(
        app,
        ["match", "TicTacToe-text", "--player0", "human", "--player1", "bot:1", "--seed", "1", "--out", str(out)],
        input="9\n0\n1\n3\n",
    )
    assert result.exit_code == 0, result.output
    text = result.output
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["status"] == "finished" and len(record["game_info"]["moves"]) >= 5
    assert text.count("Invalid move: there is no action 9") == 1
    for move in record["game_info"]["moves"]:
        assert text.count(f"played: {move['label']}.") == 1, move
    assert text.index("Final view of Player 0") < text.index("Result: ")


def test_a_python_agent_that_raises_exits_4_showing_its_own_frames(tmp_path):
    agent = tmp_path / "broken_agent.py"
    agent.write_text(
        "def helper(x):\n    return 1 / x\n\n\ndef play(observation):\n    return helper(0)\n", encoding="utf-8"
    )
    out = tmp_path / "broken.json"
    result = runner.invoke(
        app,
        [
            "match",
            "TicTacToe-text",
            "--player0",
            "bot:1",
            "--player1",
            f"{agent}:play",
            "--seed",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 4, result.output
    assert f"the agent of Player 1 ({agent}:play) raised ZeroDivisionError: division by zero" in result.output
    assert 'broken_agent.py", line 6, in play' in result.output and "line 2, in helper" in result.output
    assert "makeenv" + "/" not in result.output.replace(str(agent), "")  # no frame of makeenv's own code
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["status"] == "agent_error" and "ZeroDivisionError" in record["error"]


@pytest.mark.slow
def test_a_game_folder_of_your_own_is_played_in_words(tmp_path, monkeypatch):
    created = runner.invoke(app, ["new", "Nim", "--dir", str(tmp_path)])
    assert created.exit_code == 0, created.output
    agent = tmp_path / "first_listed.py"
    agent.write_text(FIRST_LISTED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "nim.json"
    result = runner.invoke(
        app,
        ["match", "./nim-text", "--player0", f"{agent}:play", "--player1", "bot:1", "--seed", "3", "--out", str(out)],
    )
    assert result.exit_code == 0, result.output
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["env_id"] == "./nim-text" and record["status"] == "finished"
    assert record["game_info"]["game"] == "Nim" and record["game_info"]["outcome"]["winners"]
    assert "level-1 bot" in result.output and "Result: Player" in result.output
    for args, message in (
        (["./nim", "--player0", "fixed:1"], "play it in words as ./nim-text"),
        (["./nope-text", "--player0", "fixed:1"], "no such game folder './nope'"),
        (["nope-text", "--player0", "fixed:1"], "not a registered env"),
    ):
        refused = runner.invoke(app, ["match", *args], env={"COLUMNS": "250"})
        assert refused.exit_code == 2 and message in refused.output, refused.output
