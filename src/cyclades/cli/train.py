"""`cyclades train`: a value network from self-play shards (docs/learned-player.md).

    cyclades train /data/r1-3p /data/r1-4t --out value.npz --report train.json --plot calibration.png

Reads the shards of one or more `cyclades selfplay` runs (format version 2 or later: each position with
the heuristic's win chances), keeps a seeded share of each game's positions (`--sample`: the
positions of a game share its outcome, so more of them teach little more), holds out the games
whose index is a multiple of `--held-out-every`, and trains agents/value.py's network with torch
on the CPU (the train extra): softmax cross-entropy of the corrected heuristic against each
game's outcome, Adam, the epoch with the best held-out loss kept. With `--search-weight`, the
target of a position a search chose leans on the search's own estimate (its root's mean reward,
format version 4). With `--policy-weight`, a policy
head learns the root visits of the search's games (format version 3 and later), or with
`--policy-target reward` the mean reward the search found for each candidate (version 4), its
cross-entropy over the candidates the search tried added to the loss with that weight. The weights are written for
numpy (agents/value.py reads them, no torch needed to play) and the report gives the held-out
log loss of the network, of the heuristic and of a uniform guess, and the network's calibration
(predicted win chance against the share of wins, in deciles).
"""
from __future__ import annotations

import json
import math
import time
from pathlib import Path

import click

from ..agents import value as vnet
from ..click_types import FiniteRange, OutputFile
from ..engine.actions import MAX_FACTIONS

FLOOR = 1e-6  # the heuristic's chances are floored before their log (as agents/value.py does)
# A kept position's arrays besides its observation (CSR rows): its prior, which factions are in
# play, its target, its game, its run (which DATA argument), whether it starts a cycle and whether
# its target holds the search's estimate (--search-weight).
ROW_ARRAYS = ("prior", "present", "target", "game", "run", "cycle_start", "estimated")
# And its search's root (CSR rows, empty where no search chose): the slots tried, their visits,
# their mean rewards (NaN in runs written before they were recorded: format version 3).
VISIT_ARRAYS = ("visit_indptr", "visit_slot", "visit_count", "visit_reward")


def next_cycle_chances(shard, cycle_column):
    """For each position, the heuristic's win chances at the first position of a later cycle of
    its game (the greedy players' continuation: what a search's rollout to the end of the cycle
    estimates), or the game's outcome if none is left."""
    import numpy as np

    cycles = shard["obs"][:, cycle_column]
    out = shard["outcome"].copy()
    starts = np.flatnonzero(np.r_[True, shard["game"][1:] != shard["game"][:-1]])
    for lo, hi in zip(starts, np.r_[starts[1:], len(cycles)]):
        c = cycles[lo:hi]
        later = np.searchsorted(c, c, side="right")  # cycles never go down within a game
        has = later < hi - lo
        out[lo:hi][has] = shard["heuristic"][lo:hi][later[has]]
    return out


def cycle_starts(shard, cycle_column):
    """Whether each position is the first of its cycle in its game: where a search with
    `rollout=1` reads the network (its rollouts stop there)."""
    import numpy as np

    game, cycle = shard["game"], shard["obs"][:, cycle_column]
    return np.r_[True, (game[1:] != game[:-1]) | (cycle[1:] != cycle[:-1])]


def root_means(shard):
    """For each position, the search's estimate of the mover's (side's) chance to win: the mean
    reward at its root, the candidates' `visit_reward` weighed by their visits (format version
    4); NaN where no search chose or the run recorded no rewards."""
    import numpy as np

    n_pos = len(shard["player"])
    if "visit_reward" not in shard:
        return np.full(n_pos, np.nan)
    position = np.repeat(np.arange(n_pos), shard["searched"])
    counts = shard["visit_count"].astype(np.float64)
    visits = np.bincount(position, weights=counts, minlength=n_pos)
    reward = np.bincount(position, weights=counts * shard["visit_reward"], minlength=n_pos)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(visits > 0, reward / visits, np.nan)


def with_search_estimate(target, prior, own_side, q):
    """Targets (rows in the mover's relative order) whose mover's side gets the search's estimate
    `q` of its chance, and the other sides the rest, each side's members sharing as the target
    had them (as the prior has them where the target gave that part nothing)."""
    import numpy as np

    def spread(mask, total):
        mine = np.where(mask, target, 0.0)
        fallback = np.where(mask, prior, 0.0)
        weights = np.where(mine.sum(1, keepdims=True) > 1e-9, mine, fallback)
        return total[:, None] * weights / np.maximum(weights.sum(1, keepdims=True), 1e-12)

    return spread(own_side, q) + spread(~own_side, 1 - q)


def _rows(shard, sides, sample, held_every, rng, outcome_weight, keep_cycle_starts=False, search_weight=0.0):
    """The positions kept from one shard: (train, held_out), each a dict of CSR observation
    rows, log-heuristic priors and targets, in the mover's relative order. The training target
    mixes the outcome (weight `outcome_weight`) with the heuristic a cycle later, and where a
    search chose, that with the search's own estimate at the root (weight `search_weight`); the
    held-out target is the outcome alone."""
    import numpy as np

    from ..agents.encoding import LAYOUT

    cycle_column = LAYOUT.index("global", "cycle")
    ahead = next_cycle_chances(shard, cycle_column)
    starts = cycle_starts(shard, cycle_column)
    searched_mean = root_means(shard)

    n_pos = len(shard["player"])
    keep = rng.random(n_pos) < sample
    held = (shard["game"] % held_every) == 0
    # keep_cycle_starts: all of them, where rollout=1 reads the network (the held-out ones stay
    # the sample, so that held-out figures compare with and without)
    trained = (keep | starts if keep_cycle_starts else keep) & ~held
    n = len(sides)
    size = {t: sides.count(t) for t in set(sides)}
    share = np.array([1.0 / size[t] for t in sides], dtype=np.float32)  # a member's part of its team's
    out = []
    side_of = np.asarray(sides)
    targets = ((np.flatnonzero(trained), outcome_weight, search_weight), (np.flatnonzero(keep & held), 1.0, 0.0))
    for rows, outcome_share, search_share in targets:
        movers = shard["player"][rows].astype(np.int64)
        order = (movers[:, None] + np.arange(n)[None, :]) % n        # row k: faction mover + k
        prior = np.take_along_axis(shard["heuristic"][rows] * share, order, 1)
        prior = prior / prior.sum(1, keepdims=True)
        mixed = outcome_share * shard["outcome"][rows] + (1 - outcome_share) * ahead[rows]
        target = np.take_along_axis(mixed * share, order, 1)
        target = target / np.maximum(target.sum(1, keepdims=True), 1e-9)
        estimate_of = searched_mean[rows]
        found = ~np.isnan(estimate_of) & (search_share > 0)
        if found.any():
            own_side = side_of[order[found]] == side_of[movers[found]][:, None]
            estimate = with_search_estimate(target[found], prior[found], own_side, estimate_of[found])
            target[found] = search_share * estimate + (1 - search_share) * target[found]
        obs = shard["obs"][rows]
        r, c = np.nonzero(obs)
        visits = _root_visits(shard, rows)
        out.append({**visits, "indptr": np.searchsorted(r, np.arange(len(rows) + 1)).astype(np.int64),
                    "indices": c.astype(np.int64), "values": obs[r, c],
                    "prior": _pad(np.log(np.maximum(prior, FLOOR))), "present": _pad(np.ones_like(prior)),
                    "target": _pad(target), "game": shard["game"][rows], "cycle_start": starts[rows],
                    "estimated": found})
    return out


def _root_visits(shard, rows) -> dict:
    """The root visits of the positions `rows` of a shard, as CSR rows (VISIT_ARRAYS); none for
    a shard written before they were recorded (format version 2)."""
    import numpy as np

    from .selfplay import visit_offsets

    if "searched" not in shard:
        return {"visit_indptr": np.zeros(len(rows) + 1, np.int64), "visit_slot": np.zeros(0, np.int64),
                "visit_count": np.zeros(0, np.float32), "visit_reward": np.zeros(0, np.float32)}
    offsets = visit_offsets(shard)
    flat = _spans(offsets[rows], offsets[rows + 1])
    return {"visit_indptr": np.concatenate(([0], np.cumsum(offsets[rows + 1] - offsets[rows]))).astype(np.int64),
            "visit_slot": shard["visit_slot"][flat].astype(np.int64),
            "visit_count": shard["visit_count"][flat].astype(np.float32),
            "visit_reward": (shard["visit_reward"][flat].astype(np.float32) if "visit_reward" in shard
                             else np.full(len(flat), np.nan, np.float32))}


def _spans(starts, ends):
    """The flat indices of CSR rows' entries: each row's [start, end) one after the other."""
    import numpy as np

    return np.concatenate([np.arange(s, e) for s, e in zip(starts, ends)] or [np.zeros(0, np.int64)])


def _dense(data, i, size):
    """Kept position i's observation vector, dense, from its CSR row."""
    import numpy as np

    s, e = data["indptr"][i], data["indptr"][i + 1]
    vec = np.zeros(size, dtype=np.float32)
    vec[data["indices"][s:e]] = data["values"][s:e]
    return vec


def _pad(a):
    import numpy as np

    out = np.zeros((len(a), MAX_FACTIONS), dtype=np.float32)
    out[:, :a.shape[1]] = a
    return out


def _join(parts):
    import numpy as np

    if not parts:
        return None

    def csr(indptr, *arrays):  # CSR rows one after the other: the later parts' offsets moved on
        offsets = np.cumsum([0] + [len(p[arrays[0]]) for p in parts[:-1]])
        return {indptr: np.concatenate([parts[0][indptr][:1]] + [p[indptr][1:] + o for p, o in zip(parts, offsets)]),
                **{k: np.concatenate([p[k] for p in parts]) for k in arrays}}

    return {**csr("indptr", "indices", "values"), **csr(*VISIT_ARRAYS),
            **{k: np.concatenate([p[k] for p in parts]) for k in ROW_ARRAYS}}


def load_runs(dirs, sample, held_every, seed, outcome_weight=1.0, echo=print, keep_cycle_starts=False,
              search_weight=0.0):
    """The training and held-out positions of the self-play runs in `dirs`."""
    import numpy as np

    from ..agents.encoding import layout_fingerprint
    from .selfplay import MANIFEST, load_shard

    rng = np.random.default_rng(seed)
    train, held, runs = [], [], []
    for spec in dirs:
        d, share = _data_spec(spec, sample)
        try:
            manifest = json.loads((d / MANIFEST).read_text())
        except (OSError, ValueError) as e:
            raise click.BadParameter(f"{d}: no readable {MANIFEST} ({e})", param_hint="DATA") from None
        if manifest.get("version", 0) < 2:
            raise click.BadParameter(f"{d}: self-play format version {manifest.get('version')} has no heuristic "
                                     f"win chances (version 2 has): play it again with this version",
                                     param_hint="DATA")
        layout = manifest["observation"]["fingerprint"]
        if layout != layout_fingerprint():
            raise click.BadParameter(f"{d}: written with the observation layout {layout}, this version's is "
                                     f"{layout_fingerprint()}", param_hint="DATA")
        sides = manifest["mode"]["sides"]
        held_games: set = set()
        for entry in manifest["shards"]:
            try:
                shard = load_shard(d / entry["file"])
            except ValueError as e:
                raise click.BadParameter(str(e), param_hint="DATA") from None
            t, h = _rows(shard, sides, share, held_every, rng, outcome_weight, keep_cycle_starts, search_weight)
            for part in (t, h):  # which run a position comes from: the held-out figures per run
                part["run"] = np.full(len(part["game"]), len(runs), dtype=np.int16)
            train.append(t)
            held.append(h)
            held_games.update(h["game"].tolist())
        runs.append({"dir": str(d), "mode": manifest["mode"]["label"], "agents": manifest["agents"],
                     "games": sum(hi - lo for lo, hi in (e["games"] for e in manifest["shards"])),
                     "positions": manifest["positions"], "sample": share, "held_out_games": len(held_games)})
        echo(f"{d}: {runs[-1]['games']} games, {manifest['positions']} positions ({manifest['mode']['label']}), "
             f"{share:.0%} of them kept")
    return _join(train), _join(held), runs


def _data_spec(spec: str, sample: float):
    """A DATA argument: a self-play directory, or DIR:SHARE to keep another share of its positions
    (the games of a newer round of expert iteration weigh more that way)."""
    path, share = spec, sample
    head, sep, tail = spec.rpartition(":")
    if sep and head and not Path(spec).exists():
        try:
            path, share = head, float(tail)
        except ValueError:
            raise click.BadParameter(f"{spec}: DIR or DIR:SHARE (a share from 0 to 1)", param_hint="DATA") from None
        if not 0 < share <= 1:
            raise click.BadParameter(f"{spec}: the share of positions must be above 0 and at most 1",
                                     param_hint="DATA")
    if not Path(path).is_dir():
        raise click.BadParameter(f"{path}: no such directory", param_hint="DATA")
    return Path(path), share


class _Batches:
    def __init__(self, data, torch, temperature=1.0, target="visits"):
        # The policy's target (normalised over the candidates): the root visits raised to
        # 1 / temperature, or ("reward") the exponential of each candidate's mean reward / temperature.
        self.data, self.torch, self.temperature, self.target = data, torch, temperature, target

    def __len__(self):
        return len(self.data["prior"])

    def batch(self, rows, scale):
        torch, d = self.torch, self.data
        starts, ends = d["indptr"][rows], d["indptr"][rows + 1]
        import numpy as np

        idx = _spans(starts, ends)
        lengths = ends - starts
        offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        cols = d["indices"][idx]
        return (torch.from_numpy(cols), torch.from_numpy(offsets.astype(np.int64)),
                torch.from_numpy(d["values"][idx] / scale[cols]),
                *(torch.from_numpy(d[k][rows]) for k in ("prior", "present", "target")))

    def visits(self, rows):
        """The root visits of `rows`, flat: (which row of the batch, slot, rank in greedy's order
        (the order they are recorded in), the policy's target share), over the rows a search chose."""
        import numpy as np

        d, torch = self.data, self.torch
        starts, ends = d["visit_indptr"][rows], d["visit_indptr"][rows + 1]
        lengths = ends - starts
        idx = _spans(starts, ends)
        row = np.repeat(np.arange(len(rows)), lengths)
        rank = np.minimum(np.arange(len(idx)) - np.repeat(np.cumsum(lengths) - lengths, lengths), vnet.RANKS - 1)
        # Each row's values are taken relative to its best before the power or the exponential:
        # a deep search's 1,000 visits to the power 20 would overflow.
        reward = self.target == "reward"
        value = d["visit_reward" if reward else "visit_count"][idx].astype(np.float64)
        best = np.full(len(rows), -np.inf)
        np.maximum.at(best, row, value)
        if reward:
            weights = np.exp((value - best[row]) / self.temperature)
        else:
            weights = (value / best[row]) ** (1.0 / self.temperature)
        totals = np.zeros(len(rows))
        np.add.at(totals, row, weights)
        return (torch.from_numpy(row.astype(np.int64)), torch.from_numpy(d["visit_slot"][idx]),
                torch.from_numpy(rank.astype(np.int64)), torch.from_numpy((weights / totals[row]).astype(np.float32)))


def slot_parts(space):
    """For each slot of an action space, the index of its kind, of its kind's `what` (a number
    per kind and word) and of its `n`: what the policy head's columns are made of in training,
    so that what is learned of one slot carries to the slots that share its kind, word or number
    (an area's slot means another place on another board)."""
    import numpy as np

    kind, what, n = (np.zeros(space.n, np.int64) for _ in range(3))
    kinds: dict = {}   # a kind's index and its first word's (a widened kind's two blocks share them)
    words = 0
    for block in space.blocks:
        if block.kind not in kinds:
            kinds[block.kind] = (len(kinds), words)
            words += max(len(block.whats), 1)
        k, first_word = kinds[block.kind]
        i = np.arange(block.size)
        ns, wheres = max(block.ns, 1), max(block.areas, 1)
        kind[block.offset:block.offset + block.size] = k
        what[block.offset:block.offset + block.size] = first_word + i // (ns * wheres)
        n[block.offset:block.offset + block.size] = block.low + i % ns
    return kind, what, n


def _model(torch, size, hidden, second, dropout, space=None):
    nn = torch.nn

    class Value(nn.Module):
        def __init__(self):
            super().__init__()
            self.obs = nn.EmbeddingBag(size, hidden, mode="sum")
            nn.init.normal_(self.obs.weight, std=0.01)
            self.prior = nn.Linear(MAX_FACTIONS, hidden)
            self.l2 = nn.Linear(hidden, second)
            self.l3 = nn.Linear(second, MAX_FACTIONS)
            nn.init.zeros_(self.l3.weight)   # untrained: the heuristic itself
            nn.init.zeros_(self.l3.bias)
            self.drop = nn.Dropout(dropout)  # the positions of a game share its outcome: easy to learn by heart
            if space is not None:  # the policy head: a bias per rank in greedy's order, and for each
                # slot a column (and a bias) summed from its kind's, its word's and its number's;
                # all zero untrained (uniform)
                self.slot_parts = [torch.from_numpy(a) for a in slot_parts(space)]
                self.policy_parts = nn.ModuleList(nn.Embedding(int(a.max()) + 1, second + 1)
                                                  for a in self.slot_parts)
                for part in self.policy_parts:
                    nn.init.zeros_(part.weight)
                self.policy_rank = nn.Parameter(torch.zeros(vnet.RANKS))

        def forward(self, cols, offsets, values, prior, present):
            """The value logits and the second hidden layer (what the policy head reads)."""
            h = self.drop(torch.relu(self.obs(cols, offsets, per_sample_weights=values) + self.prior(prior)))
            h = torch.relu(self.l2(h))
            z = self.l3(h) + prior
            return z.masked_fill(present == 0, -1e9), h

        def policy_loss(self, h, row, slot, rank, share):
            """Each searched row's cross-entropy of the head's softmax over the slots its search
            tried against the share of visits each got: (summed, rows)."""
            column = self.policy_column(slot)
            z = (h[row] * column[:, :-1]).sum(-1) + column[:, -1] + self.policy_rank[rank]
            rows = len(h)
            top = torch.full((rows,), -1e9).scatter_reduce(0, row, z.detach(), "amax")
            norm = torch.zeros(rows).index_add(0, row, torch.exp(z - top[row]))
            logp = z - top[row] - torch.log(norm[row])
            return -(share * logp).sum(), int(torch.unique(row).numel())

        def policy_column(self, slot):
            """The slots' columns (second hidden layer's size, then the bias)."""
            return sum(part(index[slot]) for part, index in zip(self.policy_parts, self.slot_parts))

    return Value()


def _loss(torch, logits, target):
    return -(target * torch.log_softmax(logits, -1)).sum(-1)


class _Objective:
    """What training minimises: the value's cross-entropy against its target, plus, with a
    policy head, `policy_weight` x the policy's cross-entropy against the root visits (a mean
    over the positions a search chose)."""

    def __init__(self, torch, model, scale, policy_weight):
        self.torch, self.model, self.scale, self.policy_weight = torch, model, scale, policy_weight

    def _sums(self, data, rows):
        """(the value loss summed over `rows`, the policy loss summed, the rows a search chose)."""
        cols, offs, vals, prior, present, target = data.batch(rows, self.scale)
        logits, h = self.model(cols, offs, vals, prior, present)
        value = _loss(self.torch, logits, target).sum()
        if not self.policy_weight:
            return value, 0.0, 0
        policy, searched = self.model.policy_loss(h, *data.visits(rows))
        return value, policy, searched

    def loss(self, data, rows):
        value, policy, searched = self._sums(data, rows)
        return value / len(rows) + self.policy_weight * policy / max(searched, 1)

    def held_out(self, data, chunk=4096) -> float:
        """The loss over a whole held-out set, without dropout."""
        import numpy as np

        self.model.eval()
        value = policy = 0.0
        searched = 0
        with self.torch.no_grad():
            for lo in range(0, len(data), chunk):
                v, pl, k = self._sums(data, np.arange(lo, min(lo + chunk, len(data))))
                value, policy, searched = value + float(v), policy + float(pl), searched + k
        self.model.train()
        return value / len(data) + self.policy_weight * policy / max(searched, 1)


def _weights(model, scale) -> dict:
    """The model's arrays as agents/value.py reads them (the first layer in float16, rescaled to
    the raw inputs; the policy head, if any, in float16 too)."""
    import numpy as np
    import torch

    def array(t, dtype=np.float32):
        return t.detach().numpy().astype(dtype)

    arrays = {"w_obs": (model.obs.weight.detach().numpy() / scale[:, None]).astype(np.float16),
              "w_prior": array(model.prior.weight.T), "b1": array(model.prior.bias),
              "w2": array(model.l2.weight.T), "b2": array(model.l2.bias),
              "w3": array(model.l3.weight.T), "b3": array(model.l3.bias)}
    if hasattr(model, "policy_parts"):  # every slot's column, summed from its parts once for all
        column = model.policy_column(torch.arange(len(model.slot_parts[0])))
        arrays["w_policy"] = array(column[:, :-1].T, np.float16)
        arrays["b_policy"] = array(column[:, -1])
        arrays["b_rank"] = array(model.policy_rank)
    return arrays


def calibration(chances, outcomes, bins=10) -> list:
    """Deciles of predicted win chance: [(low, high, positions, mean predicted, share won)]."""
    import numpy as np

    edges = np.linspace(0, 1, bins + 1)
    which = np.clip(np.digitize(chances, edges) - 1, 0, bins - 1)
    out = []
    for b in range(bins):
        m = which == b
        out.append({"low": float(edges[b]), "high": float(edges[b + 1]), "count": int(m.sum()),
                    "predicted": float(chances[m].mean()) if m.any() else None,
                    "won": float(outcomes[m].mean()) if m.any() else None})
    return out


def plot_calibration(path, table_net, table_heuristic, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 5), dpi=100)
    ax.plot([0, 1], [0, 1], color="#999", lw=1, ls="--", label="perfect calibration")
    for table, label, color in ((table_heuristic, "heuristic (today)", "#c77"), (table_net, "value network", "#27a")):
        pts = [(r["predicted"], r["won"]) for r in table if r["count"]]
        ax.plot([p for p, _ in pts], [w for _, w in pts], marker="o", color=color, label=label)
    ax.set_xlabel("predicted chance to win (decile mean)")
    ax.set_ylabel("share of those positions won")
    ax.set_title(title, fontsize=10)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


@click.command()
@click.argument("data", nargs=-1, required=True)
@click.option("--out", "out_path", type=OutputFile(), required=True,
              help="The weights file to write (NPZ; agents/value.py reads it).")
@click.option("--hidden", type=click.IntRange(4, 1024), default=128, show_default=True, help="First hidden layer.")
@click.option("--second", type=click.IntRange(4, 1024), default=64, show_default=True, help="Second hidden layer.")
@click.option("--epochs", type=click.IntRange(1, 200), default=8, show_default=True)
@click.option("--sample", type=FiniteRange(0.001, 1.0), default=0.3, show_default=True,
              help="Share of each game's positions kept (seeded).")
@click.option("--keep-cycle-starts", "cycle_starts_kept", is_flag=True,
              help="Keep the first position of every cycle whatever --sample says: where a search with "
                   "rollout=1 reads the network.")
@click.option("--held-out-every", type=click.IntRange(2, 1000), default=10, show_default=True,
              help="Games whose index is a multiple of this are held out (not trained on).")
@click.option("--outcome-weight", type=FiniteRange(0.0, 1.0), default=0.5, show_default=True,
              help="The training target: this share of the game's outcome, the rest the heuristic's win "
                   "chances a cycle later in the game (what a rollout estimates); held out: the outcome.")
@click.option("--search-weight", type=FiniteRange(0.0, 1.0), default=0.0, show_default=True,
              help="Where a search chose (self-play format version 4), this share of the training target is "
                   "the search's own estimate: the mean reward at its root for the mover's side.")
@click.option("--policy-weight", type=FiniteRange(0.0, 100.0), default=0.0, show_default=True,
              help="Train a policy head too (0: none): the root visits of the search's games, its "
                   "cross-entropy weighed by this in the loss. mcts:prior=1 reads it.")
@click.option("--policy-target", type=click.Choice(["visits", "reward"]), default="visits", show_default=True,
              help="What the policy head learns: each candidate's share of the root visits, or the mean "
                   "reward the search found for it (self-play format version 4), free of the order it widens in.")
@click.option("--policy-temperature", type=FiniteRange(0.01, 10.0), default=1.0, show_default=True,
              help="The policy's target: the root visits raised to 1 / this, or exp(mean reward / this), "
                   "normalised (lower: sharper, towards the most visited or the best).")
@click.option("--policy-lr", type=FiniteRange(1e-6, 1.0), default=1e-2, show_default=True,
              help="The policy head's learning rate.")
@click.option("--batch", type=click.IntRange(16, 65536), default=512, show_default=True)
@click.option("--lr", type=FiniteRange(1e-6, 1.0), default=1e-3, show_default=True)
@click.option("--weight-decay", type=FiniteRange(0.0, 1.0), default=1e-4, show_default=True)
@click.option("--dropout", type=FiniteRange(0.0, 0.9), default=0.3, show_default=True)
@click.option("--checks", type=click.IntRange(1, 100), default=4, show_default=True,
              help="Held-out checks per epoch: the best one is kept.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--threads", type=click.IntRange(1, 256), default=None, help="torch's CPU threads (default: torch's).")
@click.option("--report", type=OutputFile(), default=None,
              help="Write the figures (data, losses, calibration) as JSON here.")
@click.option("--plot", type=OutputFile(), default=None,
              help="Draw the held-out calibration (network and heuristic) to this PNG (needs matplotlib).")
def train(data, out_path, hidden, second, epochs, sample, cycle_starts_kept, held_out_every, outcome_weight,  # noqa: PLR0913  (one argument per option)
          search_weight, policy_weight, policy_target, policy_temperature, policy_lr, batch, lr, weight_decay,
          dropout, checks, seed, threads, report, plot):
    """Train the value network (a correction of the heuristic's win chances) from self-play
    shards and write its weights for play without torch (docs/learned-player.md)."""
    try:
        import numpy as np
        import torch
    except ImportError:
        raise click.ClickException("cyclades train needs torch: pip install torch==2.13.0 -e '.[train]'") from None
    from ..agents.encoding import ACTION_SPACE, LAYOUT

    t0 = time.perf_counter()
    torch.manual_seed(seed)
    if threads:
        torch.set_num_threads(threads)
    tr, ho, runs = load_runs(data, sample, held_out_every, seed, outcome_weight, echo=click.echo,
                             keep_cycle_starts=cycle_starts_kept, search_weight=search_weight)
    if tr is None or ho is None or not len(tr["prior"]) or not len(ho["prior"]):
        raise click.ClickException("not enough positions to train and hold out: more games, or a larger --sample")
    scale = np.ones(LAYOUT.size, dtype=np.float32)
    np.maximum.at(scale, tr["indices"], np.abs(tr["values"]))  # each input divided by its largest value
    train_set, held_set = (_Batches(part, torch, policy_temperature, policy_target) for part in (tr, ho))
    click.echo(f"{len(train_set)} positions to train on, {len(held_set)} held out "
               f"({sum(r['held_out_games'] for r in runs)} games); loaded in {time.perf_counter() - t0:.0f} s")
    refuse_missing_targets(tr, search_weight, policy_weight, policy_target)
    if search_weight:
        click.echo(f"{int(tr['estimated'].sum())} of them with the search's estimate in their target")
    model = _model(torch, LAYOUT.size, hidden, second, dropout, ACTION_SPACE if policy_weight else None)
    # The policy head learns at its own rate: the value overfits within an epoch (the best
    # checkpoint comes early), and at the value's rate the head's rank biases barely move by then.
    head = [p for name, p in model.named_parameters() if name.startswith("policy")]  # (its parts and ranks)
    trunk = [p for name, p in model.named_parameters() if not name.startswith("policy")]
    opt = torch.optim.Adam([{"params": trunk}, {"params": head, "lr": policy_lr}], lr=lr, weight_decay=weight_decay)
    gen = np.random.default_rng(seed)

    objective = _Objective(torch, model, scale, policy_weight)
    # The untrained network is the heuristic: an epoch is kept only if it does better.
    best, best_epoch, history = objective.held_out(held_set), 0, []
    best_state = {k: v.clone() for k, v in model.state_dict().items()}
    click.echo(f"held-out log loss before training (the heuristic): {best:.4f}")
    batches = -(-len(train_set) // batch)
    check_at = {round(batches * (k + 1) / checks) for k in range(checks)}  # batch counts of the checks
    for epoch in range(epochs):
        te = time.perf_counter()
        order = gen.permutation(len(train_set))
        total, seen = 0.0, 0
        for b, lo in enumerate(range(0, len(order), batch), 1):
            rows = order[lo:lo + batch]
            loss = objective.loss(train_set, rows)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss.detach()) * len(rows)
            seen += len(rows)
            if b not in check_at:
                continue
            when = round(epoch + b / batches, 2)
            loss_held = objective.held_out(held_set)
            history.append({"epoch": when, "train": total / seen, "held_out": loss_held,
                            "seconds": time.perf_counter() - te})
            click.echo(f"epoch {when}: train {total / seen:.4f}, held out {loss_held:.4f} "
                       f"({time.perf_counter() - te:.0f} s)")
            if loss_held < best:
                best, best_state, best_epoch = loss_held, {k: v.clone() for k, v in model.state_dict().items()}, when
    if best_epoch == 0:
        click.echo("no epoch did better than the heuristic on the held-out games: the network written is "
                   "the untrained one (the heuristic itself); more games or another --lr may help")
    model.load_state_dict(best_state)
    arrays = _weights(model, scale)
    figures = evaluate_held_out(arrays, ho, LAYOUT.size)
    for k, run in enumerate(runs):  # how the network does on each run's games (a new round's above all)
        run["held_out"] = figures["by_run"].get(k)
    meta = {"hidden": hidden, "second": second, "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "train": {"runs": runs, "positions": len(train_set), "held_out_positions": len(held_set),
                      "sample": sample, "keep_cycle_starts": cycle_starts_kept, "held_out_every": held_out_every,
                      "outcome_weight": outcome_weight, "search_weight": search_weight,
                      "policy_weight": policy_weight, "policy_target": policy_target,
                      "policy_temperature": policy_temperature, "policy_lr": policy_lr, "epochs": epochs,
                      "best_epoch": best_epoch, "lr": lr,
                      "weight_decay": weight_decay, "dropout": dropout, "batch": batch, "seed": seed,
                      "seconds": round(time.perf_counter() - t0, 1)},
            "held_out": {**{k: figures[k] for k in ("log_loss", "heuristic_log_loss", "uniform_log_loss")},
                         "cycle_starts": figures["cycle_starts"], "policy": figures["policy"]}}
    fingerprint = vnet.save(out_path, arrays, meta)
    echo_held_out(figures, runs)
    click.echo(f"wrote {out_path} (fingerprint {fingerprint}, {Path(out_path).stat().st_size / 1e6:.1f} MB) "
               f"in {time.perf_counter() - t0:.0f} s")
    if report:
        Path(report).write_text(json.dumps({**meta, "fingerprint": fingerprint, "history": history,
                                            "calibration": figures["calibration"],
                                            "heuristic_calibration": figures["heuristic_calibration"]},
                                           indent=1) + "\n")
    if plot:
        plot_calibration(plot, figures["calibration"], figures["heuristic_calibration"],
                         f"held-out positions ({len(held_set)}), win chance per faction")


def refuse_missing_targets(tr, search_weight, policy_weight, policy_target):
    """A target from the search asked of runs that did not record it: refused, before training."""
    import numpy as np

    if search_weight and not tr["estimated"].any():
        raise click.ClickException("--search-weight needs positions a search chose with its rewards (self-play of "
                                   "mcts agents, format version 4): these runs have none")
    if policy_weight and not len(tr["visit_slot"]):
        raise click.ClickException("--policy-weight needs positions a search chose (self-play of mcts agents, "
                                   "format version 3 and later): these runs have none")
    if policy_weight and policy_target == "reward" and np.isnan(tr["visit_reward"]).any():
        raise click.ClickException("--policy-target reward needs the mean reward of each action a search tried "
                                   "(self-play format version 4): some of these runs are older")


def echo_held_out(figures, runs):
    """The held-out log losses, all told and run by run."""
    click.echo(f"held-out log loss: network {figures['log_loss']:.4f}, heuristic {figures['heuristic_log_loss']:.4f}, "
               f"uniform {figures['uniform_log_loss']:.4f}")
    groups = [("at the cycles' first positions", figures["cycle_starts"])]
    groups += [(run["dir"], run["held_out"]) for run in runs]
    for label, h in groups:
        if h:
            click.echo(f"  {label}: network {h['log_loss']:.4f}, heuristic {h['heuristic_log_loss']:.4f} "
                       f"({h['positions']} positions)")
    p = figures.get("policy")
    if p and p["positions"]:
        click.echo(f"policy head, {p['positions']} held-out searched positions: cross-entropy {p['cross_entropy']:.4f} "
                   f"(uniform {p['uniform_cross_entropy']:.4f}); its first choice is the most visited "
                   f"{p['first_is_most_visited']:.1%} of the time, greedy's {p['greedy_first_is_most_visited']:.1%}")
        if p.get("first_is_best_mean") is not None:
            click.echo(f"  its first choice has the best mean reward {p['first_is_best_mean']:.1%} of the time, "
                       f"greedy's {p['greedy_first_is_best_mean']:.1%}")


def policy_figures(net, ho, size) -> dict:
    """The policy head on the held-out positions a search chose: its cross-entropy against the
    share of the root's visits each candidate got (and a uniform guess's), and how often its
    first choice, and greedy's (the first the search tried: its widening order), is the most
    visited, and (where the runs recorded them) has the best mean reward."""
    import numpy as np

    ce, uniform, head_first, greedy_first, searched = 0.0, 0.0, 0, 0, 0
    head_best = greedy_best = rewarded = 0
    for i in np.flatnonzero(np.diff(ho["visit_indptr"]) > 1):  # a choice among two or more
        vec = _dense(ho, i, size)
        n = int(ho["present"][i].sum())
        lo, hi = ho["visit_indptr"][i], ho["visit_indptr"][i + 1]
        slots, counts = ho["visit_slot"][lo:hi], ho["visit_count"][lo:hi]
        z = net.relative_policy_logits(vec, np.exp(ho["prior"][i][:n]), slots)
        logp = z - z.max() - np.log(np.exp(z - z.max()).sum())
        share = counts / counts.sum()
        ce -= float(share @ logp)
        uniform += math.log(len(slots))
        best = counts.max()
        head_first += counts[int(np.argmax(z))] == best
        greedy_first += counts[0] == best
        searched += 1
        rewards = ho["visit_reward"][lo:hi]
        if not np.isnan(rewards).any():
            head_best += rewards[int(np.argmax(z))] == rewards.max()
            greedy_best += rewards[0] == rewards.max()
            rewarded += 1
    if not searched:
        return {"positions": 0}
    return {"positions": searched, "cross_entropy": ce / searched, "uniform_cross_entropy": uniform / searched,
            "first_is_most_visited": head_first / searched, "greedy_first_is_most_visited": greedy_first / searched,
            "first_is_best_mean": head_best / rewarded if rewarded else None,
            "greedy_first_is_best_mean": greedy_best / rewarded if rewarded else None}


def evaluate_held_out(arrays, ho, size) -> dict:
    """The held-out figures of the network as play reads it (agents/value.py, numpy); `by_run`
    and `cycle_starts`: the network's and the heuristic's log loss on each run's held-out
    positions, and on those that start a cycle."""
    import numpy as np

    meta = {"fingerprint": vnet.arrays_fingerprint(arrays)}
    net = vnet.ValueNetwork(arrays, meta)
    chances, priors, outcomes = [], [], []
    net_losses, heuristic_losses, uniform_losses = [], [], []  # a position each
    for i in range(len(ho["prior"])):
        vec = _dense(ho, i, size)
        n = int(ho["present"][i].sum())
        prior = np.exp(ho["prior"][i][:n])
        p = net.relative_chances(vec, prior)
        target = ho["target"][i][:n]
        net_losses.append(vnet.log_loss(p, target))
        heuristic_losses.append(vnet.log_loss(prior, target))
        uniform_losses.append(vnet.log_loss([1.0 / n] * n, target))
        chances.extend(p.tolist())
        priors.extend(prior.tolist())
        outcomes.extend((target > 0).astype(float).tolist())
    m = len(ho["prior"])
    chances, priors, outcomes = map(np.array, (chances, priors, outcomes))

    def losses(where) -> dict:
        """The network's and the heuristic's mean log loss over the positions `where` says."""
        return {"positions": int(where.sum()), "log_loss": float(np.mean(np.compress(where, net_losses))),
                "heuristic_log_loss": float(np.mean(np.compress(where, heuristic_losses)))}

    cycle_start = ho["cycle_start"].astype(bool)
    return {"policy": policy_figures(net, ho, size) if net.has_policy else None,
            "log_loss": float(sum(net_losses) / m), "heuristic_log_loss": float(sum(heuristic_losses) / m),
            "uniform_log_loss": float(sum(uniform_losses) / m),
            "calibration": calibration(chances, outcomes), "heuristic_calibration": calibration(priors, outcomes),
            "by_run": {int(k): losses(ho["run"] == k) for k in np.unique(ho["run"])},
            "cycle_starts": losses(cycle_start) if cycle_start.any() else None}
