"""The referee of one array game: how a game is stepped, compiled once per game (a source template).

``makeenv.array.cache`` loads this source as a module of its own for each game, after putting the
game's contract functions in a hand-off dict: numba sees them as compile-time constants. The
player count and the game's parameters (initEnv's arguments) are run-time arguments, so one
compilation serves every player count and parameter value. These functions are the one
definition of how a game is stepped: whose turn it is, which actions are acceptable, what stepEnv's return value means, when a game is
over (its end, its TURN_LIMIT, the safety bound) and what its outcome is (winners, returns). The
runner's compiled loops (``_loop_template.py``) call them, and so does
``makeenv.array.referee.Match`` from Python, for the checker, the GUI, the adapters and the text
bridge.

Compiled code never raises: it fills the error record ``err`` (slots and codes in
``makeenv.array.errors``) plus ``err_valid`` (the valid actions at the error) and returns; Python
turns the record into an exception.
"""

import numpy as np
from numba import njit

from makeenv.array.cache import take_handoff
from makeenv.array.errors import (
    ACTION_NOT_INTEGER,
    ACTION_NOT_VALID,
    ACTION_OUT_OF_RANGE,
    ACTOR_GAME,
    ENDED_OUT_OF_RANGE,
    ENV_LENGTH_CHANGED,
    ERR_ACTION,
    ERR_ACTOR,
    ERR_CODE,
    ERR_GAME,
    ERR_PLAYER,
    ERR_STEP,
    GAME_TOO_LONG,
    NO_VALID_ACTION,
    PLAYER_OUT_OF_RANGE,
)
from makeenv.array.numba_helpers import as_index
from makeenv.array.results import (
    STAT_DRAWS,
    STAT_GAMES,
    STAT_LOSSES,
    STAT_RETURN,
    STAT_SHARED_WINS,
    STAT_STEPS,
    STAT_TRUNCATED,
    STAT_WINS,
)

_h = take_handoff(__name__)

initEnv = _h["initEnv"]
getCurrentPlayer = _h["getCurrentPlayer"]
getPlayerState = _h["getPlayerState"]
getAgentState = _h["getAgentState"]
stepEnv = _h["stepEnv"]
getValidActions = _h["getValidActions"]
checkEnded = _h["checkEnded"]
getReward = _h["getReward"]
getWinners = _h["getWinners"]  # optional: None when the game has none
getReturns = _h["getReturns"]  # optional
isValidAction = _h["isValidAction"]  # optional
HAS_WINNERS = getWinners is not None
HAS_RETURNS = getReturns is not None
HAS_IS_VALID = isValidAction is not None
N_ACTIONS = _h["n_actions"]
MAX_STEPS = _h["max_steps"]  # safety bound: a longer game is an error ...
TURN_LIMIT = _h["turn_limit"]  # ... unless the game declares a TURN_LIMIT (0: none)
CACHE = _h["cache"]
# the random agent's uniform draws over all actions before it builds the valid-action vector: a
# draw costs about as much as building ~16 entries of it, so a game with many actions (few of
# them valid, as in Breakthrough) draws more before building it, and one with few draws once (a
# miss costs an isValidAction, often as dear as the short vector: the dungeon's bids, LiarsDice)
RANDOM_DRAWS = max(1, N_ACTIONS // 16)

# a game's status, as the referee reports it
RUNNING, ENDED, TRUNCATED, FAILED = 0, 1, 2, -1
NOT_FOUND = -1
# ``ctl`` of a game driven from Python: [agent's seat, steps played, index of the game, players]
CTL_ME, CTL_STEPS, CTL_GAME, CTL_PLAYERS = 0, 1, 2, 3
CTL_SIZE = 4


@njit(cache=CACHE, inline="always")
def new_env(init_args):
    """A new game: initEnv with the game's parameter values (a tuple, () for a game without any)."""
    return initEnv(*init_args)


@njit(cache=CACHE, inline="always")
def fail(err, err_valid, code, player, action, actor, game, step, state):
    """Record an error; for action errors also the valid actions (and blame the game when none is).

    The arguments are cast to one type each, so ``record_error`` compiles once per game: called
    with the error codes as they are, numba compiled it anew for each call site's constants (22
    times, 5-7 s of a cold ``makeenv check``)."""
    record_error(
        err,
        err_valid,
        np.int64(code),
        np.int64(player),
        np.float64(action),
        np.int64(actor),
        np.int64(game),
        np.int64(step),
        state,
    )


@njit(cache=CACHE)
def record_error(err, err_valid, code, player, action, actor, game, step, state):
    """``fail``'s body, with every argument of one type."""
    if code == ACTION_OUT_OF_RANGE or code == ACTION_NOT_INTEGER or code == ACTION_NOT_VALID or code == NO_VALID_ACTION:
        valid = getValidActions(state)
        count = 0
        for i in range(min(valid.shape[0], err_valid.shape[0])):
            err_valid[i] = valid[i]
            if valid[i] == 1.0:
                count += 1
        if count == 0:
            code = NO_VALID_ACTION
            actor = ACTOR_GAME
    err[ERR_CODE] = code
    err[ERR_PLAYER] = player
    err[ERR_ACTION] = action
    err[ERR_ACTOR] = actor
    err[ERR_GAME] = game
    err[ERR_STEP] = step


@njit(cache=CACHE, inline="always")
def status(env, steps, err, err_valid, game, players):
    """RUNNING, ENDED, TRUNCATED (the game's TURN_LIMIT) or FAILED (error recorded)."""
    code = checkEnded(env)
    if code == -1:
        if TURN_LIMIT > 0 and steps >= TURN_LIMIT:
            return TRUNCATED
        if steps >= MAX_STEPS:
            fail(err, err_valid, GAME_TOO_LONG, -1, -1.0, ACTOR_GAME, game, steps, env)
            return FAILED
        return RUNNING
    if code < -1 or code > players:
        fail(err, err_valid, ENDED_OUT_OF_RANGE, code, -1.0, ACTOR_GAME, game, steps, env)
        return FAILED
    return ENDED


@njit(cache=CACHE, inline="always")
def to_move(env, err, err_valid, game, steps, players):
    """The player to move, or NOT_FOUND after recording that getCurrentPlayer is out of range."""
    p = getCurrentPlayer(env)
    if p < 0 or p >= players:
        fail(err, err_valid, PLAYER_OUT_OF_RANGE, p, -1.0, ACTOR_GAME, game, steps, env)
        return NOT_FOUND
    return p


@njit(cache=CACHE, inline="always")
def checked_action(action, state, err, err_valid, player, actor, game, steps):
    """The action as an int, or NOT_FOUND after recording why it cannot be played here."""
    i, integral = as_index(action)  # integer agents skip the float tests (decided when compiling)
    if not integral:
        fail(err, err_valid, ACTION_NOT_INTEGER, player, float(action), actor, game, steps, state)
        return NOT_FOUND
    if i < 0 or i >= N_ACTIONS:
        fail(err, err_valid, ACTION_OUT_OF_RANGE, player, float(action), actor, game, steps, state)
        return NOT_FOUND
    if HAS_IS_VALID:
        ok = isValidAction(state, i)
    else:
        ok = getValidActions(state)[i] == 1.0
    if not ok:
        fail(err, err_valid, ACTION_NOT_VALID, player, float(action), actor, game, steps, state)
        return NOT_FOUND
    return i


@njit(cache=CACHE, inline="always")
def apply(a, env, err, err_valid, player, actor, game, steps):
    """stepEnv(a, env), keeping ``env`` the game's array: an env returned as another array of the
    same length is copied back into it; another length is an error (False)."""
    new = stepEnv(a, env)
    if new.shape[0] != env.shape[0]:
        fail(err, err_valid, ENV_LENGTH_CHANGED, player, a, actor, game, steps, env)
        return False
    if new.ctypes.data != env.ctypes.data:
        for i in range(env.shape[0]):  # a loop: a slice assignment costs seconds of compilation
            env[i] = new[i]
    return True


@njit(cache=CACHE)
def settle(env, truncated, winners, returns):
    """Fill ``winners`` (0/1 per player) and ``returns`` of a finished game; return how many won.

    Winners: checkEnded's sole winner, else getWinners (shared first place), else nobody. Returns:
    getReturns, else +1 per winner and -1 per loser, 0 for all on a draw (nobody or everybody won).
    A truncated game (TURN_LIMIT) is a draw with returns 0.
    """
    players = winners.shape[0]
    for i in range(players):
        winners[i] = 0.0
    count = 0
    if not truncated:
        code = checkEnded(env)
        if code >= 0 and code < players:
            winners[code] = 1.0
            count = 1
        elif HAS_WINNERS:
            shared = getWinners(env)
            for i in range(players):
                if shared[i] == 1.0:
                    winners[i] = 1.0
                    count += 1
    draw = count == 0 or count == players
    if HAS_RETURNS and not truncated:
        values = getReturns(env)
        for i in range(players):
            returns[i] = values[i]
    else:
        for i in range(players):
            returns[i] = 0.0 if draw else (1.0 if winners[i] == 1.0 else -1.0)
    return count


@njit(cache=CACHE, inline="always")
def record(stats, me, winners, returns, count, steps, truncated):
    """Add one finished game to the agent's row of ``stats``."""
    stats[me, STAT_GAMES] += 1.0
    stats[me, STAT_STEPS] += steps
    stats[me, STAT_RETURN] += returns[me]
    if truncated:
        stats[me, STAT_TRUNCATED] += 1.0
    if count == 0 or count == winners.shape[0]:
        stats[me, STAT_DRAWS] += 1.0
    elif winners[me] == 1.0:
        stats[me, STAT_WINS] += 1.0
        if count > 1:
            stats[me, STAT_SHARED_WINS] += 1.0
    else:
        stats[me, STAT_LOSSES] += 1.0


@njit(cache=CACHE, inline="always")
def random_agent(state, data):
    """Pick uniformly among the valid actions (-1 when there is none).

    With isValidAction, RANDOM_DRAWS uniform draws over all actions are tried first (a draw that is
    valid is uniform among the valid ones); only when they all miss is the valid-action vector built."""
    if HAS_IS_VALID:
        for _ in range(RANDOM_DRAWS):
            a = int(np.random.random() * N_ACTIONS)
            if isValidAction(state, a):
                return a, data
    valid = getValidActions(state)
    count = 0
    for i in range(valid.shape[0]):  # without branches: a random pattern defeats branch prediction
        count += valid[i] == 1.0
    if count == 0:
        return -1, data
    k = int(np.random.random() * count)
    for i in range(valid.shape[0]):
        k -= valid[i] == 1.0
        if k < 0:
            return i, data
    return -1, data


@njit(cache=CACHE)
def valid_choice_agent(state, data):
    """The seed's agent idiom, written as users write it: a uniform choice among the indices where
    ``getValidActions(state) == 1``. ``check_env`` plays it, so every game is known to run it, final
    turns included (where a state without a valid action makes it raise)."""
    valid = getValidActions(state)
    idx = np.where(valid == 1)[0]
    return idx[np.random.randint(0, len(idx))], data


@njit(cache=CACHE, inline="always")
def random_move(state, err, err_valid, p, actor, game, steps):
    """The built-in random agent's move (valid by construction: no check needed)."""
    a, _ = random_agent(state, 0.0)
    if a < 0:
        fail(err, err_valid, NO_VALID_ACTION, p, -1.0, ACTOR_GAME, game, steps, state)
        return NOT_FOUND
    return a


@njit(cache=CACHE, inline="always")
def deal_seats(seat_slot, shuffle):
    """Seat the agent uniformly at random and the opponent slots 0..players-2 in the other seats,
    in random order when ``shuffle`` (the seed's List_other shuffle); ``seat_slot[p]`` is -1 for
    the agent's seat (one entry per seat: its length is the player count). Returns the agent's seat."""
    players = seat_slot.shape[0]
    me = int(np.random.random() * players)
    k = 0
    for p in range(players):
        if p == me:
            seat_slot[p] = -1
        else:
            seat_slot[p] = k
            k += 1
    if shuffle and players > 2:
        for i in range(players - 2, 0, -1):  # Fisher-Yates over the opponents' seats
            j = int(np.random.random() * (i + 1))
            a = i if i < me else i + 1
            b = j if j < me else j + 1
            seat_slot[a], seat_slot[b] = seat_slot[b], seat_slot[a]
    return me


# ---- for callers in Python -------------------------------------------------------------------------


@njit(cache=CACHE)
def py_new_game(ctl, seat_slot, game, shuffle, init_args):
    """Deal the seats and start a game driven from Python; returns its env."""
    ctl[CTL_ME] = deal_seats(seat_slot, shuffle)
    ctl[CTL_STEPS] = 0.0
    ctl[CTL_GAME] = game
    ctl[CTL_PLAYERS] = seat_slot.shape[0]
    return new_env(init_args)


@njit(cache=CACHE)
def py_step(action, env, ctl, actor, err, err_valid):
    """Check and apply a Python seat's action (a float); False after recording an error."""
    steps = int(ctl[CTL_STEPS])
    game = int(ctl[CTL_GAME])
    p = to_move(env, err, err_valid, game, steps, int(ctl[CTL_PLAYERS]))
    if p == NOT_FOUND:
        return False
    state = getAgentState(env)
    a = checked_action(action, state, err, err_valid, p, actor, game, steps)
    if a == NOT_FOUND or not apply(a, env, err, err_valid, p, actor, game, steps):
        return False
    ctl[CTL_STEPS] = steps + 1
    return True


@njit(cache=CACHE)
def seed(value):
    np.random.seed(value)
