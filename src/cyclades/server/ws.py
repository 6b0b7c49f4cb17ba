"""A game's WebSocket, `/ws/games/{id}?token=...` (docs/api.md): the state whenever the game
changes, and the seat's decisions.

Client messages: `{"type": "action", "version": N, "action": {...}}`, `{"type": "state"}` (send
the state again) and `{"type": "ping"}`. A malformed or refused message is answered with
`{"type": "error", "status", "message"}` and the connection goes on (security.py reads each
message: its size, binary frames, JSON depth). An unknown game or a wrong token is answered so,
then the connection is closed with code 4000 + the status.
"""
from __future__ import annotations

import asyncio

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from .errors import Refused
from .security import REFUSED, receive_message
from .sessions import Connection, manager_of

router = APIRouter()


@router.websocket("/ws/games/{game_id}")
async def ws_game(ws: WebSocket, game_id: str, token: str | None = None):
    await ws.accept()
    try:
        s = await manager_of(ws).get(game_id)
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
            if msg is not REFUSED:
                await _answer(conn, msg)
    except WebSocketDisconnect:
        pass
    finally:
        s.conns.discard(conn)
        writer.cancel()


async def _answer(conn: Connection, msg: dict):
    """One client message (a JSON object)."""
    kind = msg.get("type")
    if kind == "ping":
        conn.queue.put_nowait({"type": "pong"})
    elif kind == "state":
        conn.notify()
    elif kind == "action":
        if set(msg) - {"type", "version", "action"} or "version" not in msg or "action" not in msg:
            conn.error(422, "malformed message: an action message is "
                            '{"type": "action", "version": N, "action": {...}}')
            return
        try:
            # conn.seat: None once the host gave the seat away
            await conn.session.act(conn.seat, msg["version"], msg["action"])
        except Refused as e:
            conn.error(e.status, e.message)
    else:
        conn.error(422, f"malformed message: unknown type {kind!r}")
