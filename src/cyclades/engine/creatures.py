"""Buying Mythological Creatures (rulebook, "Mythological Creatures"; Zeus).

With any god but Apollo a player may buy any creature of the track for its
slot's cost less one GP per Temple (each Temple once per Cycle), apply its
effect at once, and discard it; Zeus may also look at the top card of the deck
once per Cycle and play it for 1 GP. A card's behaviour is a small function in
`EFFECTS`; a card without one is not offered. A reserved creature (Metropolis
bonus) may be bought only by the player who reserved it.
"""
from ..content.gods import APOLLO
from .actions import Action
from .frames import Handler, handler, pop, push
from .hooks import EFFECTS
from .ops import discard_creature_card, draw
from .queries import controlled_lands, count_in_area, shielded  # noqa: F401  (shielded: for the cards)
from .turns import menu_item


class Effect:
    """A creature's behaviour.

    `applicable(g, p)` says whether it can act now (else the card is discarded
    without effect). `play(g, p, card)` starts it: by default it pushes a
    "creature" frame (stage "start") whose decisions the effect answers with
    `legal(g, f)` / `apply(g, f, action)` / `auto(g, f)`, like any frame
    handler; the effect calls `finish(g, f)` when done, which discards the card
    (a creature with a miniature stays with its buyer instead)."""

    def applicable(self, g, p) -> bool:
        return True

    def play(self, g, p, card) -> None:
        push(g, "creature", p, card=card, stage="start")

    def legal(self, g, f) -> list:
        return []

    def apply(self, g, f, a) -> None:
        raise NotImplementedError

    def auto(self, g, f) -> bool:
        return False

    def hidden(self, f) -> tuple:
        """Frame keys only the buyer may see (R24), e.g. the Sphinx's drawn cards."""
        return ()


def effect(name):
    """Register a creature's Effect class: @effect("harpy")."""
    def register(cls):
        EFFECTS[name] = cls()
        return cls
    return register


def finish(g, f, discard=True):
    """The creature's effect is over: its frame leaves the stack and its card is discarded."""
    pop(g, f)
    if discard:
        discard_creature_card(g, f["card"])


@handler("creature")
class CreatureFrame(Handler):
    """Frame: card, stage, and whatever the card's effect keeps there."""

    @staticmethod
    def legal(g, f):
        return EFFECTS[f["card"]].legal(g, f)

    @staticmethod
    def apply(g, f, a):
        EFFECTS[f["card"]].apply(g, f, a)

    @staticmethod
    def auto(g, f):
        return EFFECTS[f["card"]].auto(g, f)

    @staticmethod
    def hidden(f):
        return EFFECTS[f["card"]].hidden(f)


def temples(g, p) -> int:
    """Temples (a Metropolis counts as one) whose discount p has not used this Cycle."""
    n = sum(count_in_area(g, a, "temple") for a in controlled_lands(g, p))
    return max(0, n - g.s.turn_flags.get(f"temples_used:{p}", 0))


def creature_cost(g, p, slot) -> tuple:
    """(price, temples used) for the creature on a track slot. The classic game never lets
    Temples bring a price below 1 GP (`Ruleset.creature_min_cost`, R25)."""
    base = g.r.creature_costs[slot]
    used = min(max(0, base - g.r.creature_min_cost), temples(g, p))
    return base - used, used


def _buy_legal(g, f):
    s, p = g.s, f["p"]
    if f["god"] == APOLLO:
        return []
    out = []
    for slot, c in enumerate(s.creature_track):
        if c is None or c not in EFFECTS or s.reserved.get(c, p) != p:
            continue
        cost, _ = creature_cost(g, p, slot)
        action = Action("buy_creature", what=c, n=cost)
        if g.purse(p) >= cost and action not in out:  # two copies of a card (R25) at one price
            out.append(action)
    return out


def _buy_apply(g, f, a):
    s, p = g.s, f["p"]
    # The slot of the card at that price (the classic deck has two copies of some cards).
    slot = next(i for i, c in enumerate(s.creature_track)
                if c == a.what and creature_cost(g, p, i)[0] == a.n)
    cost, used = creature_cost(g, p, slot)
    g.pay(p, cost)
    key = f"temples_used:{p}"
    s.turn_flags[key] = s.turn_flags.get(key, 0) + used
    s.creature_track[slot] = None
    s.reserved.pop(a.what, None)
    g.emit("creature_bought", player=p, card=a.what, cost=cost)
    play_creature(g, p, a.what)


def play_creature(g, p, card):
    effect = EFFECTS[card]
    if not effect.applicable(g, p):
        g.emit("creature_wasted", player=p, card=card)
        discard_creature_card(g, card)
        return
    effect.play(g, p, card)


# --- Zeus: a look at the top of the creature deck --------------------------------------

def _peek_legal(g, f):
    s = g.s
    if f["god"] != "zeus" or s.turn_flags.get("peeked") or not (s.creature_deck or s.creature_discard):
        return []
    return [Action("peek")]


def _peek_apply(g, f, a):
    s, p = g.s, f["p"]
    s.turn_flags["peeked"] = 1
    card = draw(g, s.creature_deck, s.creature_discard)
    s.creature_deck.append(card)  # it stays on top unless played
    g.emit("peek", player=p)
    push(g, "peek", p, card=card)


menu_item("buy_creature", ("buy_creature",))((_buy_legal, _buy_apply))
# Zeus' look at the deck is Legendary's; the classic Zeus swaps a creature (engine/classic.py).
menu_item("peek", ("peek",), when=lambda r: r.zeus_action == "peek")((_peek_legal, _peek_apply))


@handler("peek")
class Peek(Handler):
    @staticmethod
    def hidden(f):
        return ("card",)  # R24: what Zeus' peek showed is the peeker's secret

    @staticmethod
    def legal(g, f):
        out = [Action("return_peeked")]
        c = f["card"]
        if c in EFFECTS and g.purse(f["p"]) >= 1:  # the Temple discount does not apply
            out.insert(0, Action("play_peeked", what=c, n=1))
        return out

    @staticmethod
    def apply(g, f, a):
        s, p = g.s, f["p"]
        pop(g, f)
        if a.kind == "return_peeked":
            g.emit("peek_returned", player=p)
            return
        s.creature_deck.pop()
        g.pay(p, 1)
        g.emit("creature_bought", player=p, card=f["card"], cost=1)
        play_creature(g, p, f["card"])

