"""Built-in WelcomeToTheDungeon opponents. Level 0 (random) is the framework's.

* Level 1, ``cautious``: estimates the damage the dungeon would do to the hero (the monsters it put
  there itself exactly, each other one as the mean of the monsters it has not seen, after the
  hero's items) and looks at another monster only while the hero would still survive one more
  average monster; it adds the monster it looks at while that stays survivable, else gives up the
  item whose loss hurts least if that keeps the hero alive, else adds it (a deadly dungeon for
  whoever runs). Its vorpal weapon names the species likely to hurt most; it picks the Warrior.
* Level 2, ``learned``: a linear policy over the state (``level2_weights.npz``: one score per
  action, a weighted sum of the 78 state values) trained by ``python -m makeenv.learn.imitate``
  (the commands are in the README) to copy level 3, the search; it plays the valid action it
  scores highest.
* Level 3, ``search``: flat Monte Carlo over ``sampleEnv`` (the hidden monsters drawn anew each
  time): every valid action is played out to the end of the round by cautious players in all
  seats, on the same samples; it plays the best mean (its own round won +1, lost -1, another
  seat's round won -0.4, lost +0.4; the game won or lost +-10).

Every bot reads nothing but its own state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import load_policy_data, mlp_action

from . import logic as L
from .dungeon import CARD_STRENGTH, NUM_CARDS, NUM_ITEMS, NUM_SPECIES, SPECIES, species_index
from .search import make_search

SAMPLES = 24  # determinizations per decision of the level-3 bot (data[0] >= 1 overrides it)


@njit(cache=True)
def hero_items(state):
    """(hero, its 6 item flags) from a state."""
    hero = L.ROGUE if state[L.S_ROGUE] > 0.5 else L.WARRIOR
    start = (L.S_ROGUE if hero == L.ROGUE else L.S_WARRIOR) + 1
    return hero, state[start : start + NUM_ITEMS] > 0.5


@njit(cache=True)
def effective(hero, items, strength) -> float:
    """What a monster costs the hero after its items (negative: the Ring's gain)."""
    if hero == L.WARRIOR:
        if (items[L.TORCH] and strength <= 3) or (items[L.GRAIL] and strength % 2 == 0):
            return 0.0
        if items[L.SPEAR] and strength == 9:
            return 0.0
        return strength
    if items[L.CLOAK] and strength >= 6:
        return 0.0
    if items[L.RING] and strength <= 2:
        return -strength
    return strength


@njit(cache=True)
def unseen_pool(state):
    """8 counts: the monsters of each species I have not seen this round."""
    pool = np.zeros(NUM_SPECIES)
    for c in range(NUM_CARDS):
        pool[species_index(CARD_STRENGTH[c])] += 1.0
    for k in range(NUM_CARDS):
        if state[L.S_MY_DUNGEON + k] > 0.0:
            pool[species_index(state[L.S_MY_DUNGEON + k])] -= 1.0
    for i in range(NUM_SPECIES):
        pool[i] -= state[L.S_MY_DISCARDS + i] + state[L.S_LOOKED + i]
    return np.maximum(pool, 0.0)


@njit(cache=True)
def outlook(state, hero, items, extra) -> float:
    """HP left after the dungeon as I estimate it, with ``extra`` more damage."""
    hp = L.BASE_HP + 3.0 * items[0] + 5.0 * items[1]
    if hero == L.ROGUE and items[L.POTION]:
        hp += L.BASE_HP
    pool = unseen_pool(state)
    total, mean = pool.sum(), 0.0
    if total > 0:
        for i in range(NUM_SPECIES):
            mean += pool[i] * effective(hero, items, SPECIES[i]) / total
    known, biggest, count = 0.0, 0.0, 0
    for k in range(int(state[L.S_DUNGEON])):
        s = state[L.S_MY_DUNGEON + k]
        if s > 0.0:
            known += effective(hero, items, s)
            biggest = max(biggest, effective(hero, items, s))
            count += 1
    damage = known + (state[L.S_DUNGEON] - count) * mean + extra
    if items[L.VORPAL]:
        damage -= max(biggest, mean)
    return hp - damage


@njit(cache=True)
def cautious_action(state) -> int:
    """The level-1 choice (see the module's docstring)."""
    if not L.moving(state, L.S_COMMON):
        return L.PASS
    phase = L.state_phase(state)
    hero, items = hero_items(state)
    if phase == L.PH_HERO:
        return L.CHOOSE_HERO + L.WARRIOR
    if phase == L.PH_CHOOSE:
        pool = unseen_pool(state)
        mine = np.zeros(NUM_SPECIES)
        for k in range(NUM_CARDS):
            if state[L.S_MY_DUNGEON + k] > 0.0:
                mine[species_index(state[L.S_MY_DUNGEON + k])] += 1.0
        unknown = state[L.S_DUNGEON] - mine.sum()
        total = max(pool.sum(), 1.0)
        best, best_value = 0, -1e9
        for i in range(NUM_SPECIES):
            value = (mine[i] + unknown * pool[i] / total) * effective(hero, items, SPECIES[i])
            if value > best_value:
                best, best_value = i, value
        return L.VORPAL_SPECIES + best
    if phase == L.PH_BID:
        pool = unseen_pool(state)
        total, mean = pool.sum(), 0.0
        for i in range(NUM_SPECIES):
            mean += pool[i] * max(effective(hero, items, SPECIES[i]), 0.0) / max(total, 1.0)
        if state[L.S_DRAWN] < NUM_CARDS and outlook(state, hero, items, mean) > 0.0:
            return L.LOOK
        return L.PASS
    if phase == L.PH_LOOKED:
        strength = 0.0
        for i in range(NUM_SPECIES):
            if state[L.S_LOOKED + i] > 0.5:
                strength = SPECIES[i]
        if outlook(state, hero, items, effective(hero, items, strength)) > 0.0:
            return L.ADD
        first = L.DISCARD_WARRIOR if hero == L.WARRIOR else L.DISCARD_ROGUE
        best, best_left = L.ADD, 0.0
        for i in range(NUM_ITEMS):
            if items[i]:
                fewer = items.copy()
                fewer[i] = False
                left = outlook(state, hero, fewer, 0.0)
                if left > best_left:
                    best, best_left = first + i, left
        return best
    return L.PASS


@njit(cache=True)
def cautious(state, data):
    """Cautious: looks at another monster only while its hero would survive the dungeon it estimates, plus one more average monster."""
    return cautious_action(state), data


search_action = make_search(L, cautious_action)


@njit
def search(state, data):
    """Search: tries every valid action on 24 random deals of the hidden monsters, each round played out by cautious players, and plays the best.

    ``data[0] >= 1`` sets another number of samples.
    """
    samples = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else SAMPLES
    return search_action(state, samples), data


# ---- level 2: a network trained to copy the search ------------------------------------------------

WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")


@njit(cache=True)
def learned(state, data):
    """Level 2: a linear policy over the state, trained by makeenv.learn.imitate to copy the search.

    ``data`` is the packed network followed by ``NUM_ACTIONS`` values of scratch for the valid
    actions, so a move allocates nothing."""
    if not L.moving(state, L.S_COMMON):
        return L.PASS, data
    valid = data[data.shape[0] - L.NUM_ACTIONS :]
    mask = L.valid_mask(state)
    for a in range(L.NUM_ACTIONS):
        valid[a] = float((mask >> a) & 1)
    choice = mlp_action(state, data, valid)
    return (choice if choice >= 0 else L.PASS), data


def learned_data(path: Path | str = WEIGHTS_FILE) -> np.ndarray:
    """Level 2's data: the packed weights of ``path`` and the scratch for the valid actions."""
    return load_policy_data(path, L.STATE_SIZE, L.NUM_ACTIONS, scratch=L.NUM_ACTIONS)


LEVELS: dict[int, Any] = {1: cautious, 3: search}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
