"""The `cyclades` command: play in a terminal, simulate random games, replay a record, show a board.

    cyclades play --players 3 --seed 7          # you at seat 1 against random bots
    cyclades play --players 2                   # you run the two factions of one team (R22)
    cyclades simulate --games 200 --players 3,4,5 --json stats.json
    cyclades simulate --games 200 --players 2,4t,6 --team-goal 3
    cyclades replay game.json --upto 120
    cyclades board --players 4 --teams --board recommended
    cyclades simulate --ruleset classic --games 100 --players 2,3,4,5
    cyclades simulate --games 100 --players 4 --teams --team-goal 4 --agents greedy
    cyclades tournament --agents greedy,random --players 4 --teams   # agents/cli.py
    cyclades bench --quick                      # benchmarks/engine_speed.py of the repository
    cyclades selfplay --games 100 --out sp/     # training data: NPZ shards (docs/selfplay.md)

Every tool takes the same mode options (agents/match.py checks them; a wrong one is a usage
error naming the option, and nothing is played): --ruleset legendary|classic, --players 2..6
(classic 2..5), --teams (4 players; 2 and 6 always play in teams, R22), --team-goal 3|4 (team
play only). Games between agents are played by the one loop of agents/match.py.

A module per command: play.py (with news.py, prompt.py and position.py, what the terminal game
shows), simulate.py (with modes.py and stats.py), replay.py, board.py, bench.py, selfplay.py (training
data for learned players: it reads env/'s observation encoder, so it is of this layer, not the
agents'); options.py and terminal.py hold what several commands share. `serve` lives with the
server (server/cli.py), `tournament` and `ladder` with the agents (agents/cli.py).
"""
from __future__ import annotations

import click

import cyclades

from . import bench, board, play, replay, selfplay, simulate, train
from .stats import play_out  # noqa: F401  (games between agents, for tools and tests)

# The map of the tool in `cyclades --help`: every command in this order, what it is for, and
# an example (a command not listed, added since, shows its own short help).
COMMANDS = (
    ("play", "play a game in the terminal against bots", "cyclades play --players 4 --bots greedy"),
    ("serve", "the browser game: lobby, board, bots or friends",
     "cyclades serve        # then open http://127.0.0.1:8000/"),
    ("simulate", "many games between bots: speed, lengths, endings",
     "cyclades simulate --games 200 --players 3,4t,6"),
    ("tournament", "bots against each other, seats rotated: win rates",
     "cyclades tournament --agents mcts,greedy,random --games 30"),
    ("ladder", "bot levels ranked against each other", "cyclades ladder --help"),
    ("selfplay", "games between bots written as training data (NPZ shards)",
     "cyclades selfplay --agents greedy,greedy,random --games 20 --out sp/"),
    ("train", "a value network from self-play shards (needs torch)",
     "cyclades train sp/ --out value.npz"),
    ("replay", "a saved game's log, in the rulebook's words", "cyclades replay game.json"),
    ("board", "the areas of a board (for scenarios)", "cyclades board --players 4 --teams"),
    ("bench", "engine speed next to catanatron", "cyclades bench --quick"),
)


class _Tool(click.Group):
    """The top-level group: its help is the map of the tool (COMMANDS)."""

    def list_commands(self, ctx):
        order = [c[0] for c in COMMANDS]
        return sorted(super().list_commands(ctx), key=lambda n: (order.index(n) if n in order else 99, n))

    def format_commands(self, ctx, formatter):
        known = {c[0]: c for c in COMMANDS}
        rows, examples = [], []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is None or cmd.hidden:
                continue
            rows.append((name, known[name][1] if name in known else cmd.get_short_help_str(limit=60)))
            if name in known:
                examples.append(known[name][2])
        with formatter.section("Commands (cyclades COMMAND --help for their options)"):
            formatter.write_dl(rows, col_spacing=2)
        with formatter.section("Examples"):
            for line in examples:
                formatter.write(" " * formatter.current_indent + line + "\n")


@click.group(cls=_Tool, epilog="""\b
Editions (--ruleset of play, simulate, tournament and board):
  legendary  the Legendary Edition with its Maelström module, 2 to 6 players (default)
  classic    the 2009 edition: 2 to 5 players, its own board, no teams
\b
Players and teams (--players, --teams, --team-goal):
  3, 5       each for themselves
  4          each for themselves, or with --teams two teams of two
  6          always three teams of two
  2          always two teams: each person runs the two factions of a team
  --team-goal 4  a team needs 4 Metropolises instead of 3
  Team mates share one purse and win together; simulate calls 4 in teams "4t".
\b
Bots (--bots of play, --agents of simulate, tournament and ladder): the levels
beginner, casual, strong, expert (weakest to strongest; expert about 1 s a decision
on 2 cores), or the agents random, greedy (a heuristic player), careless (greedy
with mistakes), mcts (a tree search: about 10 s a game at its default budget;
"mcts:iterations=30" is quicker, "mcts:workers=2" searches on 2 processes).""")
@click.version_option(cyclades.__version__, prog_name="cyclades")
def main():
    """Cyclades, the board game: play it in a terminal or a browser, against bots or friends;
    let bots play each other; replay saved games."""


def _add_commands():
    """The commands of this package; `serve`, which lives with the server; `tournament` (and
    `ladder`, where this version has it), which live with the agents."""
    from cyclades.agents import cli as agents_cli
    from cyclades.server.cli import serve
    for command in (play.play, serve, simulate.simulate, agents_cli.tournament, replay.replay,
                    board.board, bench.bench, selfplay.selfplay, train.train):
        main.add_command(command)
    if isinstance(getattr(agents_cli, "ladder", None), click.Command):
        main.add_command(agents_cli.ladder)


_add_commands()
