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

from typing import TYPE_CHECKING

from ..content import names as content_names
from ..content.i18n import _, ngettext
from .actions import KINDS
from .frames import HANDLERS, Addressed, Handler
from .naming import area_index, area_name, at_area, building_name, card_name, creature_name, god_name, player_name
from .phrases import a_thing, count_of
from .play import legal_actions, to_move

if TYPE_CHECKING:
    from .actions import Action
    from .context import Context

# The units an action counts ("Take 3 Troops"), a Prosperity token among them.
_COUNTED = ("troop", "merc", "fleet", "priestess", "philosopher", "prosperity")


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
        parts["a"] = a_thing(what)
    if "{count}" in template:
        parts["count"] = count_of("fleet" if k == "drop" else what, n)
    if "{unit}" in template:
        parts["unit"] = content_names.unit_words(what)[0] if what in content_names.UNITS else card_name(what)
    return _(template).format(**parts).strip()


# --- what the game waits for -------------------------------------------------------------------
# Each frame kind says it beside its handler (`Handler.waits` or `Handler.waiting`): twice, to the
# player it waits on ("You are ...") and about them.

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
    p = to_move(game)
    who = Addressed(you is not None and p == you, player_name(p, names))
    # a kind no handler knows is said by the base Handler's generic sentence
    return HANDLERS.get(str(f.get("kind")), Handler).waiting(game, f, who)


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
