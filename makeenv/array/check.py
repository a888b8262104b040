"""``check_env``: does an array game obey the contract?

Every check is one small function below taking a ``CheckContext`` and returning a list of
problems (plain sentences naming the contract function at fault and how to fix it). A check
that cannot run because an earlier one failed raises ``Skip``. ``run_checks`` returns one
``CheckResult`` per check (the CLI prints them); ``check_env`` returns ``(ok, problems)``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import numpy as np

from makeenv.array import runner as _runner
from makeenv.array.contract import CONTRACT, ArrayEnv, load_array_env

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
    players: list[Any] = field(default_factory=list)      # getCurrentPlayer at each step
    states: list[Any] = field(default_factory=list)       # getAgentState at each step
    valids: list[Any] = field(default_factory=list)       # getValidActions(state) at each step
    step_returns: list[Any] = field(default_factory=list)  # what stepEnv returned
    ended_values: list[Any] = field(default_factory=list)  # checkEnded after each step
    finals: list[tuple[int, Any, Any]] = field(default_factory=list)  # (player, state, reward)
    winner: Any = None
    ended: bool = False
    steps: int = 0
    no_valid_action: bool = False


class TraceError(Exception):
    def __init__(self, function: str, exc: BaseException) -> None:
        first = next((ln for ln in str(exc).splitlines() if ln.strip()), "")
        super().__init__(f"{function} raised {type(exc).__name__}: {first[:200]}")
        self.function = function


@dataclass
class CheckContext:
    """The env under test and what the checks learned so far (shared between checks)."""

    env: ArrayEnv
    trace_games: int = 50
    run_games: int = 200
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
        """Random games played step by step through the contract functions (computed once)."""
        if "trace" not in self.memo:
            self.memo["trace"] = self._play_random_games()
        trace = self.memo["trace"]
        if isinstance(trace, Exception):
            raise Skip(f"needs random games to play ({trace})")
        return trace

    def _play_random_games(self) -> list[GameRecord] | Exception:
        n_actions, _, n_players = self.sizes()
        rng = random.Random(self.seed)
        records: list[GameRecord] = []
        try:
            for _ in range(self.trace_games):
                rec = GameRecord()
                records.append(rec)
                env = self.call("initEnv")
                rec.init_env = env
                while True:
                    ended = self.call("checkEnded", env)
                    rec.ended_values.append(ended)
                    if _as_int(ended) != -1:
                        rec.ended, rec.winner = True, ended
                        break
                    if rec.steps >= self.max_steps:
                        break
                    rec.players.append(self.call("getCurrentPlayer", env))
                    state = self.call("getAgentState", env)
                    rec.states.append(state)
                    valid = self.call("getValidActions", state)
                    rec.valids.append(valid)
                    choices = [i for i in range(min(len(np.atleast_1d(valid)), n_actions)) if np.atleast_1d(valid)[i] == 1.0]
                    if not choices:
                        rec.no_valid_action = True
                        break
                    returned = self.call("stepEnv", rng.choice(choices), env)
                    rec.step_returns.append(returned)
                    if _is_vector(returned) and isinstance(env, np.ndarray) and len(returned) == len(env):
                        env = returned
                    rec.steps += 1
                if rec.ended:
                    for p in range(n_players):
                        state = self.call("getPlayerState", env, p)
                        rec.finals.append((p, state, self.call("getReward", state)))
        except TraceError as exc:
            return exc
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


# ---- the checks ---------------------------------------------------------------------------------

def check_contract_functions(ctx: CheckContext) -> list[str]:
    """Every contract function exists and is numba-compiled (@njit)."""
    problems = []
    for name, (args, returns) in CONTRACT.items():
        func = getattr(ctx.env, name)
        if func is None:
            problems.append(f"{name} is missing: define `@njit def {name}({args})` returning {returns}.")
        elif not _runner.is_numba_function(func):
            problems.append(
                f"{name} is not numba-compiled: decorate it with @njit (from numba import njit) so the "
                "runner can compile it into the game loop."
            )
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
        return [f"initEnv() returned {_kind(env)}; it must return the env as a 1-D float64 array "
                "(np.zeros(n, dtype=np.float64))."]
    return []


def check_random_games(ctx: CheckContext) -> list[str]:
    """Random games play through the contract functions without errors."""
    try:
        ctx.trace()
    except Skip:
        trace = ctx.memo.get("trace")
        if isinstance(trace, TraceError):
            return [f"While playing random games, {trace}; fix {trace.function} so it works on every "
                    "env/state the game can reach."]
        raise
    return []


def check_games_end(ctx: CheckContext) -> list[str]:
    """Games end within a bound (random play)."""
    trace = ctx.trace()
    stuck = [r for r in trace if not r.ended and not r.no_valid_action]
    if stuck:
        return [f"{len(stuck)} of {len(trace)} random games did not end within {ctx.max_steps} steps: make "
                "stepEnv move the game towards its end and checkEnded report it (add a turn cap that "
                "ends the game with no winner)."]
    return []


def check_current_player(ctx: CheckContext) -> list[str]:
    """getCurrentPlayer returns a player index 0..n-1 while the game runs."""
    _, _, n = ctx.sizes()
    bad = {repr(p) for r in ctx.trace() for p in r.players if _as_int(p) is None or not 0 <= p < n}
    if bad:
        return [f"getCurrentPlayer(env) returned {', '.join(sorted(bad)[:5])}; it must return the index "
                f"of the player to move, an int in 0..{n - 1}."]
    return []


def check_state_type(ctx: CheckContext) -> list[str]:
    """getAgentState and getPlayerState return 1-D float64 arrays."""
    problems = []
    trace = ctx.trace()
    for label, states in (("getAgentState(env)", [s for r in trace for s in r.states]),
                          ("getPlayerState(env, player)", [s for r in trace for _, s, _ in r.finals])):
        bad = {_kind(s) for s in states if not _is_vector(s)}
        if bad:
            problems.append(f"{label} returned {', '.join(sorted(bad))}; states must be 1-D float64 arrays "
                            "(np.zeros(getStateSize(), dtype=np.float64)).")
    return problems


def check_state_length(ctx: CheckContext) -> list[str]:
    """State length never changes and equals getStateSize()."""
    _, size, _ = ctx.sizes()
    trace = ctx.trace()
    lengths = {len(s) for r in trace for s in r.states + [f[1] for f in r.finals] if isinstance(s, np.ndarray)}
    if lengths - {size}:
        return [f"States had lengths {sorted(lengths)} but getStateSize() is {size}: getAgentState and "
                f"getPlayerState must always return {size} values."]
    return []


def check_state_non_negative(ctx: CheckContext) -> list[str]:
    """States hold no negative (or NaN) values."""
    trace = ctx.trace()
    bad = 0
    example = None
    for r in trace:
        for s in r.states + [f[1] for f in r.finals]:
            if isinstance(s, np.ndarray) and s.size and not np.all(s >= 0):
                bad += 1
                example = example if example is not None else s
    if bad:
        return [f"{bad} states held negative or NaN values (e.g. {np.array2string(example, threshold=20)}): "
                "getAgentState/getPlayerState must encode everything as values >= 0 (use one-hot "
                "flags or shift ranges, e.g. 0 for 'none' instead of -1)."]
    return []


def check_valid_actions_type(ctx: CheckContext) -> list[str]:
    """getValidActions returns a 1-D float64 array."""
    bad = {_kind(v) for r in ctx.trace() for v in r.valids if not _is_vector(v)}
    if bad:
        return [f"getValidActions(state) returned {', '.join(sorted(bad))}; it must return a 1-D float64 "
                "array (np.zeros(getActionSize(), dtype=np.float64))."]
    return []


def check_valid_actions_length(ctx: CheckContext) -> list[str]:
    """Valid-action vectors always have getActionSize() entries."""
    n_actions, _, _ = ctx.sizes()
    lengths = {len(np.atleast_1d(v)) for r in ctx.trace() for v in r.valids}
    if lengths - {n_actions}:
        return [f"getValidActions(state) returned vectors of lengths {sorted(lengths)} but getActionSize() "
                f"is {n_actions}: it must always return {n_actions} values, one per action."]
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
        return [f"getValidActions(state) returned values {shown}; it must return only 0.0 (not allowed) "
                "and 1.0 (allowed)."]
    return []


def check_valid_action_exists(ctx: CheckContext) -> list[str]:
    """At least one action is valid whenever the game is not over."""
    stuck = sum(1 for r in ctx.trace() if r.no_valid_action)
    if stuck:
        return [f"In {stuck} random games getValidActions(state) allowed no action while checkEnded said "
                "the game was running: every state before the end needs at least one valid action."]
    return []


def check_step_env(ctx: CheckContext) -> list[str]:
    """stepEnv returns the env: a 1-D float64 array of unchanged length."""
    problems = set()
    for r in ctx.trace():
        length = len(r.init_env) if isinstance(r.init_env, np.ndarray) else None
        for ret in r.step_returns:
            if not _is_vector(ret):
                problems.add(f"stepEnv(action, env) returned {_kind(ret)}; it must change env in place and "
                             "`return env`.")
            elif length is not None and len(ret) != length:
                problems.add(f"stepEnv(action, env) returned an env of length {len(ret)} (initEnv made "
                             f"{length}); change env in place and `return env`.")
    return sorted(problems)


def check_ended_range(ctx: CheckContext) -> list[str]:
    """checkEnded returns -1 (running), 0..n-1 (winner) or n (no winner)."""
    _, _, n = ctx.sizes()
    bad = {repr(v) for r in ctx.trace() for v in r.ended_values if _as_int(v) is None or not -1 <= v <= n}
    if bad:
        return [f"checkEnded(env) returned {', '.join(sorted(bad)[:5])}; it must return -1 while the game "
                f"runs, the winner 0..{n - 1}, or {n} when it ended with no winner."]
    return []


def check_rewards(ctx: CheckContext) -> list[str]:
    """getReward: -1 while running; at the end 1 for the winner, 0 for everyone else."""
    _, _, n = ctx.sizes()
    problems = []
    running = {repr(ctx.call("getReward", s)) for r in ctx.trace() for s in r.states[:3]} - {"-1"}
    if running:
        problems.append(f"getReward(state) returned {', '.join(sorted(running))} while the game was running; "
                        "it must return -1 until the game is over.")
    for r in ctx.trace():
        if not r.ended:
            continue
        winner = _as_int(r.winner)
        for player, _, reward in r.finals:
            expected = 1 if winner == player else 0
            if _as_int(reward) != expected:
                outcome = f"player {winner} won" if winner is not None and 0 <= winner < n else "nobody won"
                problems.append(
                    f"At the end ({outcome}) getReward(getPlayerState(env, {player})) returned {reward!r}, "
                    f"expected {expected}: the winner's final state must give 1 and every other "
                    "player's (and everyone's after a no-winner end) 0."
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
                problems.append(f"{name}(state) raised {type(exc).__name__} ({first[:120]}) on a {label} state: "
                                f"it must not raise for any float64 state of length {size} (treat odd "
                                "values as 'not set').")
    return _limit(problems)


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


def _run_with(ctx: CheckContext, kind: str) -> tuple[int, np.ndarray] | Exception:
    key = f"run_{kind}"
    if key not in ctx.memo:
        ctx.require_contract()
        agent = _runner.COUNTING if kind == "numba" else _counting_python_agent(ctx.env, ctx.seed)
        try:
            ctx.memo[key] = ctx.env.run(agent, ctx.run_games, np.zeros(2), 0, seed=ctx.seed)
        except Exception as exc:
            ctx.memo[key] = exc
    return ctx.memo[key]


def _run_problem(exc: Exception, kind: str) -> str:
    first = next((ln for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__)
    return (f"env.run with a {kind} agent failed: {first[:300]}. Every contract function must be @njit and "
            "work inside a compiled loop.")


def check_runs_numba_agent(ctx: CheckContext) -> list[str]:
    """env.run works with a numba (@njit) agent."""
    result = _run_with(ctx, "numba")
    return [_run_problem(result, "numba")] if isinstance(result, Exception) else []


def check_runs_python_agent(ctx: CheckContext) -> list[str]:
    """env.run works with a plain Python agent."""
    result = _run_with(ctx, "python")
    return [_run_problem(result, "plain Python")] if isinstance(result, Exception) else []


def _finished_runs(ctx: CheckContext) -> list[tuple[str, int, np.ndarray]]:
    runs = []
    for kind in ("numba", "python"):
        result = _run_with(ctx, kind)
        if not isinstance(result, Exception):
            runs.append((kind, result[0], result[1]))
    if not runs:
        raise Skip("needs env.run to work (see runs_numba_agent / runs_python_agent)")
    return runs


def check_completed_games(ctx: CheckContext) -> list[str]:
    """The agent's final turns show a finished game once per game played."""
    problems = []
    for kind, _, data in _finished_runs(ctx):
        if int(data[1]) != ctx.run_games:
            problems.append(
                f"With a {kind} agent, {ctx.run_games} games were played but the agent saw a finished game "
                f"(getReward != -1) at only {int(data[1])} final turns: getPlayerState(env, player) must "
                "show the game as over once checkEnded(env) != -1, so getReward returns 0 or 1."
            )
    return problems


def check_wins_match_rewards(ctx: CheckContext) -> list[str]:
    """Wins counted by getReward at the final turn equal the wins env.run returns."""
    problems = []
    for kind, wins, data in _finished_runs(ctx):
        if int(data[0]) != wins:
            problems.append(
                f"With a {kind} agent, env.run counted {wins} wins (from checkEnded) but getReward gave 1 at "
                f"{int(data[0])} final turns: checkEnded(env) must return the winner's index and getReward "
                "must return 1 exactly for that player's final state."
            )
    return problems


def check_levels(ctx: CheckContext) -> list[str]:
    """Every built-in bot level plays valid games."""
    ctx.require_contract()
    problems = []
    for level in ctx.env.levels:
        if level == 0:
            continue
        try:
            ctx.env.run("random", 20, np.zeros(1), level, seed=ctx.seed)
        except Exception as exc:
            first = next((ln for ln in str(exc).splitlines() if ln.strip()), type(exc).__name__)
            problems.append(f"Level {level} ({ctx.env.levels[level]}) failed: {first[:300]}. Fix the bot in LEVELS.")
    return problems


CHECKS: dict[str, Callable[[CheckContext], list[str]]] = {
    "contract_functions": check_contract_functions,
    "sizes": check_sizes,
    "init_env": check_init_env,
    "random_games": check_random_games,
    "games_end": check_games_end,
    "current_player": check_current_player,
    "state_type": check_state_type,
    "state_length": check_state_length,
    "state_non_negative": check_state_non_negative,
    "valid_actions_type": check_valid_actions_type,
    "valid_actions_length": check_valid_actions_length,
    "valid_actions_binary": check_valid_actions_binary,
    "valid_action_exists": check_valid_action_exists,
    "step_env": check_step_env,
    "ended_range": check_ended_range,
    "rewards": check_rewards,
    "robust_functions": check_robust_functions,
    "runs_numba_agent": check_runs_numba_agent,
    "runs_python_agent": check_runs_python_agent,
    "completed_games": check_completed_games,
    "wins_match_rewards": check_wins_match_rewards,
    "levels": check_levels,
}


def describe_check(name: str) -> str:
    """One line saying what a check verifies."""
    return (CHECKS[name].__doc__ or name).strip().splitlines()[0]


def run_checks(env: Any, checks: Iterable[str] | None = None, **options: Any) -> list[CheckResult]:
    """Run the named checks (default: all) on ``env`` (an ArrayEnv, a name, path or module).

    Options: ``trace_games`` (random games explored, 50), ``run_games`` (games per env.run, 200),
    ``max_steps`` (bound on a game's length, 10,000), ``seed``.
    """
    if not isinstance(env, ArrayEnv):
        if isinstance(env, str):
            from makeenv.registry import make

            env = make(env)
        else:
            env = load_array_env(env)
        if not isinstance(env, ArrayEnv):
            raise TypeError(f"check_env checks array envs; {env!r} is not one")
    names = list(CHECKS) if checks is None else list(checks)
    unknown = [n for n in names if n not in CHECKS]
    if unknown:
        raise ValueError(f"unknown checks {unknown}; available: {', '.join(CHECKS)}")
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
            problems = [f"the check crashed: {type(exc).__name__}: {exc}"]
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
