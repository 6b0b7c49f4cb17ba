#!/usr/bin/env python3
"""Engine speed: Cyclades side by side with catanatron.

    python benchmarks/engine_speed.py [--games N] [--seconds S] [--quick]
                                      [--update-baseline] [--json FILE] [--profile N]

Random agents play full games: Cyclades (Legendary, `max_cycles=100`) at 3, 4 and 5
players, and catanatron (a pure-Python Settlers of Catan engine, a benchmark-only
dependency: `pip install catanatron==3.2.1`) at 4 players with its RandomPlayer.
Both engines get the same wall-clock budget, and their games are interleaved one
by one (the engine that has used less time plays next) so that the noise of a
shared machine falls on both alike. Then, on positions sampled uniformly from
random games, it times one `copy()`, one legal-action computation (on fresh
copies, so that no cache answers) and one `apply()`, alternating the engines
sample by sample, and keeping per position the fastest of a few repetitions;
then memory and serialized size.

Ratios, not absolute times, are the figures that count (machines are shared and
noisy): our decisions/s over catanatron's actions/s (target >= 2.0, overall and at
3, 4 and 5 players), our legal_actions() and apply() times over its (each < 0.5) and our
copy time over its copy time (target <= 1.0). `--update-baseline` records them in
benchmarks/baseline.json, which tests/project/test_bench_guard.py checks a quick run against.

Then the learning environments (benchmarks/env_speed.py, when the `rl` extra is
installed; `--no-env` skips them): PettingZoo steps/s of a masked random policy next to the
engine's random decisions/s in the same run (reading only the mask: target ratio >= 0.5; and
reading every observation, as a learner does), and, in a full run,
Gymnasium vector environments' steps/s for N = 1, 2, 8, sync and async.
"""
import argparse
import cProfile
import datetime
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "src"))  # measure this checkout, not an installed copy

import env_speed  # noqa: E402  (benchmarks/env_speed.py, beside this file)
from arguments import at_least, duration  # noqa: E402  (beside this file)
from profile_report import print_profile  # noqa: E402  (beside this file)

import cyclades  # noqa: E402

BASELINE = os.path.join(HERE, "baseline.json")
PLAYER_COUNTS = (3, 4, 5)
MAX_CYCLES = 100
CATAN_PIP = "catanatron==3.2.1"
STUCK = []  # games the engine left with no legal action (engine bugs), left out of the figures
TARGETS = {"decisions_ratio": 2.0, "legal_ratio": 0.5, "apply_ratio": 0.5, "copy_ratio": 1.0,
           "state_json_kb": 50.0, "rss_mb": 100.0}


# --- catanatron, imported only here ---------------------------------------------------

def load_catanatron():
    """The catanatron modules the benchmark uses, or None if it is not installed."""
    try:
        import catanatron
        from catanatron import Color, Game, RandomPlayer
        from catanatron.game import TURNS_LIMIT
        from catanatron.json import GameEncoder
        from catanatron.models.actions import generate_playable_actions
    except ImportError:
        return None
    from importlib.metadata import PackageNotFoundError, version
    try:
        ver = version("catanatron")
    except PackageNotFoundError:
        ver = getattr(catanatron, "__version__", "?")
    return argparse.Namespace(Game=Game, RandomPlayer=RandomPlayer, Color=Color,
                              GameEncoder=GameEncoder, playable=generate_playable_actions,
                              turns_limit=TURNS_LIMIT, version=ver)


# --- one game per engine: (setup seconds, loop seconds, decisions) -----------------------

def cyclades_game(players, seed, on_step=None):
    t0 = time.perf_counter()
    game = cyclades.new_game(players=players, seed=seed, max_cycles=MAX_CYCLES)
    rng = random.Random(seed)
    t1 = time.perf_counter()
    n = 0
    while not game.is_over:
        actions = game.legal_actions()
        if not actions:
            raise Stuck(players, seed, n, game)
        action = rng.choice(actions)
        if on_step is not None:
            on_step(game, action)
        game.apply(action)
        n += 1
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, n, game


class Stuck(Exception):
    """An engine bug: the game is not over but nobody has a legal action. The
    benchmark leaves such a game out of its figures and reports it."""

    def __init__(self, players, seed, n, game):
        frame = game.state.stack[-1] if game.state.stack else {}
        self.where = {"players": players, "seed": seed, "decision": n, "frame": dict(frame)}
        super().__init__(f"{players}-player game seed {seed}: no legal action at decision {n}, "
                         f"frame {frame}")


def catan_game(cat, seed, on_step=None):
    """One 4-player game of RandomPlayers, the loop of catanatron's Game.play."""
    t0 = time.perf_counter()
    colors = (cat.Color.RED, cat.Color.BLUE, cat.Color.ORANGE, cat.Color.WHITE)
    game = cat.Game([cat.RandomPlayer(c) for c in colors], seed=seed + 1)  # seed 0 means "random"
    state = game.state
    t1 = time.perf_counter()
    n = 0
    while game.winning_color() is None and state.num_turns < cat.turns_limit:
        action = state.current_player().decide(game, state.playable_actions)
        if on_step is not None:
            on_step(game, action)
        game.execute(action)
        n += 1
    t2 = time.perf_counter()
    return t1 - t0, t2 - t1, n, game


# --- timed games ------------------------------------------------------------------------

class Runs:
    """Accumulated figures of one configuration."""

    def __init__(self):
        self.setup = 0.0
        self.loop = 0.0
        self.lengths = []

    def add(self, setup, loop, n):
        self.setup += setup
        self.loop += loop
        self.lengths.append(n)

    @property
    def total(self):
        return self.setup + self.loop

    def figures(self):
        n, games = sum(self.lengths), len(self.lengths)
        return {
            "games": games,
            "decisions": n,
            "decisions_per_s": n / self.loop if self.loop else 0.0,
            "games_per_s": games / self.total if self.total else 0.0,
            "median_decisions": statistics.median(self.lengths) if games else 0,
            "new_game_ms": 1000 * self.setup / games if games else 0.0,
            "seconds": self.total,
        }


def timed_games(cat, seconds, games):
    """Interleave games of both engines: with a time budget, the engine that has
    used less time plays next; with a game count, round-robin over configurations."""
    ours = {p: Runs() for p in PLAYER_COUNTS}
    theirs = Runs()
    next_seed = {p: 0 for p in PLAYER_COUNTS}
    order = list(PLAYER_COUNTS)
    turn = 0

    def play_ours():
        nonlocal turn
        p = order[turn % len(order)]
        turn += 1
        seed = next_seed[p]
        next_seed[p] += 1
        try:
            setup, loop, n, _ = cyclades_game(p, seed)
        except Stuck as e:
            STUCK.append(e.where)
            return
        ours[p].add(setup, loop, n)

    def play_theirs():
        setup, loop, n, _ = catan_game(cat, len(theirs.lengths))
        theirs.add(setup, loop, n)

    # Warm-up (imports, caches, first allocations), not counted.
    cyclades_game(3, 10_000)
    if cat:
        catan_game(cat, 10_000)

    if games:
        for _ in range(games):
            for _ in PLAYER_COUNTS:
                play_ours()
            if cat:
                play_theirs()
    else:
        while True:
            used_ours = sum(r.total for r in ours.values())
            used_theirs = theirs.total if cat else seconds
            if used_ours >= seconds and used_theirs >= seconds:
                break
            if cat and used_theirs < used_ours:
                play_theirs()
            else:
                play_ours()
    out = {p: ours[p].figures() for p in PLAYER_COUNTS}
    everything = Runs()
    for r in ours.values():
        everything.setup += r.setup
        everything.loop += r.loop
        everything.lengths += r.lengths
    out["all"] = everything.figures()
    return out, (theirs.figures() if cat else None)


# --- per-call costs on sampled positions ------------------------------------------------

def cyclades_pool(players, seeds):
    """(position, the action random play chose there) for every decision of some games."""
    pool = []
    for seed in seeds:
        try:
            cyclades_game(players, seed, on_step=lambda g, a: pool.append((g.copy(), a)))
        except Stuck as e:
            STUCK.append(e.where)
    return pool


def catan_pool(cat, seeds):
    pool = []
    for seed in seeds:
        catan_game(cat, seed, on_step=lambda g, a: pool.append((g.copy(), a)))
    return pool


def best_us(fn, items):
    """Microseconds of the fastest of fn(item) over items that do identical work: the
    minimum, as timeit advises, so that a pause of the shared machine is not counted."""
    perf = time.perf_counter_ns
    best = None
    for x in items:
        t = perf()
        fn(x)
        t = perf() - t
        if best is None or t < best:
            best = t
    return best / 1000


def time_ours(game, action, reps):
    """Microseconds for one copy(), legal_actions() on a fresh copy, and apply()."""
    copy_us = best_us(lambda g: g.copy(), [game] * reps)
    fresh = [game.copy() for _ in range(reps)]
    for c in fresh:
        c._legal = None  # the per-state-version cache would hide the cost
    legal_us = best_us(lambda c: c.legal_actions(), fresh)
    game.legal_actions()  # apply checks the action against the cached list, shared by copies
    apply_us = best_us(lambda c: c.apply(action), [game.copy() for _ in range(reps)])
    return copy_us, legal_us, apply_us


def time_theirs(cat, game, action, reps):
    copy_us = best_us(lambda g: g.copy(), [game] * reps)
    legal_us = best_us(lambda c: cat.playable(c.state), [game.copy() for _ in range(reps)])
    # execute() validates the action, applies it, and computes the next playable
    # actions eagerly (catanatron has no lazy list): that is its cost per decision.
    apply_us = best_us(lambda c: c.execute(action), [game.copy() for _ in range(reps)])
    return copy_us, legal_us, apply_us


def per_call(cat, samples, pool_games, reps):
    rng = random.Random(2024)
    ours = {}
    for p in PLAYER_COUNTS:
        pool = cyclades_pool(p, range(20_000, 20_000 + pool_games))
        ours[p] = rng.sample(pool, min(samples, len(pool)))
    theirs = []
    if cat:
        pool = catan_pool(cat, range(20_000, 20_000 + pool_games))
        theirs = rng.sample(pool, min(samples, len(pool)))
    got = {p: [] for p in PLAYER_COUNTS}
    got_theirs = []
    # Alternate engines sample by sample, so that load on the machine hits both.
    for i in range(samples):
        for p in PLAYER_COUNTS:
            if i < len(ours[p]):
                got[p].append(time_ours(*ours[p][i], reps))
        if i < len(theirs):
            got_theirs.append(time_theirs(cat, *theirs[i], reps))

    def summary(rows):
        if not rows:
            return None
        cols = list(zip(*rows))
        return {name: {"mean": statistics.fmean(c), "median": statistics.median(c)}
                for name, c in zip(("copy_us", "legal_us", "apply_us"), cols)} | {"samples": len(rows)}

    out = {p: summary(got[p]) for p in PLAYER_COUNTS}
    out["all"] = summary([r for p in PLAYER_COUNTS for r in got[p]])
    return out, summary(got_theirs)


# --- memory and size -------------------------------------------------------------------

def traced_peak(fn):
    """Peak bytes allocated (and still alive at some moment) while fn runs."""
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def state_sizes(pool_games):
    """Largest `len(game.to_json())` over every position of some games, per player count."""
    out = {}
    for p in PLAYER_COUNTS:
        biggest = 0
        for seed in range(20_000, 20_000 + pool_games):
            def look(g, a):
                nonlocal biggest
                biggest = max(biggest, len(g.to_json()))
            try:
                _, _, _, g = cyclades_game(p, seed, on_step=look)
            except Stuck as e:
                STUCK.append(e.where)
                continue
            biggest = max(biggest, len(g.to_json()))
        out[p] = biggest
    return out


def child_rss(engine):
    """Max RSS of a fresh process that plays one game (5-player Cyclades or 4-player
    catanatron): what one game costs in process memory, without this benchmark's pools."""
    try:
        res = subprocess.run([sys.executable, os.path.abspath(__file__), "--rss-child", engine],
                             capture_output=True, text=True, timeout=300, check=True)
        return json.loads(res.stdout.strip().splitlines()[-1])
    except (subprocess.SubprocessError, ValueError, IndexError):
        return None


def max_rss_mb():
    """This process's peak resident memory. VmHWM, not ru_maxrss: Linux carries
    ru_maxrss over fork and exec, so a child would report its parent's peak."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024 / (1024 if sys.platform == "darwin" else 1)  # bytes on macOS


def rss_child_main(engine):
    if engine == "cyclades":
        imported = max_rss_mb()
        cyclades_game(5, 1)
    else:
        cat = load_catanatron()
        imported = max_rss_mb()
        catan_game(cat, 1)
    print(json.dumps({"imports_mb": imported, "max_rss_mb": max_rss_mb()}))


def memory(cat, pool_games):
    out = {"tracemalloc_peak_mb": {}, "state_json_max_bytes": state_sizes(pool_games)}
    for p in PLAYER_COUNTS:
        out["tracemalloc_peak_mb"][p] = traced_peak(lambda p=p: cyclades_game(p, 1)) / 2**20
    out["child_rss_5p"] = child_rss("cyclades")
    peer = None
    if cat:
        holder = {}
        peak = traced_peak(lambda: holder.setdefault("g", catan_game(cat, 1)[3]))
        size = len(json.dumps(holder["g"], cls=cat.GameEncoder))
        peer = {"tracemalloc_peak_mb": peak / 2**20, "state_json_bytes_end": size,
                "child_rss": child_rss("catanatron")}
    out["process_max_rss_mb"] = max_rss_mb()
    return out, peer


# --- the run -----------------------------------------------------------------------------

def run(args):
    cat = load_catanatron()
    started = time.perf_counter()
    games, peer = timed_games(cat, args.seconds, args.games)
    calls, peer_calls = per_call(cat, args.samples, args.pool_games, args.reps)
    mem, peer_mem = memory(cat, args.pool_games) if not args.no_memory else ({}, None)
    env = None
    if not args.no_env and env_speed.available():
        env = env_speed.run(args.env_seconds, vector_seconds=0.0 if args.quick else 3.0)
    result = {
        "when": datetime.datetime.now().isoformat(timespec="seconds"),
        "python": platform.python_version(),
        "machine": platform.machine(),
        "mode": "quick" if args.quick else "full",
        "budget_seconds_per_engine": None if args.games else args.seconds,
        "games_per_config": args.games,
        "cyclades": {"games": games, "per_call": calls, "memory": mem},
        "catanatron": None,
        "ratios": None,
    }
    if cat:
        result["catanatron"] = {"version": cat.version, "games": peer, "per_call": peer_calls,
                                "memory": peer_mem}
        result["ratios"] = ratios(games, calls, peer, peer_calls)
    result["env"] = env
    result["stuck_games"] = STUCK
    result["wall_seconds"] = time.perf_counter() - started
    return result


def ratios(games, calls, peer, peer_calls):
    out = {
        "decisions_ratio": games["all"]["decisions_per_s"] / peer["decisions_per_s"],
        "copy_ratio": calls["all"]["copy_us"]["mean"] / peer_calls["copy_us"]["mean"],
        "legal_ratio": calls["all"]["legal_us"]["mean"] / peer_calls["legal_us"]["mean"],
        "apply_ratio": calls["all"]["apply_us"]["mean"] / peer_calls["apply_us"]["mean"],
    }
    for p in PLAYER_COUNTS:
        out[f"decisions_ratio_{p}p"] = games[p]["decisions_per_s"] / peer["decisions_per_s"]
    return out


# --- printing ----------------------------------------------------------------------------

def report(result, baseline):
    from rich.console import Console
    from rich.table import Table

    console = Console(width=150)
    cy, ca = result["cyclades"], result["catanatron"]
    cols = [*PLAYER_COUNTS, "all"]
    mode = (f"{result['games_per_config']} games per configuration" if result["games_per_config"]
            else f"{result['budget_seconds_per_engine']:g} s per engine")
    title = (f"Engine speed, random agents, full games ({result['mode']}, {mode}; "
             f"Python {result['python']}, {result['machine']})")
    t = Table(title=title, title_justify="left")
    t.add_column("figure", no_wrap=True)
    for c in cols:
        t.add_column(f"cyclades {c}p" if c != "all" else "cyclades 3-5p", justify="right")
    t.add_column(f"catanatron {ca['version']} 4p" if ca else "catanatron (not installed)", justify="right")
    t.add_column("ratio ours/theirs", justify="right")

    def row(name, ours, theirs=None, ratio=None, fmt="{:,.0f}"):
        cells = [fmt.format(v) if isinstance(v, (int, float)) else (v or "—") for v in ours]
        peer_cell = fmt.format(theirs) if isinstance(theirs, (int, float)) else "—"
        t.add_row(name, *cells, peer_cell, f"{ratio:.2f}" if ratio is not None else "")

    g, pg = cy["games"], (ca["games"] if ca else {})
    r = result["ratios"] or {}
    row("games played", [g[c]["games"] for c in cols], pg.get("games"))
    row("decisions (actions) / s", [g[c]["decisions_per_s"] for c in cols], pg.get("decisions_per_s"),
        r.get("decisions_ratio"))
    row("games / s", [g[c]["games_per_s"] for c in cols], pg.get("games_per_s"), fmt="{:,.1f}")
    row("median decisions / game", [g[c]["median_decisions"] for c in cols], pg.get("median_decisions"))
    row("new game (ms)", [g[c]["new_game_ms"] for c in cols], pg.get("new_game_ms"), fmt="{:.2f}")
    pc, ppc = cy["per_call"], (ca["per_call"] if ca else None)
    for key, name, rk in (("copy_us", "µs per copy()", "copy_ratio"),
                          ("legal_us", "µs per legal_actions(), fresh copy,", "legal_ratio"),
                          ("apply_us", "µs per apply() / execute()", "apply_ratio")):
        row(name + " mean", [pc[c][key]["mean"] for c in cols], ppc and ppc[key]["mean"], r.get(rk),
            fmt="{:.1f}")
        row(name + " median", [pc[c][key]["median"] for c in cols], ppc and ppc[key]["median"],
            fmt="{:.1f}")
    row("sampled positions", [pc[c]["samples"] for c in cols], ppc and ppc["samples"])
    mem = cy["memory"]
    if mem:
        pm = ca["memory"] if ca else {}
        sizes = mem["state_json_max_bytes"]
        row("state JSON max (KB)", [sizes[p] / 1024 for p in PLAYER_COUNTS] + [max(sizes.values()) / 1024],
            pm.get("state_json_bytes_end", 0) / 1024 if pm else None, fmt="{:.1f}")
        row("tracemalloc peak, 1 game (MB)", [mem["tracemalloc_peak_mb"][p] for p in PLAYER_COUNTS] + [None],
            pm.get("tracemalloc_peak_mb") if pm else None, fmt="{:.2f}")
        child, pchild = mem["child_rss_5p"], (pm.get("child_rss") if pm else None)
        row("max RSS, process with 1 game (MB)", [None, None, child and child["max_rss_mb"], None],
            pchild and pchild["max_rss_mb"], fmt="{:.1f}")
        row("  of which interpreter + imports (MB)", [None, None, child and child["imports_mb"], None],
            pchild and pchild["imports_mb"], fmt="{:.1f}")
    console.print(t)
    for line in _verdicts(result, baseline):
        console.print(line, highlight=False)


def _verdicts(result, baseline):
    """The figures against their targets and the baseline, one line each."""
    from rich.markup import escape

    r, mem = result["ratios"] or {}, result["cyclades"]["memory"]
    g = result["cyclades"]["games"]
    pg = result["catanatron"]["games"] if result["catanatron"] else {}
    lines = []
    if r:
        lines.append(_target("decisions/s ratio (ours / catanatron)", r["decisions_ratio"], ">=",
                             TARGETS["decisions_ratio"]))
        theirs = pg.get("decisions_per_s")
        for c in PLAYER_COUNTS:   # the target holds at every player count
            if theirs and g[c]["decisions_per_s"]:
                lines.append(_target(f"  {c} players: decisions/s ratio", g[c]["decisions_per_s"] / theirs, ">=",
                                     TARGETS["decisions_ratio"]))
        lines.append(_target("legal_actions() time ratio (ours / catanatron)", r["legal_ratio"], "<",
                             TARGETS["legal_ratio"]))
        lines.append(_target("apply() time ratio (ours / catanatron)", r["apply_ratio"], "<",
                             TARGETS["apply_ratio"]))
        lines.append(_target("copy() time ratio (ours / catanatron)", r["copy_ratio"], "<=", TARGETS["copy_ratio"]))
    else:
        lines.append(f"catanatron is not installed: no ratios (pip install '{CATAN_PIP}')")
    if mem:
        lines.append(_target("largest serialized state (KB)", max(mem["state_json_max_bytes"].values()) / 1024,
                             "<", TARGETS["state_json_kb"]))
        if mem["child_rss_5p"]:
            lines.append(_target("max RSS of a process playing one 5-player game (MB)",
                                 mem["child_rss_5p"]["max_rss_mb"], "<=", TARGETS["rss_mb"]))
        lines.append(f"this benchmark process: max RSS {mem['process_max_rss_mb']:.1f} MB "
                     f"(both engines, all sampled positions)")
    if baseline and r:
        base = baseline["decisions_ratio"]
        change = r["decisions_ratio"] / base - 1
        lines.append(f"baseline decisions/s ratio {base:.2f} "
                     f"({baseline.get('when', '?')}, {baseline.get('mode', '?')}): "
                     f"now {change:+.0%}; the guard fails below {0.7 * base:.2f}")
    if result.get("env"):
        lines += env_speed.lines(result["env"])
        for key, (recorded, what) in env_speed.GUARDED.items():
            if baseline and baseline.get(recorded):
                now = result["env"]["pettingzoo_vs_engine"][key]
                lines.append(f"baseline PettingZoo/engine ratio ({what}) {baseline[recorded]:.2f}: "
                             f"now {now / baseline[recorded] - 1:+.0%}; the guard fails below "
                             f"{0.7 * baseline[recorded]:.2f}")
    elif result.get("env") is None and not env_speed.available():
        lines.append("the rl extra is not installed: no environment figures (pip install -e '.[rl]')")
    for w in result["stuck_games"]:
        lines.append(f"[bold red]ENGINE BUG, game left out:[/] {w['players']}-player seed {w['seed']}: "
                     f"no legal action at decision {w['decision']}, frame {escape(str(w['frame']))}")
    lines.append(f"wall time {result['wall_seconds']:.1f} s")
    return lines


def _target(name, value, op, target):
    ok = {">=": value >= target, "<=": value <= target, "<": value < target}[op]
    return f"{name}: {value:.2f}  (target {op} {target:g}: {'met' if ok else 'NOT met'})"


def read_baseline():
    try:
        with open(BASELINE) as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def write_baseline(result):
    r = result["ratios"]
    data = {
        "decisions_ratio": round(r["decisions_ratio"], 4),
        "copy_ratio": round(r["copy_ratio"], 4),
        "legal_ratio": round(r["legal_ratio"], 4),
        "apply_ratio": round(r["apply_ratio"], 4),
        "decisions_per_s": round(result["cyclades"]["games"]["all"]["decisions_per_s"]),
        "catanatron_actions_per_s": round(result["catanatron"]["games"]["decisions_per_s"]),
        "catanatron": result["catanatron"]["version"],
        **{recorded: (round(result["env"]["pettingzoo_vs_engine"][key], 4) if result.get("env") else None)
           for key, (recorded, _) in env_speed.GUARDED.items()},
        "env_when": result["when"] if result.get("env") else None,
        "python": result["python"],
        "mode": result["mode"],
        "when": result["when"],
    }
    with open(BASELINE, "w") as fh:
        json.dump(data, fh, indent=2)
        fh.write("\n")


# --- profile -------------------------------------------------------------------------------

def profile(n, top):
    """cProfile over n random 5-player games: the engine's hot spots."""
    prof = cProfile.Profile()
    decisions = 0
    t = time.perf_counter()
    prof.enable()
    for seed in range(n):
        try:
            decisions += cyclades_game(5, seed)[2]
        except Stuck as e:
            print(e)
    prof.disable()
    wall = time.perf_counter() - t
    print_profile(prof, f"{n} random 5-player games, {decisions} decisions, {wall:.2f} s under cProfile", top)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=at_least(0), default=0,
                    help="play exactly N games per configuration (3p, 4p, 5p, catanatron) "
                         "instead of a time budget")
    ap.add_argument("--seconds", type=duration(), default=None,
                    help="wall-clock budget of timed games per engine (default 20, quick 1.5)")
    ap.add_argument("--quick", action="store_true", help="a short run of a few seconds (CI guard)")
    ap.add_argument("--update-baseline", action="store_true",
                    help=f"record the ratios in {os.path.relpath(BASELINE, ROOT)}")
    ap.add_argument("--json", metavar="FILE", help="write every figure to FILE as JSON")
    ap.add_argument("--no-memory", action="store_true", help="skip the memory and size figures")
    ap.add_argument("--no-env", action="store_true",
                    help="skip the learning environments' figures (env_speed.py)")
    ap.add_argument("--profile", type=at_least(0), metavar="N", default=0,
                    help="instead: cProfile over N random 5-player games, top functions")
    ap.add_argument("--top", type=at_least(1), default=30, help="rows of the profile (default 30)")
    ap.add_argument("--rss-child", choices=("cyclades", "catanatron"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.rss_child:
        rss_child_main(args.rss_child)
        return 0
    if args.profile:
        profile(args.profile, args.top)
        return 0
    if args.seconds is None:
        args.seconds = 1.5 if args.quick else 20.0
    args.env_seconds = 1.5 if args.quick else 10.0
    args.samples = 25 if args.quick else 200
    args.pool_games = 2 if args.quick else 5
    args.reps = 5 if args.quick else 10

    result = run(args)
    report(result, read_baseline())
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(result, fh, indent=2, default=str)
    if args.update_baseline:
        if not result["ratios"]:
            print(f"cannot update the baseline without catanatron (pip install '{CATAN_PIP}')")
            return 1
        write_baseline(result)
        print(f"baseline written to {os.path.relpath(BASELINE, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
