"""The command line (cli/) and the agents it plays with (agents/)."""
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import cyclades
from cyclades import cli
from cyclades.agents import RandomAgent, agent_names, make_agent
from cyclades.cli import main

SRC = str(Path(cyclades.__file__).resolve().parent.parent)
ENOUGH_ONES = "1\n" * 4000  # more than the decisions of any one seat in a whole game
# The console script beside this Python (.venv/bin/cyclades when the README's
# `.venv/bin/python -m pytest` runs, with or without the virtualenv activated).
INSTALLED = Path(sys.executable).with_name("cyclades")


@pytest.fixture(autouse=True)
def user_data_folder(tmp_path, monkeypatch):
    """`play` keeps its records, `tournament` its results, in the user data folder: here a
    temporary one (platformdirs reads XDG_DATA_HOME), not the user's."""
    folder = tmp_path / "user-data"
    monkeypatch.setenv("XDG_DATA_HOME", str(folder))
    return folder / "cyclades"


def run(*args, input=None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def run_process(*args, input=None, command=None):
    """The real program in a subprocess: exit code, stdout, stderr."""
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    cmd = command or [sys.executable, "-m", "cyclades.cli"]
    p = subprocess.run(cmd + [str(a) for a in args], input=input, capture_output=True, text=True,
                       env=env, timeout=120)
    return p.returncode, p.stdout, p.stderr


# --- agents -------------------------------------------------------------------------------------

def play_random(players, seed, agent_seed):
    g = cyclades.new_game(players=players, seed=seed, max_cycles=40)
    agents = [RandomAgent(agent_seed + p) for p in range(players)]
    chosen = []
    while not g.is_over:
        p = g.to_move
        a = agents[p].act(g, p)
        assert a in g.legal_actions()
        chosen.append(a)
        g.apply(a)
    return chosen, g.result()


def test_random_agent_is_reproducible_and_legal():
    """R4: a seed and the list of decisions replay a game exactly; a seeded random agent
    makes the same decisions again, always legal ones."""
    a, ra = play_random(3, 11, 5)
    b, rb = play_random(3, 11, 5)
    c, _ = play_random(3, 11, 6)
    assert a == b and ra == rb
    assert a != c
    assert ra["over"]


def test_agent_registry():
    assert "random" in agent_names()
    agent = make_agent("random", seed=3)
    assert isinstance(agent, RandomAgent) and agent.name == "random"
    with pytest.raises(ValueError, match=r"unknown agent 'nope'.*random"):
        make_agent("nope")


# --- simulate -------------------------------------------------------------------------------

def test_simulate_prints_figures_and_writes_json(tmp_path):
    """simulate: N games per player count, game i with seed S+i; the table and the JSON
    give speed, lengths and how the games ended (R21)."""
    out = tmp_path / "sim.json"
    r = run("simulate", "--games", 3, "--players", "3,4", "--seed", 5, "--json", out)
    assert r.exit_code == 0, r.output
    for label in ("Games/s", "Decisions/s", "Decisions per game, median", "Cycles per game, max",
                  "3 Metropolises", "elimination", "cycle limit", "Shared wins", "Ties broken on GP",
                  "3 players", "4 players"):
        assert label in r.output
    data = json.loads(out.read_text())
    assert [run_["players"] for run_ in data["runs"]] == [3, 4]
    for run_ in data["runs"]:
        s = run_["summary"]
        assert s["games"] == 3 and s["errors"] == 0
        assert [g["seed"] for g in run_["games"]] == [5, 6, 7]
        endings = s["ended_by_metropolises"] + s["ended_by_elimination"] + s["ended_by_cycle_limit"] \
            + s["ended_otherwise"]
        assert endings == 3
        for g in run_["games"]:
            assert g["decisions"] > 0 and g["winners"] and g["cycles"] >= 1
            assert g["players"] == run_["players"]


def test_simulate_same_seed_same_games(tmp_path):
    """R4: the same seed gives the same games (decisions, cycles, winners)."""
    rows = []
    for name in ("a.json", "b.json"):
        assert run("simulate", "--games", 2, "--seed", 9, "--json", tmp_path / name).exit_code == 0
        data = json.loads((tmp_path / name).read_text())
        rows.append([{k: v for k, v in g.items() if k != "seconds"} for g in data["runs"][0]["games"]])
    assert rows[0] == rows[1]


def test_simulate_cycle_limit_guard_is_counted(tmp_path):
    """R21 with the cycle-limit guard: a game cut at 2 cycles ends on it, and is counted."""
    out = tmp_path / "sim.json"
    r = run("simulate", "--games", 2, "--players", 3, "--players", 5, "--max-cycles", 2, "--json", out)
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert [run_["players"] for run_ in data["runs"]] == [3, 5]
    for run_ in data["runs"]:
        assert run_["summary"]["ended_by_cycle_limit"] == 2
        assert all(g["cycles"] == 2 and g["ending"] == "cycle_limit" for g in run_["games"])


def test_simulate_team_modes_count_a_team_win_once(tmp_path):
    """R22 / Specific Rules: modes 2 (two factions each), 4t and 6 play in teams; a team wins
    together with its combined Metropolises (R21), and its win counts once. Agents are dealt per
    faction; the JSON rows name the mode, the team layout and the winning team."""
    out = tmp_path / "teams.json"
    r = run("simulate", "--games", 4, "--players", "2,4t", "--players", 6, "--seed", 3, "--json", out)
    assert r.exit_code == 0, r.output
    for label in ("2 players (4 factions)", "4 players, 2 teams", "6 players, 3 teams", "Games/s",
                  "Won by reaching 3 Metropolises", "Wins per team", "How the winning teams won"):
        assert label in r.output
    data = json.loads(out.read_text())
    assert [(x["mode"], x["players"], x["factions"], x["teams"]) for x in data["runs"]] == [
        ("2", 2, 4, [0, 1, 0, 1]), ("4t", 4, 4, [0, 1, 0, 1]), ("6", 6, 6, [0, 1, 2, 0, 1, 2])]
    for run_ in data["runs"]:
        s = run_["summary"]
        assert s["games"] == 4 and s["errors"] == 0
        for g in run_["games"]:
            assert g["mode"] == run_["mode"] and g["teams"] == run_["teams"]
            assert len(g["metropolises"]) == run_["factions"]
            # The whole team wins, and nobody else.
            won = g["winning_teams"]
            assert won and g["winners"] == [q for q, t in enumerate(g["teams"]) if t in won]
            if g["ending"] == "metropolises":
                assert max(g["team_metropolises"]) >= 3
                assert all(g["team_metropolises"][t] == max(g["team_metropolises"]) for t in won)
        wins = s["wins_by_team"]
        assert [w["team"] for w in wins] == sorted(set(run_["teams"]))
        for w in wins:  # once per game the team won (a shared win once for each sharer)
            assert w["wins"] == sum(w["team"] in g["winning_teams"] for g in run_["games"])
            assert w["factions"] == [q for q, t in enumerate(run_["teams"]) if t == w["team"]]
        assert sum(w["wins"] for w in wins) == 4 + sum(len(g["winning_teams"]) - 1 for g in run_["games"])
        assert s["shared_wins"] == sum(len(g["winning_teams"]) > 1 for g in run_["games"])


def test_simulate_team_goal_of_4_metropolises(tmp_path):
    """Specific Rules: "For longer games, you can decide to play with 4 Metropolises": a team
    game ended by Metropolises has a team with 4."""
    out = tmp_path / "goal4.json"
    r = run("simulate", "--games", 3, "--players", 6, "--team-goal", 4, "--seed", 1, "--json", out)
    assert r.exit_code == 0, r.output
    assert "Won by reaching 4 Metropolises" in r.output
    data = json.loads(out.read_text())
    assert data["team_goal"] == 4 and data["runs"][0]["metropolises_to_win"] == 4
    ended = [g for g in data["runs"][0]["games"] if g["ending"] == "metropolises"]
    assert ended and all(max(g["team_metropolises"]) >= 4 for g in ended)


# --- play -----------------------------------------------------------------------------------

def test_play_with_piped_input_finishes_a_game():
    """`yes 1 | cyclades play --seed 3` plays a whole game to its end (R21) and exits 0."""
    code, out, err = run_process("play", "--seed", 3, input=ENOUGH_ONES)
    assert code == 0, err
    assert "Traceback" not in err
    assert "The game is over" in out
    assert re.search(r"(wins|share the victory) after \d+ cycles", out)


def test_play_bots_take_an_agent_with_several_options_as_tournaments_do():
    """--bots "mcts:iterations=3,c=0.3,greedy" is two bots, the first an mcts with two options,
    where c=0.3 was taken for an agent's name."""
    from cyclades.cli import play as play_command

    assert play_command.agent_list("mcts:iterations=3,c=0.3,greedy", "--bots") == [
        "mcts:iterations=3,c=0.3", "greedy"]
    game = cyclades.new_game(players=3, seed=3)
    bots = play_command._bots(game, {0}, ["mcts:iterations=3,c=0.3", "greedy"], 3)
    assert (bots[1].iterations, bots[1].c) == (3, 0.3) and type(bots[2]).__name__ == "GreedyAgent"


@pytest.mark.skipif(not INSTALLED.is_file(),
                    reason=f"no console script {INSTALLED} beside this Python: the package is not "
                           f"installed in it (pip install -e .)")
@pytest.mark.parametrize("args", ["play --seed 3", "play --players 2 --seed 3 --max-cycles 30"])
def test_installed_command_plays_from_a_pipe(args):
    """The `cyclades` console script of pyproject.toml works, fed by `yes 1` (also the 2-player
    game, where the human decides for two factions: R22)."""
    p = subprocess.run(f"yes 1 | {shlex.quote(str(INSTALLED))} {args}", shell=True,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "The game is over" in p.stdout


def test_play_two_players_finishes_a_game_deciding_for_both_factions():
    """Specific Rules, 2 players: each player controls two factions of one team. `yes 1 | cyclades
    play --players 2` asks the human for every decision of factions 1 and 3 (saying which one
    decides), never for 2 or 4, and plays the game to its end (R21)."""
    code, out, err = run_process("play", "--players", 2, "--seed", 3, "--max-cycles", 30, input=ENOUGH_ONES)
    assert code == 0, err
    assert "Traceback" not in err
    assert "You run Faction 1 and Faction 3: team 1, one shared purse." in out
    asked = set(re.findall(r"Your choice for (Faction \d) \[", out))
    assert asked == {"Faction 1", "Faction 3"}
    assert "Team 1 (Faction 1, Faction 3; yours): 10 GP | Team 2 (Faction 2, Faction 4): ? GP" in out
    assert "The game is over" in out
    assert re.search(r"Team \d \(Faction \d and Faction \d\) wins after \d+ cycles"
                     r"|share the victory after \d+ cycles", out)


def test_play_two_players_seat_2_runs_factions_2_and_4_and_replays(tmp_path):
    """R22 with 2 players: seat 2 runs the second team's factions; the saved record replays the
    team game (R4) and names the same winning team."""
    path = tmp_path / "two.json"
    r = run("play", "--players", 2, "--seat", 2, "--seed", 8, "--max-cycles", 30, "--save", path,
            input=ENOUGH_ONES)
    assert r.exit_code == 0, r.output
    assert "You run Faction 2 and Faction 4: team 2" in r.output
    assert set(re.findall(r"Your choice for (Faction \d) \[", r.output)) == {"Faction 2", "Faction 4"}
    won = re.search(r"(Team \d \(Faction \d and Faction \d\)) wins after (\d+) cycles", r.output)
    assert won
    r = run("replay", path)
    assert r.exit_code == 0, r.output
    assert "2 players, each running the two factions of a team" in r.output
    assert f"{won.group(1)} wins after {won.group(2)} cycles" in r.output


def test_play_team_summary_shows_own_team_purse_and_hides_the_others_r22_r24():
    """R22: the team's GP are shared, R24: another team's purse is hidden; the summary says who
    is in which team."""
    r = run("play", "--players", 4, "--teams", "--seat", 2, "--seed", 1, input="q\n")
    assert r.exit_code == 0, r.output
    assert "4 players in 2 teams" in r.output
    assert "You are Player 2, in team 2 with Player 4 (one shared purse)." in r.output
    assert "Team 1 (Player 1, Player 3): ? GP | Team 2 (Player 2, Player 4; yours): 10 GP" in r.output
    assert "Player 2 (you): team 2," in r.output and "Player 3: team 1," in r.output
    r = run("play", "--players", 6, "--seat", 6, "--seed", 1, input="q\n")
    assert r.exit_code == 0, r.output
    assert ("Team 1 (Player 1, Player 4): ? GP | Team 2 (Player 2, Player 5): ? GP | "
            "Team 3 (Player 3, Player 6; yours): 10 GP") in r.output


def test_play_shows_own_gp_and_hides_others_r24():
    """R24: the position shown to the human has their own GP and '?' for the others'."""
    r = run("play", "--seed", 1, "--seat", 2, input="q\n")
    assert r.exit_code == 0, r.output
    assert "Player 2 (you): 5 GP" in r.output
    assert "Player 1: ? GP" in r.output and "Player 3: ? GP" in r.output
    assert "Place a Control token on" in r.output  # the numbered legal actions


def test_play_invalid_choices_reprompt_then_quit(user_data_folder):
    """Invalid input gets a message and the question again; p shows the position, ? the keys;
    q quits, saying where the game so far is saved (a record that replays)."""
    r = run("play", "--seed", 2, input="abc\n0\n999\np\n?\n1\nq\n")
    assert r.exit_code == 0, r.output
    assert "'abc' is not a number" in r.output
    assert "0 is not on the list" in r.output and "999 is not on the list" in r.output
    assert r.output.count("The position · Cycle 0 · Placement") == 2  # at the start, and on p
    assert r.output.count("p shows the whole position") == 2  # at the start, and on ?
    saved = re.search(r"You leave the game in cycle 0\. The game so far is saved in (\S+): "
                      r"`cyclades replay \1` shows it\.", r.output)
    assert saved, r.output
    path = Path(saved.group(1))
    assert path.parent == user_data_folder / "games"
    assert cyclades.Game.from_record(json.loads(path.read_text())).state.cycle == 0
    r = run("replay", path)
    assert r.exit_code == 0, r.output
    assert "Player 1 takes control of" in r.output


def test_play_input_ending_early_is_an_error():
    r = run("play", "--seed", 2, input="1\n")
    assert r.exit_code == 1
    assert "Input ended before the game did" in r.output


def test_play_saves_a_record_that_replays_with_the_same_cycles_and_winner(tmp_path):
    """R4: the saved record replays the game exactly: `replay` prints as many cycles as the
    game had and names the same winner (R21)."""
    path = tmp_path / "game.json"
    r = run("play", "--seed", 4, "--players", 4, "--seat", 3, "--save", path, input=ENOUGH_ONES)
    assert r.exit_code == 0, r.output
    record = json.loads(path.read_text())
    result = cyclades.Game.from_record(record).result()
    assert result["over"]
    winner = re.search(r"(Player \d)(?: \(you\))? wins after (\d+) cycles", r.output)
    assert winner and int(winner.group(2)) == result["cycles"]

    r = run("replay", path)
    assert r.exit_code == 0, r.output
    headings = [int(m) for m in re.findall(r"^Cycle (\d+)$", r.output, re.M)]
    assert headings == list(range(1, result["cycles"] + 1))
    assert f"{winner.group(1)} wins after {result['cycles']} cycles" in r.output
    assert "Player 1 offers" in r.output or "Player 1 makes an Offering" in r.output


def test_replay_upto_stops_early(tmp_path):
    g = cyclades.new_game(players=3, seed=7)
    agent = RandomAgent(7)
    for _ in range(60):
        g.apply(agent.act(g, g.to_move))
    path = tmp_path / "part.json"
    path.write_text(json.dumps(g.record()))
    r = run("replay", path, "--upto", 40)
    assert r.exit_code == 0, r.output
    assert "Stopped after 40 of 60 decisions" in r.output


# --- board ----------------------------------------------------------------------------------

def test_board_lists_every_area_with_its_neighbours():
    """R7: the adjacency listed is the board's (the one the rules use)."""
    r = run("board", "--players", 4, "--seed", 2, "--board", "recommended")
    assert r.exit_code == 0, r.output
    b = cyclades.new_game(players=4, seed=2, board="recommended").board
    for a in range(len(b.ids)):
        row = next(line for line in r.output.splitlines() if re.match(rf"\s*{a}\s+{re.escape(b.ids[a])}\s", line))
        for x in b.adj[a]:
            assert b.ids[x] in row
    assert f"{len(b.lands)} land, {len(b.seas)} sea" in r.output


@pytest.mark.parametrize("args,kwargs,mode", [
    (["--players", 2], {"players": 2}, "2 players, each running the two factions of a team"),
    (["--players", 4, "--teams"], {"players": 4, "teams": True}, "4 players in 2 teams"),
    (["--players", 6], {"players": 6}, "6 players in 3 teams"),
])
def test_board_of_team_games(args, kwargs, mode):
    """Specific Rules / R6: the team games' boards (8 tiles with 2 or 4 players, 10 with 6)."""
    r = run("board", "--seed", 4, *args)
    assert r.exit_code == 0, r.output
    b = cyclades.new_game(seed=4, **kwargs).board
    tiles = sorted({t for t in b.tile if t})
    assert len(tiles) == (10 if kwargs["players"] == 6 else 8)
    assert f"{len(b.ids)} areas: {len(b.lands)} land" in r.output
    assert f"tiles {', '.join(map(str, tiles))} (random board, {mode}, seed 4)" in r.output


# --- bench ----------------------------------------------------------------------------------

def test_bench_finds_the_repository_benchmark():
    """`cyclades bench` runs <repo>/benchmarks/engine_speed.py; `-h` goes through to it."""
    root = Path(SRC).parent
    assert cli.bench.bench_script() == root / "benchmarks" / "engine_speed.py"
    code, out, err = run_process("bench", "-h")
    assert code == 0, err
    assert "usage: engine_speed.py" in out and "--update-baseline" in out


def test_bench_passes_options_through_with_the_same_python(tmp_path, monkeypatch):
    """The options reach the benchmark as given, run by this Python from the repository root,
    and its exit code is the command's."""
    (tmp_path / "benchmarks").mkdir()
    script = tmp_path / "benchmarks" / "engine_speed.py"
    seen = tmp_path / "seen.json"
    script.write_text("import json, os, sys\n"
                      f"json.dump([sys.executable, sys.argv[1:], os.getcwd()], open({str(seen)!r}, 'w'))\n"
                      "sys.exit(3 if '--games' in sys.argv else 0)\n")
    monkeypatch.setattr(cli.bench, "bench_script", lambda: script)
    r = run("bench", "--quick", "--update-baseline")
    assert r.exit_code == 0, r.output
    assert json.loads(seen.read_text()) == [sys.executable, ["--quick", "--update-baseline"], str(tmp_path)]
    r = run("bench", "--games", 2, "--json", "out.json")
    assert r.exit_code == 3
    assert json.loads(seen.read_text())[1] == ["--games", "2", "--json", "out.json"]


def test_bench_without_the_repository_says_how_to_get_it(monkeypatch):
    monkeypatch.setattr(cli.bench, "bench_script", lambda: None)
    r = run("bench", "--quick")
    assert r.exit_code == 1
    assert "benchmarks/engine_speed.py is not beside this installation" in r.output
    assert "Clone the repository" in r.output and "pip install -e '.[bench]'" in r.output


# --- errors: a message, a non-zero exit, no traceback ---------------------------------------

@pytest.mark.parametrize("args,message", [
    (["play", "--players", "7"], "--players"),
    (["play", "--players", "1"], "--players"),
    (["play", "--players", "3", "--teams"], "team play is for 4 players (3 given)"),
    (["play", "--players", "4", "--teams", "--team-goal", "5"], "--team-goal"),
    (["play", "--seat", "4"], "not a seat of a 3-player game"),
    (["play", "--players", "2", "--seat", "3"], "not a seat of a 2-player game"),
    (["play", "--board", "hexagon"], "'hexagon' is not one of"),
    (["play", "--bots", "genius"], "unknown agent 'genius'"),
    (["play", "--bots", "greedy:depth=3"], "Invalid value for --bots: agent 'greedy' has no option 'depth'"),
    (["play", "--bots", "random,mcts:iterations=-1"], "Invalid value for --bots: mcts iterations must be 0 or more"),
    (["simulate", "--agents", "mcts:seconds=nan"], "Invalid value for --agents: mcts seconds must be a finite number"),
    (["simulate", "--players", "7"], "7 players: the game is for 2 to 6; the modes are 2, 3, 4, 4t, 5, 6"),
    (["simulate", "--players", "1"], "the game is for 2 to 6"),
    (["simulate", "--players", "4t,3t"], "'3t': only 4 players choose team play"),
    (["simulate", "--players", "6t"], "2 and 6 players always play in teams"),
    (["simulate", "--players", "3,x"], "'x' is not a number of players"),
    (["simulate", "--players", ","], "give a mode"),
    (["simulate", "--team-goal", "5"], "--team-goal"),
    (["simulate", "--agents", "random,oracle"], "unknown agent 'oracle'"),
    (["simulate", "--games", "0"], "--games"),
    (["board", "--players", "7"], "--players"),
    (["board", "--players", "5", "--teams"], "team play is for 4 players"),
    (["replay", "/no/such/file.json"], "does not exist"),
    (["play", "--save", "/no/such/dir/game.json"], "cannot write /no/such/dir/game.json"),
])
def test_invalid_options_exit_nonzero_with_a_message(args, message):
    r = run(*args)
    assert r.exit_code != 0
    assert message in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.parametrize("args, option, message", [
    (["simulate", "--json", "{tmp}/missing/figures.json"], "--json", "{tmp}/missing: no such folder"),
    (["simulate", "--json", "{tmp}/a-file/figures.json"], "--json", "{tmp}/a-file: a file, not a folder"),
    (["train", "--out", "{tmp}/missing/w.npz", "{tmp}"], "--out", "{tmp}/missing: no such folder"),
    (["train", "--report", "{tmp}/a-file/r.json", "{tmp}", "--out", "{tmp}/w.npz"], "--report",
     "{tmp}/a-file: a file, not a folder"),
    (["train", "--plot", "{tmp}/missing/deeper/c.png", "{tmp}", "--out", "{tmp}/w.npz"], "--plot",
     "{tmp}/missing/deeper: no such folder"),
    (["tournament", "--out", "{tmp}/a-file/run", "--agents", "random"], "--out", "{tmp}/a-file: a file, not a folder"),
    (["ladder", "--out", "{tmp}/a-file/deeper/run", "--agents", "random"], "--out",
     "{tmp}/a-file: a file, not a folder"),
    (["selfplay", "--out", "{tmp}/a-file/run", "--agents", "random"], "--out", "{tmp}/a-file: a file, not a folder"),
])
def test_a_file_or_folder_a_command_cannot_write_is_refused_before_any_work(tmp_path, args, option, message):
    """Where a command writes (often at the end of a long run: a network trained for an hour,
    the figures of a thousand games) must be a place it can write, said before any game is
    played or any data read, naming the option; nothing is made."""
    (tmp_path / "a-file").write_text("")
    r = run(*(a.format(tmp=tmp_path) for a in args))
    assert r.exit_code == 2, r.output
    assert f"Invalid value for '{option}': {message.format(tmp=tmp_path)}" in r.output, r.output
    assert [q.name for q in tmp_path.iterdir()] == ["a-file"]


@pytest.mark.parametrize("content,message", [
    ("{not json", "is not valid JSON"),
    ("[1, 2, 3]", "is not a game record"),
    ('{"options": {"players": 3}, "actions": []}', "the record's options lack 'ruleset'"),
])
def test_bad_replay_files_exit_nonzero_with_a_message(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, _out, err = run_process("replay", path)
    assert code != 0
    assert message in err
    assert "Traceback" not in err


def test_replay_of_a_record_with_an_illegal_decision(tmp_path):
    """A record whose decision the engine refuses says which decision, with no traceback."""
    g = cyclades.new_game(players=3, seed=1)
    record = g.record()
    record["actions"] = [{"kind": "bid", "what": "zeus", "n": 3}]  # placement comes first
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(record))
    code, _out, err = run_process("replay", path)
    assert code == 1
    assert "decision 1 cannot be replayed" in err
    assert "Traceback" not in err


def test_replay_of_a_scenario_record_names_the_battle(tmp_path):
    """A record of a game set up from a scenario replays from that position (R4); the
    Sea Battle reads in the rulebook's words with both sides named."""
    from positions import act, scenario
    g = scenario(gods=["poseidon", "ares", "athena", "zeus", "hera"], turn_order=[0, 1, 2],
                 areas={"argos": {"owner": 0, "troops": 1}, "west": {"owner": 0, "fleets": 2},
                        "naxos": {"owner": 1, "troops": 1}, "north": {"owner": 1, "fleets": 1},
                        "melos": {"owner": 2, "troops": 1}},
                 decision={"turn": {"player": 0, "god": "poseidon", "stage": "main"}}, dice=[3, 0])
    act(g, "sea_move", n=1)
    act(g, "origin", where="west")
    act(g, "take", "fleet", n=2)
    act(g, "destination", where="north")
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(g.record()))
    r = run("replay", path)
    assert r.exit_code == 0, r.output
    assert ("Sea Battle in the north, round 1: Player 1 rolls 3 (strength 5), "
            "Player 2 rolls 0 (strength 1); Player 2 loses the round.") in r.output
    assert "Player 1 wins the battle and takes control of the north." in r.output
    assert "the game goes on" in r.output


# --- every mode -----------------------------------------------------------------------

def test_simulate_teams_flag_is_mode_4t(tmp_path):
    """`--players 4 --teams` is the mode 4t (R22), alongside 2 and 6 which always are."""
    out = tmp_path / "t.json"
    r = run("simulate", "--games", 2, "--players", "4,6", "--teams", "--team-goal", 4, "--json", out)
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert [(x["mode"], x["teams"], x["metropolises_to_win"]) for x in data["runs"]] == [
        ("4t", [0, 1, 0, 1], 4), ("6", [0, 1, 2, 0, 1, 2], 4)]


@pytest.mark.parametrize("args,message", [
    (["simulate", "--ruleset", "classic", "--players", "4", "--teams"], "the classic game has no team play"),
    (["simulate", "--players", "3", "--teams"], "team play is for 4 players (3 given)"),
    (["simulate", "--players", "3,5", "--team-goal", "4"], "--team-goal is for team play"),
    (["simulate", "--ruleset", "classic", "--players", "2", "--team-goal", "4"], "--team-goal"),
    (["play", "--players", "3", "--team-goal", "4"], "--team-goal is for team play"),
    (["play", "--ruleset", "classic", "--players", "6"], "2 to 5 players (6 given)"),
    (["play", "--ruleset", "classic", "--players", "2", "--team-goal", "4"], "no team play"),
])
def test_every_tool_refuses_impossible_modes_naming_the_option(args, message):
    r = run(*args)
    assert r.exit_code == 2, r.output  # click's usage error: nothing was played
    assert message in r.output and "Simulated games" not in r.output and "Cycle" not in r.output


def test_play_a_classic_two_player_game_with_team_goal_in_team_play():
    """`play` in the classic 2-player game (two offerings each, R23) and with a team goal of 4 in
    team play: both to their end against bots."""
    r = run("play", "--ruleset", "classic", "--players", 2, "--seed", 3, "--max-cycles", 4, input=ENOUGH_ONES)
    assert r.exit_code == 0, r.output
    assert "2 players" in r.output and "The game is over" in r.output
    r = run("play", "--players", 4, "--teams", "--team-goal", 4, "--seed", 3, "--max-cycles", 3,
            "--bots", "greedy", input=ENOUGH_ONES)
    assert r.exit_code == 0, r.output
    assert "4 players in 2 teams, 4 Metropolises to win" in r.output and "The game is over" in r.output


# --- play as a newcomer meets it ---------------------------------------------------

def _human_decisions(out):
    """The decisions the human made: asked (each echoed answer), or taken as the only choice."""
    return len(re.findall(r"^Your choice.*\]: \d+$", out, re.M)) + out.count("Only one choice")


def test_play_reads_like_a_log_a_few_lines_per_decision():
    """A whole game through a pipe: the position is shown once, then what changed, a status line
    and the choices; on average the output stays under a dozen lines per decision of the
    human, bots' moves included (it was 50 with the position before every decision)."""
    code, out, err = run_process("play", "--seed", 11, input=ENOUGH_ONES)
    assert code == 0, err
    decisions = _human_decisions(out)
    assert decisions > 50
    lines = out.count("\n")
    assert lines / decisions < 12, (lines, decisions)
    assert out.count("The position · ") == 1
    # Without the log of what the others did, a decision takes a few lines: status, question,
    # choices and the prompt.
    own = [line for line in out.splitlines() if not re.match(r"  [A-Z]", line)]
    assert len(own) / decisions < 6, (len(own), decisions)
    assert "Only one choice, taken: " in out
    assert re.search(r"^Cycle \d+ · Offerings · Player 1 \(you\): \d+ GP · no God yet$", out, re.M)
    assert re.search(r"^Cycle \d+ · Actions · Player 1 \(you\): \d+ GP · your God: [A-Z][a-z]+ "
                     r"\(\d+ GP\)$", out, re.M)
    assert "You are making an Offering: choose a God and the GP to offer, or Apollo:" in out
    assert "  Now: " in out  # the areas the others' moves touched


def test_play_names_areas_by_their_names_never_their_ids():
    """Choices, log and position name areas as the board prints them ("the Gulf of Panope",
    "Naxos"), never by the ids of the engine ("gulf-of-panope", "naxos")."""
    code, out, err = run_process("play", "--seed", 11, input=ENOUGH_ONES)
    assert code == 0, err
    board = cyclades.new_game(players=3, seed=11).board
    words = set(re.findall(r"[a-z]+(?:-[a-z]+)*", out))
    assert not words & set(board.ids), words & set(board.ids)
    assert "Place a Control token on:" in out


def test_play_single_choices_are_taken_unless_confirm_all():
    """A decision with one legal action is taken and said; --confirm-all asks for it too."""
    r = run("play", "--seed", 11, "--max-cycles", 2, input=ENOUGH_ONES)
    assert r.exit_code == 0, r.output
    taken = r.output.count("Only one choice, taken: ")
    assert taken
    asked = len(re.findall(r"^Your choice \[1-1, ", r.output, re.M))
    assert asked == 0
    r = run("play", "--seed", 11, "--max-cycles", 2, "--confirm-all", input=ENOUGH_ONES)
    assert r.exit_code == 0, r.output
    assert "Only one choice" not in r.output
    assert len(re.findall(r"^Your choice \[1-1, ", r.output, re.M)) >= taken


def test_play_saves_the_record_of_a_finished_game_and_says_where(user_data_folder):
    r = run("play", "--seed", 5, "--max-cycles", 2, input=ENOUGH_ONES)
    assert r.exit_code == 0, r.output
    saved = re.search(r"The game record is saved in (\S+): `cyclades replay \1` shows it\.", r.output)
    assert saved and Path(saved.group(1)).parent == user_data_folder / "games"
    assert cyclades.Game.from_record(json.loads(Path(saved.group(1)).read_text())).is_over


def test_play_input_ending_early_saves_the_game_so_far(user_data_folder):
    r = run("play", "--seed", 2, input="1\n")
    assert r.exit_code == 1
    assert "Input ended before the game did" in r.output
    assert str(user_data_folder / "games") in r.output


def test_play_hint_key_names_the_experts_choice_by_its_number_and_why():
    """`h` asks the advice (agents/advice.py: the expert level's search) and names its choice
    by the number the list gives it, with the reason in the rulebook's words."""
    r = run("play", "--seed", 2, input="h\nq\n")
    assert r.exit_code == 0, r.output
    hinted = re.search(r"^Hint: (\d+)\. (Place a Control token on [A-Z][a-z]+) \((.+)\)$", r.output, re.M)
    assert hinted, r.output
    number, choice, reason = int(hinted.group(1)), hinted.group(2), hinted.group(3)
    listed = r.output.split("Place a Control token on:\n", 1)[1].split("Your choice", 1)[0]
    assert re.search(rf"(^|\s){number}\. {choice.removeprefix('Place a Control token on ')}\b", listed), listed
    assert reason[:1].isupper() and reason.endswith(".") and not re.search(r"\bR\d+\b", reason), reason


def test_play_hint_key_lets_a_failure_of_the_advice_through(monkeypatch):
    """An error in the advice is a bug: the prompt does not turn it into a message."""
    from cyclades.agents import advice

    def broken(game, player):
        raise RuntimeError("the search broke")
    monkeypatch.setattr(advice, "hint", broken)
    r = run("play", "--seed", 2, input="h\nq\n")
    assert isinstance(r.exception, RuntimeError) and "the search broke" in str(r.exception)


def test_play_choices_in_columns_under_their_head():
    """Many choices of one kind ("Place a Control token on" 15 areas) fit in a few lines."""
    r = run("play", "--seed", 11, input="q\n")
    assert r.exit_code == 0, r.output
    block = r.output.split("Place a Control token on:\n", 1)[1].split("Your choice", 1)[0]
    assert 2 <= len(block.splitlines()) <= 5
    assert re.search(r"^ +1\. [A-Z][a-z]+ +2\. [A-Z][a-z]+", block, re.M)


# --- wording ------------------------------------------------------------------------------------

def test_every_action_text_names_areas_by_their_names():
    """engine/wording.action_text: every legal action met in random games of every ruleset reads
    without an area id; waiting_text says what the game waits for in the rulebook's words."""
    from cyclades.engine.wording import action_text, waiting_text
    for ruleset, players, teams in (("legendary", 3, False), ("legendary", 4, True), ("classic", 3, False)):
        g = cyclades.new_game(players=players, seed=4, ruleset=ruleset, teams=teams, max_cycles=8)
        ids = set(g.board.ids)
        agent = RandomAgent(4)
        while not g.is_over:
            for a in g.legal_actions():
                text = action_text(a, g)
                assert text and not set(re.findall(r"[a-z]+(?:-[a-z]+)*", text)) & ids, (a, text)
            said = waiting_text(g)
            assert "deciding (" not in said, said  # every decision has its sentence
            g.apply(agent.act(g, g.to_move))


def test_replay_says_an_illegal_decision_in_the_rulebook_words(tmp_path):
    g = cyclades.new_game(players=3, seed=1)
    record = g.record()
    record["actions"] = [{"kind": "bid", "what": "zeus", "n": 3}]
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(record))
    r = run("replay", path)
    assert r.exit_code == 1
    first = cyclades.new_game(players=3, seed=1).to_move + 1
    assert (f"decision 1 cannot be replayed: 'Offer 3 GP to Zeus' is not legal now: Player "
            f"{first} is placing their starting units (first round): choose a free land area for a "
            f"Control token (for example: Place a Control token on ") in r.output
    assert "legal kinds" not in r.output and "(place)" not in r.output


# --- the map of the tool, and where runs write -------------------------------------------------

def test_help_is_the_map_of_the_tool():
    r = run("--help")
    assert r.exit_code == 0, r.output
    commands = [line.split()[0] for line in r.output.split("Commands", 1)[1].split("Examples", 1)[0]
                .splitlines()[1:] if line.strip()]
    assert commands[:4] == ["play", "serve", "simulate", "tournament"]
    assert set(commands) >= {"play", "serve", "simulate", "tournament", "replay", "board", "bench"}
    assert set(commands) == set(main.list_commands(None))
    for command in commands:
        if command in dict((c[0], c) for c in cli.COMMANDS):
            assert f"  cyclades {command}" in r.output  # its example
    for text in ("legendary", "classic", "2009", "--teams", "--team-goal", "4t", "three teams",
                 "two factions", "mcts"):
        assert text in r.output


def test_tournament_writes_under_the_user_data_folder(tmp_path, monkeypatch, user_data_folder):
    here = tmp_path / "here"
    here.mkdir()
    monkeypatch.chdir(here)
    r = run("tournament", "--agents", "random", "--games", 3, "--workers", 1, "--max-cycles", 3)
    assert r.exit_code == 0, r.output
    assert not list(here.iterdir())  # nothing in the current folder
    written = re.search(r"Results in (\S+): results\.json", r.output)
    assert written and Path(written.group(1)).parent == user_data_folder / "tournaments"
    assert (Path(written.group(1)) / "results.json").is_file()


@pytest.mark.parametrize("command", [
    ["tournament", "--agents", "random,random,random", "--workers", 1],
    ["selfplay", "--agents", "random", "--workers", 1, "--shard-games", 5],
])
def test_a_long_run_written_to_a_file_shows_its_progress_as_it_goes(tmp_path, command):
    """Left going with stderr to a file (nohup, CI), a run's progress bar cannot be redrawn in
    place: it is written as a line at each tenth of the run (progress.py), wide enough to keep
    its figures, where it used to show nothing until the end, and that cut short."""
    code, _, err = run_process(*command, "--games", 10, "--max-cycles", 3, "--out", tmp_path / "run")
    assert code == 0, err
    lines = [line for line in err.splitlines() if re.match(r"games \S+ +\d+/10 ", line)]
    assert [int(re.search(r"(\d+)/10", line).group(1)) for line in lines] == list(range(1, 11))
    assert all("…" not in line and "ms/game" in line for line in lines), lines
    assert "eta 0:00:00" in lines[-1]


def test_progress_lines_in_a_file_come_at_each_tenth_or_after_a_while():
    """Between tenths, a line only once `every` seconds have passed: a run of thousands of
    quick games writes ten lines and the bar's last, a run of slow ones one at least a minute."""
    import io

    from rich.console import Console

    from cyclades.progress import run_progress

    def lines_written(every, advances):
        out = io.StringIO()
        with run_progress(Console(file=out, width=160), "per_game") as progress:
            progress.every = every
            task = progress.add_task("games", total=1000, per_game="")
            for _ in range(advances):
                progress.update(task, advance=1, per_game="x")
        return [line for line in out.getvalue().splitlines() if line.strip()]

    assert len(lines_written(3600, 1000)) == 10  # the tenths, the last the bar's own at the end
    assert len(lines_written(3600, 250)) == 3  # 100/1000, 200/1000, then the end at 250
    assert [re.search(r"\d+/1000", line).group() for line in lines_written(0, 3)] == [
        "1/1000", "2/1000", "3/1000", "3/1000"]


def test_the_time_left_of_a_run_of_slow_games_is_said():
    """Games of ten minutes (a deep search's self-play), one every five with two workers, resumed
    at 64 of 600: from the second game on, the time left is the games left at that pace."""
    import io

    from rich.console import Console

    from cyclades.progress import run_progress

    clock = [0.0]
    out = io.StringIO()
    with run_progress(Console(file=out, width=160), "per_game", get_time=lambda: clock[0]) as progress:
        progress.every = 0
        task = progress.add_task("games", total=600, completed=64, per_game="")
        for _ in range(3):
            clock[0] += 300
            progress.update(task, advance=1, per_game="600.0 s/game")
    lines = [line for line in out.getvalue().splitlines() if "/600" in line]
    assert "eta -:--:--" in lines[0]  # one game: no pace yet
    assert "66/600" in lines[1] and "eta 44:30:00" in lines[1], lines  # 534 games left x 300 s
    assert "67/600" in lines[2] and "eta 44:25:00" in lines[2], lines


def test_simulate_with_mcts_says_how_long_up_front(monkeypatch):
    """Before playing, simulate says how long a search agent's games will take (from its budget,
    agents/estimate.py); the games themselves are played here by random agents, for speed."""
    play_out = cli.play_out
    monkeypatch.setattr(cli.simulate, "play_out",
                        lambda mode, seed, agents, *rest: play_out(mode, seed, ["random"], *rest))
    r = run("simulate", "--games", 2, "--agents", "mcts,greedy", "--max-cycles", 1)
    assert r.exit_code == 0, r.output
    assert re.search(r"mcts thinks about 0\.\d+ s a decision: a game takes about \d+ s; 2 games, about "
                     r"\d+ (s|min)\.", r.output)
    r = run("simulate", "--games", 1, "--max-cycles", 1)
    assert "a game takes about" not in r.output  # random games are quick: nothing to say


def test_play_undo_takes_back_a_decision_within_the_turn(user_data_folder):
    """u takes back the last decision while the undo rule allows it (engine/undo.py), else says
    why; the game saved keeps only what stood."""
    r = run("play", "--seed", 2, "--seat", 1, input="1\nu\nu\n2\nq\n")
    assert r.exit_code == 0, r.output
    assert r.output.count("Taken back: Place a Control token on Mykonos.") == 1
    assert "You have decided nothing yet this turn: Player 3 played before you." in r.output
    saved = re.search(r"The game so far is saved in (\S+):", r.output)
    game = cyclades.Game.from_record(json.loads(Path(saved.group(1)).read_text()))
    ctrl, index = game.state.ctrl, game.board.index
    assert ctrl[index["fournoi"]] == 0 and ctrl[index["mykonos"]] != 0


def test_the_command_works_without_the_rl_extra():
    """The game installs without numpy (the README's first command): `cyclades` still starts
    and plays, and `cyclades selfplay`, which needs the rl extra, says what to install."""
    blocked = ("import sys; sys.modules['numpy'] = None; from cyclades.cli import main; "
               "main(sys.argv[1:], prog_name='cyclades')")
    ok = subprocess.run([sys.executable, "-c", blocked, "--help"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and "selfplay" in ok.stdout, ok.stderr
    played = subprocess.run([sys.executable, "-c", blocked, "simulate", "--games", "1", "--players", "3"],
                            capture_output=True, text=True, timeout=300)
    assert played.returncode == 0, played.stderr
    refused = subprocess.run([sys.executable, "-c", blocked, "selfplay", "--games", "1"],
                             capture_output=True, text=True, timeout=120)
    assert refused.returncode == 1 and "pip install -e '.[rl]'" in refused.stderr, refused.stderr
