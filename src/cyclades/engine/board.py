"""The board: land and sea areas and their adjacency (R5, R6, R7).

A ``Board`` is built once per game and shared, never mutated, between copies of
the game state, so every rule can read its plain tuples on the hot path.

Areas are numbered 0..A-1. Per area (tuples indexed by area):

- ``ids``, ``names``, ``index`` (id -> area), ``is_land``
- ``sites`` (construction sites; 0 for seas), ``site_start`` (offset of the
  area's first site in the flat list of all sites), ``n_sites``, ``site_area``
  (area of each flat site), ``metro_site`` (classic board, R8: the flat index of
  the isle's metropolis space, its last site, where no basic building goes; -1)
- ``cornucopias`` (printed icons), ``priestess``, ``volcano``
- ``adj`` every neighbour; ``land_adj`` land neighbours of a land area (the
  volcano link of R5 included); ``sea_adj`` sea neighbours of a sea area;
  ``coast`` the seas of a land area / the lands of a sea area
- ``island`` island of a land area (-1 for seas); ``islands`` land areas of
  each island (connected components of ``land_adj``)
- ``lands``, ``seas``; ``tile`` (tile number of the area; 0 on a map board)
- ``cells`` the hex cells of each area in the global axial grid (tile boards)
- ``links`` adjacencies that are not a shared border: the volcano link (R5)
- ``spec``: JSON-able; ``Board.from_spec(spec)`` rebuilds an equal board.

Geometry (R7). Tile boards live on a hex grid: every archipelago tile face is a
"flower" of 7 hex cells (see ``content/make_tiles.py`` and ``tiles.json``).
Adjacency is never stored: it is derived from the cells (two areas are adjacent
iff a cell of one shares an edge with a cell of the other), which is exactly
what the browser draws (``web/geometry.py``). The one exception is the volcano
rule (R5): when tiles 2 and 11 are both in play their volcano areas are
adjacent, drawn as a "link". The classic board (R8,
``content/classic_board.json``) lives on the same grid: each of its areas lists
its cells, and ``Board.classic(players)`` keeps the part in play for a count.

Flowers tile the plane: their centres form the lattice a*(2, 1) + b*(-1, 3) in
axial coordinates (determinant 7 = cells per flower), so slot positions are
lattice points and tiles never overlap.
"""
from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .rng import Rng

# Axial neighbour directions in ring order: each one touches the next (R7).
HEX_DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
FLOWER = ((0, 0), *HEX_DIRS)

TILE_COUNT = 12
FACES = ("A", "B")
VOLCANO_TILES = (2, 11)


def lattice(a: int, b: int) -> tuple[int, int]:
    """Axial centre of the flower at lattice coordinates (a, b)."""
    return (2 * a - b, a + 3 * b)


def rotate(cell: tuple[int, int], rot: int) -> tuple[int, int]:
    """Rotate an axial cell about (0, 0) by rot * 60 degrees (clockwise on screen)."""
    q, r = cell
    for _ in range(rot % 6):
        q, r = -r, q + r
    return (q, r)


# Slot layouts (flower centres, axial), in reading order. In lattice
# coordinates the six neighbours of a flower are (+-1, 0), (0, +-1), (1, -1),
# (-1, 1). The layouts are compact, wider than tall, and every slot touches at
# least two others (checked by the tests).
def _layout(points: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    cells = [lattice(a, b) for a, b in points]
    # reading order: by pixel row then column
    return tuple(sorted(cells, key=lambda c: (round(1.5 * c[1], 3), math.sqrt(3) * (c[0] + c[1] / 2))))


SLOTS: dict[int, tuple[tuple[int, int], ...]] = {
    # a flower of seven tiles minus its bottom one
    6: _layout([(0, 0), (1, 0), (-1, 0), (1, -1), (-1, 1), (0, -1)]),
    # the full flower of seven tiles plus one on the right
    8: _layout([(0, 0), (1, 0), (-1, 0), (1, -1), (-1, 1), (0, -1), (0, 1), (2, -1)]),
    # the full flower plus two on the right and one on the left
    10: _layout([(0, 0), (1, 0), (-1, 0), (1, -1), (-1, 1), (0, -1), (0, 1),
                 (2, -1), (-2, 1), (2, 0)]),
}


def slots_for(n: int) -> tuple[tuple[int, int], ...]:
    """Slot centres for n tiles: a hand layout, or the n lattice points nearest
    the middle of a wide ellipse for other counts."""
    if n in SLOTS:
        return SLOTS[n]
    pts = []
    for a in range(-4, 5):
        for b in range(-4, 5):
            q, r = lattice(a, b)
            x, y = math.sqrt(3) * (q + r / 2), 1.5 * r
            pts.append(((x / 1.35) ** 2 + y * y, a, b))
    pts.sort()
    return _layout([(a, b) for _, a, b in pts[:n]])


# Recommended tile lists of the rulebook's last pages (R6), in slot order.
RECOMMENDED = {
    3: (10, 9, 1, 3, 7, 4),
    4: (5, 9, 1, 10, 7, 8, 3, 4),
    2: (5, 9, 1, 10, 7, 8, 3, 4),
    5: (5, 9, 1, 2, 10, 7, 8, 6, 3, 4),
    6: (5, 9, 1, 2, 10, 7, 8, 6, 3, 4),
}


def tiles_for_players(players: int) -> int:
    """R6: 2 tiles per player for 3 and 5 players, 8 for 2 and 4, 10 for 6."""
    if players in (3, 5):
        return 2 * players
    if players in (2, 4):
        return 8
    if players == 6:
        return 10
    raise ValueError(f"Cyclades takes 2 to 6 players, not {players}")


@cache
def load_tiles() -> dict[int, dict[str, list[dict[str, Any]]]]:
    """tiles.json as {number: {face: [area dicts]}}, read once."""
    path = Path(__file__).resolve().parent.parent / "content" / "tiles.json"
    data = json.loads(path.read_text())
    return {t["number"]: {f: body["areas"] for f, body in t["faces"].items()} for t in data["tiles"]}


_CLASSIC_BOARDS: dict[int, Board] = {}


@cache
def load_classic() -> dict[str, Any]:
    """classic_board.json (R8): areas with cells and the player count from which each is in
    play, and the starting positions by player count. Read once."""
    path = Path(__file__).resolve().parent.parent / "content" / "classic_board.json"
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _cell_adjacency(cell_area: dict[tuple[int, int], int], n: int) -> list[set[int]]:
    """R7: two areas are adjacent iff a cell of one shares an edge with a cell of the other."""
    adjacency: list[set[int]] = [set() for _ in range(n)]
    for (q, r), i in cell_area.items():
        for dq, dr in HEX_DIRS:
            j = cell_area.get((q + dq, r + dr))
            if j is not None and j != i:
                adjacency[i].add(j)
    return adjacency


class Board:
    __slots__ = (
        "adj",
        "cells",
        "coast",
        "cornucopias",
        "ids",
        "index",
        "is_land",
        "island",
        "islands",
        "land_adj",
        "lands",
        "links",
        "memo",
        "metro_site",
        "n_sites",
        "names",
        "overlaps",
        "priestess",
        "sea_adj",
        "seas",
        "site_area",
        "site_start",
        "sites",
        "spec",
        "tile",
        "volcano",
    )
    # Set once by __init__ (the board is immutable); areas and sites are numbered from 0.
    ids: tuple[str, ...]                   # area ids
    names: tuple[str, ...]
    index: dict[str, int]                  # area id -> area number
    is_land: tuple[bool, ...]
    sites: tuple[int, ...]                 # construction sites per area
    site_start: tuple[int, ...]            # an area's first site
    n_sites: int
    site_area: tuple[int, ...]             # site -> its area
    metro_site: tuple[int, ...]            # an isle's metropolis space (R8), or -1
    cornucopias: tuple[int, ...]
    priestess: tuple[bool, ...]
    volcano: tuple[bool, ...]
    adj: tuple[tuple[int, ...], ...]       # neighbours of each area
    land_adj: tuple[tuple[int, ...], ...]
    sea_adj: tuple[tuple[int, ...], ...]
    coast: tuple[tuple[int, ...], ...]     # the areas of the other kind next to each area
    island: tuple[int, ...]                # land area -> its island (-1 for a sea)
    islands: tuple[tuple[int, ...], ...]
    lands: tuple[int, ...]
    seas: tuple[int, ...]
    tile: tuple[int, ...]
    cells: Any
    links: tuple[tuple[int, int, str], ...]
    overlaps: tuple[Any, ...]
    spec: dict[str, Any]
    memo: dict[Any, Any]  # what the rules derive from the board alone, made once (e.g. turns.Prosper's menus)

    # ---- construction -------------------------------------------------

    def __init__(self, areas: list[dict[str, Any]], adjacency: list[set[int]], *, spec: dict[str, Any],
                 cells: tuple[Any, ...] | None = None, links: Sequence[Any] = (), overlaps: Sequence[Any] = ()) -> None:
        """Low level: ``areas`` are dicts with id, name, kind, sites,
        cornucopias, priestess, volcano, tile, metropolis_site (an extra site:
        the isle's metropolis space, R8); ``adjacency`` the neighbour sets.
        Use the from_* constructors."""
        s = object.__setattr__
        n = len(areas)
        ids = tuple(a["id"] for a in areas)
        if len(set(ids)) != n:
            dup = sorted({i for i in ids if ids.count(i) > 1})
            raise ValueError(f"duplicate area ids: {dup}")
        is_land = tuple(a["kind"] == "land" for a in areas)
        s(self, "ids", ids)
        s(self, "names", tuple(a.get("name") or a["id"] for a in areas))
        s(self, "index", {a: i for i, a in enumerate(ids)})
        s(self, "is_land", is_land)
        metro = tuple(bool(a.get("metropolis_site")) and is_land[i] for i, a in enumerate(areas))
        sites = tuple(int(a.get("sites", 0)) + metro[i] if is_land[i] else 0
                      for i, a in enumerate(areas))
        start, site_area, k = [], [], 0
        for i, c in enumerate(sites):
            start.append(k)
            site_area.extend([i] * c)
            k += c
        s(self, "sites", sites)
        s(self, "metro_site", tuple(start[i] + sites[i] - 1 if metro[i] else -1 for i in range(n)))
        s(self, "site_start", tuple(start))
        s(self, "n_sites", k)
        s(self, "site_area", tuple(site_area))
        s(self, "cornucopias", tuple(int(a.get("cornucopias", 0)) for a in areas))
        s(self, "priestess", tuple(bool(a.get("priestess", False)) and is_land[i]
                                   for i, a in enumerate(areas)))
        s(self, "volcano", tuple(bool(a.get("volcano", False)) for a in areas))
        s(self, "tile", tuple(int(a.get("tile", 0)) for a in areas))
        adj = tuple(tuple(sorted(x)) for x in adjacency)
        s(self, "adj", adj)
        s(self, "land_adj", tuple(tuple(j for j in adj[i] if is_land[j]) if is_land[i] else ()
                                  for i in range(n)))
        s(self, "sea_adj", tuple(() if is_land[i] else tuple(j for j in adj[i] if not is_land[j])
                                 for i in range(n)))
        s(self, "coast", tuple(tuple(j for j in adj[i] if is_land[j] != is_land[i])
                               for i in range(n)))
        s(self, "lands", tuple(i for i in range(n) if is_land[i]))
        s(self, "seas", tuple(i for i in range(n) if not is_land[i]))
        # Islands: connected components of land under land_adj, numbered in
        # order of their lowest area.
        island = [-1] * n
        islands: list[Any] = []
        for i in self.lands:
            if island[i] >= 0:
                continue
            k = len(islands)
            comp, stack = [], [i]
            island[i] = k
            while stack:
                x = stack.pop()
                comp.append(x)
                for y in self.land_adj[x]:
                    if island[y] < 0:
                        island[y] = k
                        stack.append(y)
            islands.append(tuple(sorted(comp)))
        s(self, "island", tuple(island))
        s(self, "islands", tuple(islands))
        s(self, "cells", cells)
        s(self, "links", tuple(links))
        s(self, "overlaps", tuple(overlaps))
        s(self, "spec", spec)
        s(self, "memo", {})

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("Board is immutable")

    # Immutable and shared: copying a game state keeps the same board, and a
    # pickle stores only the spec.
    def __copy__(self) -> Board:
        return self

    def __deepcopy__(self, memo: Any) -> Board:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Board.from_spec, (self.spec,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.spec == other.spec

    def __hash__(self) -> int:
        return hash(json.dumps(self.spec, sort_keys=True))

    def __repr__(self) -> str:
        return (f"<Board {len(self.ids)} areas: {len(self.lands)} land, "
                f"{len(self.seas)} sea, {len(self.islands)} islands>")

    @classmethod
    def from_tiles(cls, placements: list[Any]) -> Board:
        """Assemble tiles: placements are (tile_number, face, (q, r) flower
        centre in the global axial grid, rotation 0..5)."""
        tiles = load_tiles()
        areas: list[Any] = []
        cells_of: list[Any] = []
        cell_area: dict[Any, Any] = {}
        overlaps: list[Any] = []
        spec_pl = []
        volcanoes: dict[int, int] = {}
        for placed in placements:
            number, face, (cq, cr), rot = int(placed[0]), str(placed[1]), placed[2], int(placed[3]) % 6
            if number not in tiles or face not in tiles[number]:
                raise ValueError(f"no tile {number}{face}")
            spec_pl.append([number, face, [int(cq), int(cr)], rot])
            for area in tiles[number][face]:
                i = len(areas)
                areas.append({**area, "tile": number})
                if area.get("volcano"):
                    volcanoes[number] = i
                mine = []
                for c in area["cells"]:
                    q, r = rotate(c, rot)
                    g = (q + cq, r + cr)
                    if g in cell_area:
                        overlaps.append(g)
                        continue
                    cell_area[g] = i
                    mine.append(g)
                cells_of.append(tuple(mine))
        adjacency = _cell_adjacency(cell_area, len(areas))
        # R5: the two volcanoes are adjacent when tiles 2 and 11 are in play.
        links: list[tuple[int, int, str]] = []
        if all(t in volcanoes for t in VOLCANO_TILES):
            a, b = (volcanoes[t] for t in VOLCANO_TILES)
            adjacency[a].add(b)
            adjacency[b].add(a)
            links.append((min(a, b), max(a, b), "volcano"))
        spec = {"kind": "tiles", "placements": spec_pl}
        return cls(areas, adjacency, spec=spec, cells=tuple(cells_of),
                   links=links, overlaps=overlaps)

    @classmethod
    def classic(cls, players: int) -> Board:
        """The classic board (R8) for 2 to 5 players: the areas of classic_board.json in play
        from that count up; adjacency from the cells that are drawn (R7)."""
        if players not in (2, 3, 4, 5):
            raise ValueError(f"the classic game takes 2 to 5 players, not {players}")
        if players in _CLASSIC_BOARDS:  # immutable: one per player count is enough
            return _CLASSIC_BOARDS[players]
        keep = [a for a in load_classic()["areas"] if a["players"] <= players]
        cell_area, cells_of, overlaps = {}, [], []
        for i, a in enumerate(keep):
            mine = []
            for q, r in a["cells"]:
                if (q, r) in cell_area:
                    overlaps.append((q, r))
                    continue
                cell_area[(q, r)] = i
                mine.append((q, r))
            cells_of.append(tuple(mine))
        board = cls(keep, _cell_adjacency(cell_area, len(keep)),
                    spec={"kind": "classic", "players": players},
                    cells=tuple(cells_of), overlaps=overlaps)
        _CLASSIC_BOARDS[players] = board
        return board

    @classmethod
    def from_map(cls, areas: list[Any]) -> Board:
        """A small hand-written map without tiles (test scenarios): dicts with
        id, name (optional), kind "land"|"sea", sites, cornucopias, priestess,
        volcano, metropolis_site (optional: an isle's metropolis space beside its
        sites, R8), adj (ids; made symmetric)."""
        norm = []
        for a in areas:
            kind = a.get("kind", "land")
            if kind not in ("land", "sea"):
                raise ValueError(f"area {a.get('id')}: kind must be land or sea")
            d = {"id": str(a["id"]), "name": a.get("name") or str(a["id"]), "kind": kind,
                 "sites": int(a.get("sites", 0)) if kind == "land" else 0,
                 "cornucopias": int(a.get("cornucopias", 0)),
                 "priestess": bool(a.get("priestess", False)) and kind == "land",
                 "adj": sorted(str(x) for x in a.get("adj", ()))}
            if a.get("volcano"):
                d["volcano"] = True
            if a.get("metropolis_site") and kind == "land":
                d["metropolis_site"] = True
            norm.append(d)
        index = {a["id"]: i for i, a in enumerate(norm)}
        adjacency: list[Any] = [set() for _ in norm]
        for i, a in enumerate(norm):
            for other in a["adj"]:
                if other not in index:
                    raise ValueError(f"area {a['id']}: unknown neighbour {other!r}")
                j = index[other]
                if j != i:
                    adjacency[i].add(j)
                    adjacency[j].add(i)
        return cls(norm, adjacency, spec={"kind": "map", "areas": norm})

    @classmethod
    def from_spec(cls, spec: dict[str, Any]) -> Board:
        """The board a spec describes (`board.spec`: tiles, a map or the classic board)."""
        needs = {"tiles": "placements", "map": "areas", "classic": "players"}
        if not isinstance(spec, dict):
            raise ValueError(f"a board spec is a dict with a kind ({', '.join(needs)}), not {spec!r:.80}")
        kind = spec.get("kind")
        if kind not in needs:
            raise ValueError(f"unknown board spec kind {kind!r}; known: {', '.join(needs)}")
        if needs[kind] not in spec:
            raise ValueError(f"a board spec of kind {kind!r} needs {needs[kind]!r}")
        if kind == "tiles":
            return cls.from_tiles([(n, f, tuple(c), r) for n, f, c, r in spec["placements"]])
        if kind == "map":
            return cls.from_map(spec["areas"])
        return cls.classic(spec["players"])

    @classmethod
    def random(cls, n_tiles: int, rng: Rng, face: str | None = None, players: int | None = None,
               max_tries: int = 1000) -> Board:
        """R6: a random board of n_tiles distinct tiles, one face for all (R5),
        random slots and rotations, redrawn (same rng) until valid for
        ``players`` (default: the largest player count that uses n_tiles)."""
        if not 1 <= n_tiles <= TILE_COUNT:
            raise ValueError(f"n_tiles must be 1..{TILE_COUNT}")
        if players is None:
            players = {6: 3, 8: 4, 10: 6}.get(n_tiles, max(2, min(6, n_tiles // 2)))
        slots = slots_for(n_tiles)
        problems = []
        for _ in range(max_tries):
            f = face if face is not None else rng.choice(FACES)
            pool = list(range(1, TILE_COUNT + 1))
            rng.shuffle(pool)
            chosen = pool[:n_tiles]
            board = cls.from_tiles([(t, f, slot, rng.randrange(6))
                                    for t, slot in zip(chosen, slots)])
            problems = validate(board, players)
            if not problems:
                return board
        raise RuntimeError(f"no valid {n_tiles}-tile board in {max_tries} tries: {problems}")

    @classmethod
    def recommended(cls, players: int, face: str = "A") -> Board:
        """The rulebook's recommended tiles for a player count (R6), in slot
        order, rotation 0."""
        if players not in RECOMMENDED:
            raise ValueError(f"Cyclades takes 2 to 6 players, not {players}")
        tiles = RECOMMENDED[players]
        return cls.from_tiles([(t, face, slot, 0)
                               for t, slot in zip(tiles, slots_for(len(tiles)))])

    @classmethod
    def for_players(cls, players: int, rng: Rng, kind: str = "random", face: Any = None) -> Board:
        """The board of a new game (R6). face None: random for a random board,
        "A" for the recommended one."""
        if kind == "random":
            return cls.random(tiles_for_players(players), rng, face=face, players=players)
        if kind == "recommended":
            return cls.recommended(players, face or "A")
        if kind == "classic":
            return cls.classic(players)
        raise ValueError(f"unknown board kind {kind!r}")

    # ---- queries ------------------------------------------------------

    def area(self, area_id: str) -> int:
        return self.index[area_id]

    def sites_of(self, area: int) -> range:
        """Flat site indexes of an area."""
        k = self.site_start[area]
        return range(k, k + self.sites[area])

    def building_sites(self, area: int) -> range:
        """Flat site indexes where basic buildings may stand: all but a metropolis space (R8)."""
        k = self.site_start[area]
        return range(k, k + self.sites[area] - (self.metro_site[area] >= 0))

# ---- validation (R6) ---------------------------------------------------

SPARE_LANDS = 3  # land areas beyond the 3 starting areas of every faction
# An archipelago, not a continent: land cells of neighbouring tiles that touch
# join their islands, so a random board can grow one big land mass; such
# boards are redrawn. Recommended boards stay well below this.
MAX_ISLAND_LANDS = 6


def factions(players: int) -> int:
    """Factions on the board: with 2 players each runs two (R22)."""
    return 4 if players == 2 else players


def max_matching(left: Sequence[int], options: Mapping[int, Sequence[int]]) -> int:
    """Size of a maximum bipartite matching of `left` with their `options` (augmenting paths;
    tiny graphs). A vertex of `left` once matched stays matched, so the first one, if it has an
    option, is matched in the matching counted."""
    match: dict[int, int] = {}

    def augment(u: int, seen: set[int]) -> bool:
        for v in options[u]:
            if v in seen:
                continue
            seen.add(v)
            if v not in match or augment(match[v], seen):
                match[v] = u
                return True
        return False

    return sum(1 for u in left if augment(u, set()))


def validate(board: Board, players: int) -> list[str]:
    """Problems that make a board unfit for ``players`` (R6); [] if valid.

    Checks: no overlapping tile cells; the board is connected; every island
    has a sea neighbour and at most MAX_ISLAND_LANDS land areas; the seas form
    one network (fleets can reach every sea); enough starting land: a starting area needs an adjacent sea for its
    fleet (setup), each faction takes 3 (2 on different islands in the first
    round) plus SPARE_LANDS in all; distinct seas for all starting fleets; and
    for team play (2, 4, 6 players, R22) teammates on different islands in the
    first round, i.e. each team needs 4 distinct islands.
    """
    problems = []
    if board.overlaps:
        problems.append(f"overlapping cells: {sorted(set(board.overlaps))[:5]}")
    if not board.ids:
        return [*problems, "empty board"]
    return problems + _shape_problems(board) + _start_problems(board, players)


def _connected(nodes: Iterable[int], nbrs: Sequence[Sequence[int]]) -> bool:
    todo = list(nodes)
    if not todo:
        return True
    seen, stack = {todo[0]}, [todo[0]]
    while stack:
        for y in nbrs[stack.pop()]:
            if y not in seen:
                seen.add(y)
                stack.append(y)
    return len(seen) == len(todo)


def _shape_problems(board: Board) -> list[str]:
    """The board in one piece, its seas one network, every island coastal and not too big."""
    problems = []
    if not _connected(range(len(board.ids)), board.adj):
        problems.append("board is not connected")
    if not _connected(board.seas, board.sea_adj):
        problems.append("sea areas are not one connected network")
    for k, isl in enumerate(board.islands):
        if not any(board.coast[i] for i in isl):
            problems.append(f"island {k} ({board.ids[isl[0]]}) has no adjacent sea")
        if len(isl) > MAX_ISLAND_LANDS:
            problems.append(f"island {k} ({board.ids[isl[0]]}) has {len(isl)} land areas, "
                            f"more than {MAX_ISLAND_LANDS}")
    return problems


def _start_problems(board: Board, players: int) -> list[str]:
    """Room for every faction's starting areas, on enough islands, each with a sea for its fleet."""
    problems = []
    f = factions(players)
    starts = [i for i in board.lands if board.coast[i]]
    need = 3 * f + SPARE_LANDS
    if len(starts) < need:
        problems.append(f"{len(starts)} coastal land areas, need {need} for {players} players")
    # Capacity of each island for starting areas.
    cap = [c for c in (sum(1 for i in isl if board.coast[i]) for isl in board.islands) if c]
    if len(cap) < 2:
        problems.append("fewer than 2 islands with a coast")

    # First round: every faction picks 2 areas on 2 different islands. Such a
    # choice exists iff sum(min(cap, k)) >= 2k for k = 1..f (Gale-Ryser).
    def fits(demand: int, groups: int) -> bool:
        return all(sum(min(c, k) for c in cap) >= demand * k for k in range(1, groups + 1))

    if not fits(2, f):
        problems.append(f"islands cannot host {f} factions on 2 islands each")
    if players in (2, 4, 6) and not fits(4, f // 2):
        problems.append(f"islands cannot keep teammates apart ({f // 2} teams need 4 islands each)")
    # Every starting area gets a fleet on its own empty adjacent sea.
    if max_matching(starts, {i: board.coast[i] for i in starts}) < 3 * f:
        problems.append(f"not enough distinct seas for {3 * f} starting fleets")
    return problems
