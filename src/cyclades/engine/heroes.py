"""Heroes on the board (rulebook, "Hera", "Heroes" and "Hero Descriptions").

Hera's player may recruit ONE hero per turn for 4 GP from the hero track; the
miniature goes to a land area the player controls and the card stays in front
of them. The track is refilled in the next Cycle Preparation. A hero is a unit
of strength 1 that controls its area and moves with troops (battle.py,
moves.py); military powers plug in through the engine's hooks (cards/heroes.py).

Sacrificial powers: "If you have satisfied the conditions you may, at any time
during your God's actions, sacrifice the Hero (which is removed from the game)
and apply their effect", never in the Cycle of recruitment and never with
Apollo (Leto excepted). A power with choices asks them one at a time (R26) in a
"sacrifice" frame that may be cancelled until the last one; the hero leaves and
the effect applies only then.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..content.gods import APOLLO
from ..content.i18n import N_
from . import ops
from .actions import Action
from .frames import Addressed, Area, Frame, Handler, handler, pop, push
from .hooks import Hook, plug_class
from .naming import card_name
from .ops import ON_HERO_LOST
from .queries import can_place_land, controlled_lands
from .teams import pay, purse
from .turns import TurnFrame, menu_item
from .unit_choice import UnitChoice

if TYPE_CHECKING:
    from .context import Context

HERO_COST = 4
CANCEL = Action("cancel")


class HeroesArrive(Protocol):
    def __call__(self, g: Context, player: int, area: int, heroes: tuple[str, ...],
                 route: tuple[int, ...], /) -> None: ...


class OnHero(Protocol):
    def __call__(self, g: Context, hero: str, /) -> None: ...


ON_HEROES_ARRIVE: Hook[HeroesArrive] = Hook(
    "on_heroes_arrive", "f(g, player, area, heroes, route): heroes arrived in an area by a move or a "
    "retreat, before anything else happens there; route lists the seas passed through (Heracles)")
ON_RECRUIT: Hook[OnHero] = Hook("on_recruit", "f(g, hero): a hero was recruited (Heracles)")


def hero_sites(g: Context, p: int) -> list[int]:
    return [a for a in controlled_lands(g, p) if can_place_land(g, p, a)]


def _recruit_legal(g: Context, f: TurnFrame) -> list[Action]:
    p = f["player"]
    if f["god"] != "hera" or "hero" in f["done_once"] or purse(g, p) < HERO_COST or not hero_sites(g, p):
        return []
    return [Action("recruit_hero", what=h, n=HERO_COST) for h in g.state.hero_track if h]


def _recruit_apply(g: Context, f: TurnFrame, a: Action) -> None:
    s, p = g.state, f["player"]
    pay(g, p, a.n)
    f["done_once"] = f["done_once"] + ("hero",)
    s.hero_track[s.hero_track.index(a.what)] = None
    s.hero_owner[a.what] = p
    s.hero_since[a.what] = s.cycle  # no sacrifice in the cycle of recruitment
    g.emit("hero_recruited", player=p, hero=a.what, cost=a.n)
    for fn in ON_RECRUIT:
        fn(g, a.what)
    push(g, "place_hero", p, hero=a.what)


menu_item("recruit_hero", ("recruit_hero",))((_recruit_legal, _recruit_apply))


class PlaceHeroFrame(Frame):
    hero: str  # the hero just recruited, to stand on one of the player's land areas


@handler("place_hero", PlaceHeroFrame)
class PlaceHero(Handler):
    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        return who.say(N_("You are placing {hero}"), N_("{player} is placing {hero}"), hero=card_name(f.get("hero")))

    @staticmethod
    def legal(g: Context, f: PlaceHeroFrame) -> list[Action]:
        return [Action("place_hero", what=f["hero"], where=g.board.ids[a]) for a in hero_sites(g, f["player"])]

    @staticmethod
    def auto(g: Context, f: PlaceHeroFrame) -> bool:
        if not hero_sites(g, f["player"]):  # nowhere to stand: the card is kept off the board
            pop(g, f)
            return True
        return False

    @staticmethod
    def apply(g: Context, f: PlaceHeroFrame, a: Action) -> None:
        area = g.board.index[a.where]
        g.state.hero_at[f["hero"]] = area
        g.emit("hero_placed", player=f["player"], hero=f["hero"], area=a.where)
        pop(g, f)


# --- losing heroes and moving them ------------------------------------------------------

def lose_hero(g: Context, h: str) -> None:
    """A hero destroyed (battle loss, Achilles): the card is discarded, with what lies under it."""
    ops.discard_hero(g, h)


def heroes_arrive(g: Context, p: int, area: int, heroes: Sequence[str], route: tuple[int, ...] = ()) -> None:
    if heroes:
        for fn in ON_HEROES_ARRIVE:
            fn(g, p, area, tuple(heroes), tuple(route))


# --- sacrificial powers ---------------------------------------------------------------------

class Power:
    """A hero's sacrificial power (cards/heroes.py).

    `ready(g, p, hero)` says whether p satisfies the card's conditions, `hero` being the hero
    sacrificed for it (Pandora lends her sacrifice to a power of the track). The frame then asks
    `choices(g, f)` until it returns [] (each answered by `choose(g, f, a)`), and `effect(g, f)`
    applies the power once the hero has left the game."""

    with_apollo = False  # Leto: may be sacrificed with Apollo
    menu = True          # offered on the turn menu (Penthesilea's acts when a Metropolis is built)
    lendable = True      # Pandora may use it from the hero track

    def ready(self, g: Context, p: int, hero: str) -> bool:
        return True

    def choices(self, g: Context, f: SacrificeFrame) -> list[Action]:
        return []

    def choose(self, g: Context, f: SacrificeFrame, a: Action) -> None:
        raise NotImplementedError

    def effect(self, g: Context, f: SacrificeFrame) -> None:
        raise NotImplementedError


# hero card -> its Power: the sacrificial power, and the military power's hooks on its class.
POWERS: dict[str, Power] = {}

P = TypeVar("P", bound=type[Power])


def power(name: str) -> Callable[[P], P]:
    """Register a hero's Power, and plug in the hooks its class declares: @power("ajax")."""
    def register(cls: P) -> P:
        POWERS[name] = cls()
        return plug_class(cls, name)
    return register


def own_turn_god(g: Context, p: int) -> str | None:
    """The god of p's turn if p is taking their god's actions now, else None."""
    for f in g.state.stack:
        if f["kind"] == "turn" and f["player"] == p:
            return str(f["god"])
    return None


def may_sacrifice(g: Context, p: int, h: str, god: str | None) -> bool:
    """Timing rules of every sacrificial power (rulebook, Heroes: "Important")."""
    s = g.state
    if s.hero_owner.get(h) != p or h not in POWERS or god is None:
        return False
    if s.hero_since.get(h) == s.cycle:
        return False  # not in the Cycle of recruitment
    return god != APOLLO or POWERS[h].with_apollo


def _sacrifice_legal(g: Context, f: TurnFrame) -> list[Action]:
    p = f["player"]
    owners = g.state.hero_owner
    if p not in owners.values():  # the common case: no hero of this player's (a scan in C)
        return []
    out = []
    for h in sorted(h for h, o in owners.items() if o == p):
        if may_sacrifice(g, p, h, f["god"]) and POWERS[h].menu and POWERS[h].ready(g, p, h):
            out.append(Action("sacrifice", what=h))
    return out


def _sacrifice_apply(g: Context, f: TurnFrame, a: Action) -> None:
    push(g, "sacrifice", f["player"], hero=a.what, power=a.what, stage="start", chosen=())


menu_item("sacrifice", ("sacrifice",))((_sacrifice_legal, _sacrifice_apply))


def remove_from_game(g: Context, h: str) -> None:
    """A sacrificed hero leaves the game: the miniature and the card (not the discard pile)."""
    s = g.state
    s.hero_at.pop(h, None)
    p = s.hero_owner.pop(h, None)
    s.hero_since.pop(h, None)
    g.emit("hero_sacrificed", player=p, hero=h)
    for fn in ON_HERO_LOST:
        fn(g, h)


class SacrificeFrame(Frame, UnitChoice, total=False):
    """A hero's sacrificial power, its choices asked one at a time (R26). Perseus' move adds the
    unit choice's fields (engine/unit_choice.py) and its destination."""
    hero: str          # the hero sacrificed
    power: str         # the power applied: the hero's own, or the one Pandora lends
    chosen: tuple[Any, ...]  # the power's choices so far (areas' ids, building types, a number)
    destination: Area  # Perseus: where the units go


@handler("sacrifice", SacrificeFrame)
class Sacrifice(Handler):
    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        return who.say(N_("You are sacrificing {hero}"), N_("{player} is sacrificing {hero}"),
                       hero=card_name(f.get("hero")))


    @staticmethod
    def legal(g: Context, f: SacrificeFrame) -> list[Action]:
        return [*POWERS[f["power"]].choices(g, f), CANCEL]

    @staticmethod
    def auto(g: Context, f: SacrificeFrame) -> bool:
        if POWERS[f["power"]].choices(g, f):
            return False
        pop(g, f)
        remove_from_game(g, f["hero"])
        if f["power"] != f["hero"]:
            g.emit("power_used", player=f["player"], hero=f["power"], by=f["hero"])
        POWERS[f["power"]].effect(g, f)
        return True

    @staticmethod
    def apply(g: Context, f: SacrificeFrame, a: Action) -> None:
        if a.kind == "cancel":
            pop(g, f)  # nothing happened yet (R26)
            return
        POWERS[f["power"]].choose(g, f, a)
