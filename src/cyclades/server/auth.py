"""Who is asking: login sessions in cookies, CSRF protection, and limits on logging in.

- **A login** is a random token in the `cyclades_session` cookie (HttpOnly, SameSite=Lax,
  Path=/; Secure over HTTPS: `--secure-cookies auto`, the default, follows the request's
  scheme, which uvicorn takes from X-Forwarded-Proto behind a trusted proxy; `always` for a
  proxy that does not say). The database keeps only the token's SHA-256 (table `logins`), so a
  copy of the database opens no one's account. A login lasts `session_days` after it was last
  used; logging out ends it at once, changing the password ends every other one.
- **CSRF**: a request that changes anything (any method but GET, HEAD, OPTIONS) and carries a
  valid login cookie must also carry the login's own CSRF token in `X-CSRF-Token` (the
  `cyclades_csrf` cookie, which the site's pages read and other sites cannot), and must not
  come from a page of another site (its `Origin`, when the browser sends one, is this server's
  or an `--allowed-origin`). Logging in and signing up are refused from another site too (a
  page elsewhere could otherwise log a visitor into the attacker's account). Requests without
  the cookie (a guest's seat token, a script) are not concerned: nothing rides on them but
  what they carry.
- **Login limits** (security.Rate, the `limits` library, as for creating games): attempts per
  client address and failures per name, the same whether the name exists or not; sign-ups per
  address (people.py holds them). Counted in memory per server process.

`Sessions` is the ASGI layer that reads the cookie of every `/api/` request once and puts the
account (or why there is none) in `request.state`; routes ask `account_of(request)`.
"""
from __future__ import annotations

import hashlib
import json
import secrets
import time
from http.cookies import SimpleCookie

import sqlalchemy as sa
from starlette.datastructures import Headers

from ..content.i18n import N_, _
from .errors import Refused
from .people_schema import accounts, logins
from .security import origin_allowed

SESSION_COOKIE = "cyclades_session"
CSRF_COOKIE = "cyclades_csrf"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
REFRESH_SECONDS = 3600     # a login's expiry moves on when it is used, at most once an hour
# Refused from another site even without a login cookie (login CSRF).
ANONYMOUS_GUARDED = ("/api/account/login", "/api/account/signup")



def token_key(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


# --- the database side ---------------------------------------------------------------------------

def open_login(engine, account_id: int, days: float) -> tuple[str, str]:
    """A new login for an account: (the cookie's token, its CSRF token)."""
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    now = time.time()
    with engine.begin() as c:
        c.execute(logins.delete().where(logins.c.account_id == account_id, logins.c.expires < now))
        c.execute(logins.insert().values(key=token_key(token), account_id=account_id, csrf=csrf,
                                         created=now, seen=now, expires=now + days * 86400))
    return token, csrf


def find_login(engine, token: str, days: float) -> dict | None:
    """The account behind a login token: {"id", "name", "csrf", "key"}; {"expired": True} for a
    login that has run out (removed now); None for a token that was never one (or was ended)."""
    key = token_key(token)
    now = time.time()
    with engine.connect() as c:
        row = c.execute(sa.select(logins.c.account_id, logins.c.csrf, logins.c.seen, logins.c.expires,
                                  accounts.c.name, accounts.c.created)
                        .join(accounts, accounts.c.id == logins.c.account_id)
                        .where(logins.c.key == key, accounts.c.deleted.is_(None))).first()
    if row is None:
        return None
    if row.expires <= now:
        with engine.begin() as c:
            c.execute(logins.delete().where(logins.c.key == key))
        return {"expired": True}
    if now - row.seen > REFRESH_SECONDS:
        with engine.begin() as c:
            c.execute(logins.update().where(logins.c.key == key)
                      .values(seen=now, expires=now + days * 86400))
    return {"id": row.account_id, "name": row.name, "created": row.created, "csrf": row.csrf, "key": key}


def close_logins(engine, account_id: int, keep: str | None = None) -> int:
    """End the logins of an account (all, or all but the one whose key is `keep`)."""
    q = logins.delete().where(logins.c.account_id == account_id)
    if keep:
        q = q.where(logins.c.key != keep)
    with engine.begin() as c:
        return c.execute(q).rowcount


def close_login(engine, key: str) -> None:
    with engine.begin() as c:
        c.execute(logins.delete().where(logins.c.key == key))


# --- cookies -------------------------------------------------------------------------------------

def secure(request_scheme: str, mode: str) -> bool:
    return mode == "always" or (mode == "auto" and request_scheme in ("https", "wss"))


def set_login_cookies(response, token: str, csrf: str, days: float, is_secure: bool) -> None:
    age = int(days * 86400)
    response.set_cookie(SESSION_COOKIE, token, max_age=age, path="/", httponly=True,
                        samesite="lax", secure=is_secure)
    # Read by the site's own scripts (common.js) to send X-CSRF-Token; useless elsewhere.
    response.set_cookie(CSRF_COOKIE, csrf, max_age=age, path="/", httponly=False,
                        samesite="strict", secure=is_secure)


def clear_login_cookies(response, is_secure: bool) -> None:
    for name, http_only in ((SESSION_COOKIE, True), (CSRF_COOKIE, False)):
        response.delete_cookie(name, path="/", httponly=http_only, secure=is_secure,
                               samesite="lax" if http_only else "strict")


def _cleared_cookie_headers(is_secure: bool) -> list:
    flags = "; Secure" if is_secure else ""
    return [(b"set-cookie", f"{SESSION_COOKIE}=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax{flags}"
             .encode("latin-1")),
            (b"set-cookie", f"{CSRF_COOKIE}=; Max-Age=0; Path=/; SameSite=Strict{flags}".encode("latin-1"))]


def cookie(headers: Headers, name: str) -> str | None:
    raw = headers.get("cookie")
    if not raw:
        return None
    jar = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:  # a malformed Cookie header is no login
        return None
    m = jar.get(name)
    return m.value if m is not None and m.value else None


# --- who is asking ------------------------------------------------------------------------------

def account_of(request, required: bool = True) -> dict | None:
    """The account of the request's login cookie ({"id", "name", "csrf", "key"}), or None
    (`required=False`). Refused(401), saying why, when an account is required and there is none."""
    state = request.scope.get("state") or {}
    account = state.get("account")
    if account is None and required:
        problem = state.get("login_problem")
        if problem == "expired":
            raise Refused(401, N_("your login has expired: log in again"))
        if problem == "unknown":
            raise Refused(401, N_("this login is no longer valid (you logged out, or the password "
                               "was changed): log in again"))
        raise Refused(401, N_("you are not logged in: log in or create an account first"))
    return account


class Sessions:
    """The ASGI layer of logins (see the module's text): reads the login cookie of each
    `/api/` request, refuses a changing request that a page of another site made or that lacks
    the login's CSRF token (403), and clears the cookies of a login that is no more."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not scope.get("path", "").startswith("/api/"):
            return await self.app(scope, receive, send)
        people = getattr(scope["app"].state, "people", None) if "app" in scope else None
        headers = Headers(scope=scope)
        method = scope.get("method", "GET")
        state = scope.setdefault("state", {})
        changing = method not in SAFE_METHODS
        if (changing and not self._same_site(scope, headers, people)
                and (cookie(headers, SESSION_COOKIE) or scope["path"] in ANONYMOUS_GUARDED)):
            return await _refuse(send, 403, _("refused: this request came from a page of another "
                                              "site (cross-site request forgery)"))
        token = cookie(headers, SESSION_COOKIE)
        if token is None or people is None:
            return await self.app(scope, receive, send)
        found = await people.db(find_login, token, people.settings.session_days)
        is_secure = secure(scope.get("scheme", "http"), people.settings.secure_cookies)
        if found is None or found.get("expired"):
            state["login_problem"] = "expired" if found else "unknown"
            return await self.app(scope, receive, _clearing(send, is_secure))
        if changing:
            sent = headers.get(CSRF_HEADER) or ""
            if not sent:
                return await _refuse(send, 403, _("refused: a logged-in request that changes "
                                                  "something must carry the X-CSRF-Token header "
                                                  "(the cyclades_csrf cookie's value)"))
            if not secrets.compare_digest(sent.encode("utf-8", "surrogatepass"),
                                          found["csrf"].encode("utf-8")):
                return await _refuse(send, 403, _("refused: the X-CSRF-Token header is not this "
                                                  "login's (reload the page)"))
        state["account"] = found
        await self.app(scope, receive, send)

    @staticmethod
    def _same_site(scope, headers: Headers, people) -> bool:
        if headers.get("sec-fetch-site") == "cross-site":
            return False
        allowed = getattr(getattr(scope.get("app"), "state", None), "limits", None)
        allowed = tuple(getattr(allowed, "allowed_origins", ()) or ())
        scheme = "https" if scope.get("scheme") in ("https", "wss") else "http"
        return origin_allowed(headers.get("origin"), headers.get("host"), scheme,
                              tuple(a for a in allowed if a != "*"))


def _clearing(send, is_secure: bool):
    async def clear(message):
        if message["type"] == "http.response.start":
            message = {**message, "headers": list(message.get("headers", [])) +
                       _cleared_cookie_headers(is_secure)}
        await send(message)
    return clear


async def _refuse(send, status: int, detail: str):
    body = json.dumps({"detail": detail}).encode("utf-8")
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
