"""Play now, My games, invitations by name, ratings, profiles, the leaderboard and the table
talk, against a real server on SQLite and on PostgreSQL (conftest.db_url). Play-now games are
one cycle long here (`--play-now-max-cycles 1`), so that they end in seconds; the people's
decisions are random legal ones over HTTP. Contract: docs/api.md "Play now", "Chat"."""
from __future__ import annotations

import itertools
import json
import threading

import pytest
import sqlalchemy as sa

httpx = pytest.importorskip("httpx")
pytest.importorskip("argon2")
pytest.importorskip("openskill")
from people import PASSWORD, Crowd, Person, game_of, play_out, token_of, wait_for  # noqa: E402
from serverproc import START_SECONDS  # noqa: E402 - a loaded machine starts a server slowly
from websockets.sync.client import connect  # noqa: E402

from cyclades.server.testing import ServerProcess  # noqa: E402

ARGS = ["--signup-rate", "1000/minute", "--login-rate", "1000/minute", "--play-now-max-cycles", "1",
        "--table-sweep-seconds", "0.2"]
TABLES = itertools.count(1)
THREE = {"players": 3, "ruleset": "legendary", "maelstrom": True, "speed": "live", "rated": True}


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    log = tmp_path_factory.mktemp("playnow") / "server.log"
    with ServerProcess(db_url, bot_delay=0.0, args=ARGS, log_path=str(log), timeout=START_SECONDS) as srv:
        yield srv


@pytest.fixture
def people(server):
    crowd = Crowd(server.url)
    yield crowd
    crowd.close()


def play(person, **body):
    r = person.post("/api/play", json={**THREE, **body})
    assert r.status_code == 200, r.text
    return r.json()


def table(person, table_id):
    return person.get(f"/api/play/tables/{table_id}").json()


def seat_url(person, table_id):
    return wait_for(lambda: table(person, table_id)["game_url"], what="the table's game")


# --- play now ------------------------------------------------------------------------------------

def test_play_now_seats_two_people_at_one_table_that_starts_when_full(people, server):
    ann, bob, cid = people("Ann P"), people("Bob P"), people("Cid P")
    kind = {"speed": "turn-based", "players": 3}
    t = play(ann, **kind)
    assert (t["status"], t["mine"], t["creator"], t["free"]) == ("waiting", True, True, 2)
    assert play(ann, **kind)["table_id"] == t["table_id"]  # asking again: the same table
    other = play(bob, **{**kind, "players": 4})
    assert other["table_id"] != t["table_id"]  # another kind, another table
    assert bob.post(f"/api/play/tables/{other['table_id']}/leave").status_code == 200
    t2 = play(bob, **kind)
    assert t2["table_id"] == t["table_id"] and t2["free"] == 1 and not t2["creator"]
    assert bob.post(f"/api/play/tables/{t['table_id']}/fill").status_code == 403  # not the creator
    # Bob's My games shows the table he waits at.
    assert [x["table_id"] for x in bob.get("/api/account/games").json()["tables"]] == [t["table_id"]]
    t3 = play(cid, **kind)
    assert t3["status"] == "started" and t3["game_url"]
    urls = {p.name: seat_url(p, t["table_id"]) for p in (ann, bob, cid)}
    gid = game_of(urls["Ann P"])
    assert {game_of(u) for u in urls.values()} == {gid} and len({token_of(u) for u in urls.values()}) == 3
    g = httpx.get(server.url + f"/api/games/{gid}").json()
    assert sorted(s["name"] for s in g["seats"]) == ["Ann P", "Bob P", "Cid P"]
    assert all(s["kind"] == "human" for s in g["seats"])
    # A full table is no longer waiting: the next one opens a new table.
    assert play(ann, **kind)["table_id"] != t["table_id"]


def test_the_creator_fills_empty_seats_with_bots_and_bots_make_it_unrated(people, server):
    dan = people("Dan P")
    t = play(dan, players=4, bot="beginner")
    assert dan.post(f"/api/play/tables/{t['table_id']}/fill").status_code == 200
    url = seat_url(dan, t["table_id"])
    g = httpx.get(server.url + f"/api/games/{game_of(url)}").json()
    assert sorted(s["kind"] for s in g["seats"]) == ["beginner"] * 3 + ["human"]
    game = dan.get("/api/account/games").json()
    listed = game["waiting_on_me"] + game["running"] + game["open"]
    assert [(x["game_id"], x["rated"]) for x in listed] == [(game_of(url), False)]  # bots: unrated


def test_bots_fill_the_table_after_the_creators_wait_even_if_nobody_asks(people, server):
    eve = people("Eve P")
    t = play(eve, players=5, bots_after=1, speed="turn-based")
    assert t["fill_at"] - t["created"] == pytest.approx(1)
    # Nobody polls the table: the server's sweep starts it.
    mine = wait_for(lambda: [x for k in ("waiting_on_me", "running", "open")
                             for x in eve.get("/api/account/games").json()[k]], what="the game in My games")
    assert len(mine) == 1 and mine[0]["speed"] == "turn-based"
    # the game is in My games as soon as it is stored; the table says "started" a moment after
    wait_for(lambda: table(eve, t["table_id"])["status"] == "started", what="the table started")


def test_leaving_a_table_before_it_starts(people, server):
    fay, gus = people("Fay P"), people("Gus P")
    t = play(fay, players=6)
    assert gus.post(f"/api/play/tables/{t['table_id']}/join").json()["free"] == 4  # by its link
    r = fay.post(f"/api/play/tables/{t['table_id']}/leave")
    assert r.status_code == 200 and r.json()["mine"] is False
    t = table(gus, t["table_id"])
    assert t["creator"] and [s["name"] for s in t["seated"]] == ["Gus P"]  # the table passed on
    assert gus.post(f"/api/play/tables/{t['table_id']}/leave").json()["status"] == "closed"
    assert gus.post(f"/api/play/tables/{t['table_id']}/leave").status_code == 409


def test_a_table_left_half_started_by_a_stopped_process_waits_again(people, db_url):
    vic = people("Vic P")
    t = play(vic, players=5, speed="turn-based")
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as c:  # as if a process stopped while it made the table's game
            c.execute(sa.text("UPDATE play_tables SET status = 'starting', updated = 0 WHERE id = :t"),
                      {"t": t["table_id"]})
    finally:
        engine.dispose()
    assert wait_for(lambda: table(vic, t["table_id"])["status"] == "waiting", what="the table waiting again")
    assert play(vic, players=5, speed="turn-based")["table_id"] == t["table_id"]


def test_play_now_refuses_what_the_rules_do_not_allow(people):
    hal = people("Hal P")
    assert hal.post("/api/play", json={**THREE, "ruleset": "classic", "players": 6}).status_code == 422
    assert hal.post("/api/play", json={**THREE, "players": 7}).status_code == 422
    assert hal.post("/api/play", json={**THREE, "bot": "genius"}).status_code == 422
    assert hal.post("/api/play", json={**THREE, "speed": "blitz"}).status_code == 422
    with Person(hal.http.base_url) as stranger:
        assert stranger.post("/api/play", json=THREE).status_code == 401  # logged out


# --- a rated game to its end -----------------------------------------------------------------------

def test_a_rated_game_ends_and_moves_ratings_profiles_and_the_leaderboard(people, server):
    ivy, jon = people("Ivy P"), people("Jon P")
    t = play(ivy, bots_after=60, bots_rated=True, bot="casual")
    play(jon, bots_after=60, bots_rated=True)
    assert ivy.post(f"/api/play/tables/{t['table_id']}/fill").status_code == 200
    urls = [seat_url(p, t["table_id"]) for p in (ivy, jon)]
    gid = game_of(urls[0])
    mine = ivy.get("/api/account/games").json()
    assert [g["game_id"] for g in mine["waiting_on_me"] + mine["running"] + mine["open"]] == [gid]
    end = play_out(server.url, [(token_of(u), gid) for u in urls])
    assert end["status"] == "over"
    profiles = {p.name: wait_for(lambda p=p: (r := p.get(f"/api/players/{p.name}").json())["played"] and r,
                                 what="the game in the profile") for p in (ivy, jon)}
    for prof in profiles.values():
        assert prof["played"] == 1 and prof["recent"][0]["game_id"] == gid
        assert prof["recent"][0]["replay"] == f"/replay/{gid}" and prof["recent"][0]["rated"]
        assert prof["modes"][0]["label"].startswith("Legendary with Maelström, 3 players")
        r = prof["ratings"]["legendary"]
        assert r["games"] == 1 and len(r["history"]) == 1 and r["rating"] != 1500  # moved
        assert prof["recent"][0]["rating"] == {"before": 1500, "after": r["rating"]}
    board = httpx.get(server.url + "/api/leaderboard", params={"edition": "legendary"}).json()["players"]
    ranked = {p["name"]: p for p in board}
    assert {"Ivy P", "Jon P"} <= set(ranked) and not any(p["bot"] for p in board)
    assert ranked["Ivy P"]["rating"] == profiles["Ivy P"]["ratings"]["legendary"]["rating"]
    with_bots = httpx.get(server.url + "/api/leaderboard", params={"bots": "true"}).json()["players"]
    assert any(p["bot"] and p["name"] == "casual" for p in with_bots)
    # Winning counts: the places agree with the game's result.
    result = httpx.get(server.url + f"/api/replays/{gid}").json()["result"]
    finished = {p.name: p.get("/api/account/games").json()["finished"][0] for p in (ivy, jon)}
    seats = {f["seat"]: f for f in finished.values()}
    for seat, f in seats.items():
        assert f["won"] == (seat in result["winners"]) and f["place"] >= 0
    assert httpx.get(server.url + "/api/leaderboard", params={"edition": "nope"}).status_code == 422
    assert httpx.get(server.url + "/api/players/Nobody Home").status_code == 404


# --- invitations by name ---------------------------------------------------------------------------------

def test_the_host_invites_a_player_by_name(people, server):
    kai, lea = people("Kai P"), people("Lea P")
    made = kai.post("/api/games", json={"players": 3, "seats": ["you", "invite", "random"]}).json()
    gid, old_link = made["game_id"], made["seats"][1]["url"]
    r = kai.post(f"/api/games/{gid}/invite", json={"seat": 1, "name": "lea p"})
    assert r.status_code == 200 and r.json()["invited"] == "Lea P"
    assert httpx.get(server.url + f"/api/games/{gid}", params={"token": token_of(old_link)}).status_code == 403
    assert kai.post(f"/api/games/{gid}/invite", json={"seat": 2, "name": "Lea P"}).status_code == 422  # a bot
    assert kai.post(f"/api/games/{gid}/invite", json={"seat": 1, "name": "Nobody P"}).status_code == 404
    assert lea.post(f"/api/games/{gid}/invite", json={"seat": 1, "name": "Lea P"}).status_code == 403
    assert httpx.post(server.url + f"/api/games/{gid}/invite", json={"seat": 1, "name": "Lea P"}).status_code == 401
    mine = lea.get("/api/account/games").json()
    assert [(g["game_id"], g["url"]) for g in mine["invitations"]] == [(gid, None)]
    assert lea.me()["invitations"] == 1
    r = lea.post(f"/api/account/invitations/{gid}/accept")
    assert r.status_code == 200
    st = httpx.get(server.url + r.json()["url"].replace("/game/", "/api/games/")).json()
    assert st["seat"] == 1 and st["seats"][1]["name"] == "Lea P"
    assert lea.post(f"/api/account/invitations/{gid}/accept").status_code == 404  # accepted already
    # The host token invites too (a guest host), and an invitation may be declined.
    guest = httpx.post(server.url + "/api/games", json={"players": 3, "seats": ["you", "invite", "random"]}).json()
    r = httpx.post(server.url + f"/api/games/{guest['game_id']}/invite",
                   json={"seat": 1, "name": "Lea P", "host_token": guest["host_token"]})
    assert r.status_code == 200
    assert lea.post(f"/api/account/invitations/{guest['game_id']}/decline").json()["declined"]
    assert lea.get("/api/account/games").json()["invitations"] == []


def test_my_games_puts_the_games_waiting_on_me_first(people, server):
    max_ = people("Max P")
    made = max_.post("/api/games", json={"players": 3, "seats": ["you", "random", "random"]}).json()
    gid = made["game_id"]
    st = wait_for(lambda: (s := httpx.get(server.url + made["seats"][0]["url"].replace("/game/", "/api/games/"))
                           .json())["legal_actions"] and s, what="Max's turn")
    assert st["seat"] == 0
    mine = max_.get("/api/account/games").json()
    assert [g["game_id"] for g in mine["waiting_on_me"]] == [gid]
    g = mine["waiting_on_me"][0]
    assert g["my_turn"] and g["url"] == made["seats"][0]["url"] and g["expires"] > g["updated"]
    assert max_.me()["waiting_on_me"] == 1


# --- the table talk ---------------------------------------------------------------------------------------

@pytest.fixture
def table_of_two(people, server):
    """Two players (Nia by her seat's token, Oto by his account) and a bot, and a spectator."""
    n = next(TABLES)
    nia, oto = people(f"Nia {n}"), people(f"Oto {n}")
    t = play(nia, players=3, rated=False)
    play(oto, players=3, rated=False)
    nia.post(f"/api/play/tables/{t['table_id']}/fill")
    urls = [seat_url(p, t["table_id"]) for p in (nia, oto)]
    return {"gid": game_of(urls[0]), "nia": nia, "oto": oto, "tokens": [token_of(u) for u in urls],
            "spectator": people(f"Pia {n}")}


def chat(person, gid, token=None, after=0):
    r = person.get(f"/api/games/{gid}/chat", params={"after": after, **({"token": token} if token else {})})
    assert r.status_code == 200, r.text
    return r.json()


def test_players_and_spectators_talk_on_separate_lines(table_of_two, server):
    gid, nia, oto, spec = (table_of_two[k] for k in ("gid", "nia", "oto", "spectator"))
    nia_token = table_of_two["tokens"][0]
    r = nia.post(f"/api/games/{gid}/chat", json={"token": nia_token, "text": "  Good   luck <3  "})
    assert r.status_code == 201
    r = oto.post(f"/api/games/{gid}/chat", json={"text": "You too!"})  # by the account holding the seat
    assert r.status_code == 201 and r.json()["line"] == "players" and r.json()["name"] == oto.name
    r = spec.post(f"/api/games/{gid}/chat", json={"text": "Watch the Kraken"})
    assert r.status_code == 201 and r.json()["line"] == "spectators"
    guest = httpx.post(server.url + f"/api/games/{gid}/chat", json={"text": "hi"})
    assert guest.status_code == 401  # a guest spectator reads only
    seen = chat(oto, gid)
    assert [m["text"] for m in seen["messages"]] == ["Good luck <3", "You too!"]  # no spectators' line
    assert seen["lines"] == ["players"] and seen["me"].startswith("seat:")
    watched = chat(spec, gid)
    assert [m["text"] for m in watched["messages"]] == ["Good luck <3", "You too!", "Watch the Kraken"]
    anonymous = httpx.get(server.url + f"/api/games/{gid}/chat").json()
    assert anonymous["me"] is None and len(anonymous["messages"]) == 3
    assert [m["step"] >= 0 for m in watched["messages"]] == [True] * 3
    assert chat(oto, gid, after=watched["messages"][0]["id"])["messages"][0]["text"] == "You too!"


def test_html_long_and_flooding_messages_are_refused_and_nothing_is_stored(table_of_two):
    gid, nia, oto = (table_of_two[k] for k in ("gid", "nia", "oto"))
    token = table_of_two["tokens"][0]
    say = lambda text: nia.post(f"/api/games/{gid}/chat", json={"token": token, "text": text})  # noqa: E731
    for text, why in (("<img src=x onerror=alert(1)>", "HTML"), ("<b>bold</b>", "HTML"),
                      ("x" * 301, "at most 300"), ("   ", "empty")):
        r = say(text)
        assert r.status_code == 422 and why in r.json()["detail"], r.text
    assert chat(oto, gid)["messages"] == []
    codes = [say(f"message {i}").status_code for i in range(7)]
    assert codes == [201] * 5 + [429] * 2
    r = say("one more")
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
    assert "too many messages from you at this table" in r.json()["detail"]
    assert [m["text"] for m in chat(oto, gid)["messages"]] == [f"message {i}" for i in range(5)]
    assert oto.post(f"/api/games/{gid}/chat", json={"text": "I may still talk"}).status_code == 201


def test_a_player_mutes_another(table_of_two):
    gid, nia, oto = (table_of_two[k] for k in ("gid", "nia", "oto"))
    nia_token, oto_token = table_of_two["tokens"]
    nia.post(f"/api/games/{gid}/chat", json={"token": nia_token, "text": "buy my Kraken"})
    author = chat(oto, gid)["messages"][0]["author"]
    r = oto.post(f"/api/games/{gid}/chat/mute", json={"token": oto_token, "author": author})
    assert r.status_code == 200 and r.json()["muted"] == [author]
    nia.post(f"/api/games/{gid}/chat", json={"token": nia_token, "text": "really, buy it"})
    assert chat(oto, gid, oto_token)["messages"] == [] and chat(oto, gid)["muted"] == [author]
    assert len(chat(nia, gid, nia_token)["messages"]) == 2  # only for Oto
    assert oto.post(f"/api/games/{gid}/chat/mute", json={"author": "seat:99; drop"}).status_code == 422
    assert oto.post(f"/api/games/{gid}/chat/mute", json={"author": chat(oto, gid)["me"]}).status_code == 422
    oto.post(f"/api/games/{gid}/chat/mute", json={"author": author, "muted": False})
    assert len(chat(oto, gid)["messages"]) == 2


def test_a_new_message_is_announced_on_the_games_websocket(table_of_two, server):
    gid, nia = table_of_two["gid"], table_of_two["nia"]
    token = table_of_two["tokens"][1]
    heard = []
    with connect(f"{server.ws_url}/ws/games/{gid}?token={token}") as ws:
        ws.recv(timeout=10)  # the state
        # The message is said from another thread while this one listens; the thread is joined
        # before the test ends, or its request could still be reading its answer when the
        # fixture closes the connection (an unhandled error blamed on the next test).
        saying = threading.Timer(0.2, lambda: nia.post(f"/api/games/{gid}/chat",
                                                       json={"token": table_of_two["tokens"][0], "text": "hello"}))
        saying.start()
        while not heard:
            msg = json.loads(ws.recv(timeout=10))
            if msg["type"] == "chat":
                heard.append(msg)
        saying.join()
    assert heard[0]["id"] > 0


def test_the_chat_of_a_finished_game_is_in_its_replay(people, server):
    quin, rex = people("Quin P"), people("Rex P")
    t = play(quin, rated=False)
    play(rex, rated=False)
    quin.post(f"/api/play/tables/{t['table_id']}/fill")
    urls = [seat_url(p, t["table_id"]) for p in (quin, rex)]
    gid = game_of(urls[0])
    quin.post(f"/api/games/{gid}/chat", json={"token": token_of(urls[0]), "text": "first words"})
    people("Sue P").post(f"/api/games/{gid}/chat", json={"text": "from the stands"})
    play_out(server.url, [(token_of(u), gid) for u in urls])
    rex.post(f"/api/games/{gid}/chat", json={"text": "well played"})
    after = chat(rex, gid)
    assert after["lines"] == ["players", "spectators"]  # the spectators' line opens at the end
    steps = {m["text"]: m["step"] for m in after["messages"]}
    assert 0 <= steps["first words"] < steps["well played"]  # where the replay shows them
    assert "from the stands" in steps


def test_the_chat_reaches_a_websocket_on_another_server_process(people, server, db_url, tmp_path):
    """Two processes on one database: a message said through one is announced on the other
    (PostgreSQL: NOTIFY; SQLite: each process looks for new messages while another is alive)."""
    tia, uma = people("Tia P"), people("Uma P")
    t = play(tia, rated=False, players=2)
    play(uma, rated=False, players=2)
    urls = [seat_url(p, t["table_id"]) for p in (tia, uma)]
    gid = game_of(urls[0])
    with ServerProcess(db_url, args=ARGS, timeout=START_SECONDS) as other:
        heard = []
        with connect(f"{other.ws_url}/ws/games/{gid}?token={token_of(urls[1])}") as ws:
            ws.recv(timeout=10)
            saying = threading.Timer(0.5, lambda: tia.post(f"/api/games/{gid}/chat",
                                                           json={"token": token_of(urls[0]), "text": "hi"}))
            saying.start()
            while not heard:
                msg = json.loads(ws.recv(timeout=15))
                if msg["type"] == "chat":
                    heard.append(msg)
            saying.join()  # (as above: its request done before the people are closed)
        with Person(other.url) as u:
            assert u.login("Uma P", PASSWORD).status_code == 200
            assert [m["text"] for m in chat(u, gid)["messages"]] == ["hi"]
