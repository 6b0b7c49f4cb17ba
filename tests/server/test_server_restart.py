"""A restart loses nothing: play part of games, kill -9 the server between two
decisions, start it again on the same database, finish the games; each final state
equals an uninterrupted offline replay of its record (`Game.from_record`)."""
import random
import time

import httpx
from serverproc import wait_turn

import cyclades
from cyclades.server.testing import ServerProcess, free_port


def test_kill_9_between_decisions_resumes_every_game(db_url):
    db = db_url  # SQLite and PostgreSQL (conftest.db_url)
    port = free_port()
    rng = random.Random(7)
    acked = {}  # version -> action: every decision the server acknowledged to us
    srv = ServerProcess(db, port=port, bot_delay=0.02).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            h = c.post("/api/games", json={"players": 3, "seats": ["you", "random", "random"], "max_cycles": 5,
                                           "seed": 2024}).json()
            gid, tok = h["game_id"], h["seats"][0]["token"]
            done = c.post("/api/games", json={"players": 3, "seats": ["random"] * 3, "seed": 3,
                                              "bot_delay": 0}).json()["game_id"]
            bots = c.post("/api/games", json={"players": 4, "seats": ["random"] * 4, "seed": 99}).json()["game_id"]
            deadline = time.monotonic() + 60  # a loaded machine: bots slow, never stopped
            for _ in range(15):
                st = wait_turn(c, gid, tok, deadline)
                a = rng.choice(st["legal_actions"])
                r = c.post(f"/api/games/{gid}/actions", json={"token": tok, "version": st["version"], "action": a})
                assert r.status_code == 200, r.text
                acked[st["version"]] = a
            seen = c.get(f"/api/games/{gid}").json()  # a view acknowledged before the kill
            while c.get(f"/api/games/{done}").json()["status"] != "over":
                assert time.monotonic() < deadline
                time.sleep(0.02)
            done_final = c.get(f"/api/games/{done}").json()
            before = c.get(f"/api/games/{bots}").json()
            assert before["status"] != "over", "the all-bot game should still be going at the kill"
    finally:
        srv.kill()  # kill -9, bots in the middle of their games
    srv = ServerProcess(db, port=port, bot_delay=0.0).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=10) as c:
            # a game that was over before the kill is still there, as it was
            assert c.get(f"/api/games/{done}").json()["view"] == done_final["view"]
            after = c.get(f"/api/games/{bots}").json()
            assert after["version"] >= before["version"]
            st = c.get(f"/api/games/{gid}", params={"token": tok}).json()
            assert st["version"] >= max(acked) + 1  # nothing acknowledged was lost
            deadline = time.monotonic() + 30
            while True:
                st = wait_turn(c, gid, tok, deadline)
                if st["status"] == "over":
                    break
                a = rng.choice(st["legal_actions"])
                r = c.post(f"/api/games/{gid}/actions", json={"token": tok, "version": st["version"], "action": a})
                assert r.status_code == 200, r.text
                acked[st["version"]] = a
            while c.get(f"/api/games/{bots}").json()["status"] != "over":
                assert time.monotonic() < deadline
                time.sleep(0.05)
            for game_id in (gid, bots):
                final = c.get(f"/api/games/{game_id}").json()
                record = c.get(f"/api/games/{game_id}/record").json()
                replayed = cyclades.Game.from_record(record)
                assert replayed.is_over
                assert replayed.view(None) == final["view"]
                assert replayed.state.version == final["version"]
                # the same record replayed decision by decision, without interruption
                straight = cyclades.Game.from_record(record, upto=0)
                for a in record["actions"]:
                    straight.apply(a)
                assert straight.to_json() == replayed.to_json()
            # every acknowledged decision is in the record, at its version, exactly once
            record = c.get(f"/api/games/{gid}/record").json()
            start = cyclades.Game.from_record(record, upto=0).state.version
            for v, a in acked.items():
                assert record["actions"][v - start] == {k: x for k, x in a.items() if k != "text"}  # its words apart
            upto = cyclades.Game.from_record(record, upto=seen["version"] - start)
            assert upto.view(None) == seen["view"]
            assert record["options"]["seed"] == 2024
    finally:
        srv.stop()
