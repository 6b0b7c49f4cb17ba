"""The factions' colours stay apart for colour-blind players, and the text on them can be read.

The colours are the browser's (web/static/common.js). Each pair is compared in CIELAB after
simulating protanopia, deuteranopia and tritanopia (the matrices of Machado, Oliveira and
Fernandes 2009, severity 1), and with normal sight; a difference of 20 is plainly visible.
Every faction also has a shape of its own, drawn on its pieces' plates and its Control tokens.
"""
from __future__ import annotations

import itertools
import re

import pytest
from repository import ROOT

COMMON = ROOT / "src" / "cyclades" / "web" / "static" / "common.js"

SIMULATIONS = {
    "normal sight": ((1, 0, 0), (0, 1, 0), (0, 0, 1)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
MIN_DIFFERENCE = 20.0  # CIE76 delta E
MIN_CONTRAST = 4.5  # WCAG AA for the names written on the colours (chips, plates)


def _array(name: str) -> list[str]:
    text = COMMON.read_text()
    m = re.search(rf"export const {name} = \[([^\]]*)\]", text)
    assert m, f"{name} is not in common.js"
    return re.findall(r'"([^"]+)"', m.group(1))


def _linear(hex_colour: str) -> tuple[float, ...]:
    if len(hex_colour) == 4:  # "#fff"
        hex_colour = "#" + "".join(c * 2 for c in hex_colour[1:])

    def one(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return tuple(one(int(hex_colour[i:i + 2], 16) / 255) for i in (1, 3, 5))


def _lab(rgb) -> tuple[float, float, float]:
    r, g, b = rgb
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116
    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def _seen(hex_colour: str, matrix) -> tuple[float, float, float]:
    rgb = _linear(hex_colour)
    return _lab(tuple(min(1.0, max(0.0, sum(m * c for m, c in zip(row, rgb)))) for row in matrix))


def _luminance(hex_colour: str) -> float:
    r, g, b = _linear(hex_colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_six_colours_names_inks_and_shapes():
    colours, names, inks, shapes = (_array(n) for n in
                                    ("PLAYER_COLOURS", "PLAYER_COLOUR_NAMES", "PLAYER_INK", "FACTION_SHAPES"))
    assert len(colours) == len(names) == len(inks) == len(shapes) == 6
    assert len(set(colours)) == len(set(names)) == len(set(shapes)) == 6


@pytest.mark.parametrize("sight", list(SIMULATIONS))
def test_every_pair_of_faction_colours_stays_apart(sight):
    colours, names = _array("PLAYER_COLOURS"), _array("PLAYER_COLOUR_NAMES")
    seen = [_seen(c, SIMULATIONS[sight]) for c in colours]
    close = []
    for i, j in itertools.combinations(range(len(colours)), 2):
        difference = sum((a - b) ** 2 for a, b in zip(seen[i], seen[j])) ** 0.5
        if difference < MIN_DIFFERENCE:
            close.append(f"{names[i]} and {names[j]}: {difference:.1f}")
    assert not close, f"with {sight} these factions look alike: {close}"


def test_text_on_each_colour_can_be_read():
    for colour, ink, name in zip(_array("PLAYER_COLOURS"), _array("PLAYER_INK"), _array("PLAYER_COLOUR_NAMES")):
        light, dark = sorted((_luminance(colour), _luminance(ink)), reverse=True)
        contrast = (light + 0.05) / (dark + 0.05)
        assert contrast >= MIN_CONTRAST, f"{ink} on {name} ({colour}): contrast {contrast:.2f}"
