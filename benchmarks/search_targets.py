"""What a search's self-play teaches, per run (self-play format 4, docs/selfplay.md).

    .venv/bin/python benchmarks/search_targets.py data/r3-3p data/r6-deep

For each run directory, over the positions where a search chose among two or more candidates:

- how well the search's estimate calls the game: the root's mean reward (`root_means`, the
  candidates' rewards weighed by their visits) against the mover's share of the result, as a log
  loss, beside the heuristic's win chance at the same positions and the base rate (every position
  given the run's mean result); 95% intervals by bootstrap over games;
- how much the search's choice says beyond greedy's ranking: the share of positions where the most
  visited candidate is greedy's first (the candidates are listed in the order the search widened
  in, greedy's), the share where the best mean reward is the most visited, and the median gap
  between the two best mean rewards;
- where it chose otherwise, by the kind of decision (greedy's first candidate's action kind): how
  often the most visited is greedy's first, and how much more the search expects from its choice
  than from greedy's (mean reward of the most visited minus greedy's first's).

A value or policy target is worth training on where it calls the game better than the heuristic
and the base rate, or where the search chose otherwise than greedy would.
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from cyclades.agents.encoding import ACTION_SPACE
from cyclades.cli.selfplay import read_manifest
from cyclades.cli.train import root_means


def read_run(directory):
    """Per searched position with two or more candidates: game, root mean, heuristic chance and
    result of the mover, rank (in greedy's order) of the most visited candidate, whether the
    best mean reward is the most visited, the gap between the two best mean rewards, the index
    (in ACTION_SPACE's blocks) of greedy's first candidate's kind, and the mean reward of the most
    visited minus greedy's first's."""
    kind_of = {block.kind: k for k, block in enumerate(ACTION_SPACE.blocks)}
    rows = []
    manifest = read_manifest(Path(directory))
    if manifest is None:
        raise SystemExit(f"{directory}: no self-play run (no manifest.json)")
    for entry in manifest["shards"]:  # the finished shards (a running run is writing the next)
        # each array read once: an NpzFile reads (and inflates) a key at every access
        with np.load(Path(directory) / entry["file"]) as npz:
            shard = {key: npz[key] for key in ("searched", "visit_slot", "visit_count", "visit_reward", "player",
                                                "game", "heuristic", "outcome")}
        means = root_means(shard)
        starts = np.r_[0, np.cumsum(shard["searched"])]
        for i in np.flatnonzero(shard["searched"] >= 2):
            visits = shard["visit_count"][starts[i]:starts[i + 1]]
            rewards = np.where(visits > 0, shard["visit_reward"][starts[i]:starts[i + 1]], -np.inf)
            top = int(np.argmax(visits))
            best_two = np.sort(rewards[visits > 0])[::-1][:2]
            mover = shard["player"][i]
            kind = kind_of[ACTION_SPACE.decode(int(shard["visit_slot"][starts[i]])).kind]
            rows.append((shard["game"][i], means[i], shard["heuristic"][i, mover], shard["outcome"][i, mover],
                         top, int(np.argmax(rewards)) == top,
                         best_two[0] - best_two[1] if len(best_two) == 2 else np.nan,
                         kind, rewards[top] - rewards[0]))
    if not rows:
        raise SystemExit(f"{directory}: no searched positions with their rewards (self-play format 4)")
    return np.array(rows, dtype=np.float64)


def log_loss(chance, result):
    p = np.clip(chance, 1e-6, 1 - 1e-6)
    return -(result * np.log(p) + (1 - result) * np.log(1 - p))


def bootstrap(per_position, games, draws=1000, seed=0):
    """Mean of `per_position` and its 95% interval, resampling whole games."""
    ids, index = np.unique(games, return_inverse=True)
    sums = np.bincount(index, weights=per_position)
    counts = np.bincount(index)
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, len(ids), size=(draws, len(ids)))
    means = sums[picks].sum(1) / counts[picks].sum(1)
    return per_position.mean(), np.percentile(means, 2.5), np.percentile(means, 97.5)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", help="self-play run directories (with manifest.json and shards)")
    args = ap.parse_args()
    for directory in args.runs:
        rows = read_run(directory)
        games, mean, heuristic, result, top, reward_agrees, gap, kind, gain = rows.T
        base = np.full_like(result, result.mean())
        print(f"{directory}: {len(np.unique(games))} games, {len(rows)} positions where a search chose")
        for label, chance in (("the search's root mean", mean), ("the heuristic", heuristic),
                              ("the base rate", base)):
            value, low, high = bootstrap(log_loss(chance, result), games)
            print(f"  log loss, {label:>22}: {value:.3f} ({low:.3f}-{high:.3f}); says {chance.mean():.3f} "
                  f"where the mover's result is {result.mean():.3f}")
        print(f"  the most visited is greedy's first in {np.mean(top == 0):.1%} of positions "
              f"(second {np.mean(top == 1):.1%}, third {np.mean(top == 2):.1%}); the best mean reward "
              f"is the most visited in {reward_agrees.mean():.1%}; median gap between the two best "
              f"mean rewards {np.nanmedian(gap):.3f}")
        print("  by kind of decision (greedy's first candidate's; the kinds of 1% of positions or more): "
              "positions, how often the most visited is greedy's first, and where it is not, how much more "
              "the search expects of its choice")
        kinds, counts = np.unique(kind, return_counts=True)
        common = [int(k) for k, c in sorted(zip(kinds, counts), key=lambda kc: -kc[1]) if c >= 0.01 * len(rows)]
        groups = [(ACTION_SPACE.blocks[k].kind, kind == k) for k in common]
        groups.append(("the others", ~np.isin(kind, common)))
        for label, at in groups:
            if not at.any():
                continue
            other = at & (top != 0)
            print(f"    {label:>16}: {int(at.sum()):>6} ({at.mean():5.1%}), "
                  f"greedy's first {np.mean(top[at] == 0):5.1%}, gain {gain[other].mean() if other.any() else 0:+.3f}")


if __name__ == "__main__":
    main()
