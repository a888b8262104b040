"""LiarsDice: the rules, as numba functions over flat float64 arrays.

OpenSpiel's ``liars_dice`` (its defaults: two players, six-sided dice, the "reset-face" bid
order), with the number of dice per player as the game parameter ``dice`` (1 to 5, default 1).

1. Each player rolls ``dice`` dice and sees only their own.
2. Player 0 bids first, then the players alternate. A bid "q-f" claims that at least ``q`` of all
   the dice on the table show face ``f``; sixes are wild and count for every face. Bids are
   numbered ``(q - 1) * 6 + (f - 1)`` and every bid must have a higher number than the last one
   (a higher quantity, or the same quantity and a higher face).
3. Instead of bidding, a player may call the last bid a lie ("Liar"). Then every die is shown: if
   at least ``q`` dice show ``f`` or a six, the bidder wins; otherwise the caller wins. Returns
   are +1 for the winner and -1 for the loser.

The array layouts are documented in this folder's README.md (and repeated beside the constants).
"""

from __future__ import annotations

from numba import njit

from makeenv.array.numba_helpers import new_values, uniform

# ---- the game's sizes ------------------------------------------------------------------------
NUM_PLAYERS = 2
FACES = 6  # a six ("face 6") is wild
MAX_DICE = 5  # most dice per player the parameter allows
NUM_BIDS = NUM_PLAYERS * MAX_DICE * FACES  # 60 bids: quantities 1..10 by faces 1..6
LIAR = NUM_BIDS  # action 60 calls the last bid a lie
NUM_ACTIONS = NUM_BIDS + 1
PARAMETERS = {"dice": (1, 2, 3, 4, 5)}  # dice per player
DEFAULTS = {"dice": 1}

# ---- env: the referee's view (length ENV_SIZE) -----------------------------------------------
E_PLAYER = 0  # player to move (0 or 1)
E_DICE_COUNT = 1  # dice per player (the ``dice`` parameter)
E_DICE = 2  # E_DICE + MAX_DICE * p + i: face (1..6) of player p's die i, sorted ascending; 0 unused
E_BID = 12  # the last bid (0..59), -1 before the first bid
E_BIDDER = 13  # who made the last bid, -1 before the first bid
E_CALLER = 14  # who called Liar, -1 while nobody has
E_WINNER = 15  # -1 running, else the winner (what checkEnded returns)
E_MOVES = 16  # number of bids made so far
E_MADE_BY = 17  # E_MADE_BY + b: 0 if bid b was not made, else 1 + the player who made it
ENV_SIZE = E_MADE_BY + NUM_BIDS  # 77

# ---- state: one player's view (length STATE_SIZE); every value is 0, 1, 2 or a count -------
S_MY_DICE = 0  # 0..5: how many of my dice show face 1..6
S_THEIR_DICE = 6  # 6..11: the same for my opponent's dice, shown only when the game is over
S_DICE_COUNT = 12  # dice per player
S_BID = 13  # the last bid + 1 (0 before the first bid)
S_BIDS = 14  # 14..73: for each bid b, 0 not made, MINE (1) made by me, THEIRS (2) by my opponent
S_MY_TURN = 74  # 1 when I am to move
S_I_CALLED = 75  # 1 when I called Liar
S_THEY_CALLED = 76  # 1 when my opponent called Liar
S_OVER = 77  # 1 when the game is over
S_WON = 78  # 1 when I won
S_LOST = 79  # 1 when my opponent won
STATE_SIZE = 80
MINE, THEIRS = 1.0, 2.0


@njit(cache=True, inline="always")
def bid_quantity(bid) -> int:
    """How many dice a bid claims (bid numbers start at 0 for "1-1")."""
    return bid // FACES + 1


@njit(cache=True, inline="always")
def bid_face(bid) -> int:
    """The face (1..6) a bid names."""
    return bid % FACES + 1


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
def initEnv(dice=1):
    """A new game with ``dice`` dice per player, rolled and sorted ascending (as OpenSpiel does)."""
    if dice < 1 or dice > MAX_DICE:
        raise ValueError("LiarsDice: dice per player must be 1..5")
    env = new_values(ENV_SIZE)
    for k in range(ENV_SIZE):
        env[k] = 0.0
    env[E_DICE_COUNT] = dice
    for p in range(NUM_PLAYERS):
        start = E_DICE + MAX_DICE * p
        for i in range(dice):
            face = float(int(uniform() * FACES) + 1)
            # insertion sort: keep this player's dice ascending
            j = i
            while j > 0 and env[start + j - 1] > face:
                env[start + j] = env[start + j - 1]
                j -= 1
            env[start + j] = face
    env[E_BID] = -1.0
    env[E_BIDDER] = -1.0
    env[E_CALLER] = -1.0
    env[E_WINNER] = -1.0
    return env


@njit(cache=True)
def getCurrentPlayer(env) -> int:
    return int(env[E_PLAYER])


# getPlayerState, getAgentState and getValidActions, which return new arrays at every step, are
# inlined into their callers (the runner, an agent): a call of their own costs a game 9-15%
@njit(cache=True, inline="always")
def getPlayerState(env, player):
    state = new_values(STATE_SIZE)
    for k in range(STATE_SIZE):  # cleared in the caller's code (np.zeros is a call of its own)
        state[k] = 0.0
    dice = int(env[E_DICE_COUNT])
    winner = env[E_WINNER]
    over = winner >= 0.0
    shown = 1.0 if over else 0.0
    mine = E_DICE + MAX_DICE * player
    theirs = E_DICE + MAX_DICE * (1 - player)
    for i in range(dice):
        state[S_MY_DICE + int(env[mine + i]) - 1] += 1.0
        state[S_THEIR_DICE + int(env[theirs + i]) - 1] += shown
    state[S_DICE_COUNT] = env[E_DICE_COUNT]
    last = env[E_BID]
    state[S_BID] = last + 1.0
    # E_MADE_BY holds 1 + the bidder (0 for a bid not made): player 0 sees it as it is, player 1
    # with MINE and THEIRS swapped (selects: whose bid it was is random)
    swap = player == 1
    for b in range(int(last) + 1):
        made_by = env[E_MADE_BY + b]
        state[S_BIDS + b] = 3.0 - made_by if swap & (made_by > 0.0) else made_by
    caller = env[E_CALLER]
    state[S_MY_TURN] = 1.0 if (not over) & (env[E_PLAYER] == player) else 0.0
    state[S_I_CALLED] = 1.0 if over & (caller == player) else 0.0
    state[S_THEY_CALLED] = 1.0 if over & (caller != player) else 0.0
    state[S_OVER] = shown
    state[S_WON] = 1.0 if over & (winner == player) else 0.0
    state[S_LOST] = 1.0 if over & (winner != player) else 0.0
    return state


@njit(cache=True, inline="always")
def getAgentState(env):
    return getPlayerState(env, int(env[E_PLAYER]))


@njit(cache=True, inline="always")
def _bid_limits(state):
    """(first bid one may make, number of bids in play, whether Liar may be called), read safely."""
    dice = state[S_DICE_COUNT]
    if not (dice >= 1.0 and dice <= MAX_DICE):
        dice = 1.0
    top = int(dice) * NUM_PLAYERS * FACES
    last = state[S_BID]
    if not (last >= 0.0 and last <= top):
        last = 0.0
    return int(last), top, last > 0.0


@njit(cache=True, inline="always")
def getValidActions(state):
    """Every bid above the last one (up to the number of dice on the table), and Liar once a bid
    stands; action 0 alone once the game is over (the final turn)."""
    valid = new_values(NUM_ACTIONS)  # every value written once, with selects
    first, top, can_call = _bid_limits(state)
    running = state[S_OVER] != 1.0
    for b in range(NUM_BIDS):
        valid[b] = 1.0 if running & (b >= first) & (b < top) else 0.0
    valid[LIAR] = 1.0 if running & can_call else 0.0
    valid[0] += 0.0 if running else 1.0
    return valid


@njit(cache=True, inline="always")
def isValidAction(state, action) -> bool:
    first, top, can_call = _bid_limits(state)
    if state[S_OVER] == 1.0:
        return action == 0  # a finished game offers action 0 alone (the final turn)
    if action == LIAR:
        return can_call
    return action >= first and action < top


@njit(cache=True, inline="always")
def count_matches(env, face) -> int:
    """How many dice on the table show ``face`` or a (wild) six."""
    dice = int(env[E_DICE_COUNT])
    matches = 0
    for p in range(NUM_PLAYERS):
        for i in range(dice):
            shown = env[E_DICE + MAX_DICE * p + i]
            if shown == face or shown == FACES:
                matches += 1
    return matches


@njit(cache=True)
def apply_action(action, env):
    """``stepEnv``'s work, returning nothing (see ``stepEnv``)."""
    player = int(env[E_PLAYER])
    if action == LIAR:
        bid = int(env[E_BID])
        env[E_CALLER] = player
        if count_matches(env, bid_face(bid)) >= bid_quantity(bid):
            env[E_WINNER] = env[E_BIDDER]
        else:
            env[E_WINNER] = player
    else:
        env[E_BID] = action
        env[E_BIDDER] = player
        env[E_MADE_BY + action] = player + 1.0
        env[E_MOVES] += 1.0
        env[E_PLAYER] = 1 - player


# inlined into its callers (the runner's loop, an agent) as a shell whose work returns nothing: a
# call returning the env costs reference counts (atomic operations) at every step
@njit(cache=True, inline="always")
def stepEnv(action, env):
    apply_action(action, env)
    return env


@njit(cache=True)
def checkEnded(env) -> int:
    return int(env[E_WINNER])


@njit(cache=True)
def getReward(state) -> int:
    if not state[S_OVER] == 1.0:
        return -1
    if state[S_WON] == 1.0:
        return 1
    return 0


@njit(cache=True)
def sampleEnv(state):
    """An env consistent with ``state`` (its player to move): the opponent's dice, which the state
    does not show while the game runs, are rolled anew."""
    first, top, can_call = _bid_limits(state)
    dice = top // (NUM_PLAYERS * FACES)
    env = initEnv(dice)
    # my seat: player 0 makes the lowest bid, and moves first when nobody has bid yet
    me = 0
    lowest_is_mine = True
    for b in range(NUM_BIDS):
        if state[S_BIDS + b] == MINE:
            break
        if state[S_BIDS + b] == THEIRS:
            lowest_is_mine = False
            break
    if first > 0:
        me = 0 if lowest_is_mine else 1
    elif state[S_MY_TURN] != 1.0 and state[S_OVER] != 1.0:
        me = 1
    other = 1 - me
    # my dice, ascending; the opponent's as rolled by initEnv (or shown, once the game is over)
    mine = E_DICE + MAX_DICE * me
    theirs = E_DICE + MAX_DICE * other
    slot = 0
    slot_theirs = 0
    for face in range(1, FACES + 1):
        for _ in range(int(min(max(state[S_MY_DICE + face - 1], 0.0), dice))):
            if slot < dice:
                env[mine + slot] = face
                slot += 1
        if state[S_OVER] == 1.0:
            for _ in range(int(min(max(state[S_THEIR_DICE + face - 1], 0.0), dice))):
                if slot_theirs < dice:
                    env[theirs + slot_theirs] = face
                    slot_theirs += 1
    # the bids so far
    moves = 0
    for b in range(first):
        if state[S_BIDS + b] == MINE:
            env[E_MADE_BY + b] = me + 1.0
            moves += 1
        elif state[S_BIDS + b] == THEIRS:
            env[E_MADE_BY + b] = other + 1.0
            moves += 1
    env[E_MOVES] = moves
    if first > 0:
        env[E_BID] = first - 1
        env[E_BIDDER] = env[E_MADE_BY + first - 1] - 1.0
        env[E_PLAYER] = 1.0 - env[E_BIDDER]
    if state[S_OVER] == 1.0:
        env[E_CALLER] = me if state[S_I_CALLED] == 1.0 else other
        env[E_WINNER] = me if state[S_WON] == 1.0 else other
        env[E_PLAYER] = env[E_CALLER]
    return env
