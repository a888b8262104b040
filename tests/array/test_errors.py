"""Errors name the right party and the cause: the game or the agent, the line numba failed on, no
internal module names, no framework frames."""

from __future__ import annotations

import textwrap

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
    source = (folder / "__init__.py").read_text()
    broken_source = source.replace("    env[E_TURN] += 1.0\n", "    env[E_TURN] += undefined_name\n")
    assert broken_source != source
    (folder / "__init__.py").write_text(broken_source)
    env = makeenv.make(str(folder))
    with pytest.raises(GameCompileError) as info:
        env.run("random", 10, None, 0)
    message = str(info.value)
    assert "undefined_name" in message                       # the name numba could not resolve
    assert "__init__.py, line" in message and "env[E_TURN] += undefined_name" in message
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
    path.write_text(textwrap.dedent("""
        def think(state):
            return 1 / 0

        def act(state, data):
            return think(state), data
    """))
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
