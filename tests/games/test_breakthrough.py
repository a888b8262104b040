"""Breakthrough: the contract, the rules replayed against OpenSpiel, the bots, the drawings."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import makeenv
from makeenv.games.breakthrough import bots as B
from makeenv.games.breakthrough import draw as D
from makeenv.games.breakthrough import logic as L
from makeenv.learn.imitate import forward
from makeenv.learn.policy import load_weights
from tests.games.support import clickable_actions, openspiel_random_outcomes

pyspiel = pytest.importorskip("pyspiel")

GAME = pyspiel.load_game("breakthrough")
ENV = makeenv.make("Breakthrough")


def test_sizes():
    """The layout sizes (the contract itself: tests/games/test_every_game.py)."""
    assert (ENV.getActionSize(), ENV.getStateSize(), ENV.getAgentSize()) == (192, 74, 2)


# ---- the same games as OpenSpiel ---------------------------------------------------------------


def random_position(rng: random.Random, moves: int) -> np.ndarray:
    """The env after up to ``moves`` random moves (stops early at the end of the game)."""
    env = L.initEnv()
    for _ in range(moves):
        if L.checkEnded(env) != -1:
            break
        L.stepEnv(int(rng.choice(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
    return env


def test_capturing_the_last_piece_wins():
    """OpenSpiel's second way to win (its IsTerminal and Returns): White takes Black's last piece.
    OpenSpiel cannot start from a set-up position, so this one is checked on ours alone."""
    env = L.initEnv()
    env[L.E_BOARD : L.E_BOARD + 64] = L.EMPTY
    env[L.E_BOARD + 3 * 8 + 3] = L.BLACK_PIECE  # d5
    env[L.E_BOARD + 4 * 8 + 4] = L.WHITE_PIECE  # e4
    env[L.E_BOARD + 7 * 8 + 0] = L.WHITE_PIECE  # a1
    env[L.E_PIECES], env[L.E_PIECES + 1], env[L.E_PLAYER] = 1.0, 2.0, 1.0
    take = 4 * 8 + 4  # e4 takes d5: towards file a
    assert L.isValidAction(L.getAgentState(env), take * 3 + 0)
    L.stepEnv(take * 3 + 0, env)
    assert L.checkEnded(env) == 1 and env[L.E_PIECES] == 0.0
    assert L.getReward(L.getPlayerState(env, 1)) == 1 and L.getReward(L.getPlayerState(env, 0)) == 0


def test_illegal_steps_leave_the_env_unchanged():
    env = L.initEnv()
    before = env.copy()
    for action in (-1, 192, 0, 1, 3 * 8 * 3 + 1, 6 * 8 * 3 + 1):  # off range, Black's back row blocked, White's pieces
        L.stepEnv(action, env)
        np.testing.assert_array_equal(env, before)


def test_sample_env_rebuilds_the_env():
    rng = random.Random(3)
    for _ in range(300):
        env = random_position(rng, rng.randrange(0, 90))
        for seat in (0, 1):
            state = L.getPlayerState(env, seat)
            if state[L.S_MY_TURN] or state[L.S_OVER]:
                rebuilt = L.sampleEnv(state)
                if state[L.S_OVER]:  # a finished game's state does not say whose turn it was
                    rebuilt[L.E_PLAYER] = env[L.E_PLAYER]
                np.testing.assert_array_equal(rebuilt, env)


def test_random_play_matches_openspiel():
    """Uniform random play: the same outcome distribution and game length as OpenSpiel's."""
    results = ENV.evaluate("random", 20_000, seed=1)
    first, second = results.by_seat
    ours = np.array([first.wins / first.games, second.wins / second.games])
    assert results.draws == 0
    theirs, their_length = openspiel_random_outcomes(GAME, 2_000, seed=1)
    np.testing.assert_allclose(ours, theirs[:2], atol=0.05)  # about 4.5 standard errors (no draws)
    np.testing.assert_allclose(ours, [0.511, 0.489], atol=0.03)  # OpenSpiel, 10^5 games
    assert abs(results.mean_steps - their_length) < 1.6 and abs(results.mean_steps - 64.13) < 0.5


# ---- the bots ------------------------------------------------------------------------------------


def test_evaluation_is_the_same_for_both_sides():
    """evaluate(env, 0) == -evaluate(env, 1): one score, seen from either side."""
    rng = random.Random(5)
    for _ in range(200):
        env = random_position(rng, rng.randrange(0, 80))
        assert B.evaluate(env, 0) == pytest.approx(-B.evaluate(env, 1))


def position(black: list[str], white: list[str], to_move: int) -> np.ndarray:
    """An env with pieces on the named squares ("e4") and ``to_move`` to play."""
    env = L.initEnv()
    env[L.E_BOARD : L.E_BOARD + 64] = L.EMPTY
    for names, piece in ((black, L.BLACK_PIECE), (white, L.WHITE_PIECE)):
        for name in names:
            env[L.E_BOARD + (8 - int(name[1])) * 8 + ord(name[0]) - ord("a")] = piece
    env[L.E_PIECES], env[L.E_PIECES + 1], env[L.E_PLAYER] = len(black), len(white), to_move
    return env


def test_bots_win_and_stop_a_breakthrough():
    learned = B.LEVELS[2]
    # White to move can step onto rank 8 (b7-b8) and win
    env = position(["a8", "h8", "c4"], ["b7", "a1", "h2"], to_move=1)
    for bot, data in ((B.greedy, np.zeros(16)), (B.mcts, np.zeros(16)), (learned.policy, learned.initial_data())):
        action, _ = bot(L.getAgentState(env), data)
        assert L.TARGET[1, action] // 8 == 0
    # Black to move: White's b7 reaches rank 8 next move unless a8 takes it
    env = position(["a8", "h8", "d5"], ["b7", "a1", "h2"], to_move=0)
    for bot, data in ((B.greedy, np.zeros(16)), (B.mcts, np.zeros(16)), (learned.policy, learned.initial_data())):
        action, _ = bot(L.getAgentState(env), data)
        assert D.move_name(action, 0, L.getAgentState(env)[:64]) == "a8xb7"


def test_levels_beat_random():
    level1 = ENV.evaluate("random", 300, level=1, seed=3)
    level2 = ENV.evaluate("random", 1000, level=2, seed=3)
    level3 = ENV.evaluate("random", 30, level=3, seed=3)
    assert level1.win_rate < 0.03  # measured: 0 of 1,000
    assert level2.win_rate < 0.01  # measured: 0 of 10,000
    assert level3.win_rate < 0.1  # measured: 0 of 200


@pytest.mark.slow
def test_level3_beats_level1():
    results = ENV.evaluate(ENV.bot(3), 40, np.zeros(16), level=1, seed=4)
    assert results.win_rate >= 0.65  # measured: 85% of 400


def test_level3_budget_and_visit_shares():
    """data[0] sets level 3's simulations; mcts_shares gives its move and each move's share of them."""
    state = L.getAgentState(L.initEnv())
    action, shares = B.mcts_shares(state)
    assert action == B.mcts(state, np.zeros(16))[0]  # the same search (it draws no random numbers)
    assert shares.sum() == pytest.approx(1.0) and shares[action] == shares.max()
    assert np.all(shares[L.getValidActions(state) == 0.0] == 0.0)
    one = np.empty(192)
    first = B.search(state, 1, one)  # one simulation: one move gets it
    assert one.max() == 1.0 and one.sum() == 1.0 and one[first] == 1.0
    assert B.mcts(state, np.array([1.0]))[0] == first  # data[0] is the budget


# ---- level 2: the learned network, its view of the board and its rules ---------------------------


def reference_view(state: np.ndarray) -> np.ndarray:
    """policy_view's planes square by square: the board turned so that I move up, then the squares
    the opponent attacks and the squares I attack."""
    flip = 0 if state[L.S_WHITE] == 1.0 else 56
    board = np.array([state[s ^ flip] for s in range(64)])
    planes = np.zeros((4, 64))
    for s in range(64):
        row, col = divmod(s, 8)
        planes[0, s], planes[1, s] = board[s] == L.MINE, board[s] == L.THEIRS
        for dc in (-1, 1):
            if 0 <= col + dc < 8:
                if row - 1 >= 0 and board[(row - 1) * 8 + col + dc] == L.THEIRS:
                    planes[2, s] = 1.0  # an opponent's piece above (it moves down), one file off, takes here
                if row + 1 < 8 and board[(row + 1) * 8 + col + dc] == L.MINE:
                    planes[3, s] = 1.0  # a piece of mine below (I move up), one file off
    return planes.ravel()


def test_the_view_turns_the_board_and_marks_the_attacked_squares():
    rng = random.Random(5)
    checked = 0
    while checked < 100:
        env = random_position(rng, rng.randrange(0, 80))
        if L.checkEnded(env) != -1:
            continue
        state = L.getAgentState(env)
        seen, actions = B.policy_view(state)
        assert sorted(actions.tolist()) == list(range(192))
        np.testing.assert_array_equal(seen, reference_view(state))
        valid = np.empty(192)
        B.fill_view(state, np.empty(B.VIEW_SIZE), valid)
        np.testing.assert_array_equal(valid, L.getValidActions(state)[actions])
        checked += 1


def rules_moves(state: np.ndarray) -> list[int]:
    """The game's moves level 2's rules leave to its network (none when one wins at once)."""
    seen, actions = np.empty(B.VIEW_SIZE), B.policy_view(state)[1]
    valid = np.empty(192)
    mine, theirs = B.fill_view(state, seen, valid)
    if B.filter_moves(np.uint64(mine), np.uint64(theirs), valid) >= 0:
        return []
    return sorted(actions[np.flatnonzero(valid == 1.0)].tolist())


def test_the_rules_keep_the_moves_that_lose_least_material():
    # White to move: d4 can take e5, which f6 defends (a trade); c2-c3 loses nothing; b4-b5 would
    # hang the b-pawn to a6 (nothing takes back): the rules keep the take and the quiet moves
    env = position(["e5", "f6", "a6", "h8"], ["d4", "b4", "c2", "a1"], to_move=1)
    state = L.getAgentState(env)
    kept = {D.move_name(a, 1, state[:64]) for a in rules_moves(state)}
    assert "d4xe5" in kept and "c2-c3" in kept and "b4-b5" not in kept
    # Black to move: b5 may take c4, which nothing defends; that gains a piece and loses none
    env = position(["b5", "h8"], ["c4", "a1", "h1"], to_move=0)
    state = L.getAgentState(env)
    assert [D.move_name(a, 0, state[:64]) for a in rules_moves(state)] == ["b5xc4"]


def test_the_learned_level_loads_and_plays_from_its_own_state():
    assert list(ENV.levels) == [0, 1, 2, 3]
    bot = ENV.opponents(2)[0]
    assert bot.policy is B.learned and bot.data.size > B.SCRATCH + B.VIEW_SIZE * 16 // 2  # 16+ units
    data = bot.initial_data()
    rng = random.Random(7)
    checked = 0
    while checked < 60:
        env = random_position(rng, rng.randrange(0, 80))
        if L.checkEnded(env) != -1:
            continue
        state = L.getAgentState(env)
        action, data = B.learned(state, data)
        assert L.getValidActions(state)[action] == 1.0
        assert B.learned(state.copy(), bot.initial_data())[0] == action  # no memory: the same move
        # the same position with the colours swapped and the board turned: the same move, turned
        turned = env.copy()
        for s in range(64):
            piece = env[L.E_BOARD + (s ^ 56)]
            turned[L.E_BOARD + s] = 3.0 - piece if piece != L.EMPTY else L.EMPTY
        turned[L.E_PLAYER] = 1 - env[L.E_PLAYER]
        turned[L.E_PIECES], turned[L.E_PIECES + 1] = env[L.E_PIECES + 1], env[L.E_PIECES]
        other = L.getAgentState(turned)
        np.testing.assert_array_equal(B.policy_view(other)[0], B.policy_view(state)[0])
        assert B.learned(other, data)[0] == ((action // 3) ^ 56) * 3 + action % 3
        checked += 1


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
        allowed = np.isin(actions, rules_moves(state))
        if not allowed.any():
            continue  # a win at once: played without the network
        scores = forward(layers, seen[None], (allowed)[None])[1][0]
        action = int(np.flatnonzero(actions == B.learned(state, data)[0])[0])  # the view's action of the game's
        best = scores.max()
        assert scores[action] >= best - 1e-4 * (1.0 + abs(best))  # float32 sums: near-ties may differ
        checked += 1
        exact += action == int(np.argmax(scores))
    assert exact >= checked - 2


def test_the_learned_level_beats_level1_in_both_seats():
    bot = ENV.opponents(2)[0]
    results = ENV.evaluate(bot.policy, 400, bot.initial_data(), level=1, seed=6)
    # measured: 67.1% as Black, 66.5% as White of 10,000 (about 200 a seat here: 0.55 is 3.5 standard errors below)
    assert min(seat.win_rate for seat in results.by_seat) >= 0.55


# ---- drawings and words --------------------------------------------------------------------------


def test_render_and_descriptions_along_random_games():
    rng = random.Random(9)
    for _ in range(6):
        env = L.initEnv()
        while True:
            for seat in (0, 1):
                state = L.getPlayerState(env, seat)
                svg = ET.fromstring(D.render(state))
                clickable = clickable_actions(svg)
                expected = list(np.flatnonzero(L.getValidActions(state))) if state[L.S_MY_TURN] else []
                assert clickable == expected
                text = D.describe_state(state)
                rows = [line for line in text.splitlines() if line[:3].strip().isdigit()]
                assert len(rows) == 8
                assert sum(row.count("X") for row in rows) == state[L.S_MY_PIECES]
                assert sum(row.count("O") for row in rows) == state[L.S_THEIR_PIECES]
                if state[L.S_MY_TURN]:
                    assert text.count("(action ") == len(expected)
            if L.checkEnded(env) != -1:
                break
            L.stepEnv(int(rng.choice(np.flatnonzero(L.getValidActions(L.getAgentState(env))))), env)
        winner = L.checkEnded(env)
        assert "You won!" in D.render(L.getPlayerState(env, winner))
        assert "Game over: you lost." in D.describe_state(L.getPlayerState(env, 1 - winner))
    assert (
        D.describe_action(4 * 8 * 3 + 3 * 3 + 1)
        == "Step the piece on d4 straight forward (to d5 for White, to d3 for Black)"
    )
    assert D.describe_action(0) == "Step the piece on a8 off the board (never valid)"
    assert "Unknown" in D.describe_action(192)
    with pytest.raises(ValueError, match="length 74"):
        D.render(np.zeros(5))


def test_render_turns_the_board_for_black():
    """Each player sees their own home row at the bottom: Black's pieces start low on Black's picture."""
    env = L.initEnv()
    for seat in (0, 1):
        svg = ET.fromstring(D.render(L.getPlayerState(env, seat)))
        rings = [
            float(c.get("cy")) for c in svg.iter("{http://www.w3.org/2000/svg}circle") if c.get("stroke") == D.BLUE
        ]
        assert len(rings) == 16 and min(rings) > D.TOP + 6 * D.SQUARE  # my pieces on the two bottom rows
