"""The environments' fast path: observation vectors and action masks straight from the game
state into preallocated arrays, rewritten only where the position changed.

`ObservationEncoder.encode_view` (encoding.py) is the reference: it reads `game.view(player)`,
a fresh dict of the whole position, and fills a fresh vector number by number; the two take
about six times an engine decision. `GameEncoder` gives exactly the same numbers
(tests/env/test_env.py compares both over random games of every mode) for a fraction of that:

- The position is followed once, from no one's seat (faction k in row k), by comparing the
  state's fields with copies kept from the last look: the fields are read in one `attrgetter`
  call and compared in C, and only those that differ are looked at. What changed is written
  to a log of (index, value): the owner of the areas whose control changed, the troops of the
  areas whose troops changed, the bids when an offering was made...
- Each faction has its vector, allocated once, with what never changes in a game (the board's
  static facts and adjacency, the options, who is who) written once; an observation replays
  the log since that faction's last one through the faction's own index map (rows and
  columns of factions turned to the viewer, the purses it may not see dropped), then writes
  what depends on the viewer (its decision, the hidden keys of the pending frame).
- The mask: an int8 array, the slots of the last legal actions cleared and the new ones set;
  the slot of each legal action is remembered (a dict lookup, not an encoding): per board, and
  across boards for the actions that name no area.

`observation` and `mask` return copies (the caller's to keep and to change). `frozen_observation`
and `frozen_mask` (what the PettingZoo environment hands out) copy nothing: they return
read-only arrays that never change while anyone holds them, and are written again only once
dropped (CPython's reference count says so; `_Buffer.held`). Each faction keeps at most two
vectors and the mover's mask two buffers: enough for a loop that holds the last observation
while it asks for the next. Every other faction's mask is one shared read-only zero array.

R24: it reads exactly what `engine/view.py` shows a player and nothing else: the public state,
a purse only when `game.sees_purse(viewer, p)` (the viewer's own, a teammate's, R22) or the game
is over, the piles only by their length, never the generator, and of the pending frame its kind,
its decider and the areas its fields' roles name (engine/frames.py: `At`, `From`), which are
never secret. The purses the viewer may
not see are in the shared log but its index map drops them. tests/env/test_env.py checks that the
vectors do not move when only hidden facts change, as it does for the reference.

The game changes only through `apply` (which bumps `state.version`): a second call for the same
faction and version reuses the vector at once.
"""
from __future__ import annotations

import sys
from itertools import compress
from operator import attrgetter, ne
from sys import getrefcount
from typing import Any

import numpy as np

from ..agents.encoding import (
    ACTION_SPACE,
    CREATURE_TRACK,
    HERO_TRACK,
    LAYOUT,
    ActionSpace,
    EncodingError,
    ObservationEncoder,
    ObservationLayout,
)
from ..content.gods import METROPOLIS
from ..content.rulesets import RULESETS
from ..engine.chance import CHANCE_FRAME
from ..engine.frames import at_and_from
from ..engine.queries import creatures_on_board, metropolis_counts

_UNSET = object()  # never equal to a state value: forces a write after a reset

# The state fields the vector depends on (besides the decision frame and the piles' lengths),
# read in one call and compared with their copies in one: position k is field k.
SOURCES = ("ctrl", "troops", "mercs", "fleets", "prosperity", "geryon_gp", "sites", "metro_bonus",
           "hero_at", "creature_at", "creature_owner", "hero_owner", "creature_track", "reserved",
           "creature_discard", "hero_track", "hero_discard", "gp", "over", "priestesses",
           "philosophers", "troops_left", "fleets_left", "eliminated", "apollo", "turn_order",
           "action_order", "phase", "gods", "faceup", "bids")
_K = {name: k for k, name in enumerate(SOURCES)}
(_CTRL, _SITES, _METRO_BONUS, _HERO_AT, _CREATURE_AT, _CREATURE_OWNER, _HERO_OWNER,
 _CREATURE_TRACK, _RESERVED, _CREATURE_DISCARD, _HERO_TRACK, _HERO_DISCARD, _GP, _OVER, _APOLLO,
 _TURN_ORDER, _ACTION_ORDER, _PHASE, _GODS, _FACEUP, _BIDS) = (_K[name] for name in (
    "ctrl", "sites", "metro_bonus", "hero_at", "creature_at", "creature_owner", "hero_owner",
    "creature_track", "reserved", "creature_discard", "hero_track", "hero_discard", "gp", "over",
    "apollo", "turn_order", "action_order", "phase", "gods", "faceup", "bids"))
_read_sources = attrgetter(*SOURCES)
_SOURCE_RANGE = range(len(SOURCES))
_CONTAINERS = frozenset(k for k, name in enumerate(SOURCES) if name not in ("over", "phase", "faceup"))


def _lookup(table, key, what):
    j = table.get(key)
    if j is None:
        raise EncodingError(f"unknown {what} {key!r}: the observation layout is out of date")
    return j


def _where(a, board):
    """The area index of a frame's area field as the view shows it, or None (see view._decision
    and ObservationEncoder: an int is an area index, -1 none; a string an area id)."""
    if isinstance(a, int):
        return a if 0 <= a < len(board.ids) else None
    if isinstance(a, str):
        return board.index.get(a)
    return None


def _changed(new, old):
    """Indexes where two lists of the same length differ (the loop runs in C)."""
    return compress(range(len(new)), map(ne, new, old))


class _Position:
    """The position from no one's seat: copies of what was logged last, and the log."""

    __slots__ = (
        "action_order",
        "ccount",
        "game",
        "glob",
        "hcount",
        "holders",
        "log",
        "metros",
        "minis",
        "mkey",
        "n",
        "rel",
        "snap",
        "state",
        "to_move",
        "version",
        "winners",
        "written",
    )
    action_order: Any
    ccount: Any
    game: Any
    glob: Any
    hcount: Any
    holders: Any
    log: Any
    metros: Any
    minis: Any
    mkey: Any
    n: Any
    rel: Any
    snap: Any
    state: Any
    to_move: Any
    version: Any
    winners: Any
    written: Any

    def __init__(self):
        self.game = None


# Handing out arrays without copying them (`frozen_observation`, `frozen_mask`): an array is
# rewritten only when no one but the encoder holds it, which CPython's reference counts tell
# (a view or a slice of it, a dict or a list holding it, a tensor made from it: each counts).
# Elsewhere every array handed out is assumed kept, and the next one is a copy.
_RECYCLE = sys.implementation.name == "cpython"


def _read_only(a):
    v = a.view()
    v.flags.writeable = False
    return v


class _Buffer:
    """An array the encoder writes (`arr`, through `mv`) and the read-only view of it that it
    hands out (`frozen`)."""

    __slots__ = ("arr", "free_refs", "frozen", "mv")

    def __init__(self, size, dtype):
        self.arr = np.zeros(size, dtype=dtype)  # (made here: no other reference while counting)
        self.mv = memoryview(self.arr)  # type: ignore[arg-type]  # single numbers are written through it: twice as fast
        self.frozen = _read_only(self.arr)
        self.free_refs = self._refs()

    def _refs(self):
        return getrefcount(self.arr) + getrefcount(self.frozen)

    def held(self):
        """Whether anyone but the encoder holds the array or a view of it (then it must not
        change)."""
        return not _RECYCLE or self._refs() != self.free_refs


def _unheld(buffers, spare):
    """A buffer to write into: the last used (`buffers[0]`) if no one holds it, else the one
    before it if no one holds that, else `spare()`; put first, the last used second (at most
    two kept: the one held now may be free next time)."""
    last = buffers[0]
    if not last.held():
        return last
    free = buffers[1] if len(buffers) > 1 and not buffers[1].held() else spare()
    buffers[:] = [free, last]
    return free


class _Seat(_Buffer):
    """One faction's vector and how far it has replayed the log."""

    __slots__ = (
        "all_purses",
        "dec",
        "dec_raw",
        "game",
        "map",
        "me",
        "my_decision",
        "n",
        "pos",
        "state",
        "version",
        "vis",
    )
    all_purses: Any
    dec: Any
    dec_raw: Any
    game: Any
    map: Any
    me: Any
    my_decision: Any
    n: Any
    pos: Any
    state: Any
    version: Any
    vis: Any

    def __init__(self, size):
        super().__init__(size, np.float32)
        self.game = None

    def clone(self):
        """A copy to go on from while someone holds this one."""
        other = _Seat(self.arr.size)
        other.arr[:] = self.arr
        for name in _Seat.__slots__:
            setattr(other, name, getattr(self, name))
        return other


class _Mask(_Buffer):
    """An action mask and the slots set in it, for the position `key`."""

    __slots__ = ("key", "slots")

    def __init__(self, size):
        super().__init__(size, np.int8)
        self.slots, self.key = (), None


class GameEncoder:
    """Observation vectors and action masks of the factions of one game at a time, kept up to
    date from what changed (module docstring). Same numbers as `ObservationEncoder` and
    `legal_mask`."""

    def __init__(self, layout: ObservationLayout = LAYOUT, space: ActionSpace = ACTION_SPACE):
        self.layout = layout
        self.space = space
        self.size = layout.size
        ref = self._ref = ObservationEncoder(layout)  # its index tables and board blocks
        F = self._F = layout.max_factions
        self._pos = _Position()
        self._seats: dict[Any, Any] = {}
        self._maps: dict[Any, Any] = {}  # (factions, viewer, purses seen) -> index map
        # global
        gi = ref._g
        self._gi = gi
        self._phase_col = {lab[len("phase="):]: j for lab, j in gi.items() if lab.startswith("phase=")}
        self._gcols = tuple(gi[k] for k in ("cycle", "over", "creature_deck", "hero_deck",
                                            "bonus_stack", "mercenaries_in_reserve"))
        self._my_decision = gi["my_decision"]
        # players
        pf, P, pw = ref._pf, ref._players, ref._pw
        self._P, self._pw, self._pf = P, pw, pf
        self._gp_cols = (pf["gp"], pf["gp_known"])
        self._metros_col, self._heroes_col = pf["metropolises"], pf["heroes"]
        self._creatures_col, self._to_move_col = pf["creatures"], pf["to_move"]
        self._apollo_col, self._winner_col = pf["on_apollo"], pf["winner"]
        self._turn_col = [pf[f"turn_order={k}"] for k in range(F)]
        self._action_col = [pf[f"action_order={k}"] for k in range(F)]
        self._acts_with = {lab[len("acts_with="):]: j for lab, j in pf.items()
                           if lab.startswith("acts_with=")}
        # areas
        af, A0, aw = ref._af, ref._areas, ref._aw
        self._A0, self._aw = A0, aw
        self._owner0, self._nobody = af["owner=player+0"], af["owner=nobody"]
        self._building = {lab[len("building="):]: j for lab, j in af.items() if lab.startswith("building=")}
        self._empty = af["empty_sites"]
        self._bonus = {lab[len("bonus="):]: j for lab, j in af.items() if lab.startswith("bonus=")}
        self._hero_col = {lab[len("hero="):]: j for lab, j in af.items() if lab.startswith("hero=")}
        self._mini_col = {lab[len("miniature="):]: j for lab, j in af.items() if lab.startswith("miniature=")}
        # the building, empty-site and bonus columns are side by side
        bcols = [*list(self._building.values()), self._empty, *list(self._bonus.values())]
        self._bspan = range(min(bcols), max(bcols) + 1)
        assert len(self._bspan) == len(bcols)
        self._darea, self._dfrom = af["decision_area"], af["decision_from"]
        self._gods0 = layout.segment("gods").start
        self._cards0 = layout.segment("creature_cards").start
        self._heroes0 = layout.segment("hero_cards").start
        self._card_offset = {c: j * ref._cw for c, j in ref._card_row.items()}
        self._hero_offset = {h: j * ref._hw for h, j in ref._hero_row.items()}
        adj = layout.segment("adjacency")
        self._adj_span = (adj.start, adj.stop)
        # what to do when a source changed: the handlers, in this order (the areas before the
        # players' metropolises, which read them), each with the sources it reads
        per_area = [(name, af[col], land) for name, col, land in (
            ("troops", "troops", True), ("mercs", "mercs", True), ("fleets", "fleets", False),
            ("prosperity", "prosperity", None), ("geryon_gp", "geryon_gp", None))]
        per_player = [(name, pf[col]) for name, col in (
            ("priestesses", "priestesses"), ("philosophers", "philosophers"),
            ("troops_left", "troops_in_reserve"), ("fleets_left", "fleets_in_reserve"),
            ("eliminated", "eliminated"))]
        handlers: list[tuple[Any, tuple[str, ...]]] = [(self._owners, ("ctrl",))]
        handlers += [(self._area_column(*a), (a[0],)) for a in per_area]
        handlers += [
            (self._buildings, ("sites", "metro_bonus")),
            (self._metropolises, ("ctrl", "sites", "metro_bonus")),
            (self._heroes_on_board, ("hero_at",)),
            (self._miniatures, ("creature_at", "creature_owner")),
            (self._hero_owners, ("hero_owner",)),
            (self._creature_owners, ("creature_owner",)),
            (self._creature_track, ("creature_track", "reserved")),
            (self._creature_discard, ("creature_discard",)),
            (self._hero_track, ("hero_track",)),
            (self._hero_discard, ("hero_discard",)),
            (self._purses, ("gp",)),
        ]
        handlers += [(self._player_column(*a), (a[0],)) for a in per_player]
        handlers += [
            (self._apollo, ("apollo",)),
            (self._turn_order, ("turn_order",)),
            (self._action_order, ("action_order", "phase")),
            (self._winners, ("over",)),
            (self._gods, ("gods", "faceup", "bids")),
        ]
        self._handlers = [h for h, _ in handlers]
        # source k -> the positions in `_handlers` of the handlers that read it
        self._readers = [tuple(j for j, (_, names) in enumerate(handlers) if name in names)
                         for name in SOURCES]
        # the mask
        self._no_mask = np.zeros(space.n, dtype=np.int8)  # everyone's but the mover's
        self._no_mask.flags.writeable = False
        # the mask of a faction not to decide, handed out (a view of a read-only array stays so)
        self.zero_mask = self._no_mask.view()
        self._masks = [_Mask(space.n)]  # the last one first (at most two: see _mover_mask)
        self._legal_key: Any = None
        self._mask_set: list[Any] = []   # the slots of the legal actions at `_legal_key`
        self._actions: list[Any] = []    # their actions
        self._slots_board = None
        self._slots: dict[Any, Any] = {}      # Action -> slot, on the board `_slots_board`
        # the actions whose slot is the same on every board (they name no area)
        self._board_free_kinds = frozenset(b.kind for b in space.blocks if not b.areas or b.places)
        self._board_free_slots: dict[Any, Any] = {}

    # --- the observation vector ------------------------------------------------------------

    def observation(self, game, player) -> np.ndarray:
        """`player`'s observation vector of `game`: a new array (a copy of this encoder's)."""
        return self._seat(game, player).arr.copy()

    def frozen_observation(self, game, player) -> np.ndarray:
        """The same without the copy: a read-only array that never changes while anyone holds
        it (or a view of it), yours to keep; once dropped, the encoder writes the next
        observation into it. Copy it to change it."""
        return self._seat(game, player).frozen

    def frozen(self, game, player) -> tuple:
        """`frozen_observation` and `frozen_mask` in one call."""
        seat = self._seat(game, player)
        if player != self._pos.to_move:  # (game.to_move, as _seat has just followed it)
            return seat.frozen, self.zero_mask
        return seat.frozen, self._mover_mask(game).frozen

    def vector(self, game, player) -> np.ndarray:
        """This encoder's own array, rewritten at a later call for `player` once no one holds it:
        read it, never write into it (`frozen_observation` is the same, read-only)."""
        return self._seat(game, player).arr

    def _seat(self, game, player):
        """`player`'s seat, up to date: the one observed last if no one holds its array (or if
        nothing changed since), else another that no one holds, else a copy of the last."""
        s = game.state
        seats = self._seats.get(player)
        if seats is None:
            seat = _Seat(self.size)
            self._seats[player] = [seat]
        else:
            seat = seats[0]
            if seat.game is game and seat.state is s and seat.version == s.version:
                return seat
            seat = _unheld(seats, seat.clone)
        pos = self._pos
        if pos.game is not game or pos.state is not s:
            self._begin(game)
        if pos.version != s.version:
            self._follow(game)
        if seat.game is not game or seat.state is not s:
            self._start(seat, game, player)
        # replay what changed since this seat's last look, turned to the viewer
        log, mv, where = pos.log, seat.mv, seat.map
        for i, x in log[seat.pos:]:
            j = where[i]
            if j >= 0:
                mv[j] = x
        seat.pos = len(log)
        self._viewer(seat, game, player)
        seat.version = s.version
        return seat

    # --- the position from no one's seat -------------------------------------------------------

    def _begin(self, g):
        """A new game: copies that match an empty vector, or _UNSET where zero is not what it
        shows (so that the first look logs it), and an empty log."""
        s, board = g.state, g.board
        n, na = s.n, len(board.ids)
        if na > self.layout.max_areas:
            raise EncodingError(f"the board has {na} areas, the layout {self.layout.max_areas}")
        if n > self._F:
            raise EncodingError(f"{n} factions, the layout has rows for {self._F}")
        pos = self._pos
        pos.game, pos.state, pos.version, pos.n = g, s, None, n
        pos.rel = [self._P + q * self._pw for q in range(n)]  # faction q in row q
        pos.holders = [g.purse_holder(q) for q in range(n)]
        zero = {"ctrl": [_UNSET] * na, "sites": [_UNSET] * board.n_sites,
                "creature_track": _UNSET, "creature_discard": _UNSET, "hero_track": _UNSET,
                "hero_discard": _UNSET, "gods": _UNSET, "gp": _UNSET, "over": _UNSET,
                "phase": _UNSET, "creature_at": _UNSET,
                "metro_bonus": {}, "hero_at": {}, "creature_owner": {}, "hero_owner": {},
                "reserved": {}, "bids": {}, "faceup": 0,
                "apollo": [], "turn_order": [], "action_order": []}
        for name in ("troops", "mercs", "fleets", "prosperity", "geryon_gp"):
            zero[name] = [0] * na
        for name in ("priestesses", "philosophers", "troops_left", "fleets_left", "eliminated"):
            zero[name] = [0] * n
        # (replaced by a new list at each change, so that the handlers read the previous one)
        pos.snap = [zero[name] for name in SOURCES]
        pos.glob = pos.mkey = pos.to_move = _UNSET
        pos.metros, pos.hcount, pos.ccount = [0] * n, [0] * n, [0] * n
        pos.minis, pos.winners, pos.action_order = {}, (), []
        pos.written = {}  # part -> {index: value} it logged last
        pos.log = []
        for seats in self._seats.values():
            for seat in seats:
                seat.game = None  # every seat starts again

    def _follow(self, g):
        """Log what changed since the last look."""
        pos, s = self._pos, g.state
        log = pos.log.append
        cur = _read_sources(s)
        old = pos.snap
        changed = list(compress(_SOURCE_RANGE, map(ne, cur, old)))
        if changed:
            readers = self._readers
            todo = readers[changed[0]] if len(changed) == 1 else \
                sorted({j for k in changed for j in readers[k]})
            handlers = self._handlers
            for j in todo:
                handlers[j](pos, g, cur, old, log)
            pos.snap = snap = old[:]
            for k in changed:
                x = cur[k]
                snap[k] = x.copy() if k in _CONTAINERS else x
        glob = (s.cycle, s.over, len(s.creature_deck), len(s.hero_deck), len(s.bonus_stack),
                s.mercs_left, s.phase)
        if glob != pos.glob:
            for col, x, y in zip(self._gcols, glob, pos.glob if pos.glob is not _UNSET else glob):
                if x != y or pos.glob is _UNSET:
                    log((col, x))
            if pos.glob is _UNSET or glob[-1] != pos.glob[-1]:
                if pos.glob is not _UNSET:
                    log((self._phase_col[pos.glob[-1]], 0))
                log((_lookup(self._phase_col, s.phase, "phase"), 1))
            pos.glob = glob
        to_move = g.to_move
        if to_move != pos.to_move:
            col, rel = self._to_move_col, pos.rel
            if isinstance(pos.to_move, int):
                log((rel[pos.to_move] + col, 0))
            if to_move is not None:
                log((rel[to_move] + col, 1))
            pos.to_move = to_move
        pos.version = s.version

    # --- a faction's vector --------------------------------------------------------------------

    def _start(self, seat, g, me):
        """A new game (or a new viewer): zero the vector, write what never changes in a game,
        make the faction's index map; the whole log is then replayed into it."""
        buf, gi, options, board = seat.arr, self._gi, g.options, g.board
        n = self._pos.n
        buf.fill(0)
        seat.game, seat.state, seat.version, seat.pos, seat.n, seat.me = g, g.state, None, 0, n, me
        ruleset = options["ruleset"]
        buf[_lookup(gi, f"ruleset={ruleset}", "ruleset")] = 1
        buf[gi["maelstrom"]] = bool(options.get("maelstrom", True))
        buf[gi["team_play"]] = bool(options.get("teams"))
        buf[gi["factions"]] = n
        buf[gi["metropolises_to_win"]] = options.get("team_goal") or RULESETS[ruleset].metropolises_to_win
        teams = options.get("teams")
        P, pw, pf = self._P, self._pw, self._pf
        for q in range(n):
            row = P + ((q - me) % n) * pw
            buf[row + pf["present"]] = 1
            buf[row + pf["me"]] = q == me
            buf[row + pf["teammate"]] = bool(teams) and q != me and teams[q] == teams[me]
        static, adjacency = self._ref._board_blocks(board)
        A0 = self._A0
        buf[A0:A0 + static.size] = static
        a0, a1 = self._adj_span
        buf[a0:a1] = adjacency
        # R24: whose purse the viewer sees (its own, its team's) is fixed for the game; the
        # others are dropped from the log until the game is over
        seat.vis = tuple(q == me or g.sees_purse(me, q) for q in range(n))
        seat.map = self._index_map(n, me, seat.vis)
        seat.all_purses = False
        seat.my_decision = seat.dec_raw = seat.dec = _UNSET

    def _index_map(self, n, me, vis):
        """Index in the log (faction q in row q) -> index in `me`'s vector (faction q in row
        q - me): the players' rows, and every column naming a faction; -1 for the purses of
        the factions q with `vis[q]` false. Made once per (n, me, vis), never changed."""
        key = (n, me, vis)
        where = self._maps.get(key)
        if where is None:
            where = self._maps[key] = self._make_index_map(n, me, vis)
        return where

    def _make_index_map(self, n, me, vis):
        where = list(range(self.size))
        F, P, pw, ref = self._F, self._P, self._pw, self._ref
        for q in range(n):
            r = (q - me) % n
            for c in range(pw):
                where[P + q * pw + c] = P + r * pw + c

        def columns(start, rows, width, first):
            for row in range(rows):
                base = start + row * width + first
                for q in range(n):
                    where[base + q] = base + (q - me) % n
        L = self.layout
        k = 1 + len(ref._god_row)
        columns(self._gods0, len(ref._god_row), ref._gw, k + 2)                         # bidder
        T = CREATURE_TRACK
        columns(self._cards0, len(ref._card_row), ref._cw, T + 1)                       # reserved by
        columns(self._cards0, len(ref._card_row), ref._cw, T + 2 + F)                   # owner
        columns(self._heroes0, len(ref._hero_row), ref._hw, HERO_TRACK + 1)             # owner
        columns(self._A0, L.max_areas, self._aw, self._owner0)                          # owner
        gp_col, known_col = self._gp_cols
        for q in range(n):
            if not vis[q]:
                where[P + q * pw + gp_col] = where[P + q * pw + known_col] = -1
        return where  # (the decision's decider is written by each seat, not logged)

    def _viewer(self, seat, g, me):
        """What depends on the viewer: whether it decides, the pending decision's frame (its
        hidden keys are the decider's only), every purse once the game is over."""
        s, mv = g.state, seat.mv
        my = self._pos.to_move == me  # (g.to_move, as _follow read it)
        if my != seat.my_decision:
            mv[self._my_decision] = my
            seat.my_decision = my
        if s.over and not seat.all_purses:
            gp, holders = s.gp, self._pos.holders
            P, pw = self._P, self._pw
            gp_col, known_col = self._gp_cols
            for q in range(seat.n):
                row = P + ((q - me) % seat.n) * pw
                mv[row + gp_col] = gp[holders[q]]
                mv[row + known_col] = 1
            seat.map = self._index_map(seat.n, me, (True,) * seat.n)
            seat.all_purses = True
        if s.over or not s.stack or s.stack[-1]["kind"] == CHANCE_FRAME:  # no player's decision
            raw = None
        else:
            f = s.stack[-1]
            at, frm = at_and_from(f["kind"])
            raw = (f["kind"], f["player"], f.get(at) if at else None, f.get(frm) if frm else None)
        if raw != seat.dec_raw:
            if raw is None:
                dec = None
            else:
                kind, p, area, origin = raw
                b = g.board
                dec = (kind, p, _where(area, b), _where(origin, b))
            if dec != seat.dec:
                self._decision(seat, dec)
            seat.dec_raw = raw

    def _decision(self, seat, dec):
        """The pending decision's frame kind and decider, and the areas it is about."""
        ref, mv, n, me = self._ref, seat.mv, seat.n, seat.me
        A0, aw = self._A0, self._aw
        D, nf = ref._dec, len(ref._frame)
        old = seat.dec
        if old is not _UNSET and old is not None:
            mv[D + ref._frame[old[0]]] = 0
            mv[D + nf + (old[1] - me) % n] = 0
            if old[2] is not None:
                mv[A0 + old[2] * aw + self._darea] = 0
            if old[3] is not None:
                mv[A0 + old[3] * aw + self._dfrom] = 0
        if dec is not None:
            mv[D + _lookup(ref._frame, dec[0], "frame kind")] = 1
            mv[D + nf + (dec[1] - me) % n] = 1
            if dec[2] is not None:
                mv[A0 + dec[2] * aw + self._darea] = 1
            if dec[3] is not None:
                mv[A0 + dec[3] * aw + self._dfrom] = 1
        seat.dec = dec

    # --- the handlers: (position, game, current sources, their copies, log) ----------------------

    def _owners(self, pos, g, cur, old, log):
        ctrl, was = cur[_CTRL], old[_CTRL]
        A0, aw, owner0, nobody = self._A0, self._aw, self._owner0, self._nobody
        for a in _changed(ctrl, was):
            row = A0 + a * aw
            o, w = ctrl[a], was[a]
            if w is not _UNSET:
                log((row + (nobody if w < 0 else owner0 + w), 0))
            log((row + (nobody if o < 0 else owner0 + o), 1))

    def _area_column(self, name, col, on_land):
        """A per-area count: logged where the view shows it (troops and mercenaries on land,
        fleets at sea, the rest everywhere)."""
        k, base, aw = _K[name], self._A0 + col, self._aw

        def handler(pos, g, cur, old, log):
            new, land = cur[k], g.board.is_land
            for a in _changed(new, old[k]):
                if on_land is None or land[a] == on_land:
                    log((base + a * aw, new[a]))
        return handler

    def _buildings(self, pos, g, cur, old, log):
        """The buildings and metropolis bonuses of the areas whose sites changed."""
        b = g.board
        sites, mb = cur[_SITES], cur[_METRO_BONUS]
        was, old_mb = old[_SITES], old[_METRO_BONUS]
        site_area, land = b.site_area, b.is_land
        touched = {site_area[i] for i in _changed(sites, was)}
        if mb != old_mb:
            for k in set(mb) | set(old_mb):
                if isinstance(k, int) and mb.get(k) != old_mb.get(k):
                    touched.add(site_area[k])
        A0, aw, span = self._A0, self._aw, self._bspan
        building, empty, bonus = self._building, self._empty, self._bonus
        logged = pos.written.setdefault("buildings", {})  # area -> its counts as logged
        for a in touched:
            if not land[a]:
                continue
            counts = dict.fromkeys(span, 0)
            for i in b.sites_of(a):
                k = sites[i]
                counts[_lookup(building, k, "building") if k else empty] += 1
                if i in mb:
                    counts[_lookup(bonus, mb[i], "metropolis bonus")] += 1
            was = logged.get(a)
            row = A0 + a * aw
            for c, x in counts.items():
                if was is None or was[c] != x:
                    log((row + c, x))
            logged[a] = counts

    def _metropolises(self, pos, g, cur, old, log):
        """Each faction's metropolises (queries.metropolis_counts, as the view counts them),
        counted again only when what they depend on changed: the metropolis sites, their areas'
        control, the one on Penthesilea's card."""
        sites, ctrl, mb = cur[_SITES], cur[_CTRL], cur[_METRO_BONUS]
        key, i = [mb.get("penthesilea")], -1
        if METROPOLIS in sites:
            site_area = g.board.site_area
            try:
                while True:
                    i = sites.index(METROPOLIS, i + 1)
                    key.append(i)
                    key.append(ctrl[site_area[i]])
            except ValueError:
                pass
        was = pos.mkey
        if key != was:
            col, metros, rel = self._metros_col, pos.metros, pos.rel
            for q, x in enumerate(metropolis_counts(g)):
                if x != metros[q]:
                    log((rel[q] + col, x))
                    metros[q] = x
            pos.mkey = key

    def _pieces(self, log, new, old, cols, what, shown):
        """Heroes or miniatures (name -> area): a flag in the row of the area each stands on."""
        A0, aw = self._A0, self._aw
        for k, a in old.items():
            if new.get(k) != a and shown(a):
                log((A0 + a * aw + cols[k], 0))
        for k, a in new.items():
            if old.get(k) != a and shown(a):
                log((A0 + a * aw + _lookup(cols, k, what), 1))

    def _heroes_on_board(self, pos, g, cur, old, log):
        land = g.board.is_land
        na = len(land)
        self._pieces(log, cur[_HERO_AT], old[_HERO_AT], self._hero_col, "hero",
                     lambda a: isinstance(a, int) and 0 <= a < na and land[a])

    def _miniatures(self, pos, g, cur, old, log):
        minis = creatures_on_board(g)  # the miniatures of held cards (as the view shows)
        if minis != pos.minis:
            na = len(g.board.ids)
            self._pieces(log, minis, pos.minis, self._mini_col, "miniature",
                         lambda a: isinstance(a, int) and 0 <= a < na)
            pos.minis = minis

    @staticmethod
    def _rewrite(pos, log, name, new):
        """Log zeros where a part logged numbers last time, then its new ones ({index: value})."""
        old = pos.written.get(name, {})
        for i in old:
            if i not in new:
                log((i, 0))
        for i, x in new.items():
            if old.get(i) != x:
                log((i, x))
        pos.written[name] = new

    def _count(self, pos, log, owner, counts, col):
        """Cards held per faction (a player column) from card -> owner."""
        n, rel = pos.n, pos.rel
        new = [0] * n
        for o in owner.values():
            if isinstance(o, int) and 0 <= o < n:
                new[o] += 1
        for q in range(n):
            if new[q] != counts[q]:
                log((rel[q] + col, new[q]))
                counts[q] = new[q]

    def _owned(self, pos, log, part, owner, start, width, col0, rows, what):
        """A card segment's owner columns from card -> owner."""
        n = pos.n
        self._rewrite(pos, log, part, {start + _lookup(rows, c, what) * width + col0 + o: 1
                                       for c, o in owner.items() if isinstance(o, int) and 0 <= o < n})

    def _hero_owners(self, pos, g, cur, old, log):
        owner = cur[_HERO_OWNER]
        self._count(pos, log, owner, pos.hcount, self._heroes_col)
        ref = self._ref
        self._owned(pos, log, "hero owners", owner, self._heroes0, ref._hw, HERO_TRACK + 1,
                    ref._hero_row, "hero")

    def _creature_owners(self, pos, g, cur, old, log):
        owner = cur[_CREATURE_OWNER]
        self._count(pos, log, owner, pos.ccount, self._creatures_col)
        ref = self._ref
        self._owned(pos, log, "creature owners", owner, self._cards0, ref._cw,
                    CREATURE_TRACK + 2 + self._F, ref._card_row, "creature card")

    def _creature_track(self, pos, g, cur, old, log):
        """The creature track: each card's slot and price, and who reserved it."""
        ref, n = self._ref, pos.n
        C, cw, T, cards = self._cards0, ref._cw, CREATURE_TRACK, ref._card_row
        reserved = cur[_RESERVED]
        new = {}
        for slot, (c, cost) in enumerate(zip(cur[_CREATURE_TRACK], g.rules.creature_costs)):
            if not c:
                continue
            row = C + _lookup(cards, c, "creature card") * cw
            new[row + slot] = 1
            new[row + T] = cost
            r = reserved.get(c)
            if r is not None:
                new[row + T + 1 + r % n] = 1
        self._rewrite(pos, log, "creature track", new)

    def _pile(self, pos, log, part, new, old, col, offset, what):
        """A discard pile: a flag per card. Between reshuffles a pile only grows: then only
        the cards added are logged."""
        if old is not _UNSET and len(new) > len(old) and new[:len(old)] == old:
            written = pos.written[part]
            for c in new[len(old):]:
                i = _lookup(offset, c, what) + col
                if i not in written:
                    log((i, 1))
                    written[i] = 1
        else:
            self._rewrite(pos, log, part, {_lookup(offset, c, what) + col: 1 for c in new})

    def _creature_discard(self, pos, g, cur, old, log):
        self._pile(pos, log, "creature discard", cur[_CREATURE_DISCARD], old[_CREATURE_DISCARD],
                   self._cards0 + CREATURE_TRACK + 1 + self._F, self._card_offset, "creature card")

    def _hero_track(self, pos, g, cur, old, log):
        H, hw, heroes = self._heroes0, self._ref._hw, self._ref._hero_row
        self._rewrite(pos, log, "hero track", {H + _lookup(heroes, h, "hero") * hw + slot: 1
                                               for slot, h in enumerate(cur[_HERO_TRACK]) if h})

    def _hero_discard(self, pos, g, cur, old, log):
        self._pile(pos, log, "hero discard", cur[_HERO_DISCARD], old[_HERO_DISCARD],
                   self._heroes0 + HERO_TRACK, self._hero_offset, "hero")

    def _purses(self, pos, g, cur, old, log):
        """Every purse (a team's in each of its factions' rows, R22): each viewer's index map
        drops those it may not see (R24)."""
        gp, was, holders, rel = cur[_GP], old[_GP], pos.holders, pos.rel
        gp_col, known_col = self._gp_cols
        for q in range(pos.n):
            h = holders[q]
            if was is _UNSET:
                log((rel[q] + gp_col, gp[h]))
                log((rel[q] + known_col, 1))
            elif gp[h] != was[h]:
                log((rel[q] + gp_col, gp[h]))

    def _player_column(self, name, col):
        k = _K[name]

        def handler(pos, g, cur, old, log):
            new, rel = cur[k], pos.rel
            for q in _changed(new, old[k]):
                log((rel[q] + col, new[q]))
        return handler

    def _apollo(self, pos, g, cur, old, log):
        col, rel = self._apollo_col, pos.rel
        for q in old[_APOLLO]:
            log((rel[q] + col, 0))
        for q in cur[_APOLLO]:
            log((rel[q] + col, 1))

    def _turn_order(self, pos, g, cur, old, log):
        rel, tc = pos.rel, self._turn_col
        new = {}
        for p, q in enumerate(cur[_TURN_ORDER]):
            if p >= len(tc):
                raise EncodingError(f"unknown turn order position {p!r}: the observation "
                                    f"layout is out of date")
            new[rel[q] + tc[p]] = 1
        self._rewrite(pos, log, "turn order", new)

    def _action_order(self, pos, g, cur, old, log):
        """The action order with each one's god: shown in the actions phase only."""
        shown = cur[_ACTION_ORDER] if cur[_PHASE] == "actions" else []
        if shown == pos.action_order:
            return
        rel, ac, acts = pos.rel, self._action_col, self._acts_with
        new = {}
        for p, (q, god) in enumerate(shown):
            if p >= len(ac):
                raise EncodingError(f"unknown action order position {p!r}: the "
                                    f"observation layout is out of date")
            new[rel[q] + ac[p]] = 1
            new[rel[q] + _lookup(acts, god, "god")] = 1
        self._rewrite(pos, log, "action order", new)
        pos.action_order = shown[:]

    def _winners(self, pos, g, cur, old, log):
        winners = tuple(g.result()["winners"]) if cur[_OVER] else ()
        if winners != pos.winners:
            col, rel = self._winner_col, pos.rel
            for q in pos.winners:
                log((rel[q] + col, 0))
            for q in winners:
                log((rel[q] + col, 1))
            pos.winners = winners

    def _gods(self, pos, g, cur, old, log):
        """The auction: each god's slot and face (with the gods), its bid and bidder."""
        ref, n = self._ref, pos.n
        G, gw, rows = self._gods0, ref._gw, ref._god_row
        k = 1 + len(rows)
        gods, faceup, bids = cur[_GODS], cur[_FACEUP], cur[_BIDS]
        if gods != old[_GODS] or faceup != old[_FACEUP]:
            slots = {}
            for slot, god in enumerate(gods):
                row = G + _lookup(rows, god, "god") * gw
                slots[row] = 1
                slots[row + 1 + slot] = 1
                if slot < faceup:
                    slots[row + k] = 1
            self._rewrite(pos, log, "god slots", slots)
        offers = {}
        for god in gods:
            bid = bids.get(god)
            if bid:
                row = G + rows[god] * gw
                offers[row + k + 1] = bid[1]
                offers[row + k + 2 + bid[0] % n] = 1
        self._rewrite(pos, log, "bids", offers)

    # --- the action mask ---------------------------------------------------------------------

    def mask(self, game, player) -> np.ndarray:
        """int8 mask of `player`'s legal actions, all zero when another player is to decide:
        a new array, the same as `encoding.legal_mask`."""
        return self.mask_array(game, player).copy()

    def frozen_mask(self, game, player) -> np.ndarray:
        """The same without the copy: a read-only array that never changes while anyone holds
        it (as `frozen_observation`)."""
        if player != game.to_move:
            return self.zero_mask
        return self._mover_mask(game).frozen

    def mask_array(self, game, player) -> np.ndarray:
        """This encoder's own array, rewritten at a later call once no one holds it: read it,
        never write into it."""
        if player != game.to_move:
            return self._no_mask
        return self._mover_mask(game).arr

    def _mover_mask(self, game):
        """The mask of the faction to move: the last one if it is up to date, else one no one
        holds (its slots of last time cleared, the new ones set), else a new one."""
        s = game.state
        masks = self._masks
        m = masks[0]
        key = (game, s, s.version)
        if m.key == key:
            return m
        if self._legal_key != key:
            self._legal_slots(game)
            self._legal_key = key
        m = _unheld(masks, lambda: _Mask(self.space.n))
        mv = m.mv
        for i in m.slots:
            mv[i] = 0
        for i in self._mask_set:
            mv[i] = 1
        m.slots, m.key = self._mask_set, key
        return m

    def _legal_slots(self, game):
        """The slots of the legal actions (each looked up in a dict, not encoded again)."""
        board = game.board
        if self._slots_board is not board:
            # a new board: the slots of the actions that name no area carry over
            self._slots_board, self._slots = board, dict(self._board_free_slots)
        actions = game.legal_actions()
        slots = self._slots
        idx = list(map(slots.get, actions))
        if None in idx:
            encode, free_kinds = self.space.encode, self._board_free_kinds
            for j, a in enumerate(actions):
                if idx[j] is None:
                    idx[j] = slots[a] = encode(a, board)
                    if a.kind in free_kinds:
                        self._board_free_slots[a] = idx[j]
        self._mask_set, self._actions = idx, actions

    def action(self, index, game):
        """The action of a slot: from the last mask when it holds it, else `space.decode`
        (which raises `ActionSpaceError` outside the space)."""
        s = game.state
        if isinstance(index, (int, np.integer)) and self._legal_key == (game, s, s.version):
            try:
                return self._actions[self._mask_set.index(index)]
            except ValueError:
                pass
        return self.space.decode(index, game.board)
