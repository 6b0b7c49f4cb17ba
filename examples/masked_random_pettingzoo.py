"""A masked random policy through the PettingZoo API, for full games; prints steps/s.

    PYTHONPATH=src python3 examples/masked_random_pettingzoo.py --games 20 --players 3

Each step is what a learning loop pays: `last()` (the agent's observation vector and
action mask, from its own view), a uniform choice among the legal slots, `step()`. For
comparison the script then plays the same number of games with the engine alone
(`game.legal_actions()` and `game.apply`, no observation), the figure
`cyclades simulate` reports as decisions/s, and prints the ratio (benchmarks/env_speed.py
measures it more carefully, interleaving the two).

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


def pettingzoo_games(games, players, seed, **options):
    """Play `games` full games; return (steps, seconds, rewards of the last game)."""
    e = make_env(players=players, **options)
    rng = np.random.default_rng(seed)
    steps, start = 0, time.perf_counter()
    rewards = {}
    for k in range(games):
        e.reset(seed=seed + k)
        rewards = {}
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
    return steps, time.perf_counter() - start, rewards


def engine_games(games, players, seed, **options):
    """The same with the engine alone: (decisions, seconds)."""
    steps, start = 0, time.perf_counter()
    for k in range(games):
        g = cyclades.new_game(players=players, seed=seed + k, max_cycles=100, **options)
        rng = random.Random(seed + k)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
            steps += 1
    return steps, time.perf_counter() - start


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    steps, secs, rewards = pettingzoo_games(args.games, args.players, args.seed)
    print(f"PettingZoo, masked random policy: {args.games} games, {steps} steps in {secs:.2f} s: "
          f"{steps / secs:,.0f} steps/s")
    print(f"  rewards of the last game: {rewards}")
    esteps, esecs = engine_games(args.games, args.players, args.seed)
    print(f"Engine alone, random decisions:    {args.games} games, {esteps} decisions in "
          f"{esecs:.2f} s: {esteps / esecs:,.0f} decisions/s")
    print(f"PettingZoo steps/s over engine decisions/s: {(steps / secs) / (esteps / esecs):.2f}")
    return steps / secs


if __name__ == "__main__":
    main()
