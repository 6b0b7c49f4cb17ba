"""Accessibility: axe-core, the accessibility engine (vendored in tests/vendor/axe-core), run in
a real headless Chromium on every page of the game: the lobby, a game of each edition and mode
(Legendary 3 players, teams, the 2-player game, classic), a god's offering popup open, the
tutorial, the replay viewer, the end screen, the rules and the pages for a wrong address. No
serious or critical violation is allowed; everything one can click has a name a screen reader
reads (axe's button-name, link-name, aria-command-name... rules, and a check of our own on the
board's areas).

Needs Debian's chromium and Playwright for Python (skipped, saying which is missing, otherwise).
"""
from __future__ import annotations

import pytest

httpx = pytest.importorskip("httpx")
from repository import TESTS  # noqa: E402
from serverproc import browser_server, chromium, wait_over  # noqa: E402

AXE = TESTS / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")

# axe runs through the DevTools protocol (page.evaluate), so the pages' CSP (no inline script)
# stays as it is.
RUN_AXE = """async () => {
  const r = await axe.run(document, { resultTypes: ["violations"] });
  return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ") + " :: " + (n.failureSummary || "").split("\\n")[1]) }));
}"""

# Everything clickable on the board has a name.
UNNAMED = """() => [...document.querySelectorAll('#board [tabindex], button, a[href], [role=button], li[tabindex]')]
  .filter((el) => el.getClientRects().length
    && !(el.getAttribute('aria-label') || el.textContent.trim() || el.getAttribute('title')))
  .map((el) => el.outerHTML.slice(0, 80))"""


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with browser_server(tmp_path_factory.mktemp("a11y")) as srv:  # tests/serverproc.py
        yield srv


@pytest.fixture(scope="module")
def api(server):
    with httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


@pytest.fixture(scope="module")
def browser(server):
    with chromium() as b:
        yield b


def audit(page, what: str) -> None:
    page.evaluate(AXE.read_text())
    found = page.evaluate(RUN_AXE)
    bad = [v for v in found if v["impact"] in BLOCKING]
    assert not bad, f"{what}: " + "\n".join(f"{v['impact']} {v['id']}: {v['help']} {v['nodes']}" for v in bad)
    unnamed = page.evaluate(UNNAMED)
    assert not unnamed, f"{what}: clickable without a name: {unnamed}"


def my_move(api, body) -> str:
    """A new game with seat 0 a person and bots at the others; its page's address once the
    person is to move."""
    r = api.post("/api/games", json={"bot_delay": 0, "seed": 5, **body})
    assert r.status_code == 201, r.text
    url = r.json()["seats"][0]["url"]
    gid = r.json()["game_id"]
    token = url.split("token=")[1]
    for _ in range(300):
        if api.get(f"/api/games/{gid}", params={"token": token}).json()["legal_actions"]:
            return url
        import time
        time.sleep(0.1)
    raise AssertionError(f"seat 0 never got a move in {gid}")


GAMES = {
    "legendary-3": {"players": 3, "seats": ["you", "random", "random"]},
    "teams-4": {"players": 4, "teams": True, "seats": ["you", "random", "random", "random"]},
    "two-players": {"players": 2, "seats": ["you", "random"]},
    "classic-4": {"players": 4, "ruleset": "classic", "seats": ["you", "random", "random", "random"]},
}


def open_page(browser, url, size=(1280, 720)):
    phone = size[0] < 600
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]}, has_touch=phone, is_mobile=phone)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(url)
    return ctx, page, errors


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["laptop", "phone"])
def test_lobby_rules_and_wrong_addresses(server, browser, size):
    for path, ready in (("/", "#create"), ("/rules", ".rule-card"), ("/rules?ruleset=classic", ".rule-card"),
                        ("/game/no-such-game", "#wrong-link"), ("/replay/no-such-game", "body"),
                        ("/replay", "body")):
        ctx, page, errors = open_page(browser, server.url + path, size)
        try:
            page.wait_for_selector(ready)
            page.wait_for_timeout(200)
            audit(page, f"{path} at {size}")
            assert not errors, errors
        finally:
            ctx.close()


@pytest.mark.parametrize("mode", list(GAMES))
def test_game_pages(server, api, browser, mode):
    url = my_move(api, GAMES[mode])
    ctx, page, errors = open_page(browser, server.url + url)
    try:
        page.wait_for_function("() => window.cyclades && window.cyclades.legal.length > 0")
        audit(page, mode)
        # The offering popup, where there is one to open.
        god = page.locator("#auction li.god.clickable").first
        if god.count():
            god.click()
            page.wait_for_selector("#popup:not([hidden])")
            audit(page, f"{mode}, the offering popup")
        assert not errors, errors
    finally:
        ctx.close()


def test_tutorial_replay_and_end_screen(server, api, browser):
    ctx, page, errors = open_page(browser, server.url + "/tutorial")
    try:
        page.wait_for_selector("#lessons .lesson button")
        audit(page, "the tutorial's lessons")
        page.click("#lessons .lesson button >> nth=0")
        page.wait_for_selector("#tutorial .tut-say")
        audit(page, "a tutorial lesson")
    finally:
        ctx.close()
    r = api.post("/api/games", json={"players": 3, "seats": ["random"] * 3, "max_cycles": 2, "bot_delay": 0, "seed": 8})
    gid = r.json()["game_id"]
    wait_over(api, gid)
    for path, ready in ((f"/game/{gid}", "#result:not([hidden]) .result-card"),
                        (f"/replay/{gid}", "#viewer:not([hidden]) svg#board path.area"),
                        ("/", "table.games tr.over")):  # the lobby, listing games over and running
        ctx, page, errors = open_page(browser, server.url + path)
        try:
            page.wait_for_selector(ready)
            page.wait_for_timeout(300)
            audit(page, path)
            assert not errors, errors
        finally:
            ctx.close()


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["laptop", "phone"])
def test_the_peoples_pages(server, browser, size):
    """Logging in and signing up, Play now (the form and a table waiting), My games (a game
    waiting on me, with its badge), the account's settings, a profile and the leaderboard."""
    ctx, page, errors = open_page(browser, server.url + "/login", size)
    name = f"Axe{size[0]}"
    try:
        page.wait_for_selector("#login-form")
        audit(page, f"/login at {size}")
        page.goto(server.url + "/login#signup")
        page.fill("#signup-name", name)
        page.fill("#signup-password", "correct horse battery")
        page.fill("#signup-again", "correct horse battery")
        page.click("#signup-submit")
        page.wait_for_url("**/my")
        csrf = next(c["value"] for c in ctx.cookies() if c["name"] == "cyclades_csrf")
        r = ctx.request.post(server.url + "/api/games", headers={"X-CSRF-Token": csrf},
                             data={"players": 3, "seats": ["you", "random", "random"], "bot_delay": 0})
        assert r.status == 201, r.text()
        page.goto(server.url + "/my")
        page.wait_for_selector("#waiting-on-me [data-game]")
        # The top bar's count was read when the page opened, perhaps while the bots still moved:
        # once the game waits on me, a page opened now shows it.
        page.reload()
        page.wait_for_selector(".badge-count")
        audit(page, f"/my at {size}")
        page.goto(server.url + "/play")
        page.wait_for_selector("#play-form")
        audit(page, f"/play at {size}")
        page.select_option("#play-players", "5")
        page.select_option("#play-bots-after", "")
        page.click("#play-submit")
        page.wait_for_selector("#leave-table")
        audit(page, f"a play-now table waiting, at {size}")
        page.click("#leave-table")
        page.wait_for_selector("#play-form")
        for path, ready in (("/account", "#password-form"), (f"/players/{name}", "#ratings"),
                            ("/leaderboard", "#board")):
            page.goto(server.url + path)
            page.wait_for_selector(ready)
            page.wait_for_timeout(200)
            audit(page, f"{path} at {size}")
        assert not errors, errors
    finally:
        ctx.close()
