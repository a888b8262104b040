"""The browser GUI's FastAPI app: one app factory for every game, array or text.

``create_app(game, ...)`` serves one game. Each game a person starts is a *session* with its own
state, isolated from every other session; the page talks to the server through a small JSON API:

==========================================  ====================================================
``GET  /``  ``/app.js``  ``/style.css``      the page (three fixed files, read once at start-up)
``GET  /api/info``                           the game: kind, levels, action labels, guide (README)
``POST /api/sessions``                       new game ``{"mode": "play"|"watch", "level", "seat", "seed"}``
                                             (text games: ``level`` is a bot level or ``"agent"``)
``GET  /api/sessions/{id}``                  the session now (latest frame, valid actions, result)
``GET  /api/sessions/{id}/frames/{i}``       state ``i`` of an array game's history (scrubbing)
``POST /api/sessions/{id}/actions``          ``{"action": 1}`` (array) / ``{"action": "text"}``
``POST /api/sessions/{id}/rejudge``          text games: judge again after the judging failed
``GET  /api/sessions/{id}/history``          the whole game as a JSON download
``DELETE /api/sessions/{id}``                forget a session
``GET  /leaderboard``  ``/leaderboard.js``   the arena's leaderboard page (``arena_db``)
``GET  /api/arena/leaderboard``              ratings, win-rate matrix, kept games (``?game=&tournament=``)
``POST /api/replays``                        ``{"id": N, "seat": p}``: a kept game replayed (an array game's
                                             session, read-only), or a text game's turns
==========================================  ====================================================

A person who starts a game with ``"name"`` (and an ``arena_db``) has it stored, once it ends, as
the entrant ``human:NAME`` (``makeenv.arena.people``).

Errors are JSON ``{"error": message}``: 400 for an invalid action or request, 404 for an unknown
session, 409 when the session is busy (a text game's opponent or jury is still working), 500 when
the game itself failed. No endpoint reads or writes a file named by a request: the page's three
files are loaded once. The page uses relative addresses, so the app also works mounted under a
path (several games behind one server).
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, nullcontext
from pathlib import Path
from typing import Any

from makeenv.gui.array_session import ArrayGame, ArraySession, parse_level
from makeenv.gui.common import GuiError, SessionStore, jsonable, parse_seat, parse_seed, readme_beside
from makeenv.gui.text_session import TextGame, TextSession

STATIC_DIR = Path(__file__).with_name("static")
STATIC_FILES = {  # route -> (file name, media type); nothing else is ever served from disk
    "/": ("index.html", "text/html; charset=utf-8"),
    "/app.js": ("app.js", "text/javascript; charset=utf-8"),
    "/style.css": ("style.css", "text/css; charset=utf-8"),
    "/leaderboard": ("leaderboard.html", "text/html; charset=utf-8"),
    "/leaderboard.js": ("leaderboard.js", "text/javascript; charset=utf-8"),
}
# The page runs only its own script: no inline scripts or event-handler attributes (a game's SVG is
# inlined after cleaning, and this forbids whatever the cleaning might miss), no outside requests.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)
SESSION_FIELDS = {"mode", "level", "seat", "seed", "name"}


def reading(session: Any) -> Any:
    """Array sessions are read under their lock; text sessions lock inside their own methods."""
    return session.lock if session.kind == "array" else nullcontext()


def _load_static() -> dict[str, tuple[bytes, str]]:
    return {route: ((STATIC_DIR / name).read_bytes(), media) for route, (name, media) in STATIC_FILES.items()}


def build_game(
    game: Any,
    *,
    level: int | None = None,
    agent: Callable | None = None,
    agent_name: str | None = None,
    agent_data_factory: Callable[[], Any] | None = None,
    text_agent: Callable[[str], str] | None = None,
    jury_name: str | None = None,
    env_kwargs: dict[str, Any] | None = None,
) -> ArrayGame | TextGame:
    """Resolve ``game`` (a registered id, module or folder path, or an env object) to what the app serves."""
    import makeenv
    from makeenv.registry import find_spec

    env_kwargs = dict(env_kwargs or {})
    if isinstance(game, str):
        spec = find_spec(game)  # a registered id, or a game of your own in words (./nim-text)
        if spec is not None and spec.kind == "text":

            def factory() -> Any:
                return makeenv.make(game, **env_kwargs)

            probe = factory()  # fail now (missing API key, bad jury) rather than at the first game
            readme = getattr(probe, "readme", None) or readme_beside(probe)
            try:
                return TextGame(
                    game,
                    factory,
                    text_agent,
                    agent_name=agent_name,
                    jury_name=jury_name,
                    readme=readme,
                    probe=probe,
                    level=level,
                )
            finally:
                try:
                    probe.close()
                except Exception:
                    pass
        env = makeenv.make(game, **env_kwargs)
    else:
        env = game
    if hasattr(env, "get_observation") and hasattr(env, "reset"):
        raise TypeError("create_app: pass a text game by its registered id so each session gets its own env")
    return ArrayGame(env, level=level, agent=agent, agent_name=agent_name, agent_data_factory=agent_data_factory)


def create_app(
    game: Any,
    *,
    level: int | None = None,
    agent: Callable | None = None,
    agent_name: str | None = None,
    agent_data_factory: Callable[[], Any] | None = None,
    text_agent: Callable[[str], str] | None = None,
    jury_name: str | None = None,
    env_kwargs: dict[str, Any] | None = None,
    max_sessions: int = 1000,
    workers: int = 8,
    arena_db: str | Path | None = None,
) -> Any:
    """Build the FastAPI app that serves ``game`` to the browser.

    ``game``: a registered id (``"RockPaperScissors"``, ``"ScenarioPlanning-v0"``), an array game's
    module or folder path, or an array env object. Array games: ``level`` is the default bot level;
    ``agent`` (an array agent) enables watch mode; ``env_kwargs`` go to ``makeenv.make`` (the game's
    options, e.g. ``players``). Text games: ``text_agent(observation) -> str`` plays the other
    seats, or (games with bots, e.g. ``TicTacToe-text``) the bots of ``level``; ``env_kwargs`` go to
    ``makeenv.make`` (e.g. ``jury_class``, ``jury_size``); each session builds its own env (the
    agent object is shared, so it must be thread-safe). Sessions beyond
    ``max_sessions`` forget the least recently used; ``workers`` threads run text games' agents
    and juries. ``arena_db``: the arena's SQLite file the leaderboard page reads and where games
    people play under a name are stored (None: no leaderboard, names are refused).
    """
    from fastapi import Body, FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse, Response

    from makeenv.gui.arena_pages import ArenaBoard

    served = build_game(
        game,
        level=level,
        agent=agent,
        agent_name=agent_name,
        agent_data_factory=agent_data_factory,
        text_agent=text_agent,
        jury_name=jury_name,
        env_kwargs=env_kwargs,
    )
    store = SessionStore(max_sessions)
    game_id = game if isinstance(game, str) else served.name
    board = ArenaBoard(arena_db, game_id) if arena_db is not None else None
    static = _load_static()
    executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="makeenv-gui")

    @asynccontextmanager
    async def lifespan(_app: Any):
        yield
        executor.shutdown(wait=False, cancel_futures=True)

    app = FastAPI(
        title=f"makeenv play {served.name}", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None
    )
    app.state.game = served
    app.state.sessions = store

    @app.exception_handler(GuiError)
    async def _gui_error(_request: Request, error: GuiError) -> JSONResponse:
        return JSONResponse({"error": error.message}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def _bad_request(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', []))}: {e.get('msg')}" for e in error.errors())
        return JSONResponse({"error": f"Bad request: {problems}"}, status_code=400)

    @app.exception_handler(Exception)
    async def _failure(_request: Request, error: Exception) -> JSONResponse:
        # e.g. a game whose render or bot crashed outside a session's own error handling
        return JSONResponse({"error": f"The server failed: {type(error).__name__}: {error}"}, status_code=500)

    def static_route(route: str) -> None:
        content, media = static[route]
        headers = {
            "Cache-Control": "no-cache",
            "Content-Security-Policy": CONTENT_SECURITY_POLICY,
            "X-Content-Type-Options": "nosniff",
        }

        def page() -> Response:
            return Response(content, media_type=media, headers=headers)

        app.add_api_route(route, page, methods=["GET"], include_in_schema=False)

    for route in static:
        static_route(route)

    def body_dict(body: Any) -> dict[str, Any]:
        if body is None:
            return {}
        if isinstance(body, (bytes, str)):
            raise GuiError(400, "Bad request: the body must be a JSON object (send Content-Type: application/json).")
        if not isinstance(body, dict):
            raise GuiError(400, f"Bad request: expected a JSON object, got {type(body).__name__}")
        return body

    @app.get("/api/info")
    def info() -> dict[str, Any]:
        return {**served.info(), "arena": board is not None}

    def need_board() -> ArenaBoard:
        if board is None:
            raise GuiError(404, "No arena database: start `makeenv play` with --db FILE to read and store games.")
        return board

    @app.get("/api/arena/leaderboard")
    def arena_leaderboard(game: str | None = None, tournament: str | None = None) -> dict[str, Any]:
        return need_board().leaderboard(game, tournament)

    @app.post("/api/replays")
    def new_replay(body: Any = Body(default=None)) -> dict[str, Any]:
        options = body_dict(body)
        replay = need_board().replay(options.get("id"), options.get("seat"))
        if isinstance(replay, dict):  # a text game's turns: nothing to step through on the server
            return replay
        store.add(replay)
        with replay.lock:
            return replay.snapshot()

    def player_name(name: Any, mode: str) -> str | None:
        """The entrant ``human:NAME`` of a named person playing (stored on the leaderboard), or None."""
        from makeenv.arena.people import person_entrant

        if name is None or (isinstance(name, str) and not name.strip()) or mode != "play":
            return None
        if isinstance(served, TextGame):
            raise GuiError(400, "Games in words are not stored on the leaderboard yet; play without a name.")
        need_board()
        try:
            return person_entrant(name)
        except ValueError as error:
            raise GuiError(400, str(error)) from None

    @app.post("/api/sessions")
    def new_session(body: Any = Body(default=None)) -> dict[str, Any]:
        options = body_dict(body)
        unknown = set(options) - SESSION_FIELDS
        if unknown:
            raise GuiError(
                400, f"Bad request: unknown field(s) {sorted(unknown)}; allowed: {', '.join(sorted(SESSION_FIELDS))}"
            )
        mode = options.get("mode", "play")
        seed = parse_seed(options.get("seed"))
        name = player_name(options.get("name"), mode)
        if isinstance(served, TextGame):
            if mode != "play":
                raise GuiError(400, f"Unknown mode {mode!r}: a text game has only 'play'.")
            seat = parse_seat(options.get("seat"), served.seat_count)
            session: Any = TextSession(served, seat, seed, executor, level=options.get("level"))
        else:
            if mode not in ("play", "watch"):
                raise GuiError(400, f"Unknown mode {mode!r}; use 'play' or 'watch'.")
            if mode == "watch" and served.agent is None:
                raise GuiError(400, "No agent to watch: restart `makeenv play` with --agent SPEC.")
            level_ = parse_level(options.get("level"), served.levels, served.default_level)
            session = ArraySession(
                served,
                mode,
                level_,
                parse_seat(options.get("seat"), served.players, allow_first=True),
                seed,
                name,
            )
        store.add(session)
        with reading(session):
            return session.snapshot()

    @app.get("/api/sessions/{session_id}")
    def get_session(session_id: str) -> dict[str, Any]:
        session = store.get(session_id)
        with reading(session):
            return session.snapshot()

    @app.get("/api/sessions/{session_id}/frames/{index}")
    def get_frame(session_id: str, index: int) -> dict[str, Any]:
        session = store.get(session_id)
        if session.kind != "array":
            raise GuiError(400, "A text game has no state history to scrub; download its history instead.")
        with session.lock:
            return session.frame(index)

    @app.post("/api/sessions/{session_id}/actions")
    def post_action(session_id: str, body: Any = Body(default=None)) -> dict[str, Any]:
        session = store.get(session_id)
        options = body_dict(body)
        if "action" not in options:
            raise GuiError(
                400, 'Bad request: send {"action": ...} (an action number, or the answer text for a text game).'
            )
        if session.kind == "array":
            with session.lock:
                session.act(options["action"])
                if board is not None and session.player_name and session.match.over and session.arena_note is None:
                    session.arena_note = board.record(session, game_id, dict(env_kwargs or {}))
                return session.snapshot()
        session.act(options["action"])  # a text session locks inside, while its worker runs
        return session.snapshot()

    @app.post("/api/sessions/{session_id}/rejudge")
    def rejudge(session_id: str) -> dict[str, Any]:
        session = store.get(session_id)
        if session.kind != "text":
            raise GuiError(400, "Only text games can be judged again.")
        session.rejudge()
        return session.snapshot()

    @app.get("/api/sessions/{session_id}/history")
    def history(session_id: str) -> JSONResponse:
        session = store.get(session_id)
        with reading(session):
            record = session.history()
        filename = f"{served.name}-{session_id[:8]}.json".replace('"', "")
        return JSONResponse(jsonable(record), headers={"Content-Disposition": f'attachment; filename="{filename}"'})

    @app.delete("/api/sessions/{session_id}")
    def delete_session(session_id: str) -> dict[str, Any]:
        store.delete(session_id)
        return {"deleted": session_id}

    return app
