"""The people who play, wired into the server: accounts, "My games", play now, ratings, chat.

    install(app, limits)        # in create_app; `cyclades serve` options fill PeopleSettings

Their tables are in people_schema.py, accounts' names and passwords in account_store.py; one
router per concern:

    auth.py       logins in cookies, CSRF, limits on logging in (the `Sessions` layer)
    accounts.py   sign up, log in and out, passwords, deleting an account, keeping a guest's seat
    holders.py    which account holds which seat
    mygames.py    "My games", invitations by name
    playnow.py    tables waiting for players
    ratings.py    places and ratings when a game ends; the leaderboard
    profiles.py   a player's profile
    chat.py       the table's talk
    notify.py     e-mail and Web Push: your turn, a game ended

and the pages: /login, /my, /play, /play/{table}, /players/{name}, /leaderboard, /account.

`People` (app.state.people) holds what they share: the database (the games' own, on threads
of its own so that logging in never waits behind a game's decisions), the password hasher (its
own threads: Argon2 takes some 50 ms of CPU), the limits, and the background work: the bots'
wait at play-now tables, the end of games whose process stopped before recording it (the
Manager tells `People.decided` of each decision: a game that ended is settled at once), and
the chat relay between processes.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields

from fastapi import APIRouter

from ..content.i18n import N_
from .errors import database_down

log = logging.getLogger("cyclades.server")

SETTLE_EVERY = 30.0   # seconds between looks for finished games not settled


@dataclass
class PeopleSettings:
    """What `cyclades serve` sets (its --help names each); security.ServerLimits carries them
    (in `extra["people"]`) to every server process."""
    session_days: float = 30.0            # a login lasts so long after it was last used
    secure_cookies: str = "auto"          # auto (HTTPS requests), always, never
    login_rate: str = "20/minute;200/hour"      # login attempts per client address
    login_failures: str = "5/5 minutes;30/day"  # failed logins per name (and wrong passwords per account)
    signup_rate: str = "5/hour;20/day"          # accounts created per client address
    chat_rate: str = "5/10 seconds;30/minute"   # messages per speaker per game
    chat_length: int = 300                # characters of one message
    table_sweep_seconds: float = 1.0      # how often the bots' waits at play-now tables are looked at
    play_now_max_cycles: int | None = None  # a cycle limit for play-now games (tests: short games)
    # Notifications (notify.py): the SMTP server (no host: no e-mail), the address links point to
    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_security: str = "starttls"       # starttls, ssl, none
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_from: str = "cyclades@localhost"
    public_url: str = "http://127.0.0.1:8000"
    digest_hour: int = 7                  # UTC hour of the daily digest
    notify_sweep_seconds: float = 5.0     # how often the outbox is looked at

    @classmethod
    def of(cls, limits) -> PeopleSettings:
        given = dict((getattr(limits, "extra", None) or {}).get("people") or {})
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in given.items() if k in known})


class People:
    """What the people's routes share (see the module's text)."""

    def __init__(self, manager, settings: PeopleSettings):
        from .account_store import Passwords
        from .chat import Relay
        from .security import Rate
        self.m = manager
        self.settings = settings
        self.engine = manager.store.engine
        self.pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cyclades-people")
        self.hash_pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="cyclades-argon2")
        self.passwords = Passwords()
        # The server's own per-client rates (security.Rate): 429 with Retry-After.
        self.login_attempts = Rate(settings.login_rate, N_(
            "too many login attempts from your address: at most {n} per {per}; try again in {wait} s"))
        self.login_failures = Rate(settings.login_failures, N_(
            "too many failed logins for this name: at most {n} per {per}; try again in {wait} s"))
        self.wrong_passwords = Rate(settings.login_failures, N_(
            "too many wrong passwords for this account: at most {n} per {per}; try again in {wait} s"))
        self.signups = Rate(settings.signup_rate, N_(
            "too many accounts created from your address: at most {n} per {per}; try again in {wait} s"))
        self.chat_rate = Rate(settings.chat_rate, N_(
            "too many messages from you at this table: at most {n} per {per}; try again in {wait} s"))
        self.relay = Relay(self)
        self.tasks: list = []
        self.settling: set = set()
        from .notify import Notifier
        self.notifier = Notifier(self)

    async def db(self, fn, *args, **kwargs):
        """fn(engine, *args, **kwargs) on the people's database threads."""
        return await asyncio.get_running_loop().run_in_executor(
            self.pool, lambda: fn(self.engine, *args, **kwargs))

    async def call(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.pool, lambda: fn(*args))

    async def hashing(self, fn, *args):
        return await asyncio.get_running_loop().run_in_executor(self.hash_pool, lambda: fn(*args))

    # --- lifecycle ---------------------------------------------------------------------------

    async def start(self):
        from .people_schema import create_tables
        await self.call(create_tables, self.engine)
        self.m.listeners.append(self.decided)
        await self.notifier.start()
        self.relay.start()
        loop = asyncio.get_running_loop()
        self.tasks = [loop.create_task(self._tables()), loop.create_task(self._settle_missed())]

    async def stop(self):
        # Stopped before the Manager (its bots may still decide): deaf to decisions from now on
        # (a game that ends meanwhile is recorded by the next start's sweep, `_settle_missed`).
        self.m.listeners.remove(self.decided)
        for t in self.tasks:
            t.cancel()
        for t in self.tasks:
            with contextlib.suppress(BaseException):
                await t
        await self.notifier.stop()
        await self.relay.stop()
        self.pool.shutdown(wait=True)
        self.hash_pool.shutdown(wait=True)

    # --- the end of a game ----------------------------------------------------------------------

    def decided(self, d):
        """A decision was stored (sessions.Manager's listeners hear a sessions.Decided): if it
        ended the game, record its end for the accounts at its table."""
        s = d.session
        if s.game.is_over and s.game_id not in self.settling:
            self.settling.add(s.game_id)
            asyncio.get_running_loop().create_task(self._settle(s))

    async def _settle(self, s):
        from .ratings import settle
        try:
            await settle(self, s)
        except Exception as e:
            self.failed(f"recording the end of game {s.game_id} (the sweep tries again)", e)
        finally:
            self.settling.discard(s.game_id)

    async def _settle_missed(self):
        from .ratings import unsettled_games
        while not self.m.closing:
            try:
                for gid in await self.db(unsettled_games):
                    if gid not in self.settling:
                        self.settling.add(gid)
                        await self._settle(await self.m.get(gid))
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.failed("looking for finished games to record", e)
            await asyncio.sleep(SETTLE_EVERY)

    async def _tables(self):
        from .playnow import fill_due
        while not self.m.closing:
            await asyncio.sleep(self.settings.table_sweep_seconds)
            try:
                await fill_due(self)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                self.failed("filling play-now tables with bots", e)

    def failed(self, what: str, e: Exception) -> None:
        """A background task failed: a database that does not answer is no bug (the sync's
        heartbeat says so once per outage; the task runs again); anything else is, traceback
        and all."""
        if not database_down(e):
            log.error("%s failed", what, exc_info=e)
        elif not (self.m.sync and self.m.sync.down):
            log.warning("%s failed: the database does not answer (%s); again soon", what, type(e).__name__)


# --- the pages ----------------------------------------------------------------------------------------

PAGES = {"/login": "login.html", "/my": "my.html", "/play": "play.html", "/play/{table_id}": "play.html",
         "/players/{name}": "profile.html", "/leaderboard": "leaderboard.html", "/account": "account.html"}


def _pages() -> APIRouter:
    from .pages import page

    def serving(name):
        async def serve():  # no parameters: the path's own ({name}, {table_id}) are the page's to read
            return page(name)
        return serve
    router = APIRouter()
    for path, name in PAGES.items():
        router.add_api_route(path, serving(name), methods=["GET"], include_in_schema=False)
    return router


# --- installing it ----------------------------------------------------------------------------------------

def install(app, limits) -> None:
    """Routes, the login layer and the People service (started inside the app's lifespan,
    after the Manager)."""
    from . import accounts, chat, mygames, notify, playnow, profiles, ratings
    from .auth import Sessions
    settings = PeopleSettings.of(limits)
    app.add_middleware(Sessions)
    for module in (accounts, mygames, playnow, ratings, profiles, chat, notify):
        app.include_router(module.router)
    app.include_router(_pages())

    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app_):
        async with inner(app_) as state:
            people = People(app_.state.manager, settings)
            await people.start()
            app_.state.people = people
            try:
                yield state
            finally:
                await people.stop()
    app.router.lifespan_context = lifespan
