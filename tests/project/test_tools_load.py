"""The scripts in tools/ are run by hand, so no other test imports them: each must at least load.

tools/screenshots.py imported the browser tests from tests/ after they had moved to tests/web/,
and stopped at its first line until someone ran it (a ModuleNotFoundError). Each script is loaded
here as its own command would load it, in a fresh interpreter, without running its main.
"""
from __future__ import annotations

import subprocess
import sys

import pytest
from repository import ROOT

TOOLS = sorted((ROOT / "tools").glob("*.py"))


def test_there_are_tools_to_load():
    assert len(TOOLS) >= 5, TOOLS


@pytest.mark.parametrize("script", TOOLS, ids=lambda p: p.name)
def test_the_script_loads(script):
    load = f"import runpy; runpy.run_path({str(script)!r}, run_name='loaded_by_test')"
    done = subprocess.run([sys.executable, "-c", load], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{script.name} does not load:\n{done.stderr[-2000:]}"


def test_every_planted_bug_still_plants():
    """tools/planted_bugs.py measures whether a green run is a proof: each bug an edit of a text
    found once in today's source, its tests found in their layer's folder. After the engine and
    the tests were reorganised, 7 of its 22 bugs matched nothing (it stopped at the second) and
    it found none of its test files (pytest, given none, would have run the whole suite)."""
    import runpy

    tool = runpy.run_path(str(ROOT / "tools" / "planted_bugs.py"), run_name="loaded_by_test")
    for bug in tool["BUGS"]:
        text = (ROOT / "src" / "cyclades" / bug.path).read_text(encoding="utf-8")
        assert text.count(bug.old) == 1, f"{bug.id}: its text is in {bug.path} {text.count(bug.old)} times"
    for package, names in tool["TESTS"].items():
        assert len(tool["test_paths"](ROOT, package)) == len(names), package
