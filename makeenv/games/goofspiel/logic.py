"""Goofspiel: the rules, as numba functions over flat float64 arrays.

OpenSpiel's ``goofspiel`` with its defaults: two players, 13 cards, prizes in random order,
win/loss returns, and bids revealed once a round is over (``imp_info=False``).

1. Each player holds the cards 1..13; a shuffled deck of prize cards 1..13 lies face down.
2. Each round the top prize card is turned up and both players bid one card from their hand.
   OpenSpiel's bids are simultaneous; here player 0 bids, then player 1, and no state shows a bid
   of the current round to the other player before the round is over.
3. The higher bid wins the prize's value in points; on equal bids the prize is discarded. Both
   bid cards are spent (and shown).
4. The 13th round offers no choice (one card each is left), so, as in OpenSpiel, it is played
   automatically right after the 12th.
5. Whoever has more points wins (+1, the other -1); equal points are a draw (0 each).

The array layouts are documented in this folder's README.md (and repeated beside the constants).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from makeenv.array.numba_helpers import fill_values, new_values, uniform

# ---- the game's sizes ------------------------------------------------------------------------
NUM_PLAYERS = 2
NUM_CARDS = 13  # cards 1..13; action k bids the card of value k + 1
NUM_ACTIONS = NUM_CARDS
DRAW = NUM_PLAYERS  # what checkEnded returns for equal points

# ---- env: the referee's view (length ENV_SIZE) -----------------------------------------------
E_PLAYER = 0  # player to bid (0, then 1, every round)
E_ROUND = 1  # rounds over so far (0..13); 13 when the game is over
E_POINTS = 2  # E_POINTS + p: player p's points
E_BIDS = 4  # E_BIDS + p: player p's bid this round (card index 0..12), -1 not yet
E_WINNER = 6  # -1 running, 0 or 1 the winner, 2 a draw (what checkEnded returns)
E_PRIZES = 7  # E_PRIZES + r: the prize of round r (card index 0..12): the shuffled prize deck
E_HANDS = 20  # E_HANDS + 13 p + k: 1 while player p still holds card k (a bid leaves the hand
# when its round is over)
E_HISTORY = 46  # E_HISTORY + 2 r + p: player p's bid in round r (card index), -1 not played yet
ENV_SIZE = E_HISTORY + NUM_PLAYERS * NUM_CARDS  # 72

# ---- state: one player's view (length STATE_SIZE); every value is 0, 1 or a count ------------
S_HAND = 0  # 0..12: 1 for each card I may still bid (my bid of this round is not there)
S_THEIR_HAND = 13  # 13..25: my opponent's cards not yet shown (its bid of this round included)
S_PRIZE = 26  # 26..38: the prize card of this round, one-hot (all 0 at the end)
S_DECK = 39  # 39..51: 1 for each prize card still face down
S_MY_BID = 52  # 52..64: my bid of this round, one-hot (all 0 before I bid)
S_POINTS = 65  # my points
S_THEIR_POINTS = 66  # my opponent's points
S_HISTORY = 67  # 67 + 3 r ..: round r's prize, my bid, my opponent's bid (values 1..13), 0 0 0
# until round r is over
S_ROUND = 106  # rounds over so far (0..13)
S_SEAT = 107  # 1 when I bid second in every round (I am player 1), 0 when I bid first
S_MY_TURN = 108  # 1 when I am to bid
S_OVER = 109  # 1 when the game is over
S_WON = 110  # 1 when I won
S_LOST = 111  # 1 when my opponent won
STATE_SIZE = 112

SIMULTANEOUS = True
PRIVATE_ACTIONS = tuple(range(NUM_ACTIONS))  # a bid is hidden until its round is over


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
    """A new game: full hands, a shuffled prize deck, no bids."""
    env = new_values(ENV_SIZE)
    fill_values(env, 0, E_PRIZES, 0.0)
    env[E_BIDS] = -1.0
    env[E_BIDS + 1] = -1.0
    env[E_WINNER] = -1.0
    for r in range(NUM_CARDS):  # inside-out Fisher-Yates: a uniformly shuffled prize deck
        j = int(uniform() * (r + 1))
        env[E_PRIZES + r] = env[E_PRIZES + j]
        env[E_PRIZES + j] = r
    fill_values(env, E_HANDS, E_HISTORY - E_HANDS, 1.0)
    fill_values(env, E_HISTORY, ENV_SIZE - E_HISTORY, -1.0)
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_PLAYER])


# getPlayerState, getAgentState, getValidActions and isValidAction run at every step: inlined
# into their callers (the runner, an agent), they save a call and its reference counting
@njit(cache=True, inline="always")
def getPlayerState(env, player):
    state = new_values(STATE_SIZE)
    fill_values(state, 0, STATE_SIZE, 0.0)  # cleared in the caller's code (np.zeros is a call)
    other = 1 - player
    rounds = int(env[E_ROUND])
    mine = E_HANDS + NUM_CARDS * player
    theirs = E_HANDS + NUM_CARDS * other
    for k in range(NUM_CARDS):
        state[S_HAND + k] = env[mine + k]
        state[S_THEIR_HAND + k] = env[theirs + k]
    for r in range(rounds, NUM_CARDS):
        state[S_DECK + int(env[E_PRIZES + r])] = 1.0
    if rounds < NUM_CARDS:
        prize = int(env[E_PRIZES + rounds])
        state[S_PRIZE + prize] = 1.0
        state[S_DECK + prize] = 0.0
        bid = int(env[E_BIDS + player])
        if bid >= 0:
            state[S_MY_BID + bid] = 1.0
            state[S_HAND + bid] = 0.0
    state[S_POINTS] = env[E_POINTS + player]
    state[S_THEIR_POINTS] = env[E_POINTS + other]
    for r in range(rounds):
        state[S_HISTORY + 3 * r] = env[E_PRIZES + r] + 1.0
        state[S_HISTORY + 3 * r + 1] = env[E_HISTORY + 2 * r + player] + 1.0
        state[S_HISTORY + 3 * r + 2] = env[E_HISTORY + 2 * r + other] + 1.0
    state[S_ROUND] = rounds
    state[S_SEAT] = player
    winner = env[E_WINNER]
    if winner >= 0.0:
        state[S_OVER] = 1.0
        if winner == player:
            state[S_WON] = 1.0
        elif winner == other:
            state[S_LOST] = 1.0
    elif env[E_PLAYER] == player:
        state[S_MY_TURN] = 1.0
    return state


@njit(cache=True, inline="always")
def getAgentState(env):
    return getPlayerState(env, int(env[E_PLAYER]))


@njit(cache=True, inline="always")
def getValidActions(state):
    """The cards in my hand; action 0 alone once the game is over (the final turn)."""
    valid = new_values(NUM_ACTIONS)
    over = state[S_OVER] == 1.0
    running = not over
    for k in range(NUM_CARDS):  # `&`, not branches: the cards left in a hand are random
        valid[k] = (state[S_HAND + k] == 1.0) & running
    valid[0] += over
    return valid


@njit(cache=True, inline="always")
def isValidAction(state, action) -> bool:
    if action < 0 or action >= NUM_CARDS:
        return False
    if state[S_OVER] == 1.0:
        return action == 0  # a finished game offers action 0 alone (the final turn)
    return state[S_HAND + action] == 1.0


@njit(cache=True)
def _settle_round(env, bid0, bid1):
    """Both bids are in: award (or discard) the prize, spend the cards, record the round."""
    r = int(env[E_ROUND])
    value = env[E_PRIZES + r] + 1.0
    env[E_POINTS] += value if bid0 > bid1 else 0.0  # selects: which bid is higher is random
    env[E_POINTS + 1] += value if bid1 > bid0 else 0.0
    env[E_HANDS + bid0] = 0.0
    env[E_HANDS + NUM_CARDS + bid1] = 0.0
    env[E_HISTORY + 2 * r] = bid0
    env[E_HISTORY + 2 * r + 1] = bid1
    env[E_ROUND] = r + 1.0


@njit(cache=True)
def _last_card(env, player) -> int:
    start = E_HANDS + NUM_CARDS * player
    for k in range(NUM_CARDS):
        if env[start + k] == 1.0:
            return k
    return 0


@njit(cache=True)
def apply_action(action, env):
    """``stepEnv``'s work, returning nothing (see ``stepEnv``)."""
    if env[E_PLAYER] == 0.0:
        env[E_BIDS] = action
        env[E_PLAYER] = 1.0
        return
    _settle_round(env, int(env[E_BIDS]), action)
    env[E_BIDS] = -1.0
    env[E_PLAYER] = 0.0
    if env[E_ROUND] == NUM_CARDS - 1:  # no choice left: play the last round now
        _settle_round(env, _last_card(env, 0), _last_card(env, 1))
        if env[E_POINTS] > env[E_POINTS + 1]:
            env[E_WINNER] = 0.0
        elif env[E_POINTS + 1] > env[E_POINTS]:
            env[E_WINNER] = 1.0
        else:
            env[E_WINNER] = DRAW


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
    """An env consistent with ``state`` (its player to move): the face-down prizes are shuffled
    anew and, when the opponent has already bid this round, its bid is drawn from its hand."""
    env = initEnv()
    rounds = int(min(max(state[S_ROUND], 0.0), NUM_CARDS))
    me = 1 if state[S_SEAT] == 1.0 else 0
    other = 1 - me
    # whose bid: mine when I am to move, else the other player's (player 1 once player 0 has bid)
    to_move = me if state[S_MY_TURN] == 1.0 else other
    env[E_PLAYER] = to_move
    env[E_ROUND] = rounds
    env[E_POINTS + me] = state[S_POINTS]
    env[E_POINTS + other] = state[S_THEIR_POINTS]
    for k in range(NUM_CARDS):
        env[E_HANDS + NUM_CARDS * me + k] = 1.0 if state[S_HAND + k] == 1.0 or state[S_MY_BID + k] == 1.0 else 0.0
        env[E_HANDS + NUM_CARDS * other + k] = 1.0 if state[S_THEIR_HAND + k] == 1.0 else 0.0
    # the prizes: the rounds played, this round's prize, then the face-down deck in a new order
    deck = np.empty(NUM_CARDS, dtype=np.int64)
    left = 0
    prize = -1
    for k in range(NUM_CARDS):
        if state[S_PRIZE + k] == 1.0:
            prize = k
        elif state[S_DECK + k] == 1.0:
            deck[left] = k
            left += 1
    for r in range(rounds):
        env[E_PRIZES + r] = state[S_HISTORY + 3 * r] - 1.0
        env[E_HISTORY + 2 * r + me] = state[S_HISTORY + 3 * r + 1] - 1.0
        env[E_HISTORY + 2 * r + other] = state[S_HISTORY + 3 * r + 2] - 1.0
    slot = rounds
    if prize >= 0 and slot < NUM_CARDS:
        env[E_PRIZES + slot] = prize
        slot += 1
    for i in range(left):
        j = i + int(np.random.random() * (left - i))
        deck[i], deck[j] = deck[j], deck[i]
        if slot < NUM_CARDS:
            env[E_PRIZES + slot] = deck[i]
            slot += 1
    for k in range(NUM_CARDS):
        if state[S_MY_BID + k] == 1.0:
            env[E_BIDS + me] = k
    if to_move == 1 and me == 1:
        # my opponent has bid: some card of its hand, unknown to me
        count = 0
        for k in range(NUM_CARDS):
            count += state[S_THEIR_HAND + k] == 1.0
        pick = int(np.random.random() * count)
        for k in range(NUM_CARDS):
            if state[S_THEIR_HAND + k] == 1.0:
                if pick == 0:
                    env[E_BIDS] = k
                    break
                pick -= 1
    if state[S_OVER] == 1.0:
        env[E_WINNER] = me if state[S_WON] == 1.0 else (other if state[S_LOST] == 1.0 else DRAW)
    return env
