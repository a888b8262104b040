"""Built-in Splendor opponents. Level 0 (random) is the framework's.

* Level 1, ``greedy``: buys the best card it can afford, otherwise picks a target card (points and
  useful bonuses per missing token) and takes the tokens it lacks; returns the tokens it needs least.
* Level 2, ``ismcts``: information-set Monte Carlo tree search. Each iteration deals the cards the
  state does not show at random (``sampleEnv``), walks the tree with UCT over the moves valid in
  that deal, then plays the greedy policy for a few rounds and scores the position.

Both read only their own state (``sampleEnv`` never sees the real decks or the others' reserves).
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
    CARD_FEATURES,
    CARD_POINTS,
    E_NOBLES,
    E_PLAYERS,
    E_SEAT,
    E_STATUS,
    E_TURN,
    GOLD,
    MAX_TOKENS,
    NOBLE_COST,
    NUM_ACTIONS,
    NUM_CARDS,
    P_BONUS,
    P_POINTS,
    P_TOKENS,
    Q_BONUS,
    Q_TOKENS,
    RESERVE_SLOTS,
    S_BANK,
    S_BOARD,
    S_NOBLES,
    S_RESERVED,
    S_SEATS,
    S_TAKEN,
    SEAT_SIZE,
    getCurrentPlayer,
    getPlayerState,
    getValidActions,
    getWinners,
    sampleEnv,
    stepEnv,
)

# ---- level 1: greedy -----------------------------------------------------------------------------


@njit(cache=True)
def _missing(state, card, colour):
    """Tokens of ``colour`` I still lack for ``card`` after bonuses and tokens."""
    need = CARD_COST[card, colour] - state[S_SEATS + Q_BONUS + colour] - state[S_SEATS + Q_TOKENS + colour]
    return need if need > 0.0 else 0.0


@njit(cache=True)
def _bonus_value(state, colour):
    """How much a permanent bonus of ``colour`` is worth: 1, plus progress towards the nobles."""
    value = 1.0
    for i in range(5):
        need = state[S_NOBLES + 5 * i + colour]
        if need > 0.0 and state[S_SEATS + Q_BONUS + colour] < need:
            value += 0.4
    return value


@njit(cache=True)
def card_value(state, card):
    return 1.5 * CARD_POINTS[card] + _bonus_value(state, CARD_BONUS[card])


@njit(cache=True)
def _card_in(state, at):
    return int(state[at]) - 1


@njit(cache=True)
def target_card(state):
    """The card worth the most per token still missing (board or my reserve); -1 when none."""
    best, best_score = -1, -1.0
    for k in range(BOARD_SLOTS + RESERVE_SLOTS):
        at = S_BOARD + CARD_FEATURES * k if k < BOARD_SLOTS else S_RESERVED + CARD_FEATURES * (k - BOARD_SLOTS)
        card = _card_in(state, at)
        if card < 0 or card >= NUM_CARDS:
            continue
        missing = 0.0
        for c in range(5):
            missing += _missing(state, card, c)
        missing -= state[S_SEATS + Q_TOKENS + GOLD]
        if missing < 0.0:
            missing = 0.0
        score = card_value(state, card) / (missing + 1.0)
        if score > best_score:
            best, best_score = card, score
    return best


@njit(cache=True)
def _colour_need(state, target, colour):
    """How much I want a token of ``colour`` (the target's gap first, then general usefulness)."""
    need = 0.0
    if target >= 0:
        need = 10.0 * _missing(state, target, colour)
    return need + 0.1 * state[S_BANK + colour]


@njit(cache=True)
def greedy(state, data):
    """Level 1: buy the best affordable card, else gather tokens for a target card."""
    valid = getValidActions(state)
    target = target_card(state)
    taken = 0.0
    for c in range(5):
        taken += state[S_TAKEN + c]
    # returning tokens: give back what the target needs least, most plentiful first
    if valid[A_RETURN] + valid[A_RETURN + 1] + valid[A_RETURN + 2] + valid[A_RETURN + 3] + valid[A_RETURN + 4] > 0.0:
        best, best_score = -1, 1e18
        for c in range(5):
            if valid[A_RETURN + c] == 1.0:
                score = _colour_need(state, target, c) - state[S_SEATS + Q_TOKENS + c]
                if score < best_score:
                    best, best_score = A_RETURN + c, score
        return best, data
    if taken == 0.0:
        # buy: the affordable card with the highest value (points count most)
        best, best_score = -1, -1.0
        for card in range(NUM_CARDS):
            if valid[A_BUY + card] == 1.0:
                score = card_value(state, card)
                if score > best_score:
                    best, best_score = A_BUY + card, score
        if best >= 0:
            return best, data
    # take tokens for the target (two of a colour when it lacks two or more and the pile allows)
    best, best_score = -1, -1.0
    for c in range(5):
        if valid[A_TAKE + c] == 1.0:
            score = _colour_need(state, target, c)
            if taken == 0.0 and target >= 0 and _missing(state, target, c) >= 2.0 and state[S_BANK + c] >= 4.0:
                score += 5.0
            if score > best_score:
                best, best_score = A_TAKE + c, score
    tokens = 0.0
    for c in range(6):
        tokens += state[S_SEATS + Q_TOKENS + c]
    useful = target >= 0 and best >= 0 and _missing(state, target, best - A_TAKE) > 0.0
    if best >= 0 and (taken > 0.0 or useful or tokens <= MAX_TOKENS - 3):
        return best, data
    # nothing useful to take: reserve the target if it is on the board, else any card
    if target >= 0 and valid[A_RESERVE + target] == 1.0:
        return A_RESERVE + target, data
    if best >= 0:
        return best, data
    for a in range(A_RESERVE, A_RETURN):
        if valid[a] == 1.0:
            return a, data
    for a in range(A_RESERVE_DECK, A_PASS + 1):
        if valid[a] == 1.0:
            return a, data
    for a in range(NUM_ACTIONS):
        if valid[a] == 1.0:
            return a, data
    return A_PASS, data


# ---- level 2: information-set MCTS ------------------------------------------------------------------

ITERATIONS = 150  # simulations per decision (data[0] > 0 overrides)
HORIZON_ROUNDS = 3  # greedy play after the tree, then the position is scored
EXPLORATION = 0.7
TEMPERATURE = 1.5  # softmax temperature turning position values into win chances


@njit(cache=True)
def _candidates(state, valid, out):
    """The moves the search considers: all valid ones except reserving cards other than the greedy
    target (the target stays, and so does everything when reserving is all there is)."""
    target = target_card(state)
    count = 0
    for a in range(NUM_ACTIONS):
        out[a] = 0.0
        if valid[a] == 1.0:
            reserve = (A_RESERVE <= a < A_RETURN and a - A_RESERVE != target) or A_RESERVE_DECK <= a < A_PASS
            if not reserve:
                out[a] = 1.0
                count += 1
    if count == 0:
        for a in range(NUM_ACTIONS):
            out[a] = valid[a]
            if valid[a] == 1.0:
                count += 1
    return count


@njit(cache=True)
def _position_values(env, out):
    """Each player's chance of winning from ``env``: 1 for the winners of a finished game, else a
    softmax of points plus bonuses, noble progress and tokens."""
    players = int(env[E_PLAYERS])
    if env[E_STATUS] >= 0.0:
        won = getWinners(env)
        for p in range(players):
            out[p] = won[p]
        return
    total = 0.0
    for p in range(players):
        seat = E_SEAT + SEAT_SIZE * p
        value = env[seat + P_POINTS]
        for c in range(5):
            value += 0.35 * env[seat + P_BONUS + c] + 0.1 * env[seat + P_TOKENS + c]
        value += 0.15 * env[seat + P_TOKENS + 5]
        for i in range(5):
            noble = int(env[E_NOBLES + i])
            if noble >= 0:
                lack = 0.0
                for c in range(5):
                    gap = NOBLE_COST[noble, c] - env[seat + P_BONUS + c]
                    if gap > 0.0:
                        lack += gap
                if lack <= 3.0:
                    value += (3.0 - lack) * 0.25
        out[p] = np.exp(value / TEMPERATURE)
        total += out[p]
    for p in range(players):
        out[p] /= total


@njit(cache=True)
def ismcts(state, data):
    """Level 2: information-set MCTS with determinization (``sampleEnv``) and greedy playouts."""
    valid = getValidActions(state)
    root_moves = np.zeros(NUM_ACTIONS)
    if _candidates(state, valid, root_moves) == 1:
        for a in range(NUM_ACTIONS):
            if root_moves[a] == 1.0:
                return a, data
    iterations = max(1, int(data[0])) if data.shape[0] > 0 and data[0] > 0.0 else ITERATIONS
    size = iterations + 2
    child = np.full((size, NUM_ACTIONS), -1, dtype=np.int32)
    visits = np.zeros(size)
    wins = np.zeros(size)
    avail = np.zeros(size)
    mover = np.zeros(size, dtype=np.int64)  # who chose the move leading into the node
    path = np.zeros(size + 1, dtype=np.int64)
    moves = np.zeros(NUM_ACTIONS)
    values = np.zeros(4)
    nodes = 1
    for _ in range(iterations):
        env = sampleEnv(state)
        players = int(env[E_PLAYERS])
        node = 0
        depth = 0
        path[0] = 0
        expanded = False
        a = -1
        while env[E_STATUS] < 0.0 and not expanded:
            player = getCurrentPlayer(env)
            s = getPlayerState(env, player)
            _candidates(s, getValidActions(s), moves)
            untried = 0
            for a in range(NUM_ACTIONS):
                if moves[a] == 1.0 and child[node, a] < 0:
                    untried += 1
            if untried > 0 and nodes < size:
                k = int(np.random.random() * untried)
                for a in range(NUM_ACTIONS):
                    if moves[a] == 1.0 and child[node, a] < 0:
                        if k == 0:
                            break
                        k -= 1
                child[node, a] = nodes
                mover[nodes] = player
                node = nodes
                nodes += 1
                expanded = True
            else:
                best, best_score = -1, -1e18
                for b in range(NUM_ACTIONS):
                    if moves[b] == 1.0 and child[node, b] >= 0:
                        c = child[node, b]
                        avail[c] += 1.0
                        score = wins[c] / visits[c] + EXPLORATION * np.sqrt(np.log(avail[c]) / visits[c])
                        if score > best_score:
                            best, best_score = b, score
                if best < 0:
                    break
                a = best
                node = child[node, a]
            stepEnv(a, env)
            depth += 1
            path[depth] = node
        # greedy playout for a few rounds, then score the position
        stop = env[E_TURN] + HORIZON_ROUNDS * players
        while env[E_STATUS] < 0.0 and env[E_TURN] < stop:
            s = getPlayerState(env, getCurrentPlayer(env))
            a, data = greedy(s, data)
            stepEnv(a, env)
        _position_values(env, values)
        for d in range(1, depth + 1):
            n = path[d]
            visits[n] += 1.0
            wins[n] += values[mover[n]]
    best, most = -1, -1.0
    for a in range(NUM_ACTIONS):
        if root_moves[a] == 1.0:
            c = child[0, a]
            count = visits[c] if c >= 0 else 0.0
            if count > most:
                best, most = a, count
    return best, data


LEVELS = {1: greedy, 2: ismcts}
