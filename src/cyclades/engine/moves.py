"""Sea Moves, Land Moves and Heroic Moves (rulebook; R14, R17, R19, R26).

A move is a short sequence of decisions (origin, units, destination) that the
player may cancel before its last step; nothing changes and nothing is paid
until the destination is chosen.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from ..content.gods import APOLLO, GODS
from ..content.i18n import N_
from . import ops
from .actions import Action
from .battle import creature_units, start_battle
from .frames import Addressed, Count, Frame, From, Handler, handler, nearest, pop, push
from .heroes import heroes_arrive
from .hooks import Hook
from .queries import (
    MODIFIERS,
    accessible_lands,
    can_enter_sea,
    can_leave_land,
    controlled_lands,
    heroes_at,
    sea_neighbours,
)
from .scoring import side_metropolises
from .state import NOBODY
from .teams import friends, may_attack, pay, purse
from .turns import TurnFrame, menu_item
from .unit_choice import UnitChoice, choose_unit, start_units, unit_choices

if TYPE_CHECKING:
    from .context import Context

CANCEL = Action("cancel")


class HeroicCost(Protocol):
    def __call__(self, g: Context, turn: TurnFrame, hero: str, cost: int, /) -> int: ...


class HeroRule(Protocol):
    def __call__(self, g: Context, hero: str, /) -> bool: ...


class HeroicReach(Protocol):
    def __call__(self, g: Context, player: int, origin: int, hero: str, /) -> set[int]: ...


class MoveHooks(TypedDict):
    heroic_cost: Hook[HeroicCost]
    heroic_with_apollo: Hook[HeroRule]
    heroic_reach: Hook[HeroicReach]


# Heroes' military powers on Heroic Moves.
MOVES: MoveHooks = {
    "heroic_cost": Hook("heroic_cost", "f(g, turn, hero, cost) -> the cost of this hero's Heroic "
                        "Move (Pericles)"),
    "heroic_with_apollo": Hook("heroic_with_apollo", "f(g, hero) -> True: the hero may make Heroic "
                               "Moves with Apollo (Leto)"),
    "heroic_reach": Hook("heroic_reach", "f(g, player, origin, hero) -> extra land areas the move "
                         "may reach (Jason)"),
}
HOOKS = MOVES


# --- where units may go ---------------------------------------------------------

def land_destinations(g: Context, p: int, frm: int, hero: str = "") -> list[int]:
    """Where a Land Move from frm may go; `hero` names the hero of a Heroic Move (Jason)."""
    if not can_leave_land(g, p, frm):
        return []
    s = g.state
    out = []
    for a in accessible_lands(g, p, frm) | heroic_reach(g, p, frm, hero):
        q = s.ctrl[a]
        if q not in (p, NOBODY):
            if not may_attack(g, p, q, a):
                continue
            if not last_area_attack_allowed(g, p, q, a):
                continue
        out.append(a)
    return sorted(out)


def heroic_reach(g: Context, p: int, frm: int, hero: str) -> set[int]:
    if not hero or not HOOKS["heroic_reach"]:
        return set()
    out = set()
    for fn in HOOKS["heroic_reach"]:
        out |= fn(g, p, frm, hero)
    out.discard(frm)
    return {a for a in out if all(fn(g, p, a) for fn in MODIFIERS["can_enter_land"])}


def fleet_route(g: Context, p: int, frm: int, dest: int, carries: Callable[[int], bool]) -> tuple[int, ...]:
    """The sea areas of a shortest chain of fleets from frm to dest, `carries(sea)` saying which
    seas carry the move: what a Land Move across the sea passes through. () when the two land
    areas are adjacent (or no chain joins them)."""
    b = g.board
    if dest in b.land_adj[frm]:
        return ()
    back: dict[int, int | None] = {x: None for x in b.coast[frm] if carries(x)}
    todo = sorted(back)
    while todo:
        nxt = []
        for sea in todo:
            if dest in b.coast[sea]:
                route = []
                at: int | None = sea
                while at is not None:
                    route.append(at)
                    at = back[at]
                return tuple(reversed(route))
            for x in sea_neighbours(g, p, sea):
                if x not in back and carries(x):
                    back[x] = sea
                    nxt.append(x)
        todo = nxt
    return ()


def last_area_attack_allowed(g: Context, p: int, q: int, a: int) -> bool:
    """R19: a player's last land area may be attacked only if winning it gives the
    attacker the metropolises needed to end the game; in team play (R30) the team's,
    the teammates' metropolises counted, against the team goal."""
    ctrl = g.state.ctrl
    for x in g.board.lands:  # does q hold another land area? (without building the list)
        if x != a and ctrl[x] == q:
            return True
    in_area = sum(1 for i in range(g.board.site_start[a], g.board.site_start[a] + g.board.sites[a])
                  if g.state.sites[i] == "metropolis")
    return side_metropolises(g, p) + in_area >= g.goal


def sea_destinations(g: Context, p: int, frm: int) -> list[int]:
    s = g.state
    out = []
    for x in sea_neighbours(g, p, frm):
        q = s.ctrl[x]
        if not can_enter_sea(g, p, x):
            continue
        if q not in (p, NOBODY) and s.fleets[x] and not may_attack(g, p, q, x):
            continue
        out.append(x)
    return out


# --- arriving -----------------------------------------------------------------

def arrive_land(g: Context, p: int, dest: int, troops: int, mercs: int, heroes: tuple[str, ...], frm: int,
                route: tuple[int, ...] = ()) -> None:
    """Units of p enter a land area: join, take an undefended area, or fight (rulebook, Land Move).
    `route` lists the sea areas the move passed through."""
    s = g.state
    heroes_arrive(g, p, dest, heroes, route)  # Heracles, before anything else happens there
    q = s.ctrl[dest]
    defended = q not in (NOBODY, p) and (s.troops[dest] or s.mercs[dest] or heroes_at(g, dest, count=True)
                                         or creature_units(g, dest, q))
    if defended:
        start_battle(g, p, q, dest, frm, troops=troops, mercs=mercs, heroes=tuple(heroes))
        return
    if q not in (NOBODY, p):
        g.emit("token_returned", player=q, area=g.board.ids[dest])
    s.troops[dest] += troops
    s.mercs[dest] += mercs
    for h in heroes:
        s.hero_at[h] = dest
    g.emit("moved", player=p, origin=g.board.ids[frm], destination=g.board.ids[dest], troops=troops, mercs=mercs,
           heroes=list(heroes), fleets=0)
    ops.take_control(g, dest, p)


def arrive_sea(g: Context, p: int, dest: int, fleets: int, frm: int) -> None:
    s = g.state
    q = s.ctrl[dest]
    if q not in (NOBODY, p) and s.fleets[dest]:
        start_battle(g, p, q, dest, frm, fleets=fleets)
        return
    s.fleets[dest] += fleets
    g.emit("moved", player=p, origin=g.board.ids[frm], destination=g.board.ids[dest], troops=0, mercs=0, heroes=[],
           fleets=fleets)
    ops.take_control(g, dest, p)


def leave_land(g: Context, frm: int, troops: int, mercs: int, heroes: tuple[str, ...]) -> None:
    """Units leave; an emptied area keeps its controller's token (R16)."""
    s = g.state
    s.troops[frm] -= troops
    s.mercs[frm] -= mercs
    for h in heroes:
        del s.hero_at[h]


# --- Land Move (Ares) and Heroic Move ------------------------------------------------

def movable_origins(g: Context, p: int) -> list[int]:
    return list(_movable_origins(g, p))


def _movable_origins(g: Context, p: int) -> Iterator[int]:
    s = g.state
    return (a for a in controlled_lands(g, p)
            if (s.troops[a] or s.mercs[a] or heroes_at(g, a, count=True)) and land_destinations(g, p, a))


def _land_move_legal(g: Context, f: TurnFrame) -> list[Action]:
    # The turn's menu only asks whether there is an origin: stop at the first (a generator).
    if f["god"] != "ares" or purse(g, f["player"]) < 1 or next(_movable_origins(g, f["player"]), None) is None:
        return []
    return [Action("land_move", n=1)]


def _land_move_apply(g: Context, f: TurnFrame, a: Action) -> None:
    push(g, "land_move", f["player"], stage="origin", origin=-1, troops=0, mercenaries=0, heroes=(),
         cost=1, hero="")


def heroic_cost(g: Context, f: TurnFrame, hero: str) -> int:
    """R14: the n-th Heroic Move of the turn costs n GP, over all the player's heroes
    (Pericles' moves cost 1 GP but still count)."""
    cost = f["heroic_moves"] + 1
    for fn in HOOKS["heroic_cost"]:
        cost = fn(g, f, hero, cost)
    return cost


def _heroic_allowed(g: Context, f: TurnFrame, hero: str) -> bool:
    """Rulebook, Heroic Move: with any god but Apollo and Ares (Leto: with Apollo too)."""
    if f["god"] == APOLLO:
        return any(fn(g, hero) for fn in HOOKS["heroic_with_apollo"])
    return GODS[f["god"]].heroic_moves


def _heroic_legal(g: Context, f: TurnFrame) -> list[Action]:
    s, p = g.state, f["player"]
    if f["god"] != APOLLO and not GODS[f["god"]].heroic_moves:
        return []
    out = []
    for h, at in sorted(s.hero_at.items()):
        if s.hero_owner.get(h) == p and _heroic_allowed(g, f, h):
            cost = heroic_cost(g, f, h)
            if purse(g, p) >= cost and land_destinations(g, p, at, h):
                out.append(Action("heroic_move", what=h, n=cost))
    return out


def _heroic_apply(g: Context, f: TurnFrame, a: Action) -> None:
    frm = g.state.hero_at[a.what]
    move = push(g, "land_move", f["player"], stage="origin", origin=-1, heroes=(a.what,), cost=a.n,
                hero=a.what)
    start_units(g, move, frm, [])


menu_item("land_move", ("land_move",))((_land_move_legal, _land_move_apply))
menu_item("heroic_move", ("heroic_move",))((_heroic_legal, _heroic_apply))


def _companions(g: Context, f: LandMoveFrame) -> list[str]:
    """Heroes who may come along: any of the origin's with Ares; on a Heroic Move only the
    moving hero, already chosen."""
    return [] if f["hero"] else heroes_at(g, f["origin"])


class LandMoveFrame(Frame, UnitChoice):
    """A Land Move (Ares) or a Heroic Move; the unit choice's fields (engine/unit_choice.py):
    stage origin|troops|mercs|heroes|dest, origin, troops, mercenaries, heroes."""
    cost: Count  # GP paid when the destination is chosen
    hero: str    # the hero of a Heroic Move ("" for a Land Move)


# What a move waits on, by the kind of move and its step: (to the player, about them).
MOVE_STEPS = {
    ("land", "origin"): (N_("You are making a Land Move: choose where the units leave from"),
                         N_("{player} is making a Land Move: choose where the units leave from")),
    ("land", "dest"): (N_("You are making a Land Move: choose where they go"),
                       N_("{player} is making a Land Move: choose where they go")),
    ("land", "units"): (N_("You are making a Land Move: choose the units that go"),
                        N_("{player} is making a Land Move: choose the units that go")),
    ("heroic", "origin"): (N_("You are making a Heroic Move: choose where the units leave from"),
                           N_("{player} is making a Heroic Move: choose where the units leave from")),
    ("heroic", "dest"): (N_("You are making a Heroic Move: choose where they go"),
                         N_("{player} is making a Heroic Move: choose where they go")),
    ("heroic", "units"): (N_("You are making a Heroic Move: choose the units that go"),
                          N_("{player} is making a Heroic Move: choose the units that go")),
    ("sea", "origin"): (N_("You are making a Sea Move: choose where the units leave from"),
                        N_("{player} is making a Sea Move: choose where the units leave from")),
    ("sea", "dest"): (N_("You are making a Sea Move: choose where they go"),
                      N_("{player} is making a Sea Move: choose where they go")),
    ("sea", "units"): (N_("You are making a Sea Move: choose how many Fleets go"),
                       N_("{player} is making a Sea Move: choose how many Fleets go")),
}


def move_step(f: Any, legal: list[Action]) -> str:
    """Where a move stands, as its sentence says it: "origin", "dest" or "units"."""
    stage = f.get("stage")
    if stage == "origin":
        return "origin"
    if "destination" in {a.kind for a in legal} or stage in ("dest", "route"):
        return "dest"
    return "units"

@handler("land_move", LandMoveFrame)
class LandMove(Handler):
    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        return who.say(*MOVE_STEPS["heroic" if f.get("hero") else "land", move_step(f, cls.legal(g, f))])


    @staticmethod
    def legal(g: Context, f: LandMoveFrame) -> list[Action]:
        b, p, stage, frm = g.board, f["player"], f["stage"], f["origin"]
        if stage == "origin":
            return [Action("origin", where=b.ids[a]) for a in movable_origins(g, p)] + [CANCEL]
        if stage != "dest":
            return [*unit_choices(g, f, _companions(g, f)), CANCEL]
        return [Action("destination", where=b.ids[a])
                for a in land_destinations(g, p, frm, f["hero"])] + [CANCEL]

    @staticmethod
    def apply(g: Context, f: LandMoveFrame, a: Action) -> None:
        if a.kind == "cancel":
            pop(g, f)
            return
        if a.kind == "origin":
            f["origin"] = g.board.index[a.where]
            start_units(g, f, f["origin"], _companions(g, f))
        elif not choose_unit(g, f, a, _companions(g, f)):
            _finish_land_move(g, f, g.board.index[a.where])  # the destination: moved and paid now


def _finish_land_move(g: Context, f: LandMoveFrame, dest: int) -> None:
    p, frm = f["player"], f["origin"]
    pop(g, f)
    pay(g, p, f["cost"])
    if f["hero"]:
        turn = nearest(g, "turn")
        if turn is not None:
            turn["heroic_moves"] += 1
    g.emit("land_move", player=p, origin=g.board.ids[frm], destination=g.board.ids[dest], cost=f["cost"],
           hero=f["hero"] or None)
    leave_land(g, frm, f["troops"], f["mercenaries"], f["heroes"])
    arrive_land(g, p, dest, f["troops"], f["mercenaries"], f["heroes"], frm,
                _route(g, p, frm, dest, f["heroes"]))


def _route(g: Context, p: int, frm: int, dest: int, heroes: tuple[str, ...]) -> tuple[int, ...]:
    """The seas a move with heroes passed through (Heracles): a shortest chain of the player's
    fleets (R17), or of any fleets for a move only the Heroic Move's reach allows (Jason)."""
    if not heroes:
        return ()
    s = g.state
    route = fleet_route(g, p, frm, dest, lambda x: s.fleets[x] > 0 and friends(g, p, s.ctrl[x]))
    return route or fleet_route(g, p, frm, dest, lambda x: s.fleets[x] > 0)


# --- Sea Move (Poseidon) --------------------------------------------------------------

def sea_origins(g: Context, p: int) -> list[int]:
    return list(_sea_origins(g, p))


def _sea_origins(g: Context, p: int) -> Iterator[int]:
    s = g.state
    return (a for a in g.board.seas if s.ctrl[a] == p and s.fleets[a] and sea_destinations(g, p, a))


def _sea_move_legal(g: Context, f: TurnFrame) -> list[Action]:
    if f["god"] != "poseidon" or purse(g, f["player"]) < 1 or next(_sea_origins(g, f["player"]), None) is None:
        return []
    return [Action("sea_move", n=1)]


def _sea_move_apply(g: Context, f: TurnFrame, a: Action) -> None:
    push(g, "sea_move", f["player"], stage="origin", origin=-1, fleets=0)


# R17: a Legendary sea move goes to one adjacent sea; the classic fleet move is engine/classic.py.
menu_item("sea_move", ("sea_move",), when=lambda r: r.sea_move == "adjacent")(
    (_sea_move_legal, _sea_move_apply))


class SeaMoveFrame(Frame):
    """A Legendary Sea Move (Poseidon): fleets to one adjacent sea (R17)."""
    stage: str     # origin|count|dest
    origin: From   # the sea the fleets leave (-1 until chosen)
    fleets: Count  # how many move


@handler("sea_move", SeaMoveFrame)
class SeaMove(Handler):
    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        return who.say(*MOVE_STEPS["sea", move_step(f, cls.legal(g, f))])

    @staticmethod
    def legal(g: Context, f: SeaMoveFrame) -> list[Action]:
        s, b, p = g.state, g.board, f["player"]
        if f["stage"] == "origin":
            return [Action("origin", where=b.ids[a]) for a in sea_origins(g, p)] + [CANCEL]
        if f["stage"] == "count":
            return [Action("take", what="fleet", n=k) for k in range(1, s.fleets[f["origin"]] + 1)] + [CANCEL]
        return [Action("destination", where=b.ids[a]) for a in sea_destinations(g, p, f["origin"])] + [CANCEL]

    @staticmethod
    def apply(g: Context, f: SeaMoveFrame, a: Action) -> None:
        if a.kind == "cancel":
            pop(g, f)
        elif a.kind == "origin":
            f["origin"], f["stage"] = g.board.index[a.where], "count"
        elif a.kind == "take":
            f["fleets"], f["stage"] = a.n, "dest"
        else:
            s, p, frm, n = g.state, f["player"], f["origin"], f["fleets"]
            dest = g.board.index[a.where]
            pop(g, f)
            pay(g, p, 1)
            g.emit("sea_move", player=p, origin=g.board.ids[frm], destination=a.where, fleets=n, cost=1)
            s.fleets[frm] -= n
            if not s.fleets[frm]:
                s.ctrl[frm] = NOBODY  # an empty sea area is controlled by no one (R16)
            arrive_sea(g, p, dest, n, frm)
