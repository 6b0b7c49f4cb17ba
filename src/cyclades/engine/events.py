"""The events the engine emits, declared once: each kind, its fields, and when it happens.

`Game.apply` returns the events its decision caused, in order, as plain dicts: a `"type"`
(the kind) and exactly the fields declared here. Areas are named by their board ids, as in
actions and views (`game.board.ids`); players by their index (0 .. players-1, a faction in
team play). Emit sites keep writing `g.emit(kind, **fields)` with the values already in this
form (`g.board.ids[a]`, or the `where` of the action), so that converting costs nothing on the
hot path; `check(event, game)` and the test over random games of every mode hold them to this
declaration.

`docs/events.md` is generated from it: `python -m cyclades.engine.events > docs/events.md`.

Field types:

- `int`, `str`, `bool`; `list[T]` a list of T; `T?` T or null.
- `area`: an area id of the board (`"naxos"`, `"sea-3"`).
- `player`: a player index.
- `god`, `creature`, `miniature`, `hero`, `building`, `bonus`: ids of the rulebook's things
  (`"zeus"`, `"kraken"`, `"scylla"`, `"achilles"`, `"port"`, `"three-gp"`).
- `unit`: `"troop"`, `"merc"`, `"fleet"`, or the id of a hero or creature (the Minotaur) lost
  in battle.
- `area_count`: `{"area": area, "count": int}`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..content.cards import BONUS_TEXT, CREATURES, HEROES
from ..content.gods import APOLLO, BUILDINGS, GOD_NAMES, METROPOLIS
from .queries import CARD_OF

if TYPE_CHECKING:
    from .context import Context


@dataclass(frozen=True)
class Field:
    name: str
    type: str
    meaning: str
    optional: bool = False  # absent from some events of the kind (said in `meaning`)


@dataclass(frozen=True)
class Kind:
    name: str
    when: str
    fields: tuple[Field, ...]


def _kind(name: str, when: str, *fields: tuple[Any, ...]) -> Kind:
    return Kind(name, when, tuple(Field(*f) for f in fields))


PLAYER = ("player", "player", "the player concerned")

KINDS = (
    # --- the cycle --------------------------------------------------------------------------
    _kind("cycle", "A new Cycle begins, before its preparation and Income.",
          ("cycle", "int", "the Cycle's number, 1 for the first")),
    _kind("gods", "The Gods of the new Cycle are in place (Cycle Preparation).",
          ("order", "list[god]", "the Gods in auction order, Apollo apart"),
          ("faceup", "int", "how many of them, from the first, are face up and may be bid on")),
    _kind("reshuffle", "A deck is shuffled together with its discard pile (the Chimera).",
          ("deck", "str", "the deck: \"creatures\"")),
    _kind("income", "The Income phase is over (after the `gp` events it paid).",
          ("gains", "list[int]", "GP received by each player, indexed by player")),
    _kind("geryon_gp_taken", "A player takes the GP Geryon left in an area they control (Income).",
          PLAYER, ("area", "area", "where the GP lay"), ("amount", "int", "GP taken")),
    _kind("game_over", "The game ends (R21).",
          ("winners", "list[player]", "the winners; several share the victory")),
    # --- offerings --------------------------------------------------------------------------
    _kind("offering", "A player bids on a God, or makes an Offering to Apollo (amount 0).",
          PLAYER, ("god", "god", "the God"), ("amount", "int", "GP offered")),
    _kind("outbid", "A player's bid is beaten; they must bid again at once (R10).",
          ("player", "player", "the player outbid"), ("god", "god", "the God they lost")),
    _kind("paid", "The offerings are over: a player pays for their God (R12: Priestesses discount).",
          PLAYER, ("god", "god", "the God"), ("amount", "int", "GP paid")),
    # --- turns ------------------------------------------------------------------------------
    _kind("turn", "A player's turn with their God begins.",
          PLAYER, ("god", "god", "the God they play with")),
    _kind("turn_end", "A player's turn ends.", PLAYER),
    _kind("recruited", "A player pays for a recruit (the God's paid recruit).",
          PLAYER, ("unit", "str", "what: troop, merc, fleet, philosopher, priestess"),
          ("cost", "int", "GP paid")),
    _kind("troop", "Troops are placed in an area (recruits, bonuses, setup).",
          PLAYER, ("area", "area", "where"), ("count", "int", "how many")),
    _kind("merc", "Mercenary Troops are placed in an area.",
          PLAYER, ("area", "area", "where"), ("count", "int", "how many")),
    _kind("fleet", "Fleets are placed in a sea area.",
          PLAYER, ("area", "area", "where"), ("count", "int", "how many")),
    _kind("gp", "A player's GP change (a team's purse: its holder, R22).",
          ("player", "player", "whose purse"), ("amount", "int", "GP gained (negative: lost)")),
    _kind("priestess", "A player takes Priestess cards.",
          PLAYER, ("amount", "int", "how many")),
    _kind("philosopher", "A player takes a Philosopher card.", PLAYER),
    _kind("prosperity", "A Prosperity token is placed on an area (Apollo, bonuses, creatures).",
          PLAYER, ("area", "area", "where")),
    _kind("forgo", "A player gives up the building their God offered.",
          PLAYER, ("building", "building", "the building not built")),
    _kind("built", "A building is built.",
          PLAYER, ("building", "building", "what"), ("area", "area", "where")),
    _kind("demolished", "A building is removed to make room for another one (or a Metropolis).",
          PLAYER, ("building", "building", "what was removed"), ("area", "area", "where")),
    # --- metropolises -----------------------------------------------------------------------
    _kind("metropolis", "A Metropolis is built.",
          PLAYER, ("area", "area", "where"),
          ("how", "str", "economic, cultural or heroic"),
          ("bonus", "bonus?", "the bonus token drawn; null if none is left or the ruleset has none")),
    _kind("metropolis_impossible", "A player earns a Metropolis but has nowhere to build it.", PLAYER),
    _kind("metropolis_lost", "A player loses a Metropolis in battle and receives its bonus.",
          ("player", "player", "the player who lost it"), ("area", "area", "where"),
          ("bonus", "bonus", "the bonus applied")),
    _kind("metropolis_on_card", "Penthesilea's power: the Metropolis goes on her card.",
          PLAYER, ("hero", "hero", "the card: penthesilea"),
          ("how", "str", "economic, cultural or heroic"), ("bonus", "bonus?", "the bonus token drawn")),
    # --- moves ------------------------------------------------------------------------------
    _kind("land_move", "A Land Move (or a Heroic Move) is paid for and made.",
          PLAYER, ("origin", "area", "where the units leave"), ("destination", "area", "where they go"),
          ("cost", "int", "GP paid"), ("hero", "hero?", "the hero of a Heroic Move, else null")),
    _kind("sea_move", "A Sea Move is paid for and made.",
          PLAYER, ("origin", "area", "where the Fleets leave"),
          ("destination", "area", "where they go"), ("fleets", "int", "how many leave the origin"),
          ("cost", "int", "GP paid"),
          ("path", "list[area]", "classic only: the seas entered, in order", True),
          ("picked_up", "list[area_count]", "classic only: Fleets picked up on the way", True),
          ("dropped", "list[area_count]", "classic only: Fleets dropped on the way", True)),
    _kind("moved", "Units arrive in an area where no battle starts (after land_move, sea_move...).",
          PLAYER, ("origin", "area", "where they come from"), ("destination", "area", "where they arrive"),
          ("troops", "int", "Troops"), ("mercs", "int", "mercenary Troops"),
          ("heroes", "list[hero]", "Heroes"), ("fleets", "int", "Fleets")),
    _kind("token_returned", "A Control token is returned as an enemy moves into the empty area.",
          ("player", "player", "the token's owner"), ("area", "area", "where it was")),
    _kind("control", "A player takes control of a land area.",
          PLAYER, ("area", "area", "the area"),
          ("previous", "player?", "who controlled it before, or null")),
    _kind("eliminated", "A player controls no land area and is eliminated (R27).", PLAYER),
    # --- battles ----------------------------------------------------------------------------
    _kind("battle", "A battle starts.",
          ("attacker", "player", "the attacker"), ("defender", "player", "the defender"),
          ("area", "area", "where"), ("sea", "bool", "a Sea Battle (else a Land Battle)")),
    _kind("round", "A battle round is rolled; the sides of the battle in `area` fight it.",
          ("area", "area", "where"), ("round", "int", "the round's number, from 1"),
          ("dice", "list[int]", "the dice that count, attacker's then defender's"),
          ("strength", "list[int]", "each side's total, attacker's then defender's"),
          ("rolled", "list[int]", "the dice first rolled, when a power changed them", True)),
    _kind("casualty", "The loser of a round removes a unit.",
          PLAYER, ("area", "area", "where"), ("unit", "unit", "the unit lost")),
    _kind("destroyed", "Units are destroyed (returned to their reserve).",
          ("area", "area", "where"), ("unit", "unit", "troop, merc or fleet"),
          ("count", "int", "how many")),
    _kind("retreat", "A side retreats from a battle.",
          PLAYER, ("origin", "area", "the battle's area"), ("destination", "area", "where they go")),
    _kind("escaped", "Perseus: a unit about to be lost retreats instead.",
          PLAYER, ("origin", "area", "the battle's area"), ("destination", "area", "where it goes"),
          ("unit", "unit", "troop or merc")),
    _kind("battle_won", "The attacker wins a battle and controls the area.",
          ("player", "player", "the attacker"), ("area", "area", "where")),
    _kind("battle_held", "The defender holds the area (or a sea is left empty).",
          ("player", "player", "the defender"), ("area", "area", "where")),
    _kind("side_destroyed", "Achilles: a side that cannot retreat loses its Troops and Heroes.",
          PLAYER, ("area", "area", "where")),
    # --- creatures --------------------------------------------------------------------------
    _kind("creature_bought", "A player buys a creature card.",
          PLAYER, ("card", "creature", "the card"), ("cost", "int", "GP paid")),
    _kind("creature_wasted", "A creature bought with no possible effect is discarded.",
          PLAYER, ("card", "creature", "the card")),
    _kind("creature_played", "A creature lets its player play another one for free.",
          PLAYER, ("card", "creature", "the card played"), ("by", "creature", "the card that allowed it")),
    _kind("creature_placed", "A creature's miniature is placed on the board.",
          PLAYER, ("card", "creature", "the card"), ("miniature", "miniature", "the miniature"),
          ("area", "area", "where")),
    _kind("creature_moved", "A creature's miniature moves (Maintenance, a creature's effect).",
          ("card", "miniature", "the miniature"), ("area", "area", "where it goes")),
    _kind("creature_leaves", "A creature leaves play (its miniatures leave the board).",
          ("card", "creature", "the card")),
    _kind("creature_stolen", "A player takes another player's creature.",
          PLAYER, ("victim", "player", "the previous owner"), ("card", "creature", "the card")),
    _kind("creature_swapped", "Classic Zeus (R25): a card of the Creature track is replaced.",
          PLAYER, ("card", "creature", "the card discarded"), ("new", "creature?", "the card drawn"),
          ("cost", "int", "GP paid")),
    _kind("reserved", "A player reserves a creature on the track (a Metropolis bonus).",
          PLAYER, ("card", "creature", "the card")),
    _kind("kept", "Maintenance: a player discards a Priestess to keep a creature.",
          PLAYER, ("card", "creature", "the card kept")),
    _kind("peek", "A player secretly looks at the top card of the Creature deck.", PLAYER),
    _kind("peek_returned", "The card looked at goes back on top of the deck.", PLAYER),
    _kind("sphinx_draw", "The Sphinx: a player draws creature cards to choose from.",
          PLAYER, ("count", "int", "cards drawn")),
    _kind("card_stolen", "A Priestess or Philosopher card is taken from a player.",
          PLAYER, ("victim", "player", "who loses it"), ("card", "str", "priestess or philosopher")),
    _kind("building_stolen", "A building is taken from a player (it is built elsewhere next).",
          PLAYER, ("victim", "player", "its owner"), ("building", "building", "what"),
          ("area", "area", "where it stood")),
    _kind("mercs_stolen", "A player takes the mercenary Troops of an area.",
          PLAYER, ("victim", "player", "their owner"), ("area", "area", "where they stood"),
          ("count", "int", "how many")),
    _kind("gp_stolen", "The Griffin: a player takes half of another's GP (amount secret, R24).",
          PLAYER, ("victim", "player", "who loses them")),
    _kind("graeae", "The Graeae: a player repeats their Income phase.",
          PLAYER, ("amount", "int", "GP received")),
    _kind("exchanged", "Two mercenary Troops are turned into a reward.",
          PLAYER, ("reward", "str", "prosperity, priestess or philosopher")),
    _kind("fleets_exchanged", "Fleets of a sea area are exchanged for mercenary Troops.",
          PLAYER, ("area", "area", "the sea"), ("count", "int", "Fleets exchanged")),
    _kind("fleets_swapped", "The Fleets of two sea areas change places.",
          PLAYER, ("areas", "list[area]", "the two seas")),
    _kind("pegasus", "Pegasus: units fly from one area to another.",
          PLAYER, ("origin", "area", "from"), ("destination", "area", "to")),
    _kind("prosperity_moved", "A Prosperity token moves from one area to another.",
          PLAYER, ("origin", "area", "from"), ("destination", "area", "to")),
    _kind("displaced", "A creature drives units out of an area.",
          ("player", "player", "the owner of the units"), ("origin", "area", "from"),
          ("destination", "area", "to"), ("troops", "int", "Troops"),
          ("mercs", "int", "mercenary Troops"), ("heroes", "list[hero]", "Heroes"),
          ("fleets", "int", "Fleets"), ("by", "player", "the creature's owner")),
    _kind("displaced_destroyed", "Units a creature drives out have nowhere to go: destroyed.",
          ("player", "player", "their owner"), ("area", "area", "where")),
    _kind("geryon_gp", "Geryon: GP are placed on its area as units are destroyed.",
          ("area", "area", "Geryon's area"), ("amount", "int", "GP placed")),
    _kind("hero_swapped", "A player exchanges their Hero for one on the Hero track.",
          PLAYER, ("hero", "hero", "the new Hero"), ("old", "hero", "the Hero given up"),
          ("area", "area?", "where the new Hero stands (the old one's area), or null")),
    # --- heroes -----------------------------------------------------------------------------
    _kind("hero_recruited", "A player recruits a Hero from the track.",
          PLAYER, ("hero", "hero", "the Hero"), ("cost", "int", "GP paid")),
    _kind("hero_placed", "A Hero's miniature is placed.",
          PLAYER, ("hero", "hero", "the Hero"), ("area", "area", "where")),
    _kind("hero_sacrificed", "A player sacrifices a Hero for its power.",
          PLAYER, ("hero", "hero", "the Hero")),
    _kind("hero_lost", "A Hero leaves play (destroyed, discarded).",
          ("hero", "hero", "the Hero"), ("player", "player?", "its owner, or null")),
    _kind("power_used", "A Hero's sacrificial power is used through another Hero.",
          PLAYER, ("hero", "hero", "the power's Hero"), ("by", "hero", "the Hero sacrificed")),
    _kind("paid_for_power", "A player pays for a Hero's power.",
          PLAYER, ("amount", "int", "GP paid")),
    _kind("reroll", "Croesus: a player pays to roll their battle die again.",
          PLAYER, ("area", "area", "the battle's area"), ("die", "int", "the new die"),
          ("cost", "int", "GP paid")),
    _kind("hector", "Hector: the defender destroys an invading unit before the battle.",
          PLAYER, ("area", "area", "the battle's area"), ("unit", "unit", "troop or merc")),
    _kind("priestesses_converted", "Two Priestesses are turned into a Philosopher.",
          PLAYER, ("count", "int", "Priestesses given up")),
    _kind("prosperity_discarded", "A Prosperity token is discarded.",
          PLAYER, ("area", "area", "where")),
    _kind("creature_slain", "Heracles slays a creature on the board.",
          ("hero", "hero", "heracles"), ("card", "creature", "the creature"),
          ("area", "area", "where"), ("owner", "player?", "the creature's owner, or null")),
    _kind("cards_discarded", "The creature cards under a Hero are discarded.",
          ("hero", "hero", "the Hero")),
    _kind("mercs_turned", "Pandora: mercenary Troops in a battle change sides.",
          PLAYER, ("area", "area", "the battle's area"), ("count", "int", "how many")),
    _kind("perseus", "Perseus' power: Troops move from one area to another.",
          PLAYER, ("origin", "area", "from"), ("destination", "area", "to")),
)

EVENTS = {k.name: k for k in KINDS}


# --- checking an event against its declaration ---------------------------------------------

GODS = frozenset(GOD_NAMES) | {APOLLO}
NAMED = {
    "god": GODS,
    "creature": frozenset(CREATURES),
    "miniature": frozenset(CREATURES) | frozenset(CARD_OF),
    "hero": frozenset(HEROES),
    "building": frozenset(BUILDINGS) | {METROPOLIS},
    "bonus": frozenset(BONUS_TEXT),
    "unit": frozenset(("troop", "merc", "fleet")) | frozenset(HEROES) | frozenset(CREATURES),
}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _problem(value: Any, typ: str, game: Context) -> str | None:
    """Why value is not of type typ, or None."""
    if typ.endswith("?"):
        return None if value is None else _problem(value, typ[:-1], game)
    if typ.startswith("list[") and typ.endswith("]"):
        if not isinstance(value, list):
            return f"{value!r} is not a list"
        for x in value:
            why = _problem(x, typ[5:-1], game)
            if why:
                return why
        return None
    if typ == "int":
        return None if _is_int(value) else f"{value!r} is not an int"
    if typ == "bool":
        return None if isinstance(value, bool) else f"{value!r} is not a bool"
    if typ == "str":
        return None if isinstance(value, str) else f"{value!r} is not a string"
    if typ == "area":
        return None if isinstance(value, str) and value in game.board.index \
            else f"{value!r} is not an area id"
    if typ == "player":
        return None if _is_int(value) and 0 <= value < game.state.n else f"{value!r} is not a player"
    if typ == "area_count":
        if not isinstance(value, dict) or set(value) != {"area", "count"}:
            return f"{value!r} is not {{area, count}}"
        return _problem(value["area"], "area", game) or _problem(value["count"], "int", game)
    if typ in NAMED:
        return None if value in NAMED[typ] else f"{value!r} is not a {typ}"
    raise ValueError(f"unknown field type {typ!r}")


def check(event: dict[str, Any], game: Context) -> list[str]:
    """What is wrong with an event, against its declaration (an empty list: nothing)."""
    if not isinstance(event, dict):
        return [f"not a dict: {event!r}"]
    kind = EVENTS.get(str(event.get("type")))
    if kind is None:
        return [f"unknown event type {event.get('type')!r}"]
    out = []
    declared = {f.name for f in kind.fields}
    extra = set(event) - declared - {"type"}
    if extra:
        out.append(f"{kind.name}: undeclared fields {sorted(extra)}")
    for f in kind.fields:
        if f.name not in event:
            if not f.optional:
                out.append(f"{kind.name}: missing field {f.name!r}")
            continue
        why = _problem(event[f.name], f.type, game)
        if why:
            out.append(f"{kind.name}.{f.name}: {why}")
    return out


# --- what everyone may know ---------------------------------------------------------------------

def public_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events as every player may see them (R24): without the GP the Griffin takes, which
    only its thief and its victim know (the `gp` event right after `gp_stolen`)."""
    return [e for i, e in enumerate(events)
            if not (e["type"] == "gp" and i > 0 and events[i - 1]["type"] == "gp_stolen")]


# --- docs/events.md --------------------------------------------------------------------------

def markdown() -> str:
    lines = [
        "# Events",
        "",
        "<!-- Generated from src/cyclades/engine/events.py by "
        "`python -m cyclades.engine.events > docs/events.md`; do not edit. -->",
        "",
        "`game.apply(action)` returns the events the decision caused, in order: dicts with a",
        "`\"type\"` and exactly the fields below. Areas are board ids (`game.board.ids`), as in",
        "actions and views; players are indices. Types: `T?` is T or null, `list[T]` a list;",
        "`area_count` is `{\"area\": area, \"count\": int}`; `god`, `creature`, `miniature`, `hero`,",
        "`building`, `bonus` are ids; `unit` is `troop`, `merc`, `fleet`, or a hero or creature",
        "lost in battle.",
        "`cyclades.engine.log.describe(event, game)` tells an event in the rulebook's words;",
        "`cyclades.engine.events.public_events(events)` leaves out what only some players may",
        "know (the GP the Griffin takes): the game server sends its pages those.",
        "",
        "```python",
        '{"type": "moved", "player": 0, "origin": "naxos", "destination": "ios", '
        '"troops": 2, "mercs": 0, "heroes": [], "fleets": 0}',
        "```",
        "",
    ]
    for k in KINDS:
        lines += [f"## `{k.name}`", "", k.when, ""]
        if k.fields:
            lines += ["| field | type | meaning |", "|---|---|---|"]
            for f in k.fields:
                lines.append(f"| `{f.name}` | `{f.type}` | {f.meaning}{' (optional)' if f.optional else ''} |")
        else:
            lines.append("No fields besides `type`.")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(), end="")
