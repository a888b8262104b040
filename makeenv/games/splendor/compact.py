"""Splendor with 42 positional actions (``make("Splendor", actions="compact")``).

The encoding of vis/ENV's ``Splendor_v2``: a card is named by where it lies (a face-up slot or a
slot of my reserve), not by its id. Every action is translated into one of ``logic.py``'s 194
actions and played by its ``stepEnv``, so the game, the state and the env are Splendor's own; only
``getActionSize``, ``getValidActions``, ``isValidAction``, ``stepEnv``, the bots' answers and the
words and picture of the actions differ. README.md lists the actions.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot

from . import bots, draw
from .logic import (
    A_BUY,
    A_PASS,
    A_RESERVE,
    A_RESERVE_DECK,
    A_RETURN,
    A_TAKE,
    BOARD_SLOTS,
    CARD_FEATURES,
    COLOURS,
    DEFAULTS,
    E_BOARD,
    E_SEAT,
    NUM_CARDS,
    P_RESERVED,
    PARAMETERS,
    RESERVE_SLOTS,
    S_BOARD,
    S_RESERVED,
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
from .logic import isValidAction as full_is_valid
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
    "render",
    "sampleEnv",
    "stepEnv",
]

NAME = "Splendor"
C_PASS = 0  # pass (only when nothing else is possible)
C_BUY = 1  # 1..12: buy the card in face-up slot action - 1
C_BUY_RESERVED = 13  # 13..15: buy the card in my reserve slot action - 13
C_RESERVE = 16  # 16..27: reserve the card in face-up slot action - 16
C_RESERVE_DECK = 28  # 28..30: reserve the top card of the level 1, 2, 3 deck
C_TAKE = 31  # 31..35: take a token of a colour
C_RETURN = 36  # 36..40: return a token of a colour
C_RETURN_GOLD = 41  # return a gold token: never valid here (makeenv's rules never return gold)
NUM_COMPACT = 42


@njit(cache=True)
def getActionSize() -> int:
    return NUM_COMPACT


@njit(cache=True)
def slot_of(action) -> int:
    """The position a card action names: face-up slot 0..11, or 12 + my reserve slot; else -1."""
    if C_BUY <= action < C_BUY_RESERVED:
        return action - C_BUY
    if C_BUY_RESERVED <= action < C_RESERVE:
        return BOARD_SLOTS + action - C_BUY_RESERVED
    if C_RESERVE <= action < C_RESERVE_DECK:
        return action - C_RESERVE
    return -1


@njit(cache=True)
def state_card(state, slot) -> int:
    """The card id at position ``slot`` (as ``slot_of``) in a player's state, -1 when empty."""
    if slot < 0:
        return -1
    if slot < BOARD_SLOTS:
        return int(state[S_BOARD + CARD_FEATURES * slot]) - 1
    return int(state[S_RESERVED + CARD_FEATURES * (slot - BOARD_SLOTS)]) - 1


@njit(cache=True)
def env_card(env, slot) -> int:
    """The card id at position ``slot`` for the player to move in ``env``, -1 when empty."""
    if slot < 0:
        return -1
    if slot < BOARD_SLOTS:
        return int(env[E_BOARD + slot])
    return int(env[E_SEAT + SEAT_SIZE * getCurrentPlayer(env) + P_RESERVED + slot - BOARD_SLOTS])


@njit(cache=True)
def to_full(action, card) -> int:
    """The 194-action equivalent of compact ``action``; ``card`` is the card at the position the
    action names (-1: empty). -1 when there is none."""
    if action == C_PASS:
        return A_PASS
    if C_BUY <= action < C_RESERVE:
        return A_BUY + card if card >= 0 else -1
    if C_RESERVE <= action < C_RESERVE_DECK:
        return A_RESERVE + card if card >= 0 else -1
    if C_RESERVE_DECK <= action < C_TAKE:
        return A_RESERVE_DECK + action - C_RESERVE_DECK
    if C_TAKE <= action < C_RETURN:
        return A_TAKE + action - C_TAKE
    if C_RETURN <= action < C_RETURN_GOLD:
        return A_RETURN + action - C_RETURN
    return -1


@njit(cache=True)
def from_full(state, full) -> int:
    """The compact action doing what 194-action ``full`` does in ``state``; -1 when none does."""
    if full == A_PASS:
        return C_PASS
    if A_TAKE <= full < A_BUY:
        return C_TAKE + full - A_TAKE
    if A_RETURN <= full < A_RESERVE_DECK:
        return C_RETURN + full - A_RETURN
    if A_RESERVE_DECK <= full < A_PASS:
        return C_RESERVE_DECK + full - A_RESERVE_DECK
    if A_BUY <= full < A_RETURN:
        card = full - A_BUY if full < A_RESERVE else full - A_RESERVE
        for slot in range(BOARD_SLOTS + RESERVE_SLOTS):
            if state_card(state, slot) == card:
                if full >= A_RESERVE:
                    return C_RESERVE + slot if slot < BOARD_SLOTS else -1
                return C_BUY + slot if slot < BOARD_SLOTS else C_BUY_RESERVED + slot - BOARD_SLOTS
    return -1


@njit(cache=True)
def getValidActions(state):
    full = full_valid_actions(state)
    valid = np.zeros(NUM_COMPACT, dtype=np.float64)
    for a in range(NUM_COMPACT):
        f = to_full(a, state_card(state, slot_of(a)))
        if f >= 0 and full[f] == 1.0:
            valid[a] = 1.0
    return valid


@njit(cache=True)
def isValidAction(state, action) -> bool:
    """``getValidActions(state)[action] == 1`` without building the vector."""
    if action < 0 or action >= NUM_COMPACT:
        return False
    f = to_full(action, state_card(state, slot_of(action)))
    return f >= 0 and full_is_valid(state, f)


@njit(cache=True)
def stepEnv(action, env):
    """Plays the 194-action equivalent of ``action`` (an action naming an empty position changes nothing)."""
    f = to_full(action, env_card(env, slot_of(action)))
    if f >= 0:
        full_step(f, env)
    return env


# ---- bots: Splendor's, answering in compact actions -------------------------------------------


@njit(cache=True)
def greedy(state, data):
    """Level 1: greedy, Splendor's level-1 bot (its move named by position)."""
    action, data = bots.greedy(state, data)
    return from_full(state, action), data


@njit(cache=True)
def ismcts(state, data):
    """Level 3: ismcts, Splendor's level-3 bot (its move named by position)."""
    action, data = bots.ismcts(state, data)
    return from_full(state, action), data


@njit(cache=True)
def learned(state, data):
    """Level 2: learned, Splendor's level-2 network (its move named by position)."""
    action, data = bots.learned(state, data)
    return from_full(state, action), data


LEVELS: dict[int, Any] = {1: greedy, 3: ismcts}
if 2 in bots.LEVELS:  # absent only while makeenv.learn.imitate rebuilds the weights
    LEVELS[2] = Bot(learned, data=bots.LEVELS[2].data)
LEVELS = dict(sorted(LEVELS.items()))


# ---- words and picture --------------------------------------------------------------------------


def position_words(slot: int) -> str:
    """'face-up slot 3 (level 1)' or 'reserve slot 2' for a position as ``slot_of`` returns it."""
    if slot < BOARD_SLOTS:
        return f"face-up slot {slot % 4 + 1} of level {slot // 4 + 1}"
    return f"your reserve slot {slot - BOARD_SLOTS + 1}"


def describe_action(action: int) -> str:
    """What a compact action means, e.g. "Buy the card in face-up slot 2 of level 1"."""
    a = int(action)
    if not 0 <= a < NUM_COMPACT:
        return f"Unknown action {a}"
    if a == C_PASS:
        return "Pass"
    if a < C_RESERVE:
        return f"Buy the card in {position_words(slot_of(a))}"
    if a < C_RESERVE_DECK:
        return f"Reserve the card in {position_words(slot_of(a))}"
    if a < C_TAKE:
        return f"Reserve the top card of the level {a - C_RESERVE_DECK + 1} deck"
    if a < C_RETURN:
        return f"Take a {COLOURS[a - C_TAKE]} token"
    if a < C_RETURN_GOLD:
        return f"Return a {COLOURS[a - C_RETURN]} token"
    return "Return a gold token (never allowed here)"


def describe_state(state: np.ndarray) -> str:
    """Splendor's words for the state, plus the card at each position the actions name."""
    text = draw.describe_state(state)  # checks the state's length
    s = np.asarray(state, dtype=np.float64)
    parts = []
    for slot in range(BOARD_SLOTS + RESERVE_SLOTS):
        card = int(state_card(s, slot))
        if 0 <= card < NUM_CARDS:
            parts.append(f"{position_words(slot)}: {draw.card_words(card)}")
    return text + "\nPositions: " + ("; ".join(parts) if parts else "no cards") + "."


def translated_render(state: np.ndarray, translate) -> str:
    """Splendor's picture with each clickable element's 194-action number replaced by
    ``translate(state, full)``; elements without an equivalent (-1) are no longer clickable."""
    s = np.asarray(state, dtype=np.float64)

    def swap(match: re.Match[str]) -> str:
        action = int(translate(s, int(match.group(1))))
        return f'data-action="{action}"' if action >= 0 else 'data-inactive=""'

    return re.sub(r'data-action="(\d+)"', swap, draw.render(state))


def render(state: np.ndarray) -> str:
    """An SVG picture of the state, its clickable elements carrying compact actions."""
    return translated_render(state, from_full)
