"""The names sentences give things, in the current language (content/names.py, content/i18n.py):
players ("Player 2", or the names given), cards, creatures, Gods, units, buildings, areas ("the
Sea of Io", "on Naxos"), GP. The log (engine/events.py's sentences, engine/log.py), the
wording of decisions (engine/wording.py) and the interfaces read them here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..content import names as content_names
from ..content.i18n import _
from ..content.i18n import listing as _listing

if TYPE_CHECKING:
    from .context import Context

UNITS = content_names.UNITS  # the units a sentence counts: troop, merc, fleet, hero, philosopher, priestess


def player_name(p: int | None, names: list[str] | None = None) -> str:
    if p is None or not isinstance(p, int) or p < 0:
        return _("nobody")
    if names and p < len(names):
        return names[p]
    return _("Player {n}").format(n=p + 1)


class Namer:
    """Names the players of a sentence: `P(p)` ("Player 1".."Player N", or `names`). `sides`
    (attacker, defender) are a battle round's sides when the battle is no longer on the stack
    (engine/log.py's Narrator remembers them)."""

    def __init__(self, names: list[str] | None = None, sides: tuple[Any, Any] | None = None) -> None:
        self.names = names
        self.sides = sides

    def __call__(self, p: Any) -> str:
        return player_name(p, self.names)


def card_name(c: str | None) -> str:
    if not c:
        return _("nothing")
    return content_names.called(str(c)) if str(c) == "calydonian-boar" else content_names.title(str(c))


def creature_name(c: str) -> str:
    """A creature as a sentence names it: "the Kraken", "Pegasus" (content/names.py; a miniature
    is named as its card is)."""
    return content_names.called(c) if c else card_name(c)


def god_name(god: str | None) -> str:
    return content_names.title(str(god)) if god else _("no god")


def unit_name(kind: str, count: int = 1) -> str:
    if kind in UNITS:
        return content_names.unit(kind, count)
    return card_name(kind)  # a hero lost in battle is named by its card


def unit_word(unit: Any) -> str:
    """A unit's word without its count ("Troop", "mercenary Troop")."""
    return content_names.unit_words(unit)[0] if unit in UNITS else str(unit)


def building_name(kind: str) -> str:
    return content_names.title(kind) if kind in content_names.BUILDINGS else card_name(kind)


def bonus_name(bonus: Any) -> str:
    """A Metropolis bonus as what it gives ("Build a basic Building")."""
    return content_names.bonus_gain(bonus)


def area_index(game: Context, a: Any) -> int | None:
    """The index of an area given by its id (as events name it) or its index; None if unknown."""
    b = game.board
    if isinstance(a, str):
        return b.index.get(a)
    if isinstance(a, int) and not isinstance(a, bool) and 0 <= a < len(b.names):
        return a
    return None


def is_land(game: Context, a: Any) -> bool:
    i = area_index(game, a)
    return i is not None and game.board.is_land[i]


def area_name(game: Context, a: Any) -> str:
    """The area's printed name; a sea area reads with "the" ("the Sea of Io"), in the current
    language (content/names.py)."""
    b = game.board
    i = area_index(game, a)
    if i is None:
        return _("area {id}").format(id=a) if a is not None else _("an unknown area")
    return content_names.place_in_sentence(str(b.names[i]), sea=not b.is_land[i])


def at_area(game: Context, a: Any) -> str:
    """'on Naxos' for a land area, 'in the Sea of Io' for a sea area."""
    i = area_index(game, a)
    if i is not None and game.board.is_land[i]:
        return _("on {land}").format(land=area_name(game, a))
    return _("in {sea}").format(sea=area_name(game, a))


def listing(items: Any) -> str:
    return _listing(items)


def gp(n: int | None) -> str:
    return _("{n} GP").format(n=n) if isinstance(n, int) else _("some GP")
