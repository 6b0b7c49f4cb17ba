"""Chance: the dice rolled and the cards drawn, each a decision of its own.

A rule that needs dice or cards asks for them here, naming what receives them: `roll(g, 2,
"battle_dice")`, `draw(g, "creature_deck", 3, "sphinx_drawn", private_to=p)`. The receivers are
the functions of `AFTER_CHANCE`, each declared beside the rule it continues; they get the
outcomes and the `args` the rule passed on (plain data, since they may wait in a frame).

- `chance="seeded"` (the default): the state's own generator resolves chance at once, inside
  `apply`: the dice from the generator (R3, R4), the cards from the top of their pile (shuffled by
  the generator when it was made). A seed and the decisions replay a game exactly.
- `chance="explicit"`: the game waits on chance. A "chance" frame waits on the player `CHANCE`;
  its legal actions are the outcomes, `chance_outcomes()` gives each with its probability, and
  whoever holds the game applies one: a die's face (`roll`, n 0..3), a card (`draw`, what: the
  card, any card left in the pile, each as likely as its copies are many). The piles' order then
  matters to no one; the generator still shuffles a discard pile into its empty deck.
  `sample(g, f)` resolves it as the seeded game would (the generator's die, the top card), so
  that an explicit game resolved that way plays the seeded game's decisions exactly.

A die given in advance by a scenario (`state.dice`) is used first in both modes. An outcome that
is certain (the card Zeus' player looked at and put back on top, an empty pile, the last kind of
card) resolves without waiting.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, Protocol

from ..content.i18n import _
from .actions import Action, new_action
from .context import SEEDED
from .frames import Addressed, Frame, Handler, Role, handler, pop, push
from .hooks import Table
from .ops import DIE_FACES, PEEKED_ON_TOP, roll_die, shuffle
from .state import NOBODY

if TYPE_CHECKING:
    from .context import Context

CHANCE = -1  # the player a chance decision waits on (OpenSpiel's chance player id)

CHANCE_FRAME = "chance"  # the kind of the frame a chance decision waits in
DICE = "dice"
DISCARDS = {"creature_deck": "creature_discard", "hero_deck": "hero_discard", "bonus_stack": ""}
DIE_ODDS = tuple((face, DIE_FACES.count(face) / len(DIE_FACES)) for face in sorted(set(DIE_FACES)))
ROLLS = tuple(new_action(("roll", "", "", face)) for face, _ in DIE_ODDS)


class AfterChance(Protocol):
    def __call__(self, g: Context, outcomes: tuple[Any, ...], args: tuple[Any, ...], /) -> None: ...


# name -> what receives the outcomes of a chance decision: f(g, outcomes, args).
AFTER_CHANCE: Table[AfterChance] = Table("after_chance", "what receives the dice or cards a rule asked for")


def after_chance(name: str) -> Callable[[AfterChance], AfterChance]:
    """Declare the receiver of a rule's dice or cards: `@after_chance("battle_dice")`."""
    def register(fn: AfterChance) -> AfterChance:
        return AFTER_CHANCE.plug(name, fn, owner=getattr(fn, "__module__", ""))
    return register


# --- asking for dice and cards ------------------------------------------------------------------

def roll(g: Context, count: int, then: str, args: tuple[Any, ...] = ()) -> None:
    """Roll `count` dice (R3) for `AFTER_CHANCE[then]`."""
    if g.chance == SEEDED:
        AFTER_CHANCE[then](g, tuple(roll_die(g) for _ in range(count)), args)
    else:
        _wait(g, DICE, count, then, args, NOBODY)


def draw(g: Context, pile: str, count: int, then: str, args: tuple[Any, ...] = (),
         private_to: int = NOBODY) -> None:
    """Draw `count` cards from the top of a pile for `AFTER_CHANCE[then]`: a card, or None when
    the pile and its discard pile are empty. `private_to`: the one player who sees them (R24)."""
    if g.chance == SEEDED or count == 0:
        AFTER_CHANCE[then](g, tuple(_take(g, pile, -1) for _ in range(count)), args)
    else:
        _wait(g, pile, count, then, args, private_to)


def _refill(g: Context, pile: str) -> list[str]:
    """The pile, remade from its shuffled discard pile if it is empty."""
    s = g.state
    deck: list[str] = getattr(s, pile)
    if not deck and DISCARDS[pile]:
        discard: list[str] = getattr(s, DISCARDS[pile])
        if discard:
            deck.extend(discard)
            discard.clear()
            shuffle(g, deck)
    return deck


def _take(g: Context, pile: str, index: int) -> str | None:
    """The card at `index` of the pile (-1: its top), taken out; None if there is none."""
    deck = _refill(g, pile)
    if pile == "creature_deck":
        g.state.turn_flags.pop(PEEKED_ON_TOP, None)
    return deck.pop(index) if deck else None


# --- waiting on chance ----------------------------------------------------------------------------

def _wait(g: Context, draw_from: str, count: int, then: str, args: tuple[Any, ...], private_to: int) -> None:
    push(g, "chance", CHANCE, draw=draw_from, count=count, results=(), then=then, args=args,
         private_to=private_to)


class ChanceFrame(Frame):
    """Chance to resolve (chance="explicit"): dice to roll, or cards to draw."""
    draw: str           # "dice", or the pile the cards come from
    count: int          # how many dice or cards in all
    # the outcomes so far; cards drawn for one player are seen by that player only (R24)
    results: Annotated[tuple[Any, ...], Role("secret", "the dice or cards drawn so far",
                                             pile="creature_deck", seen_by="private_to")]
    then: str           # the receiver, in AFTER_CHANCE
    args: tuple[Any, ...]  # what the receiver needs besides the outcomes
    private_to: int     # the player who alone sees the cards (-1: everyone)


def outcomes(g: Context, f: ChanceFrame) -> list[tuple[Action, float]]:
    """The outcomes of the next die or card, each with its probability."""
    if f["draw"] == DICE:
        return list(zip(ROLLS, (p for _, p in DIE_ODDS)))
    deck: list[str] = getattr(g.state, f["draw"])
    counts: dict[str, int] = {}
    for c in deck:
        counts[c] = counts.get(c, 0) + 1
    return [(new_action(("draw", c, "", 0)), counts[c] / len(deck)) for c in sorted(counts)]


def sample(g: Context, f: ChanceFrame) -> Action:
    """The outcome the seeded game would have: the generator's die, the pile's top card (the die
    moves the generator on, as the seeded game's roll does)."""
    if f["draw"] == DICE:
        return ROLLS[roll_die(g)]
    return new_action(("draw", getattr(g.state, f["draw"])[-1], "", 0))


def _certain(g: Context, f: ChanceFrame) -> Any:
    """The next outcome if nothing is left to chance (a die given in advance, a card known to
    be on top, an empty pile, one kind of card left); else `_UNKNOWN`."""
    s = g.state
    if f["draw"] == DICE:
        return s.dice.pop(0) if s.dice else _UNKNOWN
    deck = _refill(g, f["draw"])
    if not deck:
        return None
    if len(set(deck)) == 1 or (f["draw"] == "creature_deck" and s.turn_flags.get(PEEKED_ON_TOP)):
        return _take(g, f["draw"], -1)
    return _UNKNOWN


_UNKNOWN = object()


def _record(g: Context, f: ChanceFrame, outcome: Any) -> None:
    f["results"] = f["results"] + (outcome,)
    if len(f["results"]) == f["count"]:
        pop(g, f)
        AFTER_CHANCE[f["then"]](g, f["results"], f["args"])


@handler("chance", ChanceFrame)
class Chance(Handler):
    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        if f.get("draw") == "dice":
            return _("Chance decides: a battle die is rolled")
        return _("Chance decides: a card is drawn")

    @staticmethod
    def auto(g: Context, f: ChanceFrame) -> bool:
        outcome = _certain(g, f)
        if outcome is _UNKNOWN:
            return False
        _record(g, f, outcome)
        return True

    @staticmethod
    def legal(g: Context, f: ChanceFrame) -> list[Action]:
        return [a for a, _ in outcomes(g, f)]

    @staticmethod
    def apply(g: Context, f: ChanceFrame, a: Action) -> None:
        if f["draw"] == DICE:
            _record(g, f, a.n)
            return
        deck: list[str] = getattr(g.state, f["draw"])
        top = len(deck) - 1 - deck[::-1].index(a.what)  # the copy nearest the top
        _record(g, f, _take(g, f["draw"], top))
