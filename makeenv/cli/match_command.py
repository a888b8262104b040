"""``makeenv match``: one game of a text env between two agents, judged, printed and recorded."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import typer

from makeenv.cli.app import app, reflow

MATCH_HELP = """Play one game of a text env (e.g. ScenarioPlanning-v0) between two agents.

Prints the scenario, both strategies, every juror's ballot and the result; --out FILE.json writes
the whole record (keys are never printed or recorded).

Player SPECs (--player0, --player1):

- human: you, at the terminal (end a strategy with a line holding only '.')

- local or local:PATH.gguf: LocalAgent, a small model in-process (needs the llm extra of makeenv)

- openrouter or openrouter:MODEL: OpenRouterAgent (key from OPENROUTER_API_KEY)

- openai:MODEL@BASE_URL or openai:MODEL@BASE_URL#KEY_ENV: any OpenAI-compatible server, e.g.
  openai:llama3@http://127.0.0.1:8080/v1 ; the key is read from the environment variable KEY_ENV
  (default: OPENAI_API_KEY when set, else no key)

- fixed:TEXT: always answers TEXT

- MODULE:FUNCTION or FILE.py:FUNCTION: your own agent(observation: str) -> str

Jury SPECs (--jury; default: the env's own, OpenRouterJury for ScenarioPlanning-v0):

- openrouter or openrouter:MODEL,MODEL,...: OpenRouterJury (key from OPENROUTER_API_KEY)

- openai:MODEL,MODEL,...@BASE_URL (optionally #KEY_ENV): OpenAICompatibleJury; juror i uses model
  i mod n

- local or local:PATH.gguf: LocalJury, offline, no key

- MODULE:CLASS or FILE.py:CLASS: your own makeenv.text.Jury subclass

Example, offline: makeenv match ScenarioPlanning-v0 --player0 local --player1 local --jury local
"""

EXIT_CONFIG, EXIT_JURY, EXIT_AGENT = 2, 3, 4


def _write_record(path: Path, record: dict[str, Any]) -> None:
    import json

    try:
        text = json.dumps(record, ensure_ascii=False, indent=2)
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: keep them, escaped
        text = json.dumps(record, ensure_ascii=True, indent=2)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")


@app.command("match", help=reflow(MATCH_HELP), no_args_is_help=True)
def match(
    env_id: str = typer.Argument(..., help="A registered text env, e.g. ScenarioPlanning-v0."),
    player0: str = typer.Option("human", "--player0", help="Player 0's SPEC (see above)."),
    player1: str = typer.Option("human", "--player1", help="Player 1's SPEC (see above)."),
    jury: Optional[str] = typer.Option(None, "--jury", help="The jury's SPEC (see above)."),
    jury_size: Optional[int] = typer.Option(None, "--jury-size", min=1, help="Number of jurors."),
    quorum: Optional[int] = typer.Option(None, "--quorum", min=1,
                                         help="Least valid votes for a verdict (default: more than half)."),
    timeout: Optional[float] = typer.Option(None, "--timeout", min=0.001,
                                            help="Seconds per juror call (HTTP juries)."),
    rejudge: int = typer.Option(1, "--rejudge", min=0,
                                help="When the jury misses its quorum, vote again up to this many times."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed for the scenario draw."),
    scenarios: Optional[Path] = typer.Option(None, "--scenarios",
                                             help="A JSON file {\"scenarios\": [...]} to draw from."),
    out: Optional[Path] = typer.Option(None, "--out", help="Write the whole record to this JSON file."),
) -> None:
    from makeenv.registry import REGISTRY, make
    from makeenv.text.agents import AgentError, terminal_safe
    from makeenv.text.client import MissingAPIKey
    from makeenv.text.jury.base import JuryUnavailable
    from makeenv.text.specs import SpecError, parse_jury_spec, parse_player_spec

    def say(text: str = "") -> None:
        typer.echo(terminal_safe(text))

    def fail(message: str, code: int) -> None:
        typer.echo(terminal_safe(f"makeenv match: {message}"), err=True)
        raise typer.Exit(code)

    spec = REGISTRY.get(env_id)
    if spec is None or spec.kind != "text":
        kind = "an array game (use `makeenv run`)" if spec is not None else "not a registered env"
        texts = ", ".join(sorted(k for k, v in REGISTRY.items() if v.kind == "text"))
        fail(f"{env_id!r} is {kind}; match plays text envs: {texts}", EXIT_CONFIG)

    kwargs: dict[str, Any] = {}
    try:
        if jury is not None:
            jury_class, jury_kwargs = parse_jury_spec(jury)
            kwargs.update(jury_kwargs, jury_class=jury_class)
        if jury_size is not None:
            kwargs["jury_size"] = jury_size
        if quorum is not None:
            kwargs["quorum"] = quorum
        if timeout is not None:
            kwargs["timeout"] = timeout
        if scenarios is not None:
            kwargs["scenarios_path"] = str(scenarios)
        env = make(env_id, **kwargs)
        agents = [parse_player_spec(player0), parse_player_spec(player1)]
    except (SpecError, MissingAPIKey, ValueError, TypeError, ImportError, FileNotFoundError) as error:
        fail(str(error), EXIT_CONFIG)

    record: dict[str, Any] = {
        "env_id": env_id, "seed": seed, "status": "running",
        "players": {"Player 0": player0, "Player 1": player1},
        "jury_spec": jury or "(default)",
    }
    code = 0
    env.reset(num_players=2, seed=seed)
    scenario = getattr(env, "scenario", None)
    say(f"== {env_id} (seed {seed}) ==")
    if scenario:
        say(f"Scenario: {scenario}")
    else:
        say(env.get_board_str())
    say()
    done = False
    try:
        while not done:
            player_id, observation = env.get_observation()
            who = record["players"][f"Player {player_id}"].replace("\n", " ")
            say(f"Player {player_id} ({who[:60]}) is playing...")
            action = agents[player_id](observation)
            try:
                done, info = env.step(action)
            except JuryUnavailable as error:
                done, info = _rejudge(env, error, rejudge, say)
            if not done and info.get("message"):
                say(info["message"])
        record["status"] = "finished"
    except JuryUnavailable as error:
        record["status"] = "jury_unavailable"
        record["error"] = str(error)
        code = EXIT_JURY
    except AgentError as error:
        record["status"] = "agent_error"
        record["error"] = str(error)
        code = EXIT_AGENT
    except KeyboardInterrupt:
        record["status"] = "interrupted"
        code = 130
    except Exception as error:  # an agent's bug, a bad action: say it, keep the record
        record["status"] = "error"
        record["error"] = f"{type(error).__name__}: {error}"
        code = 1
    finally:
        rewards, game_info = env.close()
        say()
        record["rewards"] = {str(k): v for k, v in rewards.items()} if rewards is not None else None
        record["game_info"] = game_info
        _print_record(game_info, say)
        if out is not None:
            _write_record(out, record)
            say(f"Record written to {out}")
    if code:
        fail(record.get("error", record["status"]), code)


def _rejudge(env: Any, error: Exception, times: int, say: Any) -> tuple[bool, dict[str, Any]]:
    from makeenv.text.jury.base import JuryUnavailable

    for attempt in range(1, times + 1):
        say(f"The jury was unavailable ({error}). Voting again ({attempt} of {times})...")
        try:
            return env.rejudge()
        except JuryUnavailable as again:
            error = again
    raise error


def _print_record(game_info: dict[str, Any], say: Any) -> None:
    strategies = game_info.get("strategies") or {}
    for label, text in strategies.items():
        say(f"--- Strategy of {label} ---")
        say(text if text is not None else "(none submitted)")
        cut = (game_info.get("truncated_for_jury") or {}).get(label)
        if cut:
            say(f"(shown to the judges cut to {game_info.get('prompt_char_limit'):,} characters)")
        say()
    ballots = game_info.get("ballots") or []
    for failed in game_info.get("failed_judgements") or []:
        say(f"--- A vote that missed the quorum: {failed.get('votes')}, "
            f"{failed.get('abstentions')} abstained ---")
        for ballot in failed.get("ballots", []):
            say(_ballot_line(ballot))
        say()
    if ballots:
        say("--- Ballots ---")
        for ballot in ballots:
            say(_ballot_line(ballot))
        say()
    if game_info.get("result"):
        say(game_info["result"])
    if game_info.get("reason"):
        say(f"Result: {game_info['reason']}  Rewards: {game_info.get('rewards')}")


def _ballot_line(ballot: dict[str, Any]) -> str:
    order = " first, then ".join(ballot.get("order") or [])
    vote = ballot.get("vote") or "abstained"
    line = (f"  juror {ballot.get('juror_id')} [{ballot.get('model')}] saw {order}: {vote} "
            f"({ballot.get('latency_s', 0):.2f} s, {ballot.get('attempts', 1)} attempt(s))")
    if ballot.get("error"):
        line += f" - {ballot['error']}"
    raw = (ballot.get("raw_answer") or "").strip().replace("\n", " ")
    if raw and raw != ballot.get("vote"):
        line += f" - answered {raw[:80]!r}"
    return line
