"""Live games: the engine objects, their seats, bots, logs and connections.

One `Session` per game. Every change goes through `Session.commit`, under the
game's lock: the decision is applied to a copy of the game, stored (committed)
in the database, and only then does the copy become the game and the change
get acknowledged and the pages told. A refused or failed decision changes nothing.
A person's decision names its seat by token, read under that lock, and is stored
only if the seats stored are those it was read against: a token the host revoked,
through any process, never acts.

Bots play in a task per game: a short delay (so that people can follow), the
agent's choice computed in a bot worker process, fairly scheduled across games
(server/bots.py), then the same `commit`. A game
whose seats are all bots plays to its end by itself; other games go on
meanwhile. A bot step that fails is tried again after a growing pause.

Several server processes may share the database (server/sync.py): a session that is behind
the database catches up with it (the decisions it missed, the seats), seats change by
compare-and-set, and only the process that stored a game's last decision plays its bots.

A session is given what its decisions pass through, each knowing nothing of the others:
the storage (storage.GameStorage: what it needs of the database), the transport
(transport.Pages: its WebSockets), the bot runner (bots.BotRunner, which sees the session
only as a bots.BotTable) and the listeners of its decisions (`Decided`: the end of a game,
notifications). A timed game's clocks (clocks.py) move inside `commit`, since they are stored
in the decision's own transaction.
"""
from __future__ import annotations

import asyncio
import copy
import hashlib
import json
import logging
import secrets
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..content.i18n import N_, _
from ..content.i18n import current as current_language
from ..engine import undo
from ..engine.actions import Action
from ..engine.game import Game, IllegalAction
from . import clocks as timing
from . import i18n
from .bots import PLAIN_AFTER, BotFailure, BotPool, BotRunner, retry_delay
from .errors import Refused, SeatsChanged
from .presence import Presence
from .seats import faction_names, public_seats, same_token, seat_access, seat_factions
from .storage import GameStorage
from .store import Changed, DuplicateDecision, Store
from .sync import behind, catch_up, change_seats
from .table import Played, Table, play
from .table import replay as replay_decisions
from .tasks import stop_tasks
from .transport import Pages

log = logging.getLogger("cyclades.server")
# What a client reads when a change could not be stored, by what the change was.
NOT_STORED = {"the decision": N_("the decision could not be stored ({kind}); nothing changed, try again"),
              "the undo": N_("the undo could not be stored ({kind}); nothing changed, try again")}


def _short(e: BaseException) -> str:
    """An exception in one line (a database that is down says so on every call: no traceback)."""
    text = str(e).strip().splitlines()
    return f"{type(e).__name__}: {text[0] if text else ''}"[:300]


def _narrator(game, names):
    try:
        from ..engine.log import Narrator
        return Narrator(game, names=names)
    except Exception:  # pragma: no cover - the log module is optional
        return None


class Session:
    """One live game. Its decisions take one path (`commit`: check, apply, store, tell the
    pages, then the listeners); what they pass through is given at construction
    (`Manager.session`). Other server processes' changes come in through `take_seats`,
    `take_settings`, `advance` and `restart` (sync.py)."""

    def __init__(self, manager: Manager, game_id: str, game: Game, seats: list, created: float,
                 settings: dict | None = None, *, storage: GameStorage, bot_runner: BotRunner,
                 listeners: list, pages: Pages | None = None):
        self.m = manager
        self.storage = storage
        self.bot_runner = bot_runner
        self.listeners = listeners
        self.settings = settings or {}
        self.game_id = game_id
        self.game = game
        self.seats = seats            # [{"kind": "human"|bot name, "name", "token", "joined", "access"}]
        self.created = created
        self.lock = asyncio.Lock()
        self.log: list = []           # every log line of the game, in order
        self.decisions = 0            # decisions applied (and stored) so far
        self.table = Table()          # each decision: who, its undo step, areas, events (table.py)
        self.undos = 0                # decisions taken back so far (store.py: games.undos)
        self.pages = pages if pages is not None else Pages()  # how its pages are told (transport.py)
        self.bot_task = None
        self.agents = {}
        # Seats are people; the engine's players are factions (2 players: two each, R22).
        self.factions_of = seat_factions(len(seats), game.teams)
        self.seat_of_faction = {f: i for i, fs in enumerate(self.factions_of) for f in fs}
        names = faction_names([s.get("name") or f"Player {i + 1}" for i, s in enumerate(seats)],
                              self.factions_of)
        self.narrator = _narrator(game, names)
        self.names = names            # per faction, as the log names them
        self.chronicle = i18n.Chronicle(names)  # the log in the reader's language (server/i18n.py)
        self._views = {}              # faction -> view of the current version
        self.clocks: dict | None = None  # a timed game's clocks (server/clocks.py), as stored

    @property
    def bot_delay(self) -> float:
        d = self.settings.get("bot_delay")
        return self.m.bot_delay if d is None else d

    # --- seats -------------------------------------------------------------------

    def seat_of(self, token):
        """The seat of a token; None for no token (a spectator); Refused for a wrong one."""
        if token is None or token == "":
            return None
        found = None
        for i, s in enumerate(self.seats):
            if s.get("token") and same_token(s["token"], token):
                found = i
        if found is None:
            raise Refused(403, N_("this token is not a seat of this game"))
        return found

    def seat_playing(self, faction):
        """The seat (person) that plays a faction."""
        return self.seat_of_faction.get(faction)

    def is_bot(self, faction) -> bool:
        """Whether a bot plays this faction (the engine's `to_move`)."""
        seat = self.seat_playing(faction)
        return seat is not None and self.seats[seat]["kind"] != "human"

    def is_host(self, token) -> bool:
        host = self.settings.get("host_token")
        return bool(host) and isinstance(token, str) and bool(token) and same_token(host, token)

    @property
    def status(self) -> str:
        if self.game.is_over:
            return "over"
        if any(s["kind"] == "human" and not s.get("joined") for s in self.seats):
            return "waiting"
        return "playing"

    def public_seats(self) -> list:
        return public_seats(self.seats, self.factions_of)

    async def join(self, seat, token):
        """The seat's secret link was used: the seat is marked joined (if the token is still
        its own: the host may have given it away meanwhile) and its player seen at the table."""
        if seat is None:
            return
        self.m.presence.saw(self, seat)
        if self.seats[seat].get("joined"):
            return

        def mark(seats):
            x = seats[seat]
            if x["kind"] == "human" and x.get("token") and same_token(x["token"], token):
                x["joined"] = True
        # Stored only if the stored seats are still these (server/sync.py: several processes).
        await change_seats(self, mark)

    async def take_open_seat(self, seat: int) -> str:
        """The first to join an open seat gets a fresh token, made now and never handed to
        anyone else; Refused for any other seat."""
        if self.game.is_over:
            raise Refused(409, N_("the game is over"))

        def take(seats):
            s = seats[seat]
            if s["kind"] != "human":
                raise Refused(422, N_("seat {seat} is played by a bot"), seat=seat)
            access = seat_access(s)
            if access != "open":
                raise Refused(403, N_("seat {seat} is kept for the player the host invited: only its invitation link "
                                      "plays it"), seat=seat)
            if s.get("joined") or s.get("token"):
                raise Refused(409, N_("seat {seat} is already taken"), seat=seat)
            s["token"] = secrets.token_urlsafe(24)
            s["joined"] = True
            return s["token"]
        # A compare-and-set on the stored seats: a seat is handed out once, across processes.
        token = await change_seats(self, take)
        self.pages.tell()
        return token

    async def set_seat(self, seat: int, kind: str, name: str | None = None) -> dict:
        """The host gives a human seat to a bot (`kind` a bot name), to anyone ("open"), or
        to a new invitation link ("invite"); the seat's old token stops working. Only a seat
        nobody joined yet, or whose player left (server/presence.py), or the host's own."""
        async with self.lock:
            if self.game.is_over:
                raise Refused(409, N_("the game is over"))
            x = self.seats[seat]
            if x["kind"] == "human" and x.get("joined") and seat_access(x) != "host" \
                    and await self.m.presence.at_table(self, seat):
                raise Refused(409, N_("seat {seat} is played by someone at the table: a seat can be given away before "
                                      "its player joins, or once they have left"), seat=seat)

            def give(seats):
                s = seats[seat]
                if s["kind"] != "human":
                    raise Refused(409, N_("seat {seat} is already played by a bot ({kind})"), seat=seat, kind=s['kind'])
                if kind in ("open", "invite"):
                    s.update(kind="human", access=kind, joined=False,
                             token=secrets.token_urlsafe(24) if kind == "invite" else None)
                else:
                    s.update(kind=kind, access=None, token=None, joined=True)
                if name:
                    s["name"] = name
                return s
            # Connections opened with the old token watch from now on, as spectators
            # (`take_seats`); a bot's agent is made afresh.
            s = await change_seats(self, give, locked=True)
            self.forget_agents(seat)
        self.pages.tell()
        self.kick_bots()
        return s

    async def seat_for(self, token):
        """`seat_of`, after reloading the seats from the database if the token is not one of
        them here and other server processes are alive (the seat may be new there)."""
        try:
            return self.seat_of(token)
        except Refused:
            if not (self.m.sync and self.m.sync.peers):
                raise
        await catch_up(self)
        return self.seat_of(token)

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

    def lines(self) -> list:
        """The log in the reader's language (the current one): `log`, told again if need be."""
        return self.chronicle.lines(self.log, self.game)

    def viewer(self, seat):
        """The faction whose view a seat gets: the one to move if it is one of the seat's,
        else its first (a 2-player seat's two factions share a purse, R22)."""
        if seat is None:
            return None
        fs = self.factions_of[seat]
        return self.game.to_move if self.game.to_move in fs else fs[0]

    def state(self, seat, log_lines) -> dict:
        g = self.game
        faction = self.viewer(seat)
        view = self._views.get(faction)
        if view is None or view["version"] != g.state.version:
            view = self._views[faction] = g.view(faction)
        legal = view.get("legal_actions", []) if faction is not None and faction == g.to_move else []
        legal, waiting = i18n.worded(g, legal, list(self.names), faction)  # the page's words
        out = {"game_id": self.game_id, "seat": seat,
               "factions": list(self.factions_of[seat]) if seat is not None else [],
               "version": view["version"], "view": view, "waiting": waiting,
               "legal_actions": legal, "log": log_lines, "seats": self.public_seats(),
               "names": list(self.names), "status": self.status,
               "log_total": len(self.log), "undos": self.undos,
               "last_moves": self.table.last_moves(g.state.n), "clock": timing.public(self.clocks)}
        if seat is not None:
            out["since"] = self.table.since(self.factions_of[seat])
            if legal and self.seats[seat]["kind"] == "human":
                lim = self.table.undo_limit(g.to_move)
                out["undo"] = {"steps": lim.steps, "reason": lim.reason,
                               "text": undo.reason_text(lim, self.names)}
        return out

    def state_text(self, seat, log_lines) -> str:
        """The WebSocket's state message as JSON text, made once for every connection that
        gets the same one (spectators, most of all) in the same language until the game changes
        (`Pages.tell`)."""
        key = (seat, len(self.log) - len(log_lines), len(self.log), current_language())
        return self.pages.text(key, lambda: json.dumps({"type": "state", **self.state(seat, log_lines)},
                                                        separators=(",", ":"), ensure_ascii=False))

    # --- changing the game -----------------------------------------------------------------

    def check_turn(self, seat, version) -> None:
        """Refuse anything but the current seat, a person, at the current version."""
        g = self.game
        if g.is_over:
            raise Refused(409, N_("the game is over"))
        if seat is None:
            raise Refused(403, N_("a spectator cannot act: use a seat's token"))
        if self.seats[seat]["kind"] != "human":
            raise Refused(403, N_("seat {seat} is played by a bot ({kind})"), seat=seat, kind=self.seats[seat]['kind'])
        if isinstance(version, bool) or not isinstance(version, int):
            raise Refused(422, N_("'version' must be an integer"))
        if version != g.state.version:
            raise Refused(409, N_("stale version {given}: the game is at version {current}"),
                given=version, current=g.state.version)
        if g.to_move not in self.factions_of[seat]:
            raise Refused(403, N_("it is not your turn: the game waits on {player} (seat {playing}), you are seat "
                                  "{seat}"),
                player=self.names[g.to_move], playing=self.seat_playing(g.to_move), seat=seat)

    def check(self, seat, version, action) -> Action:
        """Refuse, changing nothing, anything but the current seat's legal action
        at the current version."""
        self.check_turn(seat, version)
        g = self.game
        try:
            a = action if isinstance(action, Action) else Action.from_json(action)
        except ValueError as e:
            raise Refused(422, str(e)) from None
        if a not in g.legal_actions():
            try:
                g.copy().apply(a)  # raises with the engine's reason
            except IllegalAction as e:
                raise Refused(422, N_("illegal action: {reason}"), reason=e.reason) from None
            raise AssertionError("an action outside the legal list was applied")
        return a

    async def _up_to(self, version) -> None:
        """Catch up first if a request names a version newer than ours (another process is
        ahead, server/sync.py); the caller holds the lock."""
        if isinstance(version, int) and not isinstance(version, bool) and version > self.game.state.version:
            await catch_up(self, locked=True)

    async def as_seat(self, token, step):
        """`await step(seat)` for the seat of `token` (the caller holds the lock): read again
        whenever storing found the seats changed by another process (SeatsChanged, caught up),
        so a token the host revoked, here or elsewhere, never acts."""
        for _attempt in range(3):
            try:
                return await step(self.seat_of(token))
            except SeatsChanged:
                continue  # caught up with the stored seats: check the token again
        raise Refused(503, N_("the seats were changing too fast; try again"))

    async def act(self, token, version, action) -> dict:
        """A seat's decision (the seat of `token`): checked, applied, stored, then
        acknowledged. The token is read under the game's lock, against the seats the decision
        is stored with (`commit`)."""
        async def decide(seat):
            return await self.commit(self.check(seat, version, action))
        async with self.lock:
            await self._up_to(version)
            lines = await self.as_seat(token, decide)
        self.kick_bots()
        return {"version": self.game.state.version, "events": lines}

    async def commit(self, a: Action, timed_out: bool = False) -> list:
        """The one path of every decision, a person's, a bot's or a timeout's (caller holds
        the lock; `a` checked legal): applied to a copy, stored with the clocks it moves (in one
        transaction, only if the stored seats are still the session's, else SeatsChanged,
        caught up), then the copy becomes the game, the pages are told, and the listeners
        (Manager.listeners: the end of a game, notifications) hear of it (`Decided`).
        `timed_out`: a bot decided for the seat whose time ran out (server/clocks.py)."""
        g = self.game
        idx = self.decisions
        new = g.copy()
        played = play(new, a)
        decider, waiting = self.seat_playing(g.to_move), self.waiting_seat(new)
        summary = self.summary(new)
        clocks = None
        if self.clocks is not None:
            clocks = timing.after_decision(self.clocks, decider, waiting, timing.now(), timed_out)
            summary.update(clocks=clocks, deadline=timing.deadline(clocks))
        try:
            self.synced = await self.save("the decision", self.storage.add_decision, self.game_id, idx,
                                           a.to_json(), summary, self.seats)
        except DuplicateDecision:
            # Another server process stored decision `idx` first (or took decisions back):
            # catch up with the database and answer from the fresh game (server/sync.py).
            return await behind(self, g)
        self.game = new
        if clocks is not None:
            self.clocks = clocks
        lines = self.played(new, played)
        if timed_out:  # said after the decision's own lines (kept in memory only)
            lines.append(self.timeout_line(decider))
            self.log.append(lines[-1])
        self.pages.tell()
        decided = Decided(self, decider, waiting, timed_out)
        for listener in self.listeners:
            listener(decided)
        return lines

    def waiting_seat(self, game) -> int | None:
        """The seat of a person the game waits on (None: a bot's turn, or the game is over)."""
        if game.is_over:
            return None
        seat = self.seat_playing(game.to_move)
        return seat if seat is not None and self.seats[seat]["kind"] == "human" else None

    # --- clocks (server/clocks.py) -------------------------------------------------------------

    def timeout_line(self, seat: int) -> str:
        name = self.seats[seat].get("name") or f"Player {seat + 1}"
        return f"{name} ran out of time: a bot made this decision for them."

    async def time_out(self, version: int) -> bool:
        """The clock of the seat to move ran out at `version` (this process claimed it,
        store.claim_due): the bot of the table's level decides for the seat; at its
        TIMEOUTS_TO_BOT-th timeout the seat passes to that bot. Whether a bot decided: not if
        the game moved on meanwhile, or one of its open seats is still free (the clock starts
        again), or a bot plays the seat already (the clock stops)."""
        from ..agents import make_agent
        from .options import DEFAULT_BOT
        async with self.lock:
            await catch_up(self, locked=True)
            g = self.game
            if self.clocks is None or g.is_over or g.state.version != version:
                return False
            seat = self.waiting_seat(g)
            # An open seat nobody took yet: the table is not complete, no clock runs. (A
            # player invited who has not come yet is told and their clock runs.)
            incomplete = any(seat_access(x) == "open" and not x.get("joined") for x in self.seats)
            if seat is None or incomplete:
                clocks = timing.waiting_again(self.clocks, seat, timing.now())
                if await self.storage.set_clocks(self.game_id, version, clocks, timing.deadline(clocks)):
                    self.clocks = clocks
                    self.pages.tell()
                self.kick_bots()
                return False
            level = self.settings.get("bot") or DEFAULT_BOT
            key = f"{g.options.get('seed')}:timeout:{self.decisions}".encode()
            agent = make_agent(level, seed=int.from_bytes(hashlib.sha256(key).digest()[:8], "big"))
            # The bot runner's workers (server/bots.py), as for any bot: never this process's CPU.
            await self.commit(await self.bot_runner.decide_now(self, agent, g.to_move), timed_out=True)
            if self.clocks["timeouts"][seat] >= timing.TIMEOUTS_TO_BOT:
                await self._to_bot(seat, level)
        self.kick_bots()
        return True

    async def _to_bot(self, seat: int, level: str) -> None:
        """The seat ran out of time too often: its bot plays it from now on (the caller holds
        the lock)."""
        def give(seats):
            seats[seat].update(kind=level, access=None, token=None, joined=True, timed_out=True)
        await change_seats(self, give, locked=True)
        self.forget_agents(seat)
        name = self.seats[seat].get("name") or f"Player {seat + 1}"
        self.log.append(f"{name} ran out of time {timing.TIMEOUTS_TO_BOT} times: a bot plays "
                        f"their seat from now on.")
        clocks = timing.waiting_again(self.clocks, self.waiting_seat(self.game), timing.now())
        if await self.storage.set_clocks(self.game_id, self.game.state.version, clocks,
                                         timing.deadline(clocks)):
            self.clocks = clocks
        self.pages.tell()

    def summary(self, game) -> dict:
        """The games row's summary of `game`, with the count of undos it was played after."""
        return {"version": game.state.version, "cycle": game.state.cycle, "to_move": game.to_move,
                "status": "over" if game.is_over else self.status, "undos": self.undos}

    async def save(self, what: str, call, *args):
        """A call of the store that changes the game (the caller holds the lock). The seats
        changed in the database (another process): read them, SeatsChanged (check again). Any
        failure but DuplicateDecision (the caller's to answer): 503, nothing changed."""
        try:
            return await call(*args)
        except DuplicateDecision:
            raise
        except Changed:
            await catch_up(self, locked=True)
            raise SeatsChanged(409, N_("the seats changed meanwhile; try again")) from None
        except Exception as e:
            log.info("storing %s of game %s failed: %s", what, self.game_id, _short(e))
            raise Refused(503, NOT_STORED[what], kind=type(e).__name__) from e

    def played(self, game, played: Played) -> list:
        """A decision applied to `game`: its log lines and its row at the table."""
        lines = self.narrate(game, played.events)
        self.keep(played, lines, game.state.version)
        return lines

    def keep(self, played: Played, lines: list, version: int) -> None:
        self.log.extend(lines)
        self.chronicle.add(played.events)
        self.decisions += 1
        self.table.add(played, len(self.log), version)

    # --- what the database says (server/sync.py catches up through these) -----------------------

    def take_seats(self, new: list) -> bool:
        """Take these seats (stored, perhaps by another process) as the session's; whether
        they differ."""
        if new == self.seats:
            return False
        old = copy.deepcopy(self.seats)
        self.seats[:] = copy.deepcopy(new)
        self.pages.forget()
        self.names[:] = faction_names([x.get("name") or f"Player {i + 1}" for i, x in enumerate(self.seats)],
                                      self.factions_of)
        for i, (a, b) in enumerate(zip(old, self.seats)):
            if a.get("kind") != b.get("kind"):
                self.forget_agents(i)
            if a.get("token") != b.get("token") or b.get("kind") != "human":
                # Connections opened with the old token watch from now on, as spectators.
                for c in self.pages:
                    if c.seat == i:
                        c.error(403, _("the host gave this seat to someone else: you are watching now"))
                        c.seat = None
        return True

    def take_settings(self, settings: dict, clocks: dict | None) -> bool:
        """Take the stored settings and clocks; whether the clocks differ."""
        if settings != self.settings:
            self.settings.clear()
            self.settings.update(settings)
        if clocks == self.clocks:
            return False
        self.clocks = clocks
        return True

    def advance(self, game, done: list) -> None:
        """The game after decisions stored elsewhere (`done`: table.replay's, applied to `game`)."""
        self.game = game
        for played, lines, version in done:
            self.keep(played, lines, version)

    def restart(self, game, done: list, undos: int) -> None:
        """Start the session's game afresh: `game` after the decisions `done` (table.replay)."""
        self.game = game
        self.decisions = 0
        self.log.clear()
        self.chronicle.clear()
        self.table = Table()
        self._views.clear()
        for played, lines, version in done:
            self.keep(played, lines, version)
        self.undos = undos

    async def take_back(self, token, version) -> dict:
        """Undo: the seat to move (the seat of `token`, read under the lock as for a decision)
        takes back its last decision, if the undo rule allows it (engine/undo.py). The game is
        replayed from the decisions before it; the stored record forgets it, if the stored
        seats are still the session's; every page gets the position back."""
        async with self.lock:
            await self._up_to(version)
            await self.as_seat(token, lambda seat: self._take_back(seat, version))
        self.pages.tell()
        return {"version": self.game.state.version, "undos": self.undos}

    async def _take_back(self, seat, version) -> None:
        self.check_turn(seat, version)
        g = self.game
        steps = [e.step for e in self.table.entries]
        lim = undo.limit(steps, g.to_move)
        if lim.steps < 1:
            raise Refused(409, undo.reason_text(lim, self.names))
        loop = asyncio.get_running_loop()
        back = await loop.run_in_executor(self.m.cpu, undo.take_back, g, 1, steps)
        try:
            self.undos = await self.save("the undo", self.storage.take_back, self.game_id,
                                          self.decisions - 1, self.summary(back), self.seats)
        except DuplicateDecision:
            await catch_up(self, locked=True)
            raise Refused(409, N_("the game changed meanwhile: look again")) from None
        self.game = back
        self.decisions -= 1
        self.table.pop()
        self.chronicle.pop()
        del self.log[self.table.log_start(len(self.table)):]

    # --- bots --------------------------------------------------------------------------

    def kick_bots(self):
        """Start the bot task if a bot is to move and none is running."""
        g = self.game
        if g.is_over or not self.is_bot(g.to_move) or self.m.closing:
            return
        if not self.bots_running:
            self.bot_task = asyncio.get_running_loop().create_task(self._bots())

    @property
    def bots_running(self) -> bool:
        return self.bot_task is not None and not self.bot_task.done()

    def is_bot_task(self, task) -> bool:
        return task is self.bot_task

    def stop_bots(self) -> None:
        if self.bot_task is not None:
            self.bot_task.cancel()

    def forget_agents(self, seat: int) -> None:
        """The seat changed hands: its bot's agents are made afresh when next asked for."""
        for f in self.factions_of[seat]:
            self.agents.pop(f, None)

    def agent(self, seat):
        if seat not in self.agents:
            from ..agents import make_agent
            # Seeded from the game's secret seed: a game replays the same from the same
            # stored decisions, and a test's all-bot game is the same every time.
            key = f"{self.game.options.get('seed')}:{seat}:{self.decisions}".encode()
            seed = int.from_bytes(hashlib.sha256(key).digest()[:8], "big")
            self.agents[seat] = make_agent(self.seats[self.seat_playing(seat)]["kind"], seed=seed)
        return self.agents[seat]

    def replace_agent(self, seat, old, new) -> bool:
        """The seat's agent is `new` (as it is after deciding in a worker, server/bots.py) if it
        still is `old` (not made afresh meanwhile: the seat was given away); whether it was."""
        if self.agents.get(seat) is not old:
            return False
        self.agents[seat] = new
        return True

    async def _bots(self):
        """Play the bots' turns until a person is to move or the game ends. A step that fails
        (the database could not store it, the bot's worker died or hung) is tried again after
        a growing pause (bots.retry_delay), with a plain bot after a few failures of the
        agent; the bot sweep (server/sync.py) starts this task again should it ever end while
        a bot is to move."""
        failures = agent_failures = 0
        while not self.m.closing:
            g = self.game
            seat = g.to_move
            if g.is_over or not self.is_bot(seat):
                return
            # A pause so that people can follow (or none: still, let other games run).
            await asyncio.sleep(self.bot_delay or 0)
            try:
                # The one decision step of every game loop (agents/match.py), in a bot worker
                # process scheduled fairly across games, then committed under the lock if the
                # game is still where it was (server/bots.py).
                await self.bot_runner.step(self, seat, plain=agent_failures >= PLAIN_AFTER)
                failures = agent_failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as e:
                failures += 1
                stored = isinstance(e, Refused)  # the decision was made, storing it failed
                agent_failures = 0 if stored else agent_failures + 1
                wait = retry_delay(failures)
                if stored or isinstance(e, BotFailure) or failures > 1:
                    log.warning("bot of game %s failed (%s): trying again in %.1f s",
                                self.game_id, _short(e), wait)
                else:
                    log.exception("bot of game %s failed: trying again in %.1f s", self.game_id, wait)
                await asyncio.sleep(wait)


@dataclass
class Decided:
    """What the listeners of a stored decision hear: the session (its game as it is now), the
    seat that decided and the person's seat the game waits on now (None: a bot's, or over),
    and whether a bot decided for a seat whose time ran out."""
    session: Session
    decider: int | None
    waiting: int | None
    timed_out: bool = False


class Manager:
    """All live games, the store, and the worker threads."""

    def __init__(self, store: Store, bot_delay: float = 0.3, bot_workers: int | None = None,
                 bot_seconds: float | None = None):
        self.store = store
        self.bot_delay = bot_delay
        self.sessions: dict = {}
        # Bot decisions: worker processes, fair across games, a budget each (server/bots.py).
        self.bots = BotPool(bot_workers, bot_seconds)
        self.cpu = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cyclades-bots")
        self.bot_runner = BotRunner(self.bots, self.cpu)
        self.storage = GameStorage(store, self.db)
        self.dbpool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cyclades-db")
        self.closing = False
        self.sync = None              # server/sync.py: this process among the others
        self.presence = Presence(self)  # who is at each game's table (server/presence.py)
        # Called with a `Decided` after each decision is stored (people.py: a game's end,
        # notify.py: notifications).
        self.listeners: list = []
        self.timekeeper = timing.Timekeeper(self)  # the timeouts of timed games (clocks.py)

    def session(self, game_id: str, game: Game, seats: list, created: float,
                settings: dict | None = None) -> Session:
        """A game's session, given its collaborators: the storage, the bot runner, the
        listeners of its decisions (and a transport of its own)."""
        return Session(self, game_id, game, seats, created, settings, storage=self.storage,
                       bot_runner=self.bot_runner, listeners=self.listeners)

    async def db(self, fn, *args, **kwargs):
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.dbpool, lambda: fn(*args, **kwargs))

    # --- lifecycle ---------------------------------------------------------------------

    async def start(self):
        """Join the other server processes on the database (server/sync.py) and return at
        once: games are loaded when first asked for, and the bot-driven games of a stopped
        process (the previous run of this one, or another) resume in the background."""
        from .sync import Sync
        self.sync = Sync(self)
        await self.sync.start()
        self.timekeeper.start()

    async def stop(self):
        self.closing = True
        await self.timekeeper.stop()
        await stop_tasks(s.bot_task for s in self.sessions.values())
        if self.sync is not None:
            await self.sync.stop()
        await self.bots.close()
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
            raise Refused(500, N_("game {game_id} could not be replayed by this engine ({kind}: {error})"),
                game_id=game_id, kind=type(e).__name__, error=e) from e
        # Another request may have loaded it meanwhile: keep the first.
        return self.sessions.setdefault(game_id, session)

    async def get(self, game_id: str, fresh: bool = True) -> Session:
        """A game, loaded if need be. `fresh`: while other server processes are alive, first
        catch up with what they stored (one read; server/sync.py)."""
        s = self.sessions.get(game_id)
        if s is None:
            s = await self.load(game_id)
        elif fresh and self.sync is not None and self.sync.peers:
            await catch_up(s)
        if s is None:
            raise Refused(404, N_("no game {game_id}"), game_id=repr(game_id))
        s.last_used = time.monotonic()  # housekeeping.py: idle games leave memory
        return s

    async def create(self, options: dict, seats: list, settings: dict | None = None,
                     rematch_of: Session | None = None) -> Session:
        """A new game; `options` as for `cyclades.new_game`, seats (people) [{"kind", "name",
        "access"}]: a human seat's access is "host" or "invite" (a token now) or "open" (a
        token made when someone joins). `rematch_of`: the finished game whose rematch this
        is, named there in the same transaction, once (store.Changed if another request or
        process made its rematch first)."""
        opts = dict(options)
        if opts.get("seed") is None:
            opts["seed"] = secrets.randbits(63)
        loop = asyncio.get_running_loop()
        try:
            game = await loop.run_in_executor(self.cpu, lambda: Game.new(**opts))
        except (ValueError, KeyError) as e:
            raise Refused(422, str(e)) from None
        seats = [{"kind": s["kind"], "name": s.get("name"),
                  "access": (s.get("access") or "invite") if s["kind"] == "human" else None,
                  "token": None, "joined": s["kind"] != "human"} for s in seats]
        for s in seats:
            if s["access"] in ("host", "invite"):
                s["token"] = secrets.token_urlsafe(24)
        game_id = secrets.token_urlsafe(9)
        session = self.session(game_id, game, seats, time.time(), settings)
        speed = timing.speed_of(session.settings)
        if speed is not None:
            session.clocks = timing.start(speed, len(seats), session.waiting_seat(game), timing.now())
        claim = None
        if rematch_of is not None:
            claim = (rematch_of.game_id, rematch_of.settings,
                     {**rematch_of.settings, "rematch": game_id})
        await self.storage.create_game(game_id, game.options, seats, session.status,
                      game.state.version, game.to_move, session.settings, claim,
                      session.clocks, timing.deadline(session.clocks))
        if claim is not None:
            rematch_of.settings.update(claim[2])
        self.sessions[game_id] = session
        session.kick_bots()
        return session


def manager_of(request_or_ws) -> Manager:
    """The app's Manager (create_app's lifespan puts it on the app's state)."""
    return request_or_ws.app.state.manager


def replay(manager, game_id, record, data) -> Session:
    """Rebuild a session from its stored record: the game by replaying every decision
    (the same as `Game.from_record`), and the log by narrating each decision's events."""
    game = Game.from_record(record, upto=0)
    session = manager.session(game_id, game, data["seats"], data["created"], data.get("settings"))
    session.restart(game, replay_decisions(game, record["actions"], session.narrate), data.get("undos", 0))
    session.clocks = data.get("clocks")
    return session
