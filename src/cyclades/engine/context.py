"""What the rules work on: the board, the ruleset, the state, the teams and the events.

Every rule function takes a `Context` as `g` and reads or changes `g.state` (plain data,
engine/state.py), asks `g.board` and `g.rules`, and announces what happened with `g.emit`. The
`Game` (engine/game.py) is a Context with the public face on top (creation, `legal_actions`,
`apply`, views, saving), so the rules receive the game itself, at no cost, while nothing below
the face depends on it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..content.rulesets import RULESETS

if TYPE_CHECKING:
    from typing import Self

    from ..content.rulesets import Ruleset
    from .actions import Action
    from .board import Board
    from .state import State

SEEDED = "seeded"      # chance resolved by the state's generator, inside `apply` (the default)
EXPLICIT = "explicit"  # the game waits on chance: the caller resolves it (engine/chance.py)


class Context:
    __slots__ = (
        "_legal",
        "board",
        "chance",
        "events",
        "goal",
        "max_cycles",
        "options",
        "rules",
        "state",
        "teams",
    )
    board: Board             # the board
    rules: Ruleset           # the ruleset (content/rulesets.py)
    state: State             # the state: plain data (engine/state.py)
    events: list[dict[str, Any]]  # the events of the decision being applied
    options: dict[str, Any]  # how the game was made (Game.record(): what replays it)
    max_cycles: int | None   # the cycle after which the game stops (R21 then decides)
    teams: tuple[int, ...] | None  # each faction's team (R22), or None
    goal: int                # the metropolises that end the game (R21; the team goal in team play)
    chance: str              # SEEDED or EXPLICIT
    _legal: list[Action] | None  # the legal actions of the position, computed once (engine/play.py)

    @classmethod
    def _blank(cls, board: Board, options: dict[str, Any]) -> Self:
        """A context with its board, ruleset and options, and no state yet (the caller sets it)."""
        g = cls.__new__(cls)
        g.board = board
        g.rules = RULESETS[options["ruleset"]]
        g.options = options
        g.max_cycles = options.get("max_cycles")
        team_of = options.get("teams")
        g.teams = tuple(team_of) if team_of else None
        g.goal = options.get("team_goal") or g.rules.metropolises_to_win
        g.chance = options.get("chance", SEEDED)
        g.events = []
        g._legal = None
        return g

    def emit(self, kind: str, **data: Any) -> None:
        """Record an event: a kind declared in engine/events.py with exactly its fields, areas
        already as board ids (`g.board.ids[a]`)."""
        data["type"] = kind
        self.events.append(data)
