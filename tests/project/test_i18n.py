"""Every word in one catalog, and the game in French (content/i18n.py, server/i18n.py).

The catalog is current with the sources (what Babel extracts now is what messages.pot holds),
every message has its French translation with the same placeholders, the names of gods, cards
and pieces come from one place, the server speaks the language a request asks for (?lang=, the
switch's cookie, the account's setting, Accept-Language), and the terminal game in the
pseudo-locale shows no word the catalog did not give.
"""
from __future__ import annotations

import re
import subprocess
import sys

import pytest
from babel.messages.pofile import read_po
from click.testing import CliRunner
from repository import ROOT

from cyclades.cli import main as cli
from cyclades.content import i18n, names
from cyclades.content.descriptions import content
from cyclades.content.i18n import language, marked, negotiate, unmarked

LOCALE = ROOT / "src" / "cyclades" / "locale"
PLACEHOLDER = re.compile(r"\{\w*\}")
TAG = re.compile(r"</?\w+>")


def catalog(path):
    with open(path, "rb") as f:
        return read_po(f)


def ids(cat) -> set:
    return {m.id if isinstance(m.id, str) else tuple(m.id) for m in cat if m.id}


def test_the_catalog_holds_what_the_sources_mark(tmp_path):
    """messages.pot is what Babel extracts from the sources now: no marked word is missing
    from the catalog (`python tools/i18n.py update` makes it so)."""
    pot = tmp_path / "messages.pot"
    subprocess.run([sys.executable, "tools/i18n.py", "extract", str(pot)], cwd=ROOT, check=True)
    now, kept = ids(catalog(pot)), ids(catalog(LOCALE / "messages.pot"))
    assert now == kept, (f"not in messages.pot: {sorted(map(str, now - kept))[:10]}; "
                         f"no longer in the sources: {sorted(map(str, kept - now))[:10]}")


def test_every_message_has_its_french_translation():
    pot, fr = catalog(LOCALE / "messages.pot"), catalog(LOCALE / "fr" / "LC_MESSAGES" / "messages.po")
    assert ids(pot) == ids(fr), "messages.po is not merged with messages.pot (tools/i18n.py update)"
    assert fr.num_plurals == 2
    bad = []
    for m in fr:
        if not m.id:
            continue
        sources = [m.id] if isinstance(m.id, str) else list(m.id)
        targets = [m.string] if isinstance(m.id, str) else list(m.string)
        if m.fuzzy or not all(targets):
            bad.append(("untranslated", m.id))
            continue
        want = set(PLACEHOLDER.findall(" ".join(sources)))
        for t in targets:
            if set(PLACEHOLDER.findall(t)) - want or (isinstance(m.id, str) and set(PLACEHOLDER.findall(t)) != want):
                bad.append(("placeholders", m.id, t))
            if sorted(TAG.findall(t)) != sorted(TAG.findall(sources[0])):
                bad.append(("markup", m.id, t))
    assert not bad, bad[:10]


def test_french_compiles_and_the_names_are_the_french_editions():
    with language("fr"):
        assert [names.title(g) for g in ("poseidon", "ares", "athena", "hera", "apollo", "zeus")] == [
            "Poséidon", "Arès", "Athéna", "Héra", "Apollon", "Zeus"]
        assert [names.title(c) for c in ("pegasus", "hydra", "medusa", "minotaur", "chimera", "cyclops",
                                         "scylla-charybdis", "calydonian-boar")] == [
            "Pégase", "Hydre", "Méduse", "Minotaure", "Chimère", "Cyclope", "Scylla et Charybde",
            "Sanglier de Calydon"]
        assert names.called("hydra") == "l'Hydre" and names.called("kraken") == "le Kraken"
        assert names.unit("troop", 1) == "une Troupe" and names.unit("fleet", 2) == "2 Flottes"
        assert names.title("priestess") == "Prêtre" and names.title("metropolis") == "Métropole"
        c = content("legendary")
        assert c["title"] == "Cyclades Édition Légendaire avec Maelström"
        assert "PO" in c["units"][0]["cost"] and "GP" not in " ".join(u.get("cost") or "" for u in c["units"])
    assert names.title("poseidon") == "Poseidon"  # the block's language ends with it


def test_one_name_in_one_place():
    """The rules page, the tooltips and the browser read the same name (the log says it too)."""
    c = content("legendary")
    by_id = {x["id"]: x["name"] for x in c["creatures"] + c["heroes"]}
    assert by_id["scylla-charybdis"] == names.title("scylla-charybdis") == "Scylla and Charybdis"
    assert names.every_name()["calydonian-boar"] == {"title": "Calydonian Boar", "called": "the Calydonian Boar",
                                                     "initial": "C"}


def test_a_names_initial_is_its_first_letter_and_keeps_the_pseudo_locales_marks():
    """The letter on a building or a god's medallion: the first of its name in the language; in
    the pseudo-locale inside the marks, so that a page reads as marked throughout (a lone '⟦'
    would leave the rest of the page counted as marked by the browser's test)."""
    with language("fr"):
        every = names.every_name()
        assert [every[b]["initial"] for b in ("port", "fortress", "temple", "university", "metropolis")] == [
            "P", "F", "T", "U", "M"]
        assert every["apollo"]["initial"] == "A"
    with language("qps"):
        every = names.every_name()
        assert every["fortress"]["initial"] == "⟦F⟧"
        assert all(unmarked(x["initial"]) == "" and len(x["initial"]) == 3 for x in every.values() if "initial" in x)


@pytest.mark.parametrize("ruleset,maelstrom", [("legendary", True), ("legendary", False), ("classic", False)])
def test_the_pseudo_locale_marks_every_text_of_the_rules(ruleset, maelstrom):
    with language(i18n.PSEUDO):
        c = content(ruleset, maelstrom)

    def texts(x):
        if isinstance(x, str):
            yield x
        elif isinstance(x, dict):
            for k, v in x.items():
                if k not in ("id", "ruleset", "miniature", "god"):
                    yield from texts(v)
        elif isinstance(x, list):
            for v in x:
                yield from texts(v)
    bad = [t for t in texts(c) if not marked(t)]
    assert not bad, bad[:5]


def test_language_negotiation():
    assert negotiate("fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7") == "fr"
    assert negotiate("de-DE,en;q=0.5,fr;q=0.4") == "en"
    assert negotiate("de, ja") is None and negotiate(None) is None
    assert i18n.normalize("fr_CA") == "fr" and i18n.normalize("xx") == "en"
    assert unmarked("⟦a ⟦b⟧ c⟧ d") == " d"


def test_the_server_speaks_the_asked_language(tmp_path):
    from fastapi.testclient import TestClient

    from cyclades.server.app import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as http:
        page = http.get("/rules", headers={"accept-language": "fr-FR,fr;q=0.9"})
        assert '<html lang="fr">' in page.text and "Comment jouer" in page.text
        assert page.headers["content-language"] == "fr"
        assert 'lang="en"' in http.get("/rules", headers={"accept-language": "fr"}, params={"lang": "en"}).text
        assert "Poséidon" in http.get("/api/content", params={"lang": "fr"}).text
        strings = http.get("/strings/fr.js").text
        assert strings.startswith("globalThis.CYCLADES_STRINGS = ") and '"Scylla et Charybde"' in strings
        assert "Nouvelle partie" in http.get("/", headers={"cookie": "cyclades_lang=fr"}).text
        # the switch: a cookie for this browser, and the account's setting, which a login brings back
        assert http.post("/api/language", json={"lang": "xx"}).status_code == 422
        r = http.post("/api/account/signup", json={"name": "Zoé", "password": "une phrase assez longue"})
        assert r.status_code == 201, r.text
        csrf = r.json()["csrf"]
        r = http.post("/api/language", json={"lang": "fr"}, headers={"x-csrf-token": csrf})
        assert r.status_code == 200 and "cyclades_lang=fr" in r.headers["set-cookie"]
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as other:  # another browser
        r = other.post("/api/account/login", json={"name": "Zoé", "password": "une phrase assez longue"})
        assert r.status_code == 200 and "cyclades_lang=fr" in r.headers["set-cookie"]
        assert '<html lang="fr">' in other.get("/").text


def test_a_link_in_a_language_keeps_it_for_the_pages_after(tmp_path):
    """A page asked for with ?lang=fr by a browser that has chosen no language yet sets the
    cookie, so the pages the link leads to are French too; a browser that chose keeps its
    choice; an API answer, the pseudo-locale and an unknown language set nothing."""
    from fastapi.testclient import TestClient

    from cyclades.server.app import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as http:
        for path, lang in (("/api/bots", "fr"), ("/", "qps"), ("/", "xx")):
            r = http.get(path, params={"lang": lang})
            assert r.status_code == 200 and "set-cookie" not in r.headers, (path, lang)
        r = http.get("/", params={"lang": "fr"}, headers={"accept-language": "en"})
        assert "cyclades_lang=fr" in r.headers["set-cookie"] and "Nouvelle partie" in r.text
        assert '<html lang="fr">' in http.get("/rules", headers={"accept-language": "en"}).text
        r = http.get("/", params={"lang": "en"})  # the browser has chosen now: the link is for this page
        assert "set-cookie" not in r.headers and 'lang="en"' in r.text
        assert '<html lang="fr">' in http.get("/rules").text


def test_the_server_refuses_in_the_asked_language(tmp_path):
    """A refusal is a catalog sentence with its parts: the same request gets its reason in
    French with Accept-Language: fr, in English without; and a page's WebSocket hears its
    errors in the page's language."""
    import time

    from fastapi.testclient import TestClient

    from cyclades.server.app import create_app
    fr = {"accept-language": "fr-FR,fr;q=0.9"}
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", bot_delay=0)) as http:
        r = http.get("/api/games/nope", headers=fr)
        assert r.status_code == 404 and r.json()["detail"] == "pas de partie 'nope'", r.text
        assert http.get("/api/games/nope").json()["detail"] == "no game 'nope'"
        r = http.post("/api/games", json={"players": 9}, headers=fr)
        assert r.status_code == 422 and "joueurs, pas 9" in r.json()["detail"], r.text
        g = http.post("/api/games", json={"players": 3, "seats": ["you", "random", "random"], "seed": 2}).json()
        token = g["seats"][0]["url"].split("token=")[1]
        gid = g["game_id"]
        for _wait in range(400):  # until the bots have placed and the game waits on the person
            state = http.get(f"/api/games/{gid}", params={"token": token}).json()
            if state["legal_actions"]:
                break
            time.sleep(0.05)
        wrong = {"token": "x" * 32, "version": state["version"], "action": state["legal_actions"][0]}
        r = http.post(f"/api/games/{gid}/actions", json=wrong, headers=fr)
        assert r.status_code == 403 and r.json()["detail"] == "ce jeton n'est pas une place de cette partie"
        stale = {"token": token, "version": state["version"] + 5, "action": state["legal_actions"][0]}
        r = http.post(f"/api/games/{gid}/actions", json=stale, headers=fr)
        assert r.status_code == 409 and r.json()["detail"].startswith("version périmée"), r.text
        r = http.post(f"/api/games/{gid}/actions", json=stale)
        assert r.json()["detail"].startswith("stale version"), r.text
        with http.websocket_connect(f"/ws/games/{gid}?lang=fr") as ws:
            ws.receive_json()
            ws.send_json({"type": "dance"})
            assert ws.receive_json()["message"] == "message mal formé : type inconnu 'dance'"


def test_a_game_log_reads_in_each_language(tmp_path):
    """The same game's log, asked in English and in French: as many lines, the French ones in
    French (the server narrates once and tells the events again in the reader's language), and
    each listed action with its words in the page's language."""
    import time

    from fastapi.testclient import TestClient

    from cyclades.server.app import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", bot_delay=0)) as http:
        g = http.post("/api/games", json={"players": 3, "seats": ["you", "random", "random"], "seed": 4}).json()
        token = g["seats"][0]["url"].split("token=")[1]
        for _step in range(30):  # the offerings: the person bids, the bots answer
            st = http.get(f"/api/games/{g['game_id']}", params={"token": token, "lang": "fr"}).json()
            if st["legal_actions"]:
                a = st["legal_actions"][0]
                assert a["text"] and st["waiting"].startswith("Vous ")
                http.post(f"/api/games/{g['game_id']}/actions",
                          json={"token": token, "version": st["version"], "action": a})
            else:
                time.sleep(0.05)
        # Read both logs while the game waits on the person, so that no bot adds a line between them
        for _wait in range(400):
            if http.get(f"/api/games/{g['game_id']}", params={"token": token}).json()["legal_actions"]:
                break
            time.sleep(0.05)
        en = http.get(f"/api/games/{g['game_id']}/log").json()["log"]
        fr = http.get(f"/api/games/{g['game_id']}/log", params={"lang": "fr"}).json()["log"]
    assert len(en) == len(fr) > 10 and en != fr
    assert any(" prend " in line and " PO" not in line for line in fr), fr[:5]
    assert any(" takes control of " in line for line in en)


def test_the_terminal_game_in_the_pseudo_locale_leaves_no_word_unmarked(tmp_path):
    """`cyclades play --lang qps`: the whole screen up to the first choices, a bad key's answer,
    the position and the leaving words, every word from the catalog (player and area names
    apart)."""
    result = CliRunner().invoke(cli, ["play", "--lang", "qps", "--seed", "3", "--save", str(tmp_path / "g.json")],
                                input="1\nzz\np\n1\nq\n")
    assert result.exit_code == 0, result.output
    from cyclades.engine.game import Game
    board = Game.new(players=3, seed=3).board
    proper = sorted(set(board.names), key=len, reverse=True)
    bad = []
    for line in result.output.splitlines():
        rest = unmarked(line)
        for n in proper:
            rest = rest.replace(n, " ")
        rest = re.sub(r"\]: \S*$", "]", rest)  # what the player typed, echoed after the prompt
        rest = re.sub(r"\[[^\]]*\]|'[^']*'|`[^`]*`|" + re.escape(str(tmp_path)) + r"\S*", " ", rest)
        if not marked(rest):
            bad.append(line)
    assert not bad, "\n".join(bad[:15])


def test_french_joins_a_word_to_the_name_it_gets():
    """French elides and contracts at a message's seams (content/i18n.py `seam`): "de" + "Anafi"
    is "d'Anafi", "de le golfe" "du golfe", "à le Sphinx" "au Sphinx"; the message's own words and
    the name's are kept, and English is never touched."""
    from cyclades.content.i18n import _, elides, joined

    with language("fr"):
        assert joined("Partir de {area}", area="Anafi") == "Partir d'Anafi"
        assert joined("Partir de {area}", area=names.place_in_sentence("Gulf of Eos", True)) \
            == "Partir du golfe d'Éos"
        assert joined("pouvoir de {card} grâce à {by}", card=names.called("athena"), by=names.called("sphinx")) \
            == "pouvoir d'Athéna grâce au Sphinx"
        assert joined("De {a} à {b}", a="les îles", b="les mers") == "Des îles aux mers"
        assert joined("de {a}, de {b}, de {c}", a=names.called("hydra"), b="Héra", c=names.called("harpy")) \
            == "de l'Hydre, d'Héra, de la Harpie"
        assert joined("plus {x} que {y}", x="3", y="un autre") == "plus 3 qu'un autre"
        assert joined("Aide {x}, de {n} PO", x="Ares", n=8) == "Aide Ares, de 8 PO"
        assert joined("{0} de {1}", "a", "Anafi") == "a d'Anafi" and joined("Kide {x}", x="Anafi") == "Kide Anafi"
        # every French message filled through the catalog gets its seams joined
        assert _("Offer {n} GP to {god}").format(n=2, god=names.called("athena")) == "Offrir 2 PO à Athéna"
        assert _("Waiting on {name}").format(name="Ariane") == "En attente d'Ariane"
        assert _("Waiting on {name}").format(name="Bruno") == "En attente de Bruno"
    assert elides("Éos") and elides("hôte") and not elides("Héros") and not elides("8") and not elides("")
    assert joined("Partir de {area}", area="Anafi") == "Partir de Anafi"  # English: as written
    assert _("Waiting on {name}").format(name="Ann") == "Waiting on Ann" and type(_("Waiting on {name}")) is str


def test_every_page_extends_the_one_layout_and_keeps_working_under_the_csp(tmp_path):
    """The pages share one layout (web/templates/_base.html: the <head>, the top bar, the
    switch): each is served 200 in English and in French, with its language, the browser's
    strings before its scripts, the switch, and a CSP that allows each of its <style> blocks by
    its hash (and no inline script)."""
    import base64
    import hashlib

    from fastapi.testclient import TestClient

    from cyclades.server.app import create_app
    from cyclades.server.i18n import TEMPLATES
    pages = {"/": "index", "/game/abc": "game", "/rules": "rules", "/tutorial": "tutorial",
             "/replay": "replay", "/login": "login", "/my": "my", "/play": "play",
             "/players/zoe": "profile", "/leaderboard": "leaderboard", "/account": "account"}
    templates = {p.stem for p in TEMPLATES.glob("*.html") if not p.name.startswith("_")}
    assert templates == set(pages.values())
    for name in templates:
        assert (TEMPLATES / f"{name}.html").read_text().startswith('{% extends "_base.html" %}'), name
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}")) as http:
        for path, name in pages.items():
            for lang in ("en", "fr"):
                r = http.get(path, params={"lang": lang})
                assert r.status_code == 200, (path, r.status_code)
                html, csp = r.text, r.headers["content-security-policy"]
                assert html.startswith("<!doctype html>") and f'<html lang="{lang}">' in html, path
                assert html.count('<header class="topbar">') == 1 and 'id="language"' in html, path
                assert html.index(f"/strings/{lang}.js") < html.index('type="module"'), path
                assert "script-src 'self';" in csp or csp.rstrip(";").endswith("script-src 'self'")
                for style in re.findall(r"<style[^>]*>(.*?)</style>", html, re.S):
                    digest = base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()
                    assert f"'sha256-{digest}'" in csp, (path, name)
        assert "Mes parties" in http.get("/my", params={"lang": "fr"}).text


def test_the_guard_and_the_middlewares_refuse_in_the_asked_language(tmp_path):
    """The refusals made before a route (the Guard's body checks and rate limits, the login's
    CSRF check) and the 422 of a malformed request speak the request's language too; English
    keeps its words."""
    from fastapi.testclient import TestClient

    from cyclades.server.app import create_app
    from cyclades.server.security import ServerLimits
    fr = {"accept-language": "fr"}
    limits = ServerLimits(extra={"people": {"signup_rate": "1/minute"}})
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", limits=limits)) as http:
        r = http.post("/api/games", content=b"\xff{}", headers={**fr, "content-type": "application/json"})
        assert r.status_code == 422 and r.json()["detail"].startswith("corps mal formé : ce n'est pas du texte UTF-8")
        r = http.post("/api/games", content=b"[" * 200 + b"]" * 200, headers={"content-type": "application/json"})
        assert r.json()["detail"] == "malformed body: JSON nested deeper than 64 levels", r.text
        r = http.post("/api/games", content=b"x=1", headers={**fr, "content-type": "text/plain"})
        assert r.status_code == 415 and r.json()["detail"].startswith("envoyez le corps en JSON"), r.text
        r = http.post("/api/games", json={"players": "many"}, headers=fr)
        assert r.status_code == 422 and r.json()["detail"].startswith("requête mal formée : players"), r.text
        r = http.get("/api/content", params={"ruleset": "zz"}, headers=fr)
        assert r.status_code == 422 and r.json()["detail"].startswith("pas de règles 'zz' : choisissez parmi "), r.text
        r = http.post("/api/language", json={"lang": "xx"}, headers=fr)
        assert r.json()["detail"] == "pas de langue 'xx' : choisissez parmi en, fr"
        body = {"name": "Zoé", "password": "une phrase assez longue"}
        assert http.post("/api/account/signup", json=body).status_code == 201
        r = http.post("/api/language", json={"lang": "fr"}, headers=fr)  # logged in, no CSRF token
        assert r.status_code == 403 and r.json()["detail"].startswith("refusé : une requête connectée"), r.text
        http.cookies.clear()  # logged out: a second account from the same address
        r = http.post("/api/account/signup", json={**body, "name": "Yann"}, headers=fr)
        assert r.status_code == 429, r.text
        assert r.json()["detail"].startswith("trop de comptes créés depuis votre adresse : au plus 1 par 1 minute ;")
        r = http.post("/api/account/signup", json={**body, "name": "Yann"})
        assert r.json()["detail"].startswith("too many accounts created from your address: at most 1 per 1 minute;")


def test_every_refusal_names_the_parts_its_message_asks_for():
    """Each `Refused(status, N_("... {part} ..."), part=...)` of the server gives exactly the
    parts its catalog message names (a missing one would turn a refusal into a 500)."""
    import ast
    import string
    checked = 0
    for path in sorted((ROOT / "src" / "cyclades" / "server").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) in ("Refused", "SeatsChanged")
                    and len(node.args) >= 2):
                continue
            given = {k.arg for k in node.keywords} - {"retry_after"}
            message = node.args[1]
            branches = [message.body, message.orelse] if isinstance(message, ast.IfExp) else [message]
            for m in branches:
                if isinstance(m, ast.Call) and getattr(m.func, "id", "") == "N_":
                    asked = {f for _, f, _, _ in string.Formatter().parse(m.args[0].value) if f}
                    assert asked == given, f"{path.name}:{node.lineno}: asks {asked}, gives {given}"
                    checked += 1
    assert checked > 100
