"""Splendor with 15 macro actions (``make("Splendor", actions="macro")``).

The encoding of vis/ENV's ``Splendor_v3``: an action only names a target card (a face-up slot or
a slot of my reserve) and a fixed heuristic plays the whole turn for it: buy it when affordable,
else take two or three tokens towards it, else reserve it, else buy a helper card, take tokens
or buy a free card (``plan_turn``; random where the library's is). The turn is then played as
``logic.py``'s 194 actions by its ``stepEnv`` (``play_turn``), so the game, the state and the env
are Splendor's own. README.md lists the actions and where the turns differ from the library's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot

from . import bots
from .compact import env_card, state_card, translated_render
from .draw import card_words
from .draw import describe_state as full_describe_state
from .logic import (
    A_BUY,
    A_PASS,
    A_RESERVE,
    A_RESERVE_DECK,
    A_RETURN,
    A_TAKE,
    BOARD_SLOTS,
    CARD_BONUS,
    CARD_COST,
    DECK_SIZE,
    DEFAULTS,
    E_BANK,
    E_BOARD,
    E_DECK_NEXT,
    E_SEAT,
    E_STATUS,
    E_TAKEN,
    E_TURN,
    GOLD,
    MAX_TOKENS,
    NUM_CARDS,
    P_BONUS,
    P_RESERVED,
    P_TOKENS,
    PARAMETERS,
    RED,
    RESERVE_SLOTS,
    S_OVER,
    S_TO_MOVE,
    SEAT_SIZE,
    checkEnded,
    getAgentSize,
    getAgentState,
    getCurrentPlayer,
    getPlayerState,
    getReward,
    getStateSize,
    getWinners,
    initEnv,
    sampleEnv,
)
from .logic import getValidActions as full_valid_actions
from .logic import stepEnv as full_step

__all__ = [  # the contract: Splendor's own functions, and this encoding's
    "DEFAULTS",
    "LEVELS",
    "NAME",
    "PARAMETERS",
    "checkEnded",
    "describe_action",
    "describe_state",
    "getActionSize",
    "getAgentSize",
    "getAgentState",
    "getCurrentPlayer",
    "getPlayerState",
    "getReward",
    "getStateSize",
    "getValidActions",
    "getWinners",
    "initEnv",
    "isValidAction",
    "plan_turn",
    "play_turn",
    "render",
    "sampleEnv",
    "stepEnv",
]

NAME = "Splendor"
POSITIONS = BOARD_SLOTS + RESERVE_SLOTS  # 0..11 face-up slots, 12..14 my reserve slots
MAX_TURN_ACTIONS = 16  # a turn is at most 3 takes and 3 returns, or a reserve and a return

# what plan_turn decides
BUY, RESERVE, TAKE, NOTHING = 0, 1, 2, 3


@njit(cache=True)
def getActionSize() -> int:
    return POSITIONS


@njit(cache=True)
def getValidActions(state):
    """The positions holding a card; only action 0 once the game is over, when it is not my
    turn, or (never seen in play) when no card is left anywhere."""
    valid = np.zeros(POSITIONS, dtype=np.float64)
    if state[S_OVER] == 0.0 and state[S_TO_MOVE] == 1.0:
        for slot in range(POSITIONS):
            if 0 <= state_card(state, slot) < NUM_CARDS:
                valid[slot] = 1.0
    if valid.sum() == 0.0:
        valid[0] = 1.0
    return valid


@njit(cache=True)
def isValidAction(state, action) -> bool:
    """``getValidActions(state)[action] == 1``."""
    if action < 0 or action >= POSITIONS:
        return False
    return getValidActions(state)[action] == 1.0


# ---- the heuristic -------------------------------------------------------------------------------


@njit(cache=True)
def _need(env, seat, card, out):
    """``out[c]``: what ``card`` costs in colour c after my bonuses (0 for no card)."""
    for c in range(5):
        out[c] = 0.0
        if card >= 0:
            out[c] = max(0.0, CARD_COST[card, c] - env[seat + P_BONUS + c])


@njit(cache=True)
def _shortfall(env, seat, need):
    """Tokens missing to pay ``need`` (``_need``) with my coloured tokens."""
    short = 0.0
    for c in range(5):
        short += max(0.0, need[c] - env[seat + P_TOKENS + c])
    return short


@njit(cache=True)
def _pick_spare(env, gain, count):
    """Adds ``count`` different random colours the bank has and ``gain`` lacks (the library's
    random pick); False when there are not that many."""
    spare = np.empty(5, dtype=np.int64)
    n = 0
    for c in range(5):
        if env[E_BANK + c] > 0.0 and gain[c] == 0.0:
            spare[n] = c
            n += 1
    if n < count:
        return False
    for k in range(count):
        i = k + np.random.randint(0, n - k)
        spare[k], spare[i] = spare[i], spare[k]
        gain[spare[k]] = 1.0
    return True


@njit(cache=True)
def _fill(env, gain, room, wanted_only, lack):
    """Adds colours the bank has in colour order until ``gain`` holds ``room`` tokens (only
    colours whose ``lack`` is positive when ``wanted_only``); returns the tokens in ``gain``."""
    total = gain.sum()
    for c in range(5):
        if total >= room:
            break
        if env[E_BANK + c] > 0.0 and gain[c] == 0.0 and (not wanted_only or lack[c] > 0.0):
            gain[c] = 1.0
            total += 1.0
    return total


@njit(cache=True)
def plan_turn(action, env):
    """What the heuristic does for target position ``action``: (kind, card, gain), kind one of
    BUY, RESERVE (``card``), TAKE (``gain``: tokens per colour) or NOTHING. The library's order:

    1. buy the target when affordable;
    2. holding at most 8 tokens, take two of a colour the target lacks at least two of (pile of 4+);
    3. holding at most 7, take three different: the colours the target lacks, topped up at random;
    4. reserve the target when it is face up and I hold fewer than 3 reserved cards;
    5. buy the cheapest affordable card of a "helper" colour (the library's test, kept: the target
       lacks blue when the card is red, else red);
    6. take the colours the target lacks, up to 10 tokens in all (when that is two or three);
    7. buy an affordable card that costs nothing; take two of the target's costliest colour;
       take one lacked colour topped up in colour order; take two of the bank's fullest pile;
       take any colours in colour order; buy the cheapest affordable card; else nothing.
    """
    seat = E_SEAT + SEAT_SIZE * getCurrentPlayer(env)
    target = env_card(env, action) if 0 <= action < POSITIONS else -1
    need = np.zeros(5)
    _need(env, seat, target, need)
    lack = np.zeros(5)
    total = 0.0
    for c in range(6):
        total += env[seat + P_TOKENS + c]
    for c in range(5):
        lack[c] = need[c] - env[seat + P_TOKENS + c]
    gain = np.zeros(5)
    if target >= 0:
        if _shortfall(env, seat, need) <= env[seat + P_TOKENS + GOLD]:
            return BUY, target, gain
        if total <= 8.0:
            costly = int(np.argmax(need))
            if lack.max() >= 2.0 and env[E_BANK + costly] >= 4.0:
                gain[costly] = 2.0
                return TAKE, -1, gain
            for c in np.argsort(need, kind="mergesort")[::-1]:  # most needed first, ties: later colour
                if lack[c] >= 2.0 and env[E_BANK + c] >= 4.0:
                    gain[c] = 2.0
                    return TAKE, -1, gain
        if total <= 7.0:
            wanted = _fill(env, gain, 3.0, True, lack)
            if wanted == 3.0 or (wanted == 2.0 and _pick_spare(env, gain, 1)):
                return TAKE, -1, gain
            if wanted == 1.0 and _pick_spare(env, gain, 2):
                return TAKE, -1, gain
            gain[:] = 0.0
        reserved = 0
        for j in range(RESERVE_SLOTS):
            if env[seat + P_RESERVED + j] >= 0.0:
                reserved += 1
        if reserved < RESERVE_SLOTS and action < BOARD_SLOTS:
            return RESERVE, target, gain
    # the affordable cards among the positions: the helper (cheapest) and the cheapest of all
    helper, helper_pay, cheapest, cheapest_pay = -1, 1e9, -1, 1e9
    card_need = np.zeros(5)
    for slot in range(POSITIONS):
        card = env_card(env, slot)
        if card < 0:
            continue
        _need(env, seat, card, card_need)
        if _shortfall(env, seat, card_need) > env[seat + P_TOKENS + GOLD]:
            continue
        pay = card_need.sum()
        if pay < cheapest_pay:
            cheapest, cheapest_pay = card, pay
        if lack[1 if CARD_BONUS[card] == RED else 0] > 0.0 and pay < helper_pay:
            helper, helper_pay = card, pay
    if helper >= 0:
        return BUY, helper, gain
    room = min(3.0, MAX_TOKENS - total)
    wanted = _fill(env, gain, room, True, lack)
    if wanted > 1.0:
        return TAKE, -1, gain
    if cheapest >= 0 and cheapest_pay == 0.0:
        return BUY, cheapest, gain
    costly = int(np.argmax(need))
    if need.max() > 0.0 and env[E_BANK + costly] >= 4.0 and total <= 8.0:
        gain[:] = 0.0
        gain[costly] = 2.0
        return TAKE, -1, gain
    if wanted > 0.0:
        _fill(env, gain, room, False, lack)
        return TAKE, -1, gain
    fullest = 0
    for c in range(5):
        if env[E_BANK + c] > env[E_BANK + fullest]:
            fullest = c
    if env[E_BANK + fullest] >= 4.0 and total <= 8.0:
        gain[fullest] = 2.0
        return TAKE, -1, gain
    if _fill(env, gain, room, False, lack) > 0.0:
        return TAKE, -1, gain
    if cheapest >= 0:
        return BUY, cheapest, gain
    return NOTHING, -1, gain


# ---- playing the turn as the 194-action game -----------------------------------------------------


@njit(cache=True)
def _play(action, env, record):
    """One 194 action (``stepEnv``), written to ``record`` (``record[0]``: how many so far)."""
    n = int(record[0])
    if n + 1 < record.shape[0]:
        record[n + 1] = action
    record[0] = n + 1
    full_step(action, env)


@njit(cache=True)
def _least_needed_held(env, seat, need):
    """The colour I hold whose target cost is lowest (ties: the first colour); -1 when none."""
    best = -1
    for c in range(5):
        if env[seat + P_TOKENS + c] > 0.0 and (best < 0 or need[c] < need[best]):
            best = c
    return best


@njit(cache=True)
def play_turn(action, env, record):
    """Plays the turn ``plan_turn`` decides for target ``action`` as 194 actions; ``record``
    (int64, ``record[0] = 0`` on entry) receives their number and the actions themselves."""
    if env[E_STATUS] >= 0.0:
        return env
    turn = env[E_TURN]
    player = getCurrentPlayer(env)
    seat = E_SEAT + SEAT_SIZE * player
    kind, card, gain = plan_turn(action, env)
    target = env_card(env, action) if 0 <= action < POSITIONS else -1
    need = np.zeros(5)
    _need(env, seat, target, need)
    if kind == BUY:
        _play(A_BUY + card, env, record)
    elif kind == RESERVE:
        _play(A_RESERVE + card, env, record)
    else:
        # take the planned tokens; the rules may make me take more (three different when the bank
        # has them): those come back first if I then hold more than 10
        order = np.empty(3, dtype=np.int64)  # the extra colours, in the order taken
        extras = 0
        for c in range(5):
            for _ in range(int(gain[c])):
                _play(A_TAKE + c, env, record)
        if kind == NOTHING:  # the rules have no empty turn: take a token and give it back
            for c in range(5):
                if extras == 0 and env[E_BANK + c] > 0.0:
                    order[0] = c
                    extras = 1
                    _play(A_TAKE + c, env, record)
        while env[E_TURN] == turn and env[E_STATUS] < 0.0 and _taking(env) and extras < 3:
            colour = -1
            for c in range(5):
                if colour < 0 and env[E_BANK + c] > 0.0 and env[E_TAKEN + c] == 0.0:
                    colour = c
            if colour < 0:
                for c in range(5):
                    if env[E_TAKEN + c] == 1.0 and env[E_BANK + c] >= 3.0:
                        colour = c
            if colour < 0:
                break
            order[extras] = colour
            extras += 1
            _play(A_TAKE + colour, env, record)
        if kind == NOTHING and extras == 0 and env[E_TURN] == turn:
            _nothing_to_take(env, seat, record)
        while env[E_TURN] == turn and env[E_STATUS] < 0.0 and extras > 0:
            extras -= 1
            _play(A_RETURN + order[extras], env, record)
    # a reserve's gold (or a forced token) beyond 10: return what the target needs least
    while env[E_TURN] == turn and env[E_STATUS] < 0.0:
        colour = _least_needed_held(env, seat, need)
        if colour < 0:
            break
        _play(A_RETURN + colour, env, record)
    return env


@njit(cache=True)
def _taking(env):
    return env[E_TAKEN] + env[E_TAKEN + 1] + env[E_TAKEN + 2] + env[E_TAKEN + 3] + env[E_TAKEN + 4] > 0.0


@njit(cache=True)
def _nothing_to_take(env, seat, record):
    """A turn the heuristic leaves empty and the bank has no token to take and give back: pass
    when the rules allow it, else reserve (the first face-up card, else a deck's top card)."""
    state = getPlayerState(env, getCurrentPlayer(env))
    valid = full_valid_actions(state)
    if valid[A_PASS] == 1.0:
        _play(A_PASS, env, record)
        return
    for slot in range(BOARD_SLOTS):
        card = int(env[E_BOARD + slot])
        if card >= 0 and valid[A_RESERVE + card] == 1.0:
            _play(A_RESERVE + card, env, record)
            return
    for level in range(3):
        if env[E_DECK_NEXT + level] < DECK_SIZE[level] and valid[A_RESERVE_DECK + level] == 1.0:
            _play(A_RESERVE_DECK + level, env, record)
            return


@njit(cache=True)
def stepEnv(action, env):
    """Plays the whole turn the heuristic decides for target position ``action``."""
    record = np.zeros(MAX_TURN_ACTIONS, dtype=np.int64)
    return play_turn(action, env, record)


# ---- bots: Splendor's, aiming at the card they would buy, reserve or work towards -------------------


@njit(cache=True)
def to_macro(state, full):
    """The target position for 194-action ``full``: the card it buys or reserves, else the greedy
    bot's target card, else the first valid position."""
    card = -1
    if A_BUY <= full < A_RESERVE:
        card = full - A_BUY
    elif A_RESERVE <= full < A_RETURN:
        card = full - A_RESERVE
    else:
        card = bots.target_card(state)
    valid = getValidActions(state)
    for slot in range(POSITIONS):
        if card >= 0 and valid[slot] == 1.0 and state_card(state, slot) == card:
            return slot
    for slot in range(POSITIONS):
        if valid[slot] == 1.0:
            return slot
    return 0


@njit(cache=True)
def greedy(state, data):
    """Level 1: greedy, Splendor's level-1 bot aiming at the card it would buy, reserve or collect for."""
    action, data = bots.greedy(state, data)
    return to_macro(state, action), data


@njit(cache=True)
def ismcts(state, data):
    """Level 3: ismcts, Splendor's level-3 bot (searching the 194-action game) aiming at its card."""
    action, data = bots.ismcts(state, data)
    return to_macro(state, action), data


@njit(cache=True)
def learned(state, data):
    """Level 2: learned, Splendor's level-2 network aiming at the card it would buy, reserve or collect for."""
    action, data = bots.learned(state, data)
    return to_macro(state, action), data


LEVELS: dict[int, Any] = {1: greedy, 3: ismcts}
if 2 in bots.LEVELS:  # absent only while makeenv.learn.imitate rebuilds the weights
    LEVELS[2] = Bot(learned, data=bots.LEVELS[2].data)
LEVELS = dict(sorted(LEVELS.items()))


# ---- words and picture --------------------------------------------------------------------------


def describe_action(action: int) -> str:
    """What a macro action means, e.g. "Aim for the card in face-up slot 2 of level 1"."""
    from .compact import position_words

    a = int(action)
    if not 0 <= a < POSITIONS:
        return f"Unknown action {a}"
    return f"Aim for the card in {position_words(a)} (the turn is played for it)"


def describe_state(state: np.ndarray) -> str:
    """Splendor's words for the state, plus the card at each position the actions name."""
    from .compact import position_words

    text = full_describe_state(state)  # checks the state's length
    s = np.asarray(state, dtype=np.float64)
    parts = [
        f"[{slot}] {position_words(slot)}: {card_words(card)}"
        for slot in range(POSITIONS)
        if 0 <= (card := int(state_card(s, slot))) < NUM_CARDS
    ]
    return (
        text + "\nYou pick a target card; the turn is then played for it (buy it if you can, else take tokens "
        "towards it or reserve it). Targets: " + ("; ".join(parts) if parts else "none") + "."
    )


@njit(cache=True)
def _target_of(state, full):
    """The position of the card a 194-action buy or reserve names, -1 for other actions."""
    if not A_BUY <= full < A_RETURN:
        return -1
    card = full - A_BUY if full < A_RESERVE else full - A_RESERVE
    for slot in range(POSITIONS):
        if state_card(state, slot) == card:
            return slot
    return -1


def render(state: np.ndarray) -> str:
    """An SVG picture of the state: a card's Buy and Reserve buttons pick it as the target."""
    picture = translated_render(state, _target_of)
    return picture.replace("Your turn: take tokens, buy or reserve a card", "Your turn: pick a target card")
