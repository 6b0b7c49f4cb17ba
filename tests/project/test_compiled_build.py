"""The optional compiled build: tools/build_compiled.py with Cython over the engine
and the search (agents/evaluation.py, greedy.py, mcts.py) builds, and the engine's and the
agents' tests pass on it, run in a process that imports the compiled modules (a test among
them checks that it does: `CYCLADES_EXPECT_COMPILED`).

Skipped, saying why, without Cython (the `test` extra brings it) or a C compiler. About a
minute and a half on two cores: the C is compiled unoptimized, half a minute.
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig

import pytest
from repository import ROOT

BUILD = os.path.join(ROOT, "tools", "build_compiled.py")
EXT = sysconfig.get_config_var("EXT_SUFFIX")

# The tests of the rules engine and of the agents that run on it: what the build compiles.
ENGINE_AND_AGENT_TESTS = [
    "test_battle.py", "test_board.py", "test_classic.py", "test_creatures.py", "test_cycle.py",
    "test_events.py", "test_frames.py", "test_gods.py", "test_heroes.py", "test_log.py",
    "test_metropolis.py", "test_miniatures.py", "test_moves.py", "test_observation.py",
    "test_offerings.py", "test_properties.py", "test_regressions.py", "test_scenario_checks.py",
    "test_setup.py", "test_teams.py", "test_agents.py", "test_mcts_speed.py",
    "test_compiled_build.py",
]
# Modules the build compiles, checked both on disk and as imported in its test run.
COMPILED = ("cyclades/engine/game", "cyclades/engine/turns", "cyclades/agents/mcts",
            "cyclades/agents/greedy", "cyclades/agents/evaluation")


def test_the_hot_modules_are_compiled_when_expected():
    """In the build's test run, the engine and the search are the extension modules."""
    if not os.environ.get("CYCLADES_EXPECT_COMPILED"):
        pytest.skip("runs inside the compiled build's test run (test_engine_and_agent_tests...)")
    for rel in COMPILED:
        module = importlib.import_module(rel.replace("/", "."))
        assert module.__file__.endswith(EXT), module.__file__


@pytest.mark.slow(sample=False)  # on demand (tests/README.md): CI's time goes to the pure engine
def test_engine_and_agent_tests_pass_on_the_compiled_build(tmp_path):
    if os.environ.get("CYCLADES_EXPECT_COMPILED"):
        pytest.skip("this is the compiled build's own test run")
    assert importlib.util.find_spec("Cython"), "Cython is not installed (the test extra brings it)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler})")
    out = tmp_path / "compiled"
    # Unoptimized C (-O0, the last -O wins): this checks what the compiled code does, not its
    # speed (benchmarks/compiled_speed.py builds it optimized), in a seventh of the time.
    cflags = (os.environ.get("CFLAGS", "") + " -O0").strip()
    build = subprocess.run([sys.executable, BUILD, str(out), "--backend", "cython", "--agents"],
                           capture_output=True, text=True, timeout=1200, env=dict(os.environ, CFLAGS=cflags))
    assert build.returncode == 0, build.stdout + build.stderr
    src = out / "src"
    for rel in COMPILED:
        assert (src / (rel + EXT)).exists(), f"{rel} was not compiled"
    env = dict(os.environ, PYTHONPATH=str(src), CYCLADES_EXPECT_COMPILED="1")
    tests = [str(path) for name in ENGINE_AND_AGENT_TESTS for path in (ROOT / "tests").glob(f"*/{name}")]
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800)
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in summary and "failed" not in summary, summary
