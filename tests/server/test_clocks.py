"""Turn-based play over days, against real server processes on SQLite and on PostgreSQL
(conftest.db_url): two accounts at a play-now table, the server's time moved on by days
through $CYCLADES_CLOCK_FILE (server/clocks.py), e-mails received by an SMTP server the test
runs (aiosmtpd), Web Push messages by a push endpoint the test runs (decrypted with the
subscription's own keys, as a browser would), timeouts decided by the table's bot, the seat
handed to it after three, and the game played to its end. Two server processes sweep the
same clocks (each timeout fires once) and both are restarted in the middle (no clock lost).
Contract: docs/api.md "Clocks and notifications"."""
from __future__ import annotations

import json
import random
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("aiosmtpd")
pytest.importorskip("pywebpush")
from notifications import PushEndpoint, ServerTime, SmtpSink  # noqa: E402
from people import Crowd, game_of, token_of, wait_for  # noqa: E402
from serverproc import START_SECONDS  # noqa: E402

from cyclades.server.testing import ServerProcess, free_port  # noqa: E402

DAY = 86400.0
TURN = 24 * 3600 + 3 * DAY   # a day a decision and 3 days in the bank (clocks.SPEEDS)


# --- the clocks' arithmetic ----------------------------------------------------------------------

def test_a_decision_uses_its_own_time_first_then_the_bank():
    from cyclades.server import clocks
    live = clocks.SPEEDS["live"]
    c = clocks.start(live, 3, 0, at=1000.0)
    assert clocks.deadline(c) == 1000 + 20 + 480
    c = clocks.after_decision(c, 0, 1, at=1015.0)          # within its 20 s: the bank stays
    assert c["banks"] == [480, 480, 480] and c["seat"] == 1 and c["since"] == 1015
    c = clocks.after_decision(c, 1, 1, at=1015 + 80)       # 80 s: 60 from the bank, and again
    assert c["banks"][1] == 420 and clocks.deadline(c) == 1095 + 20 + 420
    c = clocks.after_decision(c, 1, 2, at=1095 + 500, timed_out=True)
    assert c["banks"][1] == 0 and c["timeouts"] == [0, 1, 0]
    c = clocks.waiting_again(c, 2, at=5000.0)              # started again: nothing charged
    assert c["banks"][2] == 480 and clocks.deadline(c) == 5000 + 500
    assert clocks.deadline(clocks.after_decision(c, 2, None, at=5001.0)) is None   # a bot's turn, or over


def test_a_daily_digest_waits_for_its_hour_and_each_message_is_claimed_once(tmp_path):
    import sqlalchemy as sa

    from cyclades.server import notify
    from cyclades.server.people_schema import accounts, create_tables, seat_holders
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'people.db'}")
    create_tables(engine)
    with engine.begin() as c:
        for i, digest in ((1, True), (2, False)):
            choices = {"email": f"p{i}@cyclades.test", "by_email": True, "digest": digest, "by_push": False}
            c.execute(accounts.insert().values(id=i, name=f"p{i}", name_key=f"p{i}", password="x", created=0,
                                               settings=json.dumps({"notifications": choices})))
            c.execute(seat_holders.insert().values(game_id="g", seat=i - 1, account_id=i, state="playing", since=0))
    at = 100 * DAY + 10 * 3600                  # 10:00 UTC
    assert notify.enqueue(engine, "g", "turn", [0, 1], at, digest_hour=7) == 2
    first = notify.claim(engine, at, pg=False)
    assert [r["account_id"] for r in first] == [2]                      # at once
    assert notify.claim(engine, at + 1, pg=False) == []                 # claimed: once
    notify.mark_sent(engine, [r["id"] for r in first], at + 2)
    assert notify.claim(engine, 101 * DAY + 7 * 3600 - 1, pg=False) == []
    assert [r["account_id"] for r in notify.claim(engine, 101 * DAY + 7 * 3600, pg=False)] == [1]  # at 07:00


# --- the game -----------------------------------------------------------------------------------

def state(person, gid, token):
    return person.get(f"/api/games/{gid}", params={"token": token}).json()


def decide_randomly(person, gid, token, rng) -> bool:
    st = state(person, gid, token)
    if not st["legal_actions"]:
        return False
    a = rng.choice(st["legal_actions"])
    a = {k: a[k] for k in ("kind", "what", "where", "n") if k in a}
    r = person.post(f"/api/games/{gid}/actions", json={"token": token, "version": st["version"], "action": a})
    assert r.status_code in (200, 409), r.text
    return r.status_code == 200


@pytest.fixture
def world(db_url, tmp_path):
    with SmtpSink() as smtp, PushEndpoint() as push:
        clock = ServerTime(tmp_path / "clock")
        port = free_port()
        args = ["--signup-rate", "1000/minute", "--login-rate", "1000/minute", "--play-now-max-cycles", "1",
                "--table-sweep-seconds", "0.2", "--smtp-host", "127.0.0.1", "--smtp-port", str(smtp.port),
                "--smtp-security", "none", "--smtp-from", "tables@cyclades.test",
                "--public-url", f"http://127.0.0.1:{port}", "--notify-sweep-seconds", "0.2",
                "--log-level", "info"]
        env = {"CYCLADES_CLOCK_FILE": str(clock.path), "CYCLADES_CLOCK_SWEEP_SECONDS": "0.2",
               "CYCLADES_POLL_SECONDS": "0.2"}
        servers = [ServerProcess(db_url, port=p, bot_delay=0.0, args=args, env=env, timeout=START_SECONDS,
                                 log_path=str(tmp_path / f"server{i}.log"))
                   for i, p in enumerate((port, free_port()))]
        for s in servers:
            s.start()
        crowd = Crowd(servers[0].url)
        try:
            yield {"smtp": smtp, "push": push, "clock": clock, "servers": servers, "crowd": crowd}
        finally:
            crowd.close()
            for s in servers:
                s.stop()
            for s in servers:
                print(f"--- {s.log_path} ---\n{s.log_tail()}")


def test_a_turn_based_game_over_days_with_timeouts_mails_and_pushes(world):
    smtp, push, clock, servers = world["smtp"], world["push"], world["clock"], world["servers"]
    ann, bob = world["crowd"]("Ann"), world["crowd"]("Bob")
    assert ann.post("/api/language", json={"lang": "fr"}).status_code == 200  # Ann reads French: her mails too
    # Ann by e-mail; Bob by e-mail and by push, on the endpoint the test runs.
    r = ann.post("/api/account/notifications", json={"email": "ann@cyclades.test", "by_email": True})
    assert r.status_code == 200, r.text
    assert bob.post("/api/account/notifications", json={"email": "bob@cyclades.test", "by_email": True,
                                                         "by_push": True}).status_code == 200
    assert bob.post("/api/push/subscriptions", json={"endpoint": push.url, "keys": push.keys}).status_code == 201
    assert ann.post("/api/account/notifications", json={"by_email": True}).status_code == 422  # no address
    # A subscription that is not one, and a speed that does not exist, are refused.
    assert bob.post("/api/push/subscriptions", json={"endpoint": "file:///etc/passwd",
                                                      "keys": push.keys}).status_code == 422
    assert bob.post("/api/push/subscriptions", json={"endpoint": push.url, "keys": {}}).status_code == 422
    assert ann.post("/api/games", json={"players": 3, "seats": ["you", "random", "random"],
                                        "speed": "warp"}).status_code == 422

    body = {"players": 2, "ruleset": "legendary", "maelstrom": False, "speed": "turn-based", "rated": False,
            "bot": "casual"}
    t = ann.post("/api/play", json=body).json()
    bob.post("/api/play", json=body)
    urls = {p.name: wait_for(lambda p=p: p.get(f"/api/play/tables/{t['table_id']}").json()["game_url"],
                             timeout=60, what="the game") for p in (ann, bob)}
    gid = game_of(urls["Ann"])
    tokens = {name: token_of(u) for name, u in urls.items()}
    people = {"Ann": ann, "Bob": bob}
    seat_of = {name: state(people[name], gid, tok)["seat"] for name, tok in tokens.items()}
    st = state(ann, gid, tokens["Ann"])
    assert st["clock"]["speed"] == "turn-based" and st["clock"]["per"] == DAY
    assert st["clock"]["deadline"] - st["clock"]["now"] == pytest.approx(TURN, abs=5)
    rng = random.Random(3)

    def mover():
        st = state(ann, gid, tokens["Ann"])
        if st["status"] == "over":
            return None
        if st["clock"]["seat"] is None:
            return "bot"
        return next(n for n, s in seat_of.items() if s == st["clock"]["seat"])

    # Decisions until the turn passes from Ann to Bob: Bob is told, by e-mail and by push.
    while mover() != "Ann":
        decide_randomly(people[mover()], gid, tokens[mover()], rng)
    while mover() == "Ann":
        decide_randomly(ann, gid, tokens["Ann"], rng)
    mail = wait_for(lambda: smtp.to("bob@cyclades.test"), timeout=60, what="Bob's e-mail")[0]
    assert mail["Subject"] == "Cyclades: it is your turn"
    text = mail.get_content()
    assert f"{servers[0].url}/game/{gid}?token={tokens['Bob']}" in text
    assert "/notifications/unsubscribe?" in mail["List-Unsubscribe"]
    pushed = wait_for(push.messages, timeout=60, what="Bob's push message")[0]
    assert pushed["title"] == "Cyclades: it is your turn"
    assert pushed["url"].endswith(f"/game/{gid}?token={tokens['Bob']}")
    headers = push.received[0][0]
    assert headers["authorization"].startswith("vapid t=") and headers["content-encoding"] == "aes128gcm"
    # The link opens the right game, at Bob's seat.
    link = next(line for line in text.splitlines() if "/game/" in line)
    assert httpx.get(link).status_code == 200
    assert httpx.get(link.replace("/game/", "/api/games/")).json()["seat"] == seat_of["Bob"]

    # Bob does not play: a bot decides for him once his day and bank are gone, three times; then
    # his seat is the bot's. Meanwhile both processes sweep, and both restart in the middle.
    fired = 0
    while fired < 3:
        who = mover()
        if who == "Ann":
            decide_randomly(ann, gid, tokens["Ann"], rng)
            continue
        assert who == "Bob", who
        before = state(ann, gid, tokens["Ann"])
        clock.move(before["clock"]["deadline"] - before["clock"]["now"] + 60)
        if fired == 1:
            for s in servers:   # a restart with the clock due: it is kept in the database
                s.stop()
            for s in servers:
                s.start()
        fired += 1
        after = wait_for(lambda n=fired: (lambda x: x if x["clock"]["timeouts"][seat_of["Bob"]] >= n else None)(
            state(ann, gid, tokens["Ann"])), timeout=60, what=f"timeout {fired}")
        assert after["clock"]["timeouts"][seat_of["Bob"]] == fired  # once, not once per process
        assert after["version"] > before["version"]
    final_seat = state(ann, gid, tokens["Ann"])["seats"][seat_of["Bob"]]
    assert final_seat["kind"] == "casual", final_seat
    log = ann.get(f"/api/games/{gid}/log").json()["log"]
    assert sum("ran out of time: a bot made this decision" in line for line in log) <= 3
    assert bob.post(f"/api/games/{gid}/actions", json={"token": tokens["Bob"], "version": 0,
                                                        "action": {"kind": "pass"}}).status_code == 403

    # Ann plays on against the bot to the end; both are told the game ended.
    deadline = time.monotonic() + 120
    while mover() is not None:
        assert time.monotonic() < deadline, "the game did not end"
        if mover() == "Ann":
            decide_randomly(ann, gid, tokens["Ann"], rng)
        else:
            time.sleep(0.05)
    ended = "Cyclades : une partie que vous avez jouée est finie"
    wait_for(lambda: any(m["Subject"] == ended for m in smtp.to("ann@cyclades.test")),
             timeout=60, what="Ann's e-mail of the end, in French")
    wait_for(lambda: any(m["title"] == "Cyclades: a game you played has ended" for m in push.messages()),
             timeout=60, what="Bob's push of the end")
    # Every message once, whichever process sent it.
    subjects = [(m["To"], m["Subject"]) for m in smtp.messages]
    assert subjects.count(("ann@cyclades.test", ended)) == 1
    assert "Pour ne plus en recevoir" in smtp.to("ann@cyclades.test")[-1].get_content()

    # The unsubscribe link of a mail stops the e-mails.
    mail = smtp.to("ann@cyclades.test")[-1]
    off = mail["List-Unsubscribe"].strip("<>")
    page = httpx.get(off, headers={"accept-language": "fr"})
    assert page.status_code == 200 and "Vous ne recevrez plus" in page.text, page.text
    assert ann.get("/api/account/notifications").json()["by_email"] is False
    assert httpx.get(off.replace("k=", "k=x")).status_code == 400


@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)  # the outbox's storage runs on both above
def test_a_guest_by_link_gives_an_address_and_is_told_of_their_turn(world):
    """A guest gives an address for their seat and is told of their turn in the language they
    gave it in (French here); the host, an account whose language is French, gets French mails."""
    smtp, srv = world["smtp"], world["servers"][0]
    http = httpx.Client(base_url=srv.url, timeout=30, headers={"accept-language": "fr-FR,fr;q=0.9"})
    zoe = world["crowd"]("Zoé")
    assert zoe.post("/api/language", json={"lang": "fr"}).status_code == 200
    r = zoe.post("/api/account/notifications", json={"email": "zoe@cyclades.test", "by_email": True})
    assert r.status_code == 200, r.text
    r = zoe.post("/api/games", json={"players": 2, "seats": ["you", "invite"], "speed": "turn-based"})
    assert r.status_code == 201, r.text
    g = r.json()
    gid = g["game_id"]
    tokens = [s["token"] for s in g["seats"]]
    guest = tokens[1]
    assert http.post(f"/api/games/{gid}/notify", json={"token": "nope", "email": "x@y.z"}).status_code == 403
    r = http.post(f"/api/games/{gid}/notify", json={"token": guest, "email": "not an address"})
    assert r.status_code == 422 and r.json()["detail"].startswith("ce n'est pas une adresse e-mail"), r.text
    r = http.post(f"/api/games/{gid}/notify", json={"token": guest, "email": "guest@cyclades.test"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert http.get(f"/api/games/{gid}/notify", params={"token": guest}).json()["email"] == "guest@cyclades.test"
    rng = random.Random(2)
    deadline = time.monotonic() + 60
    while not (smtp.to("guest@cyclades.test") and smtp.to("zoe@cyclades.test")):
        assert time.monotonic() < deadline, "the guest or the host was not told"
        for t in tokens:
            st = http.get(f"/api/games/{gid}", params={"token": t}).json()
            other_told = smtp.to("zoe@cyclades.test" if t == guest else "guest@cyclades.test")
            if st["legal_actions"] and not other_told:  # each plays until the other is told
                a = rng.choice(st["legal_actions"])
                a = {k: a[k] for k in ("kind", "what", "where", "n") if k in a}
                http.post(f"/api/games/{gid}/actions", json={"token": t, "version": st["version"], "action": a})
        time.sleep(0.05)
    for address, token in (("guest@cyclades.test", guest), ("zoe@cyclades.test", tokens[0])):
        mail = smtp.to(address)[0]
        assert mail["Subject"] == "Cyclades : c'est votre tour", mail["Subject"]
        text = mail.get_content()
        assert "C'est votre tour dans une partie de Cyclades." in text and f"/game/{gid}?token={token}" in text
        assert "Pour ne plus en recevoir, ouvrez ce lien : " in text
    off = smtp.to("guest@cyclades.test")[0]["List-Unsubscribe"].strip("<>")
    assert "lang=fr" in off
    page = httpx.get(off)
    assert page.status_code == 200 and "Vous ne recevrez plus d'e-mails à propos de cette partie." in page.text
    assert http.get(f"/api/games/{gid}/notify", params={"token": guest}).json()["email"] is None
    bad = httpx.get(off.replace("k=", "k=x"))
    assert bad.status_code == 400 and "Ce lien n'est pas correct" in bad.text
    http.close()
