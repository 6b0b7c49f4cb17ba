"""A game written back as a scenario (docs/scenarios.md, "A position that loads back").

`state_dict(game)` returns the position in scenario form, every key readable by
`load_scenario`, so that `Game.from_scenario(game.state_dict())` is the same position: the
same state (generator included), views, legal actions and future under the same decisions.

What the hand-written keys cannot say is written in the exact forms: `decision: {stack: ...}`
(the engine's pending decisions as its own frames), `rng` (the generator's state),
`sites` (an area's construction sites one by one) and `bookkeeping` (the order in which the
engine met the heroes, creatures and metropolis tokens in play, the cycles of recruitment, the
decision counter).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .formats import FORMAT
from .queries import miniatures_of
from .state import _frame_to_json
from .teams import purse_holder

if TYPE_CHECKING:
    from .context import Context


def state_dict(g: Context) -> dict[str, Any]:
    s, b, o = g.state, g.board, g.options
    d = {"format": FORMAT, "players": o["players"], "ruleset": o["ruleset"],
         "maelstrom": o["maelstrom"], "seed": o["seed"], "board": b.spec}
    if g.teams:
        if o["players"] == 4:
            d["teams"] = True
        d["team_goal"] = g.goal
    if o.get("max_cycles"):
        d["max_cycles"] = o["max_cycles"]
    d.update(cycle=s.cycle, gods=list(s.gods), faceup=s.faceup, turn_order=list(s.turn_order))
    d["player"] = [_player(g, p) for p in range(s.n)]
    d["areas"] = {}
    for a, area_id in enumerate(b.ids):
        ad = _area(g, a)
        if ad:
            d["areas"][area_id] = ad
    d["creatures"] = {card: _creature(g, card, p) for card, p in s.creature_owner.items()}
    d["creature_track"] = list(s.creature_track)
    d["hero_track"] = list(s.hero_track)
    for key in ("creature_deck", "hero_deck", "bonus_stack"):
        d[key] = list(reversed(getattr(s, key)))  # top card first
    d["creature_discard"] = list(s.creature_discard)
    d["hero_discard"] = list(s.hero_discard)
    d["bids"] = {god: [p, amount] for god, (p, amount) in s.bids.items()}
    d["apollo"] = list(s.apollo)
    d["reserved"] = dict(s.reserved)
    d["dice"] = list(s.dice)
    d["recruited_this_cycle"] = [h for h, c in s.hero_since.items() if c == s.cycle]
    if s.creature_cards.get("heracles"):
        d["under_heracles"] = list(s.creature_cards["heracles"])
    if "penthesilea" in s.metro_bonus:
        owner, bonus = s.metro_bonus["penthesilea"]
        d["penthesilea"] = {"owner": owner, "bonus": bonus}
    d["turn_flags"] = dict(s.turn_flags)
    d["ends_this_cycle"] = s.end_flag
    d["rng"] = s.rng
    d["bookkeeping"] = {"hero_at": list(s.hero_at), "hero_owner": list(s.hero_owner),
                        "creature_at": list(s.creature_at),
                        "creature_owner": list(s.creature_owner),
                        "metro_bonus": list(s.metro_bonus), "hero_since": dict(s.hero_since),
                        "version": s.version}
    if s.over:
        d["decision"] = {"game_over": {"cycle_limit": s.cycle_limit_hit,
                                       "action_order": [list(x) for x in s.action_order],
                                       "next_action": s.next_action}}
    else:
        d["decision"] = {"stack": {"phase": s.phase,
                                   "action_order": [list(x) for x in s.action_order],
                                   "next_action": s.next_action,
                                   "frames": [_frame_to_json(f) for f in s.stack]}}
    return d


def _player(g: Context, p: int) -> dict[str, Any]:
    s = g.state
    out = {"priestesses": s.priestesses[p], "philosophers": s.philosophers[p],
           "heroes": [h for h, o in s.hero_owner.items() if o == p and h not in s.hero_at],
           "eliminated": s.eliminated[p]}
    if purse_holder(g, p) == p:  # R22: a team's purse is written once, with its holder
        out["gp"] = s.gp[p]
    return out


def _area(g: Context, a: int) -> dict[str, Any]:
    s, b = g.state, g.board
    out: dict[str, Any] = {}
    if s.ctrl[a] >= 0:
        out["owner"] = s.ctrl[a]
    if b.is_land[a]:
        for k in ("troops", "mercs"):
            if getattr(s, k)[a]:
                out[k] = getattr(s, k)[a]
        heroes = [h for h, at in s.hero_at.items() if at == a]
        if heroes:
            out["heroes"] = heroes
        sites = [s.sites[i] for i in b.sites_of(a)]
        if any(sites):
            out["sites"] = [k or None for k in sites]
            metros = [i for i in b.sites_of(a) if s.sites[i] == "metropolis"]
            if any(i in s.metro_bonus for i in metros):
                out["bonuses"] = [s.metro_bonus.get(i) for i in metros]
    elif s.fleets[a]:
        out["fleets"] = s.fleets[a]
    if s.prosperity[a]:
        out["prosperity"] = s.prosperity[a]
    if s.geryon_gp[a]:
        out["geryon_gp"] = s.geryon_gp[a]
    return out


def _creature(g: Context, card: str, p: int) -> dict[str, Any]:
    s, ids = g.state, g.board.ids
    out: dict[str, Any] = {"owner": p}
    minis = miniatures_of(card)
    at = [ids[s.creature_at[m]] if m in s.creature_at else None for m in minis]
    if any(x is not None for x in at):
        out["area"] = at if len(minis) > 1 else at[0]
    return out
