"""The name of every god, creature, hero, metropolis bonus, building and unit: one place for
the log, the rules page, the tooltips and the browser (which gets them from the server).

Each name comes twice: as a title ("Kraken", on a card or a heading) and as a sentence names
it ("the Kraken": `called`), each a catalog message, so that French says "le Kraken",
"l'Hydre", "Pégase" as the French edition does.

    title("scylla-charybdis")   # "Scylla and Charybdis" (in French "Scylla et Charybde")
    called("kraken")            # "the Kraken"
    unit("troop", 3)            # "3 Troops"
"""
from __future__ import annotations

from .i18n import N_, _, ngettext

# id: (title, as a sentence names it)
GODS = {
    "poseidon": (N_("Poseidon"), N_("Poseidon")),
    "ares": (N_("Ares"), N_("Ares")),
    "zeus": (N_("Zeus"), N_("Zeus")),
    "athena": (N_("Athena"), N_("Athena")),
    "hera": (N_("Hera"), N_("Hera")),
    "apollo": (N_("Apollo"), N_("Apollo")),
}

CREATURES = {
    "charon": (N_("Charon"), N_("Charon")),
    "chimera": (N_("Chimera"), N_("the Chimera")),
    "cyclops": (N_("Cyclops"), N_("the Cyclops")),
    "dryad": (N_("Dryad"), N_("the Dryad")),
    "giant": (N_("Giant"), N_("the Giant")),
    "griffin": (N_("Griffin"), N_("the Griffin")),
    "harpy": (N_("Harpy"), N_("the Harpy")),
    "pegasus": (N_("Pegasus"), N_("Pegasus")),
    "satyr": (N_("Satyr"), N_("the Satyr")),
    "sphinx": (N_("Sphinx"), N_("the Sphinx")),
    "sylph": (N_("Sylph"), N_("the Sylph")),
    "graeae": (N_("Graeae"), N_("the Graeae")),
    "cerberus": (N_("Cerberus"), N_("Cerberus")),
    "hydra": (N_("Hydra"), N_("the Hydra")),
    "kraken": (N_("Kraken"), N_("the Kraken")),
    "medusa": (N_("Medusa"), N_("Medusa")),
    "minotaur": (N_("Minotaur"), N_("the Minotaur")),
    "polyphemus": (N_("Polyphemus"), N_("Polyphemus")),
    "hippalectryon": (N_("Hippalectryon"), N_("the Hippalectryon")),
    "hippocampus": (N_("Hippocampus"), N_("the Hippocampus")),
    "echidna": (N_("Echidna"), N_("Echidna")),
    "manticore": (N_("Manticore"), N_("the Manticore")),
    "triton": (N_("Triton"), N_("Triton")),
    "empusa": (N_("Empusa"), N_("the Empusa")),
    "erinyes": (N_("Erinyes"), N_("the Erinyes")),
    "geryon": (N_("Geryon"), N_("Geryon")),
    "nereid": (N_("Nereid"), N_("the Nereid")),
    "calydonian-boar": (N_("Calydonian Boar"), N_("the Calydonian Boar")),
    "scylla-charybdis": (N_("Scylla and Charybdis"), N_("Scylla and Charybdis")),
    "typhon": (N_("Typhon"), N_("Typhon")),
    "chiron": (N_("Chiron"), N_("Chiron")),
    # the two miniatures of Scylla and Charybdis
    "scylla": (N_("Scylla"), N_("Scylla")),
    "charybdis": (N_("Charybdis"), N_("Charybdis")),
}

HEROES = {
    "ajax": (N_("Ajax"), N_("Ajax")),
    "croesus": (N_("Croesus"), N_("Croesus")),
    "hector": (N_("Hector"), N_("Hector")),
    "helen": (N_("Helen"), N_("Helen")),
    "jason": (N_("Jason"), N_("Jason")),
    "odysseus": (N_("Odysseus"), N_("Odysseus")),
    "pandora": (N_("Pandora"), N_("Pandora")),
    "penthesilea": (N_("Penthesilea"), N_("Penthesilea")),
    "perseus": (N_("Perseus"), N_("Perseus")),
    "antigone": (N_("Antigone"), N_("Antigone")),
    "achilles": (N_("Achilles"), N_("Achilles")),
    "hippolyta": (N_("Hippolyta"), N_("Hippolyta")),
    "leto": (N_("Leto"), N_("Leto")),
    "penelope": (N_("Penelope"), N_("Penelope")),
    "pericles": (N_("Pericles"), N_("Pericles")),
    "heracles": (N_("Heracles"), N_("Heracles")),
}

BUILDINGS = {
    "port": (N_("Port"), N_("a Port")),
    "fortress": (N_("Fortress"), N_("a Fortress")),
    "temple": (N_("Temple"), N_("a Temple")),
    "university": (N_("University"), N_("a University")),
    "metropolis": (N_("Metropolis"), N_("a Metropolis")),
}

# Metropolis bonus tokens: (title, what it gives)
BONUSES = {
    "two-troops": (N_("Two Troops"), N_("Gain two Troops")),
    "prosperity": (N_("Prosperity"), N_("Gain a Prosperity token")),
    "priestess": (N_("A Priestess"), N_("Gain a Priestess")),
    "three-gp": (N_("3 GP"), N_("Gain 3 GP")),
    "two-fleets": (N_("Two Fleets"), N_("Gain two Fleets")),
    "reserve-creature": (N_("Reserve a Creature"), N_("Reserve a Mythological Creature")),
    "basic-building": (N_("A building"), N_("Build a basic Building")),
    "troop-and-fleet": (N_("Troop and Fleet"), N_("Gain a basic Troop and a Fleet")),
}


def _units(n: int) -> dict[str, tuple[str, str]]:
    """Each unit and piece with its count: (title, "a Troop" / "3 Troops")."""
    return {
        "troop": (_("Troop"), ngettext("a Troop", "{n} Troops", n)),
        "merc": (_("Mercenary"), ngettext("a mercenary Troop", "{n} mercenary Troops", n)),
        "fleet": (_("Fleet"), ngettext("a Fleet", "{n} Fleets", n)),
        "hero": (_("Hero"), ngettext("a Hero", "{n} Heroes", n)),
        "philosopher": (_("Philosopher"), ngettext("a Philosopher", "{n} Philosophers", n)),
        "priestess": (_("Priestess"), ngettext("a Priestess", "{n} Priestesses", n)),
    }


UNITS = ("troop", "merc", "fleet", "hero", "philosopher", "priestess")

TABLES = (GODS, CREATURES, HEROES, BUILDINGS, BONUSES)


def _entry(thing_id: str) -> tuple[str, str] | None:
    for table in TABLES:
        if thing_id in table:
            return table[thing_id]
    return None


def title(thing_id: str | None) -> str:
    """A god's, card's, bonus's or building's name as a title, in the current language; an id
    not in the tables reads as itself in title case."""
    if not thing_id:
        return ""
    if thing_id in UNITS:
        return _units(1)[thing_id][0]
    entry = _entry(thing_id)
    if entry is None:
        return " ".join(w.capitalize() for w in str(thing_id).split("-"))
    return _(entry[0])


def called(thing_id: str | None) -> str:
    """A god, card or building as a sentence names it: "the Kraken", "Pegasus", "a Port"."""
    if not thing_id:
        return ""
    entry = _entry(thing_id)
    if entry is None:
        return title(thing_id)
    return _(entry[1])


def unit(kind: str, count: int = 1) -> str:
    """`count` units of `kind` as a sentence says it: "a Troop", "3 Fleets"."""
    units = _units(count)
    if kind in units:
        return units[kind][1].format(n=count)
    return called(kind)


def unit_words(kind: str) -> tuple[str, str]:
    """The words for one and for several of a unit, without the count ("Troop", "Troops")."""
    return {"troop": (_("Troop"), _("Troops")), "merc": (_("mercenary Troop"), _("mercenary Troops")),
            "fleet": (_("Fleet"), _("Fleets")), "hero": (_("Hero"), _("Heroes")),
            "philosopher": (_("Philosopher"), _("Philosophers")),
            "priestess": (_("Priestess"), _("Priestesses"))}.get(kind, (title(kind), title(kind)))


def bonus_gain(bonus_id: str) -> str:
    """What a Metropolis bonus gives, as the log says it ("Gain two Troops")."""
    entry = BONUSES.get(bonus_id)
    return _(entry[1]) if entry else title(bonus_id)


def place(name: str) -> str:
    """An area's name as the map prints it, in the current language ("Golfe d'Éos")."""
    return _(name) if name else name


def place_in_sentence(name: str, sea: bool) -> str:
    """An area's name as a sentence says it: a sea with its article ("the Gulf of Eos", "le golfe
    d'Éos"), an island as printed."""
    if sea and not name.lower().startswith("the "):
        said = "the " + name  # the catalog holds it as such (content/i18n.py extract_places)
        return _(said)
    return place(name)


def every_name() -> dict[str, dict[str, str]]:
    """Every id with its title and sentence name in the current language (the browser's copy)."""
    out = {}
    for table in TABLES:
        for thing_id in table:
            out[thing_id] = {"title": title(thing_id), "called": called(thing_id)}
    for kind in UNITS:
        one, many = unit_words(kind)
        out[kind] = {"title": title(kind), "called": unit(kind), "one": one, "many": many}
    return out
