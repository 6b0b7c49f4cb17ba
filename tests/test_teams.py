"""Team play, 6 players and the 2-player game (rulebook, "Specific Rules"; R6, R11, R21, R22).

Factions 0 and 2 form one team and 1 and 3 the other (6 players: 0/3, 1/4, 2/5).
"""
import pytest

import cyclades
from conftest import act, kinds, scenario


def team_scenario(**data):
    data.setdefault("players", 4)
    data.setdefault("teams", True)
    return scenario(**data)


def test_team_layouts_and_board_sizes():
    """Specific Rules / R6: 4 players may play 2 teams on 8 tiles; 6 players must play 3 teams
    on 10 tiles with every god face up; 2 players each run two factions of one team on 8 tiles."""
    four = cyclades.new_game(players=4, teams=True, seed=1)
    assert four.teams == (0, 1, 0, 1) and four.s.n == 4
    assert len({t for t in four.board.tile if t}) == 8
    six = cyclades.new_game(players=6, seed=1)
    assert six.teams == (0, 1, 2, 0, 1, 2) and six.s.faceup == 5
    assert len({t for t in six.board.tile if t}) == 10
    two = cyclades.new_game(players=2, seed=1)
    assert two.s.n == 4 and two.teams == (0, 1, 0, 1) and two.s.faceup == 3
    assert len({t for t in two.board.tile if t}) == 8
    assert two.to_move in range(4)  # to_move names the faction, not the person
    assert cyclades.new_game(players=4, seed=1).teams is None
    with pytest.raises(ValueError):
        cyclades.new_game(players=5, teams=True)


def test_team_shares_one_purse_of_10_gp():
    """Specific Rules: "the GP are shared! The team starts with 10 GP"; R24: a teammate sees
    the purse, an opponent does not."""
    g = cyclades.new_game(players=4, teams=True, seed=3)
    assert [g.purse(p) for p in range(4)] == [10, 10, 10, 10]
    assert g.view(2)["players"][0]["gp"] == 10 and g.view(0)["players"][2]["gp"] == 10
    assert g.view(1)["players"][0]["gp"] is None and g.view(1)["players"][2]["gp"] is None


def test_teammates_may_not_start_on_the_same_island():
    """Specific Rules: "During the first round of set-up, teammates may not place themselves on
    the same Island"; the second round has no such limit."""
    g = team_scenario(turn_order=[0, 2, 1, 3], decision={"placement": {}})
    act(g, "claim", where="argos")  # faction 0 takes argos (island argos-corinth)
    act(g, "place_fleet", where="west")
    act(g, "claim", where="naxos")
    act(g, "place_fleet", where="north")
    assert g.to_move == 2
    offered = {a.where for a in g.legal_actions()}
    assert "corinth" not in offered  # the teammate's island
    assert offered == {"melos", "ios"}


def test_team_offerings_must_be_payable_together():
    """R11 / Specific Rules: "Both players must be careful not to bet more than they have
    combined": a teammate's offering already counts against the shared purse."""
    g = team_scenario(turn_order=[0, 2, 1, 3], player=[{"gp": 10}, {"gp": 10}, {"gp": 0}, {"gp": 0}],
                      areas={"argos": {"owner": 0}, "naxos": {"owner": 1}, "melos": {"owner": 2},
                             "ios": {"owner": 3}})
    act(g, "bid", "zeus", n=8)
    assert g.to_move == 2
    bids = [a.n for a in g.legal_actions() if a.kind == "bid"]
    assert max(bids) == 2  # 10 GP shared, 8 already offered by the teammate
    act(g, "bid", "ares", n=2)
    act(g, "apollo")
    act(g, "apollo")
    assert g.purse(0) == 0 and g.purse(2) == 0  # both paid from the one purse


def test_no_battle_and_no_stop_in_a_teammates_area():
    """Specific Rules: "you may move through the Land or Sea Areas belonging to your teammate
    ... but you may not stop there. It is therefore impossible to fight your teammate." A
    teammate's fleets carry a Land Move across the sea (moving through its sea area)."""
    areas = {"argos": {"owner": 0, "troops": 2}, "corinth": {"owner": 2, "troops": 1},
             "west": {"owner": 2, "fleets": 1}, "north": {"owner": 0, "fleets": 1},
             "naxos": {"owner": 1}, "ios": {"owner": 3}, "melos": {"owner": 1}}

    def destinations(areas):
        g = team_scenario(areas=areas, player=[{"gp": 5}, {"gp": 5}, {"gp": 0}, {"gp": 0}],
                          decision={"turn": {"player": 0, "god": "ares", "stage": "main"}})
        if "land_move" not in kinds(g):
            return set()
        act(g, "land_move", n=1)
        act(g, "origin", where="argos")
        act(g, "take", "troop", n=1)
        return {a.where for a in g.legal_actions() if a.kind == "destination"}

    dest = destinations(areas)
    assert "corinth" not in dest  # the teammate's area: no stop, no battle
    assert "naxos" in dest  # argos - west (teammate's fleet) - north (own fleet) - naxos
    areas["west"] = {"owner": 1, "fleets": 1}  # an opponent's fleet breaks the chain
    assert "naxos" not in destinations(areas)


def test_team_sea_move_never_enters_a_teammates_fleets():
    """Specific Rules: no battle between teammates: a teammate's fleets are no destination."""
    g = team_scenario(areas={"argos": {"owner": 0}, "west": {"owner": 0, "fleets": 2},
                             "north": {"owner": 2, "fleets": 1}, "south": {"owner": 1, "fleets": 1},
                             "naxos": {"owner": 2}, "melos": {"owner": 1}, "ios": {"owner": 3}},
                      player=[{"gp": 5}, {"gp": 5}, {"gp": 0}, {"gp": 0}],
                      decision={"turn": {"player": 0, "god": "poseidon", "stage": "main"}})
    act(g, "sea_move", n=1)
    act(g, "origin", where="west")
    act(g, "take", "fleet", n=1)
    dest = {a.where for a in g.legal_actions() if a.kind == "destination"}
    assert dest == {"south"}  # the enemy's fleet may be attacked, the teammate's not


def test_team_metropolis_from_the_teams_four_building_types():
    """Specific Rules: "As soon as a player builds a building that enables their team to own 4
    different basic Buildings, they must build a Metropolis with these 4 Buildings (regardless of
    which ones are under their control and which are under their partner's control)." """
    g = team_scenario(areas={"argos": {"owner": 0, "troops": 1, "buildings": ["port"]},
                             "naxos": {"owner": 2, "buildings": ["fortress", "temple"]},
                             "melos": {"owner": 1}, "ios": {"owner": 3}},
                      bonus_stack=["three-gp"],
                      decision={"turn": {"player": 0, "god": "athena"}})
    act(g, "build", "university", "argos")
    assert kinds(g) == {"metropolis"}
    act(g, "metropolis", where="argos")
    assert g.s.sites.count("metropolis") == 1
    assert not any(k in g.s.sites for k in ("port", "fortress", "temple", "university"))


def test_team_philosophers_are_not_combined():
    """Specific Rules: "You cannot build Metropolises (via cultural development) by combining
    all the Philosopher cards of one team." """
    g = team_scenario(areas={"argos": {"owner": 0}, "naxos": {"owner": 2}, "melos": {"owner": 1},
                             "ios": {"owner": 3}},
                      player=[{"gp": 10, "philosophers": 2}, {}, {"philosophers": 2}, {}],
                      decision={"turn": {"player": 0, "god": "athena"}})
    act(g, "build", "university", "argos")  # the free university, then the free philosopher
    assert g.s.philosophers[0] == 3 and "metropolis" not in g.s.sites


@pytest.mark.parametrize("goal,ends", [(3, True), (4, False)])
def test_team_wins_together_with_the_teams_metropolises(goal, ends):
    """R21 / Specific Rules: the game ends when a team controls the required number of
    Metropolises (3, or 4 for longer games) at the end of a Cycle; the team wins together."""
    g = team_scenario(team_goal=goal,
                      areas={"argos": {"owner": 0, "buildings": ["metropolis", "metropolis"]},
                             "naxos": {"owner": 2, "buildings": ["metropolis"]},
                             "melos": {"owner": 1, "buildings": ["metropolis"]}, "ios": {"owner": 3}},
                      decision={"turn": {"player": 0, "god": "zeus", "stage": "main"}})
    act(g, "end_turn")
    assert g.is_over is ends
    if ends:
        assert g.result()["winners"] == [0, 2]
