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
S_PLAYERS = 0  # number of players n
S_RULES = 1  # the rule set
S_SEAT = 2  # my seat
S_TO_MOVE = 3  # whose turn, relative to me (0 = mine)
S_PHASE = 4  # the phase of that turn (1..7)
S_DIE1 = 5
S_DIE2 = 6
S_AGAIN = 7  # 1 when the player to move takes another turn
S_PARTNER = 8  # Business Centre: the partner, relative to me (0 none)
S_GIVE = 9  # Business Centre: the kind given + 1 (0 none)
S_PURCHASES = 10
S_OVER = 11
S_WON = 12
S_SUPPLY = 13  # 12 counts
S_BOUGHT = 25  # 12 flags
S_SEATS = 37  # seat blocks: me, then the next players in turn order (blocks of absent seats are 0)
STATE_SIZE = S_SEATS + MAX_PLAYERS * SEAT_BLOCK  # 117


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


@njit(cache=True)
def getPlayerState(env, player):
    n = int(env[E_PLAYERS])
    state = np.empty(STATE_SIZE, dtype=np.float64)  # every value is written below
    state[S_PLAYERS] = n
    state[S_RULES] = env[E_RULES]
    state[S_SEAT] = player
    to_move = int(env[E_TO_MOVE])
    state[S_TO_MOVE] = (to_move - player + n) % n
    state[S_PHASE] = env[E_PHASE]
    state[S_DIE1] = env[E_DIE1]
    state[S_DIE2] = env[E_DIE2]
    state[S_AGAIN] = env[E_AGAIN]
    state[S_PARTNER] = (int(env[E_PARTNER]) - player + n) % n if env[E_PARTNER] >= 0.0 else 0.0
    state[S_GIVE] = env[E_GIVE] + 1.0
    state[S_PURCHASES] = env[E_PURCHASES]
    over = env[E_RESULT] >= 0.0
    state[S_OVER] = 1.0 if over else 0.0
    state[S_WON] = 1.0 if over and int(env[E_RESULT]) == player else 0.0
    for k in range(NUM_NORMAL):
        state[S_SUPPLY + k] = env[E_SUPPLY + k]
        state[S_BOUGHT + k] = env[E_BOUGHT + k]
    for rel in range(n):
        src = seat_base((player + rel) % n)
        dst = S_SEATS + rel * SEAT_BLOCK
        for i in range(SEAT_BLOCK):
            state[dst + i] = env[src + i]
    for i in range(S_SEATS + n * SEAT_BLOCK, STATE_SIZE):
        state[i] = 0.0
    return state


@njit(cache=True)
def getAgentState(env):
    return getPlayerState(env, int(env[E_TO_MOVE]))


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


@njit(cache=True, inline="always")
def can_buy(state, card) -> bool:
    """Whether I may buy ``card`` now (the buying phase of my turn assumed)."""
    if state[S_SEATS + B_COINS] < CARD_COST[card]:
        return False
    if card < NUM_NORMAL:
        return state[S_SUPPLY + card] > 0.5 and state[S_BOUGHT + card] < 0.5
    return not owns(state, 0, card)  # one of each purple card and landmark


PHASE_FIRST = np.array([0, ROLL_ONE, KEEP_ROLL, TAKE_COINS, TRADE_WITH, GIVE, TAKE, BUY_CARD], dtype=np.int64)
PHASE_END = np.array([0, ROLL_TWO + 1, ROLL_TWO + 1, TRADE_WITH, NO_TRADE + 1, TAKE, BUY_CARD, NUM_ACTIONS])


@njit(cache=True, inline="always")
def phase_allows(state, phase, action) -> bool:
    """Whether ``action`` (one of the phase's, PHASE_FIRST..PHASE_END) is valid for me to move in
    ``phase`` of a running game."""
    if phase == BUY:
        return action == END_TURN or can_buy(state, action - BUY_CARD)
    if phase == ROLL:
        return action == ROLL_ONE or owns(state, 0, TRAIN_STATION)
    if phase == REROLL:  # the published rules: two dice need the station
        return action != ROLL_TWO or state[S_RULES] < 0.5 or owns(state, 0, TRAIN_STATION)
    n = int(state[S_PLAYERS])
    if phase == TV_TARGET:
        rel = action - TAKE_COINS + 1
        return rel < n and state[S_SEATS + rel * SEAT_BLOCK + B_COINS] > 0.5
    if phase == TRADE_PARTNER:
        rel = action - TRADE_WITH + 1
        return action == NO_TRADE or (rel < n and normal_cards(state, rel) > 0.5)
    if phase == TRADE_GIVE:
        return owns(state, 0, action - GIVE)
    rel = int(state[S_PARTNER])  # TRADE_TAKE
    return 1 <= rel < n and owns(state, rel, action - TAKE)


@njit(cache=True, inline="always")
def my_phase(state) -> int:
    """The phase when it is my move in a running game, else 0."""
    if state[S_OVER] > 0.5 or state[S_TO_MOVE] > 0.5:
        return 0
    phase = int(state[S_PHASE])
    return phase if ROLL <= phase <= BUY else 0


@njit(cache=True)
def isValidAction(state, action) -> bool:
    phase = my_phase(state)
    if phase == 0:
        return action == END_TURN and state[S_OVER] > 0.5
    if action < PHASE_FIRST[phase] or action >= PHASE_END[phase]:
        return False
    return phase_allows(state, phase, action)


@njit(cache=True)
def getValidActions(state):
    """phase_allows over the actions of the phase only (the others are never valid)."""
    valid = np.zeros(NUM_ACTIONS, dtype=np.float64)
    phase = my_phase(state)
    if phase == 0:
        if state[S_OVER] > 0.5:
            valid[END_TURN] = 1.0
        return valid
    for a in range(PHASE_FIRST[phase], PHASE_END[phase]):
        if phase_allows(state, phase, a):
            valid[a] = 1.0
    return valid


# ---- the roll ----------------------------------------------------------------------------------


@njit(cache=True, inline="always")
def card_count(env, seat, card) -> float:
    return env[seat_base(seat) + B_CARDS + card]


@njit(cache=True, inline="always")
def card_income(env, seat, card) -> float:
    """Coins one ``card`` of ``seat`` earns when it activates (its multipliers and the mall counted)."""
    income = float(CARD_INCOME[int(env[E_RULES]), card])
    if CARD_MALL[card] == 1 and card_count(env, seat, SHOPPING_MALL) > 0.5:
        income += 1.0
    if CARD_PER[card, 0] < 0:
        return income
    per = 0.0
    for other in CARD_PER[card]:
        if other >= 0:
            per += card_count(env, seat, other)
    return income * per


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
def resolve_roll(env, total):
    """Pay every card the total activates: red first (the owners in reverse seat order from the
    roller, while the roller has coins), then blue and green, then the roller's purple cards.
    Sets the phase that follows: TV Station, Business Centre or buying."""
    n = int(env[E_PLAYERS])
    roller = int(env[E_TO_MOVE])
    for step in range(1, n):
        owner = (roller - step + n) % n
        for card in ACTIVATED[total]:
            if card >= 0 and CARD_COLOUR[card] == RED:
                count = card_count(env, owner, card)
                if count > 0.5:
                    take_coins(env, roller, owner, count * card_income(env, owner, card))
    for card in ACTIVATED[total]:
        if card < 0:
            continue
        if CARD_COLOUR[card] == BLUE:
            for seat in range(n):
                env[seat_base(seat) + B_COINS] += card_count(env, seat, card) * card_income(env, seat, card)
        elif CARD_COLOUR[card] == GREEN:
            env[seat_base(roller) + B_COINS] += card_count(env, roller, card) * card_income(env, roller, card)
    env[E_PHASE] = BUY
    if not activates(STADIUM, total):
        return
    if card_count(env, roller, STADIUM) > 0.5:
        for step in range(1, n):
            take_coins(env, (roller + step) % n, roller, STADIUM_TAKE)
    if card_count(env, roller, TV_STATION) > 0.5:
        for step in range(1, n):
            if env[seat_base((roller + step) % n) + B_COINS] > 0.5:
                env[E_PHASE] = TV_TARGET
                return
    if card_count(env, roller, BUSINESS_CENTRE) > 0.5:
        env[E_PHASE] = TRADE_PARTNER


@njit(cache=True, inline="always")
def roll_dice(env, dice):
    env[E_DIE1] = 1 + int(np.random.random() * 6)
    env[E_DIE2] = 1 + int(np.random.random() * 6) if dice == 2 else 0


@njit(cache=True, inline="always")
def settle_roll(env):
    """The roll stands: note doubles with the Amusement Park, pay the cards."""
    roller = int(env[E_TO_MOVE])
    doubles = env[E_DIE2] > 0.5 and env[E_DIE1] == env[E_DIE2]
    env[E_AGAIN] = 1.0 if doubles and card_count(env, roller, AMUSEMENT_PARK) > 0.5 else 0.0
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
        env[E_TO_MOVE] = (int(env[E_TO_MOVE]) + 1) % int(env[E_PLAYERS])


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
def stepEnv(action, env):
    if env[E_RESULT] >= 0.0:
        return env
    n = int(env[E_PLAYERS])
    me = int(env[E_TO_MOVE])
    phase = int(env[E_PHASE])
    if phase == ROLL:
        roll_dice(env, 2 if action == ROLL_TWO else 1)
        if card_count(env, me, RADIO_TOWER) > 0.5:
            env[E_PHASE] = REROLL
        else:
            settle_roll(env)
    elif phase == REROLL:
        if action != KEEP_ROLL:
            roll_dice(env, 2 if action == ROLL_TWO else 1)
        settle_roll(env)
    elif phase == TV_TARGET:
        take_coins(env, (me + action - TAKE_COINS + 1) % n, me, TV_TAKE)
        env[E_PHASE] = TRADE_PARTNER if card_count(env, me, BUSINESS_CENTRE) > 0.5 else BUY
    elif phase == TRADE_PARTNER:
        if action == NO_TRADE:
            env[E_PHASE] = BUY
        else:
            env[E_PARTNER] = (me + action - TRADE_WITH + 1) % n
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
    elif phase == BUY:
        if action == END_TURN:
            end_turn(env)
        else:
            buy(env, me, action - BUY_CARD)
            if env[E_RESULT] < 0.0 and (env[E_RULES] == PUBLISHED or env[seat_base(me) + B_COINS] < 0.5):
                end_turn(env)
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_RESULT])


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] > 0.5:
        return -1
    return 1 if state[S_WON] > 0.5 else 0


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
    env[E_PARTNER] = (me + int(state[S_PARTNER])) % n if state[S_PARTNER] > 0.5 else -1.0
    env[E_GIVE] = state[S_GIVE] - 1.0
    env[E_PURCHASES] = state[S_PURCHASES]
    env[E_RESULT] = -1.0
    if state[S_OVER] > 0.5:  # the winner: the seat holding every landmark
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
