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

Every tool takes the same mode options (agents/match.py checks them; a wrong one is a usage
error naming the option, and nothing is played): --ruleset legendary|classic, --players 2..6
(classic 2..5), --teams (4 players; 2 and 6 always play in teams, R22), --team-goal 3|4 (team
play only). Games between agents are played by the one loop of agents/match.py.
"""
from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

import cyclades
from cyclades.agents import agent_names, make_agent
from cyclades.agents.base import parse_agent_spec
from cyclades.agents.estimate import forecast
from cyclades.agents.match import MAX_DECISIONS, Mode, ModeError, check_mode, decide, play_match  # noqa: F401
from cyclades.content.rulesets import RULESETS
from cyclades.engine.log import Narrator, area_name, at_area, card_name, decision_sentence, god_name
from cyclades.engine.wording import action_text, illegal_text, waiting_text
from cyclades.paths import game_record_path

BOARDS = ("random", "recommended")
# R1: legendary (the default) or classic, the 2009 edition (2 to 5 players, its own board, R8).
RULESET_OPTION = click.option("--ruleset", type=click.Choice(tuple(RULESETS)), default="legendary",
                              show_default=True,
                              help="Rules: legendary, or classic (the 2009 edition, 2 to 5 players, "
                                   "on its own board; --board and team play do not apply).")
# Simulation modes (R22): players, and whether they play in teams. 2 players each run the
# two factions of a team; 6 players always play in three teams; "4t" is 4 players in 2 teams.
MODES = {"2": (2, True), "3": (3, False), "4": (4, False), "4t": (4, True), "5": (5, False),
         "6": (6, True)}
TEAM_GOAL_OPTION = click.option(
    "--team-goal", type=click.IntRange(3, 4), default=None,
    help="Metropolises a team needs to win in team play: 3 (the default) or 4 (R21).")


def _console(width=None) -> Console:
    # Made per command, so that it writes to the stream in use (CliRunner swaps them).
    return Console(highlight=False, soft_wrap=True, width=width)


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
with mistakes), mcts (a tree search: about 25 s a game at its default budget;
"mcts:iterations=30" is quicker, "mcts:workers=2" searches on 2 processes).""")
@click.version_option(cyclades.__version__, prog_name="cyclades")
def main():
    """Cyclades, the board game: play it in a terminal or a browser, against bots or friends;
    let bots play each other; replay saved games."""


# --- option helpers --------------------------------------------------------------------

def _agent_list(value, param_name) -> list:
    names = [x.strip() for x in str(value).split(",") if x.strip()]
    known = agent_names()
    if not names:
        raise click.BadParameter("give at least one agent name", param_hint=param_name)
    for n in names:
        if parse_agent_spec(n)[0] not in known:  # "mcts:iterations=50" names mcts
            raise click.BadParameter(f"unknown agent {n!r}; known agents: {', '.join(known)}",
                                     param_hint=param_name)
    return names


def _modes(values) -> list:
    """The simulation modes asked for, in order, each once: keys of MODES."""
    known = ", ".join(MODES)
    out = []
    for v in values:
        for part in str(v).split(","):
            part = part.strip().lower()
            if not part:
                continue
            if part not in MODES:
                raise click.BadParameter(_mode_error(part, known), param_hint="--players")
            if part not in out:
                out.append(part)
    if not out:
        raise click.BadParameter(f"give a mode: one of {known}", param_hint="--players")
    return out


def _mode_error(part, known) -> str:
    number = part[:-1] if part.endswith("t") else part
    try:
        n = int(number)
    except ValueError:
        return f"{part!r} is not a number of players; the modes are {known} (4t: 4 players in 2 teams)"
    if part.endswith("t") and 2 <= n <= 6:
        return (f"{part!r}: only 4 players choose team play (\"4t\"); 2 and 6 players always play in "
                f"teams (write \"2\" or \"6\"), 3 and 5 never; the modes are {known}")
    return f"{n} players: the game is for 2 to 6; the modes are {known} (4t: 4 players in 2 teams)"


def _team_play(players, teams, ruleset="legendary", team_goal=None) -> bool:
    """Whether a game of `players` plays in teams (R22): always with 2 and 6, on request with 4.
    The classic game has no teams: 2 to 5 players, two offerings each with 2 (R23). A wrong
    mode is a click error naming the option (agents/match.check_mode)."""
    return mode_of(players, teams, ruleset, team_goal).teams


def mode_of(players, teams=False, ruleset="legendary", team_goal=None) -> Mode:
    """The checked Mode of the options; `team_goal` None when the option was not given."""
    try:
        check_mode(players, teams, ruleset, team_goal or 3, team_goal_given=team_goal is not None)
        return Mode(players, teams, ruleset, team_goal or 3)
    except ModeError as e:
        raise click.BadParameter(str(e), param_hint=e.option)


def mode_text(game) -> str:
    """ "3 players", "4 players in 2 teams", "2 players, each running the two factions of a team"..."""
    players = game.options.get("players", game.s.n)
    if not game.teams:
        return f"{players} players"
    text = ("2 players, each running the two factions of a team" if players == 2
            else f"{players} players in {len(set(game.teams))} teams")
    return text + (f", {game.goal} Metropolises to win" if game.goal != 3 else "")


def faction_names(game, mine=()) -> list:
    """A name per faction: "Player N", or "Faction N" in the 2-player game, where each person
    runs two factions (R22); "(you)" after the human's."""
    word = "Faction" if game.options.get("players") == 2 and game.teams else "Player"
    return [f"{word} {p + 1}" + (" (you)" if p in mine else "") for p in range(game.s.n)]


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the agent at a seat in a game of seed `seed`: its own stream per seat."""
    return seed * 16 + seat


# --- play ----------------------------------------------------------------------------------

@main.command()
@click.option("--players", type=click.IntRange(2, 6), default=3, show_default=True,
              help="Number of players: 3 to 5; 4 with --teams; 6 (three teams); 2 (you run the two "
                   "factions of one team).")
@click.option("--teams", is_flag=True, help="Team play (R22): 4 players in 2 teams (2 and 6 always are).")
@TEAM_GOAL_OPTION
@click.option("--seed", type=int, default=None, help="Game seed (default: a random one, printed).")
@click.option("--seat", type=int, default=1, show_default=True,
              help="Your seat, 1..players (2 players: seat 1 runs factions 1 and 3, seat 2 factions 2 and 4).")
@click.option("--board", type=click.Choice(BOARDS), default="random", show_default=True)
@click.option("--bots", default="random", show_default=True,
              help="Agent for the other seats: one name, or a comma-separated list, one per bot "
                   "(random, greedy, mcts).")
@click.option("--save", type=click.Path(dir_okay=False), default=None,
              help="Write the game record (JSON) to this file (default: a file in the user data "
                   "folder, named when the game ends or you leave).")
@click.option("--max-cycles", type=click.IntRange(min=1), default=100, show_default=True,
              help="End the game after this many cycles (R21 tie-breaks decide).")
@click.option("--confirm-all", is_flag=True,
              help="Ask even when there is only one choice (by default it is taken and said).")
@click.option("--full-log", is_flag=True, help="Show every event, even those that repeat another.")
@RULESET_OPTION
def play(players, teams, team_goal, seed, seat, board, bots, save, max_cycles, confirm_all, full_log,
         ruleset):
    """Play a game in the terminal: you at one seat, bots at the others.

    Before each of your decisions you see what happened since your last one (the log, and
    the areas it touched), a status line and the numbered choices; `p` shows the whole
    position, `h` a hint, `q` leaves (the game is saved to be replayed). A decision with a
    single choice is taken for you and said, unless --confirm-all.

    In team play (R22) your team's purse is shared and shown to you; with 2 players you
    decide for both factions of your team, and each question says which one decides."""
    mode = mode_of(players, teams, ruleset, team_goal)
    teams, team_goal = mode.teams, mode.team_goal
    if not 1 <= seat <= players:
        raise click.BadParameter(f"{seat} is not a seat of a {players}-player game (1..{players})",
                                 param_hint="--seat")
    bot_names = _agent_list(bots, "--bots")
    if save:
        _save(save, None)  # fail now, not after a whole game, if the file cannot be written
    if seed is None:
        seed = random.randrange(2 ** 31)
    con = _console()
    game = cyclades.new_game(players=players, seed=seed, board=board, max_cycles=max_cycles,
                             teams=teams, team_goal=team_goal, ruleset=ruleset)
    board = game.r.board or board  # the classic game has its own board (R8)
    # The factions the human decides for: their seat's, or in the 2-player game their team's.
    mine = ([q for q in range(game.s.n) if game.teams[q] == seat - 1] if game.teams and players == 2
            else [seat - 1])
    names = faction_names(game, mine)
    bots_by_seat = {}
    for k, p in enumerate(q for q in range(game.s.n) if q not in mine):
        bots_by_seat[p] = make_agent(bot_names[k % len(bot_names)], seed=seat_seed(seed, p))
    narrator = Narrator(game, names, full=full_log)
    con.print(f"Cyclades, {mode_text(game)}, seed {seed}, {board} board. {_you_are(game, mine, names)}",
              markup=False)
    con.print(KEYS_TEXT, markup=False)
    stdin = sys.stdin
    news = News()
    shown = False
    last_status = None
    quit_reason = None
    while not game.is_over:
        p = game.to_move
        if p not in mine:
            action, _ = decide(bots_by_seat[p], game, p)  # the loop's one decision step (match.py)
            news.add(_narrate(narrator, game, action, names))
            continue
        if not shown:  # the board once, at the first decision; later on `p`
            show_position(con, game, p, names)
            shown = True
        news.show(con, game, names, mine)
        legal = game.legal_actions()
        who = faction_names(game)[p] if len(mine) > 1 else None
        if len(legal) == 1 and not confirm_all:
            con.print(f"  Only one choice{' for ' + who if who else ''}, taken: "
                      f"{action_text(legal[0], game, names)}.", markup=False)
            news.add(_narrate(narrator, game, legal[0], names), own=True)
            continue
        status = status_line(game, p, names, mine)
        if status != last_status:
            con.print()
            con.print(status, style="bold", markup=False)
            last_status = status
        choice = _ask(con, stdin, game, p, names, legal, who=who)
        if choice in ("quit", "eof"):
            quit_reason = choice
            break
        news.add(_narrate(narrator, game, legal[choice], names), own=True)
    news.show(con, game, names, mine, areas=False)
    path = _save(save or game_record_path(seed), game)
    if quit_reason == "quit":
        con.print(f"You leave the game in cycle {game.s.cycle}. The game so far is saved in {path}: "
                  f"`cyclades replay {path}` shows it.", markup=False)
        return
    if quit_reason == "eof":
        con.print(f"Input ended before the game did: the game is abandoned. The game so far is saved "
                  f"in {path}: `cyclades replay {path}` shows it.", markup=False)
        sys.exit(1)
    show_result(con, game, names)
    con.print(f"The game record is saved in {path}: `cyclades replay {path}` shows it.", markup=False)


KEYS_TEXT = ("Type the number of a choice. Other keys: p shows the whole position, h a hint, "
             "? this help, q leaves the game (it is saved).")


def _you_are(game, mine, names) -> str:
    names = faction_names(game)  # without "(you)"
    if len(mine) > 1:
        return (f"You run {' and '.join(names[p] for p in mine)}: team {game.teams[mine[0]] + 1}, "
                f"one shared purse.")
    me = mine[0]
    if not game.teams:
        return f"You are {names[me]}."
    mates = " and ".join(names[q] for q in game.teammates(me))
    return f"You are {names[me]}, in team {game.teams[me] + 1} with {mates} (one shared purse)."


def _narrate(narrator, game, action, names) -> tuple:
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
        """`own`: the human's decision; its areas are not repeated (the choice just named them)."""
        lines, events = told
        self.lines.extend(lines)
        for e in () if own else events:
            for key in ("area", "origin", "destination", "areas"):
                v = e.get(key)
                for a in (v if isinstance(v, (list, tuple)) else [v]):
                    if isinstance(a, str) and a not in self.areas:
                        self.areas.append(a)

    def show(self, con, game, names, mine, areas=True):
        for line, times in _runs(self.lines):
            if times > 1:
                line = line[:-1] + f" ({'twice' if times == 2 else f'{times} times'})."
            con.print("  " + line, markup=False)
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
    b = game.board
    plain = faction_names(game)
    parts = []
    for aid in ids[:most]:
        a = b.index.get(aid)
        if a is None:
            continue
        d = v["areas"][a]
        owner = "you" if d["owner"] is not None and names[d["owner"]].endswith("(you)") else (
            plain[d["owner"]] if d["owner"] is not None and 0 <= d["owner"] < len(plain) else "nobody")
        things = [owner]
        if b.is_land[a]:
            things += _units(d["troops"], "Troop") + _units(d["mercs"], "mercenary Troop")
            things += [card_name(h) for h in d["heroes"]]
            things += [card_name(x) for x in d["buildings"] if x]
        else:
            things += _units(d["fleets"], "Fleet")
        things += [card_name(c) for c in d["creatures"]]
        if d["prosperity"]:
            things.append(_count(d["prosperity"], "Prosperity token"))
        parts.append(f"{area_name(game, a)}: {', '.join(things)}")
    more = f" · and {len(ids) - most} more (p: the whole position)" if len(ids) > most else ""
    return "  Now: " + " · ".join(parts) + more


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
    phase = "Placement" if v["phase"] == "setup" else v["phase"].title()
    god_text = f"your God: {god}" if god else ("no God yet" if v["phase"] == "offerings" else "no God")
    if v["phase"] == "setup":
        god_text = ""
    head = f"Cycle {v['cycle']} · {phase}" if v["cycle"] else phase
    return " · ".join(x for x in (head, f"{names[p]}: {purse}", god_text) if x)


def _save(path, game):
    """Check that `path` can be written (game None), or write the game's record there; the path."""
    path = Path(path)
    try:
        if game is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a" if game is None else "w") as fh:
            if game is not None:
                json.dump(game.record(), fh)
    except OSError as e:
        raise click.ClickException(f"cannot write {path}: {e.strerror or e}")
    return path


def _ask(con, stdin, game, me, names, legal, who=None):
    """The player's choice: an index into legal, "quit" or "eof". `who` names the deciding
    faction when the human runs more than one (the 2-player game)."""
    con.print(waiting_text(game, names, you=me) + ":", style="bold", markup=False)
    show_choices(con, game, legal, names)
    while True:
        whose = f"Your choice for {who}" if who else "Your choice"
        con.print(f"{whose} [1-{len(legal)}, p, h, ?, q]: ", end="", markup=False)
        line = stdin.readline()
        if not line:
            con.print()
            return "eof"
        text = line.strip().lower()
        if not stdin.isatty():
            con.print(text, markup=False)  # echo piped input: a transcript reads like a session
        if text in ("q", "quit", "exit"):
            return "quit"
        if text in ("p", "position"):
            show_position(con, game, me, names)
            show_choices(con, game, legal, names)
            continue
        if text in ("?", "help"):
            con.print(KEYS_TEXT, markup=False)
            continue
        if text in ("h", "hint"):
            con.print(hint_text(game, me, legal, names), markup=False)
            continue
        if not text:
            con.print(f"Type a number from 1 to {len(legal)}, or p, h, ?, q.")
            continue
        try:
            k = int(text)
        except ValueError:
            con.print(f"'{text}' is not a number. Type a number from 1 to {len(legal)}, or p, h, ?, q.",
                      markup=False)
            continue
        if not 1 <= k <= len(legal):
            con.print(f"{k} is not on the list. Type a number from 1 to {len(legal)}.")
            continue
        return k - 1


def hint_text(game, me, legal, names) -> str:
    """`h`: the advice of cyclades.agents.advice.hint(game, player), if this version has it."""
    try:
        from cyclades.agents.advice import hint
    except ImportError:
        return "Hints are not available in this version."
    try:
        h = hint(game, me)  # a search: it may take a few seconds
    except Exception as e:  # advice is a helper: its failure must not end the game
        return f"No hint this time ({type(e).__name__}: {e})."
    action = getattr(h, "action", None)
    reason = getattr(h, "reason", "") or ""
    if action not in legal:
        return f"Hint: {reason}" if reason else "No hint this time."
    text = f"Hint: {legal.index(action) + 1}. {action_text(action, game, names)}"
    return text + (f" ({reason})" if reason else "")


def _choice_parts(action, game):
    """(head, item) for laying many similar choices out in columns: ("Offer to Hera", "3 GP"),
    ("Place a Fleet", "in the Gulf of Panope"); head None for a choice that stands alone."""
    text = action_text(action, game)
    if action.kind == "bid":
        return f"Offer to {god_name(action.what)}{god_summary(game, action.what)}", f"{action.n} GP"
    if action.where and action.where in game.board.index:
        for tail in (at_area(game, action.where), area_name(game, action.where)):
            if text.endswith(" " + tail):
                return text[: -len(tail) - 1], tail
    if action.kind == "take":
        return "Take", text[len("Take "):]
    return None, text


def show_choices(con, game, legal, names):
    """The numbered choices in columns; a run of three or more with the same head ("Place a
    Fleet in") under it, so that 37 areas fit in a few lines."""
    width = (con.width or 80) - 4
    i = 0
    loose = []  # choices that stand alone, laid out together
    while i < len(legal):
        head, item = _choice_parts(legal[i], game)
        j = i + 1
        while head is not None and j < len(legal) and _choice_parts(legal[j], game)[0] == head:
            j += 1
        if head is None or j - i < 3:
            loose += [f"{k + 1:>3}. {_action_text(legal[k], game, names)}" for k in range(i, j)]
            i = j
            continue
        _grid(con, loose, width)
        loose = []
        items = [_choice_parts(legal[k], game)[1] for k in range(i, j)]
        words = {item.split(" ", 1)[0] for item in items}
        if len(words) == 1 and words <= {"on", "in"}:  # "Place a Control token on:" Naxos, Paros...
            head += " " + words.pop()
            items = [item.split(" ", 1)[1] for item in items]
        con.print(f"  {head}:", markup=False)
        _grid(con, [f"{k + 1:>3}. {item}" for k, item in zip(range(i, j), items)], width)
        i = j
    _grid(con, loose, width)


def _grid(con, cells, width):
    """Cells in as many columns as fit in `width`, filled row by row."""
    if not cells:
        return
    cell = max(len(c) for c in cells) + 2
    per_line = max(1, width // cell)
    for r in range(0, len(cells), per_line):
        con.print("  " + "".join(c.ljust(cell) for c in cells[r:r + per_line]).rstrip(), markup=False)


def god_summary(game, god) -> str:
    """ " (war: Troops, Fortresses and Land Moves)": what a God gives, for the Offerings."""
    from cyclades.content.descriptions import content
    key = game.r.name
    if key not in _GOD_SUMMARIES:
        try:
            gods = content(key)["gods"]
        except Exception:  # the words are a help: never a reason to stop
            gods = []
        _GOD_SUMMARIES[key] = {g["id"]: g["summary"].rstrip(".") for g in gods}
    text = _GOD_SUMMARIES[key].get(god)
    return f" ({text[:1].lower() + text[1:]})" if text else ""


_GOD_SUMMARIES = {}


def _action_text(action, game, names) -> str:
    """The action in words, its areas by their names; a player index also gets the player's name."""
    text = action_text(action, game, names)
    if action.kind == "apollo":
        text += god_summary(game, "apollo")
    if action.kind == "target_player" and not 0 <= action.n < len(names):
        text = str(action)
    return text


def _short(names, p) -> str:
    return names[p] if p is not None and 0 <= p < len(names) else "-"


def show_position(con, game, me, names):
    """A compact summary of what `me` may know (R24: game.view hides others' GP)."""
    v = game.view(me)
    b = game.board
    phase = "Placement" if v["phase"] == "setup" else v["phase"].title()
    con.print()
    con.rule(f"The position · Cycle {v['cycle']} · {phase} · as {names[me]} sees it")
    # Gods and offerings.
    gods = []
    for gd in v["gods"]:
        bid = gd["bid"]
        text = f"{god_name(gd['god'])}: " + (f"{_short(names, bid['player'])} {bid['amount']} GP" if bid
                                              else "no offering")
        gods.append(text if gd["face_up"] else f"[dim]{god_name(gd['god'])} (face down)[/dim]")
    apollo = ", ".join(_short(names, p) for p in v["apollo"]) or "no one"
    con.print("Gods: " + " | ".join(gods) + f" | Apollo: {apollo}")
    con.print("Turn order: " + ", ".join(_short(names, p) for p in v["turn_order"]))
    # Team play (R22): the teams, each with its one purse, shown to its members only (R24).
    if game.teams:
        parts = []
        plain = faction_names(game)
        for t, members in _teams(game):
            gp = v["players"][members[0]]["gp"]
            parts.append(f"Team {t + 1} ({', '.join(plain[q] for q in members)}"
                         + ("; yours" if me in members else "") + "): "
                         + ("? GP" if gp is None else f"{gp} GP"))
        con.print("Teams, each with a shared purse: " + " | ".join(parts), markup=False)
    # Players: public figures, and the GP of the viewer (and their team) only.
    for pl in v["players"]:
        p = pl["index"]
        if game.teams:
            gp = f"team {game.teams[p] + 1}"
        else:
            gp = "? GP" if pl["gp"] is None else f"{pl['gp']} GP"
        line = (f"{names[p]}: {gp}, {_count(pl['priestesses'], 'Priestess', 'Priestesses')}, "
                f"{_count(pl['philosophers'], 'Philosopher')}, "
                f"{_count(pl['metropolises'], 'Metropolis', 'Metropolises')}; in reserve "
                f"{_count(pl['troops_in_reserve'], 'Troop')}, {_count(pl['fleets_in_reserve'], 'Fleet')}")
        if pl["heroes"]:
            line += "; Heroes: " + ", ".join(card_name(h) for h in pl["heroes"])
        if pl["creatures"]:
            line += "; Creatures: " + ", ".join(card_name(c) for c in pl["creatures"])
        if pl["eliminated"]:
            line += " (eliminated)"
        con.print(line, markup=False)
    # Land areas by island, then the seas worth mentioning. Plain columns: this is
    # printed before every decision, and rich tables are slow to lay out.
    areas = v["areas"]
    rows = []
    for k, island in enumerate(b.islands):
        for j, a in enumerate(island):
            d = areas[a]
            units = _units(d["troops"], "Troop") + _units(d["mercs"], "merc")
            units += [card_name(h) for h in d["heroes"]] + [card_name(c) for c in d["creatures"]]
            sites = [card_name(x) if x else "·" for x in d["buildings"]]
            label = b.names[a] + (" (Priestess icon)" if b.priestess[a] else "")
            rows.append((str(k + 1) if j == 0 else "", label, _short(names, d["owner"]),
                         ", ".join(units) or "-", " ".join(sites) or "-", _income(b, d, a)))
    _columns(con, ("Island", "Land area", "Owner", "Units", "Buildings", "Income"), rows)
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
    # The tracks.
    creatures = []
    for c in v["creature_track"]:
        if c["card"]:
            text = f"{card_name(c['card'])} {c['cost']} GP"
            if c["reserved_by"] is not None:
                text += f" (reserved by {_short(names, c['reserved_by'])})"
            creatures.append(text)
    con.print("Creature track: " + (", ".join(creatures) or "empty"))
    if game.r.heroes:
        con.print("Hero track: " + (", ".join(card_name(h) for h in v["hero_track"] if h) or "empty"))


def _columns(con, headers, rows):
    widths = [max(len(str(r[i])) for r in list(rows) + [headers]) for i in range(len(headers))]

    def line(r):
        return "  ".join(str(x).ljust(w) for x, w in zip(r, widths)).rstrip()
    con.print(line(headers), style="bold", markup=False)
    con.print("\n".join(line(r) for r in rows), markup=False)


def _count(n, one, many=None) -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def _units(n, word):
    return [_count(n, word)] if n else []


def _income(b, d, a) -> str:
    base, extra = b.cornucopias[a], d["prosperity"]
    if d.get("geryon_gp"):
        extra += d["geryon_gp"]
    if not base and not extra:
        return "-"
    return f"{base}+{extra}" if extra else str(base)


def _teams(game) -> list:
    """(team, its factions) for each team, in team order."""
    return [(t, [q for q in range(len(game.teams)) if game.teams[q] == t]) for t in sorted(set(game.teams))]


def show_result(con, game, names):
    r = game.result()
    con.print()
    con.rule("The game is over" if r["over"] else "The game is not over")
    if game.teams:
        _show_team_result(con, game, names, r)
        return
    t = Table(box=None, pad_edge=False, show_edge=False)
    for col in ("Player", "Metropolises", "GP", ""):
        t.add_column(col)
    for p in range(len(r["gp"])):
        note = "winner" if p in r["winners"] else ("eliminated" if r["eliminated"][p] else "")
        t.add_row(names[p], str(r["metropolises"][p]), str(r["gp"][p]), note)
    con.print(t)
    winners = [names[p] for p in r["winners"]]
    after = f"after {_count(r['cycles'], 'cycle')}"
    how = " (the cycle limit was reached)" if r["cycle_limit"] else ""
    if not r["over"]:
        con.print(f"The record ends in cycle {r['cycles']}, phase {game.s.phase}: the game goes on.")
    elif len(winners) == 1:
        con.print(f"{winners[0]} wins {after}{how}.")
    elif winners:
        con.print(f"{' and '.join(winners)} share the victory {after}{how}.")
    else:
        con.print(f"No winner {after}{how}.")


def _show_team_result(con, game, names, r):
    """R21/R22: a team's Metropolises count together, its purse breaks a tie, the team wins."""
    t = Table(box=None, pad_edge=False, show_edge=False)
    for col in ("Team", "Players", "Metropolises", "GP", ""):
        t.add_column(col)
    won = []
    for team, members in _teams(game):
        metros = [r["metropolises"][q] for q in members]
        notes = ["winner"] if members[0] in r["winners"] else []
        notes += [f"{names[q]} eliminated" for q in members if r["eliminated"][q]]
        t.add_row(f"Team {team + 1}", ", ".join(names[q] for q in members),
                  f"{sum(metros)} ({' + '.join(map(str, metros))})", str(game.purse(members[0])),
                  "; ".join(notes))
        if members[0] in r["winners"]:
            plain = faction_names(game)
            won.append(f"Team {team + 1} ({' and '.join(plain[q] for q in members)})")
    con.print(t)
    after = f"after {_count(r['cycles'], 'cycle')}"
    how = " (the cycle limit was reached)" if r["cycle_limit"] else ""
    if not r["over"]:
        con.print(f"The record ends in cycle {r['cycles']}, phase {game.s.phase}: the game goes on.")
    elif len(won) == 1:
        con.print(f"{won[0]} wins {after}{how}.", markup=False)
    elif won:
        con.print(f"{' and '.join(won)} share the victory {after}{how}.", markup=False)
    else:
        con.print(f"No winner {after}{how}.")


# --- simulate --------------------------------------------------------------------------------

def play_out(mode, seed, agents, max_cycles, team_goal=3, ruleset="legendary") -> dict:
    """One game between agents, one agent per faction; its figures as a row (the loop is
    agents/match.play_match, the same as tournaments and the server's bots).

    In team play (R22) a side is a team: its Metropolises count together, its purse breaks
    ties, and its win is one win however many factions it has."""
    players, teams = MODES[mode]
    m = Mode(players, teams and RULESETS[ruleset].team_play, ruleset, team_goal)
    game = m.new_game(seed=seed, max_cycles=max_cycles)
    n = game.s.n
    seats = [make_agent(agents[p % len(agents)], seed=seat_seed(seed, p)) for p in range(n)]
    out = play_match(game, seats)
    row = {"seed": seed, "mode": mode, "players": players, "factions": n,
           "teams": list(game.teams) if game.teams else None, "decisions": out["decisions"],
           "cycles": out["cycles"], "seconds": out["seconds"], "winners": out["winners"],
           "winning_teams": out["winning_sides"] if game.teams else None,
           "metropolises": out["metropolises"], "gp": out["gp"], "eliminated": out["eliminated"],
           "ending": None if "error" in out else out["ending"], "shared": out["shared"],
           "gp_tiebreak": out["gp_tiebreak"]}
    if game.teams:
        row["team_metropolises"] = out["side_metropolises"]
        row["team_gp"] = out["side_gp"]
    if "error" in out:
        row["error"] = out["error"]
    return row


def summarize(rows, seconds) -> dict:
    ok = [r for r in rows if "error" not in r]
    dec = [r["decisions"] for r in ok]
    cyc = [r["cycles"] for r in ok]
    n = len(rows)

    def count(key, value=True):
        return sum(1 for r in ok if r.get(key) == value)
    out = {
        "games": n,
        "seconds": round(seconds, 4),
        "games_per_second": round(n / seconds, 2) if seconds else None,
        "decisions_per_second": round(sum(r["decisions"] for r in rows) / seconds, 1) if seconds else None,
        "decisions_median": statistics.median(dec) if dec else None,
        "decisions_mean": round(statistics.fmean(dec), 2) if dec else None,
        "cycles_mean": round(statistics.fmean(cyc), 2) if cyc else None,
        "cycles_median": statistics.median(cyc) if cyc else None,
        "cycles_max": max(cyc) if cyc else None,
        "ended_by_metropolises": count("ending", "metropolises"),
        "ended_by_elimination": count("ending", "elimination"),
        "ended_by_cycle_limit": count("ending", "cycle_limit"),
        "ended_otherwise": count("ending", "other"),
        "shared_wins": count("shared"),
        "ties_broken_on_gp": count("gp_tiebreak"),
        "errors": n - len(ok),
    }
    if rows and rows[0].get("teams"):
        out["wins_by_team"] = team_wins(ok, rows[0]["teams"])
    return out


def team_wins(rows, layout) -> list:
    """How each team won: a win counts once per team (a shared win once for each sharer)."""
    out = []
    for t in sorted(set(layout)):
        won = [r for r in rows if t in r["winning_teams"]]
        out.append({"team": t, "factions": [q for q in range(len(layout)) if layout[q] == t],
                    "wins": len(won),
                    "by_metropolises": sum(r["ending"] == "metropolises" for r in won),
                    "by_elimination": sum(r["ending"] == "elimination" for r in won),
                    "by_cycle_limit": sum(r["ending"] == "cycle_limit" for r in won),
                    "otherwise": sum(r["ending"] == "other" for r in won),
                    "shared": sum(r["shared"] for r in won),
                    "on_gp": sum(r["gp_tiebreak"] for r in won)})
    return out


@main.command()
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="Games per mode.")
@click.option("--players", multiple=True, default=("3",), show_default=True,
              help='Modes: 2, 3, 4, 4t (4 players in 2 teams), 5, 6 (3 teams); 2 players run two '
                   'factions each (R22). Repeat the option or write "2,4t,6" to run each mode.')
@click.option("--teams", is_flag=True,
              help='Team play (R22): mode 4 becomes 4t, 4 players in 2 teams ("--players 4 --teams" '
                   'is "--players 4t"); 2 and 6 always play in teams.')
@TEAM_GOAL_OPTION
@click.option("--seed", type=int, default=0, show_default=True, help="Game i uses seed S+i.")
@click.option("--json", "json_file", type=click.Path(dir_okay=False), default=None,
              help="Write the figures and one row per game to this file.")
@click.option("--max-cycles", type=click.IntRange(min=1), default=100, show_default=True,
              help="The cycle-limit guard: a game still going after this many cycles ends (R21).")
@click.option("--agents", default="random", show_default=True,
              help="Agent names, comma-separated, dealt to the seats in turn.")
@RULESET_OPTION
def simulate(games, players, teams, team_goal, seed, json_file, max_cycles, agents, ruleset):
    """Play many games between agents and report speed, length and how they were won.

    Agents are dealt to the factions in turn (a 2-player game has four). In team play a
    team's win counts once, and a second table says how each team won."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    modes = _modes(players)
    rules = RULESETS[ruleset]
    if teams:
        if not rules.team_play:
            raise click.BadParameter(f"the {ruleset} game has no team play", param_hint="--teams")
        odd = [m for m in modes if m in ("3", "5")]
        if odd:
            raise click.BadParameter(f"team play is for 4 players ({odd[0]} given); 2 and 6 players "
                                     f"always play in teams", param_hint="--teams")
        modes = list(dict.fromkeys("4t" if m == "4" else m for m in modes))
    for mode in modes:
        if not rules.team_play and (mode == "4t" or MODES[mode][0] not in rules.players):
            raise click.BadParameter(f"the {ruleset} game has the modes 2, 3, 4 and 5, not {mode}",
                                     param_hint="--players")
    if team_goal is not None and not any(MODES[m][1] and rules.team_play for m in modes):
        raise click.BadParameter(
            f"--team-goal is for team play (modes 2, 4t and 6 of the legendary game), not for "
            f"{', '.join(mode_label(m, ruleset) for m in modes)}", param_hint="--team-goal")
    team_goal = team_goal or 3
    agent_list = _agent_list(agents, "--agents")
    # Piped output is not cut to 80 columns: a table of several modes reads better unwrapped.
    con = _console(None if sys.stdout.isatty() else 160)
    err = Console(stderr=True)
    runs = []
    # A search agent's game takes tens of seconds: say so before starting (agents/estimate.py).
    factions = {m: len(Mode(MODES[m][0], MODES[m][1] and rules.team_play, ruleset).layout) for m in modes}
    for m in modes:
        told = forecast(agent_list, factions[m], games)
        if told:
            err.print(told if len(modes) == 1 else f"{mode_label(m, ruleset)}: {told}", markup=False,
                      highlight=False, soft_wrap=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TextColumn("{task.fields[per_game]}"), console=err,
                  transient=True) as progress:
        for mode in modes:
            n, teams = MODES[mode]
            teams = teams and rules.team_play
            label = mode_label(mode, ruleset)
            task = progress.add_task(label, total=games, per_game="")
            rows = []
            t0 = time.perf_counter()
            for i in range(games):
                rows.append(play_out(mode, seed + i, agent_list, max_cycles, team_goal, ruleset))
                progress.update(task, advance=1,
                                per_game=_per_game(time.perf_counter() - t0, i + 1))
            elapsed = time.perf_counter() - t0
            runs.append({"mode": mode, "label": label, "players": n, "factions": rows[0]["factions"],
                         "teams": rows[0]["teams"],
                         "metropolises_to_win": team_goal if teams else rules.metropolises_to_win,
                         "summary": summarize(rows, elapsed), "games": rows})
    _print_summary(con, runs, max_cycles)
    _print_team_wins(con, runs)
    errors = [r for run in runs for r in run["games"] if "error" in r]
    for r in errors[:10]:
        con.print(f"Error in the game of seed {r['seed']} ({mode_label(r['mode'], ruleset)}) "
                  f"after {r['decisions']} decisions: {r['error']}", markup=False)
    if json_file:
        data = {"ruleset": ruleset, "seed": seed, "games": games, "max_cycles": max_cycles,
                "team_goal": team_goal,
                "agents": agent_list, "modes": modes,
                "agent_seeds": "faction k of the game of seed s uses seed s*16+k", "runs": runs}
        try:
            with open(json_file, "w") as fh:
                json.dump(data, fh, indent=1)
        except OSError as e:
            raise click.ClickException(f"cannot write {json_file}: {e.strerror or e}")
        con.print(f"Figures written to {json_file}.")
    if errors:
        sys.exit(1)


def _per_game(seconds, games) -> str:
    """ "0.4 s/game", "12 ms/game": the progress bars' time per game."""
    per = seconds / games
    return f"{per * 1000:.0f} ms/game" if per < 1 else f"{per:.1f} s/game"


MODE_LABELS = {"2": "2 players (4 factions)", "3": "3 players", "4": "4 players",
               "4t": "4 players, 2 teams", "5": "5 players", "6": "6 players, 3 teams"}


def mode_label(mode, ruleset="legendary") -> str:
    """A mode's column title; the classic 2-player game has no factions, but two offerings (R23)."""
    if mode == "2" and not RULESETS[ruleset].team_play:
        return "2 players (2 offerings each)"
    return MODE_LABELS[mode]


def _print_summary(con, runs, max_cycles):
    t = Table(title="Simulated games")
    t.add_column("")
    for run in runs:
        t.add_column(run["label"], justify="right")
    goals = {run["metropolises_to_win"] for run in runs}
    goal = f"{goals.pop()} Metropolises" if len(goals) == 1 else "the Metropolises to win (3, teams 4)"

    def pct(k, s):
        n = s[k]
        return f"{n} ({100 * n / s['games']:.0f}%)" if s["games"] else str(n)

    def fmt(x):
        return "-" if x is None else (f"{x:g}" if isinstance(x, float) else str(x))

    lines = [
        ("Games", lambda s: str(s["games"])),
        ("Games/s", lambda s: "-" if s["games_per_second"] is None else f"{s['games_per_second']:,.1f}"),
        ("Decisions/s", lambda s: "-" if s["decisions_per_second"] is None
         else f"{s['decisions_per_second']:,.0f}"),
        ("Decisions per game, median", lambda s: fmt(s["decisions_median"])),
        ("Decisions per game, mean", lambda s: fmt(s["decisions_mean"])),
        ("Cycles per game, mean", lambda s: fmt(s["cycles_mean"])),
        ("Cycles per game, median", lambda s: fmt(s["cycles_median"])),
        ("Cycles per game, max", lambda s: fmt(s["cycles_max"])),
        (f"Won by reaching {goal}", lambda s: pct("ended_by_metropolises", s)),
        ("Ended by an elimination", lambda s: pct("ended_by_elimination", s)),
        (f"Ended by the cycle limit ({max_cycles})", lambda s: pct("ended_by_cycle_limit", s)),
        ("Shared wins", lambda s: pct("shared_wins", s)),
        ("Ties broken on GP", lambda s: pct("ties_broken_on_gp", s)),
        ("Errors", lambda s: str(s["errors"])),
    ]
    if any(run["teams"] for run in runs):
        lines.insert(-3, ("Wins per team (a team's win counts once)",
                          lambda s: " / ".join(str(w["wins"]) for w in s["wins_by_team"])
                          if "wins_by_team" in s else "-"))
    for label, f in lines:
        t.add_row(label, *(f(run["summary"]) for run in runs))
    con.print(t)


def _print_team_wins(con, runs):
    """How each team won, per team mode: the factions of a team are one side (R22)."""
    team_runs = [run for run in runs if run["teams"]]
    if not team_runs:
        return
    t = Table(title="How the winning teams won")
    for col in ("Mode", "Team", "Factions", "Wins", "By Metropolises", "By elimination",
                "By cycle limit", "Shared", "On GP"):
        t.add_column(col, justify="left" if col in ("Mode", "Factions") else "right")
    for run in team_runs:
        for w in run["summary"]["wins_by_team"]:
            t.add_row(run["label"], str(w["team"] + 1), ", ".join(str(q + 1) for q in w["factions"]),
                      str(w["wins"]), str(w["by_metropolises"]), str(w["by_elimination"]),
                      str(w["by_cycle_limit"]), str(w["shared"]), str(w["on_gp"]))
    con.print(t)


# --- replay ----------------------------------------------------------------------------------

def load_record(path) -> dict:
    try:
        with open(path) as fh:
            record = json.load(fh)
    except OSError as e:
        raise click.ClickException(f"cannot read {path}: {e.strerror or e}")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise click.ClickException(f"{path} is not valid JSON: {e}")
    if not isinstance(record, dict) or not isinstance(record.get("options"), dict) \
            or not isinstance(record.get("actions"), list):
        raise click.ClickException(f"{path} is not a game record: expected an object with "
                                   f"'options' and a list of 'actions' (the format of game.record())")
    return record


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--upto", type=click.IntRange(min=0), default=None, help="Stop after this many decisions.")
@click.option("--full-log", is_flag=True, help="Show every event, even those that repeat another.")
@click.option("--chances", is_flag=True,
              help="Then each player's estimated chance to win at the end of every cycle: a table "
                   "and a small chart (agents/advice.py).")
def replay(file, upto, full_log, chances=False):
    """Print the log of a recorded game (the JSON of game.record()), cycle by cycle."""
    record = load_record(file)
    con = _console()
    try:
        game = cyclades.Game.from_record(record, upto=0)
    except KeyError as e:
        raise click.ClickException(f"{file}: the record's options lack {e}")
    except Exception as e:
        raise click.ClickException(f"{file}: cannot set up the recorded game: {type(e).__name__}: {e}")
    names = faction_names(game)
    narrator = Narrator(game, names, full=full_log)
    actions = record["actions"]
    stop = len(actions) if upto is None else min(upto, len(actions))
    con.print(f"Replay of {file}: {mode_text(game)}, seed {record['options'].get('seed')}, "
              f"{_count(len(actions), 'decision')}.", markup=False)
    if game.s.phase == "setup":
        con.print("\n[bold]Setup[/bold]")
    else:  # a scenario's record starts in the middle of a cycle
        con.print(f"\n[bold]Cycle {game.s.cycle}[/bold] (from a scenario, {game.s.phase})")
    for i in range(stop):
        try:
            action = cyclades.Action.from_json(actions[i])
            p = game.to_move
            events = game.apply(action)
        except cyclades.IllegalAction:  # the engine's reason speaks of frames: say it for people
            raise click.ClickException(f"{file}: decision {i + 1} cannot be replayed: "
                                       f"{illegal_text(game, action, names)}.")
        except (ValueError, TypeError) as e:
            raise click.ClickException(f"{file}: decision {i + 1} cannot be replayed: {e}")
        if not events and decision_sentence(action, p, names):
            con.print("  " + decision_sentence(action, p, names), markup=False)
        for e, line in _lines_with_cycles(narrator, events):
            if e is not None:
                con.print(f"\n[bold]Cycle {e}[/bold]")
            else:
                con.print("  " + line, markup=False)
    if stop < len(actions):
        con.print(f"\nStopped after {stop} of {len(actions)} decisions "
                  f"(cycle {game.s.cycle}, {game.s.phase}).")
    else:
        show_result(_console(), game, names)
    if chances:
        from cyclades.agents.advice import chances as win_chances, chances_lines
        con.print("")
        for line in chances_lines(win_chances({**record, "actions": actions[:stop]}, names)):
            con.print(line, markup=False)


def _lines_with_cycles(narrator, events):
    """Pairs (cycle number, None) for a cycle's start, else (None, sentence)."""
    start = 0
    for i, e in enumerate(events):
        if e.get("type") == "cycle":
            for line in narrator.lines(events[start:i]):
                yield None, line
            narrator.lines([e])
            yield e.get("cycle"), None
            start = i + 1
    for line in narrator.lines(events[start:]):
        yield None, line


# --- board -----------------------------------------------------------------------------------

@main.command()
@click.option("--players", type=click.IntRange(2, 6), default=3, show_default=True,
              help="2 to 6 (2 and 6 play in teams: R22).")
@click.option("--teams", is_flag=True, help="Team play: 4 players in 2 teams.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--board", type=click.Choice(BOARDS), default="random", show_default=True)
@RULESET_OPTION
def board(players, teams, seed, board, ruleset):
    """List the areas of a game's board: ids for scenarios, neighbours, sites, icons."""
    game = cyclades.new_game(players=players, seed=seed, board=board,
                             teams=_team_play(players, teams, ruleset), ruleset=ruleset)
    board = game.r.board or board  # the classic game has its own board (R8)
    b = game.board
    # Piped output is not cut to 80 columns: one line per area reads better in a file.
    con = Console(highlight=False, width=None if sys.stdout.isatty() else 200)
    tiles = sorted({t for t in b.tile if t})
    con.print(f"{len(b.ids)} areas: {len(b.lands)} land, {len(b.seas)} sea, {len(b.islands)} islands"
              + (f"; tiles {', '.join(map(str, tiles))}" if tiles else "")
              + f" ({board} board, {mode_text(game)}, seed {seed}).")
    t = Table(box=None, pad_edge=False, show_edge=False)
    for col in ("#", "id", "name", "kind", "island", "sites", "cornucopias", "priestess", "neighbours"):
        t.add_column(col, overflow="fold")
    for a in range(len(b.ids)):
        land = b.is_land[a]
        t.add_row(str(a), b.ids[a], b.names[a], ("land" + (" (volcano)" if b.volcano[a] else "")) if land else "sea",
                  str(b.island[a] + 1) if land else "-", _sites_text(b, a) if land else "-",
                  str(b.cornucopias[a]), ("yes" if b.priestess[a] else "") if land else "-",
                  ", ".join(b.ids[x] for x in b.adj[a]))
    con.print(t)


def _sites_text(b, a) -> str:
    """Construction sites; a classic isle's building spaces and its metropolis space (R8)."""
    if b.metro_site[a] < 0:
        return str(b.sites[a])
    return f"{b.sites[a] - 1} + metropolis"


# --- bench -----------------------------------------------------------------------------------

def bench_script():
    """benchmarks/engine_speed.py of the repository this package runs from, or None: it is
    part of the source repository (src/cyclades/ beside benchmarks/), not of the package."""
    path = Path(cyclades.__file__).resolve().parent.parent.parent / "benchmarks" / "engine_speed.py"
    return path if path.is_file() else None


@main.command(context_settings={"ignore_unknown_options": True})
@click.option("--quick", is_flag=True, help="A short run of a few seconds (what the CI guard runs).")
@click.option("--update-baseline", is_flag=True, help="Record the ratios in benchmarks/baseline.json.")
@click.argument("options", nargs=-1, type=click.UNPROCESSED, metavar="[BENCHMARK OPTIONS]...")
def bench(quick, update_baseline, options):
    """Engine speed against catanatron: runs benchmarks/engine_speed.py with this Python.

    Other options go to the benchmark as they are (`cyclades bench -h` lists them), e.g.
    `cyclades bench --games 20 --json out.json`."""
    script = bench_script()
    if script is None:
        raise click.ClickException(
            "benchmarks/engine_speed.py is not beside this installation of cyclades "
            f"({Path(cyclades.__file__).resolve().parent}): the benchmark is part of the source "
            "repository, not of the package. Clone the repository, install it from there with "
            "`pip install -e '.[bench]'` (the bench extra brings catanatron==3.2.1), then run "
            "`cyclades bench` or `python benchmarks/engine_speed.py`.")
    args = ([sys.executable, str(script)] + (["--quick"] if quick else [])
            + (["--update-baseline"] if update_baseline else []) + list(options))
    sys.stdout.flush()
    try:
        code = subprocess.call(args, cwd=script.parent.parent)
    except KeyboardInterrupt:
        code = 130
    if code:
        sys.exit(code)


def _add_server_command():
    """`cyclades serve` lives with the server."""
    from .server.cli import serve
    main.add_command(serve)


_add_server_command()


def _add_tournament_command():
    """`cyclades tournament` (and `cyclades ladder`, where this version has it) live with the agents."""
    from .agents import cli as agents_cli
    main.add_command(agents_cli.tournament)
    if isinstance(getattr(agents_cli, "ladder", None), click.Command):
        main.add_command(agents_cli.ladder)


_add_tournament_command()

if __name__ == "__main__":  # pragma: no cover
    main()
