"""Accounts and logins against a real server (a subprocess), on SQLite and on PostgreSQL
(conftest.db_url): signing up, logging in and out, passwords, deleting an account, a guest
keeping their seat; and hostile requests, each refused with a clear 4xx and nothing changed:
requests from another site (CSRF), stolen, ended and expired logins, brute-forced logins, HTML
in names, a database made before accounts existed. Contract: docs/api.md "Accounts"."""
from __future__ import annotations

import contextlib
import os
import time

import pytest

httpx = pytest.importorskip("httpx")
pytest.importorskip("argon2")
import sqlalchemy as sa  # noqa: E402
from databases import pg_database  # noqa: E402
from people import PASSWORD, Crowd, Person, token_of  # noqa: E402
from serverproc import START_SECONDS  # noqa: E402 - a loaded machine starts a server slowly

from cyclades.server.testing import ServerProcess  # noqa: E402

EVIL = "http://evil.example"
# All the tests come from 127.0.0.1: the limits per address are opened up here (they have a
# test of their own, `test_login_attempts_are_limited_per_address`); those per name are not.
OPEN = ["--signup-rate", "1000/minute", "--login-rate", "1000/minute"]


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    log = tmp_path_factory.mktemp("accounts") / "server.log"
    with ServerProcess(db_url, bot_delay=0.0, args=OPEN, log_path=str(log), timeout=START_SECONDS) as srv:
        yield srv


@pytest.fixture
def person(server):
    crowd = Crowd(server.url)
    yield crowd
    crowd.close()


def accounts_named(db_url, name):
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as c:
            return c.execute(sa.text("SELECT count(*) FROM accounts WHERE name = :n"), {"n": name}).scalar()
    finally:
        engine.dispose()


def games_count(server):
    return len(httpx.get(server.url + "/api/games", params={"limit": 10000}).json()["games"])


# --- who you are -------------------------------------------------------------------------------

def test_sign_up_log_out_and_log_in_again(person, server):
    ann = person()
    assert ann.me() == {"account": None}
    out = ann.signup("Ann Ode")
    assert out["account"]["name"] == "Ann Ode"
    cookies = {c.name: c for c in ann.http.cookies.jar}
    session = cookies["cyclades_session"]
    assert session.has_nonstandard_attr("HttpOnly") and "samesite" in {k.lower() for k in session._rest}
    assert not cookies["cyclades_csrf"].has_nonstandard_attr("HttpOnly")  # the pages read it
    me = ann.me()
    assert me["account"]["name"] == "Ann Ode" and me["waiting_on_me"] == 0
    assert ann.post("/api/account/logout").json() == {"logged_out": True}
    assert ann.me() == {"account": None}
    r = ann.login("ann ode")  # names are found whatever their case
    assert r.status_code == 200 and ann.me()["account"]["name"] == "Ann Ode"
    # The same name with other case or spacing is taken.
    r = person().post("/api/account/signup", json={"name": "ANN  ODE", "password": PASSWORD})
    assert r.status_code == 409 and "taken" in r.json()["detail"]


def test_login_cookies_are_secure_over_https(person, tmp_path):
    """Behind a proxy that says the browser came over HTTPS (X-Forwarded-Proto, trusted from
    127.0.0.1 by default), or always with --secure-cookies always."""
    r = person().post("/api/account/signup", json={"name": "Sec Ure", "password": PASSWORD},
                      headers={"X-Forwarded-Proto": "https"})
    assert r.status_code == 201
    assert all("Secure" in c for c in r.headers.get_list("set-cookie"))
    r = person().post("/api/account/signup", json={"name": "Plain Http", "password": PASSWORD})
    assert not any("Secure" in c for c in r.headers.get_list("set-cookie"))
    with ServerProcess(f"sqlite:///{tmp_path / 's.db'}", args=["--secure-cookies", "always"],
                       timeout=START_SECONDS) as srv:
        with Person(srv.url) as p:
            r = p.post("/api/account/signup", json={"name": "Always", "password": PASSWORD})
        cookies = r.headers.get_list("set-cookie")
        assert len(cookies) == 2 and all("Secure" in c and "Path=/" in c for c in cookies)
        assert "HttpOnly" in next(c for c in cookies if c.startswith("cyclades_session="))


@pytest.mark.parametrize("name, why", [
    ("<script>alert(1)</script>", "letters, digits"), ("<b>Bo</b>", "letters, digits"),
    ("Al", "3 to 24"), ("x" * 25, "3 to 24"), ("former player", "kept"), ("Player 2", "kept"),
    ("Expert bot", "kept"), ("_under", "letters, digits"), ("a&b c", "letters, digits"),
])
def test_names_with_markup_or_taken_forms_are_refused(person, db_url, name, why):
    r = person().post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert r.status_code == 422 and why in r.json()["detail"], r.text
    assert "set-cookie" not in r.headers
    assert accounts_named(db_url, name) == 0


def test_passwords_are_checked_and_changed(person):
    bea = person("Bea")
    r = person().post("/api/account/signup", json={"name": "Bea Two", "password": "short"})
    assert r.status_code == 422 and "8 to 256" in r.json()["detail"]
    r = person().post("/api/account/signup", json={"name": "Bea Three", "password": "bea three"})
    assert r.status_code == 422 and "not be the name" in r.json()["detail"]
    other = person()
    assert other.login("Bea").status_code == 200        # a second login, elsewhere
    r = bea.post("/api/account/password", json={"old": "wrong one!", "new": "a new secret"})
    assert r.status_code == 401 and "wrong" in r.json()["detail"]
    r = bea.post("/api/account/password", json={"old": PASSWORD, "new": "a new secret"})
    assert r.status_code == 200 and r.json()["other_logins_ended"] == 1
    assert bea.me()["account"]["name"] == "Bea"         # this login goes on
    r = other.get("/api/account")                       # the other one ended
    assert r.status_code == 401 and "no longer valid" in r.json()["detail"]
    assert person().login("Bea").status_code == 401
    assert person().login("Bea", "a new secret").status_code == 200


def test_a_failed_login_answers_the_same_for_an_unknown_name_and_a_wrong_password(person):
    person("Cid")
    wrong = person().login("Cid", "not the password")
    unknown = person().login("Nobody Here", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json() == {"detail": "wrong name or password"}
    assert "set-cookie" not in wrong.headers and "set-cookie" not in unknown.headers


def test_brute_forced_logins_are_refused_for_a_name_whether_it_exists_or_not(person):
    person("Dora")
    answers = {}
    for name in ("Dora", "No Such Dora"):
        p = person()
        answers[name] = [(r.status_code, r.json()["detail"].split(";")[0])
                         for r in (p.login(name, f"guess {i}") for i in range(7))]
    assert answers["Dora"] == answers["No Such Dora"]
    assert [s for s, _ in answers["Dora"]] == [401] * 5 + [429] * 2
    # Locked: even the right password is refused for now, with when to come back.
    r = person().login("Dora")
    assert r.status_code == 429 and int(r.headers["retry-after"]) > 0
    assert "too many failed logins for this name" in r.json()["detail"]
    assert "set-cookie" not in r.headers


def test_logins_and_sign_ups_are_limited_per_address(tmp_path):
    with ServerProcess(f"sqlite:///{tmp_path / 'a.db'}", timeout=START_SECONDS,
                       args=["--login-rate", "3/minute", "--signup-rate", "2/minute"]) as srv, \
            Crowd(srv.url) as crowd:
        p = crowd()
        codes = [p.login(f"someone {i}", "whatever pass").status_code for i in range(5)]
        assert codes == [401, 401, 401, 429, 429]
        r = p.login("someone 9", "whatever pass")
        assert "from your address" in r.json()["detail"] and int(r.headers["retry-after"]) > 0
        made = [crowd().post("/api/account/signup", json={"name": f"Signer {i}", "password": PASSWORD})
                for i in range(3)]
        assert [r.status_code for r in made] == [201, 201, 429]
        assert "accounts created from your address" in made[2].json()["detail"]
        assert crowd().login("Signer 2").status_code in (401, 429)  # not made


# --- hostile requests ------------------------------------------------------------------------------

def test_requests_from_another_site_are_refused_and_change_nothing(person, server):
    eve_target = person("Edda")
    before = games_count(server)
    # A logged-in request that changes something, without the CSRF header (a form on
    # another site could send that): 403.
    r = eve_target.http.post("/api/games", json={"players": 3})
    assert r.status_code == 403 and "X-CSRF-Token" in r.json()["detail"]
    r = eve_target.http.post("/api/account/password", json={"old": PASSWORD, "new": "stolen pass"},
                             headers={"X-CSRF-Token": "a guess"})
    assert r.status_code == 403 and "not this login's" in r.json()["detail"]
    # From a page of another site, even with the right token: 403.
    for headers in ({"Origin": EVIL}, {"Sec-Fetch-Site": "cross-site"}):
        r = eve_target.post("/api/account/password", json={"old": PASSWORD, "new": "stolen pass"},
                            headers=headers)
        assert r.status_code == 403 and "another site" in r.json()["detail"]
        r = eve_target.delete("/api/account", json={"password": PASSWORD}, headers=headers)
        assert r.status_code == 403
    # Logging someone in from another site (login CSRF): 403, no cookie.
    r = person().post("/api/account/login", json={"name": "Edda", "password": PASSWORD},
                      headers={"Origin": EVIL})
    assert r.status_code == 403 and "set-cookie" not in r.headers
    r = person().post("/api/account/signup", json={"name": "Eve Evil", "password": PASSWORD},
                      headers={"Origin": EVIL})
    assert r.status_code == 403
    # Nothing changed: no game, the same password, the account there, no Eve.
    assert games_count(server) == before
    assert person().login("Edda").status_code == 200
    assert person().login("Eve Evil").status_code == 401
    # The site's own pages (same origin, with the header) do change things.
    r = eve_target.post("/api/games", json={"players": 3}, headers={"Origin": server.url})
    assert r.status_code == 201


def test_a_stolen_login_stops_working_when_its_owner_logs_out(person, server):
    fay = person("Fay")
    thief = person()
    for c in fay.http.cookies.jar:
        thief.http.cookies.set(c.name, c.value)
    assert thief.me()["account"]["name"] == "Fay"  # a copied cookie is the login, while it lasts
    assert fay.post("/api/account/logout").status_code == 200
    r = thief.get("/api/account")
    assert r.status_code == 401 and "no longer valid" in r.json()["detail"]
    assert "cyclades_session=; Max-Age=0" in r.headers.get("set-cookie", "")  # cleared
    r = thief.post("/api/play", json={"players": 3})
    assert r.status_code == 401
    r = thief.delete("/api/account", json={"password": PASSWORD})
    assert r.status_code == 401
    assert person().login("Fay").status_code == 200  # the account is untouched
    # A made-up login is no login either.
    forger = person()
    forger.http.cookies.set("cyclades_session", "x" * 43)
    assert forger.get("/api/account").status_code == 401
    assert forger.get("/api/account/games").status_code == 401


def test_an_expired_login_is_refused(person, db_url):
    gus = person("Gus")
    engine = sa.create_engine(db_url)
    try:
        with engine.begin() as c:
            c.execute(sa.text("UPDATE logins SET expires = :t WHERE account_id = "
                              "(SELECT id FROM accounts WHERE name = 'Gus')"), {"t": time.time() - 1})
    finally:
        engine.dispose()
    r = gus.post("/api/play", json={"players": 3})
    assert r.status_code == 401 and "expired" in r.json()["detail"]
    assert "cyclades_session=; Max-Age=0" in r.headers.get("set-cookie", "")
    assert gus.me() == {"account": None}  # the cookie is gone, and the login with it
    assert gus.get("/api/account/games").status_code == 401
    assert gus.login("Gus").status_code == 200


def test_logging_out_everywhere_ends_every_login(person):
    hal = person("Hal")
    phone = person()
    assert phone.login("Hal").status_code == 200
    assert hal.post("/api/account/logout-everywhere").json()["logged_out"] == 2
    assert phone.get("/api/account").status_code == 401
    assert hal.me() == {"account": None}


# --- guests and deleted accounts --------------------------------------------------------------------

def test_a_guest_keeps_their_seat_by_creating_an_account(person, server):
    made = httpx.post(server.url + "/api/games",
                      json={"players": 3, "seats": ["you", "invite", "random"], "names": ["Ivo", "Jan"]}).json()
    ivo_url, jan_url = made["seats"][0]["url"], made["seats"][1]["url"]
    gid = made["game_id"]
    ivo = person()
    keep = {"game_id": gid, "token": token_of(ivo_url)}
    out = ivo.signup("Ivo Keeps", keep=keep)
    assert out["kept"] == {"game_id": gid, "seat": 0, "url": ivo_url}
    mine = ivo.get("/api/account/games").json()
    listed = mine["waiting_on_me"] + mine["running"] + mine["open"]
    assert [(g["game_id"], g["seat"], g["url"]) for g in listed] == [(gid, 0, ivo_url)]
    seats = httpx.get(server.url + f"/api/games/{gid}").json()["seats"]
    assert seats[0]["name"] == "Ivo Keeps"
    # The seat is his now: nobody else keeps it, not even with its link; a wrong token is no seat.
    r = person().post("/api/account/signup", json={"name": "Ivo Thief", "password": PASSWORD, "keep": keep})
    assert r.status_code == 409 and person().login("Ivo Thief").status_code == 401  # nothing made
    jan = person("Jan Later")
    r = jan.post("/api/account/seats", json={"game_id": gid, "token": "not a token"})
    assert r.status_code == 403
    assert jan.post("/api/account/seats", json={"game_id": "nope", "token": "x"}).status_code == 404
    # Jan keeps his own seat once logged in; a second seat of the same game is refused.
    r = jan.post("/api/account/seats", json={"game_id": gid, "token": token_of(jan_url)})
    assert r.status_code == 200 and r.json()["seat"] == 1
    r = jan.post("/api/account/seats", json={"game_id": gid, "token": token_of(ivo_url)})
    assert r.status_code == 409


def test_deleting_an_account_keeps_its_games_under_former_player(person, server):
    kim = person("Kim Gone")
    made = kim.post("/api/games", json={"players": 3, "seats": ["you", "random", "random"]}).json()
    gid = made["game_id"]
    assert made["seats"][0]["name"] == "Kim Gone"  # the creator's seat takes the account's name
    assert kim.delete("/api/account", json={"password": "wrong password"}).status_code == 401
    assert kim.me()["account"]["name"] == "Kim Gone"  # nothing changed
    r = kim.delete("/api/account", json={"password": PASSWORD})
    assert r.status_code == 200 and r.json() == {"deleted": True}
    assert kim.me() == {"account": None}
    game = httpx.get(server.url + f"/api/games/{gid}")
    assert game.status_code == 200 and game.json()["seats"][0]["name"] == "former player"
    assert httpx.get(server.url + "/api/players/Kim Gone").status_code == 404
    assert person().login("Kim Gone").status_code == 401
    # The name is free again, for someone else.
    person("Kim Gone")


# --- a database from before accounts ------------------------------------------------------------------

def test_an_existing_database_gains_the_accounts_tables_and_columns(tmp_path, db_url):
    """A database made by an earlier version (the games' tables; an accounts table without a
    later column) is brought up to date when the server starts, keeping what it holds."""
    with contextlib.ExitStack() as stack:
        if db_url.startswith("sqlite"):
            url = f"sqlite:///{tmp_path / 'old.db'}"
        else:
            url = stack.enter_context(pg_database(os.environ["CYCLADES_TEST_PG"]))
        _old_database(url)
        with ServerProcess(url, args=OPEN, timeout=START_SECONDS) as srv, Crowd(srv.url) as crowd:
            old = crowd()
            assert old.login("Old Timer").status_code == 200  # older hash parameters still check
            assert old.me()["account"]["name"] == "Old Timer"
            crowd("New Comer")
        engine = sa.create_engine(url)
        try:
            assert "settings" in {c["name"] for c in sa.inspect(engine).get_columns("accounts")}
            with engine.connect() as c:
                assert c.execute(sa.text("SELECT settings FROM accounts WHERE name = 'Old Timer'")).scalar() == "{}"
                assert c.execute(sa.text("SELECT count(*) FROM accounts")).scalar() == 2
        finally:
            engine.dispose()


def _old_database(url):
    """The games' tables, and an accounts table as an earlier version made it (no `settings`)."""
    from argon2 import PasswordHasher

    from cyclades.server.store import Store
    Store(url).close()
    old = sa.Table("accounts", sa.MetaData(),
                   sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
                   sa.Column("name", sa.String(64)), sa.Column("name_key", sa.String(64), unique=True),
                   sa.Column("password", sa.String(255)), sa.Column("created", sa.Float, nullable=False),
                   sa.Column("deleted", sa.Float))
    engine = sa.create_engine(url)
    try:
        old.create(engine)
        with engine.begin() as c:
            c.execute(old.insert().values(name="Old Timer", name_key="old timer", created=0,
                                          password=PasswordHasher(time_cost=3, memory_cost=65536).hash(PASSWORD)))
    finally:
        engine.dispose()
