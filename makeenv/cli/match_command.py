"""``makeenv match``: one game of any text env between agents (and bots), printed and recorded.

Nothing here knows a particular game. What a game offers is read from the text-env protocol and
its optional hooks: ``seat_count`` (seats at the table), ``seat_bots`` (bot:LEVEL seats),
``has_jury`` (the --jury options), ``awaiting_rejudge`` / ``rejudge`` (a judge that may fail),
``answer_hint`` (a one-line or a multi-line answer at the terminal), ``action_options`` (answers a
``LocalAgent`` can choose among) and ``result_panel`` (what is shown at the end).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NoReturn

import typer

from makeenv.cli.app import app, reflow

MATCH_HELP = """Play one game of a text env between agents: ScenarioPlanning-v0, Negotiation-v0, or any
array game played in words (TicTacToe-text, ConnectFour-text, ...; `makeenv list` shows them all).
A game of your own is played in words the same way: its folder, .py file or module path with -text
after it (./nim-text for the folder ./nim that `makeenv new Nim` made).

Prints what happens and the result; --out FILE.json writes the whole record (keys are never
printed or recorded). One --playerN SPEC per seat (--player2, --player3, ... for games with more
seats); a seat without one is human.

Player SPECs:

- human: you, at the terminal

- local or local:PATH.gguf: LocalAgent, a small model in-process (needs the llm extra of makeenv);
  in games that list their valid answers it picks one of them

- openrouter or openrouter:MODEL: OpenRouterAgent (key from OPENROUTER_API_KEY)

- openai:MODEL@BASE_URL or openai:MODEL@BASE_URL#KEY_ENV: any OpenAI-compatible server, e.g.
  openai:llama3@http://127.0.0.1:8080/v1 ; the key is read from the environment variable KEY_ENV
  (default: OPENAI_API_KEY when set, else no key)

- fixed:TEXT: always answers TEXT

- bot:LEVEL: the game's own bot of that level plays this seat (array games played as text; 0 is
  random). A level is labelled by its Bot's name, else the first sentence of its policy's
  docstring (up to 160 characters), else the policy's name.

- MODULE:FUNCTION or FILE.py:FUNCTION: your own agent(observation: str) -> str

Jury SPECs (--jury, for games judged by a jury; default: the game's own, OpenRouterJury for
ScenarioPlanning-v0):

- openrouter or openrouter:MODEL,MODEL,...: OpenRouterJury (key from OPENROUTER_API_KEY)

- openai:MODEL,MODEL,...@BASE_URL (optionally #KEY_ENV): OpenAICompatibleJury; juror i uses model
  i mod n

- local or local:PATH.gguf: LocalJury, offline, no key

- MODULE:CLASS or FILE.py:CLASS: your own makeenv.text.Jury subclass

Examples: makeenv match TicTacToe-text --player0 local --player1 bot:2 ; offline with a jury:
makeenv match ScenarioPlanning-v0 --player0 local --player1 local --jury local
"""

OPTION_HELP = (
    "A game option as NAME=VALUE (repeatable), passed to make(): e.g. -o players=3 for an array game "
    "played as text, -o scenarios_path=FILE.json for ScenarioPlanning-v0."
)
EXIT_CONFIG, EXIT_JURY, EXIT_AGENT = 2, 3, 4
_EXTRA_PLAYER = re.compile(r"^--player(\d+)(?:=(.*))?$")


def _write_record(path: Path, record: dict[str, Any]) -> None:
    import json

    try:
        text = json.dumps(record, ensure_ascii=False, indent=2)
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: keep them, escaped
        text = json.dumps(record, ensure_ascii=True, indent=2)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")


def _extra_players(args: list[str]) -> dict[int, str]:
    """``--player2 SPEC --player3=SPEC ...`` from the arguments Typer did not know."""
    players: dict[int, str] = {}
    index = 0
    while index < len(args):
        found = _EXTRA_PLAYER.match(args[index])
        if not found:
            raise typer.BadParameter(
                f"unexpected argument {args[index]!r}; seats are given as --playerN SPEC", param_hint="--playerN"
            )
        seat, value = int(found.group(1)), found.group(2)
        if value is None:
            if index + 1 >= len(args):
                raise typer.BadParameter(f"{args[index]} needs a SPEC", param_hint=args[index])
            value = args[index + 1]
            index += 1
        players[seat] = value
        index += 1
    return players


@app.command(
    "match",
    help=reflow(MATCH_HELP),
    no_args_is_help=True,
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
)
def match(
    ctx: typer.Context,
    env_id: str = typer.Argument(
        ..., help="A text env: TicTacToe-text, ScenarioPlanning-v0, or your game's folder with -text (./nim-text)."
    ),
    player0: str = typer.Option("human", "--player0", help="Seat 0's SPEC (see above)."),
    player1: str = typer.Option("human", "--player1", help="Seat 1's SPEC (see above); --player2 ... likewise."),
    option: list[str] | None = typer.Option(None, "--option", "-o", help=OPTION_HELP),
    jury: str | None = typer.Option(None, "--jury", help="The jury's SPEC (games judged by a jury)."),
    jury_size: int | None = typer.Option(None, "--jury-size", min=1, help="Number of jurors."),
    quorum: int | None = typer.Option(
        None, "--quorum", min=1, help="Least valid votes for a verdict (default: more than half)."
    ),
    timeout: float | None = typer.Option(None, "--timeout", min=0.001, help="Seconds per juror call (HTTP juries)."),
    rejudge: int = typer.Option(
        1, "--rejudge", min=0, help="When the jury misses its quorum, vote again up to this many times."
    ),
    seed: int | None = typer.Option(None, "--seed", help="Seed of the game (deals, scenario, seats)."),
    out: Path | None = typer.Option(None, "--out", help="Write the whole record to this JSON file."),
) -> None:
    from makeenv.cli.array_commands import parse_options
    from makeenv.registry import REGISTRY, find_spec, looks_like_user_game, make, resolve_object
    from makeenv.text.agents import AgentError, HumanAgent, terminal_safe
    from makeenv.text.client import MissingAPIKey
    from makeenv.text.specs import BotSeat, SpecError, parse_jury_spec, parse_player_spec
    from makeenv.text.turns import ask

    def say(text: str = "") -> None:
        typer.echo(terminal_safe(text))

    def fail(message: str, code: int) -> NoReturn:
        typer.echo(terminal_safe(f"makeenv match: {message}"), err=True)
        raise typer.Exit(code)

    spec = find_spec(env_id)
    if spec is None or spec.kind != "text":
        array_game = spec is not None or looks_like_user_game(env_id)
        kind = (
            "an array game (use `makeenv run`, or play it in words as " + env_id.rstrip("/\\") + "-text)"
            if array_game
            else "not a registered env, nor a game folder, .py file or module"
        )
        texts = ", ".join(sorted(k for k, v in REGISTRY.items() if v.kind == "text"))
        fail(f"{env_id!r} is {kind}; match plays text envs: {texts}", EXIT_CONFIG)

    specs = {0: player0, 1: player1, **_extra_players(list(ctx.args))}
    jury_options = {"--jury": jury, "--jury-size": jury_size, "--quorum": quorum, "--timeout": timeout}
    kwargs: dict[str, Any] = parse_options(option)
    try:
        has_jury = bool(getattr(resolve_object(spec.entry_point), "has_jury", False))
        given = [name for name, value in jury_options.items() if value is not None]
        if given and not has_jury:
            fail(f"{', '.join(given)}: {env_id} is not judged by a jury", EXIT_CONFIG)
        if jury is not None:
            jury_class, jury_kwargs = parse_jury_spec(jury)
            kwargs.update(jury_kwargs, jury_class=jury_class)
        for name, key in (("--jury-size", "jury_size"), ("--quorum", "quorum"), ("--timeout", "timeout")):
            if jury_options[name] is not None:
                kwargs[key] = jury_options[name]
        env = make(env_id, **kwargs)
        seat_count = int(getattr(env, "seat_count", None) or env.max_players)
        extra = sorted(s for s in specs if s >= seat_count)
        if extra:
            fail(f"{env_id} has seats 0 to {seat_count - 1}; --player{extra[0]} names no seat", EXIT_CONFIG)
        players = {seat: parse_player_spec(specs.get(seat, "human")) for seat in range(seat_count)}
        bots = {seat: agent.level for seat, agent in players.items() if isinstance(agent, BotSeat)}
        if bots:
            if not callable(getattr(env, "seat_bots", None)):
                fail(
                    f"bot:LEVEL seats are for games with built-in bots (array games played as text, NAME-text); "
                    f"{env_id} has none",
                    EXIT_CONFIG,
                )
            text_seats = env.seat_bots(bots)
        else:
            text_seats = list(range(seat_count))
        if not env.min_players <= len(text_seats) <= env.max_players:
            fail(
                f"{env_id} needs {env.min_players} to {env.max_players} players that are not bots, got "
                f"{len(text_seats)}",
                EXIT_CONFIG,
            )
        multiline = bool(getattr(env, "answer_hint", {}).get("multiline", True))
        for agent in players.values():
            if isinstance(agent, HumanAgent):
                agent.multiline = multiline
    except typer.Exit:
        raise
    except (SpecError, MissingAPIKey, ValueError, TypeError, ImportError, FileNotFoundError) as error:
        fail(str(error), EXIT_CONFIG)

    record: dict[str, Any] = {
        "env_id": env_id,
        "seed": seed,
        "status": "running",
        "players": {f"Player {seat}": specs.get(seat, "human") for seat in range(seat_count)},
    }
    if has_jury:
        record["jury_spec"] = jury or "(default)"
    code = 0
    try:
        env.reset(num_players=len(text_seats), seed=seed)
    except (ValueError, TypeError) as error:
        fail(str(error), EXIT_CONFIG)
    seats = list(getattr(env, "seats", text_seats))
    record["seats"] = seats
    say(f"== {env_id} (seed {seed}) ==")
    say(env.get_board_str())
    say()
    # A person at the terminal reads the game in their observations; what the match would print
    # for a move is printed only when no person is shown it there: a game without people, the
    # invalid answers of agents (told to them alone) and the last move, which nobody is shown.
    people = any(isinstance(players[seat], HumanAgent) for seat in text_seats)
    done, final_message = False, ""
    try:
        while not done:
            player_id, observation = env.get_observation()
            seat = seats[player_id]
            who = record["players"][f"Player {seat}"].replace("\n", " ")
            say(f"Player {seat} ({who[:60]}) is playing...")
            try:
                action = ask(players[seat], env, observation, player_id)
            except (AgentError, KeyboardInterrupt):
                raise
            except Exception as error:
                raise AgentError(_agent_failure(seat, record["players"][f"Player {seat}"], error)) from error
            try:
                done, info = env.step(action)
            except Exception as error:
                if not getattr(env, "awaiting_rejudge", False):
                    raise
                done, info = _rejudge(env, error, rejudge, say)
            message = info.get("message") or ""
            if done:
                final_message = message
            elif message and (not people or (info.get("invalid_move") and not isinstance(players[seat], HumanAgent))):
                say(message)
        record["status"] = "finished"
    except AgentError as error:
        record["status"] = "agent_error"
        record["error"] = str(error)
        code = EXIT_AGENT
    except KeyboardInterrupt:
        record["status"] = "interrupted"
        code = 130
    except Exception as error:  # an agent's bug, a judge that failed for good: say it, keep the record
        if getattr(env, "awaiting_rejudge", False):
            record["status"], code = "jury_unavailable", EXIT_JURY
            record["error"] = str(error)
        else:
            record["status"], code = "error", 1
            record["error"] = f"{type(error).__name__}: {error}"
    finally:
        panel = env.result_panel() if callable(getattr(env, "result_panel", None)) else []
        rewards, game_info = env.close()
        record["rewards"] = {str(k): v for k, v in rewards.items()} if rewards is not None else None
        record["game_info"] = game_info
        lines = panel_lines(panel)
        if final_message and _plain(final_message) not in _plain("\n".join(lines)):
            say(final_message)  # the last move (and the final board), unless the panel shows it
        say()
        for line in lines:
            say(line)
        if game_info.get("reason"):
            say(f"Result: {game_info['reason']}  Rewards: {game_info.get('rewards')}")
        if out is not None:
            _write_record(out, record)
            say(f"Record written to {out}")
    if code:
        fail(record.get("error", record["status"]), code)


def _plain(text: str) -> str:
    """``text`` without the "[GAME] " that opens a game's own lines (a panel shows them without it)."""
    return "\n".join(line.removeprefix("[GAME] ") for line in text.splitlines())


def _agent_failure(seat: int, spec: str, error: BaseException) -> str:
    """What an agent that raised did: its seat, its SPEC, the error and the frames of its own code.

    makeenv's frames (the match, the turn, makeenv's own agents) are left out; an agent of
    makeenv's that fails shows the error alone.
    """
    import traceback

    import makeenv

    ours = Path(makeenv.__file__).resolve().parent
    frames = [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if not Path(frame.filename).resolve().is_relative_to(ours)
    ]
    text = f"the agent of Player {seat} ({spec}) raised {type(error).__name__}: {error}"
    if frames:
        text += "\nTraceback of the agent's code (most recent call last):\n" + "".join(traceback.format_list(frames))
    return text.rstrip("\n") + "\nFix the agent, or play that seat with another SPEC (see makeenv match --help)."


def _rejudge(env: Any, error: Exception, times: int, say: Any) -> tuple[bool, dict[str, Any]]:
    for attempt in range(1, times + 1):
        say(f"The jury was unavailable ({error}). Voting again ({attempt} of {times})...")
        try:
            return env.rejudge()
        except Exception as again:
            if not getattr(env, "awaiting_rejudge", False):
                raise
            error = again
    raise error


def panel_lines(blocks: list[dict[str, Any]]) -> list[str]:
    """A game's result panel (``result_panel`` blocks) as lines of text for the terminal."""
    lines: list[str] = []
    for block in blocks:
        title = block.get("title")
        kind = block.get("kind")
        if kind == "cards":
            for card in block.get("cards", []):
                heading = f"{title}: {card.get('title')}" if title else str(card.get("title"))
                lines.append(f"--- {heading}{' (ahead)' if card.get('lead') else ''} ---")
                lines.append(str(card.get("text", "")))
        elif kind == "table":
            if title:
                lines.append(f"--- {title} ---")
            columns = [str(c) for c in block.get("columns", [])]
            for row in block.get("rows", []):
                cells = [f"{column}: {cell}" for column, cell in zip(columns, row) if cell not in ("", None)]
                lines.append("  " + " | ".join(cells))
        else:
            if title:
                lines.append(f"--- {title} ---")
            lines.append(str(block.get("text", "")))
        lines.append("")
    return lines
