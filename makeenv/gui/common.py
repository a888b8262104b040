"""What every part of the GUI server shares: the API's error, JSON values, pictures and sessions."""

from __future__ import annotations

import dataclasses
import inspect
import math
import secrets
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Literal, overload

import numpy as np

from makeenv.pictures import read_picture


class GuiError(Exception):
    """An error the API reports as JSON ``{"error": message}`` with an HTTP status."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


# ---- plain values ---------------------------------------------------------------------------------


def number(x: float) -> int | float | None:
    """A float as JSON: integral values as ints, NaN and inf as null."""
    x = float(x)
    if not math.isfinite(x):
        return None
    return int(x) if x.is_integer() and abs(x) < 2**53 else x


def vector(array: Any) -> list[int | float | None]:
    """A float64 array as a JSON-safe list (integral values as ints, NaN/inf as null)."""
    return [number(x) for x in np.asarray(array, dtype=np.float64).ravel()]


def jsonable(obj: Any) -> Any:
    """Turn dataclasses, numpy values, tuples and odd keys into plain JSON values."""
    if obj is None or isinstance(obj, (bool, str, int)):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return jsonable(dataclasses.asdict(obj))
    if isinstance(obj, np.ndarray):
        return vector(obj) if obj.dtype.kind == "f" else jsonable(obj.tolist())
    if isinstance(obj, np.generic):
        return jsonable(obj.item())
    if isinstance(obj, dict):
        return {str(key): jsonable(value) for key, value in obj.items()}
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [jsonable(value) for value in obj]
    if hasattr(obj, "to_dict") and callable(obj.to_dict):
        return jsonable(obj.to_dict())
    return str(obj)


# ---- pictures ------------------------------------------------------------------------------------


def picture_uri(picture: Any) -> str | None:
    """A game's drawing (SVG text, PNG bytes or a PIL image) as a ``data:`` URI for an <img>."""
    return None if picture is None else read_picture(picture).data_uri()


def picture_fields(picture: Any) -> dict[str, str | None]:
    """How the page shows a drawing: ``{"svg": text}`` (inlined, so its ``data-action`` elements can
    be clicked) or ``{"image": data URI}`` (a raster picture, shown as an <img>)."""
    if picture is None:  # the game draws nothing: the page shows the state vector
        return {"svg": None, "image": None}
    drawn = read_picture(picture)
    return {"svg": drawn.svg, "image": None if drawn.svg is not None else drawn.data_uri()}


def readme_beside(obj: Any) -> str:
    """The README.md in the folder of the module that defines ``obj`` ('' when there is none)."""
    try:
        folder = Path(inspect.getfile(obj if inspect.ismodule(obj) or inspect.isclass(obj) else type(obj))).parent
        path = folder / "README.md"
        return path.read_text(encoding="utf-8") if path.is_file() else ""
    except (TypeError, OSError):
        return ""


# ---- sessions --------------------------------------------------------------------------------------


class SessionStore:
    """Thread-safe sessions by id; the least recently used is forgotten beyond ``max_sessions``."""

    def __init__(self, max_sessions: int = 1000):
        self.max_sessions = max_sessions
        self._sessions: OrderedDict[str, Any] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, session: Any) -> str:
        session_id = secrets.token_urlsafe(12)
        session.session_id = session_id
        dropped = []
        with self._lock:
            self._sessions[session_id] = session
            while len(self._sessions) > self.max_sessions:
                dropped.append(self._sessions.popitem(last=False)[1])
        for old in dropped:
            discard(old)
        return session_id

    def get(self, session_id: str) -> Any:
        with self._lock:
            session = self._sessions.get(session_id)
            if session is None:
                raise GuiError(
                    404,
                    f"Unknown session {session_id!r}: it never existed, was deleted or expired. "
                    "Start a new game (POST /api/sessions).",
                )
            self._sessions.move_to_end(session_id)
            return session

    def delete(self, session_id: str) -> None:
        with self._lock:
            session = self._sessions.pop(session_id, None)
        if session is None:
            raise GuiError(404, f"Unknown session {session_id!r}.")
        discard(session)

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)


def discard(session: Any) -> None:
    """Release what a forgotten session holds (a text env's jury connections, models)."""
    release = getattr(session, "discard", None)
    if callable(release):
        try:
            release()
        except Exception:  # releasing is best effort; the session is gone either way
            pass


@overload
def parse_seat(seat: Any, players: int, *, allow_first: Literal[False] = False) -> int | None: ...


@overload
def parse_seat(seat: Any, players: int, *, allow_first: bool) -> int | Literal["first"] | None: ...


def parse_seat(seat: Any, players: int, *, allow_first: bool = False) -> int | Literal["first"] | None:
    """A seat from a request: an int in 0..players-1, None (random) or, when allowed, "first"."""
    if seat is None or (allow_first and seat == "first"):
        return seat
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        first = ', "first" (the player who moves first)' if allow_first else ""
        raise GuiError(
            400, f"seat must be an integer from 0 to {players - 1}{first}, or omitted for a random seat; got {seat!r}"
        )
    return seat


def parse_seed(seed: Any) -> int | None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise GuiError(400, f"seed must be a non-negative integer, got {seed!r}")
    return seed
