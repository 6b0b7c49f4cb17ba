"""Plant known bugs, one at a time, and see which test catches each: is a green run a proof?

    nice -n 19 .venv/bin/python tools/planted_bugs.py                 # every bug, a table
    nice -n 19 .venv/bin/python tools/planted_bugs.py --only E1 S2    # some of them
    nice -n 19 .venv/bin/python tools/planted_bugs.py --tree DIR      # with the tests of DIR

Each bug is a small edit of one module, the kind of slip a change could make (a rule counted
once instead of per unit, a check dropped, a message never sent). The source is copied to a
temporary directory, the edit made there (never in this checkout), and the tests of the bug's
package run against the copy (PYTHONPATH) with `-x`: the first failing test caught it; a bug
with no failure survived. `--tree DIR` takes the tests from another checkout (an older commit
exported with `git archive`), to compare before and after. The table ends with the share
caught per package. Long: run it under `nice -n 19`; it is not part of the test suite (a test
checks that every bug still plants). The server's PostgreSQL bugs need `CYCLADES_TEST_PG` (e.g.
"$(tools/test-postgres.sh)"): without it their tests skip, and the table says so.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The tests run for a bug of each package (slow, browser and compiled-build tests aside).
TESTS = {
    "engine": ["test_invariants.py", "test_battle.py", "test_heroes.py", "test_teams.py", "test_creatures.py",
               "test_miniatures.py", "test_gods.py", "test_metropolis.py", "test_offerings.py", "test_moves.py",
               "test_cycle.py", "test_setup.py", "test_classic.py", "test_regressions.py", "test_scenario_checks.py",
               "test_scenario_export.py", "test_observation.py", "test_events.py", "test_properties.py"],
    "agents": ["test_agents.py", "test_advice.py", "test_levels.py", "test_match.py", "test_estimate.py",
               "test_cli.py"],
    "env": ["test_env.py", "test_env_frozen.py", "test_gym_shaping.py"],
    "server": ["test_server.py", "test_server_multiprocess.py", "test_server_seats.py", "test_server_bots.py",
               "test_server_hardening.py", "test_server_restart.py", "test_housekeeping.py"],
}


@dataclass
class Bug:
    id: str
    package: str
    path: str      # under src/cyclades
    old: str       # text found exactly once in the module
    new: str
    what: str


BUGS = [
    Bug("E1", "engine", "engine/battle.py",
        'for h in side_heroes(g, f, side):\n            total +=',
        'for h in side_heroes(g, f, side)[:1]:\n            total +=',
        'a battle side counts its first hero only (R18)'),
    Bug("E2", "engine", "engine/scoring.py",
        'if g.teams[p] in won]',
        'if g.teams[p] in won and not s.eliminated[p]]',
        "an eliminated teammate is left out of the team's win (R22)"),
    Bug("E3", "engine", "engine/invariants.py",
        '    s, b, r = game.state, game.board, game.rules\n',
        '    return []\n    s, b, r = game.state, game.board, game.rules\n',
        "the invariants' check finds nothing"),
    Bug("E4", "engine", "engine/battle.py",
        'if side == "d":  # R15',
        'if side == "a":  # R15',
        'the fortress helps the attacker instead of the defender (R15)'),
    Bug("E5", "engine", "engine/scoring.py",
        'purse(g, p)) for p in alive}',
        '0) for p in alive}',
        'GP no longer break a tie of metropolises (R21)'),
    Bug("E6", "engine", "engine/cycle.py",
        '            if not s.eliminated[p]:\n                push(g, "turn"',
        '            if True:\n                push(g, "turn"',
        'an eliminated player still takes turns (R27)'),
    Bug("E7", "engine", "engine/cycle.py",
        '        discard_creature_card(g, track[0])\n        track[0] = None',
        '        track[0] = None',
        'the creature on the 2 GP slot vanishes instead of being discarded'),
    Bug("E8", "engine", "engine/state.py",
        'lines += [f"    new.{k} = self.{k}.copy()" for k in _DICTS]',
        'lines += [f"    new.{k} = self.{k}" for k in _DICTS]',
        'a copy shares its dicts with the original'),
    Bug("E9", "engine", "engine/queries.py",
        'mine = {q for q in range(s.n) if friends(g, p, q)} if g.teams else {p}',
        'mine = {p}',
        "a teammate's fleets no longer carry troops (R22)"),
    Bug("E10", "engine", "engine/invariants.py",
        'if s.hero_owner.get(h) != s.ctrl[a]:',
        'if False:',
        "the check of a hero in another player's area is dropped"),
    Bug("E11", "engine", "engine/view.py",
        '"gp": purse(g, p) if viewer == p or s.over or sees_purse(g, viewer, p) else None',
        '"gp": purse(g, p)',
        'a view shows every purse (R24)'),
    Bug("E12", "engine", "engine/battle.py",
        'return f["attacker_troops"] + f["attacker_mercenaries"] + len(f["attacker_heroes"])',
        'return f["attacker_troops"] + f["attacker_mercenaries"]',
        'a side of heroes alone has no units left'),
    Bug("A1", "agents", "agents/mcts.py",
        '/ ch.n)\n            if top is None or u > top:',
        '/ ch.n)\n            if top is None or u < top:',
        'the search picks the least promising child'),
    Bug("A2", "agents", "agents/greedy.py",
        'order = sorted(range(len(legal)), key=lambda i: -scored[i])',
        'order = sorted(range(len(legal)), key=lambda i: scored[i])',
        'the greedy player ranks worst first'),
    Bug("A3", "agents", "agents/evaluation.py",
        '    return vals[p] - 0.5 * max(others) - 0.5 * sum(others) / len(others)',
        '    return vals[p]',
        'the evaluation ignores the rivals'),
    Bug("A4", "agents", "agents/advice.py",
        '    if game.is_over or game.to_move != p:',
        '    if game.is_over:',
        'a hint is given to a player with no decision to take'),
    Bug("V1", "env", "agents/encoding.py",
        'return [1.0 / len(sides) if side(q) in sides else 0.0 for q in range(n)]',
        'return [1.0 if side(q) in sides else 0.0 for q in range(n)]',
        'a shared win rewards each side in full'),
    Bug("V2", "env", "agents/encoding.py",
        '            m[self.encode(a, board)] = 1\n        return m',
        '            m[self.encode(a, board)] = 1\n        m[0] = 1\n        return m',
        'the action mask allows slot 0 always'),
    Bug("S1", "server", "server/sessions.py",
        '        if settings != self.settings:\n'
        '            self.settings.clear()\n'
        '            self.settings.update(settings)\n',
        '',
        "another process's change of a game's settings (its rematch) is never taken in"),
    Bug("S2", "server", "server/sync.py",
        'if owner != self.owner:',
        'if owner == self.owner:',
        'PostgreSQL: a process hears only its own changes'),
    Bug("S3", "server", "server/sessions.py",
        '            raise Refused(403, N_("this token is not a seat of this game"))',
        '            return None',
        'a wrong token watches instead of being refused'),
    Bug("S4", "server", "server/store.py",
        '            c.execute(_NOTIFY, {',
        '            0 and c.execute(_NOTIFY, {',
        'PostgreSQL: no NOTIFY is sent'),
]


def plant(bug: Bug, into: Path) -> None:
    shutil.copytree(ROOT / "src", into / "src", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c"))
    # The benchmarks sit beside src/ as in a checkout (`cyclades bench` finds them there).
    shutil.copytree(ROOT / "benchmarks", into / "benchmarks")
    module = into / "src" / "cyclades" / bug.path
    text = module.read_text()
    if text.count(bug.old) != 1:
        raise SystemExit(f"{bug.id}: the text to change is in {bug.path} {text.count(bug.old)} times, not once")
    module.write_text(text.replace(bug.old, bug.new))
    # compiled once here, so that servers started by the tests start as fast as from a checkout
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(into / "src")], check=True)


def test_paths(tree: Path, package: str) -> list[str]:
    """The test files of a package's bugs in `tree`: in the layer folders (tests/engine/...), or at
    the top of tests/ in an older checkout. A name found nowhere stops the run: pytest given no
    file would run the whole suite instead."""
    paths = []
    for name in TESTS[package]:
        found = sorted((tree / "tests").glob(f"*/{name}")) or sorted((tree / "tests").glob(name))
        if not found:
            raise SystemExit(f"{name} ({package}'s bugs) is not among the tests of {tree}")
        paths += [str(p) for p in found]
    return paths


def run(bug: Bug, tree: Path, timeout: float) -> str:
    """The first test that failed with the bug planted, or "survived"."""
    tests = test_paths(tree, bug.package)
    with tempfile.TemporaryDirectory(prefix=f"bug-{bug.id}-") as tmp:
        plant(bug, Path(tmp))
        env = dict(os.environ, PYTHONPATH=str(Path(tmp) / "src"))
        env.pop("CI", None)
        try:
            p = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                                "-m", "not slow", *tests], cwd=tree, env=env, check=False, capture_output=True,
                               text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            return "timed out"
    failed = re.search(r"^(?:FAILED|ERROR) (.+?)(?: - |$)", p.stdout, re.M)
    if failed:
        return failed.group(1).removeprefix(str(tree) + "/")
    if p.returncode:
        return f"pytest exit {p.returncode}"
    # A bug of what a skipped test needs (PostgreSQL without CYCLADES_TEST_PG, a browser) survives
    # for want of that test: say so, rather than call the suite blind to it.
    skipped = re.search(r"(\d+) skipped", p.stdout)
    return f"survived ({skipped.group(1)} tests skipped here)" if skipped else "survived"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="*", help="bug ids (default: all)")
    ap.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose tests run (default: this one)")
    ap.add_argument("--timeout", type=float, default=3600, help="seconds per bug")
    args = ap.parse_args(argv)
    bugs = [b for b in BUGS if not args.only or b.id in args.only]
    caught: dict[str, list] = {}
    print("| bug | where | what | caught by |\n|---|---|---|---|", flush=True)
    for bug in bugs:
        found = run(bug, args.tree.resolve(), args.timeout)
        caught.setdefault(bug.package, []).append(not found.startswith(("survived", "timed out")))
        print(f"| {bug.id} | {bug.path} | {bug.what} | {found} |", flush=True)
    for package, hits in caught.items():
        print(f"{package}: {sum(hits)} of {len(hits)} caught")
    return 0


if __name__ == "__main__":
    sys.exit(main())
