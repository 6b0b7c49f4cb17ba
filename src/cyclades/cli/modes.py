"""The modes of `cyclades simulate --players` (R22): players, and whether they play in teams.

2 players each run the two factions of a team; 6 players always play in three teams; "4t" is
4 players in 2 teams. The classic game (R1) has the modes 2, 3, 4 and 5, without teams.
"""
from __future__ import annotations

import click

from cyclades.content.rulesets import RULESETS

MODES = {"2": (2, True), "3": (3, False), "4": (4, False), "4t": (4, True), "5": (5, False),
         "6": (6, True)}
MODE_LABELS = {"2": "2 players (4 factions)", "3": "3 players", "4": "4 players",
               "4t": "4 players, 2 teams", "5": "5 players", "6": "6 players, 3 teams"}


def mode_label(mode, ruleset="legendary") -> str:
    """A mode's column title; the classic 2-player game has no factions, but two offerings (R23)."""
    if mode == "2" and not RULESETS[ruleset].team_play:
        return "2 players (2 offerings each)"
    return MODE_LABELS[mode]


def simulation_modes(players, teams, ruleset, team_goal) -> list:
    """The modes of the options --players, --teams (4 becomes 4t), checked against the ruleset
    and --team-goal (None when not given): keys of MODES, in order, each once."""
    modes = parse_modes(players)
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
    return modes


def parse_modes(values) -> list:
    """The simulation modes asked for, in order, each once: keys of MODES."""
    known = ", ".join(MODES)
    out = []
    for v in values:
        for raw in str(v).split(","):
            part = raw.strip().lower()
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
    number = part.removesuffix("t")
    try:
        n = int(number)
    except ValueError:
        return f"{part!r} is not a number of players; the modes are {known} (4t: 4 players in 2 teams)"
    if part.endswith("t") and 2 <= n <= 6:
        return (f"{part!r}: only 4 players choose team play (\"4t\"); 2 and 6 players always play in "
                f"teams (write \"2\" or \"6\"), 3 and 5 never; the modes are {known}")
    return f"{n} players: the game is for 2 to 6; the modes are {known} (4t: 4 players in 2 teams)"
