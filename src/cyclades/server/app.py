"""The game server: HTTP and WebSocket API (docs/api.md) and the web client's files.

    from cyclades.server.app import create_app
    app = create_app("sqlite:///games.db")      # any ASGI server runs it

Everything that changes a game goes through `sessions.Session.act`; every
answer carries only `game.view(seat)` (spectators: `game.view(None)`), never
the full state or the generator (R24).
"""
from __future__ import annotations

import asyncio
import contextlib
import secrets
from pathlib import Path
from typing import Literal, Optional, Union

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from .security import REFUSED, receive_message
from .sessions import LOG_TAIL, Connection, Manager, Refused, public_seats, seat_factions
from .store import Store

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"

# The bot a seat gets when the request (or the lobby, which asks GET /api/bots) names none.
DEFAULT_BOT = "greedy"
# Seat kinds besides the bots' names: the creator's own seat, a friend's (by its
# invitation link; "human" is the older name), and a seat anyone may join from the lobby.
PEOPLE = {"you": "host", "invite": "invite", "human": "invite", "open": "open"}
RULESET_NAMES = {"legendary": "the Legendary Edition", "classic": "the classic (2009) game"}


# --- request bodies ----------------------------------------------------------------

class ActionBody(BaseModel):
    """One of the `legal_actions` of the seat to move, as the engine lists it."""
    model_config = ConfigDict(extra="forbid")
    kind: StrictStr
    what: StrictStr = ""
    where: StrictStr = ""
    n: StrictInt = 0


class DecisionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: StrictStr = Field(description="the secret token of the seat the game waits on")
    version: StrictInt = Field(description="the current version (view['version']) the decision answers")
    action: ActionBody


class JoinBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: StrictInt = Field(description="an open seat that nobody has joined yet")


class SeatBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    host_token: StrictStr = Field(description="the host token that creating the game returned")
    kind: StrictStr = Field(description='a bot name (GET /api/bots), "open" (anyone may join it) or '
                                        '"invite" (a new invitation link)')
    name: Optional[StrictStr] = Field(None, max_length=40)


class CreateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: StrictInt = Field(3, description="people: Legendary 2 to 6, classic 2 to 5")
    ruleset: StrictStr = Field("legendary", description='"legendary" or "classic" (the 2009 edition)')
    teams: Optional[StrictBool] = Field(None, description="team play (R22): always with 2 and 6 players, "
                                                    "optional with 4 (default off), never otherwise")
    team_goal: Optional[StrictInt] = Field(None, description="metropolises a team needs: 3 (default) or 4")
    maelstrom: Optional[StrictBool] = Field(None, description="the Maelström module (Legendary only; "
                                                        "default on)")
    board: Literal["random", "recommended"] = "random"
    seed: Optional[StrictInt] = Field(None, description="omit for a secret random seed")
    seats: Optional[list[StrictStr]] = Field(
        None, description='one per player: "you" (the creator), "invite" (a friend, by an '
                          'invitation link; "human" is the same), "open" (the first to join from '
                          f'the lobby) or a bot name; default: "you", then {DEFAULT_BOT} bots')
    names: Optional[list[Optional[StrictStr]]] = None
    max_cycles: Optional[StrictInt] = Field(None, ge=1)
    bot_delay: Optional[Union[StrictInt, StrictFloat]] = Field(None, ge=0, le=10,
                                       description="seconds each bot of this game waits before a "
                                                   "decision (default: the server's --bot-delay)")


# --- answers -------------------------------------------------------------------------

class Error(BaseModel):
    detail: str = Field(description="a clear message; nothing was changed")


def refusals(*codes):
    what = {403: "not this seat's turn, or not a seat of this game", 404: "no such game",
            409: "stale version, or the game is over (or not over yet)",
            422: "malformed body, or an illegal action (the engine's reason)",
            503: "the database could not store the decision; nothing changed"}
    return {c: {"model": Error, "description": what[c]} for c in codes}

def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"detail": message}, status_code=status)


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for e in exc.errors():
        where = ".".join(str(x) for x in e.get("loc", ()) if x != "body")
        parts.append(f"{where}: {e.get('msg')}" if where else str(e.get("msg")))
    return "malformed request: " + "; ".join(parts)


def setup_options(body: CreateBody) -> dict:
    """The engine options of a game to create, or Refused(422) with what is wrong."""
    ruleset, n = body.ruleset, body.players
    from ..content.rulesets import RULESETS
    if ruleset not in RULESETS:
        raise Refused(422, f"unknown ruleset {ruleset!r}: \"legendary\" (the Legendary Edition) or "
                           f"\"classic\" (the 2009 edition)")
    what = _ruleset_name(ruleset)
    r = RULESETS[ruleset]
    if not r.team_play:
        if n not in r.players:
            raise Refused(422, f"{what} takes {r.players[0]} to {r.players[-1]} players, not {n}")
        if body.teams:
            raise Refused(422, f"{what} has no team play (teams: false)")
        if body.team_goal is not None:
            raise Refused(422, f"{what} has no team play, so no team goal")
        if body.maelstrom:
            raise Refused(422, "the Maelström module is for the Legendary Edition, not the classic game")
        teams, maelstrom = False, False
    else:
        if not 2 <= n <= 6:
            raise Refused(422, f"{what} takes 2 to 6 players, not {n}")
        if n in (2, 6):
            if body.teams is False:
                raise Refused(422, f"{n} players always play in teams (R22): "
                                   + ("each plays the two factions of a team" if n == 2
                                      else "three teams of two"))
            teams = True
        elif n == 4:
            teams = bool(body.teams)
        else:
            if body.teams:
                raise Refused(422, f"team play is for 4 players (2 and 6 always play in teams), not {n}")
            teams = False
        if body.team_goal is not None:
            if not teams:
                raise Refused(422, "team_goal is for team play (2 or 6 players, or 4 with teams)")
            if body.team_goal not in (3, 4):
                raise Refused(422, f"the team goal is 3 or 4 metropolises, not {body.team_goal}")
        maelstrom = True if body.maelstrom is None else body.maelstrom
    options = {"players": n, "ruleset": ruleset, "seed": body.seed, "board": body.board,
               "maelstrom": maelstrom, "max_cycles": body.max_cycles}
    if teams:
        options.update(teams=True, team_goal=body.team_goal or 3)
    return options


def _ruleset_name(ruleset: str) -> str:
    return RULESET_NAMES.get(ruleset, f"the {ruleset} game")


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
    from .security import install as install_security  # limits, headers, offline docs, housekeeping
    install_security(app, limits)

    def M(request_or_ws) -> Manager:
        return request_or_ws.app.state.manager

    @app.exception_handler(RequestValidationError)
    async def _malformed(request, exc):
        return JSONResponse({"detail": _validation_message(exc)}, status_code=422)

    @app.exception_handler(Refused)
    async def _refused(request, exc: Refused):
        return error(exc.status, exc.message)

    # --- HTTP API ------------------------------------------------------------------------

    @app.post("/api/games", status_code=201, responses=refusals(422))
    async def create_game(body: CreateBody, request: Request):
        """Create a game; returns each invited seat's secret link, the host token and the
        spectator link."""
        from ..agents import agent_names
        options = setup_options(body)
        n = body.players
        seats = body.seats or ["you"] + [DEFAULT_BOT] * (n - 1)
        if len(seats) != n:
            raise Refused(422, f"'seats' must list {n} seats, one per player; got {len(seats)}")
        bots = agent_names()
        known = list(PEOPLE) + bots
        for k in seats:
            if k not in known:
                raise Refused(422, f"unknown seat kind {k!r}; known: {', '.join(known)}")
        if seats.count("you") > 1:
            raise Refused(422, "only one seat can be \"you\": invite the others by link "
                               "(\"invite\") or leave them open (\"open\")")
        names = list(body.names or [])
        if len(names) > n:
            raise Refused(422, f"'names' lists more than {n} players")
        names += [None] * (n - len(names))
        names = [(x or "").strip()[:40] or None for x in names]
        names = [x or (f"Player {i + 1}" if seats[i] in PEOPLE else f"{seats[i].title()} bot {i + 1}")
                 for i, x in enumerate(names)]
        settings = {"host_token": secrets.token_urlsafe(24)}
        if body.bot_delay is not None:
            settings["bot_delay"] = body.bot_delay
        s = await M(request).create(
            options, [{"kind": "human" if k in PEOPLE else k, "access": PEOPLE.get(k), "name": x}
                      for k, x in zip(seats, names)], settings)
        gid = s.game_id
        public = s.public_seats()
        return {"game_id": gid, "host_token": settings["host_token"],
                "players": n, "ruleset": options["ruleset"], "teams": bool(s.game.teams),
                "seats": [{**public[i], "token": x["token"],
                           "url": f"/game/{gid}?token={x['token']}" if x["token"] else None}
                          for i, x in enumerate(s.seats) if x["kind"] == "human"],
                "spectator_url": f"/game/{gid}"}

    @app.get("/api/games")
    async def list_games(request: Request, limit: int = Query(100, ge=1, le=10000),
                         status: Optional[Literal["waiting", "playing", "over"]] = None):
        """The most recent games first (open ones: `?status=waiting`)."""
        rows = await M(request).db(M(request).store.summaries, limit, status)
        games = []
        for r in rows:
            o = r["options"]
            factions = seat_factions(len(r["seats"]), o.get("teams"))
            games.append({
                "game_id": r["game_id"], "players": o.get("players"), "ruleset": o.get("ruleset"),
                "teams": bool(o.get("teams")), "team_goal": o.get("team_goal") if o.get("teams") else None,
                "board": o.get("board") if isinstance(o.get("board"), str) else "custom",
                "maelstrom": o.get("maelstrom"), "created": r["created"], "status": r["status"],
                "seats": public_seats(r["seats"], factions),
                "cycle": r["cycle"], "to_move": r["to_move"], "version": r["version"]})
        return {"games": games}

    @app.get("/api/games/{game_id}", responses=refusals(403, 404))
    async def get_game(game_id: str, request: Request, token: Optional[str] = None):
        """The game as a seat (with its token) or a spectator (without) sees it."""
        s = await M(request).get(game_id)
        seat = await s.seat_for(token)
        await s.join(seat)
        out = s.state(seat, s.log[-LOG_TAIL:])
        out["log_total"] = len(s.log)
        return out

    @app.post("/api/games/{game_id}/join", responses=refusals(403, 404, 409, 422))
    async def join_seat(game_id: str, body: JoinBody, request: Request):
        """Take an open seat from the lobby: the first to join gets a token made now.
        A seat kept for an invited friend is never handed out (403)."""
        s = await M(request).get(game_id)
        if s.game.is_over:
            raise Refused(409, "the game is over")
        if not 0 <= body.seat < len(s.seats):
            raise Refused(422, f"no seat {body.seat}: the game has seats 0 to {len(s.seats) - 1}")
        token = await s.take_open_seat(body.seat)
        seat = s.seats[body.seat]
        return {"game_id": game_id, "seat": body.seat, "name": seat.get("name"),
                "factions": s.factions_of[body.seat],
                "token": token, "url": f"/game/{game_id}?token={token}"}

    @app.post("/api/games/{game_id}/seats/{seat}", responses=refusals(403, 404, 409, 422))
    async def change_seat(game_id: str, seat: int, body: SeatBody, request: Request):
        """The host (with the host token) gives a human seat (not joined, or whose player is
        gone) to a bot, to anyone ("open"), or to a new invitation link ("invite"). The seat's
        old link stops working; a bot plays at once if the game waits on that seat."""
        from ..agents import agent_names
        s = await M(request).get(game_id)
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

    @app.get("/api/bots")
    async def list_bots():
        """The bot kinds a seat may have (besides "you", "invite", "open"), the levels first
        (beginner, casual, strong, expert), a label for people of each, and the one a seat gets
        by default."""
        from ..agents import agent_labels, agent_names
        return {"bots": agent_names(), "labels": agent_labels(), "default": DEFAULT_BOT}

    @app.get("/api/games/{game_id}/board", responses=refusals(404))
    async def get_board(game_id: str, request: Request):
        """The map's geometry for drawing (public, never changes during a game)."""
        s = await M(request).get(game_id)
        b = s.game.board
        return {**b.geometry(), "ids": list(b.ids)}

    @app.get("/api/games/{game_id}/log", responses=refusals(404))
    async def get_log(game_id: str, request: Request, start: int = Query(0, ge=0)):
        """The whole log from line `start` on (public)."""
        s = await M(request).get(game_id)
        return {"start": start, "total": len(s.log), "log": s.log[start:]}

    @app.post("/api/games/{game_id}/actions", responses=refusals(403, 404, 409, 422, 503))
    async def post_action(game_id: str, body: DecisionBody, request: Request):
        """The decision of the seat the game waits on, at the current version."""
        # No read ahead of the decision: a stale process finds out from the version or when
        # storing the decision collides (server/sync.py).
        s = await M(request).get(game_id, fresh=False)
        seat = await s.seat_for(body.token)
        if seat is None:
            raise Refused(403, "a token is required to act")
        await s.join(seat)
        return await s.act(seat, body.version, body.action.model_dump())

    @app.get("/api/games/{game_id}/record", responses=refusals(404, 409))
    async def get_record(game_id: str, request: Request):
        """The finished game's record (options with the seed, and every decision):
        `cyclades.Game.from_record` replays it. Refused (409) while the game goes on."""
        s = await M(request).get(game_id)
        if not s.game.is_over:
            raise Refused(409, "the record (with the seed) is published once the game is over")
        return s.game.record()

    # --- WebSocket -------------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def ws_game(ws: WebSocket, game_id: str, token: Optional[str] = None):
        await ws.accept()
        try:
            s = await M(ws).get(game_id)
            seat = await s.seat_for(token)
        except Refused as e:
            await ws.send_json({"type": "error", "status": e.status, "message": e.message})
            await ws.close(code=4000 + e.status)
            return
        await s.join(seat)
        conn = Connection(s, ws, seat)
        s.conns.add(conn)
        writer = asyncio.get_running_loop().create_task(conn.writer())
        conn.notify()
        try:
            while True:
                msg = await receive_message(ws, conn.error)  # security.py: size, binary, depth
                if msg is REFUSED:
                    continue
                kind = msg.get("type")
                if kind == "ping":
                    conn.queue.put_nowait({"type": "pong"})
                elif kind == "state":
                    conn.notify()
                elif kind == "action":
                    if set(msg) - {"type", "version", "action"} or "version" not in msg \
                            or "action" not in msg:
                        conn.error(422, "malformed message: an action message is "
                                        '{"type": "action", "version": N, "action": {...}}')
                        continue
                    try:
                        await s.act(conn.seat, msg["version"], msg["action"])  # None once the host gave the seat away
                    except Refused as e:
                        conn.error(e.status, e.message)
                else:
                    conn.error(422, f"malformed message: unknown type {kind!r}")
        except WebSocketDisconnect:
            pass
        finally:
            s.conns.discard(conn)
            writer.cancel()

    # --- the web client's files -------------------------------------------------------------

    def page(name: str):
        path = STATIC / name
        if path.is_file():
            return FileResponse(path, media_type="text/html")
        return HTMLResponse(PLACEHOLDER.format(name=name))

    @app.get("/", include_in_schema=False)
    async def lobby():
        return page("index.html")

    @app.get("/game/{game_id}", include_in_schema=False)
    async def game_page(game_id: str):
        return page("game.html")

    from .pages import router as pages_router  # the rules page and the content texts
    app.include_router(pages_router)
    from .replays import router as replays_router  # replays, the end of a game, rematches
    app.include_router(replays_router)
    from .tutorial import router as tutorial_router  # the guided first game; back; ends-turn
    app.include_router(tutorial_router)
    from .advice import router as advice_router  # hints and win chances (issue 14)
    app.include_router(advice_router)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8"><title>Cyclades</title></head>
<body><h1>Cyclades</h1><p>The web client ({name}) is not installed yet; the API is at
<a href="/docs">/docs</a>.</p></body></html>"""
