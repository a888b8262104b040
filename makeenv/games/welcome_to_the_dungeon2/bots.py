"""Built-in WelcomeToTheDungeon2 opponents. Level 0 (random) is the framework's.

* Level 1, ``cautious``: estimates the damage the dungeon would do to the hero (the monsters it put
  there itself exactly, each other one as the mean of the monsters it has not seen, after the
  hero's items) and looks at another monster only while the hero would still survive one more
  average monster; it adds the monster it looks at while that stays survivable, else gives up the
  item whose loss hurts least if that keeps the hero alive, else adds it. It picks the Barbarian;
  in the dungeon it uses the Vorpal Axe or the Polymorph on a monster that would kill the hero or
  that hits for 6 or more.
* Level 2, ``learned``: a linear policy over the state (``level2_weights.npz``: one score per
  action, a weighted sum of the 115 state values) trained by ``python -m makeenv.learn.imitate``
  (the commands are in the README) to copy level 3, the search; it plays the valid action it
  scores highest.
* Level 3, ``search``: flat Monte Carlo over ``sampleEnv`` as WelcomeToTheDungeon's level 3 (every
  valid action played out to the end of the round by cautious players on the same samples).

Every bot reads nothing but its own state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import layer_sizes, load_weights

from ..welcome_to_the_dungeon.dungeon import CARD_STRENGTH, NUM_CARDS, NUM_ITEMS
from ..welcome_to_the_dungeon.search import make_search
from . import logic as L

SAMPLES = 24  # determinizations per decision of the level-3 bot (data[0] >= 1 overrides it)
BIG_HIT = 6.0  # the Axe or the Polymorph goes on a monster that hits this hard (or kills)


@njit(cache=True)
def hero_items(state):
    """(hero, its HP, its 6 item flags) from a state."""
    hero = L.MAGE if state[L.S_MAGE] > 0.5 else L.BARBARIAN
    start = L.S_MAGE if hero == L.MAGE else L.S_BARBARIAN
    return hero, state[start + 1], state[start + 2 : start + 2 + NUM_ITEMS] > 0.5


@njit(cache=True)
def effective(hero, items, strength) -> float:
    """What a monster costs the hero after its passive items."""
    if hero == L.BARBARIAN:
        if (items[L.TORCH] and strength <= 3) or (items[L.HAMMER] and strength == 5):
            return 0.0
        return strength
    if (items[L.GRAIL] and strength % 2 == 0) or (items[L.PACT] and strength == 7):
        return 0.0
    return strength


@njit(cache=True)
def outlook(state, hero, hp, items, extra) -> float:
    """HP left after the dungeon as I estimate it, with ``extra`` more damage."""
    if state[L.S_IN_DUNGEON] < 0.5:  # the +HP items count once the runner goes in
        if hero == L.BARBARIAN:
            hp += 3.0 * items[L.SHIELD] + 4.0 * items[L.CHAINMAIL]
        else:
            hp += 6.0 * items[L.WALL] + 3.0 * items[L.BRACELET]
    if hero == L.BARBARIAN and items[L.POTION]:
        hp += L.BASE_HP[L.BARBARIAN]
    unseen, total, known, biggest, mine = 0.0, 0.0, 0.0, 0.0, 0.0
    for c in range(NUM_CARDS):
        eff = effective(hero, items, CARD_STRENGTH[c])
        if state[L.S_MEMORY + 3 * c] == 0.0 and state[L.S_OUT + c] == 0.0 and state[L.S_LOOKED + c] == 0.0:
            unseen += eff
            total += 1.0
        elif state[L.S_MEMORY + 3 * c + 1] > 0.0:
            known += eff
            biggest = max(biggest, eff)
            mine += 1.0
    mean = unseen / total if total > 0 else 0.0
    damage = known + (state[L.S_DUNGEON] - mine) * mean + extra
    if (hero == L.BARBARIAN and items[L.AXE]) or (hero == L.MAGE and items[L.POLYMORPH]):
        damage -= max(biggest, mean)
    return hp - damage


@njit(cache=True)
def unseen_mean(state, hero, items) -> float:
    total, count = 0.0, 0.0
    for c in range(NUM_CARDS):
        if state[L.S_MEMORY + 3 * c] == 0.0 and state[L.S_OUT + c] == 0.0:
            total += max(effective(hero, items, CARD_STRENGTH[c]), 0.0)
            count += 1.0
    return total / count if count > 0 else 0.0


@njit(cache=True)
def cautious_action(state) -> int:
    """The level-1 choice (see the module's docstring)."""
    if not L.moving(state, L.S_COMMON):
        return L.PASS
    phase = L.state_phase(state)
    if phase == L.PH_HERO:
        return L.CHOOSE_HERO + L.BARBARIAN
    hero, hp, items = hero_items(state)
    if phase == L.PH_DUNGEON:
        facing = int(state[L.S_FACING]) - 1
        hit = effective(hero, items, CARD_STRENGTH[facing]) if 0 <= facing < NUM_CARDS else 0.0
        saved = hero == L.BARBARIAN and items[L.POTION]
        if (hit >= hp and not saved) or hit >= BIG_HIT:
            if L.allowed(state, L.USE_AXE):
                return L.USE_AXE
            if L.allowed(state, L.USE_POLYMORPH):
                return L.USE_POLYMORPH
        return L.FIGHT
    if phase == L.PH_BID:
        if state[L.S_DECK] > 0 and outlook(state, hero, hp, items, unseen_mean(state, hero, items)) > 0.0:
            return L.LOOK
        return L.PASS
    if phase == L.PH_LOOKED:
        strength = 0.0
        for c in range(NUM_CARDS):
            if state[L.S_LOOKED + c] > 0.5:
                strength = CARD_STRENGTH[c]
        if outlook(state, hero, hp, items, effective(hero, items, strength)) > 0.0:
            return L.ADD
        best, best_left = L.ADD, 0.0
        for i in range(NUM_ITEMS):
            if items[i]:
                fewer = items.copy()
                fewer[i] = False
                left = outlook(state, hero, hp, fewer, 0.0)
                if left > best_left:
                    best, best_left = L.DISCARD + i, left
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


# ---- level 2: a linear policy trained to copy the search ------------------------------------------

WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")
FAST_MATH = {"contract", "reassoc", "nsz", "arcp"}  # finite sums: let LLVM vectorize them
# The two-action choices of most moves (bidding, the dungeon, the hero): one score difference each,
# the lower action first (it wins a tie, as in makeenv.learn.policy.mlp_action)
PAIRS = ((L.PASS, L.LOOK), (L.USE_AXE, L.FIGHT), (L.USE_POLYMORPH, L.FIGHT), (L.CHOOSE_HERO, L.CHOOSE_HERO + 1))
ROW = L.STATE_SIZE + 1  # a row of the data: the weights of the state's values, then the bias
PAIR_ROWS = L.NUM_ACTIONS  # the rows of PAIRS follow the NUM_ACTIONS rows of the actions' scores


@njit(cache=True, fastmath=FAST_MATH, inline="always")
def row_score(state, data, row) -> float:
    """``data``'s row ``row`` (weights, then the bias) applied to the state."""
    base = row * ROW
    total = data[base + L.STATE_SIZE]
    for k in range(L.STATE_SIZE):
        total += data[base + k] * state[k]
    return total


@njit(cache=True, fastmath=FAST_MATH)
def learned(state, data):
    """Level 2: a linear policy over the state, trained by makeenv.learn.imitate to copy the search.

    It plays the valid action whose score (a weighted sum of the state's values plus a bias) is
    highest. ``data`` (``learned_data``) holds each action's row, then the difference of the two
    rows of each choice in ``PAIRS``, so a choice between two actions is one sum; it allocates
    nothing and reads the weights in place."""
    if not L.moving(state, L.S_COMMON):
        return L.PASS, data
    mask = L.valid_mask(state)
    for p in range(len(PAIRS)):
        first, second = PAIRS[p]
        if mask == (1 << first) | (1 << second):
            return (second if row_score(state, data, PAIR_ROWS + p) > 0.0 else first), data
    best, best_score = -1, 0.0
    for a in range(L.NUM_ACTIONS):
        if (mask >> a) & 1:
            score = row_score(state, data, a)
            if best < 0 or score > best_score:
                best, best_score = a, score
    return (best if best >= 0 else L.PASS), data


def learned_data(path: Path | str = WEIGHTS_FILE) -> np.ndarray:
    """Level 2's data from a weights file of one linear layer (``makeenv.learn.imitate --hidden ""``):
    the rows (weights, bias) of the ``NUM_ACTIONS`` actions, then those of the differences in ``PAIRS``."""
    layers, meta = load_weights(path)
    sizes = layer_sizes(layers)
    if sizes != (L.STATE_SIZE, L.NUM_ACTIONS):
        raise ValueError(
            f"{path}: a policy of layers {sizes}; level 2 takes one linear layer from the "
            f"{L.STATE_SIZE} state values to the {L.NUM_ACTIONS} actions (trained for {meta.get('game', '?')}?). "
            'Retrain it with python -m makeenv.learn.imitate WelcomeToTheDungeon2 --hidden ""'
        )
    w, b = layers[0]
    rows = np.concatenate([w, b[:, None]], axis=1)
    pairs = np.array([rows[second] - rows[first] for first, second in PAIRS])
    return np.ascontiguousarray(np.concatenate([rows, pairs]).ravel(), dtype=np.float64)


LEVELS: dict[int, Any] = {1: cautious, 3: search}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
