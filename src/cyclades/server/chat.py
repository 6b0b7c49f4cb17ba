"""Talk at the table: the players' line and the spectators' line, plain text.

    GET  /api/games/{id}/chat?token=&after=     the messages I may read (after id `after`)
    POST /api/games/{id}/chat                   {"token"?, "text"}: say something
    POST /api/games/{id}/chat/mute              {"token"?, "author", "muted"}: mute someone

- **Who speaks**: a player (a seat's token, or the account holding the seat) on the players'
  line; a logged-in spectator on the spectators' line. A guest spectator only reads.
- **Who reads**: everyone reads the players' line; the spectators' line is read by the
  spectators while the game goes on (no advice reaches the players) and by everyone after it.
  A message keeps the step of the game it was said at, so the replay shows it in its place.
- **Plain text**: a message is one line of at most `chat_length` characters; markup (`<b>`,
  `<img ...>`) is refused (422); the pages show the text as text, never as HTML.
- **Limits**: `chat_rate` messages per speaker per game (429 with Retry-After), counted per
  server process.
- **Mute**: anyone speaking at the table may mute another speaker there; their messages no
  longer reach them (the answer leaves them out).
- **Live**: the game's WebSocket connections get `{"type": "chat", "id", "line"}` for a new
  message and ask for it (each gets what it may read). Other server processes hear of it by
  PostgreSQL NOTIFY on `cyclades_chat` (or, on SQLite, by looking every few seconds while
  another process is alive), and tell their own connections.
"""
from __future__ import annotations

import asyncio
import logging
import re
import time
import unicodedata
from types import SimpleNamespace

import sqlalchemy as sa
from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from ..content.i18n import N_
from . import auth
from .account_store import display_name
from .errors import Refused, refusals
from .holders import holders_of
from .people_schema import accounts, chat, chat_mutes
from .sync import POLL
from .tasks import stop_tasks

log = logging.getLogger("cyclades.server")

NOTIFY_CHANNEL = "cyclades_chat"
MARKUP = re.compile(r"<\s*/?\s*[A-Za-z!?][^<>]*>")
PAGE = 500           # messages in one answer


router = APIRouter()

# What the routes' refusals mean (the OpenAPI schema's words).
REFUSALS = {401: "a guest spectator cannot talk: log in", 403: "a token that is no seat of this game",
           404: "no such game", 409: "a lesson: no table talk", 422: "an empty or too long message, or markup",
           429: "too many messages (Retry-After)"}


def clean(text: str, limit: int) -> str:
    """One line of plain text, or Refused(422) saying what is wrong with it."""
    text = "".join(" " if unicodedata.category(ch) in ("Cc", "Zl", "Zp") else ch for ch in text)
    text = " ".join(text.split())
    if not text:
        raise Refused(422, N_("an empty message: write something"))
    if len(text) > limit:
        raise Refused(422, N_("a message has at most {limit} characters ({given} given)"),
            limit=limit, given=len(text))
    if MARKUP.search(text):
        raise Refused(422, N_("HTML is not allowed in chat: write plain text"))
    return text


# --- the database side -------------------------------------------------------------------------------

def _say(engine, owner, game_id: str, line: str, seat, account_id, text: str, step: int) -> dict:
    now = time.time()
    with engine.begin() as c:
        r = c.execute(chat.insert().values(game_id=game_id, line=line, seat=seat, account_id=account_id,
                                           text=text, at=now, step=step))
        mid = r.inserted_primary_key[0]
        if engine.dialect.name == "postgresql":
            c.execute(sa.text("SELECT pg_notify(:channel, :payload)"),
                      {"channel": NOTIFY_CHANNEL, "payload": f"{game_id} {mid} {owner or '-'}"})
    return {"id": mid, "at": now}


def _read(engine, game_id: str, after: int, lines: tuple, muted: set) -> list:
    q = (sa.select(chat, accounts.c.name.label("account_name"))
         .select_from(chat.outerjoin(accounts, accounts.c.id == chat.c.account_id))
         .where(chat.c.game_id == game_id, chat.c.id > after, chat.c.line.in_(lines))
         .order_by(chat.c.id).limit(PAGE))
    with engine.connect() as c:
        rows = c.execute(q).all()
    return [r for r in rows if _author(r) not in muted]


def _muted(engine, game_id: str, muter: str) -> set:
    with engine.connect() as c:
        return {r[0] for r in c.execute(sa.select(chat_mutes.c.muted).where(chat_mutes.c.game_id == game_id,
                                                                       chat_mutes.c.muter == muter))}


def _mute(engine, game_id: str, muter: str, muted: str, on: bool) -> None:
    with engine.begin() as c:
        c.execute(chat_mutes.delete().where(chat_mutes.c.game_id == game_id, chat_mutes.c.muter == muter,
                                       chat_mutes.c.muted == muted))
        if on:
            c.execute(chat_mutes.insert().values(game_id=game_id, muter=muter, muted=muted))


def _said_since(engine, ids: list, since: float) -> dict:
    """{game_id: the id of its last message} of these games, for those with a message said
    since `since`."""
    with engine.connect() as c:
        return dict(c.execute(sa.select(chat.c.game_id, sa.func.max(chat.c.id))
                              .where(chat.c.game_id.in_(ids), chat.c.at >= since)
                              .group_by(chat.c.game_id)).all())


def _author(row) -> str:
    return f"seat:{row.seat}" if row.line == "players" else f"account:{row.account_id}"


# --- who is speaking ---------------------------------------------------------------------------------------

async def speaker(people, s, request: Request, token: str | None) -> dict:
    """Who asks at this table: {"key", "seat", "account"}: a player by the seat's token or by the
    account holding a seat, a spectator by their account; key None for a guest spectator."""
    account = auth.account_of(request, required=False)
    if token:
        seat = await s.seat_for(token)   # 403 for a token that is no seat here
        return {"key": f"seat:{seat}", "seat": seat, "account": account}
    if account is not None:
        held = await people.db(holders_of, s.game_id)
        seat = next((i for i, h in held.items() if h["account_id"] == account["id"] and h["state"] == "playing"),
                    None)
        if seat is not None:
            return {"key": f"seat:{seat}", "seat": seat, "account": account}
        return {"key": f"account:{account['id']}", "seat": None, "account": account}
    return {"key": None, "seat": None, "account": None}


def readable(s, who: dict) -> tuple:
    """The lines one may read: the spectators' one is hidden from the players until the end."""
    if who["seat"] is not None and not s.game.is_over:
        return ("players",)
    return ("players", "spectators")


def message(s, row) -> dict:
    if row.line == "players":
        seat = s.seats[row.seat] if 0 <= row.seat < len(s.seats) else {}
        name = seat.get("name") or f"Player {row.seat + 1}"
    else:
        name = display_name(row.account_name)
    return {"id": row.id, "line": row.line, "author": _author(row), "seat": row.seat, "name": name,
            "text": row.text, "at": row.at, "step": row.step}


def _lesson(s) -> bool:
    return bool((s.settings or {}).get("tutorial"))


def tell(s, message_id: int, line: str) -> None:
    """The game's connections in this process: a new message to ask for."""
    for conn in s.pages:
        conn.queue.put_nowait({"type": "chat", "id": message_id, "line": line})


# --- the routes ----------------------------------------------------------------------------------------------


class SayBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: StrictStr | None = Field(None, description="a player's seat token (or log in)")
    text: StrictStr = Field(max_length=4000)


class MuteBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: StrictStr | None = None
    author: StrictStr = Field(max_length=32, description='a message\'s "author": "seat:2", "account:7"')
    muted: StrictBool = True


@router.get("/api/games/{game_id}/chat", responses=refusals(403, 404, what=REFUSALS))
async def read_chat(game_id: str, request: Request, token: str | None = None,
                    after: int = Query(0, ge=0)):
    """The messages after id `after` that I may read, oldest first (at most 500), without those
    of the people I muted; `me`: my author key here (null: a guest spectator, who only reads)."""
    people = request.app.state.people
    s = await people.m.get(game_id)
    who = await speaker(people, s, request, token)
    lines = readable(s, who)
    muted = await people.db(_muted, game_id, who["key"]) if who["key"] else set()
    rows = await people.db(_read, game_id, after, lines, muted)
    return {"game_id": game_id, "lesson": _lesson(s),
            "me": who["key"], "line": "players" if who["seat"] is not None else "spectators",
            "lines": list(lines), "muted": sorted(muted), "messages": [message(s, r) for r in rows],
            "max_length": people.settings.chat_length}


@router.post("/api/games/{game_id}/chat", status_code=201,
             responses=refusals(401, 403, 404, 409, 422, 429, what=REFUSALS))
async def say(game_id: str, body: SayBody, request: Request):
    """Say something: a player on the players' line, a logged-in spectator on the spectators'."""
    people = request.app.state.people
    s = await people.m.get(game_id)
    if _lesson(s):
        raise Refused(409, N_("a lesson has no table talk: its other players are bots"))
    who = await speaker(people, s, request, body.token)
    if who["key"] is None:
        raise Refused(401, N_("log in to talk with the other spectators (guests may read)"))
    text = clean(body.text, people.settings.chat_length)
    rate_key = f"{game_id} {who['key']}"
    people.chat_rate.check(rate_key)
    line = "players" if who["seat"] is not None else "spectators"
    account_id = who["account"]["id"] if line == "spectators" else None
    said = await people.db(_say, people.m.store.owner, game_id, line, who["seat"], account_id, text,
                           s.decisions)
    tell(s, said["id"], line)
    return message(s, SimpleNamespace(id=said["id"], line=line, seat=who["seat"], account_id=account_id,
                                      text=text, at=said["at"], step=s.decisions,
                                      account_name=who["account"]["name"] if who["account"] else None))


@router.post("/api/games/{game_id}/chat/mute", responses=refusals(401, 403, 404, 422, what=REFUSALS))
async def mute(game_id: str, body: MuteBody, request: Request):
    """Mute (or unmute, `muted: false`) a speaker at this table, for me."""
    people = request.app.state.people
    s = await people.m.get(game_id)
    who = await speaker(people, s, request, body.token)
    if who["key"] is None:
        raise Refused(401, N_("log in, or play at this table, to mute someone"))
    if not re.fullmatch(r"(seat|account):\d{1,9}", body.author):
        raise Refused(422, N_('an author is "seat:N" or "account:N", as the messages name them'))
    if body.author == who["key"]:
        raise Refused(422, N_("you cannot mute yourself"))
    await people.db(_mute, game_id, who["key"], body.author, body.muted)
    return {"game_id": game_id, "muted": sorted(await people.db(_muted, game_id, who["key"]))}


# --- other server processes --------------------------------------------------------------------------------

class Relay:
    """Tells this process's connections of the messages said through other processes."""

    def __init__(self, people):
        self.people = people
        self.task = None

    def start(self):
        loop = asyncio.get_running_loop()
        store = self.people.m.store
        self.task = loop.create_task(self._listen() if store.pg else self._poll())

    async def stop(self):
        await stop_tasks([self.task])

    def _tell(self, game_id: str, message_id: int):
        s = self.people.m.sessions.get(game_id)
        if s is not None and s.pages:
            tell(s, message_id, "")

    async def _listen(self):
        import psycopg
        m = self.people.m
        url = sa.engine.make_url(m.store.url).set(drivername="postgresql")
        delay = 0.5
        while not m.closing:
            try:
                conn = await psycopg.AsyncConnection.connect(url.render_as_string(hide_password=False),
                                                             autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                    delay = 0.5
                    async for n in conn.notifies():
                        game_id, mid, owner = (n.payload.split(" ") + ["", ""])[:3]
                        if mid.isdigit() and owner != m.store.owner:
                            self._tell(game_id, int(mid))
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("listening for chat on PostgreSQL failed (%s); again in %g s",
                            type(e).__name__, delay)
            await asyncio.sleep(delay)
            delay = min(10.0, delay * 2)

    async def _poll(self):
        m = self.people.m
        since = time.time()
        while not m.closing:
            await asyncio.sleep(max(POLL, 1.0))
            if not (m.sync and m.sync.peers):
                since = time.time()
                continue
            held = [gid for gid, s in list(m.sessions.items()) if s.pages]
            now = time.time()
            try:
                said = await self.people.db(_said_since, held, since - 1.0) if held else {}
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.people.failed("looking for new chat messages", e)
                continue
            since = now  # told twice is harmless: a client asks only for what it has not read
            for gid, mid in said.items():
                self._tell(gid, mid)
