"""How long games between agents will take, said before they are played: from each agent's
budget, so that `cyclades simulate --agents mcts` and `cyclades tournament` can warn that a
search agent's game takes tens of seconds where a random one takes milliseconds.

    seconds_per_game(["mcts", "greedy", "random"], factions=3)   # about 9
    forecast(["mcts", "greedy"], factions=3, games=30, workers=2)
    # "mcts thinks about 0.085 s a decision: a game takes about 9 s; 30 games on 2
    #  workers, about 2 min."

The figures are rough on purpose (a typical game on one unloaded core): the progress bars show
the time each game really took.
"""
from __future__ import annotations

import os

from .base import parse_agent_spec

# A faction has about 110 decisions with more than one choice in a 3-player game (100 to 135
# measured over greedy games; the single-choice ones cost a search nothing). In 90 games
# between strong bots (100 iterations a decision) a strong seat thought 9.5 s a game, 70 ms
# over each of its 136 decisions, single-choice ones included: about 0.85 ms an iteration of a
# searched decision (it was 2.2 ms before the engine and the search were made faster).
SECONDS_PER_ITERATION = 0.00085
# With a value network (value=...), a leaf is valued without the greedy rollout: an iteration
# costs about half as much (in 90 games, 220 such iterations thought as long as strong's 100
# with rollouts: docs/learned-player.md); with rollout=1 it plays the rollout and also reads
# the network: 1.26 to 1.36 times a plain iteration in 180 games against strong.
NETWORK_ITERATION = 0.5
NETWORK_AFTER_ROLLOUT = 1.3
SEARCHED_DECISIONS = 110
CHEAP_SECONDS = 0.05  # random and greedy: a whole game's decisions of one faction


def _resolve(spec):
    try:
        from .levels import resolve  # bot levels ("expert" is an mcts budget), where present
    except ImportError:
        return spec
    try:
        return resolve(spec)
    except Exception:
        return spec


def seconds_per_decision(spec) -> float | None:
    """The thinking time of one searched decision of a search agent, None for the cheap ones."""
    try:
        base, opts = parse_agent_spec(_resolve(spec))
    except ValueError:
        return None
    if base != "mcts":
        return None
    seconds, iterations = opts.get("seconds"), opts.get("iterations")
    from .mcts import DEFAULT_ITERATIONS, flag_option, value_option
    if iterations is None and seconds is None:
        iterations = DEFAULT_ITERATIONS
    per_iteration = SECONDS_PER_ITERATION
    if value_option(opts.get("value")):
        per_iteration *= NETWORK_AFTER_ROLLOUT if flag_option(opts.get("rollout")) else NETWORK_ITERATION
    by_iterations = iterations * per_iteration if iterations else None
    if seconds and by_iterations:
        return min(float(seconds), by_iterations)
    return float(seconds) if seconds else by_iterations


def search_processes(spec) -> int:
    """Processes a decision of this agent keeps busy: its search's `workers` (1 if none)."""
    try:
        base, opts = parse_agent_spec(_resolve(spec))
        return max(1, int(opts.get("workers", 1))) if base == "mcts" else 1
    except ValueError:
        return 1


def cpu_seconds_per_game(seats, factions=None) -> float:
    """Processor seconds of a game: a parallel search's workers each search its budget."""
    factions = factions or len(seats)
    total = 0.0
    for k in range(factions):
        seat = seats[k % len(seats)]
        per = seconds_per_decision(seat)
        total += CHEAP_SECONDS if per is None else per * SEARCHED_DECISIONS * search_processes(seat)
    return total


def seconds_per_game(seats, factions=None) -> float:
    """Seconds a game takes when faction k is played by seats[k % len(seats)]."""
    factions = factions or len(seats)
    total = 0.0
    for k in range(factions):
        per = seconds_per_decision(seats[k % len(seats)])
        total += CHEAP_SECONDS if per is None else per * SEARCHED_DECISIONS
    return total


def duration(seconds) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def forecast(seats, factions=None, games=1, workers=1, cores=None) -> str | None:
    """A sentence saying how long the games will take, or None when they are quick (no search
    agent among the seats). `workers` games at once share `cores` (this machine's): a parallel
    search's processes count against them too."""
    searchers = [s for s in dict.fromkeys(seats) if seconds_per_decision(s) is not None]
    if not searchers:
        return None
    per_game = seconds_per_game(seats, factions)
    budgets = "; ".join(f"{s} thinks about {seconds_per_decision(s):.2g} s a decision" for s in searchers)
    text = f"{budgets}: a game takes about {duration(per_game)}"
    if games > 1:
        on = f" on {workers} workers" if workers > 1 else ""
        busy = max(1, workers) * max(search_processes(s) for s in searchers)  # processes at once
        cores = min(busy, cores or os.cpu_count() or 1)
        run = max(per_game * games / max(1, workers), cpu_seconds_per_game(seats, factions) * games / cores)
        text += f"; {games} games{on}, about {duration(run)}"
    return text + "."
