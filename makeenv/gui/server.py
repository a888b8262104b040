"""Serving the GUI: a listening socket, uvicorn until Ctrl-C (``serve``), or in a thread (``ServerThread``)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any


def bind_socket(host: str = "127.0.0.1", port: int = 0) -> Any:
    """A listening socket on ``host:port`` (``port=0``: a free port chosen by the system)."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # With the protocol given, asyncio turns TCP_NODELAY on for every connection (without it each
    # small response waited ~40 ms for a delayed ACK).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as error:
        sock.close()
        raise OSError(
            f"makeenv play: cannot listen on {host}:{port} ({error.strerror or error}). "
            "Pick another --port, or leave it out for a free one."
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_for(sock: Any) -> str:
    """The page's address for a bound socket (a wildcard host is shown as 127.0.0.1)."""
    host, port = sock.getsockname()[:2]
    if host in ("0.0.0.0", "::"):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


class ServerThread:
    """A real uvicorn server for ``app`` in a background thread (tests, notebooks).

    ``with ServerThread(app) as server: httpx.get(server.url + "api/info")``.
    """

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 0, log_level: str = "warning"):
        import uvicorn

        self.sock = bind_socket(host, port)
        self.url = url_for(self.sock)
        config = uvicorn.Config(app, log_level=log_level, access_log=False, timeout_keep_alive=30)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def start(self) -> ServerThread:
        self.thread.start()
        deadline = time.time() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.time() > deadline:
                raise RuntimeError("makeenv.gui: the server did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()

    def __enter__(self) -> ServerThread:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def serve(
    app: Any, host: str = "127.0.0.1", port: int = 0, open_browser: bool = True, announce: Callable[[str], None] = print
) -> None:
    """Serve ``app`` until Ctrl-C: print the URL and open the browser unless told not to."""
    import webbrowser

    import uvicorn

    sock = bind_socket(host, port)
    url = url_for(sock)
    announce(f"makeenv play: serving on {url}  (Ctrl-C to stop)")
    if open_browser:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    try:
        server.run(sockets=[sock])
    finally:
        sock.close()
