"""Built-in LiarsDice opponents (levels 1, 2). Level 0 (random) is the framework's.

Both bots play from their own state only: their own dice and the public bids.

* Level 1, ``odds_bidder``: for every face it considers the cheapest bid it may make and the
  chance that the bid is true given its own dice (the opponent's dice counted as unknown); it
  makes the likeliest such bid, or calls Liar when the last bid is more likely false than any
  bid of its own is true.
* Level 2, ``rollout_searcher``: information-set search. It deals the opponent's unseen dice at
  random (``sampleEnv``) many times and plays out every candidate move (Liar, and the cheapest
  bid per face) in every deal, itself by level 1's rule and the opponent either by level 1's rule
  or at random. Each (deal, opponent model) counts as much as it explains the opponent's bids so
  far (Bayes' rule); it makes the move that won the largest weighted share.
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

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
    S_DICE_COUNT,
    S_MY_DICE,
    S_MY_TURN,
    S_OVER,
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

SAMPLES = 48  # deals of the opponent's dice per decision (level 2)
RULE_PRIOR = 0.5  # level 2's belief, before any bid, that the opponent bids by level 1's rule (else at random)
SLIP = 0.1  # how often level 2 expects a rule follower to play another action


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
def search_move(state, samples) -> int:
    """Level 2's rule: the candidate with the best weighted win share over ``samples`` deals, the
    opponent modelled as level 1 or as random, each weighted by how well it explains the bids."""
    dice = _dice_per_player(state)
    last = state[S_BID]
    top = NUM_PLAYERS * dice * FACES
    first = int(last) if last >= 0.0 and last <= top else 0
    candidates = np.full(FACES + 1, -1, dtype=np.int64)
    count = 0
    for face in range(FACES):
        bid = first + (face - first) % FACES
        if bid < top:
            candidates[count] = bid
            count += 1
    if first > 0:
        candidates[count] = LIAR
        count += 1
    if count == 1:
        return candidates[0]
    wins = np.zeros(count)
    for _ in range(samples):
        world = sampleEnv(state)
        me = getCurrentPlayer(world)
        rule, chance = _opponent_likelihoods(world, me)
        rule *= RULE_PRIOR
        chance *= 1.0 - RULE_PRIOR
        for c in range(count):
            wins[c] += rule * _play_out(stepEnv(candidates[c], world.copy()), me, False)
            wins[c] += chance * _play_out(stepEnv(candidates[c], world.copy()), me, True)
    best = 0
    for c in range(1, count):
        if wins[c] > wins[best]:
            best = c
    return candidates[best]


@njit(cache=True)
def rollout_searcher(state, data):
    """Rollout searcher: deals the unseen dice, weighs deals by the bids, plays every candidate out."""
    if state[S_OVER] == 1.0 or state[S_MY_TURN] != 1.0:
        return 0, data
    return search_move(state, SAMPLES), data


LEVELS = {1: odds_bidder, 2: rollout_searcher}
