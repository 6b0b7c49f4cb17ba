"""The one game loop: agents/match.py, used by `cyclades simulate`, tournaments, `play`'s
bots and the server's bots: one decision step (chosen, checked legal, timed), one guard, one
outcome (winners, winning sides, how the game ended, per-team Metropolises and purse)."""
import time

import pytest
from positions import scenario

from cyclades.agents import Agent, make_agent
from cyclades.agents.match import IllegalDecision, Mode, ModeError, check_mode, decide, outcome, play_match
from cyclades.agents.tournament import play_game
from cyclades.cli import play_out
from cyclades.engine.actions import Action


class Cheat(Agent):
    """Answers every decision with an action the engine never offers."""

    name = "cheat"

    def choose(self, obs):
        return Action("bid", what="nobody", n=99)


class Slow(Agent):
    """The first legal action, after a pause: thinking time to be measured."""

    name = "slow"

    def choose(self, obs):
        time.sleep(0.002)
        return obs.legal_actions()[0]


ALL_MODES = [Mode(2), Mode(3), Mode(4), Mode(4, teams=True), Mode(5), Mode(6),
             Mode(4, teams=True, team_goal=4),
             Mode(2, ruleset="classic"), Mode(3, ruleset="classic"), Mode(4, ruleset="classic"),
             Mode(5, ruleset="classic")]


# --- modes -----------------------------------------------------------------------------------

def test_modes_say_who_plays_in_teams_and_what_wins():
    """R22: 2 and 6 Legendary players always play in teams (2 players: 4 factions), 4 on request;
    R21: the goal is 3 (a team: 3 or 4), classic 2 (R23: the classic 2-player game has no teams)."""
    assert Mode(2).teams and Mode(2).layout == [0, 1, 0, 1] and Mode(2).sides == 2
    assert Mode(6).layout == [0, 1, 2, 0, 1, 2] and Mode(6).sides == 3
    assert not Mode(4).teams and Mode(4).layout == [0, 1, 2, 3]
    assert Mode(4, teams=True).key == "4t" and Mode(4, teams=True, team_goal=4).goal == 4
    classic = Mode(2, ruleset="classic")
    assert not classic.teams and classic.layout == [0, 1] and classic.goal == 2
    assert classic.label() == "classic, 2 players (2 offerings each)"


@pytest.mark.parametrize("args, option, words", [
    (dict(players=4, teams=True, ruleset="classic"), "--teams", "no team play"),
    (dict(players=6, ruleset="classic"), "--players", "2 to 5 players (6 given)"),
    (dict(players=7), "--players", "7 players"),
    (dict(players=1), "--players", "the game is for 2 to 6"),
    (dict(players=4, teams=True, team_goal=5), "--team-goal", "3 or 4"),
    (dict(players=3, teams=True), "--teams", "team play is for 4 players (3 given)"),
    (dict(players=3, team_goal=4, team_goal_given=True), "--team-goal", "for team play"),
    (dict(players=3, ruleset="classic", team_goal=4, team_goal_given=True), "--team-goal", "no team play"),
    (dict(players=3, ruleset="checkers"), "--ruleset", "unknown ruleset"),
])
def test_impossible_modes_name_the_option(args, option, words):
    with pytest.raises(ModeError) as e:
        check_mode(**args)
    assert e.value.option == option and words in str(e.value)


# --- one decision --------------------------------------------------------------------------------

def test_decide_checks_the_choice_and_times_it():
    g = Mode(3).new_game(seed=1)
    p = g.to_move
    a, seconds = decide(make_agent("greedy", seed=0), g, p)
    assert a in g.legal_actions() and seconds >= 0
    before = g.to_json()
    with pytest.raises(IllegalDecision, match=r"cheat chose .* not a legal action"):
        decide(Cheat(), g, p)
    assert g.to_json() == before  # nothing applied
    with pytest.raises(ValueError):  # an agent decides only for the player to move
        decide(make_agent("random", seed=0), g, (p + 1) % 3)


# --- one game --------------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ALL_MODES, ids=lambda m: m.label())
def test_play_match_in_every_mode(mode):
    """A whole game between random agents in every mode: an ending the rules know (R21), a
    winning side of the game's sides, per-team Metropolises and purse, decisions per seat."""
    g = mode.new_game(seed=5, max_cycles=100)
    agents = [make_agent("random", seed=q) for q in range(g.state.n)]
    out = play_match(g, agents)
    assert "error" not in out and g.is_over
    assert out["ending"] in ("metropolises", "elimination", "cycle_limit")
    assert out["sides"] == mode.layout and out["winning_sides"]
    assert out["winners"] == [q for q in range(g.state.n) if mode.layout[q] in out["winning_sides"]]
    assert sum(out["decisions_by_seat"]) == out["decisions"] == len(g.history)
    assert len(out["side_metropolises"]) == mode.sides
    for t in range(mode.sides):
        team = [q for q in range(g.state.n) if mode.layout[q] == t]
        assert out["side_metropolises"][t] == sum(out["metropolises"][q] for q in team)
        assert out["side_gp"][t] == g.purse(team[0])
    if out["ending"] == "metropolises":
        best = max(out["side_metropolises"])
        assert best >= mode.goal
        assert all(out["side_metropolises"][t] == best or mode.rules.score_caps_at_goal
                   for t in out["winning_sides"])


def test_play_match_times_each_seat():
    g = Mode(3).new_game(seed=2, max_cycles=2)
    out = play_match(g, [Slow(), make_agent("random", seed=1), make_agent("random", seed=2)])
    assert out["ending"] == "cycle_limit"
    assert out["thinking_by_seat"][0] >= 0.002 * out["decisions_by_seat"][0]
    assert out["thinking_by_seat"][0] > out["thinking_by_seat"][1]
    assert out["longest_by_seat"][0] >= 0.002


def test_play_match_charges_a_root_parallel_search_its_workers_cpu():
    """A search run by two worker processes is charged their CPU, not only the little its own
    process spends waiting on them: levels' budgets are compared in CPU (a search over two cores
    takes half the clock time of the same work on one)."""
    g = Mode(3).new_game(seed=4, max_cycles=1)
    search = make_agent("mcts:iterations=200,workers=2", seed=1)
    out = play_match(g, [search, make_agent("random", seed=1), make_agent("random", seed=2)])
    assert out["ending"] == "cycle_limit" and out["decisions_by_seat"][0] > 0
    # The two workers search side by side: their CPU is up to twice the clock time; without it
    # the seat would be charged a few percent of the clock.
    assert out["cpu_by_seat"][0] > 0.5 * out["thinking_by_seat"][0]
    assert all(c >= 0 for c in out["cpu_by_seat"])


def test_play_match_records_an_illegal_choice_and_the_guard():
    """An agent's illegal choice stops the game with an error, nothing of it applied; the guard
    stops a game that goes on too long."""
    g = Mode(3).new_game(seed=2)
    out = play_match(g, [Cheat(), Cheat(), Cheat()])
    assert out["ending"] == "error" and "IllegalDecision" in out["error"] and out["decisions"] == 0
    assert not g.history
    g = Mode(3).new_game(seed=2)
    out = play_match(g, [make_agent("random", seed=q) for q in range(3)], max_decisions=10)
    assert out["error"] == "RuntimeError: no end after 10 decisions" and out["decisions"] == 10
    with pytest.raises(ValueError):
        play_match(Mode(3).new_game(seed=2), [Cheat()])


def test_outcome_of_a_team_game_counts_the_team():
    """R21/R22: a team's Metropolises count together; the whole team wins, once."""
    g = scenario(players=4, teams=True, player=[{"gp": 3}, {"gp": 9}, {"gp": 3}, {"gp": 9}],
                 areas={"argos": {"owner": 0, "troops": 1, "buildings": ["metropolis"]},
                        "naxos": {"owner": 2, "troops": 1, "buildings": ["metropolis"]},
                        "corinth": {"owner": 2, "troops": 1, "buildings": ["metropolis"]},
                        "melos": {"owner": 1, "troops": 1, "buildings": ["metropolis"]},
                        "ios": {"owner": 3, "troops": 1}},
                 decision={"game_over": {}})
    out = outcome(g)
    assert out["winners"] == [0, 2] and out["winning_sides"] == [0]
    assert out["side_metropolises"] == [3, 1] and out["side_gp"] == [3, 9]
    assert out["ending"] == "metropolises" and not out["shared"] and not out["gp_tiebreak"]


def test_every_tool_plays_the_same_game():
    """simulate (cli.play_out), tournaments (tournament.play_game) and play_match are one loop:
    the same seed, agents and seats give the same game."""
    names = ["greedy", "random", "random", "greedy"]
    row = play_out("4t", 11, names, 100)
    trow = play_game({"game": 0, "seed": 11, "lineup": names, "players": 4, "teams": True,
                      "max_cycles": 100})
    g = Mode(4, teams=True).new_game(seed=11, max_cycles=100)
    out = play_match(g, [make_agent(n, seed=11 * 16 + q) for q, n in enumerate(names)])
    for r in (row, trow):
        assert (r["winners"], r["cycles"], r["decisions"]) == \
            (out["winners"], out["cycles"], out["decisions"])
    assert row["winning_teams"] == trow["winning_sides"] == out["winning_sides"]
    assert row["team_metropolises"] == trow["side_metropolises"] == out["side_metropolises"]
