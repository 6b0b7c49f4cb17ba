"""Sea Battles and Land Battles, round by round (rulebook; R3, R15, R18).

Each round both sides roll the die and add their units and buildings; the
lower total loses a unit of its owner's choice (a tie: both do). Then the
defender, and failing that the attacker, may retreat; otherwise another round.
"""
from .actions import Action
from .frames import Handler, handler, pop, push
from .queries import (MODIFIERS, accessible_lands, can_enter_sea, controlled_lands, count_in_area,
                      heroes_at, sea_neighbours, unit_strength)
from .state import NOBODY
from . import ops

HOLD = Action("hold")


def start_battle(g, att, dfd, area, frm, troops=0, mercs=0, heroes=(), fleets=0):
    """The attacker's units stand in the frame until the battle ends; the defender's stay on the board."""
    sea = not g.b.is_land[area]
    # R19: an attack on the defender's last land area (allowed only when it gives the attacker
    # the metropolises needed) ends the game at the end of the cycle if it is won.
    last = not sea and controlled_lands(g, dfd) == [area]
    g.emit("battle", attacker=att, defender=dfd, area=area, sea=sea)
    push(g, "battle", att, sea=sea, area=area, att=att, dfd=dfd, frm=frm,
         at=troops, am=mercs, ah=tuple(heroes), af=fleets, stage="roll", pend=(), round=0,
         last=last)


# --- the two sides ----------------------------------------------------------------

def side_units(g, f, side) -> int:
    s, a = g.s, f["area"]
    if side == "a":
        return f["af"] if f["sea"] else f["at"] + f["am"] + len(f["ah"])
    if f["sea"]:
        return s.fleets[a]
    return s.troops[a] + s.mercs[a] + heroes_at(g, a, count=True)


def strength(g, f, side, die) -> int:
    s, b, a = g.s, g.b, f["area"]
    p = f["att"] if side == "a" else f["dfd"]
    total = die
    if f["sea"]:
        total += side_units(g, f, side)
        # R15: each port (or metropolis) of p on a land area next to this sea.
        for land in b.coast[a]:
            if s.ctrl[land] == p:
                total += count_in_area(g, land, "port")
    else:
        if side == "a":
            troops, mercs, heroes = f["at"], f["am"], f["ah"]
        else:
            troops, mercs, heroes = s.troops[a], s.mercs[a], heroes_at(g, a)
        total += troops * unit_strength(g, p, a, "troop") + mercs * unit_strength(g, p, a, "merc")
        for h in heroes:
            total += unit_strength(g, p, a, "hero", h)
        if side == "d":  # R15: each fortress (or metropolis) when defending
            total += count_in_area(g, a, "fortress")
    for fn in MODIFIERS["battle_bonus"]:
        total = fn(g, f, p, total)
    return total


def loss_options(g, f, side) -> list:
    s, a = g.s, f["area"]
    if f["sea"]:
        return [Action("lose", what="fleet")]
    if side == "a":
        troops, mercs, heroes = f["at"], f["am"], f["ah"]
    else:
        troops, mercs, heroes = s.troops[a], s.mercs[a], heroes_at(g, a)
    out = []
    if troops:
        out.append(Action("lose", what="troop"))
    if mercs:
        out.append(Action("lose", what="merc"))
    out.extend(Action("lose_hero", what=h) for h in heroes)
    return out


def lose_unit(g, f, side, act):
    s, a = g.s, f["area"]
    p = f["att"] if side == "a" else f["dfd"]
    g.emit("casualty", player=p, area=a, unit=act.what)
    if act.kind == "lose_hero":
        if side == "a":
            f["ah"] = tuple(h for h in f["ah"] if h != act.what)
        ops.discard_hero(g, act.what)
        return
    kind = act.what
    if side == "a":
        key = {"fleet": "af", "troop": "at", "merc": "am"}[kind]
        f[key] -= 1
        if kind == "fleet":
            s.fleets_left[p] += 1
        elif kind == "troop":
            s.troops_left[p] += 1
        else:
            s.mercs_left += 1
    elif kind == "fleet":
        s.fleets[a] -= 1
        s.fleets_left[p] += 1
    elif kind == "troop":
        s.troops[a] -= 1
        s.troops_left[p] += 1
    else:
        s.mercs[a] -= 1
        s.mercs_left += 1
    ops.destroyed(g, a, kind)


def retreats(g, f, side) -> list:
    """Where a side may retreat: accessible, and empty or its own (rulebook, Battle)."""
    s, b, a = g.s, g.b, f["area"]
    p = f["att"] if side == "a" else f["dfd"]
    if f["sea"]:
        return [x for x in sea_neighbours(g, p, a)
                if x != a and (s.ctrl[x] == p or (s.ctrl[x] == NOBODY and not s.fleets[x]))
                and can_enter_sea(g, p, x)]
    return sorted(x for x in accessible_lands(g, p, a) if s.ctrl[x] in (NOBODY, p) and g.may_stop(p, x))


# --- the frame -----------------------------------------------------------------

@handler("battle")
class Battle(Handler):
    """Frame: sea, area, att, dfd, frm, at/am/ah/af (attacker's units), stage, pend, round."""

    @staticmethod
    def auto(g, f):
        stage = f["stage"]
        if stage == "roll":
            f["round"] += 1
            da, dd = ops.roll_die(g), ops.roll_die(g)
            sa, sd = strength(g, f, "a", da), strength(g, f, "d", dd)
            g.emit("round", area=f["area"], round=f["round"], dice=[da, dd], strength=[sa, sd])
            f["pend"] = ("a", "d") if sa == sd else ("a",) if sa < sd else ("d",)
            f["stage"] = "loss"
            return True
        if stage == "loss":
            while f["pend"]:
                side = f["pend"][0]
                if side_units(g, f, side) == 0:
                    f["pend"] = f["pend"][1:]
                    continue
                options = loss_options(g, f, side)
                if len(options) > 1:  # a real choice: the owner decides (R18)
                    f["p"] = f["att"] if side == "a" else f["dfd"]
                    return False
                lose_unit(g, f, side, options[0])
                f["pend"] = f["pend"][1:]
            return _after_losses(g, f)
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
        side = "d" if stage == "retreat_d" else "a"
        return [Action("retreat", where=g.b.ids[x]) for x in retreats(g, f, side)] + [HOLD]

    @staticmethod
    def apply(g, f, act):
        stage = f["stage"]
        if stage == "loss":
            lose_unit(g, f, f["pend"][0], act)
            f["pend"] = f["pend"][1:]
        elif act.kind == "hold":
            f["stage"] = "retreat_a" if stage == "retreat_d" else "roll"
        else:
            _retreat(g, f, "d" if stage == "retreat_d" else "a", g.b.index[act.where])


def _after_losses(g, f) -> bool:
    a_left, d_left = side_units(g, f, "a"), side_units(g, f, "d")
    if a_left and d_left:
        f["stage"] = "retreat_d"
        return True
    _end(g, f, attacker_holds=a_left > 0)
    return True


def _retreat(g, f, side, dest):
    s, area = g.s, f["area"]
    if side == "a":
        g.emit("retreat", player=f["att"], frm=area, to=dest)
        if f["sea"]:
            s.fleets[dest] += f["af"]
        else:
            s.troops[dest] += f["at"]
            s.mercs[dest] += f["am"]
            for h in f["ah"]:
                s.hero_at[h] = dest
        ops.take_control(g, dest, f["att"])
        pop(g, f)
        return
    g.emit("retreat", player=f["dfd"], frm=area, to=dest)
    if f["sea"]:
        s.fleets[dest] += s.fleets[area]
        s.fleets[area] = 0
    else:
        s.troops[dest] += s.troops[area]
        s.mercs[dest] += s.mercs[area]
        s.troops[area] = s.mercs[area] = 0
        for h in heroes_at(g, area):
            s.hero_at[h] = dest
    ops.take_control(g, dest, f["dfd"])
    _end(g, f, attacker_holds=True)


def _end(g, f, attacker_holds):
    """The battle is over: the side left in the area controls it."""
    s, b, area, att, dfd = g.s, g.b, f["area"], f["att"], f["dfd"]
    pop(g, f)
    if attacker_holds:
        g.emit("battle_won", player=att, area=area)
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
    g.emit("battle_held", player=dfd, area=area)
