"""Generate ``classic_board.json``: the project's own map of the 2009 classic board (R8).

The printed board is not in the rulebooks, so this is an ORIGINAL layout, faithful in spirit:
13 isles, each one land area with building spaces and one metropolis space, prosperity
printed on the isles and on the central seas, and the sea spaces between them. A ring of ten
isles surrounds a central sea holding three more; straits join the ring's neighbours on the
outside and gulfs open toward the centre. ``classic_board.json`` is the source of truth the
engine loads (``Board.classic``); this script is kept so the data can be regenerated or edited
by changing the tables below, then running::

    PYTHONPATH=src python3 src/cyclades/content/make_classic_board.py

Geometry (R7): the board is a hexagon of radius 6 on the axial hex grid of the tile boards
(pointy-top cells, ``board.HEX_DIRS``); every area lists its cells and the engine derives the
adjacency from shared cell edges, so what is drawn is what the rules use.

- Ring 5 (30 cells) holds the ten outer isles, one cell every third cell, clockwise from the
  top; the two cells between isles k and k+1 are strait k, which also takes the rim cells
  (ring 6) lying between the two isles' bearings.
- Rings 3 and 4 are the gulfs: each cell joins the gulf of the outer isle nearest in bearing.
- Ring 2 holds the three inner isles (every fourth cell from the top); its other cells form
  the three channels between them; the centre and ring 1 are the Delian Sea.

The part of the board in use depends on the player count (``players``: the smallest count that
uses the area), and so do the starting positions: each player starts with a Troop on each of
two neighbouring isles and a Fleet in the strait between them and in the gulf of the first
(two Troops and two Fleets, 2 GP of revenue: the classic start). With 4 and 5 players the
whole board is used; with 3 players the sector of Serifos and Kea is left out, with 2 players
everything from Ios to Kea.

JSON format::

    {"comment": "...",
     "areas": [AREA, ...],                     # isles first
     "starts": {"2": [START, START], "3": [...], "4": [...], "5": [...]}}
    isle AREA = {"id", "name", "kind": "land", "cells": [[q, r]], "sites": building spaces,
                 "metropolis_site": true, "cornucopias": printed prosperity, "players": 2..5}
    sea AREA  = {"id", "name", "kind": "sea", "cells": [[q, r], ...], "cornucopias", "players"}
    START     = {"troops": {isle id: n}, "fleets": {sea id: n}}   # player i takes START i
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

DIRS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
SQ3 = math.sqrt(3)

# The ring, clockwise from the top: (name, building spaces, printed prosperity, players).
OUTER = [("Andros", 3, 1, 2), ("Tinos", 2, 1, 2), ("Mykonos", 3, 1, 2), ("Amorgos", 2, 1, 2),
         ("Anafi", 3, 1, 2), ("Thera", 2, 1, 2), ("Ios", 3, 1, 3), ("Milos", 2, 1, 3),
         ("Serifos", 3, 1, 4), ("Kea", 2, 1, 4)]
# The centre, clockwise from the top: the three inner isles, rich in building spaces.
INNER = [("Syros", 4, 1), ("Naxos", 4, 1), ("Paros", 4, 1)]
# Strait k lies between outer isles k and k+1.
STRAITS = ["Steno Strait", "Mykonos Sound", "Icarian Sea", "Amorgos Deep", "Cretan Sea",
           "Thera Channel", "Myrtoan Sea", "Milos Sound", "Serifos Passage", "Kafireas Strait"]
# Channel j lies between inner isles j and j+1.
CHANNELS = ["Naxos Channel", "Paros Strait", "Syros Channel"]
CENTRE = ("Delian Sea", 2)
CHANNEL_PROSPERITY = 1

# Starting positions by player count: pairs of outer isles (indices into OUTER).
STARTS = {2: [(0, 1), (4, 5)],
          3: [(0, 1), (3, 4), (6, 7)],
          4: [(0, 1), (2, 3), (5, 6), (7, 8)],
          5: [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)]}


def slug(name: str) -> str:
    return name.lower().replace(" ", "-")


def ring(k: int) -> list[tuple[int, int]]:
    if k == 0:
        return [(0, 0)]
    out = []
    q, r = DIRS[4][0] * k, DIRS[4][1] * k
    for d in range(6):
        for _ in range(k):
            out.append((q, r))
            q, r = q + DIRS[d][0], r + DIRS[d][1]
    return out


def bearing(cell: tuple[int, int]) -> float:
    """Degrees clockwise from the top of the screen (y grows downwards)."""
    q, r = cell
    x, y = SQ3 * (q + r / 2), 1.5 * r
    return (math.degrees(math.atan2(y, x)) + 90) % 360


def clockwise(cells: list[tuple[int, int]], start: float = 0.0) -> list[tuple[int, int]]:
    return sorted(cells, key=lambda c: (bearing(c) - start) % 360)


def _gap(a: float, b: float) -> float:
    d = abs(a - b) % 360
    return float(min(d, 360 - d))


def layout() -> dict[tuple[int, int], tuple[Any, ...]]:
    """Cell -> area key: ("O", k) outer isle, ("I", j) inner isle, ("S", k) strait,
    ("G", k) gulf, ("C", j) channel, ("D",) the Delian Sea."""
    area: dict[tuple[int, int], tuple[Any, ...]] = {}
    rim5 = clockwise(ring(5), start=-10)
    for k in range(10):
        area[rim5[3 * k]] = ("O", k)
        area[rim5[3 * k + 1]] = area[rim5[3 * k + 2]] = ("S", k)
    isle = [bearing(rim5[3 * k]) for k in range(10)]
    for c in ring(6):
        b = bearing(c)
        k = next(k for k in range(10) if (b - isle[k]) % 360 < (isle[(k + 1) % 10] - isle[k]) % 360)
        area[c] = ("S", k)
    rim2 = clockwise(ring(2))
    inner = (0, 4, 8)
    for j, i in enumerate(inner):
        area[rim2[i]] = ("I", j)
    for i, c in enumerate(rim2):
        if c not in area:
            area[c] = ("C", sum(1 for x in inner if x < i) - 1)
    for c in ring(1) + ring(0):
        area[c] = ("D",)
    for c in ring(3) + ring(4):
        area[c] = ("G", min(range(10), key=lambda k: _gap(bearing(c), isle[k])))
    return area


def _players_of(key: tuple[Any, ...]) -> int:
    """The smallest player count whose board holds the area: a sea is in play as soon as an
    isle it touches is, or, for gulfs and straits between two cut isles, with them."""
    kind = key[0]
    if kind == "O":
        return int(OUTER[key[1]][3])
    if kind == "G":
        return int(OUTER[key[1]][3])
    if kind == "S":
        k = key[1]
        return int(min(OUTER[k][3], OUTER[(k + 1) % 10][3]))
    return 2


def main() -> dict[str, Any]:
    cells = layout()
    by_area: dict[tuple[Any, ...], list[list[int]]] = {}
    for c, key in cells.items():
        by_area.setdefault(key, []).append(list(c))
    areas = []

    def add(key: tuple[Any, ...], name: str, kind: str, **extra: Any) -> None:
        areas.append({"id": slug(name), "name": name, "kind": kind,
                      "cells": sorted(by_area[key]), **extra, "players": _players_of(key)})

    for k, (name, sites, corn, _) in enumerate(OUTER):
        add(("O", k), name, "land", sites=sites, metropolis_site=True, cornucopias=corn)
    for j, (name, sites, corn) in enumerate(INNER):
        add(("I", j), name, "land", sites=sites, metropolis_site=True, cornucopias=corn)
    add(("D",), CENTRE[0], "sea", cornucopias=CENTRE[1])
    for j, name in enumerate(CHANNELS):
        add(("C", j), name, "sea", cornucopias=CHANNEL_PROSPERITY)
    for k, name in enumerate(STRAITS):
        add(("S", k), name, "sea", cornucopias=0)
    for k, (isle, *_rest) in enumerate(OUTER):
        add(("G", k), f"Gulf of {isle}", "sea", cornucopias=0)
    starts = {}
    for players, pairs in STARTS.items():
        starts[str(players)] = [
            {"troops": {slug(OUTER[a][0]): 1, slug(OUTER[b][0]): 1},
             "fleets": {slug(STRAITS[a]): 1, slug(f"Gulf of {OUTER[a][0]}"): 1}}
            for a, b in pairs]
    ids = [a["id"] for a in areas]
    assert len(ids) == len(set(ids)), "duplicate area ids"
    return {"comment": "Original map of the classic board for this project (R8); generated by "
                       "make_classic_board.py. Cells are axial hex (q, r); an area is in play "
                       "from `players` players up; START i is player i's starting position.",
            "areas": areas, "starts": starts}


def write(path: Path | None = None) -> Path:
    path = path or Path(__file__).with_name("classic_board.json")
    data = main()
    # One area per line: diffs stay readable when the design is edited by hand.
    lines = ['{"comment": ' + json.dumps(data["comment"]) + ',', ' "areas": [']
    for i, area in enumerate(data["areas"]):
        lines.append("  " + json.dumps(area) + ("," if i < len(data["areas"]) - 1 else ""))
    lines.append(' ],')
    lines.append(' "starts": {')
    keys = list(data["starts"])
    for i, k in enumerate(keys):
        lines.append(f'  "{k}": ' + json.dumps(data["starts"][k]) + ("," if i < len(keys) - 1 else ""))
    lines.append(' }}')
    path.write_text("\n".join(lines) + "\n")
    json.loads(path.read_text())  # the file must stay valid JSON
    return path


if __name__ == "__main__":
    print(write())
