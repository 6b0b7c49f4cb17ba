"""Mythological Creatures, Heroes and Metropolis bonus tokens as data.

Which cards belong to the Maelström module is ruling R2. Behaviour that data
cannot express lives in small functions registered next to the card (see the
engine's `effects` registry); a card without one is not offered for purchase.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Creature:
    name: str
    miniature: str | None  # None, "land" or "sea": where its miniature stands
    maelstrom: bool


@dataclass(frozen=True)
class Hero:
    name: str
    maelstrom: bool


_C = Creature
CREATURES = {c.name: c for c in (
    _C("charon", None, False), _C("chimera", None, False), _C("cyclops", None, False),
    _C("dryad", None, False), _C("giant", None, False), _C("griffin", None, False),
    _C("harpy", None, False), _C("pegasus", None, False), _C("satyr", None, False),
    _C("sphinx", None, False), _C("sylph", None, False), _C("graeae", None, False),
    _C("cerberus", "land", False), _C("hydra", "any", False), _C("kraken", "sea", False),
    _C("medusa", "land", False), _C("minotaur", "land", False), _C("polyphemus", "land", False),
    # Maelström (R2)
    _C("hippalectryon", None, True), _C("hippocampus", None, True), _C("echidna", None, True),
    _C("manticore", None, True), _C("triton", None, True), _C("empusa", None, True),
    _C("erinyes", None, True), _C("geryon", "land", True), _C("nereid", "sea", True),
    _C("calydonian-boar", "land", True), _C("scylla-charybdis", "sea", True),
    _C("typhon", "sea", True), _C("chiron", "land", True),
)}

HEROES = {h.name: h for h in (
    Hero("ajax", False), Hero("croesus", False), Hero("hector", False), Hero("helen", False),
    Hero("jason", False), Hero("odysseus", False), Hero("pandora", False),
    Hero("penthesilea", False), Hero("perseus", False),
    # Maelström (R2)
    Hero("antigone", True), Hero("achilles", True), Hero("hippolyta", True), Hero("leto", True),
    Hero("penelope", True), Hero("pericles", True), Hero("heracles", True),
)}

# Metropolis bonus tokens (rulebook, "Metropolis Bonuses"): 3 copies of each.
BASE_BONUSES = ("two-troops", "prosperity", "priestess", "three-gp", "two-fleets")
MAELSTROM_BONUSES = ("reserve-creature", "basic-building", "troop-and-fleet")
BONUS_TEXT = {
    "two-troops": "Gain two Troops",
    "prosperity": "Gain a Prosperity token",
    "priestess": "Gain a Priestess",
    "three-gp": "Gain 3 GP",
    "two-fleets": "Gain two Fleets",
    "reserve-creature": "Reserve a Mythological Creature",
    "basic-building": "Build a basic Building",
    "troop-and-fleet": "Gain a basic Troop and a Fleet",
}


# The 2009 classic deck (R25): 17 cards, each played with its Legendary text.
CLASSIC_CREATURES = (("pegasus", 2), ("harpy", 2), ("dryad", 2), ("sylph", 2), ("satyr", 2),
                     ("griffin", 1), ("sphinx", 1), ("kraken", 1), ("minotaur", 1),
                     ("medusa", 1), ("polyphemus", 1), ("chiron", 1))


def classic_creature_deck() -> tuple:
    return tuple(c for c, copies in CLASSIC_CREATURES for _ in range(copies))


def creature_deck(maelstrom: bool) -> list[str]:
    return [c.name for c in CREATURES.values() if maelstrom or not c.maelstrom]


def hero_deck(maelstrom: bool) -> list[str]:
    return [h.name for h in HEROES.values() if maelstrom or not h.maelstrom]


def bonus_stack(maelstrom: bool) -> list[str]:
    kinds = BASE_BONUSES + (MAELSTROM_BONUSES if maelstrom else ())
    return [k for k in kinds for _ in range(3)]
