"""`cyclades tournament`: many games between agents, seats rotated, win rates with intervals.

    cyclades tournament --agents mcts,greedy,random --players 3 --games 300
    cyclades tournament --agents greedy,random --players 4 --teams --games 100   # team vs team
    cyclades tournament --agents mcts,greedy --players 2 --games 30              # 2 teams of 2 factions
    cyclades tournament --agents mcts,greedy,greedy --ruleset classic --games 30
    cyclades tournament --agents mcts,greedy,greedy --games 60 --workers 2 --out results/
    cyclades tournament --agents "mcts:iterations=400,greedy,greedy" --ray local
    cyclades tournament --agents greedy,random,random --games 3000 --ray ray://head:10001
    cyclades tournament --agents expert,casual,casual --games 60       # levels (levels.py)

`cyclades ladder`: levels and agents rated on one scale with openskill (ladder.py).

    cyclades ladder --agents random,beginner,casual,strong,expert --rounds 2
    cyclades ladder --agents random,casual,strong --ruleset classic --out ladder-classic/
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import cast

import click
from rich.console import Console, JustifyMethod
from rich.table import Table

from ..click_types import OutputFolder
from ..paths import results_dir
from ..progress import err_console, run_progress
from .base import parse_agent_spec
from .estimate import forecast
from .match import Mode, ModeError, check_mode
from .registry import BY_MODULE, agent_names, make_agent
from .tournament import Tournament, _sides, lineups, members, milliseconds, split_agents


def _check_agents(text, teams=False, option="--agents") -> list:
    """The agent specs of an option (`option`: its name in the messages), each known and made
    once when it has options or is the user's own (its module, class, options and files are
    checked here, not in the first game)."""
    names = split_agents(text)
    if not names:
        raise click.BadParameter("give at least one agent name", param_hint=option)
    builtin = agent_names()
    known = builtin + sorted(BY_MODULE)
    for entry in names:
        parts = members(entry)
        if len(parts) > 1 and not teams:
            raise click.BadParameter(f"{entry!r}: agents joined with '+' make a team's lineup, "
                                     f"for team play only", param_hint=option)
        for spec in parts or [entry]:
            try:
                base, options = parse_agent_spec(spec)
                if base not in known and ":" not in base:
                    raise ValueError(f"unknown agent {base!r}; known agents: {', '.join(known)}, or "
                                     f"module:Class for an agent of your own")
                if base not in builtin or options:
                    make_agent(spec, seed=0)
            except ValueError as e:
                raise click.BadParameter(str(e), param_hint=option) from None
    return names


def _mode(players, teams, ruleset, team_goal) -> Mode:
    try:
        check_mode(players, teams, ruleset, team_goal or 3, team_goal_given=team_goal is not None)
        return Mode(players, teams, ruleset, team_goal or 3)
    except ModeError as e:
        raise click.BadParameter(str(e), param_hint=e.option) from None


def _faction_specs(names, mode) -> list:
    """The agent of each faction in a first seating (for the time estimate): in team play an
    entry plays its whole team, "greedy+random" one faction each."""
    out: list[str] = []
    seen: dict[int, int] = {}
    for side in mode.layout:
        entry = names[side % len(names)]
        parts = members(entry) or [entry]
        out.append(parts[seen.get(side, 0) % len(parts)])
        seen[side] = seen.get(side, 0) + 1
    return out


def _pct(x) -> str:
    return f"{100 * x:.1f}%"


def standings(rows, agents) -> str:
    """ "mcts 55% · greedy 22%": win rates so far, for the progress bar."""
    wins: dict[str, float] = {}
    seats: dict[str, int] = {}
    for r in rows:
        if "error" in r:
            continue
        _, entries, won = _sides(r)
        for t, a in enumerate(entries):
            seats[a] = seats.get(a, 0) + 1
            if t in won:
                wins[a] = wins.get(a, 0.0) + 1.0 / len(won)
    return " · ".join(f"{a} {100 * wins.get(a, 0.0) / seats[a]:.0f}%" for a in agents if seats.get(a))


def summary_table(t: Tournament) -> Table:
    table = Table(title=f"Tournament: {t.title()}")
    team = t.unit == "team"
    for col, just in (("Team (agents)" if team else "Agent", "left"),
                      ("Team-games" if team else "Seat-games", "right"), ("Wins", "right"),
                      ("Win rate", "right"), ("95% CI (Wilson)", "right"), ("Par", "right"),
                      ("Metropolises", "right"), ("GP left", "right"), ("Cycles", "right"),
                      ("Decisions/game", "right"),
                      ("Own decisions", "right"), ("ms/decision", "right"), ("CPU ms/decision", "right"),
                      ("Longest", "right")):
        table.add_column(col, justify=cast("JustifyMethod", just), overflow="fold")
    for s in t.summary():
        table.add_row(s["agent"], str(s["seat_games"]), f"{s['wins']:g}", _pct(s["win_rate"]),
                      f"{_pct(s['ci_low'])} – {_pct(s['ci_high'])}", _pct(s["par"]),
                      f"{s['metropolises']:.2f}", f"{s['gp_left']:.1f}", f"{s['cycles']:.1f}",
                      f"{s['game_decisions']:.0f}",
                      f"{s['decisions']:.0f}", f"{1000 * s['seconds_per_decision']:.2f}",
                      milliseconds(s["cpu_per_decision"], digits=2),
                      f"{s['longest_decision']:.2f}s")
    return table


# --- running games (both commands) ---------------------------------------------------------------

# The options both commands share, word for word.
_TEAM_GOAL = click.option("--team-goal", type=click.IntRange(3, 4), default=None,
                          help="Metropolises a team needs to win in team play: 3 (the default) or 4.")
_RULESET = click.option("--ruleset", type=click.Choice(("legendary", "classic")), default="legendary",
                        show_default=True,
                        help="Rules: legendary, or classic (the 2009 edition, 2 to 5 players).")
_WORKERS = click.option("--workers", type=click.IntRange(min=1), default=None,
                        help="Processes on this machine (default: all cores); with --ray local, its CPUs.")
_MAX_CYCLES = click.option("--max-cycles", type=click.IntRange(min=1), default=100, show_default=True,
                           help="A guard: a game still going after this many cycles ends (R21).")
_RAY = click.option("--ray", "ray_address", default=None, metavar="ADDRESS",
                    help='Run the games as Ray tasks: a cluster address (e.g. "auto", "ray://head:10001") '
                         'or "local" for a Ray instance on this machine.')


def _consoles():
    """The console of the results (stdout, 180 columns wide when it is no terminal) and the
    console of the notes and the progress bar (stderr: progress.py)."""
    return Console(highlight=False, width=None if sys.stdout.isatty() else 180), err_console()


def _run(series, on_result, done=()):
    """Play the games of a tournament or a ladder (agents/runner.py); what stops the runner
    itself (Ray missing, say) is the command's error."""
    try:
        series.run(on_result, done)
    except RuntimeError as e:
        raise click.ClickException(str(e)) from None


def _finish(con, series, out, write, more=(), soft_wrap=False):
    """The end of a command: the games that failed (ten of them at most), the files written
    (`write(out)`, their paths by kind; `more`: files written before) and where; exit status 1
    when a game failed."""
    errors = [r for r in series.rows if "error" in r]
    for r in errors[:10]:
        con.print(f"Error in game {r['game']} (seed {r['seed']}, {', '.join(r['lineup'])}): {r['error']}",
                  markup=False)
    paths = write(out)
    con.print(f"{len(series.rows)} games in {series.seconds:.0f} s. Results in {out}: "
              + ", ".join([Path(p).name for p in paths.values()] + list(more)),
              markup=False, soft_wrap=soft_wrap)
    if "png" not in paths:
        con.print("No plot: matplotlib is not installed (pip install matplotlib).")
    if errors:
        sys.exit(1)


# --- cyclades tournament ------------------------------------------------------------------------------

def _tell_schedule(err, t, games):
    """Before the games: who plays (when there are more entries than sides), why there are more
    games than asked, and how long a search agent's games will take (agents/estimate.py)."""
    mode, names = t.mode, t.agents
    unit = "teams" if mode.teams else "seats"
    if len(names) > mode.sides:
        err.print(f"{len(names)} agents for {mode.sides} {unit}: only {', '.join(names[:mode.sides])} play.")
    count = len(t.specs())
    if count != games:
        k = len(lineups(names, mode.sides))
        err.print(f"{count} games, so that each of the {k} seatings is played equally often.")
    told = forecast(_faction_specs(names, mode), len(mode.layout), count, t.workers or os.cpu_count() or 1)
    if told:  # a search agent's game takes tens of seconds
        err.print(told, markup=False, highlight=False, soft_wrap=True)


def written_games(out) -> list:
    """The rows of games.jsonl in `out` (a stopped run's games); a last line cut short by the
    stop is left out."""
    path = Path(out) / "games.jsonl"
    if not path.is_file():
        raise click.BadParameter(f"no games.jsonl in {out} to go on with", param_hint="--resume")
    lines = path.read_text().splitlines()
    rows = []
    for k, line in enumerate(lines):
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            if k < len(lines) - 1:
                raise click.BadParameter(f"{path}, line {k + 1}: not a game's JSON", param_hint="--resume") from None
    return rows


def _rewrite_games(path, rows):
    """games.jsonl written again with a resumed run's games, without a line cut short by the
    stop: into a new file, then put in the old one's place, so that a stop at any moment keeps
    every game played (the file rewritten in place lost what was still in its buffer)."""
    fresh = path.with_name(path.name + ".new")
    fresh.write_text("".join(json.dumps(row) + "\n" for row in rows))
    os.replace(fresh, path)


def _play_tournament(t, err, out, done=()):
    """Play the tournament under a progress bar with the time per game and the win rates so far,
    each game written to games.jsonl as it ends (a long run's games survive a stop; `done`: the
    games of the run resumed, kept)."""
    rows = list(done)
    path = out / "games.jsonl"
    _rewrite_games(path, rows)
    with run_progress(err, "per_game", "standing") as progress, open(path, "a") as fh:
        task = progress.add_task("games", total=len(t.specs()), completed=len(rows), standing="", per_game="")

        def on_result(row):
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            rows.append(row)
            per = sum(r.get("seconds", 0) for r in rows) / len(rows)
            progress.update(task, advance=1, standing=standings(rows, t.agents),
                            per_game=f"{per:.1f} s/game" if per >= 1 else f"{1000 * per:.0f} ms/game")

        _run(t, on_result, done)


@click.command()
@click.option("--agents", default="mcts,greedy,random", show_default=True,
              help='Agents, one per seat (repeated in turn if fewer than the players), e.g. '
                   '"mcts,greedy,greedy"; options after a colon: "mcts:iterations=400,greedy".')
@click.option("--players", type=click.IntRange(2, 6), default=3, show_default=True,
              help="2 to 6 (classic: 2 to 5). Legendary 2 and 6 players play in teams (R22: 2 "
                   "players run two factions each), 4 with --teams.")
@click.option("--teams", is_flag=True,
              help="Team play with 4 players (2 and 6 always): one agent entry per team, e.g. "
                   '"greedy,random" (greedy team against random team) or "greedy+random,random".')
@_TEAM_GOAL
@_RULESET
@click.option("--games", type=click.IntRange(min=1), default=300, show_default=True,
              help="Games to play (rounded up so that every seating is played equally often).")
@_WORKERS
@_RAY
@click.option("--seed", type=int, default=0, show_default=True,
              help="Game seeds S, S+1, ... (each seed played with every seating).")
@click.option("--out", "out_dir", type=OutputFolder(), default=None,
              help="Directory for results.json, games.csv, summary.csv, winrates.png and games.jsonl "
                   "(default: tournaments/tournament-<date-time> in the user data folder).")
@_MAX_CYCLES
@click.option("--resume", is_flag=True,
              help="Go on with the stopped run whose games.jsonl is in --out (same options): its "
                   "games are kept, the others played.")
def tournament(agents, players, teams, team_goal, ruleset, games, workers, ray_address, seed, out_dir,
               max_cycles, resume):
    """Play agents against each other with seats rotated; print win rates with 95% intervals.

    In team play (--teams with 4 players; 2 and 6 players always) each agent entry plays a
    whole team, teams rotated over the team seats, and a team's win counts once."""
    mode = _mode(players, teams, ruleset, team_goal)
    names = _check_agents(agents, mode.teams)
    t = Tournament(agents=names, players=players, games=games, seed=seed, workers=workers,
                   ray=ray_address, max_cycles=max_cycles, teams=mode.teams,
                   team_goal=mode.team_goal, ruleset=ruleset)
    con, err = _consoles()
    _tell_schedule(err, t, games)
    if resume and not out_dir:
        raise click.UsageError("--resume needs --out: the directory of the run to go on with")
    out = Path(out_dir) if out_dir else results_dir("tournament")
    done = written_games(out) if resume else []
    try:
        t.resumable(done)
    except ValueError as e:
        raise click.BadParameter(f"{e} (in {out / 'games.jsonl'})", param_hint="--resume") from None
    if done:
        err.print(f"{len(done)} games already played in {out}: they are kept.")
    out.mkdir(parents=True, exist_ok=True)
    _play_tournament(t, err, out, done)
    con.print(summary_table(t))
    ends = t.to_json()["endings"]
    con.print(f"{t.mode.label()}: games ended by "
              + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(ends.items())), markup=False)
    _finish(con, t, out, t.write, soft_wrap=True)


# --- cyclades ladder ------------------------------------------------------------------------------

def ladder_table(lad) -> Table:
    from .levels import resolve
    table = Table(title=lad.title())
    for col, just in (("#", "right"), ("Agent", "left"), ("Plays as", "left"), ("Rating (mu)", "right"),
                      ("mu ± 2σ", "right"), ("Games", "right"), ("Win rate", "right"),
                      ("95% CI (Wilson)", "right"), ("Par", "right"), ("ms/decision", "right"),
                      ("CPU ms/decision", "right")):
        table.add_column(col, justify=cast("JustifyMethod", just), overflow="fold")
    for k, r in enumerate(lad.ratings(), 1):
        table.add_row(str(k), r["agent"], resolve(r["agent"]), f"{r['mu']:.1f}",
                      f"{r['low']:.1f} to {r['high']:.1f}", str(r["games"]), _pct(r["win_rate"]),
                      f"{_pct(r['ci_low'])} – {_pct(r['ci_high'])}", _pct(r["par"]),
                      f"{1000 * r['seconds_per_decision']:.1f}",
                      milliseconds(r["cpu_per_decision"], digits=1))
    return table


def _make_ladder(agents, mode, **options):
    """The Ladder of the command's entries; a schedule it cannot make is a bad --agents."""
    from .ladder import Ladder

    names = _check_agents(agents, teams=False)
    try:
        lad = Ladder(entries=names, teams=mode.teams, team_goal=mode.team_goal, **options)
        lad.specs()
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--agents") from None
    try:
        import openskill  # noqa: F401
    except ImportError:
        raise click.ClickException("the ladder needs openskill: pip install 'cyclades[ladder]' "
                                   "(or pip install openskill)") from None
    return lad


def _play_ladder(lad, err, out):
    """Play the ladder under a progress bar, each game written to games.jsonl as it ends (a
    long run's games survive a stop)."""
    with run_progress(err) as progress, open(out / "games.jsonl", "w") as fh:
        task = progress.add_task("games", total=len(lad.specs()))

        def on_result(row):
            fh.write(json.dumps(row) + "\n")
            fh.flush()
            progress.update(task, advance=1)

        _run(lad, on_result)


@click.command()
@click.option("--agents", default="random,beginner,casual,strong,expert", show_default=True,
              help='Levels and agents on the ladder, e.g. "random,casual,strong" or '
                   '"greedy,mcts:iterations=50"; random is always added (its rating is 0).')
@click.option("--players", type=click.IntRange(2, 6), default=3, show_default=True,
              help="2 to 6 (classic: 2 to 5); 2 and 6 Legendary players play in teams (R22), 4 with --teams.")
@click.option("--teams", is_flag=True, help="Team play with 4 players (2 and 6 always): each entry plays a whole team.")
@_TEAM_GOAL
@_RULESET
@click.option("--rounds", type=click.IntRange(min=1), default=1, show_default=True,
              help="Times the round-robin is played (each time on new boards).")
@_WORKERS
@_RAY
@click.option("--seed", type=int, default=0, show_default=True, help="Game seeds S, S+1, ...")
@click.option("--out", "out_dir", type=OutputFolder(), default=None,
              help="Directory for ladder.json, ladder.csv, ladder.png, ladder.md and games.jsonl "
                   "(default: a new folder under the user's data folder, ladders/).")
@_MAX_CYCLES
def ladder(agents, players, teams, team_goal, ruleset, rounds, workers, ray_address, seed, out_dir,
           max_cycles):
    """Rate levels and agents on one scale: a round-robin, seats rotated, rated with openskill.

    Every combination of entries (as many as the game has players, or teams) plays every
    rotation of the seats on one board, `--rounds` times; each game ranks its sides (winners,
    then Metropolises, then GP) for a Plackett-Luce rating. Ratings are shifted so that random
    is 0; the interval is mu ± 2 sigma, with the games behind each rating."""
    from .ladder import markdown_table

    mode = _mode(players, teams, ruleset, team_goal)
    lad = _make_ladder(agents, mode, players=players, rounds=rounds, seed=seed, workers=workers,
                       ray=ray_address, max_cycles=max_cycles, ruleset=ruleset)
    con, err = _consoles()
    err.print(f"{len(lad.specs())} games: {len(lad.entries)} entries, every {mode.sides} of them in "
              f"{mode.sides} seatings, {rounds} round(s); {mode.label()} ({ruleset}).")
    out = Path(out_dir) if out_dir else results_dir("ladder")
    out.mkdir(parents=True, exist_ok=True)
    _play_ladder(lad, err, out)
    con.print(ladder_table(lad))

    def write(out):
        paths = lad.write(out)
        (Path(out) / "ladder.md").write_text(markdown_table(lad.ratings()) + "\n")
        return paths

    _finish(con, lad, out, write, more=["ladder.md", "games.jsonl"])
