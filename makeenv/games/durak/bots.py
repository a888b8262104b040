"""Built-in Durak opponents. Level 0 (random) is the framework's.

* Level 1, ``thrifty``: leads and beats with its cheapest card (trumps count 13 ranks higher),
  adds only low cards while the talon lasts (any card once it is empty: first out wins), and takes
  rather than spend a high trump on a low card early on.
* Level 2, ``search``: single-observer information-set MCTS. Each simulation deals the unseen
  cards at random (``sampleEnv``: the other hands apart from the cards known to be there, and the
  talon), walks one tree of public moves (all Durak moves are public) with UCB1 counted over the
  simulations in which a move was available, and finishes the game with the level-1 player (with
  some randomness) for everybody. Both bots read nothing but their own state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import (
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_RANKS,
    PASS,
    S_ATTACKING,
    S_DEFENDING,
    S_OVER,
    S_TALON,
    card_to_beat,
    checkEnded,
    getAgentState,
    getCurrentPlayer,
    getValidActions,
    sampleEnv,
    stepEnv,
    table_ranks_mask,
    trump_of,
)

LOW_RANK = 8  # level 1 adds cards up to Ten while the talon lasts
SEARCH_ITERATIONS = 100  # simulations per decision of the level-2 bot (data[0] >= 1 overrides it)
ROLLOUT_EPSILON = 0.1  # share of random moves in the search's simulations
UCB_C = 0.7
MAX_ROLLOUT_STEPS = 600


@njit(cache=True)
def card_cost(card, trump) -> int:
    """How dear a card is to give away: its rank, plus 13 for a trump."""
    return card % NUM_RANKS + (NUM_RANKS if card // NUM_RANKS == trump else 0)


@njit(cache=True)
def thrifty_action(state) -> int:
    """The level-1 choice."""
    if state[S_OVER] > 0.5 or (state[S_ATTACKING] < 0.5 and state[S_DEFENDING] < 0.5):
        return PASS
    trump = trump_of(state)
    talon = state[S_TALON]
    valid = getValidActions(state)
    cheapest, cheapest_cost = -1, 1000
    for c in range(NUM_CARDS):
        if valid[c] == 1.0:
            cost = card_cost(c, trump)
            if cost < cheapest_cost:
                cheapest, cheapest_cost = c, cost
    if state[S_DEFENDING] > 0.5:
        if cheapest < 0:
            return PASS
        target = card_to_beat(state)
        # keep a high trump rather than spend it on a low card while the talon lasts
        if (
            talon > 8
            and cheapest // NUM_RANKS == trump
            and target // NUM_RANKS != trump
            and cheapest % NUM_RANKS >= 9
            and target % NUM_RANKS <= 6
        ):
            return PASS
        return cheapest
    if table_ranks_mask(state) == 0:  # leading
        return cheapest if cheapest >= 0 else PASS
    if cheapest < 0:
        return PASS
    if talon < 0.5 or (cheapest // NUM_RANKS != trump and cheapest % NUM_RANKS <= LOW_RANK):
        return cheapest
    return PASS


@njit(cache=True)
def thrifty(state, data):
    """Thrifty: plays its cheapest card, adds low cards, saves high trumps while the talon lasts."""
    return thrifty_action(state), data


@njit(cache=True)
def random_valid(state) -> int:
    valid = getValidActions(state)
    count = 0
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            count += 1
    k = int(np.random.random() * count)
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            if k == 0:
                return a
            k -= 1
    return PASS


@njit(cache=True)
def rollout_winner(env) -> int:
    """Finish the game with noisy level-1 players; the winner, or -1 if it runs too long."""
    for _ in range(MAX_ROLLOUT_STEPS):
        if checkEnded(env) >= 0:
            return checkEnded(env)
        s = getAgentState(env)
        if np.random.random() < ROLLOUT_EPSILON:
            stepEnv(random_valid(s), env)
        else:
            stepEnv(thrifty_action(s), env)
    return checkEnded(env)


@njit(cache=True)
def search_action(state, iterations) -> int:
    """Single-observer ISMCTS over public moves with determinized deals."""
    if state[S_OVER] > 0.5 or (state[S_ATTACKING] < 0.5 and state[S_DEFENDING] < 0.5):
        return PASS
    valid = getValidActions(state)
    only, count = PASS, 0
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            only = a
            count += 1
    if count <= 1:
        return only
    max_nodes = iterations + 1
    children = np.full((max_nodes, NUM_ACTIONS), -1, dtype=np.int64)
    visits = np.zeros(max_nodes, dtype=np.float64)
    wins = np.zeros(max_nodes, dtype=np.float64)  # for the player who made the move
    available = np.zeros(max_nodes, dtype=np.float64)
    mover = np.zeros(max_nodes, dtype=np.int64)
    path = np.zeros(max_nodes, dtype=np.int64)
    untried = np.zeros(NUM_ACTIONS, dtype=np.int64)
    used = 1
    for _ in range(iterations):
        env = sampleEnv(state)
        node, depth = 0, 0
        path[0] = 0
        while checkEnded(env) < 0:
            player = getCurrentPlayer(env)
            valid = getValidActions(getAgentState(env))
            n_untried = 0
            best, best_score = -1, -1e18
            for a in range(NUM_ACTIONS):
                if valid[a] != 1.0:
                    continue
                child = children[node, a]
                if child < 0:
                    untried[n_untried] = a
                    n_untried += 1
                else:
                    available[child] += 1.0
                    score = wins[child] / visits[child] + UCB_C * np.sqrt(np.log(available[child]) / visits[child])
                    if score > best_score:
                        best, best_score = a, score
            if n_untried > 0 and used < max_nodes:
                action = untried[int(np.random.random() * n_untried)]
                child = used
                used += 1
                children[node, action] = child
                mover[child] = player
                available[child] = 1.0
                stepEnv(action, env)
                depth += 1
                path[depth] = child
                break
            if best < 0:
                break
            stepEnv(best, env)
            node = children[node, best]
            depth += 1
            path[depth] = node
        winner = rollout_winner(env)
        for d in range(1, depth + 1):
            visits[path[d]] += 1.0
            if mover[path[d]] == winner:
                wins[path[d]] += 1.0
    best, best_visits = only, -1.0
    for a in range(NUM_ACTIONS):
        child = children[0, a]
        if child >= 0 and visits[child] > best_visits:
            best, best_visits = a, visits[child]
    return best


@njit(cache=True)
def search(state, data):
    """Search: information-set MCTS, 100 determinized deals with thrifty rollouts a move.

    ``data[0] >= 1`` sets another number of simulations.
    """
    iterations = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else SEARCH_ITERATIONS
    return search_action(state, iterations), data


LEVELS = {1: thrifty, 2: search}
