"""Team play (R22): who plays with whom, the shared purse, and what teammates may not do.

4 players may play 2 teams; 6 players play 3 teams; 2 players each run two factions of one team.
A team's GP are one purse, kept with its first member: `purse`, `pay` and `gain` are the only
ways in and out, for every game (without teams each faction is its own holder). Teammates pass
through each other's areas but never stop there, never fight each other, and may not start on
the same island; a purse is seen by its team only (R24).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..content.rulesets import Ruleset
    from .context import Context

TEAM_PURSE = 10  # R22: each team's GP at the start


def team_layout(players: int, teams: bool, ruleset: Ruleset | None = None) -> tuple[int, ...] | None:
    """Team of each faction (R22), or None: 2 players run two factions each. A ruleset without
    team play (classic) has one faction per player, 2 to 5 of them (R23: two markers at 2)."""
    if ruleset is not None and not ruleset.team_play:
        if teams:
            raise ValueError(f"the {ruleset.name} game has no team play")
        if players not in ruleset.players:
            raise ValueError(f"the {ruleset.name} game takes {ruleset.players[0]} to "
                             f"{ruleset.players[-1]} players, not {players}")
        return None
    if players == 2:
        return (0, 1, 0, 1)
    if players == 6:
        return (0, 1, 2, 0, 1, 2)
    if teams:
        if players != 4:
            raise ValueError("team play is for 4 or 6 players (and 2, each with two factions)")
        return (0, 1, 0, 1)
    if not 3 <= players <= 5:
        raise ValueError("Cyclades takes 2 to 6 players")
    return None


def share_purses(g: Context) -> None:
    """Each team's GP are shared: 10 GP to start, kept by its first member."""
    s = g.state
    for p in range(s.n):
        s.gp[p] = TEAM_PURSE if purse_holder(g, p) == p else 0


# --- the purse: the only ways in and out ------------------------------------------------------

def purse_holder(g: Context, p: int) -> int:
    """The faction that keeps p's GP: p, or the first member of p's team."""
    teams = g.teams
    return teams.index(teams[p]) if teams else p


def purse(g: Context, p: int) -> int:
    """The GP p may spend (a team's purse in team play)."""
    return g.state.gp[purse_holder(g, p)]


def gain(g: Context, p: int, n: int) -> None:
    if n:
        holder = purse_holder(g, p)
        g.state.gp[holder] += n
        g.emit("gp", player=holder, amount=n)


def pay(g: Context, p: int, n: int) -> None:
    if n:
        holder = purse_holder(g, p)
        if n > g.state.gp[holder]:
            raise AssertionError(f"player {p} cannot pay {n} GP")  # the legal list prevents it
        g.state.gp[holder] -= n


def sees_purse(g: Context, viewer: int | None, p: int) -> bool:
    """R24: a purse is hidden from other players; teammates share theirs."""
    return viewer is not None and friends(g, viewer, p)


# --- teammates ------------------------------------------------------------------------------------

def teammates(g: Context, p: int, include_self: bool = False) -> list[int]:
    teams = g.teams
    if not teams:
        return [p] if include_self else []
    return [q for q in range(len(teams)) if teams[q] == teams[p] and (include_self or q != p)]


def friends(g: Context, p: int, q: int) -> bool:
    """p and q are one faction or teammates (q may be -1, no one)."""
    return p == q or (g.teams is not None and q >= 0 and g.teams[p] == g.teams[q])


def may_attack(g: Context, p: int, q: int, area: int) -> bool:
    """Teammates never fight each other."""
    return not friends(g, p, q)


def may_stop(g: Context, p: int, area: int) -> bool:
    """A player may pass through a teammate's areas but never stop there."""
    q = g.state.ctrl[area]
    return q == p or not friends(g, p, q)


def allowed_start(g: Context, p: int, area: int, placement_round: int) -> bool:
    """Teammates may not start on the same island in the first placement round."""
    if not g.teams or placement_round != 1:
        return True
    b, ctrl = g.board, g.state.ctrl
    return not any(ctrl[a] == q for q in teammates(g, p) for a in b.islands[b.island[area]])

