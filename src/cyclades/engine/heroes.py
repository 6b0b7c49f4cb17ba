"""Heroes on the board (rulebook, "Hera" and "Heroes").

Hera's player may recruit ONE hero per turn for 4 GP from the hero track; the
miniature goes to a land area the player controls and the card stays in front
of them. The track is refilled in the next Cycle Preparation. A hero is a unit
of strength 1 that controls its area and moves with troops (battle.py,
moves.py); military and sacrificial powers plug in through the engine's hooks.
"""
from .actions import Action
from .frames import Handler, handler, pop, push
from .queries import can_place_land, controlled_lands
from .turns import menu_item

HERO_COST = 4


def hero_sites(g, p) -> list:
    return [a for a in controlled_lands(g, p) if can_place_land(g, p, a)]


def _recruit_legal(g, f):
    p = f["p"]
    if f["god"] != "hera" or "hero" in f["once"] or g.purse(p) < HERO_COST or not hero_sites(g, p):
        return []
    return [Action("recruit_hero", what=h, n=HERO_COST) for h in g.s.hero_track if h]


def _recruit_apply(g, f, a):
    s, p = g.s, f["p"]
    g.pay(p, a.n)
    f["once"] = f["once"] + ("hero",)
    s.hero_track[s.hero_track.index(a.what)] = None
    s.hero_owner[a.what] = p
    s.hero_since[a.what] = s.cycle  # no sacrifice in the cycle of recruitment
    g.emit("hero_recruited", player=p, hero=a.what, cost=a.n)
    push(g, "place_hero", p, hero=a.what)


menu_item("recruit_hero", ("recruit_hero",))((_recruit_legal, _recruit_apply))


@handler("place_hero")
class PlaceHero(Handler):
    @staticmethod
    def legal(g, f):
        return [Action("place_hero", what=f["hero"], where=g.b.ids[a]) for a in hero_sites(g, f["p"])]

    @staticmethod
    def auto(g, f):
        if not hero_sites(g, f["p"]):  # nowhere to stand: the card is kept off the board
            pop(g, f)
            return True
        return False

    @staticmethod
    def apply(g, f, a):
        area = g.b.index[a.where]
        g.s.hero_at[f["hero"]] = area
        g.emit("hero_placed", player=f["p"], hero=f["hero"], area=area)
        pop(g, f)
