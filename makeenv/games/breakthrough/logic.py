"""Breakthrough: the rules, as numba functions over flat float64 arrays.

An 8x8 board; each player starts with two full rows of pieces on their own side. Black (player
0) starts on ranks 8 and 7 and moves first, down the board; White (player 1) starts on ranks 2 and
1 and moves up. On a turn a player moves one piece one square forward, straight or diagonally:

* straight ahead only onto an empty square;
* diagonally forward onto an empty square or onto an opponent's piece, capturing it.

The first player to bring a piece onto the far row (Black: rank 1, White: rank 8) wins, and so
does a player who captures the opponent's last piece. There are no draws: the side to move always
has a move (its most advanced piece can always step diagonally forward).

Squares are numbered as OpenSpiel numbers them: ``square = row * 8 + col``; row 0 is rank 8
(Black's home row), col 0 is file a. An action is a square and a step, ``action = square * 3 +
step``: step 0 goes diagonally forward towards file a, 1 straight forward, 2 diagonally forward
towards file h, "forward" being the mover's direction (Black: down, White: up). OpenSpiel's
action id for the same move is ``2 * (square * 6 + 3 * player + step) + capture``.

The array layouts are documented in this folder's README.md (and beside the constants below).
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---- board and actions -----------------------------------------------------------------------
ROWS = 8
COLS = 8
NUM_SQUARES = ROWS * COLS
NUM_PLAYERS = 2
BLACK, WHITE = 0, 1  # players; Black moves first
EMPTY, BLACK_PIECE, WHITE_PIECE = 0.0, 1.0, 2.0  # env board values (absolute colours)
MINE, THEIRS = 1.0, 2.0  # state board values (relative to the player who sees it)
NUM_STEPS = 3  # 0 diagonal towards file a, 1 straight, 2 diagonal towards file h
STRAIGHT = 1
NUM_ACTIONS = NUM_SQUARES * NUM_STEPS  # 192
MAX_MOVES = 48  # 16 pieces x 3 steps: a bound on one side's valid moves
FORWARD = (1, -1)  # row change of a step: Black moves down (rows grow), White up


def _target_table() -> np.ndarray:
    """TARGET[player, action]: the square the step lands on, or -1 when it leaves the board."""
    table = np.full((NUM_PLAYERS, NUM_ACTIONS), -1, dtype=np.int64)
    for player in range(NUM_PLAYERS):
        for square in range(NUM_SQUARES):
            for step in range(NUM_STEPS):
                row, col = square // COLS + FORWARD[player], square % COLS + step - 1
                if 0 <= row < ROWS and 0 <= col < COLS:
                    table[player, square * NUM_STEPS + step] = row * COLS + col
    return table


TARGET = _target_table()

# ---- env: the referee's view (length ENV_SIZE) -----------------------------------------------
E_BOARD = 0  # 0..63: EMPTY, BLACK_PIECE or WHITE_PIECE on each square
E_PLAYER = 64  # player to move: 0 Black, 1 White
E_WINNER = 65  # -1 running, 0 or 1 the winner (what checkEnded returns)
E_PIECES = 66  # E_PIECES + p: pieces player p has left
E_MOVES = 68  # moves played so far
E_LAST_FROM = 69  # square the last move came from, -1 before the first move
E_LAST_TO = 70  # square the last move went to, -1 before the first move
ENV_SIZE = 71

# ---- state: one player's view (length STATE_SIZE); every value is 0, 1, 2 or a count ---------
S_BOARD = 0  # 0..63: 0 empty, 1 my piece, 2 opponent's piece (absolute squares, as E_BOARD)
S_WHITE = 64  # 1 when I play White (moving up the board), 0 when I play Black
S_MY_TURN = 65  # 1 while the game runs and it is my turn
S_OVER = 66  # 1 when the game is over
S_WON = 67  # 1 when I won
S_LOST = 68  # 1 when my opponent won
S_MY_PIECES = 69  # pieces I have left
S_THEIR_PIECES = 70  # pieces my opponent has left
S_MOVES = 71  # moves played so far
S_LAST_FROM = 72  # square + 1 the last move came from (0 before the first move)
S_LAST_TO = 73  # square + 1 the last move went to (0 before the first move)
STATE_SIZE = 74


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    return NUM_PLAYERS


@njit(cache=True)
def initEnv():
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    for col in range(COLS):
        for row in (0, 1):
            env[E_BOARD + row * COLS + col] = BLACK_PIECE
        for row in (ROWS - 2, ROWS - 1):
            env[E_BOARD + row * COLS + col] = WHITE_PIECE
    env[E_WINNER] = -1.0
    env[E_PIECES] = 2 * COLS
    env[E_PIECES + 1] = 2 * COLS
    env[E_LAST_FROM] = -1.0
    env[E_LAST_TO] = -1.0
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_PLAYER])


@njit(cache=True, inline="always")
def step_allowed(board, start, action, player, mine) -> bool:
    """The rule of one step: may the mover (``player``) play ``action``?

    ``board[start + square]`` holds ``mine`` on the mover's pieces (the env's absolute colours or
    a state's relative ones; an offset, not a slice: a slice costs two atomic reference counts).
    The piece steps one row forward; a straight step needs an empty square, a diagonal one a
    square without a piece of the mover's (empty, or the opponent's: a capture).
    """
    if board[start + action // NUM_STEPS] != mine:
        return False
    target = TARGET[player, action]
    if target < 0:
        return False
    if action % NUM_STEPS == STRAIGHT:
        return board[start + target] == EMPTY
    return board[start + target] != mine


@njit(cache=True)
def valid_moves(env, out) -> int:
    """Write the valid actions of the player to move into ``out`` (ascending); return how many."""
    player = int(env[E_PLAYER])
    mine = BLACK_PIECE if player == BLACK else WHITE_PIECE
    n = 0
    for square in range(NUM_SQUARES):
        if env[E_BOARD + square] == mine:
            for action in range(square * NUM_STEPS, square * NUM_STEPS + NUM_STEPS):
                if step_allowed(env, E_BOARD, action, player, mine):
                    out[n] = action
                    n += 1
    return n


# getPlayerState, getAgentState and getValidActions, which return new arrays at every step, are
# inlined into their callers (the runner, an agent): a call of their own costs a game 9-15%
@njit(cache=True, inline="always")
def getPlayerState(env, player):
    state = np.empty(STATE_SIZE, dtype=np.float64)  # every value is written below
    if player == BLACK:  # Black's pieces are mine: the board as it is
        for square in range(NUM_SQUARES):
            state[S_BOARD + square] = env[E_BOARD + square]
    else:  # swap the colours: 1 <-> 2, 0 stays 0 (no branch per square)
        for square in range(NUM_SQUARES):
            piece = env[E_BOARD + square]
            state[S_BOARD + square] = (3.0 - piece) * (piece != EMPTY)
    winner = int(env[E_WINNER])
    state[S_WHITE] = player
    state[S_MY_TURN] = winner < 0 and int(env[E_PLAYER]) == player
    state[S_OVER] = winner >= 0
    state[S_WON] = winner == player
    state[S_LOST] = winner == 1 - player
    state[S_MY_PIECES] = env[E_PIECES + player]
    state[S_THEIR_PIECES] = env[E_PIECES + 1 - player]
    state[S_MOVES] = env[E_MOVES]
    state[S_LAST_FROM] = env[E_LAST_FROM] + 1.0
    state[S_LAST_TO] = env[E_LAST_TO] + 1.0
    return state


@njit(cache=True, inline="always")
def getAgentState(env):
    return getPlayerState(env, int(env[E_PLAYER]))


@njit(cache=True)
def isValidAction(state, action) -> bool:
    """``getValidActions(state)[action] == 1`` without building the vector."""
    if action < 0 or action >= NUM_ACTIONS:
        return False
    if state[S_OVER] == 1.0:
        return action == 0  # a finished game offers action 0 alone (the final turn)
    if not (state[S_MY_TURN] == 1.0 and state[S_OVER] == 0.0):
        return False
    player = WHITE if state[S_WHITE] == 1.0 else BLACK
    return step_allowed(state, S_BOARD, action, player, MINE)


@njit(cache=True, inline="always")
def getValidActions(state):
    # step_allowed for every action as arithmetic on 0/1 values (offsets into ``state``, no slice:
    # a slice costs two atomic reference counts): no branch per square, whose random pattern of
    # pieces would defeat the branch predictor
    valid = np.empty(NUM_ACTIONS, dtype=np.float64)
    running = 1.0 if state[S_MY_TURN] == 1.0 and state[S_OVER] == 0.0 else 0.0
    white = state[S_WHITE] == 1.0
    forward = FORWARD[WHITE] if white else FORWARD[BLACK]
    last_row = 0 if white else ROWS - 1  # the row whose pieces have no step left (the far row)
    for row in range(ROWS):
        ahead = row + forward if row != last_row else row  # the far row reads itself: masked below
        live = running if row != last_row else 0.0
        for col in range(COLS):
            first = (row * COLS + col) * NUM_STEPS
            mine = live * (state[S_BOARD + row * COLS + col] == MINE)
            front = S_BOARD + ahead * COLS + col
            left = state[front - 1] if col > 0 else MINE
            right = state[front + 1] if col < COLS - 1 else MINE
            valid[first] = mine * (left != MINE)
            valid[first + 1] = mine * (state[front] == EMPTY)
            valid[first + 2] = mine * (right != MINE)
    valid[0] += state[S_OVER] == 1.0  # a finished game offers action 0 alone (the final turn)
    return valid


@njit(cache=True)
def apply_action(action, env):
    """``stepEnv``'s work, returning nothing: play ``action`` for the player to move (an action that
    is not valid leaves env unchanged)."""
    if action < 0 or action >= NUM_ACTIONS or env[E_WINNER] >= 0.0:
        return
    player = int(env[E_PLAYER])
    mine = BLACK_PIECE if player == BLACK else WHITE_PIECE
    if not step_allowed(env, E_BOARD, action, player, mine):
        return
    square = action // NUM_STEPS
    target = TARGET[player, action]
    opponent = 1 - player
    if env[E_BOARD + target] != EMPTY:  # a capture
        env[E_PIECES + opponent] -= 1.0
    env[E_BOARD + target] = mine
    env[E_BOARD + square] = EMPTY
    far_row = ROWS - 1 if player == BLACK else 0
    if target // COLS == far_row or env[E_PIECES + opponent] == 0.0:
        env[E_WINNER] = player
    env[E_PLAYER] = opponent
    env[E_MOVES] += 1.0
    env[E_LAST_FROM] = square
    env[E_LAST_TO] = target


# inlined into its callers (the runner's loop, an agent) as a shell whose work returns nothing: a
# call returning the env costs reference counts (atomic operations) at every step
@njit(cache=True, inline="always")
def stepEnv(action, env):
    apply_action(action, env)
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_WINNER])


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] == 1.0:
        return -1
    if state[S_WON] == 1.0:
        return 1
    return 0


@njit(cache=True)
def sampleEnv(state):
    """The exact env behind ``state`` (perfect information), with that player to move."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    player = WHITE if state[S_WHITE] == 1.0 else BLACK
    mine = BLACK_PIECE if player == BLACK else WHITE_PIECE
    theirs = WHITE_PIECE if player == BLACK else BLACK_PIECE
    for square in range(NUM_SQUARES):
        if state[S_BOARD + square] == MINE:
            env[E_BOARD + square] = mine
            env[E_PIECES + player] += 1.0
        elif state[S_BOARD + square] == THEIRS:
            env[E_BOARD + square] = theirs
            env[E_PIECES + 1 - player] += 1.0
    if state[S_MY_TURN] == 1.0 or state[S_OVER] == 1.0:
        env[E_PLAYER] = player
    else:
        env[E_PLAYER] = 1 - player
    env[E_WINNER] = -1.0
    if state[S_OVER] == 1.0:
        env[E_WINNER] = player if state[S_WON] == 1.0 else 1 - player
    env[E_MOVES] = state[S_MOVES]
    env[E_LAST_FROM] = state[S_LAST_FROM] - 1.0
    env[E_LAST_TO] = state[S_LAST_TO] - 1.0
    return env
