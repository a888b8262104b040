"""Built-in Durak opponents. Level 0 (random) is the framework's.

* Level 1, ``thrifty``: leads and beats with its cheapest card (trumps count 13 ranks higher),
  adds only low cards while the talon lasts (any card once it is empty: first out wins), and takes
  rather than spend a high trump on a low card early on.
* Level 2, ``learned``: a small network (``level2_weights.npz``) trained by
  ``python -m makeenv.learn.imitate`` (the commands are in the README) to copy
  ``confident_search``: level 3's move when at least half its simulations chose it, else level
  1's. It sees the state through ``canonical_view``, which swaps the trump suit with Hearts, so
  one pattern serves every trump; it plays the valid action it scores highest.
* Level 3, ``search``: single-observer information-set MCTS. Each simulation deals the unseen
  cards at random (``sampleEnv``: the other hands apart from the cards known to be there, and the
  talon), walks one tree of public moves (all Durak moves are public) with UCB1 counted over the
  simulations in which a move was available, and finishes the game with the level-1 player (with
  some randomness) for everybody. Its budget: ``SEARCH_ITERATIONS`` simulations a move, or
  ``data[0]`` when it is 1 or more. Every bot reads nothing but its own state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import load_policy_data, mlp_action

from .logic import (
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_RANKS,
    PASS,
    S_ATTACKING,
    S_COVERED,
    S_DEFENDING,
    S_DISCARDED,
    S_HAND,
    S_KNOWN,
    S_OVER,
    S_TALON,
    S_TO_BEAT,
    S_TRUMP_SUIT,
    STATE_SIZE,
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
SEARCH_ITERATIONS = 100  # simulations per decision of the level-3 bot (data[0] >= 1 overrides it)
ROLLOUT_EPSILON = 0.1  # share of random moves in the search's simulations
UCB_C = 0.7
MAX_ROLLOUT_STEPS = 600
WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")
CONFIDENT_SHARE = 0.5  # level 2's teacher keeps the search's move when this share of simulations chose it
CANONICAL_TRUMP = 3  # the learned policy sees every trump suit as Hearts


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
    return search_choice(state, iterations)[0]


@njit(cache=True)
def search_choice(state, iterations):
    """The search's move and the share of the simulations that went through it (1 when forced)."""
    if state[S_OVER] > 0.5 or (state[S_ATTACKING] < 0.5 and state[S_DEFENDING] < 0.5):
        return PASS, 1.0
    valid = getValidActions(state)
    only, count = PASS, 0
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            only = a
            count += 1
    if count <= 1:
        return only, 1.0
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
    best, best_visits, total = only, -1.0, 0.0
    for a in range(NUM_ACTIONS):
        child = children[0, a]
        if child >= 0:
            total += visits[child]
            if visits[child] > best_visits:
                best, best_visits = a, visits[child]
    return best, best_visits / max(total, 1.0)


@njit(cache=True)
def search(state, data):
    """Search: information-set MCTS, 100 determinized deals with thrifty rollouts a move.

    ``data[0] >= 1`` sets another number of simulations.
    """
    iterations = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else SEARCH_ITERATIONS
    return search_action(state, iterations), data


@njit(cache=True)
def confident_search(state, data):
    """Level 2's teacher: the search's move when at least ``CONFIDENT_SHARE`` of its simulations
    went through it, else thrifty's (the search's other choices are mostly noise to copy)."""
    action, share = search_choice(state, SEARCH_ITERATIONS)
    return (action if share >= CONFIDENT_SHARE else thrifty_action(state)), data


# ---- level 2 -----------------------------------------------------------------------------------


@njit(cache=True)
def canonical_view(state):
    """The state with the trump suit's cards and Hearts' swapped, and ``actions``: action ``i`` of
    the view is the game's ``actions[i]`` (the swap, so the same map turns cards either way)."""
    trump = trump_of(state)
    actions = np.arange(NUM_ACTIONS)
    seen = state.copy()
    if trump != CANONICAL_TRUMP:
        for r in range(NUM_RANKS):
            actions[trump * NUM_RANKS + r] = CANONICAL_TRUMP * NUM_RANKS + r
            actions[CANONICAL_TRUMP * NUM_RANKS + r] = trump * NUM_RANKS + r
        for block in (S_HAND, S_COVERED, S_TO_BEAT, S_DISCARDED, S_KNOWN):
            for c in range(NUM_CARDS):
                seen[block + c] = state[block + actions[c]]
        for s in range(4):
            seen[S_TRUMP_SUIT + s] = 1.0 if s == CANONICAL_TRUMP else 0.0
    return seen, actions


@njit(cache=True)
def learned(state, data):
    """Learned: a small network trained by makeenv.learn.imitate to copy the search bot's moves."""
    seen, actions = canonical_view(state)
    valid = getValidActions(state)
    seen_valid = np.empty(NUM_ACTIONS, dtype=np.float64)
    for i in range(NUM_ACTIONS):
        seen_valid[i] = valid[actions[i]]
    choice = mlp_action(seen, data, seen_valid)
    return (actions[choice] if choice >= 0 else PASS), data


LEVELS: dict[int, Any] = {1: thrifty, 3: search}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=load_policy_data(WEIGHTS_FILE, STATE_SIZE, NUM_ACTIONS))
LEVELS = dict(sorted(LEVELS.items()))
