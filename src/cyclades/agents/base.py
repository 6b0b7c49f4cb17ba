"""Agents: anything that chooses one of `game.legal_actions()` for a player.

The agents layer uses the engine and never the reverse. Agents are made by
name through a registry, so that the command line and experiments can say
`make_agent("random", seed=3)`; new agents register themselves with
`@register("name")`.
"""
from __future__ import annotations

AGENTS: dict = {}


class Agent:
    """Base class: `act(game, player)` returns one of `game.legal_actions()`."""

    name = "agent"

    def act(self, game, player):
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} {self.name}>"


def register(name):
    """Class decorator: make an agent class available to `make_agent(name)`."""
    def deco(cls):
        AGENTS[name] = cls
        if getattr(cls, "name", "agent") == "agent":
            cls.name = name
        return cls
    return deco


def agent_names() -> list:
    _load_builtin()
    return sorted(AGENTS)


def make_agent(name: str, seed=None) -> Agent:
    """A new agent by registry name (e.g. "random"), seeded for reproducibility."""
    _load_builtin()
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}")
    return AGENTS[name](seed=seed)


def _load_builtin():
    # Importing the modules registers their agents.
    from . import random_agent  # noqa: F401
