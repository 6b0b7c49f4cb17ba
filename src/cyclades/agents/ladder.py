"""A rated ladder: a round-robin of levels and agents, rated with openskill (Plackett-Luce).

    cyclades ladder --agents random,beginner,casual,strong,expert --rounds 2
    cyclades ladder --agents random,casual,strong --ruleset classic --players 3
    cyclades ladder --agents random,greedy,mcts --players 4 --teams --ray local

The schedule: every combination of as many entries as the game has sides (players, or teams
in team play; each entry plays a whole team) meets in every rotation of the seats (each entry
at each seat once, cyclically, on the same board: one seed per combination and round), and
the whole round-robin is played `rounds` times on new seeds. Games are ordered rotation by
rotation (every combination once, then again in the next rotation), so the first games of a
long run already cover every pairing. The games are played by agents/runner.py, as a
tournament's are (agents/match.play_match), in local processes or as Ray tasks.

The rating: each game is a Plackett-Luce ranking of its sides (openskill, tau=0 since a bot's
strength does not drift): the winners first (a shared win is a tie), the others by
Metropolises, then GP (the rulebook's tie-breaks, R21). Games are rated in the order of the
schedule, so a ladder is reproducible. Ratings are shifted so that `random`'s mu is 0 (random is
always on the ladder: the figures then mean the same from run to run); the interval is
mu +- 2 sigma, and the table gives the games and win rate behind each rating.
"""
from __future__ import annotations

import csv
import itertools
import json
import math
from dataclasses import KW_ONLY, dataclass
from pathlib import Path
from typing import Any

from .match import Mode
from .runner import AGENT_SEEDS, Series
from .tournament import _sides, faction_lineup, milliseconds, seconds_per_decision, wilson

ANCHOR = "random"  # its mu is pinned at 0


def entry_key(entry) -> str:
    return str(entry).strip()


def ladder_schedule(entries, players=3, rounds=1, seed=0, max_cycles=100, teams=False,
                    team_goal=3, ruleset="legendary") -> list:
    """The games of the ladder: dicts for runner.play_game. Every combination of `sides`
    distinct entries, each in every cyclic rotation over the sides on one seed, `rounds` times."""
    mode = Mode(players, teams, ruleset, team_goal)
    sides = mode.sides
    entries = [entry_key(e) for e in entries]
    if len(set(entries)) != len(entries):
        raise ValueError(f"an entry is named twice: {', '.join(entries)}")
    if len(entries) < sides:
        raise ValueError(f"a ladder of {mode.label()} needs at least {sides} different entries "
                         f"({len(entries)} given: {', '.join(entries)})")
    if rounds < 1:
        raise ValueError("a ladder needs at least 1 round")
    layout = mode.layout
    combos = list(itertools.combinations(entries, sides))
    out: list[dict[str, Any]] = []
    for r in range(rounds):
        # Rotation by rotation: every combination meets once before any meets twice, so the
        # first games of a long run (games.jsonl) already cover the whole round-robin.
        for k in range(sides):
            for c, combo in enumerate(combos):
                game_seed = seed + r * len(combos) + c
                side_lineup = list(combo[k:] + combo[:k])
                out.append({"game": len(out), "seed": game_seed, "players": players,
                            "teams": mode.teams, "team_goal": team_goal, "ruleset": ruleset,
                            "max_cycles": max_cycles, "side_lineup": side_lineup,
                            "lineup": faction_lineup(side_lineup, layout), "round": r})
    return out


def placing(row) -> list:
    """The rank of each side of a game (0 = first; equal ranks tie): the winning sides first,
    then by Metropolises, then by GP."""
    _, entries, won = _sides(row)
    count = len(entries)
    metros = row.get("side_metropolises") or row["metropolises"]
    gp = row.get("side_gp") or row["gp"]
    keys = []
    for t in range(count):
        keys.append((0 if t in won else 1, -metros[t], -gp[t]))
    order = sorted(set(keys))
    return [order.index(k) for k in keys]


def rate(rows, entries, anchor=ANCHOR) -> list:
    """Openskill Plackett-Luce ratings of the entries from the games (in game order); one dict
    per entry, best first: mu (shifted so that the anchor's is 0), sigma, low/high (mu -+ 2
    sigma), games, wins, win rate with its Wilson interval, par."""
    try:
        from openskill.models import PlackettLuce
    except ImportError as missing:  # pragma: no cover - depends on the installation
        raise RuntimeError("the ladder needs openskill: pip install openskill") from missing
    model = PlackettLuce(tau=0.0)
    ratings = {e: model.rating(name=e) for e in entries}
    games = {e: 0 for e in entries}
    wins = {e: 0.0 for e in entries}
    pars = {e: 0.0 for e in entries}
    for row in sorted(rows, key=lambda r: r["game"]):
        if "error" in row:
            continue
        _, side_entries, won = _sides(row)
        if len(set(side_entries)) != len(side_entries):
            continue  # an entry against itself says nothing of its rating
        ranks = placing(row)
        new = model.rate([[ratings[e]] for e in side_entries], ranks=ranks)
        for e, team in zip(side_entries, new):
            ratings[e] = team[0]
            games[e] += 1
            pars[e] += 1.0 / len(side_entries)
        for t in won:
            wins[side_entries[t]] += 1.0 / len(won)
    shift = ratings[anchor].mu if anchor in ratings else 0.0
    out = []
    for e in entries:
        r = ratings[e]
        mu = r.mu - shift
        lo, hi = wilson(wins[e], games[e])
        out.append({"agent": e, "mu": mu, "sigma": r.sigma, "low": mu - 2 * r.sigma,
                    "high": mu + 2 * r.sigma, "games": games[e], "wins": round(wins[e], 3),
                    "win_rate": wins[e] / games[e] if games[e] else 0.0, "ci_low": lo, "ci_high": hi,
                    "par": pars[e] / games[e] if games[e] else 0.0})
    out.sort(key=lambda x: -x["mu"])
    return out


@dataclass
class Ladder(Series):
    """The round-robin of `entries` (`ladder_schedule`), `rounds` times, and their ratings;
    the runner's options (players, seed, workers, ray, ...) are runner.Series's."""

    entries: list
    _: KW_ONLY
    rounds: int = 1

    def __post_init__(self):
        self.entries = [entry_key(e) for e in self.entries]
        if ANCHOR not in self.entries:  # the anchor is always on the ladder
            self.entries = [ANCHOR] + self.entries

    def specs(self) -> list:
        return ladder_schedule(self.entries, self.players, self.rounds, self.seed, self.max_cycles,
                               self.teams, self.team_goal, self.ruleset)

    def ratings(self) -> list:
        clock = seconds_per_decision(self.rows, self.entries)
        cpu = seconds_per_decision(self.rows, self.entries, "cpu_by_seat")
        out = rate(self.rows, self.entries)
        for r in out:
            r["seconds_per_decision"] = clock[r["agent"]]
            r["cpu_per_decision"] = cpu[r["agent"]]
        return out

    def title(self) -> str:
        unit = "; one agent per team" if self.mode.teams else ""
        what = self.mode.label() if self.ruleset != "legendary" else f"Legendary, {self.mode.label()}"
        return (f"Ladder, {what}, {len(self.rows)} games{unit}; "
                f"openskill Plackett-Luce, random = 0, mu +- 2 sigma")

    def to_json(self) -> dict:
        from .levels import resolve
        mode = self.mode
        return {"entries": self.entries, "agents": {e: resolve(e) for e in self.entries},
                "players": self.players, "ruleset": self.ruleset, "teams": mode.teams,
                "team_goal": mode.team_goal, "mode": mode.label(), "rounds": self.rounds,
                "seed": self.seed, "max_cycles": self.max_cycles, "games": len(self.rows),
                "errors": self.errors(),
                "model": "openskill PlackettLuce (tau=0), games rated in schedule order",
                "anchor": f"{ANCHOR} (mu shifted to 0)", "interval": "mu - 2 sigma to mu + 2 sigma",
                "backend": self.backend(), "seconds": round(self.seconds, 2),
                "agent_seeds": AGENT_SEEDS, "ratings": self.ratings(), "rows": self.rows}

    def write(self, out_dir) -> dict:
        """ladder.json, ladder.csv and ladder.png (ratings with error bars) in out_dir."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"json": out / "ladder.json", "csv": out / "ladder.csv", "png": out / "ladder.png"}
        data = self.to_json()
        with open(paths["json"], "w") as fh:
            json.dump(data, fh, indent=1)
        cols = ["agent", "mu", "sigma", "low", "high", "games", "wins", "win_rate", "ci_low",
                "ci_high", "par", "seconds_per_decision", "cpu_per_decision"]
        with open(paths["csv"], "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(cols)
            for r in data["ratings"]:
                w.writerow([round(r[k], 4) if isinstance(r[k], float) else r[k] for k in cols])
        try:
            plot_ladder(data["ratings"], paths["png"], self.title())
        except ImportError:
            paths.pop("png")
        return paths


def markdown_table(ratings) -> str:
    """The ladder as a Markdown table (for the README)."""
    lines = ["| agent | rating (mu) | mu ± 2σ | games | win rate (95% CI) | ms/decision | CPU ms/decision |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for r in ratings:
        lines.append(f"| {r['agent']} | {r['mu']:.1f} | {r['low']:.1f} to {r['high']:.1f} | "
                     f"{r['games']} | {100 * r['win_rate']:.0f}% ({100 * r['ci_low']:.0f}–"
                     f"{100 * r['ci_high']:.0f}%) | {1000 * r.get('seconds_per_decision', 0):.0f} | "
                     f"{milliseconds(r.get('cpu_per_decision'))} |")
    return "\n".join(lines)


def plot_ladder(ratings, path, title=""):
    """Each entry's rating with mu +- 2 sigma as error bars, best at the top; random's 0 dashed."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rs = list(reversed(ratings))  # best at the top
    fig, ax = plt.subplots(figsize=(7.0, max(2.5, 0.55 * len(rs) + 1.4)), dpi=100)
    ys = range(len(rs))
    ax.errorbar([r["mu"] for r in rs], list(ys), xerr=[[2 * r["sigma"] for r in rs]] * 2,
                fmt="o", color="#4c72b0", ecolor="black", capsize=6)
    ax.axvline(0, color="grey", linestyle="--", linewidth=1, label="random = 0")
    ax.set_yticks(list(ys))
    ax.set_yticklabels([f"{r['agent']} ({r['games']} games)" for r in rs], fontsize=8)
    ax.set_xlabel("openskill rating (mu ± 2σ), random at 0")
    ax.set_title(title, fontsize=8)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def expected_games(entries, players=3, rounds=1, teams=False, ruleset="legendary", team_goal=3) -> int:
    sides = Mode(players, teams, ruleset, team_goal).sides
    return rounds * math.comb(len(entries), sides) * sides
