"""5- Actions: a god's turn (rulebook, "Athena" to "Apollo"; R13, R14).

The mandatory free actions come first (the building, then the recruit; in the
classic game only the recruit), then the player may take the optional paid
actions in any order and ends the turn. Which optional actions a ruleset offers
is said where each is registered (`menu_item(..., when=...)`).
"""
from ..content.gods import APOLLO, BUILDINGS, GODS
from . import ops
from .actions import Action
from .frames import HANDLERS, Handler, handler, pop, push
from .hooks import APOLLO_REWARDS, MENU, ON_BUILDINGS_GAINED, TURN_START
from .queries import (buildings_of, can_enter_sea, can_place_land, controlled_lands,
                      controlled_seas, empty_sites, lands_with_free_site)
from .state import NOBODY

# The optional actions of a turn's menu (engine/hooks.py: MENU), by name.
# Extra per-turn menu items by action kind: kind -> apply function.
_MENU_KIND = {}
# name -> when(ruleset) -> bool: the rulesets that offer the item (absent: all of them).
_MENU_WHEN = {}
_MENU_FOR = {}  # ruleset name -> the (legal, apply) pairs it offers, in registration order


def menu_item(name, kinds, when=None):
    """Register a turn menu item; `when(ruleset)` limits it to the rulesets that have it (R1)."""
    def register(fns):
        MENU[name] = fns
        if when is not None:
            _MENU_WHEN[name] = when
        for k in kinds:
            _MENU_KIND[k] = fns
        _MENU_FOR.clear()
        return fns
    return register


def menu_for(r) -> tuple:
    items = _MENU_FOR.get(r.name)
    if items is None:
        items = _MENU_FOR[r.name] = tuple(fns for name, fns in MENU.items()
                                          if _MENU_WHEN.get(name, lambda _: True)(r))
    return items


# --- placing recruited units --------------------------------------------------

def fleet_sites(g, p) -> list:
    """Seas next to p's land areas that are empty or hold p's fleets (Poseidon)."""
    s, b = g.s, g.b
    out = set()
    for a in controlled_lands(g, p):
        for x in b.coast[a]:
            if s.ctrl[x] in (NOBODY, p) and (s.fleets[x] == 0 or s.ctrl[x] == p) and can_enter_sea(g, p, x):
                out.add(x)
    return sorted(out)


def unit_sites(g, p, unit) -> list:
    if unit == "fleet":
        return fleet_sites(g, p) if g.s.fleets_left[p] else []
    if unit == "troop" and not g.s.troops_left[p]:
        return []
    if unit == "merc" and not g.s.mercs_left:
        return []
    return [a for a in controlled_lands(g, p) if can_place_land(g, p, a)]


def push_place_unit(g, p, unit, count=1, then=None):
    """Ask p where to put `count` new units; skipped when there is no legal place (R13)."""
    if count > 0 and unit_sites(g, p, unit):
        push(g, "place_unit", p, unit=unit, left=count)


@handler("place_unit")
class PlaceUnit(Handler):
    @staticmethod
    def auto(g, f):
        # A reserve emptied meanwhile (e.g. by a bonus decided first) skips the rest (R13, R28).
        if not unit_sites(g, f["p"], f["unit"]):
            pop(g, f)
            return True
        return False

    @staticmethod
    def legal(g, f):
        kind = {"fleet": "place_fleet", "troop": "place_troop", "merc": "place_merc"}[f["unit"]]
        return [Action(kind, where=g.b.ids[a]) for a in unit_sites(g, f["p"], f["unit"])]

    @staticmethod
    def apply(g, f, a):
        p, area, unit = f["p"], g.b.index[a.where], f["unit"]
        {"fleet": ops.place_fleets, "troop": ops.place_troops, "merc": ops.place_mercs}[unit](g, area, p)
        f["left"] -= 1
        if f["left"] == 0 or not unit_sites(g, p, unit):
            pop(g, f)


# --- building -----------------------------------------------------------------

def owned_types(g, p) -> set:
    return {k for _, k in buildings_of(g, p)}


def push_build(g, p, what, may_replace=True):
    """A basic building for p; `what` empty means p chooses a type it lacks (Hera)."""
    push(g, "build", p, what=what, replace=may_replace)


@handler("build")
class Build(Handler):
    """Build on an empty site of a controlled land area; with none free, forgo or
    build in place of one of your basic buildings (R13)."""

    @staticmethod
    def auto(g, f):
        if f["what"] and ops.buildings_left(g, f["what"]) <= 0:
            pop(g, f)  # R28: none left in the reserve
            return True
        if not f["what"] and not Build.legal(g, f):
            pop(g, f)
            return True
        return False

    @staticmethod
    def legal(g, f):
        p, what, b = f["p"], f["what"], g.b
        if not what:
            owned = () if f.get("any") else owned_types(g, p)  # Hera: a type you lack
            return [Action("choose_building", what=k) for k in BUILDINGS
                    if k not in owned and ops.buildings_left(g, k) > 0]
        free = lands_with_free_site(g, p)
        if free:
            return [Action("build", what=what, where=b.ids[a]) for a in free]
        out = [Action("forgo")]
        if f["replace"]:
            seen = set()
            for site, k in buildings_of(g, p):
                key = (k, b.site_area[site])
                if k != what and key not in seen:
                    seen.add(key)
                    out.append(Action("replace", what=k, where=b.ids[key[1]]))
        return out

    @staticmethod
    def apply(g, f, a):
        p = f["p"]
        if a.kind == "choose_building":
            f["what"] = a.what
            return
        pop(g, f)
        if a.kind == "forgo":
            g.emit("forgo", player=p, building=f["what"])
            return
        area = g.b.index[a.where]
        if a.kind == "replace":
            site = next(i for i in range(g.b.site_start[area], g.b.site_start[area] + g.b.sites[area])
                        if g.s.sites[i] == a.what)
            g.emit("demolished", player=p, building=a.what, area=a.where)
        else:
            site = empty_sites(g, area)[0]
        place_building(g, p, site, f["what"])


def place_building(g, p, site, kind):
    g.s.sites[site] = kind
    g.emit("built", player=p, building=kind, area=g.b.ids[g.b.site_area[site]])
    for fn in ON_BUILDINGS_GAINED:  # the economic Metropolis (engine/metropolis.py)
        fn(g, p)


# --- the turn -----------------------------------------------------------------

FREE_CARD = {"philosopher", "priestess"}


def gain_card(g, p, kind):
    if kind == "priestess":
        ops.gain_priestess(g, p)
    else:
        ops.gain_philosopher(g, p)


@handler("turn")
class Turn(Handler):
    """Frame: god, stage start|recruit|main, bought (paid recruits), moves (heroic moves), once."""

    @staticmethod
    def auto(g, f):
        p, god, stage = f["p"], f["god"], f["stage"]
        if stage == "start":
            g.emit("turn", player=p, god=god)
            start = TURN_START.get(g.r.upkeep)
            if start:
                start(g, p)
            if god == APOLLO:
                f["stage"] = "main"
                APOLLO_REWARDS[g.r.apollo](g, p)
                return True
            f["stage"] = "recruit"
            if g.r.free_build:
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
    def legal(g, f):
        s, p, god = g.s, f["p"], f["god"]
        out = []
        if god != APOLLO:
            info = GODS[god]
            if f["bought"] < len(info.paid_costs) and not s.eliminated[p]:
                cost = info.paid_costs[f["bought"]]
                unit = info.paid_recruit
                # R28: a card needs one left in the supply, a unit a place and a reserve
                available = _card_left(g, unit) if unit in FREE_CARD else unit_sites(g, p, unit)
                if g.purse(p) >= cost and available:
                    out.append(Action("recruit", what=unit, n=cost))
        for legal, _ in menu_for(g.r):
            out.extend(legal(g, f))
        out.append(Action("end_turn"))
        return out

    @staticmethod
    def apply(g, f, a):
        p = f["p"]
        if a.kind == "end_turn":
            pop(g, f)
            g.emit("turn_end", player=p)
            return
        if a.kind == "recruit":
            g.pay(p, a.n)
            f["bought"] += 1
            g.emit("recruited", player=p, unit=a.what, cost=a.n)
            if a.what in FREE_CARD:
                gain_card(g, p, a.what)
            else:
                push_place_unit(g, p, a.what)
            return
        _MENU_KIND[a.kind][1](g, f, a)


def _card_left(g, kind):
    s = g.s
    if kind == "priestess":
        return sum(s.priestesses) < g.r.priestesses
    return sum(s.philosophers) < g.r.philosophers


# --- Apollo -------------------------------------------------------------------

def apollo_reward(g, p):
    """R9: 2 GP and a 1-Cornucopia Prosperity token on a land and on a sea area."""
    g.gain(p, g.r.apollo_gp)
    push(g, "prosper", p, left=("sea", "land"))


# Apollo's favour by `Ruleset.apollo` (R9); engine/classic.py adds "classic".
APOLLO_REWARDS["legendary"] = apollo_reward


@handler("prosper")
class Prosper(Handler):
    """Place Prosperity tokens; `left` lists the area types still to receive one, last first."""

    @staticmethod
    def legal(g, f):
        b = g.b
        kind = f["left"][-1]
        if kind == "own":  # a metropolis bonus: a land or sea area the player controls
            areas = controlled_lands(g, f["p"]) + controlled_seas(g, f["p"])
        else:
            areas = b.lands if kind == "land" else b.seas
        return [Action("prosperity", where=b.ids[a]) for a in areas]

    @staticmethod
    def auto(g, f):
        # Every board has land and sea areas: only "own" may find no area at all.
        if f["left"][-1] == "own" and not Prosper.legal(g, f):
            f["left"] = f["left"][:-1]
            if not f["left"]:
                pop(g, f)
            return True
        return False

    @staticmethod
    def apply(g, f, a):
        area = g.b.index[a.where]
        g.s.prosperity[area] += 1
        g.emit("prosperity", player=f["p"], area=a.where)
        f["left"] = f["left"][:-1]
        if not f["left"]:
            pop(g, f)


assert "turn" in HANDLERS
