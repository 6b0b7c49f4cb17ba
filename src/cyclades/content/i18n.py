"""The game's words in every language it speaks: one gettext catalog (Babel) for the engine's
sentences, the content's names and texts, the server's pages and the browser's strings.

    from cyclades.content.i18n import _, ngettext, language
    _("Offer {n} GP to {god}").format(n=3, god=_("Zeus"))   # in the current language
    with language("fr"):
        ...                                                  # everything inside speaks French

The English words are the catalog's message ids: English needs no catalog, and an English
sentence is the same, byte for byte, as the code writes it. The catalog lives in
cyclades/locale (messages.pot; fr/LC_MESSAGES/messages.po, compiled to messages.mo on
install); `tools/i18n` extracts, updates and compiles it (docs/translating.md). When the
compiled .mo is missing or older than its .po (a checkout, an edit), the .po is compiled in
memory with Babel at first use.

The current language is a context variable: each server request, each `game.log(lang=...)`
call sets its own without touching another's. `PSEUDO` ("qps") is a pseudo-locale that marks
every catalog string as ⟦…⟧: a page or a terminal shown in it has no unmarked word except
what the catalog does not hold on purpose (player names, numbers).
"""
from __future__ import annotations

import contextvars
import gettext as _gettext
import io
import re
import string
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import IO

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "messages"
DEFAULT = "en"
PSEUDO = "qps"
# The languages a player may choose, each named in itself (the switch on every page).
LANGUAGES = {"en": "English", "fr": "Français"}
OPEN, CLOSE = "⟦", "⟧"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("cyclades_language", default=DEFAULT)


class Pseudo(_gettext.NullTranslations):
    """Every message marked ⟦…⟧ (its placeholders kept, so that it formats as the English does)."""

    def gettext(self, message: str) -> str:
        return OPEN + message + CLOSE if message else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.gettext(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return self.gettext(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return self.ngettext(msgid1, msgid2, n)


def normalize(lang: str | None) -> str:
    """A supported language code for `lang` ("fr-CA" -> "fr"), else the default."""
    if not lang:
        return DEFAULT
    code = str(lang).strip().lower().replace("_", "-").split("-")[0]
    if code == PSEUDO or code in LANGUAGES:
        return code
    return DEFAULT


def negotiate(accept_language: str | None) -> str | None:
    """The best supported language of an Accept-Language header ("fr-FR,fr;q=0.9,en;q=0.8"),
    or None when it names none we speak."""
    if not accept_language:
        return None
    choices = []
    for i, part in enumerate(accept_language.split(",")):
        bits = part.strip().split(";")
        q = 1.0
        for b in bits[1:]:
            if b.strip().startswith("q="):
                try:
                    q = float(b.strip()[2:])
                except ValueError:
                    q = 0.0
        code = bits[0].strip().lower().split("-")[0]
        if code in LANGUAGES and q > 0:
            choices.append((-q, i, code))
    return min(choices)[2] if choices else None


def _compiled(po: Path) -> bytes:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    with po.open("rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The catalog of `lang` (English: none, the message ids are English)."""
    lang = normalize(lang)
    if lang == PSEUDO:
        return Pseudo()
    if lang == DEFAULT:
        return _gettext.NullTranslations()
    folder = LOCALE_DIR / lang / "LC_MESSAGES"
    po, mo = folder / f"{DOMAIN}.po", folder / f"{DOMAIN}.mo"
    if mo.is_file() and (not po.is_file() or mo.stat().st_mtime >= po.stat().st_mtime):
        data = mo.read_bytes()
    else:
        data = _compiled(po)
    return _gettext.GNUTranslations(io.BytesIO(data))


def current() -> str:
    return _current.get()


@contextmanager
def language(lang: str | None) -> Iterator[str]:
    """Speak `lang` inside the block (None: keep the current language)."""
    if lang is None:
        yield current()
        return
    token = _current.set(normalize(lang))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def _sentence(lang: str, text: str) -> str:
    """A translated message, as a Sentence when its language elides at its seams."""
    return Sentence(text) if lang in ELIDING and "{" in text else text


def _(message: str) -> str:
    """`message` in the current language."""
    lang = _current.get()
    return _sentence(lang, translations(lang).gettext(message))


gettext = _


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of `n` in the current language (French counts 0 and 1 as singular)."""
    lang = _current.get()
    return _sentence(lang, translations(lang).ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """`message` as meant in `context` (the same English word, two French ones)."""
    lang = _current.get()
    return _sentence(lang, translations(lang).pgettext(context, message))


# --- French elision at a sentence's seams ------------------------------------------------------------
# A French message glues a word to a placeholder ("Partir de {area}", "grâce à {by}", "Offrir {n}
# PO à {god}"); the word it gets decides the seam: "de" + "Anafi" is "d'Anafi", "de" + "le golfe
# d'Éos" is "du golfe d'Éos", "à" + "le Sphinx" is "au Sphinx". The catalog cannot know the word,
# so the seam is made when the message is filled: a French message is a `Sentence`, whose
# `.format()` is `joined()`. Only the word written in the message right before a placeholder is
# changed, never the words of the message or of the name themselves; English is never touched.

ELIDING = frozenset({"fr"})
_VOWELS = "aeiouyàâäéèêëîïôöùûüœæ"
_ASPIRATED = ("héros", "harpie", "hasard", "haut", "hors", "huit")  # h aspiré: "de Héros"
_SEAM = re.compile(r"(?<![\w'’])(de|De|à|À|que|Que) $")
_SEAM_IN_MESSAGE = re.compile(r"(?<![\w'’])(?:de|De|à|À|que|Que) \{")
_CONTRACTED = {("de", "le "): "du ", ("de", "les "): "des ", ("à", "le "): "au ", ("à", "les "): "aux "}


def elides(word: str) -> bool:
    """Whether a French word takes an elided article or preposition before it ("d'Anafi",
    "d'Héra", "d'une Flotte"; not "de Harpie", "de 3 Troupes")."""
    w = word.lower()
    if not w or not w[0].isalpha():
        return False
    if w[0] in _VOWELS:
        return True
    return w[0] == "h" and len(w) > 1 and w[1] in _VOWELS and not w.startswith(_ASPIRATED)


def seam(before: str, word: str) -> tuple[str, str]:
    """French text `before` a placeholder and the `word` it gets, joined as French writes them:
    ("Partir de ", "Anafi") -> ("Partir d'", "Anafi"); ("grâce à ", "le Sphinx") -> ("grâce ",
    "au Sphinx")."""
    m = _SEAM.search(before)
    if not m:
        return before, word
    glue = m.group(1)
    head, low = before[:m.start()], glue.lower()
    for article in ("le ", "les "):
        form = _CONTRACTED.get((low, article))
        if form and word.startswith(article):
            return head, (form.capitalize() if glue[0].isupper() else form) + word[len(article):]
    if low in ("de", "que") and elides(word):
        return head + glue[:-1] + "'", word
    return before, word


_FORMATTER = string.Formatter()


def joined(message: str, *args: object, **parts: object) -> str:
    """`message.format(*args, **parts)`, its seams joined as its language writes them (French:
    `seam`); in another language, or with no seam, exactly `str.format`."""
    if _current.get() not in ELIDING:
        return str.format(message, *args, **parts)
    return Sentence(message).format(*args, **parts)


def _joined(message: str, args: tuple[object, ...], parts: dict[str, object]) -> str:
    out, auto = "", 0
    for literal, named, spec, conversion in _FORMATTER.parse(message):
        out += literal
        if named is None:
            continue
        field = named or str(auto)
        auto += named == ""
        one = "{" + field + ("!" + conversion if conversion else "") + (":" + spec if spec else "") + "}"
        out, word = seam(out, one.format(*args, **parts))
        out += word
    return out


class Sentence(str):
    """A message in a language that elides (French): filled by `joined` (its seams made)."""

    __slots__ = ()

    def format(self, *args: object, **parts: object) -> str:
        text = str(self)
        if not _SEAM_IN_MESSAGE.search(text):
            return str.format(text, *args, **parts)
        return _joined(text, args, parts)


def listing(items: Iterable[object]) -> str:
    """Items as a sentence lists them: "a, b and c" ("a, b et c")."""
    words = [str(x) for x in items if x]
    if len(words) <= 1:
        return "".join(words)
    return _("{items} and {last}").format(items=", ".join(words[:-1]), last=words[-1])


def N_(message: str) -> str:
    """Marks `message` for the catalog without translating it now (a table of words)."""
    return message


def marked(text: str) -> bool:
    """Whether `text` reads as wholly pseudo-locale words: every letter inside ⟦…⟧."""
    return not re.search(r"[^\W\d_]", unmarked(text))


def initial(name: str) -> str:
    """A name's first letter, for a medallion or a building's mark; in the pseudo-locale inside
    its marks, as a whole message would be ("⟦P⟧" of "⟦Port⟧")."""
    if name.startswith(OPEN):
        return OPEN + name[1:2] + CLOSE
    return name[:1]


def unmarked(text: str) -> str:
    """What of `text` lies outside every ⟦…⟧ (nested marks allowed)."""
    out, depth = [], 0
    for ch in text:
        if ch == OPEN:
            depth += 1
        elif ch == CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


# --- Babel's extraction from the tutorial's lessons (babel.cfg) -------------------------------------

TUTORIAL_KEYS = ("title", "intro", "text", "hint", "done", "goal", "summary", "say", "tip", "why")


Extracted = Iterator[tuple[int, str, str, list[str]]]  # Babel's extractor protocol


def extract_yaml(fileobj: IO[bytes], keywords: object, comment_tags: object, options: object) -> Extracted:
    """Every string of a tutorial lesson (YAML) a person reads: the values of TUTORIAL_KEYS."""
    import yaml
    data = yaml.safe_load(fileobj)
    found: list[tuple[int, str, str, list[str]]] = []

    def walk(node: object, key: object = None) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                walk(v, k)
        elif isinstance(node, list):
            for v in node:
                walk(v, key)
        elif isinstance(node, str) and key in TUTORIAL_KEYS and node.strip():
            found.append((0, "", " ".join(node.split()), []))

    walk(data)
    yield from found


def extract_places(fileobj: IO[bytes], keywords: object, comment_tags: object, options: object) -> Extracted:
    """The names of the board's areas (content/*.json): each as the map prints it, and a sea's
    as a sentence names it ("the Gulf of Eos"; in French "le golfe d'Éos")."""
    import json

    def walk(node: object) -> Iterator[str]:
        if isinstance(node, dict):
            if isinstance(node.get("name"), str) and node.get("kind") in ("land", "sea"):
                yield node["name"]
                if node["kind"] == "sea" and not node["name"].lower().startswith("the "):
                    yield "the " + node["name"]
            for v in node.values():
                yield from walk(v)
        elif isinstance(node, list):
            for v in node:
                yield from walk(v)

    for name in dict.fromkeys(walk(json.load(fileobj))):
        yield (0, "", name, [])
