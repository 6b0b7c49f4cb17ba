"""Two people with accounts in a real headless Chromium, against a real server on SQLite and on
PostgreSQL (conftest.db_url): they sign up and log in, "Play now" seats them at one table with
a bot, they talk at the table, the game ends (one cycle: `--play-now-max-cycles 1`; their
decisions random legal ones over HTTP while their pages follow), both profiles and the
leaderboard show it and the ratings moved. And a guest who played by link keeps the seat by
creating an account.

Ann uses a laptop (1280x720), Bob a phone (390x844). Screenshots of every page go to pytest's
tmp dir, and to $CYCLADES_SHOTS when set.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from people import PASSWORD, game_of, play_out, token_of
from serverproc import CHROMIUM, START_SECONDS, chromium, chromium_missing

from cyclades.server.testing import ServerProcess

pytestmark = [
    pytest.mark.skipif(chromium_missing() is not None, reason=chromium_missing() or ""),
    # The pages on the embedded database only: what the browser does is the same on both, and
    # the accounts' and tables' storage runs on both in test_accounts.py and test_play_now.py.
    pytest.mark.parametrize("db_url", ["sqlite"], indirect=True, scope="module"),
]
TIMEOUT_MS = 20_000
ARGS = ["--play-now-max-cycles", "1", "--table-sweep-seconds", "0.2"]


@pytest.fixture(scope="module")
def server(db_url, tmp_path_factory):
    log = tmp_path_factory.mktemp("browser-accounts") / "server.log"
    srv = ServerProcess(db_url, bot_delay=0.0, args=ARGS, log_path=str(log), timeout=START_SECONDS)
    with srv:
        try:
            yield srv
        finally:
            srv.stop()
            print("--- server log (tail) ---")
            print(srv.log_tail())


@pytest.fixture(scope="module")
def browser(server):
    assert Path(CHROMIUM).exists()
    with chromium() as b:
        yield b


@pytest.fixture
def pages(browser):
    """New pages, each in a browser context of its own (its own cookies); JavaScript errors fail
    the test."""
    contexts, errors = [], []

    def open_page(width, height):
        ctx = browser.new_context(viewport={"width": width, "height": height})
        ctx.set_default_timeout(TIMEOUT_MS)
        contexts.append(ctx)
        page = ctx.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page
    yield open_page
    for ctx in contexts:
        ctx.close()
    assert not errors, f"JavaScript errors: {errors}"


def sign_up(page, url, name):
    page.goto(url + "/login#signup")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.fill("#signup-again", PASSWORD)
    page.click("#signup-submit")


def play_now(page, url):
    page.goto(url + "/play")
    page.wait_for_selector("#play-form")
    page.select_option("#play-players", "3")
    page.select_option("#play-bots-after", "")          # Ann fills the table herself
    page.check("#play-bots-rated")                      # rated, with the bot at the table
    page.click("#play-submit")
    page.wait_for_selector("#table-seats")


def test_two_accounts_play_now_with_a_bot_talk_finish_and_are_rated(server, pages, shots):
    url = server.url
    ann, bob = pages(1280, 720), pages(390, 844)
    # Sign up, log out, log in again.
    sign_up(ann, url, "Ann")
    ann.wait_for_url("**/my")
    ann.wait_for_selector("#waiting-on-me")
    sign_up(bob, url, "Bob")
    bob.wait_for_url("**/my")
    shots(bob, "my-games-empty")
    bob.click("details.account-menu summary")
    bob.click("details.account-menu button:has-text('Log out')")
    bob.wait_for_url(url + "/")
    bob.wait_for_selector(".account-login")
    bob.click(".account-login")
    bob.fill("#login-name", "Bob")
    bob.fill("#login-password", "not his password")
    bob.click("#login-submit")
    bob.wait_for_selector("#login-error:not([hidden])")
    assert bob.locator("#login-error").inner_text() == "wrong name or password"
    shots(bob, "login-refused")
    bob.fill("#login-password", PASSWORD)
    bob.click("#login-submit")
    bob.wait_for_url("**/")  # back where he was: the lobby
    assert bob.locator(".account-name").inner_text() == "Bob"

    # Play now: Ann opens a table, Bob joins it, Ann fills the third seat with a bot.
    play_now(ann, url)
    shots(ann, "table-waiting")
    play_now(bob, url)
    assert bob.locator("#table-seats li").all_inner_texts() == ["Ann", "Bob", "a free seat"]
    shots(bob, "table-waiting")
    ann.wait_for_function("() => document.querySelectorAll('#table-seats li:not(.free)').length === 2")
    ann.click("#fill-now")
    ann.wait_for_url("**/game/**token=**")
    bob.wait_for_url("**/game/**token=**")
    gid = game_of(ann.url)
    assert game_of(bob.url) == gid and token_of(ann.url) != token_of(bob.url)
    for page in (ann, bob):
        page.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
    names = ann.evaluate("() => window.cyclades.seats.map(s => [s.name, s.kind])")
    assert sorted(n for n, _ in names if _ == "human") == ["Ann", "Bob"] and len(names) == 3
    assert ann.locator("#keep-seat, #keep-signup").count() == 0  # her seat is hers already

    # They talk: a line with signs that look like markup shows as text; markup is refused.
    ann.wait_for_selector("#chat:not([hidden]) .chat-form")
    ann.fill("#chat input", "Good luck, Bob! <3 & may the Kraken sleep")
    ann.press("#chat input", "Enter")
    bob.wait_for_selector("#chat h2")
    bob.click("#chat h2")  # folded on a phone
    bob.wait_for_selector("#chat .chat-msg .chat-text")
    assert bob.locator("#chat .chat-text").first.inner_text() == "Good luck, Bob! <3 & may the Kraken sleep"
    bob.fill("#chat input", "<b>Thanks</b>")
    bob.press("#chat input", "Enter")
    bob.wait_for_selector("#chat .chat-note:not([hidden])")
    assert "HTML is not allowed" in bob.locator("#chat .chat-note").inner_text()
    bob.fill("#chat input", "Thanks, Ann")
    bob.press("#chat input", "Enter")
    ann.wait_for_function("() => [...document.querySelectorAll('#chat .chat-text')]"
                          ".some(e => e.textContent === 'Thanks, Ann')")
    assert ann.locator("#chat b").filter(has_text="Thanks").count() == 0
    shots(ann, "game-chat")
    shots(bob, "game-chat")

    # The game ends (their decisions over HTTP, the pages following), and both see the end.
    before = {p: _rating(p, url) for p in ("Ann", "Bob")}
    end = play_out(url, [(token_of(ann.url), gid), (token_of(bob.url), gid)])
    assert end["status"] == "over"
    for page in (ann, bob):
        page.wait_for_selector("#result:not([hidden])")
        page.wait_for_selector("#result .rating-moved:not([hidden])")
        assert re.fullmatch(r"Your Legendary rating: 1500 → \d+", page.locator("#result .rating-moved").inner_text())
    shots(ann, "game-end")
    shots(bob, "game-end")

    # Both profiles show the game, with the rating it moved; the leaderboard lists both.
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        page.goto(f"{url}/players/{name}")
        page.wait_for_selector(f"#recent [data-game='{gid}']")
        row = page.locator(f"#recent [data-game='{gid}']").inner_text()
        assert re.search(r"rating 1500 → \d+", row), row
        shown = int(page.locator("#ratings .rating-big").inner_text())
        assert shown != before[name] and page.locator("#ratings .rating-chart circle").count() == 2
        assert page.locator(f"#recent [data-game='{gid}'] a").get_attribute("href") == f"/replay/{gid}"
        shots(page, "profile")
    for page in (ann, bob):
        page.goto(url + "/leaderboard")
        page.wait_for_selector("#board table")
        listed = page.locator("#board tbody tr").evaluate_all("rows => rows.map(r => r.dataset.player)")
        assert {"Ann", "Bob"} <= set(listed)
        shots(page, "leaderboard")
    # My games lists it as finished, one click from its replay (whose talk shows what was said).
    ann.goto(url + "/my")
    ann.wait_for_selector(f"#finished [data-game='{gid}']")
    shots(ann, "my-games")
    ann.click(f"#finished [data-game='{gid}'] a")
    ann.wait_for_url(f"**/replay/{gid}**")
    ann.click("#last")
    ann.wait_for_selector("#replay-chat .chat-msg")
    assert "Good luck, Bob!" in ann.locator("#replay-chat").inner_text()


def _rating(name, url):
    import httpx
    r = httpx.get(f"{url}/api/players/{name}").json()
    return r["ratings"].get("legendary", {}).get("rating", 1500)


def test_a_guest_who_played_by_link_keeps_the_seat_by_creating_an_account(server, pages, shots):
    url = server.url
    guest = pages(1280, 720)
    guest.goto(url + "/")
    guest.wait_for_selector("#seats .seat")
    guest.select_option("#players", "3")
    guest.select_option("select[data-seat='0']", "you")
    guest.select_option("select[data-seat='1']", "random")
    guest.select_option("select[data-seat='2']", "random")
    guest.click("#create")                      # the creator's seat opens at once
    guest.wait_for_url("**/game/**token=**")
    seat_url = guest.url
    guest.wait_for_selector("#keep-signup")
    shots(guest, "guest-keep-seat")
    guest.click("#keep-signup")
    guest.wait_for_url("**/login?keep=1#signup")
    assert not guest.locator("#keep-note").is_hidden()
    shots(guest, "login-keep-seat")
    guest.fill("#signup-name", "Cleo")
    guest.fill("#signup-password", PASSWORD)
    guest.fill("#signup-again", PASSWORD)
    guest.click("#signup-submit")
    guest.wait_for_url(seat_url)  # back at the same seat
    guest.wait_for_function("() => window.cyclades && window.cyclades.view !== null")
    assert guest.evaluate("() => window.cyclades.seats[0].name") == "Cleo"
    guest.wait_for_timeout(500)
    assert guest.locator("#keep-signup, #keep-seat").count() == 0
    guest.goto(url + "/my")
    guest.wait_for_selector(f"[data-game='{game_of(seat_url)}'] a[href='{seat_url.replace(url, '')}']")
