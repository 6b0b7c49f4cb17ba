"""Help for a person at the table: a hint for the current decision, and each
player's chance to win over a finished game.

    from cyclades.agents.advice import hint, chances
    h = hint(game, player)            # Hint(action, reason): the expert level's choice, one line why
    h.action, h.reason                # Action(...), "Athena: your fourth Philosopher builds a Metropolis"
    chances(game.record())            # per cycle, each player's (each team's) estimated chance to win

**The hint** is what the expert level would play, searched from `game.observe(player)` only:
the search samples determinizations of that observation (the others' purses and the piles'
order guessed), never the game's hidden state (R24); with the same seed two games that differ
only in what the player cannot know give the same hint. The reason is read from what the
chosen action does: it is applied to a few of those sampled games, and the events it causes
(a building, a battle, a Metropolis), the battle odds of the position and the change in the
evaluation (agents/evaluation.py) become one sentence in the rulebook's words. Only facts the
player knows go into the sentence: a sampled game's guesses (a purse, the next card) never do.

**Win chances** over a finished game are the value network's (agents/value.py: learned from
self-play, better calibrated than the heuristic: docs/learned-player.md) at the end of every
cycle, from the observation of the player to move, averaged over `CHANCE_SAMPLES` games sampled
from it (its hidden facts guessed); where the network cannot be read, the strong level's search
(`CHANCE_ITERATIONS` iterations, its root's mean reward). A few milliseconds a cycle, computed
once per game. The position after the last decision of a
finished game is its result: the winner's chance is 1.
"""
from __future__ import annotations

import hashlib
import random
import time
from functools import cache
from typing import Any, NamedTuple

from ..content.gods import APOLLO, BUILDINGS, GODS
from ..content.i18n import N_, _, listing, ngettext
from ..engine.actions import Action
from ..engine.log import area_name, building_name, card_name, god_name, unit_name
from ..engine.wording import action_text
from . import evaluation as ev
from .mcts import MCTSAgent
from .registry import make_agent

# The expert level of agents/levels.py (MCTS, 2 x 500 iterations); where it is not defined, the
# information-set MCTS with 200 iterations per decision.
EXPERT = "expert"
FALLBACK = "mcts:iterations=200"
SAMPLES = 3          # sampled games the reason is read from


def expert(seed=None, seconds=None):
    """The agent whose choice a hint is: the expert level (the one line to switch)."""
    opts = {"seconds": seconds} if seconds else {}
    try:
        return make_agent(EXPERT, seed=seed, **opts)
    except ValueError:
        return make_agent(FALLBACK, seed=seed, **opts)


class Hint(NamedTuple):
    action: Action
    reason: str

    def to_json(self) -> dict:
        return {"action": self.action.to_json(), "reason": self.reason}


def hint_seed(*parts) -> int:
    """A seed from anything printable (a game id, a version, a player)."""
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:8], "big")


def hint(game, player=None, seed=0, seconds=None, names=None) -> Hint:
    """The expert level's choice for `player`'s current decision (the player to move) and a
    one-line reason. Reads only `game.observe(player)`. `seconds`: a time budget for the search
    (then the choice may depend on the machine's speed); `names`: a name per player."""
    p = game.to_move if player is None else player
    if game.is_over or game.to_move != p:
        raise ValueError(f"player_{p} has no decision to take now")
    obs = game.observe(p)
    return hint_from_observation(obs, seed=seed, seconds=seconds, names=names)


def hint_from_observation(obs, seed=0, seconds=None, names=None) -> Hint:
    legal = obs.legal_actions()
    if not legal:
        raise ValueError("no decision to take")
    options = [a for a in legal if a.kind != "cancel"] or legal
    action = options[0] if len(options) == 1 else expert(seed=seed, seconds=seconds).choose(obs)
    return Hint(action, explain(obs, action, names=names, seed=seed))


# --- the reason --------------------------------------------------------------------------------

def explain(obs, action, names=None, seed=0) -> str:
    """One sentence: why `action` for the observing player, from what it does."""
    rng = random.Random(hint_seed("reason", seed))
    games = [ev.sample(obs, rng) for _ in range(SAMPLES)]
    r = _Reasoner(obs, games, names)
    try:
        text = r.reason(action)
    except Exception:  # a reason never stops a hint
        text = ""
    if not text:
        text = r.fallback(action)
    text = " ".join(text.split())
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


ORDINAL = {1: N_("first"), 2: N_("second"), 3: N_("third"), 4: N_("fourth"), 5: N_("fifth"), 6: N_("sixth")}


def _nth(n: int) -> str:
    """"third", "7th": an ordinal as a reason says it."""
    return _(ORDINAL[n]) if n in ORDINAL else _("{n}th").format(n=n)


# What each basic building does, said of one placed (with its area, and without).
BUILDING_USES = {
    "fortress": (N_("A {building} on {area} defends the island in battle"),
                 N_("A {building} defends the island in battle")),
    "port": (N_("A {building} on {area} helps your Fleets in Sea Battles"),
             N_("A {building} helps your Fleets in Sea Battles")),
    "temple": (N_("A {building} on {area} makes Creatures cheaper"), N_("A {building} makes Creatures cheaper")),
    "university": (N_("A {building} on {area} is a spare toward a Metropolis"),
                   N_("A {building} is a spare toward a Metropolis")),
}
# Why lose this unit rather than another in a battle.
LOSS_REASONS = {"merc": N_("a mercenary costs you least"), "troop": N_("keep your Heroes and mercenaries"),
                "fleet": N_("a Fleet is all you can lose here")}


def _pct(x: float) -> str:
    return f"{max(1, min(99, round(100 * x)))}%"


class _Reasoner:
    def __init__(self, obs, games, names):
        self.obs = obs
        self.p = obs.player
        self.games = games
        self.g = games[0]                 # public facts are the same in every sample
        self.names = names

    # -- words ------------------------------------------------------------------------
    def who(self, q) -> str:
        if q == self.p:
            return _("you")
        if self.names and 0 <= q < len(self.names):
            return self.names[q]
        return _("Player {n}").format(n=q + 1)

    def area(self, a) -> str:
        return area_name(self.g, a)

    def label(self, a) -> str:
        """The action in words, as the table lists it."""
        return action_text(a, self.g, self.names or None)

    # -- figures ----------------------------------------------------------------------
    def chance_change(self, action):
        before = after = 0.0
        for g in self.games:
            before += ev.win_chances(g)[self.p]
            c = g.copy()
            c.apply(action)
            after += ev.win_chances(c)[self.p]
        k = len(self.games)
        return before / k, after / k

    # -- the sentence, by decision --------------------------------------------------------
    def reason(self, a) -> str:
        k = a.kind
        f = self.g.state.stack[-1] if self.g.state.stack else {}
        fk = f.get("kind")
        if k in ("bid", "apollo"):
            return self.offering(a)
        if k in ("build", "choose_building", "replace"):
            return self.build(a)
        if k == "metropolis":
            return self.metropolis(a)
        if fk == "battle":
            return self.battle(a, f)
        if fk in ("land_move", "sea_move") or k in ("land_move", "sea_move", "heroic_move"):
            return self.move(a)
        if k == "claim":
            return self.claim(a)
        if k in ("place_troop", "place_fleet", "place_merc", "place_hero"):
            return self.place(a)
        if k == "prosperity":
            return self.prosperity(a)
        if k == "recruit":
            return self.recruit(a)
        if k == "end_turn":
            return self.end_turn()
        if k in ("buy_creature", "reserve", "play_peeked", "choose_card", "keep"):
            return self.creature(a)
        if k == "recruit_hero":
            return self.hero(a)
        if k == "remove":
            return self.remove(a)
        if k == "escape":
            return _("{action}: the unit lives to fight again").format(action=self.label(a))
        return ""

    def _text_of(self, group, card, key="text"):
        from ..content.descriptions import content
        try:
            items = content(self.g.options.get("ruleset", "legendary"), True)[group]
        except Exception:
            return ""
        for x in items:
            if x.get("id") == card:
                t = (x.get(key) or x.get("text") or "").split(". ")[0].rstrip(".")
                return t[:1].lower() + t[1:] if t else ""
        return ""

    def creature(self, a) -> str:
        text = self._text_of("creatures", a.what)
        return _("{action}: {text}").format(action=self.label(a), text=text) if text else ""

    def hero(self, a) -> str:
        text = self._text_of("heroes", a.what, "military")
        return _("{action}: in battle, {text}").format(action=self.label(a), text=text) if text else ""

    def remove(self, a) -> str:
        pos = ev.Position(self.g)
        if a.what in BUILDINGS and pos.dups[self.p]:
            return _("{action}: you keep one of each kind of building").format(action=self.label(a))
        return ""

    def fallback(self, a) -> str:
        """Whatever the decision: what the action does, and the evaluation's change."""
        what = self.label(a)
        before, after = self.chance_change(a)
        if after > before + 0.005:
            return _("{action}: your estimated chance to win goes from {before} to {after}").format(
                action=what, before=_pct(before), after=_pct(after))
        if after < before - 0.005:
            return _("{action}: the other choices cost you more (your chance to win {after})").format(
                action=what, after=_pct(after))
        return _("{action}: the best of your choices, by the expert's search").format(action=what)

    # offerings -----------------------------------------------------------------------
    def god_gain(self, god, q) -> str:
        """What god gives q, in a few words, the most telling first (a Metropolis if it
        completes one)."""
        g = self.g
        pos = ev.Position(g)
        s = g.state
        if god == APOLLO or god not in GODS:
            return ""
        info = GODS[god]
        mine = q == self.p
        types = pos.side_types[q]
        kind = info.building
        if kind is None and g.rules.free_build:  # Hera: a building of one's choice
            try:
                from .greedy import Ctx, hera_building
                kind = hera_building(Ctx(g, q), q)
            except Exception:
                kind = None
        parts = []
        if info.recruit == "philosopher":
            need = g.rules.philosophers_for_metropolis
            have = s.philosophers[q]
            if have + 1 >= need:
                builds = (_("your {nth} Philosopher builds a Metropolis") if mine else
                          _("their {nth} Philosopher builds a Metropolis"))
                return builds.format(nth=_nth(have + 1))
            parts.append(_("a Philosopher ({n} of {need} for a Metropolis)").format(n=have + 1, need=need))
        if kind and kind not in types and pos.free[q] > 0:
            n = len(types) + 1
            building = building_name(kind)
            if n >= len(BUILDINGS):
                completes = (_("a {building} completes your four kinds of building: a Metropolis") if mine else
                             _("a {building} completes their four kinds of building: a Metropolis"))
                return completes.format(building=building)
            parts.insert(0, _("a {building} (your {nth} kind of four)").format(building=building, nth=_nth(n))
                         if mine else _("a {building}").format(building=building))
        if info.recruit == "troop":
            plan = self._land_plan(q)
            parts.append(_("Troops to attack {area}").format(area=self.area(plan)) if plan is not None
                         else _("Troops"))
        elif info.recruit == "fleet":
            parts.append(_("Fleets"))
        elif info.recruit == "priestess":
            parts.append(_("a Priestess (offerings cost 1 GP less)") if mine else _("a Priestess"))
        elif info.recruit == "merc":
            parts.append(_("mercenaries"))
        if not parts:
            return ""
        return parts[0] if len(parts) == 1 else _("{first} and {second}").format(first=parts[0], second=parts[1])

    def _land_plan(self, q):
        """An enemy area q's troops could take (greedy's best plan), as an area index, or None."""
        if q != self.p:
            return None
        try:
            from .greedy import Ctx, best_land_plan
            plan = best_land_plan(Ctx(self.g, q))
        except Exception:
            return None
        if plan is None or plan.value <= 1:
            return None
        dest = plan.dest
        owner = self.g.state.ctrl[dest]
        return dest if owner >= 0 and not self.g.friends(q, owner) else None

    def offering(self, a) -> str:
        view = self.obs.view
        if a.kind == "apollo":
            gp = self.g.purse(self.p)
            if self.g.rules.apollo == "classic":
                return _("Apollo: the other gods cost more than they would give you now")
            return _("Apollo: no god is worth its price to you this cycle; keep your {gp} GP, "
                     "take the GP and a Prosperity token").format(gp=gp)
        god = a.what
        holder = None
        for x in view.get("gods", ()):
            if x.get("god") == god and x.get("bid"):
                holder = x["bid"]["player"]
        gain = self.god_gain(god, self.p)
        name = god_name(god)
        if holder is not None and holder != self.p and not self.g.friends(self.p, holder):
            denied = self.god_gain(god, holder)
            rival = self.who(holder)
            if denied:
                return _("Outbid {rival} on {god} ({gp} GP): {rival} would get {denied}").format(
                    rival=rival, god=name, gp=a.n, denied=denied)
            if gain:
                return _("Outbid {rival} on {god} ({gp} GP): {gain}").format(rival=rival, god=name, gp=a.n, gain=gain)
            return _("Outbid {rival} on {god} ({gp} GP)").format(rival=rival, god=name, gp=a.n)
        if gain:
            return _("{god} for {gp} GP: {gain}").format(god=name, gp=a.n, gain=gain)
        return ""

    # building -------------------------------------------------------------------------
    def build(self, a) -> str:
        kind = a.what
        if kind not in BUILDINGS:
            return ""
        pos = ev.Position(self.g)
        types = pos.side_types[self.p]
        words = {"building": building_name(kind), "area": self.area(a.where) if a.where else ""}
        if kind not in types:
            n = len(types) + 1
            if n >= len(BUILDINGS):
                completes = (_("A {building} on {area} completes your four kinds of building: a Metropolis")
                             if a.where else _("A {building} completes your four kinds of building: a Metropolis"))
                return completes.format(**words)
            counts = (_("A {building} on {area}: your {nth} kind of building of the four for a Metropolis")
                      if a.where else _("A {building}: your {nth} kind of building of the four for a Metropolis"))
            return counts.format(nth=_nth(n), **words)
        if a.where:
            x = self.g.board.index.get(a.where)
            if x is not None and pos.risk(x) > 0.05 and kind == "fortress":
                t = pos.threats().get(x)
                return ngettext("A Fortress on {area}: {player} can attack it with {n} unit",
                                "A Fortress on {area}: {player} can attack it with {n} units", t[0]).format(
                    area=words["area"], player=self.who(t[1]), n=t[0])
        with_area, without = BUILDING_USES[kind]
        return _(with_area if a.where else without).format(**words)

    def metropolis(self, a) -> str:
        x = self.g.board.index.get(a.where)
        pos = ev.Position(self.g)
        risks = [(pos.risk(y), y) for y in pos.lands[self.p]]
        safest = min(risks)[1] if risks else None
        if x == safest:
            return _("Build the Metropolis on {area}: the safest of your islands").format(area=self.area(a.where))
        return _("Build the Metropolis on {area}: it keeps your best sites for other buildings").format(
            area=self.area(a.where))

    # moves and battles --------------------------------------------------------------------
    def move(self, a) -> str:
        """Follow the move through with the expert's plan (greedy for its later steps) and say
        where it goes and with what odds."""
        from .greedy import GreedyPolicy
        pol = GreedyPolicy(budget=6, depth=1)
        g = self.g.copy()
        p = self.p
        depth = len(g.state.stack)
        start_k = g.state.stack[-1]["kind"] if g.state.stack else None
        moving = None
        act = a
        for _attempt in range(12):
            f = g.state.stack[-1] if g.state.stack else {}
            if act.kind == "destination":
                dest = g.board.index[act.where]
                sea = f.get("kind") == "sea_move"
                if sea:
                    units = f.get("fleets", 0)
                else:
                    units = f.get("troops", 0) + f.get("mercenaries", 0) + len(f.get("heroes", ()))
                pos = ev.Position(g)
                owner = g.state.ctrl[dest]
                moving = (f.get("origin"), dest, units, sea, owner, pos)
                break
            g.apply(act)
            if g.to_move != p or not g.state.stack or len(g.state.stack) < depth or \
                    g.state.stack[-1]["kind"] not in ("land_move", "sea_move", "turn"):
                break
            if start_k == "turn" and len(g.state.stack) <= depth:
                break
            legal = [x for x in g.legal_actions() if x.kind != "cancel"]
            if not legal:
                break
            act = pol.decide(g, p, legal)
        if moving is None:
            return ""
        _origin, dest, units, sea, owner, pos = moving
        head = {"land_move": _("Land Move"), "sea_move": _("Sea Move"), "heroic_move": _("Heroic Move"),
                "origin": _("Move from {area}").format(area=self.area(a.where)) if a.where else "",
                "destination": _("Move to {area}").format(area=self.area(a.where)) if a.where else "",
                "done": _("Go with these")}.get(a.kind) or self.label(a)
        words = {"head": head, "area": self.area(dest), "n": units}
        if owner >= 0 and not g.friends(p, owner):
            dfd = pos.units[dest]
            if sea:
                from .greedy import _ports
                bonus = _ports(g, pos, dest, p) - _ports(g, pos, dest, owner)
            else:
                bonus = -pos.fort[dest]
            if dfd <= 0:
                return _("{head}: take {area} from {player}, which nobody defends").format(
                    player=self.who(owner), **words)
            odds = ev.attack_odds(units, dfd, bonus)
            attack = (ngettext("{head}: attack {player} in {area} with {n} Fleet against {defenders} ({odds} to win)",
                               "{head}: attack {player} in {area} with {n} Fleets against {defenders} ({odds} to win)",
                               units) if sea else
                      ngettext("{head}: attack {player} on {area} with {n} unit against {defenders} ({odds} to win)",
                               "{head}: attack {player} on {area} with {n} units against {defenders} ({odds} to win)",
                               units))
            return attack.format(player=self.who(owner), defenders=dfd, odds=_pct(odds), **words)
        if owner < 0:
            take = (ngettext("{head}: take {area} with {n} Fleet", "{head}: take {area} with {n} Fleets", units) if sea
                    else ngettext("{head}: take {area} with {n} unit", "{head}: take {area} with {n} units", units))
            return take.format(**words)
        t = pos.threats().get(dest)
        if t and not g.friends(p, t[1]):
            bring = (ngettext("{head}: bring {n} Fleet to {area}, which {player} can attack with {threat}",
                              "{head}: bring {n} Fleets to {area}, which {player} can attack with {threat}", units)
                     if sea else
                     ngettext("{head}: bring {n} unit to {area}, which {player} can attack with {threat}",
                              "{head}: bring {n} units to {area}, which {player} can attack with {threat}", units))
            return bring.format(player=self.who(t[1]), threat=t[0], **words)
        bring = (ngettext("{head}: bring {n} Fleet to {area}", "{head}: bring {n} Fleets to {area}", units) if sea
                 else ngettext("{head}: bring {n} unit to {area}", "{head}: bring {n} units to {area}", units))
        return bring.format(**words)

    def battle(self, a, f) -> str:
        g, p = self.g, self.p
        pos = ev.Position(g)
        area = f["area"]
        sea = f["sea"]
        att_units = (f["attacker_fleets"] if sea else
                     f["attacker_troops"] + f["attacker_mercenaries"] + len(f["attacker_heroes"]))
        dfd_units = pos.units[area]
        if sea:
            from .greedy import _ports
            bonus = _ports(g, pos, area, f["attacker"]) - _ports(g, pos, area, f["defender"])
        else:
            bonus = -pos.fort[area]
        attacking = f["attacker"] == p
        mine, theirs = (att_units, dfd_units) if attacking else (dfd_units, att_units)
        enemy = f["defender"] if attacking else f["attacker"]
        odds = ev.attack_odds(att_units, dfd_units, bonus)
        win = odds if attacking else 1.0 - odds
        lose_units = ev.expected_losses(att_units, dfd_units, bonus) if attacking \
            else _defender_losses(att_units, dfd_units, bonus)
        where = self.area(area)
        if a.kind == "retreat":
            retreat = (_("Retreat to {area}: fighting on, you would lose all of your {mine} units against "
                         "{player}'s {theirs} and win only {odds} of the time") if lose_units >= mine - 0.5 else
                       _("Retreat to {area}: fighting on, you would lose about {lost} of your {mine} units against "
                         "{player}'s {theirs} and win only {odds} of the time"))
            return retreat.format(area=self.area(a.where), lost=_count(lose_units), mine=mine,
                                  player=self.who(enemy), theirs=theirs, odds=_pct(win))
        if a.kind == "hold":
            return _("Fight on at {area}: your {mine} against {theirs} win {odds} of the time").format(
                area=where, mine=mine, theirs=theirs, odds=_pct(win))
        if a.kind == "lose":
            why = _(LOSS_REASONS.get(a.what, N_("it is the unit you miss least")))
            return _("Lose {unit}: {why}").format(unit=unit_name(a.what), why=why)
        if a.kind == "lose_hero":
            return _("Lose {hero}: your Troops are worth more in this battle").format(hero=card_name(a.what))
        if a.kind == "escape":
            return _("{action}: you keep the unit rather than lose it").format(action=self.label(a))
        return ""

    # placements ------------------------------------------------------------------------
    def claim(self, a) -> str:
        b = self.g.board
        x = b.index.get(a.where)
        if x is None:
            return ""
        inc = b.cornucopias[x] + self.g.state.prosperity[x]
        sites = b.sites[x]
        bits = []
        if inc:
            bits.append(_("{n} GP of income").format(n=inc))
        if sites:
            bits.append(ngettext("{n} building site", "{n} building sites", sites).format(n=sites))
        if b.priestess[x]:
            bits.append(_("a Priestess"))
        gains = listing(bits) or _("a foothold to grow from")
        mine = [y for y in b.land_adj[x] if self.g.state.ctrl[y] == self.p]
        near = [y for y in b.land_adj[x]
                if self.g.state.ctrl[y] >= 0 and not self.g.friends(self.p, self.g.state.ctrl[y])]
        area = self.area(a.where)
        if mine:
            return _("Take {area}: {gains}, next to your {neighbour}").format(
                area=area, gains=gains, neighbour=self.area(mine[0]))
        if not near:
            return _("Take {area}: {gains}, with no rival next door").format(area=area, gains=gains)
        return _("Take {area}: {gains}").format(area=area, gains=gains)

    def place(self, a) -> str:
        g = self.g
        x = g.board.index.get(a.where)
        if x is None:
            return ""
        unit = {"place_troop": _("a Troop"), "place_fleet": _("a Fleet"), "place_merc": _("a mercenary Troop")}.get(
            a.kind) or card_name(a.what)
        pos = ev.Position(g)
        t = pos.threats().get(x)
        if t and g.state.ctrl[x] == self.p and not g.friends(self.p, t[1]):
            threatened = (ngettext("Place {unit} on {area}: {player} can attack it with {n} unit",
                                   "Place {unit} on {area}: {player} can attack it with {n} units", t[0])
                          if g.board.is_land[x] else
                          ngettext("Place {unit} in {area}: {player} can attack it with {n} unit",
                                   "Place {unit} in {area}: {player} can attack it with {n} units", t[0]))
            return threatened.format(unit=unit, area=self.area(a.where), player=self.who(t[1]), n=t[0])
        if not g.board.is_land[x]:
            return _("Place {unit} in {area}: it links your islands for Land Moves").format(
                unit=unit, area=self.area(a.where))
        return ""

    def prosperity(self, a) -> str:
        x = self.g.board.index.get(a.where)
        pos = ev.Position(self.g)
        if x is not None and pos.risk(x) < 0.05:
            return _("A Prosperity token on {area}: one more GP every cycle, on an island no one threatens").format(
                area=self.area(a.where))
        return _("A Prosperity token on {area}: one more GP every cycle").format(area=self.area(a.where))

    def recruit(self, a) -> str:
        unit = a.what
        if unit == "philosopher":
            need = self.g.rules.philosophers_for_metropolis
            have = self.g.state.philosophers[self.p]
            if have + 1 >= need:
                return _("Recruit a Philosopher: your {nth} builds a Metropolis").format(nth=_nth(have + 1))
            return _("Recruit a Philosopher: {n} of the {need} for a Metropolis").format(n=have + 1, need=need)
        if unit == "priestess":
            return _("Recruit a Priestess: every offering costs you 1 GP less")
        if unit in ("troop", "merc"):
            plan = self._land_plan(self.p)
            if plan is not None:
                return _("Recruit {unit}: enough to attack {area}").format(unit=unit_name(unit), area=self.area(plan))
        return ""

    def end_turn(self) -> str:
        gp = self.g.purse(self.p)
        if gp:
            return _("End your turn: nothing else is worth its price; keep your {gp} GP for the next offerings").format(
                gp=gp)
        return _("End your turn: nothing else is worth doing now")


def _count(x: float) -> str:
    n = round(x)
    return str(max(1, n)) if x >= 0.5 else "1"


@cache
def _defender_losses(att: int, dfd: int, bonus: int = 0) -> float:
    """Expected units the defender loses in a battle fought to the end (evaluation.expected_losses
    from the other side)."""
    if dfd <= 0 or att <= 0:
        return 0.0
    att, dfd = min(att, 12), min(dfd, 12)
    w, lo, t = ev._round(att - dfd + bonus)
    return w * (1 + _defender_losses(att, dfd - 1, bonus)) + lo * _defender_losses(att - 1, dfd, bonus) \
        + t * (1 + _defender_losses(att - 1, dfd - 1, bonus))


# --- win chances over a game -------------------------------------------------------------------

CHANCE_ITERATIONS = 100   # the search behind each point of the chart where no network loads
CHANCE_SAMPLES = 8        # the sampled games the network's estimate is averaged over

ESTIMATE = ("the value network's estimate (learned from self-play; better calibrated than the "
            "heuristic's), from the view of the player to move at the end of each cycle, averaged "
            f"over {CHANCE_SAMPLES} guesses of what that player cannot see; the result once the game is over")
SEARCH_ESTIMATE = (f"the search's own estimate: information-set MCTS ({CHANCE_ITERATIONS} iterations, "
                   "from the view of the player to move) at the end of each cycle, the mean of its "
                   "rollouts' win chances a cycle ahead; the result once the game is over")


def search_chances(game, iterations=CHANCE_ITERATIONS, seed=0) -> list:
    """Each faction's chance to win from the observation of the player the game waits on (R24:
    what that player may know): the value network's, averaged over sampled games consistent with
    that observation; where no network loads, the strong level's search (its root's mean reward).
    Deterministic for a seed. A finished game gives its result."""
    if game.is_over:
        return ev.win_chances(game)
    obs = game.observe(game.to_move)
    net = chance_network()
    if net is None:
        return MCTSAgent(seed=seed, iterations=iterations).estimate(obs)
    rng = random.Random(f"chances/{seed}")
    total = [0.0] * game.state.n
    for _sample in range(CHANCE_SAMPLES):
        for q, c in enumerate(net.win_chances(ev.sample(obs, rng))):
            total[q] += c / CHANCE_SAMPLES
    return total


@cache
def chance_network():
    """The shipped value network, or None where its weights cannot be read."""
    from .value import WeightsError, load

    try:
        return load()
    except WeightsError:
        return None


def cycle_ends(cycles: list) -> list:
    """[(cycle, step)]: the last step of each cycle, from the cycle of every step."""
    ends = {}
    for n, c in enumerate(cycles):
        ends[c] = n
    return sorted(ends.items())


def side_list(game) -> list:
    """[[members] per side]: teams in team play, else one player each."""
    sides = ev.sides(game)
    out: dict[Any, Any] = {}
    for q, t in enumerate(sides):
        out.setdefault(t, []).append(q)
    return [out[t] for t in sorted(out)]


def chance_point(game, cycle, step) -> dict:
    ch = search_chances(game, seed=step)
    sides = side_list(game)
    side = [ch[m[0]] for m in sides]
    tot = sum(side) or 1.0
    return {"cycle": cycle, "step": step, "chances": [round(x, 4) for x in ch],
            "side_chances": [round(x / tot, 4) for x in side]}


def chances_of_positions(positions, game, names=None) -> dict:
    """The chances document from [(cycle, step, game at that step)]."""
    t0 = time.perf_counter()
    points = [chance_point(g, c, n) for c, n, g in positions]
    n = game.state.n
    names = list(names or [])[:n] + [f"Player {i + 1}" for i in range(len(names or []), n)]
    return {"players": n, "names": names, "sides": side_list(game), "teams": list(game.teams) if game.teams else None,
            "estimate": ESTIMATE if chance_network() is not None else SEARCH_ESTIMATE, "points": points,
            "winners": game.result()["winners"] if game.is_over else None,
            "seconds": round(time.perf_counter() - t0, 4)}


def chances(record, names=None) -> dict:
    """Each player's (each side's) estimated chance to win at the end of every cycle of a
    recorded game (`game.record()`); cycle 0 is the end of the setup. Two replays: one finds
    where each cycle ends, the other evaluates the position there."""
    from ..engine.game import Game
    t0 = time.perf_counter()
    actions = [a if isinstance(a, Action) else Action.from_json(a) for a in record.get("actions") or []]
    g = Game.from_record(record, upto=0)
    cycles = [g.state.cycle]
    for a in actions:
        g.apply(a)
        cycles.append(g.state.cycle)
    at = {n: c for c, n in cycle_ends(cycles)}
    g = Game.from_record(record, upto=0)
    points = []
    if 0 in at:
        points.append(chance_point(g, at[0], 0))
    for n, a in enumerate(actions, 1):
        g.apply(a)
        if n in at:
            points.append(chance_point(g, at[n], n))
    doc = chances_of_positions([], g, names)
    doc["points"] = points
    doc["seconds"] = round(time.perf_counter() - t0, 4)
    return doc


def chances_of_replay(replay) -> dict:
    """The chances of a server replay (server/replays.py `Replay`, everything shown)."""
    t0 = time.perf_counter()
    positions = [(c, n, replay.position(n)) for c, n in cycle_ends(replay.cycle)]
    doc = chances_of_positions(positions, replay.game, replay.names)
    doc["seconds"] = round(time.perf_counter() - t0, 4)
    return doc


# --- the table of `cyclades replay --chances` ----------------------------------------------------

BARS = " ▁▂▃▄▅▆▇█"


def chances_lines(doc) -> list:
    """A table per cycle (one column per side, in %) and a small text chart (one row per side,
    one bar per cycle), as lines of text."""
    names = doc["names"]
    sides = doc["sides"]
    labels = [" & ".join(dict.fromkeys(names[q].replace(" (A)", "").replace(" (B)", "") for q in m))
              for m in sides]
    width = max(6, *(len(x) for x in labels))
    lines = ["Chance to win at the end of each cycle, as the value network estimates it "
             f"(the mean of {CHANCE_SAMPLES} guesses of the hidden facts a cycle; {doc.get('seconds', 0):.2f} s):", ""]
    lines.append("cycle  " + "  ".join(x.rjust(width) for x in labels))
    for pt in doc["points"]:
        c = "setup" if pt["cycle"] == 0 else str(pt["cycle"])
        lines.append(c.rjust(5) + "  " + "  ".join(f"{round(100 * v)}%".rjust(width) for v in pt["side_chances"]))
    lines.append("")
    for i, lab in enumerate(labels):
        bars = "".join(BARS[min(8, round(8 * pt["side_chances"][i]))] for pt in doc["points"])
        lines.append(f"{lab.ljust(width)} |{bars}|")
    lines.append(f"{'':{width}}  setup → cycle {doc['points'][-1]['cycle'] if doc['points'] else 0}")
    if doc.get("winners") is not None:
        won = dict.fromkeys(names[q] for q in doc["winners"])
        lines.append(f"Winner: {' and '.join(won) or 'nobody'}.")
    return lines
