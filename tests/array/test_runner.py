"""The generic runner: numba and Python agents, seeds, seats, final turns, levels, bad input."""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

import makeenv
from makeenv.array import AgentError, InvalidActionError
from makeenv.array.contract import load_array_env
from makeenv.games.rock_paper_scissors import logic as RPS

from . import agents_for_tests as A
from . import seat_game


@pytest.fixture(scope="module")
def env():
    return makeenv.make("RockPaperScissors")


def test_numba_agent_runs_and_threads_agent_data(env):
    wins, data = env.run(A.numba_counting, 2000, np.zeros(3), 0, seed=3)
    assert 900 < wins < 1100
    assert data[1] == 2000  # one final turn per game
    assert data[0] == wins  # getReward at the final turn agrees with run's wins
    assert data[2] > 2000  # the agent moved during the games


def test_python_agent_runs(env):
    wins, data = env.run(A.python_counting, 1000, np.zeros(3), 0, seed=3)
    assert 400 < wins < 600
    assert data[1] == 1000 and data[0] == wins


def test_builtin_random_agent_and_string(env):
    w1, _ = env.run(env.random_agent, 1000, None, 0, seed=5)
    w2, _ = env.run("random", 1000, None, 0, seed=5)
    assert w1 == w2 and 400 < w1 < 600


@pytest.mark.parametrize("agent", [A.numba_counting, A.python_counting, A.python_numpy_random])
def test_seed_makes_runs_reproducible(env, agent):
    a = env.run(agent, 500, np.zeros(3), 1, seed=42)
    b = env.run(agent, 500, np.zeros(3), 1, seed=42)
    assert a[0] == b[0]
    assert np.array_equal(a[1], b[1])


def test_different_seeds_differ(env):
    results = {env.run(A.numba_counting, 2000, np.zeros(3), 0, seed=s)[0] for s in range(4)}
    assert len(results) > 1


def test_one_game_and_n_games(env):
    won, data = env.one_game(A.numba_counting, np.zeros(3))
    assert won in (0, 1) and data[1] == 1
    wins, data = env.n_games(A.python_counting, 10, np.zeros(3))
    assert 0 <= wins <= 10 and data[1] == 10


@pytest.mark.parametrize("agent", [A.numba_seat_counter, None])
def test_seats_are_shuffled_with_three_players(agent):
    game = load_array_env(seat_game)
    if agent is None:

        def agent(state, data):  # plain Python twin of numba_seat_counter
            if state[1] > 0.5:
                data[int(state[0])] += 1
                data[3] += state[2]
            return 0, data

    wins, data = game.run(agent, 3000, np.zeros(4), 0, seed=1)
    assert data[:3].sum() == 3000  # a final turn in every game
    assert all(800 < data[i] < 1200 for i in range(3))  # every seat, about equally often
    assert wins == data[3]  # player 0 always wins: wins == games in seat 0
    assert 800 < wins < 1200


def test_level_counter_agents_beat_their_bots(env):
    """Each bot has a habit: its counter wins clearly more than half, random stays near half."""
    games = 4000
    paper, _ = env.run(A.always_paper, games, np.zeros(1), 1, seed=7)
    random_vs_1, _ = env.run(A.numba_random, games, np.zeros(1), 1, seed=7)
    counter, _ = env.run(A.beat_the_repeat, games, np.zeros(1), 2, seed=7)
    random_vs_2, _ = env.run(A.numba_random, games, np.zeros(1), 2, seed=7)
    assert paper / games > 0.65
    assert counter / games > 0.6
    assert 0.46 < random_vs_1 / games < 0.54
    assert 0.46 < random_vs_2 / games < 0.54


def test_levels_are_listed_and_unknown_level_is_clear(env):
    assert set(env.levels) == {0, 1, 2}
    with pytest.raises(ValueError, match=r"RockPaperScissors has no level 9; levels: 0 \(random"):
        env.run(A.numba_random, 10, np.zeros(1), 9)


# ---- bad input -----------------------------------------------------------------------------------


def _no_numba_dump(message: str) -> None:
    assert "TypingError" not in message and "Traceback" not in message and len(message) < 600


@pytest.mark.parametrize(
    "agent, action, reason",
    [
        (A.numba_always_3, "3", "not valid in this state"),
        (A.numba_always_7, "7", "out of range"),
        (A.numba_half, "1.5", "not an integer"),
        (A.numba_negative, "-1", "out of range"),
    ],
)
def test_invalid_action_from_numba_agent(env, agent, action, reason):
    with pytest.raises(InvalidActionError) as info:
        env.run(agent, 10, np.zeros(1), 0, seed=1)
    message = str(info.value)
    assert message.startswith("RockPaperScissors: player ")
    assert "(your agent " in message and "numba_" in message and f"action {action}" in message and reason in message
    assert "Valid actions here: 0 (Scissors), 1 (Rock), 2 (Paper)" in message
    _no_numba_dump(message)


@pytest.mark.parametrize(
    "action, text",
    [
        (3, "action 3 in game 1 of the run, step 1, which is not valid in this state"),
        (9, "action 9 in game 1 of the run, step 1, which is out of range (actions are 0..3)"),
        (-2, "out of range"),
        (2.5, "action 2.5 in game 1 of the run, step 1, which is not an integer"),
        (float("nan"), "action nan"),
        ("rock", "action 'rock' of type str"),
        (None, "of type NoneType"),
    ],
)
def test_invalid_action_from_python_agent(env, action, text):
    def agent(state, data):
        return action, data

    with pytest.raises(InvalidActionError) as info:
        env.run(agent, 5, None, 0, seed=1)
    message = str(info.value)
    assert message.startswith("RockPaperScissors: player ") and "(your agent " in message
    assert text in message
    assert "Valid actions here: 0 (Scissors), 1 (Rock), 2 (Paper)" in message


def test_integral_float_actions_are_accepted(env):
    def agent(state, data):
        return float(A.python_random(state, data)[0]), data

    wins, _ = env.run(agent, 20, None, 0, seed=1)
    assert 0 <= wins <= 20


def test_invalid_action_from_a_bot_names_the_bot():
    from .broken_games import broken

    game = load_array_env(broken("levels"))
    with pytest.raises(InvalidActionError, match=r"level-1 bot .*action 7.*out of range"):
        game.run("random", 5, None, 1, seed=1)


def test_wrong_agent_signature_fails_at_start(env):
    with pytest.raises(AgentError, match=r"must accept two arguments \(state, agent_data\)"):
        env.run(A.numba_one_arg, 10, np.zeros(1), 0)
    with pytest.raises(AgentError, match="must accept two arguments"):
        env.run(lambda state: 3, 10, None, 0)
    with pytest.raises(AgentError, match="must be a function"):
        env.run(42, 10, None, 0)


def test_agent_not_returning_a_pair(env):
    with pytest.raises(AgentError, match=r"return \(action, agent_data\)"):
        env.run(lambda state, data: 3, 10, None, 0)
    with pytest.raises(AgentError, match=r"numba_no_tuple returned int 3; an agent must return \(action, agent_data\)"):
        env.run(A.numba_no_tuple, 10, np.zeros(1), 0)


@pytest.mark.parametrize("num_games, error", [(0, ValueError), (-5, ValueError), (2.5, TypeError), ("10", TypeError)])
def test_bad_num_games(env, num_games, error):
    with pytest.raises(error, match="num_games must be a positive int"):
        env.run(A.numba_random, num_games, np.zeros(1), 0)


def test_progress_callback_is_called_in_chunks(env, monkeypatch):
    from makeenv.array import runner

    monkeypatch.setattr(runner, "NUMBA_CHUNK", 300)
    calls = []
    env.run("random", 1000, None, 0, seed=1, progress=lambda done, total: calls.append((done, total)))
    done = [d for d, _ in calls]
    assert calls[-1] == (1000, 1000) and {t for _, t in calls} == {1000}
    assert done == sorted(set(done)) and all(b - a <= 300 for a, b in zip([0] + done, done))


def test_chunks_grow_to_a_fraction_of_a_second_and_no_further():
    from makeenv.array import runner

    assert runner.next_chunk(1, 1e-7) == 4  # at most 4x a call
    assert runner.next_chunk(1000, runner.CHUNK_SECONDS / 10) == 4000
    assert runner.next_chunk(1000, runner.CHUNK_SECONDS * 4) == 250  # a slow game: fewer games
    assert runner.next_chunk(1, 30.0) == 1
    assert runner.next_chunk(runner.NUMBA_CHUNK, 1e-6) == runner.NUMBA_CHUNK


def test_chunking_does_not_change_a_seeded_run(env, monkeypatch):
    from makeenv.array import runner

    whole = env.evaluate("random", 5000, None, 1, seed=4)
    monkeypatch.setattr(runner, "NUMBA_CHUNK", 7)
    assert env.evaluate("random", 5000, None, 1, seed=4) == whole


def test_interrupted_run_keeps_the_games_played(env):
    played = []

    def agent(state, data):
        if len(played) == 50:
            raise KeyboardInterrupt
        played.append(1)
        return int(np.flatnonzero(env.getValidActions(state))[0]), data

    with pytest.raises(KeyboardInterrupt) as info:
        env.evaluate(agent, 1000, None, 0, seed=1)
    results = info.value.results
    assert 0 < results.games < 50 and results.wins + results.draws + results.losses == results.games


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_stops_a_slow_run_within_seconds_and_prints_the_partial_results(tmp_path, workers):
    import signal
    import subprocess
    import sys
    import time
    from pathlib import Path

    from tests.support.ctrl_c import start_as_from_a_terminal

    script = Path(sys.executable).with_name("makeenv")
    if not script.is_file():
        pytest.skip("the makeenv console script is not installed beside this Python")
    errors = tmp_path / "stderr.txt"
    # 3,000,000 games show a progress bar: its label on stderr says the games started
    with open(errors, "w") as err:
        process = start_as_from_a_terminal(
            [str(script), "run", "Splendor", "--games", "3000000", "--workers", str(workers)],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
        )
        try:
            deadline = time.monotonic() + 240
            while "playing" not in errors.read_text() and process.poll() is None and time.monotonic() < deadline:
                time.sleep(0.2)
            time.sleep(1.5)
            assert process.poll() is None, errors.read_text()
            sent = time.monotonic()
            process.send_signal(signal.SIGINT)
            output, _ = process.communicate(timeout=30)
            stopped = time.monotonic() - sent
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == 130, errors.read_text()
    # about a second on an idle machine (README); the bound leaves room for a loaded test machine
    assert stopped < 15, f"took {stopped:.1f} s to stop"
    assert "interrupted (Ctrl-C) after" in output and "of 3,000,000 games" in output
    played = int(output.split("interrupted (Ctrl-C) after ")[1].split()[0].replace(",", ""))
    assert played > 0 and "wins: " in output and f" / {played:,}" in output


def test_compiled_modules_are_cached_on_disk(env):
    from makeenv.array import cache, runner

    plan = runner.make_plan(env, A.numba_random, 0)
    assert plan.module.__file__.startswith(str(cache.cache_dir()))
    assert plan.referee.__file__.startswith(str(cache.cache_dir()))

    python = runner.make_plan(env, lambda s, d: (0, d), 0)  # Python agents share the random agent's loops
    assert python.agent_kind == "python" and python.module is runner.make_plan(env, "random", 0).module
    assert python.referee is plan.referee  # one referee per game


def test_a_level_bot_as_the_agent_is_played_by_the_loop_of_the_levels(env):
    """Comparing levels (``env.evaluate(env.bot(2), ..., level=1)``, or ``level=0``) compiles no loop of its own:
    the loop of the game's levels plays the bot in the agent's seat as it plays the opponents, and
    the games are those of the same policy as a user's agent (final turns and memory included:
    the repeater keeps its last choice in its data)."""
    from makeenv.array import runner

    plan = runner.make_plan(env, env.bot(2), 1, agent_data=np.zeros(16))
    assert plan.agent_kind == "bot" and plan.module is runner.make_plan(env, "random", 1).module
    user_copy = njit(env.bot(2).py_func)  # the same policy, as a user's own agent: a loop of its own
    assert runner.make_plan(env, user_copy, 1, agent_data=np.zeros(16)).agent_kind == "user"
    as_bot = env.evaluate(env.bot(2), 3000, np.zeros(16), level=1, seed=7)
    as_user = env.evaluate(user_copy, 3000, np.zeros(16), level=1, seed=7)
    assert (as_bot.wins, as_bot.draws, as_bot.losses) == (as_user.wins, as_user.draws, as_user.losses)
    assert as_bot.total_steps == as_user.total_steps and as_bot.agent_data[0] == as_user.agent_data[0] > 0
    # against level 0 too, the opponents' slots playing the built-in random agent
    plan0 = runner.make_plan(env, env.bot(2), 0, agent_data=np.zeros(16))
    assert plan0.agent_kind == "bot" and plan0.module is plan.module
    as_bot = env.evaluate(env.bot(2), 3000, np.zeros(16), level=0, seed=7)
    as_user = env.evaluate(user_copy, 3000, np.zeros(16), level=0, seed=7)
    assert (as_bot.wins, as_bot.draws, as_bot.losses) == (as_user.wins, as_user.draws, as_user.losses)
    assert as_bot.total_steps == as_user.total_steps and as_bot.agent_data[0] == as_user.agent_data[0] > 0
    # data of another type than the bots': a loop of its own, as for any agent
    assert runner.make_plan(env, env.bot(2), 1, agent_data=None).agent_kind == "user"
    assert runner.make_plan(env, env.bot(2), 0, agent_data=None).agent_kind == "user"


@njit
def first_valid_counting_in_a_tuple(state, data):
    """The first valid action, counting the calls in a tuple."""
    calls, tag = data
    return np.argmax(RPS.getValidActions(state) == 1.0), (calls + 1, tag)


@njit
def first_valid_counting_in_int_rows(state, data):
    data[0, 0] += 1
    return np.argmax(RPS.getValidActions(state) == 1.0), data


def test_an_agent_whose_data_is_not_the_bots_type_plays_against_them(env):
    """The agent's data may be of any type against a game's numba bots (a tuple, a 2-D int array):
    the levels loop shares one call site between the bots' seats and a bot in the agent's seat, and
    a user's agent is typed apart from it."""
    results = env.evaluate(first_valid_counting_in_a_tuple, 200, (0, 2.5), level=1, seed=1)
    assert results.games == 200 and results.agent_data[1] == 2.5
    assert results.agent_data[0] >= 2 * 200  # a move and a final turn a game at least
    rows = env.evaluate(
        first_valid_counting_in_int_rows, 200, np.zeros((2, 2), dtype=np.int64), level=2, seed=1
    ).agent_data
    assert rows.dtype == np.int64 and rows[0, 0] >= 2 * 200 and rows[1].tolist() == [0, 0]


def test_the_random_agents_data_is_kept_whatever_its_type(env):
    """The built-in random agent ignores its data: one compiled loop whatever is passed, and the
    caller's data comes back as it was."""
    from makeenv.array import runner

    for data in (None, 0.5, np.arange(3.0)):
        results = env.evaluate("random", 50, data, level=2, seed=1)
        assert results.agent_data is data
    assert len(runner.make_plan(env, "random", 2).module.n_games.signatures) == 1


def test_numba_agent_changing_data_type_or_returning_an_array(env):
    with pytest.raises(AgentError) as info:
        env.run(A.numba_changes_data_type, 10, np.zeros(1), 0)
    assert "agent_data must keep its type" in str(info.value)
    _no_numba_dump(str(info.value))
    with pytest.raises(AgentError) as info:
        env.run(A.numba_returns_array_action, 10, np.zeros(1), 0)
    assert "an action must be an int" in str(info.value)
    _no_numba_dump(str(info.value))


def test_a_ctrl_c_inside_a_compiled_call_is_raised_as_such():
    from makeenv.array.errors import raise_hidden_interrupt

    hidden = SystemError("CPUDispatcher(...) returned a result with an exception set")
    hidden.__cause__ = KeyboardInterrupt()
    with pytest.raises(KeyboardInterrupt):
        raise_hidden_interrupt(hidden)
    raise_hidden_interrupt(SystemError("another SystemError"))  # anything else is left to the caller
    raise_hidden_interrupt(ValueError("not an interrupt"))


def _lose_a_ctrl_c_in_a_ctypes_callback() -> None:
    """What llvmlite's callbacks do while numba compiles: a Ctrl-C arriving inside a ctypes callback
    raises KeyboardInterrupt there, and ctypes prints it and drops it."""
    import ctypes
    import os
    import signal
    import time

    def callback() -> None:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1.0)  # interrupted here

    ctypes.CFUNCTYPE(None)(callback)()


@pytest.fixture
def ctrl_c_raises():
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # ctypes' "Exception ignored"
def test_keeping_ctrl_c_raises_the_ctrl_c_a_ctypes_callback_lost(ctrl_c_raises):
    import signal

    from makeenv.array.runner import keeping_ctrl_c

    _lose_a_ctrl_c_in_a_ctypes_callback()  # without it, the Ctrl-C is gone: no KeyboardInterrupt here
    with pytest.raises(KeyboardInterrupt):
        with keeping_ctrl_c() as stop_if_interrupted:
            _lose_a_ctrl_c_in_a_ctypes_callback()
            with pytest.raises(KeyboardInterrupt):
                stop_if_interrupted()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back
    with pytest.raises(KeyboardInterrupt):  # an error that follows a lost Ctrl-C becomes the Ctrl-C
        with keeping_ctrl_c():
            _lose_a_ctrl_c_in_a_ctypes_callback()
            raise RuntimeError("no compiled object yet")
    with keeping_ctrl_c() as stop_if_interrupted:  # no Ctrl-C: nothing raised
        stop_if_interrupted()
