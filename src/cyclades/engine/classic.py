"""The 2009 classic edition's own rules (R1): the strategies its ruleset names.

The classic game (classic-rulebook-overview.txt, classic-rulebook-actions.txt) runs on the
same engine as Legendary; `content/rulesets.CLASSIC` holds its numbers and names the
strategies below, which register themselves in the tables of the modules that own each rule:

- setup.SETUPS["printed"]: the starting Troops and Fleets printed on the board (R8).
- cycle.GOD_PREPARATION["shuffle"]: the god tiles shuffled each cycle, the face-down ones of
  the last cycle first.
- turns.TURN_START["next_turn"]: a creature's figure stays until its owner's next turn.
- turns.APOLLO_REWARDS["classic"]: 1 GP, or 4 with a single isle; the marker for the first (R9).
- Turn menu items: buildings at 2 GP each (Build), Poseidon's fleet move of up to 3 sea spaces
  (R17), Zeus' change of a creature (R25).

Everything else (offerings with a 1 GP minimum and no cap, R10-R12; revenues of 1 GP per
prosperity marker; the metropolis space and the victory with 2, R20-R21; the two markers of
the 2-player game, R23; the 17-card deck, R25) is data the general rules read.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..content.gods import APOLLO, GODS
from ..content.i18n import N_
from . import ops
from .actions import Action
from .board import load_classic
from .chance import after_chance, draw
from .cycle import GOD_PREPARATION
from .frames import Addressed, Area, AreaCounts, Areas, Count, Frame, From, Handler, handler, pop, push
from .moves import arrive_sea, move_step, sea_origins
from .ops import discard_creature_card, release
from .queries import can_enter_sea, controlled_lands, sea_neighbours
from .setup import SETUPS
from .state import NOBODY
from .teams import gain, may_attack, pay, purse
from .turns import APOLLO_REWARDS, TURN_START, TurnFrame, menu_item, place_building

if TYPE_CHECKING:
    from .context import Context

CANCEL = Action("cancel")
DONE = Action("done")
VOYAGE_LENGTH = 3  # "move them a maximum of 3 spaces"

# --- Setup: the starting positions printed on the board (R8) ------------------------------------

def printed_starts(g: Context) -> None:
    """Setup 2: "Place the isles, and the starting troops and fleets, according to the player
    count as shown on the board": player i takes starting position i of the board's data."""
    s, b = g.state, g.board
    if b.spec.get("kind") != "classic":
        raise ValueError("the classic setup needs the classic board (R8)")
    s.cycle = 0  # the first Cycle follows (a scenario may say otherwise)
    for p, start in enumerate(load_classic()["starts"][str(b.spec["players"])][:s.n]):
        for area, n in start["troops"].items():
            ops.place_troops(g, b.index[area], p, n)
        for area, n in start["fleets"].items():
            ops.place_fleets(g, b.index[area], p, n)


SETUPS.plug("printed", printed_starts, "classic")


# --- 2. The Gods: shuffled every cycle -----------------------------------------------------------

def shuffle_gods(g: Context) -> None:
    """"Shuffle the four God tiles onto the spaces above Apollo (...) with 3-4 players some
    Gods are placed face down and become available in the following cycle": the gods that
    were face down take the first spaces, face up, in random order; the others are shuffled
    onto the spaces after them, the last ones face down. With 2 and 5 players every god is
    face up and all four are simply shuffled."""
    s = g.state
    down, up = s.gods[s.faceup:], s.gods[:s.faceup]
    ops.shuffle(g, down)
    ops.shuffle(g, up)
    s.gods = down + up


GOD_PREPARATION.plug("shuffle", shuffle_gods, "classic")


# --- Creatures: a figure stays until its owner's next turn ----------------------------------------

def creatures_leave(g: Context, p: int) -> None:
    """The classic cycle has no maintenance phase and its Priests stay in play; the creature
    booklet is not in the rulebooks (R25). Reading: a figure acts until its owner's next turn,
    as the 2009 figures did. So the cards p holds are discarded (their figures leave the board)
    as p's first turn of a cycle begins; with two turns in a cycle (R23) the second keeps what
    the first summoned."""
    s = g.state
    key = f"acted:{p}"
    if s.turn_flags.get(key):
        return
    s.turn_flags[key] = 1
    for card in sorted(c for c, owner in s.creature_owner.items() if owner == p):
        release(g, card)


TURN_START.plug("next_turn", creatures_leave, "classic")


# --- Apollo (R9) -----------------------------------------------------------------------------

def apollo_classic(g: Context, p: int) -> None:
    """"1 GP if he owns more than one isle, or 4 GP if he owns a single isle (...) Moreover, he
    takes one prosperity marker which he places on the isle of his choice (...) only the first
    player to have chosen Apollo will get a prosperity marker" (R9)."""
    s = g.state
    gain(g, p, 4 if len(controlled_lands(g, p)) == 1 else g.rules.apollo_gp)
    # The first to choose Apollo; with two markers (R23) only that marker's turn.
    if s.apollo and s.apollo[0] == p and not s.turn_flags.get("apollo_marker"):
        s.turn_flags["apollo_marker"] = 1
        push(g, "prosper", p, left=("land",))


APOLLO_REWARDS.plug("classic", apollo_classic, "classic")


# --- C. Build: 2 GP a building, any number ---------------------------------------------------------

def _build_legal(g: Context, f: TurnFrame) -> list[Action]:
    """"A player may build the same sort of building multiple times, including on the same isle,
    so long as he can afford the cost of 2 GP" -- on a free building space of an isle of his
    (the metropolis space is kept for a metropolis, R8)."""
    p, god = f["player"], f["god"]
    cost = g.rules.building_cost
    if cost is None or god == APOLLO or purse(g, p) < cost:
        return []
    kind = GODS[god].building
    if kind is None or ops.buildings_left(g, kind) <= 0:  # R28 (every classic god but Apollo builds)
        return []
    return [Action("build", what=kind, where=g.board.ids[a], n=cost)
            for a in controlled_lands(g, f["player"]) if _free_building_site(g, a) is not None]


def _free_building_site(g: Context, a: int) -> int | None:
    sites = g.state.sites
    return next((i for i in g.board.building_sites(a) if not sites[i]), None)


def _build_apply(g: Context, f: TurnFrame, a: Action) -> None:
    p, area = f["player"], g.board.index[a.where]
    pay(g, p, a.n)
    site = _free_building_site(g, area)
    assert site is not None  # offered only with a free building space
    # "As soon as a player owns 4 different buildings (...) he automatically creates a
    # Metropolis": place_building checks it.
    place_building(g, p, site, a.what)


menu_item("buy_building", ("build",), when=lambda r: r.building_cost is not None)(
    (_build_legal, _build_apply))


# --- D. Zeus: change the creatures (R25) ------------------------------------------------------------

def _swap_legal(g: Context, f: TurnFrame) -> list[Action]:
    """"For 1 GP, the player can discard an available Creature card and replace it with the
    first card of the draw pile" -- as often as he can pay. `where` names the track slot by its
    price ("slot-3": the same card may lie on two slots); `n` is the 1 GP paid."""
    s = g.state
    if f["god"] != "zeus" or purse(g, f["player"]) < 1:
        return []
    return [Action("swap_creature", what=c, where=f"slot-{cost}", n=1)
            for c, cost in zip(s.creature_track, g.rules.creature_costs) if c]


def _swap_apply(g: Context, f: TurnFrame, a: Action) -> None:
    s, p = g.state, f["player"]
    slot = g.rules.creature_costs.index(int(a.where.removeprefix("slot-")))
    pay(g, p, a.n)
    s.creature_track[slot] = None
    discard_creature_card(g, a.what)
    draw(g, "creature_deck", 1, "creature_swapped", (p, slot, a.what, a.n))


@after_chance("creature_swapped")
def _swapped(g: Context, cards: tuple[Any, ...], args: tuple[Any, ...]) -> None:
    p, slot, old, cost = args
    g.state.creature_track[slot] = cards[0]
    g.emit("creature_swapped", player=p, card=old, new=cards[0], cost=cost)


menu_item("swap_creature", ("swap_creature",), when=lambda r: r.zeus_action == "swap")(
    (_swap_legal, _swap_apply))


# --- D. Poseidon: move fleets up to 3 sea spaces (R17) ---------------------------------------------

def _voyage_legal(g: Context, f: TurnFrame) -> list[Action]:
    if f["god"] != "poseidon" or purse(g, f["player"]) < 1 or not sea_origins(g, f["player"]):
        return []
    return [Action("fleet_move", n=1)]


def _voyage_apply(g: Context, f: TurnFrame, a: Action) -> None:
    push(g, "voyage", f["player"], stage="origin", origin=-1, fleets_from_origin=0, fleets=0,
         position=-1, path=(), changes=(), picked=False, dropped=False)


menu_item("fleet_move", ("fleet_move",), when=lambda r: r.sea_move == "voyage")(
    (_voyage_legal, _voyage_apply))


def _enemy_fleets(g: Context, p: int, sea: int) -> bool:
    s = g.state
    return s.fleets[sea] > 0 and s.ctrl[sea] not in (NOBODY, p)


def _stationed(g: Context, f: VoyageFrame, sea: int) -> int:
    """p's fleets that would stand in `sea` as the move goes, the moving ones apart: those on
    the board, less those taken from the origin and picked up there, plus those dropped."""
    s, p = g.state, f["player"]
    n = s.fleets[sea] if s.ctrl[sea] == p else 0
    if sea == f["origin"]:
        n -= f["fleets_from_origin"]
    return n - sum(delta for x, delta in f["changes"] if x == sea)


def _next_seas(g: Context, f: VoyageFrame) -> list[int]:
    """Where the moving fleets may sail next: an adjacent sea they may enter; one with enemy
    fleets ends the move in a sea battle."""
    p = f["player"]
    s = g.state
    return [y for y in sea_neighbours(g, p, f["position"]) if can_enter_sea(g, p, y)
            and not (_enemy_fleets(g, p, y) and not may_attack(g, p, s.ctrl[y], y))]


class VoyageFrame(Frame):
    """Poseidon's classic fleet move (R17), sea by sea."""
    stage: str               # origin|count|route
    origin: From             # the sea the move starts from (-1 until chosen)
    fleets_from_origin: Count  # fleets taken from the origin
    fleets: Count            # fleets moving now (picked up ones added, dropped ones taken off)
    position: Area           # the sea they are in
    path: Areas              # the seas entered, in order
    changes: AreaCounts      # ((sea, +picked up or -dropped), ...) on the way
    picked: bool             # fleets were picked up at this sea (once per sea)
    dropped: bool            # fleets were dropped at this sea (once per sea)


# What a Fleet move waits on, by its step: (to the player, about them).
VOYAGE_STEPS = {
    "origin": (N_("You are making a Fleet move: choose where the units leave from"),
               N_("{player} is making a Fleet move: choose where the units leave from")),
    "dest": (N_("You are making a Fleet move: choose where they go"),
             N_("{player} is making a Fleet move: choose where they go")),
    "units": (N_("You are making a Fleet move: choose how many Fleets go"),
              N_("{player} is making a Fleet move: choose how many Fleets go")),
}

@handler("voyage", VoyageFrame)
class Voyage(Handler):
    """Poseidon's classic fleet move (R17): "For 1 GP, the player may move Fleets currently on
    the same sea space and move them a maximum of 3 spaces. He can add or abandon Fleets during
    that movement. If Fleets enter a space occupied by enemy Fleets, their movement ends and a
    naval battle begins immediately."

    A sequence (R26): origin, how many fleets, then sea by sea; at each sea on the way the
    player may pick up fleets of theirs standing there and drop some of the moving ones (once
    each per sea), then sail on or stop. Nothing changes and nothing is paid until the move
    ends (stop, third space, or a battle); it may be cancelled until then.

    Frame: `VoyageFrame`."""

    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        return who.say(*VOYAGE_STEPS[move_step(f, cls.legal(g, f))])

    @staticmethod
    def legal(g: Context, f: VoyageFrame) -> list[Action]:
        s, ids = g.state, g.board.ids
        if f["stage"] == "origin":
            return [Action("origin", where=ids[a]) for a in sea_origins(g, f["player"])] + [CANCEL]
        if f["stage"] == "count":
            return [Action("take", what="fleet", n=k) for k in range(1, s.fleets[f["origin"]] + 1)] + [CANCEL]
        out = [Action("destination", where=ids[y]) for y in _next_seas(g, f)]
        if f["path"]:
            # Picking up or dropping only matters on the way: not where the move ends.
            if not f["picked"]:
                out += [Action("take", what="fleet", n=k)
                        for k in range(1, _stationed(g, f, f["position"]) + 1)]
            if not f["dropped"]:
                out += [Action("drop", what="fleet", n=k) for k in range(1, f["fleets"])]
            out.append(DONE)
        return [*out, CANCEL]

    @staticmethod
    def apply(g: Context, f: VoyageFrame, a: Action) -> None:
        if a.kind == "cancel":
            pop(g, f)
        elif a.kind == "origin":
            f["origin"] = f["position"] = g.board.index[a.where]
            f["stage"] = "count"
        elif a.kind == "take" and f["stage"] == "count":
            f["fleets_from_origin"] = f["fleets"] = a.n
            f["stage"] = "route"
        elif a.kind == "take":  # pick up fleets standing in this sea
            f["fleets"] += a.n
            f["changes"] += ((f["position"], a.n),)
            f["picked"] = True
        elif a.kind == "drop":
            f["fleets"] -= a.n
            f["changes"] += ((f["position"], -a.n),)
            f["dropped"] = True
        elif a.kind == "done":
            _sail(g, f)
        else:
            y = g.board.index[a.where]
            f["path"] += (y,)
            f["position"], f["picked"], f["dropped"] = y, False, False
            if _enemy_fleets(g, f["player"], y) or len(f["path"]) == VOYAGE_LENGTH:
                _sail(g, f)


def _sail(g: Context, f: VoyageFrame) -> None:
    """The move happens now, and is paid now: fleets leave the origin, are picked up and
    dropped on the way, and arrive (or fight) in the last sea entered."""
    s, p = g.state, f["player"]
    frm, path, dest = f["origin"], f["path"], f["position"]
    pop(g, f)
    pay(g, p, 1)
    ids = g.board.ids
    g.emit("sea_move", player=p, origin=ids[frm], destination=ids[dest], fleets=f["fleets"], cost=1,
           path=[ids[x] for x in path],
           picked_up=[{"area": ids[x], "count": d} for x, d in f["changes"] if d > 0],
           dropped=[{"area": ids[x], "count": -d} for x, d in f["changes"] if d < 0])
    s.fleets[frm] -= f["fleets_from_origin"]
    touched = {frm}
    for x, delta in f["changes"]:
        s.fleets[x] -= delta
        touched.add(x)
    for x in sorted(touched):
        if s.fleets[x]:
            ops.take_control(g, x, p)  # a sea where fleets were dropped is p's now
        elif s.ctrl[x] == p:
            s.ctrl[x] = NOBODY  # an empty sea area is controlled by no one (R16)
    prev = path[-2] if len(path) > 1 else frm
    arrive_sea(g, p, dest, f["fleets"], prev)
