"""Built-in Stone Age opponents. Level 0 (random) is the framework's.

Both bots share the moves after placing (``common_move``): take the village places back first,
then roll (using tools only when they lift the yield), the free resources, then build and buy;
pay with the cheapest resources for cards and food and the dearest for buildings; feed with
resources when that costs fewer than 10 points.

* Level 1, ``gatherer``: places by a fixed priority: an affordable building, a new worker, the
  field, an affordable card, the toolmaker, the hunt when food is short, then the resource site
  that yields most, all its workers at once.
* Level 2, ``planner``: scores every placement in points per worker, with the game's likely
  remaining rounds: workers, agriculture and tools pay back per round left; cards are worth their
  immediate effect and what their symbol or multiplier adds to the final score; buildings their
  points over the resources they use; the hunt only what the next feeding needs.

Both read nothing but their own state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import (
    B_ANY,
    B_COUNT,
    B_KINDS,
    B_POINTS,
    BUILD_BLOCK,
    C_ANY,
    C_CULTURE,
    C_DICE_ALL,
    C_EXTRA,
    C_FIELD,
    C_FOOD,
    C_MULT,
    C_MULT_KIND,
    C_ONE_USE,
    C_POINTS,
    C_RES,
    C_ROLL,
    C_TOOL,
    CIV_BLOCK,
    COUNT,
    DIE,
    DONE,
    FEED_PENALTY,
    FEED_RES,
    FREE,
    GAIN,
    NUM_ACTIONS,
    ONE_USE,
    P_CULTURE,
    P_FIELD,
    P_FOOD,
    P_HUTS,
    P_ONE_USE,
    P_RES,
    P_TOOLS,
    P_USED,
    P_WORKERS,
    PAY,
    PH_COUNT,
    PH_DICE,
    PH_FEED,
    PH_FREE,
    PH_PAY_ANY,
    PH_PAY_CIV,
    PH_PAY_FOOD,
    PH_PAY_KINDS,
    PH_PLACE,
    PH_TAKE,
    PH_TOOLS,
    PLACE,
    PLACE_BUILD,
    PLACE_CIV,
    Q_LEFT,
    Q_PLAYER,
    S_ADDED,
    S_BUILD,
    S_CIV,
    S_CIV_LEFT,
    S_DICE,
    S_OWE,
    S_SEATS,
    S_SITE,
    SITE_FIELD,
    SITE_HUNT,
    SITE_HUT,
    SITE_TOOLS,
    SITE_WOOD,
    STOP_PAYING,
    TAKE,
    TAKE_BUILD,
    TAKE_CIV,
    TOOL,
    VALUES,
    count_limit,
    isValidAction,
    kinds_feasible,
    state_phase,
)

ME = S_SEATS + Q_PLAYER
TAKE_ORDER = np.array(
    [
        TAKE + SITE_FIELD,
        TAKE + SITE_TOOLS,
        TAKE + SITE_HUT,
        TAKE + 6,
        TAKE + 5,
        TAKE + 4,
        TAKE + 3,
        TAKE + SITE_HUNT,
        FREE,
        TAKE_BUILD,
        TAKE_BUILD + 1,
        TAKE_BUILD + 2,
        TAKE_BUILD + 3,
        TAKE_CIV,
        TAKE_CIV + 1,
        TAKE_CIV + 2,
        TAKE_CIV + 3,
    ]
)
DIE_ORDER = np.array([6, 5, 4, 3, 2, 1])  # field, tool, gold, stone, brick, wood


@njit(cache=True)
def first_valid(state, actions) -> int:
    for a in actions:
        if isValidAction(state, a):
            return int(a)
    for a in range(NUM_ACTIONS):
        if isValidAction(state, a):
            return a
    return DONE


@njit(cache=True)
def food_need(state) -> float:
    """Food still missing for the next feeding (0 when there is enough)."""
    return max(state[ME + P_WORKERS] - state[ME + P_FIELD] - state[ME + P_FOOD], 0.0)


@njit(cache=True)
def best_tool(state) -> int:
    """TOOLS: the smallest tool that lifts the yield one step, else DONE."""
    value = 2.0 if int(state[S_SITE]) - 1 == SITE_HUNT else VALUES[int(state[S_SITE]) - 1 - SITE_WOOD]
    total = state[S_DICE] + state[S_ADDED]
    short = value - total % value
    best, size = DONE, 99.0
    for t in range(3):
        a = state[ME + P_TOOLS + t]
        if a >= short and a < size and state[ME + P_USED + t] < 0.5:
            best, size = TOOL + t, a
    for t in range(3):
        if state[ME + P_ONE_USE + t] > 0 and t + 2 >= short and t + 2 < size:
            best, size = ONE_USE + t, t + 2.0
    return best


@njit(cache=True)
def pay_order(state, dearest) -> int:
    """A valid PAY action: the cheapest resource, or the dearest one."""
    for i in range(4):
        r = 3 - i if dearest else i
        if isValidAction(state, PAY + r):
            return PAY + r
    return first_valid(state, np.array([STOP_PAYING]))


@njit(cache=True)
def common_move(state, phase) -> int:
    """Every phase but placing."""
    if phase == PH_TAKE:
        return first_valid(state, TAKE_ORDER)
    if phase == PH_TOOLS:
        return best_tool(state)
    if phase == PH_PAY_CIV or phase == PH_PAY_FOOD:
        return pay_order(state, False)
    if phase == PH_PAY_ANY or phase == PH_PAY_KINDS:
        return pay_order(state, True)
    if phase == PH_FEED:
        return FEED_RES if state[S_OWE] * 3 < 10 else FEED_PENALTY
    if phase == PH_DICE:
        for v in DIE_ORDER:
            if isValidAction(state, DIE + v):
                return DIE + v
    if phase == PH_FREE:
        return GAIN + 3
    if phase == PH_COUNT:
        limit = count_limit(state)
        if int(state[S_SITE]) - 1 == SITE_HUNT:
            want = int(np.ceil(food_need(state) / 3.0)) + 1
            return COUNT + max(min(want, limit), 1)
        return COUNT + limit
    return first_valid(state, np.array([DONE]))


@njit(cache=True)
def best_site(state) -> int:
    """The resource site (or the hunt) whose roll yields most points with all my workers."""
    left = state[S_SEATS + Q_LEFT]
    tools = state[ME + P_TOOLS] + state[ME + P_TOOLS + 1] + state[ME + P_TOOLS + 2]
    best, value = PLACE + SITE_HUNT, 0.0
    for site in range(SITE_WOOD, SITE_HUNT):
        a = PLACE + site
        if isValidAction(state, a):
            v = VALUES[site - SITE_WOOD]
            got = np.floor((3.5 * left + tools) / v) * v
            if got > value:
                best, value = a, got
    return best


@njit(cache=True)
def building_payable(state, at) -> bool:
    """Can I pay for the building shown at state offset ``at`` with what I hold now?"""
    stock = state[ME + P_RES : ME + P_RES + 4]
    if state[at + 4 + B_ANY] > 0:
        return stock.sum() >= 3
    if state[at + 4 + B_COUNT] > 0:
        return kinds_feasible(np.zeros(4), stock, state[at + 4 + B_COUNT], state[at + 4 + B_KINDS])
    for r in range(4):
        if stock[r] < state[at + 4 + r]:
            return False
    return True


@njit(cache=True)
def affordable_building(state) -> int:
    """A stack I may place on whose building I can pay for, else -1."""
    for k in range(4):
        if isValidAction(state, PLACE_BUILD + k) and building_payable(state, S_BUILD + k * BUILD_BLOCK):
            return PLACE_BUILD + k
    return -1


@njit(cache=True)
def gatherer(state, data):
    """Places by a fixed priority (building, worker, field, card, toolmaker, hunt, best site)."""
    phase = state_phase(state)
    if phase != PH_PLACE:
        return common_move(state, phase), data
    a = affordable_building(state)
    if a >= 0:
        return a, data
    if isValidAction(state, PLACE + SITE_HUT) and state[ME + P_WORKERS] < 8:
        return PLACE + SITE_HUT, data
    if isValidAction(state, PLACE + SITE_FIELD) and state[ME + P_FIELD] < 6:
        return PLACE + SITE_FIELD, data
    stock = state[ME + P_RES : ME + P_RES + 4].sum()
    for k in range(4):
        if isValidAction(state, PLACE_CIV + k) and stock >= k + 1 + 2:
            return PLACE_CIV + k, data
    if isValidAction(state, PLACE + SITE_TOOLS) and state[ME + P_TOOLS : ME + P_TOOLS + 3].sum() < 6:
        return PLACE + SITE_TOOLS, data
    if food_need(state) > 0:
        return PLACE + SITE_HUNT, data
    return best_site(state), data


# ---- level 2 -----------------------------------------------------------------------------------


@njit(cache=True)
def rounds_left(state) -> float:
    """About how many rounds the game has left (cards run out at ~2.5 a round, stacks at ~0.5)."""
    rounds = state[S_CIV_LEFT] / 2.5
    for k in range(4):
        at = S_BUILD + k * BUILD_BLOCK
        if state[at] > 0.5:
            rounds = min(rounds, state[at + 1] * 1.8)
    return max(rounds, 0.5)


@njit(cache=True)
def card_value(state, at, rounds) -> float:
    """Points a civilisation card (state columns from ``at``) is worth to me."""
    v = state[at + C_POINTS] + 0.5 * state[at + C_FOOD]
    for r in range(4):
        v += state[at + C_RES + r] * VALUES[r] * 0.8
    v += (state[at + C_TOOL] + state[at + C_FIELD] * 1.5) * min(rounds, 6.0) * 0.7
    v += state[at + C_ONE_USE] * 0.8 + state[at + C_ANY] * 4.0 + state[at + C_EXTRA] * 4.0
    v += state[at + C_DICE_ALL] * 4.0
    if state[at + C_ROLL] > 0:
        v += 5.6  # two dice: about 7 points of the resource
    symbol = int(state[at + C_CULTURE])
    if symbol > 0:
        distinct, mine = 0, state[ME + P_CULTURE + symbol - 1]
        for c in range(8):
            if state[ME + P_CULTURE + c] > mine:
                distinct += 1
        v += 2.0 * distinct + 1.0  # (d+1)^2 - d^2 for the set it joins
    kind = int(state[at + C_MULT_KIND])
    if kind > 0:
        if kind == 1:
            count = state[ME + P_FIELD] + rounds * 0.3
        elif kind == 2:
            count = state[ME + P_HUTS] + rounds * 0.4
        elif kind == 3:
            count = state[ME + P_TOOLS] + state[ME + P_TOOLS + 1] + state[ME + P_TOOLS + 2] + rounds * 0.3
        else:
            count = state[ME + P_WORKERS] + rounds * 0.2
        v += state[at + C_MULT] * count
    return v


@njit(cache=True)
def planner(state, data):
    """Scores each placement in points per worker for the rounds the game likely has left."""
    phase = state_phase(state)
    if phase != PH_PLACE:
        return common_move(state, phase), data
    rounds = rounds_left(state)
    stock = state[ME + P_RES : ME + P_RES + 4]
    held = stock.sum()
    best, value = PLACE + SITE_HUNT, -1.0
    short = food_need(state)
    if short > 0:
        value = 3.0 + short
    tools = state[ME + P_TOOLS] + state[ME + P_TOOLS + 1] + state[ME + P_TOOLS + 2]
    left = state[S_SEATS + Q_LEFT]
    for a in range(PLACE, PLACE_BUILD + 4):
        if not isValidAction(state, a):
            continue
        v = 0.0
        if a == PLACE + SITE_HUT:
            v = (3.2 * (rounds - 1) - 1.0) / 2.0 if state[ME + P_WORKERS] < 10 else 0.0
        elif a == PLACE + SITE_FIELD:
            v = 1.6 * (rounds - 1) if state[ME + P_FIELD] < state[ME + P_WORKERS] else 0.5
        elif a == PLACE + SITE_TOOLS:
            v = 0.9 * min(rounds - 1, 6.0) if tools < 12 else 0.0
        elif a < PLACE + SITE_HUNT:
            site = a - PLACE
            k = min(left, 7.0)
            val = VALUES[site - SITE_WOOD]
            v = np.floor((3.5 * k + tools) / val) * val * 0.8 / k
            if rounds < 1.5:
                v *= 0.4  # resources only count 1 at the end
        elif PLACE_CIV <= a < PLACE_BUILD:
            k = a - PLACE_CIV
            if held >= k + 1:
                v = card_value(state, S_CIV + k * CIV_BLOCK + 3, rounds) - (k + 1) * 2.0
        elif a >= PLACE_BUILD:
            at = S_BUILD + (a - PLACE_BUILD) * BUILD_BLOCK
            if building_payable(state, at):
                pts = state[at + 4 + B_POINTS]
                if state[at + 4 + B_ANY] > 0:
                    pts = min(held, 7.0) * 4.5
                elif state[at + 4 + B_COUNT] > 0:
                    pts = state[at + 4 + B_COUNT] * 4.5
                v = pts * 0.8
        if v > value:
            best, value = a, v
    return best, data


LEVELS = {1: gatherer, 2: planner}
