"""How well three estimates of each player's chance to win predict who wins: the heuristic,
the value network, and the strong search's estimate (what the win-chance chart showed before).

    .venv/bin/python benchmarks/win_chance_calibration.py SELFPLAY_DIR [--games 40] [--weights FILE]
        [--temperature T ...] [--iterations 100 | --no-search]

Replays the held-out games of a `cyclades selfplay` run (those `cyclades train` does not train
on: index a multiple of --held-out-every) from their seeds and actions, and at the end of every
cycle (the chart's points) asks, from the view of the player to move:
- the heuristic: evaluation.win_chances of a game sampled from that view;
- the network: agents/advice.py's chart estimate (the value network averaged over 8 samples);
- the search: MCTS, 100 iterations, its root's mean reward (the chart's estimate before);
- with --temperature T (as often as wanted): the heuristic's values softmaxed at T instead of
  its own 18 (evaluation.TEMPERATURE; the search's `temperature` option): how overconfident
  the heuristic is.
Prints each one's log loss against the outcome (minus the log of the chance it gave the
winner) with a 95% interval (bootstrap over games), and its calibration in deciles.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import statistics
from pathlib import Path

from arguments import at_least, finite


def replayed_points(run: Path, games: int, held_every: int):
    """(game index, position, outcome) at the end of every cycle of the run's held-out games."""
    from cyclades.agents.encoding import ACTION_SPACE
    from cyclades.agents.match import Mode
    from cyclades.cli.selfplay import load_shard

    manifest = json.loads((run / "manifest.json").read_text())
    m = manifest["mode"]
    mode = Mode(m["players"], m["teams"], m["ruleset"], m["team_goal"])
    taken = 0
    for entry in manifest["shards"]:
        shard = load_shard(run / entry["file"])
        for k, index in enumerate(shard["games"]):
            if index % held_every or taken >= games:
                continue
            taken += 1
            rows = shard["game"] == index
            g = mode.new_game(seed=int(shard["seeds"][k]), max_cycles=manifest["max_cycles"])
            outcome = [float(x) for x in shard["game_outcome"][k]]
            for slot in shard["action"][rows]:
                cycle = g.state.cycle
                g.apply(ACTION_SPACE.decode(int(slot), g.board))
                if not g.is_over and g.state.cycle != cycle:  # the first position of a new cycle
                    yield int(index), g.copy(), outcome
        if taken >= games:
            return


def deciles(pairs):
    out = []
    for b in range(10):
        inside = [(c, w) for c, w in pairs if b / 10 <= c < (b + 1) / 10 or (b == 9 and c == 1.0)]
        if inside:
            out.append((b / 10, len(inside), statistics.mean(c for c, _ in inside),
                        statistics.mean(w for _, w in inside)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--games", type=at_least(1), default=40)
    ap.add_argument("--held-out-every", type=at_least(1), default=10)
    ap.add_argument("--weights", default=None, help="a weights file (default: the shipped one)")
    ap.add_argument("--iterations", type=at_least(1), default=100)
    ap.add_argument("--no-search", action="store_true", help="leave the search's estimate out (the slow one)")
    ap.add_argument("--temperature", type=finite(), action="append", default=[],
                    help="also the heuristic softmaxed at this temperature (repeat for more)")
    args = ap.parse_args()
    from cyclades.agents import advice
    from cyclades.agents import evaluation as ev
    from cyclades.agents import value as vnet
    from cyclades.agents.mcts import MCTSAgent

    net = vnet.load(args.weights)
    estimates = {
        "heuristic": lambda g, obs, rng: ev.win_chances(ev.sample(obs, rng)),
        "network": lambda g, obs, rng: [sum(c) / advice.CHANCE_SAMPLES for c in zip(
            *(net.win_chances(ev.sample(obs, rng)) for _ in range(advice.CHANCE_SAMPLES)))],
        "search": lambda g, obs, rng: MCTSAgent(seed=1, iterations=args.iterations).estimate(obs),
    }
    if args.no_search:
        del estimates["search"]
    for temperature in args.temperature:
        estimates[f"heuristic at {temperature:g}"] = (
            lambda g, obs, rng, t=temperature: ev.win_chances(ev.sample(obs, rng), temperature=t))
    losses = {k: {} for k in estimates}
    pairs: dict = {k: [] for k in estimates}
    points = 0
    for index, g, outcome in replayed_points(args.run, args.games, args.held_out_every):
        obs = g.observe(g.to_move)
        share = sum(outcome)
        for name, estimate in estimates.items():
            chance = estimate(g, obs, random.Random(f"{index}/{g.state.version}"))
            side = ev.sides(g)
            seen, total = set(), 0.0
            for q in range(g.state.n):  # one term a side: its chance, weighted by its share of the win
                if side[q] in seen:
                    continue
                seen.add(side[q])
                total -= (outcome[q] / share) * math.log(max(chance[q], 1e-9)) if outcome[q] else 0.0
                pairs[name].append((chance[q], 1.0 if outcome[q] else 0.0))
            losses[name].setdefault(index, []).append(total)
        points += 1
    games = sorted(losses["heuristic"])
    print(f"{points} positions (the start of every cycle) of {len(games)} held-out games of {args.run}")
    rng = random.Random(0)
    for name in estimates:
        per_game = [losses[name][i] for i in games]
        mean = sum(map(sum, per_game)) / points
        boot = []
        for _ in range(400):
            pick = [per_game[rng.randrange(len(games))] for _ in games]
            boot.append(sum(map(sum, pick)) / sum(map(len, pick)))
        boot.sort()
        print(f"{name:>16}: log loss {mean:.4f} (95% {boot[10]:.4f}-{boot[389]:.4f})")
        for low, count, predicted, won in deciles(pairs[name]):
            print(f"{'':>18}{low:.1f}-{low + 0.1:.1f}: {count:4d} chances, mean {predicted:.2f}, won {won:.2f}")
    for other in [k for k in estimates if k != "network"]:  # paired: the same positions, games resampled together
        diff = {i: sum(losses["network"][i]) - sum(losses[other][i]) for i in games}
        boot = []
        for _ in range(400):
            pick = [games[rng.randrange(len(games))] for _ in games]
            boot.append(sum(diff[i] for i in pick) / sum(len(losses[other][i]) for i in pick))
        boot.sort()
        print(f"network - {other}: {sum(diff.values()) / points:+.4f} log loss a position "
              f"(95% {boot[10]:+.4f} to {boot[389]:+.4f}, bootstrap over games)")


if __name__ == "__main__":
    main()
