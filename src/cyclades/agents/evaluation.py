"""What a position is worth to each player: the heuristic both `greedy` and `mcts` use.

Values are in GP-equivalents: a Metropolis is worth about what it costs to build one (the
game's goal of them win, R21: `g.goal`, 3 in Legendary, 2 in the classic game, 3 or 4 for a
team; classic counts none past the goal), the buildings toward a set and the Philosophers
toward four are worth a growing share of one, income is worth its GP over the cycles left,
units what they cost to recruit; areas that an enemy can take by the odds of the die are discounted by that risk.

Team play (R22): a teammate is not a rival. A team's buildings count together toward its
Metropolis, an area a teammate holds is not threatened by us nor by them, and `relative` and
`win_chances` compare sides: a team's win is a win for each of its members.

Everything here reads only what is public and the purses in the game it is given: an agent
hands it a determinized game (`Observation.determinize`), whose hidden facts are guesses.
"""
from __future__ import annotations

import math
from functools import cache
from typing import Any

from ..content.gods import BUILDINGS, METROPOLIS
from ..engine.ops import DIE_FACES
from ..engine.queries import area_income, building_active, income_receiver

METRO = 45.0                    # one Metropolis
BUILD_SET = (0.0, 7.0, 16.0, 28.0)   # 0..3 distinct basic building types toward a Metropolis
PHILO = (0.0, 8.0, 18.0, 30.0)       # 0..3 Philosophers toward a Metropolis
DUPLICATE = 1.5                 # a second building of a type (Odysseus, Helen, a spare)
PRIESTESS = 3.0
INCOME = 3.0                    # one GP of income: about three cycles' worth
TROOP = 2.0
FLEET = 1.5
HERO = 4.0
CREATURE = 2.5
LAND = 2.5
SEA = 0.7
FREE_SITE = 1.0
RISK = 0.5                      # the chance that the threatening enemy gets to move this cycle
BUILDING_STAKE = 7.0            # what a building in a lost area costs its owner
TEMPERATURE = 18.0              # values -> win chances (softmax)

# --- the die (R3) --------------------------------------------------------------------------

_DIFF: dict[Any, Any] = {}
for _a in DIE_FACES:
    for _d in DIE_FACES:
        _DIFF[_a - _d] = _DIFF.get(_a - _d, 0) + 1 / 36


@cache
def _round(k):
    """(attacker wins, defender wins, tie) of one round when the attacker's strength without
    the die exceeds the defender's by k."""
    win = sum(p for x, p in _DIFF.items() if x + k > 0)
    lose = sum(p for x, p in _DIFF.items() if x + k < 0)
    return win, lose, 1.0 - win - lose


@cache
def attack_odds(att: int, dfd: int, bonus: int = 0) -> float:
    """Chance that `att` units take an area held by `dfd` units when fought to the end (no
    retreat), the attacker's fixed bonus less the defender's being `bonus` (a Fortress: -1)."""
    if dfd <= 0:
        return 1.0 if att > 0 else 0.0
    if att <= 0:
        return 0.0
    att, dfd = min(att, 12), min(dfd, 12)
    w, lose, t = _round(att - dfd + bonus)
    return w * attack_odds(att, dfd - 1, bonus) + lose * attack_odds(att - 1, dfd, bonus) \
        + t * attack_odds(att - 1, dfd - 1, bonus)


@cache
def expected_losses(att: int, dfd: int, bonus: int = 0) -> float:
    """Expected units the attacker loses in a battle fought to the end."""
    if dfd <= 0 or att <= 0:
        return 0.0
    att, dfd = min(att, 12), min(dfd, 12)
    w, lose, t = _round(att - dfd + bonus)
    return w * expected_losses(att, dfd - 1, bonus) + lose * (1 + expected_losses(att - 1, dfd, bonus)) \
        + t * (1 + expected_losses(att - 1, dfd - 1, bonus))


# --- a position, read once ----------------------------------------------------------------------

class _BoardTables:
    """Per-board figures Position needs on every read, as lists and bit masks (computed once
    per board: a Position is built ~15 times per search iteration)."""

    __slots__ = ("board", "coast_mask", "land_adj_mask", "lands", "nareas", "positions", "sea_adj",
                 "seas", "site_slices", "threats")

    def __init__(self, b):
        self.board = b  # kept: the cache is keyed by id(board)
        self.nareas = len(b.ids)
        self.lands, self.seas = b.lands, b.seas
        # Per land area (start, end) of its building sites; per area the bit masks of the land
        # areas next to it (land_adj) and of the land areas on its coast.
        self.site_slices = [(b.site_start[a], b.site_start[a] + b.sites[a]) for a in range(self.nareas)]
        self.land_adj_mask = [_mask(b.land_adj[a]) for a in range(self.nareas)]
        self.coast_mask = [_mask(b.coast[a]) for a in range(self.nareas)]
        self.sea_adj = b.sea_adj
        self.positions = {}  # position(): content key -> Position
        self.threats = {}    # Position.threats(): units and control -> threats (shared, never changed)


def _mask(areas) -> int:
    m = 0
    for a in areas:
        m |= 1 << a
    return m


_TABLES: dict = {}


def _tables(b) -> _BoardTables:
    t = _LAST[0]
    if t is not None and t.board is b:  # a search asks about one board over and over
        return t
    t = _TABLES.get(id(b))
    if t is None or t.board is not b:
        if len(_TABLES) > 64:  # boards are few; a long-lived server sees new ones
            _TABLES.clear()
        # Only the boards searched last keep their Positions (memory: ~9 KB each).
        for old in list(_TABLES.values())[:-(KEEP_BOARDS - 1)]:
            old.positions.clear()
            old.threats.clear()
        t = _TABLES[id(b)] = _BoardTables(b)
    _LAST[0] = t
    return t


_LAST: list = [None]


MAX_CACHED = 3000  # Positions kept per board (then the cache starts afresh): a decision of
KEEP_BOARDS = 4    # mcts (100 iterations) reads ~300; only the last boards' are kept


def position(g) -> Position:
    """The Position of g, shared by every game with the same content.

    A search reads the same positions over and over: the determinizations of one decision
    differ only in purses and piles (which a Position does not read), a cycle's offerings
    change nothing it reads, and look-aheads come back to the same places; about 5 in 6
    Positions built in a search were already built. The key is everything a Position reads:
    the areas' units, control, Prosperity and buildings, the heroes and creatures (where and
    whose: also all that the income and building hooks read), Penthesilea's Metropolis, the
    number of players and the teams. A Position is never changed once built (its threats are
    computed on demand but from its own figures), so sharing one is safe."""
    # A third of the calls ask about the same content as the call before (a rollout's next
    # decision often moves nothing a Position reads): comparing the lists is cheaper than the key.
    last = _LAST_POSITION[0]
    if last is not None and _same_content(last._content, g):
        return last
    s = g.state
    pen = s.metro_bonus.get("penthesilea")
    # One flat tuple (the fastest to build and hash): the lists have the board's lengths, and
    # a None ends each dict's (key, value) pairs.
    key = (*s.ctrl, *s.troops, *s.mercs, *s.fleets, *s.prosperity, *s.sites,
           *s.hero_at.items(), None, *s.creature_at.items(), None, *s.creature_owner.items(), None,
           *s.hero_owner.items(), None, pen[0] if pen is not None else None, s.n, g.teams)
    cache = _tables(g.board).positions
    pos = cache.get(key)
    if pos is None:
        if len(cache) >= MAX_CACHED:
            cache.clear()
        pos = cache[key] = Position(g)
        pos._content = _content(g)
    _LAST_POSITION[0] = pos
    return pos


_LAST_POSITION: list = [None]  # the Position position() returned last


def _content(g) -> tuple:
    """What position()'s key holds, as copies of the state's lists (for _same_content)."""
    s = g.state
    return (s.troops[:], s.ctrl[:], s.fleets[:], s.mercs[:], s.prosperity[:], s.sites[:], _rest(g))


def _same_content(content, g) -> bool:
    """Whether g holds what `content` holds: equal lists, equal dicts in the same order (so
    exactly when position()'s keys are equal), the same board."""
    s = g.state
    troops, ctrl, fleets, mercs, prosperity, sites, rest = content
    return (s.troops == troops and s.ctrl == ctrl and s.fleets == fleets and s.mercs == mercs
            and s.prosperity == prosperity and s.sites == sites and _rest(g) == rest)


def _rest(g) -> tuple:
    s = g.state
    pen = s.metro_bonus.get("penthesilea")
    return (g.board, tuple(s.hero_at.items()), tuple(s.creature_at.items()), tuple(s.creature_owner.items()),
            tuple(s.hero_owner.items()), pen[0] if pen is not None else None, s.n, g.teams)


class Position:
    """Per-area and per-player figures of a game, read once (the areas, then the building
    sites of the lands held, then the cards); cheap to build. It keeps no reference to the
    game (only copies of what it read), so that `position()` can share it between games."""

    __slots__ = (
        "_content",
        "_ctrl",
        "_risk",
        "_tab",
        "_teams",
        "_threat",
        "buildings_in",
        "creatures",
        "dups",
        "fleets",
        "fort",
        "free",
        "hero_count",
        "heroes",
        "income",
        "income_of",
        "lands",
        "memo",
        "metros",
        "metros_in",
        "n",
        "ports",
        "seas",
        "side_types",
        "troops",
        "types",
        "units",
    )

    def __init__(self, g):
        self.n = g.state.n
        self._threat = None
        self._risk = None
        self._content = None  # what position() read it from (set there)
        # Figures greedy derives from this Position alone (its plans per player...): shared,
        # like the Position, by every game of the same content (greedy.memo says what goes in).
        self.memo = {}
        self._tab = _tables(g.board)
        self._ctrl = g.state.ctrl[:]
        self._teams = g.teams
        self._read_areas(g)
        self._read_buildings(g)
        self._count_cards(g.state)
        if g.teams:  # R22: a team builds its Metropolis from its combined four types
            side: dict[Any, Any] = {}
            for q in range(self.n):
                side.setdefault(g.teams[q], set()).update(self.types[q])
            self.side_types = [side[g.teams[q]] for q in range(self.n)]
        else:
            self.side_types = self.types

    def _read_areas(self, g):
        """Per area its units and income; per player its lands and seas, troops, fleets and
        income. (The lands, then the seas: each player's lists stay in area order.)"""
        s, tab, n = g.state, self._tab, self.n
        nareas = tab.nareas
        self.hero_count = hero_count = [0] * nareas
        for a in s.hero_at.values():
            hero_count[a] += 1
        self.lands: list[list[int]] = [[] for _ in range(n)]
        lands = self.lands
        self.seas: list[list[int]] = [[] for _ in range(n)]
        seas = self.seas
        self.income = income = [0] * n
        self.troops = troops = [0] * n
        self.fleets = fleets = [0] * n
        ctrl, s_troops, s_mercs, s_fleets = s.ctrl, s.troops, s.mercs, s.fleets
        # Income is changed only by creatures in their own area (the Hydra, Cerberus, the
        # Nereid): elsewhere it is the Cornucopias and Prosperity of the controller's areas.
        self.income_of = income_of = list(map(int.__add__, g.board.cornucopias, s.prosperity))
        special = set(s.creature_at.values())
        for a in special:
            income_of[a] = area_income(g, a)
            r = income_receiver(g, a)
            if r >= 0:
                income[r] += income_of[a]
        self.units = units = s_fleets[:]  # a sea's units are its fleets; the lands' are set below
        for a in tab.lands:
            q = ctrl[a]
            t = s_troops[a] + s_mercs[a]
            units[a] = t + hero_count[a]
            if q >= 0:
                lands[q].append(a)
                troops[q] += t
                if a not in special:
                    income[q] += income_of[a]
        for a in tab.seas:
            q = ctrl[a]
            if q >= 0:
                seas[q].append(a)
                fleets[q] += s_fleets[a]
                if a not in special:
                    income[q] += income_of[a]
        if "minotaur" in s.creature_owner:
            m = s.creature_at.get("minotaur")
            if m is not None and s.creature_owner.get("minotaur") == ctrl[m] and g.board.is_land[m]:
                units[m] += 2  # the Minotaur adds 2 units only to its owner's area

    def _read_buildings(self, g):
        """The building sites of the lands each player controls: per area its buildings, its
        Metropolises (a Metropolis is a Fortress and a Port too) and its active Fortresses and
        Ports; per player its free sites, Metropolises, building types and duplicates."""
        sites, n, tab = g.state.sites, self.n, self._tab
        nareas = tab.nareas
        slices = tab.site_slices
        self.fort = fort = [0] * nareas
        self.ports = ports = [0] * nareas
        self.metros_in = metros_in = [0] * nareas
        self.buildings_in = buildings_in = [0] * nareas
        self.types: list[set[str]] = [set() for _ in range(n)]
        self.dups = dups = [0] * n
        self.free = free = [0] * n
        self.metros = metros = [0] * n
        for q, lands in enumerate(self.lands):
            types = self.types[q]
            for a in lands:
                start, end = slices[a]
                kinds = sites[start:end]
                empty = kinds.count("")
                if empty:
                    free[q] += empty
                    if empty == end - start:
                        continue
                buildings_in[a] = end - start - empty
                for i in range(start, end):
                    k = sites[i]
                    if not k:
                        continue
                    if k == METROPOLIS:
                        metros_in[a] += 1
                        metros[q] += 1
                        fort[a] += 1
                        ports[a] += 1
                    elif building_active(g, i):
                        if k == "fortress":
                            fort[a] += 1
                        elif k == "port":
                            ports[a] += 1
                        if k in types:
                            dups[q] += 1
                        else:
                            types.add(k)

    def _count_cards(self, s):
        """Per player the Metropolis on Penthesilea's card, its heroes and its creatures."""
        n = self.n
        card = s.metro_bonus.get("penthesilea")  # the Metropolis on Penthesilea's card
        if card is not None and 0 <= card[0] < n:
            self.metros[card[0]] += 1
        self.heroes = _per_owner(s.hero_owner, n)
        self.creatures = _per_owner(s.creature_owner, n)

    # -- who can reach what ---------------------------------------------------------------

    def friends_of(self, q) -> frozenset:
        """q and, in team play, its teammates (R22): whose areas and fleets are q's side's.
        A set to test `ctrl[x] in friends` (g.friends per area was the hot spot of threats)."""
        teams = self._teams
        if not teams:
            return frozenset((q,))
        return frozenset(x for x in range(self.n) if teams[x] == teams[q])

    def reach(self, q, friends=None):
        """land area -> set of land areas a Land Move of q from it may reach: adjacent on the
        island, or across a chain of q's fleets (R17). Only for q's areas with units."""
        if friends is None:
            friends = self.friends_of(q)
        return {a: _areas(m) for a, m in self._reach_masks(q, friends)}

    def _reach_masks(self, q, friends):
        """[(land area, bit mask of the land areas it reaches)] for q's land areas with units,
        in the order of self.lands[q] (see reach)."""
        tab = self._tab
        ctrl, fleets = self._ctrl, self.units  # a sea's units are its fleets
        coast_mask, sea_adj = tab.coast_mask, tab.sea_adj
        # The chains of q's fleets (in team play a teammate's fleets carry q's troops too,
        # R22, queries.fleet_chain_lands): sea -> bit mask of the lands on the chain's coasts.
        chain: dict[int, int | None] = {}
        for x in friends:
            for sea in self.seas[x]:
                if sea in chain or not fleets[sea]:
                    continue
                todo, members, lands = [sea], [sea], 0
                chain[sea] = None
                while todo:
                    y = todo.pop()
                    lands |= coast_mask[y]
                    for z in sea_adj[y]:
                        if z not in chain and ctrl[z] in friends and fleets[z]:
                            chain[z] = None
                            members.append(z)
                            todo.append(z)
                for y in members:
                    chain[y] = lands
        out = []
        units, land_adj_mask, coast = self.units, tab.land_adj_mask, tab.board.coast
        for a in self.lands[q]:
            if not units[a]:
                continue
            r = land_adj_mask[a]
            if chain:
                for sea in coast[a]:
                    m = chain.get(sea)
                    if m:
                        r |= m
            out.append((a, r & ~(1 << a)))
        return out

    def threats(self):
        """area -> (units of the strongest single enemy origin that can reach it, that enemy;
        the first enemy in seat order on a tie)."""
        if self._threat is None:
            # They depend on the units and control alone, which two in three Positions built in
            # a search share with one built before (a build, a Prosperity token, an offering's
            # look-ahead change neither): kept per board like the Positions.
            key = (*self.units, *self._ctrl, self.n, self._teams)
            cache = self._tab.threats
            threat = cache.get(key)
            if threat is None:
                if len(cache) >= MAX_CACHED:
                    cache.clear()
                threat = cache[key] = self._find_threats()
            self._threat = threat
        return self._threat

    def _find_threats(self) -> dict:
        units = self.units
        # Every origin with the areas it may take (not its side's), strongest first (a stable
        # sort: on a tie the lower seat first); each area goes to the first origin reaching it.
        origins = []
        for q in range(self.n):
            friends = self.friends_of(q)
            own = 0
            for x in friends:
                for a in self.lands[x]:
                    own |= 1 << a
            for a, reach in self._reach_masks(q, friends):
                beyond = reach & ~own
                if beyond:
                    origins.append((units[a], q, beyond))
        origins.sort(key=_first)  # by units, descending (the key negates them)
        threat = {}
        taken = 0
        for u, q, reach in origins:
            m = reach & ~taken
            if not m:
                continue
            taken |= m
            t = (u, q)
            while m:
                low = m & -m
                threat[low.bit_length() - 1] = t
                m ^= low
        return threat

    def stake(self, a) -> float:
        """What the controller of land area a would lose with it."""
        return METRO * self.metros_in[a] + BUILDING_STAKE * (self.buildings_in[a] - self.metros_in[a]) \
            + 2.0 * self.income_of[a] + LAND

    def risk(self, a) -> float:
        """The chance that the strongest enemy able to reach land area a takes it."""
        t = self.threats().get(a)
        if not t:
            return 0.0
        return attack_odds(t[0], self.units[a], -self.fort[a])

    def risks(self) -> list:
        """Per player the value at risk in its land areas: the sum of risk x stake (values())."""
        if self._risk is None:
            threats, units, fort = self.threats(), self.units, self.fort
            out = []
            for p in range(self.n):
                risk = 0.0
                for a in self.lands[p]:
                    t = threats.get(a)  # self.risk(a), inlined: asked for every Position valued
                    if t:
                        r = attack_odds(t[0], units[a], -fort[a])
                        if r:
                            risk += r * self.stake(a)
                out.append(risk)
            self._risk = out
        return self._risk


def _first(origin):
    return -origin[0]


def _areas(m) -> set:
    """The areas of a bit mask."""
    out = set()
    while m:
        low = m & -m
        out.add(low.bit_length() - 1)
        m ^= low
    return out


def _per_owner(owner: dict, n: int) -> list:
    """How many of the cards of `owner` (card -> player) each of the n players holds."""
    out = [0] * n
    for o in owner.values():
        if 0 <= o < n:
            out[o] += 1
    return out


# --- the value of a position ------------------------------------------------------------------

def values(g, pos=None) -> list:
    """The heuristic value of the position for each player (GP-equivalents). In team play a
    team's shared assets (its purse, its buildings' progress toward a Metropolis) are counted
    once, with the faction that keeps the purse: `side_values` adds a team up."""
    s = g.state
    if s.over:
        won = set(g.result()["winners"])
        return [1000.0 if p in won else -1000.0 for p in range(s.n)]
    pos = pos or position(g)
    terms = pos.memo.get(("values", g.rules.score_caps_at_goal, g.goal))
    if terms is None:
        terms = _value_terms(g, pos)
    philosophers, priestesses, gp, eliminated = s.philosophers, s.priestesses, s.gp, s.eliminated
    out = []
    for p in range(s.n):
        if eliminated[p]:
            out.append(-500.0 if not g.teams else 0.0)
            continue
        # The terms in the order (and so with the rounding) of the full sum: see _value_terms.
        metro, build, holder, income, units, creatures, areas, risk = terms[p]
        v = metro
        v += build
        v += PHILO[min(philosophers[p], 3)]
        v += gp[p] if holder else 0
        v += PRIESTESS * priestesses[p] + income
        v += units
        v += creatures
        v += areas
        out.append(v - risk)
    return out


def _value_terms(g, pos) -> list:
    """Per player the terms of `values` that the Position alone decides (and the teams, the
    goal), kept with the Position: values adds them up with the purse, the Philosophers and
    the Priestesses, in the order of the sum written out (so the result is the same float)."""
    caps = g.rules.score_caps_at_goal
    risks = pos.risks()
    out = []
    for p in range(pos.n):
        keeper = g.purse_holder(p) == p
        metros = pos.metros[p]
        if caps:  # classic (R21): a Metropolis past the goal does not count
            metros = min(metros, g.goal)
        types = len(pos.side_types[p]) if keeper else 0
        out.append((METRO * metros,
                    BUILD_SET[min(types, 3)] + DUPLICATE * pos.dups[p],
                    keeper,  # the team's purse is counted once, with the faction that keeps it
                    INCOME * pos.income[p],
                    TROOP * pos.troops[p] + FLEET * pos.fleets[p] + HERO * pos.heroes[p],
                    CREATURE * pos.creatures[p],
                    LAND * len(pos.lands[p]) + SEA * len(pos.seas[p]) + FREE_SITE * min(pos.free[p], 3),
                    RISK * risks[p]))
    pos.memo[("values", caps, g.goal)] = out
    return out


def sides(g) -> list:
    """The side of each faction: its team in team play (R22), else itself."""
    return list(g.teams) if g.teams else list(range(g.state.n))


def side_values(g, vals) -> dict:
    """side -> its value: a team's members added up (R22), else a player's own."""
    out: dict[Any, Any] = {}
    for q, t in enumerate(sides(g)):
        out[t] = out.get(t, 0.0) + vals[q]
    return out


def relative(vals, p, g=None) -> float:
    """p's value against the others': ahead of the leader and of the field. Given the game, in
    team play p's team against the other teams: a teammate is not a rival."""
    if g is not None and g.teams:
        sv = side_values(g, vals)
        mine = g.teams[p]
        others = [v for t, v in sv.items() if t != mine]
        if not others:
            return sv[mine]
        return sv[mine] - 0.5 * max(others) - 0.5 * sum(others) / len(others)
    others = [v for q, v in enumerate(vals) if q != p]
    if not others:
        return vals[p]
    return vals[p] - 0.5 * max(others) - 0.5 * sum(others) / len(others)


def win_chances(g, vals=None, temperature=TEMPERATURE) -> list:
    """Per-player rewards in [0, 1]: the result if the game is over (a shared win is shared
    between the winning sides), else a softmax of the sides' values at `temperature` (18: the
    chances are overconfident; about 45 calibrates them: docs/learned-player.md). In team play a
    side is a team and each member's reward is its team's: a team's win is a win for each member,
    so the search backs up the team's value (the rewards then sum to one per side, not per player)."""
    s = g.state
    side = sides(g)
    if s.over:
        won = {side[p] for p in g.result()["winners"]}
        return [1.0 / len(won) if side[p] in won else 0.0 for p in range(s.n)]
    vals = vals if vals is not None else values(g)
    if g.teams:
        sv = side_values(g, vals)
        size = {t: side.count(t) for t in sv}
        sv = {t: v / size[t] for t, v in sv.items()}  # a member's share: the scale of one player
    else:
        sv = dict(enumerate(vals))
    top = max(sv.values())
    ex = {t: math.exp((v - top) / temperature) for t, v in sv.items()}
    tot = sum(ex.values())
    return [ex[side[p]] / tot for p in range(s.n)]


def guess_purse(rng, q, view) -> int:
    """A plausible purse for a player whose GP are hidden: about a cycle's income and a bit,
    and never less than what the offering they have already made will cost them (R11)."""
    income, floor = _purse_facts(q, view)
    guess = max(0, int(rng.gauss(income + 2, 2)))
    if floor is not None:
        guess = max(guess, floor)
    return guess


def _purse_facts(q, view) -> tuple:
    """(income, what q's standing offerings need or None) as guess_purse reads them from the
    view; kept for the last view (a search samples one observation hundreds of times)."""
    cached = _PURSE_FACTS
    if cached[0] is not view:
        cached = (view, {})
        globals()["_PURSE_FACTS"] = cached
    facts = cached[1].get(q)
    if facts is None:
        income = sum(a.get("prosperity", 0) for a in view["areas"] if a["owner"] == q) + 2
        priestesses = view["players"][q]["priestesses"]
        # R23: with two offering markers both standing offerings are paid together.
        mine = [god["bid"]["amount"] for god in view["gods"] if god.get("bid") and god["bid"]["player"] == q]
        facts = cached[1][q] = (income, max(len(mine), sum(mine) - priestesses) if mine else None)
    return facts


_PURSE_FACTS: tuple = (None, {})


def sample(obs, rng):
    """A game consistent with the observation (`Observation.determinize`), the hidden purses
    guessed by `guess_purse`; determinize raises them to pay the offerings already made (R11,
    R22: a team's purse pays its members' offerings together)."""
    return obs.determinize(rng, purse=guess_purse)


def missing_types(pos, p) -> list:
    return [k for k in BUILDINGS if k not in pos.types[p]]
