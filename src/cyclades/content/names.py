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

from .cards import BONUS_TEXT, BONUS_TITLES
from .cards import CREATURES as CARDS
from .cards import HEROES as HERO_CARDS
from .i18n import N_, _, initial, ngettext

# id: (title, as a sentence names it)
GODS = {
    "poseidon": (N_("Poseidon"), N_("Poseidon")),
    "ares": (N_("Ares"), N_("Ares")),
    "zeus": (N_("Zeus"), N_("Zeus")),
    "athena": (N_("Athena"), N_("Athena")),
    "hera": (N_("Hera"), N_("Hera")),
    "apollo": (N_("Apollo"), N_("Apollo")),
}

# Creatures and heroes are named on their card entries (content/cards.py); the two miniatures of
# Scylla and Charybdis here.
MINIATURES = {
    "scylla": (N_("Scylla"), N_("Scylla")),
    "charybdis": (N_("Charybdis"), N_("Charybdis")),
}
CREATURES = {c: (card.title, card.called) for c, card in CARDS.items()}
HEROES = {h: (hero.title, hero.title) for h, hero in HERO_CARDS.items()}

BUILDINGS = {
    "port": (N_("Port"), N_("a Port")),
    "fortress": (N_("Fortress"), N_("a Fortress")),
    "temple": (N_("Temple"), N_("a Temple")),
    "university": (N_("University"), N_("a University")),
    "metropolis": (N_("Metropolis"), N_("a Metropolis")),
}

# Metropolis bonus tokens: (title, what it gives)
BONUSES = {b: (BONUS_TITLES[b], BONUS_TEXT[b]) for b in BONUS_TEXT}


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

TABLES = (GODS, CREATURES, MINIATURES, HEROES, BUILDINGS, BONUSES)


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
    """Every id with its title, sentence name and initial (a medallion's or a building's letter)
    in the current language (the browser's copy)."""
    out = {}
    for table in TABLES:
        for thing_id in table:
            out[thing_id] = {"title": title(thing_id), "called": called(thing_id),
                             "initial": initial(title(thing_id))}
    for kind in UNITS:
        one, many = unit_words(kind)
        out[kind] = {"title": title(kind), "called": unit(kind), "one": one, "many": many}
    return out
