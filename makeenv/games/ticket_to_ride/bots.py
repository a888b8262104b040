"""Built-in Ticket to Ride opponents. Level 0 (random) is the framework's.

Both bots plan over the map from their own state: the cheapest path (in trains, over free routes
and their own, ``route_open``) joining the two cities of each ticket they hold and have not
completed yet. They claim a route of those paths when they can pay for it, else draw the cards
those routes need (a face-up card of a wanted colour, else the deck); when every ticket is done
they claim the longest route they can pay for. They pay with the colour they want least.

* Level 1, ``ticket_runner``: plans each ticket on its own, keeps the cheapest tickets offered
  (as few as allowed) and never draws tickets again.
* Level 2, ``route_planner``: plans the tickets together (a path already planned costs nothing to
  the next ticket), keeps each ticket that fits its trains, draws new tickets when its own are
  done and it has trains to spare, and takes a face-up locomotive when no wanted colour shows.

Both read nothing but their own state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import (
    B_TRAINS,
    BLIND,
    CHOOSING,
    CLAIM,
    DIG,
    DIGGING,
    DISCARD,
    GIVE_UP,
    KEEP,
    KEPT,
    LOCO,
    MAIN,
    NUM_CITIES,
    NUM_COLOURS,
    NUM_ROUTES,
    NUM_TICKETS,
    OFFERED,
    PASS,
    PAY,
    PAYING,
    ROUTE_COLOUR,
    ROUTE_ENDS,
    ROUTE_LENGTH,
    ROUTE_LOCOS,
    S_FACE,
    S_FINAL,
    S_HAND,
    S_KEEP_MIN,
    S_OWNER,
    S_SEATS,
    S_TDECK_LEFT,
    S_TICKETS,
    SECOND,
    TAKE,
    TICKET_ENDS,
    TICKET_POINTS,
    TICKETS,
    can_draw,
    components,
    find,
    getValidActions,
    most_of_a_colour,
    offered,
    route_open,
    state_phase,
)

FAR = 1e9


@njit(cache=True)
def route_costs(state):
    """Trains each route costs me: 0 for mine, its length when I may still claim it, FAR else."""
    cost = np.full(NUM_ROUTES, FAR)
    trains = state[S_SEATS + B_TRAINS]
    for r in range(NUM_ROUTES):
        if state[S_OWNER + r] == 1.0:
            cost[r] = 0.0
        elif route_open(state, r) and ROUTE_LENGTH[r] <= trains:
            cost[r] = ROUTE_LENGTH[r]
    return cost


@njit(cache=True)
def cheapest_path(cost, source, target, via):
    """Dijkstra over the cities: the trains from ``source`` to ``target`` (FAR when cut off);
    ``via[city]`` is the route reaching each city on the way."""
    dist = np.full(NUM_CITIES, FAR)
    done = np.zeros(NUM_CITIES, dtype=np.bool_)
    dist[source] = 0.0
    via[:] = -1
    for _ in range(NUM_CITIES):
        city, best = -1, FAR
        for c in range(NUM_CITIES):
            if not done[c] and dist[c] < best:
                city, best = c, dist[c]
        if city < 0 or city == target:
            break
        done[city] = True
        for r in range(NUM_ROUTES):
            if cost[r] >= FAR:
                continue
            a, b = ROUTE_ENDS[r, 0], ROUTE_ENDS[r, 1]
            other = b if a == city else (a if b == city else -1)
            if other >= 0 and best + cost[r] < dist[other]:
                dist[other] = best + cost[r]
                via[other] = r
    return dist[target]


@njit(cache=True)
def plan(state, joint, want, status):
    """Mark in ``want`` (per route, the ticket points riding on it) the paths of my tickets with
    ``status`` (KEPT or OFFERED) not completed yet; with ``joint`` a planned path costs nothing to
    the next ticket. Returns the trains the plan still needs."""
    cost = route_costs(state)
    parent = np.zeros(NUM_CITIES, dtype=np.int64)
    components(state, S_OWNER, 1.0, parent)
    via = np.zeros(NUM_CITIES, dtype=np.int64)
    need = 0.0
    for t in range(NUM_TICKETS):
        a, b = TICKET_ENDS[t, 0], TICKET_ENDS[t, 1]
        if state[S_TICKETS + t] != status or find(parent, a) == find(parent, b):
            continue
        if cheapest_path(cost, a, b, via) >= FAR:
            continue
        city = b
        while city != a:
            r = via[city]
            if cost[r] > 0:
                want[r] += TICKET_POINTS[t]
                need += cost[r]
                if joint:
                    cost[r] = 0.0
            city = ROUTE_ENDS[r, 0] if ROUTE_ENDS[r, 1] == city else ROUTE_ENDS[r, 1]
    return need


@njit(cache=True)
def wanted_colours(state, want):
    """Per colour, the ticket points of the planned routes it would pay (gray ones: my commonest
    colour); locomotives count for ferries."""
    weight = np.zeros(NUM_COLOURS)
    most, best = -1.0, 1
    for c in range(1, NUM_COLOURS):
        if state[S_HAND + c] > most:
            most, best = state[S_HAND + c], c
    for r in range(NUM_ROUTES):
        if want[r] > 0:
            weight[ROUTE_COLOUR[r] if ROUTE_COLOUR[r] >= 0 else best] += want[r]
            if ROUTE_LOCOS[r] > 0:
                weight[LOCO] += want[r]
    return weight


@njit(cache=True)
def choose_tickets(state, level) -> int:
    """Give back the costliest ticket offered (level 2: only one that does not fit its trains)."""
    want = np.zeros(NUM_ROUTES)
    budget = state[S_SEATS + B_TRAINS] - plan(state, level == 2, want, KEPT)
    if offered(state) <= state[S_KEEP_MIN]:
        return KEEP
    worst, worst_score = -1, -FAR
    kept_cost = route_costs(state)
    for r in range(NUM_ROUTES):
        if level == 2 and want[r] > 0:
            kept_cost[r] = 0.0
    via = np.zeros(NUM_CITIES, dtype=np.int64)
    for t in range(NUM_TICKETS):
        if state[S_TICKETS + t] == OFFERED:
            trains = cheapest_path(kept_cost, TICKET_ENDS[t, 0], TICKET_ENDS[t, 1], via)
            score = trains if level == 1 else trains - TICKET_POINTS[t]
            if trains > budget:
                score += FAR
            if score > worst_score:
                worst, worst_score = t, score
    if level == 2 and worst_score < 2 and offered(state) > 0:
        return KEEP
    return DISCARD + worst


@njit(cache=True)
def draw_action(state, weight, loco_ok) -> int:
    """The face-up card of the most wanted colour, else (``loco_ok``) a face-up locomotive, else
    the deck."""
    best, best_weight = -1, 0.0
    for c in range(1, NUM_COLOURS):
        if state[S_FACE + c] > 0.5 and weight[c] > best_weight:
            best, best_weight = c, weight[c]
    if best > 0:
        return TAKE + best
    if loco_ok and state[S_FACE + LOCO] > 0.5:
        return TAKE + LOCO
    if can_draw(state):
        return BLIND
    for c in range(1, NUM_COLOURS):
        if state[S_FACE + c] > 0.5:
            return TAKE + c
    return TAKE + LOCO


@njit(cache=True)
def decide(state, level) -> int:
    phase = state_phase(state)
    valid = getValidActions(state)
    if phase == DIGGING:
        return DIG if valid[DIG] > 0 else GIVE_UP
    if phase == CHOOSING:
        return choose_tickets(state, level)
    want = np.zeros(NUM_ROUTES)
    plan(state, level == 2, want, KEPT)
    weight = wanted_colours(state, want)
    if phase == PAYING:
        best, best_key = -1, FAR
        for c in range(1, NUM_COLOURS):
            if valid[PAY + c] > 0:
                key = weight[c] - 0.01 * state[S_HAND + c]
                if key < best_key:
                    best, best_key = c, key
        return PAY + best if best > 0 else PAY + LOCO
    if phase == SECOND:
        return draw_action(state, weight, False)
    if phase != MAIN:
        return int(np.argmax(valid))
    best, best_key = -1, 0.0
    planned = False
    for r in range(NUM_ROUTES):
        if want[r] > 0:
            planned = True
            if valid[CLAIM + r] > 0 and want[r] * 10 + ROUTE_LENGTH[r] > best_key:
                best, best_key = r, want[r] * 10 + ROUTE_LENGTH[r]
    if best >= 0:
        return CLAIM + best
    if not planned:
        if level == 2 and state[S_FINAL] == 0 and state[S_SEATS + B_TRAINS] >= 16 and state[S_TDECK_LEFT] > 0:
            return TICKETS
        for r in range(NUM_ROUTES):
            if valid[CLAIM + r] > 0 and ROUTE_LENGTH[r] > best_key:
                best, best_key = r, ROUTE_LENGTH[r]
        short = most_of_a_colour(state) < 6 and state[S_FINAL] == 0 and level == 2
        if best >= 0 and not (short and best_key < 3):
            return CLAIM + best
    action = draw_action(state, weight, level == 2)
    if valid[action] > 0:
        return action
    return PASS if valid[PASS] > 0 else int(np.argmax(valid))


@njit(cache=True)
def ticket_runner(state, data):
    """Level 1: joins its tickets one by one along the cheapest paths, keeps the cheapest ones."""
    return decide(state, 1), data


@njit(cache=True)
def route_planner(state, data):
    """Level 2: plans its tickets together, keeps the ones that fit and draws more when done."""
    return decide(state, 2), data


LEVELS = {1: ticket_runner, 2: route_planner}
