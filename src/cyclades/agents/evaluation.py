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
from functools import lru_cache

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

_DIFF = {}
for _a in DIE_FACES:
    for _d in DIE_FACES:
        _DIFF[_a - _d] = _DIFF.get(_a - _d, 0) + 1 / 36


@lru_cache(maxsize=None)
def _round(k):
    """(attacker wins, defender wins, tie) of one round when the attacker's strength without
    the die exceeds the defender's by k."""
    win = sum(p for x, p in _DIFF.items() if x + k > 0)
    lose = sum(p for x, p in _DIFF.items() if x + k < 0)
    return win, lose, 1.0 - win - lose


@lru_cache(maxsize=None)
def attack_odds(att: int, dfd: int, bonus: int = 0) -> float:
    """Chance that `att` units take an area held by `dfd` units when fought to the end (no
    retreat), the attacker's fixed bonus less the defender's being `bonus` (a Fortress: -1)."""
    if dfd <= 0:
        return 1.0 if att > 0 else 0.0
    if att <= 0:
        return 0.0
    att, dfd = min(att, 12), min(dfd, 12)
    w, l, t = _round(att - dfd + bonus)
    return w * attack_odds(att, dfd - 1, bonus) + l * attack_odds(att - 1, dfd, bonus) \
        + t * attack_odds(att - 1, dfd - 1, bonus)


@lru_cache(maxsize=None)
def expected_losses(att: int, dfd: int, bonus: int = 0) -> float:
    """Expected units the attacker loses in a battle fought to the end."""
    if dfd <= 0 or att <= 0:
        return 0.0
    att, dfd = min(att, 12), min(dfd, 12)
    w, l, t = _round(att - dfd + bonus)
    return w * expected_losses(att, dfd - 1, bonus) + l * (1 + expected_losses(att - 1, dfd, bonus)) \
        + t * (1 + expected_losses(att - 1, dfd - 1, bonus))


# --- a position, read once ----------------------------------------------------------------------

class Position:
    """Per-area and per-player figures of a game, read once (the areas, then the building
    sites of the lands held, then the cards); cheap to build."""

    __slots__ = ("g", "n", "lands", "seas", "units", "fort", "ports", "metros_in", "buildings_in",
                 "income_of", "types", "dups", "free", "metros", "income", "troops", "fleets",
                 "heroes", "creatures", "_threat", "hero_count", "side_types")

    def __init__(self, g):
        self.g, self.n = g, g.state.n
        self._threat = None
        self._read_areas(g)
        self._read_buildings(g)
        self._count_cards(g.state)
        if g.teams:  # R22: a team builds its Metropolis from its combined four types
            side = {}
            for q in range(self.n):
                side.setdefault(g.teams[q], set()).update(self.types[q])
            self.side_types = [side[g.teams[q]] for q in range(self.n)]
        else:
            self.side_types = self.types

    def _read_areas(self, g):
        """One pass over the areas: per area its units and income; per player its lands and
        seas, troops, fleets and income."""
        s, b, n = g.state, g.board, self.n
        nareas = len(b.ids)
        self.hero_count = hero_count = [0] * nareas
        for a in s.hero_at.values():
            hero_count[a] += 1
        self.lands = lands = [[] for _ in range(n)]
        self.seas = seas = [[] for _ in range(n)]
        self.units = units = [0] * nareas
        self.income_of = income_of = [0] * nareas
        self.income = income = [0] * n
        self.troops = troops = [0] * n
        self.fleets = fleets = [0] * n
        ctrl, s_troops, s_mercs, s_fleets = s.ctrl, s.troops, s.mercs, s.fleets
        minotaur = s.creature_at.get("minotaur") if "minotaur" in s.creature_owner else None
        if minotaur is not None and s.creature_owner.get("minotaur") != ctrl[minotaur]:
            minotaur = None  # the Minotaur adds 2 units only to its owner's area
        # Income is changed only by creatures in their own area (the Hydra, Cerberus, the
        # Nereid): elsewhere it is the Cornucopias of the controller's areas.
        special = set(s.creature_at.values())
        corn, prosperity, is_land = b.cornucopias, s.prosperity, b.is_land
        for a in range(nareas):
            q = ctrl[a]
            if a not in special:
                inc = corn[a] + prosperity[a]
                r = q
            else:
                inc = area_income(g, a)
                r = income_receiver(g, a)
            income_of[a] = inc
            if r >= 0:
                income[r] += inc
            if not is_land[a]:
                f = s_fleets[a]
                units[a] = f
                if q >= 0:
                    seas[q].append(a)
                    fleets[q] += f
                continue
            t = s_troops[a] + s_mercs[a]
            units[a] = t + hero_count[a] + (2 if a == minotaur else 0)
            if q >= 0:
                lands[q].append(a)
                troops[q] += t

    def _read_buildings(self, g):
        """The building sites of the lands each player controls: per area its buildings, its
        Metropolises (a Metropolis is a Fortress and a Port too) and its active Fortresses and
        Ports; per player its free sites, Metropolises, building types and duplicates."""
        b, sites, n = g.board, g.state.sites, self.n
        nareas = len(b.ids)
        self.fort = fort = [0] * nareas
        self.ports = ports = [0] * nareas
        self.metros_in = metros_in = [0] * nareas
        self.buildings_in = buildings_in = [0] * nareas
        self.types = [set() for _ in range(n)]
        self.dups = dups = [0] * n
        self.free = free = [0] * n
        self.metros = metros = [0] * n
        for q, lands in enumerate(self.lands):
            types = self.types[q]
            for a in lands:
                start = b.site_start[a]
                for i in range(start, start + b.sites[a]):
                    k = sites[i]
                    if not k:
                        free[q] += 1
                        continue
                    buildings_in[a] += 1
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
        g = self.g
        if not g.teams:
            return frozenset((q,))
        return frozenset(x for x in range(self.n) if g.friends(q, x))

    def reach(self, q, friends=None):
        """land area -> set of land areas a Land Move of q from it may reach: adjacent on the
        island, or across a chain of q's fleets (R17). Only for q's areas with units."""
        g = self.g
        s, b = g.state, g.board
        ctrl, fleets, coast, sea_adj = s.ctrl, s.fleets, b.coast, b.sea_adj
        if friends is None:
            friends = self.friends_of(q)
        comp_of = {}
        comps = []
        # In team play a teammate's fleets carry q's troops too (R22, queries.fleet_chain_lands).
        seas = [a for x in sorted(friends) for a in self.seas[x]]
        for sea in seas:
            if sea in comp_of or not fleets[sea]:
                continue
            k = len(comps)
            todo, lands = [sea], set()
            comp_of[sea] = k
            while todo:
                x = todo.pop()
                lands.update(coast[x])
                for y in sea_adj[x]:
                    if y not in comp_of and ctrl[y] in friends and fleets[y]:
                        comp_of[y] = k
                        todo.append(y)
            comps.append(lands)
        out = {}
        units, land_adj = self.units, b.land_adj
        for a in self.lands[q]:
            if not units[a]:
                continue
            r = set(land_adj[a])
            if comps:
                for sea in coast[a]:
                    k = comp_of.get(sea)
                    if k is not None:
                        r |= comps[k]
            r.discard(a)
            out[a] = r
        return out

    def threats(self):
        """area -> (units of the strongest single enemy origin that can reach it, that enemy)."""
        if self._threat is not None:
            return self._threat
        ctrl = self.g.state.ctrl
        units = self.units
        threat = {}
        none = (0, -1)
        for q in range(self.n):
            friends = self.friends_of(q)
            for a, targets in self.reach(q, friends).items():
                u = units[a]
                for x in targets:
                    # Teammates never fight each other (R22): a friend's area is no target.
                    if ctrl[x] not in friends and u > threat.get(x, none)[0]:
                        threat[x] = (u, q)
        self._threat = threat
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
    pos = pos or Position(g)
    out = []
    caps = g.rules.score_caps_at_goal
    for p in range(s.n):
        if s.eliminated[p]:
            out.append(-500.0 if not g.teams else 0.0)
            continue
        keeper = g.purse_holder(p) == p
        metros = pos.metros[p]
        if caps:  # classic (R21): a Metropolis past the goal does not count
            metros = min(metros, g.goal)
        v = METRO * metros
        types = len(pos.side_types[p]) if keeper else 0
        v += BUILD_SET[min(types, 3)] + DUPLICATE * pos.dups[p]
        v += PHILO[min(s.philosophers[p], 3)]
        v += g.purse(p) if g.purse_holder(p) == p else 0
        v += PRIESTESS * s.priestesses[p] + INCOME * pos.income[p]
        v += TROOP * pos.troops[p] + FLEET * pos.fleets[p] + HERO * pos.heroes[p]
        v += CREATURE * pos.creatures[p]
        v += LAND * len(pos.lands[p]) + SEA * len(pos.seas[p]) + FREE_SITE * min(pos.free[p], 3)
        risk = 0.0
        for a in pos.lands[p]:
            r = pos.risk(a)
            if r:
                risk += r * pos.stake(a)
        out.append(v - RISK * risk)
    return out


def sides(g) -> list:
    """The side of each faction: its team in team play (R22), else itself."""
    return list(g.teams) if g.teams else list(range(g.state.n))


def side_values(g, vals) -> dict:
    """side -> its value: a team's members added up (R22), else a player's own."""
    out = {}
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


def win_chances(g, vals=None) -> list:
    """Per-player rewards in [0, 1]: the result if the game is over (a shared win is shared
    between the winning sides), else a softmax of the sides' values. In team play a side is a
    team and each member's reward is its team's: a team's win is a win for each member, so the
    search backs up the team's value (the rewards then sum to one per side, not per player)."""
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
    ex = {t: math.exp((v - top) / TEMPERATURE) for t, v in sv.items()}
    tot = sum(ex.values())
    return [ex[side[p]] / tot for p in range(s.n)]


def guess_purse(rng, q, view) -> int:
    """A plausible purse for a player whose GP are hidden: about a cycle's income and a bit,
    and never less than what the offering they have already made will cost them (R11)."""
    income = sum(a.get("prosperity", 0) for a in view["areas"] if a["owner"] == q) + 2
    guess = max(0, int(rng.gauss(income + 2, 2)))
    priestesses = view["players"][q]["priestesses"]
    # R23: with two offering markers both standing offerings are paid together.
    mine = [god["bid"]["amount"] for god in view["gods"] if god.get("bid") and god["bid"]["player"] == q]
    if mine:
        guess = max(guess, len(mine), sum(mine) - priestesses)
    return guess


def sample(obs, rng):
    """A game consistent with the observation (`Observation.determinize`), the hidden purses
    guessed by `guess_purse`; determinize raises them to pay the offerings already made (R11,
    R22: a team's purse pays its members' offerings together)."""
    return obs.determinize(rng, purse=guess_purse)


def missing_types(pos, p) -> list:
    return [k for k in BUILDINGS if k not in pos.types[p]]
