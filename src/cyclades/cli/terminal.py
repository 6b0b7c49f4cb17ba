"""How the commands write to the terminal: the console, the names of the factions and of the
game's mode, counted words, and the result of a game (play and replay end with it)."""
from __future__ import annotations

from rich.console import Console
from rich.table import Table


def console(width=None) -> Console:
    """The console of a command. Made per command, so that it writes to the stream in use
    (CliRunner swaps them)."""
    return Console(highlight=False, soft_wrap=True, width=width)


def count(n, one, many=None) -> str:
    """ "1 Troop", "3 Troops", "2 Metropolises"."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def units(n, word) -> list:
    """[count(n, word)], or nothing when there are none."""
    return [count(n, word)] if n else []


def mode_text(game) -> str:
    """ "3 players", "4 players in 2 teams", "2 players, each running the two factions of a team"..."""
    players = game.options.get("players", game.state.n)
    if not game.teams:
        return f"{players} players"
    text = ("2 players, each running the two factions of a team" if players == 2
            else f"{players} players in {len(set(game.teams))} teams")
    return text + (f", {game.goal} Metropolises to win" if game.goal != 3 else "")


def faction_names(game, mine=()) -> list:
    """A name per faction: "Player N", or "Faction N" in the 2-player game, where each person
    runs two factions (R22); "(you)" after the human's."""
    word = "Faction" if game.options.get("players") == 2 and game.teams else "Player"
    return [f"{word} {p + 1}" + (" (you)" if p in mine else "") for p in range(game.state.n)]


def teams_of(game) -> list:
    """(team, its factions) for each team, in team order."""
    return [(t, [q for q in range(len(game.teams)) if game.teams[q] == t]) for t in sorted(set(game.teams))]


def show_result(con, game, names):
    """The end of a game: each player's (or team's) Metropolises and GP, and who won how."""
    r = game.result()
    con.print()
    con.rule("The game is over" if r["over"] else "The game is not over")
    winners = _show_team_table(con, game, names, r) if game.teams else _show_table(con, names, r)
    after = f"after {count(r['cycles'], 'cycle')}"
    how = " (the cycle limit was reached)" if r["cycle_limit"] else ""
    if not r["over"]:
        con.print(f"The record ends in cycle {r['cycles']}, phase {game.state.phase}: the game goes on.")
    elif len(winners) == 1:
        con.print(f"{winners[0]} wins {after}{how}.", markup=False)
    elif winners:
        con.print(f"{' and '.join(winners)} share the victory {after}{how}.", markup=False)
    else:
        con.print(f"No winner {after}{how}.")


def _show_table(con, names, r) -> list:
    """A row per player; the winners' names."""
    t = Table(box=None, pad_edge=False, show_edge=False)
    for col in ("Player", "Metropolises", "GP", ""):
        t.add_column(col)
    for p in range(len(r["gp"])):
        note = "winner" if p in r["winners"] else ("eliminated" if r["eliminated"][p] else "")
        t.add_row(names[p], str(r["metropolises"][p]), str(r["gp"][p]), note)
    con.print(t)
    return [names[p] for p in r["winners"]]


def _show_team_table(con, game, names, r) -> list:
    """R21/R22: a team's Metropolises count together, its purse breaks a tie, the team wins.
    A row per team; the winning teams' names."""
    t = Table(box=None, pad_edge=False, show_edge=False)
    for col in ("Team", "Players", "Metropolises", "GP", ""):
        t.add_column(col)
    won = []
    plain = faction_names(game)
    for team, members in teams_of(game):
        metros = [r["metropolises"][q] for q in members]
        notes = ["winner"] if members[0] in r["winners"] else []
        notes += [f"{names[q]} eliminated" for q in members if r["eliminated"][q]]
        t.add_row(f"Team {team + 1}", ", ".join(names[q] for q in members),
                  f"{sum(metros)} ({' + '.join(map(str, metros))})", str(game.purse(members[0])),
                  "; ".join(notes))
        if members[0] in r["winners"]:
            won.append(f"Team {team + 1} ({' and '.join(plain[q] for q in members)})")
    con.print(t)
    return won
