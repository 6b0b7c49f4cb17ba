"""Checks that hold after every decision of every game; the fuzzer's oracle.

`check(game)` returns a list of broken invariants (empty when all hold).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..content.cards import CREATURES
from ..content.gods import BUILDINGS
from .play import legal_actions
from .queries import card_of, card_on_board, heroes_at, miniatures_of
from .setup import placement_shortfall

if TYPE_CHECKING:
    from .context import Context
    from .state import State


def _battle_units(s: State) -> dict[int, tuple[int, int, int]]:
    """Units of attackers standing in battle frames, by player: (troops, mercs, fleets)."""
    out: dict[int, tuple[int, int, int]] = {}
    for f in s.stack:
        if f["kind"] == "battle":
            t, m, fl = out.get(f["attacker"], (0, 0, 0))
            out[f["attacker"]] = (t + f["attacker_troops"], m + f["attacker_mercenaries"],
                                  fl + f["attacker_fleets"])
    return out


def check(game: Context) -> list[str]:
    return (_reserves(game) + _areas(game) + _heroes(game) + _creatures(game) + _hero_cards(game)
            + _decision(game))


def _reserves(game: Context) -> list[str]:
    """Every unit on the board, in a battle or in its reserve; purses and supplies (R28)."""
    s, b, r = game.state, game.board, game.rules
    errors = []
    in_battle = _battle_units(s)
    for p in range(s.n):
        bt, _bm, bf = in_battle.get(p, (0, 0, 0))
        troops = sum(s.troops[a] for a in b.lands if s.ctrl[a] == p) + bt
        fleets = sum(s.fleets[a] for a in b.seas if s.ctrl[a] == p) + bf
        if troops + s.troops_left[p] != r.troops:
            errors.append(f"player {p}: {troops} troops on board + {s.troops_left[p]} in reserve")
        if fleets + s.fleets_left[p] != r.fleets:
            errors.append(f"player {p}: {fleets} fleets on board + {s.fleets_left[p]} in reserve")
        if s.gp[p] < 0:
            errors.append(f"player {p} has {s.gp[p]} GP")
        if s.troops_left[p] < 0 or s.fleets_left[p] < 0:
            errors.append(f"player {p} has a negative reserve")
    mercs = sum(s.mercs) + sum(v[1] for v in in_battle.values())
    if mercs + s.mercs_left != r.mercenaries or s.mercs_left < 0:
        errors.append(f"{mercs} mercenaries on board + {s.mercs_left} in reserve")
    if sum(s.priestesses) > r.priestesses or sum(s.philosophers) > r.philosophers:
        errors.append("more priestesses or philosophers than the supply")
    for kind in BUILDINGS:
        if s.sites.count(kind) > r.buildings_per_type:
            errors.append(f"more than {r.buildings_per_type} {kind}s")
    return errors


def _areas(game: Context) -> list[str]:
    """One player's units per area, of the area's kind, and its controller (R16, R27)."""
    s, b = game.state, game.board
    errors = []
    for a in range(len(b.ids)):
        units = s.troops[a] + s.mercs[a] + s.fleets[a]
        if min(s.troops[a], s.mercs[a], s.fleets[a]) < 0:
            errors.append(f"negative units in {b.ids[a]}")
        if (b.is_land[a] and s.fleets[a]) or (not b.is_land[a] and (s.troops[a] or s.mercs[a])):
            errors.append(f"units of the wrong kind in {b.ids[a]}")
        if units and s.ctrl[a] < 0:
            errors.append(f"{b.ids[a]} holds units but no one controls it (R16)")
        if not b.is_land[a] and not s.fleets[a] and s.ctrl[a] >= 0 and not _battle_area(s, a):
            errors.append(f"empty sea {b.ids[a]} is controlled (R16)")
        if s.ctrl[a] >= 0 and s.eliminated[s.ctrl[a]]:
            errors.append(f"{b.ids[a]} controlled by an eliminated player")
    return errors


def _heroes(game: Context) -> list[str]:
    """Heroes stand where their owner's units are, and not twice; buildings on controlled land."""
    s, b = game.state, game.board
    errors = []
    battle_heroes = {h for f in s.stack if f["kind"] == "battle" for h in f["attacker_heroes"]}
    for h, a in s.hero_at.items():
        if h in battle_heroes:
            errors.append(f"hero {h} both in a battle frame and on the board")
        if s.hero_owner.get(h) != s.ctrl[a]:
            errors.append(f"hero {h} in {b.ids[a]} not its owner's area (one player's units per area)")
    for site, kind in enumerate(s.sites):
        if kind and s.ctrl[b.site_area[site]] < 0:
            errors.append(f"building on uncontrolled {b.ids[b.site_area[site]]}")
    return errors


def _decision(game: Context) -> list[str]:
    """A game not over waits on a decision with legal actions, by a player still in the game."""
    s = game.state
    if s.over:
        return []
    errors = []
    shortfall = placement_shortfall(game)
    if shortfall:
        errors.append(shortfall)
    if not s.stack:
        errors.append("no decision pending and the game is not over")
    elif not legal_actions(game):
        errors.append(f"no legal action in frame {s.stack[-1]}")
    elif s.stack[-1]["player"] >= 0 and s.eliminated[s.stack[-1]["player"]]:  # (chance: -1)
        errors.append("an eliminated player is to decide")
    return errors


def _battle_area(s: State, a: int) -> bool:
    return any(f["kind"] == "battle" and f["area"] == a for f in s.stack)


def _creatures(game: Context) -> list[str]:
    """Creature miniatures: one per area, on their card's area type, each with its card held by
    a player still in the game; a held card has its miniatures on the board; and, once the
    displaced units have been moved, what the creatures forbid is not on the board."""
    s, b = game.state, game.board
    errors = []
    busy = {f["card"] for f in s.stack if f["kind"] == "creature"}  # placing or displacing now
    where: dict[Any, Any] = {}
    for m, a in s.creature_at.items():
        card = card_of(m)
        if card not in CREATURES or not CREATURES[card].miniature or m not in miniatures_of(card):
            errors.append(f"{m} on {b.ids[a]} is no creature miniature")
            continue
        owner = s.creature_owner.get(card)
        if owner is None:
            errors.append(f"{m} on {b.ids[a]} but no one holds the {card} card")
        elif s.eliminated[owner]:
            errors.append(f"{m} on {b.ids[a]} held by eliminated player {owner}")
        kind = CREATURES[card].miniature
        if kind != "any" and b.is_land[a] != (kind == "land"):
            errors.append(f"{m} on {b.ids[a]}, not a {kind} area")
        if a in where:
            errors.append(f"{m} and {where[a]} both on {b.ids[a]}")
        where[a] = m
    piles = s.creature_deck + s.creature_discard + [c for c in s.creature_track if c]
    for card in s.creature_owner:
        if card in piles:
            errors.append(f"{card} both held and in a pile")
        if CREATURES.get(card) and CREATURES[card].miniature and card not in busy \
                and not card_on_board(game, card):
            errors.append(f"{card} held but its miniature is not on the board")
    if busy:
        return errors
    at = s.creature_at
    if "kraken" in at and s.fleets[at["kraken"]]:
        errors.append("fleets in the Kraken's sea")
    if "polyphemus" in at and any(s.fleets[x] for x in b.coast[at["polyphemus"]]):
        errors.append("fleets next to Polyphemus")
    boar = at.get("calydonian-boar")
    if boar is not None and (s.troops[boar] or s.mercs[boar] or heroes_at(game, boar)):
        errors.append("troops or heroes with the Calydonian Boar")
    return errors


def _hero_cards(game: Context) -> list[str]:
    """Each hero card in one place at most (track, deck, discard pile, a player's hand; none once
    sacrificed, Penthesilea's card holding her Metropolis); the creature cards under Heracles'
    card in no other place."""
    s = game.state
    errors = []
    places = [h for h in s.hero_track if h] + s.hero_deck + s.hero_discard + list(s.hero_owner)
    if "penthesilea" in s.metro_bonus:
        places.append("penthesilea")
    for h in set(places):
        if places.count(h) > 1:
            errors.append(f"hero card {h} in {places.count(h)} places")
    under = s.creature_cards.get("heracles", ())
    piles = s.creature_deck + s.creature_discard + [c for c in s.creature_track if c]
    for card in under:
        if card in piles or card in s.creature_owner:
            errors.append(f"{card} both under Heracles and elsewhere")
    return errors
