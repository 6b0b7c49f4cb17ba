"""Rulesets as data (R1): the numbers that differ between rule systems."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Ruleset:
    name: str
    start_gp: int = 5
    bid_cap: int | None = 25                    # R10
    min_payment: int = 0                        # R12 (classic: 1)
    apollo_gp: int = 2                          # R9
    metropolises_to_win: int = 3                # R21
    creature_costs: tuple = (2, 3, 4, 5)        # the creature track's slots
    hero_track: int = 2
    troops: int = 8                             # R28 component limits
    fleets: int = 8
    mercenaries: int = 16
    priestesses: int = 20
    philosophers: int = 20
    buildings_per_type: int = 10
    philosophers_for_metropolis: int = 4
    extra: dict = field(default_factory=dict)


LEGENDARY = Ruleset("legendary")
RULESETS = {"legendary": LEGENDARY}
