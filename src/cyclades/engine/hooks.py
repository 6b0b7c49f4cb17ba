"""How cards, rulesets and higher rule modules plug into the engine: `Hook` and `Table`.

A module that asks a question other modules may change, or announces a change others may act
on, declares the extension point where it calls it: a `Hook` (a list of functions called in
order: `queries.MODIFIERS["can_enter_sea"]`, `battle.BATTLE["die"]`, `ops.ON_DESTROY`...) or a
`Table` (one function per key: `turns.APOLLO_REWARDS[ruleset.apollo]`). Each is typed by a
`Protocol` saying what its functions take and return, so that mypy checks every function plugged
in. `ALL` lists every extension point by name once the engine is loaded (engine/plugins.py);
docs/architecture.md says where each kind lives.

A card declares on its own class the hooks it plugs into, with `@plugs(hook)` on the method
(its class decorator, `@effect`, `@miniature` or `@power`, plugs them in under the card's name).
A hook calls its functions in an order that does not depend on which module was loaded first:
by their owners' names, except where a function says it comes `after` others (Odysseus ignores
the Fortresses that Hippolyta's power adds, so his comes after hers).

This module imports nothing of the engine, so that every module may declare hooks.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
C = TypeVar("C", bound=type)

ALL: dict[str, Hook[Any] | Table[Any]] = {}  # every extension point by name


@dataclass(frozen=True)
class Entry(Generic[F]):
    owner: str                  # who plugged it in: a card's name, or a rule module's
    fn: F
    after: tuple[str, ...] = ()  # owners whose functions must run first


def ordered(entries: list[Entry[F]]) -> list[Entry[F]]:
    """The entries by owner name, each after the owners its `after` names (when plugged in)."""
    left = sorted(entries, key=lambda e: e.owner)
    out: list[Entry[F]] = []
    while left:
        done = {e.owner for e in out}
        present = {e.owner for e in left}
        ready = next((e for e in left if all(a in done or a not in present for a in e.after)), None)
        if ready is None:
            raise ValueError(f"hook order: a cycle among {sorted(present)}")
        out.append(ready)
        left.remove(ready)
    return out


class Hook(list[F]):
    """An extension point: the functions plugged in, in their order. It is a plain list, so
    that the engine's hot paths iterate it at the speed of one."""

    __slots__ = ("entries", "meaning", "name")

    def __init__(self, name: str, meaning: str) -> None:
        super().__init__()
        self.name, self.meaning = name, meaning
        self.entries: list[Entry[F]] = []
        ALL[name] = self

    def plug(self, fn: F, owner: str, after: tuple[str, ...] = ()) -> F:
        if any(e.owner == owner and e.fn is fn for e in self.entries):
            return fn
        self.entries.append(Entry(owner, fn, tuple(after)))
        self[:] = [e.fn for e in ordered(self.entries)]
        return fn

    def owners(self) -> list[str]:
        return [e.owner for e in ordered(self.entries)]

    def __repr__(self) -> str:
        return f"Hook({self.name!r}: {', '.join(self.owners())})"


class Table(dict[str, F]):
    """An extension point keyed by name: one function per key (a ruleset's strategy, a card's
    action kind)."""

    __slots__ = ("meaning", "name", "owner")

    def __init__(self, name: str, meaning: str) -> None:
        super().__init__()
        self.name, self.meaning = name, meaning
        self.owner: dict[str, str] = {}
        ALL[name] = self

    def plug(self, key: str, fn: F, owner: str) -> F:
        if key in self and self[key] is not fn:
            raise ValueError(f"{self.name}: {key!r} is plugged in already by {self.owner[key]}")
        self[key] = fn
        self.owner[key] = owner
        return fn

    def __repr__(self) -> str:
        return f"Table({self.name!r}: {', '.join(self)})"


@dataclass(frozen=True)
class _Plug:
    point: Hook[Any] | Table[Any]
    key: str
    after: tuple[str, ...]


def plugs(point: Hook[F] | Table[F], key: str = "", after: tuple[str, ...] = ()) -> Callable[[F], F]:
    """Mark a card's method as plugged into `point` (a Table: under `key`); the card's class
    decorator plugs it in under the card's name. Put it under `@staticmethod`."""
    def mark(fn: F) -> F:
        marks = list(getattr(fn, "__plugs__", ()))
        marks.append(_Plug(point, key, tuple(after)))
        fn.__plugs__ = marks  # type: ignore[attr-defined]
        return fn
    return mark


def plug_class(cls: C, owner: str) -> C:
    """Plug in the methods of `cls` marked with `@plugs`, under `owner` (the card's name)."""
    for attr in vars(cls).values():
        fn = attr.__func__ if isinstance(attr, (staticmethod, classmethod)) else attr
        # The marks are on the function; a staticmethod copies them (Python 3.10+), and in the
        # compiled build (Cython) only the staticmethod has them.
        for mark in getattr(fn, "__plugs__", ()) or getattr(attr, "__plugs__", ()):
            target = getattr(cls, fn.__name__)  # the function as the class hands it out
            if isinstance(mark.point, Table):
                mark.point.plug(mark.key, target, owner)
            else:
                mark.point.plug(target, owner, mark.after)
    return cls
