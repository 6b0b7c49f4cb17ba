"""The board as the browser draws it: pixel coordinates of every area, island, link and tile.

The engine's board (engine/board.py) knows areas and their adjacency; how they are drawn belongs
with the interfaces: `geometry(board)` is what `GET /api/games/{id}/board` sends the browser
(docs/api.md), made once per board. Tile boards live on a hex grid (R7): two areas are adjacent
iff their polygons share an edge, except the listed links (the volcano link of R5). A map board
has no cells: each area is a small hexagon on a circle and all adjacencies are links.
"""
from __future__ import annotations

import math
from typing import Any

from ..engine.board import FLOWER, Board

HEX_SIZE = 40.0  # pixels from a cell's centre to a corner (pointy-top)
MARGIN = 20.0

Point = tuple[float, float]


def geometry(board: Board) -> dict[str, Any]:
    """Drawing data, pixel coordinates, pointy-top hexes of HEX_SIZE px.

    {"width", "height", "viewBox": "0 0 w h", "hex_size",
     "areas": [{"id", "name", "kind", "tile", "cells": [[q, r]...],
                "polygons": [one hexagon per cell], "outline": boundary of
                the area (one closed ring), "centre": [x, y] for pieces,
                "label": [x, y], "sites": [[x, y]...], "metropolis_site"
                (index into sites of an isle's metropolis space, R8, or
                None), "cornucopias", "priestess", "volcano", "island"}],
     "islands": [{"areas": [ids], "outlines": [closed rings]}],
     "links": [{"a": id, "b": id, "kind": "volcano"|"map", "points": [[x,y],[x,y]]}],
     "tiles": [{"number", "face", "outline": ring}]}
    """
    out: dict[str, Any] | None = board.memo.get("geometry")
    if out is None:
        out = board.memo["geometry"] = _tile_geometry(board) if board.cells is not None else _map_geometry(board)
    return out


_SQ3 = math.sqrt(3)


def _cell_centre(q: float, r: float, s: float = HEX_SIZE) -> Point:
    return (s * _SQ3 * (q + r / 2), s * 1.5 * r)


def _corner_points(x: float, y: float, s: float = HEX_SIZE) -> list[Point]:
    """The six corners of a pointy-top hexagon, clockwise on screen from the
    upper-right corner."""
    return [(x + s * math.cos(math.radians(60 * k - 30)),
             y + s * math.sin(math.radians(60 * k - 30))) for k in range(6)]


def _key(p: Any) -> Point:
    return (round(p[0], 3), round(p[1], 3))


def _outlines(polygons: list[Any]) -> list[list[list[float]]]:
    """Boundary rings of a union of hexagons: edges shared by two of them
    cancel, the rest are chained into closed rings."""
    count: dict[frozenset[Point], int] = {}
    directed = []
    for poly in polygons:
        pts = [_key(p) for p in poly]
        for k in range(len(pts)):
            a, b = pts[k], pts[(k + 1) % len(pts)]
            e = frozenset((a, b))
            count[e] = count.get(e, 0) + 1
            directed.append((a, b))
    nxt: dict[Point, Point] = {}
    for a, b in directed:
        if count[frozenset((a, b))] == 1:
            nxt[a] = b
    rings = []
    while nxt:
        start, cur = next(iter(nxt.items()))
        ring = [start]
        del nxt[start]
        while cur != start:
            ring.append(cur)
            cur = nxt.pop(cur)
        rings.append([list(p) for p in ring])
    return rings


def _site_points(x: float, y: float, n: int, s: float = HEX_SIZE) -> list[list[float]]:
    """n site squares in a row below a point."""
    step = 0.28 * s
    return [[round(x + (k - (n - 1) / 2) * step, 2), round(y + 0.42 * s, 2)] for k in range(n)]


def _rnd(p: Point) -> list[float]:
    return [round(p[0], 2), round(p[1], 2)]


def _metro_index(board: Board, a: int) -> int | None:
    """Which of the area's sites is its metropolis space (R8), or None."""
    m = board.metro_site[a]
    return m - board.site_start[a] if m >= 0 else None


def _tile_geometry(board: Board) -> dict[str, Any]:
    raw = [[_cell_centre(q, r) for q, r in cells] for cells in board.cells]
    xs = [x for cs in raw for x, _ in cs] or [0.0]
    ys = [y for cs in raw for _, y in cs] or [0.0]
    ox = -min(xs) + HEX_SIZE * _SQ3 / 2 + MARGIN
    oy = -min(ys) + HEX_SIZE + MARGIN
    width = max(xs) - min(xs) + HEX_SIZE * _SQ3 + 2 * MARGIN
    height = max(ys) - min(ys) + 2 * HEX_SIZE + 2 * MARGIN

    areas: list[dict[str, Any]] = []
    polys_of = []
    for i, cells in enumerate(board.cells):
        centres = [(x + ox, y + oy) for x, y in raw[i]]
        polys = [[_rnd(p) for p in _corner_points(x, y)] for x, y in centres]
        polys_of.append(polys)
        outline = _outlines(polys)
        cx = sum(x for x, _ in centres) / len(centres)
        cy = sum(y for _, y in centres) / len(centres)
        # Pieces go to the middle of the area (for two cells: on their shared
        # border, still inside). The label sits at the top of the upper cell,
        # clear of that middle; the sites of a two-cell area in the other cell.
        top = min(centres, key=lambda c: (round(c[1], 3), c[0]))
        lx, ly = top
        if len(centres) == 2:
            sx, sy = centres[1] if top == centres[0] else centres[0]
            site_pts = _site_points(sx, sy - 0.2 * HEX_SIZE, board.sites[i])
        else:
            site_pts = _site_points(lx, ly, board.sites[i])
        areas.append({
            "id": board.ids[i], "name": board.names[i],
            "kind": "land" if board.is_land[i] else "sea",
            "tile": board.tile[i],
            "cells": [list(c) for c in cells],
            "polygons": polys,
            "outline": outline[0] if outline else [],
            "centre": _rnd((cx, cy)),
            "label": _rnd((lx, ly - 0.45 * HEX_SIZE)),
            "sites": site_pts,
            "metropolis_site": _metro_index(board, i),
            "cornucopias": board.cornucopias[i],
            "priestess": board.priestess[i],
            "volcano": board.volcano[i],
            "island": board.island[i],
        })
    islands = [{"areas": [board.ids[i] for i in isl],
                "outlines": _outlines([p for i in isl for p in polys_of[i]])}
               for isl in board.islands]
    links = [{"a": board.ids[a], "b": board.ids[b], "kind": kind,
              "points": [areas[a]["centre"], areas[b]["centre"]]}
             for a, b, kind in board.links]
    tiles: list[dict[str, Any]] = []
    for number, face, (cq, cr), _rot in board.spec.get("placements", ()):  # none: classic
        x, y = _cell_centre(cq, cr)
        flower = [_corner_points(px + x + ox, py + y + oy)
                  for px, py in (_cell_centre(q, r) for q, r in FLOWER)]
        ring = _outlines([[_rnd(p) for p in poly] for poly in flower])
        tiles.append({"number": number, "face": face, "centre": _rnd((x + ox, y + oy)),
                      "outline": ring[0]})
    return {"width": round(width, 2), "height": round(height, 2),
            "viewBox": f"0 0 {round(width, 2)} {round(height, 2)}",
            "hex_size": HEX_SIZE, "areas": areas, "islands": islands,
            "links": links, "tiles": tiles}


def _map_geometry(board: Board) -> dict[str, Any]:
    """Map boards have no cells: areas sit on a circle (lands outside, seas
    inside) and every adjacency is drawn as a link."""
    n = len(board.ids)
    s = HEX_SIZE * 0.8
    radius = max(2.5 * HEX_SIZE, n * HEX_SIZE * 2.2 / (2 * math.pi))
    c = radius + HEX_SIZE + MARGIN
    areas: list[dict[str, Any]] = []
    for i in range(n):
        ang = 2 * math.pi * i / max(n, 1) - math.pi / 2
        rad = radius if board.is_land[i] else radius * 0.62
        x, y = c + rad * math.cos(ang), c + rad * math.sin(ang)
        poly = [[round(px, 2), round(py, 2)] for px, py in _corner_points(x, y, s)]
        areas.append({
            "id": board.ids[i], "name": board.names[i],
            "kind": "land" if board.is_land[i] else "sea", "tile": 0, "cells": [],
            "polygons": [poly], "outline": poly, "centre": [round(x, 2), round(y, 2)],
            "label": [round(x, 2), round(y - 0.45 * s, 2)],
            "sites": _site_points(x, y, board.sites[i], s),
            "metropolis_site": _metro_index(board, i),
            "cornucopias": board.cornucopias[i], "priestess": board.priestess[i],
            "volcano": board.volcano[i], "island": board.island[i],
        })
    links = [{"a": board.ids[i], "b": board.ids[j], "kind": "map",
              "points": [areas[i]["centre"], areas[j]["centre"]]}
             for i in range(n) for j in board.adj[i] if i < j]
    islands = [{"areas": [board.ids[i] for i in isl], "outlines": []} for isl in board.islands]
    size = round(2 * c, 2)
    return {"width": size, "height": size, "viewBox": f"0 0 {size} {size}",
            "hex_size": s, "areas": areas, "islands": islands, "links": links, "tiles": []}
