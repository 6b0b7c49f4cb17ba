"""docs/rulings.md is the project's record of its rulings: every `R<number>` the code and the
tests cite has an entry there, with the rulebook passage it settles."""
import re

from repository import ROOT

CITATION = re.compile(r"\bR(\d+)\b")
TEXT_FILES = {".py", ".md", ".yaml", ".yml", ".json", ".js", ".html", ".css", ".txt", ".toml"}


def cited() -> dict:
    """ruling number -> the files that cite it, over src/ and tests/."""
    out = {}
    for top in ("src", "tests"):
        for path in (ROOT / top).rglob("*"):
            # Vendored third-party files (axe-core) are not ours and cite no ruling.
            skip = {"__pycache__", "vendor"} & set(path.parts)
            if path.suffix not in TEXT_FILES or skip or not path.is_file():
                continue
            for n in CITATION.findall(path.read_text(errors="replace")):
                out.setdefault(int(n), set()).add(str(path.relative_to(ROOT)))
    return out


def entries() -> dict:
    """ruling number -> its entry's text in docs/rulings.md."""
    text = (ROOT / "docs" / "rulings.md").read_text()
    parts = re.split(r"^### R(\d+) ", text, flags=re.M)
    return {int(n): body for n, body in zip(parts[1::2], parts[2::2])}


def test_every_cited_ruling_has_an_entry():
    documented = entries()
    missing = {n: sorted(files)[:3] for n, files in cited().items() if n not in documented}
    assert not missing, f"rulings cited but not in docs/rulings.md: {missing}"


def test_each_entry_names_the_rulebook_passage_it_settles():
    for n, body in entries().items():
        assert "*Settles:*" in body, f"R{n} says which rulebook passage it settles"
        assert re.search(r"Legendary|Maelström|classic|rulebook", body.split("*Settles:*")[1]), n


def test_the_rulings_are_numbered_without_gaps():
    numbers = sorted(entries())
    assert numbers == list(range(1, len(numbers) + 1))
    assert set(cited()) <= set(numbers)
