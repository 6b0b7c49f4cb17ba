"""The fixtures every layer's tests share: the small test map, the server tests' database
(`db_url`: SQLite and PostgreSQL), the screenshots' folder. Helper modules beside it:
positions.py (scenarios and actions for rule tests), serverproc.py (the browser tests' server
and Chromium), randomgames.py, people.py, notifications.py, repository.py (paths).

The tests sit by layer: engine/ (with the content), agents/, env/, server/, web/ (the
browser), cli/, and project/ (the repository as a whole: architecture, typing, docs, the
catalogs, the compiled build).

Skips (tests/skip_policy.py, tests/README.md): skip only for what can be missing on a
person's machine (Chromium, PostgreSQL, an optional extra), saying what is missing; in CI
every skip fails unless it is on tests/expected_skips.txt. Import the project's own
dependencies (fastapi, uvicorn, SQLAlchemy, httpx and the rest of the test extra) plainly.
A test that needs a situation builds it (a scenario) instead of skipping when a sample game
does not reach it."""
import os
from pathlib import Path

import pytest
from databases import pg_database
from positions import SMALL_MAP

pytest_plugins = ["skip_policy"]

# The browser's and the server's files first: the run is spread over workers a file at a time
# (pytest-xdist), and it then ends on the short files of the engine rather than on one worker
# finishing a browser file alone.
LONG_FIRST = ("web", "server")


def pytest_collection_modifyitems(config, items):
    rank = {layer: i for i, layer in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.parent.name, len(LONG_FIRST)))


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
