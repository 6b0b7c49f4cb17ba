"""The decision stack (design: engine-shape.md).

Each pending choice is a frame: a small plain dict on `state.stack` with its `kind` and the
`player` it waits on, plus the fields of its kind. A handler per kind answers what the legal
actions are, what an action does, and (`auto`) what happens without anyone deciding, such as
a battle round's dice. Handlers register themselves with `@handler(kind, KindFrame)` in `HANDLERS`
(engine/hooks.py).

Each kind declares its fields as a `TypedDict` next to its handler (`BattleFrame` in battle.py,
`LandMoveFrame` in moves.py, ...): the frames stay plain dicts, so that copying a state and
writing it as JSON cost what they cost, and mypy checks every key the engine reads. Frames
name areas by their index in `board.ids` (-1: none yet).
"""
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

from .hooks import HANDLERS

if TYPE_CHECKING:
    from .actions import Action
    from .game import Game


class Frame(TypedDict):
    """The fields of every frame."""
    kind: str    # the frame kind: the key of its handler in HANDLERS
    player: int  # the player the frame waits on (it may change: the next bidder, a battle's loser)


class Handler:
    """Base for frame handlers; subclasses override what they need. `f` is the frame of the
    handler's kind, whose TypedDict `@handler` records in `fields`."""

    fields: Any = Frame

    @staticmethod
    def legal(g: "Game", f: Any) -> "list[Action]":
        return []

    @staticmethod
    def apply(g: "Game", f: Any, a: "Action") -> None:
        raise NotImplementedError

    @staticmethod
    def auto(g: "Game", f: Any) -> bool:
        """Advance without a decision; True if anything changed (run again)."""
        return False

    @staticmethod
    def hidden(f: Any) -> tuple:
        """Keys of the frame that only the deciding player may see (R24)."""
        return ()


H = TypeVar("H", bound=type)


def handler(kind: str, fields: Any = Frame) -> Callable[[H], H]:
    """Register a Handler class for a frame kind: `@handler("battle", BattleFrame)`, `fields`
    being the TypedDict that declares the frame's fields."""
    def register(cls: H) -> H:
        setattr(cls, "fields", fields)  # noqa: B010  (H is any Handler subclass: mypy has no `fields` on it)
        HANDLERS[kind] = cls
        return cls
    return register


def nearest(g: "Game", kind: str) -> Any:
    """The topmost frame of a kind (the turn a move belongs to, the battle a power acts in)."""
    for f in reversed(g.state.stack):
        if f["kind"] == kind:
            return f
    return None


def push(g: "Game", kind: str, player: int, **fields: Any) -> Any:
    """A new frame on top of the stack: {"kind": kind, "player": player, **fields}."""
    f = {"kind": kind, "player": player}
    f.update(fields)
    g.state.stack.append(f)
    return f


def pop(g: "Game", f: Any) -> None:
    stack = g.state.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is f:  # identity: two frames may hold equal data
            del stack[i]
            return
