"""The README's screenshots, and a fuller set at 1280x720, 1920x1080 and 390x844 to look at.

    .venv/bin/python tools/screenshots.py docs/screenshots            # the README's five
    .venv/bin/python tools/screenshots.py docs/screenshots /tmp/look  # and the fuller set

Games are set up mid-game (random decisions, every seat a person: nothing moves while the page
is photographed), as the browser tests do (tests/web/test_browser_board.py), on a server of its own
on a free port, in headless Chromium.
"""
from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "web"), str(ROOT / "src")]

import httpx  # noqa: E402
from serverproc import launch, served  # noqa: E402
from test_browser_board import MODES, OFFERING, VIEWPORTS, offering  # noqa: E402
from test_browser_screen import seed_games  # noqa: E402

README = {  # file -> (what, size)
    "lobby.png": ("lobby", "1280x720"),
    "team-game.png": ("teams6", "1280x720"),
    "classic-game.png": ("classic5", "1280x720"),
    "end-screen.png": ("end", "1280x720"),
    "phone.png": ("legendary5", "390x844"),
}
LOOK = ["legendary3", "teams4", "legendary5", "classic2", "offering", "end", "replay", "tutorial", "lobby"]


def main(readme_dir: Path, look_dir: Path | None) -> None:
    from playwright.sync_api import sync_playwright
    with tempfile.TemporaryDirectory() as d:
        games = seed_games(Path(d) / "games.db", MODES)
        games.update(seed_games(Path(d) / "games.db", OFFERING, until=offering))
        with served(d) as srv, sync_playwright() as pw, httpx.Client(base_url=srv.url, timeout=60) as api:
            r = api.post("/api/games", json={"players": 4, "seats": ["random"] * 4, "max_cycles": 5, "bot_delay": 0,
                                             "names": ["Ann", "Bob", "Cleo", "Dion"], "seed": 6})
            over = r.json()["game_id"]
            while api.get(f"/api/games/{over}").json()["status"] != "over":
                time.sleep(0.2)
            browser = launch(pw)

            def shoot(what: str, size: str, path: Path) -> None:
                w, h = VIEWPORTS[size]
                ctx = browser.new_context(viewport={"width": w, "height": h}, has_touch=w < 600, is_mobile=w < 600)
                page = ctx.new_page()
                if what == "lobby":
                    page.goto(srv.url + "/")
                    page.wait_for_selector("#create")
                elif what == "tutorial":
                    page.goto(srv.url + "/tutorial")
                    page.click("#lessons .lesson button >> nth=2")
                    page.wait_for_selector("#tutorial .tut-say")
                elif what == "end":
                    page.goto(f"{srv.url}/game/{over}")
                    page.wait_for_selector("#result:not([hidden]) .result-card svg")
                elif what == "replay":
                    page.goto(f"{srv.url}/replay/{over}?step=120")
                    page.wait_for_selector("svg#board .labels text")
                else:
                    gid, token, _ = games[what]
                    page.goto(f"{srv.url}/game/{gid}?token={token}")
                    page.wait_for_selector("svg#board .labels text")
                    page.wait_for_selector("#conn.live")
                    page.wait_for_timeout(300)
                    if what == "offering":
                        god = page.locator("#auction li.god.clickable").first
                        god.scroll_into_view_if_needed()
                        god.click()
                        page.wait_for_selector("#popup:not([hidden])")
                page.wait_for_timeout(700)
                path.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(path))
                print(path)
                ctx.close()

            for name, (what, size) in README.items():
                shoot(what, size, readme_dir / name)
            if look_dir:
                for what in LOOK:
                    for size in VIEWPORTS:
                        shoot(what, size, look_dir / f"{what}-{size}.png")
            browser.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
