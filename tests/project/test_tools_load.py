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
