"""Live games: the engine objects, their seats, bots, logs and connections.

One `Session` per game. Every change goes through `Session.commit`, under the
game's lock: the decision is applied to a copy of the game, stored (committed)
in the database, and only then does the copy become the game and the change
get acknowledged and broadcast. A refused or failed decision changes nothing.

Bots play in a task per game: a short delay (so that people can follow), the
agent's choice computed in a worker thread, then the same `commit`. A game
whose seats are all bots plays to its end by itself; other games go on
meanwhile.
"""
from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor

from ..engine.actions import Action
from ..engine.game import Game, IllegalAction
from .store import DuplicateDecision, Store

log = logging.getLogger("cyclades.server")

LOG_TAIL = 200  # log lines sent with a full state


class Refused(Exception):
    """A request refused with an HTTP-like status and a clear message; nothing changed."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def _narrator(game, names):
    try:
        from ..engine.log import Narrator
        return Narrator(game, names=names)
    except Exception:  # pragma: no cover - the log module is optional
        return None


class Session:
    """One live game."""

    def __init__(self, manager: "Manager", game_id: str, game: Game, seats: list, created: float,
                 settings: dict | None = None):
        self.m = manager
        self.settings = settings or {}
        self.game_id = game_id
        self.game = game
        self.seats = seats            # [{"kind": "human"|bot name, "name", "token", "joined"}]
        self.created = created
        self.lock = asyncio.Lock()
        self.log: list = []           # every log line of the game, in order
        self.decisions = 0            # decisions applied (and stored) so far
        self.conns: set = set()
        self.bot_task = None
        self.agents = {}
        names = [s.get("name") or f"Player {i + 1}" for i, s in enumerate(seats)]
        self.narrator = _narrator(game, names)
        self.names = names
        self._views = {}              # seat -> view of the current version

    @property
    def bot_delay(self) -> float:
        d = self.settings.get("bot_delay")
        return self.m.bot_delay if d is None else d

    # --- seats -------------------------------------------------------------------

    def seat_of(self, token):
        """The seat of a token; None for no token (a spectator); Refused for a wrong one."""
        if token is None or token == "":
            return None
        for i, s in enumerate(self.seats):
            if s.get("token") and secrets.compare_digest(str(s["token"]), str(token)):
                return i
        raise Refused(403, "this token is not a seat of this game")

    def is_bot(self, seat) -> bool:
        return seat is not None and self.seats[seat]["kind"] != "human"

    @property
    def status(self) -> str:
        if self.game.is_over:
            return "over"
        if any(s["kind"] == "human" and not s.get("joined") for s in self.seats):
            return "waiting"
        return "playing"

    def public_seats(self) -> list:
        return [{"seat": i, "kind": s["kind"], "name": s.get("name"),
                 "joined": bool(s.get("joined")) or s["kind"] != "human"}
                for i, s in enumerate(self.seats)]

    async def join(self, seat):
        """Mark a human seat joined (its secret link was used)."""
        if seat is None or self.seats[seat].get("joined"):
            return
        self.seats[seat]["joined"] = True  # set before any await: a seat is handed out once
        await self.m.db(self.m.store.update_game, self.game_id, seats=self.seats, status=self.status)

    # --- the log -------------------------------------------------------------------

    def narrate(self, game, events) -> list:
        if self.narrator is not None:
            self.narrator.game = game
            try:
                return self.narrator.lines(events)
            except Exception:  # never let the log stop a game
                log.exception("narrating events failed")
        return [f"{e.get('type', 'event')}" for e in events if isinstance(e, dict)]

    # --- what a seat sees ----------------------------------------------------------------

    def state(self, seat, log_lines) -> dict:
        g = self.game
        view = self._views.get(seat)
        if view is None or view["version"] != g.s.version:
            view = self._views[seat] = g.view(seat)
        legal = view.get("legal_actions", []) if seat is not None and seat == g.to_move else []
        return {"game_id": self.game_id, "seat": seat, "version": view["version"], "view": view,
                "legal_actions": legal, "log": log_lines, "seats": self.public_seats(),
                "status": self.status}

    # --- changing the game -----------------------------------------------------------------

    def check(self, seat, version, action) -> Action:
        """Refuse, changing nothing, anything but the current seat's legal action
        at the current version."""
        g = self.game
        if g.is_over:
            raise Refused(409, "the game is over")
        if seat is None:
            raise Refused(403, "a spectator cannot act: use a seat's token")
        if isinstance(version, bool) or not isinstance(version, int):
            raise Refused(422, "'version' must be an integer")
        if version != g.s.version:
            raise Refused(409, f"stale version {version}: the game is at version {g.s.version}")
        if seat != g.to_move:
            raise Refused(403, f"it is not your turn: the game waits on seat {g.to_move} "
                               f"({self.names[g.to_move]}), you are seat {seat}")
        try:
            a = action if isinstance(action, Action) else Action.from_json(action)
        except ValueError as e:
            raise Refused(422, str(e))
        if a not in g.legal_actions():
            try:
                g.copy().apply(a)  # raises with the engine's reason
            except IllegalAction as e:
                raise Refused(422, f"illegal action: {e.reason}")
            raise AssertionError("an action outside the legal list was applied")
        return a

    async def act(self, seat, version, action) -> dict:
        """A seat's decision: checked, applied, stored, then acknowledged."""
        async with self.lock:
            a = self.check(seat, version, action)
            lines = await self.commit(a)
        self.kick_bots()
        return {"version": self.game.s.version, "events": lines}

    async def commit(self, a: Action) -> list:
        """Apply a legal action (caller holds the lock): on a copy, store, then swap."""
        g = self.game
        idx = self.decisions
        new = g.copy()
        events = new.apply(a)
        summary = {"version": new.s.version, "cycle": new.s.cycle, "to_move": new.to_move,
                   "status": "over" if new.is_over else self.status}
        try:
            await self.m.db(self.m.store.add_decision, self.game_id, idx, a.to_json(), summary)
        except DuplicateDecision:
            # Another server process wrote this game: ours is out of date.
            raise Refused(409, f"decision {idx} of this game is already stored: reload the game")
        except Exception as e:
            log.exception("storing a decision of game %s failed", self.game_id)
            raise Refused(503, f"the decision could not be stored ({type(e).__name__}); "
                               f"nothing changed, try again")
        self.game = new
        self.decisions += 1
        lines = self.narrate(new, events)
        self.log.extend(lines)
        self.broadcast()
        return lines

    # --- bots --------------------------------------------------------------------------

    def kick_bots(self):
        """Start the bot task if a bot is to move and none is running."""
        g = self.game
        if g.is_over or not self.is_bot(g.to_move) or self.m.closing:
            return
        if self.bot_task is None or self.bot_task.done():
            self.bot_task = asyncio.get_running_loop().create_task(self._bots())

    def agent(self, seat):
        if seat not in self.agents:
            from ..agents import make_agent
            # Seeded from the game's secret seed: a game replays the same from the same
            # stored decisions, and a test's all-bot game is the same every time.
            key = f"{self.game.options.get('seed')}:{seat}:{self.decisions}".encode()
            seed = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
            self.agents[seat] = make_agent(self.seats[seat]["kind"], seed=seed)
        return self.agents[seat]

    async def _bots(self):
        loop = asyncio.get_running_loop()
        try:
            while not self.m.closing:
                g = self.game
                seat = g.to_move
                if g.is_over or not self.is_bot(seat):
                    return
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                else:
                    await asyncio.sleep(0)  # let other games and requests run
                async with self.lock:
                    g = self.game
                    if g.is_over or g.to_move != seat:
                        continue
                    agent = self.agent(seat)
                    a = await loop.run_in_executor(self.m.cpu, agent.act, g.copy(), seat)
                    await self.commit(a)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot of game %s failed", self.game_id)

    # --- connections --------------------------------------------------------------------

    def broadcast(self):
        for c in list(self.conns):
            c.notify()


class Connection:
    """One websocket: a writer task sends the latest state (with the log lines it
    has not sent yet) whenever the game changed, so a slow client never holds a game
    back and never misses a line."""

    def __init__(self, session: Session, ws, seat):
        self.session = session
        self.ws = ws
        self.seat = seat
        self.sent = max(0, len(session.log) - LOG_TAIL)
        self.queue: asyncio.Queue = asyncio.Queue()
        self.pending = False

    def notify(self):
        if not self.pending:
            self.pending = True
            self.queue.put_nowait(None)

    def error(self, status, message):
        self.queue.put_nowait({"type": "error", "status": status, "message": message})

    async def writer(self):
        try:
            await self._write()
        except asyncio.CancelledError:
            raise
        except Exception:  # the client went away: the reader sees it and cleans up
            pass

    async def _write(self):
        while True:
            item = await self.queue.get()
            if item is None:
                self.pending = False
                s = self.session
                lines = s.log[self.sent:]
                self.sent = len(s.log)
                msg = {"type": "state", **s.state(self.seat, lines)}
            else:
                msg = item
            await self.ws.send_json(msg)


class Manager:
    """All live games, the store, and the worker threads."""

    def __init__(self, store: Store, bot_delay: float = 0.3):
        self.store = store
        self.bot_delay = bot_delay
        self.sessions: dict = {}
        self.cpu = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cyclades-bots")
        self.dbpool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cyclades-db")
        self.closing = False

    async def db(self, fn, *args, **kwargs):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.dbpool, lambda: fn(*args, **kwargs))

    # --- lifecycle ---------------------------------------------------------------------

    async def start(self):
        """Reload every unfinished game by replaying its decisions; restart its bots."""
        ids = await self.db(self.store.game_ids, True)
        for gid in ids:
            try:
                s = await self.load(gid)
            except Exception:
                log.exception("game %s could not be reloaded", gid)
                continue
            if s is not None:
                s.kick_bots()
        log.info("reloaded %d unfinished games", len(ids))

    async def stop(self):
        self.closing = True
        for s in self.sessions.values():
            if s.bot_task is not None:
                s.bot_task.cancel()
        for s in self.sessions.values():
            if s.bot_task is not None:
                try:
                    await s.bot_task
                except BaseException:
                    pass
        self.cpu.shutdown(wait=True)
        self.dbpool.shutdown(wait=True)
        self.store.close()

    async def load(self, game_id: str) -> Session | None:
        data = await self.db(self.store.load, game_id)
        if data is None:
            return None
        record = {"format": 1, "options": data["options"], "actions": data["actions"]}
        loop = asyncio.get_running_loop()
        try:
            session = await loop.run_in_executor(self.cpu, replay, self, game_id, record, data)
        except Exception as e:
            log.exception("game %s could not be replayed", game_id)
            raise Refused(500, f"game {game_id} could not be replayed by this engine "
                               f"({type(e).__name__}: {e})")
        # Another request may have loaded it meanwhile: keep the first.
        return self.sessions.setdefault(game_id, session)

    async def get(self, game_id: str) -> Session:
        s = self.sessions.get(game_id)
        if s is None:
            s = await self.load(game_id)
        if s is None:
            raise Refused(404, f"no game {game_id!r}")
        return s

    async def create(self, options: dict, seats: list, settings: dict | None = None) -> Session:
        """A new game; `options` as for `cyclades.new_game`, seats [{"kind", "name"}]."""
        opts = dict(options)
        if opts.get("seed") is None:
            opts["seed"] = secrets.randbits(63)
        loop = asyncio.get_running_loop()
        try:
            game = await loop.run_in_executor(self.cpu, lambda: Game.new(**opts))
        except (ValueError, KeyError) as e:
            raise Refused(422, str(e))
        seats = [{"kind": s["kind"], "name": s.get("name"),
                  "token": secrets.token_urlsafe(24) if s["kind"] == "human" else None,
                  "joined": s["kind"] != "human"} for s in seats]
        game_id = secrets.token_urlsafe(9)
        session = Session(self, game_id, game, seats, time.time(), settings)
        await self.db(self.store.create_game, game_id, game.options, seats, session.status,
                      game.s.version, game.to_move, session.settings)
        self.sessions[game_id] = session
        session.kick_bots()
        return session


def replay(manager, game_id, record, data) -> Session:
    """Rebuild a session from its stored record: the game by replaying every decision
    (the same as `Game.from_record`), and the log by narrating each decision's events."""
    game = Game.from_record(record, upto=0)
    session = Session(manager, game_id, game, data["seats"], data["created"], data.get("settings"))
    for a in record["actions"]:
        events = game.apply(Action.from_json(a))
        session.log.extend(session.narrate(game, events))
        session.decisions += 1
    session.game = game
    return session
