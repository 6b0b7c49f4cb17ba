"""`cyclades play`: a game in the terminal, you at one seat and bots at the others.

Before each of your decisions the game tells what happened since your last one (news.py), a
status line and the numbered choices (prompt.py); `p` shows the whole position (position.py).
The record is saved when the game ends or you leave, to be replayed.
"""
from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import click

import cyclades
from cyclades.agents import make_agent
from cyclades.agents.match import decide
from cyclades.content.i18n import N_, _, listing
from cyclades.engine import undo
from cyclades.engine.log import Narrator
from cyclades.engine.wording import action_text
from cyclades.paths import game_record_path

from .news import News, narrate
from .options import BOARDS, LANG_OPTION, RULESET_OPTION, TEAM_GOAL_OPTION, agent_list, mode_of, seat_seed
from .position import show_position, status_line
from .prompt import ask, keys_text
from .terminal import console, faction_names, mode_text, show_result


@click.command()
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
@LANG_OPTION
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
    if not 1 <= seat <= players:
        raise click.BadParameter(f"{seat} is not a seat of a {players}-player game (1..{players})",
                                 param_hint="--seat")
    bot_names = agent_list(bots, "--bots")
    if save:
        _save(save, None)  # fail now, not after a whole game, if the file cannot be written
    if seed is None:
        seed = random.randrange(2 ** 31)
    con = console()
    game = cyclades.new_game(players=players, seed=seed, board=board, max_cycles=max_cycles,
                             teams=mode.teams, team_goal=mode.team_goal, ruleset=ruleset)
    board = game.rules.board or board  # the classic game has its own board (R8)
    mine = _my_factions(game, players, seat)
    names = faction_names(game, mine)
    con.print(_("Cyclades, {mode}, seed {seed}, {board} board.").format(mode=mode_text(game), seed=seed,
                                                                         board=_(BOARD_WORDS.get(board, board)))
              + " " + _you_are(game, mine), markup=False)
    con.print(keys_text(), markup=False)
    terminal_game = TerminalGame(con, game, names, mine, _bots(game, mine, bot_names, seed),
                                 Narrator(game, names, full=full_log), confirm_all)
    quit_reason = terminal_game.run()
    game = terminal_game.game  # a new game object after an undo
    terminal_game.news.show(con, game, names, mine, areas=False)
    _leave(con, game, names, _save(save or game_record_path(seed), game), quit_reason)


BOARD_WORDS = {"random": N_("random"), "recommended": N_("recommended"), "classic": N_("classic")}


def _my_factions(game, players, seat) -> list:
    """The factions the human decides for: their seat's, or in the 2-player game their team's."""
    if game.teams and players == 2:
        return [q for q in range(game.state.n) if game.teams[q] == seat - 1]
    return [seat - 1]


def _bots(game, mine, bot_names, seed) -> dict:
    """faction -> its agent: the names dealt in turn to the factions the human does not run."""
    others = [q for q in range(game.state.n) if q not in mine]
    return {p: make_agent(bot_names[k % len(bot_names)], seed=seat_seed(seed, p))
            for k, p in enumerate(others)}


def _you_are(game, mine) -> str:
    names = faction_names(game)  # without "(you)"
    if len(mine) > 1:
        return _("You run {factions}: team {n}, one shared purse.").format(
            factions=listing(names[p] for p in mine), n=game.teams[mine[0]] + 1)
    me = mine[0]
    if not game.teams:
        return _("You are {name}.").format(name=names[me])
    mates = listing(names[q] for q in game.teammates(me))
    return _("You are {name}, in team {n} with {mates} (one shared purse).").format(
        name=names[me], n=game.teams[me] + 1, mates=mates)


class TerminalGame:
    """The game loop at the terminal: the bots' decisions told as news, the human's asked."""

    def __init__(self, con, game, names, mine, bots, narrator, confirm_all):
        self.con, self.game, self.names, self.mine = con, game, names, mine
        self.bots, self.narrator, self.confirm_all = bots, narrator, confirm_all
        self.news = News()
        self.shown = False  # the board is shown once, at the first decision; later on `p`
        self.last_status = None

    def run(self):
        """Play until the game is over (None) or the human leaves ("quit") or input ends ("eof")."""
        stdin = sys.stdin
        while not self.game.is_over:
            p = self.game.to_move
            if p not in self.mine:
                action, _events = decide(self.bots[p], self.game, p)  # the loop's one decision step (match.py)
                self.news.add(narrate(self.narrator, self.game, action, self.names))
                continue
            left = self._decide(p, stdin)
            if left:
                return left
        return None

    def _decide(self, p, stdin):
        """The human's decision for faction p, applied; "quit" or "eof" if none was made."""
        con, game, names = self.con, self.game, self.names
        if not self.shown:
            show_position(con, game, p, names)
            self.shown = True
        self.news.show(con, game, names, self.mine)
        legal = game.legal_actions()
        who = faction_names(game)[p] if len(self.mine) > 1 else None
        if len(legal) == 1 and not self.confirm_all:
            said = action_text(legal[0], game, names)
            con.print("  " + (_("Only one choice for {name}, taken: {action}.").format(name=who, action=said) if who
                              else _("Only one choice, taken: {action}.").format(action=said)), markup=False)
            action = legal[0]
        else:
            self._show_status(p)
            choice = ask(con, stdin, game, p, names, legal, who=who)
            if choice in ("quit", "eof"):
                return choice
            if choice == "undo":
                self._undo()
                return None
            action = legal[choice]
        self.news.add(narrate(self.narrator, game, action, names), own=True)
        return None

    def _undo(self):
        """Take back the human's last decision, if the undo rule allows it (engine/undo.py),
        else say why not."""
        lim = undo.undo_limit(self.game)
        if lim.steps < 1:
            self.con.print(undo.reason_text(lim, self.names), markup=False)
            return
        last = action_text(self.game.history[-1], self.game, self.names)
        self.game = undo.take_back(self.game)
        self.last_status = None
        self.con.print(_("Taken back: {action}.").format(action=last), markup=False)

    def _show_status(self, p):
        """The status line, when it has changed since it was last shown."""
        status = status_line(self.game, p, self.names, self.mine)
        if status != self.last_status:
            self.con.print()
            self.con.print(status, style="bold", markup=False)
            self.last_status = status


def _leave(con, game, names, path, quit_reason):
    """The last words: the result, or the game left unfinished; where the record is."""
    if quit_reason == "quit":
        con.print(_("You leave the game in cycle {n}. The game so far is saved in {path}: `cyclades replay {path}` "
                    "shows it.").format(n=game.state.cycle, path=path), markup=False)
        return
    if quit_reason == "eof":
        con.print(_("Input ended before the game did: the game is abandoned. The game so far is saved in {path}: "
                    "`cyclades replay {path}` shows it.").format(path=path), markup=False)
        sys.exit(1)
    show_result(con, game, names)
    con.print(_("The game record is saved in {path}: `cyclades replay {path}` shows it.").format(path=path),
              markup=False)


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
        raise click.ClickException(f"cannot write {path}: {e.strerror or e}") from e
    return path
