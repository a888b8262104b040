"""Deliberately broken variants of RockPaperScissors, one per check of ``check_env``.

``broken(name)`` returns a module object: the real game's functions with one or two replaced by
the broken versions below. The broken functions are top-level ``@njit(cache=True)`` functions so
the runners compiled for them are cached between test runs.
"""

from __future__ import annotations

import os
import types

import numpy as np
from numba import njit

from makeenv.array.contract import CONTRACT_NAMES
from makeenv.games import rock_paper_scissors as rps
from makeenv.games.rock_paper_scissors import logic as L

CONTRACT = CONTRACT_NAMES


@njit(cache=True)
def action_size_float():
    return 4.5


def init_env_python():  # not @njit
    return L.initEnv()


@njit(cache=True)
def init_env_int():
    return np.zeros(6, dtype=np.int64)


@njit(cache=True)
def step_raises_on_paper(action, env):
    if action == 2:
        raise ValueError("paper is broken")
    return L.stepEnv(action, env)


@njit(cache=True)
def never_ended(env):
    return -1


@njit(cache=True)
def current_player_off(env):
    return int(env[0]) + 5


@njit(cache=True)
def agent_state_int(env):
    return L.getPlayerState(env, int(env[0])).astype(np.int64)


@njit(cache=True)
def agent_state_grows(env):
    state = L.getPlayerState(env, int(env[0]))
    if env[1] == 1.0:
        out = np.zeros(state.shape[0] + 1)
        out[: state.shape[0]] = state
        return out
    return state


@njit(cache=True)
def player_state_negative(env, player):
    state = L.getPlayerState(env, player)
    if env[2 + player] < 0:
        state[0] = -1.0
    return state


@njit(cache=True)
def agent_state_negative(env):
    return player_state_negative(env, int(env[0]))


@njit(cache=True)
def valid_actions_int(state):
    return L.getValidActions(state).astype(np.int64)


@njit(cache=True)
def valid_actions_long(state):
    out = np.zeros(5)
    out[:4] = L.getValidActions(state)
    return out


@njit(cache=True)
def valid_actions_half(state):
    valid = L.getValidActions(state)
    if valid[3] == 0.0:
        valid[3] = 0.5
    return valid


@njit(cache=True)
def valid_actions_none_to_confirm(state):
    valid = L.getValidActions(state)
    valid[3] = 0.0
    return valid


@njit(cache=True)
def valid_actions_none_at_end(state):
    """Offers nothing once the game is over (RockPaperScissors offers Confirm): breaks the final turn."""
    valid = L.getValidActions(state)
    if state[L.S_OVER] > 0.5:
        valid[:] = 0.0
    return valid


@njit(cache=True)
def step_returns_other(action, env):
    L.stepEnv(action, env)
    return np.zeros(2)


@njit(cache=True)
def ended_out_of_range(env):
    w = int(env[5])
    return w if w < 0 else w + 5


@njit(cache=True)
def reward_always_win(state):
    if state[8] > 0.5:
        return 1
    return -1


@njit(cache=True)
def valid_actions_raise_on_nan(state):
    if state[6] != state[6]:
        raise ValueError("NaN in state")
    return L.getValidActions(state)


@njit(cache=True)
def player_state_never_over(env, player):
    state = L.getPlayerState(env, player)
    state[8] = 0.0
    state[9] = 0.0
    state[10] = 0.0
    return state


@njit(cache=True)
def ended_reports_loser(env):
    w = int(env[5])
    if w == 0 or w == 1:
        return 1 - w
    return w


@njit(cache=True)
def bot_picks_seven(state, data):
    return 7, data


@njit(cache=True)
def returns_of_three(env):
    return np.zeros(3)


@njit(cache=True)
def player_state_shows_choice(env, player):
    """Shows the opponent's choice as soon as it is made: a simultaneous choice leaks."""
    state = L.getPlayerState(env, player)
    theirs = int(env[L.E_CHOICE + 1 - player])
    if theirs >= 0:
        state[L.S_THEIRS + theirs] = 1.0
    return state


@njit(cache=True)
def agent_state_shows_choice(env):
    return player_state_shows_choice(env, int(env[0]))


@njit(cache=True)
def sample_env_forgets(state):
    return L.initEnv()


@njit(cache=True)
def is_valid_always(state, action):
    return True


@njit(cache=True)
def is_valid_refuses_at_end(state, action):
    """Right while the game runs, but refuses the final state's Confirm that getValidActions offers."""
    return state[L.S_OVER] < 0.5 and L.isValidAction(state, action)


def render_breaks_when_over(state):
    if state[L.S_OVER] > 0.5:
        raise KeyError("no picture for the end")
    return rps.render(state)


def describe_action_blank(action):
    return "" if action == 3 else rps.describe_action(action)


# a README whose tables disagree with the game's sizes
WRONG_README_FOLDER = os.path.join(os.path.dirname(__file__), "broken_readme")


# check name -> replacements that make exactly that check fail
BROKEN: dict[str, dict[str, object]] = {
    "contract_functions": {"getStateSize": None},
    "contract_functions_not_njit": {"initEnv": init_env_python},
    "sizes": {"getActionSize": action_size_float},
    "init_env": {"initEnv": init_env_int},
    "random_games": {"stepEnv": step_raises_on_paper},
    "games_end": {"checkEnded": never_ended},
    "current_player": {"getCurrentPlayer": current_player_off},
    "state_type": {"getAgentState": agent_state_int},
    "state_length": {"getAgentState": agent_state_grows},
    "state_values": {"getPlayerState": player_state_negative, "getAgentState": agent_state_negative},
    "valid_actions_type": {"getValidActions": valid_actions_int},
    "valid_actions_length": {"getValidActions": valid_actions_long},
    "valid_actions_binary": {"getValidActions": valid_actions_half},
    "valid_action_exists": {"getValidActions": valid_actions_none_to_confirm},
    "final_valid_action": {"getValidActions": valid_actions_none_at_end},
    "step_env": {"stepEnv": step_returns_other},
    "ended_range": {"checkEnded": ended_out_of_range},
    "rewards": {"getReward": reward_always_win},
    "robust_functions": {"getValidActions": valid_actions_raise_on_nan},
    "runs_numba_agent": {"initEnv": init_env_python},
    "runs_python_agent": {"initEnv": init_env_python},
    "completed_games": {"getPlayerState": player_state_never_over},
    "wins_match_rewards": {"checkEnded": ended_reports_loser},
    "levels": {"LEVELS": {1: bot_picks_seven}},
    "outcomes": {"getReturns": returns_of_three},
    "simultaneous_hidden": {"getPlayerState": player_state_shows_choice, "getAgentState": agent_state_shows_choice},
    "sample_env": {"sampleEnv": sample_env_forgets},
    "valid_action_agrees": {"isValidAction": is_valid_always},
    "render": {"render": render_breaks_when_over},
    "describe": {"describe_action": describe_action_blank},
    "readme_tables": {"__file__": os.path.join(WRONG_README_FOLDER, "__init__.py")},
}


def broken(name: str) -> types.ModuleType:
    """A RockPaperScissors module with the replacements listed under ``BROKEN[name]``."""
    module = types.ModuleType(f"broken_{name}")
    for fn in CONTRACT:
        setattr(module, fn, getattr(rps, fn))
    module.NAME = f"Broken-{name}"
    module.LEVELS = {}
    module.SIMULTANEOUS = rps.SIMULTANEOUS
    for attr, value in BROKEN[name].items():
        if value is None:
            delattr(module, attr)
        else:
            setattr(module, attr, value)
    return module
