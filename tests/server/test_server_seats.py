"""Every mode from the lobby's API, and seats that belong to who they were given to,
against a real server (uvicorn in a subprocess, on SQLite and PostgreSQL: conftest.db_url).

Seats are people: with 2 players each seat plays the two factions of its team (R22), so
seat 0 plays factions 0 and 2, seat 1 factions 1 and 3. A seat is "you" (the creator's),
"invite" (only its invitation link plays it), "open" (the first to join gets a token made
then) or a bot; the host token lets the creator give a human seat to a bot."""
import json
import random
import time

import httpx
import pytest
from websockets.sync.client import connect

from cyclades.server.testing import ServerProcess

LEFT = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory, db_url):
    d = tmp_path_factory.mktemp("seats")  # SQLite and PostgreSQL: conftest.db_url
    # A seat's player counts as gone 1 s after their last request (default 60 s).
    with ServerProcess(db_url, bot_delay=0.0, log_path=str(d / "server.log"),
                       env={"CYCLADES_SEAT_LEFT_SECONDS": str(LEFT)}) as srv:
        yield srv
    text = (d / "server.log").read_text(errors="replace")
    assert "Traceback" not in text, text[-3000:]


@pytest.fixture(scope="module")
def http(server):
    with httpx.Client(base_url=server.url, timeout=10) as c:
        yield c


def create(http, **body):
    r = http.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def state(http, gid, token=None):
    r = http.get(f"/api/games/{gid}", params={"token": token} if token is not None else None)
    assert r.status_code == 200, r.text
    return r.json()


def seat_of_faction(st, faction):
    return next(s["seat"] for s in st["seats"] if faction in s["factions"])


def wait_for(http, gid, cond, token=None, timeout=20.0):
    deadline = time.monotonic() + timeout
    while True:
        st = state(http, gid, token)
        if cond(st):
            return st
        assert time.monotonic() < deadline, f"timed out; to_move={st['view']['to_move']} status={st['status']}"
        time.sleep(0.02)


def decide(http, gid, token, rng):
    """One decision of the seat with this token (it must be its move)."""
    mine = state(http, gid, token)
    assert mine["legal_actions"], "not this seat's move"
    r = http.post(f"/api/games/{gid}/actions", json={"token": token, "version": mine["version"],
                                                      "action": rng.choice(mine["legal_actions"])})
    assert r.status_code == 200, r.text
    return r.json()["version"]


# --- every mode -------------------------------------------------------------------------

MODES = [  # (body, factions, teams)
    ({"players": 2}, 4, True),
    ({"players": 3}, 3, False),
    ({"players": 3, "maelstrom": False, "board": "recommended"}, 3, False),
    ({"players": 4}, 4, False),
    ({"players": 4, "teams": True, "team_goal": 4}, 4, True),
    ({"players": 5}, 5, False),
    ({"players": 6, "team_goal": 3}, 6, True),
    ({"players": 6, "teams": True, "board": "recommended"}, 6, True),
    ({"ruleset": "classic", "players": 2}, 2, False),
    ({"ruleset": "classic", "players": 3}, 3, False),
    ({"ruleset": "classic", "players": 4, "teams": False}, 4, False),
    ({"ruleset": "classic", "players": 5}, 5, False),
]


@pytest.mark.parametrize("body,factions,teams", MODES, ids=lambda x: json.dumps(x) if isinstance(x, dict) else None)
def test_every_mode_is_creatable_and_playable(http, body, factions, teams):
    n = body["players"]
    c = create(http, seats=["invite"] * n, **body)
    gid = c["game_id"]
    assert c["teams"] is teams and len(c["seats"]) == n
    toks = {s["seat"]: s["token"] for s in c["seats"]}
    assert len(set(toks.values())) == n
    st = state(http, gid)
    assert len(st["view"]["players"]) == factions and len(st["seats"]) == n
    assert sorted(f for s in st["seats"] for f in s["factions"]) == list(range(factions))
    assert len(st["names"]) == factions
    if n == 2 and teams:
        assert [s["factions"] for s in st["seats"]] == [[0, 2], [1, 3]]  # R22
    listed = {g["game_id"]: g for g in http.get("/api/games").json()["games"]}[gid]
    assert listed["players"] == n and listed["teams"] is teams
    assert listed["ruleset"] == body.get("ruleset", "legendary")
    if teams:
        assert listed["team_goal"] == body.get("team_goal", 3)
    if body.get("ruleset") == "classic":
        assert listed["maelstrom"] is False
    rng = random.Random(n)
    for _ in range(8):
        st = state(http, gid)
        seat = seat_of_faction(st, st["view"]["to_move"])
        mine = state(http, gid, toks[seat])
        assert mine["seat"] == seat and st["view"]["to_move"] in mine["factions"]
        assert mine["view"]["viewer"] == st["view"]["to_move"]
        for other, t in toks.items():  # nobody else may act now
            if other != seat:
                assert state(http, gid, t)["legal_actions"] == []
        decide(http, gid, toks[seat], rng)
    assert state(http, gid)["status"] == "playing"


def test_two_players_each_play_both_factions_of_a_team_against_a_bot(http):
    c = create(http, players=2, seats=["you", "random"], names=["Ann"], seed=8)
    gid, tok = c["game_id"], c["seats"][0]["token"]
    assert [s["access"] for s in c["seats"]] == ["host"] and c["seats"][0]["factions"] == [0, 2]
    st = state(http, gid, tok)
    assert st["names"][0] == "Ann (A)" and st["names"][2] == "Ann (B)"
    rng = random.Random(5)
    played = set()
    for _ in range(14):
        st = wait_for(http, gid, lambda s: bool(s["legal_actions"]) or s["status"] == "over", tok)
        if st["status"] == "over":
            break
        played.add(st["view"]["to_move"])
        decide(http, gid, tok, rng)
    assert played == {0, 2}  # the seat decided for both its factions; the bot for 1 and 3


def test_six_players_with_one_person_and_five_bots(http):
    c = create(http, players=6, seats=["you"] + ["random"] * 5, seed=9)
    gid, tok = c["game_id"], c["seats"][0]["token"]
    rng = random.Random(6)
    for _ in range(4):
        wait_for(http, gid, lambda s: bool(s["legal_actions"]), tok)
        decide(http, gid, tok, rng)
    st = state(http, gid, tok)
    assert st["view"]["players"][3]["gp"] is not None  # a teammate's purse is shared (R22)


def test_the_default_bot_is_the_one_the_lobby_offers(http):
    bots = http.get("/api/bots").json()
    assert bots["default"] in bots["bots"]
    c = create(http, players=3)
    st = state(http, c["game_id"])
    assert [s["kind"] for s in st["seats"]] == ["human", bots["default"], bots["default"]]
    assert c["seats"][0]["access"] == "host"


# --- invitations ---------------------------------------------------------------------------

def test_an_invited_seat_is_played_only_by_its_link(server, http):
    c = create(http, players=3, seats=["you", "invite", "random"], names=["Ann", "Bob"])
    gid = c["game_id"]
    host, friend = c["seats"]
    assert friend["access"] == "invite" and friend["url"] == f"/game/{gid}?token={friend['token']}"
    assert host["token"] != friend["token"] and c["host_token"] not in (host["token"], friend["token"])
    # Nobody takes a friend's (or the host's) seat from the lobby, before or after it is used.
    for seat in (0, 1):
        r = http.post(f"/api/games/{gid}/join", json={"seat": seat})
        assert r.status_code == 403 and "invit" in r.json()["detail"], r.text
        assert friend["token"] not in r.text and host["token"] not in r.text
    listed = {g["game_id"]: g for g in http.get("/api/games").json()["games"]}[gid]
    assert [s["open"] for s in listed["seats"]] == [False, False, False]
    assert friend["token"] not in json.dumps(listed)
    # The link plays the seat.
    st = state(http, gid, friend["token"])
    assert st["seat"] == 1 and st["factions"] == [1]
    assert state(http, gid)["seats"][1]["joined"] is True
    assert http.post(f"/api/games/{gid}/join", json={"seat": 1}).status_code == 403
    # A wrong token is no seat at all, whatever its characters.
    for bad in ("nope", friend["token"][:-1], friend["token"] + "x", "é", "é" * 32, c["host_token"]):
        assert http.get(f"/api/games/{gid}", params={"token": bad}).status_code == 403
        r = http.post(f"/api/games/{gid}/actions", json={"token": bad, "version": 0, "action": {"kind": "x"}})
        assert r.status_code == 403, r.text
    with connect(f"{server.ws_url}/ws/games/{gid}?token=%C3%A9") as ws:
        assert json.loads(ws.recv(5))["status"] == 403


# --- open seats ----------------------------------------------------------------------------

def test_an_open_seat_goes_to_the_first_to_join_with_a_fresh_token(http):
    c = create(http, players=3, seats=["you", "open", "open"])
    gid = c["game_id"]
    assert [s["access"] for s in c["seats"]] == ["host", "open", "open"]
    assert c["seats"][1]["token"] is None and c["seats"][1]["url"] is None
    listed = {g["game_id"]: g for g in http.get("/api/games").json()["games"]}[gid]
    assert [(s["open"], s["joined"]) for s in listed["seats"]] == [(False, False), (True, False), (True, False)]
    r = http.post(f"/api/games/{gid}/join", json={"seat": 1})
    assert r.status_code == 200, r.text
    got = r.json()
    assert got["seat"] == 1 and len(got["token"]) >= 32 and got["url"] == f"/game/{gid}?token={got['token']}"
    assert got["token"] not in (c["seats"][0]["token"], c["host_token"])
    second = http.post(f"/api/games/{gid}/join", json={"seat": 1})
    assert second.status_code == 409 and "taken" in second.json()["detail"]
    assert got["token"] not in second.text
    assert state(http, gid, got["token"])["seat"] == 1
    other = http.post(f"/api/games/{gid}/join", json={"seat": 2}).json()
    assert other["token"] != got["token"]
    listed = {g["game_id"]: g for g in http.get("/api/games").json()["games"]}[gid]
    assert [s["joined"] for s in listed["seats"]] == [False, True, True]
    assert http.post(f"/api/games/{gid}/join", json={"seat": 9}).status_code == 422
    assert http.post("/api/games/nosuch/join", json={"seat": 1}).status_code == 404


def test_a_bot_seat_cannot_be_joined(http):
    c = create(http, players=3, seats=["open", "random", "random"])
    r = http.post(f"/api/games/{c['game_id']}/join", json={"seat": 1})
    assert r.status_code == 422 and "bot" in r.json()["detail"]


# --- the host gives a seat to a bot --------------------------------------------------------

def test_the_host_gives_an_absent_players_seat_to_a_bot_and_it_plays(http):
    c = create(http, players=3, seats=["you", "invite", "invite"], names=["Ann", "Bob", "Cy"])
    gid, host = c["game_id"], c["host_token"]
    toks = {s["seat"]: s["token"] for s in c["seats"]}
    rng = random.Random(7)
    # Ann and Cy play; Bob never comes: the game stops at Bob's first decision.
    for _ in range(40):
        st = state(http, gid)
        if st["view"]["to_move"] == 1:
            break
        decide(http, gid, toks[seat_of_faction(st, st["view"]["to_move"])], rng)
    assert st["view"]["to_move"] == 1
    v = st["version"]
    url = f"/api/games/{gid}/seats/1"
    # Only the host may.
    for bad in (toks[0], toks[1], "é", "", "x" * 40):
        r = http.post(url, json={"host_token": bad, "kind": "random"})
        assert r.status_code == 403 and "host" in r.json()["detail"], r.text
    assert http.post(url, json={"host_token": host, "kind": "genius"}).status_code == 422
    assert http.post(f"/api/games/{gid}/seats/5", json={"host_token": host, "kind": "random"}).status_code == 422
    assert http.post("/api/games/nosuch/seats/1", json={"host_token": host, "kind": "random"}).status_code == 404
    assert state(http, gid)["version"] == v
    r = http.post(url, json={"host_token": host, "kind": "random"})
    assert r.status_code == 200, r.text
    assert r.json()["kind"] == "random" and "token" not in r.json()
    # The bot plays Bob's seat at once; Bob's old link no longer works.
    wait_for(http, gid, lambda s: s["version"] > v and s["view"]["to_move"] != 1)
    assert http.get(f"/api/games/{gid}", params={"token": toks[1]}).status_code == 403
    listed = {g["game_id"]: g for g in http.get("/api/games").json()["games"]}[gid]
    assert listed["seats"][1]["kind"] == "random" and listed["seats"][1]["joined"] is True
    assert listed["seats"][2]["kind"] == "human"
    assert state(http, gid)["seats"][1]["kind"] == "random"
    # A bot's seat is not a player's to take away.
    r = http.post(url, json={"host_token": host, "kind": "greedy"})
    assert r.status_code == 409 and "bot" in r.json()["detail"]


def test_the_host_reopens_or_reinvites_a_seat(server, http):
    c = create(http, players=3, seats=["you", "invite", "random"])
    gid, host = c["game_id"], c["host_token"]
    old = c["seats"][1]["token"]
    r = http.post(f"/api/games/{gid}/seats/1", json={"host_token": host, "kind": "invite"})
    assert r.status_code == 200 and r.json()["token"] != old
    old_new = r.json()["token"]
    assert http.get(f"/api/games/{gid}", params={"token": old}).status_code == 403
    assert state(http, gid, r.json()["token"])["seat"] == 1
    # The new link's player is at the table now: the host cannot take the seat from them ...
    r = http.post(f"/api/games/{gid}/seats/1", json={"host_token": host, "kind": "open"})
    assert r.status_code == 409 and "at the table" in r.json()["detail"], r.text
    with connect(f"{server.ws_url}/ws/games/{gid}?token={old_new}") as ws:
        json.loads(ws.recv(5))
        time.sleep(LEFT + 0.5)  # connected: still there, however long since the last request
        r = http.post(f"/api/games/{gid}/seats/1", json={"host_token": host, "kind": "open"})
        assert r.status_code == 409, r.text
    time.sleep(LEFT + 0.5)  # ... until they have left
    r = http.post(f"/api/games/{gid}/seats/1", json={"host_token": host, "kind": "open"})
    assert r.status_code == 200 and r.json()["open"] is True and "token" not in r.json()
    j = http.post(f"/api/games/{gid}/join", json={"seat": 1})
    assert j.status_code == 200 and state(http, gid, j.json()["token"])["seat"] == 1


def test_the_host_gives_a_two_player_seat_to_a_bot_which_plays_both_factions(http):
    c = create(http, players=2, seats=["you", "invite"])
    gid, tok = c["game_id"], c["seats"][0]["token"]
    r = http.post(f"/api/games/{gid}/seats/1", json={"host_token": c["host_token"], "kind": "random"})
    assert r.status_code == 200 and r.json()["factions"] == [1, 3]
    rng = random.Random(3)
    seen = set()
    for _ in range(10):
        st = wait_for(http, gid, lambda s: bool(s["legal_actions"]), tok)
        seen.add(st["view"]["to_move"])
        decide(http, gid, tok, rng)
    assert seen <= {0, 2}
    assert state(http, gid)["version"] > 10  # the bot answered for factions 1 and 3


# --- bad requests: 4xx with a message, never 500 -----------------------------------------

BAD_CREATES = [
    ({"players": 7}, "2 to 6"),
    ({"players": 1}, "2 to 6"),
    ({"players": -3}, "2 to 6"),
    ({"players": "3"}, "players"),
    ({"players": 3.5}, "players"),
    ({"ruleset": "classic", "players": 6}, "2 to 5"),
    ({"ruleset": "classic", "players": 4, "teams": True}, "no team play"),
    ({"ruleset": "classic", "players": 3, "team_goal": 3}, "team"),
    ({"ruleset": "classic", "maelstrom": True}, "Maelström"),
    ({"ruleset": "nope"}, "ruleset"),
    ({"ruleset": 5}, "ruleset"),
    ({"players": 4, "teams": True, "team_goal": 5}, "3 or 4"),
    ({"players": 6, "team_goal": 2}, "3 or 4"),
    ({"players": 3, "team_goal": 3}, "team"),
    ({"players": 3, "teams": True}, "4 players"),
    ({"players": 5, "teams": True}, "4 players"),
    ({"players": 6, "teams": False}, "teams"),
    ({"players": 2, "teams": False}, "teams"),
    ({"players": 4, "teams": "yes"}, "teams"),
    ({"players": 3, "seats": ["you", "you", "random"]}, "you"),
    ({"players": 3, "seats": ["you", "friend", "random"]}, "friend"),
    ({"players": 3, "seats": "you"}, "seats"),
    ({"players": 3, "seats": [1, 2, 3]}, "seats"),
    ({"players": 2, "seats": ["you", "open", "open"]}, "2 seats"),
    ({"players": 3, "names": ["a", "b", "c", "d"]}, "names"),
    ({"players": 3, "board": "moon"}, "board"),
    ({"players": 3, "bot_delay": 99}, "bot_delay"),
    ({"players": 3, "max_cycles": 0}, "max_cycles"),
    ({"players": 3, "colour": "red"}, "colour"),
]


@pytest.mark.parametrize("body,word", BAD_CREATES,
                         ids=lambda x: json.dumps(x, ensure_ascii=True) if isinstance(x, dict) else None)
def test_bad_setups_are_refused_with_a_clear_message(http, body, word):
    r = http.post("/api/games", json=body)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert isinstance(detail, str) and word.lower() in detail.lower(), detail


def test_malformed_requests_never_answer_500(server, http):
    c = create(http, players=3, seats=["you", "open", "random"])
    gid, host = c["game_id"], c["host_token"]
    tries = [
        ("post", "/api/games", {"content": b"{nope"}),
        ("post", "/api/games", {"content": b"[]"}),
        ("post", "/api/games", {"content": "{\"players\": \"é\"}".encode()}),
        ("post", "/api/games", {"content": b"\xff\xfe"}),
        ("post", f"/api/games/{gid}/join", {"content": b"{}"}),
        ("post", f"/api/games/{gid}/join", {"json": {"seat": "1"}}),
        ("post", f"/api/games/{gid}/join", {"json": {"seat": -1}}),
        ("post", f"/api/games/{gid}/join", {"json": {"seat": 10 ** 30}}),
        ("post", f"/api/games/{gid}/join", {"json": [1]}),
        ("post", f"/api/games/{gid}/seats/x", {"json": {"host_token": host, "kind": "random"}}),
        ("post", f"/api/games/{gid}/seats/-1", {"json": {"host_token": host, "kind": "random"}}),
        ("post", f"/api/games/{gid}/seats/99999999999999999999", {"json": {"host_token": host, "kind": "random"}}),
        ("post", f"/api/games/{gid}/seats/1", {"json": {"host_token": host}}),
        ("post", f"/api/games/{gid}/seats/1", {"json": {"host_token": 5, "kind": "random"}}),
        ("post", f"/api/games/{gid}/seats/1", {"json": {"host_token": "é", "kind": "random"}}),
        ("post", f"/api/games/{gid}/seats/1", {"json": {"host_token": "\u0000\ud7ff", "kind": "random"}}),
        ("post", f"/api/games/{gid}/seats/1", {"json": {"host_token": host, "kind": "é"}}),
        ("get", f"/api/games/{gid}?token=%C3%A9", {}),
        ("get", f"/api/games/{gid}?token=%FF%FE", {}),
        ("get", f"/api/games/{gid}?token=%00", {}),
        ("get", "/api/games/%C3%A9", {}),
        ("get", "/api/games?limit=0", {}),
        ("get", "/api/games?status=lost", {}),
        ("post", f"/api/games/{gid}/actions", {"json": {"token": "ü" * 32, "version": 0, "action": {"kind": "claim"}}}),
    ]
    for method, url, given in tries:
        kw = {**given, "headers": {"content-type": "application/json"}} if "content" in given else given
        r = getattr(http, method)(url, **kw)
        assert 400 <= r.status_code < 500, (url, kw, r.status_code, r.text)
        assert isinstance(r.json()["detail"], str) and r.json()["detail"], (url, r.text)
    assert state(http, gid)["seats"][1]["joined"] is False  # nothing changed


def test_a_seat_given_away_no_longer_acts_through_an_open_websocket(server, http):
    """The host may give their own seat away while at the table (a friend's: once gone)."""
    c = create(http, players=3, seats=["you", "invite", "invite"])
    gid, host = c["game_id"], c["host_token"]
    toks = {s["seat"]: s["token"] for s in c["seats"]}
    seat, rng = 0, random.Random(1)
    while seat_of_faction(state(http, gid), state(http, gid)["view"]["to_move"]) != seat:
        st = state(http, gid)
        decide(http, gid, toks[seat_of_faction(st, st["view"]["to_move"])], rng)
    with connect(f"{server.ws_url}/ws/games/{gid}?token={toks[seat]}") as ws:
        first = json.loads(ws.recv(5))
        assert first["seat"] == seat and first["legal_actions"]
        r = http.post(f"/api/games/{gid}/seats/{seat}", json={"host_token": host, "kind": "invite"})
        assert r.status_code == 200
        msgs = [json.loads(ws.recv(5)) for _ in range(2)]
        assert {k: msgs[0][k] for k in ("type", "status")} == {"type": "error", "status": 403}
        assert msgs[1]["type"] == "state" and msgs[1]["seat"] is None and msgs[1]["legal_actions"] == []
        ws.send(json.dumps({"type": "action", "version": first["version"], "action": first["legal_actions"][0]}))
        assert json.loads(ws.recv(5))["status"] == 403
    assert state(http, gid)["version"] == first["version"]
    assert state(http, gid, r.json()["token"])["legal_actions"]  # the new link plays it
