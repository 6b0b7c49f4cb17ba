"""Sea Battles and Land Battles, round by round (rulebook; R3, R15, R18).

Each round both sides roll the die and add their units and buildings; the
lower total loses a unit of its owner's choice (a tie: both do). Then the
defender, and failing that the attacker, may retreat; otherwise another round.

Heroes and creatures that change a battle plug in through `HOOKS` (filled by
cards/heroes.py), so that this file names no card: before the first round
(Pandora, Hector), after the roll (Croesus' re-roll), on each die (Antigone,
Helen), on the buildings that count (Hippolyta, Odysseus), on the round's
result (Penthesilea), on the losses a side may take (Perseus, the Minotaur),
on retreats (the Minotaur) and after the losses (Achilles).
"""
from ..content.gods import METROPOLIS
from .actions import Action
from .frames import Handler, handler, pop, push
from .hooks import BATTLE
from .heroes import heroes_arrive, lose_hero
from .queries import (MODIFIERS, accessible_lands, building_active, can_enter_sea, controlled_lands,
                      heroes_at, sea_neighbours, unit_strength)
from .state import NOBODY
from . import ops

HOLD = Action("hold")

HOOKS = BATTLE  # engine/hooks.py declares each of them


def start_battle(g, att, dfd, area, frm, troops=0, mercs=0, heroes=(), fleets=0):
    """The attacker's units stand in the frame until the battle ends; the defender's stay on the board."""
    sea = not g.b.is_land[area]
    # R19: an attack on the defender's last land area (allowed only when it gives the attacker
    # the metropolises needed) ends the game at the end of the cycle if it is won.
    last = not sea and controlled_lands(g, dfd) == [area]
    g.emit("battle", attacker=att, defender=dfd, area=g.b.ids[area], sea=sea)
    push(g, "battle", att, sea=sea, area=area, att=att, dfd=dfd, frm=frm,
         at=troops, am=mercs, ah=tuple(heroes), af=fleets, stage="start", pend=(), lost=(),
         dice=(), round=0, last=last)


# --- the two sides ----------------------------------------------------------------

def player_of(f, side):
    return f["att"] if side == "a" else f["dfd"]


def other(side):
    return "d" if side == "a" else "a"


def side_heroes(g, f, side) -> tuple:
    """The heroes involved in the battle on a side (none in a sea battle)."""
    if f["sea"]:
        return ()
    return f["ah"] if side == "a" else tuple(heroes_at(g, f["area"]))


def side_of_hero(g, f, hero):
    for side in ("a", "d"):
        if hero in side_heroes(g, f, side):
            return side
    return None


def creature_units(g, area, p) -> list:
    """Creatures that fight as units for p in a land area (the Minotaur defends its area)."""
    out = []
    for fn in HOOKS["creature_units"]:
        out.extend(fn(g, area, p))
    return out


def _creatures(g, f, side) -> list:
    if f["sea"] or side == "a":
        return []  # creatures do not move with troops: they only defend their area
    return creature_units(g, f["area"], f["dfd"])


def side_units(g, f, side) -> int:
    s, a = g.s, f["area"]
    if side == "a":
        return f["af"] if f["sea"] else f["at"] + f["am"] + len(f["ah"])
    if f["sea"]:
        return s.fleets[a]
    return s.troops[a] + s.mercs[a] + heroes_at(g, a, count=True) + len(_creatures(g, f, side))


def battle_buildings(g, f, p, land, kind) -> int:
    """p's active buildings in `land` that count as `kind` (a port in sea battles, a fortress when
    defending); a metropolis counts as each (R15)."""
    kinds = frozenset((kind, METROPOLIS))
    for fn in HOOKS["building_kinds"]:
        kinds = fn(g, f, p, land, kind, kinds)
    return sum(1 for site in g.b.sites_of(land)
               if g.s.sites[site] in kinds and building_active(g, site))


def effective_die(g, f, side, die) -> int:
    for fn in HOOKS["die"]:
        die = fn(g, f, side, die)
    return die


def strength(g, f, side, die) -> int:
    s, b, a = g.s, g.b, f["area"]
    p = player_of(f, side)
    total = die
    if f["sea"]:
        total += side_units(g, f, side)
        # R15: each port (or metropolis) of p on a land area next to this sea.
        for land in b.coast[a]:
            if s.ctrl[land] == p:
                total += battle_buildings(g, f, p, land, "port")
    else:
        if side == "a":
            troops, mercs = f["at"], f["am"]
        else:
            troops, mercs = s.troops[a], s.mercs[a]
        total += troops * unit_strength(g, p, a, "troop") + mercs * unit_strength(g, p, a, "merc")
        for h in side_heroes(g, f, side):
            total += unit_strength(g, p, a, "hero", h)
        for c in _creatures(g, f, side):
            total += unit_strength(g, p, a, "creature", c)
        if side == "d":  # R15: each fortress (or metropolis) when defending
            total += battle_buildings(g, f, p, a, "fortress")
    for fn in MODIFIERS["battle_bonus"]:
        total = fn(g, f, p, total)
    return total


def loss_options(g, f, side) -> list:
    s, a = g.s, f["area"]
    if f["sea"]:
        return [Action("lose", what="fleet")]
    if side == "a":
        troops, mercs = f["at"], f["am"]
    else:
        troops, mercs = s.troops[a], s.mercs[a]
    out = []
    if troops:
        out.append(Action("lose", what="troop"))
    if mercs:
        out.append(Action("lose", what="merc"))
    out.extend(Action("lose", what=c) for c in _creatures(g, f, side))
    out.extend(Action("lose_hero", what=h) for h in side_heroes(g, f, side))
    for fn in HOOKS["loss_options"]:
        out = fn(g, f, side, out)
    return out


def take_units(g, f, side, kind, n):
    """n troops, mercenaries or fleets leave a side (destroyed or moved): the side's count drops;
    the defender's come off the board, the attacker's out of the frame."""
    s, a = g.s, f["area"]
    if side == "a":
        f[{"fleet": "af", "troop": "at", "merc": "am"}[kind]] -= n
    elif kind == "fleet":
        s.fleets[a] -= n
    elif kind == "troop":
        s.troops[a] -= n
    else:
        s.mercs[a] -= n


def destroy_units(g, f, side, kind, n=1):
    """n of a side's troops, mercenaries or fleets destroyed: back to their reserve."""
    s, p = g.s, player_of(f, side)
    if not n:
        return
    take_units(g, f, side, kind, n)
    if kind == "fleet":
        s.fleets_left[p] += n
    elif kind == "troop":
        s.troops_left[p] += n
    else:
        s.mercs_left += n
    ops.destroyed(g, f["area"], kind, n)


def lose_unit(g, f, side, act):
    a = f["area"]
    p = player_of(f, side)
    if act.kind == "escape":
        escape(g, f, side, act.what, g.b.index[act.where])
        return
    g.emit("casualty", player=p, area=g.b.ids[a], unit=act.what)
    if act.kind == "lose_hero":
        if side == "a":
            f["ah"] = tuple(h for h in f["ah"] if h != act.what)
        lose_hero(g, act.what)
        return
    if act.what in ("fleet", "troop", "merc"):
        destroy_units(g, f, side, act.what)
        return
    ops.release(g, act.what)  # a creature fighting as a unit (the Minotaur)


def destroy_side(g, f, side):
    """All of a side's troops and heroes are destroyed (Achilles' power)."""
    s, a = g.s, f["area"]
    p = player_of(f, side)
    g.emit("side_destroyed", player=p, area=g.b.ids[a])
    if side == "a":
        troops, mercs = f["at"], f["am"]
    else:
        troops, mercs = s.troops[a], s.mercs[a]
    destroy_units(g, f, side, "troop", troops)
    destroy_units(g, f, side, "merc", mercs)
    for h in side_heroes(g, f, side):
        if side == "a":
            f["ah"] = tuple(x for x in f["ah"] if x != h)
        lose_hero(g, h)


def retreats(g, f, side) -> list:
    """Where a side may retreat: accessible, and empty or its own (rulebook, Battle)."""
    s, a = g.s, f["area"]
    p = player_of(f, side)
    if not all(fn(g, f, side) for fn in HOOKS["may_retreat"]):
        return []
    if f["sea"]:
        return [x for x in sea_neighbours(g, p, a)
                if x != a and (s.ctrl[x] == p or (s.ctrl[x] == NOBODY and not s.fleets[x]))
                and can_enter_sea(g, p, x)]
    return sorted(x for x in accessible_lands(g, p, a) if s.ctrl[x] in (NOBODY, p) and g.may_stop(p, x))


# --- the frame -----------------------------------------------------------------

@handler("battle")
class Battle(Handler):
    """Frame: sea, area, att, dfd, frm, at/am/ah/af (attacker's units), stage, dice, pend
    (sides still to take this round's loss), lost (the round's losers), round."""

    @staticmethod
    def auto(g, f):
        stage = f["stage"]
        if stage == "start":  # powers that act "before the battle" (they may ask a choice)
            f["stage"] = "check"
            for fn in HOOKS["before_battle"]:
                fn(g, f)
            return True
        if stage == "check":
            if side_units(g, f, "a") and side_units(g, f, "d"):
                f["stage"] = "roll"
            else:
                _end(g, f, attacker_holds=side_units(g, f, "a") > 0)
            return True
        if stage == "roll":
            f["round"] += 1
            f["dice"] = (ops.roll_die(g), ops.roll_die(g))
            f["stage"] = "rolled"
            for fn in HOOKS["after_roll"]:
                fn(g, f)
            return True
        if stage == "rolled":
            _resolve_round(g, f)
            return True
        if stage == "loss":
            while f["pend"]:
                side = f["pend"][0]
                if side_units(g, f, side) == 0:
                    f["pend"] = f["pend"][1:]
                    continue
                options = loss_options(g, f, side)
                if len(options) > 1:  # a real choice: the owner decides (R18)
                    f["p"] = player_of(f, side)
                    return False
                lose_unit(g, f, side, options[0])
                f["pend"] = f["pend"][1:]
            return _after_losses(g, f)
        if stage in ("flee_a", "flee_d"):  # a forced retreat (Achilles)
            side = stage[-1]
            if not retreats(g, f, side):
                destroy_side(g, f, side)
                f["stage"] = "check"
                return True
            f["p"] = player_of(f, side)
            return False
        if stage == "retreat_d":
            if not retreats(g, f, "d"):
                f["stage"] = "retreat_a"
                return True
            f["p"] = f["dfd"]
            return False
        if stage == "retreat_a":
            if not retreats(g, f, "a"):
                f["stage"] = "roll"
                return True
            f["p"] = f["att"]
            return False
        return False

    @staticmethod
    def legal(g, f):
        stage = f["stage"]
        if stage == "loss":
            return loss_options(g, f, f["pend"][0])
        side = "a" if stage in ("retreat_a", "flee_a") else "d"
        out = [Action("retreat", where=g.b.ids[x]) for x in retreats(g, f, side)]
        return out if stage.startswith("flee") else out + [HOLD]

    @staticmethod
    def apply(g, f, act):
        stage = f["stage"]
        if stage == "loss":
            lose_unit(g, f, f["pend"][0], act)
            f["pend"] = f["pend"][1:]
        elif act.kind == "hold":
            f["stage"] = "retreat_a" if stage == "retreat_d" else "roll"
        else:
            _retreat(g, f, "a" if stage in ("retreat_a", "flee_a") else "d", g.b.index[act.where])


def _resolve_round(g, f):
    raw = f["dice"]
    da, dd = effective_die(g, f, "a", raw[0]), effective_die(g, f, "d", raw[1])
    sa, sd = strength(g, f, "a", da), strength(g, f, "d", dd)
    event = dict(area=g.b.ids[f["area"]], round=f["round"], dice=[da, dd], strength=[sa, sd])
    if (da, dd) != raw:
        event["rolled"] = list(raw)
    g.emit("round", **event)
    losers = ("a", "d") if sa == sd else ("a",) if sa < sd else ("d",)
    for fn in HOOKS["round_result"]:
        losers = fn(g, f, sa, sd, losers)
    f["pend"] = f["lost"] = losers
    f["stage"] = "loss"


def _after_losses(g, f) -> bool:
    a_left, d_left = side_units(g, f, "a"), side_units(g, f, "d")
    if a_left and d_left:
        forced = [side for fn in HOOKS["must_retreat"] for side in fn(g, f)]
        f["stage"] = f"flee_{forced[0]}" if forced else "retreat_d"
        return True
    _end(g, f, attacker_holds=a_left > 0)
    return True


def _retreat(g, f, side, dest):
    s, area = g.s, f["area"]
    if side == "a":
        g.emit("retreat", player=f["att"], origin=g.b.ids[area], destination=g.b.ids[dest])
        if f["sea"]:
            s.fleets[dest] += f["af"]
        else:
            s.troops[dest] += f["at"]
            s.mercs[dest] += f["am"]
            for h in f["ah"]:
                s.hero_at[h] = dest
        ops.take_control(g, dest, f["att"])
        pop(g, f)
        heroes_arrive(g, f["att"], dest, () if f["sea"] else f["ah"])
        return
    g.emit("retreat", player=f["dfd"], origin=g.b.ids[area], destination=g.b.ids[dest])
    heroes = () if f["sea"] else heroes_at(g, area)
    if f["sea"]:
        s.fleets[dest] += s.fleets[area]
        s.fleets[area] = 0
    else:
        s.troops[dest] += s.troops[area]
        s.mercs[dest] += s.mercs[area]
        s.troops[area] = s.mercs[area] = 0
        for h in heroes:
            s.hero_at[h] = dest
    ops.take_control(g, dest, f["dfd"])
    _end(g, f, attacker_holds=True)
    heroes_arrive(g, f["dfd"], dest, heroes)


def escape(g, f, side, kind, dest):
    """One troop or mercenary leaves the battle for `dest` instead of being destroyed (Perseus)."""
    s, p = g.s, player_of(f, side)
    take_units(g, f, side, kind, 1)
    if kind == "troop":
        s.troops[dest] += 1
    else:
        s.mercs[dest] += 1
    g.emit("escaped", player=p, origin=g.b.ids[f["area"]], destination=g.b.ids[dest], unit=kind)
    ops.take_control(g, dest, p)


def _end(g, f, attacker_holds):
    """The battle is over: the side left in the area controls it."""
    s, area, att, dfd = g.s, f["area"], f["att"], f["dfd"]
    pop(g, f)
    if attacker_holds:
        g.emit("battle_won", player=att, area=g.b.ids[area])
        if f["sea"]:
            s.fleets[area] = f["af"]
        else:
            s.troops[area] = f["at"]
            s.mercs[area] = f["am"]
            for h in f["ah"]:
                s.hero_at[h] = area
        s.ctrl[area] = NOBODY if f["sea"] else dfd
        ops.take_control(g, area, att)
        if f.get("last"):
            s.end_flag = True  # R19: even if the defender retreated, or the area is lost again
        if not f["sea"]:
            from .metropolis import metropolis_conquered
            metropolis_conquered(g, area, dfd)
        return
    if f["sea"] and not s.fleets[area]:
        s.ctrl[area] = NOBODY  # both sides destroyed: no one controls the sea (rulebook)
    g.emit("battle_held", player=dfd, area=g.b.ids[area])
