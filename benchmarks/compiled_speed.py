#!/usr/bin/env python3
"""Compiled engine against pure Python, same run: random-play decisions/s and MCTS
iterations/s.

    python tools/build_compiled.py /tmp/cyc-compiled          # the mypyc build (a few minutes)
    python benchmarks/compiled_speed.py --compiled /tmp/cyc-compiled/src
    python benchmarks/compiled_speed.py --compiled /tmp/cyc-compiled/src --pure /tmp/other/src \\
        --rounds 5 --games 9 --positions 6 --iterations 100
    python benchmarks/compiled_speed.py --compiled mypyc=/tmp/a/src --compiled cython=/tmp/b/src

Each side runs in its own process (`PYTHONPATH` = its src/ directory), the sides taking turns
round by round (the order rotates each round), so that the load of a shared machine falls on
all alike; rates are over CPU time (`time.process_time`) of the timed loops. `--compiled` may be
given several times (`LABEL=SRC`) to compare builds in the same run.

- Random play: full games of Legendary (`max_cycles=100`) at 3, 4 and 5 players, decisions
  drawn uniformly from `legal_actions()` with a seeded `random.Random`, the same seeds on both
  sides (different seeds each round). Each side also hashes every game's final JSON: the
  compiled engine must play exactly the same games.
- MCTS: the searches of benchmarks/mcts_speed.py (default `mcts`: 100 iterations, greedy
  rollouts, 3 players, mid-game positions made once by the pure side and handed to both as
  records); both sides must choose the same actions with the same root statistics.

Each game and each search runs `--repeat` times and its fastest time is kept (as timeit
advises): on a loaded machine the slower runs measure the other processes, not the code.

Printed: each round's figures for every side and the ratios over pure, then the median ratios
and the ratio of the best rounds (the least disturbed by other load).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import time

from arguments import at_least

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PLAYER_COUNTS = (3, 4, 5)
MAX_CYCLES = 100


def random_games(seeds, repeat=1):
    """(decisions, CPU seconds of the decision loops, hash of the final positions). Each game is
    played `repeat` times and its fastest time kept (as timeit advises: the slower runs measure
    the machine's other load, not the code)."""
    import cyclades

    digest = hashlib.sha256()
    decisions, cpu = 0, 0.0
    for players, seed in seeds:
        times = []
        for _ in range(repeat):
            game = cyclades.new_game(players=players, seed=seed, max_cycles=MAX_CYCLES)
            rng = random.Random(seed)
            n = 0
            t = time.process_time()
            while not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
                n += 1
            times.append(time.process_time() - t)
        decisions += n
        cpu += min(times)
        digest.update(game.to_json().encode())
    return decisions, cpu, digest.hexdigest()


def searches(records, iterations, repeat=1):
    """MCTS searches of the positions (benchmarks/mcts_speed.py's agent and settings), each
    `repeat` times, its fastest time kept: (iterations, CPU seconds, choices and root stats)."""
    from cyclades.agents.mcts import MCTSAgent
    from cyclades.engine.game import Game

    games = [Game.from_record(r) for r in records]
    MCTSAgent(seed=99, iterations=10).act(games[0], games[0].to_move)  # warm-up, not counted
    done, cpu, chosen = 0, 0.0, []
    for i, g in enumerate(games):
        times = []
        for _ in range(repeat):
            agent = MCTSAgent(seed=i, iterations=iterations)
            t = time.process_time()
            a = agent.act(g, g.to_move)
            times.append(time.process_time() - t)
        done += agent.last_iterations
        cpu += min(times)
        chosen.append([a.to_json(), [[x.to_json(), n, round(w, 9)] for x, n, w in agent.last_stats]])
    return {"iterations": done, "cpu": cpu, "chosen": chosen}


def child(args):
    import cyclades

    package = os.path.dirname(cyclades.__file__)  # the engine's modules, and the agents' if built
    compiled = [f for _, _, files in os.walk(package) for f in files if f.endswith(".so")]
    random_games([(3, 10_000)])  # warm-up, not counted
    seeds = [(p, args.seed_base + i) for i in range(args.games // len(PLAYER_COUNTS) or 1)
             for p in PLAYER_COUNTS]
    n, cpu, digest = random_games(seeds, args.repeat)
    out = {"decisions": n, "cpu": cpu, "digest": digest, "extensions": len(compiled)}
    if args.positions:
        with open(args.records) as fh:
            records = json.load(fh)
        out["mcts"] = searches(records, args.iterations, args.repeat)
    return out


def run_side(src, args, records_path, seed_base):
    env = dict(os.environ, PYTHONPATH=src)
    cmd = [sys.executable, os.path.abspath(__file__), "--child", "--records", records_path,
           "--games", str(args.games), "--seed-base", str(seed_base),
           "--positions", str(args.positions), "--iterations", str(args.iterations),
           "--repeat", str(args.repeat)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if out.returncode:
        sys.stderr.write(out.stderr)
        raise SystemExit(f"the side {src} failed (exit {out.returncode})")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--compiled", action="append", metavar="[LABEL=]SRC",
                    help="src/ directory of a compiled build (tools/build_compiled.py); repeatable")
    ap.add_argument("--pure", default=os.path.join(ROOT, "src"),
                    help="src/ directory of the pure-Python code (default: this checkout's)")
    ap.add_argument("--rounds", type=at_least(1), default=5, help="rounds, every side once in each (default 5)")
    ap.add_argument("--games", type=at_least(1), default=9, help="random games per side and round (default 9)")
    ap.add_argument("--positions", type=at_least(1), default=4,
                    help="MCTS positions searched per side and round (default 4; 0: no MCTS)")
    ap.add_argument("--iterations", type=at_least(1), default=100, help="MCTS iterations per decision")
    ap.add_argument("--repeat", type=at_least(1), default=3,
                    help="runs of each game and search, the fastest kept (default 3)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--records", help=argparse.SUPPRESS)
    ap.add_argument("--seed-base", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args)))
        return 0
    if not args.compiled:
        ap.error("--compiled SRC: the src/ directory of the compiled build")
    sides = [("pure", args.pure)]
    for i, spec in enumerate(args.compiled):
        label, _, src = spec.rpartition("=")
        sides.append((label or ("compiled" if len(args.compiled) == 1 else f"compiled{i + 1}"), src))
    sys.path.insert(0, HERE)
    sys.path.insert(0, os.path.abspath(args.pure))
    from mcts_speed import positions
    records = [] if not args.positions else positions(args.positions)
    path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"compiled_speed_{os.getpid()}.json")
    with open(path, "w") as fh:
        json.dump(records, fh)
    print(f"cores: {os.cpu_count()}, load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for label, src in sides:
        print(f"{label}: {src}")
    print(f"per side and round: {args.games} random games (3, 4, 5 players), "
          f"{len(records)} MCTS searches of {args.iterations} iterations, each run {args.repeat} "
          f"times (the fastest kept)")
    best = {label: [0.0, 0.0] for label, _ in sides}  # the best round's decisions/s, MCTS it/s
    dec = {label: [] for label, _ in sides[1:]}
    its = {label: [] for label, _ in sides[1:]}
    same_games = {label: True for label, _ in sides[1:]}
    same_search = dict(same_games)
    try:
        for r in range(args.rounds):
            k = r % len(sides)
            order = sides[k:] + sides[:k]  # who goes first rotates
            res = {label: run_side(src, args, path, 1000 * r) for label, src in order}
            pure = res["pure"]
            if r == 0:
                print("extension modules: " + ", ".join(f"{label} {res[label]['extensions']}"
                                                       for label, _ in sides))
            for label, _ in sides:
                x = res[label]
                best[label][0] = max(best[label][0], x["decisions"] / x["cpu"])
                if records:
                    best[label][1] = max(best[label][1], x["mcts"]["iterations"] / x["mcts"]["cpu"])
            p_rate = pure["decisions"] / pure["cpu"]
            parts = [f"decisions/s pure {p_rate:,.0f}"]
            for label, _ in sides[1:]:
                c = res[label]
                c_rate = c["decisions"] / c["cpu"]
                dec[label].append(c_rate / p_rate)
                same_games[label] = same_games[label] and c["digest"] == pure["digest"]
                parts.append(f"{label} {c_rate:,.0f} (x{c_rate / p_rate:.2f})")
            if records:
                pi = pure["mcts"]["iterations"] / pure["mcts"]["cpu"]
                parts.append(f"MCTS it/s pure {pi:.1f}")
                for label, _ in sides[1:]:
                    cm = res[label]["mcts"]
                    ci = cm["iterations"] / cm["cpu"]
                    its[label].append(ci / pi)
                    same_search[label] = same_search[label] and cm["chosen"] == pure["mcts"]["chosen"]
                    parts.append(f"{label} {ci:.1f} (x{ci / pi:.2f})")
            print(f"round {r + 1}: " + ", ".join(parts), flush=True)
    finally:
        os.unlink(path)
    for label, _ in sides[1:]:
        d = dec[label]
        print(f"{label}: random-play decisions/s over pure, median of {len(d)}: "
              f"x{statistics.median(d):.2f} (range {min(d):.2f}-{max(d):.2f}; best rounds "
              f"{best[label][0]:,.0f} / {best['pure'][0]:,.0f} = x{best[label][0] / best['pure'][0]:.2f})")
        if records:
            i = its[label]
            print(f"{label}: MCTS iterations/s over pure, median of {len(i)}: "
                  f"x{statistics.median(i):.2f} (range {min(i):.2f}-{max(i):.2f}; best rounds "
                  f"{best[label][1]:.0f} / {best['pure'][1]:.0f} = x{best[label][1] / best['pure'][1]:.2f}); "
                  f"same choices and root statistics: {'yes' if same_search[label] else 'NO'}")
        print(f"{label}: same random games (final positions): {'yes' if same_games[label] else 'NO'}")
    print(f"load average at the end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
