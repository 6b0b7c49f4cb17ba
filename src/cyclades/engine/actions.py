"""Actions: small immutable values, one per decision (R26), and the declaration of every kind.

Every action has a `kind` and up to three arguments: `what` (a god, unit, building, card or
hero), `where` (an area id) and `n` (an amount). The same four fields serialize to JSON, so bots,
the browser and tests all speak the same language.

`KINDS` declares each kind once: its arguments, what each ranges over (`Arg`: an area, a card, a
god, a count up to N...), and its words. The RL action space (agents/encoding.py), the OpenSpiel
action and chance outcome ids (env/openspiel.py), the server's schema of an action
(server/bodies.py) and `str(action)` are read from it. A chance outcome (chance="explicit",
engine/chance.py) is an action too, of a kind declared `chance=True`: no player takes it.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any, NamedTuple

from ..content.cards import BASE_BONUSES, CREATURES, HEROES, MAELSTROM_BONUSES, MINIATURES
from ..content.gods import BUILDINGS, GODS, METROPOLIS
from ..content.i18n import N_
from ..content.rulesets import RULESETS


class Action(NamedTuple):
    """A decision. A named tuple, because search builds and compares millions of them:
    its construction and equality run in C (about 3x faster than a frozen dataclass)."""
    kind: str
    what: str = ""
    where: str = ""
    n: int = 0

    def to_json(self) -> dict[str, Any]:
        d: dict[str, str | int] = {"kind": self.kind}
        if self.what:
            d["what"] = self.what
        if self.where:
            d["where"] = self.where
        if self.n:
            d["n"] = self.n
        return d

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Action:
        """The action of its JSON; a `text` (the words a server lists an action with) is no part
        of it and is left out."""
        if not isinstance(d, dict) or not isinstance(d.get("kind"), str):
            raise ValueError("an action is an object with a string 'kind'")
        what, where, n = d.get("what", ""), d.get("where", ""), d.get("n", 0)
        if not isinstance(what, str) or not isinstance(where, str) or not isinstance(n, int) \
                or isinstance(n, bool) or set(d) - {"kind", "what", "where", "n", "text"}:
            raise ValueError(f"malformed action: {d!r}")
        return cls(d["kind"], what, where, n)

    def __str__(self) -> str:
        kind = KINDS.get(self.kind)
        if kind is None:
            return f"{self.kind} {self.what} {self.where} {self.n}".strip()
        # Players are numbered from 1 for people ("Player 2" is index 1).
        return kind.text.format(what=_title(self.what), where=self.where, n=self.n, player=self.n + 1)

    def __repr__(self) -> str:
        """As it is written in Python, to be pasted back: `Action('bid', what='zeus', n=3)`."""
        args = [repr(self.kind)] + [f"{k}={v!r}" for k, v in (("what", self.what), ("where", self.where),
                                                                ("n", self.n)) if v]
        return f"Action({', '.join(args)})"


# `new_action((kind, what, where, n))`: an Action from a tuple of its four fields, built in C.
# The named tuple's own constructor is a Python function (its keyword defaults): the legal
# lists that hold many actions (every amount of every offering) are built with this instead.
new_action = partial(tuple.__new__, Action)


def _title(s: str) -> str:
    return s.replace("-", " ").title() if s else s




# --- what an argument ranges over ------------------------------------------------------------

@dataclass(frozen=True)
class Arg:
    """What an action's argument ranges over: names (`words`), the board's areas (`areas`), or
    a whole number from 0 to `high`."""
    name: str
    meaning: str
    words: tuple[str, ...] = ()
    areas: bool = False
    high: int = 0


def _unique(*groups: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(x for g in groups for x in g))


MAX_FACTIONS = 6  # six players, or two players with two factions each (R22)
# The highest bid a ruleset without a cap (classic, R10) has a slot for in the RL action space:
# GP are unlimited (R28), so any bound is a choice; 6,000 random classic games never passed 96 GP.
UNCAPPED_BID = 250

GOD = Arg("god", "a god", words=tuple(GODS))
BUILDING = Arg("building", "a building", words=_unique(BUILDINGS, (METROPOLIS,)))
# "take 3 troop", "displace units" (all of an area's units), "steal mercs" (all its mercenaries)
UNIT = Arg("unit", "a unit, a card a player gains, or a group of units",
           words=("troop", "merc", "fleet", "priestess", "philosopher", "units", "mercs"))
CREATURE = Arg("creature", "a creature card, or a miniature of a card that has two",
               words=_unique(tuple(CREATURES), tuple(m for minis in MINIATURES.values() for m in minis)))
HERO = Arg("hero", "a hero", words=tuple(HEROES))
BONUS = Arg("bonus", "a metropolis bonus token", words=_unique(BASE_BONUSES, MAELSTROM_BONUSES))
AREA = Arg("area", "an area of the board (its id)", areas=True)
TRACK_SLOT = Arg("track_slot", "a slot of the creature track, by its price",
                 words=tuple(f"slot-{c}" for c in sorted({c for r in RULESETS.values() for c in r.creature_costs})))
COST = Arg("cost", "GP paid", high=15)
BUILDING_COST = Arg("building_cost", "GP paid for a building (0: free)",
                    high=max(r.building_cost or 0 for r in RULESETS.values()))
COUNT = Arg("count", "a number of units", high=20)
BID = Arg("bid", "GP offered to a god",
          high=UNCAPPED_BID if any(r.bid_cap is None for r in RULESETS.values())
          else max([r.bid_cap or 0 for r in RULESETS.values()] + [25]))
PLAYER = Arg("player", "a player (faction) index", high=MAX_FACTIONS - 1)
FACE = Arg("face", "a battle die's face (R3)", high=3)
CARD = Arg("card", "a card drawn", words=_unique(CREATURE.words, HERO.words, BONUS.words))
PIECES = (UNIT, BUILDING, CREATURE, HERO)


@dataclass(frozen=True)
class ActionKind:
    """One kind of action: its arguments and what they range over, and its words."""
    name: str
    text: str                      # one line of English, in the rulebook's words (str(action))
    what: tuple[Arg, ...] = ()     # the names `what` takes: the union of these, in order
    where: Arg | None = None       # AREA, or the names `where` takes
    n: Arg | None = None           # the range of `n`
    chance: bool = False           # an outcome of chance (engine/chance.py), taken by no player
    words: str = ""                # what a person reads, a catalog message (engine/wording.py): its
                                   # parts {on} "on Naxos", {to} "Naxos", {a} "a Fortress", {count}...

    def whats(self) -> tuple[str, ...]:
        return _unique(*(a.words for a in self.what))


def _k(name: str, text: str, what: tuple[Arg, ...] = (), where: Arg | None = None, n: Arg | None = None,
       chance: bool = False, words: str = "") -> ActionKind:
    return ActionKind(name, text, what, where, n, chance, words)


# Every kind, in the order of the RL action space's blocks (agents/encoding.py): a new kind goes at
# the end, so that the slots of the others stay where they are.
KINDS: dict[str, ActionKind] = {k.name: k for k in (
    _k("claim", "Place a Control token on {where}", where=AREA,
       words=N_("Place a Control token {on}")),
    _k("place_fleet", "Place a Fleet in {where}", where=AREA,
       words=N_("Place a Fleet {on}")),
    _k("place_troop", "Place a Troop on {where}", where=AREA,
       words=N_("Place a Troop {on}")),
    _k("place_merc", "Place a mercenary Troop on {where}", where=AREA,
       words=N_("Place a mercenary Troop {on}")),
    _k("place_hero", "Place {what} on {where}", (HERO,), AREA,
       words=N_("Place {card} {on}")),
    _k("bid", "Offer {n} GP to {what}", (GOD,), n=BID,
       words=N_("Offer {n} GP to {god}")),
    _k("apollo", "Make an Offering to Apollo",
       words=N_("Make an Offering to Apollo")),
    _k("build", "Build a {what} on {where}", (BUILDING,), AREA, BUILDING_COST,
       words=N_("Build {a} {on}")),  # classic: bought
    _k("replace", "Build in place of your {what} on {where}", (BUILDING,), AREA,
       words=N_("Build in place of your {building} {on}")),
    _k("forgo", "Forgo this building",
       words=N_("Forgo this building")),
    _k("choose_building", "Choose a {what}", (BUILDING,),
       words=N_("Choose {a}")),
    _k("recruit", "Recruit a {what} for {n} GP", (UNIT,), n=COST,
       words=N_("Recruit {a} for {n} GP")),
    _k("recruit_hero", "Recruit {what} for {n} GP", (HERO,), n=COST,
       words=N_("Recruit {card} for {n} GP")),
    _k("sea_move", "Sea Move for {n} GP", n=COST,
       words=N_("Sea Move for {n} GP")),
    _k("land_move", "Land Move for {n} GP", n=COST,
       words=N_("Land Move for {n} GP")),
    _k("heroic_move", "Heroic Move with {what} for {n} GP", (HERO,), n=COST,
       words=N_("Heroic Move with {card} for {n} GP")),
    _k("origin", "Move from {where}", where=AREA,
       words=N_("Move from {to}")),
    _k("take", "Take {n} {what}", (UNIT,), n=COUNT,
       words=N_("Take {count}")),
    _k("take_hero", "Take {what} along", (HERO,),
       words=N_("Take {card} along")),
    _k("destination", "Move to {where}", where=AREA,
       words=N_("Move to {to}")),
    _k("lose", "Lose a {what}", (UNIT, CREATURE),
       words=N_("Lose {a}")),
    _k("lose_hero", "Lose {what}", (HERO,),
       words=N_("Lose {card}")),
    _k("retreat", "Retreat to {where}", where=AREA,
       words=N_("Retreat to {to}")),
    _k("hold", "Do not retreat",
       words=N_("Do not retreat")),
    _k("prosperity", "Place a Prosperity token on {where}", where=AREA,
       words=N_("Place a Prosperity token {on}")),
    _k("metropolis", "Build the Metropolis on {where}", where=AREA,
       words=N_("Build the Metropolis {on}")),
    _k("remove", "Give up the {what} on {where}", (BUILDING,), AREA,
       words=N_("Give up the {building} {on}")),
    _k("reserve", "Reserve {what}", (CREATURE,),
       words=N_("Reserve {creature}")),
    _k("peek", "Look at the top Creature card",
       words=N_("Look at the top Creature card")),
    _k("play_peeked", "Play the peeked {what} for {n} GP", (CREATURE,), n=COST,
       words=N_("Play the peeked card, {creature}, for {n} GP")),
    _k("return_peeked", "Put the Creature card back",
       words=N_("Put the Creature card back")),
    _k("buy_creature", "Buy {what} for {n} GP", (CREATURE,), n=COST,
       words=N_("Buy {creature} for {n} GP")),
    _k("keep", "Keep {what} by discarding a Priestess", (CREATURE,),
       words=N_("Keep {creature} by discarding a Priestess")),
    _k("release", "Release {what}", (CREATURE,),
       words=N_("Release {creature}")),
    _k("move_creature", "Move {what} to {where}", (CREATURE,), AREA,
       words=N_("Move {creature} to {to}")),
    _k("stay", "Leave {what} where it is", (CREATURE,),
       words=N_("Leave {creature} where it is")),
    _k("place_creature", "Place {what} on {where}", (CREATURE,), AREA,
       words=N_("Place {creature} {on}")),
    _k("displace", "Move the displaced {what} to {where}", (UNIT,), AREA,
       words=N_("Move the displaced {unit} to {to}")),
    _k("end_turn", "End your turn",
       words=N_("End your turn")),
    _k("target_player", "Target Player {player}", n=PLAYER,
       words=N_("Target {player}")),
    _k("target_area", "Choose {where}", where=AREA,
       words=N_("Choose {to}")),
    _k("destroy", "Destroy a {what} on {where}", PIECES, AREA,
       words=N_("Destroy {a} {on}")),
    _k("steal", "Steal {what} from {where}", PIECES, AREA,
       words=N_("Steal the {building} {on}")),
    _k("swap_hero", "Give up {what} for a Hero of the track", (HERO,),
       words=N_("Give up {card} for a Hero of the track")),
    _k("choose_hero", "Take {what} from the Hero track", (HERO,),
       words=N_("Take {card} from the Hero track")),
    _k("choose_card", "Play {what} for free", (CREATURE,),
       words=N_("Play {creature} for free")),
    _k("exchange", "Exchange 2 mercenary Troops for a {what}", (UNIT, BONUS),
       words=N_("Exchange 2 mercenary Troops for {a}")),
    _k("return_merc", "Return a mercenary Troop from {where}", where=AREA,
       words=N_("Return a mercenary Troop from {to}")),
    _k("done", "Done choosing",
       words=N_("Done choosing")),
    _k("cancel", "Cancel",
       words=N_("Cancel (go back)")),
    _k("sacrifice", "Sacrifice {what}", (HERO,),
       words=N_("Sacrifice {card}")),
    _k("use_power", "Use the Sacrificial Power of {what}", (HERO,),
       words=N_("Use the Sacrificial Power of {card}")),
    _k("discard_prosperity", "Discard a Prosperity token from {where}", where=AREA,
       words=N_("Discard a Prosperity token {on}")),
    _k("convert", "Turn 2 Priestesses into a Philosopher, {n} times", (UNIT,), n=COUNT),
    _k("metropolis_on_card", "Place the Metropolis on {what}'s card", (HERO,),
       words=N_("Place the Metropolis on {card}'s card")),
    _k("reroll", "Pay {n} GP to re-roll the die ({what})", (HERO,), n=COST,
       words=N_("Pay {n} GP to re-roll the die ({card})")),
    _k("keep_roll", "Keep the die",
       words=N_("Keep the die")),
    _k("escape", "Let a {what} retreat to {where} instead of being destroyed", (UNIT,), AREA,
       words=N_("Let {a} retreat to {to} instead of being destroyed")),
    # The classic edition (engine/classic.py).
    _k("fleet_move", "Move Fleets up to 3 sea spaces for {n} GP", n=COST,
       words=N_("Move Fleets up to 3 sea spaces for {n} GP")),
    _k("drop", "Leave {n} of the moving Fleets here", (UNIT,), n=COUNT,
       words=N_("Leave {count} of the moving Fleets here")),
    _k("swap_creature", "Replace {what} ({where}) with the top Creature card for {n} GP", (CREATURE,),
       TRACK_SLOT, COST,
       words=N_("Replace {creature} {on} with the top Creature card for {n} GP")),
    # Chance (chance="explicit"): a die's face, a card drawn.
    _k("roll", "The die shows {n}", n=FACE, chance=True),
    _k("draw", "{what} is drawn", (CARD,), chance=True),
)}
PLAYER_KINDS = tuple(k for k in KINDS.values() if not k.chance)
CHANCE_KINDS = tuple(k for k in KINDS.values() if k.chance)
# One line of English per kind a player takes, in the rulebook's words (`str(action)`).
DESCRIPTIONS = {k.name: k.text for k in PLAYER_KINDS}
