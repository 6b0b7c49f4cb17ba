"""The value network: each faction's chance to win a position, learned from self-play.

A small multilayer perceptron read with numpy (no torch at play time). Its inputs are the
observation vector of the player to move (agents/encoding.py, the vector the RL environments
hand out, relative to that player: row k is the faction k seats later) and the heuristic's win
chances (evaluation.win_chances) in the same order. It outputs a correction to the heuristic:

    chance = softmax over the factions in play of (log heuristic + MLP(observation, log heuristic))

so an untrained network is the heuristic, and training (cli/train.py, from `cyclades selfplay`
shards) learns where the heuristic misjudges who wins. In team play a faction's chance is its
team's (the sum over its members), as evaluation.win_chances gives it.

The observation is 95% zeros, and half of what is not is the board's fixed facts: the first
layer's sum over the board's part is computed once per board, and for each position only the
rows of its other nonzero inputs are added (the encoder gives them as a sparse dict).

A weights file is an NPZ archive (no pickle): the layers' arrays and `meta`, a JSON text that
names the format, the observation layout's fingerprint and size, the layer sizes, how the
weights were trained, and `fingerprint`, a hash of the arrays. `load` refuses, naming the file,
a file that is not one, another format version, another observation layout, arrays whose hash
is not the recorded one (a corrupt file), or shapes that do not fit. The package ships one
(`weights/value.npz`, made by `cyclades train`: docs/learned-player.md), and SHIPPED_FINGERPRINT
says which: a test checks that the file shipped is that one.
"""
from __future__ import annotations

import hashlib
import json
import math
import zipfile
from functools import lru_cache
from pathlib import Path

FORMAT = "cyclades-value"
VERSION = 1
SHIPPED = Path(__file__).parent / "weights" / "value.npz"
SHIPPED_FINGERPRINT = "91773b40fb3c487f"  # the hash of the shipped arrays (cyclades train prints it)
ARRAYS = ("w_obs", "w_prior", "b1", "w2", "b2", "w3", "b3")


class WeightsError(ValueError):
    """A weights file that cannot be used: its path and what is wrong with it are in the message."""


def arrays_fingerprint(arrays: dict) -> str:
    """A hash of the network's arrays (their names, shapes, dtypes and bytes)."""
    h = hashlib.sha256()
    for name in ARRAYS:
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
        self.encoder = ObservationEncoder(LAYOUT)
        self._boards: dict = {}  # id(board) -> (board, its fixed facts' part of the first layer)
        self._np = np

    def relative_chances(self, vec, prior):
        """Win chances of the factions in play (row k: the faction k seats after the viewer),
        from the viewer's observation `vec` and the heuristic's chances `prior` in that order."""
        return self._chances(self._product(vec), prior)

    def _product(self, vec):
        """The first layer's product with a dense observation vector, over its nonzero entries
        only (a few hundred of 9,212). Besides being cheaper, the small product stays on one
        thread: the full one made OpenBLAS wake its threads, which then spin on the other core
        for a tenth of a second, CPU time a decision was charged for."""
        nz = self._np.flatnonzero(vec)
        return vec[nz] @ self.w_obs[nz]

    def _chances(self, first, prior):
        """The chances from the observation's part of the first layer (`first`: its weights'
        rows summed, each times its input) and the prior."""
        np = self._np
        n = len(prior)
        logp = np.log(np.maximum(np.asarray(prior, dtype=np.float32), 1e-6))
        padded = np.zeros(self.factions, dtype=np.float32)
        padded[:n] = logp
        h = first + padded @ self.w_prior + self.b1
        np.maximum(h, 0, out=h)
        h = h @ self.w2 + self.b2
        np.maximum(h, 0, out=h)
        z = (h @ self.w3 + self.b3)[:n] + logp
        z = np.exp(z - z.max())
        return z / z.sum()

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

    def win_chances(self, game, prior=None) -> list:
        """Each faction's chance to win `game` (in faction order; in team play its team's), the
        result itself if the game is over. Read from the view of the player to move (of faction
        0 when no one is), whose observation is all the network sees besides the heuristic."""
        from . import evaluation as ev

        if game.is_over:
            return ev.win_chances(game)
        s = game.state
        n = s.n
        if prior is None:
            prior = ev.win_chances(game)
        viewer = game.to_move if isinstance(game.to_move, int) and game.to_move >= 0 else 0
        side = ev.sides(game)
        if game.teams:  # the heuristic gives each member its team's chance: share it out
            size = {t: side.count(t) for t in set(side)}
            prior = [prior[q] / size[side[q]] for q in range(n)]
        rel = [prior[(viewer + k) % n] for k in range(n)]
        p = self._chances(self._first_layer(game, viewer), rel)
        chance = [0.0] * n
        for k in range(n):
            chance[(viewer + k) % n] = float(p[k])
        if game.teams:
            team: dict = {}
            for q in range(n):
                team[side[q]] = team.get(side[q], 0.0) + chance[q]
            chance = [team[side[q]] for q in range(n)]
        return chance


def save(path, arrays: dict, meta: dict) -> str:
    """Write a weights file (the arrays of ARRAYS and `meta`, completed with the format, the
    layout and the arrays' fingerprint); the fingerprint."""
    import numpy as np

    from .encoding import LAYOUT, layout_fingerprint

    meta = dict(meta, format=FORMAT, version=VERSION,
                observation={"size": LAYOUT.size, "fingerprint": layout_fingerprint()},
                fingerprint=arrays_fingerprint(arrays))
    path = Path(path)
    tmp = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(tmp, meta=np.array(json.dumps(meta, sort_keys=True)),
                        **{k: arrays[k] for k in ARRAYS})
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
    from .encoding import LAYOUT, layout_fingerprint

    try:
        with np.load(path, allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except FileNotFoundError:
        raise WeightsError(f"{path}: no such weights file") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:  # not a zip, truncated, a pickle...
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
    found = arrays_fingerprint(arrays)
    if found != meta.get("fingerprint"):
        raise WeightsError(f"{path}: its arrays hash to {found}, its record says "
                           f"{meta.get('fingerprint')}: the file is corrupt")
    shapes = {k: arrays[k].shape for k in ARRAYS}
    hidden, second = shapes["b1"][0], shapes["b2"][0]
    factions = shapes["b3"][0]
    expected = {"w_obs": (LAYOUT.size, hidden), "w_prior": (factions, hidden), "b1": (hidden,),
                "w2": (hidden, second), "b2": (second,), "w3": (second, factions), "b3": (factions,)}
    if shapes != expected:
        raise WeightsError(f"{path}: layer shapes {shapes} do not fit together ({expected})")
    if not all(np.isfinite(a).all() for a in arrays.values()):
        raise WeightsError(f"{path}: weights that are not finite numbers")
    return ValueNetwork(arrays, meta, path)


def log_loss(chances, outcome) -> float:
    """The log loss of win chances against an outcome (both per faction; the outcome's shares of
    a win sum to one): minus the log of the chance given to the winner(s)."""
    return -sum(o * math.log(max(c, 1e-9)) for c, o in zip(chances, outcome) if o > 0)
