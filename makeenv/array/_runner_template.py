"""The one game loop of every array env (source template; do not import directly).

``makeenv.array.runner`` loads this source once per (game, agent, level) as its own module, after
putting the game's contract functions, the agent and the opponent bot in a hand-off dict. Numba
then sees them as compile-time constants and compiles (and inlines) the whole loop in nopython
mode. When every function involved lives in a source file, the module is a copy of this file
under the makeenv cache directory, named after a hash of all the sources involved, so
``cache=True`` keeps the compiled loop between processes.

Errors inside the compiled loop never raise: they fill ``err`` and return, and the Python side
turns them into a readable exception. ``err`` layout:

    err[0] code: 0 ok, 1 action out of range, 2 action not an integer, 3 action not valid here,
           4 getCurrentPlayer out of range, 5 game did not end within MAX_STEPS steps,
           6 checkEnded out of range, 7 no valid action for the built-in random agent,
           8 stepEnv returned an env of another length (Python-agent mode keeps env in place)
    err[1] player index (seat) involved      err[2] the action (as float)
    err[3] 1 if it was the agent, 0 a bot   err[4] index of the game in the run
    err[5] steps taken in the current game, err[6] the agent's seat (Python-agent mode)
    err_valid[:] valid-action vector at the error (when there was one)
"""

import numpy as np
from numba import njit

from makeenv.array.runner import take_handoff

_h = take_handoff(__name__)

initEnv = _h["initEnv"]
getCurrentPlayer = _h["getCurrentPlayer"]
getPlayerState = _h["getPlayerState"]
getAgentState = _h["getAgentState"]
stepEnv = _h["stepEnv"]
getValidActions = _h["getValidActions"]
checkEnded = _h["checkEnded"]
getReward = _h["getReward"]
N_PLAYERS = _h["n_players"]
N_ACTIONS = _h["n_actions"]
MAX_STEPS = _h["max_steps"]
CACHE = _h["cache"]
AGENT_KIND = _h["agent_kind"]  # "user", "random" or "counting"
BOT_IS_RANDOM = _h["bot"] is None


@njit(cache=CACHE, inline="always")
def random_agent(state, data):
    """Pick uniformly among the valid actions (-1 when there is none)."""
    valid = getValidActions(state)
    count = 0
    for i in range(valid.shape[0]):
        if valid[i] == 1.0:
            count += 1
    if count == 0:
        return -1, data
    k = int(np.random.random() * count)
    for i in range(valid.shape[0]):
        if valid[i] == 1.0:
            if k == 0:
                return i, data
            k -= 1
    return -1, data


@njit(cache=CACHE)
def counting_agent(state, data):
    """Random agent that counts, at its final turns, games seen (data[1]) and wins by getReward (data[0])."""
    reward = getReward(state)
    if reward != -1:
        data[1] += 1.0
        if reward == 1:
            data[0] += 1.0
    return random_agent(state, data)


if AGENT_KIND == "random":
    agent = random_agent
elif AGENT_KIND == "counting":
    agent = counting_agent
else:
    agent = _h["agent"]
bot = random_agent if BOT_IS_RANDOM else _h["bot"]


@njit(cache=CACHE)
def seed(value):
    np.random.seed(value)


@njit(cache=CACHE)
def fail(err, err_valid, code, player, action, is_agent, game, state):
    err[0] = code
    err[1] = player
    err[2] = action
    err[3] = is_agent
    err[4] = game
    if code == 1 or code == 2 or code == 3 or code == 7:
        valid = getValidActions(state)
        for i in range(min(valid.shape[0], err_valid.shape[0])):
            err_valid[i] = valid[i]


@njit(cache=CACHE, inline="always")
def checked_action(action, state, err, err_valid, player, is_agent, game):
    """The action as an int, or -1 after recording why it is not acceptable."""
    a = float(action)
    if not (a >= 0.0 and a < N_ACTIONS):
        fail(err, err_valid, 1, player, a, is_agent, game, state)
        return -1
    if a != np.floor(a):
        fail(err, err_valid, 2, player, a, is_agent, game, state)
        return -1
    i = int(a)
    valid = getValidActions(state)
    if valid[i] != 1.0:
        fail(err, err_valid, 3, player, a, is_agent, game, state)
        return -1
    return i


@njit(cache=CACHE, inline="always")
def draw_seat():
    """The agent's seat for the next game, uniform over 0..n-1 (the seed's List_other shuffle:
    the opponents are identical copies of the level's bot, so only the agent's seat matters)."""
    return int(np.random.random() * N_PLAYERS)


@njit(cache=CACHE, inline="always")
def trusted_action(raw, state, err, err_valid, player, is_agent, game):
    """The built-in random agent only picks valid actions; -1 means there was none."""
    a = raw
    if a < 0:
        fail(err, err_valid, 7, player, -1.0, is_agent, game, state)
    return a


@njit(cache=CACHE, inline="always")
def random_bot_move(state, p, bot_data, err, err_valid, game):
    a, _ = random_agent(state, 0.0)
    return trusted_action(a, state, err, err_valid, p, 0, game)


@njit(cache=CACHE, inline="always")
def level_bot_move(state, p, bot_data, err, err_valid, game):
    raw, _ = bot(state, bot_data[p])
    return checked_action(raw, state, err, err_valid, p, 0, game)


@njit(cache=CACHE, inline="always")
def no_final_turn(env, p, bot_data):
    return 0


@njit(cache=CACHE, inline="always")
def level_bot_final_turn(env, p, bot_data):
    bot(getPlayerState(env, p), bot_data[p])
    return 0


# the built-in random agent is trusted (its actions need no check) and needs no final turn;
# each bot seat p has its own memory row bot_data[p]
agent_action = trusted_action if AGENT_KIND == "random" else checked_action
bot_move = random_bot_move if BOT_IS_RANDOM else level_bot_move
bot_final_turn = no_final_turn if BOT_IS_RANDOM else level_bot_final_turn
ALL_RANDOM = AGENT_KIND == "random" and BOT_IS_RANDOM


@njit(cache=CACHE, inline="always")
def play_one(agent_data, bot_data, me, err, err_valid, game):
    """One game with the agent in seat ``me``; returns (winner, or -2 after an error, agent_data)."""
    env = initEnv()
    steps = 0
    while checkEnded(env) == -1:
        if steps >= MAX_STEPS:
            fail(err, err_valid, 5, -1, -1.0, 0, game, env)
            return -2, agent_data
        p = getCurrentPlayer(env)
        if p < 0 or p >= N_PLAYERS:
            fail(err, err_valid, 4, p, -1.0, 0, game, env)
            return -2, agent_data
        state = getAgentState(env)
        if ALL_RANDOM:  # every seat plays the same random choice: one code path, no branch
            raw, _ = random_agent(state, 0.0)
            a = trusted_action(raw, state, err, err_valid, p, 1 if p == me else 0, game)
        elif p == me:
            raw, agent_data = agent(state, agent_data)
            a = agent_action(raw, state, err, err_valid, p, 1, game)
        else:
            a = bot_move(state, p, bot_data, err, err_valid, game)
        if a < 0:
            return -2, agent_data
        env = stepEnv(a, env)
        steps += 1
    winner = checkEnded(env)
    if winner < 0 or winner > N_PLAYERS:
        fail(err, err_valid, 6, winner, -1.0, 0, game, env)
        return -2, agent_data
    # final turn: every player sees its final state (the action is ignored)
    for p in range(N_PLAYERS):
        if p == me:
            _, agent_data = agent(getPlayerState(env, p), agent_data)
        else:
            bot_final_turn(env, p, bot_data)
    return winner, agent_data


@njit(cache=CACHE)
def n_games(num_games, agent_data, bot_data, err, err_valid, first_game):
    """Play ``num_games`` games, the agent's seat drawn each game; returns (wins, games_done, agent_data)."""
    wins = 0
    for g in range(num_games):
        me = draw_seat()
        winner, agent_data = play_one(agent_data, bot_data, me, err, err_valid, first_game + g)
        if winner == -2:
            return wins, g, agent_data
        if winner == me:
            wins += 1
    return wins, num_games, agent_data


# ---- plain Python agents: the loop is in Python, everything between two agent moves is here ----

@njit(cache=CACHE, inline="always")
def step_in_place(a, env):
    """stepEnv, keeping ``env`` the game's array (Python mode holds on to it between calls):
    an env returned as another array of the same length is copied back; False if the length changed."""
    new = stepEnv(a, env)
    if new.shape[0] != env.shape[0]:
        return False
    if new.ctypes.data != env.ctypes.data:
        env[:] = new
    return True


@njit(cache=CACHE)
def py_advance(env, bot_data, err, err_valid, game):
    """Let bots move until the agent (seat ``err[6]``) must act or the game is over.

    Returns (status, state): status 0 -> the agent moves next and ``state`` is what it sees;
    1 -> the game is over and the agent won, ``state`` is its final state (the bots have had
    their final turns); 2 -> over, the agent did not win; -1 -> error recorded in ``err``.
    """
    steps = int(err[5])
    me = int(err[6])
    while checkEnded(env) == -1:
        if steps >= MAX_STEPS:
            fail(err, err_valid, 5, -1, -1.0, 0, game, env)
            return -1, env
        p = getCurrentPlayer(env)
        if p < 0 or p >= N_PLAYERS:
            fail(err, err_valid, 4, p, -1.0, 0, game, env)
            return -1, env
        state = getAgentState(env)
        if p == me:
            err[5] = steps
            return 0, state
        a = bot_move(state, p, bot_data, err, err_valid, game)
        if a < 0:
            return -1, env
        if not step_in_place(a, env):
            fail(err, err_valid, 8, p, a, 0, game, env)
            return -1, env
        steps += 1
    winner = checkEnded(env)
    if winner < 0 or winner > N_PLAYERS:
        fail(err, err_valid, 6, winner, -1.0, 0, game, env)
        return -1, env
    for p in range(N_PLAYERS):
        if p != me:
            bot_final_turn(env, p, bot_data)
    mine = getPlayerState(env, me)
    if winner == me:
        return 1, mine
    return 2, mine


@njit(cache=CACHE)
def py_start(bot_data, err, err_valid, game):
    """Draw the agent's seat, start a game and advance to the agent's first move.

    Returns (status, state, env) with status and state as py_advance's."""
    err[6] = draw_seat()
    err[5] = 0.0
    env = initEnv()
    status, state = py_advance(env, bot_data, err, err_valid, game)
    return status, state, env


@njit(cache=CACHE)
def py_step(action, env, bot_data, err, err_valid, game):
    """Apply the agent's integer action (after checking it), then advance as py_advance does."""
    p = getCurrentPlayer(env)
    state = getAgentState(env)
    a = checked_action(action, state, err, err_valid, p, 1, game)
    if a < 0:
        return -1, state
    if not step_in_place(a, env):
        fail(err, err_valid, 8, p, a, 1, game, env)
        return -1, state
    err[5] += 1.0
    return py_advance(env, bot_data, err, err_valid, game)
