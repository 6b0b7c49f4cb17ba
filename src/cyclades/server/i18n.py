"""The server's language plumbing: which language a request speaks, the pages rendered in it,
and the browser's strings.

    ?lang=fr                     this request (and, from a page, the ones it makes) in French;
                                 a page so asked for also sets the cookie if it has none (a link
                                 in a language keeps it for the pages after)
    cookie cyclades_lang         the player's choice (the switch on every page sets it; a login
                                 sets it from the account's setting)
    Accept-Language              else the browser's languages; else English
    POST /api/language {"lang"}  the switch: the cookie, and the account's setting if logged in
    GET  /strings/{lang}.js      the catalog's browser messages in that language (web/static's
                                 `_()` reads them; every page loads it before its modules)

Every word comes from the one catalog (content/i18n.py): the pages are Jinja2 templates
(web/templates) whose words are `_()` calls, the JSON answers are built inside the request's
language (`Languages` sets it for the request's task), and the browser gets no word of its own.
"""
from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape
from pydantic import BaseModel, ConfigDict, StrictStr
from starlette.datastructures import Headers, QueryParams

from ..content import i18n
from ..content.i18n import LANGUAGES, PSEUDO, language, normalize
from ..content.names import every_name

TEMPLATES = Path(__file__).resolve().parent.parent / "web" / "templates"
COOKIE = "cyclades_lang"
COOKIE_DAYS = 365

router = APIRouter()


def _cookie(headers: Headers, name: str) -> str | None:
    for part in (headers.get("cookie") or "").split(";"):
        k, _sep, v = part.strip().partition("=")
        if k == name:
            return v
    return None


def named(asked: str | None) -> str | None:
    """The language a ?lang= or a cookie names ("fr-CA" -> "fr"), or None if it names none."""
    if asked and (normalize(asked) != i18n.DEFAULT or asked.lower().startswith("en")):
        return normalize(asked)
    return None


def chosen(scope) -> str:
    """The language of a request: ?lang=, else the cookie, else Accept-Language, else English."""
    headers = Headers(scope=scope)
    asked = QueryParams(scope.get("query_string", b"")).get("lang") or _cookie(headers, COOKIE)
    return named(asked) or i18n.negotiate(headers.get("accept-language")) or i18n.DEFAULT


def linked(scope) -> str | None:
    """The language a request's ?lang= names, if it is one of the game's (not the pseudo-locale)
    and the browser has not chosen one yet (no cookie): a page so asked for sets the cookie."""
    if _cookie(Headers(scope=scope), COOKIE) is not None:
        return None
    code = named(QueryParams(scope.get("query_string", b"")).get("lang"))
    return code if code in LANGUAGES else None


class Languages:
    """ASGI middleware: each request (and WebSocket) runs in its language (content/i18n.py's
    context variable), also kept as scope["state"]["lang"]. A page asked for with ?lang= by a
    browser without the cookie sets it, so the pages it leads to speak the link's language too."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        lang = chosen(scope)
        scope.setdefault("state", {})["lang"] = lang
        keep = linked(scope) if scope["type"] == "http" else None

        async def send_keeping(message):
            if message["type"] == "http.response.start" and \
                    Headers(raw=message["headers"]).get("content-type", "").startswith("text/html"):
                cookie = Response()
                set_cookie(cookie, keep)
                message["headers"] = [*message["headers"], *(
                    (k, v) for k, v in cookie.raw_headers if k == b"set-cookie")]
            await send(message)
        with language(lang):
            await self.app(scope, receive, send_keeping if keep else send)


def request_language(request: Request) -> str:
    return (request.scope.get("state") or {}).get("lang") or i18n.current()


# --- the pages ---------------------------------------------------------------------------------------

@cache
def _environment() -> Environment:
    env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"])
    env.install_gettext_callables(i18n.gettext, i18n.ngettext, newstyle=True,  # type: ignore[attr-defined]
                                  pgettext=i18n.pgettext)
    return env


def render(name: str, lang: str | None = None) -> HTMLResponse:
    """The page `name` (web/templates) in the current language."""
    lang = lang or i18n.current()
    with language(lang):
        html = _environment().get_template(name).render(lang=lang if lang != PSEUDO else "en",
                                                         language=lang, languages=LANGUAGES)
    return HTMLResponse(html, headers={"content-language": lang, "vary": "Cookie, Accept-Language"})


# --- the browser's strings ---------------------------------------------------------------------------

@cache
def browser_messages() -> tuple:
    """The catalog's messages that the browser's scripts use (their locations in web/static/*.js):
    (id, plural id or None) each."""
    from babel.messages.pofile import read_po
    with (i18n.LOCALE_DIR / "messages.pot").open("rb") as f:
        catalog = read_po(f)
    out = []
    for m in catalog:
        if m.id and any(path.endswith(".js") for path, _line in m.locations):
            out.append((m.id, None) if isinstance(m.id, str) else (m.id[0], m.id[1]))
    return tuple(out)


@cache
def browser_strings(lang: str) -> str:
    """The browser's messages in `lang` as a script: `globalThis.CYCLADES_STRINGS = {...}`.
    A message is its translation; a plural message the list of its forms."""
    t = i18n.translations(lang)
    table: dict[str, str | list[str]] = {}
    for msgid, plural in browser_messages():
        if plural is None:
            table[msgid] = t.gettext(msgid)
        else:
            table[msgid] = [t.ngettext(msgid, plural, 1), t.ngettext(msgid, plural, 2)]
    with language(lang):
        names = every_name()
    data = {"lang": lang, "languages": LANGUAGES, "messages": table, "names": names}
    return "globalThis.CYCLADES_STRINGS = " + json.dumps(data, ensure_ascii=False, sort_keys=True) + ";\n"


@router.get("/strings/{lang}.js", include_in_schema=False)
async def strings(lang: str):
    return Response(browser_strings(normalize(lang)), media_type="text/javascript",
                    headers={"cache-control": "no-cache"})


# --- the switch -----------------------------------------------------------------------------------------

class LanguageChoice(BaseModel):
    model_config = ConfigDict(extra="forbid")
    lang: StrictStr


@router.post("/api/language")
async def choose_language(body: LanguageChoice, request: Request):
    """The player's language: a cookie for this browser, and the account's setting when logged in
    (a login elsewhere then speaks it too)."""
    lang = body.lang.strip().lower()
    if lang not in LANGUAGES and lang != PSEUDO:
        return JSONResponse({"detail": i18n._("no language {lang}: one of {known}").format(
                             lang=repr(body.lang), known=", ".join(LANGUAGES))},
                            status_code=422)
    account = (request.scope.get("state") or {}).get("account")
    people = getattr(request.app.state, "people", None)
    if account and people is not None:
        from .account_store import set_setting
        await people.db(set_setting, account["id"], "language", lang)
    response = JSONResponse({"lang": lang})
    set_cookie(response, lang)
    return response


def set_cookie(response: Response, lang: str) -> None:
    response.set_cookie(COOKIE, lang, max_age=COOKIE_DAYS * 86400, samesite="lax", path="/")


# --- the game's words for a page ------------------------------------------------------------------

def worded(game, legal: list, names: list, you: int | None) -> tuple[list, str]:
    """The legal actions each with its `text`, and the sentence of what the game waits on
    (addressing `you`), in the current language: the page shows them as they are."""
    from ..engine.actions import Action
    from ..engine.wording import action_text, waiting_text
    texts = [{**a, "text": action_text(Action.from_json(a), game, names)} for a in legal]
    return texts, waiting_text(game, names, you)


def board_words(geometry: dict) -> dict:
    """A board's geometry (engine/board.py) with its areas' names in the current language."""
    from ..content.names import place
    if i18n.current() == i18n.DEFAULT:
        return geometry
    return {**geometry, "areas": [{**a, "name": place(a["name"])} for a in geometry.get("areas", [])]}


# --- a game's log in the reader's language ----------------------------------------------------------

class Chronicle:
    """A game's log in every language it is read in. The log is narrated once, in English (the
    lines a session keeps and stores); the events of each decision are kept too, and told again
    in another language the first time a page in that language reads them (a Narrator of its
    own, which counts the lines as the English one does: the same events make the same lines,
    in any language). English costs nothing more."""

    def __init__(self, names: list) -> None:
        self.names = names
        self.events: list[list] = []           # each decision's events, in order
        self._told: dict[str, tuple] = {}      # language -> (its narrator, its lines, decisions told)

    def add(self, events: list) -> None:
        self.events.append(list(events))

    def pop(self) -> None:
        """The last decision was taken back."""
        self.events.pop()
        self._told.clear()

    def clear(self) -> None:
        self.events.clear()
        self._told.clear()

    def lines(self, english: list, game) -> list:
        """The log in the current language (`english`: the lines as narrated)."""
        lang = i18n.current()
        if lang == i18n.DEFAULT:
            return english
        from ..engine.log import Narrator
        narrator, lines, told = self._told.get(lang) or (Narrator(game, names=self.names), [], 0)
        narrator.game = game
        for events in self.events[told:]:
            lines.extend(narrator.lines(events))
        self._told[lang] = (narrator, lines, len(self.events))
        return lines if len(lines) == len(english) else english  # a narration that went astray
