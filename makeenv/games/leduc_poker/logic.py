"""LeducPoker: the rules, as numba functions over flat float64 arrays (OpenSpiel's ``leduc_poker``).

Two players, a deck of six cards: two suits of Jack, Queen and King (card ``c`` has rank
``c // 2``). Each player antes 1 chip and gets one private card; one public card is dealt face
down and turned up after the first betting round. Each round player 0 acts first:

* **Call** matches the opponent's chips (a check when nothing is owed);
* **Raise** matches and adds 2 chips in round 1, 4 in round 2 (at most 2 raises per round);
* **Fold** (only when facing a bet) gives up: the opponent wins what the folder put in.

A round ends when a player calls, unless it is the round's first move (a check). After round 2,
the showdown: a private card pairing the public card wins, else the higher rank; equal ranks
split the pot. The whole deal (both private cards and the public card) happens in
``dealEnv``/``initEnv``; the public card stays hidden from every state until round 2. The array
layouts are documented in this folder's README.md (and repeated beside the constants).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from makeenv.array.numba_helpers import new_values, uniform

# ---- actions and cards -----------------------------------------------------------------------
FOLD, CALL, RAISE = 0, 1, 2
ACTION_NAMES = ("Fold", "Call", "Raise")
RANK_NAMES = ("Jack", "Queen", "King")
SUIT_NAMES = ("Spades", "Hearts")
NUM_ACTIONS = 3
NUM_CARDS = 6
CARDS_DEALT = 3  # player 0's, player 1's, the public card
NUM_PLAYERS = 2
MAX_RAISES = 2  # per round
SLOTS = 4  # moves in a round at most: check, raise, raise, call
FIRST_RAISE, SECOND_RAISE = 2.0, 4.0
SPLIT = 2  # checkEnded when the pot is split (no sole winner)

# ---- env: the referee's view (length ENV_SIZE) -----------------------------------------------
E_PLAYER = 0  # player to move: 0 or 1
E_CARD = 1  # E_CARD + p: player p's private card (0..5)
E_PUBLIC = 3  # the public card (0..5), dealt at the start, shown from round 2
E_ROUND = 4  # 0 first betting round, 1 second
E_CHIPS = 5  # E_CHIPS + p: chips player p has put in the pot (the ante included)
E_MOVES = 7  # E_MOVES + r: moves made in round r (0..4)
E_SEQUENCE = 9  # 9..16: round r's move k at 9 + 4r + k (0 Fold, 1 Call, 2 Raise), -1 none
E_WINNER = 17  # -1 running, 0 or 1 the winner, 2 split pot (what checkEnded returns)
E_SHOWDOWN = 18  # 1 when the hand ended at a showdown (both private cards are shown)
ENV_SIZE = 19

# ---- state: one player's view (length STATE_SIZE); every value is 0/1 or a chip count --------
S_CARD = 0  # 0..5 one-hot: my private card
S_PUBLIC = 6  # 6..11 one-hot: the public card, once shown (round 2)
S_SEAT = 12  # 12, 13 one-hot: I act first (player 0) / second (player 1)
S_SEQUENCE = 14  # 14..37: round r's move k at 14 + 12r + 3k, one-hot (Fold, Call, Raise)
S_CHIPS = 38  # chips I have put in the pot
S_THEIR_CHIPS = 39  # chips my opponent has put in
S_ROUND = 40  # 1 in the second betting round
S_MY_TURN = 41  # 1 when I am to move
S_OVER = 42  # 1 when the hand is over
S_WON = 43  # 1 when I won the pot (neither flag: a split pot)
S_LOST = 44  # 1 when my opponent won the pot
S_THEIR_CARD = 45  # 45..50 one-hot: the opponent's card, shown only after a showdown
STATE_SIZE = 51


@njit(cache=True)
def getActionSize() -> int:
    return NUM_ACTIONS


@njit(cache=True)
def getStateSize() -> int:
    return STATE_SIZE


@njit(cache=True)
def getAgentSize() -> int:
    return NUM_PLAYERS


@njit(cache=True)
def dealEnv(card0, card1, public):
    """A new hand: player 0 holds ``card0``, player 1 ``card1``; ``public`` is dealt face down."""
    env = new_values(ENV_SIZE)
    for k in range(E_SEQUENCE):
        env[k] = 0.0
    env[E_CARD] = card0
    env[E_CARD + 1] = card1
    env[E_PUBLIC] = public
    for k in range(2 * SLOTS):
        env[E_SEQUENCE + k] = -1.0
    env[E_CHIPS] = 1.0
    env[E_CHIPS + 1] = 1.0
    env[E_WINNER] = -1.0
    env[E_SHOWDOWN] = 0.0
    return env


@njit(cache=True)
def initEnv():
    """A new hand: three different cards dealt at random (the 120 deals are equally likely)."""
    card0 = int(uniform() * NUM_CARDS)
    card1 = int(uniform() * (NUM_CARDS - 1))
    if card1 >= card0:
        card1 += 1
    public = int(uniform() * (NUM_CARDS - 2))
    if public >= min(card0, card1):  # skip the two dealt cards, lower one first
        public += 1
    if public >= max(card0, card1):
        public += 1
    return dealEnv(card0, card1, public)


@njit(cache=True)
def allDeals():
    """Every hand ``initEnv`` can start, one env per row, each equally likely (for CFR)."""
    deals = np.zeros((NUM_CARDS * (NUM_CARDS - 1) * (NUM_CARDS - 2), ENV_SIZE), dtype=np.float64)
    row = 0
    for card0 in range(NUM_CARDS):
        for card1 in range(NUM_CARDS):
            for public in range(NUM_CARDS):
                if card1 != card0 and public != card0 and public != card1:
                    deals[row] = dealEnv(card0, card1, public)
                    row += 1
    return deals


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_PLAYER])


# getPlayerState, getAgentState, getValidActions and isValidAction run at every step: inlined
# into their callers (the runner, an agent), they save a call and its reference counting
@njit(cache=True, inline="always")
def getPlayerState(env, player):
    state = new_values(STATE_SIZE)
    for k in range(STATE_SIZE):  # cleared in the caller's code (np.zeros is a call of its own)
        state[k] = 0.0
    opponent = 1 - player
    state[S_CARD + int(env[E_CARD + player])] = 1.0
    state[S_SEAT + player] = 1.0
    for r in range(2):
        for k in range(int(env[E_MOVES + r])):
            state[S_SEQUENCE + 12 * r + 3 * k + int(env[E_SEQUENCE + SLOTS * r + k])] = 1.0
    state[S_CHIPS] = env[E_CHIPS + player]
    state[S_THEIR_CHIPS] = env[E_CHIPS + opponent]
    if env[E_ROUND] == 1.0:
        state[S_ROUND] = 1.0
        state[S_PUBLIC + int(env[E_PUBLIC])] = 1.0
    winner = int(env[E_WINNER])
    if winner < 0:
        if int(env[E_PLAYER]) == player:
            state[S_MY_TURN] = 1.0
    else:
        state[S_OVER] = 1.0
        if winner == player:
            state[S_WON] = 1.0
        elif winner == opponent:
            state[S_LOST] = 1.0
        if env[E_SHOWDOWN] == 1.0:
            state[S_THEIR_CARD + int(env[E_CARD + opponent])] = 1.0
    return state


@njit(cache=True, inline="always")
def getAgentState(env):
    return getPlayerState(env, int(env[E_PLAYER]))


@njit(cache=True, inline="always")
def raises_this_round(state) -> int:
    """Raises made so far in the state's current betting round."""
    start = S_SEQUENCE + 12 if state[S_ROUND] > 0.5 else S_SEQUENCE
    count = 0
    for k in range(SLOTS):
        if state[start + 3 * k + RAISE] > 0.5:
            count += 1
    return count


@njit(cache=True, inline="always")
def getValidActions(state):
    """Call always; Fold when facing a bet; Raise while the round has had fewer than 2 raises."""
    valid = new_values(NUM_ACTIONS)  # every value written once, with selects
    over = state[S_OVER] > 0.5
    running = not over
    # a finished game offers action 0 (Fold) alone (the final turn)
    valid[FOLD] = 1.0 if over | (state[S_THEIR_CHIPS] > state[S_CHIPS]) else 0.0
    valid[CALL] = 1.0 if running else 0.0
    valid[RAISE] = 1.0 if running & (raises_this_round(state) < MAX_RAISES) else 0.0
    return valid


@njit(cache=True, inline="always")
def isValidAction(state, action) -> bool:
    if state[S_OVER] > 0.5:
        return action == 0  # a finished game offers action 0 alone (the final turn)
    if action == CALL:
        return True
    if action == FOLD:
        return state[S_THEIR_CHIPS] > state[S_CHIPS]
    if action == RAISE:
        return raises_this_round(state) < MAX_RAISES
    return False


@njit(cache=True)
def apply_action(action, env):
    """``stepEnv``'s work, returning nothing (see ``stepEnv``)."""
    player = int(env[E_PLAYER])
    opponent = 1 - player
    rnd = int(env[E_ROUND])
    move = int(env[E_MOVES + rnd])
    env[E_SEQUENCE + SLOTS * rnd + move] = action
    env[E_MOVES + rnd] = move + 1
    if action == FOLD:
        env[E_WINNER] = opponent
    elif action == CALL:
        env[E_CHIPS + player] = env[E_CHIPS + opponent]
        if move == 0:  # a check opens the round
            env[E_PLAYER] = opponent
        elif rnd == 0:  # the first round is over: turn up the public card
            env[E_ROUND] = 1.0
            env[E_PLAYER] = 0.0
        else:
            _showdown(env)
    else:  # RAISE
        env[E_CHIPS + player] = env[E_CHIPS + opponent] + (FIRST_RAISE if rnd == 0 else SECOND_RAISE)
        env[E_PLAYER] = opponent


# inlined into its callers (the runner's loop, an agent) as a shell whose work returns nothing: a
# call returning the env costs reference counts (atomic operations) at every step
@njit(cache=True, inline="always")
def stepEnv(action, env):
    apply_action(action, env)
    return env


@njit(cache=True)
def _showdown(env):
    env[E_SHOWDOWN] = 1.0
    public = int(env[E_PUBLIC]) // 2
    rank0 = int(env[E_CARD]) // 2
    rank1 = int(env[E_CARD + 1]) // 2
    if rank0 == public:
        env[E_WINNER] = 0.0
    elif rank1 == public:
        env[E_WINNER] = 1.0
    elif rank0 > rank1:
        env[E_WINNER] = 0.0
    elif rank1 > rank0:
        env[E_WINNER] = 1.0
    else:
        env[E_WINNER] = SPLIT


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_WINNER])


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] > 0.5:
        return -1
    if state[S_WON] > 0.5:
        return 1
    return 0


# inlined into the runner's settling of every game (a short game: a call is a good part of it)
@njit(cache=True, inline="always")
def getReturns(env):
    """Chips won (+) or lost (-) by each player: the loser loses what it put in; a split pot is 0."""
    returns = new_values(NUM_PLAYERS)
    returns[0] = 0.0
    returns[1] = 0.0
    winner = int(env[E_WINNER])
    if winner == 0 or winner == 1:
        lost = env[E_CHIPS + 1 - winner]
        returns[winner] = lost
        returns[1 - winner] = -lost
    return returns


@njit(cache=True)
def _one_hot(state, start, size) -> int:
    for k in range(size):
        if state[start + k] > 0.5:
            return k
    return -1


@njit(cache=True)
def _draw_unused(used0, used1) -> int:
    """A card drawn uniformly among those that are neither ``used0`` nor ``used1``."""
    card = int(np.random.random() * (NUM_CARDS - 2))
    if card >= min(used0, used1):
        card += 1
    if card >= max(used0, used1):
        card += 1
    return card


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state``: the cards it does not show (the opponent's card, the
    public card in round 1) dealt at random among the unseen ones, then the betting replayed.
    For search bots (determinization); it never reads the real cards."""
    mine = max(_one_hot(state, S_CARD, NUM_CARDS), 0)
    public = _one_hot(state, S_PUBLIC, NUM_CARDS)
    theirs = _one_hot(state, S_THEIR_CARD, NUM_CARDS)
    if theirs < 0 and public >= 0:
        theirs = _draw_unused(mine, public)
    elif theirs < 0:
        theirs = (mine + 1 + int(np.random.random() * (NUM_CARDS - 1))) % NUM_CARDS
    if public < 0:
        public = _draw_unused(mine, theirs)
    me = 1 if state[S_SEAT + 1] > 0.5 else 0
    env = dealEnv(mine, theirs, public) if me == 0 else dealEnv(theirs, mine, public)
    for r in range(2):
        for k in range(SLOTS):
            if checkEnded(env) != -1 or int(env[E_ROUND]) != r:
                break
            action = _one_hot(state, S_SEQUENCE + 12 * r + 3 * k, NUM_ACTIONS)
            if action < 0:
                break
            stepEnv(action, env)
    return env
