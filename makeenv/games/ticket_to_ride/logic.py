"""Ticket to Ride: Europe, 2 to 5 players: the rules, as numba functions over flat float64 arrays.

The rules are those of the vis/ENV library (github.com/ngoxuanphong/ENV, ``src/Base/TicketToRide``,
written for 5 players) and of the printed game; README.md lists where this port decides otherwise.

* 47 cities, 101 routes (plain, tunnels, ferries; some doubled), 46 destination tickets (6 long),
  110 train cards (12 of each of 8 colours + 14 locomotives), 45 trains per player. No stations.
* Setup: 4 train cards each; 1 long + 3 normal tickets each, of which each seat in turn keeps at
  least 2 (the long tickets nobody was dealt leave the game). 5 cards lie face up; whenever 3 of
  them are locomotives, all 5 are discarded and 5 new ones dealt.
* A turn is one of: draw 2 train cards (face up or blind; a face-up locomotive is the whole turn
  and cannot be the second card); claim a route (then choose the colour to pay with: locomotives
  are wild, a ferry needs its locomotives, a tunnel reveals 3 cards and asks one more card per
  match, which the player pays or gives up the claim); draw 3 tickets and keep at least 1.
* A player who cannot do anything passes. Both routes of a double route never go to one player;
  with 2 or 3 players only one of the two can be claimed.
* When a player ends a turn with 2 trains or fewer, every player (that one included) has one
  more turn. Score: route points, + or - each ticket, +10 for the longest continuous path (all
  tied players get it). Ties: most tickets completed, then the longest-path bonus; else shared.

Map data (cities, routes, tickets, deck) is in ``map.json``. The array layouts are documented in
README.md and beside the constants below.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit


def _load_map() -> tuple:
    """``map.json`` as arrays (see the names they are bound to below)."""
    data = json.loads((Path(__file__).parent / "map.json").read_text())
    colours = tuple(data["colours"])
    names = tuple(c["name"] for c in data["cities"])
    index = {name: i for i, name in enumerate(names)}
    xy = np.array([[c["x"], c["y"]] for c in data["cities"]], dtype=np.float64)
    routes = data["routes"]
    ends = np.array([[index[r["from"]], index[r["to"]]] for r in routes], dtype=np.int64)
    colour = np.array([colours.index(r["colour"]) if r["colour"] != "gray" else -1 for r in routes], dtype=np.int64)
    length = np.array([r["length"] for r in routes], dtype=np.int64)
    kinds = ("plain", "tunnel", "ferry")
    kind = np.array([kinds.index(r["kind"]) for r in routes], dtype=np.int64)
    locos = np.array([r["locomotives"] for r in routes], dtype=np.int64)
    twin = np.full(len(routes), -1, dtype=np.int64)
    for i in range(len(routes)):
        for j in range(len(routes)):
            if i != j and ends[i, 0] == ends[j, 0] and ends[i, 1] == ends[j, 1]:
                twin[i] = j
    tickets = data["tickets"]
    t_ends = np.array([[index[t["from"]], index[t["to"]]] for t in tickets], dtype=np.int64)
    t_points = np.array([t["points"] for t in tickets], dtype=np.int64)
    t_long = np.array([t["long"] for t in tickets], dtype=np.bool_)
    points = np.zeros(9, dtype=np.int64)
    for k, v in data["route_points"].items():
        points[int(k)] = v
    # adjacency (compressed rows): the routes at each city and the city at their other end
    adj_start = np.zeros(len(names) + 1, dtype=np.int64)
    for a, b in ends:
        adj_start[a + 1] += 1
        adj_start[b + 1] += 1
    adj_start = np.cumsum(adj_start)
    adj_route = np.zeros(2 * len(routes), dtype=np.int64)
    adj_other = np.zeros(2 * len(routes), dtype=np.int64)
    fill = adj_start[:-1].copy()
    for r, (a, b) in enumerate(ends):
        for here, there in ((a, b), (b, a)):
            adj_route[fill[here]] = r
            adj_other[fill[here]] = there
            fill[here] += 1
    deck = np.array([data["deck"]["locomotive"]] + [data["deck"]["each_colour"]] * (len(colours) - 1), dtype=np.int64)
    rules = (data["trains"], data["hand"], data["face_up"], data["long_path_bonus"])
    return (
        colours,
        names,
        xy,
        ends,
        colour,
        length,
        kind,
        locos,
        twin,
        t_ends,
        t_points,
        t_long,
        points,
        adj_start,
        adj_route,
        adj_other,
        deck,
        rules,
    )


(
    COLOUR_NAMES,
    CITY_NAMES,
    CITY_XY,
    ROUTE_ENDS,
    ROUTE_COLOUR,
    ROUTE_LENGTH,
    ROUTE_KIND,
    ROUTE_LOCOS,
    ROUTE_TWIN,
    TICKET_ENDS,
    TICKET_POINTS,
    TICKET_LONG,
    ROUTE_POINTS,
    ADJ_START,
    ADJ_ROUTE,
    ADJ_OTHER,
    DECK_COUNTS,
    (TRAINS, HAND_SIZE, FACE_UP, LONGEST_BONUS),
) = _load_map()
NUM_COLOURS = len(COLOUR_NAMES)  # 9: locomotive (0) then 8 colours
NUM_CITIES = CITY_NAMES.__len__()  # 47
NUM_ROUTES = ROUTE_ENDS.shape[0]  # 101
NUM_TICKETS = TICKET_ENDS.shape[0]  # 46
NUM_CARDS = int(DECK_COUNTS.sum())  # 110
NUM_LONG = int(TICKET_LONG.sum())  # 6
PLAIN, TUNNEL, FERRY = 0, 1, 2
LOCO = 0
REVEAL = 3  # cards a tunnel reveals
TICKET_DRAW = 3  # tickets a draw shows
MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 5, 5

# ---- actions (vis/ENV's numbering) --------------------------------------------------------------
CLAIM = 0  # 0..100: claim route r
DISCARD = 101  # 101..146: give back ticket t (while choosing tickets)
TAKE = 147  # 147..155: take the face-up card of colour c (147: a locomotive)
BLIND = 156  # draw the top card of the deck
PAY = 157  # 157..165: pay for the route with colour c (157: locomotives only)
DIG = 166  # tunnel: pay the extra cards and claim it
GIVE_UP = 167  # tunnel: give up the claim (the cards go back to the hand)
TICKETS = 168  # draw destination tickets
KEEP = 169  # keep the tickets still offered
PASS = 170  # nothing else can be done
NUM_ACTIONS = 171

# ---- phases ------------------------------------------------------------------------------------
MAIN, SECOND, PAYING, DIGGING, CHOOSING = 1, 2, 3, 4, 5
NUM_PHASES = 5

# ---- env: the referee's view (length ENV_SIZE) -------------------------------------------------
E_PLAYERS = 0  # number of players n
E_TO_MOVE = 1  # the seat to move
E_PHASE = 2  # MAIN .. CHOOSING
E_RESULT = 3  # -1 running, else checkEnded's value
E_ROUTE = 4  # PAYING / DIGGING: the route being claimed
E_COLOUR = 5  # DIGGING: the colour paid with
E_EXTRA = 6  # DIGGING: extra cards of that colour asked
E_EXTRA_LOCO = 7  # DIGGING: extra locomotives asked
E_KEEP_MIN = 8  # CHOOSING: tickets that must be kept
E_FINAL = 9  # -1; once someone is down to 2 trains: turns left in the game
E_SETUP = 10  # seats that have still to choose their first tickets
E_DECK_LEFT = 11  # cards in the deck
E_TDECK_LEFT = 12  # tickets in the ticket deck
E_FACE = 13  # 5 face-up card colours, -1 for an empty place
E_DISCARD = 18  # 9 counts: the discard pile
E_UP = 27  # 9 counts: the cards put up for a tunnel
E_REVEALED = 36  # 9 counts: the cards a tunnel revealed
E_WINNERS = 45  # 5 flags
E_OWNER = 50  # 101 route owners, -1 for a free route
E_DECK = E_OWNER + NUM_ROUTES  # 110 card colours; the deck is the first E_DECK_LEFT, drawn from the end
E_TDECK = E_DECK + NUM_CARDS  # 46 ticket ids; the first E_TDECK_LEFT, drawn from the end
E_PLAYER = E_TDECK + NUM_TICKETS  # 5 player blocks
P_POINTS = 0  # route points
P_TRAINS = 1  # trains left
P_DONE = 2  # at the end: tickets completed
P_WON = 3  # at the end: points of the tickets completed
P_LOST = 4  # at the end: points of the tickets not completed
P_LONGEST = 5  # at the end: the longest continuous path
P_BONUS = 6  # at the end: 1 with the longest-path bonus
P_SCORE = 7  # at the end: the final score (route points + won - lost + bonus)
P_KEPT = 8  # tickets kept
P_HAND = 9  # 9 counts
P_TICKETS = P_HAND + NUM_COLOURS  # 46 values: 0 not mine, 1 kept, 2 offered (being chosen)
PLAYER_BLOCK = P_TICKETS + NUM_TICKETS  # 64
ENV_SIZE = E_PLAYER + MAX_PLAYERS * PLAYER_BLOCK
KEPT, OFFERED = 1.0, 2.0

# ---- state: one player's view (length STATE_SIZE); every value is >= 0 ------------------------
S_PLAYERS = 0  # number of players n
S_SEAT = 1  # my seat
S_PHASE = 2  # 5 flags: my phase (MAIN .. CHOOSING) when I am to move; all 0 otherwise
S_OVER = 7  # 1 when the game is over
S_WON = 8  # 1 when I won
S_ROUTE = 9  # PAYING / DIGGING: 1 + the route I claim, else 0
S_COLOUR = 10  # DIGGING: 1 + the colour I paid with
S_EXTRA = 11  # DIGGING: extra cards of that colour asked
S_EXTRA_LOCO = 12  # DIGGING: extra locomotives asked
S_KEEP_MIN = 13  # CHOOSING: tickets I must keep
S_FINAL = 14  # once the last round has begun: 1 + turns left in the game, else 0
S_DECK_LEFT = 15  # cards in the deck
S_TDECK_LEFT = 16  # tickets in the ticket deck
S_FACE = 17  # 9 counts: the face-up cards by colour
S_DISCARD = 26  # 9 counts: the discard pile
S_UP = 35  # 9 counts: the cards I put up for a tunnel
S_REVEALED = 44  # 9 counts: the cards the tunnel revealed
S_TO_MOVE = 53  # 5 flags: who moves (me, then the next seats); all 0 at the end
S_WINNERS = 58  # 5 flags: the winners at the end (me, then the next seats)
S_OWNER = 63  # 101 values: 0 free, 1 + the owner's seat counted from me (1 mine, 2 the next seat's, ...)
S_HAND = S_OWNER + NUM_ROUTES  # 9 counts: my cards
S_TICKETS = S_HAND + NUM_COLOURS  # 46 values: 0 not mine, 1 kept, 2 offered to me now
S_SEATS = S_TICKETS + NUM_TICKETS  # 5 seat blocks: me, then the next seats
B_PRESENT = 0  # 1 when the seat is in the game
B_TRAINS = 1  # trains left
B_CARDS = 2  # train cards in hand
B_TICKETS = 3  # tickets kept
B_POINTS = 4  # route points
B_DONE = 5  # at the end: tickets completed
B_WON = 6  # at the end: points of the tickets completed
B_LOST = 7  # at the end: points of the tickets not completed
B_LONGEST = 8  # at the end: longest continuous path
B_BONUS = 9  # at the end: 1 with the longest-path bonus
SEAT_BLOCK = 10  # (the final score is points + won - lost + 10 x bonus)
STATE_SIZE = S_SEATS + MAX_PLAYERS * SEAT_BLOCK

TURN_LIMIT = 3000  # vis/ENV's cap in moves; a truncated game is a draw (random play: ~520 moves)


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    """The default number of players (``make("TicketToRide", players=n)`` chooses another)."""
    return DEFAULT_PLAYERS


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
def draw_card(env) -> int:
    """The top card of the deck (the discard pile shuffled in when the deck is empty), -1 if none."""
    left = int(env[E_DECK_LEFT])
    if left == 0:
        for c in range(NUM_COLOURS):
            for _ in range(int(env[E_DISCARD + c])):
                env[E_DECK + left] = c
                left += 1
            env[E_DISCARD + c] = 0.0
        shuffle_into(env, E_DECK, left)
        if left == 0:
            return -1
    env[E_DECK_LEFT] = left - 1
    return int(env[E_DECK + left - 1])


@njit(cache=True)
def cards_left(env) -> float:
    """Cards that can still be drawn blind: the deck and the discard pile."""
    total = env[E_DECK_LEFT]
    for c in range(NUM_COLOURS):
        total += env[E_DISCARD + c]
    return total


@njit(cache=True)
def face_locos(env) -> int:
    count = 0
    for k in range(FACE_UP):
        count += env[E_FACE + k] == LOCO
    return count


@njit(cache=True)
def refill_face(env):
    """Fill the empty face-up places; while 3 of them are locomotives, discard all 5 and deal
    again (given up when the deck and the pile hold too few other cards to ever break it)."""
    for k in range(FACE_UP):
        if env[E_FACE + k] < 0:
            env[E_FACE + k] = draw_card(env)
    for _ in range(50):
        if face_locos(env) < 3:
            return
        others = 0.0
        for c in range(1, NUM_COLOURS):
            others += env[E_DISCARD + c]
        for i in range(int(env[E_DECK_LEFT])):
            others += env[E_DECK + i] != LOCO
        for k in range(FACE_UP):
            others += env[E_FACE + k] > LOCO
        if others < 3:
            return
        for k in range(FACE_UP):
            if env[E_FACE + k] >= 0:
                env[E_DISCARD + int(env[E_FACE + k])] += 1.0
            env[E_FACE + k] = -1.0
        for k in range(FACE_UP):
            env[E_FACE + k] = draw_card(env)


@njit(cache=True)
def offer_tickets(env, base, count):
    """Move up to ``count`` tickets from the top of the ticket deck to the player's offer."""
    for _ in range(count):
        left = int(env[E_TDECK_LEFT])
        if left == 0:
            return
        env[base + P_TICKETS + int(env[E_TDECK + left - 1])] = OFFERED
        env[E_TDECK_LEFT] = left - 1


@njit(cache=True)
def initEnv(players=DEFAULT_PLAYERS):
    """A new game for ``players`` (2..5): cards and tickets dealt, seat 0 to choose its tickets."""
    n = min(max(int(players), MIN_PLAYERS), MAX_PLAYERS)
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = n
    env[E_PHASE] = CHOOSING
    env[E_RESULT] = -1.0
    env[E_ROUTE] = -1.0
    env[E_FINAL] = -1.0
    env[E_SETUP] = n
    env[E_KEEP_MIN] = 2.0
    for r in range(NUM_ROUTES):
        env[E_OWNER + r] = -1.0
    i = 0
    for c in range(NUM_COLOURS):
        for _ in range(DECK_COUNTS[c]):
            env[E_DECK + i] = c
            i += 1
    env[E_DECK_LEFT] = i
    shuffle_into(env, E_DECK, i)
    # the long tickets first (one each, the rest leave the game), then the normal deck
    i = 0
    for t in range(NUM_TICKETS):
        if TICKET_LONG[t]:
            env[E_TDECK + i] = t
            i += 1
    shuffle_into(env, E_TDECK, i)
    for p in range(n):
        env[player_base(p) + P_TICKETS + int(env[E_TDECK + p])] = OFFERED
    i = 0
    for t in range(NUM_TICKETS):
        if not TICKET_LONG[t]:
            env[E_TDECK + i] = t
            i += 1
    env[E_TDECK_LEFT] = i
    shuffle_into(env, E_TDECK, i)
    for p in range(n):
        base = player_base(p)
        env[base + P_TRAINS] = TRAINS
        offer_tickets(env, base, TICKET_DRAW)
        for _ in range(HAND_SIZE):
            env[base + P_HAND + draw_card(env)] += 1.0
    for k in range(FACE_UP):
        env[E_FACE + k] = -1.0
    refill_face(env)
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_TO_MOVE])


@njit(cache=True)
def getPlayerState(env, player):
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    n = int(env[E_PLAYERS])
    over = env[E_RESULT] >= 0.0
    to_move = int(env[E_TO_MOVE])
    state[S_PLAYERS] = n
    state[S_SEAT] = player
    if over:
        state[S_OVER] = 1.0
        state[S_WON] = env[E_WINNERS + player]
    elif player == to_move:
        phase = int(env[E_PHASE])
        state[S_PHASE + phase - 1] = 1.0
        if phase == PAYING or phase == DIGGING:
            state[S_ROUTE] = env[E_ROUTE] + 1.0
        if phase == DIGGING:
            state[S_COLOUR] = env[E_COLOUR] + 1.0
            state[S_EXTRA] = env[E_EXTRA]
            state[S_EXTRA_LOCO] = env[E_EXTRA_LOCO]
            for c in range(NUM_COLOURS):
                state[S_UP + c] = env[E_UP + c]
                state[S_REVEALED + c] = env[E_REVEALED + c]
        if phase == CHOOSING:
            state[S_KEEP_MIN] = env[E_KEEP_MIN]
    if env[E_FINAL] >= 0.0:
        state[S_FINAL] = env[E_FINAL] + 1.0
    state[S_DECK_LEFT] = env[E_DECK_LEFT]
    state[S_TDECK_LEFT] = env[E_TDECK_LEFT]
    for k in range(FACE_UP):
        if env[E_FACE + k] >= 0:
            state[S_FACE + int(env[E_FACE + k])] += 1.0
    for c in range(NUM_COLOURS):
        state[S_DISCARD + c] = env[E_DISCARD + c]
    for r in range(NUM_ROUTES):
        owner = env[E_OWNER + r]
        if owner >= 0:
            rel = owner - player
            state[S_OWNER + r] = rel + 1.0 if rel >= 0 else rel + n + 1.0
    mine = player_base(player)
    for c in range(NUM_COLOURS):
        state[S_HAND + c] = env[mine + P_HAND + c]
    for t in range(NUM_TICKETS):
        state[S_TICKETS + t] = env[mine + P_TICKETS + t]
    seat = player
    for rel in range(n):
        dst = S_SEATS + rel * SEAT_BLOCK
        src = player_base(seat)
        state[dst + B_PRESENT] = 1.0
        state[dst + B_TRAINS] = env[src + P_TRAINS]
        cards = 0.0
        for c in range(NUM_COLOURS):
            cards += env[src + P_HAND + c]
        state[dst + B_CARDS] = cards
        state[dst + B_TICKETS] = env[src + P_KEPT]
        state[dst + B_POINTS] = env[src + P_POINTS]
        if over:
            for k in range(B_BONUS - B_DONE + 1):  # done .. bonus: the same order in both
                state[dst + B_DONE + k] = env[src + P_DONE + k]
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
    """My phase (MAIN .. CHOOSING) when I am to move in a running game, else 0."""
    if state[S_OVER] > 0.5:
        return 0
    for k in range(NUM_PHASES):
        if state[S_PHASE + k] > 0.5:
            return k + 1
    return 0


@njit(cache=True)
def colour_use(hand, at, route, colour) -> int:
    """Cards of ``colour`` (1..8) spent on ``route`` when paying with it, the rest in locomotives;
    -1 when that colour cannot pay (``hand[at + c]`` holds the count of colour c)."""
    length, ferry, rc = ROUTE_LENGTH[route], ROUTE_LOCOS[route], ROUTE_COLOUR[route]
    if rc >= 0 and colour != rc:
        return -1
    use = min(int(hand[at + colour]), length - ferry)
    if use < 1 or length - use > hand[at + LOCO]:
        return -1
    return use


@njit(cache=True)
def can_pay(hand, at, route, colour) -> bool:
    """True when ``route`` can be paid with ``colour`` (0: locomotives only)."""
    if colour == LOCO:
        return hand[at + LOCO] >= ROUTE_LENGTH[route]
    return colour_use(hand, at, route, colour) >= 0


@njit(cache=True)
def route_open(state, route) -> bool:
    """Free, its twin not mine, and with 2 or 3 players its twin not taken at all."""
    if state[S_OWNER + route] > 0.5:
        return False
    twin = ROUTE_TWIN[route]
    if twin >= 0:
        owner = state[S_OWNER + twin]
        if owner == 1.0 or (owner > 0.5 and state[S_PLAYERS] <= 3):
            return False
    return True


@njit(cache=True)
def can_claim(state, route, most) -> bool:
    """``route_open``, enough trains, and some colour pays (``most``: my largest colour count;
    the colour with the most cards is the best one for a gray route)."""
    length, locos = ROUTE_LENGTH[route], state[S_HAND + LOCO]
    if length > state[S_SEATS + B_TRAINS] or not route_open(state, route):
        return False
    if locos >= length:
        return True
    rc = ROUTE_COLOUR[route]
    cards = state[S_HAND + rc] if rc >= 0 else most
    use = min(cards, length - ROUTE_LOCOS[route])
    return use >= 1 and length - use <= locos


@njit(cache=True)
def most_of_a_colour(state) -> float:
    most = 0.0
    for c in range(1, NUM_COLOURS):
        most = max(most, state[S_HAND + c])
    return most


@njit(cache=True)
def offered(state) -> int:
    count = 0
    for t in range(NUM_TICKETS):
        count += state[S_TICKETS + t] == OFFERED
    return count


@njit(cache=True)
def can_draw(state) -> bool:
    return state[S_DECK_LEFT] > 0 or state[S_DISCARD:S_UP].sum() > 0


@njit(cache=True)
def can_dig(state) -> bool:
    colour = min(max(int(state[S_COLOUR]) - 1, 0), NUM_COLOURS - 1)
    short = state[S_EXTRA] - (state[S_HAND + colour] if colour > LOCO else 0.0)
    return state[S_HAND + LOCO] >= state[S_EXTRA_LOCO] + max(short, 0.0) + (state[S_EXTRA] if colour == LOCO else 0.0)


@njit(cache=True)
def getValidActions(state):
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    phase = state_phase(state)
    if phase == MAIN:
        most = most_of_a_colour(state)
        for r in range(NUM_ROUTES):
            valid[CLAIM + r] = can_claim(state, r, most)
        for c in range(NUM_COLOURS):
            valid[TAKE + c] = state[S_FACE + c] > 0.5
        valid[BLIND] = can_draw(state)
        valid[TICKETS] = state[S_TDECK_LEFT] > 0.5
        if valid.sum() == 0:
            valid[PASS] = 1.0
    elif phase == SECOND:
        for c in range(1, NUM_COLOURS):
            valid[TAKE + c] = state[S_FACE + c] > 0.5
        valid[BLIND] = can_draw(state)
    elif phase == PAYING:
        route = min(max(int(state[S_ROUTE]) - 1, 0), NUM_ROUTES - 1)
        for c in range(NUM_COLOURS):
            valid[PAY + c] = can_pay(state, S_HAND, route, c)
    elif phase == DIGGING:
        valid[DIG] = can_dig(state)
        valid[GIVE_UP] = 1.0
    elif phase == CHOOSING:
        if offered(state) > state[S_KEEP_MIN]:
            for t in range(NUM_TICKETS):
                valid[DISCARD + t] = state[S_TICKETS + t] == OFFERED
        valid[KEEP] = 1.0
    else:
        valid[0] = 1.0
    return valid


# ---- end of the game ---------------------------------------------------------------------------


@njit(cache=True)
def longest_path(env, player) -> int:
    """The longest trail (no route used twice, cities may repeat) in the player's routes: a
    depth-first search over routes with an explicit stack, allocated once per call."""
    used = np.zeros(NUM_ROUTES, dtype=np.bool_)
    city_at = np.zeros(NUM_ROUTES + 1, dtype=np.int64)
    next_at = np.zeros(NUM_ROUTES + 1, dtype=np.int64)
    route_at = np.zeros(NUM_ROUTES + 1, dtype=np.int64)
    best = 0
    for start in range(NUM_CITIES):
        depth, length = 0, 0
        city_at[0], next_at[0] = start, ADJ_START[start]
        while depth >= 0:
            city, k = city_at[depth], next_at[depth]
            if k < ADJ_START[city + 1]:
                next_at[depth] = k + 1
                r = ADJ_ROUTE[k]
                if env[E_OWNER + r] == player and not used[r]:
                    used[r] = True
                    length += ROUTE_LENGTH[r]
                    best = max(best, length)
                    depth += 1
                    city_at[depth], next_at[depth], route_at[depth] = ADJ_OTHER[k], ADJ_START[ADJ_OTHER[k]], r
            else:
                if depth > 0:
                    used[route_at[depth]] = False
                    length -= ROUTE_LENGTH[route_at[depth]]
                depth -= 1
    return best


@njit(cache=True)
def find(parent, city) -> int:
    while parent[city] != city:
        parent[city] = parent[parent[city]]
        city = parent[city]
    return city


@njit(cache=True)
def components(owner, at, me, parent):
    """Union-find over the routes whose ``owner[at + r] == me``, into ``parent``."""
    for c in range(NUM_CITIES):
        parent[c] = c
    for r in range(NUM_ROUTES):
        if owner[at + r] == me:
            a, b = find(parent, ROUTE_ENDS[r, 0]), find(parent, ROUTE_ENDS[r, 1])
            parent[a] = b


@njit(cache=True)
def ranks_above(env, p, q) -> bool:
    """True when player ``p`` ranks above ``q``: score, then tickets done, then the bonus."""
    a, b = player_base(p), player_base(q)
    for field in (P_SCORE, P_DONE, P_BONUS):
        if env[a + field] != env[b + field]:
            return env[a + field] > env[b + field]
    return False


@njit(cache=True)
def end_game(env):
    """Tickets, the longest-path bonus, then the winners (ties: tickets done, then the bonus)."""
    n = int(env[E_PLAYERS])
    parent = np.zeros(NUM_CITIES, dtype=np.int64)
    best = 0.0
    for p in range(n):
        base = player_base(p)
        components(env, E_OWNER, p, parent)
        for t in range(NUM_TICKETS):
            if env[base + P_TICKETS + t] > 0.5:  # kept (an offer left open counts as kept)
                if find(parent, TICKET_ENDS[t, 0]) == find(parent, TICKET_ENDS[t, 1]):
                    env[base + P_WON] += TICKET_POINTS[t]
                    env[base + P_DONE] += 1.0
                else:
                    env[base + P_LOST] += TICKET_POINTS[t]
        env[base + P_LONGEST] = longest_path(env, p)
        best = max(best, env[base + P_LONGEST])
    top = 0
    for p in range(n):
        base = player_base(p)
        env[base + P_BONUS] = best > 0 and env[base + P_LONGEST] == best
        bonus = LONGEST_BONUS * env[base + P_BONUS]
        env[base + P_SCORE] = env[base + P_POINTS] + env[base + P_WON] - env[base + P_LOST] + bonus
    for p in range(1, n):
        if ranks_above(env, p, top):
            top = p
    count = 0
    for p in range(n):
        if not ranks_above(env, top, p):
            env[E_WINNERS + p] = 1.0
            count += 1
    env[E_RESULT] = top if count == 1 else n


@njit(cache=True)
def end_turn(env):
    """The next seat moves; the first tickets are chosen seat by seat; the last round counts down."""
    n = int(env[E_PLAYERS])
    env[E_PHASE] = MAIN
    env[E_ROUTE] = -1.0
    if env[E_FINAL] > 0:
        env[E_FINAL] -= 1.0
        if env[E_FINAL] == 0:
            end_game(env)
            return
    nxt = (int(env[E_TO_MOVE]) + 1) % n
    env[E_TO_MOVE] = nxt
    if env[E_SETUP] > 0:
        env[E_SETUP] -= 1.0
        if env[E_SETUP] > 0:
            env[E_PHASE] = CHOOSING
            env[E_KEEP_MIN] = 2.0


@njit(cache=True)
def claim(env, base, route):
    """The route is the player's: points, trains, and perhaps the last round; the turn ends."""
    env[E_OWNER + route] = env[E_TO_MOVE]
    env[base + P_TRAINS] -= ROUTE_LENGTH[route]
    env[base + P_POINTS] += ROUTE_POINTS[ROUTE_LENGTH[route]]
    if env[base + P_TRAINS] <= 2 and env[E_FINAL] < 0:
        env[E_FINAL] = env[E_PLAYERS] + 1.0  # end_turn takes one: every seat has one more turn
    end_turn(env)


@njit(cache=True)
def spend(env, base, colour, count, to):
    """Move ``count`` cards of ``colour`` from the hand to the counts at ``to``."""
    env[base + P_HAND + colour] -= count
    env[to + colour] += count


@njit(cache=True)
def pay_route(env, base, colour):
    route = int(env[E_ROUTE])
    length = ROUTE_LENGTH[route]
    use = colour_use(env, base + P_HAND, route, colour) if colour > LOCO else 0
    if ROUTE_KIND[route] != TUNNEL:
        spend(env, base, colour, use, E_DISCARD)
        spend(env, base, LOCO, length - use, E_DISCARD)
        claim(env, base, route)
        return
    spend(env, base, colour, use, E_UP)
    spend(env, base, LOCO, length - use, E_UP)
    for _ in range(REVEAL):
        card = draw_card(env)
        if card >= 0:
            env[E_REVEALED + card] += 1.0
    env[E_COLOUR] = colour
    env[E_EXTRA] = env[E_REVEALED + colour] if colour > LOCO else 0.0
    env[E_EXTRA_LOCO] = env[E_REVEALED + LOCO]
    if env[E_EXTRA] + env[E_EXTRA_LOCO] == 0:
        dig(env, base, True)
    else:
        env[E_PHASE] = DIGGING


@njit(cache=True)
def dig(env, base, pay):
    """Settle a tunnel: pay the extra cards and claim it, or take the cards put up back."""
    colour = int(env[E_COLOUR])
    for c in range(NUM_COLOURS):
        env[E_DISCARD + c] += env[E_REVEALED + c]
        env[E_REVEALED + c] = 0.0
        if pay:
            env[E_DISCARD + c] += env[E_UP + c]
        else:
            env[base + P_HAND + c] += env[E_UP + c]
        env[E_UP + c] = 0.0
    if not pay:
        end_turn(env)
        return
    extra = env[E_EXTRA]
    use = min(env[base + P_HAND + colour], extra) if colour > LOCO else 0.0
    spend(env, base, colour, use, E_DISCARD)
    spend(env, base, LOCO, extra - use + env[E_EXTRA_LOCO], E_DISCARD)
    claim(env, base, int(env[E_ROUTE]))


@njit(cache=True)
def draw_turn(env, base, action):
    """Take a face-up card or the top of the deck; the turn ends after two cards, a face-up
    locomotive, or when no second card can be drawn."""
    first = env[E_PHASE] == MAIN
    if action == BLIND:
        card = draw_card(env)
        if card < 0:
            end_turn(env)
            return
    else:
        card = action - TAKE
        for k in range(FACE_UP):
            if env[E_FACE + k] == card:
                env[E_FACE + k] = -1.0
                break
        refill_face(env)
    env[base + P_HAND + card] += 1.0
    if not first or card == LOCO and action != BLIND:
        end_turn(env)
        return
    if cards_left(env) > 0:
        env[E_PHASE] = SECOND
        return
    for k in range(FACE_UP):
        if env[E_FACE + k] > LOCO:
            env[E_PHASE] = SECOND
            return
    end_turn(env)


@njit(cache=True)
def keep_offer(env, base):
    for t in range(NUM_TICKETS):
        if env[base + P_TICKETS + t] == OFFERED:
            env[base + P_TICKETS + t] = KEPT
            env[base + P_KEPT] += 1.0
    end_turn(env)


@njit(cache=True)
def give_back(env, base, ticket):
    """A ticket given back goes under the ticket deck; a long one leaves the game."""
    env[base + P_TICKETS + ticket] = 0.0
    if not TICKET_LONG[ticket]:
        left = int(env[E_TDECK_LEFT])
        for i in range(left, 0, -1):
            env[E_TDECK + i] = env[E_TDECK + i - 1]
        env[E_TDECK] = ticket
        env[E_TDECK_LEFT] = left + 1
    count = 0
    for t in range(NUM_TICKETS):
        count += env[base + P_TICKETS + t] == OFFERED
    if count <= env[E_KEEP_MIN]:
        keep_offer(env, base)


@njit(cache=True)
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0 or action < 0 or action >= NUM_ACTIONS:
        return env
    base = player_base(int(env[E_TO_MOVE]))
    phase = int(env[E_PHASE])
    if phase == MAIN and action < DISCARD:
        env[E_ROUTE] = action
        env[E_PHASE] = PAYING
    elif (phase == MAIN or phase == SECOND) and TAKE <= action <= BLIND:
        draw_turn(env, base, action)
    elif phase == MAIN and action == TICKETS:
        offer_tickets(env, base, TICKET_DRAW)
        env[E_KEEP_MIN] = 1.0
        env[E_PHASE] = CHOOSING
    elif phase == MAIN and action == PASS:
        end_turn(env)
    elif phase == PAYING and PAY <= action < DIG:
        pay_route(env, base, action - PAY)
    elif phase == DIGGING and (action == DIG or action == GIVE_UP):
        dig(env, base, action == DIG)
    elif phase == CHOOSING and DISCARD <= action < TAKE:
        give_back(env, base, action - DISCARD)
    elif phase == CHOOSING and action == KEEP:
        keep_offer(env, base)
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getWinners(env):
    return env[E_WINNERS : E_WINNERS + int(env[E_PLAYERS])].copy()


@njit(cache=True)
def getReturns(env):
    """Each player's final score (route points, tickets, the longest-path bonus)."""
    n = int(env[E_PLAYERS])
    returns = np.zeros(n, dtype=np.float64)
    for p in range(n):
        returns[p] = env[player_base(p) + P_SCORE]
    return returns


@njit(cache=True)
def getReward(state) -> int:
    if state[S_OVER] < 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0
