"""Tournaments (issue 7): seat rotation, Wilson intervals, the command's table and files, Ray."""
import csv
import json
from collections import Counter

import pytest
from click.testing import CliRunner

from cyclades.agents.tournament import (Tournament, lineups, play_game, schedule, split_agents,
                                        summarize, wilson)
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
    assert "Win rate" in r.output and "95% CI" in r.output and "greedy" in r.output
    data = json.loads((out / "results.json").read_text())
    assert data["games"] == 6 and len(data["rows"]) == 6  # 3 seatings, twice
    assert {s["agent"] for s in data["summary"]} == {"greedy", "random"}
    with open(out / "games.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 6 and {"seat1", "winners", "cycles"} <= set(rows[0])
    with open(out / "summary.csv") as fh:
        summary = list(csv.DictReader(fh))
    assert {row["agent"] for row in summary} == {"greedy", "random"}
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
