"""What `POST /api/games` asks for, and what it makes of it: the engine's options, the seats
and their names (the route is in games.py). Every mistake is a Refused(422) that says what is
wrong and what would be right.
"""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr

from ..content.i18n import N_, _
from .errors import Refused

# The bot a seat gets when the request (or the lobby, which asks GET /api/bots) names none.
DEFAULT_BOT = "casual"  # a level (levels.py): the lobby shows it as "Casual", the heuristic player
# Seat kinds besides the bots' names: the creator's own seat, a friend's (by its
# invitation link; "human" is the older name), and a seat anyone may join from the lobby.
PEOPLE = {"you": "host", "invite": "invite", "human": "invite", "open": "open"}
RULESET_NAMES = {"legendary": "the Legendary Edition", "classic": "the classic (2009) game"}


class CreateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    players: StrictInt = Field(3, description="people: Legendary 2 to 6, classic 2 to 5")
    ruleset: StrictStr = Field("legendary", description='"legendary" or "classic" (the 2009 edition)')
    teams: StrictBool | None = Field(None, description="team play (R22): always with 2 and 6 players, "
                                                    "optional with 4 (default off), never otherwise")
    team_goal: StrictInt | None = Field(None, description="metropolises a team needs: 3 (default) or 4")
    maelstrom: StrictBool | None = Field(None, description="the Maelström module (Legendary only; "
                                                        "default on)")
    board: Literal["random", "recommended"] = "random"
    seed: StrictInt | None = Field(None, description="omit for a secret random seed; a chosen seed only "
                                                     "for a game without other people (\"you\" and bots)")
    seats: list[StrictStr] | None = Field(
        None, description='one per player: "you" (the creator), "invite" (a friend, by an '
                          'invitation link; "human" is the same), "open" (the first to join from '
                          f'the lobby) or a bot name; default: "you", then {DEFAULT_BOT} bots')
    names: list[StrictStr | None] | None = None
    max_cycles: StrictInt | None = Field(None, ge=1)
    speed: Literal["untimed", "live", "turn-based", "turn-based-72h"] = Field(
        "untimed", description='"live" (20 s a decision and a bank of 8 minutes), "turn-based" (a '
                               'day a decision and a bank of 3 days), "turn-based-72h" (three days '
                               'and 7 days), or "untimed"; when a seat\'s time runs out, a bot of '
                               'the game\'s bot level decides for it (server/clocks.py)')
    bot_delay: StrictInt | StrictFloat | None = Field(None, ge=0, le=10,
                                       description="seconds each bot of this game waits before a "
                                                   "decision (default: the server's --bot-delay)")


def setup_options(body: CreateBody) -> dict:
    """The engine options of a game to create, or Refused(422) with what is wrong."""
    ruleset, n = body.ruleset, body.players
    from ..content.rulesets import RULESETS
    if ruleset not in RULESETS:
        raise Refused(422, N_('unknown ruleset {ruleset}: "legendary" (the Legendary Edition) or "classic" '
                              '(the 2009 edition)'), ruleset=repr(ruleset))
    what = _ruleset_name(ruleset)
    r = RULESETS[ruleset]
    if not r.team_play:
        if n not in r.players:
            raise Refused(422, N_("{what} takes {least} to {most} players, not {n}"),
                what=what, least=r.players[0], most=r.players[-1], n=n)
        if body.teams:
            raise Refused(422, N_("{what} has no team play (teams: false)"), what=what)
        if body.team_goal is not None:
            raise Refused(422, N_("{what} has no team play, so no team goal"), what=what)
        if body.maelstrom:
            raise Refused(422, N_("the Maelström module is for the Legendary Edition, not the classic game"))
        teams, maelstrom = False, False
    else:
        teams = _teams(body, what)
        maelstrom = True if body.maelstrom is None else body.maelstrom
    options = {"players": n, "ruleset": ruleset, "seed": body.seed, "board": body.board,
               "maelstrom": maelstrom, "max_cycles": body.max_cycles}
    if teams:
        options.update(teams=True, team_goal=body.team_goal or 3)
    return options


def _teams(body: CreateBody, what: str) -> bool:
    """Whether a game of a ruleset with team play (the Legendary Edition) plays in teams (R22)."""
    n = body.players
    if not 2 <= n <= 6:
        raise Refused(422, N_("{what} takes 2 to 6 players, not {n}"), what=what, n=n)
    if n in (2, 6):
        if body.teams is False:
            raise Refused(422, N_("{n} players always play in teams (R22): each plays the two factions of a team")
                          if n == 2 else N_("{n} players always play in teams (R22): three teams of two"), n=n)
        teams = True
    elif n == 4:
        teams = bool(body.teams)
    else:
        if body.teams:
            raise Refused(422, N_("team play is for 4 players (2 and 6 always play in teams), not {n}"), n=n)
        teams = False
    if body.team_goal is not None:
        if not teams:
            raise Refused(422, N_("team_goal is for team play (2 or 6 players, or 4 with teams)"))
        if body.team_goal not in (3, 4):
            raise Refused(422, N_("the team goal is 3 or 4 metropolises, not {team_goal}"), team_goal=body.team_goal)
    return teams


def _ruleset_name(ruleset: str) -> str:
    return RULESET_NAMES.get(ruleset, f"the {ruleset} game")


def seat_kinds(body: CreateBody) -> list:
    """The kind of each seat: one of PEOPLE or a bot's name; default "you", then DEFAULT_BOT."""
    from ..agents import agent_names
    n = body.players
    seats = body.seats or ["you"] + [DEFAULT_BOT] * (n - 1)
    if len(seats) != n:
        raise Refused(422, N_("'seats' must list {n} seats, one per player; got {given}"),
            n=n, given=len(seats))
    known = list(PEOPLE) + agent_names()
    for k in seats:
        if k not in known:
            raise Refused(422, N_("unknown seat kind {kind}; known: {known}"), kind=repr(k), known=', '.join(known))
    if seats.count("you") > 1:
        raise Refused(422, N_("only one seat can be \"you\": invite the others by link "
                           "(\"invite\") or leave them open (\"open\")"))
    return seats


def check_seed(body: CreateBody, seats: list) -> None:
    """A chosen seed is refused in a game with other people ("invite" or "open" seats): the
    seed and the public decisions foretell every hidden fact (every purse, the next cards, the
    dice), so whoever chose it would know what the others cannot. A game against bots may
    have one (to play the same deal again); the record shows the seed once a game is over."""
    if body.seed is not None and any(PEOPLE.get(k) in ("invite", "open") for k in seats):
        raise Refused(422, N_("a chosen seed is only for a game without other people (\"you\" and "
                           "bots): with it one could foresee what the others hide. Leave 'seed' out "
                           "for a secret random one"))


def seat_names(body: CreateBody, seats: list) -> list:
    """A name for each seat: the one asked for (at most 40 characters), else "Player 2" for a
    person, "Greedy bot 2" for a bot (in the creator's language: the name is the seat's from then on)."""
    n = body.players
    names = list(body.names or [])
    if len(names) > n:
        raise Refused(422, N_("'names' lists more than {n} players"), n=n)
    names += [None] * (n - len(names))
    names = [(x or "").strip()[:40] or None for x in names]
    return [x or (_("Player {n}").format(n=i + 1) if seats[i] in PEOPLE else
                  _("{level} bot {n}").format(level=_bot_word(seats[i]), n=i + 1))
            for i, x in enumerate(names)]


def _bot_word(kind: str) -> str:
    """A bot's kind as its default name says it: a level's label ("Casual"), else the agent's name."""
    from ..agents.levels import LEVELS
    return _(LEVELS[kind].label) if kind in LEVELS else kind.title()


def seat_specs(seats: list, names: list) -> list:
    """The seats as Manager.create takes them: a person's seat with its access, or a bot's."""
    return [{"kind": "human" if k in PEOPLE else k, "access": PEOPLE.get(k), "name": x}
            for k, x in zip(seats, names)]
