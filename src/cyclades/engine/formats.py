"""The formats of saved games, and the migration of older ones to the current one.

What the engine writes carries `"format": FORMAT`: `Game.to_json()` (the state, its decision
stack included), `Game.record()` (options and decisions) and `Game.state_dict()` (a scenario).
Format 1 named the fields of the decision stack's frames in one or two letters (`k`, `p`,
battle's `at`/`am`/`ah`/`af`, a land move's `t`/`m`/`h`, ...); format 2 names them in words
(each frame kind's TypedDict, next to its handler); format 3 names four frame kinds as their
handlers are named (`lmove` -> `land_move`, `smove` -> `sea_move`, `metro` -> `metropolis`,
`place` -> `placement`). A format-1 game, record or scenario is read through
`FORMAT_1_FRAME_KEYS`, one table of old key -> new key per frame kind, and an older kind
through `FORMAT_2_KINDS`; a format this engine does not know is refused with a message naming it.

A scenario written by hand has no format: its frames, if any, are read in the form they have
(`k` for a format-1 frame, `kind` for a later one), and an older kind name is read as its new one.
"""
from typing import Any

FORMAT = 3
READABLE_FORMATS = (1, 2, 3)

_UNITS = {"frm": "origin", "t": "troops", "m": "mercenaries", "h": "heroes"}

# Format 1 -> 2: the keys of every frame, then those of each kind (absent: kept as they were).
FORMAT_1_COMMON_KEYS = {"k": "kind", "p": "player"}
FORMAT_1_FRAME_KEYS: dict[str, dict[str, str]] = {
    "battle": {"att": "attacker", "dfd": "defender", "frm": "origin", "at": "attacker_troops",
               "am": "attacker_mercenaries", "ah": "attacker_heroes", "af": "attacker_fleets",
               "pend": "pending", "lost": "losers", "last": "last_area"},
    "lmove": dict(_UNITS),
    "smove": {"frm": "origin", "n": "fleets"},
    "voyage": {"frm": "origin", "n0": "fleets_from_origin", "n": "fleets", "pos": "position"},
    "creature": {**_UNITS, "minis": "miniatures", "old": "old_building", "made": "exchanges_made",
                 "first": "first_sea", "what": "building"},
    "sacrifice": {**_UNITS, "to": "destination"},
    "turn": {"bought": "recruits_bought", "moves": "heroic_moves", "once": "done_once"},
    "build": {"what": "building", "replace": "may_replace", "any": "any_type"},
    "maintain": {"todo": "cards_left", "minis": "miniatures"},
    "metro": {"remove": "to_remove", "own": "own_only"},
    "offer": {"banned": "banned_god"},
    "place": {"picks": "claimed", "troops": "troops_to_place"},
}


# Format 2 -> 3: the frame kinds renamed (old kind -> new kind).
FORMAT_2_KINDS = {"lmove": "land_move", "smove": "sea_move", "metro": "metropolis", "place": "placement"}


class FormatError(ValueError):
    """A saved game in a format this engine cannot read."""


def frame_from_format_1(f: dict[str, Any]) -> dict[str, Any]:
    """A format-1 frame with the current keys, in the same order (values unchanged)."""
    keys = FORMAT_1_FRAME_KEYS.get(f.get("k"), {})  # type: ignore[arg-type]
    return {FORMAT_1_COMMON_KEYS.get(k) or keys.get(k, k): v for k, v in f.items()}


def frame_upgraded(f: dict[str, Any]) -> dict[str, Any]:
    """A frame of any readable format as the current format writes it: format-1 keys (a frame
    with `k` and no `kind`) renamed, an older kind name replaced by its new one."""
    if "k" in f and "kind" not in f:
        f = frame_from_format_1(f)
    kind = f.get("kind")
    return {**f, "kind": FORMAT_2_KINDS[kind]} if kind in FORMAT_2_KINDS else f


def check_format(fmt: Any, what: str) -> Any:
    """`fmt` if this engine reads it; a FormatError naming it otherwise."""
    if fmt not in READABLE_FORMATS:
        known = " and ".join(map(str, READABLE_FORMATS))
        raise FormatError(f"unsupported {what} format {fmt!r}: this engine reads formats {known} "
                          f"(it writes format {FORMAT})")
    return fmt


def upgrade_game_json(d: dict[str, Any]) -> dict[str, Any]:
    """`Game.to_json()`'s dict in the current format (a new dict; `d` is left as it was)."""
    fmt = check_format(d.get("format"), "game")
    if fmt == FORMAT:
        return d
    state = dict(d["state"])
    state["stack"] = [frame_upgraded(f) for f in state["stack"]]
    return {**d, "format": FORMAT, "options": _upgrade_options(d["options"], fmt), "state": state}


def upgrade_record(record: dict[str, Any]) -> dict[str, Any]:
    """`Game.record()` in the current format. A record without a format is taken as current."""
    fmt = check_format(record.get("format", FORMAT), "record")
    if fmt == FORMAT:
        return record
    return {**record, "format": FORMAT, "options": _upgrade_options(record["options"], fmt)}


def _upgrade_options(options: dict[str, Any], fmt: int) -> dict[str, Any]:
    """A game's options: a game started from a scenario carries it (`options["scenario"]`)."""
    scenario = options.get("scenario")
    if not isinstance(scenario, dict):
        return options
    return {**options, "scenario": upgrade_scenario({"format": fmt, **scenario})}


def upgrade_scenario(d: dict[str, Any]) -> dict[str, Any]:
    """A scenario in the current format: its `decision.stack.frames` renamed if they are of
    format 1. Without a `format` key (a scenario written by hand, or by an engine of format 1),
    a frame that has `k` is of format 1."""
    fmt = check_format(d.get("format", FORMAT), "scenario")
    frames = _frames(d)
    if frames is None:
        return d if fmt == FORMAT else {**d, "format": FORMAT}
    new = [frame_upgraded(f) if isinstance(f, dict) else f for f in frames]
    stack = {**d["decision"]["stack"], "frames": new}
    return {**d, "format": FORMAT, "decision": {**d["decision"], "stack": stack}}


def _frames(d: dict[str, Any]) -> Any:
    """The scenario's decision.stack.frames if it has such a list, else None."""
    dec = d.get("decision")
    stack = dec.get("stack") if isinstance(dec, dict) else None
    frames = stack.get("frames") if isinstance(stack, dict) else None
    return frames if isinstance(frames, list) else None
