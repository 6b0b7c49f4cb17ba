"""The Mythological Creatures without miniatures (rulebook, "Creature Descriptions"; the
Maelström texts are the wording of their cards, R2). For each card: its effect, and its limit
(what its text forbids, or the case where it is discarded without effect: rulebook,
"Mythological Creatures": "If you cannot use the Creature's effect, it is immediately
discarded without effect")."""
from positions import act, back_to_turn, buy, idx, kinds, legal, scenario, sites, wasted, wheres

from cyclades.engine.queries import area_income

# small map: argos (2 sites, 1 cornucopia) and corinth (2 sites, Priestess icon) form one island
# with the seas west, south / west, north; naxos (3 sites, 1 cornucopia) touches north and east;
# melos (1 site, 2 cornucopias) and ios (2 sites) touch south, and ios touches east (1 cornucopia).


def buying(card, areas, player=None, god="zeus", **data):
    """Player 0 in the optional actions of a `god` turn, `card` on the 2 GP slot of the track."""
    data.setdefault("creature_track", [card, None, None, None])
    # the deck holds the two cards unless a player holds them (one place per card)
    data.setdefault("creature_deck", [c for c in ("medusa", "kraken") if c not in data.get("creatures", {})])
    return scenario(areas=areas, player=player or [{"gp": 10}],
                    decision={"turn": {"player": 0, "god": god, "stage": "main"}}, **data)


HOME = {"argos": {"owner": 0, "troops": 1}}


# --- Charon -----------------------------------------------------------------------------

def test_charon_swaps_a_hero_with_one_of_the_track():
    """Charon: "Swap one of your Heroes with one of the available Heroes on the Hero track. The
    new Hero recruited in this way cannot be sacrificed during this Cycle." The new miniature
    stands where the old one stood; the old Hero takes the new one's place on the track."""
    g = buying("charon", {"argos": {"owner": 0, "troops": 1, "heroes": ["ajax"]}},
               hero_track=["hector", "helen"], cycle=3)
    buy(g, "charon")
    assert [a.what for a in legal(g, "swap_hero")] == ["ajax"]
    act(g, "swap_hero", what="ajax")
    assert sorted(a.what for a in legal(g, "choose_hero")) == ["hector", "helen"]
    act(g, "choose_hero", what="hector")
    s = g.state
    assert s.hero_at["hector"] == idx(g, "argos") and s.hero_owner["hector"] == 0
    assert s.hero_since["hector"] == 3  # recruited this Cycle: no sacrifice now
    assert "ajax" not in s.hero_at and "ajax" not in s.hero_owner
    assert s.hero_track == ["ajax", "helen"]
    assert "charon" in s.creature_discard and back_to_turn(g)


def test_charon_discarded_without_effect_when_the_hero_track_is_empty():
    """Charon: "If the Hero track contains no Hero cards, you cannot use Charon's effect and the
    card is discarded without effect." (Nor without a Hero of one's own to swap.)"""
    g = buying("charon", {"argos": {"owner": 0, "troops": 1, "heroes": ["ajax"]}},
               hero_track=[None, None])
    events = buy(g, "charon")
    assert wasted(events, "charon") and g.state.creature_discard == ["charon"]
    assert g.state.hero_owner == {"ajax": 0} and g.state.gp[0] == 8 and back_to_turn(g)
    g = buying("charon", HOME, hero_track=["hector", None])
    assert wasted(buy(g, "charon"), "charon")


# --- Chimera ----------------------------------------------------------------------------

def test_chimera_plays_a_card_of_the_discard_pile_then_reshuffles():
    """Chimera: "Play a Creature card from the Creature discard pile for free, then discard the
    Chimera" -- whose discard shuffles the Creature deck and discard pile together."""
    g = buying("chimera", HOME, player=[{"gp": 10}, {"priestesses": 1}],
               creature_deck=["giant"], creature_discard=["dryad"])
    buy(g, "chimera")
    assert [a.what for a in legal(g, "choose_card")] == ["dryad"]
    act(g, "choose_card", what="dryad")
    act(g, "target_player", n=1)  # the Dryad's own decision
    s = g.state
    assert s.priestesses[:2] == [1, 0] and s.gp[0] == 8  # free: only the Chimera was paid
    assert s.creature_discard == [] and sorted(s.creature_deck) == ["chimera", "dryad", "giant"]
    assert back_to_turn(g)


def test_chimera_simply_discarded_when_the_discard_pile_is_empty():
    """Chimera: "(if the creature Discard Pile is empty, the Chimera is simply discarded)" --
    and its discard still shuffles it into the deck."""
    g = buying("chimera", HOME, creature_deck=["giant"], creature_discard=[])
    events = buy(g, "chimera")
    assert wasted(events, "chimera")
    assert g.state.creature_discard == [] and sorted(g.state.creature_deck) == ["chimera", "giant"]


def test_chimera_offers_only_cards_whose_effect_can_be_used():
    """A discarded card that "you cannot use" would only be discarded again: the Dryad is not
    offered when no other player has a Priestess."""
    g = buying("chimera", HOME, creature_discard=["dryad", "griffin"])
    buy(g, "chimera")
    assert [a.what for a in legal(g, "choose_card")] == ["griffin"]


# --- Cyclops ----------------------------------------------------------------------------

def test_cyclops_exchanges_a_basic_building_for_another_type():
    """Cyclops: "Exchange one of your basic Buildings for another basic Building from the
    reserve." The new type differs from the old one."""
    g = buying("cyclops", {"argos": {"owner": 0, "troops": 1, "buildings": ["port"]}})
    buy(g, "cyclops")
    assert [(a.what, a.where) for a in legal(g, "replace")] == [("port", "argos")]
    act(g, "replace", what="port", where="argos")
    assert sorted(a.what for a in legal(g, "choose_building")) == ["fortress", "temple",
                                                                    "university"]
    act(g, "choose_building", what="temple")
    assert sites(g, "argos") == ["temple", ""] and back_to_turn(g)


def test_cyclops_discarded_without_a_basic_building():
    """Cyclops: with no basic Building of one's own (a Metropolis is not one) there is nothing
    to exchange; another player's buildings are not offered."""
    g = buying("cyclops", {"argos": {"owner": 0, "troops": 1, "buildings": ["metropolis"]},
                           "naxos": {"owner": 1, "buildings": ["port"]}})
    assert wasted(buy(g, "cyclops"), "cyclops")
    assert sites(g, "naxos") == ["port", "", ""]


def test_cyclops_completing_the_four_types_builds_a_metropolis():
    """Metropolises, Economic development: "As soon as a player has all 4 types of basic
    Buildings" -- an exchange by the Cyclops counts."""
    g = buying("cyclops", {"argos": {"owner": 0, "troops": 1, "buildings": ["port", "temple"]},
                           "naxos": {"owner": 0, "buildings": ["university", "university"]}})
    buy(g, "cyclops")
    act(g, "replace", what="university", where="naxos")
    act(g, "choose_building", what="fortress")
    assert g.state.stack[-1]["kind"] == "metropolis"


# --- Dryad ------------------------------------------------------------------------------

def test_dryad_steals_a_priestess():
    """Dryad: "Steal a Priestess card from another player." Only a player who has one is offered."""
    g = buying("dryad", HOME, player=[{"gp": 10}, {"priestesses": 2}, {"priestesses": 0}])
    buy(g, "dryad")
    assert [a.n for a in legal(g, "target_player")] == [1]
    act(g, "target_player", n=1)
    assert g.state.priestesses == [1, 1, 0] and back_to_turn(g)


def test_dryad_discarded_when_no_other_player_has_a_priestess():
    """Dryad: "from another player" -- one's own Priestesses do not count."""
    g = buying("dryad", HOME, player=[{"gp": 10, "priestesses": 2}])
    assert wasted(buy(g, "dryad"), "dryad")
    assert g.state.priestesses[0] == 2


# --- Echidna ----------------------------------------------------------------------------

def test_echidna_steals_a_creature_and_may_move_its_miniature():
    """Echidna: "Steal 1 Creature card from another player (...) Then you may move the
    corresponding Creature miniature to any Area (Land or Sea) indicated on the Creature card
    as valid": the card's area type, and no other Creature there."""
    g = buying("echidna", HOME, creatures={"typhon": {"owner": 1, "area": "east"},
                                           "kraken": {"owner": 2, "area": "north"}})
    buy(g, "echidna")
    assert sorted((a.what, a.where) for a in legal(g, "steal")) == [("kraken", "north"),
                                                                    ("typhon", "east")]
    act(g, "steal", what="typhon", where="east")
    assert g.state.creature_owner["typhon"] == 0
    assert kinds(g) == {"stay", "move_creature"}
    assert wheres(g, "move_creature") == ["south", "west"]  # seas, not the Kraken's
    act(g, "move_creature", what="typhon", where="west")
    assert g.state.creature_at["typhon"] == idx(g, "west") and back_to_turn(g)


def test_echidna_moving_the_kraken_destroys_the_fleets_there():
    """Kraken: "If there are Fleets in the Sea Area in which the Kraken is placed or is moved to,
    they are destroyed" -- moved by the Echidna too."""
    g = buying("echidna", {**HOME, "west": {"owner": 2, "fleets": 2}},
               creatures={"kraken": {"owner": 1, "area": "north"}})
    left = g.state.fleets_left[2]
    buy(g, "echidna")
    act(g, "steal", what="kraken", where="north")
    act(g, "move_creature", what="kraken", where="west")
    s = g.state
    assert s.fleets[idx(g, "west")] == 0 and s.ctrl[idx(g, "west")] == -1
    assert s.fleets_left[2] == left + 2


def test_echidna_steals_scylla_and_charybdis_and_may_move_both():
    """Echidna: "Steal 1 Creature card": Scylla and Charybdis are one card with two miniatures;
    each may then be moved."""
    g = buying("echidna", HOME)
    s = g.state
    s.creature_owner["scylla-charybdis"] = 1
    s.creature_at.update(scylla=idx(g, "north"), charybdis=idx(g, "south"))
    buy(g, "echidna")
    assert [(a.what, a.where) for a in legal(g, "steal")] == [("scylla-charybdis", "north")]
    act(g, "steal", what="scylla-charybdis", where="north")
    assert wheres(g, "move_creature") == ["east", "west"]
    act(g, "move_creature", what="scylla", where="east")
    act(g, "stay", what="charybdis")
    assert s.creature_owner["scylla-charybdis"] == 0
    assert s.creature_at["scylla"] == idx(g, "east")
    assert s.creature_at["charybdis"] == idx(g, "south")
    assert back_to_turn(g)


def test_echidna_may_leave_the_miniature_in_place():
    """Echidna: "you MAY move" the miniature."""
    g = buying("echidna", HOME, creatures={"typhon": {"owner": 1, "area": "east"}})
    buy(g, "echidna")
    act(g, "steal", what="typhon", where="east")
    act(g, "stay", what="typhon")
    assert g.state.creature_owner["typhon"] == 0 and g.state.creature_at["typhon"] == idx(g, "east")


def test_echidna_cannot_take_chiron_or_move_into_its_area():
    """Chiron (Maelström): other players "cannot move Creatures into the Area with Chiron, and
    cannot choose this Area, or anything located in it (Chiron...), as a target"."""
    g = buying("echidna", HOME, creatures={"chiron": {"owner": 1, "area": "ios"},
                                           "medusa": {"owner": 2, "area": "naxos"}})
    buy(g, "echidna")
    assert [a.what for a in legal(g, "steal")] == ["medusa"]
    act(g, "steal", what="medusa", where="naxos")
    assert wheres(g, "move_creature") == ["argos", "corinth", "melos"]  # lands, not Chiron's ios


def test_echidna_discarded_without_another_players_creature():
    """Echidna: "from another player": one's own creature is not a target; nor is Chiron for
    anyone who does not control it."""
    g = buying("echidna", HOME, creatures={"medusa": {"owner": 0, "area": "naxos"},
                                           "chiron": {"owner": 1, "area": "ios"}})
    assert wasted(buy(g, "echidna"), "echidna")
    assert g.state.creature_owner == {"medusa": 0, "chiron": 1}


# --- Empusa -----------------------------------------------------------------------------

def test_empusa_repeats_the_free_actions_of_the_turns_god():
    """Empusa: "Perform again the free mandatory actions of the god to whom you made an Offering
    in the current Cycle" -- with Ares: a Fortress, then a Troop, both free."""
    g = buying("empusa", HOME, god="ares")
    buy(g, "empusa")
    assert [(a.what, a.where) for a in legal(g, "build")] == [("fortress", "argos")]
    act(g, "build", what="fortress", where="argos")
    assert wheres(g, "place_troop") == ["argos"]
    act(g, "place_troop", where="argos")
    assert sites(g, "argos") == ["fortress", ""] and g.state.troops[idx(g, "argos")] == 2
    assert g.state.gp[0] == 8 and back_to_turn(g)


def test_empusa_follows_the_god_of_the_turn_only():
    """Empusa: the god to whom YOU made an Offering: with Zeus a Temple and a Priestess, not
    another god's building or unit."""
    g = buying("empusa", HOME, god="zeus")
    buy(g, "empusa")
    assert {a.what for a in legal(g, "build")} == {"temple"}
    act(g, "build", what="temple", where="argos")
    assert g.state.priestesses[0] == 1 and g.state.troops[idx(g, "argos")] == 1 and back_to_turn(g)


# --- Erinyes ----------------------------------------------------------------------------

def test_erinyes_moves_one_cornucopia_of_a_two_cornucopia_token():
    """Erinyes: "Move 1 Prosperity token (with its 1-Cornucopia side) to any other Land or Sea
    Area. The token being moved may belong to any player." Note: a 2-Cornucopia token is first
    replaced with 2 tokens of 1 Cornucopia each, and one of them is moved."""
    g = buying("erinyes", {**HOME, "melos": {"owner": 1, "prosperity": 2}})
    buy(g, "erinyes")
    assert wheres(g, "origin") == ["melos"]
    act(g, "origin", where="melos")
    assert "melos" not in wheres(g, "destination")  # to ANOTHER area
    act(g, "destination", where="east")
    assert g.state.prosperity[idx(g, "melos")] == 1 and g.state.prosperity[idx(g, "east")] == 1
    assert area_income(g, idx(g, "melos")) == 3 and area_income(g, idx(g, "east")) == 2
    assert back_to_turn(g)


def test_erinyes_discarded_when_the_only_token_is_under_chirons_protection():
    """Chiron: another player cannot choose "anything located in it (Chiron, Prosperity
    tokens...)" as a target; with no other token the Erinyes are discarded without effect."""
    g = buying("erinyes", {**HOME, "ios": {"owner": 1, "prosperity": 1}},
               creatures={"chiron": {"owner": 1, "area": "ios"}})
    assert wasted(buy(g, "erinyes"), "erinyes")
    assert g.state.prosperity[idx(g, "ios")] == 1


# --- Giant ------------------------------------------------------------------------------

def test_giant_steals_all_mercenaries_of_an_area():
    """Giant: "Steal all mercenary Troops from one Land Area. Place them on one or more Land Areas
    you control." The robbed area keeps its other units."""
    g = buying("giant", {**HOME, "naxos": {"owner": 0},
                         "ios": {"owner": 1, "troops": 1, "mercs": 2}})
    buy(g, "giant")
    assert wheres(g, "steal") == ["ios"]
    act(g, "steal", what="mercs", where="ios")
    assert wheres(g, "place_merc") == ["argos", "naxos"]
    act(g, "place_merc", where="argos")
    act(g, "place_merc", where="naxos")
    s = g.state
    ios = idx(g, "ios")
    assert s.mercs[ios] == 0 and s.troops[ios] == 1 and s.ctrl[ios] == 1
    assert s.mercs[idx(g, "argos")] == 1 and s.mercs[idx(g, "naxos")] == 1
    assert s.mercs_left == 14 and back_to_turn(g)


def test_giant_robbed_area_keeps_its_control_token():
    """R16: a land area emptied of units keeps its controller's Control token."""
    g = buying("giant", {**HOME, "ios": {"owner": 1, "mercs": 1}})
    buy(g, "giant")
    act(g, "steal", what="mercs", where="ios")
    act(g, "place_merc", where="argos")
    assert g.state.ctrl[idx(g, "ios")] == 1 and g.state.mercs[idx(g, "ios")] == 0


def test_giant_discarded_without_another_players_mercenaries():
    """Giant: "Steal" -- one's own mercenaries are not a target, nor those in the area of
    another player's Chiron."""
    g = buying("giant", {"argos": {"owner": 0, "mercs": 2}, "ios": {"owner": 1, "mercs": 1}},
               creatures={"chiron": {"owner": 1, "area": "ios"}})
    assert wasted(buy(g, "giant"), "giant")
    assert g.state.mercs[idx(g, "ios")] == 1


def test_giant_cannot_take_mercenaries_out_of_medusas_area():
    """Medusa: "No basic Troops, mercenary Troops, or Heroes may (...) leave this Area": the Giant's
    stolen mercenaries would leave it (unlike the Hippalectryon's exchange, which the Maelström
    note allows)."""
    g = buying("giant", {**HOME, "ios": {"owner": 1, "mercs": 2}},
               creatures={"medusa": {"owner": 2, "area": "ios"}})
    assert wasted(buy(g, "giant"), "giant")
    assert g.state.mercs[idx(g, "ios")] == 2


# --- Graeae -----------------------------------------------------------------------------

def test_graeae_repeats_the_buyers_income():
    """The Graeae: "Repeat your Income Phase. You receive 1 GP for each Cornucopia (on Prosperity
    tokens and/or icon) present in the Land and Sea Areas you control" -- and no one else is
    paid."""
    g = buying("graeae", {**HOME, "melos": {"owner": 0, "prosperity": 1},
                          "east": {"owner": 0, "fleets": 1}, "naxos": {"owner": 1}},
               player=[{"gp": 10}, {"gp": 5}])
    buy(g, "graeae")
    # argos 1 + melos 2 + 1 token + east 1 = 5; naxos (1) is player 1's
    assert g.state.gp[:2] == [10 - 2 + 5, 5]
    assert "graeae" in g.state.creature_discard and back_to_turn(g)


def test_graeae_counts_areas_controlled_at_the_time_of_use():
    """The Graeae: "at the time you use the Graeae card": an area lost before counts for nothing,
    a sea without fleets is no one's (R16)."""
    g = buying("graeae", {"ios": {"owner": 0, "troops": 1}, "melos": {"owner": 1, "troops": 1}},
               player=[{"gp": 2}])
    buy(g, "graeae")
    assert g.state.gp[0] == 0


def test_graeae_take_geryons_gp_and_the_nereids_income():
    """Geryon note: "When executing the Graeae ability, a player receives the GP accumulated by
    Geryon if they control the Area in which they lie." Nereid note: "The Nereid's ability applies
    when executing the Graeae ability" (its owner, not the sea's controller, is paid)."""
    g = buying("graeae", {"ios": {"owner": 0, "troops": 1}, "east": {"owner": 1, "fleets": 1}},
               creatures={"geryon": {"owner": 2, "area": "naxos"},
                          "nereid": {"owner": 0, "area": "east"}},
               player=[{"gp": 2}, {"gp": 0}])
    g.state.geryon_gp[idx(g, "ios")] = 3
    buy(g, "graeae")
    assert g.state.gp[:2] == [3 + 1, 0]  # Geryon's 3 GP on ios, the east's 1 Cornucopia
    assert g.state.geryon_gp[idx(g, "ios")] == 0  # taken


# --- Griffin ----------------------------------------------------------------------------

def test_griffin_steals_half_the_gp_rounded_down():
    """Griffin: "Steal half the GP (rounded down) from another player." """
    g = buying("griffin", HOME, player=[{"gp": 10}, {"gp": 7}, {"gp": 4}])
    buy(g, "griffin")
    act(g, "target_player", n=1)
    assert g.state.gp == [8 + 3, 4, 4] and back_to_turn(g)


def test_griffin_offers_every_other_player_whatever_their_hidden_gp():
    """Griffin: GP are hidden (R24), so every other player is a target, even one whose half is 0."""
    g = buying("griffin", HOME, player=[{"gp": 10}, {"gp": 1}, {"gp": 0}])
    buy(g, "griffin")
    assert [a.n for a in legal(g, "target_player")] == [1, 2]
    act(g, "target_player", n=1)
    assert g.state.gp == [8, 1, 0]


# --- Harpy ------------------------------------------------------------------------------

def test_harpy_destroys_a_troop_or_a_mercenary():
    """Harpy: "Destroy a Troop in a Land Area. This can be a basic Troop or a mercenary Troop."
    A basic Troop returns to its owner's reserve."""
    g = buying("harpy", {**HOME, "ios": {"owner": 1, "troops": 1, "mercs": 1}})
    buy(g, "harpy")
    assert ("merc", "ios") in [(a.what, a.where) for a in legal(g, "destroy")]
    left = g.state.troops_left[1]
    events = act(g, "destroy", what="troop", where="ios")
    s = g.state
    ios = idx(g, "ios")
    assert s.troops[ios] == 0 and s.mercs[ios] == 1 and s.troops_left[1] == left + 1
    assert any(e["type"] == "destroyed" and e["unit"] == "troop" for e in events)
    assert s.ctrl[idx(g, "ios")] == 1 and back_to_turn(g)


def test_harpy_cannot_destroy_a_hero():
    """Harpy: "The Harpy cannot destroy a Hero." An area held by a Hero alone is no target."""
    g = buying("harpy", {"argos": {"owner": 0, "heroes": ["ajax"]},
                         "ios": {"owner": 1, "heroes": ["hector"]}})
    assert wasted(buy(g, "harpy"), "harpy")
    assert g.state.hero_at == {"ajax": idx(g, "argos"), "hector": idx(g, "ios")}


def test_harpy_cannot_target_chirons_area():
    """Chiron: its area cannot be targeted by another player's Creature."""
    g = buying("harpy", {**HOME, "ios": {"owner": 1, "troops": 2}},
               creatures={"chiron": {"owner": 1, "area": "ios"}})
    buy(g, "harpy")
    assert wheres(g, "destroy") == ["argos"]


# --- Hippalectryon ------------------------------------------------------------------------

def test_hippalectryon_exchanges_mercenaries_repeatedly():
    """Hippalectryon: "Exchange 2 of your mercenary Troops for 1 Prosperity token, or for 1
    Priestess card, or for 1 Philosopher card, returning those Troops to the general reserve.
    Place the Prosperity token (...) in any Area of your choice. You may make this exchange any
    number of times". An exchange is not a destruction."""
    g = buying("hippalectryon", {"argos": {"owner": 0, "mercs": 2},
                                 "naxos": {"owner": 0, "troops": 1, "mercs": 2}})
    buy(g, "hippalectryon")
    assert sorted(a.what for a in legal(g, "exchange")) == ["philosopher", "priestess",
                                                             "prosperity"]
    assert "done" not in kinds(g)  # the first exchange is the card's effect
    events = act(g, "exchange", what="priestess")
    events += act(g, "return_merc", where="argos")
    events += act(g, "return_merc", where="argos")
    assert g.state.priestesses[0] == 1 and g.state.ctrl[idx(g, "argos")] == 0  # emptied: the token stays
    assert "done" in kinds(g)
    events += act(g, "exchange", what="prosperity")
    events += act(g, "return_merc", where="naxos")
    events += act(g, "return_merc", where="naxos")
    events += act(g, "prosperity", where="east")  # any area, controlled or not
    assert g.state.prosperity[idx(g, "east")] == 1 and g.state.mercs_left == 16
    assert not any(e["type"] == "destroyed" for e in events)
    assert back_to_turn(g)  # no mercenaries left: the effect ends


def test_hippalectryon_discarded_with_a_single_mercenary():
    """Hippalectryon: an exchange takes 2 mercenary Troops; with one there is none to make."""
    g = buying("hippalectryon", {"argos": {"owner": 0, "mercs": 1}})
    assert wasted(buy(g, "hippalectryon"), "hippalectryon")
    assert g.state.mercs[idx(g, "argos")] == 1


def test_hippalectryon_works_in_medusas_area():
    """Hippalectryon note: "can be applied to mercenary Troops located in an Area with Medusa"."""
    g = buying("hippalectryon", {"argos": {"owner": 0, "mercs": 2}},
               creatures={"medusa": {"owner": 1, "area": "argos"}})
    buy(g, "hippalectryon")
    act(g, "exchange", what="priestess")
    assert wheres(g, "return_merc") == ["argos"]


def test_hippalectryon_fourth_philosopher_builds_a_metropolis():
    """Cultural development: "As soon as a player has 4 Philosopher cards, they discard them and
    build a Metropolis" -- the Hippalectryon's Philosopher included."""
    g = buying("hippalectryon", {"argos": {"owner": 0, "mercs": 2}},
               player=[{"gp": 10, "philosophers": 3}])
    buy(g, "hippalectryon")
    act(g, "exchange", what="philosopher")
    act(g, "return_merc", where="argos")
    act(g, "return_merc", where="argos")
    assert g.state.philosophers[0] == 0 and g.state.stack[-1]["kind"] == "metropolis"


# --- Hippocampus --------------------------------------------------------------------------

def test_hippocampus_turns_fleets_into_mercenaries():
    """Hippocampus: "Exchange any number of your Fleets in 1 Sea Area you control for the same
    number of mercenary Troops (...) Place the received Troops in 1 or more Land Areas you
    control, and return the exchanged Fleets to your personal reserve." Not a destruction."""
    g = buying("hippocampus", {**HOME, "corinth": {"owner": 0}, "west": {"owner": 0, "fleets": 3},
                               "east": {"owner": 1, "fleets": 2}})
    buy(g, "hippocampus")
    assert wheres(g, "origin") == ["west"]  # only the buyer's seas
    act(g, "origin", where="west")
    assert [a.n for a in legal(g, "take")] == [1, 2, 3]
    fleets_left = g.state.fleets_left[0]
    events = act(g, "take", what="fleet", n=2)
    events += act(g, "place_merc", where="argos")
    events += act(g, "place_merc", where="corinth")
    s = g.state
    assert s.fleets[idx(g, "west")] == 1 and s.fleets_left[0] == fleets_left + 2
    assert s.mercs[idx(g, "argos")] == 1 and s.mercs[idx(g, "corinth")] == 1
    assert not any(e["type"] == "destroyed" for e in events) and back_to_turn(g)


def test_hippocampus_emptied_sea_is_no_ones():
    """R16: "An empty Sea Area is not controlled by anyone"."""
    g = buying("hippocampus", {**HOME, "west": {"owner": 0, "fleets": 1}})
    buy(g, "hippocampus")
    act(g, "origin", where="west")
    act(g, "take", what="fleet", n=1)
    act(g, "place_merc", where="argos")
    assert g.state.ctrl[idx(g, "west")] == -1


def test_hippocampus_discarded_without_a_fleet():
    """Hippocampus: Fleets "in 1 Sea Area you control": none, no effect."""
    g = buying("hippocampus", {**HOME, "east": {"owner": 1, "fleets": 2}})
    assert wasted(buy(g, "hippocampus"), "hippocampus")


# --- Manticore ----------------------------------------------------------------------------

def test_manticore_destroys_a_creature():
    """Manticore: "Destroy 1 Creature or 1 Hero of your choice. The destroyed miniature is
    returned to the general reserve, and the card is placed in the corresponding discard pile." """
    g = buying("manticore", {**HOME, "ios": {"owner": 1, "troops": 1, "heroes": ["hector"]}},
               creatures={"kraken": {"owner": 1, "area": "east"}}, creature_discard=[])
    buy(g, "manticore")
    assert sorted((a.what, a.where) for a in legal(g, "destroy")) == [("hector", "ios"),
                                                                      ("kraken", "east")]
    act(g, "destroy", what="kraken", where="east")
    s = g.state
    assert "kraken" not in s.creature_at and "kraken" not in s.creature_owner
    assert sorted(s.creature_discard) == ["kraken", "manticore"] and back_to_turn(g)


def test_manticore_destroying_scylla_and_charybdis_removes_both_miniatures():
    """Manticore: "the card is placed in the corresponding discard pile" -- the card of Scylla
    and Charybdis is one, so both its miniatures leave the board."""
    g = buying("manticore", HOME)
    s = g.state
    s.creature_owner["scylla-charybdis"] = 1
    s.creature_at.update(scylla=idx(g, "north"), charybdis=idx(g, "south"))
    buy(g, "manticore")
    act(g, "destroy", what="scylla-charybdis", where="north")
    assert "scylla" not in s.creature_at and "charybdis" not in s.creature_at
    assert "scylla-charybdis" not in s.creature_owner and "scylla-charybdis" in s.creature_discard


def test_manticore_destroys_a_hero_even_in_medusas_area():
    """Manticore note: "Manticore can destroy a Hero located in the Area with Medusa"."""
    g = buying("manticore", {**HOME, "ios": {"owner": 1, "troops": 1, "heroes": ["hector"]}},
               creatures={"medusa": {"owner": 1, "area": "ios"}})
    buy(g, "manticore")
    act(g, "destroy", what="hector", where="ios")
    assert "hector" not in g.state.hero_at and "hector" in g.state.hero_discard
    assert g.state.ctrl[idx(g, "ios")] == 1


def test_manticore_completely_blocked_by_chiron():
    """Manticore note: "her ability is completely blocked by Chiron": neither Chiron nor a Hero in
    its area may be chosen."""
    g = buying("manticore", {**HOME, "ios": {"owner": 1, "heroes": ["hector"]}},
               creatures={"chiron": {"owner": 1, "area": "ios"}})
    assert wasted(buy(g, "manticore"), "manticore")
    assert g.state.hero_at["hector"] == idx(g, "ios") and g.state.creature_at["chiron"] == idx(g, "ios")


# --- Pegasus ----------------------------------------------------------------------------

def test_pegasus_moves_units_to_any_land_area():
    """Pegasus: "Move all or part of your basic and/or mercenary Troops and Heroes from one Land
    Area to another Land Area for free (...) they do not have to be adjacent or accessible"."""
    g = buying("pegasus", {"argos": {"owner": 0, "troops": 2, "mercs": 1, "heroes": ["ajax"]}})
    buy(g, "pegasus")
    act(g, "origin", where="argos")
    act(g, "take", what="troop", n=2)
    act(g, "take", what="merc", n=0)
    act(g, "take_hero", what="ajax")
    assert "naxos" in wheres(g, "destination")  # another island, no fleet chain
    act(g, "destination", where="naxos")
    s = g.state
    assert s.troops[idx(g, "naxos")] == 2 and s.hero_at["ajax"] == idx(g, "naxos")
    assert s.ctrl[idx(g, "naxos")] == 0 and s.mercs[idx(g, "argos")] == 1
    assert s.gp[0] == 8 and back_to_turn(g)


def test_pegasus_into_a_defended_area_is_a_battle():
    """Land Move: "If the destination Area is occupied by enemy Troops (...) a Land Battle
    immediately occurs" -- Pegasus' move included."""
    g = buying("pegasus", {"argos": {"owner": 0, "troops": 2}, "ios": {"owner": 1, "troops": 1},
                           "melos": {"owner": 1}}, dice=[3, 0])
    buy(g, "pegasus")
    act(g, "origin", where="argos")
    act(g, "take", what="troop", n=2)
    events = act(g, "destination", where="ios")
    assert any(e["type"] == "battle" and e["area"] == "ios" and e["attacker"] == 0
               for e in events)
    # dice 3 vs 0: the defender's only Troop falls, and the attackers hold ios
    assert g.state.ctrl[idx(g, "ios")] == 0 and g.state.troops[idx(g, "ios")] == 2
    assert g.state.troops[idx(g, "argos")] == 0


def test_pegasus_cannot_attack_a_players_last_land_area():
    """R19: "It is forbidden to attack a player's last Land Area" -- wherever Pegasus flies."""
    g = buying("pegasus", {"argos": {"owner": 0, "troops": 2}, "ios": {"owner": 1, "troops": 1}})
    buy(g, "pegasus")
    act(g, "origin", where="argos")
    act(g, "take", what="troop", n=1)
    assert "ios" not in wheres(g, "destination")


def test_pegasus_cannot_fly_into_or_out_of_medusas_area():
    """Pegasus note: "the Pegasus' effect does not help Troops or Heroes to leave or move into the
    Area occupied by Medusa" (whoever controls Medusa)."""
    g = buying("pegasus", {"argos": {"owner": 0, "troops": 2}},
               creatures={"medusa": {"owner": 0, "area": "naxos"}})
    buy(g, "pegasus")
    act(g, "origin", where="argos")
    act(g, "take", what="troop", n=1)
    assert "naxos" not in wheres(g, "destination") and "melos" in wheres(g, "destination")
    g = buying("pegasus", {"argos": {"owner": 0, "troops": 2}},
               creatures={"medusa": {"owner": 1, "area": "argos"}})
    assert wasted(buy(g, "pegasus"), "pegasus")
    assert g.state.troops[idx(g, "argos")] == 2


# --- Satyr ------------------------------------------------------------------------------

def test_satyr_steals_a_philosopher():
    """Satyr: "Steal 1 Philosopher card from another player." """
    g = buying("satyr", HOME, player=[{"gp": 10}, {"philosophers": 2}])
    buy(g, "satyr")
    act(g, "target_player", n=1)
    assert g.state.philosophers[:2] == [1, 1] and back_to_turn(g)


def test_satyr_fourth_philosopher_builds_a_metropolis_at_once():
    """Satyr: "If you get your 4th Philosopher by using this effect, discard them and immediately
    build a Metropolis." """
    g = buying("satyr", HOME, player=[{"gp": 10, "philosophers": 3}, {"philosophers": 1}])
    buy(g, "satyr")
    act(g, "target_player", n=1)
    assert g.state.philosophers[:2] == [0, 0] and g.state.stack[-1]["kind"] == "metropolis"
    act(g, "metropolis", where="argos")
    assert sites(g, "argos")[0] == "metropolis"


def test_satyr_discarded_when_no_other_player_has_a_philosopher():
    """Satyr: "from another player"."""
    g = buying("satyr", HOME, player=[{"gp": 10, "philosophers": 2}])
    assert wasted(buy(g, "satyr"), "satyr")


# --- Sphinx -----------------------------------------------------------------------------

def test_sphinx_draws_three_discards_two_and_plays_the_third():
    """Sphinx: "Draw 3 Creature cards. Discard 2, and play the third for free." """
    g = buying("sphinx", HOME, player=[{"gp": 10}, {"priestesses": 1}],
               creature_deck=["dryad", "giant", "griffin", "harpy"], creature_discard=[])
    buy(g, "sphinx")
    assert sorted(a.what for a in legal(g, "choose_card")) == ["dryad", "giant", "griffin"]
    act(g, "choose_card", what="dryad")
    act(g, "target_player", n=1)
    s = g.state
    assert s.priestesses[:2] == [1, 0] and s.gp[0] == 8
    assert sorted(s.creature_discard) == ["dryad", "giant", "griffin", "sphinx"]
    assert s.creature_deck == ["harpy"] and back_to_turn(g)


def test_sphinx_cards_are_seen_by_their_drawer_only():
    """R24: hidden information -- like Zeus' peek, the Sphinx's cards are the buyer's secret."""
    g = buying("sphinx", HOME, creature_deck=["dryad", "giant", "griffin"], creature_discard=[])
    buy(g, "sphinx")
    assert sorted(g.view(0)["decision"]["cards"]) == ["dryad", "giant", "griffin"]
    assert "cards" not in g.view(1)["decision"] and "cards" not in g.view(None)["decision"]


def test_sphinx_discarded_when_there_is_no_card_to_draw():
    """Sphinx: with the deck and the discard pile empty there is nothing to draw or play."""
    g = buying("sphinx", HOME, creature_deck=[], creature_discard=[])
    assert wasted(buy(g, "sphinx"), "sphinx")


# --- Sylph ------------------------------------------------------------------------------

def test_sylph_swaps_the_fleets_of_two_sea_areas():
    """Sylph: "Swap Fleets from two Sea Areas regardless of which players control them. The two
    Areas may be anywhere on the board"."""
    g = buying("sylph", {**HOME, "west": {"owner": 0, "fleets": 2},
                         "east": {"owner": 1, "fleets": 1}})
    buy(g, "sylph")
    assert wheres(g, "target_area") == ["east", "west"]
    act(g, "target_area", where="west")
    assert wheres(g, "target_area") == ["east"]
    act(g, "target_area", where="east")
    s = g.state
    assert (s.ctrl[idx(g, "west")], s.fleets[idx(g, "west")]) == (1, 1)
    assert (s.ctrl[idx(g, "east")], s.fleets[idx(g, "east")]) == (0, 2)
    assert back_to_turn(g)


def test_sylph_needs_fleets_in_both_areas():
    """Sylph: "Both Sea Areas must contain Fleets": with one such area, no effect."""
    g = buying("sylph", {**HOME, "west": {"owner": 0, "fleets": 2}})
    assert wasted(buy(g, "sylph"), "sylph")
    assert g.state.fleets[idx(g, "west")] == 2


# --- Triton -----------------------------------------------------------------------------

def test_triton_steals_a_basic_building_onto_a_free_site():
    """Triton: "Steal 1 basic Building token from another player and place it on an empty
    building site in any Land Area you control"."""
    g = buying("triton", {**HOME, "naxos": {"owner": 1, "buildings": ["port", "metropolis"]}})
    buy(g, "triton")
    assert [(a.what, a.where) for a in legal(g, "steal")] == [("port", "naxos")]  # basic only
    act(g, "steal", what="port", where="naxos")
    assert kinds(g) == {"build"}
    act(g, "build", what="port", where="argos")
    assert sites(g, "naxos") == ["", "metropolis", ""] and sites(g, "argos") == ["port", ""]
    assert back_to_turn(g)


def test_triton_must_destroy_a_building_without_a_free_site():
    """Triton: "If you have no suitable empty building site, you MUST destroy one of your basic
    Buildings in order to build the stolen building" (no forgoing it)."""
    g = buying("triton", {"melos": {"owner": 0, "troops": 1, "buildings": ["fortress"]},
                          "naxos": {"owner": 1, "buildings": ["temple"]}})
    buy(g, "triton")
    act(g, "steal", what="temple", where="naxos")
    assert [(a.kind, a.what, a.where) for a in g.legal_actions()] == [("replace", "fortress",
                                                                       "melos")]
    act(g, "replace", what="fortress", where="melos")
    assert sites(g, "melos") == ["temple"] and sites(g, "naxos") == ["", "", ""]


def test_triton_discarded_without_another_players_building():
    """Triton: "from another player": one's own buildings are no target."""
    g = buying("triton", {"argos": {"owner": 0, "troops": 1, "buildings": ["port"]}})
    assert wasted(buy(g, "triton"), "triton")
    assert sites(g, "argos") == ["port", ""]
