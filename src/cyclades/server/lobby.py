"""The lobby: the games to watch or join, the bots a seat may have, and the seats.

    GET  /api/games?status=waiting          the most recent games (stored ones too)
    GET  /api/bots                          the bot kinds, their labels, the default
    POST /api/games/{id}/join               take an open seat (its token is made now)
    POST /api/games/{id}/seats/{seat}       the host gives a seat to a bot, to anyone, or to a
                                            new invitation link
"""
from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request

from .bodies import JoinBody, SeatBody
from .errors import Refused, refusals
from .options import DEFAULT_BOT
from .seats import public_seats, seat_factions
from .sessions import manager_of

router = APIRouter()


@router.get("/api/games")
async def list_games(request: Request, limit: int = Query(100, ge=1, le=10000),
                     status: Literal["waiting", "playing", "over"] | None = None):
    """The most recent games first (open ones: `?status=waiting`)."""
    m = manager_of(request)
    rows = await m.db(m.store.summaries, limit, status)
    return {"games": [_summary(r) for r in rows]}


def _summary(r: dict) -> dict:
    """A stored game as the lobby lists it (no token, no seed)."""
    o = r["options"]
    factions = seat_factions(len(r["seats"]), o.get("teams"))
    return {"game_id": r["game_id"], "players": o.get("players"), "ruleset": o.get("ruleset"),
            "teams": bool(o.get("teams")), "team_goal": o.get("team_goal") if o.get("teams") else None,
            "board": o.get("board") if isinstance(o.get("board"), str) else "custom",
            "maelstrom": o.get("maelstrom"), "created": r["created"], "status": r["status"],
            "seats": public_seats(r["seats"], factions),
            "cycle": r["cycle"], "to_move": r["to_move"], "version": r["version"]}


@router.get("/api/bots")
async def list_bots():
    """The bot kinds a seat may have (besides "you", "invite", "open"), the levels first
    (beginner, casual, strong, expert), a label for people of each, and the one a seat gets
    by default."""
    from ..agents import agent_labels, agent_names
    return {"bots": agent_names(), "labels": agent_labels(), "default": DEFAULT_BOT}


@router.post("/api/games/{game_id}/join", responses=refusals(403, 404, 409, 422))
async def join_seat(game_id: str, body: JoinBody, request: Request):
    """Take an open seat from the lobby: the first to join gets a token made now.
    A seat kept for an invited friend is never handed out (403)."""
    s = await manager_of(request).get(game_id)
    if s.game.is_over:
        raise Refused(409, "the game is over")
    if not 0 <= body.seat < len(s.seats):
        raise Refused(422, f"no seat {body.seat}: the game has seats 0 to {len(s.seats) - 1}")
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
        raise Refused(403, "only the game's host (with the host token) can change its seats")
    if not 0 <= seat < len(s.seats):
        raise Refused(422, f"no seat {seat}: the game has seats 0 to {len(s.seats) - 1}")
    known = ["open", "invite"] + agent_names()
    if body.kind not in known:
        raise Refused(422, f"unknown seat kind {body.kind!r}; known: {', '.join(known)}")
    name = (body.name or "").strip()[:40] or None
    x = await s.set_seat(seat, body.kind, name)
    out = {"game_id": game_id, **s.public_seats()[seat]}
    if x.get("token"):
        out.update(token=x["token"], url=f"/game/{game_id}?token={x['token']}")
    return out
