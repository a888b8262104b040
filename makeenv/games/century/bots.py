"""Built-in Century opponents. Level 0 (random) is the framework's.

Both bots plan their own turns on a copy of the game (``sampleEnv``: the decks reshuffled, all
else as the state shows), the other players left out, and score the position they reach with
``position_value``: points, plus spices at about the points they convert into, plus how close the
best point card on show is, plus the merchant cards held (more when they are in the hand).
The moves inside a turn (which spice to put down, repeat a trade or not, which spice to raise or
discard) are chosen greedily by the same value.

* Level 1, ``greedy``: buys the best point card it can pay for, else plays the turn whose end
  scores best (one turn ahead).
* Level 2, ``planner``: the same, looking two of its own turns ahead (every pair of first and
  second turns), so it rests or takes a card when that sets up a better next turn.

Both read nothing but their own state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import (
    BUY,
    CARD_GAIN,
    CARD_PAY,
    CARD_UPGRADES,
    E_GOLD,
    E_PHASE,
    E_POINT_ROW,
    E_RESULT,
    E_SILVER,
    E_TO_MOVE,
    GOLD_POINTS,
    IN_HAND,
    MAIN,
    NUM_ACTIONS,
    NUM_MERCHANT,
    NUM_SPICES,
    P_HAND,
    P_POINTS,
    P_SPICES,
    PLACE,
    POINT_COST,
    POINT_ROW,
    POINT_VALUE,
    REST,
    S_SEAT,
    SILVER_POINTS,
    SPICE,
    getPlayerState,
    isValidAction,
    player_base,
    sampleEnv,
    state_phase,
    stepEnv,
)

SPICE_WORTH = np.array([1.0, 2.0, 3.0, 4.0])  # about the points a spice turns into
HELD_SPICE = 0.6  # a spice in the caravan counts this share of its worth
TARGET_SHARE = 0.5  # share of the best point card's margin (points minus 2 per missing worth)
MISSING_COST = 2.0
CARD_SHARE = 0.25  # a held merchant card counts this share of its net worth per use
READY_SHARE = 0.15  # and this much more while it is in the hand


@njit(cache=True)
def card_worth(card) -> float:
    """Net spice worth of one use of a merchant card (an upgrade step counts 1)."""
    worth = CARD_UPGRADES[card]
    for s in range(NUM_SPICES):
        worth += SPICE_WORTH[s] * (CARD_GAIN[card, s] - CARD_PAY[card, s])
    return worth


@njit(cache=True)
def coin_on(env, place) -> float:
    """Points of the coin that buying the point card at ``place`` brings."""
    if place == 0:
        return GOLD_POINTS if env[E_GOLD] > 0 else (SILVER_POINTS if env[E_SILVER] > 0 else 0.0)
    if place == 1 and env[E_GOLD] > 0 and env[E_SILVER] > 0:
        return SILVER_POINTS
    return 0.0


@njit(cache=True)
def position_value(env, me) -> float:
    """How good ``me``'s position is, in points (see the module docstring)."""
    base = player_base(me)
    value = env[base + P_POINTS]
    for s in range(NUM_SPICES):
        value += HELD_SPICE * SPICE_WORTH[s] * env[base + P_SPICES + s]
    best = 0.0
    for k in range(POINT_ROW):
        card = int(env[E_POINT_ROW + k])
        if card < 0:
            continue
        missing = 0.0
        for s in range(NUM_SPICES):
            missing += SPICE_WORTH[s] * max(POINT_COST[card, s] - env[base + P_SPICES + s], 0.0)
        best = max(best, POINT_VALUE[card] + coin_on(env, k) - MISSING_COST * missing)
    value += TARGET_SHARE * best
    for c in range(NUM_MERCHANT):
        held = env[base + P_HAND + c]
        if held > 0:
            worth = max(card_worth(c), 0.0)
            value += CARD_SHARE * worth
            if held == IN_HAND:
                value += READY_SHARE * worth
    return value


@njit(cache=True)
def inner_move(env, me) -> int:
    """The greedy move inside a turn (putting down, repeating, raising, discarding): the valid one
    whose result ``position_value`` rates best."""
    state = getPlayerState(env, me)
    phase = state_phase(state)
    if phase == PLACE:  # the cheapest spice
        for s in range(NUM_SPICES):
            if isValidAction(state, SPICE + s):
                return SPICE + s
    best, best_value = REST, -1e18
    for a in range(NUM_ACTIONS):
        if isValidAction(state, a):
            child = stepEnv(a, env.copy())
            value = position_value(child, me)
            if value > best_value:
                best, best_value = a, value
    return best


@njit(cache=True)
def finish_turn(env, me):
    """Play the rest of ``me``'s turn with ``inner_move``."""
    while env[E_RESULT] < 0 and int(env[E_TO_MOVE]) == me and env[E_PHASE] != MAIN:
        stepEnv(inner_move(env, me), env)


@njit(cache=True)
def best_buy(env, me) -> int:
    """The point card worth most (with its coin) that ``me`` can pay for, as an action; -1 if none."""
    state = getPlayerState(env, me)
    best, best_points = -1, -1.0
    for k in range(POINT_ROW):
        if isValidAction(state, BUY + k):
            points = POINT_VALUE[int(env[E_POINT_ROW + k])] + coin_on(env, k)
            if points > best_points:
                best, best_points = BUY + k, points
    return best


@njit(cache=True)
def plan_value(env, me, depth) -> float:
    """The best ``position_value`` ``me`` reaches in ``depth`` of its own turns from the start of
    one (the other players skipped)."""
    if depth == 0 or env[E_RESULT] >= 0:
        return position_value(env, me)
    state = getPlayerState(env, me)
    best = -1e18
    for a in range(NUM_ACTIONS):
        if not isValidAction(state, a):
            continue
        child = stepEnv(a, env.copy())
        finish_turn(child, me)
        child[E_TO_MOVE] = me
        child[E_PHASE] = MAIN
        best = max(best, plan_value(child, me, depth - 1))
    return best


@njit(cache=True)
def plan_action(state, depth) -> int:
    """The bots' choice for ``state``'s player, planning ``depth`` of its own turns."""
    phase = state_phase(state)
    if phase == 0:
        return REST
    me = int(state[S_SEAT])
    env = sampleEnv(state)
    if phase != MAIN:
        return inner_move(env, me)
    buy = best_buy(env, me)
    if buy >= 0:
        return buy
    best, best_value = REST, -1e18
    for a in range(NUM_ACTIONS):
        if not isValidAction(state, a):
            continue
        child = stepEnv(a, env.copy())
        finish_turn(child, me)
        child[E_TO_MOVE] = me
        child[E_PHASE] = MAIN
        value = plan_value(child, me, depth - 1)
        if value > best_value:
            best, best_value = a, value
    return best


@njit(cache=True)
def greedy(state, data):
    """Greedy merchant: buys the best point card it can pay for, else plays the turn that leaves it best placed (points, spices, the nearest point card, its cards)."""
    return plan_action(state, 1), data


@njit(cache=True)
def planner(state, data):
    """Planner: like the greedy merchant, but looks two of its own turns ahead (every first turn with every second)."""
    return plan_action(state, 2), data


LEVELS = {1: greedy, 2: planner}
