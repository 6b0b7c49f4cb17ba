"""Metropolises and their bonuses (rulebook: Metropolises, Metropolis Bonuses; rulings R15,
R20, R27, R28).

Positions are on the small test map (tests/scenarios/small_map.yaml):

            north (sea)
   corinth ---------- naxos
     |   \\              |
   argos   west (sea)  east (sea)
     |      |           |
            south (sea)
        melos -- ios

Construction sites: argos 2, corinth 2, naxos 3, melos 1, ios 2. Scenario key `bonus_stack`
lists the bonus tokens top first; area key `bonuses` gives the bonus of a metropolis.
"""
from positions import act, idx, kinds, scenario, sites, where

from cyclades.engine import creatures


def cultural(areas, stack, gp=4, **kw):
    """Player 0 on Athena's menu with 3 philosophers, `gp` GP, the bonus stack `stack`."""
    return scenario(areas=areas, bonus_stack=list(stack),
                    player=[{"gp": gp, "philosophers": 3}, {"gp": 5}, {"gp": 5}],
                    decision={"turn": {"player": 0, "god": "athena", "stage": "main"}}, **kw)


def fourth_philosopher(g):
    return act(g, "recruit", "philosopher", n=4)


HOME = {"argos": {"owner": 0, "troops": 1}, "naxos": {"owner": 0}, "west": {"owner": 0, "fleets": 1}}


# --- Economic development ----------------------------------------------------------------

ECONOMIC = {"argos": {"owner": 0, "troops": 1, "buildings": ["fortress", "temple"]},
            "naxos": {"owner": 0, "buildings": ["university"]},
            "ios": {"owner": 1, "buildings": ["port"]}}


def test_economic_development_removes_the_four_buildings_and_builds_a_metropolis():
    """Rulebook, Metropolises (economic development) / R20: as soon as a player has a port, a
    fortress, a temple and a university in the areas they control, they are removed and a
    metropolis is placed on an empty site of a controlled land area."""
    g = scenario(areas=ECONOMIC, bonus_stack=["three-gp"], player=[{"gp": 0}],
                 decision={"turn": {"player": 0, "god": "poseidon"}})
    act(g, "build", "port", "naxos")  # Poseidon's free port completes the four types
    assert sites(g, "argos") == ["", ""] and sites(g, "naxos") == ["", "", ""]
    assert sites(g, "ios") == ["port", ""]  # player 1's port is not player 0's
    assert where(g, "metropolis") == {"argos", "naxos"}  # not ios: not controlled
    ev = act(g, "metropolis", where="naxos")
    assert sites(g, "naxos") == ["metropolis", "", ""]
    assert {"type": "metropolis", "player": 0, "area": "naxos", "how": "economic",
            "bonus": "three-gp"} in ev
    assert g.view(0)["players"][0]["metropolises"] == 1


def test_economic_development_needs_all_four_types():
    """Rulebook, Metropolises: three types are not enough."""
    g = scenario(areas={"argos": {"owner": 0, "troops": 1, "buildings": ["fortress"]},
                        "naxos": {"owner": 0, "buildings": ["university"]}},
                 decision={"turn": {"player": 0, "god": "poseidon"}})
    act(g, "build", "port", "naxos")
    assert sites(g, "naxos") == ["university", "port", ""] and "metropolis" not in kinds(g)


def test_economic_development_choice_of_which_building_to_remove():
    """Rulebook, Metropolises: with a type in several areas, the player chooses which one to
    give up (a decision); the other stays."""
    g = scenario(areas={"argos": {"owner": 0, "troops": 1, "buildings": ["fortress", "temple"]},
                        "naxos": {"owner": 0, "buildings": ["university", "fortress"]}},
                 bonus_stack=["priestess"], decision={"turn": {"player": 0, "god": "poseidon"}})
    act(g, "build", "port", "naxos")
    assert g.to_move == 0
    assert {(a.kind, a.what, a.where) for a in g.legal_actions()} == {
        ("remove", "fortress", "argos"), ("remove", "fortress", "naxos")}
    act(g, "remove", "fortress", "naxos")
    assert sites(g, "argos") == ["fortress", ""] and sites(g, "naxos") == ["", "", ""]
    act(g, "metropolis", where="argos")
    assert sites(g, "argos") == ["fortress", "metropolis"]


def test_economic_development_returns_buildings_to_the_reserve():
    """Rulebook, Metropolises: the removed buildings return to the common reserve (R28: the
    reserve holds 10 of each type)."""
    from cyclades.engine.ops import buildings_left
    g = scenario(areas=ECONOMIC, bonus_stack=["three-gp"], decision={"turn": {"player": 0, "god": "poseidon"}})
    act(g, "build", "port", "naxos")
    act(g, "metropolis", where="argos")
    assert [buildings_left(g, k) for k in ("port", "fortress", "temple", "university")] == [9, 10, 10, 10]


# --- Cultural development -----------------------------------------------------------------

def test_cultural_development_fourth_philosopher_builds_a_metropolis():
    """Rulebook, Metropolises (cultural development) / Athena: the 4th Philosopher: discard the
    4 cards and build a metropolis on a free site of a controlled land area."""
    g = cultural(HOME, ["three-gp"])
    fourth_philosopher(g)
    assert g.state.philosophers[0] == 0
    assert where(g, "metropolis") == {"argos", "naxos"}
    ev = act(g, "metropolis", where="argos")
    assert sites(g, "argos") == ["metropolis", ""]
    assert any(e["type"] == "metropolis" and e["how"] == "cultural" for e in ev)


def test_cultural_development_without_free_site_replaces_a_basic_building():
    """Rulebook, Metropolises (cultural development): if no construction site is free, one of
    the player's basic buildings must be destroyed and replaced by the metropolis."""
    g = cultural({"melos": {"owner": 0, "troops": 1, "buildings": ["port"]},
                  "corinth": {"owner": 0, "buildings": ["temple", "university"]},
                  "argos": {"owner": 1, "buildings": ["fortress"]}}, ["three-gp"])
    fourth_philosopher(g)
    assert {(a.kind, a.what, a.where) for a in g.legal_actions()} == {
        ("replace", "port", "melos"), ("replace", "temple", "corinth"), ("replace", "university", "corinth")}
    act(g, "replace", "temple", "corinth")
    assert sites(g, "corinth") == ["metropolis", "university"] and sites(g, "melos") == ["port"]


# --- the bonus token --------------------------------------------------------------------

def test_bonus_token_is_the_top_of_the_stack_and_applied_at_once():
    """R20 (rulebook, Metropolises): the first token of the shuffled stack is turned over and
    its bonus received immediately; the metropolis keeps it."""
    g = cultural(HOME, ["three-gp", "priestess"])
    ev = act(g, "recruit", "philosopher", n=4) + act(g, "metropolis", where="naxos")
    assert g.state.gp[0] == 0 + 3
    assert g.state.bonus_stack == ["priestess"] and g.state.priestesses[0] == 0
    assert g.view(1)["areas"][idx(g, "naxos")]["metropolis_bonuses"] == ["three-gp"]
    assert [e["type"] for e in ev][-2:] == ["metropolis", "gp"]


def test_empty_bonus_stack_gives_no_bonus():
    """R28: a metropolis built when the bonus stack is empty has no bonus."""
    g = cultural(HOME, [])
    ev = fourth_philosopher(g) + act(g, "metropolis", where="naxos")
    assert sites(g, "naxos")[0] == "metropolis"
    assert next(e for e in ev if e["type"] == "metropolis")["bonus"] is None
    assert g.view(0)["areas"][idx(g, "naxos")]["metropolis_bonuses"] == []
    assert g.state.gp[0] == 0 and "end_turn" in kinds(g)


def test_bonus_gain_3_gp():
    """Rulebook, Metropolis Bonuses, "Gain 3 GP"."""
    g = cultural(HOME, ["three-gp"], gp=5)
    fourth_philosopher(g)
    act(g, "metropolis", where="argos")
    assert g.state.gp[0] == 5 - 4 + 3


def test_bonus_gain_a_priestess():
    """Rulebook, Metropolis Bonuses, "Gain a Priestess"."""
    g = cultural(HOME, ["priestess"])
    fourth_philosopher(g)
    act(g, "metropolis", where="argos")
    assert g.state.priestesses == [1, 0, 0]


def test_bonus_gain_two_troops_on_controlled_land_areas():
    """Rulebook, Metropolis Bonuses, "Gain two Troops": basic troops on one or two land areas
    already controlled (not necessarily the metropolis' area)."""
    g = cultural({**HOME, "ios": {"owner": 1, "troops": 1}}, ["two-troops"])
    fourth_philosopher(g)
    act(g, "metropolis", where="argos")
    assert where(g, "place_troop") == {"argos", "naxos"}
    act(g, "place_troop", where="naxos")
    assert where(g, "place_troop") == {"argos", "naxos"}
    act(g, "place_troop", where="argos")
    assert (g.state.troops[idx(g, "argos")], g.state.troops[idx(g, "naxos")]) == (2, 1)
    assert g.state.troops_left[0] == 8 - 3 and "end_turn" in kinds(g)


def test_bonus_gain_two_fleets_in_controlled_sea_areas():
    """Rulebook, Metropolis Bonuses, "Gain two Fleets": in one or two sea areas already under
    the player's control (not necessarily by the metropolis)."""
    g = cultural({**HOME, "south": {"owner": 0, "fleets": 1}, "north": {"owner": 1, "fleets": 1}},
                 ["two-fleets"])
    fourth_philosopher(g)
    act(g, "metropolis", where="naxos")
    assert where(g, "place_fleet") == {"west", "south"}  # not the empty east, not north
    act(g, "place_fleet", where="south")
    act(g, "place_fleet", where="south")
    assert g.state.fleets[idx(g, "south")] == 3 and "end_turn" in kinds(g)


def test_bonus_troop_and_fleet():
    """Rulebook, Metropolis Bonuses, "Gain a basic Troop and a Fleet": in a land area and a sea
    area already under the player's control."""
    g = cultural(HOME, ["troop-and-fleet"])
    fourth_philosopher(g)
    act(g, "metropolis", where="argos")
    assert where(g, "place_troop") == {"argos", "naxos"}
    act(g, "place_troop", where="naxos")
    assert where(g, "place_fleet") == {"west"}
    act(g, "place_fleet", where="west")
    assert (g.state.troops[idx(g, "naxos")], g.state.fleets[idx(g, "west")]) == (1, 2)
    assert "end_turn" in kinds(g)


def test_bonus_prosperity_token_on_a_controlled_area():
    """Rulebook, Metropolis Bonuses, "Gain a Prosperity token": on a land or sea area under
    the player's control."""
    g = cultural({**HOME, "ios": {"owner": 1, "troops": 1}}, ["prosperity"])
    fourth_philosopher(g)
    act(g, "metropolis", where="argos")
    assert where(g, "prosperity") == {"argos", "naxos", "west"}
    act(g, "prosperity", where="west")
    assert g.state.prosperity[idx(g, "west")] == 1 and sum(g.state.prosperity) == 1


def test_bonus_build_a_basic_building():
    """Rulebook, Metropolis Bonuses, "Build a basic Building": any basic building from the
    reserve, on an empty site of a controlled land area."""
    g = cultural({**HOME, "ios": {"owner": 1}}, ["basic-building"])
    fourth_philosopher(g)
    act(g, "metropolis", where="argos")
    assert {a.what for a in g.legal_actions() if a.kind == "choose_building"} == {
        "port", "fortress", "temple", "university"}
    act(g, "choose_building", "fortress")
    assert where(g, "build") == {"argos", "naxos"}
    act(g, "build", "fortress", "argos")
    assert sites(g, "argos") == ["metropolis", "fortress"]


CARDS = ["pegasus", "harpy", "dryad", "satyr"]


def test_bonus_reserve_a_creature_places_the_marker():
    """Rulebook, Metropolis Bonuses, "Reserve a Mythological Creature": a control token on a
    creature of the player's choice on the track (public: the view shows it)."""
    g = cultural(HOME, ["reserve-creature"], creature_track=CARDS)
    fourth_philosopher(g)
    act(g, "metropolis", where="argos")
    assert {a.what for a in g.legal_actions() if a.kind == "reserve"} == set(CARDS)
    act(g, "reserve", "dryad")
    assert g.state.reserved == {"dryad": 0}
    track = g.view(2)["creature_track"]
    assert [c["reserved_by"] for c in track] == [None, None, 0, None]


def test_reserved_creature_may_be_bought_only_by_its_reserver(monkeypatch):
    """Rulebook, Metropolis Bonuses: only the reserving player can buy the creature as long as
    the card remains on the track."""
    for c in CARDS:  # give every card a (do-nothing) effect so that it is on sale
        monkeypatch.setitem(creatures.EFFECTS, c, creatures.EFFECTS.get(c) or creatures.Effect())
    areas = {**HOME, "ios": {"owner": 1, "troops": 1}}
    g = scenario(areas=areas, bonus_stack=["reserve-creature"], creature_track=CARDS,
                 player=[{"gp": 9, "philosophers": 3}, {"gp": 9}, {"gp": 9}],
                 decision={"turn": {"player": 0, "god": "athena", "stage": "main",
                                    "action_order": [[0, "athena"], [1, "zeus"]]}})
    fourth_philosopher(g)
    act(g, "metropolis", where="argos")
    act(g, "reserve", "dryad")
    assert "dryad" in {a.what for a in g.legal_actions() if a.kind == "buy_creature"}
    act(g, "end_turn")
    act(g, "build", "temple", "ios")  # Zeus' free temple for player 1
    assert g.to_move == 1
    on_sale = {a.what for a in g.legal_actions() if a.kind == "buy_creature"}
    assert "dryad" not in on_sale and {"pegasus", "harpy", "satyr"} <= on_sale


# --- a conquered metropolis ---------------------------------------------------------------

def test_conquered_metropolis_gives_its_bonus_to_the_player_who_lost_it():
    """R20 (rulebook, Metropolises, 4th way): conquering a land area with a metropolis: the
    owner who lost it benefits at once from its bonus; the conqueror does not, but the bonus
    stays with the metropolis for the next time it is lost."""
    g = scenario(areas={"melos": {"owner": 0, "troops": 3},
                        "ios": {"owner": 1, "troops": 1, "buildings": ["metropolis"], "bonuses": ["three-gp"]},
                        "naxos": {"owner": 1, "troops": 1}},
                 player=[{"gp": 5}, {"gp": 0}], dice=[3, 0],
                 decision={"turn": {"player": 0, "god": "ares", "stage": "main"}})
    act(g, "land_move", n=1)
    act(g, "origin", where="melos")
    act(g, "take", "troop", n=2)
    ev = act(g, "destination", where="ios")
    assert g.state.ctrl[idx(g, "ios")] == 0
    assert (g.state.gp[0], g.state.gp[1]) == (5 - 1, 0 + 3)
    assert {"type": "metropolis_lost", "player": 1, "area": "ios", "bonus": "three-gp"} in ev
    assert g.view(0)["areas"][idx(g, "ios")]["metropolis_bonuses"] == ["three-gp"]
    assert g.view(0)["players"][0]["metropolises"] == 1


def test_conquered_metropolis_bonus_with_a_placement_is_the_losers_decision():
    """R20: the loser of a metropolis whose bonus is "Gain two Troops" places them at once,
    on land areas they still control."""
    g = scenario(areas={"melos": {"owner": 0, "troops": 3},
                        "ios": {"owner": 1, "troops": 1, "buildings": ["metropolis"], "bonuses": ["two-troops"]},
                        "naxos": {"owner": 1, "troops": 1}},
                 dice=[3, 0], decision={"turn": {"player": 0, "god": "ares", "stage": "main"}})
    act(g, "land_move", n=1)
    act(g, "origin", where="melos")
    act(g, "take", "troop", n=2)
    act(g, "destination", where="ios")
    assert g.to_move == 1 and where(g, "place_troop") == {"naxos"}
    act(g, "place_troop", where="naxos")
    act(g, "place_troop", where="naxos")
    assert g.state.troops[idx(g, "naxos")] == 3 and g.to_move == 0


def test_metropolis_given_up_by_a_retreat_still_gives_its_bonus():
    """R20: a defender who retreats from its metropolis' area has lost it to the conqueror:
    it receives the bonus."""
    g = scenario(areas={"melos": {"owner": 0, "troops": 3},
                        "ios": {"owner": 1, "troops": 2, "buildings": ["metropolis"], "bonuses": ["priestess"]},
                        "naxos": {"owner": 1}, "east": {"owner": 1, "fleets": 1}},
                 dice=[3, 0], decision={"turn": {"player": 0, "god": "ares", "stage": "main"}})
    act(g, "land_move", n=1)
    act(g, "origin", where="melos")
    act(g, "take", "troop", n=3)
    act(g, "destination", where="ios")  # 6 against 3: one troop lost
    act(g, "retreat", where="naxos")
    assert g.state.ctrl[idx(g, "ios")] == 0 and g.state.priestesses == [0, 1, 0]


def test_eliminated_loser_of_a_metropolis_gets_no_bonus():
    """R27 with R20: a player eliminated by losing their last area (and its metropolis, R19)
    takes no further decision and receives nothing."""
    g = scenario(areas={"argos": {"owner": 0, "buildings": ["metropolis"]},
                        "corinth": {"owner": 0, "buildings": ["metropolis"]},
                        "melos": {"owner": 0, "troops": 3},
                        "ios": {"owner": 1, "troops": 1, "buildings": ["metropolis"], "bonuses": ["three-gp"]}},
                 player=[{"gp": 5}, {"gp": 0}], dice=[3, 0],
                 decision={"turn": {"player": 0, "god": "ares", "stage": "main"}})
    act(g, "land_move", n=1)
    act(g, "origin", where="melos")
    act(g, "take", "troop", n=2)
    act(g, "destination", where="ios")
    assert g.state.eliminated[1] and g.state.gp[1] == 0 and g.to_move == 0


def test_conquered_building_completing_the_four_types_builds_a_metropolis_at_once():
    """Metropolises, economic development: "As soon as a player has all 4 types of basic
    Buildings ... regardless of where they are on the Land Areas that player controls" —
    conquering the University that completes the set builds the Metropolis at once."""
    g = scenario(areas={"argos": {"owner": 0, "troops": 3, "buildings": ["port", "fortress"]},
                        "naxos": {"owner": 0, "buildings": ["temple"]},
                        "corinth": {"owner": 1, "troops": 1, "buildings": ["university"]},
                        "melos": {"owner": 1}, "ios": {"owner": 2}},
                 bonus_stack=["three-gp"], dice=[3, 0],
                 player=[{"gp": 5}, {"gp": 5}, {"gp": 5}],
                 decision={"turn": {"player": 0, "god": "ares", "stage": "main"}})
    act(g, "land_move", n=1)
    act(g, "origin", where="argos")
    act(g, "take", "troop", n=2)
    act(g, "destination", where="corinth")
    # The battle is won (3+2 against 0+1); the four types are gone and a Metropolis is to be placed.
    assert kinds(g) == {"metropolis"}
    assert sites(g, "argos") == ["", ""] and sites(g, "corinth") == ["", ""]
    act(g, "metropolis", where="corinth")
    assert "metropolis" in sites(g, "corinth") and g.state.gp[0] == 5 - 1 + 3
