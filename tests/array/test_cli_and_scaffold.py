"""The array commands (`makeenv list | run | check | new`) and the scaffold."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from numba import njit
from typer.testing import CliRunner

import makeenv
import makeenv.array.check
import makeenv.cli.array_commands as array_commands
from makeenv.array.scaffold import ScaffoldError, scaffold, snake_case
from makeenv.cli.app import app

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def test_list_shows_every_registered_env_with_kind():
    result = invoke("list")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["NAME", "KIND", "DESCRIPTION"]
    assert any(line.startswith("RockPaperScissors") and " array " in line for line in lines)
    assert any(line.startswith("ScenarioPlanning-v0") and " text " in line for line in lines)


def test_run_prints_wins_rate_and_speed():
    result = invoke("run", "RockPaperScissors", "--games", "1000", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "wins: " in result.output and "/ 1,000" in result.output
    assert "win rate: " in result.output and "games/s: " in result.output
    again = invoke("run", "RockPaperScissors", "--games", "1000", "--seed", "1")
    assert again.output.splitlines()[1] == result.output.splitlines()[1]  # same wins


def test_run_with_agent_from_file_and_level(tmp_path):
    path = tmp_path / "paper.py"
    path.write_text(
        textwrap.dedent("""
        def act(state, data):          # plain Python: always Paper, confirm when asked
            return (3 if state[6] > 0.5 or state[8] > 0.5 else 2), data
    """)
    )
    result = invoke(
        "run", "RockPaperScissors", "--games", "500", "--level", "1", "--agent", f"{path}:act", "--seed", "2"
    )
    assert result.exit_code == 0, result.output
    assert "plain Python" in result.output
    rate = float(result.output.split("win rate: ")[1].split("%")[0])
    assert rate > 65


def test_run_with_module_agent_and_progress_bar(monkeypatch):
    monkeypatch.setattr(array_commands, "PROGRESS_MIN_NUMBA", 10)
    result = invoke("run", "RockPaperScissors", "-n", "2000", "-a", "tests.array.agents_for_tests:numba_random")
    assert result.exit_code == 0, result.output
    assert "playing" in result.output and "(numba)" in result.output


@pytest.mark.parametrize(
    "args, text",
    [
        (["run", "RockPaperSciss"], "Did you mean 'RockPaperScissors'"),
        (["run", "RockPaperScissors", "--level", "9"], "has no level 9; levels: 0 (random"),
        (["run", "RockPaperScissors", "--agent", "nope"], "must look like 'module:name'"),
        (["run", "RockPaperScissors", "--games", "0"], "--games must be a positive number"),
        (["run", "ScenarioPlanning-v0"], "is a text env"),
    ],
)
def test_run_bad_input_is_a_clear_error(args, text):
    result = invoke(*args)
    assert result.exit_code == 2
    assert text in result.output


def test_run_invalid_action_exits_1_with_the_message():
    result = invoke("run", "RockPaperScissors", "-n", "10", "-a", "tests.array.agents_for_tests:numba_always_7")
    assert result.exit_code == 1
    assert "chose action 7" in result.output and "Valid actions here" in result.output


def test_check_passes_for_rock_paper_scissors():
    result = invoke("check", "RockPaperScissors")
    assert result.exit_code == 0, result.output
    from makeenv.array.check import CHECKS

    assert "PASS  state_length" in result.output and f"all {len(CHECKS)} checks passed" in result.output


def test_check_fails_for_a_broken_game():
    result = invoke("check", "tests.array.broken_rewards_game", "--games", "50")
    assert result.exit_code == 1, result.output
    assert "FAIL  rewards" in result.output and "getReward" in result.output


def test_snake_case():
    assert snake_case("TicTacToe") == "tic_tac_toe"
    assert snake_case("Connect4") == "connect4"
    assert snake_case("HTTPGame") == "http_game"


def test_new_scaffolds_a_game_that_passes_check_env(tmp_path):
    result = invoke("new", "TakeAway", "--dir", str(tmp_path))
    assert result.exit_code == 0, result.output
    folder = tmp_path / "take_away"
    # the built-in games' shape: rules, bots, drawing, a package gathering them, README, a test
    assert sorted(p.name for p in folder.iterdir()) == [
        "README.md",
        "__init__.py",
        "bots.py",
        "draw.py",
        "logic.py",
        "test_take_away.py",
    ]
    builtin = {p.name for p in (Path(makeenv.__file__).parent / "games" / "tic_tac_toe").glob("*.py")}
    assert {"__init__.py", "logic.py", "bots.py", "draw.py"} <= builtin
    source = (folder / "logic.py").read_text()
    for name in (
        "initEnv",
        "getAgentState",
        "stepEnv",
        "getValidActions",
        "getReward",
        "checkEnded",
        "getCurrentPlayer",
        "getPlayerState",
        "getActionSize",
        "getStateSize",
        "getAgentSize",
    ):
        assert f"def {name}(" in source
    assert "# ---- env:" in source and "# ---- state:" in source
    assert "def greedy_bot(state, data)" in (folder / "bots.py").read_text()
    drawing = (folder / "draw.py").read_text()
    for stub in ("def render(state)", "def describe_action(action)", "def describe_state(state)", "data-action"):
        assert stub in drawing
    readme = (folder / "README.md").read_text()
    assert "## Actions" in readme and "## State" in readme and "## Env" in readme and "| index | meaning |" in readme
    env = makeenv.make(str(folder))
    assert env.name == "TakeAway"
    ok, problems = makeenv.check_env(env)
    assert ok, problems
    assert invoke("new", "TakeAway", "--dir", str(tmp_path)).exit_code == 2  # exists: refuse


def test_the_seed_idiom_runs_on_a_scaffolded_game(tmp_path):
    """The seed's random agent picks among the valid actions at every turn, the final one included:
    a scaffolded game offers action 0 alone when it is over."""
    env = makeenv.make(str(scaffold("TakeAway", tmp_path)))

    @njit
    def agent(state, data):
        valid = env.getValidActions(state)
        idx = np.where(valid == 1)[0]
        return idx[np.random.randint(0, len(idx))], data

    wins, _ = env.run(agent, 200, 0.0, 0, seed=1)
    assert 0 < wins < 200
    match = env.new_match(seed=1)
    while not match.over:
        match.step(match.valid_action_ids()[0])
    for player in (0, 1):
        final = env.getPlayerState(match.array, player)
        assert list(np.flatnonzero(env.getValidActions(final))) == [0]


def test_a_stale_scaffold_readme_is_reported(tmp_path):
    folder = scaffold("TakeAway", tmp_path)
    readme = folder / "README.md"
    readme.write_text(
        readme.read_text()
        .replace("`getActionSize() == 3`", "`getActionSize() == 4`")
        .replace("| 4 | 1 when another player won |\n", "")
    )
    [result] = makeenv.array.check.run_checks(makeenv.make(str(folder)), ["readme_tables"])
    assert result.status == "fail"
    assert any("says `getActionSize() == 4`" in p for p in result.problems)
    assert any("leaves out index 4" in p for p in result.problems)


def test_editing_another_file_of_a_game_folder_keeps_it_loadable(tmp_path):
    """Bug: a module name hashed from every file changed when a test file was edited, while numba's
    cache still named the old module ("No module named '_makeenv_game_...'")."""
    folder = scaffold("TakeAway", tmp_path)
    command = [sys.executable, "-c", "from makeenv.cli import main; main()", "run", str(folder), "-n", "200"]
    first = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert first.returncode == 0, first.stderr
    with open(folder / "test_take_away.py", "a") as handle:
        handle.write("# an edit\n")
    second = subprocess.run(command, capture_output=True, text=True, timeout=240)
    assert second.returncode == 0, second.stderr
    assert "wins: " in second.stdout


def test_new_rejects_bad_names(tmp_path):
    with pytest.raises(ScaffoldError, match="CamelCase"):
        scaffold("tic-tac-toe", tmp_path)
    result = invoke("new", "9lives", "--dir", str(tmp_path))
    assert result.exit_code == 2 and "must be letters and digits" in result.output


@pytest.mark.slow
def test_generated_test_file_passes(tmp_path):
    scaffold("TakeAway", tmp_path)  # same content as above: the compiled runners are reused
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path / "take_away")],
        capture_output=True,
        text=True,
        timeout=280,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout
