"""The one list of the agents `make_agent` knows, by name (as engine/plugins.py lists the
engine's modules).

Each agent module defines its class and registers nothing; AGENTS below names them, then the
levels of levels.py (`beginner` ... `expert`), each a factory of the agent it stands for. A
module that makes agents by name (the command line, tournaments, the server's bots) imports
this one; no agent module does, so the agents import no module that imports them back.
Adding an agent means adding it here. An agent of the user's own code needs no entry: it is
named `module:Class` (`load_agent_class`), or registered by name with `register`.
"""
from __future__ import annotations

import importlib
import inspect
import os
import sys

from . import levels
from .base import Agent, parse_agent_spec
from .greedy import GreedyAgent
from .levels import CarelessAgent
from .mcts import MCTSAgent
from .random_agent import RandomAgent

# The agents by name. Order kept from the registry this list replaced (import order).
AGENTS: dict = {
    "greedy": GreedyAgent,        # the heuristic player (greedy.py)
    "mcts": MCTSAgent,            # information-set MCTS over greedy rollouts (mcts.py)
    "random": RandomAgent,        # uniform over the legal actions (random_agent.py)
    "careless": CarelessAgent,    # greedy with random mistakes (levels.py)
}

# Agents named by their module, imported when first made, and not offered for a seat in the
# lobby (they need options). A trained MaskablePPO policy ("ppo:path=DIR") reads the RL
# observation vector, so it lives with the RL environments.
BY_MODULE = {
    "ppo": "cyclades.env.policy:PolicyAgent",
}


def register(name):
    """Class decorator for an agent defined outside this package (an experiment, a test):
    make it available to `make_agent(name)`."""
    def deco(cls):
        AGENTS[name] = cls
        if getattr(cls, "name", "agent") == "agent":
            cls.name = name
        return cls
    return deco


def _level_factory(level: levels.Level):
    def make(seed=None, **options):
        agent_name, opts = parse_agent_spec(level.spec)
        opts.update(options)
        agent = make_agent(agent_name, seed=seed, **opts)
        agent.level = level.name  # type: ignore[attr-defined]  # (the level an agent was made at)
        return agent
    make.__name__ = f"level_{level.name}"
    make.__doc__ = f"The {level.name} level: {level.spec} ({level.about})."
    make.level = level  # type: ignore[attr-defined]
    return make


def register_levels():
    """Add (or renew, after levels.LEVELS changed) a factory for each level to AGENTS."""
    for name in levels.ORDER:
        AGENTS[name] = _level_factory(levels.LEVELS[name])


register_levels()


def agent_names() -> list:
    """Every name make_agent knows: the levels first, weakest to strongest (beginner, casual,
    strong, expert: levels.py), then the agents themselves in alphabetical order."""
    order = levels.ORDER
    return [n for n in order if n in AGENTS] + sorted(n for n in AGENTS if n not in order)


def agent_labels() -> dict:
    """A human-readable label for each name of agent_names() (the lobby shows them)."""
    return levels.labels(agent_names())


def make_agent(name: str, seed=None, **options) -> Agent:
    """A new agent by registry name (e.g. "random"), seeded for reproducibility.

    A name may carry options after a colon, e.g. "mcts:iterations=400" or "mcts:seconds=1"
    (`parse_agent_spec`); keyword options given here win over those of the name. A level
    ("beginner", "casual", "strong", "expert": levels.py) makes the agent it stands for, its
    options over the level's ("expert:workers=1"). `module:Class[:options]` makes an agent
    of the user's own code ("mybots:Cautious:risk=0.2": `Cautious(seed=seed, risk=0.2)` from
    the module mybots, `load_agent_class`)."""
    base, opts = parse_agent_spec(name)
    opts.update(options)
    maker = resolve_agent(base)
    known = option_names(maker)
    unknown = [k for k in opts if known is not None and k not in known]
    if unknown:
        raise ValueError(f"agent {base!r} has no option {unknown[0]!r}; its options: "
                         f"{', '.join(known or []) or 'none'}")
    return maker(seed=seed, **opts)


def option_names(maker) -> list | None:
    """The options an agent's class or factory takes besides its seed, from its signature; None
    where it takes any (a level passes them on to the agent it makes, which checks them)."""
    parameters = inspect.signature(maker).parameters.values()
    if any(p.kind is p.VAR_KEYWORD for p in parameters):
        return None
    return [p.name for p in parameters if p.name != "seed" and p.kind is not p.VAR_POSITIONAL]


def resolve_agent(base: str):
    """What makes the agent named `base` (no options): its class or factory in AGENTS, or the
    class of a `module:Class` name; a ValueError naming the known agents otherwise."""
    if base in AGENTS:
        return AGENTS[base]
    if base in BY_MODULE:
        return load_agent_class(BY_MODULE[base])
    if ":" in base:
        return load_agent_class(base)
    raise ValueError(f"unknown agent {base!r}; known: {', '.join(sorted([*AGENTS, *BY_MODULE]))}, "
                     f"or module:Class for an agent of your own")


def load_agent_class(path: str):
    """The class (or function `seed, **options -> Agent`) named by "module:Class". The module is
    imported as Python imports it, then, if it is not found, from the current directory (as
    `python -m` would: the `cyclades` command does not put it on the path)."""
    module_name, _, attr = path.partition(":")
    try:
        module = _import(module_name)
    except ImportError as e:
        raise ValueError(f"agent {path!r}: cannot import {module_name!r} ({e})") from None
    target = getattr(module, attr, None)
    if target is None:
        raise ValueError(f"agent {path!r}: {module_name} has no {attr!r}")
    if isinstance(target, type) and not issubclass(target, Agent):
        raise ValueError(f"agent {path!r}: {attr} is not a subclass of cyclades.agents.Agent")
    if not callable(target):
        raise ValueError(f"agent {path!r}: {attr} is neither an Agent class nor a function making one")
    return target


def _import(module_name):
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        here = os.getcwd()
        if e.name != module_name.partition(".")[0] or here in sys.path:
            raise
        sys.path.insert(0, here)
        return importlib.import_module(module_name)
