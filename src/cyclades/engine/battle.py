"""Sea Battles and Land Battles, round by round (rulebook; R3, R15, R18).

Each round both sides roll the die and add their units and buildings; the
lower total loses a unit of its owner's choice (a tie: both do). Then the
defender, and failing that the attacker, may retreat; otherwise another round.

Heroes and creatures that change a battle plug in through `BATTLE` (filled by
cards/heroes.py), so that this file names no card: before the first round
(Pandora, Hector), after the roll (Croesus' re-roll), on each die (Antigone,
Helen), on the buildings that count (Hippolyta, Odysseus), on a side's strength
(Penelope), on the round's result (Penthesilea), on the losses a side may take
(Perseus, the Minotaur), on retreats (the Minotaur) and after the losses (Achilles).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypedDict

from ..content.gods import METROPOLIS
from ..content.i18n import N_
from . import ops
from .actions import Action
from .chance import after_chance, roll
from .frames import Addressed, At, Count, Frame, From, Handler, Player, handler, nearest, pop, push
from .heroes import heroes_arrive, lose_hero
from .hooks import Hook
from .metropolis import metropolis_conquered
from .naming import at_area
from .queries import (
    accessible_lands,
    building_active,
    can_enter_sea,
    controlled_lands,
    heroes_at,
    sea_neighbours,
    unit_strength,
)
from .state import NOBODY
from .teams import may_stop

if TYPE_CHECKING:
    from .context import Context

HOLD = Action("hold")


class BattleStep(Protocol):
    def __call__(self, g: Context, battle: BattleFrame, /) -> None: ...


class Die(Protocol):
    def __call__(self, g: Context, battle: BattleFrame, side: str, die: int, /) -> int: ...


class BuildingKinds(Protocol):
    def __call__(self, g: Context, battle: BattleFrame, player: int, land: int, kind: str,
                 kinds: frozenset[str], /) -> frozenset[str]: ...


class SideStrength(Protocol):
    def __call__(self, g: Context, battle: BattleFrame, player: int, total: int, /) -> int: ...


class RoundResult(Protocol):
    def __call__(self, g: Context, battle: BattleFrame, strength_a: int, strength_d: int,
                 losers: tuple[str, ...], /) -> tuple[str, ...]: ...


class LossOptions(Protocol):
    def __call__(self, g: Context, battle: BattleFrame, side: str, options: list[Action], /) -> list[Action]: ...


class SideRule(Protocol):
    def __call__(self, g: Context, battle: BattleFrame, side: str, /) -> bool: ...


class ForcedRetreats(Protocol):
    def __call__(self, g: Context, battle: BattleFrame, /) -> list[str]: ...


class CreatureUnits(Protocol):
    def __call__(self, g: Context, area: int, player: int, /) -> list[str]: ...


class BattleHooks(TypedDict):
    before_battle: Hook[BattleStep]
    after_roll: Hook[BattleStep]
    die: Hook[Die]
    building_kinds: Hook[BuildingKinds]
    battle_bonus: Hook[SideStrength]
    round_result: Hook[RoundResult]
    loss_options: Hook[LossOptions]
    may_retreat: Hook[SideRule]
    must_retreat: Hook[ForcedRetreats]
    creature_units: Hook[CreatureUnits]


# How heroes and creatures change a battle: each a list of functions called in order.
BATTLE: BattleHooks = {
    "before_battle": Hook("before_battle", "f(g, battle) before the first round; may change sides "
                          "or push a frame (Pandora, Hector)"),
    "after_roll": Hook("after_roll", "f(g, battle) once battle[\"dice\"] is rolled; may push a "
                       "frame (Croesus' re-roll)"),
    "die": Hook("die", "f(g, battle, side, die) -> the result that counts for the side (Antigone, Helen)"),
    "building_kinds": Hook("building_kinds", "f(g, battle, player, land, kind, kinds) -> the site "
                           "kinds counting as `kind` (Hippolyta, Odysseus)"),
    "battle_bonus": Hook("battle_bonus", "f(g, battle, player, total) -> a side's strength (Penelope)"),
    "round_result": Hook("round_result", "f(g, battle, strength_a, strength_d, losers) -> the sides "
                         "that lose the round (Penthesilea)"),
    "loss_options": Hook("loss_options", "f(g, battle, side, options) -> the losses a side may take "
                         "(Perseus' escape)"),
    "may_retreat": Hook("may_retreat", "f(g, battle, side) -> False: the side may not retreat (the "
                        "Minotaur)"),
    "must_retreat": Hook("must_retreat", "f(g, battle) -> the sides that must retreat now, or be "
                         "destroyed (Achilles)"),
    "creature_units": Hook("creature_units", "f(g, area, player) -> the creatures fighting for the "
                           "player there (the Minotaur)"),
}
HOOKS = BATTLE


def start_battle(g: Context, att: int, dfd: int, area: int, frm: int, troops: int = 0, mercs: int = 0,
                 heroes: tuple[str, ...] = (), fleets: int = 0) -> None:
    """The attacker's units stand in the frame until the battle ends; the defender's stay on the board."""
    sea = not g.board.is_land[area]
    # R19: an attack on the defender's last land area (allowed only when it gives the attacker
    # the metropolises needed) ends the game at the end of the cycle if it is won.
    last = not sea and controlled_lands(g, dfd) == [area]
    g.emit("battle", attacker=att, defender=dfd, area=g.board.ids[area], sea=sea)
    push(g, "battle", att, sea=sea, area=area, attacker=att, defender=dfd, origin=frm,
         attacker_troops=troops, attacker_mercenaries=mercs, attacker_heroes=tuple(heroes),
         attacker_fleets=fleets, stage="start", pending=(), losers=(), dice=(), round=0,
         last_area=last)


# --- the two sides ----------------------------------------------------------------

def player_of(f: BattleFrame, side: str) -> int:
    return f["attacker"] if side == "a" else f["defender"]


def other(side: str) -> str:
    return "d" if side == "a" else "a"


def side_heroes(g: Context, f: BattleFrame, side: str) -> tuple[str, ...]:
    """The heroes involved in the battle on a side (none in a sea battle)."""
    if f["sea"]:
        return ()
    return f["attacker_heroes"] if side == "a" else tuple(heroes_at(g, f["area"]))


def side_of_hero(g: Context, f: BattleFrame, hero: str) -> str | None:
    for side in ("a", "d"):
        if hero in side_heroes(g, f, side):
            return side
    return None


def creature_units(g: Context, area: int, p: int) -> list[str]:
    """Creatures that fight as units for p in a land area (the Minotaur defends its area)."""
    out = []
    for fn in HOOKS["creature_units"]:
        out.extend(fn(g, area, p))
    return out


def _creatures(g: Context, f: BattleFrame, side: str) -> list[str]:
    if f["sea"] or side == "a":
        return []  # creatures do not move with troops: they only defend their area
    return creature_units(g, f["area"], f["defender"])


def side_units(g: Context, f: BattleFrame, side: str) -> int:
    s, a = g.state, f["area"]
    if side == "a":
        if f["sea"]:
            return f["attacker_fleets"]
        return f["attacker_troops"] + f["attacker_mercenaries"] + len(f["attacker_heroes"])
    if f["sea"]:
        return s.fleets[a]
    return s.troops[a] + s.mercs[a] + heroes_at(g, a, count=True) + len(_creatures(g, f, side))


def battle_buildings(g: Context, f: BattleFrame, p: int, land: int, kind: str) -> int:
    """p's active buildings in `land` that count as `kind` (a port in sea battles, a fortress when
    defending); a metropolis counts as each (R15)."""
    kinds = frozenset((kind, METROPOLIS))
    for fn in HOOKS["building_kinds"]:
        kinds = fn(g, f, p, land, kind, kinds)
    return sum(1 for site in g.board.sites_of(land)
               if g.state.sites[site] in kinds and building_active(g, site))


def effective_die(g: Context, f: BattleFrame, side: str, die: int) -> int:
    for fn in HOOKS["die"]:
        die = fn(g, f, side, die)
    return die


def strength(g: Context, f: BattleFrame, side: str, die: int) -> int:
    s, b, a = g.state, g.board, f["area"]
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
            troops, mercs = f["attacker_troops"], f["attacker_mercenaries"]
        else:
            troops, mercs = s.troops[a], s.mercs[a]
        total += troops * unit_strength(g, p, a, "troop") + mercs * unit_strength(g, p, a, "merc")
        for h in side_heroes(g, f, side):
            total += unit_strength(g, p, a, "hero", h)
        for c in _creatures(g, f, side):
            total += unit_strength(g, p, a, "creature", c)
        if side == "d":  # R15: each fortress (or metropolis) when defending
            total += battle_buildings(g, f, p, a, "fortress")
    for fn in HOOKS["battle_bonus"]:
        total = fn(g, f, p, total)
    return total


def loss_options(g: Context, f: BattleFrame, side: str) -> list[Action]:
    s, a = g.state, f["area"]
    if f["sea"]:
        return [Action("lose", what="fleet")]
    if side == "a":
        troops, mercs = f["attacker_troops"], f["attacker_mercenaries"]
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


def take_units(g: Context, f: BattleFrame, side: str, kind: str, n: int) -> None:
    """n troops, mercenaries or fleets leave a side (destroyed or moved): the side's count drops;
    the defender's come off the board, the attacker's out of the frame."""
    s, a = g.state, f["area"]
    if side == "a":
        if kind == "fleet":
            f["attacker_fleets"] -= n
        elif kind == "troop":
            f["attacker_troops"] -= n
        else:
            f["attacker_mercenaries"] -= n
    elif kind == "fleet":
        s.fleets[a] -= n
    elif kind == "troop":
        s.troops[a] -= n
    else:
        s.mercs[a] -= n


def destroy_units(g: Context, f: BattleFrame, side: str, kind: str, n: int = 1) -> None:
    """n of a side's troops, mercenaries or fleets destroyed: back to their reserve."""
    s, p = g.state, player_of(f, side)
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


def lose_unit(g: Context, f: BattleFrame, side: str, act: Action) -> None:
    a = f["area"]
    p = player_of(f, side)
    if act.kind == "escape":
        escape(g, f, side, act.what, g.board.index[act.where])
        return
    g.emit("casualty", player=p, area=g.board.ids[a], unit=act.what)
    if act.kind == "lose_hero":
        if side == "a":
            f["attacker_heroes"] = tuple(h for h in f["attacker_heroes"] if h != act.what)
        lose_hero(g, act.what)
        return
    if act.what in ("fleet", "troop", "merc"):
        destroy_units(g, f, side, act.what)
        return
    ops.release(g, act.what)  # a creature fighting as a unit (the Minotaur)


def destroy_side(g: Context, f: BattleFrame, side: str) -> None:
    """All of a side's troops and heroes are destroyed (Achilles' power)."""
    s, a = g.state, f["area"]
    p = player_of(f, side)
    g.emit("side_destroyed", player=p, area=g.board.ids[a])
    if side == "a":
        troops, mercs = f["attacker_troops"], f["attacker_mercenaries"]
    else:
        troops, mercs = s.troops[a], s.mercs[a]
    destroy_units(g, f, side, "troop", troops)
    destroy_units(g, f, side, "merc", mercs)
    for h in side_heroes(g, f, side):
        if side == "a":
            f["attacker_heroes"] = tuple(x for x in f["attacker_heroes"] if x != h)
        lose_hero(g, h)


# Where retreating troops may go, by `Ruleset.land_retreat`, given the area's controller and the
# retreating player. Legendary, Land Battle: "an accessible Land Area that is either empty or
# under their control". The 2009 edition (R31): "a linked friendly isle", one the player
# controls; an isle no one controls is not friendly.
LAND_RETREATS: dict[str, Callable[[int, int], bool]] = {
    "empty_or_own": lambda owner, p: owner in (NOBODY, p),
    "own": lambda owner, p: owner == p,
}


def retreats(g: Context, f: BattleFrame, side: str) -> list[int]:
    """Where a side may retreat. Fleets: an adjacent sea area that is free or their own (Sea
    Battle; the 2009 edition alike, R31). Troops: an accessible land area, reached as a land move
    would, that the ruleset's `land_retreat` allows (Land Battle; R31)."""
    s, a = g.state, f["area"]
    p = player_of(f, side)
    if not all(fn(g, f, side) for fn in HOOKS["may_retreat"]):
        return []
    if f["sea"]:
        return [x for x in sea_neighbours(g, p, a)
                if x != a and (s.ctrl[x] == p or (s.ctrl[x] == NOBODY and not s.fleets[x]))
                and can_enter_sea(g, p, x)]
    friendly = LAND_RETREATS[g.rules.land_retreat]
    return sorted(x for x in accessible_lands(g, p, a) if friendly(s.ctrl[x], p) and may_stop(g, p, x))


# --- the frame -----------------------------------------------------------------

class BattleFrame(Frame):
    """A Sea or Land Battle. `player` is whoever decides now (a loss, a retreat). A side is
    "a" (the attacker) or "d" (the defender)."""
    sea: bool
    area: At                   # where the battle is fought
    attacker: Player
    defender: Player
    origin: From               # where the attacker came from
    # The attacker's units stand in the frame until the battle ends; the defender's stay on the
    # board.
    attacker_troops: Count
    attacker_mercenaries: Count
    attacker_heroes: tuple[str, ...]  # hero names
    attacker_fleets: Count
    # start|check|roll|rolling|rolled|loss|retreat_d|retreat_a|flee_a|flee_d (flee: a forced
    # retreat, Achilles)
    stage: str
    pending: tuple[str, ...]   # the sides still to take this round's loss, in order
    losers: tuple[str, ...]    # the sides that lost this round
    dice: tuple[int, ...]      # (attacker's die, defender's die) as rolled this round
    round: Count               # 1 for the first round
    last_area: bool            # R19: an attack on the defender's last land area


@handler("battle", BattleFrame)
class Battle(Handler):
    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        at, stage, sea = at_area(g, f.get("area")), str(f.get("stage", "")), bool(f.get("sea"))
        if stage == "loss":
            return who.say(N_("You lost the round of the Sea Battle {at}: choose a unit to lose"),
                           N_("{player} lost the round of the Sea Battle {at}: choose a unit to lose"), at=at) \
                if sea else who.say(N_("You lost the round of the Land Battle {at}: choose a unit to lose"),
                                    N_("{player} lost the round of the Land Battle {at}: choose a unit to lose"), at=at)
        if stage.startswith(("retreat", "flee")):
            if sea:
                return who.say(N_("You may retreat from the Sea Battle {at}"),
                               N_("{player} may retreat from the Sea Battle {at}"), at=at)
            return who.say(N_("You may retreat from the Land Battle {at}"),
                           N_("{player} may retreat from the Land Battle {at}"), at=at)
        if sea:
            return who.say(N_("You are fighting the Sea Battle {at}"), N_("{player} is fighting the Sea Battle {at}"),
                           at=at)
        return who.say(N_("You are fighting the Land Battle {at}"), N_("{player} is fighting the Land Battle {at}"),
                       at=at)


    @staticmethod
    def auto(g: Context, f: BattleFrame) -> bool:
        step = _STEPS.get(f["stage"])
        return step(g, f) if step else False

    @staticmethod
    def legal(g: Context, f: BattleFrame) -> list[Action]:
        stage = f["stage"]
        if stage == "loss":
            return loss_options(g, f, f["pending"][0])
        side = "a" if stage in ("retreat_a", "flee_a") else "d"
        out = [Action("retreat", where=g.board.ids[x]) for x in retreats(g, f, side)]
        return out if stage.startswith("flee") else [*out, HOLD]

    @staticmethod
    def apply(g: Context, f: BattleFrame, act: Action) -> None:
        stage = f["stage"]
        if stage == "loss":
            lose_unit(g, f, f["pending"][0], act)
            f["pending"] = f["pending"][1:]
        elif act.kind == "hold":
            f["stage"] = "retreat_a" if stage == "retreat_d" else "roll"
        else:
            _retreat(g, f, "a" if stage in ("retreat_a", "flee_a") else "d", g.board.index[act.where])


# --- what happens without a decision, stage by stage (Battle.auto): True if anything changed ---

def _begin(g: Context, f: BattleFrame) -> bool:
    """The powers that act "before the battle" (they may ask a choice)."""
    f["stage"] = "check"
    for fn in HOOKS["before_battle"]:
        fn(g, f)
    return True


def _check(g: Context, f: BattleFrame) -> bool:
    if side_units(g, f, "a") and side_units(g, f, "d"):
        f["stage"] = "roll"
    else:
        _end(g, f, attacker_holds=side_units(g, f, "a") > 0)
    return True


def _roll(g: Context, f: BattleFrame) -> bool:
    f["round"] += 1
    f["stage"] = "rolling"
    roll(g, 2, "battle_dice")
    return True


def _losses(g: Context, f: BattleFrame) -> bool:
    """Each losing side takes its loss; a real choice waits on the side's owner (R18)."""
    while f["pending"]:
        side = f["pending"][0]
        if side_units(g, f, side) == 0:
            f["pending"] = f["pending"][1:]
            continue
        options = loss_options(g, f, side)
        if len(options) > 1:
            f["player"] = player_of(f, side)
            return False
        lose_unit(g, f, side, options[0])
        f["pending"] = f["pending"][1:]
    return _after_losses(g, f)


def _flee(g: Context, f: BattleFrame) -> bool:
    """A forced retreat (Achilles): the side retreats, or its Troops and Heroes are destroyed."""
    side = f["stage"][-1]
    if not retreats(g, f, side):
        destroy_side(g, f, side)
        f["stage"] = "check"
        return True
    f["player"] = player_of(f, side)
    return False


def _may_retreat(side: str, next_stage: str) -> Callable[[Context, BattleFrame], bool]:
    """The side may retreat (it decides), or the battle goes on to `next_stage`."""
    def step(g: Context, f: BattleFrame) -> bool:
        if not retreats(g, f, side):
            f["stage"] = next_stage
            return True
        f["player"] = player_of(f, side)
        return False
    return step


def _resolve(g: Context, f: BattleFrame) -> bool:
    _resolve_round(g, f)
    return True


_STEPS: dict[str, Callable[[Context, BattleFrame], bool]] = {
    "start": _begin, "check": _check, "roll": _roll, "rolled": _resolve, "loss": _losses,
    "flee_a": _flee, "flee_d": _flee,
    "retreat_d": _may_retreat("d", "retreat_a"), "retreat_a": _may_retreat("a", "roll"),
}


@after_chance("battle_dice")
def _rolled(g: Context, dice: tuple[Any, ...], args: tuple[Any, ...]) -> None:
    """The round's two dice, the attacker's first: the powers that act on a roll, then the round."""
    f: BattleFrame = nearest(g, "battle")
    f["dice"] = dice
    f["stage"] = "rolled"
    for fn in HOOKS["after_roll"]:
        fn(g, f)


def _resolve_round(g: Context, f: BattleFrame) -> None:
    raw = f["dice"]
    da, dd = effective_die(g, f, "a", raw[0]), effective_die(g, f, "d", raw[1])
    sa, sd = strength(g, f, "a", da), strength(g, f, "d", dd)
    event = dict(area=g.board.ids[f["area"]], round=f["round"], dice=[da, dd], strength=[sa, sd])
    if (da, dd) != raw:
        event["rolled"] = list(raw)
    g.emit("round", **event)
    losers: tuple[str, ...] = ("a", "d") if sa == sd else ("a",) if sa < sd else ("d",)
    for fn in HOOKS["round_result"]:
        losers = fn(g, f, sa, sd, losers)
    f["pending"] = f["losers"] = losers
    f["stage"] = "loss"


def _after_losses(g: Context, f: BattleFrame) -> bool:
    a_left, d_left = side_units(g, f, "a"), side_units(g, f, "d")
    if a_left and d_left:
        forced = [side for fn in HOOKS["must_retreat"] for side in fn(g, f)]
        f["stage"] = f"flee_{forced[0]}" if forced else "retreat_d"
        return True
    _end(g, f, attacker_holds=a_left > 0)
    return True


def _retreat(g: Context, f: BattleFrame, side: str, dest: int) -> None:
    s, area = g.state, f["area"]
    if side == "a":
        g.emit("retreat", player=f["attacker"], origin=g.board.ids[area], destination=g.board.ids[dest])
        if f["sea"]:
            s.fleets[dest] += f["attacker_fleets"]
        else:
            s.troops[dest] += f["attacker_troops"]
            s.mercs[dest] += f["attacker_mercenaries"]
            for h in f["attacker_heroes"]:
                s.hero_at[h] = dest
        ops.take_control(g, dest, f["attacker"])
        pop(g, f)
        heroes_arrive(g, f["attacker"], dest, () if f["sea"] else f["attacker_heroes"])
        return
    g.emit("retreat", player=f["defender"], origin=g.board.ids[area], destination=g.board.ids[dest])
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
    ops.take_control(g, dest, f["defender"])
    _end(g, f, attacker_holds=True)
    heroes_arrive(g, f["defender"], dest, heroes)


def escape(g: Context, f: BattleFrame, side: str, kind: str, dest: int) -> None:
    """One troop or mercenary leaves the battle for `dest` instead of being destroyed (Perseus)."""
    s, p = g.state, player_of(f, side)
    take_units(g, f, side, kind, 1)
    if kind == "troop":
        s.troops[dest] += 1
    else:
        s.mercs[dest] += 1
    g.emit("escaped", player=p, origin=g.board.ids[f["area"]], destination=g.board.ids[dest], unit=kind)
    ops.take_control(g, dest, p)


def _end(g: Context, f: BattleFrame, attacker_holds: bool) -> None:
    """The battle is over: the side left in the area controls it."""
    s, area, att, dfd = g.state, f["area"], f["attacker"], f["defender"]
    pop(g, f)
    if attacker_holds:
        g.emit("battle_won", player=att, area=g.board.ids[area])
        if f["sea"]:
            s.fleets[area] = f["attacker_fleets"]
        else:
            s.troops[area] = f["attacker_troops"]
            s.mercs[area] = f["attacker_mercenaries"]
            for h in f["attacker_heroes"]:
                s.hero_at[h] = area
        s.ctrl[area] = NOBODY if f["sea"] else dfd
        ops.take_control(g, area, att)
        if f.get("last_area"):
            s.end_flag = True  # R19: even if the defender retreated, or the area is lost again
        if not f["sea"]:
            metropolis_conquered(g, area, dfd)
        return
    if f["sea"] and not s.fleets[area]:
        s.ctrl[area] = NOBODY  # both sides destroyed: no one controls the sea (rulebook)
    g.emit("battle_held", player=dfd, area=g.board.ids[area])
