"""The game log in the rulebook's words: one English sentence per engine event.

    from cyclades.engine.log import describe, Narrator
    describe({"type": "offering", "player": 1, "god": "zeus", "amount": 5}, game)
    # -> "Player 2 offers 5 GP to Zeus."

Events are the dicts `Game.apply` returns (each has a "type"; engine/events.py declares
them, docs/events.md lists them); area fields are area ids (an index is read too), player
fields are player indices (shown as "Player 1".."Player N"
unless a `names` list is given). `describe` never raises: an event type it does
not know still becomes a sentence built from its fields.

A battle round's event names no players; `describe` finds them on the decision
stack while the battle goes on, and a `Narrator` (which reads a whole game's
events in order) remembers them from the battle's first event, so that replays
name the two sides even after the battle is over.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..content.cards import BONUS_TEXT, CREATURES

if TYPE_CHECKING:
    from .actions import Action
    from .context import Context

UNITS = {"troop": ("Troop", "Troops"), "merc": ("mercenary Troop", "mercenary Troops"),
         "fleet": ("Fleet", "Fleets"), "hero": ("Hero", "Heroes"),
         "philosopher": ("Philosopher", "Philosophers"), "priestess": ("Priestess", "Priestesses")}
BUILDING_NAMES = {"port": "Port", "fortress": "Fortress", "temple": "Temple",
                  "university": "University", "metropolis": "Metropolis"}
# Cards whose name is not simply the id in title case.
CARD_NAMES = {"scylla-charybdis": "Scylla and Charybdis", "calydonian-boar": "the Calydonian Boar"}
METROPOLIS_WAYS = {"economic": "by Economic development", "cultural": "by Cultural development",
                   "heroic": "by a Heroic Action"}


# --- names -----------------------------------------------------------------------

def player_name(p: int | None, names: list[str] | None = None) -> str:
    if p is None or not isinstance(p, int) or p < 0:
        return "nobody"
    if names and p < len(names):
        return names[p]
    return f"Player {p + 1}"


def card_name(c: str | None) -> str:
    if not c:
        return "nothing"
    c = str(c)
    return CARD_NAMES.get(c) or c.replace("-", " ").title()


def creature_name(c: str) -> str:
    """A creature as a sentence names it: "the Kraken", "Pegasus" (`article` on the card's
    entry, content/cards.py; a miniature is named as its card is)."""
    card = CREATURES.get(c)
    return ("the " if card is not None and card.article else "") + card_name(c)


def god_name(god: str | None) -> str:
    return str(god).title() if god else "no god"


def unit_name(kind: str, count: int = 1) -> str:
    if kind in UNITS:
        one, many = UNITS[kind]
        return f"a {one}" if count == 1 else f"{count} {many}"
    return card_name(kind)  # a hero lost in battle is named by its card


def building_name(kind: str) -> str:
    return BUILDING_NAMES.get(kind) or card_name(kind)


def area_index(game: Context, a: Any) -> int | None:
    """The index of an area given by its id (as events name it) or its index; None if unknown."""
    b = game.board
    if isinstance(a, str):
        return b.index.get(a)
    if isinstance(a, int) and not isinstance(a, bool) and 0 <= a < len(b.names):
        return a
    return None


def area_name(game: Context, a: Any) -> str:
    """The area's printed name; a sea area reads with "the" ("the Sea of Io")."""
    b = game.board
    i = area_index(game, a)
    if i is None:
        return f"area {a}" if a is not None else "an unknown area"
    name = str(b.names[i])
    if not b.is_land[i] and not name.lower().startswith("the "):
        return "the " + name
    return name


def at_area(game: Context, a: Any) -> str:
    """'on Naxos' for a land area, 'in the Sea of Io' for a sea area."""
    i = area_index(game, a)
    if i is not None and game.board.is_land[i]:
        return "on " + area_name(game, a)
    return "in " + area_name(game, a)


def listing(items: Any) -> str:
    words = [str(x) for x in items if x]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def gp(n: int | None) -> str:
    return f"{n} GP" if isinstance(n, int) else "some GP"


# --- the sentences ------------------------------------------------------------------
# Each writer takes (event, game, P) where P(p) names a player, and returns a sentence
# without its final full stop.

Event = Any  # an event's dict; `describe` reads any dict (an unknown type, missing fields)
Namer = Callable[[Any], str]
Writer = Callable[[Event, "Context", Namer], str]

def _cycle(e: Event, g: Context, P: Namer) -> str:
    return f"Cycle {e.get('cycle', '?')} begins"


def _gods(e: Event, g: Context, P: Namer) -> str:
    order, k = list(e.get("order") or ()), e.get("faceup", 0)
    up = ", ".join(god_name(x) for x in order[:k])
    down = ", ".join(god_name(x) for x in order[k:])
    out = f"The Gods of this Cycle, in order: {up + ', ' if up else ''}then Apollo"
    return out + (f" (face down: {down})" if down else "")


def _reshuffle(e: Event, g: Context, P: Namer) -> str:
    deck = e.get("deck") or "creatures"
    what = "Creature" if deck.startswith("creature") else "Hero" if deck.startswith("hero") else str(deck)
    return f"The {what} deck is shuffled together with its discard pile"


def _income(e: Event, g: Context, P: Namer) -> str:
    gains = e.get("gains") or []
    parts = [f"{P(p)} receives {gp(n)}" for p, n in enumerate(gains) if n]
    return "Income: " + (listing(parts) if parts else "no one receives any GP")


def _game_over(e: Event, g: Context, P: Namer) -> str:
    winners = e.get("winners") or []
    if not winners:
        return "The game is over, with no winner"
    if len(winners) == 1:
        return f"The game is over: {P(winners[0])} wins"
    return f"The game is over: {listing(P(p) for p in winners)} share the victory"


def _philosopher(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} takes a Philosopher card"


def _priestess(e: Event, g: Context, P: Namer) -> str:
    n = e.get("amount", 1)
    return f"{P(e.get('player'))} takes {'a Priestess card' if n == 1 else f'{n} Priestess cards'}"


def _metropolis_impossible(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} has nowhere to build a Metropolis and builds none"


def _demolished(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))} removes their {building_name(e.get('building'))} "
            f"{at_area(g, e.get('area'))} to make room")


def _metropolis(e: Event, g: Context, P: Namer) -> str:
    how = METROPOLIS_WAYS.get(e.get("how"), f"({e.get('how')})" if e.get("how") else "")
    out = f"{P(e.get('player'))} builds a Metropolis {at_area(g, e.get('area'))}"
    if how:
        out += " " + how
    bonus = e.get("bonus")
    if bonus:
        return out + f"; bonus: {BONUS_TEXT.get(bonus, card_name(bonus))}"
    # R20: the classic edition has no bonuses; in Legendary the stack may run out (R28).
    return out + ("; no bonus token is left" if g.rules.metropolis_bonuses else "")


def _metropolis_lost(e: Event, g: Context, P: Namer) -> str:
    bonus = e.get("bonus")
    return (f"{P(e.get('player'))} loses the Metropolis {at_area(g, e.get('area'))} and receives "
            f"its bonus: {BONUS_TEXT.get(bonus, card_name(bonus))}")


def _reserved(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} reserves {creature_name(e.get('card'))} on the Creature track"


def _kept(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} discards a Priestess to keep {creature_name(e.get('card'))}"


def _creature_moved(e: Event, g: Context, P: Namer) -> str:
    return f"{creature_name(e.get('card'))} moves to {area_name(g, e.get('area'))}"


def _creature_leaves(e: Event, g: Context, P: Namer) -> str:
    return f"{creature_name(e.get('card'))} leaves the board"


def _creature_bought(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} buys {creature_name(e.get('card'))} for {gp(e.get('cost', 0))}"


def _creature_wasted(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))} cannot use {creature_name(e.get('card'))}: "
            f"it is discarded without effect")


def _peek(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} secretly looks at the top card of the Creature deck"


def _peek_returned(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} puts the Creature card back on top of the deck"


def _hero_recruited(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} recruits the Hero {card_name(e.get('hero'))} for {gp(e.get('cost', 0))}"


def _hero_placed(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} places {card_name(e.get('hero'))} {at_area(g, e.get('area'))}"


# Creature effects (rulebook, "Mythological Creatures"; the Maelström cards).

def _creature_played(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))} plays {creature_name(e.get('card'))} for free "
            f"through {creature_name(e.get('by'))}")


def _creature_stolen(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} steals {creature_name(e.get('card'))} from {P(e.get('victim'))}"


def _card_stolen(e: Event, g: Context, P: Namer) -> str:
    card = UNITS.get(e.get("card"), (card_name(e.get("card")),))[0]
    return f"{P(e.get('player'))} steals a {card} card from {P(e.get('victim'))}"


def _building_stolen(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))} steals {P(e.get('victim'))}'s {building_name(e.get('building'))} "
            f"{at_area(g, e.get('area'))}")


def _mercs_stolen(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))} steals {unit_name('merc', e.get('count', 1))} from "
            f"{P(e.get('victim'))} {at_area(g, e.get('area'))}")


def _gp_stolen(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} steals half the GP of {P(e.get('victim'))}"


def _graeae(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} repeats their Income Phase and receives {gp(e.get('amount'))}"


def _exchanged(e: Event, g: Context, P: Namer) -> str:
    reward = {"prosperity": "a Prosperity token", "priestess": "a Priestess card",
              "philosopher": "a Philosopher card"}.get(e.get("reward"), card_name(e.get("reward")))
    return f"{P(e.get('player'))} turns 2 mercenary Troops into {reward}"


def _fleets_exchanged(e: Event, g: Context, P: Namer) -> str:
    n = e.get("count", 1)
    return (f"{P(e.get('player'))} exchanges {unit_name('fleet', n)} {at_area(g, e.get('area'))} "
            f"for {'a mercenary Troop' if n == 1 else f'{n} mercenary Troops'}")


def _fleets_swapped(e: Event, g: Context, P: Namer) -> str:
    areas = [*list(e.get("areas") or ()), None, None]
    return (f"{P(e.get('player'))} swaps the Fleets of {area_name(g, areas[0])} "
            f"and {area_name(g, areas[1])}")


def _hero_swapped(e: Event, g: Context, P: Namer) -> str:
    out = (f"{P(e.get('player'))} swaps their Hero {card_name(e.get('old'))} for "
           f"{card_name(e.get('hero'))} from the Hero track")
    a = e.get("area")
    return out + (f", who stands {at_area(g, a)}" if a is not None else "")


def _pegasus(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))} flies with Pegasus from {area_name(g, e.get('origin'))} "
            f"to {area_name(g, e.get('destination'))}")


def _prosperity_moved(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))} moves a Prosperity token from {area_name(g, e.get('origin'))} "
            f"to {area_name(g, e.get('destination'))}")


def _sphinx_draw(e: Event, g: Context, P: Namer) -> str:
    n = e.get("count", 3)
    return f"{P(e.get('player'))} draws {n} Creature card{'s' if n != 1 else ''} with the Sphinx"


def _battle_kind(g: Context, a: Any) -> str:
    i = area_index(g, a)
    return "Land Battle" if i is not None and g.board.is_land[i] else "Sea Battle"


def _battle(e: Event, g: Context, P: Namer) -> str:
    a = e.get("area")
    return (f"{P(e.get('attacker'))} attacks {P(e.get('defender'))}: "
            f"a {_battle_kind(g, a)} {at_area(g, a)}")


def _round(e: Event, g: Context, P: Namer, sides: tuple[Any, Any] | None = None) -> str:
    a = e.get("area")
    att, dfd = sides or _battle_sides(g, a)
    dice = list(e.get("dice") or (0, 0))
    st = list(e.get("strength") or (0, 0))
    an = P(att) if att is not None else "the attacker"
    dn = P(dfd) if dfd is not None else "the defender"
    outcome = "a tie: both lose the round" if st[0] == st[1] else f"{dn if st[0] > st[1] else an} loses the round"
    return (f"{_battle_kind(g, a)} {at_area(g, a)}, round {e.get('round', '?')}: "
            f"{an} rolls {dice[0]} (strength {st[0]}), {dn} rolls {dice[1]} (strength {st[1]}); "
            f"{outcome}")


def _battle_sides(g: Context, a: Any) -> tuple[Any, Any]:
    """The attacker and defender of the battle in area a, if it is still being fought."""
    i = area_index(g, a)
    for f in reversed(getattr(g.state, "stack", ()) or ()):
        if f.get("kind") == "battle" and i is not None and f.get("area") == i:
            return f.get("attacker"), f.get("defender")
    return None, None


def _casualty(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} loses {unit_name(e.get('unit'))} {at_area(g, e.get('area'))}"


def _retreat(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))} retreats from {area_name(g, e.get('origin'))} "
            f"to {area_name(g, e.get('destination'))}")


def _battle_won(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} wins the battle and takes control of {area_name(g, e.get('area'))}"


def _battle_held(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} repels the attack on {area_name(g, e.get('area'))}"


def _token_returned(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))}'s Control token on {area_name(g, e.get('area'))} "
            f"is returned to them")


def _moved(e: Event, g: Context, P: Namer) -> str:
    parts = []
    for kind in ("troops", "mercs", "fleets"):
        n = e.get(kind) or 0
        if n:
            parts.append(unit_name(kind[:-1], n))
    parts.extend(card_name(h) for h in e.get("heroes") or ())
    what = listing(parts) or "nothing"
    return (f"{P(e.get('player'))} moves {what} from {area_name(g, e.get('origin'))} "
            f"to {area_name(g, e.get('destination'))}")


def _land_move(e: Event, g: Context, P: Namer) -> str:
    hero = e.get("hero")
    kind = f"a Heroic Move with {card_name(hero)}" if hero else "a Land Move"
    return (f"{P(e.get('player'))} pays {gp(e.get('cost', 1))} for {kind} "
            f"from {area_name(g, e.get('origin'))} to {area_name(g, e.get('destination'))}")


def _sea_move(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))} pays {gp(e.get('cost', 1))} for a Sea Move of "
            f"{unit_name('fleet', e.get('fleets', 1))} from {area_name(g, e.get('origin'))} "
            f"to {area_name(g, e.get('destination'))}")


def _offering(e: Event, g: Context, P: Namer) -> str:
    god = e.get("god")
    if god == "apollo":
        return f"{P(e.get('player'))} makes an Offering to Apollo"
    return f"{P(e.get('player'))} offers {gp(e.get('amount'))} to {god_name(god)}"


def _outbid(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} is outbid on {god_name(e.get('god'))} and must bid again"


def _paid(e: Event, g: Context, P: Namer) -> str:
    n = e.get("amount", 0)
    if not n:
        return f"{P(e.get('player'))} pays nothing to {god_name(e.get('god'))}, thanks to their Priestesses"
    return f"{P(e.get('player'))} pays {gp(n)} to {god_name(e.get('god'))}"


def _forgo(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} forgoes building the {building_name(e.get('building'))}"


def _built(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} builds a {building_name(e.get('building'))} {at_area(g, e.get('area'))}"


def _turn(e: Event, g: Context, P: Namer) -> str:
    god = e.get("god")
    if god == "apollo":
        return f"Apollo: {P(e.get('player'))} receives Apollo's favour"
    return f"{god_name(god)}: {P(e.get('player'))} performs the Actions of {god_name(god)}"


def _turn_end(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} ends their turn"


def _recruited(e: Event, g: Context, P: Namer) -> str:
    unit = e.get("unit")
    kind = unit_name(unit) if unit in UNITS else card_name(unit)
    return f"{P(e.get('player'))} recruits {kind} for {gp(e.get('cost', 0))}"


def _prosperity(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} places a Prosperity token {at_area(g, e.get('area'))}"


def _gp(e: Event, g: Context, P: Namer) -> str:
    n = e.get("amount", 0)
    if isinstance(n, int) and n < 0:
        return f"{P(e.get('player'))} loses {gp(-n)}"
    return f"{P(e.get('player'))} receives {gp(n)}"


def _control(e: Event, g: Context, P: Namer) -> str:
    prev = e.get("previous")
    out = f"{P(e.get('player'))} takes control of {area_name(g, e.get('area'))}"
    if isinstance(prev, int) and prev >= 0:  # null: nobody held it
        out += f" from {P(prev)}"
    return out


def _eliminated(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} controls no Land Area and is eliminated"


def _hero_lost(e: Event, g: Context, P: Namer) -> str:
    owner = e.get("player")
    whose = f"{P(owner)}'s Hero " if isinstance(owner, int) and owner >= 0 else "The Hero "
    return f"{whose}{card_name(e.get('hero'))} is discarded"


def _destroyed(e: Event, g: Context, P: Namer) -> str:
    n = e.get("count", 1)
    verb = "is" if n == 1 else "are"
    what = unit_name(e.get("unit"), n)
    return f"{what[0].upper()}{what[1:]} {verb} destroyed {at_area(g, e.get('area'))}"


def _placed(kind: str) -> Writer:
    def write(e: Event, g: Context, P: Namer) -> str:
        return (f"{P(e.get('player'))} places {unit_name(kind, e.get('count', 1))} "
                f"{at_area(g, e.get('area'))}")
    return write


# Creatures with miniatures (rulebook, "Creatures with Miniatures").

def _creature_placed(e: Event, g: Context, P: Namer) -> str:
    what = creature_name(e.get('miniature') or e.get('card'))
    return f"{P(e.get('player'))} places {what} {at_area(g, e.get('area'))}"


def _displaced(e: Event, g: Context, P: Namer) -> str:
    return _moved(e, g, P) + f", driven out by {P(e.get('by'))}'s creature"


def _displaced_destroyed(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))}'s units {at_area(g, e.get('area'))} have nowhere to go "
            f"and are destroyed")


def _geryon_gp(e: Event, g: Context, P: Namer) -> str:
    return f"Geryon: {gp(e.get('amount', 1))} placed {at_area(g, e.get('area'))}"


def _geryon_gp_taken(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} takes the {gp(e.get('amount'))} Geryon left {at_area(g, e.get('area'))}"


# Heroes (rulebook, "Hero Descriptions"; the Maelström heroes).

def _hero_sacrificed(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} sacrifices {card_name(e.get('hero'))}"


def _power_used(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))} uses the sacrificial power of {card_name(e.get('hero'))} "
            f"through {card_name(e.get('by'))}")


def _paid_for_power(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} pays {gp(e.get('amount'))} for the power"


def _priestesses_converted(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} turns {e.get('count', 2)} Priestesses into a Philosopher"


def _prosperity_discarded(e: Event, g: Context, P: Namer) -> str:
    return f"{P(e.get('player'))} discards a Prosperity token {at_area(g, e.get('area'))}"


def _metropolis_on_card(e: Event, g: Context, P: Namer) -> str:
    out = f"{P(e.get('player'))} places the Metropolis on Penthesilea's card, where it cannot be attacked"
    bonus = e.get("bonus")
    return out + (f" (bonus: {BONUS_TEXT.get(bonus, bonus)})" if bonus else "")


def _cards_discarded(e: Event, g: Context, P: Namer) -> str:
    return f"The Creature cards under {card_name(e.get('hero'))} are discarded"


def _creature_slain(e: Event, g: Context, P: Namer) -> str:
    return (f"{card_name(e.get('hero'))} slays {creature_name(e.get('card'))} "
            f"{at_area(g, e.get('area'))}")


def _hector(e: Event, g: Context, P: Namer) -> str:
    return (f"Hector: {P(e.get('player'))} destroys an invading {UNITS.get(e.get('unit'), (e.get('unit'),))[0]} "
            f"{at_area(g, e.get('area'))} before the battle")


def _mercs_turned(e: Event, g: Context, P: Namer) -> str:
    n = e.get("count", 1)
    return (f"Pandora: {unit_name('merc', n)} {at_area(g, e.get('area'))} "
            f"{'comes' if n == 1 else 'come'} under {P(e.get('player'))}'s control")


def _reroll(e: Event, g: Context, P: Namer) -> str:
    return f"Croesus: {P(e.get('player'))} pays {gp(e.get('cost', 1))} and rolls again: {e.get('die')}"


def _escaped(e: Event, g: Context, P: Namer) -> str:
    return (f"Perseus: {P(e.get('player'))}'s {UNITS.get(e.get('unit'), (e.get('unit'),))[0]} retreats "
            f"from {area_name(g, e.get('origin'))} to {area_name(g, e.get('destination'))} instead of being destroyed")


def _perseus(e: Event, g: Context, P: Namer) -> str:
    return (f"{P(e.get('player'))} moves Troops with Perseus' power from {area_name(g, e.get('origin'))} "
            f"to {area_name(g, e.get('destination'))}")


def _side_destroyed(e: Event, g: Context, P: Namer) -> str:
    return (f"Achilles: {P(e.get('player'))} cannot retreat; their Troops and Heroes "
            f"{at_area(g, e.get('area'))} are destroyed")


def _creature_swapped(e: Event, g: Context, P: Namer) -> str:
    """Zeus in the classic edition (R25)."""
    return (f"{P(e.get('player'))} pays 1 GP to discard {creature_name(e.get('card'))} from the "
            f"Creature track; {creature_name(e.get('new'))} takes its place")


WRITERS = {
    "cycle": _cycle, "gods": _gods, "reshuffle": _reshuffle, "income": _income,
    "game_over": _game_over, "philosopher": _philosopher, "priestess": _priestess,
    "metropolis_impossible": _metropolis_impossible, "demolished": _demolished,
    "metropolis": _metropolis, "metropolis_lost": _metropolis_lost, "reserved": _reserved,
    "kept": _kept, "creature_moved": _creature_moved, "creature_leaves": _creature_leaves,
    "battle": _battle, "round": _round, "casualty": _casualty, "retreat": _retreat,
    "battle_won": _battle_won, "battle_held": _battle_held, "token_returned": _token_returned,
    "moved": _moved, "land_move": _land_move, "sea_move": _sea_move, "offering": _offering,
    "outbid": _outbid, "paid": _paid, "forgo": _forgo, "built": _built, "turn": _turn,
    "turn_end": _turn_end, "recruited": _recruited, "prosperity": _prosperity, "gp": _gp,
    "control": _control, "eliminated": _eliminated, "hero_lost": _hero_lost,
    "destroyed": _destroyed, "troop": _placed("troop"), "merc": _placed("merc"),
    "fleet": _placed("fleet"), "creature_bought": _creature_bought,
    "creature_wasted": _creature_wasted, "peek": _peek, "peek_returned": _peek_returned,
    "hero_recruited": _hero_recruited, "hero_placed": _hero_placed,
    "creature_played": _creature_played, "creature_stolen": _creature_stolen,
    "card_stolen": _card_stolen, "building_stolen": _building_stolen, "mercs_stolen": _mercs_stolen,
    "gp_stolen": _gp_stolen, "graeae": _graeae, "exchanged": _exchanged,
    "fleets_exchanged": _fleets_exchanged, "fleets_swapped": _fleets_swapped,
    "hero_swapped": _hero_swapped, "pegasus": _pegasus, "prosperity_moved": _prosperity_moved,
    "sphinx_draw": _sphinx_draw, "creature_placed": _creature_placed, "displaced": _displaced,
    "displaced_destroyed": _displaced_destroyed, "geryon_gp": _geryon_gp,
    "geryon_gp_taken": _geryon_gp_taken, "hero_sacrificed": _hero_sacrificed,
    "power_used": _power_used, "paid_for_power": _paid_for_power,
    "priestesses_converted": _priestesses_converted, "prosperity_discarded": _prosperity_discarded,
    "metropolis_on_card": _metropolis_on_card, "cards_discarded": _cards_discarded,
    "creature_slain": _creature_slain, "hector": _hector, "mercs_turned": _mercs_turned,
    "reroll": _reroll, "escaped": _escaped, "perseus": _perseus, "side_destroyed": _side_destroyed,
    "creature_swapped": _creature_swapped,
}


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
        return "yes" if v else "no"
    if k in _PLAYER_KEYS and isinstance(v, int):
        return P(v)
    if k in _AREA_KEYS and isinstance(v, (int, str)) and not isinstance(v, bool):
        return area_name(g, v)
    if k in ("winners", "players") and isinstance(v, (list, tuple)):
        return listing(P(p) for p in v if isinstance(p, int)) or "none"
    if isinstance(v, (list, tuple)):
        return listing(_plain(k, x, g, P) for x in v) or "none"
    if isinstance(v, dict):
        return listing(f"{a} {_plain(a, b, g, P)}" for a, b in v.items()) or "none"
    if k in _CARD_KEYS or (isinstance(v, str) and "-" in v):
        return card_name(v)
    return str(v)


# --- the public functions -----------------------------------------------------------------

def describe(event: Event, game: Context, names: list[str] | None = None,
             sides: tuple[Any, Any] | None = None) -> str:
    """One sentence, in the rulebook's words, for one event. `names` replaces
    "Player 1".."Player N"; `sides` (attacker, defender) names a battle round's sides
    when the battle is no longer on the stack (see Narrator)."""
    def P(p: Any) -> str:
        return player_name(p, names)
    try:
        if not isinstance(event, dict):
            return f"Event: {event!s}."
        writer = WRITERS.get(event.get("type", ""))
        if writer is _round:
            text = _round(event, game, P, sides)
        elif writer is not None:
            text = writer(event, game, P)
        else:
            text = _generic(event, game, P)
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
    "hold": "{p} does not retreat",
    "cancel": "{p} changes their mind and cancels",
    "choose_building": "{p} chooses to build a {what}",
}


def decision_sentence(action: Action, player: int | None, names: list[str] | None = None) -> str:
    """A sentence for a decision that emits no event (a battle's "do not retreat"), or ""."""
    template = _SILENT_DECISIONS.get(getattr(action, "kind", ""))
    if not template:
        return ""
    return template.format(p=player_name(player, names), what=building_name(action.what)) + "."


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
                found = _battle_sides(self.game, e.get("area"))
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
