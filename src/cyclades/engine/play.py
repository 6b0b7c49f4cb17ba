"""The decision protocol over a Context: who is to move, what they may do, and the steps that
need no one.

`legal_actions(g)` asks the handler of the frame on top of the stack (engine/frames.py);
`settle(g)` runs the automatic steps (the cycle's phases, the battle dice, the handlers' `auto`)
until a decision is pending or the game is over. The Game (engine/game.py) offers them as
`game.legal_actions()`, `game.to_move` and the end of `game.apply`; the read-only services
(views, wording, invariants) ask them here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import cycle
from .chance import CHANCE
from .frames import HANDLERS

if TYPE_CHECKING:
    from .actions import Action
    from .context import Context

__all__ = ["CHANCE", "legal_actions", "settle", "to_move"]


def to_move(g: Context) -> int | None:
    """The player the game waits on; CHANCE when it waits on chance; None once it is over."""
    s = g.state
    if s.over or not s.stack:
        return None
    return s.stack[-1]["player"]  # type: ignore[no-any-return]


def legal_actions(g: Context) -> list[Action]:
    """The actions the player to move may take (at a chance decision: its outcomes)."""
    legal = g._legal
    if legal is None:
        s = g.state
        if s.over or not s.stack:
            legal = g._legal = []
        else:
            f = s.stack[-1]
            legal = g._legal = HANDLERS[f["kind"]].legal(g, f)
    return list(legal)  # a copy: callers may shuffle or sort it


def settle(g: Context) -> None:
    """Run automatic steps until a decision is pending or the game is over."""
    s = g.state
    while not s.over:
        if not s.stack:
            cycle.advance(g)
            continue
        f = s.stack[-1]
        if not HANDLERS[f["kind"]].auto(g, f):
            break
