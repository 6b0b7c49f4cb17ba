"""Sea Battles, Land Battles and elimination (rulebook: Sea Battle, Land Battle, Heroes,
End of Game; rulings R3, R15, R16, R18, R19, R27).

Positions are on the small test map (tests/scenarios/small_map.yaml):

            north (sea)
   corinth ---------- naxos
     |   \\              |
   argos   west (sea)  east (sea)
     |      |           |
            south (sea)
        melos -- ios

Scenario key `dice` forces the next die results, attacker's roll first in each round (R3:
faces 0, 1, 1, 2, 2, 3).
"""
import pytest
from positions import act, ctrl, idx, kinds, scenario, take_and_go, where

NOBODY = -1


def turn(god, areas, dice=(), gp=(9, 5, 5), **kw):
    """Player 0's turn of `god`, at its optional actions."""
    kw.setdefault("player", [{"gp": x} for x in gp])
    return scenario(areas=areas, dice=list(dice),
                    decision={"turn": {"player": 0, "god": god, "stage": "main"}}, **kw)


def units(g, area):
    """(troops, mercenaries, heroes) on a land area, or the fleets on a sea area."""
    a = idx(g, area)
    if g.board.is_land[a]:
        return g.state.troops[a], g.state.mercs[a], sorted(h for h, at in g.state.hero_at.items() if at == a)
    return g.state.fleets[a]


def rounds(events):
    return [e for e in events if e["type"] == "round"]


def attack(g, frm, to, t=0, m=0, heroes=()):
    """An Ares Land Move into an enemy area; returns the events (the battle's first round)."""
    return act(g, "land_move", n=1) + act(g, "origin", where=frm) + take_and_go(g, to, t, m, heroes)


def sail(g, frm, to, n):
    """A Poseidon Sea Move; returns the events."""
    return act(g, "sea_move", n=1) + act(g, "origin", where=frm) + act(g, "take", "fleet", n=n) \
        + act(g, "destination", where=to)


def test_battle_die_faces():
    """R3: the battle die has six faces 0, 1, 1, 2, 2, 3; forced results (scenario `dice`)
    come first."""
    from collections import Counter

    from cyclades.engine.ops import roll_die
    g = scenario(dice=[3, 3], seed=7)
    assert [roll_die(g), roll_die(g)] == [3, 3]
    counts = Counter(roll_die(g) for _ in range(6000))
    assert set(counts) == {0, 1, 2, 3}
    for face, share in ((0, 1), (1, 2), (2, 2), (3, 1)):
        assert abs(counts[face] / 1000 - share) < 0.15


# --- Battle Strength --------------------------------------------------------------------

def test_land_strength_is_die_plus_units_plus_defenders_fortress():
    """Rulebook, Land Battle / R18, R15: die + 1 per troop, mercenary and hero; the defender
    adds 1 per fortress in the area (the attacker's fortress at home does not count)."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 3, "mercs": 1, "heroes": ["jason"],
                                "buildings": ["fortress"]},
                      "corinth": {"owner": 1, "troops": 1, "mercs": 1, "buildings": ["fortress"]},
                      "naxos": {"owner": 1}}, dice=[1, 0])
    ev = attack(g, "argos", "corinth", t=2, m=1, heroes=["jason"])
    assert rounds(ev)[0]["dice"] == [1, 0]
    assert rounds(ev)[0]["strength"] == [1 + 2 + 1 + 1, 0 + 1 + 1 + 1]


def test_land_strength_metropolis_counts_as_a_fortress_for_the_defender():
    """R15 (rulebook, Metropolises): a metropolis has the effect of every basic building: +1
    to its controller when defending, on top of a fortress in the same area."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2},
                      "corinth": {"owner": 1, "troops": 1, "buildings": ["metropolis", "fortress"]},
                      "naxos": {"owner": 1}}, dice=[0, 0])
    ev = attack(g, "argos", "corinth", t=2)
    assert rounds(ev)[0]["strength"] == [2, 1 + 2]


def test_rulebook_sea_battle_example():
    """Rulebook, "Example - Battle": Yellow (player 0) attacks Black's sea area with 2 fleets;
    Yellow has 1 port by the battle area and rolls 2: 5. Black, 1 fleet and 1 port, rolls 2:
    4. Yellow wins the round and Black must destroy her fleet."""
    g = turn("poseidon", {"argos": {"owner": 0, "buildings": ["port"]},
                          "corinth": {"owner": 1, "buildings": ["port"]},
                          "north": {"owner": 0, "fleets": 2},
                          "west": {"owner": 1, "fleets": 1}}, dice=[2, 2])
    ev = sail(g, "north", "west", 2)
    assert rounds(ev) == [{"type": "round", "area": "west", "round": 1, "dice": [2, 2],
                           "strength": [5, 4]}]
    assert units(g, "west") == 2 and ctrl(g, "west") == 0
    assert g.state.fleets_left[1] == 8  # back in Black's reserve
    assert g.state.gp[0] == 8


@pytest.mark.parametrize("lands, expected", [
    ({"argos": (0, ["port"])}, [0 + 1 + 1, 0 + 1]),                    # the attacker's port
    ({"argos": (0, ["port", "port"])}, [0 + 1 + 2, 0 + 1]),            # one per port
    ({"argos": (0, ["metropolis"])}, [0 + 1 + 1, 0 + 1]),              # a metropolis is a port
    ({"ios": (1, ["metropolis", "port"])}, [0 + 1, 0 + 1 + 2]),        # the defender's too
    ({"melos": (1, ["port"]), "ios": (1, ["port"])}, [0 + 1, 0 + 1 + 2]),  # over several areas
    ({"corinth": (0, ["port"])}, [0 + 1, 0 + 1]),                      # not by this sea area
    ({"ios": (2, ["port"])}, [0 + 1, 0 + 1]),                          # player 2's: neither side
    ({"argos": (0, ["fortress"])}, [0 + 1, 0 + 1]),                    # no fortress at sea
])
def test_sea_strength_counts_ports_of_each_side_by_the_battle_area(lands, expected):
    """Rulebook, Sea Battle / R15: die + 1 per fleet + 1 per port (or metropolis) that the
    side controls on a land area adjacent to the battle's sea area, for both sides. The
    battle is in south, whose coast is argos, melos and ios."""
    areas = {"argos": {"owner": 0}, "corinth": {"owner": 0}, "melos": {"owner": 1}, "ios": {"owner": 1},
             "west": {"owner": 0, "fleets": 1}, "south": {"owner": 1, "fleets": 1}}
    for land, (owner, buildings) in lands.items():
        areas[land] = {"owner": owner, "buildings": buildings}
    g = turn("poseidon", areas, dice=[0, 0, 0, 0])
    ev = sail(g, "west", "south", 1)
    assert rounds(ev)[0]["strength"] == expected


# --- losing a round ---------------------------------------------------------------------

def test_lowest_strength_loses_a_unit_no_choice_when_one_kind():
    """Rulebook, Land Battle / R18: the lower total loses a unit; a basic troop goes back to
    its owner's reserve. With one kind of unit there is nothing to decide."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 3}, "corinth": {"owner": 1, "troops": 2},
                      "naxos": {"owner": 1}}, dice=[3, 0])
    left = g.state.troops_left[1]
    ev = attack(g, "argos", "corinth", t=3)  # 6 against 2
    assert [e["player"] for e in ev if e["type"] == "casualty"] == [1]
    assert units(g, "corinth") == (1, 0, []) and g.state.troops_left[1] == left + 1
    assert {a.kind for a in g.legal_actions()} == {"retreat", "hold"}  # no loss to choose


def test_loser_chooses_which_kind_of_unit_to_lose():
    """R18 (rulebook, Land Battle): the loser removes a unit of their choice: a troop, a
    mercenary or a hero; the choice is the loser's decision."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 3}, "corinth": {"owner": 1, "troops": 1, "mercs": 1,
                                                                       "heroes": ["jason"]},
                      "naxos": {"owner": 1}}, dice=[3, 0])
    attack(g, "argos", "corinth", t=3)  # 6 against 3
    assert g.to_move == 1
    assert {(a.kind, a.what) for a in g.legal_actions()} == {
        ("lose", "troop"), ("lose", "merc"), ("lose_hero", "jason")}


def test_lost_mercenary_returns_to_the_general_reserve():
    """Rulebook, Land Battle: a mercenary troop lost goes to the general reserve."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 3}, "corinth": {"owner": 1, "troops": 1, "mercs": 1},
                      "naxos": {"owner": 1}}, dice=[3, 0])
    mercs, troops = g.state.mercs_left, g.state.troops_left[1]
    attack(g, "argos", "corinth", t=3)
    act(g, "lose", "merc")
    assert units(g, "corinth") == (1, 0, [])
    assert (g.state.mercs_left, g.state.troops_left[1]) == (mercs + 1, troops)


def test_hero_chosen_as_a_loss_is_discarded():
    """Rulebook, Land Battle / R18: the player may remove one of their heroes: its card is
    discarded and the miniature leaves the board."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 3}, "corinth": {"owner": 1, "troops": 1,
                                                                       "heroes": ["jason"]},
                      "naxos": {"owner": 1}}, dice=[3, 0])
    attack(g, "argos", "corinth", t=3)
    act(g, "lose_hero", "jason")
    assert "jason" not in g.state.hero_at and "jason" not in g.state.hero_owner
    assert g.state.hero_discard[-1] == "jason"
    assert units(g, "corinth") == (1, 0, [])


def test_attacking_hero_chosen_as_a_loss_is_discarded():
    """Rulebook, Heroic Move: a player whose hero, accompanied by troops, loses a round decides
    whether they lose a troop or the hero."""
    g = turn("zeus", {"argos": {"owner": 0, "troops": 1, "heroes": ["jason"]},
                      "corinth": {"owner": 1, "troops": 2}, "naxos": {"owner": 1}}, dice=[0, 3, 0, 0])
    act(g, "heroic_move", "jason", n=1)
    act(g, "take", "troop", n=1)
    act(g, "destination", where="corinth")  # 0 + 2 against 3 + 2
    assert g.to_move == 0
    assert {(a.kind, a.what) for a in g.legal_actions()} == {("lose", "troop"), ("lose_hero", "jason")}
    act(g, "lose_hero", "jason")
    assert "jason" not in g.state.hero_owner and "jason" in g.state.hero_discard


def test_tie_both_sides_lose_a_unit():
    """Rulebook, Land Battle / R18: in case of a tie, both lose a unit."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 3}, "corinth": {"owner": 1, "troops": 2},
                      "naxos": {"owner": 1}}, dice=[1, 2])
    ev = attack(g, "argos", "corinth", t=3)  # 4 against 4
    assert rounds(ev)[0]["strength"] == [4, 4]
    casualties = [e["player"] for e in ev if e["type"] == "casualty"]
    assert sorted(casualties) == [0, 1]
    battle = g.state.stack[-1]
    assert (battle["attacker_troops"], units(g, "corinth")) == (2, (1, 0, []))


def test_tie_with_choices_each_loser_decides_attacker_first():
    """R18: in a tie each side removes a unit of its own choice; both are decisions, the
    attacker's first (as its die is rolled first)."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2, "mercs": 1},
                      "corinth": {"owner": 1, "troops": 1, "mercs": 2}, "naxos": {"owner": 1}}, dice=[1, 1])
    attack(g, "argos", "corinth", t=2, m=1)  # 4 against 4
    assert g.to_move == 0 and {a.what for a in g.legal_actions()} == {"troop", "merc"}
    act(g, "lose", "merc")
    assert g.to_move == 1 and {a.what for a in g.legal_actions()} == {"troop", "merc"}
    act(g, "lose", "troop")
    assert g.state.stack[-1]["kind"] == "battle" and g.state.stack[-1]["attacker_mercenaries"] == 0
    assert units(g, "corinth") == (0, 2, [])


def test_sea_battle_tie_both_lose_a_fleet():
    """Rulebook, Sea Battle: in case of a tie, each removes one fleet to its reserve."""
    g = turn("poseidon", {"argos": {"owner": 0}, "south": {"owner": 0, "fleets": 2},
                          "west": {"owner": 1, "fleets": 2}, "naxos": {"owner": 1}}, dice=[2, 2])
    ev = sail(g, "south", "west", 2)
    assert sorted(e["player"] for e in ev if e["type"] == "casualty") == [0, 1]
    assert (g.state.fleets_left[0], g.state.fleets_left[1]) == (7, 7)


# --- retreats ---------------------------------------------------------------------------

RETREAT_AREAS = {
    "argos": {"owner": 0, "troops": 3}, "corinth": {"owner": 1, "troops": 2},
    "naxos": {"owner": 1}, "north": {"owner": 1, "fleets": 1},
}


def test_defender_may_retreat_first_to_an_empty_or_own_accessible_area():
    """Rulebook, Land Battle / R18: when both sides have units left, the defender may retreat
    to an accessible land area that is empty or its own (here naxos, by its fleet; argos is the
    attacker's), or stay."""
    g = turn("ares", RETREAT_AREAS, dice=[2, 0])
    attack(g, "argos", "corinth", t=3)  # 5 against 2
    assert g.to_move == 1
    assert where(g, "retreat") == {"naxos"} and "hold" in kinds(g)


def test_defender_retreat_gives_the_area_to_the_attacker():
    """Rulebook, Land Battle: the defender retreats; the attacker is the only one left and
    takes control of the area (and of its Priestess icon)."""
    g = turn("ares", RETREAT_AREAS, dice=[2, 0])
    attack(g, "argos", "corinth", t=3)
    act(g, "retreat", where="naxos")
    assert units(g, "naxos") == (1, 0, []) and ctrl(g, "naxos") == 1
    assert units(g, "corinth") == (3, 0, []) and ctrl(g, "corinth") == 0
    assert g.state.priestesses[0] == 1
    assert "end_turn" in kinds(g)  # the battle is over


def test_attacker_may_retreat_when_the_defender_stays():
    """Rulebook, Land Battle / R18: if the defender does not retreat, the attacker may; the
    defender keeps the area."""
    g = turn("ares", RETREAT_AREAS, dice=[2, 0])
    attack(g, "argos", "corinth", t=3)
    act(g, "hold")
    assert g.to_move == 0 and where(g, "retreat") == {"argos"}
    act(g, "retreat", where="argos")
    assert units(g, "argos") == (3, 0, []) and units(g, "corinth") == (1, 0, [])
    assert ctrl(g, "corinth") == 1


def test_no_retreat_means_another_round():
    """Rulebook, Land Battle / R18: if neither retreats, a new round begins at once."""
    g = turn("ares", RETREAT_AREAS, dice=[2, 0, 2, 0])
    attack(g, "argos", "corinth", t=3)
    act(g, "hold")
    ev = act(g, "hold")
    assert [r["round"] for r in rounds(ev)] == [2]
    assert ctrl(g, "corinth") == 0 and units(g, "corinth") == (3, 0, [])


def test_defender_unable_to_retreat_leaves_the_choice_to_the_attacker():
    """Rulebook, Land Battle: "If the defender is unwilling or unable to retreat, the attacker
    may in turn choose to retreat": without a place to go, the defender is not asked."""
    areas = dict(RETREAT_AREAS)
    del areas["north"]
    g = turn("ares", areas, dice=[2, 0])
    attack(g, "argos", "corinth", t=3)
    assert g.to_move == 0 and where(g, "retreat") == {"argos"}


def test_sea_retreat_to_an_adjacent_free_or_own_sea_area():
    """Rulebook, Sea Battle: the defender may retreat to an adjacent sea area that is free or
    its own (not the enemy's); then the attacker, likewise."""
    g = turn("poseidon", {"naxos": {"owner": 0}, "ios": {"owner": 1}, "melos": {"owner": 1},
                          "north": {"owner": 0, "fleets": 3}, "east": {"owner": 1, "fleets": 2},
                          "south": {"owner": 2, "fleets": 1}}, dice=[2, 0])
    sail(g, "north", "east", 2)  # 4 against 2: the defender loses one fleet
    # Defender: north is player 0's, south player 2's: no retreat, the attacker is asked.
    assert g.to_move == 0 and where(g, "retreat") == {"north"}
    g = turn("poseidon", {"naxos": {"owner": 0}, "ios": {"owner": 1}, "melos": {"owner": 1},
                          "north": {"owner": 0, "fleets": 3}, "east": {"owner": 1, "fleets": 2}},
             dice=[2, 0])
    sail(g, "north", "east", 2)
    assert g.to_move == 1 and where(g, "retreat") == {"south"}
    act(g, "hold")
    assert g.to_move == 0 and where(g, "retreat") == {"north", "south"}


def test_sea_defender_retreat_moves_its_fleets_and_gives_up_the_area():
    """Rulebook, Sea Battle: the retreating defender's fleets go to the chosen area; the
    attacker, alone, takes control of the battle area."""
    g = turn("poseidon", {"naxos": {"owner": 0}, "ios": {"owner": 1},
                          "north": {"owner": 0, "fleets": 3}, "east": {"owner": 1, "fleets": 3}},
             dice=[2, 0])
    sail(g, "north", "east", 2)
    act(g, "retreat", where="south")
    assert (units(g, "south"), ctrl(g, "south")) == (2, 1)
    assert (units(g, "east"), ctrl(g, "east")) == (2, 0)


def test_battle_decision_survives_json_and_copy():
    """R18/R26: a battle waiting on a retreat decision is plain data: a copy or a JSON round
    trip goes on exactly like the original."""
    import cyclades
    g = turn("ares", RETREAT_AREAS, dice=[2, 0, 2, 0])
    attack(g, "argos", "corinth", t=3)
    h = cyclades.Game.from_json(g.to_json())
    c = g.copy()
    for game in (g, h, c):
        act(game, "hold")
        act(game, "hold")
    assert g.to_json() == h.to_json() == c.to_json()


# --- the end of a battle ----------------------------------------------------------------

def test_land_battle_both_sides_destroyed_defender_keeps_control():
    """Rulebook, Land Battle: if no troops or heroes are left in the area, the defender keeps
    control of it (a control token)."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2}, "corinth": {"owner": 1, "troops": 1},
                      "naxos": {"owner": 1}}, dice=[0, 0])
    attack(g, "argos", "corinth", t=1)  # 1 against 1: both lose their only unit
    assert units(g, "corinth") == (0, 0, []) and ctrl(g, "corinth") == 1
    assert units(g, "argos") == (1, 0, []) and "end_turn" in kinds(g)
    assert g.state.priestesses[0] == 0


def test_sea_battle_both_sides_destroyed_no_one_controls_it():
    """Rulebook, Sea Battle / R16: if both eliminate each other, the area is controlled by no one."""
    g = turn("poseidon", {"argos": {"owner": 0}, "south": {"owner": 0, "fleets": 1},
                          "west": {"owner": 1, "fleets": 1}, "naxos": {"owner": 1}}, dice=[1, 1])
    sail(g, "south", "west", 1)
    assert units(g, "west") == 0 and ctrl(g, "west") == NOBODY
    assert ctrl(g, "south") == NOBODY  # the attacker's emptied origin too


def test_attacker_destroyed_defender_holds():
    """Rulebook, Land Battle: the battle goes on until one side is left; a destroyed attacker's
    troops return to its reserve and the defender keeps the area."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2}, "corinth": {"owner": 1, "troops": 3},
                      "naxos": {"owner": 1}}, dice=[0, 3, 0, 3])
    left = g.state.troops_left[0]
    attack(g, "argos", "corinth", t=2)
    act(g, "hold")  # the attacker stays after losing its first troop
    assert units(g, "corinth") == (3, 0, []) and ctrl(g, "corinth") == 1
    assert g.state.troops_left[0] == left + 2 and "end_turn" in kinds(g)


def test_attacker_winning_takes_the_area_and_its_priestess():
    """Rulebook, Land Battle / Land Move: the one player left takes control of the area; the
    Priestess icon gives a Priestess card."""
    g = turn("ares", {"argos": {"owner": 0, "troops": 2}, "corinth": {"owner": 1, "troops": 1},
                      "naxos": {"owner": 1}}, dice=[3, 0])
    attack(g, "argos", "corinth", t=2)
    assert units(g, "corinth") == (2, 0, []) and ctrl(g, "corinth") == 0
    assert g.state.priestesses == [1, 0, 0]


# --- elimination ------------------------------------------------------------------------

ELIMINATION = {
    "argos": {"owner": 0, "buildings": ["metropolis"]},
    "corinth": {"owner": 0, "buildings": ["metropolis"]},
    "melos": {"owner": 0, "troops": 3},
    "ios": {"owner": 1, "troops": 1, "buildings": ["metropolis"]},
    "east": {"owner": 1, "fleets": 2},
}


def test_player_losing_their_last_land_area_is_eliminated():
    """R27: a player who controls no land area is eliminated; their units leave the board
    (fleets back to the reserve, the sea areas controlled by no one)."""
    g = turn("ares", ELIMINATION, dice=[3, 0])
    ev = attack(g, "melos", "ios", t=2)
    assert {"type": "eliminated", "player": 1} in ev
    assert g.state.eliminated == [False, True, False]
    assert units(g, "east") == 0 and ctrl(g, "east") == NOBODY
    assert g.state.fleets_left[1] == 8
    assert not any(p == 1 for p in g.state.ctrl)


def test_eliminated_player_takes_no_further_decision_and_the_game_ends_that_cycle():
    """R27 / R21: the eliminated player's later turn is skipped and the game ends at the end of
    the cycle."""
    g = scenario(areas=ELIMINATION, dice=[3, 0], decision={"turn": {
        "player": 0, "god": "ares", "stage": "main", "action_order": [[0, "ares"], [1, "zeus"]]}})
    attack(g, "melos", "ios", t=2)
    assert not g.is_over
    act(g, "end_turn")
    assert g.is_over and g.result()["eliminated"] == [False, True, False]
    assert g.result()["winners"] == [0]
