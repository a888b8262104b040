"""One small OpenAI-compatible chat-completions client, shared by text agents and juries.

It speaks ``POST {base_url}/chat/completions`` over ``httpx`` and adds what a jury of remote
models needs: a wall-clock timeout per call, bounded retries with exponential backoff on
timeouts, dropped connections, 429 and 5xx (honouring ``Retry-After``), and errors that say what
went wrong without ever showing the API key.

Why ``httpx`` rather than the ``openai`` package: we need exact control of the per-call deadline,
of which failures are retried and how, and of the request bytes (any Unicode, even a lone
surrogate, must not crash the encoder). The ``openai`` client would have its own retries and
timeouts switched off and wrapped anyway, costs about a second to import, and its exceptions
differ between versions. One ``httpx.Client`` is thread-safe, so concurrent jurors share its
connection pool.
"""

from __future__ import annotations

import json
import os
import random
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 2
DEFAULT_BACKOFF_S = 0.5
DEFAULT_MAX_BACKOFF_S = 8.0

OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"
OPENROUTER_KEY_ENV = "OPENROUTER_API_KEY"


class ChatError(RuntimeError):
    """A chat completion failed for good (after any retries). Never contains the API key."""

    def __init__(self, message: str, *, status: int | None = None, attempts: int = 1, retryable: bool = False):
        super().__init__(message)
        self.status = status
        self.attempts = attempts
        self.retryable = retryable


class MissingAPIKey(RuntimeError):
    """A remote service needs a key that is neither passed nor set in the environment."""


@dataclass(frozen=True)
class ClientSettings:
    """Where and how to reach an OpenAI-compatible endpoint.

    ``timeout`` is the wall-clock limit of one HTTP attempt (connect, send, wait, read), in
    seconds. A failed attempt is retried at most ``max_retries`` times when it timed out, lost
    its connection, or got 429 or a 5xx status; the n-th retry waits
    ``min(max_backoff, backoff * 2**(n-1))`` seconds (plus up to 10% jitter), or the server's
    ``Retry-After`` when that is given and not longer than ``max_backoff``.
    """

    base_url: str
    api_key: str | None = field(default=None, repr=False)
    timeout: float = DEFAULT_TIMEOUT_S
    max_retries: int = DEFAULT_MAX_RETRIES
    backoff: float = DEFAULT_BACKOFF_S
    max_backoff: float = DEFAULT_MAX_BACKOFF_S
    headers: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.base_url, str) or not self.base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http:// or https:// URL, got {self.base_url!r}")
        if self.api_key is not None and not isinstance(self.api_key, str):
            raise TypeError("api_key must be a str or None")
        if not (isinstance(self.timeout, (int, float)) and self.timeout > 0):
            raise ValueError(f"timeout must be a positive number of seconds, got {self.timeout!r}")
        if not (
            isinstance(self.max_retries, int) and not isinstance(self.max_retries, bool) and 0 <= self.max_retries <= 10
        ):
            raise ValueError(f"max_retries must be an int from 0 to 10, got {self.max_retries!r}")
        if not (isinstance(self.backoff, (int, float)) and self.backoff >= 0):
            raise ValueError(f"backoff must be a non-negative number of seconds, got {self.backoff!r}")
        if not (isinstance(self.max_backoff, (int, float)) and self.max_backoff >= 0):
            raise ValueError(f"max_backoff must be a non-negative number of seconds, got {self.max_backoff!r}")

    @property
    def endpoint(self) -> str:
        return self.base_url.rstrip("/") + "/chat/completions"

    def describe(self) -> dict[str, Any]:
        """JSON-safe summary for records; says whether a key is set, never which."""
        return {
            "base_url": self.base_url,
            "api_key_set": bool(self.api_key),
            "timeout": self.timeout,
            "max_retries": self.max_retries,
            "backoff": self.backoff,
        }

    def retry_delay(self, retry_number: int, retry_after: float | None = None) -> float:
        """Seconds to wait before retry number ``retry_number`` (1, 2, ...)."""
        if retry_after is not None and 0 <= retry_after <= self.max_backoff:
            return retry_after
        base = min(self.max_backoff, self.backoff * 2 ** (retry_number - 1))
        return base * (1 + 0.1 * random.random())


def api_key_from_env(variable: str, *, who: str, offline_hint: str = "") -> str:
    """Read a key from the environment or raise ``MissingAPIKey`` naming the variable."""
    key = os.environ.get(variable, "").strip()
    if not key:
        raise MissingAPIKey(
            f"{who} needs an API key: set the {variable} environment variable (or pass api_key=...)."
            + (f" {offline_hint}" if offline_hint else "")
        )
    return key


@dataclass
class ChatResult:
    """The text of a completion and how it was obtained."""

    text: str
    model: str
    latency_s: float
    attempts: int
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


class _Timeout(Exception):
    pass


class _Retryable(Exception):
    def __init__(self, message: str, status: int | None = None, retry_after: float | None = None):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def _clean(text: str) -> str:
    """Drop what JSON/UTF-8 cannot carry (lone surrogates) so any str can be sent."""
    return text.encode("utf-8", "replace").decode("utf-8")


def _snippet(body: bytes, limit: int = 200) -> str:
    text = body[:limit].decode("utf-8", "replace").replace("\n", " ").strip()
    return text + ("..." if len(body) > limit else "")


class ChatClient:
    """Thread-safe chat-completions client over one ``httpx.Client``."""

    def __init__(self, settings: ClientSettings):
        self.settings = settings
        self._client: Any = None
        self._finalizer: weakref.finalize[Any, Any] | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"ChatClient({self.settings!r})"

    def _http(self) -> Any:
        with self._lock:
            if self._client is None:
                import httpx

                headers = {"Content-Type": "application/json", "Accept": "application/json", "User-Agent": "makeenv"}
                headers.update(self.settings.headers)
                if self.settings.api_key:
                    headers["Authorization"] = f"Bearer {self.settings.api_key}"
                self._client = httpx.Client(
                    headers=headers,
                    timeout=httpx.Timeout(self.settings.timeout),
                    limits=httpx.Limits(max_connections=64, max_keepalive_connections=32),
                    follow_redirects=False,
                    trust_env=False,
                )
                # A client dropped without close() (an env never closed) still shuts its pooled sockets.
                self._finalizer = weakref.finalize(self, self._client.close)
            return self._client

    def close(self) -> None:
        """Close the connection pool (the client reopens it if used again)."""
        with self._lock:
            if self._finalizer is not None:
                self._finalizer()  # closes the pool, once
                self._finalizer = None
                self._client = None

    def complete(self, model: str, messages: Sequence[Mapping[str, str]], **params: Any) -> ChatResult:
        """One chat completion with retries; returns the assistant's text or raises ``ChatError``."""
        payload = {
            "model": model,
            "messages": [{"role": m["role"], "content": _clean(str(m["content"]))} for m in messages],
            **{key: value for key, value in params.items() if value is not None},
        }
        body = json.dumps(payload, ensure_ascii=True).encode("ascii")
        start = time.perf_counter()
        attempts = 0
        while True:
            attempts += 1
            try:
                raw = self._attempt(body)
                text = _extract_text(raw)
                return ChatResult(text, model, time.perf_counter() - start, attempts, raw)
            except (_Timeout, _Retryable) as failure:
                status = getattr(failure, "status", None)
                reason = (
                    f"timed out after {self.settings.timeout:g} s" if isinstance(failure, _Timeout) else str(failure)
                )
                if attempts > self.settings.max_retries:
                    raise ChatError(
                        f"{model}: {reason} (gave up after {attempts} attempt{'s' if attempts > 1 else ''})",
                        status=status,
                        attempts=attempts,
                        retryable=True,
                    ) from None
                time.sleep(self.settings.retry_delay(attempts, getattr(failure, "retry_after", None)))
            except ChatError as error:
                error.attempts = attempts
                raise

    def _attempt(self, body: bytes) -> dict[str, Any]:
        import httpx

        settings = self.settings
        deadline = time.monotonic() + settings.timeout
        try:
            with self._http().stream("POST", settings.endpoint, content=body) as response:
                chunks = []
                for chunk in response.iter_bytes():
                    chunks.append(chunk)
                    if time.monotonic() > deadline:
                        raise _Timeout()
                data = b"".join(chunks)
        except httpx.TimeoutException:
            raise _Timeout() from None
        except (httpx.TransportError, httpx.StreamError) as error:  # refused, reset, closed early
            raise _Retryable(f"connection failed ({type(error).__name__})") from None
        status = response.status_code
        if status == 429 or 500 <= status <= 599:
            raise _Retryable(f"HTTP {status}: {_snippet(data)}", status, _retry_after(response.headers))
        if status in (401, 403):
            raise ChatError(f"HTTP {status}: the endpoint refused the API key ({_snippet(data)})", status=status)
        if status != 200:
            raise ChatError(f"HTTP {status} from {settings.endpoint}: {_snippet(data)}", status=status)
        try:
            parsed = json.loads(data)
        except ValueError:
            raise ChatError(
                f"the endpoint answered with something that is not JSON: {_snippet(data)!r}", status=status
            ) from None
        if not isinstance(parsed, dict):
            raise ChatError(f"the endpoint answered with JSON that is not an object: {_snippet(data)!r}", status=status)
        return parsed


def _retry_after(headers: Any) -> float | None:
    value = headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _extract_text(raw: dict[str, Any]) -> str:
    if "error" in raw and "choices" not in raw:
        error = raw["error"]
        message = error.get("message") if isinstance(error, dict) else error
        raise ChatError(f"the endpoint returned an error: {str(message)[:200]}")
    try:
        content = raw["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        raise ChatError(f"the answer has no choices[0].message.content: {json.dumps(raw)[:200]}") from None
    if content is None:
        return ""
    if isinstance(content, list):  # some servers return content parts
        content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return str(content)
