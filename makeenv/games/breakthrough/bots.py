"""Built-in Breakthrough opponents (levels 1, 2). Level 0 (random) is the framework's.

A bot is an agent like any other: ``bot(state, data) -> (action, data)``, playing from its own
seat's state only. Both read the position through ``sampleEnv(state)`` (perfect information: the
exact game) and step copies of it with the rules of ``logic.py``.

* Level 1, ``greedy``: looks one move ahead and scores each resulting position with
  ``evaluate`` (material, advancement, home-row guards, the best capture of the side to move, a
  piece about to break through).
* Level 2, ``mcts``: Monte Carlo tree search (UCT), ``ITERATIONS`` simulations per move. Random
  playouts judge Breakthrough badly (a random side throws pieces away), so, as AlphaZero's value
  network does, ``evaluate`` judges the leaves instead: a new position's moves start with their
  one-move-ahead values (counted as ``PRIOR_VISITS`` visits), the leaf's value is its best move's,
  and selection blends each move's mean with the minimax of those values over the tree
  ("implicit minimax backups", Lanctot et al. 2014, who measured it on Breakthrough).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import (
    BLACK,
    BLACK_PIECE,
    COLS,
    E_BOARD,
    E_PIECES,
    E_PLAYER,
    E_WINNER,
    EMPTY,
    ENV_SIZE,
    MAX_MOVES,
    NUM_SQUARES,
    NUM_STEPS,
    ROWS,
    TARGET,
    WHITE_PIECE,
    sampleEnv,
    stepEnv,
    valid_moves,
)

WIN_SCORE = 1.0e6
ITERATIONS = 200  # level 2's simulations per move (data[0] >= 1 overrides it)
EXPLORATION = 0.2  # UCT exploration constant
PRIOR_VISITS = 10.0  # how many visits a move's first value (from evaluate) counts as
MINIMAX_WEIGHT = 0.8  # weight of the implicit minimax value against the mean in selection
SCORE_SCALE = 10.0  # evaluate() score that means a 73% chance to win (a piece up)
MAX_GAME_PLIES = 2 * (ROWS - 2) * 2 * COLS + 2  # every move advances a piece one row: a bound


@njit(cache=True)
def copy_into(target, source):
    """target[:] = source, as a loop (numba compiles a slice assignment far more slowly)."""
    for i in range(source.shape[0]):
        target[i] = source[i]


# ---- shared position knowledge --------------------------------------------------------------


@njit(cache=True)
def _row_of_progress(square, player):
    """How many rows the square lies beyond ``player``'s home row (0 .. ROWS - 1)."""
    row = square // COLS
    return row if player == BLACK else ROWS - 1 - row


@njit(cache=True)
def _attacked_by(board, square, attacker_piece, attacker):
    """True when a piece of ``attacker`` could capture on ``square`` next move."""
    # the attacker's piece stands one row behind the square (from the attacker's side), one file off
    row = square // COLS - (1 if attacker == BLACK else -1)
    if row < 0 or row >= ROWS:
        return False
    col = square % COLS
    if col > 0 and board[row * COLS + col - 1] == attacker_piece:
        return True
    return col < COLS - 1 and board[row * COLS + col + 1] == attacker_piece


@njit(cache=True)
def _breaks_through(board, square, player, theirs):
    """True when ``player``'s piece on ``square`` (one row from the far row) can step onto it."""
    for action in range(square * NUM_STEPS, square * NUM_STEPS + NUM_STEPS):
        target = TARGET[player, action]
        if target >= 0 and (board[target] == EMPTY or (board[target] == theirs and action % NUM_STEPS != 1)):
            return True
    return False


@njit(cache=True)
def evaluate(env, player):
    """A score of the position for ``player`` (higher is better), whoever is to move.

    Material counts most, then how far the pieces advanced and home-row guards. The side to move
    gains its best capture (little when the piece is defended: a trade), and a piece one row from
    its goal decides the game when it steps in next move or cannot be stopped.
    """
    winner = int(env[E_WINNER])
    if winner >= 0:
        return WIN_SCORE if winner == player else -WIN_SCORE
    board = env[E_BOARD : E_BOARD + NUM_SQUARES]
    to_move = int(env[E_PLAYER])
    waiting = 1 - to_move
    mover_piece = BLACK_PIECE if to_move == BLACK else WHITE_PIECE
    waiting_piece = WHITE_PIECE if to_move == BLACK else BLACK_PIECE
    sign_to_move = 1.0 if to_move == player else -1.0
    score = 10.0 * (env[E_PIECES + player] - env[E_PIECES + 1 - player])
    best_capture, runners, runner_capture = 0.0, 0, 0.0
    for square in range(NUM_SQUARES):
        piece = board[square]
        if piece == EMPTY:
            continue
        owner = to_move if piece == mover_piece else waiting
        progress = _row_of_progress(square, owner)
        value = 0.15 * progress * progress + (1.0 if progress == 0 else 0.0)  # home-row guards
        score += value if owner == player else -value
        if owner == to_move:
            if progress == ROWS - 2 and _breaks_through(board, square, to_move, waiting_piece):
                return sign_to_move * WIN_SCORE / 2  # it steps onto the far row now
            continue
        gain = 0.0
        if _attacked_by(board, square, mover_piece, to_move):
            gain = 1.0 if _attacked_by(board, square, waiting_piece, waiting) else 10.0
            best_capture = max(best_capture, gain)
        if progress == ROWS - 2 and _breaks_through(board, square, waiting, mover_piece):
            runners += 1
            runner_capture = gain
            if gain == 0.0:
                runners += 1  # nothing can take it: it goes through
    if runners > 1:
        return -sign_to_move * WIN_SCORE / 2
    if runners == 1:
        best_capture = runner_capture  # taking the runner is forced
    return score + sign_to_move * best_capture


@njit(cache=True)
def greedy(state, data):
    """Greedy: plays the move whose resulting position evaluate() scores best, one move ahead."""
    root = sampleEnv(state)
    player = int(root[E_PLAYER])
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    n = valid_moves(root, moves)
    if n == 0:
        return 0, data
    child = np.empty(ENV_SIZE, dtype=np.float64)
    best, best_score = moves[0], -np.inf
    for i in range(n):
        copy_into(child, root)
        stepEnv(moves[i], child)
        score = evaluate(child, player) + np.random.random() * 0.5  # random tie-break
        if score > best_score:
            best, best_score = moves[i], score
    return best, data


# ---- level 2: Monte Carlo tree search ---------------------------------------------------------


@njit(cache=True)
def _win_chance(score):
    """evaluate()'s score turned into a chance to win (a piece up: about 73%)."""
    return 1.0 / (1.0 + np.exp(-score / SCORE_SCALE))


@njit(cache=True)
def _expand(env, first, moves, scratch, edge_action, edge_child, edge_visits, edge_wins, edge_minimax):
    """Give the position ``env`` its edges from ``first`` on: one per valid move, each starting with
    PRIOR_VISITS visits valued by evaluate() one move ahead (also its first minimax value).
    Returns (edge count, the best edge's value for the player to move)."""
    mover = int(env[E_PLAYER])
    n = valid_moves(env, moves)
    best = 0.0
    for i in range(n):
        copy_into(scratch, env)
        stepEnv(moves[i], scratch)
        value = _win_chance(evaluate(scratch, mover))
        e = first + i
        edge_action[e], edge_child[e] = moves[i], -1
        edge_visits[e], edge_wins[e], edge_minimax[e] = PRIOR_VISITS, PRIOR_VISITS * value, value
        best = max(best, value)
    return n, best


@njit(cache=True)
def mcts(state, data):
    """MCTS: UCT search, 200 simulations per move, leaves judged by evaluate() with minimax backups."""
    iterations = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else ITERATIONS
    root = sampleEnv(state)
    max_nodes = iterations + 1
    # the tree: node k owns edges first[k] .. first[k] + count[k] - 1 (its valid moves);
    # edge e leads to node edge_child[e] (-1 until expanded); edge_wins counts for the mover
    first = np.empty(max_nodes, dtype=np.int64)
    count = np.empty(max_nodes, dtype=np.int64)
    mover = np.empty(max_nodes, dtype=np.int64)
    node_visits = np.zeros(max_nodes, dtype=np.float64)
    edge_action = np.empty(max_nodes * MAX_MOVES, dtype=np.int64)
    edge_child = np.empty(max_nodes * MAX_MOVES, dtype=np.int64)
    edge_visits = np.empty(max_nodes * MAX_MOVES, dtype=np.float64)
    edge_wins = np.empty(max_nodes * MAX_MOVES, dtype=np.float64)
    edge_minimax = np.empty(max_nodes * MAX_MOVES, dtype=np.float64)  # for the mover
    path = np.empty(MAX_GAME_PLIES + 1, dtype=np.int64)
    moves = np.empty(MAX_MOVES, dtype=np.int64)
    env = np.empty(ENV_SIZE, dtype=np.float64)
    scratch = np.empty(ENV_SIZE, dtype=np.float64)

    n, _ = _expand(root, 0, moves, scratch, edge_action, edge_child, edge_visits, edge_wins, edge_minimax)
    if n <= 1:
        return (edge_action[0] if n == 1 else 0), data
    first[0], count[0], mover[0] = 0, n, int(root[E_PLAYER])
    nodes, edges = 1, n

    for _ in range(iterations):
        copy_into(env, root)
        node, depth = 0, 0
        while True:
            best, best_value = first[node], -np.inf
            log_n = np.log(node_visits[node] + 1.0)
            for e in range(first[node], first[node] + count[node]):
                mean = edge_wins[e] / edge_visits[e]
                value = (
                    (1.0 - MINIMAX_WEIGHT) * mean
                    + MINIMAX_WEIGHT * edge_minimax[e]
                    + EXPLORATION * np.sqrt(log_n / edge_visits[e])
                )
                if value > best_value:
                    best, best_value = e, value
            path[depth] = best
            depth += 1
            stepEnv(edge_action[best], env)
            winner = int(env[E_WINNER])
            if winner >= 0:
                black_wins = 1.0 if winner == BLACK else 0.0
                edge_minimax[best] = 1.0  # the mover just won
                break
            child = edge_child[best]
            if child < 0:
                # a new node: its moves' values one ply ahead; the best of them is the leaf's value
                if nodes < max_nodes:
                    n, value = _expand(
                        env, edges, moves, scratch, edge_action, edge_child, edge_visits, edge_wins, edge_minimax
                    )
                    first[nodes], count[nodes], mover[nodes] = edges, n, int(env[E_PLAYER])
                    edge_child[best] = nodes
                    nodes += 1
                    edges += n
                else:
                    value = _win_chance(evaluate(env, int(env[E_PLAYER])))
                black_wins = value if int(env[E_PLAYER]) == BLACK else 1.0 - value
                break
            node = child
        node_visits[0] += 1.0
        for d in range(depth):
            e = path[d]
            parent_mover = mover[0] if d == 0 else mover[edge_child[path[d - 1]]]
            edge_visits[e] += 1.0
            edge_wins[e] += black_wins if parent_mover == BLACK else 1.0 - black_wins
            if edge_child[e] >= 0:
                node_visits[edge_child[e]] += 1.0
        # implicit minimax backup: from the leaf up, an edge is worth 1 - the best reply's worth
        for d in range(depth - 1, -1, -1):
            child = edge_child[path[d]]
            if child >= 0:
                reply = 0.0
                for e in range(first[child], first[child] + count[child]):
                    reply = max(reply, edge_minimax[e])
                edge_minimax[path[d]] = 1.0 - reply
    best = first[0]
    for e in range(first[0], first[0] + count[0]):
        if edge_visits[e] > edge_visits[best]:
            best = e
    return edge_action[best], data


LEVELS = {1: greedy, 2: mcts}
