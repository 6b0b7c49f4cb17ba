"""Clocks and notifications in a real headless Chromium, against a real server on SQLite.

- Two accounts, Ann on a laptop (1280x720) and Bob on a phone (390x844): they choose their
  notifications on the account page, sit at a turn-based play-now table, Ann plays until it is
  Bob's turn; the e-mail Bob receives (at an SMTP server the test runs) opens his game at his
  seat, with its clocks; two simulated days and more later (the server's time moved on) the
  bot has decided for him and his page says his time ran out. (Three timeouts, the seat
  handed to the bot, the game's end, Web Push, two processes and a restart: test_clocks.py.)
- A live game with a time bank made in the lobby: the clock shown counts down and agrees with
  the server's within a second.

Screenshots go to pytest's tmp dir, and to $CYCLADES_SHOTS when set.
"""
from __future__ import annotations

import random
import re
import time

import pytest
from notifications import ServerTime, SmtpSink
from people import PASSWORD, game_of, token_of, wait_for
from serverproc import START_SECONDS, chromium, chromium_missing

from cyclades.server.testing import ServerProcess, free_port

pytestmark = [pytest.mark.skipif(chromium_missing() is not None, reason=chromium_missing() or "")]
pytest.importorskip("aiosmtpd")
TIMEOUT_MS = 20_000


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    folder = tmp_path_factory.mktemp("browser-clocks")
    with SmtpSink() as smtp:
        clock = ServerTime(folder / "clock")
        port = free_port()
        args = ["--play-now-max-cycles", "1", "--table-sweep-seconds", "0.2", "--smtp-host", "127.0.0.1",
                "--smtp-port", str(smtp.port), "--smtp-security", "none", "--public-url", f"http://127.0.0.1:{port}",
                "--notify-sweep-seconds", "0.2"]
        srv = ServerProcess(f"sqlite:///{folder / 'games.db'}", port=port, bot_delay=0.0, args=args,
                            env={"CYCLADES_CLOCK_FILE": str(clock.path), "CYCLADES_CLOCK_SWEEP_SECONDS": "0.2"},
                            log_path=str(folder / "server.log"), timeout=START_SECONDS)
        with srv, chromium() as browser:
            try:
                yield {"srv": srv, "smtp": smtp, "clock": clock, "browser": browser}
            finally:
                srv.stop()
                print("--- server log (tail) ---")
                print(srv.log_tail())


@pytest.fixture
def pages(world):
    contexts, errors = [], []

    def open_page(width, height):
        ctx = world["browser"].new_context(viewport={"width": width, "height": height})
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
    page.wait_for_url("**/my")


def api(page, method, path, body=None):
    """A call of the server's API with the page's login (its cookies and CSRF token)."""
    csrf = next((c["value"] for c in page.context.cookies() if c["name"] == "cyclades_csrf"), "")
    base = re.match(r"https?://[^/]+", page.url).group(0)
    r = page.request.fetch(base + path, method=method, data=body, headers={"X-CSRF-Token": csrf})
    assert r.ok, r.text()
    return r.json()


def test_two_accounts_turn_based_mail_link_and_a_timeout_in_the_browser(world, pages, shots):
    srv, smtp, clock = world["srv"], world["smtp"], world["clock"]
    ann, bob = pages(1280, 720), pages(390, 844)
    sign_up(ann, srv.url, "Ann")
    sign_up(bob, srv.url, "Bob")
    # Bob asks for e-mails on his account page.
    bob.goto(srv.url + "/account")
    bob.wait_for_selector("#notify-panel:not([hidden])")
    bob.fill("#notify-email", "bob@cyclades.test")
    bob.check("#notify-by-email")
    shots(bob, "notification-settings")
    bob.click("#notify-submit")
    bob.wait_for_selector("#notify-message.ok")
    assert api(bob, "GET", "/api/account/notifications")["by_email"] is True
    ann.goto(srv.url + "/account")
    ann.wait_for_selector("#notify-panel:not([hidden])")
    shots(ann, "notification-settings")

    # A turn-based table of two: Ann chooses the speed on the Play now page.
    ann.goto(srv.url + "/play")
    ann.wait_for_selector("#play-form")
    ann.select_option("#play-players", "2")
    ann.select_option("#play-speed", "turn-based")
    ann.select_option("#play-bots-after", "")
    ann.uncheck("#play-rated")
    shots(ann, "play-speed")
    ann.click("#play-submit")
    ann.wait_for_selector("#table-seats")
    table_id = re.search(r"/play/([\w-]+)", ann.url).group(1)
    body = {"players": 2, "ruleset": "legendary", "maelstrom": True, "speed": "turn-based", "rated": False}
    api(bob, "POST", "/api/play", body)
    game_url = wait_for(lambda: api(ann, "GET", f"/api/play/tables/{table_id}")["game_url"],
                        timeout=60, what="the game")
    gid, token = game_of(game_url), token_of(game_url)
    ann.goto(srv.url + game_url)
    ann.wait_for_selector("#clocks:not([hidden]) .clock")
    ann.wait_for_selector("#clocks .clock-mail a[href='/account']")   # her account's settings say how
    shots(ann, "turn-based-clocks")

    # Ann decides (random legal decisions) until the game waits on Bob: he gets an e-mail.
    rng = random.Random(5)
    import httpx
    http = httpx.Client(base_url=srv.url, timeout=30)
    me = http.get(f"/api/games/{gid}", params={"token": token}).json()["seat"]
    deadline = time.monotonic() + 60
    while True:
        st = http.get(f"/api/games/{gid}", params={"token": token}).json()
        if st["clock"]["seat"] not in (me, None):
            break
        assert time.monotonic() < deadline
        if st["legal_actions"]:
            a = rng.choice(st["legal_actions"])
            a = {k: a[k] for k in ("kind", "what", "where", "n") if k in a}
            http.post(f"/api/games/{gid}/actions", json={"token": token, "version": st["version"], "action": a})
        else:
            time.sleep(0.05)
    mail = wait_for(lambda: smtp.to("bob@cyclades.test"), timeout=60, what="Bob's e-mail")[0]
    link = next(line for line in mail.get_content().splitlines() if "/game/" in line)
    bob.goto(link)
    bob.wait_for_selector("#act.your-move")
    bob.wait_for_selector("#clocks .clock.running")
    assert "Bob" in bob.locator("#clocks .clock.running .clock-name").inner_text()
    left = float(bob.locator("#clocks .clock.running").get_attribute("data-left"))
    assert 3 * 86400 < left <= 4 * 86400   # a day for the decision, and 3 days in the bank
    shots(bob, "your-turn-from-the-mail")

    # Four days and a minute later, the bot has decided for Bob; his page says so.
    clock.move(left + 60)
    bob.wait_for_selector("#clocks .clock-outs", timeout=30_000)
    assert bob.locator("#clocks .clock-outs").inner_text() == "time ran out once"
    shots(bob, "timed-out-once")
    http.close()


def test_a_live_clock_counts_down_and_agrees_with_the_servers(world, pages, shots):
    srv = world["srv"]
    page = pages(1280, 720)
    page.goto(srv.url + "/")
    page.wait_for_selector("#create-form")
    page.select_option("#players", "2")
    page.select_option("#speed", "live")
    shots(page, "lobby-speed")
    page.click("#create")
    page.wait_for_url("**/game/**")
    page.wait_for_selector("#clocks .clock.running")
    gid = game_of(page.url)
    token = token_of(page.url)

    def compare():
        page.wait_for_selector("#act.your-move")
        shown = page.locator("#clocks .clock.running .clock-time").inner_text()
        m, s = shown.split(":")
        st = page.request.get(f"{srv.url}/api/games/{gid}?token={token}").json()
        server_left = st["clock"]["deadline"] - st["clock"]["now"]
        # The page shows whole seconds (floor): its figure is within a second of the server's.
        assert abs(int(m) * 60 + int(s) - server_left) <= 1.0 + 0.5, (shown, server_left)
        return int(m) * 60 + int(s)
    first = compare()
    page.wait_for_timeout(2500)
    second = compare()
    assert second <= first - 2            # it counts down
    assert first <= 20 + 8 * 60           # 20 s a decision and a bank of 8 minutes
    shots(page, "live-clocks")
    phone = pages(390, 844)
    sign_up(phone, srv.url, "Cid")
    phone.goto(srv.url + "/")
    phone.wait_for_selector("#create-form")
    phone.select_option("#speed", "turn-based")
    phone.locator("#speed").scroll_into_view_if_needed()
    shots(phone, "lobby-speed")
    phone.goto(srv.url + "/play")
    phone.wait_for_selector("#play-form")
    phone.select_option("#play-speed", "turn-based")
    phone.locator("#play-speed").scroll_into_view_if_needed()
    shots(phone, "play-speed")
    phone.goto(page.url)
    phone.wait_for_selector("#clocks .clock.running")
    shots(phone, "live-clocks")
