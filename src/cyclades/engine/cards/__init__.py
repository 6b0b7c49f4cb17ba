"""The behaviour of the cards: one small class per Mythological Creature or Hero.

Importing a module here registers its cards with the engine (see engine/game.py).
"""
