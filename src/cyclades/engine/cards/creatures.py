"""The Mythological Creatures without miniatures (rulebook, "Creature Descriptions"; the
Maelström texts are the wording of their cards, R2).

Each card is a small `Effect` (engine/creatures.py): `applicable` says whether its effect can
be used now (if not, the card is discarded without effect), and its buyer's decisions go
through the "creature" frame, one short choice at a time (R26). Once bought, a card's effect
is applied: there is no cancelling it. Chiron's area, and everything in it, is never offered
as a target to a player who does not control Chiron (`shielded`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...content.gods import APOLLO, BUILDINGS, GODS
from .. import ops
from ..actions import Action
from ..chance import after_chance, draw
from ..creatures import EFFECTS, CreatureFrame, Effect, creature_destinations, effect, finish, play_creature, shielded
from ..cycle import income_of, take_geryon_gp
from ..frames import nearest
from ..moves import arrive_land, last_area_attack_allowed, leave_land
from ..ops import discard_creature_card, gain_philosopher, release
from ..queries import (
    MODIFIERS,
    active_players,
    buildings_of,
    can_enter_sea,
    can_leave_land,
    can_place_land,
    card_of,
    card_on_board,
    controlled_lands,
    controlled_seas,
    empty_sites,
    heroes_at,
    lands_with_free_site,
    miniatures_of,
)
from ..state import NOBODY
from ..teams import gain, may_attack, pay, purse
from ..turns import FREE_CARD, gain_card, place_building, push_build, push_place_unit
from ..unit_choice import choose_unit, start_units, unit_choices

if TYPE_CHECKING:
    from ..context import Context

DONE = Action("done")  # the end of a repeatable choice (the Hippalectryon)


# --- small helpers ------------------------------------------------------------------------

def _area(g: Context, action: Action) -> int:
    return g.board.index[action.where]


def _rivals(g: Context, p: int) -> list[int]:
    return [q for q in active_players(g) if q != p]


def _sites(g: Context, a: int) -> range:
    return range(g.board.site_start[a], g.board.site_start[a] + g.board.sites[a])


def _site_of(g: Context, a: int, kind: str) -> int:
    return next(i for i in _sites(g, a) if g.state.sites[i] == kind)


def _own_buildings(g: Context, p: int) -> list[tuple[str, int]]:
    """(kind, area) of p's basic buildings that p may choose (not under another's Chiron)."""
    b = g.board
    return sorted({(k, b.site_area[site]) for site, k in buildings_of(g, p)
                   if not shielded(g, p, b.site_area[site])})


def _merc_places(g: Context, p: int) -> list[int]:
    """Land areas p controls where new mercenaries may stand (not under another's Chiron)."""
    return [a for a in controlled_lands(g, p) if can_place_land(g, p, a) and not shielded(g, p, a)]


def _creature_targetable(g: Context, p: int, c: str) -> bool:
    """A creature card whose miniatures stand on the board, none in another player's Chiron's
    area (Chiron itself included)."""
    at = g.state.creature_at
    return card_on_board(g, c) and not any(shielded(g, p, at[m]) for m in miniatures_of(c))


def _can_enter_land(g: Context, p: int, a: int) -> bool:
    return all(fn(g, p, a) for fn in MODIFIERS["can_enter_land"])


class _PlaysAnother(Effect):
    """A card that plays another creature card: it is discarded once that card's effect is over."""

    def auto(self, g: Context, f: CreatureFrame) -> bool:
        if f["stage"] == "played":
            finish(g, f)
            return True
        return False

    def play_other(self, g: Context, f: CreatureFrame, card: str) -> None:
        f["stage"] = "played"
        g.emit("creature_played", player=f["player"], card=card, by=f["card"])
        play_creature(g, f["player"], card)


# --- the cards, in alphabetical order ----------------------------------------------------------

@effect("charon")
class Charon(Effect):
    """Swap one of your Heroes with one of the available Heroes on the Hero track. The new Hero
    recruited in this way cannot be sacrificed during this Cycle.
    If the Hero track contains no Hero cards, you cannot use Charon's effect and the card is
    discarded without effect."""

    @staticmethod
    def _mine(g: Context, p: int) -> list[str]:
        s = g.state
        return sorted(h for h, o in s.hero_owner.items()
                      if o == p and not (h in s.hero_at and shielded(g, p, s.hero_at[h])))

    def applicable(self, g: Context, p: int) -> bool:
        return any(g.state.hero_track) and bool(self._mine(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        if f["stage"] == "start":
            return [Action("swap_hero", what=h) for h in self._mine(g, f["player"])]
        return [Action("choose_hero", what=h) for h in g.state.hero_track if h]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        if a.kind == "swap_hero":
            f["hero"], f["stage"] = a.what, "track"
            return
        s, p, old, new = g.state, f["player"], f["hero"], a.what
        finish(g, f)
        s.hero_track[s.hero_track.index(new)] = old  # the old Hero takes the new one's slot
        at = s.hero_at.pop(old, None)
        del s.hero_owner[old]
        s.hero_since.pop(old, None)
        s.hero_owner[new] = p
        s.hero_since[new] = s.cycle  # no sacrifice during this Cycle
        if at is not None:  # the new miniature stands where the old one stood
            s.hero_at[new] = at
        g.emit("hero_swapped", player=p, hero=new, old=old, area=None if at is None else g.board.ids[at])


@effect("chimera")
class Chimera(_PlaysAnother):
    """Play a Creature card from the Creature discard pile for free, then discard the Chimera
    (if the creature Discard Pile is empty, the Chimera is simply discarded).
    When the Chimera is placed in the Discard Pile, (...) you must shuffle the Creature deck and
    the Creature Discard Pile together (cycle.discard_creature_card)."""

    @staticmethod
    def _cards(g: Context, p: int) -> list[str]:
        # Only a card whose effect can be used: playing another would only discard it again.
        return [c for c in dict.fromkeys(g.state.creature_discard)
                if c in EFFECTS and EFFECTS[c].applicable(g, p)]

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._cards(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        return [Action("choose_card", what=c) for c in self._cards(g, f["player"])]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        g.state.creature_discard.remove(a.what)
        self.play_other(g, f, a.what)


@effect("cyclops")
class Cyclops(Effect):
    """Exchange one of your basic Buildings for another basic Building from the reserve."""

    @staticmethod
    def _others(g: Context, old: str) -> list[str]:
        return [k for k in BUILDINGS if k != old and ops.buildings_left(g, k) > 0]

    def _choices(self, g: Context, p: int) -> list[tuple[str, int]]:
        return [(k, a) for k, a in _own_buildings(g, p) if self._others(g, k)]

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._choices(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        if f["stage"] == "start":
            return [Action("replace", what=k, where=g.board.ids[a])
                    for k, a in self._choices(g, f["player"])]
        return [Action("choose_building", what=k) for k in self._others(g, f["old_building"])]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        if a.kind == "replace":
            f["old_building"], f["area"], f["stage"] = a.what, _area(g, a), "new"
            return
        p, area = f["player"], f["area"]
        finish(g, f)
        site = _site_of(g, area, f["old_building"])
        g.emit("demolished", player=p, building=f["old_building"], area=g.board.ids[area])
        g.state.sites[site] = ""  # back to the reserve
        place_building(g, p, site, a.what)


@effect("dryad")
class Dryad(Effect):
    """Steal a Priestess card from another player."""

    @staticmethod
    def _targets(g: Context, p: int) -> list[int]:
        return [q for q in _rivals(g, p) if g.state.priestesses[q]]

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._targets(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        return [Action("target_player", n=q) for q in self._targets(g, f["player"])]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        s, p, q = g.state, f["player"], a.n
        finish(g, f)
        s.priestesses[q] -= 1
        s.priestesses[p] += 1
        g.emit("card_stolen", player=p, victim=q, card="priestess")


@effect("echidna")
class Echidna(Effect):
    """Steal 1 Creature card from another player and place it in front of your Screen. Then you
    may move the corresponding Creature miniature to any Area (Land or Sea) indicated on the
    Creature card as valid."""

    @staticmethod
    def _targets(g: Context, p: int) -> list[tuple[str, int]]:
        s = g.state
        return sorted((c, s.creature_at[miniatures_of(c)[0]]) for c, q in s.creature_owner.items()
                      if q != p and _creature_targetable(g, p, c))

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._targets(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        ids = g.board.ids
        if f["stage"] == "start":
            return [Action("steal", what=c, where=ids[at]) for c, at in self._targets(g, f["player"])]
        m = f["miniatures"][0]  # Scylla and Charybdis: one miniature after the other
        return [Action("stay", what=m)] + [Action("move_creature", what=m, where=ids[a])
                                            for a in creature_destinations(g, m, p=f["player"])]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        s, p = g.state, f["player"]
        if a.kind == "steal":
            victim = s.creature_owner[a.what]
            s.creature_owner[a.what] = p
            g.emit("creature_stolen", player=p, victim=victim, card=a.what)
            f["miniatures"], f["stage"] = miniatures_of(a.what), "move"
            return
        f["miniatures"] = f["miniatures"][1:]
        if not f["miniatures"]:
            finish(g, f)
        if a.kind == "move_creature":
            m, dest = a.what, _area(g, a)
            s.creature_at[m] = dest
            g.emit("creature_moved", card=m, area=a.where)
            EFFECTS[card_of(m)].arrives(g, m, dest, p)  # e.g. the Kraken destroys the Fleets there


@effect("empusa")
class Empusa(Effect):
    """Perform again the free mandatory actions of the god to whom you made an Offering in the
    current Cycle (the building first, then the recruit, as on the god's turn)."""

    def applicable(self, g: Context, p: int) -> bool:
        turn = nearest(g, "turn")
        return turn is not None and turn["player"] == p and turn["god"] != APOLLO

    def auto(self, g: Context, f: CreatureFrame) -> bool:
        p = f["player"]
        if f["stage"] == "start":
            god = nearest(g, "turn")["god"]
            f["god"], f["stage"] = god, "recruit"
            push_build(g, p, GODS[god].building or "")
            return True
        unit = GODS[f["god"]].recruit
        finish(g, f)
        if unit in FREE_CARD:
            gain_card(g, p, unit)
        else:
            push_place_unit(g, p, unit)
        return True


@effect("erinyes")
class Erinyes(Effect):
    """Move 1 Prosperity token (with its 1-Cornucopia side) to any other Land or Sea Area. The
    token being moved may belong to any player.
    Note. If the chosen token lies with its 2-Cornucopia side up, first replace it with 2 tokens
    with 1 Cornucopia each, and then move one of those tokens. (`prosperity[a]` counts the
    Cornucopias of an area's tokens, so moving one is -1 there, +1 elsewhere.)"""

    @staticmethod
    def _origins(g: Context, p: int) -> list[int]:
        return [a for a in range(len(g.board.ids)) if g.state.prosperity[a] and not shielded(g, p, a)]

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._origins(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        ids, p = g.board.ids, f["player"]
        if f["stage"] == "start":
            return [Action("origin", where=ids[a]) for a in self._origins(g, p)]
        return [Action("destination", where=ids[a]) for a in range(len(ids))
                if a != f["origin"] and not shielded(g, p, a)]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        if a.kind == "origin":
            f["origin"], f["stage"] = _area(g, a), "dest"
            return
        s, frm, dest = g.state, f["origin"], _area(g, a)
        finish(g, f)
        s.prosperity[frm] -= 1
        s.prosperity[dest] += 1
        g.emit("prosperity_moved", player=f["player"], origin=g.board.ids[frm], destination=a.where)


@effect("giant")
class Giant(Effect):
    """Steal all mercenary Troops from one Land Area. Place them on one or more Land Areas you
    control. (Medusa: no Troop may leave her Area, so hers are out of reach.)"""

    @staticmethod
    def _targets(g: Context, p: int) -> list[int]:
        s = g.state
        return [a for a in g.board.lands if s.mercs[a] and s.ctrl[a] not in (p, NOBODY)
                and not shielded(g, p, a) and can_leave_land(g, s.ctrl[a], a)]

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._targets(g, p)) and bool(_merc_places(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        ids, p = g.board.ids, f["player"]
        if f["stage"] == "start":
            return [Action("steal", what="mercs", where=ids[a]) for a in self._targets(g, p)]
        return [Action("place_merc", where=ids[a]) for a in _merc_places(g, p)]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        s, p = g.state, f["player"]
        if a.kind == "steal":
            frm = _area(g, a)
            f["origin"], f["left"], f["stage"] = frm, s.mercs[frm], "place"
            g.emit("mercs_stolen", player=p, victim=s.ctrl[frm], area=a.where, count=s.mercs[frm])
            return
        # One mercenary at a time goes from the robbed area to the chosen one; an emptied
        # area keeps its controller's token (R16).
        frm, dest = f["origin"], _area(g, a)
        s.mercs[frm] -= 1
        s.mercs[dest] += 1
        f["left"] -= 1
        g.emit("merc", player=p, area=a.where, count=1)
        if not f["left"]:
            finish(g, f)


@effect("graeae")
class Graeae(Effect):
    """Repeat your Income Phase.
    You receive 1 GP for each Cornucopia (on Prosperity tokens and/or icon) present in the Land
    and Sea Areas you control at the time you use the Graeae card.
    Geryon's note: "When executing the Graeae ability, a player receives the GP accumulated by
    Geryon if they control the Area in which they lie" (and the Nereid's, Cerberus' and the
    Hydra's effects apply, as in the Income phase: cycle.income_of)."""

    def play(self, g: Context, p: int, card: str) -> None:
        n = income_of(g, p) + take_geryon_gp(g, p)
        g.emit("graeae", player=p, amount=n)
        gain(g, p, n)
        discard_creature_card(g, card)


@effect("griffin")
class Griffin(Effect):
    """Steal half the GP (rounded down) from another player.
    (Any other player may be chosen: their GP are hidden, R24, so the list does not depend on
    them.)"""

    def applicable(self, g: Context, p: int) -> bool:
        return bool(_rivals(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        return [Action("target_player", n=q) for q in _rivals(g, f["player"])]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        p, q = f["player"], a.n
        finish(g, f)
        n = purse(g, q) // 2
        g.emit("gp_stolen", player=p, victim=q)
        pay(g, q, n)
        gain(g, p, n)


@effect("harpy")
class Harpy(Effect):
    """Destroy a Troop in a Land Area. This can be a basic Troop or a mercenary Troop.
    The Harpy cannot destroy a Hero."""

    @staticmethod
    def _targets(g: Context, p: int) -> list[tuple[str, int]]:
        s = g.state
        out = []
        for a in g.board.lands:
            if shielded(g, p, a):
                continue
            if s.troops[a]:
                out.append(("troop", a))
            if s.mercs[a]:
                out.append(("merc", a))
        return out

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._targets(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        return [Action("destroy", what=k, where=g.board.ids[a]) for k, a in self._targets(g, f["player"])]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        area = _area(g, a)
        finish(g, f)
        troop = a.what == "troop"
        # An emptied area keeps its controller's token (R16).
        ops.remove_land_units(g, area, g.state.ctrl[area], int(troop), int(not troop), destroy=True)


@effect("hippalectryon")
class Hippalectryon(Effect):
    """Exchange 2 of your mercenary Troops for 1 Prosperity token, or for 1 Priestess card, or
    for 1 Philosopher card, returning those Troops to the general reserve. Place the Prosperity
    token you received with its 1-Cornucopia side up in any Area of your choice.
    You may make this exchange any number of times, as long as you have mercenary Troops.
    Note. Hippalectryon's ability can be applied to mercenary Troops located in an Area with
    Medusa. An exchange of Troops is not considered destruction, so it does not allow Geryon to
    accumulate GP."""

    @staticmethod
    def _merc_areas(g: Context, p: int) -> list[int]:
        s = g.state
        return [a for a in controlled_lands(g, p) if s.mercs[a] and not shielded(g, p, a)]

    def _rewards(self, g: Context, p: int) -> list[str]:
        s, r = g.state, g.rules
        if sum(s.mercs[a] for a in self._merc_areas(g, p)) < 2:
            return []
        out = ["prosperity"]
        if sum(s.priestesses) < r.priestesses:  # R28: only what the supply can give
            out.append("priestess")
        if sum(s.philosophers) < r.philosophers:
            out.append("philosopher")
        return out

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._rewards(g, p))

    def auto(self, g: Context, f: CreatureFrame) -> bool:
        if f["stage"] == "start" and not self._rewards(g, f["player"]):
            finish(g, f)  # no more exchanges possible
            return True
        return False

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        ids, p, stage = g.board.ids, f["player"], f["stage"]
        if stage == "start":
            out = [Action("exchange", what=k) for k in self._rewards(g, p)]
            return [*out, DONE] if f.get("exchanges_made") else out
        if stage == "mercs":
            return [Action("return_merc", where=ids[a]) for a in self._merc_areas(g, p)]
        return [Action("prosperity", where=ids[a]) for a in range(len(ids))
                if not shielded(g, p, a)]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        p = f["player"]
        if a.kind == "done":
            finish(g, f)
        elif a.kind == "exchange":
            f["reward"], f["left"], f["stage"] = a.what, 2, "mercs"
        elif a.kind == "return_merc":
            ops.remove_land_units(g, _area(g, a), p, 0, 1, destroy=False)  # not destroyed
            f["left"] -= 1
            if f["left"]:
                return
            f["exchanges_made"] = f.get("exchanges_made", 0) + 1
            reward = f["reward"]
            g.emit("exchanged", player=p, reward=reward)
            f["stage"] = "place" if reward == "prosperity" else "start"
            if reward == "priestess":
                ops.gain_priestess(g, p)
            elif reward == "philosopher":
                gain_philosopher(g, p)  # a 4th one builds a Metropolis (on top of this frame)
        else:  # the Prosperity token
            area = _area(g, a)
            g.state.prosperity[area] += 1
            g.emit("prosperity", player=p, area=a.where)
            f["stage"] = "start"


@effect("hippocampus")
class Hippocampus(Effect):
    """Exchange any number of your Fleets in 1 Sea Area you control for the same number of
    mercenary Troops from the general reserve. Place the received Troops in 1 or more Land Areas
    you control, and return the exchanged Fleets to your personal reserve.
    Note. An exchange of Fleets is not considered destruction, so it does not allow Geryon to
    accumulate GP."""

    @staticmethod
    def _seas(g: Context, p: int) -> list[int]:
        return [a for a in controlled_seas(g, p) if g.state.fleets[a]]

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._seas(g, p)) and g.state.mercs_left > 0 and bool(_merc_places(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        s, ids = g.state, g.board.ids
        if f["stage"] == "start":
            return [Action("origin", where=ids[a]) for a in self._seas(g, f["player"])]
        if f["stage"] == "place":
            return [Action("place_merc", where=ids[a]) for a in _merc_places(g, f["player"])]
        # R28: no more Fleets than there are mercenaries to receive
        most = min(s.fleets[f["origin"]], s.mercs_left)
        return [Action("take", what="fleet", n=k) for k in range(1, most + 1)]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        s, p = g.state, f["player"]
        if a.kind == "origin":
            f["origin"], f["stage"] = _area(g, a), "count"
        elif a.kind == "take":
            sea, n = f["origin"], a.n
            s.fleets[sea] -= n
            s.fleets_left[p] += n  # returned, not destroyed
            if not s.fleets[sea]:
                s.ctrl[sea] = NOBODY  # an empty sea area is controlled by no one (R16)
            g.emit("fleets_exchanged", player=p, area=g.board.ids[sea], count=n)
            f["left"], f["stage"] = n, "place"
        else:
            ops.place_mercs(g, _area(g, a), p)
            f["left"] -= 1
            if not f["left"]:
                finish(g, f)


@effect("manticore")
class Manticore(Effect):
    """Destroy 1 Creature or 1 Hero of your choice. The destroyed miniature is returned to the
    general reserve, and the card is placed in the corresponding discard pile.
    Note. Manticore can destroy a Hero located in the Area with Medusa, but her ability is
    completely blocked by Chiron."""

    @staticmethod
    def _targets(g: Context, p: int) -> list[tuple[str, int]]:
        s = g.state
        cards = sorted((c, s.creature_at[miniatures_of(c)[0]]) for c in s.creature_owner
                       if _creature_targetable(g, p, c))
        return cards + [(h, at) for h, at in sorted(s.hero_at.items()) if not shielded(g, p, at)]

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._targets(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        return [Action("destroy", what=n, where=g.board.ids[at]) for n, at in self._targets(g, f["player"])]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        finish(g, f)
        if a.what in g.state.creature_owner:
            release(g, a.what)  # its miniatures leave the board, its effect ends
        else:
            ops.discard_hero(g, a.what)


@effect("pegasus")
class Pegasus(Effect):
    """Move all or part of your basic and/or mercenary Troops and Heroes from one Land Area to
    another Land Area for free. The starting and ending Areas can be anywhere on the board, they
    do not have to be adjacent or accessible to each other.
    Note: the Pegasus' effect does not help Troops or Heroes to leave or move into the Area
    occupied by Medusa. (A defended destination means a Land Battle; R19 still applies.)"""

    @staticmethod
    def _destinations(g: Context, p: int, frm: int) -> list[int]:
        s = g.state
        out = []
        for a in g.board.lands:
            if a == frm or shielded(g, p, a) or not _can_enter_land(g, p, a):
                continue
            q = s.ctrl[a]
            if q not in (p, NOBODY) and not (may_attack(g, p, q, a)
                                             and last_area_attack_allowed(g, p, q, a)):
                continue
            out.append(a)
        return out

    def _origins(self, g: Context, p: int) -> list[int]:
        s = g.state
        return [a for a in controlled_lands(g, p)
                if (s.troops[a] or s.mercs[a] or heroes_at(g, a, count=True))
                and can_leave_land(g, p, a) and not shielded(g, p, a)
                and self._destinations(g, p, a)]

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._origins(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        ids, p, stage = g.board.ids, f["player"], f["stage"]
        if stage == "start":
            return [Action("origin", where=ids[a]) for a in self._origins(g, p)]
        if stage != "dest":
            return unit_choices(g, f, sorted(heroes_at(g, f["origin"])))
        return [Action("destination", where=ids[a]) for a in self._destinations(g, p, f["origin"])]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        if a.kind == "origin":
            frm = _area(g, a)
            start_units(g, f, frm, sorted(heroes_at(g, frm)))
        elif not choose_unit(g, f, a, sorted(heroes_at(g, f["origin"]))):
            p, frm, dest = f["player"], f["origin"], _area(g, a)
            finish(g, f)
            g.emit("pegasus", player=p, origin=g.board.ids[frm], destination=a.where)
            leave_land(g, frm, f["troops"], f["mercenaries"], f["heroes"])
            arrive_land(g, p, dest, f["troops"], f["mercenaries"], f["heroes"], frm)


@effect("satyr")
class Satyr(Effect):
    """Steal 1 Philosopher card from another player.
    If you get your 4th Philosopher by using this effect, discard them and immediately build a
    Metropolis."""

    @staticmethod
    def _targets(g: Context, p: int) -> list[int]:
        return [q for q in _rivals(g, p) if g.state.philosophers[q]]

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._targets(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        return [Action("target_player", n=q) for q in self._targets(g, f["player"])]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        p, q = f["player"], a.n
        finish(g, f)
        g.state.philosophers[q] -= 1
        g.emit("card_stolen", player=p, victim=q, card="philosopher")
        gain_philosopher(g, p)  # the 4th builds a Metropolis at once


@effect("sphinx")
class Sphinx(_PlaysAnother):
    """Draw 3 Creature cards. Discard 2, and play the third for free.
    (The drawn cards are seen by their drawer only, R24.)"""

    def applicable(self, g: Context, p: int) -> bool:
        return bool(g.state.creature_deck or g.state.creature_discard)

    def auto(self, g: Context, f: CreatureFrame) -> bool:
        if f["stage"] == "start":
            f["stage"] = "draw"
            draw(g, "creature_deck", 3, "sphinx_drawn", private_to=f["player"])
            return True
        return super().auto(g, f)

    @staticmethod
    @after_chance("sphinx_drawn")
    def drawn(g: Context, cards: tuple[Any, ...], args: tuple[Any, ...]) -> None:
        f: CreatureFrame = nearest(g, "creature")
        f["cards"], f["stage"] = tuple(c for c in cards if c), "choose"
        g.emit("sphinx_draw", player=f["player"], count=len(f["cards"]))
        if not EFFECTS["sphinx"].legal(g, f):  # nothing that can be played: all are discarded
            for c in f["cards"]:
                discard_creature_card(g, c)
            finish(g, f)

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        return [Action("choose_card", what=c) for c in dict.fromkeys(f["cards"]) if c in EFFECTS]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        rest = list(f["cards"])
        rest.remove(a.what)
        f["cards"] = ()
        for c in rest:
            discard_creature_card(g, c)
        self.play_other(g, f, a.what)


@effect("sylph")
class Sylph(Effect):
    """Swap Fleets from two Sea Areas regardless of which players control them. The two Areas
    may be anywhere on the board; they do not have to be adjacent to each other.
    Both Sea Areas must contain Fleets."""

    @staticmethod
    def _swappable(g: Context, p: int, x: int, y: int) -> bool:
        s = g.state
        return (x != y and s.fleets[x] > 0 and s.fleets[y] > 0 and not shielded(g, p, y)
                and can_enter_sea(g, s.ctrl[x], y) and can_enter_sea(g, s.ctrl[y], x))

    def _firsts(self, g: Context, p: int) -> list[int]:
        seas = [a for a in g.board.seas if g.state.fleets[a] and not shielded(g, p, a)]
        return [x for x in seas if any(self._swappable(g, p, x, y) for y in seas)]

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._firsts(g, p))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        ids, p = g.board.ids, f["player"]
        if f["stage"] == "start":
            return [Action("target_area", where=ids[a]) for a in self._firsts(g, p)]
        return [Action("target_area", where=ids[y]) for y in g.board.seas
                if self._swappable(g, p, f["first_sea"], y)]

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        if f["stage"] == "start":
            f["first_sea"], f["stage"] = _area(g, a), "second"
            return
        s, x, y = g.state, f["first_sea"], _area(g, a)
        finish(g, f)
        s.fleets[x], s.fleets[y] = s.fleets[y], s.fleets[x]
        s.ctrl[x], s.ctrl[y] = s.ctrl[y], s.ctrl[x]
        g.emit("fleets_swapped", player=f["player"], areas=[g.board.ids[x], a.where])


@effect("triton")
class Triton(Effect):
    """Steal 1 basic Building token from another player and place it on an empty building site
    in any Land Area you control. If you have no suitable empty building site, you MUST destroy
    one of your basic Buildings in order to build the stolen building."""

    @staticmethod
    def _targets(g: Context, p: int) -> list[tuple[str, int]]:
        b = g.board
        return sorted({(k, b.site_area[site])
                       for q in _rivals(g, p) for site, k in buildings_of(g, q)
                       if not shielded(g, p, b.site_area[site])})

    @staticmethod
    def _places(g: Context, p: int, kind: str) -> list[Action]:
        ids = g.board.ids
        free = [a for a in lands_with_free_site(g, p) if not shielded(g, p, a)]
        if free:
            return [Action("build", what=kind, where=ids[a]) for a in free]
        return [Action("replace", what=k, where=ids[a]) for k, a in _own_buildings(g, p)]

    def applicable(self, g: Context, p: int) -> bool:
        return bool(self._targets(g, p)) and bool(self._places(g, p, ""))

    def legal(self, g: Context, f: CreatureFrame) -> list[Action]:
        if f["stage"] == "start":
            return [Action("steal", what=k, where=g.board.ids[a]) for k, a in self._targets(g, f["player"])]
        return self._places(g, f["player"], f["building"])

    def apply(self, g: Context, f: CreatureFrame, a: Action) -> None:
        s, p = g.state, f["player"]
        if a.kind == "steal":
            f["building"], f["origin"], f["stage"] = a.what, _area(g, a), "place"
            return
        kind, frm, area = f["building"], f["origin"], _area(g, a)
        finish(g, f)
        s.sites[_site_of(g, frm, kind)] = ""
        g.emit("building_stolen", player=p, victim=s.ctrl[frm], building=kind, area=g.board.ids[frm])
        if a.kind == "replace":
            site = _site_of(g, area, a.what)
            g.emit("demolished", player=p, building=a.what, area=a.where)
        else:
            site = empty_sites(g, area)[0]
        place_building(g, p, site, kind)
