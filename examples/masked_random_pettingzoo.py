"""A masked random policy through the PettingZoo API, for full games; prints steps/s.

    PYTHONPATH=src python3 examples/masked_random_pettingzoo.py --games 20 --players 3

Each step is what a learning loop pays: `last()` (the agent's observation vector and
action mask, from its own view), a uniform choice among the legal slots, `step()`. The engine
alone (`game.legal_actions()` and `game.apply`, no observation: the figure `cyclades simulate`
reports as decisions/s) plays the same games, the two alternating game by game and timed in
CPU time over their decision loops, as benchmarks/env_speed.py does, so that a shared
machine's load falls on both alike; the script prints both rates and their ratio.

The legal slots are read as `mask.view(bool).nonzero()[0]`: numpy's `flatnonzero` on the int8
mask itself costs about fifteen times more (some 60 µs on its ~20,000 slots, more than a step
of the environment).
"""
import argparse
import random
import time

import numpy as np

import cyclades
from cyclades.env.pettingzoo import env as make_env


def pettingzoo_game(e, seed, rng):
    """Play one full game on the PettingZoo environment `e`; (steps, CPU seconds, rewards)."""
    e.reset(seed=seed)
    steps, rewards = 0, {}
    start = time.process_time()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            rewards[agent] = reward
            action = None
        else:
            legal = obs["action_mask"].view(bool).nonzero()[0]
            action = int(legal[rng.integers(len(legal))])
            steps += 1
        e.step(action)
    return steps, time.process_time() - start, rewards


def engine_game(players, seed, **options):
    """The same game with the engine alone: (decisions, CPU seconds)."""
    g = cyclades.new_game(players=players, seed=seed, max_cycles=100, **options)
    rng = random.Random(seed)
    steps, start = 0, time.process_time()
    while not g.is_over:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        steps += 1
    return steps, time.process_time() - start


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    e = make_env(players=args.players)
    rng = np.random.default_rng(args.seed)
    steps = secs = esteps = esecs = 0
    rewards = {}
    for k in range(args.games):  # interleaved: the same load on both
        n, t, rewards = pettingzoo_game(e, args.seed + k, rng)
        steps, secs = steps + n, secs + t
        n, t = engine_game(args.players, args.seed + k)
        esteps, esecs = esteps + n, esecs + t
    print(f"PettingZoo, masked random policy: {args.games} games, {steps} steps in {secs:.2f} s CPU: "
          f"{steps / secs:,.0f} steps/s")
    print(f"  rewards of the last game: {rewards}")
    print(f"Engine alone, random decisions:    {args.games} games, {esteps} decisions in "
          f"{esecs:.2f} s CPU: {esteps / esecs:,.0f} decisions/s")
    print(f"PettingZoo steps/s over engine decisions/s, the games interleaved: "
          f"{(steps / secs) / (esteps / esecs):.2f}")
    return steps / secs


if __name__ == "__main__":
    main()
