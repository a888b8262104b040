"""Splendor's other action encodings: ``actions="compact"`` (42 positional actions, vis/ENV's
Splendor_v2) and ``actions="macro"`` (15 target cards, a fixed heuristic plays the turn; vis/ENV's
Splendor_v3). Both drive logic.py's 194-action game, which these tests replay."""

from __future__ import annotations

import re

import numpy as np
import pytest
from numba import njit

import makeenv
from makeenv.array.check import check_env
from makeenv.array.readme import layout_problems
from makeenv.games.splendor import compact as C
from makeenv.games.splendor import logic as L
from makeenv.games.splendor import macro as M

# vis/ENV's own env.py (Splendor_v2 and Splendor_v3, a local export of the library), four random
# seats (bot_lv0's uniform pick) in a compiled loop like its one_game_numba: 20,000 games after
# np.random.seed(12345), counting the actions applied until checkEnded reports a winner or 400
# turns pass, and the seat checkEnded names.
VIS_V2_MEAN_STEPS = 317.19  # sd 31.1
VIS_V2_SEAT_WINS = (0.2681, 0.2596, 0.2400, 0.2323)
VIS_V3_MEAN_STEPS = 132.21  # sd 7.2
VIS_V3_SEAT_WINS = (0.2409, 0.2470, 0.2540, 0.2582)


@njit
def seed_numba(seed):
    np.random.seed(seed)


def full_state(env):
    return L.getAgentState(env)


# ---- options ---------------------------------------------------------------------------------------


def test_the_encodings_are_options_of_one_game():
    full, compact, macro = (makeenv.make("Splendor", actions=a) for a in ("full", "compact", "macro"))
    assert makeenv.make("Splendor").variant == {"actions": "full"}
    assert (full.getActionSize(), compact.getActionSize(), macro.getActionSize()) == (194, 42, 15)
    assert compact.name == macro.name == "Splendor" and compact.variant == {"actions": "compact"}
    assert compact.getStateSize() == macro.getStateSize() == full.getStateSize()
    assert "actions='macro'" in repr(macro) and macro.rebuild_args()[1]["actions"] == "macro"
    three = makeenv.make("Splendor", players=3, actions="compact")
    assert three.players == 3 and three.initEnv()[L.E_PLAYERS] == 3
    assert makeenv.make("Splendor-text", actions="macro").game.variant == {"actions": "macro"}


@pytest.mark.parametrize("value", ["compat", 42, None])
def test_a_bad_encoding_is_refused_by_name_with_the_choices(value):
    with pytest.raises(
        ValueError, match=r"Splendor: actions=.* is not supported; choose one of 'full', 'compact', 'macro'"
    ):
        makeenv.make("Splendor", actions=value)


def test_a_game_without_variants_refuses_the_option():
    with pytest.raises(TypeError, match=r"unknown option\(s\) actions"):
        makeenv.make("TicTacToe", actions="compact")


def test_the_readme_documents_each_encoding_under_its_own_heading():
    env = makeenv.make("Splendor", actions="compact")
    assert layout_problems(env.readme, 42, L.STATE_SIZE, {"actions": "compact"}) == []
    assert layout_problems(env.readme, 15, L.STATE_SIZE, {"actions": "macro"}) == []
    assert layout_problems(env.readme, 194, L.STATE_SIZE, {"actions": "full"}) == []
    broken = env.readme.replace("getActionSize() == 42", "getActionSize() == 40")
    problems = layout_problems(broken, 42, L.STATE_SIZE, {"actions": "compact"})
    assert problems and "getActionSize() == 40" in problems[0]
    # a variant's heading is not read for another variant
    assert layout_problems(broken, 194, L.STATE_SIZE, {"actions": "full"}) == []


@pytest.mark.slow
@pytest.mark.parametrize("actions", ["compact", "macro"])
def test_check_passes(actions):
    ok, problems = check_env(makeenv.make("Splendor", actions=actions), run_games=40, trace_games=12, level_games=2)
    assert ok, problems


# ---- compact: the same game, named by position ------------------------------------------------------------


def test_compact_actions_replay_random_full_games_exactly():
    rng = np.random.default_rng(4)
    for game in range(3):
        seed_numba(100 + game)
        env = L.initEnv(4)
        twin = env.copy()
        steps = 0
        while L.checkEnded(env) < 0:
            state = full_state(env)
            valid = L.getValidActions(state)
            compact_valid = C.getValidActions(state)
            # every valid compact action is a valid full action, and each valid full action has one
            mapped = {C.to_full(a, C.state_card(state, C.slot_of(a))) for a in np.flatnonzero(compact_valid)}
            assert mapped == set(np.flatnonzero(valid).tolist())
            action = int(rng.choice(np.flatnonzero(valid)))
            short = C.from_full(state, action)
            assert compact_valid[short] == 1.0 and C.isValidAction(state, short)
            assert C.to_full(short, C.state_card(state, C.slot_of(short))) == action
            seed_numba(steps)
            L.stepEnv(action, env)
            seed_numba(steps)
            C.stepEnv(short, twin)
            np.testing.assert_array_equal(env, twin)
            steps += 1
        assert steps > 100


def test_compact_refuses_what_the_full_game_refuses():
    seed_numba(1)
    env = L.initEnv(4)
    state = full_state(env)
    assert not C.isValidAction(state, C.C_RETURN_GOLD) and not C.isValidAction(state, 42)
    assert not C.isValidAction(state, C.C_PASS)  # something else is possible
    assert not C.isValidAction(state, C.C_BUY_RESERVED)  # nothing reserved yet
    before = env.copy()
    C.stepEnv(C.C_BUY_RESERVED, env)  # an empty position changes nothing
    np.testing.assert_array_equal(env, before)


# ---- macro: a turn is the sequence of full actions the heuristic chose ---------------------------------


def test_a_macro_turn_replays_as_valid_full_actions():
    rng = np.random.default_rng(8)
    kinds = set()
    for game in range(4):
        seed_numba(200 + game)
        env = L.initEnv(4)
        turns = 0
        while L.checkEnded(env) < 0:
            state = full_state(env)
            action = int(rng.choice(np.flatnonzero(M.getValidActions(state))))
            replay, player, turn = env.copy(), L.getCurrentPlayer(env), env[L.E_TURN]
            seed_numba(turns)
            kinds.add(int(M.plan_turn(action, env.copy())[0]))
            seed_numba(turns)
            record = np.zeros(M.MAX_TURN_ACTIONS, dtype=np.int64)
            M.play_turn(action, env, record)
            count = int(record[0])
            assert 1 <= count < M.MAX_TURN_ACTIONS
            seed_numba(turns)
            M.plan_turn(action, replay)  # the same random picks as the turn had
            for k, full in enumerate(record[1 : count + 1]):
                assert L.getCurrentPlayer(replay) == player and replay[L.E_TURN] == turn, "the turn ended early"
                assert L.isValidAction(full_state(replay), int(full)), (k, full, record[: count + 1])
                L.stepEnv(int(full), replay)
            np.testing.assert_array_equal(env, replay)
            assert env[L.E_TURN] == turn + 1  # exactly one turn was played
            turns += 1
        assert turns > 40
    assert {M.BUY, M.RESERVE, M.TAKE} <= kinds


def test_the_heuristic_buys_an_affordable_target_and_reserves_an_unreachable_one():
    seed_numba(3)
    env = L.initEnv(4)
    seat = L.E_SEAT  # player 0 is to move
    card = int(env[L.E_BOARD])
    for c in range(5):
        env[seat + L.P_TOKENS + c] = L.CARD_COST[card, c]
        env[L.E_BANK + c] -= L.CARD_COST[card, c]
    assert M.plan_turn(0, env)[:2] == (M.BUY, card)
    M.stepEnv(0, env)
    assert env[L.E_CARD + card] == L.BOUGHT and env[L.E_TURN] == 1
    # nine tokens (too many to take more), none of them enough, and a level-3 target: reserve it
    seed_numba(4)
    env = L.initEnv(4)
    target = int(env[L.E_BOARD + 8])
    for c in range(5):
        env[seat + L.P_TOKENS + c] = 0.0
    free = [c for c in range(5) if L.CARD_COST[target, c] == 0]
    env[seat + L.P_TOKENS + free[0]] = 5.0
    env[L.E_BANK + free[0]] -= 5.0
    env[seat + L.P_TOKENS + L.GOLD] = 4.0
    env[L.E_BANK + L.GOLD] -= 4.0
    assert M.plan_turn(8, env)[:2] == (M.RESERVE, target)
    M.stepEnv(8, env)
    assert env[L.E_CARD + target] == L.RESERVED and env[seat + L.P_TOKENS + L.GOLD] == 5.0


@pytest.mark.parametrize("actions", ["compact", "macro"])
def test_the_picture_clicks_only_valid_actions_of_the_encoding(actions):
    env = makeenv.make("Splendor", actions=actions)
    match = env.new_match(seed=3)
    clicked = 0
    for _ in range(30):
        state = match.state()
        valid = env.getValidActions(state)
        shown = {int(a) for a in re.findall(r'data-action="(\d+)"', env.render(state))}
        assert all(valid[a] == 1.0 for a in shown), (shown, np.flatnonzero(valid))
        clicked += len(shown)
        match.step(int(np.flatnonzero(valid)[0]))
    assert clicked > 30
    assert "Positions:" in env.describe_state(state) or "Targets:" in env.describe_state(state)


# ---- random play compared with vis/ENV -----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("actions", "mean_steps", "seat_wins"),
    [("compact", VIS_V2_MEAN_STEPS, VIS_V2_SEAT_WINS), ("macro", VIS_V3_MEAN_STEPS, VIS_V3_SEAT_WINS)],
)
def test_random_play_agrees_with_vis_env(actions, mean_steps, seat_wins):
    results = makeenv.make("Splendor", actions=actions).evaluate("random", 4000, seed=7)
    assert abs(results.mean_steps - mean_steps) < 0.03 * mean_steps
    for k, seat in enumerate(results.by_seat):
        # about 1,000 games per seat: standard error about 0.014
        assert abs(seat.win_rate - seat_wins[k]) < 0.05, (k, seat.win_rate)


@pytest.mark.parametrize("actions", ["compact", "macro"])
def test_greedy_bots_still_beat_random_play(actions):
    results = makeenv.make("Splendor", actions=actions).evaluate("random", 60, level=1, seed=5)
    assert results.wins < 60 * 0.12
