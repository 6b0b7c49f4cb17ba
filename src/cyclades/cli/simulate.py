"""`cyclades simulate`: many games between agents, mode by mode; a table of their speed,
lengths and endings (and, in team play, how each team won), and the figures as JSON.

The games are played by stats.play_out; game i of a mode has the seed S+i.
"""
from __future__ import annotations

import json
import sys
import time

import click
from rich.table import Table

from cyclades.agents.estimate import forecast
from cyclades.agents.match import Mode
from cyclades.click_types import OutputFile
from cyclades.content.rulesets import RULESETS
from cyclades.progress import err_console, run_progress

from .modes import MODES, mode_label, simulation_modes
from .options import RULESET_OPTION, TEAM_GOAL_OPTION, agent_list
from .stats import play_out, summarize
from .terminal import console


@click.command()
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="Games per mode.")
@click.option("--players", multiple=True, default=("3",), show_default=True,
              help='Modes: 2, 3, 4, 4t (4 players in 2 teams), 5, 6 (3 teams); 2 players run two '
                   'factions each (R22). Repeat the option or write "2,4t,6" to run each mode.')
@click.option("--teams", is_flag=True,
              help='Team play (R22): mode 4 becomes 4t, 4 players in 2 teams ("--players 4 --teams" '
                   'is "--players 4t"); 2 and 6 always play in teams.')
@TEAM_GOAL_OPTION
@click.option("--seed", type=int, default=0, show_default=True, help="Game i uses seed S+i.")
@click.option("--json", "json_file", type=OutputFile(), default=None,
              help="Write the figures and one row per game to this file.")
@click.option("--max-cycles", type=click.IntRange(min=1), default=100, show_default=True,
              help="The cycle-limit guard: a game still going after this many cycles ends (R21).")
@click.option("--agents", default="random", show_default=True,
              help="Agent names, comma-separated, dealt to the seats in turn.")
@RULESET_OPTION
def simulate(games, players, teams, team_goal, seed, json_file, max_cycles, agents, ruleset):
    """Play many games between agents and report speed, length and how they were won.

    Agents are dealt to the factions in turn (a 2-player game has four). In team play a
    team's win counts once, and a second table says how each team won."""
    modes = simulation_modes(players, teams, ruleset, team_goal)
    team_goal = team_goal or 3
    agent_names = agent_list(agents, "--agents")
    # Piped output is not cut to 80 columns: a table of several modes reads better unwrapped.
    con = console(None if sys.stdout.isatty() else 160)
    err = err_console()
    _forecast(err, modes, agent_names, games, ruleset)
    runs = _play_modes(err, modes, games, seed, agent_names, max_cycles, team_goal, ruleset)
    _print_summary(con, runs, max_cycles)
    _print_team_wins(con, runs)
    errors = [r for run in runs for r in run["games"] if "error" in r]
    for r in errors[:10]:
        con.print(f"Error in the game of seed {r['seed']} ({mode_label(r['mode'], ruleset)}) "
                  f"after {r['decisions']} decisions: {r['error']}", markup=False)
    if json_file:
        _write_json(json_file, {"ruleset": ruleset, "seed": seed, "games": games, "max_cycles": max_cycles,
                                "team_goal": team_goal, "agents": agent_names, "modes": modes,
                                "agent_seeds": "faction k of the game of seed s uses seed s*16+k",
                                "runs": runs})
        con.print(f"Figures written to {json_file}.")
    if errors:
        sys.exit(1)


def _forecast(err, modes, agents, games, ruleset):
    """A search agent's game takes tens of seconds: say so before starting (agents/estimate.py)."""
    rules = RULESETS[ruleset]
    factions = {m: len(Mode(MODES[m][0], MODES[m][1] and rules.team_play, ruleset).layout) for m in modes}
    for m in modes:
        told = forecast(agents, factions[m], games)
        if told:
            err.print(told if len(modes) == 1 else f"{mode_label(m, ruleset)}: {told}", markup=False,
                      highlight=False, soft_wrap=True)


def _play_modes(err, modes, games, seed, agents, max_cycles, team_goal, ruleset) -> list:
    """Each mode's games, under a progress bar on stderr: a run per mode (its rows and summary)."""
    rules = RULESETS[ruleset]
    runs = []
    with run_progress(err, "per_game", eta=False, transient=True) as progress:
        for mode in modes:
            n, teams = MODES[mode]
            teams = teams and rules.team_play
            label = mode_label(mode, ruleset)
            task = progress.add_task(label, total=games, per_game="")
            rows = []
            t0 = time.perf_counter()
            for i in range(games):
                rows.append(play_out(mode, seed + i, agents, max_cycles, team_goal, ruleset))
                progress.update(task, advance=1,
                                per_game=_per_game(time.perf_counter() - t0, i + 1))
            elapsed = time.perf_counter() - t0
            runs.append({"mode": mode, "label": label, "players": n, "factions": rows[0]["factions"],
                         "teams": rows[0]["teams"],
                         "metropolises_to_win": team_goal if teams else rules.metropolises_to_win,
                         "summary": summarize(rows, elapsed), "games": rows})
    return runs


def _per_game(seconds, games) -> str:
    """ "0.4 s/game", "12 ms/game": the progress bars' time per game."""
    per = seconds / games
    return f"{per * 1000:.0f} ms/game" if per < 1 else f"{per:.1f} s/game"


def _write_json(path, data):
    try:
        with open(path, "w") as fh:
            json.dump(data, fh, indent=1)
    except OSError as e:
        raise click.ClickException(f"cannot write {path}: {e.strerror or e}") from e


def _print_summary(con, runs, max_cycles):
    """The table of the figures: a row per figure, a column per mode."""
    t = Table(title="Simulated games")
    t.add_column("")
    for run in runs:
        t.add_column(run["label"], justify="right")
    for label, f in _figure_rows(runs, max_cycles):
        t.add_row(label, *(f(run["summary"]) for run in runs))
    con.print(t)


def _figure_rows(runs, max_cycles) -> list:
    """(label, its cell from a mode's summary) for each row of the table of the figures."""
    goals = {run["metropolises_to_win"] for run in runs}
    goal = f"{goals.pop()} Metropolises" if len(goals) == 1 else "the Metropolises to win (3, teams 4)"
    rows = [
        ("Games", lambda s: str(s["games"])),
        ("Games/s", lambda s: "-" if s["games_per_second"] is None else f"{s['games_per_second']:,.1f}"),
        ("Decisions/s", lambda s: "-" if s["decisions_per_second"] is None
         else f"{s['decisions_per_second']:,.0f}"),
        ("Decisions per game, median", lambda s: _number(s["decisions_median"])),
        ("Decisions per game, mean", lambda s: _number(s["decisions_mean"])),
        ("Cycles per game, mean", lambda s: _number(s["cycles_mean"])),
        ("Cycles per game, median", lambda s: _number(s["cycles_median"])),
        ("Cycles per game, max", lambda s: _number(s["cycles_max"])),
        (f"Won by reaching {goal}", lambda s: _share("ended_by_metropolises", s)),
        ("Ended by an elimination", lambda s: _share("ended_by_elimination", s)),
        (f"Ended by the cycle limit ({max_cycles})", lambda s: _share("ended_by_cycle_limit", s)),
        ("Shared wins", lambda s: _share("shared_wins", s)),
        ("Ties broken on GP", lambda s: _share("ties_broken_on_gp", s)),
        ("Errors", lambda s: str(s["errors"])),
    ]
    if any(run["teams"] for run in runs):
        rows.insert(-3, ("Wins per team (a team's win counts once)",
                         lambda s: " / ".join(str(w["wins"]) for w in s["wins_by_team"])
                         if "wins_by_team" in s else "-"))
    return rows


def _share(key, summary) -> str:
    """ "2 (67%)": how many of the games, and their share."""
    n = summary[key]
    return f"{n} ({100 * n / summary['games']:.0f}%)" if summary["games"] else str(n)


def _number(x) -> str:
    return "-" if x is None else (f"{x:g}" if isinstance(x, float) else str(x))


def _print_team_wins(con, runs):
    """How each team won, per team mode: the factions of a team are one side (R22)."""
    team_runs = [run for run in runs if run["teams"]]
    if not team_runs:
        return
    t = Table(title="How the winning teams won")
    for col in ("Mode", "Team", "Factions", "Wins", "By Metropolises", "By elimination",
                "By cycle limit", "Shared", "On GP"):
        t.add_column(col, justify="left" if col in ("Mode", "Factions") else "right")
    for run in team_runs:
        for w in run["summary"]["wins_by_team"]:
            t.add_row(run["label"], str(w["team"] + 1), ", ".join(str(q + 1) for q in w["factions"]),
                      str(w["wins"]), str(w["by_metropolises"]), str(w["by_elimination"]),
                      str(w["by_cycle_limit"]), str(w["shared"]), str(w["on_gp"]))
    con.print(t)
