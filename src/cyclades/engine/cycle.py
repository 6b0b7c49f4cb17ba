"""The Cycle: its six phases run one after another whenever the stack is empty.

1 Cycle Preparation, 2 Income, 3 Offerings, 4 Maintenance Costs, 5 Actions,
6 End of Cycle (rulebook, "Overview" and the sections that follow).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ..content.gods import APOLLO
from .chance import after_chance, draw
from .frames import push
from .hooks import Table
from .maintenance import start_maintenance
from .offerings import pay_offerings, start_offerings
from .ops import discard_creature_card
from .queries import area_income, income_receivers
from .scoring import goal_reached, result
from .teams import gain

if TYPE_CHECKING:
    from .context import Context


class Phase(Protocol):
    def __call__(self, g: Context, /) -> None: ...


# ruleset.god_preparation -> f(g): Cycle Preparation of the gods ("rotate"; classic "shuffle").
GOD_PREPARATION: Table[Phase] = Table("god_preparation", "ruleset.god_preparation -> f(g): Cycle "
                                      "Preparation of the gods")
# ruleset.upkeep -> f(g): phase 4 (Legendary's Maintenance Costs; none in the classic game).
MAINTENANCE: Table[Phase] = Table("maintenance", "ruleset.upkeep -> f(g): phase 4, Maintenance Costs")


def advance(g: Context) -> None:
    """Called when no decision is pending: move the cycle on to the next decision."""
    s = g.state
    if s.phase == "setup":
        begin_cycle(g)
    elif s.phase == "offerings":
        pay_offerings(g)
        s.phase = "maintenance"
        start = MAINTENANCE.get(g.rules.upkeep)
        if start:  # the classic game has no such phase: its creatures leave on their own
            start(g)
    elif s.phase == "maintenance":
        s.phase = "actions"
        s.action_order = [[p, god] for god in s.gods[:s.faceup] if god in s.bids
                          for p in (s.bids[god][0],)] + [[p, APOLLO] for p in s.apollo]
        s.next_action = 0
    elif s.phase == "actions":
        while s.next_action < len(s.action_order):
            p, god = s.action_order[s.next_action]
            s.next_action += 1
            if not s.eliminated[p]:
                push(g, "turn", p, god=god, stage="start", recruits_bought=0, heroic_moves=0,
                     done_once=())
                return
        end_cycle(g)


def begin_cycle(g: Context) -> None:
    s = g.state
    s.cycle += 1
    g.emit("cycle", cycle=s.cycle)
    s.bids = {}
    s.apollo = []
    if s.cycle > 1:  # the first Cycle uses the gods and tracks as set up
        prepare(g)
    else:
        open_offerings(g)


def prepare(g: Context) -> None:
    """1- Cycle Preparation: heroes, creatures, gods (the gods the ruleset's way). The cards
    are drawn (engine/chance.py) for the receivers below, which go on from there."""
    slots = tuple(i for i, h in enumerate(g.state.hero_track) if h is None)
    draw(g, "hero_deck", len(slots), "hero_track_refilled", slots)


@after_chance("hero_track_refilled")
def _heroes_drawn(g: Context, heroes: tuple[Any, ...], slots: tuple[Any, ...]) -> None:
    s = g.state
    for i, h in zip(slots, heroes):
        s.hero_track[i] = h
    # The creature on the 2 GP slot is discarded; the others slide down; refill.
    track = s.creature_track
    if track[0] is not None:
        discard_creature_card(g, track[0])
        track[0] = None
    cards = [c for c in track if c is not None]
    # A reservation lasts "as long as the card remains on the Creature track": a discarded card
    # loses it, and the same card drawn back by the refill below is a new card.
    s.reserved = {c: p for c, p in s.reserved.items() if c in cards}
    track[:] = cards + [None] * (len(track) - len(cards))
    draw(g, "creature_deck", len(track) - len(cards), "creature_track_refilled", (len(cards),))


@after_chance("creature_track_refilled")
def _creatures_drawn(g: Context, cards: tuple[Any, ...], args: tuple[Any, ...]) -> None:
    s = g.state
    first = args[0]
    s.creature_track[first:] = list(cards)
    GOD_PREPARATION[g.rules.god_preparation](g)
    g.emit("gods", order=list(s.gods), faceup=s.faceup)
    open_offerings(g)


def open_offerings(g: Context) -> None:
    """The last cycle's flags go (once its cards are drawn: Zeus' card put back on top is known
    until then), 2- Income, then 3- Offerings."""
    s = g.state
    s.turn_flags = {}
    income(g)
    s.phase = "offerings"
    start_offerings(g)


def rotate_gods(g: Context) -> None:
    """Legendary: the top god leaves, the others slide up, it returns at the bottom (face down
    if <6)."""
    s = g.state
    s.gods.append(s.gods.pop(0))


GOD_PREPARATION.plug("rotate", rotate_gods, "cycle")
# A ruleset without a Maintenance entry has no such phase (classic: creatures leave at their
# owner's next turn, engine/classic.py).
MAINTENANCE.plug("maintenance", start_maintenance, "cycle")


def income(g: Context) -> None:
    """2- Income: 1 GP per Cornucopia in the areas a player controls (or whose income a
    creature gives them), and the GP Geryon left in those areas."""
    s = g.state
    gains = [0] * s.n
    earned = incomes(g)
    for p in range(s.n):
        if not s.eliminated[p]:
            gains[p] = earned[p] + take_geryon_gp(g, p)
    for p, n in enumerate(gains):
        if n:
            gain(g, p, n)
    g.emit("income", gains=gains)


def income_of(g: Context, p: int) -> int:
    """p's income: the Cornucopias of the areas whose income p receives (queries.income_receiver:
    the controller, unless Cerberus or the Nereid is there), with their modifiers (the Hydra).
    Also what the Graeae pays ("Repeat your Income Phase")."""
    return sum(area_income(g, a) for a, r in enumerate(income_receivers(g)) if r == p)


def incomes(g: Context) -> list[int]:
    """Every player's `income_of`, in one pass over the areas (the Income phase: asking each
    player in turn cost one pass per player)."""
    out = [0] * g.state.n
    for a, r in enumerate(income_receivers(g)):
        if r >= 0:
            out[r] += area_income(g, a)
    return out


def take_geryon_gp(g: Context, p: int) -> int:
    """Geryon (Maelström): "In the '2. Income' phase, the player who controls the Area where the
    GP lie takes them into their personal reserve" -- the controller, whoever receives the
    area's Cornucopias. The Graeae's note: they are taken with the Graeae too."""
    s = g.state
    n = 0
    if not any(s.geryon_gp):
        return 0  # as in most games: Geryon left no GP anywhere
    for a, pile in enumerate(s.geryon_gp):
        if pile and s.ctrl[a] == p:
            n += pile
            s.geryon_gp[a] = 0
            g.emit("geryon_gp_taken", player=p, area=g.board.ids[a], amount=pile)
    return n


def end_cycle(g: Context) -> None:
    """6- End of Cycle: the new turn order, then the end of the game (R21)."""
    s = g.state
    acted = [p for p, _ in s.action_order]
    rest = [p for p in s.turn_order if p not in acted]
    # Each player takes the last free slot after acting: first to act, last to bid.
    s.turn_order = list(reversed(acted)) + rest
    if s.end_flag or goal_reached(g):
        finish(g)
    elif g.max_cycles and s.cycle >= g.max_cycles:
        s.cycle_limit_hit = True
        finish(g)
    else:
        begin_cycle(g)


def finish(g: Context) -> None:
    s = g.state
    s.over = True
    s.phase = "over"
    g.emit("game_over", winners=result(g)["winners"])
