"""``check_env``: does an array game obey the contract?

Every check is one small function below taking a ``CheckContext`` and returning a list of
problems (plain sentences naming the contract function at fault and how to fix it). A check that
cannot run because an earlier one failed raises ``Skip``; a check about an optional piece the
game does not have passes. ``run_checks`` returns one ``CheckResult`` per check (the CLI prints
them); ``check_env`` returns ``(ok, problems)``.

Random games are played by the referee (``env.new_match()``), the same code that steps games for
the runner, the GUI and the adapters, while the contract functions' answers are recorded.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit
from numba.core.errors import NumbaError

from makeenv.array.cache import is_numba_function, referee_module
from makeenv.array.contract import CONTRACT, OPTIONAL_FUNCTIONS, ArrayEnv, load_array_env
from makeenv.array.errors import ArrayEnvError, GameCompileError, GameError, explain_compile_error, strip_internal_names
from makeenv.array.readme import layout_problems
from makeenv.pictures import PictureError, read_picture, svg_problem

MAX_REPORTED = 3  # problems reported per check (the first few are enough to fix it)


class Skip(Exception):
    """A check could not run because something it needs is broken (reported by another check)."""


@dataclass
class CheckResult:
    """The outcome of one check: status is "pass", "fail" or "skip"."""

    name: str
    description: str
    status: str
    problems: list[str] = field(default_factory=list)
    reason: str = ""


@dataclass
class GameRecord:
    """What a random game looked like, step by step, as seen through the contract functions."""

    init_env: Any = None
    envs: list[Any] = field(default_factory=list)  # the env before each step (copies)
    players: list[Any] = field(default_factory=list)  # getCurrentPlayer at each step
    states: list[Any] = field(default_factory=list)  # getAgentState at each step
    valids: list[Any] = field(default_factory=list)  # getValidActions(state) at each step
    actions: list[int] = field(default_factory=list)
    step_returns: list[Any] = field(default_factory=list)  # what stepEnv returned (first steps)
    ended_values: list[Any] = field(default_factory=list)  # checkEnded after each step
    finals: list[tuple[int, Any, Any]] = field(default_factory=list)  # (player, state, reward)
    outcome: Any = None
    final_env: Any = None
    ended: bool = False
    truncated: bool = False
    steps: int = 0
    no_valid_action: bool = False


class TraceError(Exception):
    """A contract function raised while the checker called it; ``compile_error`` when numba could
    not compile it (the message is then numba's cause and the line, explained)."""

    def __init__(self, function: str, exc: BaseException) -> None:
        self.function = function
        self.compile_error = isinstance(exc, NumbaError)
        if self.compile_error:
            super().__init__(f"numba could not compile {function}: {strip_internal_names(explain_compile_error(exc))}.")
            return
        first = next((ln for ln in str(exc).splitlines() if ln.strip()), "")
        super().__init__(f"{function} raised {type(exc).__name__}: {strip_internal_names(first[:200])}")


@dataclass
class CheckContext:
    """The env under test and what the checks learned so far (shared between checks)."""

    env: ArrayEnv
    trace_games: int = 50
    run_games: int = 200
    level_games: int = 4  # games against each level (search bots make more costly)
    max_steps: int = 10_000
    seed: int = 12345
    memo: dict[str, Any] = field(default_factory=dict)

    def call(self, name: str, *args: Any) -> Any:
        try:
            return getattr(self.env, name)(*args)
        except Exception as exc:
            raise TraceError(name, exc) from exc

    def require_contract(self) -> None:
        if self.env.missing_functions():
            raise Skip("needs every contract function (see contract_functions)")

    def require_compiled(self) -> None:
        """Skip when numba could not compile the game (reported once, by the check that found it)."""
        if "compile_error" in self.memo:
            raise Skip(f"needs the game to compile (see {self.memo['compile_error'][0]})")

    def sizes(self) -> tuple[int, int, int]:
        if "sizes" not in self.memo:
            self.require_contract()
            try:
                values = tuple(int(self.call(f)) for f in ("getActionSize", "getStateSize", "getAgentSize"))
            except (TraceError, TypeError, ValueError) as exc:
                raise Skip(f"needs working size functions ({exc})") from None
            if min(values) <= 0:
                raise Skip("needs positive sizes (see sizes)")
            self.memo["sizes"] = values
        return self.memo["sizes"]

    def trace(self) -> list[GameRecord]:
        """Random games played by the referee, their contract answers recorded (computed once)."""
        if "trace" not in self.memo:
            self.memo["trace"] = self._play_random_games()
        trace = self.memo["trace"]
        self.require_compiled()
        if isinstance(trace, Exception):
            raise Skip(f"needs random games to play ({trace})")
        return trace

    def finished(self) -> list[GameRecord]:
        return [r for r in self.trace() if r.ended]

    def _play_random_games(self) -> list[GameRecord] | Exception:
        """Random games until each ends, or until the referee or a contract function fails (the
        records so far are kept, the failure is ``memo["trace_error"]``)."""
        n_actions, _, n_players = self.sizes()
        rng = random.Random(self.seed)
        records: list[GameRecord] = []
        env = self.env
        try:
            for g in range(self.trace_games):
                rec = GameRecord()
                try:
                    match = env.new_match(seed=self.seed + g)
                except ArrayEnvError as exc:
                    return TraceError("the referee", exc)
                records.append(rec)
                rec.init_env = match.array.copy()
                while True:
                    rec.ended_values.append(self.call("checkEnded", match.array))
                    if match.over:
                        rec.ended, rec.truncated = True, match.truncated
                        break
                    if rec.steps >= self.max_steps:
                        break
                    rec.envs.append(match.array.copy())
                    rec.players.append(self.call("getCurrentPlayer", match.array))
                    state = self.call("getAgentState", match.array)
                    rec.states.append(state)
                    valid = self.call("getValidActions", state)
                    rec.valids.append(valid)
                    flat = np.atleast_1d(np.asarray(valid))
                    choices = [i for i in range(min(len(flat), n_actions)) if flat[i] == 1.0]
                    if not choices:
                        rec.no_valid_action = True
                        break
                    action = rng.choice(choices)
                    rec.actions.append(action)
                    if rec.steps < 3:  # what stepEnv itself returns, on a copy
                        rec.step_returns.append(self.call("stepEnv", action, match.array.copy()))
                    try:
                        match.step(action)
                    except ArrayEnvError:
                        rec.ended_values.append(self.call("checkEnded", match.array))
                        raise
                    rec.steps += 1
                if rec.ended:
                    rec.final_env = match.array.copy()
                    rec.outcome = match.outcome
                    for p in range(n_players):
                        state = self.call("getPlayerState", match.array, p)
                        rec.finals.append((p, state, self.call("getReward", state)))
        except TraceError as exc:
            if exc.compile_error:
                self.memo["compile_error"] = ("random_games", str(exc))
                return exc
            self.memo["trace_error"] = exc
        except ArrayEnvError as exc:  # the referee found the game breaking the contract
            self.memo["trace_error"] = TraceError("stepping a game", exc)
        except Exception as exc:  # numba could not compile the referee for this game
            cause = strip_internal_names(explain_compile_error(exc, self.env.compiled_functions()))
            self.memo["compile_error"] = ("random_games", f"numba could not compile the game: {cause}.")
            return TraceError("compiling the game", Exception(cause))
        return records


def _as_int(value: Any) -> int | None:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        return None
    return int(value)


def _is_vector(value: Any) -> bool:
    return isinstance(value, np.ndarray) and value.ndim == 1 and value.dtype == np.float64


def _kind(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"a {value.ndim}-D {value.dtype} array"
    return f"{type(value).__name__} {value!r}"[:80]


def _limit(problems: list[str]) -> list[str]:
    if len(problems) > MAX_REPORTED:
        return problems[:MAX_REPORTED] + [f"... and {len(problems) - MAX_REPORTED} more like these"]
    return problems


def _arity_problem(name: str, func: Any, count: int) -> str | None:
    try:
        signature = inspect.signature(getattr(func, "py_func", func))
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(*([0] * count))
    except TypeError:
        return (
            f"{name}{signature} cannot be called with {count} argument{'s' if count != 1 else ''}; "
            f"the contract calls it as {name}({_args_text(name, count)})."
        )
    return None


def _args_text(name: str, count: int) -> str:
    args = (CONTRACT.get(name) or OPTIONAL_FUNCTIONS.get(name) or ("", ""))[0]
    return args if args or count == 0 else ", ".join(f"p{i}" for i in range(count))


# ---- the checks ---------------------------------------------------------------------------------


def check_contract_functions(ctx: CheckContext) -> list[str]:
    """Every contract function exists, is numba-compiled (@njit) and takes the contract's arguments;
    so does every optional function the game defines."""
    problems = []
    parameters = getattr(ctx.env.module, "PARAMETERS", None) or {}
    for name, (args, returns) in {**CONTRACT, **OPTIONAL_FUNCTIONS}.items():
        required = name in CONTRACT
        func = getattr(ctx.env.module, name, None)
        if func is None:
            if name == "getAgentSize" and "players" in parameters:
                continue
            if required:
                problems.append(f"{name} is missing: define `@njit def {name}({args})` returning {returns}.")
            continue
        if not is_numba_function(func):
            problems.append(
                f"{name} is not numba-compiled: decorate it with @njit (from numba import njit) so the "
                "runner can compile it into the game loop."
            )
            continue
        count = len([a for a in args.split(",") if a.strip()])
        if name == "initEnv" and parameters:
            count = len(parameters)
            args = ", ".join(parameters)
        problem = _arity_problem(name, func, count)
        if problem:
            problems.append(problem.replace(f"{name}({_args_text(name, count)})", f"{name}({args})"))
    return problems


def check_sizes(ctx: CheckContext) -> list[str]:
    """getActionSize, getStateSize and getAgentSize return positive ints."""
    ctx.require_contract()
    problems = []
    for name in ("getActionSize", "getStateSize", "getAgentSize"):
        try:
            value = ctx.call(name)
        except TraceError as exc:
            problems.append(f"{exc}; {name}() must return a positive int.")
            continue
        if _as_int(value) is None or value <= 0:
            problems.append(f"{name}() returned {_kind(value)}; it must return a positive int.")
    return problems


def check_init_env(ctx: CheckContext) -> list[str]:
    """initEnv returns a 1-D float64 array."""
    ctx.require_contract()
    try:
        env = ctx.call("initEnv")
    except TraceError as exc:
        return [f"{exc}; initEnv() must build a new game without errors."]
    if not _is_vector(env):
        return [
            f"initEnv() returned {_kind(env)}; it must return the env as a 1-D float64 array "
            "(np.zeros(n, dtype=np.float64))."
        ]
    return []


def check_random_games(ctx: CheckContext) -> list[str]:
    """Random games play through the contract functions without errors."""
    try:
        ctx.trace()
    except Skip:
        if ctx.memo.get("compile_error", ("",))[0] == "random_games":
            return [ctx.memo["compile_error"][1]]
        trace = ctx.memo.get("trace")
        if not isinstance(trace, TraceError):
            raise
        error: TraceError | None = trace
    else:
        error = ctx.memo.get("trace_error")
    if error is not None:
        return [
            f"While playing random games, {error}; fix {error.function} so it works on every "
            "env/state the game can reach."
        ]
    return []


def check_games_end(ctx: CheckContext) -> list[str]:
    """Games end within a bound (random play)."""
    trace = ctx.trace()
    stuck = [r for r in trace if not r.ended and not r.no_valid_action]
    if stuck:
        return [
            f"{len(stuck)} of {len(trace)} random games did not end within {ctx.max_steps} steps: make "
            "stepEnv move the game towards its end and checkEnded report it (or declare TURN_LIMIT = N "
            "to end long games with no winner)."
        ]
    return []


def check_current_player(ctx: CheckContext) -> list[str]:
    """getCurrentPlayer returns a player index 0..n-1 while the game runs."""
    _, _, n = ctx.sizes()
    bad = {repr(p) for r in ctx.trace() for p in r.players if _as_int(p) is None or not 0 <= p < n}
    if bad:
        return [
            f"getCurrentPlayer(env) returned {', '.join(sorted(bad)[:5])}; it must return the index "
            f"of the player to move, an int in 0..{n - 1}."
        ]
    return []


def _all_states(ctx: CheckContext) -> list[Any]:
    return [s for r in ctx.trace() for s in r.states + [f[1] for f in r.finals]]


def check_state_type(ctx: CheckContext) -> list[str]:
    """getAgentState and getPlayerState return 1-D float64 arrays."""
    problems = []
    trace = ctx.trace()
    for label, states in (
        ("getAgentState(env)", [s for r in trace for s in r.states]),
        ("getPlayerState(env, player)", [s for r in trace for _, s, _ in r.finals]),
    ):
        bad = {_kind(s) for s in states if not _is_vector(s)}
        if bad:
            problems.append(
                f"{label} returned {', '.join(sorted(bad))}; states must be 1-D float64 arrays "
                "(np.zeros(getStateSize(), dtype=np.float64))."
            )
    return problems


def check_state_length(ctx: CheckContext) -> list[str]:
    """State length never changes and equals getStateSize()."""
    _, size, _ = ctx.sizes()
    lengths = {len(s) for s in _all_states(ctx) if isinstance(s, np.ndarray)}
    if lengths - {size}:
        return [
            f"States had lengths {sorted(lengths)} but getStateSize() is {size}: getAgentState and "
            f"getPlayerState must always return {size} values."
        ]
    return []


def check_state_values(ctx: CheckContext) -> list[str]:
    """States hold only finite values >= 0 (no negative numbers, NaN or inf)."""
    bad = 0
    example = np.zeros(0)
    for s in _all_states(ctx):
        if isinstance(s, np.ndarray) and s.size and not (np.all(s >= 0) and np.all(np.isfinite(s))):
            bad += 1
            example = example if example.size else s
    if bad:
        return [
            f"{bad} states held negative, NaN or infinite values (e.g. {np.array2string(example, threshold=20)}): "
            "getAgentState/getPlayerState must encode everything as finite values >= 0 (use one-hot "
            "flags or shift ranges, e.g. 0 for 'none' instead of -1)."
        ]
    return []


def check_valid_actions_type(ctx: CheckContext) -> list[str]:
    """getValidActions returns a 1-D float64 array."""
    bad = {_kind(v) for r in ctx.trace() for v in r.valids if not _is_vector(v)}
    if bad:
        return [
            f"getValidActions(state) returned {', '.join(sorted(bad))}; it must return a 1-D float64 "
            "array (np.zeros(getActionSize(), dtype=np.float64))."
        ]
    return []


def check_valid_actions_length(ctx: CheckContext) -> list[str]:
    """Valid-action vectors always have getActionSize() entries."""
    n_actions, _, _ = ctx.sizes()
    lengths = {len(np.atleast_1d(v)) for r in ctx.trace() for v in r.valids}
    if lengths - {n_actions}:
        return [
            f"getValidActions(state) returned vectors of lengths {sorted(lengths)} but getActionSize() "
            f"is {n_actions}: it must always return {n_actions} values, one per action."
        ]
    return []


def check_valid_actions_binary(ctx: CheckContext) -> list[str]:
    """Valid-action vectors hold only 0 and 1."""
    values: set[float] = set()
    for r in ctx.trace():
        for v in r.valids:
            arr = np.atleast_1d(np.asarray(v, dtype=np.float64))
            values.update(float(x) for x in arr[(arr != 0.0) & (arr != 1.0)])
    if values:
        shown = ", ".join(repr(x) for x in sorted(values, key=repr)[:5])
        return [
            f"getValidActions(state) returned values {shown}; it must return only 0.0 (not allowed) and 1.0 (allowed)."
        ]
    return []


def check_valid_action_exists(ctx: CheckContext) -> list[str]:
    """At least one action is valid whenever the game is not over."""
    stuck = sum(1 for r in ctx.trace() if r.no_valid_action)
    if stuck:
        return [
            f"In {stuck} random games getValidActions(state) allowed no action while checkEnded said "
            "the game was running: every state before the end needs at least one valid action."
        ]
    return []


def check_final_valid_action(ctx: CheckContext) -> list[str]:
    """Every seat's final state offers at least one valid action (the final turn's answer is ignored)."""
    n_actions, _, _ = ctx.sizes()
    seats: set[int] = set()
    games = 0
    for r in ctx.finished():
        empty = {
            p
            for p, state, _ in r.finals
            if not np.any(np.atleast_1d(np.asarray(ctx.call("getValidActions", state)))[:n_actions] == 1.0)
        }
        games += bool(empty)
        seats |= empty
    if games:
        shown = ", ".join(str(p) for p in sorted(seats))
        return [
            f"At the end of {games} random games getValidActions(getPlayerState(env, player)) allowed no "
            f"action for player{'s' if len(seats) > 1 else ''} {shown}: every state an agent is given needs a valid action, the final one "
            "included (an agent picking among the valid actions must find one); return a mask with action 0 "
            "set when the game is over (and let isValidAction(state, 0) be True then)."
        ]
    return []


def check_step_env(ctx: CheckContext) -> list[str]:
    """stepEnv returns the env: a 1-D float64 array of unchanged length."""
    problems = set()
    for r in ctx.trace():
        length = len(r.init_env) if isinstance(r.init_env, np.ndarray) else None
        for ret in r.step_returns:
            if not _is_vector(ret):
                problems.add(
                    f"stepEnv(action, env) returned {_kind(ret)}; it must change env in place and `return env`."
                )
            elif length is not None and len(ret) != length:
                problems.add(
                    f"stepEnv(action, env) returned an env of length {len(ret)} (initEnv made "
                    f"{length}); change env in place and `return env`."
                )
    return sorted(problems)


def check_ended_range(ctx: CheckContext) -> list[str]:
    """checkEnded returns -1 (running), 0..n-1 (sole winner) or n (no sole winner)."""
    _, _, n = ctx.sizes()
    bad = {repr(v) for r in ctx.trace() for v in r.ended_values if _as_int(v) is None or not -1 <= v <= n}
    if bad:
        return [
            f"checkEnded(env) returned {', '.join(sorted(bad)[:5])}; it must return -1 while the game "
            f"runs, the sole winner 0..{n - 1}, or {n} when it ended without a sole winner."
        ]
    return []


def check_outcomes(ctx: CheckContext) -> list[str]:
    """getWinners and getReturns (when defined) give one finite value per player at the end."""
    _, _, n = ctx.sizes()
    problems: set[str] = set()
    for r in ctx.finished():
        if r.truncated:
            continue
        if ctx.env.getWinners is not None and ctx.call("checkEnded", r.final_env) == n:
            winners = ctx.call("getWinners", r.final_env)
            if not _is_vector(winners) or len(winners) != n or not np.all((winners == 0.0) | (winners == 1.0)):
                problems.add(
                    f"getWinners(env) returned {np.array2string(np.asarray(winners), threshold=10)}; it must "
                    f"return a float64 vector of {n} values, 1.0 for each player sharing first place "
                    "and 0.0 for the others."
                )
        if ctx.env.getReturns is not None:
            returns = ctx.call("getReturns", r.final_env)
            if not _is_vector(returns) or len(returns) != n or not np.all(np.isfinite(returns)):
                problems.add(
                    f"getReturns(env) returned {np.array2string(np.asarray(returns), threshold=10)}; it "
                    f"must return a float64 vector of {n} finite values, each player's return."
                )
    return _limit(sorted(problems))


def check_rewards(ctx: CheckContext) -> list[str]:
    """getReward: -1 while running; at the end 1 for each winner (sole or shared), 0 for everyone else."""
    problems = []
    running = {repr(ctx.call("getReward", s)) for r in ctx.trace() for s in r.states[:3]} - {"-1"}
    if running:
        problems.append(
            f"getReward(state) returned {', '.join(sorted(running))} while the game was running; "
            "it must return -1 until the game is over."
        )
    for r in ctx.finished():
        if r.truncated:
            continue
        for player, _, reward in r.finals:
            expected = 1 if r.outcome.results[player] == "win" else 0
            if _as_int(reward) != expected:
                won = ", ".join(str(w) for w in r.outcome.winners)
                outcome = f"player {won} won" if r.outcome.results.count("win") else "nobody won (a draw)"
                problems.append(
                    f"At the end ({outcome}) getReward(getPlayerState(env, {player})) returned {reward!r}, "
                    f"expected {expected}: each winner's final state must give 1 and every other "
                    "player's (and everyone's after a draw) 0."
                )
    return _limit(sorted(set(problems)))


ODD_STATES: dict[str, Callable[[int], np.ndarray]] = {
    "random": lambda n: np.random.default_rng(0).random(n) * 10.0,
    "zeros": lambda n: np.zeros(n),
    "ones": lambda n: np.ones(n),
    "huge": lambda n: np.full(n, 1e300),
    "negative": lambda n: np.full(n, -1e9),
    "NaN": lambda n: np.full(n, np.nan),
    "inf": lambda n: np.full(n, np.inf),
    "small integers": lambda n: np.random.default_rng(1).integers(0, 5, n).astype(np.float64),
}


def check_robust_functions(ctx: CheckContext) -> list[str]:
    """getValidActions and getReward never raise, whatever the state holds."""
    _, size, _ = ctx.sizes()
    problems = []
    for name in ("getValidActions", "getReward"):
        for label, make in ODD_STATES.items():
            try:
                getattr(ctx.env, name)(make(size))
            except Exception as exc:
                first = next((ln for ln in str(exc).splitlines() if ln.strip()), "")
                problems.append(
                    f"{name}(state) raised {type(exc).__name__} ({first[:120]}) on a {label} state: "
                    f"it must not raise for any float64 state of length {size} (treat odd "
                    "values as 'not set')."
                )
    return _limit(problems)


def check_simultaneous_hidden(ctx: CheckContext) -> list[str]:
    """SIMULTANEOUS games: rounds of one move per player, and no state shows a choice made earlier in
    the same round."""
    if not ctx.env.simultaneous:
        return []
    _, _, n = ctx.sizes()
    problems: set[str] = set()
    core = ctx.env.new_match().core
    for r in ctx.trace()[:10]:
        for start in range(0, len(r.players) - n + 1, n):
            movers = [int(p) for p in r.players[start : start + n]]
            if sorted(movers) != list(range(n)):
                problems.add(
                    f"SIMULTANEOUS is True but the players to move in a round were {movers}: each round "
                    f"must let every player move once (steps {start + 1}..{start + n})."
                )
                continue
            for k in range(n - 1):  # vary the k-th move of the round; later movers must not see it
                env_k, valid = r.envs[start + k], np.asarray(r.valids[start + k])
                seen = None
                for action in np.flatnonzero(valid == 1.0)[:6]:
                    core.seed(ctx.seed)
                    env = env_k.copy()
                    env = ctx.call("stepEnv", int(action), env)
                    nxt = int(ctx.call("getCurrentPlayer", env))
                    state = np.asarray(ctx.call("getAgentState", env))
                    if seen is None:
                        seen = state
                    elif not np.array_equal(seen, state):
                        problems.add(
                            f"SIMULTANEOUS is True but player {nxt}'s state (getAgentState) changes with the "
                            f"choice player {movers[k]} made earlier in the same round (step {start + k + 1}): a "
                            "choice must stay hidden until the round's last move (keep it in env; let "
                            "getPlayerState show it only after the round resolves)."
                        )
                        break
    return _limit(sorted(problems))


def check_sample_env(ctx: CheckContext) -> list[str]:
    """sampleEnv(state) (when defined) returns an env in which that player to move sees that state."""
    if ctx.env.sampleEnv is None:
        return []
    problems: set[str] = set()
    for r in ctx.trace()[:10]:
        for player, state, env in list(zip(r.players, r.states, r.envs))[::3][:20]:
            sampled = ctx.call("sampleEnv", state)
            if not _is_vector(sampled) or len(sampled) != len(env):
                problems.add(
                    f"sampleEnv(state) returned {_kind(sampled)}; it must return an env like initEnv's "
                    f"(a float64 vector of {len(env)})."
                )
                continue
            if int(ctx.call("getCurrentPlayer", sampled)) != int(player):
                problems.add(
                    "sampleEnv(state) returned an env in which another player is to move; the player "
                    "whose state it is must be to move."
                )
                continue
            again = np.asarray(ctx.call("getAgentState", sampled))
            if not np.array_equal(again, state):
                problems.add(
                    "getAgentState(sampleEnv(state)) differs from state: sampleEnv must keep everything "
                    "the state shows and draw only what it hides."
                )
    return _limit(sorted(problems))


def check_valid_action_agrees(ctx: CheckContext) -> list[str]:
    """isValidAction(state, a) (when defined) agrees with getValidActions(state)[a] for every action,
    in running and final states."""
    if ctx.env.isValidAction is None:
        return []
    n_actions, _, _ = ctx.sizes()
    for r in ctx.trace()[:20]:
        finals = [(state, ctx.call("getValidActions", state)) for _, state, _ in r.finals]
        pairs = list(zip(r.states, r.valids)) + finals
        # compiled code finds the first disagreement; Python checks from there and words it
        for state, valid in pairs[_first_disagreeing_pair(ctx.env.isValidAction, pairs, n_actions) :]:
            for a in range(n_actions):
                said = bool(ctx.call("isValidAction", state, a))
                if said != (np.asarray(valid)[a] == 1.0):
                    return [
                        f"isValidAction(state, {a}) returned {said} but getValidActions(state)[{a}] is "
                        f"{float(np.asarray(valid)[a])}: the two must always agree."
                    ]
    return []


@njit
def _first_disagreement(is_valid: Any, states: np.ndarray, valids: np.ndarray) -> int:
    for i in range(states.shape[0]):
        for a in range(valids.shape[1]):
            if bool(is_valid(states[i], a)) != (valids[i, a] == 1.0):
                return i
    return states.shape[0]


def _first_disagreeing_pair(is_valid: Any, pairs: list[tuple[Any, Any]], n_actions: int) -> int:
    """Index of the first (state, valid actions) pair on which the compiled ``is_valid`` disagrees
    with the valid actions (len(pairs) when it never does): checking every action of every state
    from Python takes seconds in a long game. 0 (check them all in Python) when that cannot be
    told in compiled code: a function that is not numba's, ragged arrays, or an exception."""
    if not is_numba_function(is_valid) or not pairs:
        return 0
    try:
        states = np.stack([np.asarray(state, dtype=np.float64) for state, _ in pairs])
        valids = np.stack([np.asarray(valid, dtype=np.float64) for _, valid in pairs])
        if valids.ndim != 2 or valids.shape[1] != n_actions:
            return 0
        return int(_first_disagreement(is_valid, states, valids))
    except Exception:
        return 0


def _counting_python_agent(env: ArrayEnv, seed: int) -> Callable[[np.ndarray, Any], tuple[int, Any]]:
    rng = random.Random(seed)

    def agent(state: np.ndarray, data: np.ndarray) -> tuple[int, np.ndarray]:
        reward = env.getReward(state)
        if reward != -1:
            data[1] += 1
            if reward == 1:
                data[0] += 1
            return 0, data
        actions = np.flatnonzero(env.getValidActions(state) == 1.0)
        return int(actions[rng.randrange(len(actions))]), data

    return agent


def _run_with(ctx: CheckContext, kind: str) -> Any:
    """Results of ``env.evaluate`` against random bots: a numba agent written the seed's way, or a
    plain Python random agent that counts its final turns (data[1]) and wins by getReward (data[0])."""
    key = f"run_{kind}"
    if key not in ctx.memo:
        ctx.require_contract()
        ctx.require_compiled()
        if kind == "numba":  # the seed's idiom: a random choice among getValidActions(state)
            agent = referee_module(ctx.env).valid_choice_agent
        else:
            agent = _counting_python_agent(ctx.env, ctx.seed)
        try:
            ctx.memo[key] = ctx.env.evaluate(agent, ctx.run_games, np.zeros(2), 0, seed=ctx.seed)
        except Exception as exc:
            ctx.memo[key] = exc
            if isinstance(exc, GameCompileError):  # the other checks needing a run are skipped
                ctx.memo.setdefault("compile_error", (f"runs_{kind}_agent", str(exc)))
    return ctx.memo[key]


def _first_line(exc: BaseException) -> str:
    """The first line of an error's message (makeenv's messages are one line), internal names removed."""
    return strip_internal_names(next((ln for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__))


def _run_problem(exc: Exception, kind: str) -> str:
    advice = (
        ""
        if isinstance(exc, ArrayEnvError)
        else (" Every contract function must be @njit and work inside a compiled loop.")
    )
    return f"env.run with a {kind} agent failed: {_first_line(exc)}{advice}"


def check_runs_numba_agent(ctx: CheckContext) -> list[str]:
    """env.run works with a numba agent written the seed's way and plays every game to its end."""
    result = _run_with(ctx, "numba")
    if isinstance(result, Exception):
        return [_run_problem(result, "numba")]
    if result.games != ctx.run_games:
        return [f"env.run played {result.games} of {ctx.run_games} games."]
    return []


def check_runs_python_agent(ctx: CheckContext) -> list[str]:
    """env.run works with a plain Python agent."""
    result = _run_with(ctx, "python")
    return [_run_problem(result, "plain Python")] if isinstance(result, Exception) else []


def _python_run(ctx: CheckContext) -> Any:
    result = _run_with(ctx, "python")
    if isinstance(result, Exception):
        raise Skip("needs env.run to work with a Python agent (see runs_python_agent)")
    return result


def check_completed_games(ctx: CheckContext) -> list[str]:
    """The agent's final turns show a finished game once per game played (games at TURN_LIMIT aside)."""
    results = _python_run(ctx)
    expected = results.games - results.truncated
    if int(results.agent_data[1]) != expected:
        return [
            f"{expected} games ended but the agent saw a finished game (getReward != -1) at only "
            f"{int(results.agent_data[1])} final turns: getPlayerState(env, player) must show the game as "
            "over once checkEnded(env) != -1, so getReward returns 0 or 1."
        ]
    return []


def check_wins_match_rewards(ctx: CheckContext) -> list[str]:
    """Wins counted by getReward at the final turn equal the wins env.run returns."""
    results = _python_run(ctx)
    if int(results.agent_data[0]) != results.wins:
        return [
            f"env.run counted {results.wins} wins (from checkEnded/getWinners) but getReward gave 1 at "
            f"{int(results.agent_data[0])} final turns: checkEnded(env) must return the sole winner's index "
            "(getWinners the shared winners) and getReward must return 1 exactly for the winners' final "
            "states."
        ]
    return []


def check_levels(ctx: CheckContext) -> list[str]:
    """Every built-in bot level plays valid games."""
    ctx.require_contract()
    ctx.require_compiled()
    problems = []
    for level in ctx.env.levels:
        if level == 0:
            continue
        try:
            ctx.env.evaluate("random", ctx.level_games, None, level, seed=ctx.seed)
        except Exception as exc:
            blame_bot = not isinstance(exc, GameError) or isinstance(exc, GameCompileError)
            problems.append(
                f"Level {level} ({ctx.env.levels[level]}) failed: {_first_line(exc)}"
                + (" Fix the bot in LEVELS." if blame_bot else "")
            )
    return problems


def _sample_states(ctx: CheckContext, count: int = 12) -> list[np.ndarray]:
    states = [s for r in ctx.trace()[:6] for s in r.states[::5]][:count]
    states += [s for r in ctx.finished()[:2] for _, s, _ in r.finals]
    return [s for s in states if isinstance(s, np.ndarray)]


def picture_problem(picture: Any, n_actions: int) -> str | None:
    """What is wrong with a render result (SVG text, PNG bytes or a PIL image), or None."""
    try:
        drawn = read_picture(picture)
    except PictureError as exc:
        return str(exc).removeprefix("render(state) ")
    return svg_problem(drawn.svg, n_actions) if drawn.svg is not None else None


def check_render(ctx: CheckContext) -> list[str]:
    """render(state) (when defined) draws sampled states: SVG text, PNG bytes or a PIL image."""
    if ctx.env.game_render is None:
        return []
    n_actions, _, _ = ctx.sizes()
    problems: set[str] = set()
    for state in _sample_states(ctx):
        try:
            picture = ctx.env.render(state.copy())
        except Exception as exc:
            problems.add(
                f"render(state) raised {type(exc).__name__}: {str(exc)[:150]}; it must draw every state "
                "the game can reach (including the final ones)."
            )
            continue
        problem = picture_problem(picture, n_actions)
        if problem:
            problems.add(f"render(state) {problem}.")
    return _limit(sorted(problems))


def check_describe(ctx: CheckContext) -> list[str]:
    """describe_action names every action, and describe_state (when defined) describes sampled states."""
    n_actions, _, _ = ctx.sizes()
    problems = []
    if ctx.env.game_describe_action is not None:
        for a in range(n_actions):
            try:
                text = ctx.env.game_describe_action(a)
            except Exception as exc:
                problems.append(
                    f"describe_action({a}) raised {type(exc).__name__}: {str(exc)[:150]}; it must "
                    f"name every action 0..{n_actions - 1}."
                )
                break
            if not isinstance(text, str) or not text.strip():
                problems.append(f"describe_action({a}) returned {text!r}; it must return a short non-empty str.")
                break
    if ctx.env.game_describe_state is not None:
        for state in _sample_states(ctx):
            try:
                text = ctx.env.game_describe_state(state.copy())
            except Exception as exc:
                problems.append(
                    f"describe_state(state) raised {type(exc).__name__}: {str(exc)[:150]}; it must "
                    "describe every state the game can reach."
                )
                break
            if not isinstance(text, str) or not text.strip():
                problems.append(f"describe_state(state) returned {text!r}; it must return the state in words.")
                break
    return problems


def check_readme_tables(ctx: CheckContext) -> list[str]:
    """The README's action and state tables agree with getActionSize() and getStateSize()."""
    n_actions, size, _ = ctx.sizes()
    return layout_problems(ctx.env.readme, n_actions, size, ctx.env.variant)


CHECKS: dict[str, Callable[[CheckContext], list[str]]] = {
    "contract_functions": check_contract_functions,
    "sizes": check_sizes,
    "init_env": check_init_env,
    "random_games": check_random_games,
    "games_end": check_games_end,
    "current_player": check_current_player,
    "state_type": check_state_type,
    "state_length": check_state_length,
    "state_values": check_state_values,
    "valid_actions_type": check_valid_actions_type,
    "valid_actions_length": check_valid_actions_length,
    "valid_actions_binary": check_valid_actions_binary,
    "valid_action_exists": check_valid_action_exists,
    "final_valid_action": check_final_valid_action,
    "step_env": check_step_env,
    "ended_range": check_ended_range,
    "outcomes": check_outcomes,
    "rewards": check_rewards,
    "robust_functions": check_robust_functions,
    "simultaneous_hidden": check_simultaneous_hidden,
    "sample_env": check_sample_env,
    "valid_action_agrees": check_valid_action_agrees,
    "runs_numba_agent": check_runs_numba_agent,
    "runs_python_agent": check_runs_python_agent,
    "completed_games": check_completed_games,
    "wins_match_rewards": check_wins_match_rewards,
    "levels": check_levels,
    "render": check_render,
    "describe": check_describe,
    "readme_tables": check_readme_tables,
}


def describe_check(name: str) -> str:
    """One line saying what a check verifies."""
    return " ".join((CHECKS[name].__doc__ or name).split())


def run_checks(env: Any, checks: Iterable[str] | None = None, **options: Any) -> list[CheckResult]:
    """Run the named checks (default: all) on ``env`` (an ArrayEnv, a module path, folder or module;
    ``makeenv.check_env`` also takes registered names).

    Options: ``trace_games`` (random games explored, 50), ``run_games`` (games per env.run, 200),
    ``level_games`` (games against each level, 4), ``max_steps`` (bound on a game's length, 10,000),
    ``seed``.
    """
    if not isinstance(env, ArrayEnv):
        env = load_array_env(env)
    names = list(CHECKS) if checks is None else list(checks)
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        raise ValueError(f"unknown checks {unknown}; available: {', '.join(CHECKS)}")
    for option in ("trace_games", "run_games", "level_games", "max_steps"):
        value = options.get(option)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(f"check_env: {option} must be a positive int, got {value!r}")
    ctx = CheckContext(env, **options)
    results = []
    for name in names:
        description = describe_check(name)
        try:
            problems = CHECKS[name](ctx)
        except Skip as skip:
            results.append(CheckResult(name, description, "skip", reason=str(skip)))
            continue
        except TraceError as exc:
            problems = [f"{exc}; fix {exc.function} so it works on every env/state the game can reach."]
        except Exception as exc:  # a check must never crash the checker
            problems = [f"the check crashed: {type(exc).__name__}: {strip_internal_names(str(exc))}"]
        results.append(CheckResult(name, description, "fail" if problems else "pass", problems))
    return results


def check_env(env: Any, checks: Iterable[str] | None = None, **options: Any) -> tuple[bool, list[str]]:
    """Check that an array env obeys the contract; returns ``(ok, problems)``.

    ``ok`` is False when any check failed or could not run; each problem is a sentence starting
    with the check's name.
    """
    results = run_checks(env, checks, **options)
    problems = [f"{r.name}: {p}" for r in results for p in r.problems]
    problems += [f"{r.name}: not checked, {r.reason}" for r in results if r.status == "skip"]
    ok = all(r.status == "pass" for r in results)
    return ok, problems
