"""ImplodingKittens: Exploding Kittens with the Imploding Kittens expansion, as numba functions
over flat float64 arrays.

Two to six players. Each starts with seven cards and a Defuse; the draw pile hides players - 2
Exploding Kittens and one Imploding Kitten. The base game's rules are ExplodingKittens'
(``makeenv.games.exploding_kittens``: its pile helpers are imported, not copied); the expansion
adds:

* the Imploding Kitten: drawn face down, it goes back into the pile face up at a random place
  (everybody sees where); drawn face up, it eliminates the player, Defuse or not;
* Reverse: the order of play turns round, and it ends one owed turn like a Skip;
* Draw from the Bottom: draw the bottom card instead of the top one;
* Feral Cat: stands for any cat in two-alike and three-alike combos, and for any kind in five
  different;
* Alter the Future: look at the top three cards and put them back in one of the six orders;
* Targeted Attack: end the turn, and a player of your choice takes two turns.

Rules, action list and turn phases follow the vis/ENV library's ``Imploding_Kitten`` (six
players); README.md states the differences and documents the array layouts (also beside the
constants below).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from makeenv.array.numba_helpers import fill_values, sum_values

from ..exploding_kittens.logic import (
    ATTACK,
    FAVOR,
    FUTURE,
    MELON,
    NOPE,
    SHUFFLE,
    SKIP,
    TACOCAT,
    bury_top,
    peek_top,
    pile_defuses,
    random_card,
    shuffle_cards,
)
from ..exploding_kittens.logic import CARD_NAMES as BASE_NAMES

PARAMETERS = {"players": (2, 3, 4, 5, 6)}
DEFAULTS = {"players": 6}
MAX_PLAYERS = 6
HAND_START = 7  # cards dealt to each player, besides one Defuse

# ---- cards: 19 kinds (the base game's first eleven, then the expansion's) ----------------------
REVERSE, BOTTOM, FERAL, ALTER, TARGETED = 11, 12, 13, 14, 15
DEFUSE, EXPLODING, IMPLODING = 16, 17, 18
CARD_NAMES = BASE_NAMES[:11] + (
    "Reverse",
    "Draw from the Bottom",
    "Feral Cat",
    "Alter the Future",
    "Targeted Attack",
    "Defuse",
    "Exploding Kitten",
    "Imploding Kitten",
)
KINDS = 19
HAND_KINDS = 17  # a hand never holds a kitten
COMBO_KINDS = 16  # Defuse cannot be part of a combo
CARD_COUNT = np.array([5, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 4, 4, 4, 4, 3, 6, 4, 1], dtype=np.int64)
REGULAR_CARDS = 65  # every card but Defuses and kittens

# ---- actions (the library's list) ---------------------------------------------------------------
A_NOPE = 0  # play a Nope (nope phase)
# 1..5: play Attack, Skip, Favor, Shuffle, See the Future (main phase; action = kind)
A_DRAW = 6  # draw and end the turn (also: no player to pick, in the choose-player phase)
A_PAIR = 7  # two alike: steal a random card
A_TRIPLE = 8  # three alike: name a card
A_FIVE = 9  # five different: take from the discard pile
A_PASS = 10  # let the action happen (nope phase); also the final turn
A_REVERSE = 11  # play Reverse
A_BOTTOM = 12  # play Draw from the Bottom
A_ALTER = 13  # play Alter the Future
A_TARGETED = 14  # play Targeted Attack
A_TARGET = 15  # 15..19: pick the player 1..5 seats after me
A_GIVE = 20  # 20..36: give a card of this kind (Favor)
A_NAME = 37  # 37..53: name a kind (three alike)
A_TAKE = 54  # 54..70: take a kind from the discard pile (five different)
A_ORDER = 71  # 71..76: put the top three back in order ORDERS[action - 71]
A_DISCARD = 77  # 77..92: discard a card of this kind for the combo
NUM_ACTIONS = 93
PENDING_KINDS = 15  # actions 0..14 can be "the action being played"
# the card each played action discards (-1: a combo, whose cards are discarded one by one)
PLAYED_KIND = np.array(
    [NOPE, ATTACK, SKIP, FAVOR, SHUFFLE, FUTURE, -1, -1, -1, -1, -1, REVERSE, BOTTOM, ALTER, TARGETED]
)
# Alter the Future: ORDERS[i][j] is which of the seen cards (0 = the top) goes to place j
ORDERS = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]], dtype=np.int64)

# ---- phases -------------------------------------------------------------------------------------
MAIN, NOPING, CHOOSE_PLAYER, CHOOSE_CARD, ALTERING, DISCARDING = 0, 1, 2, 3, 4, 5
PHASE_NAMES = ("main", "nope", "choose player", "choose card", "alter the future", "discard")
PHASES = 6

# ---- env: the referee's view --------------------------------------------------------------------
E_PLAYERS = 0  # number of players
E_PHASE = 1  # MAIN .. DISCARDING
E_MAIN = 2  # the player whose turn it is
E_NOPER = 3  # the player deciding whether to Nope (nope phase)
E_TARGET = 4  # the player picked by Favor, a combo or Targeted Attack, -1 none
E_PENDING = 5  # the main player's action being played (1..14), -1 none
E_NOPES = 6  # Nopes played on it so far (odd: it is cancelled)
E_DRAWS = 7  # cards the main player still has to draw (turns owed)
E_TO_DISCARD = 8  # cards still to discard for the combo
E_REVERSED = 9  # 1 while play goes round backwards (after an odd number of Reverses)
E_FACE_UP = 10  # 1 once the Imploding Kitten went back into the pile face up
E_COMBO = 11  # 11..26: cards discarded so far for the combo, per kind
E_FUTURE = 27  # 27..29: kinds of the top three cards the main player saw, top first, -1 none
E_ALIVE = 30  # 30..35: 1 while the player is in the game
E_WINNER = 36  # -1 running, else the last player left
E_HANDS = 37  # 37..138: 6 players x 17 kinds, card counts
E_DISCARD = 139  # 139..157: discard pile, count per kind
E_OUT = 158  # 158..174: cards out of the game (eliminated players' hands), per kind
E_PILE_SIZE = 175  # cards in the draw pile
E_PILE = 176  # 176..229: the draw pile's kinds, bottom first (top at E_PILE + size - 1)
MAX_PILE = 54
ENV_SIZE = 230

# ---- state: one player's view; seats are relative (0 = me, 1 = the next seat, ...) --------------
S_HAND = 0  # 0..16: my cards per kind
S_DISCARD = 17  # 17..35: discard pile per kind
S_OUT = 36  # 36..52: cards out of the game per kind
S_PILE = 53  # cards in the draw pile
S_FUTURE = 54  # 54..110: the top three cards I saw (See / Alter the Future), 3 x 19 one-hot
S_PHASE = 111  # 111..116: phase one-hot
S_ACTION = 117  # 117..131: the main player's action being played, one-hot (0..14)
S_NOPED = 132  # 1 while that action stands cancelled (odd number of Nopes)
S_DRAWS = 133  # cards the main player still has to draw
S_TO_DISCARD = 134  # cards still to discard for the combo
S_COMBO = 135  # 135..150: cards discarded so far for it, per kind
S_ALIVE = 151  # 151..156: 1 for each relative seat still in the game
S_CARDS = 157  # 157..162: cards held by each relative seat
S_MAIN = 163  # 163..168: relative seat whose turn it is, one-hot
S_TO_MOVE = 169  # 169..174: relative seat to move, one-hot (all 0 once over)
S_TARGET = 175  # 175..180: relative seat picked, one-hot
S_REVERSED = 181  # 1 while play goes round backwards
S_FACE_UP = 182  # 1 while the Imploding Kitten lies face up in the pile (public)
S_ABOVE = 183  # cards above the face-up Imploding Kitten (0 when it is on top or face down)
S_PLAYERS = 184  # number of players
S_OVER = 185  # 1 when the game is over
S_WON = 186  # 1 when I am the last player left
S_SEAT = 187  # my seat (0 plays first)
STATE_SIZE = 188

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


@njit(cache=True)
def in_game(players, kind):
    """How many cards of ``kind`` a game of ``players`` uses."""
    if kind == DEFUSE:
        return players + pile_defuses(players)
    if kind == EXPLODING:
        return players - 2
    return CARD_COUNT[kind]


@njit(cache=True)
def shuffle_values(values, start, n):
    """``np.random.shuffle(values[start:start+n])``, the same draws (numba's Fisher-Yates), as a
    loop: np.random.shuffle compiles a whole implementation per array type."""
    i = n - 1
    while i > 0:
        j = start + np.random.randint(0, i + 1)
        values[start + i], values[j] = values[j], values[start + i]
        i -= 1


@njit(cache=True)
def initEnv(players=6):
    """Deal seven regular cards and a Defuse to each player; the rest, the spare Defuses,
    players - 2 Exploding Kittens and the Imploding Kitten make the shuffled draw pile."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = players
    regular = np.empty(REGULAR_CARDS, dtype=np.float64)
    n = 0
    for kind in range(COMBO_KINDS):
        for _ in range(CARD_COUNT[kind]):
            regular[n] = kind
            n += 1
    shuffle_values(regular, 0, REGULAR_CARDS)
    for p in range(players):
        for i in range(HAND_START):
            env[E_HANDS + HAND_KINDS * p + int(regular[HAND_START * p + i])] += 1.0
        env[E_HANDS + HAND_KINDS * p + DEFUSE] = 1.0
        env[E_ALIVE + p] = 1.0
    size = 0
    for i in range(HAND_START * players, REGULAR_CARDS):
        env[E_PILE + size] = regular[i]
        size += 1
    for kind in (DEFUSE, EXPLODING, IMPLODING):
        count = pile_defuses(players) if kind == DEFUSE else in_game(players, kind)
        for _ in range(count):
            env[E_PILE + size] = kind
            size += 1
    shuffle_values(env, E_PILE, size)
    env[E_PILE_SIZE] = size
    env[E_TARGET] = -1.0
    env[E_PENDING] = -1.0
    env[E_DRAWS] = 1.0
    fill_values(env, E_FUTURE, 3, -1.0)  # not a slice: a slice costs numba compile time
    env[E_WINNER] = -1.0
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    phase = env[E_PHASE]
    if phase == NOPING:
        return int(env[E_NOPER])
    if phase == CHOOSE_CARD and env[E_PENDING] == FAVOR:
        return int(env[E_TARGET])
    return int(env[E_MAIN])


@njit(cache=True)
def _hand(env, p):
    return env[E_HANDS + HAND_KINDS * p : E_HANDS + HAND_KINDS * (p + 1)]


@njit(cache=True)
def _pile(env):
    return env[E_PILE : E_PILE + int(env[E_PILE_SIZE])]


@njit(cache=True)
def implodingDepth(env):
    """Cards above the Imploding Kitten in the pile, -1 when it is not there."""
    size = int(env[E_PILE_SIZE])
    for i in range(size - 1, -1, -1):
        if env[E_PILE + i] == IMPLODING:
            return size - 1 - i
    return -1


@njit(cache=True)
def getPlayerState(env, player):
    return write_player_state(env, player, np.empty(STATE_SIZE, dtype=np.float64))


@njit(cache=True)
def write_player_state(env, player, state):
    """``getPlayerState(env, player)`` written into ``state`` (the play-outs reuse one array)."""
    state[:] = 0.0
    players = int(env[E_PLAYERS])
    for k in range(HAND_KINDS):
        state[S_HAND + k] = env[E_HANDS + HAND_KINDS * player + k]
        state[S_OUT + k] = env[E_OUT + k]
    for k in range(KINDS):
        state[S_DISCARD + k] = env[E_DISCARD + k]
    state[S_PILE] = env[E_PILE_SIZE]
    main = int(env[E_MAIN])
    if main == player:
        for i in range(3):
            kind = int(env[E_FUTURE + i])
            if kind >= 0:
                state[S_FUTURE + KINDS * i + kind] = 1.0
    state[S_PHASE + int(env[E_PHASE])] = 1.0
    pending = int(env[E_PENDING])
    if pending >= 0:
        state[S_ACTION + pending] = 1.0
    state[S_NOPED] = env[E_NOPES] % 2.0
    state[S_DRAWS] = env[E_DRAWS]
    state[S_TO_DISCARD] = env[E_TO_DISCARD]
    for k in range(COMBO_KINDS):
        state[S_COMBO + k] = env[E_COMBO + k]
    for r in range(players):
        p = (player + r) % players
        state[S_ALIVE + r] = env[E_ALIVE + p]
        state[S_CARDS + r] = sum_values(env, E_HANDS + HAND_KINDS * p, HAND_KINDS)  # a slice costs compile time
    state[S_MAIN + (main - player) % players] = 1.0
    target = int(env[E_TARGET])
    if target >= 0:
        state[S_TARGET + (target - player) % players] = 1.0
    state[S_REVERSED] = env[E_REVERSED]
    depth = implodingDepth(env)
    if env[E_FACE_UP] == 1.0 and depth >= 0:
        state[S_FACE_UP] = 1.0
        state[S_ABOVE] = depth
    state[S_PLAYERS] = players
    state[S_SEAT] = player
    if env[E_WINNER] >= 0.0:
        state[S_OVER] = 1.0
        if int(env[E_WINNER]) == player:
            state[S_WON] = 1.0
    else:
        state[S_TO_MOVE + (getCurrentPlayer(env) - player) % players] = 1.0
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, getCurrentPlayer(env))


# ---- what a state allows ------------------------------------------------------------------------


@njit(cache=True)
def _others_hold_cards(state):
    for r in range(1, MAX_PLAYERS):
        if state[S_ALIVE + r] == 1.0 and state[S_CARDS + r] > 0.0:
            return True
    return False


@njit(cache=True)
def _one_hot(state, start, count):
    for i in range(count):
        if state[start + i] == 1.0:
            return i
    return -1


@njit(cache=True)
def _pending(state):
    return _one_hot(state, S_ACTION, PENDING_KINDS)


@njit(cache=True)
def _phase(state):
    return _one_hot(state, S_PHASE, PHASES)


@njit(cache=True)
def _is_cat(kind):
    return TACOCAT <= kind <= MELON


@njit(cache=True)
def _can_make_alike(state, need):
    """Whether my hand holds ``need`` alike cards, Feral Cats standing in for any cat."""
    ferals = state[S_HAND + FERAL]
    for k in range(COMBO_KINDS):
        held = state[S_HAND + k]
        if held >= need or (_is_cat(k) and held > 0.0 and held + ferals >= need):
            return True
    return False


@njit(cache=True)
def _different_kinds(state):
    """Different kinds I could discard for five different (each Feral Cat counts as one)."""
    kinds = state[S_HAND + FERAL]
    for k in range(COMBO_KINDS):
        if k != FERAL and state[S_HAND + k] > 0.0:
            kinds += 1.0
    return kinds


@njit(cache=True)
def _can_discard(state, pending, kind):
    """Whether discarding a ``kind`` card now keeps the combo ``pending`` completable."""
    have = state[S_HAND + kind]
    if have <= 0.0:
        return False
    if pending == A_FIVE:
        return kind == FERAL or state[S_COMBO + kind] == 0.0
    need = 2.0 if pending == A_PAIR else 3.0
    first = -1
    for k in range(COMBO_KINDS):
        if state[S_COMBO + k] > 0.0:
            first = k
            break
    ferals = state[S_HAND + FERAL]
    if first < 0:  # the first card decides the combo's kind
        if kind == FERAL:
            return ferals >= need
        if _is_cat(kind):
            return have + ferals >= need
        return have >= need
    if first == FERAL:
        return kind == FERAL
    return kind == first or (kind == FERAL and _is_cat(first))


@njit(cache=True)
def isValidAction(state, action) -> bool:
    """``getValidActions(state)[action] == 1`` without building the vector."""
    if action < 0 or action >= NUM_ACTIONS:
        return False
    if state[S_OVER] != 0.0 or state[S_TO_MOVE] != 1.0:
        return action == A_PASS
    phase = _phase(state)
    if phase == MAIN:
        if action == A_DRAW:
            return True
        if ATTACK <= action <= FUTURE or A_REVERSE <= action <= A_TARGETED:
            if state[S_HAND + PLAYED_KIND[action]] <= 0.0:
                return False
            return action != FAVOR or _others_hold_cards(state)
        if action == A_PAIR or action == A_TRIPLE:
            return _others_hold_cards(state) and _can_make_alike(state, action - 5.0)
        if action == A_FIVE:
            discarded = 0.0
            for k in range(HAND_KINDS):
                discarded += state[S_DISCARD + k]
            return _different_kinds(state) >= 5.0 and discarded > 0.0
        return False
    if phase == NOPING:
        return action == A_PASS or (action == A_NOPE and state[S_HAND + NOPE] > 0.0)
    pending = _pending(state)
    if phase == CHOOSE_PLAYER:
        if A_TARGET <= action < A_TARGET + MAX_PLAYERS - 1:
            r = action - A_TARGET + 1
            return state[S_ALIVE + r] == 1.0 and (pending == A_TARGETED or state[S_CARDS + r] > 0.0)
        return action == A_DRAW and not _others_hold_cards(state) and pending != A_TARGETED
    if phase == CHOOSE_CARD:
        if pending == FAVOR:
            return A_GIVE <= action < A_NAME and state[S_HAND + action - A_GIVE] > 0.0
        if pending == A_TRIPLE:
            return A_NAME <= action < A_TAKE
        if pending == A_FIVE:
            return A_TAKE <= action < A_ORDER and state[S_DISCARD + action - A_TAKE] > 0.0
        return False
    if phase == ALTERING:
        if not A_ORDER <= action < A_DISCARD:
            return False
        order = action - A_ORDER
        pile = state[S_PILE]
        return pile >= 3.0 or order == 0 or (pile == 2.0 and order == 2)
    if phase == DISCARDING and A_DISCARD <= action < NUM_ACTIONS:
        return _can_discard(state, pending, action - A_DISCARD)
    return False


@njit(cache=True)
def getValidActions(state):
    return write_valid_actions(state, np.empty(NUM_ACTIONS, dtype=np.float64))


@njit(cache=True)
def write_valid_actions(state, valid):
    """``getValidActions(state)`` written into ``valid`` (the play-outs reuse one array)."""
    valid[:] = 0.0
    if state[S_OVER] != 0.0 or state[S_TO_MOVE] != 1.0:
        valid[A_PASS] = 1.0
        return valid
    phase = _phase(state)
    if phase == MAIN:
        first, last = ATTACK, A_TARGETED
    elif phase == NOPING:
        first, last = A_NOPE, A_PASS
    elif phase == CHOOSE_PLAYER:
        first, last = A_DRAW, A_GIVE - 1
    elif phase == CHOOSE_CARD:
        first, last = A_GIVE, A_ORDER - 1
    elif phase == ALTERING:
        first, last = A_ORDER, A_DISCARD - 1
    else:
        first, last = A_DISCARD, NUM_ACTIONS - 1
    for a in range(first, last + 1):
        if isValidAction(state, a):
            valid[a] = 1.0
    return valid


# ---- playing a move -----------------------------------------------------------------------------


@njit(cache=True)
def _discard_from(env, player, kind, count):
    env[E_HANDS + HAND_KINDS * player + kind] -= count
    env[E_DISCARD + kind] += count


@njit(cache=True)
def _give(env, giver, taker, kind):
    env[E_HANDS + HAND_KINDS * giver + kind] -= 1.0
    env[E_HANDS + HAND_KINDS * taker + kind] += 1.0


@njit(cache=True)
def _step_dir(env):
    return -1 if env[E_REVERSED] == 1.0 else 1


@njit(cache=True)
def _next_noper(env, after):
    """The next player after ``after`` (in the order of play from the main player) who holds a
    Nope and is still in; the main player when nobody further round the table does."""
    players = int(env[E_PLAYERS])
    main = int(env[E_MAIN])
    d = _step_dir(env)
    start = 1 if after == main else ((after - main) * d) % players + 1
    for step in range(start, players):
        p = (main + d * step) % players
        if env[E_ALIVE + p] == 1.0 and env[E_HANDS + HAND_KINDS * p + NOPE] > 0.0:
            return p
    return main


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def _forget_stale_future(env):
    """Forget the seen top cards once the pile's top no longer shows them."""
    size = int(env[E_PILE_SIZE])  # indices, not slices: a slice costs numba compile time
    for i in range(3):
        seen = env[E_FUTURE + i]
        if seen >= 0.0 and (i >= size or env[E_PILE + size - 1 - i] != seen):
            fill_values(env, E_FUTURE, 3, -1.0)
            return


@njit(cache=True)
def _pass_turn(env, to, draws):
    """Player ``to`` takes the turn, owing ``draws`` turns (an Attack on an attacked player stacks)."""
    env[E_MAIN] = to
    env[E_NOPES] = 0.0
    if env[E_DRAWS] >= 2.0:
        env[E_DRAWS] += draws
    else:
        env[E_DRAWS] = draws
    env[E_PHASE] = MAIN
    env[E_PENDING] = -1.0
    env[E_TARGET] = -1.0
    fill_values(env, E_FUTURE, 3, -1.0)  # not a slice: a slice costs numba compile time


@njit(cache=True)
def _change_turn(env, draws):
    """The next player still in, in the order of play, takes the turn."""
    players = int(env[E_PLAYERS])
    main = int(env[E_MAIN])
    d = _step_dir(env)
    for step in range(1, players + 1):
        p = (main + d * step) % players
        if env[E_ALIVE + p] == 1.0:
            _pass_turn(env, p, draws)
            return


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def _eliminate(env, player, kitten):
    """``player`` drew ``kitten`` and is out: the kitten to the discard pile, the hand out of the game."""
    env[E_ALIVE + player] = 0.0
    for k in range(HAND_KINDS):
        env[E_OUT + k] += env[E_HANDS + HAND_KINDS * player + k]
        env[E_HANDS + HAND_KINDS * player + k] = 0.0
    env[E_DISCARD + kitten] += 1.0
    alive, last = 0, -1
    for p in range(int(env[E_PLAYERS])):
        if env[E_ALIVE + p] == 1.0:
            alive += 1
            last = p
    if alive == 1:
        env[E_WINNER] = last


@njit(cache=True)
def _draw_one(env, from_bottom):
    """The main player draws a card (the top one, or the bottom one); True when it eliminated them."""
    main = int(env[E_MAIN])
    size = int(env[E_PILE_SIZE])
    if from_bottom:  # bring the bottom card to the top: the same draw from there
        bottom = env[E_PILE]
        for i in range(E_PILE, E_PILE + size - 1):  # a loop: a slice costs numba compile time
            env[i] = env[i + 1]
        env[E_PILE + size - 1] = bottom
    card = int(env[E_PILE + size - 1])
    if card == EXPLODING and env[E_HANDS + HAND_KINDS * main + DEFUSE] > 0.0:
        _discard_from(env, main, DEFUSE, 1.0)
        bury_top(_pile(env))
    elif card == IMPLODING and env[E_FACE_UP] == 0.0:
        env[E_FACE_UP] = 1.0
        bury_top(_pile(env))
    else:
        env[E_PILE_SIZE] = size - 1
        if card == EXPLODING or card == IMPLODING:
            _eliminate(env, main, card)
            return True
        env[E_HANDS + HAND_KINDS * main + card] += 1.0
    return False


@njit(cache=True)
def _draw(env):
    """The main player draws the cards owed, then the turn passes on."""
    for _ in range(int(env[E_DRAWS])):
        if _draw_one(env, False):
            break
    env[E_DRAWS] = 0.0
    _change_turn(env, 1.0)


@njit(cache=True)
def _end_one_turn(env):
    """Skip, Reverse or Draw from the Bottom used up one owed turn."""
    env[E_DRAWS] -= 1.0
    env[E_PHASE] = MAIN
    env[E_PENDING] = -1.0
    if env[E_DRAWS] <= 0.0:
        env[E_DRAWS] = 0.0
        _change_turn(env, 1.0)


@njit(cache=True)
def _execute(env, action):
    """The main player's action takes effect (nobody Noped it, or the Nopes cancelled out)."""
    env[E_NOPES] = 0.0
    env[E_PHASE] = MAIN
    if action == ATTACK:
        _change_turn(env, 2.0)
    elif action == SKIP:
        _end_one_turn(env)
    elif action == A_REVERSE:
        env[E_REVERSED] = 1.0 - env[E_REVERSED]
        _end_one_turn(env)
    elif action == A_BOTTOM:
        if not _draw_one(env, True):
            _forget_stale_future(env)
            _end_one_turn(env)
        else:
            env[E_DRAWS] = 0.0
            _change_turn(env, 1.0)
    elif action == FAVOR or action == A_PAIR or action == A_TRIPLE or action == A_TARGETED:
        env[E_PHASE] = CHOOSE_PLAYER
    elif action == SHUFFLE:
        shuffle_cards(_pile(env))
        fill_values(env, E_FUTURE, 3, -1.0)  # not a slice: a slice costs numba compile time
    elif action == FUTURE or action == A_ALTER:
        peek_top(_pile(env), env[E_FUTURE : E_FUTURE + 3])
        if action == A_ALTER:
            env[E_PHASE] = ALTERING
    elif action == A_FIVE:
        env[E_PHASE] = CHOOSE_CARD
    if env[E_PHASE] == MAIN:
        env[E_PENDING] = -1.0


@njit(cache=True)
def _open_to_nopes(env):
    """The action was played: the players who can Nope it get the chance, else it happens."""
    main = int(env[E_MAIN])
    noper = _next_noper(env, main)
    env[E_NOPER] = noper
    if noper == main:
        _execute(env, int(env[E_PENDING]))
    else:
        env[E_PHASE] = NOPING


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def _alter(env, order):
    """Put the top three cards (as seen) back in ``ORDERS[order]``."""
    size = int(env[E_PILE_SIZE])
    seen = (env[E_FUTURE], env[E_FUTURE + 1], env[E_FUTURE + 2])  # not a slice: compile time
    for j in range(min(3, size)):
        kind = seen[ORDERS[order, j]]
        env[E_FUTURE + j] = kind
        env[E_PILE + size - 1 - j] = kind


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def _pick(env, main, action):
    """The main player picked the player ``action - A_TARGET + 1`` seats on."""
    players = int(env[E_PLAYERS])
    target = (main + 1 + action - A_TARGET) % players
    pending = env[E_PENDING]
    if pending == A_TARGETED:
        _pass_turn(env, target, 2.0)
        return
    env[E_TARGET] = target
    if pending == A_PAIR:
        _give(env, target, main, random_card(_hand(env, target)))
        env[E_PHASE] = MAIN
        env[E_PENDING] = -1.0
        env[E_TARGET] = -1.0
    else:
        env[E_PHASE] = CHOOSE_CARD


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def _nope_round(env, action, main):
    noper = int(env[E_NOPER])
    if action == A_NOPE:
        env[E_NOPES] += 1.0
        _discard_from(env, noper, NOPE, 1.0)
        if noper != main:
            noper = _next_noper(env, noper)
            env[E_NOPER] = noper
        if noper == main and env[E_NOPES] % 2.0 == 0.0:
            _execute(env, int(env[E_PENDING]))
    elif noper == main:
        # the main player accepts that the action stays cancelled
        env[E_PENDING] = -1.0
        env[E_PHASE] = MAIN
        env[E_NOPES] = 0.0
    else:
        noper = _next_noper(env, noper)
        env[E_NOPER] = noper
        if noper == main and env[E_NOPES] % 2.0 == 0.0:
            _execute(env, int(env[E_PENDING]))


@njit(cache=True)
def stepEnv(action, env):
    if env[E_WINNER] >= 0.0:
        return env
    phase = env[E_PHASE]
    main = int(env[E_MAIN])
    if phase == MAIN:
        env[E_PENDING] = action
        if action == A_DRAW:
            env[E_PENDING] = -1.0
            _draw(env)
        elif A_PAIR <= action <= A_FIVE:
            env[E_PHASE] = DISCARDING
            env[E_TO_DISCARD] = 5.0 if action == A_FIVE else action - 5.0
        else:
            _discard_from(env, main, PLAYED_KIND[action], 1.0)
            _open_to_nopes(env)
    elif phase == NOPING:
        _nope_round(env, action, main)
    elif phase == CHOOSE_PLAYER:
        if action == A_DRAW:
            env[E_PENDING] = -1.0
            _draw(env)
        else:
            _pick(env, main, action)
    elif phase == CHOOSE_CARD:
        pending = env[E_PENDING]
        target = int(env[E_TARGET])
        if pending == FAVOR:
            _give(env, target, main, action - A_GIVE)
        elif pending == A_TRIPLE:
            kind = action - A_NAME
            if env[E_HANDS + HAND_KINDS * target + kind] > 0.0:
                _give(env, target, main, kind)
        else:
            kind = action - A_TAKE
            if env[E_DISCARD + kind] > 0.0:
                env[E_DISCARD + kind] -= 1.0
                env[E_HANDS + HAND_KINDS * main + kind] += 1.0
        env[E_PHASE] = MAIN
        env[E_PENDING] = -1.0
        env[E_TARGET] = -1.0
    elif phase == ALTERING:
        _alter(env, action - A_ORDER)
        env[E_PHASE] = MAIN
        env[E_PENDING] = -1.0
    else:
        kind = action - A_DISCARD
        _discard_from(env, main, kind, 1.0)
        env[E_COMBO + kind] += 1.0
        env[E_TO_DISCARD] -= 1.0
        if env[E_TO_DISCARD] == 0.0:
            fill_values(env, E_COMBO, COMBO_KINDS, 0.0)  # not a slice: a slice costs compile time
            _open_to_nopes(env)
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_WINNER])


@njit(cache=True)
def getReward(state) -> int:
    if state[S_OVER] == 0.0:
        return -1
    return 1 if state[S_WON] == 1.0 else 0


# ---- determinization for search bots ------------------------------------------------------------


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``: the others' hands and the draw pile dealt at random from
    the cards the state does not show; the top cards I saw stay on top, and a face-up Imploding
    Kitten stays where everybody sees it."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    players = int(state[S_PLAYERS])
    if players < 2 or players > MAX_PLAYERS:
        players = MAX_PLAYERS
    env[E_PLAYERS] = players
    phase = _phase(state)
    env[E_PHASE] = phase if phase >= 0 else MAIN
    me = int(state[S_SEAT]) if 0.0 <= state[S_SEAT] < players else 0
    main, target, to_move = me, -1, me
    for r in range(players):
        if state[S_MAIN + r] == 1.0:
            main = (me + r) % players
        if state[S_TARGET + r] == 1.0:
            target = (me + r) % players
        if state[S_TO_MOVE + r] == 1.0:
            to_move = (me + r) % players
    env[E_MAIN] = main
    env[E_TARGET] = target
    env[E_NOPER] = to_move if phase == NOPING else main
    env[E_PENDING] = _pending(state)
    env[E_NOPES] = state[S_NOPED]
    env[E_DRAWS] = state[S_DRAWS]
    env[E_TO_DISCARD] = state[S_TO_DISCARD]
    env[E_REVERSED] = state[S_REVERSED]
    for k in range(COMBO_KINDS):
        env[E_COMBO + k] = state[S_COMBO + k]
    env[E_WINNER] = -1.0
    for r in range(players):
        env[E_ALIVE + (me + r) % players] = state[S_ALIVE + r]
        if state[S_OVER] == 1.0 and state[S_ALIVE + r] == 1.0:
            env[E_WINNER] = (me + r) % players
    for k in range(KINDS):
        env[E_DISCARD + k] = state[S_DISCARD + k]
    for k in range(HAND_KINDS):
        env[E_OUT + k] = state[S_OUT + k]
        env[E_HANDS + HAND_KINDS * me + k] = state[S_HAND + k]
    future = np.full(3, -1, dtype=np.int64)
    for i in range(3):
        future[i] = _one_hot(state, S_FUTURE + KINDS * i, KINDS)
    face_up = state[S_FACE_UP] == 1.0
    env[E_FACE_UP] = 1.0 if face_up or state[S_DISCARD + IMPLODING] > 0.0 else 0.0
    # the unseen cards: everything in the game minus my hand, the piles, the cards out and the top I saw
    unseen = np.empty(REGULAR_CARDS + 2 * MAX_PLAYERS, dtype=np.int64)
    count = 0
    for k in range(HAND_KINDS):
        left = in_game(players, k) - int(state[S_HAND + k] + state[S_DISCARD + k] + state[S_OUT + k])
        for i in range(3):
            if future[i] == k:
                left -= 1
        for _ in range(left):
            unseen[count] = k
            count += 1
    shuffle_cards(unseen[:count])
    used = 0
    for r in range(1, players):
        p = (me + r) % players
        for _ in range(int(state[S_CARDS + r])):
            if used < count:
                env[E_HANDS + HAND_KINDS * p + unseen[used]] += 1.0
                used += 1
    # the pile below the cards I saw: the rest, the kittens not yet drawn; then the seen ones on top
    size = 0
    for i in range(used, count):
        env[E_PILE + size] = unseen[i]
        size += 1
    hidden_kittens = in_game(players, EXPLODING) - int(state[S_DISCARD + EXPLODING])
    implode_hidden = state[S_DISCARD + IMPLODING] == 0.0 and not face_up
    for i in range(3):
        if future[i] == EXPLODING:
            hidden_kittens -= 1
        elif future[i] == IMPLODING:
            implode_hidden = False
    for _ in range(hidden_kittens):
        env[E_PILE + size] = EXPLODING
        size += 1
    if implode_hidden:
        env[E_PILE + size] = IMPLODING
        size += 1
    shuffle_cards(env[E_PILE : E_PILE + size])
    for i in range(2, -1, -1):
        if future[i] >= 0:
            env[E_PILE + size] = future[i]
            size += 1
    env[E_PILE_SIZE] = size
    env[E_FUTURE : E_FUTURE + 3] = future
    if face_up and IMPLODING not in future:
        _place_face_up(env, int(state[S_ABOVE]))
    return env


@njit(cache=True)
def _place_face_up(env, above):
    """Put the face-up Imploding Kitten into the pile with ``above`` cards over it."""
    size = int(env[E_PILE_SIZE])
    place = max(0, size - above)  # index it takes; the cards from there move up one
    for i in range(size, place, -1):
        env[E_PILE + i] = env[E_PILE + i - 1]
    env[E_PILE + place] = IMPLODING
    env[E_PILE_SIZE] = size + 1
