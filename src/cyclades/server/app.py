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
import json
from pathlib import Path
from typing import Literal, Optional

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from .sessions import LOG_TAIL, Connection, Manager, Refused
from .store import Store

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"


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
    seat: StrictInt = Field(description="a human seat that nobody has joined yet")


class CreateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: StrictInt = Field(3, ge=3, le=5)
    ruleset: StrictStr = "legendary"
    maelstrom: bool = True
    board: Literal["random", "recommended"] = "random"
    seed: Optional[StrictInt] = Field(None, description="omit for a secret random seed")
    seats: Optional[list[StrictStr]] = Field(
        None, description='one per player: "human" or a bot name ("random"); '
                          'default: seat 0 human, the others random')
    names: Optional[list[Optional[StrictStr]]] = None
    max_cycles: Optional[StrictInt] = Field(None, ge=1)
    bot_delay: Optional[float] = Field(None, ge=0, le=10,
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


def create_app(db_url: str | None = None, bot_delay: float = 0.3) -> FastAPI:
    """The ASGI app. `db_url`: a SQLAlchemy URL (default: SQLite in the user data
    directory); `bot_delay`: seconds a bot waits before each decision."""

    @contextlib.asynccontextmanager
    async def lifespan(app):
        manager = Manager(Store(db_url), bot_delay=bot_delay)
        app.state.manager = manager
        await manager.start()
        try:
            yield
        finally:
            await manager.stop()

    app = FastAPI(title="Cyclades game server", version="1", lifespan=lifespan,
                  description="Play Cyclades over HTTP and WebSocket: see docs/api.md.")

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
        """Create a game; returns each human seat's secret link and the spectator link."""
        from ..agents import agent_names
        n = body.players
        seats = body.seats or ["human"] + ["random"] * (n - 1)
        if len(seats) != n:
            raise Refused(422, f"'seats' must list {n} seats, one per player; got {len(seats)}")
        known = ["human"] + agent_names()
        for k in seats:
            if k not in known:
                raise Refused(422, f"unknown seat kind {k!r}; known: {', '.join(known)}")
        names = list(body.names or [])
        if len(names) > n:
            raise Refused(422, f"'names' lists more than {n} players")
        names += [None] * (n - len(names))
        names = [(x or "").strip()[:40] or None for x in names]
        names = [x or (f"Player {i + 1}" if seats[i] == "human" else f"{seats[i].title()} bot {i + 1}")
                 for i, x in enumerate(names)]
        options = {"players": n, "ruleset": body.ruleset, "seed": body.seed, "board": body.board,
                   "maelstrom": body.maelstrom, "max_cycles": body.max_cycles}
        settings = {} if body.bot_delay is None else {"bot_delay": body.bot_delay}
        s = await M(request).create(options, [{"kind": k, "name": x} for k, x in zip(seats, names)],
                                    settings)
        gid = s.game_id
        return {"game_id": gid,
                "seats": [{"seat": i, "kind": x["kind"], "name": x["name"], "token": x["token"],
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
            games.append({
                "game_id": r["game_id"], "players": o.get("players"), "ruleset": o.get("ruleset"),
                "board": o.get("board") if isinstance(o.get("board"), str) else "custom",
                "maelstrom": o.get("maelstrom"), "created": r["created"], "status": r["status"],
                "seats": [{"seat": i, "kind": x["kind"], "name": x.get("name"),
                           "joined": bool(x.get("joined")) or x["kind"] != "human"}
                          for i, x in enumerate(r["seats"])],
                "cycle": r["cycle"], "to_move": r["to_move"], "version": r["version"]})
        return {"games": games}

    @app.get("/api/games/{game_id}", responses=refusals(403, 404))
    async def get_game(game_id: str, request: Request, token: Optional[str] = None):
        """The game as a seat (with its token) or a spectator (without) sees it."""
        s = await M(request).get(game_id)
        seat = s.seat_of(token)
        await s.join(seat)
        out = s.state(seat, s.log[-LOG_TAIL:])
        out["log_total"] = len(s.log)
        return out

    @app.post("/api/games/{game_id}/join", responses=refusals(404, 409, 422))
    async def join_seat(game_id: str, body: JoinBody, request: Request):
        """Take a free seat from the lobby: a human seat whose link nobody has used yet.
        Its link is handed out once; the seat is joined from then on."""
        s = await M(request).get(game_id)
        if s.game.is_over:
            raise Refused(409, "the game is over")
        if not 0 <= body.seat < len(s.seats):
            raise Refused(422, f"no seat {body.seat}: the game has seats 0 to {len(s.seats) - 1}")
        seat = s.seats[body.seat]
        if seat["kind"] != "human":
            raise Refused(422, f"seat {body.seat} is played by a bot")
        if seat.get("joined"):
            raise Refused(409, f"seat {body.seat} is already taken")
        await s.join(body.seat)
        return {"game_id": game_id, "seat": body.seat, "name": seat.get("name"),
                "token": seat["token"], "url": f"/game/{game_id}?token={seat['token']}"}

    @app.get("/api/bots")
    async def list_bots():
        """The bot kinds a seat may have (besides "human")."""
        from ..agents import agent_names
        return {"bots": agent_names()}

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
        s = await M(request).get(game_id)
        seat = s.seat_of(body.token)
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
            seat = s.seat_of(token)
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
                text = await ws.receive_text()
                try:
                    msg = json.loads(text)
                except ValueError:
                    conn.error(422, "malformed message: not JSON")
                    continue
                if not isinstance(msg, dict):
                    conn.error(422, "malformed message: expected a JSON object")
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
                        await s.act(seat, msg["version"], msg["action"])
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

    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
    return app


PLACEHOLDER = """<!doctype html><html><head><meta charset="utf-8"><title>Cyclades</title></head>
<body><h1>Cyclades</h1><p>The web client ({name}) is not installed yet; the API is at
<a href="/docs">/docs</a>.</p></body></html>"""
