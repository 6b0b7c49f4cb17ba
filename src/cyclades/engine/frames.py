"""The decision stack: what the game waits on, one frame per pending choice.

Each pending choice is a frame: a small plain dict on `state.stack` with its `kind` and the
`player` it waits on, plus the fields of its kind. A handler per kind answers what the legal
actions are, what an action does, (`auto`) what happens without anyone deciding, such as
a battle round's dice, and (`waits`, or `waiting` where the frame's fields are needed) what the
frame waits on, in words. Handlers register themselves with `@handler(kind, KindFrame)` in
`HANDLERS`.

Each kind declares its fields as a `TypedDict` next to its handler (`BattleFrame` in battle.py,
`LandMoveFrame` in moves.py, ...): the frames stay plain dicts, so that copying a state and
writing it as JSON cost what they cost, and mypy checks every key the engine reads. A field that
is more than a plain value says what it holds with a `Role` (`Area`, `Player`, `SecretCards`...,
below): the view, the observation and its determinization, the scenario loader and the RL
encoders read every frame through `roles(kind)`, without knowing any kind. Areas are named by
their index in `board.ids` (-1: none yet).
"""
from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, NamedTuple, TypedDict, TypeVar

from ..content.i18n import N_, _

if TYPE_CHECKING:
    from .actions import Action
    from .context import Context


# --- what a field holds --------------------------------------------------------------------------

@dataclass(frozen=True)
class Role:
    """What a frame field holds, for the code that reads every kind of frame alike."""
    name: str
    meaning: str
    pile: str = ""      # secret cards: the pile they were drawn from (determinization)
    seen_by: str = ""   # secret cards: the field naming the one player who sees them


AREA = Role("area", "an area of the board: its index, -1 if none yet (views show its id or null)")
AT = Role("at", "the area the decision is about (a battle's, a creature's): an area")
FROM = Role("from", "the area units or tokens leave: an area")
AREAS = Role("areas", "areas of the board, in order (views show their ids)")
AREA_COUNTS = Role("area_counts", "(area, number) pairs (views show [id, number])")
PLAYER = Role("player", "a player (faction) index")
QUEUE = Role("queue", "players still to decide, in order: bookkeeping, never shown")
COUNT = Role("count", "a number of units, GP or rounds: 0 or more")
SECRET_CREATURES = Role("secret", "creature cards only the frame's player has seen (R24)",
                        pile="creature_deck", seen_by="player")

Area = Annotated[int, AREA]
At = Annotated[int, AT]
From = Annotated[int, FROM]
Areas = Annotated[tuple[int, ...], AREAS]
AreaCounts = Annotated[tuple[tuple[int, int], ...], AREA_COUNTS]
Player = Annotated[int, PLAYER]
Queue = Annotated[tuple[int, ...], QUEUE]
Count = Annotated[int, COUNT]
SecretCreature = Annotated[str, SECRET_CREATURES]
SecretCreatures = Annotated[tuple[str, ...], SECRET_CREATURES]
AREA_ROLES = (AREA, AT, FROM)


class Frame(TypedDict):
    """The fields of every frame."""
    kind: str    # the frame kind: the key of its handler in HANDLERS
    player: int  # the player the frame waits on (it may change: the next bidder, a battle's loser)


class Addressed(NamedTuple):
    """Whom a sentence of what the game waits on speaks of: the player it waits on, addressed
    as "you" or named."""
    you: bool   # the sentence addresses the player it waits on
    name: str   # "Player 2", "Ann"

    def say(self, to_you: str, about: str, **parts: Any) -> str:
        """One of two catalog messages: to the player ("You are ...") or about them."""
        return (_(to_you) if self.you else _(about)).format(player=self.name, **parts)


class Handler:
    """Base for frame handlers; subclasses override what they need. `f` is the frame of the
    handler's kind, whose TypedDict `@handler` records in `fields`."""

    fields: type = Frame
    # What the frame waits on: a catalog message said to the player it waits on, and one said
    # about them ("You are placing a Prosperity token", "{player} is placing ..."); a handler
    # whose sentence needs the frame's fields overrides `waiting` instead.
    waits: ClassVar[tuple[str, str] | None] = None

    @classmethod
    def waiting(cls, g: Context, f: Any, who: Addressed) -> str:
        if cls.waits is not None:
            return who.say(*cls.waits)
        return who.say(N_("You are deciding ({what})"), N_("{player} is deciding ({what})"),
                       what=str(f.get("kind")).replace("_", " "))

    @staticmethod
    def legal(g: Context, f: Any) -> list[Action]:
        return []

    @staticmethod
    def apply(g: Context, f: Any, a: Action) -> None:
        raise NotImplementedError

    @staticmethod
    def auto(g: Context, f: Any) -> bool:
        """Advance without a decision; True if anything changed (run again)."""
        return False


# frame kind -> its Handler: legal(g, f), apply(g, f, action), auto(g, f). Called by
# engine/play.py for the frame on top of the stack.
HANDLERS: dict[str, type[Handler]] = {}

H = TypeVar("H", bound=type[Handler])


def handler(kind: str, fields: type = Frame) -> Callable[[H], H]:
    """Register a Handler class for a frame kind: `@handler("battle", BattleFrame)`, `fields`
    being the TypedDict that declares the frame's fields."""
    def register(cls: H) -> H:
        cls.fields = fields
        HANDLERS[kind] = cls
        _ROLES.pop(kind, None)
        _AT_FROM.pop(kind, None)
        return cls
    return register


_ROLES: dict[str, dict[str, Role]] = {}


def roles(kind: str) -> dict[str, Role]:
    """field -> Role of the fields of a frame kind that hold more than a plain value."""
    out = _ROLES.get(kind)
    if out is None:
        hints = typing.get_type_hints(HANDLERS[kind].fields, include_extras=True)
        out = _ROLES[kind] = {k: _role_of(t) for k, t in hints.items() if _role_of(t) is not None}
    return out


def fields(kind: str) -> set[str]:
    """Every field a frame of the kind may have."""
    td = HANDLERS[kind].fields
    return set(td.__required_keys__) | set(td.__optional_keys__)  # type: ignore[attr-defined]


def required_fields(kind: str) -> set[str]:
    """The fields every frame of the kind has."""
    return set(HANDLERS[kind].fields.__required_keys__)  # type: ignore[attr-defined]


def _role_of(t: Any) -> Any:
    return next((m for m in getattr(t, "__metadata__", ()) if isinstance(m, Role)), None)


def at_and_from(kind: str) -> tuple[str | None, str | None]:
    """The fields of a frame kind holding the area its decision is about (`At`) and the area
    units leave (`From`), or None."""
    out = _AT_FROM.get(kind)
    if out is None:
        r = roles(kind)
        out = _AT_FROM[kind] = (next((k for k, v in r.items() if v is AT), None),
                                next((k for k, v in r.items() if v is FROM), None))
    return out


_AT_FROM: dict[str, tuple[str | None, str | None]] = {}


def secret_fields(f: dict[str, Any]) -> list[tuple[str, Role, int]]:
    """(field, role, the player who sees it) of a frame's secret fields."""
    out = []
    for k, role in roles(f["kind"]).items():
        if role.seen_by and k in f:
            out.append((k, role, f[role.seen_by]))
    return out


# --- the stack ----------------------------------------------------------------------------------

def nearest(g: Context, kind: str) -> Any:
    """The topmost frame of a kind (the turn a move belongs to, the battle a power acts in)."""
    for f in reversed(g.state.stack):
        if f["kind"] == kind:
            return f
    return None


def push(g: Context, kind: str, player: int, **fields: Any) -> Any:
    """A new frame on top of the stack: {"kind": kind, "player": player, **fields}."""
    f = {"kind": kind, "player": player}
    f.update(fields)
    g.state.stack.append(f)
    return f


def pop(g: Context, f: Any) -> None:
    stack = g.state.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is f:  # identity: two frames may hold equal data
            del stack[i]
            return
