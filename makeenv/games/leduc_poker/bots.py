"""Built-in LeducPoker opponents. Level 0 (random) is the framework's.

Each bot is a pair: ``*_policy(state, data)`` returns its action probabilities (what the
exploitability and strength measurements read) and the bot itself samples an action from them.
Both play from their own state only: their card, the public card once shown, and the betting.

Level 2 plays a CFR+ average strategy stored in ``policy.json`` (made by
``python -m makeenv.games.leduc_poker.make_policy``) and handed to it as its ``data``: row
``table_row(state)`` of the table holds the probabilities of Fold, Call and Raise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.games._poker.cfr import sample_action

from .logic import (
    CALL,
    FOLD,
    NUM_ACTIONS,
    NUM_CARDS,
    RAISE,
    S_CARD,
    S_CHIPS,
    S_PUBLIC,
    S_ROUND,
    S_SEQUENCE,
    S_THEIR_CHIPS,
    SLOTS,
    getValidActions,
)

POLICY_FILE = Path(__file__).with_name("policy.json")

# ---- the policy table's rows: (my card, public card or none, betting so far) -------------------
# A round's betting before a decision is one of "", "c", "r", "cr", "rr", "crr" (c = call/check,
# r = raise): nodes 0..5. A call after the first move ends the round; the finished first round
# ("cc", "rc", "crc", "rrc", "crrc") is then the node it left minus one (0..4).
ROUND_NODES = 6
AFTER_RAISE = np.array([2, 3, 4, 5, -1, -1])  # the node a raise leads to from each node
BETTINGS = ROUND_NODES + 5 * ROUND_NODES  # round-1 nodes, then (finished round 1, round-2 node)
PUBLIC_NONE = NUM_CARDS  # the public card's index before it is shown
TABLE_ROWS = NUM_CARDS * (NUM_CARDS + 1) * BETTINGS
TABLE_SIZE = TABLE_ROWS * NUM_ACTIONS


@njit(cache=True)
def _round_node(state, rnd):
    """(node reached in round ``rnd``, finished-round id or -1) from the state's betting."""
    node = 0
    start = S_SEQUENCE + 12 * rnd
    for k in range(SLOTS):
        if state[start + 3 * k + RAISE] > 0.5:
            node = AFTER_RAISE[node]
        elif state[start + 3 * k + CALL] > 0.5:
            if node > 0:
                return node, node - 1
            node = 1
        else:
            break
    return node, -1


@njit(cache=True)
def table_row(state) -> int:
    """The policy-table row of a state of the player to move."""
    card = 0
    public = PUBLIC_NONE
    for c in range(NUM_CARDS):
        if state[S_CARD + c] > 0.5:
            card = c
        if state[S_PUBLIC + c] > 0.5:
            public = c
    first, finished = _round_node(state, 0)
    betting = first
    if state[S_ROUND] > 0.5:
        second, _ = _round_node(state, 1)
        betting = ROUND_NODES + ROUND_NODES * max(finished, 0) + second
    return (card * (NUM_CARDS + 1) + public) * BETTINGS + betting


# ---- level 1: hand strength ----------------------------------------------------------------------


@njit(cache=True)
def _deterministic(action):
    probs = np.zeros(NUM_ACTIONS, dtype=np.float64)
    probs[action] = 1.0
    return probs


@njit(cache=True)
def hand_strength_policy(state, data):
    """Raise with a King or a pair, call with a Queen or a card above the public card, else check/fold."""
    valid = getValidActions(state)
    rank = 0
    public_rank = -1
    for c in range(NUM_CARDS):
        if state[S_CARD + c] > 0.5:
            rank = c // 2
        if state[S_PUBLIC + c] > 0.5:
            public_rank = c // 2
    if public_rank < 0:
        strong, fair = rank == 2, rank == 1
    else:
        strong, fair = rank == public_rank, rank > public_rank
    if strong and valid[RAISE] == 1.0:
        return _deterministic(RAISE)
    if strong or fair or state[S_THEIR_CHIPS] <= state[S_CHIPS]:
        return _deterministic(CALL)
    return _deterministic(FOLD)


@njit(cache=True)
def hand_strength(state, data):
    """Hand strength: raises a King or a pair, calls a Queen or a card above the public card, else check/fold."""
    return sample_action(hand_strength_policy(state, data)), data


# ---- level 2: the CFR+ policy table ----------------------------------------------------------------


@njit(cache=True)
def cfr_policy(state, data):
    """The table's probabilities at this state (uniform over valid actions for a missing row)."""
    valid = getValidActions(state)
    probs = np.zeros(NUM_ACTIONS, dtype=np.float64)
    base = table_row(state) * NUM_ACTIONS
    total = 0.0
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0 and base + a < data.shape[0]:
            probs[a] = data[base + a]
            total += probs[a]
    count = 0.0
    for a in range(NUM_ACTIONS):
        count += valid[a]
    for a in range(NUM_ACTIONS):
        if total > 0.0:
            probs[a] /= total
        elif count > 0.0:  # a row the table lacks
            probs[a] = valid[a] / count
    return probs


@njit(cache=True)
def cfr(state, data):
    """CFR policy: a CFR+ average strategy (exploitability below 0.05 chips per hand)."""
    return sample_action(cfr_policy(state, data)), data


def load_policy(path: Path | str = POLICY_FILE) -> np.ndarray:
    """The level-2 table from ``policy.json`` (rows of Fold, Call, Raise), flat, as the bot's float64 data."""
    with open(path, encoding="utf-8") as file:
        record = json.load(file)
    table = np.asarray(record["table"], dtype=np.float64).reshape(-1)
    if table.shape != (TABLE_SIZE,):
        raise ValueError(
            f"{path}: the policy table has {table.size} values, expected {TABLE_SIZE} "
            "(rebuild it with python -m makeenv.games.leduc_poker.make_policy)"
        )
    return table


LEVELS: dict[int, Any] = {1: hand_strength}
if POLICY_FILE.exists():  # absent only while make_policy rebuilds it
    LEVELS[2] = Bot(cfr, data=load_policy())
POLICIES = {1: hand_strength_policy, 2: cfr_policy}
