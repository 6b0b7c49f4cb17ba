"""Reinforcement-learning environments for Cyclades (docs/rl.md).

- `cyclades.agents.encoding`: the fixed action space (`encode`, `decode`, `ACTION_SPACE`) and the
  observation vector (`ObservationEncoder`, `describe_observation`); needs numpy only.
- `cyclades.env.pettingzoo`: a PettingZoo AEC environment (`env()`, `raw_env()`).
- `cyclades.env.gym`: a Gymnasium single-agent environment against `cyclades.agents` bots;
  `make_vector_env(n, asynchronous=...)` runs n of them as a Gymnasium vector environment.
- `cyclades.env.incremental`: the fast path the environments observe with (`GameEncoder`: the
  same vectors and masks, rewritten only where the position changed).
- `cyclades.env.openspiel`: an OpenSpiel game, registered as "cyclades" on import.

Install the extras with `pip install cyclades[rl]` (and `cyclades[openspiel]`).
"""
from ..agents.encoding import (
    ACTION_SPACE,
    LAYOUT,
    ActionSpace,
    ActionSpaceError,
    EncodingError,
    ObservationEncoder,
    decode,
    describe_observation,
    encode,
    final_rewards,
    legal_mask,
)

__all__ = ["ACTION_SPACE", "LAYOUT", "ActionSpace", "ActionSpaceError", "EncodingError",
           "ObservationEncoder", "decode", "describe_observation", "encode", "final_rewards",
           "legal_mask", "make_vector_env"]


def make_vector_env(n=1, asynchronous=False, **options):
    """n Gymnasium environments (`cyclades.env.gym.CycladesEnv(**options)`) as one
    `SyncVectorEnv`, or `AsyncVectorEnv` with `asynchronous=True`; needs the `rl` extra.
    See `cyclades.env.gym.make_vector_env`."""
    from .gym import make_vector_env as make
    return make(n, asynchronous=asynchronous, **options)
