"""Tournaments between agents: many games, seats rotated, win rates with confidence intervals.

Seat rotation: the agent list gives one agent per seat (repeated in turn when shorter than the
number of players); every distinct arrangement of those agents over the seats is played equally
often, each arrangement on the same boards (game seed), so neither the turn order nor the board
favours an agent. The number of games is rounded up to a multiple of the number of
arrangements.

Games run in worker processes on this machine (`workers`, all cores by default), or as Ray tasks
on a cluster (`ray="ADDRESS"`, or `ray="local"` for a Ray instance started here). One game is a
plain function of a small dict (`play_game`), so any executor can run it.

Results: per agent, its seat-games, wins (a shared win counts 1/k to each of the k winners), the
win rate with its 95% Wilson interval (par is one over the number of players), the average
Metropolises, game length (cycles, decisions) and thinking time; written as JSON and CSV, and a
PNG plot of the win rates with their intervals.
"""
from __future__ import annotations

import csv
import itertools
import json
import math
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

MAX_DECISIONS = 100_000  # a guard: no real game comes near it


# --- the schedule ---------------------------------------------------------------------------

def split_agents(text) -> list:
    """ "mcts:iterations=200,c=0.3,greedy,greedy" -> ["mcts:iterations=200,c=0.3", "greedy",
    "greedy"]: a part with "=" and no ":" is an option of the agent before it."""
    out = []
    for part in str(text).split(","):
        part = part.strip()
        if not part:
            continue
        if "=" in part and ":" not in part and out:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def lineups(agents, players) -> list:
    """Every distinct arrangement of the agents over the seats, in a fixed order."""
    if not agents:
        raise ValueError("give at least one agent")
    seats = [agents[i % len(agents)] for i in range(players)]
    return sorted(set(itertools.permutations(seats)))


def schedule(agents, players, games, seed=0, max_cycles=100) -> list:
    """The games to play: dicts for `play_game`. Each block of len(lineups) games shares a
    seed (the same board and cards) and plays every arrangement once."""
    arrangements = lineups(agents, players)
    k = len(arrangements)
    blocks = max(1, math.ceil(games / k))
    out = []
    for block in range(blocks):
        for j, lineup in enumerate(arrangements):
            out.append({"game": block * k + j, "seed": seed + block, "lineup": list(lineup),
                        "players": players, "max_cycles": max_cycles})
    return out


# --- one game ---------------------------------------------------------------------------------

def agent_seed(game_seed, seat) -> int:
    return game_seed * 16 + seat


def play_game(spec) -> dict:
    """Play one game of the schedule; its figures as a row (an error is recorded, not raised)."""
    import cyclades
    from .base import make_agent

    lineup = spec["lineup"]
    n = spec["players"]
    t0 = time.perf_counter()
    game = cyclades.new_game(players=n, seed=spec["seed"], max_cycles=spec.get("max_cycles"))
    seats = [make_agent(name, seed=agent_seed(spec["seed"], p)) for p, name in enumerate(lineup)]
    decisions = [0] * n
    thinking = [0.0] * n
    longest = [0.0] * n
    error = None
    total = 0
    try:
        while not game.is_over:
            if total >= MAX_DECISIONS:
                raise RuntimeError(f"no end after {MAX_DECISIONS} decisions")
            p = game.to_move
            t = time.perf_counter()
            action = seats[p].act(game, p)
            dt = time.perf_counter() - t
            game.apply(action)
            decisions[p] += 1
            thinking[p] += dt
            longest[p] = max(longest[p], dt)
            total += 1
    except Exception as e:  # an engine or agent bug: recorded with its seed, the run goes on
        error = f"{type(e).__name__}: {e}"
    r = game.result()
    if r["cycle_limit"]:
        ending = "cycle_limit"
    elif any(r["eliminated"]):
        ending = "elimination"
    else:
        ending = "metropolises"
    row = {"game": spec["game"], "seed": spec["seed"], "lineup": lineup, "winners": r["winners"],
           "metropolises": r["metropolises"], "gp": r["gp"], "cycles": r["cycles"],
           "decisions": total, "decisions_by_seat": decisions,
           "thinking_by_seat": [round(x, 4) for x in thinking],
           "longest_by_seat": [round(x, 4) for x in longest],
           "seconds": round(time.perf_counter() - t0, 3), "ending": None if error else ending}
    if error:
        row["error"] = error
    return row


# --- statistics ---------------------------------------------------------------------------------

def wilson(successes, n, z=1.96):
    """The Wilson score interval of a proportion (successes may be fractional)."""
    if n <= 0:
        return 0.0, 1.0
    phat = successes / n
    denom = 1 + z * z / n
    centre = (phat + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, phat * (1 - phat)) / n + z * z / (4 * n * n)) / denom
    # The interval holds the observed rate (rounding could put it a hair outside).
    return max(0.0, min(phat, centre - half)), min(1.0, max(phat, centre + half))


def summarize(rows, agents_order=None) -> list:
    """One dict per agent name: seat-games, wins, win rate and interval, averages."""
    ok = [r for r in rows if "error" not in r]
    names = []
    for r in ok:
        for a in r["lineup"]:
            if a not in names:
                names.append(a)
    if agents_order:
        names.sort(key=lambda a: agents_order.index(a) if a in agents_order else len(agents_order))
    out = []
    for name in names:
        seats = wins = metros = cycles = decisions = thinking = 0.0
        longest = 0.0
        games = 0
        by_seat = {}
        for r in ok:
            mine = [p for p, a in enumerate(r["lineup"]) if a == name]
            if not mine:
                continue
            games += 1
            cycles += r["cycles"]
            won = r["winners"]
            for p in mine:
                seats += 1
                share = 1.0 / len(won) if p in won else 0.0
                wins += share
                metros += r["metropolises"][p]
                decisions += r["decisions_by_seat"][p]
                thinking += r["thinking_by_seat"][p]
                longest = max(longest, r["longest_by_seat"][p])
                s = by_seat.setdefault(p, [0.0, 0])
                s[0] += share
                s[1] += 1
        lo, hi = wilson(wins, seats)
        players = len(ok[0]["lineup"]) if ok else 1
        out.append({
            "agent": name, "games": games, "seat_games": int(seats), "wins": round(wins, 3),
            "win_rate": wins / seats if seats else 0.0, "ci_low": lo, "ci_high": hi,
            "par": 1.0 / players,
            "metropolises": metros / seats if seats else 0.0,
            "cycles": cycles / games if games else 0.0,
            "game_decisions": (sum(r["decisions"] for r in ok if name in r["lineup"]) / games) if games else 0.0,
            "decisions": decisions / seats if seats else 0.0,
            "seconds_per_decision": thinking / decisions if decisions else 0.0,
            "longest_decision": longest,
            "win_rate_by_seat": {str(p + 1): s[0] / s[1] for p, s in sorted(by_seat.items())},
        })
    return out


# --- running ---------------------------------------------------------------------------------------

@dataclass
class Tournament:
    agents: list
    players: int = 3
    games: int = 300
    seed: int = 0
    workers: int | None = None
    ray: str | None = None
    max_cycles: int = 100
    rows: list = field(default_factory=list)
    seconds: float = 0.0

    def specs(self) -> list:
        return schedule(self.agents, self.players, self.games, self.seed, self.max_cycles)

    def run(self, on_result=None) -> list:
        """Play every game; `on_result(row)` hears of each as it ends (in any order)."""
        specs = self.specs()
        t0 = time.perf_counter()
        if self.ray:
            rows = _run_ray(specs, self.ray, self.workers, on_result)
        else:
            rows = _run_local(specs, self.workers, on_result)
        self.seconds = time.perf_counter() - t0
        self.rows = sorted(rows, key=lambda r: r["game"])
        return self.rows

    def summary(self) -> list:
        return summarize(self.rows, self.agents)

    def to_json(self) -> dict:
        return {"agents": self.agents, "players": self.players, "games": len(self.rows),
                "seed": self.seed, "max_cycles": self.max_cycles,
                "arrangements": [list(x) for x in lineups(self.agents, self.players)],
                "backend": f"ray ({self.ray})" if self.ray else f"local ({self.workers or os.cpu_count()} workers)",
                "seconds": round(self.seconds, 2),
                "agent_seeds": "seat k of a game of seed s uses seed s*16+k",
                "errors": sum(1 for r in self.rows if "error" in r),
                "summary": self.summary(), "rows": self.rows}

    def write(self, out_dir) -> dict:
        """results.json, games.csv, summary.csv and winrates.png in out_dir; their paths."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"json": out / "results.json", "games_csv": out / "games.csv",
                 "summary_csv": out / "summary.csv", "png": out / "winrates.png"}
        with open(paths["json"], "w") as fh:
            json.dump(self.to_json(), fh, indent=1)
        write_games_csv(self.rows, self.players, paths["games_csv"])
        write_summary_csv(self.summary(), paths["summary_csv"])
        try:
            plot_win_rates(self.summary(), paths["png"], title=self.title())
        except ImportError:
            paths.pop("png")
        return paths

    def title(self) -> str:
        return f"{self.players}-player games, {len(self.rows)} games: {', '.join(self.agents)}"


def _run_local(specs, workers, on_result):
    workers = workers or os.cpu_count() or 1
    rows = []
    if workers <= 1 or len(specs) <= 1:
        for spec in specs:
            row = play_game(spec)
            rows.append(row)
            if on_result:
                on_result(row)
        return rows
    from concurrent.futures import ProcessPoolExecutor, as_completed
    with ProcessPoolExecutor(max_workers=min(workers, len(specs))) as pool:
        futures = [pool.submit(play_game, spec) for spec in specs]
        try:
            for fut in as_completed(futures):
                row = fut.result()
                rows.append(row)
                if on_result:
                    on_result(row)
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise
    return rows


def _run_ray(specs, address, workers, on_result):
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise RuntimeError("--ray needs Ray: pip install 'cyclades[ray]' (or pip install ray)") from e
    started = False
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=workers or None, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
        started = True
    try:
        task = ray.remote(num_cpus=1)(play_game)
        pending = [task.remote(spec) for spec in specs]
        rows = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                row = ray.get(ref)
                rows.append(row)
                if on_result:
                    on_result(row)
        return rows
    finally:
        if started:
            ray.shutdown()


# --- files ------------------------------------------------------------------------------------------

def write_games_csv(rows, players, path):
    cols = ["game", "seed"] + [f"seat{p + 1}" for p in range(players)] + \
        ["winners", "cycles", "decisions", "ending", "seconds"] + \
        [f"metropolises{p + 1}" for p in range(players)] + [f"gp{p + 1}" for p in range(players)] + \
        ["error"]
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        for r in rows:
            w.writerow([r["game"], r["seed"], *r["lineup"],
                        " ".join(str(p + 1) for p in r["winners"]), r["cycles"], r["decisions"],
                        r["ending"] or "", r["seconds"], *r["metropolises"], *r["gp"], r.get("error", "")])


SUMMARY_COLUMNS = ["agent", "games", "seat_games", "wins", "win_rate", "ci_low", "ci_high", "par",
                   "metropolises", "cycles", "game_decisions", "decisions", "seconds_per_decision",
                   "longest_decision"]


def write_summary_csv(summary, path):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(SUMMARY_COLUMNS)
        for s in summary:
            w.writerow([round(s[k], 4) if isinstance(s[k], float) else s[k] for k in SUMMARY_COLUMNS])


def plot_win_rates(summary, path, title=""):
    """A bar per agent: its win rate, the 95% Wilson interval as error bars, par dashed."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [s["agent"] for s in summary]
    rates = [s["win_rate"] for s in summary]
    low = [max(0.0, s["win_rate"] - s["ci_low"]) for s in summary]
    high = [max(0.0, s["ci_high"] - s["win_rate"]) for s in summary]
    fig, ax = plt.subplots(figsize=(max(4.0, 1.4 * len(names) + 2), 4.0), dpi=100)
    xs = range(len(names))
    ax.bar(xs, rates, yerr=[low, high], capsize=8, color="#4c72b0", edgecolor="black", linewidth=0.5)
    if summary:
        ax.axhline(summary[0]["par"], color="grey", linestyle="--", linewidth=1,
                   label=f"par (1/{round(1 / summary[0]['par'])})")
        ax.legend(loc="upper right")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([f"{s['agent']}\n{100 * s['win_rate']:.1f}% of {s['seat_games']}" for s in summary],
                       fontsize=8)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% Wilson interval)")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
