"""What the commands share: the options of the game's mode (--ruleset, --board, --team-goal)
and their checks, the agent lists of --bots and --agents, and the seed of each seat's agent.

A wrong mode is a usage error naming the option (agents/match.check_mode): nothing is played.
"""
from __future__ import annotations

import click

from cyclades.agents.cli import _check_agents
from cyclades.agents.match import Mode, ModeError, check_mode
from cyclades.content.rulesets import RULESETS

BOARDS = ("random", "recommended")
# R1: legendary (the default) or classic, the 2009 edition (2 to 5 players, its own board, R8).
RULESET_OPTION = click.option("--ruleset", type=click.Choice(tuple(RULESETS)), default="legendary",
                              show_default=True,
                              help="Rules: legendary, or classic (the 2009 edition, 2 to 5 players, "
                                   "on its own board; --board and team play do not apply).")


def _speak(ctx, param, value):
    """--lang: the command speaks that language from now on (content/i18n.py)."""
    from cyclades.content.i18n import LANGUAGES, PSEUDO, language
    if value is not None and value not in LANGUAGES and value != PSEUDO:
        raise click.BadParameter(f"{value!r}: one of {', '.join(LANGUAGES)}")
    ctx.with_resource(language(value))  # until the command ends
    return value


LANG_OPTION = click.option("--lang", default=None, expose_value=False, is_eager=True, callback=_speak,
                           help="The language of the game: en or fr (default: English).")
TEAM_GOAL_OPTION = click.option(
    "--team-goal", type=click.IntRange(3, 4), default=None,
    help="Metropolises a team needs to win in team play: 3 (the default) or 4 (R21).")


def agent_list(value, param_name) -> list:
    """The agent specs of a comma-separated option (--bots, --agents: "greedy,mcts:iterations=50,c=0.3"),
    checked as tournaments check theirs (agents/cli.py): known, their options taken."""
    return _check_agents(value, option=param_name)


def team_play(players, teams, ruleset="legendary", team_goal=None) -> bool:
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
        raise click.BadParameter(str(e), param_hint=e.option) from None


def seat_seed(seed: int, seat: int) -> int:
    """The seed of the agent at a seat in a game of seed `seed`: its own stream per seat."""
    return seed * 16 + seat
