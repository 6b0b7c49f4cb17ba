"""The position in a terminal game as a player may know it (R24: game.view hides others' GP):
the whole of it (the `p` key, and once before the first decision), and the status line said
before each decision."""
from __future__ import annotations

from cyclades.engine.log import area_name, card_name, god_name

from .terminal import count, faction_names, teams_of, units


def status_line(game, p, names, mine) -> str:
    """ "Cycle 2 · Offerings · Player 1 (you): 7 GP · your offering: 3 GP to Zeus"."""
    v = game.view(p)
    gp = v["players"][p]["gp"]
    purse = f"team purse {gp} GP" if game.teams else f"{gp} GP"
    god = None
    for gd in v["gods"]:
        bid = gd["bid"]
        if bid and bid["player"] in mine:
            god = f"{god_name(gd['god'])} ({bid['amount']} GP)"
    if p in v["apollo"]:
        god = "Apollo"
    god_text = f"your God: {god}" if god else ("no God yet" if v["phase"] == "offerings" else "no God")
    if v["phase"] == "setup":
        god_text = ""
    head = f"Cycle {v['cycle']} · {_phase(v)}" if v["cycle"] else _phase(v)
    return " · ".join(x for x in (head, f"{names[p]}: {purse}", god_text) if x)


def show_position(con, game, me, names):
    """A compact summary of what `me` may know: Gods, teams, players, areas, tracks."""
    v = game.view(me)
    con.print()
    con.rule(f"The position · Cycle {v['cycle']} · {_phase(v)} · as {names[me]} sees it")
    _show_gods(con, v, names)
    if game.teams:
        con.print(_teams_line(game, v, me), markup=False)
    for pl in v["players"]:
        con.print(_player_line(game, pl, names), markup=False)
    # Plain columns, not rich tables: this is printed before every decision, and rich tables
    # are slow to lay out.
    _columns(con, ("Island", "Land area", "Owner", "Units", "Buildings", "Income"),
             _land_rows(game, v, names))
    _show_seas(con, game, v, names)
    _show_tracks(con, game, v, names)


def _phase(v) -> str:
    return "Placement" if v["phase"] == "setup" else v["phase"].title()


def _short(names, p) -> str:
    return names[p] if p is not None and 0 <= p < len(names) else "-"


def _show_gods(con, v, names):
    """The Gods and their offerings, Apollo's, and the turn order."""
    gods = []
    for gd in v["gods"]:
        bid = gd["bid"]
        text = f"{god_name(gd['god'])}: " + (f"{_short(names, bid['player'])} {bid['amount']} GP" if bid
                                              else "no offering")
        gods.append(text if gd["face_up"] else f"[dim]{god_name(gd['god'])} (face down)[/dim]")
    apollo = ", ".join(_short(names, p) for p in v["apollo"]) or "no one"
    con.print("Gods: " + " | ".join(gods) + f" | Apollo: {apollo}")
    con.print("Turn order: " + ", ".join(_short(names, p) for p in v["turn_order"]))


def _teams_line(game, v, me) -> str:
    """Team play (R22): the teams, each with its one purse, shown to its members only (R24)."""
    parts = []
    plain = faction_names(game)
    for t, members in teams_of(game):
        gp = v["players"][members[0]]["gp"]
        parts.append(f"Team {t + 1} ({', '.join(plain[q] for q in members)}"
                     + ("; yours" if me in members else "") + "): "
                     + ("? GP" if gp is None else f"{gp} GP"))
    return "Teams, each with a shared purse: " + " | ".join(parts)


def _player_line(game, pl, names) -> str:
    """A player's public figures, and their GP if the viewer may know it (their own, R24)."""
    p = pl["index"]
    if game.teams:
        gp = f"team {game.teams[p] + 1}"
    else:
        gp = "? GP" if pl["gp"] is None else f"{pl['gp']} GP"
    line = (f"{names[p]}: {gp}, {count(pl['priestesses'], 'Priestess', 'Priestesses')}, "
            f"{count(pl['philosophers'], 'Philosopher')}, "
            f"{count(pl['metropolises'], 'Metropolis', 'Metropolises')}; in reserve "
            f"{count(pl['troops_in_reserve'], 'Troop')}, {count(pl['fleets_in_reserve'], 'Fleet')}")
    if pl["heroes"]:
        line += "; Heroes: " + ", ".join(card_name(h) for h in pl["heroes"])
    if pl["creatures"]:
        line += "; Creatures: " + ", ".join(card_name(c) for c in pl["creatures"])
    if pl["eliminated"]:
        line += " (eliminated)"
    return line


def _land_rows(game, v, names) -> list:
    """A row per land area, island by island."""
    b = game.board
    rows = []
    for k, island in enumerate(b.islands):
        for j, a in enumerate(island):
            d = v["areas"][a]
            here = units(d["troops"], "Troop") + units(d["mercs"], "merc")
            here += [card_name(h) for h in d["heroes"]] + [card_name(c) for c in d["creatures"]]
            sites = [card_name(x) if x else "·" for x in d["buildings"]]
            label = b.names[a] + (" (Priestess icon)" if b.priestess[a] else "")
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
        _columns(con, ("Sea area", "Owner", "Fleets", "Income"), rows)
    others = len(b.seas) - len(seas)
    if others:
        con.print(f"[dim]{others} other sea areas are empty.[/dim]")


def _show_tracks(con, game, v, names):
    """The creature track (costs, reservations) and the hero track."""
    creatures = []
    for c in v["creature_track"]:
        if c["card"]:
            text = f"{card_name(c['card'])} {c['cost']} GP"
            if c["reserved_by"] is not None:
                text += f" (reserved by {_short(names, c['reserved_by'])})"
            creatures.append(text)
    con.print("Creature track: " + (", ".join(creatures) or "empty"))
    if game.rules.heroes:
        con.print("Hero track: " + (", ".join(card_name(h) for h in v["hero_track"] if h) or "empty"))


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
