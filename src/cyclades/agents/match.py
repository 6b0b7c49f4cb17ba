"""One game loop for every tool: `cyclades simulate`, `cyclades tournament`, `cyclades play`'s bots
and the server's bots all go through here.

    from cyclades.agents.match import Mode, decide, play_match
    mode = Mode(players=4, teams=True, team_goal=4)            # checked: ModeError names the option
    game = mode.new_game(seed=7, max_cycles=100)
    out = play_match(game, [make_agent("greedy", seed=k) for k in range(game.state.n)])
    out["winning_sides"], out["ending"], out["side_metropolises"], out["side_gp"]

- `Mode`: a game's ruleset, players, team play and team goal, checked once (R1, R22, R23): the
  classic game has no teams and takes 2 to 5 players; Legendary takes 2 to 6, 2 and 6 always
  in teams (2 players run two factions each), 4 in teams on request; a team goal of 3 or 4
  Metropolises, only in team play. A `ModeError` says which option is wrong.
- `decide(agent, game, player)`: the one decision step: the agent chooses for the player to
  move (from that player's observation, R24), the choice is checked against the legal actions
  (`IllegalDecision` otherwise) and timed. The server's bot step calls it too.
- `play_match(game, agents)`: plays the game to its end between seated agents (one per
  faction), with one guard (`max_decisions`), the time each seat thought (on the clock and in
  CPU seconds: `cpu_seconds`), and `outcome(game)`.
- `outcome(game)`: who won and how, by side: a side is a team in team play (its factions win
  together, its Metropolises count together, its purse breaks ties; R21, R22), else a player.
  `ending` is "metropolises", "elimination", "cycle_limit", or "error" when the loop stopped.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from ..content.rulesets import RULESETS

MAX_DECISIONS = 200_000  # a guard: no real game comes near it
ENDINGS = ("metropolises", "elimination", "cycle_limit", "error")


class ModeError(ValueError):
    """A mode that cannot be played; `option` names the command-line option at fault."""

    def __init__(self, message, option):
        super().__init__(message)
        self.option = option


class IllegalDecision(RuntimeError):
    """An agent chose an action that is not among the legal actions."""


@dataclass(frozen=True)
class Mode:
    """What kind of game: ruleset, players, team play (R22) and the team goal (R21)."""

    players: int = 3
    teams: bool = False
    ruleset: str = "legendary"
    team_goal: int = 3

    def __post_init__(self):
        check_mode(self.players, self.teams, self.ruleset, self.team_goal)
        # 2 and 6 Legendary players always play in teams: say so in the mode itself.
        object.__setattr__(self, "teams", team_play(self.players, self.teams, self.ruleset))

    @property
    def rules(self):
        return RULESETS[self.ruleset]

    @property
    def goal(self) -> int:
        """Metropolises that end the game (R21): the team goal in team play."""
        return self.team_goal if self.teams else self.rules.metropolises_to_win

    @property
    def layout(self):
        """The side of each faction: its team in team play, else its own index."""
        from ..engine.game import team_layout
        teams = team_layout(self.players, self.teams, self.rules)
        return list(teams) if teams else list(range(self.players))

    @property
    def sides(self) -> int:
        return len(set(self.layout))

    @property
    def key(self) -> str:
        """simulate's name for the mode: "3", "4t" (4 players in 2 teams), "2", "6"."""
        return f"{self.players}t" if self.players == 4 and self.teams else str(self.players)

    def label(self) -> str:
        r = "" if self.ruleset == "legendary" else f"{self.ruleset}, "
        if self.players == 2 and self.teams:
            text = "2 players (4 factions, 2 teams)"
        elif self.players == 2 and self.rules.markers(2) > 1:
            text = "2 players (2 offerings each)"
        elif self.teams:
            text = f"{self.players} players, {self.sides} teams"
        else:
            text = f"{self.players} players"
        if self.teams and self.team_goal != 3:
            text += f", {self.team_goal} Metropolises to win"
        return r + text

    def new_game(self, seed=0, max_cycles=None, **options):
        import cyclades
        return cyclades.new_game(players=self.players, seed=seed, max_cycles=max_cycles,
                                 teams=self.teams, team_goal=self.team_goal, ruleset=self.ruleset,
                                 **options)


def check_mode(players, teams=False, ruleset="legendary", team_goal=3, team_goal_given=None):
    """Raise ModeError (naming the option) unless the mode can be played. `team_goal_given`:
    whether the goal was asked for explicitly (then it needs team play)."""
    if ruleset not in RULESETS:
        raise ModeError(f"unknown ruleset {ruleset!r}; the rulesets are {', '.join(RULESETS)}",
                        "--ruleset")
    rules = RULESETS[ruleset]
    if team_goal not in (3, 4):
        raise ModeError(f"a team needs 3 or 4 Metropolises to win, not {team_goal}", "--team-goal")
    if not rules.team_play:
        if teams:
            raise ModeError(f"the {ruleset} game has no team play", "--teams")
        if players not in rules.players:
            raise ModeError(f"the {ruleset} game takes {rules.players[0]} to {rules.players[-1]} "
                            f"players ({players} given)", "--players")
        if team_goal_given:
            raise ModeError(f"the {ruleset} game has no team play: it is won with "
                            f"{rules.metropolises_to_win} Metropolises", "--team-goal")
        return
    if not 2 <= players <= 6:
        raise ModeError(f"{players} players: the game is for 2 to 6", "--players")
    if teams and players not in (2, 4, 6):
        raise ModeError(f"team play is for 4 players ({players} given); 2 and 6 players "
                        f"always play in teams", "--teams")
    if team_goal_given and not (teams or players in (2, 6)):
        raise ModeError(f"--team-goal is for team play (2, 6, or 4 players with --teams); "
                        f"{players} players play alone and win with {rules.metropolises_to_win}",
                        "--team-goal")


def team_play(players, teams, ruleset="legendary") -> bool:
    """Whether the mode plays in teams (R22): always with 2 and 6 Legendary players, on request
    with 4; never in the classic game (its 2 players make two offerings each instead, R23)."""
    if not RULESETS[ruleset].team_play:
        return False
    return bool(teams) or players in (2, 6)


# --- one decision ------------------------------------------------------------------------------

def decide(agent, game, player=None):
    """(action, seconds): `agent`'s choice for `player` (the player to move), checked legal."""
    p = game.to_move if player is None else player
    t0 = time.perf_counter()
    action = agent.act(game, p)
    seconds = time.perf_counter() - t0
    if action not in game.legal_actions():
        raise IllegalDecision(f"{getattr(agent, 'name', agent)!s} chose {action!r} for player_{p}, "
                              f"which is not a legal action")
    return action, seconds


def cpu_seconds(agent, process_seconds) -> float:
    """The CPU time of the decision `agent` just made: this process's (`process_seconds`) and
    that of the processes it had search for it (`last_cpu_elsewhere`, a root-parallel search's).
    Budgets are compared in CPU: the clock also counts the wait for a core, and a search over
    two cores takes half the time of the same work on one."""
    return process_seconds + getattr(agent, "last_cpu_elsewhere", 0.0)


# --- one game ------------------------------------------------------------------------------------

def play_match(game, agents, max_decisions=MAX_DECISIONS, on_decision=None) -> dict:
    """Play `game` to its end, faction q's decisions by `agents[q]`; `outcome` with the loop's
    figures: decisions (and per seat), thinking seconds (clock and CPU) and the longest decision
    per seat, the game's seconds, and `error` (the game is kept as it was) if an agent or the
    engine failed or the guard of `max_decisions` fired. `on_decision(game, player, action,
    events)` sees each decision once applied."""
    n = game.state.n
    if len(agents) != n:
        raise ValueError(f"{len(agents)} agents for {n} factions")
    decisions = [0] * n
    thinking = [0.0] * n
    cpu = [0.0] * n
    longest = [0.0] * n
    total = 0
    error = None
    t0 = time.perf_counter()
    try:
        while not game.is_over:
            if total >= max_decisions:
                raise RuntimeError(f"no end after {max_decisions} decisions")
            p = game.to_move
            c0 = time.process_time()
            action, dt = decide(agents[p], game, p)
            cpu[p] += cpu_seconds(agents[p], time.process_time() - c0)
            events = game.apply(action)
            decisions[p] += 1
            thinking[p] += dt
            longest[p] = max(longest[p], dt)
            total += 1
            if on_decision is not None:
                on_decision(game, p, action, events)
    except Exception as e:  # an engine or agent bug: recorded, the caller's run goes on
        error = f"{type(e).__name__}: {e}"
    out = outcome(game, error)
    out.update(decisions=total, decisions_by_seat=decisions,
               thinking_by_seat=[round(x, 6) for x in thinking],
               cpu_by_seat=[round(x, 6) for x in cpu],
               longest_by_seat=[round(x, 6) for x in longest],
               seconds=round(time.perf_counter() - t0, 6))
    return out


def sides_of(game) -> list:
    """The side of each faction: its team in team play, else itself."""
    return list(game.teams) if game.teams else list(range(game.state.n))


def outcome(game, error=None) -> dict:
    """Who won and how (R21, R22): per faction and per side (team, or player)."""
    r = game.result()
    n = game.state.n
    sides = sides_of(game)
    count = len(set(sides))
    members = [[q for q in range(n) if sides[q] == t] for t in range(count)]
    out = {"winners": r["winners"], "sides": sides,
           "winning_sides": sorted({sides[p] for p in r["winners"]}),
           "metropolises": r["metropolises"], "gp": r["gp"], "eliminated": r["eliminated"],
           "cycles": r["cycles"],
           "side_metropolises": [sum(r["metropolises"][q] for q in m) for m in members],
           "side_gp": [game.purse(m[0]) for m in members],
           "goal": game.goal, "ending": "error", "shared": False, "gp_tiebreak": False}
    if error is not None or not r["over"]:
        out["error"] = error or "the game is not over"
        return out
    alive = [p for p in range(n) if not r["eliminated"][p]]
    # As the winner is decided (R21; classic: past the goal, ties go to GP).
    metros = {p: game.counted_metropolises(game.side_metropolises(p, r["metropolises"])) for p in alive}
    if r["cycle_limit"]:
        out["ending"] = "cycle_limit"
    elif any(m >= game.goal for m in metros.values()):
        out["ending"] = "metropolises"
    elif any(r["eliminated"]):
        out["ending"] = "elimination"
    else:  # not reached by the rules as written (R21); kept apart if it ever happens
        out["ending"] = "other"
    won = set(out["winning_sides"])
    out["shared"] = len(won) > 1
    top = max(metros.values(), default=0)
    contenders = {sides[p] for p in alive if metros[p] == top}
    out["gp_tiebreak"] = len(contenders) > 1 and len(won) < len(contenders)
    return out
