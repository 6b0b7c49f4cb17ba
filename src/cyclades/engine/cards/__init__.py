"""The behaviour of the cards: one small class per Mythological Creature or Hero.

Importing a module here registers its cards with the engine: engine/plugins.py lists them and
the Game loads them (`register_all()`); engine/hooks.py says where each kind of card plugs in.
"""
