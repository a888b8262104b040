"""No-Limit Texas Hold'em sit-and-go for 2 to 9 players: the rules, as numba functions over flat
float64 arrays.

The game follows the vis/ENV library (github.com/ngoxuanphong/ENV, ``src/Base/Poker``): every
player starts with 200 chips, the blinds are 1 and 2 and never rise, hands are dealt until one
player holds every chip or 100 hands have been played, and then the chip leader wins. Betting is
no-limit with six discrete actions (fold, check/call, raise by the minimum, raise half the pot,
raise the pot, all-in); side pots are built layer by layer and odd chips of a split go one at a
time to the winners nearest the button's left. README.md lists the rules in full, where they
differ from vis/ENV's code, and the array layouts (repeated beside the constants below).

Cards: card ``c`` (0..51) has rank ``c // 4`` (0 = Two .. 12 = Ace) and suit ``c % 4`` (Hearts,
Diamonds, Clubs, Spades), as in vis/ENV.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# ---- cards, chips, the table -------------------------------------------------------------------
NUM_CARDS = 52
NUM_RANKS = 13
RANK_CHARS = "23456789TJQKA"
RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace")
SUIT_NAMES = ("Hearts", "Diamonds", "Clubs", "Spades")
SUIT_SYMBOLS = ("♥", "♦", "♣", "♠")
STACK = 200  # chips each player starts with
SMALL_BLIND = 1
BIG_BLIND = 2
HAND_CAP = 100  # the game ends after this many hands: the chip leader wins
MIN_PLAYERS, MAX_PLAYERS = 2, 9
DEFAULT_PLAYERS = 9
BOARD_SHOWN = (0, 3, 4, 5)  # board cards shown in each street: preflop, flop, turn, river
STREET_NAMES = ("pre-flop", "flop", "turn", "river")

# ---- hand categories (the evaluator's score is category << 20 plus five 4-bit ranks) ------------
HIGH_CARD, ONE_PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)

# ---- actions -----------------------------------------------------------------------------------
FOLD, CALL, MIN_RAISE, HALF_POT, POT, ALL_IN = range(6)
NUM_ACTIONS = 6
ACTION_NAMES = ("Fold", "Check / call", "Raise by the minimum", "Raise half the pot", "Raise the pot", "All-in")

# ---- env: the referee's view (length ENV_SIZE) -------------------------------------------------
E_PLAYERS = 0  # number of players n (2..9)
E_HAND = 1  # hands dealt so far (the hand being played, 1..100)
E_BUTTON = 2  # the dealer button's seat
E_SB = 3  # the small blind's seat (the button's in a hand of two)
E_BB = 4  # the big blind's seat
E_STREET = 5  # 0 pre-flop, 1 flop, 2 turn, 3 river
E_TO_MOVE = 6  # the seat to move
E_BET = 7  # the highest bet of this street (what everyone has to match)
E_RAISE = 8  # the last full raise of this street (the minimum raise; the big blind at first)
E_RESULT = 9  # what checkEnded returns: -1 running, the sole winner, or n (a shared first place)
E_LAST_SHOWDOWN = 10  # 1 when the last finished hand ended at a showdown
E_HANDS_DONE = 11  # hands finished
E_LAST_BOARD = 12  # 5 cards: the last finished hand's board as far as it was shown, -1 not shown
E_DECK = 17  # 52 cards: the board (5) first, then seat p's hole cards at 5 + 2p and 6 + 2p
E_SEATS = 69  # 9 seat blocks
P_CHIPS = 0  # chips behind (not bet)
P_BET = 1  # chips bet in this street
P_COMMITTED = 2  # chips put in the pot in this hand (blinds included)
P_ACTIVE = 3  # 1 while in the hand (dealt in, not folded)
P_DEALT = 4  # 1 when dealt into this hand (had chips when it began)
P_ACTED = 5  # 1 when the seat has acted in this street
P_FACED = 6  # the street's bet just after the seat last acted (whether a raise reopens the betting)
P_BLIND = 7  # the blind actually posted this hand (less than the blind when short-stacked)
P_LAST_HOLE = 8  # 2 cards: hole cards shown at the last hand's showdown, -1 not shown
P_LAST_WON = 10  # chips the seat took from the pot in the last finished hand
P_LAST_COMMITTED = 11  # chips the seat put in the pot in the last finished hand
P_WINNER = 12  # 1 for a winner (set at the end)
P_LAST_ACTION = 13  # the seat's latest action in this hand + 1 (0: none yet)
P_SCORE = 14  # scratch: the hand's score at a showdown
SEAT_BLOCK = 16
ENV_SIZE = E_SEATS + MAX_PLAYERS * SEAT_BLOCK  # 213

# ---- state: one player's view (length STATE_SIZE); every value is >= 0 ------------------------
S_HOLE = 0  # 52 flags: my hole cards
S_BOARD = 52  # 52 flags: the board cards shown
S_PLAYERS = 104  # number of players n
S_SEAT = 105  # my seat (0..n-1)
S_HAND = 106  # the hand being played (1..100)
S_STREET = 107  # 4 flags: pre-flop, flop, turn, river
S_POT = 111  # chips in the pot this hand (every bet included)
S_TO_CALL = 112  # chips I need to call (0: I can check)
S_BET = 113  # the highest bet of this street
S_MIN_RAISE = 114  # the minimum raise (the last full raise of this street)
S_MY_TURN = 115  # 1 when I am to move
S_CAN_RAISE = 116  # 1 when I may raise: the betting is open to me and someone can answer
S_OVER = 117  # 1 when the game is over
S_WON = 118  # 1 when I am a winner (sole or shared, not everybody)
S_LAST_BOARD = 119  # 5 values: the last finished hand's board, card + 1 (0: not shown)
S_LAST_SHOWDOWN = 124  # 1 when the last finished hand ended at a showdown
S_HANDS_DONE = 125  # hands finished
S_SEATS = 126  # 9 seat blocks: me, then the seats after me in turn order
B_PRESENT = 0  # 1 when the seat is in the game (fewer than 9 players: the rest are 0)
B_CHIPS = 1  # chips behind
B_BET = 2  # chips bet in this street
B_COMMITTED = 3  # chips put in the pot this hand
B_ACTIVE = 4  # 1 while in the hand (not folded)
B_ALL_IN = 5  # 1 when in the hand with no chips behind
B_BUTTON = 6  # 1 on the button
B_SB = 7  # 1 for the small blind
B_BB = 8  # 1 for the big blind
B_BLIND = 9  # the blind the seat actually posted this hand
B_TO_MOVE = 10  # 1 for the seat to move
B_LAST_ACTION = 11  # the seat's latest action in this hand + 1 (0: none yet)
B_ACTED = 12  # 1 when the seat has acted in this street
B_FACED = 13  # the street's bet just after the seat last acted
B_LAST_WON = 14  # chips it took from the pot in the last finished hand
B_LAST_COMMITTED = 15  # chips it put in the pot in the last finished hand
B_LAST_HOLE = 16  # 2 values: its hole cards shown at the last showdown, card + 1 (0: not shown)
B_DEALT = 18  # 1 when dealt into this hand
B_WINNER = 19  # 1 for a winner (at the end)
STATE_BLOCK = 20
STATE_SIZE = S_SEATS + MAX_PLAYERS * STATE_BLOCK  # 306


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    """The default number of players (``make("Poker", players=n)`` chooses another)."""
    return DEFAULT_PLAYERS


# ---- the 7-card evaluator ----------------------------------------------------------------------


@njit(cache=True)
def straight_high(mask) -> int:
    """The top rank of the highest straight in a 13-bit rank mask (3 for the wheel A-5), else -1."""
    bits = (mask << 1) | ((mask >> 12) & 1)  # bit 0: the Ace played low
    for top in range(13, 3, -1):
        if (bits >> (top - 4)) & 0x1F == 0x1F:
            return top - 1
    return -1


@njit(cache=True)
def top_ranks(mask, count) -> int:
    """The ``count`` highest ranks of a rank mask, packed 4 bits each (highest first)."""
    packed, taken = 0, 0
    for r in range(12, -1, -1):
        if taken < count and (mask >> r) & 1:
            packed = (packed << 4) | r
            taken += 1
    return packed << (4 * (count - taken))


@njit(cache=True)
def hand_score(cards, count) -> int:
    """The value of the best five-card hand among ``cards[:count]`` (5 to 7 cards): a larger
    score is a better hand; equal scores tie. ``score >> 20`` is the category (HIGH_CARD ..
    STRAIGHT_FLUSH); the low 20 bits are the ranks that decide within it. Counts ranks and suits
    in integers: nothing is allocated."""
    counts = 0  # 4 bits per rank
    ranks = 0  # 13-bit mask of the ranks present
    s0, s1, s2, s3 = 0, 0, 0, 0  # rank masks per suit
    for i in range(count):
        c = int(cards[i])
        r, s = c >> 2, c & 3
        counts += 1 << (4 * r)
        ranks |= 1 << r
        if s == 0:
            s0 |= 1 << r
        elif s == 1:
            s1 |= 1 << r
        elif s == 2:
            s2 |= 1 << r
        else:
            s3 |= 1 << r
    flush = -1
    for suit_mask in (s0, s1, s2, s3):
        bits = 0
        m = suit_mask
        while m:
            m &= m - 1
            bits += 1
        if bits >= 5:
            flush = suit_mask
    if flush >= 0:
        high = straight_high(flush)
        if high >= 0:
            return (STRAIGHT_FLUSH << 20) | (high << 16)
    quad, trip1, trip2, pair1, pair2 = -1, -1, -1, -1, -1
    singles = 0
    for r in range(12, -1, -1):
        k = (counts >> (4 * r)) & 15
        if k == 4:
            quad = r
        elif k == 3:
            if trip1 < 0:
                trip1 = r
            elif trip2 < 0:
                trip2 = r
        elif k == 2:
            if pair1 < 0:
                pair1 = r
            elif pair2 < 0:
                pair2 = r
            else:
                singles |= 1 << r  # a third pair can only be a kicker
        elif k == 1:
            singles |= 1 << r
    if quad >= 0:
        kicker = ranks & ~(1 << quad)
        return (QUADS << 20) | (quad << 16) | (top_ranks(kicker, 1) << 12)
    if trip1 >= 0 and (trip2 >= 0 or pair1 >= 0):
        return (FULL_HOUSE << 20) | (trip1 << 16) | (max(trip2, pair1) << 12)
    if flush >= 0:
        return (FLUSH << 20) | top_ranks(flush, 5)
    high = straight_high(ranks)
    if high >= 0:
        return (STRAIGHT << 20) | (high << 16)
    if trip1 >= 0:
        return (TRIPS << 20) | (trip1 << 16) | (top_ranks(singles, 2) << 8)
    if pair2 >= 0:
        return (TWO_PAIR << 20) | (pair1 << 16) | (pair2 << 12) | (top_ranks(singles, 1) << 8)
    if pair1 >= 0:
        return (ONE_PAIR << 20) | (pair1 << 16) | (top_ranks(singles, 3) << 4)
    return (HIGH_CARD << 20) | top_ranks(singles, 5)


@njit(cache=True)
def seat_score(env, p) -> int:
    """The score of seat ``p``'s best hand of its two hole cards and the five board cards."""
    d = E_DECK
    seven = (
        int(env[d]),
        int(env[d + 1]),
        int(env[d + 2]),
        int(env[d + 3]),
        int(env[d + 4]),
        int(env[d + 5 + 2 * p]),
        int(env[d + 6 + 2 * p]),
    )
    return hand_score(seven, 7)


# ---- seats -------------------------------------------------------------------------------------


@njit(cache=True)
def seat_base(p) -> int:
    return E_SEATS + p * SEAT_BLOCK


@njit(cache=True)
def next_with_chips(env, p) -> int:
    """The first seat after ``p`` (cyclically, ``p`` itself last) holding chips, -1 if none."""
    n = int(env[E_PLAYERS])
    for k in range(1, n + 1):
        q = (p + k) % n
        if env[seat_base(q) + P_CHIPS] > 0.0:
            return q
    return -1


@njit(cache=True)
def needs_action(env, p) -> bool:
    """Whether seat ``p`` still has to act in this street."""
    b = seat_base(p)
    if env[b + P_ACTIVE] < 0.5 or env[b + P_CHIPS] <= 0.0:
        return False
    return env[b + P_ACTED] < 0.5 or env[b + P_BET] < env[E_BET]


@njit(cache=True)
def next_to_act(env, p) -> int:
    """The first seat after ``p`` (cyclically, ``p`` itself last) that has to act, -1 if none."""
    n = int(env[E_PLAYERS])
    for k in range(1, n + 1):
        q = (p + k) % n
        if needs_action(env, q):
            return q
    return -1


@njit(cache=True)
def count_active(env, with_chips) -> int:
    """Seats still in the hand (only those with chips behind when ``with_chips``)."""
    count = 0
    for p in range(int(env[E_PLAYERS])):
        b = seat_base(p)
        if env[b + P_ACTIVE] > 0.5 and (not with_chips or env[b + P_CHIPS] > 0.0):
            count += 1
    return count


@njit(cache=True)
def pot_size(env) -> float:
    total = 0.0
    for p in range(int(env[E_PLAYERS])):
        total += env[seat_base(p) + P_COMMITTED]
    return total


@njit(cache=True)
def put_in(env, p, amount):
    """Seat ``p`` bets ``amount`` more chips (at most what it holds)."""
    b = seat_base(p)
    x = min(amount, env[b + P_CHIPS])
    env[b + P_CHIPS] -= x
    env[b + P_BET] += x
    env[b + P_COMMITTED] += x


@njit(cache=True)
def raise_target(action, my_bet, my_chips, bet, min_raise, pot) -> float:
    """The bet an action raises to ("raise to"), before any check of its validity."""
    to_call = max(bet - my_bet, 0.0)
    if action == MIN_RAISE:
        target = bet + min_raise
    elif action == HALF_POT:
        target = bet + np.floor((pot + to_call) / 2.0)
    elif action == POT:
        target = bet + pot + to_call
    else:  # ALL_IN
        target = my_bet + my_chips
    return min(target, my_bet + my_chips)


@njit(cache=True)
def can_raise(env, p) -> bool:
    """Seat ``p`` may raise: it holds more than the call, the betting is open to it (it has not
    acted in this street, or a full raise's worth was added since it last did) and another
    seat in the hand has chips to answer."""
    b = seat_base(p)
    if env[b + P_ACTIVE] < 0.5 or env[b + P_CHIPS] <= env[E_BET] - env[b + P_BET]:
        return False
    if env[b + P_ACTED] > 0.5 and env[E_BET] - env[b + P_FACED] < env[E_RAISE]:
        return False
    for q in range(int(env[E_PLAYERS])):
        if q != p and env[seat_base(q) + P_ACTIVE] > 0.5 and env[seat_base(q) + P_CHIPS] > 0.0:
            return True
    return False


# ---- a hand ------------------------------------------------------------------------------------


@njit(cache=True)
def start_hand(env) -> bool:
    """Deal the next hand: move the button, post the blinds, shuffle and deal, find the first to
    act. False when nobody can act (the blinds put every seat but one all-in)."""
    n = int(env[E_PLAYERS])
    env[E_HAND] += 1.0
    for p in range(n):
        b = seat_base(p)
        dealt = 1.0 if env[b + P_CHIPS] > 0.0 else 0.0
        env[b + P_DEALT] = dealt
        env[b + P_ACTIVE] = dealt
        env[b + P_BET] = 0.0
        env[b + P_COMMITTED] = 0.0
        env[b + P_ACTED] = 0.0
        env[b + P_FACED] = 0.0
        env[b + P_BLIND] = 0.0
        env[b + P_LAST_ACTION] = 0.0
    # a partial Fisher-Yates shuffle of the deck kept in the env: the cards this hand uses
    for i in range(5 + 2 * n):
        j = i + int(np.random.random() * (NUM_CARDS - i))
        c = env[E_DECK + i]
        env[E_DECK + i] = env[E_DECK + j]
        env[E_DECK + j] = c
    button = 0 if env[E_HAND] == 1.0 and env[seat_base(0) + P_CHIPS] > 0.0 else -1
    if button < 0:
        button = next_with_chips(env, int(env[E_BUTTON]))
    env[E_BUTTON] = button
    if count_active(env, True) == 2:  # heads-up: the button posts the small blind
        small = button
    else:
        small = next_with_chips(env, button)
    big = next_with_chips(env, small)
    env[E_SB] = small
    env[E_BB] = big
    put_in(env, small, float(SMALL_BLIND))  # floats, as in stepEnv: put_in compiles once
    put_in(env, big, float(BIG_BLIND))
    env[seat_base(small) + P_BLIND] = env[seat_base(small) + P_BET]
    env[seat_base(big) + P_BLIND] = env[seat_base(big) + P_BET]
    env[E_STREET] = 0.0
    env[E_BET] = BIG_BLIND  # to match even when the big blind is short (it is all-in for less)
    env[E_RAISE] = BIG_BLIND
    first = next_to_act(env, big)
    if first < 0:
        return False
    env[E_TO_MOVE] = first
    return True


@njit(cache=True)
def end_street(env) -> bool:
    """The betting of a street is over: deal the next street (True: someone is to act), or run
    the board out when fewer than two seats in the hand can still bet (False: show down)."""
    n = int(env[E_PLAYERS])
    while True:
        for p in range(n):
            b = seat_base(p)
            env[b + P_BET] = 0.0
            env[b + P_ACTED] = 0.0
            env[b + P_FACED] = 0.0
        env[E_BET] = 0.0
        env[E_RAISE] = BIG_BLIND
        if env[E_STREET] >= 3.0:
            return False
        env[E_STREET] += 1.0
        if count_active(env, True) >= 2:
            first = next_to_act(env, int(env[E_BUTTON]))
            if first >= 0:
                env[E_TO_MOVE] = first
                return True


@njit(cache=True)
def share_pot(env, n):
    """Hand out the pot layer by layer (side pots): each layer of chips goes to the best hands
    among the seats in the hand that put in at least that much; a split gives the odd chips one
    at a time to the winners nearest the button's left. Adds to ``P_LAST_WON``."""
    button = int(env[E_BUTTON])
    previous = 0.0
    while True:
        level = -1.0
        for p in range(n):
            c = env[seat_base(p) + P_COMMITTED]
            if c > previous and (level < 0.0 or c < level):
                level = c
        if level < 0.0:
            return
        amount = 0.0
        for p in range(n):
            c = env[seat_base(p) + P_COMMITTED]
            amount += min(c, level) - min(c, previous)
        best, winners = -1.0, 0
        for p in range(n):
            b = seat_base(p)
            if env[b + P_ACTIVE] > 0.5 and env[b + P_COMMITTED] >= level:
                if env[b + P_SCORE] > best:
                    best, winners = env[b + P_SCORE], 1
                elif env[b + P_SCORE] == best:
                    winners += 1
        if winners == 0:  # nobody in the hand reached this layer: it goes to the best hand left
            for p in range(n):
                b = seat_base(p)
                if env[b + P_ACTIVE] > 0.5:
                    if env[b + P_SCORE] > best:
                        best, winners = env[b + P_SCORE], 1
                    elif env[b + P_SCORE] == best:
                        winners += 1
            level_needed = 0.0
        else:
            level_needed = level
        share = np.floor(amount / winners)
        odd = amount - share * winners
        for k in range(1, n + 1):
            p = (button + k) % n
            b = seat_base(p)
            if env[b + P_ACTIVE] > 0.5 and env[b + P_COMMITTED] >= level_needed and env[b + P_SCORE] == best:
                env[b + P_LAST_WON] += share
                if odd > 0.0:
                    env[b + P_LAST_WON] += 1.0
                    odd -= 1.0
        previous = level


@njit(cache=True)
def finish_hand(env) -> bool:
    """Settle the hand (a showdown when two or more seats are still in it) and keep what the next
    states show of it; end the game when one seat holds every chip or the hand cap is reached.
    True when the game goes on."""
    n = int(env[E_PLAYERS])
    showdown = count_active(env, False) >= 2
    shown = BOARD_SHOWN[3] if showdown else BOARD_SHOWN[int(env[E_STREET])]
    for i in range(5):
        env[E_LAST_BOARD + i] = env[E_DECK + i] if i < shown else -1.0
    env[E_LAST_SHOWDOWN] = 1.0 if showdown else 0.0
    for p in range(n):
        b = seat_base(p)
        env[b + P_LAST_WON] = 0.0
        env[b + P_SCORE] = 0.0
        env[b + P_LAST_HOLE] = -1.0
        env[b + P_LAST_HOLE + 1] = -1.0
        if env[b + P_ACTIVE] > 0.5:
            if showdown:
                env[b + P_SCORE] = seat_score(env, p)
                env[b + P_LAST_HOLE] = env[E_DECK + 5 + 2 * p]
                env[b + P_LAST_HOLE + 1] = env[E_DECK + 6 + 2 * p]
    share_pot(env, n)
    for p in range(n):
        b = seat_base(p)
        env[b + P_LAST_COMMITTED] = env[b + P_COMMITTED]
        env[b + P_CHIPS] += env[b + P_LAST_WON]
        env[b + P_COMMITTED] = 0.0
        env[b + P_BET] = 0.0
        env[b + P_ACTIVE] = 0.0
    env[E_HANDS_DONE] += 1.0
    holding = 0
    for p in range(n):
        if env[seat_base(p) + P_CHIPS] > 0.0:
            holding += 1
    if holding <= 1 or env[E_HAND] >= HAND_CAP:
        end_game(env)
        return False
    return True


@njit(cache=True)
def proceed(env, betting_closed):
    """Move the game on until a seat has to act or the game is over: after a street's betting
    closed (``betting_closed``), or after a fold that left one seat in the hand."""
    while True:
        if betting_closed and end_street(env):
            return
        if not finish_hand(env):
            return
        if start_hand(env):
            return
        betting_closed = True


@njit(cache=True)
def end_game(env):
    """The chip leader wins; equal leaders share the first place."""
    n = int(env[E_PLAYERS])
    most = -1.0
    for p in range(n):
        most = max(most, env[seat_base(p) + P_CHIPS])
    winners, winner = 0, -1
    for p in range(n):
        if env[seat_base(p) + P_CHIPS] == most:
            env[seat_base(p) + P_WINNER] = 1.0
            winners += 1
            winner = p
    env[E_RESULT] = winner if winners == 1 else n


@njit(cache=True)
def initEnv(players=DEFAULT_PLAYERS):
    """A new game for ``players`` (2..9) players with 200 chips each; the first hand is dealt."""
    n = min(max(int(players), MIN_PLAYERS), MAX_PLAYERS)
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = n
    env[E_RESULT] = -1.0
    for i in range(5):
        env[E_LAST_BOARD + i] = -1.0
    for c in range(NUM_CARDS):
        env[E_DECK + c] = c
    for p in range(n):
        b = seat_base(p)
        env[b + P_CHIPS] = STACK
        env[b + P_LAST_HOLE] = -1.0
        env[b + P_LAST_HOLE + 1] = -1.0
    if not start_hand(env):
        proceed(env, True)
    return env


@njit(cache=True)
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0:
        return env
    p = int(env[E_TO_MOVE])
    b = seat_base(p)
    to_call = env[E_BET] - env[b + P_BET]
    if action == FOLD and to_call > 0.0:
        env[b + P_LAST_ACTION] = FOLD + 1
        env[b + P_ACTIVE] = 0.0
        if count_active(env, False) == 1:
            proceed(env, False)
            return env
    elif action <= CALL or action >= NUM_ACTIONS or not can_raise(env, p):  # anything else calls
        env[b + P_LAST_ACTION] = CALL + 1
        put_in(env, p, to_call)
    else:
        target = raise_target(action, env[b + P_BET], env[b + P_CHIPS], env[E_BET], env[E_RAISE], pot_size(env))
        env[b + P_LAST_ACTION] = (ALL_IN if target >= env[b + P_BET] + env[b + P_CHIPS] else action) + 1
        put_in(env, p, target - env[b + P_BET])
        new_bet = env[b + P_BET]
        if new_bet > env[E_BET]:
            if new_bet - env[E_BET] >= env[E_RAISE]:  # a full raise: the new minimum raise
                env[E_RAISE] = new_bet - env[E_BET]
            env[E_BET] = new_bet
    env[b + P_ACTED] = 1.0
    env[b + P_FACED] = env[E_BET]
    following = next_to_act(env, p)
    if following >= 0:
        env[E_TO_MOVE] = following
    else:
        proceed(env, True)
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_TO_MOVE])


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getWinners(env):
    n = int(env[E_PLAYERS])
    winners = np.zeros(n, dtype=np.float64)
    for p in range(n):
        winners[p] = env[seat_base(p) + P_WINNER]
    return winners


@njit(cache=True)
def getReturns(env):
    """Chips won (+) or lost (-) by each player over the game: final chips minus the 200 it began with."""
    n = int(env[E_PLAYERS])
    returns = np.zeros(n, dtype=np.float64)
    for p in range(n):
        returns[p] = env[seat_base(p) + P_CHIPS] - STACK
    return returns


# ---- states ------------------------------------------------------------------------------------


@njit(cache=True)
def getPlayerState(env, player):
    n = int(env[E_PLAYERS])
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    over = env[E_RESULT] >= 0.0
    me = seat_base(player)
    state[S_PLAYERS] = n
    state[S_SEAT] = player
    state[S_HAND] = env[E_HAND]
    state[S_HANDS_DONE] = env[E_HANDS_DONE]
    state[S_LAST_SHOWDOWN] = env[E_LAST_SHOWDOWN]
    for i in range(5):
        state[S_LAST_BOARD + i] = env[E_LAST_BOARD + i] + 1.0
    if over:
        state[S_OVER] = 1.0
        winners = 0.0
        for p in range(n):
            winners += env[seat_base(p) + P_WINNER]
        state[S_WON] = env[me + P_WINNER] if winners < n else 0.0
    else:
        street = int(env[E_STREET])
        state[S_STREET + street] = 1.0
        for i in range(BOARD_SHOWN[street]):
            state[S_BOARD + int(env[E_DECK + i])] = 1.0
        if env[me + P_DEALT] > 0.5:
            state[S_HOLE + int(env[E_DECK + 5 + 2 * player])] = 1.0
            state[S_HOLE + int(env[E_DECK + 6 + 2 * player])] = 1.0
        state[S_POT] = pot_size(env)
        state[S_TO_CALL] = max(env[E_BET] - env[me + P_BET], 0.0) if env[me + P_ACTIVE] > 0.5 else 0.0
        state[S_BET] = env[E_BET]
        state[S_MIN_RAISE] = env[E_RAISE]
        if int(env[E_TO_MOVE]) == player:
            state[S_MY_TURN] = 1.0
            state[S_CAN_RAISE] = 1.0 if can_raise(env, player) else 0.0
    for rel in range(n):
        p = (player + rel) % n
        src = seat_base(p)
        dst = S_SEATS + rel * STATE_BLOCK
        state[dst + B_PRESENT] = 1.0
        state[dst + B_CHIPS] = env[src + P_CHIPS]
        state[dst + B_LAST_WON] = env[src + P_LAST_WON]
        state[dst + B_LAST_COMMITTED] = env[src + P_LAST_COMMITTED]
        state[dst + B_LAST_HOLE] = env[src + P_LAST_HOLE] + 1.0
        state[dst + B_LAST_HOLE + 1] = env[src + P_LAST_HOLE + 1] + 1.0
        state[dst + B_WINNER] = env[src + P_WINNER]
        if over:
            continue
        state[dst + B_BET] = env[src + P_BET]
        state[dst + B_COMMITTED] = env[src + P_COMMITTED]
        state[dst + B_ACTIVE] = env[src + P_ACTIVE]
        state[dst + B_ALL_IN] = 1.0 if env[src + P_ACTIVE] > 0.5 and env[src + P_CHIPS] <= 0.0 else 0.0
        state[dst + B_BUTTON] = 1.0 if int(env[E_BUTTON]) == p else 0.0
        state[dst + B_SB] = 1.0 if int(env[E_SB]) == p else 0.0
        state[dst + B_BB] = 1.0 if int(env[E_BB]) == p else 0.0
        state[dst + B_BLIND] = env[src + P_BLIND]
        state[dst + B_TO_MOVE] = 1.0 if int(env[E_TO_MOVE]) == p else 0.0
        state[dst + B_LAST_ACTION] = env[src + P_LAST_ACTION]
        state[dst + B_ACTED] = env[src + P_ACTED]
        state[dst + B_FACED] = env[src + P_FACED]
        state[dst + B_DEALT] = env[src + P_DEALT]
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, int(env[E_TO_MOVE]))


@njit(cache=True)
def isValidAction(state, action) -> bool:
    """Fold when facing a bet; check/call always; the raises when the betting is open to me
    (S_CAN_RAISE), each only when it differs from the minimum raise and from all-in."""
    if action < 0 or action >= NUM_ACTIONS:
        return False
    if state[S_OVER] > 0.5:
        return action == 0  # a finished game offers action 0 alone (the final turn)
    if state[S_MY_TURN] < 0.5:
        return False
    if action == FOLD:
        return state[S_TO_CALL] > 0.0
    if action == CALL:
        return True
    if state[S_CAN_RAISE] < 0.5:
        return False
    if action == ALL_IN:
        return True
    my_bet = state[S_SEATS + B_BET]
    all_in = my_bet + state[S_SEATS + B_CHIPS]
    pot = state[S_POT]
    lowest = raise_target(MIN_RAISE, my_bet, 1e18, state[S_BET], state[S_MIN_RAISE], pot)
    target = raise_target(action, my_bet, 1e18, state[S_BET], state[S_MIN_RAISE], pot)
    if action == MIN_RAISE:
        return target < all_in
    return lowest < target < all_in


@njit(cache=True)
def getValidActions(state):
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    for a in range(NUM_ACTIONS):
        if isValidAction(state, a):
            valid[a] = 1.0
    return valid


@njit(cache=True)
def getReward(state) -> int:
    if state[S_OVER] < 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0


# ---- determinization ---------------------------------------------------------------------------


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``, its player to move: the public facts copied, the cards the
    state does not show (the other seats' hole cards, the board still to come, the deck) dealt
    at random. For search bots; it never reads the real cards."""
    n = min(max(int(state[S_PLAYERS]), MIN_PLAYERS), MAX_PLAYERS)
    me = min(max(int(state[S_SEAT]), 0), n - 1)
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = n
    env[E_HAND] = state[S_HAND]
    env[E_HANDS_DONE] = state[S_HANDS_DONE]
    env[E_LAST_SHOWDOWN] = state[S_LAST_SHOWDOWN]
    env[E_RESULT] = -1.0
    street = 0
    for k in range(4):
        if state[S_STREET + k] > 0.5:
            street = k
    env[E_STREET] = street
    env[E_BET] = state[S_BET]
    env[E_RAISE] = state[S_MIN_RAISE]
    env[E_TO_MOVE] = me
    for i in range(5):
        env[E_LAST_BOARD + i] = state[S_LAST_BOARD + i] - 1.0
    # the deck: my hole cards and the board shown in their places, the unseen cards shuffled
    used = np.zeros(NUM_CARDS, dtype=np.bool_)
    board = 0
    for c in range(NUM_CARDS):
        if state[S_BOARD + c] > 0.5 and board < 5:
            env[E_DECK + board] = c
            used[c] = True
            board += 1
    hole = 0
    for c in range(NUM_CARDS):
        if state[S_HOLE + c] > 0.5 and hole < 2:
            env[E_DECK + 5 + 2 * me + hole] = c
            used[c] = True
            hole += 1
    unseen = np.empty(NUM_CARDS, dtype=np.float64)
    count = 0
    for c in range(NUM_CARDS):
        if not used[c]:
            unseen[count] = c
            count += 1
    for i in range(count - 1, 0, -1):
        j = int(np.random.random() * (i + 1))
        unseen[i], unseen[j] = unseen[j], unseen[i]
    drawn = 0
    for i in range(NUM_CARDS):
        in_board = i < 5 and i >= board
        in_my_hole = 5 + 2 * me + hole <= i < 7 + 2 * me
        other = i >= 5 and not (5 + 2 * me <= i < 7 + 2 * me)
        if (in_board or in_my_hole or other) and drawn < count:
            env[E_DECK + i] = unseen[drawn]
            drawn += 1
    for rel in range(n):
        p = (me + rel) % n
        src = S_SEATS + rel * STATE_BLOCK
        dst = seat_base(p)
        env[dst + P_CHIPS] = state[src + B_CHIPS]
        env[dst + P_BET] = state[src + B_BET]
        env[dst + P_COMMITTED] = state[src + B_COMMITTED]
        env[dst + P_ACTIVE] = state[src + B_ACTIVE]
        env[dst + P_DEALT] = state[src + B_DEALT]
        env[dst + P_ACTED] = state[src + B_ACTED]
        env[dst + P_FACED] = state[src + B_FACED]
        env[dst + P_BLIND] = state[src + B_BLIND]
        env[dst + P_LAST_HOLE] = state[src + B_LAST_HOLE] - 1.0
        env[dst + P_LAST_HOLE + 1] = state[src + B_LAST_HOLE + 1] - 1.0
        env[dst + P_LAST_WON] = state[src + B_LAST_WON]
        env[dst + P_LAST_COMMITTED] = state[src + B_LAST_COMMITTED]
        env[dst + P_LAST_ACTION] = state[src + B_LAST_ACTION]
        env[dst + P_WINNER] = state[src + B_WINNER]
        if state[src + B_BUTTON] > 0.5:
            env[E_BUTTON] = p
        if state[src + B_SB] > 0.5:
            env[E_SB] = p
        if state[src + B_BB] > 0.5:
            env[E_BB] = p
    if state[S_OVER] > 0.5:
        end_game(env)
    return env
