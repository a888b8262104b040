"""Built-in MachiKoro opponents. Level 0 (random) is the framework's.

* Level 1, ``builder``: values every card by the coins it is expected to bring in a round (the
  dice odds of every player's roll, its multipliers and the mall), buys the cheapest landmark it
  can afford, else at most one establishment a turn (the best value for its cost) while it is far
  from that landmark; rolls the number of dice that pays it more, rerolls (radio tower) a roll
  worth less than the average, takes the TV Station's coins from the richest player and trades
  its least valuable establishment for the most valuable one it can take.
* Level 2, ``learned``: level 1's moves, but its purchases chosen by a small network
  (``level2_weights.npz``) trained by ``python -m makeenv.learn.imitate`` (the commands are in the
  README) to copy ``planner_shares``: the planner's purchase when its futures scored clearly better
  than level 1's, else level 1's. It sees ``fill_view``: coins, income, landmarks, the best
  opponent's coins and landmarks, the threat of the others' red cards, every card's value to it,
  its establishments and level 1's purchase.
* Level 3, ``planner``: Monte Carlo over its buying decisions. For every card it may buy (and
  for stopping) it plays 12 futures of three rounds from the exact position (``sampleEnv``; only
  the dice are unknown) with every player playing like level 1, and scores each by who won or
  by its lead in landmarks, coins and expected income over the best opponent. Its other
  decisions are level 1's; ``data[0] >= 1`` sets its futures per purchase (a per-move budget).

Every bot reads nothing but its own state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import load_policy_data, mlp_action

from .logic import (
    AMUSEMENT_PARK,
    B_COINS,
    BLUE,
    BUY,
    BUY_CARD,
    CAFE,
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
    RESTAURANT,
    ROLL,
    ROLL_HIGH,
    ROLL_LOW,
    ROLL_ONE,
    ROLL_TWO,
    RUNNING,
    S_PHASE,
    S_PLAYERS,
    S_PURCHASES,
    S_RESULT,
    S_RULES,
    S_TO_MOVE,
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
    getValidActions,
    isValidAction,
    resolve_roll,
    sampleEnv,
    seat_base,
    stepEnv,
)

SAVE_ROUNDS = 1.0  # level 1 saves for its next landmark when this many rounds of income would reach it
ROLLOUTS = 12  # futures per candidate purchase of the level-3 bot (data[0] >= 1 overrides it)
HORIZON = 3  # rounds each future is played
INCOME_WEIGHT = 4.0  # a coin of expected income per round is worth this many coins in hand
SCALE = 8.0  # a lead of this many coins is worth about 0.73 of a win
WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")


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


# ---- level 3 -----------------------------------------------------------------------------------


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
def planner_scores(root, state, rollouts):
    """The summed scores of ``rollouts`` futures for every buying action valid in ``state`` (-1 for
    the others); ``root`` is ``sampleEnv(state)`` in the buying phase."""
    me = int(root[E_TO_MOVE])
    scores = np.full(NUM_ACTIONS, -1.0)
    # every candidate faces the same dice (common random numbers); the generator moves on after
    dice_seed = int(np.random.random() * 1e9)
    resume_seed = int(np.random.random() * 1e9)
    for action in range(BUY_CARD, NUM_ACTIONS):
        if not isValidAction(state, action):
            continue
        score = 0.0
        for i in range(rollouts):
            np.random.seed(dice_seed + i)
            env = root.copy()
            stepEnv(action, env)
            score += future(env, me)
        scores[action] = score
    np.random.seed(resume_seed)
    return scores


@njit(cache=True)
def planner_action(state, rollouts) -> int:
    root = sampleEnv(state)
    if root[E_RESULT] >= 0.0 or int(root[E_PHASE]) != BUY:
        action = builder_action(root)
        return action if isValidAction(state, action) else first_valid(state)
    scores = planner_scores(root, state, rollouts)
    best, best_score = END_TURN, -1.0
    for action in range(BUY_CARD, NUM_ACTIONS):
        if scores[action] > best_score:
            best, best_score = action, scores[action]
    return best


@njit(cache=True)
def planner(state, data):
    """Planner (level 3): Monte Carlo over its purchases, 12 three-round futures each with level-1
    play.

    ``data[0] >= 1`` sets another number of futures per purchase (its per-move budget).
    """
    rollouts = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else ROLLOUTS
    return planner_action(state, rollouts), data


@njit(cache=True)
def planner_shares(state):
    """Level 2's teacher: the planner's purchase when its futures' mean score beats level 1's
    purchase by more than ``CONFIDENT_MARGIN`` (smaller gaps are mostly the luck of 12 futures),
    else level 1's; and how much it likes each action: a softmax of those mean scores (level 1's
    raised by the margin) at temperature ``SHARE_TEMPERATURE``. Outside the buying phase, level 1's
    move alone."""
    liked = np.zeros(NUM_ACTIONS)
    root = sampleEnv(state)
    default = builder_action(root)
    if not isValidAction(state, default):
        default = first_valid(state)
    if root[E_RESULT] >= 0.0 or int(root[E_PHASE]) != BUY:
        liked[default] = 1.0
        return default, liked
    means = planner_scores(root, state, ROLLOUTS) / ROLLOUTS
    means[default] += CONFIDENT_MARGIN
    best, best_mean = END_TURN, -1.0
    for action in range(BUY_CARD, NUM_ACTIONS):
        if means[action] > best_mean:
            best, best_mean = action, means[action]
    for action in range(BUY_CARD, NUM_ACTIONS):
        if means[action] >= 0.0:
            liked[action] = np.exp((means[action] - best_mean) / SHARE_TEMPERATURE)
    return best, liked


# ---- level 2: a network trained to copy the planner's purchases --------------------------------

CONFIDENT_MARGIN = 0.03  # level 2's teacher keeps level 1's purchase unless the planner's beats it by this
SHARE_TEMPERATURE = 0.01  # a mean score this much below the best is liked e times less
N_GLOBAL = 16
VIEW_SIZE = N_GLOBAL + RADIO_TOWER + NUM_NORMAL + NUM_ACTIONS  # globals, card values, my counts, level 1's move


def _odds_table() -> np.ndarray:
    """``ODDS[card, dice]``: ``odds(card, dice)`` for 1 and 2 dice, summed in the same order."""
    table = np.zeros((NUM_CARDS, 3))
    for card in range(NUM_CARDS):
        for dice in (1, 2):
            for total in range(int(ROLL_LOW[card]), int(ROLL_HIGH[card]) + 1):
                if dice == 1:
                    table[card, dice] += 1.0 / 6.0 if 1 <= total <= 6 else 0.0
                elif 2 <= total <= 12:
                    table[card, dice] += (6.0 - abs(total - 7)) / 36.0
    return table


ODDS = _odds_table()


@njit(cache=True)
def fill_view(state, choice_known, out) -> int:
    """Write my buying position as level 2's network sees it into ``out``, reading the state alone
    (my seat block is seat 0 of its layout): the player count, the rule set, my coins, income,
    purchases, landmarks and distance to the next one, the best opponent's coins and landmarks,
    what the others' red cards take from my rolls, every card's value to me (``card_value``, from a
    table of the dice odds), my establishments and level 1's move one-hot (so the network learns
    where to depart from it). Level 1's buying move is worked out from the same values unless
    ``choice_known >= 0`` gives it; returns it."""
    n = int(state[S_PLAYERS])
    for i in range(out.shape[0]):
        out[i] = 0.0
    coins = state[seat_base(0) + B_COINS]
    my_dice = dice_of(state, 0)
    values = out[N_GLOBAL : N_GLOBAL + RADIO_TOWER]
    income = 0.0
    for card in range(RADIO_TOWER):
        colour = CARD_COLOUR[card]
        mine = ODDS[card, my_dice]
        if colour == PURPLE:
            chance = ODDS[STADIUM, my_dice]
            value = chance * (STADIUM_TAKE * (n - 1) if card == STADIUM else (TV_TAKE if card == TV_STATION else 2.0))
        else:
            theirs = 0.0
            for rel in range(1, n):
                theirs += ODDS[card, dice_of(state, rel)]
            chance = mine if colour == GREEN else (theirs if colour == RED else mine + theirs)
            value = chance * max(card_income(state, 0, card), 1.0)
        values[card] = value
        income += card_count(state, 0, card) * value
    target = next_landmark(state, 0)
    choice = choice_known
    if choice < 0:  # level 1's purchase (builder_buy) from the same values
        choice = END_TURN
        if target >= 0 and coins >= CARD_COST[target]:
            choice = BUY_CARD + target
        elif not (target >= 0 and coins + SAVE_ROUNDS * income >= CARD_COST[target]):
            best_score = 0.0
            for card in range(RADIO_TOWER):
                if card_can_be_bought(state, 0, card) and values[card] / CARD_COST[card] > best_score:
                    choice, best_score = BUY_CARD + card, values[card] / CARD_COST[card]
    out[0] = n
    out[1] = state[S_RULES]
    out[2] = coins
    out[3] = income
    out[4] = state[S_PURCHASES]
    for k in range(4):
        out[5 + k] = card_count(state, 0, RADIO_TOWER + k)
    out[9] = CARD_COST[target] - coins if target >= 0 else 0.0
    for rel in range(1, n):
        out[10] = max(out[10], state[seat_base(rel) + B_COINS])
        held, built = 0.0, 0.0
        for k in range(RADIO_TOWER, NUM_CARDS):
            held += card_count(state, rel, k)
            built += CARD_COST[k] * card_count(state, rel, k)
        out[11] = max(out[11], held)
        out[12] = max(out[12], built)
        for card in (CAFE, RESTAURANT):
            out[13] += ODDS[card, my_dice] * card_count(state, rel, card) * card_income(state, rel, card)
    out[14] = n - 1.0
    out[15] = 1.0
    for card in range(NUM_NORMAL):
        out[N_GLOBAL + RADIO_TOWER + card] = card_count(state, 0, card)
    out[N_GLOBAL + RADIO_TOWER + NUM_NORMAL + choice] = 1.0
    return choice


@njit(cache=True)
def policy_view(state):
    """The state as level 2's network sees it (``fill_view``; level 1's move in any phase), with
    the identity map of the actions, as ``makeenv.learn.imitate`` takes a view."""
    choice = builder_action(sampleEnv(state))
    if not isValidAction(state, choice):
        choice = first_valid(state)
    seen = np.zeros(VIEW_SIZE)
    fill_view(state, choice, seen)
    return seen, np.arange(NUM_ACTIONS)


@njit(cache=True)
def my_purchase(state) -> bool:
    """My buying phase of a game still running."""
    return int(state[S_PHASE]) == BUY and state[S_TO_MOVE] == 0.0 and state[S_RESULT] == RUNNING


@njit(cache=True)
def learned(state, data):
    """Level 2: level 1's moves, but its purchases chosen by a small network (``level2_weights.npz``,
    trained by makeenv.learn.imitate to copy the planner's). ``data`` is the packed network followed
    by ``VIEW_SIZE`` values of scratch for the view: a purchase reads the state alone (no env is
    rebuilt), allocates nothing but the valid actions, and is End turn without the network when
    nothing can be bought."""
    if not my_purchase(state):
        return builder(state, data)
    valid = getValidActions(state)
    choices = 0
    for a in range(BUY_CARD, NUM_ACTIONS):
        choices += valid[a] == 1.0
    if choices == 1:  # nothing to buy: End turn, no need to ask the network
        return END_TURN, data
    seen = data[data.shape[0] - VIEW_SIZE :]
    choice = fill_view(state, -1, seen)
    action = mlp_action(seen, data, valid)
    if action < 0:
        action = choice if valid[choice] == 1.0 else first_valid(state)
    return action, data


def learned_data(path=WEIGHTS_FILE) -> np.ndarray:
    """The bot data of level 2: the packed network of ``path`` and the view's scratch."""
    return load_policy_data(path, VIEW_SIZE, NUM_ACTIONS, scratch=VIEW_SIZE)


LEVELS: dict[int, Any] = {1: builder, 3: planner}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
