"""The batched env's compiled core: N games of one array game stepped in one call (a source template).

``makeenv.array.cache.batch_module`` loads this source as a module of its own for each game
referee (``_referee_template.py``), runner loop module (``_loop_template.py``, whose bots it
calls) and threading choice, after putting them in a hand-off dict. Every rule of stepping a
game (whose turn it is, which actions are valid, the outcome, TURN_LIMIT) comes from the referee;
the opponents' moves come from the loop module's ``bot_move``. This file only arranges many games
side by side: the agent's move in each, the bots' replies until the agent is to move again, and
a new game (seats dealt as the runner deals them) as soon as one ends.

The games are split in ``chunks``; each chunk is stepped by one call of ``step_chunk`` with
numba's generator seeded from ``seeds[chunk]``, so a batch is reproducible for a given seed and
chunk count whatever the number of threads. A chunk copies each game's env, state and seats into
arrays of its own before playing it: the game's functions then never get views of the batch's
arrays, whose one reference count every call would update (contended between threads).
Compiled code never raises: each chunk fills its own error record and status, and Python raises
from them.
"""

import numpy as np
from numba import njit, prange

from makeenv.array.cache import take_handoff
from makeenv.array.errors import ACTOR_AGENT, ACTOR_GAME, ENV_LENGTH_CHANGED, ERR_SIZE

_h = take_handoff(__name__)
R = _h["referee"]  # the game's referee module
L = _h["loop"]  # the runner's loop module for these bots (bot_move, call_bot)
CACHE = _h["cache"]
PARALLEL = _h["parallel"]  # chunks run on numba's threads

N_ACTIONS = R.N_ACTIONS
RUNNING, TRUNCATED, FAILED, NOT_FOUND = R.RUNNING, R.TRUNCATED, R.FAILED, R.NOT_FOUND
BOTS_RANDOM = L.BOTS_RANDOM
getAgentState, getPlayerState, getValidActions = R.getAgentState, R.getPlayerState, R.getValidActions
new_env, status, to_move, checked_action, apply = R.new_env, R.status, R.to_move, R.checked_action, R.apply
settle, deal_seats, fail, random_move = R.settle, R.deal_seats, R.fail, R.random_move
bot_move, call_bot = L.bot_move, L.call_bot

# a chunk's status after a call
CHUNK_OK, CHUNK_FAILED, CHUNK_STUCK = 0, 1, 2
MAX_DEALS = 100  # games in a row that may end before the agent's first move
# results of ended episodes, from the agent's view
LOSS, DRAW, WIN = -1, 0, 1


# ---- one game, in the chunk's own arrays ----------------------------------------------------------


@njit(cache=CACHE, inline="always")
def let_bots_move(env, steps, me, seat_slot, slot_fn, bots, err, err_valid, game):
    """Bots move until the agent (seat ``me``) is to move (RUNNING) or the game ends (ENDED,
    TRUNCATED); FAILED after recording an error. Returns (that status, the steps played)."""
    players = seat_slot.shape[0]
    while True:
        now = status(env, steps, err, err_valid, game, players)
        if now != RUNNING:
            return now, steps
        p = to_move(env, err, err_valid, game, steps, players)
        if p == NOT_FOUND:
            return FAILED, steps
        if p == me:
            return RUNNING, steps
        slot = seat_slot[p]
        if BOTS_RANDOM:  # what bot_move does for random bots, without passing it their data
            a = random_move(getAgentState(env), err, err_valid, p, slot, game, steps)
        else:
            a = bot_move(getAgentState(env), p, slot, slot_fn, bots, err, err_valid, game, steps)
        if a == NOT_FOUND or not apply(a, env, err, err_valid, p, slot, game, steps):
            return FAILED, steps
        steps += 1


@njit(cache=CACHE, inline="always")
def bots_final_turns(env, me, seat_slot, slot_fn, bots):
    """Every bot sees its final state (the action is ignored), as in a run."""
    if not BOTS_RANDOM:
        for p in range(seat_slot.shape[0]):
            if p != me:
                slot = seat_slot[p]
                call_bot(slot_fn[slot], getPlayerState(env, p), bots[slot])


@njit(cache=CACHE, inline="always")
def deal(env, seat_slot, fixed_seat, err, err_valid, game, init_args):
    """A new game in ``env``, the agent's seat (``fixed_seat``, or drawn when -1) and the opponents'
    slots in the other seats, shuffled as the runner shuffles them. Returns the agent's seat, or
    -1 after recording that initEnv's env has another length than the batch's."""
    fresh = new_env(init_args)
    if fresh.shape[0] != env.shape[0]:
        fail(err, err_valid, ENV_LENGTH_CHANGED, -1, -1.0, ACTOR_GAME, game, 0, fresh)
        return -1
    env[:] = fresh
    me = deal_seats(seat_slot, not BOTS_RANDOM)
    if fixed_seat >= 0 and me != fixed_seat:  # swap the agent into its seat
        seat_slot[me] = seat_slot[fixed_seat]
        seat_slot[fixed_seat] = -1
        me = fixed_seat
    return me


@njit(cache=CACHE)  # once an episode: a call costs nothing, and one compile serves both chunk functions
def new_episode(env, seat_slot, slot_fn, bots, fixed_seat, err, err_valid, game, init_args):
    """Deal a game and let the bots move up to the agent's first turn. Returns (CHUNK_OK, the
    agent's seat, steps played); games that end before that turn are dealt again (CHUNK_STUCK
    after MAX_DEALS of them)."""
    for _ in range(MAX_DEALS):
        me = deal(env, seat_slot, fixed_seat, err, err_valid, game, init_args)
        if me < 0:
            return CHUNK_FAILED, 0, 0
        now, steps = let_bots_move(env, 0, me, seat_slot, slot_fn, bots, err, err_valid, game)
        if now == FAILED:
            return CHUNK_FAILED, me, steps
        if now == RUNNING:
            return CHUNK_OK, me, steps
        bots_final_turns(env, me, seat_slot, slot_fn, bots)
    return CHUNK_STUCK, 0, 0


# ---- moving a game's arrays between the batch and the chunk (element by element: no views) -----


@njit(cache=CACHE, inline="always")
def load(i, envs, seat_slot, bot_data, env, slots, bots):
    for k in range(env.shape[0]):
        env[k] = envs[i, k]
    for p in range(slots.shape[0]):
        slots[p] = seat_slot[i, p]
    if not BOTS_RANDOM:
        for s in range(bots.shape[0]):
            for k in range(bots.shape[1]):
                bots[s, k] = bot_data[i, s, k]


@njit(cache=CACHE, inline="always")
def store(i, env, slots, bots, me, steps, envs, seat_slot, bot_data, seats, steps_of):
    for k in range(env.shape[0]):
        envs[i, k] = env[k]
    for p in range(slots.shape[0]):
        seat_slot[i, p] = slots[p]
    if not BOTS_RANDOM:
        for s in range(bots.shape[0]):
            for k in range(bots.shape[1]):
                bot_data[i, s, k] = bots[s, k]
    seats[i] = me
    steps_of[i] = steps


@njit(cache=CACHE, inline="always")
def observe(i, env, me, states, obs, masks):
    """The agent's state (exact in ``states``, float32 in ``obs``) and valid actions into row ``i``."""
    state = getPlayerState(env, me)
    for k in range(state.shape[0]):
        states[i, k] = state[k]
        obs[i, k] = state[k]
    valid = getValidActions(state)  # one call (each call of a game function costs reference counting)
    for a in range(N_ACTIONS):
        masks[i, a] = 1 if valid[a] == 1.0 else 0


@njit(cache=CACHE)
def workspace(envs, states, seat_slot, bot_data):
    """A chunk's own arrays: env, state, seats of one game, its bots' data, error record."""
    return (
        np.empty(envs.shape[1]),
        np.empty(states.shape[1]),
        np.empty(seat_slot.shape[1], dtype=np.int64),
        np.empty((bot_data.shape[1], bot_data.shape[2])),
        np.zeros(ERR_SIZE),
        np.zeros(N_ACTIONS),
    )


# ---- chunks -------------------------------------------------------------------------------------------


@njit(cache=CACHE)
def reset_chunk(
    lo,
    hi,
    seed,
    envs,
    steps_of,
    seats,
    seat_slot,
    slot_fn,
    bot_data,
    fixed_seat,
    states,
    obs,
    masks,
    err_out,
    err_valid_out,
    init_args,
):
    """New games ``lo..hi-1``, each up to the agent's first move. Returns (CHUNK_*, failed game)."""
    np.random.seed(seed)
    env, state, slots, bots, err, err_valid = workspace(envs, states, seat_slot, bot_data)
    slot_fn = slot_fn.copy()
    for i in range(lo, hi):
        load(i, envs, seat_slot, bot_data, env, slots, bots)
        code, me, steps = new_episode(env, slots, slot_fn, bots, fixed_seat, err, err_valid, i, init_args)
        if code != CHUNK_OK:
            err_out[:] = err
            err_valid_out[:] = err_valid
            return code, i
        observe(i, env, me, states, obs, masks)
        store(i, env, slots, bots, me, steps, envs, seat_slot, bot_data, seats, steps_of)
    return CHUNK_OK, -1


@njit(cache=CACHE)
def step_chunk(
    lo,
    hi,
    seed,
    actions,
    envs,
    steps_of,
    seats,
    seat_slot,
    slot_fn,
    bot_data,
    fixed_seat,
    lose_on_invalid,
    invalid_reward,
    states,
    obs,
    masks,
    rewards,
    terminated,
    truncated,
    ended,
    final_obs,
    results,
    lengths,
    invalid,
    err_out,
    err_valid_out,
    init_args,
):
    """The agent's action in each game ``lo..hi-1``, the bots' replies, and a new game where one
    ended. Returns (CHUNK_*, failed game)."""
    np.random.seed(seed)
    env, state, slots, bots, err, err_valid = workspace(envs, states, seat_slot, bot_data)
    slot_fn = slot_fn.copy()
    winners = np.empty(seat_slot.shape[1])
    returns = np.empty(seat_slot.shape[1])
    for i in range(lo, hi):
        load(i, envs, seat_slot, bot_data, env, slots, bots)
        for k in range(state.shape[0]):  # the state the agent was shown, exactly
            state[k] = states[i, k]
        me, steps = seats[i], steps_of[i]
        rewards[i] = 0.0
        terminated[i] = truncated[i] = ended[i] = invalid[i] = False
        a = checked_action(actions[i], state, err, err_valid, me, ACTOR_AGENT, i, steps)
        if a == NOT_FOUND:
            if not lose_on_invalid:
                break
            err[:] = 0.0  # the episode is lost instead
            rewards[i] = invalid_reward
            terminated[i] = invalid[i] = True
            results[i] = LOSS
        else:
            if not apply(a, env, err, err_valid, me, ACTOR_AGENT, i, steps):
                break
            now, steps = let_bots_move(env, steps + 1, me, slots, slot_fn, bots, err, err_valid, i)
            if now == FAILED:
                break
            if now == RUNNING:
                observe(i, env, me, states, obs, masks)
                store(i, env, slots, bots, me, steps, envs, seat_slot, bot_data, seats, steps_of)
                continue
            truncated[i] = now == TRUNCATED
            terminated[i] = not truncated[i]
            count = settle(env, truncated[i], winners, returns)
            rewards[i] = returns[me]
            if count == 0 or count == slots.shape[0]:
                results[i] = DRAW
            else:
                results[i] = WIN if winners[me] == 1.0 else LOSS
            bots_final_turns(env, me, slots, slot_fn, bots)
        ended[i] = True
        lengths[i] = steps
        final = getPlayerState(env, me)
        for k in range(final.shape[0]):
            final_obs[i, k] = final[k]
        code, me, steps = new_episode(env, slots, slot_fn, bots, fixed_seat, err, err_valid, i, init_args)
        if code != CHUNK_OK:
            err_out[:] = err
            err_valid_out[:] = err_valid
            return code, i
        observe(i, env, me, states, obs, masks)
        store(i, env, slots, bots, me, steps, envs, seat_slot, bot_data, seats, steps_of)
    else:
        return CHUNK_OK, -1
    err_out[:] = err
    err_valid_out[:] = err_valid
    return CHUNK_FAILED, i


# ---- the batch: its chunks, on numba's threads when PARALLEL ---------------------------------------


@njit(cache=CACHE, parallel=PARALLEL)
def reset_batch(
    seeds,
    envs,
    steps_of,
    seats,
    seat_slot,
    slot_fn,
    bot_data,
    fixed_seat,
    states,
    obs,
    masks,
    status_,
    failed_at,
    err,
    err_valid,
    init_args,
):
    """A new game in every slot of the batch, each up to the agent's first move."""
    n_chunks, n = seeds.shape[0], envs.shape[0]
    for c in prange(n_chunks):
        status_[c], failed_at[c] = reset_chunk(
            c * n // n_chunks,
            (c + 1) * n // n_chunks,
            seeds[c],
            envs,
            steps_of,
            seats,
            seat_slot,
            slot_fn,
            bot_data,
            fixed_seat,
            states,
            obs,
            masks,
            err[c],
            err_valid[c],
            init_args,
        )


@njit(cache=CACHE, parallel=PARALLEL)
def step_batch(
    seeds,
    actions,
    envs,
    steps_of,
    seats,
    seat_slot,
    slot_fn,
    bot_data,
    fixed_seat,
    lose_on_invalid,
    invalid_reward,
    states,
    obs,
    masks,
    rewards,
    terminated,
    truncated,
    ended,
    final_obs,
    results,
    lengths,
    invalid,
    status_,
    failed_at,
    err,
    err_valid,
    init_args,
):
    """One agent move in every game of the batch (see ``step_chunk``)."""
    n_chunks, n = seeds.shape[0], envs.shape[0]
    for c in prange(n_chunks):
        status_[c], failed_at[c] = step_chunk(
            c * n // n_chunks,
            (c + 1) * n // n_chunks,
            seeds[c],
            actions,
            envs,
            steps_of,
            seats,
            seat_slot,
            slot_fn,
            bot_data,
            fixed_seat,
            lose_on_invalid,
            invalid_reward,
            states,
            obs,
            masks,
            rewards,
            terminated,
            truncated,
            ended,
            final_obs,
            results,
            lengths,
            invalid,
            err[c],
            err_valid[c],
            init_args,
        )


@njit(cache=CACHE)
def random_valid_actions(seed, masks, out):
    """A uniformly random valid action per row of ``masks`` into ``out`` (-1 where none is valid)."""
    np.random.seed(seed)
    for i in range(masks.shape[0]):
        count = 0
        for a in range(masks.shape[1]):
            count += masks[i, a]
        out[i] = -1
        if count == 0:
            continue
        k = int(np.random.random() * count)
        for a in range(masks.shape[1]):
            if masks[i, a] == 1:
                if k == 0:
                    out[i] = a
                    break
                k -= 1
