"""The game page in play, in a real headless Chromium against a real server: others' moves are
played on the board (units travel, a battle shows its dice and losses round by round, buildings
appear where they are built, GP float by the purses), with a speed setting and Skip; each
player's last move stays marked; "since your last move" lists what changed; Undo as at a real
table in every mode (a recruit of Pericles taken back, and the button saying why not further);
the words a person reads (a target by name, the classic Fleet move, the tab title in the setup,
one's own purse when scrolling back); a hint for each decision; and a whole game against bots
played by clicks with the animations on.

Screenshots at 1280x720 and 390x844 are written to $CYCLADES_SHOTS when it is set.
Needs Debian's chromium and Playwright for Python (skipped, saying which is missing, without).
"""
from __future__ import annotations

import os
import random
import secrets
import time
from pathlib import Path

import pytest
import yaml
from repository import ROOT
from serverproc import api_get as get
from serverproc import api_post as post
from serverproc import browser_server, chromium
from test_browser import click_area, play_one_decision, play_until

from cyclades.engine.game import Game
from cyclades.server.store import Store

T = 20_000
LESSONS = ROOT / "src" / "cyclades" / "content" / "tutorial"
SHOTS = os.environ.get("CYCLADES_SHOTS")


def shoot(page, name):
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


# --- games stored before the server starts -------------------------------------------------------

def lesson_scenario(name: str) -> dict:
    return yaml.safe_load((LESSONS / name).read_text())["scenario"]


def satyr_and_pericles() -> dict:
    """Hera's turn for Ann (seat 0), Pericles on the Hero track, the Satyr on the Creature
    track, and Bob with a Philosopher for it to take."""
    d = lesson_scenario("7-hera.yaml")
    d["creature_track"] = ["satyr", "harpy", "pegasus", "dryad"]
    d["player"][1]["philosophers"] = 1
    return d


def seats(kinds):
    names = ["Ann", "Bob", "Cleo", "Dora"]
    return [{"kind": k, "name": names[i], "access": "host" if i == 0 else ("invite" if k == "human" else None),
             "token": secrets.token_urlsafe(16) if k == "human" else None, "joined": True}
            for i, k in enumerate(kinds)]


def store(db, gid, game, people, forward=None, rng=None):
    """Store `game` (played forward with random decisions until `forward(game)` holds)."""
    s = Store(f"sqlite:///{db}")
    try:
        s.create_game(gid, game.options, people, "playing", game.state.version, game.to_move, {"bot_delay": 0})
        idx = 0
        while forward is not None and not forward(game):
            assert idx < 2000 and not game.is_over, f"{gid}: no such position"
            a = rng.choice(game.legal_actions())
            game.apply(a)
            s.add_decision(gid, idx, a.to_json(), {"status": "playing", "version": game.state.version,
                                                    "cycle": game.state.cycle, "to_move": game.to_move})
            idx += 1
    finally:
        s.close()
    return {"gid": gid, "tokens": [x["token"] for x in people]}


def classic_fleet_move(g) -> bool:
    """Ann's turn in the classic game, a Fleet move among her choices."""
    return g.to_move == 0 and any(a.kind == "fleet_move" for a in g.legal_actions())


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("table")
    db = tmp / "games.db"
    games = {
        # Ann attacks Bob's Kythnos through the API; Bob's page watches (the Ares lesson's position).
        "battle": store(db, "battle", Game.from_scenario(lesson_scenario("3-ares.yaml")), seats(["human"] * 3)),
        "hera": store(db, "hera", Game.from_scenario(satyr_and_pericles()), seats(["human", "casual", "casual"])),
        "hera-quick": store(db, "hera-quick", Game.from_scenario(satyr_and_pericles()),
                            seats(["human", "casual", "casual"])),
        "classic": store(db, "classic", Game.new(players=3, ruleset="classic", seed=8),
                         seats(["human", "human", "human"]), classic_fleet_move, random.Random(8)),
    }
    with browser_server(tmp, "games.db") as srv:
        yield srv, games, db


@pytest.fixture(scope="module")
def browser(site):
    with chromium(animations=True) as b:
        yield b


class Page:
    """A game page and what went wrong on it."""

    def __init__(self, browser, url, size=(1280, 720), speed=None):
        self.page = browser.new_page(viewport={"width": size[0], "height": size[1]})
        self.page.set_default_timeout(T)
        self.errors = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        if speed:
            self.page.add_init_script(f"localStorage.setItem('cyclades.animationSpeed', '{speed}')")
        self.page.goto(url)
        self.page.wait_for_function("() => window.cyclades && window.cyclades.view !== null")

    def state(self):
        return self.page.evaluate("""() => { const s = window.cyclades; return {version: s.version, undos: s.undos,
            legal: s.legal, undo: s.undo, since: s.since, last: s.lastMoves, view: s.view,
            busy: s.anim.busy, stats: s.anim.stats}; }""")

    def close(self):
        self.page.close()
        assert not self.errors, self.errors


def decide(srv, gid, token, expect):
    """The seat of `token` plays the legal action matching `expect` (through the API)."""
    st = get(srv, f"/api/games/{gid}?token={token}")
    a = next(a for a in st["legal_actions"] if all(a.get(k, "" if k != "n" else 0) == v for k, v in expect.items()))
    return post(srv, f"/api/games/{gid}/actions", {"token": token, "version": st["version"], "action": a})


def watch_layer(page):
    """Record every element the animation layer and the stage above the board ever show."""
    page.evaluate("""() => {
        window.seenAnimation = [];
        const note = (muts) => { for (const m of muts) for (const n of m.addedNodes)
            if (n.nodeType === 1) window.seenAnimation.push(n.getAttribute('class') || n.tagName); };
        const obs = new MutationObserver(note);
        obs.observe(document.getElementById('board'), {childList: true, subtree: true});
        obs.observe(document.getElementById('anim-stage'), {childList: true, subtree: true});
    }""")


# --- what others do, you see ---------------------------------------------------------------------

def test_a_battle_is_played_round_by_round_on_the_defenders_page(site, browser):
    srv, games, _ = site
    g, size = games["battle"], (1280, 720)
    ann, bob = g["tokens"][0], g["tokens"][1]
    bob_page = Page(browser, f"{srv.url}/game/{g['gid']}?token={bob}", size)
    page = bob_page.page
    watch_layer(page)
    assert page.locator("#anim-speed").input_value() == "normal"
    for step in ({"kind": "build", "what": "fortress", "where": "thera"}, {"kind": "place_troop", "where": "thera"},
                 {"kind": "land_move"}, {"kind": "origin", "where": "thera"}, {"kind": "take", "what": "troop", "n": 3},
                 {"kind": "destination", "where": "kythnos"}):
        decide(srv, g["gid"], ann, step)
    # The battle's first round on Bob's page: the dice beside Kythnos, a caption in words.
    page.wait_for_selector(".board-overlay .anim-round", timeout=T)
    assert "Round 1" in page.text_content(".board-overlay .anim-round")
    assert page.locator("#anim-stage .anim-caption").count() == 1
    shoot(page, f"battle-dice-{size[0]}x{size[1]}")
    page.wait_for_function("() => !window.cyclades.anim.busy", timeout=T)
    st = bob_page.state()
    seen = page.evaluate("() => window.seenAnimation.join(' ')")
    for kind in ("anim-piece anim-building", "anim-trail", "anim-round", "anim-float", "anim-ring"):
        assert kind in seen, (kind, seen)
    assert st["stats"]["events"].get("round") == 1 and st["stats"]["events"].get("casualty") == 1
    assert st["stats"]["events"].get("built") == 1 and st["stats"]["events"].get("land_move") == 1
    # Ann fights on: the second round, then Kythnos falls.
    decide(srv, g["gid"], ann, {"kind": "hold"})
    page.wait_for_function("() => window.cyclades.anim.stats.events.round === 2 && !window.cyclades.anim.busy",
                           timeout=T)
    st = bob_page.state()
    assert st["stats"]["events"].get("battle_won") == 1
    # Ann's last move stays marked on the board: Thera and Kythnos, in her colour.
    marked = page.locator(".board-underlay path.last-move[data-player='0']").evaluate_all(
        "els => els.map(e => e.dataset.area)")
    assert {"thera", "kythnos"} <= set(marked)
    # Ann's own page: the dice were rolled, so Undo says why it cannot go back.
    ann_page = Page(browser, f"{srv.url}/game/{g['gid']}?token={ann}", size, speed="off")
    ann_page.page.wait_for_selector("#undo-why")
    assert ann_page.page.inner_text("#undo-why") == "You cannot go back further: the dice have been rolled."
    assert ann_page.page.is_disabled("#undo")
    shoot(ann_page.page, f"undo-dice-{size[0]}x{size[1]}")
    ann_page.close()
    bob_page.close()


def test_others_moves_speed_skip_last_moves_and_since(site, browser):
    """A game against two bots from its start: the bots' placements are played on the board; Skip
    draws the board at once; "Off" stops the animations; when it is Ann's move again "since your
    last move" lists what the bots did, and their last moves are outlined."""
    srv, _, _ = site
    c = post(srv, "/api/games", {"players": 3, "seats": ["you", "random", "random"], "names": ["Ann"], "seed": 31,
                                 "bot_delay": 0.05})
    p = Page(browser, srv.url + c["seats"][0]["url"])
    page = p.page
    watch_layer(page)
    assert page.title().endswith("setup")  # not "cycle 0"
    skipped = since = False
    rng = random.Random(31)
    for _ in range(80):
        page.wait_for_function("() => { const s = window.cyclades; return s.anim.busy"
                               " || (s.legal.length > 0 && !s.sending); }", timeout=T)
        st = p.state()
        if skipped and since and not st["busy"]:
            break  # Ann's move: the bots wait for her, so the board and the state read below hold still
        if st["busy"]:
            if not skipped and st["stats"]["moves"] >= 4:
                shoot(page, "others-moves-1280x720")
                page.click("#anim-skip")  # Skip: the board as it is now, at once
                # (the bots go on moving: the next move may start at once, so the skip's end is
                # what is waited for, not an idle board)
                page.wait_for_function("() => window.cyclades.anim.stats.skips >= 1", timeout=3000)
                skipped = True
            else:
                page.wait_for_function("() => !window.cyclades.anim.busy", timeout=T)
            continue
        if st["since"] and not st["since"]["first_move"]:
            assert page.locator("#since li").count() >= 1
            # over its lines, no count of decisions (a move's several are one line)
            assert page.inner_text("#since summary").strip() == "Since your last move"
            if not since:
                shoot(page, "since-your-last-move-1280x720")
            since = True
        play_one_decision(page, rng)
        page.wait_for_function("(v) => window.cyclades.version > v", arg=st["version"], timeout=T)
    assert skipped and since
    st = p.state()
    assert st["stats"]["moves"] >= 4 and {"fleet", "control"} <= set(st["stats"]["events"]), st["stats"]
    seen = page.evaluate("() => window.seenAnimation.join(' ')")
    assert "anim-caption" in seen and "anim-piece" in seen
    bots = [m for m in st["last"] if m and m["player"] != 0]
    assert len(bots) == 2  # (an offering's last move names no area: the auction board shows it)
    for m in bots:
        marked = page.locator(f".board-underlay path.last-move[data-player='{m['player']}']")
        assert sorted(marked.evaluate_all("els => els.map(e => e.dataset.area)")) == sorted(m["areas"])
    # Off: the next states are drawn at once. (The bots go on moving meanwhile: the count is read
    # once the move being played when "Off" was chosen has been drawn.)
    page.select_option("#anim-speed", "off")
    page.wait_for_function("() => !window.cyclades.anim.busy", timeout=T)
    moves = p.state()["stats"]["moves"]
    play_until(page, rng, "s.view.phase === 'actions'")
    assert p.state()["stats"]["moves"] == moves
    assert page.evaluate("() => localStorage.getItem('cyclades.animationSpeed')") == "off"
    p.close()


# --- undo as at a real table ------------------------------------------------------------------------

def test_recruiting_pericles_is_taken_back_and_the_satyr_names_its_target(site, browser):
    srv, games, db = site
    g = games["hera"]
    p = Page(browser, f"{srv.url}/game/{g['gid']}?token={g['tokens'][0]}", speed="off")
    page = p.page
    gp = lambda: page.inner_text("#players article.player[data-player='0'] .stat.gp b")  # noqa: E731
    assert gp() == "6" and page.locator("#undo").count() == 0  # nothing done yet this turn
    page.click("#act button.action[data-kind='choose_building'][data-what='fortress']")
    page.wait_for_selector("svg path.area.legal[data-area='thera']")
    click_area(page, "thera")
    page.wait_for_function("() => window.cyclades.legal.some(a => a.kind === 'place_merc')")
    click_area(page, "thera")
    page.wait_for_selector("#tracks li.card.clickable[data-card='pericles']")
    page.click("#tracks li.card[data-card='pericles']")
    page.click("#popup .popup-item:has-text('Recruit Pericles for 4 GP')")
    page.wait_for_function("() => window.cyclades.legal.some(a => a.kind === 'place_hero')")
    assert gp() == "2"
    click_area(page, "thera")
    page.wait_for_function("() => window.cyclades.undo && window.cyclades.undo.steps === 5")
    shoot(page, "undo-pericles-1280x720")
    stored = Store(f"sqlite:///{db}")
    try:
        assert len(stored.load(g["gid"])["actions"]) == 5
        for left in (4, 3):  # the placement, then the recruit
            undos = p.state()["undos"]
            page.click("#undo")
            page.wait_for_function("(u) => window.cyclades.undos > u && !window.cyclades.sending", arg=undos)
            assert p.state()["undo"]["steps"] == left
        assert gp() == "6"
        assert page.locator("#tracks li.card.clickable[data-card='pericles']").count() == 1
        assert len(stored.load(g["gid"])["actions"]) == 3  # the record keeps only what stood
        # Ctrl+Z takes back one more: the mercenary.
        undos = p.state()["undos"]
        page.keyboard.press("Control+z")
        page.wait_for_function("(u) => window.cyclades.undos > u", arg=undos)
        assert page.evaluate("() => window.cyclades.legal.every(a => a.kind === 'place_merc')")
    finally:
        stored.close()
    click_area(page, "thera")
    # The Satyr takes a Philosopher from a player: the choice names Bob, not "player 1".
    page.wait_for_selector("#act button.action[data-kind='buy_creature'][data-what='satyr']")
    page.click("#act button.action[data-kind='buy_creature'][data-what='satyr']")
    page.wait_for_selector("#act button.action[data-kind='target_player']")
    labels = page.locator("#act button.action[data-kind='target_player']").all_inner_texts()
    assert labels == ["Target Bob"], labels
    p.close()


def test_a_click_on_the_new_choices_counts_before_the_answer_to_the_last_one(site, browser):
    """The live update of a decision often comes before the answer to its POST: the choices it
    shows take a click at once (a quick player's click is not lost)."""
    srv, games, _ = site
    g = games["hera-quick"]
    p = Page(browser, f"{srv.url}/game/{g['gid']}?token={g['tokens'][0]}", speed="off")
    page = p.page
    held = []  # the server's answers to the decisions, held back until the end

    def hold(route):
        held.append((route, route.fetch()))

    page.route(lambda url: "/api/games/hera-quick/actions" in url, hold)
    page.click("#act button.action[data-kind='choose_building'][data-what='fortress']")
    page.wait_for_selector("svg path.area.legal[data-area='thera']")  # the live update
    assert len(held) == 1  # its answer still on its way
    click_area(page, "thera")
    page.wait_for_function("() => window.cyclades.legal.some(a => a.kind === 'place_merc')")
    assert len(held) == 2
    for route, response in held:
        route.fulfill(response=response)
    page.wait_for_function("() => !window.cyclades.sending")
    p.close()


@pytest.mark.parametrize("mode", ["legendary-3", "legendary-2", "legendary-4-teams", "classic-3"])
def test_undo_in_every_mode(site, browser, mode):
    """In each mode, a decision of the player to move is taken back by clicking Undo: the same
    position and choices as before it."""
    srv, games, _ = site
    if mode == "classic-3":
        g = games["classic"]
        url = f"{srv.url}/game/{g['gid']}?token={g['tokens'][0]}"
    else:
        opts = {"legendary-3": {"players": 3}, "legendary-2": {"players": 2},
                "legendary-4-teams": {"players": 4, "teams": True}}[mode]
        c = post(srv, "/api/games", {**opts, "seats": ["you"] + ["random"] * (opts["players"] - 1), "seed": 5,
                                     "bot_delay": 0})
        url = srv.url + c["seats"][0]["url"]
    p = Page(browser, url, speed="off")
    page = p.page
    page.wait_for_function("() => window.cyclades.legal.length > 0", timeout=T)
    before = p.state()
    if mode == "classic-3":
        # The classic Fleet move: its words (the server's sentence), not "decide (voyage)".
        page.click("#act button.action[data-kind='fleet_move']")
        page.wait_for_function("(v) => window.cyclades.version > v", arg=before["version"])
        assert "You are making a Fleet move" in page.inner_text("#status")
        assert "decide (" not in page.inner_text("#act").lower()
    else:
        area = before["legal"][0]["where"]
        click_area(page, area)
        page.wait_for_function("(v) => window.cyclades.version > v", arg=before["version"])
    page.wait_for_selector("#undo:not([disabled])")
    page.click("#undo")
    page.wait_for_function("(u) => window.cyclades.undos > u", arg=before["undos"])
    after = p.state()
    assert after["version"] == before["version"] and after["legal"] == before["legal"]
    assert after["view"]["areas"] == before["view"]["areas"]
    p.close()


# --- words, hints, scrolling back ------------------------------------------------------------------

def test_a_hint_for_each_decision_and_ones_own_purse_in_scroll_back(site, browser):
    srv, _, _ = site
    c = post(srv, "/api/games", {"players": 3, "seats": ["you", "random", "random"], "seed": 44, "bot_delay": 0})
    p = Page(browser, srv.url + c["seats"][0]["url"], speed="off")
    page = p.page
    hints = 0
    for _ in range(40):
        page.wait_for_function("() => window.cyclades.legal.length > 0 && !window.cyclades.sending", timeout=T)
        if hints >= 14:
            break
        st = p.state()
        page.click("#hint-button")
        page.wait_for_selector("#hint-reason", timeout=T)
        hints += 1
        assert page.locator("#toast").is_hidden(), page.inner_text("#toast")
        follow_hint(page)
        page.wait_for_function("(v) => window.cyclades.version > v", arg=st["version"], timeout=T)
    assert hints >= 13, hints  # more than the 12 a minute once allowed
    # Scroll back, from this page: one's own purse is shown, the others' hidden.
    href = page.get_attribute("#scroll-back", "href")
    assert "token=" in href
    page.goto(srv.url + href)
    page.wait_for_selector("#players article.player .stat.gp b", timeout=T)
    purses = page.locator("#players article.player .stat.gp b").all_inner_texts()
    assert purses[0] != "?" and purses[1:] == ["?", "?"], purses
    p.close()


def follow_hint(page):
    """Play the hinted choice by clicking it: the page marks it (class "hinted")."""
    a = page.evaluate("() => window.cyclades.hint.action")
    if a["kind"] in ("bid", "apollo"):
        page.click(f"#auction li.god[data-god='{'apollo' if a['kind'] == 'apollo' else a['what']}']")
        page.click("#popup .hinted")
    elif a.get("where") and a["kind"] != "swap_creature":
        click_area(page, a["where"])
        if page.locator("#popup").is_visible():
            page.click("#popup .hinted")
    else:
        page.click("#act button.hinted")


# --- a whole game, by clicks, with the animations on ---------------------------------------------------

# Legendary with 3 players in every run; the classic game and two factions a seat on demand
# (`-m slow`, tests/README.md).
@pytest.mark.parametrize("mode", ["legendary-3", pytest.param("classic-3", marks=pytest.mark.slow(sample=False)),
                                  pytest.param("legendary-2", marks=pytest.mark.slow(sample=False))])
def test_a_whole_game_against_bots_by_clicks_with_animations(site, browser, mode):
    """A short game (a cycle limit) from its first decision to the end screen, played by clicks
    with the animations on (fast), in the Legendary, classic and two-factions-a-seat modes."""
    srv, _, _ = site
    opts = {"legendary-3": {"players": 3, "max_cycles": 2}, "legendary-2": {"players": 2, "max_cycles": 1},
            "classic-3": {"players": 3, "ruleset": "classic", "max_cycles": 3}}[mode]
    c = post(srv, "/api/games", {**opts, "seats": ["you"] + ["beginner"] * (opts["players"] - 1), "names": ["Ann"],
                                 "seed": 77, "bot_delay": 0})
    t0 = time.monotonic()
    p = Page(browser, srv.url + c["seats"][0]["url"], speed="fast")
    page = p.page
    decisions = play_until(page, random.Random(77), "s.view.over && !s.anim.busy")
    page.wait_for_selector("#result:not([hidden]) .result-card", timeout=T)
    st = p.state()
    assert st["view"]["over"] and decisions >= 5
    assert st["stats"]["moves"] >= 10, st["stats"]  # the bots' moves were played on the board
    assert {"offering"} <= set(st["stats"]["events"]) and {"troop", "fleet", "moved"} & set(st["stats"]["events"])
    shoot(page, f"whole-game-{mode}-1280x720")
    p.close()
    assert time.monotonic() - t0 < 240
