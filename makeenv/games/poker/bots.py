"""Built-in Hold'em opponents. Level 0 (random) is the framework's.

* Level 1, ``tight``: rates its hand from its own cards (pre-flop: pairs, high cards, suited and
  connected cards; after the flop: what its hole cards add to the board, from the evaluator) and
  plays by the rating: raises the pot with a strong hand, bets half the pot or calls a fair price
  with a good one, checks or folds the rest.
* Level 2, ``learned``: a small network (``level2_weights.npz``) trained by
  ``python -m makeenv.learn.imitate`` (the commands are in the README) to copy level 3. It sees a
  compact view of its own state (``policy_view``): level 1's rating of its cards, its made hand and
  the board's, draws, the street, the players left in the hand and what their latest actions
  suggest, the price of a call, the pot odds, its chips and level 1's choice; no equity is
  computed, so it plays whole games some 200 times as fast as level 3.
* Level 3, ``equity``: Monte Carlo equity. Each of ``EQUITY_SAMPLES`` samples deals the unseen
  cards at random (the other hands and the board to come), each opponent's hole cards redrawn
  until level 1's rating of them fits its latest action (a pot raise or all-in: strong; a smaller
  raise: good; a call of a bet: fair), and counts the share of the pot its hand would win at the
  showdown. It raises when that share is well above a fair share, calls when it beats the pot
  odds, bets half the pot into a hand where nobody has shown strength (level 1 folds most hands
  to a bet), and folds otherwise. Every bot reads nothing but its own state.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numba import njit

from makeenv.array.agents import Bot
from makeenv.learn.policy import load_policy_data, mlp_action

from .logic import (
    ALL_IN,
    B_ACTED,
    B_ACTIVE,
    B_ALL_IN,
    B_BET,
    B_CHIPS,
    B_COMMITTED,
    B_LAST_ACTION,
    BIG_BLIND,
    CALL,
    FOLD,
    HALF_POT,
    MIN_RAISE,
    NUM_ACTIONS,
    NUM_CARDS,
    POT,
    S_BOARD,
    S_CAN_RAISE,
    S_HOLE,
    S_MY_TURN,
    S_OVER,
    S_PLAYERS,
    S_POT,
    S_SEATS,
    S_STREET,
    S_TO_CALL,
    STATE_BLOCK,
    hand_score,
    isValidAction,
)

WEIGHTS_FILE = Path(__file__).with_name("level2_weights.npz")
STRONG, GOOD, FAIR = 0.8, 0.6, 0.45  # level 1's ratings: raise the pot, bet half / call, call cheaply
EQUITY_SAMPLES = 200  # deals per decision of the level-3 bot (data[0] >= 1 overrides it)
STEAL = 0.5  # level 2 bets into a hand nobody has shown strength in with this share of a fair equity
REDRAWS = 30  # tries to deal a seat hole cards that fit its latest action


@njit(cache=True)
def read_cards(state, hole, board) -> int:
    """Fill ``hole`` (2) and ``board`` (5) with my cards and the board shown; return the board count."""
    h, k = 0, 0
    for c in range(NUM_CARDS):
        if state[S_HOLE + c] > 0.5 and h < 2:
            hole[h] = c
            h += 1
        if state[S_BOARD + c] > 0.5 and k < 5:
            board[k] = c
            k += 1
    return k


@njit(cache=True)
def start_rating(a, b) -> float:
    """How good two hole cards are before the flop, about 0.2 (7-2) to 0.97 (a pair of Aces)."""
    ra, rb = a >> 2, b >> 2
    high, low = max(ra, rb), min(ra, rb)
    if high == low:
        return 0.55 + 0.035 * high
    rating = 0.7 * (high + low) / 24.0
    if (a & 3) == (b & 3):
        rating += 0.05
    gap = high - low
    if gap == 1:
        rating += 0.04
    elif gap == 2:
        rating += 0.02
    return rating


@njit(cache=True)
def board_and_hand(a, b, board, count, scratch):
    """The board's own hand category and the score of the board with hole cards ``a``, ``b``
    (``scratch``: 7 free slots; it ends holding the board's ``count`` cards, then ``a`` and ``b``)."""
    for i in range(count):
        scratch[i] = board[i]
    board_category = hand_score(scratch, count) >> 20
    scratch[count] = a
    scratch[count + 1] = b
    return board_category, hand_score(scratch, count + 2)


@njit(cache=True)
def made_rating(a, b, board, count, scratch) -> float:
    """How good hole cards ``a``, ``b`` are after the flop: what they add to the board's own hand
    (``scratch``: 7 free slots)."""
    board_category, score = board_and_hand(a, b, board, count, scratch)
    category = score >> 20
    if category <= board_category:
        return 0.2  # the hole cards add nothing: the board plays
    if category == 1:  # one pair: better when it pairs the top of the board
        top = 0
        for i in range(count):
            top = max(top, board[i] >> 2)
        pair = (score >> 16) & 15
        return 0.62 if pair >= top else 0.45
    return min(0.55 + 0.08 * category, 1.0)


@njit(cache=True)
def rating(a, b, board, count, scratch) -> float:
    """Level 1's rating of hole cards ``a``, ``b`` with the first ``count`` board cards."""
    return start_rating(a, b) if count == 0 else made_rating(a, b, board, count, scratch)


@njit(cache=True)
def raise_or_call(state, preferred) -> int:
    """``preferred`` (a raise) when valid, else the next smaller raise, else check/call."""
    for action in (preferred, POT, HALF_POT, MIN_RAISE, ALL_IN):
        if action <= preferred and isValidAction(state, action):
            return action
    return CALL


@njit(cache=True)
def tight_choice(state, value) -> int:
    """Level 1's choice given its rating ``value`` of my cards (``tight_action`` rates them first)."""
    to_call = state[S_TO_CALL]
    pot = state[S_POT]
    if value >= STRONG:
        return raise_or_call(state, POT)
    if value >= GOOD:
        if to_call == 0.0:
            return raise_or_call(state, HALF_POT)
        return CALL if to_call <= 0.75 * pot + BIG_BLIND else FOLD
    if value >= FAIR:
        return CALL if to_call <= max(0.3 * pot, BIG_BLIND) else FOLD
    return CALL if to_call == 0.0 else FOLD


@njit(cache=True)
def tight_action(state) -> int:
    """The level-1 choice from the hand's rating and the price of a call."""
    if state[S_OVER] > 0.5 or state[S_MY_TURN] < 0.5:
        return 0
    hole = np.zeros(2, dtype=np.int64)
    board = np.zeros(5, dtype=np.int64)
    count = read_cards(state, hole, board)
    value = rating(hole[0], hole[1], board, count, np.empty(7, dtype=np.int64))
    return tight_choice(state, value)


@njit(cache=True)
def tight(state, data):
    """Tight: plays strong hands hard, good hands at a fair price and folds the rest."""
    return tight_action(state), data


# ---- level 3 -----------------------------------------------------------------------------------


@njit(cache=True)
def implied_rating(state, base) -> float:
    """The level-1 rating a seat's latest action in this hand suggests it holds at least: a pot
    raise or an all-in STRONG, a smaller raise GOOD, a call of a bet FAIR, else nothing."""
    last = int(state[base + B_LAST_ACTION]) - 1
    if last == POT or last == ALL_IN:
        return STRONG
    if last == HALF_POT or last == MIN_RAISE:
        return GOOD
    if last == CALL and state[base + B_BET] > 0.0 and state[base + B_COMMITTED] > BIG_BLIND:
        return FAIR
    return 0.0


@njit(cache=True)
def equity(state, samples) -> float:
    """My expected share of the pot at a showdown against the seats still in the hand, over
    ``samples`` random deals of the unseen cards; each seat's cards are redrawn (up to REDRAWS
    times) until level 1 would rate them as its latest action suggests."""
    n = int(state[S_PLAYERS])
    hole = np.zeros(2, dtype=np.int64)
    board = np.zeros(5, dtype=np.int64)
    shown = read_cards(state, hole, board)
    pool = np.empty(NUM_CARDS, dtype=np.int64)
    count = 0
    for c in range(NUM_CARDS):
        if state[S_HOLE + c] < 0.5 and state[S_BOARD + c] < 0.5:
            pool[count] = c
            count += 1
    wanted = np.zeros(8, dtype=np.float64)  # per opponent still in the hand
    k = 0
    for rel in range(1, n):
        base = S_SEATS + rel * STATE_BLOCK
        if state[base + B_ACTIVE] > 0.5 and k < 8:
            wanted[k] = implied_rating(state, base)
            k += 1
    if k == 0:
        return 1.0
    cards = np.empty(7, dtype=np.int64)
    scratch = np.empty(7, dtype=np.int64)
    need = 5 - shown + 2 * k
    total = 0.0
    for _ in range(samples):
        # a random permutation's prefix: the board to come, then two cards per opponent
        for i in range(need):
            j = i + int(np.random.random() * (count - i))
            pool[i], pool[j] = pool[j], pool[i]
        for o in range(k):
            first = 5 - shown + 2 * o
            for _try in range(REDRAWS):
                if wanted[o] <= 0.0 or rating(pool[first], pool[first + 1], board, shown, scratch) >= wanted[o]:
                    break
                for slot in (first, first + 1):  # swap in two cards nobody holds in this deal
                    j = need + int(np.random.random() * (count - need))
                    pool[slot], pool[j] = pool[j], pool[slot]
        for i in range(shown):
            cards[i] = board[i]
        for i in range(shown, 5):
            cards[i] = pool[i - shown]
        cards[5] = hole[0]
        cards[6] = hole[1]
        mine = hand_score(cards, 7)
        best_other, ties = -1, 0
        for o in range(k):
            first = 5 - shown + 2 * o
            cards[5] = pool[first]
            cards[6] = pool[first + 1]
            theirs = hand_score(cards, 7)
            if theirs > best_other:
                best_other, ties = theirs, 1
            elif theirs == best_other:
                ties += 1
        if mine > best_other:
            total += 1.0
        elif mine == best_other:
            total += 1.0 / (ties + 1)
    return total / samples


@njit(cache=True)
def equity_action(state, samples) -> int:
    """The level-3 choice: compare the Monte Carlo equity with the pot odds and a fair share;
    bet half the pot into a hand where nobody has shown strength (level 1 folds most hands)."""
    if state[S_OVER] > 0.5 or state[S_MY_TURN] < 0.5:
        return 0
    n = int(state[S_PLAYERS])
    in_hand, strength_shown = 1, False
    for rel in range(1, n):
        base = S_SEATS + rel * STATE_BLOCK
        if state[base + B_ACTIVE] > 0.5:
            in_hand += 1
            strength_shown = strength_shown or implied_rating(state, base) > 0.0
    share = equity(state, samples)
    fair = 1.0 / in_hand
    to_call = state[S_TO_CALL]
    pot = state[S_POT]
    price = min(to_call, state[S_SEATS + B_CHIPS])
    odds = price / (pot + price) if price > 0.0 else 0.0
    if share >= max(0.6, 2.0 * fair):
        return raise_or_call(state, POT)
    if share >= max(0.45, 1.4 * fair) or (not strength_shown and to_call <= BIG_BLIND and share >= STEAL * fair):
        return raise_or_call(state, HALF_POT) if to_call <= BIG_BLIND else CALL
    if to_call == 0.0 or share >= odds + 0.05:
        return CALL
    return FOLD


@njit(cache=True)
def equity_bot(state, data):
    """Equity: Monte Carlo equity over 200 deals of the unseen cards, against the pot odds.

    ``data[0] >= 1`` sets another number of deals.
    """
    samples = int(data[0]) if data.shape[0] > 0 and data[0] >= 1.0 else EQUITY_SAMPLES
    action = equity_action(state, samples)
    return (action if 0 <= action < NUM_ACTIONS else CALL), data


# ---- level 2 -----------------------------------------------------------------------------------

VIEW_SIZE = 48  # the values policy_view gives (see _fill_view)
SCRATCH = VIEW_SIZE + NUM_ACTIONS + 14  # the tail of level 2's data: the view, the valid actions, 14 cards


@njit(cache=True)
def _straight_draw(mask) -> bool:
    """Four of five consecutive ranks (the Ace also low) in the rank bit mask ``mask``."""
    full = (mask << 1) | ((mask >> 12) & 1)  # bit 0: the Ace as a one
    for low in range(10):
        window = (full >> low) & 31
        ones = 0
        for b in range(5):
            ones += (window >> b) & 1
        if ones == 4:
            return True
    return False


@njit(cache=True)
def _fill_view(state, seen, cards) -> None:
    """Write level 2's view of ``state`` into ``seen`` (VIEW_SIZE values); ``cards``: 14 free int64
    slots. Nothing is allocated. The values, all from my own state:

    0 level 1's rating of my cards, 1 its pre-flop rating, 2..10 my hand's category one-hot (after
    the flop), 11 the board's own category / 8, 12 my cards improve the board's hand, 13 my pair is
    at least the board's top rank, 14, 15 my high and low ranks / 12, 16 suited, 17 a pocket pair,
    18 a flush draw, 19 a straight draw, 20..23 the street, 24 players in the hand / 9, 25 a fair
    share (1 / players in the hand), 26..28 the seats in the hand whose latest action suggests a
    strong, good, fair hand (/ 8), 29 the strongest suggestion, 30 somebody showed strength,
    31 the pot odds of a call, 32 the call in big blinds / 50, 33 the pot / 200, 34 nothing to call,
    35 at most a big blind to call, 36 my chips / 200, 37 I may raise, 38..43 level 1's choice
    one-hot, 44 players / 9, 45 seats in the hand still to act after me / 8, 46 the call / my
    chips (capped at 1), 47 1 (a constant)."""
    seen[:] = 0.0
    hole = cards[0:2]
    board = cards[2:7]
    scratch = cards[7:14]
    shown = read_cards(state, hole, board)
    a, b = hole[0], hole[1]
    pre = start_rating(a, b)
    seen[0] = rating(a, b, board, shown, scratch)
    seen[1] = pre
    high, low = max(a >> 2, b >> 2), min(a >> 2, b >> 2)
    if shown > 0:
        board_category, score = board_and_hand(a, b, board, shown, scratch)
        category = score >> 20
        seen[2 + category] = 1.0
        seen[11] = board_category / 8.0
        seen[12] = 1.0 if category > board_category else 0.0
        top = 0
        for i in range(shown):
            top = max(top, board[i] >> 2)
        if category == 1 and ((score >> 16) & 15) >= top:
            seen[13] = 1.0
        if shown < 5:
            mask = 0
            for i in range(shown + 2):
                mask |= 1 << (scratch[i] >> 2)
            for suit in range(4):
                count = 0
                for i in range(shown + 2):
                    if (scratch[i] & 3) == suit:
                        count += 1
                if count == 4 and ((a & 3) == suit or (b & 3) == suit):
                    seen[18] = 1.0
            if category < 4 and _straight_draw(mask):
                seen[19] = 1.0
    seen[14] = high / 12.0
    seen[15] = low / 12.0
    seen[16] = 1.0 if (a & 3) == (b & 3) else 0.0
    seen[17] = 1.0 if high == low else 0.0
    for k in range(4):
        seen[20 + k] = state[S_STREET + k]
    n = int(state[S_PLAYERS])
    in_hand, strong, good, fair, most, after = 1, 0, 0, 0, 0.0, 0
    for rel in range(1, n):
        base = S_SEATS + rel * STATE_BLOCK
        if state[base + B_ACTIVE] > 0.5:
            in_hand += 1
            implied = implied_rating(state, base)
            most = max(most, implied)
            if implied >= STRONG:
                strong += 1
            elif implied >= GOOD:
                good += 1
            elif implied >= FAIR:
                fair += 1
            if state[base + B_ACTED] < 0.5 and state[base + B_ALL_IN] < 0.5:
                after += 1
    seen[24] = in_hand / 9.0
    seen[25] = 1.0 / in_hand
    seen[26] = strong / 8.0
    seen[27] = good / 8.0
    seen[28] = fair / 8.0
    seen[29] = most
    seen[30] = 1.0 if most > 0.0 else 0.0
    to_call = state[S_TO_CALL]
    pot = state[S_POT]
    chips = state[S_SEATS + B_CHIPS]
    price = min(to_call, chips)
    seen[31] = price / (pot + price) if price > 0.0 else 0.0
    seen[32] = min(to_call / BIG_BLIND / 50.0, 4.0)
    seen[33] = min(pot / 200.0, 9.0)
    seen[34] = 1.0 if to_call == 0.0 else 0.0
    seen[35] = 1.0 if to_call <= BIG_BLIND else 0.0
    seen[36] = chips / 200.0
    seen[37] = state[S_CAN_RAISE]
    seen[38 + tight_choice(state, seen[0])] = 1.0
    seen[44] = n / 9.0
    seen[45] = after / 8.0
    seen[46] = min(price / chips, 1.0) if chips > 0.0 else 1.0
    seen[47] = 1.0


@njit(cache=True)
def policy_view(state):
    """Level 2's view of ``state`` (see ``_fill_view``), with the identity map of the actions, as
    ``makeenv.learn.imitate`` takes a view."""
    seen = np.zeros(VIEW_SIZE)
    _fill_view(state, seen, np.zeros(14, dtype=np.int64))
    return seen, np.arange(NUM_ACTIONS)


@njit(cache=True)
def learned(state, data):
    """Level 2: a small network trained by makeenv.learn.imitate to copy the equity bot, over
    ``policy_view``. Its data: the packed network, then SCRATCH free values (nothing is allocated
    per move)."""
    if state[S_OVER] > 0.5 or state[S_MY_TURN] < 0.5:
        return 0, data
    end = data.shape[0]
    seen = data[end - SCRATCH : end - SCRATCH + VIEW_SIZE]
    valid = data[end - SCRATCH + VIEW_SIZE : end - 14]
    _fill_view(state, seen, data[end - 14 :].view(np.int64))
    for action in range(NUM_ACTIONS):
        valid[action] = 1.0 if isValidAction(state, action) else 0.0
    choice = mlp_action(seen, data[: end - SCRATCH], valid)
    return (choice if choice >= 0 else CALL), data


def learned_data(path: Path | str = WEIGHTS_FILE) -> np.ndarray:
    """Level 2's data: the weights file packed, then its scratch."""
    return load_policy_data(path, VIEW_SIZE, NUM_ACTIONS, scratch=SCRATCH)


LEVELS: dict[int, Any] = {1: tight, 3: equity_bot}
if WEIGHTS_FILE.exists():  # absent only while makeenv.learn.imitate rebuilds it
    LEVELS[2] = Bot(learned, data=learned_data())
LEVELS = dict(sorted(LEVELS.items()))
