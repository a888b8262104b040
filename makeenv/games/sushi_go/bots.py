"""Built-in SushiGo opponents. Level 0 (random) is the framework's.

* Level 1, ``greedy``: values every card it can take from its own state (sets it can still
  complete, dumplings, wasabi before nigiri, the maki and pudding races) and takes the best; it
  uses chopsticks when the second-best card is worth it.
* Level 2, ``learned``: a small network (``level2_weights.npz``) trained by
  ``python -m makeenv.learn.imitate SushiGo --games 700 --hidden 32`` to copy level 3's moves; it
  plays the valid action it scores highest, about 1,000 times as fast as the search (see the README).
* Level 3, ``search``: information-set Monte Carlo tree search. Each simulation deals the cards
  the state does not show at random (``sampleEnv``), searches the bot's own moves of this turn
  (a pick, or chopsticks and two picks) with UCB1, lets every player finish the round with the
  level-1 valuation (with some randomness), and scores the round's end by the bot's lead over the
  best opponent. Its budget: ``SEARCH_ITERATIONS`` simulations a move, or ``data[0]`` when it is
  1 or more (``Bot(search, data=np.array([50.0]))``). Every bot reads nothing but its own state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import load_policy_data, mlp_action

from .logic import (
    B_PUDDINGS,
    B_TABLE,
    CHOPSTICKS,
    DUMPLING,
    E_PLAYERS,
    E_ROUND,
    E_TURN,
    EGG,
    MAKI1,
    MAKI2,
    MAKI3,
    NUM_ACTIONS,
    NUM_KINDS,
    P_POINTS,
    P_PUDDINGS,
    PUDDING,
    S_HAND,
    S_OVER,
    S_PICKED,
    S_PICKS_LEFT,
    S_PLAYERS,
    S_ROUND,
    S_SEATS,
    S_TURN,
    SALMON,
    SASHIMI,
    SEAT_BLOCK,
    SQUID,
    STATE_SIZE,
    TEMPURA,
    USE_CHOPSTICKS,
    WASABI,
    checkEnded,
    dumpling_points,
    final_total,
    getAgentState,
    getCurrentPlayer,
    getValidActions,
    hand_size,
    isValidAction,
    player_base,
    sampleEnv,
    stepEnv,
)

END_TURN = NUM_ACTIONS - 1
CHOPSTICKS_THRESHOLD = 3.5  # level 1 uses chopsticks when its second-best card is worth this much
ROLLOUT_EPSILON = 0.15  # share of random picks in the search's simulations
SEARCH_ITERATIONS = 200  # simulations per decision of the level-3 bot (data[0] >= 1 overrides it)
WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")
UCB_C = 0.7


@njit(cache=True)
def card_values(state, values):
    """Fill ``values[k]`` with the worth of taking a card of kind ``k`` now (from my own view)."""
    n = int(state[S_PLAYERS])
    left = max(hand_size(n) - int(state[S_TURN]), 0)  # picks after this one in the round
    rnd = int(state[S_ROUND])
    mine = S_SEATS + B_TABLE
    have = np.empty(NUM_KINDS, dtype=np.float64)
    for k in range(NUM_KINDS):
        have[k] = state[mine + k] + state[S_PICKED + k]
    tempura = have[TEMPURA] % 2
    values[TEMPURA] = 5.0 if tempura == 1 else (2.5 if left >= 2 else (1.0 if left == 1 else 0.0))
    sashimi = have[SASHIMI] % 3
    if sashimi == 2:
        values[SASHIMI] = 10.0
    elif sashimi == 1:
        values[SASHIMI] = 4.0 if left >= 2 else (2.0 if left == 1 else 0.0)
    else:
        values[SASHIMI] = 2.5 if left >= 4 else (1.0 if left >= 2 else 0.0)
    dumplings = int(have[DUMPLING])
    values[DUMPLING] = dumpling_points(dumplings + 1) - dumpling_points(dumplings)
    if left >= 2 and dumplings < 4:
        values[DUMPLING] += 0.8  # the next dumplings are worth more
    # maki: worth more when the race is close
    my_maki = have[MAKI1] + 2 * have[MAKI2] + 3 * have[MAKI3]
    best_other = 0.0
    for rel in range(1, n):
        b = S_SEATS + rel * SEAT_BLOCK + B_TABLE
        best_other = max(best_other, state[b + MAKI1] + 2 * state[b + MAKI2] + 3 * state[b + MAKI3])
    per_roll = 1.4 if my_maki + 3 >= best_other else 0.6
    values[MAKI1] = per_roll * 1.0
    values[MAKI2] = per_roll * 2.0
    values[MAKI3] = per_roll * 3.0
    open_wasabi = have[WASABI] - have[SQUID] - have[SALMON] - have[EGG] > 0.5
    values[SQUID] = 9.0 if open_wasabi else 3.0
    values[SALMON] = 6.0 if open_wasabi else 2.0
    values[EGG] = 3.0 if open_wasabi else 1.0
    values[WASABI] = (5.0 if left >= 3 else (2.5 if left >= 1 else 0.0)) * (0.5 if open_wasabi else 1.0)
    # puddings: more urgent in later rounds and when behind
    my_puddings = state[S_SEATS + B_PUDDINGS] + have[PUDDING]
    fewest, most = 1e9, -1.0
    for rel in range(1, n):
        p = state[S_SEATS + rel * SEAT_BLOCK + B_PUDDINGS]
        fewest = min(fewest, p)
        most = max(most, p)
    values[PUDDING] = 1.0 + 0.8 * rnd
    if my_puddings <= fewest:
        values[PUDDING] += 1.0
    if my_puddings >= most - 1:
        values[PUDDING] += 0.8
    values[CHOPSTICKS] = 2.0 if left >= 4 else (0.8 if left >= 2 else 0.0)


@njit(cache=True)
def greedy_action(state, values, epsilon):
    """The level-1 choice (a random valid action with probability ``epsilon``)."""
    if state[S_OVER] > 0.5 or state[S_PICKS_LEFT] < 0.5:
        return END_TURN
    if epsilon > 0.0 and np.random.random() < epsilon:
        count = 0
        for a in range(NUM_ACTIONS):
            if isValidAction(state, a):
                count += 1
        k = int(np.random.random() * count)
        for a in range(NUM_ACTIONS):
            if isValidAction(state, a):
                if k == 0:
                    return a
                k -= 1
    card_values(state, values)
    best = -1
    for k in range(NUM_KINDS):
        if state[S_HAND + k] > 0.5 and (best < 0 or values[k] > values[best]):
            best = k
    if best < 0:
        return END_TURN
    runner_up = values[best] if state[S_HAND + best] > 1.5 else -1.0
    for k in range(NUM_KINDS):
        if k != best and state[S_HAND + k] > 0.5:
            runner_up = max(runner_up, values[k])
    if runner_up >= CHOPSTICKS_THRESHOLD and isValidAction(state, USE_CHOPSTICKS):
        return USE_CHOPSTICKS
    return best


@njit(cache=True)
def greedy(state, data):
    """Greedy: takes the card worth most to its table now; chopsticks when the runner-up is worth it."""
    values = np.empty(NUM_KINDS, dtype=np.float64)
    return greedy_action(state, values, 0.0), data


# ---- level 3 -----------------------------------------------------------------------------------


@njit(cache=True)
def pudding_projection(env, player, n) -> float:
    """Points the puddings would bring ``player`` if the game ended now."""
    mine = env[player_base(player) + P_PUDDINGS]
    most, fewest, with_most, with_fewest = -1.0, 1e9, 0, 0
    for p in range(n):
        q = env[player_base(p) + P_PUDDINGS]
        most = max(most, q)
        fewest = min(fewest, q)
    for p in range(n):
        q = env[player_base(p) + P_PUDDINGS]
        with_most += q == most
        with_fewest += q == fewest
    points = 0.0
    if mine == most:
        points += 6.0 / with_most
    if mine == fewest:
        points -= 6.0 / with_fewest
    return points


@njit(cache=True)
def evaluate(env, me) -> float:
    """In [0, 1]: my lead over the best opponent, through a logistic curve."""
    n = int(env[E_PLAYERS])
    over = checkEnded(env) >= 0
    weight = env[E_ROUND] / 3.0
    best_other = -1e9
    my_total = 0.0
    for p in range(n):
        if over:
            total = final_total(env, p)
        else:
            total = env[player_base(p) + P_POINTS] + weight * pudding_projection(env, p, n)
        if p == me:
            my_total = total
        else:
            best_other = max(best_other, total)
    return 1.0 / (1.0 + np.exp(-(my_total - best_other) / 6.0))


@njit(cache=True)
def search_action(state, iterations):
    """Information-set MCTS over my moves of this turn; rollouts to the end of the round."""
    values = np.empty(NUM_KINDS, dtype=np.float64)
    if state[S_OVER] > 0.5 or state[S_PICKS_LEFT] < 0.5:
        return END_TURN
    first = -1
    count = 0
    for a in range(NUM_ACTIONS):
        if isValidAction(state, a):
            count += 1
            if first < 0:
                first = a
    if count <= 1:
        return first
    max_nodes = 256
    children = np.full((max_nodes, NUM_ACTIONS), -1, dtype=np.int64)
    visits = np.zeros(max_nodes, dtype=np.float64)
    totals = np.zeros(max_nodes, dtype=np.float64)
    path = np.zeros(4, dtype=np.int64)
    used = 1
    me = -1
    for _ in range(iterations):
        env = sampleEnv(state)
        me = getCurrentPlayer(env)
        rnd, turn = env[E_ROUND], env[E_TURN]
        node = 0
        depth = 0
        path[0] = 0
        # selection / expansion among my own moves of this turn
        while (
            checkEnded(env) < 0
            and getCurrentPlayer(env) == me
            and env[E_ROUND] == rnd
            and env[E_TURN] == turn
            and depth < 3
        ):
            s = getAgentState(env)
            best_action, best_score = -1, -1e18
            log_n = np.log(visits[node] + 1.0)
            for a in range(NUM_ACTIONS):
                if not isValidAction(s, a):
                    continue
                child = children[node, a]
                if child < 0:
                    score = 1e9 + np.random.random()  # untried moves first, in random order
                else:
                    score = totals[child] / visits[child] + UCB_C * np.sqrt(log_n / visits[child])
                if score > best_score:
                    best_action, best_score = a, score
            child = children[node, best_action]
            expanded = False
            if child < 0 and used < max_nodes:
                child = used
                children[node, best_action] = child
                used += 1
                expanded = True
            stepEnv(best_action, env)
            if child < 0:
                break
            depth += 1
            path[depth] = child
            node = child
            if expanded:
                break
        # rollout: everybody plays the greedy valuation with some noise until the round is over
        while checkEnded(env) < 0 and env[E_ROUND] == rnd:
            s = getAgentState(env)
            stepEnv(greedy_action(s, values, ROLLOUT_EPSILON), env)
        reward = evaluate(env, me)
        for d in range(depth + 1):
            visits[path[d]] += 1.0
            totals[path[d]] += reward
    best_action, best_visits = first, -1.0
    for a in range(NUM_ACTIONS):
        child = children[0, a]
        if child >= 0 and visits[child] > best_visits:
            best_action, best_visits = a, visits[child]
    return best_action


@njit(cache=True)
def search(state, data):
    """Search: information-set MCTS, 200 determinized deals with greedy rollouts a move.

    ``data[0] >= 1`` sets another number of simulations.
    """
    iterations = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else SEARCH_ITERATIONS
    return search_action(state, iterations), data


# ---- level 2 -----------------------------------------------------------------------------------


@njit(cache=True)
def learned(state, data):
    """Learned: a small network trained by makeenv.learn.imitate to copy the search bot's moves."""
    return mlp_action(state, data, getValidActions(state)), data


LEVELS: dict[int, Any] = {1: greedy, 3: search}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=load_policy_data(WEIGHTS_FILE, STATE_SIZE, NUM_ACTIONS))
LEVELS = dict(sorted(LEVELS.items()))
