"""Buying Mythological Creatures (rulebook, "Mythological Creatures"; Zeus).

With any god but Apollo a player may buy any creature of the track for its
slot's cost less one GP per Temple (each Temple once per Cycle), apply its
effect at once, and discard it; Zeus may also look at the top card of the deck
once per Cycle and play it for 1 GP. A card's behaviour is a small function in
`EFFECTS`; a card without one is not offered. A reserved creature (Metropolis
bonus) may be bought only by the player who reserved it.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from ..content.cards import CREATURES
from ..content.gods import APOLLO, METROPOLIS
from .actions import Action, new_action
from .chance import after_chance, draw
from .context import SEEDED
from .frames import Area, Areas, At, Frame, From, Handler, SecretCreature, SecretCreatures, handler, pop, push
from .hooks import plug_class
from .ops import ON_CREATURE_LEAVES, PEEKED_ON_TOP, discard_creature_card
from .queries import building_active, card_of, creatures_on_board, shielded, shielded_area

__all__ = ["EFFECTS", "CreatureFrame", "Effect", "effect", "finish", "play_creature", "shielded"]
from ..content.i18n import N_
from .frames import Addressed
from .naming import creature_name
from .teams import pay, purse
from .turns import TurnFrame, menu_item
from .unit_choice import UnitChoice

if TYPE_CHECKING:
    from .context import Context


class Effect:
    """A creature's behaviour.

    `applicable(g, p)` says whether it can act now (else the card is discarded
    without effect). `play(g, p, card)` starts it: by default it pushes a
    "creature" frame (stage "start") whose decisions the effect answers with
    `legal(g, f)` / `apply(g, f, action)` / `auto(g, f)`, like any frame
    handler; the effect calls `finish(g, f)` when done, which discards the card
    (a creature with a miniature stays with its buyer instead)."""

    def applicable(self, g: Context, p: int) -> bool:
        return True

    def play(self, g: Context, p: int, card: str) -> None:
        push(g, "creature", p, card=card, stage="start")

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        return []

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        raise NotImplementedError

    def auto(self, g: Context, f: CreatureFrame) -> bool:
        return False

    # A creature with a miniature (engine/cards/miniatures.py) answers these too.
    def places(self, g: Context, p: int, mini: str) -> list[int]:
        """Where p may place the miniature: its card's area type, no Creature there, not another
        player's Chiron's area."""
        return creature_destinations(g, mini, p=p)

    def arrives(self, g: Context, mini: str, area: int, p: int) -> None:
        """The miniature was placed, or moved here (maintenance, Echidna)."""

    def kept(self, g: Context, card: str, p: int) -> None:
        """During Maintenance, once its owner kept it (the Hydra)."""

    def leaves(self, g: Context, card: str) -> None:
        """Its miniatures left the board: its lasting effect ends (Typhon)."""


# creature card -> its Effect: what buying the card does (a card without one is not offered), and
# the hooks its class declares.
EFFECTS: dict[str, Effect] = {}

E = TypeVar("E", bound=type[Effect])


def effect(name: str) -> Callable[[E], E]:
    """Register a creature's Effect class, and plug in the hooks it declares: @effect("harpy")."""
    def register(cls: E) -> E:
        EFFECTS[name] = cls()
        return plug_class(cls, name)
    return register


@ON_CREATURE_LEAVES.append
def _leaves(g: Context, card: str) -> None:
    if card in EFFECTS:
        EFFECTS[card].leaves(g, card)


def creature_destinations(g: Context, c: str, frm: int | None = None, p: int | None = None) -> list[int]:
    """Areas where the miniature (or card) c may stand: its card's area type, no other creature
    there; adjacent to `frm` for a move; for a player p, not the area of another player's
    Chiron ("Other players cannot move Creatures into the Area with Chiron")."""
    b = g.board
    kind = CREATURES[card_of(c)].miniature
    occupied = set(creatures_on_board(g).values())
    areas: Sequence[int] = b.lands if kind == "land" else b.seas if kind == "sea" else range(len(b.ids))
    if frm is not None:
        adj = set(b.adj[frm])
        areas = [a for a in areas if a in adj]
    out = [a for a in areas if a not in occupied]
    if p is not None:
        chiron = shielded_area(g, p)
        if chiron is not None:
            out = [a for a in out if a != chiron]
    return out


def finish(g: Context, f: CreatureFrame, discard: bool = True) -> None:
    """The creature's effect is over: its frame leaves the stack and its card is discarded."""
    pop(g, f)
    if discard:
        discard_creature_card(g, f["card"])


class CreatureFrame(Frame, UnitChoice, total=False):
    """A creature's effect (engine/cards/): its card, its stage, and what the card keeps there.
    Pegasus adds the unit choice's fields (engine/unit_choice.py)."""
    card: str            # the creature card played
    stage: str           # start, then the card's own stages
    area: At             # the Calydonian Boar's area; the Cyclops' chosen building's area
    seas: Areas          # Polyphemus: the seas whose fleets must move
    origin: From         # where something is taken from (-1: not chosen yet)
    hero: str            # Charon: the player's hero to swap
    old_building: str    # Cyclops: the building to exchange
    miniatures: tuple[str, ...]  # Echidna: the stolen card's miniatures still to move or stay
    god: str             # Empusa: the god of the turn
    left: int            # Giant, Hippalectryon, Hippocampus: mercenaries still to place or return
    reward: str          # Hippalectryon: what the exchange gives
    exchanges_made: int  # Hippalectryon: exchanges made (then the player may stop)
    cards: SecretCreatures  # Sphinx: the cards drawn (seen by their drawer only, R24)
    first_sea: Area      # Sylph: the first sea chosen
    building: str        # Triton: the building stolen


@handler("creature", CreatureFrame)
class CreatureHandler(Handler):
    """Frame: `CreatureFrame`."""

    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        return who.say(N_("You are using {creature}"), N_("{player} is using {creature}"),
                       creature=creature_name(str(f.get("card"))))

    @staticmethod
    def legal(g: Context, f: CreatureFrame) -> list[Action]:
        return EFFECTS[f["card"]].legal(g, f)

    @staticmethod
    def apply(g: Context, f: CreatureFrame, a: Action) -> None:
        EFFECTS[f["card"]].apply(g, f, a)

    @staticmethod
    def auto(g: Context, f: CreatureFrame) -> bool:
        return EFFECTS[f["card"]].auto(g, f)


def temples(g: Context, p: int) -> int:
    """Temples (a Metropolis counts as one) whose discount p has not used this Cycle."""
    # count_in_area over controlled_lands, inlined: asked for every turn's menu of every search.
    b, s = g.board, g.state
    ctrl, sites, start, count = s.ctrl, s.sites, b.site_start, b.sites
    n = 0
    for a in b.lands:
        if ctrl[a] == p:
            for site in range(start[a], start[a] + count[a]):
                k = sites[site]
                if (k in ("temple", METROPOLIS)) and building_active(g, site):
                    n += 1
    return max(0, n - s.turn_flags.get(f"temples_used:{p}", 0))


def creature_cost(g: Context, p: int, slot: int, free_temples: int | None = None) -> tuple[int, int]:
    """(price, temples used) for the creature on a track slot. The classic game never lets
    Temples bring a price below 1 GP (`Ruleset.creature_min_cost`, R25). `free_temples`:
    `temples(g, p)` if the caller has it already."""
    base = g.rules.creature_costs[slot]
    if free_temples is None:
        free_temples = temples(g, p)
    used = min(max(0, base - g.rules.creature_min_cost), free_temples)
    return base - used, used


def _buy_legal(g: Context, f: TurnFrame) -> list[Action]:
    s, p = g.state, f["player"]
    if f["god"] == APOLLO:
        return []
    gp = purse(g, p)
    if gp < g.rules.creature_min_cost:
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
        if gp >= cost:
            action = new_action(("buy_creature", c, "", cost))
            if action not in out:  # two copies of a card (R25) at one price
                out.append(action)
    return out


def _buy_apply(g: Context, f: TurnFrame, a: Action) -> None:
    s, p = g.state, f["player"]
    # The slot of the card at that price (the classic deck has two copies of some cards).
    free_temples = temples(g, p)
    slot = next(i for i, c in enumerate(s.creature_track)
                if c == a.what and creature_cost(g, p, i, free_temples)[0] == a.n)
    cost, used = creature_cost(g, p, slot, free_temples)
    pay(g, p, cost)
    key = f"temples_used:{p}"
    s.turn_flags[key] = s.turn_flags.get(key, 0) + used
    s.creature_track[slot] = None
    s.reserved.pop(a.what, None)
    g.emit("creature_bought", player=p, card=a.what, cost=cost)
    play_creature(g, p, a.what)


def play_creature(g: Context, p: int, card: str) -> None:
    effect = EFFECTS[card]
    if not effect.applicable(g, p):
        g.emit("creature_wasted", player=p, card=card)
        discard_creature_card(g, card)
        return
    effect.play(g, p, card)


# --- Zeus: a look at the top of the creature deck --------------------------------------

def _peek_legal(g: Context, f: TurnFrame) -> list[Action]:
    s = g.state
    if f["god"] != "zeus" or s.turn_flags.get("peeked") or not (s.creature_deck or s.creature_discard):
        return []
    return [Action("peek")]


def _peek_apply(g: Context, f: TurnFrame, a: Action) -> None:
    p = f["player"]
    g.state.turn_flags["peeked"] = 1
    draw(g, "creature_deck", 1, "peeked", (p,), private_to=p)


@after_chance("peeked")
def _peeked(g: Context, cards: tuple[Any, ...], args: tuple[Any, ...]) -> None:
    """The top card, in the hand of Zeus' player until they play it or put it back on top."""
    p = args[0]
    g.emit("peek", player=p)
    push(g, "peek", p, card=cards[0])


menu_item("buy_creature", ("buy_creature",))((_buy_legal, _buy_apply))
# Zeus' look at the deck is Legendary's; the classic Zeus swaps a creature (engine/classic.py).
menu_item("peek", ("peek",), when=lambda r: r.zeus_action == "peek")((_peek_legal, _peek_apply))


class PeekFrame(Frame):
    card: SecretCreature  # the top card of the creature deck, seen by Zeus' player only (R24)


@handler("peek", PeekFrame)
class Peek(Handler):
    waits = (N_("You looked at the top Creature card: play it or put it back"),
             N_("{player} looked at the top Creature card: play it or put it back"))

    @staticmethod
    def legal(g: Context, f: PeekFrame) -> list[Action]:
        out = [Action("return_peeked")]
        c = f["card"]
        if c in EFFECTS and purse(g, f["player"]) >= 1:  # the Temple discount does not apply
            out.insert(0, Action("play_peeked", what=c, n=1))
        return out

    @staticmethod
    def apply(g: Context, f: PeekFrame, a: Action) -> None:
        s, p = g.state, f["player"]
        pop(g, f)
        if a.kind == "return_peeked":
            s.creature_deck.append(f["card"])  # face down on top, known to its player
            if g.chance != SEEDED:  # the next card drawn is no longer chance's (engine/chance.py)
                s.turn_flags[PEEKED_ON_TOP] = 1
            g.emit("peek_returned", player=p)
            return
        pay(g, p, 1)
        g.emit("creature_bought", player=p, card=f["card"], cost=1)
        play_creature(g, p, f["card"])

