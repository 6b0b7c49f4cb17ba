"""The one list of the modules that plug into the engine, and `register_all()`, which the Game
calls before it plays.

engine/hooks.py declares every extension point; the modules below fill them as they load
(`@handler`, `@effect`, `@power`, `menu_item`, and the `.append`s at the ends of the card
modules). The order is the order in which they register, which decides the order of a turn's
menu and of the hooks: keep it.
"""
from __future__ import annotations

_done = False


def register_all() -> None:
    """Load every rule module and card module once, so that the tables of engine/hooks.py are
    complete. Adding a card module means adding it here."""
    global _done
    if _done:
        return
    # The rules, one module per part of the rulebook (each registers its frames), and the classic
    # ruleset's variants of them (R1). The order of these imports decides nothing: where order
    # matters (the turn menu), it is fixed where the table is read (turns.MENU_ORDER).
    from . import (  # noqa: F401
        battle,
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
    _done = True
