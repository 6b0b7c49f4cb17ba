"""Every word on every page comes from the catalog, and the French pages fit.

A real server and a real headless Chromium. In the pseudo-locale `qps` (content/i18n.py) every
catalog message reads ⟦…⟧: the browser, in that language, visits the lobby, the lessons and a
lesson's game, the rules of each edition, a game of each edition (Legendary with and without
Maelström, classic), an ended game's end screen, its replay, and a broken link's error page; on
each, every text a person reads (the page's text, its title, and the titles, labels and
placeholders of its elements) must be marked, player names apart (the map's place names are
catalog messages too). A word outside the marks is a
word some code wrote itself instead of asking the catalog.

Then French at a laptop's size (1280x720) and a phone's (390x844): the pages take no more width
than the window (nothing runs off the side), and screenshots are written where the
CYCLADES_SCREENSHOTS directory says, to be looked at.

Needs Debian's chromium and Playwright for Python (skipped, saying which is missing, without).
"""
from __future__ import annotations

import json
import os
import re
import urllib.request
from pathlib import Path

import pytest
from serverproc import browser_server, chromium, wait_over

from cyclades.content.i18n import CLOSE, OPEN, unmarked

# What a person reads on a page: its text, and what its elements say on hover or to a screen
# reader. Player names are read from the game's state (window.cyclades.seats); the language
# switch names each language in itself.
READ = """() => {
  const out = [];
  const skip = (el) => el.closest('#language, script, style, [hidden], .chat-log, [translate="no"]');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const text = [];  // the page's text in order, as one string: a message may span elements
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (n.parentElement && !skip(n.parentElement)) text.push(n.textContent);
  }
  out.push(text.join(" "));
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (skip(el)) continue;
    for (const a of ['title', 'aria-label', 'placeholder']) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  out.push(document.title);
  return out;
}"""

NAMES = """() => {
  const s = window.cyclades;
  const names = [];
  if (s && s.seats) for (const x of s.seats) if (x && x.name) names.push(x.name, ...(x.faction_names || []));
  if (s && s.names) names.push(...s.names);
  const r = window.cycladesReplay;  // the replay page's state
  if (r && r.names) names.push(...r.names);
  return names.filter(Boolean);
}"""


def post(srv, path, body) -> dict:
    req = urllib.request.Request(srv.url + path, data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.load(r)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with browser_server(tmp_path_factory.mktemp("i18n")) as srv:  # tests/serverproc.py
        yield srv


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def games(server):
    """A game of each edition waiting on a person, and a finished all-bot game."""
    out = {}
    for key, body in {"legendary": {"players": 3}, "no-maelstrom": {"players": 3, "maelstrom": False},
                      "classic": {"players": 3, "ruleset": "classic"}}.items():
        g = post(server, "/api/games", {**body, "seats": ["you", "casual", "casual"], "seed": 5})
        out[key] = g["seats"][0]["url"]
    over = post(server, "/api/games", {"players": 3, "seats": ["random"] * 3, "seed": 7, "max_cycles": 2})
    import httpx
    with httpx.Client(base_url=server.url, timeout=30) as client:
        wait_over(client, over["game_id"], timeout=120)
    out["over"] = over["game_id"]
    return out


def unbalanced(text: str) -> str | None:
    """Where `text`'s marks fail to pair (a '⟧' with no '⟦' before it, or a '⟦' never closed),
    or None: a message cut in two leaves the text after a lone '⟦' counted as marked."""
    opened = []  # where each '⟦' not yet closed is
    for i, ch in enumerate(text):
        if ch == OPEN:
            opened.append(i)
        elif ch == CLOSE and not opened:
            return text[max(0, i - 40):i + 1]
        elif ch == CLOSE:
            opened.pop()
    return text[max(0, opened[0] - 40):opened[0] + 40] if opened else None


def unmarked_words(page, names=()) -> list[str]:
    """The words of the page outside every ⟦…⟧, player names apart; marks that do not pair are
    a finding of their own."""
    names = sorted(set(names) | set(page.evaluate(NAMES)), key=len, reverse=True)
    bad = []
    for t in page.evaluate(READ):
        if (where := unbalanced(t)) is not None:
            bad.append(f"marks unpaired near {where!r}")
        rest = unmarked(t)
        for n in names:
            rest = rest.replace(n, " ")
        bad += [w for w in re.findall(r"[^\W\d_][\w'’-]*", rest)]
    return bad


def visit(page, url, ready="body"):
    page.goto(url)
    page.wait_for_selector(ready, timeout=30_000)
    page.wait_for_load_state("networkidle")


def test_the_pseudo_locale_leaves_no_word_unmarked(server, browser, games):
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    ctx.add_cookies([{"name": "cyclades_lang", "value": "qps", "url": server.url}])
    page = ctx.new_page()
    found = {}
    pages = [("/", "#seats .seat"), ("/tutorial", "#lessons button, #lessons a"),
             ("/rules", ".rule-card"), ("/rules?ruleset=classic", ".rule-card"),
             ("/rules?ruleset=legendary&maelstrom=0", ".rule-card"),
             (games["legendary"], "#act h2"), (games["no-maelstrom"], "#act h2"), (games["classic"], "#act h2"),
             (f"/game/{games['over']}", "#result .result-card"),
             (f"/replay/{games['over']}", "#where"),
             ("/game/no-such-game", "#wrong-link")]
    for url, ready in pages:
        visit(page, server.url + url, ready)
        bad = unmarked_words(page)
        if bad:
            found[url] = bad
    # a lesson's game, from the lessons page
    page.goto(server.url + "/tutorial")
    page.locator("#lessons button, #lessons a").first.click()
    page.wait_for_selector("#tutorial .tut-badge", timeout=30_000)  # the lesson's panel drawn
    page.wait_for_load_state("networkidle")
    if bad := unmarked_words(page):
        found["a lesson"] = bad
    ctx.close()
    assert not found, "words no catalog message gave:\n" + "\n".join(
        f"{url}: {bad[:12]}" for url, bad in found.items())


SIZES = {"laptop": (1280, 720), "phone": (390, 844)}


@pytest.mark.parametrize("size", SIZES)
def test_french_pages_fit(server, browser, games, size):
    w, h = SIZES[size]
    ctx = browser.new_context(viewport={"width": w, "height": h}, locale="fr-FR")
    page = ctx.new_page()
    shots = os.environ.get("CYCLADES_SCREENSHOTS")
    too_wide = {}
    for name, url, ready in [("lobby", "/", "#seats .seat"), ("rules", "/rules", ".rule-card"),
                             ("game", games["legendary"], "#act h2"),
                             ("end", f"/game/{games['over']}", "#result .result-card"),
                             ("replay", f"/replay/{games['over']}", "#where"),
                             ("tutorial", "/tutorial", "#lessons button, #lessons a")]:
        visit(page, server.url + url, ready)
        assert page.evaluate("document.documentElement.lang") == "fr", name
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > w + 1:
            too_wide[name] = width
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(shots) / f"fr-{name}-{w}x{h}.png"))
    ctx.close()
    assert not too_wide, f"French pages wider than the {w}px window: {too_wide}"


def test_the_switch_changes_the_language_and_keeps_it(server, browser):
    ctx = browser.new_context(locale="en-GB")
    page = ctx.new_page()
    visit(page, server.url + "/rules", ".rule-card")
    assert page.evaluate("document.documentElement.lang") == "en"
    page.select_option("#language", "fr")
    # (a selector, not a function: the page's CSP allows no eval, which a polled function needs)
    page.wait_for_selector("html[lang='fr']", state="attached", timeout=30_000)
    page.wait_for_selector(".rule-card")
    assert re.search(r"Poséidon", page.inner_text("#rules"))
    visit(page, server.url + "/", "#seats .seat")  # the choice stays (a cookie)
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert "Nouvelle partie" in page.inner_text("body")
    ctx.close()


def test_a_link_in_a_language_speaks_it_in_what_the_page_fetches(server, browser, games):
    """A page opened by a link with ?lang= and no cookie (a shared link, a browser in another
    language): what the page fetches afterwards (the lobby's bot labels, the game's log and
    sentences over its WebSocket, the replay) speaks the page's language too."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    page = ctx.new_page()
    found = {}
    for url, ready in [("/", "#seats .seat"), (games["legendary"], "#act h2"),
                       (f"/replay/{games['over']}", "#where")]:
        visit(page, server.url + url + ("&" if "?" in url else "?") + "lang=qps", ready)
        if bad := unmarked_words(page):
            found[url] = bad
    ctx.close()
    assert not found, "words in another language than the link's:\n" + "\n".join(
        f"{url}: {bad[:12]}" for url, bad in found.items())
