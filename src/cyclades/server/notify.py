"""Telling players: your turn in a turn-based game, your time ran out there (a bot decided),
a game you were in has ended; by e-mail and by Web Push, as each player chooses.

    GET  /api/account/notifications        the account's choices, and whether the server can send
    POST /api/account/notifications        {"email", "by_email", "digest", "by_push"}
    GET  /api/push/key                     the server's VAPID public key (applicationServerKey)
    POST /api/push/subscriptions           a browser's PushSubscription (its JSON)
    GET|POST /api/games/{id}/notify        a guest's address for their seat (by its token)
    DELETE /api/push/subscriptions         {"endpoint"}: that browser no longer
    GET|POST /notifications/unsubscribe?a=&k=   no more e-mails (the link in every mail)
    GET  /sw.js                            the service worker that shows the pushed messages

How it goes: the Manager tells `Notifier.decided` of every stored decision (sessions.Decided);
the process that stored it puts one row per message and channel in the outbox
(`notifications`), for the accounts holding the seats (holders.py). Each server process sends
what is due every `notify_sweep_seconds`: rows are claimed by an atomic UPDATE on their lease
(PostgreSQL: FOR UPDATE SKIP LOCKED), so each is sent once however many processes run, and a
row whose process stopped is sent by another once its lease lapses. A player who chose the
daily digest gets their e-mails' rows due at the next `digest_hour` (UTC), sent as one mail.

E-mail goes through the SMTP server of `cyclades serve --smtp-host ...` (none: no e-mail);
every mail has an unsubscribe link (and a List-Unsubscribe header), signed with a key of the
server's. Web Push: the server's VAPID key pair is made at its first start and kept in the
database (`server_keys`), so every process signs with the same; pywebpush encrypts and sends.
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import logging
import secrets
import time
from email.message import EmailMessage
from email.utils import parseaddr
from html import escape

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr

from ..content.i18n import DEFAULT, LANGUAGES, N_, _, current, language
from .auth import account_of
from .clocks import now, speed_of
from .errors import Refused, refusals
from .i18n import request_language
from .people_schema import accounts, metadata, seat_holders
from .tasks import stop_tasks

log = logging.getLogger("cyclades.server")

LEASE = 120.0            # seconds a process has to send what it claimed
BATCH = 200              # rows claimed at once
MAX_TRIES = 5            # a message that failed so often is given up (logged)
TURN_QUIET = 15 * 60.0   # seconds: a player told of their turn in a game is not told again so soon
RETRY_MAX = 300.0        # seconds: a failed message is tried again after 2, 4, 8 ... at most this

# The outbox: one row per message and channel (email | push).
notifications = sa.Table(
    "notifications", metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("account_id", sa.Integer, nullable=True),     # None: a guest's seat (its address)
    sa.Column("email", sa.String(254), nullable=True),      # a guest's address
    sa.Column("channel", sa.String(8), nullable=False),
    sa.Column("kind", sa.String(8), nullable=False),        # turn | timeout | over
    sa.Column("game_id", sa.String(64), nullable=False),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    sa.Column("due", sa.Float, nullable=False),
    sa.Column("sent", sa.Float, nullable=True),
    sa.Column("lease", sa.Float, nullable=True),
    sa.Column("tries", sa.Integer, nullable=False, server_default=sa.text("0")),
    sa.Column("lang", sa.String(8), nullable=True),          # a guest's language (an account's: its setting)
    sa.Index("notifications_due", "sent", "due"),
)

push_subscriptions = sa.Table(
    "push_subscriptions", metadata,
    sa.Column("endpoint", sa.String(1000), primary_key=True),
    sa.Column("account_id", sa.Integer, nullable=False, index=True),
    sa.Column("p256dh", sa.String(200), nullable=False),
    sa.Column("auth", sa.String(100), nullable=False),
    sa.Column("created", sa.Float, nullable=False),
)

# The addresses guests playing by link gave for their seat (`POST /api/games/{id}/notify`).
guest_addresses = sa.Table(
    "guest_addresses", metadata,
    sa.Column("game_id", sa.String(64), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("email", sa.String(254), nullable=False),
    sa.Column("since", sa.Float, nullable=False),
    sa.Column("lang", sa.String(8), nullable=True),          # the language they gave it in
)

# Keys the server makes once and every process shares: the VAPID key pair, the key that signs
# unsubscribe links.
server_keys = sa.Table(
    "server_keys", metadata,
    sa.Column("name", sa.String(32), primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

DEFAULTS = {"email": None, "by_email": False, "digest": False, "by_push": False}


# --- the database side --------------------------------------------------------------------------

def server_key(engine, name: str, make) -> str:
    """The stored key `name`, made by `make()` and stored the first time (the first process
    to store it wins; the others read it)."""
    with engine.connect() as c:
        row = c.execute(sa.select(server_keys.c.value).where(server_keys.c.name == name)).first()
    if row is not None:
        return row.value
    try:
        with engine.begin() as c:
            c.execute(server_keys.insert().values(name=name, value=make()))
    except sa.exc.IntegrityError:
        pass
    with engine.connect() as c:
        return c.execute(sa.select(server_keys.c.value).where(server_keys.c.name == name)).scalar_one()


def make_vapid_pem() -> str:
    from py_vapid import Vapid02
    v = Vapid02()
    v.generate_keys()
    return v.private_pem().decode()


def language_of(engine, account_id: int) -> str:
    """The language an account's messages are written in: its setting (the switch), else English."""
    with engine.connect() as c:
        text = c.execute(sa.select(accounts.c.settings).where(accounts.c.id == account_id)).scalar()
    lang = json.loads(text or "{}").get("language")
    return lang if lang in LANGUAGES else DEFAULT


def choices_of(engine, account_id: int) -> dict:
    with engine.connect() as c:
        text = c.execute(sa.select(accounts.c.settings).where(accounts.c.id == account_id)).scalar()
    settings = json.loads(text or "{}")
    return {**DEFAULTS, **(settings.get("notifications") or {})}


def set_choices(engine, account_id: int, choices: dict) -> None:
    with engine.begin() as c:
        text = c.execute(sa.select(accounts.c.settings).where(accounts.c.id == account_id)).scalar()
        settings = json.loads(text or "{}")
        settings["notifications"] = choices
        c.execute(accounts.update().where(accounts.c.id == account_id)
                  .values(settings=json.dumps(settings)))


def next_digest(at: float, hour: int) -> float:
    """The next `hour`:00 UTC after `at`."""
    day = 86400.0
    start = at - at % day + hour * 3600
    return start if start > at else start + day


def enqueue(engine, game_id: str, kind: str, seats: list, at: float, digest_hour: int) -> int:
    """Put in the outbox the messages of `kind` for the accounts holding `seats` of the game,
    on the channels each chose (and for the guests who gave an address); how many rows. A
    seat told of its turn in the last TURN_QUIET seconds is not told again (a player who
    plays on against bots would get a message at each of their decisions)."""
    with engine.begin() as c:
        if kind == "turn":
            told = {r.seat for r in c.execute(
                sa.select(notifications.c.seat).where(notifications.c.game_id == game_id,
                                                      notifications.c.kind == "turn",
                                                      notifications.c.created > at - TURN_QUIET))}
            seats = [x for x in seats if x not in told]
            if not seats:
                return 0
        holders = c.execute(sa.select(seat_holders.c.seat, seat_holders.c.account_id, accounts.c.settings)
                            .join(accounts, accounts.c.id == seat_holders.c.account_id)
                            .where(seat_holders.c.game_id == game_id, seat_holders.c.state == "playing",
                                   seat_holders.c.seat.in_(seats))).all()
        rows = []
        for h in holders:
            ch = {**DEFAULTS, **(json.loads(h.settings or "{}").get("notifications") or {})}
            row = {"account_id": h.account_id, "seat": h.seat, "kind": kind, "game_id": game_id,
                   "created": at}
            if ch["by_email"] and ch["email"]:
                rows.append({**row, "channel": "email",
                             "due": next_digest(at, digest_hour) if ch["digest"] else at})
            if ch["by_push"]:
                rows.append({**row, "channel": "push", "due": at})
        held = {h.seat for h in holders}
        for g in c.execute(sa.select(guest_addresses.c.seat, guest_addresses.c.email, guest_addresses.c.lang)
                           .where(guest_addresses.c.game_id == game_id, guest_addresses.c.seat.in_(seats))):
            if g.seat not in held:  # an account's own choices come first
                rows.append({"account_id": None, "email": g.email, "seat": g.seat, "kind": kind,
                             "game_id": game_id, "created": at, "channel": "email", "due": at,
                             "lang": g.lang})
        if rows:
            c.execute(notifications.insert(), rows)
    return len(rows)


def claim(engine, at: float, pg: bool) -> list:
    """Due rows, claimed by this call alone for LEASE seconds."""
    due = (sa.select(notifications.c.id)
           .where(notifications.c.sent.is_(None), notifications.c.due <= at,
                  sa.or_(notifications.c.lease.is_(None), notifications.c.lease < at))
           .order_by(notifications.c.id).limit(BATCH))
    if pg:
        due = due.with_for_update(skip_locked=True)
    stmt = (notifications.update()
            .where(notifications.c.id.in_(due.scalar_subquery()), notifications.c.sent.is_(None),
                   sa.or_(notifications.c.lease.is_(None), notifications.c.lease < at))
            .values(lease=at + LEASE, tries=notifications.c.tries + 1)
            .returning(notifications.c.id, notifications.c.account_id, notifications.c.email,
                       notifications.c.channel,
                       notifications.c.kind, notifications.c.game_id, notifications.c.seat,
                       notifications.c.tries, notifications.c.lang))
    with engine.begin() as c:
        return [r._asdict() for r in c.execute(stmt)]


def mark_sent(engine, ids: list, at: float) -> None:
    if ids:
        with engine.begin() as c:
            c.execute(notifications.update().where(notifications.c.id.in_(ids), notifications.c.sent.is_(None))
                      .values(sent=at))


def set_guest_address(engine, game_id: str, seat: int, email: str | None, lang: str | None = None) -> None:
    with engine.begin() as c:
        c.execute(guest_addresses.delete().where(guest_addresses.c.game_id == game_id,
                                                 guest_addresses.c.seat == seat))
        if email:
            c.execute(guest_addresses.insert().values(game_id=game_id, seat=seat, email=email, since=time.time(),
                                                      lang=lang))


def guest_address(engine, game_id: str, seat: int) -> str | None:
    with engine.connect() as c:
        return c.execute(sa.select(guest_addresses.c.email).where(guest_addresses.c.game_id == game_id,
                                                                  guest_addresses.c.seat == seat)).scalar()


def retry_later(engine, ids: list, at: float) -> None:
    """Rows whose sending failed: claimable again from `at` (sooner than their lease)."""
    if ids:
        with engine.begin() as c:
            c.execute(notifications.update().where(notifications.c.id.in_(ids)).values(lease=at))


def subscriptions_of(engine, account_id: int) -> list:
    with engine.connect() as c:
        return [r._asdict() for r in c.execute(
            sa.select(push_subscriptions.c.endpoint, push_subscriptions.c.p256dh, push_subscriptions.c.auth)
            .where(push_subscriptions.c.account_id == account_id))]


def subscribe(engine, account_id: int, endpoint: str, p256dh: str, auth: str) -> None:
    with engine.begin() as c:
        c.execute(push_subscriptions.delete().where(push_subscriptions.c.endpoint == endpoint))
        c.execute(push_subscriptions.insert().values(endpoint=endpoint, account_id=account_id,
                                                     p256dh=p256dh, auth=auth, created=time.time()))


def unsubscribe_push(engine, endpoint: str, account_id: int | None = None) -> int:
    q = push_subscriptions.delete().where(push_subscriptions.c.endpoint == endpoint)
    if account_id is not None:
        q = q.where(push_subscriptions.c.account_id == account_id)
    with engine.begin() as c:
        return c.execute(q).rowcount


# --- the messages ------------------------------------------------------------------------------------

# Catalog messages, written in the recipient's language (an account's setting, the language a
# guest gave their address in; else English) when the message is sent.
SUBJECTS = {"turn": N_("Cyclades: it is your turn"),
            "timeout": N_("Cyclades: your time ran out"),
            "over": N_("Cyclades: a game you played has ended")}
SENTENCES = {"turn": N_("It is your turn in a game of Cyclades."),
             "timeout": N_("Your time ran out in a game of Cyclades: a bot made that decision for you."),
             "over": N_("A game of Cyclades you played in has ended: see how it finished.")}


def subject_of(rows: list) -> str:
    return _("Cyclades: your games today") if len(rows) > 1 else _(SUBJECTS[rows[0]["kind"]])


def sentence_of(row: dict) -> str:
    return _(SENTENCES[row["kind"]])


class Notifier:
    """The listener of decisions and the sender of the outbox (see the module's text)."""

    def __init__(self, people):
        self.people = people
        self.settings = people.settings
        self.engine = people.engine
        self.pg = people.m.store.pg
        self.task: asyncio.Task | None = None
        self.vapid_pem: str | None = None
        self.vapid_public: str | None = None
        self.unsubscribe_key: bytes = b""
        self.sent = {"email": 0, "push": 0}
        self.pending: set = set()
        self.failed = 0

    async def start(self):
        self.vapid_pem = await self.people.call(server_key, self.engine, "vapid", make_vapid_pem)
        secret = await self.people.call(server_key, self.engine, "unsubscribe", lambda: secrets.token_hex(32))
        self.unsubscribe_key = secret.encode()
        self.vapid_public = _public_key(self.vapid_pem)
        self.people.m.listeners.append(self.decided)
        self.task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self):
        self.people.m.listeners.remove(self.decided)  # the Manager's bots may still decide
        await stop_tasks([self.task])

    # --- what to tell ---------------------------------------------------------------------------------

    def decided(self, d) -> None:
        """A decision was stored here: a game that ended tells every seat; a turn-based game
        that now waits on another person tells them."""
        s = d.session
        if s.game.is_over:
            self._later(self._enqueue(s.game_id, "over", list(range(len(s.seats)))))
            return
        if not _turn_based(s.settings):
            return
        if d.timed_out and d.decider is not None:
            self._later(self._enqueue(s.game_id, "timeout", [d.decider]))
        if d.waiting is not None and d.waiting != d.decider:
            self._later(self._enqueue(s.game_id, "turn", [d.waiting]))

    def started(self, s) -> None:
        """A game was made and its seats' accounts are known: in a turn-based game, the person
        who moves first is told."""
        waiting = s.waiting_seat(s.game)
        if waiting is not None and _turn_based(s.settings):
            self._later(self._enqueue(s.game_id, "turn", [waiting]))

    def _later(self, work) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self.pending.add(task)  # a task nothing refers to may be collected before it ran
        task.add_done_callback(self.pending.discard)

    async def _enqueue(self, game_id, kind, seats):
        try:
            n = await self.people.db(enqueue, game_id, kind, seats, now(), self.settings.digest_hour)
            log.info("game %s: %d message(s) of kind %s to send", game_id, n, kind)
        except Exception as e:
            self.people.failed(f"putting the messages of game {game_id} in the outbox", e)

    # --- sending -------------------------------------------------------------------------------------

    async def _run(self):
        while not self.people.m.closing:
            await asyncio.sleep(self.settings.notify_sweep_seconds)
            try:
                await self.send_due()
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.people.failed("sending notifications", e)

    async def send_due(self) -> int:
        """Send what is due (claimed here alone); how many rows were claimed."""
        rows = await self.people.db(claim, now(), self.pg)
        by_account: dict = {}
        for r in rows:
            who = r["account_id"] if r["account_id"] is not None else f"{r['game_id']}:{r['seat']}"
            by_account.setdefault((who, r["channel"]), []).append(r)
        for (account_id, channel), group in by_account.items():
            try:
                if isinstance(account_id, str):
                    done = await self._send_guest(group)
                else:
                    done = await self._send(account_id, channel, group)
            except Exception as e:
                self.failed += 1
                given_up = [r["id"] for r in group if r["tries"] >= MAX_TRIES]
                log.warning("sending %d %s message(s) to account %s failed (%s: %s)%s", len(group), channel,
                            account_id, type(e).__name__, e,
                            "; given up" if given_up else "; tried again later")
                await self.people.db(mark_sent, given_up, now())
                tries = max(r["tries"] for r in group)
                await self.people.db(retry_later, [r["id"] for r in group if r["tries"] < MAX_TRIES],
                                     now() + min(RETRY_MAX, 2.0 ** tries))
                continue
            await self.people.db(mark_sent, [r["id"] for r in group], now())
            self.sent[channel] += done
        return len(rows)

    async def _send(self, account_id: int, channel: str, rows: list) -> int:
        choices = await self.people.db(choices_of, account_id)
        lang = await self.people.db(language_of, account_id)
        links = [await self._link(r) for r in rows]
        if channel == "email":
            if not (choices["by_email"] and choices["email"] and self.settings.smtp_host):
                return 0
            off = self.unsubscribe_link(account_id, lang=lang)
            # the digest: one mail with all; else one each, its subject saying what it is
            batches = [(rows, links)] if choices["digest"] else [([r], [x]) for r, x in zip(rows, links)]
            for batch, batch_links in batches:
                await self.people.call(self._smtp, self.mail(choices["email"], batch, batch_links, off, lang))
                await self._sent(batch)  # a later failure sends only what is left again
            return len(batches)
        if not choices["by_push"]:
            return 0
        subs = await self.people.db(subscriptions_of, account_id)
        n = 0
        for r, link in zip(rows, links):
            with language(lang):
                data = json.dumps({"title": subject_of([r]), "body": sentence_of(r), "url": link})
            for sub in subs:
                n += await self.people.call(self._push, sub, data)
            await self._sent([r])
        return n

    async def _sent(self, rows: list) -> None:
        await self.people.db(mark_sent, [r["id"] for r in rows], now())

    async def _send_guest(self, rows: list) -> int:
        """A guest's e-mail, to the address they gave for their seat (if they still want it)."""
        r = rows[0]
        if not self.settings.smtp_host or not r["email"]:
            return 0
        lang = r.get("lang") if r.get("lang") in LANGUAGES else DEFAULT
        off = self.unsubscribe_link(None, r["game_id"], r["seat"], lang=lang)
        for x in rows:
            await self.people.call(self._smtp, self.mail(r["email"], [x], [await self._link(x)], off, lang))
            await self._sent([x])
        return len(rows)

    async def _link(self, row: dict) -> str:
        """The address that opens the game at the seat (its secret link), on this server."""
        path = f"/game/{row['game_id']}"
        try:
            s = await self.people.m.get(row["game_id"])
            token = s.seats[row["seat"]].get("token") if row["seat"] < len(s.seats) else None
            if token and row["kind"] != "over":
                path += f"?token={token}"
        except Refused:
            pass
        return self.settings.public_url.rstrip("/") + path

    def unsubscribe_link(self, account_id: int | None, game_id: str = "", seat: int = 0,
                         lang: str = DEFAULT) -> str:
        """An account's link, or (`account_id` None) a guest's for the seat of one game; its page
        in the mail's language."""
        base = self.settings.public_url.rstrip("/") + "/notifications/unsubscribe?"
        spoken = "" if lang == DEFAULT else f"&lang={lang}"
        if account_id is not None:
            return base + f"a={account_id}&k={self.unsubscribe_sign(f'{account_id}')}{spoken}"
        return base + f"g={game_id}&s={seat}&k={self.unsubscribe_sign(f'guest:{game_id}:{seat}')}{spoken}"

    def unsubscribe_sign(self, who: str) -> str:
        mac = hmac.new(self.unsubscribe_key, f"unsubscribe:{who}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(mac.digest()[:18]).decode()

    def mail(self, to: str, rows: list, links: list, off: str, lang: str = DEFAULT) -> EmailMessage:
        """The e-mail of these rows, in `lang`."""
        with language(lang):
            return self._mail(to, rows, links, off)

    def _mail(self, to: str, rows: list, links: list, off: str) -> EmailMessage:
        m = EmailMessage()
        m["Subject"] = subject_of(rows)
        m["From"] = self.settings.smtp_from
        m["To"] = to
        m["List-Unsubscribe"] = f"<{off}>"
        m["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        body = [f"{sentence_of(r)}\n{link}\n" for r, link in zip(rows, links)]
        body.append(_("You get these e-mails because you asked for them.") + "\n"
                    + _("To get no more of them, open this link: {link}").format(link=off) + "\n")
        m.set_content("\n".join(body))
        return m

    def _smtp(self, message: EmailMessage) -> None:
        import smtplib
        st = self.settings
        if st.smtp_security == "ssl":
            server: smtplib.SMTP = smtplib.SMTP_SSL(st.smtp_host, st.smtp_port, timeout=30)
        else:
            server = smtplib.SMTP(st.smtp_host, st.smtp_port, timeout=30)
        with server:
            if st.smtp_security == "starttls":
                server.starttls()
            if st.smtp_user:
                server.login(st.smtp_user, st.smtp_password or "")
            server.send_message(message)

    def _push(self, sub: dict, data: str) -> int:
        from py_vapid import Vapid02
        from pywebpush import WebPushException, webpush
        info = {"endpoint": sub["endpoint"], "keys": {"p256dh": sub["p256dh"], "auth": sub["auth"]}}
        try:
            webpush(info, data, vapid_private_key=Vapid02.from_pem(self.vapid_pem.encode()),
                    vapid_claims={"sub": f"mailto:{parseaddr(self.settings.smtp_from)[1]}"},  # the address alone
                    ttl=24 * 3600, timeout=30)
        except WebPushException as e:
            status = getattr(e.response, "status_code", None)
            if status in (404, 410):  # the browser dropped the subscription: forget it
                unsubscribe_push(self.engine, sub["endpoint"])
                return 0
            raise
        return 1


def _turn_based(settings: dict) -> bool:
    speed = speed_of(settings)
    return bool(speed and speed.turn_based)


def _public_key(pem: str) -> str:
    from cryptography.hazmat.primitives import serialization
    from py_vapid import Vapid02, b64urlencode
    v = Vapid02.from_pem(pem.encode())
    raw = v.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return b64urlencode(raw)


# --- the routes ---------------------------------------------------------------------------------------

router = APIRouter()
WHAT = {401: "not logged in", 422: "not an e-mail address, or not a push subscription",
        403: "a token that is not a seat of this game"}


def notifier_of(request) -> Notifier:
    return request.app.state.people.notifier


class Choices(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: StrictStr | None = Field(None, max_length=254, description="where the e-mails go")
    by_email: StrictBool = Field(False, description="e-mails: your turn, a game ended")
    digest: StrictBool = Field(False, description="one e-mail a day with all of them, instead")
    by_push: StrictBool = Field(False, description="Web Push messages to the browsers subscribed")


class Subscription(BaseModel):
    model_config = ConfigDict(extra="ignore")   # a PushSubscription's JSON (expirationTime too)
    endpoint: StrictStr = Field(max_length=1000)
    keys: dict[str, StrictStr]


class Endpoint(BaseModel):
    model_config = ConfigDict(extra="forbid")
    endpoint: StrictStr = Field(max_length=1000)


@router.get("/api/account/notifications", responses=refusals(401, what=WHAT))
async def get_choices(request: Request):
    """What the player chose, and what this server can send."""
    me = account_of(request)
    n = notifier_of(request)
    choices = await n.people.db(choices_of, me["id"])
    subs = await n.people.db(subscriptions_of, me["id"])
    return {**choices, "email_available": bool(n.settings.smtp_host), "push_subscriptions": len(subs),
            "digest_hour": n.settings.digest_hour}


@router.post("/api/account/notifications", responses=refusals(401, 422, what=WHAT))
async def post_choices(body: Choices, request: Request):
    me = account_of(request)
    email = check_address(body.email)
    if body.by_email and email is None:
        raise Refused(422, N_("give an e-mail address to get e-mails"))
    choices = {"email": email, "by_email": body.by_email, "digest": body.digest, "by_push": body.by_push}
    n = notifier_of(request)
    await n.people.db(set_choices, me["id"], choices)
    return choices


@router.get("/api/push/key")
async def push_key(request: Request):
    """The server's VAPID public key: a page's pushManager.subscribe applicationServerKey."""
    return {"key": notifier_of(request).vapid_public}


@router.post("/api/push/subscriptions", status_code=201, responses=refusals(401, 422, what=WHAT))
async def add_subscription(body: Subscription, request: Request):
    me = account_of(request)
    if not body.endpoint.startswith(("https://", "http://")):
        raise Refused(422, N_("a push endpoint is an https:// address"))
    p256dh, auth = body.keys.get("p256dh"), body.keys.get("auth")
    if not p256dh or not auth or len(p256dh) > 200 or len(auth) > 100:
        raise Refused(422, N_("a push subscription has keys p256dh and auth"))
    n = notifier_of(request)
    await n.people.db(subscribe, me["id"], body.endpoint, p256dh, auth)
    return {"subscribed": True}


@router.delete("/api/push/subscriptions", responses=refusals(401, what=WHAT))
async def drop_subscription(body: Endpoint, request: Request):
    me = account_of(request)
    n = notifier_of(request)
    return {"removed": await n.people.db(unsubscribe_push, body.endpoint, me["id"])}


UNSUBSCRIBED = ("<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
                "content=\"width=device-width, initial-scale=1\"><title>Cyclades</title>"
                "<link rel=\"stylesheet\" href=\"/static/style.css\"></head><body><main class=\"panel\">"
                "<p>{said}</p><p><a href=\"/account\">{settings}</a></p></main></body></html>")


def unsubscribed(said: str, status_code: int = 200) -> HTMLResponse:
    """The unsubscribe link's page, in the request's language (the link carries the mail's)."""
    lang = current()
    html = UNSUBSCRIBED.format(lang=lang if lang in LANGUAGES else DEFAULT, said=escape(_(said), quote=False),
                               settings=escape(_("Your notification settings"), quote=False))
    return HTMLResponse(html, status_code=status_code, headers={"content-language": lang})


@router.api_route("/notifications/unsubscribe", methods=["GET", "POST"], include_in_schema=False)
async def unsubscribe(request: Request, a: int = 0, g: str = "", s: int = 0, k: str = ""):
    """The link of every e-mail: no more e-mails for that account (`a`), or for a guest's seat
    `s` of game `g` (no login needed: the link is signed)."""
    n = notifier_of(request)
    who = f"guest:{g}:{s}" if g else f"{a}"
    if not hmac.compare_digest(n.unsubscribe_sign(who), k):
        return unsubscribed(N_("This link is not right: open it from the e-mail as it came."), 400)
    if g:
        await n.people.db(set_guest_address, g, s, None)
        return unsubscribed(N_("You will get no more e-mails about this game."))
    choices = await n.people.db(choices_of, a)
    choices.update(by_email=False, digest=False)
    await n.people.db(set_choices, a, choices)
    return unsubscribed(N_("You will get no more e-mails from this Cyclades server."))


class GuestAddress(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: StrictStr = Field(description="the seat's token (its secret link)")
    email: StrictStr | None = Field(None, max_length=254, description="null: no more e-mails")


@router.post("/api/games/{game_id}/notify", responses=refusals(403, 404, 422, what=WHAT))
async def guest_notify(game_id: str, body: GuestAddress, request: Request):
    """A player by link gives an address for their seat: they are told by e-mail when it is
    their turn, when their time ran out, when the game ended (null: no more)."""
    from .sessions import manager_of
    s = await manager_of(request).get(game_id)
    seat = await s.seat_for(body.token)
    if seat is None:
        raise Refused(403, N_("a seat's token is needed"))
    email = check_address(body.email)
    n = notifier_of(request)
    await n.people.db(set_guest_address, game_id, seat, email, request_language(request))
    return {"game_id": game_id, "seat": seat, "email": email,
            "email_available": bool(n.settings.smtp_host)}


@router.get("/api/games/{game_id}/notify", responses=refusals(403, 404, what=WHAT))
async def guest_notify_get(game_id: str, request: Request, token: str = ""):
    from .sessions import manager_of
    s = await manager_of(request).get(game_id)
    seat = await s.seat_for(token)
    if seat is None:
        raise Refused(403, N_("a seat's token is needed"))
    n = notifier_of(request)
    return {"game_id": game_id, "seat": seat, "email": await n.people.db(guest_address, game_id, seat),
            "email_available": bool(n.settings.smtp_host)}


def check_address(email: str | None) -> str | None:
    """The address, trimmed, or None; Refused(422) for what is no address."""
    email = (email or "").strip() or None
    if email is not None and ("@" not in email or any(ch.isspace() for ch in email)
                              or email.startswith("@") or email.endswith("@")):
        raise Refused(422, N_("this is not an e-mail address: it should look like name@example.org"))
    return email


SERVICE_WORKER = """// Shows the server's Web Push messages; a click opens the game.
self.addEventListener("push", (event) => {
  let m = {};
  try { m = event.data ? event.data.json() : {}; } catch (e) { m = { body: event.data && event.data.text() }; }
  event.waitUntil(self.registration.showNotification(m.title || "Cyclades", {
    body: m.body || "", data: { url: m.url || "/" }, tag: m.url || "cyclades",
  }));
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(clients.openWindow(event.notification.data.url));
});
"""


@router.get("/sw.js", include_in_schema=False)
async def service_worker():
    return Response(SERVICE_WORKER, media_type="text/javascript",
                    headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"})
