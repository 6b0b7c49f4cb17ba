"""Board and archipelago tiles: R5 (tiles), R6 (assembly, validation), R7 (geometry = adjacency)."""

import copy
import json
import pickle
import re
from pathlib import Path

import pytest

from cyclades.engine import board as board_mod
from cyclades.engine.board import (
    FLOWER,
    HEX_DIRS,
    RECOMMENDED,
    SLOTS,
    Board,
    load_tiles,
    rotate,
    tiles_for_players,
    validate,
)
from cyclades.engine.rng import Rng
from cyclades.web.geometry import geometry

TILES_JSON = Path(board_mod.__file__).resolve().parent.parent / "content" / "tiles.json"
SLUG = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def faces():
    for number, sides in sorted(load_tiles().items()):
        for face, areas in sorted(sides.items()):
            yield number, face, areas


def neighbours(cell):
    q, r = cell
    return {(q + dq, r + dr) for dq, dr in HEX_DIRS}


# ---- R5: the tiles --------------------------------------------------------

def test_r5_twelve_double_sided_tiles():
    tiles = load_tiles()
    assert sorted(tiles) == list(range(1, 13))
    assert all(sorted(sides) == ["A", "B"] for sides in tiles.values())


@pytest.mark.parametrize("number,face,areas", list(faces()))
def test_r5_face_constraints(number, face, areas):
    """R5: a face is a 7-cell flower split into 2-3 land and 3-4 sea areas."""
    cells = [tuple(c) for a in areas for c in a["cells"]]
    assert sorted(cells) == sorted(FLOWER), "every cell in exactly one area"
    lands = [a for a in areas if a["kind"] == "land"]
    seas = [a for a in areas if a["kind"] == "sea"]
    assert 2 <= len(lands) <= 3
    assert 3 <= len(seas) <= 4
    sea_cells = {tuple(c) for a in seas for c in a["cells"]}
    for a in areas:
        assert 1 <= len(a["cells"]) <= 2
        if len(a["cells"]) == 2:
            assert tuple(a["cells"][1]) in neighbours(tuple(a["cells"][0]))
    for a in lands:
        assert 1 <= a["sites"] <= 4
        assert 0 <= a["cornucopias"] <= 2
        assert isinstance(a["priestess"], bool)
        # coastal even at the edge of the board
        assert any(neighbours(tuple(c)) & sea_cells for c in a["cells"]), a["id"]
    for a in seas:
        assert a["cornucopias"] in (0, 1)
        assert "sites" not in a or a["sites"] == 0
    volcanoes = [a for a in lands if a.get("volcano")]
    assert len(volcanoes) == (1 if number in (2, 11) else 0)


def test_r5_ids_and_names_unique_slugs():
    areas = [a for _, _, face_areas in faces() for a in face_areas]
    ids = [a["id"] for a in areas]
    names = [a["name"] for a in areas]
    assert len(ids) == len(set(ids))
    assert len(names) == len(set(names))
    assert all(SLUG.match(i) for i in ids)


def test_r5_proportions():
    """About 1 land area in 4 has a priestess, about 1 sea in 3 a cornucopia;
    most faces carry land on 2 islands of their own."""
    lands = [a for _, _, f in faces() for a in f if a["kind"] == "land"]
    seas = [a for _, _, f in faces() for a in f if a["kind"] == "sea"]
    assert 0.15 <= sum(a["priestess"] for a in lands) / len(lands) <= 0.35
    assert 0.2 <= sum(a["cornucopias"] for a in seas) / len(seas) <= 0.45
    two_islands = 0
    for _, _, f in faces():
        b = Board.from_map([{"id": a["id"], "kind": a["kind"], "sites": a.get("sites", 0),
                             "adj": [o["id"] for o in f if o is not a and any(
                                 tuple(c) in neighbours(tuple(d)) for c in o["cells"]
                                 for d in a["cells"])]} for a in f])
        two_islands += len(b.islands) >= 2
    assert two_islands > 12


def test_r5_generator_matches_data():
    """tiles.json is what make_tiles.py writes (regenerate after editing it)."""
    from cyclades.content import make_tiles
    assert make_tiles.main()["tiles"] == json.loads(TILES_JSON.read_text())["tiles"]


# ---- slots and assembly ---------------------------------------------------

def test_flower_lattice_tiles_the_plane_without_overlap():
    centres = [board_mod.lattice(a, b) for a in range(-3, 4) for b in range(-3, 4)]
    seen = set()
    for cq, cr in centres:
        for q, r in FLOWER:
            cell = (cq + q, cr + r)
            assert cell not in seen
            seen.add(cell)
    # the inner flowers are surrounded: every neighbour cell is covered
    for q, r in FLOWER:
        assert neighbours((q, r)) <= seen


def test_rotation_maps_flower_to_itself():
    for rot in range(6):
        assert sorted(rotate(c, rot) for c in FLOWER) == sorted(FLOWER)
    assert rotate((1, 0), 6) == (1, 0)


@pytest.mark.parametrize("n", sorted(SLOTS))
def test_slot_layouts_are_compact(n):
    slots = SLOTS[n]
    assert len(slots) == len(set(slots)) == n
    board = Board.from_tiles([(i + 1, "A", s, 0) for i, s in enumerate(slots)])
    assert not board.overlaps
    for s in slots:
        touching = sum(1 for t in slots if t != s and
                       max(abs(s[0] - t[0]), abs(s[1] - t[1]), abs(s[0] + s[1] - t[0] - t[1])) == 3)
        assert touching >= 2


def test_overlapping_tiles_are_reported():
    board = Board.from_tiles([(1, "A", (0, 0), 0), (3, "A", (1, 0), 0)])
    assert board.overlaps
    assert any("overlapping" in p for p in validate(board, 3))


def test_r6_tile_counts():
    assert [tiles_for_players(p) for p in (2, 3, 4, 5, 6)] == [8, 6, 8, 10, 10]
    with pytest.raises(ValueError):
        tiles_for_players(7)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("face", ["A", "B"])
def test_r6_recommended_boards_validate(players, face):
    board = Board.recommended(players, face)
    assert validate(board, players) == []
    assert [p[0] for p in board.spec["placements"]] == list(RECOMMENDED[players])
    assert {p[1] for p in board.spec["placements"]} == {face}
    assert len(board.islands) >= 4


def test_r6_recommended_lists_are_the_rulebooks():
    assert RECOMMENDED[3] == (10, 9, 1, 3, 7, 4)
    assert RECOMMENDED[4] == RECOMMENDED[2] == (5, 9, 1, 10, 7, 8, 3, 4)
    assert RECOMMENDED[5] == RECOMMENDED[6] == (5, 9, 1, 2, 10, 7, 8, 6, 3, 4)


def test_r6_500_random_boards_validate_and_are_deterministic():
    for seed in range(500):
        players = 2 + seed % 5
        board = Board.for_players(players, Rng(seed))
        assert validate(board, players) == [], seed
        placements = board.spec["placements"]
        assert len(placements) == tiles_for_players(players)
        assert len({p[0] for p in placements}) == len(placements)  # distinct tiles
        assert len({p[1] for p in placements}) == 1  # R5: faces never mixed
        assert Board.for_players(players, Rng(seed)).spec == board.spec


def test_r6_random_face_choice_and_forced_face():
    faces_seen = {Board.random(6, Rng(s)).spec["placements"][0][1] for s in range(20)}
    assert faces_seen == {"A", "B"}
    assert {p[1] for p in Board.random(8, Rng(1), face="B").spec["placements"]} == {"B"}


def test_for_players_recommended():
    assert Board.for_players(3, Rng(0), kind="recommended") == Board.recommended(3)


# ---- derived structure ----------------------------------------------------

def check_structure(board):
    n = len(board.ids)
    for i in range(n):
        assert i not in board.adj[i]
        for j in board.adj[i]:
            assert i in board.adj[j]
        if board.is_land[i]:
            assert set(board.land_adj[i]) == {j for j in board.adj[i] if board.is_land[j]}
            assert board.sea_adj[i] == ()
            assert set(board.coast[i]) == {j for j in board.adj[i] if not board.is_land[j]}
            assert i in board.islands[board.island[i]]
        else:
            assert board.land_adj[i] == () and board.sites[i] == 0
            assert set(board.sea_adj[i]) == {j for j in board.adj[i] if not board.is_land[j]}
            assert set(board.coast[i]) == {j for j in board.adj[i] if board.is_land[j]}
            assert board.island[i] == -1
    assert sorted(board.lands + board.seas) == list(range(n))
    assert board.n_sites == sum(board.sites) == len(board.site_area)
    for i in range(n):
        for k in board.sites_of(i):
            assert board.site_area[k] == i
    assert all(board.index[a] == i for i, a in enumerate(board.ids))
    # islands are exactly the connected components of land_adj
    for isl in board.islands:
        for i in isl:
            for j in board.land_adj[i]:
                assert board.island[j] == board.island[i]


def test_structure_of_boards():
    for players in (2, 3, 4, 5, 6):
        check_structure(Board.recommended(players))
        check_structure(Board.for_players(players, Rng(players)))


def test_cross_tile_land_joins_islands():
    """Land cells of two tiles that touch make one island (R7: drawn = rules)."""
    for seed in range(40):
        board = Board.for_players(6, Rng(seed))
        for i in board.lands:
            for j in board.land_adj[i]:
                if board.tile[i] != board.tile[j] and not (board.volcano[i] and board.volcano[j]):
                    assert board.island[i] == board.island[j]
                    return
    pytest.fail("no cross-tile island in 40 boards")


def test_r5_volcano_link_iff_tiles_2_and_11():
    both = Board.from_tiles([(2, "A", (0, 0), 0), (11, "A", (8, 0), 0), (1, "A", (4, 0), 0)])
    v = [i for i in range(len(both.ids)) if both.volcano[i]]
    assert len(v) == 2
    a, b = v
    assert b in both.adj[a] and b in both.land_adj[a]
    assert both.island[a] == both.island[b]
    assert both.links == ((a, b, "volcano"),)
    only_two = Board.from_tiles([(2, "B", (0, 0), 0), (1, "B", (2, 1), 0)])
    (v2,) = [i for i in range(len(only_two.ids)) if only_two.volcano[i]]
    assert not only_two.links
    assert all(not only_two.volcano[j] for j in only_two.adj[v2])
    # and on random boards
    for seed in range(100):
        board = Board.for_players(2 + seed % 5, Rng(seed))
        tiles = {p[0] for p in board.spec["placements"]}
        assert bool(board.links) == ({2, 11} <= tiles)
        if board.links:
            a, b, _ = board.links[0]
            assert board.volcano[a] and board.volcano[b] and b in board.land_adj[a]


# ---- R7: geometry is the adjacency ----------------------------------------

def drawn_adjacency(geometry):
    """Adjacency recomputed from the drawn polygons: two areas are adjacent
    iff some polygon edge of one coincides with a polygon edge of the other."""
    key = lambda p: (round(p[0], 1), round(p[1], 1))  # noqa: E731
    owners = {}
    for a in geometry["areas"]:
        for poly in a["polygons"]:
            for k in range(len(poly)):
                e = frozenset((key(poly[k]), key(poly[(k + 1) % len(poly)])))
                owners.setdefault(e, set()).add(a["id"])
    adj = {a["id"]: set() for a in geometry["areas"]}
    for ids in owners.values():
        for x in ids:
            adj[x] |= ids - {x}
    return adj


def check_r7(board):
    g = geometry(board)
    drawn = drawn_adjacency(g)
    for link in g["links"]:
        drawn[link["a"]].add(link["b"])
        drawn[link["b"]].add(link["a"])
    rules = {board.ids[i]: {board.ids[j] for j in board.adj[i]} for i in range(len(board.ids))}
    assert drawn == rules
    # polygons never overlap: each cell centre is drawn once
    centres = [tuple(map(lambda v: round(v, 1), (sum(p[0] for p in poly) / 6,
                                                   sum(p[1] for p in poly) / 6)))
               for a in g["areas"] for poly in a["polygons"]]
    assert len(centres) == len(set(centres))
    # every link is the volcano rule on a tile board
    assert all(link["kind"] == "volcano" for link in g["links"])


def test_r7_drawn_adjacency_equals_rules_adjacency():
    for players in (2, 3, 4, 5, 6):
        for face in "AB":
            check_r7(Board.recommended(players, face))
    for seed in range(60):
        check_r7(Board.for_players(2 + seed % 5, Rng(seed)))
    check_r7(Board.from_tiles([(2, "A", (0, 0), 3), (11, "B", (2, 1), 5)]))


def test_r7_geometry_contents():
    board = Board.recommended(4)
    g = geometry(board)
    assert g["width"] > 0 and g["height"] > 0 and g["viewBox"].startswith("0 0 ")
    assert [a["id"] for a in g["areas"]] == list(board.ids)
    for i, a in enumerate(g["areas"]):
        assert len(a["sites"]) == board.sites[i]
        assert len(a["outline"]) == 6 * len(a["cells"]) - 2 * (len(a["cells"]) - 1)
        x, y = a["centre"]
        assert 0 <= x <= g["width"] and 0 <= y <= g["height"]
    assert len(g["islands"]) == len(board.islands)
    assert all(isl["outlines"] for isl in g["islands"])
    assert len(g["tiles"]) == 8
    json.dumps(g)
    assert geometry(board) is g  # cached


# ---- spec, immutability, maps ---------------------------------------------

def test_spec_round_trip():
    boards = [Board.recommended(5, "B"), Board.for_players(4, Rng(9)),
              Board.from_tiles([(2, "A", (0, 0), 1), (11, "A", (2, 1), 4)])]
    for board in boards:
        spec = json.loads(json.dumps(board.spec))
        again = Board.from_spec(spec)
        assert again == board
        for name in ("ids", "names", "is_land", "sites", "site_start", "cornucopias",
                     "priestess", "adj", "land_adj", "sea_adj", "coast", "island",
                     "islands", "lands", "seas", "links"):
            assert getattr(again, name) == getattr(board, name), name


def test_board_is_immutable_and_shared():
    board = Board.recommended(3)
    with pytest.raises(AttributeError):
        board.ids = ()
    assert copy.deepcopy(board) is board and copy.copy(board) is board
    assert pickle.loads(pickle.dumps(board)) == board


def five_area_map():
    return Board.from_map([
        {"id": "alpha", "name": "Alpha", "kind": "land", "sites": 2, "cornucopias": 1,
         "priestess": True, "adj": ["beta", "west-sea"]},
        {"id": "beta", "kind": "land", "sites": 3, "adj": ["east-sea"]},
        {"id": "gamma", "kind": "land", "sites": 1, "cornucopias": 2, "adj": ["east-sea"]},
        {"id": "west-sea", "name": "West Sea", "kind": "sea", "cornucopias": 1,
         "adj": ["east-sea"]},
        {"id": "east-sea", "kind": "sea", "adj": []},
    ])


def test_from_map_five_areas():
    board = five_area_map()
    a, b, c, w, e = (board.index[x] for x in ("alpha", "beta", "gamma", "west-sea", "east-sea"))
    assert board.names[a] == "Alpha" and board.names[b] == "beta"
    assert board.adj[e] == (b, c, w)  # made symmetric
    assert board.land_adj[a] == (b,) and board.land_adj[c] == ()
    assert board.coast[a] == (w,) and board.coast[e] == (b, c)
    assert board.sea_adj[w] == (e,)
    assert board.island[a] == board.island[b] != board.island[c]
    assert len(board.islands) == 2
    assert board.sites == (2, 3, 1, 0, 0) and board.site_start == (0, 2, 5, 6, 6)
    assert board.cornucopias == (1, 0, 2, 1, 0) and board.priestess[a]
    assert board.lands == (a, b, c) and board.seas == (w, e)
    check_structure(board)
    assert Board.from_spec(json.loads(json.dumps(board.spec))) == board
    # R7 for maps: no cells, so every adjacency is a drawn link
    g = geometry(board)
    drawn = {frozenset((lk["a"], lk["b"])) for lk in g["links"]}
    rules = {frozenset((board.ids[i], board.ids[j])) for i in range(5) for j in board.adj[i]}
    assert drawn == rules
    # far too small for a game
    assert validate(board, 3)


def test_from_map_rejects_bad_input():
    with pytest.raises(ValueError):
        Board.from_map([{"id": "a", "kind": "land", "adj": ["nowhere"]}])
    with pytest.raises(ValueError):
        Board.from_map([{"id": "a", "kind": "land"}, {"id": "a", "kind": "sea"}])


def test_validate_reports_problems():
    # two disconnected parts, an island without sea
    board = Board.from_map([
        {"id": "l1", "kind": "land", "sites": 1, "adj": ["s1"]},
        {"id": "s1", "kind": "sea"},
        {"id": "l2", "kind": "land", "sites": 1, "adj": []},
    ])
    problems = validate(board, 3)
    assert any("not connected" in p for p in problems)
    assert any("no adjacent sea" in p for p in problems)
    assert any("coastal land" in p for p in problems)


