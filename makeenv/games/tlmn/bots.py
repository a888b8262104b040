"""Built-in TLMN opponents. Level 0 (random) is the framework's.

* Level 1, ``shedder``: leads the combination that sheds its lowest rank with the most cards,
  follows with the cheapest combination that beats the table without breaking a pair or triple
  when it can, and keeps Twos and bombs for chopping or for the end (an opponent close to going
  out, or a short hand of its own). Against an opponent with one card left it leads combinations
  or its highest single.
* Level 2, ``rollouts``: flat Monte-Carlo search over determinizations. Each round deals the unseen
  cards at random (``sampleEnv``), then tries every candidate move on that deal and plays the game
  out with shedder players for everybody; it picks the move that won most often. Both bots read
  nothing but their own state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import (
    ACTION_KIND,
    ACTION_TOP,
    K_LAST_STRAIGHT,
    K_NONE,
    K_QUAD,
    K_SINGLE,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_RANKS,
    PASS,
    S_COUNTS,
    S_HAND,
    S_PLAYERS,
    TWO,
    checkEnded,
    getAgentState,
    getCurrentPlayer,
    getValidActions,
    moving,
    sampleEnv,
    stepEnv,
    table_combination,
)

SEARCH_ROUNDS = 12  # determinizations per decision of the level-2 bot (data[0] >= 1 overrides it)
MAX_CANDIDATES = 12  # moves the level-2 bot compares (the shedder's best first)
MAX_ROLLOUT_STEPS = 400
BREAK_PENALTY = 6.0  # cost of splitting a pair or triple to make another combination
HIGH_PENALTY = 40.0  # cost of a Two or a bomb while nobody is close to going out


@njit(cache=True)
def cards_in(action) -> int:
    """How many cards the combination of ``action`` holds."""
    kind = ACTION_KIND[action]
    if kind <= K_QUAD:
        return kind
    if kind <= K_LAST_STRAIGHT:
        return kind - 2
    return 2 * (kind - 11)


@njit(cache=True)
def lowest_rank(action) -> int:
    """The lowest rank of the combination of ``action``."""
    kind, rank = ACTION_KIND[action], ACTION_TOP[action] // 4
    if kind <= K_QUAD:
        return rank
    return rank - (cards_in(action) if kind <= K_LAST_STRAIGHT else cards_in(action) // 2) + 1


@njit(cache=True)
def _rank_counts(state):
    counts = np.zeros(NUM_RANKS, dtype=np.int64)
    for c in range(NUM_CARDS):
        if state[S_HAND + c] > 0.5:
            counts[c // 4] += 1
    return counts


@njit(cache=True)
def _breaks(action, counts) -> float:
    """How many ranks the move splits: it takes fewer cards of them than I hold (2 or more)."""
    kind, rank = ACTION_KIND[action], ACTION_TOP[action] // 4
    if kind <= K_QUAD:
        return 1.0 if counts[rank] > kind and counts[rank] >= 2 else 0.0
    per_rank = 1 if kind <= K_LAST_STRAIGHT else 2
    broken = 0.0
    for r in range(lowest_rank(action), rank + 1):
        if counts[r] > per_rank and counts[r] >= 2:
            broken += 1.0
    return broken


@njit(cache=True)
def shedder_action(state) -> int:
    """The level-1 choice."""
    valid = getValidActions(state)
    if not moving(state):
        return PASS
    counts = _rank_counts(state)
    in_hand = 0
    for r in range(NUM_RANKS):
        in_hand += counts[r]
    players = int(state[S_PLAYERS]) if 2.0 <= state[S_PLAYERS] <= 4.0 else 4
    closest = 13.0
    for rel in range(players - 1):
        closest = min(closest, state[S_COUNTS + rel])
    table_kind, table_top = table_combination(state)
    leading = table_kind == K_NONE
    endgame = closest <= 3.0 or in_hand <= 4
    best, best_cost = PASS, 1e18
    for a in range(1, NUM_ACTIONS):
        if valid[a] != 1.0:
            continue
        n = cards_in(a)
        if n == in_hand:
            return a  # going out
        kind, rank = ACTION_KIND[a], ACTION_TOP[a] // 4
        high = rank == TWO or kind == K_QUAD or kind > K_LAST_STRAIGHT
        cost = BREAK_PENALTY * _breaks(a, counts)
        if leading:
            cost += 10.0 * lowest_rank(a) - n + ACTION_TOP[a] * 0.01
            if closest <= 1.0 and kind == K_SINGLE:
                cost += 200.0 - 8.0 * rank  # keep singles from the player about to go out, or lead high
        else:
            cost += ACTION_TOP[a] * 1.0
        if high and not endgame and not (table_top >= 0 and table_top // 4 == TWO):
            cost += HIGH_PENALTY if leading else 10 * HIGH_PENALTY
        if cost < best_cost:
            best, best_cost = a, cost
    if best == PASS:
        return PASS
    if not leading and valid[PASS] == 1.0 and best_cost >= 10 * HIGH_PENALTY:
        return PASS  # a Two or a bomb to spare: keep it
    return best


@njit(cache=True)
def shedder(state, data):
    """Shedder: sheds its lowest cards in the biggest combinations, beats cheaply, saves Twos and bombs."""
    return shedder_action(state), data


@njit(cache=True)
def rollout_winner(env) -> int:
    """Finish the game with shedder players; the winner, or -1 if it runs too long."""
    for _ in range(MAX_ROLLOUT_STEPS):
        winner = checkEnded(env)
        if winner >= 0:
            return winner
        stepEnv(shedder_action(getAgentState(env)), env)
    return checkEnded(env)


@njit(cache=True)
def candidates(state, valid):
    """Up to MAX_CANDIDATES valid moves: the shedder's choice, pass when allowed, then the others in
    the order of their lowest rank and size."""
    order = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    keys = np.full(NUM_ACTIONS, 1e18)
    first = shedder_action(state)
    n = 0
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            order[n] = a
            if a == first:
                keys[n] = -2.0
            elif a == PASS:
                keys[n] = -1.0
            else:
                keys[n] = 10.0 * lowest_rank(a) - cards_in(a) + 0.01 * ACTION_TOP[a]
            n += 1
    chosen = order[np.argsort(keys[:n])]
    return chosen[: min(n, MAX_CANDIDATES)]


@njit(cache=True)
def rollouts_action(state, rounds) -> int:
    """Flat Monte-Carlo: the candidate that wins most often over ``rounds`` determinized deals."""
    valid = getValidActions(state)
    if not moving(state):
        return PASS
    moves = candidates(state, valid)
    if moves.shape[0] <= 1:
        return moves[0] if moves.shape[0] == 1 else PASS
    wins = np.zeros(moves.shape[0])
    for _ in range(rounds):
        root = sampleEnv(state)
        me = getCurrentPlayer(root)
        for i in range(moves.shape[0]):
            env = stepEnv(moves[i], root.copy())
            if rollout_winner(env) == me:
                wins[i] += 1.0
    best = 0
    for i in range(1, moves.shape[0]):
        if wins[i] > wins[best]:  # ties keep the earlier (the shedder's choice first)
            best = i
    return moves[best]


@njit(cache=True)
def rollouts(state, data):
    """Rollouts: flat Monte-Carlo over 12 determinized deals, shedder playouts, up to 12 candidate moves.

    ``data[0] >= 1`` sets another number of deals.
    """
    rounds = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else SEARCH_ROUNDS
    return rollouts_action(state, rounds), data


LEVELS = {1: shedder, 2: rollouts}
