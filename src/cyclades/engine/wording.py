"""Decisions in words for people: what an action does and what the game waits for, with the
areas named as the board prints them ("the Gulf of Panope", "Iraklia"), never by their ids, in
the current language (content/i18n.py: each sentence is one catalog message).

    from cyclades.engine.wording import action_text, waiting_text, illegal_text
    action_text(Action("place_fleet", where="gulf-of-panope"), game)  # "Place a Fleet in the Gulf of Panope"
    waiting_text(game, names)        # "Ann is placing their starting units: choose a land area ..."
    illegal_text(game, action, names)  # why an action cannot be played now, for people

`str(action)` (engine/actions.py) stays the engine's own short form with ids, the one the
action-space encoding reads its templates from; these are what the terminal shows.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from ..content import names as content_names
from ..content.i18n import N_, _, ngettext
from .actions import KINDS
from .naming import area_index, area_name, at_area, building_name, card_name, creature_name, god_name, player_name
from .play import legal_actions, to_move

if TYPE_CHECKING:
    from .actions import Action
    from .context import Context

# The units an action counts ("Take 3 Troops"), a Prosperity token among them.
_COUNTED = ("troop", "merc", "fleet", "priestess", "philosopher", "prosperity")


def _a(kind: str) -> str:
    """ "a Troop", "a mercenary Troop", "a Fortress", "a University"."""
    if kind == "prosperity":
        return _("a Prosperity token")
    if kind in content_names.UNITS:
        return content_names.unit(kind, 1)
    if kind in content_names.BUILDINGS:
        return content_names.called(kind)
    name = building_name(kind)
    return (_("an {thing}") if name[:1].lower() in "aeio" else _("a {thing}")).format(thing=name)


def _count(kind: str, n: int) -> str:
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


def _on(game: Context, where: str) -> str:
    """ "on Naxos", "in the Gulf of Panope"; a classic Creature track slot ("slot-3") as such."""
    if area_index(game, where) is None:
        return f"({where.replace('-', ' ')})" if where else ""
    return at_area(game, where)


def _to(game: Context, where: str) -> str:
    return area_name(game, where) if area_index(game, where) is not None else where.replace("-", " ")


# Each kind's sentence is declared with the kind (engine/actions.py KINDS, `words`), its parts
# named: {on} "on Naxos", {to} "Naxos", {a} "a Fortress", {building} "Fortress", {card} a card's
# name, {creature} "the Kraken", {god}, {n}, {count} "3 Troops", {unit} "Troop", {player}.


def action_text(action: Action, game: Context, names: list[str] | None = None) -> str:
    """One action in the rulebook's words, its areas by their printed names."""
    k, what, where, n = action.kind, action.what, action.where, action.n
    if k == "convert":
        text = ngettext("Turn 2 Priestesses into a Philosopher, {n} time",
                        "Turn 2 Priestesses into a Philosopher, {n} times", n).format(n=n)
        return text.strip()
    kind = KINDS.get(k)
    template = kind.words if kind is not None else ""
    if not template:  # a kind added to the engine since: its own words, with names for ids
        text = str(action)
        if where and area_index(game, where) is not None:
            text = text.replace(where, area_name(game, where))
        return text.strip()
    parts = {"on": _on(game, where), "to": _to(game, where), "n": n, "god": god_name(what),
             "card": card_name(what), "creature": creature_name(what), "building": building_name(what),
             "player": player_name(n, names)}
    if "{a}" in template:
        parts["a"] = _a(what)
    if "{count}" in template:
        parts["count"] = _count("fleet" if k == "drop" else what, n)
    if "{unit}" in template:
        parts["unit"] = content_names.unit_words(what)[0] if what in content_names.UNITS else card_name(what)
    return _(template).format(**parts).strip()


# --- what the game waits for -------------------------------------------------------------------
# Each sentence twice: said to the player it waits on ("You are ...") and about another one.

class _Who(NamedTuple):
    you: bool   # the sentence addresses the player it waits on
    name: str   # "Player 2", "Ann"

    def say(self, to_you: str, about: str, **parts: Any) -> str:
        return (_(to_you) if self.you else _(about)).format(player=self.name, **parts)


def waiting_text(game: Context, names: list[str] | None = None, you: int | None = None) -> str:
    """What the game waits for, in the rulebook's words: "Player 2 is placing their starting
    units (first round): choose a free land area for a Control token". `you`: the faction
    addressed as "you" (the sentence then reads "You are placing your ...")."""
    s = game.state
    if s.over:
        return _("The game is over")
    if not s.stack:
        return _("Nobody is to decide")
    f = s.stack[-1]
    k, p = f.get("kind"), to_move(game)
    w = _Who(you is not None and p == you, player_name(p, names))
    write = _WAITING.get(str(k))
    if write is not None:
        return write(game, f, w)
    template = _WAITING_TEMPLATES.get(str(k))
    if template is not None:
        return w.say(*template)
    return w.say(N_("You are deciding ({what})"), N_("{player} is deciding ({what})"), what=str(k).replace("_", " "))


def _waiting_place(game: Context, f: dict[str, Any], w: _Who) -> str:
    step, first = f.get("step"), f.get("round") == 1
    if step == "troop":
        n = f.get("troops_to_place", 0)
        if first:
            return w.say(ngettext("You are placing your starting units (first round): "
                                  "place {n} more Troop on your land areas",
                                  "You are placing your starting units (first round): "
                                  "place {n} more Troops on your land areas", n),
                         ngettext("{player} is placing their starting units (first round): "
                                  "place {n} more Troop on their land areas",
                                  "{player} is placing their starting units (first round): "
                                  "place {n} more Troops on their land areas", n), n=n)
        return w.say(ngettext("You are placing your starting units (second round): "
                              "place {n} more Troop on your land areas",
                              "You are placing your starting units (second round): "
                              "place {n} more Troops on your land areas", n),
                     ngettext("{player} is placing their starting units (second round): "
                              "place {n} more Troop on their land areas",
                              "{player} is placing their starting units (second round): "
                              "place {n} more Troops on their land areas", n), n=n)
    if step == "fleet" and f.get("claimed"):
        area = area_name(game, f["claimed"][-1])
        if first:
            return w.say(N_("You are placing your starting units (first round): "
                            "choose a sea next to {area} for a Fleet"),
                         N_("{player} is placing their starting units (first round): "
                            "choose a sea next to {area} for a Fleet"), area=area)
        return w.say(N_("You are placing your starting units (second round): "
                        "choose a sea next to {area} for a Fleet"),
                     N_("{player} is placing their starting units (second round): "
                        "choose a sea next to {area} for a Fleet"), area=area)
    texts = _PLACE_STEPS.get(str(step)) or _PLACE_ANY
    return w.say(*(texts[:2] if first else texts[2:]))


# A placement step: (to you, first round; about another, first round; the same, second round)
_PLACE_STEPS = {
    "land": (N_("You are placing your starting units (first round): "
                "choose a free land area for a Control token"),
             N_("{player} is placing their starting units (first round): "
                "choose a free land area for a Control token"),
             N_("You are placing your starting units (second round): "
                "choose a free land area for a Control token"),
             N_("{player} is placing their starting units (second round): "
                "choose a free land area for a Control token")),
    "fleet": (N_("You are placing your starting units (first round): choose the sea next to it for a Fleet"),
              N_("{player} is placing their starting units (first round): "
                 "choose the sea next to it for a Fleet"),
              N_("You are placing your starting units (second round): choose the sea next to it for a Fleet"),
              N_("{player} is placing their starting units (second round): "
                 "choose the sea next to it for a Fleet")),
    "troop": (N_("You are placing your starting units (first round): place Troops on your land areas"),
              N_("{player} is placing their starting units (first round): place Troops on their land areas"),
              N_("You are placing your starting units (second round): place Troops on your land areas"),
              N_("{player} is placing their starting units (second round): place Troops on their land areas")),
}
_PLACE_ANY = (N_("You are placing your starting units (first round): choose an area"),
              N_("{player} is placing their starting units (first round): choose an area"),
              N_("You are placing your starting units (second round): choose an area"),
              N_("{player} is placing their starting units (second round): choose an area"))


def _waiting_turn(game: Context, f: dict[str, Any], w: _Who) -> str:
    god = f.get("god")
    if god == "apollo":
        return w.say(N_("You are taking Apollo's favour"), N_("{player} is taking Apollo's favour"))
    return w.say(N_("You are taking your turn with {god}"), N_("{player} is taking their turn with {god}"),
                 god=god_name(god))


def _waiting_build(game: Context, f: dict[str, Any], w: _Who) -> str:
    if not f.get("building"):
        return w.say(N_("You are building: choose what"), N_("{player} is building: choose what"))
    return w.say(N_("You are building {a}: choose where"), N_("{player} is building {a}: choose where"),
                 a=_a(str(f.get("building"))))


def _waiting_place_unit(game: Context, f: dict[str, Any], w: _Who) -> str:
    left, unit = f.get("left", 1), f.get("unit", "troop")
    return w.say(N_("You are placing {units} just recruited: choose where"),
                 N_("{player} is placing {units} just recruited: choose where"), units=_count(unit, left))


_MOVES = {  # (kind of move, step): (to you, about another)
    ("land", "origin"): (N_("You are making a Land Move: choose where the units leave from"),
                         N_("{player} is making a Land Move: choose where the units leave from")),
    ("land", "dest"): (N_("You are making a Land Move: choose where they go"),
                       N_("{player} is making a Land Move: choose where they go")),
    ("land", "units"): (N_("You are making a Land Move: choose the units that go"),
                        N_("{player} is making a Land Move: choose the units that go")),
    ("heroic", "origin"): (N_("You are making a Heroic Move: choose where the units leave from"),
                           N_("{player} is making a Heroic Move: choose where the units leave from")),
    ("heroic", "dest"): (N_("You are making a Heroic Move: choose where they go"),
                         N_("{player} is making a Heroic Move: choose where they go")),
    ("heroic", "units"): (N_("You are making a Heroic Move: choose the units that go"),
                          N_("{player} is making a Heroic Move: choose the units that go")),
    ("sea", "origin"): (N_("You are making a Sea Move: choose where the units leave from"),
                        N_("{player} is making a Sea Move: choose where the units leave from")),
    ("sea", "dest"): (N_("You are making a Sea Move: choose where they go"),
                      N_("{player} is making a Sea Move: choose where they go")),
    ("sea", "units"): (N_("You are making a Sea Move: choose how many Fleets go"),
                       N_("{player} is making a Sea Move: choose how many Fleets go")),
    ("voyage", "origin"): (N_("You are making a Fleet move: choose where the units leave from"),
                           N_("{player} is making a Fleet move: choose where the units leave from")),
    ("voyage", "dest"): (N_("You are making a Fleet move: choose where they go"),
                         N_("{player} is making a Fleet move: choose where they go")),
    ("voyage", "units"): (N_("You are making a Fleet move: choose how many Fleets go"),
                          N_("{player} is making a Fleet move: choose how many Fleets go")),
}


def _waiting_move(game: Context, f: dict[str, Any], w: _Who) -> str:
    k = f["kind"]
    kind = {"land_move": "heroic" if f.get("hero") else "land", "sea_move": "sea", "voyage": "voyage"}[k]
    stage = f.get("stage")
    if stage == "origin":
        step = "origin"
    elif "destination" in {a.kind for a in legal_actions(game)} or stage in ("dest", "route"):
        step = "dest"
    else:
        step = "units"
    return w.say(*_MOVES[kind, step])


def _waiting_battle(game: Context, f: dict[str, Any], w: _Who) -> str:
    at, stage, sea = at_area(game, f.get("area")), str(f.get("stage", "")), bool(f.get("sea"))
    if stage == "loss":
        return w.say(N_("You lost the round of the Sea Battle {at}: choose a unit to lose"),
                     N_("{player} lost the round of the Sea Battle {at}: choose a unit to lose"), at=at) if sea else \
            w.say(N_("You lost the round of the Land Battle {at}: choose a unit to lose"),
                  N_("{player} lost the round of the Land Battle {at}: choose a unit to lose"), at=at)
    if stage.startswith(("retreat", "flee")):
        if sea:
            return w.say(N_("You may retreat from the Sea Battle {at}"),
                         N_("{player} may retreat from the Sea Battle {at}"), at=at)
        return w.say(N_("You may retreat from the Land Battle {at}"),
                     N_("{player} may retreat from the Land Battle {at}"), at=at)
    return w.say(N_("You are fighting the Sea Battle {at}"), N_("{player} is fighting the Sea Battle {at}"), at=at) \
        if sea else w.say(N_("You are fighting the Land Battle {at}"), N_("{player} is fighting the Land Battle {at}"),
                          at=at)


def _waiting_chance(game: Context, f: dict[str, Any], w: _Who) -> str:
    if f.get("draw") == "dice":
        return _("Chance decides: a battle die is rolled")
    return _("Chance decides: a card is drawn")


_WAITING: dict[str, Callable[[Context, dict[str, Any], _Who], str]] = {
    "placement": _waiting_place, "turn": _waiting_turn, "build": _waiting_build,
    "place_unit": _waiting_place_unit, "land_move": _waiting_move, "sea_move": _waiting_move,
    "voyage": _waiting_move, "battle": _waiting_battle, "chance": _waiting_chance,
    "place_hero": lambda game, f, w: w.say(N_("You are placing {hero}"), N_("{player} is placing {hero}"),
                                           hero=card_name(f.get("hero"))),
    "creature": lambda game, f, w: w.say(N_("You are using {creature}"), N_("{player} is using {creature}"),
                                         creature=creature_name(str(f.get("card")))),
    "sacrifice": lambda game, f, w: w.say(N_("You are sacrificing {hero}"), N_("{player} is sacrificing {hero}"),
                                          hero=card_name(f.get("hero"))),
}
_WAITING_TEMPLATES = {
    "offer": (N_("You are making an Offering: choose a God and the GP to offer, or Apollo"),
              N_("{player} is making an Offering: choose a God and the GP to offer, or Apollo")),
    "metropolis": (N_("You are building a Metropolis: choose where"),
                   N_("{player} is building a Metropolis: choose where")),
    "prosper": (N_("You are placing a Prosperity token"), N_("{player} is placing a Prosperity token")),
    "maintain": (N_("You are paying the Maintenance Costs of your Creatures"),
                 N_("{player} is paying the Maintenance Costs of their Creatures")),
    "reserve": (N_("You may reserve a Creature of the track (a Metropolis bonus)"),
                N_("{player} may reserve a Creature of the track (a Metropolis bonus)")),
    "peek": (N_("You looked at the top Creature card: play it or put it back"),
             N_("{player} looked at the top Creature card: play it or put it back")),
    "bonus_fleet": (N_("You are placing your bonus Fleets"), N_("{player} is placing their bonus Fleets")),
    "reroll": (N_("You may pay to re-roll the die (Croesus)"), N_("{player} may pay to re-roll the die (Croesus)")),
    "hector": (N_("You may destroy an invading unit (Hector)"), N_("{player} may destroy an invading unit (Hector)")),
}


def illegal_text(game: Context, action: Action, names: list[str] | None = None) -> str:
    """Why `action` cannot be played now, for people (the reason of the engine's IllegalAction):
    "'Offer 3 GP to Zeus' is not legal now: Player 1 is placing their starting units ..."."""
    if game.state.over:
        return _("'{action}' is not legal: the game is over").format(action=action_text(action, game, names))
    legal = legal_actions(game)
    said = action_text(action, game, names) if hasattr(action, "kind") else repr(action)
    text = _("'{action}' is not legal now: {waiting}").format(action=said, waiting=waiting_text(game, names))
    if legal:
        shown = "; ".join(action_text(a, game, names) for a in legal[:3])
        if len(legal) > 3:
            text += " " + _("(for example: {actions} and {n} more)").format(actions=shown, n=len(legal) - 3)
        else:
            text += " " + _("(for example: {actions})").format(actions=shown)
    return text
