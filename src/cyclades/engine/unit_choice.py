"""Choosing which units move, as a short sequence of decisions (R26).

Land Moves, Heroic Moves, Pegasus and Perseus' sacrifice all ask the same
questions once the origin is known: how many troops, how many mercenaries,
which heroes (at least one unit in all). Their frames keep the answers in the
keys `frm`, `t`, `m`, `h` and `stage` (troops | mercs | heroes | dest); each
caller says which heroes of the origin may come along.
"""
from .actions import Action

DONE = Action("done")


def unit_choices(g, f, heroes) -> list:
    """The actions of the current unit stage; `heroes` may come along from `frm`."""
    s, frm, stage = g.s, f["frm"], f["stage"]
    taken = f["t"] + f["m"] + len(f["h"])
    left = [h for h in heroes if h not in f["h"]]
    if stage == "troops":
        low = 0 if (s.mercs[frm] or left or taken) else 1
        return [Action("take", what="troop", n=k) for k in range(low, s.troops[frm] + 1)]
    if stage == "mercs":
        low = 0 if (left or taken) else 1
        return [Action("take", what="merc", n=k) for k in range(low, s.mercs[frm] + 1)]
    return [Action("take_hero", what=h) for h in left] + ([DONE] if taken else [])


def choose_unit(g, f, a, heroes) -> bool:
    """Record a unit choice and skip the stages with nothing to take; False if `a` is no
    unit choice (an origin, a destination...)."""
    if a.kind == "take" and a.what == "troop":
        f["t"], f["stage"] = a.n, "mercs"
    elif a.kind == "take":
        f["m"], f["stage"] = a.n, "heroes"
    elif a.kind == "take_hero":
        f["h"] = f["h"] + (a.what,)
    elif a.kind == "done":
        f["stage"] = "dest"
    else:
        return False
    skip_empty_stages(g, f, heroes)
    return True


def start_units(g, f, frm, heroes):
    """The origin is chosen: ask for troops first, skipping what the area does not hold."""
    f.update(frm=frm, stage="troops", t=0, m=0)
    f.setdefault("h", ())
    skip_empty_stages(g, f, heroes)


def skip_empty_stages(g, f, heroes):
    s, frm = g.s, f["frm"]
    if f["stage"] == "troops" and not s.troops[frm]:
        f["stage"] = "mercs"
    if f["stage"] == "mercs" and not s.mercs[frm]:
        f["stage"] = "heroes"
    if f["stage"] == "heroes" and not [h for h in heroes if h not in f["h"]]:
        f["stage"] = "dest"
