"""The 16 Heroes' powers (rulebook, "Hero Descriptions"; the Maelström texts are the wording of
their cards, R2), and the Minotaur, the creature that fights as a unit.

A hero's Military Power "applies only if the Hero is involved in the Action": each is a small
method of its class plugged into the hooks of the battle (battle.BATTLE), of the Heroic Move
(moves.MOVES), of the rule queries (queries.MODIFIERS) or of the heroes (heroes.ON_*), each
marked `@plugs(hook)` where it is defined. Its Sacrificial Power is a `Power` (heroes.py)
offered on the turn menu when its conditions hold: its choices are asked in the "sacrifice"
frame, and the effect applies once the hero has left the game.

Readings (where the texts leave it open; see the tests):
- Achilles: the losing opponent first takes the round's loss as usual, then must retreat.
- Hippolyta: in a sea battle, the buildings of the land area where she stands count as both.
- Odysseus: ignoring Fortresses ignores the Fortress in a Metropolis too.
- Perseus: each troop or mercenary of his side that should be destroyed may instead retreat,
  alone, to an area where his side may retreat (R18); a hero may not.
- Heracles: "passes through" means the sea areas of the shortest fleet chain of the move; his
  owner's own creatures are destroyed too; a Heracles who leaves the game by sacrifice or in
  battle takes his creature cards to the discard pile.
- Leto: "2 Creatures placed on the game board" counts creature cards (Scylla and Charybdis: one).
- Pandora: the borrowed power's conditions must hold, with Pandora in the place of its hero
  (Hippolyta's "2 Heroes in addition to" counts heroes other than Pandora); Penthesilea's and
  Pandora's own power cannot be borrowed.
- Penthesilea: her power acts when her owner builds a Metropolis during their god's actions: the
  Metropolis goes on her card instead of a construction site, with its bonus drawn as usual. It
  counts for its owner (R21) and, never attacked, never gives its bonus again.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...content.gods import BUILDINGS
from ...content.i18n import N_
from .. import ops
from ..actions import Action
from ..battle import (
    BATTLE,
    BattleFrame,
    destroy_units,
    effective_die,
    other,
    player_of,
    retreats,
    side_heroes,
    side_of_hero,
)
from ..chance import after_chance, draw, roll
from ..creatures import EFFECTS
from ..frames import At, Frame, Handler, handler, nearest, pop, push
from ..heroes import (
    ON_HEROES_ARRIVE,
    ON_RECRUIT,
    POWERS,
    Power,
    SacrificeFrame,
    may_sacrifice,
    own_turn_god,
    power,
    remove_from_game,
)
from ..hooks import plugs
from ..metropolis import ELSEWHERE, ELSEWHERE_APPLY, MetropolisFrame, apply_bonus
from ..moves import MOVES, arrive_land, last_area_attack_allowed, leave_land
from ..ops import ON_HERO_LOST, discard_creature_card, gain_philosopher, push_metropolis
from ..queries import (
    MODIFIERS,
    buildings_of,
    card_of,
    card_on_board,
    controlled_lands,
    controlled_seas,
    creatures_on_board,
    heroes_at,
    lands_with_free_site,
    miniatures_of,
    sea_neighbours,
)
from ..state import NOBODY
from ..teams import may_attack, pay, purse
from ..turns import TurnFrame, place_building
from ..unit_choice import choose_unit, start_units, unit_choices
from .miniatures import Miniature, miniature

if TYPE_CHECKING:
    from ..context import Context


# --- small helpers ------------------------------------------------------------------------

def _owner(g: Context, hero: str) -> int | None:
    return g.state.hero_owner.get(hero)


def _metropolis_possible(g: Context, p: int) -> bool:
    """A Metropolis needs a free site of p's land areas, or a basic building of p's to replace."""
    return bool(lands_with_free_site(g, p) or buildings_of(g, p))


def _heroes_of(g: Context, p: int) -> list[str]:
    return sorted(h for h, o in g.state.hero_owner.items() if o == p)


def _area_id(g: Context, a: int) -> str:
    return g.board.ids[a]


class BuildsMetropolis(Power):
    """A power whose effect is "build a Metropolis" once its condition holds."""

    def ready(self, g: Context, p: int, hero: str) -> bool:
        return self.condition(g, p, hero) and _metropolis_possible(g, p)

    def condition(self, g: Context, p: int, hero: str) -> bool:
        raise NotImplementedError

    def effect(self, g: Context, f: SacrificeFrame) -> None:
        push_metropolis(g, f["player"], "heroic")


# --- the heroes, in alphabetical order --------------------------------------------------------

@power("achilles")
class Achilles(Power):
    """Military Power. If your opponent loses a stage of a battle, they must immediately retreat,
    if possible; otherwise all their Troops and Heroes are destroyed.
    Sacrificial Power. Build 2 basic Buildings of your choice on 2 empty building sites in one
    Land Area you control. If one of your Land Areas does not have enough empty building sites,
    you must destroy one or two of your basic Buildings in that Area in order to build the
    resulting buildings.

    Choices: the area, then for each building its type and, when no empty site is left, which of
    your basic buildings there makes way (never the one just built)."""

    @staticmethod
    @plugs(BATTLE["must_retreat"])
    def must_retreat(g: Context, f: BattleFrame) -> list[str]:
        side = side_of_hero(g, f, "achilles")
        if side and other(side) in f["losers"]:
            return [other(side)]
        return []

    @staticmethod
    def _areas(g: Context, p: int) -> list[int]:
        s = g.state
        return [a for a in controlled_lands(g, p)
                if sum(1 for i in g.board.sites_of(a) if s.sites[i] in ("", *BUILDINGS)) >= 2]

    def ready(self, g: Context, p: int, hero: str) -> bool:
        return bool(self._areas(g, p)) and sum(ops.buildings_left(g, k) for k in BUILDINGS) >= 2

    @staticmethod
    def _plan(g: Context, picks: tuple[str, ...]) -> tuple[list[str], list[bool]]:
        """The chosen area's sites once the complete (type, site given up) pairs of `picks` are
        built ("" for an empty site), and which of them are new."""
        area = g.board.index[picks[0]]
        sites = [g.state.sites[i] for i in g.board.sites_of(area)]
        new = [False] * len(sites)
        pairs = picks[1:]
        for kind, gone in zip(pairs[0::2], pairs[1::2]):
            i = next(j for j, k in enumerate(sites) if k == gone and not new[j])
            sites[i], new[i] = kind, True
        return sites, new

    def choices(self, g: Context, f: SacrificeFrame) -> list[Action]:
        p, picks = f["player"], f["chosen"]
        if not picks:
            return [Action("target_area", where=_area_id(g, a)) for a in self._areas(g, p)]
        if len(picks) == 5:
            return []
        if len(picks) % 2 == 1:  # the type of the next building
            chosen = picks[1::2]
            return [Action("choose_building", what=k) for k in BUILDINGS
                    if ops.buildings_left(g, k) > chosen.count(k)]
        sites, new = self._plan(g, picks[:-1])  # no empty site left: which building makes way
        gone = sorted({k for k, n in zip(sites, new) if k in BUILDINGS and not n})
        return [Action("replace", what=k, where=picks[0]) for k in gone]

    def choose(self, g: Context, f: SacrificeFrame, a: Action) -> None:
        if a.kind == "target_area":
            f["chosen"] = (a.where,)
            return
        f["chosen"] = f["chosen"] + (a.what,)
        if a.kind == "choose_building" and "" in self._plan(g, f["chosen"][:-1])[0]:
            f["chosen"] = f["chosen"] + ("",)  # an empty site: no choice to make

    def effect(self, g: Context, f: SacrificeFrame) -> None:
        s, p, b = g.state, f["player"], g.board
        area = b.index[f["chosen"][0]]
        new = []
        for kind, gone in zip(f["chosen"][1::2], f["chosen"][2::2]):
            site = next(i for i in b.sites_of(area) if s.sites[i] == gone and i not in new)
            if gone:
                g.emit("demolished", player=p, building=gone, area=g.board.ids[area])
            new.append(site)
            place_building(g, p, site, kind)


@power("ajax")
class Ajax(BuildsMetropolis):
    """Military Power. Ajax has a Battle Strength of 2.
    Sacrificial Power. If you control 7 Land Areas, build a Metropolis."""

    @staticmethod
    @plugs(MODIFIERS["unit_strength"])
    def strength(g: Context, p: int, a: int, kind: str, name: str, base: int) -> int:
        return 2 if kind == "hero" and name == "ajax" else base

    def condition(self, g: Context, p: int, hero: str) -> bool:
        return len(controlled_lands(g, p)) >= 7


@power("antigone")
class Antigone(BuildsMetropolis):
    """Military Power. When Antigone takes part in a battle, if the die shows "0", count it as "3".
    Sacrificial Power. Discard Prosperity tokens showing 3 Cornucopias in total from one or more
    Land or Sea Areas you control, to build a Metropolis.

    Choices: the area of each Cornucopia discarded, while there is a choice."""

    @staticmethod
    @plugs(BATTLE["die"])
    def die(g: Context, f: BattleFrame, side: str, die: int) -> int:
        return 3 if die == 0 and "antigone" in side_heroes(g, f, side) else die

    @staticmethod
    def _left(g: Context, f: SacrificeFrame) -> dict[int, int]:
        """Prosperity left per controlled area, after the choices so far."""
        s, p = g.state, f["player"]
        left = {a: s.prosperity[a] for a in controlled_lands(g, p) + controlled_seas(g, p)
                if s.prosperity[a]}
        for where in f["chosen"]:
            left[g.board.index[where]] -= 1
        return {a: n for a, n in left.items() if n}

    def condition(self, g: Context, p: int, hero: str) -> bool:
        s = g.state
        return sum(s.prosperity[a] for a in controlled_lands(g, p) + controlled_seas(g, p)) >= 3

    def choices(self, g: Context, f: SacrificeFrame) -> list[Action]:
        left = self._left(g, f)
        need = 3 - len(f["chosen"])
        if need == 0 or len(left) <= 1 or sum(left.values()) == need:
            return []  # no choice left: the rest is taken where it is
        return [Action("discard_prosperity", where=_area_id(g, a)) for a in sorted(left)]

    def choose(self, g: Context, f: SacrificeFrame, a: Action) -> None:
        f["chosen"] = f["chosen"] + (a.where,)

    def effect(self, g: Context, f: SacrificeFrame) -> None:
        s, p = g.state, f["player"]
        taken = [g.board.index[w] for w in f["chosen"]]
        left = self._left(g, f)
        for a in sorted(left):
            taken += [a] * min(left[a], 3 - len(taken))
        for a in taken:
            s.prosperity[a] -= 1
            g.emit("prosperity_discarded", player=p, area=g.board.ids[a])
        push_metropolis(g, p, "heroic")


@power("croesus")
class Croesus(BuildsMetropolis):
    """Military Power. Pay 1 GP to re-roll your Battle die as many times as you want. Each roll
    costs 1 GP.
    Sacrificial Power. Spend 15 GP to build a Metropolis.

    The re-roll is offered after both dice are rolled, while it can change the result that counts
    (not with Helen's fixed 2)."""

    COST = 15

    @staticmethod
    @plugs(BATTLE["after_roll"])
    def after_roll(g: Context, f: BattleFrame) -> None:
        side = side_of_hero(g, f, "croesus")
        if side and Croesus.may_reroll(g, f, side):
            push(g, "reroll", player_of(f, side), side=side, dice=f["dice"])

    @staticmethod
    def may_reroll(g: Context, f: BattleFrame, side: str) -> bool:
        results = {effective_die(g, f, side, d) for d in set(ops.DIE_FACES)}
        return purse(g, player_of(f, side)) >= 1 and len(results) > 1

    def condition(self, g: Context, p: int, hero: str) -> bool:
        return purse(g, p) >= self.COST

    def effect(self, g: Context, f: SacrificeFrame) -> None:
        pay(g, f["player"], self.COST)
        g.emit("paid_for_power", player=f["player"], amount=self.COST)
        push_metropolis(g, f["player"], "heroic")


class RerollFrame(Frame):
    side: str              # Croesus' side in the battle: "a" (attacker) or "d" (defender)
    dice: tuple[int, ...]  # both dice as rolled


@handler("reroll", RerollFrame)
class Reroll(Handler):
    """Croesus' owner may pay 1 GP to re-roll his side's die."""

    waits = (N_("You may pay to re-roll the die (Croesus)"),
             N_("{player} may pay to re-roll the die (Croesus)"))

    @staticmethod
    def legal(g: Context, f: RerollFrame) -> list[Action]:
        return [Action("reroll", what="croesus", n=1), Action("keep_roll")]

    @staticmethod
    def auto(g: Context, f: RerollFrame) -> bool:
        if not Croesus.may_reroll(g, nearest(g, "battle"), f["side"]):
            pop(g, f)
            return True
        return False

    @staticmethod
    def apply(g: Context, f: RerollFrame, a: Action) -> None:
        if a.kind == "keep_roll":
            pop(g, f)
            return
        pay(g, f["player"], 1)
        roll(g, 1, "croesus_reroll")


@after_chance("croesus_reroll")
def _rerolled(g: Context, dice: tuple[Any, ...], args: tuple[Any, ...]) -> None:
    f: RerollFrame = nearest(g, "reroll")
    battle: BattleFrame = nearest(g, "battle")
    die = dice[0]
    i = 0 if f["side"] == "a" else 1
    both = list(battle["dice"])
    both[i] = die
    battle["dice"] = f["dice"] = tuple(both)
    g.emit("reroll", player=f["player"], area=g.board.ids[battle["area"]], die=die, cost=1)


@power("hector")
class Hector(Power):
    """Military Power. When basic or mercenary Troops invade his Area, he destroys one of them,
    of his choosing, before the Battle.
    Sacrificial Power. Turn 2 of your Priestesses into 1 Philosopher. You can do this several
    times. (A 4th Philosopher builds a Metropolis at once.)"""

    @staticmethod
    @plugs(BATTLE["before_battle"], after=("pandora",))
    def before_battle(g: Context, f: BattleFrame) -> None:
        if f["sea"] or "hector" not in side_heroes(g, f, "d"):
            return
        kinds = [k for k, n in (("troop", f["attacker_troops"]), ("merc", f["attacker_mercenaries"]))
                 if n]
        if len(kinds) == 1:
            Hector.strike(g, f, kinds[0])
        elif kinds:
            push(g, "hector", f["defender"], area=f["area"])

    @staticmethod
    def strike(g: Context, f: BattleFrame, kind: str) -> None:
        g.emit("hector", player=f["defender"], area=g.board.ids[f["area"]], unit=kind)
        destroy_units(g, f, "a", kind)

    @staticmethod
    def _most(g: Context, p: int) -> int:
        s = g.state
        return min(s.priestesses[p] // 2, g.rules.philosophers - sum(s.philosophers))

    def ready(self, g: Context, p: int, hero: str) -> bool:
        return self._most(g, p) >= 1

    def choices(self, g: Context, f: SacrificeFrame) -> list[Action]:
        most = self._most(g, f["player"])
        if f["chosen"] or most == 1:
            return []
        return [Action("convert", what="philosopher", n=k) for k in range(1, most + 1)]

    def choose(self, g: Context, f: SacrificeFrame, a: Action) -> None:
        f["chosen"] = (a.n,)

    def effect(self, g: Context, f: SacrificeFrame) -> None:
        s, p = g.state, f["player"]
        for _ in range(f["chosen"][0] if f["chosen"] else 1):
            s.priestesses[p] -= 2  # back to the supply
            g.emit("priestesses_converted", player=p, count=2)
            gain_philosopher(g, p)


class HectorFrame(Frame):
    area: At  # the battle's area, where Hector defends


@handler("hector", HectorFrame)
class HectorStrike(Handler):
    """Hector's owner chooses which invading unit he destroys: a troop or a mercenary."""

    waits = (N_("You may destroy an invading unit (Hector)"),
             N_("{player} may destroy an invading unit (Hector)"))

    @staticmethod
    def legal(g: Context, f: HectorFrame) -> list[Action]:
        return [Action("destroy", what=k, where=_area_id(g, f["area"])) for k in ("troop", "merc")]

    @staticmethod
    def apply(g: Context, f: HectorFrame, a: Action) -> None:
        pop(g, f)
        Hector.strike(g, nearest(g, "battle"), a.what)


@power("helen")
class Helen(Power):
    """Military Power. When she fights, the result of her Battle die is always 2.
    Sacrificial Power. If you have 2 basic Buildings of one type and 2 basic Buildings of another
    type, build a Metropolis. Destroy the 4 basic Buildings and build a Metropolis on one of your
    available construction sites.

    Choices: the two types when more than two qualify; which buildings, when more than two of a
    type, are chosen as the Metropolis is built (metropolis.py, "remove")."""

    @staticmethod
    @plugs(BATTLE["die"])
    def die(g: Context, f: BattleFrame, side: str, die: int) -> int:
        return 2 if "helen" in side_heroes(g, f, side) else die

    @staticmethod
    def types(g: Context, p: int, n: int = 2) -> list[str]:
        kinds = [k for _, k in buildings_of(g, p, for_metropolis=True)]
        return [k for k in BUILDINGS if kinds.count(k) >= n]

    def ready(self, g: Context, p: int, hero: str) -> bool:
        return len(self.types(g, p)) >= 2

    def choices(self, g: Context, f: SacrificeFrame) -> list[Action]:
        types = [k for k in self.types(g, f["player"]) if k not in f["chosen"]]
        if len(f["chosen"]) == 2 or len(types) + len(f["chosen"]) == 2:
            return []
        return [Action("choose_building", what=k) for k in types]

    def choose(self, g: Context, f: SacrificeFrame, a: Action) -> None:
        f["chosen"] = f["chosen"] + (a.what,)

    def effect(self, g: Context, f: SacrificeFrame) -> None:
        types = list(f["chosen"]) + [k for k in self.types(g, f["player"]) if k not in f["chosen"]]
        t1, t2 = types[:2]
        push_metropolis(g, f["player"], "heroic", remove=(t1, t1, t2, t2), own=True)


@power("heracles")
class Heracles(BuildsMetropolis):
    """Military Power. When Heracles moves through an Area where a Creature is, or stops in such
    an Area, he destroys that Creature. The Creature's miniature is removed from the game board,
    and the Creature card is placed under the Heracles card.
    Note. If a Creature was placed in an Area where Heracles is, it is not destroyed. When
    Heracles leaves such an Area, the Creature is also not destroyed. Only moving Heracles into
    an Area with a Creature results in its destruction.
    Sacrificial Power. If at least 2 Creature cards lie under the Heracles card, build a
    Metropolis.
    Note. When the Heracles card is placed in the discard pile, the Creature cards under it are
    discarded as well.

    The cards under him are kept in `creature_cards["heracles"]`."""

    @staticmethod
    def cards(g: Context) -> tuple[str, ...]:
        """The creature cards under Heracles' card, while a player holds it."""
        if "heracles" not in g.state.hero_owner:
            return ()
        return g.state.creature_cards.get("heracles", ())

    @staticmethod
    @plugs(ON_HEROES_ARRIVE)
    def arrives(g: Context, p: int, area: int, heroes: tuple[str, ...], route: tuple[int, ...]) -> None:
        if "heracles" not in heroes:
            return
        s = g.state
        for mini, at in sorted(creatures_on_board(g).items()):
            if (at == area or at in route) and mini in s.creature_at:
                Heracles.slay(g, card_of(mini), at)

    @staticmethod
    def slay(g: Context, card: str, area: int) -> None:
        s = g.state
        owner = s.creature_owner.pop(card, None)
        for m in miniatures_of(card):
            s.creature_at.pop(m, None)
        s.creature_cards["heracles"] = (*s.creature_cards.get("heracles", ()), card)
        g.emit("creature_slain", hero="heracles", card=card, area=g.board.ids[area], owner=owner)
        EFFECTS[card].leaves(g, card)

    @staticmethod
    @plugs(ON_HERO_LOST)
    @plugs(ON_RECRUIT)
    def discard_cards(g: Context, hero: str) -> None:
        """His cards follow his card: discarded with him (and, on recruitment, any left under a
        card that left the board by another way)."""
        s = g.state
        if hero != "heracles" or not s.creature_cards.get("heracles"):
            return
        for card in s.creature_cards.pop("heracles"):
            discard_creature_card(g, card)
        g.emit("cards_discarded", hero="heracles")

    def condition(self, g: Context, p: int, hero: str) -> bool:
        return len(self.cards(g)) >= 2

    def effect(self, g: Context, f: SacrificeFrame) -> None:
        self.discard_cards(g, "heracles")
        push_metropolis(g, f["player"], "heroic")


@power("hippolyta")
class Hippolyta(BuildsMetropolis):
    """Military Power. Each of your Ports and each of your Fortresses in a Land Area where a land
    battle involving Hippolyta takes place has the properties of both a Port and a Fortress at
    the same time. The same applies during a sea battle in a Sea Area adjacent to the Land Area
    where Hippolyta is. These properties count only for determining Battle Strength and cannot be
    used to build a Metropolis.
    Sacrificial Power. If you control 2 Heroes in addition to Hippolyta, build a Metropolis."""

    @staticmethod
    @plugs(BATTLE["building_kinds"])
    def building_kinds(g: Context, f: BattleFrame, p: int, land: int, kind: str,
                       kinds: frozenset[str]) -> frozenset[str]:
        s = g.state
        if kind in ("port", "fortress") and s.hero_at.get("hippolyta") == land \
                and _owner(g, "hippolyta") == p and (f["sea"] or land == f["area"]):
            return kinds | {"port", "fortress"}
        return kinds

    def condition(self, g: Context, p: int, hero: str) -> bool:
        return len([h for h in _heroes_of(g, p) if h not in (hero, "hippolyta")]) >= 2


@power("jason")
class Jason(BuildsMetropolis):
    """Military Power. He can use enemy Fleets as his own when making a Heroic Move. He cannot use
    enemy Fleets to retreat. Reminder: Heroic Moves are not possible with Ares and Apollo.
    Sacrificial Power. If you have all your 8 Fleets in play, build a Metropolis."""

    @staticmethod
    @plugs(MOVES["heroic_reach"])
    def reach(g: Context, p: int, frm: int, hero: str) -> set[int]:
        """Land areas linked to frm by a chain of seas holding anyone's fleets."""
        if hero != "jason":
            return set()
        b, s = g.board, g.state
        seen = {x for x in b.coast[frm] if s.fleets[x]}
        todo = list(seen)
        while todo:
            for x in sea_neighbours(g, p, todo.pop()):
                if x not in seen and s.fleets[x]:
                    seen.add(x)
                    todo.append(x)
        return {land for sea in seen for land in b.coast[sea]}

    def condition(self, g: Context, p: int, hero: str) -> bool:
        return g.state.fleets_left[p] == 0


@power("leto")
class Leto(BuildsMetropolis):
    """Military Power. Even if you have chosen Apollo, Leto can still make a Heroic Move by paying
    the corresponding cost, or use her Sacrificial Power.
    Sacrificial Power. If you control 2 Mythological Creatures placed on the game board, build a
    Metropolis."""

    with_apollo = True

    @staticmethod
    @plugs(MOVES["heroic_with_apollo"])
    def heroic_with_apollo(g: Context, hero: str) -> bool:
        return hero == "leto"

    def condition(self, g: Context, p: int, hero: str) -> bool:
        s = g.state
        return sum(1 for c, o in s.creature_owner.items() if o == p and card_on_board(g, c)) >= 2


@power("odysseus")
class Odysseus(Power):
    """Military Power. When attacking, Odysseus ignores the effect of Fortresses.
    Sacrificial Power. If you have 3 basic Buildings of the same type, build a Metropolis.
    Destroy the 3 Buildings and build a Metropolis on one of your available construction sites."""

    @staticmethod
    @plugs(BATTLE["building_kinds"], after=("hippolyta",))
    def building_kinds(g: Context, f: BattleFrame, p: int, land: int, kind: str,
                       kinds: frozenset[str]) -> frozenset[str]:
        if kind == "fortress" and not f["sea"] and "odysseus" in f["attacker_heroes"]:
            return frozenset()  # the Fortress in a Metropolis, or a Port with Hippolyta, too
        return kinds

    def ready(self, g: Context, p: int, hero: str) -> bool:
        return bool(Helen.types(g, p, 3))

    def choices(self, g: Context, f: SacrificeFrame) -> list[Action]:
        types = Helen.types(g, f["player"], 3)
        if f["chosen"] or len(types) == 1:
            return []
        return [Action("choose_building", what=k) for k in types]

    def choose(self, g: Context, f: SacrificeFrame, a: Action) -> None:
        f["chosen"] = (a.what,)

    def effect(self, g: Context, f: SacrificeFrame) -> None:
        kind = f["chosen"][0] if f["chosen"] else Helen.types(g, f["player"], 3)[0]
        push_metropolis(g, f["player"], "heroic", remove=(kind,) * 3, own=True)


@power("pandora")
class Pandora(Power):
    """Military Power. In her presence, enemy mercenary Troops automatically come under her
    control. Only enemy mercenary Troops in the Pandora Battle Area are affected.
    Sacrificial Power. Use the sacrificial power of a Hero available on the Hero track. If the
    Hero track is empty, you cannot use her sacrificial power."""

    lendable = False

    @staticmethod
    @plugs(BATTLE["before_battle"])
    def before_battle(g: Context, f: BattleFrame) -> None:
        side = side_of_hero(g, f, "pandora")
        if side is None:
            return
        s, a = g.state, f["area"]
        if side == "a":
            n, s.mercs[a] = s.mercs[a], 0
            f["attacker_mercenaries"] += n
        else:
            n, f["attacker_mercenaries"] = f["attacker_mercenaries"], 0
            s.mercs[a] += n
        if n:
            g.emit("mercs_turned", player=player_of(f, side), area=g.board.ids[a], count=n)

    @staticmethod
    def _lent(g: Context, p: int, hero: str) -> list[str]:
        return [h for h in g.state.hero_track
                if h and h in POWERS and POWERS[h].lendable and POWERS[h].ready(g, p, hero)]

    def ready(self, g: Context, p: int, hero: str) -> bool:
        return bool(self._lent(g, p, hero))

    def choices(self, g: Context, f: SacrificeFrame) -> list[Action]:
        return [Action("use_power", what=h) for h in self._lent(g, f["player"], f["hero"])]

    def choose(self, g: Context, f: SacrificeFrame, a: Action) -> None:
        f["power"] = a.what


@power("penelope")
class Penelope(BuildsMetropolis):
    """Military Power. During a battle in a Sea Area adjacent to the Land Area where Penelope is,
    you gain +2 to your Battle Strength.
    Sacrificial Power. If you control 6 Sea Areas, build a Metropolis."""

    @staticmethod
    @plugs(BATTLE["battle_bonus"])
    def battle_bonus(g: Context, f: BattleFrame, p: int, total: int) -> int:
        at = g.state.hero_at.get("penelope")
        if f["sea"] and at is not None and _owner(g, "penelope") == p and at in g.board.coast[f["area"]]:
            return total + 2
        return total

    def condition(self, g: Context, p: int, hero: str) -> bool:
        return len(controlled_seas(g, p)) >= 6


@power("penthesilea")
class Penthesilea(Power):
    """Military Power. If Penthesilea is involved in a Battle that ends in a tie, you win.
    Sacrificial Power. When you build a Metropolis, place it on this card. The Metropolis cannot
    be attacked. Remove the miniature from the game and keep her card in front of your Screen.

    A round that ends in a tie is lost by her opponent only. Her power is offered where the
    Metropolis is placed (metropolis.ELSEWHERE); the Metropolis on her card is
    `metro_bonus["penthesilea"] = (owner, bonus)` and counts in queries.metropolises_of."""

    menu = False
    lendable = False

    @staticmethod
    @plugs(BATTLE["round_result"])
    def round_result(g: Context, f: BattleFrame, sa: int, sd: int, losers: tuple[str, ...]) -> tuple[str, ...]:
        side = side_of_hero(g, f, "penthesilea")
        if side and sa == sd:
            return (other(side),)
        return losers

    @staticmethod
    @plugs(ELSEWHERE)
    def place_legal(g: Context, f: MetropolisFrame) -> list[Action]:
        p = f["player"]
        if may_sacrifice(g, p, "penthesilea", own_turn_god(g, p)):
            return [Action("metropolis_on_card", what="penthesilea")]
        return []

    @staticmethod
    @plugs(ELSEWHERE_APPLY, key="metropolis_on_card")
    def place(g: Context, f: MetropolisFrame, a: Action) -> None:
        p = f["player"]
        remove_from_game(g, "penthesilea")
        draw(g, "bonus_stack", 1, "penthesilea_bonus", (p, f["how"]))

    @staticmethod
    @after_chance("penthesilea_bonus")
    def _bonus_drawn(g: Context, bonuses: tuple[Any, ...], args: tuple[Any, ...]) -> None:
        p, how = args
        bonus = bonuses[0] or ""
        g.state.metro_bonus["penthesilea"] = (p, bonus)
        g.emit("metropolis_on_card", player=p, hero="penthesilea", how=how, bonus=bonus)
        if bonus:
            apply_bonus(g, p, bonus)


@power("pericles")
class Pericles(BuildsMetropolis):
    """Military Power. Any Heroic Move made by Pericles costs 1 GP.
    Example. A player makes the 3rd Heroic Move with Pericles and pays 1 GP instead of the
    standard 3 GP. The next Heroic Move with Pericles will also cost 1 GP, and a Heroic Move with
    another Hero will cost 4 GP.
    Sacrificial Power. If all 8 of your basic Troops are on the game board, build a Metropolis."""

    @staticmethod
    @plugs(MOVES["heroic_cost"])
    def heroic_cost(g: Context, f: TurnFrame, hero: str, cost: int) -> int:
        return 1 if hero == "pericles" else cost

    def condition(self, g: Context, p: int, hero: str) -> bool:
        return g.state.troops_left[p] == 0


@power("perseus")
class Perseus(Power):
    """Military Power. Troops with Perseus that should be destroyed in Battle may retreat
    instead. Perseus cannot retreat if destroyed.
    Sacrificial Power. Move all or part of your Troops and Heroes from one Land Area to another
    Land Area. The starting and destination Areas can be anywhere on the board; they do not have
    to be adjacent or accessible to each other. Perseus may not move Troops and Heroes that are
    stuck in the Medusa's Area.

    The move is chosen like a Land Move (origin, troops, mercenaries, heroes, destination); a
    defended destination means a Land Battle, and R19 applies."""

    @staticmethod
    @plugs(BATTLE["loss_options"])
    def loss_options(g: Context, f: BattleFrame, side: str, options: list[Action]) -> list[Action]:
        if "perseus" not in side_heroes(g, f, side):
            return options
        kinds = [a.what for a in options if a.kind == "lose" and a.what in ("troop", "merc")]
        dests = retreats(g, f, side) if kinds else []
        return options + [Action("escape", what=k, where=_area_id(g, x)) for k in kinds for x in dests]

    # --- the sacrificial move ---

    @staticmethod
    def _heroes(g: Context, a: int, hero: str) -> list[str]:
        return sorted(h for h in heroes_at(g, a) if h != hero)  # the sacrificed one leaves

    @staticmethod
    def destinations(g: Context, p: int, frm: int) -> list[int]:
        s = g.state
        out = []
        for a in g.board.lands:
            if a == frm or not all(fn(g, p, a) for fn in MODIFIERS["can_enter_land"]):
                continue
            q = s.ctrl[a]
            if q not in (p, NOBODY) and not (may_attack(g, p, q, a) and last_area_attack_allowed(g, p, q, a)):
                continue
            out.append(a)
        return out

    def origins(self, g: Context, p: int, hero: str) -> list[int]:
        s = g.state
        return [a for a in controlled_lands(g, p)
                if (s.troops[a] or s.mercs[a] or self._heroes(g, a, hero))
                and all(fn(g, p, a) for fn in MODIFIERS["can_leave_land"])
                and self.destinations(g, p, a)]

    def ready(self, g: Context, p: int, hero: str) -> bool:
        return bool(self.origins(g, p, hero))

    def choices(self, g: Context, f: SacrificeFrame) -> list[Action]:
        ids, p, stage = g.board.ids, f["player"], f["stage"]
        if stage == "start":
            return [Action("origin", where=ids[a]) for a in self.origins(g, p, f["hero"])]
        if stage == "go":
            return []
        frm = f["origin"]
        if stage != "dest":
            return unit_choices(g, f, self._heroes(g, frm, f["hero"]))
        return [Action("destination", where=ids[a]) for a in self.destinations(g, p, frm)]

    def choose(self, g: Context, f: SacrificeFrame, a: Action) -> None:
        if a.kind == "origin":
            frm = g.board.index[a.where]
            f["heroes"] = ()
            start_units(g, f, frm, self._heroes(g, frm, f["hero"]))
        elif not choose_unit(g, f, a, self._heroes(g, f["origin"], f["hero"])):
            f["destination"], f["stage"] = g.board.index[a.where], "go"

    def effect(self, g: Context, f: SacrificeFrame) -> None:
        p, frm, dest = f["player"], f["origin"], f["destination"]
        g.emit("perseus", player=p, origin=g.board.ids[frm], destination=g.board.ids[dest])
        leave_land(g, frm, f["troops"], f["mercenaries"], f["heroes"])
        arrive_land(g, p, dest, f["troops"], f["mercenaries"], f["heroes"], frm)


# --- the Minotaur ---------------------------------------------------------------------------

@miniature("minotaur")
class Minotaur(Miniature):
    """Place the Creature on a Land Area you control.
    The Minotaur is a unit with a Battle Strength of 2. It may not retreat in Battle.
    In case of a defeat in a Battle Round involving the Minotaur, the player who owns the
    Minotaur decides whether or not to destroy it. If the Minotaur is their last unit, it must be
    destroyed.

    It defends the land area where it stands while its owner controls it (it does not move with
    troops); a side with the Minotaur may not retreat, so its other units stay and fight too."""

    def places(self, g: Context, p: int, mini: str) -> list[int]:
        mine = set(controlled_lands(g, p))
        return [a for a in super().places(g, p, mini) if a in mine]

    @staticmethod
    @plugs(BATTLE["creature_units"])
    def fights_for(g: Context, area: int, p: int) -> list[str]:
        s = g.state
        if s.creature_at.get("minotaur") == area and s.creature_owner.get("minotaur") == p \
                and s.ctrl[area] == p:
            return ["minotaur"]
        return []

    @staticmethod
    @plugs(MODIFIERS["unit_strength"])
    def strength(g: Context, p: int, a: int, kind: str, name: str, base: int) -> int:
        return 2 if kind == "creature" and name == "minotaur" else base

    @staticmethod
    @plugs(BATTLE["may_retreat"])
    def may_retreat(g: Context, f: BattleFrame, side: str) -> bool:
        return side == "a" or f["sea"] or not Minotaur.fights_for(g, f["area"], f["defender"])

