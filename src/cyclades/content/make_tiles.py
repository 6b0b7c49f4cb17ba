"""Generate ``tiles.json``: the project's own 12 double-sided archipelago tiles (R5).

The printed tile shapes are not in the rulebooks, so these are ORIGINAL designs.
``tiles.json`` is the source of truth the engine loads; this script is kept so the
data can be regenerated or edited by changing the tables below, then running::

    PYTHONPATH=src python3 src/cyclades/content/make_tiles.py

Geometry. Every face is a "flower" of 7 hex cells in axial coordinates (q, r):
the centre (0, 0) and its six neighbours, listed in ring order (each ring cell
touches the next one and the centre)::

    ring 0 = ( 1, 0) east          ring 3 = (-1, 0) west
    ring 1 = ( 1,-1) north-east    ring 4 = (-1, 1) south-west
    ring 2 = ( 0,-1) north-west    ring 5 = ( 0, 1) south-east

(pointy-top hexes, y grows downwards). A face is written as a 7-letter layout
string over [centre, ring 0..5]: an UPPERCASE letter is a land area, a lowercase
letter a sea area, and cells with the same letter form one area (at most 2
adjacent cells). Example ``"aBccDee"``: a sea at the centre, a one-cell island
east, a two-cell sea north, an island west and a two-cell sea south-west.

Most layouts keep the centre at sea so that the face carries land on two or
three separate islands; a few put land at the centre, making one bigger island.

JSON format (``tiles.json``)::

    {"comment": "...",
     "tiles": [{"number": 1..12,
                "faces": {"A": FACE, "B": FACE}}]}      # A = front, B = back
    FACE = {"layout": "aBccDee",                        # informative only
            "areas": [AREA, ...]}                        # land areas first
    land AREA = {"id": "naxos", "name": "Naxos", "kind": "land",
                 "cells": [[q, r], ...],                 # 1 or 2 adjacent cells
                 "sites": 1..4, "cornucopias": 0..2,
                 "priestess": bool, "volcano": bool}     # volcano: tiles 2, 11
    sea AREA  = {"id": "gulf-of-eos", "name": "Gulf of Eos", "kind": "sea",
                 "cells": [[q, r], ...], "cornucopias": 0..1}

The cells of a face are exactly the 7 cells of the flower; every area id is
unique over all 24 faces. Adjacency is not stored: the engine derives it from
the cells once the tiles are placed (R7).

Numbers (construction sites, cornucopias, priestess icons) and names are drawn
with a fixed seed under the hand constraints of R5 (see ``_numbers``), so the
output is deterministic.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

RING = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
CELLS = ((0, 0),) + RING  # index 0 = centre, 1..6 = ring 0..5

# Layout families. Comments: land areas / islands inside the face / sea areas.
FAMILIES = {
    "pair": "aBccDee",    # 2 one-cell isles opposite            2 / 2 / 3
    "pair4": "aBcdDee",   # 2 one-cell isles opposite            2 / 2 / 4
    "peni": "ABcdeff",    # centre land and a cape: one isle     2 / 1 / 4
    "peni3": "ABCddef",   # centre land and two capes: one isle  3 / 1 / 3
    "big": "AABcdef",     # a 2-cell area and a cape: one isle   2 / 1 / 4
    "duo": "aBCdEfg",     # 2 areas on one isle + one-cell isle  3 / 2 / 4
    "tri": "aBaDeFg",     # three one-cell isles                 3 / 3 / 3
}

# (tile, face) -> (family, ring rotation, volcano letter or None). The ring
# rotation turns the layout by 60 degrees steps so that tiles placed with
# rotation 0 (the recommended boards) do not all look alike. Tiles 2 and 11
# carry a volcano on both faces (R5).
FACES = {
    (1, "A"): ("pair", 0, None),
    (1, "B"): ("peni3", 1, None),
    (2, "A"): ("tri", 0, "D"),
    (2, "B"): ("peni", 2, "A"),
    (3, "A"): ("duo", 2, None),
    (3, "B"): ("pair4", 3, None),
    (4, "A"): ("peni", 4, None),
    (4, "B"): ("duo", 2, None),
    (5, "A"): ("pair4", 3, None),
    (5, "B"): ("peni3", 1, None),
    (6, "A"): ("big", 5, None),
    (6, "B"): ("pair", 1, None),
    (7, "A"): ("duo", 3, None),
    (7, "B"): ("peni", 0, None),
    (8, "A"): ("duo", 2, None),
    (8, "B"): ("pair4", 3, None),
    (9, "A"): ("pair", 0, None),
    (9, "B"): ("duo", 0, None),
    (10, "A"): ("peni", 3, None),
    (10, "B"): ("tri", 0, None),
    (11, "A"): ("pair4", 4, "D"),
    (11, "B"): ("peni3", 1, "A"),
    (12, "A"): ("pair4", 0, None),
    (12, "B"): ("pair", 5, None),
}

VOLCANO_NAMES = ["Nea Kameni", "Methana", "Palea Kameni", "Nisyros"]

LAND_NAMES = [
    "Naxos", "Paros", "Delos", "Mykonos", "Tinos", "Andros", "Syros", "Kea",
    "Kythnos", "Serifos", "Sifnos", "Milos", "Kimolos", "Folegandros", "Sikinos",
    "Ios", "Amorgos", "Anafi", "Thera", "Astypalaia", "Donousa", "Iraklia",
    "Schinoussa", "Koufonisi", "Antiparos", "Gyaros", "Rhenia", "Despotiko",
    "Polyaigos", "Thirasia", "Lemnos", "Lesbos", "Chios", "Samos", "Ikaria",
    "Patmos", "Leros", "Kalymnos", "Kos", "Tilos", "Symi", "Rhodes", "Karpathos",
    "Kasos", "Kythira", "Aegina", "Salamis", "Poros", "Spetses", "Euboea",
    "Skyros", "Skiathos", "Skopelos", "Alonissos", "Thasos", "Samothrace",
    "Imbros", "Tenedos", "Ithaca", "Kefalonia", "Zakynthos", "Lefkada", "Corfu",
    "Paxos", "Psara", "Fournoi", "Lipsi", "Agathonisi", "Kastellorizo", "Gavdos",
    "Antikythera", "Makronisos", "Elafonisos", "Ereikoussa", "Othonoi", "Halki",
]

# Sea names avoid the names of gods, heroes, creatures and factions, so that an
# area id is never mistaken for a card.
SEA_NAMES = [
    "Myrtoan Sea", "Icarian Sea", "Sea of Thetis", "Gulf of Amphitrite",
    "Proteus Strait", "Nereus Channel", "Gulf of Glaucus", "Galatea Sound",
    "Bay of Doris", "Sea of Tethys", "Pontus Deep", "Aegeus Strait",
    "Helle Narrows", "Halcyon Bay", "Gulf of Palaemon", "Leucothea Channel",
    "Phorcys Deep", "Sea of Ceto", "Eurybia Sound", "Thaumas Strait",
    "Gulf of Electra", "Iris Passage", "Arion Bay", "Zephyr Channel",
    "Boreas Strait", "Notus Sound", "Eurus Passage", "Gulf of Aeolus",
    "Sea of Minos", "Ariadne Strait", "Theseus Channel", "Orion Deep",
    "Pleiades Sound", "Castor Strait", "Pollux Passage", "Sea of Selene",
    "Helios Bay", "Gulf of Eos", "Hesperus Channel", "Calypso Sound",
    "Circe Strait", "Gulf of Dione", "Europa Channel", "Sea of Io", "Danae Bay",
    "Cadmus Strait", "Daedalus Channel", "Gulf of Phaedra", "Nausicaa Bay",
    "Alcyone Sound", "Psamathe Strait", "Sea of Thalassa", "Pelagia Passage",
    "Melite Bay", "Eudora Channel", "Kymo Sound", "Galene Bay", "Halia Strait",
    "Actaea Channel", "Gulf of Panope", "Amphinome Sound", "Klymene Strait",
    "Oreithyia Channel", "Gulf of Maera", "Saronic Gulf", "Argolic Gulf",
    "Thermaic Gulf", "Pagasetic Gulf", "Malian Gulf", "Laconian Gulf",
    "Messenian Gulf", "Corinthian Gulf", "Carpathian Sea", "Cretan Sea",
    "Thracian Sea", "Euboean Gulf", "Kafireas Strait", "Euripus Strait",
    "Wine-Dark Sea", "Sea of Kronos", "Rhea Sound", "Hyperion Strait",
    "Phoebe Bay", "Themis Channel", "Mnemosyne Deep", "Coeus Passage",
    "Crius Strait", "Iapetus Deep", "Atlas Channel", "Prometheus Strait",
    "Gulf of Pelops", "Argo Passage", "Orpheus Sound", "Gulf of Hermione",
    "Andromeda Bay", "Cassiopeia Channel", "Sea of Psyche", "Hebe Strait",
]

SEED = 20240611


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")


def rotate_layout(layout: str, rot: int) -> str:
    """Turn a layout by rot ring steps: the letter of ring i moves to ring i+rot."""
    ring = layout[1:]
    rot %= 6
    return layout[0] + (ring[-rot:] + ring[:-rot] if rot else ring)


def _areas_of(layout: str) -> list[tuple[str, list[int]]]:
    """(letter, cell indexes) in order of first appearance."""
    order: dict[str, list[int]] = {}
    for i, ch in enumerate(layout):
        order.setdefault(ch, []).append(i)
    return list(order.items())


def _adjacent(i: int, j: int) -> bool:
    (q1, r1), (q2, r2) = CELLS[i], CELLS[j]
    return (q2 - q1, r2 - r1) in RING


def _numbers(rng: random.Random, areas: list[tuple[str, list[int]]], volcano: str | None) -> list[tuple[int, int]]:
    """Sites, cornucopias and priestess flags of one face, under hand constraints.

    - land: 1-4 sites (a two-cell area has 2-4), 0-2 cornucopias; a volcano is
      a poor place to live: 1-2 sites but 1-2 cornucopias (fertile soil);
    - sea: 0-1 cornucopia, about one sea in three;
    - per face: 2 or 3 cornucopias in all, so faces are worth about the same.
    Priestess icons are spread over the whole set afterwards (``main``).
    """
    while True:
        out = []
        for letter, cells in areas:
            if letter.isupper():
                if letter == volcano:
                    sites = rng.choice([1, 2])
                    corn = rng.choice([1, 1, 2])
                elif len(cells) == 2:
                    sites = rng.choice([2, 3, 3, 4])
                    corn = rng.choice([0, 1, 1, 2])
                else:
                    sites = rng.choice([1, 2, 2, 3, 3, 4])
                    corn = rng.choice([0, 0, 1, 1, 2])
                out.append((sites, corn))
            else:
                out.append((0, 1 if rng.random() < 0.34 else 0))
        total = sum(c for _, c in out)
        land_sites = sum(s for s, _ in out)
        if 2 <= total <= 3 and 4 <= land_sites <= 8:
            return out


def check_layout(layout: str) -> None:
    for letter, cells in _areas_of(layout):
        assert len(cells) <= 2, (layout, letter)
        if len(cells) == 2:
            assert _adjacent(*cells), (layout, letter)
        if letter.isupper():
            # Every land area touches a sea cell of its own face (R5: coastal
            # even at the edge of the board).
            assert any(
                layout[j].islower() for i in cells for j in range(7) if _adjacent(i, j)
            ), (layout, letter)


def main() -> dict[str, Any]:
    rng = random.Random(SEED)
    land_names = list(LAND_NAMES)
    sea_names = list(SEA_NAMES)
    rng.shuffle(land_names)
    rng.shuffle(sea_names)
    volcano_names = iter(VOLCANO_NAMES)
    land_iter, sea_iter = iter(land_names), iter(sea_names)

    tiles: list[dict[str, Any]] = []
    land_refs = []  # every non-volcano land area dict, for the priestess pass
    for number in range(1, 13):
        faces: dict[str, Any] = {}
        for face in "AB":
            family, rot, volcano = FACES[(number, face)]
            layout = rotate_layout(FAMILIES[family], rot)
            check_layout(layout)
            areas = _areas_of(layout)
            numbers = _numbers(rng, areas, volcano)
            out = []
            for (letter, cells), (sites, corn) in zip(areas, numbers):
                land = letter.isupper()
                name = (next(volcano_names) if letter == volcano else next(land_iter)) if land else next(sea_iter)
                area: dict[str, Any] = {
                    "id": slug(name),
                    "name": name,
                    "kind": "land" if land else "sea",
                    "cells": [list(CELLS[i]) for i in cells],
                }
                if land:
                    area.update(sites=sites, cornucopias=corn, priestess=False,
                                volcano=letter == volcano)
                    if letter != volcano:
                        land_refs.append((number, face, area))
                else:
                    area["cornucopias"] = corn
                out.append(area)
            # Land first, then sea: a stable, readable order for the engine.
            out.sort(key=lambda a: a["kind"] != "land")
            faces[face] = {"layout": layout, "areas": out}
        tiles.append({"number": number, "faces": faces})

    # Priestess icons: about one land area in four, at most one per face, and
    # preferably on a poor area (few cornucopias) to balance it.
    rng.shuffle(land_refs)
    land_refs.sort(key=lambda t: t[2]["cornucopias"])
    want = round(len(land_refs) / 4)
    used_faces = set()
    for number, face, area in land_refs:
        if want == 0:
            break
        if (number, face) in used_faces:
            continue
        area["priestess"] = True
        used_faces.add((number, face))
        want -= 1

    ids = [a["id"] for t in tiles for f in t["faces"].values() for a in f["areas"]]
    assert len(ids) == len(set(ids)), "duplicate area ids"
    return {
        "comment": "Original archipelago tile designs for this project (R5); "
                   "generated by make_tiles.py. Cells are axial hex (q, r) "
                   "around the tile centre (0, 0).",
        "tiles": tiles,
    }


def write(path: Path | None = None) -> Path:
    path = path or Path(__file__).with_name("tiles.json")
    data = main()
    # One area per line: diffs stay readable when a design is edited by hand.
    lines = ['{"comment": ' + json.dumps(data["comment"]) + ',', ' "tiles": [']
    for ti, tile in enumerate(data["tiles"]):
        lines.append(f'  {{"number": {tile["number"]:d}, "faces": {{')
        for fi, (face, body) in enumerate(tile["faces"].items()):
            lines.append(f'   "{face}": {{"layout": {json.dumps(body["layout"])}, "areas": [')
            for ai, area in enumerate(body["areas"]):
                sep = "," if ai < len(body["areas"]) - 1 else ""
                lines.append("     " + json.dumps(area) + sep)
            lines.append("   ]}" + ("," if fi == 0 else ""))
        lines.append("  }}" + ("," if ti < len(data["tiles"]) - 1 else ""))
    lines.append(" ]}")
    path.write_text("\n".join(lines) + "\n")
    json.loads(path.read_text())  # the file must stay valid JSON
    return path


if __name__ == "__main__":
    print(write())
