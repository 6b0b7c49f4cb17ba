"""Team play, 6 players and the 2-player game (rulebook, "Specific Rules"; R6, R11, R21, R22).

Factions 0 and 2 form one team and 1 and 3 the other (6 players: 0/3, 1/4, 2/5).
"""
import pytest
from positions import act, kinds, scenario

import cyclades


def team_scenario(**data):
    data.setdefault("players", 4)
    data.setdefault("teams", True)
    return scenario(**data)


def test_team_layouts_and_board_sizes():
    """Specific Rules / R6: 4 players may play 2 teams on 8 tiles; 6 players must play 3 teams
    on 10 tiles with every god face up; 2 players each run two factions of one team on 8 tiles."""
    four = cyclades.new_game(players=4, teams=True, seed=1)
    assert four.teams == (0, 1, 0, 1) and four.state.n == 4
    assert len({t for t in four.board.tile if t}) == 8
    six = cyclades.new_game(players=6, seed=1)
    assert six.teams == (0, 1, 2, 0, 1, 2) and six.state.faceup == 5
    assert len({t for t in six.board.tile if t}) == 10
    two = cyclades.new_game(players=2, seed=1)
    assert two.state.n == 4 and two.teams == (0, 1, 0, 1) and two.state.faceup == 3
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


# Seven islands of two land areas (g of one), each land area with its own sea round a hub: room
# for the 12 land areas and fleets of four factions' placement.
ISLANDS_MAP = {"map": [
    {"id": f"{i}{k}", "kind": "land", "sites": 1, "adj": [f"s{i}{k}", f"{i}{3 - k}"] if i != "g" else [f"s{i}{k}"]}
    for i in "abcdefg" for k in ((1, 2) if i != "g" else (1,))
] + [{"id": "hub", "kind": "sea", "adj": [f"s{i}{k}" for i in "abcdefg" for k in ((1, 2) if i != "g" else (1,))]}]
  + [{"id": f"s{i}{k}", "kind": "sea", "adj": ["hub"]} for i in "abcdefg" for k in ((1, 2) if i != "g" else (1,))]}


def test_teammates_may_not_start_on_the_same_island():
    """Specific Rules: "During the first round of set-up, teammates may not place themselves on
    the same Island"; the second round has no such limit."""
    g = team_scenario(board=ISLANDS_MAP, turn_order=[0, 2, 1, 3], decision={"placement": {}})
    act(g, "claim", where="a1")  # faction 0 takes a1 (island a) and b1 (island b)
    act(g, "place_fleet", where="sa1")
    act(g, "claim", where="b1")
    act(g, "place_fleet", where="sb1")
    assert g.to_move == 2
    offered = {a.where for a in g.legal_actions()}
    assert not offered & {"a2", "b2"}  # the teammate's islands
    assert offered == {"c1", "c2", "d1", "d2", "e1", "e2", "f1", "f2", "g1"}
    for land in ("c1", "d1", "e1", "f1", "g1", "a2"):  # factions 2, 1 (e, f) and 3 end the round
        act(g, "claim", where=land)
        act(g, "place_fleet", where=f"s{land}")
    assert g.to_move == 3  # the second round, in reverse order: its teammate's islands are open
    assert {"e2", "f2"} <= {a.where for a in g.legal_actions()}


TEAM_AREAS = {"argos": {"owner": 0}, "naxos": {"owner": 1}, "melos": {"owner": 2}, "ios": {"owner": 3}}


def bids_on(g, god):
    return [a.n for a in g.legal_actions() if a.kind == "bid" and a.what == god]


def test_team_offerings_must_be_payable_together():
    """R11 / Specific Rules: "Both players must be careful not to bet more than they have
    combined": a teammate's offering that still stands counts against the shared purse."""
    g = team_scenario(turn_order=[0, 2, 1, 3], player=[{"gp": 10}, {"gp": 10}, {"gp": 10}, {"gp": 10}],
                      areas=TEAM_AREAS)
    act(g, "bid", "zeus", n=8)
    assert g.to_move == 2
    assert max(bids_on(g, "ares")) == 2  # 10 GP shared, 8 already offered by the teammate
    act(g, "bid", "ares", n=2)
    act(g, "apollo")
    act(g, "apollo")
    assert g.purse(0) == 0 and g.purse(2) == 0  # both paid from the one purse


@pytest.mark.parametrize("players, teams", [(4, True), (2, False)])
def test_r29_outbidding_a_teammate_takes_its_offering_back(players, teams):
    """R29 (rulebook, Offerings: "a player may outbid their teammate"; the displaced offering
    is taken back at once): with 10 GP shared and the teammate's 3 on Zeus, Zeus is offered
    at 4 to 10, every amount payable once the teammate's 3 no longer counts. The same between
    the two factions of one person in the 2-player game (R22)."""
    g = team_scenario(players=players, teams=teams, turn_order=[0, 2, 1, 3],
                      player=[{"gp": 10}, {"gp": 10}, {"gp": 10}, {"gp": 10}], areas=TEAM_AREAS)
    act(g, "bid", "zeus", n=3)
    assert g.to_move == 2
    assert bids_on(g, "zeus") == list(range(4, 11))
    assert max(bids_on(g, "ares")) == 7  # the teammate's 3 on Zeus still stands there
    act(g, "bid", "zeus", n=10)
    assert g.to_move == 0 and g.state.bids["zeus"] == (2, 10)
    # the outbid teammate bids again at once (R10), with what the purse has left: nothing
    assert {a.kind for a in g.legal_actions()} == {"apollo"}
    act(g, "apollo")
    act(g, "apollo")
    act(g, "apollo")
    assert g.purse(0) == 0  # the 10 on Zeus paid; the 3 was never paid


def test_no_battle_and_no_stop_in_a_teammates_area():
    """Specific Rules: "you may move through the Land or Sea Areas belonging to your teammate
    ... but you may not stop there. It is therefore impossible to fight your teammate." A
    teammate's fleets carry a Land Move across the sea (moving through its sea area)."""
    areas = {"argos": {"owner": 0, "troops": 2}, "corinth": {"owner": 2, "troops": 1},
             "west": {"owner": 2, "fleets": 1}, "north": {"owner": 0, "fleets": 1},
             "naxos": {"owner": 1}, "ios": {"owner": 3}, "melos": {"owner": 1}}

    def destinations(areas):
        g = team_scenario(areas=areas, player=[{"gp": 5}, {"gp": 5}, {}, {}],
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
                      player=[{"gp": 5}, {"gp": 5}, {}, {}],
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
    assert g.state.sites.count("metropolis") == 1
    assert not any(k in g.state.sites for k in ("port", "fortress", "temple", "university"))


def test_team_philosophers_are_not_combined():
    """Specific Rules: "You cannot build Metropolises (via cultural development) by combining
    all the Philosopher cards of one team." """
    g = team_scenario(areas={"argos": {"owner": 0}, "naxos": {"owner": 2}, "melos": {"owner": 1},
                             "ios": {"owner": 3}},
                      player=[{"gp": 10, "philosophers": 2}, {}, {"philosophers": 2}, {}],
                      decision={"turn": {"player": 0, "god": "athena"}})
    act(g, "build", "university", "argos")  # the free university, then the free philosopher
    assert g.state.philosophers[0] == 3 and "metropolis" not in g.state.sites


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


def test_an_eliminated_teammate_shares_the_teams_win():
    """Specific Rules, team play: the team wins together (R21, R22), a member eliminated
    during the game (R27) included; the other team, its members all in play, loses."""
    g = team_scenario(areas={"argos": {"owner": 0, "buildings": ["metropolis", "metropolis"]},
                             "naxos": {"owner": 0, "buildings": ["metropolis"]},
                             "melos": {"owner": 1}, "ios": {"owner": 3}},
                      player=[{"gp": 10}, {"gp": 10}, {"eliminated": True}, {}],
                      decision={"turn": {"player": 0, "god": "zeus", "stage": "main"}})
    act(g, "end_turn")
    result = g.result()
    assert g.is_over and result["eliminated"] == [False, False, True, False]
    assert result["winners"] == [0, 2]


# --- R30: a player's last land area, counted for the team -------------------------------------

def _map_with_two_more_islands():
    """The small test map with two more one-area islands, so that four factions hold land."""
    import copy

    from positions import SMALL_MAP
    board = copy.deepcopy(SMALL_MAP)
    for area in board["map"]:
        if area["id"] == "east":
            area["adj"].append("paros")
        if area["id"] == "north":
            area["adj"].append("delos")
    board["map"] += [{"id": "paros", "kind": "land", "sites": 2, "adj": ["east"]},
                     {"id": "delos", "kind": "land", "sites": 2, "adj": ["north"]}]
    return board


def last_area_game(team_goal, areas, god="ares", **kw):
    """Faction 0's turn of `god` in a 4-player team game; faction 1 holds only ios."""
    return team_scenario(board=_map_with_two_more_islands(), team_goal=team_goal, areas=areas,
                         player=[{"gp": 10}] * 4,
                         decision={"turn": {"player": 0, "god": god, "stage": "main"}}, **kw)


def ios_offered(g):
    """Is ios offered as a Land Move's destination from melos (its only neighbour)?"""
    if "land_move" not in kinds(g):
        return False  # no destination at all: the engine offers no Land Move
    act(g, "land_move", n=1)
    act(g, "origin", where="melos")
    act(g, "take", "troop", n=2)
    return "ios" in {a.where for a in g.legal_actions() if a.kind == "destination"}


def test_r30_last_area_attack_allowed_when_the_team_would_reach_its_goal():
    """R30 / R19 (Land Move, "Warning": the last land area may be attacked only when winning it
    gives the metropolises that end the game): with teams the teammate's metropolises count.
    Team goal 3: faction 0 holds 1, its teammate 1, faction 1's last area 1: the team would
    have 3, so the attack is allowed."""
    areas = {"melos": {"owner": 0, "troops": 3}, "argos": {"owner": 0, "buildings": ["metropolis"]},
             "corinth": {"owner": 2, "buildings": ["metropolis"]},
             "ios": {"owner": 1, "troops": 1, "buildings": ["metropolis"]},
             "naxos": {"owner": 3}, "delos": {"owner": 3}}
    g = last_area_game(3, areas)
    assert ios_offered(g)


def test_r30_last_area_attack_refused_when_the_team_would_fall_short_of_its_goal():
    """R30: team goal 4: faction 0 holds 2, its teammate none, faction 1's last area 1: the
    team would have only 3, so the attack is refused."""
    areas = {"melos": {"owner": 0, "troops": 3}, "argos": {"owner": 0, "buildings": ["metropolis"]},
             "corinth": {"owner": 0, "buildings": ["metropolis"]}, "paros": {"owner": 2},
             "ios": {"owner": 1, "troops": 1, "buildings": ["metropolis"]},
             "naxos": {"owner": 3}, "delos": {"owner": 3}}
    g = last_area_game(4, areas)
    assert not ios_offered(g)
    # the same position with team goal 3 allows it (the team would reach 3)
    assert ios_offered(last_area_game(3, areas))


def test_r30_pegasus_follows_the_team_rule():
    """R30: "also with Pegasus and any other way in": Pegasus may fly to the last area only when
    the team would reach its goal."""
    areas = {"melos": {"owner": 0, "troops": 3}, "argos": {"owner": 0, "buildings": ["metropolis"]},
             "corinth": {"owner": 2, "buildings": ["metropolis"]},
             "ios": {"owner": 1, "troops": 1, "buildings": ["metropolis"]},
             "naxos": {"owner": 3}, "delos": {"owner": 3}}
    for goal, offered in ((3, True), (4, False)):
        g = last_area_game(goal, areas, creature_track=["pegasus", None, None, None])
        buy = next(a for a in g.legal_actions() if a.kind == "buy_creature" and a.what == "pegasus")
        g.apply(buy)
        act(g, "origin", where="melos")
        act(g, "take", "troop", n=2)
        assert ("ios" in {a.where for a in g.legal_actions() if a.kind == "destination"}) == offered


def test_view_says_who_plays_with_whom_and_the_goal():
    """R22: teams are public; R21: the team goal (3 or 4) ends the game. The view carries both,
    and each player's team."""
    g = cyclades.new_game(players=4, teams=True, team_goal=4, seed=2)
    v = g.view(1)
    assert v["teams"] == [0, 1, 0, 1] and v["goal"] == 4
    assert [p["team"] for p in v["players"]] == [0, 1, 0, 1]
    solo = cyclades.new_game(players=3, seed=2).view(0)
    assert solo["teams"] is None and solo["goal"] == 3 and solo["players"][0]["team"] is None
    assert cyclades.new_game(players=3, ruleset="classic", seed=2).view(0)["goal"] == 2


def test_result_gives_each_player_their_teams_purse():
    """R22: one purse per team, kept by its first member: the result gives every member the
    team's GP (not 0 for the one who does not keep it)."""
    g = team_scenario(player=[{"gp": 7}, {"gp": 4}, {"gp": 7}, {"gp": 4}], areas=TEAM_AREAS)
    assert g.result()["gp"] == [7, 4, 7, 4]
