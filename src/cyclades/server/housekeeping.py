"""Housekeeping of the game server: games leave memory when nobody uses them, and abandoned
games are removed.

Every `sweep_seconds` (security.ServerLimits):
- a live session (Manager.sessions) leaves memory when no WebSocket is open on it, no
  decision is being made (its lock is free, no bot is thinking, no bot is to move) and nobody
  asked for it (Manager.get) for `finished_idle_minutes` (a finished game) or `idle_minutes`
  (an unfinished one). `Manager.get` loads it back from the database on demand, by replaying
  its decisions, as after a restart;
- an unfinished game with no decision (nor seat change) for `expire_hours`, nobody connected
  and no clock running (a turn-based game's clock decides for a player out of time) is
  removed: its decisions and its row, so it leaves the lobby and the next restart does not
  replay it. Its links answer 404 ("no game").

    attach(app, limits)      # security.install calls it: runs beside the app's lifespan
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import sqlalchemy as sa

from .errors import database_down
from .logs import redact_logs
from .store import decisions, games, presence

log = logging.getLogger("cyclades.server")


# --- the database side (run in the Manager's database thread) ---------------------------------

def unfinished_among(store, ids: list) -> list:
    """Which of these games are stored and not over."""
    if not ids:
        return []
    with store.engine.connect() as c:
        rows = c.execute(sa.select(games.c.game_id)
                         .where(games.c.game_id.in_(list(ids)), games.c.status != "over")).all()
    return [r[0] for r in rows]


def stale_games(store, before: float) -> list:
    """Unfinished games whose last decision (or seat change) is older than `before`, and
    whose clock does not run (a turn-based game waits days for a decision, and its clock makes
    one when the time is up: server/clocks.py)."""
    with store.engine.connect() as c:
        rows = c.execute(sa.select(games.c.game_id)
                         .where(games.c.status != "over", games.c.updated < before,
                                games.c.deadline.is_(None))).all()
    return [r[0] for r in rows]


def remove_games(store, ids: list, before: float) -> list:
    """Delete these games (decisions first) if they are still unfinished and untouched since
    `before`; the ids removed."""
    if not ids:
        return []
    with store.engine.begin() as c:
        gone = [r[0] for r in c.execute(
            sa.select(games.c.game_id).where(games.c.game_id.in_(list(ids)), games.c.status != "over",
                                             games.c.updated < before, games.c.deadline.is_(None))).all()]
        if gone:
            c.execute(decisions.delete().where(decisions.c.game_id.in_(gone)))
            c.execute(presence.delete().where(presence.c.game_id.in_(gone)))
            c.execute(games.delete().where(games.c.game_id.in_(gone)))
    return gone


# --- the sessions in memory -------------------------------------------------------------------

def in_use(s) -> bool:
    """Someone is connected, or a decision is under way (a person's or a bot's)."""
    return bool(s.conns) or s.lock.locked() or (s.bot_task is not None and not s.bot_task.done())


def busy(s) -> bool:
    """A session that must stay in memory: in use, or a bot is to play it."""
    g = s.game
    return in_use(s) or (not g.is_over and s.is_bot(g.to_move))


def last_used(s, now: float) -> float:
    """When the session was last asked for (Manager.get), or first seen by the housekeeping."""
    t = getattr(s, "last_used", None)
    if t is None:
        s.last_used = t = now
    return t


def evict_idle(manager, limits, now: float | None = None) -> list:
    """Drop idle sessions from memory (they are all in the database); the ids dropped."""
    now = time.monotonic() if now is None else now
    out = []
    for gid, s in list(manager.sessions.items()):
        if busy(s):
            continue
        idle = now - last_used(s, now)
        keep = limits.finished_idle_minutes if s.game.is_over else limits.idle_minutes
        if idle >= keep * 60 and manager.sessions.get(gid) is s:
            del manager.sessions[gid]
            out.append(gid)
    return out


async def expire_abandoned(manager, limits, now: float | None = None) -> list:
    """Remove the unfinished games nobody decided in for `expire_hours`; the ids removed."""
    if not limits.expire_hours or limits.expire_hours <= 0:
        return []
    before = (time.time() if now is None else now) - limits.expire_hours * 3600
    ids = await manager.db(stale_games, manager.store, before)
    ids = [gid for gid in ids if not (gid in manager.sessions and in_use(manager.sessions[gid]))]
    gone = await manager.db(remove_games, manager.store, ids, before)
    for gid in gone:
        s = manager.sessions.pop(gid, None)
        if s is not None and s.bot_task is not None:
            s.bot_task.cancel()
    if gone:
        log.info("removed %d abandoned games (no decision for %g hours)", len(gone), limits.expire_hours)
    return gone


async def sweep(manager, limits, creation=None) -> dict:
    """One round of housekeeping (`creation`: security.CreationLimits, which forgets the
    finished games of its clients)."""
    expired = await expire_abandoned(manager, limits)
    if creation is not None:
        await creation.prune(manager)
    evicted = evict_idle(manager, limits)
    if evicted:
        log.info("%d idle games left memory (%d still in it)", len(evicted), len(manager.sessions))
    return {"expired": expired, "evicted": evicted}


async def run(manager, limits, creation=None):
    while not manager.closing:
        await asyncio.sleep(max(0.05, limits.sweep_seconds))
        try:
            await sweep(manager, limits, creation)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            if database_down(e):  # an outage, not a bug: no traceback
                log.warning("housekeeping could not reach the database (%s); it runs again in %g s",
                            type(e).__name__, limits.sweep_seconds)
            else:
                log.exception("housekeeping failed (it runs again in %g s)", limits.sweep_seconds)


def attach(app, limits):
    """Run the housekeeping while the app runs: inside its lifespan, after the Manager has
    started and until it stops."""
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app_):
        async with inner(app_) as state:
            redact_logs()  # the server's logging is set up by now
            manager = getattr(app_.state, "manager", None)
            creation = getattr(app_.state, "creation_limits", None)
            task = asyncio.get_running_loop().create_task(run(manager, limits, creation)) \
                if manager else None
            try:
                yield state
            finally:
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(BaseException):
                        await task
    app.router.lifespan_context = lifespan
