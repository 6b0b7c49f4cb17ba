"""Bot levels a person understands: beginner, casual, strong, expert.

A level is a name for an agent and its budget, chosen in the lobby (GET /api/bots lists the
levels first, with their labels) and on the command line like any agent
(`--agents expert,casual`, options after a colon as for the agent it stands for:
`expert:workers=1`):

| level    | agent                                   | plays                                         |
|----------|-----------------------------------------|-----------------------------------------------|
| beginner | careless:mistakes=0.3                   | the heuristic player, a random move 3 times in 10 |
| casual   | greedy:surplus=16                       | the heuristic player (greedy.py), GP past 16 worth nothing more |
| strong   | mcts:iterations=100                     | information-set MCTS, 100 iterations a decision |
| expert   | mcts:iterations=500,workers=2           | MCTS searched by 2 processes in parallel, 500 iterations each |

Budgets are iterations, not seconds, so a level plays the same on a loaded machine as on a
quiet one (only slower) and tournaments between levels do not depend on the load. Each level
beats the one below head to head (one of it against two of the level below, 3 players, par 33%):
casual 87% of 90 games against beginner, strong 65% of 60 against casual, expert 52% of 60
against strong (at 2 x 150 iterations the expert was at par: 35%).
README "Bot levels" gives the figures, the time per decision and the ladder (agents/ladder.py).

`careless` (defined here): the greedy player, but with probability `mistakes` it plays a
uniformly random legal action instead: a bot a newcomer can beat.

This module holds the levels as data; registry.py makes each level's agent by name
(`make_agent("expert")`), and lists `careless` with the other agents.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..content.i18n import N_, _
from .base import Agent, parse_agent_spec
from .greedy import GreedyAgent


@dataclass(frozen=True)
class Level:
    name: str
    label: str       # for people (the lobby)
    spec: str        # the agent and its budget, as make_agent reads it
    about: str       # one line: how it plays


LEVELS = {
    "beginner": Level("beginner", N_("Beginner"), "careless:mistakes=0.3",
                      N_("plays the heuristic's move, but a random one 3 times in 10")),
    # surplus=16: counting every GP at its face, greedy hoards (40 GP unspent at the end); with GP
    # past 16 worth nothing it spends them and wins 52% against two of the former casual
    # (greedy:apollo=0), par 33% (docs/learned-player.md)
    "casual": Level("casual", N_("Casual"), "greedy:surplus=16",
                    N_("the heuristic player: sensible moves, no look-ahead search")),
    "strong": Level("strong", N_("Strong"), "mcts:iterations=100",
                    N_("searches 100 sampled futures per decision (MCTS)")),
    "expert": Level("expert", N_("Expert"), "mcts:iterations=500,workers=2",
                    N_("searches 2 x 500 sampled futures per decision on 2 processes (about 1 s)")),
}

ORDER = ["beginner", "casual", "strong", "expert"]  # weakest first


def level_names() -> list:
    return list(ORDER)


def resolve(name: str) -> str:
    """The agent spec a level (or any agent spec) stands for: "expert" ->
    "mcts:iterations=500,workers=2"; "expert:workers=1" -> "mcts:iterations=500,workers=1";
    another agent's spec is returned as it is."""
    base, opts = parse_agent_spec(name)
    if base not in LEVELS:
        return name
    agent, merged = parse_agent_spec(LEVELS[base].spec)
    merged.update(opts)
    if not merged:
        return agent
    return agent + ":" + ",".join(f"{k}={v}" for k, v in merged.items())


def titles() -> dict:
    """Each level's name for people in the current language, weakest first ("Beginner")."""
    return {name: _(LEVELS[name].label) for name in ORDER}


def labels(names) -> dict:
    """Human-readable labels of the agents a seat may have (`names`, registry.agent_names()):
    levels by their label and how they play, the other agents by name (in the current language)."""
    out = {}
    for name in ORDER:
        lv = LEVELS[name]
        out[name] = _("{level}: {how}").format(level=_(lv.label), how=_(lv.about))
    for name in names:
        out.setdefault(name, {"random": _("random moves (agent: random)"),
                              "greedy": _("heuristic player (agent: greedy)"),
                              "mcts": _("tree search, 100 iterations (agent: mcts)"),
                              "careless": _("heuristic player with mistakes (agent: careless)")
                              }.get(name) or _("agent: {name}").format(name=name))
    return out


class CarelessAgent(Agent):
    """The greedy player that makes mistakes: with probability `mistakes` (0 to 1) a decision
    with a real choice is a uniformly random legal action, else greedy's. Its own generator:
    the same seed and the same positions give the same choices."""

    name = "careless"

    def __init__(self, seed=None, mistakes=0.3):
        super().__init__(seed)
        mistakes = float(mistakes)
        if not 0.0 <= mistakes <= 1.0:
            raise ValueError(f"careless: mistakes is a probability from 0 to 1, not {mistakes}")
        self.mistakes = mistakes
        self.rng = random.Random(seed)
        self.greedy = GreedyAgent(seed=None if seed is None else f"careless/{seed}")

    def choose(self, obs):
        legal = obs.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over or waits on someone else")
        options = [a for a in legal if a.kind != "cancel"] or legal
        if len(options) == 1:
            return options[0]
        if self.rng.random() < self.mistakes:
            return options[self.rng.randrange(len(options))]
        return self.greedy.choose(obs)
