"""Several server processes on one database: the database is the truth.

Any number of `cyclades serve` processes (`--workers N` on one host, or several hosts behind a
load balancer, docs/deploy.md) may serve the same games. Each keeps the games it was asked for
in memory (sessions.Session) and finds out when another process changed one:

- PostgreSQL: every stored change sends `NOTIFY cyclades_games, 'game_id version owner'` in its
  own transaction (store.py); each process LISTENs on a psycopg async connection of its own
  (`listen`) and catches up the games it holds.
- SQLite (one host, WAL mode): each process polls, every `POLL` seconds, the version and last
  change of the games it holds with someone connected (`poll`), while another process is alive.

A process that finds itself behind catches up (`catch_up`): it reads the decisions it has not
applied (and the seats) from the database and applies them, so a game is never replayed from
its start. It finds out:
- when told (above);
- when a decision names a version newer than its own (`Session.act`);
- when storing a decision collides with one already stored (the primary key (game_id, idx)
  refuses a second decision `idx`: `store.DuplicateDecision`): it catches up and re-checks the
  request against the fresh game (a stale version gets the usual 409 with the fresh version);
- when a request reads a game while other processes are alive (`Manager.get`): one indexed
  read, skipped when the process is alone;
- when a token is not one of its seats (the seat may have been taken in another process).

Undo (Session.take_back) deletes the decisions taken back and counts it in games.undos; a
decision is stored only if that count is still the one its process knows (store.add_decision),
and a process that finds another count replays the game from the stored decisions.

Seats change by compare-and-set (`change_seats`): a change is stored only if the stored seats
are still the ones it started from; otherwise the process reloads them and tries again, so an
open seat is handed out once across processes.

Bots: the process that stored a game's last decision is its `driver` (games.driver) and plays
its bots; no other process does. Processes beat every second or so in the `servers` table;
a process whose beat is older than `--peer-ttl` seconds (default 10), or that stopped (its row
is removed), or that ran on this host and is gone (its pid), is dead, and the others adopt its
unfinished games (`adopt`: a compare-and-set on games.driver, so one process wins each game).
The adopter resumes the games a bot is to move, oldest-waiting first, a few at a time. A process
cut off from the database (an outage) does not take the others for dead when it comes back:
they could not beat either (a beat counts from its own last one). Every `BOT_SWEEP` seconds each
process also starts a bot task for any game it drives that waits on a bot with none (the net
under the bot tasks, which retry what fails: sessions.Session._bots). Should
two processes ever both play a bot's turn (a process slow to beat, or a seat given to a bot
through another process), the primary key refuses the second decision and its process catches
up and stops its bot task: no decision is ever stored twice.

Restart: the server answers at once. Games are loaded when first asked for; the adoption of
the previous process's games (dead by its pid, or after its beat is stale) resumes the
bot-driven ones in the background.
"""
from __future__ import annotations

import asyncio
import copy
import json
import logging
import os
import secrets
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import sqlalchemy as sa

from ..content.i18n import N_, _
from ..engine.game import Game
from .errors import Refused, database_down
from .seats import seat_factions
from .store import NOTIFY_CHANNEL, games, servers
from .table import replay
from .tasks import stop_tasks

log = logging.getLogger("cyclades.server")

POLL = float(os.environ.get("CYCLADES_POLL_SECONDS", "0.5"))    # SQLite: how often to look
PEER_TTL = float(os.environ.get("CYCLADES_PEER_TTL", "10"))     # a silent process is dead after
RESUME_CONCURRENCY = 2                                          # games loaded at once on adoption
CATCH_UP_INLINE = 16  # more decisions than this are applied in a worker thread
BOT_SWEEP = float(os.environ.get("CYCLADES_BOT_SWEEP_SECONDS", "5"))  # how often bots are looked at


# --- the database side (run in the Sync's own thread) ------------------------------------------

def _beat(store, owner: str, host: str, pid: int, started: float, ttl: float,
          last: float | None = None) -> set:
    """Record that this process lives; the owners of the processes that live. `last`: when
    this process last beat. If that is long ago (the database did not answer), the others
    could not beat either: a process counts as alive if it beat within `ttl` of our last
    beat, not only of now (else all would take all the others for dead after an outage)."""
    now = time.time()
    cutoff = (now if last is None else min(now, last)) - ttl
    with store.engine.begin() as c:
        n = c.execute(servers.update().where(servers.c.owner == owner).values(beat=now)).rowcount
        if not n:
            c.execute(servers.insert().values(owner=owner, host=host, pid=pid, started=started, beat=now))
        rows = c.execute(sa.select(servers.c.owner, servers.c.host, servers.c.pid, servers.c.beat)).all()
        dead_long = [r.owner for r in rows if r.beat < now - 86400]
        if dead_long:
            c.execute(servers.delete().where(servers.c.owner.in_(dead_long)))
    alive = {owner}
    for r in rows:
        if r.owner == owner or r.beat < cutoff:
            continue
        if r.host == host and not _pid_alive(r.pid):
            continue  # killed on this host: no need to wait for its beat to go stale
        alive.add(r.owner)
    return alive


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _leave(store, owner: str) -> None:
    with store.engine.begin() as c:
        c.execute(servers.delete().where(servers.c.owner == owner))


def _adopt(store, owner: str, alive: set) -> list:
    """Take over the unfinished games whose driver is not alive (or never was): the games
    adopted, oldest change first, as (game_id, options, seats, to_move)."""
    orphan = sa.and_(games.c.status != "over",
                     sa.or_(games.c.driver.is_(None), games.c.driver.not_in(sorted(alive))))
    with store.engine.connect() as c:
        if not c.execute(sa.select(sa.func.count()).select_from(games).where(orphan)).scalar():
            return []
    with store.engine.begin() as c:
        ids = [r[0] for r in c.execute(games.update().where(orphan).values(driver=owner)
                                       .returning(games.c.game_id))]
    out = []
    with store.engine.connect() as c:
        for i in range(0, len(ids), 500):
            out += c.execute(sa.select(games.c.game_id, games.c.options, games.c.seats,
                                       games.c.to_move, games.c.updated)
                             .where(games.c.game_id.in_(ids[i:i + 500]))).all()
    out.sort(key=lambda r: r.updated)
    return [(r.game_id, json.loads(r.options), json.loads(r.seats), r.to_move) for r in out]


def _task_end(task) -> str:
    """How a bot task ended, for the log."""
    if task is None:
        return "none started in this process"
    if task.cancelled():
        return "its task was cancelled"
    e = task.exception()
    return f"its task failed: {type(e).__name__}: {e}" if e else "its task returned"


def _driven_by(store, owner: str) -> list:
    """The unfinished games this process drives, as (game_id, options, seats, to_move)."""
    with store.engine.connect() as c:
        rows = c.execute(sa.select(games.c.game_id, games.c.options, games.c.seats, games.c.to_move)
                         .where(games.c.status != "over", games.c.driver == owner,
                                games.c.to_move.is_not(None))).all()
    return [(r.game_id, json.loads(r.options), json.loads(r.seats), r.to_move) for r in rows]


def _versions(store, ids: list) -> dict:
    """{game_id: (version, updated)} of these games."""
    out = {}
    with store.engine.connect() as c:
        for i in range(0, len(ids), 500):
            for r in c.execute(sa.select(games.c.game_id, games.c.version, games.c.updated)
                               .where(games.c.game_id.in_(ids[i:i + 500]))):
                out[r.game_id] = (r.version, r.updated)
    return out


def bot_to_move(options: dict, seats: list, to_move) -> bool:
    if to_move is None:
        return False
    for i, fs in enumerate(seat_factions(len(seats), options.get("teams"))):
        if to_move in fs:
            return seats[i].get("kind") != "human"
    return False


# --- catching up ---------------------------------------------------------------------------

async def catch_up(s, locked: bool = False) -> bool:
    """Bring a session up to date with the database (decisions, seats, settings); whether
    anything changed. `locked`: the caller holds the session's lock. Refused(404) if the game
    is no longer stored."""
    start, seats = s.decisions, copy.deepcopy(s.seats)
    data = await s.storage.load_since(s.game_id, start)
    if data is None:
        _gone(s)
        raise Refused(404, N_("no game {game_id}"), game_id=repr(s.game_id))
    undos = s.undos
    if not locked:
        if not data["actions"] and data["seats"] == s.seats and data["settings"] == s.settings \
                and data["undos"] == undos and data["clocks"] == s.clocks:
            s.synced = data["updated"]
            return False
        async with s.lock:  # something changed: apply it under the lock
            if s.decisions == start and s.seats == seats and s.undos == undos:
                return await _catch_up(s, data)  # nothing changed here meanwhile
            return await catch_up(s, locked=True)  # read again
    return await _catch_up(s, data)


async def _catch_up(s, data) -> bool:
    changed = s.take_seats(data["seats"])
    changed = s.take_settings(data["settings"], data["clocks"]) or changed
    acts = data["actions"]
    if data["undos"] != s.undos:
        await _restart(s)  # decisions were taken back in another process
        changed = True
    elif acts:
        if len(acts) > CATCH_UP_INLINE:
            loop = asyncio.get_running_loop()
            game, done = await loop.run_in_executor(None, _apply, s, acts)
        else:
            game, done = _apply(s, acts)
        s.advance(game, done)
        changed = True
    s.synced = data["updated"]
    if changed:
        s.pages.tell()
    return changed


def _apply(s, acts):
    game = s.game.copy()
    return game, replay(game, acts, s.narrate)


async def _restart(s):
    """Replay the game from its stored record (decisions were taken back elsewhere)."""
    data = await s.storage.load(s.game_id)
    if data is None:
        _gone(s)
        raise Refused(404, N_("no game {game_id}"), game_id=repr(s.game_id))
    record = {"format": 1, "options": data["options"], "actions": data["actions"]}

    def build():
        game = Game.from_record(record, upto=0)
        return game, replay(game, record["actions"], s.narrate)
    game, done = await asyncio.get_running_loop().run_in_executor(None, build)
    s.take_seats(data["seats"])
    s.restart(game, done, data["undos"])
    s.take_settings(data["settings"], data["clocks"])


def _gone(s):
    """The game was removed (expired) by another process: forget it here too."""
    if s.m.sessions.get(s.game_id) is s:
        del s.m.sessions[s.game_id]
    s.stop_bots()
    s.pages.error(404, _("no game {game_id}: it was removed").format(game_id=repr(s.game_id)))


async def behind(s, old):
    """A decision collided with one another process stored (the caller holds the lock):
    catch up, then answer from the fresh game. A bot's task stops quietly (the process that
    stored the decision plays the bots now); a person's request is refused as stale."""
    await catch_up(s, locked=True)
    task = asyncio.current_task()
    log.warning("game %s: the decision at version %d was stored by another server process "
                "first; caught up to version %d", s.game_id, old.state.version,
                s.game.state.version)
    if task is not None and s.is_bot_task(task):
        task.cancel()  # delivered at the bot loop's next await
        return []
    raise Refused(409, N_("stale version {given}: the game is at version {current}"),
        given=old.state.version, current=s.game.state.version)


# --- seats -----------------------------------------------------------------------------------

def status_of(game, seats) -> str:
    if game.is_over:
        return "over"
    if any(x["kind"] == "human" and not x.get("joined") for x in seats):
        return "waiting"
    return "playing"


async def change_seats(s, mutate, locked: bool = False):
    """Change the seats: `mutate(seats)` changes a copy (or raises Refused) and returns what
    the caller wants back. Stored only if the stored seats are still those the copy was made
    from; otherwise reloaded and tried again. Nothing changes in memory before it is stored.
    `locked`: the caller holds the session's lock (so catching up must not take it)."""
    for _attempt in range(8):
        old = copy.deepcopy(s.seats)
        new = copy.deepcopy(s.seats)
        result = mutate(new)
        if await s.storage.replace_seats(s.game_id, old, new, status_of(s.game, new)):
            s.take_seats(new)
            # `result` may be a seat of the copy: hand back the session's own.
            if isinstance(result, dict) and result in new:
                result = s.seats[new.index(result)]
            return result
        await catch_up(s, locked=locked)  # another process changed them: start again from the stored seats
    raise Refused(503, N_("the seats were changing too fast; try again"))


# --- the process's view of the others ----------------------------------------------------------

class Sync:
    """This process among the others on the database (see the module's text)."""

    def __init__(self, manager, ttl: float | None = None):
        self.m = manager
        self.store = manager.store
        self.host = socket.gethostname()
        self.pid = os.getpid()
        self.owner = f"{self.host}:{self.pid}:{secrets.token_hex(3)}"
        self.store.owner = self.owner
        self.ttl = PEER_TTL if ttl is None else ttl
        self.started = time.time()
        self.alive = {self.owner}
        self.last_beat: float | None = None   # when this process last beat (time.time())
        self.down = False                     # the database did not answer the last beat
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cyclades-sync")
        self.tasks: list = []
        self.refreshing: dict = {}    # game_id -> task catching it up
        self.again: set = set()       # game ids told of a change while being caught up
        self.listening = False
        self.adopted = 0
        self.resumed = 0

    @property
    def peers(self) -> int:
        """Other server processes alive on this database."""
        return len(self.alive) - 1

    async def q(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.pool, fn, *args)

    async def beat(self):
        """Beat, and learn which processes live (`_beat`)."""
        now = time.time()
        self.alive = await self.q(_beat, self.store, self.owner, self.host, self.pid, self.started,
                                  self.ttl, self.last_beat)
        self.last_beat = now

    async def start(self):
        await self.beat()
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._heartbeat()), loop.create_task(self._adopt_loop()),
                      loop.create_task(self._bot_sweep())]
        if self.store.pg:
            self.tasks.append(loop.create_task(self._listen()))
        else:
            self.tasks.append(loop.create_task(self._poll()))

    async def stop(self):
        for t in self.refreshing.values():
            t.cancel()
        await stop_tasks(self.tasks)
        try:
            await self.q(_leave, self.store, self.owner)  # the others adopt our games at once
        except Exception:
            log.exception("leaving the servers table failed")
        self.pool.shutdown(wait=True)

    # --- beating, adopting -------------------------------------------------------------

    async def _heartbeat(self):
        while not self.m.closing:
            await asyncio.sleep(max(0.2, min(1.0, self.ttl / 4)))
            self.m.presence.refresh()
            try:
                await self.beat()
                if self.down:
                    log.warning("the database answers again")
                self.down = False
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if not self.down:  # once per outage, not every second
                    log.warning("the database does not answer (%s): trying again every second",
                                type(e).__name__)
                self.down = True

    async def _adopt_loop(self):
        first = True
        while not self.m.closing:
            if not first:
                await asyncio.sleep(max(0.5, min(5.0, self.ttl / 2)))
            first = False
            try:
                await self.adopt()
            except asyncio.CancelledError:
                raise
            except sa.exc.DBAPIError as e:
                if not self.down:  # the heartbeat says when the database is down
                    log.warning("adopting the games of stopped server processes failed (%s); "
                                "again soon", type(e).__name__)
            except Exception:
                log.exception("adopting the games of stopped server processes failed")

    async def _bot_sweep(self):
        """Every BOT_SWEEP seconds: the games this process drives (games.driver) where a bot
        is to move and no bot task runs here get one (loaded if need be). Bot tasks retry what
        fails (sessions.Session._bots); this is the net under them: a task that ended while
        its game waits on a bot (a decision stored although its process heard of a failure,
        say) is started again, so no game waits forever."""
        while not self.m.closing:
            await asyncio.sleep(BOT_SWEEP)
            try:
                await self.sweep_bots()
            except asyncio.CancelledError:
                raise
            except sa.exc.DBAPIError as e:
                if not self.down:
                    log.warning("the bot sweep could not read the database (%s); again in %g s",
                                type(e).__name__, BOT_SWEEP)
            except Exception:
                log.exception("the bot sweep failed; again in %g s", BOT_SWEEP)

    async def sweep_bots(self) -> int:
        """Start the bot task of every game driven here that waits on a bot and has none; the
        number started."""
        rows = await self.q(_driven_by, self.store, self.owner)
        started = 0
        for gid, options, seats, to_move in rows:
            if self.m.closing or not bot_to_move(options, seats, to_move):
                continue
            s = self.m.sessions.get(gid)
            if s is not None and s.bots_running:
                continue
            try:
                if s is None:
                    s = await self.m.get(gid, fresh=False)
                else:
                    await catch_up(s)
            except Refused:
                continue  # removed meanwhile
            if not s.bots_running:
                before = _task_end(s.bot_task)
                s.kick_bots()
                if s.bots_running:
                    started += 1
                    log.warning("game %s waited on a bot with no bot task (%s): started again",
                                gid, before)
        return started

    async def adopt(self) -> int:
        """Adopt the games of dead processes; resume those a bot is to move (oldest-waiting
        first, RESUME_CONCURRENCY at a time). The number of games adopted."""
        rows = await self.q(_adopt, self.store, self.owner, set(self.alive))
        if not rows:
            return 0
        bots = [gid for gid, options, seats, to_move in rows if bot_to_move(options, seats, to_move)]
        self.adopted += len(rows)
        log.info("adopted %d games of stopped server processes; resuming the %d a bot is to move",
                 len(rows), len(bots))
        sem = asyncio.Semaphore(RESUME_CONCURRENCY)

        async def resume(gid):
            async with sem:
                if self.m.closing:
                    return
                try:
                    s = self.m.sessions.get(gid)
                    if s is not None:
                        await catch_up(s)
                    else:
                        s = await self.m.get(gid, fresh=False)
                    s.kick_bots()
                    self.resumed += 1
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("game %s could not be resumed", gid)
        await asyncio.gather(*(resume(g) for g in bots))
        return len(rows)

    # --- hearing of changes ------------------------------------------------------------------

    def poke(self, game_id: str, version: int = -1):
        """Another process changed this game (a decision: the version it made; -1: seats or
        settings): catch it up, if it is in memory here and not up to that version yet."""
        s = self.m.sessions.get(game_id)
        if s is None or (version >= 0 and s.game.state.version >= version):
            return
        t = self.refreshing.get(game_id)
        if t is not None and not t.done():
            self.again.add(game_id)
            return
        self.refreshing[game_id] = asyncio.get_running_loop().create_task(self._refresh(s))

    async def _refresh(self, s):
        try:
            while True:
                self.again.discard(s.game_id)
                try:
                    await catch_up(s)
                except Refused:
                    return  # removed
                except Exception as e:
                    if not database_down(e):
                        log.exception("catching up game %s failed", s.game_id)
                        return
                    await asyncio.sleep(1)  # the database is down: again once it answers
                    self.again.add(s.game_id)
                    continue
                if s.game_id not in self.again:
                    return
        finally:
            if self.refreshing.get(s.game_id) is asyncio.current_task():
                del self.refreshing[s.game_id]

    async def _listen(self):
        """PostgreSQL: LISTEN on a connection of our own; after (re)connecting, catch up
        every game held (notifications may have been missed meanwhile)."""
        import psycopg
        url = sa.engine.make_url(self.store.url).set(drivername="postgresql")
        conninfo = url.render_as_string(hide_password=False)
        delay = 0.5
        while not self.m.closing:
            try:
                conn = await psycopg.AsyncConnection.connect(conninfo, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    for gid in list(self.m.sessions):
                        self.poke(gid)
                    self.listening = True
                    delay = 0.5
                    async for n in conn.notifies():
                        gid, _, rest = n.payload.partition(" ")
                        version, _, owner = rest.partition(" ")
                        if owner != self.owner:
                            self.poke(gid, int(version) if version.lstrip("-").isdigit() else -1)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.listening = False
                log.warning("listening for changes on PostgreSQL failed (%s); again in %g s",
                            type(e).__name__, delay)
            await asyncio.sleep(delay)
            delay = min(2.0, delay * 2)

    async def _poll(self):
        """SQLite: while another process is alive, look at the games held here with someone
        connected; catch up those another process changed."""
        while not self.m.closing:
            await asyncio.sleep(POLL)
            if not self.peers:
                continue
            held = {gid: s for gid, s in list(self.m.sessions.items()) if s.pages}
            if not held:
                continue
            try:
                found = await self.q(_versions, self.store, list(held))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("polling the database for changes failed")
                continue
            for gid, s in held.items():
                v = found.get(gid)
                if v is None or v[0] != s.game.state.version or v[1] != getattr(s, "synced", None):
                    self.poke(gid)
