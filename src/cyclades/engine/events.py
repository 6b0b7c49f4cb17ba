"""The events the engine emits, declared once: each kind, its fields, when it happens, and the
sentence that tells it in the game log.

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

The sentence (`says=`, without its full stop; engine/log.py's `describe` tells an event with
it, in the current language) is one catalog message whose placeholders are the event's fields,
each named as the field and said as its type says it (engine/naming.py: a player's name, an
area's, a God's...), and a few parts made from a field: `{at}` ("on Naxos", "in the Sea of
Io") from `area`, `{gp}` ("3 GP") from `amount` (or else `cost`), `{creature}` from `card`,
`{n}` from `count` (or else `cycle`). A sentence that needs more (a choice of words, a plural,
a part left out) is a function `(event, game, P)` above its section's declarations, `P`
naming the players (engine/naming.py's `Namer`). An event that reaches it may lack fields
(an old record, a hand-written scenario): it reads them with `e.get`.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..content import names as content_names
from ..content.cards import BONUS_TEXT, CREATURES, HEROES
from ..content.gods import APOLLO, BUILDINGS, GOD_NAMES, METROPOLIS
from ..content.i18n import N_, _, ngettext
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
    is_land,
    listing,
    unit_name,
    unit_word,
)
from .queries import CARD_OF

if TYPE_CHECKING:
    from .context import Context

Event = Any  # an event's dict, as a sentence reads it: maybe of an unknown type, or lacking fields
Writer = Callable[[Event, "Context", Namer], str]  # a sentence that needs code: (event, game, P) -> str


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
    says: str | Writer  # the sentence in the log: a catalog message (N_) or a function


_DECLARED: list[Kind] = []


def _kind(name: str, when: str, *fields: tuple[Any, ...], says: str | Writer) -> Kind:
    kind = Kind(name, when, tuple(Field(*f) for f in fields), says)
    _DECLARED.append(kind)
    return kind


PLAYER = ("player", "player", "the player concerned")


# --- the cycle -------------------------------------------------------------------------------

def _gods(e: Event, g: Context, P: Namer) -> str:
    order, k = list(e.get("order") or ()), e.get("faceup", 0)
    up = ", ".join(god_name(x) for x in order[:k])
    down = ", ".join(god_name(x) for x in order[k:])
    out = (_("The Gods of this Cycle, in order: {gods}, then Apollo").format(gods=up) if up
           else _("The Gods of this Cycle, in order: then Apollo"))
    return out + (" " + _("(face down: {gods})").format(gods=down) if down else "")


def _reshuffle(e: Event, g: Context, P: Namer) -> str:
    deck = e.get("deck") or "creatures"
    if deck.startswith("creature"):
        return _("The Creature deck is shuffled together with its discard pile")
    if deck.startswith("hero"):
        return _("The Hero deck is shuffled together with its discard pile")
    return _("The {deck} deck is shuffled together with its discard pile").format(deck=deck)


def _income(e: Event, g: Context, P: Namer) -> str:
    gains = e.get("gains") or []
    parts = [_("{player} receives {gp}").format(player=P(p), gp=gp(n)) for p, n in enumerate(gains) if n]
    return (_("Income: {gains}").format(gains=listing(parts)) if parts
            else _("Income: no one receives any GP"))


def _game_over(e: Event, g: Context, P: Namer) -> str:
    winners = e.get("winners") or []
    if not winners:
        return _("The game is over, with no winner")
    if len(winners) == 1:
        return _("The game is over: {player} wins").format(player=P(winners[0]))
    return _("The game is over: {players} share the victory").format(players=listing(P(p) for p in winners))


_kind("cycle", "A new Cycle begins, before its preparation and Income.",
      ("cycle", "int", "the Cycle's number, 1 for the first"),
      says=N_("Cycle {n} begins"))
_kind("gods", "The Gods of the new Cycle are in place (Cycle Preparation).",
      ("order", "list[god]", "the Gods in auction order, Apollo apart"),
      ("faceup", "int", "how many of them, from the first, are face up and may be bid on"),
      says=_gods)
_kind("reshuffle", "A deck is shuffled together with its discard pile (the Chimera).",
      ("deck", "str", "the deck: \"creatures\""),
      says=_reshuffle)
_kind("income", "The Income phase is over (after the `gp` events it paid).",
      ("gains", "list[int]", "GP received by each player, indexed by player"),
      says=_income)
_kind("geryon_gp_taken", "A player takes the GP Geryon left in an area they control (Income).",
      PLAYER, ("area", "area", "where the GP lay"), ("amount", "int", "GP taken"),
      says=N_("{player} takes the {gp} Geryon left {at}"))
_kind("game_over", "The game ends (R21).",
      ("winners", "list[player]", "the winners; several share the victory"),
      says=_game_over)


# --- offerings -------------------------------------------------------------------------------

def _offering(e: Event, g: Context, P: Namer) -> str:
    god = e.get("god")
    if god == "apollo":
        return _("{player} makes an Offering to Apollo").format(player=P(e.get("player")))
    return _("{player} offers {gp} to {god}").format(player=P(e.get("player")), gp=gp(e.get("amount")),
                                                     god=god_name(god))


def _paid(e: Event, g: Context, P: Namer) -> str:
    n = e.get("amount", 0)
    if not n:
        return _("{player} pays nothing to {god}, thanks to their Priestesses").format(
            player=P(e.get("player")), god=god_name(e.get("god")))
    return _("{player} pays {gp} to {god}").format(player=P(e.get("player")), gp=gp(n), god=god_name(e.get("god")))


_kind("offering", "A player bids on a God, or makes an Offering to Apollo (amount 0).",
      PLAYER, ("god", "god", "the God"), ("amount", "int", "GP offered"),
      says=_offering)
_kind("outbid", "A player's bid is beaten; they must bid again at once (R10).",
      ("player", "player", "the player outbid"), ("god", "god", "the God they lost"),
      says=N_("{player} is outbid on {god} and must bid again"))
_kind("paid", "The offerings are over: a player pays for their God (R12: Priestesses discount).",
      PLAYER, ("god", "god", "the God"), ("amount", "int", "GP paid"),
      says=_paid)


# --- turns -----------------------------------------------------------------------------------

def _turn(e: Event, g: Context, P: Namer) -> str:
    god = e.get("god")
    if god == "apollo":
        return _("Apollo: {player} receives Apollo's favour").format(player=P(e.get("player")))
    return _("{god}: {player} performs the Actions of {god}").format(god=god_name(god), player=P(e.get("player")))


def _recruited(e: Event, g: Context, P: Namer) -> str:
    unit = e.get("unit")
    kind = unit_name(unit) if unit in UNITS else card_name(unit)
    return _("{player} recruits {unit} for {gp}").format(player=P(e.get("player")), unit=kind,
                                                         gp=gp(e.get("cost", 0)))


def _placed(kind: str) -> Writer:
    def says(e: Event, g: Context, P: Namer) -> str:
        return _("{player} places {units} {at}").format(
            player=P(e.get("player")), units=unit_name(kind, e.get("count", 1)), at=at_area(g, e.get("area")))
    return says


def _gp_change(e: Event, g: Context, P: Namer) -> str:
    n = e.get("amount", 0)
    if isinstance(n, int) and n < 0:
        return _("{player} loses {gp}").format(player=P(e.get("player")), gp=gp(-n))
    return _("{player} receives {gp}").format(player=P(e.get("player")), gp=gp(n))


def _priestess(e: Event, g: Context, P: Namer) -> str:
    n = e.get("amount", 1)
    return ngettext("{player} takes a Priestess card", "{player} takes {n} Priestess cards", n).format(
        player=P(e.get("player")), n=n)


def _built(e: Event, g: Context, P: Namer) -> str:
    b = e.get("building")
    building = content_names.called(b) if b in content_names.BUILDINGS else \
        _("a {thing}").format(thing=building_name(b))
    return _("{player} builds {building} {at}").format(player=P(e.get("player")), building=building,
                                                       at=at_area(g, e.get("area")))


_kind("turn", "A player's turn with their God begins.",
      PLAYER, ("god", "god", "the God they play with"),
      says=_turn)
_kind("turn_end", "A player's turn ends.", PLAYER,
      says=N_("{player} ends their turn"))
_kind("recruited", "A player pays for a recruit (the God's paid recruit).",
      PLAYER, ("unit", "str", "what: troop, merc, fleet, philosopher, priestess"),
      ("cost", "int", "GP paid"),
      says=_recruited)
_kind("troop", "Troops are placed in an area (recruits, bonuses, setup).",
      PLAYER, ("area", "area", "where"), ("count", "int", "how many"),
      says=_placed("troop"))
_kind("merc", "Mercenary Troops are placed in an area.",
      PLAYER, ("area", "area", "where"), ("count", "int", "how many"),
      says=_placed("merc"))
_kind("fleet", "Fleets are placed in a sea area.",
      PLAYER, ("area", "area", "where"), ("count", "int", "how many"),
      says=_placed("fleet"))
_kind("gp", "A player's GP change (a team's purse: its holder, R22).",
      ("player", "player", "whose purse"), ("amount", "int", "GP gained (negative: lost)"),
      says=_gp_change)
_kind("priestess", "A player takes Priestess cards.",
      PLAYER, ("amount", "int", "how many"),
      says=_priestess)
_kind("philosopher", "A player takes a Philosopher card.", PLAYER,
      says=N_("{player} takes a Philosopher card"))
_kind("prosperity", "A Prosperity token is placed on an area (Apollo, bonuses, creatures).",
      PLAYER, ("area", "area", "where"),
      says=N_("{player} places a Prosperity token {at}"))
_kind("forgo", "A player gives up the building their God offered.",
      PLAYER, ("building", "building", "the building not built"),
      says=N_("{player} forgoes building the {building}"))
_kind("built", "A building is built.",
      PLAYER, ("building", "building", "what"), ("area", "area", "where"),
      says=_built)
_kind("demolished", "A building is removed to make room for another one (or a Metropolis).",
      PLAYER, ("building", "building", "what was removed"), ("area", "area", "where"),
      says=N_("{player} removes their {building} {at} to make room"))


# --- metropolises ----------------------------------------------------------------------------

METROPOLIS_WAYS = {"economic": N_("{player} builds a Metropolis {at} by Economic development"),
                   "cultural": N_("{player} builds a Metropolis {at} by Cultural development"),
                   "heroic": N_("{player} builds a Metropolis {at} by a Heroic Action")}


def _metropolis(e: Event, g: Context, P: Namer) -> str:
    player, at, how = P(e.get("player")), at_area(g, e.get("area")), e.get("how")
    if how in METROPOLIS_WAYS:
        out = _(METROPOLIS_WAYS[how]).format(player=player, at=at)
    elif how:
        out = _("{player} builds a Metropolis {at} ({how})").format(player=player, at=at, how=how)
    else:
        out = _("{player} builds a Metropolis {at}").format(player=player, at=at)
    bonus = e.get("bonus")
    if bonus:
        return _("{metropolis}; bonus: {bonus}").format(metropolis=out, bonus=bonus_name(bonus))
    # R20: the classic edition has no bonuses; in Legendary the stack may run out (R28).
    return _("{metropolis}; no bonus token is left").format(metropolis=out) if g.rules.metropolis_bonuses else out


def _metropolis_on_card(e: Event, g: Context, P: Namer) -> str:
    bonus = e.get("bonus")
    if bonus:
        return _("{player} places the Metropolis on Penthesilea's card, where it cannot be attacked (bonus: "
                 "{bonus})").format(player=P(e.get("player")), bonus=bonus_name(bonus))
    return _("{player} places the Metropolis on Penthesilea's card, where it cannot be attacked").format(
        player=P(e.get("player")))


_kind("metropolis", "A Metropolis is built.",
      PLAYER, ("area", "area", "where"),
      ("how", "str", "economic, cultural or heroic"),
      ("bonus", "bonus?", "the bonus token drawn; null if none is left or the ruleset has none"),
      says=_metropolis)
_kind("metropolis_impossible", "A player earns a Metropolis but has nowhere to build it.", PLAYER,
      says=N_("{player} has nowhere to build a Metropolis and builds none"))
_kind("metropolis_lost", "A player loses a Metropolis in battle and receives its bonus.",
      ("player", "player", "the player who lost it"), ("area", "area", "where"),
      ("bonus", "bonus", "the bonus applied"),
      says=N_("{player} loses the Metropolis {at} and receives its bonus: {bonus}"))
_kind("metropolis_on_card", "Penthesilea's power: the Metropolis goes on her card.",
      PLAYER, ("hero", "hero", "the card: penthesilea"),
      ("how", "str", "economic, cultural or heroic"), ("bonus", "bonus?", "the bonus token drawn"),
      says=_metropolis_on_card)


# --- moves -----------------------------------------------------------------------------------

def _forces(e: Event) -> str:
    parts = []
    for kind in ("troops", "mercs", "fleets"):
        n = e.get(kind) or 0
        if n:
            parts.append(unit_name(kind[:-1], n))
    parts.extend(card_name(h) for h in e.get("heroes") or ())
    return listing(parts) or _("nothing")


def _land_move(e: Event, g: Context, P: Namer) -> str:
    hero = e.get("hero")
    text = _("{player} pays {gp} for a Heroic Move with {hero} from {origin} to {destination}") if hero else \
        _("{player} pays {gp} for a Land Move from {origin} to {destination}")
    return text.format(player=P(e.get("player")), gp=gp(e.get("cost", 1)), hero=card_name(hero),
                       origin=area_name(g, e.get("origin")), destination=area_name(g, e.get("destination")))


def _sea_move(e: Event, g: Context, P: Namer) -> str:
    return _("{player} pays {gp} for a Sea Move of {fleets} from {origin} to {destination}").format(
        player=P(e.get("player")), gp=gp(e.get("cost", 1)), fleets=unit_name("fleet", e.get("fleets", 1)),
        origin=area_name(g, e.get("origin")), destination=area_name(g, e.get("destination")))


def _moved(e: Event, g: Context, P: Namer) -> str:
    return _("{player} moves {units} from {origin} to {destination}").format(
        player=P(e.get("player")), units=_forces(e), origin=area_name(g, e.get("origin")),
        destination=area_name(g, e.get("destination")))


def _control(e: Event, g: Context, P: Namer) -> str:
    prev = e.get("previous")
    if isinstance(prev, int) and prev >= 0:  # null: nobody held it
        return _("{player} takes control of {area} from {previous}").format(
            player=P(e.get("player")), area=area_name(g, e.get("area")), previous=P(prev))
    return _("{player} takes control of {area}").format(player=P(e.get("player")), area=area_name(g, e.get("area")))


_kind("land_move", "A Land Move (or a Heroic Move) is paid for and made.",
      PLAYER, ("origin", "area", "where the units leave"), ("destination", "area", "where they go"),
      ("cost", "int", "GP paid"), ("hero", "hero?", "the hero of a Heroic Move, else null"),
      says=_land_move)
_kind("sea_move", "A Sea Move is paid for and made.",
      PLAYER, ("origin", "area", "where the Fleets leave"),
      ("destination", "area", "where they go"), ("fleets", "int", "how many leave the origin"),
      ("cost", "int", "GP paid"),
      ("path", "list[area]", "classic only: the seas entered, in order", True),
      ("picked_up", "list[area_count]", "classic only: Fleets picked up on the way", True),
      ("dropped", "list[area_count]", "classic only: Fleets dropped on the way", True),
      says=_sea_move)
_kind("moved", "Units arrive in an area where no battle starts (after land_move, sea_move...).",
      PLAYER, ("origin", "area", "where they come from"), ("destination", "area", "where they arrive"),
      ("troops", "int", "Troops"), ("mercs", "int", "mercenary Troops"),
      ("heroes", "list[hero]", "Heroes"), ("fleets", "int", "Fleets"),
      says=_moved)
_kind("token_returned", "A Control token is returned as an enemy moves into the empty area.",
      ("player", "player", "the token's owner"), ("area", "area", "where it was"),
      says=N_("{player}'s Control token on {area} is returned to them"))
_kind("control", "A player takes control of a land area.",
      PLAYER, ("area", "area", "the area"),
      ("previous", "player?", "who controlled it before, or null"),
      says=_control)
_kind("eliminated", "A player controls no land area and is eliminated (R27).", PLAYER,
      says=N_("{player} controls no Land Area and is eliminated"))


# --- battles ---------------------------------------------------------------------------------

def battle_sides(g: Context, a: Any) -> tuple[Any, Any]:
    """The attacker and defender of the battle in area a, if it is still being fought."""
    i = area_index(g, a)
    for f in reversed(getattr(g.state, "stack", ()) or ()):
        if f.get("kind") == "battle" and i is not None and f.get("area") == i:
            return f.get("attacker"), f.get("defender")
    return None, None


def _battle(e: Event, g: Context, P: Namer) -> str:
    a = e.get("area")
    text = _("{attacker} attacks {defender}: a Land Battle {at}") if is_land(g, a) else \
        _("{attacker} attacks {defender}: a Sea Battle {at}")
    return text.format(attacker=P(e.get("attacker")), defender=P(e.get("defender")), at=at_area(g, a))


def _round(e: Event, g: Context, P: Namer) -> str:
    a = e.get("area")
    att, dfd = P.sides or battle_sides(g, a)
    dice = list(e.get("dice") or (0, 0))
    st = list(e.get("strength") or (0, 0))
    an = P(att) if att is not None else _("the attacker")
    dn = P(dfd) if dfd is not None else _("the defender")
    outcome = _("a tie: both lose the round") if st[0] == st[1] else \
        _("{player} loses the round").format(player=dn if st[0] > st[1] else an)
    text = _("Land Battle {at}, round {round}: {attacker} rolls {die} (strength {strength}), {defender} rolls "
             "{die2} (strength {strength2}); {outcome}") if is_land(g, a) else \
        _("Sea Battle {at}, round {round}: {attacker} rolls {die} (strength {strength}), {defender} rolls "
          "{die2} (strength {strength2}); {outcome}")
    return text.format(at=at_area(g, a), round=e.get("round", "?"), attacker=an, die=dice[0], strength=st[0],
                       defender=dn, die2=dice[1], strength2=st[1], outcome=outcome)


def _destroyed(e: Event, g: Context, P: Namer) -> str:
    n = e.get("count", 1)
    what = unit_name(e.get("unit"), n)
    text = ngettext("{units} is destroyed {at}", "{units} are destroyed {at}", n).format(
        units=what, at=at_area(g, e.get("area")))
    return text[:1].upper() + text[1:]


def _escaped(e: Event, g: Context, P: Namer) -> str:
    return _("Perseus: {player}'s {unit} retreats from {origin} to {destination} instead of being destroyed").format(
        player=P(e.get("player")), unit=unit_word(e.get("unit")), origin=area_name(g, e.get("origin")),
        destination=area_name(g, e.get("destination")))


_kind("battle", "A battle starts.",
      ("attacker", "player", "the attacker"), ("defender", "player", "the defender"),
      ("area", "area", "where"), ("sea", "bool", "a Sea Battle (else a Land Battle)"),
      says=_battle)
_kind("round", "A battle round is rolled; the sides of the battle in `area` fight it.",
      ("area", "area", "where"), ("round", "int", "the round's number, from 1"),
      ("dice", "list[int]", "the dice that count, attacker's then defender's"),
      ("strength", "list[int]", "each side's total, attacker's then defender's"),
      ("rolled", "list[int]", "the dice first rolled, when a power changed them", True),
      says=_round)
_kind("casualty", "The loser of a round removes a unit.",
      PLAYER, ("area", "area", "where"), ("unit", "unit", "the unit lost"),
      says=N_("{player} loses {unit} {at}"))
_kind("destroyed", "Units are destroyed (returned to their reserve).",
      ("area", "area", "where"), ("unit", "unit", "troop, merc or fleet"),
      ("count", "int", "how many"),
      says=_destroyed)
_kind("retreat", "A side retreats from a battle.",
      PLAYER, ("origin", "area", "the battle's area"), ("destination", "area", "where they go"),
      says=N_("{player} retreats from {origin} to {destination}"))
_kind("escaped", "Perseus: a unit about to be lost retreats instead.",
      PLAYER, ("origin", "area", "the battle's area"), ("destination", "area", "where it goes"),
      ("unit", "unit", "troop or merc"),
      says=_escaped)
_kind("battle_won", "The attacker wins a battle and controls the area.",
      ("player", "player", "the attacker"), ("area", "area", "where"),
      says=N_("{player} wins the battle and takes control of {area}"))
_kind("battle_held", "The defender holds the area (or a sea is left empty).",
      ("player", "player", "the defender"), ("area", "area", "where"),
      says=N_("{player} repels the attack on {area}"))
_kind("side_destroyed", "Achilles: a side that cannot retreat loses its Troops and Heroes.",
      PLAYER, ("area", "area", "where"),
      says=N_("Achilles: {player} cannot retreat; their Troops and Heroes {at} are destroyed"))


# --- creatures -------------------------------------------------------------------------------

def _creature_placed(e: Event, g: Context, P: Namer) -> str:
    return _("{player} places {creature} {at}").format(
        player=P(e.get("player")), creature=creature_name(e.get("miniature") or e.get("card")),
        at=at_area(g, e.get("area")))


def _sphinx_draw(e: Event, g: Context, P: Namer) -> str:
    n = e.get("count", 3)
    return ngettext("{player} draws {n} Creature card with the Sphinx",
                    "{player} draws {n} Creature cards with the Sphinx", n).format(player=P(e.get("player")), n=n)


def _card_stolen(e: Event, g: Context, P: Namer) -> str:
    card, player, victim = e.get("card"), P(e.get("player")), P(e.get("victim"))
    if card == "priestess":
        return _("{player} steals a Priestess card from {victim}").format(player=player, victim=victim)
    if card == "philosopher":
        return _("{player} steals a Philosopher card from {victim}").format(player=player, victim=victim)
    return _("{player} steals a {card} card from {victim}").format(
        player=player, card=content_names.unit_words(card)[0] if card in UNITS else card_name(card), victim=victim)


def _mercs_stolen(e: Event, g: Context, P: Namer) -> str:
    return _("{player} steals {mercs} from {victim} {at}").format(
        player=P(e.get("player")), mercs=unit_name("merc", e.get("count", 1)), victim=P(e.get("victim")),
        at=at_area(g, e.get("area")))


def _exchanged(e: Event, g: Context, P: Namer) -> str:
    player, reward = P(e.get("player")), e.get("reward")
    if reward == "prosperity":
        return _("{player} turns 2 mercenary Troops into a Prosperity token").format(player=player)
    if reward == "priestess":
        return _("{player} turns 2 mercenary Troops into a Priestess card").format(player=player)
    if reward == "philosopher":
        return _("{player} turns 2 mercenary Troops into a Philosopher card").format(player=player)
    return _("{player} turns 2 mercenary Troops into {reward}").format(player=player, reward=card_name(reward))


def _fleets_exchanged(e: Event, g: Context, P: Namer) -> str:
    n = e.get("count", 1)
    return ngettext("{player} exchanges {fleets} {at} for a mercenary Troop",
                    "{player} exchanges {fleets} {at} for {n} mercenary Troops", n).format(
        player=P(e.get("player")), fleets=unit_name("fleet", n), at=at_area(g, e.get("area")), n=n)


def _fleets_swapped(e: Event, g: Context, P: Namer) -> str:
    areas = [*list(e.get("areas") or ()), None, None]
    return _("{player} swaps the Fleets of {area} and {other}").format(
        player=P(e.get("player")), area=area_name(g, areas[0]), other=area_name(g, areas[1]))


def _displaced(e: Event, g: Context, P: Namer) -> str:
    return _("{player} moves {units} from {origin} to {destination}, driven out by {by}'s creature").format(
        player=P(e.get("player")), units=_forces(e), origin=area_name(g, e.get("origin")),
        destination=area_name(g, e.get("destination")), by=P(e.get("by")))


def _hero_swapped(e: Event, g: Context, P: Namer) -> str:
    player, old, hero, a = P(e.get("player")), card_name(e.get("old")), card_name(e.get("hero")), e.get("area")
    if a is None:
        return _("{player} swaps their Hero {old} for {hero} from the Hero track").format(
            player=player, old=old, hero=hero)
    return _("{player} swaps their Hero {old} for {hero} from the Hero track, who stands {at}").format(
        player=player, old=old, hero=hero, at=at_area(g, a))


_kind("creature_bought", "A player buys a creature card.",
      PLAYER, ("card", "creature", "the card"), ("cost", "int", "GP paid"),
      says=N_("{player} buys {creature} for {gp}"))
_kind("creature_wasted", "A creature bought with no possible effect is discarded.",
      PLAYER, ("card", "creature", "the card"),
      says=N_("{player} cannot use {creature}: it is discarded without effect"))
_kind("creature_played", "A creature lets its player play another one for free.",
      PLAYER, ("card", "creature", "the card played"), ("by", "creature", "the card that allowed it"),
      says=N_("{player} plays {creature} for free through {by}"))
_kind("creature_placed", "A creature's miniature is placed on the board.",
      PLAYER, ("card", "creature", "the card"), ("miniature", "miniature", "the miniature"),
      ("area", "area", "where"),
      says=_creature_placed)
_kind("creature_moved", "A creature's miniature moves (Maintenance, a creature's effect).",
      ("card", "miniature", "the miniature"), ("area", "area", "where it goes"),
      says=N_("{creature} moves to {area}"))
_kind("creature_leaves", "A creature leaves play (its miniatures leave the board).",
      ("card", "creature", "the card"),
      says=N_("{creature} leaves the board"))
_kind("creature_stolen", "A player takes another player's creature.",
      PLAYER, ("victim", "player", "the previous owner"), ("card", "creature", "the card"),
      says=N_("{player} steals {creature} from {victim}"))
_kind("creature_swapped", "Classic Zeus (R25): a card of the Creature track is replaced.",
      PLAYER, ("card", "creature", "the card discarded"), ("new", "creature?", "the card drawn"),
      ("cost", "int", "GP paid"),
      says=N_("{player} pays 1 GP to discard {creature} from the Creature track; {new} takes its place"))
_kind("reserved", "A player reserves a creature on the track (a Metropolis bonus).",
      PLAYER, ("card", "creature", "the card"),
      says=N_("{player} reserves {creature} on the Creature track"))
_kind("kept", "Maintenance: a player discards a Priestess to keep a creature.",
      PLAYER, ("card", "creature", "the card kept"),
      says=N_("{player} discards a Priestess to keep {creature}"))
_kind("peek", "A player secretly looks at the top card of the Creature deck.", PLAYER,
      says=N_("{player} secretly looks at the top card of the Creature deck"))
_kind("peek_returned", "The card looked at goes back on top of the deck.", PLAYER,
      says=N_("{player} puts the Creature card back on top of the deck"))
_kind("sphinx_draw", "The Sphinx: a player draws creature cards to choose from.",
      PLAYER, ("count", "int", "cards drawn"),
      says=_sphinx_draw)
_kind("card_stolen", "A Priestess or Philosopher card is taken from a player.",
      PLAYER, ("victim", "player", "who loses it"), ("card", "str", "priestess or philosopher"),
      says=_card_stolen)
_kind("building_stolen", "A building is taken from a player (it is built elsewhere next).",
      PLAYER, ("victim", "player", "its owner"), ("building", "building", "what"),
      ("area", "area", "where it stood"),
      says=N_("{player} steals {victim}'s {building} {at}"))
_kind("mercs_stolen", "A player takes the mercenary Troops of an area.",
      PLAYER, ("victim", "player", "their owner"), ("area", "area", "where they stood"),
      ("count", "int", "how many"),
      says=_mercs_stolen)
_kind("gp_stolen", "The Griffin: a player takes half of another's GP (amount secret, R24).",
      PLAYER, ("victim", "player", "who loses them"),
      says=N_("{player} steals half the GP of {victim}"))
_kind("graeae", "The Graeae: a player repeats their Income phase.",
      PLAYER, ("amount", "int", "GP received"),
      says=N_("{player} repeats their Income Phase and receives {gp}"))
_kind("exchanged", "Two mercenary Troops are turned into a reward.",
      PLAYER, ("reward", "str", "prosperity, priestess or philosopher"),
      says=_exchanged)
_kind("fleets_exchanged", "Fleets of a sea area are exchanged for mercenary Troops.",
      PLAYER, ("area", "area", "the sea"), ("count", "int", "Fleets exchanged"),
      says=_fleets_exchanged)
_kind("fleets_swapped", "The Fleets of two sea areas change places.",
      PLAYER, ("areas", "list[area]", "the two seas"),
      says=_fleets_swapped)
_kind("pegasus", "Pegasus: units fly from one area to another.",
      PLAYER, ("origin", "area", "from"), ("destination", "area", "to"),
      says=N_("{player} flies with Pegasus from {origin} to {destination}"))
_kind("prosperity_moved", "A Prosperity token moves from one area to another.",
      PLAYER, ("origin", "area", "from"), ("destination", "area", "to"),
      says=N_("{player} moves a Prosperity token from {origin} to {destination}"))
_kind("displaced", "A creature drives units out of an area.",
      ("player", "player", "the owner of the units"), ("origin", "area", "from"),
      ("destination", "area", "to"), ("troops", "int", "Troops"),
      ("mercs", "int", "mercenary Troops"), ("heroes", "list[hero]", "Heroes"),
      ("fleets", "int", "Fleets"), ("by", "player", "the creature's owner"),
      says=_displaced)
_kind("displaced_destroyed", "Units a creature drives out have nowhere to go: destroyed.",
      ("player", "player", "their owner"), ("area", "area", "where"),
      says=N_("{player}'s units {at} have nowhere to go and are destroyed"))
_kind("geryon_gp", "Geryon: GP are placed on its area as units are destroyed.",
      ("area", "area", "Geryon's area"), ("amount", "int", "GP placed"),
      says=N_("Geryon: {gp} placed {at}"))
_kind("hero_swapped", "A player exchanges their Hero for one on the Hero track.",
      PLAYER, ("hero", "hero", "the new Hero"), ("old", "hero", "the Hero given up"),
      ("area", "area?", "where the new Hero stands (the old one's area), or null"),
      says=_hero_swapped)


# --- heroes ----------------------------------------------------------------------------------

def _hero_lost(e: Event, g: Context, P: Namer) -> str:
    owner = e.get("player")
    if isinstance(owner, int) and owner >= 0:
        return _("{player}'s Hero {hero} is discarded").format(player=P(owner), hero=card_name(e.get("hero")))
    return _("The Hero {hero} is discarded").format(hero=card_name(e.get("hero")))


def _hector(e: Event, g: Context, P: Namer) -> str:
    return _("Hector: {player} destroys an invading {unit} {at} before the battle").format(
        player=P(e.get("player")), unit=unit_word(e.get("unit")), at=at_area(g, e.get("area")))


def _mercs_turned(e: Event, g: Context, P: Namer) -> str:
    n = e.get("count", 1)
    return ngettext("Pandora: {mercs} {at} comes under {player}'s control",
                    "Pandora: {mercs} {at} come under {player}'s control", n).format(
        mercs=unit_name("merc", n), at=at_area(g, e.get("area")), player=P(e.get("player")))


_kind("hero_recruited", "A player recruits a Hero from the track.",
      PLAYER, ("hero", "hero", "the Hero"), ("cost", "int", "GP paid"),
      says=N_("{player} recruits the Hero {hero} for {gp}"))
_kind("hero_placed", "A Hero's miniature is placed.",
      PLAYER, ("hero", "hero", "the Hero"), ("area", "area", "where"),
      says=N_("{player} places {hero} {at}"))
_kind("hero_sacrificed", "A player sacrifices a Hero for its power.",
      PLAYER, ("hero", "hero", "the Hero"),
      says=N_("{player} sacrifices {hero}"))
_kind("hero_lost", "A Hero leaves play (destroyed, discarded).",
      ("hero", "hero", "the Hero"), ("player", "player?", "its owner, or null"),
      says=_hero_lost)
_kind("power_used", "A Hero's sacrificial power is used through another Hero.",
      PLAYER, ("hero", "hero", "the power's Hero"), ("by", "hero", "the Hero sacrificed"),
      says=N_("{player} uses the sacrificial power of {hero} through {by}"))
_kind("paid_for_power", "A player pays for a Hero's power.",
      PLAYER, ("amount", "int", "GP paid"),
      says=N_("{player} pays {gp} for the power"))
_kind("reroll", "Croesus: a player pays to roll their battle die again.",
      PLAYER, ("area", "area", "the battle's area"), ("die", "int", "the new die"),
      ("cost", "int", "GP paid"),
      says=N_("Croesus: {player} pays {gp} and rolls again: {die}"))
_kind("hector", "Hector: the defender destroys an invading unit before the battle.",
      PLAYER, ("area", "area", "the battle's area"), ("unit", "unit", "troop or merc"),
      says=_hector)
_kind("priestesses_converted", "Two Priestesses are turned into a Philosopher.",
      PLAYER, ("count", "int", "Priestesses given up"),
      says=N_("{player} turns {n} Priestesses into a Philosopher"))
_kind("prosperity_discarded", "A Prosperity token is discarded.",
      PLAYER, ("area", "area", "where"),
      says=N_("{player} discards a Prosperity token {at}"))
_kind("creature_slain", "Heracles slays a creature on the board.",
      ("hero", "hero", "heracles"), ("card", "creature", "the creature"),
      ("area", "area", "where"), ("owner", "player?", "the creature's owner, or null"),
      says=N_("{hero} slays {creature} {at}"))
_kind("cards_discarded", "The creature cards under a Hero are discarded.",
      ("hero", "hero", "the Hero"),
      says=N_("The Creature cards under {hero} are discarded"))
_kind("mercs_turned", "Pandora: mercenary Troops in a battle change sides.",
      PLAYER, ("area", "area", "the battle's area"), ("count", "int", "how many"),
      says=_mercs_turned)
_kind("perseus", "Perseus' power: Troops move from one area to another.",
      PLAYER, ("origin", "area", "from"), ("destination", "area", "to"),
      says=N_("{player} moves Troops with Perseus' power from {origin} to {destination}"))

KINDS = tuple(_DECLARED)
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
