"""Built-in Sheriff opponents. Level 0 (random) is the framework's.

* Level 1, ``honest``: an honest trader. In the market it keeps the legal good it holds most of
  and discards the rest, takes that good from a pile's top when it can, else draws from the deck;
  it fills its bag with that good (up to 5) and declares it; it never bribes. As sheriff it
  inspects every bag whose bribe is worth less than one coin per card in the bag (a stand good
  offered counts 2 coins, a bag card 3).
* Level 2, ``shrewd``: trades like level 1 but sheriffs with a memory of what the stands show: it
  lets pass the bags of merchants with no contraband on their stand who offer no bribe (the honest
  ones, whom an inspection would pay), and inspects any other merchant (a known smuggler, or one
  bribing: honest traders never do) unless the bribe is worth two coins per card in the bag.

Both read nothing but their own state.
"""

from __future__ import annotations

from numba import njit

from .logic import (
    B_BAG_BRIBE_COUNT,
    B_BAG_COUNT,
    B_COIN_BRIBE,
    B_CONTRABAND,
    B_DECLARED,
    B_STAND_BRIBE,
    BRIBE_BAG,
    BRIBE_COINS,
    BRIBE_STAND,
    CHOOSE,
    CLOSE_BAG,
    CONFISCATE,
    CONFISCATE_LEFT,
    DECIDE,
    DECLARE,
    DECLARE_GOOD,
    DISCARD,
    DISCARD_CARD,
    DRAW,
    DRAW_DECK,
    GOOD_VALUE,
    INSPECT,
    INSPECT_NEXT,
    LET_PASS,
    LOAD,
    LOAD_CARD,
    NUM_ACTIONS,
    NUM_KINDS,
    NUM_LEGAL,
    NUM_PLAYERS,
    RETURN,
    RETURN_LEFT,
    S_BAG,
    S_HAND,
    S_OVER,
    S_PILE_SIZE,
    S_PILE_TOPS,
    S_SEATS,
    S_TARGET,
    SEAT_BLOCK,
    STOP_BAG,
    STOP_COINS,
    STOP_DISCARD,
    STOP_STAND,
    TAKE_LEFT,
    TOP_SHOWN,
    isValidAction,
    state_phase,
)


@njit(cache=True)
def target_good(state, start) -> int:
    """The legal good counted most in ``state[start:start+15]`` (the dearer on a tie), -1 if none."""
    best = -1
    for g in range(NUM_LEGAL):
        if state[start + g] > 0.5 and (best < 0 or state[start + g] >= state[start + best]):
            best = g
    return best


@njit(cache=True)
def first_valid(state) -> int:
    for a in range(NUM_ACTIONS):
        if isValidAction(state, a):
            return a
    return 0


@njit(cache=True)
def bribe_worth(state, block) -> float:
    """The bribe a merchant offers, in coins: coins, 2 a stand good, 3 a bag card."""
    worth = state[block + B_COIN_BRIBE] + 3.0 * state[block + B_BAG_BRIBE_COUNT]
    for k in range(NUM_KINDS):
        worth += 2.0 * state[block + B_STAND_BRIBE + k]
    return worth


@njit(cache=True)
def merchant_move(state, phase) -> int:
    """The honest trader's market, bag and bribe moves."""
    good = target_good(state, S_HAND)
    if phase == DISCARD:
        for k in range(NUM_KINDS):
            if k != good and state[S_HAND + k] > 0.5:
                return DISCARD_CARD + k
        return STOP_DISCARD
    if phase == DRAW:
        for pile in range(2):
            if good >= 0 and state[S_PILE_SIZE + pile] > 0.5:
                if state[S_PILE_TOPS + pile * TOP_SHOWN * NUM_KINDS + good] > 0.5:
                    return TAKE_LEFT + pile
        return DRAW_DECK
    if phase == RETURN:
        return RETURN_LEFT
    if phase == LOAD:
        bag = 0.0
        for k in range(NUM_KINDS):
            bag += state[S_BAG + k]
        in_bag = target_good(state, S_BAG)
        if in_bag >= 0:
            good = in_bag
        if good >= 0 and state[S_HAND + good] > 0.5:
            return LOAD_CARD + good
        if bag < 0.5:  # no legal good at all: the cheapest card
            cheapest = -1
            for k in range(NUM_KINDS):
                if state[S_HAND + k] > 0.5 and (cheapest < 0 or GOOD_VALUE[k] < GOOD_VALUE[cheapest]):
                    cheapest = k
            if cheapest >= 0:
                return LOAD_CARD + cheapest
        return CLOSE_BAG
    if phase == DECLARE:
        return DECLARE_GOOD + max(target_good(state, S_BAG), 0)
    if phase == BRIBE_COINS:
        return STOP_COINS
    if phase == BRIBE_STAND:
        return STOP_STAND
    if phase == BRIBE_BAG:
        return STOP_BAG
    return -1


@njit(cache=True)
def inspects(state, shrewd) -> bool:
    """The sheriff's decision on the merchant picked."""
    rel = 1
    for r in range(1, NUM_PLAYERS):
        if state[S_TARGET + r] > 0.5:
            rel = r
    block = S_SEATS + rel * SEAT_BLOCK
    cards = state[block + B_BAG_COUNT] + state[block + B_BAG_BRIBE_COUNT]
    if shrewd:
        if state[block + B_CONTRABAND] < 0.5 and bribe_worth(state, block) <= 0.0:
            return False  # looks honest: inspecting an honest bag pays the merchant
        return bribe_worth(state, block) < 2.0 * cards
    return bribe_worth(state, block) < cards


@njit(cache=True)
def trader_action(state, shrewd) -> int:
    if state[S_OVER] > 0.5:
        return 0
    phase = state_phase(state)
    action = -1
    if phase == CHOOSE:
        for rel in range(1, NUM_PLAYERS):
            for g in range(NUM_LEGAL):
                if state[S_SEATS + rel * SEAT_BLOCK + B_DECLARED + g] > 0.5:
                    return INSPECT_NEXT + rel - 1
    elif phase == DECIDE:
        action = INSPECT if inspects(state, shrewd) else LET_PASS
    elif phase == CONFISCATE:
        action = CONFISCATE_LEFT
    else:
        action = merchant_move(state, phase)
    if action >= 0 and isValidAction(state, action):
        return action
    return first_valid(state)


@njit(cache=True)
def honest(state, data):
    """Honest trader: carries one legal good, declares it truly, never bribes; inspects small bribes."""
    return trader_action(state, False), data


@njit(cache=True)
def shrewd(state, data):
    """Shrewd trader: trades honestly; as sheriff lets pass merchants with a clean stand offering no bribe."""
    return trader_action(state, True), data


LEVELS = {1: honest, 2: shrewd}
