"""Built-in Goofspiel opponents (levels 1, 2). Level 0 (random) is the framework's.

Both bots play from their own state only: their hand, the prizes, the scores and the rounds
already over (never the opponent's bid of the current round, nor the order of the face-down
prizes).

* Level 1, ``rank_matcher``: bids the card whose rank in its hand equals the prize's rank among
  the prizes still in play. From a full hand that is the card equal to the prize, every round.
* Level 2, ``rollout_searcher``: Monte Carlo search. It models the opponent as bidding by level
  1's rule or at random (the chance of each from the opponent's earlier bids, by Bayes' rule),
  deals the face-down prizes in random orders (``sampleEnv``), and plays each card of its hand out
  to the end of the game, itself by level 1's rule, every card against the same deals and the
  same guesses. It keeps level 1's card unless another card does clearly better.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import (
    DRAW,
    E_BIDS,
    E_HANDS,
    E_PLAYER,
    E_PRIZES,
    E_ROUND,
    NUM_CARDS,
    S_DECK,
    S_HAND,
    S_HISTORY,
    S_MY_TURN,
    S_OVER,
    S_PRIZE,
    S_ROUND,
    checkEnded,
    sampleEnv,
    stepEnv,
)

SAMPLES = 32  # prize orders (and guesses of the opponent's bids) per card, level 2
RULE_PRIOR = 0.25  # chance that an opponent bids by level 1's rule, before it has bid
SLIP = 0.05  # how often the modelled rule follower bids another card
CONFIDENCE = 3.0  # standard errors by which a card must beat level 1's card to replace it


@njit(cache=True)
def card_of_rank(hand, start, rank) -> int:
    """The card of ``hand[start:start + 13]`` (1 = held) with ``rank`` lower cards held; the
    highest held card when the hand is shorter, -1 when it is empty."""
    seen = 0
    highest = -1
    for k in range(NUM_CARDS):
        if hand[start + k] == 1.0:
            if seen == rank:
                return k
            seen += 1
            highest = k
    return highest


@njit(cache=True)
def rank_match_state(state) -> int:
    """Level 1's bid for ``state``."""
    prize = -1
    for k in range(NUM_CARDS):
        if state[S_PRIZE + k] == 1.0:
            prize = k
    rank = 0
    for k in range(max(prize, 0)):
        if state[S_DECK + k] == 1.0:
            rank += 1
    return card_of_rank(state, S_HAND, rank)


@njit(cache=True)
def rank_match_env(env, player) -> int:
    """Level 1's bid for ``player`` in ``env`` (a search world)."""
    rounds = int(env[E_ROUND])
    prize = env[E_PRIZES + rounds]
    rank = 0
    for r in range(rounds + 1, NUM_CARDS):
        if env[E_PRIZES + r] < prize:
            rank += 1
    return card_of_rank(env, E_HANDS + NUM_CARDS * player, rank)


@njit(cache=True)
def rank_matcher(state, data):
    """Rank matcher: bids the card whose rank in its hand equals the prize's rank among the prizes left."""
    if state[S_OVER] == 1.0:
        return 0, data
    return max(rank_match_state(state), 0), data


@njit(cache=True)
def follows_rule_share(state) -> float:
    """The chance that the opponent bids by level 1's rule rather than at random, from its bids in
    the rounds over so far (Bayes' rule from the prior RULE_PRIOR; a rule follower slips with
    chance SLIP)."""
    hand = np.ones(NUM_CARDS)
    prizes = np.ones(NUM_CARDS)
    rounds = int(min(max(state[S_ROUND], 0.0), NUM_CARDS))
    rule, chance = RULE_PRIOR, 1.0 - RULE_PRIOR  # prior times the likelihood of the bids seen so far
    for r in range(rounds):
        prize = int(state[S_HISTORY + 3 * r]) - 1
        bid = int(state[S_HISTORY + 3 * r + 2]) - 1
        if prize < 0 or bid < 0 or prize >= NUM_CARDS or bid >= NUM_CARDS:
            break
        rank = 0
        for k in range(prize):
            rank += prizes[k] == 1.0
        held = NUM_CARDS - r
        chance /= held
        if card_of_rank(hand, 0, rank) == bid:
            rule *= 1.0 - SLIP
        elif held > 1:
            rule *= SLIP / (held - 1)
        hand[bid] = 0.0
        prizes[prize] = 0.0
        if rule + chance < 1e-200:  # keep the odds, not the vanishing likelihoods
            rule *= 1e100
            chance *= 1e100
    return rule / (rule + chance)


@njit(cache=True)
def guess_bid(env, player, share, u, v) -> int:
    """The opponent model: level 1's bid when ``u < share``, else the card of its hand picked by
    ``v`` (``u``, ``v`` uniform in [0, 1))."""
    if u < share:
        return rank_match_env(env, player)
    start = E_HANDS + NUM_CARDS * player
    count = 0
    for k in range(NUM_CARDS):
        count += env[start + k] == 1.0
    pick = int(v * count)
    for k in range(NUM_CARDS):
        if env[start + k] == 1.0:
            if pick == 0:
                return k
            pick -= 1
    return 0


@njit(cache=True)
def play_out(env, me, share, tape) -> float:
    """Finish ``env`` (in place) with level 1's rule for ``me`` and the opponent model for the
    other, its random choices read from ``tape`` (so every card is tried against the same
    luck); 1 for my win, 1/2 for a draw, 0 for a loss."""
    other = 1 - me
    while checkEnded(env) == -1:
        p = int(env[E_PLAYER])
        if p == me:
            stepEnv(rank_match_env(env, me), env)
        else:
            r = int(env[E_ROUND])
            stepEnv(guess_bid(env, other, share, tape[2 * r], tape[2 * r + 1]), env)
    winner = checkEnded(env)
    if winner == me:
        return 1.0
    if winner == DRAW:
        return 0.5
    return 0.0


@njit(cache=True)
def search_bid(state, samples) -> int:
    """Level 2's bid: level 1's card, unless another card of my hand does clearly better over
    ``samples`` play-outs (its average gain over level 1's card, tried against the same prize
    orders and opponent's luck, is more than CONFIDENCE standard errors above zero)."""
    default = max(rank_match_state(state), 0)
    held = 0
    for k in range(NUM_CARDS):
        held += state[S_HAND + k] == 1.0
    if held <= 1:
        return default
    share = follows_rule_share(state)
    gain = np.zeros(NUM_CARDS)  # sums over the samples of (result of card k - result of default)
    gain_sq = np.zeros(NUM_CARDS)
    results = np.zeros(NUM_CARDS)
    tape = np.empty(2 * NUM_CARDS)
    for _ in range(samples):
        world = sampleEnv(state)
        me = int(world[E_PLAYER])
        for i in range(tape.shape[0]):
            tape[i] = np.random.random()
        r = int(world[E_ROUND])
        theirs = guess_bid(world, 1 - me, share, tape[2 * r], tape[2 * r + 1])
        for k in range(NUM_CARDS):
            if state[S_HAND + k] != 1.0:
                continue
            trial = world.copy()
            if me == 0:
                stepEnv(k, trial)
                stepEnv(theirs, trial)
            else:
                trial[E_BIDS] = theirs
                stepEnv(k, trial)
            results[k] = play_out(trial, me, share, tape)
        for k in range(NUM_CARDS):
            if state[S_HAND + k] == 1.0:
                diff = results[k] - results[default]
                gain[k] += diff
                gain_sq[k] += diff * diff
    best, best_gain = default, 0.0
    for k in range(NUM_CARDS):
        if state[S_HAND + k] != 1.0 or k == default:
            continue
        mean = gain[k] / samples
        spread = np.sqrt(max(gain_sq[k] / samples - mean * mean, 0.0) / samples)
        if mean > CONFIDENCE * spread and mean > best_gain:
            best, best_gain = k, mean
    return best


@njit(cache=True)
def rollout_searcher(state, data):
    """Rollout searcher: models the opponent from its bids, plays every card out over random prize orders."""
    if state[S_OVER] == 1.0 or state[S_MY_TURN] != 1.0:
        return 0, data
    return search_bid(state, SAMPLES), data


LEVELS = {1: rank_matcher, 2: rollout_searcher}
