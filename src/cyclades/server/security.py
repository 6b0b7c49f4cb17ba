"""Hardening of the game server: what a client may send, what every answer carries.

    install(app, ServerLimits())        # in create_app; `cyclades serve` options set the limits

- Request bodies over `max_body` bytes (`max_upload` for record uploads) are refused with 413
  before they are read: by their Content-Length, or by counting the bytes as they stream in
  (chunked bodies too), so an oversized body never sits in memory.
- A body that is not UTF-8 or whose JSON is nested deeper than `MAX_JSON_DEPTH` is refused with
  422 and a message (FastAPI would answer 400, or fail deep inside the parser).
- A body must arrive within `body_timeout` seconds of its request's headers (408 otherwise, the
  connection closed): a client that sends a byte every few seconds holds nothing for long.
  (Headers: server/connections.py.)
- A POST to the API with a body must say it is JSON (`Content-Type: application/json`): 415
  otherwise. Forms and `text/plain` bodies are what another site's page can make a visitor's
  browser send without asking; JSON it cannot (the browser asks first, and this server never
  allows it).
- The `Host` header must be one of `allowed_hosts` (when set, as `cyclades serve` does): an IP
  address, `localhost`, or a configured name (400 otherwise). A site that rebinds its name to
  127.0.0.1 (DNS rebinding) cannot reach a server on this machine through the visitor's browser.
- Per client address, with the `limits` library (429 with Retry-After): game creation
  (`POST /api/games`, `POST /api/tutorial`: a rate, `game_rate`, and a number of unfinished
  games, `max_open_games`), seats taken from the lobby (`POST /api/games/{id}/join`,
  `join_rate`) and records replayed from uploads (`POST /api/replays`, `upload_rate`: counted
  by replays.py, for the records it has not replayed already).
- A database that does not answer gives 503 with Retry-After (errors.database_down), never 500.
- WebSocket connections from a browser page of another site are refused (close code 1008):
  the Origin must be this server's host or one of `allowed_origins`. Messages over
  `max_ws_message` bytes, binary frames and JSON nested too deep are answered with an error
  message, and the connection goes on (`receive_message`).
- Every HTTP answer carries a Content-Security-Policy (no inline scripts; the inline styles of
  the client's own pages by their hashes), X-Content-Type-Options, Referrer-Policy: no-referrer
  (a seat's token is in its URL), X-Frame-Options and frame-ancestors, and Cache-Control:
  no-store on the API.
- Tokens never reach the logs: uvicorn's access log (and its WebSocket lines) show
  `token=...` as `token=[hidden]` (logs.py).
- `/docs` and `/redoc` serve their scripts from this server (the `fastapi-offline` package's
  copies), so they work offline and under the CSP.
- The OpenAPI schema declares the errors as they are: `{"detail": "a message"}` for 422 (not
  FastAPI's list), 413 for bodies, 429 for creation.
"""
from __future__ import annotations

import asyncio
import base64
import hashlib
import ipaddress
import json
import logging
import math
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.websockets import WebSocketDisconnect

from ..content.i18n import N_, _, language, ngettext
from . import housekeeping
from .errors import DATABASE_DOWN, RETRY_AFTER, Refused, database_down
from .logs import redact_logs

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
TEMPLATES = Path(__file__).resolve().parent.parent / "web" / "templates"  # the pages (server/i18n.py)

MAX_JSON_DEPTH = 64        # arrays and objects inside each other; the API's bodies use at most 6
CREATE_PATHS = ("/api/games", "/api/tutorial")  # POSTs that create a game: limited per client
UPLOAD_PATHS = ("/api/replays",)
JOIN_PATH = re.compile(r"/api/games/[^/]+/join")     # POSTs that take a seat: limited per client


@dataclass
class ServerLimits:
    """What a client may send and keep on the server; `cyclades serve --help` names them."""
    max_body: int = 64 * 1024               # bytes of a request body
    max_upload: int = 4_000_000             # bytes of a game record uploaded to /api/replays
    max_ws_message: int = 64 * 1024         # bytes of one WebSocket message
    allowed_origins: tuple = ()             # besides this server's own; "*": any
    game_rate: str = "30/minute;300/hour"   # games one client may create ("" or "none": no limit)
    max_open_games: int = 50                # unfinished games one client may have (0: no limit)
    join_rate: str = "10/minute;60/hour"    # open seats one client may take from the lobby
    upload_rate: str = "10/minute;60/hour"  # records one client may upload to be replayed
    replay_cache_mb: float = 256.0          # memory the replays kept in memory may take
    ws_rate: str = "20/second;600/minute"   # messages one WebSocket client may send
    max_ws_per_address: int = 16            # WebSockets open from one client address (0: no limit)
    max_spectators: int = 100               # WebSockets without a seat on one game (0: no limit)
    body_timeout: float = 30.0              # seconds a request body may take to arrive
    header_timeout: float = 10.0            # seconds a request's headers may take (connections.py)
    max_connections_per_address: int = 64   # connections open from one address (connections.py)
    max_connections: int = 0                # connections open in all (0: from the open file limit)
    allowed_hosts: tuple | None = None      # Host header names served (None: any; "*": any)
    expire_hours: float = 72.0              # an unfinished game with no decision for so long is removed (0: never)
    idle_minutes: float = 30.0              # an unfinished game nobody looked at leaves memory after this
    finished_idle_minutes: float = 5.0      # a finished game leaves memory after this
    sweep_seconds: float = 60.0             # how often the housekeeping runs
    extra: dict = field(default_factory=dict)

    def body_limit(self, path: str) -> int:
        return self.max_upload if path in UPLOAD_PATHS else self.max_body


# --- JSON that the parser can take --------------------------------------------------------

class Malformed(ValueError):
    """A body or message refused before parsing, with the message to send."""


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")


def _depth(text: str) -> int:
    depth = deepest = 0
    for ch in _BRACKET.findall(text):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


TOO_DEEP = {"body": N_("malformed body: JSON nested deeper than {n} levels"),
            "message": N_("malformed message: JSON nested deeper than {n} levels")}


def _too_deep(what: str) -> str:
    return _(TOO_DEEP.get(what, TOO_DEEP["body"])).format(n=MAX_JSON_DEPTH)


def check_json_text(text: str, what: str = "body"):
    """Parse JSON text that the server's own code can take: nested at most MAX_JSON_DEPTH.
    Malformed (with a message) for deeper nesting; ValueError for text that is not JSON."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise Malformed(_too_deep(what)) from None
    except ValueError:
        # Not JSON anyway; brackets counted with strings and all (an overestimate) keep a
        # deep prefix from reaching a parser further on.
        if _depth(text) > MAX_JSON_DEPTH:
            raise Malformed(_too_deep(what)) from None
        raise
    # Valid JSON: its strings pair up, so stripping them leaves the exact bracket structure.
    if text.count("[") + text.count("{") > MAX_JSON_DEPTH and \
            _depth(_STRING.sub("", text)) > MAX_JSON_DEPTH:
        raise Malformed(_too_deep(what))
    return data


def check_json_body(body: bytes):
    """Raise Malformed for a body that is not UTF-8, or JSON nested too deep."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Malformed(_("malformed body: not UTF-8 text (byte {at} is {byte}); send JSON encoded as UTF-8")
                        .format(at=e.start, byte=f"{body[e.start]:#04x}")) from None
    try:
        check_json_text(text)
    except Malformed:
        raise
    except ValueError:
        pass  # the route says what is wrong with it


def _jsonish(content_type: str | None) -> bool:
    """Bodies the server may parse as JSON: JSON, text, or no type at all."""
    if not content_type:
        return True
    t = content_type.split(";", 1)[0].strip().lower()
    return t == "application/json" or t.endswith("+json") or t.startswith("text/")


# --- the WebSocket messages ------------------------------------------------------------------

REFUSED = object()  # receive_message's answer for a message already answered with an error


async def receive_message(ws, error) -> object:
    """The next client message of a game's WebSocket, parsed: a JSON object, or REFUSED after
    `error(status, message)` told the client what is wrong (the connection goes on).
    Raises WebSocketDisconnect when the client goes away."""
    limits: ServerLimits = getattr(ws.app.state, "limits", None) or ServerLimits()
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if text is None:
        size = len(message.get("bytes") or b"")
        if size > limits.max_ws_message:
            error(413, f"message too large: {size} bytes (at most {limits.max_ws_message})")
        else:
            error(422, "malformed message: binary frames are not read; send JSON as text")
        return REFUSED
    size = len(text) if len(text) * 4 <= limits.max_ws_message else len(text.encode("utf-8", "surrogatepass"))
    if size > limits.max_ws_message:
        error(413, f"message too large: {size} bytes (at most {limits.max_ws_message})")
        return REFUSED
    try:
        msg = check_json_text(text, "message")
    except Malformed as e:
        error(422, str(e))
        return REFUSED
    except ValueError:
        error(422, "malformed message: not JSON")
        return REFUSED
    if not isinstance(msg, dict):
        error(422, "malformed message: expected a JSON object")
        return REFUSED
    return msg


# --- the Origin of a WebSocket -----------------------------------------------------------------

_DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _host_port(netloc: str, scheme: str) -> tuple[str, int] | None:
    try:
        u = urlsplit(f"{scheme}://{netloc}")
        return (u.hostname or "").lower(), u.port or _DEFAULT_PORTS.get(scheme, 80)
    except ValueError:
        return None


def origin_allowed(origin: str | None, host: str | None, scheme: str, allowed: tuple) -> bool:
    """A WebSocket's Origin is allowed if there is none (not a browser page), if it is this
    server's own host (the Host header), or if it is listed (or "*" is)."""
    if origin is None:
        return True
    if "*" in allowed:
        return True
    origin = origin.strip()
    if origin.rstrip("/").lower() in {a.rstrip("/").lower() for a in allowed}:
        return True
    try:
        o = urlsplit(origin)
        theirs = (o.hostname or "").lower(), o.port or _DEFAULT_PORTS.get(o.scheme, 80)
    except ValueError:
        return False
    if not o.scheme or not o.hostname or not host:
        return False  # "null" (a sandboxed or local file page) and the like
    # Our own page's origin has the Host the browser asked for, with its http(s) scheme.
    ours = _host_port(host, "https" if o.scheme == "https" else "http")
    return ours == theirs


# --- the Host a request names ------------------------------------------------------------------

def host_allowed(host: str | None, allowed: tuple | None) -> bool:
    """Whether a request's Host header names this server. `allowed`: None or "*" in it: any;
    else an IP address (a browser names one only when it connects to it), `localhost` (and
    `*.localhost`), or one of the names (a name "*.example.org" allows its subdomains). A
    page of a site whose name was rebound to this machine's address (DNS rebinding) names
    that site, and is refused. No Host header (HTTP/1.0): not a browser, allowed."""
    if allowed is None or "*" in allowed or host is None:
        return True
    hp = _host_port(host, "http")
    if hp is None or not hp[0]:
        return False
    name = hp[0].rstrip(".")
    try:
        ipaddress.ip_address(name.strip("[]"))
        return True
    except ValueError:
        pass
    if name == "localhost" or name.endswith(".localhost"):
        return True
    for given in allowed:
        a = given.strip().lower().rstrip(".")
        if name == a or (a.startswith("*.") and name.endswith(a[1:])):
            return True
    return False


MALFORMED_JSON = N_("malformed body: it could not be parsed as JSON")


def _host_refused(host) -> str:
    return _("this server does not answer to the name {host}: its operator names the ones it "
             "serves (cyclades serve --allowed-host NAME)").format(host=repr(host))


def _json_type(content_type: str | None) -> bool:
    """A body declared JSON (application/json, or a +json type)."""
    t = (content_type or "").split(";", 1)[0].strip().lower()
    return t == "application/json" or (t.startswith("application/") and t.endswith("+json"))


# --- security headers ---------------------------------------------------------------------------

def inline_style_hashes(folder: Path = TEMPLATES) -> list[str]:
    """CSP hashes of the <style> blocks of the client's own pages (there are no inline
    scripts: the CSP allows none)."""
    out = []
    for path in sorted(folder.glob("*.html")):
        try:
            text = path.read_text(encoding="utf-8")
        except OSError:
            continue
        for m in re.finditer(r"<style[^>]*>(.*?)</style>", text, re.S | re.I):
            digest = hashlib.sha256(m.group(1).encode("utf-8")).digest()
            out.append("'sha256-" + base64.b64encode(digest).decode("ascii") + "'")
    return sorted(set(out))


def content_security_policy(host: str | None, style_hashes: list[str], path: str = "/") -> str:
    ws = f" ws://{host} wss://{host}" if host and re.fullmatch(r"[A-Za-z0-9.\-:\[\]]+", host) else ""
    styles = " ".join(["'self'"] + style_hashes)
    worker = ""
    if path == "/redoc":  # ReDoc injects its styles and runs a worker from a blob
        styles, worker = "'self' 'unsafe-inline'", "; worker-src 'self' blob:"
    return ("default-src 'self'; script-src 'self'; style-src " + styles +
            "; img-src 'self' data:; font-src 'self' data:; connect-src 'self'" + ws +
            "; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'" + worker)


SECURITY_HEADERS = {
    b"x-content-type-options": b"nosniff",
    b"referrer-policy": b"no-referrer",
    b"x-frame-options": b"DENY",
    b"cross-origin-opener-policy": b"same-origin",
    b"cross-origin-resource-policy": b"same-origin",
    b"permissions-policy": b"camera=(), microphone=(), geolocation=(), payment=()",
}


# --- limits on creating games -------------------------------------------------------------------

def client_key(scope) -> str:
    """A client is its address (uvicorn puts the real one there behind a trusted proxy:
    --forwarded-allow-ips)."""
    client = scope.get("client")
    return client[0] if client else "unknown"


def _window(item) -> str:
    """A rate limit's window in words: "1 minute", "2 hours"."""
    n = item.multiples
    words = {"second": ngettext("{n} second", "{n} seconds", n), "minute": ngettext("{n} minute", "{n} minutes", n),
             "hour": ngettext("{n} hour", "{n} hours", n), "day": ngettext("{n} day", "{n} days", n),
             "month": ngettext("{n} month", "{n} months", n), "year": ngettext("{n} year", "{n} years", n)}
    return words.get(item.GRANULARITY.name, f"{{n}} {item.GRANULARITY.name}").format(n=n)


class Rate:
    """How often one client may do something (the `limits` library's moving window): a spec
    like "30/minute;300/hour", or "none". A client is a key: an address, or what the message
    names (a name for logins, a person at a table for chat). `message`: the whole refusal, a
    catalog sentence with {n} (at most), {per} (the window) and {wait} (seconds)."""

    def __init__(self, spec: str, message: str):
        from limits import parse_many
        from limits.storage import MemoryStorage
        from limits.strategies import MovingWindowRateLimiter
        spec = (spec or "").strip()
        self.items = [] if spec.lower() in ("", "none", "0", "off") else parse_many(spec)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.message = message

    def retry_after(self, key: str) -> tuple[int, str] | None:
        """(seconds, message) if this client may not do it now."""
        for item in self.items:
            if not self.limiter.test(item, key):
                stats = self.limiter.get_window_stats(item, key)
                wait = max(1, math.ceil(stats.reset_time - time.time()))
                return wait, _(self.message).format(n=item.amount, per=_window(item), wait=wait)
        return None

    def hit(self, key: str):
        for item in self.items:
            self.limiter.hit(item, key)

    def clear(self, key: str):
        for item in self.items:
            self.limiter.clear(item, key)

    def refuse(self, key: str):
        """Refused(429) with Retry-After if this client may not do it now (nothing counted)."""
        refused = self.retry_after(key)
        if refused is not None:
            raise Refused(429, refused[1], retry_after=refused[0])

    def check(self, key: str):
        """Count one more for this client, or Refused(429) with Retry-After if it may not."""
        self.refuse(key)
        self.hit(key)

    def take(self, key: str) -> bool:
        """Count one more if the rate allows it; whether it did."""
        return all([self.limiter.hit(item, key) for item in self.items])


class CreationLimits:
    """Per client: a rate of game creation and a number of unfinished games it created."""

    def __init__(self, limits: ServerLimits):
        self.rate = Rate(limits.game_rate, N_("too many games created from your address: at most {n} per {per}; "
                                              "try again in {wait} s"))
        self.max_open = limits.max_open_games
        self.games: dict[str, list] = {}     # client -> ids of the games it created
        self.pending: dict[str, int] = {}    # client -> creations under way

    def retry_after(self, key: str) -> tuple[int, str] | None:
        """(seconds, message) if this client may not create a game now."""
        return self.rate.retry_after(key)

    async def open_games(self, manager, key: str) -> int:
        """How many of the games this client created are not over (nor removed)."""
        ids = self.games.get(key, [])
        if not ids:
            return 0
        live, ask = [], []
        for gid in ids:
            s = manager.sessions.get(gid)
            if s is not None:
                if not s.game.is_over:
                    live.append(gid)
            else:
                ask.append(gid)
        if ask:
            live += await manager.db(housekeeping.unfinished_among, manager.store, ask)
        self.games[key] = [g for g in ids if g in set(live)]
        return len(self.games[key])

    async def prune(self, manager):
        """Forget the games that are over or gone, and the clients left with none (the
        housekeeping calls it)."""
        ids = [g for gs in self.games.values() for g in gs]
        if not ids:
            return
        live = {g for g in ids if g in manager.sessions and not manager.sessions[g].game.is_over}
        live |= set(await manager.db(housekeeping.unfinished_among, manager.store,
                                     [g for g in ids if g not in manager.sessions]))
        for key in list(self.games):
            self.games[key] = [g for g in self.games[key] if g in live]
            if not self.games[key]:
                del self.games[key]

    def created(self, key: str, game_id: str | None):
        self.rate.hit(key)
        if game_id:
            self.games.setdefault(key, []).append(game_id)


# --- the middleware -----------------------------------------------------------------------------

async def _send_json(send, status: int, detail: str, headers: dict | None = None):
    body = json.dumps({"detail": detail}).encode("utf-8")
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.encode("latin-1"), str(v).encode("latin-1")) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """The outermost ASGI layer (outside FastAPI's error handling too, so that every answer,
    a 500 included, carries the headers)."""

    def __init__(self, app, limits: ServerLimits, creation: CreationLimits, style_hashes: list):
        self.app = app
        self.limits = limits
        self.creation = creation
        self.style_hashes = style_hashes
        self.joins = Rate(limits.join_rate, N_("too many seats taken from your address: at most {n} per {per}; "
                                               "try again in {wait} s"))

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        from .i18n import chosen
        with language(chosen(scope)):  # its refusals in the request's language, as the app's
            if scope["type"] == "http":
                await self.http(scope, receive, send)
            else:
                await self.websocket(scope, receive, send)

    # --- HTTP ---

    async def http(self, scope, receive, send):
        headers = Headers(scope=scope)
        path = scope.get("path", "")
        method = scope.get("method")
        send = self._with_headers(scope, headers, send)
        host = headers.get("host")
        if not host_allowed(host, self.limits.allowed_hosts):
            return await _send_json(send, 400, _host_refused(host))
        limit = self.limits.body_limit(path)
        length = headers.get("content-length")
        try:
            length = int(length) if length is not None else None
        except ValueError:
            length = None
        if length is not None and length > limit:
            return await _send_json(send, 413, _("request body too large: {length} bytes (at most {limit})")
                                    .format(length=length, limit=limit), {"connection": "close"})
        chunked = "chunked" in headers.get("transfer-encoding", "").lower()
        if (length or 0) > 0 or chunked:
            if path.startswith("/api/") and not _json_type(headers.get("content-type")):
                return await _send_json(send, 415, _("send the body as JSON, with Content-Type: "
                                                     "application/json"), {"connection": "close"})
            body = await self._body(receive, send, limit)
            if body is None:
                return  # refused (413, 408), or the client went away
            if body and (_jsonish(headers.get("content-type")) or path in UPLOAD_PATHS):
                try:
                    check_json_body(body)
                except Malformed as e:
                    return await _send_json(send, 422, str(e))
            receive = _replay(body, receive)
        if method == "POST":
            if path in CREATE_PATHS:
                return await self.create(scope, receive, send)
            if JOIN_PATH.fullmatch(path):
                key = client_key(scope)
                refused = self.joins.retry_after(key)
                if refused is not None:
                    return await _send_json(send, 429, refused[1], {"retry-after": refused[0]})
                self.joins.hit(key)
        await self.app(scope, receive, send)

    async def _body(self, receive, send, limit: int) -> bytes | None:
        """The whole body, read within `body_timeout` seconds; None once refused (413, 408) or
        if the client went away."""
        chunks, size = [], 0
        deadline = time.monotonic() + self.limits.body_timeout
        while True:
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - time.monotonic()))
            except TimeoutError:
                await _send_json(send, 408, _("the request body did not arrive within {seconds} s")
                                 .format(seconds=f"{self.limits.body_timeout:g}"), {"connection": "close"})
                return None
            if message["type"] != "http.request":
                return None  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _send_json(send, 413, _("request body too large: more than {limit} bytes").format(limit=limit),
                                 {"connection": "close"})
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    def _with_headers(self, scope, headers: Headers, send):
        path = scope.get("path", "")
        csp = content_security_policy(headers.get("host"), self.style_hashes, path).encode("latin-1")

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                raw = list(message.get("headers", []))
                have = {k.lower() for k, _ in raw}
                extra = dict(SECURITY_HEADERS)
                extra[b"content-security-policy"] = csp
                if path.startswith("/api/") or path == "/openapi.json":
                    extra[b"cache-control"] = b"no-store"
                raw += [(k, v) for k, v in extra.items() if k not in have]
                if message.get("status") == 405 and "app" in scope:
                    # Starlette names only the methods of the first route of this path.
                    allow = _allowed_methods(scope["app"], path)
                    if allow:
                        raw = [(k, v) for k, v in raw if k.lower() != b"allow"]
                        raw.append((b"allow", ", ".join(allow).encode("latin-1")))
                message = {**message, "headers": raw}
            await send(message)
        return send_with_headers

    async def create(self, scope, receive, send):
        c = self.creation
        key = client_key(scope)
        refused = c.retry_after(key)
        if refused is not None:
            wait, message = refused
            return await _send_json(send, 429, message, {"retry-after": wait})
        if c.max_open:
            manager = getattr(scope["app"].state, "manager", None) if "app" in scope else None
            try:
                n = (await c.open_games(manager, key) if manager is not None else 0) + c.pending.get(key, 0)
            except Exception as e:
                if not database_down(e):
                    raise
                return await _send_json(send, 503, _(DATABASE_DOWN), {"retry-after": RETRY_AFTER})
            if n >= c.max_open:
                wait = max(1, int(self.limits.sweep_seconds))
                return await _send_json(
                    send, 429, _("you have {n} unfinished games on this server (at most {most} per "
                                 "player): finish or leave some before creating another")
                    .format(n=n, most=c.max_open), {"retry-after": wait})
        status, body = 0, []

        async def watch(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body" and status == 201:
                body.append(message.get("body", b""))
            await send(message)

        c.pending[key] = c.pending.get(key, 0) + 1
        try:
            await self.app(scope, receive, watch)
        finally:
            c.pending[key] -= 1
            if not c.pending[key]:
                del c.pending[key]
        if status == 201:
            try:
                game_id = json.loads(b"".join(body)).get("game_id")
            except (ValueError, AttributeError):
                game_id = None
            c.created(key, game_id)

    # --- WebSocket ---

    async def websocket(self, scope, receive, send):
        headers = Headers(scope=scope)
        if not host_allowed(headers.get("host"), self.limits.allowed_hosts):
            message = await receive()
            if message["type"] == "websocket.connect":  # closed before accepting: HTTP 403
                logging.getLogger("cyclades.server").warning(_host_refused(headers.get("host")))
                await send({"type": "websocket.close", "code": 1008})
            return
        origin = headers.get("origin")
        scheme = "https" if scope.get("scheme") in ("wss", "https") else "http"
        if origin_allowed(origin, headers.get("host"), scheme, self.limits.allowed_origins):
            return await self.app(scope, receive, send)
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        # Accepted, then closed at once with "policy violation": the browser page learns why.
        logging.getLogger("cyclades.server").warning("WebSocket from origin %r refused", origin)
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": 1008,
                    "reason": "origin not allowed: open the game from this server's own pages"})


def _allowed_methods(app, path: str) -> list:
    methods = set()
    for route in _routes(getattr(getattr(app, "router", None), "routes", [])):
        regex, ms = getattr(route, "path_regex", None), getattr(route, "methods", None)
        if regex is not None and ms and regex.match(path):
            methods |= set(ms)
    return sorted(methods)


def _routes(routes):
    """Every route, those of the included routers too: recent FastAPI versions keep an
    included router whole (its `original_router`), older ones copy its routes in. The app
    includes its routers without a prefix, so their paths are the app's."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _routes(inner.routes)
        else:
            yield route


def _replay(body: bytes, receive):
    done = False

    async def replay():
        nonlocal done
        if not done:
            done = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()
    return replay


# --- offline docs --------------------------------------------------------------------------------

DOCS_ASSETS = "/docs-assets"


def _docs_dir() -> Path | None:
    try:
        import fastapi_offline
    except ImportError:
        return None
    path = Path(fastapi_offline.__file__).resolve().parent / "static"
    return path if path.is_dir() else None


DOCS_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} - API</title>
<link rel="icon" href="{assets}/favicon.png">
<link rel="stylesheet" href="{assets}/swagger-ui.css"></head>
<body><div id="swagger-ui" data-openapi-url="{openapi}"></div>
<script src="{assets}/swagger-ui-bundle.js"></script>
<script src="/static/api-docs.js"></script>
</body></html>
"""

REDOC_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title} - API</title>
<link rel="icon" href="{assets}/favicon.png"></head>
<body><redoc spec-url="{openapi}"></redoc>
<script src="{assets}/redoc.standalone.js"></script>
</body></html>
"""


def offline_docs(app):
    """/docs (Swagger UI) and /redoc from this server's own copies of their files."""
    from fastapi.responses import HTMLResponse
    from fastapi.staticfiles import StaticFiles
    folder = _docs_dir()
    if folder is None:
        return
    # FastAPI's own pages load their scripts from a CDN: replaced.
    app.router.routes[:] = [r for r in app.router.routes
                            if getattr(r, "path", None) not in ("/docs", "/redoc", "/docs/oauth2-redirect")]
    app.mount(DOCS_ASSETS, StaticFiles(directory=folder), name="docs-assets")
    values = {"title": app.title, "assets": DOCS_ASSETS, "openapi": app.openapi_url or "/openapi.json"}

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui():
        return HTMLResponse(DOCS_HTML.format(**values))

    @app.get("/redoc", include_in_schema=False)
    async def redoc():
        return HTMLResponse(REDOC_HTML.format(**values))


# --- a true OpenAPI schema ------------------------------------------------------------------------

ERROR_SCHEMA = {"title": "Error", "type": "object", "required": ["detail"],
                "properties": {"detail": {"type": "string", "title": "Detail",
                                          "description": "a clear message; nothing was changed"}}}


def _error(description: str, headers: dict | None = None) -> dict:
    out = {"description": description,
           "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    if headers:
        out["headers"] = headers
    return out


def _takes_token(op: dict, schema: dict) -> bool:
    if any(p.get("name", "").endswith("token") for p in op.get("parameters", [])):
        return True
    body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
    ref = body.get("$ref") or next((x.get("$ref") for x in body.get("anyOf", []) if "$ref" in x), None)
    if ref:
        body = schema.get("components", {}).get("schemas", {}).get(ref.rsplit("/", 1)[-1], {})
    return any(k.endswith("token") for k in body.get("properties", {}))


def fix_openapi(schema: dict) -> dict:  # noqa: C901 -- one pass over the schema, a case per kind of answer
    """Make the schema say what the server answers: 422 is {"detail": "..."} (the app's
    handler) not FastAPI's list; bodies may be refused with 413; creation with 429."""
    comps = schema.setdefault("components", {}).setdefault("schemas", {})
    comps.setdefault("Error", ERROR_SCHEMA)
    for path, ops in schema.get("paths", {}).items():
        for method, op in ops.items():
            if not isinstance(op, dict) or "responses" not in op:
                continue
            responses = op["responses"]
            r422 = responses.get("422")
            if r422 is not None:
                ref = json.dumps(r422)
                if "HTTPValidationError" in ref:
                    responses["422"] = _error("malformed request (the message says what is wrong), "
                                              "or refused by the rules")
            elif op.get("parameters") or op.get("requestBody"):
                responses["422"] = _error("malformed request (the message says what is wrong)")
            if op.get("requestBody") or method in ("post", "put", "patch"):
                responses.setdefault("413", _error("request body too large"))
                responses.setdefault("408", _error("the body did not arrive in time"))
                responses.setdefault("415", _error("the body is not declared JSON (Content-Type: "
                                                   "application/json)"))
                responses.setdefault("422", _error("malformed body: not UTF-8, not JSON, or "
                                                   "nested too deep"))
            # Every route of a game (or replay) refuses an unknown one; a wrong token is
            # refused; a decision may be stale or come after the end, or fail to be stored.
            if "{game_id}" in path or "{rid}" in path:
                responses.setdefault("404", _error("no such game (or replay)"))
            if _takes_token(op, schema):
                responses.setdefault("403", _error("not a seat of this game, or not its turn"))
            if "{game_id}" in path and method == "post":
                responses.setdefault("409", _error("stale version, the game is over, or the seat is "
                                                   "taken"))
                responses.setdefault("503", _error("the database could not store it; nothing "
                                                   "changed, send it again"))
            wait = {"Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}}
            if method == "post" and path in CREATE_PATHS:
                responses.setdefault("429", _error(
                    "too many games created from this address, or too many of them unfinished", wait))
            if method == "post" and (path in UPLOAD_PATHS or JOIN_PATH.fullmatch(path.replace("{game_id}", "x"))):
                responses.setdefault("429", _error("too many from this address: wait", wait))
            if path.startswith("/api/"):
                responses.setdefault("503", _error("the database does not answer for now; nothing "
                                                   "changed, ask again", wait))
            for code, r in responses.items():  # every refusal is {"detail": "..."}
                if code[:1] in ("4", "5") and isinstance(r, dict) and not r.get("content"):
                    r["content"] = _error("")["content"]
    used = json.dumps(schema.get("paths", {}))
    if "#/components/schemas/HTTPValidationError" not in used:
        comps.pop("HTTPValidationError", None)
        if "#/components/schemas/ValidationError" not in used:
            comps.pop("ValidationError", None)
    return schema


# --- installing it all -------------------------------------------------------------------------------

def install(app, limits: ServerLimits | None = None):
    """Hook everything above into a FastAPI app (create_app calls it)."""
    limits = limits or ServerLimits()
    app.state.limits = limits
    creation = CreationLimits(limits)
    app.state.creation_limits = creation
    app.state.upload_rate = Rate(limits.upload_rate,  # replays.py counts them
                                 N_("too many records replayed from your address: at most {n} per {per}; "
                                    "try again in {wait} s"))
    hashes = inline_style_hashes()

    build = app.build_middleware_stack
    app.build_middleware_stack = lambda: Guard(build(), limits, creation, hashes)

    generate = app.openapi

    def openapi():
        if app.openapi_schema is None:
            app.openapi_schema = fix_openapi(generate())
        return app.openapi_schema
    app.openapi = openapi

    from fastapi.exception_handlers import http_exception_handler
    from fastapi.responses import JSONResponse
    from starlette.exceptions import HTTPException

    @app.exception_handler(HTTPException)
    async def _http_error(request, exc: HTTPException):
        # FastAPI answers 400 for a body its parser failed on (Guard refuses most before).
        if exc.status_code == 400 and exc.detail == "There was an error parsing the body":
            return JSONResponse({"detail": _(MALFORMED_JSON)},
                                status_code=422)
        return await http_exception_handler(request, exc)

    offline_docs(app)
    redact_logs()

    # Housekeeping runs beside the app's own lifespan (the Manager's start and stop).
    housekeeping.attach(app, limits)
    return app
