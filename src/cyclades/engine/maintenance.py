"""4- Maintenance Costs: keep each creature miniature by discarding a Priestess.

A kept creature may then move to an adjacent area of the type its card names
that holds no other creature; an unpaid one leaves the board.
"""
from ..content.cards import CREATURES
from . import ops
from .actions import Action
from .frames import Handler, handler, pop, push

# Creatures that act when they arrive in an area: f(g, creature, area, player).
ON_CREATURE_ARRIVES = {}
# Creatures that act during maintenance once kept (the Hydra): f(g, creature, player).
ON_MAINTENANCE = {}


def start_maintenance(g):
    s = g.s
    for p in reversed([p for p in s.turn_order if not s.eliminated[p]]):
        mine = tuple(sorted(c for c, o in s.creature_owner.items() if o == p and c in s.creature_at))
        if mine:
            push(g, "maintain", p, todo=mine, stage="pay")


def creature_destinations(g, c, frm=None) -> list:
    """Areas where creature c may stand: its card's area type, no other creature there."""
    b, s = g.b, g.s
    kind = CREATURES[c].miniature
    occupied = set(s.creature_at.values())
    areas = b.lands if kind == "land" else b.seas if kind == "sea" else range(len(b.ids))
    if frm is not None:
        adj = set(b.adj[frm])
        areas = [a for a in areas if a in adj]
    return [a for a in areas if a not in occupied]


@handler("maintain")
class Maintenance(Handler):
    @staticmethod
    def legal(g, f):
        s, c = g.s, f["todo"][0]
        if f["stage"] == "pay":
            out = [Action("release", what=c)]
            if s.priestesses[f["p"]] > 0:
                out.insert(0, Action("keep", what=c))
            return out
        frm = s.creature_at[c]
        return [Action("stay", what=c)] + [Action("move_creature", what=c, where=g.b.ids[a])
                                            for a in creature_destinations(g, c, frm)]

    @staticmethod
    def apply(g, f, a):
        s, p, c = g.s, f["p"], f["todo"][0]
        if a.kind == "keep":
            s.priestesses[p] -= 1
            g.emit("kept", player=p, card=c)
            f["stage"] = "move"
            return
        if a.kind == "release":
            ops.release_creature(g, c)
        elif a.kind == "move_creature":
            dest = g.b.index[a.where]
            s.creature_at[c] = dest
            g.emit("creature_moved", card=c, area=dest)
            if c in ON_CREATURE_ARRIVES:
                ON_CREATURE_ARRIVES[c](g, c, dest, p)
        if a.kind != "release" and c in ON_MAINTENANCE:
            ON_MAINTENANCE[c](g, c, p)
        f["todo"], f["stage"] = f["todo"][1:], "pay"
        if not f["todo"]:
            pop(g, f)
