"""`cyclades ladder`, a round-robin of levels and agents rated with openskill."""
import json
from collections import Counter

import pytest
from click.testing import CliRunner

from cyclades.agents.ladder import Ladder, ladder_schedule, markdown_table, placing, rate, seconds_per_decision
from cyclades.cli import main


def test_every_combination_meets_in_every_rotation():
    specs = ladder_schedule(["random", "greedy", "careless", "mcts"], players=3, rounds=2, seed=10)
    assert len(specs) == 2 * 4 * 3  # rounds x combinations x rotations
    combos = Counter(frozenset(s["side_lineup"]) for s in specs)
    assert len(combos) == 4 and set(combos.values()) == {6}
    seats = Counter((s["side_lineup"][k], k) for s in specs for k in range(3))
    assert set(seats.values()) == {6}  # each entry at each seat equally often
    by_seed = Counter(s["seed"] for s in specs)
    assert set(by_seed.values()) == {3}  # a combination's rotations share a board
    # The first pass already has every combination once.
    assert len({frozenset(s["side_lineup"]) for s in specs[:4]}) == 4
    teams = ladder_schedule(["random", "greedy"], players=4, teams=True)
    assert [s["lineup"] for s in teams] == [["random", "greedy", "random", "greedy"],
                                            ["greedy", "random", "greedy", "random"]]


def test_a_ladder_needs_enough_different_entries():
    with pytest.raises(ValueError, match="at least 3 different entries"):
        ladder_schedule(["random", "greedy"], players=3)
    with pytest.raises(ValueError, match="named twice"):
        ladder_schedule(["random", "greedy", "greedy"], players=3)


def test_placing_ranks_winners_then_metropolises_then_gp():
    row = {"lineup": ["a", "b", "c"], "winners": [1], "metropolises": [1, 3, 1], "gp": [5, 0, 2]}
    assert placing(row) == [1, 0, 2]
    shared = {"lineup": ["a", "b", "c"], "winners": [0, 2], "metropolises": [2, 0, 2], "gp": [1, 1, 1]}
    assert placing(shared) == [0, 1, 0]


def test_ratings_pin_random_at_zero_and_rank_the_stronger_above(tmp_path):
    """greedy against random, a few games of the classic 2-player game: greedy rated above
    random, random's mu exactly 0, each rating with its games; JSON, CSV and plot written."""
    lad = Ladder(entries=["greedy"], players=2, ruleset="classic", rounds=2, seed=4, workers=1)
    assert lad.entries == ["random", "greedy"]  # random is always on the ladder
    rows = lad.run()
    assert len(rows) == 4 and not [r for r in rows if "error" in r]
    ratings = lad.ratings()
    assert [r["agent"] for r in ratings] == ["greedy", "random"]
    top, anchor = ratings
    assert anchor["mu"] == 0.0 and top["mu"] > 0
    assert anchor["low"] == pytest.approx(-2 * anchor["sigma"])
    assert top["games"] == anchor["games"] == 4
    # CPU time a decision beside the clock's: greedy's look-ahead costs more than random's draw
    assert top["cpu_per_decision"] > anchor["cpu_per_decision"] >= 0
    paths = lad.write(tmp_path)
    data = json.loads(paths["json"].read_text())
    assert data["games"] == 4 and data["ratings"][0]["agent"] == "greedy"
    assert "random" in data["anchor"]
    assert paths["csv"].read_text().startswith("agent,mu,sigma")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert paths["png"].read_bytes().startswith(b"\x89PNG")
    assert "| greedy |" in markdown_table(ratings)
    assert paths["csv"].read_text().splitlines()[0].endswith("seconds_per_decision,cpu_per_decision")


def test_a_ladder_of_older_rows_shows_no_cpu_time():
    """Rows written before games recorded CPU time: the clock's time a decision is there, the
    CPU's is None in the ratings and "—" in the table, not a made-up 0."""
    rows = [{"game": g, "lineup": ["a", "random"], "winners": [g % 2], "metropolises": [1, 1],
             "gp": [0, 0], "decisions_by_seat": [10, 10], "thinking_by_seat": [0.5, 0.1]}
            for g in range(4)]
    clock = seconds_per_decision(rows, ["random", "a"])
    assert clock == {"random": pytest.approx(0.01), "a": pytest.approx(0.05)}
    assert seconds_per_decision(rows, ["random", "a"], "cpu_by_seat") == {"random": None, "a": None}
    ratings = [dict(r, seconds_per_decision=clock[r["agent"]], cpu_per_decision=None)
               for r in rate(rows, ["random", "a"])]
    assert "| 50 | — |" in markdown_table(ratings)


def test_ratings_do_not_depend_on_the_order_rows_arrive():
    rows = [{"game": g, "lineup": ["a", "random"], "winners": [g % 2], "metropolises": [1, 1],
             "gp": [0, 0]} for g in range(6)]
    one = rate(rows, ["random", "a"])
    two = rate(list(reversed(rows)), ["random", "a"])
    assert one == two


def test_ladder_command_prints_the_table_and_writes_the_files(tmp_path):
    out = tmp_path / "lad"
    r = CliRunner().invoke(main, ["ladder", "--agents", "greedy,careless", "--players", "3",
                                  "--max-cycles", "2", "--workers", "1", "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert "Rating" in r.output and "mu ± 2σ" in r.output and "Games" in r.output
    data = json.loads((out / "ladder.json").read_text())
    assert data["games"] == 3 and {x["agent"] for x in data["ratings"]} == {"random", "greedy", "careless"}
    assert [x["mu"] for x in data["ratings"] if x["agent"] == "random"] == [0.0]
    assert (out / "ladder.md").exists() and len((out / "games.jsonl").read_text().splitlines()) == 3


def test_ladder_command_refuses_bad_input():
    r = CliRunner().invoke(main, ["ladder", "--agents", "greedy,grandmaster"])
    assert r.exit_code != 0 and "unknown agent 'grandmaster'" in r.output
    r = CliRunner().invoke(main, ["ladder", "--agents", "greedy", "--players", "3"])
    assert r.exit_code != 0 and "at least 3 different entries" in r.output
    r = CliRunner().invoke(main, ["ladder", "--agents", "greedy,careless", "--ruleset", "classic",
                                  "--teams", "--players", "4"])
    assert r.exit_code != 0 and "no team play" in r.output
