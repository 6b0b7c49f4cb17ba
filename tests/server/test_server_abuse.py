"""Abuse does not take the server down (docs/api.md "Limits", docs/deploy.md), against a real
server (uvicorn in a subprocess, SQLite) with small limits, through raw sockets, httpx and the
`websockets` client. Clients that abuse come from addresses of their own (127.0.0.2, ...: the
loopback network answers on all of 127/8) so that the caps per address meet them, not the
test's own requests from 127.0.0.1.

- Connections: slow headers cut after --header-timeout, a slow body after --body-timeout (408),
  at most --max-connections-per-address per address, and under a low open-file limit a flood
  of connections is refused (503) instead of the server failing ("Too many open files").
- Requests: API bodies must be JSON (415), the Host header must name the server (400: DNS
  rebinding), seats taken from the lobby and records uploaded are limited per address (429
  with Retry-After), tokens are redacted from the log however their name is written.
- Replays: the cache stays within its byte budget, summaries come a page at a time, a record
  longer than the stated cap is refused.
- WebSockets: a flood of messages is refused then cut, a client that does not read is dropped,
  spectators per game and sockets per address are capped.
"""
from __future__ import annotations

import contextlib
import json
import os
import select
import socket
import struct
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
from websockets.exceptions import ConnectionClosed  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

from cyclades.server.testing import ServerProcess  # noqa: E402

LIMITS = ["--header-timeout", "2", "--body-timeout", "1", "--max-connections-per-address", "8",
          "--join-rate", "3/minute", "--upload-rate", "4/minute", "--max-spectators", "3",
          "--max-ws-per-address", "5", "--ws-rate", "20/second", "--replay-cache-mb", "0.15",
          "--allowed-host", "games.example.org", "--game-rate", "none", "--max-open-games", "0",
          "--log-level", "info"]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    d = tmp_path_factory.mktemp("abuse")
    with ServerProcess(f"sqlite:///{d / 'g.db'}", bot_delay=0.0, log_path=str(d / "s.log"),
                       args=LIMITS) as srv:
        srv.log_file = d / "s.log"
        yield srv
    text = (d / "s.log").read_text(errors="replace")
    assert "Traceback" not in text and "Too many open files" not in text, text[-3000:]


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, timeout=20) as c:
        yield c


def from_address(server, address: str, timeout=10.0) -> socket.socket:
    """A TCP connection to the server from another loopback address."""
    s = socket.socket()
    s.settimeout(timeout)
    s.bind((address, 0))
    s.connect(("127.0.0.1", server.port))
    return s


def read_all(s: socket.socket, timeout: float) -> bytes:
    """What the server sends until it closes the connection (or the timeout)."""
    s.settimeout(timeout)
    out = b""
    try:
        while True:
            part = s.recv(65536)
            if not part:
                return out
            out += part
    except (TimeoutError, ConnectionResetError):
        return out


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def bot_game(http, **body):
    r = http.post("/api/games", json={"players": 3, "seats": ["random"] * 3, **body})
    assert r.status_code == 201, r.text
    return r.json()["game_id"]


def finished_record(http, seed):
    gid = bot_game(http, max_cycles=4, seed=seed)
    deadline = time.monotonic() + 60
    while http.get(f"/api/games/{gid}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    return http.get(f"/api/games/{gid}/record").json()


# --- connections -----------------------------------------------------------------------------

def test_slow_headers_are_cut_after_the_header_timeout(server, http):
    """A connection that sends nothing, and one that sends its headers a byte at a time, are
    closed after --header-timeout (2 s) with a 408; the server answers others meanwhile."""
    silent = from_address(server, "127.0.0.2")
    trickle = from_address(server, "127.0.0.2")
    t0 = time.monotonic()
    trickle.sendall(b"GET /api/games HTTP/1.1\r\n")
    for ch in b"Host: 127.0.0.1\r\nX-Slow: " + b"a" * 40:
        if select.select([trickle], [], [], 0)[0]:
            break  # the server answered (and closed)
        trickle.sendall(bytes([ch]))
        assert http.get("/api/games?limit=1").status_code == 200
        time.sleep(0.2)
    answer = read_all(trickle, 5)
    assert answer.startswith(b"HTTP/1.1 408") and b"did not arrive" in answer, answer
    assert time.monotonic() - t0 < 8
    assert read_all(silent, 5).startswith(b"HTTP/1.1 408")
    for s in (silent, trickle):
        s.close()


def test_connections_per_address_are_capped(server, http):
    """Eight connections from one address are served; the ninth is answered 503 at once and
    closed; other addresses are served meanwhile."""
    held = [from_address(server, "127.0.0.3") for _ in range(8)]
    time.sleep(0.2)
    extra = from_address(server, "127.0.0.3")
    answer = read_all(extra, 1.5)
    assert answer.startswith(b"HTTP/1.1 503") and b"too many connections" in answer, answer
    assert http.get("/api/games?limit=1").status_code == 200
    other = from_address(server, "127.0.0.9")
    other.sendall(b"GET /api/games?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    assert read_all(other, 5).startswith(b"HTTP/1.1 200")
    for s in held + [extra, other]:
        s.close()


def test_a_flood_of_connections_under_a_low_open_file_limit(tmp_path):
    """With 200 open files (the server keeps 128 for itself: 72 connections), 150 slow
    connections from 10 addresses: those beyond are refused at once (503), the server never
    runs out of file descriptors, and serves again as soon as the slow ones are cut."""
    with ServerProcess(f"sqlite:///{tmp_path / 'g.db'}", log_path=str(tmp_path / "s.log"),
                       open_files=200, args=["--header-timeout", "3"]) as srv:
        socks, refused = [], 0
        for i in range(150):
            try:
                socks.append(from_address(srv, f"127.0.1.{1 + i % 10}", timeout=5))
            except OSError:
                refused += 1
        time.sleep(1.5)
        for s in socks:
            s.settimeout(0.01)
            with contextlib.suppress(TimeoutError, BlockingIOError, ConnectionResetError):
                refused += s.recv(100).startswith(b"HTTP/1.1 503")
        assert refused >= 150 - 72 - 10, refused
        t0 = time.monotonic()
        while True:  # the slow ones are cut: served again
            try:
                if httpx.get(srv.url + "/api/games?limit=1", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() - t0 < 20, "the server did not serve again"
            time.sleep(0.2)
        for s in socks:
            s.close()
    text = (tmp_path / "s.log").read_text(errors="replace")
    assert "Too many open files" not in text and "Traceback" not in text, text[-3000:]


def test_a_body_sent_a_byte_at_a_time_is_refused_with_408(server):
    s = from_address(server, "127.0.0.4")
    body = json.dumps({"players": 3, "seats": ["random"] * 3}).encode()
    s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    t0 = time.monotonic()
    try:
        for ch in body:
            s.sendall(bytes([ch]))
            time.sleep(0.3)
            if time.monotonic() - t0 > 5:
                break
    except OSError:
        pass
    answer = read_all(s, 5)
    assert answer.startswith(b"HTTP/1.1 408") and b"did not arrive" in answer, answer
    assert time.monotonic() - t0 < 6
    s.close()


# --- requests ----------------------------------------------------------------------------------

def test_api_bodies_must_be_json(http):
    """What another site's page can make a visitor's browser send without asking (a form,
    text/plain, a body with no type) is refused with 415; JSON is not (the browser asks first)."""
    body = json.dumps({"players": 3, "seats": ["random"] * 3})
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {"Content-Type": kind} if kind else {}
        r = http.post("/api/games", content=body, headers=headers)
        assert r.status_code == 415 and "JSON" in r.json()["detail"], (kind, r.text)
    assert http.post("/api/games", content=body, headers={"Content-Type": "application/json"}).status_code == 201


def test_the_host_header_must_name_this_server(server, http):
    """DNS rebinding: a page of evil.example whose name now points at 127.0.0.1 sends
    Host: evil.example, and is refused; IP addresses, localhost and the configured name pass."""
    for host in ("evil.example", "evil.example:8000", "games.example.org.evil.example"):
        r = http.get("/api/games", headers={"Host": host})
        assert r.status_code == 400 and "--allowed-host" in r.json()["detail"], (host, r.text)
    for host in (f"127.0.0.1:{server.port}", "localhost", f"localhost:{server.port}",
                 "games.example.org", "[::1]:80", "app.localhost"):
        assert http.get("/api/games?limit=1", headers={"Host": host}).status_code == 200, host
    gid = bot_game(http)
    s = from_address(server, "127.0.0.1")
    s.sendall((f"GET /ws/games/{gid} HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
    assert read_all(s, 5).startswith(b"HTTP/1.1 403")
    s.close()


def test_tokens_are_redacted_from_the_log_however_their_name_is_written(server, http):
    r = http.post("/api/games", json={"players": 3, "seats": ["you", "random", "random"]})
    gid, tok = r.json()["game_id"], r.json()["seats"][0]["token"]
    host = r.json()["host_token"]
    for query in (f"%74oken={tok}", f"TOKEN={tok}", f"host%5Ftoken={host}", f"a=1&%74%6Fken={tok}"):
        http.get(f"/api/games/{gid}?{query}")
    with connect(f"{server.ws_url}/ws/games/{gid}?%74oken={tok}", open_timeout=10) as ws:
        assert json.loads(ws.recv(10))["seat"] == 0  # the server reads it as the token
    time.sleep(0.3)
    text = server.log_file.read_text(errors="replace")
    assert "%74oken=[hidden]" in text
    assert tok not in text and host not in text


def test_seats_taken_from_the_lobby_are_limited_per_address(http):
    """One script cannot take every open seat of the lobby: 3 a minute here (--join-rate)."""
    gid = http.post("/api/games", json={"players": 6, "seats": ["you"] + ["open"] * 5}).json()["game_id"]
    for seat in (1, 2, 3):
        assert http.post(f"/api/games/{gid}/join", json={"seat": seat}).status_code == 200
    r = http.post(f"/api/games/{gid}/join", json={"seat": 4})
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0, r.text
    assert "seats taken" in r.json()["detail"]
    listed = {g["game_id"]: g for g in http.get("/api/games").json()["games"]}[gid]
    assert [s["joined"] for s in listed["seats"]][4:] == [False, False]


# --- replays ------------------------------------------------------------------------------------

def test_uploads_are_limited_the_cache_keeps_its_budget_and_summaries_come_in_pages(http):
    """--upload-rate 4/minute: a record over the stated length (20,000 decisions), then three
    games' records, then the fourth is refused (429); the cache (--replay-cache-mb 0.15) has let
    the oldest go; a summary comes a page at a time, the pages adding up to the whole."""
    records = [finished_record(http, seed) for seed in (1, 2, 3, 4)]

    def post(rec):
        return http.post("/api/replays", content=json.dumps(rec), headers={"Content-Type": "application/json"})
    long = {**records[0], "actions": records[0]["actions"] * (20_001 // len(records[0]["actions"]) + 1)}
    r = post(long)
    assert r.status_code == 422 and "at most 20000" in r.json()["detail"], r.text[:300]
    ids = []
    for rec in records[:3]:
        r = post(rec)
        assert r.status_code == 201, r.text
        ids.append(r.json()["replay_id"])
    r = post(records[3])
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0, r.text
    assert post(records[2]).status_code == 201  # kept: no new replay, not counted
    kept = [http.get(f"/api/replays/{rid}").status_code for rid in ids]
    steps = [len(rec["actions"]) for rec in records[:3]]
    assert (steps[-1] + 1) * 1000 < 150_000 < (steps[0] + steps[-1] + 2) * 1000, steps  # 1 KB a decision
    assert kept[0] == 404 and kept[-1] == 200, (kept, steps)  # over the budget: the oldest let go
    whole = http.get(f"/api/replays/{ids[-1]}").json()
    assert whole["until"] == whole["steps"] > 100
    since, log, cycles, actions = 0, [], [], []
    while True:
        page = http.get(f"/api/replays/{ids[-1]}", params={"since": since, "limit": 100}).json()
        assert page["since"] == since and page["until"] <= since + 100
        log += page["log"]
        cycles = cycles[:since] + page["cycle"]
        actions += page["actions"]
        if page["until"] == page["steps"]:
            break
        since = page["until"]
    assert log == whole["log"] and cycles == whole["cycle"] and actions == whole["actions"]
    assert http.get(f"/api/replays/{ids[-1]}", params={"limit": 2001}).status_code == 422


# --- WebSockets ---------------------------------------------------------------------------------

def ws_from(server, path: str, address: str, **kw):
    return connect(f"{server.ws_url}{path}", sock=from_address(server, address), open_timeout=10, **kw)


def test_a_flood_of_messages_is_refused_then_cut_without_eating_memory(server, http):
    """20,000 pings as fast as possible, never reading: beyond 20 a second they are refused
    (429), and after 50 refusals the connection is closed; the server's memory stays put and
    it answers others all along."""
    gid = bot_game(http)
    before = rss_mb(server.proc.pid)
    with ws_from(server, f"/ws/games/{gid}", "127.0.0.5") as ws:
        sent = 0
        with pytest.raises((ConnectionClosed, OSError)):
            for _ in range(20_000):
                ws.send('{"type":"ping"}')
                sent += 1
            ws.recv(10)
            while True:
                ws.recv(10)
    assert http.get("/api/games?limit=1").status_code == 200
    assert rss_mb(server.proc.pid) - before < 30
    with ws_from(server, f"/ws/games/{gid}", "127.0.0.5") as ws:  # the next one is welcome
        assert json.loads(ws.recv(10))["type"] == "state"


def _frame(text: str) -> bytes:
    """A masked WebSocket text frame (a client's)."""
    data = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81, 0x80 | len(data)]) if len(data) < 126 else bytes([0x81, 0xFE]) + struct.pack(">H", len(data))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def test_a_client_that_does_not_read_is_dropped(server, http):
    """A spectator of a 6-player all-bot game that never reads and keeps asking for the state
    and for pongs: once the kernel's buffers are full (some 4 MB), its queue fills and the
    server drops it, instead of buffering without end."""
    r = http.post("/api/games", json={"players": 6, "seats": ["random"] * 6, "bot_delay": 0})
    gid = r.json()["game_id"]
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    s.bind(("127.0.0.6", 0))
    s.settimeout(10)
    s.connect(("127.0.0.1", server.port))
    s.sendall((f"GET /ws/games/{gid} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
               f"Sec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        head += s.recv(1)
    assert head.startswith(b"HTTP/1.1 101"), head
    t0 = time.monotonic()
    dropped = False
    n = 0
    while time.monotonic() - t0 < 60:
        try:  # the state again (some 10 KB each), and a pong, within the rate (20 a second)
            s.sendall(_frame('{"type":"state"}' if n % 2 else '{"type":"ping"}'))
        except OSError:
            break
        n += 1
        time.sleep(0.06)
        if "does not read" in server.log_file.read_text(errors="replace"):
            dropped = True
            break
    s.close()
    assert dropped, "the server kept a client that does not read"


def test_spectators_per_game_and_sockets_per_address_are_capped(server, http):
    """--max-spectators 3: a fourth spectator of a game is refused (429, closed 4429), a seat's
    player is not; --max-ws-per-address 5: a sixth socket from one address is refused."""
    h = http.post("/api/games", json={"players": 3, "seats": ["you", "random", "random"]}).json()
    with contextlib.ExitStack() as stack:
        for i in range(3):
            w = stack.enter_context(ws_from(server, f"/ws/games/{h['game_id']}", f"127.0.2.{i}"))
            assert json.loads(w.recv(10))["type"] == "state"
        fourth = stack.enter_context(ws_from(server, f"/ws/games/{h['game_id']}", "127.0.2.9"))
        msg = json.loads(fourth.recv(10))
        assert msg["status"] == 429 and "spectators" in msg["message"], msg
        with pytest.raises(ConnectionClosed) as e:
            fourth.recv(10)
        assert e.value.rcvd.code == 4429
        seat = stack.enter_context(ws_from(server, f"/ws/games/{h['game_id']}?token={h['seats'][0]['token']}",
                                           "127.0.2.8"))
        assert json.loads(seat.recv(10))["seat"] == 0  # a seat is no spectator: always welcome
    games = [bot_game(http) for _ in range(3)]
    with contextlib.ExitStack() as stack:
        for g in (games[0], games[0], games[0], games[1], games[1]):  # 5 from one address
            w = stack.enter_context(ws_from(server, f"/ws/games/{g}", "127.0.0.7"))
            assert json.loads(w.recv(10))["type"] == "state"
        sixth = stack.enter_context(ws_from(server, f"/ws/games/{games[2]}", "127.0.0.7"))
        msg = json.loads(sixth.recv(10))
        assert msg["status"] == 429 and "your address" in msg["message"], msg
