"""Setup and the two Placement rounds (rulebook, "Setup" and "Placement for 3 to 5 players"; R4)."""
import random

import pytest
from positions import act, scenario

import cyclades
from cyclades.content.cards import creature_deck, hero_deck

# A map for whole placement rounds: six islands, every land area with its own sea,
# and a shared sea `mid` next to a1, b1 and z (z has no other sea); e1 is the spare land area
# that lets a1 take `mid` and still leave a land area and a sea for every fleet to come.
#   island A: a1 (Priestess icon) - a2      island B: b1 - b2     island C: c1 - c2
#   island D: d1 - d2                       island Z: z           island E: e1
PLACEMENT_MAP = {"map": [
    {"id": "a1", "kind": "land", "sites": 1, "priestess": True, "adj": ["a2", "sa1", "mid"]},
    {"id": "a2", "kind": "land", "sites": 1, "adj": ["a1", "sa2"]},
    {"id": "b1", "kind": "land", "sites": 1, "adj": ["b2", "sb1", "mid"]},
    {"id": "b2", "kind": "land", "sites": 1, "adj": ["b1", "sb2"]},
    {"id": "c1", "kind": "land", "sites": 1, "adj": ["c2", "sc1"]},
    {"id": "c2", "kind": "land", "sites": 1, "adj": ["c1", "sc2"]},
    {"id": "d1", "kind": "land", "sites": 1, "adj": ["d2", "sd1"]},
    {"id": "d2", "kind": "land", "sites": 1, "adj": ["d1", "sd2"]},
    {"id": "z", "kind": "land", "sites": 1, "cornucopias": 2, "adj": ["mid"]},
    {"id": "e1", "kind": "land", "sites": 1, "adj": ["se1"]},
    {"id": "mid", "kind": "sea", "adj": ["sa1", "sb1"]},
] + [{"id": x, "kind": "sea", "adj": ["mid"]}
     for x in ("sa1", "sa2", "sb1", "sb2", "sc1", "sc2", "sd1", "sd2", "se1")]}


def placement(**data):
    data.setdefault("board", PLACEMENT_MAP)
    data.setdefault("turn_order", [2, 0, 1])
    return scenario(decision={"placement": {}}, **data)


def where(game, kind):
    return sorted(a.where for a in game.legal_actions() if a.kind == kind)


def owner(game, area_id):
    return game.state.ctrl[game.board.index[area_id]]


# --- Setup ----------------------------------------------------------------------------

@pytest.mark.parametrize("players, up", [(3, 2), (4, 3), (5, 4)])
def test_setup_god_tiles_face_up_by_player_count(players, up):
    """Rulebook, Setup: 5 players turn the last tile face down, 4 players the last two,
    3 players the last three; the five gods are all on the board."""
    g = cyclades.new_game(players=players, seed=11, board="recommended")
    assert g.state.faceup == up
    assert sorted(g.state.gods) == sorted(["athena", "zeus", "poseidon", "ares", "hera"])
    assert [x["face_up"] for x in g.view(0)["gods"]] == [True] * up + [False] * (5 - up)


def test_setup_tracks_purses_and_reserves():
    """Rulebook, Setup: 4 creatures and 2 heroes revealed from their decks, 5 GP each;
    R28: 8 troops and 8 fleets per player, 16 mercenaries."""
    g = cyclades.new_game(players=4, seed=5, board="recommended")
    s = g.state
    assert len(s.creature_track) == 4 and None not in s.creature_track
    assert len(s.hero_track) == 2 and None not in s.hero_track
    # dealt from the decks: no card is both on a track and in its deck, none is lost (R2)
    assert sorted(s.creature_track + s.creature_deck) == sorted(creature_deck(True))
    assert sorted(s.hero_track + s.hero_deck) == sorted(hero_deck(True))
    assert s.gp == [5, 5, 5, 5]
    assert s.troops_left == [8] * 4 and s.fleets_left == [8] * 4 and s.mercs_left == 16
    assert s.priestesses == [0] * 4 and s.philosophers == [0] * 4


def test_setup_turn_order_random_but_seed_deterministic():
    """Rulebook, Setup (offering pawns placed randomly) and R4: the same seed gives the same
    turn order, gods and tracks; different seeds give different orders."""
    orders = set()
    for seed in range(8):
        a = cyclades.new_game(players=4, seed=seed, board="recommended")
        b = cyclades.new_game(players=4, seed=seed, board="recommended")
        assert a.state.turn_order == b.state.turn_order
        assert (a.state.gods, a.state.creature_track, a.state.hero_track) == (b.state.gods, b.state.creature_track,
                                                                   b.state.hero_track)
        assert sorted(a.state.turn_order) == [0, 1, 2, 3]
        orders.add(tuple(a.state.turn_order))
    assert len(orders) > 2


def test_setup_waits_on_first_placement_of_first_player():
    """Rulebook, Placement: the game begins with the placement rounds, in turn order."""
    g = cyclades.new_game(players=3, seed=9, board="recommended")
    assert g.phase == "setup" and g.state.cycle == 0
    assert g.to_move == g.state.turn_order[0]
    assert {a.kind for a in g.legal_actions()} == {"claim"}


# --- Placement round 1 ----------------------------------------------------------------------

def test_placement_round1_second_area_on_a_different_island():
    """Rulebook, 1st Placement Round: two unoccupied land areas on two different islands."""
    g = placement()
    assert g.to_move == 2
    assert where(g, "claim") == ["a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1", "z"]
    act(g, "claim", where="a2")
    assert where(g, "place_fleet") == ["sa2"]
    act(g, "place_fleet", where="sa2")
    assert g.to_move == 2
    # island A is excluded for the second area
    assert where(g, "claim") == ["b1", "b2", "c1", "c2", "d1", "d2", "e1", "z"]


def test_placement_priestess_icon_draws_a_priestess():
    """Rulebook, 1st Placement Round: an area with the Priestess icon draws a Priestess card."""
    g = placement()
    act(g, "claim", where="a1")
    assert g.state.priestesses == [0, 0, 1]
    assert owner(g, "a1") == 2


def test_placement_fleet_only_on_an_adjacent_empty_sea():
    """Rulebook, 1st Placement Round: the fleet goes on an EMPTY sea area adjacent to the land
    area just selected; a land area without one is not offered."""
    g = placement()
    act(g, "claim", where="a1")
    assert where(g, "place_fleet") == ["mid", "sa1"]
    act(g, "place_fleet", where="mid")
    # z's only sea is taken: z is no longer offered; b1 offers only its own sea
    assert "z" not in where(g, "claim")
    act(g, "claim", where="b1")
    assert where(g, "place_fleet") == ["sb1"]


def test_placement_taken_areas_not_offered_and_order_is_turn_order():
    """Rulebook, 1st Placement Round: in turn order; areas already occupied are not offered."""
    g = placement()
    for area, sea in (("a1", "sa1"), ("b1", "sb1")):
        act(g, "claim", where=area)
        act(g, "place_fleet", where=sea)
    assert g.to_move == 0  # turn order [2, 0, 1]
    assert where(g, "claim") == ["a2", "b2", "c1", "c2", "d1", "d2", "e1", "z"]
    s, b = g.state, g.board
    assert s.fleets[b.index["sa1"]] == 1 and s.ctrl[b.index["sb1"]] == 2
    assert s.fleets_left[2] == 6


def _round1(g):
    """Turn order [2, 0, 1]: 2 takes A and B, 0 takes C and D, 1 takes a2 and z."""
    for area, sea in (("a1", "sa1"), ("b1", "sb1"), ("c1", "sc1"), ("d1", "sd1"),
                      ("a2", "sa2"), ("z", "mid")):
        act(g, "claim", where=area)
        act(g, "place_fleet", where=sea)


def test_placement_round2_in_reverse_order_third_area_may_share_an_island():
    """Rulebook, 2nd Placement Round: reverse turn order; the third area may be on an island
    where the player already is."""
    g = placement()
    _round1(g)
    assert g.to_move == 1  # last of [2, 0, 1] goes first
    # player 1 (on islands A and Z) may take b2, c2, d2, e1: no island restriction now
    assert where(g, "claim") == ["b2", "c2", "d2", "e1"]
    act(g, "claim", where="b2")
    act(g, "place_fleet", where="sb2")
    # then the 3 troops over the player's three land areas, before the next player
    assert where(g, "place_troop") == ["a2", "b2", "z"]
    for area in ("z", "z", "b2"):
        assert g.to_move == 1
        act(g, "place_troop", where=area)
    assert g.to_move == 0
    act(g, "claim", where="c2")  # same island as its c1
    act(g, "place_fleet", where="sc2")
    assert where(g, "place_troop") == ["c1", "c2", "d1"]


def test_placement_complete_rounds_then_first_cycle_income_and_offerings():
    """Rulebook, Placement: each player ends with 3 areas, 3 fleets and 3 troops; control tokens
    keep troop-less areas; then the first Cycle begins with Income and Offerings in turn order."""
    g = placement()
    _round1(g)
    for player, land, sea, troops in ((1, "b2", "sb2", ("z", "z", "z")),
                                      (0, "c2", "sc2", ("c1", "c2", "d1")),
                                      (2, "d2", "sd2", ("a1", "a1", "b1"))):
        assert g.to_move == player
        act(g, "claim", where=land)
        act(g, "place_fleet", where=sea)
        for area in troops:
            act(g, "place_troop", where=area)
    s, b = g.state, g.board
    assert s.troops_left == [5, 5, 5] and s.fleets_left == [5, 5, 5]
    assert s.troops[b.index["z"]] == 3 and owner(g, "a2") == 1 and s.troops[b.index["a2"]] == 0
    assert owner(g, "d2") == 2
    assert g.phase == "offerings" and s.cycle == 1
    assert g.to_move == 2
    # income of cycle 1: z has 2 cornucopias (player 1)
    assert s.gp == [5, 7, 5]


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2), (5, 3)])
def test_placement_on_real_boards(players, seed):
    """Rulebook, Placement for 3 to 5 players, on a random board: round 1 in turn order (two areas
    each, two islands), round 2 in reverse order (one area and 3 troops each); every area has its
    fleet on an adjacent sea; Priestess icons give Priestesses."""
    g = cyclades.new_game(players=players, seed=seed)
    b, s = g.board, g.state
    order = list(s.turn_order)
    claims = []
    while g.phase == "setup":
        legal = g.legal_actions()
        a = legal[(len(claims) * 7) % len(legal)]  # vary the choices a little
        if a.kind == "claim":
            claims.append(g.to_move)
        elif a.kind == "place_fleet":
            land = b.index[_last_claim(g)]
            assert b.index[a.where] in b.coast[land]
            assert s.fleets[b.index[a.where]] == 0
        g.apply(a)
    assert claims == [p for p in order for _ in (0, 1)] + list(reversed(order))
    for p in range(players):
        lands = [x for x in b.lands if s.ctrl[x] == p]
        assert len(lands) == 3
        assert len({b.island[x] for x in lands}) >= 2
        assert sum(s.troops[x] for x in lands) == 3 and s.troops_left[p] == 5
        assert sum(s.fleets[x] for x in b.seas if s.ctrl[x] == p) == 3 and s.fleets_left[p] == 5
        assert all(s.fleets[x] == 1 for x in b.seas if s.ctrl[x] == p)
        assert s.priestesses[p] == sum(1 for x in lands if b.priestess[x])
    assert g.phase == "offerings" and s.cycle == 1 and g.to_move == order[0]


def _last_claim(g):
    return g.board.ids[g.state.stack[-1]["claimed"][-1]]


# --- a way on: no placement that stops with no legal action ------------------------------------

def chain_map(lands=9):
    """Land areas l1..ln, each its own island, between the seas sk and s(k+1): each land area can
    have its own sea (lk with sk), but a fleet on s(k+1) for lk leaves one land area without."""
    out = [{"id": f"l{k}", "kind": "land", "sites": 1, "adj": [f"s{k}"] + ([f"s{k + 1}"] if k < lands else [])}
           for k in range(1, lands + 1)]
    out += [{"id": f"s{k}", "kind": "sea", "adj": [f"s{k + 1}"] if k < lands else []} for k in range(1, lands + 1)]
    return {"map": out}


def test_placement_never_offers_a_fleet_that_would_stop_the_setup():
    """Placement for 3 to 5 players: each land area claimed takes a fleet on an empty adjacent sea.
    On a board with just enough seas for the 9 fleets of 3 players, a fleet on s2 for l1 would
    leave one land area without an empty sea (the setup could not go on): only s1 is offered."""
    g = scenario(board=chain_map(9), turn_order=[0, 1, 2], decision={"placement": {}})
    act(g, "claim", where="l1")
    assert {a.where for a in g.legal_actions()} == {"s1"}


def test_placement_on_a_cramped_board_always_has_a_way_on():
    """Whatever the players choose, the placement on a board with exactly enough land areas and
    seas ends, with every fleet placed, and every position on the way has a legal action (the
    invariants hold after each decision); so does team play on a board of few islands."""
    from cyclades.engine.invariants import check
    for seed in range(12):
        for data in ({"board": chain_map(9), "players": 3},
                     {"board": chain_map(12), "players": 4, "teams": True}):
            g = scenario(seed=seed, decision={"placement": {}}, **data)
            rng = random.Random(seed)
            while g.phase == "setup":
                g.apply(rng.choice(g.legal_actions()))
                assert check(g) == [], (seed, data["players"])
            assert sum(g.state.fleets) == 3 * len(g.state.turn_order)


def test_a_board_too_small_for_the_placement_is_refused():
    """A scenario or a new game whose board cannot take every player's three land areas and
    fleets is refused, naming the reason, instead of a setup that stops with no legal action."""
    with pytest.raises(cyclades.ScenarioError, match=r"^decision.placement: 9 land areas .* only 8 such pairs"):
        scenario(board=chain_map(8), decision={"placement": {}})
    with pytest.raises(ValueError, match="cannot seat 3 players: 9 land areas"):
        cyclades.new_game(players=3, board=cyclades.Game.from_scenario(
            {"board": chain_map(9), "decision": {"placement": {}}}).board.spec | {"areas": chain_map(8)["map"]})


def test_invariants_name_a_placement_that_cannot_be_completed():
    """The invariants (checked after every decision of the random games) look ahead in the
    placement: a position where the land areas and empty seas left cannot take every fleet still
    to be placed is reported, before any player is left with no legal action."""
    from cyclades.engine.invariants import check
    g = scenario(board=chain_map(9), turn_order=[0, 1, 2], decision={"placement": {}})
    assert check(g) == []
    s1 = g.board.index["s1"]
    g.state.fleets[s1], g.state.ctrl[s1] = 1, 2  # a fleet of player 2's put there by hand
    g.state.fleets_left[2] -= 1
    assert any("only 8 such pairs" in e for e in check(g))


@pytest.mark.parametrize("options, words", [
    ({"players": "3"}, "players is a whole number, not '3'"),
    ({"players": 3.0}, "players is a whole number, not 3.0"),
    ({"players": True}, "players is a whole number, not True"),
    ({"players": None}, "players is a whole number, not None"),
    ({"max_cycles": 0}, "max_cycles is 1 or more, not 0"),
    ({"max_cycles": -2}, "max_cycles is 1 or more, not -2"),
    ({"max_cycles": 2.5}, "max_cycles is a whole number, not 2.5"),
    ({"max_cycles": "10"}, "max_cycles is a whole number, not '10'"),
    ({"seed": "abc"}, "seed is a whole number, not 'abc'"),
    ({"seed": 1.5}, "seed is a whole number, not 1.5"),
])
def test_a_count_that_is_no_whole_number_is_refused_when_the_game_is_made(options, words):
    """The number of players and the cycle limit (R21's guard) are whole numbers: "3" failed
    deep in the set-up with a TypeError, max_cycles 0 set no limit, -2 ended the game after its
    first cycle, and 2.5 or "10" were written into its record as they were. A numpy integer is
    a whole number."""
    with pytest.raises(ValueError) as e:
        cyclades.new_game(**{"seed": 1, **options})
    assert str(e.value) == words
    import numpy as np

    g = cyclades.new_game(players=np.int64(4), seed=1, max_cycles=np.int64(3))
    assert type(g.options["players"]) is int and g.max_cycles == 3 and type(g.max_cycles) is int
    assert cyclades.Game.from_record(g.record()).options == g.options
