"""The lobby: the games to watch or join, the bots a seat may have, and the seats.

    GET  /api/games?status=&mode=           the games one can join or watch, newest first
    GET  /api/bots                          the bot kinds, their labels, the default
    POST /api/games/{id}/join               take an open seat (its token is made now)
    POST /api/games/{id}/seats/{seat}       the host gives a seat to a bot, to anyone, or to a
                                            new invitation link
"""
from __future__ import annotations

import time
from typing import Literal

from fastapi import APIRouter, Query, Request

from ..content.i18n import N_
from .bodies import JoinBody, SeatBody
from .errors import Refused, refusals
from .options import DEFAULT_BOT
from .seats import public_seats, seat_access, seat_factions
from .sessions import manager_of

router = APIRouter()


Mode = Literal["legendary", "maelstrom", "classic", "teams"]
IDLE_HOURS = 24  # an unfinished game nobody may join, with no move for this long, is not listed


@router.get("/api/games")
async def list_games(request: Request, limit: int = Query(100, ge=1, le=10000),
                     status: Literal["waiting", "playing", "over"] | None = None,
                     mode: Mode | None = None):
    """The games one can join or watch, the most recent first: never the tutorial's lessons,
    nor unfinished games without a free seat where nothing happened for a day (abandoned).
    `status`: waiting (for players), playing or over; `mode`: legendary (any Legendary game),
    maelstrom (with the Maelström module), classic (the 2009 edition) or teams (team play)."""
    m = manager_of(request)
    idle = time.time() - IDLE_HOURS * 3600
    rows = await m.db(m.store.summaries, min(10000, limit * 4), status, False)
    out = []
    for r in rows:
        g = _summary(r)
        if (mode is None or mode in g["modes"]) and (g["status"] == "over" or g["free_seats"] or r["updated"] >= idle):
            out.append(g)
            if len(out) == limit:
                break
    return {"games": out}


def modes_of(options: dict) -> list:
    """The modes of a game, as the list filters them."""
    if options.get("ruleset") == "classic":
        return ["classic"]
    out = ["legendary"] + (["maelstrom"] if options.get("maelstrom") else [])
    return out + (["teams"] if options.get("teams") else [])


def _summary(r: dict) -> dict:
    """A stored game as the lobby lists it (no token, no seed)."""
    o = r["options"]
    factions = seat_factions(len(r["seats"]), o.get("teams"))
    return {"game_id": r["game_id"], "players": o.get("players"), "ruleset": o.get("ruleset"),
            "teams": bool(o.get("teams")), "team_goal": o.get("team_goal") if o.get("teams") else None,
            "board": o.get("board") if isinstance(o.get("board"), str) else "custom",
            "maelstrom": o.get("maelstrom"), "created": r["created"], "status": r["status"],
            "seats": public_seats(r["seats"], factions), "modes": modes_of(o),
            "free_seats": sum(1 for s in r["seats"] if seat_access(s) == "open" and not s.get("joined")),
            "cycle": r["cycle"], "to_move": r["to_move"], "version": r["version"],
            "updated": r["updated"]}


@router.get("/api/bots")
async def list_bots():
    """The bot kinds a seat may have (besides "you", "invite", "open"), the levels first
    (beginner, casual, strong, expert), a label for people of each, the levels' names, and the
    one a seat gets by default."""
    from ..agents import agent_labels, agent_names
    from ..agents.levels import titles
    return {"bots": agent_names(), "labels": agent_labels(), "levels": titles(), "default": DEFAULT_BOT}


@router.post("/api/games/{game_id}/join", responses=refusals(403, 404, 409, 422))
async def join_seat(game_id: str, body: JoinBody, request: Request):
    """Take an open seat from the lobby: the first to join gets a token made now.
    A seat kept for an invited friend is never handed out (403)."""
    s = await manager_of(request).get(game_id)
    if s.game.is_over:
        raise Refused(409, N_("the game is over"))
    if not 0 <= body.seat < len(s.seats):
        raise Refused(422, N_("no seat {seat}: the game has seats 0 to {last}"),
            seat=body.seat, last=len(s.seats) - 1)
    token = await s.take_open_seat(body.seat)
    seat = s.seats[body.seat]
    return {"game_id": game_id, "seat": body.seat, "name": seat.get("name"),
            "factions": s.factions_of[body.seat],
            "token": token, "url": f"/game/{game_id}?token={token}"}


@router.post("/api/games/{game_id}/seats/{seat}", responses=refusals(403, 404, 409, 422))
async def change_seat(game_id: str, seat: int, body: SeatBody, request: Request):
    """The host (with the host token) gives a human seat (not joined, or whose player is
    gone) to a bot, to anyone ("open"), or to a new invitation link ("invite"). The seat's
    old link stops working; a bot plays at once if the game waits on that seat."""
    from ..agents import agent_names
    s = await manager_of(request).get(game_id)
    if not s.is_host(body.host_token):
        raise Refused(403, N_("only the game's host (with the host token) can change its seats"))
    if not 0 <= seat < len(s.seats):
        raise Refused(422, N_("no seat {seat}: the game has seats 0 to {last}"), seat=seat, last=len(s.seats) - 1)
    known = ["open", "invite"] + agent_names()
    if body.kind not in known:
        raise Refused(422, N_("unknown seat kind {kind}; known: {known}"), kind=repr(body.kind), known=', '.join(known))
    name = (body.name or "").strip()[:40] or None
    x = await s.set_seat(seat, body.kind, name)
    out = {"game_id": game_id, **s.public_seats()[seat]}
    if x.get("token"):
        out.update(token=x["token"], url=f"/game/{game_id}?token={x['token']}")
    return out
