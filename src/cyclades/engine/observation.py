"""What a player knows, as something an agent can search with (R24).

`game.observe(p)` gives an `Observation`: the player's view, their legal
actions, and a copy of the public state with every hidden fact taken out
(other players' purses, the order of the piles, secret cards, the generator).
It holds no reference to the game, so an agent given an observation cannot
reach what its player may not know. `determinize(rng)` fills the hidden facts
in with one plausible guess and returns a playable Game: information-set
search samples many such games.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..content.rulesets import RULESETS
from .context import Context
from .frames import secret_fields
from .offerings import offerings_cost
from .play import legal_actions, to_move
from .setup import full_piles
from .state import State
from .teams import friends, purse_holder
from .view import view

if TYPE_CHECKING:
    from ..content.rulesets import Ruleset
    from .actions import Action

_PILES = ("creature_deck", "hero_deck", "bonus_stack")


def public_state(g: Context, p: int) -> dict[str, Any]:
    """The state as p may know it: hidden facts replaced by None or by a count; a secret card
    of a frame (engine/frames.py: its role) by None for anyone but the player who sees it."""
    s = g.state
    d = s.to_dict()
    d["gp"] = [gp if friends(g, p, q) or s.over else None for q, gp in enumerate(s.gp)]
    for pile in _PILES:
        d[pile] = len(d[pile])
    d["rng"] = None
    d["dice"] = []
    for raw, f in zip(d["stack"], s.stack):
        for key, _, seen_by in secret_fields(f):
            if 0 <= seen_by != p:
                v = raw[key]
                raw[key] = [None] * len(v) if isinstance(v, list) else None
    return d


G = TypeVar("G", bound=Context)


class Observation(Generic[G]):
    """A player's information set: `player`, `view`, `legal_actions()`, `determinize(rng)`."""

    __slots__ = ("_board", "_game_class", "_legal", "_options", "_public", "_template", "player", "view")

    def __init__(self, g: G, p: int) -> None:
        self.player = p
        self.view = view(g, p)
        self._public = public_state(g, p)
        self._board = g.board  # immutable and public
        self._game_class: type[G] = type(g)  # the Game, which determinize() builds (no import upward)
        self._options = {k: v for k, v in g.options.items() if k not in ("seed", "scenario")}
        self._legal: tuple[Action, ...] = tuple(legal_actions(g)) if to_move(g) == p else ()
        self._template: tuple[State, dict[str, list[str]]] | None = None  # made on first use

    def legal_actions(self) -> list[Action]:
        return list(self._legal)

    def determinize(self, rng: random.Random,
                    purse: Callable[[random.Random, int, dict[str, Any]], int] | None = None) -> G:
        """A full Game consistent with this observation. Unknown purses are drawn by
        `purse(rng, player, view)` (default `guess_purse`); pile orders are shuffled from
        the cards no one has seen; the generator is drawn from `rng`."""
        # Search determinizes the same observation hundreds of times: the public part of the
        # state and the cards no one has seen are worked out once (`_public_template`), and
        # each sample copies that State and fills in the guesses. The generator `rng` is
        # drawn exactly as it would be from scratch (the purses, then the piles in order,
        # then the game's generator), so a seeded search makes the same samples.
        template = getattr(self, "_template", None)
        if template is None:
            template = self._template = self._public_template()
        base, unseen = template
        s = base.copy()
        guess = purse or guess_purse
        s.gp = [gp if gp is not None else guess(rng, q, self.view) for q, gp in enumerate(self._public["gp"])]
        left = {}
        for pile in _PILES:
            pool = list(unseen[pile])
            if type(rng) is random.Random:
                _shuffle(pool, rng)
            else:  # a generator of its own kind: its own shuffle
                rng.shuffle(pool)
            count = self._public[pile]
            setattr(s, pile, pool[:count])
            left[pile] = pool[count:]
        s.rng = rng.getrandbits(64)
        for f in s.stack:  # the frames are the copy's own (State.copy copies them)
            # Secret cards of another player's decision (Zeus' peek, the Sphinx's draw): among
            # the cards of their pile no one has seen, after those the pile holds.
            for key, role, _ in secret_fields(f):
                v = f[key]
                unseen = left[role.pile]
                if v is None:
                    f[key], left[role.pile] = (unseen[0] if unseen else None), unseen[1:]
                elif isinstance(v, tuple) and None in v:
                    k = v.count(None)
                    f[key], left[role.pile] = tuple(unseen[:k]), unseen[k:]
        g = self._game_class._blank(self._board, dict(self._options, seed=None))
        g.state = s
        _cover_offerings(g, self._public["gp"])
        return g

    def _public_template(self) -> tuple[State, dict[str, list[str]]]:
        """(the State of the public facts, hidden ones blank; pile -> the sorted cards no
        public place shows)."""
        d = {k: (list(v) if isinstance(v, list) else v) for k, v in self._public.items()}
        d["gp"] = [0] * len(d["gp"])
        maelstrom = self._options.get("maelstrom", True)
        unseen = _unseen_cards(d, RULESETS[self._options["ruleset"]], maelstrom)
        for pile in _PILES:
            d[pile] = []
        d["rng"] = 0
        return State.from_dict(d), unseen


def _shuffle(x: list[Any], rng: random.Random) -> None:
    """`rng.shuffle(x)` for a plain random.Random, written out: the same draws of getrandbits
    and so the same order (Random.shuffle with _randbelow_with_getrandbits, inlined: a search
    shuffles the piles of every sample)."""
    getrandbits = rng.getrandbits
    for i in reversed(range(1, len(x))):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _cover_offerings(g: Context, known: list[int | None]) -> None:
    """A guessed purse can always pay the offerings its owner has made this cycle (R11):
    every real one could."""
    s = g.state
    if s.phase != "offerings":
        return
    amounts: dict[int, list[int]] = {}  # R23: a player's two offerings share one Priestess discount
    for q, amount in s.bids.values():
        amounts.setdefault(q, []).append(amount)
    need: dict[int, int] = {}
    for q, mine in amounts.items():
        holder = purse_holder(g, q)
        need[holder] = need.get(holder, 0) + offerings_cost(g, q, mine)
    for holder, n in need.items():
        if known[holder] is None and s.gp[holder] < n:
            s.gp[holder] = n


def guess_purse(rng: random.Random, q: int, view: dict[str, Any]) -> int:
    """A plausible purse for a player whose GP are hidden: about one cycle of income,
    give or take (a searcher may pass a better model)."""
    income = sum(a.get("prosperity", 0) for a in view["areas"] if a["owner"] == q) + 2
    return max(0, int(rng.gauss(income + 2, 2)))


def _unseen_cards(d: dict[str, Any], rules: Ruleset, maelstrom: bool) -> dict[str, list[str]]:
    """Cards of each pile that no public place shows: they are in the pile, in some order.
    Counted as multisets, since the classic deck holds two copies of some cards (R25)."""
    seen: dict[Any, Any] = {pile: Counter() for pile in _PILES}
    seen["creature_deck"].update(c for c in d["creature_track"] if c)
    seen["creature_deck"].update(d["creature_discard"])
    seen["creature_deck"].update(c for c, _ in d["creature_owner"])
    for _, under in d["creature_cards"]:  # cards kept under a hero's card (Heracles)
        seen["creature_deck"].update(under)
    seen["hero_deck"].update(h for h in d["hero_track"] if h)
    seen["hero_deck"].update(d["hero_discard"])
    seen["hero_deck"].update(h for h, _ in d["hero_owner"])
    for _, bonus in d["metro_bonus"]:  # a metropolis's token; Penthesilea's is (owner, bonus)
        seen["bonus_stack"][bonus[-1] if isinstance(bonus, list) else bonus] += 1
    out = {}
    for pile, cards_ in full_piles(rules, maelstrom).items():
        left = Counter(cards_) - seen[pile]
        out[pile] = sorted(left.elements())
    return out
