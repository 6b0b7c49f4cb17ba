"""The game log in the rulebook's words: one sentence per engine event, in the current language
(content/i18n.py: each sentence is a catalog message; the names come from content/names.py).

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

from ..content import names as content_names
from ..content.i18n import N_, _, ngettext
from ..content.i18n import listing as _listing

if TYPE_CHECKING:
    from .actions import Action
    from .context import Context

UNITS = ("troop", "merc", "fleet", "hero", "philosopher", "priestess")  # the units a sentence counts
METROPOLIS_WAYS = {"economic": N_("{player} builds a Metropolis {at} by Economic development"),
                   "cultural": N_("{player} builds a Metropolis {at} by Cultural development"),
                   "heroic": N_("{player} builds a Metropolis {at} by a Heroic Action")}


# --- names -----------------------------------------------------------------------

def player_name(p: int | None, names: list[str] | None = None) -> str:
    if p is None or not isinstance(p, int) or p < 0:
        return _("nobody")
    if names and p < len(names):
        return names[p]
    return _("Player {n}").format(n=p + 1)


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


def building_name(kind: str) -> str:
    return content_names.title(kind) if kind in content_names.BUILDINGS else card_name(kind)


def area_index(game: Context, a: Any) -> int | None:
    """The index of an area given by its id (as events name it) or its index; None if unknown."""
    b = game.board
    if isinstance(a, str):
        return b.index.get(a)
    if isinstance(a, int) and not isinstance(a, bool) and 0 <= a < len(b.names):
        return a
    return None


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


# --- the sentences ------------------------------------------------------------------
# Each writer takes (event, game, P) where P(p) names a player, and returns a sentence
# without its final full stop: one catalog message, its parts named ({player}, {at}...).

Event = Any  # an event's dict; `describe` reads any dict (an unknown type, missing fields)
Namer = Callable[[Any], str]
Writer = Callable[[Event, "Context", Namer], str]


def _cycle(e: Event, g: Context, P: Namer) -> str:
    return _("Cycle {n} begins").format(n=e.get("cycle", "?"))


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


def _philosopher(e: Event, g: Context, P: Namer) -> str:
    return _("{player} takes a Philosopher card").format(player=P(e.get("player")))


def _priestess(e: Event, g: Context, P: Namer) -> str:
    n = e.get("amount", 1)
    return ngettext("{player} takes a Priestess card", "{player} takes {n} Priestess cards", n).format(
        player=P(e.get("player")), n=n)


def _metropolis_impossible(e: Event, g: Context, P: Namer) -> str:
    return _("{player} has nowhere to build a Metropolis and builds none").format(player=P(e.get("player")))


def _demolished(e: Event, g: Context, P: Namer) -> str:
    return _("{player} removes their {building} {at} to make room").format(
        player=P(e.get("player")), building=building_name(e.get("building")), at=at_area(g, e.get("area")))


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
        return _("{metropolis}; bonus: {bonus}").format(metropolis=out, bonus=content_names.bonus_gain(bonus))
    # R20: the classic edition has no bonuses; in Legendary the stack may run out (R28).
    return _("{metropolis}; no bonus token is left").format(metropolis=out) if g.rules.metropolis_bonuses else out


def _metropolis_lost(e: Event, g: Context, P: Namer) -> str:
    return _("{player} loses the Metropolis {at} and receives its bonus: {bonus}").format(
        player=P(e.get("player")), at=at_area(g, e.get("area")), bonus=content_names.bonus_gain(e.get("bonus")))


def _reserved(e: Event, g: Context, P: Namer) -> str:
    return _("{player} reserves {creature} on the Creature track").format(
        player=P(e.get("player")), creature=creature_name(e.get("card")))


def _kept(e: Event, g: Context, P: Namer) -> str:
    return _("{player} discards a Priestess to keep {creature}").format(
        player=P(e.get("player")), creature=creature_name(e.get("card")))


def _creature_moved(e: Event, g: Context, P: Namer) -> str:
    return _("{creature} moves to {area}").format(creature=creature_name(e.get("card")),
                                                 area=area_name(g, e.get("area")))


def _creature_leaves(e: Event, g: Context, P: Namer) -> str:
    return _("{creature} leaves the board").format(creature=creature_name(e.get("card")))


def _creature_bought(e: Event, g: Context, P: Namer) -> str:
    return _("{player} buys {creature} for {gp}").format(
        player=P(e.get("player")), creature=creature_name(e.get("card")), gp=gp(e.get("cost", 0)))


def _creature_wasted(e: Event, g: Context, P: Namer) -> str:
    return _("{player} cannot use {creature}: it is discarded without effect").format(
        player=P(e.get("player")), creature=creature_name(e.get("card")))


def _peek(e: Event, g: Context, P: Namer) -> str:
    return _("{player} secretly looks at the top card of the Creature deck").format(player=P(e.get("player")))


def _peek_returned(e: Event, g: Context, P: Namer) -> str:
    return _("{player} puts the Creature card back on top of the deck").format(player=P(e.get("player")))


def _hero_recruited(e: Event, g: Context, P: Namer) -> str:
    return _("{player} recruits the Hero {hero} for {gp}").format(
        player=P(e.get("player")), hero=card_name(e.get("hero")), gp=gp(e.get("cost", 0)))


def _hero_placed(e: Event, g: Context, P: Namer) -> str:
    return _("{player} places {hero} {at}").format(
        player=P(e.get("player")), hero=card_name(e.get("hero")), at=at_area(g, e.get("area")))


# Creature effects (rulebook, "Mythological Creatures"; the Maelström cards).

def _creature_played(e: Event, g: Context, P: Namer) -> str:
    return _("{player} plays {creature} for free through {by}").format(
        player=P(e.get("player")), creature=creature_name(e.get("card")), by=creature_name(e.get("by")))


def _creature_stolen(e: Event, g: Context, P: Namer) -> str:
    return _("{player} steals {creature} from {victim}").format(
        player=P(e.get("player")), creature=creature_name(e.get("card")), victim=P(e.get("victim")))


def _card_stolen(e: Event, g: Context, P: Namer) -> str:
    card, player, victim = e.get("card"), P(e.get("player")), P(e.get("victim"))
    if card == "priestess":
        return _("{player} steals a Priestess card from {victim}").format(player=player, victim=victim)
    if card == "philosopher":
        return _("{player} steals a Philosopher card from {victim}").format(player=player, victim=victim)
    return _("{player} steals a {card} card from {victim}").format(
        player=player, card=content_names.unit_words(card)[0] if card in UNITS else card_name(card), victim=victim)


def _building_stolen(e: Event, g: Context, P: Namer) -> str:
    return _("{player} steals {victim}'s {building} {at}").format(
        player=P(e.get("player")), victim=P(e.get("victim")), building=building_name(e.get("building")),
        at=at_area(g, e.get("area")))


def _mercs_stolen(e: Event, g: Context, P: Namer) -> str:
    return _("{player} steals {mercs} from {victim} {at}").format(
        player=P(e.get("player")), mercs=unit_name("merc", e.get("count", 1)), victim=P(e.get("victim")),
        at=at_area(g, e.get("area")))


def _gp_stolen(e: Event, g: Context, P: Namer) -> str:
    return _("{player} steals half the GP of {victim}").format(player=P(e.get("player")), victim=P(e.get("victim")))


def _graeae(e: Event, g: Context, P: Namer) -> str:
    return _("{player} repeats their Income Phase and receives {gp}").format(
        player=P(e.get("player")), gp=gp(e.get("amount")))


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


def _hero_swapped(e: Event, g: Context, P: Namer) -> str:
    player, old, hero, a = P(e.get("player")), card_name(e.get("old")), card_name(e.get("hero")), e.get("area")
    if a is None:
        return _("{player} swaps their Hero {old} for {hero} from the Hero track").format(
            player=player, old=old, hero=hero)
    return _("{player} swaps their Hero {old} for {hero} from the Hero track, who stands {at}").format(
        player=player, old=old, hero=hero, at=at_area(g, a))


def _pegasus(e: Event, g: Context, P: Namer) -> str:
    return _("{player} flies with Pegasus from {origin} to {destination}").format(
        player=P(e.get("player")), origin=area_name(g, e.get("origin")), destination=area_name(g, e.get("destination")))


def _prosperity_moved(e: Event, g: Context, P: Namer) -> str:
    return _("{player} moves a Prosperity token from {origin} to {destination}").format(
        player=P(e.get("player")), origin=area_name(g, e.get("origin")), destination=area_name(g, e.get("destination")))


def _sphinx_draw(e: Event, g: Context, P: Namer) -> str:
    n = e.get("count", 3)
    return ngettext("{player} draws {n} Creature card with the Sphinx",
                    "{player} draws {n} Creature cards with the Sphinx", n).format(player=P(e.get("player")), n=n)


def _land(g: Context, a: Any) -> bool:
    i = area_index(g, a)
    return i is not None and g.board.is_land[i]


def _battle(e: Event, g: Context, P: Namer) -> str:
    a = e.get("area")
    text = _("{attacker} attacks {defender}: a Land Battle {at}") if _land(g, a) else \
        _("{attacker} attacks {defender}: a Sea Battle {at}")
    return text.format(attacker=P(e.get("attacker")), defender=P(e.get("defender")), at=at_area(g, a))


def _round(e: Event, g: Context, P: Namer, sides: tuple[Any, Any] | None = None) -> str:
    a = e.get("area")
    att, dfd = sides or _battle_sides(g, a)
    dice = list(e.get("dice") or (0, 0))
    st = list(e.get("strength") or (0, 0))
    an = P(att) if att is not None else _("the attacker")
    dn = P(dfd) if dfd is not None else _("the defender")
    outcome = _("a tie: both lose the round") if st[0] == st[1] else \
        _("{player} loses the round").format(player=dn if st[0] > st[1] else an)
    text = _("Land Battle {at}, round {round}: {attacker} rolls {die} (strength {strength}), {defender} rolls "
             "{die2} (strength {strength2}); {outcome}") if _land(g, a) else \
        _("Sea Battle {at}, round {round}: {attacker} rolls {die} (strength {strength}), {defender} rolls "
          "{die2} (strength {strength2}); {outcome}")
    return text.format(at=at_area(g, a), round=e.get("round", "?"), attacker=an, die=dice[0], strength=st[0],
                       defender=dn, die2=dice[1], strength2=st[1], outcome=outcome)


def _battle_sides(g: Context, a: Any) -> tuple[Any, Any]:
    """The attacker and defender of the battle in area a, if it is still being fought."""
    i = area_index(g, a)
    for f in reversed(getattr(g.state, "stack", ()) or ()):
        if f.get("kind") == "battle" and i is not None and f.get("area") == i:
            return f.get("attacker"), f.get("defender")
    return None, None


def _casualty(e: Event, g: Context, P: Namer) -> str:
    return _("{player} loses {unit} {at}").format(
        player=P(e.get("player")), unit=unit_name(e.get("unit")), at=at_area(g, e.get("area")))


def _retreat(e: Event, g: Context, P: Namer) -> str:
    return _("{player} retreats from {origin} to {destination}").format(
        player=P(e.get("player")), origin=area_name(g, e.get("origin")), destination=area_name(g, e.get("destination")))


def _battle_won(e: Event, g: Context, P: Namer) -> str:
    return _("{player} wins the battle and takes control of {area}").format(
        player=P(e.get("player")), area=area_name(g, e.get("area")))


def _battle_held(e: Event, g: Context, P: Namer) -> str:
    return _("{player} repels the attack on {area}").format(player=P(e.get("player")), area=area_name(g, e.get("area")))


def _token_returned(e: Event, g: Context, P: Namer) -> str:
    return _("{player}'s Control token on {area} is returned to them").format(
        player=P(e.get("player")), area=area_name(g, e.get("area")))


def _forces(e: Event) -> str:
    parts = []
    for kind in ("troops", "mercs", "fleets"):
        n = e.get(kind) or 0
        if n:
            parts.append(unit_name(kind[:-1], n))
    parts.extend(card_name(h) for h in e.get("heroes") or ())
    return listing(parts) or _("nothing")


def _moved(e: Event, g: Context, P: Namer) -> str:
    return _("{player} moves {units} from {origin} to {destination}").format(
        player=P(e.get("player")), units=_forces(e), origin=area_name(g, e.get("origin")),
        destination=area_name(g, e.get("destination")))


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


def _offering(e: Event, g: Context, P: Namer) -> str:
    god = e.get("god")
    if god == "apollo":
        return _("{player} makes an Offering to Apollo").format(player=P(e.get("player")))
    return _("{player} offers {gp} to {god}").format(player=P(e.get("player")), gp=gp(e.get("amount")),
                                                     god=god_name(god))


def _outbid(e: Event, g: Context, P: Namer) -> str:
    return _("{player} is outbid on {god} and must bid again").format(player=P(e.get("player")),
                                                                       god=god_name(e.get("god")))


def _paid(e: Event, g: Context, P: Namer) -> str:
    n = e.get("amount", 0)
    if not n:
        return _("{player} pays nothing to {god}, thanks to their Priestesses").format(
            player=P(e.get("player")), god=god_name(e.get("god")))
    return _("{player} pays {gp} to {god}").format(player=P(e.get("player")), gp=gp(n), god=god_name(e.get("god")))


def _forgo(e: Event, g: Context, P: Namer) -> str:
    return _("{player} forgoes building the {building}").format(
        player=P(e.get("player")), building=building_name(e.get("building")))


def _built(e: Event, g: Context, P: Namer) -> str:
    b = e.get("building")
    building = content_names.called(b) if b in content_names.BUILDINGS else \
        _("a {thing}").format(thing=building_name(b))
    return _("{player} builds {building} {at}").format(player=P(e.get("player")), building=building,
                                                       at=at_area(g, e.get("area")))


def _turn(e: Event, g: Context, P: Namer) -> str:
    god = e.get("god")
    if god == "apollo":
        return _("Apollo: {player} receives Apollo's favour").format(player=P(e.get("player")))
    return _("{god}: {player} performs the Actions of {god}").format(god=god_name(god), player=P(e.get("player")))


def _turn_end(e: Event, g: Context, P: Namer) -> str:
    return _("{player} ends their turn").format(player=P(e.get("player")))


def _recruited(e: Event, g: Context, P: Namer) -> str:
    unit = e.get("unit")
    kind = unit_name(unit) if unit in UNITS else card_name(unit)
    return _("{player} recruits {unit} for {gp}").format(player=P(e.get("player")), unit=kind,
                                                         gp=gp(e.get("cost", 0)))


def _prosperity(e: Event, g: Context, P: Namer) -> str:
    return _("{player} places a Prosperity token {at}").format(player=P(e.get("player")), at=at_area(g, e.get("area")))


def _gp(e: Event, g: Context, P: Namer) -> str:
    n = e.get("amount", 0)
    if isinstance(n, int) and n < 0:
        return _("{player} loses {gp}").format(player=P(e.get("player")), gp=gp(-n))
    return _("{player} receives {gp}").format(player=P(e.get("player")), gp=gp(n))


def _control(e: Event, g: Context, P: Namer) -> str:
    prev = e.get("previous")
    if isinstance(prev, int) and prev >= 0:  # null: nobody held it
        return _("{player} takes control of {area} from {previous}").format(
            player=P(e.get("player")), area=area_name(g, e.get("area")), previous=P(prev))
    return _("{player} takes control of {area}").format(player=P(e.get("player")), area=area_name(g, e.get("area")))


def _eliminated(e: Event, g: Context, P: Namer) -> str:
    return _("{player} controls no Land Area and is eliminated").format(player=P(e.get("player")))


def _hero_lost(e: Event, g: Context, P: Namer) -> str:
    owner = e.get("player")
    if isinstance(owner, int) and owner >= 0:
        return _("{player}'s Hero {hero} is discarded").format(player=P(owner), hero=card_name(e.get("hero")))
    return _("The Hero {hero} is discarded").format(hero=card_name(e.get("hero")))


def _destroyed(e: Event, g: Context, P: Namer) -> str:
    n = e.get("count", 1)
    what = unit_name(e.get("unit"), n)
    text = ngettext("{units} is destroyed {at}", "{units} are destroyed {at}", n).format(
        units=what, at=at_area(g, e.get("area")))
    return text[:1].upper() + text[1:]


def _placed(kind: str) -> Writer:
    def write(e: Event, g: Context, P: Namer) -> str:
        return _("{player} places {units} {at}").format(
            player=P(e.get("player")), units=unit_name(kind, e.get("count", 1)), at=at_area(g, e.get("area")))
    return write


# Creatures with miniatures (rulebook, "Creatures with Miniatures").

def _creature_placed(e: Event, g: Context, P: Namer) -> str:
    return _("{player} places {creature} {at}").format(
        player=P(e.get("player")), creature=creature_name(e.get("miniature") or e.get("card")),
        at=at_area(g, e.get("area")))


def _displaced(e: Event, g: Context, P: Namer) -> str:
    return _("{player} moves {units} from {origin} to {destination}, driven out by {by}'s creature").format(
        player=P(e.get("player")), units=_forces(e), origin=area_name(g, e.get("origin")),
        destination=area_name(g, e.get("destination")), by=P(e.get("by")))


def _displaced_destroyed(e: Event, g: Context, P: Namer) -> str:
    return _("{player}'s units {at} have nowhere to go and are destroyed").format(
        player=P(e.get("player")), at=at_area(g, e.get("area")))


def _geryon_gp(e: Event, g: Context, P: Namer) -> str:
    return _("Geryon: {gp} placed {at}").format(gp=gp(e.get("amount", 1)), at=at_area(g, e.get("area")))


def _geryon_gp_taken(e: Event, g: Context, P: Namer) -> str:
    return _("{player} takes the {gp} Geryon left {at}").format(
        player=P(e.get("player")), gp=gp(e.get("amount")), at=at_area(g, e.get("area")))


# Heroes (rulebook, "Hero Descriptions"; the Maelström heroes).

def _hero_sacrificed(e: Event, g: Context, P: Namer) -> str:
    return _("{player} sacrifices {hero}").format(player=P(e.get("player")), hero=card_name(e.get("hero")))


def _power_used(e: Event, g: Context, P: Namer) -> str:
    return _("{player} uses the sacrificial power of {hero} through {by}").format(
        player=P(e.get("player")), hero=card_name(e.get("hero")), by=card_name(e.get("by")))


def _paid_for_power(e: Event, g: Context, P: Namer) -> str:
    return _("{player} pays {gp} for the power").format(player=P(e.get("player")), gp=gp(e.get("amount")))


def _priestesses_converted(e: Event, g: Context, P: Namer) -> str:
    return _("{player} turns {n} Priestesses into a Philosopher").format(player=P(e.get("player")),
                                                                         n=e.get("count", 2))


def _prosperity_discarded(e: Event, g: Context, P: Namer) -> str:
    return _("{player} discards a Prosperity token {at}").format(player=P(e.get("player")),
                                                                 at=at_area(g, e.get("area")))


def _metropolis_on_card(e: Event, g: Context, P: Namer) -> str:
    bonus = e.get("bonus")
    if bonus:
        return _("{player} places the Metropolis on Penthesilea's card, where it cannot be attacked (bonus: "
                 "{bonus})").format(player=P(e.get("player")), bonus=content_names.bonus_gain(bonus))
    return _("{player} places the Metropolis on Penthesilea's card, where it cannot be attacked").format(
        player=P(e.get("player")))


def _cards_discarded(e: Event, g: Context, P: Namer) -> str:
    return _("The Creature cards under {hero} are discarded").format(hero=card_name(e.get("hero")))


def _creature_slain(e: Event, g: Context, P: Namer) -> str:
    return _("{hero} slays {creature} {at}").format(hero=card_name(e.get("hero")),
                                                    creature=creature_name(e.get("card")), at=at_area(g, e.get("area")))


def _hector(e: Event, g: Context, P: Namer) -> str:
    return _("Hector: {player} destroys an invading {unit} {at} before the battle").format(
        player=P(e.get("player")), unit=_unit_word(e.get("unit")), at=at_area(g, e.get("area")))


def _unit_word(unit: Any) -> str:
    """A unit's word without its count ("Troop", "mercenary Troop")."""
    return content_names.unit_words(unit)[0] if unit in UNITS else str(unit)


def _mercs_turned(e: Event, g: Context, P: Namer) -> str:
    n = e.get("count", 1)
    return ngettext("Pandora: {mercs} {at} comes under {player}'s control",
                    "Pandora: {mercs} {at} come under {player}'s control", n).format(
        mercs=unit_name("merc", n), at=at_area(g, e.get("area")), player=P(e.get("player")))


def _reroll(e: Event, g: Context, P: Namer) -> str:
    return _("Croesus: {player} pays {gp} and rolls again: {die}").format(
        player=P(e.get("player")), gp=gp(e.get("cost", 1)), die=e.get("die"))


def _escaped(e: Event, g: Context, P: Namer) -> str:
    return _("Perseus: {player}'s {unit} retreats from {origin} to {destination} instead of being destroyed").format(
        player=P(e.get("player")), unit=_unit_word(e.get("unit")), origin=area_name(g, e.get("origin")),
        destination=area_name(g, e.get("destination")))


def _perseus(e: Event, g: Context, P: Namer) -> str:
    return _("{player} moves Troops with Perseus' power from {origin} to {destination}").format(
        player=P(e.get("player")), origin=area_name(g, e.get("origin")), destination=area_name(g, e.get("destination")))


def _side_destroyed(e: Event, g: Context, P: Namer) -> str:
    return _("Achilles: {player} cannot retreat; their Troops and Heroes {at} are destroyed").format(
        player=P(e.get("player")), at=at_area(g, e.get("area")))


def _creature_swapped(e: Event, g: Context, P: Namer) -> str:
    """Zeus in the classic edition (R25)."""
    return _("{player} pays 1 GP to discard {creature} from the Creature track; {new} takes its place").format(
        player=P(e.get("player")), creature=creature_name(e.get("card")), new=creature_name(e.get("new")))


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
