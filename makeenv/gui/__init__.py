"""Play and watch any makeenv game in the browser: one FastAPI app and one static page.

``create_app(game, ...)`` builds the app for one game (an array game or a text game);
``makeenv play GAME`` serves it on 127.0.0.1. Imports FastAPI lazily so ``import makeenv.gui``
stays cheap.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def create_app(*args: Any, **kwargs: Any) -> Any:
    """Build the FastAPI app for one game; see :func:`makeenv.gui.server.create_app`."""
    from makeenv.gui.server import create_app as _create_app

    return _create_app(*args, **kwargs)
