"""The guided first game: every lesson's position loads, its steps are legal in
sequence (the other seats playing as the lesson says) and reach the lesson's goal; the
server serves a lesson as a game and follows the person's progress, back too when the
person takes a decision back (Undo)."""
from __future__ import annotations

import re

import pytest

from cyclades.engine import undo
from cyclades.engine.actions import Action
from cyclades.server import tutorial as T


def play_lesson(d, upto=None):
    """The lesson's game, played by its script: the person's expected actions, the others'
    lesson choices. Returns the game and the person's actions."""
    g = T.new_game(d)
    steps = d["steps"][:upto]
    mine = []
    for step in steps:
        for _ in range(200):
            if g.is_over or g.to_move == T.HUMAN:
                break
            g.apply(T.opponent_choice(d, g, g.to_move))
        legal = g.legal_actions()
        hits = [a for a in legal if T.matches(a, step["expect"])]
        assert len(hits) == 1, f"{d['id']}: step {step['expect']} not exactly one legal action: {legal}"
        g.apply(hits[0])
        mine.append(hits[0])
    return g, mine


LESSONS = ["offerings", "poseidon", "ares", "sea-battle", "apollo", "zeus", "hera", "maelstrom", "metropolis"]


def test_lessons_and_step_count():
    ids = [d["id"] for d in T.lessons()]
    assert ids == LESSONS
    assert T.total_steps() == sum(len(d["steps"]) for d in T.lessons()) == 62
    for d in T.lessons():
        for st in d["steps"]:
            assert st["say"].strip() and not re.search(r"\bR\d+\b", st["say"])  # no ruling codes


@pytest.mark.parametrize("lesson_id", LESSONS)
def test_lesson_steps_are_legal_and_reach_the_goal(lesson_id):
    d = T.lesson(lesson_id)
    g = T.new_game(d)
    assert g.to_move == T.HUMAN and not T.goal_reached(d, g)
    g, _mine = play_lesson(d)
    assert T.goal_reached(d, g), f"{lesson_id}: the goal {d['goal']} is not reached"
    p = T.progress(d, g)
    assert p == {"step": len(d["steps"]), "complete": True, "off_script": False}
    # Halfway, the progress says so.
    half = len(d["steps"]) // 2
    g2, _ = play_lesson(d, half)
    assert T.progress(d, g2)["step"] == half


def test_every_god_and_the_maelstrom_cards_have_a_lesson():
    """What a first game meets: the six gods, creatures bought and kept (Maintenance), heroes,
    Apollo's income, land and sea battles, and the Maelström cards."""
    kinds = {step["expect"]["kind"] for d in T.lessons() for step in d["steps"]}
    gods = {g for d in T.lessons() for g in d["scenario"].get("gods", [])[:1]} | {"apollo"}
    assert gods == {"ares", "athena", "hera", "poseidon", "zeus", "apollo"}
    assert {"bid", "apollo", "prosperity", "buy_creature", "keep", "peek", "recruit_hero", "heroic_move",
            "sea_move", "land_move", "hold", "metropolis", "steal"} <= kinds
    d = T.lesson("sea-battle")
    g, _ = play_lesson(d, 5)
    events = g.apply(next(a for a in g.legal_actions() if T.matches(a, d["steps"][5]["expect"])))
    assert [e["sea"] for e in events if e["type"] == "battle"] == [True]
    assert [e["type"] for e in events][-1] == "battle_won"
    d = T.lesson("maelstrom")
    from cyclades.content.cards import CREATURES
    assert CREATURES["triton"].maelstrom and d["scenario"]["bonus_stack"][0] in ("reserve-creature", "basic-building",
                                                                                   "troop-and-fleet")


def test_the_last_lesson_wins_the_game():
    d = T.lesson("metropolis")
    g, _ = play_lesson(d)
    for _ in range(200):
        if g.is_over:
            break
        g.apply(T.opponent_choice(d, g, g.to_move))
    assert g.is_over and g.result()["winners"] == [0]


def test_battle_lesson_fights_two_rounds():
    d = T.lesson("ares")
    g, _ = play_lesson(d)
    kythnos = g.board.index["kythnos"]
    assert g.state.ctrl[kythnos] == 0 and g.state.troops[kythnos] == 3


def test_undo_in_a_land_move_follows_the_lesson_back():
    d = T.lesson("ares")
    g, _ = play_lesson(d, 3)  # fortress, troop, "Land Move": the origin is asked
    before_origin = g.legal_actions()
    g.apply(Action("origin", where="thera"))
    before_take = g.legal_actions()
    g.apply(Action("take", what="troop", n=2))
    assert g.legal_actions()[0].kind == "destination"
    assert T.progress(d, g)["off_script"]  # 2 troops, not the 3 the lesson asks for
    g = undo.take_back(g)
    assert g.legal_actions() == before_take and T.progress(d, g) == {"step": 4, "complete": False, "off_script": False}
    g = undo.take_back(g)
    assert g.legal_actions() == before_origin and T.progress(d, g)["step"] == 3
    assert undo.undo_limit(g) == undo.Limit(3, undo.START, None)  # the lesson's position began the turn


def test_ends_turn():
    d = T.lesson("offerings")
    g = T.new_game(d)
    assert T.ends_turn(g, Action("bid", what="ares", n=2))  # the next player bids
    d = T.lesson("poseidon")
    g = T.new_game(d)
    assert not T.ends_turn(g, Action("build", what="port", where="thera"))
    g, _ = play_lesson(d, 4)
    assert T.ends_turn(g, Action("end_turn"))
    assert not T.ends_turn(g, Action("sea_move", n=1))


# --- over HTTP, against a real server ------------------------------------------------------

@pytest.fixture(scope="module")
def http(tmp_path_factory):
    import httpx

    from cyclades.server.testing import ServerProcess
    url = f"sqlite:///{tmp_path_factory.mktemp('tutorial') / 'games.db'}"
    with ServerProcess(url, bot_delay=0.0) as srv, httpx.Client(base_url=srv.url, timeout=10) as c:
        yield c


def _wait_for(http, gid, token, cond, timeout=10.0):
    import time
    deadline = time.monotonic() + timeout
    while True:
        st = http.get(f"/api/games/{gid}", params={"token": token}).json()
        if cond(st):
            return st
        assert time.monotonic() < deadline, "the bots did not get there in time"
        time.sleep(0.05)


def _act(http, gid, token, version, action):
    r = http.post(f"/api/games/{gid}/actions", json={"token": token, "version": version, "action": action})
    assert r.status_code == 200, r.text
    return r.json()


@pytest.mark.parametrize("lesson_id", ["offerings", "ares"])
def test_server_plays_a_lesson_as_a_game(http, lesson_id):
    r = http.get("/api/tutorial")
    assert r.status_code == 200 and r.json()["steps"] == T.total_steps()
    r = http.post("/api/tutorial", json={"lesson": lesson_id})
    assert r.status_code == 201, r.text
    c = r.json()
    gid, token = c["game_id"], c["token"]
    assert c["url"] == f"/game/{gid}?token={token}"
    d = T.lesson(lesson_id)
    for k, step in enumerate(d["steps"]):
        st = _wait_for(http, gid, token, lambda s: s["legal_actions"])
        t = http.get(f"/api/tutorial/games/{gid}", params={"token": token}).json()["tutorial"]
        assert t["id"] == lesson_id and t["step"] == k and not t["complete"]
        a = next(a for a in st["legal_actions"] if T.matches(Action.from_json(a), step["expect"]))
        _act(http, gid, token, st["version"], {x: a[x] for x in ("kind", "what", "where", "n") if x in a})
    t = http.get(f"/api/tutorial/games/{gid}", params={"token": token}).json()["tutorial"]
    assert t["complete"] and t["step"] == len(d["steps"]) and t["next"] == T.next_lesson(lesson_id)
    # Not a lesson: null; a wrong token: refused; an unknown lesson: 422.
    g = http.post("/api/games", json={"players": 3}).json()
    assert http.get(f"/api/tutorial/games/{g['game_id']}").json() == {"tutorial": None}
    assert http.get(f"/api/tutorial/games/{gid}", params={"token": "nope"}).status_code == 403
    assert http.post("/api/tutorial", json={"lesson": "chess"}).status_code == 422


def test_a_lesson_names_its_seats_in_the_learners_language(http):
    """A lesson's seats are named by the colours its words call them by, in the language of the
    one who asked for it, as the lobby names the seats of a new game."""
    for lang, names in (("en", ["Red", "Yellow bot", "Green bot"]), ("fr", ["Rouge", "Bot jaune", "Bot vert"])):
        c = http.post("/api/tutorial", params={"lang": lang}, json={"lesson": "offerings"}).json()
        st = http.get(f"/api/games/{c['game_id']}", params={"token": c["token"]}).json()
        assert [seat["name"] for seat in st["seats"]] == names, lang


def test_server_undo_takes_the_lesson_back(http):
    c = http.post("/api/tutorial", json={"lesson": "ares"}).json()
    gid, token = c["game_id"], c["token"]
    d = T.lesson("ares")
    for step in d["steps"][:4]:  # ... "Land Move", origin Thera: the troops are asked
        st = _wait_for(http, gid, token, lambda s: s["legal_actions"])
        a = next(a for a in st["legal_actions"] if T.matches(Action.from_json(a), step["expect"]))
        _act(http, gid, token, st["version"], a)
    asked = http.get(f"/api/games/{gid}", params={"token": token}).json()
    assert asked["undo"]["steps"] == 4
    _act(http, gid, token, asked["version"], {"kind": "take", "what": "troop", "n": 3})
    st = http.get(f"/api/games/{gid}", params={"token": token}).json()
    assert {a["kind"] for a in st["legal_actions"]} == {"destination", "cancel"}
    r = http.post(f"/api/games/{gid}/undo", json={"token": token, "version": st["version"] - 1})
    assert r.status_code == 409  # stale
    r = http.post(f"/api/games/{gid}/undo", json={"token": token, "version": st["version"]})
    assert r.status_code == 200, r.text
    back = http.get(f"/api/games/{gid}", params={"token": token}).json()
    assert back["legal_actions"] == asked["legal_actions"] and back["version"] == asked["version"]
    assert back["view"] == asked["view"] and back["log"] == asked["log"]
    t = http.get(f"/api/tutorial/games/{gid}", params={"token": token}).json()["tutorial"]
    assert t["step"] == 4 and not t["off_script"]
    # ends-turn: taking troops does not; ending the turn does.
    r = http.post(f"/api/games/{gid}/ends-turn", json={"token": token, "version": back["version"],
                                                       "action": {"kind": "take", "what": "troop", "n": 3}})
    assert r.json() == {"ends_turn": False}
    for _ in range(4):  # origin, "Land Move", troop, fortress: back to the start of the turn
        st = http.get(f"/api/games/{gid}", params={"token": token}).json()
        assert http.post(f"/api/games/{gid}/undo", json={"token": token, "version": st["version"]}).status_code == 200
    st = http.get(f"/api/games/{gid}", params={"token": token}).json()
    assert st["undo"] == {"steps": 0, "reason": "start", "text": "You cannot go back further: the game began there."}
    r = http.post(f"/api/games/{gid}/undo", json={"token": token, "version": st["version"]})
    assert r.status_code == 409 and "the game began there" in r.text
    t = http.get(f"/api/tutorial/games/{gid}", params={"token": token}).json()["tutorial"]
    assert t["step"] == 0
    fortress = {"kind": "build", "what": "fortress", "where": "thera"}
    r = http.post(f"/api/games/{gid}/ends-turn", json={"token": token, "version": st["version"], "action": fortress})
    assert r.json() == {"ends_turn": False}
