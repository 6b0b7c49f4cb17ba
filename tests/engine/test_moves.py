"""Sea Move, Land Move and Heroic Move (rulebook: Sea Move, Land Move, Heroes, Heroic Move;
rulings R14, R16, R17, R19, R26).

Positions are on the small test map (tests/scenarios/small_map.yaml):

            north (sea)
   corinth ---------- naxos
     |   \\              |
   argos   west (sea)  east (sea)
     |      |           |
            south (sea)
        melos -- ios

argos-corinth and melos-ios are islands of two areas; naxos is an island of its own;
corinth carries the Priestess icon.
"""
import pytest
from positions import act, ctrl, idx, kinds, scenario, take_and_go, where

import cyclades

NOBODY = -1


def turn(god, areas, gp=(5, 5, 5), **kw):
    """Player 0's turn of `god`, past the free actions (the optional actions' menu)."""
    kw.setdefault("player", [{"gp": x} for x in gp])
    return scenario(areas=areas, decision={"turn": {"player": 0, "god": god, "stage": "main"}}, **kw)


def fleets(g, area):
    return g.state.fleets[idx(g, area)]


def troops(g, area):
    return g.state.troops[idx(g, area)]


def mercs(g, area):
    return g.state.mercs[idx(g, area)]


def snapshot(g):
    """The whole state but its version counter (which counts every applied decision)."""
    d = g.state.to_dict()
    d.pop("version")
    return d


def land_move(g, frm, to, t=None, m=None, heroes=()):
    """A complete Ares Land Move: origin, troops, mercenaries, heroes, destination."""
    act(g, "land_move", n=1)
    act(g, "origin", where=frm)
    take_and_go(g, to, t, m, heroes)


def heroic_move(g, hero, cost, to, t=None, m=None):
    act(g, "heroic_move", hero, n=cost)
    take_and_go(g, to, t, m, ())


# --- Sea Move (Poseidon) -------------------------------------------------------------

def test_sea_move_costs_1_gp_and_moves_some_fleets():
    """Rulebook, Sea Move / R17: for 1 GP, one or more fleets of one sea area move to an
    adjacent sea area; not all fleets have to move."""
    g = turn("poseidon", {"argos": {"owner": 0, "troops": 1}, "west": {"owner": 0, "fleets": 3}})
    assert cyclades.Action("sea_move", n=1) in g.legal_actions()
    act(g, "sea_move", n=1)
    act(g, "origin", where="west")
    assert {a.n for a in g.legal_actions() if a.kind == "take"} == {1, 2, 3}
    act(g, "take", "fleet", n=2)
    act(g, "destination", where="north")
    assert (fleets(g, "west"), fleets(g, "north")) == (1, 2)
    assert (ctrl(g, "west"), ctrl(g, "north")) == (0, 0)
    assert g.state.gp[0] == 4
    assert g.state.fleets_left[0] == 5  # moved, not recruited


def test_sea_move_only_to_an_adjacent_sea_area():
    """Rulebook, Sea Move: the destination is a sea area adjacent to the starting one."""
    g = turn("poseidon", {"argos": {"owner": 0, "troops": 1}, "west": {"owner": 0, "fleets": 1}})
    act(g, "sea_move", n=1)
    act(g, "origin", where="west")
    act(g, "take", "fleet", n=1)
    assert where(g, "destination") == {"north", "south"}  # not east, not a land area


def test_sea_move_vacated_sea_area_is_controlled_by_no_one():
    """Rulebook, Sea Move / R16: an empty sea area is controlled by no one, even when it is
    empty following a move."""
    g = turn("poseidon", {"argos": {"owner": 0, "troops": 1}, "west": {"owner": 0, "fleets": 2}})
    act(g, "sea_move", n=1)
    act(g, "origin", where="west")
    act(g, "take", "fleet", n=2)
    act(g, "destination", where="south")
    assert fleets(g, "west") == 0 and ctrl(g, "west") == NOBODY
    assert fleets(g, "south") == 2 and ctrl(g, "south") == 0


def test_sea_move_needs_poseidon_and_1_gp():
    """Rulebook, Poseidon: the Sea Move is Poseidon's paid action (1 GP)."""
    areas = {"argos": {"owner": 0, "troops": 1}, "west": {"owner": 0, "fleets": 2}}
    assert "sea_move" not in kinds(turn("ares", areas))
    assert "sea_move" not in kinds(turn("poseidon", areas, gp=(0, 5, 5)))
    assert "sea_move" in kinds(turn("poseidon", areas, gp=(1, 5, 5)))


def test_sea_move_may_be_repeated_for_1_gp_each():
    """Rulebook, Poseidon: the move may be performed more than once, 1 GP each."""
    g = turn("poseidon", {"argos": {"owner": 0, "troops": 1}, "west": {"owner": 0, "fleets": 1}})
    for frm, to in (("west", "north"), ("north", "east"), ("east", "south")):
        act(g, "sea_move", n=1)
        act(g, "origin", where=frm)
        act(g, "take", "fleet", n=1)
        act(g, "destination", where=to)
    assert fleets(g, "south") == 1 and g.state.gp[0] == 2


def test_rulebook_example_move():
    """Rulebook, "Example - Move": Black (player 0) pays 1 GP to move 2 fleets to join his 2
    other fleets (the vacated area is no longer controlled by anyone), then 1 GP more to move
    3 of them to Yellow's (player 1) sea area, which immediately triggers a Sea Battle."""
    g = turn("poseidon", {
        "argos": {"owner": 0, "troops": 1}, "naxos": {"owner": 1, "troops": 1},
        "west": {"owner": 0, "fleets": 2}, "north": {"owner": 0, "fleets": 2},
        "east": {"owner": 1, "fleets": 1},
    }, dice=[2, 0])
    act(g, "sea_move", n=1)
    act(g, "origin", where="west")
    act(g, "take", "fleet", n=2)
    act(g, "destination", where="north")
    assert (fleets(g, "west"), ctrl(g, "west"), fleets(g, "north")) == (0, NOBODY, 4)
    assert g.state.gp[0] == 4
    act(g, "sea_move", n=1)
    act(g, "origin", where="north")
    act(g, "take", "fleet", n=3)
    events = act(g, "destination", where="east")
    battle = [e for e in events if e["type"] == "battle"]
    assert battle == [{"type": "battle", "attacker": 0, "defender": 1, "area": "east", "sea": True}]
    assert g.state.gp[0] == 3
    # 2 + 3 fleets = 5 against 0 + 1 fleet = 1: Yellow loses its only fleet.
    assert (fleets(g, "north"), fleets(g, "east"), ctrl(g, "east")) == (1, 3, 0)
    assert g.state.fleets_left[1] == 8


@pytest.mark.parametrize("steps", [0, 1, 2])
def test_sea_move_cancel_before_last_step_changes_nothing(steps):
    """R26: a move is a sequence (origin, fleets, destination) that can be cancelled before its
    last step; nothing happens and nothing is paid."""
    g = turn("poseidon", {"argos": {"owner": 0, "troops": 1}, "west": {"owner": 0, "fleets": 2},
                          "north": {"owner": 1, "fleets": 1}, "naxos": {"owner": 1, "troops": 1}})
    before = snapshot(g)
    legal_before = g.legal_actions()
    act(g, "sea_move", n=1)
    if steps >= 1:
        act(g, "origin", where="west")
    if steps >= 2:
        act(g, "take", "fleet", n=2)
        assert "north" in where(g, "destination")  # the last step would start a battle
    assert "cancel" in kinds(g)
    act(g, "cancel")
    assert snapshot(g) == before
    assert g.legal_actions() == legal_before


# --- Land Move (Ares) -----------------------------------------------------------------

def test_land_move_to_adjacent_area_on_same_island():
    """Rulebook, Land Move / R17: for 1 GP, troops move to an adjacent land area of the same
    island; an empty area becomes the mover's."""
    g = turn("ares", {"melos": {"owner": 0, "troops": 3}})
    land_move(g, "melos", "ios", t=2)
    assert (troops(g, "melos"), troops(g, "ios")) == (1, 2)
    assert ctrl(g, "ios") == 0 and g.state.gp[0] == 4


def test_land_move_destinations_are_the_accessible_land_areas():
    """Rulebook, Land Move: without fleets, only the adjacent areas of the same island are
    accessible (naxos, another island, is not; nor is any sea area)."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 1}})
    act(g, "land_move", n=1)
    act(g, "origin", where="argos")
    act(g, "take", "troop", n=1)
    assert where(g, "destination") == {"corinth"}


def test_land_move_any_subset_of_troops_mercenaries_and_heroes():
    """R17: a Land Move moves any subset of the troops, mercenaries and heroes of one area."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 3, "mercs": 2, "heroes": ["jason", "helen"]}})
    land_move(g, "argos", "corinth", t=1, m=2, heroes=["helen"])
    assert (troops(g, "argos"), mercs(g, "argos"), troops(g, "corinth"), mercs(g, "corinth")) == (2, 0, 1, 2)
    assert g.state.hero_at == {"jason": idx(g, "argos"), "helen": idx(g, "corinth")}
    assert g.state.gp[0] == 4


def test_land_move_takes_at_least_one_unit():
    """Rulebook, Land Move: "one or more" units; a move of nothing is not offered."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2}})
    act(g, "land_move", n=1)
    act(g, "origin", where="argos")
    assert {a.n for a in g.legal_actions() if a.kind == "take"} == {1, 2}


def test_land_move_mercenaries_only_or_hero_only():
    """Rulebook, Land Move: "Troops and/or Mercenaries and/or Heroes": a hero may move alone
    with Ares (no Heroic Move with Ares: heroes move like the other troops)."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 1, "heroes": ["jason"]}})
    land_move(g, "argos", "corinth", t=0, heroes=["jason"])
    assert g.state.hero_at["jason"] == idx(g, "corinth") and troops(g, "argos") == 1
    assert "heroic_move" not in kinds(g)


def test_land_move_of_every_unit_leaves_the_control_token():
    """Rulebook, Land Move / R16: moving every unit out leaves a control token; the area stays
    the player's as long as no opponent takes it."""
    g = turn("ares", {"melos": {"owner": 0, "troops": 2, "mercs": 1}})
    land_move(g, "melos", "ios", t=2, m=1)
    assert (troops(g, "melos"), mercs(g, "melos"), ctrl(g, "melos")) == (0, 0, 0)
    shown = g.view(1)["areas"][idx(g, "melos")]
    assert (shown["owner"], shown["troops"], shown["mercs"]) == (0, 0, 0)
    assert (troops(g, "ios"), mercs(g, "ios"), ctrl(g, "ios")) == (2, 1, 0)


@pytest.mark.parametrize("fleet_areas, reachable", [
    ({"west": 0, "north": 0}, True),    # argos -west- -north- naxos: a chain of own fleets
    ({"west": 0}, False),               # the chain is broken
    ({"north": 0}, False),              # no fleet next to the starting area
    ({"west": 0, "north": 1}, False),   # an enemy fleet in the chain does not link
])
def test_land_move_across_the_sea_needs_a_chain_of_own_fleets(fleet_areas, reachable):
    """Rulebook, Land Move / R17: another island is accessible when it is connected to the
    starting area by a chain of sea areas, each holding the mover's fleets."""
    areas = {"argos": {"owner": 0, "troops": 2}, "ios": {"owner": 1, "troops": 1},
             "melos": {"owner": 1, "troops": 1}}
    areas.update({sea: {"owner": p, "fleets": 1} for sea, p in fleet_areas.items()})
    g = turn("ares", areas)
    act(g, "land_move", n=1)
    act(g, "origin", where="argos")
    act(g, "take", "troop", n=1)
    assert ("naxos" in where(g, "destination")) == reachable


def test_land_move_across_the_sea_arrives_and_takes_control():
    """R17: a Land Move along a chain of fleets is still one move for 1 GP; the fleets stay."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2}, "south": {"owner": 0, "fleets": 1},
                      "naxos": {"owner": 2, "troops": 1}})
    land_move(g, "argos", "ios", t=2)
    assert (troops(g, "ios"), ctrl(g, "ios"), ctrl(g, "argos"), fleets(g, "south")) == (2, 0, 0, 1)
    assert g.state.gp[0] == 4


def test_land_move_into_area_with_only_enemy_control_token_takes_it():
    """Rulebook, Land Move: an area with only an enemy control token: the token returns to its
    owner and the mover takes control (no battle)."""
    g = turn("ares", {"melos": {"owner": 0, "troops": 1}, "ios": {"owner": 1},
                      "naxos": {"owner": 1, "troops": 1}})
    assert troops(g, "ios") == 0 and ctrl(g, "ios") == 1
    events = act(g, "land_move", n=1) + act(g, "origin", where="melos") + act(g, "take", "troop", n=1) \
        + act(g, "destination", where="ios")
    types = [e["type"] for e in events]
    assert "battle" not in types
    assert {"type": "token_returned", "player": 1, "area": "ios"} in events
    assert (ctrl(g, "ios"), troops(g, "ios")) == (0, 1)
    assert ctrl(g, "melos") == 0  # the emptied origin keeps player 0's token


def test_land_move_into_enemy_troops_starts_a_land_battle():
    """Rulebook, Land Move: enemy troops (or heroes) in the destination: a Land Battle
    immediately occurs."""
    g = turn("ares", {"melos": {"owner": 0, "troops": 2}, "ios": {"owner": 1, "heroes": ["jason"]},
                      "naxos": {"owner": 1, "troops": 1}}, dice=[3, 0])
    events = act(g, "land_move", n=1) + act(g, "origin", where="melos") + act(g, "take", "troop", n=2) \
        + act(g, "destination", where="ios")
    assert {"type": "battle", "attacker": 0, "defender": 1, "area": "ios", "sea": False} in events
    # 3 + 2 troops against 0 + Jason: Jason falls, player 0 holds ios.
    assert (ctrl(g, "ios"), troops(g, "ios")) == (0, 2) and "jason" not in g.state.hero_at


def test_taking_control_of_a_priestess_area_draws_a_priestess():
    """Rulebook, Land Move: taking control of an area with the Priestess icon draws a Priestess."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2}})
    land_move(g, "argos", "corinth", t=1)
    assert g.state.priestesses[0] == 1


def test_moving_into_an_own_priestess_area_draws_nothing():
    """Rulebook, Land Move: the Priestess is drawn on *taking* control, not on every entry."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2}, "corinth": {"owner": 0}})
    land_move(g, "argos", "corinth", t=1)
    assert g.state.priestesses[0] == 0


def test_land_move_needs_ares_and_1_gp():
    """Rulebook, Ares: the Land Move is Ares' paid action (1 GP)."""
    areas = {"argos": {"owner": 0, "troops": 2}}
    assert "land_move" not in kinds(turn("poseidon", areas))
    assert "land_move" not in kinds(turn("ares", areas, gp=(0, 5, 5)))
    assert "land_move" in kinds(turn("ares", areas, gp=(1, 5, 5)))


@pytest.mark.parametrize("steps", ["origin", "troops", "mercs", "heroes", "dest"])
def test_land_move_cancel_before_last_step_changes_nothing(steps):
    """R26: origin, units and destination are separate decisions; cancelling before the
    destination changes nothing and costs nothing."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2, "mercs": 1, "heroes": ["jason"]},
                      "corinth": {"owner": 1, "troops": 1}, "naxos": {"owner": 1}})
    before = snapshot(g)
    act(g, "land_move", n=1)
    order = ["origin", "troops", "mercs", "heroes", "dest"]
    for stage in order[:order.index(steps)]:
        if stage == "origin":
            act(g, "origin", where="argos")
        elif stage == "troops":
            act(g, "take", "troop", n=2)
        elif stage == "mercs":
            act(g, "take", "merc", n=1)
        else:
            act(g, "take_hero", "jason")
            if "done" in kinds(g):
                act(g, "done")
    assert g.state.stack[-1]["stage"] == steps
    act(g, "cancel")
    assert snapshot(g) == before


# --- R19: a player's last land area ---------------------------------------------------

def test_last_land_area_may_not_be_attacked():
    """R19 (rulebook, Land Move "Warning"): attacking a player's last land area is forbidden."""
    g = turn("ares", {"melos": {"owner": 0, "troops": 3}, "ios": {"owner": 1, "troops": 1},
                      "east": {"owner": 1, "fleets": 1}})
    assert "land_move" not in kinds(g)  # melos has no other destination
    g = turn("ares", {"melos": {"owner": 0, "troops": 3}, "ios": {"owner": 1, "troops": 1},
                      "naxos": {"owner": 1, "troops": 1}})
    act(g, "land_move", n=1)
    act(g, "origin", where="melos")
    act(g, "take", "troop", n=1)
    assert where(g, "destination") == {"ios"}  # not their last area: it may be attacked


def test_last_land_area_holding_only_a_control_token_may_not_be_taken():
    """R19/R27: taking a player's last area (even one held by a control token alone) would
    eliminate them; it counts as attacking it, so it is not offered either."""
    g = turn("ares", {"melos": {"owner": 0, "troops": 3}, "ios": {"owner": 1}})
    assert "land_move" not in kinds(g)


def test_last_land_area_attack_allowed_when_winning_gives_three_metropolises():
    """R19: the attack on a last land area is legal when winning it gives the attacker the 3
    metropolises needed; the game then ends at the end of that cycle (R21)."""
    areas = {"argos": {"owner": 0, "troops": 1, "buildings": ["metropolis"]},
             "corinth": {"owner": 0, "troops": 1, "buildings": ["metropolis"]},
             "melos": {"owner": 0, "troops": 3},
             "ios": {"owner": 1, "troops": 1, "buildings": ["metropolis"]}}
    g = turn("ares", areas, dice=[3, 0])
    act(g, "land_move", n=1)
    act(g, "origin", where="melos")
    act(g, "take", "troop", n=2)
    assert "ios" in where(g, "destination")
    act(g, "destination", where="ios")
    assert ctrl(g, "ios") == 0 and g.state.eliminated[1]
    assert not g.is_over  # the cycle goes on until its end
    act(g, "end_turn")
    assert g.is_over and g.result()["winners"] == [0]


def test_won_attack_on_last_land_area_ends_the_cycle_even_if_the_metropolis_is_lost_again():
    """R19: the game ends at the end of the cycle even if the attacker loses again one of the
    metropolises that triggered the end; here the defender retreats (and is not eliminated),
    then takes its metropolis back on its own turn of the same cycle."""
    areas = {"argos": {"owner": 0, "buildings": ["metropolis"]},
             "corinth": {"owner": 0, "buildings": ["metropolis"]},
             "melos": {"owner": 0, "troops": 3},
             "ios": {"owner": 1, "troops": 1, "heroes": ["jason"], "buildings": ["metropolis"]},
             "east": {"owner": 1, "fleets": 1}}
    g = scenario(areas=areas, dice=[3, 0, 3, 0], decision={"turn": {
        "player": 0, "god": "ares", "stage": "main", "action_order": [[0, "ares"], [1, "zeus"]]}})
    land_move(g, "melos", "ios", t=1)
    act(g, "lose", "troop")           # 1 + 3 = 4 against 1 + Jason + metropolis + 0 = 3
    act(g, "retreat", where="naxos")  # Jason escapes by the fleet in east
    assert ctrl(g, "ios") == 0 and not g.state.eliminated[1]
    act(g, "end_turn")
    act(g, "build", "temple", "naxos")  # Zeus' free building
    heroic_move(g, "jason", 1, "ios")    # 1 + 3 = 4 against 1 troop + metropolis + 0 = 2
    assert ctrl(g, "ios") == 1
    act(g, "end_turn")
    assert g.is_over and g.state.cycle == 1
    assert g.result()["winners"] == [0]  # 2 metropolises against 1


def test_last_land_area_attack_not_allowed_with_too_few_metropolises():
    """R19: with one metropolis, winning the last area (with its metropolis) gives only 2."""
    areas = {"argos": {"owner": 0, "buildings": ["metropolis"]},
             "melos": {"owner": 0, "troops": 3},
             "ios": {"owner": 1, "troops": 1, "buildings": ["metropolis"]}}
    assert "land_move" not in kinds(turn("ares", areas))  # melos' one neighbour is ios


# --- Heroic Move ------------------------------------------------------------------------

HERO_AREAS = {"argos": {"owner": 0, "troops": 2, "heroes": ["jason"]}}


@pytest.mark.parametrize("god", ["zeus", "athena", "poseidon", "hera"])
def test_heroic_move_with_any_god_but_apollo_and_ares(god):
    """Rulebook, Heroic Move: with the exception of Apollo, all gods allow heroic moves;
    with Ares there are none (heroes move like troops)."""
    assert cyclades.Action("heroic_move", "jason", n=1) in turn(god, HERO_AREAS).legal_actions()


@pytest.mark.parametrize("god", ["ares", "apollo"])
def test_no_heroic_move_with_ares_or_apollo(god):
    """Rulebook, Heroic Move, Clarifications: no heroic moves with Ares, nor for Apollo."""
    g = turn(god, HERO_AREAS)
    assert "heroic_move" not in kinds(g)


def test_heroic_move_costs_escalate_within_the_turn():
    """R14 (rulebook, Heroic Move): the 1st heroic move costs 1 GP, the 2nd 2 GP, the 3rd 3 GP."""
    g = turn("zeus", HERO_AREAS, gp=(10, 5, 5))
    heroic_move(g, "jason", 1, "corinth", t=0)
    assert g.state.gp[0] == 9 and g.state.hero_at["jason"] == idx(g, "corinth")
    assert cyclades.Action("heroic_move", "jason", n=2) in g.legal_actions()
    heroic_move(g, "jason", 2, "argos", t=1)
    assert g.state.gp[0] == 7
    assert cyclades.Action("heroic_move", "jason", n=3) in g.legal_actions()


def test_heroic_move_cost_counts_all_heroes_of_the_player():
    """R14: the n-th heroic move of the turn costs n GP, counted over all the player's heroes."""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["jason"]}, "melos": {"owner": 0, "heroes": ["helen"]}})
    heroic_move(g, "jason", 1, "corinth")
    assert cyclades.Action("heroic_move", "helen", n=2) in g.legal_actions()
    assert cyclades.Action("heroic_move", "helen", n=1) not in g.legal_actions()


def test_heroic_move_cost_continues_from_the_turns_count():
    """R14: the count is per turn (scenario key `moves`: heroic moves already made)."""
    g = scenario(areas=HERO_AREAS, decision={"turn": {"player": 0, "god": "zeus", "stage": "main", "moves": 2}})
    assert cyclades.Action("heroic_move", "jason", n=3) in g.legal_actions()


def test_heroic_move_unaffordable_is_not_offered():
    """R14: the n-th heroic move needs n GP in the purse."""
    g = scenario(areas=HERO_AREAS, player=[{"gp": 1}],
                 decision={"turn": {"player": 0, "god": "zeus", "stage": "main", "moves": 1}})
    assert "heroic_move" not in kinds(g)


def test_heroic_move_with_accompanying_troops():
    """Rulebook, Heroic Move: a hero moves, possibly with accompanying troops (mercenaries
    included: "Troop" means both kinds)."""
    g = turn("athena", {"argos": {"owner": 0, "troops": 2, "mercs": 1, "heroes": ["jason"]}})
    heroic_move(g, "jason", 1, "corinth", t=1, m=1)
    assert (troops(g, "argos"), troops(g, "corinth"), mercs(g, "corinth")) == (1, 1, 1)
    assert g.state.hero_at["jason"] == idx(g, "corinth") and g.state.gp[0] == 4


def test_heroic_move_along_a_chain_of_fleets():
    """Rulebook, Heroic Move: to an adjacent land area or one connected by a chain of the
    player's fleets."""
    g = turn("poseidon", {"argos": {"owner": 0, "troops": 2, "heroes": ["jason"]},
                          "west": {"owner": 0, "fleets": 1}, "north": {"owner": 0, "fleets": 1}})
    act(g, "heroic_move", "jason", n=1)
    act(g, "take", "troop", n=2)
    assert where(g, "destination") == {"corinth", "naxos"}
    act(g, "destination", where="naxos")
    assert (troops(g, "naxos"), ctrl(g, "naxos"), g.state.hero_at["jason"]) == (2, 0, idx(g, "naxos"))


def test_heroic_move_into_enemy_area_starts_a_land_battle():
    """Rulebook, Heroic Move: a hero entering an enemy land area, alone or accompanied, starts
    a Land Battle; the hero has a Battle Strength of 1."""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["jason"]}, "corinth": {"owner": 1, "troops": 1},
                      "naxos": {"owner": 1, "troops": 1}}, dice=[2, 1])
    events = act(g, "heroic_move", "jason", n=1) + act(g, "destination", where="corinth")
    assert {"type": "battle", "attacker": 0, "defender": 1, "area": "corinth", "sea": False} in events
    rnd = next(e for e in events if e["type"] == "round")
    assert rnd["strength"] == [2 + 1, 1 + 1]
    assert ctrl(g, "corinth") == 0 and g.state.hero_at["jason"] == idx(g, "corinth")


def test_heroic_move_cancel_changes_nothing():
    """R26: a heroic move cancelled before its destination costs nothing and does not count
    towards the escalating cost (R14)."""
    g = turn("zeus", HERO_AREAS)
    before = snapshot(g)
    act(g, "heroic_move", "jason", n=1)
    act(g, "take", "troop", n=1)
    act(g, "cancel")
    assert snapshot(g) == before
    assert cyclades.Action("heroic_move", "jason", n=1) in g.legal_actions()
