"""The request bodies of a game's decisions and seats (games.py, lobby.py).

Strict and closed (`extra="forbid"`): a field of the wrong type or an unknown one is refused
with 422 and a message. The body that creates a game is in options.py.
"""
# No `from __future__ import annotations`: ActionBody's module (below) is not this one, and
# pydantic would look its annotations up there.

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from ..engine.actions import PLAYER_KINDS

# The kinds a player's action may have, as the engine declares them (engine/actions.py): the
# schema names them; one the engine did not offer is refused as illegal, like any other.
_KINDS = "; ".join(f"{k.name}: {k.text}" for k in PLAYER_KINDS)


class ActionBody(BaseModel):
    """One of the `legal_actions` of the seat to move, as the engine lists it (its `text`, the
    words the server lists it with, may come back with it: they are not part of the action)."""
    # Its public name (app.py imports it): the OpenAPI schema calls it
    # cyclades__server__app__ActionBody, beside the tutorial's own ActionBody, as it did when
    # the routes were written in app.py.
    __module__ = "cyclades.server.app"
    model_config = ConfigDict(extra="forbid")
    kind: StrictStr = Field(description=f"the action's kind, with what it does: {_KINDS}",
                            json_schema_extra={"enum": [k.name for k in PLAYER_KINDS]})
    what: StrictStr = Field("", description="a god, unit, building, card or hero, as the kind needs")
    where: StrictStr = Field("", description="an area of the board (its id), as the kind needs")
    n: StrictInt = Field(0, description="an amount (GP, units) or a player, as the kind needs")
    text: StrictStr | None = Field(None, max_length=500, description="ignored: the action's words, as listed")


class DecisionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: StrictStr = Field(description="the secret token of the seat the game waits on")
    version: StrictInt = Field(description="the current version (view['version']) the decision answers")
    action: ActionBody


class UndoBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: StrictStr = Field(description="the secret token of the seat the game waits on")
    version: StrictInt = Field(description="the current version: the decision taken back is the last before it")


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: StrictInt = Field(description="an open seat that nobody has joined yet")


class SeatBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    host_token: StrictStr = Field(description="the host token that creating the game returned")
    kind: StrictStr = Field(description='a bot name (GET /api/bots), "open" (anyone may join it) or '
                                        '"invite" (a new invitation link)')
    name: StrictStr | None = Field(None, max_length=40)
