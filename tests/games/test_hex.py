"""Hex: the contract, the rules replayed against OpenSpiel, the bots, the drawings."""

from __future__ import annotations

import heapq
import math
import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import makeenv
from makeenv.games.hex import bots as B
from makeenv.games.hex import draw as D
from makeenv.games.hex import logic as L
from makeenv.learn.imitate import forward
from makeenv.learn.policy import load_weights
from tests.games.support import clickable_actions

pyspiel = pytest.importorskip("pyspiel")

GAME = pyspiel.load_game("hex")
ENV = makeenv.make("Hex")


def test_sizes():
    """The layout sizes (the contract itself: tests/games/test_every_game.py)."""
    assert (ENV.getActionSize(), ENV.getStateSize(), ENV.getAgentSize()) == (121, 128, 2)


def test_openspiel_defaults():
    """The rules we follow: OpenSpiel's default hex is 11x11 without the swap rule."""
    params = GAME.get_parameters()
    assert (params["num_rows"], params["num_cols"], params["swap"]) == (11, 11, False)
    assert GAME.num_distinct_actions() == L.NUM_CELLS


# ---- the same games as OpenSpiel ---------------------------------------------------------------


def random_position(rng: random.Random, moves: int) -> np.ndarray:
    """The env after up to ``moves`` random stones (stops early at the end of the game)."""
    env = L.initEnv()
    for _ in range(moves):
        if L.checkEnded(env) != -1:
            break
        L.stepEnv(int(rng.choice(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
    return env


def test_which_diagonal_joins():
    """Cell (r, c) touches (r + 1, c - 1), not (r + 1, c + 1): Black's eleven stones on the diagonal
    k1..a11 win, on the diagonal a1..k11 they do not. Checked in both implementations."""
    white = list(range(1, 10)) + [10 * 11 + 1]  # b1..j1 and b11: never joins left to right
    for diagonal, black_wins in (([r * 11 + 10 - r for r in range(11)], True), ([r * 12 for r in range(11)], False)):
        os_state, env = GAME.new_initial_state(), L.initEnv()
        for move in range(11):
            for cell in [diagonal[move]] + ([white[move]] if move < 10 else []):
                os_state.apply_action(cell)
                L.stepEnv(cell, env)
        assert os_state.is_terminal() == black_wins == (L.checkEnded(env) == 0)
        assert L.checkEnded(env) == (0 if black_wins else -1)


def test_illegal_moves_leave_the_env_unchanged():
    env = random_position(random.Random(1), 10)
    before = env.copy()
    occupied = int(np.flatnonzero(env[:121])[0])
    for action in (-1, 121, occupied):
        L.stepEnv(action, env)
        np.testing.assert_array_equal(env, before)


def test_sample_env_rebuilds_the_env():
    """The rebuilt union-find may link stones differently, but groups and everything else agree."""
    rng = random.Random(3)
    for _ in range(200):
        env = random_position(rng, rng.randrange(0, 121))
        for seat in (0, 1):
            state = L.getPlayerState(env, seat)
            if state[L.S_MY_TURN] or state[L.S_OVER]:
                rebuilt = L.sampleEnv(state)
                if state[L.S_OVER]:  # a finished game's state does not say whose turn it was
                    rebuilt[L.E_PLAYER] = env[L.E_PLAYER]
                parent = slice(L.E_PARENT, L.E_PARENT + L.NUM_NODES)
                np.testing.assert_array_equal(np.delete(rebuilt, np.r_[parent]), np.delete(env, np.r_[parent]))
                assert groups(rebuilt) == groups(env)


def groups(env: np.ndarray) -> set[frozenset[int]]:
    """The union-find's groups as sets of nodes."""
    parent = env[L.E_PARENT : L.E_PARENT + L.NUM_NODES]
    by_root: dict[int, set[int]] = {}
    for node in range(L.NUM_NODES):
        root = L.find(parent.copy(), node)
        by_root.setdefault(root, set()).add(node)
    return {frozenset(g) for g in by_root.values()}


def test_random_play_matches_openspiel():
    """Uniform random play: the same outcome distribution and game length as OpenSpiel's."""
    results = ENV.evaluate("random", 20_000, seed=1)
    first, second = results.by_seat
    ours = np.array([first.wins / first.games, second.wins / second.games])
    assert results.draws == 0
    rng = random.Random(1)
    counts, moves = np.zeros(2), 0
    for _ in range(1_000):
        state = GAME.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        counts[0 if state.returns()[0] > 0 else 1] += 1
    np.testing.assert_allclose(ours, counts / 1_000, atol=0.07)  # about 4.5 standard errors
    np.testing.assert_allclose(ours, [0.523, 0.477], atol=0.03)  # OpenSpiel, 3 * 10^5 games
    assert abs(results.mean_steps - moves / 1_000) < 1.6 and abs(results.mean_steps - 107.51) < 0.35


# ---- the bots ------------------------------------------------------------------------------------


def test_a_filled_board_names_the_first_to_connect():
    """The playouts' shortcut: filling the empty cells in turn and looking at the full board gives
    the winner that playing the same stones one by one (the rules) gives."""
    rng = random.Random(4)
    for _ in range(300):
        env = random_position(rng, rng.randrange(0, 60))
        if L.checkEnded(env) != -1:
            continue
        filled = env.copy()
        winner = B.fill_playout(filled, np.empty(121, np.int64), np.empty(121, np.int64), np.empty(121, np.bool_))
        mover = int(env[L.E_PLAYER])
        order = [c for c in range(121) if env[c] == L.EMPTY]
        # the stones the playout put down, in the order it put them: alternate colours from the mover
        mine = [c for c in order if filled[c] == L.BLACK_STONE + mover]
        theirs = [c for c in order if filled[c] != L.BLACK_STONE + mover]
        stepped = env.copy()
        for a, b in zip(mine, theirs + [None]):
            for cell in (a, b):
                if cell is not None and L.checkEnded(stepped) == -1:
                    L.stepEnv(cell, stepped)
        assert L.checkEnded(stepped) == winner


def test_shortest_path_distance():
    """edge_distance counts the empty cells a player still needs, walking around the opponent."""
    queue, dist = np.empty(2 * 121 + 1, np.int64), np.empty(121, np.int64)
    board = np.zeros(121)
    assert B.edge_distance(board, 0, queue, dist) == 11 and B.edge_distance(board, 1, queue, dist) == 11
    for row in range(11):
        if row != 4:
            board[row * 11 + 3] = L.BLACK_STONE  # column d but d5
    assert B.edge_distance(board, 0, queue, dist) == 1
    board[4 * 11 + 3] = L.WHITE_STONE  # White on d5: Black goes round through two cells
    assert B.edge_distance(board, 0, queue, dist) == 2
    assert B.edge_distance(board, 1, queue, dist) == 10  # White crosses on row 5 through its own d5
    board[4 * 11 : 5 * 11] = L.WHITE_STONE  # all of row 5: White has joined, Black is cut off
    assert B.edge_distance(board, 1, queue, dist) == 0 and B.edge_distance(board, 0, queue, dist) == B.FAR


def test_bots_win_and_block():
    # Black to move, one stone from joining (d8): every bot takes it
    env = L.initEnv()
    black = [r * 11 + 3 for r in range(11) if r != 7]
    white = [r * 11 + 9 for r in range(10)]
    for b, w in zip(black, white):
        L.stepEnv(b, env)
        L.stepEnv(w, env)
    assert L.checkEnded(env) == -1 and L.getCurrentPlayer(env) == 0
    learned_data = B.LEVELS[2].initial_data()
    for bot, data in ((B.shortest_path, np.zeros(16)), (B.learned, learned_data), (B.mcts, np.zeros(16))):
        action, _ = bot(L.getAgentState(env), data)
        child = L.stepEnv(action, env.copy())
        assert L.checkEnded(child) == 0
    # White to move, Black one stone (d8) from joining: the learned bot blocks it
    env = L.initEnv()
    for b, w in zip(black, [r * 11 + 9 for r in range(9)] + [5]):
        L.stepEnv(b, env)
        L.stepEnv(w, env)
    L.stepEnv(120, env)
    assert L.getCurrentPlayer(env) == 1
    assert B.learned(L.getAgentState(env), learned_data)[0] == 7 * 11 + 3


def test_levels_beat_random():
    level1 = ENV.evaluate("random", 200, level=1, seed=3)
    level2 = ENV.evaluate("random", 1000, level=2, seed=3)
    level3 = ENV.evaluate("random", 10, level=3, seed=3)
    assert level1.win_rate < 0.03  # measured: 0 of 10,000
    assert level2.win_rate < 0.01  # measured: 0 of 20,000
    assert level3.win_rate < 0.2  # measured: 0 of 100


@pytest.mark.slow
def test_level3_beats_level1():
    results = ENV.evaluate(ENV.bot(3), 20, np.zeros(16), level=1, seed=4)
    assert results.win_rate >= 0.7  # measured: 94% of 100


# ---- level 2: the learned network and its view of the board -------------------------------------


def reference_distances(board: np.ndarray, stone: float, side: int) -> list[float]:
    """Dijkstra's distances from edge ``side`` (0 top, 1 bottom, 2 left, 3 right): the empty cells
    (the cell's own included) ``stone``'s player must fill; inf through the other stones."""
    dist = [math.inf] * 121
    queue: list[tuple[float, int]] = []
    for i in range(11):
        cell = (i, 110 + i, 11 * i, 11 * i + 10)[side]
        if board[cell] in (0.0, stone):
            dist[cell] = float(board[cell] == 0.0)
            heapq.heappush(queue, (dist[cell], cell))
    while queue:
        d, cell = heapq.heappop(queue)
        if d == dist[cell]:
            for other in L.NEIGHBOURS[cell]:
                if other >= 0 and board[other] in (0.0, stone) and d + (board[other] == 0.0) < dist[other]:
                    dist[other] = d + (board[other] == 0.0)
                    heapq.heappush(queue, (dist[other], other))
    return dist


def test_the_view_marks_the_shortest_paths_of_a_plain_search():
    """The bit-set searches of policy_view agree with Dijkstra's, cell by cell, and White's board is
    seen mirrored (so that every player joins top to bottom)."""
    rng = random.Random(5)
    checked = 0
    while checked < 60:
        env = random_position(rng, rng.randrange(0, 100))
        if L.checkEnded(env) != -1:
            continue
        state = L.getAgentState(env)
        seen, actions = B.policy_view(state)
        board = state[:121][actions]  # the board as the view shows it
        planes = seen[: B.PLANES * 121].reshape(B.PLANES, 121)
        np.testing.assert_array_equal(planes[B.P_MINE], board == L.MINE)
        np.testing.assert_array_equal(planes[B.P_THEIRS], board == L.THEIRS)
        for stone, (one, two), path, near, length in (
            (L.MINE, (0, 1), B.P_MY_PATH, B.P_MY_NEAR, B.V_MY_DISTANCE),
            (L.THEIRS, (2, 3), B.P_THEIR_PATH, B.P_THEIR_NEAR, B.V_THEIR_DISTANCE),
        ):
            first, second = reference_distances(board, stone, one), reference_distances(board, stone, two)
            far = range(110, 121) if two == 1 else range(10, 121, 11)
            best = min(first[c] for c in far)
            through = np.array([first[c] + second[c] - 1 if board[c] == 0 else math.inf for c in range(121)])
            np.testing.assert_array_equal(planes[path], through == best)
            np.testing.assert_array_equal(planes[near], through == best + 1)
            assert seen[length] == min(best, 22)
        assert seen[B.V_MOVES] == state[L.S_MOVES]
        checked += 1


def test_the_view_saves_a_broken_bridge():
    """Black's c3 and d4 make a bridge over c4 and d3; White takes d3: c4 is the saving cell. A stone
    on row 2 bridges to the top edge over two cells of row 1 in the same way."""
    env = L.initEnv()
    for cell in (2 * 11 + 2, 3 * 11 + 8, 3 * 11 + 3, 2 * 11 + 3):  # c3, i4, d4, then White d3
        L.stepEnv(cell, env)
    seen, _ = B.policy_view(L.getAgentState(env))
    assert np.flatnonzero(seen[B.P_SAVE * 121 : (B.P_SAVE + 1) * 121]).tolist() == [3 * 11 + 2]
    assert np.flatnonzero(seen[B.P_LAST * 121 : (B.P_LAST + 1) * 121]).tolist() == [2 * 11 + 3]
    env = L.initEnv()
    for cell in (1 * 11 + 5, 60, 100, 5):  # Black f2, White f6, Black b10, White f1: g1 saves f2
        L.stepEnv(cell, env)
    seen, _ = B.policy_view(L.getAgentState(env))
    assert np.flatnonzero(seen[B.P_SAVE * 121 : (B.P_SAVE + 1) * 121]).tolist() == [6]


def test_the_learned_level_loads_and_plays_from_its_own_state():
    assert list(ENV.levels) == [0, 1, 2, 3]
    bot = ENV.opponents(2)[0]
    assert bot.policy is B.learned and bot.data.size > B.SCRATCH + B.VIEW_SIZE * 16 // 2  # 16+ units
    data = bot.initial_data()
    rng = random.Random(7)
    for _ in range(60):
        env = random_position(rng, rng.randrange(0, 100))
        if L.checkEnded(env) != -1:
            continue
        state = L.getAgentState(env)
        action, data = B.learned(state, data)
        assert L.getValidActions(state)[action] == 1.0
        assert B.learned(state.copy(), bot.initial_data())[0] == action  # no memory: the same move
        # the same position turned for the other colour: the same move, turned
        turned = L.initEnv()
        for cell in np.flatnonzero(env[:121]):
            stone = 3.0 - env[cell]
            L.place_stone(turned, (cell % 11) * 11 + cell // 11, int(stone) - 1)
        turned[L.E_PLAYER], turned[L.E_MOVES] = 1 - env[L.E_PLAYER], env[L.E_MOVES]
        turned[L.E_LAST] = -1.0 if env[L.E_LAST] < 0 else (env[L.E_LAST] % 11) * 11 + env[L.E_LAST] // 11
        other = L.getAgentState(turned)
        np.testing.assert_array_equal(B.policy_view(other)[0], B.policy_view(state)[0])
        assert B.learned(other, data)[0] == (action % 11) * 11 + action // 11


def test_the_learned_level_plays_what_a_numpy_forward_pass_scores_highest():
    layers, _ = load_weights(B.WEIGHTS_FILE)
    data = B.LEVELS[2].initial_data()
    rng = random.Random(8)
    checked = exact = 0
    while checked < 100:
        env = random_position(rng, rng.randrange(0, 60))
        if L.checkEnded(env) != -1:
            continue
        state = L.getAgentState(env)
        seen, actions = B.policy_view(state)
        if seen[B.V_MY_DISTANCE] == 1.0 or seen[B.V_THEIR_DISTANCE] == 1.0:
            continue  # a win or a block at once: chosen among fewer cells
        scores = forward(layers, seen[None], (state[:121][actions] == 0.0)[None])[1][0]
        action = actions[B.learned(state, data)[0]]  # the view's cell of the game's
        best = scores.max()
        assert scores[action] >= best - 1e-4 * (1.0 + abs(best))  # float32 sums: near-ties may differ
        checked += 1
        exact += action == int(np.argmax(scores))
    assert exact >= checked - 2


def test_the_learned_level_beats_level1_in_both_seats():
    bot = ENV.opponents(2)[0]
    results = ENV.evaluate(bot.policy, 40, bot.initial_data(), level=1, seed=6)
    assert min(seat.win_rate for seat in results.by_seat) >= 0.8  # measured: 100% of 20,000 in each seat


# ---- drawings and words --------------------------------------------------------------------------


def test_render_and_descriptions_along_random_games():
    rng = random.Random(9)
    for _ in range(3):
        env = L.initEnv()
        while True:
            for seat in (0, 1):
                state = L.getPlayerState(env, seat)
                svg = ET.fromstring(D.render(state))
                clickable = clickable_actions(svg)
                expected = np.flatnonzero(L.getValidActions(state)).tolist() if state[L.S_MY_TURN] else []
                assert clickable == expected
                rows = [line for line in D.describe_state(state).splitlines() if line[:3].strip().isdigit()]
                assert len(rows) == 11
                assert sum(row[4:].count("X") for row in rows) == (state[:121] == 1.0).sum()
                assert sum(row[4:].count("O") for row in rows) == (state[:121] == 2.0).sum()
            if L.checkEnded(env) != -1:
                break
            L.stepEnv(int(rng.choice(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
        winner = L.checkEnded(env)
        won = D.render(L.getPlayerState(env, winner))
        assert "You won!" in won and 'stroke-width="3.5"' in won  # the winning chain is ringed
        assert "Game over: you lost." in D.describe_state(L.getPlayerState(env, 1 - winner))
    assert [D.describe_action(a) for a in (0, 60, 120)] == [
        "Place a stone on a1 (column a, row 1)",
        "Place a stone on f6 (column f, row 6)",
        "Place a stone on k11 (column k, row 11)",
    ]
    assert "Unknown" in D.describe_action(121)
    with pytest.raises(ValueError, match="length 128"):
        D.render(np.zeros(5))


def test_cell_names_are_openspiels():
    state = GAME.new_initial_state()
    assert [D.cell_name(a) for a in range(121)] == [state.action_to_string(0, a) for a in range(121)]
