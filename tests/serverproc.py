"""The browser tests' server and Chromium, in one place (tests/test_browser*.py).

    from serverproc import browser_server, launch

    @pytest.fixture(scope="module")
    def server(tmp_path_factory):
        with browser_server(tmp_path_factory.mktemp("lobby")) as srv:
            yield srv                   # a ServerProcess: srv.url, srv.ws_url, srv.stop(), srv.start()

    browser = launch(playwright)        # Debian's headless Chromium, never Playwright's downloads

`browser_server` skips the test, saying which is missing, without Chromium or Playwright for
Python. The server (`python -m cyclades.server`, cyclades/server/testing.py) runs on a free port
with no bot delay, on `games.db` in the given directory (a test may store games there first),
its output in `server.log` there, whose tail is printed when it stops: pytest shows it for a
test that failed. `served` is the same server without the skip and the print, for the scripts.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
import urllib.request
from pathlib import Path

from cyclades.server.testing import ServerProcess

CHROMIUM = os.environ.get("CYCLADES_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
START_SECONDS = 30  # a loaded machine (the tests run beside other work) starts a server slowly


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not Path(CHROMIUM).exists():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install playwright)"
    return None


# The game page plays others' moves before it draws each new position (animate.js): a test
# that clicks through a game would wait for every move to be played. Its pages start with
# the setting at "off", unless it launched the browser with `animations=True`.
NO_ANIMATIONS = "try { localStorage.setItem('cyclades.animationSpeed', 'off'); } catch (e) {}"


def launch(playwright, animations: bool = False):
    """A headless Chromium: Debian's, with Playwright (its own browser downloads are never used).
    Its pages show others' moves at once, unless `animations`."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    if not animations:
        new_context = browser.new_context

        def quiet_context(*args, **kwargs):
            ctx = new_context(*args, **kwargs)
            ctx.add_init_script(NO_ANIMATIONS)
            return ctx

        def quiet_page(*args, **kwargs):
            # as Browser.new_page: a page in a context of its own, closed with it
            ctx = quiet_context(*args, **kwargs)
            page = ctx.new_page()
            page.on("close", lambda _: ctx.close())
            return page

        browser.new_context = quiet_context
        browser.new_page = quiet_page
    return browser


@contextlib.contextmanager
def chromium(animations: bool = False):
    """A browser for a test module (`launch`'s), closed with Playwright at the end."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = launch(playwright, animations)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def served(directory, db: str = "games.db"):
    """A server on the SQLite file `directory/db`, its output in `directory/server.log`."""
    directory = Path(directory)
    srv = ServerProcess(f"sqlite:///{directory / db}", bot_delay=0.0,
                        log_path=str(directory / "server.log"), timeout=START_SECONDS)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@contextlib.contextmanager
def browser_server(directory, db: str = "games.db"):
    """`served`, for a browser test: skipped, saying why, where Chromium or Playwright is
    missing; the server log's tail is printed once it stopped (shown for a failed test)."""
    import pytest
    missing = chromium_missing()
    if missing:
        pytest.skip(missing)
    with served(directory, db) as srv:
        try:
            yield srv
        finally:
            srv.stop()
            print("--- server log (tail) ---")
            print(srv.log_tail())


def wait_over(client, gid, timeout=60):
    """The game `gid` once it is over (an all-bot game), asked of the server every 0.1 s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        g = client.get(f"/api/games/{gid}").json()
        if g["status"] == "over":
            return g
        time.sleep(0.1)
    raise AssertionError(f"game {gid} did not end in {timeout} s")


def wait_turn(client, gid, token, deadline):
    """The game as the seat of `token` sees it once that seat has a move to make or the game is
    over (the bots play meanwhile); an AssertionError after `deadline` (time.monotonic())."""
    while True:
        st = client.get(f"/api/games/{gid}", params={"token": token}).json()
        if st["legal_actions"] or st["status"] == "over":
            return st
        assert time.monotonic() < deadline, f"game {gid}: the bots did not hand the move back"
        time.sleep(0.01)


def api_get(srv, path):
    """GET a JSON answer of the server (`srv.url` + path)."""
    with urllib.request.urlopen(srv.url + path, timeout=15) as r:
        return json.loads(r.read())


def api_post(srv, path, body):
    """POST a JSON body to the server; its JSON answer."""
    req = urllib.request.Request(srv.url + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req, timeout=15) as r:
        return json.loads(r.read())
