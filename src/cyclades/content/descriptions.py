"""What every card, god, building and piece does, in the project's own words.

One source for the game screen's tooltips and for the rules page (GET /api/content and
/rules, server/pages.py). Written from the rulebooks and the rulings, never copied from
them. `content(ruleset, maelstrom)` gives everything a game of that ruleset uses,
as JSON-able data, in the current language (content/i18n.py: every sentence is a catalog
message); the names come from content/names.py. Nothing here names a ruling (R1..R31): those
codes are for the code, not for players.
"""
from __future__ import annotations

from typing import Any

from .cards import BASE_BONUSES, CLASSIC_CREATURES, CREATURES, HEROES, MAELSTROM_BONUSES
from .i18n import N_, _
from .names import BONUSES, title
from .rulesets import RULESETS, Ruleset


def name(card_id: str) -> str:
    """A card's, god's or building's title in the current language (content/names.py)."""
    return title(card_id)


# --- Mythological Creatures ----------------------------------------------------------------
# Where the miniature may stand comes from cards.CREATURES ("land", "sea", "any" or None).

CREATURE_TEXT = {c: card.text for c, card in CREATURES.items()}  # each written on its entry (English)

# --- Heroes: (military power, sacrificial power) -----------------------------------------------

HERO_TEXT = {
    "ajax": (N_("Fights with a Strength of 2."),
             N_("Control 7 Land Areas: build a Metropolis.")),
    "croesus": (N_("Pay 1 GP to roll your battle die again, as often as you like."),
             N_("Pay 15 GP: build a Metropolis.")),
    "hector": (N_("When Troops invade his area, he destroys one of them before the battle."),
             N_("Turn 2 of your Priestesses into 1 Philosopher, as often as you like.")),
    "helen": (N_("Her battle die always counts as 2."),
             N_("Own 2 basic Buildings of one type and 2 of another: they become a Metropolis.")),
    "jason": (N_("On a Heroic Move he may cross enemy Fleets as if they were yours (not to retreat)."),
             N_("All 8 of your Fleets on the board: build a Metropolis.")),
    "odysseus": (N_("When he attacks, the defender's Fortresses give no bonus."),
             N_("Own 3 basic Buildings of one type: they become a Metropolis.")),
    "pandora": (N_("Enemy mercenary Troops in her battle switch to your side."),
             N_("Use the sacrificial power of a Hero on the Hero track.")),
    "penthesilea": (N_("A battle round that ends in a tie is won by her side."),
             N_("Your next Metropolis goes on her card, where nobody can attack it.")),
    "perseus": (N_("Troops with him that would be destroyed in battle may retreat instead."),
             N_("Move your Troops and Heroes from one Land Area to any other, anywhere on the "
                "board.")),
    "antigone": (N_("A 0 on your battle die counts as 3."),
             N_("Give up Prosperity tokens worth 3 Cornucopias from your areas: build a "
                 "Metropolis.")),
    "achilles": (N_("An enemy who loses a battle round must retreat at once, or lose all their "
                 "units there."),
             N_("Build 2 basic Buildings of your choice in one Land Area you control.")),
    "hippolyta": (N_("In her battles your Ports also count as Fortresses, and your Fortresses as "
                  "Ports."),
             N_("Control 2 other Heroes: build a Metropolis.")),
    "leto": (N_("Can still move and be sacrificed when you chose Apollo."),
             N_("Have 2 of your Creatures on the board: build a Metropolis.")),
    "penelope": (N_("+2 Strength in sea battles next to her Land Area."),
             N_("Control 6 Sea Areas: build a Metropolis.")),
    "pericles": (N_("His Heroic Moves always cost 1 GP."),
             N_("All 8 of your basic Troops on the board: build a Metropolis.")),
    "heracles": (N_("Destroys every Creature in an area he enters or crosses, and keeps its card."),
             N_("Keep 2 Creature cards under him: build a Metropolis.")),
}
HERO_COST = 4

# --- Metropolis bonuses (their titles: content/names.py) -----------------------------------

BONUS_TEXT = {
    "two-troops": N_("Gain two basic Troops on Land Areas you already control."),
    "prosperity": N_("Place a Prosperity token on one of your Land or Sea Areas."),
    "priestess": N_("Gain a Priestess."),
    "three-gp": N_("Gain 3 GP."),
    "two-fleets": N_("Gain two Fleets on Sea Areas you already control."),
    "reserve-creature": N_("Put one of your Control tokens on a Creature of the track: only you may buy "
                           "it while it stays there."),
    "basic-building": N_("Build a basic Building of your choice on one of your Land Areas."),
    "troop-and-fleet": N_("Gain a basic Troop on one of your Land Areas and a Fleet on one of your Sea "
                          "Areas."),
}


def gp(n: int) -> str:
    return _("{n} GP").format(n=n)


def free() -> str:
    return _("free")


# --- gods ----------------------------------------------------------------------------------

def _builds(r: Ruleset) -> dict[str, dict[str, str]]:
    """Each god's building action, a whole sentence per building."""
    if r.name == "classic":
        cost = {"cost": _("{n} GP each").format(n=r.building_cost)}
        return {"port": {"text": _("Build a Port on one of your Land Areas: as many as you can pay."), **cost},
                "fortress": {"text": _("Build a Fortress on one of your Land Areas: as many as you can pay."),
                             **cost},
                "temple": {"text": _("Build a Temple on one of your Land Areas: as many as you can pay."), **cost},
                "university": {"text": _("Build a University on one of your Land Areas: as many as you can "
                                         "pay."), **cost}}
    cost = {"cost": free()}
    return {"port": {"text": _("Build a Port on a free site of one of your Land Areas (or in place of one of "
                               "your buildings)."), **cost},
            "fortress": {"text": _("Build a Fortress on a free site of one of your Land Areas (or in place of "
                                   "one of your buildings)."), **cost},
            "temple": {"text": _("Build a Temple on a free site of one of your Land Areas (or in place of one "
                                 "of your buildings)."), **cost},
            "university": {"text": _("Build a University on a free site of one of your Land Areas (or in place "
                                     "of one of your buildings)."), **cost}}


def _gods(r: Ruleset) -> list[dict[str, Any]]:
    classic = r.name == "classic"
    build = _builds(r)
    creature = {"text": _("Buy Creatures from the track."),
                "cost": _("the card's price, minus 1 GP per Temple (at least 1 GP)") if classic
                else _("the card's price, minus 1 GP per Temple")}
    heroic = {"text": _("Heroic Moves: move a Hero, with Troops if you like, to a neighbouring Land Area or "
                        "along your Fleets."), "cost": _("1 GP, then 2, 3… GP")}
    extra = [creature] if classic else [creature, heroic]
    each = _("1 GP each")
    gods = {
        "poseidon": {
            "summary": _("The sea: Fleets, Ports and Sea Moves."),
            "actions": [build["port"], {"text": _("Recruit a Fleet in a sea next to your land."), "cost": free()},
                        {"text": _("Recruit up to 3 more Fleets."), "cost": _("1, 2, 3 GP")},
                        {"text": _("Sail Fleets from one sea up to 3 spaces, picking up or dropping Fleets on "
                                   "the way; entering enemy Fleets starts a sea battle.") if classic else
                                 _("Sea Move: Fleets from one Sea Area to a neighbouring one; entering enemy "
                                   "Fleets starts a sea battle."), "cost": each}] + extra},
        "ares": {
            "summary": _("War: Troops, Fortresses and Land Moves."),
            "actions": [build["fortress"], {"text": _("Recruit a Troop on one of your Land Areas."), "cost": free()},
                        {"text": _("Recruit up to 3 more Troops."), "cost": _("2, 3, 4 GP")},
                        {"text": _("Land Move: Troops (and Heroes) from one Land Area to a neighbouring one or "
                                   "along a chain of your Fleets; entering enemy land starts a battle."),
                         "cost": each}, creature]},
        "zeus": {
            "summary": _("The temple: Priestesses, Temples and the Creature deck."),
            "actions": [build["temple"], {"text": _("Recruit a Priestess."), "cost": free()},
                        {"text": _("Recruit one more Priestess."), "cost": gp(4)},
                        {"text": _("Throw away a Creature of the track and draw a new one in its place."),
                         "cost": each} if classic else
                        {"text": _("Look secretly at the top Creature of the deck, once a cycle; you may play it "
                                   "for 1 GP, or put it back."), "cost": _("look: free, play: 1 GP")}] + extra},
        "athena": {
            "summary": _("Wisdom: Philosophers and Universities."),
            "actions": [build["university"], {"text": _("Recruit a Philosopher."), "cost": free()},
                        {"text": _("Recruit one more Philosopher."), "cost": gp(4)}] + extra},
        "hera": {
            "summary": _("Mercenaries, Heroes and the building you lack."),
            "actions": [{"text": _("Build a basic Building of a type you do not own yet."), "cost": free()},
                        {"text": _("Recruit a mercenary Troop on one of your Land Areas."), "cost": free()},
                        {"text": _("Recruit up to 3 more mercenaries."), "cost": _("1, 3, 5 GP")},
                        {"text": _("Recruit one Hero from the Hero track onto one of your Land Areas."),
                         "cost": gp(HERO_COST)}, creature, heroic]},
    }
    out: list[dict[str, Any]] = []
    for g in r.gods:
        out.append({"id": g, "name": name(g), **gods[g]})
    apollo: dict[str, Any]
    if classic:
        apollo = {"summary": _("Rest and save: the free choice, for any number of players."),
                  "actions": [{"text": _("Gain 1 GP, or 4 GP if you have only one isle."), "cost": free()},
                              {"text": _("The first player on Apollo places a Prosperity token on an isle."),
                               "cost": free()}]}
    else:
        apollo = {"summary": _("Rest and grow rich: the free choice, for any number of players."),
                  "actions": [{"text": _("Gain {n} GP.").format(n=r.apollo_gp), "cost": free()},
                              {"text": _("Place a Prosperity token on one of your Land Areas and one on one of your "
                                         "Sea Areas."), "cost": free()},
                              {"text": _("No Creatures, no Hero moves or sacrifices this turn."), "cost": ""}]}
    out.append({"id": "apollo", "name": name("apollo"), **apollo})
    for god in out:
        god["text"] = god["summary"] + " " + " ".join(
            a["text"] + (f" ({a['cost']})" if a["cost"] else "") for a in god["actions"])
    return out


# --- buildings and pieces ------------------------------------------------------------------

def _buildings(r: Ruleset) -> list[dict[str, Any]]:
    cost = (_("{n} GP on its god's turn").format(n=r.building_cost) if r.building_cost
            else _("free on its god's turn"))
    return [
        {"id": "port", "name": name("port"), "god": "poseidon", "cost": cost,
         "text": _("+1 Strength to its owner in sea battles in the Sea Areas next to its Land Area.")},
        {"id": "fortress", "name": name("fortress"), "god": "ares", "cost": cost,
         "text": _("+1 Strength to its owner when defending its Land Area.")},
        {"id": "temple", "name": name("temple"), "god": "zeus", "cost": cost,
         "text": _("Each Temple takes 1 GP off one Creature purchase per cycle (a Creature always costs at "
                   "least 1 GP).") if r.creature_min_cost else
         _("Each Temple takes 1 GP off one Creature purchase per cycle.")},
        {"id": "university", "name": name("university"), "god": "athena", "cost": cost,
         "text": _("No power of its own, but one of the four buildings a Metropolis needs.")},
        {"id": "metropolis", "name": name("metropolis"), "cost": "",
         "text": _("Works as a Port, a Fortress, a Temple and a University at once. {n} Metropolises win the "
                   "game.").format(n=r.metropolises_to_win)},
    ]


def _units(r: Ruleset) -> list[dict[str, Any]]:
    units = [
        {"id": "troop", "name": _("Troop"),
         "text": _("Fights on land with a Strength of 1. Each player has {n}.").format(n=r.troops),
         "cost": _("Ares: 1 free, then 2, 3, 4 GP")},
        {"id": "fleet", "name": _("Fleet"),
         "text": _("Fights at sea with a Strength of 1, and carries Troops between islands in a chain. Each "
                   "player has {n}.").format(n=r.fleets),
         "cost": _("Poseidon: 1 free, then 1, 2, 3 GP")},
        {"id": "priestess", "name": _("Priestess"),
         "text": _("Each one takes 1 GP off your offering (you always pay at least 1 GP to a god).")
         if r.min_payment else
         _("Each one takes 1 GP off your offering; at Maintenance one Priestess keeps one of your Creatures "
           "on the board."),
         "cost": _("Zeus: 1 free, 1 more for 4 GP")},
        {"id": "philosopher", "name": _("Philosopher"),
         "text": _("Four Philosophers turn into a Metropolis at once."),
         "cost": _("Athena: 1 free, 1 more for 4 GP")},
        {"id": "control", "name": _("Control token"),
         "text": _("Marks a Land Area you hold with no unit on it; it stays yours until someone moves in.")},
        {"id": "prosperity", "name": _("Prosperity token"),
         "text": _("Adds one Cornucopia, 1 GP of income each cycle, to its area for whoever controls it."),
         "cost": name("apollo")},
        {"id": "cornucopia", "name": _("Cornucopia"),
         "text": _("Printed income: 1 GP each cycle for whoever controls the area.")},
        {"id": "gp", "name": _("Gold (GP)"),
         "text": _("Pays for offerings, recruits, moves, buildings and Creatures. Each player's gold is hidden "
                   "from the others, except from teammates, who share one purse.") if r.team_play else
         _("Pays for offerings, recruits, moves, buildings and Creatures. Each player's gold is hidden from "
           "the others.")},
    ]
    if r.mercenaries:
        units.insert(1, {"id": "merc", "name": _("Mercenary"),
                         "text": _("A grey Troop that fights and moves like your own; when lost it goes back to "
                                   "the common supply."),
                         "cost": _("Hera: 1 free, then 1, 3, 5 GP")})
    if r.heroes:
        units.append({"id": "hero", "name": _("Hero"),
                      "text": _("A unit with a Strength of 1, a military power when it takes part, and a "
                                "sacrificial power (often a Metropolis) usable from the cycle after its "
                                "recruitment."),
                      "cost": _("Hera: {n} GP").format(n=HERO_COST)})
    return units


# --- the rules, section by section -------------------------------------------------------------

def _cycle(r: Ruleset) -> list[str]:
    classic = r.name == "classic"
    steps = [_("Each cycle runs the same steps:"),
             _("1. The Creature track is refreshed: the unbought card on the cheapest slot is discarded, the "
               "others slide down and new cards fill the empty slots, and bought Heroes are replaced on the Hero "
               "track.") if r.heroes else
             _("1. The Creature track is refreshed: the unbought card on the cheapest slot is discarded, the "
               "others slide down and new cards fill the empty slots."),
             _("2. The gods are shuffled on the auction board; with fewer players some are face down and cannot "
               "be chosen this cycle.") if classic else
             _("2. The gods are rotated on the auction board; with fewer players some are face down and cannot "
               "be chosen this cycle."),
             _("3. Income: 1 GP for each Cornucopia (printed or Prosperity token) in the areas you control."),
             _("4. Offerings: in turn order each player offers GP to a god. Outbid someone and they must at once "
               "offer to another god. Apollo is free and takes everyone who wants him. Each Priestess takes 1 GP "
               "off what you pay (at least 1 GP).") if r.min_payment else
             _("4. Offerings: in turn order each player offers GP to a god. Outbid someone and they must at once "
               "offer to another god. Apollo is free and takes everyone who wants him. Each Priestess takes 1 GP "
               "off what you pay.")]
    if classic:
        steps.append(_("5. Actions: the gods act in order from the top of the board, each player doing their god's "
                       "free actions first, then any paid ones. Apollo's players act last. The order in which "
                       "players finish sets next cycle's turn order."))
        steps.append(_("A Creature miniature stays on the board until its owner's next turn."))
    else:
        steps.append(_("5. Maintenance: keep each Creature miniature on the board by discarding a Priestess (you "
                       "may then move it one area); the others leave."))
        steps.append(_("6. Actions: the gods act in order from the top of the board, each player doing their god's "
                       "free actions first, then any paid ones. Apollo's players act last. The order in which "
                       "players finish sets next cycle's turn order."))
    return steps


def _sections(r: Ruleset, maelstrom: bool) -> list[dict[str, Any]]:
    classic = r.name == "classic"
    win = r.metropolises_to_win
    sec = []
    goal = (_("Be the one who controls {n} Metropolises at the end of a cycle. Metropolises are built from four "
              "different buildings, from four Philosophers, by sacrificing a Hero, or taken by conquest.")
            if r.heroes else
            _("Be the one who controls {n} Metropolises at the end of a cycle. Metropolises are built from four "
              "different buildings, from four Philosophers, or taken by conquest."))
    sec.append({"id": "goal", "title": _("The goal"), "paragraphs": [goal.format(n=win)]})
    sec.append({"id": "cycle", "title": _("The cycle"), "paragraphs": _cycle(r)})
    sec.append({"id": "battles", "title": _("Battles"), "paragraphs": [
        _("Moving Troops onto enemy land, or Fleets into an enemy sea, starts a battle at once."),
        _("Each round both sides roll the battle die (0, 1, 1, 2, 2, 3) and add 1 per unit, hero taking part, "
          "the defender's Fortresses on land, and Ports next to the sea. The lower total loses a unit of its "
          "owner's choice; a tie costs both sides one.") if r.heroes else
        _("Each round both sides roll the battle die (0, 1, 1, 2, 2, 3) and add 1 per unit taking part, the "
          "defender's Fortresses on land, and Ports next to the sea. The lower total loses a unit of its "
          "owner's choice; a tie costs both sides one."),
        _("After each round the defender, then the attacker, may retreat to a free or friendly area; "
          "otherwise another round is fought until one side is left. The survivor controls the area."),
        _("A player's last Land Area may not be attacked unless taking it wins the game.")]})
    metro = [
        _("Economic: as soon as you own a Port, a Fortress, a Temple and a University (anywhere), they are "
          "replaced by a Metropolis on one of your sites."),
        _("Cultural: your fourth Philosopher becomes a Metropolis at once."),
    ]
    if r.heroes:
        metro.append(_("Heroic: many Heroes build a Metropolis when sacrificed (see each Hero)."))
    metro.append(_("Conquest: take a Land Area holding a Metropolis and it is yours."))
    if r.metropolis_bonuses:
        metro.append(_("Each new Metropolis gives its builder a bonus, drawn from a stack. A player who loses a "
                       "Metropolis to a conqueror gets its bonus instead."))
    else:
        metro.append(_("Metropolises have no bonus in this edition."))
    sec.append({"id": "metropolises", "title": _("Metropolises"), "paragraphs": metro})
    end = (_("The game ends after a cycle in which someone controls {n} or more Metropolises.") if classic else
           _("The game ends after a cycle in which someone controls {n} or more Metropolises, or in which a "
             "player was eliminated.")).format(n=win)
    winner = (_("Most Metropolises wins (past two, they all count the same); a tie goes to the player with the "
                "most GP; then the victory is shared.") if r.score_caps_at_goal else
              _("Most Metropolises wins; a tie goes to the player with the most GP; then the victory is shared."))
    sec.append({"id": "victory", "title": _("Victory"), "paragraphs": [end, winner]})
    modes = []
    if classic:
        modes.append(_("Two players: each has two offering markers and makes two offerings per cycle (two gods, "
                       "or Apollo twice)."))
        modes.append(_("No Hera, no Heroes, no mercenaries and no Metropolis bonuses; buildings cost 2 GP each "
                       "and any number may be built on a god's turn; the Creature track has 3 slots."))
    else:
        modes.append(_("Teams: with 4 players you may play two teams, with 6 players you play three teams of "
                       "two. Partners share one purse (10 GP to start), never fight each other, may cross but "
                       "not stop in each other's areas, and build a Metropolis from their four building types "
                       "together. A team wins with 3 Metropolises (or 4, if agreed)."))
        modes.append(_("Two players: each person plays two factions of one team, with the team rules."))
        if maelstrom:
            modes.append(_("Maelström: adds 7 Heroes, 13 Creature cards and 3 Metropolis bonuses (marked ✦ on "
                           "this page)."))
    sec.append({"id": "modes", "title": _("Player counts and modes"), "paragraphs": modes})
    return sec


def _title(ruleset: str, maelstrom: bool) -> str:
    if ruleset == "classic":
        return _("Cyclades (2009 classic edition)")
    return _("Cyclades Legendary Edition with Maelström") if maelstrom else _("Cyclades Legendary Edition")


def content(ruleset: str = "legendary", maelstrom: bool = True) -> dict[str, Any]:
    """Everything a game of `ruleset` is played with, each with its text, in the current language."""
    if ruleset not in RULESETS:
        raise KeyError(f"no ruleset {ruleset!r}: one of {', '.join(RULESETS)}")
    r = RULESETS[ruleset]
    classic = ruleset == "classic"
    if classic:
        maelstrom = False
        copies = dict(CLASSIC_CREATURES)
        ids = [c for c, _copies in CLASSIC_CREATURES]
    else:
        copies = {}
        ids = [c.name for c in CREATURES.values() if maelstrom or not c.maelstrom]
    low, high = r.creature_costs[0], r.creature_costs[-1]
    creature_cost = _("{low}–{high} GP (its slot on the track), minus 1 GP per Temple").format(low=low, high=high)
    creatures = []
    for c in ids:
        card = CREATURES[c]
        creatures.append({"id": c, "name": name(c), "text": _(CREATURE_TEXT[c]),
                          "miniature": card.miniature, "maelstrom": card.maelstrom and not classic,
                          "copies": copies.get(c, 1), "cost": creature_cost})
    heroes = []
    if r.heroes:
        for h in HEROES.values():
            if h.maelstrom and not maelstrom:
                continue
            mil, sac = (_(t) for t in HERO_TEXT[h.name])
            heroes.append({"id": h.name, "name": name(h.name), "military": mil, "sacrifice": sac,
                           "text": _("In battle: {military} Sacrifice: {sacrifice}").format(military=mil,
                                                                                            sacrifice=sac),
                           "maelstrom": h.maelstrom, "cost": _("{n} GP with Hera").format(n=HERO_COST)})
    bonuses = []
    if r.metropolis_bonuses:
        for b in BASE_BONUSES + (MAELSTROM_BONUSES if maelstrom else ()):
            bonuses.append({"id": b, "name": _(BONUSES[b][0]), "text": _(BONUS_TEXT[b]),
                            "maelstrom": b in MAELSTROM_BONUSES})
    return {
        "ruleset": ruleset,
        "maelstrom": maelstrom,
        "title": _title(ruleset, maelstrom),
        "metropolises_to_win": r.metropolises_to_win,
        "creature_costs": list(r.creature_costs),
        "players": list(r.players),
        "gods": _gods(r),
        "buildings": _buildings(r),
        "units": _units(r),
        "creatures": creatures,
        "heroes": heroes,
        "bonuses": bonuses,
        "sections": _sections(r, maelstrom),
    }
