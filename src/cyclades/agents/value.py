"""The value network: each faction's chance to win a position, learned from self-play.

A small multilayer perceptron read with numpy (no torch at play time). Its inputs are the
observation vector of the player to move (agents/encoding.py, the vector the RL environments
hand out, relative to that player: row k is the faction k seats later) and the heuristic's win
chances (evaluation.win_chances) in the same order. It outputs a correction to the heuristic:

    chance = softmax over the factions in play of (log heuristic + MLP(observation, log heuristic))

so an untrained network is the heuristic, and training (cli/train.py, from `cyclades selfplay`
shards) learns where the heuristic misjudges who wins. In team play a faction's chance is its
team's (the sum over its members), as evaluation.win_chances gives it.

A network may also have a policy head: the search's prior over the candidates of its root
(PUCT: mcts.py's `prior=1`), trained on the root visits of the search's own games. As the value
corrects the heuristic, the policy corrects greedy's ranking (the order the search widens in): a
candidate's logit is a bias for its rank in that order plus, from the second hidden layer, a
learned term for its slot of the fixed action space (encoding.py's ACTION_SPACE; in training,
each slot's column is the sum of its kind's, its word's and its number's); softmaxed over the
candidates. A network without one is still valid.

The observation is 95% zeros, and half of what is not is the board's fixed facts: the first
layer's sum over the board's part is computed once per board, and for each position only the
rows of its other nonzero inputs are added (the encoder gives them as a sparse dict).

A weights file is an NPZ archive (no pickle): the layers' arrays and `meta`, a JSON text that
names the format, the observation layout's fingerprint and size, the layer sizes, how the
weights were trained, and `fingerprint`, a hash of the arrays. `load` refuses, naming the file,
a file that is not one, another format version, another observation layout, arrays whose hash
is not the recorded one (a corrupt file), shapes that do not fit, or a policy head trained on
another action space. The package ships one
(`weights/value.npz`, made by `cyclades train`: docs/learned-player.md), and SHIPPED_FINGERPRINT
says which: a test checks that the file shipped is that one.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import zipfile
from functools import lru_cache
from pathlib import Path

FORMAT = "cyclades-value"
VERSION = 1
SHIPPED = Path(__file__).parent / "weights" / "value.npz"
SHIPPED_FINGERPRINT = "91773b40fb3c487f"  # the hash of the shipped arrays (cyclades train prints it)
ARRAYS = ("w_obs", "w_prior", "b1", "w2", "b2", "w3", "b3")
POLICY_ARRAYS = ("w_policy", "b_policy", "b_rank")  # optional: the policy head (see above)
RANKS = 16  # the policy's rank biases: greedy's first 15 candidates, and one for all after them


class WeightsError(ValueError):
    """A weights file that cannot be used: its path and what is wrong with it are in the message."""


def arrays_fingerprint(arrays: dict) -> str:
    """A hash of the network's arrays (their names, shapes, dtypes and bytes)."""
    h = hashlib.sha256()
    for name in ARRAYS + tuple(k for k in POLICY_ARRAYS if k in arrays):
        a = arrays[name]
        h.update(f"{name}:{a.shape}:{a.dtype.str}:".encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


class ValueNetwork:
    """A trained network (`load(path)`); `win_chances(game)` per faction, in faction order."""

    def __init__(self, arrays: dict, meta: dict, path=None):
        import numpy as np

        from .encoding import LAYOUT, ObservationEncoder

        self.path, self.meta = path, meta
        self.fingerprint = meta["fingerprint"]
        # float32 at play time (the file may store float16 to stay small)
        self.w_obs = arrays["w_obs"].astype(np.float32)
        self.w_prior = arrays["w_prior"].astype(np.float32)
        self.b1 = arrays["b1"].astype(np.float32)
        self.w2, self.b2 = arrays["w2"].astype(np.float32), arrays["b2"].astype(np.float32)
        self.w3, self.b3 = arrays["w3"].astype(np.float32), arrays["b3"].astype(np.float32)
        self.factions = self.w3.shape[1]
        # the policy head (None without one): a row and a bias per action slot, a bias per rank
        self.policy_head = None
        if "w_policy" in arrays:
            self.policy_head = (arrays["w_policy"].astype(np.float32).T.copy(),
                                arrays["b_policy"].astype(np.float32), arrays["b_rank"].astype(np.float32))
        self.encoder = ObservationEncoder(LAYOUT)
        self._boards: dict = {}  # id(board) -> (board, its fixed facts' part of the first layer)
        self._np = np

    def relative_chances(self, vec, prior):
        """Win chances of the factions in play (row k: the faction k seats after the viewer),
        from the viewer's observation `vec` and the heuristic's chances `prior` in that order."""
        return self._chances(self._product(vec), prior)

    def relative_policy_logits(self, vec, prior, slots):
        """The policy head's logits of candidates (their action slots, in greedy's order), from
        the viewer's observation `vec` and the heuristic's chances `prior` in its order."""
        h, _ = self._hidden(self._product(vec), prior)
        return self.policy_logits(h, slots)

    def _product(self, vec):
        """The first layer's product with a dense observation vector, over its nonzero entries
        only (a few hundred of 9,212). Besides being cheaper, the small product stays on one
        thread: the full one made OpenBLAS wake its threads, which then spin on the other core
        for a tenth of a second, CPU time a decision was charged for."""
        nz = self._np.flatnonzero(vec)
        return vec[nz] @ self.w_obs[nz]

    def _hidden(self, first, prior):
        """The second hidden layer, from the observation's part of the first layer (`first`: its
        weights' rows summed, each times its input) and the prior; and the prior's log."""
        np = self._np
        n = len(prior)
        logp = np.log(np.maximum(np.asarray(prior, dtype=np.float32), 1e-6))
        padded = np.zeros(self.factions, dtype=np.float32)
        padded[:n] = logp
        h = first + padded @ self.w_prior + self.b1
        np.maximum(h, 0, out=h)
        h = h @ self.w2 + self.b2
        np.maximum(h, 0, out=h)
        return h, logp

    def _chances(self, first, prior):
        """The chances from the observation's part of the first layer and the prior."""
        np = self._np
        h, logp = self._hidden(first, prior)
        z = (h @ self.w3 + self.b3)[:len(prior)] + logp
        z = np.exp(z - z.max())
        return z / z.sum()

    @property
    def has_policy(self) -> bool:
        return self.policy_head is not None

    def _first_layer(self, game, viewer):
        """The observation's part of the first layer for `viewer`: the board's fixed facts'
        part, computed once per board, plus the position's few entries (encoding.py's
        `sparse_position`): the same sum as the dense vector's, at a fraction of the cost."""
        np = self._np
        board = game.board
        hit = self._boards.get(id(board))
        if hit is None or hit[0] is not board:
            if len(self._boards) > 64:
                self._boards.clear()
            hit = self._boards[id(board)] = (board, self._product(self.encoder.board_vector(board)))
        entries = self.encoder.sparse_position(game.view(viewer), board, game.options, viewer)
        index = np.fromiter(entries.keys(), dtype=np.intp, count=len(entries))
        values = np.fromiter(entries.values(), dtype=np.float32, count=len(entries))
        return hit[1] + values @ self.w_obs[index]

    def _relative_prior(self, game, prior):
        """The heuristic's chances (`prior`, or computed) as the trunk reads them: a member's
        share of its team's in team play, row k the faction k seats after the viewer; and the
        viewer (the player to move, faction 0 when no one is)."""
        from . import evaluation as ev

        n = game.state.n
        if prior is None:
            prior = ev.win_chances(game)
        viewer = game.to_move if isinstance(game.to_move, int) and game.to_move >= 0 else 0
        if game.teams:  # the heuristic gives each member its team's chance: share it out
            side = ev.sides(game)
            size = {t: side.count(t) for t in set(side)}
            prior = [prior[q] / size[side[q]] for q in range(n)]
        return [prior[(viewer + k) % n] for k in range(n)], viewer

    def policy(self, game, actions) -> list:
        """The policy head's chances of `actions` (legal for the player to move in `game`, in
        greedy's order: the first is its choice), softmaxed over them; uniform for a network
        without a policy head."""
        if not self.has_policy:
            return [1.0 / len(actions)] * len(actions)
        from .encoding import ACTION_SPACE

        np = self._np
        rel, viewer = self._relative_prior(game, None)
        h, _ = self._hidden(self._first_layer(game, viewer), rel)
        z = self.policy_logits(h, [ACTION_SPACE.encode(a, game.board) for a in actions])
        z = np.exp(z - z.max())
        return (z / z.sum()).tolist()

    def policy_logits(self, hidden, slots):
        """The policy head's logits of candidates (their action slots, in greedy's order) from
        the second hidden layer."""
        if self.policy_head is None:
            raise ValueError(f"{self.path or 'this network'}: no policy head")
        rows, slot_bias, rank_bias = self.policy_head
        ranks = self._np.minimum(self._np.arange(len(slots)), RANKS - 1)
        return rows[slots] @ hidden + slot_bias[slots] + rank_bias[ranks]

    def win_chances(self, game, prior=None) -> list:
        """Each faction's chance to win `game` (in faction order; in team play its team's), the
        result itself if the game is over. Read from the view of the player to move (of faction
        0 when no one is), whose observation is all the network sees besides the heuristic."""
        from . import evaluation as ev

        if game.is_over:
            return ev.win_chances(game)
        n = game.state.n
        rel, viewer = self._relative_prior(game, prior)
        p = self._chances(self._first_layer(game, viewer), rel)
        chance = [0.0] * n
        for k in range(n):
            chance[(viewer + k) % n] = float(p[k])
        if game.teams:
            side = ev.sides(game)
            team: dict = {}
            for q in range(n):
                team[side[q]] = team.get(side[q], 0.0) + chance[q]
            chance = [team[side[q]] for q in range(n)]
        return chance


def save(path, arrays: dict, meta: dict) -> str:
    """Write a weights file (the arrays of ARRAYS, and of POLICY_ARRAYS if given, and `meta`,
    completed with the format, the layouts and the arrays' fingerprint); the fingerprint."""
    import numpy as np

    from .encoding import ACTION_SPACE, LAYOUT, layout_fingerprint

    names = ARRAYS + tuple(k for k in POLICY_ARRAYS if k in arrays)
    meta = dict(meta, format=FORMAT, version=VERSION,
                observation={"size": LAYOUT.size, "fingerprint": layout_fingerprint()},
                fingerprint=arrays_fingerprint(arrays))
    if "w_policy" in arrays:  # a policy head's slots are the action space's
        meta["action_space"] = {"size": ACTION_SPACE.n, "fingerprint": ACTION_SPACE.fingerprint}
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, meta=np.array(json.dumps(meta, sort_keys=True)),
                        **{k: arrays[k] for k in names})
    tmp.replace(path)
    return meta["fingerprint"]


def load(path=None) -> ValueNetwork:
    """The network of a weights file (the shipped one by default); WeightsError if it cannot be
    used, naming the file and the reason."""
    path = Path(path) if path is not None else SHIPPED
    return _load(str(path.resolve()))


@lru_cache(maxsize=4)
def _load(path: str) -> ValueNetwork:
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - numpy is a dependency of the package
        raise WeightsError(f"{path}: reading a value network needs numpy") from None
    from .encoding import ACTION_SPACE, LAYOUT, layout_fingerprint

    if not os.path.isfile(path):
        raise WeightsError(f"{path}: {'a folder, not a' if os.path.isdir(path) else 'no such'} weights file")
    if not zipfile.is_zipfile(path):  # (numpy would take it for a pickle, and say so)
        raise WeightsError(f"{path}: not a weights file: an NPZ archive, as `cyclades train` writes, was expected")
    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:  # a damaged archive, a pickle inside
        raise WeightsError(f"{path}: not a readable weights file (NPZ): {e}") from None
    try:
        meta = json.loads(str(arrays.pop("meta")))
    except (KeyError, ValueError):
        raise WeightsError(f"{path}: no readable 'meta' record: not a {FORMAT} file") from None
    if meta.get("format") != FORMAT or meta.get("version") != VERSION:
        raise WeightsError(f"{path}: format {meta.get('format')!r} version {meta.get('version')!r}, "
                           f"this version of cyclades reads {FORMAT!r} version {VERSION}")
    obs = meta.get("observation") or {}
    if obs.get("fingerprint") != layout_fingerprint() or obs.get("size") != LAYOUT.size:
        raise WeightsError(f"{path}: trained on the observation layout {obs.get('fingerprint')!r} "
                           f"({obs.get('size')} numbers); this version's layout is "
                           f"{layout_fingerprint()!r} ({LAYOUT.size} numbers): retrain it "
                           f"(cyclades train)")
    missing = [k for k in ARRAYS if k not in arrays]
    if missing:
        raise WeightsError(f"{path}: arrays {missing} missing")
    policy = [k for k in POLICY_ARRAYS if k in arrays]
    if policy and len(policy) < len(POLICY_ARRAYS):
        raise WeightsError(f"{path}: a policy head needs {list(POLICY_ARRAYS)}, it has {policy}")
    space = meta.get("action_space") or {}
    if policy and (space.get("fingerprint") != ACTION_SPACE.fingerprint or space.get("size") != ACTION_SPACE.n):
        raise WeightsError(f"{path}: its policy head was trained on the action space {space.get('fingerprint')!r} "
                           f"({space.get('size')} slots); this version's is {ACTION_SPACE.fingerprint!r} "
                           f"({ACTION_SPACE.n} slots): retrain it (cyclades train)")
    found = arrays_fingerprint(arrays)
    if found != meta.get("fingerprint"):
        raise WeightsError(f"{path}: its arrays hash to {found}, its record says "
                           f"{meta.get('fingerprint')}: the file is corrupt")
    shapes = {k: arrays[k].shape for k in ARRAYS + tuple(policy)}
    hidden, second = shapes["b1"][0], shapes["b2"][0]
    factions = shapes["b3"][0]
    expected = {"w_obs": (LAYOUT.size, hidden), "w_prior": (factions, hidden), "b1": (hidden,),
                "w2": (hidden, second), "b2": (second,), "w3": (second, factions), "b3": (factions,)}
    if policy:
        expected.update(w_policy=(second, ACTION_SPACE.n), b_policy=(ACTION_SPACE.n,), b_rank=(RANKS,))
    if shapes != expected:
        raise WeightsError(f"{path}: layer shapes {shapes} do not fit together ({expected})")
    if not all(np.isfinite(a).all() for a in arrays.values()):
        raise WeightsError(f"{path}: weights that are not finite numbers")
    return ValueNetwork(arrays, meta, path)


def log_loss(chances, outcome) -> float:
    """The log loss of win chances against an outcome (both per faction; the outcome's shares of
    a win sum to one): minus the log of the chance given to the winner(s)."""
    return -sum(o * math.log(max(c, 1e-9)) for c, o in zip(chances, outcome) if o > 0)
