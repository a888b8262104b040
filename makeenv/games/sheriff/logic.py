"""Sheriff (of Nottingham, four players): the rules, as numba functions over flat float64 arrays.

The rules are those of the vis/ENV library (github.com/ngoxuanphong/ENV, ``src/Base/Sheriff``):

* 216 goods cards (``cards.json``): four legal goods, four contraband goods and seven royal goods
  (contraband that counts two or three times as a legal good for the king and queen bonuses).
  Everybody starts with 50 coins and 5 cards dealt from the non-royal cards; two face-up discard
  piles start with 5 cards each, the rest is the deck.
* 8 rounds; the sheriff of round r is seat (r - 1) mod 4, and the three others are merchants.
* Market: each merchant in turn (from the sheriff's left) discards any cards, draws back to 6
  cards from the deck (the rest at once) or from the tops of the piles (one at a time), then puts
  this turn's discards on a pile of its choice.
* Each merchant then loads a bag with 1 to 5 cards from the hand, and declares one legal good.
* The sheriff picks the merchants one by one. The merchant picked may offer a bribe: coins, goods
  from its stand, goods from its bag. The sheriff inspects the bag or lets it pass.
  Let pass: the sheriff takes the bribe, the merchant's bag goes to its stand.
  Inspected: the bribe goes back; an honest bag (every card the declared good) goes to the stand
  and the sheriff pays the merchant the declared good's penalty per card; otherwise the merchant
  keeps the declared cards, pays the penalty of every other card, and the sheriff puts those on
  a discard pile. Fines a player cannot pay become debt, subtracted at the end.
* The end: coins - debt + the value of the goods on the stand + king and queen bonuses per legal
  good (royal goods count double or triple; a tie for king shares king + queen, a tie for queen
  shares the queen, rounded down). Ties: most legal goods, then most contraband, then the
  higher seat.

vis/ENV never clears a merchant's discards when a round ends with an inspection, so they go onto
a pile again next round (cards appear from nothing); here every round starts clean. README.md
lists that difference and documents the array layouts.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit

from makeenv.array.numba_helpers import copy_values, new_values


def _load_goods() -> tuple:
    """The goods of ``cards.json`` as arrays (names, values, penalties, counts, royal flags, the
    legal good each counts as or -1, its multiple) and the king and queen bonuses."""
    data = json.loads((Path(__file__).parent / "cards.json").read_text())
    goods = data["goods"]
    legal = [g["name"] for g in goods if g["legal"]]
    names = tuple(g["name"] for g in goods)
    values = np.array([g["value"] for g in goods], dtype=np.float64)
    penalties = np.array([g["penalty"] for g in goods], dtype=np.float64)
    counts = np.array([g["count"] for g in goods], dtype=np.int64)
    royal = np.array([g["royal"] for g in goods], dtype=np.bool_)
    counts_as = np.array([legal.index(g["counts_as"]) if g["counts_as"] else -1 for g in goods], dtype=np.int64)
    multiple = np.array([g["multiple"] for g in goods], dtype=np.float64)
    king = np.array([data["bonuses"][name]["king"] for name in legal], dtype=np.float64)
    queen = np.array([data["bonuses"][name]["queen"] for name in legal], dtype=np.float64)
    return names, values, penalties, counts, royal, counts_as, multiple, king, queen


GOOD_NAMES, GOOD_VALUE, GOOD_PENALTY, GOOD_COUNT, GOOD_ROYAL, COUNTS_AS, COUNT_MULTIPLE, KING, QUEEN = _load_goods()
NUM_KINDS = 15  # kinds 0..3 legal, 4..7 contraband, 8..14 royal
NUM_LEGAL = 4
NUM_CARDS = 216
NUM_PLAYERS = 4
NUM_ROUNDS = 8
START_COINS = 50.0
START_HAND = 5
HAND_LIMIT = 6
BAG_LIMIT = 5
START_PILE = 5
DECK_SIZE = NUM_CARDS - NUM_PLAYERS * START_HAND - 2 * START_PILE  # 186
PILE_ROOM = NUM_CARDS  # a pile can never hold more than every card

# ---- phases (the numbers of vis/ENV) ----------------------------------------------------------
DISCARD, DRAW, RETURN, LOAD, DECLARE, CHOOSE = 1, 2, 3, 4, 5, 6
BRIBE_COINS, BRIBE_STAND, BRIBE_BAG, DECIDE, CONFISCATE = 7, 8, 9, 10, 11
NUM_PHASES = 11

# ---- actions (the numbers of vis/ENV) ---------------------------------------------------------
DISCARD_CARD = 0  # + kind: discard a card of that kind (market)
STOP_DISCARD = 15
DRAW_DECK = 16  # draw from the deck back to 6 cards
TAKE_LEFT, TAKE_RIGHT = 17, 18  # take the top card of a pile
RETURN_LEFT, RETURN_RIGHT = 19, 20  # put this turn's discards on a pile
LOAD_CARD = 21  # + kind: put a card of that kind in the bag
CLOSE_BAG = 36
DECLARE_GOOD = 37  # + legal good 0..3
INSPECT_NEXT = 41  # + 0..2: pick the merchant 1, 2 or 3 seats after the sheriff
STOP_COINS, ADD_COIN = 44, 45
OFFER_STAND = 46  # + kind: offer a card of that kind from my stand
STOP_STAND = 61
OFFER_BAG = 62  # + kind: offer a card of that kind from my bag
STOP_BAG = 77
INSPECT, LET_PASS = 78, 79
CONFISCATE_LEFT, CONFISCATE_RIGHT = 80, 81
NUM_ACTIONS = 82

# ---- env: the referee's view (length ENV_SIZE) -------------------------------------------------
E_ROUND = 0  # 1..8 (9 once the game is over)
E_PHASE = 1  # 1..11
E_TO_MOVE = 2  # the seat to move
E_HANDLED = 3  # merchants the sheriff has picked this round (0..3)
E_TARGET = 4  # the merchant picked (bribing or being decided on), -1 none
E_RESULT = 5  # what checkEnded returns: -1 running, else the winner
E_DRAWN = 6  # cards drawn from the deck so far
E_PILE_SIZE = 7  # 2 sizes: cards in the left and the right pile
E_DECK = 9  # DECK_SIZE kinds in drawing order
E_PILES = E_DECK + DECK_SIZE  # 2 piles x PILE_ROOM kinds, bottom first
E_CONFISCATED = E_PILES + 2 * PILE_ROOM  # 15 counts: cards the sheriff confiscated, to be discarded
E_PLAYER = E_CONFISCATED + NUM_KINDS  # 4 player blocks
P_COINS = 0
P_DEBT = 1  # fines that could not be paid
P_DECLARED = 2  # the legal good declared this round, -1 none
P_COIN_BRIBE = 3  # coins offered to the sheriff
P_SCORE = 4  # the final score (at the end)
P_BONUS = 5  # king and queen bonuses (at the end)
P_WINNER = 6  # 1 for the winner (at the end)
P_HAND_COUNT = 7  # totals kept with the counts below (``add_cards``, ``recount``): cards in hand,
P_BAG_COUNT = 8  # in the bag (not offered),
P_BAG_BRIBE_COUNT = 9  # bag cards offered,
P_CONTRABAND = 10  # contraband and royal goods on the stand (not offered)
P_HAND = 11  # 15 counts each from here on
P_BAG = P_HAND + NUM_KINDS  # cards in the bag (not offered)
P_BAG_BRIBE = P_BAG + NUM_KINDS  # bag cards offered to the sheriff
P_STAND = P_BAG_BRIBE + NUM_KINDS  # goods on the merchant stand (not offered)
P_STAND_BRIBE = P_STAND + NUM_KINDS  # stand goods offered to the sheriff
P_DISCARDS = P_STAND_BRIBE + NUM_KINDS  # cards discarded in this round's market
PLAYER_BLOCK = P_DISCARDS + NUM_KINDS
ENV_SIZE = E_PLAYER + NUM_PLAYERS * PLAYER_BLOCK

# ---- state: one player's view (length STATE_SIZE); every value is >= 0 ------------------------
S_ROUND = 0  # 1..8 (9 at the end)
S_PHASE = 1  # 11 flags: the phase, one-hot
S_OVER = 12  # 1 when the game is over
S_WON = 13  # 1 when I won
S_SEAT = 14  # my seat 0..3
S_SHERIFF = 15  # 4 flags: the sheriff (me, then the next seats)
S_TO_MOVE = 19  # 4 flags: who moves
S_TARGET = 23  # 4 flags: the merchant picked by the sheriff, if any
S_HANDLED = 27  # merchants picked this round (0..3)
S_DECK = 28  # cards left in the deck
S_PILE_SIZE = 29  # 2 counts: cards in the left and right piles
S_PILE_TOPS = 31  # 2 piles x 6 cards x 15 flags: the top six cards of each pile, top first
TOP_SHOWN = 6
S_HAND = S_PILE_TOPS + 2 * TOP_SHOWN * NUM_KINDS  # 15 counts: my hand
S_BAG = S_HAND + NUM_KINDS  # 15 counts: my bag (cards not offered)
S_BAG_BRIBE = S_BAG + NUM_KINDS  # 15 counts: cards of my bag I offer
S_CONFISCATED = S_BAG_BRIBE + NUM_KINDS  # 15 counts: confiscated cards waiting for a pile
S_SEATS = S_CONFISCATED + NUM_KINDS  # 4 seat blocks: me, then the next seats
B_COINS = 0
B_DEBT = 1
B_DECLARED = 2  # 4 flags: the good declared this round (cleared once decided)
B_BAG_COUNT = 6  # cards in the bag (not offered)
B_BAG_BRIBE_COUNT = 7  # bag cards offered
B_COIN_BRIBE = 8  # coins offered
B_HAND_COUNT = 9  # cards in hand
B_CONTRABAND = 10  # contraband and royal goods on the stand (face down: a count)
B_STAND = 11  # 15 counts: the stand; for the others only legal goods until the end
B_STAND_BRIBE = B_STAND + NUM_KINDS  # 15 counts: stand goods offered
B_DISCARDS = B_STAND_BRIBE + NUM_KINDS  # 15 counts: cards discarded in this round's market
B_SCORE = B_DISCARDS + NUM_KINDS  # final score (at the end; 0 before)
B_BONUS = B_SCORE + 1  # king and queen bonuses (at the end)
B_WINNER = B_BONUS + 1  # 1 for the winner (at the end)
SEAT_BLOCK = B_WINNER + 1
STATE_SIZE = S_SEATS + NUM_PLAYERS * SEAT_BLOCK


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    return NUM_PLAYERS


@njit(cache=True, inline="always")
def player_base(player) -> int:
    return E_PLAYER + player * PLAYER_BLOCK


@njit(cache=True, inline="always")
def sheriff_of(env) -> int:
    return (int(env[E_ROUND]) - 1) % NUM_PLAYERS


@njit(cache=True, inline="always")
def count(env, start) -> float:
    """The number of cards in the 15 counts ``env[start:start+15]``."""
    total = 0.0
    for k in range(NUM_KINDS):
        total += env[start + k]
    return total


@njit(cache=True, inline="always")
def recount(env, player):
    """Set ``player``'s totals (cards in hand, in the bag, offered from the bag, contraband on
    the stand) from the counts per kind: after moving many cards, or after editing an env."""
    base = player_base(player)
    env[base + P_HAND_COUNT] = count(env, base + P_HAND)
    env[base + P_BAG_COUNT] = count(env, base + P_BAG)
    env[base + P_BAG_BRIBE_COUNT] = count(env, base + P_BAG_BRIBE)
    contraband = 0.0
    for k in range(NUM_LEGAL, NUM_KINDS):
        contraband += env[base + P_STAND + k]
    env[base + P_CONTRABAND] = contraband


@njit(cache=True, inline="always")
def add_cards(env, base, field, kind, n):
    """Add ``n`` cards (fewer when negative) of ``kind`` to the counts at ``field`` of the player
    block at ``base``, and to the total kept for them."""
    env[base + field + kind] += n
    if field == P_HAND:
        env[base + P_HAND_COUNT] += n
    elif field == P_BAG:
        env[base + P_BAG_COUNT] += n
    elif field == P_BAG_BRIBE:
        env[base + P_BAG_BRIBE_COUNT] += n
    elif field == P_STAND and kind >= NUM_LEGAL:
        env[base + P_CONTRABAND] += n


@njit(cache=True)
def shuffle(cards, start, stop):
    for i in range(stop - 1, start, -1):  # Fisher-Yates over cards[start:stop]
        j = start + int(np.random.random() * (i - start + 1))
        cards[i], cards[j] = cards[j], cards[i]


@njit(cache=True)
def initEnv():
    """A new game: hands of 5 non-royal cards, two piles of 5 and the deck from the rest."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    cards = np.empty(NUM_CARDS, dtype=np.float64)
    normal = 0
    for k in range(NUM_KINDS):
        if not GOOD_ROYAL[k]:
            for _ in range(GOOD_COUNT[k]):
                cards[normal] = k
                normal += 1
    i = normal
    for k in range(NUM_KINDS):
        if GOOD_ROYAL[k]:
            for _ in range(GOOD_COUNT[k]):
                cards[i] = k
                i += 1
    shuffle(cards, 0, normal)
    dealt = NUM_PLAYERS * START_HAND
    shuffle(cards, dealt, NUM_CARDS)  # the royal goods join what is left
    for p in range(NUM_PLAYERS):
        base = player_base(p)
        env[base + P_COINS] = START_COINS
        env[base + P_DECLARED] = -1.0
        for c in range(p * START_HAND, (p + 1) * START_HAND):
            add_cards(env, base, P_HAND, int(cards[c]), 1.0)
    for pile in range(2):
        for i in range(START_PILE):
            env[E_PILES + pile * PILE_ROOM + i] = cards[dealt + pile * START_PILE + i]
        env[E_PILE_SIZE + pile] = START_PILE
    for i in range(DECK_SIZE):
        env[E_DECK + i] = cards[dealt + 2 * START_PILE + i]
    env[E_ROUND] = 1.0
    env[E_PHASE] = DISCARD
    env[E_TO_MOVE] = 1.0
    env[E_TARGET] = -1.0
    env[E_RESULT] = -1.0
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_TO_MOVE])


@njit(cache=True, inline="always")
def relative(seat, player) -> int:
    """``(seat - player) % NUM_PLAYERS`` for seats 0..3, without a division."""
    d = seat - player
    return d + NUM_PLAYERS if d < 0 else d


@njit(cache=True, inline="always")
def player_state(env, player):
    """getPlayerState, inlined into getAgentState (a call passing the env costs two atomic
    reference counts). np.empty (``new_values``), then every value written once: this runs on
    every move of every game. numba keeps no reference count on the env here as long as nothing
    but the allocation can fail and the loops after it are simple (fixed short loops, no branch
    inside a loop the compiler keeps): check the compiled code after changing this."""
    state = new_values(STATE_SIZE)
    for i in range(S_HAND):  # the scalars, the one-hot flags and the pile tops start at 0
        state[i] = 0.0
    over = env[E_RESULT] >= 0.0
    state[S_ROUND] = env[E_ROUND]
    state[S_PHASE + int(env[E_PHASE]) - 1] = 1.0
    state[S_OVER] = 1.0 if over else 0.0
    me = player_base(player)
    state[S_WON] = env[me + P_WINNER]
    state[S_SEAT] = player
    state[S_SHERIFF + relative(sheriff_of(env), player)] = 1.0
    if not over:
        state[S_TO_MOVE + relative(int(env[E_TO_MOVE]), player)] = 1.0
    target = int(env[E_TARGET])  # -1: none (a 0 is then written over a 0)
    state[S_TARGET + relative(max(target, 0), player)] = target >= 0
    state[S_HANDLED] = env[E_HANDLED]
    state[S_DECK] = DECK_SIZE - env[E_DRAWN]
    for pile in range(2):
        size = int(env[E_PILE_SIZE + pile])
        state[S_PILE_SIZE + pile] = size
        top = E_PILES + pile * PILE_ROOM + size - 1
        for i in range(TOP_SHOWN):  # no branch (see new_values): below a pile's bottom a 0 is
            kind = int(env[max(top - i, E_PILES)])  # written over a 0 (any kind read is 0..14)
            state[S_PILE_TOPS + (pile * TOP_SHOWN + i) * NUM_KINDS + kind] = 1.0 if i < size else 0.0
    copy_values(state, S_HAND, env, me + P_HAND, 3 * NUM_KINDS)  # hand, bag, offered: same order
    copy_values(state, S_CONFISCATED, env, E_CONFISCATED, NUM_KINDS)
    for rel in range(NUM_PLAYERS):
        seat = player + rel
        src = player_base(seat - NUM_PLAYERS if seat >= NUM_PLAYERS else seat)
        dst = S_SEATS + rel * SEAT_BLOCK
        state[dst + B_COINS] = env[src + P_COINS]
        state[dst + B_DEBT] = env[src + P_DEBT]
        declared = env[src + P_DECLARED]  # -1 when none
        for g in range(NUM_LEGAL):
            state[dst + B_DECLARED + g] = declared == g
        state[dst + B_COIN_BRIBE] = env[src + P_COIN_BRIBE]
        state[dst + B_BAG_COUNT] = env[src + P_BAG_COUNT]
        state[dst + B_BAG_BRIBE_COUNT] = env[src + P_BAG_BRIBE_COUNT]
        state[dst + B_HAND_COUNT] = env[src + P_HAND_COUNT]
        state[dst + B_CONTRABAND] = env[src + P_CONTRABAND]
        copy_values(state, dst + B_STAND, env, src + P_STAND, 3 * NUM_KINDS)  # stand, offered, discards
        state[dst + B_SCORE] = 0.0
        state[dst + B_BONUS] = 0.0
        state[dst + B_WINNER] = 0.0
    if over:
        for rel in range(NUM_PLAYERS):
            seat = player + rel
            src = player_base(seat - NUM_PLAYERS if seat >= NUM_PLAYERS else seat)
            dst = S_SEATS + rel * SEAT_BLOCK
            state[dst + B_SCORE] = max(env[src + P_SCORE], 0.0)
            state[dst + B_BONUS] = env[src + P_BONUS]
            state[dst + B_WINNER] = env[src + P_WINNER]
    else:
        for rel in range(1, NUM_PLAYERS):  # the others' contraband lies face down
            for k in range(NUM_LEGAL, NUM_KINDS):
                state[S_SEATS + rel * SEAT_BLOCK + B_STAND + k] = 0.0
    return state


@njit(cache=True)
def getPlayerState(env, player):
    return player_state(env, player)


@njit(cache=True)
def getAgentState(env):
    return player_state(env, int(env[E_TO_MOVE]))


# What an action needs besides its phase flag: a state value > 0.5 (its index), or one of these.
ALWAYS = -1
BAG_CLOSABLE = -2  # CLOSE_BAG: my bag holds a card, or my hand is empty
COIN_SPARE = -3  # ADD_COIN: my coins exceed my debt
BAG_WAITING = -4  # INSPECT_NEXT + i: that merchant has declared and its bag waits


def _action_rules() -> tuple:
    """Per action, the phase it belongs to and what else it needs (a state index or a rule
    above); per phase, its first and last action (the actions between belong to it)."""
    phase = np.zeros(NUM_ACTIONS, dtype=np.int64)
    needs = np.full(NUM_ACTIONS, ALWAYS, dtype=np.int64)
    for k in range(NUM_KINDS):
        phase[DISCARD_CARD + k], needs[DISCARD_CARD + k] = DISCARD, S_HAND + k
        phase[LOAD_CARD + k], needs[LOAD_CARD + k] = LOAD, S_HAND + k
        phase[OFFER_STAND + k], needs[OFFER_STAND + k] = BRIBE_STAND, S_SEATS + B_STAND + k
        phase[OFFER_BAG + k], needs[OFFER_BAG + k] = BRIBE_BAG, S_BAG + k
    phase[STOP_DISCARD] = DISCARD
    phase[DRAW_DECK] = DRAW
    for pile in range(2):
        phase[TAKE_LEFT + pile], needs[TAKE_LEFT + pile] = DRAW, S_PILE_SIZE + pile
        phase[RETURN_LEFT + pile] = RETURN
        phase[CONFISCATE_LEFT + pile] = CONFISCATE
    phase[CLOSE_BAG], needs[CLOSE_BAG] = LOAD, BAG_CLOSABLE
    for g in range(NUM_LEGAL):
        phase[DECLARE_GOOD + g] = DECLARE
    for i in range(NUM_PLAYERS - 1):
        phase[INSPECT_NEXT + i], needs[INSPECT_NEXT + i] = CHOOSE, BAG_WAITING
    phase[STOP_COINS] = BRIBE_COINS
    phase[ADD_COIN], needs[ADD_COIN] = BRIBE_COINS, COIN_SPARE
    phase[STOP_STAND] = BRIBE_STAND
    phase[STOP_BAG] = BRIBE_BAG
    phase[INSPECT] = phase[LET_PASS] = DECIDE
    first = np.zeros(NUM_PHASES + 1, dtype=np.int64)
    last = np.full(NUM_PHASES + 1, -1, dtype=np.int64)  # index 0 (no phase): no action
    for ph in range(1, NUM_PHASES + 1):
        mine = np.flatnonzero(phase == ph)
        assert mine.size and mine[-1] - mine[0] + 1 == mine.size, f"phase {ph}'s actions must be consecutive"
        first[ph], last[ph] = mine[0], mine[-1]
    return phase, needs, first, last


ACTION_PHASE, ACTION_NEEDS, PHASE_FIRST, PHASE_LAST = _action_rules()


@njit(cache=True, inline="always")
def state_phase(state) -> int:
    """The phase of ``state``: its first phase flag set (0 when none is)."""
    for i in range(NUM_PHASES):
        if state[S_PHASE + i] > 0.5:
            return i + 1
    return 0


@njit(cache=True)
def isValidAction(state, action) -> bool:
    # Only early returns, no loops, calls or short-circuit and/or: numba then keeps no reference
    # count on ``state``, and this runs a few times on every move of the random agent.
    if action < 0 or action >= NUM_ACTIONS:
        return False
    if state[S_OVER] > 0.5:
        return action == 0
    if state[S_TO_MOVE] < 0.5:  # not my move
        return False
    if state[S_PHASE + ACTION_PHASE[action] - 1] < 0.5:  # the action belongs to another phase
        return False
    need = ACTION_NEEDS[action]
    if need >= 0:
        return state[need] > 0.5
    if need == BAG_CLOSABLE:
        return (state[S_SEATS + B_BAG_COUNT] > 0.5) | (state[S_SEATS + B_HAND_COUNT] < 0.5)
    if need == COIN_SPARE:
        return state[S_SEATS + B_COINS] - state[S_SEATS + B_DEBT] > 0.5
    if need == BAG_WAITING:
        block = S_SEATS + (action - INSPECT_NEXT + 1) * SEAT_BLOCK + B_DECLARED
        return state[block] + state[block + 1] + state[block + 2] + state[block + 3] > 0.5
    return True  # ALWAYS


PHASE_BITS = 16  # the most actions of a phase
assert max(PHASE_LAST - PHASE_FIRST) < PHASE_BITS


@njit(cache=True, inline="always")
def kind_bits(state, start) -> int:
    """Bit k set when ``state[start + k] > 0.5``, for the 15 kinds."""
    bits = 0
    for k in range(NUM_KINDS):
        bits |= (1 if state[start + k] > 0.5 else 0) << k
    return bits


@njit(cache=True, inline="always")
def phase_bits(state, phase) -> int:
    """The valid actions of ``phase`` (a flag set in ``state``, my move), as bits from the phase's
    first action: isValidAction's rules, written out per phase."""
    if phase == DISCARD:
        return kind_bits(state, S_HAND) | 1 << (STOP_DISCARD - DISCARD_CARD)
    if phase == DRAW:
        take_left = 1 if state[S_PILE_SIZE] > 0.5 else 0
        take_right = 1 if state[S_PILE_SIZE + 1] > 0.5 else 0
        return 1 | take_left << (TAKE_LEFT - DRAW_DECK) | take_right << (TAKE_RIGHT - DRAW_DECK)
    if phase == LOAD:
        closable = (state[S_SEATS + B_BAG_COUNT] > 0.5) | (state[S_SEATS + B_HAND_COUNT] < 0.5)
        return kind_bits(state, S_HAND) | (1 if closable else 0) << (CLOSE_BAG - LOAD_CARD)
    if phase == CHOOSE:
        bits = 0
        for i in range(NUM_PLAYERS - 1):
            block = S_SEATS + (i + 1) * SEAT_BLOCK + B_DECLARED
            waiting = state[block] + state[block + 1] + state[block + 2] + state[block + 3] > 0.5
            bits |= (1 if waiting else 0) << i
        return bits
    if phase == BRIBE_COINS:
        spare = state[S_SEATS + B_COINS] - state[S_SEATS + B_DEBT] > 0.5
        return 1 | (1 if spare else 0) << (ADD_COIN - STOP_COINS)
    if phase == BRIBE_STAND:
        return kind_bits(state, S_SEATS + B_STAND) | 1 << (STOP_STAND - OFFER_STAND)
    if phase == BRIBE_BAG:
        return kind_bits(state, S_BAG) | 1 << (STOP_BAG - OFFER_BAG)
    return (1 << (PHASE_LAST[phase] - PHASE_FIRST[phase] + 1)) - 1  # the others: every action


@njit(cache=True, inline="always")
def valid_bits(state) -> tuple:
    """getValidActions' valid actions as bits, ``low`` for actions 0..63 and ``high`` for
    64..81, and the range of actions ``start:stop`` they lie in."""
    low, high, start, stop = 0, 0, NUM_ACTIONS, 0
    mine = state[S_TO_MOVE] > 0.5
    for phase in range(1, NUM_PHASES + 1):  # one phase is set in a state an agent is given
        if mine and state[S_PHASE + phase - 1] > 0.5:
            bits = phase_bits(state, phase)
            first = PHASE_FIRST[phase]
            if first < 64:
                low |= bits << first
                if first > 64 - PHASE_BITS:
                    high |= bits >> (64 - first)  # the bits past action 63
            else:
                high |= bits << (first - 64)
            start = min(start, first)
            stop = max(stop, PHASE_LAST[phase] + 1)
    if state[S_OVER] > 0.5:  # read last, on every path (see getValidActions)
        return 1, 0, 0, 1
    return low, high, start, stop


@njit(cache=True)
def getValidActions(state):
    # The state is read before the vector is allocated and last read on every path (valid_bits):
    # numba then keeps no reference count on ``state`` (two atomic operations per call otherwise).
    low, high, start, stop = valid_bits(state)
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    for a in range(start, stop):
        word = low if a < 64 else high
        valid[a] = float((word >> (a & 63)) & 1)
    return valid


# ---- moving the cards ------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def push_pile(env, pile, counts_start):
    """Put the cards counted at ``env[counts_start:+15]`` on a pile, the highest kind on top (as
    vis/ENV stacks them), and clear the counts."""
    size = int(env[E_PILE_SIZE + pile])
    for k in range(NUM_KINDS):
        for _ in range(int(env[counts_start + k])):
            if size < PILE_ROOM:
                env[E_PILES + pile * PILE_ROOM + size] = k
                size += 1
        env[counts_start + k] = 0.0
    env[E_PILE_SIZE + pile] = size


@njit(cache=True, inline="always")
def next_merchant(env, player) -> int:
    """The seat after ``player``, skipping the sheriff; -1 once the last merchant has played."""
    sheriff = sheriff_of(env)
    nxt = (player + 1) % NUM_PLAYERS
    if nxt == sheriff:
        return -1
    return nxt


@njit(cache=True, inline="always")
def pass_turn(env, player, following_phase):
    """The next merchant plays the same phase; after the last one the first merchant (or, for
    the declarations, the sheriff) starts ``following_phase``."""
    nxt = next_merchant(env, player)
    if nxt >= 0:
        env[E_TO_MOVE] = nxt
        return
    env[E_PHASE] = following_phase
    sheriff = sheriff_of(env)
    env[E_TO_MOVE] = sheriff if following_phase == CHOOSE else (sheriff + 1) % NUM_PLAYERS


@njit(cache=True, inline="always")
def end_market_turn(env, player) -> bool:
    """The merchant returns its discards to a pile; with none, its turn passes (True)."""
    if count(env, player_base(player) + P_DISCARDS) > 0.5:
        env[E_PHASE] = RETURN
        return False
    env[E_PHASE] = DISCARD
    return True


@njit(cache=True, inline="always")
def pay(env, payer, payee, amount):
    """Move a fine; what the payer cannot pay becomes its debt."""
    base = player_base(payer)
    env[player_base(payee) + P_COINS] += amount
    env[base + P_COINS] -= amount
    if env[base + P_COINS] < 0.0:
        env[base + P_DEBT] -= env[base + P_COINS]
        env[base + P_COINS] = 0.0


@njit(cache=True, inline="always")
def decide(env, inspect):
    """The sheriff inspects the picked merchant's bag or lets it pass; with cards to
    confiscate, the sheriff then chooses their pile (stepEnv calls after_decision otherwise)."""
    sheriff = sheriff_of(env)
    merchant = int(env[E_TARGET])
    s = player_base(sheriff)
    m = player_base(merchant)
    declared = int(env[m + P_DECLARED])
    if inspect:
        env[m + P_COINS] += env[m + P_COIN_BRIBE]
        for k in range(NUM_KINDS):
            env[m + P_STAND + k] += env[m + P_STAND_BRIBE + k]
            env[m + P_BAG + k] += env[m + P_BAG_BRIBE + k]
            env[m + P_STAND_BRIBE + k] = 0.0
            env[m + P_BAG_BRIBE + k] = 0.0
        bag = count(env, m + P_BAG)
        if env[m + P_BAG + declared] == bag:  # honest: the sheriff pays
            pay(env, sheriff, merchant, bag * GOOD_PENALTY[declared])
        else:
            fine = 0.0
            for k in range(NUM_KINDS):
                if k != declared:
                    fine += env[m + P_BAG + k] * GOOD_PENALTY[k]
            pay(env, merchant, sheriff, fine)
        for k in range(NUM_KINDS):
            if k == declared:
                env[m + P_STAND + k] += env[m + P_BAG + k]
            else:
                env[E_CONFISCATED + k] += env[m + P_BAG + k]
            env[m + P_BAG + k] = 0.0
    else:
        env[s + P_COINS] += env[m + P_COIN_BRIBE]
        for k in range(NUM_KINDS):
            env[s + P_STAND + k] += env[m + P_STAND_BRIBE + k] + env[m + P_BAG_BRIBE + k]
            env[m + P_STAND + k] += env[m + P_BAG + k]
            env[m + P_STAND_BRIBE + k] = 0.0
            env[m + P_BAG_BRIBE + k] = 0.0
            env[m + P_BAG + k] = 0.0
    recount(env, merchant)
    recount(env, sheriff)
    env[m + P_COIN_BRIBE] = 0.0
    env[m + P_DECLARED] = -1.0
    env[E_TO_MOVE] = sheriff
    if count(env, E_CONFISCATED) > 0.5:
        env[E_PHASE] = CONFISCATE


@njit(cache=True, inline="always")
def after_decision(env):
    """The sheriff picks the next merchant, or the round ends."""
    env[E_TARGET] = -1.0
    if env[E_HANDLED] < NUM_PLAYERS - 1:
        env[E_PHASE] = CHOOSE
        env[E_TO_MOVE] = sheriff_of(env)
        return
    for p in range(NUM_PLAYERS):
        base = player_base(p)
        for k in range(NUM_KINDS):
            env[base + P_DISCARDS + k] = 0.0
    env[E_HANDLED] = 0.0
    env[E_ROUND] += 1.0
    if env[E_ROUND] > NUM_ROUNDS:
        score_end(env)
        return
    env[E_PHASE] = DISCARD
    env[E_TO_MOVE] = (sheriff_of(env) + 1) % NUM_PLAYERS


@njit(cache=True, inline="always")
def legal_count(env, player, good) -> float:
    """Legal good ``good`` on ``player``'s stand, royal goods counted two or three times."""
    base = player_base(player)
    total = 0.0
    for k in range(NUM_KINDS):
        if COUNTS_AS[k] == good:
            total += env[base + P_STAND + k] * COUNT_MULTIPLE[k]
    return total


@njit(cache=True)
def add_bonuses(env, out, start, step):
    """Add the king and queen bonuses of every player p to ``out[start + p * step]``. Called
    from stepEnv, not inlined there: it runs once a game, and inlined it cost compile time."""
    counts = new_values(NUM_PLAYERS)  # legal_count once a player and good: one inlined copy
    for g in range(NUM_LEGAL):
        for p in range(NUM_PLAYERS):
            counts[p] = legal_count(env, p, g)
        top, second = 0.0, 0.0
        for p in range(NUM_PLAYERS):
            top = max(top, counts[p])
        if top == 0.0:
            continue
        kings = 0
        for p in range(NUM_PLAYERS):
            if counts[p] == top:
                kings += 1
            else:
                second = max(second, counts[p])
        if kings > 1:  # a tie for king shares king + queen; no queen
            share = (KING[g] + QUEEN[g]) // kings
            for p in range(NUM_PLAYERS):
                if counts[p] == top:
                    out[start + p * step] += share
            continue
        queens = 0
        for p in range(NUM_PLAYERS):
            if counts[p] == top:
                out[start + p * step] += KING[g]
            elif second > 0.0 and counts[p] == second:
                queens += 1
        if queens > 0:
            for p in range(NUM_PLAYERS):
                if second > 0.0 and counts[p] == second:
                    out[start + p * step] += QUEEN[g] // queens


@njit(cache=True)
def bonuses(env, out):
    """King and queen bonuses of every player into ``out`` (length 4)."""
    for p in range(NUM_PLAYERS):
        out[p] = 0.0
    add_bonuses(env, out, 0, 1)


@njit(cache=True, inline="always")
def score_end(env):
    """Final scores, the winner and the end of the game."""
    for p in range(NUM_PLAYERS):
        env[player_base(p) + P_BONUS] = 0.0
    add_bonuses(env, env, E_PLAYER + P_BONUS, PLAYER_BLOCK)
    best = -1
    best_total, best_legal, best_contraband = -1e18, -1e18, -1e18
    for p in range(NUM_PLAYERS):
        base = player_base(p)
        total = env[base + P_COINS] - env[base + P_DEBT] + env[base + P_BONUS]
        legal, contraband = 0.0, 0.0
        for k in range(NUM_KINDS):
            total += env[base + P_STAND + k] * GOOD_VALUE[k]
            if k < NUM_LEGAL:
                legal += env[base + P_STAND + k]
            else:
                contraband += env[base + P_STAND + k]
        env[base + P_SCORE] = total
        # score, then legal goods, then contraband, then the higher seat (>= keeps the later one)
        if (
            total > best_total
            or (total == best_total and legal > best_legal)
            or (total == best_total and legal == best_legal and contraband >= best_contraband)
        ):
            best = p
            best_total, best_legal, best_contraband = total, legal, contraband
    env[player_base(best) + P_WINNER] = 1.0
    env[E_RESULT] = best
    env[E_TARGET] = -1.0
    env[E_PHASE] = DISCARD
    env[E_TO_MOVE] = 0.0


@njit(cache=True)
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0:
        return env
    phase = int(env[E_PHASE])
    player = int(env[E_TO_MOVE])
    base = player_base(player)
    # what the move ends, done below: each helper inlined at one call site (every inlined copy
    # costs compile time)
    market_over = False  # the merchant's market turn
    following = 0  # the merchant's turn: the next merchant plays, then this phase (pass_turn)
    decided = False  # the sheriff is done with the picked merchant
    if phase == DISCARD:
        if 0 <= action < NUM_KINDS and env[base + P_HAND + action] > 0.5:
            add_cards(env, base, P_HAND, action, -1.0)
            env[base + P_DISCARDS + action] += 1.0
            if env[base + P_HAND_COUNT] < 0.5:
                env[E_PHASE] = DRAW
        elif action == STOP_DISCARD:
            env[E_PHASE] = DRAW
    elif phase == DRAW:
        if action == DRAW_DECK:
            while env[base + P_HAND_COUNT] < HAND_LIMIT and env[E_DRAWN] < DECK_SIZE:
                add_cards(env, base, P_HAND, int(env[E_DECK + int(env[E_DRAWN])]), 1.0)
                env[E_DRAWN] += 1.0
            market_over = True
        elif (action == TAKE_LEFT or action == TAKE_RIGHT) and env[E_PILE_SIZE + action - TAKE_LEFT] > 0.5:
            pile = action - TAKE_LEFT
            size = int(env[E_PILE_SIZE + pile]) - 1
            add_cards(env, base, P_HAND, int(env[E_PILES + pile * PILE_ROOM + size]), 1.0)
            env[E_PILE_SIZE + pile] = size
            market_over = env[base + P_HAND_COUNT] >= HAND_LIMIT
    elif phase == RETURN:
        if action == RETURN_LEFT or action == RETURN_RIGHT:
            push_pile(env, action - RETURN_LEFT, base + P_DISCARDS)
            env[E_PHASE] = DISCARD
            following = LOAD
    elif phase == LOAD:
        kind = action - LOAD_CARD
        if 0 <= kind < NUM_KINDS and env[base + P_HAND + kind] > 0.5:
            add_cards(env, base, P_HAND, kind, -1.0)
            add_cards(env, base, P_BAG, kind, 1.0)
            if env[base + P_BAG_COUNT] >= BAG_LIMIT:
                following = DECLARE
        elif action == CLOSE_BAG:
            following = DECLARE
    elif phase == DECLARE:
        if DECLARE_GOOD <= action < DECLARE_GOOD + NUM_LEGAL:
            env[base + P_DECLARED] = action - DECLARE_GOOD
            following = CHOOSE
    elif phase == CHOOSE:
        if INSPECT_NEXT <= action < INSPECT_NEXT + NUM_PLAYERS - 1:
            merchant = (player + action - INSPECT_NEXT + 1) % NUM_PLAYERS
            if env[player_base(merchant) + P_DECLARED] >= 0.0:
                env[E_TARGET] = merchant
                env[E_HANDLED] += 1.0
                env[E_PHASE] = BRIBE_COINS
                env[E_TO_MOVE] = merchant
    elif phase == BRIBE_COINS:
        if action == ADD_COIN and env[base + P_COINS] - env[base + P_DEBT] > 0.5:
            env[base + P_COINS] -= 1.0
            env[base + P_COIN_BRIBE] += 1.0
        elif action == STOP_COINS:
            env[E_PHASE] = BRIBE_STAND
    elif phase == BRIBE_STAND:
        kind = action - OFFER_STAND
        if 0 <= kind < NUM_KINDS and env[base + P_STAND + kind] > 0.5:
            add_cards(env, base, P_STAND, kind, -1.0)
            env[base + P_STAND_BRIBE + kind] += 1.0
        elif action == STOP_STAND:
            env[E_PHASE] = BRIBE_BAG
    elif phase == BRIBE_BAG:
        kind = action - OFFER_BAG
        if 0 <= kind < NUM_KINDS and env[base + P_BAG + kind] > 0.5:
            add_cards(env, base, P_BAG, kind, -1.0)
            add_cards(env, base, P_BAG_BRIBE, kind, 1.0)
        elif action == STOP_BAG:
            env[E_PHASE] = DECIDE
            env[E_TO_MOVE] = sheriff_of(env)
    elif phase == DECIDE:
        if action == INSPECT or action == LET_PASS:
            decide(env, action == INSPECT)
            decided = env[E_PHASE] != CONFISCATE
    elif phase == CONFISCATE:
        if action == CONFISCATE_LEFT or action == CONFISCATE_RIGHT:
            push_pile(env, action - CONFISCATE_LEFT, E_CONFISCATED)
            decided = True
    if market_over and end_market_turn(env, player):
        following = LOAD
    if following > 0:
        pass_turn(env, player, following)
    if decided:
        after_decision(env)
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] > 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0
