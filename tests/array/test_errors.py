"""Errors name the right party and the cause: the game or the agent, the line numba failed on, no
internal module names, no framework frames."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import makeenv
from makeenv.array import GameCompileError, GameError
from makeenv.array.contract import load_array_env
from makeenv.array.scaffold import scaffold
from makeenv.cli.app import app

from .broken_games import broken

runner = CliRunner()


def test_no_valid_action_blames_the_game_whoever_is_to_move():
    game = load_array_env(broken("valid_action_exists"))

    def first_valid_or_confirm(state, data):
        valid = np.flatnonzero(game.getValidActions(state) == 1.0)
        return (int(valid[0]) if len(valid) else 3), data

    for agent, data in ((first_valid_or_confirm, None), ("random", None)):
        with pytest.raises(GameError) as info:
            game.run(agent, 20, data, 0, seed=1)
        message = str(info.value)
        assert "getValidActions allowed no action" in message and "bug in the game" in message
        assert "your agent" not in message and "bot" not in message


def test_a_numba_compile_error_shows_the_cause_and_the_line(tmp_path):
    folder = scaffold("TakeAway", tmp_path)
    source = (folder / "logic.py").read_text()
    broken_source = source.replace("    env[E_TURN] += 1.0\n", "    env[E_TURN] += undefined_name\n")
    assert broken_source != source
    (folder / "logic.py").write_text(broken_source)
    env = makeenv.make(str(folder))
    with pytest.raises(GameCompileError) as info:
        env.run("random", 10, None, 0)
    message = str(info.value)
    assert "undefined_name" in message  # the name numba could not resolve
    assert "logic.py, line" in message and "env[E_TURN] += undefined_name" in message
    assert "nopython mode pipeline" not in message and "_makeenv_" not in message


def test_run_accepts_a_game_folders_init_file_and_rejects_other_files(tmp_path):
    folder = scaffold("TakeAway", tmp_path)
    result = runner.invoke(app, ["run", str(folder / "__init__.py"), "-n", "50"])
    assert result.exit_code == 0, result.output
    (tmp_path / "helper.py").write_text("def helper():\n    return 1\n")
    result = runner.invoke(app, ["run", str(tmp_path / "helper.py"), "-n", "50"])
    assert result.exit_code == 2
    assert "not an array game" in result.output and "agent" not in result.output


def test_a_python_agents_exception_shows_the_agents_frames_only(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text(
        textwrap.dedent("""
        def think(state):
            return 1 / 0

        def act(state, data):
            return think(state), data
    """)
    )
    result = runner.invoke(app, ["run", "RockPaperScissors", "-n", "10", "-a", f"{path}:act"])
    assert result.exit_code == 1
    output = result.output
    assert "ZeroDivisionError" in output and "return 1 / 0" in output and "agent.py" in output
    assert "typer" not in output and "click" not in output and "makeenv/array" not in output
    assert output.count("File ") <= 3


def test_messages_never_show_internal_module_names(tmp_path):
    path = tmp_path / "agent.py"
    path.write_text("def act(state, data):\n    return 9, data\n")
    result = runner.invoke(app, ["run", "RockPaperScissors", "-n", "5", "-a", f"{path}:act"])
    assert result.exit_code == 1
    assert "_makeenv_" not in result.output and "agent.act" in result.output


def test_check_rejects_zero_games():
    result = runner.invoke(app, ["check", "RockPaperScissors", "--games", "0"])
    assert result.exit_code == 2 and "--games" in result.output


def test_seed_must_be_a_non_negative_int():
    env = makeenv.make("RockPaperScissors")
    with pytest.raises(ValueError, match="seed must be a non-negative int"):
        env.run("random", 10, np.zeros(1), 0, seed=-1)


# ---- a Python agent's exception: its spec and its own frames, whatever the exception type ----------

AGENT_BUGS = {
    "ValueError": "raise ValueError('my agent has a bug')",
    "TypeError": "return len(state) + None",
    "ZeroDivisionError": "return 1 / 0",
}


@pytest.mark.parametrize("kind", sorted(AGENT_BUGS))
def test_every_exception_of_a_python_agent_names_the_agent_and_shows_its_frames(tmp_path, kind):
    path = tmp_path / "buggy.py"
    path.write_text(
        f"def think(state):\n    {AGENT_BUGS[kind]}\n\n\ndef act(state, data):\n    return think(state), data\n"
    )
    spec = f"{path}:act"
    result = runner.invoke(app, ["run", "RockPaperScissors", "-n", "10", "-a", spec])
    assert result.exit_code == 1
    output = result.output
    assert f"your agent {spec} raised {kind}" in output
    assert AGENT_BUGS[kind] in output and "in think" in output and "in act" in output  # both user frames
    assert "makeenv/" not in output and "typer" not in output and "_makeenv_" not in output


def test_an_opponents_exception_names_the_opponent_spec(tmp_path):
    path = tmp_path / "rival.py"
    path.write_text("def act(state, data):\n    raise ValueError('rival broke')\n")
    result = runner.invoke(app, ["run", "RockPaperScissors", "-n", "10", "--opponent", f"{path}:act"])
    assert result.exit_code == 1
    assert f"opponent {path}:act raised ValueError" in result.output and "rival broke" in result.output


def test_env_run_keeps_the_agents_exception_and_notes_who_raised_it():
    env = makeenv.make("RockPaperScissors")

    def picky(state, data):
        raise ValueError("no move for you")

    with pytest.raises(ValueError, match="no move for you") as info:
        env.run(picky, 5, None, 0)
    assert any("raised by your agent" in note and "picky" in note for note in info.value.__notes__)


def test_an_agent_spec_naming_a_constant_says_an_int(tmp_path):
    (tmp_path / "consts.py").write_text("LIMIT = 3\n")
    result = runner.invoke(app, ["run", "RockPaperScissors", "-a", f"{tmp_path / 'consts.py'}:LIMIT"])
    assert result.exit_code == 2
    assert "'LIMIT' is an int, not a function" in result.output and "a int" not in result.output


# ---- agent specs from the current folder ------------------------------------------------------


def _makeenv_command() -> list[str]:
    """The installed `makeenv` script (unlike `python -m`, it does not put the current folder on sys.path)."""
    script = Path(sys.executable).with_name("makeenv")
    if not script.is_file():
        pytest.skip("the makeenv console script is not installed beside this Python")
    return [str(script)]


def test_an_agent_module_in_the_current_folder_is_found(tmp_path):
    (tmp_path / "my_agents.py").write_text(
        textwrap.dedent("""
        import numpy as np
        import makeenv

        valid_actions = makeenv.make("RockPaperScissors").getValidActions

        def greedy(state, data):
            return int(np.flatnonzero(valid_actions(state))[-1]), data
    """)
    )
    done = subprocess.run(
        _makeenv_command() + ["run", "RockPaperScissors", "-n", "20", "--agent", "my_agents:greedy"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr
    assert "agent my_agents:greedy (plain Python)" in done.stdout and "wins: " in done.stdout


def test_an_agent_module_found_nowhere_says_what_to_write(tmp_path):
    result = runner.invoke(app, ["run", "RockPaperScissors", "--agent", "not_a_module_here:greedy"])
    assert result.exit_code == 2
    assert "cannot import module 'not_a_module_here'" in result.output
    assert "'./not_a_module_here.py:greedy'" in result.output


# ---- numba errors inside a game: the cause once, the right line, one-line skips ---------------


def _broken_scaffold(tmp_path, name: str, old: str, new: str) -> Path:
    folder = scaffold(name, tmp_path)
    source = (folder / "logic.py").read_text()  # the rules of a scaffolded game
    assert old in source
    (folder / "logic.py").write_text(source.replace(old, new, 1))
    return folder


def test_a_list_where_numba_needs_an_array_is_explained_once_by_check(tmp_path):
    folder = _broken_scaffold(
        tmp_path,
        "ListGame",
        "    env[E_TURN] += 1.0\n",
        "    weights = [1.0, 0.5]\n    env[E_TURN] += np.dot(weights, env[:2]) * 0.0 + 1.0\n",
    )
    lines = (folder / "logic.py").read_text().splitlines()
    broken_line = next(i + 1 for i, line in enumerate(lines) if "np.dot(weights" in line)
    result = runner.invoke(app, ["check", str(folder)])
    assert result.exit_code == 1
    output = result.output
    cause = "dot(list(float64), array(float64, 1d, C))"  # the whole signature, not cut off
    assert output.count(cause) == 1
    assert f"logic.py, line {broken_line}: `env[E_TURN] += np.dot(weights" in output  # the line numba marks
    assert "faul" not in output and "makeenv check" not in output
    assert "Fix the bot in LEVELS" not in output and "must be @njit" not in output
    skips = [line for line in output.splitlines() if "not checked" in line]
    assert len(skips) > 10 and all(
        line.strip() == "- not checked: needs the game to compile (see random_games)" for line in skips
    )


def test_a_contract_function_returning_a_list_is_named(tmp_path):
    folder = _broken_scaffold(
        tmp_path, "ListMask", "    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)\n", "    valid = [0.0, 0.0, 0.0]\n"
    )
    with pytest.raises(GameCompileError) as info:
        makeenv.make(str(folder)).run("random", 5, None, 0)
    message = str(info.value)
    assert "getValidActions returns list(float64); it must return a 1-D float64 array" in message
    assert "makeenv check" not in message and "<iv=" not in message


# ---- command-line wording ----------------------------------------------------------------------


def test_new_with_a_builtin_games_name_warns_and_says_how_to_run_the_folder(tmp_path):
    result = runner.invoke(app, ["new", "TicTacToe", "--dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "warning: TicTacToe is also the name of a built-in game" in result.output
    assert f"makeenv run {tmp_path / 'tic_tac_toe'}" in result.output
    fresh = runner.invoke(app, ["new", "TakeAway", "--dir", str(tmp_path)])
    assert fresh.exit_code == 0 and "warning" not in fresh.output


def test_the_next_step_names_a_relative_folder_as_a_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["new", "TicTacToe"])
    assert "makeenv run ./tic_tac_toe" in result.output  # not `tic_tac_toe`, which reads as a module


@pytest.mark.parametrize("command", [[], ["run"], ["check"], ["new"], ["play"], ["match"]])
def test_help_shows_flags_without_a_bool_type(command):
    result = runner.invoke(app, command + ["--help"])
    assert result.exit_code == 0, result.output
    assert "--help" in result.output and "<bool>" not in result.output


def test_a_missing_game_folder_is_reported_without_internal_function_names():
    result = runner.invoke(app, ["run", "./no_such_game_folder"])
    assert result.exit_code == 2
    assert "no such game folder './no_such_game_folder'" in result.output and "load_array_env" not in result.output


def test_messages_drop_the_names_of_modules_built_from_templates_but_keep_file_paths():
    from makeenv.array.errors import strip_internal_names

    text = "your agent makeenv_referee_0a1b2c.valid_choice_agent raised in makeenv_live_12.n_games"
    assert strip_internal_names(text) == "your agent valid_choice_agent raised in n_games"
    path = 'File "/cache/runners/makeenv_loop_0a1b2c.py", line 9'
    assert strip_internal_names(path) == path
