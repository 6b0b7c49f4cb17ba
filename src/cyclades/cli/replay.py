"""`cyclades replay`: the log of a recorded game (the JSON of game.record()), cycle by cycle, in
the rulebook's words; then its result, and with --chances each player's chance to win after
every cycle (agents/advice.py)."""
from __future__ import annotations

import json

import click

import cyclades
from cyclades.content.i18n import _
from cyclades.engine.log import Narrator, decision_sentence
from cyclades.engine.wording import illegal_text

from .options import LANG_OPTION
from .terminal import console, count, faction_names, mode_text, phase_name, show_result


def load_record(path) -> dict:
    """The game record in a file; a click error saying what is wrong with it."""
    try:
        with open(path) as fh:
            record = json.load(fh)
    except OSError as e:
        raise click.ClickException(f"cannot read {path}: {e.strerror or e}") from e
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise click.ClickException(f"{path} is not valid JSON: {e}") from None
    if not isinstance(record, dict) or not isinstance(record.get("options"), dict) \
            or not isinstance(record.get("actions"), list):
        raise click.ClickException(f"{path} is not a game record: expected an object with "
                                   f"'options' and a list of 'actions' (the format of game.record())")
    return record


@click.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--upto", type=click.IntRange(min=0), default=None, help="Stop after this many decisions.")
@click.option("--full-log", is_flag=True, help="Show every event, even those that repeat another.")
@click.option("--chances", is_flag=True,
              help="Then each player's estimated chance to win at the end of every cycle: a table "
                   "and a small chart (agents/advice.py).")
@LANG_OPTION
def replay(file, upto, full_log, chances=False):
    """Print the log of a recorded game (the JSON of game.record()), cycle by cycle."""
    record = load_record(file)
    con = console()
    game = _start(file, record)
    names = faction_names(game)
    narrator = Narrator(game, names, full=full_log)
    actions = record["actions"]
    stop = len(actions) if upto is None else min(upto, len(actions))
    con.print(_("Replay of {file}: {mode}, seed {seed}, {decisions}.").format(
        file=file, mode=mode_text(game), seed=record["options"].get("seed"), decisions=count(len(actions), "decision")),
        markup=False)
    if game.state.phase == "setup":
        con.print("\n[bold]" + _("Setup") + "[/bold]")
    else:  # a scenario's record starts in the middle of a cycle
        con.print("\n[bold]" + _("Cycle {n}").format(n=game.state.cycle) + "[/bold] "
                  + _("(from a scenario, {phase})").format(phase=phase_name(game.state.phase)))
    for i in range(stop):
        _replay_decision(con, file, game, narrator, names, i, actions[i])
    if stop < len(actions):
        con.print("\n" + _("Stopped after {n} of {total} decisions (cycle {cycle}, {phase}).").format(
            n=stop, total=len(actions), cycle=game.state.cycle, phase=phase_name(game.state.phase)))
    else:
        show_result(con, game, names)
    if chances:
        _print_chances(con, {**record, "actions": actions[:stop]}, names)


def _start(file, record):
    """The recorded game before its first decision."""
    try:
        return cyclades.Game.from_record(record, upto=0)
    except KeyError as e:
        raise click.ClickException(f"{file}: the record's options lack {e}") from e
    except Exception as e:
        raise click.ClickException(f"{file}: cannot set up the recorded game: {type(e).__name__}: {e}") from e


def _replay_decision(con, file, game, narrator, names, i, recorded):
    """Apply decision i of the record and print what it did; a click error if it cannot be."""
    try:
        action = cyclades.Action.from_json(recorded)
        p = game.to_move
        events = game.apply(action)
    except cyclades.IllegalAction as e:  # the engine's reason speaks of frames: say it for people
        raise click.ClickException(f"{file}: decision {i + 1} cannot be replayed: "
                                   f"{illegal_text(game, action, names)}.") from e
    except (ValueError, TypeError) as e:
        raise click.ClickException(f"{file}: decision {i + 1} cannot be replayed: {e}") from None
    if not events and decision_sentence(action, p, names):
        con.print("  " + decision_sentence(action, p, names), markup=False)
    for cycle, line in _lines_with_cycles(narrator, events):
        if cycle is not None:
            con.print("\n[bold]" + _("Cycle {n}").format(n=cycle) + "[/bold]")
        else:
            con.print("  " + line, markup=False)


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


def _print_chances(con, record, names):
    """--chances: each player's estimated chance to win after every cycle, a table and a chart."""
    from cyclades.agents.advice import chances, chances_lines
    con.print("")
    for line in chances_lines(chances(record, names)):
        con.print(line, markup=False)
