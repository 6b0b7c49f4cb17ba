"""The Mythological Creatures with miniatures (rulebook, "Creatures with Miniatures"; the
Maelström texts are the wording of their cards, R2) -- all but the Minotaur (battle.py).

Buying one places its miniature (rulebook, "Creature with Miniatures": "Place the miniature in
an Area of the type indicated on its card, whether you control it or not. This Area must not
already contain a Creature"); the card then stays with its buyer while its maintenance is paid
(maintenance.py). What a creature changes in the rules it changes through the engine's hooks
(queries.MODIFIERS, ops.ON_DESTROY), each a method of its class marked `@plugs(hook)`, and
through the methods every miniature answers (`arrives`, `kept`, `leaves`), so that income, moves,
placement, retreats, battles and metropolis checks all see it. The decisions a creature asks of its
controller after it arrives (the Boar's and Polyphemus' displaced units, the Hydra's prey) go
through the "creature" frame like a purchase, one short choice at a time (R26). Chiron's area
and everything in it is never offered as a target to a player who does not control Chiron
(creatures.shielded).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, TypeVar

from .. import ops
from ..actions import Action
from ..creatures import CreatureFrame, Effect, effect, finish
from ..frames import push
from ..hooks import plugs
from ..metropolis import check_economic
from ..ops import ON_DESTROY
from ..queries import MODIFIERS, active_players, can_enter_sea, heroes_at, miniatures_of, sea_neighbours, shielded
from ..state import NOBODY
from ..teams import may_stop

if TYPE_CHECKING:
    from ..context import Context

PLACE = ("start", "second")  # the stages that place a miniature (Scylla, then Charybdis)


def _at(g: Context, name: str) -> int | None:
    """The area of a creature miniature on the board, or None."""
    return g.state.creature_at.get(name)


def _owner(g: Context, card: str) -> int | None:
    return g.state.creature_owner.get(card)


class Miniature(Effect):
    """Placement, common to every creature with a miniature."""

    card: str  # the creature card (set by @miniature)

    def applicable(self, g: Context, p: int) -> bool:
        minis = miniatures_of(self.card)
        return len(self.places(g, p, minis[0])) >= len(minis)

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        if f["stage"] in PLACE:
            mini = miniatures_of(f["card"])[PLACE.index(f["stage"])]
            return [Action("place_creature", what=mini, where=g.board.ids[a])
                    for a in self.places(g, f["player"], mini)]
        return self.follow_legal(g, f)

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        if a.kind != "place_creature":
            self.follow(g, f, a)
            return
        s, p, card, area = g.state, f["player"], f["card"], g.board.index[a.where]
        s.creature_owner[card] = p
        s.creature_at[a.what] = area
        g.emit("creature_placed", player=p, card=card, miniature=a.what, area=a.where)
        if a.what != miniatures_of(card)[-1]:
            f["stage"] = "second"
            return
        finish(g, f, discard=False)  # the card stays with its buyer
        self.comes_into_play(g, a.what, area, p)

    def comes_into_play(self, g: Context, mini: str, area: int, p: int) -> None:
        """Just placed (bought, or played by another card)."""
        self.arrives(g, mini, area, p)

    # Decisions after the placement (stages other than PLACE), for the cards that have some.
    def follow_legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        return []

    def follow(self, g: Context, f: CreatureFrame, a: Action) -> None:
        raise NotImplementedError


M = TypeVar("M", bound=type[Miniature])


def miniature(card: str) -> Callable[[M], M]:
    """Register a creature with a miniature: @miniature("kraken")."""
    def register(cls: M) -> M:
        cls.card = card
        return effect(card)(cls)
    return register


# --- Calydonian Boar --------------------------------------------------------------------------

@miniature("calydonian-boar")
class CalydonianBoar(Miniature):
    """Place this Creature in a Land Area. This Area is now unreachable for Heroes and Troops of
    players. Neither Heroes nor Troops may be in an Area with this Creature, move into it by any
    means, or move through it.
    The player who controls the Area with the Calydonian Boar also cannot place recruited Troops
    and Heroes in that Area.
    If Heroes or Troops are in the Area, the player who controls the Calydonian Boar moves them
    into 1 adjacent Area (a distant reachable Area cannot be chosen), so as not to cause a land
    battle (with the Troops or the Minotaur of another player). Control of the Area remains with
    the player whose Troops left it. Such a move is possible into an Area where only another
    player's Control token is located; in that case the player whose Troops moved gains control
    of the Area. If the move is impossible, the Heroes and Troops are destroyed. (...) basic Troops
    return to their owner's personal reserve, mercenary Troops return to the general reserve,
    Hero miniatures also return to the general reserve, and the corresponding cards are placed in
    the discard pile."""

    @staticmethod
    def occupied(g: Context, a: int) -> bool:
        s = g.state
        return bool(s.troops[a] or s.mercs[a] or heroes_at(g, a, count=True))

    @staticmethod
    def exits(g: Context, f: CreatureFrame) -> list[int]:
        """Adjacent land areas (same island, no fleet chain) the displaced units may enter
        without a battle."""
        s, area, p = g.state, f["area"], f["player"]
        q = s.ctrl[area]  # whose units they are
        out = []
        for x in g.board.land_adj[area]:
            other = s.ctrl[x] not in (NOBODY, q)
            if other and CalydonianBoar.occupied(g, x):
                continue  # a land battle
            if _at(g, "minotaur") == x and _owner(g, "minotaur") != q:
                continue  # another player's Minotaur: a land battle too
            if not all(fn(g, q, x) for fn in MODIFIERS["can_enter_land"]):
                continue  # Medusa's area
            if not may_stop(g, q, x) or shielded(g, p, x):
                continue
            out.append(x)
        return out

    def arrives(self, g: Context, mini: str, area: int, p: int) -> None:
        if self.occupied(g, area):
            push(g, "creature", p, card=self.card, stage="displace", area=area)

    def auto(self, g: Context, f: CreatureFrame) -> bool:
        if f["stage"] == "displace" and not self.exits(g, f):
            s, area = g.state, f["area"]
            finish(g, f, discard=False)
            g.emit("displaced_destroyed", area=g.board.ids[area], player=s.ctrl[area])
            for h in heroes_at(g, area):
                ops.discard_hero(g, h)
            ops.remove_land_units(g, area, s.ctrl[area], s.troops[area], s.mercs[area], destroy=True)
            return True
        return False

    @staticmethod
    @plugs(MODIFIERS["can_enter_land"])
    def unreachable(g: Context, p: int, a: int) -> bool:
        return g.state.creature_at.get("calydonian-boar") != a

    @staticmethod
    @plugs(MODIFIERS["can_place_land"])
    def no_recruits(g: Context, p: int, a: int) -> bool:
        return g.state.creature_at.get("calydonian-boar") != a

    def follow_legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        return [Action("displace", what="units", where=g.board.ids[x]) for x in self.exits(g, f)]

    def follow(self, g: Context, f: CreatureFrame, a: Action) -> None:
        s, area, dest = g.state, f["area"], g.board.index[a.where]
        q = s.ctrl[area]
        finish(g, f, discard=False)
        t, m, hs = s.troops[area], s.mercs[area], heroes_at(g, area)
        s.troops[area] = s.mercs[area] = 0  # the area keeps q's control token
        s.troops[dest] += t
        s.mercs[dest] += m
        for h in hs:
            s.hero_at[h] = dest
        g.emit("displaced", player=q, origin=g.board.ids[area], destination=a.where, troops=t, mercs=m,
               heroes=list(hs), fleets=0, by=f["player"])
        ops.take_control(g, dest, q)


# --- Cerberus and the Nereid ---------------------------------------------------------------

@miniature("cerberus")
class Cerberus(Miniature):
    """Place the Creature on a Land Area.
    In the Income phase, you earn the Income for that Area instead of the player who controls
    that Area."""

    @staticmethod
    @plugs(MODIFIERS["income_taken"])
    def income_taken(g: Context) -> tuple[int, int] | None:
        s = g.state
        if "cerberus" in s.creature_at and "cerberus" in s.creature_owner:
            return s.creature_at["cerberus"], s.creature_owner["cerberus"]
        return None


@miniature("nereid")
class Nereid(Miniature):
    """Place this Creature in a Sea Area.
    While you control this Creature, during the "2. Income" phase the income of the Area where
    the Nereid is located is received by you, not by the player who controls that Area.
    Note. The Nereid's ability applies when executing the Graeae ability."""

    @staticmethod
    @plugs(MODIFIERS["income_taken"])
    def income_taken(g: Context) -> tuple[int, int] | None:
        s = g.state
        if "nereid" in s.creature_at and "nereid" in s.creature_owner:
            return s.creature_at["nereid"], s.creature_owner["nereid"]
        return None


# --- Scylla and Charybdis --------------------------------------------------------------------

@miniature("scylla-charybdis")
class ScyllaCharybdis(Miniature):
    """Place these Creatures in 2 different Sea Areas. These 2 Sea Areas count as adjacent for
    your Fleets. A player may move their Fleets from the Area with Charybdis into the Area with
    Scylla, and vice versa, and the Fleets located in these Areas form a chain along which the
    player's Troops and Heroes may move.
    (One card, two miniatures: creature_at["scylla"] and creature_at["charybdis"].)"""

    @staticmethod
    @plugs(MODIFIERS["sea_links"])
    def links(g: Context, p: int, sea: int) -> Iterable[int]:
        s = g.state
        if s.creature_owner.get("scylla-charybdis") != p:
            return ()
        x, y = s.creature_at.get("scylla"), s.creature_at.get("charybdis")
        if x is None or y is None:
            return ()
        return (y,) if sea == x else (x,) if sea == y else ()


# --- Chiron --------------------------------------------------------------------------------

@miniature("chiron")
class Chiron(Miniature):
    """Place this Creature in a Land Area.
    Other players cannot move Creatures into the Area with Chiron, and cannot choose this Area,
    or anything located in it (Chiron, Prosperity tokens, Troops, etc.), as a target for Creature
    abilities. (creatures.shielded, asked by every creature's targets; placements and moves of
    creatures ask maintenance.creature_destinations.)"""


# --- Geryon --------------------------------------------------------------------------------

@miniature("geryon")
class Geryon(Miniature):
    """Place this Creature in a Land Area.
    Each time any basic Troop, mercenary Troop or Fleet of any player is destroyed, place 1 GP
    from the general reserve in the Area where Geryon is. In the "2. Income" phase, the player
    who controls the Area where the GP lie takes them into their personal reserve. When Geryon is
    moved, the GP remain in place. (cycle.take_geryon_gp)
    Note. When executing the Graeae ability, a player receives the GP accumulated by Geryon if
    they control the Area in which they lie."""

    @staticmethod
    @plugs(ON_DESTROY)
    def hears(g: Context, area: int, kind: str, n: int) -> None:
        at = _at(g, "geryon")
        if at is not None and kind in ("troop", "merc", "fleet") and "geryon" in g.state.creature_owner:
            g.state.geryon_gp[at] += n
            g.emit("geryon_gp", area=g.board.ids[at], amount=n)


# --- Hydra ---------------------------------------------------------------------------------

@miniature("hydra")
class Hydra(Miniature):
    """Place the Creature in a Land Area or Sea Area.
    During the Income Phase, double the income of its Area. Income is earned by the player who
    controls the Area where the Hydra is placed.
    When it comes into play, and during each maintenance phase, you must, if possible, destroy
    one Fleet or Troop in its Area, or in an adjacent Area, to add a Prosperity token (on its
    1-Cornucopia side) to its Area. (Any player's unit, its owner's included; a basic or a
    mercenary Troop; not a Hero.)"""

    @staticmethod
    def prey(g: Context, p: int) -> list[tuple[str, int]]:
        s, b = g.state, g.board
        at = s.creature_at["hydra"]
        out = []
        for a in (at, *b.adj[at]):
            if shielded(g, p, a):
                continue
            for kind, n in (("troop", s.troops[a]), ("merc", s.mercs[a]), ("fleet", s.fleets[a])):
                if n:
                    out.append((kind, a))
        return out

    def comes_into_play(self, g: Context, mini: str, area: int, p: int) -> None:
        feed(g, "hydra", p)

    def kept(self, g: Context, card: str, p: int) -> None:
        feed(g, card, p)

    @staticmethod
    @plugs(MODIFIERS["area_income"])
    def doubles(g: Context, a: int, base: int) -> int:
        return base * 2 if g.state.creature_at.get("hydra") == a else base

    def auto(self, g: Context, f: CreatureFrame) -> bool:
        if f["stage"] == "feed" and not self.prey(g, f["player"]):
            finish(g, f, discard=False)  # "if possible"
            return True
        return False

    def follow_legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        return [Action("destroy", what=k, where=g.board.ids[a]) for k, a in self.prey(g, f["player"])]

    def follow(self, g: Context, f: CreatureFrame, act: Action) -> None:
        s, a = g.state, g.board.index[act.where]
        finish(g, f, discard=False)
        q = s.ctrl[a]
        if act.what == "fleet":
            s.fleets[a] -= 1
            s.fleets_left[q] += 1
            if not s.fleets[a]:
                s.ctrl[a] = NOBODY  # an empty sea area is controlled by no one (R16)
            ops.destroyed(g, a, "fleet")
        else:  # an emptied land area keeps its controller's token (R16)
            troop = act.what == "troop"
            ops.remove_land_units(g, a, q, int(troop), int(not troop), destroy=True)
        at = s.creature_at["hydra"]
        s.prosperity[at] += 1
        g.emit("prosperity", player=f["player"], area=g.board.ids[at])


def feed(g: Context, card: str, p: int) -> None:
    if Hydra.prey(g, p):
        push(g, "creature", p, card=card, stage="feed")


# --- Kraken --------------------------------------------------------------------------------

@miniature("kraken")
class Kraken(Miniature):
    """Place the Creature in a Sea Area.
    If there are Fleets in the Sea Area in which the Kraken is placed or is moved to, they are
    destroyed (return the Fleets to their owner).
    The Kraken blocks access to all Fleets (including those belonging to the Kraken's owner) in
    the Sea Area where it is present."""

    def arrives(self, g: Context, mini: str, area: int, p: int) -> None:
        destroy_fleets(g, area)

    @staticmethod
    @plugs(MODIFIERS["can_enter_sea"])
    def blocks(g: Context, p: int, a: int) -> bool:
        return g.state.creature_at.get("kraken") != a  # _at inlined: asked for every sea of every move


def destroy_fleets(g: Context, sea: int) -> None:
    """All the Fleets of a sea area are destroyed: back to their owner's reserve."""
    s = g.state
    n, q = s.fleets[sea], s.ctrl[sea]
    if n:
        s.fleets[sea] = 0
        s.fleets_left[q] += n
        s.ctrl[sea] = NOBODY  # an empty sea area is controlled by no one (R16)
        ops.destroyed(g, sea, "fleet", n)


# --- Medusa --------------------------------------------------------------------------------

@miniature("medusa")
class Medusa(Miniature):
    """Place the Creature on a Land Area.
    No basic Troops, mercenary Troops, or Heroes may enter or leave this Area (including those
    belonging to Medusa's owner).
    Note: Pegasus' effect and Perseus' sacrificial power cannot help Troops and Heroes escape the
    Area occupied by Medusa. (Recruits may still be placed there: entering is moving in.)"""

    @staticmethod
    @plugs(MODIFIERS["can_enter_land"])
    def no_entry(g: Context, p: int, a: int) -> bool:
        return g.state.creature_at.get("medusa") != a

    @staticmethod
    @plugs(MODIFIERS["can_leave_land"])
    def no_exit(g: Context, p: int, a: int) -> bool:
        return g.state.creature_at.get("medusa") != a


# --- Polyphemus ----------------------------------------------------------------------------

@miniature("polyphemus")
class Polyphemus(Miniature):
    """Place the Creature on a Land Area.
    Adjacent Sea Areas are inaccessible. All Fleets present are moved to nearby Areas or
    destroyed.
    No Fleet may occupy or move through these Sea Areas while Polyphemus is in an adjacent Land
    Area.
    The player controlling Polyphemus moves the Fleets in the order and direction of their
    choice. Two Fleets of different colors may not occupy the same Area.
    If a move is impossible, the Fleets are destroyed and returned to the owner's reserve.
    (One Fleet at a time, to an adjacent sea area open to it.)"""

    @staticmethod
    def exits(g: Context, sea: int) -> list[int]:
        s = g.state
        q = s.ctrl[sea]
        return [y for y in sea_neighbours(g, q, sea)
                if s.ctrl[y] in (NOBODY, q) and can_enter_sea(g, q, y)]

    @staticmethod
    def origins(g: Context, f: CreatureFrame) -> list[int]:
        return [x for x in f["seas"] if g.state.fleets[x]]

    def arrives(self, g: Context, mini: str, area: int, p: int) -> None:
        seas = tuple(x for x in g.board.coast[area] if g.state.fleets[x])
        if seas:
            push(g, "creature", p, card=self.card, stage="fleets", seas=seas, origin=-1)

    def auto(self, g: Context, f: CreatureFrame) -> bool:
        if f["stage"] != "fleets":
            return False
        changed = False
        for x in self.origins(g, f):
            if not self.exits(g, x):  # every move is impossible: destroyed
                destroy_fleets(g, x)
                changed = True
        if not self.origins(g, f):
            finish(g, f, discard=False)
            return True
        return changed

    def follow_legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        ids = g.board.ids
        origins = self.origins(g, f)
        if f["origin"] < 0 and len(origins) > 1:
            return [Action("origin", where=ids[x]) for x in origins]
        frm = f["origin"] if f["origin"] >= 0 else origins[0]
        return [Action("displace", what="fleet", where=ids[y]) for y in self.exits(g, frm)]

    def follow(self, g: Context, f: CreatureFrame, a: Action) -> None:
        s = g.state
        if a.kind == "origin":
            f["origin"] = g.board.index[a.where]
            return
        frm = f["origin"] if f["origin"] >= 0 else self.origins(g, f)[0]
        dest, q = g.board.index[a.where], s.ctrl[frm]
        f["origin"] = -1  # the next Fleet may come from any sea
        s.fleets[frm] -= 1
        if not s.fleets[frm]:
            s.ctrl[frm] = NOBODY
        s.fleets[dest] += 1
        g.emit("displaced", player=q, origin=g.board.ids[frm], destination=g.board.ids[dest], troops=0, mercs=0,
               heroes=[], fleets=1, by=f["player"])
        ops.take_control(g, dest, q)

    @staticmethod
    @plugs(MODIFIERS["can_enter_sea"])
    def blocks(g: Context, p: int, a: int) -> bool:
        at = g.state.creature_at.get("polyphemus")  # _at inlined, likewise
        return at is None or a not in g.board.coast[at]


# --- Typhon --------------------------------------------------------------------------------

@miniature("typhon")
class Typhon(Miniature):
    """Place this Creature in a Sea Area.
    All basic Buildings built on the border with the Sea Area where Typhon is placed lose their
    properties and cannot be used to build a Metropolis.
    Metropolises built on the border with the Sea Area where Typhon is located also lose their
    properties (Port, Fortress and Temple), but still count for determining the winner.
    Note. Typhon's property does not affect buildings and Metropolises unless they are located
    directly on the border with the Sea Area where Typhon is placed."""

    def arrives(self, g: Context, mini: str, area: int, p: int) -> None:
        buildings_awake(g)

    def leaves(self, g: Context, card: str) -> None:
        buildings_awake(g)

    @staticmethod
    @plugs(MODIFIERS["building_active"])
    def silences(g: Context, site: int) -> bool:
        at = g.state.creature_at.get("typhon")  # _at inlined: asked for every building counted
        return at is None or g.board.site_area[site] not in g.board.coast[at]


def buildings_awake(g: Context) -> None:
    """Typhon moved away or left: the buildings it silenced count again, and four types make a
    Metropolis "as soon as" a player has them (rulebook, Economic development)."""
    for p in active_players(g):
        check_economic(g, p)

