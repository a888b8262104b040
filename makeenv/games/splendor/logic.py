"""Splendor: the rules, as numba functions over flat float64 arrays.

Two to four players collect gem tokens and buy development cards. A card gives a permanent gem
bonus (a discount on later cards) and maybe prestige points; nobles visit a player whose bonuses
meet their requirement (3 points each). At the end of the round in which somebody reached 15
points, the most points win; a tie goes to the player with fewer cards, a tie after that is
shared.

A turn is one of: take gems (one token per step: three different colours, or two of one colour
when the pile had at least four), reserve a card (face-up or the top of a deck; plus one gold
token when the bank has one), buy a card (from the board or the own reserve; gold is a wildcard),
or pass when nothing else is possible. A player holding more than 10 tokens after the turn
returns tokens one at a time. Rules, action list and card numbers follow the vis/ENV library's
``Splendor`` (its standard, four-player version); README.md states the differences.

The array layouts are documented in README.md and beside the constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

PARAMETERS = {"players": (2, 3, 4)}
DEFAULTS = {"players": 4}
MAX_PLAYERS = 4
WIN_POINTS = 15
MAX_ROUNDS = 100  # the library stops a game after 400 turns (100 rounds), no winner
MAX_TOKENS = 10
NOBLE_POINTS = 3

# ---- gems: five colours and gold --------------------------------------------------------------
RED, BLUE, GREEN, BLACK, WHITE, GOLD = 0, 1, 2, 3, 4, 5
COLOURS = ("red", "blue", "green", "black", "white", "gold")

# ---- the 90 development cards (card id = row; the library's numbering) ------------------------
# level, points, bonus colour, cost in red, blue, green, black, white
CARD_TABLE = """
    1  0  green     2     2     0     0     0
    1  0  green     3     0     0     0     0
    1  0  green     1     1     0     2     1
    1  0  green     0     1     0     0     2
    1  0  green     0     3     1     0     1
    1  0  green     1     1     0     1     1
    1  1  green     0     0     0     4     0
    1  0  green     2     1     0     2     0
    1  0  blue      2     0     2     0     1
    1  0  blue      0     0     2     2     0
    1  0  blue      1     0     1     1     1
    1  0  blue      2     0     1     1     1
    1  0  blue      1     1     3     0     0
    1  0  blue      0     0     0     2     1
    1  0  blue      0     0     0     3     0
    1  1  blue      4     0     0     0     0
    1  1  red       0     0     0     0     4
    1  0  red       0     0     0     0     3
    1  0  red       0     1     1     1     2
    1  0  red       0     0     1     2     2
    1  0  red       1     0     0     3     1
    1  0  red       2     0     0     0     2
    1  0  red       0     1     1     1     1
    1  0  red       0     2     1     0     0
    1  0  white     0     2     2     1     0
    1  0  white     1     1     2     1     0
    1  0  white     0     1     0     1     3
    1  1  white     0     0     4     0     0
    1  0  white     0     2     0     2     0
    1  0  white     2     0     0     1     0
    1  0  white     1     1     1     1     0
    1  0  white     0     3     0     0     0
    1  0  black     1     0     2     0     0
    1  0  black     1     1     1     0     1
    1  1  black     0     4     0     0     0
    1  0  black     1     2     0     0     2
    1  0  black     0     0     3     0     0
    1  0  black     0     0     2     0     2
    1  0  black     3     0     1     1     0
    1  0  black     1     2     1     0     1
    2  1  green     0     3     0     2     2
    2  2  green     0     2     0     1     4
    2  1  green     3     0     2     0     3
    2  2  green     0     5     3     0     0
    2  2  green     0     0     5     0     0
    2  3  green     0     0     6     0     0
    2  3  blue      0     6     0     0     0
    2  2  blue      1     0     0     4     2
    2  2  blue      0     5     0     0     0
    2  2  blue      0     3     0     0     5
    2  1  blue      0     2     3     3     0
    2  1  blue      3     2     2     0     0
    2  3  red       6     0     0     0     0
    2  2  red       0     0     0     5     3
    2  2  red       0     0     0     5     0
    2  2  red       0     4     2     0     1
    2  1  red       2     3     0     3     0
    2  1  red       2     0     0     3     2
    2  3  white     0     0     0     0     6
    2  2  white     5     0     0     3     0
    2  2  white     5     0     0     0     0
    2  1  white     3     3     0     0     2
    2  1  white     2     0     3     2     0
    2  2  white     4     0     1     2     0
    2  1  black     0     2     2     0     3
    2  1  black     0     0     3     2     3
    2  2  black     2     1     4     0     0
    2  2  black     3     0     5     0     0
    2  2  black     0     0     0     0     5
    2  3  black     0     0     0     6     0
    3  4  green     0     7     0     0     0
    3  4  green     0     6     3     0     3
    3  5  green     0     7     3     0     0
    3  3  green     3     3     0     3     5
    3  3  blue      3     0     3     5     3
    3  4  blue      0     0     0     0     7
    3  5  blue      0     3     0     0     7
    3  4  blue      0     3     0     3     6
    3  3  red       0     5     3     3     3
    3  4  red       0     0     7     0     0
    3  5  red       3     0     7     0     0
    3  4  red       3     3     6     0     0
    3  5  white     0     0     0     7     3
    3  3  white     5     3     3     3     0
    3  4  white     0     0     0     7     0
    3  4  white     3     0     0     6     3
    3  3  black     3     3     5     0     3
    3  5  black     7     0     0     3     0
    3  4  black     6     0     3     3     0
    3  4  black     7     0     0     0     0
"""

# ---- the 10 nobles: cost in red, blue, green, black, white (each is worth 3 points) -----------
NOBLE_TABLE = """
    0  4  4  0  0
    3  0  3  3  0
    3  3  3  0  0
    3  0  0  3  3
    0  3  0  3  3
    4  0  4  0  0
    4  0  0  4  0
    0  3  3  0  3
    0  4  0  0  4
    0  0  0  4  4
"""


def _parse_cards(text: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    levels, points, bonus, cost = [], [], [], []
    for line in text.strip().splitlines():
        level, pts, colour, *price = line.split()
        levels.append(int(level) - 1)
        points.append(int(pts))
        bonus.append(COLOURS.index(colour))
        cost.append([int(c) for c in price])
    return (
        np.array(levels, dtype=np.int64),
        np.array(points, dtype=np.int64),
        np.array(bonus, dtype=np.int64),
        np.array(cost, dtype=np.int64),
    )


CARD_LEVEL, CARD_POINTS, CARD_BONUS, CARD_COST = _parse_cards(CARD_TABLE)
NOBLE_COST = np.array([[int(c) for c in line.split()] for line in NOBLE_TABLE.strip().splitlines()], dtype=np.int64)
NUM_CARDS = 90
NUM_NOBLES = 10
DECK_START = np.array([0, 40, 70], dtype=np.int64)  # first card id of each level
DECK_SIZE = np.array([40, 30, 20], dtype=np.int64)
SLOTS_PER_LEVEL = 4
BOARD_SLOTS = 12
RESERVE_SLOTS = 3

# ---- actions (the library's list) ---------------------------------------------------------------
A_TAKE = 0  # 0..4: take one token of a colour
A_BUY = 5  # 5..94: buy card id (from the board or my reserve)
A_RESERVE = 95  # 95..184: reserve the face-up card id
A_RETURN = 185  # 185..189: return one token of a colour (when holding more than 10)
A_RESERVE_DECK = 190  # 190..192: reserve the top card of the level 1, 2, 3 deck
A_PASS = 193  # only when nothing else is possible (and at the final turn)
NUM_ACTIONS = 194

# ---- env: the referee's view ------------------------------------------------------------------
E_PLAYERS = 0  # number of players
E_TURN = 1  # turns completed; the player to move is E_TURN % players
E_STATUS = 2  # -1 running, else what checkEnded returns
E_BANK = 3  # 3..8: tokens in the bank, 5 colours and gold
E_TAKEN = 9  # 9..13: tokens taken so far this turn (taking phase)
E_NOBLES = 14  # 14..18: noble id in each slot, -1 empty
E_BOARD = 19  # 19..30: card id in each face-up slot (4 per level), -1 empty
E_DECK = 31  # 31..120: each level's deck order (card ids), level L at E_DECK + DECK_START[L]
E_DECK_NEXT = 121  # 121..123: how many cards of each level's deck have been dealt
E_SEAT = 124  # 124..183: 4 player blocks of SEAT_SIZE values
SEAT_SIZE = 15  # within a block: tokens 0..5, bonuses 6..10, points 11, reserved card ids 12..14 (-1 empty)
P_TOKENS, P_BONUS, P_POINTS, P_RESERVED = 0, 6, 11, 12
E_CARD = 184  # 184..273: where each card is: 0 deck, 1 board, 2 reserved, 3 bought
IN_DECK, ON_BOARD, RESERVED, BOUGHT = 0, 1, 2, 3
ENV_SIZE = 274

# ---- state: one player's view; seats are relative (0 = me, 1 = next to play after me, ...) --------
S_BANK = 0  # 0..5: bank tokens
S_TAKEN = 6  # 6..10: tokens taken so far this turn by the player to move
S_NOBLES = 11  # 11..35: 5 noble slots x their cost (all 0: empty)
S_BOARD = 36  # 36..179: 12 face-up slots x CARD_FEATURES
S_RESERVED = 180  # 180..215: my 3 reserve slots x CARD_FEATURES
CARD_FEATURES = 12  # card id + 1 (0: empty slot), points, bonus colour one-hot (5), cost (5)
S_DECK = 216  # 216..218: cards left in each level's deck
S_SEATS = 219  # 219..282: 4 relative seats x STATE_SEAT values
STATE_SEAT = 16  # in game (1/0), tokens (6), bonuses (5), points, reserved cards per level (3)
Q_IN, Q_TOKENS, Q_BONUS, Q_POINTS, Q_RESERVED = 0, 1, 7, 12, 13
S_TO_MOVE = 283  # 283..286: relative seat to move, one-hot (all 0 once over)
S_PLAYERS = 287  # number of players
S_TURN = 288  # turns completed
S_OVER = 289  # 1 when the game is over
S_WINNERS = 290  # 290..293: relative seats that share first place (at the end)
S_BOUGHT = 294  # 294..383: 1 for each card bought by anyone (public)
STATE_SIZE = 384

TOKENS_FOR = np.array([0, 0, 4, 5, 7], dtype=np.int64)  # tokens per colour by player count


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


DEFAULT_PLAYERS = DEFAULTS["players"]


@njit(cache=True)
def getAgentSize() -> int:
    """The default player count (make(..., players=n) picks another)."""
    return DEFAULT_PLAYERS


@njit(cache=True)
def initEnv(players=4):
    """A new game for 2, 3 or 4 players: shuffled decks, 4 cards per level, players + 1 nobles."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = players
    env[E_STATUS] = -1.0
    for c in range(5):
        env[E_BANK + c] = TOKENS_FOR[players]
    env[E_BANK + GOLD] = 5.0
    nobles = np.arange(NUM_NOBLES)
    np.random.shuffle(nobles)
    for i in range(5):
        env[E_NOBLES + i] = nobles[i] if i < players + 1 else -1.0
    for level in range(3):
        deck = np.arange(DECK_START[level], DECK_START[level] + DECK_SIZE[level])
        np.random.shuffle(deck)
        for i in range(DECK_SIZE[level]):
            env[E_DECK + DECK_START[level] + i] = deck[i]
        for i in range(SLOTS_PER_LEVEL):
            env[E_BOARD + SLOTS_PER_LEVEL * level + i] = deck[i]
            env[E_CARD + deck[i]] = ON_BOARD
        env[E_DECK_NEXT + level] = SLOTS_PER_LEVEL
    for p in range(MAX_PLAYERS):
        for j in range(RESERVE_SLOTS):
            env[E_SEAT + SEAT_SIZE * p + P_RESERVED + j] = -1.0
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_TURN]) % int(env[E_PLAYERS])


@njit(cache=True)
def _write_card(state, at, card):
    state[at] = card + 1.0
    state[at + 1] = CARD_POINTS[card]
    state[at + 2 + CARD_BONUS[card]] = 1.0
    for c in range(5):
        state[at + 7 + c] = CARD_COST[card, c]


@njit(cache=True)
def is_winner(env, p) -> bool:
    """True when player ``p`` shares first place: the most points (15 or more), then the fewest
    cards among those."""
    players = int(env[E_PLAYERS])
    best = -1.0
    for q in range(players):
        best = max(best, env[E_SEAT + SEAT_SIZE * q + P_POINTS])
    if best < WIN_POINTS or env[E_SEAT + SEAT_SIZE * p + P_POINTS] != best:
        return False
    mine = _cards_bought(env, p)
    for q in range(players):
        if env[E_SEAT + SEAT_SIZE * q + P_POINTS] == best and _cards_bought(env, q) < mine:
            return False
    return True


@njit(cache=True)
def _cards_bought(env, p):
    seat = E_SEAT + SEAT_SIZE * p
    total = 0.0
    for c in range(5):
        total += env[seat + P_BONUS + c]
    return total


@njit(cache=True)
def getPlayerState(env, player):
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    players = int(env[E_PLAYERS])
    for c in range(6):
        state[S_BANK + c] = env[E_BANK + c]
    for c in range(5):
        state[S_TAKEN + c] = env[E_TAKEN + c]
    for i in range(5):
        noble = int(env[E_NOBLES + i])
        if noble >= 0:
            for c in range(5):
                state[S_NOBLES + 5 * i + c] = NOBLE_COST[noble, c]
    for i in range(BOARD_SLOTS):
        card = int(env[E_BOARD + i])
        if card >= 0:
            _write_card(state, S_BOARD + CARD_FEATURES * i, card)
    mine = E_SEAT + SEAT_SIZE * player
    for j in range(RESERVE_SLOTS):
        card = int(env[mine + P_RESERVED + j])
        if card >= 0:
            _write_card(state, S_RESERVED + CARD_FEATURES * j, card)
    for level in range(3):
        state[S_DECK + level] = DECK_SIZE[level] - env[E_DECK_NEXT + level]
    for r in range(players):
        seat = E_SEAT + SEAT_SIZE * ((player + r) % players)
        at = S_SEATS + STATE_SEAT * r
        state[at + Q_IN] = 1.0
        for c in range(6):
            state[at + Q_TOKENS + c] = env[seat + P_TOKENS + c]
        for c in range(5):
            state[at + Q_BONUS + c] = env[seat + P_BONUS + c]
        state[at + Q_POINTS] = env[seat + P_POINTS]
        for j in range(RESERVE_SLOTS):
            card = int(env[seat + P_RESERVED + j])
            if card >= 0:
                state[at + Q_RESERVED + CARD_LEVEL[card]] += 1.0
    state[S_PLAYERS] = players
    state[S_TURN] = env[E_TURN]
    if env[E_STATUS] < 0:
        state[S_TO_MOVE + (int(env[E_TURN]) - player) % players] = 1.0
    else:
        state[S_OVER] = 1.0
        for r in range(players):
            if is_winner(env, (player + r) % players):
                state[S_WINNERS + r] = 1.0
    for card in range(NUM_CARDS):
        if env[E_CARD + card] == BOUGHT:
            state[S_BOUGHT + card] = 1.0
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, getCurrentPlayer(env))


# ---- what a state allows ----------------------------------------------------------------------


@njit(cache=True)
def _my_tokens(state):
    total = 0.0
    for c in range(6):
        total += state[S_SEATS + Q_TOKENS + c]
    return total


@njit(cache=True)
def _taken(state):
    total = 0.0
    for c in range(5):
        total += state[S_TAKEN + c]
    return total


@njit(cache=True)
def can_afford(state, card):
    """True when I can pay ``card`` now: missing tokens after bonuses and tokens <= my gold."""
    short = 0.0
    for c in range(5):
        have = state[S_SEATS + Q_TOKENS + c] + state[S_SEATS + Q_BONUS + c]
        if CARD_COST[card, c] > have:
            short += CARD_COST[card, c] - have
    return short <= state[S_SEATS + Q_TOKENS + GOLD]


@njit(cache=True)
def _reserve_space(state):
    for j in range(RESERVE_SLOTS):
        if state[S_RESERVED + CARD_FEATURES * j] == 0.0:
            return True
    return False


@njit(cache=True)
def _may_take(state, colour, taken):
    """Taking ``colour`` is allowed (``taken`` tokens already taken this turn)."""
    if state[S_BANK + colour] <= 0.0:
        return False
    mine = state[S_TAKEN + colour]
    if taken == 1.0 and mine == 1.0:
        return state[S_BANK + colour] >= 3.0  # a second one: the pile had at least 4
    return mine == 0.0 or taken == 0.0


@njit(cache=True)
def _card_at(state, at):
    """Card id of the slot starting at ``at``, -1 when empty."""
    return int(state[at]) - 1


@njit(cache=True)
def getValidActions(state):
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    if not (state[S_OVER] == 0.0 and state[S_TO_MOVE] == 1.0):
        valid[A_PASS] = 1.0  # the final turn (or not my turn): nothing to decide
        return valid
    taken = _taken(state)
    if taken > 0.0:
        for c in range(5):
            if _may_take(state, c, taken):
                valid[A_TAKE + c] = 1.0
        return valid
    if _my_tokens(state) > MAX_TOKENS:
        for c in range(5):
            if state[S_SEATS + Q_TOKENS + c] > 0.0:
                valid[A_RETURN + c] = 1.0
        return valid
    anything = False
    for c in range(5):
        if state[S_BANK + c] > 0.0:
            valid[A_TAKE + c] = 1.0
            anything = True
    space = _reserve_space(state)
    for i in range(BOARD_SLOTS):
        card = _card_at(state, S_BOARD + CARD_FEATURES * i)
        if 0 <= card < NUM_CARDS:
            if space:
                valid[A_RESERVE + card] = 1.0
                anything = True
            if can_afford(state, card):
                valid[A_BUY + card] = 1.0
                anything = True
    for j in range(RESERVE_SLOTS):
        card = _card_at(state, S_RESERVED + CARD_FEATURES * j)
        if 0 <= card < NUM_CARDS and can_afford(state, card):
            valid[A_BUY + card] = 1.0
            anything = True
    if space:
        for level in range(3):
            if state[S_DECK + level] > 0.0:
                valid[A_RESERVE_DECK + level] = 1.0
                anything = True
    if not anything:
        valid[A_PASS] = 1.0
    return valid


@njit(cache=True)
def _slot_of(state, start, count, card):
    for i in range(count):
        if _card_at(state, start + CARD_FEATURES * i) == card:
            return i
    return -1


@njit(cache=True)
def isValidAction(state, action) -> bool:
    """``getValidActions(state)[action] == 1`` without building the vector."""
    if action < 0 or action >= NUM_ACTIONS:
        return False
    if not (state[S_OVER] == 0.0 and state[S_TO_MOVE] == 1.0):
        return action == A_PASS
    taken = _taken(state)
    if taken > 0.0:
        return action < A_BUY and _may_take(state, action, taken)
    if _my_tokens(state) > MAX_TOKENS:
        return A_RETURN <= action < A_RESERVE_DECK and state[S_SEATS + Q_TOKENS + action - A_RETURN] > 0.0
    if action < A_BUY:
        return state[S_BANK + action] > 0.0
    if action < A_RESERVE:
        card = action - A_BUY
        if _slot_of(state, S_BOARD, BOARD_SLOTS, card) < 0 and _slot_of(state, S_RESERVED, RESERVE_SLOTS, card) < 0:
            return False
        return can_afford(state, card)
    if action < A_RETURN:
        return _reserve_space(state) and _slot_of(state, S_BOARD, BOARD_SLOTS, action - A_RESERVE) >= 0
    if action < A_RESERVE_DECK:
        return False
    if action < A_PASS:
        return _reserve_space(state) and state[S_DECK + action - A_RESERVE_DECK] > 0.0
    # pass: only when nothing else is possible
    valid = getValidActions(state)
    return valid[A_PASS] == 1.0


# ---- playing a move ---------------------------------------------------------------------------


@njit(cache=True)
def _deal(env, level):
    """The next card of a level's deck (-1 when it is empty)."""
    dealt = int(env[E_DECK_NEXT + level])
    if dealt >= DECK_SIZE[level]:
        return -1
    env[E_DECK_NEXT + level] = dealt + 1
    card = int(env[E_DECK + DECK_START[level] + dealt])
    return card


@njit(cache=True)
def _refill(env, slot, level):
    card = _deal(env, level)
    env[E_BOARD + slot] = card
    if card >= 0:
        env[E_CARD + card] = ON_BOARD


@njit(cache=True)
def _board_slot(env, card):
    for i in range(BOARD_SLOTS):
        if env[E_BOARD + i] == card:
            return i
    return -1


@njit(cache=True)
def _tokens(env, seat):
    total = 0.0
    for c in range(6):
        total += env[seat + P_TOKENS + c]
    return total


@njit(cache=True)
def _take(env, seat, colour):
    """Take one token; True when the taking is over (three taken, two alike, or nothing left)."""
    env[E_TAKEN + colour] += 1.0
    env[seat + P_TOKENS + colour] += 1.0
    env[E_BANK + colour] -= 1.0
    taken = 0.0
    doubled = False
    others = 0.0  # tokens left in the bank in colours not taken yet this turn
    for c in range(5):
        taken += env[E_TAKEN + c]
        if env[E_TAKEN + c] == 2.0:
            doubled = True
        if env[E_TAKEN + c] == 0.0:
            others += env[E_BANK + c]
    if taken >= 3.0 or doubled:
        return True
    if taken == 1.0:
        return env[E_BANK + colour] < 3.0 and others == 0.0
    return others == 0.0


@njit(cache=True)
def _reserve(env, seat, card):
    for j in range(RESERVE_SLOTS):
        if env[seat + P_RESERVED + j] < 0.0:
            env[seat + P_RESERVED + j] = card
            break
    env[E_CARD + card] = RESERVED
    if env[E_BANK + GOLD] > 0.0:
        env[E_BANK + GOLD] -= 1.0
        env[seat + P_TOKENS + GOLD] += 1.0


@njit(cache=True)
def _buy(env, seat, card):
    slot = _board_slot(env, card)
    if slot >= 0:
        _refill(env, slot, CARD_LEVEL[card])
    else:
        for j in range(RESERVE_SLOTS):
            if env[seat + P_RESERVED + j] == card:
                env[seat + P_RESERVED + j] = -1.0
    gold = 0.0
    for c in range(5):
        need = CARD_COST[card, c] - env[seat + P_BONUS + c]
        if need > 0.0:
            pay = min(need, env[seat + P_TOKENS + c])
            env[seat + P_TOKENS + c] -= pay
            env[E_BANK + c] += pay
            gold += need - pay
    env[seat + P_TOKENS + GOLD] -= gold
    env[E_BANK + GOLD] += gold
    env[seat + P_POINTS] += CARD_POINTS[card]
    env[seat + P_BONUS + CARD_BONUS[card]] += 1.0
    env[E_CARD + card] = BOUGHT


@njit(cache=True)
def _visit_noble(env, seat):
    """A noble whose cost the bonuses meet joins the player (one at random if several)."""
    count = 0
    for i in range(5):
        if _noble_fits(env, seat, i):
            count += 1
    if count == 0:
        return
    k = 0 if count == 1 else int(np.random.random() * count)
    for i in range(5):
        if _noble_fits(env, seat, i):
            if k == 0:
                env[E_NOBLES + i] = -1.0
                env[seat + P_POINTS] += NOBLE_POINTS
                return
            k -= 1


@njit(cache=True)
def _noble_fits(env, seat, slot):
    noble = int(env[E_NOBLES + slot])
    if noble < 0:
        return False
    for c in range(5):
        if env[seat + P_BONUS + c] < NOBLE_COST[noble, c]:
            return False
    return True


@njit(cache=True)
def _end_turn(env):
    env[E_TURN] += 1.0
    players = int(env[E_PLAYERS])
    turn = int(env[E_TURN])
    if turn % players != 0:
        return
    best = 0.0
    for p in range(players):
        best = max(best, env[E_SEAT + SEAT_SIZE * p + P_POINTS])
    if best >= WIN_POINTS:
        count, winner = 0, -1
        for p in range(players):
            if is_winner(env, p):
                count += 1
                winner = p
        env[E_STATUS] = winner if count == 1 else players
    elif turn >= MAX_ROUNDS * players:
        env[E_STATUS] = players  # the library's turn limit: no winner


@njit(cache=True)
def stepEnv(action, env):
    if env[E_STATUS] >= 0.0:
        return env
    player = getCurrentPlayer(env)
    seat = E_SEAT + SEAT_SIZE * player
    turn_over = False
    if action < A_BUY:
        if _take(env, seat, action):
            for c in range(5):
                env[E_TAKEN + c] = 0.0
            turn_over = _tokens(env, seat) <= MAX_TOKENS
    elif action < A_RESERVE:
        _buy(env, seat, action - A_BUY)
        turn_over = True
    elif action < A_RETURN:
        card = action - A_RESERVE
        slot = _board_slot(env, card)
        _reserve(env, seat, card)
        _refill(env, slot, CARD_LEVEL[card])
        turn_over = _tokens(env, seat) <= MAX_TOKENS
    elif action < A_RESERVE_DECK:
        colour = action - A_RETURN
        env[seat + P_TOKENS + colour] -= 1.0
        env[E_BANK + colour] += 1.0
        turn_over = _tokens(env, seat) <= MAX_TOKENS
    elif action < A_PASS:
        card = _deal(env, action - A_RESERVE_DECK)
        _reserve(env, seat, card)
        turn_over = _tokens(env, seat) <= MAX_TOKENS
    else:
        turn_over = True
    if env[E_TAKEN] + env[E_TAKEN + 1] + env[E_TAKEN + 2] + env[E_TAKEN + 3] + env[E_TAKEN + 4] == 0.0:
        _visit_noble(env, seat)
    if turn_over:
        _end_turn(env)
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_STATUS])


@njit(cache=True)
def getWinners(env):
    """1 for each player sharing first place: most points, then fewest cards (0s while running)."""
    won = np.zeros(int(env[E_PLAYERS]), dtype=np.float64)
    if env[E_STATUS] >= 0.0:
        for p in range(won.shape[0]):
            if is_winner(env, p):
                won[p] = 1.0
    return won


@njit(cache=True)
def getReward(state) -> int:
    """-1 while running; 1 when I am among the winners (unless everybody is: a draw), else 0."""
    if state[S_OVER] == 0.0:
        return -1
    if state[S_WINNERS] != 1.0:
        return 0
    players = int(state[S_PLAYERS]) if 2.0 <= state[S_PLAYERS] <= MAX_PLAYERS else MAX_PLAYERS
    for r in range(players):
        if state[S_WINNERS + r] != 1.0:
            return 1
    return 0


# ---- determinization for search bots ----------------------------------------------------------


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``: the unseen cards (decks, the others' reserves) dealt at random."""
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    players = int(state[S_PLAYERS])
    if players < 2 or players > MAX_PLAYERS:
        players = MAX_PLAYERS
    env[E_PLAYERS] = players
    env[E_TURN] = state[S_TURN]
    env[E_STATUS] = -1.0
    mover = int(state[S_TURN]) % players
    to_move = 0
    for r in range(MAX_PLAYERS):
        if state[S_TO_MOVE + r] == 1.0:
            to_move = r
    me = (mover - to_move) % players
    for c in range(6):
        env[E_BANK + c] = state[S_BANK + c]
    for c in range(5):
        env[E_TAKEN + c] = state[S_TAKEN + c]
    for i in range(5):
        env[E_NOBLES + i] = -1.0
        for noble in range(NUM_NOBLES):
            same = True
            for c in range(5):
                if NOBLE_COST[noble, c] != state[S_NOBLES + 5 * i + c]:
                    same = False
            if same:
                env[E_NOBLES + i] = noble
    for card in range(NUM_CARDS):
        if state[S_BOUGHT + card] == 1.0:
            env[E_CARD + card] = BOUGHT
    for i in range(BOARD_SLOTS):
        card = _card_at(state, S_BOARD + CARD_FEATURES * i)
        env[E_BOARD + i] = card
        if card >= 0:
            env[E_CARD + card] = ON_BOARD
    for r in range(players):
        p = (me + r) % players
        seat = E_SEAT + SEAT_SIZE * p
        at = S_SEATS + STATE_SEAT * r
        for c in range(6):
            env[seat + P_TOKENS + c] = state[at + Q_TOKENS + c]
        for c in range(5):
            env[seat + P_BONUS + c] = state[at + Q_BONUS + c]
        env[seat + P_POINTS] = state[at + Q_POINTS]
        for j in range(RESERVE_SLOTS):
            env[seat + P_RESERVED + j] = -1.0
    for p in range(players, MAX_PLAYERS):
        for j in range(RESERVE_SLOTS):
            env[E_SEAT + SEAT_SIZE * p + P_RESERVED + j] = -1.0
    mine = E_SEAT + SEAT_SIZE * me
    for j in range(RESERVE_SLOTS):
        card = _card_at(state, S_RESERVED + CARD_FEATURES * j)
        env[mine + P_RESERVED + j] = card
        if card >= 0:
            env[E_CARD + card] = RESERVED
    for level in range(3):
        # the unseen cards of this level, shuffled: first the others' reserves, then the deck
        start, size = DECK_START[level], DECK_SIZE[level]
        unseen = np.empty(size, dtype=np.int64)
        count = 0
        for card in range(start, start + size):
            if env[E_CARD + card] == IN_DECK:
                unseen[count] = card
                count += 1
        np.random.shuffle(unseen[:count])
        used = 0
        for r in range(1, players):
            seat = E_SEAT + SEAT_SIZE * ((me + r) % players)
            for _ in range(int(state[S_SEATS + STATE_SEAT * r + Q_RESERVED + level])):
                if used < count:
                    _reserve_slot(env, seat, unseen[used])
                    used += 1
        # the deck: cards no longer in it first (as if dealt), then the unseen rest in order
        left = count - used
        dealt = size - left
        position = 0
        for card in range(start, start + size):
            if env[E_CARD + card] != IN_DECK:
                env[E_DECK + start + position] = card
                position += 1
        for k in range(used, count):
            env[E_DECK + start + position] = unseen[k]
            position += 1
        env[E_DECK_NEXT + level] = dealt
    return env


@njit(cache=True)
def _reserve_slot(env, seat, card):
    for j in range(RESERVE_SLOTS):
        if env[seat + P_RESERVED + j] < 0.0:
            env[seat + P_RESERVED + j] = card
            env[E_CARD + card] = RESERVED
            return
