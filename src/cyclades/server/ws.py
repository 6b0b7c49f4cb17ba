"""A game's WebSocket, `/ws/games/{id}?token=...` (docs/api.md): the state whenever the game
changes, and the seat's decisions.

Client messages: `{"type": "action", "version": N, "action": {...}}`, `{"type": "state"}` (send
the state again) and `{"type": "ping"}`. A malformed or refused message is answered with
`{"type": "error", "status", "message"}` and the connection goes on (security.py reads each
message: its size, binary frames, JSON depth). An unknown game or a wrong token is answered so,
then the connection is closed with code 4000 + the status.

What one client may take (security.ServerLimits, per server process):
- `max_ws_per_address` connections from one address, `max_spectators` connections without a
  seat on one game: beyond, `429` and the connection is closed (4429);
- `ws_rate` messages: beyond, each message is refused with `429`, and a client that goes on
  (`FLOOD` refusals) is disconnected (1008);
- what it is sent waits in a bounded queue (transport.Connection): a client that does not read
  is disconnected (1008), never buffered without end.
"""
from __future__ import annotations

import asyncio
import itertools

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ..content.i18n import N_, _
from .errors import DATABASE_DOWN, Refused, database_down
from .security import REFUSED, Rate, client_key, receive_message
from .sessions import manager_of
from .transport import Connection

router = APIRouter()

FLOOD = 50   # messages refused for their rate, after which the client is disconnected


class Sockets:
    """This process's WebSockets per client address, and the message rate of each."""

    def __init__(self, limits):
        self.limits = limits
        self.rate = Rate(limits.ws_rate, N_("too many messages from your address: at most {n} per {per}; "
                                            "try again in {wait} s"))
        self.per_address: dict[str, int] = {}
        self.ids = itertools.count()

    def refuse(self, address: str) -> str | None:
        """Why another connection from this address is refused (None: welcome)."""
        most = self.limits.max_ws_per_address
        if most and self.per_address.get(address, 0) >= most:
            return f"too many connections from your address (at most {most}); close some tabs"
        return None

    def refuse_spectator(self, session) -> str | None:
        """Why another spectator of this game is refused (None: welcome)."""
        most = self.limits.max_spectators
        if most and sum(1 for c in session.pages if c.seat is None) >= most:
            return f"this game has as many spectators as it can take ({most}); try again later"
        return None



def sockets_of(ws) -> Sockets:
    st = ws.app.state
    if getattr(st, "sockets", None) is None:
        from .security import ServerLimits
        st.sockets = Sockets(getattr(st, "limits", None) or ServerLimits())
    return st.sockets


async def _refuse(ws: WebSocket, status: int, message: str):
    await ws.send_json({"type": "error", "status": status, "message": message})
    await ws.close(code=4000 + status)


@router.websocket("/ws/games/{game_id}")
async def ws_game(ws: WebSocket, game_id: str, token: str | None = None):
    socks = sockets_of(ws)
    address = client_key(ws.scope)
    await ws.accept()
    why = socks.refuse(address)
    if why:
        return await _refuse(ws, 429, why)
    try:
        s = await manager_of(ws).get(game_id)
        seat = await s.seat_for(token)
        await s.join(seat, token)
    except Refused as e:
        return await _refuse(ws, e.status, e.text())
    except Exception as e:
        if not database_down(e):
            raise
        return await _refuse(ws, 503, _(DATABASE_DOWN))
    if seat is None:
        why = socks.refuse_spectator(s)
        if why:
            return await _refuse(ws, 429, why)
    conn = Connection(s, ws, seat, token)
    key = f"ws{next(socks.ids)}"
    socks.per_address[address] = socks.per_address.get(address, 0) + 1
    s.pages.add(conn)
    writer = asyncio.get_running_loop().create_task(conn.writer())
    conn.notify()
    refused = 0
    try:
        while not conn.dropped:
            msg = await receive_message(ws, conn.error)  # security.py: size, binary, depth
            if not socks.rate.take(key):
                refused += 1
                if refused >= FLOOD:
                    await ws.close(code=1008, reason="too many messages")
                    break
                if refused == 1 or refused % 10 == 0:
                    conn.error(429, _("too many messages (at most {rate}): slow down").format(
                        rate=socks.limits.ws_rate))
                continue
            if msg is not REFUSED:
                await _answer(conn, msg)
    except WebSocketDisconnect:
        pass
    finally:
        s.pages.discard(conn)
        writer.cancel()
        left = socks.per_address.get(address, 1) - 1
        if left > 0:
            socks.per_address[address] = left
        else:
            socks.per_address.pop(address, None)


async def _answer(conn: Connection, msg: dict):
    """One client message (a JSON object)."""
    kind = msg.get("type")
    if kind == "ping":
        conn.send({"type": "pong"})
    elif kind == "state":
        conn.notify()
    elif kind == "action":
        if set(msg) - {"type", "version", "action"} or "version" not in msg or "action" not in msg:
            conn.error(422, _("malformed message: an action message is {form}").format(
                form='{"type": "action", "version": N, "action": {...}}'))
            return
        if conn.seat is None:  # a spectator, or the host gave the seat away
            conn.error(403, _("a spectator cannot act: use a seat's token"))
            return
        try:
            # Checked again under the game's lock with the token, against the stored seats.
            action = msg["action"]
            if isinstance(action, dict):  # an action as listed may come back with its words
                action = {k: v for k, v in action.items() if k != "text"}
            await conn.session.act(conn.token, msg["version"], action)
        except Refused as e:
            conn.error(e.status, e.text())
        except Exception as e:
            if not database_down(e):
                raise
            conn.error(503, _(DATABASE_DOWN))
    else:
        conn.error(422, _("malformed message: unknown type {kind}").format(kind=repr(kind)))
