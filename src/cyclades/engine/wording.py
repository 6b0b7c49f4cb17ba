"""Decisions in words for people: what an action does and what the game waits for, with the
areas named as the board prints them ("the Gulf of Panope", "Iraklia"), never by their ids.

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

from .log import area_index, area_name, at_area, building_name, card_name, creature_name, god_name, player_name
from .play import legal_actions, to_move

if TYPE_CHECKING:
    from .actions import Action
    from .context import Context

# A unit kind as an action names it: (one, many).
_UNITS = {"troop": ("Troop", "Troops"), "merc": ("mercenary Troop", "mercenary Troops"),
          "fleet": ("Fleet", "Fleets"), "priestess": ("Priestess", "Priestesses"),
          "philosopher": ("Philosopher", "Philosophers"), "prosperity": ("Prosperity token", "Prosperity tokens")}


def _a(kind: str) -> str:
    """ "a Troop", "a mercenary Troop", "a Fortress", "a University"."""
    if kind in _UNITS:
        return "a " + _UNITS[kind][0]
    name = building_name(kind)
    return ("an " if name[:1].lower() in "aeio" else "a ") + name  # "a University"


def _count(kind: str, n: int) -> str:
    one, many = _UNITS.get(kind, (card_name(kind), card_name(kind)))
    if n == 0:
        return f"no {many}"
    return f"{n} {one if n == 1 else many}"


def _on(game: Context, where: str) -> str:
    """ "on Naxos", "in the Gulf of Panope"; a classic Creature track slot ("slot-3") as such."""
    if area_index(game, where) is None:
        return f"({where.replace('-', ' ')})" if where else ""
    return at_area(game, where)


def _to(game: Context, where: str) -> str:
    return area_name(game, where) if area_index(game, where) is not None else where.replace("-", " ")


def action_text(action: Action, game: Context, names: list[str] | None = None) -> str:
    """One action in the rulebook's words, its areas by their printed names."""
    k, what, where, n = action.kind, action.what, action.where, action.n
    on, to = _on(game, where), _to(game, where)
    crea = creature_name(what)
    texts = {
        "claim": f"Place a Control token {on}",
        "place_fleet": f"Place a Fleet {on}",
        "place_troop": f"Place a Troop {on}",
        "place_merc": f"Place a mercenary Troop {on}",
        "place_hero": f"Place {card_name(what)} {on}",
        "bid": f"Offer {n} GP to {god_name(what)}",
        "apollo": "Make an Offering to Apollo",
        "build": f"Build {_a(what)} {on}",
        "replace": f"Build in place of your {building_name(what)} {on}",
        "forgo": "Forgo this building",
        "choose_building": f"Choose {_a(what)}",
        "recruit": f"Recruit {_a(what)} for {n} GP",
        "recruit_hero": f"Recruit {card_name(what)} for {n} GP",
        "sea_move": f"Sea Move for {n} GP",
        "land_move": f"Land Move for {n} GP",
        "heroic_move": f"Heroic Move with {card_name(what)} for {n} GP",
        "origin": f"Move from {to}",
        "take": f"Take {_count(what, n)}",
        "take_hero": f"Take {card_name(what)} along",
        "destination": f"Move to {to}",
        "lose": f"Lose {_a(what)}",
        "lose_hero": f"Lose {card_name(what)}",
        "retreat": f"Retreat to {to}",
        "hold": "Do not retreat",
        "prosperity": f"Place a Prosperity token {on}",
        "metropolis": f"Build the Metropolis {on}",
        "remove": f"Give up the {building_name(what)} {on}",
        "reserve": f"Reserve {crea}",
        "peek": "Look at the top Creature card",
        "play_peeked": f"Play the peeked card, {crea}, for {n} GP",
        "return_peeked": "Put the Creature card back",
        "buy_creature": f"Buy {crea} for {n} GP",
        "keep": f"Keep {crea} by discarding a Priestess",
        "release": f"Release {crea}",
        "move_creature": f"Move {crea} to {to}",
        "stay": f"Leave {crea} where it is",
        "place_creature": f"Place {crea} {on}",
        "displace": f"Move the displaced {_UNITS.get(what, (card_name(what),))[0]} to {to}",
        "end_turn": "End your turn",
        "target_player": f"Target {player_name(n, names)}",
        "target_area": f"Choose {to}",
        "destroy": f"Destroy {_a(what)} {on}",
        "steal": f"Steal the {building_name(what)} {on}",
        "swap_hero": f"Give up {card_name(what)} for a Hero of the track",
        "choose_hero": f"Take {card_name(what)} from the Hero track",
        "choose_card": f"Play {crea} for free",
        "exchange": f"Exchange 2 mercenary Troops for {_a(what)}",
        "return_merc": f"Return a mercenary Troop from {to}",
        "done": "Done choosing",
        "cancel": "Cancel (go back)",
        "sacrifice": f"Sacrifice {card_name(what)}",
        "use_power": f"Use the Sacrificial Power of {card_name(what)}",
        "discard_prosperity": f"Discard a Prosperity token {on}",
        "convert": f"Turn 2 Priestesses into a Philosopher, {n} time{'s' if n != 1 else ''}",
        "metropolis_on_card": f"Place the Metropolis on {card_name(what)}'s card",
        "reroll": f"Pay {n} GP to re-roll the die ({card_name(what)})",
        "keep_roll": "Keep the die",
        "escape": f"Let {_a(what)} retreat to {to} instead of being destroyed",
        "fleet_move": f"Move Fleets up to 3 sea spaces for {n} GP",
        "drop": f"Leave {_count('fleet', n)} of the moving Fleets here",
        "swap_creature": f"Replace {crea} {on} with the top Creature card for {n} GP",
    }
    text = texts.get(k)
    if text is None:  # a kind added to the engine since: its own words, with names for ids
        text = str(action)
        if where and area_index(game, where) is not None:
            text = text.replace(where, area_name(game, where))
    return text.strip()


# --- what the game waits for -------------------------------------------------------------------

_PLACE_STEPS = {"land": "choose a free land area for a Control token",
                "fleet": "choose the sea next to it for a Fleet",
                "troop": "place Troops on their land areas"}


def waiting_text(game: Context, names: list[str] | None = None, you: int | None = None) -> str:
    """What the game waits for, in the rulebook's words: "Player 2 is placing their starting
    units (first round): choose a free land area for a Control token". `you`: the faction
    addressed as "you" (the sentence then reads "You are placing your ...")."""
    s = game.state
    if s.over:
        return "The game is over"
    if not s.stack:
        return "Nobody is to decide"
    f = s.stack[-1]
    k, p = f.get("kind"), to_move(game)
    who = "You" if you is not None and p == you else player_name(p, names)
    w = _Who(who, "are" if who == "You" else "is", "your" if who == "You" else "their")
    write = _WAITING.get(str(k))
    if write is not None:
        return write(game, f, w)
    template = _WAITING_TEMPLATES.get(str(k))
    if template is not None:
        return template.format(who=w.who, are=w.are, their=w.their)
    return f"{w.who} {w.are} deciding ({str(k).replace('_', ' ')})"


class _Who(NamedTuple):
    who: str    # "Player 2", "Ann", "You"
    are: str    # "is", "are"
    their: str  # "their", "your"


def _waiting_place(game: Context, f: dict[str, Any], w: _Who) -> str:
    step = f.get("step")
    text = (f"{w.who} {w.are} placing {w.their} starting units "
            f"({'first' if f.get('round') == 1 else 'second'} round): ")
    if step == "troop":
        left = f.get("troops_to_place", 0)
        return text + f"place {left} more Troop{'s' if left != 1 else ''} on {w.their} land areas"
    if step == "fleet" and f.get("claimed"):
        return text + f"choose a sea next to {area_name(game, f['claimed'][-1])} for a Fleet"
    return text + _PLACE_STEPS.get(str(step), "choose an area")


def _waiting_turn(game: Context, f: dict[str, Any], w: _Who) -> str:
    god = f.get("god")
    if god == "apollo":
        return f"{w.who} {w.are} taking Apollo's favour"
    return f"{w.who} {w.are} taking {w.their} turn with {god_name(god)}"


def _waiting_build(game: Context, f: dict[str, Any], w: _Who) -> str:
    if not f.get("building"):
        return f"{w.who} {w.are} building: choose what"
    return f"{w.who} {w.are} building {_a(str(f.get('building')))}: choose where"


def _waiting_place_unit(game: Context, f: dict[str, Any], w: _Who) -> str:
    left, unit = f.get("left", 1), f.get("unit", "troop")
    return f"{w.who} {w.are} placing {_count(unit, left)} just recruited: choose where"


def _waiting_move(game: Context, f: dict[str, Any], w: _Who) -> str:
    k = f["kind"]
    kind = {"lmove": "a Heroic Move" if f.get("hero") else "a Land Move", "smove": "a Sea Move",
            "voyage": "a Fleet move"}[k]
    stage = f.get("stage")
    if stage == "origin":
        step = "choose where the units leave from"
    elif "destination" in {a.kind for a in legal_actions(game)} or stage in ("dest", "route"):
        step = "choose where they go"
    else:
        step = "choose how many Fleets go" if k != "lmove" else "choose the units that go"
    return f"{w.who} {w.are} making {kind}: {step}"


def _waiting_battle(game: Context, f: dict[str, Any], w: _Who) -> str:
    battle = f"the {'Sea' if f.get('sea') else 'Land'} Battle {at_area(game, f.get('area'))}"
    stage = str(f.get("stage", ""))
    if stage == "loss":
        return f"{w.who} lost the round of {battle}: choose a unit to lose"
    if stage.startswith(("retreat", "flee")):
        return f"{w.who} may retreat from {battle}"
    return f"{w.who} {w.are} fighting {battle}"


def _waiting_chance(game: Context, f: dict[str, Any], w: _Who) -> str:
    if f.get("draw") == "dice":
        return "Chance decides: a battle die is rolled"
    return "Chance decides: a card is drawn"


_WAITING: dict[str, Callable[[Context, dict[str, Any], _Who], str]] = {
    "place": _waiting_place, "turn": _waiting_turn, "build": _waiting_build,
    "place_unit": _waiting_place_unit, "lmove": _waiting_move, "smove": _waiting_move,
    "voyage": _waiting_move, "battle": _waiting_battle, "chance": _waiting_chance,
    "place_hero": lambda game, f, w: f"{w.who} {w.are} placing {card_name(f.get('hero'))}",
    "creature": lambda game, f, w: f"{w.who} {w.are} using {creature_name(str(f.get('card')))}",
    "sacrifice": lambda game, f, w: f"{w.who} {w.are} sacrificing {card_name(f.get('hero'))}",
}
_WAITING_TEMPLATES = {
    "offer": "{who} {are} making an Offering: choose a God and the GP to offer, or Apollo",
    "metro": "{who} {are} building a Metropolis: choose where",
    "prosper": "{who} {are} placing a Prosperity token",
    "maintain": "{who} {are} paying the Maintenance Costs of {their} Creatures",
    "reserve": "{who} may reserve a Creature of the track (a Metropolis bonus)",
    "peek": "{who} looked at the top Creature card: play it or put it back",
    "bonus_fleet": "{who} {are} placing {their} bonus Fleets",
    "reroll": "{who} may pay to re-roll the die (Croesus)",
    "hector": "{who} may destroy an invading unit (Hector)",
}


def illegal_text(game: Context, action: Action, names: list[str] | None = None) -> str:
    """Why `action` cannot be played now, for people (the reason of the engine's IllegalAction):
    "'Offer 3 GP to Zeus' is not legal now: Player 1 is placing their starting units ..."."""
    if game.state.over:
        return f"'{action_text(action, game, names)}' is not legal: the game is over"
    legal = legal_actions(game)
    said = action_text(action, game, names) if hasattr(action, "kind") else repr(action)
    text = f"'{said}' is not legal now: {waiting_text(game, names)}"
    if legal:
        shown = [action_text(a, game, names) for a in legal[:3]]
        more = f" and {len(legal) - 3} more" if len(legal) > 3 else ""
        text += f" (for example: {'; '.join(shown)}{more})"
    return text
