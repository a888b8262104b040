"""Built-in Catan opponents. Level 0 (random) is the framework's.

* Level 1, ``builder``: settles on the corners whose numbers roll most often, builds a city when
  it can, else a settlement, else a road towards the best free corner, else buys a development
  card; trades with the bank (at its best ratio) only for a card its next build lacks; plays a
  knight when the robber sits on its hexes, road building, year of plenty and monopoly for what
  it lacks; puts the robber where the others produce most and it produces nothing, robbing the
  player with most points; discards what it holds most of; declines every trade offer and makes
  none.
* Level 2, ``planner``: the builder with a better eye: a corner is also worth the kinds it does
  not produce yet, scarce numbers, a port for a resource it will produce; it plans its next build
  (city, settlement, or road and settlement) and trades with the bank for it, plays knights to
  take the largest army, robs the leader, and accepts an offer that gives it a card its next
  build lacks for one it does not need. Both bots read nothing but their own state.

Under the no-exchange rules both move a store card their next build lacks to their hand; the
planner also moves one while it holds fewer than 7 cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import (
    ACCEPT,
    ASK,
    ASK_DONE,
    BANK,
    BANK_GIVE,
    BANK_TAKE,
    BUY_CITY,
    BUY_DEV,
    BUY_ROAD,
    BUY_SETTLEMENT,
    C_CITY,
    C_DEV,
    C_ROAD,
    C_SETTLEMENT,
    CHOOSE,
    CITY,
    COST,
    DECLINE,
    DESERT,
    DEV_PICK,
    DISCARD,
    EDGE,
    EDGE_VERTS,
    END_TURN,
    GIVE,
    HEX,
    HEX_VERTS,
    KNIGHT,
    MAIN,
    MONOPOLY,
    NO_TRADE,
    NUM_ACTIONS,
    NUM_EDGES,
    NUM_HEXES,
    NUM_VERTS,
    OFFER,
    OFFER_DONE,
    P_CITIES,
    P_KNIGHTS,
    P_POINTS,
    P_RATIO,
    P_RES_TOTAL,
    P_SETTLEMENTS,
    PLAY,
    RESPOND,
    ROAD,
    ROAD_BUILDING,
    ROB,
    ROBBER,
    ROLL,
    S_ARMY,
    S_ASK,
    S_BANK,
    S_DEV,
    S_GIVE,
    S_NUMBER,
    S_PLAYERS,
    S_PORT,
    S_ROBBER,
    S_SEATS,
    S_STORE,
    S_TERRAIN,
    S_VERT_LEVEL,
    S_VERT_OWNER,
    SETTLE,
    SETUP,
    START,
    STEAL,
    STORE,
    TAKE,
    VERT_HEXES,
    VERT_PORT,
    VERT_VERTS,
    YEAR_OF_PLENTY,
    isValidAction,
    mine,
    my_phase,
    settlement_spot,
)


@njit(cache=True)
def pips(number) -> float:
    """How many of the 36 dice outcomes roll ``number`` (0 for the desert)."""
    return 0.0 if number < 2 else 6.0 - abs(7.0 - number)


@njit(cache=True)
def produced(state) -> np.ndarray:
    """My expected cards of each resource per roll (buildings counted, the robber ignored)."""
    out = np.zeros(5)
    for v in range(NUM_VERTS):
        if state[S_VERT_OWNER + v] == 1.0:
            for h in VERT_HEXES[v]:
                if h >= 0 and state[S_TERRAIN + h] != DESERT:
                    out[int(state[S_TERRAIN + h])] += pips(state[S_NUMBER + h]) * state[S_VERT_LEVEL + v] / 36.0
    return out


@njit(cache=True)
def corner_value(state, v, smart) -> float:
    """What a settlement on corner ``v`` is worth to me: its dice pips, and for ``smart`` the new
    kinds, scarce numbers and a useful port."""
    have = produced(state)
    value = 0.0
    for h in VERT_HEXES[v]:
        if h < 0 or state[S_TERRAIN + h] == DESERT:
            continue
        p = pips(state[S_NUMBER + h])
        if smart:
            k = int(state[S_TERRAIN + h])
            if have[k] == 0.0:
                p *= 1.5
            if k >= 3:  # wheat and ore build cities
                p *= 1.2
            if h == int(state[S_ROBBER]):
                p *= 0.5
        value += p
    if smart and VERT_PORT[v] >= 0:
        kind = int(state[S_PORT + VERT_PORT[v]])
        value += 1.0 if kind == DESERT else (2.0 if have[kind] > 0.1 else 0.5)
    return value


@njit(cache=True)
def best_corner(state, need_road, smart) -> int:
    best, best_value = -1, -1.0
    for v in range(NUM_VERTS):
        if settlement_spot(state, v, need_road):
            value = corner_value(state, v, smart)
            if value > best_value:
                best, best_value = v, value
    return best


@njit(cache=True)
def road_value(state, e, smart) -> float:
    """A road is worth the best free corner at its far end or one road further."""
    value = 0.0
    for v in EDGE_VERTS[e]:
        if settlement_spot(state, v, False):
            value = max(value, corner_value(state, v, smart) + 1.0)
        for u in VERT_VERTS[v]:
            if u >= 0 and settlement_spot(state, u, False):
                value = max(value, 0.8 * corner_value(state, u, smart))
    return value + 0.01 * np.random.random()


@njit(cache=True)
def pick(state, first, count, score) -> int:
    """The valid action among ``first .. first+count-1`` with the highest score (-1 none)."""
    best, best_score = -1, -1e18
    for i in range(count):
        if isValidAction(state, first + i) and score[i] > best_score:
            best, best_score = first + i, score[i]
    return best


@njit(cache=True)
def goal(state, smart) -> int:
    """The build I save for: a city, a settlement, a road (towards one) or a development card."""
    if mine(state, 0, P_SETTLEMENTS) > 0 and mine(state, 0, P_CITIES) < 4:
        if not smart or state[S_SEATS + 4] >= 2 or mine(state, 0, P_SETTLEMENTS) >= 2:
            return C_CITY
    if mine(state, 0, P_SETTLEMENTS) + mine(state, 0, P_CITIES) < 9:
        for v in range(NUM_VERTS):
            if settlement_spot(state, v, True):
                return C_SETTLEMENT
        return C_ROAD
    return C_DEV


@njit(cache=True)
def lacking(state, cost) -> int:
    """The resource ``cost`` lacks most (-1: I can pay it)."""
    worst, short = -1, 0.0
    for k in range(5):
        gap = COST[cost, k] - state[S_SEATS + k]
        if gap > short:
            worst, short = k, gap
    return worst


@njit(cache=True)
def spare(state, cost) -> np.ndarray:
    """My cards beyond what ``cost`` needs."""
    out = np.zeros(5)
    for k in range(5):
        out[k] = state[S_SEATS + k] - COST[cost, k]
    return out


@njit(cache=True)
def robber_score(state, smart) -> np.ndarray:
    score = np.zeros(NUM_HEXES)
    n = int(state[S_PLAYERS])
    leader, lead = 1, -1.0
    for rel in range(1, n):
        if mine(state, rel, P_POINTS) > lead:
            leader, lead = rel, mine(state, rel, P_POINTS)
    for h in range(NUM_HEXES):
        p = pips(state[S_NUMBER + h])
        for v in HEX_VERTS[h]:
            owner = int(state[S_VERT_OWNER + v])
            level = state[S_VERT_LEVEL + v]
            if owner == 1:
                score[h] -= 10.0 * p * level
            elif owner > 1:
                score[h] += p * level * (2.0 if smart and owner - 1 == leader else 1.0)
    return score


@njit(cache=True)
def robbed(state) -> bool:
    h = int(state[S_ROBBER])
    for v in HEX_VERTS[h]:
        if state[S_VERT_OWNER + v] == 1.0:
            return True
    return False


@njit(cache=True)
def main_action(state, smart) -> int:
    """My move while building: the next build, a card, a bank trade, or the end of the turn."""
    if isValidAction(state, PLAY + KNIGHT):
        army = mine(state, 0, P_KNIGHTS)
        holder = int(state[S_ARMY]) - 1
        wants_army = smart and holder != 0 and army >= 1 and (holder < 0 or army + 1 > mine(state, holder, P_KNIGHTS))
        if robbed(state) or wants_army:
            return PLAY + KNIGHT
    for d in (ROAD_BUILDING, YEAR_OF_PLENTY, MONOPOLY):
        if isValidAction(state, PLAY + d) and (d != MONOPOLY or state[S_SEATS + 3] + state[S_SEATS + 4] >= 2):
            return PLAY + d
    for a in (BUY_CITY, BUY_SETTLEMENT):
        if isValidAction(state, a):
            return a
    target = goal(state, smart)
    need = lacking(state, target)  # the no-exchange rules: a store card my next build lacks
    if need >= 0 and isValidAction(state, STORE + need):
        return STORE + need
    if isValidAction(state, BUY_ROAD) and (target == C_ROAD or (not smart and best_corner(state, True, False) < 0)):
        return BUY_ROAD
    if isValidAction(state, BANK) and lacking(state, target) >= 0:
        extra = spare(state, target)
        for k in range(5):
            if extra[k] >= mine(state, 0, P_RATIO + k) and isValidAction(state, BANK):
                return BANK
    if isValidAction(state, BUY_DEV) and (target == C_DEV or not smart or lacking(state, target) >= 0):
        if not smart or target == C_DEV or state[S_SEATS + 2] > COST[target, 2]:
            return BUY_DEV
    stored = pick(state, STORE, 5, state[S_STORE : S_STORE + 5])
    if smart and stored >= 0 and np.sum(state[S_SEATS : S_SEATS + 5]) < 7.0:  # safe from a 7 still
        return stored
    return END_TURN


@njit(cache=True)
def choose(state, smart) -> int:
    phase = my_phase(state)
    scores = np.zeros(NUM_ACTIONS)
    if phase == SETUP:
        return best_corner(state, False, smart)
    if phase == SETTLE:
        return best_corner(state, True, smart)
    if phase == ROAD:
        for e in range(NUM_EDGES):
            scores[e] = road_value(state, e, smart)
        return pick(state, EDGE, NUM_EDGES, scores)
    if phase == CITY:
        for v in range(NUM_VERTS):
            scores[v] = corner_value(state, v, False)
        return pick(state, 0, NUM_VERTS, scores)
    if phase == START:
        if isValidAction(state, PLAY + KNIGHT) and robbed(state):
            return PLAY + KNIGHT
        return ROLL
    if phase == MAIN:
        return main_action(state, smart)
    if phase == DISCARD:
        target = goal(state, smart)
        for k in range(5):
            scores[k] = state[S_SEATS + k] - (2.0 * COST[target, k] if smart else 0.0)
        return pick(state, GIVE, 5, scores)
    if phase == ROBBER:
        return pick(state, HEX, NUM_HEXES, robber_score(state, smart))
    if phase == ROB:
        for rel in range(1, 4):
            scores[rel - 1] = mine(state, rel, P_POINTS) * 10.0 + mine(state, rel, P_RES_TOTAL)
        return pick(state, STEAL, 3, scores)
    if phase == DEV_PICK:
        target = goal(state, smart)
        need = lacking(state, target)
        for k in range(5):
            scores[k] = (10.0 if k == need else 0.0) + (COST[C_CITY, k] + COST[C_SETTLEMENT, k])
            if int(state[S_DEV]) - 1 == MONOPOLY:
                scores[k] = 3.0 - state[S_SEATS + k] + scores[k]
        return pick(state, TAKE, 5, scores)
    if phase == BANK_GIVE:
        extra = spare(state, goal(state, smart))
        for k in range(5):
            scores[k] = extra[k] - mine(state, 0, P_RATIO + k)
        return pick(state, GIVE, 5, scores)
    if phase == BANK_TAKE:
        target = goal(state, smart)
        for k in range(5):
            scores[k] = COST[target, k] - state[S_SEATS + k] + 0.1 * state[S_BANK + k]
        return pick(state, TAKE, 5, scores)
    if phase == RESPOND:
        if smart:
            target = goal(state, smart)
            extra = spare(state, target)
            gain, loss = 0.0, 0.0
            for k in range(5):  # the proposer gives S_GIVE and asks S_ASK of me
                gain += min(state[S_GIVE + k], max(COST[target, k] - state[S_SEATS + k], 0.0))
                loss += max(state[S_ASK + k] - max(extra[k], 0.0), 0.0)
            if gain > 0.0 and loss == 0.0:
                return ACCEPT
        return DECLINE
    if phase == OFFER:
        return OFFER_DONE if isValidAction(state, OFFER_DONE) else pick(state, GIVE, 5, scores)
    if phase == ASK:
        return ASK_DONE if isValidAction(state, ASK_DONE) else pick(state, TAKE, 5, scores)
    if phase == CHOOSE:
        return NO_TRADE
    return END_TURN


@njit(cache=True)
def first_valid(state) -> int:
    for a in range(NUM_ACTIONS):
        if isValidAction(state, a):
            return a
    return END_TURN


@njit(cache=True)
def act(state, smart) -> int:
    action = choose(state, smart)
    return action if action >= 0 and isValidAction(state, action) else first_valid(state)


@njit(cache=True)
def builder(state, data):
    """Builder: best-rolling corners, cities first, bank trades for its next build, no offers."""
    return act(state, False), data


@njit(cache=True)
def planner(state, data):
    """Planner: the builder valuing new kinds, scarce numbers and ports, planning its next build,
    chasing the largest army and accepting offers that help it."""
    return act(state, True), data


LEVELS = {1: builder, 2: planner}
