"""The decision stack (design: engine-shape.md).

Each pending choice is a frame: a small dict on `state.stack` with its kind
`k` and the player `p` it waits on. A handler per kind answers what the legal
actions are, what an action does, and (`auto`) what happens without anyone
deciding, such as a battle round's dice. Handlers register themselves with `@handler(kind)`
in `HANDLERS` (engine/hooks.py).
"""
from .hooks import HANDLERS


class Handler:
    """Base for frame handlers; subclasses override what they need."""

    @staticmethod
    def legal(g, f) -> list:
        return []

    @staticmethod
    def apply(g, f, a) -> None:
        raise NotImplementedError

    @staticmethod
    def auto(g, f) -> bool:
        """Advance without a decision; True if anything changed (run again)."""
        return False

    @staticmethod
    def hidden(f) -> tuple:
        """Keys of the frame that only the deciding player may see (R24)."""
        return ()


def handler(kind):
    def register(cls):
        HANDLERS[kind] = cls
        return cls
    return register


def nearest(g, kind):
    """The topmost frame of a kind (the turn a move belongs to, the battle a power acts in)."""
    for f in reversed(g.s.stack):
        if f["k"] == kind:
            return f
    return None


def push(g, kind, p, **data):
    f = {"k": kind, "p": p}
    f.update(data)
    g.s.stack.append(f)
    return f


def pop(g, f):
    stack = g.s.stack
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] is f:  # identity: two frames may hold equal data
            del stack[i]
            return
