"""Built-in Goofspiel opponents (levels 1, 2, 3). Level 0 (random) is the framework's.

Every bot plays from its own state only: its hand, the prizes, the scores and the rounds already
over (never the opponent's bid of the current round, nor the order of the face-down prizes).

* Level 1, ``rank_matcher``: bids the card whose rank in its hand equals the prize's rank among
  the prizes still in play. From a full hand that is the card equal to the prize, every round.
* Level 2, ``learned``: scores each card of its hand with a linear scorer over NUM_FEATURES
  features (``hand_features``: whether it is level 1's card; how the game ends if the opponent
  bids by level 1's rule now and both players do afterwards, and what the card wins, ties or
  overpays against that bid, weighted by the chance that the opponent follows the rule; what it
  wins against a random bid; how high it ranks in the hand...) and bids the best. The weights (``level2_weights.npz``) were fitted by ``train_level2.py`` to the
  values the search (level 3) measured for every card of its hand; the commands are in the README.
* Level 3, ``rollout_searcher``: Monte Carlo search. It models the opponent as bidding by level
  1's rule or at random (the chance of each from the opponent's earlier bids, by Bayes' rule),
  deals the face-down prizes in random orders (``sampleEnv``), and plays each card of its hand out
  to the end of the game, itself by level 1's rule, every card against the same deals and the
  same guesses. It keeps level 1's card unless another card does clearly better. ``data[0] > 0``
  sets the number of deals a move (SAMPLES by default).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import load_weights

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
    S_POINTS,
    S_PRIZE,
    S_ROUND,
    S_THEIR_HAND,
    S_THEIR_POINTS,
    checkEnded,
    sampleEnv,
    stepEnv,
)

SAMPLES = 32  # prize orders (and guesses of the opponent's bids) per card, level 3 (data[0] > 0 overrides it)
RULE_PRIOR = 0.25  # chance that an opponent bids by level 1's rule, before it has bid
SLIP = 0.05  # how often the modelled rule follower bids another card
CONFIDENCE = 3.0  # standard errors by which a card must beat level 1's card to replace it
# what one bid multiplies the odds of a rule follower against a random bidder by, by the cards
# held before it: the likelihood of the bid for a rule follower over 1 / held for a random one
FOLLOW_ODDS = np.array([held * (1.0 - SLIP) for held in range(NUM_CARDS + 1)])
SLIP_ODDS = np.array([held * SLIP / (held - 1) if held > 1 else 1.0 for held in range(NUM_CARDS + 1)])


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
def bit_count(bits) -> int:
    """How many bits of ``bits`` (at most 16 of them) are set."""
    bits = bits - ((bits >> 1) & 0x5555)
    bits = (bits & 0x3333) + ((bits >> 2) & 0x3333)
    bits = (bits + (bits >> 4)) & 0x0F0F
    return (bits + (bits >> 8)) & 0x1F


@njit(cache=True)
def follows_rule_share(state) -> float:
    """The chance that the opponent bids by level 1's rule rather than at random, from its bids in
    the rounds over so far (Bayes' rule from the prior RULE_PRIOR; a rule follower slips with
    chance SLIP). Allocates nothing: the opponent's hand and the prizes left are bits."""
    hand = (1 << NUM_CARDS) - 1
    prizes = hand
    rounds = int(min(max(state[S_ROUND], 0.0), NUM_CARDS))
    odds = 1.0  # the likelihood of the bids seen so far for a rule follower over a random bidder
    for r in range(rounds):
        prize = int(state[S_HISTORY + 3 * r]) - 1
        bid = int(state[S_HISTORY + 3 * r + 2]) - 1
        if prize < 0 or bid < 0 or prize >= NUM_CARDS or bid >= NUM_CARDS:
            break
        held = NUM_CARDS - r
        # level 1's card: the one whose rank in the hand is the prize's rank among the prizes left
        # (the highest card when the hand is shorter)
        rank = min(bit_count(prizes & ((1 << prize) - 1)), bit_count(hand) - 1)
        if (hand >> bid) & 1 and bit_count(hand & ((1 << bid) - 1)) == rank:
            odds *= FOLLOW_ODDS[held]
        else:
            odds *= SLIP_ODDS[held]
        hand &= ~(1 << bid)
        prizes &= ~(1 << prize)
    rule = RULE_PRIOR * odds
    return rule / (rule + (1.0 - RULE_PRIOR))


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
def search_values(state, samples, share, results, gain, gain_sq) -> int:
    """Play every card of my hand out over ``samples`` deals (the same deals and opponent's luck
    for every card): adds each card's results (1 win, 1/2 draw, 0 loss) to ``results``, its result
    minus level 1's card's to ``gain`` and the square of that to ``gain_sq``. Returns level 1's
    card."""
    default = max(rank_match_state(state), 0)
    outcome = np.zeros(NUM_CARDS)
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
            outcome[k] = play_out(trial, me, share, tape)
        for k in range(NUM_CARDS):
            if state[S_HAND + k] == 1.0:
                diff = outcome[k] - outcome[default]
                results[k] += outcome[k]
                gain[k] += diff
                gain_sq[k] += diff * diff
    return default


@njit(cache=True)
def search_choice(state, samples, default, gain, gain_sq) -> int:
    """Level 1's card ``default``, unless another card's mean gain over it is more than CONFIDENCE
    standard errors above zero (then the card of that kind with the largest mean gain)."""
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
def search_bid(state, samples) -> int:
    """Level 3's bid: level 1's card, unless another card of my hand does clearly better over
    ``samples`` play-outs (its average gain over level 1's card, tried against the same prize
    orders and opponent's luck, is more than CONFIDENCE standard errors above zero)."""
    default = max(rank_match_state(state), 0)
    held = 0
    for k in range(NUM_CARDS):
        held += state[S_HAND + k] == 1.0
    if held <= 1:
        return default
    share = follows_rule_share(state)
    results = np.zeros(NUM_CARDS)
    gain = np.zeros(NUM_CARDS)  # sums over the samples of (result of card k - result of default)
    gain_sq = np.zeros(NUM_CARDS)
    default = search_values(state, samples, share, results, gain, gain_sq)
    return search_choice(state, samples, default, gain, gain_sq)


@njit(cache=True)
def rollout_searcher(state, data):
    """Rollout searcher: models the opponent from its bids, plays every card out over 32 random prize orders.

    ``data[0] > 0`` sets another number of deals a move.
    """
    if state[S_OVER] == 1.0 or state[S_MY_TURN] != 1.0:
        return 0, data
    samples = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else SAMPLES
    return search_bid(state, samples), data


# ---- level 2: a linear scorer over each card's features, fitted to the search's values -----------

NUM_FEATURES = 12  # hand_features' values per card; level2_weights.npz holds one weight for each
# the scratch hand_features writes (after the weights in level 2's data): each card's features,
# then my cards, the opponent's cards and the face-down prizes in ascending order, then sums
MY_CARDS = NUM_CARDS * NUM_FEATURES
THEIR_CARDS = MY_CARDS + NUM_CARDS
PRIZES_LEFT = THEIR_CARDS + NUM_CARDS
SUFFIX = PRIZES_LEFT + NUM_CARDS
SCRATCH = SUFFIX + NUM_CARDS + 1


@njit(cache=True)
def rule_ending(state, card, predicted) -> float:
    """My final margin (my points minus the opponent's) if I bid ``card``, the opponent bids
    ``predicted`` and both of us bid by level 1's rule for the rest of the game. The rule pairs
    the prizes left with the cards left by rank (the lowest prize draws both players' lowest
    cards, and so on) whatever order the prizes come in, so the ending needs no deal. (The
    reference for ``hand_features``, which finds it for every card of the hand at once.)"""
    margin = state[S_POINTS] - state[S_THEIR_POINTS]
    for k in range(NUM_CARDS):
        if state[S_PRIZE + k] == 1.0:
            margin += (k + 1.0) * ((card > predicted) - (card < predicted))
    mine, theirs = 0, 0
    for prize in range(NUM_CARDS):
        if state[S_DECK + prize] != 1.0:
            continue
        while mine < NUM_CARDS and (state[S_HAND + mine] != 1.0 or mine == card):
            mine += 1
        while theirs < NUM_CARDS and (state[S_THEIR_HAND + theirs] != 1.0 or theirs == predicted):
            theirs += 1
        if mine >= NUM_CARDS or theirs >= NUM_CARDS:
            break
        margin += (prize + 1.0) * ((mine > theirs) - (mine < theirs))
        mine += 1
        theirs += 1
    return margin


@njit(cache=True)
def hand_features(state, scratch) -> int:
    """The features of bidding each card of my hand, lowest card first: row ``i`` (the card
    ``scratch[MY_CARDS + i]``) is ``scratch[i * NUM_FEATURES:(i + 1) * NUM_FEATURES]``. Returns the
    number of cards; ``scratch`` (SCRATCH values) is all it writes, so nothing is allocated.
    (``walk_hand`` finds them, and, for level 2, the weighted sum of each card's features.)
    """
    return walk_hand(state, scratch, scratch[:0], True)


@njit(cache=True)
def walk_hand(state, scratch, weights, rows) -> int:
    """The features of each card of my hand: written as ``hand_features`` describes when ``rows``
    (then it returns the number of cards); else the card whose features the ``weights`` score
    highest (the card itself; level 1's card for an empty hand), its features never written.

    With ``s`` the chance that the opponent follows level 1's rule (``follows_rule_share``) and
    ``o`` the bid that rule gives it (its hand here still holds a bid it has made this round), the
    features of a card are 0, 1: (1 - s), and s, when it is level 1's card; 2, 3: s * how the game
    ends (1 won, 1/2 drawn, 0 lost), and s * my final margin / 10, when the opponent bids o and
    both of us bid by level 1's rule afterwards (``rule_ending``); 4: s * how many cards above
    o + 1 it is when it beats o (overpaying); 5: s * the card's rank in my hand (0 = my lowest)
    when it loses to o; 6: s when it ties o; 7: (1 - s) * the prize's value * the share of the
    opponent's cards it beats; 8: (1 - s) * how far its rank in my hand is from the prize's rank
    among the prizes left; 9: (1 - s) * its rank * the prize's value / 13; 10: its rank over the
    highest rank in my hand; 11: s * the prize's value when it beats o."""
    held, theirs, left, prize = 0, 0, 0, 0
    for k in range(NUM_CARDS):  # no branches: a card is written in any case, kept if it counts
        scratch[MY_CARDS + held] = k
        held += state[S_HAND + k] == 1.0
        scratch[THEIR_CARDS + theirs] = k
        theirs += state[S_THEIR_HAND + k] == 1.0
        scratch[PRIZES_LEFT + left] = k
        left += state[S_DECK + k] == 1.0
        prize += k * (state[S_PRIZE + k] == 1.0)
    if held == 0 or theirs == 0:
        return 0 if rows else max(rank_match_state(state), 0)
    prize_rank = 0  # the prize's rank among the prizes left
    while prize_rank < left and scratch[PRIZES_LEFT + prize_rank] < prize:
        prize_rank += 1
    value = prize + 1.0
    mine_at = min(prize_rank, held - 1)  # where level 1's card is among mine
    predicted_at = min(prize_rank, theirs - 1)
    predicted = scratch[THEIR_CARDS + predicted_at]
    share = follows_rule_share(state)
    other = 1.0 - share
    level1_weight = ending_weight = margin_weight = over_weight = lose_weight = tie_weight = 0.0
    below_weight = distance_weight = rank_weight = beat_weight = 0.0
    if not rows:  # the weights times what the features of every card multiply
        level1_weight = weights[0] * other + weights[1] * share
        ending_weight = weights[2] * share
        margin_weight = weights[3] * share / 10.0
        over_weight = weights[4] * share
        lose_weight = weights[5] * share
        tie_weight = weights[6] * share
        below_weight = weights[7] * other * value / theirs
        distance_weight = weights[8] * other
        rank_weight = weights[9] * other * value / NUM_CARDS + weights[10] / max(held - 1, 1)
        beat_weight = weights[11] * share * value
    best, best_score = 0, -1e18
    # the endings: after this round the t-th lowest prize left meets my and its t-th lowest cards
    # left; for my card i those are my cards t (t < i) or t + 1 (t >= i), its cards skip o
    pairs = min(min(held, theirs) - 1, left)
    scratch[SUFFIX + pairs] = 0.0
    for t in range(pairs - 1, -1, -1):
        their_card = scratch[THEIR_CARDS + t + (t >= predicted_at)]
        mine_card = scratch[MY_CARDS + t + 1]
        gain = (scratch[PRIZES_LEFT + t] + 1.0) * ((mine_card > their_card) - (mine_card < their_card))
        scratch[SUFFIX + t] = scratch[SUFFIX + t + 1] + gain
    prefix = state[S_POINTS] - state[S_THEIR_POINTS]
    below = 0  # the opponent's cards below my card
    for i in range(held):
        card = scratch[MY_CARDS + i]
        while below < theirs and scratch[THEIR_CARDS + below] < card:
            below += 1
        beats = card > predicted
        loses = card < predicted
        margin = prefix + scratch[SUFFIX + min(i, pairs)] + value * (beats - loses)
        ending = 1.0 if margin > 0.0 else (0.5 if margin == 0.0 else 0.0)
        level1 = i == mine_at
        if not rows:
            score = ending_weight * ending + margin_weight * margin + below_weight * below
            score += distance_weight * abs(i - prize_rank) + rank_weight * i
            if level1:
                score += level1_weight
            if beats:
                score += over_weight * (card - predicted - 1.0) + beat_weight
            elif loses:
                score += lose_weight * i
            else:
                score += tie_weight
            if score > best_score:
                best, best_score = int(card), score
        else:
            write_features(
                scratch,
                i,
                level1,
                beats,
                loses,
                share,
                ending,
                margin,
                card,
                predicted,
                value,
                below,
                theirs,
                prize_rank,
                held,
            )
        if i < pairs:  # my card i stays in play in the endings of the cards above it
            their_card = scratch[THEIR_CARDS + i + (i >= predicted_at)]
            prefix += (scratch[PRIZES_LEFT + i] + 1.0) * ((card > their_card) - (card < their_card))
    return held if rows else best


@njit(cache=True)
def write_features(
    scratch, i, level1, beats, loses, share, ending, margin, card, predicted, value, below, theirs, prize_rank, held
) -> None:
    """Row ``i`` of ``hand_features``: the NUM_FEATURES features of my card ``i``."""
    other = 1.0 - share
    row = i * NUM_FEATURES
    scratch[row] = other if level1 else 0.0
    scratch[row + 1] = share if level1 else 0.0
    scratch[row + 2] = share * ending
    scratch[row + 3] = share * margin / 10.0
    scratch[row + 4] = share * (card - predicted - 1.0) if beats else 0.0
    scratch[row + 5] = share * i if loses else 0.0
    scratch[row + 6] = share if card == predicted else 0.0
    scratch[row + 7] = other * value * below / theirs
    scratch[row + 8] = other * abs(i - prize_rank)
    scratch[row + 9] = other * i * value / NUM_CARDS
    scratch[row + 10] = i / max(held - 1, 1)
    scratch[row + 11] = share * value if beats else 0.0


@njit(cache=True)
def learned_bid(state, data) -> int:
    """Level 2's bid: the card of my hand whose features (``hand_features``) the weights
    ``data[:NUM_FEATURES]`` score highest (``data[NUM_FEATURES:]``: SCRATCH values of scratch, so
    nothing is allocated). Data shorter than that (no weights) bids level 1's card."""
    if data.shape[0] < NUM_FEATURES + SCRATCH:
        return max(rank_match_state(state), 0)
    return walk_hand(state, data[NUM_FEATURES:], data[:NUM_FEATURES], False)


@njit(cache=True)
def learned(state, data):
    """Learned: bids the card a linear scorer over its features rates best (fitted to the rollout searcher's values)."""
    if state[S_OVER] == 1.0 or state[S_MY_TURN] != 1.0:
        return 0, data
    return learned_bid(state, data), data


WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")


def learned_data(path: Path | str = WEIGHTS_FILE) -> np.ndarray:
    """Level 2's data: the NUM_FEATURES weights of a file written by train_level2.py, then SCRATCH
    zeros of scratch (``hand_features``)."""
    layers, _ = load_weights(path)
    weights = layers[0][0]
    if len(layers) != 1 or weights.shape != (1, NUM_FEATURES):
        raise ValueError(
            f"{path}: expected one row of {NUM_FEATURES} feature weights, got layers of shapes "
            f"{[w.shape for w, _ in layers]}; rebuild it with python -m makeenv.games.goofspiel.train_level2"
        )
    return np.concatenate([weights[0].astype(np.float64), np.zeros(SCRATCH)])


LEVELS: dict[int, Any] = {1: rank_matcher, 3: rollout_searcher}
if WEIGHTS_FILE.exists():  # absent only while train_level2.py rebuilds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
