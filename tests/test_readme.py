"""The README's Python examples run as written (the URL of the example server swapped for a test one)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.llm.conftest import needs_llm
from tests.support.openai_server import OpenAIServer
from tests.support.text_loop import play_through

README = Path(__file__).resolve().parent.parent / "README.md"
EXAMPLE_URL = "http://127.0.0.1:8080/v1"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def block_with(marker: str) -> str:
    found = [block for block in python_blocks() if marker in block]
    assert len(found) == 1, f"README: expected one python example containing {marker!r}, found {len(found)}"
    return found[0]


# one marker per Python example: the test that runs it finds its block by it
TESTED_EXAMPLES = {
    "always_rock": "test_array_example_runs_as_written",
    "results.summary()": "test_outcomes_and_opponents_example_runs_as_written",
    "TicTacToe-text": "test_array_game_in_words_example_runs_as_written",
    "LocalJury": "test_offline_text_example_plays_a_whole_game",
    "OpenAICompatibleJury": "test_openai_compatible_example_plays_a_game_against_a_local_server",
    "BatchedEnv(": "tests/adapters/test_readme_example.py",
}


def test_every_python_example_is_run_by_a_test() -> None:
    for block in python_blocks():
        markers = [marker for marker in TESTED_EXAMPLES if marker in block]
        assert len(markers) == 1, (
            f"README: this Python example is run by {len(markers)} tests {markers}; give it "
            f"a test and a marker in TESTED_EXAMPLES:\n{block}"
        )
    tests_here = set(globals())
    for marker, test in TESTED_EXAMPLES.items():
        assert test.endswith(".py") or test in tests_here, f"{test} (for {marker!r}) is not a test in this file"


def test_array_example_runs_as_written() -> None:
    namespace: dict = {}
    exec(compile(block_with("always_rock"), "README-array", "exec"), namespace)
    # Rock against the Rock-lover (Rock 60%, Scissors 20%, Paper 20%): a round is won or lost with
    # equal odds and ties replay, so Always Rock wins half its games.
    assert 0.48 < namespace["wins"] / 100_000 < 0.52
    assert namespace["agent_data"] > 100_000  # it counted at least one move per game
    assert namespace["ok"] is True and namespace["problems"] == []


def test_outcomes_and_opponents_example_runs_as_written() -> None:
    namespace: dict = {}
    exec(compile(block_with("results.summary()"), "README-outcomes", "exec"), namespace)
    results, match = namespace["results"], namespace["match"]
    assert results.games == 2_000 and results.wins + results.draws + results.losses == 2_000
    assert 0.4 < results.win_rate < 0.6  # a random agent against the Repeater
    assert 0.45 < namespace["wins"] / 200_000 < 0.55  # a random agent against the Rock-lover
    assert match.over and sorted(match.outcome.results) in (["loss", "win"], ["draw", "draw"])


def test_array_game_in_words_example_runs_as_written() -> None:
    namespace: dict = {}
    exec(compile(block_with("TicTacToe-text"), "README-text-bridge", "exec"), namespace)
    rewards, game_info = namespace["rewards"], namespace["game_info"]
    assert game_info["finished"] and game_info["forfeit"] is None and len(game_info["seats"]) == 1
    assert rewards == {0: game_info["outcome"]["returns"][game_info["seats"][0]]}
    assert "level-1 bot" in game_info["seated"][str(1 - game_info["seats"][0])]


def test_openai_compatible_example_plays_a_game_against_a_local_server() -> None:
    with OpenAIServer(default="Player 0") as server:
        source = block_with("OpenAICompatibleJury").replace(EXAMPLE_URL, server.base_url)
        namespace: dict = {}
        exec(compile(source, "README-openai", "exec"), namespace)
        env, player = namespace["env"], namespace["player"]
        rewards, game_info, _ = play_through(env, player, seed=0)
    assert rewards == {0: 1, 1: -1}
    assert sum(game_info["votes"].values()) == 11


@pytest.mark.llm
@needs_llm
def test_offline_text_example_plays_a_whole_game() -> None:
    namespace: dict = {}
    exec(compile(block_with("LocalJury"), "README-text", "exec"), namespace)
    rewards, game_info = namespace["rewards"], namespace["game_info"]
    assert sorted(rewards.values()) in ([-1, 1], [0, 0])
    assert sum(game_info["votes"].values()) + game_info["abstentions"] == 11
