"""What happened in a terminal game since the human's last decision: the log lines of every
decision (a run of equal lines told once, with how many times), then where it happened."""
from __future__ import annotations

from cyclades.content.i18n import _
from cyclades.engine.log import area_name, card_name, decision_sentence

from .terminal import count, faction_names, units

# The keys of an event that name areas (engine/events.py).
AREA_KEYS = ("area", "origin", "destination", "areas")


def narrate(narrator, game, action, names) -> tuple:
    """Apply a decision; (the log lines it gives (a line of its own if it emits no event),
    the events)."""
    p = game.to_move
    events = game.apply(action)
    lines = narrator.lines(events)
    if not lines:
        silent = decision_sentence(action, p, names)
        lines = [silent] if silent else []
    return lines, events


class News:
    """What happened since the human's last decision: log lines, and the areas they touched."""

    def __init__(self):
        self.lines, self.areas = [], []

    def add(self, told, own=False):
        """`told`: what narrate() gives. `own`: the human's decision; its areas are not repeated
        (the choice just named them)."""
        lines, events = told
        self.lines.extend(lines)
        for e in () if own else events:
            for key in AREA_KEYS:
                v = e.get(key)
                for a in (v if isinstance(v, (list, tuple)) else [v]):
                    if isinstance(a, str) and a not in self.areas:
                        self.areas.append(a)

    def show(self, con, game, names, mine, areas=True):
        """Print the news (and, with `areas`, what is now in the areas), then forget it."""
        for line, times in _runs(self.lines):
            told = line
            if times > 1:
                told = line[:-1] + " (" + (_("twice") if times == 2 else _("{n} times").format(n=times)) + ")."
            con.print("  " + told, markup=False)
        if areas and self.areas:
            con.print(_areas_line(game, self.areas, names, mine[0]), markup=False, soft_wrap=False)
        self.lines, self.areas = [], []


def _runs(lines):
    """(line, times) for each run of equal lines: "places a Troop on Naxos" twice is one line."""
    out = []
    for line in lines:
        if out and out[-1][0] == line and line.endswith("."):
            out[-1][1] += 1
        else:
            out.append([line, 1])
    return out


def _areas_line(game, ids, names, me, most=6) -> str:
    """ "Now: Naxos: Player 2, 2 Troops, Fortress · the Gulf of Panope: you, 1 Fleet"."""
    v = game.view(me)
    parts = []
    for aid in ids[:most]:
        a = game.board.index.get(aid)
        if a is not None:
            parts.append(f"{area_name(game, a)}: {', '.join(_area_contents(game, v, a, names))}")
    more = (" · " + _("and {n} more (p: the whole position)").format(n=len(ids) - most)) if len(ids) > most else ""
    return "  " + _("Now: {areas}").format(areas=" · ".join(parts)) + more


def _area_contents(game, v, a, names) -> list:
    """Who holds an area ("you", "Player 2", "nobody"), then what is in it."""
    b, d = game.board, v["areas"][a]
    plain = faction_names(game)
    owner = _("you") if d["owner"] is not None and names[d["owner"]] != plain[d["owner"]] else (
        plain[d["owner"]] if d["owner"] is not None and 0 <= d["owner"] < len(plain) else _("nobody"))
    things = [owner]
    if b.is_land[a]:
        things += units(d["troops"], "troop") + units(d["mercs"], "merc")
        things += [card_name(h) for h in d["heroes"]]
        things += [card_name(x) for x in d["buildings"] if x]
    else:
        things += units(d["fleets"], "fleet")
    things += [card_name(c) for c in d["creatures"]]
    if d["prosperity"]:
        things.append(count(d["prosperity"], "prosperity"))
    return things
