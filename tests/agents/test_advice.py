"""Help for a person at the table: hints and win chances (agents/advice.py), their
server routes (server/advice.py) and `cyclades replay --chances`.

- A hint is one of the legal actions, with a readable one-line reason; it reads only the
  player's own view: two games that differ only in what the player cannot know (another
  player's purse, the order of the Creature deck) give the same hint with the same seed.
- Reasons for offerings, buildings, moves and battle losses say what the action does, in the
  rulebook's words (no ruling codes, no area ids).
- Win chances add up to one per cycle (per side in team play), and the last cycle of a finished
  game favours its winner.
"""
import json
import random
import re

import pytest
from positions import act, scenario

import cyclades
from cyclades.agents import make_agent
from cyclades.agents.advice import Hint, chances, chances_lines, explain, hint
from cyclades.agents.match import play_match

NAMES = ["Ann", "Bob", "Cleo"]


def readable(text):
    """One sentence a player reads: capitalised, a full stop, no ruling code, no area id."""
    assert text and text[0].isupper() and text.endswith("."), text
    assert not re.search(r"\bR\d+\b", text), text
    assert "_" not in text and not re.search(r"\b[a-z]+-[a-z]+\b", text), text
    assert 20 <= len(text) <= 200, text


def _turn(god, areas, dice=()):
    """Player 0 (Ann) in the optional actions of a `god` turn on the small test map."""
    return scenario(areas=areas, dice=list(dice), player=[{"gp": 9}, {"gp": 5}, {"gp": 5}],
                    decision={"turn": {"player": 0, "god": god, "stage": "main"}})


def _battle_areas(corinth):
    """Ann (argos, a fleet in south) may attack Bob's corinth, whose fleet in north leads to
    naxos, where his units may retreat."""
    return {"argos": {"owner": 0, "troops": 3}, "corinth": {"owner": 1, **corinth}, "naxos": {"owner": 1},
            "north": {"owner": 1, "fleets": 1}, "south": {"owner": 0, "fleets": 1},
            "melos": {"owner": 2, "troops": 1}}


def _offer():
    return scenario(areas={"argos": {"owner": 0, "troops": 1}, "naxos": {"owner": 1, "troops": 1},
                           "melos": {"owner": 2, "troops": 1}},
                    player=[{"gp": 6}, {"gp": 4}, {"gp": 3}], turn_order=[0, 1, 2], decision={"offerings": {}})


def _build():
    """Athena's free University (the start of her turn), on argos or corinth."""
    return scenario(areas={"argos": {"owner": 0, "troops": 1}, "corinth": {"owner": 0},
                           "naxos": {"owner": 1, "troops": 1}, "melos": {"owner": 2, "troops": 1}},
                    player=[{"gp": 9}, {"gp": 5}, {"gp": 5}], decision={"turn": {"player": 0, "god": "athena"}})


def _move(corinth=None, dice=()):
    """Ann's Land Move from argos with 2 troops, at its destination: corinth, melos or ios."""
    g = _turn("ares", _battle_areas(corinth or {"troops": 2}), dice)
    act(g, "land_move", n=1)
    act(g, "origin", where="argos")
    act(g, "take", "troop", n=2)
    return g


def _battle(dice, corinth):
    g = _move(corinth, dice)
    act(g, "destination", where="corinth")
    return g


POSITIONS = {
    "offer": _offer,
    "build": _build,
    "move": _move,
    # 4 against 2: Bob loses a troop, then may retreat to naxos
    "retreat": lambda: _battle([2, 0], {"troops": 2}),
    # 5 against 2: Bob chooses to lose his troop or his mercenary
    "lose": lambda: _battle([3, 0], {"troops": 1, "mercs": 1}),
}


@pytest.mark.parametrize("kind,expected", [("offer", "bid"), ("build", "build"), ("move", "destination"),
                                           ("retreat", "retreat"), ("lose", "lose")])
def test_each_position_asks_the_decision_its_reason_is_tested_on(kind, expected):
    g = POSITIONS[kind]()
    legal = [a for a in g.legal_actions() if a.kind != "cancel"]
    assert expected in {a.kind for a in legal} and len(legal) > 1, legal


def test_a_hint_is_a_legal_action_with_a_reason():
    g = cyclades.new_game(players=3, seed=7)
    agents = [make_agent("greedy", seed=i) for i in range(3)]
    while g.state.phase != "offerings":
        g.apply(agents[g.to_move].act(g, g.to_move))
    h = hint(g, g.to_move, seed=1, names=NAMES)
    assert isinstance(h, Hint)
    assert h.action in g.legal_actions()
    readable(h.reason)
    assert h.to_json()["action"] == h.action.to_json()
    other = (g.to_move + 1) % 3
    with pytest.raises(ValueError, match=f"player_{other} has no decision to take now"):
        hint(g, other)  # not that player's move: refused by name, before any view is read


def test_a_hint_uses_only_the_players_view():
    """Two games that differ only in hidden information give the same hint (same seed)."""
    g = cyclades.new_game(players=3, seed=21)
    agents = [make_agent("greedy", seed=i) for i in range(3)]
    while g.state.phase != "offerings" or g.state.cycle < 2:
        g.apply(agents[g.to_move].act(g, g.to_move))
    p = g.to_move
    other = g.copy()
    q = (p + 1) % 3
    other.state.gp[q] += 7                                   # another player's purse
    random.Random(5).shuffle(other.state.creature_deck)       # the order of the deck
    assert other.state.creature_deck != g.state.creature_deck or len(g.state.creature_deck) < 2
    assert other.observe(p).view == g.observe(p).view     # the same for player p
    a, b = hint(g, p, seed=4, names=NAMES), hint(other, p, seed=4, names=NAMES)
    assert a == b
    assert a.action in g.legal_actions()


@pytest.mark.parametrize("kind,words", [
    ("offer", r"Athena|Zeus|Poseidon|Ares|Hera|Apollo"),
    ("build", r"Port|Fortress|Temple|University"),
    ("move", r"Move|attack|take|bring"),
    ("retreat", r"Retreat|Fight on|lose|win"),
    ("lose", r"Lose"),
])
def test_reasons_say_what_the_action_does(kind, words):
    """Set up positions (scenarios): an offering, a building, a Land Move's destination, a
    retreat and a battle loss to choose."""
    g = POSITIONS[kind]()
    p = g.to_move
    obs = g.observe(p)
    legal = [a for a in obs.legal_actions() if a.kind != "cancel"]
    for a in legal[:4]:
        text = explain(obs, a, names=NAMES, seed=2)
        readable(text)
        assert re.search(words, text, re.I), (a, text)


def test_an_offering_that_outbids_names_the_rival():
    """Bob (player 1) has offered 2 GP to Ares: Ann's offering of more to Ares outbids him."""
    g = scenario(areas={"argos": {"owner": 0, "troops": 1}, "naxos": {"owner": 1, "troops": 1},
                        "melos": {"owner": 2, "troops": 1}},
                 gods=["ares", "zeus", "poseidon", "athena", "hera"], faceup=5,
                 player=[{"gp": 6}, {"gp": 4}, {"gp": 3}], turn_order=[1, 0, 2], bids={"ares": [1, 2]},
                 decision={"offerings": {}})
    assert g.to_move == 0
    bids = [a for a in g.legal_actions() if a.kind == "bid" and a.what == "ares"]
    assert bids and all(a.n > 2 for a in bids)
    text = explain(g.observe(0), bids[0], names=NAMES)
    readable(text)
    assert text.startswith("Outbid Bob on "), text


@pytest.fixture(scope="module")
def finished():
    g = cyclades.new_game(players=3, seed=5, max_cycles=30)
    play_match(g, [make_agent("greedy", seed=i) for i in range(3)])
    assert g.is_over
    return g


def test_chances_sum_to_one_and_the_end_favours_the_winner(finished):
    doc = chances(finished.record(), NAMES)
    pts = doc["points"]
    assert [pt["cycle"] for pt in pts] == list(range(0, finished.state.cycle + 1))
    for pt in pts:
        assert sum(pt["side_chances"]) == pytest.approx(1.0, abs=1e-3)
        assert all(0.0 <= x <= 1.0 for x in pt["chances"])
    winner = finished.result()["winners"][0]
    last = pts[-1]["chances"]
    assert last[winner] == max(last) and last[winner] > 0.5


def test_chances_are_the_networks_estimate_from_the_view_of_the_player_to_move(finished, monkeypatch):
    """The chart shows the value network's estimate averaged over games sampled from the
    observation of the player to move (R24): deterministic for a seed, a distribution over the
    players, blind to what that player cannot see; the search's where no network loads."""
    from cyclades.agents import advice
    from cyclades.agents import evaluation as ev
    from cyclades.agents.advice import search_chances
    from cyclades.engine.game import Game
    record = finished.record()
    g = Game.from_record(record, upto=len(record["actions"]) // 2)
    first = search_chances(g, seed=1)
    assert first == search_chances(g, seed=1)
    assert sum(first) == pytest.approx(1.0, abs=1e-6) and all(0 <= x <= 1 for x in first)
    assert first != pytest.approx(ev.win_chances(g), abs=1e-6)  # not the heuristic of the position
    hidden = g.copy()  # another player's purse, which the player to move does not see
    other = next(q for q in range(g.state.n) if not g.sees_purse(g.to_move, q))
    hidden.state.gp[other] += 7
    assert search_chances(hidden, seed=1) == first
    # Without a network: the strong search from the same observation.
    monkeypatch.setattr(advice, "chance_network", lambda: None)
    from cyclades.agents.mcts import MCTSAgent
    searched = search_chances(g, iterations=40, seed=1)
    assert MCTSAgent(seed=1, iterations=40).estimate(g.observe(g.to_move)) == searched != first


def test_chances_in_team_play_are_per_team():
    g = cyclades.new_game(players=4, teams=True, seed=3, max_cycles=12)
    play_match(g, [make_agent("greedy", seed=i) for i in range(4)])
    doc = chances(g.record())
    assert len(doc["sides"]) == 2
    for pt in doc["points"]:
        assert sum(pt["side_chances"]) == pytest.approx(1.0, abs=1e-3)
    lines = chances_lines(doc)
    assert any("&" in line for line in lines)


def test_replay_chances_prints_a_table_and_a_chart(finished, tmp_path):
    from click.testing import CliRunner

    from cyclades.cli import main
    path = tmp_path / "game.json"
    path.write_text(json.dumps(finished.record()))
    out = CliRunner().invoke(main, ["replay", str(path), "--chances"])
    assert out.exit_code == 0, out.output
    text = out.output
    assert "Chance to win at the end of each cycle" in text
    rows = [line for line in text.splitlines() if re.match(r"^\s*(setup|\d+)\s+\d+%", line)]
    assert len(rows) == finished.state.cycle + 1
    assert re.search(r"\|[ ▁▂▃▄▅▆▇█]+\|", text)  # the small chart


# --- the server routes ---------------------------------------------------------------------------

@pytest.fixture
def client(tmp_path):
    from fastapi.testclient import TestClient

    from cyclades.server.app import create_app
    with TestClient(create_app(f"sqlite:///{tmp_path / 'g.db'}", bot_delay=0)) as c:
        yield c


def test_hint_route_for_the_seat_to_move_only(client, monkeypatch):
    r = client.post("/api/games", json={"players": 3, "seats": ["you", "invite", "invite"]})
    assert r.status_code == 201, r.text
    created = r.json()
    gid = created["game_id"]
    toks = {s["seat"]: s["token"] for s in created["seats"]}
    st = client.get(f"/api/games/{gid}", params={"token": toks[0]}).json()
    seat = st["view"]["to_move"]
    mine = client.get(f"/api/games/{gid}", params={"token": toks[seat]}).json()
    other = toks[(seat + 1) % 3]
    assert client.post(f"/api/games/{gid}/hint", json={"token": other}).status_code == 403
    assert client.post(f"/api/games/{gid}/hint", json={"token": "nope"}).status_code == 403
    assert client.post(f"/api/games/{gid}/hint", json={"token": toks[seat], "version": 999}).status_code == 409
    r = client.post(f"/api/games/{gid}/hint", json={"token": toks[seat], "version": mine["version"]})
    assert r.status_code == 200, r.text
    h = r.json()
    assert h["action"] in [{k: v for k, v in a.items() if k != "text"} for a in mine["legal_actions"]]  # less its words
    readable(h["reason"])
    # Asking again for the same position answers the same hint at once.
    assert client.post(f"/api/games/{gid}/hint", json={"token": toks[seat]}).json() == h
    client.post(f"/api/games/{gid}/actions", json={"token": toks[seat], "version": mine["version"],
                                                   "action": h["action"]})
    # A hint for each decision is always given, however many a minute: 14 decisions in a row.
    import cyclades.server.advice as route
    monkeypatch.setattr(route, "HINT_SECONDS", 0.05)
    for _ in range(14):
        st = client.get(f"/api/games/{gid}", params={"token": toks[0]}).json()
        nxt = st["view"]["to_move"]
        r = client.post(f"/api/games/{gid}/hint", json={"token": toks[nxt], "version": st["version"]})
        assert r.status_code == 200, r.text
        last = client.post(f"/api/games/{gid}/actions", json={"token": toks[nxt], "version": st["version"],
                                                              "action": r.json()["action"]}).json()
    # Only positions met again after an undo are limited (a client could ask for those without end).
    st = client.get(f"/api/games/{gid}", params={"token": toks[nxt]}).json()
    assert st["view"]["to_move"] == nxt and st["undo"]["steps"]  # placing: the same player again
    monkeypatch.setattr(route, "HINT_RATE", 0)
    r = client.post(f"/api/games/{gid}/undo", json={"token": toks[nxt], "version": last["version"]})
    assert r.status_code == 200, r.text
    assert client.post(f"/api/games/{gid}/hint", json={"token": toks[nxt]}).status_code == 429
    # Chances only once the game is over.
    assert client.get(f"/api/games/{gid}/chances").status_code == 409


def test_chances_route_of_a_finished_game(client):
    import time
    r = client.post("/api/games", json={"players": 3, "seats": ["random"] * 3, "seed": 9,
                                        "max_cycles": 3, "bot_delay": 0})
    gid = r.json()["game_id"]
    for _ in range(600):
        if client.get(f"/api/games/{gid}").json()["status"] == "over":
            break
        time.sleep(0.05)
    r = client.get(f"/api/games/{gid}/chances")
    assert r.status_code == 200, r.text
    doc = r.json()
    assert doc["points"][0]["cycle"] == 0 and len(doc["points"]) >= 2
    for pt in doc["points"]:
        assert sum(pt["side_chances"]) == pytest.approx(1.0, abs=1e-3)
    assert client.get(f"/api/replays/{gid}/chances").json()["points"] == doc["points"]


def test_a_reason_speaks_french():
    """The hint's reason is a catalog sentence: in French, Apollo's reason is French."""
    from cyclades.content.i18n import language
    g = _offer()
    apollo = [a for a in g.legal_actions() if a.kind == "apollo"]
    assert apollo
    with language("fr"):
        text = explain(g.observe(g.to_move), apollo[0], names=NAMES)
    readable(text)
    assert text.startswith("Apollon : "), text
    assert " PO" in text or "autres dieux" in text, text


@pytest.mark.parametrize("mode", [{"players": 3}, {"players": 3, "ruleset": "classic"}, {"players": 4, "teams": True}],
                         ids=["legendary-3", "classic-3", "teams-4"])
def test_every_reason_is_catalog_words(mode):
    """Every reason the hint can give, for the actions of many decisions of a random game, is
    made of catalog messages: in the pseudo-locale each letter is marked, but the players'
    names (given marked here) -- no English glued in around the translated parts."""
    import random

    from cyclades.agents import advice
    from cyclades.agents import evaluation as ev
    from cyclades.content.i18n import language, marked
    g = cyclades.new_game(seed=11, **mode)
    rng = random.Random(11)
    said = 0
    for step in range(600):
        if g.is_over:
            break
        legal = g.legal_actions()
        if step % 4 == 0:
            obs = g.observe(g.to_move)
            with language("qps"):
                names = ["⟦Ann⟧", "⟦Bob⟧", "⟦Cy⟧", "⟦Dee⟧"]
                reasoner = advice._Reasoner(obs, [ev.sample(obs, random.Random(step))], names)
                for a in legal[:6]:
                    text = reasoner.reason(a)
                    assert not text or marked(text), (str(a), text)
                    said += bool(text)
        g.apply(rng.choice(legal))
    assert said > 100
