"""The end of the game (R21): who reached the goal, and who wins.

Most metropolises win, then most GP, else the victory is shared. In team play (R22) a team's
metropolises and purse are counted together and the whole team wins, eliminated teammates
included. The classic game counts no metropolis past the goal: whoever reached it wins, ties on
GP.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .queries import metropolis_counts
from .teams import purse, teammates

if TYPE_CHECKING:
    from .context import Context


def counted_metropolises(g: Context, metropolises: int) -> int:
    """Metropolises as the winner is decided. Classic: whoever reached the goal wins, ties
    among them on GP, so a metropolis past the goal does not count."""
    return min(metropolises, g.goal) if g.rules.score_caps_at_goal else metropolises


def side_metropolises(g: Context, p: int, metros: list[int] | None = None) -> int:
    """Metropolises of p, or of p's team in team play."""
    if metros is None:
        metros = metropolis_counts(g)
    if not g.teams:
        return metros[p]
    return sum(metros[q] for q in teammates(g, p, include_self=True))


def goal_reached(g: Context) -> bool:
    """Someone (team play: a team) controls the metropolises needed to end the game."""
    s = g.state
    metros = metropolis_counts(g)
    return any(side_metropolises(g, p, metros) >= g.goal for p in range(s.n) if not s.eliminated[p])


def result(g: Context) -> dict[str, Any]:
    """Winners and per-player figures (`Game.result()`)."""
    s = g.state
    metros = metropolis_counts(g)
    alive = [p for p in range(s.n) if not s.eliminated[p]]
    score = {p: (counted_metropolises(g, side_metropolises(g, p, metros)), purse(g, p)) for p in alive}
    best = max(score.values(), default=(0, 0))
    winners = [p for p in alive if score[p] == best] if s.over else []
    if g.teams and s.over:  # the whole team wins, eliminated teammates included
        won = {g.teams[p] for p in winners}
        winners = [p for p in range(s.n) if g.teams[p] in won]
    out: dict[str, Any] = {
        "over": s.over, "winners": winners, "metropolises": metros,
        "gp": [purse(g, p) for p in range(s.n)],  # team play: each the team's purse
        "cycles": s.cycle, "cycle_limit": s.cycle_limit_hit, "eliminated": list(s.eliminated)}
    if g.teams:
        out["teams"] = list(g.teams)
    return out
