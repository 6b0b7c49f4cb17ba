"""The game server against a real running server (uvicorn in a subprocess, on a temp SQLite
file and on a fresh PostgreSQL database: conftest.db_url; httpx and the `websockets` client, no
mocks). Contract: docs/api.md."""
import json
import random
import time

import httpx
import pytest
from websockets.sync.client import connect

import cyclades
from cyclades.server.testing import ServerProcess


@pytest.fixture(scope="module")
def server(db_url):
    # Every test runs on SQLite and on PostgreSQL (conftest.db_url; PostgreSQL needs
    # CYCLADES_TEST_PG, else those are skipped).
    with ServerProcess(db_url, bot_delay=0.0) as srv:
        yield srv


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, timeout=10) as c:
        yield c


def create(http, **body):
    r = http.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def state(http, gid, token=None):
    r = http.get(f"/api/games/{gid}", params={"token": token} if token else None)
    assert r.status_code == 200, r.text
    return r.json()


def tokens(created):
    return {s["seat"]: s["token"] for s in created["seats"]}


def play(http, gid, toks, n, rng):
    """n decisions of the human seats, each a random legal action over HTTP."""
    for _ in range(n):
        st = state(http, gid)
        seat = st["view"]["to_move"]
        mine = state(http, gid, toks[seat])
        a = rng.choice(mine["legal_actions"])
        r = http.post(f"/api/games/{gid}/actions",
                      json={"token": toks[seat], "version": mine["version"], "action": a})
        assert r.status_code == 200, r.text
        assert r.json()["version"] == mine["version"] + 1


def humans_game(http, **kw):
    c = create(http, players=3, seats=["human"] * 3, names=["Ann", "Bob", None], **kw)
    return c["game_id"], tokens(c)


# --- creating, listing, joining --------------------------------------------------------

def test_create_returns_one_token_per_human_seat_and_a_spectator_link(http):
    c = create(http, players=4, seats=["human", "random", "human", "random"], names=["Ann"])
    assert [s["seat"] for s in c["seats"]] == [0, 2]
    assert c["seats"][0]["name"] == "Ann"
    t0, t2 = c["seats"][0]["token"], c["seats"][1]["token"]
    assert t0 != t2 and len(t0) >= 32
    assert c["seats"][0]["url"] == f"/game/{c['game_id']}?token={t0}"
    assert c["spectator_url"] == f"/game/{c['game_id']}"


def test_list_shows_the_game_waiting_until_its_humans_join(http):
    c = create(http, players=3, seats=["human", "human", "random"])
    gid = c["game_id"]
    listed = {g["game_id"]: g for g in http.get("/api/games").json()["games"]}
    g = listed[gid]
    assert g["status"] == "waiting" and g["players"] == 3 and g["ruleset"] == "legendary"
    assert [s["joined"] for s in g["seats"]] == [False, False, True]
    assert "token" not in json.dumps(g) and "seed" not in g
    waiting = {x["game_id"] for x in http.get("/api/games", params={"status": "waiting"}).json()["games"]}
    assert gid in waiting
    for s in c["seats"]:
        assert state(http, gid, s["token"])["seat"] == s["seat"]  # using the link joins the seat
    g = {x["game_id"]: x for x in http.get("/api/games").json()["games"]}[gid]
    assert g["status"] == "playing" and all(s["joined"] for s in g["seats"])


def test_a_free_seat_is_handed_out_once_from_the_lobby(http):
    # Only an open seat is handed out, with a token made when it is taken; a seat
    # with an invitation link ("human" is the older name of "invite") never is.
    c = create(http, players=3, seats=["human", "open", "random"])
    gid, t0 = c["game_id"], c["seats"][0]["token"]
    state(http, gid, t0)  # seat 0 used its link
    assert http.post(f"/api/games/{gid}/join", json={"seat": 0}).status_code == 403  # invited
    assert http.post(f"/api/games/{gid}/join", json={"seat": 2}).status_code == 422  # a bot
    assert http.post(f"/api/games/{gid}/join", json={"seat": 7}).status_code == 422
    r = http.post(f"/api/games/{gid}/join", json={"seat": 1})
    assert r.status_code == 200 and r.json()["token"] not in (c["seats"][0]["token"], None)
    assert r.json()["url"] == f"/game/{gid}?token={r.json()['token']}"
    assert http.post(f"/api/games/{gid}/join", json={"seat": 1}).status_code == 409  # only once
    assert state(http, gid)["status"] == "playing"
    assert "random" in http.get("/api/bots").json()["bots"]


def test_create_refuses_bad_setups(http):
    assert http.post("/api/games", json={"players": 7}).status_code == 422  # 2 to 6
    assert http.post("/api/games", json={"players": 3, "seats": ["human"]}).status_code == 422
    r = http.post("/api/games", json={"players": 3, "seats": ["human", "genius", "random"]})
    assert r.status_code == 422 and "genius" in r.json()["detail"]
    assert http.post("/api/games", json={"ruleset": "nope"}).status_code == 422
    assert http.post("/api/games", content=b"{nope", headers={"content-type": "application/json"}).status_code == 422


def test_unknown_game_is_404(http):
    assert http.get("/api/games/nosuchgame").status_code == 404
    r = http.post("/api/games/nosuchgame/actions", json={"token": "x", "version": 0, "action": {"kind": "claim"}})
    assert r.status_code == 404 and "nosuchgame" in r.json()["detail"]


def test_a_seat_sees_its_legal_actions_and_a_spectator_none(http):
    gid, toks = humans_game(http)
    st = state(http, gid)
    assert st["seat"] is None and st["legal_actions"] == [] and st["view"]["viewer"] is None
    seat = st["view"]["to_move"]
    mine = state(http, gid, toks[seat])
    assert mine["seat"] == seat and mine["legal_actions"]
    other = state(http, gid, toks[(seat + 1) % 3])
    assert other["legal_actions"] == []


# --- playing and refusals ------------------------------------------------------------------

def test_decisions_over_http_advance_the_version_and_the_log(http):
    gid, toks = humans_game(http)
    v0 = state(http, gid)["version"]
    play(http, gid, toks, 12, random.Random(1))
    st = state(http, gid)
    assert st["version"] == v0 + 12
    assert len(st["log"]) >= 12 and all(isinstance(x, str) and x.endswith(".") for x in st["log"])
    assert http.get(f"/api/games/{gid}/log").json()["total"] == st["log_total"]


def _refused(http, gid, body, status, word):
    before = state(http, gid)
    r = http.post(f"/api/games/{gid}/actions", json=body) if not isinstance(body, bytes) else \
        http.post(f"/api/games/{gid}/actions", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert word in r.json()["detail"].lower()
    after = state(http, gid)
    assert after["version"] == before["version"] and after["view"] == before["view"]


def test_refusals_change_nothing(http):
    gid, toks = humans_game(http)
    play(http, gid, toks, 3, random.Random(2))
    st = state(http, gid)
    v, seat = st["version"], st["view"]["to_move"]
    good = state(http, gid, toks[seat])["legal_actions"][0]
    wrong = toks[(seat + 1) % 3]
    _refused(http, gid, {"token": wrong, "version": v, "action": good}, 403, "not your turn")
    _refused(http, gid, {"token": "not-a-token", "version": v, "action": good}, 403, "token")
    _refused(http, gid, {"token": "", "version": v, "action": good}, 403, "token")
    _refused(http, gid, {"token": toks[seat], "version": v - 1, "action": good}, 409, "stale")
    _refused(http, gid, {"token": toks[seat], "version": v + 1, "action": good}, 409, "stale")
    _refused(http, gid, b'{"token": "x", "version": ', 422, "malformed")
    _refused(http, gid, {"token": toks[seat], "version": str(v), "action": good}, 422, "version")
    _refused(http, gid, {"token": toks[seat], "version": v}, 422, "action")
    _refused(http, gid, {"token": toks[seat], "version": v, "action": {**good, "extra": 1}}, 422, "extra")
    _refused(http, gid, {"token": toks[seat], "version": v, "action": {"kind": "bid", "what": "zeus", "n": 99}},
             422, "illegal")
    _refused(http, gid, {"token": toks[seat], "version": v, "action": {"kind": "fly", "where": "moon"}},
             422, "illegal")
    # and the right one still goes through
    r = http.post(f"/api/games/{gid}/actions", json={"token": toks[seat], "version": v, "action": good})
    assert r.status_code == 200 and r.json()["version"] == v + 1


def test_the_same_decision_sent_twice_at_once_is_applied_once(server, http):
    from concurrent.futures import ThreadPoolExecutor
    gid, toks = humans_game(http)
    st = state(http, gid)
    seat, v = st["view"]["to_move"], st["version"]
    a = state(http, gid, toks[seat])["legal_actions"][0]

    def send(_):
        with httpx.Client(base_url=server.url, timeout=10) as c:
            return c.post(f"/api/games/{gid}/actions",
                          json={"token": toks[seat], "version": v, "action": a}).status_code
    with ThreadPoolExecutor(8) as pool:
        codes = sorted(pool.map(send, range(8)))
    assert codes == [200] + [409] * 7
    assert state(http, gid)["version"] == v + 1


def test_decisions_over_websocket(server, http):
    gid, toks = humans_game(http)
    seat = state(http, gid)["view"]["to_move"]
    with connect(f"{server.ws_url}/ws/games/{gid}?token={toks[seat]}") as ws, \
            connect(f"{server.ws_url}/ws/games/{gid}") as spec:
        first = json.loads(ws.recv(5))
        assert first["type"] == "state" and first["seat"] == seat and first["legal_actions"]
        s0 = json.loads(spec.recv(5))
        assert s0["seat"] is None and s0["legal_actions"] == [] and s0["version"] == first["version"]
        v = first["version"]
        # refusals come back to this connection only and change nothing
        ws.send(json.dumps({"type": "action", "version": v - 1, "action": first["legal_actions"][0]}))
        err = json.loads(ws.recv(5))
        assert err == {"type": "error", "status": 409, "message": err["message"]} and "stale" in err["message"]
        ws.send("{not json")
        assert json.loads(ws.recv(5))["status"] == 422
        ws.send(json.dumps({"type": "action", "version": v, "action": {"kind": "fly"}}))
        assert json.loads(ws.recv(5))["status"] == 422
        spec.send(json.dumps({"type": "action", "version": v, "action": first["legal_actions"][0]}))
        assert json.loads(spec.recv(5))["status"] == 403
        assert state(http, gid)["version"] == v
        # a decision: both connections receive the new state with the new log lines
        ws.send(json.dumps({"type": "action", "version": v, "action": first["legal_actions"][0]}))
        new = json.loads(ws.recv(5))
        assert new["type"] == "state" and new["version"] == v + 1 and new["log"]
        seen = json.loads(spec.recv(5))
        assert seen["version"] == v + 1 and seen["log"] == new["log"] and seen["view"]["viewer"] is None
        # a decision made over HTTP reaches the websocket too
        nxt = state(http, gid)["view"]["to_move"]
        a = state(http, gid, toks[nxt])["legal_actions"][0]
        assert http.post(f"/api/games/{gid}/actions",
                         json={"token": toks[nxt], "version": v + 1, "action": a}).status_code == 200
        assert json.loads(spec.recv(5))["version"] == v + 2
        spec.send(json.dumps({"type": "ping"}))
        assert json.loads(spec.recv(5)) == {"type": "pong"}


def test_websocket_refuses_unknown_game_and_token(server, http):
    with connect(f"{server.ws_url}/ws/games/nosuchgame") as ws:
        assert json.loads(ws.recv(5))["status"] == 404
    gid, _ = humans_game(http)
    with connect(f"{server.ws_url}/ws/games/{gid}?token=bad") as ws:
        assert json.loads(ws.recv(5))["status"] == 403


# --- hidden information (R24) -------------------------------------------------------------

def _keys(x):
    if isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from _keys(v)
    elif isinstance(x, list):
        for v in x:
            yield from _keys(v)


def test_views_carry_no_hidden_information(server, http):
    """R24: another player's GP, the decks' order and the generator are never sent; nor the
    secret seed, read from the record once the game is over."""
    gid, toks = humans_game(http, max_cycles=1)
    rng = random.Random(3)
    while state(http, gid)["view"]["phase"] == "setup":
        play(http, gid, toks, 1, rng)
    play(http, gid, toks, 4, rng)
    texts = []
    spec = state(http, gid)
    texts.append(json.dumps(spec))
    assert all(p["gp"] is None for p in spec["view"]["players"])
    for seat in range(3):
        mine = state(http, gid, toks[seat])
        texts.append(json.dumps(mine))
        gps = [p["gp"] for p in mine["view"]["players"]]
        assert isinstance(gps[seat], int) and all(g is None for i, g in enumerate(gps) if i != seat)
    with connect(f"{server.ws_url}/ws/games/{gid}") as ws:
        texts.append(ws.recv(5))
    with connect(f"{server.ws_url}/ws/games/{gid}?token={toks[1]}") as ws:
        texts.append(ws.recv(5))
    texts.append(http.get("/api/games").text)
    texts.append(http.get(f"/api/games/{gid}/board").text)
    for t in texts:
        d = json.loads(t)
        keys = set(_keys(d))
        assert not keys & {"seed", "rng", "stack", "state", "options", "token"}, keys
        view = d.get("view")
        if view:
            assert isinstance(view["creature_deck"], int) and isinstance(view["hero_deck"], int)
            assert isinstance(view["bonus_stack"], int)
    for s in range(3):
        assert all(toks[s] not in t for t in texts if f"token={toks[s]}" not in t)
    r = http.get(f"/api/games/{gid}/record")
    assert r.status_code == 409 and "over" in r.json()["detail"]
    while state(http, gid)["status"] != "over":
        play(http, gid, toks, 1, rng)
    seed = http.get(f"/api/games/{gid}/record").json()["options"]["seed"]
    assert all(str(seed) not in t and str(seed & ((1 << 64) - 1)) not in t for t in texts)


# --- bots -----------------------------------------------------------------------------------

def test_an_all_bot_game_plays_to_the_end_by_itself(http):
    c = create(http, players=3, seats=["random"] * 3, seed=5)
    assert c["seats"] == []
    gid = c["game_id"]
    deadline = time.monotonic() + 30
    while state(http, gid)["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    final = state(http, gid)
    rec = http.get(f"/api/games/{gid}/record").json()
    assert rec["options"]["seed"] == 5 and len(rec["actions"]) == final["version"] - rec_start(rec)
    replayed = cyclades.Game.from_record(rec)
    assert replayed.is_over and replayed.view(None) == final["view"]
    assert final["view"]["result"]["winners"]
    assert any("game is over" in line for line in final["log"])


def rec_start(rec):
    """The version a game has before its first decision."""
    return cyclades.Game.from_record(rec, upto=0).state.version


def test_bots_answer_a_human_seat(http):
    c = create(http, players=3, seats=["human", "random", "random"])
    gid, tok = c["game_id"], c["seats"][0]["token"]
    rng = random.Random(4)
    for _ in range(10):
        deadline = time.monotonic() + 10
        while True:
            mine = state(http, gid, tok)
            if mine["legal_actions"]:
                break
            assert time.monotonic() < deadline
            time.sleep(0.02)
        r = http.post(f"/api/games/{gid}/actions",
                      json={"token": tok, "version": mine["version"], "action": rng.choice(mine["legal_actions"])})
        assert r.status_code == 200, r.text


# --- the rest of the surface ------------------------------------------------------------

def test_openapi_schema_and_pages(http):
    schema = http.get("/openapi.json").json()
    assert {"/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions"} <= set(schema["paths"])
    assert "DecisionBody" in schema["components"]["schemas"]
    for path in ("/", "/game/abc"):
        r = http.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]


def test_board_geometry_is_public(http):
    gid, _ = humans_game(http)
    b = http.get(f"/api/games/{gid}/board").json()
    assert b["ids"] and len(b["areas"]) == len(b["ids"]) and "viewBox" in b
