"""The lobby in a real headless Chromium against a real server (issues 12 and 13): every
mode is created by clicking, a friend's seat gets its own invitation link with a copy
button, an open seat is taken with its Join button by another person, and the host gives
an absent friend's seat to a bot.

Needs Debian's chromium (/usr/bin/chromium) and Playwright for Python (skipped, saying
which is missing, otherwise). Playwright's own browser downloads are never used.
"""
from __future__ import annotations

import json
import urllib.request

import pytest
from serverproc import browser_server, launch

TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with browser_server(tmp_path_factory.mktemp("lobby")) as srv:  # tests/serverproc.py
        yield srv


@pytest.fixture(scope="module")
def browser(server):
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = launch(p)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def host(browser, server):
    """The creator's page: one browser context (its localStorage keeps the host tokens)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(TIMEOUT_MS)
    try:
        ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    except Exception:
        pass
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat")
    yield page
    ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def api(server, path):
    with urllib.request.urlopen(server.url + path, timeout=10) as r:
        return json.loads(r.read())


def listed(server, gid):
    return next(g for g in api(server, "/api/games")["games"] if g["game_id"] == gid)


def created_game_id(page) -> str:
    page.wait_for_selector("#created:not([hidden])")
    url = page.locator("#created .link-row input").last.input_value()  # the spectators' link
    return url.rsplit("/game/", 1)[1]


def test_a_legendary_two_player_game_with_a_friend(host, server):
    page = host
    page.select_option("#ruleset", "legendary")
    page.select_option("#players", "2")
    # 2 players always play in teams, each person running the two factions of a team (R22).
    assert page.is_checked("#teams") and page.is_disabled("#teams")
    assert page.locator("#seats .seat").count() == 2
    assert page.locator("#seats .seat[data-row='0'] .swatch").count() == 2
    page.select_option("#team-goal", "4")
    page.select_option("select[data-seat='0']", "you")
    page.fill("input[name='name-0']", "Ann")
    page.select_option("select[data-seat='1']", "invite")
    page.fill("input[name='name-1']", "Bob")
    page.click("#create")
    gid = created_game_id(page)
    g = listed(server, gid)
    assert (g["players"], g["ruleset"], g["teams"], g["team_goal"]) == (2, "legendary", True, 4)
    assert [s["factions"] for s in g["seats"]] == [[0, 2], [1, 3]]
    # The friend's seat has its own invitation link, with a copy button.
    invite = page.locator("#created [data-invite='1']")
    link = invite.locator("input").input_value()
    assert "token=" in link and link != page.locator("#open-seat").get_attribute("href")
    invite.locator("button.copy").click()
    page.wait_for_function("() => [...document.querySelectorAll('#created [data-invite] button.copy')]"
                           ".some(b => b.textContent !== 'copy')")
    if page.locator("#created [data-invite='1'] button.copy").inner_text() == "copied":
        assert page.evaluate("() => navigator.clipboard.readText()") == link
    # Nobody joins Bob's seat from the list: it has no Join button.
    page.click("#refresh")
    page.wait_for_selector(f"tr[data-game='{gid}']")
    assert page.locator(f"[data-join^='{gid}:']").count() == 0
    # Bob does not come: the host gives his seat to a bot from the list.
    row = page.locator(f"tr[data-game='{gid}']")
    row.locator("details.host-seats summary").click()
    row.locator("details.host-seats select").nth(1).select_option("random")
    row.locator(f"[data-replace='{gid}:1']").click()
    page.wait_for_function(f"() => document.querySelector(\"tr[data-game='{gid}'] .seat-chip.bot\")")
    assert listed(server, gid)["seats"][1]["kind"] == "random"
    # Ann opens her seat: the game page, and she plays factions 0 and 2.
    page.click("#open-seat")
    page.wait_for_url("**/game/**token=**")
    page.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
    assert page.evaluate("() => window.cyclades.seat") == 0


def test_a_six_player_team_game_and_joining_its_open_seat(host, server, browser):
    page = host
    page.select_option("#players", "6")
    assert page.is_checked("#teams") and page.is_disabled("#teams")
    assert page.locator("#seats .seat").count() == 6
    assert page.locator("#seats .seat-team").all_inner_texts() == [f"team {t}" for t in (1, 2, 3, 1, 2, 3)]
    page.select_option("select[data-seat='0']", "you")
    page.select_option("select[data-seat='1']", "open")
    for seat in range(2, 6):
        page.select_option(f"select[data-seat='{seat}']", "random")
    page.select_option("#board", "recommended")
    page.click("#create")
    gid = created_game_id(page)
    g = listed(server, gid)
    assert (g["players"], g["teams"], g["board"]) == (6, True, "recommended")
    assert [s["kind"] for s in g["seats"]] == ["human", "human"] + ["random"] * 4
    assert g["seats"][1]["open"] and not g["seats"][1]["joined"]
    assert page.locator("#created [data-invite]").count() == 0  # an open seat has no link yet

    # Someone else, in another browser, joins the open seat with its Join button.
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.set_default_timeout(TIMEOUT_MS)
    try:
        other = ctx.new_page()
        other.goto(server.url + "/")
        button = other.locator(f"[data-join='{gid}:1']")
        button.wait_for()
        assert other.locator(f"[data-join='{gid}:0']").count() == 0  # the host's seat is not open
        button.click()
        other.wait_for_url("**/game/**token=**")
        token = other.url.split("token=", 1)[1]
        assert token not in page.content()  # made at the join, never handed to anyone else
        other.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
        assert other.evaluate("() => window.cyclades.seat") == 1
    finally:
        ctx.close()
    assert listed(server, gid)["seats"][1]["joined"] is True
    page.click("#refresh")
    page.wait_for_selector(f"tr[data-game='{gid}']")
    assert page.locator(f"[data-join='{gid}:1']").count() == 0  # taken: no Join button any more


def test_a_classic_five_player_game(host, server):
    page = host
    page.select_option("#ruleset", "classic")
    # The classic game: 2 to 5 players, no teams, no Maelström, its own board.
    assert page.is_disabled("#players option[value='6']")
    assert page.is_disabled("#teams") and not page.is_checked("#teams")
    assert page.is_disabled("#maelstrom") and not page.is_checked("#maelstrom")
    assert page.is_disabled("#board")
    page.select_option("#players", "5")
    assert page.locator("#seats .seat").count() == 5
    page.select_option("select[data-seat='0']", "you")
    for seat in range(1, 5):
        page.select_option(f"select[data-seat='{seat}']", "random")
    page.click("#create")
    gid = created_game_id(page)
    g = listed(server, gid)
    assert (g["players"], g["ruleset"], g["teams"], g["maelstrom"]) == (5, "classic", False, False)
    assert page.locator("#created .link-row").count() == 2  # your seat and the spectators
    page.click("#open-seat")
    page.wait_for_url("**/game/**token=**")
    page.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
    assert page.evaluate("() => window.cyclades.view.ruleset") == "classic"
