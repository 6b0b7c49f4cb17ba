"""Reinforcement-learning environments for Cyclades (docs/rl.md).

- `cyclades.env.encoding`: the fixed action space (`encode`, `decode`, `ACTION_SPACE`) and the
  observation vector (`ObservationEncoder`, `describe_observation`); needs numpy only.
- `cyclades.env.pettingzoo`: a PettingZoo AEC environment (`env()`, `raw_env()`).
- `cyclades.env.gym`: a Gymnasium single-agent environment against `cyclades.agents` bots.
- `cyclades.env.openspiel`: an OpenSpiel game, registered as "cyclades" on import.

Install the extras with `pip install cyclades[rl]` (and `cyclades[openspiel]`).
"""
from .encoding import (ACTION_SPACE, LAYOUT, ActionSpace, ActionSpaceError, EncodingError,
                       ObservationEncoder, decode, describe_observation, encode, final_rewards,
                       legal_mask)

__all__ = ["ACTION_SPACE", "LAYOUT", "ActionSpace", "ActionSpaceError", "EncodingError",
           "ObservationEncoder", "decode", "describe_observation", "encode", "final_rewards",
           "legal_mask"]
