"""The game log in the rulebook's words: one sentence per engine event, in the current language
(content/i18n.py: each sentence is a catalog message; the names come from engine/naming.py).

    from cyclades.engine.log import describe, Narrator
    describe({"type": "offering", "player": 1, "god": "zeus", "amount": 5}, game)
    # -> "Player 2 offers 5 GP to Zeus."

Events are the dicts `Game.apply` returns (each has a "type"); engine/events.py declares
them, each with its sentence beside its fields (`says=`), and docs/events.md lists them. Area
fields are area ids (an index is read too), player fields are player indices (shown as
"Player 1".."Player N" unless a `names` list is given). `describe` never raises: an event
type it does not know still becomes a sentence built from its fields.

A battle round's event names no players; `describe` finds them on the decision
stack while the battle goes on, and a `Narrator` (which reads a whole game's
events in order) remembers them from the battle's first event, so that replays
name the two sides even after the battle is over.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import cache
from string import Formatter
from typing import TYPE_CHECKING, Any

from ..content.i18n import N_, _
from .events import EVENTS, Event, Kind, battle_sides
from .naming import (
    UNITS,
    Namer,
    area_index,
    area_name,
    at_area,
    bonus_name,
    building_name,
    card_name,
    creature_name,
    god_name,
    gp,
    listing,
    player_name,
    unit_name,
    unit_word,
)

if TYPE_CHECKING:
    from .actions import Action
    from .context import Context

__all__ = ["UNITS", "Narrator", "area_index", "area_name", "at_area", "bonus_name", "building_name", "card_name",
           "creature_name", "decision_sentence", "describe", "god_name", "gp", "listing", "player_name",
           "unit_name", "unit_word"]


# --- a declared sentence, its parts said by the fields' types -----------------------------

Part = Callable[[Any, "Context", Namer], Any]  # (a field's value, game, P) -> what the sentence says

_BY_TYPE: dict[str, Part] = {
    "player": lambda v, g, P: P(v),
    "area": lambda v, g, P: area_name(g, v),
    "god": lambda v, g, P: god_name(v),
    "creature": lambda v, g, P: creature_name(v),
    "miniature": lambda v, g, P: creature_name(v),
    "hero": lambda v, g, P: card_name(v),
    "building": lambda v, g, P: building_name(v),
    "bonus": lambda v, g, P: bonus_name(v),
    "unit": lambda v, g, P: unit_name(v),
}


def _as_is(v: Any, g: Context, P: Namer) -> Any:
    """An int, a string: as the event has it ("?" if it lacks it)."""
    return "?" if v is None else v


# The parts made from a field: the fields they may come from (the first the kind declares), and how.
_DERIVED: dict[str, tuple[tuple[str, ...], Part]] = {
    "at": (("area",), lambda v, g, P: at_area(g, v)),
    "gp": (("amount", "cost"), lambda v, g, P: gp(v)),
    "creature": (("card",), lambda v, g, P: creature_name(v)),
    "n": (("count", "cycle"), _as_is),
}


@cache
def parts(kind: Kind) -> tuple[tuple[str, str, Part], ...]:
    """(placeholder, field, how it is said) for each placeholder of a kind's declared sentence;
    ValueError for a placeholder that names no field and no part made from one."""
    assert isinstance(kind.says, str)
    types = {f.name: f.type.rstrip("?") for f in kind.fields}
    out: list[tuple[str, str, Part]] = []
    for _text, name, _spec, _conversion in Formatter().parse(kind.says):
        if name is None or any(name == p for p, _f, _w in out):
            continue
        if name in types:
            out.append((name, name, _BY_TYPE.get(types[name], _as_is)))
            continue
        fields, how = _DERIVED.get(name, ((), _as_is))
        field = next((f for f in fields if f in types), None)
        if field is None:
            raise ValueError(f"{kind.name}: {{{name}}} names no field of the event")
        out.append((name, field, how))
    return tuple(out)


def _told(kind: Kind, e: Event, g: Context, P: Namer) -> str:
    says = kind.says
    if not isinstance(says, str):
        return says(e, g, P)
    return _(says).format(**{name: how(e.get(field), g, P) for name, field, how in parts(kind)})


# --- the fallback for events this module does not know --------------------------------

_PLAYER_KEYS = {"player", "attacker", "defender", "owner", "buyer", "target", "previous", "loser",
                "winner", "victim"}
_AREA_KEYS = {"area", "areas", "origin", "destination", "path"}
_CARD_KEYS = {"card", "hero", "creature", "god", "building", "unit", "bonus", "old", "by", "reward"}


def _generic(e: Event, g: Context, P: Namer) -> str:
    """An unknown event: its type and fields in plain words, never a crash."""
    kind = str(e.get("type") or "event").replace("_", " ")
    player = e.get("player")
    parts = []
    for k, v in e.items():
        if k in ("type", "player") or v is None or v in ("", [], ()):
            continue
        parts.append(f"{k.replace('_', ' ')} {_plain(k, v, g, P)}")
    head = f"{P(player)}: {kind}" if isinstance(player, int) else kind[:1].upper() + kind[1:]
    return head + (f" ({', '.join(parts)})" if parts else "")


def _plain(k: str, v: Any, g: Context, P: Namer) -> str:
    if isinstance(v, bool):
        return _("yes") if v else _("no")
    if k in _PLAYER_KEYS and isinstance(v, int):
        return P(v)
    if k in _AREA_KEYS and isinstance(v, (int, str)) and not isinstance(v, bool):
        return area_name(g, v)
    if k in ("winners", "players") and isinstance(v, (list, tuple)):
        return listing(P(p) for p in v if isinstance(p, int)) or _("none")
    if isinstance(v, (list, tuple)):
        return listing(_plain(k, x, g, P) for x in v) or _("none")
    if isinstance(v, dict):
        return listing(f"{a} {_plain(a, b, g, P)}" for a, b in v.items()) or _("none")
    if k in _CARD_KEYS or (isinstance(v, str) and "-" in v):
        return card_name(v)
    return str(v)


# --- the public functions -----------------------------------------------------------------

def describe(event: Event, game: Context, names: list[str] | None = None,
             sides: tuple[Any, Any] | None = None) -> str:
    """One sentence, in the rulebook's words, for one event. `names` replaces
    "Player 1".."Player N"; `sides` (attacker, defender) names a battle round's sides
    when the battle is no longer on the stack (see Narrator)."""
    P = Namer(names, sides)
    try:
        if not isinstance(event, dict):
            return f"Event: {event!s}."
        kind = EVENTS.get(event.get("type", ""))
        text = _told(kind, event, game, P) if kind is not None else _generic(event, game, P)
    except Exception:  # a malformed event: say what we can rather than crash
        try:
            text = _generic(event, game, P)
        except Exception:
            text = f"Event {event.get('type', '?') if isinstance(event, dict) else '?'}"
    text = text.strip()
    if not text.endswith((".", "!", "?")):
        text += "."
    return text[:1].upper() + text[1:]


# Decisions that change nothing the events show, but that a reader of the log wants to know.
_SILENT_DECISIONS = {
    "hold": N_("{p} does not retreat"),
    "cancel": N_("{p} changes their mind and cancels"),
    "choose_building": N_("{p} chooses to build a {what}"),
}


def decision_sentence(action: Action, player: int | None, names: list[str] | None = None) -> str:
    """A sentence for a decision that emits no event (a battle's "do not retreat"), or ""."""
    template = _SILENT_DECISIONS.get(getattr(action, "kind", ""))
    if not template:
        return ""
    return _(template).format(p=player_name(player, names), what=building_name(action.what)) + "."


class Narrator:
    """Reads a game's events in order and tells them as sentences. It remembers who
    fights each battle, and (unless `full`) leaves out the events that only repeat
    what the sentence before them said: the GP of an income, a destroyed unit just
    lost in battle, the placement that a control change implies."""

    def __init__(self, game: Context, names: list[str] | None = None, full: bool = False) -> None:
        self.game = game
        self.names = names
        self.full = full
        self.battles: dict[Any, tuple[Any, Any]] = {}  # area -> (attacker, defender)

    def lines(self, events: list[Event]) -> list[str]:
        out = []
        events = list(events or ())
        for i, e in enumerate(events):
            if not isinstance(e, dict):
                continue
            kind = e.get("type")
            if kind == "battle":
                self.battles[e.get("area")] = (e.get("attacker"), e.get("defender"))
            if not self.full and self._redundant(events, i):
                continue
            sides = self.battles.get(e.get("area")) if kind == "round" else None
            if sides is None and kind == "round":
                found = battle_sides(self.game, e.get("area"))
                sides = found if found[0] is not None else None
            out.append(describe(e, self.game, self.names, sides))
        return out

    @staticmethod
    def _redundant(events: list[Event], i: int) -> bool:
        e, kind = events[i], events[i].get("type")
        if kind == "gp":
            # The Griffin's haul: half a hidden purse is the thief's and the victim's secret (R24).
            if i > 0 and events[i - 1].get("type") == "gp_stolen":
                return True
            # The GP the sentence before already named (the Graeae).
            if i > 0 and events[i - 1].get("player") == e.get("player") \
                    and events[i - 1].get("amount") == e.get("amount") and events[i - 1].get("type") == "graeae":
                return True
            # Income: the following sentence names the GP.
            for later in events[i + 1:]:
                if later.get("type") == "income":
                    gains, p = later.get("gains") or [], e.get("player")
                    return isinstance(p, int) and 0 <= p < len(gains) and gains[p] == e.get("amount")
                if later.get("type") != "gp":
                    break
            return False
        if kind == "destroyed" and i > 0:
            prev = events[i - 1]
            return bool(prev.get("type") == "casualty" and prev.get("area") == e.get("area")
                    and prev.get("unit") == e.get("unit") and e.get("count", 1) == 1)
        if kind == "control" and i + 1 < len(events):
            # Placing or moving units into an area says who holds it now... unless
            # it was taken from someone, which deserves its own sentence.
            nxt = events[i + 1]
            prev = e.get("previous")
            return (nxt.get("type") in ("troop", "merc", "fleet") and nxt.get("area") == e.get("area")
                    and not (isinstance(prev, int) and prev >= 0))
        return False
