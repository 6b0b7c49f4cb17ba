"""The oracle of every random game: engine/invariants.check, itself checked.

Random games, the slow games and the hypothesis scenarios trust `check(game) == []` after every
decision. Each invariant here gets a sound position broken in one way, and must name what
broke; the sound position itself, and the units an attacker holds in a battle frame, must not
be reported. Positions are on the small test map (tests/scenarios/small_map.yaml).
"""
import dataclasses
import re

import pytest
from positions import idx, scenario
from test_setup import chain_map

from cyclades.engine.invariants import check

# Player 0: argos (2 troops, Ajax, a fortress) and corinth (1 troop) with a fleet in west;
# player 1: naxos (a troop, a mercenary, the Minotaur) with two fleets in east; player 2: melos.
# Ios is no one's. Player 0 is in the optional actions of Ares' turn.
SOUND = dict(
    areas={"argos": {"owner": 0, "troops": 2, "heroes": ["ajax"], "buildings": ["fortress"]},
           "corinth": {"owner": 0, "troops": 1},
           "naxos": {"owner": 1, "troops": 1, "mercs": 1},
           "melos": {"owner": 2, "troops": 1},
           "west": {"owner": 0, "fleets": 1},
           "east": {"owner": 1, "fleets": 2}},
    player=[{"gp": 5, "priestesses": 1}, {"gp": 3, "philosophers": 1}, {"gp": 0}],
    creatures={"minotaur": {"owner": 1, "area": "naxos"}},
    decision={"turn": {"player": 0, "god": "ares", "stage": "main"}},
)


def sound():
    g = scenario(**SOUND)
    assert check(g) == []
    return g


def broken(change):
    """The sound position changed by `change(game, state, area index)`; the engine's cache of
    legal actions is dropped, since the state was changed behind its back."""
    g = sound()
    change(g, g.state, lambda area: idx(g, area))
    g._legal = None
    return check(g)


def _hold(s, card, player, area):
    """`player` holds creature `card`, its miniature on `area` (taken from the piles)."""
    for pile in (s.creature_deck, s.creature_discard):
        if card in pile:
            pile.remove(card)
    s.creature_track[:] = [None if c == card else c for c in s.creature_track]
    s.creature_owner[card] = player
    s.creature_at[card] = area


def _battle_frame(area, attacker=0, troops=0, heroes=()):
    return {"kind": "battle", "player": attacker, "sea": False, "area": area, "attacker": attacker,
            "defender": 1, "origin": area, "attacker_troops": troops, "attacker_mercenaries": 0,
            "attacker_heroes": tuple(heroes), "attacker_fleets": 0, "stage": "start", "pending": (),
            "losers": (), "dice": (), "round": 1, "last_area": False}


def _more_troops_than_the_box(g, s, a):
    s.troops[a("argos")] += s.troops_left[0] + 1  # the whole reserve and one more: 9 of 8
    s.troops_left[0] = -1


def _too_many_fortresses(g, s, a):
    g.rules = dataclasses.replace(g.rules, buildings_per_type=1)
    s.sites[g.board.sites_of(a("corinth"))[0]] = "fortress"


def _fleet_on_land(g, s, a):
    s.fleets[a("argos")] += 1
    s.fleets_left[0] -= 1


def _troop_at_sea(g, s, a):
    s.troops[a("west")] += 1
    s.troops_left[0] -= 1


def _emptied_sea(g, s, a):
    s.fleets[a("west")] = 0
    s.fleets_left[0] += 1


def _building_on_no_ones_land(g, s, a):
    s.sites[g.board.sites_of(a("ios"))[0]] = "temple"


def _hero_in_battle_and_on_board(g, s, a):
    s.stack.insert(0, _battle_frame(a("naxos"), heroes=["ajax"]))


def _second_miniature_on_an_area(g, s, a):
    _hold(s, "medusa", 0, a("naxos"))


def _kraken_among_fleets(g, s, a):
    _hold(s, "kraken", 1, a("east"))


def _polyphemus_by_a_fleet(g, s, a):
    _hold(s, "polyphemus", 0, a("argos"))  # west, next to argos, holds player 0's fleet


def _boar_with_troops(g, s, a):
    _hold(s, "calydonian-boar", 0, a("corinth"))


def _hero_card_on_the_track_too(g, s, a):
    s.hero_track[s.hero_track.index(None) if None in s.hero_track else 0] = "ajax"


def _creature_under_heracles_and_held(g, s, a):
    s.creature_cards["heracles"] = ("minotaur",)


BROKEN = {
    # reserves and the box (R28)
    "a troop more on the board than taken from the reserve": (
        lambda g, s, a: s.troops.__setitem__(a("argos"), 3), r"player 0: 4 troops on board \+ 5 in reserve"),
    "a fleet back in the reserve that is still on the board": (
        lambda g, s, a: s.fleets_left.__setitem__(0, s.fleets_left[0] + 1), r"player 0: 1 fleets on board"),
    "a reserve below zero": (_more_troops_than_the_box, r"player 0 has a negative reserve"),
    "a mercenary more on the board than taken": (
        lambda g, s, a: s.mercs.__setitem__(a("naxos"), 2), r"2 mercenaries on board \+ 15 in reserve"),
    "a mercenary reserve below zero": (
        lambda g, s, a: setattr(s, "mercs_left", -1), r"mercenaries on board \+ -1 in reserve"),
    "more priestesses than the supply": (
        lambda g, s, a: s.priestesses.__setitem__(0, 21), r"more priestesses or philosophers than the supply"),
    "more philosophers than the supply": (
        lambda g, s, a: s.philosophers.__setitem__(1, 21), r"more priestesses or philosophers than the supply"),
    "more buildings of a kind than the box": (_too_many_fortresses, r"more than 1 fortresss"),
    # purses
    "a purse below zero": (lambda g, s, a: s.gp.__setitem__(1, -1), r"player 1 has -1 GP"),
    # units on the board (R16)
    "a negative count of units": (lambda g, s, a: s.troops.__setitem__(a("melos"), -1), r"negative units in melos"),
    "a fleet on a land area": (_fleet_on_land, r"units of the wrong kind in argos"),
    "a troop at sea": (_troop_at_sea, r"units of the wrong kind in west"),
    "a unit where no one has control": (
        lambda g, s, a: s.ctrl.__setitem__(a("corinth"), -1), r"corinth holds units but no one controls it"),
    "an empty sea still controlled": (_emptied_sea, r"empty sea west is controlled"),
    "an area controlled by an eliminated player": (
        lambda g, s, a: s.eliminated.__setitem__(2, True), r"melos controlled by an eliminated player"),
    "a building where no one has control": (_building_on_no_ones_land, r"building on uncontrolled ios"),
    # heroes
    "a hero in an area of another player": (
        lambda g, s, a: s.hero_at.__setitem__("ajax", a("naxos")), r"hero ajax in naxos not its owner's area"),
    "a hero both attacking and on the board": (_hero_in_battle_and_on_board,
                                               r"hero ajax both in a battle frame and on the board"),
    "a hero card in two places": (_hero_card_on_the_track_too, r"hero card ajax in 2 places"),
    # creatures
    "a miniature of a creature that has none": (
        lambda g, s, a: s.creature_at.__setitem__("pegasus", a("argos")), r"pegasus on argos is no creature miniature"),
    "a miniature whose card no one holds": (
        lambda g, s, a: s.creature_at.__setitem__("medusa", a("corinth")), r"medusa on corinth but no one holds"),
    "a miniature held by an eliminated player": (
        lambda g, s, a: s.eliminated.__setitem__(1, True), r"minotaur on naxos held by eliminated player 1"),
    "a land creature at sea": (
        lambda g, s, a: s.creature_at.__setitem__("minotaur", a("north")), r"minotaur on north, not a land area"),
    "two miniatures on one area": (_second_miniature_on_an_area,
                                   r"(minotaur|medusa) and (minotaur|medusa) both on naxos"),
    "a held creature card also in the deck": (
        lambda g, s, a: s.creature_deck.append("minotaur"), r"minotaur both held and in a pile"),
    "a held creature whose miniature is off the board": (
        lambda g, s, a: s.creature_at.pop("minotaur"), r"minotaur held but its miniature is not on the board"),
    "fleets in the Kraken's sea": (_kraken_among_fleets, r"fleets in the Kraken's sea"),
    "a fleet next to Polyphemus": (_polyphemus_by_a_fleet, r"fleets next to Polyphemus"),
    "troops with the Calydonian Boar": (_boar_with_troops, r"troops or heroes with the Calydonian Boar"),
    "a creature card under Heracles and held": (_creature_under_heracles_and_held,
                                                 r"minotaur both under Heracles and elsewhere"),
    # the decision stack
    "a stack that waits on nobody": (lambda g, s, a: s.stack.clear(), r"no decision pending and the game is not over"),
    "an eliminated player to decide": (
        lambda g, s, a: s.eliminated.__setitem__(0, True), r"an eliminated player is to decide"),
}


def test_the_sound_position_breaks_no_invariant():
    g = sound()
    assert g.legal_actions() and not g.is_over


@pytest.mark.parametrize("what", sorted(BROKEN))
def test_each_broken_invariant_is_named(what):
    change, expected = BROKEN[what]
    errors = broken(change)
    assert any(re.search(expected, e) for e in errors), f"{what}: {errors}"


def test_a_decision_with_no_legal_action_is_reported():
    """The placement of a Control token (setup) when every free land has been taken (by hand:
    a board too small for the placement is refused on loading)."""
    g = scenario(board=chain_map(9), player=[{}, {}, {}], turn_order=[0, 1, 2], decision={"placement": {}})
    assert check(g) == [] and g.legal_actions()
    for k in range(1, 10):
        g.state.ctrl[idx(g, f"l{k}")] = 1
    g._legal = None
    assert any(re.search(r"no legal action in frame \{'kind': 'placement'", e) for e in check(g)), check(g)


def test_units_an_attacker_holds_in_a_battle_frame_are_counted_as_on_the_board():
    """Attackers stand in the battle frame until it ends (engine/battle.py): a troop and Ajax
    taken from argos into a battle on melos break no count, and the hero stands in one place."""
    g = sound()
    s = g.state
    s.troops[idx(g, "argos")] -= 1
    del s.hero_at["ajax"]
    s.stack.insert(0, _battle_frame(idx(g, "melos"), troops=1, heroes=["ajax"]))
    g._legal = None
    assert check(g) == []
    s.troops_left[0] -= 1  # the same troop taken twice
    assert any("player 0: 3 troops on board + 4 in reserve" in e for e in check(g)), check(g)


def test_mercenaries_and_fleets_an_attacker_holds_in_battle_frames_are_counted():
    """Player 1's mercenary and player 0's fleet, each taken into a battle (a land battle on
    corinth, a sea battle on north), are still theirs: no count breaks; taken twice, it does."""
    g = sound()
    s = g.state
    s.mercs[idx(g, "naxos")] -= 1
    land = _battle_frame(idx(g, "corinth"), attacker=1)
    land["attacker_mercenaries"] = 1
    s.fleets[idx(g, "west")] += 1  # a second fleet in west, from the reserve ...
    s.fleets_left[0] -= 1
    s.fleets[idx(g, "west")] -= 1  # ... that sails to battle
    sea = _battle_frame(idx(g, "north"), attacker=0)
    sea.update(sea=True, attacker_fleets=1)
    s.stack[:0] = [land, sea]
    g._legal = None
    assert check(g) == []
    s.mercs_left -= 1
    s.fleets_left[0] -= 1
    errors = check(g)
    assert any("1 mercenaries on board + 14 in reserve" in e for e in errors), errors
    assert any("player 0: 2 fleets on board + 5 in reserve" in e for e in errors), errors


def test_a_player_with_every_unit_on_the_board_breaks_nothing():
    """An empty reserve is no fault (R28: 8 troops, 8 fleets, 20 Priestesses): only a reserve
    below zero is."""
    g = sound()
    s = g.state
    s.priestesses[2] = 20 - sum(s.priestesses)
    s.troops[idx(g, "melos")] += s.troops_left[2]
    s.troops_left[2] = 0
    s.ctrl[idx(g, "south")] = 2
    s.fleets[idx(g, "south")] = s.fleets_left[2]
    s.fleets_left[2] = 0
    g._legal = None
    assert check(g) == []


def test_a_sea_where_a_battle_is_fought_may_be_emptied_of_its_defender():
    """The sea of a running sea battle keeps its control while its last fleet is being lost."""
    g = sound()
    s = g.state
    east = idx(g, "east")
    s.fleets[east] = 0
    s.fleets_left[1] += 2
    frame = _battle_frame(east, attacker=0)
    frame["sea"] = True
    s.stack.insert(0, frame)
    g._legal = None
    assert check(g) == []


def test_a_game_over_needs_no_decision():
    g = sound()
    g.state.over = True
    g.state.stack.clear()
    g._legal = None
    assert check(g) == []


def test_check_reports_every_broken_invariant_at_once():
    """Several faults give several reports: a fuzzing failure shows all of them."""
    def two_faults(g, s, a):
        s.gp[1] = -2
        s.creature_deck.append("minotaur")
    errors = broken(two_faults)
    assert any("player 1 has -2 GP" in e for e in errors) and any("both held and in a pile" in e for e in errors)


def test_every_battle_frame_of_one_attacker_is_counted():
    """Two battles of one attacker pending at once (a battle fought while another waits beneath
    it): the troops standing in each frame are all the attacker's; a count that kept only the
    last frame would report a missing troop."""
    g = sound()
    s = g.state
    s.troops[idx(g, "argos")] -= 2
    s.stack[:0] = [_battle_frame(idx(g, "melos"), troops=1), _battle_frame(idx(g, "naxos"), troops=1)]
    g._legal = None
    assert check(g) == []


def test_a_creature_being_placed_may_be_held_before_its_miniature_stands():
    """While a bought creature's frame runs (the Kraken being placed), its buyer holds the card
    and the miniature is not on the board yet: no fault. Once the frame is gone, it is one."""
    g = sound()
    s = g.state
    _hold(s, "kraken", 0, None)
    del s.creature_at["kraken"]
    s.stack.insert(0, {"kind": "creature", "player": 0, "card": "kraken", "stage": "start"})
    g._legal = None
    assert check(g) == []
    s.stack.pop(0)
    g._legal = None
    assert "kraken held but its miniature is not on the board" in check(g)
