"""An exception raised inside a compiled agent or bot (numba cannot catch it) is reported naming the
game, the agent, its seat, the turn (a move or the final turn) and the fix, chained to the original."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from makeenv.array import errors as E
from makeenv.array.contract import load_array_env

from .agents_for_tests import python_random
from .broken_games import broken

# RockPaperScissors whose final state offers no valid action: the seed's idiom breaks at the end
NO_FINAL_ACTION = load_array_env(broken("final_valid_action"))


@njit(cache=True)
def seed_idiom(state, data):
    """The seed system's random agent, exactly as its users write it."""
    valid = NO_FINAL_ACTION.getValidActions(state)
    idx = np.where(valid == 1)[0]
    return idx[np.random.randint(0, len(idx))], data


@njit(cache=True)
def gives_up_on_confirm(state, data):
    """Raises when asked to confirm (state[6]: the confirmation phase), during the game."""
    if state[6] > 0.5:
        raise ValueError("agent gave up")
    return 1, data


@njit(cache=True)
def always_paper(state, data):
    return (3 if state[6] > 0.5 else 2), data


def test_the_idiom_on_a_game_without_final_action_names_game_agent_seat_and_final_turn():
    with pytest.raises(E.AgentRaisedError) as info:
        NO_FINAL_ACTION.run(seed_idiom, 20, 0.0, 0, seed=3)
    message = str(info.value)
    assert message.startswith("Broken-final_valid_action: player ")
    assert "your agent" in message and "seed_idiom" in message
    assert "raised ValueError" in message and "final turn" in message
    assert "in game 1 of the run" in message
    assert "even at the final turn" in message and "makeenv check" in message
    assert isinstance(info.value.__cause__, ValueError)  # numba's own exception, chained
    seat = int(message.split("player ")[1].split()[0])
    assert seat in (0, 1)


def test_a_compiled_agent_raising_during_the_game_is_asked_for_a_move():
    with pytest.raises(E.AgentRaisedError) as info:
        NO_FINAL_ACTION.run(gives_up_on_confirm, 5, 0.0, 0, seed=1)
    message = str(info.value)
    assert "gives_up_on_confirm" in message and "agent gave up" in message
    assert "when asked for a move at step 3" in message or "when asked for a move at step 4" in message
    assert "final turn" not in message
    assert "must not raise" in message


def test_a_compiled_opponent_raising_at_its_final_turn_is_named_in_a_python_driven_run():
    # a Python agent: the numba opponent is stepped by py_advance, which also gives its final turn
    with pytest.raises(E.AgentRaisedError) as info:
        NO_FINAL_ACTION.run(python_random, 5, None, 0, seed=2, opponents=[seed_idiom])
    message = str(info.value)
    assert "(opponent 1" in message and "seed_idiom" in message and "final turn" in message
    assert "your agent" not in message


def test_an_exception_in_the_game_after_the_agent_answered_is_not_blamed_on_the_agent():
    raises_on_paper = load_array_env(broken("random_games"))  # stepEnv raises on Paper
    with pytest.raises(ValueError, match="paper is broken") as info:
        raises_on_paper.run(always_paper, 5, 0.0, 0, seed=1)
    assert not isinstance(info.value, E.AgentRaisedError)
