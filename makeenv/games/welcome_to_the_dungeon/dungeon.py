"""What both versions of Welcome to the Dungeon share: the monster deck, the bidding round (pass,
or look at the next monster and add it to the dungeon or discard it with one of the hero's items),
the turn order, wins, losses and eliminations, and the part of the state that says so.

``logic.py`` (the Warrior and the Rogue, the dungeon resolved as a sum) and
``welcome_to_the_dungeon2/logic.py`` (the Barbarian and the Mage, monster by monster) build their
envs on the layout below and add their own fields after ``COMMON_SIZE``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NUM_PLAYERS = 4
NUM_CARDS = 13
CARD_STRENGTH = np.array([1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 9], dtype=np.float64)  # card id -> strength
SPECIES = np.array([1, 2, 3, 4, 5, 6, 7, 9], dtype=np.float64)  # the 8 kinds of monster, by strength
CARD_SPECIES = np.array([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 7], dtype=np.int64)  # card id -> species index
NUM_SPECIES = 8
MONSTER_NAMES = {1: "Goblin", 2: "Skeleton", 3: "Orc", 4: "Vampire", 5: "Golem", 6: "Lich", 7: "Demon", 9: "Dragon"}
NUM_ITEMS = 6
WINS_NEEDED = 2  # two dungeons survived win the game
LOSSES_OUT = 2  # two deaths eliminate a player

# ---- phases ------------------------------------------------------------------------------------
PH_BID = 0  # the player to move passes or looks at the next monster
PH_LOOKED = 1  # it adds the monster it looked at to the dungeon or discards it with an item
PH_CHOOSE = 2  # v1: the runner names a species for the vorpal weapon
PH_HERO = 3  # the hero for the round is chosen
PH_DUNGEON = 4  # v2: the runner fights the dungeon's monsters one by one
PH_OVER = 5

# ---- env: the referee's view -------------------------------------------------------------------
E_WINS = 0  # 4 values: dungeons each seat survived
E_LOSSES = 4  # 4 values: dungeons each seat died in
E_PASSED = 8  # 4 flags: the seat has passed this round (or is eliminated)
E_TO_MOVE = 12
E_RESULT = 13  # -1 running, else the winner
E_DECK = 14  # 13 card ids in draw order; the next card is E_DECK + E_DRAWN
E_DRAWN = 27  # cards drawn from the deck this round
E_PEEK = 28  # the card the player to move looked at, -1 none
E_DRAWER = 29  # 13 values: the seat that drew card c this round, -1 nobody
E_POS = 42  # 13 values: card c's place in the dungeon (1 = added first), 0 never added
E_GONE = 55  # 13 values: 0, 1 discarded with an item, 2 removed inside the dungeon (vorpal, fought)
E_DUNGEON_COUNT = 68  # monsters added to the dungeon this round
E_HERO = 69  # the version's hero 0 or 1; -1 not chosen yet
E_ITEMS = 70  # 6 flags: the hero's items still in play
E_RUNNER = 76  # the seat that goes into the dungeon, -1 while bidding
E_PHASE = 77
E_ROUNDS = 78  # rounds finished
E_LAST_RUNNER = 79  # the previous round's runner, -1 before the first round ends
E_LAST_WON = 80  # 1 when it survived
E_LAST_SPECIES = 81  # 8 counts: the monsters of the previous round's dungeon, by species
COMMON_SIZE = 89

# ---- the part of every state that both versions append (offsets from its start) -------------
# A seat is stored as its place counted from me plus one (1 me, 2..4 the next players), 0 for
# nobody: one value instead of four one-hot flags keeps WelcomeToTheDungeon2's state under the
# size whose allocation misses the allocator's fast cache (see its README).
C_SEAT = 0  # my seat
C_TO_MOVE = 1  # who moves (1 me); 0 at the end
C_OVER = 2  # 1 when the game is over
C_WON = 3  # 1 when I won it
C_WINNER = 4  # the winner (1 me), 0 while the game runs
C_RUNNER = 5  # who goes into the dungeon this round (1 me), 0 while bidding
C_LAST_RUNNER = 6  # the previous round's runner (1 me), 0 before the first round ends
C_LAST_WON = 7  # 1 when it survived
C_LAST_SPECIES = 8  # 8 counts: the previous round's dungeon, by species
C_ROUNDS = 16  # rounds finished
COMMON_STATE_SIZE = 17


@njit(cache=True)
def species_index(strength) -> int:
    """0..7 for a monster of that strength (1 2 3 4 5 6 7 9), -1 for anything else."""
    for i in range(NUM_SPECIES):
        if SPECIES[i] == strength:
            return i
    return -1


@njit(cache=True, inline="always")
def seat_after(seat, k) -> int:
    """The seat ``k`` places after ``seat`` (0 <= k < NUM_PLAYERS), without a modulo."""
    s = seat + k
    return s - NUM_PLAYERS if s >= NUM_PLAYERS else s


@njit(cache=True, inline="always")
def relative(seat, player) -> int:
    """``seat``'s place counted from ``player`` (0 = ``player``, then the next players)."""
    r = seat - player
    return r + NUM_PLAYERS if r < 0 else r


@njit(cache=True)
def new_env(size):
    """An env of ``size`` values: nobody has played, seat 0 to move; the caller starts the round."""
    env = np.zeros(size, dtype=np.float64)
    env[E_RESULT] = -1.0
    env[E_LAST_RUNNER] = -1.0
    env[E_RUNNER] = -1.0
    return env


@njit(cache=True, inline="always")
def eliminated(env, seat) -> bool:
    return env[E_LOSSES + seat] >= LOSSES_OUT


@njit(cache=True, inline="always")
def first_in_play(env, seat) -> int:
    """``seat`` or, if it has passed, the next seat after it that has not."""
    for k in range(NUM_PLAYERS):
        s = seat_after(seat, k)
        if env[E_PASSED + s] < 0.5:
            return s
    return seat


@njit(cache=True, inline="always")
def place_cards(env, first, last, r):
    """Cards ``first``..``last`` of an inside-out Fisher-Yates shuffle: card i swaps with place
    ``j`` uniform in 0..i, the j's read as the digits of ``r`` (uniform below (first + 1) * ... *
    (last + 1)) in mixed radix."""
    for i in range(first, last + 1):
        j = r % (i + 1)
        r //= i + 1
        env[E_DECK + i] = env[E_DECK + j]
        env[E_DECK + j] = i


@njit(cache=True, inline="always")
def shuffle_deck(env):
    """The 13 card ids in a uniformly random order: two random numbers instead of twelve (a third
    of np.random.shuffle's time on the env's slice)."""
    env[E_DECK] = 0.0
    place_cards(env, 1, 8, np.random.randint(362_880))  # 2 * 3 * ... * 9
    place_cards(env, 9, NUM_CARDS - 1, np.random.randint(17_160))  # 10 * 11 * 12 * 13


@njit(cache=True)
def new_round(env, starter):
    """Shuffle the 13 monsters, give the hero all its items, empty the dungeon; eliminated seats
    have passed already; ``starter`` (or the next seat still in the game) moves first."""
    shuffle_deck(env)
    for i in range(NUM_CARDS):
        env[E_DRAWER + i] = -1.0
        env[E_POS + i] = 0.0
        env[E_GONE + i] = 0.0
    env[E_DRAWN] = 0.0
    env[E_PEEK] = -1.0
    env[E_DUNGEON_COUNT] = 0.0
    env[E_RUNNER] = -1.0
    for i in range(NUM_ITEMS):
        env[E_ITEMS + i] = 1.0
    for p in range(NUM_PLAYERS):
        env[E_PASSED + p] = 1.0 if eliminated(env, p) else 0.0
    env[E_TO_MOVE] = first_in_play(env, starter)


@njit(cache=True, inline="always")
def next_bidder(env):
    """The turn goes to the next seat that has not passed."""
    env[E_TO_MOVE] = first_in_play(env, seat_after(int(env[E_TO_MOVE]), 1))


@njit(cache=True, inline="always")
def look(env):
    """The player to move draws the next monster and looks at it."""
    card = int(env[E_DECK + int(env[E_DRAWN])])
    env[E_DRAWN] += 1.0
    env[E_PEEK] = card
    env[E_DRAWER + card] = env[E_TO_MOVE]
    env[E_PHASE] = PH_LOOKED


@njit(cache=True, inline="always")
def add_looked(env):
    """The monster looked at goes on top of the dungeon; the next player bids."""
    card = int(env[E_PEEK])
    env[E_DUNGEON_COUNT] += 1.0
    env[E_POS + card] = env[E_DUNGEON_COUNT]
    env[E_PEEK] = -1.0
    env[E_PHASE] = PH_BID
    next_bidder(env)


@njit(cache=True, inline="always")
def discard_looked(env, item):
    """The monster looked at is set aside together with the hero's ``item``; the next player bids."""
    env[E_GONE + int(env[E_PEEK])] = 1.0
    env[E_ITEMS + item] = 0.0
    env[E_PEEK] = -1.0
    env[E_PHASE] = PH_BID
    next_bidder(env)


@njit(cache=True, inline="always")
def pass_bid(env) -> bool:
    """The player to move passes. True when that leaves one player: the runner, now to move."""
    env[E_PASSED + int(env[E_TO_MOVE])] = 1.0
    left = 0
    for p in range(NUM_PLAYERS):
        if env[E_PASSED + p] < 0.5:
            left += 1
    if left == 1:
        runner = first_in_play(env, int(env[E_TO_MOVE]))
        env[E_RUNNER] = runner
        env[E_TO_MOVE] = runner
        return True
    next_bidder(env)
    return False


@njit(cache=True, inline="always")
def dungeon_top(env) -> int:
    """The monster on top of the dungeon (added last and still there), -1 when it is empty."""
    best, card = 0.0, -1
    for c in range(NUM_CARDS):
        if env[E_GONE + c] < 0.5 and env[E_POS + c] > best:
            best, card = env[E_POS + c], c
    return card


@njit(cache=True)
def end_round(env, survived) -> bool:
    """The runner survived the dungeon (a win) or died in it (a loss). True when that ends the
    game: a second win, or a third player eliminated (the last one left wins)."""
    runner = int(env[E_RUNNER])
    if survived:
        env[E_WINS + runner] += 1.0
    else:
        env[E_LOSSES + runner] += 1.0
    env[E_LAST_RUNNER] = runner
    env[E_LAST_WON] = 1.0 if survived else 0.0
    for i in range(NUM_SPECIES):
        env[E_LAST_SPECIES + i] = 0.0
    for c in range(NUM_CARDS):
        if env[E_POS + c] > 0.0:
            env[E_LAST_SPECIES + CARD_SPECIES[c]] += 1.0
    env[E_ROUNDS] += 1.0
    if env[E_WINS + runner] >= WINS_NEEDED:
        env[E_RESULT] = runner
    else:
        out, last = 0, -1
        for p in range(NUM_PLAYERS):
            if eliminated(env, p):
                out += 1
            else:
                last = p
        if out == NUM_PLAYERS - 1:
            env[E_RESULT] = last
    env[E_RUNNER] = -1.0
    if env[E_RESULT] >= 0.0:
        env[E_PHASE] = PH_OVER
        return True
    return False


@njit(cache=True, inline="always")
def first_standing(env, seat) -> int:
    """``seat`` or, if it is eliminated, the next seat after it that is not."""
    for k in range(NUM_PLAYERS):
        s = seat_after(seat, k)
        if not eliminated(env, s):
            return s
    return seat


@njit(cache=True, inline="always")
def getCurrentPlayer(env) -> int:
    return int(env[E_TO_MOVE])


@njit(cache=True, inline="always")
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getWinners(env):
    winners = np.zeros(NUM_PLAYERS, dtype=np.float64)
    if env[E_RESULT] >= 0.0:
        winners[int(env[E_RESULT])] = 1.0
    return winners


# ---- states ------------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def put_scores(env, player, state, wins_losses, passed):
    """Wins and losses as (win, loss) pairs at ``wins_losses`` and the passed flags at ``passed``,
    me first, then the next players."""
    for rel in range(NUM_PLAYERS):
        seat = seat_after(player, rel)
        state[wins_losses + 2 * rel] = env[E_WINS + seat]
        state[wins_losses + 2 * rel + 1] = env[E_LOSSES + seat]
        state[passed + rel] = env[E_PASSED + seat]


@njit(cache=True, inline="always")
def seat_code(seat, player) -> float:
    """A seat as the common block stores it: its place counted from ``player`` plus one, 0 for
    none (``seat`` < 0)."""
    return float(relative(seat, player) + 1) if seat >= 0 else 0.0


@njit(cache=True, inline="always")
def code_seat(code, me) -> int:
    """The seat a common-block value names (see ``seat_code``), -1 for none."""
    rel = int(code) - 1
    return seat_after(me, rel) if 0 <= rel < NUM_PLAYERS else -1


@njit(cache=True, inline="always")
def put_common(env, player, state, at):
    """The block both versions append at ``at`` (the C_* offsets) of a zeroed ``state``."""
    state[at + C_SEAT] = player
    winner = int(env[E_RESULT])
    over = winner >= 0
    state[at + C_OVER] = 1.0 if over else 0.0
    state[at + C_WON] = 1.0 if winner == player else 0.0
    state[at + C_WINNER] = seat_code(winner, player)
    state[at + C_TO_MOVE] = 0.0 if over else seat_code(int(env[E_TO_MOVE]), player)
    state[at + C_RUNNER] = seat_code(int(env[E_RUNNER]), player)
    state[at + C_LAST_RUNNER] = seat_code(int(env[E_LAST_RUNNER]), player)
    state[at + C_LAST_WON] = env[E_LAST_WON]
    for i in range(NUM_SPECIES):
        state[at + C_LAST_SPECIES + i] = env[E_LAST_SPECIES + i]
    state[at + C_ROUNDS] = env[E_ROUNDS]


@njit(cache=True, inline="always")
def moving(state, at) -> bool:
    """True when the state's player is to move in a running game (common block at ``at``)."""
    return state[at + C_TO_MOVE] == 1.0


@njit(cache=True, inline="always")
def reward_at(state, at) -> int:
    """getReward for a state whose common block starts at ``at``."""
    if state[at + C_OVER] < 0.5:
        return -1
    return 1 if state[at + C_WON] > 0.5 else 0


@njit(cache=True, inline="always")
def flag_bits(state, at, count, shift) -> int:
    """Bits ``shift`` .. ``shift + count - 1`` set where the flags ``state[at:at + count]`` are on."""
    bits = 0
    for i in range(count):
        bits |= int(state[at + i] > 0.5) << (shift + i)
    return bits


@njit(cache=True, inline="always")
def mask_has(mask, action, size) -> bool:
    """isValidAction from a version's valid-action bit mask (bit a set when action a is valid)."""
    return 0 <= action < size and (mask >> action) & 1 == 1


@njit(cache=True, inline="always")
def mask_to_valid(mask, size):
    """getValidActions from a version's valid-action bit mask."""
    valid = np.empty(size, dtype=np.float64)
    for a in range(size):
        valid[a] = (mask >> a) & 1
    return valid


# ---- determinization ---------------------------------------------------------------------------


@njit(cache=True)
def restore_common(env, state, at, wins_losses, passed) -> int:
    """Fill the env's scores, turn, runner, result and last round from a state; returns my seat."""
    me = min(max(int(state[at + C_SEAT]), 0), NUM_PLAYERS - 1)
    for rel in range(NUM_PLAYERS):
        seat = seat_after(me, rel)
        env[E_WINS + seat] = max(state[wins_losses + 2 * rel], 0.0)
        env[E_LOSSES + seat] = max(state[wins_losses + 2 * rel + 1], 0.0)
        env[E_PASSED + seat] = 1.0 if state[passed + rel] > 0.5 else 0.0
    mover = code_seat(state[at + C_TO_MOVE], me)
    env[E_TO_MOVE] = mover if mover >= 0 else me
    env[E_RESULT] = code_seat(state[at + C_WINNER], me)
    env[E_RUNNER] = code_seat(state[at + C_RUNNER], me)
    env[E_LAST_RUNNER] = code_seat(state[at + C_LAST_RUNNER], me)
    env[E_LAST_WON] = state[at + C_LAST_WON]
    for i in range(NUM_SPECIES):
        env[E_LAST_SPECIES + i] = max(state[at + C_LAST_SPECIES + i], 0.0)
    env[E_ROUNDS] = max(state[at + C_ROUNDS], 0.0)
    return me


@njit(cache=True)
def claim(env, strength, seat) -> int:
    """Mark a card of that strength nobody has drawn yet as drawn by ``seat``; its id (-1 if none)."""
    for c in range(NUM_CARDS):
        if CARD_STRENGTH[c] == strength and env[E_DRAWER + c] < 0.0 and env[E_GONE + c] < 0.5:
            env[E_DRAWER + c] = seat
            return c
    return -1


@njit(cache=True)
def deal_unseen(env, me, others_discarded, peek_seat):
    """Complete a sampled env whose known cards (drawer set, or removed in the dungeon) are in
    place: the free dungeon places, ``others_discarded`` discards and, when ``peek_seat`` >= 0, the
    card that other seat is looking at go to unseen cards drawn by the other players; the rest of
    the unseen cards make the deck in random order after the cards drawn so far."""
    unseen = np.empty(NUM_CARDS, dtype=np.int64)
    count = 0
    taken = np.zeros(NUM_CARDS + 1, dtype=np.bool_)
    for c in range(NUM_CARDS):
        if env[E_DRAWER + c] < 0.0 and env[E_GONE + c] < 0.5:
            unseen[count] = c
            count += 1
        elif env[E_POS + c] > 0.0:
            taken[min(int(env[E_POS + c]), NUM_CARDS)] = True
    np.random.shuffle(unseen[:count])
    used = 0
    for place in range(1, int(env[E_DUNGEON_COUNT]) + 1):
        if not taken[min(place, NUM_CARDS)] and used < count:
            c = unseen[used]
            used += 1
            env[E_POS + c] = place
            env[E_DRAWER + c] = (me + 1 + np.random.randint(NUM_PLAYERS - 1)) % NUM_PLAYERS
    for _ in range(others_discarded):
        if used < count:
            c = unseen[used]
            used += 1
            env[E_GONE + c] = 1.0
            env[E_DRAWER + c] = (me + 1 + np.random.randint(NUM_PLAYERS - 1)) % NUM_PLAYERS
    if peek_seat >= 0 and used < count:
        c = unseen[used]
        used += 1
        env[E_PEEK] = c
        env[E_DRAWER + c] = peek_seat
    i = 0
    for c in range(NUM_CARDS):  # drawn cards first (their order no longer matters) ...
        if env[E_DRAWER + c] >= 0.0 or env[E_GONE + c] > 0.5:
            env[E_DECK + i] = c
            i += 1
    env[E_DRAWN] = i
    for k in range(used, count):  # ... then the deck, shuffled
        env[E_DECK + i] = unseen[k]
        i += 1
