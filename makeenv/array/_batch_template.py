"""The batched env's compiled core: N games of one array game stepped in one call (a source template).

``makeenv.array.cache.batch_module`` loads this source as a module of its own for each game
referee (``_referee_template.py``), runner loop module (``_loop_template.py``, whose bots it
calls) and threading choice, after putting them in a hand-off dict. Every rule of stepping a
game (whose turn it is, which actions are valid, the outcome, TURN_LIMIT) comes from the referee;
the opponents' moves come from the loop module's ``bot_move``. This file only arranges many games
side by side: the agent's move in each, the bots' replies until the agent is to move again, and
a new game (seats dealt as the runner deals them) as soon as one ends.

The games are split in ``chunks``; each chunk is stepped by one thread with numba's generator
seeded from ``seeds[chunk]``, so a batch is reproducible for a given seed and chunk count
whatever the number of threads. Compiled code never raises: each chunk fills its own error
record and ``status`` entry, and Python raises from them.
"""

import numpy as np
from numba import njit, prange

from makeenv.array.cache import take_handoff
from makeenv.array.errors import ACTOR_AGENT, ACTOR_GAME, ENV_LENGTH_CHANGED

_h = take_handoff(__name__)
R = _h["referee"]          # the game's referee module
L = _h["loop"]             # the runner's loop module for these bots (bot_move, call_bot)
CACHE = _h["cache"]
PARALLEL = _h["parallel"]  # chunks run on numba's threads

N_PLAYERS, N_ACTIONS = R.N_PLAYERS, R.N_ACTIONS
RUNNING, TRUNCATED, FAILED, NOT_FOUND = R.RUNNING, R.TRUNCATED, R.FAILED, R.NOT_FOUND
BOTS_RANDOM = L.BOTS_RANDOM
getAgentState, getPlayerState, getValidActions = R.getAgentState, R.getPlayerState, R.getValidActions
isValidAction, HAS_IS_VALID = R.isValidAction, R.HAS_IS_VALID
new_env, status, to_move, checked_action, apply = R.new_env, R.status, R.to_move, R.checked_action, R.apply
settle, deal_seats = R.settle, R.deal_seats
bot_move, call_bot = L.bot_move, L.call_bot

# a chunk's status after a call
CHUNK_OK, CHUNK_FAILED, CHUNK_STUCK = 0, 1, 2
MAX_DEALS = 100  # games in a row that may end before the agent's first move
# results of ended episodes, from the agent's view
LOSS, DRAW, WIN = -1, 0, 1


@njit(cache=CACHE, inline="always")
def deal(i, env, steps, seats, seat_slot, fixed_seat, err, err_valid):
    """Start game ``i`` in ``env`` (its row of the batch): a new game, the agent's seat
    (``fixed_seat``, or drawn when -1) and the opponents' slots in the other seats, shuffled as the
    runner shuffles them. False on error."""
    fresh = new_env()
    if fresh.shape[0] != env.shape[0]:  # every game of a batch has the env length of the first
        R.fail(err, err_valid, ENV_LENGTH_CHANGED, -1, -1.0, ACTOR_GAME, i, 0, fresh)
        return False
    env[:] = fresh
    steps[i] = 0
    me = deal_seats(seat_slot[i], not BOTS_RANDOM)
    if fixed_seat >= 0 and me != fixed_seat:  # swap the agent into its seat
        seat_slot[i, me] = seat_slot[i, fixed_seat]
        seat_slot[i, fixed_seat] = -1
        me = fixed_seat
    seats[i] = me
    return True


@njit(cache=CACHE, inline="always")
def let_bots_move(i, env, steps, me, seat_slot, slot_fn, game_bot_data, err, err_valid):
    """Bots move in game ``i`` until the agent (seat ``me``) is to move (RUNNING) or the game ends
    (ENDED, TRUNCATED); FAILED after recording an error."""
    while True:
        now = status(env, steps[i], err, err_valid, i)
        if now != RUNNING:
            return now
        p = to_move(env, err, err_valid, i, steps[i])
        if p == NOT_FOUND:
            return FAILED
        if p == me:
            return RUNNING
        slot = seat_slot[i, p]
        a = bot_move(getAgentState(env), p, slot, slot_fn, game_bot_data, err, err_valid, i, steps[i])
        if a == NOT_FOUND or not apply(a, env, err, err_valid, p, slot, i, steps[i]):
            return FAILED
        steps[i] += 1


@njit(cache=CACHE, inline="always")
def bots_final_turns(i, env, me, seat_slot, slot_fn, game_bot_data):
    """Every bot of game ``i`` sees its final state (the action is ignored), as in a run."""
    if BOTS_RANDOM:
        return
    for p in range(N_PLAYERS):
        if p != me:
            slot = seat_slot[i, p]
            call_bot(slot_fn[slot], getPlayerState(env, p), game_bot_data[slot])


@njit(cache=CACHE, inline="always")
def observe(i, env, me, states, obs, masks):
    """The agent's state in game ``i`` (kept exactly in ``states``, as float32 in ``obs``) and its
    valid actions (``masks``), into row ``i``."""
    state = getPlayerState(env, me)
    for k in range(obs.shape[1]):
        states[i, k] = state[k]
        obs[i, k] = state[k]
    if HAS_IS_VALID:  # no vector to allocate
        for a in range(N_ACTIONS):
            masks[i, a] = 1 if isValidAction(state, a) else 0
    else:
        valid = getValidActions(state)
        for a in range(N_ACTIONS):
            masks[i, a] = 1 if valid[a] == 1.0 else 0


@njit(cache=CACHE, inline="always")
def start_episode(i, env, steps, seats, seat_slot, slot_fn, game_bot_data, fixed_seat, states, obs, masks, err,
                  err_valid):
    """Deal game ``i`` and let the bots move up to the agent's first turn (CHUNK_OK); games that
    end before it are dealt again (CHUNK_STUCK after MAX_DEALS of them)."""
    for _ in range(MAX_DEALS):
        if not deal(i, env, steps, seats, seat_slot, fixed_seat, err, err_valid):
            return CHUNK_FAILED
        me = seats[i]
        now = let_bots_move(i, env, steps, me, seat_slot, slot_fn, game_bot_data, err, err_valid)
        if now == FAILED:
            return CHUNK_FAILED
        if now == RUNNING:
            observe(i, env, me, states, obs, masks)
            return CHUNK_OK
        bots_final_turns(i, env, me, seat_slot, slot_fn, game_bot_data)
    return CHUNK_STUCK


@njit(cache=CACHE, inline="always")
def step_one(i, action, env, steps, seats, seat_slot, slot_fn, game_bot_data, fixed_seat, lose_on_invalid,
             invalid_reward, states, obs, masks, rewards, terminated, truncated, ended, final_obs, results, lengths,
             invalid, winners, returns, err, err_valid):
    """The agent's ``action`` in game ``i`` (whose env is ``env``), the bots' replies, and a new game
    if it ended."""
    me = seats[i]
    rewards[i] = 0.0
    terminated[i] = False
    truncated[i] = False
    ended[i] = False
    invalid[i] = False
    # the agent's state is the one it was shown (kept exact in ``states``)
    a = checked_action(action, states[i], err, err_valid, me, ACTOR_AGENT, i, steps[i])
    if a == NOT_FOUND:
        if not lose_on_invalid:
            return CHUNK_FAILED
        err[:] = 0.0  # the episode is lost instead
        rewards[i] = invalid_reward
        terminated[i] = True
        invalid[i] = True
        results[i] = LOSS
    else:
        if not apply(a, env, err, err_valid, me, ACTOR_AGENT, i, steps[i]):
            return CHUNK_FAILED
        steps[i] += 1
        now = let_bots_move(i, env, steps, me, seat_slot, slot_fn, game_bot_data, err, err_valid)
        if now == FAILED:
            return CHUNK_FAILED
        if now == RUNNING:
            observe(i, env, me, states, obs, masks)
            return CHUNK_OK
        is_truncated = now == TRUNCATED
        count = settle(env, is_truncated, winners, returns)
        rewards[i] = returns[me]
        terminated[i] = not is_truncated
        truncated[i] = is_truncated
        if count == 0 or count == N_PLAYERS:
            results[i] = DRAW
        else:
            results[i] = WIN if winners[me] == 1.0 else LOSS
        bots_final_turns(i, env, me, seat_slot, slot_fn, game_bot_data)
    ended[i] = True
    lengths[i] = steps[i]
    state = getPlayerState(env, me)
    for k in range(final_obs.shape[1]):
        final_obs[i, k] = state[k]
    return start_episode(i, env, steps, seats, seat_slot, slot_fn, game_bot_data, fixed_seat, states, obs, masks,
                         err, err_valid)


@njit(cache=CACHE, inline="always")
def bots_of_game(bot_data, i, unused):
    """Game ``i``'s opponent data (``unused`` when every bot is random: no view to make)."""
    if BOTS_RANDOM:
        return unused
    return bot_data[i]


@njit(cache=CACHE, parallel=PARALLEL)
def reset_batch(seeds, envs, steps, seats, seat_slot, slot_fn, bot_data, fixed_seat, states, obs, masks, status_,
                failed_at, err, err_valid):
    """A new game in every slot of the batch, each up to the agent's first move."""
    n_chunks = seeds.shape[0]
    n = envs.shape[0]
    for c in prange(n_chunks):
        np.random.seed(seeds[c])
        status_[c] = CHUNK_OK
        chunk_err, chunk_err_valid, unused = err[c], err_valid[c], bot_data[0]
        for i in range(c * n // n_chunks, (c + 1) * n // n_chunks):
            code = start_episode(i, envs[i], steps, seats, seat_slot, slot_fn, bots_of_game(bot_data, i, unused),
                                 fixed_seat, states, obs, masks, chunk_err, chunk_err_valid)
            if code != CHUNK_OK:
                status_[c] = code
                failed_at[c] = i
                break


@njit(cache=CACHE, parallel=PARALLEL)
def step_batch(seeds, actions, envs, steps, seats, seat_slot, slot_fn, bot_data, fixed_seat, lose_on_invalid,
               invalid_reward, states, obs, masks, rewards, terminated, truncated, ended, final_obs, results, lengths,
               invalid, status_, failed_at, err, err_valid):
    """One agent move in every game of the batch (see ``step_one``), chunk by chunk."""
    n_chunks = seeds.shape[0]
    n = envs.shape[0]
    for c in prange(n_chunks):
        np.random.seed(seeds[c])
        status_[c] = CHUNK_OK
        winners = np.empty(N_PLAYERS, dtype=np.float64)
        returns = np.empty(N_PLAYERS, dtype=np.float64)
        chunk_err, chunk_err_valid, unused = err[c], err_valid[c], bot_data[0]
        for i in range(c * n // n_chunks, (c + 1) * n // n_chunks):
            code = step_one(i, actions[i], envs[i], steps, seats, seat_slot, slot_fn,
                            bots_of_game(bot_data, i, unused), fixed_seat, lose_on_invalid, invalid_reward, states,
                            obs, masks, rewards, terminated, truncated, ended, final_obs, results, lengths, invalid,
                            winners, returns, chunk_err, chunk_err_valid)
            if code != CHUNK_OK:
                status_[c] = code
                failed_at[c] = i
                break


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
