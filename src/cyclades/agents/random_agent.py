"""The random agent: uniform over the legal actions, with its own generator."""
import random

from .base import Agent, register


@register("random")
class RandomAgent(Agent):
    """Picks uniformly among `game.legal_actions()`; the same seed and the same
    positions give the same choices (its generator is its own, not the game's)."""

    name = "random"

    def __init__(self, seed=None):
        self.seed = seed
        self.rng = random.Random(seed)

    def act(self, game, player):
        legal = game.legal_actions()
        if not legal:
            raise ValueError("no legal action: the game is over or waits on no one")
        return legal[self.rng.randrange(len(legal))]
