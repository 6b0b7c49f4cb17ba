"""The documentation's code runs as shown: every Python block of docs/rl.md and docs/agents.md,
the README's Python block, and docs/scenarios.md's battle example, each document's blocks in
order in a fresh interpreter in an empty directory (as a reader pastes them). A block whose
first line is `# file: NAME` is a file the text tells the reader to write: it is written, not
run; docs/scenarios.md's YAML example is saved as the file its text names."""
import re
import subprocess
import sys

import pytest
from repository import ROOT

BLOCK = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)


def blocks(doc, lang="python"):
    """(line, code) of each `lang` block of `doc`."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    return [(text[:m.start()].count("\n") + 2, m.group(2)) for m in BLOCK.finditer(text) if m.group(1) == lang]


def run_blocks(doc, code_blocks, cwd, timeout=600):
    """Run the blocks in one interpreter, one namespace, in `cwd`; its output. A failure names
    the block by its line in the document."""
    script = ["ns = {'__name__': '__main__'}"]
    for line, code in code_blocks:
        first = code.split("\n", 1)[0]
        if first.startswith("# file: "):
            (cwd / first[len("# file: "):].strip()).write_text(code)
            continue
        script.append(f"exec(compile({code!r}, {f'{doc}, the block at line {line}'!r}, 'exec'), ns)")
    r = subprocess.run([sys.executable, "-c", "\n".join(script)], cwd=cwd, capture_output=True, text=True,
                       timeout=timeout)
    assert r.returncode == 0, r.stderr[-4000:]
    return r.stdout


def test_the_readme_python_block(tmp_path):
    (code,) = [c for _, c in blocks("README.md")]
    out = run_blocks("README.md", [(0, code)], tmp_path)
    assert "'winners'" in out


def test_docs_rl_md_every_python_block(tmp_path):
    for module in ("pyspiel", "sb3_contrib", "resvg_py", "matplotlib"):
        pytest.importorskip(module, reason=f"{module} is not installed (extras 'openspiel', 'train', 'render')")
    code = blocks("docs/rl.md")
    assert len(code) >= 8
    out = run_blocks("docs/rl.md", code, tmp_path)
    assert "decisions in the record" in out


def test_docs_agents_md_every_python_block(tmp_path):
    code = blocks("docs/agents.md")
    assert len(code) >= 4
    out = run_blocks("docs/agents.md", code, tmp_path)
    assert "MCTSAgent(seed=2, iterations=30)" in out and "Cautious(seed=7, patience=2)" in out
    assert "mybots:Cautious" in out


def test_docs_scenarios_md_battle_example_fights_a_battle(tmp_path):
    (yaml_text,) = [c for _, c in blocks("docs/scenarios.md", "yaml")]
    (tmp_path / "my-position.yaml").write_text(yaml_text)
    battle = [(line, c) for line, c in blocks("docs/scenarios.md") if '"battle"' in c]
    assert len(battle) == 1
    out = run_blocks("docs/scenarios.md", battle, tmp_path)
    assert "'type': 'battle'" in out and "'type': 'round'" in out
