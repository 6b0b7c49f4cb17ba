"""Rulesets as data (R1): the numbers and the choices that differ between rule systems.

One engine serves every ruleset. Where a rule differs by more than a number, the ruleset
names a strategy (a string field below) and the engine module that owns the rule keeps a small
table of the strategies it knows, e.g. `cycle.GOD_PREPARATION[ruleset.god_preparation]`; the
classic strategies register themselves from `engine/classic.py`.
"""
from dataclasses import dataclass, field
from typing import Any

from .cards import classic_creature_deck
from .gods import CLASSIC_GOD_NAMES, GOD_NAMES


@dataclass(frozen=True)
class Ruleset:
    name: str
    start_gp: int = 5
    bid_cap: int | None = 25                    # R10
    min_payment: int = 0                        # R12 (classic: 1)
    apollo_gp: int = 2                          # R9
    metropolises_to_win: int = 3                # R21
    creature_costs: tuple[int, ...] = (2, 3, 4, 5)  # the creature track's slots
    creature_min_cost: int = 0                  # what Temples may bring a creature down to
    hero_track: int = 2
    troops: int = 8                             # R28 component limits
    fleets: int = 8
    mercenaries: int = 16
    priestesses: int = 20
    philosophers: int = 20
    buildings_per_type: int = 10
    philosophers_for_metropolis: int = 4
    extra: dict[str, Any] = field(default_factory=dict)
    # --- what the ruleset is played with ------------------------------------------------
    gods: tuple[str, ...] = GOD_NAMES           # the god tiles, Apollo apart
    face_up: tuple[tuple[int, int], ...] = ((2, 3), (3, 2), (4, 3), (5, 4))  # (factions, gods face up); else all
    players: tuple[int, ...] = (2, 3, 4, 5, 6)  # player counts
    team_play: bool = True                      # R22: 2 and 6 players (and 4 on request)
    offering_markers: tuple[tuple[int, int], ...] = ()  # (players, markers each): R23; else 1
    creature_deck: tuple[str, ...] = ()         # the classic deck (R25); () = Legendary's
    heroes: bool = True
    metropolis_bonuses: bool = True             # R20
    board: str | None = None                    # a fixed board (R8); None: tiles (R5, R6)
    free_build: bool = True                     # the god's building is a free mandatory action
    building_cost: int | None = None            # buildings bought on the god's turn (classic)
    score_caps_at_goal: bool = False            # R21 classic: past the goal, ties go to GP
    # --- strategies, by name (see the module that owns each rule) -----------------------------
    setup: str = "placement"                    # setup.SETUPS: placement rounds, or printed
    god_preparation: str = "rotate"             # cycle.GOD_PREPARATION: rotate, or shuffle
    upkeep: str = "maintenance"                 # creatures kept by Priestesses, or next_turn
    apollo: str = "legendary"                   # turns.APOLLO_REWARDS (R9)
    sea_move: str = "adjacent"                  # R17: adjacent, or voyage (up to 3 spaces)
    zeus_action: str = "peek"                   # peek at the deck, or swap a creature (R25)
    land_retreat: str = "empty_or_own"          # battle.LAND_RETREATS: where troops retreat (R31)

    def face_up_count(self, factions: int) -> int:
        """Gods face up on the auction board for a number of factions (Setup)."""
        return dict(self.face_up).get(factions, len(self.gods))

    def markers(self, players: int) -> int:
        """Offering markers per player (R23: two each in the classic 2-player game)."""
        return dict(self.offering_markers).get(players, 1)


LEGENDARY = Ruleset("legendary")

# The 2009 edition (classic-rulebook-overview.txt, classic-rulebook-actions.txt; R8-R12, R17,
# R20, R21, R23, R25, R31).
CLASSIC = Ruleset(
    "classic",
    bid_cap=None,                               # R10: no cap, only what the player can pay
    min_payment=1,                              # R12: at least 1 GP for any god but Apollo
    apollo_gp=1,                                # R9: 1 GP, or 4 with a single isle
    metropolises_to_win=2,                      # R21
    creature_costs=(2, 3, 4),
    creature_min_cost=1,                        # "must still spend at least 1 GP" (Temple)
    hero_track=0,
    mercenaries=0,
    priestesses=16,                             # the box's 16 Priest and 16 Philosopher cards
    philosophers=16,
    gods=CLASSIC_GOD_NAMES,
    face_up=((3, 2), (4, 3)),                   # "with 3-4 players some Gods are face down"
    players=(2, 3, 4, 5),
    team_play=False,
    offering_markers=((2, 2),),                 # R23
    creature_deck=classic_creature_deck(),      # R25
    heroes=False,
    metropolis_bonuses=False,                   # R20
    board="classic",                            # R8
    free_build=False,                           # buildings cost 2 GP each, any number
    building_cost=2,
    score_caps_at_goal=True,
    setup="printed",
    god_preparation="shuffle",
    upkeep="next_turn",
    apollo="classic",
    sea_move="voyage",
    zeus_action="swap",
    land_retreat="own",                         # R31: "a linked friendly isle"
)

RULESETS = {"legendary": LEGENDARY, "classic": CLASSIC}
