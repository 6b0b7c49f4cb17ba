"""A position that loads back: `Game.from_scenario(game.state_dict())` is the same
position -- the same state and generator (R4), the same view for every player (R24), the same
legal actions, and the same future under the same decisions -- in every mode: Legendary with 2
to 6 players and 4 in teams (R22), without Maelström (R2), and the classic game with 2 to 5
(R1, R23). docs/scenarios.md, "A position that loads back".
"""
import json
import random

import pytest
import yaml
from positions import act, scenario

import cyclades
from cyclades.engine.invariants import check

MODES = {
    "legendary-2": dict(players=2),
    "legendary-3": dict(players=3),
    "legendary-4": dict(players=4),
    "legendary-4-teams": dict(players=4, teams=True),
    "legendary-5": dict(players=5),
    "legendary-6": dict(players=6),
    "no-maelstrom-3": dict(players=3, maelstrom=False),
    "no-maelstrom-5": dict(players=5, maelstrom=False),
    "classic-2": dict(players=2, ruleset="classic"),
    "classic-3": dict(players=3, ruleset="classic"),
    "classic-4": dict(players=4, ruleset="classic"),
    "classic-5": dict(players=5, ruleset="classic"),
}
SAMPLE = [(mode, seed) for mode in MODES for seed in range(2)]
FULL = [(mode, seed) for mode in MODES for seed in range(40)]


def reload(game) -> cyclades.Game:
    """The game written as a scenario, through JSON text (the dict is plain data), and loaded."""
    data = json.loads(json.dumps(game.state_dict()))
    return cyclades.Game.from_scenario(data)


def assert_same_position(a, b):
    assert b.state.to_dict() == a.state.to_dict()  # generator, piles, stack, bookkeeping: all of it
    for p in [None] + list(range(a.state.n)):
        assert b.view(p) == a.view(p)
    assert b.legal_actions() == a.legal_actions()
    assert b.to_move == a.to_move and b.phase == a.phase and b.is_over == a.is_over
    assert b.result() == a.result()


def assert_same_future(a, b, rng, steps=25):
    """The same decisions give the same events and the same positions, dice and shuffles
    included (R4)."""
    a = a.copy()
    for _ in range(steps):
        if a.is_over:
            break
        action = rng.choice(a.legal_actions())
        assert b.apply(action) == a.apply(action)
        assert not check(b)
    assert b.state.to_dict() == a.state.to_dict()


def export_along_a_game(mode, seed, exports=6):
    options = MODES[mode]
    game = cyclades.new_game(seed=seed, max_cycles=40, **options)
    rng = random.Random(seed * 7 + len(mode))
    points = set(rng.sample(range(0, 400), exports))
    step = checked = 0
    while not game.is_over:
        if step in points:
            loaded = reload(game)
            assert_same_position(game, loaded)
            assert_same_future(game, loaded, random.Random(step))
            checked += 1
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    over = reload(game)  # a finished game too
    assert_same_position(game, over)
    return checked


@pytest.mark.parametrize("mode,seed", SAMPLE)
def test_state_dict_loads_back_into_the_same_position(mode, seed):
    export_along_a_game(mode, seed)


@pytest.mark.slow
@pytest.mark.parametrize("mode,seed", FULL)
def test_state_dict_loads_back_into_the_same_position_full(mode, seed):
    export_along_a_game(mode, seed, exports=12)


def test_state_dict_after_every_decision_of_a_game():
    """Every decision point of one 3-player game and one classic 2-player game (R23), not a
    sample: placement, offerings with kick-outs (R10), battles mid-round, moves mid-sequence (R26)."""
    for seed, options in ((23, dict(players=3)), (3, dict(players=2, ruleset="classic"))):
        game = cyclades.new_game(seed=seed, max_cycles=6, **options)
        rng = random.Random(seed)
        kinds = set()
        while not game.is_over:
            kinds.add(game.state.stack[-1]["kind"])
            assert_same_position(game, reload(game))
            game.apply(rng.choice(game.legal_actions()))
        if options.get("ruleset") == "classic":
            assert {"offer", "turn", "creature"} <= kinds and "placement" not in kinds  # printed starts (R8)
        else:
            assert {"placement", "offer", "maintain", "turn", "battle", "land_move", "metropolis"} <= kinds


def test_state_dict_mid_battle_keeps_the_attackers_units_in_the_battle():
    """R18: during a battle the attacker's units stand in the battle (engine/battle.py), not on
    the board nor in the reserve: the export keeps them there and the reserves right (R28)."""
    g = scenario(areas={"argos": {"owner": 0, "troops": 3}, "corinth": {"owner": 1, "troops": 2},
                        "melos": {"owner": 2}, "naxos": {"owner": 1}},
                 dice=[], decision={"turn": {"player": 0, "god": "ares", "stage": "main"}},
                 player=[{"gp": 9}, {}, {}])
    act(g, "land_move", n=1)
    act(g, "origin", where="argos")
    act(g, "take", "troop", n=3)
    act(g, "destination", where="corinth")
    battle = next(f for f in g.state.stack if f["kind"] == "battle")
    assert battle["attacker_troops"] == 3 and g.state.troops_left[0] == 8 - 3
    loaded = reload(g)
    assert_same_position(g, loaded)
    assert loaded.state.troops_left[0] == 5
    assert_same_future(g, loaded, random.Random(1), steps=40)


def test_state_dict_is_readable_scenario_data():
    """The export uses the documented keys: area ids, pile tops first, each purse once (R22)."""
    g = scenario(players=4, teams=True,
                 areas={"argos": {"owner": 0, "troops": 2, "heroes": ["ajax"],
                                  "buildings": ["port", "metropolis"], "bonuses": ["three-gp"]},
                        "west": {"owner": 0, "fleets": 1}, "naxos": {"owner": 1},
                        "melos": {"owner": 2}, "ios": {"owner": 3}},
                 player=[{"gp": 7}, {"gp": 4}],
                 creature_deck=["medusa", "kraken"], recruited_this_cycle=["ajax"], cycle=2,
                 decision={"turn": {"player": 0, "god": "ares", "stage": "main"}})
    d = g.state_dict()
    yaml.safe_dump(d)  # plain data
    assert d["areas"]["argos"] == {"owner": 0, "troops": 2, "heroes": ["ajax"],
                                   "sites": ["port", "metropolis"], "bonuses": ["three-gp"]}
    assert d["areas"]["west"] == {"owner": 0, "fleets": 1}
    assert d["creature_deck"][:2] == ["medusa", "kraken"]
    assert [p.get("gp") for p in d["player"]] == [7, 4, None, None]  # R22: the holders' purses
    assert d["recruited_this_cycle"] == ["ajax"] and d["teams"] is True
    assert_same_position(g, cyclades.Game.from_scenario(d))


def test_a_loaded_position_replays_from_its_record():
    """R4: a game loaded from a state_dict keeps the scenario in its record, so that its replay
    (from_record) reaches the same position."""
    game = cyclades.new_game(players=4, seed=9, max_cycles=30)
    rng = random.Random(9)
    for _ in range(120):
        game.apply(rng.choice(game.legal_actions()))
    loaded = reload(game)
    for _ in range(60):
        if loaded.is_over:
            break
        loaded.apply(rng.choice(loaded.legal_actions()))
    again = cyclades.Game.from_record(json.loads(json.dumps(loaded.record())))
    assert again.state.to_dict() == loaded.state.to_dict()
