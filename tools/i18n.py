"""The catalog's chores, with Babel (docs/translating.md):

    python tools/i18n.py update    # extract every marked string (babel.cfg) into messages.pot,
                                   # and merge it into each language's messages.po
    python tools/i18n.py compile   # each messages.po -> messages.mo (the package compiles on
                                   # install too, and in memory when the .mo is stale)
    python tools/i18n.py missing   # the messages of a language without a translation
    python tools/i18n.py extract FILE  # the template as the sources mark it now, into FILE
"""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "cyclades" / "locale"
POT = LOCALE / "messages.pot"
KEYWORDS = ["N_", "pgettext:1c,2", "ngettext:1,2"]


def babel(*args: str) -> None:
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract(pot: Path = POT) -> None:
    """Every marked string of the sources (babel.cfg) into the template `pot`."""
    os.chdir(ROOT)  # the catalog names source files by their paths in the repository
    babel("extract", "-F", str(ROOT / "babel.cfg"), "-o", str(pot), "--no-wrap", "--sort-by-file",
          "--project", "cyclades", "--copyright-holder", "the Cyclades project",
          *(f"-k{k}" for k in KEYWORDS), ".")


def update() -> None:
    extract()
    for po in LOCALE.glob("*/LC_MESSAGES/messages.po"):
        babel("update", "-i", str(POT), "-o", str(po), "-l", po.parent.parent.name, "--no-wrap",
              "--ignore-obsolete", "--no-fuzzy-matching")


def compile_all() -> None:
    babel("compile", "-d", str(LOCALE), "--statistics")


def missing(lang: str = "fr") -> None:
    with (LOCALE / lang / "LC_MESSAGES" / "messages.po").open("rb") as f:
        catalog = read_po(f)
    for m in catalog:
        if m.id and (not m.string or (isinstance(m.string, tuple) and not all(m.string)) or m.fuzzy):
            print(repr(m.id))


if __name__ == "__main__":
    what = sys.argv[1] if len(sys.argv) > 1 else "update"
    {"update": update, "compile": compile_all, "missing": lambda: missing(*sys.argv[2:]),
     "extract": lambda: extract(Path(sys.argv[2]).resolve())}[what]()
