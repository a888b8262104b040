"""``makeenv list | run | check | new``: the array-env commands (imports stay inside the commands)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from makeenv.cli.app import app

if TYPE_CHECKING:
    from makeenv.array.contract import ArrayEnv

PROGRESS_MIN_NUMBA = 2_000_000  # show a progress bar from this many games (compiled agent)
PROGRESS_MIN_PYTHON = 20_000  # ... and from this many with a plain Python agent

OPTION_HELP = "A game option as NAME=VALUE (repeatable), e.g. -o players=4; `makeenv check` lists a game's options."


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
    raise typer.Exit(code)


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["players=4", "dice=2"]`` -> ``{"players": 4, "dice": 2}`` (numbers become ints/floats)."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip().isidentifier():
            _fail(f"--option {pair!r} must look like NAME=VALUE, e.g. players=4")
        text = value.strip()
        for cast in (int, float):
            try:
                options[key.strip()] = cast(text)
                break
            except ValueError:
                continue
        else:
            options[key.strip()] = text
    return options


def array_env_or_exit(game: str, command: str, options: dict[str, Any] | None = None) -> ArrayEnv:
    """The array env named ``game`` (registered name, module path or folder), or exit with a message."""
    from makeenv.array.contract import ArrayEnv
    from makeenv.array.errors import strip_internal_names
    from makeenv.registry import REGISTRY, make

    spec = REGISTRY.get(game)
    if spec is not None and spec.kind != "array":
        _fail(
            f"{game} is a {spec.kind} env; `makeenv {command}` works on array envs"
            + (" (use `makeenv match` for text envs)" if spec.kind == "text" else "")
        )
    try:
        env = make(game, **(options or {}))
    except (ValueError, TypeError, ImportError) as exc:
        _fail(strip_internal_names(str(exc)))
    except Exception as exc:  # the game module itself failed to import
        _fail(f"could not load the game {game!r}: {type(exc).__name__}: {strip_internal_names(str(exc))}", code=1)
    if not isinstance(env, ArrayEnv):
        _fail(f"{game} is not an array env; `makeenv {command}` works on array envs")
    return env


def _load_agent(spec: str, role: str):
    from makeenv.array.agents import AgentSpecError, load_agent

    try:
        return load_agent(spec)
    except AgentSpecError as exc:
        _fail(str(exc))
    except Exception as exc:  # the agent's own module failed to import
        _fail_with_traceback(f"could not load {role} {spec!r}: its module raised {type(exc).__name__}", exc)


def _fail_with_traceback(message: str, exc: BaseException, code: int = 1) -> NoReturn:
    """``error: message``, then the user's own frames of ``exc`` (not makeenv's, Typer's, numba's)."""
    from makeenv.array.errors import user_traceback

    typer.secho(f"error: {message}:", err=True, fg=typer.colors.RED)
    typer.echo(user_traceback(exc), err=True)
    raise typer.Exit(code)


def _raised_by(exc: BaseException, agent: str, opponents: list[str] | None) -> str | None:
    """The agent spec (as typed) whose Python code raised ``exc`` during a run, else None."""
    from makeenv.array.errors import ACTOR_AGENT, RAISED_ACTOR, RAISED_BY

    who = getattr(exc, RAISED_BY, None)
    if who is None:
        return None
    actor = getattr(exc, RAISED_ACTOR, None)
    if actor == ACTOR_AGENT:
        return f"your agent {agent}"
    if opponents and isinstance(actor, int) and actor >= 0:
        return f"opponent {opponents[actor % len(opponents)]}"
    return who


def _print_results(env: Any, results: Any, games: int) -> None:
    """The wins, draws, losses, returns and wins by seat of ``results`` (``games`` asked for)."""
    shared = f" ({results.shared_wins:,} shared)" if results.shared_wins else ""
    typer.echo(f"wins: {results.wins:,} / {results.games:,}{shared}")
    if results.games:
        typer.echo(f"win rate: {100.0 * results.wins / results.games:.2f}%")
    truncated = f" ({results.truncated:,} at the turn limit)" if results.truncated else ""
    typer.echo(f"draws: {results.draws:,}{truncated}   losses: {results.losses:,}")
    if results.games:
        typer.echo(f"mean return: {results.mean_return:+.4f}   mean length: {results.mean_steps:.2f} steps")
    if env.players > 1:
        seats = "   ".join(f"seat {k}: {s.wins:,}/{s.games:,}" for k, s in enumerate(results.by_seat))
        typer.echo(f"wins by seat: {seats}")


@app.command("list")
def list_command() -> None:
    """List every registered environment (array and text) with its kind and description."""
    from makeenv.registry import REGISTRY

    specs = [REGISTRY[name] for name in sorted(REGISTRY)]
    width = max((len(s.id) for s in specs), default=4)
    typer.echo(f"{'NAME'.ljust(width)}  KIND   DESCRIPTION")
    for spec in specs:
        typer.echo(f"{spec.id.ljust(width)}  {spec.kind.ljust(5)}  {spec.description}")


@app.command("run")
def run_command(
    game: str = typer.Argument(..., help="Registered name, module path (my_games.tictactoe) or folder (./tictactoe)."),
    games: int = typer.Option(1000, "--games", "-n", help="Number of games to play."),
    level: int = typer.Option(0, "--level", "-l", help="Opponent level: 0 random, 1.. the game's bots."),
    agent: str = typer.Option(
        "random",
        "--agent",
        "-a",
        help="Your agent: 'random', 'module:function' or 'file.py:function'. The function is "
        "agent(state, agent_data) -> (action, agent_data), @njit or plain Python. Its module may "
        "define AGENT_DATA (a value or a function returning one); otherwise agent_data starts as "
        "np.zeros(1).",
    ),
    opponent: list[str] | None = typer.Option(
        None,
        "--opponent",
        help="An opponent agent (same forms as --agent; repeat for several seats) "
        "instead of the level's bots: self-play, older versions.",
    ),
    option: list[str] | None = typer.Option(None, "--option", "-o", help=OPTION_HELP),
    seed: int | None = typer.Option(None, "--seed", "-s", min=0, help="Seed for a reproducible run."),
    workers: int = typer.Option(1, "--workers", "-w", min=1, help="Processes to play in (one per core)."),
) -> None:
    """Play GAMES games of an agent against a level's bots; print wins, draws, losses, returns and games/s."""
    import time

    from makeenv.array.agents import initial_agent_data
    from makeenv.array.errors import ArrayEnvError, RunInterrupted, strip_internal_names
    from makeenv.array.runner import is_numba_function, keeping_ctrl_c

    started = time.perf_counter()
    try:
        with keeping_ctrl_c():  # numba compiles as the game and the agents load
            env = array_env_or_exit(game, "run", parse_options(option))
            if games <= 0:
                _fail(f"--games must be a positive number, got {games}")
            player = _load_agent(agent, "agent")
            opponents = [_load_agent(spec, "opponent") for spec in opponent] if opponent else None
            try:
                env.bot(level)
            except (ValueError, TypeError) as exc:
                _fail(str(exc))
            data = initial_agent_data(player) if player != "random" else None
    except KeyboardInterrupt:
        typer.echo(f"{game}: interrupted (Ctrl-C) before any game was played", err=True)
        raise typer.Exit(130) from None
    compiled = player == "random" or is_numba_function(player)
    kind = "numba" if compiled else "plain Python"
    against = ("opponents " + ", ".join(opponent)) if opponent else f"level {level} ({env.levels[level].split(':')[0]})"
    options = "".join(f", {k}={v}" for k, v in env.parameters.items())
    header = f"{env.name}{options}: agent {agent} ({kind}) vs {against}"
    try:
        env.prepare(player, data, level, opponents=opponents)
        prepared = time.perf_counter() - started
        threshold = PROGRESS_MIN_NUMBA if compiled else PROGRESS_MIN_PYTHON
        start = time.perf_counter()
        if games >= threshold:
            with typer.progressbar(length=games, label="playing", file=sys.stderr) as bar:
                last = [0]

                def progress(done: int, total: int) -> None:
                    bar.update(done - last[0])
                    last[0] = done

                results = env.evaluate(
                    player, games, data, level, seed, opponents=opponents, workers=workers, progress=progress
                )
        else:
            results = env.evaluate(player, games, data, level, seed, opponents=opponents, workers=workers)
        elapsed = time.perf_counter() - start
    except RunInterrupted as stop:  # Ctrl-C while playing: the games finished so far
        typer.echo(f"{header}: interrupted (Ctrl-C) after {stop.results.games:,} of {games:,} games")
        _print_results(env, stop.results, games)
        raise typer.Exit(130) from None
    except KeyboardInterrupt:  # Ctrl-C while compiling or loading
        typer.echo(f"{header}: interrupted (Ctrl-C) before any game was played", err=True)
        raise typer.Exit(130) from None
    except Exception as exc:
        raiser = _raised_by(exc, agent, opponent)
        if raiser is not None:  # the agent's own code raised: show its frames, not ours
            _fail_with_traceback(f"{raiser} raised {type(exc).__name__}", exc)
        if isinstance(exc, (ArrayEnvError, ValueError, TypeError)):
            _fail(strip_internal_names(str(exc)), code=1)
        _fail_with_traceback(f"the run failed with {type(exc).__name__}", exc)
    typer.echo(
        f"{header}, {games:,} games"
        + (f", seed {seed}" if seed is not None else "")
        + (f", {workers} workers" if workers > 1 else "")
    )
    _print_results(env, results, games)
    typer.echo(
        f"games/s: {games / max(elapsed, 1e-9):,.0f}  (start-up and compile/load {prepared:.2f} s, "
        f"play {elapsed:.3f} s)"
    )


@app.command("check")
def check_command(
    game: str = typer.Argument(..., help="Registered name, module path or folder of an array game."),
    games: int = typer.Option(200, "--games", "-n", min=1, help="Games per env.run check."),
    option: list[str] | None = typer.Option(
        None,
        "--option",
        "-o",
        help=OPTION_HELP + " Without a players option, every player count the game supports is checked.",
    ),
) -> None:
    """Check that an array game obeys the contract; print each check and exit 1 if one fails."""
    from makeenv.array.check import run_checks

    options = parse_options(option)
    env = array_env_or_exit(game, "check", options)
    variants = [env]
    declared = getattr(env.module, "PARAMETERS", None) or {}
    if "players" in declared and "players" not in options:
        variants = [
            env if count == env.players else array_env_or_exit(game, "check", {**options, "players": count})
            for count in declared["players"]
        ]
    colors = {"pass": typer.colors.GREEN, "fail": typer.colors.RED, "skip": typer.colors.YELLOW}
    failed_any = False
    for variant in variants:
        if len(variants) > 1:
            typer.secho(f"-- {variant.name} with {variant.players} players", bold=True)
        results = run_checks(variant, run_games=games)
        for result in results:
            typer.secho(f"{result.status.upper():4}  {result.name}: {result.description}", fg=colors[result.status])
            for problem in result.problems:
                typer.echo(f"      - {problem}")
            if result.reason:
                typer.echo(f"      - not checked: {result.reason}")
        failed = [r for r in results if r.status != "pass"]
        label = variant.name + (f" ({variant.players} players)" if len(variants) > 1 else "")
        if failed:
            failed_any = True
            typer.secho(f"{label}: {len(failed)} of {len(results)} checks did not pass", fg=typer.colors.RED)
        else:
            typer.secho(f"{label}: all {len(results)} checks passed", fg=typer.colors.GREEN)
    if failed_any:
        raise typer.Exit(1)


@app.command("new")
def new_command(
    name: str = typer.Argument(..., help="Game name in CamelCase, e.g. TicTacToe."),
    directory: Path = typer.Option(Path("."), "--dir", "-d", help="Where to create the game folder."),
    force: bool = typer.Option(False, "--force", help="Overwrite files in an existing folder."),
) -> None:
    """Scaffold a new array game folder (contract functions, drawing stubs, README tables, a test) that passes check."""
    from makeenv.array.scaffold import ScaffoldError, builtin_name_warning, command_path, scaffold
    from makeenv.registry import REGISTRY

    try:
        folder = scaffold(name, directory, force=force)
    except ScaffoldError as exc:
        _fail(str(exc))
    typer.echo(f"created {folder}/")
    for path in sorted(folder.iterdir()):
        if path.is_file():
            typer.echo(f"  {path.name}")
    warning = builtin_name_warning(name, folder, REGISTRY)
    if warning:
        typer.secho(f"warning: {warning}", err=True, fg=typer.colors.YELLOW)
    shown = command_path(folder)
    typer.echo(f"next: makeenv check {shown}   and   makeenv run {shown}")
