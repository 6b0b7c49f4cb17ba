"""Setup (rulebook, "Setup" and "Placement for 3 to 5 players").

What the ruleset is played with comes from the ruleset (R1): its gods, decks and tracks, and
how the first units reach the board (`SETUPS`: the Legendary placement rounds here, the
classic printed starting positions in engine/classic.py).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..content import cards
from ..content.i18n import N_, ngettext
from . import ops
from .actions import Action
from .board import max_matching
from .frames import Addressed, Areas, Count, Frame, Handler, Queue, handler, pop, push
from .hooks import Table
from .naming import area_name
from .state import NOBODY, State
from .teams import allowed_start

if TYPE_CHECKING:
    from ..content.rulesets import Ruleset
    from .context import Context


class Setup(Protocol):
    def __call__(self, g: Context, /) -> None: ...


# ruleset.setup -> f(g): how the first units reach the board ("placement"; classic "printed").
SETUPS: Table[Setup] = Table("setups", "ruleset.setup -> f(g): how the first units reach the board")


def new_state(g: Context, players: int, seed: int, maelstrom: bool) -> State:
    """A fresh state before placement: decks shuffled, tracks revealed, turn order drawn."""
    b, r = g.board, g.rules
    s = State()
    g.state = s
    s.n = players
    s.rng = seed & 0xFFFFFFFFFFFFFFFF
    s.cycle = 0
    s.phase = "setup"
    s.version = 0
    s.over = False
    s.end_flag = False
    s.cycle_limit_hit = False
    s.next_action = 0
    A = len(b.ids)
    s.ctrl = [NOBODY] * A
    s.troops = [0] * A
    s.mercs = [0] * A
    s.fleets = [0] * A
    s.prosperity = [0] * A
    s.geryon_gp = [0] * A
    s.sites = [""] * b.n_sites
    s.gp = [r.start_gp] * players
    s.priestesses = [0] * players
    s.philosophers = [0] * players
    s.troops_left = [r.troops] * players
    s.fleets_left = [r.fleets] * players
    s.mercs_left = r.mercenaries
    s.eliminated = [False] * players
    s.dice = []
    s.bids, s.metro_bonus = {}, {}
    s.hero_at, s.hero_owner, s.hero_since = {}, {}, {}
    s.creature_at, s.creature_owner, s.creature_cards, s.reserved = {}, {}, {}, {}
    s.turn_flags = {}
    s.apollo, s.action_order = [], []
    s.stack = []
    # The gods in random order, the last ones face down (Setup).
    s.gods = list(r.gods)
    ops.shuffle(g, s.gods)
    s.faceup = r.face_up_count(players)
    piles = full_piles(r, maelstrom)
    s.creature_deck = piles["creature_deck"]
    ops.shuffle(g, s.creature_deck)
    s.creature_discard = []
    s.creature_track = [s.creature_deck.pop() for _ in r.creature_costs]
    s.hero_deck = piles["hero_deck"]
    ops.shuffle(g, s.hero_deck)
    s.hero_discard = []
    s.hero_track = [s.hero_deck.pop() for _ in range(r.hero_track)]
    s.bonus_stack = piles["bonus_stack"]
    ops.shuffle(g, s.bonus_stack)
    # One slot of the turn order track per offering marker (R23: two each in the classic
    # 2-player game).
    s.turn_order = [p for p in range(players) for _ in range(r.markers(players))]
    ops.shuffle(g, s.turn_order)
    return s


def full_piles(r: Ruleset, maelstrom: bool) -> dict[str, list[str]]:
    """Every card of each pile the game is played with, before shuffling (R2, R20, R25)."""
    return {"creature_deck": list(r.creature_deck) or cards.creature_deck(maelstrom),
            "hero_deck": cards.hero_deck(maelstrom) if r.heroes else [],
            "bonus_stack": cards.bonus_stack(maelstrom) if r.metropolis_bonuses else []}


def start_placement(g: Context) -> None:
    """The first units reach the board the ruleset's way (`SETUPS`)."""
    SETUPS[g.rules.setup](g)


def placement_rounds(g: Context) -> None:
    """1st Placement Round in turn order; the 2nd follows in reverse order."""
    g.state.cycle = 0  # placement comes before the first Cycle (a scenario may say otherwise)
    order = tuple(g.state.turn_order)
    push(g, "placement", order[0], round=1, queue=order[1:], step="land", claimed=(), troops_to_place=3)


def _empty_seas_next_to(g: Context, a: int) -> list[int]:
    s = g.state
    return [x for x in g.board.coast[a] if s.fleets[x] == 0 and s.ctrl[x] == NOBODY]


# --- a way on: every land area still to be claimed finds an empty sea for its fleet ---------------
#
# On a cramped board (a scenario's or a hand-made one) a claim or a fleet could leave a later
# player with no free land area next to an empty sea, and the setup would stop with no legal
# action. The placements left can all be made exactly when the free land areas (and the one whose
# fleet is being placed) can each be paired with a distinct empty sea next to it: a matching. The
# lists below leave out only a choice that would break that; on the real boards none does.

def placements_left(g: Context, f: PlacementFrame) -> int:
    """Land areas, each with its fleet, still to be placed in the placement rounds, including the
    one whose fleet is being placed now."""
    first = f["round"] == 1
    per_player = 2 if first else 1
    mine = per_player - len(f["claimed"]) + (f["step"] == "fleet")
    later = len(f["queue"]) * per_player + (len(g.state.turn_order) if first else 0)
    return mine + later


def _pairings(g: Context, f: PlacementFrame, land: int | None = None, sea: int | None = None) -> int:
    """How many of the placements left can be made: a maximum matching of the free land areas
    (and first the one whose fleet is being placed, unless `sea` is its fleet's) with the empty
    seas next to them, `land` and `sea` left out as if taken."""
    s, b = g.state, g.board
    free = [a for a in b.lands if s.ctrl[a] == NOBODY and a != land]
    if f["step"] == "fleet" and sea is None:
        free.insert(0, f["claimed"][-1])
    return max_matching(free, {a: [x for x in _empty_seas_next_to(g, a) if x != sea] for a in free})


def _greedy_pairings(g: Context) -> int:
    """A quick lower bound of `_pairings` (each free land area takes the first empty sea left next
    to it), enough on boards with seas to spare."""
    s, b = g.state, g.board
    used = set()
    for a in b.lands:
        if s.ctrl[a] == NOBODY:
            for x in b.coast[a]:
                if x not in used and s.fleets[x] == 0 and s.ctrl[x] == NOBODY:
                    used.add(x)
                    break
    return len(used)


def placement_shortfall(g: Context) -> str:
    """Why the placement under way cannot be completed on this board ("" if it can)."""
    f = g.state.stack[-1] if g.state.stack else None
    if f is None or f["kind"] != "placement" or f["step"] == "troop":
        return ""
    need = placements_left(g, f)
    have = _pairings(g, f)
    if have >= need:
        return ""
    return (f"{need} land areas are still to be claimed, each with a fleet on an empty sea next "
            f"to it, but the board's free land areas and empty seas make only {have} such pairs: "
            f"the placement would stop with no legal action")


def _keep_a_way_on(g: Context, f: PlacementFrame, lands: list[int] | None = None,
                   seas: list[int] | None = None) -> list[int]:
    """The claims (`lands`) or the fleets (`seas`) after which the placements left can still all
    be made."""
    need = placements_left(g, f)
    if _greedy_pairings(g) > need or _pairings(g, f) > need:  # a land and a sea cost at most 2 pairs
        return lands if lands is not None else seas  # type: ignore[return-value]
    if lands is not None:
        return [a for a in lands
                if any(_pairings(g, f, land=a, sea=x) >= need - 1 for x in _empty_seas_next_to(g, a))]
    return [x for x in seas or () if _pairings(g, f, sea=x) >= need - 1]


class PlacementFrame(Frame):
    """The placement rounds of the setup: an area, a fleet (twice), then troops."""
    round: int              # 1 (in turn order) or 2 (in reverse order)
    queue: Queue            # the players after `player` in this round
    step: str               # land|fleet|troop
    claimed: Areas          # the land areas `player` claimed this round
    troops_to_place: Count  # the basic troops `player` still places (second round)


# A placement step: (to you, first round; about another, first round; the same, second round)
PLACEMENT_STEPS = {
    "land": (N_("You are placing your starting units (first round): "
                "choose a free land area for a Control token"),
             N_("{player} is placing their starting units (first round): "
                "choose a free land area for a Control token"),
             N_("You are placing your starting units (second round): "
                "choose a free land area for a Control token"),
             N_("{player} is placing their starting units (second round): "
                "choose a free land area for a Control token")),
    "fleet": (N_("You are placing your starting units (first round): choose the sea next to it for a Fleet"),
              N_("{player} is placing their starting units (first round): "
                 "choose the sea next to it for a Fleet"),
              N_("You are placing your starting units (second round): choose the sea next to it for a Fleet"),
              N_("{player} is placing their starting units (second round): "
                 "choose the sea next to it for a Fleet")),
    "troop": (N_("You are placing your starting units (first round): place Troops on your land areas"),
              N_("{player} is placing their starting units (first round): place Troops on their land areas"),
              N_("You are placing your starting units (second round): place Troops on your land areas"),
              N_("{player} is placing their starting units (second round): place Troops on their land areas")),
}
PLACEMENT_ANY = (N_("You are placing your starting units (first round): choose an area"),
              N_("{player} is placing their starting units (first round): choose an area"),
              N_("You are placing your starting units (second round): choose an area"),
              N_("{player} is placing their starting units (second round): choose an area"))

@handler("placement", PlacementFrame)
class Placement(Handler):
    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        step, first = f.get("step"), f.get("round") == 1
        if step == "troop":
            n = f.get("troops_to_place", 0)
            if first:
                return who.say(ngettext("You are placing your starting units (first round): "
                                      "place {n} more Troop on your land areas",
                                      "You are placing your starting units (first round): "
                                      "place {n} more Troops on your land areas", n),
                             ngettext("{player} is placing their starting units (first round): "
                                      "place {n} more Troop on their land areas",
                                      "{player} is placing their starting units (first round): "
                                      "place {n} more Troops on their land areas", n), n=n)
            return who.say(ngettext("You are placing your starting units (second round): "
                                  "place {n} more Troop on your land areas",
                                  "You are placing your starting units (second round): "
                                  "place {n} more Troops on your land areas", n),
                         ngettext("{player} is placing their starting units (second round): "
                                  "place {n} more Troop on their land areas",
                                  "{player} is placing their starting units (second round): "
                                  "place {n} more Troops on their land areas", n), n=n)
        if step == "fleet" and f.get("claimed"):
            area = area_name(g, f["claimed"][-1])
            if first:
                return who.say(N_("You are placing your starting units (first round): "
                                "choose a sea next to {area} for a Fleet"),
                             N_("{player} is placing their starting units (first round): "
                                "choose a sea next to {area} for a Fleet"), area=area)
            return who.say(N_("You are placing your starting units (second round): "
                            "choose a sea next to {area} for a Fleet"),
                         N_("{player} is placing their starting units (second round): "
                            "choose a sea next to {area} for a Fleet"), area=area)
        texts = PLACEMENT_STEPS.get(str(step)) or PLACEMENT_ANY
        return who.say(*(texts[:2] if first else texts[2:]))


    @staticmethod
    def legal(g: Context, f: PlacementFrame) -> list[Action]:
        b, s, p = g.board, g.state, f["player"]
        step = f["step"]
        if step == "land":
            free = [a for a in b.lands if s.ctrl[a] == NOBODY and _empty_seas_next_to(g, a)]
            free = _keep_a_way_on(g, f, lands=free)
            if f["round"] == 1 and f["claimed"]:
                # Two different islands in the first round; if the board leaves no
                # such area, any free area will do rather than a dead end.
                taken = {b.island[x] for x in f["claimed"]}
                other = [a for a in free if b.island[a] not in taken]
                free = other or free
            # Team play: not on a teammate's island in the first round, unless the board leaves
            # no other way on.
            free = [a for a in free if allowed_start(g, p, a, f["round"])] or free
            return [Action("claim", where=b.ids[a]) for a in free]
        if step == "fleet":
            seas = _keep_a_way_on(g, f, seas=_empty_seas_next_to(g, f["claimed"][-1]))
            return [Action("place_fleet", where=b.ids[x]) for x in seas]
        # step == "troop": 3 basic troops over the player's land areas
        return [Action("place_troop", where=b.ids[a]) for a in b.lands if s.ctrl[a] == p]

    @staticmethod
    def apply(g: Context, f: PlacementFrame, act: Action) -> None:
        p = f["player"]
        a = g.board.index[act.where]
        step = f["step"]
        if step == "land":
            ops.take_control(g, a, p)
            f["claimed"] = f["claimed"] + (a,)
            f["step"] = "fleet"
            return
        if step == "fleet":
            ops.place_fleets(g, a, p)
            if f["round"] == 1 and len(f["claimed"]) < 2:
                f["step"] = "land"
            elif f["round"] == 2:
                f["step"] = "troop"
            else:
                _next_player(g, f)
            return
        ops.place_troops(g, a, p)
        f["troops_to_place"] -= 1
        if f["troops_to_place"] == 0:
            _next_player(g, f)


def _next_player(g: Context, f: PlacementFrame) -> None:
    if f["queue"]:
        f["player"], f["queue"] = f["queue"][0], f["queue"][1:]
        f["claimed"], f["step"], f["troops_to_place"] = (), "land", 3
    elif f["round"] == 1:
        order = tuple(reversed(g.state.turn_order))
        f["player"], f["queue"], f["round"] = order[0], order[1:], 2
        f["claimed"], f["step"], f["troops_to_place"] = (), "land", 3
    else:
        pop(g, f)


SETUPS.plug("placement", placement_rounds, "setup")

