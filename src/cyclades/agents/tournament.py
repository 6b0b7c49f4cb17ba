"""Tournaments between agents: many games, seats rotated, win rates with confidence intervals.

Seat rotation: the agent list gives one agent per seat (repeated in turn when shorter than the
number of players); every distinct arrangement of those agents over the seats is played equally
often, each arrangement on the same boards (game seed), so neither the turn order nor the board
favours an agent. The number of games is rounded up to a multiple of the number of
arrangements.

Games run in worker processes on this machine (`workers`, all cores by default), or as Ray tasks
on a cluster (`ray="ADDRESS"`, or `ray="local"` for a Ray instance started here): the runner of
agents/runner.py, which ladders share. One game is a plain function of a small dict
(`runner.play_game`), so any executor can run it.

Every mode (agents/match.Mode): the Legendary game with 2 to 6 players, 4 in teams on request (2
and 6 always: R22), a team goal of 3 or 4, and the classic game with 2 to 5 players. In team play
the unit is the team: the agent list gives one entry per *team* (rotated over the teams like seats),
all the team's factions played by that agent, or by several agents joined with "+"
("greedy+random": the team's first faction greedy, its second random); a team's win counts once.

Results: per agent (team modes: per team lineup), its seat-games (games x sides it held), wins (a
shared win counts 1/k to each of the k winning sides), the win rate with its 95% Wilson interval
(par is one over the number of sides), the average Metropolises (the team's), game length (cycles,
decisions) and thinking time (on the clock and in CPU); written as JSON and CSV, and a PNG plot of
the win rates with their intervals. Games are played by the shared loop, agents/match.play_match.
"""
from __future__ import annotations

import csv
import itertools
import json
import math
from dataclasses import KW_ONLY, dataclass
from pathlib import Path

from .match import Mode
from .runner import AGENT_SEEDS, Series, agent_seed, play_game  # noqa: F401  (the last two: imported from here)

# --- the schedule ---------------------------------------------------------------------------

def split_agents(text) -> list:
    """ "mcts:iterations=200,c=0.3,greedy,greedy" -> ["mcts:iterations=200,c=0.3", "greedy",
    "greedy"]: a part with "=" and no ":" is an option of the agent before it."""
    out: list[str] = []
    for raw in str(text).split(","):
        part = raw.strip()
        if not part:
            continue
        if "=" in part and ":" not in part and out:
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def lineups(agents, players) -> list:
    """Every distinct arrangement of the agents over `players` seats (the sides: players, or
    teams in team play), in a fixed order."""
    if not agents:
        raise ValueError("give at least one agent")
    seats = [agents[i % len(agents)] for i in range(players)]
    return sorted(set(itertools.permutations(seats)))


def members(entry) -> list:
    """ "greedy+random" -> ["greedy", "random"]: the agents of a team's factions, in order."""
    return [x.strip() for x in str(entry).split("+") if x.strip()]


def faction_lineup(side_lineup, layout) -> list:
    """The agent of each faction, from the entry of each side: a team's k-th faction takes the
    k-th agent of its entry (repeated in turn)."""
    seen: dict[int, int] = {}
    out = []
    for side in layout:
        k = seen.get(side, 0)
        seen[side] = k + 1
        agents = members(side_lineup[side])
        out.append(agents[k % len(agents)])
    return out


def schedule(agents, players, games, seed=0, max_cycles=100, teams=False, team_goal=3,
             ruleset="legendary") -> list:
    """The games to play: dicts for `play_game`. Each block of len(lineups) games shares a
    seed (the same board and cards) and plays every arrangement once; in team play the agents
    are arranged over the teams."""
    mode = Mode(players, teams, ruleset, team_goal)
    layout = mode.layout
    arrangements = lineups(agents, mode.sides)
    k = len(arrangements)
    blocks = max(1, math.ceil(games / k))
    out = []
    for block in range(blocks):
        for j, sides in enumerate(arrangements):
            out.append({"game": block * k + j, "seed": seed + block,
                        "lineup": faction_lineup(sides, layout), "side_lineup": list(sides),
                        "players": players, "teams": mode.teams, "team_goal": mode.team_goal,
                        "ruleset": ruleset, "max_cycles": max_cycles})
    return out


# --- statistics ---------------------------------------------------------------------------------

def milliseconds(seconds, digits=0) -> str:
    """A time a decision in ms, or "—" where it was not recorded."""
    return "—" if seconds is None else f"{1000 * seconds:.{digits}f}"


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


def _sides(r):
    """(side of each faction, entry of each side, winning sides) of a row; rows of one player
    per side may leave out the side fields."""
    lineup = r["lineup"]
    sides = r.get("sides") or list(range(len(lineup)))
    return sides, r.get("side_lineup") or lineup, r.get("winning_sides", r["winners"])


def seconds_per_decision(rows, entries, field="thinking_by_seat") -> dict:
    """Time per own decision of each entry (all its factions): the clock's by default, or the
    CPU's (field "cpu_by_seat"; a root-parallel search charged its workers' too). None for an
    entry some of whose games did not record the field (rows of older runs)."""
    think = {e: 0.0 for e in entries}
    count = {e: 0 for e in entries}
    missing = set()
    for row in rows:
        if "error" in row:
            continue
        sides, side_entries, _ = _sides(row)
        for q, t in enumerate(sides):
            e = side_entries[t]
            if e not in think:
                continue
            if field not in row:
                missing.add(e)
                continue
            think[e] += row[field][q]
            count[e] += row["decisions_by_seat"][q]
    return {e: None if e in missing else think[e] / count[e] if count[e] else 0.0 for e in entries}


def summarize(rows, agents_order=None) -> list:
    """One dict per agent name (team play: per team entry, e.g. "greedy" or "greedy+random"):
    seat-games (sides held), wins, win rate and interval, averages (among them `gp_left`, the
    GP a side holds unspent at the end: a player that hoards shows there). A team's win counts
    once."""
    ok = [r for r in rows if "error" not in r]
    names = []
    for r in ok:
        for a in _sides(r)[1]:
            if a not in names:
                names.append(a)
    if agents_order:
        names.sort(key=lambda a: agents_order.index(a) if a in agents_order else len(agents_order))
    cpu = seconds_per_decision(ok, names, "cpu_by_seat")  # None where a row did not record it
    out = []
    for name in names:
        seats = wins = metros = gp_left = cycles = decisions = thinking = 0.0
        longest = 0.0
        games = 0
        game_decisions = 0
        by_seat: dict[int, list[float]] = {}
        par = 1.0
        for r in ok:
            sides, entries, won = _sides(r)
            mine = [t for t, a in enumerate(entries) if a == name]
            if not mine:
                continue
            par = 1.0 / len(entries)
            games += 1
            cycles += r["cycles"]
            game_decisions += r["decisions"]
            side_metros = r.get("side_metropolises") or r["metropolises"]
            side_gp = r.get("side_gp") or r["gp"]
            for t in mine:
                factions = [q for q, x in enumerate(sides) if x == t]
                seats += 1
                share = 1.0 / len(won) if t in won else 0.0
                wins += share
                metros += side_metros[t]
                gp_left += side_gp[t]
                decisions += sum(r["decisions_by_seat"][q] for q in factions)
                thinking += sum(r["thinking_by_seat"][q] for q in factions)
                longest = max([longest] + [r["longest_by_seat"][q] for q in factions])
                s = by_seat.setdefault(t, [0.0, 0])
                s[0] += share
                s[1] += 1
        lo, hi = wilson(wins, seats)
        out.append({
            "agent": name, "games": games, "seat_games": int(seats), "wins": round(wins, 3),
            "win_rate": wins / seats if seats else 0.0, "ci_low": lo, "ci_high": hi,
            "par": par,
            "metropolises": metros / seats if seats else 0.0,
            "gp_left": gp_left / seats if seats else 0.0,
            "cycles": cycles / games if games else 0.0,
            "game_decisions": game_decisions / games if games else 0.0,
            "decisions": decisions / seats if seats else 0.0,
            "seconds_per_decision": thinking / decisions if decisions else 0.0,
            "cpu_per_decision": cpu[name] if decisions else None,
            "longest_decision": longest,
            "win_rate_by_seat": {str(p + 1): s[0] / s[1] for p, s in sorted(by_seat.items())},
        })
    return out


def endings(rows) -> dict:
    """How the games ended: metropolises, elimination, cycle_limit (and error)."""
    out: dict[str, int] = {}
    for r in rows:
        key = "error" if "error" in r else r["ending"]
        out[key] = out.get(key, 0) + 1
    return out


# --- running ---------------------------------------------------------------------------------------

@dataclass
class Tournament(Series):
    """`games` games between `agents` (one entry a side), seats rotated (`schedule`); the
    runner's options (players, seed, workers, ray, ...) are runner.Series's."""

    agents: list
    _: KW_ONLY
    games: int = 300

    @property
    def unit(self) -> str:
        """What an entry of the agent list plays: a team, or a player's seat."""
        return "team" if self.mode.teams else "player"

    def specs(self) -> list:
        return schedule(self.agents, self.players, self.games, self.seed, self.max_cycles,
                        self.teams, self.team_goal, self.ruleset)

    def summary(self) -> list:
        return summarize(self.rows, self.agents)

    def to_json(self) -> dict:
        mode = self.mode
        return {"agents": self.agents, "players": self.players, "games": len(self.rows),
                "ruleset": self.ruleset, "teams": mode.teams, "team_goal": mode.team_goal,
                "mode": mode.label(), "unit": self.unit, "layout": mode.layout,
                "metropolises_to_win": mode.goal,
                "seed": self.seed, "max_cycles": self.max_cycles,
                "arrangements": [list(x) for x in lineups(self.agents, mode.sides)],
                "endings": endings(self.rows),
                "backend": self.backend(), "seconds": round(self.seconds, 2),
                "agent_seeds": AGENT_SEEDS, "errors": self.errors(),
                "summary": self.summary(), "rows": self.rows}

    def write(self, out_dir) -> dict:
        """results.json, games.csv, summary.csv and winrates.png in out_dir; their paths."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"json": out / "results.json", "games_csv": out / "games.csv",
                 "summary_csv": out / "summary.csv", "png": out / "winrates.png"}
        with open(paths["json"], "w") as fh:
            json.dump(self.to_json(), fh, indent=1)
        write_games_csv(self.rows, len(self.mode.layout), paths["games_csv"])
        write_summary_csv(self.summary(), paths["summary_csv"])
        try:
            plot_win_rates(self.summary(), paths["png"], title=self.title())
        except ImportError:
            paths.pop("png")
        return paths

    def title(self) -> str:
        mode = self.mode
        what = mode.label() if (mode.teams or self.ruleset != "legendary") else f"{self.players}-player games"
        per = "; agents per team" if mode.teams else ""
        return f"{what}, {len(self.rows)} games{per}: {', '.join(self.agents)}"


# --- files ------------------------------------------------------------------------------------------

def write_games_csv(rows, factions, path):
    """One line per game: the agent of each faction (seat), the winners, and per side (team, or
    player) its agent entry and Metropolises; winning_sides names the winning teams."""
    sides = max((len(_sides(r)[1]) for r in rows), default=factions)
    cols = ["game", "seed"] + [f"seat{p + 1}" for p in range(factions)] + \
        ["winners", "winning_sides", "cycles", "decisions", "ending", "seconds"] + \
        [f"metropolises{p + 1}" for p in range(factions)] + [f"gp{p + 1}" for p in range(factions)] + \
        [f"side{t + 1}" for t in range(sides)] + [f"side_metropolises{t + 1}" for t in range(sides)] + \
        ["error"]
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(cols)
        for r in rows:
            _, entries, won = _sides(r)
            side_metros = r.get("side_metropolises") or r["metropolises"]
            w.writerow([r["game"], r["seed"], *r["lineup"],
                        " ".join(str(p + 1) for p in r["winners"]), " ".join(str(t + 1) for t in won),
                        r["cycles"], r["decisions"], r["ending"] or "", r["seconds"],
                        *r["metropolises"], *r["gp"], *entries, *side_metros, r.get("error", "")])


SUMMARY_COLUMNS = ["agent", "games", "seat_games", "wins", "win_rate", "ci_low", "ci_high", "par",
                   "metropolises", "gp_left", "cycles", "game_decisions", "decisions", "seconds_per_decision",
                   "cpu_per_decision", "longest_decision"]


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
