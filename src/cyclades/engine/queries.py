"""Read-only questions about a position, one function per rule concept.

Creatures and heroes that change a rule (Typhon on buildings, Medusa on
access, Hydra on income, Hippolyta on strength...) plug in here through the
`MODIFIERS` lists, so that every caller sees them without checking each card.
"""
from ..content.gods import BUILDINGS, METROPOLIS
from .hooks import MODIFIERS

# The hooks (engine/hooks.py): each a list of functions, filled by the card modules.


# Scylla and Charybdis are one card with two miniatures; every other card's miniature bears the
# card's name. `creature_at` is keyed by miniature, `creature_owner` by card.
MINIATURES = {"scylla-charybdis": ("scylla", "charybdis")}
CARD_OF = {m: card for card, minis in MINIATURES.items() for m in minis}


def card_of(miniature) -> str:
    return CARD_OF.get(miniature, miniature)


def miniatures_of(card) -> tuple:
    return MINIATURES.get(card, (card,))


def creature_owner(g, miniature):
    """The player who holds the card of a miniature, or None."""
    return g.s.creature_owner.get(card_of(miniature))


def creatures_on_board(g) -> dict:
    """miniature -> area, for the miniatures whose card a player holds."""
    held = g.s.creature_owner
    return {m: a for m, a in g.s.creature_at.items() if card_of(m) in held}


def card_on_board(g, card) -> bool:
    """All the card's miniatures stand on the board (an owned creature card with a miniature)."""
    at = g.s.creature_at
    return all(m in at for m in miniatures_of(card))


def units_in(g, a) -> int:
    """Troops, mercenaries and heroes on a land area, or fleets on a sea area."""
    s = g.s
    if g.b.is_land[a]:
        return s.troops[a] + s.mercs[a] + heroes_at(g, a, count=True)
    return s.fleets[a]


def heroes_at(g, a, count=False):
    hs = [h for h, at in g.s.hero_at.items() if at == a]
    return len(hs) if count else hs


def controlled_lands(g, p) -> list:
    ctrl = g.s.ctrl
    return [a for a in g.b.lands if ctrl[a] == p]


def controlled_seas(g, p) -> list:
    ctrl = g.s.ctrl
    return [a for a in g.b.seas if ctrl[a] == p]


def area_income(g, a) -> int:
    base = g.b.cornucopias[a] + g.s.prosperity[a]
    for f in MODIFIERS["area_income"]:
        base = f(g, a, base)
    return base


def income_receiver(g, a) -> int:
    p = g.s.ctrl[a]
    for f in MODIFIERS["income_to"]:
        p = f(g, a, p)
    return p


def building_active(g, site) -> bool:
    for f in MODIFIERS["building_active"]:
        if not f(g, site):
            return False
    return True


def buildings_of(g, p, kinds=BUILDINGS, for_metropolis=False) -> list:
    """(site, kind) of p's buildings of the given kinds, in the land areas p controls."""
    b, s = g.b, g.s
    out = []
    for a in b.lands:
        if s.ctrl[a] != p:
            continue
        start = b.site_start[a]
        for site in range(start, start + b.sites[a]):
            k = s.sites[site]
            if k in kinds and (not for_metropolis or building_active(g, site)):
                out.append((site, k))
    return out


def empty_sites(g, a) -> list:
    b, sites = g.b, g.s.sites
    start = b.site_start[a]
    return [i for i in range(start, start + b.sites[a]) if not sites[i]]


def lands_with_free_site(g, p) -> list:
    return [a for a in controlled_lands(g, p) if empty_sites(g, a)]


def metropolises_of(g, p) -> int:
    """Metropolises a player controls (R21), the one on Penthesilea's card included."""
    b, s = g.b, g.s
    n = 0
    for site, kind in enumerate(s.sites):
        if kind == METROPOLIS and s.ctrl[b.site_area[site]] == p:
            n += 1
    card = s.metro_bonus.get("penthesilea")  # (owner, bonus): the Metropolis on her card
    if card is not None and card[0] == p:
        n += 1
    return n


def count_in_area(g, a, kind) -> int:
    """Active buildings of a kind in an area; a metropolis counts as each basic kind (R15)."""
    b, s = g.b, g.s
    start = b.site_start[a]
    n = 0
    for site in range(start, start + b.sites[a]):
        k = s.sites[site]
        if (k == kind or k == METROPOLIS) and building_active(g, site):
            n += 1
    return n


def unit_strength(g, p, a, kind, name="") -> int:
    base = 1
    for f in MODIFIERS["unit_strength"]:
        base = f(g, p, a, kind, name, base)
    return base


def fleet_chain_lands(g, p, start) -> set:
    """Land areas linked to `start` by a chain of seas holding p's fleets (R17); in team
    play a teammate's fleets carry too, since teams move through each other's areas (R22)."""
    b, s = g.b, g.s
    ctrl = s.ctrl
    if g.teams:
        mine = {q for q in range(s.n) if g.friends(p, q)}
    else:
        mine = (p,)
    seen = set()
    todo = [x for x in b.coast[start] if ctrl[x] in mine and s.fleets[x]]
    seen.update(todo)
    while todo:
        sea = todo.pop()
        for nxt in sea_neighbours(g, p, sea):
            if nxt not in seen and ctrl[nxt] in mine and s.fleets[nxt]:
                seen.add(nxt)
                todo.append(nxt)
    lands = set()
    for sea in seen:
        lands.update(b.coast[sea])
    return lands


def sea_neighbours(g, p, sea):
    """Seas adjacent to `sea` for p's fleets (Scylla and Charybdis add a link)."""
    adj = g.b.sea_adj[sea]
    if MODIFIERS["sea_links"]:
        extra = set()
        for f in MODIFIERS["sea_links"]:
            extra.update(f(g, p, sea))
        if extra:
            return tuple(adj) + tuple(x for x in extra if x not in adj)
    return adj


def accessible_lands(g, p, a) -> set:
    """Land areas a Land Move from `a` may reach (R17): adjacent on the island, or by fleet chain."""
    out = set(g.b.land_adj[a])
    out.update(fleet_chain_lands(g, p, a))
    out.discard(a)
    if MODIFIERS["can_enter_land"]:
        out = {x for x in out if all(f(g, p, x) for f in MODIFIERS["can_enter_land"])}
    return out


def can_leave_land(g, p, a) -> bool:
    return all(f(g, p, a) for f in MODIFIERS["can_leave_land"])


def can_enter_sea(g, p, a) -> bool:
    return all(f(g, p, a) for f in MODIFIERS["can_enter_sea"])


def active_players(g) -> list:
    s = g.s
    return [p for p in range(s.n) if not s.eliminated[p]]


def can_place_land(g, p, a) -> bool:
    return all(f(g, p, a) for f in MODIFIERS["can_place_land"])


def shielded(g, p, area) -> bool:
    """Chiron (Maelström text): other players cannot choose its area, or anything in it,
    as a target for Creature abilities, nor move Creatures into it."""
    s = g.s
    return s.creature_at.get("chiron") == area and s.creature_owner.get("chiron") != p
