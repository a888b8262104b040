"""The generic runner: ``evaluate`` (and through it ``run``, ``n_games``, ``one_game``) for every game.

The loops themselves are compiled functions (``_loop_template.py``, built by
``makeenv.array.cache``) calling the game's compiled referee (``_referee_template.py``):

* a numba (``@njit``) agent against numba bots: the whole n-games loop runs compiled;
* a plain Python agent, or any plain Python opponent: Python asks the Python seats for their
  moves; everything between two of their moves (checks, ``stepEnv``, numba bots, outcomes) is one
  compiled call.

A run plays the agent against the opponents of a level (or the ``opponents`` given): one per
other seat, shuffled every game. Each game's outcome is added to a per-seat stats table
(``makeenv.array.results``); ``workers=N`` splits the games over N forked processes.
"""

from __future__ import annotations

import copy
import inspect
import multiprocessing
import os
import random
import re
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numba
import numpy as np
from numba.core.errors import NumbaError

from makeenv.array import errors as E
from makeenv.array.agents import Bot
from makeenv.array.cache import BUILTIN_RANDOM_AGENTS, describe, is_numba_function, loop_module, referee_module
from makeenv.array.results import Results, new_stats
from makeenv.array.templates import BOT_DATA_SLOTS, MAX_BOT_FUNCTIONS, RANDOM_SLOT

if TYPE_CHECKING:
    from makeenv.array.contract import ArrayEnv

NUMBA_CHUNK = 100_000  # most games per compiled call
CHUNK_SECONDS = 0.2  # aim of one compiled call's length: Ctrl-C and progress are seen between calls

Progress = Callable[[int, int], None]


# ---- checking arguments -------------------------------------------------------------------------


def names_builtin_random(agent: Any) -> bool:
    """True for ``None``, ``"random"`` and every game's built-in random agent."""
    return agent is None or (isinstance(agent, str) and agent == "random") or _is_builtin_random(agent)


def _is_builtin_random(policy: Any) -> bool:
    try:
        return policy in BUILTIN_RANDOM_AGENTS
    except TypeError:
        return False


def check_agent_signature(agent: Any, role: str = "agent") -> None:
    """Fail early, with a clear message, when ``agent`` cannot be called as agent(state, data)."""
    if names_builtin_random(agent):
        return
    if isinstance(agent, Bot):
        agent = agent.policy
    if not callable(agent):
        raise E.AgentError(
            f"{role} must be a function {role}(state, agent_data) -> (action, agent_data), "
            f"got {type(agent).__name__} {agent!r}"
        )
    try:
        signature = inspect.signature(getattr(agent, "py_func", agent))
    except (TypeError, ValueError):
        return
    try:
        signature.bind(np.zeros(1), None)
    except TypeError:
        raise E.AgentError(
            f"{role} {describe(agent)}{signature} must accept two arguments (state, agent_data) "
            "and return (action, agent_data)"
        ) from None


def check_num_games(num_games: Any) -> int:
    """``num_games`` as a positive int, or a clear error."""
    if isinstance(num_games, bool) or not isinstance(num_games, (int, np.integer)):
        raise TypeError(f"num_games must be a positive int, got {type(num_games).__name__} {num_games!r}")
    if num_games <= 0:
        raise ValueError(f"num_games must be a positive int, got {num_games}")
    return int(num_games)


def check_workers(workers: Any) -> int:
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise ValueError(f"workers must be a positive int (processes to play in), got {workers!r}")
    return int(workers)


def check_seed(seed: Any) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative int or None, got {seed!r}")
    return int(seed)


# ---- what a run plays against ---------------------------------------------------------------------


@dataclass
class Plan:
    """Everything a run needs: the compiled module, the agent's kind, the opponents' slots."""

    env: ArrayEnv
    module: Any  # the loops (``_loop_template.py``)
    referee: Any  # the game's referee (``_referee_template.py``)
    agent: Any
    agent_kind: str  # "random", "user" (numba), "python" or "bot" (one of the game's bots, see make_plan)
    opponents: list[Bot]  # one per slot (slot k sits in a different seat every game)
    slot_fn: np.ndarray  # per slot: index of its numba policy in the module's BOTS, -1: Python; last:
    # the agent's index when it is one of them ("bot"), else -1
    level: int | None  # None when the opponents were given
    python_seats: bool = False  # some seat is played from Python
    names: list[str] = field(default_factory=list)

    @property
    def shuffle(self) -> bool:
        """Whether the opponents' seats are shuffled (pointless when every opponent is random)."""
        return not self.module.BOTS_RANDOM

    def fresh_bot_data(self) -> tuple[np.ndarray, ...]:
        """Each slot's starting data (its Bot's data, copied), as the compiled loop takes it."""
        return bot_data_tuple([bot.initial_data() for bot in self.opponents])

    def loop_data(self, agent_data: Any) -> Any:
        """The agent's data as the compiled loop takes it. The built-in random agent ignores its
        data, so it always gets zeros of the opponents' data type: one compile whatever a caller
        passes, and the type a game's bot in the agent's seat has in the same loop."""
        return np.zeros_like(self.fresh_bot_data()[0]) if self.agent_kind == "random" else agent_data

    def data_after(self, given: Any, returned: Any) -> Any:
        """The agent's data after a run: the caller's own for the built-in random agent."""
        return given if self.agent_kind == "random" else returned

    def name_actor(self, actor: int, player: int) -> str:
        if actor == E.ACTOR_AGENT:
            return (
                f"player {player} (your agent {describe(self.agent)})"
                if self.agent_kind in ("user", "python", "bot")
                else f"player {player} (the built-in random agent)"
            )
        if 0 <= actor < len(self.names):
            return f"player {player} ({self.names[actor]})"
        return f"player {player}"


def bot_data_tuple(slots: list[Any]) -> tuple[Any, ...]:
    """The opponent slots' data as the compiled loops take it: padded with zeros to
    ``BOT_DATA_SLOTS`` entries, so the tuple's numba type, and the compiled loop, is the same for
    every player count."""
    data = list(slots) or [np.zeros(1)]
    filler = np.zeros_like(data[0])
    return tuple(data + [filler] * (BOT_DATA_SLOTS - len(data)))


def make_plan(
    env: ArrayEnv, agent: Any, level: int = 0, opponents: Iterable[Any] | None = None, agent_data: Any = None
) -> Plan:
    """Resolve the agent and the opponents of a run into a compiled module and slot table
    (``agent_data``: the data the agent will start with, when known)."""
    env.require_contract()
    check_agent_signature(agent)
    count = env.players - 1
    if opponents is None:
        bots = env.opponents(level)
        names = [f"the level-{level} bot {bot.label}" if level else "the random bot" for bot in bots]
    else:
        given = [opponents] if callable(opponents) or isinstance(opponents, Bot) else list(opponents)
        if not given and count:
            raise ValueError(
                f"{env.name}: opponents is empty; give at least one agent or Bot (it is repeated "
                f"over the {count} other seat{'s' if count != 1 else ''})"
            )
        for i, entry in enumerate(given):
            check_agent_signature(entry, f"opponent {i + 1}")
        bots = [entry if isinstance(entry, Bot) else Bot(entry) for entry in given]
        bots = [bots[i % len(bots)] for i in range(count)]
        names = [f"opponent {i + 1} {bot.label}" for i, bot in enumerate(bots)]
    if names_builtin_random(agent):
        kind = "random"
    elif is_numba_function(agent):
        kind = "user"
    else:
        kind = "python"
    every_random = all(_is_builtin_random(bot.policy) for bot in bots)
    functions: list[Any] = []
    if opponents is None and (not every_random or kind == "user"):  # one compiled loop serves every level
        functions = _distinct(
            bot.policy
            for bots_of_level in env.level_bots.values()
            for bot in bots_of_level
            if is_numba_function(bot.policy)
        )
        idiom = referee_module(env).valid_choice_agent
        own_agent = kind == "user" and not any(agent is f for f in (*functions, idiom))
        if functions and len(functions) < MAX_BOT_FUNCTIONS and not own_agent:
            # the seed's agent idiom rides in the loop of the levels: check_env's numba run is played
            # by the loop its level check compiles (a user's own agent gets a loop without it)
            functions.append(idiom)
        if len(functions) > MAX_BOT_FUNCTIONS or (
            every_random and not _plays_as_a_bot(agent, agent_data, functions, bots)
        ):
            functions = []  # at level 0 the loop of the levels serves only a level's bot in the agent's seat
    slot_fn = np.full(max(count, 1) + 1, -1, dtype=np.int64)
    for slot, bot in enumerate(bots):
        if every_random:
            slot_fn[slot] = RANDOM_SLOT if functions else 0
        elif is_numba_function(bot.policy):
            if not any(bot.policy is f for f in functions):
                functions.append(bot.policy)
            slot_fn[slot] = next(i for i, f in enumerate(functions) if f is bot.policy)
    if len(functions) > MAX_BOT_FUNCTIONS:
        raise ValueError(
            f"{env.name}: {len(functions)} different numba bot policies in one run; at most "
            f"{MAX_BOT_FUNCTIONS} are supported"
        )
    python_seats = kind == "python" or bool((slot_fn[:count] < 0).any())
    if kind == "user" and not python_seats and _plays_as_a_bot(agent, agent_data, functions, bots):
        # one of the game's own bots in the agent's seat: the loop of its levels plays it as it
        # plays the opponents, so comparing levels compiles no loop of its own
        kind = "bot"
        slot_fn[-1] = next(i for i, f in enumerate(functions) if f is agent)
    module_kind = "random" if python_seats or kind == "bot" else kind
    module = loop_module(env, module_kind, agent if module_kind == "user" else None, tuple(functions))
    return Plan(
        env, module, module.R, agent, kind, bots, slot_fn, level if opponents is None else None, python_seats, names
    )


def _plays_as_a_bot(agent: Any, agent_data: Any, functions: list[Any], bots: list[Bot]) -> bool:
    """Whether ``agent`` is one of the level loop's bot ``functions`` and ``agent_data`` has the
    numba type of the bots' data (so the loop can call it as it calls them)."""
    if not any(agent is f for f in functions) or not bots:
        return False
    try:
        return bool(numba.typeof(agent_data) == numba.typeof(bot_data_tuple([bots[0].initial_data()])[0]))
    except (TypeError, ValueError):
        return False


def _distinct(policies: Iterable[Any]) -> list[Any]:
    found: list[Any] = []
    for policy in policies:
        if not any(policy is f for f in found):
            found.append(policy)
    return found


# ---- running ------------------------------------------------------------------------------------


def seed_everything(plan: Plan, seed: int | None) -> None:
    """Seed numba's generator (games, bots, seat shuffles, random agents) and Python's and NumPy's."""
    if seed is None:
        return
    plan.referee.seed(seed % 2**32)
    random.seed(seed)
    np.random.seed(seed % 2**32)


def prepare(
    env: ArrayEnv, agent: Any, agent_data: Any = None, level: int = 0, *, opponents: Iterable[Any] | None = None
) -> Plan:
    """Build (and compile) the loop for this agent, agent_data type and opponents."""
    with keeping_ctrl_c():
        plan = make_plan(env, agent, level, opponents, agent_data)
        _compile(plan, agent_data)
    return plan


@contextmanager
def keeping_ctrl_c() -> Iterator[Callable[[], None]]:
    """Keep a Ctrl-C that numba would lose: one that arrives inside llvmlite's ctypes callbacks while
    numba compiles is printed and dropped there ("Exception ignored on calling ctypes callback"),
    and the compile goes on or fails with another error. Within the block every Ctrl-C is noted:
    the block's error becomes the KeyboardInterrupt, the end of the block raises it, and so does
    the check function it yields (call it between units of work). Only in the main thread, and only
    while Ctrl-C raises KeyboardInterrupt (a handler that is a function)."""
    noted = False

    def check() -> None:
        if noted:
            raise KeyboardInterrupt

    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or not callable(previous):
        yield check
        return

    def note(signum: int, frame: Any) -> None:
        nonlocal noted
        noted = True
        previous(signum, frame)

    signal.signal(signal.SIGINT, note)
    try:
        yield check
    except BaseException as exc:
        if noted and not isinstance(exc, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise
    finally:
        signal.signal(signal.SIGINT, previous)
    check()


def _compile(plan: Plan, agent_data: Any) -> None:
    """Compile the loop for these agent_data types (before seeding: it may draw random numbers)."""
    for attempt in (1, 2):
        try:
            _warm_up(plan, agent_data)
            return
        except E.ArrayEnvError:
            raise
        except ModuleNotFoundError as exc:  # numba's cache names a module the game no longer has
            if attempt == 2 or not (exc.name or "").startswith("_makeenv_") or not _clear_numba_cache(plan.env):
                raise
        except Exception as exc:
            _raise_compile_error(plan, agent_data, exc)


def _warm_up(plan: Plan, agent_data: Any) -> None:
    module, env = plan.module, plan.env
    err, err_valid = E.new_record(), np.zeros(int(env.getActionSize()))
    stats = new_stats(env.players)
    if plan.python_seats:
        ctl, seat_slot = np.zeros(plan.referee.CTL_SIZE), np.zeros(env.players, dtype=np.int64)
        winners, returns = np.zeros(env.players), np.zeros(env.players)
        game = plan.referee.py_new_game(ctl, seat_slot, 0, plan.shuffle, env.init_args)
        module.py_advance(
            game, ctl, seat_slot, plan.slot_fn, plan.fresh_bot_data(), stats, winners, returns, err, err_valid
        )
        plan.referee.py_step(0.0, game, ctl, E.ACTOR_AGENT, err, err_valid)
    else:
        data = plan.loop_data(agent_data)
        module.n_games(0, data, plan.fresh_bot_data(), plan.slot_fn, stats, err, err_valid, 0, env.init_args)


def _clear_numba_cache(env: ArrayEnv) -> bool:
    """Delete numba's cache files of a game folder (they name an old module); True if any were."""
    folder = env.folder
    if not folder:
        return False
    removed = False
    for path in Path(folder).rglob("__pycache__/*.nb[ic]"):
        path.unlink(missing_ok=True)
        removed = True
    return removed


def evaluate(
    env: ArrayEnv,
    agent: Any,
    num_games: int,
    agent_data: Any = None,
    level: int = 0,
    seed: int | None = None,
    *,
    opponents: Iterable[Any] | None = None,
    workers: int = 1,
    progress: Progress | None = None,
) -> Results:
    """Play ``num_games`` games; see ``ArrayEnv.evaluate``."""
    num_games = check_num_games(num_games)
    workers = check_workers(workers)
    seed = check_seed(seed)
    plan = prepare(env, agent, agent_data, level, opponents=opponents)
    if workers > 1 and num_games > 1:
        return _evaluate_in_workers(plan, num_games, agent_data, seed, min(workers, num_games), progress)
    seed_everything(plan, seed)
    stats = new_stats(env.players)
    try:
        agent_data = play(plan, num_games, agent_data, stats, progress)
    except KeyboardInterrupt as exc:
        if isinstance(exc, E.RunInterrupted):
            raise
        raise E.RunInterrupted(Results.from_stats(stats, agent_data)) from None
    return Results.from_stats(stats, agent_data)


def play(
    plan: Plan,
    num_games: int,
    agent_data: Any,
    stats: np.ndarray,
    progress: Progress | None = None,
    first_game: int = 0,
) -> Any:
    """Play games with a prepared plan, adding them to ``stats``; returns the final agent_data."""
    if plan.python_seats:
        return _play_python(plan, num_games, agent_data, stats, progress, first_game)
    return _play_numba(plan, num_games, agent_data, stats, progress, first_game)


def _play_numba(
    plan: Plan, num_games: int, agent_data: Any, stats: np.ndarray, progress: Progress | None, first_game: int
) -> Any:
    err, err_valid = E.new_record(), np.zeros(int(plan.env.getActionSize()))
    bot_data = plan.fresh_bot_data()
    given, agent_data = agent_data, plan.loop_data(agent_data)
    chunk = 1  # grows until one call takes about CHUNK_SECONDS (a Splendor game is slow, an RPS one is not)
    done = 0
    while done < num_games:
        size = min(chunk, num_games - done)
        started = time.perf_counter()
        try:
            played, agent_data = plan.module.n_games(
                size,
                agent_data,
                bot_data,
                plan.slot_fn,
                stats,
                err,
                err_valid,
                first_game + done,
                plan.env.init_args,
            )
        except Exception as exc:  # a compiled agent raised, or compile errors for another agent_data type
            _raise_loop_exception(plan, agent_data, err, exc)
        chunk = next_chunk(size, time.perf_counter() - started)
        done += played
        if err[E.ERR_CODE] != E.OK:
            raise _error(plan, err, err_valid)
        if progress is not None:
            progress(done, num_games)
    return plan.data_after(given, agent_data)


@dataclass
class SeatedGames:
    """Games played with the seats fixed (``play_seated``), one row per game."""

    winners: np.ndarray  # (games, players): 1.0 for each winner
    returns: np.ndarray  # (games, players)
    lengths: np.ndarray  # (games,): moves played
    errors: dict[int, tuple[int, Exception]]  # game index -> (the seat at fault, what it did); rows zero
    agent_data: Any


def play_seated(
    plan: Plan, me: int, seat_slot: np.ndarray, seeds: np.ndarray, agent_data: Any, bot_data: Any = None
) -> SeatedGames:
    """One game per seed with the agent in seat ``me`` and opponent slot ``seat_slot[p]`` in seat
    ``p`` (-1 at ``me``), numba's generator seeded with the game's seed first: every seat's
    winners, returns and length per game, for tournaments that fix the seating themselves. A game
    stopped by an invalid action or a policy that raised is kept in ``errors`` and play goes on
    with the next seed. Needs a plan whose seats are all compiled (no Python policy)."""
    if plan.python_seats:
        raise ValueError(f"{plan.env.name}: play_seated needs numba policies in every seat; a Python one is seated")
    players = plan.env.players
    seat_slot = np.asarray(seat_slot, dtype=np.int64)
    if seat_slot.shape != (players,) or seat_slot[me] != -1:
        raise ValueError(
            f"{plan.env.name}: seat_slot must hold one slot per seat ({players}) and -1 at the agent's seat {me}, "
            f"got {seat_slot.tolist()}"
        )
    seeds = np.asarray(seeds, dtype=np.int64)
    games = seeds.shape[0]
    winners, returns, lengths = np.zeros((games, players)), np.zeros((games, players)), np.zeros(games)
    errors: dict[int, tuple[int, Exception]] = {}
    bot_data = plan.fresh_bot_data() if bot_data is None else bot_data
    err, err_valid = E.new_record(), np.zeros(int(plan.env.getActionSize()))
    stats = new_stats(players)
    given, agent_data = agent_data, plan.loop_data(agent_data)
    done = 0
    while done < games:
        try:
            played, agent_data = plan.module.seated_games(
                seeds[done:],
                agent_data,
                bot_data,
                plan.slot_fn,
                seat_slot,
                me,
                stats,
                winners[done:],
                returns[done:],
                lengths[done:],
                err,
                err_valid,
                done,
                plan.env.init_args,
            )
        except Exception as exc:  # a compiled policy raised in game err[ERR_GAME]
            played = int(err[E.ERR_GAME]) - done
            seat = int(err[E.ERR_PLAYER])
            try:
                _raise_loop_exception(plan, agent_data, err, exc)
            except E.AgentRaisedError as raised:
                errors[done + played] = (seat, raised)
        else:
            if err[E.ERR_CODE] != E.OK:
                errors[done + played] = (int(err[E.ERR_PLAYER]), _error(plan, err, err_valid))
        if done + played in errors:
            winners[done + played] = returns[done + played] = 0.0
            lengths[done + played] = 0.0
            err[:] = 0.0
            played += 1
        done += played
    return SeatedGames(winners, returns, lengths, errors, plan.data_after(given, agent_data))


def next_chunk(size: int, seconds: float) -> int:
    """Games for the next compiled call, after ``size`` games took ``seconds``: about
    ``CHUNK_SECONDS`` worth, growing at most 4x a call, at most ``NUMBA_CHUNK``."""
    wanted = size * CHUNK_SECONDS / max(seconds, 1e-6)
    return int(max(1, min(wanted, 4 * size, NUMBA_CHUNK)))


def _play_python(
    plan: Plan, num_games: int, agent_data: Any, stats: np.ndarray, progress: Progress | None, first_game: int
) -> Any:
    env, module, referee = plan.env, plan.module, plan.referee
    n_actions, players = int(env.getActionSize()), env.players
    err, err_valid = E.new_record(), np.zeros(n_actions)
    ctl, seat_slot = np.zeros(referee.CTL_SIZE), np.zeros(players, dtype=np.int64)
    winners, returns = np.zeros(players), np.zeros(players)
    bot_data = plan.fresh_bot_data()
    agent = env.random_agent if plan.agent_kind == "random" else plan.agent
    python_slots = [slot for slot in range(players - 1) if plan.slot_fn[slot] < 0]
    py_policies = {slot: plan.opponents[slot].policy for slot in python_slots}
    py_data = {slot: bot_data[slot] for slot in python_slots}
    every = max(1, num_games // 100)
    MOVE, OVER = module.MOVE, module.OVER
    for g in range(first_game, first_game + num_games):
        game_env = referee.py_new_game(ctl, seat_slot, g, plan.shuffle, env.init_args)
        me = int(ctl[referee.CTL_ME])
        while True:
            try:
                code, player, state = module.py_advance(
                    game_env, ctl, seat_slot, plan.slot_fn, bot_data, stats, winners, returns, err, err_valid
                )
            except Exception as exc:  # a numba bot raised
                _raise_loop_exception(plan, agent_data, err, exc)
            if code == OVER:
                break
            if code != MOVE:
                raise _error(plan, err, err_valid)
            if player == me:
                actor, policy = E.ACTOR_AGENT, agent
                action, agent_data = _reply(plan, policy, state, agent_data, actor)
            else:
                actor = int(seat_slot[player])
                action, py_data[actor] = _reply(plan, py_policies[actor], state, py_data[actor], actor)
            reason = E.action_code(action, n_actions)
            if reason != E.OK:
                raise E.InvalidActionError(
                    E.invalid_action_message(
                        env.name,
                        plan.name_actor(actor, player),
                        action,
                        reason,
                        n_actions,
                        np.asarray(env.getValidActions(state)),
                        env.describe_action,
                        where=f"in game {g + 1} of the run, step {int(ctl[referee.CTL_STEPS]) + 1}",
                    )
                )
            if not referee.py_step(float(action), game_env, ctl, actor, err, err_valid):
                raise _error(plan, err, err_valid)
        # final turns of the Python seats (the numba bots had theirs in py_advance)
        _, agent_data = _reply(
            plan, agent, np.asarray(env.getPlayerState(game_env, me)), agent_data, E.ACTOR_AGENT, final=True
        )
        for p in range(players):
            if p != me and plan.slot_fn[seat_slot[p]] < 0:
                slot = int(seat_slot[p])
                _, py_data[slot] = _reply(
                    plan,
                    py_policies[slot],
                    np.asarray(env.getPlayerState(game_env, p)),
                    py_data[slot],
                    slot,
                    final=True,
                )
        if progress is not None and (g - first_game + 1) % every == 0:
            progress(g - first_game + 1, num_games)
    return agent_data


def _reply(plan: Plan, policy: Any, state: np.ndarray, data: Any, actor: int, final: bool = False) -> tuple[Any, Any]:
    """A Python seat's (action, data); an exception it raises is marked with who raised it."""
    who = "your agent" if actor == E.ACTOR_AGENT else plan.names[actor]
    try:
        reply = policy(state, data)
    except Exception as exc:
        E.mark_raised_by(
            exc,
            f"{who} {describe(policy)}" if actor == E.ACTOR_AGENT else who,
            actor,
            f"in {plan.env.name}{' at its final turn' if final else ''}",
        )
        raise
    if type(reply) is not tuple or len(reply) != 2:
        raise E.AgentError(
            f"{plan.env.name}: {who} {describe(policy)} returned {type(reply).__name__} "
            f"{_short(reply)}{' at its final turn' if final else ''}; an agent must return "
            "(action, agent_data)"
        )
    return reply


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _error(plan: Plan, err: np.ndarray, err_valid: np.ndarray) -> E.ArrayEnvError:
    record = err.copy()
    err[:] = 0.0
    return E.error_from_record(
        plan.env.name,
        record,
        n_players=plan.env.players,
        n_actions=int(plan.env.getActionSize()),
        max_steps=plan.env.max_steps,
        valid=err_valid.copy(),
        name_actor=plan.name_actor,
        describe=plan.env.describe_action,
    )


# ---- several processes --------------------------------------------------------------------------


def _worker(
    plan: Plan, games: int, first_game: int, agent_data: Any, seed: int, counter: Any, conn: Any, send_data: bool
) -> None:
    stats = new_stats(plan.env.players)
    try:
        seed_everything(plan, seed)
        last = [0]

        def report(done: int, _total: int) -> None:
            with counter.get_lock():
                counter.value += done - last[0]
            last[0] = done

        agent_data = play(plan, games, agent_data, stats, report, first_game)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the result is complete: nothing to interrupt
        conn.send(("ok", stats, agent_data if send_data else None))
    except KeyboardInterrupt:  # Ctrl-C (the terminal's or the parent's): send the games played so far
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        conn.send(("interrupted", stats, None))
    except BaseException as exc:  # everything else goes back to the parent, which raises it
        conn.send(("error", E.keep_user_traceback(exc), None))
    finally:
        conn.close()


def _evaluate_in_workers(
    plan: Plan, num_games: int, agent_data: Any, seed: int | None, workers: int, progress: Progress | None
) -> Results:
    """Split the games over ``workers`` forked processes, each with its own seed (derived from
    ``seed``, so a run is reproducible for a given seed and worker count)."""
    if "fork" not in multiprocessing.get_all_start_methods():
        raise E.ArrayEnvError("workers > 1 needs the 'fork' start method (Linux, macOS); use workers=1 here")
    context = multiprocessing.get_context("fork")
    entropy = seed if seed is not None else int.from_bytes(os.urandom(8), "little")
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(entropy).spawn(workers)]
    shares = [num_games // workers + (1 if i < num_games % workers else 0) for i in range(workers)]
    counter = context.Value("q", 0)
    processes, pipes, first = [], [], 0
    for i in range(workers):
        parent_end, child_end = context.Pipe(duplex=False)
        process = context.Process(
            target=_worker,
            args=(plan, shares[i], first, copy.deepcopy(agent_data), seeds[i], counter, child_end, i == 0),
            daemon=True,
        )
        process.start()
        child_end.close()
        processes.append(process)
        pipes.append(parent_end)
        first += shares[i]
    replies: list[Any] = [None] * workers
    try:
        try:
            while any(r is None for r in replies):
                _collect(plan, processes, pipes, replies)
                if progress is not None:
                    progress(min(counter.value, num_games), num_games)
        except KeyboardInterrupt:
            raise E.RunInterrupted(_interrupted_results(plan, processes, pipes, replies)) from None
    finally:
        for process, reply in zip(processes, replies):
            process.join(timeout=5 if reply is not None else 0)  # no reply: interrupted and stuck
            if process.is_alive():
                process.kill()
    for status, payload, _ in replies:
        if status == "error":
            raise payload
    stats = sum(payload for _, payload, _ in replies)
    if progress is not None:
        progress(num_games, num_games)
    return Results.from_stats(stats, replies[0][2])


def _collect(plan: Plan, processes: list[Any], pipes: list[Any], replies: list[Any], wait: float = 0.05) -> None:
    """Read the replies that arrived; a worker that died without one replies with an error."""
    for i, pipe in enumerate(pipes):
        if replies[i] is None and pipe.poll(wait):
            replies[i] = pipe.recv()
        elif replies[i] is None and not processes[i].is_alive() and not pipe.poll():
            replies[i] = (
                "error",
                E.ArrayEnvError(
                    f"{plan.env.name}: worker {i} stopped without a result (exit code {processes[i].exitcode})"
                ),
                None,
            )


def _interrupted_results(plan: Plan, processes: list[Any], pipes: list[Any], replies: list[Any]) -> Results:
    """After Ctrl-C: stop the workers (SIGINT), gather the games they finished, within a few seconds."""
    for process, reply in zip(processes, replies):
        if reply is None and process.is_alive():
            os.kill(process.pid, signal.SIGINT)
    deadline = time.monotonic() + 3.0
    try:
        while any(r is None for r in replies) and time.monotonic() < deadline:
            _collect(plan, processes, pipes, replies, wait=0.01)
    except KeyboardInterrupt:  # a second Ctrl-C: report what arrived
        pass
    stats = new_stats(plan.env.players)
    for reply in replies:
        if reply is not None and reply[0] in ("ok", "interrupted"):
            stats += reply[1]
    return Results.from_stats(stats)


# ---- exceptions out of compiled loops, explained ----------------------------------------------------


def _raise_loop_exception(plan: Plan, agent_data: Any, err: np.ndarray, exc: BaseException) -> None:
    """Re-raise an exception that escaped a compiled loop: one raised by a compiled agent or bot
    (the error record says which, at which seat and turn) as AgentRaisedError, chained to it; a
    Ctrl-C as the KeyboardInterrupt it is; else a compile error, explained."""
    E.raise_hidden_interrupt(exc)
    if int(err[E.ERR_CALL]) == E.CALL_NONE:
        _raise_compile_error(plan, agent_data, exc)
        return
    record = err.copy()
    err[:] = 0.0
    actor = int(record[E.ERR_ACTOR])
    policy = plan.agent if actor == E.ACTOR_AGENT else plan.opponents[actor].policy
    raise E.AgentRaisedError(
        E.raised_in_call_message(plan.env.name, record, exc, plan.name_actor, E.strip_internal_names(describe(policy)))
    ) from exc


def _raise_compile_error(plan: Plan, agent_data: Any, exc: BaseException) -> None:
    """Re-raise a numba compile failure as a short message about the agent or the game."""
    E.raise_hidden_interrupt(exc)
    if not isinstance(exc, NumbaError):
        raise exc
    env = plan.env
    if plan.agent_kind in ("user", "bot"):
        problem = _probe_numba_agent(env, plan.agent, agent_data)
        if problem:
            raise E.AgentError(f"{env.name}: agent {describe(plan.agent)} {problem}") from None
    functions = {name: f for name, f in env.compiled_functions().items() if f is not None}
    functions.update({describe(bot.policy).rsplit(".", 1)[-1]: bot.policy for bot in plan.opponents})
    cause = E.strip_internal_names(E.explain_compile_error(exc, functions))
    located = re.search(r", line \d+|it must return", cause)  # the cause names the function at fault
    raise E.GameCompileError(
        f"{env.name}: numba could not compile the game: {cause}."
        + ("" if located else " `makeenv check` on the game tells which contract function is at fault.")
    ) from None


def _probe_numba_agent(env: ArrayEnv, agent: Any, agent_data: Any) -> str | None:
    """Call the agent once on a real state to find out what it does wrong."""
    try:
        state = env.getAgentState(env.initEnv())
        data = copy.deepcopy(agent_data)
    except Exception:
        return None
    try:
        reply = agent(state, data)
    except Exception as exc:
        return (
            f"cannot be compiled for (state: float64 array, agent_data: {type(agent_data).__name__}): "
            f"{E.strip_internal_names(E.explain_compile_error(exc))}"
        )
    if not isinstance(reply, tuple) or len(reply) != 2:
        return f"returned {type(reply).__name__} {_short(reply)}; an agent must return (action, agent_data)"
    action, new_data = reply
    if not isinstance(action, (int, float, np.integer, np.floating)) or isinstance(action, (bool, np.bool_)):
        return f"returned action {_short(action)} of type {type(action).__name__}; an action must be an int"
    if type(new_data) is not type(agent_data) or (
        isinstance(agent_data, np.ndarray) and (new_data.dtype != agent_data.dtype or new_data.ndim != agent_data.ndim)
    ):
        return (
            f"returned agent_data of type {type(new_data).__name__} but was given "
            f"{type(agent_data).__name__}; in a compiled loop agent_data must keep its type"
        )
    return None


__all__ = [
    "Plan",
    "evaluate",
    "make_plan",
    "play",
    "prepare",
    "names_builtin_random",
    "check_agent_signature",
    "check_num_games",
    "seed_everything",
]
