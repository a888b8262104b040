"""A real HTTP server on 127.0.0.1 that speaks OpenAI chat completions, with scripted answers.

Tests (and benchmarks) point any OpenAI-compatible client at it and script, per request, what it
answers: a completion text, a delay, an HTTP error (429, 500, ...), a body that is not JSON, a
hang past the client's timeout, or a dropped connection. Every request is recorded.

```python
from tests.support.openai_server import OpenAIServer, Reply

with OpenAIServer() as server:                    # binds 127.0.0.1 on a free port, in a thread
    server.default = Reply.text("Player 0")       # the answer when nothing else is scripted
    server.queue(Reply.error(500), Reply.error(429, retry_after=0))   # the next two requests
    server.handler = lambda request: "Player 1" if request.model == "b" else None
    client = OpenAICompatibleJury(..., base_url=server.base_url, models=["a", "b"])
    ...
    server.requests                               # [ChatRequest, ...] in arrival order
```

How a request is answered: the first queued reply (``queue``, FIFO) if any; else ``handler(request)``
if set and it returns something other than None; else ``default``. A handler may return a
``Reply``, a plain ``str`` (a completion with that text) or None (fall through to ``default``).
Handlers run on the server's threads (requests are served concurrently), so keep them thread-safe.

Endpoints: ``POST /v1/chat/completions`` (also ``/chat/completions``), ``GET /v1/models``.
Streaming (``"stream": true``) is not supported: the answer is always one JSON body.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

__all__ = ["OpenAIServer", "Reply", "ChatRequest", "openai_server"]


@dataclass
class Reply:
    """What the server does with one request. Build one with the class methods."""

    content: str | None = "Player 0"  # the assistant message text (when ``body`` is None)
    status: int = 200
    delay: float = 0.0  # seconds to wait before answering
    body: bytes | None = None  # raw body instead of a completion (garbage, errors)
    headers: dict[str, str] = field(default_factory=dict)
    drop: bool = False  # close the connection without any answer

    @classmethod
    def text(cls, content: str, delay: float = 0.0) -> Reply:
        """A normal completion whose message content is ``content``."""
        return cls(content=content, delay=delay)

    @classmethod
    def error(
        cls, status: int, message: str = "scripted failure", delay: float = 0.0, retry_after: float | None = None
    ) -> Reply:
        """An HTTP error with an OpenAI-style error body (and ``Retry-After`` when given)."""
        headers = {"Retry-After": f"{retry_after:g}"} if retry_after is not None else {}
        body = json.dumps({"error": {"message": message, "code": status}}).encode()
        return cls(content=None, status=status, delay=delay, body=body, headers=headers)

    @classmethod
    def raw(cls, body: str | bytes, status: int = 200, content_type: str = "text/plain", delay: float = 0.0) -> Reply:
        """Any body at all (e.g. garbage that is not JSON)."""
        data = body.encode("utf-8") if isinstance(body, str) else body
        return cls(content=None, status=status, delay=delay, body=data, headers={"Content-Type": content_type})

    @classmethod
    def hang(cls, seconds: float = 30.0, content: str = "too late") -> Reply:
        """Answer only after ``seconds`` (longer than the client's timeout, usually)."""
        return cls(content=content, delay=seconds)

    @classmethod
    def dropped(cls, delay: float = 0.0) -> Reply:
        """Close the connection without sending a response."""
        return cls(content=None, delay=delay, drop=True)


@dataclass
class ChatRequest:
    """One request the server received."""

    index: int  # 0, 1, 2, ... in arrival order
    path: str
    headers: dict[str, str]  # header names in lower case
    body: dict[str, Any]  # the parsed JSON body ({} when it was not JSON)
    received_at: float  # time.monotonic() at arrival

    @property
    def model(self) -> str:
        return str(self.body.get("model", ""))

    @property
    def messages(self) -> list[dict[str, Any]]:
        return list(self.body.get("messages") or [])

    @property
    def system_text(self) -> str:
        return "\n".join(str(m.get("content", "")) for m in self.messages if m.get("role") == "system")

    @property
    def user_text(self) -> str:
        return "\n".join(str(m.get("content", "")) for m in self.messages if m.get("role") == "user")

    def first_shown(self, options: Iterable[str] = ("Player 0", "Player 1")) -> str | None:
        """For a juror prompt: the option whose strategy appears first in the user message."""
        text = self.user_text
        found = [(text.find(f"Strategy of {option}"), option) for option in options]
        found = [item for item in found if item[0] >= 0]
        return min(found)[1] if found else None


Handler = Callable[[ChatRequest], "Reply | str | None"]


class OpenAIServer:
    """A threaded OpenAI chat-completions server on ``127.0.0.1`` (port 0: a free one).

    Use as a context manager (or call ``start()`` / ``stop()``). Attributes:
    ``base_url`` (``http://127.0.0.1:PORT/v1``), ``default`` (a ``Reply``, a str or a handler),
    ``handler`` (a callable or None), ``requests`` (every ``ChatRequest``).
    """

    def __init__(
        self, default: Reply | str | Handler = "Player 0", handler: Handler | None = None, host: str = "127.0.0.1"
    ):
        self.default = default
        self.handler = handler
        self.host = host
        self.requests: list[ChatRequest] = []
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._counter = itertools.count()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -------------------------------------------------------------- scripting
    def queue(self, *replies: Reply | str) -> None:
        """Answer the next requests with ``replies``, in order (before ``handler`` and ``default``)."""
        with self._lock:
            self._queue.extend(Reply.text(r) if isinstance(r, str) else r for r in replies)

    def clear(self) -> None:
        """Forget queued replies and recorded requests."""
        with self._lock:
            self._queue.clear()
            self.requests.clear()

    @property
    def chat_requests(self) -> list[ChatRequest]:
        """Recorded chat-completion requests only."""
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    def _choose(self, request: ChatRequest) -> Reply:
        with self._lock:
            if self._queue:
                return self._queue.popleft()
        if self.handler is not None:
            chosen = self.handler(request)
            if chosen is not None:
                return Reply.text(chosen) if isinstance(chosen, str) else chosen
        default = self.default
        if callable(default) and not isinstance(default, Reply):
            default = default(request)
        return Reply.text(default) if isinstance(default, str) else default

    # -------------------------------------------------------------- lifecycle
    @property
    def port(self) -> int:
        assert self._httpd is not None, "server not started"
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> OpenAIServer:
        server = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def do_GET(self) -> None:  # noqa: N802
                if self.path.rstrip("/").endswith("/models"):
                    self._send(
                        200,
                        json.dumps(
                            {"object": "list", "data": [{"id": "scripted", "object": "model", "owned_by": "tests"}]}
                        ).encode(),
                    )
                else:
                    self._send(404, b'{"error": {"message": "not found"}}')

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else {}
                    if not isinstance(body, dict):
                        body = {}
                except ValueError:
                    body = {}
                request = ChatRequest(
                    next(server._counter),
                    self.path,
                    {k.lower(): v for k, v in self.headers.items()},
                    body,
                    time.monotonic(),
                )
                with server._lock:
                    server.requests.append(request)
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, b'{"error": {"message": "unknown path"}}')
                    return
                try:
                    reply = server._choose(request)
                except Exception as error:  # a broken handler is a 500, visibly
                    reply = Reply.error(500, f"test handler raised {type(error).__name__}: {error}")
                if reply.delay and server._stopping.wait(reply.delay):
                    self.close_connection = True
                    return
                if reply.drop:
                    self.close_connection = True
                    return
                if reply.body is not None:
                    data = reply.body
                else:
                    data = json.dumps(
                        {
                            "id": f"chatcmpl-{request.index}",
                            "object": "chat.completion",
                            "created": int(time.time()),
                            "model": request.model or "scripted",
                            "choices": [
                                {
                                    "index": 0,
                                    "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": reply.content},
                                }
                            ],
                            "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
                        }
                    ).encode()
                self._send(reply.status, data, reply.headers)

            def _send(self, status: int, data: bytes, headers: dict[str, str] | None = None) -> None:
                headers = dict(headers or {})
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", headers.pop("Content-Type", "application/json"))
                    self.send_header("Content-Length", str(len(data)))
                    for key, value in headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout)
                    self.close_connection = True

        class _Server(ThreadingHTTPServer):
            daemon_threads = True
            block_on_close = False
            request_queue_size = 128

        self._httpd = _Server((self.host, 0), _Handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="openai-test-server", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; requests still waiting on a delay are dropped."""
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: Any) -> None:
        self.stop()


def openai_server(default: Reply | str | Handler = "Player 0", handler: Handler | None = None) -> OpenAIServer:
    """``with openai_server("Player 1") as server: ...`` — a started-on-enter ``OpenAIServer``."""
    return OpenAIServer(default=default, handler=handler)
