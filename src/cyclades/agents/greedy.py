"""The greedy agent: a heuristic player that plays the game's strategy, one decision at a time.

It bids what a god is worth to it (the god's building toward a set, its recruit, the attacks
its moves allow) against what the others are likely to pay, and goes to Apollo when the gods
cost more than they give; it builds toward a Metropolis (the types it lacks, Philosophers when
they pay), puts its buildings and Metropolises where they are safe, defends the areas an enemy
can take, attacks where the die favours it (units and Fortresses compared: evaluation.attack_odds),
buys creatures and recruits heroes when they pay off, and sacrifices heroes for Metropolises.

`GreedyPolicy.decide(game, player)` decides on a full game: the agent gives it a game
determinized from its observation (so it never sees a hidden fact), and `mcts` runs it for every
player in its rollouts. Decisions it has no rule for (new creature or hero choices) are made by
looking one sequence ahead: each action is tried on a copy and the position valued.

Every mode: the numbers of the rules come from the game (`g.rules`, the ruleset, and `g.goal`): the
minimum payment and the cap of an offering, what Apollo gives, the Philosophers a Metropolis
needs, what a building costs where buildings are bought (classic), the Metropolises that win.
In team play (R22) a teammate is not a rival: greedy values its team's position (evaluation.py),
never bids against its partner when it has another choice (R29 allows it; it does not want to),
counts the team's buildings together toward a Metropolis and plans no attack through a partner
(whose areas it may pass but not take).
"""
from __future__ import annotations

import random
from typing import Any

from ..content.cards import CREATURES
from ..content.gods import APOLLO, BUILDINGS, GODS, METROPOLIS
from ..engine.frames import nearest
from ..engine.moves import land_destinations, sea_destinations
from ..engine.offerings import offerings_cost, own_bids
from ..engine.queries import heroes_at
from . import evaluation as ev
from .base import Agent, number_option
from .evaluation import Position, attack_odds, expected_losses

# Rough worth of each creature's effect (before its cost), for the cards with no rule of their
# own below; a card missing here is valued by looking ahead.
CREATURE_WORTH = {c: card.worth for c, card in CREATURES.items()}  # `worth` on content/cards.py
KEEP_WORTH = {c: card.keep_worth for c, card in CREATURES.items()}  # `keep_worth`, likewise
APOLLO_PROSPERITY = 2 * ev.INCOME * 0.8
RESERVE_GP = 1.0          # how much a GP kept is worth beyond its face (next cycle's bids)
MAX_LOOKAHEAD = 40        # copies a decision may make to look ahead


class Ctx:
    """One decision's reading of the position for player p (computed lazily)."""

    __slots__ = ("_plans", "_pos", "apollo", "f", "g", "gods", "p", "surplus")

    def __init__(self, g, p, apollo=1.0, gods=1.0, surplus=0):
        self.g, self.p = g, p
        self.apollo = apollo    # the weight of Apollo's reward (GreedyPolicy's `apollo`)
        self.gods = gods        # the weight of a god's worth (GreedyPolicy's `gods`)
        self.surplus = surplus  # GP held past it are worth nothing more (0: no limit; purse_worth)
        self.f = g.state.stack[-1] if g.state.stack else None
        self._pos = None
        self._plans = {}

    @property
    def pos(self) -> Position:
        if self._pos is None:
            self._pos = ev.position(self.g)  # shared with every game of the same content
        return self._pos

    @property
    def gp(self) -> int:
        """What p may spend: its purse (a team's, R22) less what a teammate's offering needs."""
        return self.g.purse(self.p) - self.g.committed(self.p)

    def friend(self, q) -> bool:
        """q is p or p's teammate (R22): not a rival."""
        return self.g.friends(self.p, q)


# --- building, recruiting, areas -----------------------------------------------------------------

def building_gain(ctx, kind, p=None) -> float:
    """What one more `kind` building is worth to p (toward the set of four, or as a spare)."""
    p = ctx.p if p is None else p
    types = ctx.pos.side_types[p]  # R22: a team's four types build its Metropolis
    if kind in types:
        gain = ev.DUPLICATE
    else:
        n = len(types)
        gain = ev.METRO - ev.BUILD_SET[3] if n == 3 else ev.BUILD_SET[n + 1] - ev.BUILD_SET[n]
    if kind == "fortress":
        gain += 1.5
    elif kind == "port":
        gain += 0.5
    return gain


def philosopher_gain(ctx, p=None, extra=0) -> float:
    p = ctx.p if p is None else p
    need = ctx.g.rules.philosophers_for_metropolis
    n = ctx.g.state.philosophers[p] + extra
    if n >= need:
        return ev.PHILO[1]
    if n == need - 1:
        return ev.METRO - ev.PHILO[min(n, 3)]
    return ev.PHILO[min(n + 1, 3)] - ev.PHILO[min(n, 3)]


def stake_for(ctx, a, p) -> float:
    """What controlling land area a would be worth to p: its Metropolises, its buildings
    (those of types p lacks most), its income and the Priestess icon."""
    g, pos = ctx.g, ctx.pos
    b, s = g.board, g.state
    v = ev.METRO * pos.metros_in[a] + ev.INCOME * pos.income_of[a] + ev.LAND
    kinds = set()
    for i in b.sites_of(a):
        k = s.sites[i]
        if k and k != METROPOLIS:
            v += ev.DUPLICATE if (k in pos.side_types[p] or k in kinds) else building_gain(ctx, k, p)
            kinds.add(k)
    if b.priestess[a]:
        v += ev.PRIESTESS
    return v


def defence_gain(ctx, a, extra=1) -> float:
    """How much `extra` more units in p's land area a lower the value at risk there."""
    pos = ctx.pos
    t = pos.threats().get(a)
    if not t:
        return 0.0
    before = attack_odds(t[0], pos.units[a], -pos.fort[a])
    after = attack_odds(t[0], pos.units[a] + extra, -pos.fort[a])
    return ev.RISK * (before - after) * pos.stake(a)


def area_risk(ctx, a, units) -> float:
    pos = ctx.pos
    t = pos.threats().get(a)
    if not t:
        return 0.0
    return attack_odds(t[0], units, -pos.fort[a])


def safety(ctx, a) -> float:
    """Higher is safer: for placing buildings and Metropolises."""
    pos = ctx.pos
    return -4.0 * area_risk(ctx, a, pos.units[a]) + 0.3 * pos.units[a] + 0.5 * pos.fort[a] \
        + 0.2 * ctx.g.board.sites[a]


def enemy_weight(ctx, q) -> float:
    """How much hurting q is worth to p per GP of q's loss; nothing for a teammate (R22)."""
    return 0.0 if ctx.friend(q) else 0.5


# --- land and sea moves --------------------------------------------------------------------------

class Plan:
    __slots__ = ("dest", "frm", "h", "m", "t", "value")

    def __init__(self, value, frm, t, m, h, dest):
        self.value, self.frm, self.t, self.m, self.h, self.dest = value, frm, t, m, h, dest


def _split(k, troops, mercs, heroes):
    """k units from an area: troops first, then mercenaries, then heroes."""
    t = min(k, troops)
    m = min(k - t, mercs)
    h = tuple(heroes[:k - t - m])
    return t, m, h


def land_plans_from(ctx, frm, hero="", taken=None) -> list:
    """Plans of a Land Move (or Heroic Move with `hero`) from frm; `taken` fixes (t, m, h)."""
    g, p, pos = ctx.g, ctx.p, ctx.pos
    s = g.state
    troops, mercs = s.troops[frm], s.mercs[frm]
    heroes = [h for h in heroes_at(g, frm) if h != hero]
    heroes.sort()
    total = troops + mercs + len(heroes) + (1 if hero else 0)
    if total <= 0:
        return []
    dests = land_destinations(g, p, frm, hero)
    if not dests:
        return []
    stay_risk_now = area_risk(ctx, frm, pos.units[frm]) * pos.stake(frm)
    out = []
    threats = pos.threats()
    for d in dests:
        q = s.ctrl[d]
        if taken is not None:
            options = [taken]
        else:
            options = []
            low = 1
            for k in range(low, total + 1):
                if hero:
                    t, m, h = _split(k - 1, troops, mercs, heroes)
                    h = (hero,) + h
                else:
                    t, m, h = _split(k, troops, mercs, heroes)
                options.append((t, m, h))
        for t, m, h in options:
            k = t + m + len(h)
            if k <= 0:
                continue
            left = pos.units[frm] - k
            leave_cost = ev.RISK * (area_risk(ctx, frm, left) * pos.stake(frm) - stay_risk_now)
            if left <= 0 and threats.get(frm):
                leave_cost += 0.5 * pos.stake(frm) * ev.RISK
            if ctx.friend(q):  # p's own area (a teammate's is passed through, never taken)
                gain = defence_gain(ctx, d, k) - 0.2
            elif q >= 0 and pos.units[d] > 0:
                odds = attack_odds(k, pos.units[d], -pos.fort[d])
                gain = odds * (stake_for(ctx, d, p) + enemy_weight(ctx, q) * pos.stake(d)) \
                    - ev.TROOP * expected_losses(k, pos.units[d], -pos.fort[d])
                # What is left after the battle, if won, is exposed to the others.
                gain -= odds * ev.RISK * area_risk(ctx, d, max(1, k // 2)) * stake_for(ctx, d, p) * 0.5
            else:
                gain = stake_for(ctx, d, p) + (enemy_weight(ctx, q) * pos.stake(d) if q >= 0 else 0.0)
                gain -= ev.RISK * area_risk(ctx, d, k) * stake_for(ctx, d, p)
                gain -= 0.05 * k  # no more units than needed
            out.append(Plan(gain - leave_cost, frm, t, m, h, d))
    return out


def best_land_plan(ctx, hero="", frm=None, taken=None):
    key = (hero, frm, taken)
    if key in ctx._plans:
        return ctx._plans[key]
    g, p = ctx.g, ctx.p
    # The best plan depends only on what the Position's key holds (units, control, buildings,
    # creatures, heroes: all that land_destinations and its hooks read), p and the goal (R19).
    memo = ctx.pos.memo
    mkey = ("land", p, hero, frm, taken, g.goal)
    if mkey in memo:
        ctx._plans[key] = memo[mkey]
        return memo[mkey]
    if frm is not None:
        origins = [frm]
    elif hero:
        origins = [g.state.hero_at[hero]] if hero in g.state.hero_at else []
    else:
        origins = [a for a in ctx.pos.lands[p] if ctx.pos.units[a] and (g.state.troops[a] or g.state.mercs[a]
                                                                          or ctx.pos.hero_count[a])]
    best = None
    for a in origins:
        for plan in land_plans_from(ctx, a, hero, taken):
            if best is None or plan.value > best.value:
                best = plan
    ctx._plans[key] = memo[mkey] = best
    return best


def sea_plans(ctx, frm=None, n=None) -> list:
    g, p, pos = ctx.g, ctx.p, ctx.pos
    s = g.state
    out = []
    origins = [frm] if frm is not None else [a for a in pos.seas[p] if s.fleets[a]]
    for a in origins:
        fleets = s.fleets[a]
        dests = sea_destinations(g, p, a)
        for d in dests:
            q = s.ctrl[d]
            counts = [n] if n else range(1, fleets + 1)
            for k in counts:
                leave = 0.0
                if k == fleets:
                    leave = ev.INCOME * pos.income_of[a] + ev.SEA
                if q >= 0 and not ctx.friend(q) and s.fleets[d]:
                    bonus = _ports(g, pos, d, p) - _ports(g, pos, d, q)
                    odds = attack_odds(k, s.fleets[d], bonus)
                    gain = odds * (ev.INCOME * pos.income_of[d] + ev.SEA + enemy_weight(ctx, q)
                                   * ev.FLEET * s.fleets[d]) \
                        + odds * enemy_weight(ctx, q) * ev.FLEET * s.fleets[d] \
                        - ev.FLEET * expected_losses(k, s.fleets[d], bonus)
                elif ctx.friend(q):
                    gain = -0.1
                else:
                    gain = ev.INCOME * pos.income_of[d] + ev.SEA + 0.3 * _bridge(g, pos, p, d)
                out.append((gain - leave, a, k, d))
    return out


def _ports(g, pos, sea, q) -> int:
    return sum(pos.ports[x] for x in g.board.coast[sea] if g.state.ctrl[x] == q)


def _bridge(g, pos, p, sea) -> float:
    """A sea next to enemy land areas worth taking: a fleet there is a bridge for an attack."""
    s = g.state
    v = 0.0
    for x in g.board.coast[sea]:
        q = s.ctrl[x]
        if q >= 0 and not g.friends(p, q):
            v += pos.buildings_in[x] + 2 * pos.metros_in[x]
    return min(v, 4.0)


def best_sea_plan(ctx, frm=None, n=None):
    # Depends only on what the Position's key holds (fleets, control, the creatures that
    # block or link seas) and p: kept with the Position (greedy's `memo`).
    memo = ctx.pos.memo
    key = ("sea", ctx.p, frm, n)
    if key not in memo:
        plans = sea_plans(ctx, frm, n)
        memo[key] = max(plans, key=_gain) if plans else None
    return memo[key]


def _gain(plan):
    return plan[0]


# --- gods ---------------------------------------------------------------------------------------

def next_face_up(g) -> list:
    s = g.state
    gods = s.gods[1:] + s.gods[:1]
    return gods[:s.faceup]


def hera_building(ctx, p=None):
    """The type Hera (or a bonus) should build: one p lacks whose god comes up least soon."""
    p = ctx.p if p is None else p
    soon = {GODS[god].building for god in next_face_up(ctx.g) if god in GODS}
    best, score = None, None
    for k in BUILDINGS:
        if k in ctx.pos.side_types[p]:
            continue
        v = building_gain(ctx, k, p) + (0 if k in soon else 1.0)
        if score is None or v > score:
            best, score = k, v
    return best


def god_value(ctx, god, p=None, gp_left=None) -> float:
    """What winning `god` this cycle is worth to p, with `gp_left` GP after the offering
    (weighed by the decision's `gods`: 1, as counted)."""
    g = ctx.g
    p = ctx.p if p is None else p
    gp_left = g.purse(p) - g.committed(p) if gp_left is None else gp_left
    if god == APOLLO:
        return apollo_value(ctx, p)
    # bid_plan asks the same values again and again (each amount, each rival): kept for the
    # decision (the game does not change during one).
    key = ("god", god, p, gp_left)
    v = ctx._plans.get(key)
    if v is None:
        v = ctx._plans[key] = ctx.gods * _god_value(ctx, god, p, gp_left)
    return v


def _god_value(ctx, god, p, gp_left) -> float:
    g = ctx.g
    info = GODS[god]
    has_site = ctx.pos.free[p] > 0
    kind = info.building or hera_building(ctx, p)
    v = 0.0
    if kind:
        if g.rules.free_build:
            v += building_gain(ctx, kind, p) * (1.0 if has_site else 0.25)
        elif has_site and gp_left >= g.rules.building_cost:  # classic: bought, 2 GP each
            v += max(0.0, building_gain(ctx, kind, p) - g.rules.building_cost)
    unit = info.recruit
    if unit == "philosopher":
        v += philosopher_gain(ctx, p)
        cost = info.paid_costs[0] if info.paid_costs else 4
        if gp_left >= cost:
            v += max(0.0, philosopher_gain(ctx, p, extra=1) - cost)
    elif unit == "priestess":
        v += ev.PRIESTESS
    elif unit == "fleet":
        v += ev.FLEET
        if p == ctx.p and gp_left >= 1:
            plan = best_sea_plan(ctx)
            if plan and plan[0] > 1:
                v += plan[0] - 1
    elif unit == "troop":
        v += ev.TROOP
        if p == ctx.p and gp_left >= 1:
            plan = best_land_plan(ctx)
            if plan and plan.value > 1:
                v += plan.value - 1
    elif unit == "merc":
        v += ev.TROOP
        if g.rules.heroes and gp_left >= 4 and any(g.state.hero_track):
            v += 1.5
    if god != "hera" and gp_left >= 2 and p == ctx.p:
        v += 0.5 * best_creature(ctx, gp_left)[0]
    return v


def apollo_value(ctx, p) -> float:
    """What going to Apollo gives p (R9): Legendary, the ruleset's GP and a Prosperity token on
    a land and a sea area; classic, 1 GP (4 with a single isle) and one token on a land area for
    the first player there only. Weighed by the decision's `apollo` (1: as counted). The GP and
    the income the tokens bring are worth what purse_worth says: nothing to a player who
    already holds its `surplus`."""
    g = ctx.g
    if g.rules.apollo == "classic":
        gp = 4 if len(ctx.pos.lands[p]) == 1 else g.rules.apollo_gp
        tokens = ev.INCOME * 0.8 if not g.state.apollo else 0.0  # the first player there only
    else:
        gp, tokens = g.rules.apollo_gp, APOLLO_PROSPERITY
    if ctx.surplus:
        have = _est_purse(g, p)
        if have + gp >= ctx.surplus:
            tokens = 0.0  # more income to a player who cannot spend what it has
        gp = purse_worth(ctx, have + gp) - purse_worth(ctx, have)
    return ctx.apollo * (gp + tokens)


def purse_worth(ctx, gp) -> float:
    """What holding `gp` GP is worth to the decision's player, in GP: each at its face up to
    the decision's `surplus` and nothing past it (no limit when it is 0). Counted at their face
    without limit, greedy players end a game holding 40 GP or more they never spent, having
    gone to Apollo for more (docs/learned-player.md)."""
    return float(min(gp, ctx.surplus) if ctx.surplus else gp)


def price(ctx, have, cost) -> float:
    """What paying `cost` GP out of the `have` the decision's player may spend (Ctx.gp) is
    worth to it: the cost itself, less what of it is surplus (purse_worth)."""
    return purse_worth(ctx, have) - purse_worth(ctx, have - cost)


def best_creature(ctx, budget):
    """(net worth, card) of the best creature of the track within budget."""
    from ..engine.creatures import EFFECTS, creature_cost, temples
    g, p = ctx.g, ctx.p
    best = (0.0, None)
    free_temples = None  # counted once, at the first card on sale (as the engine does)
    for slot, c in enumerate(g.state.creature_track):
        if c is None or c not in EFFECTS or g.state.reserved.get(c, p) != p:
            continue
        if free_temples is None:
            free_temples = temples(g, p)
        cost, _ = creature_cost(g, p, slot, free_temples)
        if cost > budget:
            continue
        v = creature_worth(ctx, c) - cost
        if v > best[0]:
            best = (v, c)
    return best


def creature_worth(ctx, c) -> float:
    """What a creature's effect is worth to p now (rules for the cards that matter most)."""
    g, p, pos = ctx.g, ctx.p, ctx.pos
    s = g.state
    if c not in _NEEDS_RIVALS:
        others: list[int] = []  # (the rivals are read by three cards only)
    else:
        others = [q for q in range(s.n) if not ctx.friend(q) and not s.eliminated[q]]  # rivals
    if c == "satyr":
        if not any(s.philosophers[q] for q in others):
            return 0.0
        return philosopher_gain(ctx) + 3.0
    if c == "triton":
        mine = pos.side_types[p]
        gain = 0.0
        for q in others:
            for k in pos.types[q]:
                if k not in mine:
                    gain = max(gain, building_gain(ctx, k) + 3.0)
        return gain
    if c == "cyclops":
        if pos.dups[p] and len(pos.side_types[p]) < 4:
            return building_gain(ctx, ev.missing_types(pos, p)[0]) - ev.DUPLICATE
        return 0.0
    if c == "hippalectryon":
        mercs = sum(s.mercs[a] for a in pos.lands[p])
        return philosopher_gain(ctx) - 2 * ev.TROOP if mercs >= 2 else 0.0
    if c == "graeae":
        return float(pos.income[p])
    if c == "empusa":
        f = nearest(g, "turn")
        if f and f["god"] in GODS:
            return 0.7 * god_value(ctx, f["god"], gp_left=0)
        return 0.0
    if c == "pegasus":
        return _pegasus_worth(ctx)
    if c == "dryad":
        return 4.0 if any(s.priestesses[q] for q in others) else 0.0
    if c == "griffin":
        return 3.0
    return CREATURE_WORTH.get(c, 1.0)


_NEEDS_RIVALS = frozenset(("satyr", "triton", "dryad"))


def _pegasus_worth(ctx) -> float:
    """Pegasus moves troops anywhere: the best attack on any enemy land area."""
    g, p, pos = ctx.g, ctx.p, ctx.pos
    s = g.state
    mine = [a for a in pos.lands[p] if s.troops[a] + s.mercs[a]]
    if not mine:
        return 0.0
    frm = max(mine, key=lambda a: s.troops[a] + s.mercs[a])
    k = s.troops[frm] + s.mercs[frm]
    best = 0.0
    for d in g.board.lands:
        q = s.ctrl[d]
        if q < 0 or ctx.friend(q):
            continue
        odds = attack_odds(k, pos.units[d], -pos.fort[d])
        best = max(best, odds * stake_for(ctx, d, p) - ev.TROOP * expected_losses(k, pos.units[d], -pos.fort[d]))
    return best


# --- the policy -------------------------------------------------------------------------------

class GreedyPolicy:
    """Decides on a full game for any player; see the module's docstring."""

    def __init__(self, lookahead=True, budget=MAX_LOOKAHEAD, depth=2, apollo=1.0, gods=1.0,
                 surplus=0):
        self.lookahead = lookahead
        # The weights of Apollo's reward and of the gods' worth (its own and, guessing their
        # bids, its rivals') in the offering (and of the god an Empusa takes): 1 counts them as
        # counted; Apollo's below 1, or the gods' above, goes to Apollo less often
        # (docs/learned-player.md measures both). `surplus`: the GP past which a GP more is
        # worth nothing (what it pays, what Apollo gives: purse_worth; 0, no limit).
        self.apollo = apollo
        self.gods = gods
        self.surplus = surplus
        self.max_budget = budget  # copies a decision may make to look ahead
        self.max_depth = depth    # how many decisions of a sequence deep it looks
        self._budget = 0          # copies the current decision may still make

    def decide(self, g, p=None, legal=None, depth=0):
        p = g.to_move if p is None else p
        legal = g.legal_actions() if legal is None else legal
        if len(legal) == 1:
            return legal[0]
        if depth == 0:
            self._budget = self.max_budget
        scored = self.score(g, p, legal, depth)
        best, top = legal[0], None
        for a, v in zip(legal, scored):
            if top is None or v > top:
                best, top = a, v
        return best

    def ranked(self, g, p=None, legal=None, ctx=None) -> list:
        """The legal actions, best first (for search: the order to try them in). `ctx`: the
        decision's Ctx(g, p), if the caller has one (what it worked out is shared)."""
        p = g.to_move if p is None else p
        legal = g.legal_actions() if legal is None else legal
        if len(legal) <= 1:
            return list(legal)
        self._budget = self.max_budget
        scored = self.score(g, p, legal, 0, ctx)
        order = sorted(range(len(legal)), key=lambda i: -scored[i])
        return [legal[i] for i in order]

    def context(self, g, p) -> Ctx:
        """A decision's reading of the position for p, with this policy's weights."""
        return Ctx(g, p, self.apollo, self.gods, self.surplus)

    def score(self, g, p, legal, depth=0, ctx=None) -> list:
        ctx = ctx or self.context(g, p)
        f = ctx.f
        fn = _FRAMES.get(f["kind"]) if f else None
        if fn is not None:
            out = fn(self, ctx, legal, depth)
            if out is not None:
                return out
        return self.generic(ctx, legal, depth)

    # -- decisions with no rule of their own: look one sequence ahead ---------------------

    def generic(self, ctx, legal, depth) -> list:
        scores = [-1000.0 if a.kind == "cancel" else 0.0 for a in legal]
        if not self.lookahead or depth >= self.max_depth or len(legal) > self._budget:
            return scores
        g, p = ctx.g, ctx.p
        base = len(g.state.stack)
        for i, a in enumerate(legal):
            if a.kind == "cancel":
                continue
            scores[i] = self.after(g, p, a, base, depth)
        return scores

    def after(self, g, p, a, base, depth) -> float:
        """The relative value for p of the position once `a` and p's next decisions of the same
        sequence are made."""
        self._budget -= 1
        h = g.copy()
        h.apply(a)
        for _ in range(12):
            if h.is_over or h.to_move != p or len(h.state.stack) < base:
                break
            top = h.state.stack[-1]
            if top["kind"] in ("turn", "offer") or len(h.state.stack) < base:
                break
            if depth + 1 >= self.max_depth and top["kind"] not in _FRAMES:
                # What decide would do: no rule and no look-ahead left, so every action scores
                # 0 but cancel; the first other one.
                legal = h.legal_actions()
                h.apply(next((x for x in legal if x.kind != "cancel"), legal[0]))
                continue
            h.apply(self.decide(h, p, depth=depth + 1))
        return ev.relative(ev.values(h), p, h)


# --- frame by frame ---------------------------------------------------------------------------

def _placement(pol, ctx, legal, depth):
    g, p = ctx.g, ctx.p
    s, b = g.state, g.board
    f = ctx.f
    out = []
    if f["step"] == "land":
        for a in legal:
            x = b.index[a.where]
            v = 3.0 * b.sites[x] + 4.0 * b.cornucopias[x] + 3.0 * b.priestess[x]
            v += 0.5 * len(b.islands[b.island[x]])
            v += sum(b.cornucopias[y] for y in b.coast[x]) + 0.5 * len(b.coast[x])
            for y in b.land_adj[x]:
                q = s.ctrl[y]
                if q >= 0 and not g.friends(p, q):
                    v -= 2.5
                elif q >= 0:
                    v += 1.0
            out.append(v)
        return out
    if f["step"] == "fleet":
        mine = set(a for a in b.lands if s.ctrl[a] == p)
        for a in legal:
            x = b.index[a.where]
            v = 2.0 * b.cornucopias[x] + 0.3 * len(b.sea_adj[x])
            v += sum(1.0 for y in b.coast[x] if y in mine)
            v += 0.5 * sum(1 for y in b.coast[x] if s.ctrl[y] >= 0 and not g.friends(p, s.ctrl[y]))
            out.append(v)
        return out
    for a in legal:  # troops: where they defend most
        x = b.index[a.where]
        v = -3.0 * s.troops[x] + 0.5 * b.sites[x] + 0.5 * b.cornucopias[x]
        v += 2.0 * sum(1 for y in b.land_adj[x] if s.ctrl[y] >= 0 and not g.friends(p, s.ctrl[y]))
        out.append(v)
    return out


def _offering(pol, ctx, legal, depth):
    plan = bid_plan(ctx, legal)
    out = []
    for a in legal:
        if a.kind == "apollo":
            out.append(plan["apollo"])
        elif a.kind == "bid":
            want = plan.get(a.what)
            if want is None:
                out.append(-100.0)
            else:
                amount, net = want
                out.append(net - abs(a.n - amount) * 0.5)
        else:
            out.append(-50.0)
    return out


def bid_plan(ctx, legal) -> dict:
    """For each god on offer: (amount to bid, net worth), and Apollo's worth."""
    g, p = ctx.g, ctx.p
    s = g.state
    gp = ctx.gp
    gods = sorted({a.what for a in legal if a.kind == "bid"})
    low: dict[str, int] = {}
    for a in legal:
        if a.kind == "bid":
            low[a.what] = min(low.get(a.what, 99), a.n)
    top = {god: max(a.n for a in legal if a.kind == "bid" and a.what == god) for god in gods}
    apollo = god_value(ctx, APOLLO) + RESERVE_GP * 0  # its GP are counted in the value
    plan: dict[str, Any] = {"apollo": apollo}
    f = ctx.f
    # The rivals who may still bid: a teammate is none (R22).
    later = set(f.get("queue", ())) | {q for q, _ in s.bids.values()}
    later = {q for q in later if not ctx.friend(q)}
    for god in gods:
        held = s.bids.get(god)
        if held and held[0] != p and ctx.friend(held[0]):
            continue  # R29 allows outbidding a teammate; greedy does not want to
        lo = low[god]
        # What the others would pay for this god at most (their worth over Apollo).
        rival = 0.0
        for q in later:
            if s.eliminated[q]:
                continue
            w = god_value(ctx, god, p=q, gp_left=max(0, _est_purse(g, q) - lo)) - god_value(ctx, APOLLO, p=q)
            w = min(w, _est_purse(g, q) + s.priestesses[q])
            rival = max(rival, w)
        best = None
        for amount in range(lo, top[god] + 1):
            cost = price(ctx, gp, offering_cost(g, p, amount))  # R12 (R23: with p's other offering)
            v = god_value(ctx, god, gp_left=gp - offerings_cost(g, p, own_bids(g, p) + [amount]))
            net = v - cost - RESERVE_GP * cost * 0.1
            safe = amount > rival
            score = net + (2.0 if safe else 0.0)
            if best is None or score > best[0]:
                best = (score, amount, net)
            if safe and amount > lo + 1:
                break
        if best:
            plan[god] = (best[1], best[2] + (1.0 if best[1] > rival else -0.3 * min(rival - best[1], 6)))
    return plan


def offering_cost(g, p, amount) -> int:
    """What an offering of `amount` adds to what p pays (R12: at least the ruleset's minimum,
    less a GP per Priestess; R23: the discount is shared with p's other standing offering)."""
    mine = own_bids(g, p)
    return offerings_cost(g, p, mine + [amount]) - offerings_cost(g, p, mine)


def _est_purse(g, q) -> int:
    return g.purse(q) - g.committed(q)


def _turn(pol, ctx, legal, depth):
    g, p = ctx.g, ctx.p
    s = g.state
    gp = ctx.gp
    out = []
    surplus = ctx.surplus
    for a in legal:
        k = a.kind
        paid = price(ctx, gp, a.n) if surplus else a.n  # what the action's cost (its n) is worth to p
        if k == "end_turn":
            out.append(0.0)
        elif k == "recruit":
            out.append(recruit_worth(ctx, a.what) - paid - RESERVE_GP * 0.2 * paid)
        elif k == "land_move":
            plan = best_land_plan(ctx)
            out.append(plan.value - paid - 0.8 if plan else -5.0)
        elif k == "heroic_move":
            plan = best_land_plan(ctx, hero=a.what)
            out.append(plan.value - paid - 0.8 if plan else -5.0)
        elif k in ("sea_move", "fleet_move"):  # fleet_move: classic Poseidon's voyage (R17)
            plan = best_sea_plan(ctx)
            out.append(plan[0] - paid - 0.8 if plan else -5.0)
        elif k == "build" and a.where:  # classic: a building bought for its cost (2 GP)
            out.append(building_gain(ctx, a.what) - paid - RESERVE_GP * 0.2 * paid
                       + 0.1 * safety(ctx, g.board.index[a.where]))
        elif k == "swap_creature":  # classic Zeus: a new card for 1 GP, rarely worth it
            out.append(-1.5)
        elif k == "buy_creature":
            out.append(creature_worth(ctx, a.what) - paid - 0.5)
        elif k == "recruit_hero":
            out.append(ev.HERO + 1.0 - paid + (1.0 if gp >= 8 else -1.0))
        elif k == "peek":
            out.append(0.5 if gp >= 1 else -1.0)
        elif k == "sacrifice":
            if pol.lookahead and depth < pol.max_depth and pol._budget > 0:
                base = ev.relative(ev.values(g), p, g)
                out.append(pol.after(g, p, a, len(s.stack), depth) - base - 0.5)
            else:
                out.append(5.0)
        elif k == "cancel":
            out.append(-1000.0)
        elif pol.lookahead and depth < pol.max_depth and pol._budget > 0:
            base = ev.relative(ev.values(g), p, g)
            out.append(pol.after(g, p, a, len(s.stack), depth) - base - 0.5)
        else:
            out.append(-1.0)
    return out


def recruit_worth(ctx, unit) -> float:
    g, p = ctx.g, ctx.p
    if unit == "philosopher":
        return philosopher_gain(ctx)
    if unit == "priestess":
        return ev.PRIESTESS + 0.5
    if unit in ("troop", "merc"):
        v = ev.TROOP
        # The most a unit adds to the defence of p's lands: the Position's alone (kept with it).
        memo = ctx.pos.memo
        defend = memo.get(("defend", p))
        if defend is None:
            defend = memo[("defend", p)] = max((defence_gain(ctx, a) for a in ctx.pos.lands[p]), default=0.0)
        attack = 0.0
        f = nearest(g, "turn")
        if f and f["god"] == "ares" and g.purse(p) >= 1:
            plan = best_land_plan(ctx)
            if plan:
                attack = _extra_unit_gain(ctx, plan)
        return v + max(defend, attack)
    if unit == "fleet":
        return ev.FLEET + 0.5
    return 1.0


def _extra_unit_gain(ctx, plan) -> float:
    """How much one more unit would add to an attack plan."""
    pos, g = ctx.pos, ctx.g
    d = plan.dest
    if g.state.ctrl[d] in (-1, ctx.p) or not pos.units[d]:
        return 0.0
    k = plan.t + plan.m + len(plan.h)
    odds0 = attack_odds(k, pos.units[d], -pos.fort[d])
    odds1 = attack_odds(k + 1, pos.units[d], -pos.fort[d])
    return (odds1 - odds0) * stake_for(ctx, d, ctx.p)


def _build(pol, ctx, legal, depth):
    g, p, pos = ctx.g, ctx.p, ctx.pos
    b = g.board
    out = []
    for a in legal:
        if a.kind == "choose_building":
            out.append(10.0 if a.what == hera_building(ctx) else building_gain(ctx, a.what))
        elif a.kind == "build":
            x = b.index[a.where]
            out.append(safety(ctx, x) + 0.3 * len(pos.types[p]) * 0)
        elif a.kind == "forgo":
            out.append(-3.0)
        elif a.kind == "replace":
            new = ctx.f["building"]
            x = b.index[a.where]
            gain = building_gain(ctx, new) - _loss_of_building(ctx, a.what)
            out.append(gain - 3.0 + 0.1 * safety(ctx, x))
        else:
            out.append(-100.0)
    return out


def _loss_of_building(ctx, kind) -> float:
    p, pos = ctx.p, ctx.pos
    if pos.dups[p] and _count_of(ctx, kind) > 1:
        return ev.DUPLICATE
    n = len(pos.side_types[p])
    return ev.BUILD_SET[min(n, 3)] - ev.BUILD_SET[max(0, min(n, 3) - 1)]


def _count_of(ctx, kind) -> int:
    from ..engine.queries import buildings_of
    return sum(1 for _, k in buildings_of(ctx.g, ctx.p, (kind,)))


def _place_unit(pol, ctx, legal, depth):
    g, p, pos = ctx.g, ctx.p, ctx.pos
    b, s = g.board, g.state
    out = []
    plan = None
    f = nearest(g, "turn")
    if f and f["player"] == p and f["god"] == "ares":
        plan = best_land_plan(ctx)
    # An area's worth (before the attack plan) depends only on the Position and p: kept with it.
    worth = pos.memo.get(("place_unit", p))
    if worth is None:
        worth = pos.memo[("place_unit", p)] = {}
    for a in legal:
        x = b.index[a.where]
        fleet = a.kind == "place_fleet"
        v = worth.get((fleet, x))
        if v is None:
            if fleet:
                v = 1.0 * pos.income_of[x] + 0.3 * _bridge(g, pos, p, x) + 0.3 * s.fleets[x]
                v += 0.5 * sum(1 for y in b.coast[x] if s.ctrl[y] == p)
            else:
                v = defence_gain(ctx, x) + 0.1 * pos.stake(x) / 10
            worth[(fleet, x)] = v
        if not fleet and plan is not None and plan.frm == x and plan.value > 0:
            v += max(0.5, _extra_unit_gain(ctx, plan))
        out.append(v)
    return out


def _prosper(pol, ctx, legal, depth):
    g, p, pos = ctx.g, ctx.p, ctx.pos
    b, s = g.board, g.state
    # An area's worth depends only on the Position and p: kept with the Position.
    worth = pos.memo.get(("prosper", p))
    if worth is None:
        worth = pos.memo[("prosper", p)] = {}
    out = []
    for a in legal:
        x = b.index[a.where]
        v = worth.get(x)
        if v is None:
            q = s.ctrl[x]
            if q >= 0 and g.friends(p, q):  # p's or a teammate's: the team's income (R22)
                v = 10.0 - 6.0 * (area_risk(ctx, x, pos.units[x]) if b.is_land[x] else 0.0) + 0.2 * pos.units[x]
            elif q < 0:
                v = 2.0 + sum(1.0 for y in b.adj[x] if s.ctrl[y] == p)
            else:
                v = -5.0
            worth[x] = v
        out.append(v)
    return out


def _land_move(pol, ctx, legal, depth):
    g = ctx.g
    f = ctx.f
    b = g.board
    stage = f["stage"]
    hero = f["hero"]
    if stage == "origin":
        scores = []
        for a in legal:
            if a.kind == "cancel":
                scores.append(-1000.0)
                continue
            plan = best_land_plan(ctx, hero, frm=b.index[a.where])
            scores.append(plan.value if plan else -100.0)
        return scores
    frm = f["origin"]
    if stage == "dest":
        taken = (f["troops"], f["mercenaries"], f["heroes"])
        plans = {pl.dest: pl.value for pl in land_plans_from(ctx, frm, hero, taken=_taken_hero(taken, hero))}
        return [-1000.0 if a.kind == "cancel" else plans.get(b.index[a.where], -50.0) for a in legal]
    plan = best_land_plan(ctx, hero, frm=frm)
    out = []
    for a in legal:
        if a.kind == "cancel":
            out.append(-1000.0)
        elif plan is None:
            out.append(0.0)
        elif a.kind == "take" and a.what == "troop":
            out.append(-abs(a.n - plan.t))
        elif a.kind == "take":
            out.append(-abs(a.n - plan.m))
        elif a.kind == "take_hero":
            out.append(1.0 if a.what in plan.h else -1.0)
        elif a.kind == "done":
            out.append(0.0)
        else:
            out.append(-1.0)
    return out


def _taken_hero(taken, hero):
    t, m, h = taken
    if hero:
        h = tuple(x for x in h if x != hero)
        return t, m, (hero,) + h
    return t, m, h


def _sea_move(pol, ctx, legal, depth):
    g = ctx.g
    f = ctx.f
    b = g.board
    stage = f["stage"]
    out = []
    if stage == "origin":
        for a in legal:
            if a.kind == "cancel":
                out.append(-1000.0)
                continue
            plan = best_sea_plan(ctx, frm=b.index[a.where])
            out.append(plan[0] if plan else -100.0)
        return out
    if stage == "count":
        plan = best_sea_plan(ctx, frm=f["origin"])
        return [-1000.0 if a.kind == "cancel" else (-abs(a.n - plan[2]) if plan else 0.0) for a in legal]
    plans = {d: v for v, _, _, d in sea_plans(ctx, f["origin"], f["fleets"])}
    return [-1000.0 if a.kind == "cancel" else plans.get(b.index[a.where], -50.0) for a in legal]


def _voyage(pol, ctx, legal, depth):
    """Classic Poseidon's fleet move of up to 3 seas (R17), one sea at a time: the origin and
    the fleets of the best plan, then at each sea the best next one, until none gains."""
    g = ctx.g
    f = ctx.f
    b = g.board
    stage = f["stage"]
    if stage == "origin":
        out = []
        for a in legal:
            plan = None if a.kind == "cancel" else best_sea_plan(ctx, frm=b.index[a.where])
            out.append(-1000.0 if a.kind == "cancel" else (plan[0] if plan else -100.0))
        return out
    if stage == "count":
        plan = best_sea_plan(ctx, frm=f["origin"])
        return [-1000.0 if a.kind == "cancel" else (-abs(a.n - plan[2]) if plan else 0.0) for a in legal]
    plans = {d: v for v, _, _, d in sea_plans(ctx, f["position"], f["fleets"])} if f["position"] >= 0 else {}
    out = []
    for a in legal:
        if a.kind == "cancel":
            out.append(-1000.0)
        elif a.kind == "destination":
            out.append(plans.get(b.index[a.where], -50.0))
        elif a.kind == "done":
            out.append(0.0)
        else:
            out.append(-0.5)
    return out


def _battle(pol, ctx, legal, depth):
    g, p, pos = ctx.g, ctx.p, ctx.pos
    s, b = g.state, g.board
    f = ctx.f
    stage = f["stage"]
    if stage == "loss":
        order = {"merc": 3.0, "troop": 2.0, "fleet": 2.0}
        out = []
        for a in legal:
            if a.kind == "lose":
                out.append(order.get(a.what, -1.0 if a.what == "minotaur" else 0.5))
            elif a.kind == "lose_hero":
                out.append(0.0)
            elif a.kind == "escape":
                out.append(4.0)
            else:
                out.append(1.0)
        return out
    area = f["area"]
    att_units = (f["attacker_fleets"] if f["sea"] else
                 f["attacker_troops"] + f["attacker_mercenaries"] + len(f["attacker_heroes"]))
    dfd_units = pos.units[area]
    bonus = _ports(g, pos, area, f["attacker"]) - _ports(g, pos, area, f["defender"]) if f["sea"] else -pos.fort[area]
    odds = attack_odds(att_units, dfd_units, bonus)  # the attacker's chance to win
    side_att = stage in ("retreat_a", "flee_a")
    mine = 1.0 - odds if not side_att else odds
    out = []
    for a in legal:
        if a.kind == "hold":
            out.append(mine - (0.25 if side_att else 0.2))
        elif a.kind == "retreat":
            x = b.index[a.where]
            v = 0.1 * (1.0 if s.ctrl[x] == p else 0.0)
            if not f["sea"] and b.is_land[x]:
                v -= 0.2 * area_risk(ctx, x, pos.units[x] + (att_units if side_att else dfd_units))
            out.append(v)
        else:
            out.append(-1.0)
    return out


def _metro(pol, ctx, legal, depth):
    g = ctx.g
    b = g.board
    out = []
    for a in legal:
        if a.kind == "remove":
            out.append(-safety(ctx, b.index[a.where]))
        elif a.kind == "metropolis":
            out.append(safety(ctx, b.index[a.where]) + 2.0)
        elif a.kind == "replace":
            out.append(-_loss_of_building(ctx, a.what) + 0.3 * safety(ctx, b.index[a.where]))
        elif a.kind == "metropolis_on_card":
            out.append(20.0)  # Penthesilea's card: a Metropolis no one can take
        else:
            out.append(-5.0)
    return out


def _bonus_fleet(pol, ctx, legal, depth):
    g, p, pos = ctx.g, ctx.p, ctx.pos
    b, s = g.board, g.state
    out = []
    for a in legal:
        x = b.index[a.where]
        out.append(pos.income_of[x] + 0.3 * _bridge(g, pos, p, x) + 0.1 * s.fleets[x])
    return out


def _reserve(pol, ctx, legal, depth):
    return [creature_worth(ctx, a.what) for a in legal]


def _peek(pol, ctx, legal, depth):
    out = []
    for a in legal:
        if a.kind == "play_peeked":
            out.append(creature_worth(ctx, a.what) - a.n - 1.0)
        else:
            out.append(0.0)
    return out


def _maintain(pol, ctx, legal, depth):
    f = ctx.f
    if f["stage"] == "pay":
        out = []
        for a in legal:
            if a.kind == "keep":
                out.append(KEEP_WORTH.get(a.what, 1.5) - ev.PRIESTESS * 0.8)
            else:
                out.append(0.0)
        return out
    return None  # moving a creature: look ahead


def _place_hero(pol, ctx, legal, depth):
    g, pos = ctx.g, ctx.pos
    b = g.board
    return [defence_gain(ctx, b.index[a.where]) + 0.05 * pos.stake(b.index[a.where]) for a in legal]


_FRAMES = {
    "placement": _placement,
    "offer": _offering,
    "turn": _turn,
    "build": _build,
    "place_unit": _place_unit,
    "prosper": _prosper,
    "land_move": _land_move,
    "sea_move": _sea_move,
    "voyage": _voyage,
    "battle": _battle,
    "metropolis": _metro,
    "bonus_fleet": _bonus_fleet,
    "reserve": _reserve,
    "peek": _peek,
    "maintain": _maintain,
    "place_hero": _place_hero,
}


class GreedyAgent(Agent):
    """The heuristic player. It decides on a game determinized from its observation: its own
    purse is known, the others' are guessed from their income (Observation.determinize)."""

    name = "greedy"

    def __init__(self, seed=None, lookahead=True, apollo=1.0, gods=1.0, surplus=0):
        super().__init__(seed)
        self.lookahead = bool(lookahead)
        self.apollo = number_option("greedy", "apollo", apollo)  # the weight of Apollo's reward
        self.gods = number_option("greedy", "gods", gods)        # the weight of a god's worth
        self.surplus = number_option("greedy", "surplus", surplus, whole=True)  # GP worth holding
        self.rng = random.Random(seed)
        self.policy = GreedyPolicy(lookahead=self.lookahead, apollo=self.apollo, gods=self.gods,
                                   surplus=self.surplus)

    def choose(self, obs):
        legal = obs.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over or waits on someone else")
        if len(legal) == 1:
            return legal[0]
        g = ev.sample(obs, self.rng)
        return self.policy.decide(g, obs.player, legal)
