"""How the server says no: the exception its code raises, and the answer clients get.

    raise Refused(409, "the game is over")      # anywhere below a route; nothing was changed

The app answers a Refused with its status and `{"detail": message}` (app.py); the routes
declare the statuses they may answer with `responses=refusals(403, 404)` (the `Error` model).
The lowest module of the server: it imports none of the others.
"""
from __future__ import annotations

from pydantic import BaseModel, Field


class Refused(Exception):
    """A request refused with an HTTP-like status and a clear message; nothing changed."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


class Error(BaseModel):
    detail: str = Field(description="a clear message; nothing was changed")


def refusals(*codes, what: dict | None = None):
    """The OpenAPI `responses` of these statuses; `what`: a router's own descriptions."""
    described = {403: "not this seat's turn, or not a seat of this game", 404: "no such game",
                 409: "stale version, or the game is over (or not over yet)",
                 422: "malformed body, or an illegal action (the engine's reason)",
                 503: "the database could not store the decision; nothing changed", **(what or {})}
    return {c: {"model": Error, "description": described[c]} for c in codes}
