"""Mythological Creatures, Heroes and Metropolis bonus tokens as data.

Which cards belong to the Maelström module is ruling R2. Behaviour that data
cannot express lives in one small class per card in engine/cards/ (the engine's `EFFECTS`,
engine/hooks.py); a card without one is not offered for purchase. A new creature is an entry
here (id, names, text, worth), its class and its test: nothing else names it.
"""
from dataclasses import dataclass

from .i18n import N_


@dataclass(frozen=True)
class Creature:
    """Everything about a creature card except its behaviour (one class in engine/cards/)."""
    name: str
    title: str  # its name on the card, and as a sentence names it ("the Harpy", "Pegasus"):
    called: str  # catalog messages (content/i18n.py), read through content/names.py
    miniature: str | None  # None, "land", "sea" or "any": where its miniature stands
    maelstrom: bool = False  # a Maelström card (R2)
    worth: float = 1.0  # what the greedy bot reckons its effect is worth, in GP (agents/greedy.py)
    keep_worth: float = 1.5  # ... and keeping its miniature for a Priestess (Maintenance)
    text: str = ""  # what it does, in the project's own words (content/descriptions.py)


# Scylla and Charybdis are one card with two miniatures; every other card's miniature bears the
# card's name (the engine keys `creature_at` by miniature, `creature_owner` by card).
MINIATURES = {"scylla-charybdis": ("scylla", "charybdis")}


@dataclass(frozen=True)
class Hero:
    name: str
    maelstrom: bool
    title: str = ""  # its name, a catalog message (content/names.py)


_C = Creature
CREATURES = {c.name: c for c in (
    _C("charon", N_("Charon"), N_("Charon"), None, worth=0.5,
       text=N_("Trade one of your Heroes for a Hero on the Hero track. The newcomer cannot be "
            "sacrificed this cycle. Wasted if the Hero track is empty.")),
    _C("chimera", N_("Chimera"), N_("the Chimera"), None, worth=3.0,
       text=N_("Play any card of the Creature discard pile for free; then the discard pile is "
            "shuffled back into the deck.")),
    _C("cyclops", N_("Cyclops"), N_("the Cyclops"), None, worth=0.0,
       text=N_("Swap one of your basic Buildings for a basic Building of another type.")),
    _C("dryad", N_("Dryad"), N_("the Dryad"), None, worth=4.0,
       text=N_("Take a Priestess from another player.")),
    _C("giant", N_("Giant"), N_("the Giant"), None, worth=2.0,
       text=N_("Take every mercenary Troop standing on one Land Area and put them on Land Areas you "
            "control.")),
    _C("griffin", N_("Griffin"), N_("the Griffin"), None, worth=3.0,
       text=N_("Take half of another player's GP (rounded down).")),
    _C("harpy", N_("Harpy"), N_("the Harpy"), None, worth=3.0,
       text=N_("Remove one Troop (basic or mercenary) from any Land Area. Heroes are safe from her.")),
    _C("pegasus", N_("Pegasus"), N_("Pegasus"), None, worth=0.0,
       text=N_("Carry any of your Troops and Heroes from one Land Area to any other Land Area on the"
            " board, for free: no Fleets or neighbouring areas needed. Landing among enemies "
            "starts a battle.")),
    _C("satyr", N_("Satyr"), N_("the Satyr"), None, worth=0.0,
       text=N_("Take a Philosopher from another player. If it is your fourth, you build a Metropolis"
            " at once.")),
    _C("sphinx", N_("Sphinx"), N_("the Sphinx"), None, worth=4.0,
       text=N_("Draw three Creature cards: play one of them for free and discard the other two.")),
    _C("sylph", N_("Sylph"), N_("the Sylph"), None, worth=1.0,
       text=N_("Swap the Fleets of two Sea Areas anywhere on the board, whoever owns them (both "
            "areas must hold Fleets).")),
    _C("graeae", N_("Graeae"), N_("the Graeae"), None, worth=0.0,
       text=N_("Collect your income a second time: 1 GP for each Cornucopia in the areas you control"
            " now.")),
    _C("cerberus", N_("Cerberus"), N_("Cerberus"), "land", worth=5.0, keep_worth=5.0,
       text=N_("Miniature on a Land Area. At Income you collect that area's income instead of the "
            "player who controls it.")),
    _C("hydra", N_("Hydra"), N_("the Hydra"), "any", worth=5.0, keep_worth=5.0,
       text=N_("Miniature on a Land or Sea Area, whose income it doubles for its controller. When it"
            " arrives, and at each Maintenance, it must eat a Troop or Fleet in or next to its "
            "area, which adds a Prosperity token there.")),
    _C("kraken", N_("Kraken"), N_("the Kraken"), "sea", worth=2.0, keep_worth=2.0,
       text=N_("Miniature on a Sea Area. Every Fleet where it arrives or moves is sunk, and no Fleet"
            " (not even yours) may enter its area.")),
    _C("medusa", N_("Medusa"), N_("Medusa"), "land", worth=1.5,
       text=N_("Miniature on a Land Area. No Troop, mercenary or Hero may enter or leave her area, "
            "not even yours.")),
    _C("minotaur", N_("Minotaur"), N_("the Minotaur"), "land", worth=4.0, keep_worth=4.0,
       text=N_("Miniature on a Land Area you control, which it defends with a Strength of 2. Its "
            "side never retreats; after a lost round you choose whether it falls (it must if it "
            "is your last unit).")),
    _C("polyphemus", N_("Polyphemus"), N_("Polyphemus"), "land", worth=2.0,
       text=N_("Miniature on a Land Area. The seas next to him close: you push the Fleets there to "
            "other seas (those that cannot go are destroyed), and no Fleet may enter or cross "
            "them.")),
    # Maelström (R2)
    _C("hippalectryon", N_("Hippalectryon"), N_("the Hippalectryon"), None, maelstrom=True, worth=0.0,
       text=N_("Trade two of your mercenary Troops for a Prosperity token, a Priestess or a "
            "Philosopher, as many times as you like.")),
    _C("hippocampus", N_("Hippocampus"), N_("the Hippocampus"), None, maelstrom=True, worth=0.5,
       text=N_("Turn any number of your Fleets in one Sea Area you control into as many mercenary "
            "Troops on your Land Areas.")),
    _C("echidna", N_("Echidna"), N_("Echidna"), None, maelstrom=True, worth=1.0,
       text=N_("Take a Creature from another player; you may then move its miniature to another area"
            " it may stand in.")),
    _C("manticore", N_("Manticore"), N_("the Manticore"), None, maelstrom=True, worth=2.0,
       text=N_("Destroy one Creature or Hero miniature on the board (its card is discarded).")),
    _C("triton", N_("Triton"), N_("Triton"), None, maelstrom=True, worth=0.0,
       text=N_("Take a basic Building from another player and build it on one of your Land Areas "
            "(replacing one of your own buildings if no site is free).")),
    _C("empusa", N_("Empusa"), N_("the Empusa"), None, maelstrom=True, worth=0.0,
       text=N_("Do the free actions of your god once more: its building, then its recruit.")),
    _C("erinyes", N_("Erinyes"), N_("the Erinyes"), None, maelstrom=True, worth=4.0,
       text=N_("Move a Prosperity token worth one Cornucopia, anyone's, to any other area.")),
    _C("geryon", N_("Geryon"), N_("Geryon"), "land", maelstrom=True, worth=2.0, keep_worth=2.5,
       text=N_("Miniature on a Land Area. Each time any Troop, mercenary or Fleet is destroyed, 1 GP"
            " is laid in his area; whoever controls that area collects it at Income.")),
    _C("nereid", N_("Nereid"), N_("the Nereid"), "sea", maelstrom=True, worth=3.0, keep_worth=3.5,
       text=N_("Miniature on a Sea Area. At Income you collect the income of her area instead of the"
            " player who controls it.")),
    _C("calydonian-boar", N_("Calydonian Boar"), N_("the Calydonian Boar"), "land", maelstrom=True, worth=3.0,
       text=N_("Miniature on a Land Area, which closes: no Troop or Hero may stay, enter or cross "
            "it. You push the ones there to a neighbouring area.")),
    _C("scylla-charybdis", N_("Scylla and Charybdis"), N_("Scylla and Charybdis"), "sea", maelstrom=True, worth=1.0,
       text=N_("Two miniatures on two Sea Areas, which count as neighbours for your Fleets: your "
            "Fleets sail between them and your Troops cross along them.")),
    _C("typhon", N_("Typhon"), N_("Typhon"), "sea", maelstrom=True, worth=3.0, keep_worth=3.0,
       text=N_("Miniature on a Sea Area. Buildings on its shores lose their effects and do not count"
            " toward a Metropolis; a Metropolis there still counts for victory.")),
    _C("chiron", N_("Chiron"), N_("Chiron"), "land", maelstrom=True, worth=1.5,
       text=N_("Miniature on a Land Area. Other players cannot bring Creatures there, nor aim "
            "Creature powers at the area or anything in it.")),
)}

HEROES = {h.name: h for h in (
    Hero("ajax", False, N_("Ajax")),
    Hero("croesus", False, N_("Croesus")),
    Hero("hector", False, N_("Hector")),
    Hero("helen", False, N_("Helen")),
    Hero("jason", False, N_("Jason")),
    Hero("odysseus", False, N_("Odysseus")),
    Hero("pandora", False, N_("Pandora")),
    Hero("penthesilea", False, N_("Penthesilea")),
    Hero("perseus", False, N_("Perseus")),
    # Maelström (R2)
    Hero("antigone", True, N_("Antigone")),
    Hero("achilles", True, N_("Achilles")),
    Hero("hippolyta", True, N_("Hippolyta")),
    Hero("leto", True, N_("Leto")),
    Hero("penelope", True, N_("Penelope")),
    Hero("pericles", True, N_("Pericles")),
    Hero("heracles", True, N_("Heracles")),
)}

# Metropolis bonus tokens (rulebook, "Metropolis Bonuses"): 3 copies of each.
BASE_BONUSES = ("two-troops", "prosperity", "priestess", "three-gp", "two-fleets")
MAELSTROM_BONUSES = ("reserve-creature", "basic-building", "troop-and-fleet")
# Each token's name and what it gives, as the log says it (catalog messages: content/names.py).
BONUS_TITLES = {
    "two-troops": N_("Two Troops"), "prosperity": N_("Prosperity"), "priestess": N_("A Priestess"),
    "three-gp": N_("3 GP"), "two-fleets": N_("Two Fleets"), "reserve-creature": N_("Reserve a Creature"),
    "basic-building": N_("A building"), "troop-and-fleet": N_("Troop and Fleet"),
}
BONUS_TEXT = {
    "two-troops": N_("Gain two Troops"),
    "prosperity": N_("Gain a Prosperity token"),
    "priestess": N_("Gain a Priestess"),
    "three-gp": N_("Gain 3 GP"),
    "two-fleets": N_("Gain two Fleets"),
    "reserve-creature": N_("Reserve a Mythological Creature"),
    "basic-building": N_("Build a basic Building"),
    "troop-and-fleet": N_("Gain a basic Troop and a Fleet"),
}


# The 2009 classic deck (R25): 17 cards, each played with its Legendary text.
CLASSIC_CREATURES = (("pegasus", 2), ("harpy", 2), ("dryad", 2), ("sylph", 2), ("satyr", 2),
                     ("griffin", 1), ("sphinx", 1), ("kraken", 1), ("minotaur", 1),
                     ("medusa", 1), ("polyphemus", 1), ("chiron", 1))


def classic_creature_deck() -> tuple[str, ...]:
    return tuple(c for c, copies in CLASSIC_CREATURES for _ in range(copies))


def creature_deck(maelstrom: bool) -> list[str]:
    return [c.name for c in CREATURES.values() if maelstrom or not c.maelstrom]


def hero_deck(maelstrom: bool) -> list[str]:
    return [h.name for h in HEROES.values() if maelstrom or not h.maelstrom]


def bonus_stack(maelstrom: bool) -> list[str]:
    kinds = BASE_BONUSES + (MAELSTROM_BONUSES if maelstrom else ())
    return [k for k in kinds for _ in range(3)]
