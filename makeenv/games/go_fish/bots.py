"""Built-in Go Fish opponents. Level 0 (random) is the framework's.

Both ask by a score over (player, rank) pairs: the cards of the rank I hold, a bonus when that
player is known to hold the rank, and a hair for the size of its hand. A turn's ask takes two
actions (the player, then the rank): the rank step scores the ranks for the player already chosen.

* Level 1, ``fisher``: the known holder first (a bonus of 10 cards): it asks a player who asked for
  one of its ranks in its latest turn, else for the rank it holds most of.
* Level 2, ``tracker``: the fisher, with a memory (its bot data) and a sharper reading of the
  flags. A flag counts only for the latest of the players who asked for that rank since my turn
  (a later asker may have taken the cards), and not for a rank I already asked for this turn (the
  holder handed it over). It remembers every player it asked for a rank: that player holds none,
  until its hand grows again, so asking it again costs half a card.

Both read nothing but their own state (and the tracker its own memory). The weights were chosen
by measurement (see README.md); a collector that asked for its biggest set first beat the fisher
only narrowly and lost to random players, and determinized search played no better than random.
"""

from __future__ import annotations

import numpy as np
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
    S_MY_ASKED,
    S_OTHERS,
    S_OVER,
    S_TARGET,
    S_TURNS,
    holds,
    isValidAction,
    phase_of,
)

KNOWN_WEIGHT = 10.0  # a known holder outweighs any set size
HAND_WEIGHT = 0.01  # a hair for a fuller hand
LACK_WEIGHT = 0.5  # level 2: asking a player known to hold none of the rank
# level 2's memory, in its bot data: per next player a bit mask of the ranks it holds none of, its
# hand size when last seen, then the turn count when last seen (a smaller one means a new game)
M_LACKS = 0
M_HANDS = 3
M_TURNS = 6


@njit(cache=True)
def lacks(memory, k, rank) -> bool:
    """True when the memory says player ``k`` (seats after me) holds none of ``rank``."""
    return (int(memory[M_LACKS + k]) >> rank) & 1 == 1


@njit(cache=True)
def remember(state, memory):
    """Bring the memory up to date with the state: forget it in a new game, forget what a player
    lacks once its hand grows (it drew) or it asked for the rank."""
    if state[S_TURNS] < memory[M_TURNS] or state[S_OVER] > 0.5:
        memory[: M_TURNS + 1] = 0.0
    memory[M_TURNS] = state[S_TURNS]
    for k in range(NUM_PLAYERS - 1):
        hand = state[S_OTHERS + k * OTHER_BLOCK + O_HAND]
        mask = 0 if hand > memory[M_HANDS + k] else int(memory[M_LACKS + k])
        for r in range(NUM_RANKS):
            if state[S_ASKED + k * NUM_RANKS + r] > 0.5:
                mask &= ~(1 << r)
        memory[M_LACKS + k] = mask
        memory[M_HANDS + k] = hand


@njit(cache=True)
def known_holder(state, k, rank, sharp) -> bool:
    """Player ``k`` asked for ``rank`` in its latest turn; ``sharp``: and no later player did, and
    I have not asked for it this turn (either may have taken the cards)."""
    if state[S_ASKED + k * NUM_RANKS + rank] < 0.5:
        return False
    if not sharp:
        return True
    for j in range(k + 1, NUM_PLAYERS - 1):
        if state[S_ASKED + j * NUM_RANKS + rank] > 0.5:
            return False
    return state[S_MY_ASKED + rank] < 0.5


@njit(cache=True)
def best_ask(state, memory, sharp) -> int:
    """The action of the best-scoring ask this phase allows; DRAW when I do not ask. ``sharp``
    (level 2) reads the flags sharply and uses and updates ``memory``."""
    phase = phase_of(state)
    if phase != CHOOSE_PLAYER and phase != CHOOSE_RANK:
        return DRAW
    chosen = -1  # the player already chosen, in the rank step
    if phase == CHOOSE_RANK:
        for k in range(NUM_PLAYERS - 1):
            if state[S_TARGET + k] > 0.5:
                chosen = k
    best_k, best_rank, best = -1, -1, -1e9
    for k in range(NUM_PLAYERS - 1):
        if chosen >= 0:
            if k != chosen:
                continue
        elif not isValidAction(state, ASK_PLAYER + k):  # no cards to ask for there
            continue
        for r in range(NUM_RANKS):
            if holds(state, r):
                lack = sharp and lacks(memory, k, r)
                score = state[S_MINE + r] + HAND_WEIGHT * state[S_OTHERS + k * OTHER_BLOCK + O_HAND]
                if lack:
                    score -= LACK_WEIGHT
                elif known_holder(state, k, r, sharp):
                    score += KNOWN_WEIGHT
                if score > best:
                    best_k, best_rank, best = k, r, score
    if best_k < 0:
        return DRAW
    if phase == CHOOSE_PLAYER:
        return ASK_PLAYER + best_k
    if sharp:  # after this ask the player holds none of the rank, whatever it answers
        memory[M_LACKS + best_k] = int(memory[M_LACKS + best_k]) | (1 << best_rank)
    return ASK_RANK + best_rank


@njit(cache=True)
def fisher_action(state) -> int:
    """The level-1 choice."""
    return best_ask(state, np.zeros(M_TURNS + 1), False)


@njit(cache=True)
def fisher(state, data):
    """Fisher: asks a player known to hold one of its ranks, else for its biggest set."""
    return fisher_action(state), data


@njit(cache=True)
def tracker(state, data):
    """Tracker: the fisher, reading the flags sharply and remembering whom it asked for what."""
    remember(state, data)
    return best_ask(state, data, True), data


LEVELS = {1: fisher, 2: tracker}
