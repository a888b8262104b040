"""Built-in MachiKoro opponents. Level 0 (random) is the framework's.

* Level 1, ``builder``: values every card by the coins it is expected to bring in a round (the
  dice odds of every player's roll, its multipliers and the mall), buys the cheapest landmark it
  can afford, else at most one establishment a turn (the best value for its cost) while it is far
  from that landmark; rolls the number of dice that pays it more, rerolls (radio tower) a roll
  worth less than the average, takes the TV Station's coins from the richest player and trades
  its least valuable establishment for the most valuable one it can take.
* Level 2, ``planner``: Monte Carlo over its buying decisions. For every card it may buy (and
  for stopping) it plays 12 futures of three rounds from the exact position (``sampleEnv``; only
  the dice are unknown) with every player playing like level 1, and scores each by who won or
  by its lead in landmarks, coins and expected income over the best opponent. Its other
  decisions are level 1's. Both bots read nothing but their own state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .logic import (
    AMUSEMENT_PARK,
    B_COINS,
    BLUE,
    BUY,
    BUY_CARD,
    CARD_COLOUR,
    CARD_COST,
    E_BOUGHT,
    E_DIE1,
    E_DIE2,
    E_PARTNER,
    E_PHASE,
    E_PLAYERS,
    E_RESULT,
    E_SUPPLY,
    E_TO_MOVE,
    END_TURN,
    GIVE,
    GREEN,
    KEEP_ROLL,
    NO_TRADE,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_NORMAL,
    PURPLE,
    RADIO_TOWER,
    RED,
    REROLL,
    ROLL,
    ROLL_HIGH,
    ROLL_LOW,
    ROLL_ONE,
    ROLL_TWO,
    STADIUM,
    STADIUM_TAKE,
    TAKE,
    TAKE_COINS,
    TRADE_GIVE,
    TRADE_PARTNER,
    TRADE_TAKE,
    TRADE_WITH,
    TRAIN_STATION,
    TV_STATION,
    TV_TAKE,
    TV_TARGET,
    card_count,
    card_income,
    isValidAction,
    resolve_roll,
    sampleEnv,
    seat_base,
    stepEnv,
)

SAVE_ROUNDS = 1.0  # level 1 saves for its next landmark when this many rounds of income would reach it
ROLLOUTS = 12  # futures per candidate purchase of the level-2 bot (data[0] >= 1 overrides it)
HORIZON = 3  # rounds each future is played
INCOME_WEIGHT = 4.0  # a coin of expected income per round is worth this many coins in hand
SCALE = 8.0  # a lead of this many coins is worth about 0.73 of a win


@njit(cache=True)
def total_odds(total, dice) -> float:
    """Chance that ``dice`` dice (1 or 2) sum to ``total``."""
    if dice == 1:
        return 1.0 / 6.0 if 1 <= total <= 6 else 0.0
    if 2 <= total <= 12:
        return (6.0 - abs(total - 7)) / 36.0
    return 0.0


@njit(cache=True)
def odds(card, dice) -> float:
    """Chance that a roll of ``dice`` dice activates ``card``."""
    chance = 0.0
    for total in range(ROLL_LOW[card], ROLL_HIGH[card] + 1):
        chance += total_odds(total, dice)
    return chance


@njit(cache=True)
def dice_of(env, seat) -> int:
    return 2 if card_count(env, seat, TRAIN_STATION) > 0.5 else 1


@njit(cache=True)
def card_value(env, seat, card) -> float:
    """Coins one ``card`` is expected to bring ``seat`` in a round of turns (1 at least for a
    card that multiplies others, so a first factory is not worthless)."""
    n = int(env[E_PLAYERS])
    colour = CARD_COLOUR[card]
    if colour == PURPLE:
        chance = odds(STADIUM, dice_of(env, seat))
        if card == STADIUM:
            return chance * STADIUM_TAKE * (n - 1)
        if card == TV_STATION:
            return chance * TV_TAKE
        return chance * 2.0
    income = max(card_income(env, seat, card), 1.0)
    value = 0.0
    for roller in range(n):
        chance = odds(card, dice_of(env, roller))
        if colour == BLUE or (colour == GREEN and roller == seat) or (colour == RED and roller != seat):
            value += chance * income
    return value


@njit(cache=True)
def income_per_round(env, seat) -> float:
    total = 0.0
    for card in range(RADIO_TOWER):
        count = card_count(env, seat, card)
        if count > 0.5:
            total += count * card_value(env, seat, card)
    return total


@njit(cache=True)
def next_landmark(env, seat) -> int:
    """The cheapest landmark ``seat`` does not own."""
    best = -1
    for card in range(RADIO_TOWER, NUM_CARDS):
        if card_count(env, seat, card) < 0.5 and (best < 0 or CARD_COST[card] < CARD_COST[best]):
            best = card
    return best


@njit(cache=True)
def roll_gain(env, seat, total) -> float:
    """Coins ``seat`` (the roller) ends with, minus what it holds, if the dice sum to ``total``."""
    trial = env.copy()
    before = trial[seat_base(seat) + B_COINS]
    resolve_roll(trial, total)
    return trial[seat_base(seat) + B_COINS] - before


@njit(cache=True)
def mean_gain(env, seat, dice) -> float:
    gain = 0.0
    for total in range(1, 13):
        chance = total_odds(total, dice)
        if chance > 0.0:
            gain += chance * roll_gain(env, seat, total)
    return gain


@njit(cache=True)
def richest(env, seat, need_coins) -> int:
    """The relative seat of the other player with the most coins (with coins when ``need_coins``)."""
    n = int(env[E_PLAYERS])
    best, best_coins = -1, -1.0
    for rel in range(1, n):
        coins = env[seat_base((seat + rel) % n) + B_COINS]
        if coins > best_coins and (coins > 0.5 or not need_coins):
            best, best_coins = rel, coins
    return best


@njit(cache=True)
def extreme_card(env, seat, valued_for, highest) -> int:
    """The normal card ``seat`` holds that is worth most (``highest``) or least to ``valued_for``."""
    best, best_value = -1, 0.0
    for card in range(NUM_NORMAL):
        if card_count(env, seat, card) > 0.5:
            value = card_value(env, valued_for, card) / CARD_COST[card] + CARD_COST[card] * 0.01
            if best < 0 or (value > best_value if highest else value < best_value):
                best, best_value = card, value
    return best


@njit(cache=True)
def best_trade(env, seat):
    """(partner relative seat, card to give, card to take, gain) of the best Business Centre trade."""
    n = int(env[E_PLAYERS])
    give = extreme_card(env, seat, seat, False)
    best_rel, best_take, best_gain = -1, -1, 0.0
    if give < 0:
        return best_rel, give, best_take, best_gain
    for rel in range(1, n):
        take = extreme_card(env, (seat + rel) % n, seat, True)
        if take >= 0:
            gain = card_value(env, seat, take) - card_value(env, seat, give)
            if gain > best_gain:
                best_rel, best_take, best_gain = rel, take, gain
    return best_rel, give, best_take, best_gain


@njit(cache=True)
def builder_buy(env, seat) -> int:
    """The cheapest missing landmark when affordable; else, unless a round's income would reach it,
    the establishment worth most for its cost."""
    coins = env[seat_base(seat) + B_COINS]
    target = next_landmark(env, seat)
    if target >= 0 and coins >= CARD_COST[target]:
        return BUY_CARD + target
    if target >= 0 and coins + SAVE_ROUNDS * income_per_round(env, seat) >= CARD_COST[target]:
        return END_TURN
    best, best_score = -1, 0.0
    for card in range(RADIO_TOWER):
        if card_can_be_bought(env, seat, card):
            score = card_value(env, seat, card) / CARD_COST[card]
            if score > best_score:
                best, best_score = card, score
    return BUY_CARD + best if best >= 0 else END_TURN


@njit(cache=True)
def card_can_be_bought(env, seat, card) -> bool:
    if env[seat_base(seat) + B_COINS] < CARD_COST[card]:
        return False
    if card >= NUM_NORMAL:
        return card_count(env, seat, card) < 0.5
    return env[E_SUPPLY + card] > 0.5 and env[E_BOUGHT + card] < 0.5


@njit(cache=True)
def builder_action(env) -> int:
    """Level 1's move for the player to move of ``env`` (read from that player's own state)."""
    if env[E_RESULT] >= 0.0:
        return END_TURN
    seat = int(env[E_TO_MOVE])
    n = int(env[E_PLAYERS])
    phase = int(env[E_PHASE])
    if phase == ROLL:
        if dice_of(env, seat) == 2 and mean_gain(env, seat, 2) >= mean_gain(env, seat, 1):
            return ROLL_TWO
        return ROLL_ONE
    if phase == REROLL:
        dice = 2 if dice_of(env, seat) == 2 and mean_gain(env, seat, 2) >= mean_gain(env, seat, 1) else 1
        current = roll_gain(env, seat, int(env[E_DIE1] + env[E_DIE2]))
        doubles = env[E_DIE2] > 0.5 and env[E_DIE1] == env[E_DIE2] and card_count(env, seat, AMUSEMENT_PARK) > 0.5
        if not doubles and mean_gain(env, seat, dice) > current + 0.5:
            return ROLL_TWO if dice == 2 else ROLL_ONE
        return KEEP_ROLL
    if phase == TV_TARGET:
        return TAKE_COINS + richest(env, seat, True) - 1
    if phase == TRADE_PARTNER:
        rel, _, _, gain = best_trade(env, seat)
        return TRADE_WITH + rel - 1 if rel > 0 and gain > 0.0 else NO_TRADE
    if phase == TRADE_GIVE:
        return GIVE + extreme_card(env, seat, seat, False)
    if phase == TRADE_TAKE:
        partner = int(env[E_PARTNER])
        return TAKE + extreme_card(env, partner % n, seat, True)
    return builder_buy(env, seat)


@njit(cache=True)
def first_valid(state) -> int:
    for a in range(NUM_ACTIONS):
        if isValidAction(state, a):
            return a
    return END_TURN


@njit(cache=True)
def builder(state, data):
    """Builder: buys the next landmark when it can, else the establishment worth most for its cost."""
    action = builder_action(sampleEnv(state))
    if not isValidAction(state, action):
        action = first_valid(state)
    return action, data


# ---- level 2 -----------------------------------------------------------------------------------


@njit(cache=True)
def progress(env, seat) -> float:
    worth = env[seat_base(seat) + B_COINS] + INCOME_WEIGHT * income_per_round(env, seat)
    for card in range(RADIO_TOWER, NUM_CARDS):
        worth += CARD_COST[card] * card_count(env, seat, card)
    return worth


@njit(cache=True)
def evaluate(env, me) -> float:
    """1 for a win, 0 for a loss, else my lead over the best opponent through a logistic curve."""
    result = int(env[E_RESULT])
    if result >= 0:
        return 1.0 if result == me else 0.0
    n = int(env[E_PLAYERS])
    best_other = -1e9
    for seat in range(n):
        if seat != me:
            best_other = max(best_other, progress(env, seat))
    return 1.0 / (1.0 + np.exp(-(progress(env, me) - best_other) / SCALE))


@njit(cache=True)
def future(env, me) -> float:
    """Play ``HORIZON`` rounds of level-1 moves from ``env`` (stepped in place) and score it."""
    n = int(env[E_PLAYERS])
    turns = 0
    player = int(env[E_TO_MOVE])
    steps = 0
    while env[E_RESULT] < 0.0 and turns < HORIZON * n and steps < 400:
        stepEnv(builder_action(env), env)
        steps += 1
        if int(env[E_TO_MOVE]) != player:
            player = int(env[E_TO_MOVE])
            turns += 1
    return evaluate(env, me)


@njit(cache=True)
def planner_action(state, rollouts) -> int:
    root = sampleEnv(state)
    if root[E_RESULT] >= 0.0 or int(root[E_PHASE]) != BUY:
        action = builder_action(root)
        return action if isValidAction(state, action) else first_valid(state)
    me = int(root[E_TO_MOVE])
    # every candidate faces the same dice (common random numbers); the generator moves on after
    dice_seed = int(np.random.random() * 1e9)
    resume_seed = int(np.random.random() * 1e9)
    best, best_score = END_TURN, -1.0
    for action in range(BUY_CARD, NUM_ACTIONS):
        if not isValidAction(state, action):
            continue
        score = 0.0
        for i in range(rollouts):
            np.random.seed(dice_seed + i)
            env = root.copy()
            stepEnv(action, env)
            score += future(env, me)
        if score > best_score:
            best, best_score = action, score
    np.random.seed(resume_seed)
    return best


@njit(cache=True)
def planner(state, data):
    """Planner: Monte Carlo over its purchases, 12 three-round futures each with level-1 play.

    ``data[0] >= 1`` sets another number of futures per purchase.
    """
    rollouts = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else ROLLOUTS
    return planner_action(state, rollouts), data


LEVELS = {1: builder, 2: planner}
