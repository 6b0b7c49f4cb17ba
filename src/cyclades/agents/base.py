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

import inspect
import math


class Agent:
    """Base class. Subclasses implement `choose(obs) -> Action`, one of `obs.legal_actions()`.

    `act(game, player)` is the entry point of game loops: it gives the agent the player's
    observation, never the game itself, so an agent cannot see hidden facts (R24)."""

    name = "agent"

    def __init__(self, seed=None):
        self.seed = seed

    def act(self, game, player):
        if game.to_move != player:
            raise ValueError(f"player_{player} is not to move ({who(game.to_move)} is)")
        return self.choose(game.observe(player))

    def choose(self, obs):
        raise NotImplementedError

    def options(self) -> dict:
        """The options this agent was made with that differ from their defaults: the keyword
        arguments of its `__init__` (seed aside), read back from its attributes of the same
        names (an option kept under another name is not shown)."""
        out = {}
        for cls in type(self).__mro__:
            init = cls.__dict__.get("__init__")
            if init is None:
                continue
            for name, param in inspect.signature(init).parameters.items():
                if name in ("self", "seed") or name in out or param.kind not in (param.POSITIONAL_OR_KEYWORD,
                                                                                 param.KEYWORD_ONLY):
                    continue
                if name in self.__dict__ and self.__dict__[name] != param.default:
                    out[name] = self.__dict__[name]
        return out

    def spec(self) -> str:
        """The agent as `make_agent` reads it: "mcts:iterations=400,workers=2"."""
        opts = self.options()
        return self.name + (":" + ",".join(f"{k}={v}" for k, v in opts.items()) if opts else "")

    def __repr__(self):
        """As it is made in Python: `MCTSAgent(seed=3, iterations=400, workers=2)`."""
        args = [f"seed={self.seed!r}"] + [f"{k}={v!r}" for k, v in self.options().items()]
        return f"{type(self).__name__}({', '.join(args)})"


def who(player) -> str:
    """A faction as the API's messages name it: "player_2" (0-based, as `game.to_move`), or
    "nobody" when the game waits on no faction."""
    return f"player_{player}" if isinstance(player, int) and player >= 0 else "nobody"


def parse_agent_spec(spec: str):
    """ "mcts:iterations=400,depth=30" -> ("mcts", {"iterations": 400, "depth": 30}).
    Options are separated by "," or ";" (use ";" inside a comma-separated agent list). An agent
    of the user's own code is named `module:Class`: "mybots:Cautious:risk=0.2" ->
    ("mybots:Cautious", {"risk": 0.2}): the part after the first colon is a class when it is a
    capitalised name, or when the module's name has a dot ("my.bots:make_bot")."""
    base, _, rest = str(spec).partition(":")
    head, _, tail = rest.partition(":")
    head = head.strip()
    if head.isidentifier() and (head[0].isupper() or "." in base):
        base, rest = f"{base.strip()}:{head}", tail
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


def number_option(agent, name, value, whole=False, least=0):
    """A number option of an agent's spec, checked: finite (NaN or inf would make a search that
    never ends or ranks nothing, a weight that ranks nothing), whole where it counts something,
    and at least `least`; ValueError naming the agent and the option otherwise."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    if not math.isfinite(number) or (whole and not number.is_integer()):
        raise ValueError(f"{agent} {name} must be a {'whole' if whole else 'finite'} number, not {value!r}")
    if number < least:
        raise ValueError(f"{agent} {name} must be {least} or more, not {value!r}")
    return int(number) if whole else number
