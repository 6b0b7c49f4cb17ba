"""Agents: anything that chooses one of the legal actions for a player.

The agents layer uses the engine and never the reverse. One small interface
for all of them: the game loop calls `agent.act(game, player)`, which hands the
agent only `game.observe(player)` (what that player knows, R24) and returns
`agent.choose(observation)`. A new agent is one class with a `choose` method,
registered by name with `@register("name")` so that the command line and
experiments can say `make_agent("greedy", seed=3)`.
"""
from __future__ import annotations

AGENTS: dict = {}


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


def register(name):
    """Class decorator: make an agent class available to `make_agent(name)`."""
    def deco(cls):
        AGENTS[name] = cls
        if getattr(cls, "name", "agent") == "agent":
            cls.name = name
        return cls
    return deco


def agent_names() -> list:
    """Every name make_agent knows: the levels first, weakest to strongest (beginner, casual,
    strong, expert: levels.py), then the agents themselves in alphabetical order."""
    _load_builtin()
    from .levels import ORDER
    return [n for n in ORDER if n in AGENTS] + sorted(n for n in AGENTS if n not in ORDER)


def agent_labels() -> dict:
    """A human-readable label for each name of agent_names() (the lobby shows them)."""
    _load_builtin()
    from .levels import labels
    return labels()


def make_agent(name: str, seed=None, **options) -> Agent:
    """A new agent by registry name (e.g. "random"), seeded for reproducibility.

    A name may carry options after a colon, e.g. "mcts:iterations=400" or "mcts:seconds=1"
    (`parse_agent_spec`); keyword options given here win over those of the name. A level
    ("beginner", "casual", "strong", "expert": levels.py) makes the agent it stands for, its
    options over the level's ("expert:workers=1")."""
    _load_builtin()
    base, opts = parse_agent_spec(name)
    opts.update(options)
    if base not in AGENTS:
        raise ValueError(f"unknown agent {base!r}; known: {', '.join(sorted(AGENTS))}")
    return AGENTS[base](seed=seed, **opts)


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


def _load_builtin():
    # Importing the modules registers their agents; then the levels, which name them.
    from . import greedy, levels, mcts, random_agent  # noqa: F401
    if "expert" not in AGENTS:
        levels.register_levels(AGENTS)
