"""Built-in Fan Tan opponents. Level 0 (random) is the framework's.

* Level 1, ``steady``: never pays to pass while a card fits. Among the cards that fit it plays the
  one that opens the way to most of its own cards and the fewest of the others' (a Seven opens a
  whole suit; an Ace or King opens nothing, so it costs nothing to play).
* Level 2, ``learned``: never pays to pass while a card fits; among the fitting cards it plays the
  one a linear scorer rates best: a weighted sum of the card's 16 features (``card_features``: the
  own and other cards it opens, the runs and gaps beyond it, the others' hand sizes, the pot...).
  The weights (``level2_weights.npz``) were fitted by ``train_level2.py`` to the chip margins the
  search measured for each fitting card (the commands are in the README).
* Level 3, ``lookahead``: steady, checked by flat Monte Carlo over determinizations. Each sample
  deals the unseen cards at random (``sampleEnv``); every card that fits is tried on that same deal
  and the deal is played out by steady players; a card replaces steady's choice only when its mean
  chip margin at the end of the deal (my chips minus the best other player's, a game won or lost
  counting WIN_BONUS) beats steady's by more than CONFIDENCE standard errors of the paired
  differences. ``data[0] >= 1`` sets the number of deals (SAMPLES by default).

Every bot reads nothing but its own state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import load_weights

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
    NUM_SUITS,
    PASS,
    S_HAND,
    S_OTHER_COUNTS,
    S_PLAYABLE,
    S_POT,
    S_SEAT,
    SEVEN,
    checkEnded,
    moving,
    sampleEnv,
    stepEnv,
)

SAMPLES = 32  # determinizations per decision of the level-3 bot (data[0] >= 1 overrides it)
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
    path: no state is built, and only the at most two cards that fit each suit are looked at, in
    the same order as ``steady_action``'s)."""
    mark = env[E_TO_MOVE] + 1.0
    best, best_score = PASS, -1e9
    for s in range(NUM_SUITS):
        low, high = int(env[E_LOW + s]), int(env[E_HIGH + s])
        below, above = (SEVEN, -1) if low < 0 else (low - 1, high + 1)
        for r in (below, above):
            c = s * NUM_RANKS + r
            if 0 <= r < NUM_RANKS and env[E_WHERE + c] == mark:
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
    """The level-3 choice: the steady card, unless another fitting card does better on the same
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


# ---- level 2: a linear scorer over each fitting card's features, trained to copy the search -------

NUM_FEATURES = 16  # card_features' values; level2_weights.npz holds one weight for each
STARVED = 2  # the others are short of plays when at most this many of their cards fit


@njit(cache=True)
def side_features(state, card, step, out) -> None:
    """Add to ``out`` what playing ``card`` opens on one side of it (``step`` -1: down to the Ace,
    +1: up to the King): features 0, 1, 3, 4, 5, 12 and 14 of ``card_features``."""
    r = card % NUM_RANKS
    stop = -1 if step < 0 else NUM_RANKS
    run, gap, seen_mine, distance = 0, 0, False, 0
    for k in range(r + step, stop, step):
        c = card + (k - r)
        distance += 1
        if state[S_HAND + c] > 0.5:
            out[0] += 1.0
            if not seen_mine:
                out[5] += gap
                seen_mine = True
            if run == distance - 1:
                run += 1
            out[12] = max(out[12], float(distance))
        else:
            out[1] += 1.0
            if not seen_mine:
                gap += 1
            if distance <= 2:
                out[14] += 1.0
    out[4] += run
    if r + step != stop and state[S_HAND + card + step] > 0.5:
        out[3] += 1.0


@njit(cache=True)
def card_features(state, card, mine, others_fit, out) -> None:
    """The features of playing the fitting ``card`` of my hand now, into ``out[:NUM_FEATURES]``
    (``mine``, ``others_fit``: as ``hand_counts`` gives them). 0: my cards it brings closer; 1: the
    others' cards it brings closer; 2: a Seven; 3: my cards it lets me play next; 4: my cards I
    could then play in a row; 5: the others' cards before my nearest card beyond it; 6: the others'
    cards it brings closer when it brings none of mine; 7: feature 1 when another player holds one
    card; 8: feature 0 when I hold 3 cards or fewer; 9: feature 1 when another player holds 3 cards
    or fewer; 10: feature 0 over my hand's size; 11: feature 3 times the pot (in tens of chips);
    12: how far my farthest card beyond it lies (ranks); 13: an Ace or a King; 14: the others'
    cards within two ranks of it; 15: feature 14 when at most STARVED of the others' cards fit."""
    for k in range(NUM_FEATURES):
        out[k] = 0.0
    r = card % NUM_RANKS
    if r <= SEVEN:
        side_features(state, card, -1, out)
    if r >= SEVEN:
        side_features(state, card, 1, out)
    out[2] = 1.0 if r == SEVEN else 0.0
    out[6] = out[1] if out[0] == 0.0 else 0.0
    fewest = min(state[S_OTHER_COUNTS], min(state[S_OTHER_COUNTS + 1], state[S_OTHER_COUNTS + 2]))
    out[7] = out[1] if fewest <= 1.0 else 0.0
    out[8] = out[0] if mine <= 3 else 0.0
    out[9] = out[1] if fewest <= 3.0 else 0.0
    out[10] = out[0] / max(mine, 1)
    out[11] = out[3] * state[S_POT] / 10.0
    out[13] = 1.0 if r == 0 or r == NUM_RANKS - 1 else 0.0
    out[15] = out[14] if others_fit <= STARVED else 0.0


@njit(cache=True)
def hand_counts(state):
    """(cards in my hand, those of them that fit, the others' cards that fit, the last fitting card of mine)."""
    mine, fitting, others_fit, last = 0, 0, 0, PASS
    for c in range(NUM_CARDS):
        if state[S_HAND + c] > 0.5:
            mine += 1
            if state[S_PLAYABLE + c] > 0.5:
                fitting += 1
                last = c
        elif state[S_PLAYABLE + c] > 0.5:
            others_fit += 1
    return mine, fitting, others_fit, last


@njit(cache=True)
def learned_action(state, data) -> int:
    """The level-2 choice: pass when no card fits, the only fitting card, else the fitting card
    whose features ``data[:NUM_FEATURES]`` scores highest (``data[NUM_FEATURES:]``: scratch for
    the features, so nothing is allocated). Data shorter than that (no weights) plays steady's card."""
    if not moving(state):
        return PASS
    mine, fitting, others_fit, last = hand_counts(state)
    if fitting <= 1:
        return last
    if data.shape[0] < 2 * NUM_FEATURES:
        return steady_action(state)
    features = data[NUM_FEATURES : 2 * NUM_FEATURES]
    best, best_score = PASS, -1e18
    for c in range(NUM_CARDS):
        if state[S_HAND + c] > 0.5 and state[S_PLAYABLE + c] > 0.5:
            card_features(state, c, mine, others_fit, features)
            score = 0.0
            for k in range(NUM_FEATURES):
                score += data[k] * features[k]
            if score > best_score:
                best, best_score = c, score
    return best


@njit(cache=True)
def learned(state, data):
    """Learned: never passes while a card fits; plays the fitting card a linear scorer over its features rates best (trained to copy the lookahead)."""
    return learned_action(state, data), data


WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")


def learned_data(path: Path | str = WEIGHTS_FILE) -> np.ndarray:
    """Level 2's data: the NUM_FEATURES weights of a file written by train_level2.py, then as many
    zeros of scratch (the features of the card being scored)."""
    layers, _ = load_weights(path)
    weights = layers[0][0]
    if len(layers) != 1 or weights.shape != (1, NUM_FEATURES):
        raise ValueError(
            f"{path}: expected one row of {NUM_FEATURES} feature weights, got layers of shapes "
            f"{[w.shape for w, _ in layers]}; rebuild it with python -m makeenv.games.fantan.train_level2"
        )
    return np.concatenate([weights[0], np.zeros(NUM_FEATURES)])


LEVELS: dict[int, Any] = {1: steady, 3: lookahead}
if WEIGHTS_FILE.exists():  # absent only while train_level2.py rebuilds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
