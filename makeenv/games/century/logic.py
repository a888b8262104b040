"""Century: Spice Road, 2 to 5 players: the rules, as numba functions over flat float64 arrays.

The rules are those of the vis/ENV library (github.com/ngoxuanphong/ENV, ``src/Base/Century``),
written for 5 players; README.md lists where this port decides otherwise.

* Four spices, from cheapest to dearest: yellow, red, green, brown. A caravan holds 10 spices.
* Every player starts with two merchant cards (2 yellow, upgrade 2) and seat-dependent spices:
  3 yellow; 4 yellow; 4 yellow; 3 yellow + 1 red; 3 yellow + 1 red.
* The merchant row shows 6 cards. Taking the card at place ``i`` costs one spice left on each of
  the ``i`` cards to its left (placed one at a time, from the leftmost card); the taker collects
  the spices lying on the card it takes. The point row shows 5 cards; the first carries a gold
  coin (3 points) while gold coins remain, then a silver one; the second carries a silver coin
  (1 point) only while gold coins remain. There are 2 coins of each metal per player.
* A turn is one of: rest (take every played card back), take a merchant card, buy a point card,
  or play a card from the hand: a spice card gives spices, a trade card may be repeated while the
  player can pay (each repetition a move), an upgrade card raises a spice one step per move (as
  many steps as the card shows, while a spice can still be raised).
* A caravan over 10 spices is brought back to 10 at the end of the turn, one discard per move.
* When a player has 5 point cards (6 with 2 or 3 players), the game ends as play returns to
  seat 0. Score: points + 1 per non-yellow spice; a tie goes to the later seat.

Card data (merchant cards and point cards) is in ``cards.json``. The array layouts are
documented in README.md and beside the constants below.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit


def _load_cards() -> tuple:
    """``cards.json`` as arrays: merchant pay, gain and upgrades; point-card cost and points;
    starting spices per seat; the starting hand; the spice names."""
    data = json.loads((Path(__file__).parent / "cards.json").read_text())
    merchant = data["merchant_cards"]
    pay = np.array([m["pay"] for m in merchant], dtype=np.float64)
    gain = np.array([m["gain"] for m in merchant], dtype=np.float64)
    upgrades = np.array([m["upgrades"] for m in merchant], dtype=np.float64)
    cost = np.array([p["cost"] for p in data["point_cards"]], dtype=np.float64)
    points = np.array([p["points"] for p in data["point_cards"]], dtype=np.float64)
    start = np.array(data["starting_spices"], dtype=np.float64)
    hand = np.array(data["starting_hand"], dtype=np.int64)
    return pay, gain, upgrades, cost, points, start, hand, tuple(data["spices"])


CARD_PAY, CARD_GAIN, CARD_UPGRADES, POINT_COST, POINT_VALUE, START_SPICES, START_HAND, SPICE_NAMES = _load_cards()
NUM_SPICES = 4
NUM_MERCHANT = CARD_PAY.shape[0]  # 45 merchant cards, ids 0..44
NUM_POINT = POINT_COST.shape[0]  # 36 point cards
MERCHANT_DECK = NUM_MERCHANT - START_HAND.shape[0]  # 43: all but the two starting cards
ROW = 6  # merchant cards on show
POINT_ROW = 5  # point cards on show
CARAVAN = 10
GOLD_POINTS, SILVER_POINTS = 3.0, 1.0
MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 5, 5

# ---- actions (vis/ENV's numbering) --------------------------------------------------------------
REST = 0
TAKE = 1  # 1..6: take the merchant card at place 0..5
BUY = 7  # 7..11: buy the point card at place 0..4
PLAY = 12  # 12..56: play merchant card 0..44 from the hand (a trade card: again, while repeating)
SPICE = 57  # 57..60: put down a yellow, red, green, brown spice (on the row while taking, else discard)
STOP = 61  # stop repeating a trade
UPGRADE = 62  # 62..64: raise a yellow, red, green spice one step
NUM_ACTIONS = 65

# ---- phases ------------------------------------------------------------------------------------
MAIN, PLACE, REPEAT, DISCARD, RAISE = 1, 2, 3, 4, 5
NUM_PHASES = 5

# ---- env: the referee's view (length ENV_SIZE) -------------------------------------------------
E_PLAYERS = 0  # number of players n
E_TO_MOVE = 1  # the seat to move
E_PHASE = 2  # MAIN .. RAISE
E_RESULT = 3  # -1 running, else the winner
E_GOLD = 4  # gold coins left
E_SILVER = 5  # silver coins left
E_PENDING = 6  # PLACE: the place of the card being taken; REPEAT: the trade card being repeated
E_COUNT = 7  # PLACE: spices still to put down; DISCARD: spices over 10; RAISE: steps left
E_PLACED = 8  # PLACE: spices put down so far (the next one goes on that place)
E_MDECK_LEFT = 9  # merchant cards in the deck
E_PDECK_LEFT = 10  # point cards in the deck
E_WINNERS = 11  # 5 flags
E_ROW = 16  # 6 merchant card ids on show, -1 for an empty place
E_ROW_SPICES = 22  # 6 x 4 spices lying on those cards
E_POINT_ROW = 46  # 5 point card ids on show, -1 for an empty place
E_POINT_GONE = 51  # 36 flags: the point card was bought
E_MDECK = 87  # 43 merchant card ids; the deck is the first E_MDECK_LEFT, drawn from the end
E_PDECK = 130  # 36 point card ids, likewise
E_PLAYER = 166  # 5 player blocks
P_SPICES = 0  # 4 counts
P_POINTS = 4  # points from point cards and coins
P_CARDS = 5  # point cards bought
P_GOLD = 6  # gold coins taken
P_SILVER = 7  # silver coins taken
P_HAND = 8  # 45 values: 0 not mine, 1 in my hand, 2 played (back with a rest)
PLAYER_BLOCK = P_HAND + NUM_MERCHANT  # 53
ENV_SIZE = E_PLAYER + MAX_PLAYERS * PLAYER_BLOCK  # 431
IN_HAND, PLAYED = 1.0, 2.0

# ---- state: one player's view (length STATE_SIZE); every value is >= 0 ------------------------
S_PLAYERS = 0  # number of players n
S_SEAT = 1  # my seat
S_PHASE = 2  # 5 flags: my phase (MAIN .. RAISE) when I am to move; all 0 otherwise
S_OVER = 7  # 1 when the game is over
S_WON = 8  # 1 when I won
S_GOLD = 9  # gold coins left
S_SILVER = 10  # silver coins left
S_PENDING = 11  # PLACE: 1 + the place of the card I take; REPEAT: 1 + the card I repeat; else 0
S_COUNT = 12  # PLACE / DISCARD: spices still to put down; RAISE: steps left; else 0
S_PLACED = 13  # PLACE: spices put down so far
S_MDECK_LEFT = 14  # merchant cards in the deck
S_PDECK_LEFT = 15  # point cards in the deck
S_TO_MOVE = 16  # 5 flags: who moves (me, then the next seats); all 0 at the end
S_WINNERS = 21  # 5 flags: the winner at the end (me, then the next seats)
S_ROW = 26  # 6 places x (1 + card id or 0 when empty, pay 4, gain 4, upgrades)
ROW_BLOCK = 10
S_ROW_SPICES = 86  # 6 x 4 spices lying on the row's cards
S_POINT_ROW = 110  # 5 places x (1 + card id or 0 when empty, cost 4, points)
POINT_BLOCK = 6
S_POINT_GONE = 140  # 36 flags: the point card was bought
S_SEATS = 176  # 5 seat blocks: me, then the next seats
B_PRESENT = 0  # 1 when the seat is in the game
B_SPICES = 1  # 4 counts
B_POINTS = 5  # points from point cards and coins
B_CARDS = 6  # point cards bought
B_GOLD = 7  # gold coins
B_SILVER = 8  # silver coins
B_SCORE = 9  # points + non-yellow spices (what the end compares)
B_HAND = 10  # 45 values: merchant card c is 0 not the seat's, 1 in its hand, 2 played (back with a rest)
SEAT_BLOCK = 55
STATE_SIZE = S_SEATS + MAX_PLAYERS * SEAT_BLOCK  # 451

TURN_LIMIT = 2000  # vis/ENV's cap in moves; a truncated game is a draw (random play: ~730 moves)


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    """The default number of players (``make("Century", players=n)`` chooses another)."""
    return DEFAULT_PLAYERS


@njit(cache=True)
def target_cards(players) -> int:
    """Point cards that end the game: 5, or 6 with 2 or 3 players."""
    return 6 if players <= 3 else 5


@njit(cache=True)
def player_base(player) -> int:
    return E_PLAYER + player * PLAYER_BLOCK


@njit(cache=True)
def shuffle_into(env, start, count):
    """Fisher-Yates over ``env[start:start + count]``."""
    for i in range(count - 1, 0, -1):
        j = int(np.random.random() * (i + 1))
        v = env[start + i]
        env[start + i] = env[start + j]
        env[start + j] = v


@njit(cache=True)
def draw_merchant(env) -> float:
    left = int(env[E_MDECK_LEFT])
    if left == 0:
        return -1.0
    env[E_MDECK_LEFT] = left - 1
    return env[E_MDECK + left - 1]


@njit(cache=True)
def draw_point(env) -> float:
    left = int(env[E_PDECK_LEFT])
    if left == 0:
        return -1.0
    env[E_PDECK_LEFT] = left - 1
    return env[E_PDECK + left - 1]


@njit(cache=True)
def initEnv(players=DEFAULT_PLAYERS):
    """A new game for ``players`` (2..5): decks shuffled, rows dealt, seat 0 to move."""
    n = min(max(int(players), MIN_PLAYERS), MAX_PLAYERS)
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = n
    env[E_PHASE] = MAIN
    env[E_RESULT] = -1.0
    env[E_GOLD] = 2 * n
    env[E_SILVER] = 2 * n
    i = 0
    for c in range(NUM_MERCHANT):
        if c != START_HAND[0] and c != START_HAND[1]:
            env[E_MDECK + i] = c
            i += 1
    env[E_MDECK_LEFT] = i
    shuffle_into(env, E_MDECK, i)
    for c in range(NUM_POINT):
        env[E_PDECK + c] = c
    env[E_PDECK_LEFT] = NUM_POINT
    shuffle_into(env, E_PDECK, NUM_POINT)
    for k in range(ROW):
        env[E_ROW + k] = draw_merchant(env)
    for k in range(POINT_ROW):
        env[E_POINT_ROW + k] = draw_point(env)
    for p in range(n):
        base = player_base(p)
        for s in range(NUM_SPICES):
            env[base + P_SPICES + s] = START_SPICES[p, s]
        for c in START_HAND:
            env[base + P_HAND + c] = IN_HAND
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_TO_MOVE])


@njit(cache=True)
def score(env, player) -> float:
    """Points + 1 per non-yellow spice."""
    base = player_base(player)
    return env[base + P_POINTS] + env[base + P_SPICES + 1] + env[base + P_SPICES + 2] + env[base + P_SPICES + 3]


def _card_blocks() -> tuple:
    """The row blocks of the state, precomputed per card: merchant card -> (1 + id, pay 4, gain 4,
    upgrades), point card -> (1 + id, cost 4, points)."""
    merchant = np.zeros((NUM_MERCHANT, ROW_BLOCK), dtype=np.float64)
    merchant[:, 0] = np.arange(1, NUM_MERCHANT + 1)
    merchant[:, 1:5] = CARD_PAY
    merchant[:, 5:9] = CARD_GAIN
    merchant[:, 9] = CARD_UPGRADES
    point = np.zeros((NUM_POINT, POINT_BLOCK), dtype=np.float64)
    point[:, 0] = np.arange(1, NUM_POINT + 1)
    point[:, 1:5] = POINT_COST
    point[:, 5] = POINT_VALUE
    return merchant, point


ROW_CARD_BLOCK, POINT_CARD_BLOCK = _card_blocks()


@njit(cache=True, inline="always")
def copy_values(dst, at, src, start, count):
    """``dst[at:at + count] = src[start:start + count]``, as a loop over views: numba vectorizes
    that, but neither a slice assignment nor a loop over offset indices."""
    to = dst[at : at + count]
    of = src[start : start + count]
    for i in range(count):
        to[i] = of[i]


@njit(cache=True, inline="always")
def zero_values(dst, at, count):
    to = dst[at : at + count]
    for i in range(count):
        to[i] = 0.0


@njit(cache=True)
def getPlayerState(env, player):
    # np.empty with every value written below: the state is built once per move
    state = np.empty(STATE_SIZE, dtype=np.float64)
    n = int(env[E_PLAYERS])
    over = env[E_RESULT] >= 0.0
    to_move = int(env[E_TO_MOVE])
    zero_values(state, 0, S_ROW)
    state[S_PLAYERS] = n
    state[S_SEAT] = player
    state[S_GOLD] = env[E_GOLD]
    state[S_SILVER] = env[E_SILVER]
    state[S_MDECK_LEFT] = env[E_MDECK_LEFT]
    state[S_PDECK_LEFT] = env[E_PDECK_LEFT]
    if over:
        state[S_OVER] = 1.0
        state[S_WON] = env[E_WINNERS + player]
    elif player == to_move:
        phase = int(env[E_PHASE])
        state[S_PHASE + phase - 1] = 1.0
        if phase == PLACE or phase == REPEAT:
            state[S_PENDING] = env[E_PENDING] + 1.0
        if phase == PLACE or phase == DISCARD or phase == RAISE:
            state[S_COUNT] = env[E_COUNT]
        if phase == PLACE:
            state[S_PLACED] = env[E_PLACED]
    for k in range(ROW):
        card = int(env[E_ROW + k])
        if card >= 0:
            copy_values(state, S_ROW + k * ROW_BLOCK, ROW_CARD_BLOCK[card], 0, ROW_BLOCK)
        else:
            zero_values(state, S_ROW + k * ROW_BLOCK, ROW_BLOCK)
    copy_values(state, S_ROW_SPICES, env, E_ROW_SPICES, ROW * NUM_SPICES)
    for k in range(POINT_ROW):
        card = int(env[E_POINT_ROW + k])
        if card >= 0:
            copy_values(state, S_POINT_ROW + k * POINT_BLOCK, POINT_CARD_BLOCK[card], 0, POINT_BLOCK)
        else:
            zero_values(state, S_POINT_ROW + k * POINT_BLOCK, POINT_BLOCK)
    copy_values(state, S_POINT_GONE, env, E_POINT_GONE, NUM_POINT)
    seat = player
    for rel in range(MAX_PLAYERS):
        dst = S_SEATS + rel * SEAT_BLOCK
        if rel >= n:
            zero_values(state, dst, SEAT_BLOCK)
            continue
        src = player_base(seat)
        state[dst + B_PRESENT] = 1.0
        copy_values(state, dst + B_SPICES, env, src + P_SPICES, P_HAND)  # spices .. silver: same order
        state[dst + B_SCORE] = score(env, seat)
        copy_values(state, dst + B_HAND, env, src + P_HAND, NUM_MERCHANT)
        if over:
            state[S_WINNERS + rel] = env[E_WINNERS + seat]
        elif seat == to_move:
            state[S_TO_MOVE + rel] = 1.0
        seat += 1
        if seat == n:
            seat = 0
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, int(env[E_TO_MOVE]))


@njit(cache=True)
def state_phase(state) -> int:
    """My phase (MAIN .. RAISE) when I am to move in a running game, else 0."""
    if state[S_OVER] > 0.5:
        return 0
    for k in range(NUM_PHASES):
        if state[S_PHASE + k] > 0.5:
            return k + 1
    return 0


@njit(cache=True)
def can_pay(spices, offset, cost, row) -> bool:
    """True when ``spices[offset:offset + 4]`` covers ``cost[row]``."""
    for s in range(NUM_SPICES):
        if cost[row, s] > spices[offset + s]:
            return False
    return True


@njit(cache=True)
def raisable(spices, offset) -> bool:
    """True when a yellow, red or green spice can be raised."""
    return spices[offset] + spices[offset + 1] + spices[offset + 2] > 0.0


@njit(cache=True)
def valid_in_phase(state, phase, action) -> bool:
    """``isValidAction`` for a state whose ``state_phase`` is ``phase`` (0..64 actions only)."""
    if phase == 0:
        return action == REST
    me = S_SEATS + B_SPICES
    if phase == MAIN:
        if action == REST:
            return True
        if action < BUY:
            k = action - TAKE
            total = state[me] + state[me + 1] + state[me + 2] + state[me + 3]
            return state[S_ROW + k * ROW_BLOCK] > 0.5 and k <= total
        if action < PLAY:
            k = action - BUY
            card = int(state[S_POINT_ROW + k * POINT_BLOCK]) - 1
            return card >= 0 and can_pay(state, me, POINT_COST, card)
        if action < SPICE:
            card = action - PLAY
            if state[S_SEATS + B_HAND + card] != IN_HAND:
                return False
            if CARD_UPGRADES[card] > 0:
                return raisable(state, me)
            return can_pay(state, me, CARD_PAY, card)
        return False
    if phase == PLACE or phase == DISCARD:
        return SPICE <= action < STOP and state[me + action - SPICE] > 0.5
    if phase == REPEAT:
        return action == STOP or action == PLAY + int(state[S_PENDING]) - 1
    return UPGRADE <= action < NUM_ACTIONS and state[me + action - UPGRADE] > 0.5  # RAISE


@njit(cache=True)
def isValidAction(state, action) -> bool:
    if action < 0 or action >= NUM_ACTIONS:
        return False
    return valid_in_phase(state, state_phase(state), action)


@njit(cache=True)
def getValidActions(state):
    """``valid_in_phase`` for every action, written out per phase so that each reads its fields
    once (tests/games/test_century.py and ``makeenv check`` compare the two)."""
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    phase = state_phase(state)
    me = S_SEATS + B_SPICES
    if phase == MAIN:
        yellow, red, green, brown = state[me], state[me + 1], state[me + 2], state[me + 3]
        total = yellow + red + green + brown
        valid[REST] = 1.0
        for k in range(ROW):
            valid[TAKE + k] = state[S_ROW + k * ROW_BLOCK] > 0.5 and k <= total
        for k in range(POINT_ROW):  # the state's point row shows each card's cost
            at = S_POINT_ROW + k * POINT_BLOCK
            valid[BUY + k] = (
                state[at] > 0.5
                and state[at + 1] <= yellow
                and state[at + 2] <= red
                and state[at + 3] <= green
                and state[at + 4] <= brown
            )
        can_raise = yellow + red + green > 0.0
        for card in range(NUM_MERCHANT):
            if state[S_SEATS + B_HAND + card] == IN_HAND:
                if CARD_UPGRADES[card] > 0:
                    valid[PLAY + card] = can_raise
                else:
                    valid[PLAY + card] = (
                        CARD_PAY[card, 0] <= yellow
                        and CARD_PAY[card, 1] <= red
                        and CARD_PAY[card, 2] <= green
                        and CARD_PAY[card, 3] <= brown
                    )
    elif phase == PLACE or phase == DISCARD:
        for s in range(NUM_SPICES):
            valid[SPICE + s] = state[me + s] > 0.5
    elif phase == REPEAT:
        valid[PLAY + int(state[S_PENDING]) - 1] = 1.0
        valid[STOP] = 1.0
    elif phase == RAISE:
        for s in range(NUM_SPICES - 1):
            valid[UPGRADE + s] = state[me + s] > 0.5
    else:
        valid[REST] = 1.0
    return valid


# ---- stepping ----------------------------------------------------------------------------------


@njit(cache=True)
def caravan(env, base) -> float:
    return env[base + P_SPICES] + env[base + P_SPICES + 1] + env[base + P_SPICES + 2] + env[base + P_SPICES + 3]


@njit(cache=True)
def end_game(env):
    """Highest score wins; a tie goes to the later seat."""
    n = int(env[E_PLAYERS])
    best, winner = -1.0, 0
    for p in range(n):
        if score(env, p) >= best:
            best, winner = score(env, p), p
    env[E_WINNERS + winner] = 1.0
    env[E_RESULT] = winner


@njit(cache=True)
def end_turn(env):
    """Next seat; the game ends when play returns to seat 0 and someone has enough point cards."""
    n = int(env[E_PLAYERS])
    env[E_PHASE] = MAIN
    env[E_PENDING] = 0.0
    env[E_COUNT] = 0.0
    env[E_PLACED] = 0.0
    nxt = (int(env[E_TO_MOVE]) + 1) % n
    env[E_TO_MOVE] = nxt
    if nxt == 0:
        for p in range(n):
            if env[player_base(p) + P_CARDS] >= target_cards(n):
                end_game(env)
                return


@njit(cache=True)
def finish_action(env, base):
    """End the turn, or first bring a caravan over 10 spices back to 10, one discard a move."""
    over = caravan(env, base) - CARAVAN
    if over > 0:
        env[E_PHASE] = DISCARD
        env[E_COUNT] = over
    else:
        end_turn(env)


@njit(cache=True)
def take_card(env, base, k):
    """Take the merchant card at place ``k`` with the spices on it; the row closes up and draws."""
    card = int(env[E_ROW + k])
    env[base + P_HAND + card] = IN_HAND
    for s in range(NUM_SPICES):
        env[base + P_SPICES + s] += env[E_ROW_SPICES + k * NUM_SPICES + s]
    for j in range(k, ROW - 1):
        env[E_ROW + j] = env[E_ROW + j + 1]
        for s in range(NUM_SPICES):
            env[E_ROW_SPICES + j * NUM_SPICES + s] = env[E_ROW_SPICES + (j + 1) * NUM_SPICES + s]
    env[E_ROW + ROW - 1] = draw_merchant(env)
    for s in range(NUM_SPICES):
        env[E_ROW_SPICES + (ROW - 1) * NUM_SPICES + s] = 0.0
    finish_action(env, base)


@njit(cache=True)
def buy_point_card(env, base, k):
    """Buy the point card at place ``k``: its points and the coin on it; the row closes up."""
    card = int(env[E_POINT_ROW + k])
    coin = 0.0
    if k == 0 and env[E_GOLD] > 0:
        coin = GOLD_POINTS
        env[E_GOLD] -= 1.0
        env[base + P_GOLD] += 1.0
    elif env[E_SILVER] > 0 and (k == 1 and env[E_GOLD] > 0 or k == 0):
        coin = SILVER_POINTS
        env[E_SILVER] -= 1.0
        env[base + P_SILVER] += 1.0
    for s in range(NUM_SPICES):
        env[base + P_SPICES + s] -= POINT_COST[card, s]
    env[base + P_POINTS] += POINT_VALUE[card] + coin
    env[base + P_CARDS] += 1.0
    env[E_POINT_GONE + card] = 1.0
    for j in range(k, POINT_ROW - 1):
        env[E_POINT_ROW + j] = env[E_POINT_ROW + j + 1]
    env[E_POINT_ROW + POINT_ROW - 1] = draw_point(env)
    end_turn(env)


@njit(cache=True)
def trade(env, base, card):
    """Play a spice or trade card once; a trade the player can pay again may be repeated."""
    for s in range(NUM_SPICES):
        env[base + P_SPICES + s] += CARD_GAIN[card, s] - CARD_PAY[card, s]
    paid = CARD_PAY[card, 0] + CARD_PAY[card, 1] + CARD_PAY[card, 2] + CARD_PAY[card, 3]
    if paid > 0 and can_pay(env, base + P_SPICES, CARD_PAY, card):
        env[E_PHASE] = REPEAT
        env[E_PENDING] = card
    else:
        finish_action(env, base)


@njit(cache=True)
def apply_action(action, env):
    """``stepEnv``'s work, returning nothing (see ``stepEnv``)."""
    if env[E_RESULT] >= 0.0 or action < 0 or action >= NUM_ACTIONS:
        return
    base = player_base(int(env[E_TO_MOVE]))
    phase = int(env[E_PHASE])
    if phase == MAIN:
        if action == REST:
            for c in range(NUM_MERCHANT):
                if env[base + P_HAND + c] == PLAYED:
                    env[base + P_HAND + c] = IN_HAND
            end_turn(env)
        elif action < BUY:
            k = action - TAKE
            if k == 0:
                take_card(env, base, 0)
            else:
                env[E_PHASE] = PLACE
                env[E_PENDING] = k
                env[E_COUNT] = k
                env[E_PLACED] = 0.0
        elif action < PLAY:
            buy_point_card(env, base, action - BUY)
        elif action < SPICE:
            card = action - PLAY
            env[base + P_HAND + card] = PLAYED
            if CARD_UPGRADES[card] > 0:
                env[E_PHASE] = RAISE
                env[E_COUNT] = CARD_UPGRADES[card]
            else:
                trade(env, base, card)
    elif phase == PLACE:
        s = action - SPICE
        env[base + P_SPICES + s] -= 1.0
        env[E_ROW_SPICES + int(env[E_PLACED]) * NUM_SPICES + s] += 1.0
        env[E_PLACED] += 1.0
        env[E_COUNT] -= 1.0
        if env[E_COUNT] <= 0:
            take_card(env, base, int(env[E_PENDING]))
    elif phase == REPEAT:
        if action == STOP:
            finish_action(env, base)
        else:
            trade(env, base, int(env[E_PENDING]))
    elif phase == DISCARD:
        env[base + P_SPICES + action - SPICE] -= 1.0
        env[E_COUNT] -= 1.0
        if env[E_COUNT] <= 0:
            end_turn(env)
    else:  # RAISE
        s = action - UPGRADE
        env[base + P_SPICES + s] -= 1.0
        env[base + P_SPICES + s + 1] += 1.0
        env[E_COUNT] -= 1.0
        if env[E_COUNT] <= 0 or not raisable(env, base + P_SPICES):
            end_turn(env)


# inlined into its callers (the runner's loop, an agent, the bots) as a shell whose work returns
# nothing: a call returning the env costs reference counts (atomic operations) at every step. (The
# state and validity functions inlined too made games 8-11% faster but the first run's compile 1.4 s
# longer, over 10 s: they stay calls.)
@njit(cache=True, inline="always")
def stepEnv(action, env):
    apply_action(action, env)
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getWinners(env):
    return env[E_WINNERS : E_WINNERS + int(env[E_PLAYERS])].copy()


@njit(cache=True)
def getReturns(env):
    """Each player's score at the end (points + non-yellow spices)."""
    n = int(env[E_PLAYERS])
    returns = np.zeros(n, dtype=np.float64)
    for p in range(n):
        returns[p] = score(env, p)
    return returns


@njit(cache=True)
def getReward(state) -> int:
    if state[S_OVER] < 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0


# ---- determinization ---------------------------------------------------------------------------


@njit(cache=True)
def fill_public(state, env):
    """``env`` overwritten with all that ``state`` shows, in the referee's terms: its player to move,
    both decks empty (allocates nothing; ``sampleEnv`` adds the decks)."""
    n = min(max(int(state[S_PLAYERS]), MIN_PLAYERS), MAX_PLAYERS)
    me = min(max(int(state[S_SEAT]), 0), n - 1)
    env[:] = 0.0
    env[E_PLAYERS] = n
    env[E_RESULT] = -1.0
    env[E_TO_MOVE] = me
    env[E_PHASE] = MAIN
    phase = state_phase(state)
    if phase > 0:
        env[E_PHASE] = phase
        env[E_PENDING] = max(state[S_PENDING] - 1.0, 0.0)
        env[E_COUNT] = state[S_COUNT]
        env[E_PLACED] = state[S_PLACED]
    env[E_GOLD] = state[S_GOLD]
    env[E_SILVER] = state[S_SILVER]
    for k in range(ROW):
        env[E_ROW + k] = int(state[S_ROW + k * ROW_BLOCK]) - 1
        for s in range(NUM_SPICES):
            env[E_ROW_SPICES + k * NUM_SPICES + s] = state[S_ROW_SPICES + k * NUM_SPICES + s]
    for k in range(POINT_ROW):
        env[E_POINT_ROW + k] = int(state[S_POINT_ROW + k * POINT_BLOCK]) - 1
    for c in range(NUM_POINT):
        env[E_POINT_GONE + c] = state[S_POINT_GONE + c]
    for rel in range(n):
        seat = (me + rel) % n
        src = S_SEATS + rel * SEAT_BLOCK
        dst = player_base(seat)
        for s in range(NUM_SPICES):
            env[dst + P_SPICES + s] = state[src + B_SPICES + s]
        env[dst + P_POINTS] = state[src + B_POINTS]
        env[dst + P_CARDS] = state[src + B_CARDS]
        env[dst + P_GOLD] = state[src + B_GOLD]
        env[dst + P_SILVER] = state[src + B_SILVER]
        for c in range(NUM_MERCHANT):
            held = state[src + B_HAND + c]
            if held == IN_HAND or held == PLAYED:
                env[dst + P_HAND + c] = held
        if state[S_TO_MOVE + rel] > 0.5:
            env[E_TO_MOVE] = seat
        if state[S_WINNERS + rel] > 0.5:
            env[E_WINNERS + seat] = 1.0
            env[E_RESULT] = seat


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``, its player to move: everything is public except the order
    of the two decks, which are the cards the state does not show, shuffled."""
    env = np.empty(ENV_SIZE, dtype=np.float64)
    fill_public(state, env)
    seen = np.zeros(NUM_MERCHANT, dtype=np.bool_)  # merchant cards in the row or in a hand
    for k in range(ROW):
        if env[E_ROW + k] >= 0:
            seen[int(env[E_ROW + k])] = True
    for seat in range(int(env[E_PLAYERS])):
        for c in range(NUM_MERCHANT):
            if env[player_base(seat) + P_HAND + c] != 0.0:
                seen[c] = True
    gone = np.zeros(NUM_POINT, dtype=np.bool_)  # point cards in the row or taken
    for k in range(POINT_ROW):
        if env[E_POINT_ROW + k] >= 0:
            gone[int(env[E_POINT_ROW + k])] = True
    for c in range(NUM_POINT):
        if env[E_POINT_GONE + c] > 0.5:
            gone[c] = True
    left = 0
    for c in range(NUM_MERCHANT):
        if not seen[c] and left < MERCHANT_DECK:
            env[E_MDECK + left] = c
            left += 1
    env[E_MDECK_LEFT] = left
    shuffle_into(env, E_MDECK, left)
    left = 0
    for c in range(NUM_POINT):
        if not gone[c]:
            env[E_PDECK + left] = c
            left += 1
    env[E_PDECK_LEFT] = left
    shuffle_into(env, E_PDECK, left)
    return env
