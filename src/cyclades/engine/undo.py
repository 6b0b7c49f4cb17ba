"""Taking back decisions, as players do at a real table.

Within their turn, the player to move may take back what they decided, one decision at a
time, the last first, until one of these stands in the way:

- a decision of another player (what someone else did is theirs);
- a decision that showed something no one knew: a die rolled, a card drawn or a deck
  shuffled, the top Creature card looked at, a purse the Griffin opened (what was seen
  cannot be unseen, and the generator must not be asked twice, R4);
- the decision that began a turn or a cycle (what came before belongs to another turn or
  phase: the offerings, the turn before, the previous cycle).

The rule is here so that every interface (the server, the command line) and every bot sees
the same. A decision is judged once, when it is made (`judge`): its player and, if it can
never be taken back, why (`Step`); `limit` reads the steps of a game and says how far back
its player to move may go, and why not further. `steps_of(game)` finds the steps of any game
by replaying its record (seed + decisions, R4); a server keeps them as it goes instead.
Taking back k decisions is replaying the record without them (`take_back`): the position
is exactly the one the player had, generator included.
"""
from __future__ import annotations

from typing import Any, NamedTuple, Protocol, Self, TypeVar

from .actions import Action
from .naming import player_name
from .state import State


class Game(Protocol):
    """What the rule needs of a game: its record, to replay it (the engine's Game; this module
    sits below it and does not import it)."""

    state: State

    @property
    def to_move(self) -> int | None: ...
    @property
    def history(self) -> list[Action]: ...
    def apply(self, action: Action) -> list[dict[str, Any]]: ...
    def record(self) -> dict[str, Any]: ...
    @classmethod
    def from_record(cls, record: dict[str, Any], upto: int | None = None) -> Self: ...


G = TypeVar("G", bound=Game)

# Why a decision stands for good (Step.final), or why the player cannot go further back
# (Limit.reason): these, plus "other" (another player decided before), "start" (the first
# decision of the game) and "over" (the game is over, or nobody is to move).
DICE, CARD, CHANCE, PEEK, PURSE = "dice", "card", "chance", "peek", "purse"
TURN, CYCLE = "turn", "cycle"
OTHER, START, OVER = "other", "start", "over"

# Events that show what no one knew (dice also move the generator; a peek and the Griffin
# touch neither the generator nor a pile's size).
_REVEALS = {"round": DICE, "reroll": DICE, "peek": PEEK, "gp_stolen": PURSE}


class Step(NamedTuple):
    """One decision as the undo rule sees it."""
    player: int           # who decided
    final: str | None     # why it can never be taken back (DICE, CARD, CHANCE, PEEK, PURSE, TURN, CYCLE)


class Limit(NamedTuple):
    """How far back the player to move may go."""
    steps: int            # decisions they may take back, the last first (0: none)
    reason: str           # why not one more: a Step.final, OTHER, START or OVER
    player: int | None    # OTHER: the player who decided before; else None


def unknowns(game: Game) -> tuple[Any, ...]:
    """What changes when chance or a hidden pile plays a part: the generator, forced dice
    (a scenario's), and the sizes of the hidden piles. Taken before a decision for `judge`."""
    s = game.state
    looked_at = sum(1 for f in s.stack if f["kind"] == "peek")  # Zeus' card: the deck's until played
    return (s.rng, len(s.dice), len(s.creature_deck) + looked_at, len(s.hero_deck), len(s.bonus_stack))


def judge(player: int, before: tuple[Any, ...], game: Game, events: list[dict[str, Any]]) -> Step:
    """The step of a decision `player` just made: `before` is `unknowns(game)` taken before
    it, `game` the game after it, `events` what it caused."""
    kinds = {e["type"] for e in events}
    for kind, why in _REVEALS.items():
        if kind in kinds:
            return Step(player, why)
    if "cycle" in kinds:
        return Step(player, CYCLE)     # its gods and cards drawn
    after = unknowns(game)
    if after[2:] != before[2:]:
        return Step(player, CARD)      # a pile drawn from, or shuffled with its discards
    if after[:2] != before[:2]:
        return Step(player, CHANCE)    # the generator asked (an order shuffled), or forced dice
    return Step(player, TURN if "turn" in kinds else None)


def limit(steps: list[Step], to_move: int | None) -> Limit:
    """How many of the last decisions (`steps`, in order) the player to move may take back."""
    if to_move is None:
        return Limit(0, OVER, None)
    k = 0
    for step in reversed(steps):
        if step.player != to_move:
            return Limit(k, OTHER, step.player)
        if step.final is not None:
            return Limit(k, step.final, None)
        k += 1
    return Limit(k, START, None)


def steps_of(game: Game) -> list[Step]:
    """The steps of every decision of a game, found by replaying its record."""
    g = type(game).from_record(game.record(), upto=0)
    out = []
    for action in game.history:
        player, before = g.to_move, unknowns(g)
        events = g.apply(action)  # raises IllegalAction if nobody was to move
        out.append(judge(player, before, g, events))  # type: ignore[arg-type]
    return out


def undo_limit(game: Game) -> Limit:
    """How far back the player to move may go in this game (replays its record)."""
    return limit(steps_of(game), game.to_move)


class CannotUndo(Exception):
    """Taking back more than the rule allows; the game is unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def take_back(game: G, k: int = 1, steps: list[Step] | None = None) -> G:
    """The game as it was k decisions ago: replayed from its record without the last k
    decisions. Refused (CannotUndo, with the reason in words) beyond `limit`. `steps`: the
    game's steps if known (else found by replaying)."""
    allowed = limit(steps if steps is not None else steps_of(game), game.to_move)
    if k < 1 or k > allowed.steps:
        raise CannotUndo(reason_text(allowed) if k >= 1 else "nothing to take back: k must be 1 or more")
    record = game.record()
    return type(game).from_record(record, upto=len(record["actions"]) - k)


def reason_text(lim: Limit, names: list[str] | None = None) -> str:
    """Why the player to move cannot go back further, addressed to them, as a whole sentence."""
    if lim.reason == OVER:
        return "The game is over: nothing can be taken back."
    if lim.reason == OTHER:
        if lim.steps == 0:
            return (f"You have decided nothing yet this turn: {player_name(lim.player, names)} "
                    f"played before you.")
        return f"You cannot go back further: {player_name(lim.player, names)} played before that."
    return {
        DICE: "You cannot go back further: the dice have been rolled.",
        CARD: "You cannot go back further: a card has been drawn from a pile.",
        CHANCE: "You cannot go back further: chance has played its part.",
        PEEK: "You cannot go back further: you have seen the top card of the Creature deck.",
        PURSE: "You cannot go back further: the Griffin has shown a purse.",
        TURN: "You cannot go back further: a turn began there.",
        CYCLE: "You cannot go back further: a new cycle began there.",
        START: "You cannot go back further: the game began there.",
    }[lim.reason]
