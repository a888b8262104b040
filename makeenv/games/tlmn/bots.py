"""Built-in TLMN opponents. Level 0 (random) is the framework's.

* Level 1, ``shedder``: leads the combination that sheds its lowest rank with the most cards,
  follows with the cheapest combination that beats the table without breaking a pair or triple
  when it can, and keeps Twos and bombs for chopping or for the end (an opponent close to going
  out, or a short hand of its own). Against an opponent with one card left it leads combinations
  or its highest single.
* Level 2, ``learned``: a linear scorer over the valid moves, trained to copy level 3 by
  ``python -m makeenv.games.tlmn.train_level2`` (the README has the command). Each move is
  described by ``NUM_FEATURES`` numbers read from my own state (its size, ranks, whether it splits a
  pair, whether anything unseen can beat it, the lone cards it leaves, the shedder's cost of it and
  whether it is the shedder's choice, for a pass the table and the opponents' counts); it plays the
  move whose weighted sum (``level2_weights.npz``) is highest, and goes out when it can. It
  allocates nothing: its data is the weights and a scratch it overwrites at every move.
* Level 3, ``rollouts``: flat Monte-Carlo search over determinizations. Each round deals the unseen
  cards at random (``sampleEnv``), then tries every candidate move on that deal and plays the game
  out with shedder players for everybody; it picks the move that won most often. Its budget:
  ``SEARCH_ROUNDS`` deals a move, or ``data[0]`` when it is 1 or more.

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
    ACTION_KIND,
    ACTION_TOP,
    ACTIONS_BY_TOP,
    K_LAST_STRAIGHT,
    K_NONE,
    K_PAIR,
    K_QUAD,
    K_SINGLE,
    K_TRIPLE,
    NUM_ACTIONS,
    NUM_CARDS,
    NUM_RANKS,
    PASS,
    S_ACTIVE,
    S_COUNTS,
    S_HAND,
    S_OWNER,
    S_PLAYED,
    S_PLAYERS,
    TWO,
    beats,
    can_form,
    checkEnded,
    getAgentState,
    getCurrentPlayer,
    getValidActions,
    moving,
    sampleEnv,
    stepEnv,
    table_combination,
)

SEARCH_ROUNDS = 12  # determinizations per decision of the level-3 bot (data[0] >= 1 overrides it)
MAX_CANDIDATES = 12  # moves the level-3 bot compares (the shedder's best first)
MAX_ROLLOUT_STEPS = 400
BREAK_PENALTY = 6.0  # cost of splitting a pair or triple to make another combination
HIGH_PENALTY = 40.0  # cost of a Two or a bomb while nobody is close to going out


@njit(cache=True)
def cards_in(action) -> int:
    """How many cards the combination of ``action`` holds."""
    kind = ACTION_KIND[action]
    if kind <= K_QUAD:
        return kind
    if kind <= K_LAST_STRAIGHT:
        return kind - 2
    return 2 * (kind - 11)


@njit(cache=True)
def lowest_rank(action) -> int:
    """The lowest rank of the combination of ``action``."""
    kind, rank = ACTION_KIND[action], ACTION_TOP[action] // 4
    if kind <= K_QUAD:
        return rank
    return rank - (cards_in(action) if kind <= K_LAST_STRAIGHT else cards_in(action) // 2) + 1


@njit(cache=True)
def _rank_counts(state):
    counts = np.zeros(NUM_RANKS, dtype=np.int64)
    for c in range(NUM_CARDS):
        if state[S_HAND + c] > 0.5:
            counts[c // 4] += 1
    return counts


@njit(cache=True)
def _breaks(action, counts) -> float:
    """How many ranks the move splits: it takes fewer cards of them than I hold (2 or more)."""
    kind, rank = ACTION_KIND[action], ACTION_TOP[action] // 4
    if kind <= K_QUAD:
        return 1.0 if counts[rank] > kind and counts[rank] >= 2 else 0.0
    per_rank = 1 if kind <= K_LAST_STRAIGHT else 2
    broken = 0.0
    for r in range(lowest_rank(action), rank + 1):
        if counts[r] > per_rank and counts[r] >= 2:
            broken += 1.0
    return broken


@njit(cache=True)
def shedder_cost(a, counts, leading, closest, endgame, table_top) -> float:
    """What the shedder thinks playing ``a`` costs (it plays the cheapest; see ``shedder_action``)."""
    n = cards_in(a)
    kind, rank = ACTION_KIND[a], ACTION_TOP[a] // 4
    high = rank == TWO or kind == K_QUAD or kind > K_LAST_STRAIGHT
    cost = BREAK_PENALTY * _breaks(a, counts)
    if leading:
        cost += 10.0 * lowest_rank(a) - n + ACTION_TOP[a] * 0.01
        if closest <= 1.0 and kind == K_SINGLE:
            cost += 200.0 - 8.0 * rank  # keep singles from the player about to go out, or lead high
    else:
        cost += ACTION_TOP[a] * 1.0
    if high and not endgame and not (table_top >= 0 and table_top // 4 == TWO):
        cost += HIGH_PENALTY if leading else 10 * HIGH_PENALTY
    return cost


@njit(cache=True)
def shedder_action(state) -> int:
    """The level-1 choice."""
    valid = getValidActions(state)
    if not moving(state):
        return PASS
    counts = _rank_counts(state)
    in_hand = 0
    for r in range(NUM_RANKS):
        in_hand += counts[r]
    players = int(state[S_PLAYERS]) if 2.0 <= state[S_PLAYERS] <= 4.0 else 4
    closest = 13.0
    for rel in range(players - 1):
        closest = min(closest, state[S_COUNTS + rel])
    table_kind, table_top = table_combination(state)
    leading = table_kind == K_NONE
    endgame = closest <= 3.0 or in_hand <= 4
    best, best_cost = PASS, 1e18
    for a in range(1, NUM_ACTIONS):
        if valid[a] != 1.0:
            continue
        if cards_in(a) == in_hand:
            return a  # going out
        cost = shedder_cost(a, counts, leading, closest, endgame, table_top)
        if cost < best_cost:
            best, best_cost = a, cost
    if best == PASS:
        return PASS
    if not leading and valid[PASS] == 1.0 and best_cost >= 10 * HIGH_PENALTY:
        return PASS  # a Two or a bomb to spare: keep it
    return best


@njit(cache=True)
def shedder(state, data):
    """Shedder: sheds its lowest cards in the biggest combinations, beats cheaply, saves Twos and bombs."""
    return shedder_action(state), data


@njit(cache=True)
def rollout_winner(env) -> int:
    """Finish the game with shedder players; the winner, or -1 if it runs too long."""
    for _ in range(MAX_ROLLOUT_STEPS):
        winner = checkEnded(env)
        if winner >= 0:
            return winner
        stepEnv(shedder_action(getAgentState(env)), env)
    return checkEnded(env)


@njit(cache=True)
def candidates(state, valid):
    """Up to MAX_CANDIDATES valid moves: the shedder's choice, pass when allowed, then the others in
    the order of their lowest rank and size."""
    order = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    keys = np.full(NUM_ACTIONS, 1e18)
    first = shedder_action(state)
    n = 0
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            order[n] = a
            if a == first:
                keys[n] = -2.0
            elif a == PASS:
                keys[n] = -1.0
            else:
                keys[n] = 10.0 * lowest_rank(a) - cards_in(a) + 0.01 * ACTION_TOP[a]
            n += 1
    chosen = order[np.argsort(keys[:n])]
    return chosen[: min(n, MAX_CANDIDATES)]


@njit(cache=True)
def rollouts_scores(state, rounds):
    """(the candidate moves, how many of ``rounds`` determinized deals each won); no deals are played
    when there is one candidate or none."""
    valid = getValidActions(state)
    moves = candidates(state, valid)
    wins = np.zeros(moves.shape[0])
    if moves.shape[0] <= 1:
        return moves, wins
    for _ in range(rounds):
        root = sampleEnv(state)
        me = getCurrentPlayer(root)
        for i in range(moves.shape[0]):
            env = stepEnv(moves[i], root.copy())
            if rollout_winner(env) == me:
                wins[i] += 1.0
    return moves, wins


@njit(cache=True)
def rollouts_action(state, rounds) -> int:
    """Flat Monte-Carlo: the candidate that wins most often over ``rounds`` determinized deals."""
    if not moving(state):
        return PASS
    moves, wins = rollouts_scores(state, rounds)
    if moves.shape[0] <= 1:
        return moves[0] if moves.shape[0] == 1 else PASS
    best = 0
    for i in range(1, moves.shape[0]):
        if wins[i] > wins[best]:  # ties keep the earlier (the shedder's choice first)
            best = i
    return moves[best]


@njit(cache=True)
def rollouts(state, data):
    """Rollouts: flat Monte-Carlo over 12 determinized deals, shedder playouts, up to 12 candidate moves.

    ``data[0] >= 1`` sets another number of deals.
    """
    rounds = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else SEARCH_ROUNDS
    return rollouts_action(state, rounds), data


# ---- level 2: a linear scorer over the valid moves, trained to copy level 3 --------------------------

WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")
NUM_FEATURES = 48  # one weight each (see ``pass_features`` and ``move_features``)
F_SHEDDER = 0  # the feature that marks the shedder's own choice
# the learned bot's data: NUM_FEATURES weights, then a scratch it overwrites at every move
D_COUNTS = NUM_FEATURES  # 13: my cards of each rank
D_UNSEEN = D_COUNTS + NUM_RANKS  # 13: cards of each rank I have not seen (others' hands, undealt)
D_MOST_ABOVE = D_UNSEEN + NUM_RANKS  # 13: the most unseen cards of any rank above this one
D_HIGHER = D_MOST_ABOVE + NUM_RANKS  # 52: unseen cards higher than this card
D_LONE = D_HIGHER + NUM_CARDS  # 1: my lone cards (ranks of which I hold one)
D_MINE_ABOVE = D_LONE + 1  # 52: my cards higher than this card
D_FEATURES = D_MINE_ABOVE + NUM_CARDS  # NUM_FEATURES: the features of the move being scored
LEARNED_DATA_SIZE = D_FEATURES + NUM_FEATURES


@njit(cache=True)
def kind_cards(kind) -> int:
    """How many cards a combination of ``kind`` holds (0 for none)."""
    if kind <= K_QUAD:
        return max(kind, 0)
    if kind <= K_LAST_STRAIGHT:
        return kind - 2
    return 2 * (kind - 11)


@njit(cache=True)
def prepare(state, data):
    """Fill the scratch of ``data`` from my state; (cards in my hand, fewest cards of an opponent,
    the table's kind and highest card, cards of the table's owner)."""
    in_hand = 0
    for r in range(NUM_RANKS):
        data[D_COUNTS + r] = 0.0
        data[D_UNSEEN + r] = 0.0
    higher = 0.0
    for c in range(NUM_CARDS - 1, -1, -1):
        data[D_HIGHER + c] = higher
        data[D_MINE_ABOVE + c] = in_hand
        if state[S_HAND + c] > 0.5:
            data[D_COUNTS + c // 4] += 1.0
            in_hand += 1
        elif state[S_PLAYED + c] < 0.5:
            data[D_UNSEEN + c // 4] += 1.0
            higher += 1.0
    most, lone = 0.0, 0.0
    for r in range(NUM_RANKS - 1, -1, -1):
        data[D_MOST_ABOVE + r] = most
        most = max(most, data[D_UNSEEN + r])
        lone += 1.0 if data[D_COUNTS + r] == 1.0 else 0.0
    data[D_LONE] = lone
    players = int(state[S_PLAYERS]) if 2.0 <= state[S_PLAYERS] <= 4.0 else 4
    closest, owner_cards = 13.0, 13.0
    for rel in range(players - 1):
        closest = min(closest, state[S_COUNTS + rel])
        if state[S_OWNER + rel] > 0.5:
            owner_cards = state[S_COUNTS + rel]
    table_kind, table_top = table_combination(state)
    return in_hand, closest, table_kind, table_top, owner_cards


@njit(cache=True)
def pass_features(state, data, in_hand, closest, table_kind, table_top, owner_cards, out) -> None:
    """The features of passing (a follower's choice)."""
    out[:] = 0.0
    active = 0.0
    for rel in range(3):
        active += state[S_ACTIVE + rel]
    out[36] = active / 3.0
    out[37] = (in_hand - closest) / 13.0
    out[41] = owner_cards / 13.0
    out[42] = closest / 13.0
    out[43] = data[D_LONE] / 13.0
    unseen = data[D_HIGHER] + data[D_UNSEEN]  # every unseen card is higher than the Three of Spades or one
    out[44] = data[D_HIGHER + table_top] / max(unseen, 1.0) if table_top >= 0 else 0.0
    rank = table_top // 4
    out[1] = 1.0
    out[2] = 1.0 if rank == TWO else 0.0
    out[3] = 1.0 if closest <= 1.0 else 0.0
    out[4] = 1.0 if closest <= 3.0 else 0.0
    out[5] = rank / 12.0
    out[6] = in_hand / 13.0
    out[7] = kind_cards(table_kind) / 13.0
    out[8] = 1.0 if owner_cards <= 3.0 else 0.0


@njit(cache=True)
def move_features(a, data, in_hand, closest, table_top, cost, out) -> None:
    """The features of playing ``a`` (valid, not going out), from the scratch ``prepare`` filled."""
    out[:] = 0.0
    counts = data[D_COUNTS : D_COUNTS + NUM_RANKS]
    kind, top = ACTION_KIND[a], ACTION_TOP[a]
    rank, n, low = top // 4, cards_in(a), lowest_rank(a)
    lead = 1.0 if table_top < 0 else 0.0
    high = rank == TWO or kind == K_QUAD or kind > K_LAST_STRAIGHT
    endgame = closest <= 3.0 or in_hand <= 4
    last = 1.0 if closest <= 1.0 else 0.0
    out[9] = n / 13.0
    out[10] = lead * n / 13.0
    out[11] = low / 12.0
    out[12] = lead * low / 12.0
    out[13] = top / 51.0
    out[14] = lead * top / 51.0
    breaks = _breaks(a, counts)
    out[15] = breaks
    out[16] = lead * breaks
    out[17] = 1.0 if rank == TWO else 0.0
    out[18] = 1.0 if kind == K_QUAD or kind > K_LAST_STRAIGHT else 0.0
    if high:
        out[19] = 1.0 if endgame else 0.0
        out[20] = last
    if kind == K_SINGLE:
        out[21] = last
        out[22] = last * rank / 12.0
    control = 0.0  # nobody can beat it with the same kind (bombs aside)
    if kind == K_SINGLE:
        control = 1.0 if data[D_HIGHER + top] < 0.5 else 0.0
    elif kind <= K_TRIPLE:
        control = 1.0 if data[D_MOST_ABOVE + rank] < kind else 0.0
    out[23] = control
    out[24] = lead * control
    per_rank = kind if kind <= K_QUAD else (1 if kind <= K_LAST_STRAIGHT else 2)
    singles = 0.0  # change in my lone cards
    for r in range(low, rank + 1):
        before = counts[r]
        singles += (1.0 if before - per_rank == 1.0 else 0.0) - (1.0 if before == 1.0 else 0.0)
    out[25] = singles
    out[26] = lead * singles
    left = in_hand - n
    out[27] = left / 13.0
    out[28] = 1.0 if left <= 2 else 0.0
    out[29] = 1.0 if K_QUAD < kind <= K_LAST_STRAIGHT else 0.0
    out[30] = 1.0 if kind == K_PAIR or kind == K_TRIPLE else 0.0
    if table_top >= 0:
        out[31] = (top - table_top) / 51.0
    out[32] = (counts[TWO] - (n if rank == TWO and kind <= K_QUAD else 0)) / 4.0
    out[33] = cost / 100.0
    out[34] = lead * last * n / 13.0
    out[35] = data[D_UNSEEN + rank] / 4.0
    lone = data[D_LONE] + singles
    out[38] = lone / 13.0
    out[39] = lead * lone / 13.0
    out[40] = control * out[28]
    unseen = data[D_HIGHER] + data[D_UNSEEN]
    out[45] = data[D_HIGHER + top] / max(unseen, 1.0)
    out[46] = data[D_MINE_ABOVE + top] / max(in_hand, 1.0)
    out[47] = (1.0 - lead) * out[46]


@njit(cache=True)
def _score(data, out) -> float:
    total = 0.0
    for i in range(NUM_FEATURES):
        total += data[i] * out[i]
    return total


@njit(cache=True)
def learned_action(state, data) -> int:
    """The level-2 choice: the valid move the weights in ``data`` score highest (going out first)."""
    if not moving(state):
        return PASS
    in_hand, closest, table_kind, table_top, owner_cards = prepare(state, data)
    if table_kind < 0:
        return PASS
    leading = table_kind == K_NONE
    endgame = closest <= 3.0 or in_hand <= 4
    out = data[D_FEATURES : D_FEATURES + NUM_FEATURES]
    counts = data[D_COUNTS : D_COUNTS + NUM_RANKS]
    best, best_score, pass_score = PASS, -1e18, -1e18
    if not leading:
        pass_features(state, data, in_hand, closest, table_kind, table_top, owner_cards, out)
        best_score = pass_score = _score(data, out)
    shed, shed_cost, shed_score = PASS, 1e18, pass_score
    for c in range(NUM_CARDS):
        if state[S_HAND + c] < 0.5:
            continue
        for a in ACTIONS_BY_TOP[c]:
            if a < 0:
                break
            kind = ACTION_KIND[a]
            if not beats(kind, c, table_kind, table_top) or not can_form(state, kind, c):
                continue
            if cards_in(a) == in_hand:
                return a  # going out
            cost = shedder_cost(a, counts, leading, closest, endgame, table_top)
            move_features(a, data, in_hand, closest, table_top, cost, out)
            score = _score(data, out)
            if cost < shed_cost or (cost == shed_cost and a < shed):
                shed, shed_cost, shed_score = a, cost, score
            if score > best_score:
                best, best_score = a, score
    if not leading and shed_cost >= 10 * HIGH_PENALTY:
        shed, shed_score = PASS, pass_score  # the shedder keeps its Two or bomb
    if shed_score + data[F_SHEDDER] >= best_score:
        return shed
    return best


@njit(cache=True)
def learned(state, data):
    """Learned: a linear scorer over the valid moves (and the shedder's choice), trained to copy level 3."""
    return learned_action(state, data), data


@njit(cache=True)
def decision_rows(state, data):
    """Training rows of a decision: (its valid actions, their features with the shedder's choice
    marked); no rows when the move is forced or goes out (``learned_action`` plays those alone)."""
    rows = np.zeros((0, NUM_FEATURES))
    actions = np.zeros(0, dtype=np.int64)
    if not moving(state):
        return actions, rows
    in_hand, closest, table_kind, table_top, owner_cards = prepare(state, data)
    if table_kind < 0:
        return actions, rows
    leading = table_kind == K_NONE
    endgame = closest <= 3.0 or in_hand <= 4
    out = data[D_FEATURES : D_FEATURES + NUM_FEATURES]
    counts = data[D_COUNTS : D_COUNTS + NUM_RANKS]
    found = np.zeros(NUM_ACTIONS, dtype=np.int64)
    table = np.zeros((NUM_ACTIONS, NUM_FEATURES))
    n = 0
    if not leading:
        pass_features(state, data, in_hand, closest, table_kind, table_top, owner_cards, out)
        table[n] = out
        found[n] = PASS
        n += 1
    shed, shed_cost, shed_row = PASS, 1e18, 0
    for c in range(NUM_CARDS):
        if state[S_HAND + c] < 0.5:
            continue
        for a in ACTIONS_BY_TOP[c]:
            if a < 0:
                break
            kind = ACTION_KIND[a]
            if not beats(kind, c, table_kind, table_top) or not can_form(state, kind, c):
                continue
            if cards_in(a) == in_hand:
                return actions, rows
            cost = shedder_cost(a, counts, leading, closest, endgame, table_top)
            move_features(a, data, in_hand, closest, table_top, cost, out)
            if cost < shed_cost or (cost == shed_cost and a < shed):
                shed, shed_cost, shed_row = a, cost, n
            table[n] = out
            found[n] = a
            n += 1
    if not leading and shed_cost >= 10 * HIGH_PENALTY:
        shed_row = 0
    table[shed_row, F_SHEDDER] = 1.0
    if n < 2:
        return actions, rows
    return found[:n].copy(), table[:n].copy()


def learned_data(weights: np.ndarray | None = None) -> np.ndarray:
    """The level-2 bot's data: its weights (default: ``level2_weights.npz``'s) and the scratch."""
    return linear_bot_data(weights, WEIGHTS_FILE, NUM_FEATURES, LEARNED_DATA_SIZE, "makeenv.games.tlmn.train_level2")


LEVELS: dict[int, Any] = {1: shedder, 3: rollouts}
if WEIGHTS_FILE.exists():  # absent only while train_level2 builds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
