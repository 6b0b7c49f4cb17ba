#!/usr/bin/env python3
"""MCTS iterations per second: this checkout against an older copy of the code, same run.

    .venv/bin/python benchmarks/mcts_speed.py --old /tmp/speed-before/src
    .venv/bin/python benchmarks/mcts_speed.py --old /tmp/speed-before/src --rounds 5 \\
        --positions 8 --iterations 100
    .venv/bin/python benchmarks/mcts_speed.py --old /tmp/speed-before/src --options width=4
    .venv/bin/python benchmarks/mcts_speed.py --old /tmp/speed-before/src --new /tmp/cyc/src
    .venv/bin/python benchmarks/mcts_speed.py --old /tmp/speed-before/src --games 11,12,13

The search's target: iterations per second of `mcts` with its default settings (100
iterations, rollouts by GreedyPolicy(budget=12, depth=1), one worker), 3 players, mid-game
positions, at least doubled. The old code is any copy of the package's `src/` (for example
`git archive <commit> src | tar -x -C /tmp/before`), the new one this checkout's or `--new`
(a compiled build, tools/build_compiled.py); each side runs in its own process
(`PYTHONPATH`), the two alternating round by round so that the load of a shared machine falls
on both alike. The positions are made once (greedy play from several seeds, 30 to 98
decisions in, with at least 3 options for the player to move) and handed to both sides as
records, so both search exactly the same positions with the same agent seeds.

Printed: each round's iterations per second of CPU time for both sides and their ratio, then
the median ratio on its own line with its target. It also checks that both sides chose the same
action with the same root statistics at every position: the optimizations must not change what
the search does, so that its strength per iteration is the old one by construction. `--options`
gives the new side's mcts other options than its defaults (the same syntax as an agent's,
"width=4,c=0.3"): a search that is meant to differ (a setting of the old code
against another) then prints NO there, and its strength is a tournament's question.
`--games` then plays whole games on both sides (every seat mcts, the same seeds): a tournament
of the new code against the old at equal iterations, whose answer is that they play the same
games.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

from arguments import at_least

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGET = 2.0


def positions(count, seed=3):
    """Records of mid-game 3-player positions with at least 3 options for the player to move
    (the positions of benchmarks/mcts_parallel.py)."""
    from mcts_parallel import positions as midgame_games
    return [g.record() for g in midgame_games(count, seed)]


def child(records, iterations, options):
    """One side's searches (run with that side's package first on sys.path)."""
    from cyclades.agents.mcts import MCTSAgent
    from cyclades.engine.game import Game

    games = [Game.from_record(r) for r in records]
    MCTSAgent(seed=99, iterations=10, **options).act(games[0], games[0].to_move)  # warm-up
    wall = cpu = 0.0
    done = 0
    chosen = []
    for i, g in enumerate(games):
        agent = MCTSAgent(seed=i, iterations=iterations, **options)
        t, c = time.perf_counter(), time.process_time()
        a = agent.act(g, g.to_move)
        wall += time.perf_counter() - t
        cpu += time.process_time() - c
        done += agent.last_iterations
        chosen.append([a.to_json(), [[x.to_json(), n, round(w, 9)] for x, n, w in agent.last_stats]])
    return {"iterations": done, "wall": wall, "cpu": cpu, "chosen": chosen}


def play_games(seeds, iterations, options):
    """Whole games (Legendary, 3 players, every seat this side's mcts, seeded by the game's
    seed and the seat): per game its decisions, CPU seconds, winners and a digest of its
    decisions, to compare the two sides' games."""
    import hashlib

    import cyclades
    from cyclades.agents.mcts import MCTSAgent

    out = []
    for seed in seeds:
        g = cyclades.new_game(players=3, seed=seed)
        agents = [MCTSAgent(seed=seed * 10 + k, iterations=iterations, **options) for k in range(3)]
        c = time.process_time()
        while not g.is_over:
            g.apply(agents[g.to_move].act(g, g.to_move))
        history = json.dumps([a.to_json() for a in g.history])
        out.append({"seed": seed, "decisions": len(g.history), "cpu": time.process_time() - c,
                    "winners": g.result()["winners"],
                    "digest": hashlib.sha256(history.encode()).hexdigest()[:16]})
    return out


def compare_games(seeds, iterations, old_src, new_src, options):
    """Both sides play the same whole games: the tournament of new against old at equal
    iterations, which has nothing to tell when every game is the same."""
    print(f"whole games, seeds {', '.join(map(str, seeds))} (every seat mcts, {iterations} iterations):")
    games = ["--child-games", ",".join(map(str, seeds)), "--iterations", str(iterations)]
    sides = {"old": run_side(old_src, games), "new": run_side(new_src, games, options)}
    for o, n in zip(sides["old"], sides["new"]):
        same = "the same game" if o["digest"] == n["digest"] else "another game"
        print(f"  seed {o['seed']}: {o['decisions']} / {n['decisions']} decisions, winners "
              f"{o['winners']} / {n['winners']}, CPU {o['cpu']:.1f} s / {n['cpu']:.1f} s: {same}")
    old_cpu, new_cpu = (sum(x["cpu"] for x in sides[k]) for k in ("old", "new"))
    same = all(o["digest"] == n["digest"] for o, n in zip(sides["old"], sides["new"]))
    print(f"whole games CPU time old/new: {old_cpu / new_cpu:.2f}; the same games: "
          + ("yes" if same else "NO"))


def run_side(src, child_args, options=None):
    """This script's child mode (`child_args`) with `src` first on the path: its JSON answer.
    `options`: the mcts options of that side (the new side's `--options`)."""
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, os.path.abspath(__file__), *child_args,
                          "--child-options", json.dumps(options or {})],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", required=False, help="the old code's src/ directory")
    ap.add_argument("--new", default=os.path.join(ROOT, "src"),
                    help="the new code's src/ directory (default: this checkout's; for example "
                         "a compiled build's, tools/build_compiled.py)")
    ap.add_argument("--rounds", type=at_least(1), default=3, help="old/new alternations (default 3)")
    ap.add_argument("--positions", type=at_least(1), default=6, help="positions searched per round")
    ap.add_argument("--iterations", type=at_least(1), default=100, help="iterations per decision")
    ap.add_argument("--options", default="",
                    help="the new side's mcts options, e.g. width=4,c=0.3 (default: its defaults)")
    ap.add_argument("--games", default="",
                    help="also play whole games with these seeds on both sides, e.g. 11,12,13 "
                         "(about a minute a game for the old code)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--child-games", help=argparse.SUPPRESS)
    ap.add_argument("--child-options", default="{}", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child_games:
        seeds = [int(x) for x in args.child_games.split(",")]
        print(json.dumps(play_games(seeds, args.iterations, json.loads(args.child_options))))
        return 0
    if args.child:
        with open(args.child) as fh:
            records = json.load(fh)
        print(json.dumps(child(records, args.iterations, json.loads(args.child_options))))
        return 0
    if not args.old:
        ap.error("--old SRC: the src/ directory of the code to compare with")
    try:
        seeds = [int(x) for x in args.games.split(",")] if args.games else []
    except ValueError:
        ap.error(f"--games {args.games}: whole numbers separated by commas, e.g. 11,12,13")
    new_src = os.path.abspath(args.new)
    sys.path.insert(0, os.path.join(ROOT, "src"))  # the positions are made with this checkout
    from cyclades.agents.registry import parse_agent_spec
    options = parse_agent_spec(f"mcts:{args.options}")[1] if args.options else {}
    try:  # a wrong option is refused here, not as a traceback from the new side's process
        from cyclades.agents.mcts import MCTSAgent
        MCTSAgent(**options)
    except (TypeError, ValueError) as e:
        ap.error(f"--options {args.options}: {e}")
    records = positions(args.positions)
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"mcts_speed_{os.getpid()}.json")
    with open(path, "w") as fh:
        json.dump(records, fh)
    print(f"cores: {os.cpu_count()}, load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{len(records)} positions (Legendary, 3 players), mcts iterations={args.iterations}, "
          f"old code: {args.old}, new code: {new_src}"
          + (f", new side's options: {options}" if options else ""))
    ratios, same = [], True
    try:
        for r in range(args.rounds):
            # Alternate which side goes first, so that a drift of the load favours neither.
            order = [("old", args.old), ("new", new_src)]
            if r % 2:
                order.reverse()
            search = ["--child", path, "--iterations", str(args.iterations)]
            res = {name: run_side(src, search, options if name == "new" else None)
                   for name, src in order}
            old, new = res["old"], res["new"]
            o_rate, n_rate = old["iterations"] / old["cpu"], new["iterations"] / new["cpu"]
            ratios.append(n_rate / o_rate)
            same = same and old["chosen"] == new["chosen"]
            print(f"round {r + 1}: old {o_rate:.1f} it/s, new {n_rate:.1f} it/s (CPU time; wall "
                  f"{old['iterations'] / old['wall']:.1f} / {new['iterations'] / new['wall']:.1f}), "
                  f"ratio {n_rate / o_rate:.2f}")
    finally:
        os.unlink(path)
    if ratios:  # (--rounds 0: the whole games only)
        median = statistics.median(ratios)
        print(f"iterations/s ratio new/old (median of {len(ratios)}): {median:.2f}  "
              f"(target >= {TARGET:g}: {'met' if median >= TARGET else 'NOT met'})")
        print("same actions and root statistics as the old code: " + ("yes" if same else "NO"))
    if seeds:
        compare_games(seeds, args.iterations, args.old, new_src, options)
    return 0


if __name__ == "__main__":
    sys.exit(main())
