"""The server under faults (games never freeze, seats stay whose they are), against real
servers: uvicorn in subprocesses on SQLite and PostgreSQL (conftest.db_url), two processes on
one database where it concerns several, and a PostgreSQL server of the test's own
(testing.PrivatePostgres) where the database must go down: the shared one never does.

- Games never freeze: a database outage, a locked SQLite file, a bot worker killed three times
  or hung, a bot task gone: the bots go on by themselves; reads while the database is down
  answer 503 with Retry-After and come back by themselves.
- Seats stay whose they are: a token the host revoked through one process never acts through
  the other (HTTP or an open WebSocket); a join racing the host's change never leaves a seat
  open with no token and joined; a chosen seed is refused in games with other people; /undo
  and /ends-turn know a 2-player seat's second faction; one rematch per game across processes.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import time
from functools import partial
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
from websockets.sync.client import connect  # noqa: E402

from cyclades.server.testing import PrivatePostgres, ServerProcess, at_once, postgres_bin  # noqa: E402

TTL = ["--peer-ttl", "2", "--game-rate", "none", "--max-open-games", "0"]  # tests make many games
LEFT = 1.0  # a seat's player counts as gone after 1 s unseen (default 60)
ENV = {"CYCLADES_SEAT_LEFT_SECONDS": str(LEFT), "CYCLADES_BOT_SWEEP_SECONDS": "1"}


def clean_log(path):
    text = Path(path).read_text(errors="replace")
    assert "Traceback" not in text and "Exception in ASGI" not in text, text[-3000:]
    return text


def state(c, gid, token=None):
    r = c.get(f"/api/games/{gid}", params={"token": token} if token else None)
    assert r.status_code == 200, r.text
    return r.json()


def wait(cond, timeout=60.0, what="condition", every=0.1):
    deadline = time.monotonic() + timeout
    while True:
        x = cond()
        if x:
            return x
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(every)


def version(c, gid):
    r = c.get(f"/api/games/{gid}")
    return r.json()["version"] if r.status_code == 200 else None


def play_until(c, gid, token, rng, cond, timeout=60):
    """The person at `token` plays random legal actions until cond(state) (bots answer)."""
    deadline = time.monotonic() + timeout
    while True:
        st = state(c, gid, token)
        if cond(st):
            return st
        assert time.monotonic() < deadline, "timed out playing"
        if st["legal_actions"]:
            r = c.post(f"/api/games/{gid}/actions", json={"token": token, "version": st["version"],
                                                           "action": rng.choice(st["legal_actions"])})
            assert r.status_code in (200, 409), r.text
        else:
            time.sleep(0.05)


# --- games never freeze ------------------------------------------------------------------------

needs_postgres = pytest.mark.skipif(postgres_bin() is None, reason="PostgreSQL's programs (initdb, "
                                    "pg_ctl) are not installed: apt-get install postgresql")


@needs_postgres
def test_a_database_outage_answers_503_and_every_game_goes_on_by_itself(tmp_path):
    """PostgreSQL stopped for 6 s under two processes: reads answer 503 with Retry-After (never
    a 500), the all-bot game and the person's game go on once it is back, by themselves; the
    housekeeping (every second here) meets the outage too, and logs it without a traceback."""
    with PrivatePostgres() as pg:
        servers = [ServerProcess(pg.url, bot_delay=0.05, log_path=str(tmp_path / f"{n}.log"),
                                 args=[*TTL, "--sweep-seconds", "1"], env=ENV, timeout=60).start()
                   for n in "ab"]
        a, b = clients(servers)
        try:
            bots = a.post("/api/games", json={"players": 3, "seats": ["random"] * 3}).json()["game_id"]
            h = b.post("/api/games", json={"players": 3, "seats": ["you", "random", "greedy"]}).json()
            gid, tok = h["game_id"], h["seats"][0]["token"]
            rng = random.Random(1)
            mine = play_until(a, gid, tok, rng, lambda st: st["version"] > 20 and st["legal_actions"])
            wait(lambda: (version(b, bots) or 0) > 20, what="the bots to play")
            pg.stop()
            try:
                time.sleep(1)
                for c in (a, b):
                    r = c.get("/api/games")  # the lobby reads the database
                    assert r.status_code == 503 and r.headers["retry-after"].isdigit(), r.text
                    assert "database" in r.json()["detail"]
                    r = c.post("/api/games", json={"players": 3, "seats": ["random"] * 3})
                    assert r.status_code == 503, r.text
                    # a game: read fresh from the database while another process is alive
                    assert c.get(f"/api/games/{gid}", params={"token": tok}).status_code == 503
                r = a.post(f"/api/games/{gid}/actions", json={
                    "token": tok, "version": mine["version"], "action": mine["legal_actions"][0]})
                assert r.status_code == 503 and "nothing changed" in r.json()["detail"], r.text
                time.sleep(5)
            finally:
                pg.start()
            for c in (a, b):  # reads come back by themselves
                wait(lambda c=c: c.get("/api/games").status_code == 200, 30, "reads to come back")
            before = version(a, bots)
            wait(lambda: (version(a, bots) or 0) > before + 10, 60, "the all-bot game to go on")
            st = play_until(b, gid, tok, rng, lambda st: st["version"] > 40 or st["status"] == "over")
            assert st["version"] > 40 or st["status"] == "over"
        finally:
            for c in (a, b):
                c.close()
            for s in servers:
                s.stop()
    for n in "ab":
        text = clean_log(tmp_path / f"{n}.log")
        assert "the database does not answer" in text
        assert "housekeeping could not reach the database" in text


def test_a_locked_sqlite_file_holds_the_bots_back_until_it_is_free(tmp_path):
    """Another program holds the SQLite file's write lock for 4 s: the bots' decisions cannot
    be stored ("database is locked" after 0.5 s), are tried again, and the game goes on."""
    db = tmp_path / "g.db"
    srv = ServerProcess(f"sqlite:///{db}", bot_delay=0.02, log_path=str(tmp_path / "s.log"),
                        env={"CYCLADES_SQLITE_BUSY_SECONDS": "0.5"}).start()
    c = httpx.Client(base_url=srv.url, timeout=20)
    try:
        gid = c.post("/api/games", json={"players": 3, "seats": ["random"] * 3}).json()["game_id"]
        wait(lambda: version(c, gid) > 10, what="the bots to play")
        lock = sqlite3.connect(db, timeout=10, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # the write lock (WAL mode: readers go on)
        try:
            time.sleep(1)
            held = version(c, gid)
            time.sleep(3)
            assert version(c, gid) == held  # nothing stored meanwhile
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        wait(lambda: version(c, gid) > held + 10, 30, "the bots to go on")
    finally:
        c.close()
        srv.stop()
    text = clean_log(tmp_path / "s.log")
    assert "trying again" in text


def bot_workers(server_pid: int) -> list:
    """The pids of a server's bot worker processes (python -m cyclades.server.bots)."""
    out = []
    for p in Path("/proc").iterdir():
        if not p.name.isdigit():
            continue
        try:
            ppid = int((p / "stat").read_text().rsplit(")", 1)[1].split()[1])
            cmd = (p / "cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if ppid == server_pid and b"cyclades.server.bots" in cmd:
            out.append(int(p.name))
    return out


def test_a_bot_worker_killed_three_times_or_hung_does_not_stop_its_game(tmp_path):
    """The decision's worker is killed (kill -9) three times in a row, then stopped (SIGSTOP,
    a hang): each time the decision fails, and the game's bots go on after a pause."""
    srv = ServerProcess(f"sqlite:///{tmp_path / 'g.db'}", bot_delay=0.0, log_path=str(tmp_path / "s.log"),
                        args=["--bot-workers", "1", "--bot-seconds", "0.3"]).start()
    c = httpx.Client(base_url=srv.url, timeout=20)
    try:
        # mcts at its budget: every decision takes its worker about 0.3 s
        gid = c.post("/api/games", json={"players": 3, "seats": ["mcts"] * 3}).json()["game_id"]
        wait(lambda: version(c, gid) > 3, 60, "the bots to play")
        killed = set()
        while len(killed) < 3:  # the same decision, its three tries
            pids = [p for p in bot_workers(srv.proc.pid) if p not in killed]
            if pids:
                time.sleep(0.1)  # mid-decision
                os.kill(pids[0], signal.SIGKILL)
                killed.add(pids[0])
            time.sleep(0.02)
        after = wait(lambda: version(c, gid), what="an answer")
        wait(lambda: version(c, gid) > after + 3, 60, "the bots to go on after three deaths")
        hung = wait(lambda: bot_workers(srv.proc.pid), what="a worker")[0]
        os.kill(hung, signal.SIGSTOP)  # killed by the pool after 3 x 0.3 + 10 s
        stopped = version(c, gid)
        wait(lambda: version(c, gid) > stopped + 3, 60, "the bots to go on after a hang")
    finally:
        c.close()
        srv.stop()
    text = clean_log(tmp_path / "s.log")
    assert "the bot's worker died 3 times" in text and "its worker (pid" in text


def test_a_game_left_without_its_bot_task_is_started_again_by_the_sweep(tmp_path):
    """The net under the bot tasks: a game this process drives, a bot to move, no task (ended
    for whatever reason): the sweep starts one, and the game goes on."""
    from cyclades.server.sessions import Manager
    from cyclades.server.store import Store
    from cyclades.server.sync import Sync

    async def main():
        m = Manager(Store(f"sqlite:///{tmp_path / 'g.db'}"), bot_delay=0, bot_workers=0)
        m.sync = Sync(m)
        await m.sync.beat()
        try:
            s = await m.create({"players": 3}, [{"kind": "random"}] * 3)
            for _ in range(200):
                await asyncio.sleep(0.01)
                if s.decisions > 5:
                    break
            s.bot_task.cancel()
            await asyncio.sleep(0.05)
            held = s.decisions
            await asyncio.sleep(0.3)
            assert s.decisions == held and s.bot_task.done()  # frozen
            assert await m.sync.sweep_bots() == 1
            for _ in range(300):
                await asyncio.sleep(0.01)
                if s.decisions > held + 5:
                    break
            assert s.decisions > held + 5
            assert await m.sync.sweep_bots() == 0  # running: nothing to do
        finally:
            await m.stop()

    asyncio.run(main())


# --- seats stay whose they are, across processes ----------------------------------------------

@pytest.fixture(scope="module")
def pair(db_url, tmp_path_factory):
    d = tmp_path_factory.mktemp("faults")
    servers = []
    try:
        for n in "ab":
            servers.append(ServerProcess(db_url, bot_delay=0.0, log_path=str(d / f"{n}.log"),
                                         args=TTL, env=ENV, timeout=60).start())
        yield servers
    finally:
        for s in servers:
            s.stop()
    for n in "ab":
        clean_log(d / f"{n}.log")


def clients(servers):
    """An HTTP client for each server (the caller closes them)."""
    return [httpx.Client(base_url=s.url, timeout=20) for s in servers]


@pytest.fixture
def ab(pair):
    """A client of each of the pair's processes, closed after the test."""
    both = clients(pair)
    yield both
    for c in both:
        c.close()


def friends_game(c, n=3):
    """A game of people only: the host and n - 1 invited friends; its id, tokens, host token."""
    h = c.post("/api/games", json={"players": n, "seats": ["you"] + ["invite"] * (n - 1)}).json()
    return h["game_id"], {s["seat"]: s["token"] for s in h["seats"]}, h["host_token"]


def to_move_seat(st):
    return next(s["seat"] for s in st["seats"] if st["view"]["to_move"] in s["factions"])


def test_a_revoked_token_never_acts_through_the_other_process(ab):
    """The host gives the seat to a new invitation link through B; the old token's decision,
    at once through A (which may not have heard yet), is refused: 10 times, none accepted."""
    a, b = ab
    accepted = 0
    for _ in range(10):
        gid, toks, host = friends_game(a)
        st = state(a, gid)
        seat = to_move_seat(st)
        old = toks[seat]
        legal = state(a, gid, old)["legal_actions"]  # A knows the seat, its player seen
        if seat != 0:
            time.sleep(LEFT + 0.3)  # ... and gone since: the host may give a friend's seat away
        r = b.post(f"/api/games/{gid}/seats/{seat}", json={"host_token": host, "kind": "invite"})
        assert r.status_code == 200, r.text
        r = a.post(f"/api/games/{gid}/actions", json={"token": old, "version": st["version"],
                                                       "action": legal[0]})
        accepted += r.status_code == 200
        assert r.status_code == 403, r.text
        assert state(a, gid)["version"] == st["version"]
    assert accepted == 0


def test_a_revoked_token_never_acts_through_an_open_websocket(pair, ab):
    """A WebSocket opened on A with the token; the host's own seat given to a bot through B
    (the host may, while at the table); the socket's decision is refused, as the seats stored."""
    a, b = ab
    for _ in range(5):
        gid, toks, host = friends_game(a)
        rng = random.Random(2)
        st = state(a, gid)
        while to_move_seat(st) != 0:  # the friends play until the host is to move
            s = to_move_seat(st)
            mine = state(a, gid, toks[s])
            a.post(f"/api/games/{gid}/actions", json={"token": toks[s], "version": mine["version"],
                                                       "action": rng.choice(mine["legal_actions"])})
            st = state(a, gid)
        with connect(f"{pair[0].ws_url}/ws/games/{gid}?token={toks[0]}", open_timeout=30) as ws:
            first = json.loads(ws.recv(10))
            assert first["seat"] == 0 and first["legal_actions"]
            r = b.post(f"/api/games/{gid}/seats/0", json={"host_token": host, "kind": "invite"})
            assert r.status_code == 200, r.text
            ws.send(json.dumps({"type": "action", "version": first["version"],
                                "action": first["legal_actions"][0]}))
            deadline = time.monotonic() + 10
            while True:
                msg = json.loads(ws.recv(max(0.1, deadline - time.monotonic())))
                if msg["type"] == "error" and msg["status"] == 403:
                    break
                assert msg["type"] == "state" and msg["version"] == first["version"], msg
        assert state(b, gid)["version"] == first["version"]  # nothing was stored


def test_a_join_racing_the_host_never_leaves_a_seat_open_and_joined(ab):
    """The friend's link is used (which marks the seat joined) while the host opens the seat,
    through the other process, at the same moment: 20 races, never a seat that is open, has
    no token and counts as joined (nobody could ever take it)."""
    a, b = ab
    for _ in range(20):
        gid, toks, host = friends_game(a)
        out = [r.status_code for r in at_once(
            partial(a.get, f"/api/games/{gid}", params={"token": toks[1]}),
            partial(b.post, f"/api/games/{gid}/seats/1", json={"host_token": host, "kind": "open"}))]
        seat = state(b, gid)["seats"][1]
        if seat["open"]:
            assert not seat["joined"], (out, seat)  # open: anyone may still take it
            r = a.post(f"/api/games/{gid}/join", json={"seat": 1})
            assert r.status_code in (200, 429), r.text


def test_one_rematch_per_game_across_processes(ab):
    """Both processes asked for the rematch of a finished game at the same moment: one new
    game, the same answer through both, 3 times."""
    a, b = ab
    for _ in range(3):
        gid = a.post("/api/games", json={"players": 3, "seats": ["random"] * 3, "max_cycles": 1}).json()["game_id"]
        wait(lambda g=gid: state(b, g)["status"] == "over", 60, "the game to end")
        answers = [r.json() for r in at_once(partial(a.post, f"/api/games/{gid}/rematch"),
                                             partial(b.post, f"/api/games/{gid}/rematch"))]
        assert answers[0]["game_id"] == answers[1]["game_id"], answers
        assert sorted(x["created"] for x in answers) == [False, True]
        for c in (a, b):
            assert c.get(f"/api/games/{gid}/rematch").json()["rematch"]["game_id"] == answers[0]["game_id"]
        made = [g for g in a.get("/api/games").json()["games"] if g["game_id"] == answers[0]["game_id"]]
        assert len(made) == 1


# --- one process ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def one(tmp_path_factory):
    d = tmp_path_factory.mktemp("one")
    with (ServerProcess(f"sqlite:///{d / 'g.db'}", bot_delay=0.0, log_path=str(d / "s.log")) as srv,
          httpx.Client(base_url=srv.url, timeout=20) as c):
        yield c
    clean_log(d / "s.log")


def test_a_chosen_seed_only_without_other_people(one):
    """With the seed and the public decisions one could rebuild every hidden fact: refused
    when the game has a seat for someone else (invite, open), accepted against bots."""
    for seats in (["you", "invite", "random"], ["you", "open", "random"], ["invite"] * 3,
                  ["human", "random", "random"]):
        r = one.post("/api/games", json={"players": 3, "seats": seats, "seed": 41})
        assert r.status_code == 422 and "seed" in r.json()["detail"], (seats, r.text)
    for seats in (["you", "random", "greedy"], ["random"] * 3):
        r = one.post("/api/games", json={"players": 3, "seats": seats, "seed": 41})
        assert r.status_code == 201, r.text
        assert "seed" not in json.dumps(state(one, r.json()["game_id"]))
    r = one.post("/api/games", json={"players": 3, "seats": ["you", "invite", "random"]})
    assert r.status_code == 201  # no seed: a secret random one


def test_undo_and_ends_turn_know_a_two_player_seats_second_faction(one):
    """With 2 players, seat 0 plays factions 0 and 2, seat 1 factions 1 and 3 (R22): when
    faction 2 or 3 is to move, /ends-turn answers for its seat, and /undo takes its last
    decision back."""
    rng = random.Random(5)
    checked_ends, checked_back = False, False
    for _ in range(3):  # games, until both were seen
        h = one.post("/api/games", json={"players": 2, "seats": ["you", "invite"]}).json()
        gid = h["game_id"]
        toks = {s["seat"]: s["token"] for s in h["seats"]}
        while not (checked_ends and checked_back):
            st = state(one, gid)
            if st["status"] == "over":
                break
            faction = st["view"]["to_move"]
            seat = 0 if faction in (0, 2) else 1
            mine = state(one, gid, toks[seat])
            legal = mine["legal_actions"]
            kinds = {a["kind"] for a in legal}
            if faction in (2, 3) and not checked_ends and "bid" in kinds:
                bid = next(a for a in legal if a["kind"] == "bid")
                r = one.post(f"/api/games/{gid}/ends-turn", json={
                    "token": toks[seat], "version": mine["version"], "action": bid})
                assert r.status_code == 200 and r.json()["ends_turn"] is True, r.text  # a bid hands over
                checked_ends = True
            if faction in (2, 3) and not checked_back and mine.get("undo", {}).get("steps", 0) >= 1:
                r = one.post(f"/api/games/{gid}/undo", json={"token": toks[seat], "version": mine["version"]})
                assert r.status_code == 200 and r.json()["undos"] == 1, r.text
                checked_back = True
                continue
            choice = [a for a in legal if a["kind"] != "cancel"] or legal
            moves = [a for a in choice if a["kind"] in ("land_move", "sea_move", "origin", "take")]
            if faction in (2, 3) and moves:  # a move is a sequence of choices: one can go back
                choice = moves
            r = one.post(f"/api/games/{gid}/actions", json={"token": toks[seat], "version": mine["version"],
                                                             "action": rng.choice(choice)})
            assert r.status_code == 200, r.text
        if checked_ends and checked_back:
            break
    assert checked_ends and checked_back
