"""Players that are programs: `make_agent(name, seed)` makes one by name (registry.py lists
them all).

- `random`: uniform over the legal actions.
- `greedy`: a heuristic player (greedy.py), its position evaluation in evaluation.py.
- `mcts`: information-set Monte Carlo tree search over greedy rollouts (mcts.py); `workers=N`
  searches in N processes at once (root parallelization).
- `careless`: greedy with random mistakes (levels.py).
- Levels for people (levels.py): `beginner`, `casual`, `strong`, `expert`, each an agent and
  its budget; `cyclades ladder` (ladder.py) rates levels and agents with openskill.

Every agent gets only what its player knows: the game loop calls `agent.act(game, player)`,
which hands the agent `game.observe(player)` (R24); an agent implements `choose(obs)`.
`cyclades tournament` (tournament.py, cli.py) plays them against each other; every game loop
(simulate, tournaments, `play`'s bots, the server's bots) goes through match.py.
"""
from .base import Agent, parse_agent_spec
from .greedy import GreedyAgent, GreedyPolicy
from .mcts import MCTSAgent
from .random_agent import RandomAgent
from .registry import AGENTS, agent_labels, agent_names, make_agent, register

__all__ = [
           "AGENTS",
           "Agent",
           "GreedyAgent",
           "GreedyPolicy",
           "MCTSAgent",
           "RandomAgent",
           "agent_labels",
           "agent_names",
           "make_agent",
           "parse_agent_spec",
           "register",
]
