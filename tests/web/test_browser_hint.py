"""The hint and the win-chance chart in a real headless Chromium.

A person at the table asks for a hint: the decision panel's "Hint" button (only on their
move) asks the server, the hinted choice wears the legal choices' highlight, pulsing (its area
on the map, its button, its god), and the reason is shown as text. The end screen of a
finished game shows each player's chance to win, cycle by cycle, next to the GP and
metropolises chart; so does the replay viewer. Screenshots at 1280x720 and 390x844 are left
in the test's temporary directory (CYCLADES_SHOTS=dir keeps them there instead).

Needs Debian's chromium and Playwright for Python (skipped, saying which, without them).
"""
from __future__ import annotations

import os
import time
from pathlib import Path

import httpx
import pytest
from serverproc import browser_server, chromium, wait_over

T = 30_000  # ms for anything the page waits on (a hint searches for up to ~2 s on a loaded machine)
SIZES = [(1280, 720), (390, 844)]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with browser_server(tmp_path_factory.mktemp("browser-hint")) as srv:  # tests/serverproc.py
        yield srv


@pytest.fixture(scope="module")
def api(server):
    with httpx.Client(base_url=server.url, timeout=60) as c:
        yield c


@pytest.fixture(scope="module")
def browser(server):
    with chromium() as b:
        yield b


@pytest.fixture
def shots(tmp_path):
    d = Path(os.environ.get("CYCLADES_SHOTS") or tmp_path)
    d.mkdir(parents=True, exist_ok=True)
    return d


def errors_of(page):
    errors = []
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: errors.append(f"console: {m.text}") if m.type == "error" else None)
    return errors


def hinted_state(page):
    return page.evaluate("""() => { const s = window.cyclades;
        return {hint: s.hint, legal: s.legal, version: s.version}; }""")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_hint_highlights_a_legal_choice_with_its_reason(server, api, browser, shots, size):
    r = api.post("/api/games", json={"players": 3, "seats": ["you", "greedy", "greedy"],
                                     "names": ["Ann", "Bob", "Cleo"], "seed": 31, "bot_delay": 0})
    created = r.json()
    gid, token = created["game_id"], created["seats"][0]["token"]
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors = errors_of(page)
    page.goto(f"{server.url}/game/{gid}?token={token}")
    page.wait_for_selector("#act.your-move #hint-button", timeout=T)
    # A spectator has no Hint button.
    page.locator("#hint-button").click()
    page.wait_for_selector("#hint-reason", timeout=T)
    reason = page.locator("#hint-reason").inner_text()
    assert reason.startswith("Hint: ") and len(reason) > 15, reason
    s = hinted_state(page)
    action = s["hint"]["action"]
    assert action in [{k: v for k, v in a.items() if k != "text"} for a in s["legal"]], (action, s["legal"])
    assert s["hint"]["reason"] in reason
    # The hinted choice wears the highlight of the legal choices, pulsing.
    if action.get("where"):
        ring = page.locator(f'#board .mark.hint-ring[data-area="{action["where"]}"]')
        assert ring.count() == 1
        assert page.locator(f'#board .area.legal[data-area="{action["where"]}"], #board .mark.legal-ring').count() >= 1
        assert ring.evaluate("el => getComputedStyle(el).animationName") == "hint-ring"
    else:
        assert page.locator(".hinted").count() >= 1
    assert page.locator("#hint-button").is_disabled()  # one hint per decision, already shown
    page.screenshot(path=str(shots / f"hint-{size[0]}x{size[1]}.png"))
    # Following the hint plays it; the next decision has no hint until asked.
    before = s["version"]
    if action.get("where"):
        page.evaluate("""(a) => document.querySelector(`#board [data-area="${a}"]`) &&
                         document.querySelector(`#board .area[data-area="${a}"]`)
                             .dispatchEvent(new MouseEvent('click', {bubbles: true}))""",
                      action["where"])
        page.wait_for_function("(v) => window.cyclades.version > v", arg=before, timeout=T)
        page.wait_for_function("() => !document.querySelector('#hint-reason')", timeout=T)
    if size == SIZES[0]:
        offering_hint(server, api, page, gid, token, shots, size)
    assert not errors, errors
    page.close()


def offering_hint(server, api, page, gid, token, shots, size):
    """Through the setup (the first legal action each time, over HTTP) to the first offering:
    the hinted god is highlighted on the auction board and among the god buttons."""
    for _ in range(60):
        st = api.get(f"/api/games/{gid}", params={"token": token}).json()
        if st["view"]["phase"] == "offerings" and st["legal_actions"]:
            break
        if st["legal_actions"]:
            r = api.post(f"/api/games/{gid}/actions", json={"token": token, "version": st["version"],
                                                            "action": st["legal_actions"][0]})
            assert r.status_code == 200, r.text
        else:
            time.sleep(0.1)
    else:
        raise AssertionError("no offering to make")
    page.reload()
    page.wait_for_selector("#act.your-move #hint-button", timeout=T)
    page.locator("#hint-button").click()
    page.wait_for_selector("#hint-reason", timeout=T)
    action = hinted_state(page)["hint"]["action"]
    god = "apollo" if action["kind"] == "apollo" else action["what"]
    assert page.locator(f'#auction li.god.hinted[data-god="{god}"]').count() == 1
    assert page.locator(f'#act .god-button.hinted[data-god="{god}"]').count() == 1
    page.screenshot(path=str(shots / f"hint-offering-{size[0]}x{size[1]}.png"))
    if action["kind"] == "bid":  # the popup of amounts highlights the hinted one
        page.locator(f'#act .god-button[data-god="{god}"]').click()
        page.wait_for_selector(f'#popup .amount.hinted[data-amount="{action["n"]}"]', timeout=T)
        page.screenshot(path=str(shots / f"hint-offering-popup-{size[0]}x{size[1]}.png"))


@pytest.fixture(scope="module")
def finished(api):
    r = api.post("/api/games", json={"players": 3, "seats": ["greedy"] * 3, "names": ["Ann", "Bob", "Cleo"],
                                     "max_cycles": 6, "bot_delay": 0, "seed": 8})
    gid = r.json()["game_id"]
    return gid, wait_over(api, gid, timeout=90)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_end_screen_and_the_replay_show_the_chances(server, api, browser, finished, shots, size):
    gid, g = finished
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors = errors_of(page)
    page.goto(f"{server.url}/game/{gid}")
    page.wait_for_selector("#result:not([hidden]) #chances-chart svg.chances", timeout=T)
    card = page.locator("#result .result-card")
    assert card.locator("svg.chances path.series.chance").count() == 3
    cycles = g["view"]["result"]["cycles"]
    assert card.locator("svg.chances circle.dot.chance").count() == 3 * (cycles + 1)
    # the GP chart next to it (fetched on its own: wait for it too)
    page.wait_for_selector("#result .result-card svg.timeline:not(.chances)", timeout=T)
    assert card.locator("svg.timeline:not(.chances)").count() == 1
    page.locator("#chances-chart").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"chances-end-{size[0]}x{size[1]}.png"))
    page.goto(f"{server.url}/replay/{gid}?step=40")
    page.wait_for_selector("#chart svg.chances", timeout=T)
    assert page.locator("#chart svg.chances .cursor").count() == 1
    page.locator("#chart svg.chances").scroll_into_view_if_needed()
    page.screenshot(path=str(shots / f"chances-replay-{size[0]}x{size[1]}.png"))
    assert not errors, errors
    page.close()
