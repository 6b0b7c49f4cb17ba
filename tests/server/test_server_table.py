"""Undo over the game server (POST /api/games/{id}/undo; engine/undo.py decides how far), and
what the pages are told of each decision (the events to animate, each player's last move,
"since your last move"): real servers (uvicorn in subprocesses) on a SQLite file and on a
fresh PostgreSQL database (conftest.db_url), httpx and the `websockets` client, no mocks."""
import json
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
pytest.importorskip("sqlalchemy")
from websockets.sync.client import connect  # noqa: E402

from cyclades.server.store import Store  # noqa: E402
from cyclades.server.testing import ServerProcess  # noqa: E402


@pytest.fixture(scope="module")
def servers(db_url, tmp_path_factory):
    """Two server processes on one database (server/sync.py): an undo made through one is
    seen by the other."""
    d = tmp_path_factory.mktemp("undo")
    a = ServerProcess(db_url, bot_delay=0.0, log_path=str(d / "a.log"), args=["--peer-ttl", "2"]).start()
    try:
        b = ServerProcess(db_url, bot_delay=0.0, log_path=str(d / "b.log"), args=["--peer-ttl", "2"]).start()
    except BaseException:
        a.stop()
        raise
    try:
        yield a, b
    finally:
        b.stop()
        a.stop()
    for p in (d / "a.log", d / "b.log"):
        text = p.read_text(errors="replace")
        assert "Traceback" not in text, text[-3000:]


@pytest.fixture(scope="module")
def http(servers):
    with httpx.Client(base_url=servers[0].url, timeout=15) as c:
        yield c


def state(c, gid, token=None):
    r = c.get(f"/api/games/{gid}", params={"token": token} if token else None)
    assert r.status_code == 200, r.text
    return r.json()


def humans(http, players=3):
    c = http.post("/api/games", json={"players": players, "seats": ["human"] * players,
                                      "names": ["Ann", "Bob", "Cleo"][:players]})
    assert c.status_code == 201, c.text
    c = c.json()
    return c["game_id"], {s["seat"]: s["token"] for s in c["seats"]}


def act(c, gid, token, st, pick=0):
    r = c.post(f"/api/games/{gid}/actions", json={"token": token, "version": st["version"],
                                                  "action": st["legal_actions"][pick]})
    assert r.status_code == 200, r.text
    return r.json()


def undo(c, gid, token, version):
    return c.post(f"/api/games/{gid}/undo", json={"token": token, "version": version})


def mover(c, gid, toks):
    seat = state(c, gid)["view"]["to_move"]
    return seat, state(c, gid, toks[seat])


def same_position(a, b):
    for k in ("version", "view", "legal_actions", "log", "undo", "since", "last_moves"):
        assert a[k] == b[k], k


def test_a_decision_is_taken_back_and_forgotten_by_the_record(servers, http, db_url):
    gid, toks = humans(http)
    seat, before = mover(http, gid, toks)
    assert before["undo"] == {"steps": 0, "reason": "start",
                              "text": "You cannot go back further: the game began there."}
    act(http, gid, toks[seat], before)
    after = state(http, gid, toks[seat])
    assert after["view"]["to_move"] == seat and after["undo"]["steps"] == 1  # placing: still Ann's
    stored = Store(db_url)
    try:
        assert len(stored.load(gid)["actions"]) == 1
        # Refused, changing nothing: a stale version, a spectator, another seat, a bad body.
        assert undo(http, gid, toks[seat], after["version"] - 1).status_code == 409
        assert http.post(f"/api/games/{gid}/undo", json={"version": after["version"]}).status_code == 422
        assert undo(http, gid, "", after["version"]).status_code == 403
        other = (seat + 1) % 3
        assert undo(http, gid, toks[other], after["version"]).status_code == 403
        assert undo(http, gid, "not-a-token", after["version"]).status_code == 403
        assert len(stored.load(gid)["actions"]) == 1
        r = undo(http, gid, toks[seat], after["version"])
        assert r.status_code == 200, r.text
        assert r.json()["version"] == before["version"]
        same_position(state(http, gid, toks[seat]), before)
        assert stored.load(gid)["actions"] == [] and stored.load(gid)["undos"] == 1
        # The other process answers the same position (it caught up with the undo) ...
        with httpx.Client(base_url=servers[1].url, timeout=15) as cb:
            same_position(state(cb, gid, toks[seat]), before)
            # ... and a decision made there is stored after the undo, as the first decision.
            act(cb, gid, toks[seat], state(cb, gid, toks[seat]), pick=-1)
        assert len(stored.load(gid)["actions"]) == 1
        # A hears of it (at once on PostgreSQL; on SQLite once it knows B is alive: a beat).
        deadline = time.monotonic() + 20
        while state(http, gid, toks[seat])["version"] != before["version"] + 1:
            assert time.monotonic() < deadline, "A never caught up with B's decision"
            time.sleep(0.2)
    finally:
        stored.close()


def test_a_revoked_token_never_takes_a_decision_back(servers, http, db_url):
    """The host plays a decision through A, then gives their own seat to a new invitation link
    through B (the host may, while at the table): the old token's undo through A, which may not
    have heard yet, is refused, as a decision would be, and the record keeps the decision."""
    with httpx.Client(base_url=servers[1].url, timeout=15) as b:
        for _ in range(3):
            c = http.post("/api/games", json={"players": 3, "seats": ["you", "invite", "invite"]}).json()
            gid, host = c["game_id"], c["host_token"]
            toks = {x["seat"]: x["token"] for x in c["seats"]}
            seat, st = mover(http, gid, toks)
            while seat != 0:  # the friends place until the host is to move
                act(http, gid, toks[seat], st)
                seat, st = mover(http, gid, toks)
            act(http, gid, toks[0], st)
            mine = state(http, gid, toks[0])
            assert mine["undo"]["steps"] == 1, mine["undo"]  # placing: still the host's turn
            stored = Store(db_url)
            try:
                n = len(stored.load(gid)["actions"])
                r = b.post(f"/api/games/{gid}/seats/0", json={"host_token": host, "kind": "invite"})
                assert r.status_code == 200, r.text
                r = undo(http, gid, toks[0], mine["version"])
                assert r.status_code == 403, r.text
                assert len(stored.load(gid)["actions"]) == n and stored.load(gid)["undos"] == 0
            finally:
                stored.close()
            assert state(http, gid)["version"] == mine["version"]


def test_undo_stops_at_another_players_decision_and_says_so(http):
    gid, toks = humans(http)
    first = state(http, gid)["view"]["to_move"]
    while True:
        seat, st = mover(http, gid, toks)
        if seat != first:
            break
        act(http, gid, toks[seat], st)
    names = ["Ann", "Bob", "Cleo"]
    assert st["undo"] == {"steps": 0, "reason": "other",
                          "text": f"You have decided nothing yet this turn: {names[first]} played before you."}
    r = undo(http, gid, toks[seat], st["version"])
    assert r.status_code == 409 and r.json()["detail"] == st["undo"]["text"]
    # Each player's last move is marked: the areas the first player's decisions touched.
    marks = st["last_moves"]
    assert marks[first]["areas"] and marks[seat] is None
    # "Since your last move": the new mover has none yet (the whole log so far is others').
    assert st["since"]["first_move"] and st["since"]["to"] == st["log_total"]
    act(http, gid, toks[seat], st)
    st = state(http, gid, toks[seat])
    if st["view"]["to_move"] == seat:
        assert st["undo"]["steps"] == 1 and st["undo"]["text"] == \
            f"You cannot go back further: {names[first]} played before that."


def test_pages_hear_the_events_to_animate_and_an_undo(servers, http):
    gid, toks = humans(http)
    seat, st = mover(http, gid, toks)
    url = f"{servers[0].ws_url}/ws/games/{gid}"
    with connect(url, open_timeout=30) as ws:
        first = json.loads(ws.recv(10))
        assert first["type"] == "state" and "moves" not in first
        act(http, gid, toks[seat], st)
        msg = json.loads(ws.recv(10))
        assert msg["version"] == st["version"] + 1
        (move,) = msg["moves"]
        assert move["player"] == seat and move["version"] == msg["version"]
        assert move["events"] and all("type" in e for e in move["events"])
        assert any(e.get("area") for e in move["events"])
        # The undo: the page gets the position back, its log told to start again.
        r = undo(http, gid, toks[seat], msg["version"])
        assert r.status_code == 200, r.text
        msg = json.loads(ws.recv(10))
        assert msg["version"] == st["version"] and msg["log_reset"] and "moves" not in msg
        assert msg["log"] == state(http, gid)["log"] and msg["undos"] == 1


def test_a_restarted_server_keeps_what_stood(servers, http, db_url):
    a, _b = servers
    gid, toks = humans(http)
    seat, st = mover(http, gid, toks)
    act(http, gid, toks[seat], st)
    act(http, gid, toks[seat], state(http, gid, toks[seat]))
    two = state(http, gid, toks[seat])
    assert undo(http, gid, toks[seat], two["version"]).status_code == 200
    one = state(http, gid, toks[seat])
    a.stop()
    a.start()
    with httpx.Client(base_url=a.url, timeout=15) as c:
        time.sleep(0.2)
        again = state(c, gid, toks[seat])
        same_position(again, one)
        assert again["undos"] == 1


def test_the_griffins_haul_is_not_in_the_events_pages_hear():
    from cyclades.engine.events import public_events
    events = [{"type": "gp_stolen", "player": 0, "victim": 1}, {"type": "gp", "player": 0, "amount": 3},
              {"type": "gp", "player": 2, "amount": 1}]
    assert public_events(events) == [events[0], events[2]]


def test_scroll_back_shows_a_seat_its_own_purse(http):
    gid, toks = humans(http)
    seat, st = mover(http, gid, toks)
    act(http, gid, toks[seat], st)
    summary = http.get(f"/api/replays/{gid}").json()
    n = summary["steps"]
    spectator = http.get(f"/api/replays/{gid}/steps/{n}").json()["view"]
    assert all(pl["gp"] is None for pl in spectator["players"])
    mine = http.get(f"/api/replays/{gid}/steps/{n}", params={"token": toks[seat]}).json()["view"]
    assert [pl["gp"] is None for pl in mine["players"]] == [p != seat for p in range(3)]
    assert mine["players"][seat]["gp"] == state(http, gid, toks[seat])["view"]["players"][seat]["gp"]
    assert http.get(f"/api/replays/{gid}/steps/{n}", params={"token": "nope"}).status_code == 403
