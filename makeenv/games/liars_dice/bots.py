"""Built-in LiarsDice opponents (levels 1, 2, 3). Level 0 (random) is the framework's.

Every bot plays from its own state only: its own dice and the public bids.

* Level 1, ``odds_bidder``: for every face it considers the cheapest bid it may make and the
  chance that the bid is true given its own dice (the opponent's dice counted as unknown); it
  makes the likeliest such bid, or calls Liar when the last bid is more likely false than any
  bid of its own is true.
* Level 2, ``learned``: a linear scorer over the same candidates and Liar, with weights
  (``level2_weights.npz``, made by ``train_level2.py``) fitted to level 3's judgements. Its
  features rest on the chance of each hand the opponent may hold given its bids, under level 3's
  model of the opponent (tables, no rollouts); it allocates nothing.
* Level 3, ``rollout_searcher``: information-set search. It deals the opponent's unseen dice at
  random (``sampleEnv``) many times (``SAMPLES``, or ``data[0]`` when 1 or more) and plays out
  every candidate move (Liar, and the cheapest bid per face) in every deal, itself by level 1's
  rule and the opponent either by level 1's rule or at random. Each (deal, opponent model) counts
  as much as it explains the opponent's bids so far (Bayes' rule); it makes the move that won the
  largest weighted share.
"""

from __future__ import annotations

from math import comb, factorial
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.choices import linear_bot_data

from .logic import (
    E_BID,
    E_BIDDER,
    E_MADE_BY,
    E_MOVES,
    E_PLAYER,
    FACES,
    LIAR,
    MAX_DICE,
    NUM_BIDS,
    NUM_PLAYERS,
    S_BID,
    S_BIDS,
    S_DICE_COUNT,
    S_MY_DICE,
    S_MY_TURN,
    S_OVER,
    STATE_SIZE,
    THEIRS,
    checkEnded,
    getCurrentPlayer,
    getPlayerState,
    sampleEnv,
    stepEnv,
)


def _tail_table() -> np.ndarray:
    """TAIL[k, n, need]: chance that at least ``need`` of ``n`` unseen dice match a face, where
    a die matches with chance 1/3 for faces 1..5 (the face or a wild six; k = 0) and 1/6 for
    face 6 (k = 1)."""
    table = np.zeros((2, MAX_DICE + 1, NUM_PLAYERS * MAX_DICE + 1))
    for k, p in enumerate((1.0 / 3.0, 1.0 / 6.0)):
        for n in range(MAX_DICE + 1):
            for need in range(table.shape[2]):
                table[k, n, need] = sum(comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(need, n + 1))
    return table


TAIL = _tail_table()

SAMPLES = 48  # deals of the opponent's dice per decision (level 3, unless its data[0] is 1 or more)
RULE_PRIOR = 0.5  # level 3's belief, before any bid, that the opponent bids by level 1's rule (else at random)
SLIP = 0.1  # how often level 3 expects a rule follower to play another action


@njit(cache=True)
def _dice_per_player(state) -> int:
    dice = state[S_DICE_COUNT]
    if not (dice >= 1.0 and dice <= MAX_DICE):
        return 1
    return int(dice)


@njit(cache=True)
def chance_true(state, bid, dice) -> float:
    """Chance that ``bid`` is true, knowing only my dice in ``state``."""
    face = bid % FACES + 1
    mine = state[S_MY_DICE + face - 1]
    if face != FACES:
        mine += state[S_MY_DICE + FACES - 1]
    need = bid // FACES + 1 - int(mine)
    if need <= 0:
        return 1.0
    if need > dice:
        return 0.0
    return TAIL[1 if face == FACES else 0, dice, need]


@njit(cache=True)
def odds_move(state) -> int:
    """Level 1's rule: the likeliest cheapest bid per face, or Liar when that is likelier to win."""
    dice = _dice_per_player(state)
    last = state[S_BID]
    top = NUM_PLAYERS * dice * FACES
    first = int(last) if last >= 0.0 and last <= top else 0
    best, best_value = -1, -1.0
    for face in range(FACES):
        bid = first + (face - first) % FACES  # the cheapest bid naming this face
        if bid < top:
            value = chance_true(state, bid, dice)
            if value > best_value or (value == best_value and bid < best):
                best, best_value = bid, value
    if best < 0 or (first > 0 and 1.0 - chance_true(state, first - 1, dice) > best_value):
        return LIAR  # (no bid is left only after the highest bid, so Liar is valid then)
    return best


@njit(cache=True)
def odds_bidder(state, data):
    """Odds bidder: makes the bid likeliest true given its dice, or calls Liar on a bid likelier false."""
    if state[S_OVER] == 1.0:
        return 0, data
    return odds_move(state), data


@njit(cache=True)
def _valid_count(view) -> int:
    """How many actions the player of ``view`` may choose from (the bids above the last, and Liar)."""
    first = int(view[S_BID])
    return NUM_PLAYERS * _dice_per_player(view) * FACES - first + (1 if first > 0 else 0)


@njit(cache=True)
def _random_move(view) -> int:
    """A uniformly random valid action for the player of ``view``."""
    first = int(view[S_BID])
    k = int(np.random.random() * _valid_count(view))
    if first + k >= NUM_PLAYERS * _dice_per_player(view) * FACES:
        return LIAR
    return first + k


@njit(cache=True)
def _opponent_likelihoods(env, me):
    """How likely the opponent's bids in ``env`` are (rule, chance): if it bid by level 1's rule
    (slipping to another action with chance SLIP) with the dice ``env`` gives it, and if it bid
    uniformly at random. The game is replayed from its start, scoring each of its bids."""
    replay = env.copy()
    replay[E_BID] = -1.0
    replay[E_BIDDER] = -1.0
    replay[E_MOVES] = 0.0
    replay[E_PLAYER] = 0.0
    for b in range(NUM_BIDS):
        replay[E_MADE_BY + b] = 0.0
    rule, chance = 1.0, 1.0
    for b in range(int(env[E_BID]) + 1):
        made_by = env[E_MADE_BY + b]
        if made_by == 0.0:
            continue
        if made_by != me + 1.0:
            view = getPlayerState(replay, 1 - me)
            options = _valid_count(view)
            chance /= options
            if odds_move(view) == b:
                rule *= 1.0 - SLIP + SLIP / options
            else:
                rule *= SLIP / options
        stepEnv(b, replay)
    return rule, chance


@njit(cache=True)
def _play_out(env, me, opponent_random) -> float:
    """1.0 when ``me`` wins the game ``env`` (changed in place): ``me`` on level 1's rule, the
    opponent on it too or at random."""
    while checkEnded(env) == -1:
        player = getCurrentPlayer(env)
        view = getPlayerState(env, player)
        if player != me and opponent_random:
            stepEnv(_random_move(view), env)
        else:
            stepEnv(odds_move(view), env)
    return 1.0 if checkEnded(env) == me else 0.0


@njit(cache=True)
def candidate_moves(state, out) -> int:
    """Writes the candidates (the cheapest bid per face, then Liar once a bid stands) to ``out``
    (length FACES + 1) and returns how many there are."""
    dice = _dice_per_player(state)
    last = state[S_BID]
    top = NUM_PLAYERS * dice * FACES
    first = int(last) if last >= 0.0 and last <= top else 0
    count = 0
    for face in range(FACES):
        bid = first + (face - first) % FACES
        if bid < top:
            out[count] = bid
            count += 1
    if first > 0:
        out[count] = LIAR
        count += 1
    return count


@njit(cache=True)
def search_values(state, samples, candidates, count, wins) -> float:
    """Level 3's judgement of the ``count`` ``candidates``: writes to ``wins`` each one's weighted
    wins over ``samples`` deals (the opponent modelled as level 1 or as random, each deal weighted
    by how well it explains the bids) and returns the total weight (a candidate's win rate is its
    wins over it)."""
    for c in range(count):
        wins[c] = 0.0
    total = 0.0
    for _ in range(samples):
        world = sampleEnv(state)
        me = getCurrentPlayer(world)
        rule, chance = _opponent_likelihoods(world, me)
        rule *= RULE_PRIOR
        chance *= 1.0 - RULE_PRIOR
        total += rule + chance
        for c in range(count):
            wins[c] += rule * _play_out(stepEnv(candidates[c], world.copy()), me, False)
            wins[c] += chance * _play_out(stepEnv(candidates[c], world.copy()), me, True)
    return total


@njit(cache=True)
def search_move(state, samples) -> int:
    """Level 3's rule: the candidate with the best weighted win share over ``samples`` deals, the
    opponent modelled as level 1 or as random, each weighted by how well it explains the bids."""
    candidates = np.full(FACES + 1, -1, dtype=np.int64)
    count = candidate_moves(state, candidates)
    if count == 1:
        return candidates[0]
    wins = np.zeros(count)
    search_values(state, samples, candidates, count, wins)
    best = 0
    for c in range(1, count):
        if wins[c] > wins[best]:
            best = c
    return candidates[best]


@njit(cache=True)
def rollout_searcher(state, data):
    """Rollout searcher: deals the unseen dice, weighs deals by the bids, plays every candidate out.
    ``data[0]``, when 1 or more, is the number of deals a move (default SAMPLES)."""
    if state[S_OVER] == 1.0 or state[S_MY_TURN] != 1.0:
        return 0, data
    samples = int(data[0]) if data[0] >= 1.0 else SAMPLES
    return search_move(state, samples), data


# ---- level 2: a linear scorer over the candidates, fitted to level 3's judgements -----------------


def _hand_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every hand of 1..MAX_DICE dice as face counts: (first row of each hand size, the counts
    (one row a hand), each hand's chance of being rolled)."""
    starts = np.zeros(MAX_DICE + 2, dtype=np.int64)
    rows: list[list[float]] = []
    chances: list[float] = []

    def spread(left: int, face: int, counts: list[int], dice: int) -> None:
        if face == FACES - 1:
            full = [*counts, left]
            ways = factorial(dice)
            for c in full:
                ways //= factorial(c)
            rows.append([float(c) for c in full])
            chances.append(ways / FACES**dice)
            return
        for c in range(left, -1, -1):
            spread(left - c, face + 1, [*counts, c], dice)

    for dice in range(1, MAX_DICE + 1):
        starts[dice] = len(rows)
        spread(dice, 0, [], dice)
    starts[MAX_DICE + 1] = len(rows)
    return starts, np.array(rows), np.array(chances)


HAND_START, HAND_COUNTS, HAND_CHANCE = _hand_tables()
MAX_HANDS = int(max(HAND_START[d + 1] - HAND_START[d] for d in range(1, MAX_DICE + 1)))  # 252


@njit(cache=True)
def _rule_table(starts, counts):
    """RULE[h, s]: level 1's move with hand h (a row of HAND_COUNTS) when the state's S_BID is s,
    and HITS[h, f]: how many of hand h's dice count for face f + 1 (sixes are wild)."""
    rule = np.full((counts.shape[0], NUM_BIDS + 1), -1, dtype=np.int64)
    hits = np.zeros((counts.shape[0], FACES), dtype=np.int64)
    view = np.zeros(STATE_SIZE)
    for dice in range(1, MAX_DICE + 1):
        view[S_DICE_COUNT] = dice
        for h in range(starts[dice], starts[dice + 1]):
            for f in range(FACES):
                view[S_MY_DICE + f] = counts[h, f]
                hits[h, f] = int(counts[h, f] + (counts[h, FACES - 1] if f != FACES - 1 else 0.0))
            for before in range(NUM_PLAYERS * dice * FACES + 1):
                view[S_BID] = before
                rule[h, before] = odds_move(view)
    return rule, hits


HAND_RULE, HAND_HITS = _rule_table(HAND_START, HAND_COUNTS)

# the features of a candidate (a bid's, or Liar's: the other kind's are 0)
F_BID = 0  # 1 for a bid
F_POST = 1  # chance the bid is true: my dice, and the opponent's as its bids suggest (level 3's model)
F_POST2 = 2  # its square
F_PRIOR = 3  # chance the bid is true from my dice alone (level 1's)
F_RULE = 4  # 1 for level 1's choice (a bid or Liar)
F_SIX = 5  # 1 for a bid on sixes
F_QUANT = 6  # the bid's quantity over the dice on the table
F_RAISE = 7  # 1 when the bid raises the quantity of the last bid
F_POSTQ = 8  # F_POST x F_QUANT
F_LIAR = 9  # 1 for Liar
F_LPOST = 10  # chance the last bid is false (level 3's model of the opponent)
F_LPOST2 = 11  # its square
F_LPRIOR = 12  # chance the last bid is false from my dice alone
F_LQUANT = 13  # the last bid's quantity over the dice on the table
NUM_FEATURES = 14
NUM_WEIGHTS = 2 * NUM_FEATURES  # one set for one die each, one for more dice

# the learned bot's data: its weights, then a scratch it overwrites at every move
D_POST = NUM_WEIGHTS  # the posterior chance of each opponent hand
D_THEIR_BIDS = D_POST + MAX_HANDS  # the opponent's bids: (bid, S_BID before it, likelihood if level 1's
# rule makes it, if not) for each
D_FEATURES = D_THEIR_BIDS + 4 * NUM_BIDS  # the features of the candidate being scored
LEARNED_DATA_SIZE = D_FEATURES + NUM_FEATURES
WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")


@njit(cache=True)
def opponent_posterior(state, data, dice, first) -> None:
    """Writes to ``data[D_POST:]`` the chance of each opponent hand of ``dice`` dice given its
    bids, under level 3's model: level 1's rule (slipping with chance SLIP) or uniform random
    bids, each with prior RULE_PRIOR (the hands in HAND_COUNTS's order from HAND_START[dice])."""
    top = NUM_PLAYERS * dice * FACES
    theirs = 0
    before = 0  # S_BID before each bid
    chance = 1.0
    for b in range(first):
        made = state[S_BIDS + b]
        if made == 0.0:
            continue
        if made == THEIRS:
            options = top - before + (1 if before > 0 else 0)
            at = D_THEIR_BIDS + 4 * theirs
            data[at] = b
            data[at + 1] = before
            data[at + 2] = 1.0 - SLIP + SLIP / options
            data[at + 3] = SLIP / options
            theirs += 1
            chance /= options
        before = b + 1
    start = HAND_START[dice]
    hands = HAND_START[dice + 1] - start
    total = 0.0
    for h in range(hands):
        rule = 1.0
        for t in range(theirs):
            at = D_THEIR_BIDS + 4 * t
            if HAND_RULE[start + h, int(data[at + 1])] == data[at]:
                rule *= data[at + 2]
            else:
                rule *= data[at + 3]
        weight = HAND_CHANCE[start + h] * (RULE_PRIOR * rule + (1.0 - RULE_PRIOR) * chance)
        data[D_POST + h] = weight
        total += weight
    for h in range(hands):
        data[D_POST + h] /= total


@njit(cache=True)
def posterior_true(state, data, dice, bid) -> float:
    """Chance that ``bid`` is true given my dice and ``opponent_posterior``'s chances."""
    face = bid % FACES + 1
    mine = state[S_MY_DICE + face - 1]
    if face != FACES:
        mine += state[S_MY_DICE + FACES - 1]
    need = bid // FACES + 1 - mine
    if need <= 0:
        return 1.0
    start = HAND_START[dice]
    total = 0.0
    for h in range(HAND_START[dice + 1] - start):
        if HAND_HITS[start + h, face - 1] >= need:
            total += data[D_POST + h]
    return total


@njit(cache=True)
def candidate_features(state, data, dice, first, action, rule_choice) -> None:
    """Writes the features of the candidate ``action`` to ``data[D_FEATURES:]`` (after
    ``opponent_posterior``; ``rule_choice`` is level 1's move)."""
    out = data[D_FEATURES : D_FEATURES + NUM_FEATURES]
    for i in range(NUM_FEATURES):
        out[i] = 0.0
    table = NUM_PLAYERS * dice
    out[F_RULE] = 1.0 if action == rule_choice else 0.0
    if action == LIAR:
        last = first - 1
        post = 1.0 - posterior_true(state, data, dice, last)
        out[F_LIAR] = 1.0
        out[F_LPOST] = post
        out[F_LPOST2] = post * post
        out[F_LPRIOR] = 1.0 - chance_true(state, last, dice)
        out[F_LQUANT] = (last // FACES + 1) / table
        return
    post = posterior_true(state, data, dice, action)
    quantity = (action // FACES + 1) / table
    out[F_BID] = 1.0
    out[F_POST] = post
    out[F_POST2] = post * post
    out[F_PRIOR] = chance_true(state, action, dice)
    out[F_SIX] = 1.0 if action % FACES == FACES - 1 else 0.0
    out[F_QUANT] = quantity
    out[F_RAISE] = 1.0 if first > 0 and action // FACES > (first - 1) // FACES else 0.0
    out[F_POSTQ] = post * quantity


@njit(cache=True)
def candidate_score(state, data, dice, first, action, rule_choice, w) -> float:
    """The weighted sum of ``candidate_features``' values (weights from ``data[w:]``), computed
    directly, term by term in the same order (so to the same last bit)."""
    table = NUM_PLAYERS * dice
    rule = 1.0 if action == rule_choice else 0.0
    if action == LIAR:
        last = first - 1
        post = 1.0 - posterior_true(state, data, dice, last)
        score = data[w + F_RULE] * rule + data[w + F_LIAR]
        score += data[w + F_LPOST] * post
        score += data[w + F_LPOST2] * (post * post)
        score += data[w + F_LPRIOR] * (1.0 - chance_true(state, last, dice))
        return score + data[w + F_LQUANT] * ((last // FACES + 1) / table)
    post = posterior_true(state, data, dice, action)
    quantity = (action // FACES + 1) / table
    score = data[w + F_BID] + data[w + F_POST] * post
    score += data[w + F_POST2] * (post * post)
    score += data[w + F_PRIOR] * chance_true(state, action, dice)
    score += data[w + F_RULE] * rule
    if action % FACES == FACES - 1:
        score += data[w + F_SIX]
    score += data[w + F_QUANT] * quantity
    if first > 0 and action // FACES > (first - 1) // FACES:
        score += data[w + F_RAISE]
    return score + data[w + F_POSTQ] * (post * quantity)


@njit(cache=True)
def learned_action(state, data) -> int:
    """Level 2's choice: the candidate (the cheapest bid per face, or Liar) that the weights in
    ``data`` score highest. Allocates nothing."""
    dice = _dice_per_player(state)
    top = NUM_PLAYERS * dice * FACES
    last = state[S_BID]
    first = int(last) if last >= 0.0 and last <= top else 0
    if first >= top:
        return LIAR  # the highest bid stands: Liar is all that is left
    opponent_posterior(state, data, dice, first)
    rule_choice = odds_move(state)
    weights = 0 if dice == 1 else NUM_FEATURES
    best, best_score = -1, -1e300
    for c in range(FACES + 1):
        if c < FACES:
            action = first + (c - first) % FACES
            if action >= top:
                continue
        elif first > 0:
            action = LIAR
        else:
            break
        score = candidate_score(state, data, dice, first, action, rule_choice, weights)
        if score > best_score:
            best, best_score = action, score
    return best


@njit(cache=True)
def learned(state, data):
    """Learned: a linear scorer over the candidates (Liar, the cheapest bid per face) on their
    chance of being true given its dice and the opponent's bids; trained to copy level 3."""
    if state[S_OVER] == 1.0 or state[S_MY_TURN] != 1.0:
        return 0, data
    return learned_action(state, data), data


@njit(cache=True)
def decision_rows(state, data):
    """Training rows of a decision: (its candidates, one row of features each)."""
    dice = _dice_per_player(state)
    candidates = np.full(FACES + 1, -1, dtype=np.int64)
    count = candidate_moves(state, candidates)
    rows = np.zeros((count, NUM_FEATURES))
    top = NUM_PLAYERS * dice * FACES
    last = state[S_BID]
    first = int(last) if last >= 0.0 and last <= top else 0
    opponent_posterior(state, data, dice, first)
    rule_choice = odds_move(state)
    for c in range(count):
        candidate_features(state, data, dice, first, candidates[c], rule_choice)
        rows[c] = data[D_FEATURES : D_FEATURES + NUM_FEATURES]
    return candidates[:count].copy(), rows


def learned_data(weights: np.ndarray | None = None) -> np.ndarray:
    """The level-2 bot's data: its weights (default: ``level2_weights.npz``'s) and the scratch."""
    return linear_bot_data(
        weights, WEIGHTS_FILE, NUM_WEIGHTS, LEARNED_DATA_SIZE, "makeenv.games.liars_dice.train_level2"
    )


LEVELS: dict[int, Any] = {1: odds_bidder, 3: rollout_searcher}
if WEIGHTS_FILE.exists():  # absent only while train_level2 builds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
