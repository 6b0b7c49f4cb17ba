"""The game log in the rulebook's words (engine/log.py): one sentence per event, declared with
the event (engine/events.py `says=`)."""
import ast
import random
import re
from pathlib import Path

import pytest
from positions import act, scenario

import cyclades
from cyclades.engine import log
from cyclades.engine.events import EVENTS, KINDS, Field, Kind
from cyclades.engine.log import Narrator, describe

ENGINE = Path(cyclades.__file__).parent / "engine"


def clean(sentence):
    """A finished English sentence: not empty, no Python leftovers."""
    return (sentence and sentence.endswith(".") and "None" not in sentence
            and not re.search(r"[{}\[\]]|\(\)|''", sentence))


def lines(game, events, names=None):
    return Narrator(game, names, full=True).lines(events)


# --- sentences for the rules, on hand-made positions -----------------------------------------

def offering_position(**extra):
    return scenario(gods=["zeus", "ares", "athena", "poseidon", "hera"], faceup=2,
                    turn_order=[0, 1, 2], player=[{"gp": 9}, {"gp": 9}, {"gp": 9}],
                    areas={"argos": {"owner": 0, "troops": 1}, "naxos": {"owner": 1, "troops": 1},
                           "melos": {"owner": 2, "troops": 1}},
                    decision={"offerings": {}}, **extra)


def test_offering_and_outbid_sentences_rulebook_offerings():
    """Rulebook, 3- Offerings: a player offers GP to a god; the player outbid there must
    IMMEDIATELY bid on another god (R10). The log says both, in that order."""
    g = offering_position()
    assert lines(g, act(g, "bid", "zeus", n=3)) == ["Player 1 offers 3 GP to Zeus."]
    text = lines(g, act(g, "bid", "zeus", n=5))
    assert text == ["Player 2 offers 5 GP to Zeus.", "Player 1 is outbid on Zeus and must bid again."]
    assert g.to_move == 0  # the outbid player bids again at once
    assert lines(g, act(g, "apollo")) == ["Player 1 makes an Offering to Apollo."]


def test_payment_sentence_with_priestess_discount_r12():
    """R12: the Offering is paid less one GP per Priestess; the log states what is paid."""
    g = scenario(gods=["zeus", "ares", "athena", "poseidon", "hera"], faceup=2, turn_order=[0, 1, 2],
                 player=[{"gp": 9, "priestesses": 2}, {"gp": 9}, {"gp": 9}],
                 areas={"argos": {"owner": 0, "troops": 1}, "naxos": {"owner": 1, "troops": 1},
                        "melos": {"owner": 2, "troops": 1}})
    act(g, "bid", "zeus", n=5)
    act(g, "bid", "ares", n=2)
    events = act(g, "apollo")  # the last offering: payment follows at once
    text = lines(g, events)
    assert "Player 1 pays 3 GP to Zeus." in text
    assert "Player 2 pays 2 GP to Ares." in text


def sea_battle_position(dice, attackers=2, defenders=2):
    return scenario(gods=["poseidon", "ares", "athena", "zeus", "hera"], turn_order=[0, 1, 2],
                    player=[{"gp": 5}, {"gp": 5}, {"gp": 5}],
                    areas={"argos": {"owner": 0, "troops": 1}, "west": {"owner": 0, "fleets": attackers},
                           "naxos": {"owner": 1, "troops": 1}, "north": {"owner": 1, "fleets": defenders},
                           "melos": {"owner": 2, "troops": 1}},
                    decision={"turn": {"player": 0, "god": "poseidon", "stage": "main"}}, dice=dice)


def sea_move(g, frm, n, to):
    act(g, "sea_move", n=1)
    act(g, "origin", where=frm)
    act(g, "take", "fleet", n=n)
    return act(g, "destination", where=to)


def test_sea_battle_round_sentence_names_rolls_and_strengths():
    """Rulebook, Sea Battle: each side rolls the die and adds 1 per Fleet; the lower total
    loses the round. The round's sentence names both sides, rolls and strengths."""
    g = sea_battle_position(dice=[3, 0])  # attacker 3+2=5, defender 0+2=2
    text = lines(g, sea_move(g, "west", 2, "north"))
    assert "Player 1 pays 1 GP for a Sea Move of 2 Fleets from the west to the north." in text
    assert "Player 1 attacks Player 2: a Sea Battle in the north." in text
    assert ("Sea Battle in the north, round 1: Player 1 rolls 3 (strength 5), "
            "Player 2 rolls 0 (strength 2); Player 2 loses the round.") in text
    assert "Player 2 loses a Fleet in the north." in text


def test_tied_round_said_as_a_tie_and_sides_found_on_the_stack():
    """Rulebook, Sea Battle: in case of a tie both players lose the round. A later round,
    described on its own, still names the sides (the battle is on the decision stack)."""
    g = sea_battle_position(dice=[1, 1, 2, 0], attackers=3, defenders=3)
    text = lines(g, sea_move(g, "west", 3, "north"))
    assert ("Sea Battle in the north, round 1: Player 1 rolls 1 (strength 4), "
            "Player 2 rolls 1 (strength 4); a tie: both lose the round.") in text
    assert g.to_move == 1  # 2 Fleets against 2: the defender may retreat
    events = act(g, "hold")
    assert g.to_move == 0
    events += act(g, "hold")  # neither retreats: a new round, 2 Fleets against 1 after it
    assert any(f["kind"] == "battle" for f in g.state.stack)
    rnd = next(e for e in events if e["type"] == "round")
    assert describe(rnd, g) == ("Sea Battle in the north, round 2: Player 1 rolls 2 (strength 4), "
                                "Player 2 rolls 0 (strength 2); Player 2 loses the round.")


def test_narrator_remembers_sides_after_the_battle_is_over():
    """A round described after its battle ended (a replay) names the sides from the
    battle's first event; `describe` alone falls back to attacker/defender."""
    g = sea_battle_position(dice=[3, 0], attackers=2, defenders=1)
    events = sea_move(g, "west", 2, "north")
    assert not any(f["kind"] == "battle" for f in g.state.stack)  # one round ended it
    rnd = next(e for e in events if e["type"] == "round")
    assert "the attacker rolls 3" in describe(rnd, g)
    assert any("Player 1 rolls 3" in t for t in Narrator(g).lines(events))
    assert "Player 1 wins the battle and takes control of the north." in Narrator(g).lines(events)


def test_land_battle_loss_choice_sentence_r18():
    """R18: the loser of a round chooses which unit to lose; the log names it
    (a mercenary Troop here)."""
    g = scenario(gods=["ares", "zeus", "athena", "poseidon", "hera"], turn_order=[0, 1, 2],
                 player=[{"gp": 5}, {"gp": 5}, {"gp": 5}],
                 areas={"argos": {"owner": 0, "troops": 2}, "corinth": {"owner": 1, "troops": 1, "mercs": 1},
                        "naxos": {"owner": 1}, "melos": {"owner": 2, "troops": 1}},
                 decision={"turn": {"player": 0, "god": "ares", "stage": "main"}}, dice=[3, 0])
    act(g, "land_move", n=1)
    act(g, "origin", where="argos")
    act(g, "take", "troop", n=2)
    text = lines(g, act(g, "destination", where="corinth"))
    assert "Player 1 attacks Player 2: a Land Battle on corinth." in text
    assert g.to_move == 1  # the defender chooses its loss
    assert lines(g, act(g, "lose", "merc"))[0] == "Player 2 loses a mercenary Troop on corinth."


def test_metropolis_sentence_cultural_development_with_bonus():
    """Rulebook, Metropolises: a 4th Philosopher builds a Metropolis (Cultural development)
    and its bonus token applies at once (R20: Gain 3 GP here)."""
    g = scenario(gods=["athena", "zeus", "ares", "poseidon", "hera"], turn_order=[0, 1, 2],
                 player=[{"gp": 5, "philosophers": 3}, {"gp": 5}, {"gp": 5}],
                 areas={"naxos": {"owner": 0, "troops": 1}, "argos": {"owner": 1, "troops": 1},
                        "melos": {"owner": 2, "troops": 1}},
                 bonus_stack=["three-gp"], decision={"turn": {"player": 0, "god": "athena"}})
    events = act(g, "build", "university", where="naxos")
    if g.to_move == 0 and any(a.kind == "metropolis" for a in g.legal_actions()):
        events += act(g, "metropolis", where="naxos")
    text = lines(g, events)
    assert "Player 1 builds a University on naxos." in text
    assert "Player 1 takes a Philosopher card." in text
    assert "Player 1 builds a Metropolis on naxos by Cultural development; bonus: Gain 3 GP." in text
    assert "Player 1 receives 3 GP." in text


def test_income_sentence_with_names_and_no_repetition():
    """Rulebook, 2- Income: 1 GP per Cornucopia in the Land and Sea Areas a player controls.
    The log says it once, by name: the per-player GP events are not repeated unless asked."""
    g = scenario(turn_order=[0, 1, 2], gods=["zeus", "ares", "athena", "poseidon", "hera"],
                 areas={"argos": {"owner": 0, "troops": 1}, "melos": {"owner": 1, "troops": 1},
                        "ios": {"owner": 2, "troops": 1}, "east": {"owner": 0, "fleets": 1}},
                 decision={"turn": {"player": 0, "god": "zeus", "stage": "main",
                                    "action_order": [[0, "zeus"]]}})
    events = act(g, "end_turn")  # the last turn: End of Cycle, then the next cycle's Income
    names = ["Alice", "Bob", "Cleo"]
    text = Narrator(g, names).lines(events)
    assert "Cycle 2 begins." in text
    assert "Income: Alice receives 2 GP and Bob receives 2 GP." in text  # argos + east; melos
    assert not any(t.startswith("Alice receives") for t in text)
    assert "Alice receives 2 GP." in Narrator(g, names, full=True).lines(events)


def test_game_over_sentence_shared_victory_r21():
    """R21: most Metropolises, then most GP, else a shared victory."""
    g = offering_position()
    assert describe({"type": "game_over", "winners": [2]}, g) == "The game is over: Player 3 wins."
    assert describe({"type": "game_over", "winners": [0, 1]}, g) == \
        "The game is over: Player 1 and Player 2 share the victory."


def test_areas_read_with_the_right_preposition():
    """Land areas are 'on' (Place a Troop on...), sea areas 'in' (a Fleet in the...)."""
    g = cyclades.new_game(players=3, seed=1)
    land, sea = g.board.lands[0], g.board.seas[0]
    ids = g.board.ids
    assert describe({"type": "troop", "player": 0, "area": ids[land], "count": 1}, g) == \
        f"Player 1 places a Troop on {g.board.names[land]}."
    assert describe({"type": "fleet", "player": 0, "area": ids[sea], "count": 2}, g) == \
        f"Player 1 places 2 Fleets in {log.area_name(g, sea)}."
    assert log.area_name(g, sea).startswith("the ")


# --- robustness: every event, known or not ------------------------------------------------------

def test_unknown_event_falls_back_to_a_sentence():
    """An event type the log does not know still reads as a sentence, never a crash."""
    g = cyclades.new_game(players=3, seed=1)
    s = describe({"type": "sacrificed_hero", "player": 1, "hero": "ajax", "area": g.board.ids[0],
                  "extra": None}, g)
    assert clean(s) and "Player 2" in s and "Ajax" in s and g.board.names[0] in s
    for weird in ({}, {"type": None}, {"type": "offering"}, {"type": "round", "area": 999},
                  {"type": "income", "gains": None}, "not a dict"):
        assert describe(weird, g)


def test_every_placeholder_of_a_declared_sentence_names_a_field():
    """A sentence declared as a catalog message says each placeholder from a field of its kind:
    the field of that name (said as its type says it), or a part made from one ({at}, {gp}...)."""
    templates = [k for k in KINDS if isinstance(k.says, str)]
    assert len(templates) > 40
    for kind in templates:
        named = {field for _name, field, _how in log.parts(kind)}
        assert named <= {f.name for f in kind.fields}, kind.name
    with pytest.raises(ValueError, match="stranger"):
        log.parts(Kind("bad", "never", (Field("player", "player", "who"),), "{player} meets {stranger}"))


def emitted_event_fields():
    """Every g.emit("type", key=...) / ops.emit(g, "type", ...) in the engine: type -> keys."""
    found = {}
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            name = getattr(node.func, "attr", getattr(node.func, "id", None)) if isinstance(node, ast.Call) else None
            if name != "emit":
                continue
            strings = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            if strings:
                found.setdefault(strings[0], set()).update(k.arg for k in node.keywords if k.arg)
    return found


SAMPLE = {"player": 0, "attacker": 0, "defender": 1, "previous": 1,
          "card": "kraken", "hero": "ajax", "god": "zeus", "building": "port", "unit": "troop",
          "count": 2, "amount": 3, "cost": 2, "round": 1, "cycle": 4, "dice": [2, 1],
          "strength": [4, 3], "gains": [1, 0, 2], "winners": [0], "faceup": 2,
          "order": ["zeus", "ares", "athena", "poseidon", "hera"], "sea": False, "heroes": ["ajax"],
          "troops": 2, "mercs": 1, "fleets": 1, "how": "economic", "bonus": "three-gp",
          "deck": "creatures"}


def test_every_engine_event_type_has_its_own_sentence():
    """Each event type the engine emits (found in its source) is declared with its sentence, and
    that sentence is a clean one from the fields the engine sends."""
    found = emitted_event_fields()
    assert len(found) > 30
    missing = sorted(set(found) - set(EVENTS))
    assert not missing, f"engine events without a sentence in engine/events.py: {missing}"
    g = cyclades.new_game(players=3, seed=2)
    ids = g.board.ids  # events name areas by id
    sample = dict(SAMPLE, area=ids[0], origin=ids[0], destination=ids[1], areas=[ids[0], ids[1]],
                  path=[ids[1]])
    for kind, keys in sorted(found.items()):
        event = {"type": kind, **{k: sample.get(k, 1) for k in keys}}
        s = describe(event, g)
        assert clean(s), (kind, s)
        if "player" in keys:
            assert "Player 1" in s, (kind, s)


@pytest.mark.parametrize("players,board", [(3, "random"), (4, "recommended"), (5, "random")])
def test_every_event_of_random_games_reads_cleanly(players, board):
    """Whole random games: every event of every type becomes a clean sentence, and the
    narrated log names each cycle and the result (R21)."""
    seen = set()
    for seed in range(3):
        g = cyclades.new_game(players=players, seed=seed, board=board, max_cycles=60)
        narrator = Narrator(g)
        rng = random.Random(seed)
        text = []
        while not g.is_over:
            events = g.apply(rng.choice(g.legal_actions()))
            for e in events:
                seen.add(e["type"])
                s = describe(e, g)
                assert clean(s), (e, s)
            text += narrator.lines(events)
        assert all(clean(t) for t in text)
        assert sum(t.startswith("Cycle ") and t.endswith(" begins.") for t in text) == g.state.cycle
        assert text[-1].startswith("The game is over")
    assert {"offering", "income", "built", "turn", "game_over"} <= seen


def test_griffin_log_names_no_amount_r24():
    """R24: the Griffin steals half of a hidden purse; the shared log says who stole from whom,
    never how much (which would reveal the victim's GP)."""
    g = scenario(areas={"argos": {"owner": 0}, "naxos": {"owner": 1}, "melos": {"owner": 2}},
                 creature_track=["griffin", "harpy", "dryad", "satyr"],
                 player=[{"gp": 10}, {"gp": 9}, {"gp": 4}],
                 decision={"turn": {"player": 0, "god": "zeus", "stage": "main"}})
    narrator = Narrator(g)
    lines = narrator.lines(g.apply(cyclades.Action("buy_creature", "griffin", n=2)))
    lines += narrator.lines(g.apply(cyclades.Action("target_player", n=1)))
    assert g.state.gp[0] == 10 - 2 + 4
    text = " ".join(lines)
    assert "steals half the GP" in text and "4 GP" not in text and "9" not in text
