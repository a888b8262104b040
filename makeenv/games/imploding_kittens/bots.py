"""Built-in ImplodingKittens opponents. Level 0 (random) is the framework's.

* Level 1, ``careful``: counts the Exploding Kittens left in the pile and watches the face-up
  Imploding Kitten; when the top card is known to be deadly, or the risk is high and it has no
  Defuse, it draws from the bottom, attacks, skips, reverses, reorders the top (Alter the Future) or
  shuffles instead of drawing; hunts Defuses with cat pairs and Favors; Nopes attacks aimed at it;
  gives away its least useful card and names Defuse.
* Level 2, ``learned``: a small network (``level2_weights.npz``) trained by
  ``python -m makeenv.learn.imitate`` (the commands are in the README) to copy level 3, the
  ``sampler``. It sees the state through ``policy_view``: the state, ``keen``'s choice and the
  kitten risk of a draw; it plays the valid action it scores highest where the sampler searches,
  and keen's move where the sampler takes keen's without search (giving or naming a card,
  discarding for a combo).
* Level 3, ``sampler``: a keener policy (``keen``: careful, and it Nopes an escape from the face-up
  Imploding Kitten on top, attacks rather than skips away from a deadly top card, puts a deadly card
  it reorders where the next player draws it, plays Favors, and knows a Defuse is worthless once no
  Exploding Kitten is left) under a determinized Monte Carlo search: it deals the hidden cards (the
  others' hands and the pile order) at random with ``sampleEnv``, tries each valid move in each deal
  and plays the game out (itself ``keen``, the others ``careful``); another move replaces keen's
  choice only when it won clearly more often.

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
    A_ALTER,
    A_BOTTOM,
    A_DISCARD,
    A_DRAW,
    A_FIVE,
    A_GIVE,
    A_NAME,
    A_NOPE,
    A_ORDER,
    A_PAIR,
    A_PASS,
    A_REVERSE,
    A_TAKE,
    A_TARGET,
    A_TARGETED,
    A_TRIPLE,
    ALTERING,
    ATTACK,
    CHOOSE_CARD,
    CHOOSE_PLAYER,
    COMBO_KINDS,
    DEFUSE,
    DISCARDING,
    E_WINNER,
    EXPLODING,
    FAVOR,
    FUTURE,
    HAND_KINDS,
    IMPLODING,
    KINDS,
    MAIN,
    MAX_PLAYERS,
    NOPE,
    NOPING,
    NUM_ACTIONS,
    ORDERS,
    S_ABOVE,
    S_CARDS,
    S_DISCARD,
    S_DRAWS,
    S_FACE_UP,
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

WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")

# how much a card is worth keeping, by kind (cats least, Defuse most)
KEEP_VALUE = np.array([6.0, 5.0, 4.5, 3.0, 2.5, 3.5, 1.0, 1.0, 1.0, 1.0, 1.0, 4.0, 4.0, 1.5, 4.0, 5.0, 10.0, 0.0, 0.0])
RISKY = 0.15  # Exploding Kitten share of the pile above which a player without a Defuse avoids drawing


@njit(cache=True)
def kitten_risk(state):
    """The share of hidden Exploding Kittens among the cards a top draw may bring."""
    kittens = in_game(int(state[S_PLAYERS]), EXPLODING) - state[S_DISCARD + EXPLODING]
    cards = state[S_PILE] - state[S_FACE_UP]
    if cards <= 0.0:
        return 0.0
    return kittens / cards


@njit(cache=True)
def _seen(state, i):
    """The kind of the i-th card from the top when it is known (seen, or the face-up kitten), else -1."""
    for k in range(KINDS):
        if state[S_FUTURE + KINDS * i + k] == 1.0:
            return k
    if state[S_FACE_UP] == 1.0 and state[S_ABOVE] == i:
        return IMPLODING
    return -1


@njit(cache=True)
def _deadly(state, kind):
    """Drawing ``kind`` would knock me out."""
    return kind == IMPLODING or (kind == EXPLODING and state[S_HAND + DEFUSE] == 0.0)


@njit(cache=True)
def _cheapest(state, valid, first, count):
    """Among the valid actions first + kind (kind < count), the one whose card is least worth keeping."""
    best, best_value = -1, 1e9
    for kind in range(count):
        a = first + kind
        if valid[a] == 1.0 and KEEP_VALUE[kind] < best_value:
            best, best_value = a, KEEP_VALUE[kind]
    return best


@njit(cache=True)
def _first_valid(valid):
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            return a
    return A_PASS


@njit(cache=True)
def _best_order(state, valid):
    """Alter the Future: the order that puts the most harmless seen card on top (for me) and keeps
    the dangerous ones deepest."""
    best, best_score = A_ORDER, -1e9
    for order in range(6):
        a = A_ORDER + order
        if valid[a] != 1.0:
            continue
        score = 0.0
        for j in range(3):
            kind = _seen(state, ORDERS[order, j])
            if kind == EXPLODING or kind == IMPLODING:
                score -= 3.0 - j if _deadly(state, kind) or j == 0 else 0.5
        if score > best_score:
            best, best_score = a, score
    return best


@njit(cache=True)
def _escape(state, valid, top):
    """A way not to draw the top card, or -1."""
    bottom_seen = state[S_FACE_UP] == 1.0 and state[S_ABOVE] == state[S_PILE] - 1.0
    if valid[A_BOTTOM] == 1.0 and not bottom_seen:
        return A_BOTTOM
    for a in (A_TARGETED, ATTACK, SKIP, A_REVERSE):
        if valid[a] == 1.0:
            return a
    if valid[A_ALTER] == 1.0 and state[S_PILE] > 1.0:
        return A_ALTER
    if valid[SHUFFLE] == 1.0:
        return SHUFFLE
    return -1


@njit(cache=True)
def careful(state, data):
    """Level 1: avoid drawing kittens, steal with cat pairs, Nope attacks aimed at me."""
    return careful_action(state, getValidActions(state)), data


@njit(cache=True)
def careful_action(state, valid) -> int:
    """``careful``'s move in ``state``, whose valid actions are ``valid``."""
    phase = _phase(state)
    pending = _pending(state)
    players = int(state[S_PLAYERS])
    if phase == NOPING:
        if valid[A_NOPE] == 1.0:
            if state[S_MAIN] == 1.0:
                # my own escape was Noped: Nope back when I have no Defuse
                if pending in (ATTACK, SKIP, A_TARGETED, A_REVERSE, A_BOTTOM) and state[S_HAND + DEFUSE] == 0.0:
                    return A_NOPE
            elif (
                pending == ATTACK
                and state[S_NOPED] == 0.0
                and (state[S_MAIN + players - 1] == 1.0 or state[S_MAIN + 1] == 1.0)
            ):
                return A_NOPE  # the attack may fall on me (I sit next to the attacker)
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
            return _cheapest(state, valid, A_GIVE, HAND_KINDS)
        if pending == A_TRIPLE:
            return A_NAME + DEFUSE
        best, best_value = -1, -1.0
        for kind in range(HAND_KINDS):
            if valid[A_TAKE + kind] == 1.0 and KEEP_VALUE[kind] > best_value:
                best, best_value = A_TAKE + kind, KEEP_VALUE[kind]
        return best
    if phase == ALTERING:
        return _best_order(state, valid)
    if phase != MAIN:
        return _cheapest(state, valid, A_DISCARD, COMBO_KINDS)
    # main phase
    top = _seen(state, 0)
    defused = state[S_HAND + DEFUSE] > 0.0
    danger = _deadly(state, top) or (top < 0 and not defused and kitten_risk(state) >= RISKY)
    if danger:
        if top < 0 and valid[FUTURE] == 1.0:
            return FUTURE
        escape = _escape(state, valid, top)
        if escape >= 0:
            return escape
    if not defused:
        # hunt for a Defuse: cat pairs steal a random card, Favors make someone give one
        if valid[A_PAIR] == 1.0:
            return A_PAIR
        if valid[FAVOR] == 1.0:
            return FAVOR
    else:
        if valid[A_TRIPLE] == 1.0:
            return A_TRIPLE
        for kind in range(6, COMBO_KINDS):
            if valid[A_PAIR] == 1.0 and state[S_HAND + kind] >= 2.0 and KEEP_VALUE[kind] <= 1.5:
                return A_PAIR
    if valid[A_FIVE] == 1.0 and not defused and state[S_DISCARD + DEFUSE] > 0.0:
        return A_FIVE
    return A_DRAW


# ---- level 3: a keener policy under determinized Monte Carlo search -----------------------------


@njit(cache=True)
def _is_escape(action):
    """The action ends a turn without drawing the top card, or changes what lies on top."""
    return action in (ATTACK, SKIP, SHUFFLE, A_REVERSE, A_BOTTOM, A_ALTER, A_TARGETED)


@njit(cache=True)
def _kittens_hidden(state):
    """Exploding Kittens not yet drawn (0: a Defuse can no longer help anybody)."""
    return in_game(int(state[S_PLAYERS]), EXPLODING) - state[S_DISCARD + EXPLODING]


@njit(cache=True)
def _order_for_next(state, valid):
    """Alter the Future: keep the deadly seen cards out of the draws I owe and put one where the
    player after me draws it first."""
    owed = int(state[S_DRAWS])
    best, best_score = A_ORDER, -1e9
    for order in range(6):
        a = A_ORDER + order
        if valid[a] != 1.0:
            continue
        score = 0.0
        for j in range(3):
            kind = _seen(state, ORDERS[order, j])
            if kind == EXPLODING or kind == IMPLODING:
                if j < owed:
                    score -= 10.0 if _deadly(state, kind) else 2.0
                elif j == owed:
                    score += 3.0
        if score > best_score:
            best, best_score = a, score
    return best


@njit(cache=True)
def keen(state, data):
    """Level 3's own policy: careful, plus what careful misses about the public face-up kitten."""
    return keen_action(state, getValidActions(state)), data


@njit(cache=True)
def keen_action(state, valid) -> int:
    """``keen``'s move in ``state``, whose valid actions are ``valid``."""
    phase = _phase(state)
    pending = _pending(state)
    if phase == NOPING and valid[A_NOPE] == 1.0 and state[S_FACE_UP] == 1.0 and state[S_ABOVE] == 0.0:
        # an escape from the Imploding Kitten on top: Nope it (or Nope back when it is my escape)
        bottom_too = pending == A_BOTTOM and state[S_PILE] == 1.0
        mine = state[S_MAIN] == 1.0
        standing = state[S_NOPED] == 0.0
        if _is_escape(pending) and not bottom_too and mine != standing:
            return A_NOPE
    if phase == CHOOSE_CARD and _kittens_hidden(state) == 0.0:
        if pending == FAVOR and valid[A_GIVE + DEFUSE] == 1.0:
            return A_GIVE + DEFUSE
        if pending == A_TRIPLE:
            return A_NAME + NOPE
    if phase == ALTERING:
        return _order_for_next(state, valid)
    if phase == MAIN:
        top_deadly = _deadly(state, _seen(state, 0))
        if top_deadly and state[S_DRAWS] == 1.0:
            for a in (A_TARGETED, ATTACK):  # the next player then owes two turns on it
                if valid[a] == 1.0:
                    return a
        if not top_deadly:
            for i in range(1, min(int(state[S_DRAWS]), 3)):
                if _deadly(state, _seen(state, i)):  # drawing all I owe would reach it: end one turn
                    for a in (SKIP, A_REVERSE, A_BOTTOM, A_TARGETED, ATTACK):
                        if valid[a] == 1.0:
                            return a
            if valid[FAVOR] == 1.0:
                return FAVOR
    return careful_action(state, valid)


ROLLOUTS = 120  # played-out games per decision, shared out over the valid moves (data[0] > 0 overrides)
MARGIN = 0.15  # a move replaces keen's choice only when it won this share of the deals more often


@njit(cache=True)
def sampler(state, data):
    """Level 3: keen's move, unless another won clearly more often over random deals of the hidden cards.

    Every move is tried on the same deals (``sampleEnv``), so the comparison is not drowned in the
    luck of the deal; the play-outs play keen for me and careful for the others. Only the choices
    of the turn (main phase, Nopes, whom to pick, how to reorder the top) are searched."""
    valid = getValidActions(state)
    default, data = keen(state, data)
    choices = 0
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            choices += 1
    phase = _phase(state)
    if choices == 1 or phase == CHOOSE_CARD or phase == DISCARDING:
        return default, data
    me = int(state[S_SEAT])
    budget = int(data[0]) if data.shape[0] > 0 and data[0] > 0.0 else ROLLOUTS
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
                player = getCurrentPlayer(env)
                write_valid_actions(write_player_state(env, player, seen), allowed)
                b = keen_action(seen, allowed) if player == me else careful_action(seen, allowed)
                stepEnv(b, env)
            if int(env[E_WINNER]) == me:
                wins[a] += 1.0
    best = default
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0 and wins[a] > wins[default] + MARGIN * deals and wins[a] > wins[best]:
            best = a
    return best, data


# ---- level 2: a network trained to copy the sampler ------------------------------------------------

VIEW_SIZE = STATE_SIZE + NUM_ACTIONS + 3  # the state, keen's choice one-hot, the kitten risk twice, a kitten hidden


@njit(cache=True)
def _fill_view(state, seen, data):
    """Write the view of ``state`` into ``seen`` (see ``policy_view``)."""
    seen[:] = 0.0
    seen[:STATE_SIZE] = state
    choice, data = keen(state, data)
    seen[STATE_SIZE + choice] = 1.0
    risk = kitten_risk(state)
    seen[STATE_SIZE + NUM_ACTIONS] = risk
    seen[STATE_SIZE + NUM_ACTIONS + 1] = risk if state[S_HAND + DEFUSE] == 0.0 else 0.0
    seen[STATE_SIZE + NUM_ACTIONS + 2] = 1.0 if _kittens_hidden(state) > 0.0 else 0.0
    return data


@njit(cache=True)
def policy_view(state):
    """The state as level 2's network sees it: the state, keen's choice one-hot (so the network
    learns where the sampler departs from it), the kitten risk of a draw (also zero when I hold a
    Defuse) and whether an Exploding Kitten is still hidden; with the identity map of the actions,
    as ``makeenv.learn.imitate`` takes a view."""
    seen = np.zeros(VIEW_SIZE)
    _fill_view(state, seen, np.zeros(1))
    return seen, np.arange(NUM_ACTIONS)


@njit(cache=True)
def learned(state, data):
    """Level 2: a small network trained by makeenv.learn.imitate to copy the sampler; keen's move
    where the sampler plays keen's without search."""
    phase = _phase(state)
    if phase == CHOOSE_CARD or phase == DISCARDING:
        return keen(state, data)
    valid = getValidActions(state)
    seen = np.empty(VIEW_SIZE)
    data = _fill_view(state, seen, data)
    choice = mlp_action(seen, data, valid)
    return (choice if choice >= 0 else _first_valid(valid)), data


LEVELS: dict[int, Any] = {1: careful, 3: sampler}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=load_policy_data(WEIGHTS_FILE, VIEW_SIZE, NUM_ACTIONS))
LEVELS = dict(sorted(LEVELS.items()))
