""""My games" and invitations by name.

    GET  /api/account/games                          waiting on me, running, open, finished
    POST /api/games/{id}/invite                      the host invites an account by name to a seat
    POST /api/account/invitations/{id}/accept|decline

"Waiting on me": the unfinished games whose player to move is one of my seat's factions,
oldest first, each with how long it has waited and until when it is kept (an unfinished game
with no decision for `--expire-hours` is removed: housekeeping.py). Then the running ones,
the open ones (tables waiting for players, invitations, games some of whose seats are not
taken), and the finished ones, latest first. Each has its link: my seat's (its token: the
account holds the seat), or for a finished game its replay.
"""
from __future__ import annotations

import json

import sqlalchemy as sa
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from ..content.i18n import N_
from . import auth
from .account_store import find_account
from .errors import Refused, refusals
from .holders import holders_of, invite, release, set_state
from .people_schema import seat_holders
from .playnow import mode_of, tables_of
from .seats import public_seats, seat_factions
from .store import games

FINISHED_SHOWN = 20

router = APIRouter()

# What the routes' refusals mean (the OpenAPI schema's words).
REFUSALS = {401: "not logged in (and no host token)", 403: "not the game's host",
           404: "no such game, or no such player", 409: "the seat is taken, or the game is over",
           422: "no such seat, or a bot's seat"}


# --- the database side ----------------------------------------------------------------------------

def _held_games(engine, account_id: int, finished: bool, limit: int | None = None) -> list:
    q = (sa.select(seat_holders.c.game_id, seat_holders.c.seat, seat_holders.c.state,
                   seat_holders.c.since, seat_holders.c.finished, seat_holders.c.place, seat_holders.c.won,
                   games.c.options, games.c.seats, games.c.settings, games.c.status, games.c.to_move,
                   games.c.updated, games.c.created, games.c.cycle)
         .join(games, games.c.game_id == seat_holders.c.game_id)
         .where(seat_holders.c.account_id == account_id))
    if finished:
        q = q.where(seat_holders.c.finished.is_not(None)).order_by(seat_holders.c.finished.desc())
    else:
        q = q.where(seat_holders.c.finished.is_(None), games.c.status != "over")
    if limit:
        q = q.limit(limit)
    with engine.connect() as c:
        return c.execute(q).all()


def _my_turn(row) -> bool:
    if row.state != "playing" or row.status == "over" or row.to_move is None:
        return False
    options, seats = json.loads(row.options), json.loads(row.seats)
    factions = seat_factions(len(seats), options.get("teams"))
    return 0 <= row.seat < len(factions) and row.to_move in factions[row.seat]


def _item(row, expire_hours: float) -> dict:
    options, seats = json.loads(row.options), json.loads(row.seats)
    settings = json.loads(row.settings or "{}")
    factions = seat_factions(len(seats), options.get("teams"))
    mine = seats[row.seat] if 0 <= row.seat < len(seats) else {}
    over = row.status == "over"
    to_move_seat = next((i for i, fs in enumerate(factions) if row.to_move in fs), None)
    item = {"game_id": row.game_id, "seat": row.seat, "state": row.state, "status": row.status,
            "mode": mode_of(options), "speed": settings.get("speed"), "rated": bool(settings.get("rated")),
            "cycle": row.cycle, "created": row.created, "updated": row.updated,
            "seats": [{"seat": p["seat"], "name": p["name"] or f"Player {p['seat'] + 1}", "kind": p["kind"],
                       "joined": p["joined"]} for p in public_seats(seats, factions)],
            "to_move_seat": None if over else to_move_seat, "my_turn": _my_turn(row),
            "url": None, "replay": f"/replay/{row.game_id}" if over else None,
            "expires": row.updated + expire_hours * 3600 if expire_hours and not over else None}
    if row.state == "playing" and mine.get("token"):
        item["url"] = f"/game/{row.game_id}?token={mine['token']}"
    if row.finished is not None:
        item.update(finished=row.finished, place=row.place, won=row.won)
    return item


# --- the routes ------------------------------------------------------------------------------------------

async def counts(people, account_id: int) -> dict:
    """The badge: games waiting on me; and my invitations."""
    rows = await people.db(_held_games, account_id, False)
    return {"waiting_on_me": sum(1 for r in rows if _my_turn(r)),
            "invitations": sum(1 for r in rows if r.state == "invited")}


@router.get("/api/account/games", responses=refusals(401, what=REFUSALS))
async def my_games(request: Request):
    """My games: `waiting_on_me` (oldest first), `running`, `open` (`tables`: play-now tables
    I wait at; `invitations`; games with seats not taken yet) and `finished` (latest first)."""
    people = request.app.state.people
    account = auth.account_of(request)
    limits = request.app.state.limits
    unfinished = await people.db(_held_games, account["id"], False)
    finished = await people.db(_held_games, account["id"], True, FINISHED_SHOWN)
    items = [_item(r, limits.expire_hours) for r in unfinished]
    waiting = sorted((x for x in items if x["my_turn"]), key=lambda x: x["updated"])
    invitations = [x for x in items if x["state"] == "invited"]
    rest = [x for x in items if not x["my_turn"] and x["state"] == "playing"]
    return {"waiting_on_me": waiting,
            "running": sorted((x for x in rest if x["status"] == "playing"), key=lambda x: -x["updated"]),
            "open": sorted((x for x in rest if x["status"] == "waiting"), key=lambda x: -x["updated"]),
            "invitations": invitations,
            "tables": await tables_of(people, account["id"]),
            "finished": [_item(r, 0) for r in finished]}


class InviteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: StrictInt = Field(description="a person's seat nobody has joined yet")
    name: StrictStr = Field(max_length=200, description="the invited player's account name")
    host_token: StrictStr | None = Field(None, description="the host token (or log in as the host)")


@router.post("/api/games/{game_id}/invite", responses=refusals(401, 403, 404, 409, 422, what=REFUSALS))
async def invite_by_name(game_id: str, body: InviteBody, request: Request):
    """The host (the host token, or the account holding the host's seat) keeps a seat for a
    player by their account name: it leaves the lobby's open seats and gets a new link, which
    the player finds in their "My games" invitations."""
    people = request.app.state.people
    s = await people.m.get(game_id)
    account = auth.account_of(request, required=False)
    held = await people.db(holders_of, game_id)
    host_seat = next((i for i, x in enumerate(s.seats) if x.get("access") == "host"), None)
    by_account = account is not None and host_seat is not None and \
        held.get(host_seat, {}).get("account_id") == account["id"]
    if not (s.is_host(body.host_token) or by_account):
        if account is None and not body.host_token:
            raise Refused(401, N_("log in as the game's host, or send its host token"))
        raise Refused(403, N_("only the game's host can invite players to its seats"))
    if s.game.is_over:
        raise Refused(409, N_("the game is over"))
    if not 0 <= body.seat < len(s.seats):
        raise Refused(422, N_("no seat {seat}: the game has seats 0 to {last}"),
            seat=body.seat, last=len(s.seats) - 1)
    seat = s.seats[body.seat]
    if seat["kind"] != "human":
        raise Refused(422, N_("seat {seat} is played by a bot"), seat=body.seat)
    if seat.get("joined") or (held.get(body.seat, {}).get("state") == "playing"):
        raise Refused(409, N_("seat {seat} is already taken"), seat=body.seat)
    row = await people.db(find_account, body.name)
    if row is None:
        raise Refused(404, N_("no player is called {name}"), name=repr(body.name))
    if any(x["account_id"] == row.id for i, x in held.items() if i != body.seat):
        raise Refused(409, N_("{name} already has a seat in this game"), name=row.name)
    await invite(people, s, body.seat, row.id, row.name)
    return {"game_id": game_id, "seat": body.seat, "invited": row.name}


async def _invitation(request: Request, game_id: str):
    people = request.app.state.people
    account = auth.account_of(request)
    held = await people.db(holders_of, game_id)
    seat = next((i for i, x in held.items() if x["account_id"] == account["id"] and x["state"] == "invited"), None)
    if seat is None:
        raise Refused(404, N_("you have no invitation to this game"))
    return people, account, seat


@router.post("/api/account/invitations/{game_id}/accept", responses=refusals(401, 404, 409, what=REFUSALS))
async def accept(game_id: str, request: Request):
    """Take the seat I was invited to: its link."""
    people, account, seat = await _invitation(request, game_id)
    s = await people.m.get(game_id)
    if s.game.is_over:
        raise Refused(409, N_("the game is over"))
    if not await people.db(set_state, game_id, seat, account["id"], "invited", "playing"):
        raise Refused(409, N_("the invitation was withdrawn meanwhile"))
    return {"game_id": game_id, "seat": seat, "url": f"/game/{game_id}?token={s.seats[seat]['token']}"}


@router.post("/api/account/invitations/{game_id}/decline", responses=refusals(401, 404, what=REFUSALS))
async def decline(game_id: str, request: Request):
    """Refuse an invitation: the seat waits for the host to give it to someone else."""
    people, account, seat = await _invitation(request, game_id)
    s = await people.m.get(game_id)
    if await people.db(release, game_id, seat, account["id"], "invited") and not s.game.is_over:
        await s.set_seat(seat, "invite", f"Player {seat + 1}")  # its link is known to no one
    return {"game_id": game_id, "declined": True}
