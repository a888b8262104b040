"""The runner's compiled loops for one (game, agent, opponent bots) (a source template).

``makeenv.array.cache`` loads this source as a module of its own for each game referee module
(``_referee_template.py``), agent kind and set of numba bot policies, after putting them in a
hand-off dict. numba sees the agent and the bots as compile-time constants and compiles the whole
loop, agent included, in nopython mode; every rule of stepping a game comes from the referee.
"""

import numpy as np
from numba import njit

from makeenv.array.cache import take_handoff
from makeenv.array.errors import (
    ACTOR_AGENT,
    CALL_FINAL,
    CALL_MOVE,
    CALL_NONE,
    ERR_ACTOR,
    ERR_CALL,
    ERR_GAME,
    ERR_PLAYER,
    ERR_STEP,
)
from makeenv.array.results import STAT_STEPS
from makeenv.array.templates import MAX_BOT_FUNCTIONS, RANDOM_SLOT

_h = take_handoff(__name__)
R = _h["referee"]  # the game's referee module
CACHE = _h["cache"]
AGENT_KIND = _h["agent_kind"]  # "user" (a numba agent) or "random" (the built-in one)
BOTS = _h["bots"]  # the distinct numba bot policies; () when every bot is random
N_BOT_FUNCS = len(BOTS)
BOTS_RANDOM = N_BOT_FUNCS == 0
ALL_RANDOM = AGENT_KIND == "random" and BOTS_RANDOM
# in a loop of the game's bots, one of them may play the agent's seat instead of the built-in
# random agent: ``slot_fn``'s last entry is its index (-1: the random agent), ``agent_data`` its data
AGENT_MAY_BE_BOT = AGENT_KIND == "random" and not BOTS_RANDOM

RUNNING, TRUNCATED, FAILED, NOT_FOUND = R.RUNNING, R.TRUNCATED, R.FAILED, R.NOT_FOUND
CTL_ME, CTL_STEPS, CTL_GAME, CTL_PLAYERS = R.CTL_ME, R.CTL_STEPS, R.CTL_GAME, R.CTL_PLAYERS
MOVE, OVER = 0, 1
getAgentState, getPlayerState = R.getAgentState, R.getPlayerState
new_env, status, to_move, checked_action, apply = R.new_env, R.status, R.to_move, R.checked_action, R.apply
settle, record, random_move, deal_seats = R.settle, R.record, R.random_move, R.deal_seats

agent = R.random_agent if AGENT_KIND == "random" else _h["agent"]

# bot policies by index (unused indices hold the random agent and are pruned at compile time);
# call_bot below has one branch per slot, MAX_BOT_FUNCTIONS of them
if N_BOT_FUNCS > MAX_BOT_FUNCTIONS:
    raise ImportError(f"{N_BOT_FUNCS} numba bot policies; the loop dispatches to at most {MAX_BOT_FUNCTIONS}")
BOT0, BOT1, BOT2, BOT3, BOT4, BOT5, BOT6, BOT7 = (tuple(BOTS) + (R.random_agent,) * MAX_BOT_FUNCTIONS)[:8]


@njit(cache=CACHE, inline="always")
def call_bot(fn, state, data):
    """Bot policy number ``fn`` on ``state`` (its data is changed in place)."""
    if N_BOT_FUNCS > 7 and fn == 7:
        return BOT7(state, data)
    if N_BOT_FUNCS > 6 and fn == 6:
        return BOT6(state, data)
    if N_BOT_FUNCS > 5 and fn == 5:
        return BOT5(state, data)
    if N_BOT_FUNCS > 4 and fn == 4:
        return BOT4(state, data)
    if N_BOT_FUNCS > 3 and fn == 3:
        return BOT3(state, data)
    if N_BOT_FUNCS > 2 and fn == 2:
        return BOT2(state, data)
    if N_BOT_FUNCS > 1 and fn == 1:
        return BOT1(state, data)
    return BOT0(state, data)


@njit(cache=CACHE, inline="always")
def asking(err, call, p, actor, game, steps):
    """Note in the error record which compiled agent or bot is about to be called, and why (``call``:
    CALL_MOVE or CALL_FINAL; CALL_NONE once it returned). numba cannot catch what an agent raises:
    when an exception escapes the loop, Python reads this to say who raised it and when."""
    err[ERR_CALL] = call
    err[ERR_PLAYER] = p
    err[ERR_ACTOR] = actor
    err[ERR_GAME] = game
    err[ERR_STEP] = steps


@njit(cache=CACHE, inline="always")
def bot_move(state, p, slot, slot_fn, bot_data, err, err_valid, game, steps):
    """The move of the bot in ``slot`` (its data is ``bot_data[slot]``), checked."""
    if BOTS_RANDOM:
        return random_move(state, err, err_valid, p, slot, game, steps)
    return policy_move(state, p, slot, slot_fn[slot], bot_data[slot], err, err_valid, game, steps)


@njit(cache=CACHE, inline="always")
def policy_move(state, p, actor, fn, data, err, err_valid, game, steps):
    """The move of bot policy ``fn`` (RANDOM_SLOT: the built-in random agent) for ``actor``, checked."""
    if fn == RANDOM_SLOT:
        return random_move(state, err, err_valid, p, actor, game, steps)
    asking(err, CALL_MOVE, p, actor, game, steps)
    raw, _ = call_bot(fn, state, data)
    err[ERR_CALL] = CALL_NONE
    return checked_action(raw, state, err, err_valid, p, actor, game, steps)


@njit(cache=CACHE, inline="always")
def final_turns(env, me, agent_data, seat_slot, slot_fn, bot_data, err, game, steps):
    """Every compiled player's final turn, in seat order: each sees its final state (the answers are
    ignored). The built-in random agent and bots have no memory, so theirs are skipped, and so are
    the Python seats' (slot_fn -1: Python gives them theirs); a game's bot in the agent's seat has
    its final turn as the opponents' bots do. Returns agent_data."""
    for p in range(seat_slot.shape[0]):
        if p == me and AGENT_KIND != "random":
            state = getPlayerState(env, p)
            asking(err, CALL_FINAL, p, ACTOR_AGENT, game, steps)
            _, agent_data = agent(state, agent_data)
            continue
        if BOTS_RANDOM:
            continue
        # the bot seats, and the agent's when a game's bot plays it: one call site, compiled once
        if p == me:
            if not AGENT_MAY_BE_BOT:  # never at run time; the constant drops this branch for a user's
                continue  # agent, whose data may be of any type (not the bots')
            actor, fn, data = ACTOR_AGENT, slot_fn[slot_fn.shape[0] - 1], agent_data
        else:
            actor = seat_slot[p]
            fn, data = slot_fn[actor], bot_data[actor]
        if 0 <= fn < RANDOM_SLOT:
            state = getPlayerState(env, p)
            asking(err, CALL_FINAL, p, actor, game, steps)
            call_bot(fn, state, data)
    err[ERR_CALL] = CALL_NONE
    return agent_data


@njit(cache=CACHE, inline="always")
def play_one(agent_data, bot_data, slot_fn, seat_slot, me, stats, winners, returns, err, err_valid, game, init_args):
    """One game with the agent in seat ``me``; returns (False after an error, agent_data).

    Inlined into its callers: a call per game reference-counts every array argument (the padded
    bot-data tuple's among them), a fifth of a short game such as KuhnPoker's."""
    players = seat_slot.shape[0]
    env = new_env(init_args)
    steps = 0
    now = RUNNING
    while True:
        now = status(env, steps, err, err_valid, game, players)
        if now != RUNNING:
            break
        p = to_move(env, err, err_valid, game, steps, players)
        if p == NOT_FOUND:
            return False, agent_data
        state = getAgentState(env)
        actor = ACTOR_AGENT if p == me else seat_slot[p]
        if ALL_RANDOM:  # every seat plays the same random choice: one code path, no branch
            a = random_move(state, err, err_valid, p, actor, game, steps)
        elif AGENT_MAY_BE_BOT:  # the agent's seat plays as the bots' do: one call site, compiled once
            if p == me:
                fn, data = slot_fn[slot_fn.shape[0] - 1], agent_data
                if fn < 0:
                    fn = RANDOM_SLOT
            else:
                fn, data = slot_fn[actor], bot_data[actor]
            a = policy_move(state, p, actor, fn, data, err, err_valid, game, steps)
        elif p == me:
            asking(err, CALL_MOVE, p, ACTOR_AGENT, game, steps)
            raw, agent_data = agent(state, agent_data)
            err[ERR_CALL] = CALL_NONE
            a = checked_action(raw, state, err, err_valid, p, ACTOR_AGENT, game, steps)
        else:
            a = bot_move(state, p, actor, slot_fn, bot_data, err, err_valid, game, steps)
        if a == NOT_FOUND or not apply(a, env, err, err_valid, p, actor, game, steps):
            return False, agent_data
        steps += 1
    if now == FAILED:
        return False, agent_data
    truncated = now == TRUNCATED
    count = settle(env, truncated, winners, returns)
    record(stats, me, winners, returns, count, steps, truncated)
    agent_data = final_turns(env, me, agent_data, seat_slot, slot_fn, bot_data, err, game, steps)
    return True, agent_data


@njit(cache=CACHE)
def n_games(num_games, agent_data, bot_data, slot_fn, stats, err, err_valid, first_game, init_args):
    """Play ``num_games`` games, seats dealt each game (one row of ``stats`` per seat: its rows are the
    player count; ``init_args``: initEnv's arguments); returns (games completed, agent_data)."""
    players = stats.shape[0]
    seat_slot = np.empty(players, dtype=np.int64)
    winners = np.empty(players, dtype=np.float64)
    returns = np.empty(players, dtype=np.float64)
    for g in range(num_games):
        me = deal_seats(seat_slot, not BOTS_RANDOM)
        ok, agent_data = play_one(
            agent_data,
            bot_data,
            slot_fn,
            seat_slot,
            me,
            stats,
            winners,
            returns,
            err,
            err_valid,
            first_game + g,
            init_args,
        )
        if not ok:
            return g, agent_data
    return num_games, agent_data


@njit(cache=CACHE)
def seated_games(
    seeds,
    agent_data,
    bot_data,
    slot_fn,
    seat_slot,
    me,
    stats,
    winners,
    returns,
    lengths,
    err,
    err_valid,
    first,
    init_args,
):
    """One game per seed with the seats fixed (the agent in ``me``, the bot slots as in ``seat_slot``),
    numba's generator seeded before each: game ``g``'s winners and returns into row ``g`` of
    ``winners`` and ``returns``, its length into ``lengths[g]``. Stops at the first error (game
    ``first + g`` in the record). Returns (games completed, agent_data)."""
    for g in range(seeds.shape[0]):
        np.random.seed(seeds[g])
        before = stats[me, STAT_STEPS]
        ok, agent_data = play_one(
            agent_data,
            bot_data,
            slot_fn,
            seat_slot,
            me,
            stats,
            winners[g],
            returns[g],
            err,
            err_valid,
            first + g,
            init_args,
        )
        if not ok:
            return g, agent_data
        lengths[g] = stats[me, STAT_STEPS] - before
    return seeds.shape[0], agent_data


@njit(cache=CACHE)
def py_advance(env, ctl, seat_slot, slot_fn, bot_data, stats, winners, returns, err, err_valid):
    """Let numba bots move until a Python seat (the agent's, or a slot with ``slot_fn == -1``) must
    move, or the game is over. Returns (MOVE, seat, its state), (OVER, -1, env) after settling the
    game, recording it and giving the numba bots their final turns, or (FAILED, -1, env)."""
    me = int(ctl[CTL_ME])
    game = int(ctl[CTL_GAME])
    steps = int(ctl[CTL_STEPS])
    players = int(ctl[CTL_PLAYERS])
    while True:
        now = status(env, steps, err, err_valid, game, players)
        if now != RUNNING:
            break
        p = to_move(env, err, err_valid, game, steps, players)
        if p == NOT_FOUND:
            return FAILED, -1, env
        state = getAgentState(env)
        slot = seat_slot[p]
        if p == me or slot_fn[slot] < 0:
            ctl[CTL_STEPS] = steps
            return MOVE, p, state
        a = bot_move(state, p, slot, slot_fn, bot_data, err, err_valid, game, steps)
        if a == NOT_FOUND or not apply(a, env, err, err_valid, p, slot, game, steps):
            return FAILED, -1, env
        steps += 1
    ctl[CTL_STEPS] = steps
    if now == FAILED:
        return FAILED, -1, env
    truncated = now == TRUNCATED
    count = settle(env, truncated, winners, returns)
    record(stats, me, winners, returns, count, steps, truncated)
    final_turns(env, me, bot_data[0], seat_slot, slot_fn, bot_data, err, game, steps)  # (no agent data here)
    return OVER, -1, env
