"""Built-in Splendor opponents. Level 0 (random) is the framework's.

* Level 1, ``greedy``: buys the best card it can afford, otherwise picks a target card (points and
  useful bonuses per missing token) and takes the tokens it lacks; returns the tokens it needs least.
* Level 2, ``learned``: a small network (``level2_weights.npz``) trained by
  ``python -m makeenv.learn.imitate`` (the commands are in the README) on the visit shares of level
  3's search (``confident_shares``: how often its simulations went through each move, not only the
  move it picks). It sees the state through ``policy_view``: the colours ordered by how much greedy wants
  them and the cards ranked by greedy's score, so one pattern serves every colour and every slot;
  it plays the valid action it scores highest.
* Level 3, ``ismcts``: information-set Monte Carlo tree search. Each iteration deals the cards the
  state does not show at random (``sampleEnv``), walks the tree with UCT over the moves valid in
  that deal, then plays the greedy policy for a few rounds and scores the position. Its budget:
  ``ITERATIONS`` simulations a move, or ``data[0]`` when it is above 0.

Every bot reads only its own state (``sampleEnv`` never sees the real decks or the others' reserves).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import load_policy_data, mlp_action

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
    Q_POINTS,
    Q_RESERVED,
    Q_TOKENS,
    RESERVE_SLOTS,
    S_BANK,
    S_BOARD,
    S_DECK,
    S_NOBLES,
    S_OVER,
    S_PLAYERS,
    S_RESERVED,
    S_SEATS,
    S_TAKEN,
    S_TO_MOVE,
    S_TURN,
    SEAT_SIZE,
    STATE_SEAT,
    _may_take,
    _my_tokens,
    _reserve_space,
    _taken,
    can_afford,
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


# ---- level 3: information-set MCTS ------------------------------------------------------------------

ITERATIONS = 150  # simulations per decision (data[0] > 0 overrides)
HORIZON_ROUNDS = 3  # greedy play after the tree, then the position is scored
EXPLORATION = 0.7
TEMPERATURE = 1.5  # softmax temperature turning position values into win chances
WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")
# level 2's teacher plays the search's move when its share of the simulations is at least
# CONFIDENT_RATIO times that of greedy's move plus CONFIDENT_MARGIN, else greedy's
CONFIDENT_RATIO = 1.5
CONFIDENT_MARGIN = 0.02


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
def search_shares(state, iterations, shares):
    """The search's move; ``shares[a]``: the share of the root simulations that went through move
    ``a`` (1 for a forced move, 0 for the moves it did not consider)."""
    valid = getValidActions(state)
    root_moves = np.zeros(NUM_ACTIONS)
    shares[:] = 0.0
    if _candidates(state, valid, root_moves) == 1:
        for a in range(NUM_ACTIONS):
            if root_moves[a] == 1.0:
                shares[a] = 1.0
                return a
    data = np.zeros(1)  # the greedy playouts' (unused) data
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
    best, most, total = -1, -1.0, 0.0
    for a in range(NUM_ACTIONS):
        if root_moves[a] == 1.0:
            c = child[0, a]
            count = visits[c] if c >= 0 else 0.0
            shares[a] = count
            total += count
            if count > most:
                best, most = a, count
    for a in range(NUM_ACTIONS):
        shares[a] /= max(total, 1.0)
    return best


@njit(cache=True)
def ismcts(state, data):
    """Level 3: information-set MCTS with determinization (``sampleEnv``) and greedy playouts.

    ``data[0] > 0`` sets another number of simulations a move (the level's: ``ITERATIONS``).
    """
    iterations = max(1, int(data[0])) if data.shape[0] > 0 and data[0] > 0.0 else ITERATIONS
    return search_shares(state, iterations, np.zeros(NUM_ACTIONS)), data


@njit(cache=True)
def confident_shares(state):
    """Level 2's teacher (``makeenv.learn.imitate --teacher-shares``): the share of level 3's
    simulations that went through each move (what the network learns), and the move it plays: the
    search's when its share is at least ``CONFIDENT_RATIO`` times that of greedy's move plus
    ``CONFIDENT_MARGIN``, else greedy's."""
    shares = np.zeros(NUM_ACTIONS)
    action = search_shares(state, ITERATIONS, shares)
    choice, _ = greedy(state, shares)  # greedy leaves its data alone
    if shares[action] >= CONFIDENT_RATIO * shares[choice] + CONFIDENT_MARGIN:
        return action, shares
    return choice, shares


# ---- level 2: a network trained on the search's visit shares ----------------------------------------

# Level 2's network sees the state through a canonical view: colours ordered by how much greedy
# wants them and cards ranked by greedy's score, so the same pattern serves every colour and every
# slot. The view's actions name colours and ranks, not the game's colours and card ids:
V_TAKE = 0  # 0..4: take a token of the colour of rank 0..4
V_BUY = 5  # 5..19: buy the card of rank 0..14 (face-up cards and my reserve together)
V_RESERVE = 20  # 20..34: reserve the card of rank 0..14 (a face-up one)
V_RETURN = 35  # 35..39: return a token of the colour of rank 0..4
V_DECK = 40  # 40..42: reserve the top card of the level 1, 2, 3 deck
V_PASS = 43
V_ACTIONS = 44  # the view's actions 44..193 stand for the game's actions no rank names (never valid)
POSITIONS = BOARD_SLOTS + RESERVE_SLOTS
SEEN_RANKS = 5  # the network reads the cards of the first 5 ranks (the search buys others in 4% of its buys)
# the view's inputs, every colour in the colour order (89 values)
F_CARD = 12  # per rank: points, bonus (5), cost after my bonuses (5), what my tokens and gold do not cover
X_CARDS = 0
X_BANK = X_CARDS + F_CARD * SEEN_RANKS  # bank tokens (5, gold), taken this turn (5)
X_ME = X_BANK + 11  # my tokens (5, gold), bonuses (5), points
X_GAME = X_ME + 12  # the others' points (3, in seat order after me), players, round, my reserved cards
VIEW_SIZE = X_GAME + 6
# level 2's working space after the weights: the view, its valid actions, the colour order, the
# positions by rank, their scores, the colours' worth and want
W_SEEN = 0
W_VALID = W_SEEN + VIEW_SIZE
W_COLOURS = W_VALID + NUM_ACTIONS
W_RANKED = W_COLOURS + 5
W_SCORES = W_RANKED + POSITIONS
W_NEEDS = W_SCORES + POSITIONS
SCRATCH = W_NEEDS + 5


@njit(cache=True)
def _position_card(state, k):
    """The card in position ``k`` (face-up slots 0..11, then my reserve slots), -1 when empty."""
    at = S_BOARD + CARD_FEATURES * k if k < BOARD_SLOTS else S_RESERVED + CARD_FEATURES * (k - BOARD_SLOTS)
    card = int(state[at]) - 1
    return card if card < NUM_CARDS else -1


@njit(cache=True)
def _order(state, work):
    """Rank the positions by greedy's score (``target_card``'s: rank 0 is its target; empty
    positions last, ties by position) and the colours by greedy's want of them (most first)."""
    me = S_SEATS
    gold = state[me + Q_TOKENS + GOLD]
    worth = work[W_NEEDS : W_NEEDS + 5]  # a bonus's worth to me (``_bonus_value``) while ranking
    for c in range(5):
        worth[c] = _bonus_value(state, c)
    ranked = work[W_RANKED : W_RANKED + POSITIONS]
    scores = work[W_SCORES : W_SCORES + POSITIONS]
    for k in range(POSITIONS):
        card = _position_card(state, k)
        score = -1.0
        if card >= 0:
            missing = -gold
            for c in range(5):
                gap = CARD_COST[card, c] - state[me + Q_BONUS + c] - state[me + Q_TOKENS + c]
                if gap > 0.0:
                    missing += gap
            score = (1.5 * CARD_POINTS[card] + worth[CARD_BONUS[card]]) / (max(missing, 0.0) + 1.0)
        scores[k] = score
        j = k
        while j > 0 and scores[int(ranked[j - 1])] < score:
            ranked[j] = ranked[j - 1]
            j -= 1
        ranked[j] = k
    target = _position_card(state, int(ranked[0]))
    colours = work[W_COLOURS : W_COLOURS + 5]
    needs = work[W_NEEDS : W_NEEDS + 5]
    for i in range(5):
        needs[i] = _colour_need(state, target, i)
        j = i
        while j > 0 and needs[int(colours[j - 1])] < needs[i]:
            colours[j] = colours[j - 1]
            j -= 1
        colours[j] = i


@njit(cache=True)
def view_action(state, work, v) -> int:
    """The game's action for the view's action ``v`` (< V_ACTIONS) under the orders in ``work``;
    -1 when it names no card."""
    if v < V_BUY:
        return A_TAKE + int(work[W_COLOURS + v - V_TAKE])
    if v < V_RESERVE:
        card = _position_card(state, int(work[W_RANKED + v - V_BUY]))
        return A_BUY + card if card >= 0 else -1
    if v < V_RETURN:
        k = int(work[W_RANKED + v - V_RESERVE])
        card = _position_card(state, k) if k < BOARD_SLOTS else -1
        return A_RESERVE + card if card >= 0 else -1
    if v < V_DECK:
        return A_RETURN + int(work[W_COLOURS + v - V_RETURN])
    if v < V_PASS:
        return A_RESERVE_DECK + v - V_DECK
    return A_PASS


@njit(cache=True)
def write_view(state, work):
    """Fill the working space ``work`` (SCRATCH values) from my own state: the view level 2's
    network reads (``work[W_SEEN:W_VALID]``), the orders that map the view's actions to the game's
    and the valid actions in the view's terms (``work[W_VALID:W_COLOURS]``, the rules of
    ``getValidActions``); returns how many actions are valid."""
    _order(state, work)
    seen = work[W_SEEN:W_VALID]
    seen[:] = 0.0
    colours = work[W_COLOURS : W_COLOURS + 5]
    me = S_SEATS
    gold = state[me + Q_TOKENS + GOLD]
    for r in range(SEEN_RANKS):
        card = _position_card(state, int(work[W_RANKED + r]))
        if card < 0:
            break
        x = X_CARDS + F_CARD * r
        seen[x] = CARD_POINTS[card]
        lack = -gold
        for i in range(5):
            c = int(colours[i])
            if CARD_BONUS[card] == c:
                seen[x + 1 + i] = 1.0
            cost = CARD_COST[card, c] - state[me + Q_BONUS + c]
            if cost > 0.0:
                seen[x + 6 + i] = cost
                if cost > state[me + Q_TOKENS + c]:
                    lack += cost - state[me + Q_TOKENS + c]
        seen[x + 11] = max(lack, 0.0)
    for i in range(5):
        c = int(colours[i])
        seen[X_BANK + i] = state[S_BANK + c]
        seen[X_BANK + 6 + i] = state[S_TAKEN + c]
        seen[X_ME + i] = state[me + Q_TOKENS + c]
        seen[X_ME + 6 + i] = state[me + Q_BONUS + c]
    seen[X_BANK + 5] = state[S_BANK + GOLD]
    seen[X_ME + 5] = gold
    seen[X_ME + 11] = state[me + Q_POINTS]
    for r in range(1, 4):
        seen[X_GAME + r - 1] = state[S_SEATS + STATE_SEAT * r + Q_POINTS]
    players = state[S_PLAYERS]
    seen[X_GAME + 3] = players
    seen[X_GAME + 4] = np.floor(state[S_TURN] / max(players, 1.0))
    for level in range(3):
        seen[X_GAME + 5] += state[me + Q_RESERVED + level]
    return _write_valid(state, work)


@njit(cache=True)
def _write_valid(state, work):
    """``getValidActions`` in the view's terms, into ``work[W_VALID:W_COLOURS]``; the count."""
    valid = work[W_VALID:W_COLOURS]
    valid[:V_ACTIONS] = 0.0
    count = 0
    if not (state[S_OVER] == 0.0 and state[S_TO_MOVE] == 1.0):
        valid[V_PASS] = 1.0
        return 1
    colours = work[W_COLOURS : W_COLOURS + 5]
    taken = _taken(state)
    if taken > 0.0:
        for i in range(5):
            if _may_take(state, int(colours[i]), taken):
                valid[V_TAKE + i] = 1.0
                count += 1
        return count
    if _my_tokens(state) > MAX_TOKENS:
        for i in range(5):
            if state[S_SEATS + Q_TOKENS + int(colours[i])] > 0.0:
                valid[V_RETURN + i] = 1.0
                count += 1
        return count
    for i in range(5):
        if state[S_BANK + int(colours[i])] > 0.0:
            valid[V_TAKE + i] = 1.0
            count += 1
    space = _reserve_space(state)
    for r in range(POSITIONS):
        k = int(work[W_RANKED + r])
        card = _position_card(state, k)
        if card < 0:
            break
        if can_afford(state, card):
            valid[V_BUY + r] = 1.0
            count += 1
        if space and k < BOARD_SLOTS:
            valid[V_RESERVE + r] = 1.0
            count += 1
    if space:
        for level in range(3):
            if state[S_DECK + level] > 0.0:
                valid[V_DECK + level] = 1.0
                count += 1
    if count == 0:
        valid[V_PASS] = 1.0
        count = 1
    return count


@njit(cache=True)
def policy_view(state):
    """The state as level 2's network sees it (``write_view``) and the map from the view's actions
    to the game's (a permutation: the ranked actions first, then those no rank names), as
    ``makeenv.learn.imitate`` takes a view."""
    work = np.zeros(SCRATCH)
    write_view(state, work)
    actions = np.full(NUM_ACTIONS, -1, dtype=np.int64)
    used = np.zeros(NUM_ACTIONS, dtype=np.bool_)
    for v in range(V_ACTIONS):
        a = view_action(state, work, v)
        if a >= 0:
            actions[v] = a
            used[a] = True
    free = 0
    for v in range(NUM_ACTIONS):
        if actions[v] < 0:
            while used[free]:
                free += 1
            actions[v] = free
            used[free] = True
    return work[W_SEEN:W_VALID].copy(), actions


@njit(cache=True)
def learned(state, data):
    """Level 2: a small network trained by makeenv.learn.imitate on the search's visit shares."""
    if not (state[S_OVER] == 0.0 and state[S_TO_MOVE] == 1.0):
        return A_PASS, data  # the final turn: nothing to decide
    work = data[data.shape[0] - SCRATCH :]
    valid = work[W_VALID:W_COLOURS]
    if write_view(state, work) == 1:  # a forced move
        for v in range(V_ACTIONS):
            if valid[v] == 1.0:
                return view_action(state, work, v), data
    choice = mlp_action(work[W_SEEN:W_VALID], data, valid)
    return (view_action(state, work, choice) if choice >= 0 else A_PASS), data


def learned_data(path: Path = WEIGHTS_FILE) -> np.ndarray:
    """Level 2's bot data: the packed network of ``path`` and the working space ``learned`` writes."""
    return load_policy_data(path, VIEW_SIZE, NUM_ACTIONS, scratch=SCRATCH)


LEVELS: dict[int, Any] = {1: greedy, 3: ismcts}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
