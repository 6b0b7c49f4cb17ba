"""The game state: plain data only, so that copies are cheap and JSON is exact.

Areas and construction sites are indexed by int (the board owns names and
geometry). Invariant (R16): an area holds the units of at most one player, and
`ctrl[a]` is that player; a land area with no unit keeps the control token of
its last controller; an empty sea area is controlled by no one (-1).
"""

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

    def copy(self) -> "State":  # replaced below by straight-line code
        raise NotImplementedError

    def to_dict(self) -> dict:
        d = {k: getattr(self, k) for k in _LISTS + _SCALARS}
        for k in _DICTS:
            # JSON keys must be strings: int keys are stored as "int:N".
            d[k] = [[key, val] for key, val in getattr(self, k).items()]
        d["stack"] = [_frame_to_json(f) for f in self.stack]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "State":
        s = cls.__new__(cls)
        for k in _LISTS + _SCALARS:
            v = d[k]
            setattr(s, k, list(v) if isinstance(v, list) else v)
        for k in _DICTS:
            setattr(s, k, {_key(key): _tup(val) for key, val in d[k]})
        s.stack = [_frame_from_json(f) for f in d["stack"]]
        return s


def _key(k):
    return tuple(k) if isinstance(k, list) else k


def _tup(v):
    if isinstance(v, list):
        return tuple(_tup(x) for x in v)
    return v


def _frame_to_json(f: dict) -> dict:
    return {k: _list(v) for k, v in f.items()}


def _list(v):
    if isinstance(v, tuple):
        return [_list(x) for x in v]
    return v


def _frame_from_json(f: dict) -> dict:
    return {k: _tup(v) for k, v in f.items()}


def _compile_copy():
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


State.copy = _compile_copy()
