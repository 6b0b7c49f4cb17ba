"""`cyclades selfplay`: games between agents written as training data (docs/selfplay.md).

    cyclades selfplay --agents greedy,greedy,random --games 1000 --explore 0.1 --out data/sp1
    cyclades selfplay --agents greedy,greedy,random --games 1000 --explore 0.1 --out data/sp1 --resume
    cyclades selfplay --agents "mcts:iterations=30,value=shipped" --games 5000 --ray auto --out data/sp2

Every decision of a player (the engine resolves chance itself) is a position: the player's
observation vector and legal-action mask (agents/encoding.py's layout, built by env/incremental.py's
`GameEncoder`, the numbers the RL environments hand out), the slot of the action taken, who took
it, the game and the decision's index in it; once the game is over, every position of it gets the
outcome of each faction (1 for a win, a shared win split between the winning sides, 0 else; in
team play every faction of a winning team gets the team's share). With `--explore p` a share p
of the decisions is taken uniformly at random among the legal actions instead of by the agent.
A search agent's decision also records the root's visit counts (the slots of the actions it
tried, and how often): the target of a policy.

Reproducible: game i has seed `--seed` + i (its board and cards), the agent of faction k seed
`agent_seed(game seed, k)` as in tournaments, the exploration its own generator seeded from the
game seed, and the agents' seating is the tournament's arrangements in turn (game i plays
arrangement i mod their number). So a game's positions depend on nothing but its index and the
run's options, whatever the workers or the shards.

Written as NPZ shards (`numpy.savez_compressed`: no pickle), one per `--shard-games` games, and a
manifest.json that says what the run is (its configuration, the observation layout's size and
fingerprint) and which shards are done; `--resume` reads it and plays the shards not done. The
games run in worker processes here, or as Ray tasks on a cluster (`--ray`), as tournaments do.
"""
from __future__ import annotations

import json
import os
import random
import time
import zipfile
from pathlib import Path

import click

import cyclades

from ..agents.cli import _MAX_CYCLES, _RAY, _RULESET, _TEAM_GOAL, _WORKERS, _check_agents, _consoles, _mode
from ..agents.evaluation import win_chances
from ..agents.match import MAX_DECISIONS, Mode, decide, outcome
from ..agents.registry import make_agent
from ..agents.runner import AGENT_SEEDS, agent_seed, ray_session
from ..agents.tournament import faction_lineup, lineups
from ..click_types import FiniteRange, OutputFolder
from ..paths import results_dir
from ..progress import run_progress

try:  # the rl extra (numpy, and the observation encoder that needs it); the game itself does not
    import numpy as np

    from ..agents.encoding import ACTION_SPACE, LAYOUT, layout_fingerprint
except ImportError:  # the `cyclades` command still works; this one says what to install
    np = None

FORMAT = "cyclades-selfplay"
VERSION = 4  # 2: the heuristic's win chances of each position (`heuristic`); 3: search visits;
# 4: the mean reward of each action the search tried (`visit_reward`)
MANIFEST = "manifest.json"
# What a run is: a manifest with other values is another run (`--resume` refuses it).
CONFIG_KEYS = ("format", "version", "observation", "action_space", "mode", "agents", "explore", "seed",
               "games", "shard_games", "max_cycles")
# The arrays of a shard with one row a position, then those with one row a game.
POSITION_ARRAYS = ("obs", "mask", "action", "player", "game", "decision", "explored", "outcome",
                   "heuristic", "searched")
# A search agent's root statistics, its positions' entries one after the other (`searched` of
# them a position): the slot of each action the search tried, its visits, and the mover's mean
# reward over them (its estimated chance to win after that action).
VISIT_ARRAYS = ("visit_slot", "visit_count", "visit_reward")
GAME_ARRAYS = ("games", "seeds", "lineup", "game_outcome", "decisions", "cycles", "ending")


def config(mode: Mode, agents, explore, seed, games, shard_games, max_cycles) -> dict:
    """The manifest's description of a run (the keys of CONFIG_KEYS)."""
    return {"format": FORMAT, "version": VERSION,
            "observation": {"size": LAYOUT.size, "fingerprint": layout_fingerprint(), "dtype": "float32"},
            "action_space": {"size": ACTION_SPACE.n, "fingerprint": ACTION_SPACE.fingerprint},
            "mode": {"players": mode.players, "teams": mode.teams, "team_goal": mode.team_goal,
                     "ruleset": mode.ruleset, "factions": len(mode.layout), "sides": mode.layout,
                     "label": mode.label()},
            "agents": list(agents), "explore": float(explore), "seed": int(seed), "games": int(games),
            "shard_games": int(shard_games), "max_cycles": max_cycles}


def game_specs(cfg: dict) -> list:
    """One dict a game of the run (for `play_selfplay_game`), game i seeded `seed` + i, seated
    with the tournament's arrangements in turn."""
    m = cfg["mode"]
    mode = Mode(m["players"], m["teams"], m["ruleset"], m["team_goal"])
    arrangements = lineups(cfg["agents"], mode.sides)
    return [{"game": i, "seed": cfg["seed"] + i,
             "lineup": faction_lineup(arrangements[i % len(arrangements)], mode.layout),
             "players": mode.players, "teams": mode.teams, "team_goal": mode.team_goal,
             "ruleset": mode.ruleset, "max_cycles": cfg["max_cycles"], "explore": cfg["explore"]}
            for i in range(cfg["games"])]


def shards(cfg: dict) -> list:
    """(shard index, first game, end game) of each shard of the run."""
    n, k = cfg["games"], cfg["shard_games"]
    return [(j, lo, min(lo + k, n)) for j, lo in enumerate(range(0, n, k))]


def shard_name(j) -> str:
    return f"shard-{j:05d}.npz"


# --- one game -------------------------------------------------------------------------------------

def play_selfplay_game(spec) -> dict:
    """Play one game of the run, recording every decision; its arrays (POSITION_ARRAYS, one row a
    decision) and its figures. A game the engine or an agent cannot finish raises RuntimeError."""
    from ..env.incremental import GameEncoder

    t0 = time.perf_counter()
    mode = Mode(spec["players"], spec["teams"], spec["ruleset"], spec["team_goal"])
    game = mode.new_game(seed=spec["seed"], max_cycles=spec["max_cycles"])
    agents = [make_agent(name, seed=agent_seed(spec["seed"], p)) for p, name in enumerate(spec["lineup"])]
    explore = float(spec["explore"])
    rng = random.Random(f"selfplay-explore:{spec['seed']}")  # a str seed: the same in every process
    enc = GameEncoder()
    obs, masks, actions, players, explored, heuristic = [], [], [], [], [], []
    searched, visit_slots, visit_counts, visit_rewards = [], [], [], []
    try:
        while not game.is_over:
            if len(actions) >= MAX_DECISIONS:
                raise RuntimeError(f"no end after {MAX_DECISIONS} decisions")
            p = game.to_move
            if not isinstance(p, int) or p < 0:
                raise RuntimeError(f"the game waits on {p!r}, not on a player")
            obs.append(enc.observation(game, p))
            masks.append(np.packbits(enc.mask(game, p).astype(bool), bitorder="little"))
            heuristic.append(win_chances(game))
            root = []
            if explore and rng.random() < explore:
                legal = game.legal_actions()
                action = legal[rng.randrange(len(legal))]
                explored.append(True)
            else:
                action, _ = decide(agents[p], game, p)
                explored.append(False)
                # a search's root: (action, visits, summed reward) of each action it tried (mcts.py)
                root = [(a, n, w) for a, n, w in getattr(agents[p], "last_stats", None) or () if n > 0]
            searched.append(len(root))
            visit_slots.extend(ACTION_SPACE.encode(a, game.board) for a, _, _ in root)
            visit_counts.extend(n for _, n, _ in root)
            visit_rewards.extend(w / n for _, n, w in root)
            actions.append(ACTION_SPACE.encode(action, game.board))
            players.append(p)
            game.apply(action)
    except Exception as e:
        raise RuntimeError(f"game {spec['game']} (seed {spec['seed']}, {', '.join(spec['lineup'])}): "
                           f"{type(e).__name__}: {e}") from e
    out = outcome(game)
    if "error" in out:
        raise RuntimeError(f"game {spec['game']} (seed {spec['seed']}): {out['error']}")
    won, sides = out["winning_sides"], out["sides"]
    result = np.array([1.0 / len(won) if sides[q] in won else 0.0 for q in range(len(sides))],
                      dtype=np.float32)
    n = len(actions)
    # The vectors are 95% zeros: kept as their nonzero entries (flat indices, values) until the
    # shard is written, so that games waiting for their shard (and their trip from a worker
    # process) weigh a tenth of the dense vectors.
    flat = np.stack(obs).reshape(-1) if n else np.zeros(0, np.float32)
    nonzero = np.flatnonzero(flat)
    return {"game": spec["game"], "seed": spec["seed"], "lineup": spec["lineup"],
            "cycles": out["cycles"], "ending": out["ending"], "seconds": time.perf_counter() - t0,
            "obs_index": nonzero.astype(np.int64), "obs_value": flat[nonzero],
            "mask": np.stack(masks) if n else np.zeros((0, (ACTION_SPACE.n + 7) // 8), np.uint8),
            "action": np.array(actions, dtype=np.int32), "player": np.array(players, dtype=np.int8),
            "game_index": np.full(n, spec["game"], dtype=np.int32),
            "decision": np.arange(n, dtype=np.int32), "explored": np.array(explored, dtype=bool),
            "outcome": np.repeat(result[None, :], n, axis=0), "result": result,
            "heuristic": np.array(heuristic, dtype=np.float32).reshape(n, len(sides)),
            "searched": np.array(searched, dtype=np.int16),
            "visit_slot": np.array(visit_slots, dtype=np.int32),
            "visit_count": np.array(visit_counts, dtype=np.int32),
            "visit_reward": np.array(visit_rewards, dtype=np.float32)}


def shard_arrays(results) -> dict:
    """The arrays of a shard from its games' results, in game order."""
    rs = sorted(results, key=lambda r: r["game"])
    cat = np.concatenate
    obs = np.zeros((sum(len(r["action"]) for r in rs), LAYOUT.size), dtype=np.float32)
    start = 0
    for r in rs:
        n = len(r["action"])
        obs[start:start + n].reshape(-1)[r["obs_index"]] = r["obs_value"]
        start += n
    return {
        "obs": obs, "mask": cat([r["mask"] for r in rs]),
        "action": cat([r["action"] for r in rs]), "player": cat([r["player"] for r in rs]),
        "game": cat([r["game_index"] for r in rs]), "decision": cat([r["decision"] for r in rs]),
        "explored": cat([r["explored"] for r in rs]), "outcome": cat([r["outcome"] for r in rs]),
        "heuristic": cat([r["heuristic"] for r in rs]), "searched": cat([r["searched"] for r in rs]),
        **{k: cat([r[k] for r in rs]) for k in VISIT_ARRAYS},
        "games": np.array([r["game"] for r in rs], dtype=np.int32),
        "seeds": np.array([r["seed"] for r in rs], dtype=np.int64),
        "lineup": np.array([r["lineup"] for r in rs], dtype=str),
        "game_outcome": np.stack([r["result"] for r in rs]),
        "decisions": np.array([len(r["action"]) for r in rs], dtype=np.int32),
        "cycles": np.array([r["cycles"] for r in rs], dtype=np.int32),
        "ending": np.array([r["ending"] for r in rs], dtype=str),
    }


def load_shard(path) -> dict:
    """A shard's arrays (no pickle), the mask unpacked to a bool array [positions, action slots];
    ValueError naming the file if it cannot be read."""
    again = "`cyclades selfplay --resume` with the run's options plays its games again"
    if not zipfile.is_zipfile(path):  # (numpy would take it for a pickle, and say so)
        raise ValueError(f"{path}: not a shard: no NPZ archive, or none any more; {again}")
    try:
        with np.load(path, allow_pickle=False) as z:
            out = {k: z[k] for k in z.files}
        out["mask"] = unpack_mask(out["mask"])
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile) as e:
        raise ValueError(f"{path}: not a readable shard ({e}); {again}") from None
    return out


def visit_offsets(arrays) -> np.ndarray:
    """Where each position's entries start in `visit_slot` and `visit_count` (N + 1 offsets, the
    last the total): computed once, so reading every position of a shard is linear."""
    return np.concatenate(([0], np.cumsum(arrays["searched"], dtype=np.int64)))


def root_visits(arrays, i, offsets=None) -> dict:
    """{action slot: visits} of the search at position i of a shard's arrays ({} where no search
    chose: another kind of agent, a random move, a forced one). Reading many positions, pass
    `offsets` (visit_offsets(arrays)): without them each call computes them again."""
    if offsets is None:
        offsets = visit_offsets(arrays)
    start = int(offsets[i])
    end = start + int(arrays["searched"][i])
    return dict(zip(arrays["visit_slot"][start:end].tolist(), arrays["visit_count"][start:end].tolist()))


def unpack_mask(bits) -> np.ndarray:
    """The bool mask [positions, ACTION_SPACE.n] of a shard's packed `mask` (bit s % 8 of byte s // 8);
    a shard of the narrower space this one widens has fewer bytes: the slots above read unset."""
    return np.unpackbits(bits, axis=1, count=ACTION_SPACE.n, bitorder="little").astype(bool)


# --- the manifest ---------------------------------------------------------------------------------

def read_manifest(out: Path) -> dict | None:
    path = out / MANIFEST
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as e:
        raise click.BadParameter(f"{path}: not a readable manifest ({e})", param_hint="--out") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise click.BadParameter(f"{path} is not the manifest of a self-play run", param_hint="--out")
    return data


def write_manifest(out: Path, manifest: dict) -> None:
    """Written whole to a temporary file, then renamed: a stop never leaves half a manifest."""
    tmp = out / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=1) + "\n")
    os.replace(tmp, out / MANIFEST)


def _differences(old: dict, new: dict) -> list:
    return [f"{k}: {old.get(k)!r} there, {new[k]!r} here" for k in CONFIG_KEYS
            if old.get(k) != new[k] and not (k == "action_space" and widened_from(old[k]))]


def widened_from(space) -> bool:
    """Whether a run's action space is the one this version's widens: its slots are the first of
    ours, its shards' masks read as ours (the slots above unset), the run goes on in ours."""
    return ACTION_SPACE.extends is not None and space == {"size": ACTION_SPACE.extends[1],
                                                          "fingerprint": ACTION_SPACE.extends[0]}


def done_shards(out: Path, manifest: dict) -> dict:
    """shard index -> its manifest entry, for the shards the manifest lists whose file is there
    and an archive (one damaged since, or gone, is played again: the same games, from their seeds)."""
    return {s["shard"]: s for s in manifest.get("shards", []) if zipfile.is_zipfile(out / s["file"])}


# --- running ------------------------------------------------------------------------------------------

def run(out: Path, cfg: dict, manifest: dict, workers=1, on_game=None, ray=None) -> dict:
    """Play the shards of the run not yet in `manifest`, each written (then the manifest) as soon
    as its games are over; `on_game(result)` hears of each game. The manifest at the end.

    In `workers` processes here, or as Ray tasks on the cluster at `ray` (an address, or "local"
    for a Ray instance started here). Games of the next shards are played while a shard is
    written (its compression takes about as long as playing half of it): two shards in hand
    here, as many as keep a cluster's CPUs busy on Ray."""
    specs = game_specs(cfg)
    done = done_shards(out, manifest)
    todo = [(j, lo, hi) for j, lo, hi in shards(cfg) if j not in done]
    size = {j: hi - lo for j, lo, hi in todo}
    buckets: dict[int, list] = {}

    def take(r):
        if on_game:
            on_game(r)
        j = r["game"] // cfg["shard_games"]
        buckets.setdefault(j, []).append(r)
        if len(buckets[j]) == size[j]:
            _write_shard(out, cfg, manifest, done, j, buckets.pop(j))

    if workers <= 1 and not ray:
        for _, lo, hi in todo:
            for spec in specs[lo:hi]:
                take(play_selfplay_game(spec))
        return manifest
    with (_RayGames(ray, workers) if ray else _LocalGames(workers)) as games:
        pending: set = set()
        queue = list(todo)

        def submit_shard():
            _, lo, hi = queue.pop(0)
            pending.update(games.submit(spec) for spec in specs[lo:hi])

        for _ in range(min(games.shards_in_hand(cfg["shard_games"]), len(queue))):
            submit_shard()
        while pending:
            finished, pending = games.wait(pending)
            for result in finished:
                written = len(done)
                take(result)
                if len(done) > written and queue:  # a shard written: another starts
                    submit_shard()
    return manifest


class _LocalGames:
    """Games played in worker processes on this machine."""

    def __init__(self, workers):
        from concurrent.futures import ProcessPoolExecutor
        self.pool = ProcessPoolExecutor(max_workers=workers)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.pool.shutdown(cancel_futures=True)

    @staticmethod
    def shards_in_hand(shard_games) -> int:
        return 2

    def submit(self, spec):
        return self.pool.submit(play_selfplay_game, spec)

    @staticmethod
    def wait(pending):
        """(results of the games that ended, the games still pending), once one has ended."""
        from concurrent.futures import FIRST_COMPLETED, wait
        finished, pending = wait(pending, return_when=FIRST_COMPLETED)
        return [f.result() for f in finished], pending


class _RayGames:
    """Games played as Ray tasks, a CPU each (agents/runner.py connects, as for tournaments)."""

    def __init__(self, address, workers):
        self.session = ray_session(address, workers)

    def __enter__(self):
        self.ray = self.session.__enter__()
        self.task = self.ray.remote(num_cpus=1)(play_selfplay_game)
        return self

    def __exit__(self, *exc):
        return self.session.__exit__(*exc)

    def shards_in_hand(self, shard_games) -> int:
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        return max(2, -(-cpus // shard_games) + 1)

    def submit(self, spec):
        return self.task.remote(spec)

    def wait(self, pending):
        done, rest = self.ray.wait(list(pending), num_returns=1)
        try:
            return [self.ray.get(ref) for ref in done], set(rest)
        except self.ray.exceptions.RayTaskError as e:  # the game's own error, without Ray's trace
            raise RuntimeError(str(e.cause) if e.cause is not None else str(e)) from None


def _write_shard(out: Path, cfg: dict, manifest: dict, done: dict, j: int, results: list) -> None:
    """Write shard j from its games' results (to a temporary name, then renamed), then the
    manifest that lists it."""
    t0 = time.perf_counter()
    arrays = shard_arrays(results)
    lo, hi = min(r["game"] for r in results), max(r["game"] for r in results) + 1
    name = shard_name(j)
    tmp = out / (name + ".tmp.npz")
    np.savez_compressed(tmp, **arrays)
    os.replace(tmp, out / name)
    done[j] = {"shard": j, "file": name, "games": [lo, hi], "positions": len(arrays["action"]),
               "seconds": round(sum(r["seconds"] for r in results) + time.perf_counter() - t0, 3)}
    manifest["shards"] = [done[k] for k in sorted(done)]
    manifest["complete"] = len(done) == len(shards(cfg))
    manifest["positions"] = sum(s["positions"] for s in manifest["shards"])
    write_manifest(out, manifest)


@click.command()
@click.option("--agents", default="greedy,greedy,random", show_default=True,
              help='Agents, one per seat (or team), repeated in turn, seatings rotated game by game, as in '
                   'tournaments: e.g. "greedy,greedy,random" or "mcts:iterations=50,greedy".')
@click.option("--players", type=click.IntRange(2, 6), default=3, show_default=True,
              help="2 to 6 (classic: 2 to 5); 2 and 6 Legendary players play in teams (R22), 4 with --teams.")
@click.option("--teams", is_flag=True, help="Team play with 4 players (2 and 6 always): one agent entry per team.")
@_TEAM_GOAL
@_RULESET
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True, help="Games to play.")
@click.option("--explore", type=FiniteRange(0.0, 1.0), default=0.1, show_default=True,
              help="Share of the decisions taken uniformly at random among the legal actions (seeded).")
@click.option("--seed", type=int, default=0, show_default=True, help="Game i is played with seed S + i.")
@click.option("--shard-games", type=click.IntRange(min=1), default=50, show_default=True,
              help="Games per NPZ shard.")
@_WORKERS
@_RAY
@click.option("--out", "out_dir", type=OutputFolder(), default=None,
              help="Directory for the shards and manifest.json (default: selfplays/selfplay-<date-time> "
                   "in the user data folder).")
@_MAX_CYCLES
@click.option("--resume", is_flag=True,
              help="Go on with the stopped run in --out (same options): its finished shards are kept.")
def selfplay(agents, players, teams, team_goal, ruleset, games, explore, seed, shard_games, workers,  # noqa: PLR0913  (one argument per option)
             ray_address, out_dir, max_cycles, resume):
    """Play games between agents and write every decision as training data: the player's
    observation vector and legal-action mask, the action taken, and the game's outcome per
    seat, in NPZ shards with a manifest (docs/selfplay.md)."""
    if np is None:
        raise click.ClickException("cyclades selfplay needs numpy and the RL encoder: "
                                   "pip install -e '.[rl]' (the game itself does not)")
    mode = _mode(players, teams, ruleset, team_goal)
    names = _check_agents(agents, mode.teams)
    cfg = config(mode, names, explore, seed, games, shard_games, max_cycles)
    con, err = _consoles()
    if resume and not out_dir:
        raise click.UsageError("--resume needs --out: the directory of the run to go on with")
    out = Path(out_dir) if out_dir else results_dir("selfplay")
    old = read_manifest(out)
    if resume:
        if old is None:
            raise click.BadParameter(f"no {MANIFEST} in {out} to go on with", param_hint="--resume")
        diff = _differences(old, cfg)
        if diff:
            raise click.BadParameter(f"{out / MANIFEST} is another run's: " + "; ".join(diff), param_hint="--resume")
        manifest = {**old, "action_space": cfg["action_space"]}
        kept = done_shards(out, old)
        if kept:
            err.print(f"{len(kept)} shard(s) of {len(shards(cfg))} already written in {out}: they are kept.",
                      markup=False, highlight=False)
    else:
        if old is not None:
            raise click.BadParameter(f"{out} already holds a self-play run ({MANIFEST}): go on with it with "
                                     f"--resume, or choose another directory", param_hint="--out")
        manifest = {**cfg, "seeds": f"game i: seed {seed} + i; {AGENT_SEEDS}; exploration seeded from the game seed",
                    "cyclades": cyclades.__version__, "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
                    "shards": [], "positions": 0, "complete": False}
    out.mkdir(parents=True, exist_ok=True)
    write_manifest(out, manifest)
    todo = sum(hi - lo for j, lo, hi in shards(cfg) if j not in done_shards(out, manifest))
    workers = workers or os.cpu_count() or 1
    t0 = time.perf_counter()
    seen = {"games": 0, "positions": 0, "seconds": 0.0}
    with run_progress(err, "per_game", "positions") as progress:
        task = progress.add_task("games", total=games, completed=games - todo, per_game="", positions="")

        def on_game(r):
            seen["games"] += 1
            seen["positions"] += len(r["action"])
            seen["seconds"] += r["seconds"]
            per = seen["seconds"] / seen["games"]
            progress.update(task, advance=1, positions=f"{seen['positions']} positions",
                            per_game=f"{per:.1f} s/game" if per >= 1 else f"{1000 * per:.0f} ms/game")

        try:
            manifest = run(out, cfg, manifest, workers=min(workers, shard_games), on_game=on_game,
                           ray=ray_address)
        except RuntimeError as e:
            raise click.ClickException(f"{e} (the shards written so far are kept: --resume goes on)") from None
    con.print(f"{seen['games']} games, {seen['positions']} positions in {time.perf_counter() - t0:.0f} s; "
              f"{manifest['positions']} positions in {len(manifest['shards'])} shard(s) in {out}",
              markup=False, soft_wrap=True)
