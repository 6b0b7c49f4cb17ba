"""Scenarios: any position written by hand, in YAML or JSON (docs/scenarios.md).

A scenario names the board, the players' purses and cards, the units and
buildings on each area, the tracks, what the engine waits on, and optionally
the next die results. The rules tests are written with it.
"""
import json
from pathlib import Path

from ..content.rulesets import RULESETS
from . import cycle
from .board import Board
from .frames import push
from .maintenance import start_maintenance
from .offerings import start_offerings
from .queries import miniatures_of
from .setup import new_state, start_placement

_TOP_KEYS = {"players", "ruleset", "maelstrom", "seed", "board", "cycle", "gods", "faceup",
             "turn_order", "player", "areas", "creature_track", "hero_track", "creature_deck",
             "creature_discard", "hero_deck", "hero_discard", "bonus_stack", "bids", "apollo",
             "decision", "dice", "max_cycles", "creatures", "reserved", "description", "teams",
             "team_goal"}
_PLAYER_KEYS = {"gp", "priestesses", "philosophers", "heroes"}
_AREA_KEYS = {"owner", "troops", "mercs", "fleets", "heroes", "buildings", "prosperity", "bonuses",
              "geryon_gp"}


class ScenarioError(ValueError):
    pass


def load_scenario(data_or_path):
    from .game import Game, share_purses, team_layout
    data = _read(data_or_path)
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ScenarioError(f"unknown scenario keys: {sorted(unknown)}")
    players = data.get("players", 3)
    ruleset = data.get("ruleset", "legendary")
    if ruleset not in RULESETS:
        raise ScenarioError(f"unknown ruleset {ruleset!r}; known: {sorted(RULESETS)}")
    r = RULESETS[ruleset]
    board = data.get("board", r.board or "recommended")  # classic: its own board (R8)
    from .rng import Rng
    rng = Rng(data.get("seed", 0))
    if isinstance(board, str):
        b = Board.for_players(players, rng, kind=board)
    elif "map" in board:
        b = Board.from_map(board["map"])
    else:
        b = Board.from_spec(board)
    maelstrom = data.get("maelstrom", True)
    options = {"players": players, "ruleset": ruleset,
               "seed": data.get("seed", 0), "maelstrom": maelstrom,
               "max_cycles": data.get("max_cycles"), "board": b.spec, "board_spec": b.spec,
               "scenario": data}
    teams = team_layout(players, data.get("teams", False), r)
    if teams:
        options.update(teams=list(teams), team_goal=data.get("team_goal", 3))
    g = Game._blank(b, options)
    s = new_state(g, len(teams) if teams else players, rng.s, maelstrom)
    if teams:
        share_purses(g)
    s.cycle = data.get("cycle", 1)
    if "gods" in data:
        gods = list(data["gods"])
        if sorted(gods) != sorted(r.gods):
            raise ScenarioError(f"gods must list each of {r.gods} once")
        s.gods = gods
    s.faceup = data.get("faceup", s.faceup)
    if "turn_order" in data:
        s.turn_order = list(data["turn_order"])
    for key in ("creature_track", "hero_track"):
        if key in data:
            setattr(s, key, list(data[key]))
    for key in ("creature_deck", "hero_deck", "bonus_stack"):
        if key in data:  # written top first; stored top last
            setattr(s, key, list(reversed(data[key])))
    for key in ("creature_discard", "hero_discard"):
        if key in data:
            setattr(s, key, list(data[key]))
    for god, (p, amount) in (data.get("bids") or {}).items():
        s.bids[god] = (p, amount)
    s.apollo = list(data.get("apollo", []))
    s.reserved = dict(data.get("reserved", {}))
    s.dice = list(data.get("dice", []))
    for p, pd in enumerate(data.get("player", [])):
        unknown = set(pd) - _PLAYER_KEYS
        if unknown:
            raise ScenarioError(f"unknown keys for player {p}: {sorted(unknown)}")
        s.gp[p] = pd.get("gp", s.gp[p])
        s.priestesses[p] = pd.get("priestesses", 0)
        s.philosophers[p] = pd.get("philosophers", 0)
        for h in pd.get("heroes", []):  # a hero card without its miniature on the board
            _take_hero_card(s, h, p)
    for area_id, ad in (data.get("areas") or {}).items():
        _place_area(g, area_id, ad)
    for card, cd in (data.get("creatures") or {}).items():
        _place_creature(g, card, cd)
    _start(g, data.get("decision", {"offerings": {}}))
    g._settle()
    g.ev = []
    return g


def _read(data_or_path):
    if isinstance(data_or_path, dict):
        return data_or_path
    path = Path(data_or_path)
    text = path.read_text()
    if path.suffix in (".yaml", ".yml"):
        import yaml
        return yaml.safe_load(text)
    return json.loads(text)


def _place_area(g, area_id, ad):
    b, s = g.b, g.s
    if area_id not in b.index:
        raise ScenarioError(f"no area {area_id!r} on this board")
    unknown = set(ad) - _AREA_KEYS
    if unknown:
        raise ScenarioError(f"unknown keys for area {area_id}: {sorted(unknown)}")
    a = b.index[area_id]
    p = ad.get("owner", -1)
    s.ctrl[a] = p
    if b.is_land[a]:
        s.troops[a] = ad.get("troops", 0)
        s.mercs[a] = ad.get("mercs", 0)
        if p >= 0:
            s.troops_left[p] -= s.troops[a]
        s.mercs_left -= s.mercs[a]
        for h in ad.get("heroes", []):
            s.hero_at[h] = a
            _take_hero_card(s, h, p)
        buildings = list(ad.get("buildings", []))
        if len(buildings) > b.sites[a]:
            raise ScenarioError(f"{area_id} has only {b.sites[a]} construction sites")
        bonuses = list(ad.get("bonuses", []))
        for i, kind in zip(_fill_order(b, a, buildings), buildings):
            s.sites[i] = kind
            if kind == "metropolis" and bonuses:
                s.metro_bonus[i] = bonuses.pop(0)
    else:
        s.fleets[a] = ad.get("fleets", 0)
        if p >= 0:
            s.fleets_left[p] -= s.fleets[a]
        if p >= 0 and not s.fleets[a]:
            raise ScenarioError(f"sea area {area_id} has an owner but no fleet (R16)")
    s.prosperity[a] = ad.get("prosperity", 0)
    s.geryon_gp[a] = ad.get("geryon_gp", 0)


def _fill_order(b, a, buildings) -> list:
    """The sites that `buildings` fill, in order. On the classic board (R8) a Metropolis goes
    to the isle's metropolis space first, the other buildings to its building spaces."""
    if b.metro_site[a] < 0 or "metropolis" not in buildings:
        return list(b.sites_of(a))
    spaces = iter(b.building_sites(a))
    first = buildings.index("metropolis")
    return [b.metro_site[a] if k == first else next(spaces) for k in range(len(buildings))]


def _take_hero_card(s, h, p):
    """A hero in play belongs to p: its card leaves the deck and the track."""
    s.hero_owner[h] = p
    s.hero_since[h] = 0  # recruited before this cycle: its sacrifice is allowed
    if h in s.hero_deck:
        s.hero_deck.remove(h)
    if h in s.hero_track:
        s.hero_track[s.hero_track.index(h)] = None


def _place_creature(g, card, cd):
    """A creature card held by a player, its miniature on an area if it has one."""
    from ..content.cards import CREATURES
    s, b = g.s, g.b
    if card not in CREATURES:
        raise ScenarioError(f"unknown creature {card!r}")
    if set(cd) - {"owner", "area"}:
        raise ScenarioError(f"creature {card}: keys are owner and area")
    s.creature_owner[card] = cd["owner"]
    if "area" in cd:
        # Scylla and Charybdis: one card, two miniatures, given as a list of two areas.
        areas = cd["area"] if isinstance(cd["area"], list) else [cd["area"]]
        minis = miniatures_of(card)
        if len(areas) != len(minis):
            raise ScenarioError(f"creature {card}: give {len(minis)} area(s) for {', '.join(minis)}")
        for mini, area in zip(minis, areas):
            if area not in b.index:
                raise ScenarioError(f"no area {area!r} on this board")
            s.creature_at[mini] = b.index[area]
    if card in s.creature_deck:  # the card is in play: not in the deck nor on the track
        s.creature_deck.remove(card)
    if card in s.creature_track:
        s.creature_track[s.creature_track.index(card)] = None


def _start(g, decision):
    """Put the engine where the scenario says it waits."""
    s = g.s
    if len(decision) != 1:
        raise ScenarioError("decision names exactly one of: placement, offerings, maintenance, "
                            "turn, new_cycle")
    (kind, d), = decision.items()
    d = d or {}
    if kind == "placement":
        s.phase = "setup"
        start_placement(g)
    elif kind == "offerings":
        s.phase = "offerings"
        start_offerings(g)
    elif kind == "maintenance":
        s.phase = "maintenance"
        start_maintenance(g)
    elif kind == "turn":
        s.phase = "actions"
        order = d.get("action_order") or [[d["player"], d["god"]]]
        s.action_order = [list(x) for x in order]
        s.next_action = 1
        push(g, "turn", d["player"], god=d["god"], stage=d.get("stage", "start"),
             bought=d.get("bought", 0), moves=d.get("moves", 0), once=())
    elif kind == "new_cycle":
        s.cycle -= 1
        cycle.begin_cycle(g)
    else:
        raise ScenarioError(f"unknown decision {kind!r}")
