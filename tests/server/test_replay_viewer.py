"""Replays, the end of a game and rematches over HTTP (docs/api.md, "Replays").

A real server (`ServerProcess`) plays short all-bot games (random bots, no delay, a cycle
limit) to their end; the replay endpoints must show the same positions and log as the
game itself, hide what a running game hides (R24), replay uploaded records and refuse
malformed ones with a clear message.
"""
from __future__ import annotations

import json
import random
import time

import httpx
import pytest
from serverproc import wait_over

import cyclades
from cyclades.server.testing import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    db = tmp_path_factory.mktemp("replays") / "c.db"
    # Uploads at the rate of a test (their limit per address: tests/server/test_server_abuse.py).
    with ServerProcess(f"sqlite:///{db}", args=["--upload-rate", "none"]) as srv:
        yield srv


@pytest.fixture(scope="module")
def client(server):
    with httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


def bot_game(client, players=3, max_cycles=3, seed=5, names=None):
    body = {"players": players, "seats": ["random"] * players, "max_cycles": max_cycles,
            "bot_delay": 0, "seed": seed}
    if names:
        body["names"] = names
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()["game_id"]


@pytest.fixture(scope="module")
def finished(client):
    gid = bot_game(client, names=["Ann", "Bob", "Cleo"])
    return gid, wait_over(client, gid)


def test_timeline_of_a_finished_game(client, finished):
    gid, g = finished
    result = g["view"]["result"]
    tl = client.get(f"/api/games/{gid}/timeline").json()
    assert tl["over"] and not tl["gp_hidden"] and tl["players"] == 3
    assert tl["names"] == ["Ann", "Bob", "Cleo"]
    cycles = [p["cycle"] for p in tl["points"]]
    assert cycles == list(range(0, result["cycles"] + 1))  # the setup, then every cycle
    for p in tl["points"]:
        assert len(p["gp"]) == 3 and len(p["metropolises"]) == 3
    last = tl["points"][-1]
    assert last["gp"] == result["gp"] and last["metropolises"] == result["metropolises"]
    assert tl["points"][0]["gp"] == [5, 5, 5]  # the purses after the setup, before any income


def test_the_record_replays_to_the_same_result_and_the_replay_matches_the_game(client, finished):
    gid, g = finished
    record = client.get(f"/api/games/{gid}/record").json()
    game = cyclades.Game.from_record(record)
    assert game.is_over
    mine = game.result()
    theirs = g["view"]["result"]
    for k in ("winners", "gp", "metropolises", "cycles"):
        assert mine[k] == theirs[k], k

    s = client.get(f"/api/replays/{gid}").json()
    assert s["over"] and not s["public"] and s["game_id"] == gid
    n = s["steps"]
    assert n == len(record["actions"]) and len(s["cycle"]) == n + 1 and len(s["log_end"]) == n + 1
    assert s["actions"] == record["actions"]
    assert s["names"] == ["Ann", "Bob", "Cleo"]
    # The same log as the game's, each decision's lines ending where the replay says.
    log = client.get(f"/api/games/{gid}/log").json()
    assert s["log"] == log["log"] and s["log_end"][-1] == log["total"]
    assert s["log_end"] == sorted(s["log_end"])
    assert s["cycles"][0] == [0, 0] and [c for c, _ in s["cycles"]] == list(range(0, theirs["cycles"] + 1))
    for c, start in s["cycles"][1:]:
        assert s["cycle"][start] == c and s["cycle"][start - 1] == c - 1
        assert f"Cycle {c} begins." in s["log"][s["log_end"][start - 1]:s["log_end"][start]]
    assert set(s["board"]["ids"]) == {a["id"] for a in g["view"]["areas"]}

    # Positions: the last is the end of the game; each equals a replay up to that decision.
    end = client.get(f"/api/replays/{gid}/steps/{n}").json()
    assert end["view"]["over"] and end["view"]["areas"] == g["view"]["areas"]
    assert end["next_action"] is None and bare(end["action"]) == record["actions"][-1]
    rng = random.Random(1)
    for k in [0, 1, 33, n // 2] + rng.sample(range(n), 3):
        d = client.get(f"/api/replays/{gid}/steps/{k}").json()
        ref = cyclades.Game.from_record(record, upto=k)
        assert d["step"] == k and d["cycle"] == s["cycle"][k] and d["log_end"] == s["log_end"][k]
        assert d["view"]["areas"] == ref.view(None)["areas"]
        assert d["view"]["version"] == ref.state.version
        # A finished game's replay shows every purse at every moment.
        assert [p["gp"] for p in d["view"]["players"]] == [ref.purse(p) for p in range(3)]
        assert bare(d["next_action"]) == record["actions"][k] and d["next_action"]["text"]
        assert bare(d["action"]) == (record["actions"][k - 1] if k else None)
        assert "legal_actions" not in d["view"]
    assert client.get(f"/api/replays/{gid}/steps/{n + 1}").status_code == 422
    assert client.get("/api/replays/nosuchgame").status_code == 404
    assert client.get("/api/games/nosuchgame/timeline").status_code == 404


def test_a_running_game_shows_only_the_public_view(client):
    r = client.post("/api/games", json={"players": 3, "seats": ["human", "random", "random"],
                                        "bot_delay": 0})
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    token = r.json()["seats"][0]["token"]
    # Play the human seat for a while (the bots answer at once).
    rng = random.Random(3)
    played, deadline = 0, time.monotonic() + 60   # bot workers start slowly on a loaded machine
    while played < 12 and time.monotonic() < deadline:
        g = client.get(f"/api/games/{gid}", params={"token": token}).json()
        assert g["status"] != "over"
        if not g["legal_actions"]:
            time.sleep(0.05)
            continue
        played += 1
        a = rng.choice(g["legal_actions"])
        a = {k: a[k] for k in ("kind", "what", "where", "n") if k in a}
        client.post(f"/api/games/{gid}/actions", json={"token": token, "version": g["version"], "action": a})
    assert client.get(f"/api/games/{gid}/record").status_code == 409

    tl = client.get(f"/api/games/{gid}/timeline").json()
    assert not tl["over"] and tl["gp_hidden"]
    assert all(p["gp"] is None for p in tl["points"])
    assert all(len(p["metropolises"]) == 3 for p in tl["points"])

    s = client.get(f"/api/replays/{gid}").json()
    assert s["public"] and not s["over"] and s["actions"] is None and s["result"] is None
    assert s["steps"] > 0
    # The bots may move between two requests: read the live view between two equal step counts.
    for _ in range(100):
        at_n = client.get(f"/api/replays/{gid}").json()
        n = at_n["steps"]
        live = client.get(f"/api/games/{gid}").json()   # what a spectator sees now
        if client.get(f"/api/replays/{gid}").json()["steps"] == n:
            break
    last = client.get(f"/api/replays/{gid}/steps/{n}").json()
    assert last["view"]["areas"] == live["view"]["areas"]
    for k in (0, n // 2, n):
        d = client.get(f"/api/replays/{gid}/steps/{k}").json()
        assert all(p["gp"] is None for p in d["view"]["players"]), "GP are hidden (R24)"
        assert d["action"] is None and d["next_action"] is None
        assert "legal_actions" not in d["view"]
    text = json.dumps(client.get(f"/api/replays/{gid}").json())
    assert '"seed"' not in text
    # Catching up: the steps after n, and the log lines after them.
    more = client.get(f"/api/replays/{gid}", params={"since": n}).json()
    assert more["since"] == n and more["log_start"] == at_n["log_end"][-1] and "board" not in more
    assert client.post(f"/api/games/{gid}/rematch").status_code == 409


def test_upload_a_record_and_refuse_malformed_ones(client, finished):
    gid, g = finished
    record = client.get(f"/api/games/{gid}/record").json()
    text = json.dumps(record)
    up = client.post("/api/replays", content=text, headers={"Content-Type": "application/json"})
    assert up.status_code == 201, up.text
    rid = up.json()["replay_id"]
    assert rid.startswith("up-") and up.json()["steps"] == len(record["actions"])
    assert up.json()["url"] == f"/replay/{rid}"
    again = client.post("/api/replays", content=text, headers={"Content-Type": "application/json"})
    assert again.json()["replay_id"] == rid
    # JSON only: a form or text/plain (what another site's page can send unasked) is refused.
    for kind in (None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        r = client.post("/api/replays", content=text, headers={"Content-Type": kind} if kind else {})
        assert r.status_code == 415 and "JSON" in r.json()["detail"], (kind, r.text)
    s = client.get(f"/api/replays/{rid}").json()
    assert s["over"] and s["game_id"] is None and s["steps"] == len(record["actions"])
    assert s["names"] == ["Player 1", "Player 2", "Player 3"]
    assert s["result"]["winners"] == g["view"]["result"]["winners"]
    end = client.get(f"/api/replays/{rid}/steps/{s['steps']}").json()
    assert end["view"]["areas"] == g["view"]["areas"]
    # Names may come with the record.
    named = client.post("/api/replays", json={**record, "names": ["A", "B", "C"]}).json()
    assert client.get(f"/api/replays/{named['replay_id']}").json()["names"] == ["A", "B", "C"]
    assert client.get("/api/replays/up-0000").status_code == 404

    def refused(body, status=422, *words):
        r = client.post("/api/replays", content=body if isinstance(body, str) else json.dumps(body),
                        headers={"Content-Type": "application/json"})
        assert r.status_code == status, r.text
        detail = r.json()["detail"]
        assert isinstance(detail, str)
        for w in words:
            assert w in detail, detail
        return detail

    refused("{not json", 422, "not JSON")
    refused("", 422, "not JSON")
    refused([1, 2], 422, "JSON object")
    refused({**record, "format": 7}, 422, "format")
    refused({"format": 1, "options": record["options"]}, 422, "'actions'")
    refused({"format": 1, "options": {}, "actions": []}, 422, "lacks")
    refused({"format": 1, "options": {**record["options"], "ruleset": "chess"}, "actions": []}, 422, "chess")
    refused({"format": 1, "options": {**record["options"], "players": 9}, "actions": []}, 422, "options")
    refused({**record, "actions": record["actions"][:5] + [{"kind": "bid", "what": "zeus", "n": 99}]},
            422, "decision 6", "not legal")
    refused({**record, "actions": record["actions"][:3] + [{"kind": 5}]}, 422, "decision 4")
    refused({**record, "actions": record["actions"] + [record["actions"][-1]]}, 422, "already over")
    refused({"format": 1, "options": {"scenario": "/etc/passwd"}, "actions": []}, 422, "scenario")
    refused("x" * 4_100_000, 413, "too large")


def test_rematch_with_the_same_seats(client, finished):
    gid, g = finished
    assert client.get(f"/api/games/{gid}/rematch").json() == {"rematch": None}
    r = client.post(f"/api/games/{gid}/rematch")
    assert r.status_code == 200, r.text
    new = r.json()
    assert new["created"] and new["game_id"] != gid and new["rematch_of"] == gid
    assert new["url"] == f"/game/{new['game_id']}" and new["seat"] is None
    again = client.post(f"/api/games/{gid}/rematch", json={})
    assert again.json()["game_id"] == new["game_id"] and not again.json()["created"]
    assert client.get(f"/api/games/{gid}/rematch").json()["rematch"]["game_id"] == new["game_id"]
    old_seats = [(s["kind"], s["name"]) for s in g["seats"]]
    ng = wait_over(client, new["game_id"])   # all bots again, the same cycle limit
    assert [(s["kind"], s["name"]) for s in ng["seats"]] == old_seats
    assert ng["view"]["result"]["cycles"] <= 3
    rec_old = client.get(f"/api/games/{gid}/record").json()
    rec_new = client.get(f"/api/games/{new['game_id']}/record").json()
    for k in ("players", "ruleset", "maelstrom", "max_cycles", "board"):
        assert rec_new["options"][k] == rec_old["options"][k], k
    assert rec_new["options"]["seed"] != rec_old["options"]["seed"]


def test_rematch_gives_each_player_their_own_new_seat(client):
    r = client.post("/api/games", json={"players": 3, "seats": ["human", "human", "random"],
                                        "names": ["Ann", "Bob", None], "max_cycles": 1,
                                        "bot_delay": 0})
    assert r.status_code == 201, r.text
    gid = r.json()["game_id"]
    tokens = {s["seat"]: s["token"] for s in r.json()["seats"]}
    rng = random.Random(4)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        g = client.get(f"/api/games/{gid}").json()
        if g["status"] == "over":
            break
        p = g["view"]["to_move"]
        if p not in tokens:
            time.sleep(0.02)
            continue
        mine = client.get(f"/api/games/{gid}", params={"token": tokens[p]}).json()
        if not mine["legal_actions"]:
            continue
        a = rng.choice(mine["legal_actions"])
        a = {k: a[k] for k in ("kind", "what", "where", "n") if k in a}
        client.post(f"/api/games/{gid}/actions",
                    json={"token": tokens[p], "version": mine["version"], "action": a})
    else:
        raise AssertionError("the game did not end")

    # Bob asks for the rematch: he gets his seat's new link; Ann finds hers; a spectator none.
    assert client.post(f"/api/games/{gid}/rematch", json={"token": "forged"}).status_code == 403
    bob = client.post(f"/api/games/{gid}/rematch", json={"token": tokens[1]}).json()
    assert bob["seat"] == 1 and "token=" in bob["url"]
    new_bob = bob["url"].split("token=")[1]
    assert new_bob != tokens[1]
    ann = client.get(f"/api/games/{gid}/rematch", params={"token": tokens[0]}).json()["rematch"]
    assert ann["game_id"] == bob["game_id"] and ann["seat"] == 0
    new_ann = ann["url"].split("token=")[1]
    assert new_ann not in (new_bob, tokens[0])
    watcher = client.get(f"/api/games/{gid}/rematch").json()["rematch"]
    assert watcher["seat"] is None and "token" not in watcher["url"]
    ng = client.get(f"/api/games/{bob['game_id']}", params={"token": new_bob}).json()
    assert ng["seat"] == 1
    assert [(s["kind"], s["name"]) for s in ng["seats"]] == [("human", "Ann"), ("human", "Bob"),
                                                             ("random", "Random bot 3")]
    assert client.get(f"/api/games/{bob['game_id']}", params={"token": new_ann}).json()["seat"] == 0
    # The old links do not open the new game.
    assert client.get(f"/api/games/{bob['game_id']}", params={"token": tokens[0]}).status_code == 403


def bare(action):
    """A replay's decision without its words (`text`, the sentence the page shows)."""
    return None if action is None else {k: v for k, v in action.items() if k != "text"}
