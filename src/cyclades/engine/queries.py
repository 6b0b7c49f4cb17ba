"""Read-only questions about a position, one function per rule concept.

Creatures and heroes that change a rule (Typhon on buildings, Medusa on
access, Hydra on income, Hippolyta on strength...) plug in here through the
`MODIFIERS` lists, so that every caller sees them without checking each card.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal, Protocol, TypedDict, overload

from ..content.cards import MINIATURES
from ..content.gods import BUILDINGS, METROPOLIS
from .hooks import Hook
from .teams import friends

if TYPE_CHECKING:
    from .context import Context


class AreaIncome(Protocol):
    def __call__(self, g: Context, area: int, base: int, /) -> int: ...


class IncomeTaken(Protocol):
    def __call__(self, g: Context, /) -> tuple[int, int] | None: ...


class UnitStrength(Protocol):
    def __call__(self, g: Context, player: int, area: int, kind: str, name: str, base: int, /) -> int: ...


class AreaRule(Protocol):
    def __call__(self, g: Context, player: int, area: int, /) -> bool: ...


class SeaLinks(Protocol):
    def __call__(self, g: Context, player: int, sea: int, /) -> Iterable[int]: ...


class SiteRule(Protocol):
    def __call__(self, g: Context, site: int, /) -> bool: ...


class Modifiers(TypedDict):
    area_income: Hook[AreaIncome]
    income_taken: Hook[IncomeTaken]
    unit_strength: Hook[UnitStrength]
    can_enter_land: Hook[AreaRule]
    can_leave_land: Hook[AreaRule]
    can_enter_sea: Hook[AreaRule]
    can_place_land: Hook[AreaRule]
    sea_links: Hook[SeaLinks]
    building_active: Hook[SiteRule]


# Rule questions that creatures and heroes change while they are on the board: each a list of
# functions applied in order, filled by the cards (`@plugs(MODIFIERS[...])`).
MODIFIERS: Modifiers = {
    "area_income": Hook("area_income", "f(g, area, base) -> income: when an area's Cornucopias are "
                        "counted (Income, the Graeae; the Hydra)"),
    "income_taken": Hook("income_taken", "f(g) -> (area, player) or None: the area whose income a "
                         "player takes instead of its controller (Cerberus, the Nereid)"),
    "unit_strength": Hook("unit_strength", "f(g, player, area, kind, name, base) -> strength of one "
                          "unit in a battle (Ajax, the Minotaur)"),
    "can_enter_land": Hook("can_enter_land", "f(g, player, area) -> False forbids troops and heroes "
                           "entering a land area (the Boar, Medusa)"),
    "can_leave_land": Hook("can_leave_land", "f(g, player, area) -> False forbids troops and heroes "
                           "leaving a land area (Medusa)"),
    "can_enter_sea": Hook("can_enter_sea", "f(g, player, area) -> False forbids fleets entering a sea "
                          "area (the Kraken, Polyphemus)"),
    "can_place_land": Hook("can_place_land", "f(g, player, area) -> False forbids placing recruited "
                           "troops and heroes in a land area (the Boar)"),
    "sea_links": Hook("sea_links", "f(g, player, sea) -> extra seas adjacent to `sea` for the player's "
                      "fleets (Scylla and Charybdis)"),
    "building_active": Hook("building_active", "f(g, site) -> False: the building on the site has no "
                            "effect (Typhon)"),
}


CARD_OF = {m: card for card, minis in MINIATURES.items() for m in minis}


def card_of(miniature: str) -> str:
    return CARD_OF.get(miniature, miniature)


def miniatures_of(card: str) -> tuple[str, ...]:
    return MINIATURES.get(card, (card,))


def creature_owner(g: Context, miniature: str) -> int | None:
    """The player who holds the card of a miniature, or None."""
    return g.state.creature_owner.get(card_of(miniature))


def creatures_on_board(g: Context) -> dict[str, int]:
    """miniature -> area, for the miniatures whose card a player holds."""
    held = g.state.creature_owner
    return {m: a for m, a in g.state.creature_at.items() if card_of(m) in held}


def card_on_board(g: Context, card: str) -> bool:
    """All the card's miniatures stand on the board (an owned creature card with a miniature)."""
    at = g.state.creature_at
    return all(m in at for m in miniatures_of(card))


def units_in(g: Context, a: int) -> int:
    """Troops, mercenaries and heroes on a land area, or fleets on a sea area."""
    s = g.state
    if g.board.is_land[a]:
        return s.troops[a] + s.mercs[a] + heroes_at(g, a, count=True)
    return s.fleets[a]


@overload
def heroes_at(g: Context, a: int, count: Literal[False] = False) -> list[str]: ...
@overload
def heroes_at(g: Context, a: int, count: Literal[True]) -> int: ...
def heroes_at(g: Context, a: int, count: bool = False) -> list[str] | int:
    """The heroes on a land area (`count`: how many)."""
    hs = [h for h, at in g.state.hero_at.items() if at == a]
    return len(hs) if count else hs


def controlled_lands(g: Context, p: int) -> list[int]:
    ctrl = g.state.ctrl
    return [a for a in g.board.lands if ctrl[a] == p]


def controlled_seas(g: Context, p: int) -> list[int]:
    ctrl = g.state.ctrl
    return [a for a in g.board.seas if ctrl[a] == p]


def area_income(g: Context, a: int) -> int:
    base = g.board.cornucopias[a] + g.state.prosperity[a]
    for f in MODIFIERS["area_income"]:
        base = f(g, a, base)
    return base


def income_receiver(g: Context, a: int) -> int:
    for f in MODIFIERS["income_taken"]:
        taken = f(g)
        if taken is not None and taken[0] == a:
            return taken[1]
    return g.state.ctrl[a]


def income_receivers(g: Context) -> list[int]:
    """Who receives each area's income, every area at once: the controller, but where a card
    takes it. A card names the one area it takes, so that the Income phase asks each card once,
    not once an area."""
    receivers = list(g.state.ctrl)
    for f in MODIFIERS["income_taken"]:
        taken = f(g)
        if taken is not None:
            receivers[taken[0]] = taken[1]
    return receivers


def building_active(g: Context, site: int) -> bool:
    for f in MODIFIERS["building_active"]:
        if not f(g, site):
            return False
    return True


def buildings_of(g: Context, p: int, kinds: tuple[str, ...] = BUILDINGS,
                 for_metropolis: bool = False) -> list[tuple[int, str]]:
    """(site, kind) of p's buildings of the given kinds, in the land areas p controls."""
    b, s = g.board, g.state
    ctrl, sites, site_start, site_count = s.ctrl, s.sites, b.site_start, b.sites  # a hot loop
    out = []
    for a in b.lands:
        if ctrl[a] != p:
            continue
        start = site_start[a]
        for site in range(start, start + site_count[a]):
            k = sites[site]
            if k in kinds and (not for_metropolis or building_active(g, site)):
                out.append((site, k))
    return out


def empty_sites(g: Context, a: int) -> list[int]:
    b, sites = g.board, g.state.sites
    start = b.site_start[a]
    return [i for i in range(start, start + b.sites[a]) if not sites[i]]


def lands_with_free_site(g: Context, p: int) -> list[int]:
    b, sites = g.board, g.state.sites
    start, count = b.site_start, b.sites
    return [a for a in controlled_lands(g, p) if not all(sites[start[a]:start[a] + count[a]])]


def metropolises_of(g: Context, p: int) -> int:
    """Metropolises a player controls (R21), the one on Penthesilea's card included."""
    return metropolis_counts(g)[p] if 0 <= p < g.state.n else 0


def metropolis_counts(g: Context) -> list[int]:
    """Every player's metropolises (R21), in one pass over the sites: those on the lands each
    controls, and the one on Penthesilea's card (asked after every cycle)."""
    b, s = g.board, g.state
    counts = [0] * s.n
    ctrl, site_area = s.ctrl, b.site_area
    for site, kind in enumerate(s.sites):
        if kind == METROPOLIS:
            owner = ctrl[site_area[site]]
            if owner >= 0:
                counts[owner] += 1
    card = s.metro_bonus.get("penthesilea")  # (owner, bonus): the Metropolis on her card
    if card is not None and 0 <= card[0] < s.n:
        counts[card[0]] += 1
    return counts


def count_in_area(g: Context, a: int, kind: str) -> int:
    """Active buildings of a kind in an area; a metropolis counts as each basic kind (R15)."""
    b, s = g.board, g.state
    start = b.site_start[a]
    n = 0
    for site in range(start, start + b.sites[a]):
        k = s.sites[site]
        if (k in (kind, METROPOLIS)) and building_active(g, site):
            n += 1
    return n


def unit_strength(g: Context, p: int, a: int, kind: str, name: str = "") -> int:
    base = 1
    for f in MODIFIERS["unit_strength"]:
        base = f(g, p, a, kind, name, base)
    return base


def fleet_chain_lands(g: Context, p: int, start: int) -> set[int]:
    """Land areas linked to `start` by a chain of seas holding p's fleets (R17); in team
    play a teammate's fleets carry too, since teams move through each other's areas (R22)."""
    b, s = g.board, g.state
    ctrl = s.ctrl
    mine = {q for q in range(s.n) if friends(g, p, q)} if g.teams else {p}
    seen = set()
    todo = [x for x in b.coast[start] if ctrl[x] in mine and s.fleets[x]]
    seen.update(todo)
    while todo:
        sea = todo.pop()
        for nxt in sea_neighbours(g, p, sea):
            if nxt not in seen and ctrl[nxt] in mine and s.fleets[nxt]:
                seen.add(nxt)
                todo.append(nxt)
    lands: set[int] = set()
    for sea in seen:
        lands.update(b.coast[sea])
    return lands


def sea_neighbours(g: Context, p: int, sea: int) -> tuple[int, ...]:
    """Seas adjacent to `sea` for p's fleets (Scylla and Charybdis add a link)."""
    adj = g.board.sea_adj[sea]
    if MODIFIERS["sea_links"]:
        extra: set[int] = set()
        for f in MODIFIERS["sea_links"]:
            extra.update(f(g, p, sea))
        if extra:
            return tuple(adj) + tuple(x for x in extra if x not in adj)
    return adj


def accessible_lands(g: Context, p: int, a: int) -> set[int]:
    """Land areas a Land Move from `a` may reach (R17): adjacent on the island, or by fleet chain."""
    out = set(g.board.land_adj[a])
    out.update(fleet_chain_lands(g, p, a))
    out.discard(a)
    if MODIFIERS["can_enter_land"]:
        out = {x for x in out if all(f(g, p, x) for f in MODIFIERS["can_enter_land"])}
    return out


def can_leave_land(g: Context, p: int, a: int) -> bool:
    for f in MODIFIERS["can_leave_land"]:  # a loop: all() over a generator costs twice as much here
        if not f(g, p, a):
            return False
    return True


def can_enter_sea(g: Context, p: int, a: int) -> bool:
    for f in MODIFIERS["can_enter_sea"]:
        if not f(g, p, a):
            return False
    return True


def active_players(g: Context) -> list[int]:
    s = g.state
    return [p for p in range(s.n) if not s.eliminated[p]]


def can_place_land(g: Context, p: int, a: int) -> bool:
    for f in MODIFIERS["can_place_land"]:
        if not f(g, p, a):
            return False
    return True


def shielded(g: Context, p: int, area: int) -> bool:
    """Chiron (Maelström text): other players cannot choose its area, or anything in it,
    as a target for Creature abilities, nor move Creatures into it."""
    s = g.state
    return s.creature_at.get("chiron") == area and s.creature_owner.get("chiron") != p


def shielded_area(g: Context, p: int) -> int | None:
    """The area `shielded` keeps from p, if any: for a list of areas, asked once, not per area."""
    s = g.state
    at = s.creature_at.get("chiron")
    return at if at is not None and s.creature_owner.get("chiron") != p else None
