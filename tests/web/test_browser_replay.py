"""The end screen and the replay viewer in a real headless Chromium.

A finished all-bot game (random bots, no delay, 3 cycles) shows its end screen: the
winner, the chart with one line per player, the record to download (it replays to the
same result) and a rematch with the same seats. The replay viewer steps back and forward,
by decision and by cycle (buttons, keys, slider), the board and the log in step; a record
file opens in it, a malformed one is refused with the server's message; a running game's
spectator scrolls back and the viewer follows the game. No JavaScript errors.

Needs Debian's chromium and Playwright for Python (skipped, saying which, without them).
"""
from __future__ import annotations

import json
import time

import httpx
import pytest
from serverproc import browser_server, chromium, wait_over, wait_turn

import cyclades

T = 15_000  # ms for anything the page waits on


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with browser_server(tmp_path_factory.mktemp("browser-replay")) as srv:  # tests/serverproc.py
        yield srv


@pytest.fixture(scope="module")
def api(server):
    with httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


@pytest.fixture(scope="module")
def finished(api):
    r = api.post("/api/games", json={"players": 3, "seats": ["random"] * 3, "names": ["Ann", "Bob", "Cleo"],
                                     "max_cycles": 3, "bot_delay": 0, "seed": 21})
    gid = r.json()["game_id"]
    return gid, wait_over(api, gid)


@pytest.fixture(scope="module")
def browser(server):
    with chromium() as b:
        yield b


class Watch:
    """A page's JavaScript errors and failed requests (expected refusals excepted)."""

    def __init__(self, page, server, allowed=()):
        self.errors, self.outside = [], []
        self.allowed = allowed
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("console", lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None)
        page.on("request", lambda r: self.outside.append(r.url)
                if not r.url.startswith((server.url, "data:", "blob:", "ws://127.0.0.1")) else None)

    def check(self):
        bad = [e for e in self.errors if not any(a in e for a in self.allowed)]
        assert not bad, bad
        assert not self.outside, f"requests outside the server: {self.outside[:5]}"


def replay_state(page):
    return page.evaluate("""() => { const s = window.cycladesReplay;
        return {step: s.step, steps: s.steps, logEnd: s.logEnd, cycles: s.cycles, over: s.over,
                following: s.following, pub: s.public}; }""")


def at_step(page, n):
    page.wait_for_function("(n) => window.cycladesReplay && window.cycladesReplay.step === n", arg=n, timeout=T)


def log_in_step(page, n):
    """The log shows the lines up to step n, the lines of decision n highlighted."""
    s = replay_state(page)
    shown = page.locator("#log li:not(.future)").count()
    assert shown == s["logEnd"][n]
    current = page.locator("#log li.current").count()
    assert current == (s["logEnd"][n] - s["logEnd"][n - 1] if n else 0)


def test_end_screen_chart_download_and_rematch(server, api, browser, finished, tmp_path):
    gid, g = finished
    result = g["view"]["result"]
    page = browser.new_page(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    watch = Watch(page, server)
    page.goto(f"{server.url}/game/{gid}")
    page.wait_for_selector("#result:not([hidden]) .result-card svg.timeline", timeout=T)
    card = page.locator("#result .result-card")
    names = ["Ann", "Bob", "Cleo"]
    winners = [names[p] for p in result["winners"]]
    title = card.locator("h2").first.inner_text()
    assert all(w in title for w in winners), title
    # One line per player in each panel: GP and metropolises, one point per cycle and the setup.
    assert card.locator("svg.timeline path.series.gp").count() == 3
    assert card.locator("svg.timeline path.series.metro").count() == 3
    assert card.locator("svg.timeline circle.dot.gp").count() == 3 * (result["cycles"] + 1)
    assert sorted(card.locator(".chart-legend .legend-item").all_inner_texts()) == names
    page.screenshot(path=str(tmp_path / "end-1280.png"))

    # The record downloads, and replays to the same result.
    with page.expect_download(timeout=T) as dl:
        card.locator("#download-record").click()
    path = tmp_path / "record.json"
    dl.value.save_as(path)
    record = json.loads(path.read_text())
    replayed = cyclades.Game.from_record(record).result()
    for k in ("winners", "gp", "metropolises"):
        assert replayed[k] == result[k], k
    assert card.locator("#watch-replay").get_attribute("href") == f"/replay/{gid}"

    # Rematch: a new game, the same seats; this page goes there.
    card.locator("#rematch").click()
    page.wait_for_url(lambda u: "/game/" in u and gid not in u, timeout=T)
    new_id = page.url.rstrip("/").split("/game/")[1].split("?")[0]
    ng = api.get(f"/api/games/{new_id}").json()
    assert [(s["kind"], s["name"]) for s in ng["seats"]] == [(s["kind"], s["name"]) for s in g["seats"]]
    assert api.get(f"/api/games/{gid}/rematch").json()["rematch"]["game_id"] == new_id
    page.wait_for_selector("#scroll-back", timeout=T)
    assert page.get_attribute("#scroll-back", "href") == f"/replay/{new_id}?step=last"

    # On a phone too: the card scrolls, the chart is there.
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    watch2 = Watch(phone, server)
    phone.goto(f"{server.url}/game/{gid}")
    phone.wait_for_selector("#result:not([hidden]) svg.timeline", timeout=T)
    phone.wait_for_selector("#rematch-notice a#join-rematch", timeout=T)  # someone started one
    box = phone.locator("#result .result-card").bounding_box()
    assert box["width"] <= 390 and box["x"] >= 0
    phone.screenshot(path=str(tmp_path / "end-390.png"))
    phone.close()
    page.close()
    watch.check()
    watch2.check()


def test_replay_viewer_steps_by_decision_and_cycle(server, api, browser, finished, tmp_path):
    gid, g = finished
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    watch = Watch(page, server)
    page.goto(f"{server.url}/replay/{gid}")
    at_step(page, 0)
    s = replay_state(page)
    n = s["steps"]
    assert s["over"] and n == len(api.get(f"/api/games/{gid}/record").json()["actions"])
    # The board is drawn by board.js from the geometry: every area.
    assert page.locator("svg#board path.area").count() == len(g["view"]["areas"])
    assert page.locator("#players .player").count() == 3
    log_in_step(page, 0)
    pieces = lambda: page.inner_html("svg#board .pieces")  # noqa: E731
    before = pieces()

    page.click("#next")
    at_step(page, 1)
    log_in_step(page, 1)
    assert pieces() != before, "the first decision shows on the board"
    assert "Decision 1" in page.inner_text("#where")
    assert page.locator("#status .rp-decided").count() == 1

    page.keyboard.press("ArrowRight")
    at_step(page, 2)
    log_in_step(page, 2)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    at_step(page, 0)
    assert pieces() == before, "back at the start, the board is as it was"
    log_in_step(page, 0)

    # By cycle: the next cycle begins; its first lines say so.
    starts = [step for c, step in s["cycles"] if c > 0]
    page.click("#next-cycle")
    at_step(page, starts[0])
    log_in_step(page, starts[0])
    assert "Cycle 1 begins" in " ".join(page.locator("#log li.current").all_inner_texts())
    page.keyboard.press("ArrowDown")
    at_step(page, starts[1])
    assert "Cycle 2" in page.inner_text("#where")
    page.keyboard.press("ArrowUp")
    at_step(page, starts[0])
    page.click("#prev-cycle")
    at_step(page, 0)

    # The slider, and the end: the result.
    page.eval_on_selector("#slider", "(el, v) => { el.value = v; el.dispatchEvent(new Event('input')); }", n // 2)
    at_step(page, n // 2)
    log_in_step(page, n // 2)
    page.keyboard.press("End")
    at_step(page, n)
    log_in_step(page, n)
    assert "The game is over" in page.inner_text("#status")
    assert page.locator("#chart svg.timeline path.series.gp").count() == 3
    # A click on a log line goes to its decision.
    page.locator("#log li[data-line='0']").click()
    at_step(page, next(k for k in range(n + 1) if s["logEnd"][k] > 0))
    assert page.url.endswith(f"step={replay_state(page)['step']}")
    page.screenshot(path=str(tmp_path / "replay-1280.png"))

    phone = browser.new_page(viewport={"width": 390, "height": 844})
    watch2 = Watch(phone, server)
    phone.goto(f"{server.url}/replay/{gid}?step=40")
    at_step(phone, 40)
    log_in_step(phone, 40)
    phone.click("#next")
    at_step(phone, 41)
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    phone.screenshot(path=str(tmp_path / "replay-390.png"))
    phone.close()
    page.close()
    watch.check()
    watch2.check()


def test_open_a_record_file_and_refuse_a_malformed_one(server, api, browser, finished, tmp_path):
    gid, g = finished
    record = api.get(f"/api/games/{gid}/record").json()
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    watch = Watch(page, server, allowed=("status of 422",))
    page.goto(f"{server.url}/replay")
    page.wait_for_selector("#open:not([hidden])", timeout=T)
    page.set_input_files("#file", files=[{"name": "bad.json", "mimeType": "application/json",
                                          "buffer": b'{"format": 1, "options": {}'}])
    page.wait_for_selector("#open-error:not([hidden])", timeout=T)
    assert "not JSON" in page.inner_text("#open-error")
    bad = {**record, "actions": record["actions"][:4] + [{"kind": "bid", "what": "zeus", "n": 99}]}
    page.set_input_files("#file", files=[{"name": "bad2.json", "mimeType": "application/json",
                                          "buffer": json.dumps(bad).encode()}])
    page.wait_for_function("() => document.getElementById('open-error').textContent.includes('decision 5')", timeout=T)
    assert page.locator("#viewer").is_hidden()

    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    page.set_input_files("#file", str(path))
    page.wait_for_url("**/replay/up-*", timeout=T)
    at_step(page, 0)
    s = replay_state(page)
    assert s["steps"] == len(record["actions"]) and s["over"]
    page.keyboard.press("End")
    at_step(page, s["steps"])
    winners = g["view"]["result"]["winners"]
    assert all(f"Player {p + 1}" in page.inner_text("#status") for p in winners)

    # ?url= a record this server serves: the game's own replay.
    page.goto(f"{server.url}/replay?url=/api/games/{gid}/record")
    page.wait_for_url(f"**/replay/{gid}**", timeout=T)
    at_step(page, 0)
    page.close()
    watch.check()


def test_a_spectator_scrolls_back_through_a_running_game(server, api, browser):
    r = api.post("/api/games", json={"players": 3, "seats": ["human", "random", "random"],
                                     "names": ["Ann", None, None], "bot_delay": 0})
    gid = r.json()["game_id"]
    token = r.json()["seats"][0]["token"]

    def ann_moves() -> int:
        """Ann plays her first legal action; the bots answer. The replay's steps once they have
        (the game then waits on Ann: it holds still until she moves)."""
        g = wait_turn(api, gid, token, time.monotonic() + T / 1000)
        a = g["legal_actions"][0]
        a = {k: a[k] for k in ("kind", "what", "where", "n") if k in a}
        assert api.post(f"/api/games/{gid}/actions",
                        json={"token": token, "version": g["version"], "action": a}).status_code == 200
        wait_turn(api, gid, token, time.monotonic() + T / 1000)
        return api.get(f"/api/replays/{gid}").json()["steps"]

    steps = ann_moves()
    game = browser.new_page(viewport={"width": 1280, "height": 720})
    watch = Watch(game, server)
    game.goto(f"{server.url}/game/{gid}")
    game.wait_for_selector("#scroll-back", timeout=T)
    href = game.get_attribute("#scroll-back", "href")
    assert href == f"/replay/{gid}?step=last"
    assert game.get_attribute("#scroll-back", "target") == "_blank"

    page = browser.new_page(viewport={"width": 1280, "height": 720})
    watch2 = Watch(page, server)
    page.goto(server.url + href)
    at_step(page, steps)  # the last step: the game waits on Ann, so nothing comes after it meanwhile
    s = replay_state(page)
    assert s["steps"] == steps and s["pub"] and not s["over"] and s["following"]
    assert "following the game" in page.inner_text("#where")
    # GP are hidden from a spectator (R24), here as in the game.
    assert set(page.locator("#players .stat.gp b").all_inner_texts()) == {"?"}
    page.wait_for_selector("#live.live", timeout=T)
    # Back a decision; then the game goes on: the viewer stays where it is...
    page.click("#prev")
    at_step(page, steps - 1)
    more = ann_moves()
    page.wait_for_function("(n) => window.cycladesReplay.steps === n", arg=more, timeout=T)
    assert more > steps and replay_state(page)["step"] == steps - 1
    # ...and, at the end again, follows it.
    page.keyboard.press("End")
    at_step(page, more)
    last = ann_moves()
    at_step(page, last)
    log_in_step(page, last)
    page.close()
    game.close()
    watch.check()
    watch2.check()
