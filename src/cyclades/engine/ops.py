"""Primitive changes to the state, each with its event and its rule side effects.

Everything that changes who controls an area goes through `take_control`, so
the Priestess icon (rulebook, Land Move) and elimination (R27) are never missed;
everything that destroys a unit goes through `destroyed`, which creatures such
as Geryon listen to. What a change means to a higher module (a conquered building that
completes the four types) is announced through the hooks declared here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from .frames import pop, push
from .hooks import Hook
from .queries import miniatures_of
from .state import NOBODY

if TYPE_CHECKING:
    from .context import Context

DIE_FACES = (0, 1, 1, 2, 2, 3)  # R3
# turn_flags: the top card of the creature deck is the one Zeus' player looked at and put back
# (engine/chance.py resolves the next draw to it).
PEEKED_ON_TOP = "peeked_on_top"


class OnDestroy(Protocol):
    def __call__(self, g: Context, area: int, unit: str, count: int, /) -> None: ...


class OnPlayer(Protocol):
    def __call__(self, g: Context, player: int, /) -> None: ...


class OnCard(Protocol):
    def __call__(self, g: Context, card: str, /) -> None: ...


ON_DESTROY: Hook[OnDestroy] = Hook(
    "on_destroy", "f(g, area, unit, count): units destroyed (not merely moved), after the "
    "\"destroyed\" event (Geryon)")
ON_HERO_LOST: Hook[OnCard] = Hook(
    "on_hero_lost", "f(g, hero): a hero left play (destroyed, discarded, sacrificed, eliminated) "
    "(Heracles' cards)")
ON_BUILDINGS_GAINED: Hook[OnPlayer] = Hook(
    "on_buildings_gained", "f(g, player): the player may have completed the four building types, "
    "after they build or take control of a land area with buildings (the economic Metropolis)")
ON_CREATURE_LEAVES: Hook[OnCard] = Hook(
    "on_creature_leaves", "f(g, card): the card's miniatures left the board, so its lasting "
    "effect ends (Typhon)")


def rand(g: Context, n: int) -> int:
    """A uniform integer in [0, n) from the state's own generator (R4): splitmix64."""
    s = g.state
    x = (s.rng + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    s.rng = x
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (x ^ (x >> 31)) % n


def roll_die(g: Context) -> int:
    """One battle die (R3) from the generator; a scenario may force the next results."""
    s = g.state
    if s.dice:
        return s.dice.pop(0)
    return DIE_FACES[rand(g, 6)]


def shuffle(g: Context, items: list[Any]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rand(g, i + 1)
        items[i], items[j] = items[j], items[i]


def gain_gp(g: Context, p: int, n: int) -> None:
    if n:
        g.state.gp[p] += n
        g.emit("gp", player=p, amount=n)


def gain_priestess(g: Context, p: int, n: int = 1) -> None:
    s = g.state
    n = min(n, g.rules.priestesses - sum(s.priestesses))  # R28
    if n > 0:
        s.priestesses[p] += n
        g.emit("priestess", player=p, amount=n)


def take_control(g: Context, a: int, p: int) -> None:
    """p now controls area a (their units are there, or their control token)."""
    s = g.state
    old = s.ctrl[a]
    if old == p:
        return
    s.ctrl[a] = p
    if g.board.is_land[a] and p != NOBODY:
        g.emit("control", player=p, area=g.board.ids[a], previous=None if old == NOBODY else old)
        if g.board.priestess[a]:
            gain_priestess(g, p)  # the Priestess icon (rulebook, Land Move)
    if old != NOBODY and g.board.is_land[a]:
        check_elimination(g, old)
    if p != NOBODY and g.board.is_land[a] and any(g.state.sites[i] for i in g.board.sites_of(a)):
        # Conquered buildings may complete the four types: "as soon as" (Metropolises).
        for fn in ON_BUILDINGS_GAINED:
            fn(g, p)


def check_elimination(g: Context, p: int) -> None:
    """R27: a player who controls no land area is eliminated; their units leave the board."""
    s, b = g.state, g.board
    if s.eliminated[p] or any(s.ctrl[a] == p for a in b.lands):
        return
    s.eliminated[p] = True
    s.end_flag = True
    for a in b.seas:
        if s.ctrl[a] == p:
            s.fleets_left[p] += s.fleets[a]
            s.fleets[a] = 0
            s.ctrl[a] = NOBODY
    for h in list(s.hero_at):
        if s.hero_owner.get(h) == p:
            discard_hero(g, h)
    for c, owner in list(s.creature_owner.items()):
        if owner == p:
            release(g, c)  # its miniatures leave with it (Scylla and Charybdis: both)
    # Their Maintenance Costs still to pay go too: the Calydonian Boar, moved in that phase, can
    # take a player's last land area before their turn to pay, and nothing of theirs is left.
    for f in [f for f in s.stack if f["kind"] == "maintain" and f["player"] == p]:
        pop(g, f)
    g.emit("eliminated", player=p)


def discard_hero(g: Context, h: str) -> None:
    """A hero destroyed (battle, Manticore, Boar, elimination): miniature gone, card discarded,
    and whatever the hooks attach to the card (Heracles' creatures) goes with it."""
    s = g.state
    s.hero_at.pop(h, None)
    p = s.hero_owner.pop(h, None)
    s.hero_since.pop(h, None)
    s.hero_discard.append(h)
    g.emit("hero_lost", hero=h, player=p)
    for fn in ON_HERO_LOST:
        fn(g, h)


def release_creature(g: Context, c: str) -> None:
    s = g.state
    s.creature_at.pop(c, None)
    s.creature_owner.pop(c, None)
    s.creature_discard.append(c)
    g.emit("creature_leaves", card=c)


def release(g: Context, card: str) -> None:
    """The card leaves the board (unpaid, destroyed): its miniatures are removed, the card
    discarded."""
    release_creature(g, card)
    remove_miniatures(g, card)


def remove_miniatures(g: Context, card: str) -> None:
    """The card's miniatures leave the board (Scylla and Charybdis: both), and the effect they
    had ends (Typhon's silenced buildings count again)."""
    for m in miniatures_of(card):
        g.state.creature_at.pop(m, None)
    for fn in ON_CREATURE_LEAVES:
        fn(g, card)


# --- the decks ------------------------------------------------------------------------------

def discard_creature_card(g: Context, card: str) -> None:
    """Into the discard pile; the Chimera shuffles deck and discards together (Chimera)."""
    s = g.state
    s.creature_discard.append(card)
    if card == "chimera":
        s.creature_deck.extend(s.creature_discard)
        s.creature_discard.clear()
        shuffle(g, s.creature_deck)
        s.turn_flags.pop(PEEKED_ON_TOP, None)
        g.emit("reshuffle", deck="creatures")


# --- Philosophers and the Metropolis they build --------------------------------------------

def gain_philosopher(g: Context, p: int) -> None:
    s = g.state
    if sum(s.philosophers) >= g.rules.philosophers:
        return  # R28
    s.philosophers[p] += 1
    g.emit("philosopher", player=p)
    if s.philosophers[p] >= g.rules.philosophers_for_metropolis:
        s.philosophers[p] -= g.rules.philosophers_for_metropolis
        push_metropolis(g, p, "cultural")


def push_metropolis(g: Context, p: int, how: str, remove: tuple[str, ...] = (), own: bool = False) -> None:
    """p builds a Metropolis, first giving up the basic buildings `remove` (one per entry): the
    team's for the economic Metropolis (R22), only p's own when `own` (Helen, Odysseus). The
    "metropolis" frame is engine/metropolis.py's."""
    push(g, "metropolis", p, how=how, to_remove=tuple(remove), own_only=own,
         stage="remove" if remove else "site")


def destroyed(g: Context, a: int, kind: str, n: int = 1) -> None:
    """Units destroyed (not merely moved or exchanged): returned to their reserve."""
    g.emit("destroyed", area=g.board.ids[a], unit=kind, count=n)
    for f in ON_DESTROY:
        f(g, a, kind, n)


def remove_land_units(g: Context, a: int, p: int, troops: int, mercs: int, destroy: bool) -> None:
    s = g.state
    s.troops[a] -= troops
    s.mercs[a] -= mercs
    s.troops_left[p] += troops
    s.mercs_left += mercs
    if destroy:
        if troops:
            destroyed(g, a, "troop", troops)
        if mercs:
            destroyed(g, a, "merc", mercs)


def place_troops(g: Context, a: int, p: int, n: int = 1) -> None:
    s = g.state
    n = min(n, s.troops_left[p])
    if n > 0:
        s.troops_left[p] -= n
        s.troops[a] += n
        take_control(g, a, p)
        g.emit("troop", player=p, area=g.board.ids[a], count=n)


def place_mercs(g: Context, a: int, p: int, n: int = 1) -> None:
    s = g.state
    n = min(n, s.mercs_left)
    if n > 0:
        s.mercs_left -= n
        s.mercs[a] += n
        take_control(g, a, p)
        g.emit("merc", player=p, area=g.board.ids[a], count=n)


def place_fleets(g: Context, a: int, p: int, n: int = 1) -> None:
    s = g.state
    n = min(n, s.fleets_left[p])
    if n > 0:
        s.fleets_left[p] -= n
        s.fleets[a] += n
        take_control(g, a, p)
        g.emit("fleet", player=p, area=g.board.ids[a], count=n)


def buildings_left(g: Context, kind: str) -> int:
    return g.rules.buildings_per_type - g.state.sites.count(kind)
