"""What every card, god, building and piece does, in the project's own words.

One source for the game screen's tooltips and for the rules page (GET /api/content and
/rules, server/pages.py). Written from the rulebooks and the rulings, never copied from
them. `content(ruleset, maelstrom)` gives everything a game of that ruleset uses,
as JSON-able data; nothing here names a ruling (R1..R31): those codes are for the code, not
for players.
"""
from __future__ import annotations

from typing import Any

from .cards import BASE_BONUSES, CLASSIC_CREATURES, CREATURES, HEROES, MAELSTROM_BONUSES
from .rulesets import RULESETS, Ruleset

NAMES = {"scylla-charybdis": "Scylla & Charybdis", "calydonian-boar": "Calydonian Boar"}


def name(card_id: str) -> str:
    return NAMES.get(card_id) or " ".join(w.capitalize() for w in card_id.split("-"))


# --- Mythological Creatures ----------------------------------------------------------------
# Where the miniature may stand comes from cards.CREATURES ("land", "sea", "any" or None).

CREATURE_TEXT = {c: card.text for c, card in CREATURES.items()}  # each written on its entry

# --- Heroes: (military power, sacrificial power) -----------------------------------------------

HERO_TEXT = {
    "ajax": ("Fights with a Strength of 2.", "Control 7 Land Areas: build a Metropolis."),
    "croesus": ("Pay 1 GP to roll your battle die again, as often as you like.",
                "Pay 15 GP: build a Metropolis."),
    "hector": ("When Troops invade his area, he destroys one of them before the battle.",
               "Turn 2 of your Priestesses into 1 Philosopher, as often as you like."),
    "helen": ("Her battle die always counts as 2.",
              "Own 2 basic Buildings of one type and 2 of another: they become a Metropolis."),
    "jason": ("On a Heroic Move he may cross enemy Fleets as if they were yours (not to retreat).",
              "All 8 of your Fleets on the board: build a Metropolis."),
    "odysseus": ("When he attacks, the defender's Fortresses give no bonus.",
                 "Own 3 basic Buildings of one type: they become a Metropolis."),
    "pandora": ("Enemy mercenary Troops in her battle switch to your side.",
                "Use the sacrificial power of a Hero on the Hero track."),
    "penthesilea": ("A battle round that ends in a tie is won by her side.",
                    "Your next Metropolis goes on her card, where nobody can attack it."),
    "perseus": ("Troops with him that would be destroyed in battle may retreat instead.",
                "Move your Troops and Heroes from one Land Area to any other, anywhere on the "
                "board."),
    "antigone": ("A 0 on your battle die counts as 3.",
                 "Give up Prosperity tokens worth 3 Cornucopias from your areas: build a "
                 "Metropolis."),
    "achilles": ("An enemy who loses a battle round must retreat at once, or lose all their "
                 "units there.",
                 "Build 2 basic Buildings of your choice in one Land Area you control."),
    "hippolyta": ("In her battles your Ports also count as Fortresses, and your Fortresses as "
                  "Ports.", "Control 2 other Heroes: build a Metropolis."),
    "leto": ("Can still move and be sacrificed when you chose Apollo.",
             "Have 2 of your Creatures on the board: build a Metropolis."),
    "penelope": ("+2 Strength in sea battles next to her Land Area.",
                 "Control 6 Sea Areas: build a Metropolis."),
    "pericles": ("His Heroic Moves always cost 1 GP.",
                 "All 8 of your basic Troops on the board: build a Metropolis."),
    "heracles": ("Destroys every Creature in an area he enters or crosses, and keeps its card.",
                 "Keep 2 Creature cards under him: build a Metropolis."),
}
HERO_COST = 4

# --- Metropolis bonuses --------------------------------------------------------------------

BONUS_TEXT = {
    "two-troops": ("Two Troops", "Gain two basic Troops on Land Areas you already control."),
    "prosperity": ("Prosperity", "Place a Prosperity token on one of your Land or Sea Areas."),
    "priestess": ("A Priestess", "Gain a Priestess."),
    "three-gp": ("3 GP", "Gain 3 GP."),
    "two-fleets": ("Two Fleets", "Gain two Fleets on Sea Areas you already control."),
    "reserve-creature": ("Reserve a Creature", "Put one of your Control tokens on a Creature of "
                         "the track: only you may buy it while it stays there."),
    "basic-building": ("A building", "Build a basic Building of your choice on one of your "
                       "Land Areas."),
    "troop-and-fleet": ("Troop and Fleet", "Gain a basic Troop on one of your Land Areas and a "
                        "Fleet on one of your Sea Areas."),
}


# --- gods ----------------------------------------------------------------------------------

def _gods(r: Ruleset) -> list[dict[str, Any]]:
    classic = r.name == "classic"
    def build(what: str) -> dict[str, str]:
        if classic:
            return {"text": f"Build a {what} on one of your Land Areas: as many as you can pay.",
                    "cost": f"{r.building_cost} GP each"}
        return {"text": f"Build a {what} on a free site of one of your Land Areas (or in place of one of "
                        f"your buildings).", "cost": "free"}
    creature = {"text": "Buy Creatures from the track.",
                "cost": "the card's price, minus 1 GP per Temple" + (" (at least 1 GP)" if classic else "")}
    heroic = {"text": "Heroic Moves: move a Hero, with Troops if you like, to a neighbouring "
                      "Land Area or along your Fleets.", "cost": "1 GP, then 2, 3… GP"}
    extra = [creature] if classic else [creature, heroic]
    gods = {
        "poseidon": {
            "summary": "The sea: Fleets, Ports and Sea Moves.",
            "actions": [build("Port"), {"text": "Recruit a Fleet in a sea next to your land.", "cost": "free"},
                        {"text": "Recruit up to 3 more Fleets.", "cost": "1, 2, 3 GP"},
                        {"text": "Sail Fleets from one sea up to 3 spaces, picking up or dropping Fleets "
                                 "on the way; entering enemy Fleets starts a sea battle." if classic else
                                 "Sea Move: Fleets from one Sea Area to a neighbouring one; entering enemy "
                                 "Fleets starts a sea battle.", "cost": "1 GP each"}] + extra},
        "ares": {
            "summary": "War: Troops, Fortresses and Land Moves.",
            "actions": [build("Fortress"), {"text": "Recruit a Troop on one of your Land Areas.", "cost": "free"},
                        {"text": "Recruit up to 3 more Troops.", "cost": "2, 3, 4 GP"},
                        {"text": "Land Move: Troops (and Heroes) from one Land Area to a neighbouring one "
                                 "or along a chain of your Fleets; entering enemy land starts a battle.",
                         "cost": "1 GP each"}, creature]},
        "zeus": {
            "summary": "The temple: Priestesses, Temples and the Creature deck.",
            "actions": [build("Temple"), {"text": "Recruit a Priestess.", "cost": "free"},
                        {"text": "Recruit one more Priestess.", "cost": "4 GP"},
                        {"text": "Throw away a Creature of the track and draw a new one in its place.",
                         "cost": "1 GP each"} if classic else
                        {"text": "Look secretly at the top Creature of the deck, once a cycle; you may play "
                                 "it for 1 GP, or put it back.", "cost": "look: free, play: 1 GP"}] + extra},
        "athena": {
            "summary": "Wisdom: Philosophers and Universities.",
            "actions": [build("University"), {"text": "Recruit a Philosopher.", "cost": "free"},
                        {"text": "Recruit one more Philosopher.", "cost": "4 GP"}] + extra},
        "hera": {
            "summary": "Mercenaries, Heroes and the building you lack.",
            "actions": [{"text": "Build a basic Building of a type you do not own yet.", "cost": "free"},
                        {"text": "Recruit a mercenary Troop on one of your Land Areas.", "cost": "free"},
                        {"text": "Recruit up to 3 more mercenaries.", "cost": "1, 3, 5 GP"},
                        {"text": "Recruit one Hero from the Hero track onto one of your Land Areas.",
                         "cost": f"{HERO_COST} GP"}, creature, heroic]},
    }
    out: list[dict[str, Any]] = []
    for g in r.gods:
        out.append({"id": g, "name": name(g), **gods[g]})
    apollo: dict[str, Any]
    if classic:
        apollo = {"summary": "Rest and save: the free choice, for any number of players.",
                  "actions": [{"text": "Gain 1 GP, or 4 GP if you have only one isle.", "cost": "free"},
                              {"text": "The first player on Apollo places a Prosperity token on an isle.",
                               "cost": "free"}]}
    else:
        apollo = {"summary": "Rest and grow rich: the free choice, for any number of players.",
                  "actions": [{"text": f"Gain {r.apollo_gp} GP.", "cost": "free"},
                              {"text": "Place a Prosperity token on one of your Land Areas and one on one "
                                       "of your Sea Areas.", "cost": "free"},
                              {"text": "No Creatures, no Hero moves or sacrifices this turn.", "cost": ""}]}
    out.append({"id": "apollo", "name": "Apollo", **apollo})
    for god in out:
        god["text"] = god["summary"] + " " + " ".join(
            a["text"] + (f" ({a['cost']})" if a["cost"] else "") for a in god["actions"])
    return out


# --- buildings and pieces ------------------------------------------------------------------

def _buildings(r: Ruleset) -> list[dict[str, Any]]:
    cost = f"{r.building_cost} GP on its god's turn" if r.building_cost else "free on its god's turn"
    return [
        {"id": "port", "name": "Port", "god": "poseidon", "cost": cost,
         "text": "+1 Strength to its owner in sea battles in the Sea Areas next to its Land Area."},
        {"id": "fortress", "name": "Fortress", "god": "ares", "cost": cost,
         "text": "+1 Strength to its owner when defending its Land Area."},
        {"id": "temple", "name": "Temple", "god": "zeus", "cost": cost,
         "text": "Each Temple takes 1 GP off one Creature purchase per cycle"
                 + (" (a Creature always costs at least 1 GP)." if r.creature_min_cost else ".")},
        {"id": "university", "name": "University", "god": "athena", "cost": cost,
         "text": "No power of its own, but one of the four buildings a Metropolis needs."},
        {"id": "metropolis", "name": "Metropolis", "cost": "",
         "text": "Works as a Port, a Fortress, a Temple and a University at once. "
                 f"{r.metropolises_to_win} Metropolises win the game."},
    ]


def _units(r: Ruleset) -> list[dict[str, Any]]:
    units = [
        {"id": "troop", "name": "Troop", "text": f"Fights on land with a Strength of 1. Each "
         f"player has {r.troops}.", "cost": "Ares: 1 free, then 2, 3, 4 GP"},
        {"id": "fleet", "name": "Fleet", "text": f"Fights at sea with a Strength of 1, and carries "
         f"Troops between islands in a chain. Each player has {r.fleets}.",
         "cost": "Poseidon: 1 free, then 1, 2, 3 GP"},
        {"id": "priestess", "name": "Priestess", "text": "Each one takes 1 GP off your offering"
         + (" (you always pay at least 1 GP to a god)." if r.min_payment else
            "; at Maintenance one Priestess keeps one of your Creatures on the board."),
         "cost": "Zeus: 1 free, 1 more for 4 GP"},
        {"id": "philosopher", "name": "Philosopher", "text": "Four Philosophers turn into a "
         "Metropolis at once.", "cost": "Athena: 1 free, 1 more for 4 GP"},
        {"id": "control", "name": "Control token", "text": "Marks a Land Area you hold with no "
         "unit on it; it stays yours until someone moves in."},
        {"id": "prosperity", "name": "Prosperity token", "text": "Adds one Cornucopia, 1 GP of "
         "income each cycle, to its area for whoever controls it.", "cost": "Apollo"},
        {"id": "cornucopia", "name": "Cornucopia", "text": "Printed income: 1 GP each cycle for "
         "whoever controls the area."},
        {"id": "gp", "name": "Gold (GP)", "text": "Pays for offerings, recruits, moves, buildings "
         "and Creatures. Each player's gold is hidden from the others"
         + (", except from teammates, who share one purse." if r.team_play else ".")},
    ]
    if r.mercenaries:
        units.insert(1, {"id": "merc", "name": "Mercenary", "text": "A grey Troop that fights "
                         "and moves like your own; when lost it goes back to the common supply.",
                         "cost": "Hera: 1 free, then 1, 3, 5 GP"})
    if r.heroes:
        units.append({"id": "hero", "name": "Hero", "text": "A unit with a Strength of 1, a "
                      "military power when it takes part, and a sacrificial power (often a "
                      "Metropolis) usable from the cycle after its recruitment.",
                      "cost": f"Hera: {HERO_COST} GP"})
    return units


# --- the rules, section by section -------------------------------------------------------------

def _sections(r: Ruleset, maelstrom: bool) -> list[dict[str, Any]]:
    classic = r.name == "classic"
    win = r.metropolises_to_win
    sec = []
    sec.append({"id": "goal", "title": "The goal", "paragraphs": [
        f"Be the one who controls {win} Metropolises at the end of a cycle. Metropolises are built "
        "from four different buildings, from four Philosophers"
        + (", by sacrificing a Hero" if r.heroes else "") + ", or taken by conquest."]})
    cycle = [
        "Each cycle runs the same steps:",
        "1. The Creature track is refreshed: the unbought card on the cheapest slot is discarded, the "
        "others slide down and new cards fill the empty slots"
        + (", and bought Heroes are replaced on the Hero track." if r.heroes else "."),
        "2. The gods are " + ("shuffled on the auction board" if classic else
                               "rotated on the auction board") + "; with fewer players some are face "
        "down and cannot be chosen this cycle.",
        "3. Income: 1 GP for each Cornucopia (printed or Prosperity token) in the areas you control.",
        "4. Offerings: in turn order each player offers GP to a god. Outbid someone and they must "
        "at once offer to another god. Apollo is free and takes everyone who wants him. Each "
        "Priestess takes 1 GP off what you pay" + (" (at least 1 GP)." if r.min_payment else "."),
    ]
    if not classic:
        cycle.append("5. Maintenance: keep each Creature miniature on the board by discarding a "
                     "Priestess (you may then move it one area); the others leave.")
    cycle.append(f"{'5' if classic else '6'}. Actions: the gods act in order from the top of the board, "
                 "each player doing their god's free actions first, then any paid ones. Apollo's "
                 "players act last. The order in which players finish sets next cycle's turn order.")
    if classic:
        cycle.append("A Creature miniature stays on the board until its owner's next turn.")
    sec.append({"id": "cycle", "title": "The cycle", "paragraphs": cycle})
    sec.append({"id": "battles", "title": "Battles", "paragraphs": [
        "Moving Troops onto enemy land, or Fleets into an enemy sea, starts a battle at once.",
        "Each round both sides roll the battle die (0, 1, 1, 2, 2, 3) and add 1 per unit"
        + (", hero" if r.heroes else "") + " taking part, the defender's Fortresses on land, and "
        "Ports next to the sea. The lower total loses a unit of its owner's choice; a tie costs "
        "both sides one.",
        "After each round the defender, then the attacker, may retreat to a free or friendly area; "
        "otherwise another round is fought until one side is left. The survivor controls the area.",
        "A player's last Land Area may not be attacked unless taking it wins the game."]})
    metro = [
        "Economic: as soon as you own a Port, a Fortress, a Temple and a University (anywhere), "
        "they are replaced by a Metropolis on one of your sites.",
        "Cultural: your fourth Philosopher becomes a Metropolis at once.",
    ]
    if r.heroes:
        metro.append("Heroic: many Heroes build a Metropolis when sacrificed (see each Hero).")
    metro.append("Conquest: take a Land Area holding a Metropolis and it is yours.")
    if r.metropolis_bonuses:
        metro.append("Each new Metropolis gives its builder a bonus, drawn from a stack. A player who "
                     "loses a Metropolis to a conqueror gets its bonus instead.")
    else:
        metro.append("Metropolises have no bonus in this edition.")
    sec.append({"id": "metropolises", "title": "Metropolises", "paragraphs": metro})
    victory = [f"The game ends after a cycle in which someone controls {win} or more Metropolises"
               + ("." if classic else ", or in which a player was eliminated."),
               "Most Metropolises wins" + (" (past two, they all count the same)" if r.score_caps_at_goal else "")
               + "; a tie goes to the player with the most GP; then the victory is shared."]
    sec.append({"id": "victory", "title": "Victory", "paragraphs": victory})
    modes = []
    if classic:
        modes.append("Two players: each has two offering markers and makes two offerings per cycle "
                     "(two gods, or Apollo twice).")
        modes.append("No Hera, no Heroes, no mercenaries and no Metropolis bonuses; buildings cost 2 GP "
                     "each and any number may be built on a god's turn; the Creature track has 3 slots.")
    else:
        modes.append("Teams: with 4 players you may play two teams, with 6 players you play three "
                     "teams of two. Partners share one purse (10 GP to start), never fight each "
                     "other, may cross but not stop in each other's areas, and build a Metropolis "
                     "from their four building types together. A team wins with 3 Metropolises "
                     "(or 4, if agreed).")
        modes.append("Two players: each person plays two factions of one team, with the team rules.")
        if maelstrom:
            modes.append("Maelström: adds 7 Heroes, 13 Creature cards and 3 Metropolis bonuses "
                         "(marked ✦ on this page).")
    sec.append({"id": "modes", "title": "Player counts and modes", "paragraphs": modes})
    return sec


def content(ruleset: str = "legendary", maelstrom: bool = True) -> dict[str, Any]:
    """Everything a game of `ruleset` is played with, each with its text."""
    if ruleset not in RULESETS:
        raise KeyError(f"no ruleset {ruleset!r}: one of {', '.join(RULESETS)}")
    r = RULESETS[ruleset]
    classic = ruleset == "classic"
    if classic:
        maelstrom = False
        copies = dict(CLASSIC_CREATURES)
        ids = [c for c, _ in CLASSIC_CREATURES]
    else:
        copies = {}
        ids = [c.name for c in CREATURES.values() if maelstrom or not c.maelstrom]
    creatures = []
    for c in ids:
        card = CREATURES[c]
        creatures.append({"id": c, "name": name(c), "text": CREATURE_TEXT[c],
                          "miniature": card.miniature, "maelstrom": card.maelstrom and not classic,
                          "copies": copies.get(c, 1),
                          "cost": f"{'–'.join(map(str, (r.creature_costs[0], r.creature_costs[-1])))} GP "
                                  "(its slot on the track), minus 1 GP per Temple"})
    heroes = []
    if r.heroes:
        for h in HEROES.values():
            if h.maelstrom and not maelstrom:
                continue
            mil, sac = HERO_TEXT[h.name]
            heroes.append({"id": h.name, "name": name(h.name), "military": mil, "sacrifice": sac,
                           "text": f"In battle: {mil} Sacrifice: {sac}", "maelstrom": h.maelstrom,
                           "cost": f"{HERO_COST} GP with Hera"})
    bonuses = []
    if r.metropolis_bonuses:
        for b in BASE_BONUSES + (MAELSTROM_BONUSES if maelstrom else ()):
            short, text = BONUS_TEXT[b]
            bonuses.append({"id": b, "name": short, "text": text, "maelstrom": b in MAELSTROM_BONUSES})
    return {
        "ruleset": ruleset,
        "maelstrom": maelstrom,
        "title": "Cyclades (2009 classic edition)" if classic else
                 "Cyclades Legendary Edition" + (" with Maelström" if maelstrom else ""),
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
