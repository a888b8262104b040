"""Go Fish (four players, most books wins): the rules, as numba functions over flat float64 arrays.

The rules are those of the vis/ENV library (github.com/ngoxuanphong/ENV, ``src/Base/GoFish``):

* 52 cards, ranks only (Ace, Two .. King; suits play no part), 5 to each of 4 players, the other
  32 form the deck. Four cards of a rank make a *book*: it leaves the hand and scores 1.
* A turn: the player to move picks another player holding cards, then a rank it holds itself.
  If that player has cards of the rank, they all change hands and the asker goes on. Otherwise the
  asker must draw a card (an action of its own); drawing the rank it asked for lets it go on,
  anything else ends the turn. With the deck empty a failed ask ends the turn at once.
* A hand that runs empty (books made, cards given away) draws 5 cards from the deck: the asker's
  at once, anyone else's when its turn comes. A player with no cards and no deck to draw from is
  skipped.
* When all 13 books are made, the most books wins; a tie goes to whoever holds the highest book
  (King highest, Ace lowest). After 400 turns the game stops with no winner.

The array layouts are documented in README.md and beside the constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from makeenv.array.numba_helpers import copy_values

NUM_RANKS = 13
NUM_PLAYERS = 4
NUM_CARDS = 52
DEAL = 5  # cards dealt to each player, and drawn into an empty hand
TURN_CAP = 400  # vis/ENV's runner stops a game after this many turns, with no winner
RANK_NAMES = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King")

# ---- actions: 0 draw a card; 1..3 ask the player that many seats after me; 4..16 ask for a rank
DRAW = 0
ASK_PLAYER = 1
ASK_RANK = 4
NUM_ACTIONS = ASK_RANK + NUM_RANKS  # 17

# ---- phases of a turn
CHOOSE_PLAYER = 0
CHOOSE_RANK = 1
MUST_DRAW = 2

# ---- env: the referee's view (length ENV_SIZE) -------------------------------------------------
E_HAND = 0  # 4 x 13 counts: cards of each rank in each hand (0..3; a book leaves the hand)
E_BOOK_OWNER = 52  # 13 values: the seat holding the book of each rank, -1 while it is not made
E_HAND_SIZE = 65  # 4 counts: cards in each hand
E_BOOKS = 69  # 4 counts: books made by each player
E_DECK = 73  # 52 ranks in dealing and drawing order (the first 20 are dealt)
E_DRAWN = 125  # cards taken from the deck so far (20 after the deal)
E_TURNS = 126  # turns begun so far; the player to move is E_TURNS % 4
E_PHASE = 127  # CHOOSE_PLAYER, CHOOSE_RANK or MUST_DRAW
E_TARGET = 128  # the player being asked, as seats after the mover (1..3), 0 before it is chosen
E_DRAW_FOR = 129  # the rank of the failed ask the mover draws for, -1 when none
E_ASKED = 130  # 4 x 13 flags: ranks each player asked for in its latest turn
E_RESULT = 182  # -1 running, 0..3 the winner, 4 stopped at the turn cap without a winner
ENV_SIZE = 183

# ---- state: one player's view (length STATE_SIZE); every value is >= 0 ------------------------
# indices 0..106 mean what they mean in vis/ENV's GoFish state
S_MINE = 0  # 13 counts: my cards of each rank (1..3 in my hand, 4 for my book)
S_MY_HAND = 13  # cards in my hand
S_MY_BOOKS = 14  # my books
S_OTHERS = 15  # 3 blocks of 15, for the next three players: 13 book flags, hand size, books
OTHER_BLOCK = 15
O_HAND = 13  # offsets inside a block
O_BOOKS = 14
S_DECK = 60  # cards left in the deck
S_PHASE = 61  # 3 flags, only when I move: choose a player, choose a rank, draw
S_TARGET = 64  # 3 flags: the player I am asking (seat + 1, + 2, + 3), once chosen
S_ASKED = 67  # 3 x 13 flags: ranks each of the next three players asked for in its latest turn
S_OVER = 106  # 1 when the game is over
S_SEAT = 107  # my seat (0..3)
S_TO_MOVE = 108  # 4 flags: who moves (me, then the next three); all 0 at the end
S_WON = 112  # 1 when I won
S_WINNER = 113  # 4 flags: the winner at the end (me, then the next three); all 0 without one
S_TURNS = 117  # turns begun so far (the game stops at 400)
S_MY_ASKED = 118  # 13 flags: ranks I asked for in this (or my latest) turn
S_DRAW_FOR = 131  # 1 + the rank I asked for and now draw for; 0 when not drawing for a rank
STATE_SIZE = 132


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    return NUM_PLAYERS


# The small helpers are compiled inline (inline="always"): each call passing an array to another
# compiled function costs two atomic reference counts. The contract functions themselves are not:
# inlined into the referee, the runner's loops and the bots they ran 4.1x vis/ENV instead of
# 3.2-3.4x, but doubled a cold `makeenv check GoFish` (34 s of CPU instead of 17).


@njit(cache=True, inline="always")
def deck_left(env) -> int:
    return NUM_CARDS - int(env[E_DRAWN])


@njit(cache=True, inline="always")
def add_cards(env, seat, rank, count):
    """Put ``count`` cards of ``rank`` into a hand; four of them make a book at once."""
    at = E_HAND + seat * NUM_RANKS + rank
    env[at] += count
    env[E_HAND_SIZE + seat] += count
    if env[at] >= 4.0:
        env[at] = 0.0
        env[E_HAND_SIZE + seat] -= 4.0
        env[E_BOOKS + seat] += 1.0
        env[E_BOOK_OWNER + rank] = seat


@njit(cache=True, inline="always")
def draw_card(env, seat) -> int:
    """The top card of the deck into a hand; returns its rank."""
    rank = int(env[E_DECK + int(env[E_DRAWN])])
    env[E_DRAWN] += 1.0
    add_cards(env, seat, rank, 1.0)
    return rank


@njit(cache=True, inline="always")
def refill(env, seat):
    """An empty hand draws 5 cards (fewer when the deck runs out), books made along the way."""
    for _ in range(DEAL):
        if deck_left(env) <= 0:
            break
        draw_card(env, seat)


@njit(cache=True)
def initEnv():
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    for i in range(NUM_CARDS):
        env[E_DECK + i] = i % NUM_RANKS
    np.random.shuffle(env[E_DECK : E_DECK + NUM_CARDS])  # in place: the same draws as on a copy
    for r in range(NUM_RANKS):
        env[E_BOOK_OWNER + r] = -1.0
    for i in range(NUM_PLAYERS * DEAL):  # one card at a time around the table
        draw_card(env, i % NUM_PLAYERS)
    env[E_DRAW_FOR] = -1.0
    env[E_RESULT] = -1.0
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_TURNS]) % NUM_PLAYERS


@njit(cache=True, inline="always")
def player_state(env, player):
    """getPlayerState's body, inlined into getAgentState too (a call passing the env costs two
    atomic reference counts)."""
    # every entry is written below (no zeroing first); seats are taken & 3 (the same for 0..3),
    # which tells the compiler the indices are not negative (no wraparound test per read)
    state = np.empty(STATE_SIZE, dtype=np.float64)
    me = player & 3
    hand = E_HAND + me * NUM_RANKS
    asked = E_ASKED + me * NUM_RANKS
    mine = float(me)
    for r in range(NUM_RANKS):
        count = env[hand + r]
        state[S_MINE + r] = 4.0 if env[E_BOOK_OWNER + r] == mine else count
    copy_values(state, S_MY_ASKED, env, asked, NUM_RANKS)
    state[S_MY_HAND] = env[E_HAND_SIZE + me]
    state[S_MY_BOOKS] = env[E_BOOKS + me]
    for k in range(NUM_PLAYERS - 1):
        other = (me + k + 1) & 3
        seat = float(other)
        block = S_OTHERS + k * OTHER_BLOCK
        asked = E_ASKED + other * NUM_RANKS
        for r in range(NUM_RANKS):
            state[block + r] = 1.0 if env[E_BOOK_OWNER + r] == seat else 0.0
        copy_values(state, S_ASKED + k * NUM_RANKS, env, asked, NUM_RANKS)
        state[block + O_HAND] = env[E_HAND_SIZE + other]
        state[block + O_BOOKS] = env[E_BOOKS + other]
    state[S_DECK] = NUM_CARDS - env[E_DRAWN]
    for i in range(S_PHASE, S_ASKED):  # the phase and target flags
        state[i] = 0.0
    state[S_OVER] = 0.0
    state[S_SEAT] = player
    for i in range(S_TO_MOVE, S_TURNS):  # who moves, I won, the winner
        state[i] = 0.0
    state[S_TURNS] = env[E_TURNS]
    state[S_DRAW_FOR] = 0.0
    if env[E_RESULT] >= 0.0:
        state[S_OVER] = 1.0
        winner = int(env[E_RESULT])
        if winner < NUM_PLAYERS:
            state[S_WON] = 1.0 if winner == me else 0.0
            state[S_WINNER + ((winner - me) & 3)] = 1.0
    else:
        mover = int(env[E_TURNS]) & 3
        state[S_TO_MOVE + ((mover - me) & 3)] = 1.0
        if mover == me:
            state[S_PHASE + int(env[E_PHASE])] = 1.0
            if env[E_TARGET] > 0.0:
                state[S_TARGET + int(env[E_TARGET]) - 1] = 1.0
            state[S_DRAW_FOR] = env[E_DRAW_FOR] + 1.0
    return state


@njit(cache=True)
def getPlayerState(env, player):
    return player_state(env, player)


@njit(cache=True)
def getAgentState(env):
    return player_state(env, int(env[E_TURNS]) % NUM_PLAYERS)


@njit(cache=True, inline="always")
def phase_of(state) -> int:
    """The phase of my turn, or -1 when I do not move (another player's turn, or the end)."""
    if state[S_OVER] > 0.5:
        return -1
    for p in range(3):
        if state[S_PHASE + p] > 0.5:
            return p
    return -1


@njit(cache=True, inline="always")
def holds(state, rank) -> bool:
    """True when my hand holds cards of ``rank`` (a book of mine does not count)."""
    count = state[S_MINE + rank]
    return 0.5 < count < 3.5


@njit(cache=True, inline="always")
def asks(state, phase, action) -> bool:
    """True when ``action`` is an ask this phase allows: a player holding cards, a rank I hold."""
    if phase == CHOOSE_PLAYER and ASK_PLAYER <= action < ASK_RANK:
        return state[S_OTHERS + (action - ASK_PLAYER) * OTHER_BLOCK + O_HAND] > 0.0
    if phase == CHOOSE_RANK and ASK_RANK <= action < NUM_ACTIONS:
        return holds(state, action - ASK_RANK)
    return False


@njit(cache=True, inline="always")
def can_ask(state, phase) -> bool:
    """True when this phase allows some ask (any action but DRAW)."""
    if phase == CHOOSE_PLAYER:
        for k in range(NUM_PLAYERS - 1):
            if state[S_OTHERS + k * OTHER_BLOCK + O_HAND] > 0.0:
                return True
    elif phase == CHOOSE_RANK:
        for r in range(NUM_RANKS):
            if holds(state, r):
                return True
    return False


@njit(cache=True)
def isValidAction(state, action) -> bool:
    if action < 0 or action >= NUM_ACTIONS:
        return False
    phase = phase_of(state)
    if action != DRAW:
        return asks(state, phase, action)
    # drawing; another player's turn or the final turn; an ask phase with no ask (never reached)
    return not can_ask(state, phase)


@njit(cache=True)
def getValidActions(state):
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    phase = phase_of(state)
    found = False
    if phase == CHOOSE_PLAYER:
        for k in range(NUM_PLAYERS - 1):
            if state[S_OTHERS + k * OTHER_BLOCK + O_HAND] > 0.0:
                valid[ASK_PLAYER + k] = 1.0
                found = True
    elif phase == CHOOSE_RANK:
        for r in range(NUM_RANKS):
            if holds(state, r):
                valid[ASK_RANK + r] = 1.0
                found = True
    if not found:
        valid[DRAW] = 1.0
    return valid


@njit(cache=True, inline="always")
def others_hold_cards(env, seat) -> bool:
    return env[E_HAND_SIZE : E_HAND_SIZE + NUM_PLAYERS].sum() - env[E_HAND_SIZE + seat] > 0.0


@njit(cache=True, inline="always")
def set_phase(env, phase, draw_for):
    env[E_PHASE] = phase
    env[E_TARGET] = 0.0
    env[E_DRAW_FOR] = draw_for


@njit(cache=True)
def pass_turn(env):
    """The next player with cards moves; an empty hand first draws 5 from the deck (if any is left),
    and a player who still has none is skipped. Each turn begun clears that player's asked ranks."""
    for _ in range(NUM_PLAYERS + 1):
        env[E_TURNS] += 1.0
        seat = getCurrentPlayer(env)
        env[E_ASKED + seat * NUM_RANKS : E_ASKED + (seat + 1) * NUM_RANKS] = 0.0
        if env[E_HAND_SIZE + seat] == 0.0:
            refill(env, seat)
        if env[E_HAND_SIZE + seat] > 0.0:
            set_phase(env, CHOOSE_PLAYER, -1.0)
            return


@njit(cache=True, inline="always")
def keep_turn(env, seat):
    """The mover goes on: it asks again while someone else holds cards, else it draws, else the
    turn passes."""
    if others_hold_cards(env, seat):
        set_phase(env, CHOOSE_PLAYER, -1.0)
    elif deck_left(env) > 0:
        set_phase(env, MUST_DRAW, -1.0)
    else:
        pass_turn(env)


@njit(cache=True, inline="always")
def winner_of(env) -> int:
    """Most books; a tie goes to the player holding the highest book of those tied."""
    best, best_key = 0, -1.0
    for p in range(NUM_PLAYERS):
        highest = -1
        for r in range(NUM_RANKS):
            if env[E_BOOK_OWNER + r] == p:
                highest = r
        key = env[E_BOOKS + p] * (NUM_RANKS + 1) + highest
        if key > best_key:
            best, best_key = p, key
    return best


@njit(cache=True, inline="always")
def ask(env, seat, rank):
    """The mover asks the chosen player for ``rank``."""
    target = (seat + int(env[E_TARGET])) % NUM_PLAYERS
    env[E_ASKED + seat * NUM_RANKS + rank] = 1.0
    given = env[E_HAND + target * NUM_RANKS + rank]
    if given > 0.0:
        env[E_HAND + target * NUM_RANKS + rank] = 0.0
        env[E_HAND_SIZE + target] -= given
        add_cards(env, seat, rank, given)
        if env[E_HAND_SIZE + seat] == 0.0:
            refill(env, seat)
        if env[E_HAND_SIZE + seat] > 0.0:
            keep_turn(env, seat)
        else:
            pass_turn(env)
    elif deck_left(env) > 0:
        set_phase(env, MUST_DRAW, rank)
    else:
        pass_turn(env)


@njit(cache=True, inline="always")
def go_fish(env, seat):
    """The mover draws a card; drawing the rank it asked for lets it go on."""
    rank = draw_card(env, seat)
    if env[E_HAND_SIZE + seat] == 0.0:
        refill(env, seat)
    if rank == env[E_DRAW_FOR] and env[E_HAND_SIZE + seat] > 0.0:
        keep_turn(env, seat)
    elif not others_hold_cards(env, seat) and deck_left(env) > 0:
        set_phase(env, MUST_DRAW, -1.0)  # nobody to ask: draw again
    else:
        pass_turn(env)


@njit(cache=True)
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0:
        return env
    seat = getCurrentPlayer(env)
    phase = int(env[E_PHASE])
    if phase == CHOOSE_PLAYER and ASK_PLAYER <= action < ASK_RANK:
        env[E_PHASE] = CHOOSE_RANK
        env[E_TARGET] = action
    elif phase == CHOOSE_RANK and ASK_RANK <= action < NUM_ACTIONS:
        ask(env, seat, action - ASK_RANK)
    elif phase == MUST_DRAW and action == DRAW and deck_left(env) > 0:
        go_fish(env, seat)
    else:
        return env  # not a move of this phase: nothing happens
    if env[E_BOOKS : E_BOOKS + NUM_PLAYERS].sum() >= NUM_RANKS:
        env[E_RESULT] = winner_of(env)
    elif env[E_TURNS] >= TURN_CAP:
        env[E_RESULT] = NUM_PLAYERS
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] > 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0


# ---- determinization ---------------------------------------------------------------------------


@njit(cache=True)
def clamp(value, low, high) -> int:
    if not value >= low:  # NaN included
        return low
    return min(int(value), high)


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``, its player to move. The other hands and the deck are dealt
    at random from the cards the state does not show; a player who asked for a rank in its latest
    turn gets one card of it first, while unseen copies remain (it held one when it asked)."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    me = clamp(state[S_SEAT], 0, NUM_PLAYERS - 1)
    env[E_BOOK_OWNER : E_BOOK_OWNER + NUM_RANKS] = -1.0
    env[E_RESULT] = -1.0
    env[E_TURNS] = clamp(state[S_TURNS], 0, TURN_CAP)
    mover = getCurrentPlayer(env)
    unseen = np.zeros(NUM_RANKS, dtype=np.int64)  # copies of each rank nobody sees
    for r in range(NUM_RANKS):
        if state[S_MINE + r] > 3.5:
            env[E_BOOK_OWNER + r] = me
            continue
        owner = -1
        for k in range(NUM_PLAYERS - 1):
            if state[S_OTHERS + k * OTHER_BLOCK + r] > 0.5:
                owner = (me + k + 1) % NUM_PLAYERS
        if owner >= 0:
            env[E_BOOK_OWNER + r] = owner
        else:
            mine = clamp(state[S_MINE + r], 0, 3)
            env[E_HAND + me * NUM_RANKS + r] = mine
            unseen[r] = 4 - mine
    for p in range(NUM_PLAYERS):
        rel = (p - me + NUM_PLAYERS) % NUM_PLAYERS
        for r in range(NUM_RANKS):
            if env[E_BOOK_OWNER + r] == p:
                env[E_BOOKS + p] += 1.0
            if rel == 0:
                env[E_ASKED + p * NUM_RANKS + r] = state[S_MY_ASKED + r]
            else:
                env[E_ASKED + p * NUM_RANKS + r] = state[S_ASKED + (rel - 1) * NUM_RANKS + r]
    env[E_HAND_SIZE + me] = state[S_MY_HAND]
    # hidden cards: one of each rank an asker asked for, then the rest at random
    pool = np.empty(NUM_CARDS, dtype=np.int64)
    for k in range(NUM_PLAYERS - 1):
        seat = (me + k + 1) % NUM_PLAYERS
        want = clamp(state[S_OTHERS + k * OTHER_BLOCK + O_HAND], 0, NUM_CARDS)
        for r in range(NUM_RANKS):
            if env[E_HAND_SIZE + seat] < want and state[S_ASKED + k * NUM_RANKS + r] > 0.5 and unseen[r] > 0:
                env[E_HAND + seat * NUM_RANKS + r] += 1.0
                env[E_HAND_SIZE + seat] += 1.0
                unseen[r] -= 1
    count = 0
    for r in range(NUM_RANKS):
        for _ in range(unseen[r]):
            pool[count] = r
            count += 1
    np.random.shuffle(pool[:count])
    dealt = 0
    for k in range(NUM_PLAYERS - 1):
        seat = (me + k + 1) % NUM_PLAYERS
        want = clamp(state[S_OTHERS + k * OTHER_BLOCK + O_HAND], 0, NUM_CARDS)
        while env[E_HAND_SIZE + seat] < want and dealt < count:
            env[E_HAND + seat * NUM_RANKS + pool[dealt]] += 1.0
            env[E_HAND_SIZE + seat] += 1.0
            dealt += 1
    # the deck: its drawn part is never read again; the rest of the pool in random order
    left = min(clamp(state[S_DECK], 0, NUM_CARDS), count - dealt)
    env[E_DRAWN] = NUM_CARDS - left
    for i in range(left):
        env[E_DECK + NUM_CARDS - left + i] = pool[dealt + i]
    if mover == me:
        for p in range(3):
            if state[S_PHASE + p] > 0.5:
                env[E_PHASE] = p
        for k in range(3):
            if state[S_TARGET + k] > 0.5:
                env[E_TARGET] = k + 1
        env[E_DRAW_FOR] = clamp(state[S_DRAW_FOR], 0, NUM_RANKS) - 1
    else:
        env[E_DRAW_FOR] = -1.0
    return env
