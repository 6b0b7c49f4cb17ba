"""A game over HTTP: create it, see it, decide in it, read its board, log and record.

    POST /api/games                     create (options.py: the body and what it makes)
    GET  /api/games/{id}                the game as a seat (?token=) or a spectator sees it
    POST /api/games/{id}/actions        the decision of the seat the game waits on
    POST /api/games/{id}/undo           the seat to move takes back its last decision
    GET  /api/games/{id}/board|log|record

Everything that changes a game goes through `sessions.Session.act`; every answer carries only
`game.view(seat)` (spectators: `game.view(None)`), never the full state or the generator (R24).
"""
from __future__ import annotations

import secrets

from fastapi import APIRouter, Query, Request

from ..content.i18n import N_
from ..web.geometry import geometry
from .bodies import DecisionBody, UndoBody
from .errors import Refused, refusals
from .holders import creator_holds
from .i18n import board_words
from .options import DEFAULT_BOT, PEOPLE, CreateBody, check_seed, seat_kinds, seat_names, seat_specs, setup_options
from .sessions import manager_of
from .transport import LOG_TAIL

router = APIRouter()


@router.post("/api/games", status_code=201, responses=refusals(422))
async def create_game(body: CreateBody, request: Request):
    """Create a game; returns each invited seat's secret link, the host token and the
    spectator link."""
    options = setup_options(body)
    seats = seat_kinds(body)
    check_seed(body, seats)
    names = seat_names(body, seats)
    settings = {"host_token": secrets.token_urlsafe(24)}
    if body.bot_delay is not None:
        settings["bot_delay"] = body.bot_delay
    if body.speed != "untimed":
        settings["speed"] = body.speed
        # The level of the bot that decides for a seat out of time: the table's bots' own.
        settings["bot"] = next((k for k in seats if k not in PEOPLE), DEFAULT_BOT)
    s = await manager_of(request).create(options, seat_specs(seats, names), settings)
    await creator_holds(request, s)  # logged in: the "you" seat is the account's (holders.py)
    gid = s.game_id
    public = s.public_seats()
    return {"game_id": gid, "host_token": settings["host_token"],
            "players": body.players, "ruleset": options["ruleset"], "teams": bool(s.game.teams),
            "seats": [{**public[i], "token": x["token"],
                       "url": f"/game/{gid}?token={x['token']}" if x["token"] else None}
                      for i, x in enumerate(s.seats) if x["kind"] == "human"],
            "spectator_url": f"/game/{gid}"}


@router.get("/api/games/{game_id}", responses=refusals(403, 404))
async def get_game(game_id: str, request: Request, token: str | None = None):
    """The game as a seat (with its token) or a spectator (without) sees it."""
    s = await manager_of(request).get(game_id)
    seat = await s.seat_for(token)
    await s.join(seat, token)
    out = s.state(seat, s.lines()[-LOG_TAIL:])
    out["log_total"] = len(s.log)
    return out


@router.get("/api/games/{game_id}/board", responses=refusals(404))
async def get_board(game_id: str, request: Request):
    """The map's geometry for drawing (public, never changes during a game)."""
    s = await manager_of(request).get(game_id)
    b = s.game.board
    return {**board_words(geometry(b)), "ids": list(b.ids)}


@router.get("/api/games/{game_id}/log", responses=refusals(404))
async def get_log(game_id: str, request: Request, start: int = Query(0, ge=0)):
    """The whole log from line `start` on (public)."""
    s = await manager_of(request).get(game_id)
    return {"start": start, "total": len(s.log), "log": s.lines()[start:]}


@router.post("/api/games/{game_id}/actions", responses=refusals(403, 404, 409, 422, 503))
async def post_action(game_id: str, body: DecisionBody, request: Request):
    """The decision of the seat the game waits on, at the current version."""
    # No read ahead of the decision: a stale process finds out from the version or when
    # storing the decision collides (server/sync.py).
    s = await manager_of(request).get(game_id, fresh=False)
    seat = await s.seat_for(body.token)
    if seat is None:
        raise Refused(403, N_("a token is required to act"))
    await s.join(seat, body.token)
    # The token is checked again under the game's lock, against the seats as stored.
    return await s.act(body.token, body.version, body.action.model_dump(exclude={"text"}))


@router.post("/api/games/{game_id}/undo", responses=refusals(403, 404, 409, 422, 503))
async def post_undo(game_id: str, body: UndoBody, request: Request):
    """Undo, as at a real table: the seat to move takes back its last decision, if nothing
    was revealed or left to chance since and no one else played (engine/undo.py; the state's
    `undo` says how far back the seat may go, and why not further). 409 with the reason
    beyond that."""
    s = await manager_of(request).get(game_id, fresh=False)
    await s.seat_for(body.token)  # a token new to this process: the seats are read again
    # The token is checked again under the game's lock, against the seats as stored.
    return await s.take_back(body.token, body.version)


@router.get("/api/games/{game_id}/record", responses=refusals(404, 409))
async def get_record(game_id: str, request: Request):
    """The finished game's record (options with the seed, and every decision):
    `cyclades.Game.from_record` replays it. Refused (409) while the game goes on."""
    s = await manager_of(request).get(game_id)
    if not s.game.is_over:
        raise Refused(409, N_("the record (with the seed) is published once the game is over"))
    return s.game.record()
