"""The 2009 classic edition as a second ruleset on the same engine (R1).

Each test builds a position on the classic board (R8) with `ruleset: classic`, plays one or a
few decisions, and checks one difference from Legendary against the classic rulebook
(`classic-rulebook-overview.txt`, "Overview"; `classic-rulebook-actions.txt`, "Actions") or a
ruling.
"""
import random
from collections import Counter

import pytest
from positions import act, kinds, legal, scenario
from test_board import check_r7

import cyclades
from cyclades import Action
from cyclades.content.cards import CLASSIC_CREATURES
from cyclades.content.rulesets import CLASSIC, RULESETS
from cyclades.engine.board import Board, load_classic
from cyclades.engine.invariants import check
from cyclades.web.geometry import geometry

CLASSIC_GODS = {"poseidon", "ares", "zeus", "athena"}


def classic(players=3, **data):
    """A classic scenario on the classic board (R8)."""
    data.setdefault("board", "classic")
    return scenario(players=players, ruleset="classic", **data)


def turn(player, god, stage="main", after=()):
    """A god's turn; `after` lists the turns that follow it in the cycle."""
    return {"turn": {"player": player, "god": god, "stage": stage,
                     "action_order": [[player, god]] + [list(x) for x in after]}}


def area(g, area_id):
    return g.board.index[area_id]


def gp(g, p):
    return g.state.gp[p]


def sites(g, area_id):
    return [g.state.sites[i] for i in g.board.sites_of(area(g, area_id))]


# --- R8: the board -----------------------------------------------------------------------------

def test_r8_classic_board_thirteen_isles_each_one_area_with_a_metropolis_space():
    """R8 / Overview, Metropolises: "Each isle has a reserved space for a metropolis": 13 isles,
    each a single land area with building spaces and one metropolis space (its last site);
    every isle touches the sea; the seas form one network."""
    b = Board.classic(5)
    assert len(b.lands) == 13 and len(b.islands) == 13
    assert all(len(isle) == 1 for isle in b.islands)
    for a in b.lands:
        assert b.metro_site[a] == b.site_start[a] + b.sites[a] - 1
        assert len(b.building_sites(a)) == b.sites[a] - 1 >= 2
        assert b.coast[a] and not b.land_adj[a] and not b.priestess[a]
    seen, todo = {b.seas[0]}, [b.seas[0]]
    while todo:
        for x in b.sea_adj[todo.pop()]:
            if x not in seen:
                seen.add(x)
                todo.append(x)
    assert seen == set(b.seas)
    # Prosperity printed on every isle and on the central seas.
    assert all(b.cornucopias[a] >= 1 for a in b.lands)
    assert b.cornucopias[area_of(b, "delian-sea")] == 2


def area_of(b, area_id):
    return b.index[area_id]


@pytest.mark.parametrize("players,isles", [(2, 9), (3, 11), (4, 13), (5, 13)])
def test_r8_part_of_the_board_used_by_player_count(players, isles):
    """R8 / Setup 2: the part of the board in play depends on the player count; each smaller
    board is a part of the whole one, with the same neighbours inside it; R7: what is drawn
    is the adjacency the rules use."""
    b, whole = Board.classic(players), Board.classic(5)
    assert len(b.lands) == isles
    for a, aid in enumerate(b.ids):
        w = whole.index[aid]
        assert {b.ids[x] for x in b.adj[a]} == {whole.ids[x] for x in whole.adj[w] if whole.ids[x] in b.index}
    check_r7(b)
    assert Board.from_spec(b.spec) is b and b.spec == {"kind": "classic", "players": players}


def test_r8_metropolis_space_on_a_hand_written_map():
    """R8 on a scenario map: `metropolis_site` adds the isle's metropolis space after its building
    sites; basic buildings never use it, a metropolis goes there (scenario `buildings`)."""
    b = Board.from_map([{"id": "isle", "kind": "land", "sites": 2, "metropolis_site": True, "adj": ["sea"]},
                        {"id": "sea", "kind": "sea", "adj": ["isle"]}])
    assert b.sites[0] == 3 and b.metro_site[0] == 2 and list(b.building_sites(0)) == [0, 1]
    assert Board.from_spec(b.spec) == b and geometry(b)["areas"][0]["metropolis_site"] == 2
    g = classic(areas={"naxos": {"owner": 0, "buildings": ["port", "metropolis"]}})
    assert sites(g, "naxos") == ["port", "", "", "", "metropolis"]


def test_r8_classic_board_data_is_what_the_generator_writes():
    """classic_board.json is what make_classic_board.py writes (regenerate after editing)."""
    from cyclades.content import make_classic_board
    assert make_classic_board.main() == load_classic()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_starting_troops_and_fleets_by_player_count(players):
    """Setup 1-2: 8 fleets, 8 troops and 5 GP each; "Place the isles, and the starting troops
    and fleets, according to the player count as shown on the board": no placement decisions,
    each player starts with a Troop on two isles and two Fleets, and the first cycle's revenues
    (2 GP) come before the first offering."""
    g = cyclades.new_game(players=players, ruleset="classic", seed=players)
    s, b = g.state, g.board
    assert s.cycle == 1 and s.phase == "offerings" and g.legal_actions()[0].kind == "bid"
    for p in range(players):
        mine = [a for a in b.lands if s.ctrl[a] == p]
        assert len(mine) == 2 and all(s.troops[a] == 1 for a in mine)
        assert sum(s.fleets[a] for a in b.seas if s.ctrl[a] == p) == 2
        assert s.troops_left[p] == 6 and s.fleets_left[p] == 6
        assert s.gp[p] == 5 + 2
    assert sum(s.ctrl[a] == -1 for a in b.lands) == len(b.lands) - 2 * players


# --- Components: gods, creatures, no heroes ------------------------------------------------------

@pytest.mark.parametrize("players,face_up", [(2, 4), (3, 2), (4, 3), (5, 4)])
def test_four_gods_face_up_by_player_count(players, face_up):
    """Overview 2: the four God tiles (Zeus, Poseidon, Ares, Athena) plus Apollo; "with 3-4
    players some Gods are placed face down"."""
    g = cyclades.new_game(players=players, ruleset="classic", seed=1)
    assert set(g.state.gods) == CLASSIC_GODS and len(g.state.gods) == 4
    assert g.state.faceup == face_up
    bids = {a.what for a in g.legal_actions() if a.kind == "bid"}
    assert bids == set(g.state.gods[:face_up])


def test_r25_classic_deck_of_17_cards_no_heroes_no_bonus_tokens():
    """R25: 17 creature cards (Pegasus, Harpy, Dryad, Sylph, Satyr twice, Griffin, Sphinx and the
    five figures once); the creature track has 3 slots at 2/3/4 GP; no heroes (R1), no
    metropolis bonus tokens (R20), no mercenaries."""
    g = cyclades.new_game(players=4, ruleset="classic", seed=7)
    s = g.state
    cards = Counter(s.creature_deck + [c for c in s.creature_track if c])
    assert cards == Counter(dict(CLASSIC_CREATURES)) and sum(cards.values()) == 17
    assert len(s.creature_track) == 3 and g.rules.creature_costs == (2, 3, 4)
    assert s.hero_track == [] and s.hero_deck == [] and s.bonus_stack == [] and s.mercs_left == 0
    v = g.view(0)
    assert [c["cost"] for c in v["creature_track"]] == [2, 3, 4]


def test_classic_players_and_no_teams():
    """The classic game is for 2 to 5 players, without team play (R22 is Legendary's)."""
    for bad in (dict(players=6), dict(players=1), dict(players=4, teams=True)):
        with pytest.raises(ValueError):
            cyclades.new_game(ruleset="classic", **bad)
    assert cyclades.new_game(players=2, ruleset="classic").teams is None


# --- The Cycle: creatures, gods, revenues -------------------------------------------------------

def test_cycle_1_creature_track_cheapest_discarded_others_slide():
    """Overview 1: "Discard the creature on the cheapest (2 GP) space if it went unused, slide
    the rest toward the cheaper spaces, and draw new cards to fill the empty spaces"."""
    g = classic(cycle=2, creature_track=["harpy", "pegasus", None],
                creature_deck=["sylph", "dryad", "griffin"], decision={"new_cycle": {}})
    assert g.state.creature_track == ["pegasus", "sylph", "dryad"]
    assert g.state.creature_discard == ["harpy"]


@pytest.mark.parametrize("seed", range(6))
def test_cycle_2_gods_face_down_last_cycle_come_first_4_players(seed):
    """Overview 2 (4 players): the tiles are shuffled anew each cycle; the God face down last
    cycle "become[s] available in the following cycle": it takes the first space, face up, and
    one of the three others goes face down."""
    g = classic(players=4, seed=seed, cycle=2, gods=["ares", "zeus", "poseidon", "athena"],
                faceup=3, decision={"new_cycle": {}})
    assert g.state.gods[0] == "athena" and g.state.faceup == 3
    assert set(g.state.gods[1:]) == {"ares", "zeus", "poseidon"}


def test_cycle_2_gods_alternate_with_3_players():
    """Overview 2 (3 players, two gods face up): the two gods face down last cycle are the two
    available this cycle, and the other two wait."""
    seen = set()
    for seed in range(8):
        g = classic(seed=seed, cycle=2, gods=["ares", "zeus", "poseidon", "athena"], faceup=2,
                    decision={"new_cycle": {}})
        assert set(g.state.gods[:2]) == {"poseidon", "athena"}
        seen.add(tuple(g.state.gods))
    assert len(seen) > 1  # and they are shuffled


def test_cycle_3_revenues_one_gp_per_prosperity_marker():
    """Overview 3: "Each player collects 1 GP for every prosperity marker they control": printed
    on isles and seas, or placed by Apollo."""
    g = classic(cycle=2, player=[{"gp": 0}, {"gp": 0}, {"gp": 0}], decision={"new_cycle": {}},
                areas={"andros": {"owner": 0, "troops": 1}, "tinos": {"owner": 0, "prosperity": 2},
                       "delian-sea": {"owner": 0, "fleets": 1},
                       "gulf-of-andros": {"owner": 0, "fleets": 1, "prosperity": 1},
                       "naxos": {"owner": 1, "troops": 1}, "steno-strait": {"owner": 2, "fleets": 1}})
    assert g.state.gp[:3] == [1 + 1 + 2 + 2 + 1, 1, 0]


# --- 4. Offerings (R10-R12) ---------------------------------------------------------------------

def test_r10_classic_offering_has_no_cap():
    """R10: classic bids have no cap of 25, only what the player can pay (R11)."""
    g = classic(player=[{"gp": 40, "priestesses": 2}], turn_order=[0, 1, 2])
    top = max(a.n for a in legal(g, "bid"))
    assert top == 42
    legendary = scenario(player=[{"gp": 40}], turn_order=[0, 1, 2])
    assert max(a.n for a in legal(legendary, "bid")) == 25


def test_r12_priests_never_bring_an_offering_below_1_gp():
    """Actions, Effect of Priests: "No matter how many Priests a player has, that player MUST pay
    at least 1 GP for his offering (only the access to Apollo is completely free)" (R12)."""
    g = classic(player=[{"gp": 4, "priestesses": 3}, {"gp": 5}, {"gp": 5}], turn_order=[0, 1, 2])
    gods = g.state.gods[:g.state.faceup]
    act(g, "bid", gods[0], n=2)
    act(g, "apollo")
    act(g, "apollo")
    assert g.state.phase == "actions" and g.state.gp[0] == 4 - 1


def test_r11_r12_without_a_gp_only_apollo():
    """R11 with R12: a bid must be payable, and any god costs at least 1 GP, so a player with
    no GP may only go to Apollo, whatever their Priests."""
    g = classic(player=[{"gp": 0, "priestesses": 3}], turn_order=[0, 1, 2])
    assert g.legal_actions() == [Action("apollo")]


# --- 5. Actions: recruits and buildings -------------------------------------------------------------

def test_free_recruit_first_no_free_building():
    """Overview 5: "Each God grants a free action that must be taken and completed first":
    the recruit (here Poseidon's free Fleet); unlike Legendary there is no free building."""
    g = classic(areas={"andros": {"owner": 0, "troops": 1}}, decision=turn(0, "poseidon", "start"))
    assert kinds(g) == {"place_fleet"}
    act(g, "place_fleet", where="steno-strait")
    assert g.state.fleets[area(g, "steno-strait")] == 1
    assert "end_turn" in kinds(g) and not any(x for x in sites(g, "andros"))


def test_recruit_extra_troops_cost_2_3_4_at_most_3():
    """Actions, B. Ares: "The second Troop costs 2 GP, the third one 3 GP, the fourth one 4 GP.
    A player cannot purchase more than 3 extra Troops in any given turn"."""
    g = classic(player=[{"gp": 20}], areas={"andros": {"owner": 0, "troops": 1}},
                decision=turn(0, "ares"))
    for cost in (2, 3, 4):
        assert legal(g, "recruit") == [Action("recruit", "troop", n=cost)]
        act(g, "recruit", "troop", n=cost)
        act(g, "place_troop", where="andros")
    assert not legal(g, "recruit")
    assert g.state.gp[0] == 20 - 9 and g.state.troops[area(g, "andros")] == 4


def test_build_costs_2_gp_each_same_building_many_times_same_isle():
    """Actions, C. Build: "a player may build the same sort of building multiple times,
    including on the same isle, so long as he can afford the cost of 2 GP"; never on the isle's
    metropolis space (R8)."""
    g = classic(player=[{"gp": 7}], areas={"andros": {"owner": 0, "troops": 1},
                                           "tinos": {"owner": 0, "troops": 1}},
                decision=turn(0, "poseidon"))
    assert set(legal(g, "build")) == {Action("build", "port", "andros", 2),
                                      Action("build", "port", "tinos", 2)}
    act(g, "build", "port", "andros", 2)
    act(g, "build", "port", "andros", 2)
    act(g, "build", "port", "andros", 2)
    assert sites(g, "andros") == ["port", "port", "port", ""] and g.state.gp[0] == 1
    assert legal(g, "build") == []  # 1 GP left
    g.state.gp[0] = 9
    g._legal = None
    assert legal(g, "build") == [Action("build", "port", "tinos", 2)]  # Andros: only its metropolis space


def test_no_buildings_with_apollo():
    """Actions, E: "Apollo does not offer any other actions": Apollo's turn ends by itself."""
    g = classic(player=[{"gp": 9}, {"gp": 9}], apollo=[1, 0],
                areas={"andros": {"owner": 0, "troops": 1}, "tinos": {"owner": 0, "troops": 1}},
                decision=turn(0, "apollo", "start", after=[[1, "ares"]]))
    assert g.to_move == 1 and g.state.gp[0] == 9 + 1 and sites(g, "andros") == ["", "", "", ""]


# --- Poseidon: the fleet move (R17) ---------------------------------------------------------------

def voyage_game(dice=(), **extra):
    areas = {"andros": {"owner": 0, "troops": 1}, "steno-strait": {"owner": 0, "fleets": 2},
             "mykonos-sound": {"owner": 0, "fleets": 1}, "amorgos": {"owner": 1, "troops": 1},
             "amorgos-deep": {"owner": 1, "fleets": 1}}
    areas.update(extra)
    return classic(player=[{"gp": 5}], areas=areas, decision=turn(0, "poseidon"), dice=list(dice))


def test_r17_fleet_move_up_to_3_spaces_picking_up_and_dropping_for_1_gp():
    """Actions, D. Poseidon: "For 1 GP, the player may move Fleets currently on the same sea
    space and move them a maximum of 3 spaces. He can add or abandon Fleets during that
    movement" (R17)."""
    g = voyage_game()
    act(g, "fleet_move", n=1)
    act(g, "origin", where="steno-strait")
    act(g, "take", "fleet", n=2)
    act(g, "destination", where="mykonos-sound")
    act(g, "take", "fleet", n=1)          # picks up the fleet standing there
    act(g, "destination", where="gulf-of-mykonos")
    act(g, "drop", "fleet", n=1)          # leaves one behind
    assert g.state.fleets[area(g, "steno-strait")] == 2 and g.state.gp[0] == 5  # nothing yet (R26)
    act(g, "destination", where="gulf-of-amorgos")  # the third space ends the move
    s = g.state
    assert s.gp[0] == 4 and s.stack[-1]["kind"] == "turn"
    assert [s.fleets[area(g, x)] for x in ("steno-strait", "mykonos-sound", "gulf-of-mykonos",
                                           "gulf-of-amorgos")] == [0, 0, 1, 2]
    assert [s.ctrl[area(g, x)] for x in ("steno-strait", "mykonos-sound", "gulf-of-mykonos",
                                         "gulf-of-amorgos")] == [-1, -1, 0, 0]
    assert not check(g)


def test_r17_fleet_move_stops_on_entering_enemy_fleets_and_fights():
    """Actions, D. Poseidon: "If Fleets enter a space occupied by enemy Fleets, their movement
    ends and a naval battle begins immediately"."""
    g = voyage_game(dice=[3, 0])
    act(g, "fleet_move", n=1)
    act(g, "origin", where="steno-strait")
    act(g, "take", "fleet", n=2)
    act(g, "destination", where="mykonos-sound")
    act(g, "destination", where="icarian-sea")
    act(g, "destination", where="amorgos-deep")  # enemy fleets: the move ends here
    s = g.state
    assert s.ctrl[area(g, "amorgos-deep")] == 0 and s.fleets[area(g, "amorgos-deep")] == 2
    assert s.fleets_left[1] == 8 and s.gp[0] == 4


def test_r17_fleet_move_ends_after_the_third_space_or_when_the_player_stops():
    """R17: at most 3 spaces; the player may stop earlier ("done"); picking up and dropping are
    offered only on the way."""
    g = voyage_game()
    act(g, "fleet_move", n=1)
    act(g, "origin", where="steno-strait")
    act(g, "take", "fleet", n=1)
    assert "done" not in kinds(g) and "drop" not in kinds(g)  # not moved yet
    act(g, "destination", where="gulf-of-tinos")
    assert {"destination", "done", "cancel"} <= kinds(g) and "drop" not in kinds(g)  # 1 fleet
    act(g, "done")
    assert g.state.fleets[area(g, "gulf-of-tinos")] == 1 and g.state.fleets[area(g, "steno-strait")] == 1


def test_r26_fleet_move_cancelled_changes_nothing():
    """R26: a move may be cancelled before its last step; nothing happened and nothing is paid."""
    g = voyage_game()
    before = g.to_json()
    act(g, "fleet_move", n=1)
    act(g, "origin", where="steno-strait")
    act(g, "take", "fleet", n=2)
    act(g, "destination", where="mykonos-sound")
    act(g, "take", "fleet", n=1)
    view = g.view(0)["decision"]
    assert view["position"] == "mykonos-sound" and view["path"] == ["mykonos-sound"]
    act(g, "cancel")
    assert g.state.stack[-1]["kind"] == "turn"
    assert g.state.fleets == cyclades.Game.from_json(before).state.fleets and g.state.gp[0] == 5


def test_r17_legendary_sea_move_not_offered_in_classic():
    """R1/R17: the classic Poseidon moves fleets with the 3-space move only."""
    g = voyage_game()
    assert "fleet_move" in kinds(g) and "sea_move" not in kinds(g)


# --- Ares: the troop move ----------------------------------------------------------------------

def test_ares_move_along_a_chain_of_fleets_claims_an_empty_isle_even_with_a_fortress():
    """Actions, D. Ares: "move some or all Troops on an isle to another isle connected by a chain
    of Fleets of his color (...) If he lands on an isle where there are no Troops, he claims
    this isle without a battle, even if the isle has a Fortress. If his Troops leave their
    starting isle empty, he must leave a territory marker there"."""
    g = classic(player=[{"gp": 3}],
                areas={"andros": {"owner": 0, "troops": 2}, "steno-strait": {"owner": 0, "fleets": 1},
                       "mykonos-sound": {"owner": 0, "fleets": 1},
                       "mykonos": {"owner": 1, "buildings": ["fortress"]}, "amorgos": {"owner": 1, "troops": 1}},
                decision=turn(0, "ares"))
    act(g, "land_move", n=1)
    act(g, "origin", where="andros")
    act(g, "take", "troop", n=2)
    assert Action("destination", where="mykonos") in g.legal_actions()
    assert Action("destination", where="amorgos") not in g.legal_actions()  # no chain there
    act(g, "destination", where="mykonos")
    s = g.state
    assert s.ctrl[area(g, "mykonos")] == 0 and s.troops[area(g, "mykonos")] == 2
    assert s.ctrl[area(g, "andros")] == 0 and s.troops[area(g, "andros")] == 0  # the marker
    assert s.gp[0] == 2 and sites(g, "mykonos")[0] == "fortress"


def test_r19_last_isle_only_if_the_attack_would_win_with_2_metropolises():
    """Actions, Last isle: "a player may NOT attack the last isle of another player, unless he
    can prove that he would win the game were he to successfully conquer the isle" (R19,
    classic goal of 2 metropolises)."""
    areas = {"andros": {"owner": 0, "troops": 2}, "steno-strait": {"owner": 0, "fleets": 1},
             "mykonos-sound": {"owner": 0, "fleets": 1}, "mykonos": {"owner": 1, "troops": 1}}
    g = classic(player=[{"gp": 3}], areas=areas, decision=turn(0, "ares"))
    act(g, "land_move", n=1)
    act(g, "origin", where="andros")
    act(g, "take", "troop", n=2)
    assert Action("destination", where="mykonos") not in g.legal_actions()
    areas["mykonos"]["buildings"] = ["metropolis"]
    areas["tinos"] = {"owner": 0, "buildings": ["metropolis"]}
    g = classic(player=[{"gp": 3}], areas=areas, decision=turn(0, "ares"))
    act(g, "land_move", n=1)
    act(g, "origin", where="andros")
    act(g, "take", "troop", n=2)
    assert Action("destination", where="mykonos") in g.legal_actions()


# --- R31: where classic troops and fleets retreat ------------------------------------------------

def ring_map():
    """Six isles round a ring of six seas: isle ik lies between the seas r(k-1) and rk."""
    seas = [f"r{k}" for k in range(1, 7)]
    out = [{"id": f"i{k}", "kind": "land", "sites": 2, "metropolis_site": True,
            "adj": [seas[k - 2], seas[k - 1]]} for k in range(1, 7)]
    for k, sea in enumerate(seas):
        out.append({"id": sea, "kind": "sea", "adj": [seas[k - 1], seas[(k + 1) % 6], f"i{k + 1}",
                                                      f"i{(k + 1) % 6 + 1}"]})
    return {"map": out}


def ring_battle(dice, ruleset="classic", **extra):
    """Player 1 holds i2 (2 troops), the seas r2 and r3 and, by a territory marker only, i4; i3,
    on the way to i4, belongs to no one; i6, next to player 0's fleet on r6, neither. Player 0
    lands 2 troops on i2 from i1 with Ares, along its fleet on r1."""
    areas = {"i1": {"owner": 0, "troops": 2}, "r1": {"owner": 0, "fleets": 1},
             "r6": {"owner": 0, "fleets": 1}, "i2": {"owner": 1, "troops": 2},
             "r2": {"owner": 1, "fleets": 1}, "r3": {"owner": 1, "fleets": 1}, "i4": {"owner": 1},
             "i5": {"owner": 2, "troops": 1}}
    areas.update(extra)
    g = scenario(board=ring_map(), ruleset=ruleset, player=[{"gp": 3}], areas=areas,
                 decision=turn(0, "ares"), dice=list(dice))
    act(g, "land_move", n=1)
    act(g, "origin", where="i1")
    act(g, "take", "troop", n=2)
    act(g, "destination", where="i2")
    return g


def test_r31_classic_defender_retreats_only_to_a_linked_isle_it_controls():
    """Overview, Battle: "Retreating troops must reach a linked friendly isle" (R31): the
    defender, beaten in the first round, may retreat to i4 (its territory marker, along its
    fleets) but not to i3, which no one controls; the Legendary rule would allow both."""
    g = ring_battle(dice=[3, 0])  # 5 against 2: player 1 loses a troop
    assert g.to_move == 1 and {a.where for a in legal(g, "retreat")} == {"i4"}
    act(g, "retreat", where="i4")
    s = g.state
    assert s.troops[area(g, "i4")] == 1 and s.ctrl[area(g, "i2")] == 0 and s.troops[area(g, "i2")] == 2
    assert not check(g)


def test_r31_classic_attacker_retreats_only_to_an_isle_it_controls():
    """Overview, Battle: "The defender may then retreat if able; if not, the attacker may
    retreat", to a linked friendly isle (R31). Without its fleet on r3, player 1 has no way to i4
    and is not asked; player 0 may go back to i1, held by the territory marker its troops left,
    but not to i6, reached by its fleet on r6 and controlled by no one."""
    g = ring_battle(dice=[0, 3], r3={})  # 2 against 5: player 0 loses a troop
    assert g.to_move == 0 and {a.where for a in legal(g, "retreat")} == {"i1"}
    act(g, "retreat", where="i1")
    s = g.state
    assert s.troops[area(g, "i1")] == 1 and s.ctrl[area(g, "i2")] == 1 and not check(g)


def test_r31_legendary_retreats_to_empty_areas_as_well():
    """Legendary, Land Battle: "an accessible Land Area that is either empty or under their
    control": the same position under the Legendary rules offers i3 as well (R31 leaves it)."""
    g = ring_battle(dice=[3, 0], ruleset="legendary")
    assert g.to_move == 1 and {a.where for a in legal(g, "retreat")} == {"i3", "i4"}


def sea_battle(r3):
    """Player 0 sails 2 of its 3 fleets from r1 into player 1's 2 fleets on r2 and wins the first
    round (5 against 2); r3, the other sea next to r2, is as given."""
    areas = {"i1": {"owner": 0, "troops": 1}, "r1": {"owner": 0, "fleets": 3},
             "i2": {"owner": 1, "troops": 1}, "r2": {"owner": 1, "fleets": 2},
             "i5": {"owner": 2, "troops": 1}, "r3": r3}
    g = classic(board=ring_map(), player=[{"gp": 3}], areas=areas, decision=turn(0, "poseidon"),
                dice=[3, 0])
    act(g, "fleet_move", n=1)
    act(g, "origin", where="r1")
    act(g, "take", "fleet", n=2)
    act(g, "destination", where="r2")  # enemy fleets: the move ends in a sea battle
    return g


def test_r31_classic_fleets_retreat_to_an_adjacent_empty_or_own_sea():
    """Overview, Battle: "retreating fleets must reach an adjacent empty or controlled sea
    space" (R31: empty or their own). With r3 empty, the defender may go there (not to r1, where
    the attacker's third fleet stayed); when it holds, the attacker may go back to r1 (its own)
    or on to r3 (empty)."""
    g = sea_battle(r3={})
    assert g.to_move == 1 and {a.where for a in legal(g, "retreat")} == {"r3"}
    act(g, "hold")
    assert g.to_move == 0 and {a.where for a in legal(g, "retreat")} == {"r1", "r3"}
    act(g, "retreat", where="r1")
    s = g.state
    assert s.fleets[area(g, "r1")] == 3 and s.ctrl[area(g, "r2")] == 1 and not check(g)


def test_r31_classic_fleets_never_retreat_into_enemy_fleets():
    """R31: a sea held by another player's fleets is not a way out. With player 2's fleet on r3,
    the defender has nowhere to go and is not asked; the attacker may only go back to r1."""
    g = sea_battle(r3={"owner": 2, "fleets": 1})
    assert g.to_move == 0 and {a.where for a in legal(g, "retreat")} == {"r1"}


# --- Zeus: change the creatures; temples (R25) -----------------------------------------------------

def test_r25_zeus_swaps_a_visible_creature_for_the_top_card_for_1_gp():
    """Actions, D. Zeus: "For 1 GP, the player can discard an available Creature card and
    replace it with the first card of the draw pile"; as often as he can pay (R25)."""
    g = classic(player=[{"gp": 2}], areas={"andros": {"owner": 0, "troops": 1}},
                creature_track=["harpy", "pegasus", "kraken"], creature_deck=["sylph", "dryad"],
                decision=turn(0, "zeus"))
    # n is the 1 GP paid (as everywhere an amount); `where` names the slot by its price
    assert set(legal(g, "swap_creature")) == {Action("swap_creature", "harpy", "slot-2", 1),
                                              Action("swap_creature", "pegasus", "slot-3", 1),
                                              Action("swap_creature", "kraken", "slot-4", 1)}
    assert "peek" not in kinds(g)  # Legendary's Zeus action is not classic
    events = act(g, "swap_creature", "pegasus", "slot-3", n=1)
    assert g.state.creature_track == ["harpy", "sylph", "kraken"] and g.state.creature_discard == ["pegasus"]
    assert [e["cost"] for e in events if e["type"] == "creature_swapped"] == [1]
    act(g, "swap_creature", "kraken", "slot-4", n=1)
    assert g.state.creature_track == ["harpy", "sylph", "dryad"] and g.state.gp[0] == 0
    assert not legal(g, "swap_creature")


def test_r25_zeus_chooses_which_of_two_identical_creatures_to_swap():
    """R25: the classic deck holds two of several cards; when both lie on the track, the
    player chooses which slot's card is replaced (the engine never chooses for them)."""
    g = classic(player=[{"gp": 2}], areas={"andros": {"owner": 0, "troops": 1}},
                creature_track=["pegasus", "harpy", "pegasus"], creature_deck=["sylph"],
                decision=turn(0, "zeus"))
    assert {a.where for a in legal(g, "swap_creature") if a.what == "pegasus"} == {"slot-2", "slot-4"}
    act(g, "swap_creature", "pegasus", "slot-4", n=1)
    assert g.state.creature_track == ["pegasus", "harpy", "sylph"]


def test_r25_only_zeus_swaps_creatures():
    g = classic(player=[{"gp": 5}], areas={"andros": {"owner": 0, "troops": 1}},
                decision=turn(0, "athena"))
    assert "swap_creature" not in kinds(g)


def test_r25_temples_never_bring_a_creature_below_1_gp():
    """Actions, Zeus (Temple): "No matter how many Temples a player owns, he must still spend at
    least 1 GP to get a Creature" (R25); a temple not needed is not used up."""
    g = classic(player=[{"gp": 5}],
                areas={"andros": {"owner": 0, "troops": 1, "buildings": ["temple", "temple"]}},
                creature_track=["dryad", "pegasus", "sylph"], decision=turn(0, "athena"))
    assert set(legal(g, "buy_creature")) == {Action("buy_creature", "dryad", n=1),
                                             Action("buy_creature", "pegasus", n=1),
                                             Action("buy_creature", "sylph", n=2)}
    act(g, "buy_creature", "dryad", n=1)   # 1 temple of 2 used (the Dryad finds no Priest)
    assert g.state.gp[0] == 4 and g.state.stack[-1]["kind"] == "turn"
    assert Action("buy_creature", "pegasus", n=2) in g.legal_actions()


def test_r25_two_copies_on_the_track_each_at_its_slot_price():
    """R25: the classic deck holds two copies of some cards; each is bought at its own slot's
    price, from that slot."""
    g = classic(player=[{"gp": 9}], areas={"andros": {"owner": 0, "troops": 1}},
                creature_track=["harpy", "harpy", "dryad"], decision=turn(0, "athena"))
    assert {a.n for a in legal(g, "buy_creature") if a.what == "harpy"} == {2, 3}
    act(g, "buy_creature", "harpy", n=3)
    assert g.state.creature_track[:2] == ["harpy", None] and g.state.gp[0] == 6


# --- Creature figures: until the owner's next turn ---------------------------------------------------

def test_figures_stay_until_their_owners_next_turn_no_maintenance():
    """The classic cycle has no maintenance phase (Overview, The Cycle) and Priests stay in play;
    the creature booklet is not in the rulebooks (R25), so the reading (docs/rules-coverage.md,
    classic readings): a figure acts until its owner's next turn, when its card is discarded."""
    g = classic(player=[{"gp": 5, "priestesses": 1}, {"gp": 5}],
                areas={"andros": {"owner": 0, "troops": 1}, "naxos": {"owner": 1, "troops": 1}},
                creatures={"kraken": {"owner": 0, "area": "delian-sea"}},
                decision=turn(1, "ares", "main", after=[[0, "athena"]]))
    assert g.state.creature_at["kraken"] == area(g, "delian-sea")  # through the other's turn
    act(g, "end_turn")
    assert "kraken" not in g.state.creature_at and "kraken" not in g.state.creature_owner
    assert g.state.creature_discard == ["kraken"] and g.state.priestesses[0] == 1


def test_figure_bought_on_the_first_of_two_turns_stays_for_the_second():
    """R23 with the figures' duration: a player with two turns in a cycle keeps on the second
    what the first summoned."""
    g = classic(players=2, player=[{"gp": 9}, {"gp": 5}],
                areas={"andros": {"owner": 0, "troops": 1}, "naxos": {"owner": 1, "troops": 1}},
                creature_track=["kraken", "harpy", "dryad"],
                decision=turn(0, "athena", "start", after=[[0, "zeus"], [1, "ares"]]))
    act(g, "buy_creature", "kraken", n=2)
    act(g, "place_creature", "kraken", "delian-sea")
    act(g, "end_turn")
    assert g.to_move == 0 and g.state.stack[-1]["god"] == "zeus"
    assert g.state.creature_owner.get("kraken") == 0


def test_no_maintenance_phase_in_the_classic_cycle():
    """Overview, The Cycle: creatures, gods, revenues, offerings, actions, end: after the
    offerings come the actions, with no Priest paid for a creature."""
    g = classic(player=[{"gp": 5, "priestesses": 2}, {"gp": 5}, {"gp": 5}], turn_order=[0, 1, 2],
                areas={"andros": {"owner": 0, "troops": 1}},
                creatures={"kraken": {"owner": 0, "area": "delian-sea"}})
    for _ in range(3):
        act(g, "apollo")
    assert g.state.phase == "actions" and not any(f["kind"] == "maintain" for f in g.state.stack)
    assert g.state.stack[-1]["kind"] == "prosper"  # the first Apollo's marker
    assert g.state.priestesses[0] == 2


# --- Apollo (R9) --------------------------------------------------------------------------------

def test_r9_apollo_1_gp_or_4_with_a_single_isle_marker_for_the_first_only():
    """Actions, E: "1 GP if he owns more than one isle, or 4 GP if he owns a single isle (...) he
    takes one prosperity marker which he places on the isle of his choice (...) only the first
    player to have chosen Apollo will get a prosperity marker" (R9)."""
    g = classic(player=[{"gp": 0}, {"gp": 0}], apollo=[1, 0],
                areas={"andros": {"owner": 0, "troops": 1}, "tinos": {"owner": 0, "troops": 1},
                       "naxos": {"owner": 1, "troops": 1}},
                decision=turn(1, "apollo", "start", after=[[0, "apollo"], [2, "ares"]]))
    assert g.state.gp[1] == 4  # a single isle
    choices = legal(g, "prosperity")
    assert {a.where for a in choices} == {g.board.ids[a] for a in g.board.lands}  # any isle
    act(g, "prosperity", where="paros")
    assert g.state.prosperity[area(g, "paros")] == 1
    assert g.state.gp[0] == 1 and sum(g.state.prosperity) == 1  # the second: 1 GP, no marker
    assert g.to_move == 2


def test_r9_r23_apollo_twice_marker_once():
    """R23: "two offerings per cycle (two gods, or Apollo twice)"; R9: the marker goes to the
    first Apollo only."""
    g = classic(players=2, player=[{"gp": 0}, {"gp": 0}], apollo=[0, 0],
                areas={"andros": {"owner": 0, "troops": 1}, "tinos": {"owner": 0, "troops": 1},
                       "naxos": {"owner": 1, "troops": 1}},
                decision=turn(0, "apollo", "start", after=[[0, "apollo"], [1, "ares"]]))
    act(g, "prosperity", where="andros")
    assert g.state.gp[0] == 2 and sum(g.state.prosperity) == 1 and g.to_move == 1


# --- Metropolises (R20), victory (R21) ---------------------------------------------------------------

def test_r20_economic_metropolis_on_the_metropolis_space_without_a_bonus():
    """Actions, C: "As soon as a player owns 4 different buildings, whether on one or many
    isles, he automatically creates a Metropolis"; Overview, Metropolises: it goes on an isle's
    reserved space; R20: classic metropolises have no bonus."""
    g = classic(player=[{"gp": 4}],
                areas={"andros": {"owner": 0, "troops": 1, "buildings": ["port", "fortress", "temple"]},
                       "tinos": {"owner": 0, "troops": 1}},
                decision=turn(0, "athena"))
    act(g, "build", "university", "tinos", 2)
    assert {a.where for a in legal(g, "metropolis")} == {"andros", "tinos"}
    act(g, "metropolis", where="andros")
    assert sites(g, "andros") == ["", "", "", "metropolis"] and sites(g, "tinos") == ["", "", ""]
    assert g.state.metro_bonus == {} and g.state.gp[0] == 2
    assert g.view(0)["players"][0]["metropolises"] == 1


def test_r20_no_metropolis_space_free_a_building_makes_room():
    """Overview, Metropolises: "If no space is free for a new metropolis, destroy your own
    buildings to make room"; intellectual development: the 4th philosopher builds one."""
    g = classic(player=[{"gp": 4, "philosophers": 3}],
                areas={"andros": {"owner": 0, "troops": 1, "buildings": ["port", "metropolis"]}},
                decision=turn(0, "athena", "start"))
    assert g.state.philosophers[0] == 0
    assert g.legal_actions() == [Action("replace", "port", "andros")]
    act(g, "replace", "port", "andros")
    assert sites(g, "andros") == ["metropolis", "", "", "metropolis"]


def win_game(p0, p1, gp0, gp1):
    return classic(player=[{"gp": gp0}, {"gp": gp1}],
                   areas={"andros": {"owner": 0, "troops": 1, "buildings": ["metropolis"] * p0},
                          "naxos": {"owner": 1, "troops": 1, "buildings": ["metropolis"] * p1}},
                   decision=turn(0, "ares", "main"))


def test_r21_two_metropolises_at_the_end_of_the_cycle_win():
    """Victory: "The game ends at the end of a cycle in which at least one player controls two
    metropolises; that player wins"."""
    g = win_game(2, 1, 0, 9)
    act(g, "end_turn")
    assert g.is_over and g.result()["winners"] == [0]


def test_r21_tie_between_two_goals_goes_to_the_most_gp():
    """Victory: "If more than one player reaches two metropolises in the same cycle, the tie goes
    to the one with the most GP" (R21), even against a third metropolis."""
    g = win_game(2, 2, 3, 7)
    act(g, "end_turn")
    assert g.result()["winners"] == [1]
    g = win_game(3, 2, 3, 7)
    act(g, "end_turn")
    assert g.result()["winners"] == [1]


# --- The 2-player game (R23) ---------------------------------------------------------------------

def test_r23_two_players_have_two_offering_markers_each():
    """Two-Player Game: "Each player takes the two offering markers of their color. Shuffle all
    four markers to set the turn order (...) each player making two offerings per cycle"."""
    g = cyclades.new_game(players=2, ruleset="classic", seed=4)
    assert sorted(g.state.turn_order) == [0, 0, 1, 1] and g.state.n == 2
    rng = random.Random(4)
    while g.state.phase == "offerings":
        g.apply(rng.choice(g.legal_actions()))
    acting = Counter(p for p, _ in g.state.action_order)
    assert acting == Counter({0: 2, 1: 2})


def test_r23_a_player_never_outbids_themself_and_pays_for_two_with_one_discount():
    """R23 with R10-R12: a player's second offering goes to another god (or Apollo); the two
    must be payable together, and their Priests discount the two together, at least 1 GP each."""
    g = classic(players=2, gods=["zeus", "ares", "poseidon", "athena"], faceup=4,
                player=[{"gp": 4, "priestesses": 2}, {"gp": 9}], turn_order=[0, 1, 0, 1])
    act(g, "bid", "zeus", n=3)
    act(g, "bid", "ares", n=1)
    assert g.to_move == 0
    bids = legal(g, "bid")
    assert "zeus" not in {a.what for a in bids}                 # not against themself
    assert Action("bid", "ares", n=2) in bids
    assert max(a.n for a in bids if a.what == "poseidon") == 3  # 3 + 3 - 2 Priests = 4 GP
    act(g, "bid", "poseidon", n=3)
    act(g, "apollo")
    assert g.state.phase == "actions" and g.state.gp[0] == 4 - (3 + 3 - 2)


def test_r23_two_turns_in_a_cycle_and_the_turn_order_that_follows():
    """R23: each marker acts in its god's order; the new turn order has the four markers (first
    to act, last to bid: Overview 5-6)."""
    g = classic(players=2, gods=["zeus", "ares", "poseidon", "athena"], faceup=4,
                player=[{"gp": 9}, {"gp": 9}], turn_order=[0, 1, 0, 1],
                areas={"andros": {"owner": 0, "troops": 1}, "naxos": {"owner": 1, "troops": 1}})
    act(g, "bid", "zeus", n=1)
    act(g, "bid", "ares", n=1)
    act(g, "apollo")
    act(g, "bid", "athena", n=1)
    assert g.state.action_order == [[0, "zeus"], [1, "ares"], [1, "athena"], [0, "apollo"]]
    while g.state.cycle == 1:
        g.apply(next(a for a in g.legal_actions() if a.kind in ("end_turn", "place_troop", "prosperity")))
    assert g.state.turn_order == [0, 1, 1, 0]


# --- the whole ruleset --------------------------------------------------------------------------

def test_r1_one_engine_two_rulesets():
    """R1: the classic ruleset is data and strategies on the same engine, not a copy of it."""
    assert set(RULESETS) >= {"legendary", "classic"} and CLASSIC.metropolises_to_win == 2
    g = cyclades.new_game(players=3, ruleset="classic", seed=2)
    assert type(g) is cyclades.Game and g.rules is CLASSIC and g.board.spec["kind"] == "classic"
    again = cyclades.Game.from_json(g.to_json())
    assert again.to_json() == g.to_json() and again.rules is CLASSIC


def test_r24_determinized_classic_game_keeps_the_classic_deck():
    """R24/R25: information-set sampling deals the unseen cards of the game's own deck."""
    g = cyclades.new_game(players=3, ruleset="classic", seed=3)
    rng = random.Random(1)
    for _ in range(40):
        g.apply(rng.choice(g.legal_actions()))
    d = g.observe(g.to_move).determinize(random.Random(2))
    pile = lambda s: Counter(s.creature_deck + s.creature_discard + [c for c in s.creature_track if c])  # noqa: E731
    assert pile(d.state) == pile(g.state)


# --- the command line: --ruleset --------------------------------------------------------------------

def cli(*args):
    from click.testing import CliRunner

    from cyclades.cli import main
    return CliRunner().invoke(main, [str(a) for a in args])


def test_cli_simulate_classic_games(tmp_path):
    """`cyclades simulate --ruleset classic`: 2 to 5 players, won with 2 metropolises (R21); the
    2-player mode is two offerings each (R23), not two factions."""
    out = tmp_path / "classic.json"
    r = cli("simulate", "--ruleset", "classic", "--games", 2, "--players", "2,5", "--json", out)
    assert r.exit_code == 0, r.output
    assert "2 players (2 offerings each)" in r.output and "Won by reaching 2 Metropolises" in r.output
    import json
    data = json.loads(out.read_text())
    assert data["ruleset"] == "classic"
    for run_ in data["runs"]:
        assert run_["metropolises_to_win"] == 2 and run_["teams"] is None
        assert run_["factions"] == run_["players"] and run_["summary"]["errors"] == 0
    r = cli("simulate", "--ruleset", "classic", "--players", "6")
    assert r.exit_code != 0 and "the classic game has the modes 2, 3, 4 and 5" in r.output


def test_cli_board_and_play_with_the_classic_ruleset():
    """`cyclades board --ruleset classic` lists the classic board (R8); `play` refuses team play
    in the classic game."""
    r = cli("board", "--ruleset", "classic", "--players", 5)
    assert r.exit_code == 0, r.output
    assert "37 areas: 13 land, 24 sea, 13 islands (classic board, 5 players" in r.output
    assert "3 + metropolis" in r.output
    r = cli("play", "--ruleset", "classic", "--players", 4, "--teams")
    assert r.exit_code != 0 and "the classic game has no team play" in r.output
