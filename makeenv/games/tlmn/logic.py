"""Tien Len Mien Nam (TLMN, Vietnamese "Thirteen"): the rules, as numba functions over flat float64
arrays.

The rules are those of the vis/ENV library (github.com/ngoxuanphong/ENV, ``src/Base/TLMN``):

* 52 cards ranked Three (low) .. Ace, Two (high); within a rank Spades < Clubs < Diamonds < Hearts.
  Card ``c`` has rank ``c // 4`` (0 Three .. 11 Ace, 12 Two) and suit ``c % 4``. Each player gets
  13 cards; a deal that gives a player four Twos, twelve ranks Three..Ace, or five consecutive
  pairs (an instant win) is dealt again.
* Seat 0 leads the first trick. A leader plays any combination: a single, a pair, a triple, four
  of a kind (not Twos), a straight of 3 to 11 consecutive ranks without a Two, or 3 or 4
  consecutive pairs without a Two. An action names the combination's kind and its highest card;
  the other cards are the lowest-suited ones of their ranks in the hand.
* The others, in turn, beat the combination on the table with a higher one of the same kind and
  length (higher = a higher highest card), or pass. A player who passes is out of the trick until
  a Two or a bomb (four of a kind, 3 or 4 consecutive pairs) is played: that lets everybody back
  in. Bombs chop Twos: a single Two falls to four of a kind and to 3 or 4 consecutive pairs, a pair
  of Twos to four of a kind and to 4 consecutive pairs, 3 consecutive pairs to four of a kind and
  to 4 consecutive pairs, four of a kind to 4 consecutive pairs; a triple of Twos stands.
* When everybody else has passed, the player whose combination is on the table leads anew.
* The first player to run out of cards wins; the game ends there.

The array layouts are documented in README.md and beside the constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NUM_CARDS = 52
NUM_RANKS = 13  # 0 Three .. 11 Ace, 12 Two
TWO = 12
HAND_SIZE = 13
MAX_PLAYERS = 4
PARAMETERS = {"players": (2, 3, 4)}
DEFAULTS = {"players": 4}
SUIT_NAMES = ("Spades", "Clubs", "Diamonds", "Hearts")
RANK_NAMES = ("Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace", "Two")

# ---- combination kinds (vis/ENV's numbering) -----------------------------------------------------
K_NONE = 0  # no combination (the pass action, or a fresh trick)
K_SINGLE = 1
K_PAIR = 2
K_TRIPLE = 3
K_QUAD = 4
K_STRAIGHT = 5  # kinds 5..13: straights of 3..11 cards (length = kind - 2)
K_LAST_STRAIGHT = 13
K_PAIRS3 = 14  # three consecutive pairs
K_PAIRS4 = 15  # four consecutive pairs
NUM_KINDS = 16


def _action_table() -> tuple[np.ndarray, np.ndarray]:
    """The 403 actions as (kind, highest card), in vis/ENV's order."""
    kinds, tops = [K_NONE], [-1]

    def add(kind: int, cards: list[int]) -> None:
        kinds.extend([kind] * len(cards))
        tops.extend(cards)

    add(K_SINGLE, list(range(NUM_CARDS)))
    add(K_PAIR, [c for c in range(NUM_CARDS) if c % 4 >= 1])
    add(K_TRIPLE, [c for c in range(NUM_CARDS) if c % 4 >= 2])
    add(K_QUAD, [c for c in range(NUM_CARDS) if c % 4 == 3 and c // 4 != TWO])
    for kind in range(K_STRAIGHT, K_LAST_STRAIGHT + 1):
        length = kind - 2
        add(kind, [c for c in range(NUM_CARDS) if length - 1 <= c // 4 < TWO])
    for kind in (K_PAIRS3, K_PAIRS4):
        pairs = kind - 11
        add(kind, [c for c in range(NUM_CARDS) if pairs - 1 <= c // 4 < TWO and c % 4 >= 1])
    return np.array(kinds, dtype=np.int64), np.array(tops, dtype=np.int64)


ACTION_KIND, ACTION_TOP = _action_table()
NUM_ACTIONS = ACTION_KIND.shape[0]  # 403
PASS = 0


def _actions_by_top() -> np.ndarray:
    """Row c: the actions whose highest card is c, padded with -1."""
    rows = [[a for a in range(1, NUM_ACTIONS) if ACTION_TOP[a] == c] for c in range(NUM_CARDS)]
    table = np.full((NUM_CARDS, max(len(r) for r in rows)), -1, dtype=np.int64)
    for c, row in enumerate(rows):
        table[c, : len(row)] = row
    return table


ACTIONS_BY_TOP = _actions_by_top()

# ---- env: the referee's view (length ENV_SIZE) -----------------------------------------------------
E_WHERE = 0  # 52 values: 0..3 in that seat's hand, W_PLAYED, W_UNDEALT
W_PLAYED = 4.0
W_UNDEALT = 5.0  # with fewer than 4 players, the cards nobody was dealt
E_TABLE = 52  # 52 flags: the combination on the table (the last one played)
E_TO_MOVE = 104
E_ACTIVE = 105  # 4 flags: 1 while that seat has not passed in this trick
E_OWNER = 109  # who played the combination on the table; a fresh trick when it is E_TO_MOVE
E_KIND = 110  # kind of the combination on the table (0 none)
E_TOP = 111  # its highest card (-1 none)
E_PLAYERS = 112
E_RESULT = 113  # -1 running, else the winner
E_COUNTS = 114  # 4 counts: cards in each hand
ENV_SIZE = 118

# ---- state: one player's view (length STATE_SIZE); every value is >= 0 -----------------------------
# indices 0..164 mean what they mean in vis/ENV's TLMN state
S_HAND = 0  # 52 flags: my cards
S_PLAYED = 52  # 52 flags: every card played so far (the table's too)
S_ACTIVE = 104  # 3 flags: 1 while the next three players have not passed in this trick
S_COUNTS = 107  # 3 counts: cards of the next three players
S_OWNER = 110  # 3 flags: which of the next three players played the combination on the table
S_TABLE = 113  # 52 flags: the combination on the table (none when the player to move leads)
S_SEAT = 165  # my seat
S_PLAYERS = 166  # the number of players
S_OVER = 167  # 1 when the game is over
S_WON = 168  # 1 when I won
S_WINNER = 169  # 4 flags: the winner at the end (me, then the next three players)
S_TO_MOVE = 173  # 4 flags: who moves (me, then the next three players)
STATE_SIZE = 177

DEFAULT_PLAYERS = DEFAULTS["players"]


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    """The default player count (make(..., players=n) picks another)."""
    return DEFAULT_PLAYERS


# ---- hands ------------------------------------------------------------------------------------------


@njit(cache=True)
def _pairs_from(ranks, start, length) -> bool:
    """True when ``ranks[start .. start + length - 1]`` each hold two cards or more."""
    for r in range(start, start + length):
        if ranks[r] < 2:
            return False
    return True


@njit(cache=True)
def instant_win(env, seat) -> bool:
    """A hand vis/ENV deals again: four Twos, all twelve ranks Three..Ace, or five consecutive pairs."""
    ranks = np.zeros(NUM_RANKS, dtype=np.int64)
    for c in range(NUM_CARDS):
        if env[E_WHERE + c] == seat:
            ranks[c // 4] += 1
    if ranks[TWO] == 4:
        return True
    distinct = 0
    for r in range(TWO):
        if ranks[r] > 0:
            distinct += 1
    if distinct == TWO:
        return True
    for start in range(TWO - 4):
        if _pairs_from(ranks, start, 5):
            return True
    return False


@njit(cache=True)
def _deal(env, players):
    deck = np.arange(NUM_CARDS)
    np.random.shuffle(deck)
    for i in range(NUM_CARDS):
        env[E_WHERE + deck[i]] = i // HAND_SIZE if i < players * HAND_SIZE else W_UNDEALT


@njit(cache=True)
def initEnv(players=4):
    """A new game: 13 cards to each of ``players`` seats (dealt again while a hand wins at once);
    seat 0 leads."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = players
    while True:
        _deal(env, players)
        clean = True
        for p in range(players):
            if instant_win(env, p):
                clean = False
                break
        if clean:
            break
    for p in range(players):
        env[E_ACTIVE + p] = 1.0
        env[E_COUNTS + p] = HAND_SIZE
    env[E_TOP] = -1.0
    env[E_RESULT] = -1.0
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_TO_MOVE])


@njit(cache=True)
def _players(env) -> int:
    return int(env[E_PLAYERS])


@njit(cache=True)
def getPlayerState(env, player):
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    players = _players(env)
    to_move = int(env[E_TO_MOVE])
    owner = int(env[E_OWNER])
    trick_open = owner != to_move  # a fresh trick shows no table
    for c in range(NUM_CARDS):
        where = env[E_WHERE + c]
        if where == player:
            state[S_HAND + c] = 1.0
        elif where == W_PLAYED:
            state[S_PLAYED + c] = 1.0
            if trick_open and env[E_TABLE + c] > 0.5:
                state[S_TABLE + c] = 1.0
    for rel in range(1, players):
        seat = (player + rel) % players
        state[S_ACTIVE + rel - 1] = env[E_ACTIVE + seat]
        state[S_COUNTS + rel - 1] = env[E_COUNTS + seat]
    if trick_open and owner != player:
        state[S_OWNER + (owner - player) % players - 1] = 1.0
    state[S_SEAT] = player
    state[S_PLAYERS] = players
    winner = int(env[E_RESULT])
    if winner >= 0:
        state[S_OVER] = 1.0
        state[S_WON] = 1.0 if winner == player else 0.0
        state[S_WINNER + (winner - player) % players] = 1.0
    else:
        state[S_TO_MOVE + (to_move - player) % players] = 1.0
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, getCurrentPlayer(env))


# ---- combinations -----------------------------------------------------------------------------------


@njit(cache=True)
def table_combination(state):
    """(kind, highest card) of the combination the player to move must beat: (0, -1) when it leads,
    (-1, -1) when the table holds no combination (then it can only pass)."""
    leading = True
    for rel in range(3):
        if state[S_OWNER + rel] > 0.5:
            leading = False
    if leading:
        return K_NONE, -1
    count, top, low_rank, high_rank = 0, -1, NUM_RANKS, -1
    ranks = 0  # bit r: rank r is in the combination
    for c in range(NUM_CARDS):
        if state[S_TABLE + c] > 0.5:
            count += 1
            top = c
            r = c // 4
            ranks |= 1 << r
            low_rank = min(low_rank, r)
            high_rank = max(high_rank, r)
    if count == 0:
        return -1, -1
    if count == 1:
        return K_SINGLE, top
    if low_rank == high_rank:
        return (count, top) if count <= 4 else (-1, -1)
    if high_rank == TWO:
        return -1, -1
    span = high_rank - low_rank + 1
    distinct = 0
    for r in range(NUM_RANKS):
        if (ranks >> r) & 1:
            distinct += 1
    if distinct != span:
        return -1, -1
    if count == span and 3 <= count <= 11:
        return count + 2, top
    if count == 2 * span and 3 <= span <= 4:
        for r in range(low_rank, high_rank + 1):
            held = 0
            for s in range(4):
                held += state[S_TABLE + 4 * r + s] > 0.5
            if held != 2:
                return -1, -1
        return span + 11, top
    return -1, -1


@njit(cache=True)
def beats(kind, top, table_kind, table_top) -> bool:
    """True when a combination (kind, top) may follow (table_kind, table_top): vis/ENV's chopping
    table. ``table_kind`` 0 is a fresh trick (anything goes)."""
    if table_kind == K_NONE:
        return True
    higher = kind == table_kind and top > table_top
    if table_kind == K_QUAD:
        return higher or kind == K_PAIRS4
    if table_kind == K_PAIRS3:
        return higher or kind == K_QUAD or kind == K_PAIRS4
    if table_kind == K_PAIRS4:
        return higher
    if table_top // 4 == TWO:  # a single, pair or triple of Twos
        if table_kind == K_SINGLE:
            return higher or kind == K_QUAD or kind == K_PAIRS3 or kind == K_PAIRS4
        if table_kind == K_PAIR:
            return higher or kind == K_QUAD or kind == K_PAIRS4
        return False
    return higher


@njit(cache=True)
def _held(state, card) -> bool:
    return state[S_HAND + card] > 0.5


@njit(cache=True)
def _held_in_rank(state, rank, below_suit) -> int:
    """How many cards of ``rank`` with a suit below ``below_suit`` I hold."""
    n = 0
    for s in range(below_suit):
        n += _held(state, 4 * rank + s)
    return n


@njit(cache=True)
def can_form(state, kind, top) -> bool:
    """True when my hand holds a combination of ``kind`` whose highest card is ``top``."""
    if not _held(state, top):
        return False
    rank, suit = top // 4, top % 4
    if kind == K_SINGLE:
        return True
    if kind <= K_QUAD:
        return _held_in_rank(state, rank, suit) >= kind - 1
    if kind <= K_LAST_STRAIGHT:
        for r in range(rank - (kind - 2) + 1, rank):
            if _held_in_rank(state, r, 4) == 0:
                return False
        return True
    for r in range(rank - (kind - 11) + 1, rank):
        if _held_in_rank(state, r, 4) < 2:
            return False
    return _held_in_rank(state, rank, suit) >= 1


@njit(cache=True)
def moving(state) -> bool:
    """True when the state's player is to move in a running game."""
    return state[S_OVER] < 0.5 and state[S_TO_MOVE] > 0.5


@njit(cache=True)
def _hand_empty(state) -> bool:
    for c in range(NUM_CARDS):
        if _held(state, c):
            return False
    return True


@njit(cache=True)
def _playable(state, action, table_kind, table_top) -> bool:
    kind, top = ACTION_KIND[action], ACTION_TOP[action]
    return _held(state, top) and beats(kind, top, table_kind, table_top) and can_form(state, kind, top)


@njit(cache=True)
def getValidActions(state):
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    if not moving(state) or _hand_empty(state):
        valid[PASS] = 1.0
        return valid
    table_kind, table_top = table_combination(state)
    if table_kind < 0:
        valid[PASS] = 1.0
        return valid
    if table_kind != K_NONE:
        valid[PASS] = 1.0
    for c in range(NUM_CARDS):
        if not _held(state, c):
            continue
        for a in ACTIONS_BY_TOP[c]:
            if a < 0:
                break
            kind = ACTION_KIND[a]
            if beats(kind, c, table_kind, table_top) and can_form(state, kind, c):
                valid[a] = 1.0
    return valid


@njit(cache=True)
def isValidAction(state, action) -> bool:
    if action < 0 or action >= NUM_ACTIONS:
        return False
    if not moving(state) or _hand_empty(state):
        return action == PASS
    table_kind, table_top = table_combination(state)
    if table_kind < 0:
        return action == PASS
    if action == PASS:
        return table_kind != K_NONE
    return _playable(state, action, table_kind, table_top)


# ---- playing ----------------------------------------------------------------------------------------


@njit(cache=True)
def _take_lowest(env, seat, rank, count, below_suit):
    """Move the ``count`` lowest-suited cards of ``rank`` (suits below ``below_suit``) of ``seat``
    onto the table."""
    for s in range(below_suit):
        if count == 0:
            return
        c = 4 * rank + s
        if env[E_WHERE + c] == seat:
            env[E_WHERE + c] = W_PLAYED
            env[E_TABLE + c] = 1.0
            count -= 1


@njit(cache=True)
def _play(env, seat, action):
    """Put the cards of ``action`` from ``seat``'s hand on the table: its highest card and the
    lowest-suited companions (vis/ENV's choice)."""
    kind, top = ACTION_KIND[action], ACTION_TOP[action]
    for c in range(NUM_CARDS):
        env[E_TABLE + c] = 0.0
    rank = top // 4
    if kind <= K_QUAD:
        _take_lowest(env, seat, rank, kind - 1, top % 4)
        cards = kind
    elif kind <= K_LAST_STRAIGHT:
        length = kind - 2
        for r in range(rank - length + 1, rank):
            _take_lowest(env, seat, r, 1, 4)
        cards = length
    else:
        pairs = kind - 11
        for r in range(rank - pairs + 1, rank):
            _take_lowest(env, seat, r, 2, 4)
        _take_lowest(env, seat, rank, 1, top % 4)
        cards = 2 * pairs
    env[E_WHERE + top] = W_PLAYED
    env[E_TABLE + top] = 1.0
    env[E_COUNTS + seat] -= cards
    env[E_KIND] = kind
    env[E_TOP] = top


@njit(cache=True)
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0 or action < 0 or action >= NUM_ACTIONS:
        return env
    players = _players(env)
    seat = int(env[E_TO_MOVE])
    if action == PASS:
        env[E_ACTIVE + seat] = 0.0
    else:
        leading = int(env[E_OWNER]) == seat
        _play(env, seat, action)
        env[E_OWNER] = seat
        kind = ACTION_KIND[action]
        if leading or ACTION_TOP[action] // 4 == TWO or kind == K_QUAD or kind >= K_PAIRS3:
            for p in range(players):  # a Two or a bomb lets everybody back in (so does a lead)
                env[E_ACTIVE + p] = 1.0
        if env[E_COUNTS + seat] <= 0.0:
            env[E_RESULT] = seat
            return env
    for rel in range(1, players):
        nxt = (seat + rel) % players
        if env[E_ACTIVE + nxt] > 0.5:
            env[E_TO_MOVE] = nxt
            break
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] > 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0


# ---- determinization --------------------------------------------------------------------------------


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``, its player to move: the cards it does not show (the other
    hands, and the undealt cards with fewer than 4 players) are dealt at random."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    players = int(state[S_PLAYERS]) if 2.0 <= state[S_PLAYERS] <= MAX_PLAYERS else MAX_PLAYERS
    me = min(max(int(state[S_SEAT]), 0), players - 1) if state[S_SEAT] >= 0.0 else 0
    env[E_PLAYERS] = players
    env[E_RESULT] = -1.0
    env[E_TOP] = -1.0
    env[E_TO_MOVE] = me
    env[E_OWNER] = me
    env[E_ACTIVE + me] = 1.0
    for rel in range(1, players):
        seat = (me + rel) % players
        env[E_ACTIVE + seat] = 1.0 if state[S_ACTIVE + rel - 1] > 0.5 else 0.0
        if state[S_OWNER + rel - 1] > 0.5:
            env[E_OWNER] = seat
    unseen = np.empty(NUM_CARDS, dtype=np.int64)
    count = 0
    for c in range(NUM_CARDS):
        if state[S_HAND + c] > 0.5:
            env[E_WHERE + c] = me
            env[E_COUNTS + me] += 1.0
        elif state[S_PLAYED + c] > 0.5:
            env[E_WHERE + c] = W_PLAYED
            if state[S_TABLE + c] > 0.5:
                env[E_TABLE + c] = 1.0
        else:
            unseen[count] = c
            count += 1
    if int(env[E_OWNER]) != me:
        kind, top = table_combination(state)
        env[E_KIND] = max(kind, 0)
        env[E_TOP] = top
    np.random.shuffle(unseen[:count])
    dealt = 0
    for rel in range(1, players):
        seat = (me + rel) % players
        want = int(min(max(state[S_COUNTS + rel - 1], 0.0), HAND_SIZE))
        while env[E_COUNTS + seat] < want and dealt < count:
            env[E_WHERE + unseen[dealt]] = seat
            env[E_COUNTS + seat] += 1.0
            dealt += 1
    for i in range(dealt, count):
        env[E_WHERE + unseen[i]] = W_UNDEALT
    return env
