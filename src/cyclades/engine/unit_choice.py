"""Choosing which units move, as a short sequence of decisions (R26).

Land Moves, Heroic Moves, Pegasus and Perseus' sacrifice all ask the same
questions once the origin is known: how many troops, how many mercenaries,
which heroes (at least one unit in all). Their frames keep the answers in the
fields of `UnitChoice`; each caller says which heroes of the origin may come along.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from .actions import Action
from .frames import Count, From

if TYPE_CHECKING:
    from .context import Context


class UnitChoice(TypedDict, total=False):
    """The fields of a frame that chooses units to move (land_move, and the creature and sacrifice
    frames of Pegasus and Perseus)."""
    stage: str         # troops|mercs|heroes|dest once the origin is chosen
    origin: From       # the land area the units leave (-1 until chosen)
    troops: Count      # troops taken
    mercenaries: Count  # mercenaries taken
    heroes: tuple[str, ...]  # heroes taken (names)


DONE = Action("done")


def unit_choices(g: Context, f: UnitChoice, heroes: list[str]) -> list[Action]:
    """The actions of the current unit stage; `heroes` may come along from the origin."""
    s, frm, stage = g.state, f["origin"], f["stage"]
    taken = f["troops"] + f["mercenaries"] + len(f["heroes"])
    left = [h for h in heroes if h not in f["heroes"]]
    if stage == "troops":
        low = 0 if (s.mercs[frm] or left or taken) else 1
        return [Action("take", what="troop", n=k) for k in range(low, s.troops[frm] + 1)]
    if stage == "mercs":
        low = 0 if (left or taken) else 1
        return [Action("take", what="merc", n=k) for k in range(low, s.mercs[frm] + 1)]
    return [Action("take_hero", what=h) for h in left] + ([DONE] if taken else [])


def choose_unit(g: Context, f: UnitChoice, a: Action, heroes: list[str]) -> bool:
    """Record a unit choice and skip the stages with nothing to take; False if `a` is no
    unit choice (an origin, a destination...)."""
    if a.kind == "take" and a.what == "troop":
        f["troops"], f["stage"] = a.n, "mercs"
    elif a.kind == "take":
        f["mercenaries"], f["stage"] = a.n, "heroes"
    elif a.kind == "take_hero":
        f["heroes"] = f["heroes"] + (a.what,)
    elif a.kind == "done":
        f["stage"] = "dest"
    else:
        return False
    skip_empty_stages(g, f, heroes)
    return True


def start_units(g: Context, f: UnitChoice, frm: int, heroes: list[str]) -> None:
    """The origin is chosen: ask for troops first, skipping what the area does not hold."""
    f["origin"], f["stage"], f["troops"], f["mercenaries"] = frm, "troops", 0, 0
    f.setdefault("heroes", ())
    skip_empty_stages(g, f, heroes)


def skip_empty_stages(g: Context, f: UnitChoice, heroes: list[str]) -> None:
    s, frm = g.state, f["origin"]
    if f["stage"] == "troops" and not s.troops[frm]:
        f["stage"] = "mercs"
    if f["stage"] == "mercs" and not s.mercs[frm]:
        f["stage"] = "heroes"
    if f["stage"] == "heroes" and not [h for h in heroes if h not in f["heroes"]]:
        f["stage"] = "dest"
