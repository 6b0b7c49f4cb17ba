"""The board read at a glance, in a real headless Chromium, in every mode (Legendary 3, 4 and 5
players, teams of 4 and 6, the 2-player game, classic 2 to 5) at 1280x720, 1920x1080 and 390x844:

- the board fills its panel (one side edge to edge, the board turned the way that draws it
  largest), its pieces are large enough to count, its seas have visible borders;
- no name on the board overlaps another name or a piece, a building site or a printed icon
  (every text label's box measured on screen), nor lies more than a third across an island
  not its own;
- the offering popup and every tooltip fit in the window, the popup's title, costs and
  amounts in view;
- a game is played with the keyboard alone: Tab to a choice (an area of the map, a god, a
  button), Enter, and Enter again in the popup that opens.

Games are set up mid-game before the server starts (random decisions; every seat a person,
so nothing moves while the page is measured). Screenshots go to $CYCLADES_SHOTS when set.
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from serverproc import browser_server, chromium, chromium_missing
from test_browser_screen import VIEWPORTS, seed_games

httpx = pytest.importorskip("httpx")
pytestmark = pytest.mark.skipif(chromium_missing() is not None, reason=chromium_missing() or "")

MODES = {
    "legendary3": (dict(players=3, seed=31), 240),
    "legendary4": (dict(players=4, seed=32), 300),
    "legendary5": (dict(players=5, seed=33), 420),
    "teams4": (dict(players=4, teams=True, seed=34), 300),
    "teams6": (dict(players=6, seed=35), 460),
    "legendary2": (dict(players=2, seed=36), 300),
    "classic2": (dict(players=2, ruleset="classic", seed=37), 150),
    "classic3": (dict(players=3, ruleset="classic", seed=38), 200),
    "classic4": (dict(players=4, ruleset="classic", seed=39), 240),
    "classic5": (dict(players=5, ruleset="classic", seed=40), 260),
}
# The offering popup: a team game stopped where seat 0 makes an offering (as seen at 1280x720
# with its title off screen and its cost column cut).
OFFERING = {"offering": (dict(players=4, teams=True, seed=41), 120)}


def offering(game) -> bool:
    return any(a.kind == "bid" for a in game.legal_actions())
SHOTS = os.environ.get("CYCLADES_SHOTS")

MEASURE = """() => {
  const svg = document.getElementById('board');
  const view = svg.getBoundingClientRect();
  const panel = svg.parentElement.getBoundingClientRect();
  const labels = [...svg.querySelectorAll('.labels text.label')]
    .map((t) => ({ what: 'the name ' + t.textContent, r: t.getBoundingClientRect() }));
  const things = [...svg.querySelectorAll('.pieces [data-piece], .pieces .site, .pieces .cornucopia, .icons > g')]
    .map((el) => ({ what: (el.dataset.piece || el.getAttribute('class')) + ' of '
                      + ((el.closest('[data-area]') || {}).dataset || {}).area,
                    r: el.getBoundingClientRect() }));
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
  const clashes = [];
  labels.forEach((l, i) => {
    for (const m of labels.slice(i + 1)) if (meet(l.r, m.r)) clashes.push(l.what + ' on ' + m.what);
    for (const p of things) if (meet(l.r, p.r)) clashes.push(l.what + ' on ' + p.what);
  });
  // The share of each name's box over another island than its own (a sea's name: any island).
  const geo = window.cyclades.board.geo;
  const isleOf = new Map();
  geo.islands.forEach((isl, i) => isl.areas.forEach((id) => isleOf.set(id, i)));
  const lands = [...svg.querySelectorAll('path.area.land')];
  const coasts = [...svg.querySelectorAll('.labels text.label')].map((t) => {
    const own = isleOf.get(t.dataset.area);
    const others = lands.filter((el) => own === undefined || isleOf.get(el.dataset.area) !== own);
    const b = t.getBBox();
    let on = 0;
    for (let i = 0; i < 6; i++) for (let j = 0; j < 3; j++) {
      const p = new DOMPoint(b.x + (i + 0.5) / 6 * b.width, b.y + (j + 0.5) / 3 * b.height);
      if (others.some((el) => el.isPointInFill(p))) on++;
    }
    return { what: 'the name ' + t.textContent, share: on / 18 };
  });
  const outside = labels.filter((l) => l.r.left < view.left - 0.5 || l.r.right > view.right + 0.5
    || l.r.top < view.top - 0.5 || l.r.bottom > view.bottom + 0.5).map((l) => l.what);
  const k = svg.getScreenCTM().a;
  const areas = [...svg.querySelectorAll('path.area')].map((e) => e.getBoundingClientRect());
  const left = Math.min(...areas.map((r) => r.left)), right = Math.max(...areas.map((r) => r.right));
  const top = Math.min(...areas.map((r) => r.top)), bottom = Math.max(...areas.map((r) => r.bottom));
  const tokens = things.filter((p) => /^(troop|merc|fleet|hero|creature)/.test(p.what))
    .map((p) => Math.max(p.r.width, p.r.height));
  const border = svg.querySelector('path.sea-border');
  return {
    clashes, outside, coasts, labels: labels.length, areas: areas.length,
    label_px: Math.min(...[...svg.querySelectorAll('.labels text.label')]
      .map((t) => parseFloat(t.getAttribute('font-size')) * k)),
    token_px: tokens.length ? Math.min(...tokens) : null,
    fill: Math.max((right - left) / panel.width, (bottom - top) / panel.height),
    centred: Math.abs((left + right) / 2 - (panel.left + panel.right) / 2) < 4 + panel.width * 0.02,
    sea_border: border ? { length: (border.getAttribute('d') || '').length, stroke: getComputedStyle(border).stroke,
      width: parseFloat(getComputedStyle(border).strokeWidth)
        * (getComputedStyle(border).vectorEffect === 'non-scaling-stroke' ? 1 : k) } : null,
  };
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("board")
    games = seed_games(tmp / "games.db", MODES)
    games.update(seed_games(tmp / "games.db", OFFERING, until=offering))
    with browser_server(tmp, "games.db") as srv:  # tests/serverproc.py: on the games stored
        yield srv, games


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def new_page(browser, size):
    w, h = VIEWPORTS[size]
    phone = w < 600
    ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=phone, is_mobile=phone,
                              device_scale_factor=1)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return ctx, page, errors


def open_game(page, url, gid, token):
    page.goto(f"{url}/game/{gid}?token={token}")
    page.wait_for_function("() => window.cyclades && window.cyclades.view !== null && window.cyclades.board")
    page.wait_for_selector("svg#board .labels text.label")
    page.wait_for_selector("#conn.live")  # the live connection's first state is drawn too
    page.wait_for_timeout(250)  # the board lays itself out again once the page has its size


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_every_name_can_be_read_and_the_board_fills_its_panel(site, browser, size):
    srv, games = site
    phone = size == "390x844"
    ctx, page, errors = new_page(browser, size)
    report = {}
    try:
        for name in MODES:
            gid, token, _ = games[name]
            open_game(page, srv.url, gid, token)
            m = page.evaluate(MEASURE)
            if SHOTS:
                Path(SHOTS).mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(Path(SHOTS) / f"board-{name}-{size}.png"))
            report[name] = {k: m[k] for k in ("label_px", "token_px", "fill")}
            report[name]["across"] = round(sum(c["share"] for c in m["coasts"]), 2)
            assert m["labels"] == m["areas"], f"{name} at {size}: a name is missing"
            assert not m["clashes"], f"{name} at {size}: {m['clashes']}"
            assert not m["outside"], f"{name} at {size}: names off the board: {m['outside']}"
            across = [c for c in m["coasts"] if c["share"] > 0.34]
            assert not across, f"{name} at {size}: names more than a third across another island: {across}"
            assert m["fill"] >= 0.95 and m["centred"], f"{name} at {size}: the board does not fill its panel: {m}"
            assert m["label_px"] >= (5 if phone else 7.5), f"{name} at {size}: names too small ({m['label_px']:.1f} px)"
            if m["token_px"] is not None:
                assert m["token_px"] >= (8 if phone else 13), f"{name} at {size}: small pieces ({m['token_px']:.1f} px)"
            sea = m["sea_border"]
            assert sea and sea["length"] > 100 and sea["width"] >= 1, f"{name} at {size}: no visible sea borders {sea}"
        assert not errors, errors
        print(size, report)
    finally:
        ctx.close()


INSIDE = """(sel) => { const el = document.querySelector(sel); if (!el || el.hidden) return null;
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, w: innerWidth, h: innerHeight,
           scrollX: el.scrollWidth - el.clientWidth }; }"""


def inside(box) -> bool:
    return (box["left"] >= -0.5 and box["top"] >= -0.5
            and box["right"] <= box["w"] + 0.5 and box["bottom"] <= box["h"] + 0.5)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_the_offering_popup_and_the_tooltips_fit(site, browser, size):
    srv, games = site
    phone = size == "390x844"
    ctx, page, errors = new_page(browser, size)
    try:
        gid, token, _ = games["offering"]
        open_game(page, srv.url, gid, token)
        god = page.locator("#auction li.god.clickable").first
        god.scroll_into_view_if_needed()
        god.click()
        page.wait_for_selector("#popup:not([hidden]) .amount")
        pop = page.evaluate(INSIDE, "#popup")
        assert inside(pop), f"the offering popup runs off the window at {size}: {pop}"
        for part in ("#popup .popup-title", "#popup .amount:first-child", "#popup .amount:last-child",
                     "#popup .popup-close"):
            box = page.evaluate(INSIDE, part)
            in_pop = box and pop["top"] - 0.5 <= box["top"] and box["bottom"] <= pop["bottom"] + 0.5
            assert in_pop and inside(box), f"{part} out of view at {size}: {box}"
        # The god's text: its cost column whole, its text column not squeezed to a word a line.
        cols = page.evaluate("""() => [...document.querySelectorAll('#popup .tip-rows tr')].map((tr) => {
            const [text, price] = tr.children;
            const p = price.getBoundingClientRect(), pop = document.getElementById('popup').getBoundingClientRect();
            return { text: text.getBoundingClientRect().width,
                     price_cut: price.scrollWidth > price.clientWidth + 1 || p.right > pop.right + 0.5 }; })""")
        assert cols and not any(c["price_cut"] for c in cols), cols
        assert min(c["text"] for c in cols) >= (150 if not phone else 140), f"the god's text squeezed at {size}: {cols}"
        page.keyboard.press("Escape")
        assert page.evaluate("document.getElementById('popup').hidden")
        # Tooltips: one of each kind, near the window's edges too.
        act = page.tap if phone else page.hover
        targets = ["#auction li.god:not(.clickable) >> nth=-1", "#tracks .creature-card:not(.empty) >> nth=0",
                   "#players .player >> nth=-1 >> .bld >> nth=-1",
                   "#players .player >> nth=-1 >> .stat >> nth=-1", "#tracks .bonus-chip >> nth=-1", "#mode"]
        for target in targets:
            loc = page.locator(target)
            if not loc.count():
                continue
            loc.scroll_into_view_if_needed()
            act(target)
            try:
                page.wait_for_selector("#tip:not([hidden])", timeout=3000)
            except Exception as e:
                raise AssertionError(f"no tooltip for {target} at {size}") from e
            tip = page.evaluate(INSIDE, "#tip")
            assert inside(tip) and tip["scrollX"] <= 1, f"the tooltip of {target} runs off the window at {size}: {tip}"
        if not phone:  # the areas in the board's corners explain themselves inside the window
            for corner in ("right", "bottom"):
                point = page.evaluate("""(corner) => {
                    const els = [...document.querySelectorAll('svg#board path.area')];
                    const r = (e) => e.getBoundingClientRect();
                    const further = (a, b) => (corner === 'right' ? r(b).right > r(a).right
                                                                  : r(b).bottom > r(a).bottom);
                    const e = els.reduce((a, b) => (further(a, b) ? b : a));
                    const c = window.cyclades.board.areaPoint(e.dataset.area); return c; }""", corner)
                page.mouse.move(point["x"], point["y"])
                page.wait_for_selector("#tip:not([hidden])", timeout=3000)
                tip = page.evaluate(INSIDE, "#tip")
                assert inside(tip), f"the tooltip of the {corner}most area runs off the window at {size}: {tip}"
        assert not errors, errors
    finally:
        ctx.close()


# What the keyboard may choose: never a link away, the hint, "never mind" or a setting.
CHOICE = ("#act button.action, #act button.amount, #act button.god-button, #auction li.god.clickable, "
          "#tracks li.clickable, "
          "svg#board path.area.legal, #popup button.popup-item, #popup button.amount")


def test_a_game_played_with_the_keyboard_alone(tmp_path, browser):
    with browser_server(tmp_path) as srv, httpx.Client(base_url=srv.url, timeout=60) as api:
        r = api.post("/api/games", json={"players": 3, "seats": ["you", "random", "random"], "bot_delay": 0,
                                         "seed": 17})
        url = srv.url + r.json()["seats"][0]["url"]
        ctx, page, errors = new_page(browser, "1280x720")
        try:
            page.goto(url)
            page.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
            kinds = []
            deadline = time.monotonic() + 300
            # On until it chose areas (the setup), a god (the offerings) and a button (a turn).
            done = lambda: "area" in kinds and "button" in kinds and any(k.endswith("+popup") for k in kinds)  # noqa: E731
            while not (len(kinds) >= 14 and done()) and len(kinds) < 80 and time.monotonic() < deadline:
                page.wait_for_function("() => window.cyclades.legal.length > 0 && !window.cyclades.sending",
                                       timeout=60_000)
                before = page.evaluate("window.cyclades.version")
                page.evaluate("document.activeElement && document.activeElement.blur()")
                for _ in range(400):
                    page.keyboard.press("Tab")
                    if page.evaluate("(sel) => !!document.activeElement && document.activeElement.matches(sel)",
                                     CHOICE):
                        break
                else:
                    last = page.evaluate("document.activeElement.outerHTML.slice(0, 120)")
                    raise AssertionError(f"Tab never reached a choice: {last}")
                what = page.evaluate("""() => { const e = document.activeElement;
                    return e.matches('path.area') ? 'area' : e.matches('li.god') ? 'god'
                      : e.matches('li') ? 'card' : 'button'; }""")
                page.keyboard.press("Enter")
                page.wait_for_timeout(100)
                if page.evaluate("!document.getElementById('popup').hidden"):
                    focused = page.evaluate("document.getElementById('popup').contains(document.activeElement)")
                    assert focused, "the popup took no focus"
                    page.keyboard.press("Enter")
                    what += "+popup"
                page.wait_for_function("(v) => window.cyclades.version > v", arg=before, timeout=30_000)
                kinds.append(what)
            assert len(kinds) >= 14 and done(), kinds
            assert not errors, errors
        finally:
            ctx.close()
