"""Metropolises and their bonuses (rulebook, "Metropolises"; R20).

Economic development (the four basic buildings), cultural development (four
Philosophers) and heroic action all build a Metropolis through `push_metropolis`;
its bonus token comes from one shuffled face-down stack and is applied at once.
A conquered Metropolis gives its bonus to the player who lost it. The classic game
has no bonus stack (R20) and puts a Metropolis on the isle's metropolis space (R8).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..content.gods import BUILDINGS, METROPOLIS
from ..content.i18n import N_
from . import ops
from .actions import Action
from .chance import after_chance, draw
from .frames import Count, Frame, Handler, handler, pop, push
from .hooks import Hook, Table
from .ops import ON_BUILDINGS_GAINED, push_metropolis
from .queries import buildings_of, controlled_lands, controlled_seas, empty_sites, lands_with_free_site
from .teams import gain, teammates
from .turns import push_build, push_place_unit

if TYPE_CHECKING:
    from .context import Context


class ElsewhereLegal(Protocol):
    def __call__(self, g: Context, metropolis: MetropolisFrame, /) -> list[Action]: ...


class ElsewhereApply(Protocol):
    def __call__(self, g: Context, metropolis: MetropolisFrame, action: Action, /) -> None: ...


# Places a Metropolis may go instead of a construction site (Penthesilea's card): the actions
# that offer them, and what each action kind does.
ELSEWHERE: Hook[ElsewhereLegal] = Hook("elsewhere", "f(g, metropolis_frame) -> actions placing the "
                                       "Metropolis elsewhere than on a site (Penthesilea's card)")
ELSEWHERE_APPLY: Table[ElsewhereApply] = Table("elsewhere_apply", "action kind -> f(g, metropolis_frame, "
                                               "action): the Metropolis placed elsewhere")


def side_buildings(g: Context, p: int, kinds: tuple[str, ...] = BUILDINGS) -> list[tuple[int, str]]:
    """(site, kind) of the basic buildings that count toward p's economic Metropolis: p's,
    and in team play the whole team's (R22: the team's combined four types)."""
    out = []
    for q in teammates(g, p, include_self=True):
        out.extend(buildings_of(g, q, kinds, for_metropolis=True))
    return out


def check_economic(g: Context, p: int) -> None:
    """As soon as p has a Port, a Fortress, a Temple and a University, they become a Metropolis."""
    have = {k for _, k in side_buildings(g, p)}
    if len(have) == 4 and not any(f["kind"] == "metropolis" and f["player"] == p for f in g.state.stack):
        push_metropolis(g, p, "economic", remove=BUILDINGS)


# ops.take_control and turns.place_building announce buildings gained; this is where they count.
ON_BUILDINGS_GAINED.plug(check_economic, "metropolis")


def _remove_choices(g: Context, f: MetropolisFrame) -> list[tuple[int, int]]:
    """For the next building type to give up: the (site, area) candidates."""
    kind = f["to_remove"][0]
    if f.get("own_only"):
        mine = buildings_of(g, f["player"], (kind,), for_metropolis=True)
    else:
        mine = side_buildings(g, f["player"], (kind,))
    return [(site, g.board.site_area[site]) for site, _ in mine]


class MetropolisFrame(Frame):
    """A Metropolis to build (R20): the buildings it replaces are given up first."""
    how: str          # economic|cultural|heroic
    to_remove: tuple[str, ...]  # the basic building types still to give up, one per building
    own_only: bool    # only the player's own buildings go (Helen, Odysseus), not the team's
    stage: str        # remove|site


@handler("metropolis", MetropolisFrame)
class Metropolis(Handler):
    waits = (N_("You are building a Metropolis: choose where"),
             N_("{player} is building a Metropolis: choose where"))


    @staticmethod
    def auto(g: Context, f: MetropolisFrame) -> bool:
        if f["stage"] == "remove":
            while f["to_remove"]:
                cands = _remove_choices(g, f)
                if not cands:  # lost meanwhile: no metropolis after all
                    pop(g, f)
                    return True
                if len({a for _, a in cands}) > 1 and len(cands) > f["to_remove"].count(f["to_remove"][0]):
                    return False  # the player chooses which one (unless all of them go)
                _give_up(g, f, cands[0][0])
            f["stage"] = "site"
            return True
        if not Metropolis.legal(g, f):  # no land, or no site and no building to replace
            g.emit("metropolis_impossible", player=f["player"])
            pop(g, f)
            return True
        return False

    @staticmethod
    def legal(g: Context, f: MetropolisFrame) -> list[Action]:
        b = g.board
        if f["stage"] == "remove":
            return [Action("remove", what=f["to_remove"][0], where=b.ids[a])
                    for a in sorted({a for _, a in _remove_choices(g, f)})]
        elsewhere = [a for legal in ELSEWHERE for a in legal(g, f)]
        free = metropolis_places(g, f["player"])
        if free:
            return [Action("metropolis", where=b.ids[a]) for a in free] + elsewhere
        # No free site: one of the player's basic buildings must make way.
        seen = sorted({(k, b.site_area[site]) for site, k in buildings_of(g, f["player"])})
        return [Action("replace", what=k, where=b.ids[a]) for k, a in seen] + elsewhere

    @staticmethod
    def apply(g: Context, f: MetropolisFrame, act: Action) -> None:
        if act.kind not in ("remove", "replace", "metropolis"):
            pop(g, f)
            ELSEWHERE_APPLY[act.kind](g, f, act)
            return
        area = g.board.index[act.where]
        if act.kind == "remove":
            site = next(site for site, a in _remove_choices(g, f) if a == area)
            _give_up(g, f, site)
            return
        if act.kind == "replace":
            site = next(i for i in _area_sites(g, area) if g.state.sites[i] == act.what)
            g.emit("demolished", player=f["player"], building=act.what, area=act.where)
        else:
            site = metropolis_site(g, area)
        pop(g, f)
        build_metropolis(g, f["player"], site, f["how"])


def metropolis_places(g: Context, p: int) -> list[int]:
    """Land areas of p where a new Metropolis may go: one with an empty site, or on the classic
    board (R8) an isle whose metropolis space is free. With none, a basic building of p's must
    make way ("If no space is free for a new metropolis, destroy your own buildings")."""
    b, sites = g.board, g.state.sites
    if any(m >= 0 for m in b.metro_site):
        return [a for a in controlled_lands(g, p) if b.metro_site[a] >= 0 and not sites[b.metro_site[a]]]
    return lands_with_free_site(g, p)


def metropolis_site(g: Context, area: int) -> int:
    """The site a Metropolis takes in an area offered by `metropolis_places`."""
    m = g.board.metro_site[area]
    return m if m >= 0 else empty_sites(g, area)[0]


def _area_sites(g: Context, a: int) -> range:
    return range(g.board.site_start[a], g.board.site_start[a] + g.board.sites[a])


def _give_up(g: Context, f: MetropolisFrame, site: int) -> None:
    g.state.sites[site] = ""
    f["to_remove"] = f["to_remove"][1:]


def build_metropolis(g: Context, p: int, site: int, how: str) -> None:
    """The Metropolis, and its bonus token from the top of the stack (R28: none once the stack
    is empty; the classic game has none, R20)."""
    g.state.sites[site] = METROPOLIS
    draw(g, "bonus_stack", 1, "metropolis_bonus", (p, site, how))


@after_chance("metropolis_bonus")
def _bonus_drawn(g: Context, bonuses: tuple[Any, ...], args: tuple[Any, ...]) -> None:
    p, site, how = args
    bonus = bonuses[0]
    if bonus:
        g.state.metro_bonus[site] = bonus
    g.emit("metropolis", player=p, area=g.board.ids[g.board.site_area[site]], how=how, bonus=bonus)
    if bonus:
        apply_bonus(g, p, bonus)


def metropolis_conquered(g: Context, area: int, loser: int) -> None:
    """The player who lost a metropolis benefits from its bonus at once (R20)."""
    s = g.state
    if s.eliminated[loser]:
        return
    for site in _area_sites(g, area):
        if s.sites[site] == METROPOLIS and site in s.metro_bonus:
            g.emit("metropolis_lost", player=loser, area=g.board.ids[area], bonus=s.metro_bonus[site])
            apply_bonus(g, loser, s.metro_bonus[site])


# --- the eight bonuses (rulebook, "Metropolis Bonuses") -------------------------------

def apply_bonus(g: Context, p: int, bonus: str) -> None:
    if bonus == "three-gp":
        gain(g, p, 3)
    elif bonus == "priestess":
        ops.gain_priestess(g, p)
    elif bonus == "two-troops":
        push_place_unit(g, p, "troop", 2)
    elif bonus == "two-fleets":
        push(g, "bonus_fleet", p, left=2)
    elif bonus == "troop-and-fleet":
        # Pushed last is decided first: the troop, then the fleet.
        push(g, "bonus_fleet", p, left=1)
        push_place_unit(g, p, "troop", 1)
    elif bonus == "prosperity":
        push(g, "prosper", p, left=("own",))
    elif bonus == "basic-building":
        push_build(g, p, "", may_replace=False)
        g.state.stack[-1]["any_type"] = True
    elif bonus == "reserve-creature":
        push(g, "reserve", p)
    else:
        raise ValueError(f"unknown metropolis bonus {bonus!r}")


class BonusFleetFrame(Frame):
    left: Count  # fleets still to place


@handler("bonus_fleet", BonusFleetFrame)
class BonusFleet(Handler):
    """Fleets go to sea areas the player already controls (Gain two Fleets)."""

    waits = (N_("You are placing your bonus Fleets"),
             N_("{player} is placing their bonus Fleets"))

    @staticmethod
    def legal(g: Context, f: BonusFleetFrame) -> list[Action]:
        if not g.state.fleets_left[f["player"]]:
            return []
        return [Action("place_fleet", where=g.board.ids[a]) for a in controlled_seas(g, f["player"])]

    @staticmethod
    def auto(g: Context, f: BonusFleetFrame) -> bool:
        if not BonusFleet.legal(g, f):
            pop(g, f)
            return True
        return False

    @staticmethod
    def apply(g: Context, f: BonusFleetFrame, a: Action) -> None:
        ops.place_fleets(g, g.board.index[a.where], f["player"])
        f["left"] -= 1
        if not f["left"]:
            pop(g, f)


class ReserveFrame(Frame):
    """The bonus "reserve a creature": no field of its own."""


@handler("reserve", ReserveFrame)
class ReserveCreature(Handler):
    """A control token on a creature of the track: only its owner may buy it."""

    waits = (N_("You may reserve a Creature of the track (a Metropolis bonus)"),
             N_("{player} may reserve a Creature of the track (a Metropolis bonus)"))

    @staticmethod
    def legal(g: Context, f: ReserveFrame) -> list[Action]:
        s = g.state
        return [Action("reserve", what=c) for c in s.creature_track if c and c not in s.reserved]

    @staticmethod
    def auto(g: Context, f: ReserveFrame) -> bool:
        if not ReserveCreature.legal(g, f):
            pop(g, f)
            return True
        return False

    @staticmethod
    def apply(g: Context, f: ReserveFrame, a: Action) -> None:
        g.state.reserved[a.what] = f["player"]
        g.emit("reserved", player=f["player"], card=a.what)
        pop(g, f)
