"""The position in a terminal game as a player may know it (R24: game.view hides others' GP):
the whole of it (the `p` key, and once before the first decision), and the status line said
before each decision."""
from __future__ import annotations

from cyclades.content.i18n import _, ngettext
from cyclades.content.names import place
from cyclades.engine.log import area_name, card_name, god_name

from .terminal import count, faction_names, phase_name, teams_of, units


def status_line(game, p, names, mine) -> str:
    """ "Cycle 2 · Offerings · Player 1 (you): 7 GP · your offering: 3 GP to Zeus"."""
    v = game.view(p)
    gp = v["players"][p]["gp"]
    purse = _("team purse {n} GP").format(n=gp) if game.teams else _("{n} GP").format(n=gp)
    god = None
    for gd in v["gods"]:
        bid = gd["bid"]
        if bid and bid["player"] in mine:
            god = _("{god} ({n} GP)").format(god=god_name(gd["god"]), n=bid["amount"])
    if p in v["apollo"]:
        god = god_name("apollo")
    god_text = _("your God: {god}").format(god=god) if god else (
        _("no God yet") if v["phase"] == "offerings" else _("no God"))
    if v["phase"] == "setup":
        god_text = ""
    head = _("Cycle {n} · {phase}").format(n=v["cycle"], phase=_phase(v)) if v["cycle"] else _phase(v)
    return " · ".join(x for x in (head, f"{names[p]}: {purse}", god_text) if x)


def show_position(con, game, me, names):
    """A compact summary of what `me` may know: Gods, teams, players, areas, tracks."""
    v = game.view(me)
    con.print()
    con.rule(_("The position · Cycle {n} · {phase} · as {name} sees it").format(n=v["cycle"], phase=_phase(v),
                                                                                 name=names[me]))
    _show_gods(con, v, names)
    if game.teams:
        con.print(_teams_line(game, v, me), markup=False)
    for pl in v["players"]:
        con.print(_player_line(game, pl, names), markup=False)
    # Plain columns, not rich tables: this is printed before every decision, and rich tables
    # are slow to lay out.
    _columns(con, (_("Island"), _("Land area"), _("Owner"), _("Units"), _("Buildings"), _("Income")),
             _land_rows(game, v, names))
    _show_seas(con, game, v, names)
    _show_tracks(con, game, v, names)


def _phase(v) -> str:
    return _("Placement") if v["phase"] == "setup" else phase_name(v["phase"])


def _short(names, p) -> str:
    return names[p] if p is not None and 0 <= p < len(names) else "-"


def _show_gods(con, v, names):
    """The Gods and their offerings, Apollo's, and the turn order."""
    gods = []
    for gd in v["gods"]:
        bid = gd["bid"]
        offer = _("{name} {n} GP").format(name=_short(names, bid["player"]), n=bid["amount"]) if bid else None
        text = f"{god_name(gd['god'])}: " + (offer or _("no offering"))
        down = _("{god} (face down)").format(god=god_name(gd["god"]))
        gods.append(text if gd["face_up"] else f"[dim]{down}[/dim]")
    apollo = ", ".join(_short(names, p) for p in v["apollo"]) or _("no one")
    con.print(_("Gods: {gods}").format(gods=" | ".join(gods)) + f" | {god_name('apollo')}: {apollo}")
    con.print(_("Turn order: {players}").format(players=", ".join(_short(names, p) for p in v["turn_order"])))


def _teams_line(game, v, me) -> str:
    """Team play (R22): the teams, each with its one purse, shown to its members only (R24)."""
    parts = []
    plain = faction_names(game)
    for t, members in teams_of(game):
        gp = v["players"][members[0]]["gp"]
        who = ", ".join(plain[q] for q in members)
        team = (_("Team {n} ({players}; yours)") if me in members else _("Team {n} ({players})")).format(
            n=t + 1, players=who)
        parts.append(team + ": " + ("?" if gp is None else str(gp)) + " " + _("GP"))
    return _("Teams, each with a shared purse: {teams}").format(teams=" | ".join(parts))


def _player_line(game, pl, names) -> str:
    """A player's public figures, and their GP if the viewer may know it (their own, R24)."""
    p = pl["index"]
    if game.teams:
        gp = _("team {n}").format(n=game.teams[p] + 1)
    else:
        gp = ("?" if pl["gp"] is None else str(pl["gp"])) + " " + _("GP")
    line = _("{name}: {gp}, {priestesses}, {philosophers}, {metropolises}; in reserve {troops}, {fleets}").format(
        name=names[p], gp=gp, priestesses=count(pl["priestesses"], "priestess"),
        philosophers=count(pl["philosophers"], "philosopher"), metropolises=count(pl["metropolises"], "metropolis"),
        troops=count(pl["troops_in_reserve"], "troop"), fleets=count(pl["fleets_in_reserve"], "fleet"))
    if pl["heroes"]:
        line += "; " + _("Heroes: {names}").format(names=", ".join(card_name(h) for h in pl["heroes"]))
    if pl["creatures"]:
        line += "; " + _("Creatures: {names}").format(names=", ".join(card_name(c) for c in pl["creatures"]))
    if pl["eliminated"]:
        line += " (" + _("eliminated") + ")"
    return line


def _land_rows(game, v, names) -> list:
    """A row per land area, island by island."""
    b = game.board
    rows = []
    for k, island in enumerate(b.islands):
        for j, a in enumerate(island):
            d = v["areas"][a]
            here = units(d["troops"], "troop") + units(d["mercs"], "merc")
            here += [card_name(h) for h in d["heroes"]] + [card_name(c) for c in d["creatures"]]
            sites = [card_name(x) if x else "·" for x in d["buildings"]]
            label = _("{area} (Priestess icon)").format(area=place(b.names[a])) if b.priestess[a] else place(b.names[a])
            rows.append((str(k + 1) if j == 0 else "", label, _short(names, d["owner"]),
                         ", ".join(here) or "-", " ".join(sites) or "-", _income(b, d, a)))
    return rows


def _show_seas(con, game, v, names):
    """The seas worth mentioning (fleets, prosperity, cornucopias, creatures); how many others."""
    b, areas = game.board, v["areas"]
    seas = [a for a in b.seas if areas[a]["fleets"] or areas[a]["prosperity"] or b.cornucopias[a]
            or areas[a]["creatures"]]
    if seas:
        rows = []
        for a in seas:
            d = areas[a]
            fleets = str(d["fleets"] or "-") + "".join(f", {card_name(c)}" for c in d["creatures"])
            rows.append((area_name(game, a), _short(names, d["owner"]), fleets, _income(b, d, a)))
        _columns(con, (_("Sea area"), _("Owner"), _("Fleets"), _("Income")), rows)
    others = len(b.seas) - len(seas)
    if others:
        con.print("[dim]" + ngettext("{n} other sea area is empty.", "{n} other sea areas are empty.", others)
                  .format(n=others) + "[/dim]")


def _show_tracks(con, game, v, names):
    """The creature track (costs, reservations) and the hero track."""
    creatures = []
    for c in v["creature_track"]:
        if c["card"]:
            text = card_name(c["card"]) + " " + _("{n} GP").format(n=c["cost"])
            if c["reserved_by"] is not None:
                text += " " + _("(reserved by {name})").format(name=_short(names, c["reserved_by"]))
            creatures.append(text)
    con.print(_("Creature track: {cards}").format(cards=", ".join(creatures) or _("empty")))
    if game.rules.heroes:
        con.print(_("Hero track: {cards}").format(
            cards=", ".join(card_name(h) for h in v["hero_track"] if h) or _("empty")))


def _columns(con, headers, rows):
    widths = [max(len(str(r[i])) for r in list(rows) + [headers]) for i in range(len(headers))]

    def line(r):
        return "  ".join(str(x).ljust(w) for x, w in zip(r, widths)).rstrip()
    con.print(line(headers), style="bold", markup=False)
    con.print("\n".join(line(r) for r in rows), markup=False)


def _income(b, d, a) -> str:
    """An area's income: its cornucopias, + its prosperity tokens (and Geryon's GP)."""
    base, extra = b.cornucopias[a], d["prosperity"]
    if d.get("geryon_gp"):
        extra += d["geryon_gp"]
    if not base and not extra:
        return "-"
    return f"{base}+{extra}" if extra else str(base)
