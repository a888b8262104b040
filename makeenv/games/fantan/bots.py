"""Built-in Fan Tan opponents. Level 0 (random) is the framework's.

* Level 1, ``steady``: never pays to pass while a card fits. Among the cards that fit it plays the
  one that opens the way to most of its own cards and the fewest of the others' (a Seven opens a
  whole suit; an Ace or King opens nothing, so it costs nothing to play).
* Level 2, ``lookahead``: steady, checked by flat Monte Carlo over determinizations. Each sample
  deals the unseen cards at random (``sampleEnv``); every card that fits is tried on that same deal
  and the deal is played out by steady players; a card replaces steady's choice only when its mean
  chip margin at the end of the deal (my chips minus the best other player's, a game won or lost
  counting WIN_BONUS) beats steady's by more than CONFIDENCE standard errors of the paired
  differences. Both bots read nothing but their own state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import (
    E_CHIPS,
    E_DEALS,
    E_HIGH,
    E_LOW,
    E_TO_MOVE,
    E_WHERE,
    E_WINNERS,
    NUM_CARDS,
    NUM_PLAYERS,
    NUM_RANKS,
    PASS,
    S_HAND,
    S_PLAYABLE,
    S_SEAT,
    SEVEN,
    checkEnded,
    fits,
    moving,
    sampleEnv,
    stepEnv,
)

SAMPLES = 32  # determinizations per decision of the level-2 bot (data[0] >= 1 overrides it)
CONFIDENCE = 2.0  # standard errors by which another card must beat the steady one
WIN_BONUS = 100.0  # a play-out that ends the game: winning counts this much chip margin


@njit(cache=True)
def card_score(cards, offset, mark, card) -> float:
    """How good it is to play ``card`` now, for the player whose cards are marked ``mark`` in
    ``cards[offset:offset + 52]``: 3 for each of its cards the play brings closer, minus 1 for each
    of the others' (an unplayed Seven brings the whole suit; an Ace or King brings nothing)."""
    s, r = card // NUM_RANKS, card % NUM_RANKS
    first, last = s * NUM_RANKS, (s + 1) * NUM_RANKS
    if r < SEVEN:
        last = card
    elif r > SEVEN:
        first = card + 1
    mine, beyond = 0, 0
    for c in range(first, last):
        if c != card:
            beyond += 1
            if cards[offset + c] == mark:
                mine += 1
    return 3.0 * mine - (beyond - mine)


@njit(cache=True)
def steady_action(state) -> int:
    """The level-1 choice: the fitting card with the best ``card_score``; pass when none fits."""
    if not moving(state):
        return PASS
    best, best_score = PASS, -1e9
    for c in range(NUM_CARDS):
        if state[S_HAND + c] > 0.5 and state[S_PLAYABLE + c] > 0.5:
            score = card_score(state, S_HAND, 1.0, c)
            if score > best_score:
                best, best_score = c, score
    return best


@njit(cache=True)
def steady(state, data):
    """Steady: never passes while a card fits; plays the card that opens most of its own cards."""
    return steady_action(state), data


@njit(cache=True)
def steady_move_in(env) -> int:
    """``steady_action`` for the player to move, read straight from the env (the play-outs' fast
    path: no state is built)."""
    mark = env[E_TO_MOVE] + 1.0
    best, best_score = PASS, -1e9
    for c in range(NUM_CARDS):
        s = c // NUM_RANKS
        if env[E_WHERE + c] == mark and fits(env[E_LOW + s], env[E_HIGH + s], c):
            score = card_score(env, E_WHERE, mark, c)
            if score > best_score:
                best, best_score = c, score
    return best


@njit(cache=True)
def play_out_margin(env, me) -> float:
    """Finish the current deal (or the game) with steady players; then my chips minus the best
    other player's, or +-WIN_BONUS when the game ended."""
    deals = env[E_DEALS]
    while checkEnded(env) < 0 and env[E_DEALS] == deals:
        stepEnv(steady_move_in(env), env)
    if checkEnded(env) >= 0:
        return WIN_BONUS if env[E_WINNERS + me] > 0.5 else -WIN_BONUS
    best_other = -1e9
    for p in range(NUM_PLAYERS):
        if p != me and env[E_CHIPS + p] > best_other:
            best_other = env[E_CHIPS + p]
    return env[E_CHIPS + me] - best_other


@njit(cache=True)
def lookahead_action(state, samples) -> int:
    """The level-2 choice: the steady card, unless another fitting card does better on the same
    determinized deals by more than ``CONFIDENCE`` standard errors of the paired difference."""
    base = steady_action(state)
    if base == PASS:
        return PASS
    candidates = np.empty(NUM_CARDS, dtype=np.int64)
    n = 0
    for c in range(NUM_CARDS):
        if c != base and state[S_HAND + c] > 0.5 and state[S_PLAYABLE + c] > 0.5:
            candidates[n] = c
            n += 1
    if n == 0:
        return base
    me = int(state[S_SEAT])
    sums = np.zeros(n, dtype=np.float64)
    squares = np.zeros(n, dtype=np.float64)
    for _ in range(samples):
        root = sampleEnv(state)
        env = root.copy()
        base_value = play_out_margin(stepEnv(base, env), me)
        for i in range(n):
            env[:] = root
            diff = play_out_margin(stepEnv(candidates[i], env), me) - base_value
            sums[i] += diff
            squares[i] += diff * diff
    best, best_margin = base, 0.0
    for i in range(n):
        mean = sums[i] / samples
        error = np.sqrt(max(squares[i] / samples - mean * mean, 0.0) / samples)
        if mean > CONFIDENCE * error and mean > best_margin:
            best, best_margin = candidates[i], mean
    return best


@njit(cache=True)
def lookahead(state, data):
    """Lookahead: plays steady's card unless 32 random deals of the unseen cards, each played out to the deal's end, show a better one.

    ``data[0] >= 1`` sets another number of samples.
    """
    samples = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else SAMPLES
    return lookahead_action(state, samples), data


LEVELS = {1: steady, 2: lookahead}
