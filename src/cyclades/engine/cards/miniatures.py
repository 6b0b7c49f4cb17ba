"""The Mythological Creatures with miniatures (rulebook, "Creatures with Miniatures"; the
Maelström texts are the wording of their cards, R2) -- all but the Minotaur (battle.py).

Buying one places its miniature (rulebook, "Creature with Miniatures": "Place the miniature in
an Area of the type indicated on its card, whether you control it or not. This Area must not
already contain a Creature"); the card then stays with its buyer while its maintenance is paid
(maintenance.py). What a creature changes in the rules it changes through the engine's hooks
(queries.MODIFIERS, ops.ON_DESTROY, maintenance.ON_*), so that income, moves, placement,
retreats, battles and metropolis checks all see it. The decisions a creature asks of its
controller after it arrives (the Boar's and Polyphemus' displaced units, the Hydra's prey) go
through the "creature" frame like a purchase, one short choice at a time (R26). Chiron's area
and everything in it is never offered as a target to a player who does not control Chiron
(creatures.shielded).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...content.cards import CREATURES
from .. import ops
from ..actions import Action
from ..creatures import EFFECTS, CreatureFrame, Effect, effect, finish, shielded
from ..frames import push
from ..maintenance import ON_CREATURE_ARRIVES, ON_CREATURE_LEAVES, ON_MAINTENANCE, creature_destinations
from ..metropolis import check_economic
from ..queries import MODIFIERS, active_players, can_enter_sea, heroes_at, miniatures_of, sea_neighbours
from ..state import NOBODY

if TYPE_CHECKING:
    from ..game import Game

PLACE = ("start", "second")  # the stages that place a miniature (Scylla, then Charybdis)


def _at(g, name):
    """The area of a creature miniature on the board, or None."""
    return g.state.creature_at.get(name)


def _owner(g, card):
    return g.state.creature_owner.get(card)


class Miniature(Effect):
    """Placement, common to every creature with a miniature."""

    card: str  # the creature card (set by @miniature)

    def places(self, g: Game, p: int, mini: str) -> list:
        """Where p may place the miniature: its card's area type, no Creature there, not another
        player's Chiron's area."""
        return creature_destinations(g, mini, p=p)

    def applicable(self, g: Game, p: int) -> bool:
        minis = miniatures_of(self.card)
        return len(self.places(g, p, minis[0])) >= len(minis)

    def legal(self, g: Game, f: CreatureFrame) -> list:
        if f["stage"] in PLACE:
            mini = miniatures_of(f["card"])[PLACE.index(f["stage"])]
            return [Action("place_creature", what=mini, where=g.board.ids[a])
                    for a in self.places(g, f["player"], mini)]
        return self.follow_legal(g, f)

    def apply(self, g: Game, f: CreatureFrame, a: Action) -> None:
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

    def comes_into_play(self, g: Game, mini: str, area: int, p: int) -> None:
        """Just placed (bought, or played by another card)."""
        self.arrives(g, mini, area, p)

    def arrives(self, g: Game, mini: str, area: int, p: int) -> None:
        """Placed, or moved here (maintenance, Echidna): maintenance.ON_CREATURE_ARRIVES."""

    # Decisions after the placement (stages other than PLACE), for the cards that have some.
    def follow_legal(self, g: Game, f: CreatureFrame) -> Any:
        return []

    def follow(self, g: Game, f: CreatureFrame, a: Action) -> None:
        raise NotImplementedError


def miniature(card: str) -> Callable[..., Any]:
    """Register a creature with a miniature: @miniature("kraken")."""
    def register(cls):
        cls.card = card
        return effect(card)(cls)
    return register


def _hook(name):
    def register(fn):
        MODIFIERS[name].append(fn)
        return fn
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
    def occupied(g: Game, a: int) -> bool:
        s = g.state
        return bool(s.troops[a] or s.mercs[a] or heroes_at(g, a, count=True))

    @staticmethod
    def exits(g: Game, f: CreatureFrame) -> list:
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
            if not g.may_stop(q, x) or shielded(g, p, x):
                continue
            out.append(x)
        return out

    def arrives(self, g: Game, mini: str, area: int, p: int) -> None:
        if self.occupied(g, area):
            push(g, "creature", p, card=self.card, stage="displace", area=area)

    def auto(self, g: Game, f: CreatureFrame) -> bool:
        if f["stage"] == "displace" and not self.exits(g, f):
            s, area = g.state, f["area"]
            finish(g, f, discard=False)
            g.emit("displaced_destroyed", area=g.board.ids[area], player=s.ctrl[area])
            for h in heroes_at(g, area):
                ops.discard_hero(g, h)
            ops.remove_land_units(g, area, s.ctrl[area], s.troops[area], s.mercs[area], destroy=True)
            return True
        return False

    def follow_legal(self, g: Game, f: CreatureFrame) -> list:
        return [Action("displace", what="units", where=g.board.ids[x]) for x in self.exits(g, f)]

    def follow(self, g: Game, f: CreatureFrame, a: Action) -> None:
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


@_hook("can_enter_land")
def _boar_unreachable(g, p, a):
    return g.state.creature_at.get("calydonian-boar") != a


@_hook("can_place_land")
def _boar_no_recruits(g, p, a):
    return g.state.creature_at.get("calydonian-boar") != a


# --- Cerberus and the Nereid ---------------------------------------------------------------

@miniature("cerberus")
class Cerberus(Miniature):
    """Place the Creature on a Land Area.
    In the Income phase, you earn the Income for that Area instead of the player who controls
    that Area."""


@miniature("nereid")
class Nereid(Miniature):
    """Place this Creature in a Sea Area.
    While you control this Creature, during the "2. Income" phase the income of the Area where
    the Nereid is located is received by you, not by the player who controls that Area.
    Note. The Nereid's ability applies when executing the Graeae ability."""


@_hook("income_to")
def _income_to_creature_owner(g, a, p):
    s = g.state
    at = s.creature_at
    if at.get("cerberus") != a and at.get("nereid") != a:  # the common case, answered first
        return p
    for card in ("cerberus", "nereid"):
        if at.get(card) == a and card in s.creature_owner:
            return s.creature_owner[card]
    return p


# --- Scylla and Charybdis --------------------------------------------------------------------

@miniature("scylla-charybdis")
class ScyllaCharybdis(Miniature):
    """Place these Creatures in 2 different Sea Areas. These 2 Sea Areas count as adjacent for
    your Fleets. A player may move their Fleets from the Area with Charybdis into the Area with
    Scylla, and vice versa, and the Fleets located in these Areas form a chain along which the
    player's Troops and Heroes may move.
    (One card, two miniatures: creature_at["scylla"] and creature_at["charybdis"].)"""


@_hook("sea_links")
def _scylla_charybdis_link(g, p, sea):
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


def _geryon_hears(g, area, kind, n):
    at = _at(g, "geryon")
    if at is not None and kind in ("troop", "merc", "fleet") and "geryon" in g.state.creature_owner:
        g.state.geryon_gp[at] += n
        g.emit("geryon_gp", area=g.board.ids[at], amount=n)


ops.ON_DESTROY.append(_geryon_hears)


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
    def prey(g: Game, p: int) -> list:
        s, b = g.state, g.board
        at = _at(g, "hydra")
        out = []
        for a in (at,) + b.adj[at]:
            if shielded(g, p, a):
                continue
            for kind, n in (("troop", s.troops[a]), ("merc", s.mercs[a]), ("fleet", s.fleets[a])):
                if n:
                    out.append((kind, a))
        return out

    def comes_into_play(self, g: Game, mini: str, area: int, p: int) -> None:
        feed(g, "hydra", p)

    def auto(self, g: Game, f: CreatureFrame) -> bool:
        if f["stage"] == "feed" and not self.prey(g, f["player"]):
            finish(g, f, discard=False)  # "if possible"
            return True
        return False

    def follow_legal(self, g: Game, f: CreatureFrame) -> list:
        return [Action("destroy", what=k, where=g.board.ids[a]) for k, a in self.prey(g, f["player"])]

    def follow(self, g: Game, f: CreatureFrame, act: Action) -> None:
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
        at = _at(g, "hydra")
        s.prosperity[at] += 1
        g.emit("prosperity", player=f["player"], area=g.board.ids[at])


def feed(g: Game, card: str, p: int) -> None:
    if Hydra.prey(g, p):
        push(g, "creature", p, card=card, stage="feed")


ON_MAINTENANCE["hydra"] = feed


@_hook("area_income")
def _hydra_doubles(g, a, base):
    return base * 2 if g.state.creature_at.get("hydra") == a else base


# --- Kraken --------------------------------------------------------------------------------

@miniature("kraken")
class Kraken(Miniature):
    """Place the Creature in a Sea Area.
    If there are Fleets in the Sea Area in which the Kraken is placed or is moved to, they are
    destroyed (return the Fleets to their owner).
    The Kraken blocks access to all Fleets (including those belonging to the Kraken's owner) in
    the Sea Area where it is present."""

    def arrives(self, g: Game, mini: str, area: int, p: int) -> None:
        destroy_fleets(g, area)


def destroy_fleets(g: Game, sea: int) -> None:
    """All the Fleets of a sea area are destroyed: back to their owner's reserve."""
    s = g.state
    n, q = s.fleets[sea], s.ctrl[sea]
    if n:
        s.fleets[sea] = 0
        s.fleets_left[q] += n
        s.ctrl[sea] = NOBODY  # an empty sea area is controlled by no one (R16)
        ops.destroyed(g, sea, "fleet", n)


@_hook("can_enter_sea")
def _kraken_blocks(g, p, a):
    return g.state.creature_at.get("kraken") != a  # _at inlined: asked for every sea of every move


# --- Medusa --------------------------------------------------------------------------------

@miniature("medusa")
class Medusa(Miniature):
    """Place the Creature on a Land Area.
    No basic Troops, mercenary Troops, or Heroes may enter or leave this Area (including those
    belonging to Medusa's owner).
    Note: Pegasus' effect and Perseus' sacrificial power cannot help Troops and Heroes escape the
    Area occupied by Medusa. (Recruits may still be placed there: entering is moving in.)"""


@_hook("can_enter_land")
def _medusa_no_entry(g, p, a):
    return g.state.creature_at.get("medusa") != a


@_hook("can_leave_land")
def _medusa_no_exit(g, p, a):
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
    def exits(g: Game, sea: int) -> list:
        s = g.state
        q = s.ctrl[sea]
        return [y for y in sea_neighbours(g, q, sea)
                if s.ctrl[y] in (NOBODY, q) and can_enter_sea(g, q, y)]

    @staticmethod
    def origins(g: Game, f: CreatureFrame) -> list:
        return [x for x in f["seas"] if g.state.fleets[x]]

    def arrives(self, g: Game, mini: str, area: int, p: int) -> None:
        seas = tuple(x for x in g.board.coast[area] if g.state.fleets[x])
        if seas:
            push(g, "creature", p, card=self.card, stage="fleets", seas=seas, origin=-1)

    def auto(self, g: Game, f: CreatureFrame) -> bool:
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

    def follow_legal(self, g: Game, f: CreatureFrame) -> list:
        ids = g.board.ids
        origins = self.origins(g, f)
        if f["origin"] < 0 and len(origins) > 1:
            return [Action("origin", where=ids[x]) for x in origins]
        frm = f["origin"] if f["origin"] >= 0 else origins[0]
        return [Action("displace", what="fleet", where=ids[y]) for y in self.exits(g, frm)]

    def follow(self, g: Game, f: CreatureFrame, a: Action) -> None:
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


@_hook("can_enter_sea")
def _polyphemus_blocks(g, p, a):
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

    def arrives(self, g: Game, mini: str, area: int, p: int) -> None:
        buildings_awake(g)


@_hook("building_active")
def _typhon_silences(g, site):
    at = g.state.creature_at.get("typhon")  # _at inlined: asked for every building counted
    return at is None or g.board.site_area[site] not in g.board.coast[at]


def buildings_awake(g: Game, *_: Any) -> None:
    """Typhon moved away or left: the buildings it silenced count again, and four types make a
    Metropolis "as soon as" a player has them (rulebook, Economic development)."""
    for p in active_players(g):
        check_economic(g, p)


# --- arrivals by a move (maintenance, Echidna) ------------------------------------------------

ON_CREATURE_ARRIVES.update({c: EFFECTS[c].arrives for c in ("calydonian-boar", "kraken",
                                                              "polyphemus", "typhon")})
ON_CREATURE_LEAVES["typhon"] = buildings_awake

assert all(CREATURES[c].miniature for c in ("calydonian-boar", "cerberus", "scylla-charybdis",
                                            "chiron", "geryon", "hydra", "kraken", "medusa",
                                            "nereid", "polyphemus", "typhon"))
