"""``makeenv list | run | check | new``: the array-env commands (imports stay inside the commands)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from makeenv.cli.app import app

PROGRESS_MIN_NUMBA = 2_000_000   # show a progress bar from this many games (compiled agent)
PROGRESS_MIN_PYTHON = 20_000     # ... and from this many with a plain Python agent


def _fail(message: str, code: int = 2) -> None:
    typer.secho(f"error: {message}", err=True, fg=typer.colors.RED)
    raise typer.Exit(code)


def _load_array_env(game: str, command: str):
    """The array env named ``game`` (registered name, module path or folder), or exit with a message."""
    from makeenv.array.contract import ArrayEnv
    from makeenv.registry import REGISTRY, make

    spec = REGISTRY.get(game)
    if spec is not None and spec.kind != "array":
        _fail(f"{game} is a {spec.kind} env; `makeenv {command}` works on array envs"
              + (" (use `makeenv match` for text envs)" if spec.kind == "text" else ""))
    try:
        env = make(game)
    except (ValueError, TypeError, ImportError) as exc:
        _fail(str(exc))
    except Exception as exc:  # the game module itself failed to import
        _fail(f"could not load {game!r}: {type(exc).__name__}: {exc}", code=1)
    if not isinstance(env, ArrayEnv):
        _fail(f"{game} is not an array env; `makeenv {command}` works on array envs")
    return env


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
        "random", "--agent", "-a",
        help="Your agent: 'random', 'module:function' or 'file.py:function'. The function is "
             "agent(state, agent_data) -> (action, agent_data), @njit or plain Python. Its module may "
             "define AGENT_DATA (a value or a function returning one); otherwise agent_data starts as "
             "np.zeros(1).",
    ),
    seed: Optional[int] = typer.Option(None, "--seed", "-s", help="Seed for a reproducible run."),
) -> None:
    """Play GAMES games of an agent against a level's bots; print wins, win rate and games/s."""
    import time

    from makeenv.array.agents import AgentSpecError, initial_agent_data, load_agent
    from makeenv.array.runner import ArrayEnvError, is_numba_function

    started = time.perf_counter()
    env = _load_array_env(game, "run")
    if games <= 0:
        _fail(f"--games must be a positive number, got {games}")
    try:
        player = load_agent(agent)
        env.bot(level)
    except (AgentSpecError, ValueError, TypeError) as exc:
        _fail(str(exc))
    except Exception as exc:  # the agent's own module failed to import
        _fail(f"could not load agent {agent!r}: {type(exc).__name__}: {exc}")
    data = initial_agent_data(player) if player != "random" else None
    compiled = player == "random" or is_numba_function(player)
    kind = "numba" if compiled else "plain Python"
    try:
        env.prepare(player, data, level)
        prepared = time.perf_counter() - started
        threshold = PROGRESS_MIN_NUMBA if compiled else PROGRESS_MIN_PYTHON
        start = time.perf_counter()
        if games >= threshold:
            with typer.progressbar(length=games, label="playing", file=None) as bar:
                last = [0]

                def progress(done: int, total: int) -> None:
                    bar.update(done - last[0])
                    last[0] = done

                wins, _ = env.run(player, games, data, level, seed, progress=progress)
        else:
            wins, _ = env.run(player, games, data, level, seed)
        elapsed = time.perf_counter() - start
    except (ArrayEnvError, ValueError, TypeError) as exc:
        _fail(str(exc), code=1)
    opponent = f"level {level} ({env.levels[level].split(':')[0]})"
    typer.echo(f"{env.name}: agent {agent} ({kind}) vs {opponent}, {games:,} games"
               + (f", seed {seed}" if seed is not None else ""))
    typer.echo(f"wins: {wins:,} / {games:,}")
    typer.echo(f"win rate: {100.0 * wins / games:.2f}%")
    typer.echo(f"games/s: {games / max(elapsed, 1e-9):,.0f}  (start-up and compile/load {prepared:.2f} s, play {elapsed:.3f} s)")


@app.command("check")
def check_command(
    game: str = typer.Argument(..., help="Registered name, module path or folder of an array game."),
    games: int = typer.Option(200, "--games", "-n", help="Games per env.run check."),
) -> None:
    """Check that an array game obeys the contract; print each check and exit 1 if one fails."""
    from makeenv.array.check import run_checks

    env = _load_array_env(game, "check")
    results = run_checks(env, run_games=games)
    colors = {"pass": typer.colors.GREEN, "fail": typer.colors.RED, "skip": typer.colors.YELLOW}
    for result in results:
        typer.secho(f"{result.status.upper():4}  {result.name}: {result.description}", fg=colors[result.status])
        for problem in result.problems:
            typer.echo(f"      - {problem}")
        if result.reason:
            typer.echo(f"      - not checked: {result.reason}")
    failed = [r for r in results if r.status != "pass"]
    if failed:
        typer.secho(f"{env.name}: {len(failed)} of {len(results)} checks did not pass", fg=typer.colors.RED)
        raise typer.Exit(1)
    typer.secho(f"{env.name}: all {len(results)} checks passed", fg=typer.colors.GREEN)


@app.command("new")
def new_command(
    name: str = typer.Argument(..., help="Game name in CamelCase, e.g. TicTacToe."),
    directory: Path = typer.Option(Path("."), "--dir", "-d", help="Where to create the game folder."),
    force: bool = typer.Option(False, "--force", help="Overwrite files in an existing folder."),
) -> None:
    """Scaffold a new array game folder (contract functions, README tables, a test) that passes check."""
    from makeenv.array.scaffold import ScaffoldError, scaffold

    try:
        folder = scaffold(name, directory, force=force)
    except ScaffoldError as exc:
        _fail(str(exc))
    typer.echo(f"created {folder}/")
    for path in sorted(folder.iterdir()):
        if path.is_file():
            typer.echo(f"  {path.name}")
    typer.echo(f"next: makeenv check {folder}   and   makeenv run {folder}")
