"""The Mythological Creatures with miniatures (rulebook, "Creatures with Miniatures"; the
Maelström texts are the wording of their cards, R2), the Minotaur aside (test_battle.py).
For each card: its effect, and its limit (what its text forbids, or where it stops)."""
from positions import act, back_to_turn, buy, idx, kinds, legal, scenario, wasted, wheres

import cyclades
from cyclades.engine import ops
from cyclades.engine.cycle import income, income_of
from cyclades.engine.invariants import check
from cyclades.engine.queries import accessible_lands, count_in_area

# small map: argos (2 sites, 1 cornucopia) and corinth (2 sites, Priestess icon) form one island
# touching the seas west, south / west, north; naxos (3 sites, 1 cornucopia) touches north and
# east; melos (1 site, 2 cornucopias) and ios (2 sites) form an island on south, ios on east too
# (east: 1 cornucopia). Seas: west-north, west-south, north-east, east-south.


def buying(card, areas, player=None, god="zeus", slot=0, **data):
    """Player 0 in the optional actions of a `god` turn, `card` on a slot of the track (the
    5 GP slot is slot 3)."""
    track = [None, None, None, None]
    track[slot] = card
    data.setdefault("creature_track", track)
    data.setdefault("creature_deck", ["sphinx", "griffin"])
    return scenario(areas=areas, player=player or [{"gp": 10}],
                    decision={"turn": {"player": 0, "god": god, "stage": "main"}}, **data)


def turn(god, areas, **data):
    """Player 0 in the optional actions of a `god` turn, nothing on the creature track."""
    return buying(None, areas, god=god, creature_track=[None] * 4, **data)


def unit(g, kind, area_id):
    return getattr(g.state, kind)[idx(g, area_id)]


def owner(g, area_id):
    return g.state.ctrl[idx(g, area_id)]


def place(g, card, area_id):
    """Buy `card` and place its miniature on `area_id`."""
    buy(g, card)
    return act(g, "place_creature", what=card, where=area_id)


def scylla_charybdis(g, p, scylla, charybdis):
    """Scylla and Charybdis held by p (the scenario format has one area per creature card)."""
    s = g.state
    s.creature_owner["scylla-charybdis"] = p
    s.creature_at.update(scylla=idx(g, scylla), charybdis=idx(g, charybdis))
    if "scylla-charybdis" in s.creature_deck:
        s.creature_deck.remove("scylla-charybdis")


def to_maintenance(g):
    """From the offerings: every player goes to Apollo; phase 4 follows."""
    while g.phase == "offerings":
        act(g, "apollo")
    assert g.phase == "maintenance"


def sound(g):
    assert check(g) == []
    return True


HOME = {"argos": {"owner": 0, "troops": 1}}


# --- Placement (rulebook, "Creature with Miniatures") ------------------------------------------

def test_a_miniature_goes_on_any_area_of_its_type_without_a_creature():
    """Rulebook, "Creature with Miniatures": "Place the miniature in an Area of the type indicated
    on its card, whether you control it or not. This Area must not already contain a Creature."
    "That Creature remains under your control": the card stays with its buyer."""
    g = buying("cerberus", {**HOME, "naxos": {"owner": 1, "troops": 2}},
               creatures={"chiron": {"owner": 0, "area": "corinth"}})
    buy(g, "cerberus")
    assert kinds(g) == {"place_creature"}
    assert wheres(g, "place_creature") == ["argos", "ios", "melos", "naxos"]  # not corinth
    act(g, "place_creature", what="cerberus", where="naxos")
    assert g.state.creature_at["cerberus"] == idx(g, "naxos") and g.state.creature_owner["cerberus"] == 0
    assert "cerberus" not in g.state.creature_discard and back_to_turn(g) and sound(g)


def test_a_miniature_with_no_free_area_of_its_type_is_discarded_without_effect():
    """Rulebook, "Mythological Creatures": "If you cannot use the Creature's effect, it is
    immediately discarded without effect" -- Medusa when every land area holds a Creature."""
    g = buying("medusa", {"argos": {"owner": 0}},
               creatures={c: {"owner": 1, "area": a} for c, a in (
                   ("cerberus", "argos"), ("chiron", "corinth"), ("geryon", "naxos"),
                   ("polyphemus", "ios"), ("calydonian-boar", "melos"))})
    assert wasted(buy(g, "medusa"), "medusa")
    assert "medusa" in g.state.creature_discard and "medusa" not in g.state.creature_owner


# --- Kraken ------------------------------------------------------------------------------------

def test_kraken_rulebook_example():
    """Rulebook, "Creature with Miniatures", Example. Purchase: "The Purple player buys the Kraken
    for 3 GP (the card is on the 5 GP slot, but the player benefits from a 2 GP reduction because
    he owns 2 Temples)." Placement: "on a Sea Area controlled by the Yellow player. The 2 enemy
    Fleets are immediately destroyed and returned to their owner's reserve." Maintenance &
    Movement: "In the next Cycle (...) the Purple player decides to keep the Kraken. He discards
    1 Priestess card. Then he decides to move it to an adjacent Sea Area containing a Black
    Fleet. This Fleet is immediately destroyed and returned to its owner's reserve."
    Purple is player 0, Yellow 1, Black 2."""
    g = buying("kraken", {"argos": {"owner": 0, "troops": 1, "buildings": ["temple", "temple"]},
                          "naxos": {"owner": 1, "troops": 1}, "north": {"owner": 1, "fleets": 2},
                          "ios": {"owner": 2, "troops": 1}, "east": {"owner": 2, "fleets": 1}},
               player=[{"gp": 3, "priestesses": 1}, {"gp": 0}, {"gp": 0}], slot=3,
               turn_order=[0, 1, 2])
    assert legal(g, "buy_creature") == [cyclades.Action("buy_creature", "kraken", n=3)]
    place(g, "kraken", "north")
    s = g.state
    assert s.gp[0] == 0
    assert unit(g, "fleets", "north") == 0 and owner(g, "north") == -1
    assert s.fleets_left[1] == g.rules.fleets and sound(g)
    act(g, "end_turn")  # the cycle ends; the next one begins with the offerings
    to_maintenance(g)
    assert g.to_move == 0
    act(g, "keep", what="kraken")
    assert s.priestesses[0] == 0
    assert wheres(g, "move_creature") == ["east", "west"]  # the seas next to north
    act(g, "move_creature", what="kraken", where="east")
    assert s.creature_at["kraken"] == idx(g, "east")
    assert unit(g, "fleets", "east") == 0 and owner(g, "east") == -1
    assert s.fleets_left[2] == g.rules.fleets and sound(g)


def test_kraken_blocks_access_to_all_fleets_its_owners_included():
    """Kraken: "The Kraken blocks access to all Fleets (including those belonging to the
    Kraken's owner) in the Sea Area where it is present": no Sea Move into it, no new Fleet
    placed in it, no Fleet retreating into it."""
    g = turn("poseidon", {"naxos": {"owner": 0, "troops": 1}, "north": {"owner": 0, "fleets": 1}},
             creatures={"kraken": {"owner": 0, "area": "east"}})
    act(g, "sea_move", n=1)
    act(g, "origin", where="north")
    act(g, "take", what="fleet", n=1)
    assert wheres(g, "destination") == ["west"]  # not east; corinth-west-north only
    act(g, "cancel")
    act(g, "recruit", what="fleet", n=1)
    assert wheres(g, "place_fleet") == ["north"]  # naxos touches north and east


# --- Medusa ------------------------------------------------------------------------------------

def test_medusa_no_troop_may_enter_or_leave_her_area():
    """Medusa: "No basic Troops, mercenary Troops, or Heroes may enter or leave this Area
    (including those belonging to Medusa's owner)": troops on argos cannot move, corinth cannot
    be entered, even by Medusa's owner."""
    g = buying("medusa", {"argos": {"owner": 0, "troops": 2}, "corinth": {"owner": 0, "troops": 1},
                          "west": {"owner": 0, "fleets": 1}, "south": {"owner": 0, "fleets": 1}},
               god="ares")
    assert accessible_lands(g, 0, idx(g, "corinth")) == {idx(g, "argos"), idx(g, "melos"),
                                                          idx(g, "ios")}
    place(g, "medusa", "argos")
    assert accessible_lands(g, 0, idx(g, "corinth")) == {idx(g, "melos"), idx(g, "ios")}
    act(g, "land_move", n=1)
    assert wheres(g, "origin") == ["corinth"]  # argos' troops are stuck


def test_medusa_does_not_stop_recruits():
    """Medusa forbids entering and leaving; unlike the Calydonian Boar ("cannot place recruited
    Troops and Heroes in that Area") her text says nothing of recruits, so they may be placed."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2}},
             creatures={"medusa": {"owner": 1, "area": "argos"}})
    act(g, "recruit", what="troop", n=2)
    assert wheres(g, "place_troop") == ["argos"]


# --- Calydonian Boar ---------------------------------------------------------------------------

def test_boar_displaces_the_units_into_one_adjacent_area_chosen_by_its_controller():
    """Calydonian Boar: "the player who controls the Calydonian Boar moves them into 1 adjacent
    Area (a distant reachable Area cannot be chosen), so as not to cause a land battle (...).
    Control of the Area remains with the player whose Troops left it. Such a move is possible
    into an Area where only another player's Control token is located; in that case the player
    whose Troops moved gains control of the Area." -- ios' units may go to melos (a token of
    player 2), not to naxos (reachable by player 1's fleet on east, but not adjacent)."""
    g = buying("calydonian-boar", {**HOME, "ios": {"owner": 1, "troops": 2, "mercs": 1,
                                                   "heroes": ["hector"]},
                                   "melos": {"owner": 2}, "corinth": {"owner": 2},
                                   "naxos": {"owner": 1},
                                   "east": {"owner": 1, "fleets": 1}},
               hero_track=[None, None], hero_deck=[])  # Hector's card is in play
    place(g, "calydonian-boar", "ios")
    assert g.to_move == 0 and legal(g, "displace") == [cyclades.Action("displace", "units", "melos")]
    act(g, "displace", what="units", where="melos")
    assert (unit(g, "troops", "melos"), unit(g, "mercs", "melos")) == (2, 1)
    assert g.state.hero_at["hector"] == idx(g, "melos") and owner(g, "melos") == 1
    assert unit(g, "troops", "ios") == 0 and owner(g, "ios") == 1  # control stays
    assert back_to_turn(g) and sound(g)


def test_boar_destroys_the_units_that_cannot_move_without_a_battle():
    """Calydonian Boar: "If the move is impossible, the Heroes and Troops are destroyed. (...)
    basic Troops return to their owner's personal reserve, mercenary Troops return to the
    general reserve, Hero miniatures also return to the general reserve, and the corresponding
    cards are placed in the discard pile." -- melos holds player 2's troops: a battle."""
    g = buying("calydonian-boar", {**HOME, "ios": {"owner": 1, "troops": 2, "mercs": 1,
                                                   "heroes": ["hector"]},
                                   "melos": {"owner": 2, "troops": 1}})
    mercs = g.state.mercs_left
    place(g, "calydonian-boar", "ios")
    s = g.state
    assert unit(g, "troops", "ios") == 0 and unit(g, "mercs", "ios") == 0
    assert s.troops_left[1] == g.rules.troops and s.mercs_left == mercs + 1
    assert "hector" not in s.hero_at and "hector" in s.hero_discard
    assert owner(g, "ios") == 1 and unit(g, "troops", "melos") == 1 and back_to_turn(g)


def test_a_player_the_boar_eliminates_in_the_maintenance_pays_no_more():
    """Calydonian Boar and R27: kept in the Maintenance Costs, the Boar moves into argos and its
    controller displaces player 1's troop to corinth, "where only another player's Control token
    is located": player 1 gains it, and player 2, whose last land area it was, is eliminated; their
    Nereid leaves the board, and they are not asked to pay for it (a game of the search met this,
    and the engine asked an eliminated player to keep a creature no longer on the board)."""
    g = scenario(areas={"ios": {"owner": 0, "troops": 1}, "argos": {"owner": 1, "troops": 1},
                        "corinth": {"owner": 2}},
                 player=[{"gp": 0, "priestesses": 1}, {"gp": 0}, {"gp": 0, "priestesses": 1}],
                 turn_order=[0, 1, 2], decision={"offerings": {}},
                 creatures={"calydonian-boar": {"owner": 0, "area": "corinth"},
                            "nereid": {"owner": 2, "area": "east"}})
    to_maintenance(g)
    assert g.to_move == 0
    act(g, "keep", what="calydonian-boar")
    act(g, "move_creature", what="calydonian-boar", where="argos")
    assert legal(g, "displace") == [cyclades.Action("displace", "units", "corinth")]
    act(g, "displace", what="units", where="corinth")
    s = g.state
    assert owner(g, "corinth") == 1 and s.eliminated == [False, False, True]
    assert "nereid" not in s.creature_at and "nereid" in s.creature_discard
    assert not any(f["kind"] == "maintain" and f["player"] == 2 for f in s.stack)
    assert g.is_over or g.to_move != 2
    assert sound(g)


def test_boar_area_is_unreachable_and_takes_no_recruits():
    """Calydonian Boar: "This Area is now unreachable for Heroes and Troops of players" and "The
    player who controls the Area with the Calydonian Boar also cannot place recruited Troops and
    Heroes in that Area." """
    g = turn("ares", {"argos": {"owner": 0, "troops": 2}, "corinth": {"owner": 0}},
             creatures={"calydonian-boar": {"owner": 1, "area": "corinth"}})
    assert idx(g, "corinth") not in accessible_lands(g, 0, idx(g, "argos"))
    act(g, "recruit", what="troop", n=2)
    assert wheres(g, "place_troop") == ["argos"]


# --- Polyphemus --------------------------------------------------------------------------------

def test_polyphemus_controller_moves_the_fleets_or_they_are_destroyed():
    """Polyphemus: "Adjacent Sea Areas are inaccessible. All Fleets present are moved to nearby
    Areas or destroyed. (...) The player controlling Polyphemus moves the Fleets in the order and
    direction of their choice. Two Fleets of different colors may not occupy the same Area. If a
    move is impossible, the Fleets are destroyed." -- naxos touches north and east; north's
    fleets (player 1) may go to west (empty) but not south (player 2's)."""
    g = buying("polyphemus", {**HOME, "naxos": {"owner": 1, "troops": 1},
                              "north": {"owner": 1, "fleets": 2}, "east": {"owner": 2, "fleets": 1},
                              "south": {"owner": 2, "fleets": 1}, "ios": {"owner": 2}})
    place(g, "polyphemus", "naxos")
    assert g.to_move == 0 and wheres(g, "origin") == ["east", "north"]
    act(g, "origin", where="north")
    assert wheres(g, "displace") == ["west"]
    act(g, "displace", what="fleet", where="west")
    # now west is player 1's: east's fleet (player 2) can only join its own on south
    assert wheres(g, "origin") == ["east", "north"]
    act(g, "origin", where="east")
    act(g, "displace", what="fleet", where="south")
    assert wheres(g, "displace") == ["west"]  # the last fleet of north: no origin to choose
    act(g, "displace", what="fleet", where="west")
    assert (unit(g, "fleets", "west"), unit(g, "fleets", "south")) == (2, 2)
    assert owner(g, "north") == owner(g, "east") == -1 and back_to_turn(g) and sound(g)


def test_polyphemus_destroys_fleets_with_nowhere_to_go_and_closes_its_seas():
    """Polyphemus: "If a move is impossible, the Fleets are destroyed and returned to the owner's
    reserve." and "No Fleet may occupy or move through these Sea Areas while Polyphemus is in an
    adjacent Land Area." -- player 1's fleets on east: north is closed too, south holds player
    2's fleet. Then a fleet may not be placed on east."""
    g = buying("polyphemus", {**HOME, "naxos": {"owner": 1, "troops": 1},
                              "east": {"owner": 1, "fleets": 2}, "south": {"owner": 2, "fleets": 1},
                              "ios": {"owner": 2}})
    place(g, "polyphemus", "naxos")
    assert unit(g, "fleets", "east") == 0 and g.state.fleets_left[1] == g.rules.fleets
    assert back_to_turn(g)
    # player 0 (Poseidon) may not place a Fleet on east next to ios: it is closed
    g2 = turn("poseidon", {"ios": {"owner": 0, "troops": 1}},
              creatures={"polyphemus": {"owner": 1, "area": "naxos"}})
    act(g2, "recruit", what="fleet", n=1)
    assert wheres(g2, "place_fleet") == ["south"]


# --- Hydra -------------------------------------------------------------------------------------

def test_hydra_must_destroy_a_unit_nearby_for_a_prosperity_token():
    """Hydra: "When it comes into play (...) you must, if possible, destroy one Fleet or Troop in
    its Area, or in an adjacent Area, to add a Prosperity token (on its 1-Cornucopia side) to its
    Area." -- on west: argos and corinth (land), north and south (sea) are adjacent; naxos is
    not. Its buyer's own units count."""
    g = buying("hydra", {"argos": {"owner": 0, "troops": 1}, "corinth": {"owner": 1, "mercs": 1},
                         "north": {"owner": 2, "fleets": 1}, "naxos": {"owner": 2, "troops": 3}})
    place(g, "hydra", "west")
    assert kinds(g) == {"destroy"}  # no way to decline
    assert sorted((a.what, a.where) for a in legal(g, "destroy")) == [
        ("fleet", "north"), ("merc", "corinth"), ("troop", "argos")]
    act(g, "destroy", what="fleet", where="north")
    assert unit(g, "fleets", "north") == 0 and owner(g, "north") == -1
    assert unit(g, "prosperity", "west") == 1 and back_to_turn(g) and sound(g)


def test_hydra_with_no_unit_nearby_adds_nothing():
    """Hydra: "if possible": with no Fleet or Troop in reach, nothing is destroyed and no token
    is added; Heroes are not Troops."""
    g = buying("hydra", {**HOME, "ios": {"owner": 1, "heroes": ["hector"]}})
    place(g, "hydra", "melos")
    assert back_to_turn(g) and unit(g, "prosperity", "melos") == 0
    assert "hector" in g.state.hero_at


def test_hydra_doubles_its_areas_income_for_the_areas_controller():
    """Hydra: "During the Income Phase, double the income of its Area. Income is earned by the
    player who controls the Area where the Hydra is placed." -- melos (2 cornucopias + 1 token)
    pays its controller 6."""
    g = scenario(areas={"melos": {"owner": 1, "troops": 1, "prosperity": 1},
                        "argos": {"owner": 0, "troops": 1}},
                 creatures={"hydra": {"owner": 0, "area": "melos"}},
                 player=[{"gp": 0}, {"gp": 0}, {"gp": 0}], decision={"new_cycle": {}})
    assert g.state.gp[:2] == [1, 6]


def test_hydra_feeds_again_at_each_maintenance():
    """Hydra: "and during each maintenance phase, you must, if possible, destroy one Fleet or
    Troop" -- once kept (and moved, if its owner wishes)."""
    g = scenario(turn_order=[0, 1, 2], areas={**HOME, "ios": {"owner": 1, "troops": 2}},
                 creatures={"hydra": {"owner": 0, "area": "south"}},
                 player=[{"priestesses": 1}, {}, {}])
    to_maintenance(g)
    act(g, "keep", what="hydra")
    act(g, "move_creature", what="hydra", where="east")
    assert sorted((a.what, a.where) for a in legal(g, "destroy")) == [("troop", "ios")]
    act(g, "destroy", what="troop", where="ios")
    assert unit(g, "troops", "ios") == 1 and unit(g, "prosperity", "east") == 1
    assert g.phase == "actions" and sound(g)


# --- Geryon ------------------------------------------------------------------------------------

def test_geryon_collects_a_gp_for_each_destroyed_troop_or_fleet():
    """Geryon: "Each time any basic Troop, mercenary Troop or Fleet of any player is destroyed,
    place 1 GP from the general reserve in the Area where Geryon is." -- the Kraken destroys 2
    Fleets: 2 GP on Geryon's naxos."""
    g = buying("kraken", {**HOME, "north": {"owner": 1, "fleets": 2}},
               creatures={"geryon": {"owner": 2, "area": "naxos"}})
    place(g, "kraken", "north")
    assert unit(g, "geryon_gp", "naxos") == 2
    assert g.view(1)["areas"][idx(g, "naxos")]["geryon_gp"] == 2


def test_geryon_exchanges_are_not_destructions():
    """Hippocampus: "An exchange of Fleets is not considered destruction, so it does not allow
    Geryon to accumulate GP." """
    g = buying("hippocampus", {**HOME, "west": {"owner": 0, "fleets": 2}},
               creatures={"geryon": {"owner": 1, "area": "naxos"}})
    buy(g, "hippocampus")
    act(g, "origin", where="west")
    act(g, "take", what="fleet", n=2)
    assert unit(g, "geryon_gp", "naxos") == 0


def test_geryon_gp_go_to_the_areas_controller_and_stay_when_geryon_moves():
    """Geryon: "In the '2. Income' phase, the player who controls the Area where the GP lie takes
    them into their personal reserve. When Geryon is moved, the GP remain in place." -- 3 GP on
    argos (player 1's), where Geryon stood, and 2 on melos (no one's); Geryon now on naxos, with
    Cerberus (player 2) on argos: the GP go to argos' controller all the same."""
    g = scenario(areas={"argos": {"owner": 1, "troops": 1}, "naxos": {"owner": 0, "troops": 1},
                        "corinth": {"owner": 2}},
                 creatures={"geryon": {"owner": 0, "area": "naxos"},
                            "cerberus": {"owner": 2, "area": "argos"}},
                 player=[{"gp": 0}, {"gp": 0}, {"gp": 0}])
    g.state.geryon_gp[idx(g, "argos")] = 3
    g.state.geryon_gp[idx(g, "melos")] = 2
    income(g)  # 2- Income
    # naxos 1 for player 0; the 3 GP of argos for player 1; argos' cornucopia to Cerberus' owner
    assert g.state.gp == [1, 3, 1]
    assert unit(g, "geryon_gp", "argos") == 0 and unit(g, "geryon_gp", "melos") == 2


# --- Cerberus and the Nereid ------------------------------------------------------------------

def test_cerberus_takes_the_income_of_its_area():
    """Cerberus: "In the Income phase, you earn the Income for that Area instead of the player
    who controls that Area." -- melos (2) to Cerberus' owner, not to its controller."""
    g = scenario(areas={"melos": {"owner": 1, "troops": 1}, "argos": {"owner": 0, "troops": 1}},
                 creatures={"cerberus": {"owner": 0, "area": "melos"}},
                 player=[{"gp": 0}, {"gp": 0}, {"gp": 0}], decision={"new_cycle": {}})
    assert g.state.gp[:2] == [1 + 2, 0]


def test_nereid_takes_the_income_of_its_sea_also_for_the_graeae():
    """Nereid: "the income of the Area where the Nereid is located is received by you, not by the
    player who controls that Area. Note. The Nereid's ability applies when executing the Graeae
    ability." -- east (1 cornucopia, player 1's fleets)."""
    g = buying("graeae", {**HOME, "east": {"owner": 1, "fleets": 1}},
               creatures={"nereid": {"owner": 0, "area": "east"}},
               player=[{"gp": 10}, {"gp": 0}])
    assert income_of(g, 0) == 2 and income_of(g, 1) == 0
    buy(g, "graeae")
    assert g.state.gp[:2] == [10 - 2 + 2, 0]


def test_income_returns_to_the_controller_when_the_nereid_is_not_kept():
    """Nereid: "While you control this Creature": once its maintenance is not paid and it leaves
    the board, the area's controller earns its income again."""
    g = scenario(turn_order=[0, 1, 2], areas={**HOME, "east": {"owner": 1, "fleets": 1},
                                              "naxos": {"owner": 1}},
                 creatures={"nereid": {"owner": 0, "area": "east"}})
    assert income_of(g, 1) == 1
    to_maintenance(g)
    act(g, "release", what="nereid")
    assert income_of(g, 1) == 2 and income_of(g, 0) == 1


# --- Typhon ------------------------------------------------------------------------------------

def test_typhon_silences_the_buildings_on_its_border():
    """Typhon: "All basic Buildings built on the border with the Sea Area where Typhon is placed
    lose their properties" (R15) -- the temples of argos (on west) give no discount; naxos' (not
    on west) still does: the 5 GP slot costs 4."""
    g = buying("kraken", {"argos": {"owner": 0, "troops": 1, "buildings": ["temple", "temple"]},
                          "naxos": {"owner": 0, "buildings": ["temple"]}},
               creatures={"typhon": {"owner": 1, "area": "west"}}, slot=3)
    assert count_in_area(g, idx(g, "argos"), "temple") == 0
    assert legal(g, "buy_creature") == [cyclades.Action("buy_creature", "kraken", n=4)]


def test_typhon_metropolis_keeps_counting_for_victory_and_silenced_buildings_make_none():
    """Typhon: "cannot be used to build a Metropolis" and "Metropolises built on the border (...)
    also lose their properties (Port, Fortress and Temple), but still count for determining the
    winner." -- argos' metropolis gives no fortress bonus but counts; the four types of player 0
    make no metropolis while corinth's port is silenced, and do once Typhon is moved away."""
    g = scenario(turn_order=[0, 1, 2],
                 areas={"argos": {"owner": 1, "troops": 1, "buildings": ["metropolis"]},
                        "corinth": {"owner": 0, "troops": 1, "buildings": ["port", "fortress"]},
                        "naxos": {"owner": 0, "buildings": ["temple", "university"]}},
                 creatures={"typhon": {"owner": 1, "area": "west"}},
                 player=[{}, {"priestesses": 1}, {}])
    assert count_in_area(g, idx(g, "argos"), "fortress") == 0
    assert g.result()["metropolises"][1] == 1
    assert not any(f["kind"] == "metropolis" for f in g.state.stack)
    to_maintenance(g)
    act(g, "keep", what="typhon")
    act(g, "move_creature", what="typhon", where="south")  # corinth is free again
    assert g.state.stack[-1]["kind"] == "metropolis" and g.to_move == 0


def test_typhon_destroyed_by_the_manticore_wakes_the_buildings():
    """Typhon's effect lasts while it is on the board: when the Manticore destroys it ("The
    destroyed miniature is returned to the general reserve"), four basic types no longer
    silenced make a Metropolis "as soon as" (rulebook, Economic development)."""
    g = buying("manticore", {"corinth": {"owner": 0, "troops": 1, "buildings": ["port", "fortress"]},
                             "naxos": {"owner": 0, "buildings": ["temple", "university"]}},
               creatures={"typhon": {"owner": 1, "area": "west"}})
    buy(g, "manticore")
    act(g, "destroy", what="typhon", where="west")
    assert "typhon" not in g.state.creature_at and g.state.stack[-1]["kind"] == "metropolis"


# --- Scylla and Charybdis ----------------------------------------------------------------------

def test_scylla_and_charybdis_placed_on_two_different_seas():
    """Scylla and Charybdis: "Place these Creatures in 2 different Sea Areas." -- one card, two
    miniatures, placed one after the other."""
    g = buying("scylla-charybdis", HOME)
    buy(g, "scylla-charybdis")
    assert wheres(g, "place_creature") == ["east", "north", "south", "west"]
    act(g, "place_creature", what="scylla", where="west")
    assert legal(g, "place_creature")[0].what == "charybdis"
    assert wheres(g, "place_creature") == ["east", "north", "south"]
    act(g, "place_creature", what="charybdis", where="east")
    s = g.state
    assert (s.creature_at["scylla"], s.creature_at["charybdis"]) == (idx(g, "west"), idx(g, "east"))
    assert s.creature_owner["scylla-charybdis"] == 0 and back_to_turn(g) and sound(g)
    assert {c["area"] for c in g.view(1)["miniatures"].values()} == {"west", "east"}


def test_scylla_and_charybdis_need_two_free_seas():
    """Scylla and Charybdis: "2 different Sea Areas" without a Creature: with one left, the card
    is discarded without effect."""
    g = buying("scylla-charybdis", HOME, creatures={"typhon": {"owner": 1, "area": "east"},
                                                    "nereid": {"owner": 1, "area": "north"},
                                                    "kraken": {"owner": 2, "area": "west"}})
    assert wasted(buy(g, "scylla-charybdis"), "scylla-charybdis")


def test_scylla_and_charybdis_link_their_seas_for_their_owners_fleets():
    """Scylla and Charybdis: "These 2 Sea Areas count as adjacent for your Fleets. A player may
    move their Fleets from the Area with Charybdis into the Area with Scylla, and vice versa, and
    the Fleets located in these Areas form a chain along which the player's Troops and Heroes may
    move." -- west and east are not adjacent; with the link, argos' troops reach naxos."""
    areas = {"argos": {"owner": 0, "troops": 2}, "west": {"owner": 0, "fleets": 1},
             "east": {"owner": 0, "fleets": 1}}
    g = turn("ares", areas)
    assert accessible_lands(g, 0, idx(g, "argos")) == {idx(g, "corinth")}
    g = turn("ares", areas)
    scylla_charybdis(g, 0, "west", "east")
    assert accessible_lands(g, 0, idx(g, "argos")) == {idx(g, x) for x in ("corinth", "naxos", "ios")}
    act(g, "land_move", n=1)
    act(g, "origin", where="argos")
    act(g, "take", what="troop", n=1)
    assert wheres(g, "destination") == ["corinth", "ios", "naxos"]


def test_scylla_and_charybdis_sea_move_for_the_owner_only():
    """Scylla and Charybdis: "count as adjacent for YOUR Fleets": a Sea Move from west reaches
    east for their owner, not for another player."""
    for p, expect in ((0, ["east", "north", "south"]), (1, ["north", "south"])):
        g = turn("poseidon", {"argos": {"owner": 0, "troops": 1}, "west": {"owner": 0, "fleets": 1}})
        scylla_charybdis(g, p, "west", "east")
        act(g, "sea_move", n=1)
        act(g, "origin", where="west")
        act(g, "take", what="fleet", n=1)
        assert wheres(g, "destination") == expect


def test_scylla_and_charybdis_kept_with_one_priestess_each_miniature_may_move():
    """Rulebook, 4- Maintenance Costs: one Priestess per Creature card kept; Scylla and Charybdis
    are one card, and each miniature may then move to an adjacent free sea."""
    g = scenario(turn_order=[0, 1, 2], areas=HOME, player=[{"priestesses": 1}, {}, {}])
    scylla_charybdis(g, 0, "west", "east")
    to_maintenance(g)
    assert legal(g, "keep") == [cyclades.Action("keep", "scylla-charybdis")]
    act(g, "keep", what="scylla-charybdis")
    assert g.state.priestesses[0] == 0
    assert wheres(g, "move_creature") == ["north", "south"] and legal(g, "stay")[0].what == "scylla"
    act(g, "move_creature", what="scylla", where="south")
    assert legal(g, "stay") == [cyclades.Action("stay", "charybdis")]
    assert wheres(g, "move_creature") == ["north"]  # south holds Scylla now
    act(g, "stay", what="charybdis")
    assert g.state.creature_at["scylla"] == idx(g, "south") and g.phase == "actions" and sound(g)


def test_scylla_and_charybdis_released_together():
    """Rulebook, 4- Maintenance Costs: "If you don't pay the Maintenance Costs, the miniature is
    removed from the board and the card goes into the Creature discard pile" -- both miniatures,
    one card."""
    g = scenario(turn_order=[0, 1, 2], areas=HOME, creature_discard=[])
    scylla_charybdis(g, 0, "west", "east")
    to_maintenance(g)
    act(g, "release", what="scylla-charybdis")
    s = g.state
    assert "scylla" not in s.creature_at and "charybdis" not in s.creature_at
    assert s.creature_discard == ["scylla-charybdis"] and sound(g)


def test_scylla_and_charybdis_leave_with_an_eliminated_player():
    """R27: an eliminated player's "remaining units leave the board" -- creature cards included,
    both miniatures of Scylla and Charybdis."""
    g = scenario(areas={**HOME, "ios": {"owner": 1}})
    scylla_charybdis(g, 1, "west", "east")
    ops.take_control(g, idx(g, "ios"), 0)  # player 1's last land area is lost
    assert g.state.eliminated[1]
    assert "scylla" not in g.state.creature_at and "charybdis" not in g.state.creature_at


# --- Chiron ------------------------------------------------------------------------------------

def test_chiron_shields_its_area_from_other_players_creatures():
    """Chiron: "Other players cannot move Creatures into the Area with Chiron, and cannot choose
    this Area, or anything located in it (...Troops, etc.), as a target for Creature abilities."
    -- the Hydra (player 0) on west may not eat the troop in Chiron's corinth; the Boar's
    controller may not displace units into it."""
    g = buying("hydra", {"argos": {"owner": 1, "troops": 1}, "corinth": {"owner": 1, "troops": 1}},
               creatures={"chiron": {"owner": 1, "area": "corinth"}})
    place(g, "hydra", "west")
    assert sorted((a.what, a.where) for a in legal(g, "destroy")) == [("troop", "argos")]
    g = buying("calydonian-boar", {**HOME, "corinth": {"owner": 1, "troops": 1}, "argos": {"owner": 1, "troops": 1},
                                   "naxos": {"owner": 0, "troops": 1}},
               creatures={"chiron": {"owner": 1, "area": "corinth"}})
    place(g, "calydonian-boar", "argos")
    assert unit(g, "troops", "argos") == 0 and g.state.troops_left[1] == g.rules.troops - 1  # destroyed
    assert unit(g, "troops", "corinth") == 1


def test_chiron_does_not_shield_its_area_from_its_owner():
    """Chiron: only "Other players" are barred: Chiron's owner's Hydra may eat a troop there."""
    g = buying("hydra", {"argos": {"owner": 1, "troops": 1}, "corinth": {"owner": 0, "troops": 1}},
               creatures={"chiron": {"owner": 0, "area": "corinth"}})
    place(g, "hydra", "west")
    assert sorted((a.what, a.where) for a in legal(g, "destroy")) == [("troop", "argos"),
                                                                      ("troop", "corinth")]


def test_no_creature_moves_into_chirons_area_in_maintenance():
    """Chiron: "Other players cannot move Creatures into the Area with Chiron" (and no Creature
    may stand where another is, rulebook 4- Maintenance Costs): the Medusa next to it stays."""
    g = scenario(turn_order=[0, 1, 2], areas=HOME, player=[{"priestesses": 1}, {}, {}],
                 creatures={"medusa": {"owner": 0, "area": "argos"},
                            "chiron": {"owner": 1, "area": "corinth"}})
    to_maintenance(g)
    act(g, "keep", what="medusa")
    assert wheres(g, "move_creature") == []
