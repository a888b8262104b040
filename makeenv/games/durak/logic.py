"""Durak (four players, first out wins): the rules, as numba functions over flat float64 arrays.

The rules are those of the vis/ENV library (github.com/ngoxuanphong/ENV, ``src/Base/Durak``):

* 52 cards (Two to Ace in four suits), 8 to each of 4 players, the other 20 form the talon; its
  bottom card lies face up and its suit is trump.
* A bout: one defender; the player before it is the main attacker, the two after it attack too.
  The main attacker leads any card. The defender beats it with a higher card of its suit or with
  a trump (a trump only with a higher trump), or takes every card on the table. After each beaten
  card, the attackers in turn (main attacker first) may add a card whose rank is already on the
  table, or pass; three passes in a row end the bout and the table is discarded. There is no limit
  on the number of attacks. A defender who runs out of cards ends the bout too.
* After a bout, the main attacker, the defender, then the two other attackers draw up to 8 cards.
  The next defender is the player after the defender, or the one after that when it took.
* As soon as the talon is empty and a player has no cards, that player wins (the lowest seat when
  several are out at once).

The array layouts are documented in README.md and beside the constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NUM_CARDS = 52  # card c: suit c // 13 (Spades, Clubs, Diamonds, Hearts), rank c % 13 (Two..Ace)
NUM_RANKS = 13
NUM_PLAYERS = 4
HAND_SIZE = 8
TALON_SIZE = NUM_CARDS - NUM_PLAYERS * HAND_SIZE  # 20
SUIT_NAMES = ("Spades", "Clubs", "Diamonds", "Hearts")
RANK_NAMES = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace")

# ---- actions: 0..51 play that card (attack, add or beat), 52 pass (attacker) or take (defender)
PASS = 52
NUM_ACTIONS = 53

# ---- env: the referee's view (length ENV_SIZE) -------------------------------------------------
E_WHERE = 0  # 52 values: where each card is (the W_ codes below)
W_TALON = 0.0  # in the talon
#                      1..4: in the hand of seat value - 1
W_TO_BEAT = 5.0  # on the table, waiting to be beaten
W_COVERED = 6.0  # on the table, beaten or beating
W_DISCARDED = 7.0  # out of the game
E_TRUMP_CARD = 52  # the face-up bottom card of the talon
E_MODE = 53  # 0: an attacker moves, 1: the defender moves
E_DEFENDER = 54  # the defender's seat
E_ATTACKER = 55  # which attacker moves: 0 the main one (defender - 1), 1 (defender + 1), 2 (defender + 2)
E_PASSES = 56  # passes in a row since the last card played
E_RESULT = 57  # what checkEnded returns: -1 running, else the winner
E_DRAWN = 58  # cards drawn from the talon so far (0..20)
E_TO_BEAT = 59  # the card to beat, -1 when none
E_TALON = 60  # 20 cards in drawing order; the last is the trump card
E_KNOWN = 80  # 52 flags: 1 when everybody knows which hand holds the card (picked up
#                      from the table, or the face-up trump card once drawn)
E_HAND_COUNT = 132  # 4 counts: cards in each hand
E_TABLE_RANKS = 136  # 13 counts: cards of each rank on the table
ENV_SIZE = 149

# ---- state: one player's view (length STATE_SIZE); every value is >= 0 ------------------------
# indices 0..166 mean what they mean in vis/ENV's Durak state
S_HAND = 0  # 52 flags: my cards
S_COVERED = 52  # 52 flags: cards on the table, beaten or beating
S_TO_BEAT = 104  # 52 flags: the card the defender has to beat
S_ATTACKING = 156  # 1 when I am the attacker to move
S_DEFENDING = 157  # 1 when I am the defender to move
S_TRUMP_SUIT = 158  # 4 flags: the trump suit
S_TALON = 162  # cards left in the talon
S_OTHER_COUNTS = 163  # 3 counts: cards in the hands of the next three players
S_OVER = 166  # 1 when the game is over
S_WON = 167  # 1 when I won
S_WINNER = 168  # 4 flags: the winner at the end (me, then the next players)
S_TRUMP_RANK = 172  # rank of the face-up trump card (0 Two .. 12 Ace); its suit is the trump suit
S_DISCARDED = 173  # 52 flags: the discard pile
S_KNOWN = 225  # 52 values: 1, 2 or 3 when the card is known to be in the hand of the next,
#                      second or third player after me (picked up from the table, or the face-up
#                      trump card drawn); 0 otherwise
S_DEFENDER = 277  # 4 flags: who defends (me, then the next players)
S_TO_MOVE = 281  # 4 flags: who moves (me, then the next players)
S_PASSES = 285  # passes in a row since the last card played (0..2)
S_SEAT = 286  # my seat (0..3)
S_TABLE_RANKS = 287  # 13 flags: ranks on the table (what attackers may add)
STATE_SIZE = 300


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
def suit(card) -> int:
    return card // NUM_RANKS


@njit(cache=True)
def rank(card) -> int:
    return card % NUM_RANKS


@njit(cache=True)
def beats(card, target, trump) -> bool:
    """True when ``card`` beats ``target`` with ``trump`` the trump suit."""
    if suit(card) == suit(target):
        return rank(card) > rank(target)
    return suit(card) == trump


@njit(cache=True)
def initEnv():
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    deck = np.arange(NUM_CARDS)
    np.random.shuffle(deck)
    for i in range(NUM_PLAYERS * HAND_SIZE):
        env[E_WHERE + deck[i]] = 1.0 + i // HAND_SIZE
    for i in range(TALON_SIZE):
        env[E_TALON + i] = deck[NUM_PLAYERS * HAND_SIZE + i]
    env[E_TRUMP_CARD] = deck[NUM_CARDS - 1]
    env[E_DEFENDER] = 1.0  # seat 0 leads against seat 1
    env[E_RESULT] = -1.0
    env[E_TO_BEAT] = -1.0
    for p in range(NUM_PLAYERS):
        env[E_HAND_COUNT + p] = HAND_SIZE
    return env


@njit(cache=True)
def attacker_offset(k) -> int:
    """Attacker k sits this many seats after the defender: 3 (the main attacker), 1, 2."""
    return 3 if k == 0 else k


@njit(cache=True)
def attacker_seat(env) -> int:
    return (int(env[E_DEFENDER]) + attacker_offset(int(env[E_ATTACKER]))) % NUM_PLAYERS


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    if env[E_MODE] == 1.0:
        return int(env[E_DEFENDER])
    return attacker_seat(env)


@njit(cache=True)
def getPlayerState(env, player):
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    mine = player + 1.0
    for c in range(NUM_CARDS):
        where = env[E_WHERE + c]
        if where == mine:
            state[S_HAND + c] = 1.0
        elif where == W_COVERED:
            state[S_COVERED + c] = 1.0
        elif where == W_DISCARDED:
            state[S_DISCARDED + c] = 1.0
        elif where == W_TO_BEAT:
            state[S_TO_BEAT + c] = 1.0
        elif where > 0.0 and env[E_KNOWN + c] > 0.5:  # in another hand, known to all
            state[S_KNOWN + c] = (int(where) - 1 - player + NUM_PLAYERS) % NUM_PLAYERS
    over = env[E_RESULT] >= 0.0
    to_move = getCurrentPlayer(env)
    if not over and to_move == player:
        state[S_DEFENDING if env[E_MODE] == 1.0 else S_ATTACKING] = 1.0
    trump_card = int(env[E_TRUMP_CARD])
    state[S_TRUMP_SUIT + trump_card // NUM_RANKS] = 1.0
    state[S_TRUMP_RANK] = trump_card % NUM_RANKS
    state[S_TALON] = TALON_SIZE - env[E_DRAWN]
    for rel in range(1, NUM_PLAYERS):
        state[S_OTHER_COUNTS + rel - 1] = env[E_HAND_COUNT + (player + rel) % NUM_PLAYERS]
    if over:
        state[S_OVER] = 1.0
        winner = int(env[E_RESULT])
        state[S_WON] = 1.0 if winner == player else 0.0
        state[S_WINNER + (winner - player + NUM_PLAYERS) % NUM_PLAYERS] = 1.0
    state[S_DEFENDER + (int(env[E_DEFENDER]) - player + NUM_PLAYERS) % NUM_PLAYERS] = 1.0
    state[S_TO_MOVE + (to_move - player + NUM_PLAYERS) % NUM_PLAYERS] = 1.0
    state[S_PASSES] = env[E_PASSES]
    state[S_SEAT] = player
    for r in range(NUM_RANKS):
        if env[E_TABLE_RANKS + r] > 0.0:
            state[S_TABLE_RANKS + r] = 1.0
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, getCurrentPlayer(env))


@njit(cache=True)
def trump_of(state) -> int:
    for s in range(4):
        if state[S_TRUMP_SUIT + s] > 0.5:
            return s
    return 0


@njit(cache=True)
def card_to_beat(state) -> int:
    for c in range(NUM_CARDS):
        if state[S_TO_BEAT + c] > 0.5:
            return c
    return -1


@njit(cache=True)
def table_ranks_mask(state) -> int:
    """Bit r set when rank r is on the table (0 for an empty table)."""
    mask = 0
    for r in range(NUM_RANKS):
        if state[S_TABLE_RANKS + r] > 0.5:
            mask |= 1 << r
    return mask


@njit(cache=True)
def moving(state) -> bool:
    return state[S_OVER] < 0.5 and (state[S_DEFENDING] > 0.5 or state[S_ATTACKING] > 0.5)


@njit(cache=True)
def getValidActions(state):
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    valid[PASS] = 1.0
    if not moving(state):
        return valid  # the final turn, or a state of a player who does not move
    if state[S_DEFENDING] > 0.5:
        target = card_to_beat(state)
        if target >= 0:
            trump = trump_of(state)
            for c in range(target + 1, (target // NUM_RANKS + 1) * NUM_RANKS):  # higher, same suit
                valid[c] = state[S_HAND + c]
            if target // NUM_RANKS != trump:
                for c in range(trump * NUM_RANKS, (trump + 1) * NUM_RANKS):  # any trump
                    valid[c] = state[S_HAND + c]
        return valid
    mask = table_ranks_mask(state)
    if mask == 0:  # the main attacker leads any card; it passes only with an empty hand
        playable = 0.0
        for c in range(NUM_CARDS):
            valid[c] = state[S_HAND + c]
            playable += valid[c]
        if playable > 0.0:
            valid[PASS] = 0.0
        return valid
    for r in range(NUM_RANKS):
        if (mask >> r) & 1:
            for s in range(4):
                valid[s * NUM_RANKS + r] = state[S_HAND + s * NUM_RANKS + r]
    return valid


@njit(cache=True)
def isValidAction(state, action) -> bool:
    if action < 0 or action >= NUM_ACTIONS:
        return False
    if not moving(state):
        return action == PASS
    if state[S_DEFENDING] > 0.5:
        if action == PASS:
            return True
        target = card_to_beat(state)
        return state[S_HAND + action] > 0.5 and target >= 0 and beats(action, target, trump_of(state))
    mask = table_ranks_mask(state)
    if action == PASS:
        if mask != 0:
            return True
        for c in range(NUM_CARDS):
            if state[S_HAND + c] > 0.5:
                return False
        return True
    return state[S_HAND + action] > 0.5 and (mask == 0 or (mask >> (action % NUM_RANKS)) & 1 == 1)


@njit(cache=True)
def draw_cards(env):
    """Refill hands to 8 from the talon: main attacker, defender, then the other two attackers."""
    defender = int(env[E_DEFENDER])
    for k in range(NUM_PLAYERS):
        seat = (defender + 3 + k) % NUM_PLAYERS  # defender - 1, defender, defender + 1, + 2
        while env[E_HAND_COUNT + seat] < HAND_SIZE and env[E_DRAWN] < TALON_SIZE:
            card = int(env[E_TALON + int(env[E_DRAWN])])
            env[E_DRAWN] += 1.0
            env[E_WHERE + card] = seat + 1.0
            env[E_HAND_COUNT + seat] += 1.0
            if card == int(env[E_TRUMP_CARD]):
                env[E_KNOWN + card] = 1.0  # the face-up card: everybody sees who draws it


@njit(cache=True)
def end_bout(env, taken):
    """The table goes to the defender (``taken``) or to the discard pile; draw; next defender."""
    defender = int(env[E_DEFENDER])
    for c in range(NUM_CARDS):
        where = env[E_WHERE + c]
        if where == W_TO_BEAT or where == W_COVERED:
            if taken:
                env[E_WHERE + c] = defender + 1.0
                env[E_KNOWN + c] = 1.0
                env[E_HAND_COUNT + defender] += 1.0
            else:
                env[E_WHERE + c] = W_DISCARDED
    for r in range(NUM_RANKS):
        env[E_TABLE_RANKS + r] = 0.0
    env[E_TO_BEAT] = -1.0
    draw_cards(env)
    env[E_DEFENDER] = (defender + (2 if taken else 1)) % NUM_PLAYERS
    env[E_MODE] = 0.0
    env[E_ATTACKER] = 0.0
    env[E_PASSES] = 0.0


@njit(cache=True)
def play_card(env, card, seat, where):
    env[E_WHERE + card] = where
    env[E_KNOWN + card] = 0.0
    env[E_HAND_COUNT + seat] -= 1.0
    env[E_TABLE_RANKS + card % NUM_RANKS] += 1.0


@njit(cache=True)
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0 or action < 0 or action >= NUM_ACTIONS:
        return env
    defender = int(env[E_DEFENDER])
    if env[E_MODE] == 0.0:  # an attacker moves
        if action == PASS:
            env[E_PASSES] += 1.0
            env[E_ATTACKER] = (env[E_ATTACKER] + 1.0) % 3.0
            if env[E_PASSES] >= 3.0:
                end_bout(env, False)
        else:
            play_card(env, action, attacker_seat(env), W_TO_BEAT)
            env[E_TO_BEAT] = action
            env[E_MODE] = 1.0
            env[E_PASSES] = 0.0
            env[E_ATTACKER] = 0.0
    elif action == PASS:  # the defender takes
        end_bout(env, True)
    else:  # the defender beats the card
        env[E_WHERE + int(env[E_TO_BEAT])] = W_COVERED
        env[E_TO_BEAT] = -1.0
        play_card(env, action, defender, W_COVERED)
        env[E_MODE] = 0.0
        if env[E_HAND_COUNT + defender] == 0.0:
            end_bout(env, False)
    if env[E_DRAWN] >= TALON_SIZE:
        for p in range(NUM_PLAYERS):
            if env[E_HAND_COUNT + p] == 0.0:
                env[E_RESULT] = p
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


# ---- determinization ---------------------------------------------------------------------------


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``, its player to move. The cards it does not show (the other
    hands apart from cards known to be there, and the talon above its face-up bottom card) are
    dealt at random."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    me = min(max(int(state[S_SEAT]), 0), NUM_PLAYERS - 1)
    trump_card = trump_of(state) * NUM_RANKS + min(max(int(state[S_TRUMP_RANK]), 0), NUM_RANKS - 1)
    env[E_TRUMP_CARD] = trump_card
    talon = min(max(int(state[S_TALON]), 0), TALON_SIZE)
    env[E_DRAWN] = TALON_SIZE - talon
    env[E_RESULT] = -1.0
    env[E_TO_BEAT] = -1.0
    defender = 0
    to_move = 0
    for rel in range(NUM_PLAYERS):
        if state[S_DEFENDER + rel] > 0.5:
            defender = (me + rel) % NUM_PLAYERS
        if state[S_TO_MOVE + rel] > 0.5:
            to_move = (me + rel) % NUM_PLAYERS
    env[E_DEFENDER] = defender
    env[E_PASSES] = min(max(state[S_PASSES], 0.0), 2.0)
    if to_move == defender:
        env[E_MODE] = 1.0
    else:
        for k in range(3):
            if (defender + attacker_offset(k)) % NUM_PLAYERS == to_move:
                env[E_ATTACKER] = k
    # visible cards go where the state shows them; the rest is unseen
    unseen = np.empty(NUM_CARDS, dtype=np.int64)
    count = 0
    for c in range(NUM_CARDS):
        if state[S_HAND + c] > 0.5:
            env[E_WHERE + c] = me + 1.0
            env[E_HAND_COUNT + me] += 1.0
        elif state[S_COVERED + c] > 0.5:
            env[E_WHERE + c] = W_COVERED
            env[E_TABLE_RANKS + c % NUM_RANKS] += 1.0
        elif state[S_TO_BEAT + c] > 0.5:
            env[E_WHERE + c] = W_TO_BEAT
            env[E_TO_BEAT] = c
            env[E_TABLE_RANKS + c % NUM_RANKS] += 1.0
        elif state[S_DISCARDED + c] > 0.5:
            env[E_WHERE + c] = W_DISCARDED
        else:
            rel = int(state[S_KNOWN + c])
            if 1 <= rel < NUM_PLAYERS:
                holder = (me + rel) % NUM_PLAYERS
                env[E_WHERE + c] = holder + 1.0
                env[E_KNOWN + c] = 1.0
                env[E_HAND_COUNT + holder] += 1.0
            elif not (c == trump_card and talon > 0):
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
    # the talon: drawn positions are never read again; then the unseen rest, the trump card last
    start = TALON_SIZE - talon
    for i in range(talon - 1):
        if dealt < count:
            env[E_TALON + start + i] = unseen[dealt]
            dealt += 1
    env[E_TALON + TALON_SIZE - 1] = trump_card
    return env
