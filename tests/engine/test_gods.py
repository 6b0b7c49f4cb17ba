"""5- Actions: the gods' turns (rulebook, "Athena" to "Apollo", "Heroes"; R9, R13, R14, R28)."""
from positions import act, kinds, legal, scenario

import cyclades
from cyclades.engine import creatures

# small map: argos (2 sites, 1 cornucopia) and corinth (2 sites, Priestess icon) form one island
# with the seas west, south / west, north; naxos (3 sites) touches north and east; melos (1 site)
# and ios (2 sites) touch south, and ios touches east.


def turn(god, areas, gp=10, player=None, **data):
    """Player 0 begins a turn of `god` (the mandatory free actions first)."""
    players = player or [{"gp": gp}]
    return scenario(areas=areas, player=players,
                    decision={"turn": {"player": 0, "god": god, **data.pop("turn", {})}}, **data)


def places(g, kind):
    return sorted(a.where for a in legal(g, kind))


def area(g, area_id):
    return g.board.index[area_id]


def buildings(g, area_id):
    return [g.state.sites[i] for i in g.board.sites_of(area(g, area_id))]


def recruit_costs(g):
    return [a.n for a in legal(g, "recruit")]


def buy_all(g, unit, where):
    """Recruit `unit` while it is offered; return the costs paid."""
    paid = []
    while legal(g, "recruit"):
        a = legal(g, "recruit")[0]
        assert a.what == unit
        paid.append(a.n)
        g.apply(a)
        place_kind = {"fleet": "place_fleet", "troop": "place_troop", "merc": "place_merc"}.get(unit)
        if place_kind:
            act(g, place_kind, where=where)
    return paid


ARGOS_NAXOS = {"argos": {"owner": 0, "troops": 1}, "naxos": {"owner": 0}}


# --- Athena -----------------------------------------------------------------------------

def test_athena_free_university_first_then_philosopher():
    """Rulebook, Athena / R13: the free University is built first, on an empty construction site
    of a controlled land area, then the free Philosopher; nothing else before them."""
    g = turn("athena", ARGOS_NAXOS)
    assert kinds(g) == {"build"}
    assert places(g, "build") == ["argos", "naxos"]
    assert {a.what for a in legal(g, "build")} == {"university"}
    assert g.state.philosophers[0] == 0
    act(g, "build", "university", "naxos")
    assert buildings(g, "naxos") == ["university", "", ""]
    assert g.state.philosophers[0] == 1
    assert "end_turn" in kinds(g)


def test_athena_one_extra_philosopher_for_4_gp():
    """Rulebook, Athena: ONE additional Philosopher for 4 GP."""
    g = turn("athena", ARGOS_NAXOS, gp=9)
    act(g, "build", "university", "argos")
    assert recruit_costs(g) == [4]
    act(g, "recruit", "philosopher", n=4)
    assert g.state.philosophers[0] == 2 and g.state.gp[0] == 5
    assert recruit_costs(g) == []  # only one, though 5 GP are left


def test_athena_extra_philosopher_not_offered_below_4_gp():
    """R14: a paid recruit the player cannot afford is not offered."""
    g = turn("athena", ARGOS_NAXOS, gp=3)
    act(g, "build", "university", "argos")
    assert recruit_costs(g) == []
    assert kinds(g) >= {"end_turn"}


# --- Zeus ----------------------------------------------------------------------------------

def test_zeus_free_temple_then_priestess_and_one_extra_for_4_gp():
    """Rulebook, Zeus: build a Temple, recruit a Priestess; ONE extra Priestess for 4 GP."""
    g = turn("zeus", ARGOS_NAXOS, gp=8)
    assert kinds(g) == {"build"} and {a.what for a in legal(g, "build")} == {"temple"}
    act(g, "build", "temple", "argos")
    assert buildings(g, "argos") == ["temple", ""]
    assert g.state.priestesses[0] == 1
    assert recruit_costs(g) == [4]
    act(g, "recruit", "priestess", n=4)
    assert g.state.priestesses[0] == 2 and g.state.gp[0] == 4
    assert recruit_costs(g) == []


# --- Poseidon ---------------------------------------------------------------------------------

POSEIDON_AREAS = {
    "argos": {"owner": 0, "troops": 1}, "corinth": {"owner": 0},
    "north": {"owner": 0, "fleets": 1},      # own fleet: allowed
    "west": {"owner": 1, "fleets": 1},       # enemy fleet: not allowed
    "naxos": {"owner": 1, "troops": 1},
}


def test_poseidon_free_port_then_fleet_on_empty_or_own_sea_next_to_own_land():
    """Rulebook, Poseidon: build a Port, then a Fleet in a sea area adjacent to a land area the
    player controls that is empty or already holds the player's fleets."""
    g = turn("poseidon", POSEIDON_AREAS)
    assert kinds(g) == {"build"} and {a.what for a in legal(g, "build")} == {"port"}
    act(g, "build", "port", "corinth")
    # argos: west (enemy), south (empty); corinth: west, north (own). east is not next to them.
    assert kinds(g) == {"place_fleet"}
    assert places(g, "place_fleet") == ["north", "south"]
    act(g, "place_fleet", where="south")
    s = g.state
    assert s.fleets[area(g, "south")] == 1 and s.ctrl[area(g, "south")] == 0
    assert s.fleets_left[0] == 6


def test_poseidon_paid_fleets_cost_1_2_3_at_most_three():
    """Rulebook, Poseidon / R14: extra fleets cost 1, 2 and 3 GP; no more than 3 per turn."""
    g = turn("poseidon", POSEIDON_AREAS, gp=20)
    act(g, "build", "port", "corinth")
    act(g, "place_fleet", where="north")
    assert buy_all(g, "fleet", "south") == [1, 2, 3]
    assert g.state.gp[0] == 14 and g.state.fleets[area(g, "south")] == 3


def test_paid_recruit_costs_count_per_turn():
    """R14: the escalation counts the paid recruits of this turn (scenario `bought`)."""
    g = turn("poseidon", POSEIDON_AREAS, turn={"stage": "main", "bought": 2})
    assert recruit_costs(g) == [3]
    g = turn("poseidon", POSEIDON_AREAS, turn={"stage": "main", "bought": 3})
    assert recruit_costs(g) == []


def test_poseidon_free_fleet_skipped_without_a_legal_sea():
    """R13: a free recruit with no legal place is skipped (and no paid fleet is offered)."""
    g = turn("poseidon", {"melos": {"owner": 0, "troops": 1},
                          "south": {"owner": 1, "fleets": 1}, "ios": {"owner": 1}})
    act(g, "build", "port", "melos")
    assert kinds(g) >= {"end_turn"} and "place_fleet" not in kinds(g)
    assert recruit_costs(g) == []
    assert g.state.fleets_left[0] == 8


def test_poseidon_paid_fleet_stops_when_unaffordable():
    """R14: with 3 GP, the 1st (1 GP) and 2nd (2 GP) extra fleets, not the 3rd."""
    g = turn("poseidon", POSEIDON_AREAS, gp=3)
    act(g, "build", "port", "corinth")
    act(g, "place_fleet", where="south")
    assert buy_all(g, "fleet", "south") == [1, 2]
    assert g.state.gp[0] == 0


# --- Ares ------------------------------------------------------------------------------------

def test_ares_free_fortress_then_troop_on_a_controlled_land_area():
    """Rulebook, Ares: build a Fortress, then place a Troop on a land area the player controls."""
    g = turn("ares", {**ARGOS_NAXOS, "ios": {"owner": 1, "troops": 1}})
    assert {a.what for a in legal(g, "build")} == {"fortress"}
    act(g, "build", "fortress", "argos")
    assert kinds(g) == {"place_troop"}
    assert places(g, "place_troop") == ["argos", "naxos"]
    act(g, "place_troop", where="naxos")
    assert g.state.troops[area(g, "naxos")] == 1 and g.state.troops_left[0] == 6


def test_ares_paid_troops_cost_2_3_4():
    """Rulebook, Ares / R14: extra troops cost 2, 3 and 4 GP, at most 3 per turn."""
    g = turn("ares", ARGOS_NAXOS, gp=10)
    act(g, "build", "fortress", "argos")
    act(g, "place_troop", where="argos")
    assert buy_all(g, "troop", "argos") == [2, 3, 4]
    assert g.state.gp[0] == 1 and g.state.troops[area(g, "argos")] == 5


# --- Hera ------------------------------------------------------------------------------------

def test_hera_builds_a_type_the_player_does_not_own():
    """Rulebook, Hera: choose a basic building you do not already own, then build it."""
    g = turn("hera", {"argos": {"owner": 0, "troops": 1, "buildings": ["temple"]},
                      "naxos": {"owner": 0, "buildings": ["port"]}})
    assert {a.what for a in legal(g, "choose_building")} == {"fortress", "university"}
    act(g, "choose_building", "fortress")
    assert places(g, "build") == ["argos", "naxos"]
    act(g, "build", "fortress", "naxos")
    assert buildings(g, "naxos") == ["port", "fortress", ""]
    assert kinds(g) == {"place_merc"}


def test_hera_free_mercenary_then_paid_1_3_5():
    """Rulebook, Hera / R14: a free mercenary on a controlled land area, then extra mercenaries for
    1, 3 and 5 GP, at most 3 per turn."""
    g = turn("hera", ARGOS_NAXOS, gp=12)
    act(g, "choose_building", "port")
    act(g, "build", "port", "argos")
    assert places(g, "place_merc") == ["argos", "naxos"]
    act(g, "place_merc", where="naxos")
    assert g.state.mercs[area(g, "naxos")] == 1 and g.state.mercs_left == 15
    assert buy_all(g, "merc", "naxos") == [1, 3, 5]
    assert g.state.gp[0] == 3 and g.state.mercs[area(g, "naxos")] == 4 and g.state.mercs_left == 12


# --- no free construction site ------------------------------------------------------------

def test_no_free_site_forgo_or_replace_own_basic_building():
    """Rulebook, Athena (and every god): with no construction site available, forgo the building
    or remove one of your basic buildings to build in its place."""
    g = turn("athena", {"melos": {"owner": 0, "troops": 1, "buildings": ["temple"]},
                        "ios": {"owner": 1, "buildings": ["port", "fortress"]}})
    assert set(g.legal_actions()) == {cyclades.Action("forgo"),
                                      cyclades.Action("replace", "temple", "melos")}
    act(g, "replace", "temple", "melos")
    assert buildings(g, "melos") == ["university"]
    assert g.state.philosophers[0] == 1


def test_no_free_site_forgo_builds_nothing_but_recruit_follows():
    """Rulebook, Zeus: "you may choose to forgo this construction"; the free recruit still comes."""
    g = turn("zeus", {"melos": {"owner": 0, "troops": 1, "buildings": ["temple"]}})
    # the only building is a temple: replacing it by a temple is no choice
    assert g.legal_actions() == [cyclades.Action("forgo")]
    act(g, "forgo")
    assert buildings(g, "melos") == ["temple"] and g.state.priestesses[0] == 1


def test_no_free_site_metropolis_is_not_replaced():
    """Rulebook: only basic buildings may be removed for the free building."""
    g = turn("ares", {"melos": {"owner": 0, "troops": 1, "buildings": ["metropolis"]}})
    assert g.legal_actions() == [cyclades.Action("forgo")]


def test_hera_no_free_site_chooses_then_replaces():
    """Rulebook, Hera: with no free site, forgo or remove a basic building for the chosen one."""
    g = turn("hera", {"melos": {"owner": 0, "troops": 1, "buildings": ["temple"]}})
    assert {a.what for a in legal(g, "choose_building")} == {"port", "fortress", "university"}
    act(g, "choose_building", "port")
    assert set(g.legal_actions()) == {cyclades.Action("forgo"),
                                      cyclades.Action("replace", "temple", "melos")}
    act(g, "replace", "temple", "melos")
    assert buildings(g, "melos") == ["port"]


# --- R28 component limits --------------------------------------------------------------

BIG_MAP = {"map": [
    {"id": "polis", "kind": "land", "sites": 12, "adj": ["bay"]},
    {"id": "rock", "kind": "land", "sites": 1, "adj": ["bay"]},
    {"id": "bay", "kind": "sea", "adj": ["polis", "rock"]},
]}


def test_r28_no_temple_left_skips_the_free_temple():
    """R28: 10 buildings of each type; with all 10 temples built Zeus' free temple is skipped."""
    g = turn("zeus", {"polis": {"owner": 1, "troops": 1, "buildings": ["temple"] * 10},
                      "rock": {"owner": 0, "troops": 1}}, board=BIG_MAP)
    assert "build" not in kinds(g)
    assert g.state.priestesses[0] == 1 and "end_turn" in kinds(g)


def test_r28_hera_cannot_choose_an_exhausted_type():
    """R28: Hera's choice leaves out a type whose 10 buildings are all on the board."""
    g = turn("hera", {"polis": {"owner": 1, "troops": 1, "buildings": ["port"] * 10},
                      "rock": {"owner": 0, "troops": 1}}, board=BIG_MAP)
    assert {a.what for a in legal(g, "choose_building")} == {"fortress", "temple", "university"}


def test_r28_eight_troops_per_player():
    """R28: with all 8 basic troops on the board, Ares' free troop is skipped and no paid
    troop is offered."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 8}}, gp=20)
    act(g, "build", "fortress", "argos")
    assert "place_troop" not in kinds(g) and recruit_costs(g) == []
    assert g.state.troops[area(g, "argos")] == 8


def test_r28_eight_fleets_per_player():
    """R28: with all 8 fleets on the board Poseidon recruits none."""
    g = turn("poseidon", {"argos": {"owner": 0, "troops": 1}, "west": {"owner": 0, "fleets": 8}},
             gp=20)
    act(g, "build", "port", "argos")
    assert "place_fleet" not in kinds(g) and recruit_costs(g) == []


def test_r28_sixteen_mercenaries():
    """R28: 16 mercenaries for everyone; none left means no free or paid mercenary."""
    g = turn("hera", {"argos": {"owner": 0, "troops": 1},
                      "naxos": {"owner": 1, "mercs": 16}}, gp=20)
    act(g, "choose_building", "port")
    act(g, "build", "port", "argos")
    assert "place_merc" not in kinds(g) and recruit_costs(g) == []


def test_r28_twenty_priestesses():
    """R28: 20 Priestess cards; none left means no free or paid Priestess."""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1}},
             player=[{"gp": 20, "priestesses": 12}, {"gp": 5, "priestesses": 8}])
    act(g, "build", "temple", "argos")
    assert g.state.priestesses == [12, 8, 0]
    assert recruit_costs(g) == []


def test_r28_last_priestess_given_then_no_paid_one():
    """R28: a gain is given as far as the supply can: the 20th Priestess, then none."""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1}},
             player=[{"gp": 20, "priestesses": 11}, {"gp": 5, "priestesses": 8}])
    act(g, "build", "temple", "argos")
    assert g.state.priestesses == [12, 8, 0]
    assert recruit_costs(g) == []


# --- Apollo -----------------------------------------------------------------------------------

def test_apollo_two_gp_and_two_prosperity_tokens_and_nothing_else():
    """R9 / rulebook, Apollo: 2 GP and a 1-cornucopia Prosperity token on a land area and one on
    a sea area of the player's choice; no building, no recruit, no other action."""
    g = turn("apollo", {"argos": {"owner": 0, "troops": 1, "heroes": ["ajax"]},
                        "naxos": {"owner": 1, "troops": 1}},
             gp=10, creature_track=["sphinx", "dryad", "satyr", "pegasus"],
             turn={"action_order": [[0, "apollo"], [1, "apollo"]]})
    assert g.state.gp[0] == 12
    # a land area, any (controlled or not)
    assert kinds(g) == {"prosperity"}
    assert places(g, "prosperity") == ["argos", "corinth", "ios", "melos", "naxos"]
    act(g, "prosperity", where="naxos")
    assert places(g, "prosperity") == ["east", "north", "south", "west"]
    act(g, "prosperity", where="east")
    s = g.state
    assert s.prosperity[area(g, "naxos")] == 1 and s.prosperity[area(g, "east")] == 1
    # the turn is over on its own: the next Apollo player receives the reward
    assert g.to_move == 1 and g.state.gp[1] == 7
    assert s.sites == [""] * len(s.sites) and s.philosophers == [0, 0, 0]
    assert s.priestesses == [0, 0, 0] and s.troops[area(g, "argos")] == 1


def test_apollo_prosperity_tokens_stack():
    """Rulebook, Apollo: one area can contain several Prosperity tokens."""
    g = turn("apollo", {"argos": {"owner": 0, "prosperity": 1}, "west": {"prosperity": 2}})
    act(g, "prosperity", where="argos")
    act(g, "prosperity", where="west")
    assert g.state.prosperity[area(g, "argos")] == 2 and g.state.prosperity[area(g, "west")] == 3


# --- Hera: recruiting a Hero ----------------------------------------------------------------

def _hera_main(gp, **data):
    return turn("hera", ARGOS_NAXOS, gp=gp, hero_track=["ajax", "helen"],
                turn={"stage": "main"}, **data)


def test_hera_recruits_one_hero_for_4_gp_onto_a_controlled_land():
    """Rulebook, Hera / Heroes: ONE Hero for 4 GP, its miniature on a land area the player
    controls; the card leaves the hero track (refilled next cycle)."""
    g = _hera_main(9)
    assert sorted((a.what, a.n) for a in legal(g, "recruit_hero")) == [("ajax", 4), ("helen", 4)]
    act(g, "recruit_hero", "helen", n=4)
    assert places(g, "place_hero") == ["argos", "naxos"]
    act(g, "place_hero", "helen", "naxos")
    s = g.state
    assert s.gp[0] == 5 and s.hero_at["helen"] == area(g, "naxos") and s.hero_owner["helen"] == 0
    assert s.hero_track == ["ajax", None]
    assert legal(g, "recruit_hero") == []  # only one per turn, though 5 GP are left


def test_hera_hero_not_offered_below_4_gp_nor_to_other_gods():
    """Rulebook, Hera: the Hero costs 4 GP and is Hera's action only."""
    assert legal(_hera_main(3), "recruit_hero") == []
    g = turn("ares", ARGOS_NAXOS, gp=10, hero_track=["ajax", "helen"], turn={"stage": "main"})
    assert legal(g, "recruit_hero") == []


# --- Zeus: the top of the creature deck ------------------------------------------------------

def _zeus_main(gp=5, **data):
    data.setdefault("creature_deck", ["sphinx", "dryad", "satyr"])
    return turn("zeus", {"argos": {"owner": 0, "troops": 1, "buildings": ["temple", "temple"]}},
                gp=gp, turn={"stage": "main"}, **data)


def test_zeus_peek_once_per_cycle_and_put_back_on_top():
    """Rulebook, Zeus: once per Cycle, secretly look at the first creature of the deck for free;
    if not played it goes back on top of the deck."""
    g = _zeus_main()
    assert len(legal(g, "peek")) == 1
    act(g, "peek")
    assert g.state.gp[0] == 5
    assert g.view(0)["decision"]["card"] == "sphinx"
    assert "card" not in g.view(1)["decision"]  # R24: the peek is secret
    act(g, "return_peeked")
    assert g.state.creature_deck == ["satyr", "dryad", "sphinx"]  # top last: unchanged
    assert legal(g, "peek") == []  # just once per cycle


def test_zeus_peek_play_costs_1_gp_without_temple_discount(monkeypatch):
    """Rulebook, Zeus: the peeked creature may be played for 1 GP; the Temple's reduction does
    not apply to this action."""
    played = []

    class Note(creatures.Effect):
        def play(self, g, p, card):
            played.append((p, card))
            creatures.discard_creature_card(g, card)

    monkeypatch.setitem(creatures.EFFECTS, "sphinx", Note())
    g = _zeus_main()
    act(g, "peek")
    assert cyclades.Action("play_peeked", "sphinx", n=1) in g.legal_actions()
    act(g, "play_peeked", "sphinx", n=1)
    assert g.state.gp[0] == 4 and played == [(0, "sphinx")]
    assert g.state.creature_deck == ["satyr", "dryad"]


def test_zeus_peek_not_offered_to_other_gods():
    """Rulebook, Zeus: the peek is Zeus' action."""
    g = turn("athena", ARGOS_NAXOS, creature_deck=["sphinx"], turn={"stage": "main"})
    assert legal(g, "peek") == []
