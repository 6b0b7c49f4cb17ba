"""What one player may know (R24): everything public, their own purse, nothing more.

Hidden from others: a player's GP, the order of the creature, hero and
metropolis-bonus piles, what Zeus' peek showed, and the generator (which would
foretell dice and shuffles). The view is a fresh JSON-able dict.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .frames import AREA_COUNTS, AREA_ROLES, AREAS, QUEUE, roles
from .play import legal_actions, to_move
from .queries import card_of, creatures_on_board, metropolis_counts
from .scoring import result
from .teams import purse, sees_purse

if TYPE_CHECKING:
    from .context import Context


def view(g: Context, player: int | None = None) -> dict[str, Any]:
    s = g.state
    ids = g.board.ids
    on_board = creatures_on_board(g)  # miniature -> area (Scylla and Charybdis: two of one card)
    v = {
        "viewer": player,
        "version": s.version,
        "ruleset": g.options["ruleset"],
        "cycle": s.cycle,
        "phase": s.phase,
        "to_move": to_move(g),
        "over": s.over,
        "turn_order": list(s.turn_order),
        # Who plays with whom (R22): each faction's team, or None; the metropolises that end the
        # game (R21: the team goal in team play).
        "teams": list(g.teams) if g.teams else None,
        "goal": g.goal,
        "gods": _gods(g),
        "apollo": list(s.apollo),
        "action_order": [[p, god] for p, god in s.action_order] if s.phase == "actions" else [],
        "creature_track": [{"card": c, "cost": cost, "reserved_by": s.reserved.get(c)}
                           for c, cost in zip(s.creature_track, g.rules.creature_costs)],
        "creature_deck": len(s.creature_deck),
        "creature_discard": list(s.creature_discard),
        "hero_track": list(s.hero_track),
        "hero_deck": len(s.hero_deck),
        "hero_discard": list(s.hero_discard),
        "bonus_stack": len(s.bonus_stack),
        "mercenaries_in_reserve": s.mercs_left,
        "miniatures": {m: {"card": card_of(m), "owner": s.creature_owner[card_of(m)], "area": ids[a]}
                       for m, a in sorted(on_board.items())},
        "players": _players(g, player),
        "areas": _areas(g, on_board),
        "decision": _decision(g, player),
    }
    if s.over:
        v["result"] = result(g)
    if player is not None and player == to_move(g):
        v["legal_actions"] = [a.to_json() for a in legal_actions(g)]
    return v


def _areas(g: Context, on_board: dict[str, int]) -> list[dict[str, Any]]:
    """Each area as the board shows it: owner, units, heroes, buildings, markers, creatures."""
    s, b = g.state, g.board
    heroes_by_area: dict[int, list[str]] = {}
    creatures_by_area: dict[int, list[str]] = {}
    for h, a in s.hero_at.items():
        heroes_by_area.setdefault(a, []).append(h)
    for m, a in on_board.items():
        creatures_by_area.setdefault(a, []).append(m)
    areas = []
    for a in range(len(b.ids)):
        d = {"id": b.ids[a], "owner": s.ctrl[a]}
        if b.is_land[a]:
            d["troops"], d["mercs"] = s.troops[a], s.mercs[a]
            d["heroes"] = sorted(heroes_by_area.get(a, ()))
            d["buildings"] = [s.sites[i] for i in b.sites_of(a)]
            d["metropolis_bonuses"] = [s.metro_bonus[i] for i in b.sites_of(a) if i in s.metro_bonus]
        else:
            d["fleets"] = s.fleets[a]
        d["prosperity"] = s.prosperity[a]
        d["creatures"] = sorted(creatures_by_area.get(a, ()))
        if s.geryon_gp[a]:
            d["geryon_gp"] = s.geryon_gp[a]
        areas.append(d)
    return areas


def _players(g: Context, viewer: int | None) -> list[dict[str, Any]]:
    """Each faction's public figures; its purse only for those who may see it (R24)."""
    s = g.state
    metros = metropolis_counts(g)
    return [{
        "index": p,
        "team": g.teams[p] if g.teams else None,
        "gp": purse(g, p) if viewer == p or s.over or sees_purse(g, viewer, p) else None,
        "priestesses": s.priestesses[p],
        "philosophers": s.philosophers[p],
        "troops_in_reserve": s.troops_left[p],
        "fleets_in_reserve": s.fleets_left[p],
        "heroes": sorted(h for h, o in s.hero_owner.items() if o == p),
        "creatures": sorted(c for c, o in s.creature_owner.items() if o == p),
        "metropolises": metros[p],
        "eliminated": s.eliminated[p],
    } for p in range(s.n)]


def _gods(g: Context) -> list[dict[str, Any]]:
    """The gods in the offering order, face up or not, with the offering on each."""
    s = g.state
    out = []
    for i, god in enumerate(s.gods):
        bid = s.bids.get(god)
        out.append({"god": god, "face_up": i < s.faceup,
                    "bid": {"player": bid[0], "amount": bid[1]} if bid else None})
    return out


def _decision(g: Context, player: int | None) -> dict[str, Any] | None:
    """The frame the game waits on, as its fields' roles say to show it (engine/frames.py):
    areas by their ids, bookkeeping left out, secret cards only to the player who sees them."""
    s = g.state
    if s.over or not s.stack:
        return None
    f = s.stack[-1]
    ids = g.board.ids
    kind_roles = roles(f["kind"])
    out: dict[str, Any] = {}
    for k, v in f.items():
        role = kind_roles.get(k)
        if role is None:
            out[k] = list(v) if isinstance(v, tuple) else v
        elif role is QUEUE or (role.seen_by and 0 <= f[role.seen_by] != player):
            continue
        elif role in AREA_ROLES:
            out[k] = ids[v] if v >= 0 else None
        elif role is AREAS:
            out[k] = [ids[a] for a in v]
        elif role is AREA_COUNTS:
            out[k] = [[ids[a], n] for a, n in v]
        else:
            out[k] = list(v) if isinstance(v, tuple) else v
    return out
