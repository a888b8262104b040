"""Built-in Hex opponents (levels 1, 2, 3). Level 0 (random) is the framework's.

A bot is an agent like any other: ``bot(state, data) -> (action, data)``, playing from its own
seat's state only (perfect information: the state is the whole game).

* Level 1, ``shortest_path``: plays the cell that best improves the race of shortest paths: the
  fewest empty cells each player still needs to join their edges, mine against the opponent's.
* Level 2, ``learned``: a small network (``level2_weights.npz``) trained by
  ``python -m makeenv.learn.imitate Hex --view makeenv.games.hex.bots:policy_view`` to copy level
  3's moves (the README has the commands). It sees the board turned so that it always joins top to
  bottom, with the cells on each player's shortest paths marked (``policy_view``: four
  breadth-first searches over bit sets, about a microsecond), and plays the cell it scores highest;
  a cell that wins at once, or else blocks the opponent's win at once, comes first. It plays
  about 2,000 times as fast as level 3 (see the README) and allocates nothing: its scratch space
  sits after the weights in its data (``learned_data``).
* Level 3, ``mcts``: Monte Carlo tree search with RAVE, ``ITERATIONS`` simulations per move (the
  bot's ``data[0]`` when it is 1 or more: ``Bot(mcts, data=np.array([4000.0]))``). It reads the
  position through ``sampleEnv(state)`` and works on copies of it. A playout fills the empty cells
  at random, turn by turn; on a full Hex board exactly one player has joined their edges, and that
  player would also have been the first to do so.
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
    BLACK_STONE,
    E_BOARD,
    E_PLAYER,
    E_WINNER,
    EMPTY,
    ENV_SIZE,
    MINE,
    NEIGHBOURS,
    NUM_CELLS,
    S_BOARD,
    S_LAST,
    S_MOVES,
    S_OVER,
    S_WHITE,
    SIZE,
    THEIRS,
    WHITE_STONE,
    sampleEnv,
    stepEnv,
)

FAR = 10 * NUM_CELLS  # "cannot connect": more than any real distance
ITERATIONS = 1000  # level 3's simulations per move (data[0] >= 1 overrides it)
RAVE_EQUIVALENCE = 300.0  # visits at which a move's own mean and its AMAF mean weigh the same
EXPLORATION = 0.05  # UCT exploration constant (RAVE does most of the exploring)
WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")


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


# ---- level 3: Monte Carlo tree search with RAVE -----------------------------------------------


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


# ---- level 2: a small network over a cheap view of the board ------------------------------------

# The view: the board turned so that I always join top to bottom (White's board is mirrored on the
# long diagonal, which maps the board onto itself and swaps the two pairs of edges), in planes of
# NUM_CELLS values (1 or 0), then three numbers.
P_MINE, P_THEIRS = 0, 1  # my stones, the opponent's
P_MY_PATH, P_MY_NEAR = 2, 3  # empty cells on one of my shortest paths, or on a path one cell longer
P_THEIR_PATH, P_THEIR_NEAR = 4, 5  # the same for the opponent
P_SAVE = 6  # empty cells that keep a bridge of mine the opponent's last stone broke into
P_LAST = 7  # the opponent's last stone
PLANES = 8
V_MY_DISTANCE = PLANES * NUM_CELLS  # the empty cells on my shortest path (at most 2 * SIZE)
V_THEIR_DISTANCE = V_MY_DISTANCE + 1  # the opponent's
V_MOVES = V_MY_DISTANCE + 2  # stones on the board
VIEW_SIZE = V_MY_DISTANCE + 3  # 971
# a cell's neighbours in turning order, as (row, column) steps
RING = np.array([(-1, 0), (-1, 1), (0, 1), (1, 0), (1, -1), (0, -1)], dtype=np.int64)

# Sets of cells as bits: cell k is bit k of a pair of uint64 words (lo: cells 0..63, hi: 64..120).
# The shortest paths come from breadth-first searches over such sets, one distance at a time, each
# step a few shifts of the pair: about a tenth of the time of a search cell by cell.
_U = np.uint64


def _bits(cells: Any) -> tuple[np.uint64, np.uint64]:
    """The (lo, hi) words of a set of cells."""
    lo = hi = 0
    for cell in cells:
        if cell < 64:
            lo |= 1 << cell
        else:
            hi |= 1 << (cell - 64)
    return _U(lo), _U(hi)


HI_ALL = _bits(range(64, NUM_CELLS))[1]
NOT_FIRST_LO, NOT_FIRST_HI = _bits(c for c in range(NUM_CELLS) if c % SIZE != 0)  # all but column a
NOT_LAST_LO, NOT_LAST_HI = _bits(c for c in range(NUM_CELLS) if c % SIZE != SIZE - 1)  # all but column k
# the edges: 0 top row, 1 bottom row, 2 left column, 3 right column
_EDGES = [
    _bits(range(SIZE)),
    _bits(range(NUM_CELLS - SIZE, NUM_CELLS)),
    _bits(range(0, NUM_CELLS, SIZE)),
    _bits(range(SIZE - 1, NUM_CELLS, SIZE)),
]
EDGE_LO = np.array([lo for lo, _ in _EDGES], dtype=np.uint64)
EDGE_HI = np.array([hi for _, hi in _EDGES], dtype=np.uint64)
MAX_RINGS = NUM_CELLS + 1  # distances 0..NUM_CELLS
# the learned bot's scratch after its weights, in float64 slots: the view, the empty cells, then
# the cells at each distance (lo, hi) from each of the four edges, as uint64
SCRATCH = VIEW_SIZE + NUM_CELLS + 4 * 2 * MAX_RINGS


@njit(cache=True, inline="always")
def _up(lo, hi, s):
    """The cells ``s`` further on from those of the set (cell + s)."""
    return lo << _U(s), ((hi << _U(s)) | (lo >> _U(64 - s))) & HI_ALL


@njit(cache=True, inline="always")
def _down(lo, hi, s):
    """The cells ``s`` back from those of the set (cell - s)."""
    return (lo >> _U(s)) | (hi << _U(64 - s)), hi >> _U(s)


@njit(cache=True, inline="always")
def _neighbours(lo, hi):
    """Every cell next to a cell of the set."""
    a_lo, a_hi = lo & NOT_LAST_LO, hi & NOT_LAST_HI  # the cells with a neighbour on their right
    b_lo, b_hi = lo & NOT_FIRST_LO, hi & NOT_FIRST_HI  # on their left
    l1, h1 = _up(a_lo, a_hi, 1)  # (r, c + 1)
    l2, h2 = _down(a_lo, a_hi, SIZE - 1)  # (r - 1, c + 1)
    l3, h3 = _down(b_lo, b_hi, 1)  # (r, c - 1)
    l4, h4 = _up(b_lo, b_hi, SIZE - 1)  # (r + 1, c - 1)
    l5, h5 = _up(lo, hi, SIZE)  # (r + 1, c)
    l6, h6 = _down(lo, hi, SIZE)  # (r - 1, c)
    return l1 | l2 | l3 | l4 | l5 | l6, h1 | h2 | h3 | h4 | h5 | h6


@njit(cache=True)
def distance_rings(own_lo, own_hi, empty_lo, empty_hi, side, rings):
    """The cells by their distance from edge ``side`` (0 top, 1 bottom, 2 left, 3 right) for the
    player whose stones are ``own``: ``rings[2 * d]`` (lo) and ``rings[2 * d + 1]`` (hi) hold the
    cells that player can join to the edge by filling ``d`` empty cells, the cell's own included
    (own stones cost nothing, the opponent's are walls: ``edge_distance``'s 0-1 search, over sets).
    Returns the number of distances written; the cells not in any are cut off from the edge."""
    seen_lo = seen_hi = _U(0)
    front_lo, front_hi = EDGE_LO[side] & own_lo, EDGE_HI[side] & own_hi
    d = 0
    while True:
        # the cells at distance d: the front and every own stone joined to it
        ring_lo, ring_hi = front_lo, front_hi
        while front_lo | front_hi:
            n_lo, n_hi = _neighbours(front_lo, front_hi)
            front_lo = n_lo & own_lo & ~ring_lo & ~seen_lo
            front_hi = n_hi & own_hi & ~ring_hi & ~seen_hi
            ring_lo |= front_lo
            ring_hi |= front_hi
        rings[2 * d], rings[2 * d + 1] = ring_lo, ring_hi
        seen_lo |= ring_lo
        seen_hi |= ring_hi
        d += 1
        # the next front: the empty cells next to those (and, at distance 1, those on the edge)
        n_lo, n_hi = _neighbours(ring_lo, ring_hi)
        if d == 1:
            n_lo |= EDGE_LO[side]
            n_hi |= EDGE_HI[side]
        front_lo, front_hi = n_lo & empty_lo & ~seen_lo, n_hi & empty_hi & ~seen_hi
        if (front_lo | front_hi) == 0:
            return d


@njit(cache=True)
def path_cells(first, n_first, second, n_second, far_side, empty_lo, empty_hi):
    """The empty cells on a shortest path between a player's two edges (``first``: the distance
    rings from one, ``second``: from the other, ``far_side``: the other's number), the empty cells
    on a path one cell longer, and the shortest path's length (FAR when there is none), as
    ``(on_lo, on_hi, near_lo, near_hi, length)``."""
    best = FAR
    for d in range(n_first):
        if (first[2 * d] & EDGE_LO[far_side]) | (first[2 * d + 1] & EDGE_HI[far_side]):
            best = d
            break
    on_lo = on_hi = near_lo = near_hi = _U(0)
    # an empty cell k from one edge and j from the other lies on a path of k + j - 1 empty cells
    for k in range(1, min(best + 2, n_first)):
        j = best + 1 - k
        if 1 <= j < n_second:
            on_lo |= first[2 * k] & second[2 * j]
            on_hi |= first[2 * k + 1] & second[2 * j + 1]
        if j + 1 < n_second:
            near_lo |= first[2 * k] & second[2 * j + 2]
            near_hi |= first[2 * k + 1] & second[2 * j + 3]
    return on_lo & empty_lo, on_hi & empty_hi, near_lo & empty_lo, near_hi & empty_hi, best


@njit(cache=True, inline="always")
def canonical_cell(cell, white):
    """The cell of the view that shows ``cell``, and back (the map is its own inverse)."""
    return (cell % SIZE) * SIZE + cell // SIZE if white else cell


@njit(cache=True, inline="always")
def _bit(lo, hi, cell):
    """1.0 when ``cell`` is in the set, else 0.0."""
    word, shift = (lo, cell) if cell < 64 else (hi, cell - 64)
    return float((word >> _U(shift)) & _U(1))


@njit(cache=True)
def fill_view(state, seen, valid, rings):
    """Write level 2's view of ``state`` into ``seen`` (VIEW_SIZE values) and its empty cells, in the
    view's order, into ``valid`` (1.0 or 0.0); ``rings`` (uint64, 8 * MAX_RINGS) is scratch."""
    white = state[S_WHITE] == 1.0
    mine_lo = mine_hi = theirs_lo = theirs_hi = _U(0)
    for cell in range(NUM_CELLS):
        content = state[S_BOARD + cell]
        c = canonical_cell(cell, white)
        valid[c] = 1.0 if content == EMPTY else 0.0
        seen[P_MINE * NUM_CELLS + c] = 1.0 if content == MINE else 0.0
        seen[P_THEIRS * NUM_CELLS + c] = 1.0 if content == THEIRS else 0.0
        bit = _U(1) << _U(c % 64)
        if content == MINE:
            if c < 64:
                mine_lo |= bit
            else:
                mine_hi |= bit
        elif content == THEIRS:
            if c < 64:
                theirs_lo |= bit
            else:
                theirs_hi |= bit
    empty_lo = ~(mine_lo | theirs_lo)
    empty_hi = ~(mine_hi | theirs_hi) & HI_ALL
    n = 2 * MAX_RINGS
    top, bottom, left, right = rings[:n], rings[n : 2 * n], rings[2 * n : 3 * n], rings[3 * n :]
    n_top = distance_rings(mine_lo, mine_hi, empty_lo, empty_hi, 0, top)
    n_bottom = distance_rings(mine_lo, mine_hi, empty_lo, empty_hi, 1, bottom)
    n_left = distance_rings(theirs_lo, theirs_hi, empty_lo, empty_hi, 2, left)
    n_right = distance_rings(theirs_lo, theirs_hi, empty_lo, empty_hi, 3, right)
    my_lo, my_hi, my_near_lo, my_near_hi, mine = path_cells(top, n_top, bottom, n_bottom, 1, empty_lo, empty_hi)
    th_lo, th_hi, th_near_lo, th_near_hi, theirs = path_cells(left, n_left, right, n_right, 3, empty_lo, empty_hi)
    for cell in range(NUM_CELLS):
        seen[P_MY_PATH * NUM_CELLS + cell] = _bit(my_lo, my_hi, cell)
        seen[P_MY_NEAR * NUM_CELLS + cell] = _bit(my_near_lo, my_near_hi, cell)
        seen[P_THEIR_PATH * NUM_CELLS + cell] = _bit(th_lo, th_hi, cell)
        seen[P_THEIR_NEAR * NUM_CELLS + cell] = _bit(th_near_lo, th_near_hi, cell)
        seen[P_SAVE * NUM_CELLS + cell] = 0.0
        seen[P_LAST * NUM_CELLS + cell] = 0.0
    seen[V_MY_DISTANCE] = min(mine, 2 * SIZE)
    seen[V_THEIR_DISTANCE] = min(theirs, 2 * SIZE)
    seen[V_MOVES] = state[S_MOVES]
    last = int(state[S_LAST]) - 1
    if last >= 0 and state[S_BOARD + last] == THEIRS:
        last = canonical_cell(last, white)
        seen[P_LAST * NUM_CELLS + last] = 1.0
        # a bridge of mine through the opponent's new stone: my stones (or my edge, off the top or
        # the bottom row) two steps apart on the ring around it; the empty cell between them saves it
        row, col = last // SIZE, last % SIZE
        for k in range(6):
            r, c = row + RING[k, 0], col + RING[k, 1]
            if not (0 <= r < SIZE and 0 <= c < SIZE) or valid[r * SIZE + c] != 1.0:
                continue
            bridged = True
            for j in (k + 5, k + 1):
                r2, c2 = row + RING[j % 6, 0], col + RING[j % 6, 1]
                if 0 <= r2 < SIZE and 0 <= c2 < SIZE:
                    bridged = bridged and seen[P_MINE * NUM_CELLS + r2 * SIZE + c2] == 1.0
                else:
                    bridged = bridged and 0 <= c2 < SIZE  # off the top or the bottom row: my edge
            if bridged:
                seen[P_SAVE * NUM_CELLS + r * SIZE + c] = 1.0


@njit(cache=True)
def policy_view(state):
    """Level 2's view of ``state`` and the map of its actions (``actions[i]``: the game's cell shown
    as cell ``i`` of the view), as ``makeenv.learn.imitate --view`` takes one."""
    seen = np.empty(VIEW_SIZE)
    valid = np.empty(NUM_CELLS)
    rings = np.empty(8 * MAX_RINGS, dtype=np.uint64)
    fill_view(state, seen, valid, rings)
    white = state[S_WHITE] == 1.0
    actions = np.empty(NUM_CELLS, dtype=np.int64)
    for i in range(NUM_CELLS):
        actions[i] = canonical_cell(i, white)
    return seen, actions


@njit(cache=True)
def learned(state, data):
    """Learned: a small network over the board and its shortest paths, trained by
    makeenv.learn.imitate to copy the search."""
    if state[S_OVER] == 1.0:
        return 0, data
    base = data.shape[0] - SCRATCH  # the scratch after the weights: nothing is allocated
    seen = data[base : base + VIEW_SIZE]
    valid = data[base + VIEW_SIZE : base + VIEW_SIZE + NUM_CELLS]
    fill_view(state, seen, valid, data[base + VIEW_SIZE + NUM_CELLS :].view(np.uint64))
    # a stone that joins my edges wins; else one the opponent would join theirs with must be
    # blocked: the network then chooses among those cells only
    if seen[V_MY_DISTANCE] == 1.0:
        valid = seen[P_MY_PATH * NUM_CELLS : (P_MY_PATH + 1) * NUM_CELLS]
    elif seen[V_THEIR_DISTANCE] == 1.0:
        valid = seen[P_THEIR_PATH * NUM_CELLS : (P_THEIR_PATH + 1) * NUM_CELLS]
    choice = mlp_action(seen, data, valid)
    return canonical_cell(max(choice, 0), state[S_WHITE] == 1.0), data


def learned_data(path: Path | str = WEIGHTS_FILE) -> np.ndarray:
    """Level 2's bot data: the packed network of a weights file, then its scratch."""
    return load_policy_data(path, VIEW_SIZE, NUM_CELLS, scratch=SCRATCH)


LEVELS: dict[int, Any] = {1: shortest_path, 3: mcts}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
