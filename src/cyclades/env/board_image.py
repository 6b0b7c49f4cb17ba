"""The board as a picture, drawn as the browser draws it, without a browser.

    from cyclades.env.board_image import board_svg, board_rgb
    svg = board_svg(game)                  # the position as SVG text
    pixels = board_rgb(game)               # (720, 960, 3) uint8: the environments' rgb_array

The drawing is the browser's (web/static/board.js, with board-layout.js for where things go
and board-art.js for the figures), written again here in Python: the board turned to fit its
panel, islands with coasts and shallows, the seas and their borders, every piece as the same
figure (helmets, triremes, heroes, beasts, buildings, Control tokens in the faction's colour
and shape), and every name placed clear of the pieces. Below the board a line per faction:
its plate, `player_k`, its Metropolises, Priestesses, Philosophers and, when the view shows
it, its GP. The SVG is rendered to pixels by resvg (the Rust SVG renderer, `resvg-py`) with the
DejaVu fonts matplotlib ships, so the picture is the same on every machine, offline. Needs
`pip install cyclades[render]` (resvg-py, matplotlib).

tests/env/test_env_seams.py checks that the figures, colours and styles written here are the
browser's (read from the JavaScript and CSS files), so that the two drawings stay one.
"""
from __future__ import annotations

import json
import math
import re
from functools import cache, lru_cache
from html import escape

from ..content.i18n import _, ngettext
from ..content.names import title
from ..web.geometry import geometry

PANEL = (960, 720)          # width, height of a picture in pixels (the board and its status)
STATUS_ROW = 26             # pixels per faction line under the board
LABEL_PX = 12.5             # names at about this many pixels (board.js, LABEL_PX.panel)
LABEL_MAX_PX = 15
TOKEN_PX = 26               # pieces at least this wide where the cells allow it

# --- colours and figures: read from web/static/common.js and board-art.js -----------------------

def _static(name: str) -> str:
    from importlib.resources import files
    return (files("cyclades") / "web" / "static" / name).read_text(encoding="utf-8")


def _js_const(source: str, name: str) -> str:
    """The text after `const NAME =` up to its closing `;` (a string, an array or an object)."""
    m = re.search(rf"\bconst {name} = (.*?);[ \t]*(?://[^\n]*)?\n", source, re.S)
    if not m:
        raise RuntimeError(f"the browser's drawing no longer defines {name} as this module reads it")
    return m.group(1)


def _js_object(source: str, name: str) -> dict:
    """A JavaScript object of strings (`key: "value"` entries) or of such objects, as a dict."""
    text = _js_const(source, name)
    entry = r'(?:"([^"]+)"|([\w-]+))\s*:\s*(?:"([^"]*)"|\{([^}]*)\})'
    out = {}
    for quoted, bare, value, inner in re.findall(entry, text.strip()[1:-1]):
        out[quoted or bare] = value if not inner else _js_object(f"const X = {{{inner}}};\n", "X")
    return out


class _Art:
    """The browser's figures and colours, read once from its JavaScript (one drawing, not two)."""

    def __init__(self):
        art, common = _static("board-art.js"), _static("common.js")
        self.strings = {k: json.loads(_js_const(art, k)) for k in ("HELMET", "CREST", "EYE", "OUTLINE")}
        self.beasts = _js_object(art, "BEASTS")
        self.beast_of = _js_object(art, "BEAST_OF")
        self.building_icon = _js_object(art, "BUILDING_ICON")
        # Each building's colour as the browser gives it (`port: building("port", "#2f7fc1")`),
        # its letter the first of its name, as the browser writes it (in English here).
        self.buildings = {b: {"letter": title(b)[:1] or b[:1].upper(), "colour": colour} for b, colour in
                          re.findall(r'([\w-]+):\s*building\("[\w-]+",\s*"(#[0-9a-fA-F]+)"\)',
                                     _js_const(common, "BUILDINGS"))}
        self.colours = json.loads(_js_const(common, "PLAYER_COLOURS"))
        self.ink = json.loads(_js_const(common, "PLAYER_INK"))
        self.shapes = json.loads(_js_const(common, "FACTION_SHAPES"))


@lru_cache(maxsize=1)
def art() -> _Art:
    return _Art()


# The figures board-art.js draws inline (tests/env/test_env_seams.py finds each one there).
MAST = "M-7,-1.5 L-7,-11 M-7,-10 L-7,-1"
SAIL = "M-13,-9.5 L-1,-9.5 L-2,-2 L-12,-2 Z"
HULL = "M-12,-0.5 L8,-0.5 L12,-3 L11,1.5 L5,5.5 L-9,5.5 Z"
OARS = "M-8,5.5 L-9.5,9 M-4,5.5 L-5.5,9 M0,5.5 L-1.5,9 M4,5.5 L2.5,9"
HERO_PLUME = "M-8,-5 C-7,-13 6,-13.5 10,-6 C6,-9 -2,-10 -8,-5 Z"
METROPOLIS = ("M-22,11 L-22,-4 L-18,-4 L-18,-8 L-14,-8 L-14,-4 L-7,-4 L-7,-14 L-3,-14 L-3,-18 L3,-18 L3,-14 "
              "L7,-14 L7,-4 L14,-4 L14,-8 L18,-8 L18,-4 L22,-4 L22,11 Z")
METROPOLIS_DOORS = "M-4,11 L-4,4 A4,4 0 0 1 4,4 L4,11 Z M-15,3 L-11,3 L-11,7 L-15,7 Z M11,3 L15,3 L15,7 L11,7 Z"
HORN = "M-11,-8 Q-6,9 10,8 Q13,2 12,-4 Q2,1 -11,-8 Z"
PROSPERITY_HORN = "M-6.5,-4.5 Q-3.3,5 5.8,4.4 Q7.4,1.1 6.7,-2.4 Q1.1,0.7 -6.5,-4.5 Z"
VOLCANO = "M-11,8 L-3,-6 L3,-6 L11,8 Z"
LAVA = "M-3,-6 L-1.5,-11 L0.5,-8 L2,-12 L3,-6 Z"
PRIESTESS = "M-5,8 L0,-1.5 L5,8 Z"

# The styles of web/static/style.css the drawing uses, by class (strokes marked "px" are in
# screen pixels there, vector-effect: non-scaling-stroke; here they are divided by the scale).
STYLE = {
    "board": {"background": "#174a73"},
    "sea-border": {"stroke": "rgba(225, 242, 255, 0.62)", "stroke-width": "1.6px"},
    "rim": {"stroke": "#0e3553", "stroke-width": "2.6px"},
    "shallows": {"stroke": "rgba(120, 214, 222, 0.45)", "stroke-width": "12"},
    "island": {"stroke": "#f3e3ad", "stroke-width": "2.2"},
    "island-hills": {"stroke": "#6b4e22", "stroke-width": "1.1"},
    "land-border": {"stroke": "#6b4e22", "stroke-width": "1.5px", "stroke-dasharray": "5 3"},
    "link.volcano": {"stroke": "#e8562a", "stroke-width": "2.4", "stroke-dasharray": "5 3", "opacity": "0.85"},
    "link.map": {"stroke": "rgba(255, 255, 255, 0.45)", "stroke-width": "1.5"},
    "tint.land": {"opacity": "0.34"},
    "tint.sea": {"opacity": "0.2"},
    "label.land": {"fill": "#3a2a0c", "stroke": "rgba(255, 248, 225, 0.92)", "stroke-width": "0.24em"},
    "label.sea": {"fill": "#f2f8ff", "stroke": "rgba(12, 44, 72, 0.85)", "stroke-width": "0.22em"},
    "badge-small": {"fill": "#fff", "stroke": "#5a3c00", "stroke-width": "2.4px"},
    "site.empty": {"fill": "rgba(255, 251, 235, 0.7)", "stroke": "#6b5430", "stroke-width": "0.9",
                   "stroke-dasharray": "2 1.4"},
    "mark.battle": {"stroke": "#ff3b2f", "stroke-width": "3.4"},
}

# The fonts: the browser's serif and sans-serif lists end in DejaVu, which matplotlib ships.
FONTS = {"serif": "DejaVu Serif", "sans": "DejaVu Sans"}


def rnd(x: float) -> float:
    return round(x * 100) / 100


def _num(x) -> str:
    x = rnd(x)
    return str(int(x)) if x == int(x) else str(x)


def _css(value: str) -> str:
    """A style value as an SVG attribute: resvg takes rgba() colours as they are; "px" goes."""
    return value[:-2] if value.endswith("px") else value


def _rgba(value: str) -> tuple[str, str | None]:
    """(colour, opacity) of a CSS colour: rgba(r, g, b, a) becomes rgb(r, g, b) and a."""
    if not value.startswith("rgba("):
        return value, None
    r, g, b, a = (x.strip() for x in value[5:-1].split(","))
    return f"rgb({r},{g},{b})", a


def _attrs(**kw) -> str:
    out = []
    for k, v in kw.items():
        if v is None or v is False:
            continue
        name = k.rstrip("_").replace("_", "-")
        text = _num(v) if isinstance(v, float) else v
        out.append(f'{name}="{escape(str(text))}"')
    return " ".join(out)


def el(tag: str, body: str = "", **kw) -> str:
    a = _attrs(**kw)
    head = f"<{tag} {a}" if a else f"<{tag}"
    return f"{head}>{body}</{tag}>" if body else f"{head}/>"


def _paint(cls: str, scale: float = 1.0, **kw) -> dict:
    """SVG presentation attributes of a STYLE class (rgba colours split into an opacity;
    screen-pixel strokes divided by `scale`)."""
    out = dict(kw)
    for prop, value in STYLE[cls].items():
        if prop in ("stroke", "fill"):
            colour, alpha = _rgba(value)
            out[prop] = colour
            if alpha is not None:
                out[f"{prop}_opacity"] = alpha
        elif prop == "stroke-width" and value.endswith("px"):
            out["stroke_width"] = float(value[:-2]) / scale
        else:
            out[prop.replace("-", "_")] = _css(value)
    return out


def colour(p: int) -> str:
    colours = art().colours
    return colours[p % len(colours)] if p >= 0 else "#999"


def ink(p: int) -> str:
    inks = art().ink
    return inks[p % len(inks)] if p >= 0 else "#000"


def faction_shape_path(p: int, r: float) -> str:
    """A faction's shape as a path of radius r about (0, 0) (common.js factionShapePath)."""
    shapes = art().shapes
    shape = shapes[(p if p >= 0 else 0) % len(shapes)]

    def poly(pts):
        return "M" + "L".join(f"{_num(x * r)},{_num(y * r)}" for x, y in pts) + "Z"

    if shape == "triangle":
        return poly([[0, -1.25], [1.2, 0.85], [-1.2, 0.85]])
    if shape == "down":
        return poly([[-1.2, -0.85], [1.2, -0.85], [0, 1.25]])
    if shape == "square":
        return poly([[-0.9, -0.9], [0.9, -0.9], [0.9, 0.9], [-0.9, 0.9]])
    if shape == "diamond":
        return poly([[0, -1.2], [1.2, 0], [0, 1.2], [-1.2, 0]])
    if shape == "cross":
        a = 0.42
        return poly([[-a, -1.05], [a, -1.05], [a, -a], [1.05, -a], [1.05, a], [a, a], [a, 1.05], [-a, 1.05],
                     [-a, a], [-1.05, a], [-1.05, -a], [-a, -a]])
    f = _num
    return f"M{f(-r)},0A{f(r)},{f(r)} 0 1 0 {f(r)},0A{f(r)},{f(r)} 0 1 0 {f(-r)},0Z"


def card_name(c: str) -> str:
    names = {"scylla-charybdis": "Scylla & Charybdis", "calydonian-boar": "Calydonian Boar"}
    return names.get(c) or " ".join(w[:1].upper() + w[1:] for w in c.split("-"))


# --- the figures (board-art.js) ---------------------------------------------------------------

def plate(p, x, y, r, text) -> str:
    body = el("path", d=faction_shape_path(p, r), fill=colour(p), stroke="#fff", stroke_width=1.1,
              stroke_linejoin="round")
    if text is not None:
        body += el("text", escape(str(text)), y=rnd(r * 0.45), fill=ink(p), font_family=FONTS["sans"],
                   font_weight="bold", text_anchor="middle",
                   font_size=rnd(r * (1.0 if len(str(text)) > 1 else 1.3)))
    return el("g", body, transform=f"translate({_num(x)},{_num(y)})")


def piece(title, x, y, size, body) -> str:
    return el("g", el("title", escape(title)) + body,
              transform=f"translate({_num(x)},{_num(y)}) scale({_num(size / 30)})", filter="url(#piece-shadow)")


def troop(x, y, size, p, n, merc) -> str:
    title = f"{n} mercenary Troop{'s' if n > 1 else ''}" if merc else f"{n} Troop{'s' if n > 1 else ''}"
    a = art().strings
    ink_ = a["OUTLINE"]
    helmet = (el("path", d=a["CREST"], fill="#9a9a9a" if merc else "#f4ecd8", stroke=ink_, stroke_width=0.9)
              + el("path", d=a["HELMET"], fill=colour(p), stroke=ink_, stroke_width=1.2, stroke_linejoin="round",
                   stroke_dasharray="2.4 1.4" if merc else None)
              + el("path", d=a["EYE"], fill=ink_))
    return piece(title, x, y, size, el("g", helmet, transform="translate(-4.5,-1) scale(1.05)")
                 + plate(p, 7, 6, 8, f"{n}m" if merc else n))


def fleet(x, y, size, p, n) -> str:
    OUTLINE = art().strings["OUTLINE"]
    return piece(f"{n} Fleet{'s' if n > 1 else ''}", x, y, size,
                 el("path", d=MAST, stroke=OUTLINE, stroke_width=1.2)
                 + el("path", d=SAIL, fill=colour(p), stroke=OUTLINE, stroke_width=1, stroke_linejoin="round")
                 + el("path", d=HULL, fill="#6b4423", stroke=OUTLINE, stroke_width=1.1, stroke_linejoin="round")
                 + el("path", d=OARS, stroke=OUTLINE, stroke_width=0.9)
                 + plate(p, 7.5, -5, 8, n))


def hero(x, y, size, p, hero_id) -> str:
    name = card_name(hero_id)
    a = art().strings
    OUTLINE = a["OUTLINE"]
    return piece(f"{name} (Hero)", x, y, size,
                 el("circle", r=11, fill="#f6d36b", stroke="#8a6212", stroke_width=1.2)
                 + el("path", d=HERO_PLUME, fill="#b3261e", stroke=OUTLINE, stroke_width=0.8)
                 + el("path", d=a["HELMET"], transform="translate(-2,1) scale(0.85)", fill=colour(p), stroke=OUTLINE,
                      stroke_width=1.2, stroke_linejoin="round")
                 + plate(p, 7, 6.5, 7.5, name[0]))


def creature(x, y, size, mini, card, p) -> str:
    beast_of = art().beast_of
    kind = beast_of.get(card) or beast_of.get(mini) or "horns"
    body = (el("circle", r=11.5, fill="#3b2350", stroke=colour(p) if p >= 0 else "#d9c7ef", stroke_width=2.4)
            + el("path", d=art().beasts[kind], fill="#e8d9ff", stroke="#1a0f24", stroke_width=0.6,
                 stroke_linejoin="round"))
    if kind == "eye":
        body += el("circle", cy=-3, r=2.6, fill="#3b2350")
    if p >= 0:
        body += plate(p, 8, 8, 5.2, None)
    return piece(f"{card_name(mini)} (Mythological Creature)", x, y, size, body)


def control(x, y, size, p) -> str:
    return piece("Control token", x, y, size,
                 el("path", d=faction_shape_path(p, 9), fill=colour(p), stroke="#fff", stroke_width=1.8,
                    stroke_linejoin="round")
                 + el("path", d=faction_shape_path(p, 4.2), fill="none", stroke=ink(p), stroke_width=1.2,
                      opacity=0.85))


def building(x, y, size, b, p) -> str:
    info = art().buildings.get(b) or {"letter": b[:1].upper(), "colour": "#777"}
    letter, fill = info["letter"], info["colour"]
    icon = art().building_icon.get(b)
    if icon:
        figure = el("path", d=icon, fill="#fff" if b == "fortress" else "none", stroke="#fff",
                    stroke_width=0.6 if b == "fortress" else 1.7, stroke_linejoin="round", stroke_linecap="round",
                    transform="scale(1.25)")
    else:
        figure = el("text", letter, y=5, font_size=14, fill="#fff", font_family=FONTS["sans"], font_weight="bold",
                    text_anchor="middle")
    return el("g", el("rect", x=-11, y=-11, width=22, height=22, rx=3, fill=fill,
                      stroke=colour(p) if p >= 0 else "#fff", stroke_width=3) + figure,
              transform=f"translate({_num(x)},{_num(y)}) scale({_num(size / 24)})", filter="url(#piece-shadow)")


def metropolis(x, y, size, p) -> str:
    return el("g", el("path", transform="translate(0,3.5)", d=METROPOLIS, fill="#7b3fa0",
                      stroke=colour(p) if p >= 0 else "#fff", stroke_width=3, stroke_linejoin="round")
              + el("path", transform="translate(0,3.5)", d=METROPOLIS_DOORS, fill="#f3e6c4"),
              transform=f"translate({_num(x)},{_num(y)}) scale({_num(size / 24)})", filter="url(#piece-shadow)")


def empty_site(x, y, size) -> str:
    return el("rect", x=rnd(x - size / 2), y=rnd(y - size / 2), width=rnd(size), height=rnd(size),
              rx=rnd(size * 0.15), **_paint("site.empty"))


def _badge(text, x, y) -> str:
    return el("text", str(text), x=x, y=y, font_size=11, paint_order="stroke", font_family=FONTS["sans"],
              font_weight="bold", text_anchor="middle", **_paint("badge-small"))


def cornucopia(x, y, size, n) -> str:
    body = (el("path", d=HORN, fill="#f2c230", stroke="#6b4a00", stroke_width=1.6, stroke_linejoin="round")
            + el("ellipse", cx=11, cy=2, rx=2.2, ry=5.8, fill="#fff3c4", stroke="#6b4a00", stroke_width=1))
    if n > 1:
        body += _badge(n, -7, 11)
    return el("g", body, transform=f"translate({_num(x)},{_num(y)}) scale({_num(size / 24)})")


def prosperity(x, y, size, n) -> str:
    body = (el("circle", r=11, fill="#4d7a2a", stroke="#f2c230", stroke_width=2.4)
            + el("path", d=PROSPERITY_HORN, fill="#f2c230"))
    if n > 1:
        body += _badge(n, 9, -6)
    return el("g", body, transform=f"translate({_num(x)},{_num(y)}) scale({_num(size / 24)})",
              filter="url(#piece-shadow)")


def priestess_icon(x, y, size) -> str:
    return el("g", el("circle", r=11, fill="#fdf8ea", stroke="#b98a1c", stroke_width=1.8)
              + el("circle", cy=-4.5, r=3, fill="#6b4a00") + el("path", d=PRIESTESS, fill="#6b4a00"),
              transform=f"translate({_num(x)},{_num(y)}) scale({_num(size / 24)})")


def volcano(x, y, size) -> str:
    return el("g", el("path", d=VOLCANO, fill="#7a4b32", stroke="#3b2416", stroke_width=1.2, stroke_linejoin="round")
              + el("path", d=LAVA, fill="#e8562a"),
              transform=f"translate({_num(x)},{_num(y)}) scale({_num(size / 24)})")


# --- where things go (board-layout.js) --------------------------------------------------------

def polygon_centre(poly) -> list:
    return [sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly)]


def _rings(a) -> list:
    return a["polygons"] if a.get("polygons") else [a.get("outline") or []]


def orient(geo: dict, deg: float) -> dict:
    """The board turned by `deg` degrees, moved to start at a small margin; every area gets
    `cells` (its hexagons' centres) and `anchor` (the cell its pieces stand on)."""
    t = math.radians(deg)
    c, sn = math.cos(t), math.sin(t)

    def turn(p):
        return [p[0] * c - p[1] * sn, p[0] * sn + p[1] * c]

    R = geo.get("hex_size") or 40
    margin = 0.12 * R
    pts = [turn(p) for a in geo["areas"] for ring in _rings(a) for p in ring]
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    x0, y0 = min(xs) - margin, min(ys) - margin

    def move(p):
        q = turn(p)
        return [rnd(q[0] - x0), rnd(q[1] - y0)]

    def ring(r):
        return [move(p) for p in (r or [])]

    areas = []
    for a in geo["areas"]:
        polygons = [ring(r) for r in _rings(a)]
        cells = [polygon_centre(p) for p in polygons]
        mid = polygon_centre(cells)
        anchor = cells[0]
        for p in cells:
            if math.hypot(p[0] - mid[0], p[1] - mid[1]) < math.hypot(anchor[0] - mid[0], anchor[1] - mid[1]) - 0.01:
                anchor = p
        areas.append({**a, "polygons": polygons, "outline": ring(a.get("outline")), "cells": cells,
                      "anchor": anchor})
    return {**geo, "deg": deg, "R": R,
            "width": rnd(max(xs) - min(xs) + 2 * margin), "height": rnd(max(ys) - min(ys) + 2 * margin),
            "areas": areas,
            "islands": [{**i, "outlines": [ring(r) for r in i.get("outlines") or []]} for i in geo.get("islands", [])],
            "links": [{**x, "points": ring(x["points"])} for x in geo.get("links", [])]}


def best_angle(geo: dict, w: float, h: float) -> int:
    """The turn (0, 30, ..., 150 degrees) that draws the board largest in a w x h panel; a turn
    must gain 6% to be taken over the board as it comes."""
    pts = [p for a in geo["areas"] for ring in _rings(a) for p in ring]
    best_deg, best_scale = 0, 0.0
    for deg in (0, 90, 30, 60, 120, 150):
        t = math.radians(deg)
        c, sn = math.cos(t), math.sin(t)
        xs = [p[0] * c - p[1] * sn for p in pts]
        ys = [p[0] * sn + p[1] * c for p in pts]
        scale = min(w / (max(xs) - min(xs)), h / (max(ys) - min(ys)))
        if scale > best_scale * (1.06 if best_deg == 0 and deg != 0 else 1.0001):
            best_deg, best_scale = deg, scale
    return best_deg


def smooth_path(ring) -> str:
    """A coast: the ring's corners rounded off, through the middles of its edges."""
    if not ring or len(ring) < 3:
        return ""
    n = len(ring)

    def mid(a, b):
        return [rnd((a[0] + b[0]) / 2), rnd((a[1] + b[1]) / 2)]

    m0 = mid(ring[n - 1], ring[0])
    d = f"M{_num(m0[0])},{_num(m0[1])}"
    for i in range(n):
        p, m = ring[i], mid(ring[i], ring[(i + 1) % n])
        d += f"Q{_num(p[0])},{_num(p[1])} {_num(m[0])},{_num(m[1])}"
    return d + "Z"


def isle_growth(areas) -> float:
    """Small isles far apart (the classic board) are drawn larger: 1.3, else 1."""
    lands = [a for a in areas if a["kind"] == "land"]
    islands = {a["island"] for a in lands}

    def cells(kind):
        return sum(len(a["cells"]) for a in areas if a["kind"] == kind)

    return 1.3 if lands and len(islands) == len(lands) and cells("sea") >= 3 * cells("land") else 1.0


def grow(ring, centre, k) -> list:
    return [[rnd(centre[0] + (p[0] - centre[0]) * k), rnd(centre[1] + (p[1] - centre[1]) * k)] for p in ring]


def borders(areas) -> list:
    """Edges between two areas and the board's rim: [(a, b, p, q)], b None on the rim."""
    def key(p):
        return f"{round(p[0] * 4)},{round(p[1] * 4)}"

    edges: dict = {}
    for a in areas:
        for poly in a.get("hexes") or a["polygons"]:
            for i, p in enumerate(poly):
                q = poly[(i + 1) % len(poly)]
                k = "|".join(sorted((key(p), key(q))))
                e = edges.get(k)
                if e:
                    e[1] = a
                else:
                    edges[k] = [a, None, p, q]
    return [e for e in edges.values() if e[0] is not e[1]]


def _box(x, y, w, h) -> dict:
    return {"x": rnd(x - w / 2), "y": rnd(y - h / 2), "w": rnd(w), "h": rnd(h), "cx": rnd(x), "cy": rnd(y)}


def zones(area, R, T) -> dict:
    """Where an area's pieces (a row of tokens), building sites and printed icons stand."""
    cx, cy = area["anchor"]
    out: dict = {"tokens": None, "sites": None, "icons": []}
    if area["kind"] == "land":
        sites = len(area.get("sites") or [])
        horn = 1 if area.get("cornucopias") else 0
        room = 1.5 * R
        metro = 1.0 if sites else 0
        site = min(0.3 * R, room / ((sites * 1.1 + metro + horn * 1.2) or 1))
        width = (sites * 1.1 + metro + horn * 1.2) * site
        out["tokens"] = _box(cx, cy - 0.06 * R, min(1.7 * R, 3.3 * T), T)
        if sites or horn:
            out["sites"] = {**_box(cx, cy + 0.5 * R, width, site * 1.3), "site": site}
        icons = [k for k, on in (("priestess", area.get("priestess")), ("volcano", area.get("volcano")),
                                 ("prosperity", True)) if on]
        icon = 0.3 * R
        for i, kind in enumerate(icons):
            out["icons"].append({"kind": kind, **_box(cx + (i - (len(icons) - 1) / 2) * icon * 1.15, cy + 0.8 * R,
                                                      icon, icon)})
    else:
        extra = 1 if area.get("cornucopias") else 0
        out["tokens"] = _box(cx, cy, min(1.6 * R, (2.3 + extra) * T), T)
    return out


def row_of(zone, n, T) -> list:
    """Positions of n tokens in a row inside a zone: [(x, y, size)]."""
    if not n:
        return []
    gap = 0.08 * T
    size = min(T, (zone["w"] - (n - 1) * gap) / n)
    return [(rnd(zone["cx"] + (i - (n - 1) / 2) * (size + gap)), zone["cy"], rnd(size)) for i in range(n)]


def _splits(name) -> list:
    out = [[name]]
    words = name.split(" ")
    if len(words) > 1:
        best = None
        for i in range(1, len(words)):
            a, b = " ".join(words[:i]), " ".join(words[i:])
            worst = max(len(a), len(b))
            if best is None or worst < best[0]:
                best = (worst, [a, b])
        assert best is not None
        out.append(best[1])
    return out


def _overlaps(boxes, others):
    """Overlap areas of every box of `boxes` (n x 4: x, y, w, h) with every one of `others`
    (m x 4): an n x m array."""
    import numpy as np
    if not len(others):
        return np.zeros((len(boxes), 0))
    b, o = boxes[:, None, :], others[None, :, :]
    w = np.minimum(b[..., 0] + b[..., 2], o[..., 0] + o[..., 2]) - np.maximum(b[..., 0], o[..., 0])
    h = np.minimum(b[..., 1] + b[..., 3], o[..., 1] + o[..., 3]) - np.maximum(b[..., 1], o[..., 1])
    return np.clip(w, 0, None) * np.clip(h, 0, None)


def place_labels(areas, R, size, measure, obstacles, bounds) -> dict:
    """Every area's name where it overlaps no other name and no obstacle (board-layout.js
    placeLabels, the same places and costs, its loops over boxes done by numpy):
    id -> {x, y (first baseline), lines, size, lh, box}."""
    import numpy as np
    pad = 0.05 * size
    walls = np.array([[o["x"], o["y"], o["w"], o["h"]] for o in obstacles], dtype=float).reshape(-1, 4)
    frame = np.array([[0.0, 0.0, bounds[0], bounds[1]]])

    def candidates_of(a, spots, shrinks):
        """The places to try for an area's name: (boxes n x 4, costs, hard costs, [(lines, size,
        x, y, lh)]): spots near its cells, one or two lines, full size or a little smaller."""
        font_size = size if a["kind"] == "land" else size * 0.92
        r = a.get("r") or R
        cells = np.array(a["cells"], dtype=float)
        spots = np.array(spots, dtype=float).reshape(-1, 3)
        near = np.min(np.hypot(cells[None, :, 0] - spots[:, None, 0], cells[None, :, 1] - spots[:, None, 1]), axis=1)
        rows: list[np.ndarray] = []
        costs: list[np.ndarray] = []
        baselines: list[np.ndarray] = []
        group: list[np.ndarray] = []
        groups: list[tuple[list[str], float, float]] = []
        for lines in _splits(a["name"]):
            m = [measure(t, a["kind"]) for t in lines]
            for shrink in shrinks:
                fs = font_size * shrink
                w = max(x[0] for x in m) * fs + 2 * pad
                lh = m[0][2] * fs
                h = lh * len(lines) + 2 * pad
                rows.append(np.stack([spots[:, 0] - w / 2, spots[:, 1] - h / 2,
                                       np.full(len(spots), w), np.full(len(spots), h)], axis=1))
                costs.append(spots[:, 2] + (len(lines) - 1) * 0.35 + (1 - shrink) * 6
                             + np.clip(near - 0.75 * r, 0, None) / r * 1.5)
                baselines.append(spots[:, 1] - h / 2 + pad + m[0][1] * fs)
                group.append(np.full(len(spots), len(groups)))
                groups.append((lines, fs, lh))
        boxes = np.concatenate(rows)
        hard = (_overlaps(boxes, walls).sum(axis=1) + boxes[:, 2] * boxes[:, 3]
                - _overlaps(boxes, frame)[:, 0])
        what = (np.concatenate(baselines), np.concatenate(group), groups)
        return boxes, np.concatenate(costs), hard, what

    land_spots = [[0, -0.64], [0, -0.78], [0, -0.96], [-0.25, -0.66], [0.25, -0.66], [0, 1.02], [-1.0, 0], [1.0, 0],
                  [-0.8, -0.5], [0.8, -0.5], [-0.8, 0.5], [0.8, 0.5]]
    anchor_spots = [[0, 0.6], [0, -0.6], [0, 0.74], [0, -0.74], [-0.4, 0.5], [0.4, 0.5], [-0.4, -0.5], [0.4, -0.5],
                    [0, 0.9], [0, -0.9]]
    cell_spots: list[list[float]] = [[0, 0], [0, 0.3], [0, -0.3], [-0.3, 0], [0.3, 0], [0, 0.6], [0, -0.6]]
    grid = [(-1.2 + 0.15 * i, -1.2 + 0.1 * j) for i in range(17) for j in range(25)]
    candidates = {}
    for a in areas:
        spots: list[tuple[float, float, float]] = []
        r = a.get("r") or R
        for i, cell in enumerate(a["cells"]):
            offsets = land_spots if a["kind"] == "land" else anchor_spots if cell is a["anchor"] else cell_spots
            spots.extend((cell[0] + dx * r, cell[1] + dy * r, i * 0.4 + j * 0.12) for j, (dx, dy) in enumerate(offsets))
        boxes, costs, hard, what = candidates_of(a, spots, [1, 0.9, 0.8, 0.7])
        candidates[a["id"]] = [boxes, costs, hard, what, hard <= 0.01]

    def fallback(a):
        """Where none of those is free: anywhere on a fine grid around the area, down to 60%."""
        r = a.get("r") or R
        spots = [(c[0] + dx * r, c[1] + dy * r, 1 + math.hypot(dx, dy)) for c in a["cells"] for dx, dy in grid]
        return candidates_of(a, spots, [1, 0.85, 0.7, 0.6, 0.5])

    # Greedy, the most constrained first: the area with the fewest free places takes its best
    # one, and the places it covers are no longer free for the others.
    placed = {}
    chosen = np.zeros((0, 4))
    by_id = {a["id"]: a for a in areas}
    open_ids = [a["id"] for a in areas]
    while open_ids:
        aid = min(open_ids, key=lambda i: int(candidates[i][4].sum()))
        boxes, costs, hard, what, free = candidates[aid]
        if not free.any():
            more = fallback(by_id[aid])
            ok = (more[2] <= 0.01) & (_overlaps(more[0], chosen) <= 0.01).all(axis=1)
            if ok.any():
                boxes, costs, hard, what = more
                free = ok
        if free.any():
            k = int(np.argmin(np.where(free, costs, np.inf)))
        else:
            k = int(np.argmin(hard + _overlaps(boxes, chosen).sum(axis=1) + costs))
        baselines, group, groups = what
        lines, fs, lh = groups[int(group[k])]
        box = boxes[k]
        placed[aid] = {"lines": lines, "size": fs, "x": box[0] + box[2] / 2, "y": baselines[k], "lh": lh,
                       "box": {"x": box[0], "y": box[1], "w": box[2], "h": box[3]}}
        chosen = np.vstack([chosen, box[None, :]])
        open_ids.remove(aid)
        for other in open_ids:
            c = candidates[other]
            c[4] = c[4] & (_overlaps(c[0], box[None, :])[:, 0] <= 0.01)
    return placed


# --- text -------------------------------------------------------------------------------------

@cache
def _font_file(family: str, bold: bool, italic: bool) -> str:
    from matplotlib import font_manager
    prop = font_manager.FontProperties(family=family, weight="bold" if bold else "normal",
                                       style="italic" if italic else "normal")
    return font_manager.findfont(prop, fallback_to_default=False)


def font_files() -> list:
    """The font files the picture is drawn with (matplotlib's DejaVu)."""
    return sorted({_font_file(FONTS["serif"], True, False), _font_file(FONTS["serif"], True, True),
                   _font_file(FONTS["sans"], True, False)})


@lru_cache(maxsize=4096)
def measure(text: str, kind: str) -> tuple:
    """(width, ascent, height) of an area's name at font size 1 in the label's font (the
    browser's getBBox): the glyphs' advances with the labels' letter-spacing, 0.01em each."""
    font = _label_font(kind == "sea")
    units = font.units_per_EM
    width = sum(font.load_char(ord(ch)).linearHoriAdvance / 65536 for ch in text) / 100 + 0.01 * len(text)
    return (width, font.ascender / units, (font.ascender - font.descender) / units)


@lru_cache(maxsize=2)
def _label_font(italic: bool):
    """The labels' font (land names bold, sea names bold italic) at 100 px."""
    from matplotlib.ft2font import FT2Font
    font = FT2Font(_font_file(FONTS["serif"], True, italic))
    font.set_size(100, 72)
    return font


# --- the picture --------------------------------------------------------------------------------

def _ring_path(ring) -> str:
    return ("M" + "L".join(f"{_num(p[0])},{_num(p[1])}" for p in ring) + "Z") if ring else ""


class _Layout:
    """The board oriented for a panel, its zones and printed icons (board.js build and layout)."""

    def __init__(self, geo, w, h):
        geo = orient(geo, best_angle(geo, w, h))
        k = isle_growth(geo["areas"])
        if k != 1:
            for a in geo["areas"]:
                a["r"] = geo["R"] * k
                if a["kind"] != "land":
                    continue
                a["hexes"] = a["polygons"]
                a["outline"] = grow(a["outline"] or a["polygons"][0], a["anchor"], k)
                a["polygons"] = [a["outline"]]
            by_id = {a["id"]: a for a in geo["areas"]}
            geo["islands"] = [{**i, "outlines": [by_id[i["areas"][0]]["outline"]] if i["areas"] else i["outlines"]}
                              for i in geo["islands"]]
        self.geo = geo
        self.R = R = geo["R"]
        self.scale = scale = min(w / geo["width"], h / geo["height"])
        self.token = max(0.5 * R, min(0.62 * R, TOKEN_PX / scale))
        self.label_size = max(LABEL_PX, min(LABEL_MAX_PX, 0.3 * R * scale)) / scale
        self.zones = {a["id"]: zones(a, a.get("r") or R, self.token * (a.get("r") or R) / R) for a in geo["areas"]}
        self.printed = [ic for z in self.zones.values() for ic in z["icons"] if ic["kind"] != "prosperity"]
        self.layers = _board_layers(self)
        self.defs = _defs(geo)


@lru_cache(maxsize=64)
def _layout(board, w, h) -> _Layout:
    return _Layout(geometry(board), w, h)


def _defs(geo) -> str:
    clip = "".join(el("path", d=smooth_path(r)) for i in geo["islands"] for r in i["outlines"])
    return el("defs",
              el("radialGradient", el("stop", offset="0%", stop_color="#3f93c4")
                 + el("stop", offset="100%", stop_color="#23699a"), id="sea-grad", cx="50%", cy="45%", r="75%")
              + el("linearGradient", el("stop", offset="0%", stop_color="#e9dca6")
                   + el("stop", offset="55%", stop_color="#c9b774") + el("stop", offset="100%", stop_color="#a99a5c"),
                   id="land-grad", x1="0", y1="0", x2="0.3", y2="1")
              + el("pattern", el("path", d="M0 9 Q7 4.5 14 9 T28 9", fill="none", stroke="rgb(255,255,255)",
                                 stroke_opacity="0.10", stroke_width=1.3),
                   id="waves", width=28, height=14, patternUnits="userSpaceOnUse")
              + el("pattern", el("path", d="M2 14 Q6 8 10 14 M12 7 Q15 3 18 7", fill="none", stroke="rgb(110,85,30)",
                                 stroke_opacity="0.22", stroke_width=1.1),
                   id="hills", width=22, height=18, patternUnits="userSpaceOnUse")
              + el("filter", el("feDropShadow", dx=0, dy=1, stdDeviation=0.8, flood_color="#000", flood_opacity=0.5),
                   id="piece-shadow", x="-30%", y="-30%", width="160%", height="160%")
              + el("filter", el("feDropShadow", dx=0, dy=2.5, stdDeviation=2.5, flood_color="#0b2a44",
                                flood_opacity=0.55),
                   id="island-shadow", x="-10%", y="-10%", width="120%", height="120%")
              + el("clipPath", clip, id="land-clip"))


def _board_layers(lay: _Layout) -> list:
    """The drawing that does not change during a game: seas, borders, islands, links, icons."""
    geo, scale = lay.geo, lay.scale
    seas = "".join(el("path", d="".join(_ring_path(r) for r in a["polygons"]), fill="url(#sea-grad)")
                   for a in geo["areas"] if a["kind"] == "sea")
    lines: dict = {"sea": [], "rim": [], "land": []}
    for a, b, p, q in borders(geo["areas"]):
        seg = f"M{_num(p[0])},{_num(p[1])}L{_num(q[0])},{_num(q[1])}"
        if b is None:
            lines["rim"].append(seg)
        elif a["kind"] == "sea" and b["kind"] == "sea":
            lines["sea"].append(seg)
        elif a["kind"] == "land" and b["kind"] == "land":
            lines["land"].append(seg)
    sea_lines = (el("path", d="".join(lines["rim"]), fill="none", **_paint("rim", scale))
                 + el("path", d="".join(lines["sea"]), fill="none", **_paint("sea-border", scale)))
    islands = ""
    for isl in geo["islands"]:
        for ring in isl["outlines"]:
            d = smooth_path(ring)
            islands += (el("path", d=d, fill="none", stroke_linejoin="round", **_paint("shallows"))
                        + el("path", d=d, fill="url(#land-grad)", stroke_linejoin="round", filter="url(#island-shadow)",
                             **_paint("island"))
                        + el("path", d=d, fill="url(#hills)", stroke_linejoin="round", **_paint("island-hills")))
    land_lines = el("path", d="".join(lines["land"]), fill="none", clip_path="url(#land-clip)",
                    **_paint("land-border", scale)) if lines["land"] else ""
    links = "".join(el("line", x1=x["points"][0][0], y1=x["points"][0][1], x2=x["points"][1][0],
                       y2=x["points"][1][1], **_paint(f"link.{x['kind']}"))
                    for x in geo["links"] if x["kind"] in ("volcano", "map"))
    icons = "".join(priestess_icon(ic["cx"], ic["cy"], ic["w"]) if ic["kind"] == "priestess"
                    else volcano(ic["cx"], ic["cy"], ic["w"]) for ic in lay.printed)
    return [seas, sea_lines, islands, land_lines, links, icons]


def _area_pieces(lay: _Layout, a, st, hero_owner, creature_owner, cards, attack) -> tuple:  # noqa: C901  (one case per kind of piece, as board.js draws them)
    """What stands in an area (board.js drawArea): (svg, boxes it takes)."""
    R = lay.R
    z = lay.zones[a["id"]]
    taken = []
    out = []

    def take(x, y, w, h):
        taken.append({"x": x - w / 2, "y": y - h / 2, "w": w, "h": h})

    owner = st["owner"]
    tokens: list = []
    if a["kind"] == "land":
        if st.get("troops"):
            tokens.append(lambda x, y, k: troop(x, y, k, owner, st["troops"], False))
        if st.get("mercs"):
            tokens.append(lambda x, y, k: troop(x, y, k, owner, st["mercs"], True))
        for h in st.get("heroes") or []:
            tokens.append(lambda x, y, k, h=h: hero(x, y, k, hero_owner.get(h, owner), h))
        units = (st.get("troops") or 0) + (st.get("mercs") or 0) + len(st.get("heroes") or [])
        if not units and owner >= 0 and not attack:
            tokens.append(lambda x, y, k: control(x, y, k, owner))
    elif st.get("fleets"):
        tokens.append(lambda x, y, k: fleet(x, y, k, owner, st["fleets"]))
    for c in st.get("creatures") or []:
        tokens.append(lambda x, y, k, c=c: creature(x, y, k, c, cards.get(c, c), creature_owner.get(c, -1)))
    foot = next((ic for ic in z["icons"] if ic["kind"] == "prosperity"), None)
    if st.get("prosperity") and not foot:
        tokens.append(lambda x, y, k: prosperity(x, y, k * 0.75, st["prosperity"]))
    if a["kind"] == "sea" and a.get("cornucopias"):
        tokens.append(lambda x, y, k: cornucopia(x, y, k * 0.8, a["cornucopias"]))
    raiders: list = []
    if attack:
        p = attack["player"]
        if attack.get("troops"):
            raiders.append(lambda x, y, k: troop(x, y, k, p, attack["troops"], False))
        if attack.get("mercs"):
            raiders.append(lambda x, y, k: troop(x, y, k, p, attack["mercs"], True))
        for h in attack.get("heroes") or []:
            raiders.append(lambda x, y, k, h=h: hero(x, y, k, p, h))
        if attack.get("fleets"):
            raiders.append(lambda x, y, k: fleet(x, y, k, p, attack["fleets"]))

    def put(makers, zone):
        for (x, y, size), make in zip(row_of(zone, len(makers), zone["h"]), makers):
            out.append(make(x, y, size))
            take(x, y, size * 1.12, size * 1.12)

    if st.get("prosperity") and foot:
        out.append(prosperity(foot["cx"], foot["cy"], foot["w"] * 0.9, st["prosperity"]))
        take(foot["cx"], foot["cy"], foot["w"], foot["h"])
    many = max(len(tokens), len(raiders))
    zone = {**z["tokens"], "w": max(z["tokens"]["w"], min(many * z["tokens"]["h"] * 1.08, 2.3 * R))}
    if raiders:
        half = zone["h"] / 2
        put(raiders, {**zone, "h": half, "cy": zone["cy"] - half / 2})
        put(tokens, {**zone, "h": half, "cy": zone["cy"] + half / 2})
    else:
        put(tokens, zone)
    if z["sites"]:
        blds = st.get("buildings") or []
        sites = a.get("sites") or []
        wide = [2.1 if i < len(blds) and blds[i] == "metropolis" else 1.1 for i in range(len(sites))]
        wanted = sum(wide) + (1.2 if a.get("cornucopias") else 0)
        S = min(z["sites"]["site"], z["sites"]["w"] / wanted)
        widths = [w * S for w in wide]
        horn = 1.2 * S if a.get("cornucopias") else 0
        total = sum(widths) + horn
        x = z["sites"]["cx"] - total / 2
        y = z["sites"]["cy"]
        take(z["sites"]["cx"], y, total, 1.3 * S)
        for i, w in enumerate(widths):
            b = blds[i] if i < len(blds) else ""
            mid = x + w / 2
            x += w
            if not b:
                out.append(empty_site(mid, y, S * 0.92))
            elif b == "metropolis":
                out.append(metropolis(mid, y, S * 0.95, owner))
            else:
                out.append(building(mid, y, S * 0.98, b, owner))
        if a.get("cornucopias"):
            out.append(cornucopia(x + horn / 2, y, S * 1.05, a["cornucopias"]))
    return "".join(out), taken


def _battle(view) -> dict | None:
    """The attacker's units standing in the area of a battle under way (as game.js passes them)."""
    d = view.get("decision") or {}
    if d.get("kind") != "battle" or not d.get("area"):
        return None
    return {"area": d["area"], "player": d.get("attacker", -1), "troops": d.get("attacker_troops") or 0,
            "mercs": d.get("attacker_mercenaries") or 0, "heroes": d.get("attacker_heroes") or [],
            "fleets": d.get("attacker_fleets") or 0}


def board_svg(game, player=None, size=PANEL) -> str:
    """The position as SVG text, `size` (width, height) pixels: the board as the browser draws it
    (from `game.view(player)`, the public view by default), and a line per faction below."""
    view = game.view(player)
    width, height = size
    factions = len(view["players"])
    status = STATUS_ROW * (factions + 1) + 8
    lay = _layout(game.board, width, height - status)
    geo, scale = lay.geo, lay.scale
    W, H = geo["width"], geo["height"]
    vw, vh = width / scale, (height - status) / scale
    ox, oy = (W - vw) / 2, (H - vh) / 2
    hero_owner, creature_owner, cards = {}, {}, {}
    for pl in view["players"]:
        for h in pl.get("heroes") or []:
            hero_owner[h] = pl["index"]
        for c in pl.get("creatures") or []:
            creature_owner[c] = pl["index"]
    for mini, m in (view.get("miniatures") or {}).items():
        creature_owner[mini] = m.get("owner", -1)
        cards[mini] = m.get("card") or mini
    attack = _battle(view)
    areas = {a["id"]: a for a in geo["areas"]}
    land_tints: list[str] = []
    sea_tints: list[str] = []
    pieces: list[str] = []
    taken: list = []
    for st in view["areas"]:
        a = areas.get(st["id"])
        if a is None:
            continue
        if st["owner"] >= 0:
            d = "".join(_ring_path(r) for r in a["polygons"])
            tint = el("path", d=d, fill=colour(st["owner"]), **_paint(f"tint.{a['kind']}"))
            (land_tints if a["kind"] == "land" else sea_tints).append(tint)
        svg, boxes = _area_pieces(lay, a, st, hero_owner, creature_owner, cards,
                                  attack if attack and attack["area"] == st["id"] else None)
        pieces.append(svg)
        taken.extend(boxes)
    placed = place_labels(geo["areas"], lay.R, lay.label_size, measure, lay.printed + taken, (W, H))
    labels = []
    for a in geo["areas"]:
        lab = placed.get(a["id"])
        if not lab:
            continue
        spans = "".join(el("tspan", escape(line), x=rnd(lab["x"]), dy=rnd(lab["lh"]) if i else None)
                        for i, line in enumerate(lab["lines"]))
        style = _paint(f"label.{a['kind']}")
        style["stroke_width"] = rnd(float(style["stroke_width"][:-2]) * lab["size"])
        labels.append(el("text", spans, x=rnd(lab["x"]), y=rnd(lab["y"]), font_size=rnd(lab["size"]),
                         font_family=FONTS["serif"], font_weight="bold",
                         font_style="italic" if a["kind"] == "sea" else None, text_anchor="middle",
                         letter_spacing=rnd(0.01 * lab["size"]), paint_order="stroke", stroke_linejoin="round",
                         **style))
    marks = ""
    if attack and attack["area"] in areas:
        a = areas[attack["area"]]
        d = smooth_path(a["outline"]) if a["kind"] == "land" else "".join(_ring_path(r) for r in a["polygons"])
        marks = el("path", d=d, fill="none", stroke_linejoin="round", **_paint("mark.battle"))
    board = (lay.defs + el("rect", x=rnd(ox), y=rnd(oy), width=rnd(vw), height=rnd(vh),
                             fill=STYLE["board"]["background"])
             + "".join(lay.layers[:3])
             + el("g", "".join(land_tints), clip_path="url(#land-clip)") + "".join(sea_tints)
             + "".join(lay.layers[3:]) + "".join(pieces) + "".join(labels) + marks)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}">',
           el("rect", width=width, height=height, fill="#f4ecd8"),
           el("svg", board, x=0, y=0, width=width, height=height - status,
              viewBox=f"{_num(ox)} {_num(oy)} {_num(vw)} {_num(vh)}"),
           _status(view, width, height - status)]
    return "".join(out) + "</svg>"


def _status(view, width, top) -> str:
    """A line for the game, then a line per faction: its plate, player_k, what it holds."""
    decision = view.get("decision") or {}
    who = view.get("to_move")
    # Players by their ids in the learning APIs (player_0...), in the current language's words
    line = _("cycle {cycle}, {phase}").format(cycle=view["cycle"], phase=view["phase"])
    if view.get("over"):
        winners = (view.get("result") or {}).get("winners") or []
        line = _("cycle {cycle}, game over: won by {winners}").format(
            cycle=view["cycle"], winners=", ".join(f"player_{p}" for p in winners))
    elif decision and isinstance(who, int) and who >= 0:
        line = _("cycle {cycle}, {phase}, {player} to decide").format(
            cycle=view["cycle"], phase=view["phase"], player=f"player_{who}")
    rows = [el("text", escape(line), x=12, y=top + 19, font_size=14, font_family=FONTS["sans"],
               font_weight="bold", fill="#3a2a0c")]
    for k, pl in enumerate(view["players"]):
        y = top + STATUS_ROW * (k + 1) + 17
        p = pl["index"]
        parts = [ngettext("{n} Metropolis", "{n} Metropolises", pl["metropolises"]).format(n=pl["metropolises"]),
                 ngettext("{n} Priestess", "{n} Priestesses", pl["priestesses"]).format(n=pl["priestesses"]),
                 ngettext("{n} Philosopher", "{n} Philosophers", pl["philosophers"]).format(n=pl["philosophers"])]
        if pl.get("gp") is not None:
            parts.append(_("{n} GP").format(n=pl["gp"]))
        if pl.get("team") is not None:
            parts.append(_("team {n}").format(n=pl["team"]))
        if pl.get("eliminated"):
            parts.append(_("eliminated"))
        text = _("{player}: {holdings}").format(player=f"player_{p}", holdings=", ".join(parts))
        rows.append(el("g", plate(p, 0, 0, 8, None), transform=f"translate(22,{y - 5})"))
        rows.append(el("text", escape(text), x=38, y=y, font_size=13, font_family=FONTS["sans"],
                       font_weight="bold" if p == who else None, fill="#1d1a14"))
    return "".join(rows)


def svg_to_rgb(svg: str):
    """Pixels of an SVG: an (height, width, 3) uint8 array (resvg, the bundled fonts only)."""
    import io

    import numpy as np
    try:
        import resvg_py
        from PIL import Image
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise ImportError("rgb_array pictures need resvg-py and matplotlib: pip install 'cyclades[render]'") from e
    png = resvg_py.svg_to_bytes(svg_string=svg, skip_system_fonts=True, font_files=font_files(),
                                serif_family=FONTS["serif"], sans_serif_family=FONTS["sans"],
                                font_family=FONTS["sans"])
    with Image.open(io.BytesIO(bytes(png))) as image:
        return np.asarray(image.convert("RGB"))


def board_rgb(game, player=None, size=PANEL):
    """The picture of `board_svg` as pixels: an (height, width, 3) uint8 array."""
    return svg_to_rgb(board_svg(game, player, size))
