"""The game state: plain data only, so that copies are cheap and JSON is exact.

Areas and construction sites are indexed by int (the board owns names and
geometry). Invariant (R16): an area holds the units of at most one player, and
`ctrl[a]` is that player; a land area with no unit keeps the control token of
its last controller; an empty sea area is controlled by no one (-1).
"""
from typing import Any

NOBODY = -1

# Per-area lists, per-player lists and other flat lists: copied with a slice.
_LISTS = (
    "ctrl", "troops", "mercs", "fleets", "prosperity", "geryon_gp",
    "sites",
    "gp", "priestesses", "philosophers", "troops_left", "fleets_left", "eliminated",
    "gods", "turn_order", "apollo", "action_order",
    "creature_track", "creature_deck", "creature_discard",
    "hero_track", "hero_deck", "hero_discard",
    "bonus_stack", "dice",
)
# Small dicts of immutable values: copied with dict().
_DICTS = (
    "bids", "metro_bonus", "hero_at", "hero_owner", "hero_since",
    "creature_at", "creature_owner", "creature_cards", "reserved", "turn_flags",
)
_SCALARS = ("n", "rng", "cycle", "phase", "faceup", "end_flag", "over", "cycle_limit_hit",
            "next_action", "mercs_left", "version")


class State:
    __slots__ = _LISTS + _DICTS + _SCALARS + ("stack",)
    # Per area (indexed by area number; sites by site number).
    ctrl: list[int]
    troops: list[int]
    mercs: list[int]
    fleets: list[int]
    prosperity: list[int]
    geryon_gp: list[int]
    sites: list[str]
    # Per player.
    gp: list[int]
    priestesses: list[int]
    philosophers: list[int]
    troops_left: list[int]
    fleets_left: list[int]
    eliminated: list[bool]
    # Gods, turns, piles (top last) and tracks (None: an empty slot).
    gods: list[str]
    turn_order: list[int]
    apollo: list[int]
    action_order: list[Any]
    creature_track: list[Any]
    creature_deck: list[str]
    creature_discard: list[str]
    hero_track: list[Any]
    hero_deck: list[str]
    hero_discard: list[str]
    bonus_stack: list[str]
    dice: list[int]
    bids: dict[str, tuple[int, int]]
    metro_bonus: dict[Any, Any]
    hero_at: dict[str, int]
    hero_owner: dict[str, int]
    hero_since: dict[str, int]
    creature_at: dict[str, int]
    creature_owner: dict[str, int]
    creature_cards: dict[str, tuple[str, ...]]
    reserved: dict[str, int]
    turn_flags: dict[str, int]
    n: int
    rng: int
    cycle: int
    phase: str
    faceup: int
    end_flag: bool
    over: bool
    cycle_limit_hit: bool
    next_action: int
    mercs_left: int
    version: int
    stack: list[Any]  # the decision stack: frames (engine/frames.py), the innermost last

    def copy(self) -> "State":  # replaced below by straight-line code
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        d = {k: getattr(self, k) for k in _LISTS + _SCALARS}
        for k in _DICTS:
            # JSON keys must be strings: int keys are stored as "int:N".
            d[k] = [[key, val] for key, val in getattr(self, k).items()]
        d["stack"] = [_frame_to_json(f) for f in self.stack]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "State":
        s = cls.__new__(cls)
        for k in _LISTS + _SCALARS:
            v = d[k]
            setattr(s, k, list(v) if isinstance(v, list) else v)
        for k in _DICTS:
            setattr(s, k, {_key(key): _tup(val) for key, val in d[k]})
        s.stack = [_frame_from_json(f) for f in d["stack"]]
        return s


def _key(k: Any) -> Any:
    return tuple(k) if isinstance(k, list) else k


def _tup(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_tup(x) for x in v)
    return v


def _frame_to_json(f: dict[str, Any]) -> dict[str, Any]:
    return {k: _list(v) for k, v in f.items()}


def _list(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_list(x) for x in v]
    return v


def _frame_from_json(f: dict[str, Any]) -> dict[str, Any]:
    return {k: _tup(v) for k, v in f.items()}


def _compile_copy() -> Any:
    """State.copy as straight-line code, generated once: copying is the hot path of search,
    and a loop of getattr/setattr over the fields costs twice as much.
    Lists are sliced, dicts of immutable values copied, frames (dicts of immutable values)
    copied one level."""
    lines = ["def copy(self):", "    new = _new(State)"]
    lines += [f"    new.{k} = self.{k}[:]" for k in _LISTS]
    lines += [f"    new.{k} = self.{k}.copy()" for k in _DICTS]
    lines += [f"    new.{k} = self.{k}" for k in _SCALARS]
    lines += ["    new.stack = [f.copy() for f in self.stack]", "    return new"]
    namespace = {"_new": object.__new__, "State": State}
    exec("\n".join(lines), namespace)
    return namespace["copy"]


State.copy = _compile_copy()  # type: ignore[method-assign]
