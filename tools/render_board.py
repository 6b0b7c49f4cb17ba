"""Render a board to SVG (and PNG if rsvg-convert is installed) from web/geometry.py's geometry(board).

Everything drawn comes from geometry(), so the picture is the adjacency the
rules use (R7): areas are adjacent where their shapes share a border, plus the
dashed links (the volcano rule of R5, or every adjacency of a map board).

Usage (from the repository root):
    PYTHONPATH=src python3 tools/render_board.py --players 4 --seed 7 -o board.svg [--png]
    PYTHONPATH=src python3 tools/render_board.py --recommended 5 --face B -o rec5B.svg --png
    PYTHONPATH=src python3 tools/render_board.py --tiles -o tiles.svg --png   # all 24 faces
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from html import escape
from pathlib import Path

from cyclades.engine.board import Board, validate
from cyclades.engine.rng import Rng
from cyclades.web.geometry import geometry

LAND = "#e3cf9a"
LAND_VOLCANO = "#c98f6b"
SEA = "#8ec5e3"
AREA_EDGE = "#ffffff"  # the rulebook's "white line" between two areas
ISLAND_EDGE = "#5b4520"
TILE_EDGE = "#3d6f8c"


def _path(ring) -> str:
    return "M" + " L".join(f"{x:.1f},{y:.1f}" for x, y in ring) + " Z"


def render_svg(board: Board, title: str = "") -> str:
    g = geometry(board)
    w, h = g["width"], g["height"]
    top = 24 if title else 0
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.0f}" height="{h + top:.0f}" '
           f'viewBox="0 {-top} {w:.1f} {h + top:.1f}" font-family="DejaVu Sans, sans-serif">',
           f'<rect x="0" y="{-top}" width="{w:.1f}" height="{h + top:.1f}" fill="#f4f1ea"/>']
    if title:
        out.append(f'<text x="8" y="-7" font-size="14">{escape(title)}</text>')
    # Map boards: adjacency links under the areas, so the areas stay readable.
    for link in g["links"]:
        if link["kind"] == "map":
            (x1, y1), (x2, y2) = link["points"]
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#777" '
                       f'stroke-width="2"/>')
    # Area fills; the thin border between two areas is the "white line" of
    # the rulebook that makes them adjacent.
    for a in g["areas"]:
        fill = (LAND_VOLCANO if a["volcano"] else LAND) if a["kind"] == "land" else SEA
        out.append(f'<path d="{_path(a["outline"])}" fill="{fill}" stroke="{AREA_EDGE}" '
                   f'stroke-width="1.6"/>')
    # Tile outlines, faint, to show how the board was assembled.
    for t in g["tiles"]:
        out.append(f'<path d="{_path(t["outline"])}" fill="none" stroke="{TILE_EDGE}" '
                   f'stroke-width="0.8" stroke-dasharray="2,4" opacity="0.5"/>')
    # Island coasts, thick.
    for isl in g["islands"]:
        for ring in isl["outlines"]:
            out.append(f'<path d="{_path(ring)}" fill="none" stroke="{ISLAND_EDGE}" '
                       f'stroke-width="2.6" stroke-linejoin="round"/>')
    # The volcano rule (R5): an adjacency that is not a shared border.
    for link in g["links"]:
        if link["kind"] == "map":
            continue
        (x1, y1), (x2, y2) = link["points"]
        colour = "#b03a2e"
        out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="{colour}" '
                   f'stroke-width="2.5" stroke-dasharray="7,5" opacity="0.8"/>')
    for a in g["areas"]:
        out.extend(_area_marks(a))
    out.append("</svg>")
    return "\n".join(out)


def _area_marks(a: dict) -> list[str]:
    """An area's name, construction sites and badges (cornucopias, priestess, volcano)."""
    out = []
    lx, ly = a["label"]
    land = a["kind"] == "land"
    name = a["name"]
    size = 8.5 if len(name) <= 12 else 7.5
    out.append(f'<text x="{lx}" y="{ly + 3}" font-size="{size}" text-anchor="middle" '
               f'fill="{"#3a2a10" if land else "#1d4a66"}" '
               f'font-style="{"normal" if land else "italic"}">{escape(name)}</text>')
    for sx, sy in a["sites"]:
        out.append(f'<rect x="{sx - 4}" y="{sy - 4}" width="8" height="8" fill="#fff" '
                   f'stroke="#6b5a3a" stroke-width="1"/>')
    cx, cy = a["centre"]
    badges = []
    if a["cornucopias"]:
        badges.append(("#d9a400", f'{a["cornucopias"]}'))
    if a["priestess"]:
        badges.append(("#7b4fa0", "P"))
    if a["volcano"]:
        badges.append(("#b03a2e", "V"))
    # Badges sit around the piece spot without covering it.
    for k, (colour, text) in enumerate(badges):
        bx, by = cx - 8 + 16 * k - 8 * (len(badges) - 1), cy + (0 if land and a["sites"] else 6)
        if land and a["sites"] and len(a["cells"]) < 2:
            by = cy
        out.append(f'<circle cx="{bx}" cy="{by}" r="6.5" fill="{colour}"/>'
                   f'<text x="{bx}" y="{by + 3.2}" font-size="8.5" text-anchor="middle" '
                   f'fill="#fff" font-weight="bold">{text}</text>')
    return out


def all_faces_board(face: str) -> Board:
    """The 12 tiles of one face, rotation 0, on a 4 x 3 grid of flowers whose
    centres are 5 cells apart, so tiles do not touch and each reads alone."""
    placements = []
    for k in range(12):
        row, col = divmod(k, 4)
        r = 5 * row
        placements.append((k + 1, face, (5 * col - r // 2, r), 0))
    return Board.from_tiles(placements)


def write(svg: str, out: Path, png: bool) -> None:
    out.write_text(svg)
    print(out)
    if png:
        exe = shutil.which("rsvg-convert")
        if not exe:
            raise SystemExit("rsvg-convert not found (apt-get install librsvg2-bin)")
        target = out.with_suffix(".png")
        subprocess.run([exe, "-z", "1.5", "-o", str(target), str(out)], check=True)
        print(target)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--face", choices=["A", "B"])
    ap.add_argument("--recommended", type=int, metavar="PLAYERS")
    ap.add_argument("--tiles", action="store_true", help="all 24 faces, one sheet per face")
    ap.add_argument("-o", "--out", default="board.svg")
    ap.add_argument("--png", action="store_true")
    args = ap.parse_args()
    out = Path(args.out)
    if args.tiles:
        for face in "AB":
            board = all_faces_board(face)
            write(render_svg(board, f"Tiles 1-12, face {face}"),
                  out.with_name(f"{out.stem}-{face}{out.suffix}"), args.png)
        return
    if args.recommended:
        board = Board.recommended(args.recommended, args.face or "A")
        players = args.recommended
        title = f"Recommended board, {players} players, face {args.face or 'A'}"
    else:
        players = args.players
        board = Board.for_players(players, Rng(args.seed), face=args.face)
        title = f"Random board, {players} players, seed {args.seed}"
    problems = validate(board, players)
    title += f" - {len(board.lands)} land / {len(board.seas)} sea areas, {len(board.islands)} islands"
    if problems:
        title += " - INVALID: " + "; ".join(problems)
    write(render_svg(board, title), out, args.png)


if __name__ == "__main__":
    main()
