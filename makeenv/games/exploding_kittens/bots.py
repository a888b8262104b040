"""Built-in ExplodingKittens opponents. Level 0 (random) is the framework's.

* Level 1, ``careful``: counts the kittens left in the pile; when the top card is known to be a
  kitten, or the risk is high and it has no Defuse, it attacks, skips, shuffles or looks at the
  future instead of drawing; steals with cat pairs; Nopes attacks aimed at it; gives away its least
  useful card and names Defuse.
* Level 2, ``learned``: a small network (``level2_weights.npz``) trained by
  ``python -m makeenv.learn.imitate`` (the commands are in the README) to copy
  ``confident_sampler``: level 3's move when it won ``CONFIDENT_MARGIN`` of the deals more than
  level 1's, else level 1's. It sees the state through ``policy_view``: the state, level 1's
  choice and the kitten risk of a draw; it plays the valid action it scores highest.
* Level 3, ``sampler``: determinized Monte Carlo search. It deals the hidden cards (the others'
  hands and the pile order) at random with ``sampleEnv``, tries each valid move in each deal and
  plays the game out with the level 1 policy. (A tree search over the same deals, UCT over every
  player's moves, measured weaker than level 1 with five players: see README.md.)

Every bot reads only its own state (``sampleEnv`` never sees the real hands or pile).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import load_policy_data, mlp_action

from .logic import (
    A_DISCARD,
    A_DRAW,
    A_GIVE,
    A_NAME,
    A_NOPE,
    A_PAIR,
    A_PASS,
    A_TAKE,
    A_TARGET,
    A_TRIPLE,
    ATTACK,
    CHOOSE_CARD,
    CHOOSE_PLAYER,
    COMBO_KINDS,
    DEFUSE,
    E_WINNER,
    FAVOR,
    FUTURE,
    HAND_KINDS,
    KINDS,
    KITTEN,
    MAIN,
    MAX_PLAYERS,
    NOPING,
    NUM_ACTIONS,
    S_CARDS,
    S_DISCARD,
    S_FUTURE,
    S_HAND,
    S_MAIN,
    S_NOPED,
    S_PILE,
    S_PLAYERS,
    S_SEAT,
    SHUFFLE,
    SKIP,
    STATE_SIZE,
    _pending,
    _phase,
    getCurrentPlayer,
    getValidActions,
    in_game,
    sampleEnv,
    stepEnv,
    write_player_state,
    write_valid_actions,
)

# how much a card is worth keeping, by kind (cats least, Defuse most)
KEEP_VALUE = np.array([6.0, 5.0, 4.5, 3.0, 2.5, 3.5, 1.0, 1.0, 1.0, 1.0, 1.0, 10.0, 0.0])
RISKY = 0.18  # kitten share of the pile above which a player without a Defuse avoids drawing
WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")


@njit(cache=True)
def kitten_risk(state):
    """The share of Exploding Kittens in the draw pile (what a draw risks, top unknown)."""
    kittens = in_game(int(state[S_PLAYERS]), KITTEN) - state[S_DISCARD + KITTEN]
    if state[S_PILE] <= 0.0:
        return 0.0
    return kittens / state[S_PILE]


@njit(cache=True)
def _top_known(state):
    """The kind of the top card when I saw it (See the Future), else -1."""
    for k in range(KINDS):
        if state[S_FUTURE + k] == 1.0:
            return k
    return -1


@njit(cache=True)
def _cheapest(state, valid, first, count, need):
    """Among actions first + kind (kind < count) valid and holding ``need`` cards, the one whose
    cards are least worth keeping."""
    best, best_value = -1, 1e9
    for kind in range(count):
        a = first + kind
        if valid[a] == 1.0 and state[S_HAND + kind] >= need and KEEP_VALUE[kind] < best_value:
            best, best_value = a, KEEP_VALUE[kind]
    return best


@njit(cache=True)
def _first_valid(valid):
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            return a
    return A_PASS


@njit(cache=True)
def careful(state, data):
    """Level 1: avoid drawing kittens, steal with cat pairs, Nope attacks aimed at me."""
    return careful_action(state, getValidActions(state)), data


@njit(cache=True)
def careful_action(state, valid) -> int:
    """``careful``'s move in ``state``, whose valid actions are ``valid``."""
    phase = _phase(state)
    pending = _pending(state)
    if phase == NOPING:
        if valid[A_NOPE] == 1.0:
            if state[S_MAIN] == 1.0:
                # my own action was Noped: Nope back when it was an escape from drawing
                if (pending == ATTACK or pending == SKIP) and state[S_HAND + DEFUSE] == 0.0:
                    return A_NOPE
            elif pending == ATTACK and state[S_MAIN + int(state[S_PLAYERS]) - 1] == 1.0 and state[S_NOPED] == 0.0:
                return A_NOPE  # the attack would fall on me (I play right after)
        return A_PASS
    if phase == CHOOSE_PLAYER:
        best, most = -1, -1.0
        for r in range(1, MAX_PLAYERS):
            a = A_TARGET + r - 1
            if valid[a] == 1.0 and state[S_CARDS + r] > most:
                best, most = a, state[S_CARDS + r]
        return best if best >= 0 else _first_valid(valid)
    if phase == CHOOSE_CARD:
        if pending == FAVOR:
            return _cheapest(state, valid, A_GIVE, HAND_KINDS, 1.0)
        if pending == A_TRIPLE:
            return A_NAME + DEFUSE
        best, best_value = -1, -1.0
        for kind in range(HAND_KINDS):
            if valid[A_TAKE + kind] == 1.0 and KEEP_VALUE[kind] > best_value:
                best, best_value = A_TAKE + kind, KEEP_VALUE[kind]
        return best
    if phase != MAIN:
        need = 2.0 if pending == A_PAIR else (3.0 if pending == A_TRIPLE else 1.0)
        return _cheapest(state, valid, A_DISCARD, COMBO_KINDS, need)
    # main phase
    top = _top_known(state)
    defused = state[S_HAND + DEFUSE] > 0.0
    danger = top == KITTEN or (top < 0 and not defused and kitten_risk(state) >= RISKY)
    if danger:
        if top < 0 and valid[FUTURE] == 1.0:
            return FUTURE
        if valid[ATTACK] == 1.0:
            return ATTACK
        if valid[SKIP] == 1.0:
            return SKIP
        if valid[SHUFFLE] == 1.0 and top == KITTEN:
            return SHUFFLE
    if not defused:
        # hunt for a Defuse: cat pairs steal a random card, favors make someone give one
        for kind in range(6, COMBO_KINDS):
            if valid[A_PAIR] == 1.0 and state[S_HAND + kind] >= 2.0:
                return A_PAIR
        if valid[FAVOR] == 1.0:
            return FAVOR
    else:
        for kind in range(6, COMBO_KINDS):
            if valid[A_TRIPLE] == 1.0 and state[S_HAND + kind] >= 3.0:
                return A_TRIPLE
            if valid[A_PAIR] == 1.0 and state[S_HAND + kind] >= 2.0:
                return A_PAIR
    return A_DRAW


# ---- level 3: determinized Monte Carlo search ---------------------------------------------------------

ROLLOUTS = 400  # played-out games per decision, shared out over the valid moves (data[0] > 0 overrides)
CONFIDENT_MARGIN = 0.05  # level 2's teacher keeps the sampler's move when it won this share of deals more


@njit(cache=True)
def sampler_wins(state, budget):
    """The deals each valid move won out of ``deals`` random deals of the hidden cards, every move
    played out on the same deals by the careful policy: ``(wins per action, deals)``."""
    valid = getValidActions(state)
    choices = 0
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            choices += 1
    me = int(state[S_SEAT])
    deals = budget // choices + 1
    wins = np.zeros(NUM_ACTIONS)
    seen = np.empty(STATE_SIZE)  # one state and one valid-action vector for every play-out step
    allowed = np.empty(NUM_ACTIONS)
    for _ in range(deals):
        deal = sampleEnv(state)
        env = np.empty_like(deal)
        for a in range(NUM_ACTIONS):
            if valid[a] != 1.0:
                continue
            env[:] = deal
            stepEnv(a, env)
            while env[E_WINNER] < 0.0:
                write_player_state(env, getCurrentPlayer(env), seen)
                stepEnv(careful_action(seen, write_valid_actions(seen, allowed)), env)
            if int(env[E_WINNER]) == me:
                wins[a] += 1.0
    return wins, deals


@njit(cache=True)
def sampled_choice(state, data, margin):
    """The move that won most on the sampler's deals when it won at least ``margin`` (a share of the
    deals) more than careful's choice, else careful's; a forced move is played without search."""
    valid = getValidActions(state)
    choices = 0
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            choices += 1
    if choices == 1:
        return _first_valid(valid), data
    budget = int(data[0]) if data.shape[0] > 0 and data[0] > 0.0 else ROLLOUTS
    default, data = careful(state, data)
    wins, deals = sampler_wins(state, budget)
    best = default
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0 and wins[a] > wins[best]:
            best = a
    if wins[best] - wins[default] < margin * deals:
        return default, data
    return best, data


@njit(cache=True)
def sampler(state, data):
    """Level 3: try every move on random deals of the hidden cards, played out by the careful policy.

    The hidden cards are dealt at random (``sampleEnv``) a number of times; in each deal every valid
    move is played out with the careful policy and the move that won most often is taken
    (careful's own choice on a tie). Every move is tried on the same deals, so the comparison is
    not drowned in the luck of the deal."""
    return sampled_choice(state, data, 0.0)


@njit(cache=True)
def confident_sampler(state, data):
    """Level 2's teacher: the sampler's move when it won at least ``CONFIDENT_MARGIN`` of the deals
    more than careful's, else careful's (smaller gaps are mostly the luck of the deals)."""
    return sampled_choice(state, data, CONFIDENT_MARGIN)


# ---- level 2: a network trained to copy the sampler ------------------------------------------------

VIEW_SIZE = STATE_SIZE + NUM_ACTIONS + 2  # the state, careful's choice one-hot, the kitten risk twice


@njit(cache=True)
def policy_view(state):
    """The state as level 2's network sees it: the state, careful's choice one-hot (so the network
    learns where to depart from it) and the kitten risk of a draw (also zero when I hold a Defuse);
    with the identity map of the actions, as ``makeenv.learn.imitate`` takes a view."""
    seen = np.zeros(VIEW_SIZE)
    seen[:STATE_SIZE] = state
    choice, _ = careful(state, np.zeros(1))
    seen[STATE_SIZE + choice] = 1.0
    risk = kitten_risk(state)
    seen[STATE_SIZE + NUM_ACTIONS] = risk
    seen[STATE_SIZE + NUM_ACTIONS + 1] = risk if state[S_HAND + DEFUSE] == 0.0 else 0.0
    return seen, np.arange(NUM_ACTIONS)


@njit(cache=True)
def learned(state, data):
    """Level 2: a small network trained by makeenv.learn.imitate to copy the sampler's confident moves."""
    seen, _ = policy_view(state)
    choice = mlp_action(seen, data, getValidActions(state))
    return (choice if choice >= 0 else _first_valid(getValidActions(state))), data


LEVELS: dict[int, Any] = {1: careful, 3: sampler}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=load_policy_data(WEIGHTS_FILE, VIEW_SIZE, NUM_ACTIONS))
LEVELS = dict(sorted(LEVELS.items()))
