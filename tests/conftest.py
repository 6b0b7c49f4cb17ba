"""Shared helpers for rule tests: scenarios on the small test map; the server tests'
database (`db_url`: SQLite and PostgreSQL). The browser tests' server and Chromium are in
tests/serverproc.py.

Skips (tests/skip_policy.py, tests/README.md): skip only for what can be missing on a
person's machine (Chromium, PostgreSQL, an optional extra), saying what is missing; in CI
every skip fails unless it is on tests/expected_skips.txt. Import the project's own
dependencies (fastapi, uvicorn, SQLAlchemy, httpx and the rest of the test extra) plainly.
A test that needs a situation builds it (a scenario) instead of skipping when a sample game
does not reach it."""
import contextlib
import os
from pathlib import Path

import pytest
import yaml

import cyclades

pytest_plugins = ["skip_policy"]

HERE = Path(__file__).parent
SMALL_MAP = yaml.safe_load((HERE / "scenarios" / "small_map.yaml").read_text())


def scenario(**data) -> cyclades.Game:
    """A game from a scenario dict; the board defaults to the small test map."""
    data.setdefault("board", SMALL_MAP)
    return cyclades.Game.from_scenario(data)


def act(game, kind, what="", where="", n=0):
    """Apply the action (kind, what, where, n); it must be legal."""
    return game.apply(cyclades.Action(kind, what, where, n))


def kinds(game):
    return {a.kind for a in game.legal_actions()}


def idx(g, area):
    """The index of an area by its id."""
    return g.board.index[area]


def ctrl(g, area):
    """Who controls an area (-1: no one)."""
    return g.state.ctrl[idx(g, area)]


def legal(g, kind):
    """The legal actions of one kind."""
    return [a for a in g.legal_actions() if a.kind == kind]


def where(g, kind):
    """The areas named by the legal actions of one kind."""
    return {a.where for a in g.legal_actions() if a.kind == kind}


def wheres(g, kind):
    return sorted(a.where for a in legal(g, kind))


def sites(g, area):
    """What stands on an area's construction sites, in order ("" for an empty site)."""
    return [g.state.sites[i] for i in g.board.sites_of(idx(g, area))]


def take_and_go(g, to, t=0, m=0, heroes=()):
    """Answer a move's unit stages (t troops, m mercenaries, these heroes) as the engine asks
    them (engine/unit_choice.py), then choose the destination; returns the events."""
    ev = []
    st = g.state.stack[-1]
    if st["stage"] == "troops":
        ev += act(g, "take", "troop", n=t or 0)
    if st["stage"] == "mercs":
        ev += act(g, "take", "merc", n=m or 0)
    if st["stage"] == "heroes":
        for h in heroes:
            ev += act(g, "take_hero", h)
        if st["stage"] == "heroes":
            ev += act(g, "done")
    return ev + act(g, "destination", where=to)


def buy(g, card):
    """Buy a creature of the track at the price the engine offers."""
    a = next(a for a in g.legal_actions() if a.kind == "buy_creature" and a.what == card)
    return g.apply(a)


def wasted(events, card):
    """The card was discarded without effect."""
    return any(e["type"] == "creature_wasted" and e["card"] == card for e in events)


def back_to_turn(g):
    """The effect is over: the god's turn menu is offered again."""
    return g.state.stack[-1]["kind"] == "turn" and "end_turn" in kinds(g)


@pytest.fixture
def small_map():
    return SMALL_MAP


# --- the server tests' database: SQLite and PostgreSQL ------------------------------------------

@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db_url(request, tmp_path_factory):
    """A fresh database for one test module: a SQLite file, or a new PostgreSQL database
    (CREATE DATABASE cyclades_t_<random> on the server of CYCLADES_TEST_PG, dropped after;
    skipped without CYCLADES_TEST_PG: `export CYCLADES_TEST_PG="$(tools/test-postgres.sh)"`,
    which `tools/test` does as root)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'games.db'}"
        return
    base = os.environ.get("CYCLADES_TEST_PG")
    if not base:
        pytest.skip("PostgreSQL: CYCLADES_TEST_PG is not set (tools/test sets it as root; or "
                    "export CYCLADES_TEST_PG=\"$(tools/test-postgres.sh)\")")
    with pg_database(base) as url:
        yield url


@contextlib.contextmanager
def pg_database(base: str):
    """A new, empty PostgreSQL database on the server of `base` (a SQLAlchemy URL), dropped
    afterwards with whatever still connects to it."""
    import secrets

    import sqlalchemy as sa
    pytest.importorskip("psycopg")
    name = f"cyclades_t_{secrets.token_hex(5)}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as c:
            c.exec_driver_sql(f"CREATE DATABASE {name}")
    except sa.exc.OperationalError as e:
        admin.dispose()
        pytest.skip(f"PostgreSQL at CYCLADES_TEST_PG is not reachable: {e.orig}")
    try:
        yield sa.engine.make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as c:
            c.exec_driver_sql(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.dispose()


# --- the browser tests' Chromium and server: tests/serverproc.py ----------------------------

from serverproc import CHROMIUM, chromium_missing  # noqa: E402,F401 - once, there


@pytest.fixture
def shots(tmp_path):
    """shot(page, name): a screenshot named with the page's size, in the test's folder and in
    $CYCLADES_SHOTS when it is set."""
    folders = [tmp_path] + ([Path(os.environ["CYCLADES_SHOTS"])] if os.environ.get("CYCLADES_SHOTS") else [])
    for f in folders:
        f.mkdir(parents=True, exist_ok=True)

    def shot(page, name):
        size = page.viewport_size
        for f in folders:
            page.screenshot(path=str(f / f"{name}-{size['width']}x{size['height']}.png"))
    return shot
