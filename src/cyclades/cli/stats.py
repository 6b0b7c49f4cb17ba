"""The figures of games between agents: one row per game (play_out), and a mode's summary of
its rows (how fast, how long, how the games ended, how each team won). `cyclades simulate`
prints them and writes them as JSON."""
from __future__ import annotations

import statistics

from cyclades.agents import make_agent
from cyclades.agents.match import Mode, play_match
from cyclades.content.rulesets import RULESETS

from .modes import MODES
from .options import seat_seed


def play_out(mode, seed, agents, max_cycles, team_goal=3, ruleset="legendary") -> dict:
    """One game between agents, one agent per faction; its figures as a row (the loop is
    agents/match.play_match, the same as tournaments and the server's bots).

    In team play (R22) a side is a team: its Metropolises count together, its purse breaks
    ties, and its win is one win however many factions it has."""
    players, teams = MODES[mode]
    m = Mode(players, teams and RULESETS[ruleset].team_play, ruleset, team_goal)
    game = m.new_game(seed=seed, max_cycles=max_cycles)
    n = game.state.n
    seats = [make_agent(agents[p % len(agents)], seed=seat_seed(seed, p)) for p in range(n)]
    out = play_match(game, seats)
    row = {"seed": seed, "mode": mode, "players": players, "factions": n,
           "teams": list(game.teams) if game.teams else None, "decisions": out["decisions"],
           "cycles": out["cycles"], "seconds": out["seconds"], "winners": out["winners"],
           "winning_teams": out["winning_sides"] if game.teams else None,
           "metropolises": out["metropolises"], "gp": out["gp"], "eliminated": out["eliminated"],
           "ending": None if "error" in out else out["ending"], "shared": out["shared"],
           "gp_tiebreak": out["gp_tiebreak"]}
    if game.teams:
        row["team_metropolises"] = out["side_metropolises"]
        row["team_gp"] = out["side_gp"]
    if "error" in out:
        row["error"] = out["error"]
    return row


def summarize(rows, seconds) -> dict:
    """The figures of a mode's games, played in `seconds`."""
    ok = [r for r in rows if "error" not in r]
    dec = [r["decisions"] for r in ok]
    cyc = [r["cycles"] for r in ok]
    n = len(rows)

    def count(key, value=True):
        return sum(1 for r in ok if r.get(key) == value)
    out = {
        "games": n,
        "seconds": round(seconds, 4),
        "games_per_second": round(n / seconds, 2) if seconds else None,
        "decisions_per_second": round(sum(r["decisions"] for r in rows) / seconds, 1) if seconds else None,
        "decisions_median": statistics.median(dec) if dec else None,
        "decisions_mean": round(statistics.fmean(dec), 2) if dec else None,
        "cycles_mean": round(statistics.fmean(cyc), 2) if cyc else None,
        "cycles_median": statistics.median(cyc) if cyc else None,
        "cycles_max": max(cyc) if cyc else None,
        "ended_by_metropolises": count("ending", "metropolises"),
        "ended_by_elimination": count("ending", "elimination"),
        "ended_by_cycle_limit": count("ending", "cycle_limit"),
        "ended_otherwise": count("ending", "other"),
        "shared_wins": count("shared"),
        "ties_broken_on_gp": count("gp_tiebreak"),
        "errors": n - len(ok),
    }
    if rows and rows[0].get("teams"):
        out["wins_by_team"] = team_wins(ok, rows[0]["teams"])
    return out


def team_wins(rows, layout) -> list:
    """How each team won: a win counts once per team (a shared win once for each sharer)."""
    out = []
    for t in sorted(set(layout)):
        won = [r for r in rows if t in r["winning_teams"]]
        out.append({"team": t, "factions": [q for q in range(len(layout)) if layout[q] == t],
                    "wins": len(won),
                    "by_metropolises": sum(r["ending"] == "metropolises" for r in won),
                    "by_elimination": sum(r["ending"] == "elimination" for r in won),
                    "by_cycle_limit": sum(r["ending"] == "cycle_limit" for r in won),
                    "otherwise": sum(r["ending"] == "other" for r in won),
                    "shared": sum(r["shared"] for r in won),
                    "on_gp": sum(r["gp_tiebreak"] for r in won)})
    return out
