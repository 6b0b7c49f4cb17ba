"""Who is at a game's table: a seat's player is there while a WebSocket of theirs is open, in
any server process, or while they used their seat's link (any request with its token) in the
last `LEFT_AFTER` seconds. The host may give away a joined seat only once its player has left
(docs/api.md, `POST /api/games/{id}/seats/{seat}`; sessions.Session.set_seat).

Each process writes when it saw a seat's player, at most every `REFRESH` seconds per seat
(table `presence`: game, seat, seen), for the requests it answers and for the WebSockets it
holds (the processes' heartbeat calls `refresh`); a process that dies stops writing, so its
players count as gone `LEFT_AFTER` seconds later.

    manager.presence.saw(session, seat)              # a request used the seat's token
    await manager.presence.at_table(session, seat)   # is its player there?
"""
from __future__ import annotations

import asyncio
import logging
import os
import time

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError

from .store import presence

log = logging.getLogger("cyclades.server")

LEFT_AFTER = float(os.environ.get("CYCLADES_SEAT_LEFT_SECONDS", "60"))  # gone after this long unseen
REFRESH = max(0.2, LEFT_AFTER / 4)                                       # how often "seen" is written


# --- the database side (run in the Manager's database thread) -------------------------------

def store_seen(store, game_id: str, seat: int, seen: float) -> None:
    with store.engine.begin() as c:
        if c.execute(presence.update().where(presence.c.game_id == game_id, presence.c.seat == seat)
                     .values(seen=seen)).rowcount:
            return
    try:
        with store.engine.begin() as c:
            c.execute(presence.insert().values(game_id=game_id, seat=seat, seen=seen))
    except IntegrityError:  # another process inserted it meanwhile: it is there now
        store_seen(store, game_id, seat, seen)


def last_seen(store, game_id: str, seat: int) -> float | None:
    with store.engine.connect() as c:
        return c.execute(sa.select(presence.c.seen).where(presence.c.game_id == game_id,
                                                          presence.c.seat == seat)).scalar()


# --- this process ------------------------------------------------------------------------------

class Presence:
    def __init__(self, manager):
        self.m = manager
        self.written: dict = {}    # (game_id, seat) -> when this process last wrote it
        self.tasks: set = set()

    def saw(self, s, seat) -> None:
        """The seat's player is there now (written in the background, at most every REFRESH s)."""
        if seat is None:
            return
        key, now = (s.game_id, seat), time.time()
        if now - self.written.get(key, 0.0) < REFRESH:
            return
        self.written[key] = now
        task = asyncio.get_running_loop().create_task(self._write(key, now))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _write(self, key, now):
        try:
            await self.m.db(store_seen, self.m.store, key[0], key[1], now)
        except Exception as e:  # the database is down: written again at the next refresh
            self.written.pop(key, None)
            log.debug("could not write that seat %s of game %s is at the table: %s", key[1], key[0], e)

    def refresh(self) -> None:
        """Every open WebSocket's player is there (the heartbeat calls it)."""
        for s in list(self.m.sessions.values()):
            for c in s.pages:
                self.saw(s, c.seat)
        if len(self.written) > 10_000:  # forget what is long past
            old = time.time() - 2 * LEFT_AFTER
            self.written = {k: t for k, t in self.written.items() if t > old}

    async def at_table(self, s, seat) -> bool:
        """Whether the seat's player is connected here or was seen by any process lately."""
        if any(c.seat == seat for c in s.pages):
            return True
        seen = await self.m.db(last_seen, self.m.store, s.game_id, seat)
        return seen is not None and time.time() - seen < LEFT_AFTER
