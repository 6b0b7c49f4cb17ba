"""Players that are programs: `make_agent(name, seed)` makes one by name."""
from .base import AGENTS, Agent, agent_names, make_agent, register
from .random_agent import RandomAgent

__all__ = ["AGENTS", "Agent", "RandomAgent", "agent_names", "make_agent", "register"]
