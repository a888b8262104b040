"""Fixtures for the text-env tests: a scripted OpenAI-compatible server and fast jury settings."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.openai_server import OpenAIServer

OPTIONS = ["Player 0", "Player 1"]


@pytest.fixture(autouse=True)
def _no_real_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may pick up a real key from the machine it runs on."""
    for variable in ("OPENROUTER_API_KEY", "OPENAI_API_KEY"):
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    with OpenAIServer() as running:
        yield running


def fast(server: OpenAIServer, **overrides: Any) -> dict[str, Any]:
    """Jury settings for tests: this server, short timeout, quick retries."""
    settings: dict[str, Any] = {
        "base_url": server.base_url,
        "models": ["judge-a", "judge-b", "judge-c"],
        "timeout": 2.0,
        "max_retries": 2,
        "backoff": 0.01,
    }
    settings.update(overrides)
    return settings
