"""Fixed-size encodings for learning agents: the action space and the observation vector.

Both are pure functions of the engine's vocabularies (action kinds, gods, buildings,
units, creature cards and miniatures, heroes, bonus types, frame kinds, rulesets) and
of two maxima (`MAX_AREAS`, `MAX_FACTIONS`), so one policy network fits every
ruleset, player count and mode. docs/rl.md documents both layouts.

Action space. Every action kind a player takes (`engine.actions.KINDS`, which declares
each kind's arguments and what they range over) gets a block of slots, in the order the
engine declares them; inside a block the slots run row-major over `what` x `where` x `n`
(`KIND_ARGS`, read from those declarations). A range widened after its slots were numbered
keeps its block and adds one after the kinds of that time (`WIDENED`), so no slot ever moves.
`encode(action, board)` and `decode(index, board)` are exact inverses; an action that has no
slot raises `ActionSpaceError` (never silently dropped).

Observation. `ObservationEncoder().encode(game, player)` reads only what the player
may know (R24): `game.view(player)`, plus the public board and the game's public
options. Players appear relative to the viewer (slot 0 is the viewer, slot k the
faction k seats later), so a policy learns one seat for all.
"""
from __future__ import annotations

import hashlib
from bisect import bisect_right
from collections import defaultdict
from typing import NamedTuple

import numpy as np

from ..content.cards import CREATURES, MINIATURES
from ..content.gods import APOLLO
from ..content.rulesets import RULESETS
from ..engine import game as _game  # noqa: F401  (importing it registers every frame handler)
from ..engine.actions import (
    AREA,
    BID,
    BONUS,
    BUILDING,
    BUILDING_COST,
    COST,
    COUNT,
    CREATURE,
    GOD,
    HERO,
    KINDS,
    MAX_FACTIONS,
    PLAYER,
    PLAYER_KINDS,
    TRACK_SLOT,
    UNIT,
    Action,
)
from ..engine.chance import CHANCE_FRAME
from ..engine.frames import HANDLERS, at_and_from

MAX_AREAS = 64      # the largest board (10 tiles) has 63 areas

# The keys every decision frame has (the dicts on `game.state.stack`, which the view's
# "decision" copies); the areas it is about are the fields its kind declares `At` and `From`
# (engine/frames.py).
FRAME_KIND = "kind"          # "offer", "turn", "battle"...
FRAME_PLAYER = "player"      # the faction it waits on


class ActionSpaceError(ValueError):
    """An action (or index) that the fixed action space has no slot for."""


class EncodingError(ValueError):
    """A view holds something the observation layout has no place for."""


# --- vocabularies ----------------------------------------------------------------------

def _unique(*groups) -> tuple:
    return tuple(dict.fromkeys(x for g in groups for x in g))


# What `what`, `where` and `n` range over, as the engine declares each action kind
# (engine/actions.py: KINDS and their `Arg`s).
VOCABULARIES = {a.name: a.words for a in (GOD, BUILDING, UNIT, CREATURE, HERO, BONUS)}
UNIT_WORDS = UNIT.words
ALL_WORDS = _unique(*VOCABULARIES.values())
# Ranges of `n`: costs in GP, counts of units, bids in GP, player numbers.
N_RANGES = {a.name: a.high + 1 for a in (COST, BUILDING_COST, COUNT, BID, PLAYER)}
BID_MAX = BID.high
TRACK_SLOTS = TRACK_SLOT.words  # creature track slots, named by their price (swap_creature's `where`)

# What each kind's fields range over: (vocabularies of `what`, uses `where` (True: an area; a
# tuple: those words), range of `n`), read from the engine's declarations.
KIND_ARGS = {k.name: (tuple(a.name for a in k.what),
                      True if k.where is AREA else (k.where.words if k.where else False),
                      k.n.name if k.n else None)
             for k in PLAYER_KINDS}


def _kind_args(kind: str):
    """(what words, uses where, size of the n range) of a kind."""
    k = KINDS[kind]
    return k.whats(), (True if k.where is AREA else k.where.words if k.where else False), \
        (k.n.high + 1 if k.n else 0)


def _places(where) -> tuple:
    """The words a kind's `where` ranges over when they are not the board's areas."""
    return where if isinstance(where, tuple) else ()


# --- the action space -------------------------------------------------------------------

# Ranges of `n` widened after their slots were numbered: {kind: (the amounts its block keeps,
# the kind that was last then)}. The amounts above take a second block after that last kind's,
# so no slot moves: the narrower space's slots are this one's first (`ActionSpace.extends`), its
# self-play data stays valid, and a kind declared later still goes after. Classic bids have no
# cap (R10): random play passed 60 GP.
WIDENED = {"bid": (61, "swap_creature")}


class KindBlock(NamedTuple):
    kind: str
    offset: int
    size: int
    whats: tuple      # () when the kind has no `what`
    areas: int        # 0 when the kind has no `where`
    ns: int           # 0 when the kind has no `n`
    places: tuple = ()  # the words of `where` when they are not areas (track slots)
    low: int = 0      # the block's first `n` (a widened range's second block: the amounts above)


def _fingerprint(blocks) -> str:
    return hashlib.sha256(repr([(b.kind, b.whats, b.areas, b.ns) + ((b.low,) if b.low else ())
                                for b in blocks]).encode()).hexdigest()[:16]


class ActionSpace:
    """A fixed numbering of every action: `n` slots, `encode`/`decode`, `mask`.

    Slots are laid out kind by kind in the order of `kinds` (default: the kinds a player takes,
    in the order the engine declares them, engine/actions.py), each kind's block row-major over
    what x where x n; the amounts of a `widened` range (default `WIDENED`) above those its block
    keeps have a second block, after the kind named with it. `extends` is (fingerprint, size) of
    the space before the first such block, whose slots are this one's first (None when nothing
    is widened)."""

    def __init__(self, kinds=None, max_areas: int = MAX_AREAS, widened: dict | None = None):
        self.max_areas = max_areas
        widened = WIDENED if widened is None else widened
        self.blocks: list[KindBlock] = []
        self._by_kind: dict[str, KindBlock] = {}
        self._above: dict[str, KindBlock] = {}   # a widened kind's second block, of the amounts above the first's
        self._what_index: dict[str, dict[str, int]] = {}
        self.extends: tuple[str, int] | None = None
        pending: dict[str, KindBlock] = {}  # the second blocks of widened kinds, until the kind they follow
        for kind in (kinds if kinds is not None else [k.name for k in PLAYER_KINDS]):
            whats, where, ns = _kind_args(kind)
            places = _places(where)
            wheres = len(places) if places else (max_areas if where else 0)
            kept = min(ns, widened[kind][0]) if kind in widened else ns  # the amounts its first block holds
            self._add(KindBlock(kind, 0, 0, whats, wheres, kept, places))
            if kept < ns:
                pending[kind] = KindBlock(kind, 0, 0, whats, wheres, ns - kept, places, low=kept)
            for widened_kind in [w for w in pending if widened[w][1] == kind]:
                self._add_above(pending.pop(widened_kind))
        for block in pending.values():  # widened after a kind this space leaves out
            self._add_above(block)
        self.n = self._end()
        self._offsets = [b.offset for b in self.blocks]
        self.fingerprint = _fingerprint(self.blocks)

    def _add(self, block: KindBlock) -> KindBlock:
        """`block` placed after the last, with its size; the first of a kind is the one `encode` starts from."""
        block = block._replace(offset=self._end(),
                               size=max(len(block.whats), 1) * max(block.areas, 1) * max(block.ns, 1))
        self.blocks.append(block)
        if block.kind not in self._by_kind:
            self._by_kind[block.kind] = block
            self._what_index[block.kind] = {w: i for i, w in enumerate(block.whats)}
        return block

    def _add_above(self, block: KindBlock) -> None:
        if self.extends is None:  # the space before any widening: a prefix of this one
            self.extends = (_fingerprint(self.blocks), self._end())
        self._above[block.kind] = self._add(block)

    def _end(self) -> int:
        return self.blocks[-1].offset + self.blocks[-1].size if self.blocks else 0

    def __len__(self):
        return self.n

    def encode(self, action: Action, board) -> int:
        """The slot of `action` on `board` (which names the areas)."""
        kind, what, where, n = action
        block = self._by_kind.get(kind)
        if block is None:
            raise ActionSpaceError(f"{action!r}: kind {kind!r} has no slots in this action space")
        i = 0
        if block.whats:
            wi = self._what_index[kind].get(what)
            if wi is None:
                raise ActionSpaceError(f"{action!r}: {what!r} is not a 'what' of {kind!r}")
            i = wi
        elif what:
            raise ActionSpaceError(f"{action!r}: {kind!r} takes no 'what'")
        if block.places:
            a = block.places.index(where) if where in block.places else None
            if a is None:
                raise ActionSpaceError(f"{action!r}: {where!r} is not one of {block.places}")
            i = i * block.areas + a
        elif block.areas:
            a = board.index.get(where) if where else None
            if a is None or a >= block.areas:
                raise ActionSpaceError(f"{action!r}: {where!r} is not one of the first "
                                       f"{block.areas} areas of the board")
            i = i * block.areas + a
        elif where:
            raise ActionSpaceError(f"{action!r}: {kind!r} takes no 'where'")
        if block.ns:
            if not 0 <= n < block.ns:
                above = self._above.get(kind)
                if above is None or not above.low <= n < above.low + above.ns:
                    top = above.low + above.ns if above else block.ns
                    raise ActionSpaceError(f"{action!r}: n={n} is outside 0..{top - 1} for {kind!r}")
                return above.offset + i * above.ns + n - above.low
            i = i * block.ns + n
        elif n:
            raise ActionSpaceError(f"{action!r}: {kind!r} takes no 'n'")
        return block.offset + i

    def decode(self, index: int, board=None) -> Action:
        """The action of a slot. Without a board an area is named by its index, '#12'."""
        try:
            whole = int(index)
        except (TypeError, ValueError):
            whole = None
        if whole is None or whole != index:  # int() would cut 2.5 to slot 2: another action than meant
            raise ActionSpaceError(f"an action index is a whole number, not {index!r}")
        index = whole
        if not 0 <= index < self.n:
            raise ActionSpaceError(f"action index {index} is outside 0..{self.n - 1}")
        block = self.blocks[bisect_right(self._offsets, index) - 1]
        i = index - block.offset
        n = where = 0
        if block.ns:
            i, n = divmod(i, block.ns)
            n += block.low
        if block.areas:
            i, where = divmod(i, block.areas)
        what = block.whats[i] if block.whats else ""
        area = ""
        if block.places:
            area = block.places[where]
        elif block.areas:
            if board is None:
                area = f"#{where}"
            elif where < len(board.ids):
                area = board.ids[where]
            else:
                raise ActionSpaceError(f"action index {index} names area {where}, "
                                       f"beyond the board's {len(board.ids)} areas")
        return Action(block.kind, what, area, n)

    def mask(self, actions, board) -> np.ndarray:
        """int8 vector: 1 exactly on the slots of `actions`."""
        m = np.zeros(self.n, dtype=np.int8)
        for a in actions:
            m[self.encode(a, board)] = 1
        return m

    def block_of(self, kind) -> KindBlock:
        """A kind's block (a widened kind's first: `above_of` is its second)."""
        return self._by_kind[kind]

    def above_of(self, kind) -> KindBlock | None:
        """A widened kind's second block, of the amounts above those its first keeps."""
        return self._above.get(kind)

    def table(self) -> list:
        """Rows for documentation: kind, first slot, slots, what, where, first n, n."""
        rows = []
        for b in self.blocks:
            rows.append({"kind": b.kind, "offset": b.offset, "size": b.size,
                         "what": len(b.whats), "where": b.areas, "low": b.low, "n": b.ns})
        return rows


ACTION_SPACE = ActionSpace()


def encode(action: Action, board) -> int:
    """Index of `action` in the default action space (`ACTION_SPACE`)."""
    return ACTION_SPACE.encode(action, board)


def decode(index: int, board=None) -> Action:
    """Action of an index of the default action space; see `ActionSpace.decode`."""
    return ACTION_SPACE.decode(index, board)


def legal_mask(game, player, space: ActionSpace = ACTION_SPACE, view=None) -> np.ndarray:
    """Mask of `player`'s legal actions (all zero when another player is to decide),
    read from the player's own view."""
    if view is None:
        view = game.view(player)
    actions = [Action.from_json(d) for d in view.get("legal_actions", ())]
    return space.mask(actions, game.board)


# --- the observation layout --------------------------------------------------------------

PHASES = ("setup", "offerings", "actions", "maintenance", "over")
# The decisions of players, each frame kind a feature: in a declared order (it was the kinds
# sorted by their former names), so that the observation keeps its layout when a kind is renamed
# and trained policies keep reading it; a new kind goes at the end.
FRAME_KINDS = ("battle", "bonus_fleet", "build", "creature", "hector", "land_move", "maintain", "metropolis",
               "offer", "peek", "placement", "place_hero", "place_unit", "prosper", "reroll", "reserve",
               "sacrifice", "sea_move", "turn", "voyage")
if set(FRAME_KINDS) != set(HANDLERS) - {CHANCE_FRAME}:
    raise RuntimeError(f"agents.encoding.FRAME_KINDS lists {sorted(FRAME_KINDS)}, the engine's frame kinds are "
                       f"{sorted(set(HANDLERS) - {CHANCE_FRAME})}: add a new kind at the end")
RULESET_NAMES = tuple(RULESETS)
MINIATURE_NAMES = _unique((m for c, card in CREATURES.items() if card.miniature
                           for m in MINIATURES.get(c, (c,))))
CREATURE_CARDS = tuple(CREATURES)
CREATURE_TRACK = max(len(r.creature_costs) for r in RULESETS.values())
HERO_TRACK = max(r.hero_track for r in RULESETS.values())

COUNT_HIGH = 1.0e6  # upper bound of count features (finite, for Box spaces)


class Segment(NamedTuple):
    """A named part of the observation vector: `shape` with one label tuple per axis."""
    name: str
    start: int
    shape: tuple
    axes: tuple       # label tuples, one per axis
    doc: str

    @property
    def size(self):
        return int(np.prod(self.shape))

    @property
    def stop(self):
        return self.start + self.size


def _rel(prefix, n):
    return tuple(f"{prefix}{k}" for k in range(n))


class ObservationLayout:
    """The observation vector's segments, in order, with their labels and bounds."""

    def __init__(self, max_areas=MAX_AREAS, max_factions=MAX_FACTIONS):
        self.max_areas, self.max_factions = max_areas, max_factions
        self.segments: list[Segment] = []
        self._start = 0
        self._flags = []  # (start, stop) ranges bounded by 1
        F, A = max_factions, max_areas
        self.global_features = (
            tuple(f"ruleset={r}" for r in RULESET_NAMES)
            + ("maelstrom", "team_play", "factions", "metropolises_to_win", "cycle")
            + tuple(f"phase={p}" for p in PHASES)
            + ("over", "my_decision", "creature_deck", "hero_deck", "bonus_stack",
               "mercenaries_in_reserve"))
        self._add("global", (len(self.global_features),), (self.global_features,),
                  "game-wide facts: ruleset, options, cycle, phase, pile sizes")
        self.player_features = (
            ("present", "me", "teammate", "to_move", "gp", "gp_known", "priestesses",
             "philosophers", "troops_in_reserve", "fleets_in_reserve", "metropolises",
             "eliminated", "heroes", "creatures", "on_apollo", "winner")
            + _rel("turn_order=", F) + _rel("action_order=", F)
            + tuple(f"acts_with={g}" for g in _unique(VOCABULARIES["god"], (APOLLO,))))
        self._add("players", (F, len(self.player_features)), (_rel("player+", F), self.player_features),
                  "one row per faction, relative to the viewer (row 0 is the viewer)")
        gods = VOCABULARIES["god"]
        self.god_features = (("present",) + _rel("slot=", len(gods))
                             + ("face_up", "bid") + _rel("bidder=player+", F))
        self._add("gods", (len(gods), len(self.god_features)), (gods, self.god_features),
                  "one row per god: auction slot, face up, current bid and bidder")
        self.creature_features = (_rel("track_slot=", CREATURE_TRACK) + ("cost",)
                                  + _rel("reserved_by=player+", F) + ("discarded",)
                                  + _rel("owner=player+", F))
        self._add("creature_cards", (len(CREATURE_CARDS), len(self.creature_features)),
                  (CREATURE_CARDS, self.creature_features),
                  "one row per creature card: on the track, reserved, discarded or held")
        heroes = VOCABULARIES["hero"]
        self.hero_features = _rel("track_slot=", HERO_TRACK) + ("discarded",) + _rel("owner=player+", F)
        self._add("hero_cards", (len(heroes), len(self.hero_features)), (heroes, self.hero_features),
                  "one row per hero card: on the track, discarded or held")
        self.area_features = (
            ("present", "land", "sea", "sites", "cornucopias", "priestess_icon", "volcano")
            + _rel("owner=player+", F) + ("owner=nobody", "troops", "mercs", "fleets", "prosperity")
            + tuple(f"building={k}" for k in VOCABULARIES["building"]) + ("empty_sites",)
            + tuple(f"bonus={k}" for k in VOCABULARIES["bonus"])
            + tuple(f"hero={h}" for h in heroes)
            + tuple(f"miniature={m}" for m in MINIATURE_NAMES)
            + ("geryon_gp", "decision_area", "decision_from"))
        self._add("areas", (A, len(self.area_features)), (_rel("area", A), self.area_features),
                  "one row per area in board order (padding rows are zero)")
        self._add("adjacency", (A, A), (_rel("area", A), _rel("area", A)),
                  "1 where two areas are adjacent (the board's `adj`, volcano link included)")
        self.decision_features = (tuple(f"frame={k}" for k in FRAME_KINDS)
                                  + _rel("decider=player+", F))
        self._add("decision", (len(self.decision_features),), (self.decision_features,),
                  "the pending decision: its frame kind and who decides")
        self.size = self._start
        self.high = self._bounds()
        self._seg = {s.name: s for s in self.segments}

    def _add(self, name, shape, axes, doc):
        seg = Segment(name, self._start, tuple(shape), tuple(axes), doc)
        self.segments.append(seg)
        self._start = seg.stop

    def segment(self, name) -> Segment:
        return self._seg[name]

    def index(self, segment, *labels) -> int:
        """Flat index of an element by its labels, e.g. index("areas", "area3", "troops")."""
        seg = self._seg[segment]
        flat = 0
        for axis, label in zip(seg.axes, labels):
            flat = flat * len(axis) + axis.index(label)
        return seg.start + flat

    def _bounds(self) -> np.ndarray:
        """1 for flags (one-hot or yes/no features), COUNT_HIGH for counts."""
        counts = {"factions", "metropolises_to_win", "cycle", "creature_deck", "hero_deck",
                  "bonus_stack", "mercenaries_in_reserve", "gp", "priestesses", "philosophers",
                  "troops_in_reserve", "fleets_in_reserve", "metropolises", "heroes", "creatures",
                  "bid", "cost", "sites", "cornucopias", "troops", "mercs", "fleets", "prosperity",
                  "empty_sites", "geryon_gp"}
        high = np.ones(self.size, dtype=np.float32)
        for seg in self.segments:
            last = seg.axes[-1]
            for j, label in enumerate(last):
                if label in counts or label.startswith(("building=", "bonus=")):
                    high[seg.start + j: seg.stop: len(last)] = COUNT_HIGH
        return high

    def describe(self, vec, board=None) -> dict:
        """The non-zero entries of an observation, by segment and labels (for debugging).
        With a board, areas are named by their ids."""
        vec = np.asarray(vec)
        if vec.shape != (self.size,):
            raise ValueError(f"an observation has {self.size} numbers, not {vec.shape}")
        out = {}
        for seg in self.segments:
            part = vec[seg.start:seg.stop].reshape(seg.shape)
            if len(seg.shape) == 1:
                d = {seg.axes[0][j]: _num(x) for j, x in enumerate(part) if x}
            else:
                rows = _area_names(seg.axes[0], board) if seg.name in ("areas", "adjacency") else seg.axes[0]
                cols = _area_names(seg.axes[1], board) if seg.name == "adjacency" else seg.axes[1]
                d = {}
                for i, row in enumerate(part):
                    if seg.name == "adjacency":
                        nb = [cols[j] for j in np.flatnonzero(row)]
                        if nb:
                            d[rows[i]] = nb
                        continue
                    r = {cols[j]: _num(row[j]) for j in np.flatnonzero(row)}
                    if r:
                        d[rows[i]] = r
            if d:
                out[seg.name] = d
        return out


def _num(x):
    x = float(x)
    return int(x) if x.is_integer() else x


def _area_names(labels, board):
    if board is None:
        return labels
    return tuple(board.ids[k] if k < len(board.ids) else lab for k, lab in enumerate(labels))


LAYOUT = ObservationLayout()


def describe_observation(vec, board=None) -> dict:
    """Decode an observation vector of the default layout into readable facts, e.g.
    {"global": {"cycle": 3, "phase=actions": 1, ...}, "players": {"player+0": {...}}, ...}."""
    return LAYOUT.describe(vec, board)


# --- the observation encoder ------------------------------------------------------------------

def layout_fingerprint(layout=None) -> str:
    """A short hash of the observation layout (its segments, shapes and labels): a file of
    vectors is read with the layout that wrote it, or not at all."""
    layout = LAYOUT if layout is None else layout
    parts = [(s.name, s.shape, s.axes) for s in layout.segments]
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:16]


class ObservationEncoder:
    """Builds the observation vector of one player from that player's view (R24)."""

    def __init__(self, layout: ObservationLayout = LAYOUT):
        self.layout = L = layout
        self.size = L.size
        F = L.max_factions
        self._F = F
        g = L.segment("global")
        self._g = {lab: g.start + j for j, lab in enumerate(L.global_features)}
        self._players = L.segment("players").start
        self._pw = len(L.player_features)
        self._pf = {lab: j for j, lab in enumerate(L.player_features)}
        self._gods = L.segment("gods").start
        self._gw = len(L.god_features)
        self._god_row = {k: i for i, k in enumerate(VOCABULARIES["god"])}
        self._cc = L.segment("creature_cards").start
        self._cw = len(L.creature_features)
        self._card_row = {c: i for i, c in enumerate(CREATURE_CARDS)}
        self._hc = L.segment("hero_cards").start
        self._hw = len(L.hero_features)
        self._hero_row = {h: i for i, h in enumerate(VOCABULARIES["hero"])}
        self._areas = L.segment("areas").start
        self._aw = len(L.area_features)
        self._af = {lab: j for j, lab in enumerate(L.area_features)}
        self._adj = L.segment("adjacency")
        self._dec = L.segment("decision").start
        self._frame = {k: j for j, k in enumerate(FRAME_KINDS)}
        self._static: dict[int, tuple] = {}  # id(board) -> (board, static area block, adjacency block)

    def encode(self, game, player, view=None) -> np.ndarray:
        """float32 vector of `player`'s observation of `game`: from `game.view(player)`,
        the public board and the public options only."""
        if view is None:
            view = game.view(player)
        return self.encode_view(view, game.board, game.options, player)

    def encode_view(self, v, board, options, me) -> np.ndarray:
        """The vector of a view: the board's fixed facts (encoded once per board), then the
        position's entries."""
        x = self.board_vector(board)
        self._write_position(x, v, board, options, me)
        return x

    def sparse_position(self, v, board, options, me) -> dict:
        """The position's entries of a view, {index: value} (some values may be 0; the vector
        is `board_vector(board)` plus these): what a network that caches the board's part
        reads (agents/value.py), cheaper than the dense vector."""
        entries: dict = defaultdict(float)
        self._write_position(entries, v, board, options, me)
        return entries

    def board_vector(self, board) -> np.ndarray:
        """The dense vector of the board's fixed facts alone (areas' static features, adjacency)."""
        x = np.zeros(self.layout.size, dtype=np.float32)
        static, adjacency = self._board_blocks(board)
        x[self._areas:self._areas + static.size] = static
        x[self._adj.start:self._adj.stop] = adjacency
        return x

    def _write_position(self, x, v, board, options, me) -> None:  # noqa: C901  (one pass over the view's parts, in layout order)
        """Write the view's entries that are not the board's fixed facts into `x` (a vector, or
        a dict of index -> value that starts at 0): item by item, so both work."""
        L, F = self.layout, self._F
        if len(board.ids) > L.max_areas:
            raise EncodingError(f"the board has {len(board.ids)} areas, the layout {L.max_areas}")
        n = len(v["players"])
        if n > F:
            raise EncodingError(f"{n} factions, the layout has rows for {F}")
        rel = lambda q: (q - me) % n  # noqa: E731  (faction -> row, the viewer's row is 0)
        gi = self._g

        def one(table, key, what):
            j = table.get(key)
            if j is None:
                raise EncodingError(f"unknown {what} {key!r}: the observation layout is out of date")
            return j

        # global
        x[one(gi, f"ruleset={v['ruleset']}", "ruleset")] = 1
        x[gi["maelstrom"]] = bool(options.get("maelstrom", True))
        x[gi["team_play"]] = bool(options.get("teams"))
        x[gi["factions"]] = n
        x[gi["metropolises_to_win"]] = options.get("team_goal") or RULESETS[v["ruleset"]].metropolises_to_win
        x[gi["cycle"]] = v["cycle"]
        x[one(gi, f"phase={v['phase']}", "phase")] = 1
        x[gi["over"]] = v["over"]
        x[gi["my_decision"]] = v["to_move"] == me
        x[gi["creature_deck"]] = v["creature_deck"]
        x[gi["hero_deck"]] = v["hero_deck"]
        x[gi["bonus_stack"]] = v["bonus_stack"]
        x[gi["mercenaries_in_reserve"]] = v["mercenaries_in_reserve"]

        # players
        teams = options.get("teams")
        pf, P, pw = self._pf, self._players, self._pw
        winners = set(v["result"]["winners"]) if v.get("result") else set()
        for d in v["players"]:
            q = d["index"]
            row = P + rel(q) * pw
            x[row + pf["present"]] = 1
            x[row + pf["me"]] = q == me
            x[row + pf["teammate"]] = bool(teams) and q != me and teams[q] == teams[me]
            x[row + pf["to_move"]] = v["to_move"] == q
            if d["gp"] is not None:
                x[row + pf["gp"]] = d["gp"]
                x[row + pf["gp_known"]] = 1
            x[row + pf["priestesses"]] = d["priestesses"]
            x[row + pf["philosophers"]] = d["philosophers"]
            x[row + pf["troops_in_reserve"]] = d["troops_in_reserve"]
            x[row + pf["fleets_in_reserve"]] = d["fleets_in_reserve"]
            x[row + pf["metropolises"]] = d["metropolises"]
            x[row + pf["eliminated"]] = d["eliminated"]
            x[row + pf["heroes"]] = len(d["heroes"])
            x[row + pf["creatures"]] = len(d["creatures"])
            x[row + pf["winner"]] = q in winners
        for q in v["apollo"]:
            x[P + rel(q) * pw + pf["on_apollo"]] = 1
        for pos, q in enumerate(v["turn_order"]):
            x[P + rel(q) * pw + one(pf, f"turn_order={pos}", "turn order position")] = 1
        for pos, (q, god) in enumerate(v["action_order"]):
            row = P + rel(q) * pw
            x[row + one(pf, f"action_order={pos}", "action order position")] = 1
            x[row + one(pf, f"acts_with={god}", "god")] = 1

        # gods
        G, gw = self._gods, self._gw
        for slot, d in enumerate(v["gods"]):
            row = G + one(self._god_row, d["god"], "god") * gw
            x[row] = 1
            x[row + 1 + slot] = 1
            k = 1 + len(self._god_row)
            x[row + k] = d["face_up"]
            if d["bid"]:
                x[row + k + 1] = d["bid"]["amount"]
                x[row + k + 2 + rel(d["bid"]["player"])] = 1

        # creature cards
        C, cw, T = self._cc, self._cw, CREATURE_TRACK
        cards = self._card_row
        for slot, d in enumerate(v["creature_track"]):
            if not d["card"]:
                continue
            row = C + one(cards, d["card"], "creature card") * cw
            x[row + slot] = 1
            x[row + T] = d["cost"]
            if d["reserved_by"] is not None:
                x[row + T + 1 + rel(d["reserved_by"])] = 1
        for c in v["creature_discard"]:
            x[C + one(cards, c, "creature card") * cw + T + 1 + F] = 1
        for d in v["players"]:
            for c in d["creatures"]:
                x[C + one(cards, c, "creature card") * cw + T + 2 + F + rel(d["index"])] = 1

        # hero cards
        H, hw, HT = self._hc, self._hw, HERO_TRACK
        heroes = self._hero_row
        for slot, h in enumerate(v["hero_track"]):
            if h:
                x[H + one(heroes, h, "hero") * hw + slot] = 1
        for h in v["hero_discard"]:
            x[H + one(heroes, h, "hero") * hw + HT] = 1
        for d in v["players"]:
            for h in d["heroes"]:
                x[H + one(heroes, h, "hero") * hw + HT + 1 + rel(d["index"])] = 1

        # areas: the view's pieces (the board's static facts are written by the caller)
        A0, aw, af = self._areas, self._aw, self._af
        nobody = af["owner=nobody"]
        for a, d in enumerate(v["areas"]):
            row = A0 + a * aw
            owner = d["owner"]
            x[row + (nobody if owner < 0 else af["owner=player+0"] + rel(owner))] = 1
            x[row + af["prosperity"]] = d["prosperity"]
            if "fleets" in d:
                x[row + af["fleets"]] = d["fleets"]
            else:
                x[row + af["troops"]] = d["troops"]
                x[row + af["mercs"]] = d["mercs"]
                for b in d["buildings"]:
                    x[row + (one(af, f"building={b}", "building") if b else af["empty_sites"])] += 1
                for b in d["metropolis_bonuses"]:
                    x[row + one(af, f"bonus={b}", "metropolis bonus")] += 1
                for h in d["heroes"]:
                    x[row + one(af, f"hero={h}", "hero")] = 1
            for m in d["creatures"]:
                x[row + one(af, f"miniature={m}", "miniature")] = 1
            if d.get("geryon_gp"):
                x[row + af["geryon_gp"]] = d["geryon_gp"]

        # the pending decision
        dec = v["decision"]
        if dec and dec[FRAME_KIND] != CHANCE_FRAME:  # at a chance decision, no player's
            x[self._dec + one(self._frame, dec[FRAME_KIND], "frame kind")] = 1
            x[self._dec + len(self._frame) + rel(dec[FRAME_PLAYER])] = 1
            for key, label in zip(at_and_from(dec[FRAME_KIND]), ("decision_area", "decision_from")):
                where = dec.get(key) if key else None
                if isinstance(where, str) and where in board.index:
                    x[A0 + board.index[where] * aw + af[label]] = 1

    def _board_blocks(self, board):
        """The board's static facts and adjacency, encoded once per board."""
        hit = self._static.get(id(board))
        if hit is not None and hit[0] is board:
            return hit[1], hit[2]
        L, aw, af = self.layout, self._aw, self._af
        A = L.max_areas
        static = np.zeros(A * aw, dtype=np.float32)
        for a in range(len(board.ids)):
            row = a * aw
            static[row + af["present"]] = 1
            static[row + af["land"]] = board.is_land[a]
            static[row + af["sea"]] = not board.is_land[a]
            static[row + af["sites"]] = board.sites[a]
            static[row + af["cornucopias"]] = board.cornucopias[a]
            static[row + af["priestess_icon"]] = board.priestess[a]
            static[row + af["volcano"]] = board.volcano[a]
        adjacency = np.zeros((A, A), dtype=np.float32)
        for a, nbrs in enumerate(board.adj):
            for b in nbrs:
                adjacency[a, b] = 1
        adjacency = adjacency.reshape(-1)
        if len(self._static) > 16:
            self._static.clear()
        self._static[id(board)] = (board, static, adjacency)
        return static, adjacency


# --- game options ------------------------------------------------------------------------------

def game_options(players=3, ruleset="legendary", maelstrom=True, teams=False, team_goal=3,
                 board="random", max_cycles=100, chance="seeded") -> dict:
    """The options of `cyclades.new_game`, checked by making one game, with what the
    environments need to know about its seats: "factions" and "teams" (team of each
    faction, or None)."""
    from ..engine.game import Game
    o = dict(players=players, ruleset=ruleset, maelstrom=maelstrom, teams=teams,
             team_goal=team_goal, board=board, max_cycles=max_cycles, chance=chance)
    probe = Game.new(seed=0, **o)
    o["factions"], o["team_of"] = probe.state.n, probe.teams
    return o


def new_engine_game(options, seed):
    """A new engine game from `game_options(...)` and a seed."""
    from ..engine.game import Game
    o = options
    return Game.new(players=o["players"], ruleset=o["ruleset"], seed=seed, board=o["board"],
                    maelstrom=o["maelstrom"], max_cycles=o["max_cycles"], teams=o["teams"],
                    team_goal=o["team_goal"], chance=o.get("chance", "seeded"))


# --- rewards ------------------------------------------------------------------------------------

def final_rewards(result: dict) -> list:
    """Each faction's reward at the end of a game (R21, R22): a win is 1, a loss 0, and a
    shared win is split evenly among the winning sides. A side is a faction, or a team in
    team play: every faction of a winning team gets the team's share (so in team play the
    rewards of all factions add up to more than 1)."""
    n = len(result["metropolises"])
    winners = result["winners"]
    if not result["over"] or not winners:
        return [0.0] * n
    teams = result.get("teams")
    side = (lambda q: teams[q]) if teams else (lambda q: q)
    sides = {side(q) for q in winners}
    return [1.0 / len(sides) if side(q) in sides else 0.0 for q in range(n)]


# --- a text picture, for render() -------------------------------------------------------------

def render(mode, game):
    """The environments' render(): the position as text ("ansi") or printed ("human")."""
    if mode is None or game is None:
        return None
    text = render_text(game)
    if mode == "human":
        print(text)
        return None
    return text


def render_text(game) -> str:
    """The public state in a few lines (what a spectator sees: no purse but at the end)."""
    v = game.view(None)
    lines = [f"cycle {v['cycle']}, {v['phase']}"
             + (f", player_{v['to_move']} to decide ({v['decision'][FRAME_KIND]})" if v["decision"] else "")
             + (f", over: winners {v['result']['winners']}" if v["over"] else "")]
    for d in v["players"]:
        gp = "" if d["gp"] is None else f", {d['gp']} GP"
        lines.append(f"  player_{d['index']}: {d['metropolises']} metropolises, "
                     f"{d['priestesses']} priestesses, {d['philosophers']} philosophers{gp}"
                     + (" (eliminated)" if d["eliminated"] else ""))
    for d in v["areas"]:
        if d["owner"] < 0 and not d.get("creatures"):
            continue
        units = (f"{d['fleets']} fleets" if "fleets" in d
                 else f"{d['troops']} troops" + (f" + {d['mercs']} mercs" if d["mercs"] else ""))
        extra = [b for b in d.get("buildings", ()) if b] + d.get("heroes", []) + d["creatures"]
        owner = f"player_{d['owner']}" if d["owner"] >= 0 else "nobody"
        lines.append(f"  {d['id']}: {owner}, {units}" + (f", {', '.join(extra)}" if extra else ""))
    return "\n".join(lines)


# --- the layouts as markdown (docs/rl.md) ----------------------------------------------------

def markdown_tables(space: ActionSpace = ACTION_SPACE, layout: ObservationLayout = LAYOUT) -> str:
    """The action space and observation layouts as markdown tables, for docs/rl.md:
    `python3 -c "from cyclades.agents.encoding import markdown_tables; print(markdown_tables())"`."""
    out = [f"Action space: {space.n} slots, fingerprint `{space.fingerprint}`"
           + (f"; its first {space.extends[1]} are the space `{space.extends[0]}` (before a range was "
              f"widened): self-play runs made on it read as this one's." if space.extends else "."), "",
           "| kind | first slot | slots | what | where | n |", "|---|---:|---:|---|---|---|"]
    for b in space.blocks:
        vocabs = KIND_ARGS[b.kind][0]
        what = f"{len(b.whats)} ({' + '.join(vocabs)})" if b.whats else "-"
        where = f"{b.areas} areas" if b.areas else "-"
        n = f"{b.low}..{b.low + b.ns - 1}" if b.ns else "-"
        out.append(f"| {b.kind} | {b.offset} | {b.size} | {what} | {where} | {n} |")
    out += ["", f"Observation: {layout.size} float32 numbers.", "",
            "| segment | first index | shape | rows | columns |", "|---|---:|---|---|---|"]
    for seg in layout.segments:
        if len(seg.shape) == 1:
            rows, cols = "-", ", ".join(seg.axes[0])
        else:
            rows = f"{seg.axes[0][0]} .. {seg.axes[0][-1]}"
            cols = (f"{seg.axes[1][0]} .. {seg.axes[1][-1]}" if seg.name == "adjacency"
                    else ", ".join(seg.axes[1]))
        out.append(f"| {seg.name} | {seg.start} | {' x '.join(map(str, seg.shape))} | {rows} | {cols} |")
    out += ["", "Vocabularies (the order of `what` inside a kind's block):", ""]
    for name, words in VOCABULARIES.items():
        out.append(f"- {name}: {', '.join(words)}")
    return "\n".join(out)
