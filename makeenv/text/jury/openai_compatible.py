"""Juries of language models reached over the OpenAI chat-completions protocol.

``OpenAICompatibleJury`` works with any server that speaks ``POST /v1/chat/completions``:
OpenRouter, OpenAI, Ollama, vLLM, llama.cpp's server. Jurors are asked concurrently (a thread
pool), so a jury's wall time is about its slowest juror; each call has its own timeout and bounded
retries (see ``makeenv.text.client.ClientSettings``). A juror that fails or answers something
that names no single option abstains; its ballot keeps the raw answer and the error.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
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
from makeenv.text.jury.base import JUROR_INSTRUCTIONS, Ballot, Jury, build_juror_prompt, parse_vote

# Several model families, so one family's quirks do not decide a game. Juror i uses
# models[i % len(models)]. (OpenRouter ids; change them with models=[...] or --jury openrouter:A,B.)
OPENROUTER_DEFAULT_MODELS: tuple[str, ...] = (
    "openai/gpt-4o-mini",
    "anthropic/claude-3.5-haiku",
    "google/gemini-2.0-flash-001",
    "meta-llama/llama-3.3-70b-instruct",
    "mistralai/mistral-small-3.1-24b-instruct",
    "qwen/qwen-2.5-72b-instruct",
)

DEFAULT_MAX_CONCURRENCY = 32  # jurors asked at once unless max_concurrency says otherwise

OFFLINE_HINT = (
    "To judge offline without a key, use the local jury: "
    "makeenv.make('ScenarioPlanning-v0', jury_class=LocalJury) in Python "
    "(from makeenv.text import LocalJury), or `--jury local` with `makeenv match`."
)


class OpenAICompatibleJury(Jury):
    """A jury of chat models behind one OpenAI-compatible endpoint.

    Args:
        options: the labels voted on, e.g. ``["Player 0", "Player 1"]``.
        jury_size: number of jurors; juror ``i`` uses ``models[i % len(models)]``.
        base_url: e.g. ``"http://127.0.0.1:8080/v1"`` (the part before ``/chat/completions``).
        models: one or more model names the endpoint knows.
        api_key: sent as ``Authorization: Bearer ...`` when given; never printed or recorded.
        quorum: least number of valid votes for a verdict (default: more than half the jury).
        timeout: wall-clock seconds per HTTP attempt.
        max_retries / backoff: retries on timeouts, dropped connections, 429 and 5xx.
        max_concurrency: jurors asked at once (default: all of them, up to 32; 1 asks one after
            another).
        temperature / max_tokens: sampling settings sent with every call (None: server default).
        system_prompt: the judges' instructions (default ``JUROR_INSTRUCTIONS``).
        headers: extra HTTP headers.
    """

    def __init__(
        self,
        options: Sequence[str],
        jury_size: int = 5,
        *,
        base_url: str,
        models: Sequence[str] | str,
        api_key: str | None = None,
        quorum: int | None = None,
        timeout: float = 60.0,
        max_retries: int = DEFAULT_MAX_RETRIES,
        backoff: float = DEFAULT_BACKOFF_S,
        max_concurrency: int | None = None,
        temperature: float | None = 0.0,
        max_tokens: int | None = 32,
        system_prompt: str | None = None,
        headers: Mapping[str, str] | None = None,
    ):
        super().__init__(options, jury_size=jury_size, quorum=quorum)
        if isinstance(models, str):
            models = [models]
        models = list(models)
        if not models or not all(isinstance(model, str) and model.strip() for model in models):
            raise ValueError(f"{type(self).__name__}: models must be one or more non-empty model names, got {models!r}")
        if max_concurrency is not None and (not isinstance(max_concurrency, int) or max_concurrency < 1):
            raise ValueError(f"{type(self).__name__}: max_concurrency must be a positive int, got {max_concurrency!r}")
        self.models = models
        self.settings = ClientSettings(
            base_url=base_url,
            api_key=api_key,
            timeout=timeout,
            max_retries=max_retries,
            backoff=backoff,
            headers=dict(headers or {}),
        )
        self.max_concurrency = max_concurrency or min(jury_size, DEFAULT_MAX_CONCURRENCY)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.system_prompt = JUROR_INSTRUCTIONS if system_prompt is None else system_prompt
        self._client = ChatClient(self.settings)

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(options={self.options!r}, jury_size={self.jury_size}, "
            f"quorum={self.quorum}, base_url={self.settings.base_url!r}, models={self.models!r})"
        )

    def model_for(self, juror_id: int) -> str:
        """The model juror ``juror_id`` uses."""
        return self.models[juror_id % len(self.models)]

    def describe(self) -> dict[str, Any]:
        return {
            **super().describe(),
            "models": list(self.models),
            **self.settings.describe(),
            "max_concurrency": self.max_concurrency,
        }

    def cast_ballots(self, scenario: str, submissions: Mapping[str, str]) -> list[Ballot]:
        workers = min(self.max_concurrency, self.jury_size)
        if workers == 1:
            return [self._ask(juror_id, scenario, submissions) for juror_id in range(self.jury_size)]
        with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="juror") as pool:
            futures = [pool.submit(self._ask, juror_id, scenario, submissions) for juror_id in range(self.jury_size)]
            return [future.result() for future in futures]

    def _ask(self, juror_id: int, scenario: str, submissions: Mapping[str, str]) -> Ballot:
        model = self.model_for(juror_id)
        order = self.presentation_order(juror_id)
        ballot = Ballot(juror_id=juror_id, model=model, order=order)
        messages = [
            {"role": "system", "content": self.system_prompt},
            {"role": "user", "content": build_juror_prompt(scenario, submissions, order)},
        ]
        start = time.perf_counter()
        try:
            result = self._client.complete(model, messages, temperature=self.temperature, max_tokens=self.max_tokens)
        except ChatError as error:
            ballot.error = str(error)
            ballot.attempts = error.attempts
        except Exception as error:  # a juror never takes the jury down with it
            ballot.error = f"{type(error).__name__}: {error}"
        else:
            ballot.raw_answer = result.text
            ballot.attempts = result.attempts
            ballot.vote = parse_vote(result.text, self.options)
            if ballot.vote is None:
                ballot.error = "the answer names no single option"
        ballot.latency_s = round(time.perf_counter() - start, 4)
        return ballot

    def close(self) -> None:
        self._client.close()


class OpenRouterJury(OpenAICompatibleJury):
    """``OpenAICompatibleJury`` on OpenRouter: its URL, the key from ``OPENROUTER_API_KEY`` and a
    default mix of model families (``OPENROUTER_DEFAULT_MODELS``).

    A missing key raises ``MissingAPIKey`` at construction, naming the variable and the offline
    alternative (``LocalJury``).
    """

    def __init__(
        self,
        options: Sequence[str],
        jury_size: int = 5,
        *,
        models: Sequence[str] | str | None = None,
        api_key: str | None = None,
        base_url: str = OPENROUTER_BASE_URL,
        **settings: Any,
    ):
        if api_key is None:
            api_key = api_key_from_env(OPENROUTER_KEY_ENV, who=type(self).__name__, offline_hint=OFFLINE_HINT)
        headers = {"X-Title": "makeenv", **dict(settings.pop("headers", None) or {})}
        super().__init__(
            options,
            jury_size,
            base_url=base_url,
            models=models or OPENROUTER_DEFAULT_MODELS,
            api_key=api_key,
            headers=headers,
            **settings,
        )
