"""Short phrases the engine's sentences are made of: a unit, a building or a token with its
article ("a Troop", "a Fortress"), a count of them ("no Troops", "3 Fleets"), in the current
language (content/i18n.py)."""
from __future__ import annotations

from ..content import names as content_names
from ..content.i18n import _, ngettext
from .naming import building_name, card_name


def a_thing(kind: str) -> str:
    """ "a Troop", "a mercenary Troop", "a Fortress", "a University"."""
    if kind == "prosperity":
        return _("a Prosperity token")
    if kind in content_names.UNITS:
        return content_names.unit(kind, 1)
    if kind in content_names.BUILDINGS:
        return content_names.called(kind)
    name = building_name(kind)
    return (_("an {thing}") if name[:1].lower() in "aeio" else _("a {thing}")).format(thing=name)


def count_of(kind: str, n: int) -> str:
    """ "no Troops", "1 Troop", "3 Fleets"."""
    forms = {
        "troop": ngettext("{n} Troop", "{n} Troops", n),
        "merc": ngettext("{n} mercenary Troop", "{n} mercenary Troops", n),
        "fleet": ngettext("{n} Fleet", "{n} Fleets", n), "priestess": ngettext("{n} Priestess", "{n} Priestesses", n),
        "philosopher": ngettext("{n} Philosopher", "{n} Philosophers", n),
        "prosperity": ngettext("{n} Prosperity token", "{n} Prosperity tokens", n)}
    if n == 0:
        none = {"troop": _("no Troops"), "merc": _("no mercenary Troops"), "fleet": _("no Fleets"),
                "priestess": _("no Priestesses"), "philosopher": _("no Philosophers"),
                "prosperity": _("no Prosperity tokens")}
        return none.get(kind) or _("no {thing}").format(thing=card_name(kind))
    return forms[kind].format(n=n) if kind in forms else f"{n} {card_name(kind)}"
