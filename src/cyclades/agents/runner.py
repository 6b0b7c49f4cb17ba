"""The runner of many games, shared by tournaments (tournament.py) and ladders (ladder.py).

A schedule is a list of small dicts, one a game (`play_game` plays one: the mode, the game's
seed, the agent of each faction); `Series.run` plays them all in worker processes on this
machine (`workers`, all cores by default), or as Ray tasks on a cluster (`ray="ADDRESS"`, or
`ray="local"` for a Ray instance started here), tells `on_result(row)` of each game as it
ends, and keeps the rows in game order. A tournament and a ladder differ only in their
schedule and in what they make of the rows.

Seeding: a game's seed makes its board and its cards; the agent at seat k of a game of seed s
has seed s*16+k (`agent_seed`), so any row can be played again alone, in any order.
"""
from __future__ import annotations

import os
import time
from contextlib import contextmanager
from dataclasses import KW_ONLY, dataclass, field

from .match import MAX_DECISIONS, Mode, play_match
from .registry import make_agent

AGENT_SEEDS = "seat k of a game of seed s uses seed s*16+k"


def agent_seed(game_seed, seat) -> int:
    return game_seed * 16 + seat


# --- one game ---------------------------------------------------------------------------------

def play_game(spec) -> dict:
    """Play one game of the schedule; its figures as a row (an error is recorded, not raised)."""
    lineup = spec["lineup"]
    t0 = time.perf_counter()
    mode = Mode(spec["players"], spec.get("teams", False), spec.get("ruleset", "legendary"),
                spec.get("team_goal", 3))
    game = mode.new_game(seed=spec["seed"], max_cycles=spec.get("max_cycles"))
    seats = [make_agent(name, seed=agent_seed(spec["seed"], p)) for p, name in enumerate(lineup)]
    out = play_match(game, seats, max_decisions=spec.get("max_decisions", MAX_DECISIONS))
    row = {"game": spec["game"], "seed": spec["seed"], "lineup": lineup,
           "side_lineup": spec.get("side_lineup", lineup), "sides": out["sides"],
           "winners": out["winners"], "winning_sides": out["winning_sides"],
           "metropolises": out["metropolises"], "gp": out["gp"],
           "side_metropolises": out["side_metropolises"], "side_gp": out["side_gp"],
           "cycles": out["cycles"], "decisions": out["decisions"],
           "decisions_by_seat": out["decisions_by_seat"],
           "thinking_by_seat": [round(x, 4) for x in out["thinking_by_seat"]],
           "cpu_by_seat": [round(x, 4) for x in out["cpu_by_seat"]],
           "longest_by_seat": [round(x, 4) for x in out["longest_by_seat"]],
           "seconds": round(time.perf_counter() - t0, 3),
           "ending": None if "error" in out else out["ending"]}
    if "error" in out:
        row["error"] = out["error"]
    return row


# --- many games ---------------------------------------------------------------------------------

@dataclass
class Series:
    """Games of one mode, played by the runner. A subclass gives the schedule (`specs`);
    `run` plays it, `rows` are the games in game order, `seconds` the time they took."""

    _: KW_ONLY
    players: int = 3
    seed: int = 0
    workers: int | None = None
    ray: str | None = None
    max_cycles: int = 100
    teams: bool = False
    team_goal: int = 3
    ruleset: str = "legendary"
    rows: list = field(default_factory=list)
    seconds: float = 0.0

    @property
    def mode(self) -> Mode:
        return Mode(self.players, self.teams, self.ruleset, self.team_goal)

    def specs(self) -> list:
        """The games to play: dicts for `play_game`."""
        raise NotImplementedError

    def run(self, on_result=None, done=()) -> list:
        """Play every game; `on_result(row)` hears of each as it ends (in any order). `done`: the
        rows of games already played (a resumed run, `resumable`): those are not played again."""
        finished = self.resumable(done)
        specs = [spec for spec in self.specs() if spec["game"] not in finished]
        t0 = time.perf_counter()
        rows = run_games(specs, self.workers, self.ray, on_result)
        self.seconds = time.perf_counter() - t0
        self.rows = sorted([*finished.values(), *rows], key=lambda r: r["game"])
        return self.rows

    def resumable(self, done) -> dict:
        """game -> row of the rows of an earlier run of this schedule; a ValueError naming the
        first row this schedule would not have played (another seed or lineup)."""
        schedule = {spec["game"]: spec for spec in self.specs()}
        finished = {}
        for row in done:
            spec = schedule.get(row.get("game"))
            if spec is None or row.get("seed") != spec["seed"] or row.get("lineup") != spec["lineup"]:
                raise ValueError(f"game {row.get('game')} (seed {row.get('seed')}, {row.get('lineup')}) is not "
                                 f"a game of this schedule: another run's results")
            finished[row["game"]] = row
        return finished

    def backend(self) -> str:
        """Where the games ran, for the results file."""
        return f"ray ({self.ray})" if self.ray else f"local ({self.workers or os.cpu_count()} workers)"

    def errors(self) -> int:
        """How many games ended in an error (recorded in their row)."""
        return sum(1 for r in self.rows if "error" in r)


def run_games(specs, workers=None, ray=None, on_result=None) -> list:
    """The rows of the games of `specs`, in the order they end: as Ray tasks when `ray` is an
    address (or "local"), else in `workers` processes here (all cores by default)."""
    if ray:
        return _run_ray(specs, ray, workers, on_result)
    return _run_local(specs, workers, on_result)


def _run_local(specs, workers, on_result):
    workers = workers or os.cpu_count() or 1
    rows = []
    if workers <= 1 or len(specs) <= 1:
        for spec in specs:
            row = play_game(spec)
            rows.append(row)
            if on_result:
                on_result(row)
        return rows
    from concurrent.futures import ProcessPoolExecutor, as_completed
    with ProcessPoolExecutor(max_workers=min(workers, len(specs))) as pool:
        futures = [pool.submit(play_game, spec) for spec in specs]
        try:
            for fut in as_completed(futures):
                row = fut.result()
                rows.append(row)
                if on_result:
                    on_result(row)
        except BaseException:
            for fut in futures:
                fut.cancel()
            raise
    return rows


@contextmanager
def ray_session(address, workers=None):
    """The `ray` module, connected to the cluster at `address` ("local": a Ray instance started
    here with `workers` CPUs) unless a connection is already open; one this opened is closed
    on leaving."""
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise RuntimeError("--ray needs Ray: pip install 'cyclades[ray]' (or pip install ray)") from e
    started = False
    if not ray.is_initialized():
        try:
            if address == "local":
                ray.init(num_cpus=workers or None, include_dashboard=False, log_to_driver=False,
                         configure_logging=False)
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        except (ConnectionError, ValueError) as e:  # no cluster there, or no address at all
            raise RuntimeError(f"--ray {address}: no Ray cluster to join there ({e}); give a cluster's "
                               f'address ("auto", "ray://head:10001") or "local"') from None
        started = True
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def _run_ray(specs, address, workers, on_result):
    with ray_session(address, workers) as ray:
        task = ray.remote(num_cpus=1)(play_game)
        pending = [task.remote(spec) for spec in specs]
        rows = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                row = ray.get(ref)
                rows.append(row)
                if on_result:
                    on_result(row)
        return rows
