"""4- Maintenance Costs: keep each creature miniature by discarding a Priestess.

A kept creature may then move to an adjacent area of the type its card names
that holds no other creature; an unpaid one leaves the board. Scylla and
Charybdis are one card: one Priestess keeps both, and each miniature may move.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..content.i18n import N_
from .actions import Action
from .creatures import EFFECTS, creature_destinations
from .frames import Frame, Handler, handler, pop, push
from .ops import release
from .queries import card_on_board, miniatures_of

if TYPE_CHECKING:
    from .context import Context


def start_maintenance(g: Context) -> None:
    s = g.state
    for p in reversed([p for p in s.turn_order if not s.eliminated[p]]):
        mine = tuple(sorted(c for c, o in s.creature_owner.items() if o == p and card_on_board(g, c)))
        if mine:
            push(g, "maintain", p, cards_left=mine, stage="pay", miniatures=())


class MaintainFrame(Frame):
    """Phase 4: a player keeps or releases each creature card with a miniature on the board."""
    cards_left: tuple[str, ...]  # the player's cards still to pay for, the current one first
    stage: str                   # pay (keep or release it)|move (its miniatures may move)
    miniatures: tuple[str, ...]  # the kept card's miniatures still to move or stay


@handler("maintain", MaintainFrame)
class Maintenance(Handler):
    waits = (N_("You are paying the Maintenance Costs of your Creatures"),
             N_("{player} is paying the Maintenance Costs of their Creatures"))


    @staticmethod
    def legal(g: Context, f: MaintainFrame) -> list[Action]:
        s, c = g.state, f["cards_left"][0]
        if f["stage"] == "pay":
            out = [Action("release", what=c)]
            if s.priestesses[f["player"]] > 0:
                out.insert(0, Action("keep", what=c))
            return out
        m = f["miniatures"][0]
        frm = s.creature_at[m]
        dests = creature_destinations(g, m, frm, f["player"])
        # "a valid adjacent Area": where the card lets it be placed (the Minotaur: on a land
        # area its owner controls).
        valid = set(EFFECTS[c].places(g, f["player"], m))
        dests = [a for a in dests if a in valid]
        return [Action("stay", what=m)] + [Action("move_creature", what=m, where=g.board.ids[a])
                                            for a in dests]

    @staticmethod
    def apply(g: Context, f: MaintainFrame, a: Action) -> None:
        s, p, c = g.state, f["player"], f["cards_left"][0]
        if a.kind == "keep":
            s.priestesses[p] -= 1
            g.emit("kept", player=p, card=c)
            f["stage"], f["miniatures"] = "move", miniatures_of(c)
            return
        if a.kind == "release":
            release(g, c)
        else:
            if a.kind == "move_creature":
                dest = g.board.index[a.where]
                s.creature_at[a.what] = dest
                g.emit("creature_moved", card=a.what, area=a.where)
                EFFECTS[c].arrives(g, a.what, dest, p)
            f["miniatures"] = f["miniatures"][1:]
            if f["miniatures"]:
                return  # Scylla moved or stayed: now Charybdis
            EFFECTS[c].kept(g, c, p)
        f["cards_left"], f["stage"] = f["cards_left"][1:], "pay"
        if not f["cards_left"]:
            pop(g, f)
