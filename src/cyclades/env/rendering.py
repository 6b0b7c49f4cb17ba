"""The environments' render(): "human" prints the position as text (`encoding.render_text`, what
a spectator sees), "ansi" returns that text, "rgb_array" returns the board as pixels, drawn as
the browser draws it (`board_image.board_rgb`: an (720, 960, 3) uint8 array; needs the
`render` extra, resvg-py and matplotlib)."""
from __future__ import annotations

from ..agents import encoding

RENDER_MODES = ["ansi", "human", "rgb_array"]
RENDER_FPS = 2   # for video recorders: a decision every half second


def check_render_mode(mode):
    """`mode` if it is one of RENDER_MODES or None; else a ValueError naming them."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES}, not {mode!r}")
    return mode


def render(mode, game):
    """The render() of an environment in `mode` showing `game` (None before the first reset)."""
    if mode == "rgb_array" and game is not None:
        from .board_image import board_rgb
        return board_rgb(game)
    return encoding.render(mode, game)
