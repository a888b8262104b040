"""check_env: RockPaperScissors passes every check; every check catches its broken game."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import makeenv
from makeenv.array.check import CHECKS, check_env, run_checks
from makeenv.array.contract import load_array_env

from .broken_games import BROKEN, broken, is_valid_refuses_at_end


def test_rock_paper_scissors_passes_every_check():
    ok, problems = makeenv.check_env(makeenv.make("RockPaperScissors"))
    assert ok, problems
    assert problems == []


def test_every_check_has_a_broken_game():
    covered = {name.split("_not_njit")[0] for name in BROKEN}
    assert covered == set(CHECKS)


# The checks that need env.run compile a loop per broken game: keep them in one place.
RUN_CHECKS = {"runs_numba_agent", "runs_python_agent", "completed_games", "wins_match_rewards", "levels"}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_check_reports_its_broken_game(case):
    check = case.split("_not_njit")[0]
    env = load_array_env(broken(case), max_steps=500)
    [result] = run_checks(env, [check], max_steps=300, run_games=50, trace_games=30)
    assert result.status == "fail", (case, result)
    assert result.problems
    for problem in result.problems:
        assert isinstance(problem, str) and problem.endswith((".", ")", "these"))
    if check not in RUN_CHECKS and check != "contract_functions":
        # the message names the contract function at fault
        names = (
            "initEnv",
            "getCurrentPlayer",
            "getPlayerState",
            "getAgentState",
            "stepEnv",
            "getValidActions",
            "checkEnded",
            "getReward",
            "getActionSize",
            "getStateSize",
            "getAgentSize",
            "getReturns",
            "sampleEnv",
            "isValidAction",
            "render",
            "describe_action",
            "README",
        )
        assert any(name in " ".join(result.problems) for name in names), result.problems


def test_missing_function_message_says_how_to_fix():
    env = load_array_env(broken("contract_functions"))
    [result] = run_checks(env, ["contract_functions"])
    assert "getStateSize is missing" in result.problems[0]
    assert "@njit def getStateSize()" in result.problems[0]


def test_not_njit_message():
    env = load_array_env(broken("contract_functions_not_njit"))
    [result] = run_checks(env, ["contract_functions"])
    assert "initEnv is not numba-compiled" in result.problems[0]


def test_missing_function_skips_dependent_checks_and_fails_overall():
    ok, problems = check_env(load_array_env(broken("contract_functions")))
    assert not ok
    assert any(p.startswith("contract_functions: getStateSize is missing") for p in problems)
    assert any("not checked" in p for p in problems)


def test_broken_game_fails_the_full_check_env():
    ok, problems = check_env(load_array_env(broken("state_values")), run_games=50)
    assert not ok
    assert any(p.startswith("state_values:") for p in problems)


def test_unknown_check_name_is_an_error():
    with pytest.raises(ValueError, match="unknown checks"):
        run_checks(makeenv.make("RockPaperScissors"), ["no_such_check"])


def test_a_final_state_without_valid_action_fails_with_the_fix():
    env = load_array_env(broken("final_valid_action"))
    ok, problems = check_env(env, ["random_games", "valid_action_exists", "final_valid_action"], trace_games=20)
    assert not ok
    [problem] = problems
    assert problem.startswith("final_valid_action: At the end of ")
    assert "allowed no action for players 0, 1" in problem
    assert "return a mask with action 0 set when the game is over" in problem


def test_the_numba_agent_check_plays_the_seeds_idiom_to_the_final_turn():
    """runs_numba_agent plays a numba agent written the seed's way (np.where over getValidActions,
    then a random index): on a game whose final state offers no action, it raises at its final turn."""
    env = load_array_env(broken("final_valid_action"))
    [result] = run_checks(env, ["runs_numba_agent"], run_games=20)
    assert result.status == "fail", result
    [problem] = result.problems
    assert problem.startswith("env.run with a numba agent failed: ")
    assert "valid_choice_agent" in problem and "final turn" in problem, problem


def test_the_numba_agent_check_and_the_level_check_share_one_compiled_loop():
    """In a game with bots the seed's idiom rides in the loop of the levels (no loop of its own to
    compile), and its failing final turn is still told as the agent's."""
    from makeenv.array import runner
    from makeenv.array.cache import referee_module
    from makeenv.games.rock_paper_scissors import bots

    env = makeenv.make("RockPaperScissors")
    idiom = referee_module(env).valid_choice_agent
    plan = runner.make_plan(env, idiom, 0, agent_data=np.zeros(2))
    assert plan.agent_kind == "bot" and plan.module is runner.make_plan(env, "random", 1).module
    own_agent = njit(idiom.py_func)  # the same code as a user's own agent: its loop does without the idiom
    assert not any(f is idiom for f in runner.make_plan(env, own_agent, 1, agent_data=np.zeros(2)).module.BOTS)

    module = broken("final_valid_action")
    module.LEVELS = bots.LEVELS
    env = load_array_env(module)
    [numba_run, levels] = run_checks(env, ["runs_numba_agent", "levels"], run_games=20)
    assert runner.make_plan(env, referee_module(env).valid_choice_agent, 0, agent_data=np.zeros(2)).agent_kind == "bot"
    assert numba_run.status == "fail" and levels.status == "pass", (numba_run, levels)
    [problem] = numba_run.problems
    assert "your agent valid_choice_agent" in problem and "final turn" in problem, problem


def test_is_valid_action_must_agree_at_the_end_too():
    """isValidAction right while the game runs but refusing the final state's Confirm."""
    module = broken("valid_action_agrees")
    module.isValidAction = is_valid_refuses_at_end
    [result] = run_checks(load_array_env(module), ["valid_action_agrees"], trace_games=10)
    assert result.status == "fail"
    assert "isValidAction(state, 3) returned False" in result.problems[0]
