"""ExplodingKittens: the rules, as numba functions over flat float64 arrays.

Two to five players. Each starts with four cards and a Defuse; the draw pile hides one Exploding
Kitten fewer than there are players. On your turn you play as many cards as you like, then end
the turn by drawing a card. Draw an Exploding Kitten and you are out, unless you play a Defuse:
then the kitten goes back into the pile at a random place. The last player left wins.

Cards: Attack (end the turn without drawing; the next player takes two turns, stacking), Skip
(end one turn without drawing), Favor (a player of your choice gives you a card of their choice),
Shuffle, See the Future (look at the top three cards), Nope (cancel an action; a Nope can be Noped),
and five kinds of cats, playable as combos: two alike steal a random card from a player, three
alike name a card to take from a player, five different take a card from the discard pile (action
cards may be combined too).

Rules, action list and turn phases follow the vis/ENV library's ``Exploding_Kitten`` (five
players); README.md states the differences. The array layouts are documented in README.md and
beside the constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

PARAMETERS = {"players": (2, 3, 4, 5)}
DEFAULTS = {"players": 5}
MAX_PLAYERS = 5
HAND_START = 4  # cards dealt to each player, besides one Defuse

# ---- cards: 13 kinds --------------------------------------------------------------------------
NOPE, ATTACK, SKIP, FAVOR, SHUFFLE, FUTURE = 0, 1, 2, 3, 4, 5
TACOCAT, RAINBOW, BEARD, POTATO, MELON = 6, 7, 8, 9, 10
DEFUSE, KITTEN = 11, 12
CARD_NAMES = (
    "Nope",
    "Attack",
    "Skip",
    "Favor",
    "Shuffle",
    "See the Future",
    "Tacocat",
    "Rainbow-Ralphing Cat",
    "Beard Cat",
    "Hairy Potato Cat",
    "Cattermelon",
    "Defuse",
    "Exploding Kitten",
)
KINDS = 13
HAND_KINDS = 12  # a hand never holds an Exploding Kitten
COMBO_KINDS = 11  # Defuse cannot be part of a combo
CARD_COUNT = np.array([5, 4, 4, 4, 4, 5, 4, 4, 4, 4, 4, 6, 4], dtype=np.int64)
REGULAR_CARDS = 46  # every card but Defuses and Exploding Kittens

# ---- actions (the library's list) ---------------------------------------------------------------
A_NOPE = 0  # play a Nope (nope phase)
A_PLAY = 0  # 1..5: play Attack, Skip, Favor, Shuffle, See the Future (main phase)
A_DRAW = 6  # draw and end the turn (also: no player to pick, in the choose-player phase)
A_PAIR = 7  # two alike: steal a random card
A_TRIPLE = 8  # three alike: name a card
A_FIVE = 9  # five different: take from the discard pile
A_PASS = 10  # let the action happen (nope phase); also the final turn
A_TARGET = 11  # 11..14: pick the player 1..4 seats after me
A_GIVE = 15  # 15..26: give a card of this kind (Favor)
A_NAME = 27  # 27..38: name a kind (three alike)
A_TAKE = 39  # 39..50: take a kind from the discard pile (five different)
A_DISCARD = 51  # 51..61: discard cards of this kind for the combo
NUM_ACTIONS = 62

# ---- phases -------------------------------------------------------------------------------------
MAIN, NOPING, CHOOSE_PLAYER, CHOOSE_CARD, DISCARDING = 0, 1, 2, 3, 4
PHASE_NAMES = ("main", "nope", "choose player", "choose card", "discard")

# ---- env: the referee's view ------------------------------------------------------------------
E_PLAYERS = 0  # number of players
E_PHASE = 1  # MAIN .. DISCARDING
E_MAIN = 2  # the player whose turn it is
E_NOPER = 3  # the player deciding whether to Nope (nope phase)
E_TARGET = 4  # the player picked by Favor or a combo, -1 none
E_PENDING = 5  # the main player's action being played (1..9), -1 none
E_NOPES = 6  # Nopes played on it so far (odd: it is cancelled)
E_DRAWS = 7  # cards the main player still has to draw (turns owed)
E_TO_DISCARD = 8  # cards still to discard for a five-different combo
E_COMBO = 9  # 9..19: kinds discarded so far for a five-different combo
E_FUTURE = 20  # 20..22: kinds of the top three cards the main player saw, -1 none
E_ALIVE = 23  # 23..27: 1 while the player is in the game
E_WINNER = 28  # -1 running, else the last player left
E_HANDS = 29  # 29..88: 5 players x 12 kinds, card counts
E_DISCARD = 89  # 89..101: discard pile, count per kind
E_OUT = 102  # 102..113: cards out of the game (an exploded player's hand), per kind
E_PILE_SIZE = 114  # cards in the draw pile
E_PILE = 115  # 115..155: the draw pile's kinds, bottom first (top at E_PILE + size - 1)
MAX_PILE = 41
ENV_SIZE = 156

# ---- state: one player's view; seats are relative (0 = me, 1 = the next player, ...) ------------
S_HAND = 0  # 0..11: my cards per kind
S_DISCARD = 12  # 12..24: discard pile per kind
S_OUT = 25  # 25..36: cards out of the game per kind
S_PILE = 37  # cards in the draw pile
S_FUTURE = 38  # 38..76: the top three cards I saw (See the Future), 3 x 13 one-hot
S_PHASE = 77  # 77..81: phase one-hot (main, nope, choose player, choose card, discard)
S_ACTION = 82  # 82..91: the main player's action being played, one-hot (0..9)
S_NOPED = 92  # 1 while that action stands cancelled (odd number of Nopes)
S_DRAWS = 93  # cards the main player still has to draw
S_TO_DISCARD = 94  # cards still to discard for a five-different combo
S_COMBO = 95  # 95..105: kinds discarded so far for it
S_ALIVE = 106  # 106..110: 1 for each relative seat still in the game
S_CARDS = 111  # 111..115: cards held by each relative seat
S_MAIN = 116  # 116..120: relative seat whose turn it is, one-hot
S_TO_MOVE = 121  # 121..125: relative seat to move, one-hot (all 0 once over)
S_TARGET = 126  # 126..130: relative seat picked by Favor or a combo, one-hot
S_PLAYERS = 131  # number of players
S_OVER = 132  # 1 when the game is over
S_WON = 133  # 1 when I am the last player left
S_SEAT = 134  # my seat (0 plays first)
STATE_SIZE = 135

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
def pile_defuses(players):
    """Defuses shuffled into the pile: the rest of the six, at most two (official setup)."""
    return min(2, 6 - players)


@njit(cache=True)
def in_game(players, kind):
    """How many cards of ``kind`` a game of ``players`` uses."""
    if kind == DEFUSE:
        return players + pile_defuses(players)
    if kind == KITTEN:
        return players - 1
    return CARD_COUNT[kind]


@njit(cache=True)
def initEnv(players=5):
    """Deal four regular cards and a Defuse to each player; the rest, the spare Defuses and
    players - 1 Exploding Kittens make the shuffled draw pile."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = players
    regular = np.empty(REGULAR_CARDS, dtype=np.int64)
    n = 0
    for kind in range(COMBO_KINDS):
        for _ in range(CARD_COUNT[kind]):
            regular[n] = kind
            n += 1
    np.random.shuffle(regular)
    for p in range(players):
        for i in range(HAND_START):
            env[E_HANDS + HAND_KINDS * p + regular[HAND_START * p + i]] += 1.0
        env[E_HANDS + HAND_KINDS * p + DEFUSE] = 1.0
        env[E_ALIVE + p] = 1.0
    size = 0
    for i in range(HAND_START * players, REGULAR_CARDS):
        env[E_PILE + size] = regular[i]
        size += 1
    for _ in range(pile_defuses(players)):
        env[E_PILE + size] = DEFUSE
        size += 1
    for _ in range(players - 1):
        env[E_PILE + size] = KITTEN
        size += 1
    np.random.shuffle(env[E_PILE : E_PILE + size])
    env[E_PILE_SIZE] = size
    env[E_PHASE] = MAIN
    env[E_MAIN] = 0
    env[E_NOPER] = 0
    env[E_TARGET] = -1.0
    env[E_PENDING] = -1.0
    env[E_DRAWS] = 1.0
    for i in range(3):
        env[E_FUTURE + i] = -1.0
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
def _hand_size(env, p):
    total = 0.0
    for k in range(HAND_KINDS):
        total += env[E_HANDS + HAND_KINDS * p + k]
    return total


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
        state[S_CARDS + r] = _hand_size(env, p)
    state[S_MAIN + (main - player) % players] = 1.0
    target = int(env[E_TARGET])
    if target >= 0:
        state[S_TARGET + (target - player) % players] = 1.0
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


# ---- what a state allows ----------------------------------------------------------------------


@njit(cache=True)
def _others_hold_cards(state):
    for r in range(1, MAX_PLAYERS):
        if state[S_ALIVE + r] == 1.0 and state[S_CARDS + r] > 0.0:
            return True
    return False


@njit(cache=True)
def _pending(state):
    for a in range(10):
        if state[S_ACTION + a] == 1.0:
            return a
    return -1


@njit(cache=True)
def _phase(state):
    for i in range(5):
        if state[S_PHASE + i] == 1.0:
            return i
    return -1


@njit(cache=True)
def _most_alike(state):
    most = 0.0
    kinds = 0
    for k in range(COMBO_KINDS):
        most = max(most, state[S_HAND + k])
        if state[S_HAND + k] > 0.0:
            kinds += 1
    return most, kinds


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
        if ATTACK <= action <= FUTURE:
            if state[S_HAND + action] <= 0.0:
                return False
            return action != FAVOR or _others_hold_cards(state)
        if action == A_PAIR or action == A_TRIPLE:
            most, kinds = _most_alike(state)
            return most >= action - 5 and _others_hold_cards(state)
        if action == A_FIVE:
            most, kinds = _most_alike(state)
            discarded = 0.0
            for k in range(HAND_KINDS):
                discarded += state[S_DISCARD + k]
            return kinds >= 5 and discarded > 0.0
        return False
    if phase == NOPING:
        return action == A_PASS or (action == A_NOPE and state[S_HAND + NOPE] > 0.0)
    if phase == CHOOSE_PLAYER:
        if A_TARGET <= action < A_TARGET + MAX_PLAYERS - 1:
            r = action - A_TARGET + 1
            return state[S_ALIVE + r] == 1.0 and state[S_CARDS + r] > 0.0
        return action == A_DRAW and not _others_hold_cards(state)
    pending = _pending(state)
    if phase == CHOOSE_CARD:
        if pending == FAVOR:
            return A_GIVE <= action < A_NAME and state[S_HAND + action - A_GIVE] > 0.0
        if pending == A_TRIPLE:
            return A_NAME <= action < A_TAKE
        if pending == A_FIVE:
            if A_TAKE <= action < A_DISCARD:
                kind = action - A_TAKE
                combo = state[S_COMBO + kind] if kind < COMBO_KINDS else 0.0
                return state[S_DISCARD + kind] - combo > 0.0
        return False
    if phase == DISCARDING and A_DISCARD <= action < NUM_ACTIONS:
        kind = action - A_DISCARD
        have = state[S_HAND + kind]
        if pending == A_PAIR:
            return have >= 2.0
        if pending == A_TRIPLE:
            return have >= 3.0
        if pending == A_FIVE:
            return have >= 1.0 and state[S_COMBO + kind] == 0.0
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
        first, last = ATTACK, A_FIVE
    elif phase == NOPING:
        first, last = A_NOPE, A_PASS
    elif phase == CHOOSE_PLAYER:
        first, last = A_DRAW, A_TARGET + MAX_PLAYERS - 2
    elif phase == CHOOSE_CARD:
        first, last = A_GIVE, A_DISCARD - 1
    else:
        first, last = A_DISCARD, NUM_ACTIONS - 1
    for a in range(first, last + 1):
        if isValidAction(state, a):
            valid[a] = 1.0
    return valid


# ---- playing a move ---------------------------------------------------------------------------


@njit(cache=True)
def bury_top(pile):
    """Move the top card of ``pile`` (a view of its cards, bottom first) to a uniformly random
    place in it, the top included: where a defused kitten goes back."""
    size = pile.shape[0]
    place = int(np.random.random() * size)
    card = pile[size - 1]
    for i in range(size - 1, place, -1):
        pile[i] = pile[i - 1]
    pile[place] = card


@njit(cache=True)
def peek_top(pile, seen):
    """Write the kinds of the top cards of ``pile`` (bottom first) into ``seen``, top first; -1
    where the pile runs out."""
    size = pile.shape[0]
    for i in range(seen.shape[0]):
        seen[i] = pile[size - 1 - i] if i < size else -1.0


@njit(cache=True)
def random_card(hand):
    """The kind of a card drawn at random from ``hand`` (counts per kind), each card equally likely."""
    k = int(np.random.random() * hand.sum())
    for kind in range(hand.shape[0]):
        if k < hand[kind]:
            return kind
        k -= int(hand[kind])
    return -1


@njit(cache=True)
def _discard_from(env, player, kind, count):
    env[E_HANDS + HAND_KINDS * player + kind] -= count
    env[E_DISCARD + kind] += count


@njit(cache=True)
def _give(env, giver, taker, kind):
    env[E_HANDS + HAND_KINDS * giver + kind] -= 1.0
    env[E_HANDS + HAND_KINDS * taker + kind] += 1.0


@njit(cache=True)
def _next_noper(env, after):
    """The next player after ``after`` (in turn order from the main player) who holds a Nope and
    is still in; the main player when nobody further round the table does."""
    players = int(env[E_PLAYERS])
    main = int(env[E_MAIN])
    start = 1 if after == main else (after - main) % players + 1
    for step in range(start, players):
        p = (main + step) % players
        if env[E_ALIVE + p] == 1.0 and env[E_HANDS + HAND_KINDS * p + NOPE] > 0.0:
            return p
    return main


@njit(cache=True)
def _change_turn(env, draws):
    """The next player still in takes the turn; ``draws`` turns owed (an Attack stacks)."""
    players = int(env[E_PLAYERS])
    main = int(env[E_MAIN])
    for step in range(1, players + 1):
        p = (main + step) % players
        if env[E_ALIVE + p] == 1.0:
            env[E_MAIN] = p
            break
    env[E_NOPES] = 0.0
    if env[E_DRAWS] >= 2.0:
        env[E_DRAWS] += draws
    else:
        env[E_DRAWS] = draws
    env[E_PHASE] = MAIN
    env[E_PENDING] = -1.0
    env[E_TARGET] = -1.0
    for i in range(3):
        env[E_FUTURE + i] = -1.0


@njit(cache=True)
def _explode(env, player):
    """``player`` is out: the kitten goes to the discard pile, the hand out of the game."""
    env[E_ALIVE + player] = 0.0
    for k in range(HAND_KINDS):
        env[E_OUT + k] += env[E_HANDS + HAND_KINDS * player + k]
        env[E_HANDS + HAND_KINDS * player + k] = 0.0
    env[E_DISCARD + KITTEN] += 1.0
    alive, last = 0, -1
    for p in range(int(env[E_PLAYERS])):
        if env[E_ALIVE + p] == 1.0:
            alive += 1
            last = p
    if alive == 1:
        env[E_WINNER] = last


@njit(cache=True)
def _draw(env):
    """The main player draws the cards owed, then the turn passes on."""
    main = int(env[E_MAIN])
    for _ in range(int(env[E_DRAWS])):
        size = int(env[E_PILE_SIZE])
        top = int(env[E_PILE + size - 1])
        if top == KITTEN:
            if env[E_HANDS + HAND_KINDS * main + DEFUSE] > 0.0:
                _discard_from(env, main, DEFUSE, 1.0)
                bury_top(env[E_PILE : E_PILE + size])
            else:
                env[E_PILE_SIZE] = size - 1
                _explode(env, main)
                break
        else:
            env[E_PILE_SIZE] = size - 1
            env[E_HANDS + HAND_KINDS * main + top] += 1.0
    env[E_DRAWS] = 0.0
    _change_turn(env, 1.0)


@njit(cache=True)
def shuffle_cards(cards):
    """Shuffle ``cards`` (a view of a pile's slots) in place: Fisher-Yates with ``np.random``."""
    for i in range(cards.shape[0] - 1, 0, -1):
        j = int(np.random.random() * (i + 1))
        a = cards[i]
        cards[i] = cards[j]
        cards[j] = a


@njit(cache=True)
def _shuffle_pile(env):
    shuffle_cards(env[E_PILE : E_PILE + int(env[E_PILE_SIZE])])


@njit(cache=True)
def _execute(env, action):
    """The main player's action takes effect (nobody Noped it, or the Nopes cancelled out)."""
    env[E_NOPES] = 0.0
    if action == ATTACK:
        _change_turn(env, 2.0)
    elif action == SKIP:
        env[E_DRAWS] -= 1.0
        env[E_PHASE] = MAIN
        if env[E_DRAWS] == 0.0:
            _change_turn(env, 1.0)
    elif action == FAVOR or action == A_PAIR or action == A_TRIPLE:
        env[E_PHASE] = CHOOSE_PLAYER
    elif action == SHUFFLE:
        _shuffle_pile(env)
        env[E_PHASE] = MAIN
        for i in range(3):
            env[E_FUTURE + i] = -1.0
    elif action == FUTURE:
        peek_top(env[E_PILE : E_PILE + int(env[E_PILE_SIZE])], env[E_FUTURE : E_FUTURE + 3])
        env[E_PHASE] = MAIN
    elif action == A_FIVE:
        env[E_PHASE] = CHOOSE_CARD


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


@njit(cache=True)
def stepEnv(action, env):
    if env[E_WINNER] >= 0.0:
        return env
    phase = env[E_PHASE]
    main = int(env[E_MAIN])
    if phase == MAIN:
        if action == A_DRAW:
            _draw(env)
        elif action >= A_PAIR:
            env[E_PENDING] = action
            env[E_PHASE] = DISCARDING
            env[E_TO_DISCARD] = 5.0 if action == A_FIVE else action - 5.0
        else:
            env[E_PENDING] = action
            _discard_from(env, main, action, 1.0)
            _open_to_nopes(env)
    elif phase == NOPING:
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
    elif phase == CHOOSE_PLAYER:
        if action == A_DRAW:
            _draw(env)
        else:
            players = int(env[E_PLAYERS])
            target = (main + 1 + action - A_TARGET) % players
            env[E_TARGET] = target
            if env[E_PENDING] == A_PAIR:
                hand = E_HANDS + HAND_KINDS * target
                _give(env, target, main, random_card(env[hand : hand + HAND_KINDS]))
                env[E_PHASE] = MAIN
                env[E_PENDING] = -1.0
                env[E_TARGET] = -1.0
            else:
                env[E_PHASE] = CHOOSE_CARD
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
    else:
        kind = action - A_DISCARD
        if env[E_PENDING] == A_FIVE:
            _discard_from(env, main, kind, 1.0)
            env[E_COMBO + kind] = 1.0
            env[E_TO_DISCARD] -= 1.0
        else:
            _discard_from(env, main, kind, env[E_PENDING] - 5.0)
            env[E_TO_DISCARD] = 0.0
        if env[E_TO_DISCARD] == 0.0:
            for k in range(COMBO_KINDS):
                env[E_COMBO + k] = 0.0
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


# ---- determinization for search bots ----------------------------------------------------------


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``: the others' hands and the draw pile dealt at random from
    the cards the state does not show; the top cards I saw stay on top."""
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
    # the unseen cards: everything in the game minus my hand, the discard pile and the cards out
    unseen = np.empty(REGULAR_CARDS + 2 * MAX_PLAYERS, dtype=np.int64)
    count = 0
    kittens = in_game(players, KITTEN) - int(state[S_DISCARD + KITTEN])
    future = np.full(3, -1, dtype=np.int64)
    for i in range(3):
        for k in range(KINDS):
            if state[S_FUTURE + KINDS * i + k] == 1.0:
                future[i] = k
    for k in range(HAND_KINDS):
        left = in_game(players, k) - int(state[S_HAND + k] + state[S_DISCARD + k] + state[S_OUT + k])
        for i in range(3):
            if future[i] == k:
                left -= 1
        for _ in range(left):
            unseen[count] = k
            count += 1
    for i in range(3):
        if future[i] == KITTEN:
            kittens -= 1
    np.random.shuffle(unseen[:count])
    used = 0
    for r in range(1, players):
        p = (me + r) % players
        for _ in range(int(state[S_CARDS + r])):
            if used < count:
                env[E_HANDS + HAND_KINDS * p + unseen[used]] += 1.0
                used += 1
    size = 0
    for i in range(used, count):
        env[E_PILE + size] = unseen[i]
        size += 1
    for _ in range(kittens):
        env[E_PILE + size] = KITTEN
        size += 1
    np.random.shuffle(env[E_PILE : E_PILE + size])
    for i in range(2, -1, -1):
        if future[i] >= 0:
            env[E_PILE + size] = future[i]
            size += 1
    env[E_PILE_SIZE] = size
    for i in range(3):
        env[E_FUTURE + i] = future[i]
    return env
