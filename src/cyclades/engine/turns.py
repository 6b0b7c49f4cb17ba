"""5- Actions: a god's turn (rulebook, "Athena" to "Apollo"; R13, R14).

The mandatory free actions come first (the building, then the recruit; in the
classic game only the recruit), then the player may take the optional paid
actions in any order and ends the turn. Which optional actions a ruleset offers
is said where each is registered (`menu_item(..., when=...)`).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..content.gods import APOLLO, BUILDINGS, GODS
from ..content.i18n import N_
from . import ops
from .actions import Action, new_action
from .frames import Addressed, Count, Frame, Handler, handler, pop, push
from .hooks import Table
from .naming import god_name
from .ops import ON_BUILDINGS_GAINED
from .phrases import a_thing, count_of
from .queries import (
    buildings_of,
    can_enter_sea,
    can_place_land,
    controlled_lands,
    controlled_seas,
    empty_sites,
    lands_with_free_site,
)
from .state import NOBODY
from .teams import gain, pay, purse

if TYPE_CHECKING:
    from ..content.rulesets import Ruleset
    from .context import Context


class MenuLegal(Protocol):
    def __call__(self, g: Context, turn: TurnFrame, /) -> list[Action]: ...


class MenuApply(Protocol):
    def __call__(self, g: Context, turn: TurnFrame, action: Action, /) -> None: ...


MenuItem = tuple[MenuLegal, MenuApply]


class PlayerStep(Protocol):
    def __call__(self, g: Context, player: int, /) -> None: ...


# name -> (legal(g, turn_frame) -> actions, apply(g, turn_frame, action)): the optional actions
# of a god's turn menu. Filled by `menu_item(...)`, which also notes the action kinds each item
# answers and the rulesets that offer it.
MENU: dict[str, MenuItem] = {}
# ruleset.apollo -> f(g, player): Apollo's favour (R9; classic.py adds "classic").
APOLLO_REWARDS: Table[PlayerStep] = Table("apollo_rewards", "ruleset.apollo -> f(g, player): Apollo's favour (R9)")
# ruleset.upkeep -> f(g, player): as a player's turn starts (classic: their creatures leave).
TURN_START: Table[PlayerStep] = Table("turn_start", "ruleset.upkeep -> f(g, player): as a player's turn starts "
                                      "(classic: their creatures leave)")

_MENU_KIND: dict[str, MenuItem] = {}  # action kind -> the item that answers it
# name -> when(ruleset) -> bool: the rulesets that offer the item (absent: all of them).
_MENU_WHEN: dict[str, Callable[[Ruleset], bool]] = {}
_MENU_FOR: dict[str, tuple[MenuItem, ...]] = {}  # ruleset name -> the items it offers, in menu order


def menu_item(name: str, kinds: tuple[str, ...],
              when: Callable[[Ruleset], bool] | None = None) -> Callable[[MenuItem], MenuItem]:
    """Register a turn menu item; `when(ruleset)` limits it to the rulesets that have it (R1)."""
    def register(fns: MenuItem) -> MenuItem:
        MENU[name] = fns
        if when is not None:
            _MENU_WHEN[name] = when
        for k in kinds:
            _MENU_KIND[k] = fns
        _MENU_FOR.clear()
        return fns
    return register


# The order in which a turn offers the menu's items (after recruiting and building, which every
# god's turn lists first): fixed here, so that it does not depend on which module registering
# an item happened to be imported first. An item not listed comes last.
MENU_ORDER = ("recruit_hero", "sacrifice", "buy_creature", "peek", "land_move", "heroic_move", "sea_move",
              "buy_building", "swap_creature", "fleet_move")


def menu_for(r: Ruleset) -> tuple[MenuItem, ...]:
    items = _MENU_FOR.get(r.name)
    if items is None:
        rank = {name: i for i, name in enumerate(MENU_ORDER)}
        names = sorted(MENU, key=lambda name: rank.get(name, len(rank)))
        items = _MENU_FOR[r.name] = tuple(MENU[name] for name in names
                                          if name not in _MENU_WHEN or _MENU_WHEN[name](r))
    return items


# --- placing recruited units --------------------------------------------------

def fleet_sites(g: Context, p: int) -> list[int]:
    """Seas next to p's land areas that are empty or hold p's fleets (Poseidon)."""
    s, b = g.state, g.board
    out = set()
    for a in controlled_lands(g, p):
        for x in b.coast[a]:
            if s.ctrl[x] in (NOBODY, p) and (s.fleets[x] == 0 or s.ctrl[x] == p) and can_enter_sea(g, p, x):
                out.add(x)
    return sorted(out)


def unit_sites(g: Context, p: int, unit: str) -> list[int]:
    if unit == "fleet":
        return fleet_sites(g, p) if g.state.fleets_left[p] else []
    if unit == "troop" and not g.state.troops_left[p]:
        return []
    if unit == "merc" and not g.state.mercs_left:
        return []
    return [a for a in controlled_lands(g, p) if can_place_land(g, p, a)]


def has_unit_site(g: Context, p: int, unit: str) -> bool:
    """`bool(unit_sites(g, p, unit))`, stopping at the first site: the turn's menu asks it at
    every decision (can the paid recruit be placed?)."""
    s, b = g.state, g.board
    ctrl = s.ctrl
    if unit == "fleet":
        if not s.fleets_left[p]:
            return False
        fleets = s.fleets
        for a in b.lands:
            if ctrl[a] == p:
                for x in b.coast[a]:
                    if ctrl[x] in (NOBODY, p) and (fleets[x] == 0 or ctrl[x] == p) and can_enter_sea(g, p, x):
                        return True
        return False
    if unit == "troop" and not s.troops_left[p]:
        return False
    if unit == "merc" and not s.mercs_left:
        return False
    for a in b.lands:
        if ctrl[a] == p and can_place_land(g, p, a):
            return True
    return False


class PlaceUnitFrame(Frame):
    """Where to put units just recruited (or given by a Metropolis bonus), one at a time."""
    unit: str    # fleet|troop|merc
    left: Count  # how many are still to place


def push_place_unit(g: Context, p: int, unit: str, count: int = 1, then: None = None) -> None:
    """Ask p where to put `count` new units; skipped when there is no legal place (R13)."""
    if count > 0 and has_unit_site(g, p, unit):
        push(g, "place_unit", p, unit=unit, left=count)


@handler("place_unit", PlaceUnitFrame)
class PlaceUnit(Handler):
    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        return who.say(N_("You are placing {units} just recruited: choose where"),
                       N_("{player} is placing {units} just recruited: choose where"),
                       units=count_of(f.get("unit", "troop"), f.get("left", 1)))

    @staticmethod
    def auto(g: Context, f: PlaceUnitFrame) -> bool:
        # A reserve emptied meanwhile (e.g. by a bonus decided first) skips the rest (R13, R28).
        if not has_unit_site(g, f["player"], f["unit"]):
            pop(g, f)
            return True
        return False

    @staticmethod
    def legal(g: Context, f: PlaceUnitFrame) -> list[Action]:
        kind = {"fleet": "place_fleet", "troop": "place_troop", "merc": "place_merc"}[f["unit"]]
        ids = g.board.ids
        return [new_action((kind, "", ids[a], 0)) for a in unit_sites(g, f["player"], f["unit"])]

    @staticmethod
    def apply(g: Context, f: PlaceUnitFrame, a: Action) -> None:
        p, area, unit = f["player"], g.board.index[a.where], f["unit"]
        {"fleet": ops.place_fleets, "troop": ops.place_troops, "merc": ops.place_mercs}[unit](g, area, p)
        f["left"] -= 1
        if f["left"] == 0 or not has_unit_site(g, p, unit):
            pop(g, f)


# --- building -----------------------------------------------------------------

def owned_types(g: Context, p: int) -> set[str]:
    return {k for _, k in buildings_of(g, p)}


def push_build(g: Context, p: int, what: str, may_replace: bool = True) -> None:
    """A basic building for p; `what` empty means p chooses a type it lacks (Hera)."""
    push(g, "build", p, building=what, may_replace=may_replace)


class BuildFrame(Frame, total=False):
    """A free basic building (a god's turn, a Metropolis bonus, the Empusa)."""
    building: str       # the type to build; "" until the player chooses one (Hera)
    may_replace: bool   # with no free site, one of the player's buildings may make way (R13)
    any_type: bool      # the bonus "a basic building": any type, not only one the player lacks


@handler("build", BuildFrame)
class Build(Handler):
    """Build on an empty site of a controlled land area; with none free, forgo or
    build in place of one of your basic buildings (R13)."""

    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        if not f.get("building"):
            return who.say(N_("You are building: choose what"), N_("{player} is building: choose what"))
        return who.say(N_("You are building {a}: choose where"), N_("{player} is building {a}: choose where"),
                       a=a_thing(str(f.get("building"))))

    @staticmethod
    def auto(g: Context, f: BuildFrame) -> bool:
        if f["building"] and ops.buildings_left(g, f["building"]) <= 0:
            pop(g, f)  # R28: none left in the reserve
            return True
        if not f["building"] and not Build.legal(g, f):
            pop(g, f)
            return True
        return False

    @staticmethod
    def legal(g: Context, f: BuildFrame) -> list[Action]:
        p, what, b = f["player"], f["building"], g.board
        if not what:
            owned = () if f.get("any_type") else owned_types(g, p)  # Hera: a type you lack
            return [Action("choose_building", what=k) for k in BUILDINGS
                    if k not in owned and ops.buildings_left(g, k) > 0]
        free = lands_with_free_site(g, p)
        if free:
            return [Action("build", what=what, where=b.ids[a]) for a in free]
        out = [Action("forgo")]
        if f["may_replace"]:
            seen = set()
            for site, k in buildings_of(g, p):
                key = (k, b.site_area[site])
                if k != what and key not in seen:
                    seen.add(key)
                    out.append(Action("replace", what=k, where=b.ids[key[1]]))
        return out

    @staticmethod
    def apply(g: Context, f: BuildFrame, a: Action) -> None:
        p = f["player"]
        if a.kind == "choose_building":
            f["building"] = a.what
            return
        pop(g, f)
        if a.kind == "forgo":
            g.emit("forgo", player=p, building=f["building"])
            return
        area = g.board.index[a.where]
        if a.kind == "replace":
            site = next(i for i in range(g.board.site_start[area], g.board.site_start[area] + g.board.sites[area])
                        if g.state.sites[i] == a.what)
            g.emit("demolished", player=p, building=a.what, area=a.where)
        else:
            site = empty_sites(g, area)[0]
        place_building(g, p, site, f["building"])


def place_building(g: Context, p: int, site: int, kind: str) -> None:
    g.state.sites[site] = kind
    g.emit("built", player=p, building=kind, area=g.board.ids[g.board.site_area[site]])
    for fn in ON_BUILDINGS_GAINED:  # the economic Metropolis (engine/metropolis.py)
        fn(g, p)


# --- the turn -----------------------------------------------------------------

FREE_CARD = {"philosopher", "priestess"}


def gain_card(g: Context, p: int, kind: str) -> None:
    if kind == "priestess":
        ops.gain_priestess(g, p)
    else:
        ops.gain_philosopher(g, p)


class TurnFrame(Frame):
    """A god's turn (phase 5)."""
    god: str
    stage: str             # start (the free building first), recruit (the free recruit), main
    recruits_bought: Count  # paid recruits made this turn (the next costs more)
    heroic_moves: Count    # Heroic Moves made this turn (the n-th costs n GP, R14)
    done_once: tuple[str, ...]  # the once-a-turn actions taken ("hero": a hero recruited)


END_TURN = Action("end_turn")


@handler("turn", TurnFrame)
class Turn(Handler):
    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        if f.get("god") == APOLLO:
            return who.say(N_("You are taking Apollo's favour"), N_("{player} is taking Apollo's favour"))
        return who.say(N_("You are taking your turn with {god}"), N_("{player} is taking their turn with {god}"),
                       god=god_name(f.get("god")))


    @staticmethod
    def auto(g: Context, f: TurnFrame) -> bool:
        p, god, stage = f["player"], f["god"], f["stage"]
        if stage == "start":
            g.emit("turn", player=p, god=god)
            start = TURN_START.get(g.rules.upkeep)
            if start:
                start(g, p)
            if god == APOLLO:
                f["stage"] = "main"
                APOLLO_REWARDS[g.rules.apollo](g, p)
                return True
            f["stage"] = "recruit"
            if g.rules.free_build:
                push_build(g, p, GODS[god].building or "")
            return True
        if stage == "recruit":
            f["stage"] = "main"
            unit = GODS[god].recruit
            if unit in FREE_CARD:
                gain_card(g, p, unit)
            else:
                push_place_unit(g, p, unit)
            return True
        if stage == "main" and god == APOLLO and not Turn.legal(g, f)[:-1]:
            pop(g, f)  # Apollo's player has nothing more to do
            g.emit("turn_end", player=p)
            return True
        return False

    @staticmethod
    def legal(g: Context, f: TurnFrame) -> list[Action]:
        s, p, god = g.state, f["player"], f["god"]
        out = []
        if god != APOLLO:
            info = GODS[god]
            if f["recruits_bought"] < len(info.paid_costs) and not s.eliminated[p]:
                cost = info.paid_costs[f["recruits_bought"]]
                unit = info.paid_recruit
                # R28: a card needs one left in the supply, a unit a place and a reserve
                available = _card_left(g, unit) if unit in FREE_CARD else has_unit_site(g, p, unit)
                if purse(g, p) >= cost and available:
                    out.append(Action("recruit", what=unit, n=cost))
        for legal, _ in menu_for(g.rules):
            out.extend(legal(g, f))
        out.append(END_TURN)
        return out

    @staticmethod
    def apply(g: Context, f: TurnFrame, a: Action) -> None:
        p = f["player"]
        if a.kind == "end_turn":
            pop(g, f)
            g.emit("turn_end", player=p)
            return
        if a.kind == "recruit":
            pay(g, p, a.n)
            f["recruits_bought"] += 1
            g.emit("recruited", player=p, unit=a.what, cost=a.n)
            if a.what in FREE_CARD:
                gain_card(g, p, a.what)
            else:
                push_place_unit(g, p, a.what)
            return
        _MENU_KIND[a.kind][1](g, f, a)


def _card_left(g: Context, kind: str) -> bool:
    s = g.state
    if kind == "priestess":
        return sum(s.priestesses) < g.rules.priestesses
    return sum(s.philosophers) < g.rules.philosophers


# --- Apollo -------------------------------------------------------------------

def apollo_reward(g: Context, p: int) -> None:
    """R9: 2 GP and a 1-Cornucopia Prosperity token on a land and on a sea area."""
    gain(g, p, g.rules.apollo_gp)
    push(g, "prosper", p, left=("sea", "land"))


APOLLO_REWARDS.plug("legendary", apollo_reward, "turns")


class ProsperFrame(Frame):
    """Prosperity tokens to place (Apollo, a Metropolis bonus)."""
    left: tuple[str, ...]  # the area types still to receive one (land|sea|own), the last one first


@handler("prosper", ProsperFrame)
class Prosper(Handler):
    """Place Prosperity tokens; `left` lists the area types still to receive one, last first."""

    waits = (N_("You are placing a Prosperity token"),
             N_("{player} is placing a Prosperity token"))

    @staticmethod
    def legal(g: Context, f: ProsperFrame) -> list[Action]:
        b = g.board
        kind = f["left"][-1]
        if kind == "own":  # a metropolis bonus: a land or sea area the player controls
            areas: Sequence[int] = controlled_lands(g, f["player"]) + controlled_seas(g, f["player"])
            return [new_action(("prosperity", "", b.ids[a], 0)) for a in areas]
        menu = b.memo.get(("prosperity", kind))  # every land or every sea area: many, made once
        if menu is None:
            areas = b.lands if kind == "land" else b.seas
            menu = b.memo["prosperity", kind] = [new_action(("prosperity", "", b.ids[a], 0)) for a in areas]
        return list(menu)

    @staticmethod
    def auto(g: Context, f: ProsperFrame) -> bool:
        # Every board has land and sea areas: only "own" may find no area at all.
        if f["left"][-1] == "own" and not Prosper.legal(g, f):
            f["left"] = f["left"][:-1]
            if not f["left"]:
                pop(g, f)
            return True
        return False

    @staticmethod
    def apply(g: Context, f: ProsperFrame, a: Action) -> None:
        area = g.board.index[a.where]
        g.state.prosperity[area] += 1
        g.emit("prosperity", player=f["player"], area=a.where)
        f["left"] = f["left"][:-1]
        if not f["left"]:
            pop(g, f)

