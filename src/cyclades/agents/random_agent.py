"""The random agent: uniform over the legal actions, with its own generator."""
import random

from .base import Agent, who


class RandomAgent(Agent):
    """Picks uniformly among the legal actions; the same seed and the same positions give
    the same choices (its generator is its own, not the game's)."""

    name = "random"

    def __init__(self, seed=None):
        super().__init__(seed)
        self.rng = random.Random(seed)

    def act(self, game, player):
        # A fast path: the legal actions of the player to move hold nothing hidden, and
        # building the whole observation would cost more than the choice itself.
        if game.to_move != player:
            raise ValueError(f"player_{player} is not to move ({who(game.to_move)} is)")
        return self._pick(game.legal_actions())

    def choose(self, obs):
        return self._pick(obs.legal_actions())

    def _pick(self, legal):
        if not legal:
            raise ValueError("no legal action: the game is over or waits on no one")
        return legal[self.rng.randrange(len(legal))]
