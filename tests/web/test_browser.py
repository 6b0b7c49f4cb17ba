"""The web client in a real headless Chromium, against a real server.

A person's session: open the lobby, create a game with one human seat and two
random bots by clicking, open the seat, and play by clicking like a person
(highlighted areas on the map, a god then an amount, the battle dialog, the
buttons) until the first cycle is over (the view's cycle becomes 2).

Needs Debian's chromium (/usr/bin/chromium) and Playwright for Python; the test
is skipped, saying which is missing, only when one of them cannot be found.
Playwright's own browser downloads are never used.

Run as a script to play further and save a screenshot of the game:
    PYTHONPATH=src python3 tests/web/test_browser.py --cycles 4 --out /tmp/screenshot.png
"""
from __future__ import annotations

import os
import random
import tempfile

import pytest
from serverproc import browser_server, launch, served

STEP_TIMEOUT_MS = 15_000   # one decision: click, server, WebSocket, redraw
MAX_CLICKS = 1500          # a guard: the first cycle takes far fewer


# --- a person at the browser --------------------------------------------------------------

def create_game_in_lobby(page, base_url, players=3) -> str:
    """In the lobby: seat 1 human (named Ann), the other seats random bots; create: the
    seat opens by itself. Returns the spectator link."""
    page.goto(base_url + "/")
    page.select_option("#players", str(players))
    page.fill("input[name='name-0']", "Ann")
    page.select_option("select[data-seat='0']", "you")
    for seat in range(1, players):
        page.select_option(f"select[data-seat='{seat}']", "random")
    page.select_option("#board", "recommended")
    page.click("#create")
    page.wait_for_url("**/game/**token=**")
    page.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
    return page.url.split("?", 1)[0]


def game_state(page) -> dict:
    """What the page knows (read-only): version, cycle, whose move, legal actions."""
    return page.evaluate("""() => {
        const s = window.cyclades;
        return {version: s.version, cycle: s.view.cycle, over: s.view.over,
                to_move: s.view.to_move, seat: s.seat, legal: s.legal, sending: s.sending};
    }""")


def click_area(page, area_id) -> None:
    """Click an area of the map at its centre, as a person would (with the mouse)."""
    point = page.evaluate("""(id) => {
        const svg = document.getElementById('board');
        const a = window.cyclades.board.areas.get(id);
        const p = svg.createSVGPoint();
        [p.x, p.y] = a.centre;
        const q = p.matrixTransform(svg.getScreenCTM());
        const hit = document.elementFromPoint(q.x, q.y);
        return {x: q.x, y: q.y, hit: hit && hit.getAttribute('data-area')};
    }""", area_id)
    assert point["hit"] == area_id, f"the centre of {area_id} shows {point['hit']!r} on top"
    page.mouse.click(point["x"], point["y"])


def choose_in_popup(page, rng) -> str:
    """A small menu opened near the pointer: pick one of its items."""
    page.wait_for_selector("#popup:not([hidden])")
    items = page.locator("#popup .popup-item, #popup .amount")
    n = items.count()
    assert n >= 1
    item = items.nth(rng.randrange(n))
    text = item.inner_text()
    item.click()
    return text


BATTLE = {"lose", "lose_hero", "retreat", "hold"}


def assert_offers_exactly_the_legal_actions(page, legal) -> None:
    """The page offers every legal action, and nothing else: areas highlighted on the
    map, gods to click, amounts, buttons."""
    ui = page.evaluate("""() => ({
        areas: [...document.querySelectorAll('svg#board path.area.legal')].map(e => e.dataset.area),
        gods: [...document.querySelectorAll('#auction .god.clickable')].map(e => e.dataset.god),
        takes: [...document.querySelectorAll("#act button[data-action='take']")].map(e => +e.dataset.amount),
        buttons: [...document.querySelectorAll('#act button.action')].filter(e => !e.closest('details'))
                   .map(e => [e.dataset.kind, e.dataset.where || '']),
    })""")
    # every `where` is an area, but classic Zeus' swap_creature's, a track slot (a button)
    on_map = [a for a in legal if a.get("where") and a["kind"] != "swap_creature"]
    assert sorted(ui["areas"]) == sorted({a["where"] for a in on_map})
    gods = {a["what"] for a in legal if a["kind"] == "bid"} | {"apollo" for a in legal if a["kind"] == "apollo"}
    assert sorted(ui["gods"]) == sorted(gods)
    assert sorted(ui["takes"]) == sorted(a.get("n", 0) for a in legal if a["kind"] == "take")
    expected = [[a["kind"], a.get("where", "")] for a in legal
                if a["kind"] not in ("bid", "apollo", "take")
                and (a not in on_map or a["kind"] in BATTLE)]
    assert sorted(ui["buttons"]) == sorted(expected)


def play_one_decision(page, rng) -> str:
    """Make one decision through the interface; return what was clicked."""
    s = game_state(page)
    legal = s["legal"]
    assert_offers_exactly_the_legal_actions(page, legal)
    kinds = {a["kind"] for a in legal}
    # What the page offers, the way a person sees it.
    battle = page.locator(".battle-dialog button.action")
    takes = page.locator("#act .amounts button[data-action='take']")
    gods = page.locator("#auction .god.clickable")
    areas = sorted({a["where"] for a in legal if a.get("where")})
    buttons = page.locator("#act > .buttons button.action")
    if battle.count():
        b = battle.nth(rng.randrange(battle.count()))
        text = b.inner_text()
        b.click()
        return "battle: " + text
    if takes.count():
        b = takes.nth(rng.randrange(takes.count()))
        text = b.inner_text()
        b.click()
        return "take " + text
    options = []
    if gods.count():
        options.append("god")
    if areas:
        options.append("area")
    if buttons.count():
        options.append("button")
    assert options, f"the page offers nothing to click, yet the legal actions are {sorted(kinds)}"
    # A person ends a turn after a few things rather than wandering forever.
    end = page.locator("#act button[data-kind='end_turn']")
    if end.count() and rng.random() < 0.45:
        end.click()
        return "End your turn"
    choice = rng.choice(options)
    if choice == "god":
        g = gods.nth(rng.randrange(gods.count()))
        name = g.get_attribute("data-god")
        g.click()
        return f"{name}: " + choose_in_popup(page, rng)
    if choice == "area":
        where = rng.choice(areas)
        click_area(page, where)
        if sum(1 for a in legal if a.get("where") == where) > 1:
            return f"{where}: " + choose_in_popup(page, rng)
        return f"area {where}"
    # Cancel only now and then, or moves never finish.
    pool = [buttons.nth(i) for i in range(buttons.count())]
    keep = [b for b in pool if b.get_attribute("data-kind") != "cancel"] or pool
    b = rng.choice(keep if rng.random() < 0.9 else pool)
    text = b.inner_text()
    b.click()
    return text


def play_until(page, rng, done: str, log=None) -> int:
    """Play the human seat by clicking until the JavaScript condition `done` (on the
    page's state `s`) holds or the game is over; return the number of decisions made."""
    for decisions in range(MAX_CLICKS):  # the decisions made so far
        # Wait until it is our move (the bots play on the server) or we are done.
        page.wait_for_function(
            f"""() => {{ const s = window.cyclades; return !s.sending && s.view &&
                (s.view.over || ({done}) || (s.legal.length > 0 && (s.factions && s.factions.length
                    ? s.factions.includes(s.view.to_move) : s.view.to_move === s.seat))); }}""",
            timeout=STEP_TIMEOUT_MS * 4)
        if page.evaluate(f"() => {{ const s = window.cyclades; return s.view.over || ({done}); }}"):
            return decisions
        # The page says whose move it is, in words.
        assert "Your move" in page.inner_text("#status")
        page.wait_for_selector("#act.your-move")
        before = game_state(page)["version"]
        what = play_one_decision(page, rng)
        if log is not None:
            log(f"v{before}: {what}")
        page.wait_for_function("(v) => window.cyclades.version > v", arg=before, timeout=STEP_TIMEOUT_MS)
        assert page.locator("#toast").is_hidden(), page.inner_text("#toast")
    raise AssertionError(f"{done} not reached after {MAX_CLICKS} decisions")


# --- the test -----------------------------------------------------------------------------

@pytest.fixture
def server(tmp_path):
    with browser_server(tmp_path) as srv:  # tests/serverproc.py
        yield srv


def test_browser_plays_the_first_cycle_against_bots(server, tmp_path):
    """The web client: lobby -> seat -> the whole first cycle played by clicks,
    through a server restart (the page reconnects), with a spectator watching."""
    from playwright.sync_api import sync_playwright

    rng = random.Random(int(os.environ.get("CYCLADES_BROWSER_SEED", "6")))
    errors, requests = [], []
    with sync_playwright() as p:
        browser = launch(p)
        try:
            page = browser.new_page(viewport={"width": 1500, "height": 950})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: requests.append(r.url))
            spectator_url = create_game_in_lobby(page, server.url)

            # The board is drawn from the geometry: every area, with its name.
            n_areas = page.evaluate("() => window.cyclades.board.geo.areas.length")
            assert page.locator("svg#board path.area").count() == n_areas
            assert page.locator("svg#board text.label").count() == n_areas
            # Three player panels; our own GP shown, the bots' hidden (R24).
            assert page.locator("#players .player").count() == 3
            assert page.locator("#players .player.mine .stat.gp b").inner_text() == "5"
            assert page.locator("#players .player:not(.mine) .stat.gp b").all_inner_texts() == ["?", "?"]
            assert page.locator("#auction .god").count() == 6  # five gods and Apollo
            page.wait_for_selector("#conn.live")

            # The setup, by clicks; then the server goes down and comes back on the same
            # database: the page says so, reconnects by itself, and play goes on.
            placed = play_until(page, rng, "s.view.phase !== 'setup'")
            assert placed >= 4  # 2 troops + a control token + 2 fleets, give or take the rules
            server.stop()
            page.wait_for_selector("#conn.down", timeout=STEP_TIMEOUT_MS)
            server.start()  # the same port and database
            page.wait_for_selector("#conn.live", timeout=STEP_TIMEOUT_MS * 2)

            decisions = play_until(page, rng, "s.view.cycle >= 2")
            assert decisions >= 3  # an offering, the god's actions, Apollo's prosperity...
            s = game_state(page)
            assert s["cycle"] >= 2 or s["over"]
            # The log tells the story in the rulebook's words; the status line says who is awaited.
            log_text = page.inner_text("#log")
            assert "offers" in log_text and ("Cycle 2 begins" in log_text or s["over"])
            status = page.inner_text("#status")
            assert "Your move" in status or "Waiting for" in status or "over" in status
            page.screenshot(path=str(tmp_path / "game.png"))
            assert (tmp_path / "game.png").stat().st_size > 10_000

            # A spectator sees the same board, nobody's GP and nothing to click.
            watcher = browser.new_page(viewport={"width": 1200, "height": 800})
            watcher.on("pageerror", lambda e: errors.append(str(e)))
            watcher.goto(spectator_url)
            watcher.wait_for_selector("#conn.live")
            assert watcher.inner_text("#me") == "Spectating"
            assert watcher.locator("#players .player .stat.gp b").all_inner_texts() == ["?", "?", "?"]
            assert watcher.locator("svg#board path.area.legal").count() == 0
            assert watcher.locator("#act button").count() == 0
        finally:
            browser.close()
    assert not errors, f"JavaScript errors: {errors}"
    # Nothing was fetched from anywhere but our server.
    outside = [u for u in requests if not u.startswith((server.url, "data:"))]
    assert not outside, f"requests outside the server: {outside[:5]}"


# --- as a script: play further and save a screenshot ---------------------------------------

def main(argv=None):
    import argparse

    from playwright.sync_api import sync_playwright

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cycles", type=int, default=4, help="play until this cycle begins")
    ap.add_argument("--seed", type=int, default=11, help="the person's choices")
    ap.add_argument("--out", default="/tmp/screenshot.png")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--stop", default="", help="stop on a decision offering these action kinds on the map "
                    "(comma-separated, e.g. build,destination); default: any")
    ap.add_argument("--width", type=int, default=1600)
    ap.add_argument("--height", type=int, default=1000)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp, served(tmp) as srv, sync_playwright() as p:
        browser = launch(p)
        page = browser.new_page(viewport={"width": args.width, "height": args.height})
        page.on("pageerror", lambda e: print("page error:", e))
        create_game_in_lobby(page, srv.url, players=args.players)
        n = play_until(page, rng, f"s.view.cycle >= {args.cycles}", log=print)
        # Stop on a decision with highlighted areas, so the picture shows them.
        stop = set(filter(None, args.stop.split(",")))
        for _ in range(300):
            page.wait_for_function(
                "() => { const s = window.cyclades; "
                "return !s.sending && (s.view.over || (s.legal.length && s.view.to_move === s.seat)); }",
                timeout=STEP_TIMEOUT_MS * 4)
            s = game_state(page)
            if s["over"] or any(a.get("where") and (not stop or a["kind"] in stop) for a in s["legal"]):
                break
            before = s["version"]
            print(play_one_decision(page, rng))
            page.wait_for_function("(v) => window.cyclades.version > v", arg=before, timeout=STEP_TIMEOUT_MS)
        page.wait_for_timeout(400)
        page.screenshot(path=args.out)
        print(f"{n} decisions; screenshot in {args.out}")
        browser.close()


if __name__ == "__main__":
    main()


# Every mode, created from the lobby and played by clicks until cycle 2 (or the end).
MODES = {
    "legendary-2": {"players": 2},
    "legendary-3-no-maelstrom": {"players": 3, "maelstrom": False},
    "legendary-4-teams": {"players": 4, "teams": True},
    "legendary-5": {"players": 5},
    "legendary-6": {"players": 6},
    "classic-2": {"ruleset": "classic", "players": 2},
    "classic-5": {"ruleset": "classic", "players": 5},
}


# Three modes in every run (two factions a seat, teams, the classic game); the others on demand
# with `-m slow` (tests/README.md).
EVERY_RUN = ("legendary-2", "legendary-4-teams", "classic-5")
ON_DEMAND = pytest.mark.slow(sample=False)


@pytest.mark.parametrize("mode", [m if m in EVERY_RUN else pytest.param(m, marks=ON_DEMAND) for m in MODES])
def test_every_mode_from_the_lobby_plays_by_clicks_to_cycle_2(server, mode):
    from playwright.sync_api import sync_playwright

    spec = MODES[mode]
    rng = random.Random(12)
    errors = []
    with sync_playwright() as p:
        browser = launch(p)
        try:
            # a laptop screen: every popup must fit in the window
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(server.url + "/")
            page.select_option("#ruleset", spec.get("ruleset", "legendary"))
            page.select_option("#players", str(spec["players"]))
            if spec.get("teams"):
                page.check("#teams")
            if spec.get("maelstrom") is False:
                page.uncheck("#maelstrom")
            page.fill("input[name='name-0']", "Ann")
            page.select_option("select[data-seat='0']", "you")
            for seat in range(1, spec["players"]):
                page.select_option(f"select[data-seat='{seat}']", "random")
            page.click("#create")
            page.wait_for_url("**/game/**token=**")
            page.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
            view = page.evaluate("() => window.cyclades.view")
            assert view["ruleset"] == spec.get("ruleset", "legendary")
            assert (view["teams"] is not None) == ((spec["players"] in (2, 6) and "ruleset" not in spec)
                                                  or bool(spec.get("teams")))
            play_until(page, rng, "s.view.cycle >= 2")
            s = game_state(page)
            assert s["cycle"] >= 2 or s["over"]
        finally:
            browser.close()
    assert not errors, errors
