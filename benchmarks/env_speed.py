#!/usr/bin/env python3
"""Learning-environment speed: PettingZoo steps/s next to the engine's decisions/s.

    python benchmarks/env_speed.py [--seconds S] [--players N] [--quick] [--no-vector]
                                   [--vector-seconds S] [--json FILE] [--profile N]

A masked random policy plays full games through the PettingZoo AEC environment (`env()`,
PettingZoo's usual wrappers, and `raw_env()` without them): each step is `last()` (the agent's
observation vector and action mask), a uniform choice among the mask's slots, `step()`; and,
as a policy that needs no observation, `last(observe=False)` with the mask from
`info["action_mask"]` (no vector is built: observations are built only when asked for). The
engine alone plays the same games (same seeds, Legendary, `max_cycles=100`) with uniform random
decisions (`legal_actions()`, `apply()`). The four alternate game by game, the one that has
used the least CPU time playing next, so that the load of a shared machine falls on all alike;
the clocks run over the decision loops only (not over `reset()`/`new_game`). The figures that
count are the ratios of PettingZoo steps/s to engine decisions/s: with the mask only (target
>= 0.5: what the environment costs on top of the game), and with every observation read (what a
learning run pays for its observations too). It is given by this process's CPU time
(the steadier on a shared machine: the time other processes held the processor is not in it)
and by the wall clock.

Then Gymnasium vector environments (`cyclades.env.make_vector_env`): N = 1, 2, 8
`CycladesEnv(players=3)` against random opponents, `SyncVectorEnv` and `AsyncVectorEnv`, a
masked random policy: learner steps/s over all environments (each learner step includes the
opponents' decisions up to the learner's next one).

`--profile N`: cProfile over N PettingZoo games, the top functions. engine_speed.py runs this
benchmark too (its `env` figures; `--no-env` there to skip).
"""
import argparse
import cProfile
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "src"))  # measure this checkout, not an installed copy

from arguments import at_least, duration  # noqa: E402  (beside this file)
from profile_report import print_profile  # noqa: E402  (beside this file)

import cyclades  # noqa: E402

MAX_CYCLES = 100
TARGET_RATIO = 0.5
# The ratios recorded in baseline.json and guarded (tests/project/test_bench_guard.py): figure key ->
# (baseline key, what the policy reads)
GUARDED = {"mask_ratio": ("env_mask_ratio", "mask only"), "ratio": ("env_ratio", "observing")}
VECTOR_SIZES = (1, 2, 8)


def available():
    """True when the PettingZoo environment can be imported (the `rl` extra)."""
    try:
        import cyclades.env.pettingzoo  # noqa: F401
        return True
    except ImportError:
        return False


def masked_choice(mask, rng):
    """A uniform legal slot. `mask.view(bool)`: numpy's nonzero on an int8 array is about ten
    times slower than on the same bytes read as bools (60 µs against 4 on the 19,929 slots)."""
    legal = mask.view(bool).nonzero()[0]
    return int(legal[rng.randrange(len(legal))])


# --- one game each: (decisions, seconds of the decision loop) --------------------------------

def engine_game(players, seed):
    game = cyclades.new_game(players=players, seed=seed, max_cycles=MAX_CYCLES)
    rng = random.Random(seed)
    n = 0
    t, c = time.perf_counter(), time.process_time()
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
        n += 1
    return n, time.perf_counter() - t, time.process_time() - c


def pettingzoo_game(e, seed, observe=True):
    """`observe`: the policy asks for the observation (`last()`: the vector and the mask), as
    a learner does; else for the mask only (`last(observe=False)`, `info["action_mask"]`): no
    vector is built."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    n = 0
    t, c = time.perf_counter(), time.process_time()
    for _ in e.agent_iter():
        if observe:
            obs, _, terminated, truncated, _ = e.last()
            mask = obs["action_mask"]
        else:
            _, _, terminated, truncated, info = e.last(observe=False)
            mask = info["action_mask"]
        if terminated or truncated:
            e.step(None)
            continue
        e.step(masked_choice(mask, rng))
        n += 1
    return n, time.perf_counter() - t, time.process_time() - c


def pettingzoo_vs_engine(seconds, players=3, games=0):
    """Interleaved games: PettingZoo with its wrappers, without them, and the engine alone.
    Each gets the same CPU time (`seconds`); rates by wall clock and by this process's CPU
    time (which leaves out the time other processes had the processor: steadier here)."""
    from cyclades.env.pettingzoo import env, raw_env
    wrapped, raw = env(players=players), raw_env(players=players)
    runs = {name: [0, 0.0, 0, 0.0] for name in ("pettingzoo", "raw_env", "mask_only", "engine")}
    play = {"pettingzoo": lambda s: pettingzoo_game(wrapped, s),
            "raw_env": lambda s: pettingzoo_game(raw, s),
            "mask_only": lambda s: pettingzoo_game(wrapped, s, observe=False),
            "engine": lambda s: engine_game(players, s)}
    for name in runs:  # warm-up, not counted
        play[name](10_000)
    while True:
        if games:
            pending = [k for k in runs if runs[k][2] < games]
            if not pending:
                break
            name = min(pending, key=lambda k: runs[k][2])
        else:
            name = min(runs, key=lambda k: runs[k][3])
            if runs[name][3] >= seconds:
                break
        r = runs[name]
        n, secs, cpu = play[name](r[2])  # game k of each plays seed k
        r[0] += n
        r[1] += secs
        r[2] += 1
        r[3] += cpu
    out = {k: {"steps": n, "seconds": s, "games": g, "cpu_seconds": c,
               "per_s": n / s if s else 0.0, "per_cpu_s": n / c if c else 0.0}
           for k, (n, s, g, c) in runs.items()}
    eng, cpu = out["engine"]["per_s"], out["engine"]["per_cpu_s"]
    out["wall_ratio"] = out["pettingzoo"]["per_s"] / eng if eng else 0.0
    out["raw_wall_ratio"] = out["raw_env"]["per_s"] / eng if eng else 0.0
    out["ratio"] = out["pettingzoo"]["per_cpu_s"] / cpu if cpu else 0.0
    out["raw_ratio"] = out["raw_env"]["per_cpu_s"] / cpu if cpu else 0.0
    out["mask_ratio"] = out["mask_only"]["per_cpu_s"] / cpu if cpu else 0.0
    out["mask_wall_ratio"] = out["mask_only"]["per_s"] / eng if eng else 0.0
    out["players"] = players
    return out


# --- Gymnasium vector environments --------------------------------------------------------------

def vector_speed(n, asynchronous, seconds, players=3, seed=0):
    """Learner steps/s of `make_vector_env(n, asynchronous)` under a masked random policy."""
    from cyclades.env import make_vector_env
    envs = make_vector_env(n, asynchronous=asynchronous, players=players)
    try:
        rng = random.Random(seed)
        _, infos = envs.reset(seed=seed)
        steps, t0 = 0, time.perf_counter()
        while True:
            masks = infos["action_mask"]
            actions = [masked_choice(m, rng) if m.any() else 0 for m in masks]  # 0: being reset
            _, _, _, _, infos = envs.step(actions)
            steps += n
            elapsed = time.perf_counter() - t0
            if elapsed >= seconds:
                return steps / elapsed
    finally:
        envs.close()


def vector_table(seconds, players=3, sizes=VECTOR_SIZES):
    return {f"{'async' if a else 'sync'}_{n}": vector_speed(n, a, seconds, players)
            for a in (False, True) for n in sizes}


# --- run, print ---------------------------------------------------------------------------------

def run(seconds, players=3, vector_seconds=0.0, games=0):
    result = {"pettingzoo_vs_engine": pettingzoo_vs_engine(seconds, players, games),
              "target_ratio": TARGET_RATIO}
    if vector_seconds:
        result["vector_steps_per_s"] = vector_table(vector_seconds, players)
    return result


def lines(result):
    """The report's lines (engine_speed.py prints them under its own table)."""
    r = result["pettingzoo_vs_engine"]
    pz, raw, masks, eng = r["pettingzoo"], r["raw_env"], r["mask_only"], r["engine"]
    ok = "met" if r["mask_ratio"] >= TARGET_RATIO else "NOT met"
    out = [f"PettingZoo steps/s over engine decisions/s (same run, {r['players']} players, masked "
           f"random policy reading the mask only): {r['mask_ratio']:.2f} by CPU time, "
           f"{r['mask_wall_ratio']:.2f} by wall clock  (target >= {TARGET_RATIO:g}: {ok})",
           f"PettingZoo steps/s over engine decisions/s, the policy reading every observation "
           f"vector too (as a learner does): {r['ratio']:.2f} by CPU time, {r['wall_ratio']:.2f} "
           f"by wall clock",
           f"  env(), last(): {pz['per_s']:,.0f} steps/s ({pz['per_cpu_s']:,.0f} per CPU second, "
           f"{pz['games']} games); env(), last(observe=False): {masks['per_s']:,.0f} "
           f"({masks['per_cpu_s']:,.0f}); raw_env(), last(): {raw['per_s']:,.0f} "
           f"({raw['per_cpu_s']:,.0f}): ratio {r['raw_ratio']:.2f}; engine {eng['per_s']:,.0f} "
           f"decisions/s ({eng['per_cpu_s']:,.0f}, {eng['games']} games)"]
    vec = result.get("vector_steps_per_s")
    if vec:
        cells = []
        for kind in ("sync", "async"):
            cells.append(f"{kind} " + ", ".join(f"N={n}: {vec[f'{kind}_{n}']:,.0f}" for n in VECTOR_SIZES))
        out.append(f"Gymnasium vector env (make_vector_env, {r['players']} players vs random), "
                   f"learner steps/s over all N:")
        out += [f"  {c}" for c in cells]
    return out


def profile(games, players=3, top=25):
    """cProfile over `games` PettingZoo games (env(), masked random policy)."""
    from cyclades.env.pettingzoo import env
    e = env(players=players)
    prof = cProfile.Profile()
    steps = 0
    t = time.perf_counter()
    prof.enable()
    for seed in range(games):
        steps += pettingzoo_game(e, seed)[0]
    prof.disable()
    wall = time.perf_counter() - t
    print_profile(prof, f"{games} PettingZoo games, {players} players, {steps} steps, {wall:.2f} s under cProfile", top)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=duration(), default=None,
                    help="seconds of games for each of PettingZoo, raw_env and the engine "
                         "(default 10, quick 1.5)")
    ap.add_argument("--games", type=at_least(0), default=0, help="exactly N games each instead")
    ap.add_argument("--players", type=at_least(2), default=3)
    ap.add_argument("--quick", action="store_true", help="a short run, no vector environments")
    ap.add_argument("--no-vector", action="store_true", help="skip the vector environments")
    ap.add_argument("--vector-seconds", type=duration(), default=3.0,
                    help="seconds per vector configuration (default 3)")
    ap.add_argument("--json", metavar="FILE", help="write the figures to FILE as JSON")
    ap.add_argument("--profile", type=at_least(0), metavar="N", default=0,
                    help="instead: cProfile over N PettingZoo games, top functions")
    args = ap.parse_args(argv)
    if not available():
        print("the rl extra is not installed (pip install -e '.[rl]'): no environment figures")
        return 1
    if args.profile:
        profile(args.profile, args.players)
        return 0
    seconds = args.seconds if args.seconds is not None else (1.5 if args.quick else 10.0)
    vector = 0.0 if (args.quick or args.no_vector) else args.vector_seconds
    result = run(seconds, args.players, vector, args.games)
    for line in lines(result):
        print(line)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
