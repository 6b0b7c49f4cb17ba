"""How the commands write to the terminal: the console, the names of the factions and of the
game's mode, counted words, and the result of a game (play and replay end with it)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table

from cyclades.content.i18n import _, listing, ngettext


def console(width=None) -> Console:
    """The console of a command. Made per command, so that it writes to the stream in use
    (CliRunner swaps them)."""
    return Console(highlight=False, soft_wrap=True, width=width)


def count(n, kind) -> str:
    """ "1 Troop", "3 Troops", "2 Metropolises": `n` pieces of `kind`, in the current language."""
    forms = {
        "troop": ngettext("{n} Troop", "{n} Troops", n),
        "merc": ngettext("{n} mercenary Troop", "{n} mercenary Troops", n),
        "fleet": ngettext("{n} Fleet", "{n} Fleets", n),
        "priestess": ngettext("{n} Priestess", "{n} Priestesses", n),
        "philosopher": ngettext("{n} Philosopher", "{n} Philosophers", n),
        "metropolis": ngettext("{n} Metropolis", "{n} Metropolises", n),
        "decision": ngettext("{n} decision", "{n} decisions", n),
        "prosperity": ngettext("{n} Prosperity token", "{n} Prosperity tokens", n),
    }
    return forms[kind].format(n=n)


def units(n, kind) -> list:
    """[count(n, kind)], or nothing when there are none."""
    return [count(n, kind)] if n else []


def mode_text(game) -> str:
    """ "3 players", "4 players in 2 teams", "2 players, each running the two factions of a team"..."""
    players = game.options.get("players", game.state.n)
    if not game.teams:
        return ngettext("{n} player", "{n} players", players).format(n=players)
    text = (_("2 players, each running the two factions of a team") if players == 2
            else _("{n} players in {k} teams").format(n=players, k=len(set(game.teams))))
    return text + (_(", {n} Metropolises to win").format(n=game.goal) if game.goal != 3 else "")


def faction_names(game, mine=()) -> list:
    """A name per faction: "Player N", or "Faction N" in the 2-player game, where each person
    runs two factions (R22); "(you)" after the human's."""
    two = game.options.get("players") == 2 and game.teams
    out = []
    for p in range(game.state.n):
        name = (_("Faction {n}") if two else _("Player {n}")).format(n=p + 1)
        out.append(_("{name} (you)").format(name=name) if p in mine else name)
    return out


def teams_of(game) -> list:
    """(team, its factions) for each team, in team order."""
    return [(t, [q for q in range(len(game.teams)) if game.teams[q] == t]) for t in sorted(set(game.teams))]


def show_result(con, game, names):
    """The end of a game: each player's (or team's) Metropolises and GP, and who won how."""
    r = game.result()
    con.print()
    con.rule(_("The game is over") if r["over"] else _("The game is not over"))
    winners = _show_team_table(con, game, names, r) if game.teams else _show_table(con, names, r)
    after = ngettext("after {n} cycle", "after {n} cycles", r["cycles"]).format(n=r["cycles"])
    if r["cycle_limit"]:
        after = _("{after} (the cycle limit was reached)").format(after=after)
    if not r["over"]:
        con.print(_("The record ends in cycle {n}, phase {phase}: the game goes on.").format(
            n=r["cycles"], phase=phase_name(game.state.phase)))
    elif len(winners) == 1:
        con.print(_("{name} wins {after}.").format(name=winners[0], after=after), markup=False)
    elif winners:
        con.print(_("{names} share the victory {after}.").format(names=listing(winners), after=after), markup=False)
    else:
        con.print(_("No winner {after}.").format(after=after))


def phase_name(phase: str) -> str:
    """A phase of the cycle as the rulebook names it."""
    return {"setup": _("Setup"), "offerings": _("Offerings"), "maintenance": _("Maintenance"),
            "actions": _("Actions"), "over": _("Game over")}.get(phase, phase)


def _show_table(con, names, r) -> list:
    """A row per player; the winners' names."""
    t = Table(box=None, pad_edge=False, show_edge=False)
    for col in (_("Player"), _("Metropolises"), _("GP"), ""):
        t.add_column(col)
    for p in range(len(r["gp"])):
        note = _("winner") if p in r["winners"] else (_("eliminated") if r["eliminated"][p] else "")
        t.add_row(names[p], str(r["metropolises"][p]), str(r["gp"][p]), note)
    con.print(t)
    return [names[p] for p in r["winners"]]


def _show_team_table(con, game, names, r) -> list:
    """R21/R22: a team's Metropolises count together, its purse breaks a tie, the team wins.
    A row per team; the winning teams' names."""
    t = Table(box=None, pad_edge=False, show_edge=False)
    for col in (_("Team"), _("Players"), _("Metropolises"), _("GP"), ""):
        t.add_column(col)
    won = []
    plain = faction_names(game)
    for team, members in teams_of(game):
        metros = [r["metropolises"][q] for q in members]
        notes = [_("winner")] if members[0] in r["winners"] else []
        notes += [_("{name} eliminated").format(name=names[q]) for q in members if r["eliminated"][q]]
        t.add_row(_("Team {n}").format(n=team + 1), ", ".join(names[q] for q in members),
                  f"{sum(metros)} ({' + '.join(map(str, metros))})", str(game.purse(members[0])),
                  "; ".join(notes))
        if members[0] in r["winners"]:
            won.append(_("Team {n} ({players})").format(n=team + 1, players=listing(plain[q] for q in members)))
    con.print(t)
    return won
