"""Text agents and the SPEC grammar of ``--player0`` / ``--jury``."""

from __future__ import annotations

import sys
import types

import pytest

import makeenv.text
from makeenv.text import (
    AgentError,
    FixedAgent,
    HumanAgent,
    MissingAPIKey,
    OpenAICompatibleAgent,
    OpenAICompatibleJury,
    OpenRouterAgent,
    OpenRouterJury,
    SpecError,
    parse_jury_spec,
    parse_player_spec,
)
from tests.support.openai_server import Reply


def test_openai_compatible_agent_plays_through_the_server(server):
    server.default = "  My plan: climb.  "
    agent = OpenAICompatibleAgent("player-model", server.base_url, system_prompt="Be brief.", max_tokens=50)
    assert agent("You are Player 0 ...") == "My plan: climb."
    request = server.chat_requests[0]
    assert request.model == "player-model" and request.system_text == "Be brief."
    assert request.user_text == "You are Player 0 ..." and request.body["max_tokens"] == 50
    assert "authorization" not in request.headers  # no key, none sent


def test_agent_failure_is_loud(server):
    server.default = Reply.error(500)
    agent = OpenAICompatibleAgent("m", server.base_url, max_retries=1, backoff=0)
    with pytest.raises(AgentError, match="HTTP 500"):
        agent("obs")
    assert len(server.chat_requests) == 2


def test_openrouter_agent_needs_its_key(monkeypatch, server):
    with pytest.raises(MissingAPIKey, match="OPENROUTER_API_KEY"):
        OpenRouterAgent()
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-secret-agent")
    agent = OpenRouterAgent("some/model", base_url=server.base_url)
    agent("hi")
    assert server.chat_requests[0].headers["authorization"] == "Bearer sk-secret-agent"
    assert "sk-secret-agent" not in repr(agent)


def test_human_agent_reads_lines_until_a_dot():
    answers = iter(["First line", "", "Second paragraph", ".", "never read"])
    shown = []
    agent = HumanAgent(input_fn=lambda prompt: next(answers), output=shown.append)
    assert agent("the observation") == "First line\n\nSecond paragraph"
    assert shown[0] == "the observation"


def test_human_agent_single_line_and_eof():
    assert HumanAgent(multiline=False, input_fn=lambda p: "yes", output=lambda s: None)("obs") == "yes"

    def eof(prompt):
        raise EOFError

    assert HumanAgent(input_fn=eof, output=lambda s: None)("obs") == ""


def test_player_specs(server, monkeypatch, tmp_path):
    assert isinstance(parse_player_spec("human"), HumanAgent)
    fixed = parse_player_spec("fixed:Hold the line: no panic")
    assert isinstance(fixed, FixedAgent) and fixed("x") == "Hold the line: no panic"
    agent = parse_player_spec(f"openai:llama3.2:1b@{server.base_url}")
    assert isinstance(agent, OpenAICompatibleAgent) and agent.model == "llama3.2:1b"
    assert agent.settings.base_url == server.base_url and agent.settings.api_key is None
    monkeypatch.setenv("MY_KEY", "k-123")
    assert parse_player_spec(f"openai:m@{server.base_url}#MY_KEY").settings.api_key == "k-123"
    monkeypatch.setenv("OPENAI_API_KEY", "k-default")
    assert parse_player_spec(f"openai:m@{server.base_url}").settings.api_key == "k-default"
    monkeypatch.setenv("OPENROUTER_API_KEY", "k-or")
    assert parse_player_spec("openrouter:meta/llama").model == "meta/llama"
    assert isinstance(parse_player_spec("openrouter"), OpenRouterAgent)
    # Your own function, by module or by file.
    module = types.ModuleType("my_test_agents")
    module.shout = lambda observation: observation.upper()
    monkeypatch.setitem(sys.modules, "my_test_agents", module)
    assert parse_player_spec("my_test_agents:shout")("abc") == "ABC"
    path = tmp_path / "bot.py"
    path.write_text("def play(observation):\n    return 'from a file'\n", encoding="utf-8")
    assert parse_player_spec(f"{path}:play")("x") == "from a file"


@pytest.mark.parametrize(
    "spec, problem",
    [
        ("", "empty player SPEC"),
        ("robot", "unknown player SPEC"),
        ("openai:m", "BASE_URL"),
        ("openai:m@ftp://x", "BASE_URL"),
        ("no_such_module_xyz:f", "cannot import"),
        ("makeenv.text:__doc__", "not callable"),
        ("openai:m@http://127.0.0.1:1/v1#not a var", "environment variable"),
    ],
)
def test_bad_player_specs(spec, problem):
    with pytest.raises(SpecError, match=problem):
        parse_player_spec(spec)


def test_spec_with_named_but_unset_key_variable(server):
    with pytest.raises(MissingAPIKey, match="UNSET_KEY_VAR"):
        parse_player_spec(f"openai:m@{server.base_url}#UNSET_KEY_VAR")


def test_jury_specs(server, monkeypatch, tmp_path):
    cls, kwargs = parse_jury_spec(f"openai:a, b ,c@{server.base_url}")
    assert cls is OpenAICompatibleJury
    assert kwargs == {"base_url": server.base_url, "models": ["a", "b", "c"], "api_key": None}
    assert parse_jury_spec("openrouter") == (OpenRouterJury, {})
    assert parse_jury_spec("openrouter:x/one,y/two") == (OpenRouterJury, {"models": ["x/one", "y/two"]})
    assert parse_jury_spec("makeenv.text.jury:OpenAICompatibleJury") == (OpenAICompatibleJury, {})
    with pytest.raises(SpecError, match="not a subclass"):
        parse_jury_spec("makeenv.text:HumanAgent")
    with pytest.raises(SpecError, match="unknown jury SPEC"):
        parse_jury_spec("human")


def test_local_specs_import_lazily(monkeypatch):
    """``local`` resolves through makeenv.text.local_agent / makeenv.text.jury.local only when asked for."""
    agent_module = types.ModuleType("makeenv.text.local_agent")
    jury_module = types.ModuleType("makeenv.text.jury.local")

    class LocalAgent:
        def __init__(self, model_path=None):
            self.model_path = model_path

        def __call__(self, observation):
            return "local plan"

    class LocalJury(makeenv.text.Jury):
        def cast_ballots(self, scenario, submissions):
            return []

    agent_module.LocalAgent, jury_module.LocalJury = LocalAgent, LocalJury
    monkeypatch.setitem(sys.modules, "makeenv.text.local_agent", agent_module)
    monkeypatch.setitem(sys.modules, "makeenv.text.jury.local", jury_module)
    assert parse_player_spec("local").model_path is None
    assert parse_player_spec("local:/models/x.gguf").model_path == "/models/x.gguf"
    assert parse_jury_spec("local") == (LocalJury, {})
    assert parse_jury_spec("local:/m.gguf") == (LocalJury, {"model_path": "/m.gguf"})
    assert makeenv.text.LocalJury is LocalJury and makeenv.text.LocalAgent is LocalAgent
    assert makeenv.text.jury.LocalJury is LocalJury


def test_local_spec_without_the_extra_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "makeenv.text.jury.local", None)  # import fails
    monkeypatch.setitem(sys.modules, "makeenv.text.local_agent", None)
    with pytest.raises(ImportError, match=r"makeenv\[llm\]"):
        parse_jury_spec("local")
    with pytest.raises(ImportError, match=r"makeenv\[llm\]"):
        parse_player_spec("local")


def test_public_names_are_exported():
    for name in (
        "OpenAICompatibleJury",
        "OpenRouterJury",
        "JuryUnavailable",
        "Jury",
        "TextEnv",
        "HumanAgent",
        "OpenAICompatibleAgent",
        "OpenRouterAgent",
        "Ballot",
        "Verdict",
    ):
        assert hasattr(makeenv.text, name), name
    assert {"LocalJury", "LocalAgent"} <= set(makeenv.text.__all__)


def test_a_person_is_shown_only_what_is_new_since_their_last_turn():
    shown: list[str] = []
    agent = HumanAgent(multiline=False, input_fn=lambda prompt: "ok", output=shown.append)
    agent("Rules.\nTurn 1.")
    agent("Rules.\nTurn 1.\nTurn 2.")
    agent("A new game.")  # not a continuation: shown whole
    assert shown == ["Rules.\nTurn 1.", "Turn 2.", "A new game."]


def test_bot_seats_are_specs_but_not_agents():
    from makeenv.text import BotSeat

    seat = parse_player_spec("bot:2")
    assert seat == BotSeat(2)
    with pytest.raises(TypeError, match="played by the game's own bot"):
        seat("observation")
    for bad in ("bot", "bot:", "bot:two", "bot:-1"):
        with pytest.raises(SpecError):
            parse_player_spec(bad)
