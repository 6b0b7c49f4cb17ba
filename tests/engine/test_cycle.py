"""The Cycle: preparation, income, the next turn order and the end of the game
(rulebook, "1- Cycle Preparation", "2- Income", "5- Actions", "6- End of Cycle", "End of Game"; R21)."""
import pytest
from positions import act, scenario

import cyclades
from cyclades.engine import ops

GODS_4P = ["zeus", "ares", "poseidon", "athena", "hera"]
DECK = ["medusa", "kraken", "sphinx", "griffin", "pegasus", "harpy"]


def new_cycle(**data):
    data.setdefault("cycle", 2)
    return scenario(decision={"new_cycle": {}}, **data)


# --- 1- Cycle Preparation ----------------------------------------------------------------

def test_preparation_rulebook_creature_example():
    """Rulebook, Example - Cycle Preparation: the creatures on the 3 GP and 5 GP slots were used;
    Charon (2 GP slot) is discarded, the Chimera slides to the 2 GP slot and the 3, 4 and 5 GP
    slots are filled from the top of the deck."""
    g = new_cycle(creature_track=["charon", None, "chimera", None], creature_deck=DECK,
                  creature_discard=["satyr"])
    s = g.state
    assert s.creature_track == ["chimera", "medusa", "kraken", "sphinx"]
    assert s.creature_discard == ["satyr", "charon"]
    assert s.creature_deck == list(reversed(DECK[3:]))  # top card last


def test_preparation_unused_creatures_slide_to_cheapest_slots():
    """Rulebook, Cycle Preparation: with no card on the 2 GP slot nothing is discarded; the
    others move down to fill the least expensive slots, in order."""
    g = new_cycle(creature_track=[None, "cyclops", None, "dryad"], creature_deck=DECK)
    assert g.state.creature_track == ["cyclops", "dryad", "medusa", "kraken"]
    assert g.state.creature_discard == []


def test_preparation_chimera_discarded_reshuffles_deck_and_discards():
    """Rulebook, Chimera: when the Chimera is discarded during Cycle Initialization, the creature
    deck and the discard pile are shuffled together."""
    g = new_cycle(creature_track=["chimera", "cyclops", "dryad", "satyr"],
                  creature_deck=["medusa", "kraken"], creature_discard=["sphinx", "griffin"])
    s = g.state
    assert s.creature_track[:3] == ["cyclops", "dryad", "satyr"]
    assert s.creature_discard == []
    assert sorted(s.creature_deck + s.creature_track[3:]) == \
        sorted(["medusa", "kraken", "sphinx", "griffin", "chimera"])
    assert any(e["type"] == "reshuffle" for e in _events_of_new_cycle(
        creature_track=["chimera", "cyclops", "dryad", "satyr"], creature_deck=["medusa"]))


def test_reservation_ends_when_its_card_leaves_the_track():
    """Rulebook, Metropolis Bonuses, "Reserve a Mythological Creature": only the player can buy
    it "as long as the card remains on the Creature track". A reserved Chimera left on the 2 GP
    slot is discarded, its reshuffle puts it back in the deck and the refill draws it again: it
    is a new card, reserved by no one; the reservation of a card that stays on the track holds."""
    g = new_cycle(creature_track=["chimera", "cyclops", "dryad", "satyr"], creature_deck=[],
                  reserved={"chimera": 0, "dryad": 1})
    assert g.state.creature_track == ["cyclops", "dryad", "satyr", "chimera"]
    assert g.state.reserved == {"dryad": 1}
    assert [c["reserved_by"] for c in g.view(2)["creature_track"]] == [None, 1, None, None]


def _events_of_new_cycle(**data):
    """Events of the preparation: start one cycle earlier and end its last turn."""
    g = scenario(cycle=1, decision={"turn": {"player": 0, "god": "zeus", "stage": "main"}},
                 areas={"argos": {"owner": 0}}, **data)
    return act(g, "end_turn")


def test_preparation_empty_creature_deck_remade_from_discards():
    """Rulebook, Cycle Preparation (fill the slots from the deck): an exhausted deck is remade
    from its shuffled discard pile."""
    g = new_cycle(creature_track=[None, "cyclops", "dryad", "satyr"], creature_deck=[],
                  creature_discard=["sphinx"])
    assert g.state.creature_track == ["cyclops", "dryad", "satyr", "sphinx"]
    assert g.state.creature_discard == [] and g.state.creature_deck == []


def test_preparation_hero_track_refilled():
    """Rulebook, Cycle Preparation - Heroes: the empty spaces of the hero track are filled from
    the hero deck."""
    g = new_cycle(hero_track=[None, "ajax"], hero_deck=["helen", "jason"])
    assert g.state.hero_track == ["helen", "ajax"]
    assert g.state.hero_deck == ["jason"]


def test_preparation_rulebook_god_example_4_players():
    """Rulebook, Example - God Preparation - 4 players: Zeus in first position is removed, all
    gods move up one slot, Athena is flipped face up, Zeus is placed last face down."""
    g = new_cycle(players=4, gods=GODS_4P, turn_order=[0, 1, 2, 3])
    assert g.state.gods == ["ares", "poseidon", "athena", "hera", "zeus"]
    faces = {x["god"]: x["face_up"] for x in g.view(0)["gods"]}
    assert faces == {"ares": True, "poseidon": True, "athena": True, "hera": False, "zeus": False}
    # and the offerings of the new cycle accept only the face-up gods
    assert {a.what for a in g.legal_actions() if a.kind == "bid"} == {"ares", "poseidon", "athena"}


def test_first_cycle_has_no_preparation():
    """Rulebook, Cycle Preparation: for the first Cycle the gods stay in their set-up order and
    the tracks as dealt."""
    g = new_cycle(cycle=1, gods=GODS_4P, creature_track=["charon", None, "chimera", None],
                  creature_deck=DECK, hero_track=[None, "ajax"])
    assert g.state.cycle == 1
    assert g.state.gods == GODS_4P
    assert g.state.creature_track == ["charon", None, "chimera", None]
    assert g.state.hero_track == [None, "ajax"]


def test_first_cycle_after_placement_keeps_setup_gods():
    """Rulebook, Cycle Preparation: "For the first Cycle, the Gods are placed in random order at
    set-up" - the placement rounds lead to cycle 1 without rotating them."""
    g = cyclades.new_game(players=3, seed=4, board="recommended")
    gods, track = list(g.state.gods), list(g.state.creature_track)
    while g.phase == "setup":
        g.apply(g.legal_actions()[0])
    assert g.state.cycle == 1 and g.phase == "offerings"
    assert g.state.gods == gods and g.state.creature_track == track


# --- 2- Income ------------------------------------------------------------------------

def test_income_one_gp_per_cornucopia_in_controlled_areas():
    """Rulebook, 2- Income: 1 GP per cornucopia (printed and prosperity tokens) in the land and
    sea areas a player controls, control tokens included; empty seas give nobody anything."""
    g = new_cycle(areas={
        "argos": {"owner": 0, "troops": 1},            # 1 printed
        "melos": {"owner": 0},                          # 2 printed, control token only
        "east": {"owner": 0, "fleets": 1},              # 1 printed (sea)
        "naxos": {"owner": 1, "troops": 1, "prosperity": 2},   # 1 printed + 2 tokens
        "north": {"owner": 1, "fleets": 2, "prosperity": 1},   # sea with a token
        "west": {"prosperity": 3},                       # empty sea: no controller
        "corinth": {"owner": 2, "troops": 1},           # no cornucopia
    })
    assert g.state.gp == [5 + 4, 5 + 4, 5]
    assert g.phase == "offerings"


def test_income_prosperity_on_uncontrolled_land_gives_nothing():
    """Rulebook, 2- Income: only areas a player controls pay."""
    g = new_cycle(areas={"ios": {"prosperity": 2}, "argos": {"owner": 1}})
    assert g.state.gp == [5, 6, 5]


# --- 6- End of Cycle: the next turn order -------------------------------------------------

def _play_out_cycle(g):
    """End every remaining turn of the cycle, making the mandatory choices with the first option."""
    start = g.state.cycle
    while g.state.cycle == start and not g.is_over:
        legal = g.legal_actions()
        end = cyclades.Action("end_turn")
        g.apply(end if end in legal else legal[0])


def test_turn_order_rulebook_example_3_players():
    """Rulebook, Example - Turn Order - 3 players: Purple acts first and takes spot 3, Blue spot 2,
    Yellow (Apollo) spot 1 and makes the first Offering next cycle."""
    purple, yellow, blue = 0, 1, 2
    g = scenario(gods=["zeus", "ares", "poseidon", "athena", "hera"], turn_order=[1, 0, 2],
                 areas={"argos": {"owner": purple}, "naxos": {"owner": blue},
                        "melos": {"owner": yellow}},
                 decision={"turn": {"player": purple, "god": "zeus", "stage": "main",
                                    "action_order": [[purple, "zeus"], [blue, "ares"],
                                                     [yellow, "apollo"]]}})
    act(g, "end_turn")
    assert g.to_move == blue
    _play_out_cycle(g)
    assert g.state.cycle == 2
    assert g.state.turn_order == [yellow, blue, purple]
    assert g.to_move == yellow


def test_actions_follow_god_order_then_apollo_in_order_chosen():
    """Rulebook, 5- Actions and R9: the gods act from the one farthest from Apollo; Apollo
    players act last in the order they chose Apollo."""
    g = scenario(players=4, gods=["hera", "athena", "zeus", "ares", "poseidon"],
                 turn_order=[0, 1, 2, 3],
                 bids={"athena": [2, 1], "hera": [0, 3]}, apollo=[3, 1],
                 areas={a: {"owner": p} for p, a in enumerate(["argos", "naxos", "melos", "ios"])},
                 decision={"maintenance": {}})
    assert g.phase == "actions"
    assert g.state.action_order == [[0, "hera"], [2, "athena"], [3, "apollo"], [1, "apollo"]]
    assert g.to_move == 0
    _play_out_cycle(g)
    assert g.state.turn_order == [1, 3, 2, 0]


# --- End of Game (R21) ---------------------------------------------------------------------

def _end_scenario(metros, gp, action_order=None, **extra):
    """Player i holds metros[i] metropolises (naxos: 3 sites, argos and corinth 2, melos 1, ios 2);
    player 0 is to end the last turn of the cycle."""
    sites = {0: ["naxos"], 1: ["argos", "corinth"], 2: ["ios", "melos"]}
    areas = {}
    for p, n in enumerate(metros):
        lands = sites[p]
        for i, land in enumerate(lands):
            k = n if len(lands) == 1 else (n + 1 - i) // 2 if i == 0 else n // 2
            areas[land] = {"owner": p, "troops": 1, "buildings": ["metropolis"] * k}
    return scenario(player=[{"gp": x} for x in gp], areas=areas,
                    decision={"turn": {"player": 0, "god": "zeus", "stage": "main",
                                       "action_order": action_order}}, **extra)


def test_end_of_game_at_end_of_cycle_most_metropolises_wins():
    """R21 / rulebook, 6- End of Cycle: the game ends at the end of the cycle in which someone
    controls 3 metropolises; most metropolises wins even with fewer GP."""
    g = _end_scenario([3, 2, 0], [1, 20, 30])  # player 0 plays the last turn of the cycle
    assert not g.is_over
    act(g, "end_turn")
    assert g.is_over
    r = g.result()
    assert r["winners"] == [0] and r["metropolises"] == [3, 2, 0] and r["cycle_limit"] is False


def test_end_of_game_not_before_the_cycle_ends():
    """R21: controlling 3 metropolises during the cycle ends the game only at its end."""
    g = _end_scenario([3, 0, 0], [5, 5, 5], action_order=[[0, "zeus"], [1, "apollo"]])
    act(g, "end_turn")
    assert not g.is_over and g.to_move == 1
    _play_out_cycle(g)
    assert g.is_over and g.result()["winners"] == [0]


def test_end_of_game_tie_on_metropolises_most_gp_wins():
    """Rulebook, End of Game: a tie on metropolises goes to the most GP."""
    g = _end_scenario([3, 3, 1], [4, 6, 9])
    act(g, "end_turn")
    assert g.is_over and g.result()["winners"] == [1]


def test_end_of_game_full_tie_shares_victory():
    """Rulebook, End of Game: a further tie on GP is a shared victory."""
    g = _end_scenario([3, 3, 1], [6, 6, 9])
    act(g, "end_turn")
    assert g.is_over and g.result()["winners"] == [0, 1]


def test_end_of_game_no_winner_below_three_metropolises():
    """R21: with no one at 3 metropolises and nobody eliminated a new cycle begins."""
    g = _end_scenario([2, 2, 1], [6, 6, 9])
    act(g, "end_turn")
    assert not g.is_over and g.state.cycle == 2 and g.phase == "offerings"


def test_end_of_game_after_elimination_in_the_cycle():
    """R21, R27: a player eliminated during the cycle ends the game at its end; the winner is
    chosen among the others by metropolises then GP."""
    g = _end_scenario([1, 1, 0], [3, 8, 50])
    ios = g.board.index["ios"]
    melos = g.board.index["melos"]
    g.state.troops[ios] = g.state.troops[melos] = 0  # control tokens only: taken without a battle
    ops.take_control(g, melos, 0)   # player 2 loses melos, still has ios
    assert not g.state.eliminated[2]
    ops.take_control(g, ios, 1)     # and then its last land area
    assert g.state.eliminated[2]
    act(g, "end_turn")
    assert g.is_over
    assert g.result()["winners"] == [1] and g.result()["eliminated"] == [False, False, True]


def test_cycle_limit_guard_ends_with_the_same_tie_breaks():
    """max_cycles guard: the game ends after that cycle, winners by metropolises then GP (R21),
    and the result says the cycle limit ended it."""
    g = _end_scenario([1, 1, 0], [3, 8, 50], cycle=4, max_cycles=4)
    act(g, "end_turn")
    assert g.is_over
    r = g.result()
    assert r["cycle_limit"] is True and r["winners"] == [1] and r["cycles"] == 4


def test_cycle_limit_not_reached_goes_on():
    """max_cycles guard: before the limit a new cycle begins."""
    g = _end_scenario([1, 1, 0], [3, 8, 50], cycle=3, max_cycles=4)
    act(g, "end_turn")
    assert not g.is_over and g.state.cycle == 4 and g.result()["cycle_limit"] is False


# --- 4- Maintenance Costs ---------------------------------------------------------------

def _maintenance(priestesses):
    """All three players go to Apollo; player 0 owns the Kraken on `west`, player 1 the Typhon
    on `north` (set by hand: the scenario format has no key for creature miniatures)."""
    g = scenario(turn_order=[0, 1, 2], areas={"argos": {"owner": 0}, "naxos": {"owner": 1},
                                              "melos": {"owner": 2}},
                 player=[{"gp": 5, "priestesses": n} for n in priestesses],
                 decision={"offerings": {}})
    s, b = g.state, g.board
    s.creature_at.update({"kraken": b.index["west"], "typhon": b.index["north"]})
    s.creature_owner.update({"kraken": 0, "typhon": 1})
    for _ in range(3):
        act(g, "apollo")
    assert g.phase == "maintenance"
    return g


def test_maintenance_keep_by_discarding_a_priestess_then_move_to_adjacent_free_area():
    """Rulebook, 4- Maintenance Costs: discard one Priestess per creature kept; a kept creature
    may move to an adjacent area of its card's type that holds no other creature."""
    g = _maintenance([2, 0, 0])
    assert g.to_move == 0
    assert set(g.legal_actions()) == {cyclades.Action("keep", "kraken"),
                                      cyclades.Action("release", "kraken")}
    act(g, "keep", "kraken")
    assert g.state.priestesses[0] == 1
    # west touches argos, corinth (land), north (the Typhon) and south
    assert set(g.legal_actions()) == {cyclades.Action("stay", "kraken"),
                                      cyclades.Action("move_creature", "kraken", "south")}
    act(g, "move_creature", "kraken", "south")
    assert g.state.creature_at["kraken"] == g.board.index["south"]


def test_maintenance_without_priestess_the_creature_leaves():
    """Rulebook, 4- Maintenance Costs: an unpaid creature leaves the board; its card is
    discarded."""
    g = _maintenance([1, 0, 0])
    act(g, "keep", "kraken")
    act(g, "stay", "kraken")
    assert g.to_move == 1
    assert g.legal_actions() == [cyclades.Action("release", "typhon")]
    act(g, "release", "typhon")
    assert "typhon" not in g.state.creature_at and "typhon" in g.state.creature_discard
    assert g.phase == "actions"


def test_scenario_creature_key_is_not_silently_ignored():
    """docs/scenarios.md: unknown keys are refused; a key the loader accepts must take effect
    (the maintenance tests above have to place their creatures by hand)."""
    g = scenario(areas={"argos": {"owner": 0}},
                 creatures={"kraken": {"owner": 0, "area": "west"}})
    assert g.state.creature_at.get("kraken") == g.board.index["west"]
    assert g.state.creature_owner["kraken"] == 0 and "kraken" not in g.state.creature_deck
    with pytest.raises(cyclades.ScenarioError):
        scenario(heroes=["ajax"])
