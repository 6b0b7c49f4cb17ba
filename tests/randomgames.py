"""Random full games for the property tests."""
import random

import cyclades


def random_game(seed, players, max_cycles=100, on_step=None, **options):
    """Play a whole game with uniformly random decisions; on_step(game, step) after each."""
    game = cyclades.new_game(players=players, seed=seed, max_cycles=max_cycles, **options)
    rng = random.Random(seed)
    step = 0
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
        step += 1
        if on_step:
            on_step(game, step)
    return game
