"""Built-in Breakthrough opponents (levels 1, 2, 3). Level 0 (random) is the framework's.

A bot is an agent like any other: ``bot(state, data) -> (action, data)``, playing from its own
seat's state only. Levels 1 and 3 read the position through ``sampleEnv(state)`` (perfect
information: the exact game) and step copies of it with the rules of ``logic.py``; level 2 reads
the state's board as bit sets.

* Level 1, ``greedy``: looks one move ahead and scores each resulting position with
  ``evaluate`` (material, advancement, home-row guards, the best capture of the side to move, a
  piece about to break through).
* Level 2, ``learned``: a small network (``level2_weights.npz``) trained by
  ``python -m makeenv.learn.imitate Breakthrough --view makeenv.games.breakthrough.bots:policy_view
  --teacher-shares makeenv.games.breakthrough.bots:mcts_shares`` to copy level 3's visit shares (the
  README has the commands). It sees the board turned so that it always moves up, with the squares
  each side attacks (``policy_view``), and plays the move it scores highest among those its rules
  leave (``filter_moves``): a move onto the far row first; else, when an opponent's piece is about
  to step onto my home row, only a move that takes it; then the moves best by material and by
  unstoppable pieces one and two rows from either goal, one move ahead. It allocates nothing: its
  scratch space sits after the weights in its data (``learned_data``).
* Level 3, ``mcts``: Monte Carlo tree search (UCT), ``ITERATIONS`` simulations per move (the
  bot's ``data[0]`` when it is 1 or more: ``Bot(mcts, data=np.array([800.0]))``). Random
  playouts judge Breakthrough badly (a random side throws pieces away), so, as AlphaZero's value
  network does, ``evaluate`` judges the leaves instead: a new position's moves start with their
  one-move-ahead values (counted as ``PRIOR_VISITS`` visits), the leaf's value is its best move's,
  and selection blends each move's mean with the minimax of those values over the tree
  ("implicit minimax backups", Lanctot et al. 2014, who measured it on Breakthrough).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import load_policy_data, mlp_action

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
    MINE,
    NUM_ACTIONS,
    NUM_SQUARES,
    NUM_STEPS,
    ROWS,
    S_BOARD,
    S_OVER,
    S_WHITE,
    STRAIGHT,
    TARGET,
    THEIRS,
    WHITE_PIECE,
    sampleEnv,
    stepEnv,
    valid_moves,
)

WIN_SCORE = 1.0e6
ITERATIONS = 200  # level 3's simulations per move (data[0] >= 1 overrides it)
EXPLORATION = 0.2  # UCT exploration constant
PRIOR_VISITS = 10.0  # how many visits a move's first value (from evaluate) counts as
MINIMAX_WEIGHT = 0.8  # weight of the implicit minimax value against the mean in selection
SCORE_SCALE = 10.0  # evaluate() score that means a 73% chance to win (a piece up)
MAX_GAME_PLIES = 2 * (ROWS - 2) * 2 * COLS + 2  # every move advances a piece one row: a bound
WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")


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


# ---- level 3: Monte Carlo tree search ---------------------------------------------------------


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
def search(state, iterations, shares):
    """The search of ``mcts``: its move after ``iterations`` simulations. When ``shares`` has
    NUM_ACTIONS values, it also writes there each root move's share of the simulations."""
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
    for a in range(shares.shape[0]):
        shares[a] = 0.0
    if n <= 1:
        if n == 1 and shares.shape[0] > 0:
            shares[edge_action[0]] = 1.0
        return edge_action[0] if n == 1 else 0
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
    if shares.shape[0] > 0:
        for e in range(first[0], first[0] + count[0]):
            shares[edge_action[e]] = (edge_visits[e] - PRIOR_VISITS) / iterations
    return edge_action[best]


@njit(cache=True)
def mcts(state, data):
    """MCTS: UCT search, 200 simulations per move, leaves judged by evaluate() with minimax backups."""
    iterations = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else ITERATIONS
    return search(state, iterations, np.empty(0)), data


@njit(cache=True)
def mcts_shares(state):
    """Level 3's move and each move's share of its simulations (``makeenv.learn.imitate
    --teacher-shares``: the soft targets level 2 learned)."""
    shares = np.empty(NUM_ACTIONS)
    action = search(state, ITERATIONS, shares)
    return action, shares


# ---- level 2: a small network over the board and the squares each side attacks --------------------

# The view: the board turned so that I always move up (towards row 0, as White does; Black's board
# is turned upside down: square ^ 56), in planes of NUM_SQUARES values (1 or 0).
P_MINE, P_THEIRS = 0, 1  # my pieces, the opponent's
P_THEIR_ATTACKS = 2  # squares an opponent's piece could capture on next move
P_MY_ATTACKS = 3  # squares a piece of mine could capture on (my defended squares)
PLANES = 4
VIEW_SIZE = PLANES * NUM_SQUARES  # 256
SCRATCH = VIEW_SIZE + NUM_ACTIONS  # the learned bot's scratch after its weights: the view, the valid moves
_U = np.uint64
NOT_FILE_A = _U(sum(1 << s for s in range(NUM_SQUARES) if s % COLS != 0))
NOT_FILE_H = _U(sum(1 << s for s in range(NUM_SQUARES) if s % COLS != COLS - 1))
MY_LAST_ROW = _U(sum(1 << s for s in range(COLS, 2 * COLS)))  # a piece of mine here wins next move
THEIR_LAST_ROW = _U(sum(1 << s for s in range((ROWS - 2) * COLS, (ROWS - 1) * COLS)))  # theirs here
TWO_ROWS_OUT = _U(sum(1 << s for s in range(2 * COLS, 3 * COLS)))  # mine here: two rows from the far row
THEIR_TWO_ROWS_OUT_BEFORE = _U(sum(1 << s for s in range((ROWS - 4) * COLS, (ROWS - 3) * COLS)))
THEIR_NEAR_ROW = _U(sum(1 << s for s in range((ROWS - 3) * COLS, (ROWS - 2) * COLS)))  # and one row before


@njit(cache=True, inline="always")
def view_flip(state):
    """What turns a game square into the view's and back (``square ^ flip``): 0 for White, 56 for Black."""
    return 0 if state[S_WHITE] == 1.0 else (ROWS - 1) * COLS


@njit(cache=True, inline="always")
def _attacks_up(pieces):
    """The squares the pieces of the side moving up (mine, in the view) could capture on."""
    return ((pieces & NOT_FILE_A) >> _U(COLS + 1)) | ((pieces & NOT_FILE_H) >> _U(COLS - 1))


@njit(cache=True, inline="always")
def _attacks_down(pieces):
    """The squares the pieces of the side moving down (the opponent's, in the view) could capture on."""
    return ((pieces & NOT_FILE_A) << _U(COLS - 1)) | ((pieces & NOT_FILE_H) << _U(COLS + 1))


@njit(cache=True)
def fill_view(state, seen, valid):
    """Write level 2's view of ``state`` into ``seen`` (VIEW_SIZE values) and its valid moves, in the
    view's order, into ``valid`` (NUM_ACTIONS values, 1.0 or 0.0). Returns ``(mine, theirs)``, the
    view's pieces as bit sets (bit ``s``: view square ``s``)."""
    flip = view_flip(state)
    mine = theirs = _U(0)
    for square in range(NUM_SQUARES):
        content = state[S_BOARD + square]
        bit = _U(1) << _U(square ^ flip)
        if content == MINE:
            mine |= bit
        elif content == THEIRS:
            theirs |= bit
    # my pieces capture up and to the side (square - 9, - 7), the opponent's down (+ 7, + 9)
    my_attacks = _attacks_up(mine)
    their_attacks = _attacks_down(theirs)
    occupied = mine | theirs
    for s in range(NUM_SQUARES):
        seen[P_MINE * NUM_SQUARES + s] = float((mine >> _U(s)) & _U(1))
        seen[P_THEIRS * NUM_SQUARES + s] = float((theirs >> _U(s)) & _U(1))
        seen[P_THEIR_ATTACKS * NUM_SQUARES + s] = float((their_attacks >> _U(s)) & _U(1))
        seen[P_MY_ATTACKS * NUM_SQUARES + s] = float((my_attacks >> _U(s)) & _U(1))
        a = s * NUM_STEPS
        valid[a] = valid[a + 1] = valid[a + 2] = 0.0
        if (mine >> _U(s)) & _U(1) and s >= COLS:
            col = s % COLS
            if col > 0 and not (mine >> _U(s - COLS - 1)) & _U(1):
                valid[a] = 1.0
            if not (occupied >> _U(s - COLS)) & _U(1):
                valid[a + 1] = 1.0
            if col < COLS - 1 and not (mine >> _U(s - COLS + 1)) & _U(1):
                valid[a + 2] = 1.0
    return mine, theirs


@njit(cache=True)
def policy_view(state):
    """Level 2's view of ``state`` and the map of its actions (``actions[i]``: the game's action
    shown as action ``i`` of the view), as ``makeenv.learn.imitate --view`` takes one."""
    seen = np.empty(VIEW_SIZE)
    valid = np.empty(NUM_ACTIONS)
    fill_view(state, seen, valid)
    flip = view_flip(state)
    actions = np.empty(NUM_ACTIONS, dtype=np.int64)
    for i in range(NUM_ACTIONS):
        actions[i] = ((i // NUM_STEPS) ^ flip) * NUM_STEPS + i % NUM_STEPS
    return seen, actions


@njit(cache=True, inline="always")
def _two_ahead(mine, theirs, moved, their_attacks):
    """+2 when the piece just ``moved`` stands two rows from the far row where nothing takes it and
    can step to a square one row from it where nothing takes it either; -2 when an opponent's piece
    could do the same towards my home row next move (nothing of mine taking it)."""
    value = 0
    occupied = mine | theirs
    if moved & TWO_ROWS_OUT and not (moved & their_attacks):
        onward = ((moved >> _U(COLS)) & ~occupied) | (_attacks_up(moved) & ~mine)
        if onward & ~their_attacks:
            value += 2
    near = theirs & THEIR_TWO_ROWS_OUT_BEFORE
    if near:
        my_attacks = _attacks_up(mine)
        landing = (((near << _U(COLS)) & ~occupied) | (_attacks_down(near) & ~theirs)) & ~my_attacks
        if landing:
            onward = ((landing << _U(COLS)) & ~occupied) | (_attacks_down(landing) & ~theirs)
            if onward & ~my_attacks:
                value -= 2
    return value


@njit(cache=True)
def filter_moves(mine, theirs, valid):
    """Keep in ``valid`` (the view's valid moves) only the moves the rules of level 2 allow. Returns a
    winning move if there is one (then ``valid`` is left as it was), else -1.

    1. A move onto the far row wins (any piece of mine one row from it has one).
    2. When an opponent's piece would step onto my home row next move, only the moves that take it,
       if there are any.
    3. Then only the best moves by material one move ahead: a capture gains a piece, and leaving a
       piece of mine that the opponent could take and I could not take back loses one; a piece
       stepping one row from the far row where nothing can take it wins (+3: it goes through next),
       a move that lets an opponent's piece step next to my home row where nothing takes it loses
       (-3), and ``_two_ahead`` adds the same one row further (+2 or -2)
    """
    if mine & MY_LAST_ROW:
        for a in range(COLS * NUM_STEPS, 2 * COLS * NUM_STEPS):
            if valid[a] == 1.0:
                return a
    runners = _U(0)
    candidates = theirs & THEIR_LAST_ROW
    if candidates:
        for s in range((ROWS - 2) * COLS, (ROWS - 1) * COLS):
            if (candidates >> _U(s)) & _U(1):
                col = s % COLS
                if (
                    not ((mine | theirs) >> _U(s + COLS)) & _U(1)
                    or (col > 0 and not (theirs >> _U(s + COLS - 1)) & _U(1))
                    or (col < COLS - 1 and not (theirs >> _U(s + COLS + 1)) & _U(1))
                ):
                    runners |= _U(1) << _U(s)
    best = -100
    for a in range(NUM_ACTIONS):  # each move's material one move ahead; the runners' takers first
        if valid[a] != 1.0:
            continue
        s = a // NUM_STEPS
        target = s - COLS + a % NUM_STEPS - 1
        to_bit = _U(1) << _U(target)
        value = 0
        if runners:
            value = 4 if (runners & to_bit) and a % NUM_STEPS != STRAIGHT else 0
        after_mine = (mine & ~(_U(1) << _U(s))) | to_bit
        after_theirs = theirs & ~to_bit
        if after_theirs != theirs:
            value += 1
        their_attacks = _attacks_down(after_theirs)
        if after_mine & their_attacks & ~_attacks_up(after_mine):
            value -= 1
        if not runners and target < 2 * COLS and not (to_bit & their_attacks):
            value += 3  # a piece one row from the far row that nothing can take: it goes through
        else:
            # an opponent's piece that could step next to my home row where nothing of mine takes it
            near = after_theirs & THEIR_NEAR_ROW
            if near:
                steps = (near << _U(COLS)) & ~(after_mine | after_theirs)
                steps |= _attacks_down(near) & ~after_theirs
                if steps & ~_attacks_up(after_mine):
                    value -= 3
            value += _two_ahead(after_mine, after_theirs, to_bit, their_attacks)
        valid[a] = 10.0 + value  # marks it valid, with its value
        best = max(best, value)
    for a in range(NUM_ACTIONS):
        if valid[a] != 0.0:
            valid[a] = 1.0 if valid[a] == 10.0 + best else 0.0
    return -1


@njit(cache=True)
def learned(state, data):
    """Learned: a small network over the board and the attacked squares, trained by
    makeenv.learn.imitate to copy the search's visit shares."""
    if state[S_OVER] == 1.0:
        return 0, data
    base = data.shape[0] - SCRATCH  # the scratch after the weights: nothing is allocated
    seen = data[base : base + VIEW_SIZE]
    valid = data[base + VIEW_SIZE : base + SCRATCH]
    mine, theirs = fill_view(state, seen, valid)
    choice = filter_moves(mine, theirs, valid)
    if choice < 0:
        choice = max(mlp_action(seen, data, valid), 0)
    return ((choice // NUM_STEPS) ^ view_flip(state)) * NUM_STEPS + choice % NUM_STEPS, data


def learned_data(path: Path | str = WEIGHTS_FILE) -> np.ndarray:
    """Level 2's bot data: the packed network of a weights file, then its scratch."""
    return load_policy_data(path, VIEW_SIZE, NUM_ACTIONS, scratch=SCRATCH)


LEVELS: dict[int, Any] = {1: greedy, 3: mcts}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
