"""Fan Tan (Sevens) with chips, four players: the rules, as numba functions over flat float64 arrays.

The rules are those of the vis/ENV library (github.com/ngoxuanphong/ENV, ``src/Base/Fantan``):

* 52 cards (Ace to King in four suits), 13 to each of 4 players; every player starts with 50 chips.
* Seats move in the order 0, 1, 2, 3, 0, ... and every deal starts with seat 0. The table starts
  empty: a suit is opened with its Seven, then built one card at a time down to the Ace and up to
  the King. On its turn a player plays one card that fits, or passes (always allowed, even with a
  card that fits): a pass puts one of its chips in the pot.
* The first player to play its last card takes the pot, and a new deal follows (chips carry over).
* The game ends as soon as a player's pass leaves it without chips. The pot then goes to the lowest
  seat still holding chips. Most chips wins; a tie goes to whoever holds fewer cards, and a tie on
  both is a shared win.

The array layouts are documented in README.md and beside the constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NUM_CARDS = 52  # card c: suit c // 13, rank c % 13 (0 Ace .. 6 Seven .. 12 King), as in vis/ENV
NUM_RANKS = 13
NUM_SUITS = 4
NUM_PLAYERS = 4
HAND_SIZE = 13
START_CHIPS = 50
SEVEN = 6
KING = 12
SUIT_NAMES = ("Spades", "Clubs", "Diamonds", "Hearts")
RANK_NAMES = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King")

# ---- actions: 0..51 play that card, 52 pass (pay a chip into the pot) --------------------------
PASS = 52
NUM_ACTIONS = 53

# ---- env: the referee's view (length ENV_SIZE) -------------------------------------------------
E_WHERE = 0  # 52 values: 0 played (on the table), 1..4 in the hand of seat value - 1
E_LOW = 52  # 4 values: the lowest rank played in each suit, -1 before its Seven
E_HIGH = 56  # 4 values: the highest rank played in each suit, -1 before its Seven
E_CHIPS = 60  # 4 values: each seat's chips
E_POT = 64  # chips in the pot
E_TO_MOVE = 65  # the seat to move
E_RESULT = 66  # what checkEnded returns: -1 running, a seat, or NUM_PLAYERS for a shared win
E_HAND_COUNT = 67  # 4 values: cards in each hand
E_DEALS = 71  # deals finished (someone went out)
E_WINNERS = 72  # 4 flags: the winners at the end
E_LAST_TAKER = 76  # the seat that went out last and took the pot, -1 before the first deal ends
E_LAST_POT = 77  # the chips it took
ENV_SIZE = 78

# ---- state: one player's view (length STATE_SIZE); every value is >= 0 ------------------------
# indices 0..111 mean what they mean in vis/ENV's Fantan state (others in seat order after me)
S_HAND = 0  # 52 flags: my cards
S_PLAYABLE = 52  # 52 flags: the cards that fit on the table now (whoever holds them)
S_CHIPS = 104  # my chips
S_OTHER_COUNTS = 105  # 3 counts: cards in the hands of the next three players
S_OVER = 108  # 1 when the game is over
S_OTHER_CHIPS = 109  # 3 counts: chips of the next three players
S_TABLE = 112  # 52 flags: the cards on the table
S_POT = 164  # chips in the pot
S_SEAT = 165  # my seat (0..3)
S_TO_MOVE = 166  # 4 flags: who moves (me, then the next players); all 0 at the end
S_WON = 170  # 1 when I am among the winners
S_WINNERS = 171  # 4 flags: the winners at the end (me, then the next players)
S_DEALS = 175  # deals finished
S_LAST_TAKER = 176  # 4 flags: who went out last and took the pot (me, then the next players)
S_LAST_POT = 180  # the chips that player took
STATE_SIZE = 181

TURN_LIMIT = 20_000  # a safety net: in random play a game takes about 490 moves


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
def fits(low, high, card) -> bool:
    """True when ``card`` may be played on a suit whose played ranks run from ``low`` to ``high``
    (both -1 before its Seven)."""
    r = card % NUM_RANKS
    if low < 0:
        return r == SEVEN
    return r == low - 1 or r == high + 1


@njit(cache=True)
def deal(env):
    """Shuffle and deal 13 cards each; an empty table; seat 0 to move."""
    deck = np.arange(NUM_CARDS)
    np.random.shuffle(deck)
    for i in range(NUM_CARDS):
        env[E_WHERE + deck[i]] = 1.0 + i // HAND_SIZE
    for s in range(NUM_SUITS):
        env[E_LOW + s] = -1.0
        env[E_HIGH + s] = -1.0
    for p in range(NUM_PLAYERS):
        env[E_HAND_COUNT + p] = HAND_SIZE
    env[E_TO_MOVE] = 0.0


@njit(cache=True)
def initEnv():
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    for p in range(NUM_PLAYERS):
        env[E_CHIPS + p] = START_CHIPS
    env[E_RESULT] = -1.0
    env[E_LAST_TAKER] = -1.0
    deal(env)
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_TO_MOVE])


@njit(cache=True)
def getPlayerState(env, player):
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    mine = player + 1.0
    for c in range(NUM_CARDS):
        where = env[E_WHERE + c]
        if where == mine:
            state[S_HAND + c] = 1.0
        elif where == 0.0:
            state[S_TABLE + c] = 1.0
        s = c // NUM_RANKS
        if where != 0.0 and fits(env[E_LOW + s], env[E_HIGH + s], c):
            state[S_PLAYABLE + c] = 1.0
    state[S_CHIPS] = env[E_CHIPS + player]
    for rel in range(1, NUM_PLAYERS):
        seat = (player + rel) % NUM_PLAYERS
        state[S_OTHER_COUNTS + rel - 1] = env[E_HAND_COUNT + seat]
        state[S_OTHER_CHIPS + rel - 1] = env[E_CHIPS + seat]
    state[S_POT] = env[E_POT]
    state[S_SEAT] = player
    state[S_DEALS] = env[E_DEALS]
    for rel in range(NUM_PLAYERS):
        seat = (player + rel) % NUM_PLAYERS
        if env[E_RESULT] >= 0.0:
            state[S_WINNERS + rel] = env[E_WINNERS + seat]
        elif seat == int(env[E_TO_MOVE]):
            state[S_TO_MOVE + rel] = 1.0
        if seat == int(env[E_LAST_TAKER]):
            state[S_LAST_TAKER + rel] = 1.0
    state[S_LAST_POT] = env[E_LAST_POT]
    if env[E_RESULT] >= 0.0:
        state[S_OVER] = 1.0
        state[S_WON] = env[E_WINNERS + player]
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, getCurrentPlayer(env))


@njit(cache=True)
def moving(state) -> bool:
    """True when the state's player is to move in a running game."""
    return state[S_OVER] < 0.5 and state[S_TO_MOVE] > 0.5


@njit(cache=True)
def getValidActions(state):
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    valid[PASS] = 1.0
    if moving(state):
        for c in range(NUM_CARDS):
            if state[S_HAND + c] > 0.5 and state[S_PLAYABLE + c] > 0.5:
                valid[c] = 1.0
    return valid


@njit(cache=True)
def isValidAction(state, action) -> bool:
    if action == PASS:
        return True
    if action < 0 or action >= NUM_CARDS or not moving(state):
        return False
    return state[S_HAND + action] > 0.5 and state[S_PLAYABLE + action] > 0.5


@njit(cache=True)
def end_game(env):
    """The pot goes to the lowest seat still holding chips; most chips wins, then fewer cards."""
    for p in range(NUM_PLAYERS):
        if env[E_CHIPS + p] > 0.0:
            env[E_CHIPS + p] += env[E_POT]
            break
    env[E_POT] = 0.0
    best_chips, best_cards, count, winner = -1.0, 1e9, 0, -1
    for p in range(NUM_PLAYERS):
        chips, cards = env[E_CHIPS + p], env[E_HAND_COUNT + p]
        if chips > best_chips or (chips == best_chips and cards < best_cards):
            best_chips, best_cards, count, winner = chips, cards, 1, p
        elif chips == best_chips and cards == best_cards:
            count += 1
    for p in range(NUM_PLAYERS):
        if env[E_CHIPS + p] == best_chips and env[E_HAND_COUNT + p] == best_cards:
            env[E_WINNERS + p] = 1.0
    env[E_RESULT] = winner if count == 1 else NUM_PLAYERS


@njit(cache=True)
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0 or action < 0 or action >= NUM_ACTIONS:
        return env
    player = int(env[E_TO_MOVE])
    if action == PASS:
        env[E_CHIPS + player] -= 1.0
        env[E_POT] += 1.0
        if env[E_CHIPS + player] <= 0.0:
            end_game(env)
            return env
    else:
        s = action // NUM_RANKS
        r = action % NUM_RANKS
        if env[E_WHERE + action] != player + 1.0 or not fits(env[E_LOW + s], env[E_HIGH + s], action):
            return env  # not a move this player can make (the referee never sends one)
        env[E_WHERE + action] = 0.0
        env[E_HAND_COUNT + player] -= 1.0
        if env[E_LOW + s] < 0.0:
            env[E_LOW + s] = r
            env[E_HIGH + s] = r
        elif r < env[E_LOW + s]:
            env[E_LOW + s] = r
        else:
            env[E_HIGH + s] = r
        if env[E_HAND_COUNT + player] == 0.0:  # out: take the pot, deal again
            env[E_CHIPS + player] += env[E_POT]
            env[E_LAST_TAKER] = player
            env[E_LAST_POT] = env[E_POT]
            env[E_POT] = 0.0
            env[E_DEALS] += 1.0
            deal(env)
            return env
    env[E_TO_MOVE] = (player + 1) % NUM_PLAYERS
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getWinners(env):
    return env[E_WINNERS : E_WINNERS + NUM_PLAYERS].copy()


@njit(cache=True)
def getReturns(env):
    """Chips won (or lost) over the game."""
    return env[E_CHIPS : E_CHIPS + NUM_PLAYERS] - START_CHIPS


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] > 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0


# ---- determinization ---------------------------------------------------------------------------


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``, its player to move: the cards neither in my hand nor on
    the table are dealt at random to the other players, as many as each holds."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    me = min(max(int(state[S_SEAT]), 0), NUM_PLAYERS - 1)
    env[E_RESULT] = -1.0
    env[E_LAST_TAKER] = -1.0
    env[E_TO_MOVE] = me
    for rel in range(NUM_PLAYERS):
        seat = (me + rel) % NUM_PLAYERS
        if state[S_TO_MOVE + rel] > 0.5:
            env[E_TO_MOVE] = seat
        if state[S_LAST_TAKER + rel] > 0.5:
            env[E_LAST_TAKER] = seat
        if state[S_WINNERS + rel] > 0.5:
            env[E_WINNERS + seat] = 1.0
    env[E_LAST_POT] = max(state[S_LAST_POT], 0.0)
    env[E_POT] = max(state[S_POT], 0.0)
    env[E_DEALS] = max(state[S_DEALS], 0.0)
    env[E_CHIPS + me] = max(state[S_CHIPS], 0.0)
    for rel in range(1, NUM_PLAYERS):
        env[E_CHIPS + (me + rel) % NUM_PLAYERS] = max(state[S_OTHER_CHIPS + rel - 1], 0.0)
    for s in range(NUM_SUITS):
        env[E_LOW + s] = -1.0
        env[E_HIGH + s] = -1.0
    unseen = np.empty(NUM_CARDS, dtype=np.int64)
    count = 0
    for c in range(NUM_CARDS):
        s, r = c // NUM_RANKS, c % NUM_RANKS
        if state[S_HAND + c] > 0.5:
            env[E_WHERE + c] = me + 1.0
            env[E_HAND_COUNT + me] += 1.0
        elif state[S_TABLE + c] > 0.5:
            if env[E_LOW + s] < 0.0:
                env[E_LOW + s] = r
            env[E_HIGH + s] = r  # ranks rise with c, so the last one seen is the highest
        else:
            unseen[count] = c
            count += 1
    np.random.shuffle(unseen[:count])
    dealt = 0
    for rel in range(1, NUM_PLAYERS):
        seat = (me + rel) % NUM_PLAYERS
        want = int(state[S_OTHER_COUNTS + rel - 1])
        while env[E_HAND_COUNT + seat] < want and dealt < count:
            env[E_WHERE + unseen[dealt]] = seat + 1.0
            env[E_HAND_COUNT + seat] += 1.0
            dealt += 1
    if state[S_OVER] > 0.5:
        winners = 0
        for p in range(NUM_PLAYERS):
            if env[E_WINNERS + p] > 0.5:
                winners += 1
                env[E_RESULT] = p
        if winners != 1:
            env[E_RESULT] = NUM_PLAYERS
    return env
