"""How the server says no: the exception its code raises, and the answer clients get.

    raise Refused(409, N_("the game is over"))  # anywhere below a route; nothing was changed
    raise Refused(409, N_("seat {seat} is already taken"), seat=seat)

The message is a catalog message (content/i18n.py), its named parts given beside it: the client
reads it in the language of its request (or of its page, for a WebSocket), the log in English.
The app answers a Refused with its status and `{"detail": message}` (app.py); the routes
declare the statuses they may answer with `responses=refusals(403, 404)` (the `Error` model).
A database that does not answer (stopped, restarting, locked for too long, out of space) is
not a bug: `database_down(e)` tells it, and the client gets 503 with Retry-After
(`RETRY_AFTER` seconds) instead of a 500; the server comes back by itself with the database.

The lowest module of the server: it imports none of the others.
"""
from __future__ import annotations

import sqlalchemy as sa
from pydantic import BaseModel, Field

from ..content.i18n import N_, _

RETRY_AFTER = 2   # seconds a client waits before asking again while the database is down


class Refused(Exception):
    """A request refused with an HTTP-like status and a clear message; nothing changed.
    `message`: a catalog message (or words already in the request's language, such as the
    engine's reason), with `{placeholders}` filled from `parts`."""

    def __init__(self, status: int, message: str, retry_after: int | None = None, **parts: object):
        self.status = status
        self.template = message
        self.parts = parts
        self.retry_after = retry_after  # seconds (a Retry-After header: 429, 503)
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """In English (the server's log)."""
        return self.template.format(**self.parts) if self.parts else self.template

    def text(self) -> str:
        """In the current language (the request's, or the page's)."""
        return _(self.template).format(**self.parts) if self.parts else _(self.template)


class SeatsChanged(Refused):
    """A decision was checked against seats that another process had changed: nothing was
    stored, the session has caught up; check it again."""


class Error(BaseModel):
    detail: str = Field(description="a clear message; nothing was changed")


def refusals(*codes, what: dict | None = None):
    """The OpenAPI `responses` of these statuses; `what`: a router's own descriptions."""
    described = {403: "not this seat's turn, or not a seat of this game", 404: "no such game",
                 409: "stale version, or the game is over (or not over yet)",
                 422: "malformed body, or an illegal action (the engine's reason)",
                 503: "the database could not store the decision; nothing changed", **(what or {})}
    return {c: {"model": Error, "description": described[c]} for c in codes}


# What a database that does not answer raises (through SQLAlchemy).
DATABASE_ERRORS = (sa.exc.DBAPIError, sa.exc.TimeoutError, sa.exc.DisconnectionError)


def database_down(e: BaseException) -> bool:
    """Whether an exception says the database does not answer now (rather than a bug)."""
    if isinstance(e, (sa.exc.OperationalError, sa.exc.InterfaceError, sa.exc.TimeoutError,
                      sa.exc.DisconnectionError)):
        return True
    return isinstance(e, sa.exc.DBAPIError) and bool(e.connection_invalidated)


DATABASE_DOWN = N_("the database does not answer for now; nothing changed: try again in a moment")
