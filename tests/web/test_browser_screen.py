"""The game screen in a real headless Chromium: tooltips on hover and on tap, the
rules page, the modes (classic, teams), and the layout at 1280x720, 1920x1080 and on a phone
(390x844) with 5 and 6 players.

Games are set up mid-game before the server starts: a seeded game is played forward by random
decisions, stored in the server's SQLite file, and the server replays it on start (as after a
restart). Every seat is a human seat, so nothing moves while the page is looked at.

Screenshots go to pytest's tmp dir, and also to $CYCLADES_SHOTS (e.g. /tmp/shots) when set.
Run as a script to write the screenshots only:
    PYTHONPATH=src python3 tests/web/test_browser_screen.py /tmp/shots
"""
from __future__ import annotations

import os
import random
import secrets
import sys
from pathlib import Path

import pytest
from serverproc import browser_server, chromium, chromium_missing, launch, served

from cyclades.content.descriptions import content
from cyclades.engine.game import Game
from cyclades.server.store import Store

pytestmark = pytest.mark.skipif(chromium_missing() is not None, reason=chromium_missing() or "")

# name -> (options for Game.new, random decisions played before the page opens)
GAMES = {
    "legendary5": (dict(players=5, seed=11, board="recommended"), 420),
    "legendary6": (dict(players=6, seed=12, board="recommended"), 460),
    "classic5": (dict(players=5, seed=13, ruleset="classic"), 260),
    "classic2": (dict(players=2, seed=14, ruleset="classic"), 150),
    "legendary2": (dict(players=2, seed=15, board="recommended"), 300),
}
VIEWPORTS = {"1280x720": (1280, 720), "1920x1080": (1920, 1080), "390x844": (390, 844)}


def seed_games(db_path: Path, games: dict | None = None, until=None) -> dict:
    """Store the games (name -> (options, random decisions); GAMES by default), played forward
    until seat 0 is to move (and `until(game)` holds, when given); returns name -> (game id,
    token of seat 0, the faction to move)."""
    store = Store(f"sqlite:///{db_path}")
    out = {}
    try:
        for name, (opts, decisions) in (games or GAMES).items():
            g = Game.new(**opts)
            rng = random.Random(opts["seed"])
            gid = f"{name}-{secrets.token_hex(3)}"
            seats = [{"kind": "human", "name": f"{n}", "token": secrets.token_urlsafe(16), "joined": True}
                     for n in ("Ann", "Bob", "Cleo", "Dimitrios", "Eleni", "Fotini")[:opts["players"]]]
            # Seat 0's factions: one, or two in the 2-player Legendary game (factions 0 and 2).
            mine = {0, 2} if g.state.n > opts["players"] else {0}
            store.create_game(gid, g.options, seats, "playing", g.state.version, g.to_move, {"bot_delay": 0})
            idx = 0
            # Play forward, then on until seat 0 is to move (its page then shows a decision).
            while (idx < decisions or g.to_move not in mine or (until and not until(g))) and idx < decisions + 400:
                options = g.legal_actions()
                rng.shuffle(options)
                a = next((x for x in options if not _ends(g, x)), None)
                if a is None:
                    break  # every choice ends the game: stop just before
                g.apply(a)
                store.add_decision(gid, idx, a.to_json(), {"status": "playing", "version": g.state.version,
                                                            "cycle": g.state.cycle, "to_move": g.to_move})
                idx += 1
            out[name] = (gid, seats[0]["token"], g.to_move)
    finally:
        store.close()
    return out


def _ends(g, a) -> bool:
    c = g.copy()
    c.apply(a)
    return c.is_over


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("screen")
    games = seed_games(tmp / "games.db")
    with browser_server(tmp, "games.db") as srv:  # tests/serverproc.py: on the games stored
        yield srv.url, games, tmp


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


SHOTS = os.environ.get("CYCLADES_SHOTS")


def shoot(page, tmp: Path, name: str) -> None:
    """One screenshot (JPEG: quicker than PNG at 1920x1080), in the tmp dir and $CYCLADES_SHOTS."""
    data = page.screenshot(type="jpeg", quality=85)
    for d in [tmp / "shots"] + ([Path(SHOTS)] if SHOTS else []):
        d.mkdir(parents=True, exist_ok=True)
        (d / f"{name}.jpg").write_bytes(data)


class Console:
    """Console errors and uncaught exceptions of a page."""

    def __init__(self, page):
        self.errors = []
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))


def open_game(context, url, gid, token=None):
    page = context.new_page()
    console = Console(page)
    page.goto(f"{url}/game/{gid}" + (f"?token={token}" if token else ""))
    page.wait_for_function("() => window.cyclades && window.cyclades.view !== null && window.cyclades.content !== null")
    page.wait_for_selector("#players .player")
    return page, console


LAYOUT_CHECK = """() => {
  const vw = window.innerWidth, vh = window.innerHeight;
  const out = {scrollWidth: document.scrollingElement.scrollWidth, innerWidth: vw, cards: [], overflow: []};
  for (const el of document.querySelectorAll('#players .player')) {
    const r = el.getBoundingClientRect();
    out.cards.push({top: r.top, bottom: r.bottom, left: r.left, right: r.right, w: r.width});
  }
  // Text that runs past its box: the player cards, their names and stats, the panels' rows.
  const boxes = '#players .player, #players .player header, #players .stats, .god, .card, #act, .topbar';
  for (const el of document.querySelectorAll(boxes)) {
    if (el.scrollWidth > el.clientWidth + 1) out.overflow.push(el.className + ': ' + el.textContent.slice(0, 60));
  }
  const b = document.getElementById('board').getBoundingClientRect();
  out.board = {w: b.width, h: b.height, top: b.top, bottom: b.bottom};
  return out;
}"""


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_layout_5_and_6_players(site, browser, size):
    url, games, tmp = site
    w, h = VIEWPORTS[size]
    phone = w < 600
    ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=phone, is_mobile=phone,
                              device_scale_factor=1)
    try:
        for name in ("legendary5", "legendary6"):
            gid, token, _ = games[name]
            page, console = open_game(ctx, url, gid, token)
            m = page.evaluate(LAYOUT_CHECK)
            shoot(page, tmp, f"{name}-{size}")
            assert m["scrollWidth"] <= m["innerWidth"], f"{name} at {size}: horizontal scrolling {m}"
            assert len(m["cards"]) == int(name[-1])
            for c in m["cards"]:
                assert c["left"] >= 0 and c["right"] <= w + 0.5 and c["w"] > 80, (name, size, c)
                if not phone:  # all players above the fold
                    assert c["top"] >= 0 and c["bottom"] <= h, (name, size, c)
            assert not m["overflow"], f"{name} at {size}: text past its box: {m['overflow']}"
            if phone:  # the board first, as wide as the screen
                assert m["board"]["w"] >= w - 24 and m["board"]["top"] < 200, m["board"]
            else:  # the board fills the screen's height below the players
                assert m["board"]["bottom"] <= h and m["board"]["h"] >= h * 0.55, m["board"]
            if name == "legendary6":  # three teams, partners side by side, one purse each
                assert page.locator("#players .team").count() == 3
                assert page.locator("#players .team").first.locator(".player").count() == 2
                assert "shared" in page.inner_text("#players .team-head >> nth=0")
            assert not console.errors, console.errors
            page.close()
    finally:
        ctx.close()


def _tip_text(page) -> str:
    page.wait_for_selector("#tip:not([hidden])", timeout=3000)
    return page.inner_text("#tip")


def test_tooltips_hover_and_tap(site, browser):
    url, games, tmp = site
    gid, _token, _ = games["legendary5"]
    texts = content("legendary", True)
    god = {g["id"]: g for g in texts["gods"]}
    creatures = {c["id"]: c for c in texts["creatures"]}
    buildings = {b["id"]: b for b in texts["buildings"]}
    for touch in (False, True):
        ctx = browser.new_context(viewport={"width": 390, "height": 844} if touch else {"width": 1280, "height": 720},
                                  has_touch=touch, is_mobile=touch)
        try:
            page, console = open_game(ctx, url, gid)  # a spectator: nothing is clickable
            act = page.tap if touch else page.hover
            # A god of the auction board: its summary and its actions with their costs.
            g = page.locator("#auction .god").first.get_attribute("data-god")
            act(f"#auction .god[data-god='{g}']")
            tip = _tip_text(page)
            assert god[g]["summary"] in tip and god[g]["actions"][0]["cost"] in tip
            # A creature of the track: its text and its cost.
            c = page.locator("#tracks .creature-card:not(.empty)").first.get_attribute("data-card")
            act(f"#tracks .creature-card[data-card='{c}']")
            tip = _tip_text(page)
            assert creatures[c]["text"] in tip and "Cost" in tip
            # A building in a player's card.
            act("#players .player >> nth=0 >> .bld[data-building='temple']")
            tip = _tip_text(page)
            assert buildings["temple"]["text"] in tip
            # A hidden purse: no ruling codes on screen.
            act("#players .player >> nth=1 >> .stat.gp")
            tip = _tip_text(page)
            assert "hidden" in tip and "R24" not in tip
            # An area of the map explains what stands there.
            if not touch:
                box = page.evaluate("""() => { const el = document.querySelector('svg#board path.area.land');
                    const r = el.getBoundingClientRect(); return {x: r.x + r.width / 2, y: r.y + r.height / 2}; }""")
                page.mouse.move(box["x"], box["y"])
                assert "Land Area" in _tip_text(page) or "Sea Area" in _tip_text(page)
            shoot(page, tmp, f"tooltip-{'tap' if touch else 'hover'}")
            body = page.inner_text("body")
            assert "R24" not in body and not any(f"(R{i})" in body for i in range(1, 31))
            assert not console.errors, console.errors
        finally:
            ctx.close()


KIND = {"gods": "god", "creatures": "creature", "heroes": "hero", "bonuses": "bonus",
        "buildings": "building", "units": "unit"}


@pytest.mark.parametrize("ruleset", ["legendary", "classic"])
def test_rules_page_covers_every_card(site, browser, ruleset):
    url, _, tmp = site
    data = content(ruleset, True)
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = ctx.new_page()
        console = Console(page)
        page.goto(f"{url}/rules?ruleset={ruleset}")
        page.wait_for_selector("#rules .rule-card")
        for kind in ("gods", "creatures", "heroes", "bonuses", "buildings", "units"):
            for x in data[kind]:
                el = page.locator(f"#rules [data-kind='{KIND[kind]}'][data-card='{x['id']}']")
                assert el.count() == 1, f"{ruleset}: {kind} {x['id']} missing from the rules page"
                text = el.inner_text()
                assert x["name"] in text
                for part in ([x["text"]] if kind not in ("gods", "heroes") else
                             [x["summary"]] if kind == "gods" else [x["military"], x["sacrifice"]]):
                    assert " ".join(part.split()) in " ".join(text.split()), (ruleset, x["id"])
        body = page.inner_text("#rules")
        for s in data["sections"]:
            assert s["title"] in body
        if ruleset == "classic":
            assert page.locator(".hero-rule, #god-hera, #heroes, #bonuses").count() == 0
        else:
            assert page.locator(".mael").count() >= 7 + 13 + 3  # the Maelström cards are marked
        shoot(page, tmp, f"rules-{ruleset}")
        page.set_viewport_size({"width": 390, "height": 844})
        assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth")
        assert not console.errors, console.errors
    finally:
        ctx.close()


def test_classic_game_shows_classic_widgets(site, browser):
    url, games, tmp = site
    gid, token, to_move = games["classic5"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page, console = open_game(ctx, url, gid, token)
        assert page.locator("#tracks .hero-card, #tracks .hero-track, #tracks .bonuses").count() == 0
        assert page.locator("#tracks .creature-card").count() == 3
        tracks = page.inner_text("#tracks")
        assert "Hero" not in tracks and "bonus" not in tracks.lower() and "mercenar" not in tracks.lower()
        assert "Classic" in page.inner_text("#mode")
        assert page.locator("#auction .god[data-god='hera']").count() == 0
        assert "ruleset=classic" in page.get_attribute("#rules-link", "href")
        # Seat 0 is to move: the tab's title says so.
        assert to_move == 0 and page.title().startswith("★ Your move")
        shoot(page, tmp, "classic5-1280x720")
        assert "two offerings" not in page.inner_text("#mode")
        m = page.evaluate(LAYOUT_CHECK)
        assert m["scrollWidth"] <= m["innerWidth"] and not m["overflow"], m
        assert not console.errors, console.errors
        # Two players: two offering markers each.
        page, console = open_game(ctx, url, games["classic2"][0], games["classic2"][1])
        assert "two offerings each" in page.inner_text("#mode")
        assert page.locator("#auction .turn-order .chip").count() == 4
        shoot(page, tmp, "classic2-1280x720")
        assert not console.errors, console.errors
    finally:
        ctx.close()


def test_two_players_one_person_two_factions(site, browser):
    """The 2-player Legendary game: each person plays two factions of one team."""
    url, games, tmp = site
    gid, token, _to_move = games["legendary2"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page, console = open_game(ctx, url, gid, token)
        assert page.evaluate("Array.isArray(window.cyclades.factions) && window.cyclades.factions.length == 2")
        assert page.locator("#me .chip").count() == 2
        assert page.locator("#players .team").count() == 2
        assert page.locator("#players .player.mine").count() == 2
        assert "2 players" in page.inner_text("#mode")
        assert "Ann" in page.inner_text("#players .team-head >> nth=0")
        shoot(page, tmp, "legendary2-1280x720")
        assert not console.errors, console.errors
    finally:
        ctx.close()


def test_your_move_sound_in_background(site, browser):
    """A background tab: the title changes and a short sound plays, unless turned off."""
    url, games, _ = site
    gid, token, _ = games["legendary5"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    ctx.add_init_script("Object.defineProperty(document, 'hidden', {get: () => true});")
    try:
        page, console = open_game(ctx, url, gid, token)
        assert page.title().startswith("★ Your move")
        assert page.evaluate("window.cyclades.signals.beeps") == 1
        page.click("#sound")
        assert page.evaluate("localStorage.getItem('cyclades.sound')") == "off"
        page.reload()
        page.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
        assert page.evaluate("window.cyclades.signals.beeps") == 0
        assert page.inner_text("#sound") == "♪ off"
        assert not console.errors, console.errors
    finally:
        ctx.close()


if __name__ == "__main__":  # screenshots only
    import tempfile

    from playwright.sync_api import sync_playwright
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/shots")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        games = seed_games(Path(d) / "games.db")
        with served(d) as srv, sync_playwright() as pw:
            b = launch(pw)
            for name, (gid, token, _) in games.items():
                for size, (w, h) in VIEWPORTS.items():
                    ctx = b.new_context(viewport={"width": w, "height": h}, has_touch=w < 600, is_mobile=w < 600)
                    page, console = open_game(ctx, srv.url, gid, token)
                    page.screenshot(path=str(out / f"{name}-{size}.png"))
                    if w < 600:
                        page.screenshot(path=str(out / f"{name}-{size}-full.png"), full_page=True)
                    print(name, size, console.errors)
                    ctx.close()
            b.close()
