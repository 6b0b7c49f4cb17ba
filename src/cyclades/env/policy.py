"""A trained policy as an agent: `make_agent("ppo:path=DIR")` plays the MaskablePPO policy that
examples/train_maskable_ppo.py wrote to DIR, in tournaments, ladders, the server's seats and any
game loop, like the project's own bots.

    cyclades ladder --agents random,beginner,casual,strong,"ppo:path=out/maskable_ppo"
    agent = make_agent("ppo:path=out/maskable_ppo", seed=1)   # then agent.act(game, player)

DIR holds what the example writes: `model.zip` (the policy, sb3-contrib's `MaskablePPO.save`),
`vecnormalize.pkl` (the observation scaling it was trained with, Stable-Baselines3's
`VecNormalize`) and `slots.json` (its compact action space: the slots it has logits for, then
"another legal action"; without the file, the whole fixed action space). Options:
`deterministic=1` plays the most likely legal action instead of sampling one (a deterministic
policy can loop, repeating a move and its cancellation), `threads` the torch threads (1).

It sees what its player sees: the observation vector is built from `game.view(player)` (R24),
as the environments build it, for any seat and mode (the vector is relative to its player);
a policy trained on one mode plays the others with the slots it knows, the rest through
"another legal action". Sampling uses the agent's own generator (its seed): the same seed and
positions give the same moves. Loaded models are kept per process, so the games of a tournament
load each file once. Needs the `train` extra (torch, sb3-contrib).
"""
from __future__ import annotations

import json
import pickle
from pathlib import Path

import numpy as np

from ..agents.base import Agent, who
from ..agents.encoding import ACTION_SPACE, ObservationEncoder


class Policy:
    """The parts of a trained policy an agent plays with: the network (`policy`, an sb3-contrib
    MaskableActorCriticPolicy), the observation scaling (mean, variance, clip, epsilon) and the
    compact action space's slots (None: the full space)."""

    def __init__(self, policy, mean=None, var=None, clip=10.0, epsilon=1e-8, slots=None, source=""):
        self.policy = policy
        self.mean = None if mean is None else np.asarray(mean, dtype=np.float32)
        self.scale = None if var is None else np.sqrt(np.asarray(var, dtype=np.float64) + epsilon).astype(np.float32)
        self.clip = float(clip)
        self.slots = None if slots is None else np.asarray(slots, dtype=np.int64)
        self.source = source
        self.outside = None
        if self.slots is not None:
            self.outside = np.ones(ACTION_SPACE.n, dtype=bool)
            self.outside[self.slots] = False

    @classmethod
    def from_model(cls, model, scaling=None, slots=None, source=""):
        """From a MaskablePPO model and a VecNormalize (or its `obs_rms`), as training has them."""
        rms = getattr(scaling, "obs_rms", scaling)
        clip = getattr(scaling, "clip_obs", 10.0)
        eps = getattr(scaling, "epsilon", 1e-8)
        return cls(model.policy, None if rms is None else rms.mean, None if rms is None else rms.var,
                   clip, eps, slots, source)

    def scaled(self, x: np.ndarray) -> np.ndarray:
        if self.mean is None or self.scale is None:
            return x
        return np.clip((x - self.mean) / self.scale, -self.clip, self.clip)

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The policy's probability of each action of its space (compact or full), masked."""
        import torch
        with torch.no_grad():
            obs = torch.as_tensor(self.scaled(x)[None, :])
            dist = self.policy.get_distribution(obs, action_masks=mask[None, :])
            return dist.distribution.probs[0].numpy().astype(np.float64)


_LOADED: dict = {}


def load_policy(path, threads=1) -> Policy:
    """The policy in directory `path` (model.zip, vecnormalize.pkl, slots.json), loaded once per
    process; a ValueError naming what is missing."""
    d = Path(path).expanduser()
    model_file = d / "model.zip" if d.is_dir() else d
    if not model_file.is_file():
        raise ValueError(f"ppo: no model.zip in {d} (path= is the directory examples/train_maskable_ppo.py "
                         f"wrote with --out)")
    key = (str(model_file.resolve()), model_file.stat().st_mtime_ns)
    if key in _LOADED:
        return _LOADED[key]
    try:
        import torch
        from gymnasium.spaces import Discrete
        from sb3_contrib import MaskablePPO
    except ImportError as e:
        raise ValueError("ppo agents need torch and sb3-contrib: pip install 'cyclades[rl,train]'") from e
    torch.set_num_threads(int(threads))
    model = MaskablePPO.load(str(model_file), device="cpu")
    scaling = None
    norm_file = model_file.parent / "vecnormalize.pkl"
    if norm_file.is_file():
        with open(norm_file, "rb") as fh:
            scaling = pickle.load(fh)
    slots_file = model_file.parent / "slots.json"
    slots = json.loads(slots_file.read_text()) if slots_file.is_file() else None
    expected = ACTION_SPACE.n if slots is None else len(slots) + 1
    if not isinstance(model.action_space, Discrete):
        raise ValueError(f"ppo: {model_file} has a {type(model.action_space).__name__} action space, "
                         f"not the discrete one of the project's environments")
    n_actions = int(model.action_space.n)
    if n_actions != expected:
        raise ValueError(f"ppo: {model_file} has {n_actions} actions, but "
                         f"{'the fixed action space' if slots is None else 'slots.json'} gives {expected}")
    policy = Policy.from_model(model, scaling, slots, source=str(model_file.parent))
    _LOADED[key] = policy
    return policy


class PolicyAgent(Agent):
    """A trained policy playing a seat: "ppo:path=DIR" (the module's docstring). Or made from a
    `Policy` in memory (`PolicyAgent(policy=...)`): the training example's league of past
    policies plays its frozen copies so."""

    name = "ppo"

    def __init__(self, seed=None, path=None, deterministic=False, threads=1, policy=None):
        super().__init__(seed)
        if policy is None and path is None:
            raise ValueError("ppo needs path=DIR, the directory of a trained policy (model.zip)")
        self.path = None if path is None else str(path)
        self.deterministic = bool(int(deterministic))
        self.threads = int(threads)
        self.model = policy if policy is not None else load_policy(self.path, self.threads)
        self.rng = np.random.default_rng(seed)
        self.encoder = ObservationEncoder()

    def act(self, game, player):
        """The policy's choice for `player`, from that player's view only (R24)."""
        if game.to_move != player:
            raise ValueError(f"player_{player} is not to move ({who(game.to_move)} is)")
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        x = self.encoder.encode(game, player)
        slots = {ACTION_SPACE.encode(a, game.board): a for a in legal}
        full = np.zeros(ACTION_SPACE.n, dtype=bool)
        full[list(slots)] = True
        m = self.model
        mask = full if m.slots is None else np.append(full[m.slots], (full & m.outside).any())
        p = m.probabilities(x, mask)
        p = np.where(mask, p, 0.0)
        k = int(np.argmax(p)) if self.deterministic else int(self.rng.choice(len(p), p=p / p.sum()))
        if m.slots is None:
            return slots[k]
        if k < len(m.slots):
            return slots[int(m.slots[k])]
        others = np.flatnonzero(full & m.outside)   # "another legal action": one of the others
        return slots[int(others[self.rng.integers(len(others))])]
