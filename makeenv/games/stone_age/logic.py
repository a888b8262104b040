"""Stone Age, 2 to 4 players: the rules, as numba functions over flat float64 arrays.

The rules are those of the vis/ENV library (github.com/ngoxuanphong/ENV, ``src/Base/StoneAge``),
written for 4 players, with its action numbering; README.md lists where this port decides
otherwise (real scores without vis/ENV's 400 offset, culture sets, the tie-break, buildings of one
kind, the published limits for 2 and 3 players).

* Every player starts with 5 workers, 12 food, no field, tools or resources. A round has three
  parts: placing, using the places, feeding.
* Placing: from the round's first player (seat ``round % n``) the players take turns placing
  workers, one place per turn, until all are placed: the field (1 worker), the toolmaker (1), the
  hut (2 workers, while the player has fewer than 10), a resource site (wood, brick, stone, gold:
  any number of one's workers, once a round, at most 7 workers on the site), the hunting grounds
  (any number, also again), a civilisation card (1) or the top of a building stack (1). Field,
  toolmaker, hut, cards and buildings hold one player each.
* Using: from the first player, each player takes back all its workers, one place per move, in
  any order. Field: +1 agriculture (at most 10). Toolmaker: +1 tool (3 tool tiles of at most 4).
  Hut: +1 worker. Resource site / hunting: roll a die per worker, add tools (each tile once a
  round, one-use tools from cards), gain the total divided by the resource's value (wood 3,
  brick 4, stone 5, gold 6; food 2). A card costs as many resources as its place (1 to 4, any
  kinds), paid one at a time when the player can pay; a building costs what it shows (exact
  resources, or 1 to 7 of any kinds, or 4 or 5 resources of exactly 1 to 4 kinds) and scores
  their value (3 per wood .. 6 per gold). A player who cannot pay takes the worker back.
* Feeding: each worker eats 1 food less the agriculture level. A player short of food pays the
  rest in resources or takes -10 points; with too few resources the -10 is automatic.
* Then the taken cards leave the row (the others slide to the cheap end, new cards fill the
  dear end) and taken buildings show the next one of their stack. The game ends there when the
  civilisation deck cannot fill the row or a building stack is empty, or after STEP_CAP moves.
* Final score: points + (distinct culture symbols)^2 per set + multipliers (agriculture, huts,
  tools, workers times the counts on the player's cards) + 1 per resource - penalties. The
  highest score wins; a tie goes to the highest agriculture + tools + workers, then is shared.

Card data is in ``cards.json``. The array layouts are documented in README.md and beside the
constants below.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit

from makeenv.array.numba_helpers import copy_values, fill_values, new_values, sum_values

# ---- card data (cards.json) ----------------------------------------------------------------------
# civilisation card columns
C_FOOD, C_POINTS, C_RES, C_TOOL, C_ONE_USE, C_FIELD, C_ANY = 0, 1, 2, 6, 7, 8, 9
C_EXTRA, C_DICE_ALL, C_ROLL, C_CULTURE, C_MULT_KIND, C_MULT = 10, 11, 12, 13, 14, 15
CIV_FIELDS = 16
# building columns
B_COST, B_ANY, B_COUNT, B_KINDS, B_POINTS = 0, 4, 5, 6, 7
BUILD_FIELDS = 8


def _load_cards() -> tuple:
    """``cards.json`` as arrays: civilisation cards (CIV_FIELDS columns), buildings
    (BUILD_FIELDS columns) and the names used in words."""
    data = json.loads((Path(__file__).parent / "cards.json").read_text())
    res, culture, kinds = data["resources"], data["culture_symbols"], data["multiplier_kinds"]
    values = data["resource_values"]
    civ = np.zeros((len(data["civilisation_cards"]), CIV_FIELDS))
    for i, card in enumerate(data["civilisation_cards"]):
        civ[i, C_FOOD] = card.get("food", 0)
        civ[i, C_POINTS] = card.get("points", 0)
        for r, name in enumerate(res):
            civ[i, C_RES + r] = card.get(name, 0)
        civ[i, C_TOOL] = card.get("tool", 0)
        civ[i, C_ONE_USE] = card.get("one_use_tool", 0)
        civ[i, C_FIELD] = card.get("field", 0)
        civ[i, C_ANY] = card.get("any_resources", 0)
        civ[i, C_EXTRA] = card.get("extra_card", 0)
        civ[i, C_DICE_ALL] = card.get("dice_for_all", 0)
        if "roll" in card:
            civ[i, C_ROLL] = SITE_WOOD + res.index(card["roll"])
        if "culture" in card:
            civ[i, C_CULTURE] = 1 + culture.index(card["culture"])
        if "multiplier" in card:
            civ[i, C_MULT_KIND] = 1 + kinds.index(card["multiplier"][0])
            civ[i, C_MULT] = card["multiplier"][1]
    build = np.zeros((len(data["buildings"]), BUILD_FIELDS))
    for i, b in enumerate(data["buildings"]):
        cost = b.get("cost", [0, 0, 0, 0])
        build[i, B_COST : B_COST + 4] = cost
        build[i, B_POINTS] = sum(c * v for c, v in zip(cost, values))
        build[i, B_ANY] = b.get("any_up_to", 0)
        build[i, B_COUNT] = b.get("count", 0)
        build[i, B_KINDS] = b.get("kinds", 0)
    return civ, build, np.array(values, dtype=np.float64), tuple(res), tuple(culture), tuple(kinds)


# sites (vis/ENV's order): the village, the four resources, the hunting grounds
SITE_FIELD, SITE_TOOLS, SITE_HUT, SITE_WOOD, SITE_HUNT = 0, 1, 2, 3, 7
NUM_SITES = 8
CIV, BUILD, VALUES, RESOURCE_NAMES, CULTURE_NAMES, MULT_NAMES = _load_cards()
NUM_CIV = CIV.shape[0]  # 36
NUM_BUILD = BUILD.shape[0]  # 28
STACK = NUM_BUILD // 4  # 7 buildings a stack
ROW = 4  # civilisation cards on show
MIN_PLAYERS, MAX_PLAYERS, DEFAULT_PLAYERS = 2, 4, 4
START_WORKERS, START_FOOD, MAX_WORKERS, MAX_FIELD, MAX_TILE = 5, 12, 10, 10, 4
SITE_LIMIT = 7  # workers on a resource site
STARVE = 10  # points lost when a player does not feed its workers
STEP_CAP = 1000  # vis/ENV's loop limit: the game ends and is scored after this many moves

# ---- actions (vis/ENV's numbering) -------------------------------------------------------------
DONE = 0  # roll now without (more) tools; the finished game's only action
COUNT = 0  # COUNT + k, k = 1..10: place k workers on the chosen site
PLACE = 11  # 11..18: place on site 0..7
PLACE_CIV = 19  # 19..22: place on the civilisation card at place 0..3 (cost 1..4)
PLACE_BUILD = 23  # 23..26: place on building stack 0..3
FEED_RES, FEED_PENALTY = 27, 28  # short of food: pay resources / take -10 points
TAKE = 29  # 29..36: take the workers back from site 0..7
TOOL = 37  # 37..39: use tool tile 0..2
PAY = 40  # 40..43: pay a wood, brick, stone, gold
ONE_USE = 44  # 44..46: use the one-use tool worth 2, 3, 4
STOP_PAYING = 47  # stop paying for a 1-to-7 building
TAKE_CIV = 48  # 48..51: take the worker back from card place 0..3 (buy it when able)
TAKE_BUILD = 52  # 52..55: take the worker back from stack 0..3 (build when able)
DIE = 56  # 57..62: take the die showing 1..6 (wood, brick, stone, gold, tool, field); 56 unused
FREE = 63  # start choosing the free resources a card gave
GAIN = 64  # 64..67: take a free wood, brick, stone, gold
NUM_ACTIONS = 68

# ---- phases (vis/ENV's numbering) --------------------------------------------------------------
PH_PLACE, PH_COUNT, PH_TAKE, PH_PAY_CIV, PH_TOOLS, PH_PAY_ANY = 0, 1, 2, 3, 4, 5
PH_FEED, PH_DICE, PH_FREE, PH_PAY_KINDS, PH_PAY_FOOD = 6, 7, 8, 9, 10
NUM_PHASES = 11

# ---- env: the referee's view (length ENV_SIZE) -------------------------------------------------
E_PLAYERS = 0  # number of players n
E_TO_MOVE = 1
E_PHASE = 2  # PH_PLACE .. PH_PAY_FOOD
E_RESULT = 3  # -1 running, a seat for a sole winner, n for a shared win
E_ROUND = 4  # rounds played; the round's first player is E_ROUND % n
E_STEPS = 5  # moves made
E_SITE = 6  # COUNT: the site chosen; TOOLS: the site rolled for; paying: 8 + card place, 12 + stack
E_DICE = 7  # TOOLS: the dice total
E_ADDED = 8  # TOOLS: tools added so far
E_OWE = 9  # PAY_FOOD: resources still owed
E_BUYER = 10  # DICE: the player who bought the card
E_CIV_NEXT = 11  # the next card of the civilisation deck (index into E_CIV_DECK)
E_PAID = 12  # 4 resources paid so far for the pending card or building
E_CIV_DICE = 16  # 4 dice of a dice-for-all card, 0 once taken
E_WINNERS = 20  # 4 flags
E_CIV_ROW = 24  # 4 card ids on show, cheapest first
E_CIV_OCC = 28  # 4 seats placed on the cards, -1 free
E_CIV_TAKEN = 32  # 4 flags: bought this round
E_BUILD_LEFT = 36  # 4 buildings left per stack (the top included); 0 for stacks not in play
E_BUILD_OCC = 40  # 4 seats placed on the stacks, -1 free
E_BUILD_TAKEN = 44  # 4 flags: built this round
E_CIV_DECK = 48  # 36 card ids in deck order
E_BUILD_DECK = E_CIV_DECK + NUM_CIV  # 28 building ids, stack k at k*7 .. k*7+6, top first
E_PLAYER = E_BUILD_DECK + NUM_BUILD  # 112: 4 player blocks
P_POINTS = 0  # points gained (buildings, cards)
P_PENALTY = 1  # points lost to hunger
P_FIELD = 2  # agriculture level
P_WORKERS = 3
P_FOOD = 4
P_RES = 5  # wood, brick, stone, gold
P_TOOLS = 9  # 3 tool tiles
P_USED = 12  # 3 flags: the tile was used this round
P_ONE_USE = 15  # 3 flags: holds the one-use tool worth 2, 3, 4
P_HUTS = 18  # buildings built
P_CULTURE = 19  # 8 culture symbol counts
P_MULT = 27  # multipliers for agriculture, huts, tools, workers
P_FREE = 31  # free resources still to choose
P_AT = 32  # workers on sites 0..7
P_FED = 40  # fed this round
PLAYER_BLOCK = 41
ENV_SIZE = E_PLAYER + MAX_PLAYERS * PLAYER_BLOCK  # 276

# ---- state: one player's view (length STATE_SIZE); every value is >= 0 ------------------------
S_PLAYERS = 0
S_SEAT = 1
S_PHASE = 2  # 11 flags: my phase when I am to move; all 0 otherwise
S_OVER = 13
S_WON = 14
S_ROUND = 15
S_STEPS = 16
S_SITE = 17  # 1 + E_SITE while a choice is pending, else 0
S_DICE = 18
S_ADDED = 19
S_OWE = 20
S_CIV_LEFT = 21  # cards left in the civilisation deck
S_PAID = 22  # 4
S_CIV_DICE = 26  # 4
S_FIRST = 30  # 4 flags: the round's first player (me, then the next seats)
S_TO_MOVE = 34  # 4 flags
S_WINNERS = 38  # 4 flags
S_CIV = 42  # 4 places x (present, occupant 1 + relative seat or 0, taken, CIV_FIELDS card columns)
CIV_BLOCK = 3 + CIV_FIELDS  # 19
S_BUILD = S_CIV + ROW * CIV_BLOCK  # 118: 4 stacks x (present, left, occupant, taken, BUILD_FIELDS)
BUILD_BLOCK = 4 + BUILD_FIELDS  # 12
S_SEATS = S_BUILD + 4 * BUILD_BLOCK  # 166: 4 seat blocks, me first
Q_PRESENT = 0
Q_LEFT = 1  # workers not yet placed this round
Q_PLAYER = 2  # the seat's PLAYER_BLOCK values (P_* offsets)
SEAT_BLOCK = Q_PLAYER + PLAYER_BLOCK  # 43
STATE_SIZE = S_SEATS + MAX_PLAYERS * SEAT_BLOCK  # 338


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    """The default number of players (``make("StoneAge", players=n)`` chooses another)."""
    return DEFAULT_PLAYERS


@njit(cache=True)
def base_of(player) -> int:
    return E_PLAYER + player * PLAYER_BLOCK


@njit(cache=True)
def workers_left(env, player) -> int:
    """Workers ``player`` has not placed this round."""
    b = base_of(player)
    out = env[b + P_WORKERS]
    for s in range(NUM_SITES):
        out -= env[b + P_AT + s]
    for k in range(ROW):
        out -= (env[E_CIV_OCC + k] == player) + (env[E_BUILD_OCC + k] == player)
    return int(out)


@njit(cache=True)
def placed_out(env, player) -> int:
    """Workers ``player`` still has out on the board (while using the places)."""
    b = base_of(player)
    return int(env[b + P_WORKERS]) - workers_left(env, player)


@njit(cache=True)
def building_top(env, k) -> int:
    """The building on top of stack ``k``, -1 when empty."""
    left = int(env[E_BUILD_LEFT + k])
    if left <= 0:
        return -1
    return int(env[E_BUILD_DECK + k * STACK + STACK - left])


@njit(cache=True)
def block_score(values, b) -> float:
    """The final score of the player block at ``values[b:]`` (an env's or a state's): points,
    culture sets, multipliers and resources, less hunger penalties."""
    total = values[b + P_POINTS] - values[b + P_PENALTY]
    # the k-th set holds the symbols counted at least k times (no copy: a slice costs compile time)
    level = 1.0
    while True:
        distinct = 0
        for c in range(8):
            if values[b + P_CULTURE + c] >= level:
                distinct += 1
        if distinct == 0:
            break
        total += distinct * distinct
        level += 1.0
    tools = values[b + P_TOOLS] + values[b + P_TOOLS + 1] + values[b + P_TOOLS + 2]
    total += values[b + P_MULT] * values[b + P_FIELD] + values[b + P_MULT + 1] * values[b + P_HUTS]
    total += values[b + P_MULT + 2] * tools + values[b + P_MULT + 3] * values[b + P_WORKERS]
    for r in range(4):
        total += values[b + P_RES + r]
    return total


@njit(cache=True)
def final_score(env, player) -> float:
    return block_score(env, base_of(player))


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_TO_MOVE])


# ---- setup -------------------------------------------------------------------------------------


@njit(cache=True)
def shuffled_ids(env, start, n):
    """``env[start:start+n] = np.random.permutation(n)``, the same draws (numba's Fisher-Yates),
    as a loop: np.random.permutation and a slice cost numba compile time."""
    for k in range(n):
        env[start + k] = k
    i = n - 1
    while i > 0:
        j = start + np.random.randint(0, i + 1)
        env[start + i], env[j] = env[j], env[start + i]
        i -= 1


@njit(cache=True)
def initEnv(players=DEFAULT_PLAYERS):
    """A new game for ``players`` (2..4): decks shuffled, four cards and the stack tops on show."""
    n = min(max(int(players), MIN_PLAYERS), MAX_PLAYERS)
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = n
    env[E_RESULT] = -1.0
    shuffled_ids(env, E_CIV_DECK, NUM_CIV)
    shuffled_ids(env, E_BUILD_DECK, NUM_BUILD)
    for k in range(ROW):
        env[E_CIV_ROW + k] = env[E_CIV_DECK + k]
        env[E_CIV_OCC + k] = -1.0
        env[E_BUILD_OCC + k] = -1.0
        env[E_BUILD_LEFT + k] = STACK if k < n else 0
    env[E_CIV_NEXT] = ROW
    for p in range(n):
        b = base_of(p)
        env[b + P_WORKERS] = START_WORKERS
        env[b + P_FOOD] = START_FOOD
    env[E_PHASE] = PH_PLACE
    return env


# ---- the player's view -------------------------------------------------------------------------


@njit(cache=True)
def relative(seat, me, n) -> float:
    """1 + ``seat`` relative to ``me``, 0 for no seat (-1)."""
    return 0.0 if seat < 0 else 1.0 + (seat - me) % n


@njit(cache=True)
def getPlayerState(env, player):
    n = int(env[E_PLAYERS])
    me = int(player)
    state = np.zeros(STATE_SIZE, dtype=np.float64)
    over = env[E_RESULT] >= 0
    state[S_PLAYERS] = n
    state[S_SEAT] = me
    if not over and int(env[E_TO_MOVE]) == me:
        state[S_PHASE + int(env[E_PHASE])] = 1.0
        if env[E_PHASE] != PH_PLACE and env[E_PHASE] != PH_TAKE:
            state[S_SITE] = env[E_SITE] + 1
    state[S_OVER] = 1.0 if over else 0.0
    state[S_WON] = env[E_WINNERS + me]
    state[S_ROUND] = env[E_ROUND]
    state[S_STEPS] = env[E_STEPS]
    state[S_DICE] = env[E_DICE]
    state[S_ADDED] = env[E_ADDED]
    state[S_OWE] = env[E_OWE]
    state[S_CIV_LEFT] = NUM_CIV - env[E_CIV_NEXT]
    # copies by helpers and loops, not slices: each slice costs numba compile time
    copy_values(state, S_PAID, env, E_PAID, 4)
    copy_values(state, S_CIV_DICE, env, E_CIV_DICE, 4)
    for rel in range(n):
        seat = (me + rel) % n
        state[S_FIRST + rel] = 1.0 if seat == int(env[E_ROUND]) % n else 0.0
        state[S_TO_MOVE + rel] = 1.0 if (not over and seat == int(env[E_TO_MOVE])) else 0.0
        state[S_WINNERS + rel] = env[E_WINNERS + seat]
        q = S_SEATS + rel * SEAT_BLOCK
        state[q + Q_PRESENT] = 1.0
        state[q + Q_LEFT] = workers_left(env, seat)
        copy_values(state, q + Q_PLAYER, env, base_of(seat), PLAYER_BLOCK)
    for k in range(ROW):
        at = S_CIV + k * CIV_BLOCK
        card = int(env[E_CIV_ROW + k])
        if card >= 0 and env[E_RESULT] < 0:
            state[at] = 1.0
            state[at + 1] = relative(int(env[E_CIV_OCC + k]), me, n)
            state[at + 2] = env[E_CIV_TAKEN + k]
            copy_values(state, at + 3, CIV[card], 0, CIV_FIELDS)
        at = S_BUILD + k * BUILD_BLOCK
        top = building_top(env, k)
        if top >= 0:
            state[at] = 1.0
            state[at + 1] = env[E_BUILD_LEFT + k]
            state[at + 2] = relative(int(env[E_BUILD_OCC + k]), me, n)
            state[at + 3] = env[E_BUILD_TAKEN + k]
            copy_values(state, at + 4, BUILD[top], 0, BUILD_FIELDS)
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, int(env[E_TO_MOVE]))


@njit(cache=True)
def state_phase(state) -> int:
    """My phase when I am to move in a running game, else -1."""
    if state[S_OVER] > 0.5:
        return -1
    for k in range(NUM_PHASES):
        if state[S_PHASE + k] > 0.5:
            return k
    return -1


# ---- rules shared by the env and the state -----------------------------------------------------


@njit(cache=True)
def kinds_feasible(paid, stock, count, kinds) -> bool:
    """True when ``paid`` (4 counts) can still grow, from ``stock``, into exactly ``count``
    resources of exactly ``kinds`` kinds."""
    used, total, extra = 0, 0.0, 0.0
    others = np.zeros(4)
    for r in range(4):
        total += paid[r]
        if paid[r] > 0:
            used += 1
            extra += stock[r]
        else:
            others[r] = stock[r]
    need = kinds - used
    if need < 0 or total + need > count:
        return False
    for j in range(need):  # the j-th largest of the others (np.sort costs compile time)
        best = j
        for r in range(j + 1, 4):
            if others[r] > others[best]:
                best = r
        others[j], others[best] = others[best], others[j]
        if others[j] <= 0:
            return False
        extra += others[j]
    return total + extra >= count


@njit(cache=True)
def four(values, at):
    """``values[at:at+4].copy()`` (a slice costs numba compile time)."""
    out = new_values(4)
    copy_values(out, 0, values, at, 4)
    return out


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def can_build(build, values, at) -> bool:
    """True when a player holding the resources ``values[at:at+4]`` can pay for building ``build``."""
    if BUILD[build, B_ANY] > 0:
        return sum_values(values, at, 4) > 0
    if BUILD[build, B_COUNT] > 0:
        return kinds_feasible(np.zeros(4), four(values, at), BUILD[build, B_COUNT], BUILD[build, B_KINDS])
    for r in range(4):
        if values[at + r] < BUILD[build, B_COST + r]:
            return False
    return True


@njit(cache=True)
def tools_ready(player_values, at) -> bool:
    """True when the player block at ``player_values[at:]`` has a tool it may still use."""
    for t in range(3):
        if player_values[at + P_TOOLS + t] > 0 and player_values[at + P_USED + t] < 0.5:
            return True
        if player_values[at + P_ONE_USE + t] > 0:
            return True
    return False


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def site_open(state, site) -> bool:
    """Placing: may I (the state's player) start a new group on ``site``?"""
    n = int(state[S_PLAYERS])
    me = S_SEATS + Q_PLAYER
    total, players, village = 0.0, 0, 0
    for rel in range(n):
        q = S_SEATS + rel * SEAT_BLOCK + Q_PLAYER + P_AT
        total += state[q + site]
        players += state[q + site] > 0
        for v in range(SITE_HUT + 1):
            village += state[q + v] > 0
    if site == SITE_HUNT:
        return True
    if site <= SITE_HUT:
        if total > 0 or (n < 4 and village >= 2):
            return False
        if site == SITE_HUT:
            return state[S_SEATS + Q_LEFT] >= 2 and state[me + P_WORKERS] < MAX_WORKERS
        return True
    return state[me + P_AT + site] == 0 and total < SITE_LIMIT and (n == 4 or players < n - 1)


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def count_limit(state) -> int:
    """COUNT: the most workers I may put on the chosen site."""
    left = int(state[S_SEATS + Q_LEFT])
    site = int(state[S_SITE]) - 1
    if site == SITE_HUNT:
        return left
    total = 0.0
    for rel in range(int(state[S_PLAYERS])):
        total += state[S_SEATS + rel * SEAT_BLOCK + Q_PLAYER + P_AT + site]
    return int(min(left, SITE_LIMIT - total))


@njit(cache=True)
def valid_in_phase(state, phase, action) -> bool:
    """``isValidAction`` for a state whose ``state_phase`` is ``phase``."""
    if phase < 0:
        return action == DONE
    me = S_SEATS + Q_PLAYER
    if phase == PH_PLACE:
        if PLACE <= action < PLACE_CIV:
            return site_open(state, action - PLACE)
        if PLACE_CIV <= action < PLACE_BUILD:
            at = S_CIV + (action - PLACE_CIV) * CIV_BLOCK
            return state[at] > 0.5 and state[at + 1] == 0
        if PLACE_BUILD <= action < FEED_RES:
            at = S_BUILD + (action - PLACE_BUILD) * BUILD_BLOCK
            return state[at] > 0.5 and state[at + 2] == 0
        return False
    if phase == PH_COUNT:
        return COUNT + 1 <= action <= COUNT + count_limit(state)
    if phase == PH_TAKE:
        if TAKE <= action < TOOL:
            return state[me + P_AT + action - TAKE] > 0
        if TAKE_CIV <= action < TAKE_BUILD:
            return state[S_CIV + (action - TAKE_CIV) * CIV_BLOCK + 1] == 1
        if TAKE_BUILD <= action < DIE:
            return state[S_BUILD + (action - TAKE_BUILD) * BUILD_BLOCK + 2] == 1
        return action == FREE and state[me + P_FREE] > 0
    if phase == PH_TOOLS:
        if action == DONE:
            return True
        if TOOL <= action < PAY:
            t = action - TOOL
            return state[me + P_TOOLS + t] > 0 and state[me + P_USED + t] < 0.5
        return ONE_USE <= action < STOP_PAYING and state[me + P_ONE_USE + action - ONE_USE] > 0
    if phase == PH_FEED:
        return action == FEED_RES or action == FEED_PENALTY
    if phase == PH_DICE:
        if DIE < action < FREE:
            for d in range(4):
                if state[S_CIV_DICE + d] == action - DIE:
                    return True
        return False
    if phase == PH_FREE:
        return GAIN <= action < NUM_ACTIONS
    if phase == PH_PAY_ANY and action == STOP_PAYING:
        paid = state[S_PAID] + state[S_PAID + 1] + state[S_PAID + 2] + state[S_PAID + 3]
        return paid > 0
    if not PAY <= action < ONE_USE:
        return False
    r = action - PAY
    if state[me + P_RES + r] <= 0:
        return False
    if phase == PH_PAY_KINDS:
        at = S_BUILD + (int(state[S_SITE]) - 1 - 12) * BUILD_BLOCK + 4
        paid = four(state, S_PAID)
        left = four(state, me + P_RES)
        paid[r] += 1
        left[r] -= 1
        return kinds_feasible(paid, left, state[at + B_COUNT], state[at + B_KINDS])
    return True  # PAY_CIV, PAY_ANY, PAY_FOOD: any resource held


@njit(cache=True)
def isValidAction(state, action) -> bool:
    if action < 0 or action >= NUM_ACTIONS:
        return False
    return valid_in_phase(state, state_phase(state), action)


# actions worth asking about in each phase (the others are never valid there)
PHASE_ACTIONS = (
    np.arange(PLACE, FEED_RES),
    np.arange(COUNT + 1, PLACE),
    np.concatenate((np.arange(TAKE, TOOL), np.arange(TAKE_CIV, DIE), np.array([FREE]))),
    np.arange(PAY, ONE_USE),
    np.concatenate((np.array([DONE]), np.arange(TOOL, PAY), np.arange(ONE_USE, STOP_PAYING))),
    np.concatenate((np.arange(PAY, ONE_USE), np.array([STOP_PAYING]))),
    np.array([FEED_RES, FEED_PENALTY]),
    np.arange(DIE + 1, FREE),
    np.arange(GAIN, NUM_ACTIONS),
    np.arange(PAY, ONE_USE),
    np.arange(PAY, ONE_USE),
)


@njit(cache=True)
def getValidActions(state):
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    phase = state_phase(state)
    if phase < 0:
        valid[DONE] = 1.0
        return valid
    for a in PHASE_ACTIONS[phase]:
        if valid_in_phase(state, phase, a):
            valid[a] = 1.0
    return valid


# ---- stepping ----------------------------------------------------------------------------------


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def roll(dice) -> float:
    total = 0
    for _ in range(dice):
        total += np.random.randint(1, 7)
    return float(total)


@njit(cache=True)
def add_tool(env, b):
    """+1 on the lowest tool tile (nothing once all three show 4)."""
    t = 0
    for j in range(1, 3):
        if env[b + P_TOOLS + j] < env[b + P_TOOLS + t]:
            t = j
    if env[b + P_TOOLS + t] < MAX_TILE:
        env[b + P_TOOLS + t] += 1


@njit(cache=True)
def gain(env, b, site, total):
    """The yield of a roll of ``total`` (dice plus tools) on ``site``."""
    if site == SITE_HUNT:
        env[b + P_FOOD] += total // 2
    else:
        r = site - SITE_WOOD
        env[b + P_RES + r] += total // VALUES[r]


@njit(cache=True)
def roll_for(env, b, site, dice):
    """Roll ``dice`` for ``site``; with a tool to use, wait for the TOOLS choices."""
    total = roll(dice)
    if tools_ready(env, b):
        env[E_PHASE] = PH_TOOLS
        env[E_SITE] = site
        env[E_DICE] = total
        env[E_ADDED] = 0.0
    else:
        gain(env, b, site, total)


@njit(cache=True)
def end_game(env):
    """Final scores; the best wins, ties go to agriculture + tools + workers, then are shared."""
    n = int(env[E_PLAYERS])
    best = np.zeros(n)
    top = -np.inf  # best.max(), as a loop (a numpy reduction costs numba compile time)
    for p in range(n):
        b = base_of(p)
        tie = env[b + P_FIELD] + env[b + P_WORKERS]
        tie += env[b + P_TOOLS] + env[b + P_TOOLS + 1] + env[b + P_TOOLS + 2]
        best[p] = final_score(env, p) * 100.0 + tie
        top = max(top, best[p])
    winners = 0
    for p in range(n):
        if best[p] == top:
            env[E_WINNERS + p] = 1.0
            winners += 1
            env[E_RESULT] = p
    if winners > 1:
        env[E_RESULT] = n


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def new_round(env):
    """Refill the card row and the building stacks, or end the game; the next first player."""
    n = int(env[E_PLAYERS])
    taken = 0
    kept = 0
    for k in range(ROW):
        if env[E_CIV_TAKEN + k] > 0:
            taken += 1
        else:
            env[E_CIV_ROW + kept] = env[E_CIV_ROW + k]
            kept += 1
    over = NUM_CIV - env[E_CIV_NEXT] < taken
    for k in range(ROW):
        if env[E_BUILD_TAKEN + k] > 0:
            env[E_BUILD_LEFT + k] -= 1
            over = over or env[E_BUILD_LEFT + k] == 0
        env[E_BUILD_TAKEN + k] = 0.0
        env[E_CIV_TAKEN + k] = 0.0
        env[E_CIV_OCC + k] = -1.0
        env[E_BUILD_OCC + k] = -1.0
    if over:
        end_game(env)
        return
    for k in range(kept, ROW):
        env[E_CIV_ROW + k] = env[E_CIV_DECK + int(env[E_CIV_NEXT])]
        env[E_CIV_NEXT] += 1
    for p in range(n):
        b = base_of(p)
        env[b + P_FED] = 0.0
        fill_values(env, b + P_USED, 3, 0.0)  # not a slice: a slice costs numba compile time
    env[E_ROUND] += 1
    env[E_TO_MOVE] = int(env[E_ROUND]) % n
    env[E_PHASE] = PH_PLACE


@njit(cache=True)
def feed(env):
    """Feed every player not yet fed (from the first player); stop at one who must choose."""
    n = int(env[E_PLAYERS])
    first = int(env[E_ROUND]) % n
    for i in range(n):
        p = (first + i) % n
        b = base_of(p)
        if env[b + P_FED] > 0:
            continue
        need = env[b + P_WORKERS] - env[b + P_FIELD]
        stock = env[b + P_RES] + env[b + P_RES + 1] + env[b + P_RES + 2] + env[b + P_RES + 3]
        if env[b + P_FOOD] >= need:
            env[b + P_FOOD] -= max(need, 0.0)
        elif env[b + P_FOOD] + stock < need:
            env[b + P_PENALTY] += STARVE
            env[b + P_FOOD] = 0.0
        else:
            env[E_OWE] = need - env[b + P_FOOD]
            env[b + P_FOOD] = 0.0
            env[E_TO_MOVE] = p
            env[E_PHASE] = PH_FEED
            return
        env[b + P_FED] = 1.0
    new_round(env)


@njit(cache=True)
def after_take(env):
    """Back in the TAKE phase: the player goes on while it has workers out or free resources
    to choose; then the next player, and after the last one the feeding."""
    env[E_PHASE] = PH_TAKE
    p = int(env[E_TO_MOVE])
    b = base_of(p)
    if placed_out(env, p) > 0 or env[b + P_FREE] > 0:
        return
    n = int(env[E_PLAYERS])
    nxt = (p + 1) % n
    if nxt == int(env[E_ROUND]) % n:
        feed(env)
    else:
        env[E_TO_MOVE] = nxt


@njit(cache=True)
def next_placer(env):
    """The next player with workers to place, else the first player starts taking them back."""
    n = int(env[E_PLAYERS])
    p = int(env[E_TO_MOVE])
    env[E_PHASE] = PH_PLACE
    for i in range(1, n + 1):
        q = (p + i) % n
        if workers_left(env, q) > 0:
            env[E_TO_MOVE] = q
            return
    env[E_TO_MOVE] = int(env[E_ROUND]) % n
    env[E_PHASE] = PH_TAKE


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def buy_card(env, b, k):
    """The card at place ``k`` is paid for: its symbol or multiplier, then its immediate effect."""
    card = int(env[E_CIV_ROW + k])
    env[E_CIV_TAKEN + k] = 1.0
    env[E_PHASE] = PH_TAKE
    score_part(env, b, card)
    env[b + P_FOOD] += CIV[card, C_FOOD]
    env[b + P_POINTS] += CIV[card, C_POINTS]
    for r in range(4):  # not a slice: a slice costs numba compile time
        env[b + P_RES + r] += CIV[card, C_RES + r]
    env[b + P_FIELD] = min(env[b + P_FIELD] + CIV[card, C_FIELD], MAX_FIELD)
    env[b + P_FREE] += CIV[card, C_ANY]
    if CIV[card, C_TOOL] > 0:
        add_tool(env, b)
    if CIV[card, C_ONE_USE] > 0:
        env[b + P_ONE_USE + int(CIV[card, C_ONE_USE]) - 2] = 1.0
    if CIV[card, C_EXTRA] > 0 and env[E_CIV_NEXT] < NUM_CIV:
        score_part(env, b, int(env[E_CIV_DECK + int(env[E_CIV_NEXT])]))
        env[E_CIV_NEXT] += 1
    if CIV[card, C_ROLL] > 0:
        roll_for(env, b, int(CIV[card, C_ROLL]), 2)
    if CIV[card, C_DICE_ALL] > 0:
        for d in range(int(env[E_PLAYERS])):
            env[E_CIV_DICE + d] = np.random.randint(1, 7)
        env[E_BUYER] = env[E_TO_MOVE]
        env[E_PHASE] = PH_DICE


@njit(cache=True)
def score_part(env, b, card):
    """The lower half of a card: a culture symbol or a multiplier."""
    if CIV[card, C_CULTURE] > 0:
        env[b + P_CULTURE + int(CIV[card, C_CULTURE]) - 1] += 1
    if CIV[card, C_MULT_KIND] > 0:
        env[b + P_MULT + int(CIV[card, C_MULT_KIND]) - 1] += CIV[card, C_MULT]


@njit(cache=True)
def built(env, b, k, points):
    env[b + P_POINTS] += points
    env[b + P_HUTS] += 1
    env[E_BUILD_TAKEN + k] = 1.0
    fill_values(env, E_PAID, 4, 0.0)  # not a slice: a slice costs numba compile time


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def take_back(env, b, action):
    """A TAKE-phase move: use one place."""
    p = int(env[E_TO_MOVE])
    if action < TOOL:
        site = action - TAKE
        dice = int(env[b + P_AT + site])
        env[b + P_AT + site] = 0.0
        if site == SITE_FIELD:
            env[b + P_FIELD] = min(env[b + P_FIELD] + 1, MAX_FIELD)
        elif site == SITE_TOOLS:
            add_tool(env, b)
        elif site == SITE_HUT:
            env[b + P_WORKERS] += 1
        else:
            roll_for(env, b, site, dice)
    elif action < TAKE_BUILD:
        k = action - TAKE_CIV
        env[E_CIV_OCC + k] = -1.0
        if sum_values(env, b + P_RES, 4) >= k + 1:  # not a slice: a slice costs compile time
            env[E_PHASE] = PH_PAY_CIV
            env[E_SITE] = 8 + k
    elif action < DIE:
        k = action - TAKE_BUILD
        env[E_BUILD_OCC + k] = -1.0
        build = building_top(env, k)
        env[E_SITE] = 12 + k
        if can_build(build, env, b + P_RES):
            if BUILD[build, B_ANY] > 0:
                env[E_PHASE] = PH_PAY_ANY
            elif BUILD[build, B_COUNT] > 0:
                env[E_PHASE] = PH_PAY_KINDS
            else:
                for r in range(4):  # not a slice: a slice costs numba compile time
                    env[b + P_RES + r] -= BUILD[build, B_COST + r]
                built(env, b, k, BUILD[build, B_POINTS])
    else:  # FREE
        env[E_PHASE] = PH_FREE
    if env[E_PHASE] == PH_TAKE and int(env[E_TO_MOVE]) == p:
        after_take(env)


@njit(cache=True, inline="always")  # one caller: a function of its own costs compile time
def pay(env, b, action):
    """A resource paid for a card, a building or food."""
    phase = int(env[E_PHASE])
    if action != STOP_PAYING:
        r = action - PAY
        env[b + P_RES + r] -= 1
        env[E_PAID + r] += 1
    # sums and fills by helpers, not slices: each slice costs numba compile time
    total = sum_values(env, E_PAID, 4)
    held = sum_values(env, b + P_RES, 4)
    site = int(env[E_SITE])
    if phase == PH_PAY_CIV:
        if total == site - 7:
            fill_values(env, E_PAID, 4, 0.0)
            buy_card(env, b, site - 8)
    elif phase == PH_PAY_FOOD:
        if total == env[E_OWE]:
            fill_values(env, E_PAID, 4, 0.0)
            env[E_OWE] = 0.0
            env[b + P_FED] = 1.0
            feed(env)
            return
    else:
        k = site - 12
        build = building_top(env, k)
        if phase == PH_PAY_ANY:
            done = action == STOP_PAYING or total == BUILD[build, B_ANY] or held == 0
        else:
            distinct = (env[E_PAID] > 0) + (env[E_PAID + 1] > 0) + (env[E_PAID + 2] > 0) + (env[E_PAID + 3] > 0)
            done = total == BUILD[build, B_COUNT] and distinct == BUILD[build, B_KINDS]
        if done:
            points = 0.0
            for r in range(4):
                points += env[E_PAID + r] * VALUES[r]
            built(env, b, k, points)
            env[E_PHASE] = PH_TAKE
    if env[E_PHASE] == PH_TAKE:
        after_take(env)


@njit(cache=True)
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0 or action < 0 or action >= NUM_ACTIONS:
        return env
    action = int(action)
    p = int(env[E_TO_MOVE])
    b = base_of(p)
    phase = int(env[E_PHASE])
    if phase == PH_PLACE:
        if PLACE + SITE_WOOD <= action <= PLACE + SITE_HUNT:
            env[E_PHASE] = PH_COUNT
            env[E_SITE] = action - PLACE
        else:
            if action < PLACE_CIV:
                env[b + P_AT + action - PLACE] += 2 if action == PLACE + SITE_HUT else 1
            elif action < PLACE_BUILD:
                env[E_CIV_OCC + action - PLACE_CIV] = p
            else:
                env[E_BUILD_OCC + action - PLACE_BUILD] = p
            next_placer(env)
    elif phase == PH_COUNT:
        env[b + P_AT + int(env[E_SITE])] += action - COUNT
        next_placer(env)
    elif phase == PH_TAKE:
        take_back(env, b, action)
    elif phase == PH_TOOLS:
        if TOOL <= action < PAY:
            env[E_ADDED] += env[b + P_TOOLS + action - TOOL]
            env[b + P_USED + action - TOOL] = 1.0
        elif action != DONE:
            env[E_ADDED] += action - ONE_USE + 2
            env[b + P_ONE_USE + action - ONE_USE] = 0.0
        if action == DONE or not tools_ready(env, b):
            gain(env, b, int(env[E_SITE]), env[E_DICE] + env[E_ADDED])
            env[E_DICE] = 0.0
            env[E_ADDED] = 0.0
            after_take(env)
    elif phase == PH_FEED:
        if action == FEED_RES:
            env[E_PHASE] = PH_PAY_FOOD
        else:
            env[b + P_PENALTY] += STARVE
            env[b + P_FED] = 1.0
            env[E_OWE] = 0.0
            feed(env)
    elif phase == PH_DICE:
        value = action - DIE
        if value <= 4:
            env[b + P_RES + value - 1] += 1
        elif value == 5:
            add_tool(env, b)
        else:
            env[b + P_FIELD] = min(env[b + P_FIELD] + 1, MAX_FIELD)
        for d in range(4):
            if env[E_CIV_DICE + d] == value:
                env[E_CIV_DICE + d] = 0.0
                break
        if sum_values(env, E_CIV_DICE, 4) == 0:  # not a slice: a slice costs compile time
            env[E_TO_MOVE] = env[E_BUYER]
            after_take(env)
        else:
            env[E_TO_MOVE] = (p + 1) % int(env[E_PLAYERS])
    elif phase == PH_FREE:
        env[b + P_RES + action - GAIN] += 1
        env[b + P_FREE] -= 1
        if env[b + P_FREE] <= 0:
            after_take(env)
    else:
        pay(env, b, action)
    env[E_STEPS] += 1
    if env[E_RESULT] < 0 and env[E_STEPS] >= STEP_CAP:
        end_game(env)
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getWinners(env):
    n = int(env[E_PLAYERS])
    out = new_values(n)
    copy_values(out, 0, env, E_WINNERS, n)  # not a slice: a slice costs numba compile time
    return out


@njit(cache=True)
def getReturns(env):
    """Each player's final score (real points, no offset)."""
    n = int(env[E_PLAYERS])
    out = np.zeros(n, dtype=np.float64)
    for p in range(n):
        out[p] = final_score(env, p)
    return out


@njit(cache=True)
def getReward(state) -> int:
    if state[S_OVER] < 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0
