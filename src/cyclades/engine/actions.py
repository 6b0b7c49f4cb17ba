"""Actions: small immutable values, one per decision (R26).

Every action has a `kind` and up to three arguments: `what` (a god, unit,
building, card or hero), `where` (an area id) and `n` (an amount). The same
four fields serialize to JSON, so bots, the browser and tests all speak the
same language.
"""
from __future__ import annotations

from functools import partial
from typing import NamedTuple


class Action(NamedTuple):
    """A decision. A named tuple, because search builds and compares millions of them:
    its construction and equality run in C (about 3x faster than a frozen dataclass)."""
    kind: str
    what: str = ""
    where: str = ""
    n: int = 0

    def to_json(self) -> dict:
        d: dict[str, str | int] = {"kind": self.kind}
        if self.what:
            d["what"] = self.what
        if self.where:
            d["where"] = self.where
        if self.n:
            d["n"] = self.n
        return d

    @classmethod
    def from_json(cls, d: dict) -> Action:
        if not isinstance(d, dict) or not isinstance(d.get("kind"), str):
            raise ValueError("an action is an object with a string 'kind'")
        what, where, n = d.get("what", ""), d.get("where", ""), d.get("n", 0)
        if not isinstance(what, str) or not isinstance(where, str) or not isinstance(n, int) \
                or isinstance(n, bool) or set(d) - {"kind", "what", "where", "n"}:
            raise ValueError(f"malformed action: {d!r}")
        return cls(d["kind"], what, where, n)

    def __str__(self) -> str:
        template = DESCRIPTIONS.get(self.kind)
        if template is None:
            return f"{self.kind} {self.what} {self.where} {self.n}".strip()
        # Players are numbered from 1 for people ("Player 2" is index 1).
        return template.format(what=_title(self.what), where=self.where, n=self.n, player=self.n + 1)

    def __repr__(self) -> str:
        """As it is written in Python, to be pasted back: Action('bid', what='zeus', n=3)."""
        args = [repr(self.kind)] + [f"{k}={v!r}" for k, v in (("what", self.what), ("where", self.where),
                                                            ("n", self.n)) if v]
        return f"Action({', '.join(args)})"


# `new_action((kind, what, where, n))`: an Action from a tuple of its four fields, built in C.
# The named tuple's own constructor is a Python function (its keyword defaults): the legal
# lists that hold many actions (every amount of every offering) are built with this instead.
new_action = partial(tuple.__new__, Action)


def _title(s: str) -> str:
    return s.replace("-", " ").title() if s else s


# One-line English for each kind, in the rulebook's words.
DESCRIPTIONS = {
    "claim": "Place a Control token on {where}",
    "place_fleet": "Place a Fleet in {where}",
    "place_troop": "Place a Troop on {where}",
    "place_merc": "Place a mercenary Troop on {where}",
    "place_hero": "Place {what} on {where}",
    "bid": "Offer {n} GP to {what}",
    "apollo": "Make an Offering to Apollo",
    "build": "Build a {what} on {where}",
    "replace": "Build in place of your {what} on {where}",
    "forgo": "Forgo this building",
    "choose_building": "Choose a {what}",
    "recruit": "Recruit a {what} for {n} GP",
    "recruit_hero": "Recruit {what} for {n} GP",
    "sea_move": "Sea Move for {n} GP",
    "land_move": "Land Move for {n} GP",
    "heroic_move": "Heroic Move with {what} for {n} GP",
    "origin": "Move from {where}",
    "take": "Take {n} {what}",
    "take_hero": "Take {what} along",
    "destination": "Move to {where}",
    "lose": "Lose a {what}",
    "lose_hero": "Lose {what}",
    "retreat": "Retreat to {where}",
    "hold": "Do not retreat",
    "prosperity": "Place a Prosperity token on {where}",
    "metropolis": "Build the Metropolis on {where}",
    "remove": "Give up the {what} on {where}",
    "reserve": "Reserve {what}",
    "peek": "Look at the top Creature card",
    "play_peeked": "Play the peeked {what} for {n} GP",
    "return_peeked": "Put the Creature card back",
    "buy_creature": "Buy {what} for {n} GP",
    "keep": "Keep {what} by discarding a Priestess",
    "release": "Release {what}",
    "move_creature": "Move {what} to {where}",
    "stay": "Leave {what} where it is",
    "place_creature": "Place {what} on {where}",
    "displace": "Move the displaced {what} to {where}",
    "end_turn": "End your turn",
    "target_player": "Target Player {player}",
    "target_area": "Choose {where}",
    "destroy": "Destroy a {what} on {where}",
    "steal": "Steal {what} from {where}",
    "swap_hero": "Give up {what} for a Hero of the track",
    "choose_hero": "Take {what} from the Hero track",
    "choose_card": "Play {what} for free",
    "exchange": "Exchange 2 mercenary Troops for a {what}",
    "return_merc": "Return a mercenary Troop from {where}",
    "done": "Done choosing",
    "cancel": "Cancel",
    "sacrifice": "Sacrifice {what}",
    "use_power": "Use the Sacrificial Power of {what}",
    "discard_prosperity": "Discard a Prosperity token from {where}",
    "convert": "Turn 2 Priestesses into a Philosopher, {n} times",
    "metropolis_on_card": "Place the Metropolis on {what}'s card",
    "reroll": "Pay {n} GP to re-roll the die ({what})",
    "keep_roll": "Keep the die",
    "escape": "Let a {what} retreat to {where} instead of being destroyed",
    # The classic edition (engine/classic.py).
    "fleet_move": "Move Fleets up to 3 sea spaces for {n} GP",
    "drop": "Leave {n} of the moving Fleets here",
    "swap_creature": "Replace {what} ({where}) with the top Creature card for {n} GP",
}
