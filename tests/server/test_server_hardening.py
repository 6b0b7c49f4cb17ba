"""The server's hardening against real servers (uvicorn in a subprocess, temporary SQLite; httpx, raw sockets
and the `websockets` client, no mocks): bad input never reaches a 500 nor eats memory, tokens
never appear in the access log, WebSocket Origin, security headers, offline /docs, limits on
creating games, expiry of abandoned games, and `cyclades serve` on a busy port.
Contract: docs/api.md ("Limits and errors")."""
from __future__ import annotations

import contextlib
import json
import re
import select
import socket
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from repository import ROOT
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cyclades.server.cli import serve
from cyclades.server.security import MAX_JSON_DEPTH, inline_style_hashes
from cyclades.server.testing import ServerProcess

STATIC = ROOT / "src" / "cyclades" / "web" / "static"
TEMPLATES = ROOT / "src" / "cyclades" / "web" / "templates"  # the pages (rendered in the reader's language)
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("hardening")
    log = d / "server.log"
    with ServerProcess(f"sqlite:///{d / 'games.db'}", bot_delay=0.0, log_path=str(log),
                       args=["--log-level", "info"]) as srv:
        srv.log_file = log
        yield srv


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, timeout=10) as c:
        yield c


def humans(http, **body):
    r = http.post("/api/games", json={"players": 3, "seats": ["you", "invite", "invite"], **body})
    assert r.status_code == 201, r.text
    c = r.json()
    return c["game_id"], [s["token"] for s in c["seats"]]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


# --- bodies: 413 before reading, 422 for what cannot be parsed ----------------------------------

def test_a_body_over_the_limit_is_refused_by_its_length_before_it_is_sent(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100000000\r\n\r\n")
        head = b""
        while True:  # no byte of the body was sent; the server answers and closes
            part = s.recv(65536)
            if not part:
                break
            head += part
        head = head.decode("latin-1")
    assert head.startswith("HTTP/1.1 413"), head
    assert "at most 65536" in head


def test_a_streamed_body_is_counted_and_cut_without_eating_memory(server, http):
    """A chunked body of up to 200 MB: the server answers 413 once it passed 64 KB, having kept
    no more than that; the client sees the answer while it is still sending."""
    pid = server.proc.pid
    before = rss_mb(pid)
    sent, answer = 0, b""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                  b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b" " * 65536
        while sent < 200 * 2 ** 20:
            if select.select([s], [], [], 0)[0]:
                break
            try:
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            except OSError:
                break
            sent += len(chunk)
        with contextlib.suppress(ConnectionResetError):  # the answer can be lost to the reset; memory is the point
            answer = s.recv(65536)
    assert sent < 32 * 2 ** 20, "the server kept reading the body"
    if answer:
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert rss_mb(pid) - before < 20
    # chunked through an ordinary client, and a plain body over the limit
    r = http.post("/api/games", content=iter([b" " * 40000, b" " * 40000]), headers=JSON)
    assert r.status_code == 413 and "too large" in r.json()["detail"]
    r = http.post("/api/games", content=b" " * 100_000, headers=JSON)
    assert r.status_code == 413 and r.json()["detail"] == "request body too large: 100000 bytes (at most 65536)"
    assert http.get("/api/games").status_code == 200  # and the server goes on


def test_uploads_have_their_own_larger_limit(http):
    # A record upload may be larger than 64 KB (up to --max-upload): refused for what it is.
    big = json.dumps({"format": 1, "options": {}, "actions": [{"kind": "pass"}] * 8000}).encode()
    assert len(big) > 65536
    r = http.post("/api/replays", content=big, headers=JSON)
    assert r.status_code == 422, r.text
    r = http.post("/api/replays", content=b" " * 4_000_001, headers=JSON)
    assert r.status_code == 413


@pytest.mark.parametrize("body, word", [
    (b'{"players": 3, "ruleset": "\xff\xfe"}', "UTF-8"),
    ("{\"players\": 3}".encode("utf-16"), "UTF-8"),
    (b"[" * 1000 + b"]" * 1000, "nested"),
    (b'{"players": ' + b"[" * 60_000, "nested"),
    (b'{"seats": ' + b"[" * (MAX_JSON_DEPTH + 1) + b"]" * (MAX_JSON_DEPTH + 1) + b"}", "nested"),
    (b'{"players": 3,', "malformed"),
])
def test_bodies_that_cannot_be_parsed_answer_422_with_a_message(http, body, word):
    for path in ("/api/games", "/api/games/nosuchgame/actions", "/api/replays"):
        r = http.post(path, content=body, headers=JSON)
        if path == "/api/replays" and word == "malformed":
            word = "not json"
        assert r.status_code == 422, (path, r.status_code, r.text)
        detail = r.json()["detail"]
        assert isinstance(detail, str) and word.lower() in detail.lower(), detail


def test_validation_errors_have_the_documented_shape(http):
    schema = http.get("/openapi.json").json()
    text = json.dumps(schema)
    assert "HTTPValidationError" not in text and "ValidationError" not in schema["components"]["schemas"]
    error = schema["components"]["schemas"]["Error"]
    assert error["properties"]["detail"]["type"] == "string"
    post = schema["paths"]["/api/games"]["post"]["responses"]
    for code in ("413", "422", "429"):
        assert post[code]["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/Error"}
    assert "Retry-After" in post["429"]["headers"]
    for path, ops in schema["paths"].items():
        for method, op in ops.items():
            if "422" in op["responses"]:
                assert "Error" in json.dumps(op["responses"]["422"]), (method, path)
    # and the answers are so
    r = http.get("/api/games", params={"limit": 0})
    assert r.status_code == 422 and isinstance(r.json()["detail"], str)
    # 405 names every method of the path (Starlette named only its first route's)
    r = http.request("OPTIONS", "/api/games")
    assert r.status_code == 405 and set(r.headers["allow"].split(", ")) >= {"GET", "POST"}


# --- WebSocket: bad messages are answered, the connection stays ------------------------------

def test_bad_websocket_messages_get_an_error_and_the_connection_goes_on(server, http):
    gid, toks = humans(http)
    with connect(f"{server.ws_url}/ws/games/{gid}?token={toks[0]}", max_size=None) as ws:
        assert json.loads(ws.recv(5))["type"] == "state"
        cases = [
            (b"\x00\x01binary", 422, "binary"),
            ('{"type": "ping", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", 413, "too large"),
            ("[" * 50_000, 422, "nested"),
            ('{"type": "ping", "x": ' + "[" * 1000 + "]" * 1000 + "}", 422, "nested"),
            ('{"type": "state", "pad": "' + "x" * 70_000 + '"}', 413, "too large"),
            (b"\xff" * 70_000, 413, "too large"),
            ("{nope", 422, "not json"),
            ("[1, 2]", 422, "object"),
        ]
        for message, status, word in cases:
            ws.send(message)
            err = json.loads(ws.recv(5))
            assert err["type"] == "error" and err["status"] == status, (message[:40], err)
            assert word in err["message"].lower(), err
            ws.send(json.dumps({"type": "ping"}))
            assert json.loads(ws.recv(5)) == {"type": "pong"}  # still there
    time.sleep(0.3)
    log = server.log_file.read_text(errors="replace")
    assert "Traceback" not in log and "Exception in ASGI application" not in log


# --- tokens never reach the logs ------------------------------------------------------------------

def test_tokens_never_appear_in_the_access_log(server, http):
    gid, toks = humans(http, names=["Ann"])
    assert http.get(f"/api/games/{gid}", params={"token": toks[0]}).status_code == 200
    assert http.get(f"/game/{gid}", params={"token": toks[1], "x": "1"}).status_code == 200
    assert http.get(f"/api/games/{gid}", params={"token": "not-a-seat"}).status_code == 403
    with connect(f"{server.ws_url}/ws/games/{gid}?token={toks[1]}") as ws:
        ws.recv(5)
    time.sleep(0.5)  # the log is written by the server process
    log = server.log_file.read_text(errors="replace")
    assert f"GET /api/games/{gid}?token=[hidden]" in log, log[-2000:]
    assert f"/game/{gid}?token=[hidden]&x=1" in log
    assert f"WebSocket /ws/games/{gid}?token=[hidden]" in log
    for t in toks + ["not-a-seat"]:
        assert t not in log


def test_the_log_filter_hides_every_kind_of_token(caplog):
    import logging

    from cyclades.server.logs import redact, redact_logs
    redact_logs()
    access = logging.getLogger("uvicorn.access")
    with caplog.at_level(logging.INFO, logger="uvicorn.access"):
        access.info('%s - "%s %s HTTP/%s" %d', "1.2.3.4:5", "GET",
                    "/api/games/g?x=1&token=SECRET1&host_token=SECRET2", "1.1", 200)
    text = caplog.text
    assert "SECRET" not in text and "token=[hidden]&host_token=[hidden]" in text
    assert redact("/game/a?token=abc") == "/game/a?token=[hidden]"
    assert redact("/api/games?limit=5") == "/api/games?limit=5"


# --- WebSocket Origin ----------------------------------------------------------------------------

def test_websockets_from_other_sites_are_refused_with_1008(server, http):
    gid, _ = humans(http)
    url = f"{server.ws_url}/ws/games/{gid}"
    for origin in ("http://evil.example", "null", f"http://127.0.0.1:{server.port + 1}",
                   f"http://127.0.0.1.evil.example:{server.port}"):
        with connect(url, origin=origin) as ws, pytest.raises(ConnectionClosed) as closed:
            ws.recv(5)
        assert closed.value.rcvd.code == 1008, origin
        assert "origin" in closed.value.rcvd.reason
    for origin in (f"http://127.0.0.1:{server.port}", None):  # the server's own pages; no browser
        with connect(url, origin=origin) as ws:
            assert json.loads(ws.recv(5))["type"] == "state"


def test_allowed_origins_are_configurable(tmp_path):
    with ServerProcess(f"sqlite:///{tmp_path / 'g.db'}",
                       args=["--allowed-origin", "https://games.example.org"]) as srv:
        c = httpx.post(srv.url + "/api/games", json={"seats": ["you", "invite", "invite"]}).json()
        url = f"{srv.ws_url}/ws/games/{c['game_id']}"
        with connect(url, origin="https://games.example.org") as ws:
            assert json.loads(ws.recv(5))["type"] == "state"
        with connect(url, origin="https://other.example.org") as ws:
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(5)
            assert closed.value.rcvd.code == 1008


# --- security headers, the CSP and the client's pages --------------------------------------------

def test_answers_carry_the_security_headers(server, http):
    gid, toks = humans(http)
    for path in ("/", f"/game/{gid}?token={toks[0]}", "/api/games", "/docs", "/static/style.css",
                 "/api/games/nosuchgame", "/openapi.json"):
        r = http.get(path)
        h = r.headers
        assert h["x-content-type-options"] == "nosniff", path
        assert h["referrer-policy"] == "no-referrer", path
        assert h["x-frame-options"] == "DENY", path
        csp = dict(x.strip().split(" ", 1) for x in h["content-security-policy"].split(";"))
        assert csp["script-src"] == "'self'", path              # no inline script anywhere
        assert csp["frame-ancestors"] == "'none'" and csp["object-src"] == "'none'"
        assert "unsafe-inline" not in csp["style-src"] and "unsafe-eval" not in h["content-security-policy"]
        assert f"ws://127.0.0.1:{server.port}" in csp["connect-src"]
        for digest in inline_style_hashes():
            assert digest in csp["style-src"]
        if path.startswith("/api/"):
            assert h["cache-control"] == "no-store"


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.inline_scripts, self.handlers, self.style_attrs = [], 0, [], 0
        self._script = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for k in ("src", "href"):
            if a.get(k):
                self.refs.append(a[k])
        if tag == "script" and not a.get("src"):
            self._script = True
        self.handlers += [k for k in a if k.startswith("on")]
        self.style_attrs += "style" in a

    def handle_data(self, data):
        if self._script and data.strip():
            self.inline_scripts += 1

    def handle_endtag(self, tag):
        if tag == "script":
            self._script = False


def test_the_client_pages_need_no_inline_script():
    """The CSP allows no inline script: the client's pages have none (nor on... handlers, nor
    style attributes); their <style> blocks are allowed by hash."""
    pages = sorted(TEMPLATES.glob("*.html"))
    assert pages
    for page in pages:
        p = _Refs()
        p.feed(page.read_text(encoding="utf-8"))
        assert p.inline_scripts == 0 and not p.handlers and not p.style_attrs, page.name
        assert not [x for x in p.refs if re.match(r"(https?:)?//", x)], page.name


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_api_docs_work_offline(http, path):
    r = http.get(path)
    assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    p = _Refs()
    p.feed(r.text)
    assert p.inline_scripts == 0
    assert p.refs and not [x for x in p.refs if re.match(r"(https?:)?//", x)], p.refs  # no CDN
    assert "cdn" not in r.text.lower()
    for ref in p.refs:
        a = http.get(ref)
        assert a.status_code == 200 and len(a.content) > 100, ref
    assert http.get("/openapi.json").status_code == 200


# --- limits on creating games ---------------------------------------------------------------------

def test_creating_games_too_fast_answers_429_with_retry_after(tmp_path):
    with ServerProcess(f"sqlite:///{tmp_path / 'g.db'}", args=["--game-rate", "3/minute"]) as srv:
        body = {"seats": ["you", "invite", "invite"]}
        codes = [httpx.post(srv.url + "/api/games", json=body).status_code for _ in range(3)]
        assert codes == [201] * 3
        # refused setups are not counted... but a 4th game is too many
        r = httpx.post(srv.url + "/api/games", json=body)
        assert r.status_code == 429
        assert "too many games" in r.json()["detail"] and "3 per 1 minute" in r.json()["detail"]
        assert 1 <= int(r.headers["retry-after"]) <= 60
        assert r.headers["x-content-type-options"] == "nosniff"
        r = httpx.post(srv.url + "/api/tutorial", json={})  # a lesson's game is a game too
        assert r.status_code == 429
        assert httpx.get(srv.url + "/api/games").status_code == 200  # the rest goes on


def test_unfinished_games_per_client_are_limited(tmp_path):
    with ServerProcess(f"sqlite:///{tmp_path / 'g.db'}", bot_delay=0.0,
                       args=["--game-rate", "none", "--max-open-games", "2"]) as srv:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            assert c.post("/api/games", json={"seats": ["you", "invite", "invite"]}).status_code == 201
            bots = c.post("/api/games", json={"seats": ["random"] * 3, "seed": 5})
            assert bots.status_code == 201
            gid = bots.json()["game_id"]
            deadline = time.monotonic() + 60
            first = None
            while True:
                r = c.post("/api/games", json={})
                if r.status_code == 201:  # allowed only once the all-bot game is over
                    assert c.get(f"/api/games/{gid}").json()["status"] == "over", \
                        "a third unfinished game was allowed"
                    break
                if first is None:
                    first = r
                assert r.status_code == 429, r.text
                assert time.monotonic() < deadline, "the bots did not finish"
                time.sleep(0.2)
            assert first is None or ("unfinished" in first.json()["detail"]
                                     and int(first.headers["retry-after"]) >= 1)
            # the all-bot game is over: room for one more (just taken), and only one
            assert c.post("/api/games", json={}).status_code == 429


# --- housekeeping: abandoned games are removed -----------------------------------------------------

def test_abandoned_games_expire(tmp_path):
    args = ["--expire-hours", "0.0005", "--sweep-seconds", "0.2"]   # 1.8 s without a decision
    with ServerProcess(f"sqlite:///{tmp_path / 'g.db'}", args=args) as srv:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            gid = c.post("/api/games", json={"seats": ["you", "invite", "invite"]}).json()["game_id"]
            assert c.get(f"/api/games/{gid}").status_code == 200
            deadline = time.monotonic() + 15
            while c.get(f"/api/games/{gid}").status_code != 404:
                assert time.monotonic() < deadline, "the abandoned game was not removed"
                time.sleep(0.2)
            assert gid not in [g["game_id"] for g in c.get("/api/games").json()["games"]]


# --- cyclades serve: the port first ----------------------------------------------------------------

def _serve(port, db, *more):
    return [sys.executable, "-m", "cyclades.server", "--port", str(port), "--db", db, *more]


def test_serve_on_a_busy_port_says_so_and_exits(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        t = time.monotonic()
        p = subprocess.run(_serve(port, f"sqlite:///{tmp_path / 'g.db'}", "--log-level", "info"),
                           capture_output=True, text=True, timeout=60,
                           env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert p.returncode != 0
    assert f"port {port} is already in use" in p.stderr and "--port" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr
    assert "open http" not in p.stdout                     # no URL that does not work
    assert "application startup" not in (p.stdout + p.stderr).lower()  # no game was replayed
    assert time.monotonic() - t < 30


def test_serve_prints_its_url_once_the_port_is_bound(tmp_path):
    p = subprocess.Popen(_serve(0, f"sqlite:///{tmp_path / 'g.db'}"), stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    try:
        line = p.stdout.readline()
        m = re.search(r"open http://127\.0\.0\.1:(\d+)/", line)
        assert m, line
        port = int(m.group(1))
        assert port != 0
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # bound and listening when the URL is printed
        deadline = time.monotonic() + 20
        while True:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/api/bots", timeout=2).status_code == 200
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
    finally:
        p.terminate()
        p.wait(10)
        p.stdout.close()
        p.stderr.close()


@pytest.mark.parametrize("url, words", [
    ("cyclades.db", "'cyclades.db' is not a database URL (for example sqlite:///"),
    ("mysql://someone@somewhere/games", "the server keeps its games in SQLite or PostgreSQL, not mysql"),
    ("sqlite:///{tmp}/missing/g.db",
     "{tmp}/missing: no such folder (the folder of the SQLite file of sqlite:///{tmp}/missing/g.db)"),
    ("sqlite:///{tmp}/a-file/g.db",
     "{tmp}/a-file: a file, not a folder (the folder of the SQLite file of sqlite:///{tmp}/a-file/g.db)"),
    ("sqlite://", "an in-memory SQLite database keeps nothing"),
    ("sqlite:///:memory:", "an in-memory SQLite database keeps nothing"),
    ("postgresql+psycopg://someone:s3cret@127.0.0.1:{closed}/games",
     "cannot open the database postgresql+psycopg://someone:***@127.0.0.1:{closed}/games: connection failed"),
])
def test_serve_says_why_it_cannot_use_a_database_before_it_starts(tmp_path, url, words):
    """A database the server cannot keep games in is said in one line naming --db, exit code 2,
    before the server says where to open it: no traceback from the app's start (a URL that is a
    file's name, another database, a SQLite file in a folder that is not there, an in-memory
    database whose threads would each see their own and lose every game, a PostgreSQL server
    that does not answer: its password not shown)."""
    (tmp_path / "a-file").write_text("")
    with socket.socket() as closed:  # a port nothing listens on: a connection is refused
        closed.bind(("127.0.0.1", 0))
        fill = {"tmp": tmp_path, "closed": closed.getsockname()[1]}
        p = subprocess.run(_serve(0, url.format(**fill)), capture_output=True, text=True, timeout=60,
                           env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert p.returncode == 2, p.stdout + p.stderr
    assert f"cyclades serve: --db: {words.format(**fill)}" in p.stderr, p.stderr
    assert "Traceback" not in p.stderr and "open http" not in p.stdout and "s3cret" not in p.stderr
    assert sorted(q.name for q in tmp_path.iterdir()) == ["a-file"]  # no folder, no file made


@pytest.mark.parametrize("port", ["70000", "-1"])
def test_serve_refuses_a_port_that_is_not_one(tmp_path, port):
    """Port 70000 was taken modulo 65536: the server listened on 4464, not where it was told;
    -1 was said to be a wrong host. (A process with a timeout: a port let through is served.)"""
    p = subprocess.run(_serve(port, f"sqlite:///{tmp_path / 'g.db'}"), capture_output=True, text=True,
                       timeout=60, env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert p.returncode == 2 and f"Invalid value for '--port': {port} is not in the range 0<=x<=65535" in p.stderr
    assert "open http" not in p.stdout and not (tmp_path / "g.db").exists()


@pytest.mark.parametrize("option, value, env", [
    ("--bot-delay", "nan", None), ("--bot-delay", "-1", None), ("--bot-delay", "inf", None),
    ("--expire-hours", "nan", None), ("--idle-minutes", "inf", None), ("--bot-seconds", "nan", None),
    ("--session-days", "-inf", None), ("--expire-hours", "nan", "CYCLADES_EXPIRE_HOURS"),
    ("--ws-rate", "0/second", None), ("--join-rate", "5/minute;0/hour", None),
    ("--allowed-origin", "games.example.org", None), ("--allowed-origin", "https://games.example.org/play", None),
    ("--allowed-origin", "ftp://games.example.org", "CYCLADES_ALLOWED_ORIGINS"), ("--allowed-host", "", None),
    ("--public-url", "games.example.org", None), ("--public-url", "https://games.example.org:99999", None),
    ("--smtp-from", "Cyclades games", None), ("--smtp-from", "games@", "CYCLADES_SMTP_FROM")])
def test_serve_refuses_a_setting_it_cannot_use(tmp_path, option, value, env):
    """NaN compares false with both bounds of click's FloatRange, and "inf" passes a lower bound:
    a server whose bots wait NaN seconds or whose games expire after NaN hours would start and
    misbehave later. So would one whose rate lets nothing through (0 a second: every WebSocket
    message refused), whose allowed origin is no origin a browser sends (it matches no page),
    whose public address is no web address (every link in its e-mails broken). Refused before
    anything is opened, naming the option, given as a flag or by its environment variable."""
    db = tmp_path / "g.db"
    with socket.socket() as taken:  # were the value let through, serve would stop at the port, not serve
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        args = ["--port", str(taken.getsockname()[1]), "--db", f"sqlite:///{db}"]
        r = CliRunner().invoke(serve, args if env else [*args, option, value], env={env: value} if env else None)
    assert r.exit_code == 2 and option in r.output and "Traceback" not in r.output, r.output
    assert not db.exists()
