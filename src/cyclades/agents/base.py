"""Agents: anything that chooses one of the legal actions for a player.

The agents layer uses the engine and never the reverse. One small interface
for all of them: the game loop calls `agent.act(game, player)`, which hands the
agent only `game.observe(player)` (what that player knows, R24) and returns
`agent.choose(observation)`. A new agent is one class with a `choose` method,
listed by name in registry.py so that the command line and experiments can say
`make_agent("greedy", seed=3)`. This module knows no agent: every agent module
imports it, and it imports none of them.
"""
from __future__ import annotations


class Agent:
    """Base class. Subclasses implement `choose(obs) -> Action`, one of `obs.legal_actions()`.

    `act(game, player)` is the entry point of game loops: it gives the agent the player's
    observation, never the game itself, so an agent cannot see hidden facts (R24)."""

    name = "agent"

    def __init__(self, seed=None):
        self.seed = seed

    def act(self, game, player):
        if game.to_move != player:
            raise ValueError(f"player {player} is not to move (player {game.to_move} is)")
        return self.choose(game.observe(player))

    def choose(self, obs):
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} {self.name}>"


def parse_agent_spec(spec: str):
    """ "mcts:iterations=400,depth=30" -> ("mcts", {"iterations": 400, "depth": 30}).
    Options are separated by "," or ";" (use ";" inside a comma-separated agent list)."""
    base, _, rest = str(spec).partition(":")
    opts = {}
    for part in rest.replace(";", ",").split(","):
        if not part.strip():
            continue
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"agent option {part!r} is not key=value (in {spec!r})")
        opts[key.strip()] = _number(value.strip())
    return base.strip(), opts


def _number(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
