"""Built-in Hex opponents (levels 1, 2). Level 0 (random) is the framework's.

A bot is an agent like any other: ``bot(state, data) -> (action, data)``, playing from its own
seat's state only. Both read the position through ``sampleEnv(state)`` (perfect information: the
exact game) and work on copies of it.

* Level 1, ``shortest_path``: plays the cell that best improves the race of shortest paths: the
  fewest empty cells each player still needs to join their edges, mine against the opponent's.
* Level 2, ``mcts``: Monte Carlo tree search with RAVE, ``ITERATIONS`` simulations per move. A
  playout fills the empty cells at random, turn by turn; on a full Hex board exactly one player
  has joined their edges, and that player would also have been the first to do so.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import (
    BLACK,
    BLACK_STONE,
    E_BOARD,
    E_PLAYER,
    E_WINNER,
    EMPTY,
    ENV_SIZE,
    NEIGHBOURS,
    NUM_CELLS,
    SIZE,
    WHITE_STONE,
    sampleEnv,
    stepEnv,
)

FAR = 10 * NUM_CELLS  # "cannot connect": more than any real distance
ITERATIONS = 1000  # level 2's simulations per move (data[0] >= 1 overrides it)
RAVE_EQUIVALENCE = 300.0  # visits at which a move's own mean and its AMAF mean weigh the same
EXPLORATION = 0.05  # UCT exploration constant (RAVE does most of the exploring)


@njit(cache=True)
def copy_into(target, source):
    """target[:] = source, as a loop (numba compiles a slice assignment far more slowly)."""
    for i in range(source.shape[0]):
        target[i] = source[i]


# ---- level 1: the shortest-path race ----------------------------------------------------------


@njit(cache=True)
def edge_distance(board, player, queue, dist):
    """Fewest empty cells ``player`` must still fill to join their edges (FAR when blocked).

    A 0-1 breadth-first search from the first edge: own stones cost 0, empty cells 1, the
    opponent's stones are walls. ``queue`` (2 * NUM_CELLS ints) and ``dist`` are scratch space.
    """
    stone = BLACK_STONE if player == BLACK else WHITE_STONE
    head = tail = NUM_CELLS  # a deque in the middle of ``queue``: 0-cost steps go in front
    for cell in range(NUM_CELLS):
        dist[cell] = FAR
    for i in range(SIZE):
        cell = i if player == BLACK else i * SIZE  # top row, or left column
        if board[cell] == stone:
            dist[cell] = 0
            head -= 1
            queue[head] = cell
        elif board[cell] == EMPTY:
            dist[cell] = 1
            queue[tail] = cell
            tail += 1
    best = FAR
    while head < tail:
        cell = queue[head]
        head += 1
        d = dist[cell]
        last = cell // SIZE == SIZE - 1 if player == BLACK else cell % SIZE == SIZE - 1
        if last and d < best:
            best = d
        for k in range(6):
            other = NEIGHBOURS[cell, k]
            if other < 0:
                break
            content = board[other]
            if content == stone:
                if d < dist[other]:
                    dist[other] = d
                    head -= 1
                    queue[head] = other
            elif content == EMPTY and d + 1 < dist[other]:
                dist[other] = d + 1
                queue[tail] = other
                tail += 1
    return best


@njit(cache=True)
def shortest_path(state, data):
    """Shortest paths: plays where (opponent's distance - mine) grows most, ties broken at random."""
    env = sampleEnv(state)
    me = int(env[E_PLAYER])
    board = env[E_BOARD : E_BOARD + NUM_CELLS].copy()
    stone = BLACK_STONE if me == BLACK else WHITE_STONE
    queue = np.empty(2 * NUM_CELLS + 1, dtype=np.int64)
    dist = np.empty(NUM_CELLS, dtype=np.int64)
    best, best_score = -1, -np.inf
    for cell in range(NUM_CELLS):
        if board[cell] != EMPTY:
            continue
        board[cell] = stone
        mine = edge_distance(board, me, queue, dist)
        theirs = edge_distance(board, 1 - me, queue, dist)
        board[cell] = EMPTY
        if mine == 0:
            return cell, data  # a winning stone
        row, col = cell // SIZE, cell % SIZE
        centre = abs(row - SIZE // 2) + abs(col - SIZE // 2) + abs(row + col - 2 * (SIZE // 2))
        score = 1.0 * theirs - 1.0 * mine - 0.01 * centre + 0.001 * np.random.random()
        if score > best_score:
            best, best_score = cell, score
    return max(best, 0), data


# ---- level 2: Monte Carlo tree search with RAVE -----------------------------------------------


@njit(cache=True)
def black_joins(board, stack, seen):
    """True when Black's stones join the top and bottom edges (on a full board: Black won)."""
    top = 0
    for cell in range(NUM_CELLS):
        seen[cell] = False
    for col in range(SIZE):
        if board[col] == BLACK_STONE:
            seen[col] = True
            stack[top] = col
            top += 1
    while top > 0:
        top -= 1
        cell = stack[top]
        if cell >= NUM_CELLS - SIZE:
            return True
        for k in range(6):
            other = NEIGHBOURS[cell, k]
            if other < 0:
                break
            if not seen[other] and board[other] == BLACK_STONE:
                seen[other] = True
                stack[top] = other
                top += 1
    return False


@njit(cache=True)
def fill_playout(env, empties, stack, seen):
    """Fill ``env``'s empty cells at random, alternating from the player to move; return the winner.

    Changes the board in place (the rest of env is left stale)."""
    board = env[E_BOARD : E_BOARD + NUM_CELLS]
    if env[E_WINNER] >= 0.0:
        winner = int(env[E_WINNER])
    else:
        winner = -1
    n = 0
    for cell in range(NUM_CELLS):
        if board[cell] == EMPTY:
            empties[n] = cell
            n += 1
    stone = BLACK_STONE if int(env[E_PLAYER]) == BLACK else WHITE_STONE
    for i in range(n):
        j = i + int(np.random.random() * (n - i))
        empties[i], empties[j] = empties[j], empties[i]
        board[empties[i]] = stone
        stone = WHITE_STONE if stone == BLACK_STONE else BLACK_STONE
    if winner >= 0:
        return winner
    return BLACK if black_joins(board, stack, seen) else 1 - BLACK


@njit(cache=True)
def _add_edges(env, start, cell_of, child, visits, wins, amaf_visits, amaf_wins):
    """Give a new node one fresh edge per empty cell of ``env``, from index ``start``; return how many."""
    n = 0
    for cell in range(NUM_CELLS):
        if env[E_BOARD + cell] == EMPTY:
            e = start + n
            cell_of[e], child[e] = cell, -1
            visits[e] = wins[e] = amaf_visits[e] = amaf_wins[e] = 0.0
            n += 1
    return n


@njit(cache=True)
def mcts(state, data):
    """MCTS: UCT with RAVE, 1000 random-fill playouts per move."""
    iterations = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else ITERATIONS
    root = sampleEnv(state)
    max_nodes = iterations + 1
    # the tree: node k owns edges first[k] .. first[k] + count[k] - 1 (its empty cells); edge e
    # leads to node child[e] (-1 until expanded); wins count for the player who moved
    first = np.empty(max_nodes, dtype=np.int64)
    count = np.empty(max_nodes, dtype=np.int64)
    mover = np.empty(max_nodes, dtype=np.int64)
    node_visits = np.zeros(max_nodes, dtype=np.float64)
    edges_max = max_nodes * NUM_CELLS
    cell_of = np.empty(edges_max, dtype=np.int64)
    child = np.empty(edges_max, dtype=np.int64)
    visits = np.empty(edges_max, dtype=np.float64)
    wins = np.empty(edges_max, dtype=np.float64)
    amaf_visits = np.empty(edges_max, dtype=np.float64)
    amaf_wins = np.empty(edges_max, dtype=np.float64)
    path_nodes = np.empty(NUM_CELLS + 1, dtype=np.int64)
    path_edges = np.empty(NUM_CELLS + 1, dtype=np.int64)
    env = np.empty(ENV_SIZE, dtype=np.float64)
    empties = np.empty(NUM_CELLS, dtype=np.int64)
    stack = np.empty(NUM_CELLS, dtype=np.int64)
    seen = np.empty(NUM_CELLS, dtype=np.bool_)

    first[0], mover[0] = 0, int(root[E_PLAYER])
    count[0] = _add_edges(root, 0, cell_of, child, visits, wins, amaf_visits, amaf_wins)
    if count[0] == 0:
        return 0, data
    nodes, edges = 1, count[0]

    for _ in range(iterations):
        copy_into(env, root)
        node, depth = 0, 0
        while True:
            # select: the edge with the best blend of its own mean and its AMAF mean; the scan
            # starts at a random edge, so ties go to a random one
            start, n = first[node], count[node]
            offset = int(np.random.random() * n)
            best, best_value = start + offset, -np.inf
            log_n = np.log(node_visits[node] + 1.0)
            for i in range(n):
                e = start + offset + i
                if e >= start + n:
                    e -= n
                n_e, a_e = visits[e], amaf_visits[e]
                if a_e > 0.0:
                    beta = a_e / (a_e + n_e + n_e * a_e / RAVE_EQUIVALENCE)
                    amaf_mean = amaf_wins[e] / a_e
                else:
                    beta, amaf_mean = 1.0, 0.5
                mean = wins[e] / n_e if n_e > 0.0 else 0.5
                value = (1.0 - beta) * mean + beta * amaf_mean + EXPLORATION * np.sqrt(log_n / (n_e + 1.0))
                if value > best_value:
                    best, best_value = e, value
            path_nodes[depth], path_edges[depth] = node, best
            depth += 1
            stepEnv(cell_of[best], env)
            if env[E_WINNER] >= 0.0:
                break
            next_node = child[best]
            if next_node < 0:
                if nodes < max_nodes:
                    # expand: a node for this position with an edge per empty cell
                    first[nodes], mover[nodes] = edges, int(env[E_PLAYER])
                    n = _add_edges(env, edges, cell_of, child, visits, wins, amaf_visits, amaf_wins)
                    count[nodes] = n
                    child[best] = nodes
                    nodes += 1
                    edges += n
                break
            node = next_node
        winner = fill_playout(env, empties, stack, seen)
        board = env[E_BOARD : E_BOARD + NUM_CELLS]
        # back up: each edge on the path, and (AMAF) every edge of a path node whose cell ended
        # up with the stone of that node's mover: "all moves as first"
        for d in range(depth):
            node = path_nodes[d]
            who = mover[node]
            won = 1.0 if who == winner else 0.0
            node_visits[node] += 1.0
            e = path_edges[d]
            visits[e] += 1.0
            wins[e] += won
            stone = BLACK_STONE if who == BLACK else WHITE_STONE
            for e in range(first[node], first[node] + count[node]):
                if board[cell_of[e]] == stone:
                    amaf_visits[e] += 1.0
                    amaf_wins[e] += won
    best = first[0]
    for e in range(first[0], first[0] + count[0]):
        if visits[e] > visits[best]:
            best = e
    return cell_of[best], data


LEVELS = {1: shortest_path, 2: mcts}
