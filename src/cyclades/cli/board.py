"""`cyclades board`: the areas of a game's board, one line each: their ids (for scenarios),
names, kinds, islands, construction sites, cornucopias, Priestess icons and neighbours."""
from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.table import Table

import cyclades

from .options import BOARDS, RULESET_OPTION, team_play
from .terminal import mode_text

COLUMNS = ("#", "id", "name", "kind", "island", "sites", "cornucopias", "priestess", "neighbours")


@click.command()
@click.option("--players", type=click.IntRange(2, 6), default=3, show_default=True,
              help="2 to 6 (2 and 6 play in teams: R22).")
@click.option("--teams", is_flag=True, help="Team play: 4 players in 2 teams.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--board", type=click.Choice(BOARDS), default="random", show_default=True)
@RULESET_OPTION
def board(players, teams, seed, board, ruleset):
    """List the areas of a game's board: ids for scenarios, neighbours, sites, icons."""
    game = cyclades.new_game(players=players, seed=seed, board=board,
                             teams=team_play(players, teams, ruleset), ruleset=ruleset)
    board = game.rules.board or board  # the classic game has its own board (R8)
    b = game.board
    # Piped output is not cut to 80 columns: one line per area reads better in a file.
    con = Console(highlight=False, width=None if sys.stdout.isatty() else 200)
    tiles = sorted({t for t in b.tile if t})
    con.print(f"{len(b.ids)} areas: {len(b.lands)} land, {len(b.seas)} sea, {len(b.islands)} islands"
              + (f"; tiles {', '.join(map(str, tiles))}" if tiles else "")
              + f" ({board} board, {mode_text(game)}, seed {seed}).")
    t = Table(box=None, pad_edge=False, show_edge=False)
    for col in COLUMNS:
        t.add_column(col, overflow="fold")
    for a in range(len(b.ids)):
        t.add_row(*_area_row(b, a))
    con.print(t)


def _area_row(b, a) -> tuple:
    """An area's cells, in the order of COLUMNS; "-" where a sea has nothing to say."""
    land = b.is_land[a]
    kind = ("land" + (" (volcano)" if b.volcano[a] else "")) if land else "sea"
    return (str(a), b.ids[a], b.names[a], kind,
            str(b.island[a] + 1) if land else "-", _sites_text(b, a) if land else "-",
            str(b.cornucopias[a]), ("yes" if b.priestess[a] else "") if land else "-",
            ", ".join(b.ids[x] for x in b.adj[a]))


def _sites_text(b, a) -> str:
    """Construction sites; a classic isle's building spaces and its metropolis space (R8)."""
    if b.metro_site[a] < 0:
        return str(b.sites[a])
    return f"{b.sites[a] - 1} + metropolis"
