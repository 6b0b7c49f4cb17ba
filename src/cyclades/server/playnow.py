""""Play now": tables of people waiting for a game of one kind.

    POST /api/play                          join a waiting table of this kind, or open one
    GET  /api/play/tables/{id}              the table (and, once it started, my seat's link)
    POST /api/play/tables/{id}/join         join this table (its link was shared)
    POST /api/play/tables/{id}/leave        leave it before it starts
    POST /api/play/tables/{id}/fill         the creator fills the empty seats with bots now
    GET  /api/play/tables                   the tables waiting for players

A table is not a game yet: it is a kind (edition, player count, speed, rated or not) and the
accounts seated at it, in the order they came. The first to ask for a kind opens a table; the
next ones join the oldest table of that kind with a free seat. When the last seat is taken the
game is made (seats in a random order, each player's seat held by their account: holders.py)
and the table points at it. Whoever opened the table chose a wait after which bots fill the
empty seats (or never), and the level of those bots; they may also fill them at once. Bots
make the game unrated unless the creator said they count (`bots_rated`).

Several server processes: every change of a table is a compare-and-set on its `version`, and
only the request that moves a table from `waiting` to `starting` makes its game. The bots' wait
is kept by a sweep in every process (`fill_due`), so a table fills even if its creator left.
"""
from __future__ import annotations

import json
import logging
import secrets
import time
from typing import Literal

import sqlalchemy as sa
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr

from ..content.i18n import N_, _, ngettext
from . import auth
from .errors import Refused, refusals
from .holders import hold_many, holders_of
from .options import CreateBody, setup_options
from .people_schema import play_tables as tables

log = logging.getLogger("cyclades.server")

SPEEDS = ("live", "turn-based")
MAX_BOT_WAIT = 7 * 86400      # seconds
TRIES = 8                     # compare-and-set attempts before giving up (503)
STUCK_AFTER = 120.0           # seconds a table may stay `starting` (its game being made)


RULESET_LABELS = {"legendary": N_("Legendary"), "classic": N_("Classic (2009)")}

router = APIRouter()

# What the routes' refusals mean (the OpenAPI schema's words).
REFUSALS = {401: "not logged in", 403: "not the table's creator", 404: "no such table",
           409: "the table started, closed or is full; or you are not at it",
           422: "a kind of game the rules do not allow", 503: "the table was changing too fast"}


class PlayBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    ruleset: Literal["legendary", "classic"] = "legendary"
    maelstrom: StrictBool = Field(True, description="the Maelström module (Legendary only)")
    players: StrictInt = Field(3, description="Legendary 2 to 6, classic 2 to 5")
    speed: Literal["live", "turn-based", "turn-based-72h"] = Field(
        "live", description="live (20 s a decision, a bank of 8 minutes) or turn-based (a day a "
                            "decision and 3 days in the bank; -72h: three days and 7 days), "
                            "server/clocks.py")
    rated: StrictBool = True
    bots_after: StrictInt | None = Field(
        None, ge=0, le=MAX_BOT_WAIT,
        description="if this opens a table: seconds after which bots fill its empty seats (null: never)")
    bot: StrictStr = Field("casual", max_length=32, description="the level of those bots (GET /api/bots)")
    bots_rated: StrictBool = Field(False, description="the game stays rated with bots at the table")


def setup_of(body: PlayBody, max_cycles: int | None) -> dict:
    """The game's setup options (options.setup_options' checks: player counts, teams, R22)."""
    create = CreateBody(players=body.players, ruleset=body.ruleset,
                        maelstrom=body.maelstrom if body.ruleset == "legendary" else None,
                        max_cycles=max_cycles)
    options = setup_options(create)
    options.pop("seed", None)
    return options


def mode_of(options: dict) -> dict:
    """A game's mode, and a label for people: "Legendary with Maelström, 4 players in teams" (in the
    current language)."""
    ruleset = options.get("ruleset") or "legendary"
    players = options.get("players")
    teams = bool(options.get("teams"))
    maelstrom = bool(options.get("maelstrom")) and ruleset != "classic"
    edition = _("Legendary with Maelström") if ruleset == "legendary" and maelstrom else \
        _(RULESET_LABELS[ruleset]) if ruleset in RULESET_LABELS else ruleset
    parts = [edition, _("{n} players in teams").format(n=players) if teams and players != 2
             else ngettext("{n} player", "{n} players", players or 0).format(n=players)]
    cycles = options.get("max_cycles")
    if cycles:
        parts.append(_("one cycle only") if cycles == 1 else _("at most {n} cycles").format(n=cycles))
    label = ", ".join(parts)  # in the request's language
    return {"ruleset": ruleset, "players": players, "teams": teams, "maelstrom": maelstrom,
            "label": label}


def kind_of(options: dict, speed: str, rated: bool) -> str:
    return json.dumps([options["ruleset"], bool(options.get("maelstrom")), options["players"],
                       bool(options.get("teams")), options.get("max_cycles"), speed, rated])


# --- the database side ---------------------------------------------------------------------------

def _row(engine, table_id: str):
    with engine.connect() as c:
        return c.execute(sa.select(tables).where(tables.c.id == table_id)).first()


def _swap(engine, row, **values) -> bool:
    """Compare-and-set: store `values` if the table is still at `row.version`."""
    with engine.begin() as c:
        return bool(c.execute(tables.update().where(tables.c.id == row.id, tables.c.version == row.version)
                              .values(version=row.version + 1, updated=time.time(), **values)).rowcount)


def _open(engine, values: dict) -> None:
    with engine.begin() as c:
        c.execute(tables.insert().values(**values))


def _waiting(engine, kind: str | None = None, limit: int = 50) -> list:
    q = sa.select(tables).where(tables.c.status == "waiting").order_by(tables.c.created).limit(limit)
    if kind is not None:
        q = q.where(tables.c.kind == kind)
    with engine.connect() as c:
        return c.execute(q).all()


def _due(engine, now: float) -> list:
    with engine.connect() as c:
        return [r[0] for r in c.execute(sa.select(tables.c.id).where(
            tables.c.status == "waiting", tables.c.fill_at.is_not(None), tables.c.fill_at <= now))]


def _unstick(engine, before: float) -> int:
    """Tables left `starting` by a process that stopped while making their game: waiting again."""
    with engine.begin() as c:
        return c.execute(tables.update().where(tables.c.status == "starting", tables.c.updated < before)
                         .values(status="waiting", version=tables.c.version + 1, updated=time.time())).rowcount


def _seated(row) -> list:
    return json.loads(row.seats)


def _at(row, account_id: int) -> bool:
    return any(s["account"] == account_id for s in _seated(row))


def _players(row) -> int:
    return json.loads(row.options)["players"]


# --- what a table looks like --------------------------------------------------------------------

def view(row, account_id: int | None, game_url: str | None = None) -> dict:
    seated = _seated(row)
    return {"table_id": row.id, "url": f"/play/{row.id}", "mode": mode_of(json.loads(row.options)),
            "speed": row.speed, "rated": row.rated, "bots_rated": row.bots_rated, "bot": row.bot,
            "players": _players(row), "seated": [{"name": s["name"]} for s in seated],
            "free": _players(row) - len(seated), "created": row.created, "fill_at": row.fill_at,
            "status": row.status, "game_id": row.game_id, "game_url": game_url,
            "mine": account_id is not None and any(s["account"] == account_id for s in seated),
            "creator": account_id is not None and row.creator == account_id}


async def _view_for(people, row, account_id: int | None) -> dict:
    """The table; once it started, my seat's link in its game."""
    url = None
    if row.status == "started" and row.game_id and account_id is not None:
        held = await people.db(holders_of, row.game_id)
        seat = next((i for i, h in held.items() if h["account_id"] == account_id), None)
        if seat is not None:
            try:
                s = await people.m.get(row.game_id)
                url = f"/game/{row.game_id}?token={s.seats[seat]['token']}"
            except Refused:
                url = None
    return view(row, account_id, url)


# --- sitting down, leaving, starting --------------------------------------------------------------

async def _sit(people, account: dict, row) -> object | None:
    """Take a free seat of this table (compare-and-set); the table as it is then, or None if it
    is full, gone or changed too often."""
    for _try in range(TRIES):
        if row is None or row.status != "waiting":
            return None
        seated = _seated(row)
        if _at(row, account["id"]):
            return row
        if len(seated) >= _players(row):
            return None
        seated.append({"account": account["id"], "name": account["name"], "at": time.time()})
        if await people.db(_swap, row, seats=json.dumps(seated)):
            row = await people.db(_row, row.id)
            if len(_seated(row)) >= _players(row):
                await start(people, row.id)
                row = await people.db(_row, row.id)
            return row
        row = await people.db(_row, row.id)
    raise Refused(503, N_("the table was changing too fast; try again"))


async def start(people, table_id: str, with_bots: bool = False) -> bool:
    """Make the table's game (full, or `with_bots` filling the empty seats): only the request
    that moves it from waiting to starting does; the table then points at the game."""
    row = await people.db(_row, table_id)
    if row is None or row.status != "waiting":
        return False
    seated = _seated(row)
    players = _players(row)
    if not seated or (len(seated) < players and not with_bots):
        return False
    if not await people.db(_swap, row, status="starting"):
        return False
    row = await people.db(_row, table_id)
    try:
        order = seated + [None] * (players - len(seated))
        secrets.SystemRandom().shuffle(order)
        specs, bots = [], 0
        for i, s in enumerate(order):
            if s is None:
                bots += 1
                specs.append({"kind": row.bot, "name": f"{row.bot.title()} bot {i + 1}"})
            else:
                specs.append({"kind": "human", "access": "invite", "name": s["name"]})
        settings = {"speed": row.speed, "bot": row.bot, "rated": row.rated and (not bots or row.bots_rated),
                    "bots_rated": row.bots_rated, "table": row.id}
        session = await people.m.create(json.loads(row.options), specs, settings)
        await people.db(hold_many, session.game_id,
                        {i: s["account"] for i, s in enumerate(order) if s is not None})
        people.notifier.started(session)  # the first to move in a turn-based game is told
    except Exception as e:
        people.failed(f"making the game of play-now table {table_id}", e)
        await people.db(_swap, row, status="waiting")
        raise
    await people.db(_swap, row, status="started", game_id=session.game_id)
    return True


async def fill_due(people) -> int:
    """Start, with bots, the tables whose creator's wait is over (the sweep)."""
    if await people.db(_unstick, time.time() - STUCK_AFTER):
        log.warning("play-now tables left half-started by a stopped server process wait again")
    n = 0
    for table_id in await people.db(_due, time.time()):
        try:
            n += await start(people, table_id, with_bots=True)
        except Exception as e:
            people.failed(f"filling play-now table {table_id} with bots", e)
    return n


async def leave(people, account_id: int, row) -> object | None:
    """Leave a waiting table: it closes when the last one leaves; a creator who leaves hands
    the table to the next one seated."""
    for _try in range(TRIES):
        if row is None or row.status != "waiting" or not _at(row, account_id):
            return row
        seated = [s for s in _seated(row) if s["account"] != account_id]
        values = {"seats": json.dumps(seated)}
        if not seated:
            values["status"] = "closed"
        elif row.creator == account_id:
            values["creator"] = seated[0]["account"]
        if await people.db(_swap, row, **values):
            return await people.db(_row, row.id)
        row = await people.db(_row, row.id)
    raise Refused(503, N_("the table was changing too fast; try again"))


async def leave_all(people, account_id: int) -> None:
    """A deleted account leaves every table it waits at."""
    for row in await people.db(_waiting, None, 10_000):
        if _at(row, account_id):
            await leave(people, account_id, row)


async def tables_of(people, account_id: int) -> list:
    """The waiting tables an account sits at ("My games")."""
    return [view(r, account_id) for r in await people.db(_waiting, None, 10_000) if _at(r, account_id)]


# --- the routes ----------------------------------------------------------------------------------------

@router.post("/api/play", responses=refusals(401, 422, 503, what=REFUSALS))
async def play_now(body: PlayBody, request: Request):
    """Sit at the oldest waiting table of this kind with a free seat (the one I wait at
    already, if any), or open one: `bots_after`, `bot` and `bots_rated` are the opener's
    choices. The game starts when the table is full (`status: "started"`, `game_url`)."""
    from ..agents import agent_names
    people = request.app.state.people
    account = auth.account_of(request)
    if body.bot not in agent_names():
        raise Refused(422, N_("unknown bot level {bot}; known: {known}"),
            bot=repr(body.bot), known=', '.join(agent_names()))
    options = setup_of(body, people.settings.play_now_max_cycles)
    kind = kind_of(options, body.speed, body.rated)
    candidates = await people.db(_waiting, kind)
    for row in sorted(candidates, key=lambda r: (not _at(r, account["id"]), r.created)):
        joined = await _sit(people, account, row)
        if joined is not None:
            return await _view_for(people, joined, account["id"])
    now = time.time()
    table_id = secrets.token_urlsafe(9)
    await people.db(_open, {
        "id": table_id, "created": now, "updated": now, "kind": kind, "options": json.dumps(options),
        "speed": body.speed, "rated": body.rated, "bots_rated": body.bots_rated, "bot": body.bot,
        "fill_at": None if body.bots_after is None else now + body.bots_after,
        "creator": account["id"], "status": "waiting", "game_id": None, "version": 0,
        "seats": json.dumps([{"account": account["id"], "name": account["name"], "at": now}])})
    if body.bots_after == 0:
        await start(people, table_id, with_bots=True)
    return await _view_for(people, await people.db(_row, table_id), account["id"])


@router.get("/api/play/tables", responses=refusals(422, what=REFUSALS))
async def waiting_tables(request: Request):
    """The tables waiting for players, oldest first."""
    people = request.app.state.people
    account = auth.account_of(request, required=False)
    me = account["id"] if account else None
    return {"tables": [view(r, me) for r in await people.db(_waiting, None, 100)]}


async def _table(request: Request, table_id: str, required: bool = True):
    people = request.app.state.people
    account = auth.account_of(request, required=required)
    row = await people.db(_row, table_id)
    if row is None:
        raise Refused(404, N_("no play-now table {table}"), table=repr(table_id))
    return people, account, row


@router.get("/api/play/tables/{table_id}", responses=refusals(404, what=REFUSALS))
async def get_table(table_id: str, request: Request):
    """A table; its game's link for my seat once it started. Asking also fills it with bots if
    its wait is over."""
    people, account, row = await _table(request, table_id, required=False)
    if row.status == "waiting" and row.fill_at is not None and row.fill_at <= time.time():
        await start(people, table_id, with_bots=True)
        row = await people.db(_row, table_id)
    return await _view_for(people, row, account["id"] if account else None)


@router.post("/api/play/tables/{table_id}/join", responses=refusals(401, 404, 409, 503, what=REFUSALS))
async def join_table(table_id: str, request: Request):
    """Sit at this table (its link was shared), whatever its kind."""
    people, account, row = await _table(request, table_id)
    joined = await _sit(people, account, row)
    if joined is None:
        raise Refused(409, N_("this table is full, started or closed"))
    return await _view_for(people, joined, account["id"])


@router.post("/api/play/tables/{table_id}/leave", responses=refusals(401, 404, 409, 503, what=REFUSALS))
async def leave_table(table_id: str, request: Request):
    """Leave a table before its game starts."""
    people, account, row = await _table(request, table_id)
    if row.status != "waiting":
        raise Refused(409, N_("the table's game has started: it is in My games") if row.status != "closed"
                      else N_("the table is closed"))
    if not _at(row, account["id"]):
        raise Refused(409, N_("you are not at this table"))
    row = await leave(people, account["id"], row)
    return view(row, account["id"])


@router.post("/api/play/tables/{table_id}/fill", responses=refusals(401, 403, 404, 409, what=REFUSALS))
async def fill_now(table_id: str, request: Request):
    """The creator starts the game now, bots in the empty seats."""
    people, account, row = await _table(request, table_id)
    if row.creator != account["id"] or not _at(row, account["id"]):
        raise Refused(403, N_("only the player who opened the table can fill it with bots"))
    if row.status != "waiting":
        raise Refused(409, N_("the table is not waiting for players any more"))
    await start(people, table_id, with_bots=True)
    return await _view_for(people, await people.db(_row, table_id), account["id"])
