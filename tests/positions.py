"""Building and driving positions in rule tests: a game from a scenario on the small test map
(scenarios/small_map.yaml; docs/scenarios.md), an action by its parts, and short questions
about the position (who controls an area, what is legal)."""
from pathlib import Path

import yaml

import cyclades

SMALL_MAP = yaml.safe_load((Path(__file__).parent / "scenarios" / "small_map.yaml").read_text())


def scenario(**data) -> cyclades.Game:
    """A game from a scenario dict; the board defaults to the small test map."""
    data.setdefault("board", SMALL_MAP)
    return cyclades.Game.from_scenario(data)


def act(game, kind, what="", where="", n=0):
    """Apply the action (kind, what, where, n); it must be legal."""
    return game.apply(cyclades.Action(kind, what, where, n))


def kinds(game):
    return {a.kind for a in game.legal_actions()}


def idx(g, area):
    """The index of an area by its id."""
    return g.board.index[area]


def ctrl(g, area):
    """Who controls an area (-1: no one)."""
    return g.state.ctrl[idx(g, area)]


def legal(g, kind):
    """The legal actions of one kind."""
    return [a for a in g.legal_actions() if a.kind == kind]


def where(g, kind):
    """The areas named by the legal actions of one kind."""
    return {a.where for a in g.legal_actions() if a.kind == kind}


def wheres(g, kind):
    return sorted(a.where for a in legal(g, kind))


def sites(g, area):
    """What stands on an area's construction sites, in order ("" for an empty site)."""
    return [g.state.sites[i] for i in g.board.sites_of(idx(g, area))]


def take_and_go(g, to, t=0, m=0, heroes=()):
    """Answer a move's unit stages (t troops, m mercenaries, these heroes) as the engine asks
    them (engine/unit_choice.py), then choose the destination; returns the events."""
    ev = []
    st = g.state.stack[-1]
    if st["stage"] == "troops":
        ev += act(g, "take", "troop", n=t or 0)
    if st["stage"] == "mercs":
        ev += act(g, "take", "merc", n=m or 0)
    if st["stage"] == "heroes":
        for h in heroes:
            ev += act(g, "take_hero", h)
        if st["stage"] == "heroes":
            ev += act(g, "done")
    return ev + act(g, "destination", where=to)


def buy(g, card):
    """Buy a creature of the track at the price the engine offers."""
    a = next(a for a in g.legal_actions() if a.kind == "buy_creature" and a.what == card)
    return g.apply(a)


def wasted(events, card):
    """The card was discarded without effect."""
    return any(e["type"] == "creature_wasted" and e["card"] == card for e in events)


def back_to_turn(g):
    """The effect is over: the god's turn menu is offered again."""
    return g.state.stack[-1]["kind"] == "turn" and "end_turn" in kinds(g)
