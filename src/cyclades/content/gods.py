"""The gods of the Legendary Edition as data (rulebook, "5- Actions").

Each god grants a free building and a free recruit (R13), and optional paid
actions. Escalating recruit costs are per turn (R14).
"""
from dataclasses import dataclass

APOLLO = "apollo"


@dataclass(frozen=True)
class God:
    name: str
    building: str | None   # the free building; None: Hera's choice of a type you lack
    recruit: str           # the free recruit: fleet, troop, merc, philosopher, priestess
    paid_recruit: str      # what the paid recruit buys
    paid_costs: tuple[int, ...]  # cost of the 1st, 2nd, 3rd paid recruit this turn
    move: str | None       # the paid move this god grants (1 GP each): sea, land
    heroic_moves: bool     # heroes may make Heroic Moves (not with Ares, who moves them as troops)


GODS = {
    "athena": God("athena", "university", "philosopher", "philosopher", (4,), None, True),
    "zeus": God("zeus", "temple", "priestess", "priestess", (4,), None, True),
    "poseidon": God("poseidon", "port", "fleet", "fleet", (1, 2, 3), "sea", True),
    "ares": God("ares", "fortress", "troop", "troop", (2, 3, 4), "land", False),
    "hera": God("hera", None, "merc", "merc", (1, 3, 5), None, True),
}
GOD_NAMES = tuple(GODS)
# The 2009 classic edition has four god tiles, Hera apart; its gods are the same gods, with
# the free building replaced by buildings at 2 GP each (classic-rulebook-actions.txt, "C. Build").
CLASSIC_GOD_NAMES = ("poseidon", "ares", "zeus", "athena")

BUILDINGS = ("port", "fortress", "temple", "university")
METROPOLIS = "metropolis"


def face_up_count(players: int) -> int:
    """Gods face up on the auction board (rulebook, Setup): all five with 6 players."""
    return {2: 3, 3: 2, 4: 3, 5: 4}.get(players, 5)
