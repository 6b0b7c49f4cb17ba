"""The transport: how a game's pages are told that it changed (its WebSockets, ws.py).

A session (sessions.py) owns one `Pages` and calls `tell` after every change it made; it knows
nothing of sockets. Each page is a `Connection` with a writer task that sends the latest state
when it can, so a slow client never holds a game back; the state message a seat's pages get is
made once per change (`Pages.text`) however many pages watch.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Protocol

from . import clocks as timing

log = logging.getLogger("cyclades.server")

LOG_TAIL = 200  # log lines sent with a full state


class Watched(Protocol):
    """What a page is sent of its game (sessions.Session): the log, the decisions' table (the
    moves to animate), the count of undos, the clocks, and the state message of a seat."""
    game_id: str
    log: list
    decisions: int
    undos: int
    table: Any
    clocks: dict | None
    pages: Pages

    def state_text(self, seat, log_lines) -> str: ...

    def lines(self) -> list: ...


class Pages:
    """The open pages of one game, and the state messages made for them since it last changed."""

    def __init__(self):
        self.conns: set = set()
        self.texts: dict = {}         # the WebSocket's state messages since the last change

    def __iter__(self):
        return iter(list(self.conns))

    def __len__(self) -> int:
        return len(self.conns)

    def add(self, conn) -> None:
        self.conns.add(conn)

    def discard(self, conn) -> None:
        self.conns.discard(conn)

    def text(self, key, make) -> str:
        """The message `key` (made by `make()` the first time it is asked for since the last
        change)."""
        text = self.texts.get(key)
        if text is None:
            text = self.texts[key] = make()
        return text

    def forget(self) -> None:
        """The game or its seats changed: the state messages made so far are stale."""
        self.texts.clear()

    def tell(self) -> None:
        """The game changed: every page gets the latest state (when its writer can send it)."""
        self.forget()
        for c in list(self.conns):
            c.notify()

    def error(self, status: int, message: str, seat=None) -> None:
        """An error message to every page (`seat`: only the pages of that seat)."""
        for c in list(self.conns):
            if seat is None or c.seat == seat:
                c.error(status, message)


class Connection:
    """One websocket: a writer task sends the latest state (with the log lines it
    has not sent yet, and the events of the decisions since the last state it sent, for the
    page to animate) whenever the game changed, so a slow client never holds a game back and
    never misses a line. Its queue is bounded (`QUEUE`): a client that does not read what it
    is sent (its queue full) is dropped, never buffered without end."""

    QUEUE = 32   # messages waiting to be sent to one client; a state counts once however often

    def __init__(self, session: Watched, ws, seat, token=None):
        self.session = session
        self.ws = ws
        self.seat = seat
        self.token = token            # the seat's token (acts are checked with it, ws.py)
        self.sent = max(0, len(session.log) - LOG_TAIL)
        self.seen = None              # decisions the page had seen at the last state sent
        self.undos = session.undos
        self.queue: asyncio.Queue = asyncio.Queue(self.QUEUE)
        self.pending = False
        self.dropped = False

    def send(self, item):
        """Queue a message (None: the latest state); a full queue drops the client."""
        try:
            self.queue.put_nowait(item)
        except asyncio.QueueFull:
            self.drop()

    def drop(self):
        """Stop serving a client that does not read: its writer ends, the reader closes."""
        if not self.dropped:
            self.dropped = True
            log.warning("a WebSocket client of game %s that does not read what it is sent was "
                        "dropped", self.session.game_id)
            self.session.pages.discard(self)
            asyncio.get_running_loop().create_task(self._close())

    async def _close(self):
        with contextlib.suppress(Exception):
            await self.ws.close(code=1008, reason="too slow: messages were not read")

    def notify(self):
        if not self.pending:
            self.pending = True
            self.send(None)

    def error(self, status, message):
        self.send({"type": "error", "status": status, "message": message})

    async def writer(self):
        try:
            await self._write()
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away: the reader sees it and cleans up
            pass

    def message(self) -> str:
        """The state message for this page: the state every page of its seat gets
        (Session.state_text), with this page's own additions: the moves since the last state
        it was sent, and whether the log starts again (decisions were taken back)."""
        s = self.session
        reset = self.undos != s.undos
        if reset:  # decisions were taken back: the log starts again from its tail
            self.sent = max(0, len(s.log) - LOG_TAIL)
            self.undos = s.undos
        lines = s.lines()[self.sent:]  # in the reader's language
        self.sent = len(s.log)
        moves = None if self.seen is None or reset else s.table.moves_after(self.seen, s.lines())
        self.seen = s.decisions
        text = s.state_text(self.seat, lines)
        extra = {"log_reset": True} if reset else {}
        if s.clocks is not None:  # the shared text's clock.now is as old as the text: now is now
            extra["now"] = timing.now()
        if moves:
            extra["moves"] = moves
        if extra:  # spliced into the shared text's object: `{...}` + `,"moves":...}`
            text = text[:-1] + "," + json.dumps(extra, separators=(",", ":"), ensure_ascii=False)[1:]
        return text

    async def _write(self):
        while True:
            item = await self.queue.get()
            if item is None:
                self.pending = False
                await self.ws.send_text(self.message())
            else:
                await self.ws.send_json(item)
