"""The game server: HTTP and WebSocket API (docs/api.md) and the web client's files.

    from cyclades.server.app import create_app
    app = create_app("sqlite:///games.db")      # any ASGI server runs it

`create_app` assembles the app: the Manager of the live games (sessions.py) for its lifespan,
the hardening (security.py: limits, headers, offline docs, housekeeping), the error answers,
and the routes, one router per concern:

    games.py      create a game, see it, decide in it; its board, log and record
    lobby.py      the games list, the bots, joining an open seat, the host's seat changes
    ws.py         a game's WebSocket
    pages.py      the lobby and game pages, the rules page and the content texts
    replays.py    replays, the end of a game, rematches
    tutorial.py   the guided first game; back; ends-turn
    advice.py     hints and win chances
    people.py     accounts, logins, my games, play now, ratings, profiles, chat

Everything that changes a game goes through `sessions.Session.act`; every answer carries only
`game.view(seat)` (spectators: `game.view(None)`), never the full state or the generator (R24).
"""
from __future__ import annotations

import contextlib

from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from ..content.i18n import _
from . import advice, games, i18n, lobby, pages, replays, tutorial, ws
from .bodies import ActionBody  # noqa: F401 - its home by name (and OpenAPI name): bodies.py
from .errors import DATABASE_DOWN, DATABASE_ERRORS, RETRY_AFTER, Refused, database_down
from .people import install as install_people
from .security import install as install_security
from .sessions import Manager
from .store import Store

ROUTERS = (games, lobby, ws, pages, replays, tutorial, advice, i18n)


def create_app(db_url: str | None = None, bot_delay: float = 0.3, limits=None,
               bot_workers: int | None = None, bot_seconds: float | None = None) -> FastAPI:
    """The ASGI app. `db_url`: a SQLAlchemy URL (default: SQLite in the user data
    directory); `bot_delay`: seconds a bot waits before each decision; `limits`: a
    security.ServerLimits (body sizes, origins, creation limits, housekeeping);
    `bot_workers`, `bot_seconds`: the bots' worker processes and budget per decision
    (server/bots.py; None: $CYCLADES_BOT_WORKERS / $CYCLADES_BOT_SECONDS, else the defaults)."""

    @contextlib.asynccontextmanager
    async def lifespan(app):
        manager = Manager(Store(db_url), bot_delay=bot_delay, bot_workers=bot_workers,
                          bot_seconds=bot_seconds)
        app.state.manager = manager
        await manager.start()
        try:
            yield
        finally:
            await manager.stop()

    app = FastAPI(title="Cyclades game server", version="1", lifespan=lifespan,
                  description="Play Cyclades over HTTP and WebSocket: see docs/api.md.")
    install_security(app, limits)  # limits, headers, offline docs, housekeeping
    install_people(app, limits)    # accounts, my games, play now, ratings, chat (people.py)
    app.add_middleware(i18n.Languages)  # each request in its language (outermost: errors speak it too)
    app.add_exception_handler(RequestValidationError, _malformed)
    app.add_exception_handler(Refused, _refused)
    for kind in DATABASE_ERRORS:
        app.add_exception_handler(kind, _database)
    for module in ROUTERS:
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=pages.STATIC, check_dir=False), name="static")
    return app


# --- the error answers: {"detail": "a clear message"} ----------------------------------------

async def _malformed(request, exc: RequestValidationError):
    return JSONResponse({"detail": _validation_message(exc)}, status_code=422)


async def _refused(request, exc: Refused):
    answer = error(exc.status, exc.text())
    if exc.retry_after is not None:
        answer.headers["retry-after"] = str(exc.retry_after)
    return answer


async def _database(request, exc: Exception):
    """A database that does not answer: 503 with Retry-After (the client asks again, the
    server recovers with the database). Any other database error is a bug: 500."""
    if database_down(exc):
        return JSONResponse({"detail": _(DATABASE_DOWN)}, status_code=503,
                            headers={"retry-after": str(RETRY_AFTER)})
    raise exc


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status)


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for e in exc.errors():
        where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
        parts.append(f"{where}: {e.get('msg')}" if where else str(e.get("msg")))
    # pydantic's own words stay English: they name the fields of the API, which are English too
    return _("malformed request: {problems}").format(problems="; ".join(parts))
