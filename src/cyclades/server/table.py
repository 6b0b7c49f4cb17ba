"""What happened at the table, decision by decision, as the game page shows it.

A session keeps, for every decision of its game (`Table.add`, in order; `Table.pop` when one
is taken back):
- who decided and what they answered (the kind of the decision);
- its step for the undo rule (engine/undo.py): the page's Undo says how far back the seat to
  move may go, and why not further;
- the areas its events touched: each player's last move stays marked on the board until they
  play again (`last_moves`);
- where its log lines end: "since your last move" is the stretch of the log between a seat's
  last move and now (`since`);
- for the last `ANIMATED` decisions, the events themselves (engine/events.py, with nothing a
  player may not know: `public_events`), which the page animates (`moves_after`).

A player's move is the run of their decisions until another player decides, except that the
decisions others make inside it (a defender's retreat or loss in a battle the move began,
Hector, a re-roll) do not end it.
"""
from __future__ import annotations

from collections import deque
from typing import NamedTuple

from ..engine.actions import Action
from ..engine.events import public_events
from ..engine.undo import Limit, Step, judge, limit, unknowns

ANIMATED = 64              # the recent decisions whose events are kept for the pages
SINCE_LINES = 80           # at most this many log lines in "since your last move"
# Decisions made inside someone else's move.
INSIDE = {"battle", "hector", "reroll"}
_AREA_FIELDS = ("area", "origin", "destination")


class Played(NamedTuple):
    """One decision, once applied."""
    player: int
    kind: str          # the kind of decision it answered (engine/frames.py)
    step: Step
    events: list


def play(game, action) -> Played:
    """Apply a legal action to `game` (changed in place) and say what it was."""
    player, kind, before = game.to_move, game.state.stack[-1]["kind"], unknowns(game)
    events = game.apply(action)
    return Played(player, kind, judge(player, before, game, events), events)


def replay(game, actions, narrate) -> list:
    """Apply stored decisions (JSON) to `game` (changed in place): for each, (Played, its log
    lines by `narrate(game, events)`, the version after it)."""
    out = []
    for a in actions:
        played = play(game, Action.from_json(a))
        out.append((played, narrate(game, played.events), game.state.version))
    return out


def touched(events: list) -> list:
    """The areas a decision's events name, in order, each once."""
    out: dict = {}
    for e in events:
        for k in _AREA_FIELDS:
            a = e.get(k)
            if isinstance(a, str):
                out[a] = None
        for a in e.get("areas") or ():
            out[a] = None
        for a in e.get("path") or ():
            out[a] = None
    return list(out)


class Entry(NamedTuple):
    player: int
    kind: str
    step: Step
    areas: list
    log_end: int       # the log's length after this decision


class Table:
    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.recent: deque = deque(maxlen=ANIMATED)  # (index, version, player, public events)
        self._cache: dict = {}

    def __len__(self) -> int:
        return len(self.entries)

    def add(self, played: Played, log_end: int, version: int) -> None:
        self.entries.append(Entry(played.player, played.kind, played.step, touched(played.events), log_end))
        self.recent.append((len(self.entries) - 1, version, played.player, public_events(played.events)))
        self._cache.clear()

    def pop(self) -> Entry:
        """Forget the last decision (taken back)."""
        e = self.entries.pop()
        if self.recent and self.recent[-1][0] == len(self.entries):
            self.recent.pop()
        self._cache.clear()
        return e

    def log_start(self, i: int) -> int:
        """Where the log lines of decision i begin."""
        return self.entries[i - 1].log_end if i > 0 else 0

    # --- undo -------------------------------------------------------------------------

    def undo_limit(self, to_move) -> Limit:
        return limit([e.step for e in self.entries], to_move)

    # --- moves -------------------------------------------------------------------------

    def _inside(self, e: Entry, mover) -> bool:
        return e.player != mover and e.kind in INSIDE

    def _move_of(self, p: int, end: int) -> tuple:
        """(first, last) decision of p's latest move at or before decision `end`, or None."""
        i = end
        while i >= 0 and self.entries[i].player != p:
            i -= 1
        if i < 0:
            return None
        last = i
        while i >= 0 and (self.entries[i].player == p or self._inside(self.entries[i], p)):
            i -= 1
        first = i + 1
        while self.entries[first].player != p:  # a move begins with its player's decision
            first += 1
        return first, last

    def last_moves(self, players: int) -> list:
        """Each player's last move: {"player", "first", "last", "areas"} (decision indices),
        or None for a player who has not played yet."""
        key = ("moves", players)
        if key not in self._cache:
            out: list = []
            for p in range(players):
                span = self._move_of(p, len(self.entries) - 1)
                if span is None:
                    out.append(None)
                    continue
                areas: dict = {}
                for e in self.entries[span[0]:span[1] + 1]:
                    if e.player == p:
                        areas.update(dict.fromkeys(e.areas))
                out.append({"player": p, "first": span[0], "last": span[1], "areas": list(areas)})
            self._cache[key] = out
        return self._cache[key]

    def since(self, mine: list) -> dict | None:
        """What the others did since the last move of the factions `mine` (before the one
        under way, if they are playing now): {"from", "to"} log line indices and the number of
        decisions, or None if nothing. Capped to the last SINCE_LINES lines."""
        key = ("since", tuple(mine))
        if key in self._cache:
            return self._cache[key]
        i = len(self.entries) - 1
        ours = set(mine)
        # Step over the move under way (ours, with the decisions others make inside it).
        while i >= 0 and (self.entries[i].player in ours
                          or (self.entries[i].kind in INSIDE and self._within_ours(i, ours))):
            i -= 1
        end = i
        while i >= 0 and self.entries[i].player not in ours:
            i -= 1
        start = i + 1
        out = None
        if end >= start:
            lo, hi = self.log_start(start), self.entries[end].log_end
            out = {"from": max(lo, hi - SINCE_LINES), "to": hi, "decisions": end - start + 1,
                   "first_move": i < 0}
        self._cache[key] = out
        return out

    def _within_ours(self, i: int, ours: set) -> bool:
        """Whether decision i, another player's, is inside a move of ours."""
        j = i
        while j >= 0 and self.entries[j].player not in ours:
            if self.entries[j].kind not in INSIDE:
                return False
            j -= 1
        return j >= 0

    def moves_after(self, seen: int, log: list) -> list | None:
        """The decisions after the first `seen`, with their events and log lines, for a page
        to animate: [{"decision", "version", "player", "events", "lines"}]; None if they are no
        longer all kept."""
        n = len(self.entries)
        if seen >= n:
            return []
        if not self.recent or self.recent[0][0] > seen:
            return None
        return [{"decision": i, "version": v, "player": p, "events": ev,
                 "lines": log[self.log_start(i):self.entries[i].log_end]}
                for i, v, p, ev in self.recent if i >= seen]
