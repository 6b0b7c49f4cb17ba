"""Idle games leave the server's memory and come back on demand; abandoned games are removed
(server/housekeeping.py). The real app with its lifespan and a real SQLite file, in this
process (Starlette's TestClient), so that the Manager's session cache can be looked at."""
import time

import pytest
from fastapi.testclient import TestClient

from cyclades.server import housekeeping
from cyclades.server.app import create_app
from cyclades.server.security import ServerLimits


def wait_for(what, seconds=20.0):
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.fixture
def client(tmp_path):
    limits = ServerLimits(idle_minutes=0.01, finished_idle_minutes=0.01, sweep_seconds=0.1,
                          expire_hours=0)  # 0.6 s idle; never expire here
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0.0, limits=limits)
    with TestClient(app) as c:
        c.manager = app.state.manager
        yield c


def test_an_idle_game_leaves_memory_and_comes_back_as_it_was(client):
    m = client.manager
    r = client.post("/api/games", json={"players": 3, "seats": ["you", "invite", "invite"]})
    gid, tok = r.json()["game_id"], r.json()["seats"][0]["token"]
    before = client.get(f"/api/games/{gid}", params={"token": tok}).json()
    assert gid in m.sessions
    wait_for(lambda: gid not in m.sessions)
    again = client.get(f"/api/games/{gid}", params={"token": tok}).json()  # loaded back
    assert gid in m.sessions
    assert again["version"] == before["version"] and again["view"] == before["view"]
    assert again["log"] == before["log"]
    # and it plays on: a decision of the seat to move
    seat = again["view"]["to_move"]
    toks = {s["seat"]: s["token"] for s in r.json()["seats"]}
    mine = client.get(f"/api/games/{gid}", params={"token": toks[seat]}).json()
    done = client.post(f"/api/games/{gid}/actions", json={"token": toks[seat], "version": mine["version"],
                                                          "action": mine["legal_actions"][0]})
    assert done.status_code == 200, done.text


def test_a_connected_game_stays_and_a_finished_one_leaves(client):
    m = client.manager
    gid = client.post("/api/games", json={"players": 3, "seats": ["you", "invite", "invite"]}).json()["game_id"]
    with client.websocket_connect(f"/ws/games/{gid}") as ws:
        ws.receive_json()
        time.sleep(1.2)  # twice the idle time, with a spectator connected
        assert gid in m.sessions
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    wait_for(lambda: gid not in m.sessions)
    # an all-bot game plays to its end in memory, then leaves it; its record is still served
    bots = client.post("/api/games", json={"players": 3, "seats": ["random"] * 3, "seed": 5}).json()["game_id"]
    wait_for(lambda: bots not in m.sessions, 60)
    assert client.get(f"/api/games/{bots}").json()["status"] == "over"
    assert client.get(f"/api/games/{bots}/record").status_code == 200


def test_expiry_removes_only_unfinished_untouched_games(tmp_path):
    limits = ServerLimits(expire_hours=1, sweep_seconds=3600)  # the sweep is run by hand below
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_delay=0.0, limits=limits)
    with TestClient(app) as c:
        m = app.state.manager
        old = c.post("/api/games", json={"seats": ["you", "invite", "invite"]}).json()["game_id"]
        # a turn-based game waits days for a decision: its clock, not the expiry, ends the wait
        timed = c.post("/api/games", json={"seats": ["you", "invite", "invite"], "speed": "turn-based"}).json()
        bots = c.post("/api/games", json={"players": 3, "seats": ["random"] * 3, "seed": 5}).json()["game_id"]
        wait_for(lambda: c.get(f"/api/games/{bots}").json()["status"] == "over", 60)
        # an hour and a bit later, for the database's clock
        later = time.time() + 3700
        gone = c.portal.call(housekeeping.expire_abandoned, m, limits, later)
        assert gone == [old]
        assert c.get(f"/api/games/{old}").status_code == 404
        assert c.get(f"/api/games/{bots}").status_code == 200   # finished games are kept
        assert c.get(f"/api/games/{timed['game_id']}").status_code == 200
        assert c.portal.call(housekeeping.expire_abandoned, m, limits, later) == []
