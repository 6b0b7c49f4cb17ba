"""Primitive changes to the state, each with its event and its rule side effects.

Everything that changes who controls an area goes through `take_control`, so
the Priestess icon (rulebook, Land Move) and elimination (R27) are never missed;
everything that destroys a unit goes through `destroyed`, which creatures such
as Geryon listen to. What a change means to a higher module (a conquered building that
completes the four types) is announced through the hooks of engine/hooks.py.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .frames import push
from .hooks import ON_BUILDINGS_GAINED, ON_CREATURE_LEAVES, ON_DESTROY, ON_HERO_LOST
from .queries import miniatures_of
from .state import NOBODY

if TYPE_CHECKING:
    from .game import Game

DIE_FACES = (0, 1, 1, 2, 2, 3)  # R3


def rand(g: Game, n: int) -> int:
    """A uniform integer in [0, n) from the state's own generator (R4): splitmix64."""
    s = g.state
    x = (s.rng + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    s.rng = x
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return (x ^ (x >> 31)) % n


def shuffle(g: Game, items: list) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = rand(g, i + 1)
        items[i], items[j] = items[j], items[i]


def roll_die(g: Game) -> int:
    """One battle die (R3); a scenario may force the next results."""
    s = g.state
    if s.dice:
        return s.dice.pop(0)
    return DIE_FACES[rand(g, 6)]


def emit(g: Game, kind: str, **data: Any) -> None:
    """Record an event for `Game.apply` to return: a kind declared in engine/events.py with
    exactly its fields, areas already as board ids (`g.board.ids[a]`)."""
    if g.events is not None:
        data["type"] = kind
        g.events.append(data)


def gain_gp(g: Game, p: int, n: int) -> None:
    if n:
        g.state.gp[p] += n
        emit(g, "gp", player=p, amount=n)


def gain_priestess(g: Game, p: int, n: int = 1) -> None:
    s = g.state
    n = min(n, g.rules.priestesses - sum(s.priestesses))  # R28
    if n > 0:
        s.priestesses[p] += n
        emit(g, "priestess", player=p, amount=n)


def take_control(g: Game, a: int, p: int) -> None:
    """p now controls area a (their units are there, or their control token)."""
    s = g.state
    old = s.ctrl[a]
    if old == p:
        return
    s.ctrl[a] = p
    if g.board.is_land[a] and p != NOBODY:
        emit(g, "control", player=p, area=g.board.ids[a], previous=None if old == NOBODY else old)
        if g.board.priestess[a]:
            gain_priestess(g, p)  # the Priestess icon (rulebook, Land Move)
    if old != NOBODY and g.board.is_land[a]:
        check_elimination(g, old)
    if p != NOBODY and g.board.is_land[a] and any(g.state.sites[i] for i in g.board.sites_of(a)):
        # Conquered buildings may complete the four types: "as soon as" (Metropolises).
        for fn in ON_BUILDINGS_GAINED:
            fn(g, p)


def check_elimination(g: Game, p: int) -> None:
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
    emit(g, "eliminated", player=p)


def discard_hero(g: Game, h: str) -> None:
    """A hero destroyed (battle, Manticore, Boar, elimination): miniature gone, card discarded,
    and whatever the hooks attach to the card (Heracles' creatures) goes with it."""
    s = g.state
    s.hero_at.pop(h, None)
    p = s.hero_owner.pop(h, None)
    s.hero_since.pop(h, None)
    s.hero_discard.append(h)
    emit(g, "hero_lost", hero=h, player=p)
    for fn in ON_HERO_LOST:
        fn(g, h)


def release_creature(g: Game, c: str) -> None:
    s = g.state
    s.creature_at.pop(c, None)
    s.creature_owner.pop(c, None)
    s.creature_discard.append(c)
    emit(g, "creature_leaves", card=c)


def release(g: Game, card: str) -> None:
    """The card leaves the board (unpaid, destroyed): its miniatures are removed, the card
    discarded."""
    release_creature(g, card)
    remove_miniatures(g, card)


def remove_miniatures(g: Game, card: str) -> None:
    """The card's miniatures leave the board (Scylla and Charybdis: both), and the effect they
    had ends (Typhon's silenced buildings count again)."""
    for m in miniatures_of(card):
        g.state.creature_at.pop(m, None)
    if card in ON_CREATURE_LEAVES:
        ON_CREATURE_LEAVES[card](g, card)


# --- the decks ------------------------------------------------------------------------------

def draw(g: Game, deck: list, discard: list) -> str | None:
    """The top card of a deck; an empty deck is remade from its shuffled discard pile."""
    if not deck and discard:
        deck.extend(discard)
        discard.clear()
        shuffle(g, deck)
    return deck.pop() if deck else None


def discard_creature_card(g: Game, card: str) -> None:
    """Into the discard pile; the Chimera shuffles deck and discards together (Chimera)."""
    s = g.state
    s.creature_discard.append(card)
    if card == "chimera":
        s.creature_deck.extend(s.creature_discard)
        s.creature_discard.clear()
        shuffle(g, s.creature_deck)
        g.emit("reshuffle", deck="creatures")


# --- Philosophers and the Metropolis they build --------------------------------------------

def gain_philosopher(g: Game, p: int) -> None:
    s = g.state
    if sum(s.philosophers) >= g.rules.philosophers:
        return  # R28
    s.philosophers[p] += 1
    g.emit("philosopher", player=p)
    if s.philosophers[p] >= g.rules.philosophers_for_metropolis:
        s.philosophers[p] -= g.rules.philosophers_for_metropolis
        push_metropolis(g, p, "cultural")


def push_metropolis(g: Game, p: int, how: str, remove: tuple = (), own: bool = False) -> None:
    """p builds a Metropolis, first giving up the basic buildings `remove` (one per entry): the
    team's for the economic Metropolis (R22), only p's own when `own` (Helen, Odysseus). The
    "metro" frame is engine/metropolis.py's."""
    push(g, "metro", p, how=how, to_remove=tuple(remove), own_only=own,
         stage="remove" if remove else "site")


def destroyed(g: Game, a: int, kind: str, n: int = 1) -> None:
    """Units destroyed (not merely moved or exchanged): returned to their reserve."""
    emit(g, "destroyed", area=g.board.ids[a], unit=kind, count=n)
    for f in ON_DESTROY:
        f(g, a, kind, n)


def remove_land_units(g: Game, a: int, p: int, troops: int, mercs: int, destroy: bool) -> None:
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


def place_troops(g: Game, a: int, p: int, n: int = 1) -> None:
    s = g.state
    n = min(n, s.troops_left[p])
    if n > 0:
        s.troops_left[p] -= n
        s.troops[a] += n
        take_control(g, a, p)
        emit(g, "troop", player=p, area=g.board.ids[a], count=n)


def place_mercs(g: Game, a: int, p: int, n: int = 1) -> None:
    s = g.state
    n = min(n, s.mercs_left)
    if n > 0:
        s.mercs_left -= n
        s.mercs[a] += n
        take_control(g, a, p)
        emit(g, "merc", player=p, area=g.board.ids[a], count=n)


def place_fleets(g: Game, a: int, p: int, n: int = 1) -> None:
    s = g.state
    n = min(n, s.fleets_left[p])
    if n > 0:
        s.fleets_left[p] -= n
        s.fleets[a] += n
        take_control(g, a, p)
        emit(g, "fleet", player=p, area=g.board.ids[a], count=n)


def buildings_left(g: Game, kind: str) -> int:
    return g.rules.buildings_per_type - g.state.sites.count(kind)
