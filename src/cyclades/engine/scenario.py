"""Scenarios: any position written by hand, in YAML or JSON (docs/scenarios.md).

A scenario names the board, the players' purses and cards, the units and
buildings on each area, the tracks, what the engine waits on, and optionally
the next die results. The rules tests are written with it.

A position that cannot exist is refused with a `ScenarioError` naming the key and the reason
(wrong types, unknown names, more components than the box holds (R28), units of the wrong kind
or with no owner (R16), a card or hero in two places, a decision the phase cannot be at...);
what the checks here do not foresee is caught by the invariants (engine/invariants.py) run on
the loaded game. `scenario_export.state_dict(game)` writes a game back in this form.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Container, Iterable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from ..content.cards import BONUS_TEXT, CREATURES, HEROES
from ..content.gods import APOLLO, BUILDINGS, GODS, METROPOLIS
from ..content.rulesets import RULESETS
from . import cycle
from .board import Board
from .chance import CHANCE
from .context import Context
from .formats import FormatError, upgrade_scenario
from .frames import AREA_ROLES, AREAS, COUNT, HANDLERS, PLAYER, QUEUE, fields, push, required_fields, roles
from .invariants import check
from .maintenance import start_maintenance
from .offerings import offerings_cost
from .play import settle
from .queries import miniatures_of
from .rng import Rng
from .setup import full_piles, new_state, placement_shortfall, start_placement
from .state import _frame_from_json
from .teams import purse_holder, share_purses, team_layout

G = TypeVar("G", bound=Context)

_TOP_KEYS = {"players", "ruleset", "maelstrom", "seed", "board", "cycle", "gods", "faceup",
             "turn_order", "player", "areas", "creature_track", "hero_track", "creature_deck",
             "creature_discard", "hero_deck", "hero_discard", "bonus_stack", "bids", "apollo",
             "decision", "dice", "max_cycles", "creatures", "reserved", "description", "teams",
             "team_goal", "rng", "recruited_this_cycle", "under_heracles", "penthesilea",
             "turn_flags", "ends_this_cycle", "bookkeeping", "format"}
_PLAYER_KEYS = {"gp", "priestesses", "philosophers", "heroes", "eliminated"}
_AREA_KEYS = {"owner", "troops", "mercs", "fleets", "heroes", "buildings", "sites", "prosperity",
              "bonuses", "geryon_gp"}
_BOOKKEEPING = {"hero_at", "hero_owner", "creature_at", "creature_owner", "metro_bonus", "hero_since",
                "version"}
_DECISIONS = ("placement", "offerings", "maintenance", "turn", "new_cycle", "stack", "game_over")
_MASK = (1 << 64) - 1


class ScenarioError(ValueError):
    pass


# --- reading values: each check names the key it reads -------------------------------------

def _fail(key: str, reason: str) -> NoReturn:
    raise ScenarioError(f"{key}: {reason}")


def _int(key: str, v: Any, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        _fail(key, f"a whole number is needed, not {v!r}")
    if lo is not None and v < lo:
        _fail(key, f"{v} is below {lo}")
    if hi is not None and v > hi:
        _fail(key, f"{v} is above {hi}")
    return v


def _bool(key: str, v: Any) -> bool:
    if not isinstance(v, bool):
        _fail(key, f"true or false is needed, not {v!r}")
    return v


def _list(key: str, v: Any) -> list[Any]:
    if not isinstance(v, list):  # YAML and JSON give lists; a tuple is accepted too
        if isinstance(v, tuple):
            return list(v)
        _fail(key, f"a list is needed, not {v!r}")
    return v


def _dict(key: str, v: Any, allowed: Iterable[str] | None = None) -> dict[Any, Any]:
    if not isinstance(v, dict):
        _fail(key, f"a mapping is needed, not {v!r}")
    if allowed is not None:
        unknown = set(v) - set(allowed)
        if unknown:
            _fail(key, f"unknown keys {sorted(map(str, unknown))}; known: {sorted(allowed)}")
    return v


def _name(key: str, v: Any, known: Container[str], what: str) -> str:
    if not isinstance(v, str) or v not in known:
        _fail(key, f"no {what} {v!r} in this game")
    return v


def _player(key: str, v: Any, n: int, allow_nobody: bool = False) -> int:
    if v is None and allow_nobody:
        return -1
    return _int(key, v, -1 if allow_nobody else 0, n - 1)


# --- loading ----------------------------------------------------------------------------------

def load_scenario(data_or_path: Any, game_class: type[G]) -> G:
    """A `game_class` (the Game, which calls this from `Game.from_scenario`) in the position."""
    try:
        data = upgrade_scenario(_read(data_or_path))
    except FormatError as e:
        raise ScenarioError(f"format: {e}") from None
    try:
        return _load(data, game_class)
    except ScenarioError:
        raise
    except Exception as e:
        raise ScenarioError(f"the engine cannot start from this position "
                            f"({type(e).__name__}: {e})") from e


def _read(data_or_path: Any) -> dict[str, Any]:
    if isinstance(data_or_path, dict):
        return data_or_path
    if not isinstance(data_or_path, (str, Path)):
        raise ScenarioError(f"a scenario is a mapping of keys or a path, not {data_or_path!r}")
    path = Path(data_or_path)
    try:
        text = path.read_text()
        if path.suffix in (".yaml", ".yml"):
            import yaml
            data = yaml.safe_load(text)
        else:
            data = json.loads(text)
    except Exception as e:
        raise ScenarioError(f"cannot read scenario {str(path)!r}: {e}") from e
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a scenario is a mapping of keys, not {type(data).__name__}")
    return data


def _load(data: dict[str, Any], game_class: type[G]) -> G:
    unknown = set(data) - _TOP_KEYS
    if unknown:
        raise ScenarioError(f"unknown scenario keys: {sorted(map(str, unknown))}")
    ruleset = data.get("ruleset", "legendary")
    if not isinstance(ruleset, str) or ruleset not in RULESETS:
        _fail("ruleset", f"unknown ruleset {ruleset!r}; known: {sorted(RULESETS)}")
    r = RULESETS[ruleset]
    players = _int("players", data.get("players", 3), min(r.players), max(r.players))
    seed = _int("seed", data.get("seed", 0))
    maelstrom = _bool("maelstrom", data.get("maelstrom", True))
    max_cycles = data.get("max_cycles")
    if max_cycles is not None:
        _int("max_cycles", max_cycles, 1)
    team_goal = _int("team_goal", data.get("team_goal", 3), 3, 4)
    try:
        teams = team_layout(players, _bool("teams", data.get("teams", False)), r)
    except ValueError as e:
        raise ScenarioError(f"teams: {e}") from e
    board = data.get("board", r.board or "recommended")  # classic: its own board (R8)
    rng = Rng(seed)
    try:
        if isinstance(board, str):
            if board not in ("recommended", "random", "classic"):
                _fail("board", f"{board!r} is none of recommended, random, classic, a map or a spec")
            b = Board.for_players(players, rng, kind=board)
        elif isinstance(board, dict) and "map" in board:
            b = Board.from_map(_list("board.map", board["map"]))
        elif isinstance(board, dict):
            b = Board.from_spec(board)
        else:
            _fail("board", f"a name, a map or a spec is needed, not {board!r}")
    except ScenarioError:
        raise
    except Exception as e:
        raise ScenarioError(f"board: {type(e).__name__}: {e}") from e
    options = {"players": players, "ruleset": ruleset, "seed": seed, "maelstrom": maelstrom,
               "max_cycles": max_cycles, "board": b.spec, "board_spec": b.spec, "scenario": data}
    if teams:
        options.update(teams=list(teams), team_goal=team_goal)
    g = game_class._blank(b, options)
    new_state(g, len(teams) if teams else players, rng.s, maelstrom)
    if teams:
        share_purses(g)
    _Loader(g, data, maelstrom).load()
    g.events = []
    return g


class _Loader:
    """Reads the keys into the fresh state `g.state`, checking each, then starts the decision."""

    def __init__(self, g: Context, data: dict[str, Any], maelstrom: bool) -> None:
        self.g, self.d, self.maelstrom = g, data, maelstrom
        self.n = g.state.n
        r = g.rules
        piles = full_piles(r, maelstrom)
        self.creature_box = Counter(piles["creature_deck"])
        self.hero_box = set(piles["hero_deck"])
        self.bonus_box = Counter(piles["bonus_stack"])
        self.hero_places: dict[str, str] = {}  # hero -> the key that placed it

    def load(self) -> None:
        g, s, d, r, n = self.g, self.g.state, self.d, self.g.rules, self.n
        s.cycle = _int("cycle", d.get("cycle", 1), 0)
        if "gods" in d:
            gods = _list("gods", d["gods"])
            if not all(isinstance(x, str) for x in gods) or sorted(gods) != sorted(r.gods):
                _fail("gods", f"list each of {list(r.gods)} once, not {gods!r}")
            s.gods = list(gods)
        s.faceup = _int("faceup", d.get("faceup", s.faceup), 1, len(s.gods))
        if "turn_order" in d:
            order = _list("turn_order", d["turn_order"])
            want = sorted(p for p in range(n) for _ in range(r.markers(n)))
            if not all(isinstance(p, int) and not isinstance(p, bool) for p in order) \
                    or sorted(order) != want:
                each = r.markers(n)
                _fail("turn_order", f"give each player 0..{n - 1} "
                      f"{'once' if each == 1 else f'{each} times (R23: {each} offering markers each)'}"
                      f", not {order!r}")
            s.turn_order = list(order)
        self._players()
        self._piles()
        self._offerings()
        s.dice = [_int(f"dice[{i}]", x, 0, 3) for i, x in enumerate(_list("dice", d.get("dice", [])))]
        for area_id, ad in _dict("areas", d.get("areas") or {}).items():
            self._area(area_id, ad)
        for card, cd in _dict("creatures", d.get("creatures") or {}).items():
            self._creature(card, cd)
        self._extras()
        decision = d.get("decision", {"offerings": {}})
        _dict("decision", decision)
        if len(decision) != 1 or next(iter(decision)) not in _DECISIONS:
            _fail("decision", f"name exactly one of {', '.join(_DECISIONS)}, "
                  f"not {sorted(map(str, decision))}")
        (kind, dd), = decision.items()
        dd = _dict(f"decision.{kind}", dd if dd is not None else {})
        frames = self._stack_frames(dd) if kind == "stack" else []
        if kind == "offerings" or (kind == "stack" and dd.get("phase") == "offerings"):
            self._unpaid_offerings()
        self._reserves(frames)
        self._cards()
        self._reserved()
        if "rng" in d:
            s.rng = _int("rng", d["rng"], 0, _MASK)
        self._bookkeeping()
        try:
            self._start(kind, dd, frames)
            settle(g)
        except ScenarioError:
            raise
        except Exception as e:
            raise ScenarioError(f"decision.{kind}: the engine cannot go on from this position "
                                f"({type(e).__name__}: {e})") from e
        shortfall = placement_shortfall(g)
        if shortfall:
            _fail(f"decision.{kind}", shortfall)
        self._invariants()
        g._legal = None  # computed by the checks: a test may still change the state by hand

    # --- players, purses, cards in hand ---------------------------------------------------

    def _players(self) -> None:
        g, s, r, n = self.g, self.g.state, self.g.rules, self.n
        entries = _list("player", self.d.get("player", []))
        if len(entries) > n:
            _fail("player", f"{len(entries)} entries for {n} players")
        purses: dict[Any, Any] = {}
        for p, entry in enumerate(entries):
            key = f"player[{p}]"
            pd = _dict(key, entry if entry is not None else {}, _PLAYER_KEYS)
            if "gp" in pd:
                gp = _int(f"{key}.gp", pd["gp"], 0)
                purses.setdefault(purse_holder(g, p), []).append((p, gp))
            s.priestesses[p] = _int(f"{key}.priestesses", pd.get("priestesses", 0), 0, r.priestesses)
            s.philosophers[p] = _int(f"{key}.philosophers", pd.get("philosophers", 0), 0,
                                     r.philosophers_for_metropolis - 1)  # 4 make a Metropolis at once
            s.eliminated[p] = _bool(f"{key}.eliminated", pd.get("eliminated", False))
            for i, h in enumerate(_list(f"{key}.heroes", pd.get("heroes", []))):
                # a hero card without its miniature on the board
                self._take_hero(f"{key}.heroes[{i}]", h, p)
        for holder, given in purses.items():
            # R22: a team shares one purse, kept by its first member: its members may each
            # write it (the same amount) or leave it to the holder.
            amounts = {gp for _, gp in given}
            if len(amounts) > 1:
                who = ", ".join(f"player[{p}].gp = {gp}" for p, gp in given)
                _fail("player", f"teammates share one purse (R22): {who} differ")
            for p in range(n):
                if purse_holder(g, p) == holder:
                    s.gp[p] = 0
            s.gp[holder] = amounts.pop()
        if sum(s.priestesses) > r.priestesses:
            _fail("player", f"{sum(s.priestesses)} priestesses; the box holds {r.priestesses} (R28)")
        if sum(s.philosophers) > r.philosophers:
            _fail("player", f"{sum(s.philosophers)} philosophers; the box holds {r.philosophers} (R28)")
        if all(s.eliminated):
            _fail("player", "every player is eliminated")

    def _take_hero(self, key: str, h: Any, p: int) -> None:
        """A hero in play belongs to p: its card leaves the deck and the track."""
        s = self.g.state
        if not self.g.rules.heroes:
            _fail(key, f"the {self.g.rules.name} game has no heroes")
        _name(key, h, self.hero_box, "hero")
        if h in self.hero_places:
            _fail(key, f"hero {h} is already placed by {self.hero_places[h]}")
        if s.eliminated[p]:
            _fail(key, f"player {p} is eliminated: their heroes left the game (R27)")
        self.hero_places[h] = key
        s.hero_owner[h] = p
        s.hero_since[h] = 0  # recruited before this cycle: its sacrifice is allowed

    # --- decks, tracks, piles ---------------------------------------------------------------

    def _piles(self) -> None:
        s, d, r = self.g.state, self.d, self.g.rules
        self.explicit = set()
        creatures = set(self.creature_box)
        bonuses = set(self.bonus_box)
        for key, size, known, what in (("creature_track", len(r.creature_costs), creatures, "creature"),
                                       ("hero_track", r.hero_track, self.hero_box, "hero")):
            if key in d:
                track = _list(key, d[key])
                if len(track) != size:
                    _fail(key, f"the track has {size} slots, not {len(track)}")
                for i, c in enumerate(track):
                    if c is not None:
                        _name(f"{key}[{i}]", c, known, what)
                setattr(s, key, list(track))
                self.explicit.add(key)
        for key, known, what in (("creature_deck", creatures, "creature"),
                                 ("hero_deck", self.hero_box, "hero"),
                                 ("bonus_stack", bonuses, "metropolis bonus"),
                                 ("creature_discard", creatures, "creature"),
                                 ("hero_discard", self.hero_box, "hero")):
            if key in d:
                pile = _list(key, d[key])
                for i, c in enumerate(pile):
                    _name(f"{key}[{i}]", c, known, what)
                # decks and the bonus stack are written top first and stored top last
                setattr(s, key, list(pile) if key.endswith("discard") else list(reversed(pile)))
                self.explicit.add(key)

    # --- offerings already made -------------------------------------------------------------

    def _offerings(self) -> None:
        s, d, r, n = self.g.state, self.d, self.g.rules, self.n
        for god, given in _dict("bids", d.get("bids") or {}).items():
            key = f"bids.{god}"
            if god not in s.gods[:s.faceup]:
                _fail("bids", f"no face-up god {god!r} to bid on (face up: {s.gods[:s.faceup]})")
            bid = _list(key, given)
            if len(bid) != 2:
                _fail(key, f"give [player, amount], not {bid!r}")
            p = _player(f"{key}[0]", bid[0], n)
            amount = _int(f"{key}[1]", bid[1], 1, r.bid_cap)  # R10
            s.bids[god] = (p, amount)
        s.apollo = [_player(f"apollo[{i}]", p, n)
                    for i, p in enumerate(_list("apollo", d.get("apollo", [])))]
        markers = r.markers(n)
        for p in range(n):
            made = sum(1 for q, _ in s.bids.values() if q == p) + s.apollo.count(p)
            if made > markers:
                _fail("bids", f"player {p} made {made} offerings with {markers} offering "
                      f"marker{'s' if markers > 1 else ''} (R23)")

    def _unpaid_offerings(self) -> None:
        """Offerings still to be paid (phase 3): by players in the game, and payable."""
        g, s, n = self.g, self.g.state, self.n
        for p in range(n):
            if s.eliminated[p] and (p in s.apollo or any(q == p for q, _ in s.bids.values())):
                _fail("bids", f"player {p} is eliminated and makes no offering (R27)")
        # R11: an offering is always payable (a team's together from the shared purse).
        for holder in {purse_holder(g, p) for p in range(n)}:
            side = [p for p in range(n) if purse_holder(g, p) == holder]
            cost = sum(offerings_cost(g, p, [a for q, a in s.bids.values() if q == p]) for p in side)
            if cost > s.gp[holder]:
                _fail("bids", f"player {holder}'s purse of {s.gp[holder]} GP cannot pay the "
                      f"offerings made ({cost} GP, R11)")

    # --- areas ------------------------------------------------------------------------------

    def _area(self, area_id: Any, ad: Any) -> None:
        b, s, n = self.g.board, self.g.state, self.n
        if area_id not in b.index:
            _fail("areas", f"no area {area_id!r} on this board")
        key = f"areas.{area_id}"
        ad = _dict(key, ad if ad is not None else {}, _AREA_KEYS)
        a = b.index[area_id]
        p = _player(f"{key}.owner", ad.get("owner"), n, allow_nobody=True)
        if p >= 0 and s.eliminated[p]:
            _fail(f"{key}.owner", f"player {p} is eliminated and controls no area (R27)")
        s.ctrl[a] = p
        counts = {k: _int(f"{key}.{k}", ad.get(k, 0), 0) for k in ("troops", "mercs", "fleets")}
        heroes = _list(f"{key}.heroes", ad.get("heroes", []))
        buildings = _list(f"{key}.buildings", ad.get("buildings", []))
        exact = "sites" in ad
        if exact:
            if buildings:
                _fail(key, "give buildings (in the order they fill the sites) or sites "
                      "(one entry per site), not both")
            buildings = _list(f"{key}.sites", ad["sites"])
            if len(buildings) != b.sites[a]:
                _fail(f"{key}.sites", f"{area_id} has {b.sites[a]} construction sites, not "
                      f"{len(buildings)}")
        bonuses = _list(f"{key}.bonuses", ad.get("bonuses", []))
        self._area_kind(key, area_id, a, p, counts, {"heroes": heroes, "buildings": buildings,
                                                     "bonuses": bonuses, "sites": ad.get("sites")})
        if p < 0 and (any(counts.values()) or heroes):
            _fail(key, f"units on {area_id} but no owner: an area with units is their player's (R16)")
        s.troops[a], s.mercs[a], s.fleets[a] = counts["troops"], counts["mercs"], counts["fleets"]
        for i, h in enumerate(heroes):
            self._take_hero(f"{key}.heroes[{i}]", h, p)
            s.hero_at[h] = a
        self._buildings(key + (".sites" if exact else ".buildings"), a, p, buildings, bonuses, exact)
        s.prosperity[a] = _int(f"{key}.prosperity", ad.get("prosperity", 0), 0)
        s.geryon_gp[a] = _int(f"{key}.geryon_gp", ad.get("geryon_gp", 0), 0)
        if s.geryon_gp[a] and "geryon" not in self.creature_box:
            _fail(f"{key}.geryon_gp", "Geryon is not in this game")

    def _area_kind(self, key: str, area_id: str, a: int, p: int, counts: dict[str, int],
                   land_things: dict[str, Any]) -> None:
        """Fleets at sea; troops, heroes and buildings on land; an owned sea holds fleets (R16)."""
        if self.g.board.is_land[a]:
            if counts["fleets"]:
                _fail(f"{key}.fleets", f"{area_id} is a land area: fleets stand at sea")
            return
        for k in ("troops", "mercs"):
            if counts[k]:
                _fail(f"{key}.{k}", f"{area_id} is a sea area: {k} stand on land")
        for k, v in land_things.items():
            if v:
                _fail(f"{key}.{k}", f"{area_id} is a sea area: no {k} there")
        if p >= 0 and not counts["fleets"] and not self._battle_at(a):
            _fail(key, f"sea area {area_id} has an owner but no fleet (R16)")

    def _battle_at(self, a: int) -> bool:
        dec = self.d.get("decision")
        if not isinstance(dec, dict) or not isinstance(dec.get("stack"), dict):
            return False
        frames = dec["stack"].get("frames")
        return isinstance(frames, list) and any(
            isinstance(f, dict) and f.get("kind") == "battle" and f.get("area") == a for f in frames)

    def _buildings(self, key: str, a: int, p: int, buildings: Any, bonuses: Any, exact: bool) -> None:
        b, s, r = self.g.board, self.g.state, self.g.rules
        kinds = (*BUILDINGS, METROPOLIS)
        for i, k in enumerate(buildings):
            if not (exact and k in (None, "")):  # `sites`: null or "" for an empty site
                _name(f"{key}[{i}]", k, kinds, "building")
        if len(buildings) > b.sites[a]:
            _fail(key, f"{b.ids[a]} has only {b.sites[a]} construction sites")
        if any(k for k in buildings) and p < 0:
            _fail(key, f"buildings on {b.ids[a]} but no owner: a control token stays with "
                  "them (R16)")
        sites = list(b.sites_of(a)) if exact else _fill_order(b, a, buildings)
        if b.metro_site[a] >= 0:  # the classic isle (R8): one metropolis space
            for site, k in zip(sites, buildings):
                if k and k != METROPOLIS and site == b.metro_site[a]:
                    _fail(key, f"on the classic board the isle's metropolis space holds no basic "
                          f"building (R8), not {buildings!r}")
        key = key.rsplit(".", 1)[0]
        if bonuses and not r.metropolis_bonuses:
            _fail(f"{key}.bonuses", f"the {r.name} game has no metropolis bonuses (R20)")
        metros = [site for site, k in zip(sites, buildings) if k == METROPOLIS]
        if len(bonuses) > len(metros):
            _fail(f"{key}.bonuses", f"{len(bonuses)} bonus tokens for {len(metros)} metropolises")
        for site, k in zip(sites, buildings):
            s.sites[site] = k or ""
        for i, (site, bonus) in enumerate(zip(metros, bonuses)):
            if bonus is not None and bonus != "":
                _name(f"{key}.bonuses[{i}]", bonus, BONUS_TEXT, "metropolis bonus")
                s.metro_bonus[site] = bonus

    # --- creatures --------------------------------------------------------------------------

    def _creature(self, card: Any, cd: Any) -> None:
        b, s, n = self.g.board, self.g.state, self.n
        key = f"creatures.{card}"
        _name("creatures", card, self.creature_box, "creature")
        cd = _dict(key, cd, {"owner", "area"})
        if "owner" not in cd:
            _fail(key, "say which player holds the card (owner)")
        p = _player(f"{key}.owner", cd["owner"], n)
        if s.eliminated[p]:
            _fail(f"{key}.owner", f"player {p} is eliminated: their creatures left (R27)")
        s.creature_owner[card] = p
        kind = CREATURES[card].miniature
        if kind is None:
            # a creature without a miniature is played at once and discarded: no one holds it
            _fail(f"{key}.area" if "area" in cd else key,
                  f"{card} has no miniature: its card is played at once, never held")
        # Scylla and Charybdis: one card, two miniatures, given as a list of two areas.
        areas = cd.get("area")
        areas = areas if isinstance(areas, list) else [areas]
        minis = miniatures_of(card)
        if len(areas) != len(minis):
            _fail(f"{key}.area", f"give {len(minis)} area(s) for {', '.join(minis)}")
        for mini, area in zip(minis, areas):
            if area is None:
                if not self._stack_form():
                    _fail(f"{key}.area", f"a held creature's miniature stands on the board: "
                          f"give the area of {mini}")
                continue  # being placed now (a creature frame of the stack)
            if area not in b.index:
                _fail(f"{key}.area", f"no area {area!r} on this board")
            a = b.index[area]
            if kind != "any" and b.is_land[a] != (kind == "land"):
                _fail(f"{key}.area", f"{mini} stands on a {kind} area, and {area} is "
                      f"{'land' if b.is_land[a] else 'sea'}")
            other = next((m for m, x in s.creature_at.items() if x == a), None)
            if other:
                _fail(f"{key}.area", f"{other} already stands on {area}: one creature per area")
            s.creature_at[mini] = a
            if not self._stack_form():  # a creature frame may be displacing units now
                self._creature_rules(f"{key}.area", mini, a)

    def _stack_form(self) -> bool:
        dec = self.d.get("decision")
        return isinstance(dec, dict) and "stack" in dec

    def _creature_rules(self, key: str, mini: str, a: int) -> None:
        """What a creature's miniature forbids around it, once placed (creature texts)."""
        b, s, ids = self.g.board, self.g.state, self.g.board.ids
        if mini == "kraken" and s.fleets[a]:
            _fail(key, f"the Kraken destroys the fleets where it stands: {ids[a]} holds "
                  f"{s.fleets[a]} (Kraken: \"they are destroyed\")")
        if mini == "polyphemus":
            seas = [ids[x] for x in b.coast[a] if s.fleets[x]]
            if seas:
                _fail(key, f"no fleet may occupy the seas next to Polyphemus: {seas} hold fleets")
        if mini == "calydonian-boar" and (s.troops[a] or s.mercs[a]
                                          or any(at == a for at in s.hero_at.values())):
            _fail(key, f"{ids[a]} holds troops or heroes (Calydonian Boar: \"Neither Heroes nor "
                  f"Troops may be in an Area with this Creature\")")

    # --- what the scenario adds beyond units ------------------------------------------------

    def _extras(self) -> None:
        s, d, n = self.g.state, self.d, self.n
        for i, h in enumerate(_list("recruited_this_cycle", d.get("recruited_this_cycle", []))):
            key = f"recruited_this_cycle[{i}]"
            _name(key, h, HEROES, "hero")
            if h not in s.hero_owner:
                _fail(key, f"{h} is not in play: place it on an area or in a player's heroes")
            # Rulebook, Heroes: "A Hero cannot be sacrificed during the Cycle in which they
            # are recruited."
            s.hero_since[h] = s.cycle
        under = _list("under_heracles", d.get("under_heracles", []))
        for i, c in enumerate(under):
            _name(f"under_heracles[{i}]", c, self.creature_box, "creature")
        if under:
            s.creature_cards["heracles"] = tuple(under)
        if "penthesilea" in d:
            pd = _dict("penthesilea", d["penthesilea"], {"owner", "bonus"})
            if "penthesilea" not in self.hero_box:
                _fail("penthesilea", "Penthesilea is not in this game")
            if "penthesilea" in self.hero_places:
                _fail("penthesilea", f"her card holds a Metropolis, so she is not in play "
                      f"({self.hero_places['penthesilea']})")
            p = _player("penthesilea.owner", pd.get("owner"), n)
            bonus = pd.get("bonus") or ""
            if bonus:
                _name("penthesilea.bonus", bonus, BONUS_TEXT, "metropolis bonus")
            s.metro_bonus["penthesilea"] = (p, bonus)
        flags = _dict("turn_flags", d.get("turn_flags") or {})
        s.turn_flags = {str(k): _int(f"turn_flags.{k}", v, 0) for k, v in flags.items()}
        s.end_flag = _bool("ends_this_cycle", d.get("ends_this_cycle", False)) or any(s.eliminated)

    # --- supplies (R28) and reserves ----------------------------------------------------------

    def _reserves(self, frames: list[dict[str, Any]]) -> None:
        b, s, r, n = self.g.board, self.g.state, self.g.rules, self.n
        in_battle = [(f["attacker"], f.get("attacker_troops", 0), f.get("attacker_mercenaries", 0),
                      f.get("attacker_fleets", 0)) for f in frames if f["kind"] == "battle"]
        for p in range(n):
            troops = sum(s.troops[a] for a in b.lands if s.ctrl[a] == p)
            troops += sum(t for q, t, _, _ in in_battle if q == p)
            fleets = sum(s.fleets[a] for a in b.seas if s.ctrl[a] == p)
            fleets += sum(f for q, _, _, f in in_battle if q == p)
            if troops > r.troops:
                _fail("areas", f"player {p} has {troops} troops; each player has {r.troops} (R28)")
            if fleets > r.fleets:
                _fail("areas", f"player {p} has {fleets} fleets; each player has {r.fleets} (R28)")
            s.troops_left[p] = r.troops - troops
            s.fleets_left[p] = r.fleets - fleets
        mercs = sum(s.mercs) + sum(m for _, _, m, _ in in_battle)
        if mercs > r.mercenaries:
            _fail("areas", f"{mercs} mercenaries; the box holds {r.mercenaries} (R28)")
        s.mercs_left = r.mercenaries - mercs
        for kind in BUILDINGS:
            if s.sites.count(kind) > r.buildings_per_type:
                _fail("areas", f"{s.sites.count(kind)} {kind}s; the box holds "
                      f"{r.buildings_per_type} of each basic building (R28)")

    def _cards(self) -> None:
        """Each card in one place: a track, a deck, a discard pile, a player's hand or under
        Heracles; a pile the scenario does not give loses the cards placed elsewhere."""
        s = self.g.state
        given = self.explicit
        placed = {"creatures": list(s.creature_owner),
                  "under_heracles": list(s.creature_cards.get("heracles", ())),
                  "creature_track": [c for c in s.creature_track if c] if "creature_track" in given else [],
                  "creature_deck": s.creature_deck if "creature_deck" in given else [],
                  "creature_discard": s.creature_discard}
        self._one_place(placed, self.creature_box, "creature", ("creature_track", "creature_deck"))
        heroes = {"heroes in play": list(s.hero_owner),
                  "penthesilea": ["penthesilea"] if "penthesilea" in s.metro_bonus else [],
                  "hero_track": [h for h in s.hero_track if h] if "hero_track" in self.explicit else [],
                  "hero_deck": s.hero_deck if "hero_deck" in self.explicit else [],
                  "hero_discard": s.hero_discard}
        self._one_place(heroes, Counter(self.hero_box), "hero", ("hero_track", "hero_deck"))
        bonuses = Counter(s.metro_bonus[k] if k != "penthesilea" else s.metro_bonus[k][1]
                          for k in s.metro_bonus)
        bonuses.pop("", None)
        if "bonus_stack" in self.explicit:
            bonuses.update(s.bonus_stack)
        for bonus, count in bonuses.items():
            if count > self.bonus_box[bonus]:
                _fail("bonus_stack", f"{count} '{bonus}' metropolis tokens; the game has "
                      f"{self.bonus_box[bonus]} (R2)")
        if "bonus_stack" not in self.explicit:
            _drop(s.bonus_stack, [x if k != "penthesilea" else x[1] for k, x in s.metro_bonus.items()])

    def _one_place(self, places: dict[str, list[str]], box: Counter[str], what: str,
                   defaults: tuple[str, ...]) -> None:
        s = self.g.state
        seen: Counter[Any] = Counter()
        where: dict[Any, Any] = {}
        for key, cards in places.items():
            for c in cards:
                seen[c] += 1
                where.setdefault(c, []).append(key)
        for c, count in seen.items():
            if count > box[c]:
                _fail(where[c][-1], f"the {what} card {c} is in {count} places "
                      f"({', '.join(where[c])}); the game has {box[c]}")
        # A pile the setup dealt (not given by the scenario) gives up the cards placed elsewhere,
        # the deck first.
        dealt = [k for k in defaults if k not in self.explicit]
        dealt.sort(key=lambda k: k.endswith("track"))
        for c, count in seen.items():
            excess = count + sum(getattr(s, k).count(c) for k in dealt) - box[c]
            for k in dealt:
                pile = getattr(s, k)
                while excess > 0 and c in pile:
                    if k.endswith("track"):
                        pile[pile.index(c)] = None
                    else:
                        pile.remove(c)
                    excess -= 1

    def _reserved(self) -> None:
        s, n = self.g.state, self.n
        for c, p in _dict("reserved", self.d.get("reserved") or {}).items():
            _name("reserved", c, self.creature_box, "creature")
            if c not in s.creature_track:
                _fail(f"reserved.{c}", f"{c} is not on the creature track")
            s.reserved[c] = _player(f"reserved.{c}", p, n)

    # --- the decision -----------------------------------------------------------------------

    def _stack_frames(self, dd: dict[str, Any]) -> list[dict[str, Any]]:
        _dict("decision.stack", dd, {"phase", "frames", "action_order", "next_action"})
        frames = []
        for i, f in enumerate(_list("decision.stack.frames", dd.get("frames", []))):
            key = f"decision.stack.frames[{i}]"
            _dict(key, f)
            if f.get("kind") not in HANDLERS:
                _fail(f"{key}.kind", f"unknown frame kind {f.get('kind')!r}; known: {sorted(HANDLERS)}")
            self._frame_fields(key, f)
            frames.append(_frame_from_json(f))
        return frames

    def _frame_fields(self, key: str, f: dict[str, Any]) -> None:
        """A frame's fields, each read as its kind declares it (engine/frames.py: its role)."""
        n, areas = self.n, len(self.g.board.ids)
        kind = f["kind"]
        unknown = set(f) - fields(kind)
        if unknown:
            _fail(key, f"a {kind} frame has no {sorted(map(str, unknown))}; its fields: {sorted(fields(kind))}")
        missing = required_fields(kind) - set(f)
        if missing:
            _fail(key, f"a {kind} frame needs {sorted(missing)}")
        if kind == "chance":
            if f.get("player") != CHANCE:
                _fail(f"{key}.player", f"a chance frame waits on chance ({CHANCE})")
        else:
            _player(f"{key}.player", f.get("player"), n)
        for k, role in roles(kind).items():
            if k not in f:
                continue
            if role is PLAYER:
                _player(f"{key}.{k}", f[k], n)
            elif role is QUEUE:
                for j, p in enumerate(_list(f"{key}.{k}", f[k])):
                    _player(f"{key}.{k}[{j}]", p, n)
            elif role in AREA_ROLES:
                _int(f"{key}.{k}", f[k], -1, areas - 1)
            elif role is AREAS:
                for j, a in enumerate(_list(f"{key}.{k}", f[k])):
                    _int(f"{key}.{k}[{j}]", a, 0, areas - 1)
            elif role is COUNT:
                _int(f"{key}.{k}", f[k], 0)

    def _start(self, kind: str, d: dict[str, Any], frames: list[dict[str, Any]]) -> None:
        """Put the engine where the scenario says it waits."""
        s = self.g.state
        if kind in ("placement", "new_cycle") and (s.bids or s.apollo):
            _fail(f"decision.{kind}", "offerings are made after the placement and the income "
                  "(phase 3): no bids or apollo here")
        if s.cycle == 0 and not (kind == "placement" or (kind == "stack" and d.get("phase") == "setup")):
            _fail("cycle", "cycle 0 is the Setup, before the first cycle: only a placement "
                  "decision is there")
        if kind in ("placement", "new_cycle") and self.d.get("recruited_this_cycle"):
            _fail("recruited_this_cycle", f"no hero is recruited before a {kind} decision")
        {"placement": self._placement, "offerings": self._offerings_start, "maintenance": self._maintenance,
         "turn": self._turn, "new_cycle": self._new_cycle, "stack": lambda d: self._stack(d, frames),
         "game_over": self._game_over}[kind](d)

    def _placement(self, d: dict[str, Any]) -> None:
        _dict("decision.placement", d, set())
        self.g.state.phase = "setup"
        start_placement(self.g)

    def _offerings_start(self, d: dict[str, Any]) -> None:
        g, s = self.g, self.g.state
        _dict("decision.offerings", d, set())
        s.phase = "offerings"
        made = Counter(p for p, _ in s.bids.values()) + Counter(s.apollo)
        order = []
        for p in s.turn_order:  # the markers already placed have gone (R23: two each)
            if s.eliminated[p]:
                continue
            if made[p]:
                made[p] -= 1
            else:
                order.append(p)
        if not order:
            _fail("decision.offerings", "every player has made their offerings: the "
                  "engine is at maintenance or later")
        push(g, "offer", order[0], queue=tuple(order[1:]), banned_god="")

    def _maintenance(self, d: dict[str, Any]) -> None:
        g, s, n = self.g, self.g.state, self.n
        _dict("decision.maintenance", d, set())
        markers = g.rules.markers(n)
        missing = [p for p in range(n) if not s.eliminated[p]
                   and sum(q == p for q, _ in s.bids.values()) + s.apollo.count(p) < markers]
        if missing:
            _fail("decision.maintenance", f"players {missing} have made no offering: phase 4 "
                  "comes after every player's offering (bids or apollo)")
        s.phase = "maintenance"
        start_maintenance(g)

    def _new_cycle(self, d: dict[str, Any]) -> None:
        s = self.g.state
        _dict("decision.new_cycle", d, set())
        if s.cycle < 1:
            _fail("cycle", "a new cycle is cycle 1 or later")
        s.cycle -= 1
        cycle.begin_cycle(self.g)

    def _stack(self, d: dict[str, Any], frames: list[dict[str, Any]]) -> None:
        s = self.g.state
        phase = d.get("phase", "actions")
        if phase not in ("setup", "offerings", "maintenance", "actions"):
            _fail("decision.stack.phase", f"one of setup, offerings, maintenance, actions, "
                  f"not {phase!r}")
        s.phase = phase
        s.action_order = self._action_order("decision.stack.action_order", d.get("action_order", []))
        s.next_action = _int("decision.stack.next_action", d.get("next_action", 0), 0, len(s.action_order))
        s.stack = frames

    def _game_over(self, d: dict[str, Any]) -> None:
        s = self.g.state
        _dict("decision.game_over", d, {"cycle_limit", "action_order", "next_action"})
        s.cycle_limit_hit = _bool("decision.game_over.cycle_limit", d.get("cycle_limit", False))
        s.over, s.phase = True, "over"
        # the turns of the last cycle, as a finished game keeps them
        s.action_order = self._action_order("decision.game_over.action_order", d.get("action_order", []))
        s.next_action = _int("decision.game_over.next_action", d.get("next_action", 0), 0,
                             len(s.action_order))

    def _action_order(self, key: str, order: Any) -> list[Any]:
        n, r = self.n, self.g.rules
        out: list[Any] = []
        for i, entry in enumerate(_list(key, order)):
            x = _list(f"{key}[{i}]", entry)
            if len(x) != 2:
                _fail(f"{key}[{i}]", f"give [player, god], not {x!r}")
            p = _player(f"{key}[{i}][0]", x[0], n)
            _name(f"{key}[{i}][1]", x[1], (*tuple(r.gods), APOLLO), "god")
            if x[1] != APOLLO and any(god == x[1] for _, god in out):
                _fail(key, f"{x[1]} acts once a cycle")
            out.append([p, x[1]])
        for p in range(n):
            if sum(q == p for q, _ in out) > r.markers(n):
                _fail(key, f"player {p} acts {sum(q == p for q, _ in out)} times in a cycle")
        return out

    def _turn(self, d: dict[str, Any]) -> None:
        g, s, r, n = self.g, self.g.state, self.g.rules, self.n
        _dict("decision.turn", d, {"player", "god", "stage", "bought", "moves", "action_order"})
        for k in ("player", "god"):
            if k not in d:
                _fail("decision.turn", f"say whose turn it is ({k})")
        p = _player("decision.turn.player", d["player"], n)
        if s.eliminated[p]:
            _fail("decision.turn.player", f"player {p} is eliminated and takes no turn (R27)")
        god = _name("decision.turn.god", d["god"], (*tuple(r.gods), APOLLO), "god")
        stage = d.get("stage", "start")
        if stage not in ("start", "main"):
            _fail("decision.turn.stage", f"start or main, not {stage!r}")
        costs = GODS[god].paid_costs if god != APOLLO else ()
        bought = _int("decision.turn.bought", d.get("bought", 0), 0, len(costs))
        moves = _int("decision.turn.moves", d.get("moves", 0), 0)
        order = self._action_order("decision.turn.action_order",
                                   d.get("action_order") or [[p, god]])
        for q, gd in order:
            if gd in s.bids and s.bids[gd][0] != q:
                _fail("decision.turn", f"{gd}'s turn is player {s.bids[gd][0]}'s, whose offering "
                      f"stands on it (bids), not player {q}'s")
        if order[0] != [p, god]:
            _fail("decision.turn.action_order", f"this turn [{p}, {god}] comes first, "
                  f"not {order[0]}")
        s.phase = "actions"
        s.action_order = order
        s.next_action = 1
        push(g, "turn", p, god=god, stage=stage, recruits_bought=bought, heroic_moves=moves,
             done_once=())

    def _bookkeeping(self) -> None:
        """What makes a loaded game identical to the one `state_dict` wrote: the order in which
        the engine met the heroes, creatures and metropolis tokens in play (it decides the order
        of some legal actions and discards), the cycles of recruitment, the decision counter."""
        s = self.g.state
        bk = _dict("bookkeeping", self.d.get("bookkeeping") or {}, _BOOKKEEPING)
        for k in ("hero_at", "hero_owner", "creature_at", "creature_owner", "metro_bonus"):
            if k not in bk:
                continue
            have = getattr(s, k)
            order = [_int(f"bookkeeping.{k}[{i}]", x, 0) if k == "metro_bonus" and x != "penthesilea"
                     else x for i, x in enumerate(_list(f"bookkeeping.{k}", bk[k]))]
            if sorted(map(repr, order)) != sorted(map(repr, have)) \
                    or len(set(map(repr, order))) != len(order):
                _fail(f"bookkeeping.{k}", f"list each of {sorted(map(str, have))} once, "
                      f"not {order!r}")
            setattr(s, k, {x: have[x] for x in order})
        if "hero_since" in bk:
            given = _dict("bookkeeping.hero_since", bk["hero_since"])
            if set(given) != set(s.hero_since):
                _fail("bookkeeping.hero_since", f"give the cycle of recruitment of each hero in "
                      f"play, {sorted(s.hero_since)}, not {sorted(map(str, given))}")
            since = {}
            for h, c in given.items():
                since[h] = _int(f"bookkeeping.hero_since.{h}", c, 0, s.cycle)
                if (since[h] == s.cycle) != (s.hero_since[h] == s.cycle):
                    _fail(f"bookkeeping.hero_since.{h}", "a hero recruited this cycle is listed "
                          "in recruited_this_cycle, and only such a hero")
            s.hero_since = since
        s.version = _int("bookkeeping.version", bk.get("version", 0), 0)

    def _invariants(self) -> None:
        errors = check(self.g)
        if errors:
            raise ScenarioError("the position breaks the rules (engine/invariants.py): "
                                + "; ".join(errors))


def _drop(pile: list[str], cards: Iterable[str]) -> None:
    for c in cards:
        if c in pile:
            pile.remove(c)


def _fill_order(b: Board, a: int, buildings: list[str]) -> list[int]:
    """The sites that `buildings` fill, in order. On the classic board (R8) a Metropolis goes
    to the isle's metropolis space first, the other buildings to its building spaces."""
    if b.metro_site[a] < 0 or "metropolis" not in buildings:
        return list(b.sites_of(a))
    spaces = iter(b.building_sites(a))
    first = buildings.index("metropolis")
    out = []
    for k in range(len(buildings)):
        if k == first:
            out.append(b.metro_site[a])
        else:
            nxt = next(spaces, -1)
            if nxt < 0:
                _fail(f"areas.{b.ids[a]}.buildings", f"{b.ids[a]} has only "
                      f"{len(b.building_sites(a))} building spaces and one metropolis space")
            out.append(nxt)
    return out
