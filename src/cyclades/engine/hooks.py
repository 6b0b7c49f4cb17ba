"""Every place where a card, a ruleset or a higher rule module plugs into the engine.

This module is the map: each table below is one extension point, with the signature of what
goes in it and when the engine calls it. It imports nothing, so every module may read it; the
modules that *fill* it are listed in one place, `engine/plugins.py` (`register_all()`, which
the Game calls). A module low in the engine (ops, queries, turns...) announces an event by
calling the functions of a table here, and never imports the module that listens, so that the
engine's modules form layers (docs/architecture.md).

A card never needs a new table for a simple effect: a creature is an `Effect` in `EFFECTS`
(engine/creatures.py), a hero a `Power` in `POWERS` (engine/heroes.py); the other tables are
for cards that change a rule while they are on the board.
"""
from typing import Any

# --- the decision stack (engine/frames.py) ------------------------------------------------------

# frame kind -> Handler subclass: legal(g, f), apply(g, f, action), auto(g, f), hidden(f).
# Called by Game.legal_actions / Game.apply / Game._settle for the frame on top of the stack.
# Filled by `@handler("kind", KindFrame)` in every rule module and card module (KindFrame: the
# TypedDict of the frame's fields, kept on the class as `fields`).
HANDLERS: dict[str, Any] = {}

# --- rule questions (engine/queries.py): each a list of functions, applied in order ------------

MODIFIERS: dict[str, list[Any]] = {
    # f(g, area, base) -> income: when an area's Cornucopias are counted (Income, the Graeae).
    "area_income": [],
    # f(g, area, controller) -> player: who receives an area's income (Cerberus, the Nereid).
    "income_to": [],
    # f(g, player, area, kind, name, base) -> strength of one unit in a battle (Hippolyta).
    "unit_strength": [],
    # f(g, battle_frame, side_player, base) -> strength a side adds in a battle (Penelope).
    "battle_bonus": [],
    # f(g, player, area) -> False forbids troops/heroes entering a land area (the Boar, Medusa).
    "can_enter_land": [],
    # f(g, player, area) -> False forbids troops/heroes leaving a land area.
    "can_leave_land": [],
    # f(g, player, area) -> False forbids fleets entering a sea area (the Kraken...).
    "can_enter_sea": [],
    # f(g, player, area) -> False forbids placing recruited troops/heroes in a land area.
    "can_place_land": [],
    # f(g, player, sea) -> extra seas adjacent to `sea` for player's fleets (Scylla and Charybdis).
    "sea_links": [],
    # f(g, site) -> False: the building on the site has no effect (Typhon).
    "building_active": [],
}

# --- battles (engine/battle.py): each a list of functions, called in order ----------------------

BATTLE: dict[str, list[Any]] = {
    "before_battle": [],   # f(g, battle) before the first round; may change sides or push a frame
    "after_roll": [],      # f(g, battle) once f["dice"] is rolled; may push a frame (re-roll)
    "die": [],             # f(g, battle, side, die) -> the result that counts for the side
    "building_kinds": [],  # f(g, battle, player, land, kind, kinds) -> site kinds counting as kind
    "round_result": [],    # f(g, battle, sa, sd, losers) -> the sides that lose the round
    "loss_options": [],    # f(g, battle, side, options) -> options (e.g. an "escape" instead)
    "may_retreat": [],     # f(g, battle, side) -> False: the side may not retreat
    "must_retreat": [],    # f(g, battle) -> sides that must retreat now (or be destroyed)
    "creature_units": [],  # f(g, area, player) -> creatures fighting for player there (Minotaur)
}

# --- moves (engine/moves.py): heroes' military powers on Heroic Moves ------------------------------

MOVES: dict[str, list[Any]] = {
    "heroic_cost": [],         # f(g, turn_frame, hero, cost) -> cost of this hero's Heroic Move
    "heroic_with_apollo": [],  # f(g, hero) -> True: the hero may make Heroic Moves with Apollo
    "heroic_reach": [],        # f(g, player, frm, hero) -> extra land areas the move may reach
}

# --- announcements of the primitive changes (engine/ops.py) ------------------------------------

# f(g, area, kind, count): units destroyed (not merely moved), after the "destroyed" event (Geryon).
ON_DESTROY: list[Any] = []
# f(g, hero): a hero left play (destroyed, discarded, sacrificed, eliminated) (Heracles' cards).
ON_HERO_LOST: list[Any] = []
# f(g, player): player may have completed the four building types: called after they build, and
# after they take control of a land area with buildings. engine/metropolis.py listens ("as soon
# as", Metropolises).
ON_BUILDINGS_GAINED: list[Any] = []
# creature card -> f(g, card): its miniatures left the board, so its lasting effect ends (Typhon).
ON_CREATURE_LEAVES: dict[str, Any] = {}

# --- creatures (engine/creatures.py, engine/maintenance.py) ------------------------------------

# creature card -> Effect instance: what buying the card does; a card without one is not offered.
# Filled by `@effect("name")` / `@miniature("name")` in engine/cards/.
EFFECTS: dict[str, Any] = {}
# miniature -> f(g, miniature, area, player): it arrived in an area by a move (Echidna).
ON_CREATURE_ARRIVES: dict[str, Any] = {}
# creature card -> f(g, card, player): during Maintenance, once its owner kept it (the Hydra).
ON_MAINTENANCE: dict[str, Any] = {}

# --- heroes (engine/heroes.py) ------------------------------------------------------------------

# hero card -> Power instance: its sacrificial power. Filled by `@power("name")` in cards/heroes.py.
POWERS: dict[str, Any] = {}
# f(g, player, area, heroes, route): heroes arrived in an area by a move or a retreat, before
# anything else happens there; route lists the seas passed through (Heracles).
ON_HEROES_ARRIVE: list[Any] = []
# f(g, hero): a hero was recruited (Heracles).
ON_RECRUIT: list[Any] = []

# --- the turn (engine/turns.py) ----------------------------------------------------------------

# name -> (legal(g, turn_frame) -> list[Action], apply(g, turn_frame, action)): the optional
# actions of a god's turn menu, in registration order. Filled by `turns.menu_item(...)`, which
# also notes the action kinds each item answers and the rulesets that offer it.
MENU: dict[str, Any] = {}
# ruleset.apollo -> f(g, player): Apollo's favour (R9; classic.py adds "classic").
APOLLO_REWARDS: dict[str, Any] = {}
# ruleset.upkeep -> f(g, player): as a player's turn starts (classic: their creatures leave).
TURN_START: dict[str, Any] = {}

# --- the cycle and the setup (engine/cycle.py, engine/setup.py) --------------------------------

# ruleset.god_preparation -> f(g): Cycle Preparation of the gods ("rotate"; classic "shuffle").
GOD_PREPARATION: dict[str, Any] = {}
# ruleset.upkeep -> f(g): phase 4 (Legendary's Maintenance Costs; none in the classic game).
MAINTENANCE: dict[str, Any] = {}
# ruleset.setup -> f(g): how the first units reach the board ("placement"; classic "printed").
SETUPS: dict[str, Any] = {}

# --- metropolises (engine/metropolis.py) ---------------------------------------------------------

# name -> (legal(g, metro_frame) -> list[Action], apply(g, metro_frame, action)): places a
# Metropolis may go instead of a construction site (Penthesilea's card).
ELSEWHERE: dict[str, Any] = {}
