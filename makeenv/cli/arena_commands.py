"""``makeenv tournament | duel | leaderboard | export``: the arena (``makeenv.arena``) on the command line."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any, NoReturn

import typer

from makeenv.cli.app import app, reflow

ENTRANTS_HELP = """Entrants are SPECs, optionally named NAME=SPEC. Array games: bot:LEVEL (the game's
bot of that level, bot:0 is random), random, MODULE:FUNCTION or FILE.py:FUNCTION (a numba or Python
agent(state, agent_data) -> (action, agent_data); the agent's module may define AGENT_DATA). Text games
(NAME-text, Negotiation-v0, ...): bot:LEVEL, local[:PATH.gguf], openai:MODEL@BASE_URL[#KEY_ENV],
openrouter[:MODEL], fixed:TEXT, MODULE:FUNCTION (see makeenv match --help)."""

STORE_HELP = """Games are stored in an SQLite file (--db, default makeenv-arena.sqlite here) in blocks
of games with deterministic keys and seeds: running the same command again plays only what is
missing (Ctrl-C loses at most the blocks in flight); more --games or more entrants extend the
tournament. An entrant that raises or plays an invalid move forfeits that game (recorded with the
reason); the tournament goes on."""

TOURNAMENT_HELP = f"""Play a round robin between entrants (every table of the game's player count,
every rotation of its seats, on the same seeds), or with --challenger a gauntlet: the challenger
against the field. Prints the leaderboard at the end.

{ENTRANTS_HELP}

{STORE_HELP}

Blocks run in this process, in --workers processes, or as Ray tasks (--ray: a local Ray;
--ray-address ADDR: a cluster, e.g. auto inside `ray job submit --working-dir . -- makeenv
tournament ...`); the stored results are the same for the same --seed.

Example: makeenv tournament TicTacToe bot:0 bot:1 bot:2 --games 1000"""

DUEL_HELP = f"""Play two entrants against each other until a sequential probability ratio test (SPRT)
decides: is the first at least --elo1 points stronger (H1), or at most --elo0 (H0)? Stops as soon as
the answer is known (or at --max-games). Exit code 0: H1, 1: H0, 3: undecided.

{ENTRANTS_HELP}

Example: makeenv duel ConnectFour mine=agents.py:policy bot:1 --elo0 0 --elo1 50"""

LEADERBOARD_HELP = """Rate the entrants of the stored games: a Bradley-Terry fit (draws and shared
places as half wins; multi-player games as the pairwise results of their places) on the Elo scale
(400 points: 10-to-1 odds) with bootstrap intervals, per game (--game) or across games, each game
weighted equally. --matrix adds the win-rate matrix; --live adds openskill's live ratings."""

EXPORT_HELP = """Write the database (tournaments, entrants, blocks, kept games with their moves) as
JSON Lines: one record a line, with a "type" field."""

DB_OPTION = typer.Option(Path("makeenv-arena.sqlite"), "--db", help="The arena's SQLite file.")
EXIT_CONFIG, EXIT_UNDECIDED, EXIT_INTERRUPTED = 2, 3, 130


def _fail(command: str, message: str, code: int = EXIT_CONFIG) -> NoReturn:
    typer.echo(f"makeenv {command}: {message}", err=True)
    raise typer.Exit(code)


def _progress(command: str) -> Any:
    last = [0.0]

    def show(report: Any, result: Any) -> None:
        now = time.monotonic()
        if now - last[0] < 1.0 and report.missing:
            return
        last[0] = now
        done = report.stored_before + report.played
        rate = report.games / report.seconds if report.seconds else 0.0
        line = f"{command}: {done}/{report.planned} blocks, {report.games:,} games this run ({rate:,.0f}/s)"
        if result.errors:
            line += f"; forfeit: {result.errors[0][:100]}"
        typer.echo(line, err=True)

    return show


def _run(command: str, action: Any) -> Any:
    from makeenv.arena import StoreError, TournamentInterrupted

    try:
        return action()
    except TournamentInterrupted as stop:
        _fail(command, str(stop), EXIT_INTERRUPTED)
    except (StoreError, ValueError, TypeError, ImportError, FileNotFoundError, ConnectionError) as error:
        _fail(command, str(error))


def _executor(command: str, workers: int, ray: bool, ray_address: str | None) -> Any:
    """Forked processes (--workers), or Ray (--ray, --ray-address)."""
    from makeenv.executors import LocalExecutor, RayExecutor

    if ray or ray_address:
        if workers != 1:
            _fail(command, f"--workers {workers} and --ray: Ray decides where blocks run; give one of them")
        return RayExecutor(ray_address)
    return LocalExecutor(workers)


def _leaderboard(db: Path, tournament: str | None, game: str | None, anchor: str | None, matrix: bool) -> None:
    from makeenv.arena import Store, fit

    with Store(db) as store:
        cells = store.cells(tournament, game)
    if anchor is None:
        names = {name for cell in cells for name in cell.seats}
        anchor = "bot:0" if "bot:0" in names else None
    ratings = fit(cells, anchor=anchor)
    typer.echo(ratings.format())
    if matrix:
        typer.echo("")
        typer.echo(ratings.format_matrix())


@app.command("tournament", help=reflow(TOURNAMENT_HELP), no_args_is_help=True)
def tournament_command(
    game: str = typer.Argument(..., help="A registered game (makeenv list), a game folder, or NAME-text."),
    entrants: list[str] = typer.Argument(..., help="Two or more SPEC or NAME=SPEC (see above)."),
    db: Path = DB_OPTION,
    name: str | None = typer.Option(None, "--name", help="The tournament's name (default: GAME and schedule)."),
    games: int = typer.Option(100, "--games", min=1, help="Games per seating of each table."),
    challenger: str | None = typer.Option(None, "--challenger", help="A gauntlet: this entrant against the rest."),
    block_size: int | None = typer.Option(
        None, "--block-size", min=1, help="Games per block (default 1000 for array games, 1 for text games)."
    ),
    sample: int | None = typer.Option(
        None, "--sample", min=0, help="Games per block kept move by move (array games; default 2)."
    ),
    workers: int = typer.Option(1, "--workers", min=1, help="Processes to play blocks in."),
    ray: bool = typer.Option(False, "--ray", help="Play the blocks as Ray tasks on a local Ray (the ray extra)."),
    ray_address: str | None = typer.Option(
        None, "--ray-address", help="Play the blocks as Ray tasks on this cluster (auto, ray://HOST:10001)."
    ),
    seed: int = typer.Option(0, "--seed", min=0, help="The tournament's seed (every game's seed derives from it)."),
    option: list[str] | None = typer.Option(None, "--option", "-o", help="A game option NAME=VALUE (repeatable)."),
    matrix: bool = typer.Option(False, "--matrix", help="Also print the win-rate matrix."),
) -> None:
    from makeenv.arena import Entrant, tournament
    from makeenv.cli.array_commands import parse_options

    executor = _executor("tournament", workers, ray, ray_address)
    parsed = _run("tournament", lambda: [Entrant.parse(e) for e in entrants])
    report = _run(
        "tournament",
        lambda: tournament(
            game,
            parsed,
            db=db,
            name=name,
            games=games,
            challenger=challenger,
            block_size=block_size,
            sample=sample,
            seed=seed,
            options=parse_options(option),
            executor=executor,
            progress=_progress("tournament"),
        ),
    )
    typer.echo(
        f"Tournament {report.tournament!r}: {report.played} block(s), {report.games:,} games played now, "
        f"{report.stored_before} block(s) already stored in {db}"
        + (f"; {report.forfeits} game(s) forfeited (see makeenv export)" if report.forfeits else "")
        + (
            f"; {report.bot_tables} table(s) of bots only not played (a game in words needs a text player)"
            if report.bot_tables
            else ""
        )
    )
    _run("tournament", lambda: _leaderboard(db, report.tournament, None, None, matrix))


@app.command("duel", help=reflow(DUEL_HELP), no_args_is_help=True)
def duel_command(
    game: str = typer.Argument(..., help="A registered two-player game, a game folder, or NAME-text."),
    challenger: str = typer.Argument(..., help="The entrant tested: SPEC or NAME=SPEC."),
    opponent: str = typer.Argument(..., help="The entrant it is measured against."),
    db: Path = DB_OPTION,
    name: str | None = typer.Option(None, "--name", help="The duel's name (default: GAME duel)."),
    elo0: float = typer.Option(0.0, "--elo0", help="H0: the challenger is at most this many Elo points stronger."),
    elo1: float = typer.Option(50.0, "--elo1", help="H1: at least this many."),
    alpha: float = typer.Option(0.05, "--alpha", help="Chance of accepting H1 when H0 holds."),
    beta: float = typer.Option(0.05, "--beta", help="Chance of accepting H0 when H1 holds."),
    max_games: int = typer.Option(10_000, "--max-games", min=2, help="Stop undecided after this many games."),
    block_size: int | None = typer.Option(None, "--block-size", min=1, help="Games per block (default 100; text 1)."),
    workers: int = typer.Option(1, "--workers", min=1, help="Processes to play blocks in."),
    seed: int = typer.Option(0, "--seed", min=0, help="The duel's seed."),
    option: list[str] | None = typer.Option(None, "--option", "-o", help="A game option NAME=VALUE (repeatable)."),
) -> None:
    from makeenv.arena import Entrant, LocalExecutor, duel
    from makeenv.cli.array_commands import parse_options

    first, second = _run("duel", lambda: (Entrant.parse(challenger), Entrant.parse(opponent)))
    report = _run(
        "duel",
        lambda: duel(
            game,
            first,
            second,
            elo0=elo0,
            elo1=elo1,
            alpha=alpha,
            beta=beta,
            max_games=max_games,
            db=db,
            name=name,
            block_size=block_size,
            seed=seed,
            options=parse_options(option),
            executor=LocalExecutor(workers),
            progress=_progress("duel"),
        ),
    )
    answer = {
        "H1": f"{first.name} is at least {elo1:g} Elo stronger than {second.name}",
        "H0": f"{first.name} is at most {elo0:g} Elo stronger than {second.name}",
        None: f"undecided after --max-games {max_games}",
    }[report.decision]
    typer.echo(f"Duel {report.tournament!r}: {answer} (SPRT alpha {alpha:g}, beta {beta:g}); stored in {db}")
    _run("duel", lambda: _leaderboard(db, report.tournament, None, second.name, False))
    if report.decision != "H1":
        raise typer.Exit(1 if report.decision == "H0" else EXIT_UNDECIDED)


@app.command("leaderboard", help=reflow(LEADERBOARD_HELP))
def leaderboard_command(
    db: Path = DB_OPTION,
    tournament: str | None = typer.Option(None, "--tournament", help="Only this tournament."),
    game: str | None = typer.Option(None, "--game", help="Only this game."),
    anchor: str | None = typer.Option(
        None, "--anchor", help="The entrant rated 0 (default: bot:0 if present, else the mean)."
    ),
    matrix: bool = typer.Option(False, "--matrix", help="Also print the win-rate matrix."),
    live: bool = typer.Option(False, "--live", help="Also print openskill's live ratings (mu, sigma)."),
) -> None:
    if not db.is_file():
        _fail("leaderboard", f"--db {db}: no such file; play a tournament first (makeenv tournament --help)")
    from makeenv.arena import LiveRatings, Store

    with _run("leaderboard", lambda: Store(db)) as store:
        tournaments = store.tournaments()
        cells = store.cells(tournament, game)
    if not cells:
        known = ", ".join(f"{t['name']!r} ({t['game']})" for t in tournaments) or "none"
        _fail(
            "leaderboard", f"no games stored in {db} for tournament {tournament!r}, game {game!r}; tournaments: {known}"
        )
    _run("leaderboard", lambda: _leaderboard(db, tournament, game, anchor, matrix))
    if live:
        ratings = _run("leaderboard", LiveRatings)
        ratings.update_cells(cells)
        typer.echo("")
        typer.echo("| entrant | mu | sigma |\n|---|---:|---:|")
        for entrant, mu, sigma in ratings.leaderboard():
            typer.echo(f"| {entrant} | {mu:.2f} | {sigma:.2f} |")


@app.command("export", help=reflow(EXPORT_HELP))
def export_command(
    db: Path = DB_OPTION,
    out: Path | None = typer.Option(None, "--out", help="The JSON Lines file (default: standard output)."),
    tournament: str | None = typer.Option(None, "--tournament", help="Only this tournament."),
) -> None:
    if not db.is_file():
        _fail("export", f"--db {db}: no such file; play a tournament first (makeenv tournament --help)")
    from makeenv.arena import Store

    with _run("export", lambda: Store(db)) as store:
        if out is None:
            count = store.export_jsonl(sys.stdout, tournament)
        else:
            with out.open("w", encoding="utf-8") as handle:
                count = store.export_jsonl(handle, tournament)
    if out is not None:
        typer.echo(f"{count} records written to {out}")
