"""CPU time per decision of bot levels (or any agents) at the same positions.

    .venv/bin/python benchmarks/level_time.py                          # expert and strong, 16 positions
    .venv/bin/python benchmarks/level_time.py --agents expert,mcts:iterations=900,workers=2,value=shipped --positions 24

The positions are decisions with a real choice taken from seeded games between greedy players
(Legendary, 3 players), spread over the game (from the first cycles to the last). For a search
that runs in worker processes (workers=2) the figure is the CPU time of its busiest worker (the
workers search at once, one a core, so that is what a decision costs); for one in this process,
the process's CPU time. CPU time, not wall-clock time, so the machine's load matters little.
Prints each agent's median, mean and longest milliseconds, and each agent's mean as a ratio of
the first's.
"""
from __future__ import annotations

import argparse
import statistics
import time

from arguments import at_least


def positions(count, seed=11):
    """Decisions with at least 3 options, at points spread over seeded greedy games."""
    from cyclades.agents import make_agent
    from cyclades.agents.match import Mode

    out, k = [], 0
    while len(out) < count:
        g = Mode(3, False, "legendary", 3).new_game(seed=seed + k)
        greedy = make_agent("greedy", seed=k)
        stop = 20 + (k * 53) % 260  # decisions into the game
        for _ in range(stop):
            if g.is_over:
                break
            g.apply(greedy.act(g, g.to_move))
        while not g.is_over and len([a for a in g.legal_actions() if a.kind != "cancel"]) < 3:
            g.apply(greedy.act(g, g.to_move))
        if not g.is_over:
            out.append(g)
        k += 1
    return out


def cpu_of_decision(agent, game) -> float:
    obs = game.observe(game.to_move)
    cpu = time.process_time()
    agent.choose(obs)
    own = time.process_time() - cpu
    workers = getattr(agent, "last_worker_cpu", None)
    return max(workers) if getattr(agent, "workers", 1) > 1 and workers else own


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", default="expert,strong",
                    help='agent specs, as for tournaments: "expert,mcts:iterations=900,value=shipped"')
    ap.add_argument("--positions", type=at_least(1), default=16)
    args = ap.parse_args()
    from cyclades.agents import make_agent
    from cyclades.agents.tournament import split_agents

    games = positions(args.positions)
    names = split_agents(args.agents)
    means = {}
    for name in names:
        agent = make_agent(name, seed=1)
        cpu_of_decision(agent, games[0])  # worker processes started, weights read
        ms = [1000 * cpu_of_decision(make_agent(name, seed=i), g) for i, g in enumerate(games)]
        means[name] = statistics.mean(ms)
        print(f"{name:>10}: median {statistics.median(ms):6.0f} ms, mean {means[name]:6.0f} ms, "
              f"longest {max(ms):6.0f} ms of CPU a decision ({len(ms)} positions)", flush=True)
    first = names[0]
    for name in names[1:]:
        print(f"{name} / {first}: {means[name] / means[first]:.2f} of the CPU time a decision")


if __name__ == "__main__":
    main()
