"""The lobby in a real headless Chromium against a real server: every mode is created by
clicking and the creator's seat opens by itself, a friend's seat gets its own invitation link
with a copy button (on the creator's game page, until the friend comes), an open seat is taken
with its Join button by another person, the host gives an absent friend's seat to a bot, the
list shows neither lessons nor abandoned games and filters by mode, and a wrong or stale link
explains itself.

Needs Debian's chromium (/usr/bin/chromium) and Playwright for Python (skipped, saying
which is missing, otherwise). Playwright's own browser downloads are never used.
"""
from __future__ import annotations

import contextlib

import pytest
from playwright.sync_api import expect
from serverproc import api_get, api_post, browser_server, chromium

TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with browser_server(tmp_path_factory.mktemp("lobby")) as srv:  # tests/serverproc.py
        yield srv


@pytest.fixture(scope="module")
def browser(server):
    with chromium() as b:
        yield b


@pytest.fixture
def host(browser, server):
    """The creator's page: one browser context (its localStorage keeps the host tokens)."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(TIMEOUT_MS)
    with contextlib.suppress(Exception):
        ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.url)
    page = ctx.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat")
    yield page
    ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def listed(server, gid):
    return next(g for g in api_get(server, "/api/games")["games"] if g["game_id"] == gid)


def created_game_id(page) -> str:
    """After "Create the game": the creator's seat opens by itself."""
    page.wait_for_url("**/game/**token=**")
    page.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
    assert page.evaluate("() => window.cyclades.seat") == 0
    return page.url.split("/game/", 1)[1].split("?", 1)[0]


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
    # The friend's seat has its own invitation link, with a copy button, on Ann's game page.
    invite = page.locator("#invites [data-invite='1']")
    link = invite.locator("input").input_value()
    assert "token=" in link and link.split("token=")[1] != page.url.split("token=")[1]
    invite.locator("button").click()
    page.wait_for_function("() => document.querySelector('#invites [data-invite] button').textContent !== 'copy'")
    if invite.locator("button").inner_text() == "copied":
        assert page.evaluate("() => navigator.clipboard.readText()") == link
    ann = page.url
    # Nobody joins Bob's seat from the list: it has no Join button.
    page.goto(server.url + "/")
    page.wait_for_selector(f"tr[data-game='{gid}']")
    assert page.locator(f"[data-join^='{gid}:']").count() == 0
    # Bob does not come: the host gives his seat to a bot from the list.
    row = page.locator(f"tr[data-game='{gid}']")
    row.locator("details.host-seats summary").click()
    row.locator("details.host-seats select").nth(1).select_option("random")
    row.locator(f"[data-replace='{gid}:1']").click()
    page.wait_for_function(f"() => document.querySelector(\"tr[data-game='{gid}'] .seat-chip.bot\")")
    assert listed(server, gid)["seats"][1]["kind"] == "random"
    # Back on Ann's page the invitation is gone: the game goes on, and she plays factions 0 and 2.
    page.goto(ann)
    page.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
    assert page.evaluate("() => window.cyclades.factions") == [0, 2]
    assert page.locator("#invites").count() == 0


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
    assert page.locator("#invites").count() == 0  # an open seat has no link: the list's Join

    # Someone else, in another browser, joins the open seat with its Join button.
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ctx.set_default_timeout(TIMEOUT_MS)
    try:
        other = ctx.new_page()
        other.goto(server.url + "/")
        button = other.locator(f"[data-join='{gid}:1']")
        button.wait_for()
        expect(other.locator(f"[data-join='{gid}:0']")).to_have_count(0)  # the host's seat is not open
        button.click()
        other.wait_for_url("**/game/**token=**")
        token = other.url.split("token=", 1)[1]
        assert token not in page.content()  # made at the join, never handed to anyone else
        other.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
        assert other.evaluate("() => window.cyclades.seat") == 1
    finally:
        ctx.close()
    assert listed(server, gid)["seats"][1]["joined"] is True
    page.goto(server.url + "/")
    page.wait_for_selector(f"tr[data-game='{gid}']")
    # taken: no Join button any more, once the list has been read again (the lobby may show the
    # list it had before while it asks)
    expect(page.locator(f"[data-join='{gid}:1']")).to_have_count(0)


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
    assert page.evaluate("() => window.cyclades.view.ruleset") == "classic"


def test_the_list_leaves_out_lessons_and_filters_by_mode(host, server):
    page = host
    lesson = api_post(server, "/api/tutorial", {"lesson": "offerings"})["game_id"]
    classic = api_post(server, "/api/games", {"players": 3, "ruleset": "classic",
                                              "seats": ["invite", "random", "random"]})
    legendary = api_post(server, "/api/games", {"players": 3, "seats": ["invite", "random", "random"]})
    page.click("#refresh")
    page.wait_for_selector(f"tr[data-game='{legendary['game_id']}']")
    rows = page.locator("table.games tbody tr").evaluate_all("rows => rows.map(r => r.dataset.game)")
    assert lesson not in rows
    assert rows.index(legendary["game_id"]) < rows.index(classic["game_id"])  # newest first
    page.select_option("#mode-filter", "classic")
    page.wait_for_selector(f"tr[data-game='{legendary['game_id']}']", state="detached")
    rows = page.locator("table.games tbody tr").evaluate_all("rows => rows.map(r => r.dataset.game)")
    assert classic["game_id"] in rows
    assert all(t == "classic 2009" for t in page.locator("table.games tbody tr td:first-child .muted")
               .evaluate_all("els => els.map(e => e.textContent.split(' · ')[1])"))
    page.select_option("#mode-filter", "")
    page.select_option("#status-filter", "waiting")
    page.wait_for_function("() => !document.querySelector('table.games tbody tr:not(.waiting)')", timeout=15_000)
    page.wait_for_selector(f"tr[data-game='{legendary['game_id']}']")
    assert page.locator("table.games tbody tr:not(.waiting)").count() == 0


def test_a_wrong_or_stale_link_explains_itself(browser, server):
    game = api_post(server, "/api/games", {"players": 3, "seats": ["invite", "random", "random"]})
    gid = game["game_id"]
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{server.url}/game/{gid}?token=not-a-seat-of-it")
        page.wait_for_selector("#wrong-link")
        assert page.locator("#wrong-link h2").inner_text() == "This invitation link does not open a seat"
        assert page.locator("#conn").inner_text() == "not connected"
        assert page.locator("#to-lobby").get_attribute("href") == "/"
        page.click("#watch-game")
        page.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
        assert page.evaluate("() => window.cyclades.seat") is None  # a spectator
        assert page.locator("#wrong-link").count() == 0
        page.goto(f"{server.url}/game/no-such-game?token=x")
        page.wait_for_selector("#wrong-link")
        assert page.locator("#wrong-link h2").inner_text() == "There is no such game"
        assert page.locator("#watch-game").count() == 0
        page.click("#to-lobby")
        page.wait_for_selector("#seats .seat")
    finally:
        page.close()
