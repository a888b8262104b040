"""Agents for text envs. A text agent is any callable ``agent(observation: str) -> str``.

- ``HumanAgent``: a person at the terminal.
- ``OpenAICompatibleAgent``: a chat model behind an OpenAI-compatible endpoint (OpenAI, Ollama,
  vLLM, llama.cpp's server, ...), with the same client settings as the juries.
- ``OpenRouterAgent``: the same on OpenRouter, the key from ``OPENROUTER_API_KEY``.
- ``FixedAgent``: always answers the same text (demos and tests).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any

from makeenv.text.client import (
    DEFAULT_BACKOFF_S,
    DEFAULT_MAX_RETRIES,
    OPENROUTER_BASE_URL,
    OPENROUTER_KEY_ENV,
    ChatClient,
    ChatError,
    ClientSettings,
    api_key_from_env,
)

DEFAULT_PLAYER_PROMPT = (
    "You are a competitive player in a text game. Read the game's messages and answer with your "
    "move only. When asked for a strategy, write a clear, concrete and complete plan in plain text."
)

OPENROUTER_DEFAULT_AGENT_MODEL = "openai/gpt-4o-mini"


def terminal_safe(text: str, stream: Any = None) -> str:
    """``text`` as a terminal can show it: characters its encoding lacks become replacements."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or "utf-8"
    return text.encode(encoding, "replace").decode(encoding, "replace")


class AgentError(RuntimeError):
    """An agent could not produce an action (its model endpoint failed for good)."""


class HumanAgent:
    """A person at the terminal: shows the observation and reads the answer.

    With ``multiline=True`` (the default) the answer may span lines and ends with a line holding
    only ``.`` (or end of input); otherwise one line is read. An observation that continues the
    previous one (a text env's observation is everything said so far) is shown from where the
    previous one ended.
    """

    def __init__(
        self,
        multiline: bool = True,
        input_fn: Callable[[str], str] = input,
        output: Callable[[str], Any] = print,
        name: str = "human",
    ):
        self.multiline = multiline
        self.input_fn = input_fn
        self.output = output
        self.name = name
        self._seen = ""

    def __repr__(self) -> str:
        return f"HumanAgent(multiline={self.multiline})"

    def __call__(self, observation: str) -> str:
        new = observation[len(self._seen) :] if self._seen and observation.startswith(self._seen) else observation
        self._seen = observation
        self.output(terminal_safe(new.strip("\n")))
        if not self.multiline:
            return self.input_fn("> ")
        self.output("(Type your answer; end it with a line holding only '.', or Ctrl-D.)")
        lines: list[str] = []
        while True:
            try:
                line = self.input_fn("> ")
            except EOFError:
                break
            if line.strip() == ".":
                break
            lines.append(line)
        return "\n".join(lines)


class FixedAgent:
    """Always answers ``text`` (whatever it is shown)."""

    def __init__(self, text: str):
        self.text = text
        self.name = "fixed"

    def __repr__(self) -> str:
        return f"FixedAgent({self.text[:40]!r})"

    def __call__(self, observation: str) -> str:
        return self.text


class OpenAICompatibleAgent:
    """A chat model as a player: the observation is the user message, the reply is the action.

    Args:
        model: model name the endpoint knows.
        base_url: e.g. ``"http://127.0.0.1:8080/v1"``.
        api_key: sent as a bearer token when given; never printed or recorded.
        system_prompt: the player's instructions (default ``DEFAULT_PLAYER_PROMPT``).
        temperature / max_tokens: sampling settings (None: the server's default).
        timeout / max_retries / backoff: as for the juries (``ClientSettings``).

    Raises ``AgentError`` when the endpoint fails after the retries, so a broken player stops the
    game loudly instead of silently forfeiting.
    """

    def __init__(
        self,
        model: str,
        base_url: str,
        api_key: str | None = None,
        *,
        system_prompt: str | None = None,
        temperature: float | None = 0.7,
        max_tokens: int | None = 1024,
        timeout: float = 120.0,
        max_retries: int = DEFAULT_MAX_RETRIES,
        backoff: float = DEFAULT_BACKOFF_S,
        headers: Mapping[str, str] | None = None,
    ):
        if not isinstance(model, str) or not model.strip():
            raise ValueError(f"{type(self).__name__}: model must be a non-empty str, got {model!r}")
        self.model = model
        self.settings = ClientSettings(
            base_url=base_url,
            api_key=api_key,
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            headers=dict(headers or {}),
        )
        self.system_prompt = DEFAULT_PLAYER_PROMPT if system_prompt is None else system_prompt
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.name = model
        self._client = ChatClient(self.settings)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(model={self.model!r}, base_url={self.settings.base_url!r})"

    def __call__(self, observation: str) -> str:
        messages = [{"role": "system", "content": self.system_prompt}, {"role": "user", "content": observation}]
        try:
            result = self._client.complete(
                self.model, messages, temperature=self.temperature, max_tokens=self.max_tokens
            )
        except ChatError as error:
            raise AgentError(f"{type(self).__name__} ({self.model}) could not answer: {error}") from None
        return result.text.strip()

    def close(self) -> None:
        self._client.close()


class OpenRouterAgent(OpenAICompatibleAgent):
    """``OpenAICompatibleAgent`` on OpenRouter, the key from ``OPENROUTER_API_KEY``."""

    def __init__(
        self,
        model: str = OPENROUTER_DEFAULT_AGENT_MODEL,
        api_key: str | None = None,
        *,
        base_url: str = OPENROUTER_BASE_URL,
        **settings: Any,
    ):
        if api_key is None:
            api_key = api_key_from_env(
                OPENROUTER_KEY_ENV,
                who=type(self).__name__,
                offline_hint="To play offline without a key, use the local agent (LocalAgent, or "
                "`--player0 local` with `makeenv match`).",
            )
        headers = {"X-Title": "makeenv", **dict(settings.pop("headers", None) or {})}
        super().__init__(model, base_url, api_key, headers=headers, **settings)
