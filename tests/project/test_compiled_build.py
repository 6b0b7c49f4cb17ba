"""The optional compiled build: tools/build_compiled.py with Cython over the engine
and the search (agents/evaluation.py, greedy.py, mcts.py) builds; the engine's and the
agents' tests pass on it, run in a process that imports the compiled modules (a test among
them checks that it does: `CYCLADES_EXPECT_COMPILED`); and it plays the games and searches of
the pure engine, decision for decision, as the README says it does.

In CI: the build lost every card power plugged in with `@plugs` (Medusa, the Calydonian Boar...)
for two days while this test ran on demand only. Skipped, saying why, without a C compiler.
About two minutes on two cores: the C is compiled unoptimized, half a minute.
"""
from __future__ import annotations

import importlib
import importlib.util
import json
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


@pytest.fixture(scope="module")
def compiled_src(tmp_path_factory):
    """The src/ of a Cython build of this checkout (unoptimized C: this checks what the compiled
    code does, not its speed; benchmarks/compiled_speed.py builds it optimized)."""
    if os.environ.get("CYCLADES_EXPECT_COMPILED"):
        pytest.skip("this is the compiled build's own test run")
    assert importlib.util.find_spec("Cython"), "Cython is not installed (the test extra brings it)"
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        pytest.skip(f"no C compiler ({compiler})")
    out = tmp_path_factory.mktemp("compiled")
    cflags = (os.environ.get("CFLAGS", "") + " -O0").strip()  # the last -O wins: a seventh of the time
    build = subprocess.run([sys.executable, BUILD, str(out), "--backend", "cython", "--agents"],
                           capture_output=True, text=True, timeout=1200, env=dict(os.environ, CFLAGS=cflags))
    assert build.returncode == 0, build.stdout + build.stderr
    src = out / "src"
    for rel in COMPILED:
        assert (src / (rel + EXT)).exists(), f"{rel} was not compiled"
    return src


def test_engine_and_agent_tests_pass_on_the_compiled_build(compiled_src):
    env = dict(os.environ, PYTHONPATH=str(compiled_src), CYCLADES_EXPECT_COMPILED="1")
    tests = [str(path) for name in ENGINE_AND_AGENT_TESTS for path in (ROOT / "tests").glob(f"*/{name}")]
    # -x: a build that breaks a rule can also make a later test's game loop for ever
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    summary = run.stdout.strip().splitlines()[-1] if run.stdout.strip() else ""
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in summary and "failed" not in summary, summary


# Random games in every edition and player count, each decision's legal actions written down,
# then a short search at a position of each: what one engine must give the other.
SAME_PLAY = """
import json, random, sys
import cyclades
from cyclades.agents.mcts import MCTSAgent
from cyclades.engine import game as game_module
out = {"engine": game_module.__file__, "games": []}
for ruleset, players, teams, maelstrom in [("legendary", 3, False, True), ("legendary", 3, False, False),
                                           ("legendary", 4, True, True), ("legendary", 5, False, True),
                                           ("legendary", 6, False, True), ("classic", 2, False, False),
                                           ("classic", 4, False, False)]:
    for seed in (1, 2):
        game = cyclades.new_game(players=players, ruleset=ruleset, teams=teams, maelstrom=maelstrom, seed=seed,
                                 max_cycles=30)
        rng, trail, middle = random.Random(seed), [], None
        while not game.is_over:
            legal = game.legal_actions()
            trail.append(sorted(str(a.to_json()) for a in legal))
            game.apply(rng.choice(legal))
            if len(trail) == 150:
                middle = game.copy()
        search = None
        if middle is not None and not middle.is_over:
            agent = MCTSAgent(seed=seed, iterations=40)
            chosen = agent.act(middle, middle.to_move)
            search = [str(chosen.to_json()), [[str(a.to_json()), n, round(w, 9)] for a, n, w in agent.last_stats]]
        out["games"].append({"mode": [ruleset, players, teams, maelstrom, seed], "trail": trail,
                             "final": game.to_json(), "search": search})
json.dump(out, sys.stdout)
"""


def play(src):
    done = subprocess.run([sys.executable, "-c", SAME_PLAY], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, PYTHONPATH=str(src)))
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def test_the_compiled_build_plays_the_pure_engines_games(compiled_src):
    pure, compiled = play(ROOT / "src"), play(compiled_src)
    assert pure["engine"].endswith(".py") and compiled["engine"].endswith(EXT), (pure["engine"], compiled["engine"])
    for mine, theirs in zip(compiled["games"], pure["games"], strict=True):
        mode = mine["mode"]
        for k, (legal, expected) in enumerate(zip(mine["trail"], theirs["trail"], strict=False)):
            assert legal == expected, f"{mode}, decision {k}: compiled {legal}, pure {expected}"
        assert len(mine["trail"]) == len(theirs["trail"]), mode
        assert mine["final"] == theirs["final"], mode
        assert mine["search"] == theirs["search"], f"{mode}: another search"
    assert sum(g["search"] is not None for g in pure["games"]) >= 6
