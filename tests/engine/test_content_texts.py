"""The texts behind the tooltips and the rules page (content/descriptions.py, GET /api/content)."""
import json
import re

import pytest

from cyclades.content.cards import BASE_BONUSES, CLASSIC_CREATURES, CREATURES, HEROES, MAELSTROM_BONUSES
from cyclades.content.descriptions import content
from cyclades.content.rulesets import RULESETS
from cyclades.engine.game import Game

MODES = [("legendary", True), ("legendary", False), ("classic", False)]


@pytest.mark.parametrize("ruleset,maelstrom", MODES)
def test_every_card_of_the_ruleset_has_a_text(ruleset, maelstrom):
    c = content(ruleset, maelstrom)
    r = RULESETS[ruleset]
    if ruleset == "classic":
        creatures = {x for x, _ in CLASSIC_CREATURES}
        heroes, bonuses = set(), set()
    else:
        creatures = {x.name for x in CREATURES.values() if maelstrom or not x.maelstrom}
        heroes = {x.name for x in HEROES.values() if maelstrom or not x.maelstrom}
        bonuses = set(BASE_BONUSES + (MAELSTROM_BONUSES if maelstrom else ()))
    assert {x["id"] for x in c["creatures"]} == creatures
    assert {x["id"] for x in c["heroes"]} == heroes
    assert {x["id"] for x in c["bonuses"]} == bonuses
    assert [g["id"] for g in c["gods"]] == list(r.gods) + ["apollo"]
    assert {b["id"] for b in c["buildings"]} == {"port", "fortress", "temple", "university", "metropolis"}
    units = {u["id"] for u in c["units"]}
    assert {"troop", "fleet", "priestess", "philosopher", "prosperity", "gp"} <= units
    assert ("merc" in units) == bool(r.mercenaries) and ("hero" in units) == r.heroes
    for x in c["creatures"] + c["bonuses"] + c["buildings"] + c["units"]:
        assert len(x["text"]) >= 10 and x["name"], x
    for x in c["heroes"]:
        assert x["military"] and x["sacrifice"] and x["cost"] == "4 GP with Hera"
    for x in c["creatures"]:
        assert "GP" in x["cost"]
    for g in c["gods"]:  # every action with its cost (free or a price), Apollo's last line apart
        assert g["summary"] and g["actions"]
        assert all(a["cost"] for a in g["actions"] if not a["text"].startswith("No "))
    # Maelström cards are marked (only in a Legendary game with the module).
    marked = {x["id"] for x in c["creatures"] + c["heroes"] + c["bonuses"] if x["maelstrom"]}
    assert bool(marked) == (ruleset == "legendary" and maelstrom)


@pytest.mark.parametrize("ruleset,maelstrom", MODES)
def test_no_ruling_codes_and_no_other_edition_on_screen(ruleset, maelstrom):
    c = content(ruleset, maelstrom)
    text = json.dumps(c, ensure_ascii=False)
    assert not re.search(r"\bR\d{1,2}\b", text), "ruling codes are for the code, not for players"
    if ruleset == "classic":
        gods = " ".join(json.dumps(g) for g in c["gods"])
        assert "Hera" not in gods and "Heroic" not in gods and "Hero" not in json.dumps(c["units"])
        assert c["creature_costs"] == [2, 3, 4] and c["metropolises_to_win"] == 2
        assert "2 GP each" in json.dumps(c["gods"])


def test_classic_costs_follow_the_ruleset():
    legendary, classic = content("legendary"), content("classic")
    zeus = {g["id"]: g for g in classic["gods"]}["zeus"]
    assert any("Creature" in a["text"] and a["cost"] == "1 GP each" for a in zeus["actions"])
    poseidon = {g["id"]: g for g in legendary["gods"]}["poseidon"]
    assert {"text": "Recruit up to 3 more Fleets.", "cost": "1, 2, 3 GP"} in poseidon["actions"]
    hera = {g["id"]: g for g in legendary["gods"]}["hera"]
    assert any(a["cost"] == "4 GP" and "Hero" in a["text"] for a in hera["actions"])


def test_every_card_a_game_deals_is_described():
    """The cards in play in real games all have texts (the tooltips never come up empty)."""
    for ruleset, maelstrom in MODES:
        g = Game.new(players=5 if ruleset == "classic" else 4, ruleset=ruleset, maelstrom=maelstrom, seed=3)
        c = content(ruleset, maelstrom)
        ids = {x["id"] for x in c["creatures"]}
        v = g.view(None)
        dealt = [x["card"] for x in v["creature_track"] if x["card"]]
        assert set(dealt) <= ids
        assert set(v["hero_track"]) <= {x["id"] for x in c["heroes"]}


def test_content_endpoint_and_rules_page(tmp_path):
    from fastapi.testclient import TestClient

    from cyclades.server.app import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}")) as client:
        r = client.get("/api/content", params={"ruleset": "classic"})
        assert r.status_code == 200 and r.json() == json.loads(json.dumps(content("classic")))
        assert client.get("/api/content", params={"ruleset": "nope"}).status_code == 422
        assert client.get("/api/content", params={"maelstrom": "false"}).json()["heroes"] == \
            json.loads(json.dumps(content("legendary", False)))["heroes"]
        page = client.get("/rules", params={"ruleset": "classic"})
        assert page.status_code == 200 and "rules.js" in page.text
        gid = client.post("/api/games", json={"players": 3, "seed": 5}).json()["game_id"]
        setup = client.get(f"/api/games/{gid}/setup").json()
        assert setup["ruleset"] == "legendary" and setup["maelstrom"] is True and setup["teams"] is None
        assert setup["seat_factions"] == [[0], [1], [2]] and "seed" not in json.dumps(setup)
        assert client.get("/api/games/nope/setup").status_code == 404


def test_seat_factions():
    from cyclades.server.pages import seat_factions
    assert seat_factions({"players": 4, "teams": [0, 1, 0, 1]}, 2) == [[0, 2], [1, 3]]
    assert seat_factions({"players": 6, "teams": [0, 1, 2, 0, 1, 2]}, 6) == [[i] for i in range(6)]
    assert seat_factions({"players": 5}, 5) == [[i] for i in range(5)]
