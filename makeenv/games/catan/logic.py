"""Catan: the rules, as numba functions over flat float64 arrays.

The rules are those of the vis/ENV library (github.com/ngoxuanphong/ENV, ``src/Base/Catan``), for
3 or 4 players (4 by default); README.md lists where this port decides otherwise.

* The board: 19 hexes (4 forest, 3 hills, 4 pasture, 4 fields, 3 mountains, 1 desert) shuffled;
  the robber starts on the desert; the 6s and 8s go first on hexes of which no two touch, then the
  other numbers; 9 ports (5 of 2:1 for one resource, 4 of 3:1) are shuffled over fixed coast spots.
* Set-up in snake order (0, 1, .., n-1, n-1, .., 0): a settlement (at least two edges from any
  other), then a road touching it; the second settlement yields one of each adjacent resource.
* A turn: roll (first, a development card may be played; with none playable the dice roll by
  themselves). A 7: everyone holding more than 7 cards discards half (the roller first, then in
  seat order), then the roller moves the robber to another hex and steals a random card from a
  player with a building there. Otherwise each hex with the number (not under the robber) pays 1
  per settlement and 2 per city, a resource the bank cannot pay in full going to nobody. Then, in
  any order: build (choose the piece, pay, place it), buy a development card, one trade offer to
  the other players, bank and port trades (4:1, 3:1, 2:1), play one development card bought before
  this turn, end the turn.
* Trade offer (vis/ENV's protocol): the proposer adds the cards it gives one at a time (at most 4
  kinds), then the cards it asks one at a time (none of the kinds it gives, at most as many cards
  as the richest other player holds); the others who hold what is asked accept or decline in seat
  order; the proposer trades with one who accepted, or with nobody.
* Longest road (5 or more, sole longest; a tie leaves it where it is; withdrawn or moved when a
  settlement cuts a road) and largest army (3 or more knights, more than the holder) are 2 points.
* The player whose turn it is wins on reaching 10 points (victory cards counted) at any step of
  its turn; nobody else can win during it. After 800 turns the game ends with no winner.
* ``rules=NO_EXCHANGE`` (vis/ENV's ``CatanNoExchange``): no offers; each player's face-down store
  of 5 cards set aside from the bank, dealt during the set-up, one card of which it may move to
  its hand once a turn after the roll; the robber takes a card of its hex's kind from the bank
  instead of robbing; monopoly takes from the bank as many as the others hold; 992 turns at most.

The map adjacency (hexes, corners, edges, coast) is computed at import from hex geometry; the
pieces, numbers, ports and costs are read from ``board.json``. The array layouts are documented in
README.md and beside the constants below.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
from numba import njit

from makeenv.array.numba_helpers import copy_values, fill_values, sum_values

# ---- the board data and the geometry -----------------------------------------------------------
DATA = json.loads((Path(__file__).parent / "board.json").read_text())
RESOURCES = tuple(DATA["resources"])
TERRAINS = tuple(t["name"] for t in DATA["terrains"])
TERRAIN_COLOURS = tuple(t["colour"] for t in DATA["terrains"])
DEV_NAMES = tuple(d["name"] for d in DATA["development_cards"])
DESERT = len(RESOURCES)  # terrain 0..4 yields resource 0..4; 5 is the desert
TERRAIN_DECK = np.array([k for k, t in enumerate(DATA["terrains"]) for _ in range(t["count"])], dtype=np.int64)
RED_NUMBERS = np.array(DATA["red_numbers"], dtype=np.int64)
OTHER_NUMBERS = np.array(DATA["other_numbers"], dtype=np.int64)
PORT_KINDS = np.array([RESOURCES.index(k) if k in RESOURCES else DESERT for k in DATA["ports"]["kinds"]])
DEV_DECK = np.array([d["count"] for d in DATA["development_cards"]], dtype=np.float64)
COST = np.array([DATA["costs"][k] for k in ("road", "settlement", "city", "development")], dtype=np.float64)
C_ROAD, C_SETTLEMENT, C_CITY, C_DEV = 0, 1, 2, 3
MAX_ROADS, MAX_SETTLEMENTS, MAX_CITIES = (DATA["pieces"][k] for k in ("roads", "settlements", "cities"))
BANK_START = float(DATA["bank_per_resource"])
WIN_POINTS = DATA["points_to_win"]
TURN_CAP = DATA["turn_cap"]
NX = DATA["no_exchange"]
STORE_SHARE, STORE_ROUND_1, STORE_ROUND_2, TURN_CAP_NO_EXCHANGE = (
    NX[k] for k in ("set_aside_per_player", "round_1", "round_2", "turn_cap")
)
KNIGHT, ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY, VICTORY = range(5)


def _geometry() -> tuple:
    """Hexes of radius 2 (pointy-top, unit size) in reading order; their corners and sides,
    numbered top to bottom, left to right; the adjacency tables (-1 pads); the coast in order."""
    cells = sorted(((q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2), key=lambda c: (c[1], c[0]))
    centres = [(math.sqrt(3) * (q + r / 2), 1.5 * r) for q, r in cells]
    corners = [
        [(round(x + math.cos(math.radians(60 * k - 90)), 3), round(y + math.sin(math.radians(60 * k - 90)), 3)) for k in range(6)]
        for x, y in centres
    ]  # fmt: skip
    points = sorted({p for c in corners for p in c}, key=lambda p: (p[1], p[0]))
    index = {p: i for i, p in enumerate(points)}
    hex_verts = np.array([[index[p] for p in c] for c in corners], dtype=np.int64)
    sides = sorted(
        {tuple(sorted((int(h[k]), int(h[(k + 1) % 6])))) for h in hex_verts for k in range(6)},
        key=lambda e: ((points[e[0]][1] + points[e[1]][1]) / 2, (points[e[0]][0] + points[e[1]][0]) / 2),
    )
    edge_verts = np.array(sides, dtype=np.int64)

    def table(rows: list[list[int]], width: int) -> np.ndarray:
        out = np.full((len(rows), width), -1, dtype=np.int64)
        for i, row in enumerate(rows):
            out[i, : len(row)] = row
        return out

    nv = len(points)
    vert_hexes = table([[h for h in range(len(cells)) if v in hex_verts[h]] for v in range(nv)], 3)
    vert_edges = table([[e for e in range(len(sides)) if v in edge_verts[e]] for v in range(nv)], 3)
    vert_verts = table(
        [[int(edge_verts[e][edge_verts[e] != v][0]) for e in vert_edges[v] if e >= 0] for v in range(nv)], 3
    )
    hex_hexes = table([[g for g in range(len(cells)) if g != h and len(set(hex_verts[h]) & set(hex_verts[g])) == 2] for h in range(len(cells))], 6)  # fmt: skip
    coast = [e for e in range(len(sides)) if sum(1 for h in hex_verts if set(edge_verts[e]) <= set(h)) == 1]

    def angle(e: int) -> float:
        (x0, y0), (x1, y1) = points[edge_verts[e][0]], points[edge_verts[e][1]]
        return (math.atan2((y0 + y1) / 2, (x0 + x1) / 2) + math.pi / 2) % (2 * math.pi)  # clockwise from the top

    coast.sort(key=angle)
    return (
        hex_verts, edge_verts, vert_hexes, vert_edges, vert_verts, hex_hexes, np.array(coast, dtype=np.int64),
        np.array(centres), np.array(points),
    )  # fmt: skip


HEX_VERTS, EDGE_VERTS, VERT_HEXES, VERT_EDGES, VERT_VERTS, HEX_HEXES, COAST, HEX_XY, VERT_XY = _geometry()
NUM_HEXES, NUM_VERTS, NUM_EDGES = HEX_VERTS.shape[0], VERT_XY.shape[0], EDGE_VERTS.shape[0]  # 19, 54, 72
PORT_EDGES = COAST[np.array(DATA["ports"]["coast_edges"], dtype=np.int64)]
NUM_PORTS = PORT_EDGES.shape[0]
VERT_PORT = np.full(NUM_VERTS, -1, dtype=np.int64)  # the port a corner touches (-1 none)
for _p, _e in enumerate(PORT_EDGES):
    VERT_PORT[EDGE_VERTS[_e]] = _p
if (NUM_HEXES, NUM_VERTS, NUM_EDGES, COAST.shape[0]) != (19, 54, 72, 30):
    raise ValueError("Catan geometry: expected 19 hexes, 54 corners, 72 edges, 30 coast edges; fix _geometry")

# ---- actions -----------------------------------------------------------------------------------
VERTEX = 0  # + v: a settlement (set-up, or after buying one) or a city on corner v (0..53)
EDGE = 54  # + e: a road on edge e (0..71)
HEX = 126  # + h: move the robber to hex h (0..18)
STEAL = 145  # + r - 1: rob the player r seats after me (r = 1..3)
TAKE = 148  # + k: take resource k (year of plenty, monopoly, ask in a trade, from the bank)
GIVE = 153  # + k: give resource k (discard, offer in a trade, to the bank)
ROLL = 158  # roll the dice
PLAY = 159  # + d: play development card d (knight, road building, year of plenty, monopoly)
BUY_ROAD, BUY_SETTLEMENT, BUY_CITY, BUY_DEV = 163, 164, 165, 166
PROPOSE, BANK, END_TURN = 167, 168, 169  # END_TURN is also the only action of a finished game
OFFER_DONE, ASK_DONE = 170, 171  # stop adding cards given / asked
DECLINE, ACCEPT = 172, 173  # answer a trade offer
TRADE_WITH = 174  # + r - 1: trade with the player r seats after me, who accepted
NO_TRADE = 177  # trade with nobody
STORE = 178  # + k: move resource k from my personal store to my hand (the no-exchange rules)
NUM_ACTIONS = 183

# ---- phases (vis/ENV's numbers) ----------------------------------------------------------------
SETUP, ROAD, START, DISCARD, ROBBER, ROB, MAIN, DEV_PICK = 0, 1, 2, 3, 4, 5, 6, 7
SETTLE, CITY, OFFER, ASK, RESPOND, CHOOSE, BANK_GIVE, BANK_TAKE = 8, 9, 10, 11, 12, 13, 14, 15
NUM_PHASES = 16
PHASE_FIRST = np.array([VERTEX, EDGE, ROLL, GIVE, HEX, STEAL, PLAY, TAKE, VERTEX, VERTEX, GIVE, TAKE, DECLINE, TRADE_WITH, GIVE, TAKE])  # fmt: skip
PHASE_END = np.array([EDGE, HEX, PLAY + 4, ROLL, STEAL, TAKE, END_TURN + 1, GIVE, EDGE, EDGE, ROLL, GIVE, TRADE_WITH, NO_TRADE + 1, ROLL, GIVE])  # fmt: skip
# extra actions of a phase outside its range: OFFER_DONE while offering, ASK_DONE while asking
MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 3, 4, 4
VIS_ENV, NO_EXCHANGE = 0, 1  # the rules: vis/ENV's Catan, or its no-exchange variant
RULE_NAMES = ("vis/ENV's Catan", "no exchange")
PARAMETERS = {"players": (3, 4), "rules": (VIS_ENV, NO_EXCHANGE)}
DEFAULTS = {"players": DEFAULT_PLAYERS, "rules": VIS_ENV}

# ---- env: the referee's view -------------------------------------------------------------------
E_PLAYERS, E_TURN, E_PHASE, E_ACTOR, E_RESULT, E_DICE, E_ROBBER = 0, 1, 2, 3, 4, 5, 6
E_ARMY, E_LONGEST = 7, 8  # title holders (-1 none)
E_SETUP_VERT = 9  # the set-up settlement a road must touch (-1 none)
E_DISCARD = 10  # cards the actor still discards
E_DEV = 11  # development card being played (-1 none), and its picks left
E_DEV_LEFT = 12
E_OFFERS = 13  # trade offers left this turn (1 or 0)
E_MAX_ASK = 14  # most cards the offer may ask
E_TERRAIN = 15  # 19 terrains (0..5)
E_NUMBER = E_TERRAIN + NUM_HEXES  # 19 numbers (0 on the desert)
E_PORT = E_NUMBER + NUM_HEXES  # 9 port kinds (0..4 a resource at 2:1, 5 any at 3:1)
E_BANK = E_PORT + NUM_PORTS  # 5 resources
E_DECK = E_BANK + 5  # 5 development cards left, by kind
E_PLAYABLE = E_DECK + 5  # 4 flags: kinds of development card the player to move may still play
E_GIVE = E_PLAYABLE + 4  # 5: the cards offered (a trade) or given (the bank)
E_ASK = E_GIVE + 5  # 5: the cards asked
E_ANSWER = E_ASK + 5  # 4 seats: 0 not asked yet, 1 declined or cannot pay, 2 accepted
E_VERT_OWNER = E_ANSWER + MAX_PLAYERS  # 54: -1 or the seat
E_VERT_LEVEL = E_VERT_OWNER + NUM_VERTS  # 54: 0 empty, 1 settlement, 2 city
E_EDGE_OWNER = E_VERT_LEVEL + NUM_VERTS  # 72: -1 or the seat
E_SEATS = E_EDGE_OWNER + NUM_EDGES
B_RES, B_DEV, B_POINTS, B_KNIGHTS, B_ROAD_LEN, B_ROADS, B_SETTLEMENTS, B_CITIES, B_RATIO = (
    0,
    5,
    10,
    11,
    12,
    13,
    14,
    15,
    16,
)
SEAT_BLOCK = 21  # resources 5, development cards 5, public points, knights played, longest road, pieces 3, ratios 5
E_RULES = E_SEATS + MAX_PLAYERS * SEAT_BLOCK  # VIS_ENV or NO_EXCHANGE
E_STORE = E_RULES + 1  # 4 seats x 5: the personal stores by resource (no exchange)
E_STORE_USED = E_STORE + 5 * MAX_PLAYERS  # 1 when a store card was taken this turn
E_POOL = E_STORE_USED + 1  # 5: store cards not dealt yet, by resource
ENV_SIZE = E_POOL + 5

# ---- state: one player's view (every value >= 0; seats relative to me, 0 = me) -----------------
S_PLAYERS, S_SEAT, S_ACTOR, S_TURN_PLAYER, S_PHASE, S_DICE, S_TURN = 0, 1, 2, 3, 4, 5, 6
S_OVER, S_WON, S_ROBBER, S_ARMY, S_LONGEST, S_SETUP_VERT = 7, 8, 9, 10, 11, 12  # holders/vertex + 1 (0 none)
S_DISCARD, S_DEV, S_DEV_LEFT, S_OFFERS, S_MAX_ASK, S_DECK = 13, 14, 15, 16, 17, 18  # dev + 1; deck: cards left
S_TERRAIN = 19  # 19 terrains
S_NUMBER = S_TERRAIN + NUM_HEXES
S_PORT = S_NUMBER + NUM_HEXES
S_BANK = S_PORT + NUM_PORTS
S_PLAYABLE = S_BANK + 5
S_GIVE = S_PLAYABLE + 4
S_ASK = S_GIVE + 5
S_ANSWER = S_ASK + 5  # by relative seat
S_VERT_OWNER = S_ANSWER + MAX_PLAYERS  # relative seat + 1 (0 empty)
S_VERT_LEVEL = S_VERT_OWNER + NUM_VERTS
S_EDGE_OWNER = S_VERT_LEVEL + NUM_VERTS  # relative seat + 1 (0 empty)
S_SEATS = S_EDGE_OWNER + NUM_EDGES
# a seat block: resources 5 and development cards 5 (mine only; 0 for the others), then:
P_RES_TOTAL, P_DEV_TOTAL, P_POINTS = 10, 11, 12  # points: public, plus my victory cards in my block
P_KNIGHTS, P_ROAD_LEN, P_ROADS, P_SETTLEMENTS, P_CITIES, P_RATIO = 13, 14, 15, 16, 17, 18  # ratios: mine only
S_SEAT_BLOCK = 23
S_RULES = S_SEATS + MAX_PLAYERS * S_SEAT_BLOCK  # VIS_ENV or NO_EXCHANGE
S_STORE = S_RULES + 1  # 5: my personal store by resource (no exchange)
S_STORE_SIZE = S_STORE + 5  # 4: cards in the store of each relative seat
S_STORE_USED = S_STORE_SIZE + MAX_PLAYERS  # 1 when a store card was taken this turn
STATE_SIZE = S_STORE_USED + 1


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    """The default number of players (``make("Catan", players=3)`` chooses 3)."""
    return DEFAULT_PLAYERS


@njit(cache=True)
def seat_base(seat) -> int:
    return E_SEATS + seat * SEAT_BLOCK


@njit(cache=True)
def setup_player(turn, n) -> int:
    """The player of set-up turn ``turn`` (0..2n-1), in snake order."""
    return turn if turn < n else 2 * n - 1 - turn


@njit(cache=True)
def initEnv(players=DEFAULT_PLAYERS, rules=VIS_ENV):
    """A new board (6s and 8s apart), a full bank and deck; seat 0 places the first settlement.
    The no-exchange rules set the stores' cards aside and deal seat 0 its first ones."""
    n = min(max(int(players), MIN_PLAYERS), MAX_PLAYERS)
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = n
    env[E_RESULT] = -1.0
    env[E_ARMY] = -1.0
    env[E_LONGEST] = -1.0
    env[E_SETUP_VERT] = -1.0
    env[E_DEV] = -1.0
    terrain = TERRAIN_DECK.copy()
    np.random.shuffle(terrain)
    numbers = np.zeros(NUM_HEXES, dtype=np.int64)
    placed = True
    while True:  # the 6s and 8s on hexes of which no two touch (a rare dead end starts again)
        for h in range(NUM_HEXES):
            numbers[h] = 0
        free = terrain != DESERT
        placed = True
        for i in range(RED_NUMBERS.shape[0]):
            options = np.nonzero(free)[0]
            if options.shape[0] == 0:
                placed = False
                break
            h = options[np.random.randint(options.shape[0])]
            numbers[h] = RED_NUMBERS[i]
            free[h] = False
            for g in HEX_HEXES[h]:
                if g >= 0:
                    free[g] = False
        if placed:
            break
    rest = OTHER_NUMBERS.copy()
    np.random.shuffle(rest)
    k = 0
    for h in range(NUM_HEXES):
        env[E_TERRAIN + h] = terrain[h]
        if terrain[h] == DESERT:
            env[E_ROBBER] = h
        elif numbers[h] == 0:
            numbers[h] = rest[k]
            k += 1
        env[E_NUMBER + h] = numbers[h]
    ports = PORT_KINDS.copy()
    np.random.shuffle(ports)
    for p in range(NUM_PORTS):
        env[E_PORT + p] = ports[p]
    # (loops and helpers, not slices: each slice costs numba compile time)
    fill_values(env, E_BANK, 5, BANK_START)
    for k in range(5):
        env[E_DECK + k] = DEV_DECK[k]
    fill_values(env, E_VERT_OWNER, NUM_VERTS, -1.0)
    fill_values(env, E_EDGE_OWNER, NUM_EDGES, -1.0)
    for p in range(n):
        fill_values(env, seat_base(p) + B_RATIO, 5, 4.0)
    if int(rules) == NO_EXCHANGE:
        env[E_RULES] = NO_EXCHANGE
        for k in range(5):
            env[E_POOL + k] = STORE_SHARE * n
            env[E_BANK + k] -= STORE_SHARE * n
        deal_store(env)
    return env


@njit(cache=True)
def draw_card(env, start) -> int:
    """A card drawn at random from the 5 counts at ``env[start]`` (each card equally likely;
    removed)."""
    pick = np.random.random() * sum_values(env, start, 5)
    k = 4
    for j in range(5):
        pick -= env[start + j]
        if pick < 0.0 and env[start + j] > 0.0:
            k = j
            break
    env[start + k] -= 1.0
    return k


@njit(cache=True)
def deal_store(env):
    """The set-up player's store cards for this set-up turn: round_1 + seat in the first round,
    round_2 - seat in the second, drawn at random from the cards set aside."""
    n = int(env[E_PLAYERS])
    seat = turn_player(env)
    count = STORE_ROUND_1 + seat if env[E_TURN] < n else STORE_ROUND_2 - seat
    for _ in range(count):
        env[E_STORE + 5 * seat + draw_card(env, E_POOL)] += 1.0


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_ACTOR])


@njit(cache=True)
def turn_player(env) -> int:
    """The player whose turn it is (the set-up's snake order for the first 2n turns)."""
    n = int(env[E_PLAYERS])
    turn = int(env[E_TURN])
    return setup_player(turn, n) if turn < 2 * n else turn % n


@njit(cache=True)
def getPlayerState(env, player):
    n = int(env[E_PLAYERS])
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    state[S_PLAYERS] = n
    state[S_SEAT] = player
    state[S_ACTOR] = (int(env[E_ACTOR]) - player + n) % n
    state[S_TURN_PLAYER] = (turn_player(env) - player + n) % n
    state[S_PHASE] = env[E_PHASE]
    state[S_DICE] = env[E_DICE]
    state[S_TURN] = env[E_TURN]
    over = env[E_RESULT] >= 0.0
    state[S_OVER] = 1.0 if over else 0.0
    state[S_WON] = 1.0 if over and int(env[E_RESULT]) == player else 0.0
    state[S_ROBBER] = env[E_ROBBER]
    for s, e in ((S_ARMY, E_ARMY), (S_LONGEST, E_LONGEST)):
        state[s] = (int(env[e]) - player + n) % n + 1 if env[e] >= 0.0 else 0.0
    state[S_SETUP_VERT] = env[E_SETUP_VERT] + 1.0
    state[S_DISCARD] = env[E_DISCARD]
    state[S_DEV] = env[E_DEV] + 1.0
    state[S_DEV_LEFT] = env[E_DEV_LEFT]
    state[S_OFFERS] = env[E_OFFERS]
    state[S_MAX_ASK] = env[E_MAX_ASK]
    # (copies and sums by helpers, not slices: each slice costs numba compile time)
    state[S_DECK] = sum_values(env, E_DECK, 5)
    copy_values(state, S_TERRAIN, env, E_TERRAIN, 2 * NUM_HEXES + NUM_PORTS + 5)
    if int(env[E_ACTOR]) == player:
        copy_values(state, S_PLAYABLE, env, E_PLAYABLE, 4)
    copy_values(state, S_GIVE, env, E_GIVE, 10)
    for rel in range(n):
        seat = (player + rel) % n
        state[S_ANSWER + rel] = env[E_ANSWER + seat]
    for v in range(NUM_VERTS):
        owner = env[E_VERT_OWNER + v]
        if owner >= 0.0:
            state[S_VERT_OWNER + v] = (int(owner) - player + n) % n + 1
            state[S_VERT_LEVEL + v] = env[E_VERT_LEVEL + v]
    for e in range(NUM_EDGES):
        owner = env[E_EDGE_OWNER + e]
        if owner >= 0.0:
            state[S_EDGE_OWNER + e] = (int(owner) - player + n) % n + 1
    for rel in range(n):
        src = seat_base((player + rel) % n)
        dst = S_SEATS + rel * S_SEAT_BLOCK
        if rel == 0:
            copy_values(state, dst, env, src, 10)
            copy_values(state, dst + P_RATIO, env, src + B_RATIO, 5)
        state[dst + P_RES_TOTAL] = sum_values(env, src, 5)
        state[dst + P_DEV_TOTAL] = sum_values(env, src + B_DEV, 5)
        state[dst + P_POINTS] = env[src + B_POINTS] + (env[src + B_DEV + VICTORY] if rel == 0 else 0.0)
        copy_values(state, dst + P_KNIGHTS, env, src + B_KNIGHTS, 5)
        state[S_STORE_SIZE + rel] = sum_values(env, E_STORE + 5 * ((player + rel) % n), 5)
    state[S_RULES] = env[E_RULES]
    copy_values(state, S_STORE, env, E_STORE + 5 * player, 5)
    state[S_STORE_USED] = env[E_STORE_USED]
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, int(env[E_ACTOR]))


# ---- validity, read from a state ---------------------------------------------------------------


@njit(cache=True)
def mine(state, rel, k) -> float:
    """Value ``k`` of the block of the seat ``rel`` places after me."""
    return state[S_SEATS + rel * S_SEAT_BLOCK + k]


@njit(cache=True)
def can_pay(state, cost) -> bool:
    for k in range(5):
        if state[S_SEATS + k] < COST[cost, k]:
            return False
    return True


@njit(cache=True)
def settlement_spot(state, v, need_road) -> bool:
    """Corner ``v`` is empty with empty neighbours (and, when ``need_road``, touches my road)."""
    if state[S_VERT_OWNER + v] > 0.0:
        return False
    for u in VERT_VERTS[v]:
        if u >= 0 and state[S_VERT_OWNER + u] > 0.0:
            return False
    if not need_road:
        return True
    for e in VERT_EDGES[v]:
        if e >= 0 and state[S_EDGE_OWNER + e] == 1.0:
            return True
    return False


@njit(cache=True)
def road_spot(state, e) -> bool:
    """Edge ``e`` is free and joins my network at a corner no other player holds (in set-up: it
    touches the settlement just placed)."""
    if state[S_EDGE_OWNER + e] > 0.0:
        return False
    setup = int(state[S_SETUP_VERT]) - 1
    for v in EDGE_VERTS[e]:
        if setup >= 0:
            if v == setup:
                return True
            continue
        owner = state[S_VERT_OWNER + v]
        if owner == 1.0:
            return True
        if owner > 0.0:
            continue
        for f in VERT_EDGES[v]:
            if f >= 0 and f != e and state[S_EDGE_OWNER + f] == 1.0:
                return True
    return False


@njit(cache=True)
def any_road_spot(state) -> bool:
    if mine(state, 0, P_ROADS) >= MAX_ROADS:
        return False
    for e in range(NUM_EDGES):
        if road_spot(state, e):
            return True
    return False


@njit(cache=True)
def any_settlement_spot(state) -> bool:
    for v in range(NUM_VERTS):
        if settlement_spot(state, v, True):
            return True
    return False


@njit(cache=True)
def bank_gives(state, k) -> bool:
    """I can give resource ``k`` to the bank at my ratio for another resource it holds."""
    if state[S_SEATS + k] < mine(state, 0, P_RATIO + k):
        return False
    for j in range(5):
        if j != k and state[S_BANK + j] > 0.0:
            return True
    return False


@njit(cache=True)
def can_play(state, d) -> bool:
    if state[S_PLAYABLE + d] < 0.5:
        return False
    if d == ROAD_BUILDING:
        return any_road_spot(state)
    if d == YEAR_OF_PLENTY:
        return sum_values(state, S_BANK, 5) > 0.0
    return True


@njit(cache=True)
def main_allows(state, a) -> bool:
    if PLAY <= a < PLAY + 4:
        return can_play(state, a - PLAY)
    if a >= STORE:
        return state[S_RULES] == NO_EXCHANGE and state[S_STORE_USED] == 0.0 and state[S_STORE + a - STORE] > 0.0
    if a == END_TURN:
        return True
    if sum_values(state, S_SEATS, 5) == 0.0:
        return False
    if a == BUY_ROAD:
        return can_pay(state, C_ROAD) and any_road_spot(state)
    if a == BUY_SETTLEMENT:
        return (
            can_pay(state, C_SETTLEMENT)
            and mine(state, 0, P_SETTLEMENTS) < MAX_SETTLEMENTS
            and any_settlement_spot(state)
        )
    if a == BUY_CITY:
        return can_pay(state, C_CITY) and mine(state, 0, P_SETTLEMENTS) > 0 and mine(state, 0, P_CITIES) < MAX_CITIES
    if a == BUY_DEV:
        return can_pay(state, C_DEV) and state[S_DECK] > 0.0
    if a == PROPOSE:
        if state[S_OFFERS] < 0.5 or state[S_RULES] == NO_EXCHANGE:
            return False
        for rel in range(1, int(state[S_PLAYERS])):
            if mine(state, rel, P_RES_TOTAL) > 0.0:
                return True
        return False
    if a == BANK:
        for k in range(5):
            if bank_gives(state, k):
                return True
    return False


@njit(cache=True)
def my_phase(state) -> int:
    """The phase when I am to move in a running game, else -1."""
    if state[S_OVER] > 0.5 or state[S_ACTOR] > 0.5:
        return -1
    phase = int(state[S_PHASE])
    return phase if 0 <= phase < NUM_PHASES else -1


@njit(cache=True)
def phase_allows(state, phase, a) -> bool:
    """Whether action ``a`` (in the phase's range, or its done action) is valid for me now."""
    if phase == MAIN:
        return main_allows(state, a)
    if phase == START:
        return a == ROLL or can_play(state, a - PLAY)
    if phase == SETUP:
        return settlement_spot(state, a - VERTEX, False)
    if phase == ROAD:
        return road_spot(state, a - EDGE)
    if phase == SETTLE:
        return settlement_spot(state, a - VERTEX, True)
    if phase == CITY:
        return state[S_VERT_OWNER + a - VERTEX] == 1.0 and state[S_VERT_LEVEL + a - VERTEX] == 1.0
    if phase == DISCARD:
        return state[S_SEATS + a - GIVE] > 0.0
    if phase == ROBBER:
        return a - HEX != int(state[S_ROBBER])
    if phase == ROB:
        rel = a - STEAL + 1
        if rel >= int(state[S_PLAYERS]) or mine(state, rel, P_RES_TOTAL) == 0.0:
            return False
        for v in HEX_VERTS[int(state[S_ROBBER])]:
            if state[S_VERT_OWNER + v] == rel + 1:
                return True
        return False
    if phase == DEV_PICK:
        return int(state[S_DEV]) - 1 == MONOPOLY or state[S_BANK + a - TAKE] > 0.0
    if phase == OFFER:
        if a == OFFER_DONE:
            return sum_values(state, S_GIVE, 5) > 0.0
        k = a - GIVE
        if state[S_SEATS + k] <= state[S_GIVE + k]:
            return False
        kinds = 0
        for j in range(5):
            kinds += state[S_GIVE + j] > 0.0
        return bool(state[S_GIVE + k] > 0.0 or kinds < 4)
    if phase == ASK:
        if a == ASK_DONE:
            return sum_values(state, S_ASK, 5) > 0.0
        return state[S_GIVE + a - TAKE] == 0.0
    if phase == RESPOND:
        return True
    if phase == CHOOSE:
        return a == NO_TRADE or state[S_ANSWER + a - TRADE_WITH + 1] == 2.0
    if phase == BANK_GIVE:
        return bank_gives(state, a - GIVE)
    # BANK_TAKE
    k = a - TAKE
    return state[S_BANK + k] > 0.0 and state[S_GIVE + k] == 0.0


@njit(cache=True)
def isValidAction(state, action) -> bool:
    phase = my_phase(state)
    if phase < 0:
        return action == END_TURN and state[S_OVER] > 0.5
    if (phase == OFFER and action == OFFER_DONE) or (phase == ASK and action == ASK_DONE):
        return phase_allows(state, phase, action)
    if phase == MAIN and STORE <= action < STORE + 5:
        return main_allows(state, action)
    if action < PHASE_FIRST[phase] or action >= PHASE_END[phase]:
        return False
    return phase_allows(state, phase, action)


@njit(cache=True)
def getValidActions(state):
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    phase = my_phase(state)
    if phase < 0:
        if state[S_OVER] > 0.5:
            valid[END_TURN] = 1.0
        return valid
    for a in range(PHASE_FIRST[phase], PHASE_END[phase]):
        if phase_allows(state, phase, a):
            valid[a] = 1.0
    done = OFFER_DONE if phase == OFFER else ASK_DONE if phase == ASK else -1
    if done >= 0 and phase_allows(state, phase, done):
        valid[done] = 1.0
    if phase == MAIN:
        for a in range(STORE, STORE + 5):
            valid[a] = 1.0 if main_allows(state, a) else 0.0
    return valid


# ---- the referee -------------------------------------------------------------------------------


@njit(cache=True)
def longest_road(env, seat) -> int:
    """The longest trail of ``seat``'s roads (each road once) not passing through a corner another
    player holds; a depth-first search over (corner, roads used) with an explicit stack."""
    local = np.full(NUM_EDGES, -1, dtype=np.int64)
    count = 0
    for e in range(NUM_EDGES):
        if env[E_EDGE_OWNER + e] == seat:
            local[e] = count
            count += 1
    best = 0
    stack_v = np.empty(4 * MAX_ROADS + 8, dtype=np.int64)
    stack_mask = np.empty(4 * MAX_ROADS + 8, dtype=np.int64)
    stack_len = np.empty(4 * MAX_ROADS + 8, dtype=np.int64)
    for start in range(NUM_VERTS):
        top = 0
        for e in VERT_EDGES[start]:
            if e >= 0 and local[e] >= 0:
                top = 1
        if top == 0:
            continue
        stack_v[0], stack_mask[0], stack_len[0] = start, 0, 0
        while top > 0:
            top -= 1
            v, mask, length = stack_v[top], stack_mask[top], stack_len[top]
            best = max(best, length)
            owner = env[E_VERT_OWNER + v]
            if length > 0 and owner >= 0.0 and owner != seat:
                continue
            for e in VERT_EDGES[v]:
                if e >= 0 and local[e] >= 0 and (mask >> local[e]) & 1 == 0:
                    u = EDGE_VERTS[e, 0] if EDGE_VERTS[e, 1] == v else EDGE_VERTS[e, 1]
                    stack_v[top], stack_mask[top], stack_len[top] = u, mask | (1 << local[e]), length + 1
                    top += 1
    return best


@njit(cache=True)
def move_title(env, title, seat):
    """Give a 2-point title (E_ARMY or E_LONGEST) to ``seat`` (-1: withdraw it)."""
    holder = int(env[title])
    if holder == seat:
        return
    if holder >= 0:
        env[seat_base(holder) + B_POINTS] -= 2.0
    if seat >= 0:
        env[seat_base(seat) + B_POINTS] += 2.0
    env[title] = seat


@njit(cache=True)
def award_longest(env):
    """The longest road to the sole longest of 5 or more; a tie leaves it with a tied holder,
    else nobody holds it."""
    n = int(env[E_PLAYERS])
    best, count, who = 0.0, 0, -1
    for p in range(n):
        length = env[seat_base(p) + B_ROAD_LEN]
        if length > best:
            best, count, who = length, 1, p
        elif length == best:
            count += 1
    holder = int(env[E_LONGEST])
    if best < 5.0:
        move_title(env, E_LONGEST, -1)
    elif count == 1:
        move_title(env, E_LONGEST, who)
    elif holder >= 0 and env[seat_base(holder) + B_ROAD_LEN] < best:
        move_title(env, E_LONGEST, -1)


@njit(cache=True)
def pay(env, seat, cost):
    for k in range(5):
        env[seat_base(seat) + B_RES + k] -= COST[cost, k]
        env[E_BANK + k] += COST[cost, k]


@njit(cache=True)
def place_settlement(env, seat, v):
    env[E_VERT_OWNER + v] = seat
    env[E_VERT_LEVEL + v] = 1.0
    base = seat_base(seat)
    env[base + B_SETTLEMENTS] += 1.0
    env[base + B_POINTS] += 1.0
    port = VERT_PORT[v]
    if port >= 0:
        kind = int(env[E_PORT + port])
        if kind == DESERT:
            for k in range(5):
                env[base + B_RATIO + k] = min(env[base + B_RATIO + k], 3.0)
        else:
            env[base + B_RATIO + kind] = 2.0
    cut = False  # a settlement between two roads of another player cuts them
    for p in range(int(env[E_PLAYERS])):
        if p != seat:
            through = 0
            for e in VERT_EDGES[v]:
                if e >= 0 and env[E_EDGE_OWNER + e] == p:
                    through += 1
            if through == 2:
                env[seat_base(p) + B_ROAD_LEN] = longest_road(env, p)
                cut = True
    if cut:
        award_longest(env)


@njit(cache=True)
def produce(env, total):
    """Every hex with ``total`` (robber aside) pays its owners; a resource the bank cannot pay in
    full is paid to nobody."""
    n = int(env[E_PLAYERS])
    gain = np.zeros((MAX_PLAYERS, 5))
    for h in range(NUM_HEXES):
        if env[E_NUMBER + h] != total or h == int(env[E_ROBBER]):
            continue
        k = int(env[E_TERRAIN + h])
        for v in HEX_VERTS[h]:
            owner = int(env[E_VERT_OWNER + v])
            if owner >= 0:
                gain[owner, k] += env[E_VERT_LEVEL + v]
    for k in range(5):
        wanted = 0.0
        for p in range(MAX_PLAYERS):
            wanted += gain[p, k]
        if wanted <= env[E_BANK + k]:
            for p in range(n):
                env[seat_base(p) + B_RES + k] += gain[p, k]
                env[E_BANK + k] -= gain[p, k]


@njit(cache=True)
def hand(env, seat) -> float:
    return sum_values(env, seat_base(seat), 5)


@njit(cache=True)
def next_discarder(env, first, initial) -> int:
    """The next seat from ``first`` (included) in turn order holding more than 7 cards, stopping
    at the roller (who comes first only in the ``initial`` search); -1 when nobody is left."""
    n = int(env[E_PLAYERS])
    roller = turn_player(env)
    for i in range(n):
        seat = (first + i) % n
        if seat == roller and not (initial and i == 0):
            return -1
        if hand(env, seat) > 7.0:
            return seat
    return -1


@njit(cache=True)
def start_discards(env, first, initial):
    """Discards from ``first`` on, then the roller moves the robber."""
    seat = next_discarder(env, first, initial)
    if seat >= 0:
        env[E_PHASE] = DISCARD
        env[E_ACTOR] = seat
        env[E_DISCARD] = hand(env, seat) // 2
    else:
        env[E_PHASE] = ROBBER
        env[E_ACTOR] = turn_player(env)


@njit(cache=True)
def roll(env):
    total = np.random.randint(1, 7) + np.random.randint(1, 7)
    env[E_DICE] = total
    if total == 7:
        start_discards(env, turn_player(env), True)
    else:
        produce(env, total)
        env[E_PHASE] = MAIN


@njit(cache=True)
def dev_done(env):
    """A development card's effect is over: roll if the dice have not been rolled this turn."""
    env[E_DEV] = -1.0
    env[E_DEV_LEFT] = 0.0
    if env[E_DICE] == 0.0:
        roll(env)
    else:
        env[E_PHASE] = MAIN


@njit(cache=True)
def play_dev(env, seat, d):
    base = seat_base(seat)
    env[base + B_DEV + d] -= 1.0
    fill_values(env, E_PLAYABLE, 4, 0.0)
    env[E_DEV] = d
    if d == KNIGHT:
        env[base + B_KNIGHTS] += 1.0
        knights = env[base + B_KNIGHTS]
        holder = int(env[E_ARMY])
        if knights >= 3.0 and (holder < 0 or knights > env[seat_base(holder) + B_KNIGHTS]):
            move_title(env, E_ARMY, seat)
        env[E_PHASE] = ROBBER
    elif d == ROAD_BUILDING:
        env[E_DEV_LEFT] = 2.0
        env[E_PHASE] = ROAD
    else:
        env[E_DEV_LEFT] = 2.0 if d == YEAR_OF_PLENTY else 1.0
        env[E_PHASE] = DEV_PICK


@njit(cache=True)
def after_robbery(env):
    if int(env[E_DEV]) == KNIGHT:
        dev_done(env)
    else:
        env[E_PHASE] = MAIN


@njit(cache=True)
def can_rob(env, seat, h) -> bool:
    if hand(env, seat) == 0.0:
        return False
    for v in HEX_VERTS[h]:
        if env[E_VERT_OWNER + v] == seat:
            return True
    return False


@njit(cache=True)
def random_card(env, seat) -> int:
    """A resource of ``seat``'s hand drawn at random, each card equally likely."""
    pick = np.random.random() * hand(env, seat)
    for k in range(5):
        pick -= env[seat_base(seat) + k]
        if pick < 0.0:
            return k
    for k in range(4, -1, -1):
        if env[seat_base(seat) + k] > 0.0:
            return k
    return 0


@njit(cache=True)
def next_responder(env, after):
    """Ask the next player after ``after`` who holds the cards asked; back to the proposer when
    nobody is left (to choose, or to its turn when nobody accepted)."""
    n = int(env[E_PLAYERS])
    me = turn_player(env)
    seat = (after + 1) % n
    while seat != me:
        can = True
        for k in range(5):
            if env[seat_base(seat) + k] < env[E_ASK + k]:
                can = False
        if can:
            env[E_PHASE] = RESPOND
            env[E_ACTOR] = seat
            return
        env[E_ANSWER + seat] = 1.0
        seat = (seat + 1) % n
    env[E_ACTOR] = me
    for p in range(n):
        if env[E_ANSWER + p] == 2.0:
            env[E_PHASE] = CHOOSE
            return
    clear_trade(env)


@njit(cache=True)
def clear_trade(env):
    fill_values(env, E_GIVE, 10, 0.0)
    fill_values(env, E_ANSWER, MAX_PLAYERS, 0.0)
    env[E_MAX_ASK] = 0.0
    env[E_PHASE] = MAIN


@njit(cache=True)
def exchange(env, a, b):
    """``a`` gives the cards offered to ``b`` and receives the cards asked."""
    for k in range(5):
        moved = env[E_GIVE + k] - env[E_ASK + k]
        env[seat_base(a) + k] -= moved
        env[seat_base(b) + k] += moved


@njit(cache=True)
def next_turn(env):
    n = int(env[E_PLAYERS])
    env[E_TURN] += 1.0
    env[E_DICE] = 0.0
    env[E_OFFERS] = 1.0
    env[E_STORE_USED] = 0.0
    seat = turn_player(env)
    env[E_ACTOR] = seat
    if env[E_TURN] < 2 * n:
        env[E_PHASE] = SETUP
        if env[E_RULES] == NO_EXCHANGE:
            deal_store(env)
        return
    playable = False
    for d in range(4):
        held = env[seat_base(seat) + B_DEV + d] > 0.0
        env[E_PLAYABLE + d] = 1.0 if held else 0.0
        playable = playable or held
    env[E_PHASE] = START
    if not playable:
        roll(env)


@njit(cache=True)
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0:
        return env
    phase = int(env[E_PHASE])
    me = int(env[E_ACTOR])
    base = seat_base(me)
    n = int(env[E_PLAYERS])
    if phase == SETUP:
        place_settlement(env, me, action - VERTEX)
        if env[E_TURN] >= n:  # the second settlement yields
            for h in VERT_HEXES[action - VERTEX]:
                if h >= 0 and env[E_TERRAIN + h] != DESERT:
                    k = int(env[E_TERRAIN + h])
                    env[base + k] += 1.0
                    env[E_BANK + k] -= 1.0
        env[E_SETUP_VERT] = action - VERTEX
        env[E_PHASE] = ROAD
    elif phase == ROAD:
        env[E_EDGE_OWNER + action - EDGE] = me
        env[base + B_ROADS] += 1.0
        env[base + B_ROAD_LEN] = longest_road(env, me)
        award_longest(env)
        if env[E_SETUP_VERT] >= 0.0:
            env[E_SETUP_VERT] = -1.0
            next_turn(env)
        elif int(env[E_DEV]) == ROAD_BUILDING:
            env[E_DEV_LEFT] -= 1.0
            if env[E_DEV_LEFT] == 0.0 or not any_road_spot(getPlayerState(env, me)):
                dev_done(env)
        else:
            env[E_PHASE] = MAIN
    elif phase == START:
        if action == ROLL:
            roll(env)
        else:
            play_dev(env, me, action - PLAY)
    elif phase == DISCARD:
        env[base + action - GIVE] -= 1.0
        env[E_BANK + action - GIVE] += 1.0
        env[E_DISCARD] -= 1.0
        if env[E_DISCARD] == 0.0:
            start_discards(env, (me + 1) % n, False)
    elif phase == ROBBER:
        h = action - HEX
        env[E_ROBBER] = h
        env[E_PHASE] = MAIN
        k = int(env[E_TERRAIN + h])
        if env[E_RULES] == NO_EXCHANGE:  # the robber takes a card of its hex's kind from the bank
            if k != DESERT and env[E_BANK + k] > 0.0:
                env[E_BANK + k] -= 1.0
                env[base + k] += 1.0
        else:
            for p in range(n):
                if p != me and can_rob(env, p, h):
                    env[E_PHASE] = ROB
        if env[E_PHASE] == MAIN:
            after_robbery(env)
    elif phase == ROB:
        victim = (me + action - STEAL + 1) % n
        k = random_card(env, victim)
        env[seat_base(victim) + k] -= 1.0
        env[base + k] += 1.0
        after_robbery(env)
    elif phase == MAIN:
        if action == END_TURN:
            next_turn(env)
        elif action >= PLAY and action < PLAY + 4:
            play_dev(env, me, action - PLAY)
        elif action == BUY_ROAD:
            pay(env, me, C_ROAD)
            env[E_PHASE] = ROAD
        elif action == BUY_SETTLEMENT:
            pay(env, me, C_SETTLEMENT)
            env[E_PHASE] = SETTLE
        elif action == BUY_CITY:
            pay(env, me, C_CITY)
            env[E_PHASE] = CITY
        elif action == BUY_DEV:
            pay(env, me, C_DEV)
            env[base + B_DEV + draw_card(env, E_DECK)] += 1.0
        elif action >= STORE:
            env[E_STORE + 5 * me + action - STORE] -= 1.0
            env[base + action - STORE] += 1.0
            env[E_STORE_USED] = 1.0
        elif action == PROPOSE:
            env[E_OFFERS] = 0.0
            most = 0.0
            for p in range(n):
                if p != me:
                    most = max(most, hand(env, p))
            env[E_MAX_ASK] = most
            env[E_PHASE] = OFFER
        else:  # BANK
            env[E_PHASE] = BANK_GIVE
    elif phase == SETTLE:
        place_settlement(env, me, action - VERTEX)
        env[E_PHASE] = MAIN
    elif phase == CITY:
        env[E_VERT_LEVEL + action] = 2.0
        env[base + B_SETTLEMENTS] -= 1.0
        env[base + B_CITIES] += 1.0
        env[base + B_POINTS] += 1.0
        env[E_PHASE] = MAIN
    elif phase == DEV_PICK:
        k = action - TAKE
        if int(env[E_DEV]) == MONOPOLY:
            for p in range(n):
                if p == me:
                    continue
                if env[E_RULES] == NO_EXCHANGE:  # as many from the bank as the others hold
                    got = min(env[seat_base(p) + k], env[E_BANK + k])
                    env[E_BANK + k] -= got
                    env[base + k] += got
                else:
                    env[base + k] += env[seat_base(p) + k]
                    env[seat_base(p) + k] = 0.0
            dev_done(env)
        else:
            env[base + k] += 1.0
            env[E_BANK + k] -= 1.0
            env[E_DEV_LEFT] -= 1.0
            if env[E_DEV_LEFT] == 0.0 or sum_values(env, E_BANK, 5) == 0.0:
                dev_done(env)
    elif phase == OFFER:
        if action == OFFER_DONE:
            env[E_PHASE] = ASK
        else:
            env[E_GIVE + action - GIVE] += 1.0
            if sum_values(env, E_GIVE, 5) == hand(env, me):
                env[E_PHASE] = ASK
    elif phase == ASK:
        if action != ASK_DONE:
            env[E_ASK + action - TAKE] += 1.0
        if action == ASK_DONE or sum_values(env, E_ASK, 5) >= env[E_MAX_ASK]:
            next_responder(env, me)
    elif phase == RESPOND:
        env[E_ANSWER + me] = 2.0 if action == ACCEPT else 1.0
        next_responder(env, me)
    elif phase == CHOOSE:
        if action != NO_TRADE:
            exchange(env, me, (me + action - TRADE_WITH + 1) % n)
        clear_trade(env)
    elif phase == BANK_GIVE:
        k = action - GIVE
        env[E_GIVE + k] = env[base + B_RATIO + k]
        env[E_PHASE] = BANK_TAKE
    elif phase == BANK_TAKE:
        for k in range(5):
            env[base + k] -= env[E_GIVE + k]
            env[E_BANK + k] += env[E_GIVE + k]
        env[base + action - TAKE] += 1.0
        env[E_BANK + action - TAKE] -= 1.0
        clear_trade(env)
    check_win(env)
    return env


@njit(cache=True)
def check_win(env):
    """Only the player whose turn it is can win: 10 points with its victory cards; the turn cap
    ends the game with no winner."""
    n = int(env[E_PLAYERS])
    if env[E_TURN] < 2 * n:
        return
    seat = turn_player(env)
    base = seat_base(seat)
    if env[base + B_POINTS] + env[base + B_DEV + VICTORY] >= WIN_POINTS:
        env[E_RESULT] = seat
    elif env[E_TURN] >= (TURN_CAP_NO_EXCHANGE if env[E_RULES] == NO_EXCHANGE else TURN_CAP):
        env[E_RESULT] = n


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getReward(state) -> int:
    if state[S_OVER] < 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0
