"""The 16 Heroes' military and sacrificial powers, and the Minotaur (rulebook, "Heroes", "Heroic
Move", "Hero Descriptions", "Minotaur"; the Maelström texts are the wording of their cards, R2).

Positions are on the small test map (tests/scenarios/small_map.yaml) unless a test needs more
areas (7 land areas for Ajax, 6 seas for Penelope: the recommended 3-player board):

            north (sea)
   corinth ---------- naxos
     |   \\              |
   argos   west (sea)  east (sea)
     |      |           |
            south (sea)
        melos -- ios

Heroes placed by a scenario were recruited in an earlier cycle (they may be sacrificed).
Scenario key `dice` forces the next die results, attacker's roll first in each round (R3).
"""
from positions import act, ctrl, idx, kinds, scenario, sites, take_and_go, where

from cyclades import Action
from cyclades.engine.queries import metropolises_of

NOBODY = -1


# --- helpers ------------------------------------------------------------------------------

def turn(god, areas, dice=(), gp=(9, 5, 5), **kw):
    """Player 0's turn of `god`, at its optional actions. Players 1 and 2 hold melos and ios
    unless the test says otherwise, so that no attack is on a last land area (R19)."""
    kw.setdefault("player", [{"gp": x} for x in gp])
    areas = dict(areas)
    areas.setdefault("melos", {"owner": 1})
    areas.setdefault("ios", {"owner": 2})
    return scenario(areas=areas, dice=list(dice),
                    decision={"turn": {"player": 0, "god": god, "stage": "main"}}, **kw)


def units(g, area):
    """(troops, mercenaries, heroes) on a land area."""
    a = idx(g, area)
    return g.state.troops[a], g.state.mercs[a], sorted(h for h, at in g.state.hero_at.items() if at == a)


def rounds(events):
    return [e for e in events if e["type"] == "round"]


def battle(g):
    return next(f for f in reversed(g.state.stack) if f["kind"] == "battle")


def attack(g, frm, to, t=0, m=0, heroes=()):
    """An Ares Land Move; returns the events."""
    return act(g, "land_move", n=1) + act(g, "origin", where=frm) + take_and_go(g, to, t, m, heroes)


def heroic(g, hero, to, cost=1, t=0, m=0):
    """A Heroic Move of `hero` with t troops and m mercenaries; returns the events."""
    return act(g, "heroic_move", hero, n=cost) + take_and_go(g, to, t, m, ())


def sail(g, frm, to, n):
    return act(g, "sea_move", n=1) + act(g, "origin", where=frm) + act(g, "take", "fleet", n=n) \
        + act(g, "destination", where=to)


def sacrifices(g):
    return {a.what for a in g.legal_actions() if a.kind == "sacrifice"}


def gone_from_game(g, hero):
    """Sacrificed: "removed from the game": off the board, no owner, not in the discard pile."""
    s = g.state
    return hero not in s.hero_at and hero not in s.hero_owner and hero not in s.hero_discard


def metro_frame(g):
    return g.state.stack and g.state.stack[-1]["kind"] == "metropolis"


def build_metropolis_on(g, area):
    act(g, "metropolis", where=area)


def under_heracles(g, *cards):
    """Creature cards lying under Heracles' card (the scenario format has no key for them)."""
    s = g.state
    for c in cards:
        if c in s.creature_deck:
            s.creature_deck.remove(c)
        if c in s.creature_track:
            s.creature_track[s.creature_track.index(c)] = None
    s.creature_cards["heracles"] = tuple(cards)
    g._legal = None


BIG = "recommended"  # 14 land areas and 22 seas for 3 players
SEVEN_LANDS = ["antikythera", "zakynthos", "leros", "mykonos", "thera", "kythnos", "lemnos"]
SIX_SEAS = ["gulf-of-electra", "sea-of-minos", "helios-bay", "coeus-passage",
            "gulf-of-amphitrite", "calypso-sound"]


# --- sacrificial powers: when (rulebook, Heroes: "Important") -----------------------------

HECTOR_HOME = {"argos": {"owner": 0, "troops": 1, "heroes": ["hector"]}}


def test_sacrifice_offered_on_the_turn_menu_when_the_condition_holds():
    """Rulebook, Heroes: "If you have satisfied the conditions you may, at any time during your
    God's actions, sacrifice the Hero (which is removed from the game) and apply their effect."""
    g = turn("zeus", HECTOR_HOME, player=[{"gp": 5, "priestesses": 2}, {}, {}])
    assert sacrifices(g) == {"hector"}
    act(g, "sacrifice", "hector")
    assert gone_from_game(g, "hector") and g.state.philosophers[0] == 1


def test_sacrifice_not_in_the_cycle_of_recruitment():
    """Rulebook, Heroes: "A Hero cannot be sacrificed during the Cycle in which they are
    recruited." Recruited with Hera this turn: no sacrifice, though the condition holds."""
    g = scenario(areas={"argos": {"owner": 0, "troops": 1}}, hero_track=["hector", "ajax"],
                 player=[{"gp": 9, "priestesses": 2}, {}, {}],
                 decision={"turn": {"player": 0, "god": "hera", "stage": "main"}})
    act(g, "recruit_hero", "hector", n=4)
    act(g, "place_hero", "hector", where="argos")
    assert g.state.hero_at["hector"] == idx(g, "argos")
    assert "sacrifice" not in kinds(g)


def test_sacrifice_never_with_apollo_but_leto():
    """Rulebook, Heroes: "You cannot sacrifice a Hero if you have chosen Apollo" -- Leto excepted
    (Maelström: "Even if you have chosen Apollo, Leto can still ... use her Sacrificial Power")."""
    g = apollo_turn({"argos": {"owner": 0, "heroes": ["hector", "leto"]}},
                    player=[{"gp": 5, "priestesses": 2}, {}, {}],
                    creatures={"cerberus": {"owner": 0, "area": "naxos"},
                               "nereid": {"owner": 0, "area": "north"}})
    assert sacrifices(g) == {"leto"}


def state(g):
    d = g.state.to_dict()
    d.pop("version")
    return d


def test_sacrifice_cancelled_before_its_last_choice_changes_nothing():
    """R26: a sequence of choices may be cancelled before its last step; nothing happens."""
    g = turn("zeus", HECTOR_HOME, player=[{"gp": 5, "priestesses": 4}, {}, {}])
    before = state(g)
    act(g, "sacrifice", "hector")
    assert kinds(g) == {"convert", "cancel"}
    act(g, "cancel")
    assert state(g) == before
    assert g.state.hero_at["hector"] == idx(g, "argos") and g.state.priestesses[0] == 4


# --- Achilles ---------------------------------------------------------------------------------

ACHILLES_ATTACK = {"argos": {"owner": 0, "troops": 2, "heroes": ["achilles"]},
                   "corinth": {"owner": 1, "troops": 2}}


def test_achilles_opponent_losing_a_round_must_retreat():
    """Achilles (Maelström): "If your opponent loses a stage of a battle, they must immediately
    retreat, if possible": the defender takes the loss, then may only retreat (no "hold")."""
    areas = dict(ACHILLES_ATTACK, naxos={"owner": 1}, north={"owner": 1, "fleets": 1})
    g = turn("ares", areas, dice=[3, 0])
    attack(g, "argos", "corinth", t=2, heroes=["achilles"])  # 3 + 2 + 1 against 0 + 2
    assert g.to_move == 1 and g.legal_actions() == [Action("retreat", where="naxos")]
    act(g, "retreat", where="naxos")
    assert units(g, "naxos") == (1, 0, []) and ctrl(g, "corinth") == 0


def test_achilles_opponent_who_cannot_retreat_is_destroyed():
    """Achilles: "...otherwise all their Troops and Heroes are destroyed.\""""
    areas = dict(ACHILLES_ATTACK, corinth={"owner": 1, "troops": 2, "heroes": ["ajax"]})
    g = turn("ares", areas, dice=[3, 0])
    attack(g, "argos", "corinth", t=2, heroes=["achilles"])  # 6 against 0 + 2 + 2
    ev = act(g, "lose", "troop")
    assert any(e["type"] == "side_destroyed" for e in ev)
    assert ctrl(g, "corinth") == 0 and units(g, "corinth") == (2, 0, ["achilles"])
    assert "ajax" in g.state.hero_discard and g.state.troops_left[1] == 8
    assert not any(f["kind"] == "battle" for f in g.state.stack)


def test_achilles_defending_the_beaten_attacker_must_retreat():
    """Achilles defending: the attacker who lost the round must retreat (back where it came
    from), and may not hold."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 3},
                      "corinth": {"owner": 1, "troops": 1, "heroes": ["achilles"]}}, dice=[0, 3])
    attack(g, "argos", "corinth", t=3)              # 0 + 3 against 3 + 1 + 1
    assert g.to_move == 0 and {a.kind for a in g.legal_actions()} == {"retreat"}
    act(g, "retreat", where="argos")
    assert units(g, "argos") == (2, 0, []) and ctrl(g, "corinth") == 1


def test_achilles_no_forced_retreat_when_his_side_loses_the_round():
    """Achilles: the power acts when the *opponent* loses a round; when Achilles' side loses,
    the defender may still hold (the ordinary choice, R18)."""
    areas = dict(ACHILLES_ATTACK, naxos={"owner": 1}, north={"owner": 1, "fleets": 1})
    g = turn("ares", areas, dice=[0, 3])
    attack(g, "argos", "corinth", t=2, heroes=["achilles"])  # 0 + 3 against 3 + 2
    act(g, "lose", "troop")
    assert g.to_move == 1 and "hold" in kinds(g)


def test_achilles_without_achilles_the_loser_may_hold():
    """Limit: without Achilles in the battle, a defender who lost a round may hold (R18)."""
    areas = {"argos": {"owner": 0, "troops": 3}, "corinth": {"owner": 1, "troops": 2},
             "naxos": {"owner": 1}, "north": {"owner": 1, "fleets": 1}}
    g = turn("ares", areas, dice=[3, 0])
    attack(g, "argos", "corinth", t=3)
    assert "hold" in kinds(g)


def test_achilles_sacrifice_builds_two_buildings_on_empty_sites_of_one_area():
    """Achilles: "Build 2 basic Buildings of your choice on 2 empty building sites in one Land
    Area you control.\""""
    g = turn("athena", {"argos": {"owner": 0, "heroes": ["achilles"]},
                        "melos": {"owner": 0, "troops": 1}})
    act(g, "sacrifice", "achilles")
    assert where(g, "target_area") == {"argos"}  # melos has a single site
    act(g, "target_area", where="argos")
    act(g, "choose_building", "port")
    act(g, "choose_building", "port")
    assert sites(g, "argos") == ["port", "port"] and gone_from_game(g, "achilles")


def test_achilles_sacrifice_destroys_own_buildings_when_sites_are_lacking():
    """Achilles: "If one of your Land Areas does not have enough empty building sites, you must
    destroy one or two of your basic Buildings in that Area" (never the one just built)."""
    g = turn("athena", {"argos": {"owner": 0, "heroes": ["achilles"], "buildings": ["temple"]}})
    act(g, "sacrifice", "achilles")
    act(g, "target_area", where="argos")
    act(g, "choose_building", "port")          # on the empty site
    act(g, "choose_building", "university")    # no empty site: the temple makes way
    assert where(g, "replace") == {"argos"} and {a.what for a in g.legal_actions()
                                                  if a.kind == "replace"} == {"temple"}
    act(g, "replace", "temple", where="argos")
    assert sorted(sites(g, "argos")) == ["port", "university"]


def test_achilles_sacrifice_not_offered_without_two_sites_in_one_area():
    """Limit: no land area of yours has 2 sites for buildings (a Metropolis is not basic)."""
    g = turn("athena", {"melos": {"owner": 0, "heroes": ["achilles"]},
                        "argos": {"owner": 0, "buildings": ["metropolis"]}})
    assert "achilles" not in sacrifices(g)


# --- Heroes in battle -------------------------------------------------------------------------

def test_every_hero_on_a_battle_side_adds_one_to_its_strength():
    """Rulebook, Land Battle: "a Strength of 1 for each basic Troop, mercenary Troop and Hero
    involved in the Battle" (R18): two heroes on each side count two, attacking and defending.
    Jason, Pericles, Odysseus and Penelope have no power over a land battle's strength here
    (no fortress, no sea battle)."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 1, "heroes": ["jason", "pericles"]},
                      "corinth": {"owner": 1, "troops": 1, "heroes": ["odysseus", "penelope"]}},
             dice=[1, 2])
    ev = attack(g, "argos", "corinth", t=1, heroes=["jason", "pericles"])
    assert rounds(ev)[0]["strength"] == [1 + 1 + 2, 2 + 1 + 2]


# --- Ajax -------------------------------------------------------------------------------------

def test_ajax_has_battle_strength_2():
    """Ajax: "Ajax has a Battle Strength of 2" (a troop has 1)."""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1, "heroes": ["ajax"]},
                      "corinth": {"owner": 1, "troops": 1}}, dice=[1, 1])
    ev = heroic(g, "ajax", "corinth", t=1)
    assert rounds(ev)[0]["strength"] == [1 + 1 + 2, 1 + 1]


def test_ajax_sacrifice_with_seven_land_areas():
    """Ajax: "If you control 7 Land Areas, build a Metropolis.\""""
    areas = {a: {"owner": 0} for a in SEVEN_LANDS}
    areas["antikythera"] = {"owner": 0, "heroes": ["ajax"]}
    g = scenario(board=BIG, areas=areas, player=[{"gp": 0}, {}, {}], bonus_stack=["three-gp"],
                 decision={"turn": {"player": 0, "god": "zeus", "stage": "main"}})
    act(g, "sacrifice", "ajax")
    assert metro_frame(g)
    build_metropolis_on(g, "antikythera")
    assert metropolises_of(g, 0) == 1 and g.state.gp[0] == 3 and gone_from_game(g, "ajax")


def test_ajax_sacrifice_not_with_six_land_areas():
    areas = {a: {"owner": 0} for a in SEVEN_LANDS[:6]}
    areas["antikythera"] = {"owner": 0, "heroes": ["ajax"]}
    g = scenario(board=BIG, areas=areas, decision={"turn": {"player": 0, "god": "zeus", "stage": "main"}})
    assert "ajax" not in sacrifices(g)


# --- Antigone ---------------------------------------------------------------------------------

def test_antigone_die_zero_counts_as_three():
    """Antigone (Maelström): "When Antigone takes part in a battle, if the die shows "0", count it
    as "3"" -- her side's die only."""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1, "heroes": ["antigone"]},
                      "corinth": {"owner": 1, "troops": 3}}, dice=[0, 0])
    ev = heroic(g, "antigone", "corinth", t=1)
    r = rounds(ev)[0]
    assert r["dice"] == [3, 0] and r["rolled"] == [0, 0] and r["strength"] == [3 + 2, 0 + 3]


def test_antigone_no_change_without_her():
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1, "heroes": ["ajax"]},
                      "corinth": {"owner": 1, "troops": 3}}, dice=[0, 0])
    assert rounds(heroic(g, "ajax", "corinth", t=1))[0]["dice"] == [0, 0]


def test_antigone_sacrifice_discards_three_cornucopias_of_prosperity():
    """Antigone (Maelström): "Discard Prosperity tokens showing 3 Cornucopias in total from one
    or more Land or Sea Areas you control, to build a Metropolis.\""""
    areas = {"argos": {"owner": 0, "heroes": ["antigone"], "prosperity": 2},
             "corinth": {"owner": 0, "prosperity": 1}, "west": {"owner": 0, "fleets": 1, "prosperity": 1}}
    g = turn("zeus", areas, bonus_stack=["three-gp"])
    act(g, "sacrifice", "antigone")
    assert where(g, "discard_prosperity") == {"argos", "corinth", "west"}
    act(g, "discard_prosperity", where="west")
    act(g, "discard_prosperity", where="argos")
    act(g, "discard_prosperity", where="argos")
    assert [g.state.prosperity[idx(g, a)] for a in ("argos", "corinth", "west")] == [0, 1, 0]
    assert metro_frame(g)


def test_antigone_sacrifice_not_with_two_cornucopias():
    """Limit: Prosperity tokens showing only 2 Cornucopias in the areas you control (a token in an
    area of another player's does not count)."""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["antigone"], "prosperity": 2},
                      "naxos": {"owner": 1, "prosperity": 3}})
    assert "antigone" not in sacrifices(g)


# --- Croesus ----------------------------------------------------------------------------------

CROESUS = {"argos": {"owner": 0, "troops": 1, "heroes": ["croesus"]},
           "corinth": {"owner": 1, "troops": 2}}


def test_croesus_pays_1_gp_per_reroll_of_his_die():
    """Croesus: "Pay 1 GP to re-roll your Battle die as many times as you want. Each roll costs
    1 GP." The re-roll is a decision after both dice are rolled; the last roll counts."""
    g = turn("zeus", CROESUS, dice=[0, 2, 1, 3], gp=(5, 5, 5))
    heroic(g, "croesus", "corinth", t=1)  # pays 1
    assert kinds(g) == {"reroll", "keep_roll"} and g.state.stack[-1]["dice"] == (0, 2)
    act(g, "reroll", "croesus", n=1)
    act(g, "reroll", "croesus", n=1)
    ev = act(g, "keep_roll")
    assert rounds(ev)[0]["dice"] == [3, 2] and g.state.gp[0] == 5 - 1 - 2


def test_croesus_no_reroll_without_gp():
    """Limit: each roll costs 1 GP: with an empty purse the round is settled at once."""
    g = turn("zeus", CROESUS, dice=[0, 2], gp=(1, 5, 5))
    ev = heroic(g, "croesus", "corinth", t=1)
    assert rounds(ev) and "reroll" not in kinds(g)


def test_croesus_no_reroll_when_helen_fixes_the_die():
    """Limit: with Helen on his side the die is always 2: a re-roll could change nothing."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 1, "heroes": ["croesus", "helen"]},
                      "corinth": {"owner": 1, "troops": 2}}, dice=[0, 2])
    ev = attack(g, "argos", "corinth", t=1, heroes=["croesus", "helen"])
    assert rounds(ev)[0]["dice"] == [2, 2]


def test_croesus_sacrifice_spends_15_gp():
    """Croesus: "Spend 15 GP to build a Metropolis.\""""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["croesus"]}}, gp=(16, 0, 0))
    act(g, "sacrifice", "croesus")
    assert g.state.gp[0] == 1 and metro_frame(g)


def test_croesus_sacrifice_not_with_14_gp():
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["croesus"]}}, gp=(14, 0, 0))
    assert "croesus" not in sacrifices(g)


# --- Hector -----------------------------------------------------------------------------------

def test_hector_destroys_an_invading_troop_of_his_choice_before_the_battle():
    """Hector: "When basic or mercenary Troops invade his Area, he destroys one of them, of his
    choosing, before the Battle.\""""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2, "mercs": 1},
                      "corinth": {"owner": 1, "troops": 1, "heroes": ["hector"]}}, dice=[0, 0])
    attack(g, "argos", "corinth", t=2, m=1)
    assert g.to_move == 1 and where(g, "destroy") == {"corinth"}
    assert {a.what for a in g.legal_actions()} == {"troop", "merc"}
    ev = act(g, "destroy", "merc", where="corinth")
    assert rounds(ev)[0]["strength"] == [0 + 2, 0 + 1 + 1] and g.state.mercs_left == 16


def test_hector_only_troops_invading_one_is_destroyed_at_once():
    g = turn("ares", {"argos": {"owner": 0, "troops": 1},
                      "corinth": {"owner": 1, "heroes": ["hector"]}}, dice=[3, 0])
    attack(g, "argos", "corinth", t=1)
    # the single invader is destroyed before any round: Hector holds his area
    assert ctrl(g, "corinth") == 1 and g.state.troops_left[0] == 8 and g.state.dice == [3, 0]


def test_hector_has_no_power_when_he_attacks():
    """Limit: the power protects "his Area": when Hector invades, nothing is destroyed."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2, "heroes": ["hector"]},
                      "corinth": {"owner": 1, "troops": 1}}, dice=[0, 0])
    ev = attack(g, "argos", "corinth", t=2, heroes=["hector"])
    assert rounds(ev)[0]["strength"] == [0 + 2 + 1, 0 + 1]


def test_hector_heroes_alone_are_not_struck():
    """Limit: only "basic or mercenary Troops" are destroyed; a hero invading alone is not."""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["ajax"]},
                      "corinth": {"owner": 1, "heroes": ["hector"]}}, dice=[0, 0])
    ev = heroic(g, "ajax", "corinth")
    assert rounds(ev)[0]["strength"] == [2, 1]


def test_hector_sacrifice_turns_priestesses_into_philosophers_several_times():
    """Hector: "Turn 2 of your Priestesses into 1 Philosopher. You can do this several times.\""""
    g = turn("zeus", HECTOR_HOME, player=[{"gp": 5, "priestesses": 5}, {}, {}])
    act(g, "sacrifice", "hector")
    assert {a.n for a in g.legal_actions() if a.kind == "convert"} == {1, 2}
    act(g, "convert", "philosopher", n=2)
    assert (g.state.priestesses[0], g.state.philosophers[0]) == (1, 2)


def test_hector_sacrifice_fourth_philosopher_builds_a_metropolis():
    """Rulebook, Metropolises: "As soon as a player has 4 Philosopher cards, they discard them and
    build a Metropolis" -- the philosopher Hector gives counts."""
    g = turn("zeus", HECTOR_HOME, player=[{"gp": 5, "priestesses": 2, "philosophers": 3}, {}, {}])
    act(g, "sacrifice", "hector")
    assert g.state.philosophers[0] == 0 and metro_frame(g)


def test_hector_sacrifice_not_with_one_priestess():
    g = turn("zeus", HECTOR_HOME, player=[{"gp": 5, "priestesses": 1}, {}, {}])
    assert "hector" not in sacrifices(g)


# --- Helen ------------------------------------------------------------------------------------

def test_helen_die_is_always_2():
    """Helen: "When she fights, the result of her Battle die is always 2" -- her side's only."""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["helen"]},
                      "corinth": {"owner": 1, "troops": 1}}, dice=[3, 3])
    ev = heroic(g, "helen", "corinth")
    assert rounds(ev)[0]["dice"] == [2, 3]


def test_helen_sacrifice_destroys_two_and_two_buildings_and_builds():
    """Helen: "If you have 2 basic Buildings of one type and 2 basic Buildings of another type,
    build a Metropolis. Destroy the 4 basic Buildings and build a Metropolis\""""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["helen"], "buildings": ["port", "port"]},
                      "naxos": {"owner": 0, "buildings": ["temple", "temple", "university"]}})
    act(g, "sacrifice", "helen")
    assert metro_frame(g)
    assert sites(g, "argos") == ["", ""] and sites(g, "naxos") == ["", "", "university"]
    build_metropolis_on(g, "argos")
    assert metropolises_of(g, 0) == 1


def test_helen_sacrifice_chooses_two_types_among_three():
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["helen"], "buildings": ["port", "port"]},
                      "naxos": {"owner": 0, "buildings": ["temple", "temple", "university"]},
                      "ios": {"owner": 0, "buildings": ["university", "fortress"]}})
    act(g, "sacrifice", "helen")
    assert {a.what for a in g.legal_actions() if a.kind == "choose_building"} == \
        {"port", "temple", "university"}
    act(g, "choose_building", "temple")
    act(g, "choose_building", "university")
    assert metro_frame(g) and sites(g, "argos") == ["port", "port"]
    assert sites(g, "naxos") == ["", "", ""] and sites(g, "ios") == ["", "fortress"]


def test_helen_sacrifice_owner_chooses_which_buildings_when_more_than_two():
    """Helen: with 3 ports, which 2 are destroyed is her owner's choice (R18-style decision)."""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["helen"], "buildings": ["port", "port"]},
                      "naxos": {"owner": 0, "buildings": ["temple", "temple", "port"]}})
    act(g, "sacrifice", "helen")
    assert kinds(g) == {"remove"} and where(g, "remove") == {"argos", "naxos"}
    act(g, "remove", "port", where="naxos")  # the second port: argos, no choice left
    assert sites(g, "argos") == ["", "port"] and sites(g, "naxos") == ["", "", ""]


def test_helen_sacrifice_not_with_two_and_one():
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["helen"], "buildings": ["port", "port"]},
                      "naxos": {"owner": 0, "buildings": ["temple"]}})
    assert "helen" not in sacrifices(g)


# --- Heracles ---------------------------------------------------------------------------------

def test_heracles_destroys_a_creature_in_the_area_he_enters():
    """Heracles (Maelström): "When Heracles ... stops in such an Area, he destroys that Creature.
    The Creature's miniature is removed from the game board, and the Creature card is placed
    under the Heracles card." -- here the Minotaur, before it could fight."""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1, "heroes": ["heracles"]},
                      "corinth": {"owner": 1}},
             creatures={"minotaur": {"owner": 1, "area": "corinth"}})
    heroic(g, "heracles", "corinth")
    s = g.state
    assert "minotaur" not in s.creature_at and "minotaur" not in s.creature_owner
    assert s.creature_cards["heracles"] == ("minotaur",) and ctrl(g, "corinth") == 0


def test_heracles_destroys_a_creature_in_a_sea_he_passes_through():
    """Heracles: "When Heracles moves through an Area where a Creature is...": a sea area of the
    fleet chain his move crosses (R17)."""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["heracles"]},
                      "west": {"owner": 0, "fleets": 1}, "north": {"owner": 0, "fleets": 1}},
             creatures={"nereid": {"owner": 1, "area": "north"}})
    heroic(g, "heracles", "naxos")
    assert g.state.creature_cards["heracles"] == ("nereid",) and "nereid" not in g.state.creature_owner


def test_heracles_does_not_destroy_a_creature_he_leaves_or_that_comes_to_him():
    """Heracles, note: "If a Creature was placed in an Area where Heracles is, it is not
    destroyed. When Heracles leaves such an Area, the Creature is also not destroyed." Nor do
    troops moving without him destroy anything."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2, "heroes": ["heracles"]},
                      "corinth": {"owner": 0}},
             creatures={"geryon": {"owner": 1, "area": "argos"},
                        "cerberus": {"owner": 1, "area": "corinth"}})
    attack(g, "argos", "corinth", t=1)                          # troops alone into Cerberus' area
    assert g.state.creature_at["cerberus"] == idx(g, "corinth")
    attack(g, "argos", "corinth", t=1, heroes=["heracles"])     # Heracles leaves Geryon...
    assert g.state.creature_at["geryon"] == idx(g, "argos")
    assert g.state.creature_cards["heracles"] == ("cerberus",)      # ...and enters Cerberus' area


def test_heracles_sacrifice_with_two_creature_cards_under_him():
    """Heracles: "If at least 2 Creature cards lie under the Heracles card, build a Metropolis."
    His cards go to the discard pile with him."""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["heracles"]}})
    under_heracles(g, "harpy", "sylph")
    act(g, "sacrifice", "heracles")
    assert metro_frame(g) and {"harpy", "sylph"} <= set(g.state.creature_discard)
    assert "heracles" not in g.state.creature_cards


def test_heracles_sacrifice_not_with_one_card():
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["heracles"]}})
    under_heracles(g, "harpy")
    assert "heracles" not in sacrifices(g)


def test_heracles_lost_in_battle_discards_his_cards():
    """Heracles, note: "When the Heracles card is placed in the discard pile, the Creature cards
    under it are discarded as well.\""""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["heracles"]},
                      "corinth": {"owner": 1, "troops": 2}}, dice=[0, 3])
    under_heracles(g, "harpy")
    heroic(g, "heracles", "corinth")
    assert "heracles" in g.state.hero_discard and "harpy" in g.state.creature_discard
    assert "heracles" not in g.state.creature_cards


def test_heracles_recruited_anew_has_no_cards_under_him():
    """Heracles, note: cards left under his card when it left the board by another way (a
    Manticore, R27) are discarded when he is recruited again: a new owner starts with none."""
    g = scenario(areas={"argos": {"owner": 0, "troops": 1}}, hero_track=["heracles", "ajax"],
                 player=[{"gp": 9}, {}, {}], decision={"turn": {"player": 0, "god": "hera", "stage": "main"}})
    under_heracles(g, "harpy", "sylph")
    act(g, "recruit_hero", "heracles", n=4)
    assert "heracles" not in g.state.creature_cards and {"harpy", "sylph"} <= set(g.state.creature_discard)


def test_heracles_destroyed_by_the_manticore_discards_his_cards():
    """Heracles, note: "When the Heracles card is placed in the discard pile, the Creature cards
    under it are discarded as well" -- however he leaves (here the Manticore's effect)."""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1}, "corinth": {"owner": 1, "heroes": ["heracles"]}},
             creature_track=["manticore", None, None, None])
    under_heracles(g, "harpy")
    act(g, "buy_creature", "manticore", n=2)
    act(g, "destroy", "heracles", where="corinth")
    assert "heracles" in g.state.hero_discard  # the Manticore did its part...
    assert "harpy" in g.state.creature_discard  # ...but the card under Heracles stays aside


# --- Hippolyta --------------------------------------------------------------------------------

def test_hippolyta_port_counts_as_fortress_defending_her_area():
    """Hippolyta (Maelström): "Each of your Ports and each of your Fortresses in a Land Area where
    a land battle involving Hippolyta takes place has the properties of both a Port and a
    Fortress" -- a port helps the defence (R15: a fortress does)."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 3},
                      "corinth": {"owner": 1, "heroes": ["hippolyta"], "buildings": ["port"]}},
             dice=[0, 0])
    ev = attack(g, "argos", "corinth", t=3)
    assert rounds(ev)[0]["strength"] == [3, 0 + 1 + 1]


def test_hippolyta_without_her_a_port_does_not_defend():
    g = turn("ares", {"argos": {"owner": 0, "troops": 3},
                      "corinth": {"owner": 1, "heroes": ["jason"], "buildings": ["port"]}},
             dice=[0, 0])
    assert rounds(attack(g, "argos", "corinth", t=3))[0]["strength"] == [3, 1]


def test_hippolyta_fortress_counts_as_port_in_an_adjacent_sea_battle():
    """Hippolyta: "The same applies during a sea battle in a Sea Area adjacent to the Land Area
    where Hippolyta is": her area's fortress adds 1 like a port (R15)."""
    g = turn("poseidon", {"corinth": {"owner": 1, "heroes": ["hippolyta"], "buildings": ["fortress"]},
                          "west": {"owner": 1, "fleets": 1}, "south": {"owner": 0, "fleets": 2},
                          "melos": {"owner": 0}}, dice=[0, 0])
    ev = sail(g, "south", "west", 2)
    assert rounds(ev)[0]["strength"] == [2, 1 + 1]


def test_hippolyta_fortress_not_a_port_in_a_sea_battle_away_from_her():
    g = turn("poseidon", {"corinth": {"owner": 1, "buildings": ["fortress"]},
                          "ios": {"owner": 1, "heroes": ["hippolyta"]},
                          "west": {"owner": 1, "fleets": 1}, "south": {"owner": 0, "fleets": 2},
                          "melos": {"owner": 0}}, dice=[0, 0])
    assert rounds(sail(g, "south", "west", 2))[0]["strength"] == [2, 1]


def test_hippolyta_sacrifice_with_two_other_heroes():
    """Hippolyta (Maelström): "If you control 2 Heroes in addition to Hippolyta, build a
    Metropolis.\""""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["hippolyta", "ajax"]},
                      "corinth": {"owner": 0, "heroes": ["jason"]}})
    act(g, "sacrifice", "hippolyta")
    assert metro_frame(g)


def test_hippolyta_sacrifice_not_with_one_other_hero():
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["hippolyta", "ajax"]},
                      "corinth": {"owner": 1, "heroes": ["jason"]}})
    assert "hippolyta" not in sacrifices(g)


# --- Jason ------------------------------------------------------------------------------------

JASON = {"argos": {"owner": 0, "troops": 1, "heroes": ["jason", "ajax"]},
         "south": {"owner": 1, "fleets": 1}, "melos": {"owner": 2}, "ios": {"owner": 2}}


def test_jason_heroic_move_uses_enemy_fleets():
    """Jason: "He can use enemy Fleets as his own when making a Heroic Move.\""""
    g = turn("zeus", JASON)
    act(g, "heroic_move", "jason", n=1)
    act(g, "take", "troop", n=1)
    assert where(g, "destination") == {"corinth", "melos", "ios"}
    act(g, "destination", where="ios")
    assert ctrl(g, "ios") == 0 and units(g, "ios") == (1, 0, ["jason"])


def test_jason_not_for_another_hero_nor_a_land_move():
    """Limit: only Jason's Heroic Move (Ajax's, or Jason moved by Ares, may not use them)."""
    g = turn("zeus", JASON)
    act(g, "heroic_move", "ajax", n=1)
    act(g, "take", "troop", n=0)
    assert where(g, "destination") == {"corinth"}
    g = turn("ares", JASON)
    act(g, "land_move", n=1)
    act(g, "origin", where="argos")
    act(g, "take", "troop", n=0)
    act(g, "take_hero", "jason")
    act(g, "done")
    assert where(g, "destination") == {"corinth"}


def test_jason_cannot_use_enemy_fleets_to_retreat():
    """Jason: "He cannot use enemy Fleets to retreat": after his side loses a round, the area it
    came from (joined only by the enemy fleet) is no retreat."""
    areas = dict(JASON, melos={"owner": 2, "troops": 1}, argos={"owner": 0, "troops": 1, "heroes": ["jason"]})
    g = turn("zeus", areas, dice=[0, 3, 3, 0])
    heroic(g, "jason", "melos", t=1)        # 0 + 2 against 3 + 1: Jason's side loses
    act(g, "lose", "troop")
    assert g.to_move == 2                   # the defender may retreat (to ios) or hold
    ev = act(g, "hold")                     # Jason's side is not asked: round 2 is rolled
    assert [r["round"] for r in rounds(ev)] == [2] and ctrl(g, "melos") == 0


def test_jason_sacrifice_with_all_eight_fleets_in_play():
    """Jason: "If you have all your 8 Fleets in play, build a Metropolis.\""""
    areas = {"argos": {"owner": 0, "heroes": ["jason"]}, "west": {"owner": 0, "fleets": 5},
             "north": {"owner": 0, "fleets": 3}}
    g = turn("zeus", areas)
    act(g, "sacrifice", "jason")
    assert metro_frame(g)


def test_jason_sacrifice_not_with_seven_fleets():
    areas = {"argos": {"owner": 0, "heroes": ["jason"]}, "west": {"owner": 0, "fleets": 7}}
    assert "jason" not in sacrifices(turn("zeus", areas))


# --- Leto -------------------------------------------------------------------------------------

def apollo_turn(areas, **kw):
    """Player 0's Apollo turn, after the Prosperity tokens are placed."""
    g = turn("apollo", areas, **kw)
    while g.state.stack and g.state.stack[-1]["kind"] == "prosper":
        act(g, "prosperity", where=sorted(where(g, "prosperity"))[0])
    return g


def test_leto_heroic_move_with_apollo():
    """Leto (Maelström): "Even if you have chosen Apollo, Leto can still make a Heroic Move by
    paying the corresponding cost" -- the other heroes cannot (rulebook, Heroic Move)."""
    g = apollo_turn({"argos": {"owner": 0, "troops": 1, "heroes": ["leto", "ajax"]}})
    assert {a.what for a in g.legal_actions() if a.kind == "heroic_move"} == {"leto"}
    heroic(g, "leto", "corinth", t=1)
    assert units(g, "corinth") == (1, 0, ["leto"])


def test_apollo_without_leto_no_heroic_move():
    g = apollo_turn({"argos": {"owner": 0, "troops": 1, "heroes": ["ajax"]}})
    assert "heroic_move" not in kinds(g)


def test_leto_sacrifice_with_two_creatures_on_the_board_even_with_apollo():
    """Leto: "If you control 2 Mythological Creatures placed on the game board, build a
    Metropolis" -- and "Even if you have chosen Apollo, Leto can still ... use her Sacrificial
    Power.\""""
    g = apollo_turn({"argos": {"owner": 0, "heroes": ["leto"]}},
                    creatures={"cerberus": {"owner": 0, "area": "naxos"},
                               "nereid": {"owner": 0, "area": "north"}})
    act(g, "sacrifice", "leto")
    assert metro_frame(g)


def test_leto_sacrifice_not_with_one_creature():
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["leto"]}},
             creatures={"cerberus": {"owner": 0, "area": "naxos"},
                        "nereid": {"owner": 1, "area": "north"}})
    assert "leto" not in sacrifices(g)


# --- Odysseus ---------------------------------------------------------------------------------

ODYSSEUS = {"argos": {"owner": 0, "troops": 1, "heroes": ["odysseus"]},
            "corinth": {"owner": 1, "troops": 1, "buildings": ["fortress", "metropolis"]}}


def test_odysseus_attacking_ignores_fortresses():
    """Odysseus: "When attacking, Odysseus ignores the effect of Fortresses" (the Fortress a
    Metropolis includes as well, R15)."""
    g = turn("zeus", ODYSSEUS, dice=[1, 1])
    assert rounds(heroic(g, "odysseus", "corinth", t=1))[0]["strength"] == [1 + 2, 1 + 1]


def test_odysseus_fortresses_count_without_him():
    g = turn("ares", dict(ODYSSEUS, argos={"owner": 0, "troops": 2, "heroes": ["odysseus"]}), dice=[1, 1])
    assert rounds(attack(g, "argos", "corinth", t=2))[0]["strength"] == [1 + 2, 1 + 1 + 2]


def test_odysseus_defending_his_fortress_counts():
    """Limit: "When attacking" only."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2},
                      "corinth": {"owner": 1, "heroes": ["odysseus"], "buildings": ["fortress"]}},
             dice=[1, 1])
    assert rounds(attack(g, "argos", "corinth", t=2))[0]["strength"] == [3, 1 + 1 + 1]


def test_odysseus_sacrifice_destroys_three_buildings_of_a_type():
    """Odysseus: "If you have 3 basic Buildings of the same type, build a Metropolis. Destroy the
    3 Buildings and build a Metropolis on one of your available construction sites.\""""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["odysseus"], "buildings": ["temple", "temple"]},
                      "naxos": {"owner": 0, "buildings": ["temple", "port"]}})
    act(g, "sacrifice", "odysseus")
    assert metro_frame(g) and sites(g, "argos") == ["", ""] and sites(g, "naxos") == ["", "port", ""]


def test_odysseus_sacrifice_not_with_two_of_a_type():
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["odysseus"], "buildings": ["temple", "temple"]},
                      "naxos": {"owner": 0, "buildings": ["port", "port"]}})
    assert "odysseus" not in sacrifices(g)


# --- Pandora ----------------------------------------------------------------------------------

def test_pandora_enemy_mercenaries_in_her_battle_come_under_her_control():
    """Pandora: "In her presence, enemy mercenary Troops automatically come under her control.
    Only enemy mercenary Troops in the Pandora Battle Area are affected.\""""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1, "heroes": ["pandora"]},
                      "corinth": {"owner": 1, "troops": 1, "mercs": 2},
                      "naxos": {"owner": 1, "mercs": 1}}, dice=[0, 0])
    ev = heroic(g, "pandora", "corinth", t=1)
    assert rounds(ev)[0]["strength"] == [0 + 1 + 1 + 2, 0 + 1]
    assert units(g, "naxos") == (0, 1, [])  # not in her battle area: unaffected


def test_pandora_defending_takes_the_invaders_mercenaries():
    g = turn("ares", {"argos": {"owner": 0, "troops": 1, "mercs": 2},
                      "corinth": {"owner": 1, "heroes": ["pandora"]}}, dice=[0, 0])
    ev = attack(g, "argos", "corinth", t=1, m=2)
    assert rounds(ev)[0]["strength"] == [1, 1 + 2]


def test_pandora_sacrifice_uses_the_power_of_a_hero_on_the_track():
    """Pandora: "Use the sacrificial power of a Hero available on the Hero track" -- its
    conditions must hold (here Croesus' 15 GP); the track's hero stays there."""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["pandora"]}}, gp=(15, 0, 0),
             hero_track=["croesus", "ajax"])
    act(g, "sacrifice", "pandora")
    assert {a.what for a in g.legal_actions() if a.kind == "use_power"} == {"croesus"}
    act(g, "use_power", "croesus")
    assert g.state.gp[0] == 0 and metro_frame(g) and gone_from_game(g, "pandora")
    assert g.state.hero_track == ["croesus", "ajax"]


def test_pandora_lending_hippolyta_counts_heroes_other_than_pandora():
    """Pandora with Hippolyta's power: "2 Heroes in addition to" the one sacrificed."""
    areas = {"argos": {"owner": 0, "heroes": ["pandora", "ajax"]}, "corinth": {"owner": 0, "heroes": ["jason"]}}
    g = turn("zeus", areas, hero_track=["hippolyta", None])
    assert "pandora" in sacrifices(g)
    areas = {"argos": {"owner": 0, "heroes": ["pandora", "ajax"]}}
    g = turn("zeus", areas, hero_track=["hippolyta", None])
    assert "pandora" not in sacrifices(g)


def test_pandora_sacrifice_not_with_an_empty_track():
    """Pandora: "If the Hero track is empty, you cannot use her sacrificial power.\""""
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["pandora"]}}, gp=(15, 0, 0),
             hero_track=[None, None])
    assert "pandora" not in sacrifices(g)


def test_pandora_sacrifice_not_when_no_track_power_can_be_used():
    g = turn("zeus", {"argos": {"owner": 0, "heroes": ["pandora"]}}, gp=(14, 0, 0),
             hero_track=["croesus", "ajax"])
    assert "pandora" not in sacrifices(g)


# --- Penelope ---------------------------------------------------------------------------------

def test_penelope_plus_2_in_a_sea_battle_next_to_her():
    """Penelope (Maelström): "During a battle in a Sea Area adjacent to the Land Area where
    Penelope is, you gain +2 to your Battle Strength.\""""
    g = turn("poseidon", {"argos": {"owner": 0, "heroes": ["penelope"]},
                          "south": {"owner": 0, "fleets": 1}, "west": {"owner": 1, "fleets": 1}},
             dice=[0, 0])
    assert rounds(sail(g, "south", "west", 1))[0]["strength"] == [1 + 2, 1]


def test_penelope_no_bonus_away_from_her():
    g = turn("poseidon", {"naxos": {"owner": 0, "heroes": ["penelope"]}, "argos": {"owner": 0},
                          "south": {"owner": 0, "fleets": 1}, "west": {"owner": 1, "fleets": 1}},
             dice=[0, 0])
    assert rounds(sail(g, "south", "west", 1))[0]["strength"] == [1, 1]


def test_penelope_sacrifice_with_six_sea_areas():
    """Penelope: "If you control 6 Sea Areas, build a Metropolis.\""""
    areas = {s: {"owner": 0, "fleets": 1} for s in SIX_SEAS}
    areas["antikythera"] = {"owner": 0, "heroes": ["penelope"]}
    g = scenario(board=BIG, areas=areas, decision={"turn": {"player": 0, "god": "zeus", "stage": "main"}})
    act(g, "sacrifice", "penelope")
    assert metro_frame(g)


def test_penelope_sacrifice_not_with_five_sea_areas():
    areas = {s: {"owner": 0, "fleets": 1} for s in SIX_SEAS[:5]}
    areas["antikythera"] = {"owner": 0, "heroes": ["penelope"]}
    g = scenario(board=BIG, areas=areas, decision={"turn": {"player": 0, "god": "zeus", "stage": "main"}})
    assert "penelope" not in sacrifices(g)


# --- Penthesilea ------------------------------------------------------------------------------

def test_penthesilea_wins_a_tied_round():
    """Penthesilea: "If Penthesilea is involved in a Battle that ends in a tie, you win": a tied
    round is lost by her opponent only."""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1, "heroes": ["penthesilea"]},
                      "corinth": {"owner": 1, "troops": 2}}, dice=[1, 1])
    ev = heroic(g, "penthesilea", "corinth", t=1)
    assert rounds(ev)[0]["strength"] == [3, 3]
    assert [e["player"] for e in ev if e["type"] == "casualty"] == [1]


def test_without_penthesilea_a_tie_costs_both_sides():
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1, "heroes": ["jason"]},
                      "corinth": {"owner": 1, "troops": 2}}, dice=[1, 1])
    heroic(g, "jason", "corinth", t=1)
    assert g.to_move == 0 and kinds(g) == {"lose", "lose_hero"}


PENTHESILEA = {"argos": {"owner": 0, "troops": 1, "heroes": ["penthesilea"]}}


def test_penthesilea_metropolis_on_her_card():
    """Penthesilea: "When you build a Metropolis, place it on this card. The Metropolis cannot be
    attacked. Remove the miniature from the game and keep her card" -- it counts (R21) and its
    bonus is drawn and applied as usual."""
    g = scenario(areas=PENTHESILEA, player=[{"gp": 0, "philosophers": 3}, {}, {}],
                 bonus_stack=["three-gp"], decision={"turn": {"player": 0, "god": "athena"}})
    while not metro_frame(g):  # Athena's free university, then the 4th philosopher
        act(g, "build", "university", where="argos")
    assert "metropolis_on_card" in kinds(g)
    act(g, "metropolis_on_card", "penthesilea")
    assert metropolises_of(g, 0) == 1 and "metropolis" not in sites(g, "argos")
    assert gone_from_game(g, "penthesilea") and g.state.gp[0] == 3


def test_penthesilea_metropolis_stays_when_her_area_is_conquered():
    """Penthesilea: "The Metropolis cannot be attacked": losing every land area on which it could
    stand takes nothing from it."""
    g = scenario(areas={"argos": {"owner": 0, "troops": 1}, "corinth": {"owner": 1, "troops": 3},
                        "naxos": {"owner": 0}},
                 dice=[3, 0], decision={"turn": {"player": 1, "god": "ares", "stage": "main"}})
    g.state.metro_bonus["penthesilea"] = (0, "priestess")
    attack(g, "corinth", "argos", t=3)
    assert ctrl(g, "argos") == 1 and metropolises_of(g, 0) == 1 and g.state.priestesses[0] == 0


def test_penthesilea_not_in_the_cycle_of_her_recruitment():
    """Limit: no sacrifice in the cycle of recruitment (rulebook, Heroes)."""
    g = scenario(areas=PENTHESILEA, player=[{"gp": 0, "philosophers": 3}, {}, {}],
                 decision={"turn": {"player": 0, "god": "athena"}})
    g.state.hero_since["penthesilea"] = g.state.cycle
    while not metro_frame(g):
        act(g, "build", "university", where="argos")
    assert "metropolis_on_card" not in kinds(g) and kinds(g) == {"metropolis"}


def test_rulebook_heroic_move_example_with_penthesilea():
    """Rulebook, Heroic Move, example: after Athena's free actions, Yellow pays 1 GP to move
    Penthesilea to a Land Area she controls to join three of her Troops; then 2 GP to move
    Penthesilea and two Troops again (her Fleet connecting the two Land Areas) to attack an
    enemy Land Area: a Land Battle begins at once."""
    g = scenario(areas={"argos": {"owner": 0, "heroes": ["penthesilea"]},
                        "corinth": {"owner": 0, "troops": 3},
                        "north": {"owner": 0, "fleets": 1},
                        "naxos": {"owner": 1, "troops": 1}, "melos": {"owner": 1}},
                 player=[{"gp": 5}, {}, {}], decision={"turn": {"player": 0, "god": "athena"}})
    act(g, "build", "university", where="argos")          # Athena's free actions
    assert g.state.philosophers[0] == 1
    heroic(g, "penthesilea", "corinth", cost=1)
    assert units(g, "corinth") == (3, 0, ["penthesilea"]) and g.state.gp[0] == 4
    ev = heroic(g, "penthesilea", "naxos", cost=2, t=2)
    assert g.state.gp[0] == 2 and any(e["type"] == "battle" for e in ev)
    assert units(g, "corinth") == (1, 0, [])


# --- Pericles ---------------------------------------------------------------------------------

def test_maelstrom_pericles_example():
    """Pericles (Maelström), example: "A player makes the 3rd Heroic Move with Pericles and pays
    1 GP instead of the standard 3 GP. The next Heroic Move with Pericles will also cost 1 GP, and
    a Heroic Move with another Hero will cost 4 GP" (R14: his moves still count)."""
    g = scenario(areas={"argos": {"owner": 0, "heroes": ["pericles", "ajax"]}, "corinth": {"owner": 0}},
                 player=[{"gp": 9}, {}, {}],
                 decision={"turn": {"player": 0, "god": "zeus", "stage": "main", "moves": 2}})
    costs = {a.what: a.n for a in g.legal_actions() if a.kind == "heroic_move"}
    assert costs == {"pericles": 1, "ajax": 3}
    heroic(g, "pericles", "corinth", cost=1)
    costs = {a.what: a.n for a in g.legal_actions() if a.kind == "heroic_move"}
    assert costs == {"pericles": 1, "ajax": 4} and g.state.gp[0] == 8


def test_pericles_sacrifice_with_all_eight_troops_on_the_board():
    """Pericles: "If all 8 of your basic Troops are on the game board, build a Metropolis.\""""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 5, "heroes": ["pericles"]},
                      "corinth": {"owner": 0, "troops": 3}})
    act(g, "sacrifice", "pericles")
    assert metro_frame(g)


def test_pericles_sacrifice_not_with_seven_troops():
    g = turn("zeus", {"argos": {"owner": 0, "troops": 4, "mercs": 3, "heroes": ["pericles"]},
                      "corinth": {"owner": 0, "troops": 3}})
    assert "pericles" not in sacrifices(g)


# --- Perseus ----------------------------------------------------------------------------------

PERSEUS = {"argos": {"owner": 0, "heroes": ["perseus"]}, "corinth": {"owner": 1, "troops": 3}}


def test_perseus_troops_may_retreat_instead_of_being_destroyed():
    """Perseus: "Troops with Perseus that should be destroyed in Battle may retreat instead.\""""
    g = turn("ares", dict(PERSEUS, argos={"owner": 0, "troops": 2, "heroes": ["perseus"]}),
             dice=[0, 3])
    attack(g, "argos", "corinth", t=2, heroes=["perseus"])
    assert {(a.kind, a.what, a.where) for a in g.legal_actions()} == {
        ("lose", "troop", ""), ("lose_hero", "perseus", ""), ("escape", "troop", "argos")}
    act(g, "escape", "troop", where="argos")
    assert units(g, "argos") == (1, 0, []) and battle(g)["attacker_troops"] == 1 and g.state.troops_left[0] == 6


def test_perseus_no_escape_without_him():
    """Limit: only "Troops with Perseus": without him a loss is a loss (R18)."""
    g = turn("ares", dict(PERSEUS, argos={"owner": 0, "troops": 2, "heroes": ["ajax"]}), dice=[0, 3])
    attack(g, "argos", "corinth", t=2, heroes=["ajax"])
    assert kinds(g) == {"lose", "lose_hero"}


def test_perseus_himself_cannot_retreat_if_destroyed():
    """Perseus: "Perseus cannot retreat if destroyed": alone, his loss is his death."""
    g = turn("zeus", PERSEUS, dice=[0, 3])
    heroic(g, "perseus", "corinth")
    assert "perseus" in g.state.hero_discard and ctrl(g, "corinth") == 1


def test_perseus_sacrifice_moves_troops_anywhere():
    """Perseus: "Move all or part of your Troops and Heroes from one Land Area to another Land
    Area ... they do not have to be adjacent or accessible to each other.\""""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 3, "heroes": ["perseus", "ajax"]},
                      "ios": {"owner": 1}})
    act(g, "sacrifice", "perseus")
    act(g, "origin", where="argos")
    act(g, "take", "troop", n=2)
    assert kinds(g) == {"take_hero", "done", "cancel"} and where(g, "take_hero") == {""}
    assert {a.what for a in g.legal_actions() if a.kind == "take_hero"} == {"ajax"}  # not Perseus
    act(g, "take_hero", "ajax")
    assert "ios" in where(g, "destination") and "naxos" in where(g, "destination")
    act(g, "destination", where="ios")
    assert units(g, "ios") == (2, 0, ["ajax"]) and ctrl(g, "ios") == 0
    assert units(g, "argos") == (1, 0, []) and gone_from_game(g, "perseus")


def test_perseus_sacrifice_into_enemy_troops_is_a_battle():
    g = turn("zeus", {"argos": {"owner": 0, "troops": 3, "heroes": ["perseus"]},
                      "ios": {"owner": 1, "troops": 1}, "melos": {"owner": 1}}, dice=[3, 0])
    act(g, "sacrifice", "perseus")
    act(g, "origin", where="argos")
    act(g, "take", "troop", n=3)
    ev = act(g, "destination", where="ios")
    assert any(e["type"] == "battle" for e in ev) and ctrl(g, "ios") == 0


def test_perseus_sacrifice_not_out_of_medusas_area():
    """Perseus: "Perseus may not move Troops and Heroes that are stuck in the Medusa's Area.\""""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 3, "heroes": ["perseus"]}},
             creatures={"medusa": {"owner": 1, "area": "argos"}})
    assert "perseus" not in sacrifices(g)


# --- the Minotaur -----------------------------------------------------------------------------

def test_minotaur_is_placed_on_a_land_area_its_buyer_controls():
    """Minotaur: "Place the Creature on a Land Area you control.\""""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1}, "naxos": {"owner": 0},
                      "ios": {"owner": 1}}, creature_track=["minotaur", None, None, None],
             gp=(9, 0, 0))
    act(g, "buy_creature", "minotaur", n=2)
    assert where(g, "place_creature") == {"argos", "naxos"}
    act(g, "place_creature", "minotaur", where="naxos")
    assert g.state.creature_at["minotaur"] == idx(g, "naxos") and g.state.creature_owner["minotaur"] == 0


MINOTAUR = {"argos": {"owner": 0, "troops": 3},
            "corinth": {"owner": 1, "troops": 1},
            "naxos": {"owner": 1}, "north": {"owner": 1, "fleets": 1}}


def test_minotaur_fights_with_strength_2_and_its_owner_chooses_the_loss():
    """Minotaur: "The Minotaur is a unit with a Battle Strength of 2 ... In case of a defeat in a
    Battle Round involving the Minotaur, the player who owns the Minotaur decides whether or not
    to destroy it.\""""
    g = turn("ares", MINOTAUR, dice=[3, 0], creatures={"minotaur": {"owner": 1, "area": "corinth"}})
    ev = attack(g, "argos", "corinth", t=3)
    assert rounds(ev)[0]["strength"] == [6, 0 + 1 + 2]
    assert g.to_move == 1 and {a.what for a in g.legal_actions()} == {"troop", "minotaur"}
    act(g, "lose", "troop")
    assert g.state.creature_at["minotaur"] == idx(g, "corinth")


def test_minotaur_alone_defends_its_area_and_is_destroyed_as_last_unit():
    """Minotaur: "If the Minotaur is their last unit, it must be destroyed" -- and alone it
    still defends: the attacker must fight it."""
    g = turn("ares", dict(MINOTAUR, corinth={"owner": 1}), dice=[3, 0],
             creatures={"minotaur": {"owner": 1, "area": "corinth"}})
    ev = attack(g, "argos", "corinth", t=3)
    assert rounds(ev)[0]["strength"] == [6, 2]
    assert "minotaur" not in g.state.creature_at and "minotaur" in g.state.creature_discard
    assert ctrl(g, "corinth") == 0


def test_minotaur_may_not_retreat():
    """Minotaur: "It may not retreat in Battle": its side is offered no retreat (naxos would be
    a retreat without it)."""
    g = turn("ares", MINOTAUR, dice=[0, 3, 0, 3], creatures={"minotaur": {"owner": 1, "area": "corinth"}})
    attack(g, "argos", "corinth", t=3)         # 0 + 3 against 3 + 1 + 2: the attacker loses
    assert g.to_move == 0 and "retreat" in kinds(g)  # the defender had no retreat to choose


def test_without_minotaur_the_defender_may_retreat():
    g = turn("ares", MINOTAUR, dice=[0, 3])
    attack(g, "argos", "corinth", t=3)
    assert g.to_move == 1 and "retreat" in kinds(g)


def test_minotaur_moves_in_maintenance_only_to_a_land_area_its_owner_controls():
    """Minotaur: "Place the Creature on a Land Area you control"; Maintenance Costs: a kept
    creature may move "to a valid adjacent Area" — for the Minotaur, one its owner controls."""
    g = scenario(areas={"argos": {"owner": 0, "troops": 1}, "corinth": {"owner": 1, "troops": 1},
                        "naxos": {"owner": 2}},
                 creatures={"minotaur": {"owner": 0, "area": "argos"}},
                 player=[{"priestesses": 1}, {}, {}], apollo=[0, 1, 2], decision={"maintenance": {}})
    act(g, "keep", "minotaur")
    assert {a.where for a in g.legal_actions() if a.kind == "move_creature"} == set()
    g = scenario(areas={"argos": {"owner": 0, "troops": 1}, "corinth": {"owner": 0},
                        "naxos": {"owner": 2}},
                 creatures={"minotaur": {"owner": 0, "area": "argos"}},
                 player=[{"priestesses": 1}, {}, {}], apollo=[0, 1, 2], decision={"maintenance": {}})
    act(g, "keep", "minotaur")
    assert {a.where for a in g.legal_actions() if a.kind == "move_creature"} == {"corinth"}
