"""Play and watch any makeenv game in the browser: one FastAPI app and one static page.

``create_app(game, ...)`` builds the app for one game (an array game or a text game);
``makeenv play GAME`` serves it on 127.0.0.1 (``serve``); ``ServerThread`` runs it in a thread.

The parts: ``app`` (the routes), ``array_session`` (array games, stepped by the referee),
``text_session`` (text games), ``common`` (errors, JSON values, pictures, the session store) and
``server`` (sockets and uvicorn). Names are imported lazily, so ``import makeenv.gui`` stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_WHERE = {
    "create_app": "makeenv.gui.app",
    "ServerThread": "makeenv.gui.server",
    "serve": "makeenv.gui.server",
    "bind_socket": "makeenv.gui.server",
    "url_for": "makeenv.gui.server",
    "jsonable": "makeenv.gui.common",
    "picture_uri": "makeenv.gui.common",
}

__all__ = list(_WHERE)


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'makeenv.gui' has no attribute {name!r}")
