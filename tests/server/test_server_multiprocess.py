"""Several server processes on one database (server/sync.py, docs/deploy.md): two
real servers (uvicorn in subprocesses) on one PostgreSQL database, and on one SQLite file (WAL
mode; conftest.db_url). A game is played through both in turn, each WebSocket client hears
every move whichever process made it, a process killed with kill -9 loses nothing and the
other carries on, bots are played by one process only (no decision is ever stored twice), and
`cyclades serve --workers 2` serves one port with two processes."""
import json
import random
import time

import httpx
import pytest
from websockets.sync.client import connect

import cyclades
from cyclades.server.testing import ServerProcess

TTL = ["--peer-ttl", "2"]  # a silent process is dead after 2 s (default 10)
LEFT = 1.0                # a seat's player is gone 1 s after their last request (default 60)
ENV = {"CYCLADES_SEAT_LEFT_SECONDS": str(LEFT)}


@pytest.fixture(scope="module")
def pair(db_url, tmp_path_factory):
    d = tmp_path_factory.mktemp("multi")
    a = ServerProcess(db_url, bot_delay=0.0, log_path=str(d / "a.log"), args=TTL, env=ENV).start()
    try:
        b = ServerProcess(db_url, bot_delay=0.0, log_path=str(d / "b.log"), args=TTL, env=ENV).start()
    except BaseException:
        a.stop()
        raise
    a.log, b.log = d / "a.log", d / "b.log"
    try:
        yield a, b
    finally:
        b.stop()
        a.stop()
    for p in (a.log, b.log):
        text = p.read_text(errors="replace")
        assert "Traceback" not in text, text[-3000:]


def clients(*servers):
    return [httpx.Client(base_url=s.url, timeout=10) for s in servers]


def state(c, gid, token=None):
    r = c.get(f"/api/games/{gid}", params={"token": token} if token else None)
    assert r.status_code == 200, r.text
    return r.json()


class Listener:
    """A WebSocket client that keeps every log line and the last version it heard."""

    def __init__(self, url):
        self.cm = connect(url, open_timeout=30)  # two workers starting on 2 loaded cores
        self.ws = self.cm.__enter__()
        self.lines, self.version, self.seen = [], None, []

    def until(self, version, timeout=30.0):
        deadline = time.monotonic() + timeout
        while self.version is None or self.version < version:
            left = deadline - time.monotonic()
            assert left > 0, f"heard version {self.version}, waited for {version}"
            msg = json.loads(self.ws.recv(left))
            if msg.get("type") == "state":
                self.lines += msg["log"]
                self.version = msg["version"]
                self.seen.append(msg["version"])

    def close(self):
        self.cm.__exit__(None, None, None)


def wait(cond, timeout=30.0, what="condition"):
    deadline = time.monotonic() + timeout
    while True:
        x = cond()
        if x:
            return x
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def test_a_game_played_alternately_through_two_processes(pair):
    a, b = pair
    ca, cb = clients(a, b)
    with ca, cb:
        c = ca.post("/api/games", json={"players": 3, "seats": ["you", "invite", "open"],
                                        "names": ["Ann", "Bob", None]}).json()
        gid = c["game_id"]
        toks = {s["seat"]: s["token"] for s in c["seats"] if s["token"]}
        # The open seat is taken through B: A knows its new token at once.
        r = cb.post(f"/api/games/{gid}/join", json={"seat": 2})
        assert r.status_code == 200, r.text
        toks[2] = r.json()["token"]
        assert cb.post(f"/api/games/{gid}/join", json={"seat": 2}).status_code == 409
        assert ca.post(f"/api/games/{gid}/join", json={"seat": 2}).status_code == 409  # once, in all
        v0 = state(ca, gid, toks[2])["version"]
        ears = [Listener(f"{s.ws_url}/ws/games/{gid}") for s in (a, b)]
        ears += [Listener(f"{s.ws_url}/ws/games/{gid}?token={toks[i]}") for i, s in ((0, a), (1, b))]
        try:
            rng = random.Random(5)
            for i in range(24):
                c = (ca, cb)[i % 2]
                st = state(c, gid)
                seat = st["view"]["to_move"]
                mine = state(c, gid, toks[seat])
                assert mine["version"] == v0 + i, "a process answered from an old state"
                r = c.post(f"/api/games/{gid}/actions", json={
                    "token": toks[seat], "version": mine["version"],
                    "action": rng.choice(mine["legal_actions"])})
                assert r.status_code == 200, r.text
                assert r.json()["version"] == v0 + i + 1
                for e in ears:
                    e.until(v0 + i + 1)
            # A stale decision is refused by either process with the fresh version ...
            st = state(cb, gid)
            seat, v = st["view"]["to_move"], st["version"]
            good = state(cb, gid, toks[seat])["legal_actions"][0]
            for c in (ca, cb):
                r = c.post(f"/api/games/{gid}/actions",
                           json={"token": toks[seat], "version": v - 1, "action": good})
                assert r.status_code == 409 and f"version {v}" in r.json()["detail"], r.text
            # ... and a decision made through B at once answers the newer version through A.
            r = cb.post(f"/api/games/{gid}/actions", json={"token": toks[seat], "version": v, "action": good})
            assert r.status_code == 200, r.text
            st = state(cb, gid)
            nxt = st["view"]["to_move"]
            a2 = state(cb, gid, toks[nxt])["legal_actions"][0]
            r = ca.post(f"/api/games/{gid}/actions", json={"token": toks[nxt], "version": v + 1, "action": a2})
            assert r.status_code == 200, r.text
            for e in ears:
                e.until(v + 2)
            log = ca.get(f"/api/games/{gid}/log").json()["log"]
            assert cb.get(f"/api/games/{gid}/log").json()["log"] == log
            for e in ears:  # every client heard every move, whichever process made it
                assert e.lines == log[-len(e.lines):] and len(e.lines) >= len(log) - 200
            assert state(ca, gid)["view"] == state(cb, gid)["view"]
        finally:
            for e in ears:
                e.close()


def test_a_seat_given_to_a_bot_through_one_process_stops_its_token_in_the_other(pair):
    a, b = pair
    ca, cb = clients(a, b)
    with ca, cb:
        c = ca.post("/api/games", json={"players": 3, "seats": ["you", "invite", "random"]}).json()
        gid, host = c["game_id"], c["host_token"]
        t1 = c["seats"][1]["token"]
        assert state(ca, gid, t1)["seat"] == 1
        # The friend was seen through A: B knows they are at the table, and refuses the host.
        r = cb.post(f"/api/games/{gid}/seats/1", json={"host_token": host, "kind": "random"})
        assert r.status_code == 409 and "at the table" in r.json()["detail"], r.text
        time.sleep(LEFT + 0.5)  # they left
        r = cb.post(f"/api/games/{gid}/seats/1", json={"host_token": host, "kind": "random"})
        assert r.status_code == 200, r.text
        assert ca.get(f"/api/games/{gid}", params={"token": t1}).status_code == 403
        assert state(ca, gid)["seats"][1]["kind"] == "random"


def test_bots_are_played_by_one_process_only(pair):
    a, b = pair
    ca, cb = clients(a, b)
    with ca, cb:
        gid = ca.post("/api/games", json={"players": 3, "seats": ["random"] * 3, "seed": 77,
                                          "bot_delay": 0.01, "max_cycles": 3}).json()["game_id"]
        ears = [Listener(f"{s.ws_url}/ws/games/{gid}") for s in (a, b)]
        try:
            final = wait(lambda: (lambda st: st if st["status"] == "over" else None)(state(cb, gid)),
                         60, "the bots to finish")
            for e in ears:
                e.until(final["version"])
            rec = cb.get(f"/api/games/{gid}/record").json()
            replayed = cyclades.Game.from_record(rec)
            assert replayed.is_over and replayed.view(None) == final["view"]
            assert state(ca, gid)["view"] == final["view"]
        finally:
            for e in ears:
                e.close()
    # Nobody else played them: no decision collided with one stored by the other process.
    for p in (a.log, b.log):
        assert gid not in p.read_text(errors="replace")


def test_a_rematch_asked_through_one_process_is_the_rematch_in_the_other(pair):
    """A finished game held by both processes: the rematch made through A (stored in the
    game's settings) is the one B answers, and asking B again makes no second game."""
    a, b = pair
    ca, cb = clients(a, b)
    with ca, cb:
        gid = ca.post("/api/games", json={"players": 3, "seats": ["random"] * 3, "seed": 12,
                                          "bot_delay": 0.01, "max_cycles": 2}).json()["game_id"]
        wait(lambda: state(ca, gid)["status"] == "over", 60, "the bots to finish")
        assert state(cb, gid)["status"] == "over"  # B holds the finished game too
        assert cb.get(f"/api/games/{gid}/rematch").json() == {"rematch": None}
        made = ca.post(f"/api/games/{gid}/rematch").json()
        assert made["created"] and made["game_id"] != gid
        heard = cb.get(f"/api/games/{gid}/rematch").json()["rematch"]
        assert heard is not None and heard["game_id"] == made["game_id"], heard
        again = cb.post(f"/api/games/{gid}/rematch").json()
        assert again["game_id"] == made["game_id"] and not again["created"]


def test_kill_9_of_one_process_mid_game_and_the_other_goes_on(db_url, tmp_path):
    a = ServerProcess(db_url, bot_delay=0.02, log_path=str(tmp_path / "a.log"), args=TTL).start()
    b = ServerProcess(db_url, bot_delay=0.02, log_path=str(tmp_path / "b.log"), args=TTL).start()
    try:
        ca, cb = clients(a, b)
        with ca, cb:
            h = ca.post("/api/games", json={"players": 3, "seats": ["you", "random", "random"],
                                            "max_cycles": 3, "seed": 2025}).json()
            gid, tok = h["game_id"], h["seats"][0]["token"]
            bots = ca.post("/api/games", json={"players": 3, "seats": ["random"] * 3,
                                               "seed": 12}).json()["game_id"]  # A plays its bots
            ear = Listener(f"{b.ws_url}/ws/games/{gid}")
            rng = random.Random(9)
            acked = {}

            def turn(c, deadline=30):
                return wait(lambda: (lambda st: st if st["legal_actions"] or st["status"] == "over"
                                     else None)(state(c, gid, tok)), deadline, "the human's turn")

            def decide(c):
                st = turn(c)
                if st["status"] == "over":
                    return False
                act = rng.choice(st["legal_actions"])
                r = c.post(f"/api/games/{gid}/actions", json={"token": tok, "version": st["version"], "action": act})
                assert r.status_code == 200, r.text
                acked[st["version"]] = {k: v for k, v in act.items() if k != "text"}  # as stored: no words
                return True

            for i in range(10):
                decide((ca, cb)[i % 2])
            decide(ca)  # A plays the bots' answers to this one: killed in the middle of them
            before = state(cb, bots)["version"]
            a.kill()
            while decide(cb):  # the game goes on through B to its end
                pass
            final = state(cb, gid)
            ear.until(final["version"], timeout=30)
            rec = cb.get(f"/api/games/{gid}/record").json()
            start = cyclades.Game.from_record(rec, upto=0).state.version
            for v, act in acked.items():  # every acknowledged decision, at its version, once
                assert rec["actions"][v - start] == act
            replayed = cyclades.Game.from_record(rec)
            assert replayed.is_over and replayed.view(None) == final["view"]
            assert ear.version == final["version"] and final["log"][-1] in ear.lines
            ear.close()
            # B adopted the all-bot game A was playing, and finishes it.
            assert wait(lambda: state(cb, bots)["version"] > before + 5, 30, "B to resume A's bots")
    finally:
        a.kill()
        b.stop()
    text = (tmp_path / "b.log").read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]


def test_serve_with_two_workers_on_one_port(db_url, tmp_path):
    srv = ServerProcess(db_url, bot_delay=0.0, log_path=str(tmp_path / "w.log"),
                        args=["--workers", "2"] + TTL).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            h = c.post("/api/games", json={"players": 3, "seats": ["you", "invite", "invite"]}).json()
        gid = h["game_id"]
        toks = {s["seat"]: s["token"] for s in h["seats"]}
        ears = [Listener(f"{srv.ws_url}/ws/games/{gid}") for _ in range(4)]  # on either worker
        rng = random.Random(1)
        try:
            for _ in range(12):
                with httpx.Client(base_url=srv.url, timeout=10) as c:  # a new connection each
                    st = state(c, gid)
                    seat = st["view"]["to_move"]
                    mine = state(c, gid, toks[seat])
                    r = c.post(f"/api/games/{gid}/actions", json={
                        "token": toks[seat], "version": mine["version"],
                        "action": rng.choice(mine["legal_actions"])})
                    assert r.status_code == 200, r.text
                for e in ears:
                    e.until(r.json()["version"])
        finally:
            for e in ears:
                e.close()
    finally:
        srv.stop()
    text = (tmp_path / "w.log").read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]
    assert "2 server processes share the port" in text


def test_a_process_behind_catches_up_and_answers_from_the_fresh_game(tmp_path):
    """Two Managers (as two processes would) on one SQLite file, told nothing of each other:
    the one behind finds out from the version a request names, or from its decision
    colliding with the one already stored, and answers from the database's game."""
    import asyncio

    from cyclades.server.sessions import Manager, Refused
    from cyclades.server.store import Store

    async def main():
        url = f"sqlite:///{tmp_path / 'g.db'}"
        m1, m2 = Manager(Store(url), bot_delay=0), Manager(Store(url), bot_delay=0)
        try:
            s1 = await m1.create({"players": 3, "seed": 5}, [{"kind": "human", "access": "invite"}] * 3)
            s2 = await m2.get(s1.game_id)
            g = s1.game
            v, seat = g.state.version, g.to_move
            a = g.legal_actions()[0]
            tok = {f: s1.seats[s1.seat_playing(f)]["token"] for f in range(3)}
            assert (await s2.act(tok[seat], v, a.to_json()))["version"] == v + 1  # through "B"
            # "A" still thinks the game is at v: the same decision collides, A catches up.
            with pytest.raises(Refused) as e:
                await s1.act(tok[seat], v, a.to_json())
            assert e.value.status == 409 and f"at version {v + 1}" in e.value.message
            assert s1.game.state.version == v + 1 and s1.log == s2.log
            # "B" moves on; a request to "A" naming the newer version is applied there.
            b = s2.game.legal_actions()[0]
            await s2.act(tok[s2.game.to_move], v + 1, b.to_json())
            c = s2.game.legal_actions()[0]
            out = await s1.act(tok[s2.game.to_move], v + 2, c.to_json())
            assert out["version"] == v + 3 and s1.decisions == 3
            from cyclades.server.sync import catch_up
            assert s2.game.state.version == v + 2 and await catch_up(s2)  # B reads what A stored
            assert s2.game.state.version == v + 3 and s2.log == s1.log
            with m1.store.engine.connect() as conn:
                n = conn.exec_driver_sql("select count(*) from decisions").scalar()
            assert n == 3  # no decision stored twice
        finally:
            for m in (m1, m2):
                m.closing = True
                m.store.close()

    asyncio.run(main())


def test_postgresql_tells_the_other_processes_of_a_decision_by_listen_notify():
    """PostgreSQL (server/sync.py): a decision stored through one Manager reaches another that
    holds the game by NOTIFY on the channel it LISTENs to, with no request to it (PostgreSQL has
    no polling). Run in every CI run: tools/test starts PostgreSQL, and CI fails on a skip."""
    import asyncio
    import os

    from databases import pg_database

    from cyclades.server.sessions import Manager
    from cyclades.server.store import Store

    base = os.environ.get("CYCLADES_TEST_PG")
    if not base:
        pytest.skip("PostgreSQL: CYCLADES_TEST_PG is not set (tools/test sets it as root)")

    async def until(cond, what, timeout=30.0):
        deadline = time.monotonic() + timeout
        while not cond():
            assert time.monotonic() < deadline, f"timed out waiting for {what}"
            await asyncio.sleep(0.05)

    async def main(url):
        m1, m2 = Manager(Store(url), bot_delay=0), Manager(Store(url), bot_delay=0)
        await m1.start()
        await m2.start()
        try:
            s1 = await m1.create({"players": 3, "seed": 5}, [{"kind": "human", "access": "invite"}] * 3)
            s2 = await m2.get(s1.game_id)
            await until(lambda: m2.sync.listening, "the second process to LISTEN")
            for step in range(3):
                g = s1.game
                token = s1.seats[s1.seat_of_faction[g.to_move]]["token"]
                await s1.act(token, g.state.version, g.legal_actions()[0].to_json())
                await until(lambda: s2.game.state.version == s1.game.state.version,
                            f"decision {step + 1} to reach the other process")
            assert s2.log == s1.log and s2.game.to_json() == s1.game.to_json()
        finally:
            await m1.stop()
            await m2.stop()

    with pg_database(base) as url:
        asyncio.run(main(url))
