"""Root-parallel MCTS: iterations per second with 1 and 2 worker processes.

    .venv/bin/python benchmarks/mcts_parallel.py                 # 1 s per decision, 6 positions
    .venv/bin/python benchmarks/mcts_parallel.py --seconds 0.5 --positions 10 --workers 1,2,3

For each position (Legendary, 3 players, mid-game decisions with a real choice), the agent
searches with a time budget (`mcts:seconds=S,workers=N`); iterations per second is the sum over
the workers' searches divided by the wall-clock time of the decision. The worker processes are
started (and warmed up on one decision) before the clock runs: they are persistent, so their
start-up is paid once per process, not per decision (printed apart). workers=1 searches in
this process. The machine's load matters: run it on a quiet machine. On a loaded one the
wall-clock figures say little; the last figure (iterations per second of CPU time of the
busiest search, i.e. what the decision costs when each worker has a core to itself) does not
depend on the load.
"""
from __future__ import annotations

import argparse
import os
import time

from arguments import at_least, duration


def positions(count, seed=3):
    """Mid-game positions with at least 3 options for the player to move."""
    import cyclades
    from cyclades.agents import make_agent

    out = []
    k = 0
    while len(out) < count:
        g = cyclades.new_game(players=3, seed=seed + k)
        greedy = make_agent("greedy", seed=k)
        steps = 30 + 17 * (k % 5)
        for _ in range(steps):
            if g.is_over:
                break
            g.apply(greedy.act(g, g.to_move))
        while not g.is_over and len(g.legal_actions()) < 3:
            g.apply(greedy.act(g, g.to_move))
        if not g.is_over:
            out.append(g)
        k += 1
    return out


def measure(workers, seconds, games):
    from cyclades.agents.mcts import MCTSAgent, worker_pool

    t0 = time.perf_counter()
    if workers > 1:
        worker_pool(workers)
    start = time.perf_counter() - t0
    warm = MCTSAgent(seed=0, seconds=0.2, iterations=0, workers=workers)
    warm.act(games[0], games[0].to_move)
    iterations, wall, cpu = 0, 0.0, 0.0
    for i, g in enumerate(games):
        agent = MCTSAgent(seed=i, seconds=seconds, iterations=0, workers=workers)
        t, c = time.perf_counter(), time.process_time()
        agent.act(g, g.to_move)
        wall += time.perf_counter() - t
        # CPU time of the searches: the busiest worker's (they run side by side), or this one's.
        cpu += max(agent.last_worker_cpu) if workers > 1 else time.process_time() - c
        iterations += agent.last_iterations
    return {"workers": workers, "decisions": len(games), "iterations": iterations,
            "seconds": wall, "per_second": iterations / wall, "startup": start,
            "per_cpu_second": iterations / cpu if cpu else 0.0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=duration(), default=1.0, help="budget per decision")
    ap.add_argument("--positions", type=at_least(1), default=6)
    ap.add_argument("--workers", default="1,2", help="worker counts to compare")
    args = ap.parse_args()
    games = positions(args.positions)
    print(f"cores: {os.cpu_count()}, load average: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{args.positions} positions (Legendary, 3 players), {args.seconds:g} s per decision")
    base = None
    for w in [int(x) for x in args.workers.split(",")]:
        r = measure(w, args.seconds, games)
        base = base or r["per_second"]
        print(f"workers={w}: {r['iterations']} iterations in {r['seconds']:.2f} s = "
              f"{r['per_second']:.0f} iterations/s ({r['per_second'] / base:.2f}x); "
              f"{r['iterations'] / r['decisions']:.0f} per decision; "
              f"{r['per_cpu_second']:.0f} iterations per second of the busiest search's CPU time"
              + (f"; workers started in {r['startup']:.2f} s (once)" if w > 1 else ""))
    from cyclades.agents.mcts import shutdown_workers
    shutdown_workers()


if __name__ == "__main__":
    main()
