"""Buying Mythological Creatures (rulebook, "Mythological Creatures"; Zeus).

With any god but Apollo a player may buy any creature of the track for its
slot's cost less one GP per Temple (each Temple once per Cycle), apply its
effect at once, and discard it; Zeus may also look at the top card of the deck
once per Cycle and play it for 1 GP. A card's behaviour is a small function in
`EFFECTS`; a card without one is not offered. A reserved creature (Metropolis
bonus) may be bought only by the player who reserved it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..content.gods import APOLLO, METROPOLIS
from .actions import Action, new_action
from .frames import Frame, Handler, handler, pop, push
from .hooks import EFFECTS
from .ops import discard_creature_card, draw
from .queries import building_active, controlled_lands, count_in_area, shielded  # noqa: F401  (shielded: for the cards)
from .turns import menu_item
from .unit_choice import UnitChoice

if TYPE_CHECKING:
    from .game import Game


class Effect:
    """A creature's behaviour.

    `applicable(g, p)` says whether it can act now (else the card is discarded
    without effect). `play(g, p, card)` starts it: by default it pushes a
    "creature" frame (stage "start") whose decisions the effect answers with
    `legal(g, f)` / `apply(g, f, action)` / `auto(g, f)`, like any frame
    handler; the effect calls `finish(g, f)` when done, which discards the card
    (a creature with a miniature stays with its buyer instead)."""

    def applicable(self, g: Game, p: int) -> bool:
        return True

    def play(self, g: Game, p: int, card: str) -> None:
        push(g, "creature", p, card=card, stage="start")

    def legal(self, g: Game, f: CreatureFrame) -> list:
        return []

    def apply(self, g: Game, f: CreatureFrame, a: Action) -> None:
        raise NotImplementedError

    def auto(self, g: Game, f: CreatureFrame) -> bool:
        return False

    def hidden(self, f: CreatureFrame) -> tuple:
        """Frame keys only the buyer may see (R24), e.g. the Sphinx's drawn cards."""
        return ()


def effect(name: str) -> Callable[..., Any]:
    """Register a creature's Effect class: @effect("harpy")."""
    def register(cls):
        EFFECTS[name] = cls()
        return cls
    return register


def finish(g: Game, f: CreatureFrame, discard: bool = True) -> None:
    """The creature's effect is over: its frame leaves the stack and its card is discarded."""
    pop(g, f)
    if discard:
        discard_creature_card(g, f["card"])


class CreatureFrame(Frame, UnitChoice, total=False):
    """A creature's effect (engine/cards/): its card, its stage, and what the card keeps there.
    Pegasus adds the unit choice's fields (engine/unit_choice.py)."""
    card: str            # the creature card played
    stage: str           # start, then the card's own stages
    area: int            # the Calydonian Boar's area; the Cyclops' chosen building's area
    seas: tuple          # Polyphemus: the seas whose fleets must move
    origin: int          # where something is taken from (-1: not chosen yet)
    hero: str            # Charon: the player's hero to swap
    old_building: str    # Cyclops: the building to exchange
    miniatures: tuple    # Echidna: the stolen card's miniatures still to move or stay
    god: str             # Empusa: the god of the turn
    left: int            # Giant, Hippalectryon, Hippocampus: mercenaries still to place or return
    reward: str          # Hippalectryon: what the exchange gives
    exchanges_made: int  # Hippalectryon: exchanges made (then the player may stop)
    cards: tuple         # Sphinx: the cards drawn (seen by their drawer only, R24)
    first_sea: int       # Sylph: the first sea chosen
    building: str        # Triton: the building stolen


@handler("creature", CreatureFrame)
class CreatureHandler(Handler):
    """Frame: `CreatureFrame`."""

    @staticmethod
    def legal(g: Game, f: CreatureFrame) -> list:
        return EFFECTS[f["card"]].legal(g, f)

    @staticmethod
    def apply(g: Game, f: CreatureFrame, a: Action) -> None:
        EFFECTS[f["card"]].apply(g, f, a)

    @staticmethod
    def auto(g: Game, f: CreatureFrame) -> bool:
        return EFFECTS[f["card"]].auto(g, f)

    @staticmethod
    def hidden(f: CreatureFrame) -> tuple:
        return EFFECTS[f["card"]].hidden(f)


def temples(g: Game, p: int) -> int:
    """Temples (a Metropolis counts as one) whose discount p has not used this Cycle."""
    # count_in_area over controlled_lands, inlined: asked for every turn's menu of every search.
    b, s = g.board, g.state
    ctrl, sites, start, count = s.ctrl, s.sites, b.site_start, b.sites
    n = 0
    for a in b.lands:
        if ctrl[a] == p:
            for site in range(start[a], start[a] + count[a]):
                k = sites[site]
                if (k == "temple" or k == METROPOLIS) and building_active(g, site):
                    n += 1
    return max(0, n - s.turn_flags.get(f"temples_used:{p}", 0))


def creature_cost(g: Game, p: int, slot: int, free_temples: int | None = None) -> tuple:
    """(price, temples used) for the creature on a track slot. The classic game never lets
    Temples bring a price below 1 GP (`Ruleset.creature_min_cost`, R25). `free_temples`:
    `temples(g, p)` if the caller has it already."""
    base = g.rules.creature_costs[slot]
    if free_temples is None:
        free_temples = temples(g, p)
    used = min(max(0, base - g.rules.creature_min_cost), free_temples)
    return base - used, used


def _buy_legal(g, f):
    s, p = g.state, f["player"]
    if f["god"] == APOLLO:
        return []
    purse = g.purse(p)
    if purse < g.rules.creature_min_cost:
        return []  # not even a card at the lowest price Temples allow
    out = []
    costs, min_cost = g.rules.creature_costs, g.rules.creature_min_cost
    free_temples = None  # counted once, at the first card on sale
    for slot, c in enumerate(s.creature_track):
        if c is None or c not in EFFECTS or s.reserved.get(c, p) != p:
            continue
        if free_temples is None:
            free_temples = temples(g, p)
        base = costs[slot]
        cost = base - min(max(0, base - min_cost), free_temples)  # creature_cost, inlined
        if purse >= cost:
            action = new_action(("buy_creature", c, "", cost))
            if action not in out:  # two copies of a card (R25) at one price
                out.append(action)
    return out


def _buy_apply(g, f, a):
    s, p = g.state, f["player"]
    # The slot of the card at that price (the classic deck has two copies of some cards).
    free_temples = temples(g, p)
    slot = next(i for i, c in enumerate(s.creature_track)
                if c == a.what and creature_cost(g, p, i, free_temples)[0] == a.n)
    cost, used = creature_cost(g, p, slot, free_temples)
    g.pay(p, cost)
    key = f"temples_used:{p}"
    s.turn_flags[key] = s.turn_flags.get(key, 0) + used
    s.creature_track[slot] = None
    s.reserved.pop(a.what, None)
    g.emit("creature_bought", player=p, card=a.what, cost=cost)
    play_creature(g, p, a.what)


def play_creature(g: Game, p: int, card: str) -> None:
    effect = EFFECTS[card]
    if not effect.applicable(g, p):
        g.emit("creature_wasted", player=p, card=card)
        discard_creature_card(g, card)
        return
    effect.play(g, p, card)


# --- Zeus: a look at the top of the creature deck --------------------------------------

def _peek_legal(g, f):
    s = g.state
    if f["god"] != "zeus" or s.turn_flags.get("peeked") or not (s.creature_deck or s.creature_discard):
        return []
    return [Action("peek")]


def _peek_apply(g, f, a):
    s, p = g.state, f["player"]
    s.turn_flags["peeked"] = 1
    card = draw(g, s.creature_deck, s.creature_discard)
    s.creature_deck.append(card)  # it stays on top unless played
    g.emit("peek", player=p)
    push(g, "peek", p, card=card)


menu_item("buy_creature", ("buy_creature",))((_buy_legal, _buy_apply))
# Zeus' look at the deck is Legendary's; the classic Zeus swaps a creature (engine/classic.py).
menu_item("peek", ("peek",), when=lambda r: r.zeus_action == "peek")((_peek_legal, _peek_apply))


class PeekFrame(Frame):
    card: str  # the top card of the creature deck, seen by Zeus' player only (R24)


@handler("peek", PeekFrame)
class Peek(Handler):
    @staticmethod
    def hidden(f: PeekFrame) -> tuple:
        return ("card",)  # R24: what Zeus' peek showed is the peeker's secret

    @staticmethod
    def legal(g: Game, f: PeekFrame) -> list:
        out = [Action("return_peeked")]
        c = f["card"]
        if c in EFFECTS and g.purse(f["player"]) >= 1:  # the Temple discount does not apply
            out.insert(0, Action("play_peeked", what=c, n=1))
        return out

    @staticmethod
    def apply(g: Game, f: PeekFrame, a: Action) -> None:
        s, p = g.state, f["player"]
        pop(g, f)
        if a.kind == "return_peeked":
            g.emit("peek_returned", player=p)
            return
        s.creature_deck.pop()
        g.pay(p, 1)
        g.emit("creature_bought", player=p, card=f["card"], cost=1)
        play_creature(g, p, f["card"])

