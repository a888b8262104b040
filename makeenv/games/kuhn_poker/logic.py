"""KuhnPoker: the rules, as numba functions over flat float64 arrays (OpenSpiel's ``kuhn_poker``).

Two players, a deck of three cards (Jack, Queen, King). Each player antes 1 chip and gets one
card face down. Player 0 acts first; a player may **Pass** (check, or fold when facing a bet) or
**Bet** (put in 1 more chip, or call a bet). The hand ends when

* both pass: showdown, the higher card wins the pot (1 chip from the loser);
* a bet is called: showdown for 2 chips;
* a player passes while facing a bet: that player folds and loses the 1 chip it put in.

The whole deal happens in ``dealEnv``/``initEnv``; after it, the game is deterministic. The
array layouts are documented in this folder's README.md (and repeated beside the constants).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from makeenv.array.numba_helpers import new_values, uniform

# ---- actions and cards -----------------------------------------------------------------------
PASS, BET = 0, 1
ACTION_NAMES = ("Pass", "Bet")
CARD_NAMES = ("Jack", "Queen", "King")
NUM_ACTIONS = 2
NUM_CARDS = 3
CARDS_DEALT = 2  # one per player
NUM_PLAYERS = 2
MAX_MOVES = 3  # pass, bet, pass/bet is the longest hand

# ---- env: the referee's view (length ENV_SIZE) -----------------------------------------------
E_PLAYER = 0  # player to move: 0 or 1
E_CARD = 1  # E_CARD + p: player p's card (0 Jack, 1 Queen, 2 King)
E_MOVES = 3  # number of betting moves made (0..3)
E_HISTORY = 4  # 4..6: the moves in order (0 Pass, 1 Bet), -1 not made yet
E_CHIPS = 7  # E_CHIPS + p: chips player p has put in the pot (the ante included)
E_WINNER = 9  # -1 running, 0 or 1 the winner (what checkEnded returns)
E_SHOWDOWN = 10  # 1 when the hand ended at a showdown (both cards are shown)
ENV_SIZE = 11

# ---- state: one player's view (length STATE_SIZE); every value is 0/1 or a chip count --------
S_CARD = 0  # 0..2 one-hot: my card (Jack, Queen, King)
S_SEAT = 3  # 3, 4 one-hot: I act first (player 0) / second (player 1)
S_HISTORY = 5  # 5..10: move k at 5 + 2k, one-hot (Pass, Bet); zeros for moves not made
S_CHIPS = 11  # chips I have put in the pot
S_THEIR_CHIPS = 12  # chips my opponent has put in
S_MY_TURN = 13  # 1 when I am to move
S_OVER = 14  # 1 when the hand is over
S_WON = 15  # 1 when I won the pot
S_LOST = 16  # 1 when my opponent won the pot
S_THEIR_CARD = 17  # 17..19 one-hot: the opponent's card, shown only after a showdown
STATE_SIZE = 20


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
def dealEnv(card0, card1):
    """A new hand with player 0 holding ``card0`` and player 1 ``card1`` (0 Jack .. 2 King)."""
    env = new_values(ENV_SIZE)
    env[E_PLAYER] = 0.0
    env[E_CARD] = card0
    env[E_CARD + 1] = card1
    env[E_MOVES] = 0.0
    for k in range(MAX_MOVES):
        env[E_HISTORY + k] = -1.0
    env[E_CHIPS] = 1.0
    env[E_CHIPS + 1] = 1.0
    env[E_WINNER] = -1.0
    env[E_SHOWDOWN] = 0.0
    return env


@njit(cache=True)
def initEnv():
    """A new hand: two different cards dealt at random (the 6 deals are equally likely)."""
    card0 = int(uniform() * NUM_CARDS)
    card1 = (card0 + 1 + int(uniform() * (NUM_CARDS - 1))) % NUM_CARDS
    return dealEnv(card0, card1)


@njit(cache=True)
def allDeals():
    """Every hand ``initEnv`` can start, one env per row, each equally likely (for CFR)."""
    deals = np.zeros((NUM_CARDS * (NUM_CARDS - 1), ENV_SIZE), dtype=np.float64)
    row = 0
    for card0 in range(NUM_CARDS):
        for card1 in range(NUM_CARDS):
            if card1 != card0:
                deals[row] = dealEnv(card0, card1)
                row += 1
    return deals


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_PLAYER])


# getPlayerState, getAgentState, getValidActions and isValidAction run at every step: inlined
# into their callers (the runner, an agent), they save a call and its reference counting
@njit(cache=True, inline="always")
def getPlayerState(env, player):
    state = new_values(STATE_SIZE)
    for k in range(STATE_SIZE):  # cleared in the caller's code (np.zeros is a call of its own)
        state[k] = 0.0
    opponent = 1 - player
    state[S_CARD + int(env[E_CARD + player])] = 1.0
    state[S_SEAT + player] = 1.0
    for k in range(int(env[E_MOVES])):
        state[S_HISTORY + 2 * k + int(env[E_HISTORY + k])] = 1.0
    state[S_CHIPS] = env[E_CHIPS + player]
    state[S_THEIR_CHIPS] = env[E_CHIPS + opponent]
    winner = int(env[E_WINNER])
    if winner < 0:
        if int(env[E_PLAYER]) == player:
            state[S_MY_TURN] = 1.0
    else:
        state[S_OVER] = 1.0
        if winner == player:
            state[S_WON] = 1.0
        else:
            state[S_LOST] = 1.0
        if env[E_SHOWDOWN] == 1.0:
            state[S_THEIR_CARD + int(env[E_CARD + opponent])] = 1.0
    return state


@njit(cache=True, inline="always")
def getAgentState(env):
    return getPlayerState(env, int(env[E_PLAYER]))


@njit(cache=True, inline="always")
def getValidActions(state):
    """Pass and Bet while the hand runs; action 0 alone once it is over (the final turn)."""
    valid = new_values(NUM_ACTIONS)
    valid[PASS] = 1.0
    valid[BET] = 0.0 if state[S_OVER] > 0.5 else 1.0
    return valid


@njit(cache=True, inline="always")
def isValidAction(state, action) -> bool:
    if state[S_OVER] > 0.5:
        return action == 0  # a finished game offers action 0 alone (the final turn)
    return action == PASS or action == BET


@njit(cache=True)
def apply_action(action, env):
    """``stepEnv``'s work, returning nothing (see ``stepEnv``)."""
    player = int(env[E_PLAYER])
    opponent = 1 - player
    moves = int(env[E_MOVES])
    facing_bet = env[E_CHIPS + opponent] > env[E_CHIPS + player]
    env[E_HISTORY + moves] = action
    env[E_MOVES] = moves + 1
    if action == BET:
        env[E_CHIPS + player] += 1.0
        if facing_bet:  # a call: showdown for 2 chips
            _showdown(env)
        else:
            env[E_PLAYER] = opponent
    elif facing_bet:  # a fold
        env[E_WINNER] = opponent
    elif moves == 1:  # pass, pass: showdown for the antes
        _showdown(env)
    else:
        env[E_PLAYER] = opponent


# inlined into its callers (the runner's loop, an agent) as a shell whose work returns nothing: a
# call returning the env costs reference counts (atomic operations) at every step
@njit(cache=True, inline="always")
def stepEnv(action, env):
    apply_action(action, env)
    return env


@njit(cache=True)
def _showdown(env):
    env[E_SHOWDOWN] = 1.0
    env[E_WINNER] = 0.0 if env[E_CARD] > env[E_CARD + 1] else 1.0


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_WINNER])


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] > 0.5:
        return -1
    if state[S_WON] > 0.5:
        return 1
    return 0


# inlined into the runner's settling of every game (a short game: a call is a good part of it)
@njit(cache=True, inline="always")
def getReturns(env):
    """Chips won (+) or lost (-) by each player: the loser loses what it put in the pot."""
    returns = new_values(NUM_PLAYERS)
    returns[0] = 0.0
    returns[1] = 0.0
    winner = int(env[E_WINNER])
    if winner >= 0:
        lost = env[E_CHIPS + 1 - winner]
        returns[winner] = lost
        returns[1 - winner] = -lost
    return returns


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``: the opponent's unseen card dealt at random, then the
    betting replayed (determinization for search bots; never reads the real card)."""
    mine = 0
    for c in range(NUM_CARDS):
        if state[S_CARD + c] > 0.5:
            mine = c
    theirs = -1
    for c in range(NUM_CARDS):
        if state[S_THEIR_CARD + c] > 0.5:
            theirs = c
    if theirs < 0:
        theirs = (mine + 1 + int(np.random.random() * (NUM_CARDS - 1))) % NUM_CARDS
    me = 1 if state[S_SEAT + 1] > 0.5 else 0
    env = dealEnv(mine, theirs) if me == 0 else dealEnv(theirs, mine)
    for k in range(MAX_MOVES):
        if checkEnded(env) != -1:
            break
        if state[S_HISTORY + 2 * k + BET] > 0.5:
            stepEnv(BET, env)
        elif state[S_HISTORY + 2 * k + PASS] > 0.5:
            stepEnv(PASS, env)
        else:
            break
    return env
