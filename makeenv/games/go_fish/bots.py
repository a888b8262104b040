"""Built-in Go Fish opponents. Level 0 (random) is the framework's.

Both ask by a score over (player, rank) pairs: the cards of the rank I hold, a bonus when that
player asked for the rank in its latest turn (so holds some, unless it lost them since), and a
hair for the size of its hand. A turn's ask takes two actions (the player, then the rank): the
rank step scores the ranks for the player already chosen.

* Level 1, ``fisher``: the known holder first (a bonus of 10 cards): it asks a player known to
  hold one of its ranks, else for the rank it holds most of.
* Level 2, ``collector``: its biggest set first (the known holder is worth half a card, a
  tie-break). Asking for a small set tells the others which rank to take from it and rarely makes
  a book. Determinized search (``sampleEnv`` play-outs of the game, or of one round) was tried
  first and played no better than random: Go Fish's luck drowns the differences between asks.

Both bots read nothing but their own state.
"""

from __future__ import annotations

from numba import njit

from .logic import (
    ASK_PLAYER,
    ASK_RANK,
    CHOOSE_PLAYER,
    CHOOSE_RANK,
    DRAW,
    NUM_PLAYERS,
    NUM_RANKS,
    O_HAND,
    OTHER_BLOCK,
    S_ASKED,
    S_MINE,
    S_OTHERS,
    S_TARGET,
    holds,
    isValidAction,
    phase_of,
)

FISHER_KNOWN = 10.0  # level 1: a known holder outweighs any set size
COLLECTOR_KNOWN = 0.5  # level 2: half a card, a tie-break between sets of one size
HAND_WEIGHT = 0.01  # a hair for a fuller hand


@njit(cache=True)
def best_ask(state, known_weight) -> int:
    """The action of the best-scoring ask this phase allows; DRAW when I do not ask."""
    phase = phase_of(state)
    if phase != CHOOSE_PLAYER and phase != CHOOSE_RANK:
        return DRAW
    chosen = -1  # the player already chosen, in the rank step
    if phase == CHOOSE_RANK:
        for k in range(NUM_PLAYERS - 1):
            if state[S_TARGET + k] > 0.5:
                chosen = k
    best_k, best_rank, best = -1, -1, -1.0
    for k in range(NUM_PLAYERS - 1):
        if chosen >= 0:
            if k != chosen:
                continue
        elif not isValidAction(state, ASK_PLAYER + k):  # no cards to ask for there
            continue
        for r in range(NUM_RANKS):
            if holds(state, r):
                score = (
                    state[S_MINE + r]
                    + known_weight * state[S_ASKED + k * NUM_RANKS + r]
                    + HAND_WEIGHT * state[S_OTHERS + k * OTHER_BLOCK + O_HAND]
                )
                if score > best:
                    best_k, best_rank, best = k, r, score
    if best_k < 0:
        return DRAW
    return ASK_PLAYER + best_k if phase == CHOOSE_PLAYER else ASK_RANK + best_rank


@njit(cache=True)
def fisher_action(state) -> int:
    """The level-1 choice."""
    return best_ask(state, FISHER_KNOWN)


@njit(cache=True)
def fisher(state, data):
    """Fisher: asks a player known to hold one of its ranks, else for its biggest set."""
    return fisher_action(state), data


@njit(cache=True)
def collector(state, data):
    """Collector: asks for its biggest set, from a player known to hold it when there is one."""
    return best_ask(state, COLLECTOR_KNOWN), data


LEVELS = {1: fisher, 2: collector}
