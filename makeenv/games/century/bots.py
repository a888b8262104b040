"""Built-in Century opponents. Level 0 (random) is the framework's.

Levels 1 and 3 plan their own turns on a copy of the game (``sampleEnv``: the decks reshuffled, all
else as the state shows), the other players left out, and score the position they reach with
``position_value``: points, plus spices at about the points they convert into, plus how close the
best point card on show is, plus the merchant cards held (more when they are in the hand).
The moves inside a turn (which spice to put down, repeat a trade or not, which spice to raise or
discard) are chosen greedily by the same value.

* Level 1, ``greedy``: buys the best point card it can pay for, else plays the turn whose end
  scores best (one turn ahead).
* Level 2, ``learned``: buys like greedy, else plays each candidate first move's turn out as greedy
  does (on a copy of its state with empty decks: nothing random, nothing hidden read) and scores
  the result with a linear scorer over ``NUM_FEATURES`` numbers (greedy's rating in parts, the
  point cards it could buy next, what one more play of a card in hand would reach, the kind of
  move, how far the game is), weights trained to copy level 3 by
  ``python -m makeenv.games.century.train_level2`` (``level2_weights.npz``). It allocates
  nothing: its data is the weights and a scratch it overwrites at every move.
* Level 3, ``planner``: like greedy, looking two of its own turns ahead (every pair of first and
  second turns), so it rests or takes a card when that sets up a better next turn. Its budget:
  ``data[0]`` >= 1 sets the number of its own turns it looks ahead (2 by default; 1 is greedy).

Every bot reads nothing but its own state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.choices import linear_bot_data

from .logic import (
    BUY,
    CARAVAN,
    CARD_GAIN,
    CARD_PAY,
    CARD_UPGRADES,
    DISCARD,
    E_GOLD,
    E_PENDING,
    E_PHASE,
    E_PLAYERS,
    E_POINT_ROW,
    E_RESULT,
    E_ROW,
    E_SILVER,
    E_TO_MOVE,
    ENV_SIZE,
    GOLD_POINTS,
    IN_HAND,
    MAIN,
    NUM_ACTIONS,
    NUM_MERCHANT,
    NUM_SPICES,
    P_CARDS,
    P_HAND,
    P_POINTS,
    P_SPICES,
    PLACE,
    PLAY,
    PLAYED,
    POINT_COST,
    POINT_ROW,
    POINT_VALUE,
    REPEAT,
    REST,
    S_SEAT,
    SILVER_POINTS,
    SPICE,
    STOP,
    TAKE,
    UPGRADE,
    can_pay,
    fill_public,
    getPlayerState,
    isValidAction,
    player_base,
    sampleEnv,
    state_phase,
    stepEnv,
    target_cards,
)

DEPTH = 2  # the planner's own turns looked ahead (data[0] >= 1 overrides it)

SPICE_WORTH = np.array([1.0, 2.0, 3.0, 4.0])  # about the points a spice turns into
HELD_SPICE = 0.6  # a spice in the caravan counts this share of its worth
TARGET_SHARE = 0.5  # share of the best point card's margin (points minus 2 per missing worth)
MISSING_COST = 2.0
CARD_SHARE = 0.25  # a held merchant card counts this share of its net worth per use
READY_SHARE = 0.15  # and this much more while it is in the hand


@njit(cache=True)
def card_worth(card) -> float:
    """Net spice worth of one use of a merchant card (an upgrade step counts 1)."""
    worth = CARD_UPGRADES[card]
    for s in range(NUM_SPICES):
        worth += SPICE_WORTH[s] * (CARD_GAIN[card, s] - CARD_PAY[card, s])
    return worth


@njit(cache=True)
def coin_on(env, place) -> float:
    """Points of the coin that buying the point card at ``place`` brings."""
    if place == 0:
        return GOLD_POINTS if env[E_GOLD] > 0 else (SILVER_POINTS if env[E_SILVER] > 0 else 0.0)
    if place == 1 and env[E_GOLD] > 0 and env[E_SILVER] > 0:
        return SILVER_POINTS
    return 0.0


@njit(cache=True)
def position_value(env, me) -> float:
    """How good ``me``'s position is, in points (see the module docstring)."""
    base = player_base(me)
    value = env[base + P_POINTS]
    for s in range(NUM_SPICES):
        value += HELD_SPICE * SPICE_WORTH[s] * env[base + P_SPICES + s]
    best = 0.0
    for k in range(POINT_ROW):
        card = int(env[E_POINT_ROW + k])
        if card < 0:
            continue
        missing = 0.0
        for s in range(NUM_SPICES):
            missing += SPICE_WORTH[s] * max(POINT_COST[card, s] - env[base + P_SPICES + s], 0.0)
        best = max(best, POINT_VALUE[card] + coin_on(env, k) - MISSING_COST * missing)
    value += TARGET_SHARE * best
    for c in range(NUM_MERCHANT):
        held = env[base + P_HAND + c]
        if held > 0:
            worth = max(card_worth(c), 0.0)
            value += CARD_SHARE * worth
            if held == IN_HAND:
                value += READY_SHARE * worth
    return value


@njit(cache=True)
def env_valid(env, me, a) -> bool:
    """Whether ``a`` is valid for ``me`` inside a turn (not the main phase) of ``env``."""
    base = player_base(me)
    phase = int(env[E_PHASE])
    if phase == PLACE or phase == DISCARD:
        return SPICE <= a < STOP and env[base + P_SPICES + a - SPICE] > 0.5
    if phase == REPEAT:
        return a == STOP or a == PLAY + int(env[E_PENDING])
    return UPGRADE <= a < NUM_ACTIONS and env[base + P_SPICES + a - UPGRADE] > 0.5


@njit(cache=True)
def inner_move_into(env, me, scratch) -> int:
    """The greedy move inside a turn (putting down, repeating, raising, discarding) of ``me``, to
    move in ``env``: the valid one whose result ``position_value`` rates best, each tried in
    ``scratch`` (allocates nothing)."""
    if int(env[E_PHASE]) == PLACE:
        base = player_base(me)
        for s in range(NUM_SPICES):
            if env[base + P_SPICES + s] > 0.5:
                return SPICE + s
    best, best_value = REST, -1e18
    for a in range(PLAY, NUM_ACTIONS):
        if env_valid(env, me, a):
            scratch[:] = env
            stepEnv(a, scratch)
            value = position_value(scratch, me)
            if value > best_value:
                best, best_value = a, value
    return best


@njit(cache=True)
def finish_turn_into(env, me, scratch):
    """Play the rest of ``me``'s turn with ``inner_move_into``."""
    while env[E_RESULT] < 0 and int(env[E_TO_MOVE]) == me and env[E_PHASE] != MAIN:
        stepEnv(inner_move_into(env, me, scratch), env)


@njit(cache=True)
def inner_move(env, me) -> int:
    """``inner_move_into`` with a scratch of its own."""
    return inner_move_into(env, me, np.empty(ENV_SIZE))


@njit(cache=True)
def finish_turn(env, me):
    """``finish_turn_into`` with a scratch of its own."""
    finish_turn_into(env, me, np.empty(ENV_SIZE))


@njit(cache=True)
def best_buy(env, me) -> int:
    """The point card worth most (with its coin) that ``me`` can pay for, as an action; -1 if none."""
    state = getPlayerState(env, me)
    best, best_points = -1, -1.0
    for k in range(POINT_ROW):
        if isValidAction(state, BUY + k):
            points = POINT_VALUE[int(env[E_POINT_ROW + k])] + coin_on(env, k)
            if points > best_points:
                best, best_points = BUY + k, points
    return best


@njit(cache=True)
def plan_value(env, me, depth) -> float:
    """The best ``position_value`` ``me`` reaches in ``depth`` of its own turns from the start of
    one (the other players skipped)."""
    if depth == 0 or env[E_RESULT] >= 0:
        return position_value(env, me)
    state = getPlayerState(env, me)
    best = -1e18
    for a in range(NUM_ACTIONS):
        if not isValidAction(state, a):
            continue
        child = stepEnv(a, env.copy())
        finish_turn(child, me)
        child[E_TO_MOVE] = me
        child[E_PHASE] = MAIN
        best = max(best, plan_value(child, me, depth - 1))
    return best


@njit(cache=True)
def plan_action(state, depth) -> int:
    """The bots' choice for ``state``'s player, planning ``depth`` of its own turns."""
    phase = state_phase(state)
    if phase == 0:
        return REST
    me = int(state[S_SEAT])
    env = sampleEnv(state)
    if phase != MAIN:
        return inner_move(env, me)
    buy = best_buy(env, me)
    if buy >= 0:
        return buy
    best, best_value = REST, -1e18
    for a in range(NUM_ACTIONS):
        if not isValidAction(state, a):
            continue
        child = stepEnv(a, env.copy())
        finish_turn(child, me)
        child[E_TO_MOVE] = me
        child[E_PHASE] = MAIN
        value = plan_value(child, me, depth - 1)
        if value > best_value:
            best, best_value = a, value
    return best


@njit(cache=True)
def greedy(state, data):
    """Greedy merchant: buys the best point card it can pay for, else plays the turn that leaves it best placed (points, spices, the nearest point card, its cards)."""
    return plan_action(state, 1), data


@njit(cache=True)
def planner(state, data):
    """Planner: like the greedy merchant, but looks two of its own turns ahead (every first turn with every second).

    ``data[0] >= 1`` sets another number of its own turns to look ahead.
    """
    depth = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else DEPTH
    return plan_action(state, depth), data


@njit(cache=True)
def planner_values(state, depth):
    """The planner's value of each first move of a main-phase decision without a point card to
    buy (NaN for the others; all NaN when it does not search: another phase, or a buy)."""
    values = np.full(NUM_ACTIONS, np.nan)
    if state_phase(state) != MAIN:
        return values
    me = int(state[S_SEAT])
    env = sampleEnv(state)
    if best_buy(env, me) >= 0:
        return values
    for a in range(NUM_ACTIONS):
        if not isValidAction(state, a):
            continue
        child = stepEnv(a, env.copy())
        finish_turn(child, me)
        child[E_TO_MOVE] = me
        child[E_PHASE] = MAIN
        values[a] = plan_value(child, me, depth - 1)
    return values


# ---- level 2: a linear scorer over greedy's turns, trained to copy level 3 ---------------------

WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")
NUM_FEATURES = 24  # one weight each (see ``turn_features``)
# the learned bot's data: NUM_FEATURES weights, then a scratch it overwrites at every move
D_ENV = NUM_FEATURES  # my state as an env (decks empty)
D_CHILD = D_ENV + ENV_SIZE  # a first move's turn played out
D_INNER = D_CHILD + ENV_SIZE  # a move inside that turn, tried
D_FEATURES = D_INNER + ENV_SIZE  # the features of the move being scored
LEARNED_DATA_SIZE = D_FEATURES + NUM_FEATURES


@njit(cache=True)
def reach(env, y, r, g, b):
    """(the best point-card margin as ``position_value`` counts it, the most points and coin of a
    point card payable) with the spices ``y, r, g, b``."""
    best, buy = 0.0, 0.0
    for k in range(POINT_ROW):
        card = int(env[E_POINT_ROW + k])
        if card < 0:
            continue
        short = (
            max(POINT_COST[card, 0] - y, 0.0),
            max(POINT_COST[card, 1] - r, 0.0),
            max(POINT_COST[card, 2] - g, 0.0),
            max(POINT_COST[card, 3] - b, 0.0),
        )
        missing = SPICE_WORTH[0] * short[0] + SPICE_WORTH[1] * short[1]
        missing += SPICE_WORTH[2] * short[2] + SPICE_WORTH[3] * short[3]
        worth = POINT_VALUE[card] + coin_on(env, k)
        best = max(best, worth - MISSING_COST * missing)
        if missing == 0.0:
            buy = max(buy, worth)
    return best, buy


@njit(cache=True)
def turn_features(env, me, a, progress, out):
    """The features of the first move ``a``, ``env`` being the position at the end of the turn."""
    out[:] = 0.0
    base = player_base(me)
    y, r, g, b = env[base + P_SPICES], env[base + P_SPICES + 1], env[base + P_SPICES + 2], env[base + P_SPICES + 3]
    held = SPICE_WORTH[0] * y + SPICE_WORTH[1] * r + SPICE_WORTH[2] * g + SPICE_WORTH[3] * b
    total = y + r + g + b
    best, buy = reach(env, y, r, g, b)
    cards, ready, in_hand, played = 0.0, 0.0, 0.0, 0.0
    gain, gain_buy, raise_gain = 0.0, buy, 0.0
    for c in range(NUM_MERCHANT):
        state = env[base + P_HAND + c]
        if state == 0.0:
            continue
        worth = max(card_worth(c), 0.0)
        cards += worth
        if state == PLAYED:
            played += 1.0
            continue
        ready += worth
        in_hand += 1.0
        if CARD_UPGRADES[c] > 0:
            # raising next turn: each step the raise that brings the best point card closest
            sy, sr, sg, sb = y, r, g, b
            for _ in range(int(CARD_UPGRADES[c])):
                top, pick = -1e18, -1
                for s in range(3):
                    if (sy, sr, sg)[s] < 0.5:
                        continue
                    ty, tr, tg, tb = sy, sr, sg, sb
                    if s == 0:
                        ty, tr = ty - 1.0, tr + 1.0
                    elif s == 1:
                        tr, tg = tr - 1.0, tg + 1.0
                    else:
                        tg, tb = tg - 1.0, tb + 1.0
                    nb, nbuy = reach(env, ty, tr, tg, tb)
                    if nb > top:
                        top, pick = nb, s
                if pick < 0:
                    break
                if pick == 0:
                    sy, sr = sy - 1.0, sr + 1.0
                elif pick == 1:
                    sr, sg = sr - 1.0, sg + 1.0
                else:
                    sg, sb = sg - 1.0, sb + 1.0
            nb, nbuy = reach(env, sy, sr, sg, sb)
            raise_gain = max(raise_gain, nb - best)
            gain_buy = max(gain_buy, nbuy)
            continue
        # what playing it next turn (repeated up to 4 times) would reach
        sy, sr, sg, sb = y, r, g, b
        for _ in range(4):
            if sy < CARD_PAY[c, 0] or sr < CARD_PAY[c, 1] or sg < CARD_PAY[c, 2] or sb < CARD_PAY[c, 3]:
                break
            sy += CARD_GAIN[c, 0] - CARD_PAY[c, 0]
            sr += CARD_GAIN[c, 1] - CARD_PAY[c, 1]
            sg += CARD_GAIN[c, 2] - CARD_PAY[c, 2]
            sb += CARD_GAIN[c, 3] - CARD_PAY[c, 3]
            if sy + sr + sg + sb > CARAVAN:
                break
            nb, nbuy = reach(env, sy, sr, sg, sb)
            gain = max(gain, nb - best)
            gain_buy = max(gain_buy, nbuy)
            if CARD_PAY[c, 0] + CARD_PAY[c, 1] + CARD_PAY[c, 2] + CARD_PAY[c, 3] == 0.0:
                break
    affordable = 0.0
    for k in range(POINT_ROW):
        card = int(env[E_POINT_ROW + k])
        if card >= 0 and can_pay(env, base + P_SPICES, POINT_COST, card):
            affordable += 1.0
    out[0] = held / 10.0
    out[1] = best / 10.0
    out[2] = cards / 10.0
    out[3] = ready / 10.0
    out[4] = (r + g + b) / 10.0
    out[5] = total / 10.0
    out[6] = buy / 10.0
    out[7] = gain / 10.0
    out[8] = gain_buy / 10.0
    out[9] = 1.0 if a == REST else 0.0
    take = 1.0 if TAKE <= a < BUY else 0.0
    out[10] = take
    out[11] = take * (a - TAKE) / 5.0
    out[12] = in_hand / 10.0
    out[13] = played / 10.0
    out[14] = progress * out[0]
    out[15] = progress * out[2]
    out[16] = progress * take
    out[17] = 1.0 if PLAY <= a < SPICE and CARD_UPGRADES[a - PLAY] > 0 else 0.0
    out[18] = affordable / 5.0
    out[19] = max(total - 7.0, 0.0) / 3.0
    out[20] = (safe_margin(env, me, y, r, g, b) - best) / 10.0
    out[21] = progress * out[8]
    out[22] = raise_gain / 10.0
    out[23] = progress * out[1]


@njit(cache=True)
def safe_margin(env, me, y, r, g, b) -> float:
    """``reach``'s best margin over the point cards no other player can pay for now (0 if none)."""
    n = int(env[E_PLAYERS])
    best = 0.0
    for k in range(POINT_ROW):
        card = int(env[E_POINT_ROW + k])
        if card < 0:
            continue
        taken = False
        for p in range(n):
            if p != me and can_pay(env, player_base(p) + P_SPICES, POINT_COST, card):
                taken = True
                break
        if taken:
            continue
        missing = 0.0
        for s, have in enumerate((y, r, g, b)):
            missing += SPICE_WORTH[s] * max(POINT_COST[card, s] - have, 0.0)
        best = max(best, POINT_VALUE[card] + coin_on(env, k) - MISSING_COST * missing)
    return best


@njit(cache=True)
def game_progress(env) -> float:
    """The most point cards of any player, as a share of those that end the game."""
    n = int(env[E_PLAYERS])
    most = 0.0
    for p in range(n):
        most = max(most, env[player_base(p) + P_CARDS])
    return most / target_cards(n)


@njit(cache=True)
def _score(data, out) -> float:
    total = 0.0
    for i in range(NUM_FEATURES):
        total += data[i] * out[i]
    return total


@njit(cache=True)
def learned_buy(env, me) -> int:
    """``best_buy`` on ``env`` without building a state (allocates nothing); -1 if none."""
    base = player_base(me)
    best, best_points = -1, -1.0
    for k in range(POINT_ROW):
        card = int(env[E_POINT_ROW + k])
        if card >= 0 and can_pay(env, base + P_SPICES, POINT_COST, card):
            points = POINT_VALUE[card] + coin_on(env, k)
            if points > best_points:
                best, best_points = BUY + k, points
    return best


@njit(cache=True)
def main_valid(env, me, a) -> bool:
    """Whether the first move ``a`` (rest, take or play; not buy) is valid for ``me`` in ``env``."""
    base = player_base(me)
    if a == REST:
        return True
    if a < BUY:
        return env[E_ROW + a - TAKE] >= 0.0 and a - TAKE <= caravan_size(env, base)
    if PLAY <= a < SPICE:
        card = a - PLAY
        if env[base + P_HAND + card] != IN_HAND:
            return False
        if CARD_UPGRADES[card] > 0:
            return env[base + P_SPICES] + env[base + P_SPICES + 1] + env[base + P_SPICES + 2] > 0.0
        return can_pay(env, base + P_SPICES, CARD_PAY, card)
    return False


@njit(cache=True)
def caravan_size(env, base) -> float:
    return env[base + P_SPICES] + env[base + P_SPICES + 1] + env[base + P_SPICES + 2] + env[base + P_SPICES + 3]


@njit(cache=True)
def learned_action(state, data) -> int:
    """The level-2 choice for ``state``'s player (see the module docstring)."""
    phase = state_phase(state)
    if phase == 0:
        return REST
    me = int(state[S_SEAT])
    env = data[D_ENV : D_ENV + ENV_SIZE]
    child = data[D_CHILD : D_CHILD + ENV_SIZE]
    inner = data[D_INNER : D_INNER + ENV_SIZE]
    out = data[D_FEATURES : D_FEATURES + NUM_FEATURES]
    fill_public(state, env)
    if phase != MAIN:
        return inner_move_into(env, me, inner)
    buy = learned_buy(env, me)
    if buy >= 0:
        return buy
    progress = game_progress(env)
    best, best_score = REST, -1e18
    for a in range(SPICE):
        if BUY <= a < PLAY or not main_valid(env, me, a):
            continue
        child[:] = env
        stepEnv(a, child)
        finish_turn_into(child, me, inner)
        turn_features(child, me, a, progress, out)
        score = _score(data, out)
        if score > best_score:
            best, best_score = a, score
    return best


@njit(cache=True)
def learned(state, data):
    """Learned: plays each first move's turn out as greedy does and scores the result with weights trained to copy the planner."""
    return learned_action(state, data), data


@njit(cache=True)
def decision_rows(state, data):
    """Training rows of a decision: (its candidate first moves, their features); none when the
    learned bot does not score (another phase, a point card to buy, one candidate)."""
    actions = np.zeros(0, dtype=np.int64)
    rows = np.zeros((0, NUM_FEATURES))
    if state_phase(state) != MAIN:
        return actions, rows
    me = int(state[S_SEAT])
    env = data[D_ENV : D_ENV + ENV_SIZE]
    child = data[D_CHILD : D_CHILD + ENV_SIZE]
    inner = data[D_INNER : D_INNER + ENV_SIZE]
    fill_public(state, env)
    if learned_buy(env, me) >= 0:
        return actions, rows
    progress = game_progress(env)
    found = np.zeros(NUM_ACTIONS, dtype=np.int64)
    table = np.zeros((NUM_ACTIONS, NUM_FEATURES))
    n = 0
    for a in range(SPICE):
        if BUY <= a < PLAY or not main_valid(env, me, a):
            continue
        child[:] = env
        stepEnv(a, child)
        finish_turn_into(child, me, inner)
        turn_features(child, me, a, progress, table[n])
        found[n] = a
        n += 1
    if n < 2:
        return actions, rows
    return found[:n].copy(), table[:n].copy()


def learned_data(weights: np.ndarray | None = None) -> np.ndarray:
    """The level-2 bot's data: its weights (default: ``level2_weights.npz``'s) and the scratch."""
    return linear_bot_data(weights, WEIGHTS_FILE, NUM_FEATURES, LEARNED_DATA_SIZE, "makeenv.games.century.train_level2")


def greedy_weights() -> np.ndarray:
    """Weights with which the learned bot rates turns as greedy does (``position_value`` in parts;
    the points, the same for every candidate, left out)."""
    w = np.zeros(NUM_FEATURES)
    w[0] = 10.0 * HELD_SPICE
    w[1] = 10.0 * TARGET_SHARE
    w[2] = 10.0 * CARD_SHARE
    w[3] = 10.0 * READY_SHARE
    return w


LEVELS: dict[int, Any] = {1: greedy, 3: planner}
if WEIGHTS_FILE.exists():  # absent only while train_level2 builds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
