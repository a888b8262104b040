"""MachiKoro: the rules, as numba functions over flat float64 arrays.

2 to 4 players build a town with dice. On your turn you roll one die (two once you own the Train
Station); every establishment whose numbers match the total pays its owner: red ones take coins
from the roller (paid in reverse seat order, as long as the roller has coins), blue ones pay every
owner from the bank, green ones pay the roller, purple ones (6) act for the roller. Then you buy.
The first player to own all four landmarks wins at once.

Two rule sets share one action space (the ``rules`` parameter): 0, vis/ENV's (github.com/
ngoxuanphong/ENV, ``src/Base/MachiKoro``), the default: no starting coins, and in one turn you may
buy one card of each kind until you stop or run out of coins; 1, the published rules: 3 starting
coins and one purchase a turn. README.md lists every difference. The cards (costs, numbers,
incomes, counts) are read from ``cards.json`` beside this file; the array layouts are documented in
README.md and beside the constants below.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from numba import njit

from makeenv.array.numba_helpers import copy_values, new_values, uniform

# ---- cards -------------------------------------------------------------------------------------
WHEAT, RANCH, BAKERY, CAFE, STORE, FOREST, CHEESE, FURNITURE, MINE, RESTAURANT, ORCHARD, MARKET = range(12)
STADIUM, TV_STATION, BUSINESS_CENTRE = 12, 13, 14
RADIO_TOWER, AMUSEMENT_PARK, SHOPPING_MALL, TRAIN_STATION = 15, 16, 17, 18
NUM_NORMAL = 12  # the establishments of the market
NUM_CARDS = 19
BLUE, GREEN, RED, PURPLE, LANDMARK = 0, 1, 2, 3, 4
COLOURS = ("blue", "green", "red", "purple", "landmark")
VIS_ENV, PUBLISHED = 0, 1  # the rule sets


def padded(rows: list[list[int]]) -> np.ndarray:
    """``rows`` as one int64 array, each row padded with -1 to the longest (at least 1 wide)."""
    table = np.full((len(rows), max(1, *(len(row) for row in rows))), -1, dtype=np.int64)
    for i, row in enumerate(rows):
        table[i, : len(row)] = row
    return table


def _load_cards() -> tuple:
    """The cards of ``cards.json`` as arrays, checked against the card constants above."""
    data = json.loads((Path(__file__).parent / "cards.json").read_text())
    cards = data["cards"]
    names = tuple(c["name"] for c in cards)
    if len(cards) != NUM_CARDS:
        raise ValueError(f"MachiKoro cards.json: expected {NUM_CARDS} cards, found {len(cards)}; fix the file")
    expected = {0: "Wheat Field", STADIUM: "Stadium", RADIO_TOWER: "Radio Tower", TRAIN_STATION: "Train Station"}
    for k, name in expected.items():
        if names[k] != name:
            raise ValueError(f"MachiKoro cards.json: card {k} is {names[k]!r}, expected {name!r}; keep the order")
    colour = np.array([COLOURS.index(c["colour"]) for c in cards], dtype=np.int64)
    cost = np.array([c["cost"] for c in cards], dtype=np.int64)
    roll_low = np.array([c["rolls"][0] for c in cards], dtype=np.int64)
    roll_high = np.array([c["rolls"][1] for c in cards], dtype=np.int64)
    income = np.zeros((2, NUM_CARDS), dtype=np.int64)
    income[PUBLISHED] = [c["income"] for c in cards]
    income[VIS_ENV] = [c.get("income_vis_env", c["income"]) for c in cards]
    per = padded([[names.index(other) for other in c["per"]] for c in cards])
    mall = np.array([bool(c["mall"]) for c in cards], dtype=np.int64)
    supply = np.array([c["supply"] for c in cards[:NUM_NORMAL]], dtype=np.int64)
    rule_sets = data["rule_sets"]
    start_coins = np.array([r["start_coins"] for r in rule_sets], dtype=np.int64)
    start_cards = np.zeros((len(rule_sets), NUM_CARDS), dtype=np.int64)
    for r, rule_set in enumerate(rule_sets):
        for name in rule_set["start_cards"]:
            start_cards[r, names.index(name)] += 1
    short = tuple(c["short"] for c in cards)
    effects = tuple(c["effect"] for c in cards)
    rule_names = tuple(r["name"] for r in rule_sets)
    return (
        names, short, effects, rule_names, colour, cost, roll_low, roll_high, income, per, mall, supply,
        start_coins, start_cards,
    )  # fmt: skip


(
    CARD_NAMES, SHORT_NAMES, CARD_EFFECTS, RULE_NAMES, CARD_COLOUR, CARD_COST, ROLL_LOW, ROLL_HIGH,
    CARD_INCOME, CARD_PER, CARD_MALL, MARKET_SUPPLY, START_COINS, START_CARDS,
) = _load_cards()  # fmt: skip
# CARD_PER[k]: the cards whose count multiplies card k's income (-1 pads; a -1 first: none).
# ACTIVATED[t]: the establishments a roll totalling t (0..12) activates, in card order (-1 pads).
ACTIVATED = padded([[k for k in range(NUM_NORMAL) if ROLL_LOW[k] <= total <= ROLL_HIGH[k]] for total in range(13)])
# RED_ON[t], BLUE_ON[t], GREEN_ON[t]: ACTIVATED[t]'s cards of that colour (-1 pads)
RED_ON, BLUE_ON, GREEN_ON = (
    padded([[k for k in row if k >= 0 and CARD_COLOUR[k] == colour] for row in ACTIVATED])
    for colour in (RED, BLUE, GREEN)
)

# ---- phases (vis/ENV's numbers) ----------------------------------------------------------------
ROLL, REROLL, TV_TARGET, TRADE_PARTNER, TRADE_GIVE, TRADE_TAKE, BUY = 1, 2, 3, 4, 5, 6, 7
PHASE_NAMES = ("", "roll", "reroll", "TV Station", "Business Centre", "give", "take", "buy")

# ---- actions (vis/ENV's 54) --------------------------------------------------------------------
KEEP_ROLL = 0  # radio tower: keep this roll
ROLL_ONE, ROLL_TWO = 1, 2  # roll (or roll again) one or two dice
TAKE_COINS = 3  # + r - 1: the TV Station takes 5 coins from the player r seats on (r = 1..3)
TRADE_WITH = 6  # + r - 1: the Business Centre trades with the player r seats on
NO_TRADE = 9
GIVE = 10  # + k: give an establishment of kind k (0..11)
TAKE = 22  # + k: take an establishment of kind k
BUY_CARD = 34  # + k: buy card k (0..18)
END_TURN = 53  # stop buying; also the only action of a finished game
NUM_ACTIONS = 54

MIN_PLAYERS, MAX_PLAYERS = 2, 4
DEFAULT_PLAYERS = 4
PARAMETERS = {"players": (2, 3, 4), "rules": (VIS_ENV, PUBLISHED)}
DEFAULTS = {"players": DEFAULT_PLAYERS, "rules": VIS_ENV}
TURN_LIMIT = 1000  # vis/ENV's cap on a game's steps
STADIUM_TAKE = 2
TV_TAKE = 5

# ---- env: the referee's view (length ENV_SIZE) -------------------------------------------------
E_PLAYERS = 0  # number of players n (2..4)
E_RULES = 1  # 0 vis/ENV's rules, 1 the published rules
E_TO_MOVE = 2  # the player whose turn it is
E_PHASE = 3  # 1..7 (the phase constants)
E_RESULT = 4  # -1 running, else the winner
E_DIE1 = 5  # the last roll's dice (0 before the first roll; the second 0 for one die)
E_DIE2 = 6
E_AGAIN = 7  # 1 when the roller takes another turn (doubles with the Amusement Park)
E_PARTNER = 8  # Business Centre: the seat traded with (-1 none)
E_GIVE = 9  # Business Centre: the kind given (-1 none)
E_PURCHASES = 10  # cards bought this turn
E_SUPPLY = 11  # 12 counts: the market
E_BOUGHT = 23  # 12 flags: kinds bought this turn
E_SEATS = 35  # 4 seat blocks
B_COINS = 0  # seat block: coins, then 19 card counts
B_CARDS = 1
SEAT_BLOCK = 1 + NUM_CARDS
ENV_SIZE = E_SEATS + MAX_PLAYERS * SEAT_BLOCK  # 115

# ---- state: one player's view (length STATE_SIZE); every value is >= 0 ------------------------
# 115 values, the most that still fit glibc's cache of small blocks (a longer state costs a slower
# allocation at every step): the result and the trade in progress are one value each. Where a value
# is the env's, it has the env's index (getPlayerState copies those in runs).
S_PLAYERS = 0  # number of players n
S_RULES = 1  # the rule set
S_TO_MOVE = 2  # whose turn, relative to me (0 = mine)
S_PHASE = 3  # the phase of that turn (1..7)
S_RESULT = 4  # 0 running, 1 another player won, 2 I won
S_DIE1 = 5
S_DIE2 = 6
S_AGAIN = 7  # 1 when the player to move takes another turn
S_TRADE = 8  # Business Centre: 0 none, else partner (relative to me) + TRADE_GIVEN * (kind given + 1)
S_SEAT = 9  # my seat
S_PURCHASES = 10
S_SUPPLY = 11  # 12 counts (the env's indices from here on)
S_BOUGHT = 23  # 12 flags
S_SEATS = 35  # seat blocks: me, then the next players in turn order (blocks of absent seats are 0)
STATE_SIZE = S_SEATS + MAX_PLAYERS * SEAT_BLOCK  # 115
TRADE_GIVEN = MAX_PLAYERS  # S_TRADE's unit of the kind given (the partner stays below it)
RUNNING, LOST, WON = 0, 1, 2  # S_RESULT's values
COST_FLOAT = CARD_COST.astype(np.float64)


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    """The default number of players (``make("MachiKoro", players=n)`` chooses another)."""
    return DEFAULT_PLAYERS


@njit(cache=True, inline="always")
def seat_base(seat) -> int:
    return E_SEATS + seat * SEAT_BLOCK


@njit(cache=True)
def initEnv(players=DEFAULT_PLAYERS, rules=VIS_ENV):
    """A new game: every player holds the rule set's starting coins and cards; seat 0 rolls."""
    n = min(max(int(players), MIN_PLAYERS), MAX_PLAYERS)
    r = min(max(int(rules), VIS_ENV), PUBLISHED)
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = n
    env[E_RULES] = r
    env[E_PHASE] = ROLL
    env[E_RESULT] = -1.0
    env[E_PARTNER] = -1.0
    env[E_GIVE] = -1.0
    for k in range(NUM_NORMAL):
        env[E_SUPPLY + k] = MARKET_SUPPLY[k]
    for p in range(n):
        base = seat_base(p)
        env[base + B_COINS] = START_COINS[r]
        for k in range(NUM_CARDS):
            env[base + B_CARDS + k] = START_CARDS[r, k]
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_TO_MOVE])


@njit(cache=True, inline="always")
def player_state(env, player):
    """getPlayerState's body, inlined into getAgentState too (a call passing the env would cost two
    atomic reference counts). Every read of the env comes first, in code without loops (copies of
    fixed lengths): numba's pruning then drops the reference count it takes on the env."""
    n = int(env[E_PLAYERS])
    state = new_values(STATE_SIZE)  # every value is written below
    copy_values(state, 0, env, 0, E_SEATS)  # the env's values, then those the state has in its own terms
    to_move = int(env[E_TO_MOVE])
    state[S_TO_MOVE] = to_move - player + (n if to_move < player else 0)
    winner = int(env[E_RESULT])
    state[S_RESULT] = RUNNING if winner < 0 else (WON if winner == player else LOST)
    partner = int(env[E_PARTNER])
    rel = partner - player + (n if partner < player else 0)
    state[S_TRADE] = rel + TRADE_GIVEN * (env[E_GIVE] + 1.0) if partner >= 0 else 0.0
    state[S_SEAT] = player
    # the seat blocks, me first, then the next seats in turn order (then zeros for absent seats)
    seat = player
    for rel in range(MAX_PLAYERS):
        copy_values(state, S_SEATS + rel * SEAT_BLOCK, env, seat_base(seat), SEAT_BLOCK)
        seat = seat_after(seat, 1, n)
    for i in range(np.uint64(S_SEATS + n * SEAT_BLOCK), np.uint64(STATE_SIZE)):
        state[i] = 0.0
    return state


# getPlayerState, getAgentState, isValidAction and getValidActions are inlined into their callers
# (the runner's loop, a user's agent): their calls cost a user's agent's games about 10%.
@njit(cache=True, inline="always")
def getPlayerState(env, player):
    return player_state(env, player)


@njit(cache=True, inline="always")
def getAgentState(env):
    return player_state(env, int(env[E_TO_MOVE]))


@njit(cache=True, inline="always")
def trade_partner(state) -> int:
    """The Business Centre's partner, relative to me (0: no trade in progress)."""
    return int(state[S_TRADE]) % TRADE_GIVEN


@njit(cache=True, inline="always")
def trade_given(state) -> int:
    """The kind given in the Business Centre's trade (-1: none yet)."""
    return int(state[S_TRADE]) // TRADE_GIVEN - 1


@njit(cache=True, inline="always")
def game_over(state) -> bool:
    return state[S_RESULT] > RUNNING + 0.5


@njit(cache=True, inline="always")
def owns(state, rel, card) -> bool:
    """Whether the seat ``rel`` places after me holds ``card`` (in a state)."""
    return state[S_SEATS + rel * SEAT_BLOCK + B_CARDS + card] > 0.5


@njit(cache=True, inline="always")
def normal_cards(state, rel) -> float:
    total = 0.0
    for k in range(NUM_NORMAL):
        total += state[S_SEATS + rel * SEAT_BLOCK + B_CARDS + k]
    return total


# The buying tests have no branches (``&``, ``|``, every side read): they run on data a branch
# predictor cannot guess.
@njit(cache=True, inline="always")
def affords(state, card) -> bool:
    return state[S_SEATS + B_COINS] >= CARD_COST[card]


@njit(cache=True, inline="always")
def market_offers(state, kind) -> bool:
    """Whether the market has ``kind`` (0..11) left and I have not bought one this turn."""
    return (state[S_SUPPLY + kind] > 0.5) & (state[S_BOUGHT + kind] < 0.5)


@njit(cache=True, inline="always")
def lacks(state, card) -> bool:
    """Whether I have none of ``card``: one of each purple card and landmark."""
    return state[S_SEATS + B_CARDS + card] < 0.5


@njit(cache=True, inline="always")
def can_buy(state, card) -> bool:
    """Whether I may buy ``card`` (0..18) now, the buying phase of my turn assumed."""
    in_market = (card < NUM_NORMAL) & market_offers(state, min(card, NUM_NORMAL - 1))
    return affords(state, card) & (in_market | ((card >= NUM_NORMAL) & lacks(state, card)))


@njit(cache=True, inline="always")
def buy_allows(state, action) -> bool:
    """Whether any ``action`` (0..53) is valid in the buying phase of my turn, without branches."""
    card = min(max(action - BUY_CARD, 0), NUM_CARDS - 1)
    return (action == END_TURN) | ((action >= BUY_CARD) & (action < END_TURN) & can_buy(state, card))


@njit(cache=True, inline="always")
def roll_allows(state, action) -> bool:
    """Whether any ``action`` is valid in the rolling phase of my turn: two dice need the station."""
    return (action == ROLL_ONE) | ((action == ROLL_TWO) & owns(state, 0, TRAIN_STATION))


@njit(cache=True, inline="always")
def my_phase(state) -> int:
    """The phase when it is my move in a running game, else 0 (also for a phase out of range)."""
    phase = int(state[S_PHASE])
    mine = (state[S_RESULT] <= 0.5) & (state[S_TO_MOVE] <= 0.5) & (phase >= ROLL) & (phase <= BUY)
    return phase * mine


@njit(cache=True, inline="always")
def clamp(value, low, high) -> int:
    return min(max(value, low), high)


@njit(cache=True, inline="always")
def isValidAction(state, action) -> bool:
    """The two common phases first, tested without branches on the action. Each phase's test reads
    the state without a call or a loop, and the state is read last on every path (the finished
    game's test): numba then drops the reference count it takes on ``state``, two atomic
    operations that would cost more than the tests."""
    phase = my_phase(state)
    buy, roll = buy_allows(state, action), roll_allows(state, action)  # both: no branch on the phase
    if phase == BUY:
        return buy
    if phase == ROLL:
        return roll
    n = int(state[S_PLAYERS])
    ok = False
    if phase == REROLL:  # the published rules: two dice need the station
        two = (state[S_RULES] < 0.5) | owns(state, 0, TRAIN_STATION)
        ok = (action >= KEEP_ROLL) & (action <= ROLL_TWO) & ((action != ROLL_TWO) | two)
    elif phase == TV_TARGET:
        rel = clamp(action - TAKE_COINS + 1, 1, MAX_PLAYERS - 1)
        ok = (action >= TAKE_COINS) & (action < TRADE_WITH) & (rel < n)
        ok &= state[S_SEATS + rel * SEAT_BLOCK + B_COINS] > 0.5
    elif phase == TRADE_PARTNER:
        rel = clamp(action - TRADE_WITH + 1, 1, MAX_PLAYERS - 1)
        ok = (action >= TRADE_WITH) & (action < NO_TRADE) & (rel < n) & (normal_cards(state, rel) > 0.5)
        ok |= action == NO_TRADE
    elif phase == TRADE_GIVE:
        ok = (action >= GIVE) & (action < TAKE) & owns(state, 0, clamp(action - GIVE, 0, NUM_NORMAL - 1))
    elif phase == TRADE_TAKE:
        rel = trade_partner(state)
        ok = (action >= TAKE) & (action < BUY_CARD) & (rel >= 1) & (rel < n)
        ok &= owns(state, clamp(rel, 0, MAX_PLAYERS - 1), clamp(action - TAKE, 0, NUM_NORMAL - 1))
    return ok | ((phase == 0) & (action == END_TURN) & game_over(state))


@njit(cache=True, inline="always")
def getValidActions(state):
    """The buying phase's cards written without branches; the rare phases' actions without a call
    or a branch on each; the state read last on every path (the finished game's test) and the
    vector allocated in this function's own code: numba then keeps no reference count on the
    state (two atomic operations a call)."""
    valid = new_values(NUM_ACTIONS)
    phase = my_phase(state)
    for a in range(BUY_CARD):  # each value written once in the buying phase, the others after zeros
        valid[a] = 0.0
    if phase != BUY:
        for a in range(BUY_CARD, NUM_ACTIONS):
            valid[a] = 0.0
    if phase == BUY:  # can_buy, split in its two kinds of card (float costs: no conversion)
        coins = state[S_SEATS + B_COINS]
        for kind in range(NUM_NORMAL):
            offered = (state[S_SUPPLY + kind] > 0.5) & (state[S_BOUGHT + kind] < 0.5)
            valid[BUY_CARD + kind] = 1.0 if (COST_FLOAT[kind] <= coins) & offered else 0.0
        for card in range(NUM_NORMAL, NUM_CARDS):
            lacking = state[S_SEATS + B_CARDS + card] < 0.5
            valid[BUY_CARD + card] = 1.0 if (COST_FLOAT[card] <= coins) & lacking else 0.0
        valid[END_TURN] = 1.0
    elif phase == ROLL:
        valid[ROLL_ONE] = 1.0
        valid[ROLL_TWO] = owns(state, 0, TRAIN_STATION)
    elif phase == REROLL:  # the published rules: two dice need the station
        valid[KEEP_ROLL] = 1.0
        valid[ROLL_ONE] = 1.0
        valid[ROLL_TWO] = (state[S_RULES] < 0.5) | owns(state, 0, TRAIN_STATION)
    elif phase != 0:  # the Business Centre and the TV Station: a player (rel seats on) or a kind
        n = int(state[S_PLAYERS])
        partner = trade_partner(state)
        for rel in range(1, MAX_PLAYERS):
            coins = state[S_SEATS + rel * SEAT_BLOCK + B_COINS] > 0.5
            valid[TAKE_COINS + rel - 1] = (phase == TV_TARGET) & (rel < n) & coins
            valid[TRADE_WITH + rel - 1] = (phase == TRADE_PARTNER) & (rel < n) & (normal_cards(state, rel) > 0.5)
        valid[NO_TRADE] = phase == TRADE_PARTNER
        takes = (phase == TRADE_TAKE) & (partner >= 1) & (partner < n)
        for kind in range(NUM_NORMAL):
            valid[GIVE + kind] = (phase == TRADE_GIVE) & owns(state, 0, kind)
            valid[TAKE + kind] = takes & owns(state, partner, kind)
    valid[END_TURN] += (phase == 0) & game_over(state)
    return valid


# ---- the roll ----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def card_count(env, seat, card) -> float:
    return env[seat_base(seat) + B_CARDS + card]


@njit(cache=True, inline="always")
def card_income(env, seat, card) -> float:
    """Coins one ``card`` of ``seat`` earns when it activates (its multipliers and the mall counted).
    Without branches: the dice choose the card."""
    mall = card_count(env, seat, SHOPPING_MALL) > 0.5
    income = CARD_INCOME[int(env[E_RULES]), card] + CARD_MALL[card] * mall
    per = 0.0
    for j in range(CARD_PER.shape[1]):
        other = CARD_PER[card, j]
        per += (other >= 0) * card_count(env, seat, max(other, 0))
    return income * (per if CARD_PER[card, 0] >= 0 else 1.0)


@njit(cache=True, inline="always")
def take_coins(env, payer, payee, amount):
    """``payer`` gives ``payee`` up to ``amount`` coins (all it has when it has fewer)."""
    paid = min(amount, env[seat_base(payer) + B_COINS])
    env[seat_base(payer) + B_COINS] -= paid
    env[seat_base(payee) + B_COINS] += paid


@njit(cache=True, inline="always")
def activates(card, total) -> bool:
    return ROLL_LOW[card] <= total <= ROLL_HIGH[card]


@njit(cache=True, inline="always")
def seat_after(seat, step, n) -> int:
    """The seat ``step`` (0..n) places after ``seat`` (a subtraction, not the slow ``%``)."""
    later = seat + step
    return later - n if later >= n else later


@njit(cache=True, inline="always")
def earnings(env, seat, table, total) -> float:
    """What the cards ``table[total]`` lists (one colour's cards a total activates, -1 pads) earn
    ``seat``. Without branches: the dice choose the cards."""
    coins = 0.0
    for j in range(table.shape[1]):
        card = table[total, j]
        real = max(card, 0)
        coins += (card >= 0) * card_count(env, seat, real) * card_income(env, seat, real)
    return coins


@njit(cache=True, inline="always")
def resolve_roll(env, total):
    """Pay every card the total activates: red first (the owners in reverse seat order from the
    roller, while the roller has coins), then blue and green, then the roller's purple cards.
    Sets the phase that follows: TV Station, Business Centre or buying."""
    n = int(env[E_PLAYERS])
    roller = int(env[E_TO_MOVE])
    if RED_ON[total, 0] >= 0:  # (a colour without cards is skipped: cheaper than paying nothing)
        for step in range(n - 1, 0, -1):  # the player before the roller first
            owner = seat_after(roller, step, n)
            take_coins(env, roller, owner, earnings(env, owner, RED_ON, total))
    if BLUE_ON[total, 0] >= 0:
        for seat in range(n):
            env[seat_base(seat) + B_COINS] += earnings(env, seat, BLUE_ON, total)
    if GREEN_ON[total, 0] >= 0:
        env[seat_base(roller) + B_COINS] += earnings(env, roller, GREEN_ON, total)
    phase = BUY
    if activates(STADIUM, total):  # (one exit, no return: see stepEnv)
        if card_count(env, roller, STADIUM) > 0.5:
            for step in range(1, n):
                take_coins(env, seat_after(roller, step, n), roller, STADIUM_TAKE)
        if card_count(env, roller, BUSINESS_CENTRE) > 0.5:
            phase = TRADE_PARTNER
        if card_count(env, roller, TV_STATION) > 0.5:
            for step in range(1, n):
                phase = TV_TARGET if env[seat_base(seat_after(roller, step, n)) + B_COINS] > 0.5 else phase
    env[E_PHASE] = phase


@njit(cache=True, inline="always")
def roll_dice(env, dice):
    env[E_DIE1] = 1 + int(uniform() * 6)
    env[E_DIE2] = 1 + int(uniform() * 6) if dice == 2 else 0


@njit(cache=True, inline="always")
def settle_roll(env):
    """The roll stands: note doubles with the Amusement Park, pay the cards."""
    roller = int(env[E_TO_MOVE])
    doubles = (env[E_DIE2] > 0.5) & (env[E_DIE1] == env[E_DIE2])  # no branch on the dice
    env[E_AGAIN] = doubles & (card_count(env, roller, AMUSEMENT_PARK) > 0.5)
    resolve_roll(env, int(env[E_DIE1] + env[E_DIE2]))


@njit(cache=True, inline="always")
def end_turn(env):
    """The turn is over: the same player again after doubles with the Amusement Park, else the next."""
    for k in range(NUM_NORMAL):
        env[E_BOUGHT + k] = 0.0
    env[E_PURCHASES] = 0.0
    env[E_PHASE] = ROLL
    if env[E_AGAIN] > 0.5:
        env[E_AGAIN] = 0.0
    else:
        env[E_TO_MOVE] = seat_after(int(env[E_TO_MOVE]), 1, int(env[E_PLAYERS]))


@njit(cache=True, inline="always")
def buy(env, seat, card):
    base = seat_base(seat)
    env[base + B_COINS] -= CARD_COST[card]
    env[base + B_CARDS + card] += 1.0
    env[E_PURCHASES] += 1.0
    if card < NUM_NORMAL:
        env[E_SUPPLY + card] -= 1.0
        env[E_BOUGHT + card] = 1.0
    for landmark in range(RADIO_TOWER, NUM_CARDS):
        if env[base + B_CARDS + landmark] < 0.5:
            return
    env[E_RESULT] = seat


@njit(cache=True)
def apply_action(action, env):
    """stepEnv's work. One exit, and the roll resolved in one place: numba then drops the reference
    count it takes on the env (two atomic operations a step)."""
    n = int(env[E_PLAYERS])
    me = int(env[E_TO_MOVE])
    phase = 0 if env[E_RESULT] >= 0.0 else int(env[E_PHASE])  # a finished game does not change
    settle = False
    if phase == BUY:  # the most common phase first
        if action == END_TURN:
            end_turn(env)
        else:
            buy(env, me, action - BUY_CARD)
            if env[E_RESULT] < 0.0 and (env[E_RULES] == PUBLISHED or env[seat_base(me) + B_COINS] < 0.5):
                end_turn(env)
    elif phase == ROLL or phase == REROLL:
        if phase == ROLL or action != KEEP_ROLL:
            roll_dice(env, 2 if action == ROLL_TWO else 1)
        settle = phase == REROLL or not card_count(env, me, RADIO_TOWER) > 0.5
        if not settle:
            env[E_PHASE] = REROLL
    elif phase == TV_TARGET:
        take_coins(env, seat_after(me, action - TAKE_COINS + 1, n), me, TV_TAKE)
        env[E_PHASE] = TRADE_PARTNER if card_count(env, me, BUSINESS_CENTRE) > 0.5 else BUY
    elif phase == TRADE_PARTNER:
        if action == NO_TRADE:
            env[E_PHASE] = BUY
        else:
            env[E_PARTNER] = seat_after(me, action - TRADE_WITH + 1, n)
            env[E_PHASE] = TRADE_GIVE
    elif phase == TRADE_GIVE:
        env[E_GIVE] = action - GIVE
        env[E_PHASE] = TRADE_TAKE
    elif phase == TRADE_TAKE:
        partner, give, take = int(env[E_PARTNER]), int(env[E_GIVE]), action - TAKE
        env[seat_base(me) + B_CARDS + give] -= 1.0
        env[seat_base(partner) + B_CARDS + give] += 1.0
        env[seat_base(partner) + B_CARDS + take] -= 1.0
        env[seat_base(me) + B_CARDS + take] += 1.0
        env[E_PARTNER] = -1.0
        env[E_GIVE] = -1.0
        env[E_PHASE] = BUY
    if settle:
        settle_roll(env)


@njit(cache=True, inline="always")
def stepEnv(action, env):
    """Inlined into its caller, with the work in a call that returns nothing: a returned env costs
    a reference count (two atomic operations a step), an inlined step compiles slowly."""
    apply_action(action, env)
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getReward(state) -> int:
    if not game_over(state):
        return -1
    return 1 if state[S_RESULT] > LOST + 0.5 else 0


@njit(cache=True)
def sampleEnv(state):
    """The env of ``state`` (nothing is hidden but the dice to come), its player to move."""
    n = min(max(int(state[S_PLAYERS]), MIN_PLAYERS), MAX_PLAYERS)
    me = min(max(int(state[S_SEAT]), 0), n - 1)
    env = np.zeros(ENV_SIZE, dtype=np.float64)
    env[E_PLAYERS] = n
    env[E_RULES] = min(max(state[S_RULES], 0.0), 1.0)
    env[E_TO_MOVE] = (me + int(state[S_TO_MOVE])) % n
    env[E_PHASE] = min(max(state[S_PHASE], 1.0), 7.0)
    env[E_DIE1] = state[S_DIE1]
    env[E_DIE2] = state[S_DIE2]
    env[E_AGAIN] = state[S_AGAIN]
    partner = trade_partner(state)
    env[E_PARTNER] = (me + partner) % n if partner > 0 else -1.0
    env[E_GIVE] = trade_given(state) if partner > 0 else -1.0
    env[E_PURCHASES] = state[S_PURCHASES]
    env[E_RESULT] = -1.0
    if game_over(state):  # the winner: the seat holding every landmark
        for rel in range(n):
            held = 0.0
            for landmark in range(RADIO_TOWER, NUM_CARDS):
                held += state[S_SEATS + rel * SEAT_BLOCK + B_CARDS + landmark] > 0.5
            if held == NUM_CARDS - RADIO_TOWER:
                env[E_RESULT] = (me + rel) % n
                break
    for k in range(NUM_NORMAL):
        env[E_SUPPLY + k] = state[S_SUPPLY + k]
        env[E_BOUGHT + k] = state[S_BOUGHT + k]
    for rel in range(n):
        src = S_SEATS + rel * SEAT_BLOCK
        dst = seat_base((me + rel) % n)
        for i in range(SEAT_BLOCK):
            env[dst + i] = state[src + i]
    return env
