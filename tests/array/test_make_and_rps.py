"""make() for array games, load_agent, and the RockPaperScissors rules and layouts."""

from __future__ import annotations

import os
import textwrap

import numpy as np
import pytest

import makeenv
from makeenv.array import ArrayEnv
from makeenv.array.agents import AgentSpecError, load_agent
from makeenv.games.rock_paper_scissors import logic as L

RPS_FOLDER = os.path.dirname(L.__file__)


def test_make_by_registered_name():
    env = makeenv.make("RockPaperScissors")
    assert isinstance(env, ArrayEnv) and env.name == "RockPaperScissors"
    assert (env.getActionSize(), env.getStateSize(), env.getAgentSize()) == (4, 11, 2)
    assert "RockPaperScissors" in makeenv.list_envs()
    assert "| 0, 1, 2 |" in env.readme
    assert env.describe_action(1) == "Rock"
    assert isinstance(env.render(env.getAgentState(env.initEnv())), str)


def test_make_by_module_path_and_folder():
    by_module = makeenv.make("makeenv.games.rock_paper_scissors")
    assert by_module.name == "RockPaperScissors" and by_module.initEnv is L.initEnv
    by_folder = makeenv.make(RPS_FOLDER)
    assert by_folder.name == "RockPaperScissors"
    assert list(by_folder.initEnv()) == list(L.initEnv())


def test_make_a_single_file_game(tmp_path):
    from . import seat_game

    path = tmp_path / "my_seat_game.py"
    path.write_text(open(seat_game.__file__).read())
    env = makeenv.make(str(path))
    assert env.name == "SeatGame" and env.getAgentSize() == 3


def test_unknown_name_lists_games_and_suggests():
    with pytest.raises(ValueError) as info:
        makeenv.make("RockPaperSciss")
    message = str(info.value)
    assert "Did you mean 'RockPaperScissors'?" in message and "ScenarioPlanning-v0" in message


def test_missing_module_and_folder_without_init(tmp_path):
    with pytest.raises(ValueError, match="cannot import game module 'no_such.game'"):
        makeenv.make("no_such.game")
    with pytest.raises(ValueError, match="no such game folder './not_here'"):
        makeenv.make("./not_here")
    with pytest.raises(ValueError, match="has no __init__.py"):
        makeenv.make(str(tmp_path))


def test_load_agent_specs(tmp_path):
    agent = load_agent("tests.array.agents_for_tests:always_paper")
    assert agent.py_func.__name__ == "always_paper"
    path = tmp_path / "my_agent.py"
    path.write_text(
        textwrap.dedent("""
        def act(state, data):
            return 3, data
    """)
    )
    act = load_agent(f"{path}:act")
    assert act(np.zeros(11), None) == (3, None)
    assert load_agent("random") == "random"
    for bad, text in [
        ("nocolon", "must look like"),
        ("tests.array.agents_for_tests:nope", "has no 'nope'"),
        ("no_such_mod:f", "cannot import module"),
        (f"{tmp_path}/x.py:f", "no such file"),
    ]:
        with pytest.raises(AgentSpecError, match=text):
            load_agent(bad)


# ---- RockPaperScissors rules -------------------------------------------------------------------


def play(env, *actions):
    for a in actions:
        env = L.stepEnv(a, env)
    return env


def test_choice_then_confirmation_phase():
    env = L.initEnv()
    assert L.getCurrentPlayer(env) == 0 and L.checkEnded(env) == -1
    s0 = L.getAgentState(env)
    assert list(L.getValidActions(s0)) == [1, 1, 1, 0]
    env = play(env, L.ROCK)
    s1 = L.getAgentState(env)
    assert L.getCurrentPlayer(env) == 1
    assert s1[L.S_THEIRS : L.S_THEIRS + 3].sum() == 0  # player 1 cannot see the choice yet
    env = play(env, L.SCISSORS)
    for p in (0, 1):  # confirmation: both choices shown
        s = L.getPlayerState(env, p)
        assert s[L.S_CONFIRM] == 1 and list(L.getValidActions(s)) == [0, 0, 0, 1]
        assert s[L.S_MINE : L.S_MINE + 3].sum() == 1 and s[L.S_THEIRS : L.S_THEIRS + 3].sum() == 1
    env = play(env, L.CONFIRM)
    assert L.checkEnded(env) == -1
    env = play(env, L.CONFIRM)
    assert L.checkEnded(env) == 0  # rock beats scissors
    assert L.getReward(L.getPlayerState(env, 0)) == 1 and L.getReward(L.getPlayerState(env, 1)) == 0


@pytest.mark.parametrize(
    "a, b, winner",
    [
        (L.ROCK, L.SCISSORS, 0),
        (L.SCISSORS, L.PAPER, 0),
        (L.PAPER, L.ROCK, 0),
        (L.SCISSORS, L.ROCK, 1),
        (L.PAPER, L.SCISSORS, 1),
        (L.ROCK, L.PAPER, 1),
    ],
)
def test_who_beats_whom(a, b, winner):
    env = play(L.initEnv(), a, b, L.CONFIRM, L.CONFIRM)
    assert L.checkEnded(env) == winner


def test_tie_starts_a_new_round_and_100_ties_end_with_no_winner():
    env = play(L.initEnv(), L.ROCK, L.ROCK, L.CONFIRM, L.CONFIRM)
    assert L.checkEnded(env) == -1 and env[L.E_ROUND] == 1 and env[L.E_PHASE] == 0
    assert L.getAgentState(env)[L.S_ROUND] == 1
    for _ in range(99):
        env = play(env, L.PAPER, L.PAPER, L.CONFIRM, L.CONFIRM)
    assert L.checkEnded(env) == 2  # n players: no winner
    assert [L.getReward(L.getPlayerState(env, p)) for p in (0, 1)] == [0, 0]


def test_readme_documents_the_layouts():
    text = open(os.path.join(RPS_FOLDER, "README.md")).read()
    for heading in ("## Actions", "## State", "## Env", "## Levels"):
        assert heading in text
    assert "| 3 | Confirm |" in text
