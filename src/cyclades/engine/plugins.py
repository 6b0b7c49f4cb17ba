"""The one list of the modules that plug into the engine: the rule modules and the cards.

Each fills, as it loads, the hooks and tables declared where the engine asks them (engine/hooks.py
says how: `@handler`, `@effect`, `@power`, `@plugs`, `menu_item`, `after_chance`). Importing this
module loads them all; the Game imports it. Adding a card module means adding it here. The order
of these imports decides nothing: a hook's functions run in an order of their own (by owner, and
`after`), and the turn menu's order is `turns.MENU_ORDER`.
"""
from __future__ import annotations

# The rules, one module per part of the rulebook (each registers its frames), and the classic
# ruleset's variants of them (R1).
from . import (  # noqa: F401
    battle,
    chance,
    classic,
    creatures,
    cycle,
    heroes,
    maintenance,
    metropolis,
    moves,
    offerings,
    setup,
    turns,
)

# The cards: one small class per creature or hero.
from .cards import creatures as creature_cards  # noqa: F401  (creature effects)
from .cards import heroes as hero_cards  # noqa: F401  (hero powers and the Minotaur)
from .cards import miniatures  # noqa: F401  (creatures with a miniature)


def register_all() -> None:
    """Nothing left to do: importing this module loaded every rule module and card."""
