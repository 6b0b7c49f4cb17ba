"""Tournaments: seat rotation, Wilson intervals, the command's table and files, Ray."""
import csv
import json
import signal
import subprocess
import sys
import time
from collections import Counter

import pytest
from click.testing import CliRunner

from cyclades.agents.tournament import Tournament, lineups, play_game, schedule, split_agents, summarize, wilson
from cyclades.cli import main


def test_every_seating_is_played_equally_often():
    """No agent gains from turn order: every arrangement of the agents over the seats is played
    the same number of times, each on the same seeds (the same boards)."""
    assert len(lineups(["mcts", "greedy", "random"], 3)) == 6
    assert lineups(["mcts", "greedy", "greedy"], 3) == [("greedy", "greedy", "mcts"),
                                                       ("greedy", "mcts", "greedy"),
                                                       ("mcts", "greedy", "greedy")]
    specs = schedule(["mcts", "greedy", "random"], 3, games=10, seed=7)
    assert len(specs) == 12  # rounded up to whole rounds of the 6 seatings
    per_seat = Counter((s["lineup"][p], p) for s in specs for p in range(3))
    assert set(per_seat.values()) == {4}
    seeds = Counter(s["seed"] for s in specs)
    assert seeds == {7: 6, 8: 6}
    # An agent list shorter than the seats is repeated in turn.
    assert lineups(["greedy", "random"], 3) == sorted({("greedy", "random", "greedy"),
                                                       ("greedy", "greedy", "random"),
                                                       ("random", "greedy", "greedy")})


def test_agent_lists_keep_their_options():
    assert split_agents("mcts:iterations=50,c=0.3,greedy, random") == \
        ["mcts:iterations=50,c=0.3", "greedy", "random"]


def test_wilson_interval():
    """The 95% Wilson score interval: known values, and it stays inside [0, 1]."""
    lo, hi = wilson(30, 60)
    assert abs(lo - 0.3773) < 1e-3 and abs(hi - 0.6227) < 1e-3
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and abs(hi - 0.2775) < 1e-3
    assert wilson(10, 10)[1] == 1.0 and wilson(10, 10)[0] < 1.0
    for k in range(11):  # the observed rate is always inside its interval
        lo, hi = wilson(k, 10)
        assert lo <= k / 10 <= hi


def test_shared_wins_count_a_share_to_each_winner():
    """R21: a shared victory counts 1/k to each of its k winners."""
    rows = [{"game": 0, "seed": 0, "lineup": ["a", "b", "c"], "winners": [0, 1],
             "metropolises": [2, 2, 0], "gp": [3, 3, 0], "cycles": 9, "decisions": 300,
             "decisions_by_seat": [100, 100, 100], "thinking_by_seat": [1.0, 0.1, 0.0],
             "longest_by_seat": [0.5, 0.01, 0.0], "seconds": 1.2, "ending": "metropolises"}]
    s = {x["agent"]: x for x in summarize(rows)}
    assert s["a"]["wins"] == 0.5 and s["b"]["wins"] == 0.5 and s["c"]["wins"] == 0
    assert s["a"]["seconds_per_decision"] == pytest.approx(0.01)
    assert s["a"]["cpu_per_decision"] is None  # a row of a run before CPU was recorded
    rows[0]["cpu_by_seat"] = [2.0, 0.1, 0.0]
    assert summarize(rows)[0]["cpu_per_decision"] == pytest.approx(0.02)
    older = {k: v for k, v in rows[0].items() if k != "cpu_by_seat"}  # a run resumed from older rows:
    assert summarize([rows[0], older])[0]["cpu_per_decision"] is None  # no figure from half its games
    assert s["a"]["gp_left"] == 3 and s["c"]["gp_left"] == 0  # the purse each held at the end


def test_one_game_row():
    row = play_game({"game": 3, "seed": 2, "lineup": ["greedy", "random", "random"], "players": 3,
                     "max_cycles": 40})
    assert "error" not in row and row["winners"] and row["game"] == 3
    assert sum(row["decisions_by_seat"]) == row["decisions"]


def test_tournament_command_prints_the_table_and_writes_the_files(tmp_path):
    """`cyclades tournament`: the table of win rates with intervals, results.json, games.csv,
    summary.csv and the PNG plot (when matplotlib is installed)."""
    out = tmp_path / "res"
    r = CliRunner().invoke(main, ["tournament", "--agents", "greedy,random,random", "--games", "4",
                                  "--workers", "2", "--seed", "3", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "Win rate" in r.output and "95% CI" in r.output and "GP left" in r.output
    assert "greedy" in r.output
    data = json.loads((out / "results.json").read_text())
    assert data["games"] == 6 and len(data["rows"]) == 6  # 3 seatings, twice
    assert {s["agent"] for s in data["summary"]} == {"greedy", "random"}
    with open(out / "games.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 6 and {"seat1", "winners", "cycles"} <= set(rows[0])
    with open(out / "summary.csv") as fh:
        summary = list(csv.DictReader(fh))
    assert {row["agent"] for row in summary} == {"greedy", "random"}
    # Each game was written as it ended (a stopped run keeps them): the same games as the JSON.
    written = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert sorted(g["game"] for g in written) == [row["game"] for row in data["rows"]]
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "No plot" in r.output
        return
    png = (out / "winrates.png").read_bytes()
    assert png.startswith(b"\x89PNG")


def test_unknown_agent_is_refused():
    r = CliRunner().invoke(main, ["tournament", "--agents", "greedy,nobody", "--games", "1"])
    assert r.exit_code != 0 and "unknown agent" in r.output


def test_tournament_on_a_local_ray_instance(tmp_path):
    """With Ray the games run as tasks (here on a local instance of 2 CPUs)."""
    ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install 'cyclades[ray]'")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        t = Tournament(agents=["greedy", "random", "random"], players=3, games=3, seed=1, ray="local")
        rows = t.run()
        assert len(rows) == 3 and not [r for r in rows if "error" in r]
        assert t.summary()[0]["agent"] == "greedy"
        paths = t.write(tmp_path)
        assert paths["json"].exists()
        assert "ray" in json.loads(paths["json"].read_text())["backend"]
    finally:
        ray.shutdown()


# --- every mode ------------------------------------------------------------------------

from cyclades.agents.tournament import faction_lineup  # noqa: E402


def test_team_schedules_rotate_teams_and_seat_a_team_lineup():
    """In team play an agent entry plays a whole team (R22: teams of factions 0/2 and 1/3);
    the teams swap places game by game on the same seed; "greedy+random" seats greedy at the
    team's first faction and random at its second."""
    specs = schedule(["greedy", "random"], 4, games=4, seed=5, teams=True)
    assert [s["side_lineup"] for s in specs] == [["greedy", "random"], ["random", "greedy"]] * 2
    assert specs[0]["lineup"] == ["greedy", "random", "greedy", "random"]
    assert [s["seed"] for s in specs] == [5, 5, 6, 6] and all(s["teams"] for s in specs)
    assert faction_lineup(["greedy+random", "mcts"], [0, 1, 0, 1]) == ["greedy", "mcts", "random", "mcts"]
    six = schedule(["a", "b", "c"], 6, games=6)
    assert len(six) == 6 and six[0]["lineup"] == ["a", "b", "c", "a", "b", "c"]
    two = schedule(["mcts", "greedy"], 2, games=2)  # the 2-player game: two factions each
    assert two[0]["lineup"] == ["greedy", "mcts", "greedy", "mcts"] and two[0]["teams"]
    classic = schedule(["mcts", "greedy"], 2, games=2, ruleset="classic")
    assert classic[0]["lineup"] == ["greedy", "mcts"] and not classic[0]["teams"]


def test_a_teams_win_counts_once():
    """R21/R22: the whole team wins; it is one win of one team-game, not two."""
    row = {"game": 0, "seed": 0, "lineup": ["g", "r", "g", "r"], "side_lineup": ["g", "r"],
           "sides": [0, 1, 0, 1], "winners": [0, 2], "winning_sides": [0],
           "metropolises": [2, 0, 1, 1], "side_metropolises": [3, 1], "gp": [4, 2, 0, 0],
           "cycles": 8, "decisions": 200, "decisions_by_seat": [50, 50, 50, 50],
           "thinking_by_seat": [0.5, 0.1, 0.5, 0.1], "longest_by_seat": [0.1, 0.01, 0.2, 0.01],
           "seconds": 1.0, "ending": "metropolises"}
    s = {x["agent"]: x for x in summarize([row])}
    assert s["g"]["seat_games"] == 1 and s["g"]["wins"] == 1 and s["g"]["win_rate"] == 1.0
    assert s["r"]["wins"] == 0 and s["g"]["par"] == 0.5
    assert s["g"]["metropolises"] == 3 and s["g"]["decisions"] == 100
    assert s["g"]["longest_decision"] == 0.2


def test_team_tournament_command_reports_per_team(tmp_path):
    """`cyclades tournament --players 4 --teams`: a row per team lineup, team-games counted once,
    the JSON names the mode and the unit; games.csv gives each game's winning team."""
    out = tmp_path / "teams"
    r = CliRunner().invoke(main, ["tournament", "--agents", "greedy,random", "--players", "4",
                                  "--teams", "--games", "4", "--workers", "1", "--seed", "2",
                                  "--max-cycles", "30", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "Team (agents)" in r.output and "Team-games" in r.output and "4 players, 2 teams" in r.output
    data = json.loads((out / "results.json").read_text())
    assert data["unit"] == "team" and data["teams"] and data["layout"] == [0, 1, 0, 1]
    assert data["arrangements"] == [["greedy", "random"], ["random", "greedy"]]
    summary = {s["agent"]: s for s in data["summary"]}
    assert summary["greedy"]["seat_games"] == summary["random"]["seat_games"] == 4
    assert summary["greedy"]["wins"] + summary["random"]["wins"] == 4 - sum(
        len(row["winning_sides"]) > 1 for row in data["rows"])
    assert sum(data["endings"].values()) == 4
    for row in data["rows"]:
        assert row["winners"] == [q for q in range(4) if row["sides"][q] in row["winning_sides"]]
    with open(out / "games.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert {"winning_sides", "side1", "side2", "side_metropolises1"} <= set(rows[0])

def test_a_resumed_run_stopped_before_its_next_game_keeps_every_game(tmp_path):
    """The kept games are on disk from the moment a resumed run starts: a run killed while its
    first new game is being played loses none of them (the file used to be rewritten through a
    buffer that a kill threw away: a run of 65 games held 9 only there)."""
    agents = "mcts:iterations=5000,random,random"  # a first new game that takes its time
    t = Tournament(agents=split_agents(agents), players=3, games=40, seed=5, workers=1)
    kept = [{"game": s["game"], "seed": s["seed"], "lineup": s["lineup"], "winners": [0],
             "note": "a game of the stopped run " + "x" * 400} for s in t.specs()[:30]]
    games = tmp_path / "games.jsonl"
    games.write_text("".join(json.dumps(row) + "\n" for row in kept))  # 16 KB: two buffers' worth
    command = ["tournament", "--agents", agents, "--games", "40", "--seed", "5", "--workers", "1",
               "--out", str(tmp_path), "--resume"]
    run = subprocess.Popen([sys.executable, "-c", "from cyclades.cli import main; main()", *command],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        told = ""
        while "already played" not in told and run.poll() is None:
            told += run.stderr.readline()
        assert "30 games already played" in told
        time.sleep(1.0)  # the file rewritten; game 30 under way, far from its end
        assert run.poll() is None
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()
    assert [json.loads(line) for line in games.read_text().splitlines()] == kept


@pytest.mark.parametrize("args", [["--players", "2"], ["--ruleset", "classic", "--players", "3"],
                                  ["--ruleset", "classic", "--players", "2"], ["--players", "6"],
                                  ["--players", "4", "--teams", "--team-goal", "4"]])
def test_tournaments_in_every_mode(tmp_path, args):
    r = CliRunner().invoke(main, ["tournament", "--agents", "greedy,random", "--games", "2",
                                  "--workers", "1", "--max-cycles", "12", "--out", str(tmp_path)] + args)
    assert r.exit_code == 0, r.output
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["errors"] == 0 and data["games"] >= 2
    assert data["ruleset"] == (args[1] if args[0] == "--ruleset" else "legendary")
    if "--team-goal" in args:
        assert data["team_goal"] == 4 and data["metropolises_to_win"] == 4


@pytest.mark.parametrize("args, message", [
    (["--ruleset", "classic", "--players", "4", "--teams"], "the classic game has no team play"),
    (["--ruleset", "classic", "--players", "6"], "2 to 5 players (6 given)"),
    (["--players", "7"], "--players"),
    (["--players", "4", "--teams", "--team-goal", "5"], "--team-goal"),
    (["--players", "3", "--team-goal", "4"], "--team-goal is for team play"),
    (["--players", "5", "--teams"], "team play is for 4 players (5 given)"),
    (["--players", "3", "--agents", "greedy+random,random"], "for team play only"),
    (["--players", "4", "--teams", "--agents", "greedy+oracle,random"], "unknown agent 'oracle'"),
])
def test_impossible_tournaments_are_refused_before_any_game(tmp_path, args, message):
    r = CliRunner().invoke(main, ["tournament", "--games", "1", "--out", str(tmp_path / "x")] + args)
    assert r.exit_code == 2 and message in r.output
    assert not (tmp_path / "x").exists()  # nothing run


def test_a_stopped_tournament_resumes_where_it_stopped(tmp_path):
    """`--resume` keeps the games of a stopped run (games.jsonl, a last line cut short by the
    stop left out) and plays only the others: the results are those of a run never stopped.
    Another run's games are refused, and the file is left as it was."""
    args = ["tournament", "--agents", "greedy,random,random", "--games", "6", "--workers", "1", "--seed", "5"]
    whole = tmp_path / "whole"
    r = CliRunner().invoke(main, args + ["--out", str(whole)])
    assert r.exit_code == 0, r.output
    stopped = tmp_path / "stopped"
    stopped.mkdir()
    lines = (whole / "games.jsonl").read_text().splitlines()
    (stopped / "games.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])  # cut mid-line
    r = CliRunner().invoke(main, args + ["--out", str(stopped), "--resume"])
    assert r.exit_code == 0, r.output
    assert "2 games already played" in r.output

    def games(out):
        return [{k: v for k, v in row.items() if k not in ("seconds", "thinking_by_seat", "cpu_by_seat",
                                                             "longest_by_seat")}
                for row in json.loads((out / "results.json").read_text())["rows"]]

    assert games(stopped) == games(whole) and len(games(whole)) == 6
    before = (stopped / "games.jsonl").read_text()
    other = ["tournament", "--agents", "greedy,random,random", "--games", "6", "--seed", "6"]
    r = CliRunner().invoke(main, other + ["--out", str(stopped), "--resume"])
    assert r.exit_code == 2 and "not a game of this schedule" in r.output
    assert (stopped / "games.jsonl").read_text() == before
    r = CliRunner().invoke(main, args + ["--resume"])
    assert r.exit_code == 2 and "--resume needs --out" in r.output
