"""Replays, the end of a game and rematches (docs/api.md, "Replays").

    app.include_router(router)          # in create_app

Positions are computed here, by replaying a record with the engine (the browser has no
engine). A replay keeps the decisions, the log with where each decision's lines end,
and a copy of the game every `CHECKPOINT` decisions; the position after decision n is
the nearest earlier copy plus at most CHECKPOINT - 1 decisions, i.e. a few milliseconds.
Sending every position at once would not do: one view is about 6.5 KB of JSON, so a
long game of 3,000 decisions would be some 20 MB. The client asks for the positions it
shows (and the next one ahead), one request each, and keeps them.

What is shown (R24): the replay of a finished game shows everything (every purse, the
decision being taken with its hidden details, the decisions themselves); the replay of a
running game shows only what a spectator sees (`game.view(None)`) and its log, and never
the record (its seed would foretell dice and shuffles). An uploaded record is a finished
game's, or a game whose seed its owner knows already: everything.
"""
from __future__ import annotations

import asyncio
import contextvars
import hashlib
import json
import secrets
import threading
import time
from collections import OrderedDict

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, StrictStr

from ..content.i18n import N_
from ..content.i18n import current as current_language
from ..engine.actions import Action
from ..engine.game import FORMAT, READABLE_FORMATS, Game, IllegalAction
from ..engine.log import Narrator
from ..engine.queries import metropolis_counts
from ..engine.wording import action_text
from ..web.geometry import geometry
from .errors import Refused
from .i18n import Chronicle, board_words
from .pages import page
from .security import client_key
from .store import Changed
from .sync import catch_up

CHECKPOINT = 32          # a copy of the game every this many decisions
VIEW_CACHE = 96          # positions kept per replay
REPLAYS_KEPT = 24        # replays kept in memory (games and uploads together), at most
UPLOAD_MAX_BYTES = 4_000_000
UPLOAD_MAX_DECISIONS = 20_000   # a record's length (docs/api.md); long games have a few thousand
UPLOAD_PREFIX = "up-"    # the id of an uploaded replay; game ids never start so (token_urlsafe)
PAGE = 2_000             # steps of a summary per answer (GET /api/replays/{rid}?since=&limit=)
# A replay's memory, as measured with tracemalloc on a 5-player game: about 970 bytes per
# decision (checkpoints, the log, the figures per step) and 31 KB per position kept.
BYTES_PER_DECISION = 1_000
BYTES_PER_VIEW = 32_000

router = APIRouter()


def _refusals(*codes):
    what = {403: "not a seat of this game", 404: "no such game or replay",
            409: "the game is not over yet", 413: "the record is too large",
            422: "not a game record this engine can replay (the reason)"}
    return {c: {"description": what[c]} for c in codes}


# --- a replay ----------------------------------------------------------------------------

class Replay:
    """A game's record, replayed: positions on demand, the log, figures per cycle.

    `public`: only what a spectator may see (a running game). `names`: the players' names
    for the log. Grows with `extend` as a running game goes on."""

    def __init__(self, record: dict, names: list | None = None, public: bool = False,
                 seats: list | None = None, game_id: str | None = None):
        self.options = record["options"]
        self.public = public
        self.game_id = game_id
        self.lock = threading.RLock()
        g = Game.from_record(record, upto=0)
        n = g.state.n
        self.names = list(names or [])[:n] + [f"Player {i + 1}" for i in range(len(names or []), n)]
        self.seats = seats or [{"seat": i, "kind": None, "name": self.names[i]} for i in range(n)]
        self.game = g                    # the position after every decision so far
        self.narrator = Narrator(g, names=self.names)
        self.actions: list[Action] = []
        self.checkpoints = {0: g.copy()}
        self.log: list[str] = []
        self.chronicle = Chronicle(self.names)  # the log in the reader's language (server/i18n.py)
        # Per step n (the position after n decisions), n = 0..len(actions):
        self.cycle = [g.state.cycle]
        self.phase = [g.state.phase]
        self.to_move = [g.to_move]
        self.log_end = [0]               # log lines up to and including decision n
        self.actor = [None]              # who took decision n (None for step 0)
        self.gp = [self._purses(g)]
        self.metros = [self._metros(g)]
        self.views: OrderedDict = OrderedDict()
        self.used = time.monotonic()
        self.extend(record.get("actions") or [])

    # --- building ----------------------------------------------------------------

    def _purses(self, g) -> list:
        return [g.purse(p) for p in range(g.state.n)]

    def _metros(self, g) -> list:
        return metropolis_counts(g)

    def extend(self, actions) -> None:
        """Apply further decisions (JSON dicts or Actions). A decision the engine refuses
        raises ValueError naming it; the replay keeps the ones before."""
        with self.lock:
            g = self.game
            for a in actions:
                i = len(self.actions)
                try:
                    action = a if isinstance(a, Action) else Action.from_json(a)
                except ValueError as e:
                    raise ValueError(f"decision {i + 1}: {e}") from None
                if g.is_over:
                    raise ValueError(f"decision {i + 1}: the game was already over")
                actor = g.to_move
                try:
                    events = g.apply(action)
                except IllegalAction as e:
                    raise ValueError(f"decision {i + 1} ({action.to_json()}) is not legal: {e.reason}") from None
                self.narrator.game = g
                try:
                    lines = self.narrator.lines(events)
                except Exception:  # the log never stops a replay
                    lines = [str(e.get("type", "event")) for e in events if isinstance(e, dict)]
                self.actions.append(action)
                self.log.extend(lines)
                self.chronicle.add(events)
                self.log_end.append(len(self.log))
                self.actor.append(actor)
                self.cycle.append(g.state.cycle)
                self.phase.append(g.state.phase)
                self.to_move.append(g.to_move)
                self.gp.append(self._purses(g))
                self.metros.append(self._metros(g))
                if len(self.actions) % CHECKPOINT == 0:
                    self.checkpoints[len(self.actions)] = g.copy()

    def follow(self, history: list) -> None:
        """Catch up with a running game's decisions (`game.history`)."""
        with self.lock:
            n = len(self.actions)
            if len(history) < n or history[:n] != self.actions:
                raise _Stale()  # taken back (undo): build again
            if len(history) > n:
                self.extend(history[n:])

    @property
    def steps(self) -> int:
        return len(self.actions)

    @property
    def over(self) -> bool:
        return self.game.is_over

    def size(self) -> int:
        """About how many bytes of memory this replay takes (BYTES_PER_DECISION, ...)."""
        return BYTES_PER_DECISION * (self.steps + 1) + BYTES_PER_VIEW * len(self.views)

    # --- positions ----------------------------------------------------------------

    def position(self, n: int) -> Game:
        with self.lock:
            start = n - n % CHECKPOINT
            g = self.checkpoints[start].copy()
            todo = self.actions[start:n]
        for a in todo:
            g.apply(a)
        return g

    def step(self, n: int, viewer: int | None = None) -> dict:
        """The position after n decisions, as the viewer shows it. A running game's replay
        shows what a spectator sees, or with `viewer` (a faction of the seat asking) what that
        player saw then: their own purse too (R24)."""
        key = (n, viewer if self.public else None, current_language())
        with self.lock:
            hit = self.views.get(key)
            if hit is not None:
                self.views.move_to_end(key)
                return hit
        g = self.position(n)
        if self.public:
            view = g.view(viewer)
            view.pop("legal_actions", None)
        else:
            # Everything: the decision with its hidden details, and every purse.
            view = g.view(g.to_move)
            view.pop("legal_actions", None)
            view["viewer"] = None
            for pl in view["players"]:
                pl["gp"] = g.purse(pl["index"])
        out = {"step": n, "steps": self.steps, "cycle": self.cycle[n], "phase": self.phase[n],
               "view": view, "log_end": self.log_end[n],
               "actor": self.actor[n],
               "action": None if self.public or n == 0 else self._worded(self.actions[n - 1], g),
               "next_action": None if self.public or n >= self.steps else self._worded(self.actions[n], g)}
        with self.lock:
            self.views[key] = out
            while len(self.views) > VIEW_CACHE:
                self.views.popitem(last=False)
        return out

    def _worded(self, action: Action, g: Game) -> dict:
        """An action with its words in the current language (the page shows them as they are)."""
        return {**action.to_json(), "text": action_text(action, g, self.names)}

    # --- what the viewer loads first ---------------------------------------------------

    def summary(self, since: int = 0, limit: int = PAGE) -> dict:
        """Steps `since` to `until` (at most `limit` decisions further): a viewer that has the
        earlier ones asks for the rest, page after page, until `until` is `steps`."""
        with self.lock:
            since = max(0, min(since, self.steps))
            until = min(self.steps, since + max(1, limit))
            first_log = self.log_end[since]
            out = {
                "game_id": self.game_id, "public": self.public, "over": self.over,
                "steps": self.steps, "since": since, "until": until,
                "players": self.game.state.n, "names": self.names, "seats": self.seats,
                "ruleset": self.options.get("ruleset"), "teams": self.options.get("teams"),
                "cycle": self.cycle[since:until + 1], "phase": self.phase[since:until + 1],
                "to_move": self.to_move[since:until + 1], "actor": self.actor[since:until + 1],
                "log_end": self.log_end[since:until + 1],
                "actions": None if self.public else [a.to_json() for a in self.actions[since:until]],
                "log_start": first_log, "log": self.chronicle.lines(self.log, self.game)[first_log:self.log_end[until]],
                "cycles": self.cycle_starts(),
                "result": self.game.result() if self.over else None,
            }
            if since == 0:
                b = self.game.board
                out["board"] = {**board_words(geometry(b)), "ids": list(b.ids)}
            out["timeline"] = self.timeline()
            return out

    def summary_json(self, since: int = 0, limit: int = PAGE) -> bytes:
        """`summary` as the JSON body of the answer (made in a thread, not on the event loop)."""
        return json.dumps(self.summary(since, limit), ensure_ascii=False, allow_nan=False,
                          separators=(",", ":")).encode("utf-8")

    def cycle_starts(self) -> list:
        """[[cycle, first step of that cycle], ...]: step 0 is the setup (cycle 0)."""
        out, last = [], None
        for n, c in enumerate(self.cycle):
            if c != last:
                out.append([c, n])
                last = c
        return out

    def timeline(self) -> dict:
        """Per cycle, each player's GP and metropolises at the end of that cycle (cycle 0: the
        end of the setup; the last cycle: now, or the end of the game). A running game's
        replay leaves the GP out (hidden, R24). Team play: figures per team too."""
        with self.lock:
            ends = {}
            for n, c in enumerate(self.cycle):
                ends[c] = n  # the last step of each cycle
            points = []
            for c in sorted(ends):
                n = ends[c]
                points.append({"cycle": c, "step": n,
                               "gp": None if self.public else list(self.gp[n]),
                               "metropolises": list(self.metros[n])})
            out = {"players": self.game.state.n, "names": self.names, "over": self.over,
                   "gp_hidden": self.public, "points": points, "teams": None}
            teams = self.options.get("teams")
            if teams:
                members = {}
                for p, t in enumerate(teams):
                    members.setdefault(t, []).append(p)
                out["teams"] = [{"team": t, "members": ps} for t, ps in sorted(members.items())]
                for pt in points:
                    # A team's purse is kept by its first member (R22); metropolises add up.
                    pt["team_gp"] = None if pt["gp"] is None else [pt["gp"][ps[0]] for _, ps in sorted(members.items())]
                    pt["team_metropolises"] = [sum(pt["metropolises"][p] for p in ps)
                                               for _, ps in sorted(members.items())]
            return out


class _Stale(Exception):
    pass


# --- where replays come from ------------------------------------------------------------------

def _cache(request) -> OrderedDict:
    st = request.app.state
    c = getattr(st, "replays", None)
    if c is None:
        c = st.replays = OrderedDict()
        st.replays_lock = asyncio.Lock()
    return c


def _remember(request, key, replay):
    """Keep a replay, the most recent last; the least recently used ones leave memory while
    the replays kept take more than the byte budget (`--replay-cache-mb`) or number more than
    REPLAYS_KEPT (the one just used stays, whatever its size)."""
    c = _cache(request)
    c[key] = replay
    c.move_to_end(key)
    limits = getattr(request.app.state, "limits", None)
    budget = int((limits.replay_cache_mb if limits else 256) * 1_000_000)
    total = sum(r.size() for r in c.values())
    while len(c) > 1 and (len(c) > REPLAYS_KEPT or total > budget):
        _, gone = c.popitem(last=False)
        total -= gone.size()


def _building(request) -> asyncio.Semaphore:
    st = request.app.state
    if getattr(st, "replay_builds", None) is None:
        st.replay_builds = asyncio.Semaphore(1)
    return st.replay_builds


async def _in_thread(fn, *args):
    """fn(*args) on a thread, in the request's context (its language among it)."""
    return await asyncio.get_running_loop().run_in_executor(None, contextvars.copy_context().run, fn, *args)


async def game_replay(request, game_id: str) -> Replay:
    """The replay of a server game, caught up with it."""
    c = _cache(request)
    s = await request.app.state.manager.get(game_id)
    g = s.game                                    # a game is replaced, never changed, on commit
    history = g.history
    public = not g.is_over
    async with request.app.state.replays_lock:
        r = c.get(game_id)
        if r is not None and r.public != public:
            r = None                              # the game ended: now everything may be shown
        if r is not None:
            try:
                await _in_thread(r.follow, history)
            except _Stale:
                r = None
        if r is None:
            record = {"format": FORMAT, "options": g.options, "actions": [a.to_json() for a in history]}
            try:
                r = await _in_thread(lambda: Replay(record, s.names, public, s.public_seats(), game_id))
            except Exception as e:  # pragma: no cover - the server's own games replay
                raise Refused(500, N_("game {game_id} could not be replayed ({kind}: {error})"),
                    game_id=game_id, kind=type(e).__name__, error=e) from e
        r.seats = s.public_seats()
        r.used = time.monotonic()
        _remember(request, game_id, r)
        return r


async def any_replay(request, rid: str) -> Replay:
    if rid.startswith(UPLOAD_PREFIX):
        r = _cache(request).get(rid)
        if r is not None and r.game_id is None:
            _cache(request).move_to_end(rid)
            return r
        try:
            return await game_replay(request, rid)  # a game id may start so too, rarely
        except Refused as e:
            if e.status != 404:
                raise
        raise Refused(404, N_("no replay {replay}: uploaded records are kept for a while only; open the file again"),
            replay=repr(rid))
    return await game_replay(request, rid)


def check_record(data) -> tuple[dict, list | None]:
    """A record as `Game.record()` writes it (optionally with "names"): the record and
    the names; ValueError with a clear reason otherwise."""
    if not isinstance(data, dict):
        raise ValueError("a game record is a JSON object with 'format', 'options' and 'actions'")
    if data.get("format") not in READABLE_FORMATS:  # an older one is migrated (engine/formats.py)
        raise ValueError(f"unsupported record format {data.get('format')!r} (this engine reads "
                         f"{' and '.join(map(str, READABLE_FORMATS))})")
    o, acts = data.get("options"), data.get("actions")
    if not isinstance(o, dict):
        raise ValueError("'options' must be an object (the game's options)")
    if not isinstance(acts, list):
        raise ValueError("'actions' must be a list of decisions")
    if len(acts) > UPLOAD_MAX_DECISIONS:
        raise ValueError(f"too many decisions ({len(acts)}; at most {UPLOAD_MAX_DECISIONS})")
    if "scenario" in o:
        if not isinstance(o["scenario"], dict):
            raise ValueError("a scenario record must carry the scenario itself, not a file name")
    else:
        need = ("players", "ruleset", "seed", "board", "maelstrom", "max_cycles")
        missing = [k for k in need if k not in o]
        if missing:
            raise ValueError(f"'options' lacks {', '.join(missing)}")
        if not isinstance(o["players"], int) or isinstance(o["players"], bool):
            raise ValueError("'options.players' must be a number")
        if not isinstance(o["seed"], int) or isinstance(o["seed"], bool):
            raise ValueError("'options.seed' must be an integer")
    names = data.get("names")
    if names is not None and not (isinstance(names, list) and all(isinstance(x, str) for x in names)):
        raise ValueError("'names' must be a list of strings")
    names = [x.strip()[:40] or None for x in names] if names else None
    return {"format": data["format"], "options": o, "actions": acts}, names


def build_upload(data) -> Replay:
    record, names = check_record(data)
    try:
        r = Replay({**record, "actions": []}, names)
    except ValueError as e:
        raise ValueError(f"the options do not make a game: {e}") from None
    except Exception as e:  # whatever a hand-made record's options break
        raise ValueError(f"the options do not make a game ({type(e).__name__}: {e})") from None
    try:
        r.extend(record["actions"])
    except ValueError:
        raise
    except Exception as e:
        raise ValueError(f"decision {r.steps + 1} could not be replayed ({type(e).__name__}: {e})") from None
    return r


# --- routes ---------------------------------------------------------------------------------------

def _page():
    return page("replay.html")


@router.get("/replay", include_in_schema=False)
async def replay_page():
    return _page()


@router.get("/replay/{rid}", include_in_schema=False)
async def replay_page_of(rid: str):
    return _page()


_RECORD_BODY = {"requestBody": {"required": True, "content": {"application/json": {"schema": {
    "type": "object", "required": ["format", "options", "actions"],
    "properties": {"format": {"type": "integer"}, "options": {"type": "object"},
                   "actions": {"type": "array", "items": {"type": "object"}},
                   "names": {"type": "array", "items": {"type": "string"}}},
    "description": "a game record as GET /api/games/{id}/record gives it (game.record())"}}}}}


@router.post("/api/replays", status_code=201, responses=_refusals(413, 422), openapi_extra=_RECORD_BODY)
async def upload_replay(request: Request):
    """Upload a game record (`GET /api/games/{id}/record`, `cyclades replay` files): it is
    replayed, and kept for a while as replay `up-...`."""
    body = await request.body()
    if len(body) > UPLOAD_MAX_BYTES:
        raise Refused(413, N_("the record is too large ({size} bytes; at most {most})"),
            size=len(body), most=UPLOAD_MAX_BYTES)
    try:
        data = json.loads(body)
    except RecursionError:
        raise Refused(422, N_("not a game record: its JSON is nested too deep")) from None
    except (ValueError, UnicodeDecodeError) as e:
        raise Refused(422, N_("not a game record: the file is not JSON ({error})"), error=e) from None
    rid = UPLOAD_PREFIX + hashlib.sha256(body).hexdigest()[:20]
    r = _cache(request).get(rid)
    if r is None:
        rate = getattr(request.app.state, "upload_rate", None)
        if rate is not None:
            rate.check(client_key(request.scope))  # 429 with Retry-After
        async with _building(request):  # one at a time: uploads never crowd out the rest
            r = _cache(request).get(rid)
            if r is None:
                try:
                    r = await _in_thread(build_upload, data)
                except ValueError as e:
                    raise Refused(422, N_("not a game record this engine can replay: {error}"), error=e) from e
                _remember(request, rid, r)
    return {"replay_id": rid, "steps": r.steps, "over": r.over, "url": f"/replay/{rid}"}


@router.get("/api/replays/{rid}", responses=_refusals(404))
async def get_replay(rid: str, request: Request, since: int = Query(0, ge=0),
                     limit: int = Query(PAGE, ge=1, le=PAGE)):
    """What the viewer loads first: per step its cycle, phase, who decided and where its log
    lines end; the log; the board; the figures per cycle. A page at a time: steps `since` to
    `until` (at most `limit` decisions, 2,000), and the log lines between; ask again with
    `?since=until` while `until < steps` (also to catch up with a running game)."""
    r = await any_replay(request, rid)
    return Response(await _in_thread(r.summary_json, since, limit), media_type="application/json")


@router.get("/api/replays/{rid}/steps/{n}", responses=_refusals(403, 404, 422))
async def get_step(rid: str, n: int, request: Request, token: str | None = None):
    """The position after n decisions (0: the start): the view, where the log stands, and
    (finished games, uploads) the decision that led there and the next one. `?token=`: a
    seat of the running game sees its own purse (its decision's details) as it was then."""
    r = await any_replay(request, rid)
    if not 0 <= n <= r.steps:
        raise Refused(422, N_("no step {n}: this replay has steps 0 to {steps}"), n=n, steps=r.steps)
    viewer = None
    if token and r.game_id is not None and r.public:
        s = await request.app.state.manager.get(r.game_id)
        seat = s.seat_of(token)  # a wrong token is refused (403)
        viewer = s.factions_of[seat][0] if seat is not None else None
    return await _in_thread(r.step, n, viewer)


@router.get("/api/games/{game_id}/timeline", responses=_refusals(404))
async def get_timeline(game_id: str, request: Request):
    """Per cycle, each player's GP and metropolises at the end of the cycle, computed by
    replaying the game. While the game goes on the GP are hidden (R24): `gp` is null."""
    r = await game_replay(request, game_id)
    return {"game_id": game_id, **r.timeline()}


# --- rematch -------------------------------------------------------------------------------------

class RematchBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: StrictStr | None = None


def _same_seat(x: dict) -> dict:
    """The seat of the rematch: same kind and name. Whoever played a human seat gets it
    again by its new link (a lobby seat someone took becomes theirs); a seat nobody took
    stays open."""
    out = {"kind": x["kind"], "name": x.get("name")}
    if x["kind"] == "human":
        access = x.get("access") or "invite"
        out["access"] = "invite" if access == "open" and x.get("token") else access
    return out


def _rematch_answer(s, new, seat) -> dict:
    gid = new.game_id
    out = {"game_id": gid, "seat": None, "url": f"/game/{gid}", "spectator_url": f"/game/{gid}",
           "rematch_of": s.game_id}
    if seat is not None and seat < len(new.seats) and new.seats[seat].get("token"):
        out["seat"] = seat
        out["url"] = f"/game/{gid}?token={new.seats[seat]['token']}"
        if new.seats[seat].get("access") == "host" and new.settings.get("host_token"):
            out["host_token"] = new.settings["host_token"]  # the host hosts the rematch too
    return out


@router.post("/api/games/{game_id}/rematch", responses=_refusals(403, 404, 409))
async def rematch(game_id: str, request: Request, body: RematchBody | None = None):
    """A new game with the same options and seats (kinds and names), a new seed. Made once:
    asking again answers the same game. With a seat's token, the answer carries that seat's
    link in the new game (seat n gets seat n); the other players find theirs with
    `GET /api/games/{id}/rematch?token=...`."""
    m = request.app.state.manager
    s = await m.get(game_id)
    seat = s.seat_of(body.token if body else None)
    if not s.game.is_over:
        raise Refused(409, N_("the game is not over yet"))
    async with s.lock:
        for _ in range(3):
            new = await _rematch_of(m, s)
            if new is not None:
                return {**_rematch_answer(s, new, seat), "created": False}
            o = s.game.options
            options = {"players": o["players"], "ruleset": o["ruleset"], "seed": None,
                       "board": o["board"], "maelstrom": o["maelstrom"], "max_cycles": o.get("max_cycles")}
            if o.get("teams"):
                options.update(teams=True, team_goal=o.get("team_goal", 3))
            settings = {k: v for k, v in s.settings.items() if k == "bot_delay"}
            settings["rematch_of"] = game_id
            if s.settings.get("host_token"):
                settings["host_token"] = secrets.token_urlsafe(24)
            try:
                # Named in the finished game's row in the same transaction, if no other
                # request (or process) named one first: one rematch per game.
                new = await m.create(options, [_same_seat(x) for x in s.seats], settings, rematch_of=s)
            except Changed:
                await catch_up(s, locked=True)  # another process made it: answer that one
                continue
            return {**_rematch_answer(s, new, seat), "created": True}
    raise Refused(503, N_("the rematch could not be made; try again"))


async def _rematch_of(m, s):
    """The rematch of a finished game if one was made (None if none, or it was removed)."""
    new_id = s.settings.get("rematch")
    if not new_id:
        return None
    try:
        return await m.get(new_id)
    except Refused:
        return None


@router.get("/api/games/{game_id}/rematch", responses=_refusals(403, 404))
async def get_rematch(game_id: str, request: Request, token: str | None = None):
    """The rematch of a finished game, if someone asked for one: `{"rematch": null}` or
    `{"rematch": {"game_id", "seat", "url", ...}}` (with a token: that seat's new link)."""
    m = request.app.state.manager
    s = await m.get(game_id)
    seat = s.seat_of(token)
    new = await _rematch_of(m, s)
    return {"rematch": None if new is None else _rematch_answer(s, new, seat)}
